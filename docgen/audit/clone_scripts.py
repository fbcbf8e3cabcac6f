"""A script a README runs inside the container by a path from the working folder (`python3 detect.py
--source ./data/images/zidane.jpg`) that belongs to a repository the image clones into a folder the
container does not start in: below that working folder (`RUN git clone https://github.com/ultralytics/
yolov5` with no WORKDIR after it: the clone is `yolov5/`; or a WORKDIR into the clone to install it and
one back to `/workspace` after), or elsewhere (`/tmp_build/vggt` while the last WORKDIR is `/workspace`):
the script is not found where the shell starts; the README misses a `cd`.

What the script belongs to is not known from here (the clone is fetched at build time), so it is read
from the README: the line of the run, the heading over it, the prose just before its block or the
README's title names the repository (`you can test yolov5 with the command`, `# VGGT Docker
Container`), or the README links the address the Dockerfile clones. The rest must be sure:

- the run is a `python …` of a `.py` file or a `./…` of a file, by a path with no `/` at its start and
  no `..`, read in the container: in a command block after a line opening a shell in a container
  (`docker run -it`), in a block `container_scripts` reads as in the container (its heading, the
  prose before it, or a lead-in over bold labels says so), or quoted or in code on a prose line saying
  so (`inside of the docker container, … "python3 detect.py …"`); no `cd` in the README before it (in
  its block, or anywhere in the prose before a prose run), no `-w` in the README's runs, and no README
  command before it naming the script otherwise (`wget …/demo.py` may fetch it);
- the last stage clones that repository (no `cd` before it in its RUN, not into `.`, not by a variable,
  not to an absolute path when no WORKDIR is known), the container's last WORKDIR is neither the clone
  nor a folder in it, and no ENTRYPOINT or CMD with a `cd` may start the shell elsewhere;
- the COPY and ADD of that stage copy files of the context only (no folder, glob or URL: `COPY . .`
  may hold the script; a source the context lacks counts by its name when that is a file's) and none
  of the script's name (source or destination), no RUN names the script, no mount of the README or of
  a compose file beside the Dockerfile is onto or above the working folder or over the script's path,
  and the repository's name is not in the base image's (which may hold it in its working folder).

One finding a script, at its first line (`likely`).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.commands import CLONE_STEP, clone_operands
from docgen.audit.container_blocks import SAID_INSIDE, container_blocks
from docgen.audit.image_paths import mounted_folders
from docgen.audit.moved_clones import CD, GENERIC, WORKDIR, in_container
from docgen.audit.wording import COMMAND_LANGS
from docgen.files import text_or_none
from docgen.markdown import Document, headings_over
from docgen.model import Diagnostic, ImageModel

_RUN = re.compile(
    r"(?:^|[;&|][ \t]*|\$[ \t]+)(python[\d.]*[ \t]+(?:-[a-zA-Z][ \t]+)*([\w][\w.-]*(?:/[\w.-]+)*\.py)"
    r"|\./([\w][\w.-]*(?:/[\w.-]+)*))(?=$|[ \t;&|\"'`])"
)
"""A script run from the working folder: `python3 detect.py`, `./run_demo.sh`."""
_QUOTED = re.compile(r"\"([^\"]{4,300})\"|`([^`]{4,300})`|“([^”]{4,300})”")
_README_CD = re.compile(r"(?:^|[\s;&|(\"'`])(?:cd|pushd)[ \t]+\S")


def _runs(doc: Document) -> list[tuple[int, str, str, str]]:
    """(README line, command as written, script path, the words around it) of each script run in the
    container from the working folder, with no `cd` before it."""
    found: list[tuple[int, str, str, str]] = []
    titles = dict(doc.headings)
    after_shell = {line for line, _ in in_container(doc)}
    inside = container_blocks(doc, words=SAID_INSIDE, langs=COMMAND_LANGS)
    intros = {para.lines[-1][0]: " ".join(t for _, t in para.lines) for para in doc.paragraphs if para.lines}
    ends = sorted(intros)  # (sorted once: each block takes the last paragraph above it)
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or not fence.lines:
            continue
        block_inside = fence.lines[0][0] in inside
        at = bisect.bisect_left(ends, fence.lines[0][0])
        before = [intros[ends[at - 1]]] if at else []
        words = " ".join([titles.get(fence.section, ""), *headings_over(doc, fence.lines[0][0])[:1], *before])
        for line, text in fence.lines:
            if _README_CD.search(text):
                break
            if not (block_inside or line in after_shell):
                continue
            for match in _RUN.finditer(text):
                found.append((line, match.group(1), match.group(2) or match.group(3), words + " " + text))
    cd_seen = min(
        [line for para in doc.paragraphs for line, t in para.lines if _README_CD.search(t)]
        + [line for fence in doc.fences for line, t in fence.lines if _README_CD.search(t)]
        + [10**9]
    )
    for para in doc.paragraphs:
        for line, text in para.lines:
            if line >= cd_seen or not SAID_INSIDE.search(text):
                continue
            for quoted in _QUOTED.finditer(text):
                command = next(g for g in quoted.groups() if g is not None)
                for match in _RUN.finditer(command.strip()):
                    around = " ".join([para.heading, text])
                    found.append((line, match.group(1), match.group(2) or match.group(3), around))
    return [(line, cmd, path, words) for line, cmd, path, words in found if ".." not in path.split("/")]


def _relative_clones(model: ImageModel) -> tuple[list[tuple[str, str, str, int]], str | None, str] | None:
    """(the repositories the last stage clones: (name, the folder it lands in, the address, line) each,
    the working folder the image starts in if the Dockerfile sets one, the last base image lower-cased);
    None when a WORKDIR is a variable, or an ENTRYPOINT or a CMD may move the shell."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    clones: list[tuple[str, str, str, int]] = []
    workdir: str | None = None
    base = ""
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            clones, workdir, base = [], None, inst.args.lower()
        elif inst.keyword == "WORKDIR":
            value = inst.args.strip().strip("\"'")
            if "$" in value:
                return None
            workdir = posixpath.normpath(posixpath.join(workdir or "/", value))
        elif inst.keyword in ("ENTRYPOINT", "CMD") and re.search(r"(?<![\w-])(?:cd|pushd)[ \t]", inst.args):
            return None
        elif inst.keyword == "ENTRYPOINT":
            return None  # an entrypoint script may `cd` before it runs the shell
        elif inst.keyword == "RUN":
            script = inst.body
            for match in CLONE_STEP.finditer(script):
                rest = clone_operands(match.group(1).split(), "\"'")
                if not rest or "$" in "".join(rest[:2]) or CD.search(script[: match.start()]):
                    continue
                if len(rest) > 1:
                    place = rest[1]
                else:
                    place = rest[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                    place = place[:-4] if place.endswith(".git") else place
                if place in (".", "", "./", "/") or ".." in place.split("/"):
                    continue
                if workdir is None and "/" in place.strip("/"):
                    continue  # the base image's working folder is not known: it may be the clone's parent
                into = posixpath.normpath(posixpath.join(workdir or "/", place))
                clones.append((posixpath.basename(into), into, rest[0], inst.start_line))
    return clones, workdir, base


def _copied_names(model: ImageModel) -> set[str] | None:
    """The names of the files the COPY and ADD of the build context into the target's stages put in the
    image, and the names their destinations give; None when one copies a folder, a glob, a URL or a
    path the context folder does not hold that may be a folder (the pair of files read may be a part of
    the repository: what it copies is not known). A missing `scripts/run.sh` copies `run.sh`."""
    indexes = {stage.index for stage in model.chain()}
    root = Path(model.file).parent.resolve()
    names: set[str] = set()
    for copied in model.context_copies:
        if copied.stage not in indexes:
            continue
        if copied.heredoc:
            return None
        for source in copied.sources:
            source = source.strip("\"'")
            if source.startswith("-") or any(c in source for c in "*?[$") or ":" in source:
                return None
            path = root / source
            if ".." in Path(source).parts:
                return None
            if not os.path.isfile(path) and (os.path.lexists(path) or not _FILE_NAME.fullmatch(path.name)):
                return None  # a folder, or a missing name that may be one
            names.add(path.name)
        if not copied.dest.endswith("/") and len(copied.sources) == 1:
            names.add(posixpath.basename(copied.dest.strip("\"'")))
    return names


_FILE_NAME = re.compile(r"[\w-][\w.-]*\.(?:py|sh|bash|js|ts|rb|pl|r|R|txt|json|ya?ml|toml|cfg|ini|conf)")
"""A name only a file has (`run_chunks.py`): a COPY of it missing from the context copies that name."""


_NAME_RUN = re.compile(r"[\w.-]+")


def _names_in(words: str, longest: int) -> set[str]:
    """The names `words` holds, lower-cased, up to `longest` characters: each run of `[\\w.-]`, and each
    part of it before a `.` (`yolov5.git` holds `yolov5`), as a name is read standing alone
    (`(?<![\\w.-])NAME(?![\\w-])`). One walk of `words` for all the clones, not one a clone."""
    found: set[str] = set()
    for run in _NAME_RUN.finditer(words):
        text = run.group().lower()
        found.add(text[: longest + 1])
        cut = text.find(".", 0, longest + 1)
        while cut != -1:
            found.add(text[:cut])
            cut = text.find(".", cut + 1, longest + 1)
    return found


_FILE_WORD = re.compile(r"[\w][\w.-]*\.\w+")


def _made_before(doc: Document) -> dict[str, int]:
    """Each file name a README command names other than as the script it runs (`wget …/demo.py`,
    `docker cp demo.py app:/workspace/`) → the first such line: a step that may put the file there."""
    made: dict[str, int] = {}
    for fence in doc.fences:
        for line, text in fence.lines:
            for word in _FILE_WORD.finditer(_RUN.sub(" ", text)):
                made[word.group()] = min(made.get(word.group(), line), line)
    return made


def _address(text: str) -> str:
    """A repository address as compared: no scheme, `www.`, `.git` or trailing `/`, lower-cased."""
    text = re.sub(r"^(?:git\+)?(?:https?|git|ssh)://(?:[^@/]+@)?|^git@", "", text.strip().lower())
    text = text.removeprefix("www.")
    host, colon, rest = text.partition(":")
    if colon and "/" not in host:
        text = f"{host}/{rest}"  # git@github.com:owner/name
    return text.rstrip("/").removesuffix(".git")


def _title(doc: Document) -> str:
    """The README's title: its first heading when that is of the first level."""
    if doc.headings and doc.levels.get(doc.headings[0][0]) == 1:
        return doc.headings[0][1]
    return ""


def _compose_targets(model: ImageModel) -> set[str]:
    """The folders a compose file beside the Dockerfile mounts into the container (short volume entries)."""
    folder = os.path.dirname(model.file or "")
    found: set[str] = set()
    for name in ("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"):
        path = os.path.join(folder, name)
        text = text_or_none(Path(path)) if os.path.isfile(path) else None
        found.update(posixpath.normpath(m.group(1)) for m in _COMPOSE_MOUNT.finditer(text or ""))
    return found


_COMPOSE_MOUNT = re.compile(r"^[ \t]*-[ \t]*[\"']?[^\s:\"']*:(/[^\s:\"']*)", re.MULTILINE)
"""A short volume entry of a compose file (`- ./src:/app:ro`): its target."""


def clone_scripts(doc: Document, models: Sequence[ImageModel], readme: str) -> Iterator[Diagnostic]:
    """A script run in the container from its working folder that belongs to a repository the image
    clones into another folder (`likely`). See the module's docstring."""
    if len(models) != 1 or not models[0].file:
        return
    runs = _runs(doc)
    if not runs:
        return
    model = models[0]
    read = _relative_clones(model)
    if read is None or not read[0]:
        return
    clones, workdir, base = read
    start = workdir or "/"
    if any(WORKDIR.search(t) for fence in doc.fences for _, t in fence.lines):
        return
    mounts = {posixpath.normpath(m) for m in mounted_folders(doc)} | _compose_targets(model)
    if any(m == start or start.startswith(m.rstrip("/") + "/") for m in mounts):
        return
    names = _copied_names(model)
    dockerfile = dockerfile_read(model.file)
    if names is None or dockerfile is None:
        return
    run_text = " ".join(i.body for i in dockerfile[1].instructions if i.keyword == "RUN")
    seen: dict[str, list[int]] = {}
    what: dict[str, tuple[str, str, str, int]] = {}
    named = [
        (clone, into, at)
        for clone, into, _, at in clones
        if len(clone) >= 4
        and clone.lower() not in GENERIC
        and clone.lower() not in base
        and into != start
        and not start.startswith(into + "/")
    ]
    links = {_address(target) for _, target in doc.destinations}
    linked = {clone for clone, _, address, _ in clones if _address(address) in links}
    title = _title(doc)
    longest = max((len(clone) for clone, _, _ in named), default=0)
    around: dict[str, set[str]] = {}  # the words around a run → the names they hold (read once)
    made = _made_before(doc)
    for line, command, path, words in runs:
        name = posixpath.basename(path)
        if name in names or name in run_text or made.get(name, line) < line:
            continue
        if words not in around:
            around[words] = _names_in(words + " " + title, longest)
        told = [
            (clone, into, at)
            for clone, into, at in named
            if clone.lower() in around[words] or clone in linked
        ]
        if len({clone for clone, _, _ in told}) != 1:
            continue
        where = posixpath.normpath(posixpath.join(start, path))
        if any(where.startswith(folder.rstrip("/") + "/") for folder in (told[0][1], *mounts)):
            continue  # the run names the script by a path into the clone, or into a mount
        seen.setdefault(path, []).append(line)
        what.setdefault(path, (command, *told[0]))
    for path, lines in seen.items():
        command, clone, into, at = what[path]
        inside = posixpath.dirname(into) == start
        folder = workdir or "the base image's working folder"
        shown = into if workdir or not inside else clone + "/"
        yield Diagnostic(
            readme,
            lines[0],
            f"README runs {command} inside the container, but {path} is not in its working folder: "
            f"{model.path}:{at} clones {clone} into {shown}, and the container starts in"
            f" {folder} (did you mean cd {clone if inside else into} first?){also_at(lines)}",
            confidence=LIKELY,
        )
