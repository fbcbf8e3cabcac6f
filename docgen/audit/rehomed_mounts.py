"""A README's mounts into a project folder at the container's top (`-v ./cache:/KestrelML/data/cache`),
in its command blocks or a script it runs (`./run.sh`), while the image builds that project elsewhere
(`git clone … /home/${USER}/KestrelML`, `WORKDIR /home/${USER}/KestrelML`): the mount makes a new,
empty `/KestrelML` that nothing in the image reads, and what the reader expects to find there (caches,
results) stays in the image.

A claim only when the top folder's name is one a project gives (`DISTINCT`: `KestrelML`, `deps_ws`;
not a word any tree has: `/data`, `/workspace`, `/models`, which an app is often told of by a flag or
an env), it is no system folder, the Dockerfile makes a folder of that name below another
(`/home/dev/KestrelML`: a WORKDIR, a clone, a COPY destination, as built), and neither the
Dockerfile, the build-context files next to it or copied by it (an entrypoint may link or read it),
the README outside its mounts nor the script outside its mounts names the top folder at the root
(`--cache /KestrelML/data`, `ln -s … /KestrelML`; a mount is no use of it: a launcher next to the
Dockerfile restates them). One finding a README line and top folder, `likely`: the program may be
told of the folder by a way docgen does not read.
The other way round (`_twins`): a mount into a project folder below a home or a folder projects are put
in (`-v ~/ws:/root/ros2_ws`, `/home/user/Development/webui/models`) while the image makes a folder of that
name under one other parent (`WORKDIR /ros2_ws`, a clone into `/home/user/webui`), never the mounted one,
and no path written in those texts (comments, URLs and relative words aside) has the name under any
parent but the image's (`~/ros2_ws`, `-w /root/ros2_ws`, `ln -s /root/ros2_ws …` keep it silent).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.image_paths import (
    COMMON,
    DISTINCT,
    MOUNT_WORDS,
    SYSTEM,
    clean_path,
    context_text,
    read_image,
)
from docgen.audit.missing import code_paths, name_key, near_names
from docgen.audit.plain_bases import plain_base, root_base
from docgen.audit.run_args import foreign_runs, offered_runs
from docgen.audit.wording import COMMAND_LANGS
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_RUNS_SCRIPT = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:(?:bash|sh)[ \t]+)?"
    r"((?:\./)?[\w.-]+(?:/[\w.-]+)*\.sh)(?=$|[ \t;&|])"
)
"""A shell script a command runs from the README's folder (`./run.sh`, `bash scripts/start.sh`)."""
_MOUNT = re.compile(
    r"(?:(?<![\w-])(?:-v|--volume)(?:[ \t]+|=)[\"']?[^\s:]*:[\"']?(/[^\s:\"',]*)"
    r"|(?:target|destination|dst)=(/[^\s,\"']*))"
)
"""The folder a `-v HOST:/in/image` (`-v "${PWD}/x":"/in/image"`, quoted apart) or `--mount
…,target=/in/image` puts there."""
_SCRIPT_BYTES = 64_000
"""The most of a script read: a launcher is a few lines."""


