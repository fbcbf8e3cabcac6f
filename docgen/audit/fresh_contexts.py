"""A `docker build` a README runs in a folder its own commands have just made and filled only with
downloads: `mkdir app-docker && cd app-docker`, `wget https://…/docker/gpu/Dockerfile.gpu`, then
`docker build -f Dockerfile.gpu -t app .`. The build context is that folder, holding nothing but the
files downloaded there, so a COPY or ADD of the audited Dockerfile of that name that takes another
file of the context cannot work.

Reported once a build: `certain` when the Dockerfile copies a named file or folder the downloads did not
bring (`COPY entrypoint.sh /`: the build stops there), `likely` when it copies the whole context
(`COPY . /src`: the copy holds only the Dockerfile, so the project's sources the later steps build from
are not there). Read in one command block, top to bottom: after `mkdir D` and `cd D` (or `mkdir -p D &&
cd D`), each `wget URL` (or `-O NAME`) and `curl -O URL` / `curl -o NAME URL` adds its file; any other
command that may put files there (`cp`, `mv`, `git clone`, `tar`, `unzip`, `touch`, a redirect, `cat`, a
script run, another `cd`) ends the reading of that folder. The Dockerfile must be one of the downloads
and share its name with an audited Dockerfile; the build must be Docker's own, with the context `.`.
Silent for a COPY from another stage or an image (`--from`), of a URL, of a source with a variable left
unexpanded, and for a Dockerfile that copies nothing from its context (it clones or downloads what it
builds).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_paths, fence_commands, joined, without_prompt
from docgen.build_scripts import DOCKER, build_command
from docgen.copied import context_path
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_DOCKER_BUILD = re.compile(build_command(DOCKER))
"""Docker's own build command (`docker build`, `docker buildx build`, `docker image build`)."""
_STEP_SPLIT = re.compile(r"[ \t]*(?:&&|;)[ \t]*")
_MKDIR = re.compile(r"(?:sudo[ \t]+)?mkdir(?:[ \t]+-[pv]+)*[ \t]+([\w.+-]+)/?\Z")
"""`mkdir -p app-docker`: one plain folder name (no variable, no path)."""
_CD = re.compile(r"(?:cd|pushd)[ \t]+([\w.+-]+)/?\Z")
_WGET = re.compile(r"wget\b(?P<rest>.*)")
_CURL = re.compile(r"curl\b(?P<rest>.*)")
_URL = re.compile(r"https?://[^\s\"'`]+")
_PLACES = re.compile(
    r"\b(?:cp|mv|ln|rsync|scp|git|tar|unzip|7z|touch|tee|cat|echo|printf|install|gdown|make|cmake)\b"
    r"|>|\./|\bsh\b|\bbash\b|\bpython3?\b"
)
"""A command that may put a file in the folder that docgen does not follow: the reading stops."""


@dataclass
class _Folder:
    name: str
    line: int
    files: list[str] = field(default_factory=list)


def _downloaded(step: str) -> str | None:
    """The file name a `wget` or `curl` step saves in the current folder, or None when it saves none
    there or docgen cannot tell (`-O -`, `-P dir`, a path, no URL)."""
    for pattern, saved in ((_WGET, ("-O", "--output-document")), (_CURL, ("-o", "--output"))):
        match = pattern.match(step)
        if match is None:
            continue
        words = match.group("rest").split()
        url = next((w.strip("\"'") for w in words if _URL.fullmatch(w.strip("\"'"))), None)
        named = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in saved), None)
        given = (w.split("=", 1)[1] for w in words if w.startswith(tuple(f"{o}=" for o in saved)))
        named = named or next(given, None)
        if named is not None:
            named = named.strip("\"'")
            return named if re.fullmatch(r"[\w.+-]+", named) and named != "-" else None
        if pattern is _WGET and any(w in ("-P", "--directory-prefix") or w.startswith("-P") for w in words):
            return None
        remote = (re.fullmatch(r"-[A-Za-z]*O[A-Za-z]*|--remote-name", w) for w in words)
        if pattern is _CURL and not any(remote):
            return None  # curl without -O writes to standard output
        if url is None:
            return None
        name = posixpath.basename(url.split("?", 1)[0].split("#", 1)[0])
        return name if re.fullmatch(r"[\w.+-]+", name) else None
    return None


def _fresh_builds(doc: Document) -> Iterator[tuple[int, _Folder, str]]:
    """(README line, the folder, the `-f` file name or `Dockerfile`) of each Docker build with the
    context `.` run in a folder the block made and entered (see the module)."""
    for fence in doc.fences:
        made: dict[str, int] = {}  # folders `mkdir` made in this block → the line
        folder: _Folder | None = None
        for command in fence_commands(fence):
            line = command[0][0]
            text = without_prompt(joined(command)).split(" #", 1)[0].strip()
            for step in _STEP_SPLIT.split(text):
                step = step.strip()
                if not step:
                    continue
                if (mkdir := _MKDIR.fullmatch(step)) is not None:
                    made[mkdir.group(1)] = line
                    continue
                if (cd := _CD.fullmatch(step)) is not None:
                    name = cd.group(1)
                    folder = _Folder(name, made[name]) if name in made and folder is None else None
                    continue
                if folder is None:
                    continue
                if step.startswith(("wget", "curl")):
                    saved = _downloaded(step)
                    if saved is None:
                        folder = None
                    else:
                        folder.files.append(saved)
                    continue
                if _DOCKER_BUILD.search(step):
                    paths = build_paths(step)
                    if paths is not None and paths[1] in (".", "./"):
                        yield line, folder, paths[0] or "Dockerfile"
                    continue
                if _PLACES.search(step) or step.startswith(("cd", "pushd", "popd")):
                    folder = None


def fresh_contexts(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """A finding for each build of `_fresh_builds` whose Dockerfile (a download of that name, an audited
    Dockerfile of the same name) copies from its context what the downloads did not bring."""
    if "mkdir" not in text:
        return
    by_name: dict[str, list[ImageModel]] = {}
    for model in models:
        if model.file:
            by_name.setdefault(posixpath.basename(model.file.replace("\\", "/")), []).append(model)
    for line, folder, dockerfile in _fresh_builds(doc):
        if dockerfile not in folder.files or len(by_name.get(dockerfile, [])) != 1:
            continue
        model = by_name[dockerfile][0]
        held = set(folder.files)
        missing: list[tuple[int, str]] = []
        whole: int | None = None
        for copy in model.context_copies:
            if copy.heredoc:
                continue
            for word in copy.sources:
                path = context_path(word)
                if path is None or "$" in path:
                    continue
                if path in (".", "*"):
                    whole = whole or copy.line
                elif path.split("/", 1)[0] not in held and not any(c in path for c in "*?["):
                    missing.append((copy.line, path))
        got = ", ".join(folder.files)
        where = f"the folder {folder.name} the README makes (line {folder.line}), which holds only {got}"
        if missing:
            named = ", ".join(f"{p} (line {n})" for n, p in missing[:3])
            more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
            yield Diagnostic(
                readme,
                line,
                f"README builds {model.path} in {where}, but it copies {named}{more} from the context: "
                "the build stops there (build from a checkout of the repository)",
                confidence=CERTAIN,
            )
        elif whole is not None:
            yield Diagnostic(
                readme,
                line,
                f"README builds {model.path} in {where}, but {model.path}:{whole} copies the whole "
                "context: none of the project's files are in it (build from a checkout of the repository)",
                confidence=LIKELY,
            )
