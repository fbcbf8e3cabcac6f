"""Paths in the image that a README tells the user to use (`cd /opt/hpc-env`, `source /opt/app/activate`)
which the image does not have, while the Dockerfile makes a path of a near name next to it (`/opt/env-dev`).

The image is known only in part (its base image brings folders nothing here names), so a path is a claim
only where the Dockerfile itself puts things: its folder must be one the Dockerfile fills (WORKDIR,
COPY/ADD destinations, `mkdir`, install prefixes, clone destinations; not a folder an ENV value names),
the path must appear nowhere in the Dockerfile, the build-context files next to it or it copies, nor
under anything those make or name in an ENV value or a README command mounts (`-v data:/data/models`),
and one of the paths the Dockerfile makes in that folder must be of a near name: the one it most likely
means now.

A folder moved is the other shape (`_moved`): a path whose folder the Dockerfile names (`/root`, a
WORKDIR) under a name the Dockerfile gives, as the last part of a path it makes, to a folder elsewhere
(`/root/deps_ws` for `WORKDIR /opt/deps_ws`, `/root/app-2024` for `WORKDIR /home/${USER}/app-2024`): a
README written before the Dockerfile moved it or switched to a user of its own. The name must be one no
folder gets by chance (`DISTINCT`), and the Dockerfile must not name it bare (a relative clone or `cd`
there may make it anywhere).
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.contents import PIPED
from docgen.audit.missing import CREATES, OUTPUT, PROMPT, WORD, code_paths
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import folders_above, resolves_inside, under_any
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD
from docgen.copied import FILE_LIMIT, TEXT_LIMIT, context_path, copied_files
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path
from docgen.markdown import Document
from docgen.model import ContextCopy, Diagnostic, ImageModel

ABSOLUTE = re.compile(r"(?<![\w.~$}{/:@%-])(/[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)*)/?(?![\w$/{(*:-])")
"""An absolute path standing alone in a command or code span (not in a URL, after `host:`, a variable,
a glob or a `~/`): `/opt/hpc-env`, `/workspace/app/run.sh`."""
_HOST = r"(?:\$\([^()\n]*\)|\S)*?"
"""The host side of a mount: words, a command substitution with spaces (`$(realpath ~/notebooks)`)."""
MOUNT = re.compile(
    r"(?:(?<![\w-])(?:-v|--volume)(?:[ \t]+|=)[\"']?" + _HOST + r":(/[^\s:\"',]*)"
    r"|(?:target|destination|dst)=(/[^\s,\"']*))"
)
"""The folder a `docker run -v HOST:/in/image` or `--mount …,target=/in/image` puts there."""
MOUNT_WORDS = re.compile(r"(?<![\w-])(?:-v|--volume|--mount)(?:[ \t]+|=)(?:\$\([^()\n]*\)|\S)+")
SYSTEM = frozenset(
    "/ /usr /usr/local /usr/local/bin /usr/local/lib /usr/local/share /usr/bin /usr/lib /usr/share"
    " /usr/include /etc /var /var/lib /var/log /lib /lib64 /bin /sbin /home /root /tmp /dev /proc /sys"
    " /mnt /media /run /boot".split()
)
"""Folders every base image fills: what is in them is never known from the Dockerfile alone. (`/srv` is
empty in the distributions' images: what is there a Dockerfile put there.)"""
_MKDIR = re.compile(r"\bmkdir\b((?:[ \t]+[^\s;&|)]+)+)")
_PREFIX = re.compile(
    r"(?:--prefix|--install-dir|CMAKE_INSTALL_PREFIX|PREFIX|--target|-C)(?:=|[ \t]+)[\"']?(/[^\s\"';&|]+)"
)
"""An install prefix or a folder a tool writes into (`--prefix=/opt/x`, `pip install --target /x`,
`tar -C /x`)."""
_CLONE = re.compile(r"\bgit[ \t]+clone\b[^;&|\n]*?[ \t](/[^\s;&|]+)[ \t]*(?:$|;|&|\|)")
_LINK = re.compile(r"\bln[ \t]+-\w*s\w*[ \t]+\S+[ \t]+(/[^\s;&|]+)")
_CD = re.compile(r"(?:^|[;&|(][ \t]*|\bthen[ \t]+|\bdo[ \t]+)cd[ \t]+[\"']?(/[^\s\"';&|)]+)")
_TOKEN = re.compile(r"[A-Za-z]{3,}")
_PROBE = re.compile(r"\$\((?:curl|wget)\b[^)]*?(?:[ \t](?:-I|--head|--spider)\b|-o[ \t]+/dev/null)")
"""A download that only asks whether a URL is there (`"$(curl -L -I "$URL" -o /dev/null -w …)"`): it
runs nothing it fetched, so it makes no path."""
_DOCS = frozenset({".md", ".markdown", ".rst", ".txt", ".html", ".adoc"})
"""Documents of the build context (the README among them): they are not what the image holds, and a
README repeats its own slip."""
_CONTAINER_TOOLS = frozenset({"docker", "podman", "nerdctl"})
"""Commands of `missing.CREATES` that make no path of the image (`docker run app /opt/app/run` uses
one)."""
_UNREAD_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
"""Folders of a build context that hold what a tool wrote, not the project's own files."""
DISTINCT = re.compile(r"(?=.{4,})(?=.*[-_.\d]|.*[a-z][A-Z])[A-Za-z][\w.+-]*")
"""A folder name a project gives (`deps_ws`, `AUV-2026`, `ComfyUI`): four characters or more, with a
`-`, `_`, `.`, a digit or a capital inside; not a word any tree has (`models`, `data`, `app`)."""
COMMON = frozenset(
    "site-packages dist-packages node_modules __pycache__ .cache .config .local .ssh .venv lib64 python3"
    " x86_64-linux-gnu aarch64-linux-gnu".split()
)
"""Names with a separator that many folders share: never a folder moved."""


@dataclass
class Image:
    """What a Dockerfile says of the paths of its image."""

    path: str
    """The Dockerfile as shown."""
    file: str
    """Where it was read from."""
    made: dict[str, int] = field(default_factory=dict)
    """Each absolute path the Dockerfile makes, fills or names in an ENV value (WORKDIR, COPY/ADD
    destination, `mkdir`, install prefix, clone destination, `ENV CONDA_DIR=/opt/conda`) → its line:
    anything may be below it."""
    entered: set[str] = field(default_factory=set)
    """The absolute folders a RUN `cd`s into (the base image may have made them)."""
    fills: dict[str, int] = field(default_factory=dict)
    """The folders the Dockerfile itself puts something in (the parent of each path it makes; not of an
    ENV value, which may name the base image's, nor of a folder a RUN `cd`s into) → a line doing it."""
    built: dict[str, int] = field(default_factory=dict)
    """The paths the Dockerfile itself makes (not an ENV value's), with its WORKDIRs as the build
    expands them (`/home/${USERNAME}/app` → `/home/dev/app`) → the line: where a folder moved to."""
    piped: bool = False
    """True when a RUN runs a download in a shell (`curl … | bash`): it may make any path."""
    copies: tuple[ContextCopy, ...] = ()
    """Its COPY and ADD of the build context (`ImageModel.context_copies`)."""
    text: str = ""
    """The Dockerfile and the build-context files read with it (`context_text`), once a path of the
    README needs them."""
    named: frozenset[str] = frozenset()
    """Every absolute path the Dockerfile and the build-context files next to it or copied by it name,
    and every folder above each (read only when a path of the README needs it)."""


_PATH_MAX = 4096
"""The longest path Linux opens (`PATH_MAX`)."""


def clean_path(path: str) -> str | None:
    """`path` normalised (`/opt/x/` → `/opt/x`), or None for one with a variable, a glob or no `/`, or
    longer than Linux lets a path be (`_PATH_MAX`: no file is there, and each folder above a path of
    100,000 levels is a slice of it, the square of its length)."""
    if not path.startswith("/") or len(path) > _PATH_MAX or any(c in path for c in "$*?[{<>`\\"):
        return None
    # normpath keeps two leading slashes (POSIX leaves `//x` to the system); Linux reads `//x` as `/x`,
    # and a `//` kept would be a folder whose parent is itself
    return "/" + posixpath.normpath(path).lstrip("/")


def read_image(model: ImageModel) -> Image | None:
    """The paths the Dockerfile of `model` makes, the folders it fills and what it copies from its
    build context (`ImageModel.context_copies`), or None when it cannot be read."""
    read = dockerfile_read(model.file)
    if read is None:
        return None
    image = Image(model.path, model.file, copies=model.context_copies)
    workdir: str | None = "/"  # None: set from a variable, not known

    def make(path: str | None, line: int, fills: bool = True) -> None:
        if path is None or path == "/":
            return
        image.made.setdefault(path, line)
        if fills:
            image.fills.setdefault(posixpath.dirname(path), line)
            image.built.setdefault(path, line)

    def at(path: str) -> str | None:
        """`path` read from the WORKDIR (None when that is not known)."""
        return (
            clean_path(path)
            if path.startswith("/") or workdir is None
            else clean_path(posixpath.join(workdir, path))
        )

    for inst in read[1].instructions:
        line = inst.start_line
        if inst.keyword == "FROM":
            workdir = "/"
        elif inst.keyword == "WORKDIR":
            workdir = at(inst.args.strip().strip("\"'"))
            make(workdir, line)
        elif inst.keyword in ("COPY", "ADD") and not inst.heredocs:
            words = list(inst.exec_form or inst.args.split())
            if len(words) < 2:
                continue
            dest = words[-1].strip("\"'")
            make(at(dest), line)
        elif inst.keyword == "ENV":
            for value in re.findall(r"=[\"']?([^\s\"']+)", inst.args) or inst.args.split()[1:2]:
                for part in value.split(":"):
                    make(clean_path(part), line, fills=False)  # (`/usr/local/cuda/lib64` is the base's)
        elif inst.keyword == "RUN":
            script = inst.body
            runs = [m for m in PIPED.finditer(script) if not _PROBE.match(script, m.start())]
            image.piped = image.piped or bool(runs)
            for match in _MKDIR.finditer(script):
                for word in match.group(1).split():
                    make(clean_path(word.strip("\"'")), line)
            for pattern in (_PREFIX, _CLONE, _LINK):
                for match in pattern.finditer(script):
                    make(clean_path(match.group(1)), line)
            for match in _CD.finditer(script):
                if (entered := clean_path(match.group(1))) is not None:
                    image.entered.add(entered)
    for setting in model.settings:
        if setting.keyword == "WORKDIR" and (workdir := clean_path(setting.value.strip("\"'"))) is not None:
            image.built.setdefault(workdir, setting.line)  # expanded: `${USERNAME}` is known here
    return image


def context_bases(file: str, readme_folder: str) -> list[Path]:
    """Where a Dockerfile's build context may be: its folder and the README's; not a folder out of the
    README's repository (a Dockerfile given as a link leading out of it is read, the files beside its
    target are not)."""
    readme = Path(readme_folder).resolve()
    home = repository_root(readme) or readme
    folders = [real_path(Path(file).parent), readme]
    return list(dict.fromkeys(f for f in folders if resolves_inside(f, home)))


def _tool_written(path: Path, pattern: str) -> bool:
    """True when the build-context file `path` (relative to the context) is in a folder whose name
    starts with a dot (`.git`) or one a build or a package manager writes (`node_modules`), one the
    COPY source `pattern` does not name itself."""
    named = pattern.split("/")
    return any(
        (part.startswith(".") or part in _UNREAD_FOLDERS) and part not in named for part in path.parts[:-1]
    )


def copied(file: str, copies: Sequence[ContextCopy], readme_folder: str) -> list[Path]:
    """The files the COPY and ADD `copies` of the Dockerfile at `file` put in the image
    (`copied.copied_files`), found in `context_bases`, those in a folder a tool writes left out
    (`_tool_written`); at most `FILE_LIMIT` + 1."""
    found: list[Path] = []
    for base in context_bases(file, readme_folder):
        for copied in copied_files(base, copies, file):
            pattern = context_path(copied.source) or "."
            if copied.path is None or _tool_written(copied.path.relative_to(base), pattern):
                continue
            found.append(copied.path)
            if len(found) > FILE_LIMIT:
                return found
    return found


def context_text(file: str, copies: Sequence[ContextCopy], readme_folder: str) -> str | None:
    """The Dockerfile at `file` and its build context as one text: the files next to it and next to
    the README (not the documents: a README repeats its own slip) and those it copies (`copies`);
    None when that is more than docgen reads. A file that is a link leading out of both folders is
    not read."""
    texts = [text_of(Path(file))]
    budget, count = TEXT_LIMIT, FILE_LIMIT
    found: list[Path] = []
    for base in context_bases(file, readme_folder):
        try:
            found += [p for p in sorted(base.iterdir()) if os.path.isfile(p)]
        except OSError:
            continue
    bases = context_bases(file, readme_folder)
    for each in dict.fromkeys([*found, *copied(file, copies, readme_folder)]):
        if each.suffix.lower() in _DOCS:
            continue  # a document copied with the whole context: its paths are not the image's
        if not any(resolves_inside(each, base) for base in bases):
            continue  # a link leading out of the build context: not read
        count -= 1
        try:
            size = each.stat().st_size
        except OSError:
            continue
        if size > MAX_PROJECT_FILE_BYTES:
            continue  # a model, an archive
        if size > budget or count < 0:
            return None  # more than docgen reads: what the image holds is not known
        budget -= size
        texts.append(text_of(each))
    return "\n".join(texts)


def text_of(file: Path) -> str:
    """The text of `file` (empty when it cannot be read)."""
    try:
        return file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


NAMED = re.compile(r"/[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)*")
"""A path anywhere in a file of the build context (`ENV X=/opt/env`, `$HOME/opt/x`: more is known)."""


def named_paths(text: str) -> frozenset[str]:
    """The absolute paths `text` names and the folders above each (`/opt`, `/opt/env` for
    `cd /opt/env/bin`): one pass over the text, whatever the README asks of it."""
    found: set[str] = set()
    for match in NAMED.finditer(text):
        path = match.group()
        while path and path not in found:
            found.add(path)
            path = path.rsplit("/", 1)[0]
    return frozenset(found)


def readme_paths(doc: Document) -> Iterator[tuple[int, str, bool]]:
    """(README line, absolute path, made) of each path in a command block or a code span: what the
    README tells the user to use, or, `made`, what a step of that line makes (`mkdir -p /opt/x`, `cp a
    /opt/x`, `git clone … /opt/x`, `> /opt/x`). The host side of a `-v HOST:/in/image` is left out."""
    lines = [(n, t) for fence in doc.fences if fence.lang in COMMAND_LANGS for n, t in fence.lines]
    lines += list(code_paths(doc))
    for number, text in lines:
        if BUILD.search(text):
            continue  # a build runs on the host: its paths are not the image's
        made = bool(OUTPUT.search(text))
        for step in re.split(r"&&|\|\||;|\|", text):
            prompt = PROMPT.match(step)
            words = WORD.findall(step[prompt.end() if prompt else 0 :])
            made = made or bool(words and words[0] in CREATES - _CONTAINER_TOOLS)
        for match in ABSOLUTE.finditer(MOUNT_WORDS.sub(" ", text)):
            path = clean_path(match.group(1))
            if path is not None and path.count("/") >= 2:
                yield number, path, made


def mounted_folders(doc: Document) -> set[str]:
    """The folders the README's commands mount into the container (`-v x:/data`, `target=/data`)."""
    lines = [t for fence in doc.fences for _, t in fence.lines]
    lines += [t for para in doc.paragraphs for _, t in para.lines]
    lines += [" | ".join(cells) for table in doc.tables for _, cells in table.rows]
    found = set()
    for text in lines:
        for match in MOUNT.finditer(text):
            path = clean_path(match.group(1) or match.group(2) or "")
            if path is not None:
                found.add(path)
    return found


def near(name: str, others: Sequence[str]) -> str | None:
    """The entry of `others` a path named `name` most likely means: one sharing a word of three letters
    or more (`env-dev` for `hpc-env`), else one a slip away; the closest of them. None when none is."""
    words = {w.lower() for w in _TOKEN.findall(name)}
    ranked = sorted(others, key=lambda o: -difflib.SequenceMatcher(None, name.lower(), o.lower()).ratio())
    for other in ranked:
        if other == name:
            continue
        ratio = difflib.SequenceMatcher(None, name.lower(), other.lower()).ratio()
        if words & {w.lower() for w in _TOKEN.findall(other)} or ratio >= 0.75:
            return other
    return None


def _worked_in(image: Image, folder: str) -> list[str]:
    """The folders right below `folder` that a RUN enters, when a RUN enters `folder` itself too (`cd
    /srv && unzip master.zip`, then `cd /srv/lammps-master/src`): what an archive or a clone made there,
    under a name the Dockerfile writes only when it goes in."""
    if folder not in image.entered:
        return []
    below = {p[len(folder) + 1 :].split("/")[0] for p in image.entered if p.startswith(folder + "/")}
    return sorted(posixpath.join(folder, name) for name in below)


def image_paths(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A path in the image the README tells the user to use (in a command block or a code span) that
    the image does not have, in a folder the Dockerfile fills with a path of a near name: one finding a
    path, at its first line, naming the others (`likely`). See the module's docstring for what is not a
    claim."""
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    if not images:
        return
    used = list(readme_paths(doc))
    # A folder a RUN enters may hold anything, unless the Dockerfile also puts things in it and enters
    # folders below it: then those are what it unpacked or cloned there (`_worked_in`).
    entered: set[str] = set()
    for image in images:
        above = {folder for path in image.entered for folder in folders_above(path)}
        entered |= {path for path in image.entered if path not in image.fills or path not in above}
    made = {path for image in images for path in image.made} | entered | mounted_folders(doc)
    made |= {path for _, path, by_readme in used if by_readme}
    fills = {folder for image in images for folder in image.fills} - SYSTEM
    candidates = [
        (line, path)
        for line, path, _ in used
        # not made (or mounted) by the image or the README: anything may be below such a path
        if not under_any(path, made) and any(folder in fills for folder in folders_above(path))
    ]
    mounted = mounted_folders(doc) | {path for _, path, by_readme in used if by_readme}
    moved = [(line, path) for line, path, by_readme in used if not by_readme and not under_any(path, mounted)]
    names = _built_names(images)
    moved = [(line, path) for line, path in moved if _moved_to(path, images, names)]
    if not (candidates or moved) or any(image.piped for image in images):
        return  # the build context is read only for a path that may be a claim
    for image in images:
        text = context_text(image.file, image.copies, str(directory))
        if text is None:
            return
        image.text, image.named = text, named_paths(text)
    told: set[str] = set()
    seen: dict[str, list[int]] = {}
    for line, path in candidates:
        if any(path in image.named for image in images):
            continue
        parts = path.split("/")[1:]
        first = next(
            (
                "/" + "/".join(parts[: i + 1])
                for i in range(len(parts))
                if not any("/" + "/".join(parts[: i + 1]) in image.named for image in images)
            ),
            path,
        )
        folder = posixpath.dirname(first)
        if folder in SYSTEM or not any(folder in image.fills for image in images):
            continue
        seen.setdefault(first, []).append(line)
    for first, lines in seen.items():
        folder, name = posixpath.split(first)
        here = [(image, p) for image in images for p in image.made if posixpath.dirname(p) == folder]
        unpacked = [(image, p) for image in images for p in _worked_in(image, folder)]
        meant = near(name, list(dict.fromkeys(posixpath.basename(p) for _, p in [*here, *unpacked])))
        if meant is None:
            continue
        told.add(first)
        more = also_at(lines)
        found = next(((i, p) for i, p in here if posixpath.basename(p) == meant), None)
        if found is None:
            image, worked = next((i, p) for i, p in unpacked if posixpath.basename(p) == meant)
            yield Diagnostic(
                readme,
                lines[0],
                f"README uses {first} in the image, which {image.path} does not make: its RUNs work in "
                f"{worked} there (did you mean {worked}?){more}",
                confidence=LIKELY,
            )
            continue
        image = found[0]
        made_there = sorted(posixpath.basename(p) for i, p in here if i is image)
        listed = ", ".join(posixpath.join(folder, n) for n in made_there)
        yield Diagnostic(
            readme,
            lines[0],
            f"README uses {first} in the image, which {image.path} does not make: it makes {listed} "
            f"there (did you mean {posixpath.join(folder, meant)}?){more}",
            confidence=LIKELY,
        )
    yield from _moved(moved, images, told, readme)


def _built_names(images: Sequence[Image]) -> dict[str, list[tuple[Image, str]]]:
    """Each last part of a path the images make → (image, path): `_moved_to`'s index, made once for all
    the README's paths (looking through every image's paths again for each cost their product:
    `moved-clones` in benchmarks/bench_shapes.py)."""
    names: dict[str, list[tuple[Image, str]]] = {}
    for image in images:
        for made in image.built:
            names.setdefault(posixpath.basename(made), []).append((image, made))
    return names


def _moved_to(
    path: str, images: Sequence[Image], names: dict[str, list[tuple[Image, str]]]
) -> list[tuple[str, Image, str]]:
    """(folder of `path`, image, path it makes) for the shallowest folder of `path` whose name one
    image gives, as the last part of a path it makes, to a folder elsewhere (`/root/deps_ws` for `WORKDIR
    /opt/deps_ws`); the name must be one no folder gets by chance (`DISTINCT`). Empty when none is, or
    when two places have that name (which one was meant is not known)."""
    parts = path.split("/")[1:]
    for depth in range(2, len(parts) + 1):
        folder = "/" + "/".join(parts[:depth])
        name = parts[depth - 1]
        if any(folder in image.built or folder in image.made for image in images):
            return []  # the image has it (`WORKDIR /root` then `WORKDIR deps_ws`)
        if name in COMMON or not DISTINCT.fullmatch(name):
            continue
        there = {
            (image.path, made): (image, made)
            for image, made in names.get(name, ())
            if made != folder and not made.startswith(folder + "/") and not folder.startswith(made + "/")
        }
        if len({made for _, made in there}) == 1:
            return [(folder, image, made) for image, made in there.values()]
        if there:
            return []
    return []


def _moved(
    used: Sequence[tuple[int, str]], images: Sequence[Image], told: set[str], readme: str
) -> Iterator[Diagnostic]:
    """A finding for each folder moved (`_moved_to`) that the README uses: one the image does not name,
    in a folder it names (`/root`), whose name the Dockerfile and its context never give bare (a relative
    `git clone`, `cd` or `mkdir` may make it in any folder); one finding a folder, at its first line."""
    seen: dict[str, list[int]] = {}
    where: dict[str, tuple[Image, str]] = {}
    names = _built_names(images)
    for line, path in used:
        found = _moved_to(path, images, names)
        if not found:
            continue
        folder, image, made = found[0]
        if folder in told or any(folder in each.named for each in images):
            continue
        if not any(posixpath.dirname(folder) in each.named for each in images):
            continue  # a folder the image is not known to have: the host's, or the reader's
        if any(_bare(posixpath.basename(folder), each) for each in images):
            continue
        seen.setdefault(folder, []).append(line)
        where.setdefault(folder, (image, made))
    for folder, lines in seen.items():
        image, made = where[folder]
        more = also_at(lines)
        yield Diagnostic(
            readme,
            lines[0],
            f"README uses {folder} in the image, which {image.path} does not make: {image.path}:"
            f"{image.built[made]} makes {made} (did you mean {made}?){more}",
            confidence=LIKELY,
        )


def _bare(name: str, image: Image) -> bool:
    """True when the Dockerfile of `image` or its context names folder `name` other than as the last part
    of an absolute path (`git clone …/deps_ws.git`, `cd deps_ws`, `mkdir deps_ws`): the build may make it
    in the folder it works in."""
    pattern = rf"(?<![\w/.$-]){re.escape(name)}(?![\w-])|/{re.escape(name)}\.git\b"
    return bool(re.search(pattern, image.text))
