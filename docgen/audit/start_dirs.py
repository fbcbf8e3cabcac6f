"""A sentence of the README saying where a container of the image starts (its working folder) while the
Dockerfile sets another: `The working directory inside the container is `/opt/app``, `You will be
dropped into a shell in the container's `/build` directory`, `users will be in the docker instance under
the text-generation folder`, against `WORKDIR /srv/tool`.

A claim is read from prose (a list item too) in two shapes: the working directory (folder) of the
container or image `is` / `is set to` / `defaults to` a path written as a code span or starting with
`/`; or the reader (`you`, `users`) `will be` / `land` / `start` / `is dropped` in, into or under a path
(code span or `/…`) or a named folder (`the text-generation folder`, `the src directory`), in a sentence
that names the container, the image, Docker or a shell. An absolute path contradicts unless it is the
working folder; a relative one or a folder name unless it ends that folder's path or is one of its parts
(`workspace` for `/root/workspace`). Words that name no folder of their own (`home`, `current`,
`project`, `repository`, `mounted` …) are not read. A sentence `settings` reads (`The default working
directory is `/app``, `WORKDIR is `/app``) is its finding, not this one's.

Silent unless every audited Dockerfile sets its target's working folder with WORKDIR, in no variable
(without one the base image decides), and each of them contradicts; when an ENTRYPOINT or CMD of the
target moves (`cd`) or runs a script that may; when a command of the README sets the folder itself
(`docker run -w`, `--workdir`, `docker exec -w`) or a compose file beside the README or a Dockerfile sets
`working_dir:` or holds more than one service (which container is meant is not said); when the sentence
is an example, a condition or a negation (`e.g.`, `if`, `unless`, `not`, `instead`), is about the host
or names another image or container (`the worker container`). `likely`: the sentence is prose.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.commands import image_repository
from docgen.audit.container_scripts import work_dir
from docgen.audit.mount_claims import declared_volumes
from docgen.audit.run_args import PLAIN_BASES
from docgen.audit.settings import THE, WORKDIR_CLAIM, of_another
from docgen.audit.wording import line_at, sentences
from docgen.compose import COMPOSE_FILE
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PATH = r"(?:`(?P<span>~?/?[\w.-]+(?:/[\w.-]+)*/?)`|(?P<abs>/[\w.-]+(?:/[\w.-]+)*/?)(?![\w/.-]))"
"""A path written as a code span (`` `/opt/app` ``, `` `build` ``) or in plain text from the root."""
_WORKING = re.compile(
    r"\bworking[ \t-]+(?:directory|dir|folder)\b[^.;!?`]{0,60}?\b(?:is|will[ \t]+be|defaults[ \t]+to)"
    r"(?:[ \t]+(?:set[ \t]+to|always|now))?[ \t]+(?:the[ \t]+(?:folder|directory)[ \t]+)?"
    + _PATH
    + r"|\bworking[ \t-]+(?:directory|dir|folder)[ \t]*\([ \t]*"
    + _PATH.replace("?P<span>", "?P<span2>").replace("?P<abs>", "?P<abs2>")
    + r"[ \t]+by[ \t]+default[ \t]*\)",
    re.IGNORECASE,
)
"""`the working directory inside the container is `/opt/app``, `working folder defaults to /srv`,
`created in the working directory (`/data` by default)`."""
_LANDS = re.compile(
    r"\b(?:you|users?)(?:[ \t]+(?:will|'ll|would|should|are|is|get))?[ \t]+"
    r"(?:be|land|start|end[ \t]+up)(?:[ \t]+(?:dropped|placed|put))?[ \t]+(?:in|into|inside|under|at)\b"
    r"|\bdrops?[ \t]+you[ \t]+(?:in|into)\b",
    re.IGNORECASE,
)
"""The reader lands somewhere: `you will be dropped into`, `users will be in`, `drops you into`."""
_WHERE = re.compile(
    r"[^.;!?]{0,80}?(?:"
    + _PATH
    + r"|\b(?:the[ \t]+)?(?P<name>[A-Za-z][\w.-]*)[ \t]+(?:folder|directory|dir)\b)"
)
"""What follows the landing words: a path, or a folder named before `folder` / `directory`."""
_ABOUT_CONTAINER = re.compile(r"\b(?:container|image|docker|shell|instance)s?\b|\bWORKDIR\b", re.IGNORECASE)
"""Words making a sentence about the container (not about the reader's own machine)."""
_NOT_A_CLAIM = re.compile(
    r"\b(?:e\.g\.|for[ \t]+example|such[ \t]+as|if|unless|not|instead|rather|otherwise|host|never)\b|n't\b",
    re.IGNORECASE,
)
"""Words of an example, a condition, a negation, or the host's side."""
_NO_FOLDER = frozenset(
    {"home", "current", "working", "same", "root", "project", "projects", "repository", "repo", "this"}
    | {"that", "your", "my", "our", "a", "an", "the", "following", "right", "correct", "desired", "mounted"}
    | {"shared", "top", "parent", "work", "host", "local", "new", "given", "specified", "default", "base"}
    | {"main", "cloned", "source", "code", "its", "their", "his", "her", "which", "whichever", "any"}
)
"""Words before `folder` / `directory` that name no folder of the image (`the home directory`)."""
_SETS_FOLDER = re.compile(r"(?:^|[ \t])(?:-w|--workdir)(?:[ \t=]|\Z)")
"""A command option setting the container's working folder (`docker run -w /app`)."""
_MOVES = re.compile(r"(?:^|[;&|(\s\"'])(?:cd|pushd)[ \t]|\.sh\b|\.bash\b")
"""An ENTRYPOINT or CMD that moves, or runs a script that may."""
_SERVICE = re.compile(r"^[ \t]{2}[\w.-]+:[ \t]*$", re.MULTILINE)
"""A service of a compose file's `services:` (two spaces in, a name and a colon alone)."""


def work_dir_claims(
    doc: Document, path: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """The sentences of `doc` saying a container of the image starts in a folder that no audited
    Dockerfile's last WORKDIR is (see the module's docstring)."""
    if not models or not any(
        _WORKING.search(text) or _LANDS.search(text) for para in doc.paragraphs for _, text in para.lines
    ):
        return  # (nearly every README; a claim split over two lines is read through its sentence)
    folders = [_start_folder(model) for model in models]
    if any(f is None for f in folders) or any(_moves(model) for model in models):
        return
    volumes = declared_volumes(models)
    if _sets_folder(doc) or (directory is not None and _compose_unclear([directory, *_homes(models)])):
        return
    found: dict[tuple[str, str], list[int]] = {}
    for para in doc.paragraphs:
        for start, _end, sentence in sentences(para.lines):
            said_here = list(_said_folders(sentence))
            about = _ABOUT_CONTAINER.search(sentence) or any(_norm(f) in volumes for f in said_here)
            if not about or _NOT_A_CLAIM.search(sentence):
                continue
            if of_another(sentence, THE | {"your", "a", "running"}):
                continue
            for said in said_here:
                if not said.startswith("/") and any(f is not None and not f[1] for f in folders):
                    continue  # a folder's name against the base's `/`: a path of the reader's may be meant
                wrong = [f for f in folders if f is not None and not _agrees(said, f[0])]
                if len(wrong) == len(folders):
                    line = line_at(para.lines, start)
                    found.setdefault((said, _fact(models, folders)), []).append(line)
    for (said, fact), lines in found.items():
        yield Diagnostic(
            path,
            lines[0],
            f"README says a container of the image starts in {said}, but {fact}{also_at(lines)}",
            confidence=LIKELY,
        )


def _said_folders(sentence: str) -> Iterator[str]:
    """The folders `sentence` says a container starts in, as written (a path or a folder's name)."""
    for match in () if WORKDIR_CLAIM.search(sentence) else _WORKING.finditer(sentence):
        said = match.group("span") or match.group("abs") or match.group("span2") or match.group("abs2")
        if said and not said.startswith("~"):
            yield said
    for match in _LANDS.finditer(sentence):
        where = _WHERE.match(sentence, match.end())
        if where is None:
            continue
        said = where.group("span") or where.group("abs") or where.group("name")
        if not said or said.startswith("~"):
            continue
        if where.group("name") and (said.lower() in _NO_FOLDER or len(said) < 3):
            continue
        yield said


def _agrees(said: str, folder: str) -> bool:
    """True when the folder `said` may be the working folder `folder`: the same path from the root; a
    relative path or name that ends it or is one of its parts."""
    said = said.rstrip("/") or "/"
    if said.startswith("/"):
        return posixpath.normpath(said) == folder
    parts = [p for p in folder.split("/") if p]
    if "/" in said:
        return folder.endswith("/" + posixpath.normpath(said))
    return said in parts


def _fact(models: Sequence[ImageModel], folders: Sequence[tuple[str, int] | None]) -> str:
    """The WORKDIR of each audited Dockerfile, for the finding."""
    told = [
        f"{model.path}:{f[1]} sets WORKDIR {f[0]}"
        if f[1]
        else f"{model.path} sets no WORKDIR and its base {_base(model)} starts in /"
        for model, f in zip(models, folders, strict=True)
        if f
    ]
    return "; ".join(told)


_ROOT_BASES = PLAIN_BASES | {"python", "pypy"}
"""Base images that set no WORKDIR: a container of an image built on one with none starts in `/`."""


def _base(model: ImageModel) -> str:
    chain = model.chain()
    return chain[-1].base if chain else ""


def _start_folder(model: ImageModel) -> tuple[str, int] | None:
    """(folder, line) a container of the image starts in: its WORKDIR (`work_dir`), else `/` (line 0)
    when no stage of the target sets one and its base is one that sets none (`_ROOT_BASES`); None when
    that is unknown (a WORKDIR in a variable, another base)."""
    labels = {stage.label for stage in model.chain()}
    if any(s.keyword == "WORKDIR" and s.stage in labels for s in model.settings):
        return work_dir(model)
    repository = image_repository(_base(model)).removeprefix("docker.io/").removeprefix("library/")
    return ("/", 0) if repository in _ROOT_BASES else None


def _norm(path: str) -> str:
    return posixpath.normpath(path) if path.startswith("/") else path


def _moves(model: ImageModel) -> bool:
    """True when the target's ENTRYPOINT or CMD moves to another folder or runs a script that may."""
    labels = {stage.label for stage in model.chain()}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            words = " ".join(setting.exec_form) if setting.exec_form is not None else setting.value
            if _MOVES.search(words):
                return True
    return False


def _sets_folder(doc: Document) -> bool:
    """True when a command of the README sets a container's working folder itself (`-w`, `--workdir`)."""
    return any(_SETS_FOLDER.search(text) for fence in doc.fences for _, text in fence.lines)


def _homes(models: Sequence[ImageModel]) -> list[Path]:
    """The folders of the audited Dockerfiles."""
    return [Path(model.file).parent for model in models if model.file]


def _compose_unclear(folders: Sequence[Path]) -> bool:
    """True when a compose file in one of `folders` sets `working_dir:` or defines several services."""
    seen: set[Path] = set()
    for folder in folders:
        try:
            names = sorted(p.name for p in folder.iterdir() if COMPOSE_FILE.fullmatch(p.name))
        except OSError:
            continue
        for name in names:
            file = real_path(folder / name)
            if file in seen:
                continue
            seen.add(file)
            text = text_or_none(file)
            if text is None:
                return True
            if "working_dir" in text or len(_SERVICE.findall(text)) > 1:
                return True
    return False