def _mounts(lines: Sequence[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """(line, container folder) of each mount of `lines` whose target is known (no variable)."""
    for number, text in lines:
        for match in _MOUNT.finditer(text):
            path = clean_path(match.group(1) or match.group(2) or "")
            if path is not None and path != "/":
                yield number, path


def at_root(name: str, text: str) -> bool:
    """True when `text` names `/name` at the root (`/name`, `/name/x`), not below a folder or a
    variable (`/home/dev/name`, `${HOME}/name`)."""
    return re.search(rf"(?<![\w.~$}}{{/:@%-]){re.escape('/' + name)}(?![\w.+@-])", text) is not None


_ROOT_NAME = re.compile(r"(?<![\w.~$}{/:@%-])/([\w.+@-]*)")
"""A name at the root as `at_root` reads one: all the name's marks after the slash."""
_NAME_MARKS = re.compile(r"[\w.+@-]+")


class RootNames:
    """`at_root` of any name in one text, the text read once: asked of each folder a README mounts
    (thousands of `-v` or mount clauses), `at_root` read the whole text again for each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.names = {m.group(1) for m in _ROOT_NAME.finditer(text)}

    def __contains__(self, name: str) -> bool:
        if _NAME_MARKS.fullmatch(name):
            return name in self.names
        return at_root(name, self.text)  # a mark the pattern stops at: read as written


def _launched(doc: Document, directory: Path) -> Iterator[tuple[int, str, str]]:
    """(README line, script as written, its text) of each shell script next to the README that a
    command block runs."""
    seen: set[str] = set()
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for number, text in fence.lines:
            for match in _RUNS_SCRIPT.finditer(text.strip()):
                written = match.group(1)
                if written in seen:
                    continue
                seen.add(written)
                if (script := text_or_none(directory / written, _SCRIPT_BYTES)) is not None:
                    yield number, written, script


def rehomed_mounts(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """One finding a README line (its command or the script it runs) and top folder it mounts into
    that the image keeps below another folder (see the module's docstring)."""
    others = offered_runs(doc, text)  # (a run of a pre-built release offered starts that image)
    others |= foreign_runs(doc)  # (and one of another project's image, its own folders)
    readme_lines = [
        (n, t) for f in doc.fences if f.lang in COMMAND_LANGS for n, t in f.lines if n not in others
    ]
    sources: list[tuple[int, str, list[tuple[int, str]], str]] = [  # (line, by, mounts, text)
        (number, "", [(number, t) for _, t in _mounts([(number, t)])], "") for number, t in readme_lines
    ]
    sources = [s for s in sources if s[2]]
    for number, written, script in _launched(doc, directory):
        lines = list(enumerate(script.splitlines(), 1))
        code = [(n, t) for n, t in lines if not t.lstrip().startswith("#")]
        targets = [(number, t) for _, t in _mounts(code)]
        if targets:
            sources.append((number, written, targets, MOUNT_WORDS.sub(" ", script)))
    if not sources:
        return
    outside = MOUNT_WORDS.sub(" ", text)
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    if not images:
        return
    contexts = [context_text(image.file, image.copies, str(directory)) for image in images]
    if any(c is None for c in contexts):
        return  # more than docgen reads: what the image holds is not known
    context = MOUNT_WORDS.sub(" ", "\n".join(c or "" for c in contexts))  # (a launcher's mounts are no use)
    in_context, in_outside = RootNames(context), RootNames(outside)
    below: dict[str, list[tuple[str, int, str]]] = {}  # a folder's name: the paths made below it
    for image in images:
        for path, at in {**image.made, **image.built}.items():
            for part in set(path.split("/")[2:]):
                below.setdefault(part, []).append((path, at, image.path))
    anywhere: dict[str, list[tuple[str, int, str]]] = {}  # a folder's name: the image's folders of it
    for image in images:
        for path, at in {**image.made, **image.built}.items():
            parts = path.split("/")[:_DEPTH]
            for i in range(1, len(parts)):
                anywhere.setdefault(parts[i], []).append(("/".join(parts[: i + 1]), at, image.path))
    parents = _parents(_COMMENT.sub("", context))
    _parents(outside, parents)
    told: set[tuple[int, str]] = set()
    for line, script, targets, script_text in sources:
        in_script = RootNames(script_text)
        yield from _twins(
            readme, line, script, targets, anywhere, parents, _parents(_COMMENT.sub("", script_text)), told
        )
        by_top: dict[str, set[str]] = {}
        for _, target in targets:
            by_top.setdefault(target.split("/")[1], set()).add(target)
        for _, target in targets:
            top = target.split("/")[1]
            if (line, top) in told or "/" + top in SYSTEM or not DISTINCT.fullmatch(top):
                continue
            if top in in_context or top in in_outside or top in in_script:
                continue
            homes = sorted(below.get(top, ()))
            if not homes:
                continue
            told.add((line, top))
            home, at, shown = homes[0]
            parts = home.split("/")
            home = "/".join(parts[: parts.index(top, 2) + 1])
            mounted = sorted(by_top[top])
            by = f"README runs {script}, which mounts" if script else "README mounts"
            yield Diagnostic(
                readme,
                line,
                f"{by} {', '.join(mounted)}, but {shown} never names /{top}: it puts {top} at {home} "
                f"(line {at})",
                confidence=LIKELY,
            )


_DEPTH = 12
"""The most parts of a path read for a project folder's name (a path is a few folders deep)."""
_PATH_WORD = re.compile(r"[\w.~${}()@+-]*(?:/[\w.~${}()@+-]*)+")
"""A path as written in a text (`/ros2_ws/src`, `~/ros2_ws`, `${HOME}/ros2_ws`, `/home/$(whoami)/ws`)."""
_PARENTS = frozenset("/root /home /opt /srv /usr/local /usr/src".split())
"""The folders a project is put in (with any folder below a home): not `/tmp`, `/mnt`, `/media`, where
a mount is a folder of its own that a flag names."""
_COMMENT = re.compile(r"^[ \t]*#(?!!).*$", re.MULTILINE)
"""A comment line of a Dockerfile or a script: no path the image uses."""


def _parents(text: str, into: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Each folder name of the paths written in `text` → the parents it is written below as written
    (`/ros2_ws` → `""`, `~/ros2_ws` → `~`, `/root/ros2_ws/src` → `/root`), the text read once."""
    names = {} if into is None else into
    for match in _PATH_WORD.finditer(text):
        parts = match.group().split("/")[:_DEPTH]
        if parts[0][:1] not in ("", "~", "$", ".") or match.group().startswith("//"):
            continue  # relative to the working folder, an image's name (`owner/ros2_ws`), a URL's
        for i in range(1, len(parts)):
            if parts[i]:
                names.setdefault(parts[i], set()).add("/".join(parts[:i]))
    return names


def _twins(
    readme: str,
    line: int,
    script: str,
    targets: Sequence[tuple[int, str]],
    anywhere: dict[str, list[tuple[str, int, str]]],
    parents: dict[str, set[str]],
    in_script: dict[str, set[str]],
    told: set[tuple[int, str]],
) -> Iterator[Diagnostic]:
    """A mount below a system folder (`-v ~/ws:/root/ros2_ws`) into a project folder's name the image
    keeps under another parent (`WORKDIR /ros2_ws`), while no text docgen reads names the name under
    any parent but the image's (see the module's docstring)."""
    for _, target in targets:
        parts = target.split("/")[:_DEPTH]
        index = next((i for i in range(2, len(parts)) if DISTINCT.fullmatch(parts[i])), 0)
        if not index or parts[index] in COMMON or not all(parts[1:index]):
            continue
        name, mounted, parent = parts[index], "/".join(parts[: index + 1]), "/".join(parts[:index])
        if (line, name) in told or not (parent in _PARENTS or parent.startswith(("/home/", "/root/"))):
            continue
        homes = sorted(anywhere.get(name, ()))
        if not homes or any(h[0] == mounted for h in homes):
            continue
        own = {h[0].rsplit("/", 1)[0] for h in homes}
        if len(own) != 1 or not (parents.get(name, set()) | in_script.get(name, set())) <= own:
            continue  # (the name under another parent: a link, `~/ros2_ws`, a flag may lead there)
        told.add((line, name))
        home, at, shown = homes[0]
        mounted_all = sorted({t for _, t in targets if t == mounted or t.startswith(mounted + "/")})
        by = f"README runs {script}, which mounts" if script else "README mounts"
        yield Diagnostic(
            readme,
            line,
            f"{by} {', '.join(mounted_all)}, but {shown} never names {mounted}: it puts {name} at {home} "
            f"(line {at})",
            confidence=LIKELY,
        )


_HOST_FOLDER = re.compile(
    r"(?<![\w-])(?:-v|--volume)(?:[ \t]+|=)[\"']?(?:\$\{PWD\}|\$PWD|\$\(pwd\)|\.)/([\w.-]+)/?[\"']?:"
)
"""The host side of a mount of a folder in the current one (`-v "${PWD}/cache":…`, `-v ./cache:…`):
its name."""
_FOLDER_CODE = re.compile(r"(?:\./)?([\w.=+-]+)/?\Z")
"""A folder's name in code (`cache/`, `./cache`): one part."""


def mapped_slips(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A folder's name in code in the README's prose (`experiment-=figures/`) that nothing of its folder
    has, a slip (`missing.near_names`: separators or case, or one character added, dropped, changed or two
    swapped in a name of five or more, no digit, not a plural `s`) away from exactly one folder of the
    current one that a script the README runs mounts (`-v "${PWD}/experiment-figures":…`): the name
    the reader will find is the script's (`likely`). Each such name once, at its first line."""
    mapped: dict[str, tuple[str, int]] = {}  # folder name → (script, its line)
    for _, written, script in _launched(doc, directory):
        for number, text in enumerate(script.splitlines(), 1):
            if not text.lstrip().startswith("#"):
                for host in _HOST_FOLDER.finditer(text):
                    mapped.setdefault(host.group(1), (written.removeprefix("./"), number))
    if not mapped:
        return
    entries = [(name, name_key(name)) for name in mapped]
    told: set[str] = set()
    for line, code in code_paths(doc):
        match = _FOLDER_CODE.match(code)
        if match is None:
            continue
        name = match.group(1)
        if name in told or name in mapped or os.path.exists(directory / name):
            continue
        near = near_names(name, entries)
        if len(near) != 1 or name.lower().rstrip("s") == near[0].lower().rstrip("s"):
            continue  # (`model` and `models`: a folder of its own as often as a slip)
        told.add(name)
        script, at = mapped[near[0]]
        yield Diagnostic(
            readme,
            line,
            f"README names {code}, but {script} maps {near[0]} ({script}:{at}): did you mean {near[0]}/?",
            confidence=LIKELY,
        )


_CLAUSE = re.compile(r"[。；，！？]|[.;,!?](?=\s|$)")
"""The end of a clause: a sentence's or a comma's, CJK punctuation too."""
_MOUNT_SAID = re.compile(r"\bmount|\bbind\b|挂载|映射", re.IGNORECASE)
"""Words of a clause saying a folder is mounted (`mounted at`, `bind`, `挂载`)."""
_NOT_THE_CONTAINER = re.compile(
    r"\bhost\b|\blocal\b|\bnot\b|n't\b|\bnever\b|\bno\b|\bif\b|\boptional|\bcan\b|\bmay\b|宿主|主机|本地|不|没|可以|可选"
    r"|(?<![\w-])-v\b|--volume|--mount",
    re.IGNORECASE,
)
"""Words making a clause's path the host's, a mount not made (`not mounted`, `if you mount`) or one
an option in code restates."""
_FOLDER_SPAN = re.compile(r"/[\w.-]+(?:/[\w.-]+)*/?")
"""An absolute folder in code, alone (`/models`, `/data/in/`)."""


def _volumes(model: ImageModel) -> Iterator[tuple[str, int]]:
    """(path, line) of each folder the VOLUME instructions of `model`'s Dockerfile declare."""
    read = dockerfile_read(model.file) if model.file else None
    for inst in read[1].instructions if read is not None else ():
        if inst.keyword == "VOLUME":
            for word in inst.exec_form or inst.args.split():
                if (path := clean_path(word.strip("\"'[],"))) is not None:
                    yield path, inst.start_line


def _said_mounts(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(line, folder, its span as written) of each clause of the prose saying a folder in code is
    mounted (`models are mounted read-only at `/models``): one folder in code, a mount word, no word
    making it the host's or the mount a maybe."""
    for para in doc.paragraphs:
        for number, text in para.lines:
            if not _MOUNT_SAID.search(text):
                continue
            start = 0
            for end in [m.start() for m in _CLAUSE.finditer(text)] + [len(text)]:
                clause, start = text[start:end], end + 1
                spans = code_spans(clause)
                if len(spans) != 1 or not _MOUNT_SAID.search(clause) or _NOT_THE_CONTAINER.search(clause):
                    continue
                written = spans[0][2].strip()
                if _FOLDER_SPAN.fullmatch(written) and (path := clean_path(written)) is not None:
                    yield number, path, clause[spans[0][0] : spans[0][1]]


def volume_elsewhere(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A folder at the container's top that the README mounts (a `-v` of its commands, or its prose:
    `models are mounted at `/models``) while the image declares the volume of that name below another
    folder (`VOLUME /opt/app/models`) and names the top one nowhere (see `rehomed_mounts` for a
    project's own folder name, which needs no VOLUME). Only on an image built from a plain OS, language
    or CUDA image (another base, `tensorflow/serving`, may read `/models` itself), with every file of
    its build context read, and when the README, outside its mounts, names the folder nowhere either
    (`-e MODEL_DIR=/models`, `--models /models`). `likely`: one finding a README line and folder."""
    others = offered_runs(doc, text)  # (a run of a pre-built release offered starts that image)
    readme_lines = [
        (n, t) for f in doc.fences if f.lang in COMMAND_LANGS for n, t in f.lines if n not in others
    ]
    claims = [(n, path, "README mounts") for n, path in _mounts(readme_lines)]
    claims = [c for c in claims if not DISTINCT.fullmatch(c[1].split("/")[1])]  # (`rehomed_mounts`)
    said = list(_said_mounts(doc))
    claims += [(n, path, "README says a folder is mounted at") for n, path, _ in said]
    if not claims or not models:
        return
    volumes = [(path, line, m.path) for m in models for path, line in _volumes(m)]
    if not volumes:
        return
    for model in models:
        base = root_base(model)
        if not model.file or base is None or not plain_base(base):
            return
    images = [image for m in models if (image := read_image(m)) is not None]
    contexts = [context_text(image.file, image.copies, str(directory)) for image in images]
    if len(images) != len(models) or any(c is None for c in contexts):
        return  # more than docgen reads: what the image holds is not known
    context = MOUNT_WORDS.sub(" ", "\n".join(c or "" for c in contexts))
    outside = text.splitlines()
    for number, _, span in said:
        outside[number - 1] = outside[number - 1].replace(span, " ")
    rest = MOUNT_WORDS.sub(" ", "\n".join(outside))
    homes_of: dict[str, list[tuple[str, int, str]]] = {}  # a folder's name: the volumes of that name
    for volume in volumes:
        if volume[0].count("/") >= 2:
            homes_of.setdefault(volume[0].rsplit("/", 1)[1], []).append(volume)
    in_context, in_rest = RootNames(context), RootNames(rest)
    told: set[tuple[int, str]] = set()
    for line, path, by in claims:
        top = path.split("/")[1]
        if (line, top) in told or "/" + top in SYSTEM:
            continue
        homes = sorted(homes_of.get(top, ()))
        if not homes or top in in_context or top in in_rest:
            continue
        told.add((line, top))
        home, at, shown = homes[0]
        yield Diagnostic(
            readme,
            line,
            f"{by} {path}, but {shown} never names /{top}: its volume for {top} is {home} (line {at})",
            confidence=LIKELY,
        )
