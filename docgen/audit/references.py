"""References to Dockerfiles that are not there: links and `-f` paths to a Dockerfile that is gone (and
the one it most likely means now), link texts naming another file, and a build command with no `-f`
that builds the plain `Dockerfile` in a section about another.
"""

from __future__ import annotations

import bisect
import difflib
import fnmatch
import functools
import os
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath

from docgen import patterns
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import (
    CD,
    CD_STEP,
    CHECKOUT,
    FILE_FLAG,
    PLACEHOLDER,
    PROSE_WORD,
    TAG_FLAG,
    VERSION_PLACEHOLDER,
    build_commands,
    build_paths,
    clone_of,
    cloned_folder,
    continued,
    fence_commands,
    file_flags,
    joined,
    without_prompt,
)
from docgen.audit.container_blocks import container_lines
from docgen.audit.fetched_copies import Told, command_at, expanded_sources, fetched, vendor_archive
from docgen.audit.memo import per_audit
from docgen.audit.missing import PLACEHOLDER as _PLACEHOLDER_PATH
from docgen.audit.missing import code_paths, in_commands, line_texts, made_names, one_edit
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import (
    Submodules,
    basename,
    files_named,
    ignore_patterns,
    ignores,
    matching,
    meant_by_stray,
    path_flavour,
    reference_path,
    same_file,
    same_path,
    stray,
    variant,
    without_stray,
)
from docgen.audit.root_vars import from_root, root_variables
from docgen.audit.wording import COMMAND_LANGS, NOT_CURRENT, heading_of, is_example
from docgen.build_scripts import ALL_ENGINES, BUILD, BUILD_LINE, container_command
from docgen.compose import default_files
from docgen.compose import parse as compose_targets
from docgen.copied import above_context, context_path, dockerignore, ignored
from docgen.dockerfile import read_dockerfile
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import context_dockerfile, dockerfiles_in, in_submodule, is_dockerfile_name, text_or_none
from docgen.findings import BROKEN_COMMAND, MISSING_FILE
from docgen.markdown import Document, Fence, code_spans, links, lists, without_links
from docgen.model import Diagnostic, ImageModel, Instruction


@functools.lru_cache(maxsize=8)
def candidates(paths: tuple[str, ...], siblings: tuple[str, ...]) -> tuple[str, ...]:
    """`paths`, then the `siblings` that are none of them: the Dockerfiles a dead reference may mean
    (found once for all the references of a README, not once each: n siblings were compared with every
    path for each reference)."""
    return (*paths, *(s for s in siblings if not any(same_path(s, p) for p in paths)))


def meant_dockerfiles(
    reference: str, paths: Sequence[str], siblings: Sequence[str], heading: str
) -> set[int]:
    """The indices of the Dockerfiles in `paths` a reference to a Dockerfile that no longer exists most
    likely means now: the one Dockerfile it names by another path (`docker/Dockerfile.rocm` moved up),
    else the one of its flavour (`cuda/Dockerfile` renamed `docker/Dockerfile.cuda`), else the only
    Dockerfile there is. None when that is not clear: two candidates, a flavour only a Dockerfile that
    is not audited has, or a reference (or its `heading`) about an image of the past
    (`Dockerfile.legacy`, `## Old images`)."""
    if NOT_CURRENT.search(reference.replace("_", " ").replace("-", " ")) or NOT_CURRENT.search(heading):
        return set()
    every = candidates(tuple(paths), tuple(siblings))
    if stray(reference) is not None:  # `rocm^Cocblas.ub22.Dockerfile`: the one name it spoils, or none
        meant = meant_by_stray(reference, siblings)
        found = {i for i, p in enumerate(paths) if meant is not None and same_path(p, siblings[meant])}
        return found if len(found) == 1 else set()
    if variant(reference) is not None:  # a plain `Dockerfile` of the same name says nothing
        same = matching(reference, every)
        if len(same) == 1:
            return same & set(range(len(paths)))
        near = near_variants(reference, every)
        if len(near) == 1:  # `carla.Dockerfile` for `carla15.Dockerfile`: a slip of its name
            return near & set(range(len(paths)))
    flavour = path_flavour(reference)
    if not is_dockerfile_name(basename(reference)) and "." in basename(reference).strip("."):
        flavour = basename(reference).rsplit(".", 1)[1].lower()  # `-f Docker.rocm`: its flavour is rocm
    alike = {i for i, p in enumerate(every) if flavour is not None and path_flavour(p) == flavour}
    if alike:
        return alike & set(range(len(paths))) if len(alike) == 1 else set()
    return {0} if len(every) == 1 and len(paths) == 1 else set()


_VERSION_END = re.compile(r"[._-]?v?\d+(?:[._]\d+)*")
"""What a name's version adds at its end (`15`, `-v2`, `_3.10`): `carla15` is `carla` at a version."""


def near_variants(reference: str, paths: Sequence[str]) -> set[int]:
    """The indices of the Dockerfiles of `paths` in the folder of `reference` (a Dockerfile that is not
    there; a folder ending with its folder, as `paths` are read from the project's top) whose image
    name (`variant`) is a slip of its own: one letter added, dropped, changed or two swapped in a name of
    five letters or more (`srunner` for `srunenr`), or a version added at its end (`carla15` for
    `carla`). A name of another version (`cuda11` for `cuda12`), or one the README gives a version the
    Dockerfile's name lacks (`Dockerfile.rocm6.2` for `Dockerfile.rocm`: an older image), is another
    image, no slip."""
    own = variant(reference)
    if own is None:
        return set()
    folder = posixpath.dirname(posixpath.normpath(reference.replace("\\", "/")))
    found = set()
    for index, path in enumerate(paths):
        other = variant(path)
        if other is None or other == own:
            continue
        there = posixpath.dirname(posixpath.normpath(path.replace("\\", "/")))
        if folder not in ("", ".") and there != folder and not there.endswith("/" + folder):
            continue  # (`paths` are read from the project's top, `reference` from the README's folder)
        # a version the README leaves out (`carla` for `carla15`); one it names (`rocm6.2` gone, `rocm`
        # there) is another image's, an older one most often
        if _versions_of(other, own) or (len(own) >= 5 and one_edit(own, other)):
            found.add(index)
    return found


def _versions_of(name: str | None, stem: str) -> bool:
    """True when `name` is `stem` at a version (`runner13` of `runner`)."""
    return (
        name is not None
        and name != stem
        and name.startswith(stem)
        and _VERSION_END.fullmatch(name[len(stem) :]) is not None
    )


def guessed_builds(
    doc: Document,
    dead: Sequence[tuple[int, str, bool]],
    models: Sequence[ImageModel],
    siblings: Sequence[str],
) -> set[int]:
    """The README lines of the build commands (every continued line) whose `-f` names a Dockerfile that
    is gone (`dead`, from `dead_references`) while no Dockerfile of its name is found elsewhere: the one
    its section is compared with is a guess (`meant_dockerfiles`), or none, so the build args the command
    passes are no claim about any Dockerfile audited."""
    return _gone_builds(doc, dead, models, siblings)[0]


_PLAIN_NAMES = frozenset({"Dockerfile", "Containerfile"})
"""The name of a folder's own image, whatever flavour its gone sibling had (`new.Dockerfile`)."""


def folder_builds(
    doc: Document,
    dead: Sequence[tuple[int, str, bool]],
    models: Sequence[ImageModel],
    siblings: Sequence[str],
) -> set[int]:
    """The lines of `guessed_builds` whose gone `-f` Dockerfile's folder holds the plain `Dockerfile`
    its section is compared with (`-f pytorch/new.Dockerfile` gone, `pytorch/Dockerfile` there): the
    folder's own image, which the command most likely builds now, so the build args it passes are
    compared with it, `likely`. Not a flavoured one (`Dockerfile.trtllm` left of a gone
    `Dockerfile.bench`): another image, whose args the command never passed."""
    return _gone_builds(doc, dead, models, siblings)[1]


def _gone_builds(
    doc: Document,
    dead: Sequence[tuple[int, str, bool]],
    models: Sequence[ImageModel],
    siblings: Sequence[str],
) -> tuple[set[int], set[int]]:
    """(`guessed_builds`, `folder_builds`)."""
    gone: set[int] = set()
    near: set[int] = set()
    paths = [m.path for m in models]
    for line, target, flag in dead:
        path = reference_path(target)
        if not flag or stray(path) is not None:
            continue
        now = meant_dockerfiles(path, paths, siblings, heading_of(doc, line))
        if not (now and basename(paths[min(now)]) == basename(path)):
            gone.add(line)
            meant = paths[min(now)] if len(now) == 1 else ""
            if basename(meant) in _PLAIN_NAMES and posixpath.dirname(meant) == posixpath.dirname(path):
                near.add(line)  # (a flavoured one, `Dockerfile.trtllm` for `Dockerfile.bench`: another image)
    if not gone:
        return gone, near
    for fence in doc.fences:
        for command in build_commands(fence):
            lines = {at for at, _ in command}
            if lines & near:
                near |= lines
            if lines & gone:
                gone |= lines
    return gone, near


def dead_finding(
    readme: str,
    line: int,
    target: str,
    flag: bool,
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    doc: Document,
) -> Diagnostic:
    """The finding on a link or `-f` to a Dockerfile that is gone, naming the Dockerfile its section is
    compared with instead when `meant_dockerfiles` tells one."""
    path = reference_path(target)
    if stray(path) is not None:
        return _stray_finding(readme, line, path, flag, siblings)
    how = "builds with" if flag else "links to"
    now = meant_dockerfiles(path, [m.path for m in models], siblings, heading_of(doc, line))
    instead = f"; compared with {models[min(now)].path}, which it most likely means now" if now else ""
    if now and near_variants(path, [models[min(now)].path]):  # `carla.Dockerfile` for `carla15.Dockerfile`
        return Diagnostic(
            readme,
            line,
            f"README {how} {path}, which does not exist (did you mean {models[min(now)].path}? a slip of "
            "its name; compared with it)",
            confidence=CERTAIN,
        )
    # A file of the same name found elsewhere: the reference may only be read from another folder.
    known = bool(now) and basename(models[min(now)].path) == basename(path)
    if known and flag:  # the command fails as written; the file it means is there by its name
        return Diagnostic(
            readme,
            line,
            f"README builds with {path}, which does not exist where the command runs; the Dockerfile is "
            f"{models[min(now)].path} (compared with it)",
            confidence=CERTAIN,
        )
    return Diagnostic(
        readme,
        line,
        f"README {how} {path}, which does not exist (the Dockerfile is gone or moved{instead})",
        confidence=LIKELY if known else CERTAIN,
    )


def _stray_finding(readme: str, line: int, path: str, flag: bool, siblings: Sequence[str]) -> Diagnostic:
    """The finding on a link or `-f` whose Dockerfile name holds a stray character (`-f
    rocm^Cocblas.ub22.Dockerfile`, a control character pasted in): the file it names cannot exist,
    and the Dockerfile next to the README it spoils, when one name is (`rocm-rocblas.ub22.Dockerfile`)."""
    how = "builds with" if flag else "links to"
    meant = meant_by_stray(path, siblings)
    hint = f"; the Dockerfile meant is {siblings[meant]}" if meant is not None else ""
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in path)
    return Diagnostic(
        readme,
        line,
        f"README {how} {shown}, which does not exist: its name holds a stray control character "
        f"({stray(path)}){hint}",
        confidence=CERTAIN,
    )


def dead_references(
    doc: Document,
    directory: Path,
    siblings: Sequence[str] = (),
    audited: Sequence[str] = (),
    said: str = "",
    project: Path | None = None,
) -> Iterator[tuple[int, str, bool]]:
    """(README line, target, is a `-f`) of the links to Dockerfiles (`[…](Dockerfile.rocm6.2)`) and the
    `-f PATH` of build commands naming files that exist neither next to the README nor (for `-f`, run
    from the repository's root) above it. A `-f some/where/Dockerfile` is taken for the `Dockerfile`
    next to the README (a path of another checkout), unless its folder names the flavour of another
    Dockerfile there (`-f rocm/Dockerfile` with `docker/Dockerfile.rocm`: renamed, gone). With
    `project`, a path that would be outside it (`../Dockerfile.x` at its top) is neither looked for
    there nor reported. Nor is a path inside a git submodule (`.gitmodules`, see `docgen.files`)."""
    refs = [(line, target, False) for line, target in doc.links]
    roots = root_variables(said)
    for fence in doc.fences:
        refs += [(line, name, True) for line, name in _checkout_flags(fence, roots, directory, project)]
    said_lines: dict[int, str] = {}  # README line -> its text, filled once when a name needs it
    cds: _BlockCds | None = None  # the `cd`s of each command block, read once when a `-f` needs them
    for line, target, flag in refs:
        path = reference_path(target)
        # a link from the repository's root (`[Dockerfile](/cp2k-docker/Dockerfile)`), as a forge reads it;
        # an absolute `-f` is a path of the reader's machine
        rooted = bool(path) and path.startswith("/") and not flag and project is not None
        path = path.lstrip("/") if rooted else path
        if not path or "://" in target or path.startswith(("/", "$", "<", "-")) or "{" in path:
            continue
        if _users_own_file(path, doc, line, said_lines):
            continue
        if PLACEHOLDER.search(path) or any(VERSION_PLACEHOLDER.fullmatch(p) for p in path.split("/")):
            continue  # `-f gpu/<version>/Dockerfile`: a path the reader fills in (see `placeholders`)
        if not flag and not is_dockerfile_name(basename(without_stray(path))):
            continue  # (a `-f` names the Dockerfile whatever its name: `-f Docker.rocm`)
        if re.search(r"[][*?()]", path):
            continue  # `-f Dockerfile.[cuda|amd]`, `-f Dockerfile.*`: choices the reader picks from
        bases = [directory, *list(directory.resolve().parents)[:4]] if flag else [directory]
        if rooted and project is not None:
            bases = [project]
        if project is not None:  # nothing outside the project is looked at, nor reported on
            bases = [base for base in bases if inside((base / path).absolute(), project) is not None]
            if not bases:
                continue
        if any(os.path.exists(base / path) for base in bases):
            continue
        if any(in_submodule(base / path, directory) for base in bases):
            continue  # a Dockerfile of a git submodule: a checkout holds it only when cloned with it
        flavour = path_flavour(path)
        renamed = flavour is not None and any(
            path_flavour(s) == flavour and basename(s) != basename(path) for s in siblings
        )
        if flag and not renamed and os.path.exists(directory / basename(path)):
            continue
        if not renamed and _named_as_example(path, doc, line, said_lines):
            continue  # `# If Dockerfile is named differently, e.g., Dockerfile-nvidia.dockerfile`
        if flag and _run_in_dockerfile_folder(path, audited, said):
            continue
        if flag:
            if cds is None:
                cds = _block_cds(doc)
            if _in_checkout(cds, line, path, bases):
                continue
        yield line, target, flag


def _checkout_flags(
    fence: Fence, roots: frozenset[str], directory: Path, project: Path | None
) -> list[tuple[int, str]]:
    """`file_flags` of `fence`, those after a `cd` into a placeholder of the reader's checkout (`cd
    /path/to/app` then `docker build -f docker/Dockerfile.base …`) read from the project's root when
    another `-f` of the block is found from there (the block is run in this checkout: its other paths
    are missing); left as they are (not followed) otherwise: a placeholder of another project."""
    flags = list(file_flags(fence, roots, checkout=True))
    mark = CHECKOUT + "/"
    placed = [(line, name[len(mark) :]) for line, name in flags if name.startswith(mark)]
    if not placed:
        return flags
    root = project if project is not None else repository_root(directory)
    tops = [root] if root is not None else [directory, *list(directory.resolve().parents)[:4]]
    found = [
        (line, name)
        for line, name in placed
        if name and not name.startswith((".", "/")) and any(os.path.isfile(top / name) for top in tops)
    ]
    rooted = bool(found) and len(found) < len(placed)
    return [
        (line, name[len(mark) :] if rooted else "$" + name[len(CHECKOUT) :])
        if name.startswith(mark)
        else (line, name)
        for line, name in flags
    ]


_BlockCds = tuple[list[int], list[tuple[int, dict[str, int]]]]
"""The first README line of each command block, and for each its last line and the folders its `cd`s
enter → the line of the first."""


def _block_cds(doc: Document) -> _BlockCds:
    """The folders the `cd`s of each command block enter (`_BlockCds`), read once for all references."""
    firsts: list[int] = []
    blocks: list[tuple[int, dict[str, int]]] = []
    for fence in doc.fences:
        if not fence.lines:
            continue
        entered: dict[str, int] = {}
        for at, text in fence.lines:
            if (cd := CD.match(text)) is not None:
                entered.setdefault(cd.group(1).strip("\"'").rstrip("/"), at)
        firsts.append(fence.lines[0][0])
        blocks.append((fence.lines[-1][0], entered))
    return firsts, blocks


def _in_checkout(cds: _BlockCds, line: int, path: str, bases: Sequence[Path]) -> bool:
    """True when the `-f PATH` at README `line` starts with the folder of a `cd` before it in its block
    (`cds`) that is nowhere in the project, and the rest of it is found: `cd lmdeploy` then `docker
    build -f docker/jetson/Dockerfile .` enters the reader's checkout, named as they cloned it, whose
    root is where the README's own paths start."""
    head, _, rest = path.partition("/")
    if not rest or any(os.path.exists(base / head) for base in bases):
        return False
    if not any(os.path.isfile(base / rest) for base in bases):
        return False
    firsts, blocks = cds
    index = bisect.bisect_right(firsts, line) - 1
    if index < 0 or line > blocks[index][0]:
        return False
    return blocks[index][1].get(head, line + 1) <= line


USER_FILE = re.compile(r"(?:\A|[/._-])(?:your|yours|my)(?=[/._-]|\Z)|(?:\A|/)path/to/", re.IGNORECASE)
"""A file name a reader puts their own in place of: `your.Dockerfile`, `my-app.Dockerfile`,
`path/to/Dockerfile`."""
OWN_FILE = re.compile(r"(?:\A|[/._-])(?:custom|example|sample|own|new)(?=[/._-]|\Z)", re.IGNORECASE)
"""A file name that is the reader's own only where the text is about their own image: `custom.Dockerfile`."""
_OWN_IMAGE = re.compile(r"\b(?:your|yours|own|custom)\b", re.IGNORECASE)
"""Words saying an image or a Dockerfile is the reader's own: `Build your own image`, `your custom image`."""


def _users_own_file(path: str, doc: Document, line: int, said: dict[int, str]) -> bool:
    """True when the Dockerfile a link or `-f` at README `line` names is one the reader writes, not the
    project's: a name of placeholder words (`your.Dockerfile`, `path/to/Dockerfile`), or one of words
    such as `custom`, `example` under a heading, or in a line or the lines just above, that speak of the
    reader's own image (`### Build your own image`, `-t your-registry/app`, `Build your custom image:`).
    `said`: README line -> text, filled at the first call that needs it."""
    if USER_FILE.search(path):
        return True
    if not OWN_FILE.search(path):
        return False
    if not said:  # the README's prose and command lines, read once for all its references
        said.update((at, text) for para in doc.paragraphs for at, text in para.lines)
        said.update((at, text) for fence in doc.fences for at, text in fence.lines)
    near = [said.get(at, "").replace(path, "") for at in range(line - 3, line + 1)]
    return any(_OWN_IMAGE.search(text) for text in (heading_of(doc, line), *near))


_EXAMPLE_REACH = 30
"""How far before a file's name the words giving an example may be (`, e.g., ` and a word or two)."""


def _named_as_example(path: str, doc: Document, line: int, said: dict[int, str]) -> bool:
    """True when README `line` or one of the four lines above it (the sentence over its block) names the
    file `path` right after words giving an example (`e.g.`, `for example`, `例如`: `wording.is_example`):
    `# If Dockerfile is named differently, e.g., Dockerfile-nvidia.dockerfile` over the build naming it
    is a name made up to show the flag, not a file of the project. `said`: as for `_users_own_file`."""
    if not said:
        said.update((at, text) for para in doc.paragraphs for at, text in para.lines)
        said.update((at, text) for fence in doc.fences for at, text in fence.lines)
    name = re.compile(rf"(?<![\w./-]){re.escape(basename(path))}(?![\w-])")
    for at in range(line - 4, line + 1):
        text = said.get(at, "")
        found = name.search(text)
        if found is not None and is_example(text, found, reach=_EXAMPLE_REACH):
            return True
    return False


def _run_in_dockerfile_folder(path: str, audited: Sequence[str], said: str = "") -> bool:
    """True when the `-f PATH` of a build command is found from the folder of an audited Dockerfile or
    one above it: `-f Dockerfile.gpu` (or `-f docker/Dockerfile.gpu`) when `tools/docker/Dockerfile.gpu`
    is audited, or when a file of that name is next to an audited Dockerfile. The README's commands are
    run from there (`docker build -t app .` next to the Dockerfiles); the reference is not dead. A bare
    `-f NAME` is run there only when the README (`said`) puts the reader in that folder: it names a
    Dockerfile in it (`tools/docker/Dockerfile.gpu`, `docker/Dockerfile`), a `cd` to it or words that
    run the commands there (`from the docker/ folder`)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return False
    for dockerfile in audited:
        if len(parts) == 1 and not puts_in_folder(said, dockerfile):
            continue
        if same_file(path, dockerfile) == len(parts):  # the end of an audited Dockerfile's path
            return True
        found = Path(dockerfile)  # as given: from the working directory, when it is there
        if os.path.isfile(found) and os.path.isfile(
            found.parent / path
        ):  # a Dockerfile next to an audited one
            return True
    return False


@functools.lru_cache(maxsize=64)  # asked for each dead `-f NAME`: the README read once a Dockerfile
def puts_in_folder(said: str, dockerfile: str) -> bool:
    """True when README text `said` names a Dockerfile in the folder of `dockerfile` (`docker/Dockerfile`,
    a link to `…/tools/docker/Dockerfile.gpu`), a `cd` to it or words that run the commands there
    (`Run this from the docker/ folder`); always for a Dockerfile at the top."""
    folder = posixpath.basename(posixpath.dirname(dockerfile.replace("\\", "/")))
    if not folder or folder == "..":
        return True
    name = re.escape(folder)
    return bool(
        re.search(rf"(?<![\w.-]){name}/(?:[\w.-]*[Dd]ockerfile|Containerfile)", said)
        or re.search(rf"\bcd[ \t]+[^\s;&|]*?(?<![\w.-]){name}/?(?![\w.-])", said)
        or re.search(
            rf"\b(?:from|in|inside|within)[ \t]+(?:the[ \t]+)?`?(?:\./)?[\w./-]*?(?<![\w.-]){name}/?`?"
            r"[ \t]+(?:folder|directory|dir)\b",
            said,
            re.IGNORECASE,
        )
    )


_CONTEXT_HERE = re.compile(r"[ \t]\.[ \t]*\Z")
"""A build command whose context is the folder it runs in (`docker build -t app .`)."""


def default_file_builds(
    doc: Document,
    models: Sequence[ImageModel],
    tied: Mapping[int, frozenset[int]],
    directory: Path,
    readme: str,
) -> Iterator[Diagnostic]:
    """A build command with no `-f` and the context `.`, in a section about one Dockerfile that is not
    the plain `Dockerfile` (`Dockerfile.gaudi`, next to the README), while a plain `Dockerfile` is there
    too: run where the README is, it builds that other file. Not when the block changes folder first."""
    if not os.path.isfile(context_dockerfile(directory)):
        return
    by_section: dict[int, list[list[tuple[int, str]]]] = {}
    for fence in doc.fences:
        by_section.setdefault(fence.section, []).extend(build_commands(fence))
    for fence in doc.fences:
        images = tied.get(fence.section, frozenset())
        if len(images) != 1 or any(CD.match(text) or "pushd " in text for _, text in fence.lines):
            continue
        model = models[next(iter(images))]
        name = basename(model.path)
        if name in ("Dockerfile", "Containerfile") or not os.path.isfile(directory / name):
            continue
        commands = list(build_commands(fence))
        for command in commands:
            joined = " ".join(text.rstrip("\\").strip() for _, text in command)
            if FILE_FLAG.search(joined) or not _CONTEXT_HERE.search(joined):
                continue
            if _builds_default_on_purpose(fence, by_section[fence.section], command, joined, model.path):
                continue
            yield Diagnostic(
                readme,
                command[0][0],
                f"README builds with no -f, which builds the Dockerfile next to it, not {model.path} "
                "that this section is about",
                confidence=LIKELY,
            )


_DEFAULT_IMAGE_WORDS = re.compile(r"\b(?:production|prod|default|release|standard|regular)\b", re.IGNORECASE)
"""Words of a comment naming the image the plain `Dockerfile` builds (`# Production image with …`)."""


def _builds_default_on_purpose(
    fence: Fence,
    commands: list[list[tuple[int, str]]],
    command: list[tuple[int, str]],
    joined: str,
    path: str,
) -> bool:
    """True when the block's own words say a build with no `-f` (`command`, its text `joined`) builds the
    plain `Dockerfile` on purpose, in a section about the Dockerfile `path`: the comment right above it
    names that image (`# Production image`), or another build of the section (`commands`, of any of its
    blocks) passes `-f` (the writer passes it where it is meant). Not when its tag names the section's
    variant (`-t app-dev` for `Dockerfile.dev`): that one was meant for the section's Dockerfile."""
    name = variant(path)
    tag = TAG_FLAG.search(joined)
    if name and tag and name.lower() in re.split(r"[:/._-]+", tag.group(1).lower()):
        return False
    start = command[0][0]
    above = [text.strip() for line, text in fence.lines if line < start]
    comment = above[-1] if above and above[-1].startswith("#") else ""
    if _DEFAULT_IMAGE_WORDS.search(comment):
        return True
    return any(
        other is not command and FILE_FLAG.search(" ".join(text.rstrip("\\").strip() for _, text in other))
        for other in commands
    )


GENERATED = frozenset(
    {"dist", "build", "builds", "target", "out", "output", "wheels", "wheelhouse", "node_modules", "vendor"}
    | {".venv", "venv", "__pycache__", "artifacts", "bin", "_build", "tmp"}
)
"""Folders a build makes (`COPY dist/ …` copies what an earlier step built): never looked for."""
_GENERATED_PREFIXES = ("cmake-build-",)
"""Prefixes of such folders: CLion's CMake build folders (`cmake-build-release/`, `cmake-build-debug/`)."""
_BUILT_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".jar", ".so", ".deb", ".rpm", ".zip", ".tar")
"""Files a build or a download makes (`COPY app.whl …`)."""
MAKES_FILE_COMMAND = re.compile(
    r"(?<![./-])\b(?:wget|curl|cp|mv|ln|touch|tee|gdown|scp|rsync|mkdir|install|unzip|huggingface-cli|git)\b"
    r"(?![./-]\w)|>"
)
"""A command that makes the file it names (`wget …/model.bin`, `cp ../x .`, `mkdir models`)."""


def copied_sources(instructions: Sequence[Instruction]) -> list[tuple[int, str]]:
    """(Dockerfile line, path) of each plain source of a COPY or ADD: not `--from=` (another stage or
    image), not a URL or a git repository, not a path with a variable or a glob (which may match
    nothing on purpose), not a heredoc; as BuildKit reads it (`copied.context_path`: quotes off, from
    the context's top, `./a` and `/a` are `a`)."""
    found: list[tuple[int, str]] = []
    for instruction in instructions:
        if instruction.keyword not in ("COPY", "ADD") or instruction.heredocs:
            continue
        if any(flag.name == "from" for flag in instruction.flags):
            continue
        words = list(instruction.exec_form or instruction.args.split())
        for word in words[:-1]:
            path = context_path(word)
            if path is None or path == "." or any(c in word for c in "$*?[{"):
                continue
            found.append((instruction.start_line, path))
    return found


_GLOB = re.compile(r"[*?\[]")
"""A wildcard of a COPY or ADD source (Go's `filepath.Match`: `*`, `?`, `[…]`)."""


def empty_globs(
    instructions: Sequence[Instruction], context: Path, dockerfile: Path, homes: Sequence[Path] = ()
) -> list[tuple[int, str]]:
    """(Dockerfile line, pattern) of each wildcard source (`COPY xtuner_* /usr/bin/`) of a COPY or ADD
    from the context whose every source is a pattern that matches nothing there (`.dockerignore` read):
    BuildKit copies nothing for it (the legacy builder stops the build), so the image lacks what the COPY
    was written to give. A pattern beside a plain source is an optional file (`COPY package.json
    yarn.lock* ./`). Not a COPY with a
    variable, `--from`, a heredoc, a URL, `**`, or a pattern that matches in a folder of `homes` (the
    build may mean another context)."""
    rules = dockerignore(context, str(dockerfile))
    found: list[tuple[int, str]] = []
    for instruction in instructions:
        if instruction.keyword not in ("COPY", "ADD") or instruction.heredocs:
            continue
        if any(flag.name in ("from", "parents") for flag in instruction.flags):
            continue
        words = list(instruction.exec_form or instruction.args.split())[:-1]
        if not words or any(c in w for w in words for c in "${}") or any("**" in w for w in words):
            continue
        paths = [context_path(word) for word in words]
        globbed = [p for p in paths if p is not None and _GLOB.search(p)]
        if len(globbed) != len(paths) or any(_matched(context, p, rules) for p in globbed):
            continue  # (beside a plain source, a pattern is an optional file: the plain one is told)
        if any(_matched(home, p, ()) for home in homes for p in globbed):
            continue
        found.extend((instruction.start_line, p) for p in globbed)
    return found


def _matched(folder: Path, path: str, rules: Sequence[tuple[re.Pattern[str], bool]]) -> bool:
    """True when `path` (a wildcard or a plain path of the context) names a file or folder of `folder`
    that the `.dockerignore` `rules` keep; each part matched as Go's `filepath.Match` does (`*` takes
    no `/`, and takes a leading `.`)."""
    found = [""]
    for part in path.split("/"):
        if not _GLOB.search(part):
            found = [posixpath.join(f, part) if f else part for f in found]
            continue
        matched: list[str] = []
        for relative in found:
            try:
                names = os.listdir(folder / relative) if relative else os.listdir(folder)
            except OSError:
                continue
            matched += [
                posixpath.join(relative, n) if relative else n for n in names if fnmatch.fnmatchcase(n, part)
            ]
        found = matched
    return any(os.path.lexists(folder / f) and not ignored(f, rules) for f in found if f)


def build_ignored(
    path: str,
    folders: Sequence[Path],
    dockerfile: Path | None = None,
    docker: bool = True,
    suffixes: bool = True,
) -> bool:
    """True when `path` is in a folder a build makes (`dist/`, a `.whl`), matched by a pattern of the
    `.gitignore` of `folders` (git's rules, read simply: `paths.ignores`), or left out by a
    `.dockerignore` as BuildKit reads it (`copied.dockerignore`, `copied.ignored`: a pattern from the
    context's top, `**` any depth, `!` taking a path back): for a build of `dockerfile` (`path` a COPY
    source) the one that build reads, the Dockerfile's own else that of its context `folders[0]`;
    without one (`path` a file the README names) each of `folders`' own. A file made or left out on
    purpose, not one in the wrong place. Without `docker`, the `.dockerignore` is not read: a COPY source
    it leaves out is missing from the build all the same, so it is no reason for a file not to be there.
    Without `suffixes`, a file is not taken as made for its kind (`.tar.gz`): a vendor's archive."""
    parts = path.split("/")
    if any(part in GENERATED or part.startswith(_GENERATED_PREFIXES) for part in parts):
        return True
    if suffixes and path.endswith(_BUILT_SUFFIXES):
        return True
    if any(ignores(pattern, parts) for f in folders for pattern in ignore_patterns(f / ".gitignore")):
        return True
    if not docker:
        return False
    contexts = folders[:1] if dockerfile is not None else folders
    return any(ignored(path, dockerignore(c, str(dockerfile) if dockerfile else None)) for c in contexts)


def _cd(step: str, folders: list[Path], project: Path) -> list[Path] | None:
    """The folders a `cd` step of a command leads to from `folders`, inside `project` and existing:
    none when it cannot be followed (`cd $DIR`, `cd /opt`, `cd ~/src`, a folder not there). None when
    `step` is no `cd`."""
    cd = CD_STEP.match(step)
    if cd is None:
        return None
    target = (cd.group(1) or "").strip("\"'")
    if not target or target.startswith(("/", "$", "~", "-")):
        return []
    moved = (inside(f / target, project) for f in folders)
    return list(dict.fromkeys(f for f in moved if f is not None and os.path.isdir(f)))


def project_top(directory: Path, project: Path | None) -> Path:
    """The folder nothing above which is looked at: `project`, by default the fourth above the README's."""
    return (project or [directory.resolve(), *directory.resolve().parents][:5][-1]).resolve()


class Walk:
    """The steps (`&&`, `||`, `;`) of a README's command blocks, read top to bottom as a reader runs
    them, and the folders they run in (`folders`): a `cd` moves every later step (it is not a step
    itself), and one that cannot be followed (`cd $DIR`, a folder not found, one outside `project`)
    ends the walk (`lost` then tells where). Folders are kept resolved, so a chain of `cd`s does not
    make a longer path."""

    def __init__(self, bases: list[Path], project: Path, home: bool = False) -> None:
        self.folders = list(bases)
        self.project = project
        self.home = home
        """With `home`, a `cd` not followed after which its block runs a script found where the walk is
        (`cd ~/src/app && ./run.sh`: where the reader keeps this checkout) leaves the folders as they
        are, and the walk goes on."""
        self._skip = False
        self.lost: tuple[int, str, Fence] | None = None
        """(README line, step, block) of the `cd` that ended the walk, if one did."""
        self.aliases: dict[str, list[Path]] = {}
        """Folders a `cd` names (as written, `./` or `$PWD/` taken off) that stand for others: the
        folder a clone of this very repository makes is the repository's root."""
        self.recover: Callable[[int, str, Fence], list[Path] | None] | None = None
        """Called with a `cd` that cannot be followed: the folders the reader is in after it (a folder
        a slip away that they meant), or None to end the walk."""
        self.fence: Fence | None = None
        """The block the last step yielded is in."""

    def skip_block(self) -> None:
        """Leave the rest of the current block unread (its `cd`s too)."""
        self._skip = True

    def steps(self, fences: Sequence[Fence], *, joined: bool) -> Iterator[tuple[int, str]]:
        """(README line, step) of each step that is no `cd`; with `joined`, continued lines (`\\`)
        are one command, at the line it starts on. A `cd` into a folder of the home or an absolute one
        that a `mkdir` of the README made before (`mkdir ~/models`, `cd ~/models`: a folder for
        downloads) is a detour: the rest of its section is not read, and the walk goes on after it
        from where it was."""
        made: set[str] = set()  # the folders out of the project `mkdir` steps made, as written
        detour: int | None = None  # the section of such a detour
        for fence in fences:
            if fence.lang not in COMMAND_LANGS or fence.section == detour:
                continue
            self._skip, self.fence, detour = False, fence, None
            for line, code in command_lines(fence, joined):
                for step in re.split(r"&&|\|\||;", code):
                    moved = self.aliases.get(cd_target(step) or "") or _cd(step, self.folders, self.project)
                    if moved is None:
                        made.update(_MADE_AWAY.findall(step))
                        yield line, step
                        if self._skip:
                            break
                    elif not moved:
                        if self.home and _runs_found_script(_rest(fence, line, code, step), self.folders):
                            continue
                        if (cd_target(step) or "") in made:
                            self._skip, detour = True, fence.section
                            break
                        found = self.recover(line, step, fence) if self.recover else None
                        if found:
                            self.folders = found
                            continue
                        self.lost = (line, step, fence)
                        return
                    else:
                        self.folders = moved
                if self._skip:
                    break


_MADE_AWAY = re.compile(r"(?:^|\s)mkdir(?:\s+-p)?\s+([~/][\w./~-]*)")
"""A folder of the home or an absolute one a `mkdir` step makes (`mkdir ~/models`, `mkdir -p /data`)."""


def cd_target(step: str) -> str | None:
    """The folder a `cd` step enters as written from the folder it runs in (`app` for `cd ./app/`,
    `cd "$PWD/app"`); None when `step` is no `cd`."""
    cd = CD_STEP.match(step)
    if cd is None:
        return None
    target = (cd.group(1) or "").strip("\"'")
    return re.sub(r"^(?:\$\{?PWD\}?/|\./)+", "", target).rstrip("/")


def _rest(fence: Fence, line: int, code: str, step: str) -> str:
    """The commands of `fence` after `step` of the command `code` on README `line`, up to the next `cd`
    or a command that may run elsewhere (`docker run -it`)."""
    after = code.split(step, 1)[1] if step in code else ""
    return until_moved("\n".join([after, *(t.split(" #", 1)[0] for n, t in fence.lines if n > line)]))


def until_moved(text: str) -> str:
    """The commands of shell `text` up to the first `cd` or command that may run elsewhere (`docker
    run -it`, `ssh`): those that run in the folder the text starts in, one a line."""
    kept = []
    for piece in re.split(r"&&|\|\||;|\n", text):
        if CD_STEP.match(piece) or ELSEWHERE.search(piece):
            break
        kept.append(piece)
    return "\n".join(kept)


def _runs_found_script(commands: str, folders: Sequence[Path]) -> bool:
    """True when `commands` run a script from the current folder (`./run.sh`) that is in one of
    `folders`."""
    return any(
        _is_script(folder / match.group(1))
        for piece in commands.splitlines()
        for match in RUN_SCRIPT.finditer(piece)
        for folder in folders
    )


def command_lines(fence: Fence, joined: bool) -> Iterator[tuple[int, str]]:
    """(README line, command) of each line of a command block that is no comment, without its `#`
    comment and the prompt written before it (`laptop $ `, `user@host:~$ `); with `joined`, continued
    lines as one command at the line it starts on."""
    pending: list[tuple[int, str]] = []
    going_on = False
    for line, text in fence.lines:
        text, going_on = (text if going_on else without_prompt(text)), continued(text)
        if not joined:
            code = text.split(" #", 1)[0]
            if not code.lstrip().startswith("#"):
                yield line, code
            continue
        pending.append((line, text.split(" #", 1)[0]))
        if continued(text):
            continue
        first = pending[0][0]
        code = " ".join(t.rstrip().rstrip("\\").strip() for _, t in pending)
        pending = []
        if not code.lstrip().startswith("#"):
            yield first, code


def context_builds(
    fences: Sequence[Fence],
    bases: list[Path],
    project: Path,
    ran: list[str] | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
    clones: list[str] | None = None,
) -> Iterator[tuple[int, str, Path, Path, str]]:
    """(README line, Dockerfile as written, Dockerfile, context folder, context as written) of each
    build command of the command blocks, read top to bottom as the reader runs them (a `cd` moves the
    later blocks too), from the first of `bases` (the README's folder, then those above it) where its
    Dockerfile is. Reading stops at a `cd` that cannot be followed and after a command that makes any
    file appear (`git clone`, `make`, `tar x`); a context with a variable or a placeholder is skipped.
    After a command that opens a shell in a container (`docker exec -it app bash`), a block of no
    container command that `cd`s to a folder of no host (`cd ~/ws/src`, `cd /opt/app`) runs in that
    container (`_InContainer`): the rest of it is not read, and the reader's folder stays where it was,
    for the builds of the other sections. With `ran`, the text of each script the commands run
    (`./prepare.sh`, found where the walk is) is added to it as it is run: it may make any file. With
    `cloned` (`steps.own_clones`), a clone of this very repository does not stop the reading: the `cd`
    into its folder enters the repository's root. With `clones`, a `git clone` of another repository
    does not stop the reading either: the folder it makes is added to `clones` (for a rule that reads
    only what a clone cannot change, as `climbed_copies`)."""
    walk = Walk(bases, project)
    container = _InContainer(walk)
    walk.recover = container.recover
    for first, step in walk.steps(fences, joined=True):
        container.read(step)
        own = cloned(first, step) if cloned is not None else None
        if own is not None:
            walk.aliases[own[0]] = [own[1]]
            continue
        if ran is not None:
            for match in RUN_SCRIPT.finditer(step):
                place = next(
                    (f / match.group(1) for f in walk.folders if _is_script(f / match.group(1))), None
                )
                text = None if place is None else text_or_none(place, MAX_PROJECT_FILE_BYTES)
                if text is not None:  # a link out of the project, a folder, a FIFO: no script
                    ran.append(text)
        if clones is not None and (clone := clone_of(step)) is not None and ";" not in step:
            clones.append(clone[1] or cloned_folder(clone[0]))
            continue
        if FILES_APPEAR.search(step) and not BUILD.search(step):
            return
        paths = build_paths(step) if BUILD.search(step) else None
        if paths is None or (walk.fence is not None and walk.fence.section in container.sections):
            continue
        file, context = paths
        if any(c in context + (file or "") for c in "$<>{}%") or "://" in context:
            continue
        if context.startswith(("/", "~")) or (file or "").startswith(("/", "~")):
            continue
        for folder in walk.folders:
            where = inside(folder / context, project)
            dockerfile = inside(folder / file, project) if file else where and context_dockerfile(where)
            if where is not None and dockerfile is not None and os.path.isfile(dockerfile):
                yield first, file or posixpath.join(context, dockerfile.name), dockerfile, where, context
                break


_ENTERS_CONTAINER = re.compile(container_command("run|exec", ALL_ENGINES) + r"(?=.*[ \t]-(?:it|ti)\b)")
"""A command that opens a shell in a container (`docker exec -it app bash`, `docker run --rm -it img`)."""
_CONTAINER_COMMAND = re.compile(r"\b(?:docker|podman|nerdctl|nvidia-docker)\b")


class _InContainer:
    """A `Walk.recover` that reads a `cd` to a folder of no host (`~/…`, `/…`) in a block of no
    container command, after a command that opened a shell in a container, as a step inside that
    container: the walk stays where it was and leaves the rest of the block. `read` is told every
    step the walk yields; `sections` are those of the blocks so read (a build in them is not told)."""

    def __init__(self, walk: Walk) -> None:
        self.entered = False
        self.sections: set[int] = set()
        self._walk = walk

    def read(self, step: str) -> None:
        if _ENTERS_CONTAINER.search(step):
            self.entered = True

    def recover(self, line: int, step: str, fence: Fence) -> list[Path] | None:
        target = (cd_target(step) or "").strip()
        if not self.entered or not target.startswith(("~", "/")):
            return None
        if any(_CONTAINER_COMMAND.search(text) for _, text in fence.lines):
            return None
        self.sections.add(fence.section)
        self._walk.skip_block()
        return list(self._walk.folders)


def bases_above(directory: Path, top: Path) -> list[Path]:
    """The README's folder and up to four above it, those inside `top`: where its build commands may run."""
    above = [directory, *directory.resolve().parents][:5]
    return [b for b in (inside(d.absolute(), top) for d in above) if b is not None]


def context_misses(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    readme: str,
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A build command whose context (`.`, resolved where the command runs) holds not what its Dockerfile
    COPYs or ADDs while a folder on the Dockerfile's way up to the project's top does: `docker build -f
    .cd/Dockerfile .` from the repository's root when `COPY templates …` reads `.cd/templates`. When the
    context holds none of the sources, all of them must be in that one folder (a partial checkout holds
    none anywhere), unless the project is a git checkout (`in_checkout`): then a source no folder holds is
    missing. Outside a checkout, a source no folder holds is missing when it is named as a file
    (`plain_files`) and so is every other missing one (a folder missing too tells a copy of some of the
    project's files), and the README names none of them anywhere but in a bind mount (it knows the file:
    the copy lacks it; `MadeFiles.named`); a source written with a variable is read as the command's
    literal build args expand it (`--build-arg ENV=patolli`). A source the `.dockerignore` leaves out is
    no reason for it to be missing: the builder does not get it either. Not for a source a README line
    before the command makes (`wget`, `cp`, `mkdir`, or words: `download model.bin into this folder`),
    nor one ignored or generated (see `build_ignored`), nor one a script the README runs before it names on a
    line that makes a file (`cp ../patch.diff .` in `./prepare.sh`). With `cloned`
    (`steps.built_clones`), a clone of this very repository that the README enters and builds does not
    stop the reading."""
    top = project_top(directory, project)
    bases = bases_above(directory, top)
    blocks = sorted(
        [*doc.fences, *indented_blocks(doc), *_bare_builds(doc)],
        key=lambda b: b.lines[0][0] if b.lines else 0,
    )
    made = MadeFiles(source)
    asked = Told(source, _script_reader(bases, top))
    ran: list[str] = []
    commands: dict[int, str] = {}  # README line → its command, and a Dockerfile's sources as each expands
    expansions: dict[tuple[str, str], list[tuple[int, str]]] = {}  # them: once (a line of many builds)
    for line, shown, dockerfile, context, written in context_builds(blocks, bases, top, ran, cloned):
        try:
            parsed = read_dockerfile(dockerfile, shown)
        except DocgenError:
            continue
        if len(ran) != made.scripts:
            made = MadeFiles(source, ran)
        lead = f"README builds {shown} with the context {written}"
        if line not in commands:
            commands[line] = command_at(source, line)
        command = commands[line]
        key = (str(dockerfile), command)
        if key not in expansions:
            expansions[key] = expanded_sources(parsed, command)
        expanded = expansions[key]
        told = list(
            context_findings(
                readme, line, lead, parsed.instructions, dockerfile, context, top, made, expanded, own=True
            )
        )
        yield from told
        scripts = [
            (at, p) for at, p in context_reads(parsed.instructions, context)[1] if not made.before(p, line)
        ]
        if scripts and not told:
            # a script a RUN runs from the copy of the whole context that the context lacks
            listed = ", ".join(f"{name} (line {at})" for at, name in scripts)
            said = f"{lead}, which does not hold {listed} that it runs from its copy of the context"
            yield Diagnostic(readme, line, said, confidence=CERTAIN if in_checkout(context, top) else LIKELY)
        unpacked = [
            (at, p)
            for at, p in context_unpacks(parsed.instructions, context)
            if not made.before(p, line)
            and not asked(p, line)
            and not build_ignored(p, [context, top], dockerfile, suffixes=False)
        ]
        if unpacked and not told and not scripts:
            # an archive or weights a RUN unpacks or moves from its copy of the context, that nothing makes
            listed = ", ".join(f"{name} (line {at})" for at, name in unpacked)
            said = (
                f"{lead}, which does not hold {listed} that it unpacks or moves from its copy of the "
                "context, and the README never says to fetch or make it"
            )
            yield Diagnostic(readme, line, said, confidence=LIKELY, rule=MISSING_FILE)
        # (an installer a build arg names is the one the reader picks, and fetches: not told)
        copied = [
            *copied_sources(parsed.instructions),
            *(expanded if "--build-arg" not in command else []),
        ]
        if in_checkout(context, top):  # (`context_findings` told the rest; an archive it takes as made)
            copied = [(at, path) for at, path in copied if vendor_archive(path)]
        yield from _fetched_misses(readme, asked, line, lead, copied, dockerfile, context, top, made)
    # the builds after a clone of another repository, for the copies out of the context alone
    clones: list[str] = []
    for line, shown, dockerfile, context, written in context_builds(blocks, bases, top, None, cloned, clones):
        if line in commands or not clones:
            continue
        try:
            parsed = read_dockerfile(dockerfile, shown)
        except DocgenError:
            continue
        lead = f"README builds {shown} with the context {written}"
        yield from climbed_copies(readme, line, lead, parsed.instructions, dockerfile, context, made, clones)


def _script_reader(bases: Sequence[Path], top: Path) -> Callable[[str], str | None]:
    """The text of a script a README line runs, by its path as written (`python fetch.py`): from the
    README's folder or one above it, else the one file of its name in the repository (`plugins/fetch.py`);
    None when it is not found, or is not one file. Each path read once."""
    seen: dict[str, str | None] = {}

    def read(path: str) -> str | None:
        if path not in seen:
            place = next((p for b in bases if (p := inside(b / path, top)) and os.path.isfile(p)), None)
            if place is None and (walked := repository_files(top)) is not None:
                name = posixpath.basename(path)
                homes = [Path(folder) / name for folder, _, files in walked if name in files]
                place = homes[0] if len(homes) == 1 else None
            seen[path] = None if place is None else text_or_none(place, MAX_PROJECT_FILE_BYTES)
        return seen[path]

    return read


def _bare_builds(doc: Document) -> list[Fence]:
    """Each build command written as a prose line of its own (`docker build -t app .` outside any code
    block, no word of a sentence: `commands.bare_commands`, whose sentence end may be the context `.`)
    as a command block of one line."""
    return [
        Fence("", [(n, text.strip())], para.section)
        for para in doc.paragraphs
        for n, text in para.lines
        if BUILD_LINE.match(text)
        and not text.startswith(("    ", "\t"))  # (a line of an indented block: `indented_blocks`)
        and "`" not in text
        and not PROSE_WORD.search(text)
    ]


def _fetched_misses(
    readme: str,
    told: Told,
    line: int,
    lead: str,
    copied: Sequence[tuple[int, str]],
    dockerfile: Path,
    context: Path,
    top: Path,
    made: MadeFiles,
) -> Iterator[Diagnostic]:
    """Of the sources `copied` ((Dockerfile line, context path)) that the build at README `line` copies
    from a `context` outside a git checkout, each file only a download gives (`fetched_copies`, a
    vendor's archive too: `vendor_archive`, told with `Told.archive`) which
    no folder from the Dockerfile's up to `top` holds, the README never tells to fetch and nothing
    before the build makes (`told`: the README's lines, `fetched_copies.Told`)."""
    homes = [context, *(f for f in [dockerfile.parent, *dockerfile.parent.parents] if f.is_relative_to(top))]
    for at, path in copied:
        archive = not fetched(path) and vendor_archive(path)
        if not (archive or fetched(path)) or any(os.path.lexists(home / path) for home in homes):
            continue
        if build_ignored(path, [context, top], dockerfile, suffixes=not archive) or made.before(path, line):
            continue
        if told.archive(path, line) if archive else told(path, line):
            continue
        said = f"which does not hold {path} (line {at}) that it copies, and the README never says to fetch it"
        yield Diagnostic(readme, line, f"{lead}, {said}", confidence=LIKELY, rule=MISSING_FILE)


def context_findings(
    readme: str,
    line: int,
    lead: str,
    instructions: Sequence[Instruction],
    dockerfile: Path,
    context: Path,
    top: Path,
    made: MadeFiles,
    expanded: Sequence[tuple[int, str]] = (),
    own: bool = False,
) -> Iterator[Diagnostic]:
    """What `context_misses` tells of one build (README `line`, its words `lead`: `README builds
    Dockerfile with the context .`) of `dockerfile` from `context`, within the project's `top`; with
    `expanded`, the sources written with a variable as the build expands them (`expanded_sources`). With
    `own` (a build command of the README itself), outside a git checkout a source written as a folder
    (`COPY ./content/ …`) that the README names nowhere is told as a file is (`likely`), when it is the
    only source missing.

    Each finding carries its family, whichever check calls this: a file no folder of the project holds is
    a missing file (DG102); one the build reaches from another context, or that a later step makes, is
    a command that cannot work as written (DG103)."""
    yield from climbed_copies(readme, line, lead, instructions, dockerfile, context, made)
    kept = sorted([*copied_sources(instructions), *expanded], key=lambda source: source[0])
    kept = [
        (at, path)
        for at, path in kept
        if not build_ignored(path, [context, top], docker=False)
        and not made.before(path, line)
        and not in_submodule(context / path, context)  # (a submodule's files come with its clone)
    ]
    sources = [(at, path) for at, path in kept if not build_ignored(path, [context], dockerfile)]
    homes = [
        folder
        for folder in [dockerfile.parent, *dockerfile.parent.parents]
        if folder != context and folder.is_relative_to(top)
    ]
    # (a source the `.dockerignore` leaves out that no folder holds is missing all the same)
    left_out = [
        (at, path)
        for at, path in kept
        if (at, path) not in sources
        and not os.path.lexists(context / path)
        and not any(os.path.lexists(h / path) for h in homes)
    ]
    missing = [(at, path) for at, path in sources if not os.path.lexists(context / path)]
    if in_checkout(context, top):
        # (a copy of some of a project's files may lack what a pattern matches: read in a checkout only)
        globbed = [
            (at, pattern)
            for at, pattern in empty_globs(instructions, context, dockerfile, homes)
            if not build_ignored(pattern, [context, top], docker=False) and not made.before(pattern, line)
        ]
        sources += globbed
        missing += globbed
    later = [
        (at, path, step)
        for at, path in sorted([*missing, *left_out])
        if not any(os.path.lexists(h / path) for h in homes) and (step := made.later(path, line)) is not None
    ]
    if later:
        listed = ", ".join(f"{path} (line {at})" for at, path, _ in later)
        step_line, command = later[0][2]
        yield Diagnostic(
            readme,
            line,
            f"{lead}, which does not hold {listed} that it copies: the README makes it only at line "
            f"{step_line} (`{command}`), a step after this build",
            confidence=LIKELY,
            rule=BROKEN_COMMAND,
        )
        dropped = {(at, path) for at, path, _ in later}
        missing = [m for m in missing if m not in dropped]
        left_out = [m for m in left_out if m not in dropped]
    if not missing and not left_out:
        return
    held = len(missing) < len(sources)
    nowhere = sorted([*missing, *left_out])
    found: dict[Path, list[tuple[int, str]]] = {}
    for at, path in missing:
        home = next((h for h in homes if os.path.lexists(h / path)), None)
        if home is not None:
            found.setdefault(home, []).append((at, path))
    # the context holds none of what is copied and some of it is beside the Dockerfile, the rest nowhere:
    # the Dockerfile was written for its own folder as the context (`-f docker/Dockerfile .`)
    beside = not held and list(found) == [dockerfile.parent] and not _rooted(dockerfile, context, missing)
    many = len(found) != 1 or len(next(iter(found.values()))) != len(missing)
    if not found or (not held and many and not beside):
        rooted = _rooted(dockerfile, context, missing) if missing else None
        if rooted is not None:
            yield Diagnostic(
                readme,
                line,
                f"{lead}, {rooted[0]}",
                confidence=rooted[1],
                rule=BROKEN_COMMAND,
            )
        elif not found and in_checkout(context, top):
            globbed = [(at, path) for at, path in nowhere if _GLOB.search(path)]
            plain = [(at, path) for at, path in nowhere if (at, path) not in globbed]
            said = "in a git checkout that holds every file"
            if plain:
                listed = ", ".join(f"{path} (line {at})" for at, path in plain)
                said = f"which does not hold {listed} that it copies, {said}"
            if globbed:
                listed = ", ".join(f"{path} (line {at})" for at, path in globbed)
                said = (
                    f"{said}; and "
                    if plain
                    else f"which holds no file matching {listed} that it copies, {said}: "
                )
                if plain:
                    said += f"no file matches {listed}: "
                said += (
                    "BuildKit copies nothing for a COPY whose every source matches nothing, so the image "
                    "lacks what it was to give (the legacy builder stops: no source files were specified)"
                )
            sure = bool(plain) and top_plain_files(plain)  # (a pattern alone fails no BuildKit build)
            yield Diagnostic(
                readme, line, f"{lead}, {said}", confidence=CERTAIN if sure else LIKELY, rule=MISSING_FILE
            )
        elif (
            not found
            and (
                files := plain_files(nowhere, instructions)
                or (_folders(nowhere, instructions) if own else [])
            )
            and len(files) == len(nowhere)
            and not any(made.named(path) for _, path in files)
        ):
            shown = set(_folders(files, instructions)) if own else set()
            listed = ", ".join(
                f"{path}{'/' if (at, path) in shown else ''} (line {at})" for at, path in files
            )
            one = len({path for _, path in files}) == 1
            them = "it" if one else "them"
            said = f"which does not hold {listed} that it copies, and no folder of the project has {them}"
            sure = (one or top_plain_files(files)) and not (own and _folders(files, instructions))
            yield Diagnostic(
                readme, line, f"{lead}, {said}", confidence=CERTAIN if sure else LIKELY, rule=MISSING_FILE
            )
        return
    for home, paths in found.items():
        folder = os.path.relpath(home, context)
        listed = ", ".join(f"{path} (line {at})" for at, path in paths)
        verb = "is" if len(paths) == 1 else "are"
        said = (
            f"which does not hold {listed} that it copies ({verb} in {folder}/)"
            if held
            else f"which holds none of what it copies: {listed} {verb} in {folder}/"
        )
        lost = [(at, path) for at, path in nowhere if (at, path) not in paths]
        if beside and lost:
            verb = "is" if len(lost) == 1 else "are"
            named = ", ".join(f"{path} (line {at})" for at, path in lost)
            said += f"; {named} {verb} in no folder of the project"
        yield Diagnostic(readme, line, f"{lead}, {said}", confidence=LIKELY, rule=BROKEN_COMMAND)


_CLIMBED_SKIPPED = re.compile(r"[$*?\[{]|://")
"""A source read no further by `climbed_copies`: a variable, a wildcard, a URL."""


def climbed_copies(
    readme: str,
    line: int,
    lead: str,
    instructions: Sequence[Instruction],
    dockerfile: Path,
    context: Path,
    made: MadeFiles,
    clones: Collection[str] = (),
) -> Iterator[Diagnostic]:
    """The COPY and ADD sources of one build (README `line`, its words `lead`) from `context` that climb
    out of it (`COPY .. /src`, `COPY ../engine /app`): BuildKit reads every source from the context's
    top whatever its `..` (`../engine` is the context's `engine`, `..` the context itself; the legacy
    builder refuses such a path). Told:

    - a source the context lacks at its top while the folder the `..` names (from the Dockerfile's
      folder, or from the context) holds it: the file is there, out of the build's reach, and the build
      stops at that COPY (`certain`); a source held nowhere is `context_findings`' to tell, or a file a
      partial copy of the project left out;
    - a source that is the whole context (`..`, `../..`) while the folder it names from the Dockerfile's
      folder is not the context (`cd qenv && docker build .` with `COPY .. /src`): the image gets the
      context, not the folder above it (`likely`: what the later steps then lack is named when a WORKDIR
      enters a folder of the copy the context does not hold, not proved).

    Silent: a Dockerfile written for the context it is built from (`docker build ../.. -f Dockerfile`
    with `COPY ../../ /root/proj`, `-f docker/Dockerfile .` with `COPY ../common/x /`), a `COPY
    --from`, a heredoc, a source with a variable, a wildcard or a URL, a file the README makes in the
    context before the build, or one a `git clone` of the README before it makes (`clones`: the folders
    they make, wherever the reader runs them)."""
    here = context.resolve()
    home = dockerfile.parent.resolve()
    workdir = "/"
    for index, instruction in enumerate(instructions):
        if instruction.keyword == "WORKDIR":
            workdir = posixpath.join(workdir, instruction.args.strip().strip("\"'"))
            continue
        if instruction.keyword not in ("COPY", "ADD") or instruction.heredocs:
            continue
        if any(flag.name == "from" for flag in instruction.flags):
            continue
        words = list(instruction.exec_form or instruction.args.split())
        for word in words[:-1]:
            written = word.strip("\"'")
            if _CLIMBED_SKIPPED.search(written) or not above_context(written):
                continue
            clamped = posixpath.normpath("/" + written).lstrip("/") or "."
            at = instruction.start_line
            if clamped == ".":
                if Path(os.path.normpath(home / written)) == here:
                    continue
                said = (
                    f"{lead}, whose COPY {written} (line {at}) copies the context itself, not the folder "
                    "above it: BuildKit reads every source inside the context (the legacy builder refuses "
                    "a path outside it), so nothing above the context reaches the image"
                )
                dest = posixpath.normpath(posixpath.join(workdir, words[-1].strip("\"'")))
                entered = _entered_below(instructions[index + 1 :], dest, here)
                if entered is not None and entered[2] not in clones:
                    said += (
                        f"; WORKDIR {entered[1]} (line {entered[0]}) then enters {entered[2]}, which the "
                        "context does not hold"
                    )
                yield Diagnostic(readme, line, said, confidence=LIKELY, rule=BROKEN_COMMAND)
                continue
            if (
                os.path.lexists(here / clamped)
                or made.before(clamped, line)
                or clamped.split("/")[0] in clones
            ):
                continue
            meant = [Path(os.path.normpath(folder / written)) for folder in (home, here)]
            if not any(os.path.lexists(path) for path in meant):
                continue
            yield Diagnostic(
                readme,
                line,
                f"{lead}, whose COPY {written} (line {at}) is read as {clamped} at the context's top "
                "(BuildKit reads every source inside the context; the legacy builder refuses a path "
                f"outside it), which the context does not hold: the {clamped} above the context is never "
                "read, and the build stops at that COPY",
                confidence=CERTAIN,
                rule=BROKEN_COMMAND,
            )


def _entered_below(later: Sequence[Instruction], dest: str, context: Path) -> tuple[int, str, str] | None:
    """(line, path, folder) of the first WORKDIR of `later` that enters a folder below `dest` (where a
    copy of the whole `context` landed) whose first part the context does not hold: `WORKDIR
    /src/qsim` after `COPY .. /src`. None when there is none, or a path has a variable."""
    workdir = dest
    for instruction in later:
        if instruction.keyword == "FROM":
            return None
        if instruction.keyword != "WORKDIR" or "$" in instruction.args:
            continue
        workdir = posixpath.normpath(posixpath.join(workdir, instruction.args.strip().strip("\"'")))
        if workdir.startswith(dest.rstrip("/") + "/"):
            first = workdir[len(dest.rstrip("/")) + 1 :].split("/", 1)[0]
            if not os.path.lexists(context / first):
                return instruction.start_line, workdir, first
    return None


def _folders(
    missing: Sequence[tuple[int, str]], instructions: Sequence[Instruction]
) -> list[tuple[int, str]]:
    """The one source a context lacks (`missing`), when its COPY or ADD writes it as a folder
    (`./content/`, a trailing `/`, or copied alone to a folder of its name: `COPY ./models
    /app/models`) of one plain name (`content`, not `src/app/`); else none. With another
    source missing, a copy of some of the project's files more likely left a part out."""
    if len(missing) != 1:
        return []
    written = {
        (i.start_line, context_path(word))
        for i in instructions
        if i.keyword in ("COPY", "ADD")
        for words in [list(i.exec_form or i.args.split())]
        for word in words[:-1]
        if not word.startswith("--") and (word.endswith("/") or _same_folder(word, words))
    }
    return [
        (at, path)
        for at, path in missing
        if (at, path) in written and re.fullmatch(r"[\w][\w.-]*", path) is not None
    ]


_WEIGHTS_FOLDER = re.compile(
    r"(?:models?|weights|checkpoints?|ckpts?|pretrained(?:_models)?)\Z", re.IGNORECASE
)
"""The name of a folder of model weights: files a download gives, not a part of the project's code."""


def _same_folder(word: str, words: Sequence[str]) -> bool:
    """True when a COPY of the one source `word` (of its `words`) puts a folder of weights (`models`,
    `checkpoints`) in a folder of its name (`COPY ./models /app/webui/models`): a folder copied whole, as
    `./models/` writes it (another name of no suffix, `COPY sudo-nopasswd /opt/sudo-nopasswd`, may be a
    file)."""
    name = posixpath.basename(word.rstrip("/"))
    sources = [w for w in words[:-1] if not w.startswith("--")]
    target = posixpath.basename(words[-1].rstrip("/"))
    return len(sources) == 1 and _WEIGHTS_FOLDER.match(name) is not None and target == name


_PLAIN_FILE = re.compile(r"[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}\Z")
"""A file's name with no folder and a suffix of letters (`run.sh`, `requirements.txt`), not `driver` nor
`tool_v0.53` (a folder, a download named by its version)."""


def top_plain_files(missing: Sequence[tuple[int, str]]) -> bool:
    """True when the sources a context lacks are all files of its top (`run.sh`; `requirements.txt` and
    `download.py`), each copied once or more: the folder the build command names lacks them, and the
    build stops at the first COPY. A source in a folder (`requirements/core.txt`) or a folder itself
    (`src`), with another missing, more often tells a checkout or a copy that lacks a part (a
    submodule, a generated tree) than a file never committed (`likely`)."""
    names = {path.removeprefix("./") for _, path in missing}
    return bool(names) and all(_PLAIN_FILE.match(name) is not None for name in names)


_FILE_HOME = re.compile(
    r"/(?:s?bin|etc/default|[\w-]+\.d)/[\w.-]+\Z"
    r"|/[\w-][\w.-]*\.(?:bashrc|zshrc|profile|conf|cfg|ini|ya?ml|json|toml|sh|py|txt|list|xml|env|properties"
    r"|service|rules|repo|pem|crt)\Z"
)
"""A COPY destination in a folder of files by nature (`/etc/sudoers.d/nopasswd`, `/usr/local/bin/entry`,
`/etc/default/keyboard`), or a name of a kind of file (`/etc/bash.bashrc`, `/app/config.yaml`): the
source copied there under a name of its own is a file, whatever its name."""


def plain_files(
    missing: Sequence[tuple[int, str]], instructions: Sequence[Instruction] = ()
) -> list[tuple[int, str]]:
    """Of the sources a context lacks outside a git checkout, those named as a file (`run.sh`,
    `docker/sample_workflow.json`: a suffix of letters, `_PLAIN_FILE`; or copied alone to a name of a
    folder of files, `COPY sudo-nopasswd /etc/sudoers.d/sudo-nopasswd`), not a folder (`src`, `data`)
    that a copy of some of the project's files may leave out with all it holds; not a file only a
    download gives (an installer, weights: `fetched_copies` tells those)."""
    alone = {
        i.start_line
        for i in instructions
        if len(words := list(i.exec_form or i.args.split())) == 2 and _FILE_HOME.search(words[1])
    }
    return [
        (at, path)
        for at, path in missing
        if not fetched(path)
        and (
            _PLAIN_FILE.match(posixpath.basename(path)) is not None
            or (at in alone and re.fullmatch(r"\w[\w.-]*", posixpath.basename(path)) is not None)
        )
    ]


def in_checkout(context: Path, top: Path) -> bool:
    """True when the folder of a git checkout (a `.git` folder, or a worktree's `.git` file) is at or
    above `context` within `top`: the files it does not hold (ignored ones aside) are not the project's,
    where a copy of some of its files may lack any."""
    return any(
        os.path.exists(folder / ".git")
        for folder in (context, *context.parents)
        if folder.is_relative_to(top)
    )


def _rooted(dockerfile: Path, context: Path, missing: Sequence[tuple[int, str]]) -> tuple[str, str] | None:
    """(what is wrong, confidence) when a COPY source the context does not hold starts with the path of
    the Dockerfile's own folder from a folder above it (`COPY docker/app/run.sh` in
    `docker/app/Dockerfile`): the Dockerfile is written for that folder as its context, whatever else a
    checkout holds (not when the context is that folder: the checkout lacks the file). `certain` when
    the rest of the path is a file next to the Dockerfile (`run.sh`), else (a folder path of two parts
    or more, or one part when the context is the Dockerfile's own folder: `COPY ./ide/vscode` in
    ide/Dockerfile built from ide/) `likely`."""
    folder = dockerfile.parent.parts
    found: list[tuple[bool, int, str, str]] = []
    for at, path in missing:
        parts = path.split("/")
        for size in range(min(len(parts), len(folder)) - 1, 0, -1):
            if tuple(parts[:size]) != folder[-size:] or Path(*folder[:-size]) == context:
                continue
            there = os.path.lexists(dockerfile.parent.joinpath(*parts[size:]))
            # (or the context is the Dockerfile's own folder, which cannot hold a folder of its own name)
            if there or size >= 2 or context == dockerfile.parent:
                found.append((there, at, path, "/".join(parts[:size])))
                break
    if not found:
        return None
    there, at, path, prefix = next((f for f in found if f[0]), found[0])
    said = (
        f"which cannot hold what it copies: {path} (line {at}) is written from the folder above "
        f"{prefix}/ (build there with -f {prefix}/{dockerfile.name})"
    )
    return said, CERTAIN if there else LIKELY


def indented_blocks(doc: Document) -> list[Fence]:
    """The indented code blocks of `doc` (read as paragraphs: every line indented by four spaces or a
    tab) as command blocks."""
    return [
        Fence("", [(n, t.strip()) for n, t in para.lines], para.section)
        for para in doc.paragraphs
        if para.lines and all(t.startswith(("    ", "\t")) for _, t in para.lines)
    ]


_BIND_MOUNT = re.compile(
    r"(?<![\w-])(?:-v|--volume)(?:[ \t]+|=)(?P<volume>[\"']?[^\s:\"'`]+[\"']?:[^\s\"'`]+)"
    r"|(?<![\w-])--mount(?:[ \t]+|=)(?P<mount>[\"']?[^\s\"'`]*(?<![\w-])(?:source|src)=[^\s\"'`]+)"
    r"|^[ \t]*-[ \t]+(?P<listed>[\"']?[.$~][^\s:\"'`]*[\"']?:/[^\s\"'`]*)",
    re.MULTILINE,
)
"""A bind mount in a README's text, both its sides: `-v ./tokens.yml:/app/tokens.yml`, `--volume=…`,
`--mount type=bind,source=$(pwd)/tokens.yml,target=…`, and a compose `volumes:` item
`- ./tokens.yml:/app/…`."""


def _unbound(match: re.Match[str]) -> str:
    """`match` of `_BIND_MOUNT` without the paths of the mount it holds."""
    group = next(g for g in ("volume", "mount", "listed") if match.group(g) is not None)
    start, end = match.span(group)
    text = match.group(0)
    return text[: start - match.start()] + text[end - match.start() :]


class MadeFiles:
    """The files the README lines that make one name: a command that writes a file (`wget`, `cp`,
    `mkdir`, `>`) or words that tell to (`download`, `copy`, `put`, `create` …). `before(path, line)`
    is True when a line above README `line` names `path` or its first folder (as a word of its own:
    `model.bin` in `wget …/model.bin`, `models` in `mkdir models/x`).

    Each line is read once, when the index is made: every word of a making line (a run of letters,
    digits, `_`, `.` and `-`) is stored with each part of it that ends before a `.` (`config`,
    `config.json` and `config.json.example` for `config.json.example`), at the first line that names it.
    A name with another character is looked for line by line (`_slowly`). The lines of `scripts` (the
    texts of scripts the README runs) are read as made before the README's first line."""

    _WORD = re.compile(r"[\w.-]+")
    _ASCII_WORD = re.compile(r"[A-Za-z0-9_.-]+")
    """A name written between words of a script without spaces (`将start.sh存放到package目录中`)."""
    _PLAIN = re.compile(r"[\w.-]+\Z")

    def __init__(self, lines: Sequence[str], scripts: Sequence[str] = ()) -> None:
        self._lines = lines
        self._text: str | None = None  # the README's lines joined, for `named`: made once, when asked
        self._written: tuple[dict[str, list[int]], list[int], list[str]] | None = None  # for `later`
        self.scripts = len(scripts)
        """How many scripts' texts were read (`scripts`: run before any line, each line of theirs is 0)."""
        self._before = [t for script in scripts for t in script.splitlines()]
        self._first: dict[str, int] = {}
        numbered = [*((0, t) for t in self._before), *enumerate(lines, 1)]
        for number, text in numbered:
            if not (MAKES_FILE_COMMAND.search(text) or MAKES_FILE.search(text)):
                continue
            words = self._WORD.findall(text)
            if not text.isascii():
                words += self._ASCII_WORD.findall(text)
            for word in words:
                ends = [i for i, char in enumerate(word) if char == "."] + [len(word)]
                for end in ends:
                    if end:
                        self._first.setdefault(word[:end], number)

    def named(self, path: str) -> bool:
        """True when a line of the README names the file of `path` (its name as a word of its own,
        anywhere: `The environment is managed via uv.lock`): a file the README knows the project has.
        Not the host side of a bind mount (`-v ./api_tokens.yml:/app/api_tokens.yml`, `--mount
        type=bind,source=…`, a compose `- ./tokens.yml:/app/tokens.yml`, `_BIND_MOUNT`, both its
        sides): that puts the reader's own file in the container at run time, which tells nothing of
        what the project holds for the build before it."""
        if self._text is None:
            self._text = _BIND_MOUNT.sub(_unbound, "\n".join(self._lines))
        name = posixpath.basename(path.rstrip("/"))  # (`data/` is the folder `data`)
        if not name:
            return False
        return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", self._text) is not None

    def before(self, path: str, line: int) -> bool:
        """True when a making line above README `line` names `path`, its first folder or its name."""
        names = {path.split("/", 1)[0], posixpath.basename(path)} - {""}
        if all(self._PLAIN.match(n) for n in names):  # (`path` itself holds its name: no need to look)
            return any(self._first.get(n, line) < line for n in names)
        return self._slowly(names | {path}, line)

    _WRITTEN = re.compile(
        r"(?:^|[ \t])(?:-o|-O|--output|--out|--output-document)(?:[ \t]+|=)[\"']?(?:\./)?([^\s\"';&|)]+)"
        r"|>[ \t]*[\"']?(?:\./)?([^\s\"';&|)]+)"
    )
    _COPYING = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:cp|mv|ln)[ \t]([^;&|#]*)")

    def _steps(self) -> tuple[dict[str, list[int]], list[int], list[str]]:
        """The README's lines in fenced blocks that may write a file, by each name they may write
        (`-o NAME`, `> NAME`, an operand of `cp`/`mv`/`ln` after the first), and its headings outside
        fences (lines, titles): read once, for `later`."""
        if self._written is not None:
            return self._written
        names: dict[str, list[int]] = {}
        numbers: list[int] = []
        titles: list[str] = []
        fenced = False
        for number, text in enumerate(self._lines, 1):
            if re.match(r"[ \t]{0,3}(?:```|~~~)", text):
                fenced = not fenced
                continue
            if not fenced:
                if (head := re.match(r"#{1,6}[ \t]+(.+?)[ \t#]*$", text)) is not None:
                    numbers.append(number)
                    titles.append(head.group(1))
                continue
            command = text.split(" #", 1)[0]
            found = {m.group(1) or m.group(2) for m in self._WRITTEN.finditer(command)}
            if (copying := self._COPYING.match(command)) is not None:
                found.update(w.strip("\"'").removeprefix("./") for w in copying.group(1).split()[1:])
            for name in found:
                names.setdefault(name, []).append(number)
        self._written = (names, numbers, titles)
        return self._written

    def later(self, path: str, line: int) -> tuple[int, str] | None:
        """(README line, the command) of the first command below README `line` that writes `path` by
        its name (`go build -o claracore .`, `curl -o model.bin …`, `cp x.example x`, `> x`), when the
        lines from the heading of `line`'s section down to it neither name `path` nor the section of
        that command (its heading's words, a link to it): a step the README puts after the build that
        needs its file, without telling to run it first. None otherwise. (The lines that may write a
        file are indexed once by name, `_steps`: a README of many builds is not read again for each.)"""
        key = path.removeprefix("./")
        names, numbers, titles = self._steps()
        candidates = names.get(key, [])
        if not candidates or candidates[-1] <= line:
            return None
        name = re.escape(key)
        end = r"[\"']?(?=[ \t;&|)]|$)"
        writes = re.compile(
            rf"(?:^|[ \t])(?:-o|-O|--output|--out|--output-document)(?:[ \t]+|=)[\"']?(?:\./)?{name}{end}"
            rf"|^[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:cp|mv|ln)[ \t][^;&|#]*[ \t][\"']?(?:\./)?{name}{end}"
            rf"|>[ \t]*[\"']?(?:\./)?{name}{end}"
        )
        for number in candidates[bisect.bisect_right(candidates, line) :]:
            text = self._lines[number - 1]
            if not writes.search(text.split(" #", 1)[0]):
                continue
            above = bisect.bisect_right(numbers, number)
            title = titles[above - 1] if above else ""
            here = bisect.bisect_left(numbers, line)
            start = numbers[here - 1] if here else 0
            said = "\n".join(self._lines[start : line - 1]).lower()
            anchor = re.sub(r"[^\w -]", "", title.lower()).replace(" ", "-")
            word = re.compile(rf"(?<![\w.-]){re.escape(posixpath.basename(path))}(?![\w-])", re.IGNORECASE)
            if word.search(said) or (len(title) > 3 and (title.lower() in said or f"#{anchor})" in said)):
                return None
            return number, text.strip()
        return None

    def _slowly(self, names: set[str], line: int) -> bool:
        for text in [*self._before, *self._lines[: line - 1]]:
            if not any(re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", text) for n in names):
                continue
            if MAKES_FILE_COMMAND.search(text) or MAKES_FILE.search(text):
                return True
        return False


def misnamed_links(
    source: Sequence[str], doc: Document, readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A link whose text names a Dockerfile (`` [`a_x64.Dockerfile`](a_x86_64.Dockerfile) ``) other
    than its target, when no file of that name exists next to the README or to the target: the text
    names a file that is not there. `source`: the README's lines (`source_lines`)."""
    for number in sorted({line for line, _ in doc.links}):
        for link in links(source[number - 1]):
            if link.target is None or "://" in link.target or link.image:
                continue
            target = urllib.parse.unquote(link.target.split("#", 1)[0])
            if not is_dockerfile_name(basename(target)):
                continue
            named = [n for n in files_named(link.text) if basename(n) not in ("Dockerfile", "Containerfile")]
            if len(named) != 1 or basename(named[0]) == basename(target):
                continue
            folder = posixpath.dirname(target)
            if os.path.exists(directory / named[0]) or os.path.exists(
                directory / folder / basename(named[0])
            ):
                continue
            yield Diagnostic(
                readme,
                number,
                f"README names {named[0]} in a link to {target}; {named[0]} does not exist",
                confidence=LIKELY,
            )


_PLAIN_NAME = re.compile(
    r"(?<![\w./:@-])(?:(?:Dockerfile|Containerfile)[.\-_][\w.+-]*[A-Za-z0-9]"
    r"|[A-Za-z0-9][\w.+-]*[.\-_](?:Dockerfile|dockerfile|Containerfile))(?![\w/@-]|[.:][^\s*])"
)
"""A Dockerfile's name as a word of its own (`Dockerfile.onnx.jetson`, `cuda.Dockerfile`,
`Dockerfile-slim`): the Dockerfile word with a suffix or a prefix, not part of a path, image or tag."""
_NOT_LISTED_HERE = re.compile(
    r"\b(?:removed|deleted|dropped|retired|no[ \t]+longer|repo(?:sitory|sitories)?|upstream|fork(?:ed)?)\b"
    r"|://|\]\(",
    re.IGNORECASE,
)
"""Words of a row or item whose Dockerfile names are not this folder's to have: gone on purpose
(`removed in 2.0`), another repository's (`from the upstream repository`), or a link (checked as one)."""
_INLINE_CODE = re.compile(r"`+[^`]*`+")


_CODE_PATH = re.compile(r"(?:\./)?[\w.+-]+(?:/[\w.+-]+)*")
"""A path written in code (`docker/Dockerfile.cuda`): no spaces, no placeholder or variable."""
_GENERIC_NAMES = frozenset({"dockerfile", "containerfile"})
"""The plain names, which prose uses for any Dockerfile (`Using the following short `Dockerfile``)."""
_ANOTHER_PROJECTS = r"(?i:\bupstream\w*|\w['\u2019]s)[ \t]+`+"
"""Words before a file name in code saying it is another project's: `upstream's `Dockerfile.310p``,
`vLLM's `Dockerfile.rocm``."""
_REPOSITORY_LINK = re.compile(
    r"\]\(https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/[\w.-]+/[\w.-]+?(?:\.git)?/?\)"
)
"""A link to a repository's front page (`[o/other](https://github.com/o/other)`), not to a file in it."""
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")


def _after_repository_link(lines: Sequence[tuple[int, str]], line: int, code: str) -> bool:
    """True when the sentence that names `code` (on README line `line` of a paragraph's `lines`) links
    to a repository's front page before it: `Inspired by [o/other](https://github.com/o/other)
    (`docker/Dockerfile.ci`)` names a file of that other repository. The sentence may start up to three
    lines above; a link in an earlier sentence does not count."""
    before = [text for number, text in lines if line - 3 <= number < line]  # bounded: linear in all
    here = next((text for number, text in lines if number == line), "")
    at = here.find(f"`{code}")
    text = " ".join([*before, here[: at if at >= 0 else len(here)]])
    sentence = _SENTENCE_END.split(text)[-1]
    return _REPOSITORY_LINK.search(sentence) is not None


_MAKES_DOCKERFILE = re.compile(
    r"\b(?:creat|generat|writ|add|renam|sav|cop(?:y|ie)|mak)\w*|\b(?:removed|deleted|dropped|replaced)\b",
    re.IGNORECASE,
)
"""Words of a line that makes (or says it took away) the Dockerfile it names: `Create a
`Dockerfile.dev``, `make generates `Dockerfile.gen``, `Dockerfile.old was removed`."""


_TARGET_COLUMN = re.compile(r"(?i:\b(?:sub)?targets?\b|\bmake\b|\brecipes?\b)")
"""The header of a table column whose cells name make targets (`Subtarget`, `Target`, `make …`)."""


def _target_cells(doc: Document) -> set[tuple[int, str]]:
    """(README line, code) of each bare name in code in a table column headed by a make target's word
    (`| Subtarget | Verifies |` then `` | `test-dockerfile` | `hadolint` clean | ``): a target of the
    project's Makefile, whatever its name looks like, not a file."""
    cells: set[tuple[int, str]] = set()
    for table in doc.tables:
        columns = [i for i, head in enumerate(table.header) if _TARGET_COLUMN.search(head)]
        for number, row in table.rows:
            for i in columns:
                if i < len(row):
                    cells.update((number, code.strip()) for _, _, code in code_spans(row[i]))
    return {(number, code) for number, code in cells if "/" not in code and "." not in code}


_NAMED_PLACEHOLDER = re.compile(r"(?:^|[._-])(?:[a-z0-9]+_)+name(?:$|[._-])", re.IGNORECASE)
"""A part of a file name that stands for a name the reader fills in: `image_name` in
`Dockerfile.image_name`, `MODEL_NAME` in `MODEL_NAME.Dockerfile` (a word, `_`, then `name`)."""


def dead_code_names(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    listed: Collection[int] = (),
    source: Sequence[str] = (),
) -> Iterator[Diagnostic]:
    """A Dockerfile path written in code in the prose, a table or a heading (`` as shown in
    `docker/Dockerfile.awsefa` ``) that exists neither from the README's folder, nor from a folder above
    it up to the repository root, nor anywhere in the repository by its name: the Dockerfile is gone or
    renamed (`certain` for a path with a folder, `likely` for a bare name). Not a placeholder (nor a
    name with a part such as `image_name`: `_NAMED_PLACEHOLDER`), not the reader's own file, not one a
    command of the README or the line itself makes, nor one in a section about older or planned images,
    nor one git ignores or inside a submodule, nor a make target in a table column headed by a target's
    word (`_target_cells`). A name in plain words (`_prose_dockerfile_names`) is `likely`, and not read on
    the `listed` lines (`unlisted_names` tells a stale name of a list with the one it most likely means),
    and only as the README's line in `source` writes it (a part set aside is blanked: `An      (x)`
    left of `An older one is in [x](x)` is no name in plain words).
    """
    made = made_names(doc) | in_commands(doc)
    root = project or repository_root(directory)
    top = (root or directory).resolve()
    # from the README's folder and the folders above it: up to the root, or four when none is known
    above = [p for p in directory.resolve().parents if p.is_relative_to(top)] if root else []
    bases = [directory, *(above if root else list(directory.resolve().parents)[:4])]
    said: dict[int, str] = {}
    seen: set[str] = set()
    known: list[Path] | None = None  # the repository's Dockerfiles, listed once when needed
    whole = ""  # the README, joined once the list is needed
    itself: dict[str, bool] = {}  # whether the README names a Dockerfile of the repository as itself
    texts: dict[int, str] | None = None  # the text of each line, read once when needed
    paragraphs: dict[int, Sequence[tuple[int, str]]] | None = None  # line → its paragraph's lines
    targets = _target_cells(doc)
    named = [(line, code, False) for line, code in code_paths(doc)]
    named += [(line, name, True) for line, name in _prose_dockerfile_names(doc) if line not in listed]
    for line, code, plain in named:
        path = code.removeprefix("./")
        name = basename(path)
        if not _CODE_PATH.fullmatch(code) or not is_dockerfile_name(name) or path in seen:
            continue
        if (line, code) in targets:
            continue  # a make target named like a Dockerfile (`test-dockerfile`)
        if path.startswith("-") or name.lower() in _GENERIC_NAMES and "/" not in path.strip("/"):
            continue  # an option (`--dockerfile`), or the word for any Dockerfile (`a short `Dockerfile``)
        if PLACEHOLDER.search(path) or _PLACEHOLDER_PATH.search(path) or name in made:
            continue
        if _NAMED_PLACEHOLDER.search(name):
            continue  # `Dockerfile.image_name`: the file of whichever image the reader picks
        if _users_own_file(path, doc, line, said) or NOT_CURRENT.search(heading_of(doc, line)):
            continue
        if any(os.path.exists(base / path) for base in bases):
            continue
        if any(in_submodule(base / path, directory) for base in bases) or build_ignored(path, bases):
            continue
        if texts is None:
            texts = line_texts(doc)
        text = said.get(line) or texts.get(line, "")
        if plain and 0 < line <= len(source):
            text = source[line - 1]
            if code not in _plain_words(text):
                continue
        theirs = _ANOTHER_PROJECTS.replace("`+", "") if plain else _ANOTHER_PROJECTS
        if _MAKES_DOCKERFILE.search(text) or re.search(theirs + re.escape(code), text):
            continue
        if plain and _NOT_LISTED_HERE.search(text):
            continue  # `vLLM's upstream Dockerfile.rocm`, `Dockerfile.old was removed`, a link on the line
        if paragraphs is None:
            paragraphs = {n: para.lines for para in doc.paragraphs for n, _ in para.lines}
        if _after_repository_link(paragraphs.get(line, ()), line, code):
            continue  # `Inspired by [o/other](https://github.com/o/other) (`docker/Dockerfile.ci`)`
        if known is None:
            known = sorted(p.absolute() for p in dockerfiles_in(top, 4, pass_unreadable=True))
            whole = "\n".join(source)

        if _known_dockerfile(path, known, audited):
            continue  # that file is in the repository: read from a folder the README does not say
        seen.add(path)
        folder = posixpath.basename(posixpath.dirname(path))
        near = [p for p in known if p.parent.name == folder or p.parent == directory.absolute()]
        # (a Dockerfile the README names as itself elsewhere is not the one this name was meant for:
        # `Dockerfile_ROSnoetic` beside a line naming `Dockerfile_ROS2`)
        near = [p for p in near if not _named_in(p.name, whole, itself)]
        close = difflib.get_close_matches(name, [p.name for p in near], n=1, cutoff=0.7)
        meant = next((p for p in near if close and p.name == close[0]), None)
        if meant is None and len(same := [p for p in known if p.name == name]) == 1:
            meant = same[0]  # `.docker/app/Dockerfile` for the one `docker/app_gpu/Dockerfile`
        # the hint in the README's own frame: from the folder its path starts in (the root for `docker/…`)
        frame = next((b for b in bases if os.path.isdir(b / posixpath.dirname(path))), directory)
        hint = f"; did you mean {os.path.relpath(meant, frame.absolute())}?" if meant else ""
        yield Diagnostic(
            readme,
            line,
            f"README names {path}, which does not exist (the Dockerfile is gone or moved{hint})",
            confidence=CERTAIN if "/" in path and root and not plain else LIKELY,
        )


def _named_in(name: str, text: str, memo: dict[str, bool]) -> bool:
    """True when `text` names the file `name` as a word of its own (each name read once: `memo`)."""
    if name not in memo:
        memo[name] = name in text and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text) is not None
    return memo[name]


def _known_dockerfile(path: str, known: Sequence[Path], audited: Sequence[str]) -> bool:
    """True when a Dockerfile of the repository (`known`, or an audited one) may be the one `path` names:
    one of its name for a bare name (read from a folder the README does not say), one whose path ends
    with `path`'s folders for a path with a folder (`docker/Dockerfile` from a README in `docs/`), its
    leading `../` aside. `.docker/llama-cpp/Dockerfile` is none of `docker/llama_cpp_gpu/Dockerfile`."""
    name = basename(path)
    parts = [p for p in path.split("/") if p not in ("", ".", "..")]
    if len(parts) < 2:
        return any(p.name == name for p in known) or any(basename(a) == name for a in audited)
    end = "/" + "/".join(parts)
    paths = [p.as_posix() for p in known] + [Path(a).absolute().as_posix() for a in audited]
    return any(("/" + p).endswith(end) for p in paths)


_PROSE_NAME = re.compile(
    r"(?<![\w./:@`-])(?:(?:Dockerfile|Containerfile)[._][\w.+-]*[A-Za-z0-9]"
    r"|[A-Za-z0-9][\w.+-]*[._](?:Dockerfile|dockerfile|Containerfile))(?![\w/@`-]|[.:][^\s*])"
)
"""A Dockerfile's name in plain words (`via CUDA (Dockerfile.gpu)`, `cuda.Dockerfile`): as `_PLAIN_NAME`
but with `.` or `_`, not `-` (`Dockerfile-based`, `Dockerfile-first` are English compounds)."""


def _prose_dockerfile_names(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, name) of each Dockerfile named in plain words, outside code and links, in the prose
    or a heading: `- **GPU support** via CUDA (Dockerfile.gpu)`. `dead_code_names` checks them as names
    in code, less surely (`likely`). Not a table row nor a list item that starts with the name
    (`- Dockerfile.trt.jetson.4.6: the older board`): that is a list of files, which `unlisted_names`
    reads only when it names a Dockerfile of this folder (else it lists another folder's). Nor a top
    heading that is the name alone (`# IPEX_Dockerfile`, the README's first): the README's title, the
    repository's name."""
    first = doc.headings[0][0] if doc.headings else 0
    titles = [
        (n, t)
        for n, t in doc.headings
        if not (n == first and doc.levels.get(n) == 1 and _TITLE_NAME.fullmatch(t))
    ]
    for number, text in [*(line for para in doc.paragraphs for line in para.lines), *titles]:
        if "ockerfile" in text or "ontainerfile" in text:
            head = _ITEM_HEAD.match(text)
            listed = _INLINE_CODE.sub(" ", text[head.end() :]).lstrip("*_ ") if head else ""
            yield from ((number, name) for name in _plain_words(text) if not listed.startswith(name))


_TITLE_NAME = re.compile(r"[ \t#]*[\w.-]+[ \t#]*")
"""A heading that is one name and nothing else: at the top of a README, the repository's name."""
_ITEM_HEAD = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+")
"""A list item's marker, before the text that may name a file of a list of files."""


def _plain_words(text: str) -> list[str]:
    """The Dockerfile names `text` writes in plain words (`_PROSE_NAME`), outside code."""
    words = _INLINE_CODE.sub(" ", text).replace("*", " ")
    return [name for name in _PROSE_NAME.findall(words) if is_dockerfile_name(name)]


def _plain_names(text: str) -> list[str]:
    """The Dockerfile names a row or an item writes in plain words or bold (not in code, not linked)."""
    words = _INLINE_CODE.sub(" ", text).replace("*", " ")
    return [m.group() for m in _PLAIN_NAME.finditer(words) if is_dockerfile_name(m.group())]


def unlisted_names(
    doc: Document, readme: str, directory: Path, siblings: Sequence[str]
) -> Iterator[Diagnostic]:
    """A Dockerfile named in plain words in a table or a list that names this folder's Dockerfiles (at
    least one other name there exists next to the README), when no file of that name is there: the
    list is stale (`| Dockerfile.jetson.5.1.0 |` with `Dockerfile.jetson.5.1.1` next to it), with the
    closest name there is. Not under a history heading (not read), not in a row or item about another
    repository or saying the file was removed (`_NOT_LISTED_HERE`), not in a heading or sentence."""
    groups: list[tuple[list[tuple[int, str]], str]] = []
    for table in doc.tables:
        if not NOT_CURRENT.search(table.context):
            groups.append(([(line, " ".join(cells)) for line, cells in table.rows], CERTAIN))
    for block in lists(doc):
        if not NOT_CURRENT.search(block.intro) and not NOT_CURRENT.search(block.heading):
            groups.append((block.items, LIKELY))
    names = [s for s in siblings if "/" not in s]
    for rows, confidence in groups:
        named = [
            (line, name)
            for line, text in rows
            if not _NOT_LISTED_HERE.search(text)
            for name in _plain_names(text)
        ]
        there = {name for _, name in named if os.path.exists(directory / name)}
        if not there:
            continue
        for line, name in named:
            if os.path.exists(directory / name) or any(basename(s) == name for s in siblings):
                continue  # here, or in a folder just below the README's
            close = difflib.get_close_matches(name, [n for n in names if n not in there], n=1, cutoff=0.8)
            hint = f" (did you mean {close[0]}?)" if close else ""
            yield Diagnostic(
                readme,
                line,
                f"README lists {name}, which does not exist next to it{hint}",
                confidence=confidence,
            )


_SCRIPT = r"(?:\.{1,2}/)+[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash|zsh|py)"
"""A script run by its path from the current folder (`./build.sh`, `../tools/run.py`)."""
RUN_SCRIPT = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:(?:sudo|time|nohup|exec)[ \t]+)?"
    r"(?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|]*[ \t]+)*"
    r"(?:(?:bash|sh|zsh|source|\.)[ \t]+)?"
    rf"({_SCRIPT}|(?:(?<=sh )|(?<=source )|(?<=\. ))[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash|zsh))(?=$|[ \t;&|)])"
)
"""A script in the place of the command (`./build.sh -c 11.0`, `$ sudo ./pull.sh`, `cd x && bash run.sh`,
`bash run_nogpu.bash`, `source env/setup.sh`, `. setup.sh`); not an argument (`docker run img
./entrypoint.sh` runs it in the container)."""
SET_IN_FRONT = patterns.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*+)=(\"[^\"]*\"|'[^']*'|[^\s;&|]*)")
"""A variable set in front of a command (`GPU=true`, `TAG="a b"`): its name, its value as written. A
name is tried only where one starts: from each letter of a long word with no `=` the rest of the word
was read again (n²)."""


def set_for_scripts(doc: Document) -> frozenset[str]:
    """The names a README's command blocks set in front of a script they run (`DEPLOY_MODE=chat TAG=x
    bash docker/build.sh`, a command continued over lines with `\\`), wherever the script is: the
    variables the script reads, its interface."""
    found: set[str] = set()
    for fence in doc.fences:
        for command in fence_commands(fence):
            step = without_prompt(joined(command))
            for match in RUN_SCRIPT.finditer(step):
                found.update(m.group(1) for m in SET_IN_FRONT.finditer(step[match.start() : match.start(1)]))
    return frozenset(found)


ELSEWHERE = re.compile(
    r"\b(?:docker|podman|nerdctl|nvidia-docker)(?:[ \t]+compose|-compose)?[ \t]+(?:container[ \t]+)?"
    r"(?:run|exec|attach|start)\b|\b(?:ssh|kubectl|enroot|srun|vagrant|chroot|su)\b"
    r"|\b(?:singularity|apptainer)\b(?![ \t]+(?:build|pull|push|inspect|verify|sign|key|remote|cache)\b)"
)
"""A command after which the next lines of a block may run somewhere else (a container, another host);
not a Singularity or Apptainer `build` or `pull`, which writes an image file and returns."""
FILES_APPEAR = re.compile(
    r"\bgit[ \t]+(?:clone|checkout|switch|pull|submodule|worktree|apply)\b"
    r"|\b(?:tar|unzip|7z|make|cmake|bazel|ninja)\b"
)
"""Commands after which any file may be there: a checkout, an archive unpacked, a build."""
_MAKE = re.compile(r"^[ \t]*(?:sudo[ \t]+)?make(?:[ \t]|$)")
_MAKE_ELSEWHERE = re.compile(r"(?:^|[ \t])(?:-C|-f|--directory|--file|--makefile)(?:[ \t=]|\S)")
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")


def makes_nothing(step: str, folders: Sequence[Path]) -> bool:
    """True when `step` is a plain `make …` (no `-C`, `-f`) run where no folder of `folders` (the
    README's, the repository's root) holds a makefile: it fails, and makes no file (`make up` of a
    project whose Makefile is in `docker/`)."""
    if not _MAKE.match(step) or _MAKE_ELSEWHERE.search(step) or FILES_APPEAR.search(_MAKE.sub("", step, 1)):
        return False
    return not any(os.path.isfile(folder / name) for folder in folders for name in _MAKEFILES)


MAKES_FILE = re.compile(
    r"(?<![./-])\b(?:wget|curl|cp|mv|ln|touch|tee|gdown|scp|rsync|install|cat|echo|printf)\b(?![./-]\w)|>"
    r"|(?<![./-])\b(?:creat|sav|writ|download|generat|fetch|cop(?:y|ie)|past|put|add)\w*(?![\w/-]|\.\w)"
    r"|\bplac(?:e[sd]?|ing)\b"
    r"|存放|放到|放入|放置|放在|拷贝|复制|下载|创建|新建|生成|保存",
    re.IGNORECASE,
)
"""Words of a README line that makes the file it names (`wget …/run.sh`, `Save this as run.sh:`,
`Place start.sh in package/`, `将start.sh存放到package目录中`); not such a word inside a file's name or
path (`python scripts/download_models.py`, `bash install.sh`): that line runs a file, it makes none."""


def inside(path: Path, project: Path) -> Path | None:
    """`path` (absolute) with `..` taken off its text as the shell's `cd` does, then its symlinks
    resolved, when both are in the folder `project` (resolved); else None. Nothing past the project's
    top (`cd ../../..`) or past a link leading out of it is looked at, and an unreadable, too long or
    NUL-holding path is no place to look either."""
    try:
        lexical = Path(os.path.normpath(path))
        if not lexical.is_relative_to(project):
            return None
        real = Path(os.path.realpath(lexical))
    except (OSError, ValueError):
        return None
    return real if real.is_relative_to(project) else None


def run_folders(directory: Path, audited: Sequence[str], project: Path) -> list[Path]:
    """The folders a README's commands may be run from, those in `project`: the README's own, those
    above it (the repository's root), and those of the audited Dockerfiles when they are found from
    here."""
    bases = [directory, *list(directory.resolve().parents)[:4]]
    # as given: from where docgen runs; each once (a compose file of many services builds one Dockerfile)
    bases += [Path(p).parent for p in dict.fromkeys(audited) if os.path.isfile(p)]
    found = (inside(base.absolute(), project) for base in bases)
    return list(dict.fromkeys(base for base in found if base is not None))


def root_cd(
    bases: Sequence[Path], project: Path, roots: frozenset[str], reached: set[Path] | None = None
) -> Callable[[int, str, Fence], list[Path] | None]:
    """A `Walk.recover` following a `cd` into a variable that is the repository's root (`cd
    $ROOT/docker`, `root_vars.from_root`) from the first of `bases` (the README's folder) and those of
    them above it; the folders it leads to are added to `reached`."""
    tops = [base for base in bases if bases and (base == bases[0] or bases[0].is_relative_to(base))]

    def recover(line: int, step: str, fence: Fence) -> list[Path] | None:
        target = from_root(cd_target(step) or "", roots)
        if target is None:
            return None
        moved = (inside(base / target, project) for base in tops)
        found = list(dict.fromkeys(f for f in moved if f is not None and os.path.isdir(f)))
        if reached is not None:
            reached.update(found)
        return found or None

    return recover


def _scripts_run(
    fences: Sequence[Fence],
    bases: list[Path],
    project: Path,
    roots: frozenset[str] = frozenset(),
    rooted: set[Path] | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[tuple[int, str, list[Path]]]:
    """(README line, path, where it would be from each folder the commands may run in) of each script
    the command blocks run from the current folder, read top to bottom as the reader follows them: a
    `cd` moves every later block too. Reading stops for good at a `cd` to a folder not found (`cd $DIR`,
    the folder of a `git clone`, one outside `project`) or after a command that makes any file appear
    (`git clone`, `tar x`, `make`), and for the rest of a block after a command that may run its next
    lines elsewhere (`docker run -it`, `ssh`). Folders are kept resolved, so a chain of `cd`s does not
    make a longer path at each step. A `cd` into a variable of `roots` (the repository's root: `cd
    $ROOT/docker`) is followed from `bases`, and the folders it leads to are added to `rooted`. So is
    a clone of this very repository (`cloned` tells its folder and the repository's root, `git clone
    …/app.git` then `cd app`): reading goes on after it, the `cd` into its folder enters the root."""
    walk = Walk(bases, project, home=True)
    walk.recover = root_cd(bases, project, roots, rooted)
    at: int | None = None
    quote: str | None = None  # the quote left open by the steps of README line `at` so far
    passed = False  # that quote opened in the arguments of a script run: what follows is one of them
    for line, step in walk.steps(fences, joined=False):
        if line != at:
            at, quote, passed = line, None, False
        quote, in_argument = quote_after(step, quote), passed
        if in_argument:
            # `./docker/build.sh ci_gpu bash -c "cd build && cmake .."`: the `cmake` is an argument of the
            # script (run where it runs it, often a container), not a command of the README's shell
            passed = quote is not None
            continue
        own = cloned(line, step) if cloned is not None else None
        if own is not None:  # the checkout the README is in: its folder is the root, where reading goes on
            walk.aliases[own[0]] = [own[1]]
            if rooted is not None:
                rooted.add(own[1])
            continue
        head = step
        for match in [*RUN_SCRIPT.finditer(step), *_BARE_RUN.finditer(step)]:
            path = match.group(1)
            if match.start() == 0:
                head = step[: match.end(1)]  # what follows the script are its arguments
            where = (inside((f / path).parent, project) for f in walk.folders)
            places = [w / posixpath.basename(path) for w in where if w is not None]
            if places:  # (none: it would be outside the project, which is not looked at)
                yield line, path, list(dict.fromkeys(places))
        passed = quote is not None and head != step
        if FILES_APPEAR.search(head) and not makes_nothing(head, walk.folders):
            return
        if ELSEWHERE.search(head):
            walk.skip_block()  # its next lines may run elsewhere: the rest of this block is not read


def quote_after(text: str, quote: str | None) -> str | None:
    """The quote (`"` or `'`) still open at the end of shell `text` when `quote` is open at its start;
    None when none is. A backslash escapes the next character outside single quotes."""
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char in "\"'":
            quote = char
        elif char == quote:
            quote = None
    return quote


_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".py")
_BARE_RUN = re.compile(r"^[ \t]*(?:sudo[ \t]+)?(?:bash|sh)[ ]+(\w[\w-]*(?:/\w[\w-]*)*)[ \t]*$")
"""A script a command runs by `bash` or `sh` and a name with no extension and no argument (`bash image`,
`sh scripts/setup`): the shell reads that file, so it must be there like `bash image.sh`."""


def _is_script(place: Path) -> bool:
    """True when there is a file (or a link, not followed) at `place`."""
    return os.path.islink(place) or os.path.isfile(place)


def _scripts_next_to(places: Sequence[Path]) -> list[str]:
    """The scripts in the folders of `places` (`docker/` for `./docker/build.sh`)."""
    found: list[str] = []
    for folder in dict.fromkeys(place.parent for place in places):
        try:
            names = sorted(entry.name for entry in os.scandir(folder))
        except (OSError, ValueError):
            continue  # not a folder, or one that cannot be read
        found += [n for n in names if n.endswith(_SCRIPT_SUFFIXES) and _is_script(folder / n)]
    return list(dict.fromkeys(found))


def _close_script(path: str, scripts: Sequence[str]) -> str | None:
    """The script of `scripts` whose name is closest to the one `path` names, when one is close
    (`build_image.sh` for `./build.sh`), or the one script whose name ends with it after a `_`, `-` or
    `.`, or with which it ends (`docker_run.sh` for `jetson_docker_run.sh`): it was renamed."""
    name = posixpath.basename(path)
    ends = [s for s in scripts if s != name and (_ends_with(s, name) or _ends_with(name, s))]
    if len(ends) == 1:
        return ends[0]
    close = difflib.get_close_matches(name, scripts, n=1, cutoff=0.7)
    return close[0] if close else None


def _ends_with(name: str, end: str) -> bool:
    """True when the file name `name` is `end` with a prefix joined by `_`, `-` or `.`."""
    return len(name) > len(end) and name.endswith(end) and name[-len(end) - 1] in "_-."


def _beside(path: str, places: Sequence[Path]) -> str | None:
    """The file name of `path` (`docker/build.sh`) when its folder is nowhere the commands may run and a
    script of that name is in one of those folders itself (`build.sh` next to the README): the folder
    named is a slip."""
    parts = PurePosixPath(re.sub(r"^(?:\./)+", "", path)).parts
    if len(parts) < 2 or ".." in parts or any(os.path.isdir(place.parent) for place in places):
        return None
    for place in places:
        if _is_script(place.parents[len(parts) - 1] / parts[-1]):
            return parts[-1]
    return None


def _joined_folder(path: str, places: Sequence[Path]) -> str | None:
    """The path of a script that `path`'s name names with its folder joined to the file by a `.`, `_`
    or `-` in place of the `/` (`docker.start.sh` for `docker/start.sh`), when one of `places`' folders
    holds that folder and script: the name is a slip."""
    name = posixpath.basename(path)
    stem = name.rsplit(".", 1)[0]
    folder = posixpath.dirname(path)
    for at, char in enumerate(stem):
        if char not in "._-" or at == 0 or at == len(stem) - 1:
            continue
        meant = posixpath.join(folder, name[:at], name[at + 1 :])
        for place in places:
            if _is_script(place.parent / name[:at] / name[at + 1 :]):
                return meant.removeprefix("./")
    return None


def builds_here(directory: Path) -> bool:
    """True when the compose file `docker compose` reads in the README's folder builds an image from
    that folder (`build: .`, `context: .`): the folder the image is built from, where the README's
    commands run (a compose file's paths are from its folder)."""
    files = default_files(directory)
    text = text_or_none(files[0]) if files else None
    if text is None:
        return False
    try:
        targets = compose_targets(text.encode(), str(files[0]))
    except DocgenError:  # (a file compose refuses, or no PyYAML)
        return False
    return any(not posixpath.dirname(posixpath.normpath(t.dockerfile)) for t in targets)


_PROSE_MOVE = re.compile(
    r"\b(?:move|moving|go|going|change|switch|navigate|step|get)[ \t]+(?:back[ \t]+)?"
    r"(?:(?:in)?to|inside)[ \t]+(?:the[ \t]+)?`?([\w.-]+(?:/[\w.-]+)*)/?`?"
    r"(?=[ \t]+(?:folder|directory|dir)\b|[`\s,.;:]|$)",
    re.IGNORECASE,
)
"""A sentence moving the reader into a folder (`move into the [serve](./serve/) directory and run`,
`go to tools/`), read with links as their text."""


def prose_moves(lines: Sequence[str]) -> list[str]:
    """The folders, as written (`serve`, `./tools/serve`), that the prose `lines` tell the reader to move
    into: the command blocks after such a sentence, down to the next heading, run there."""
    return [
        match.group(1).removeprefix("./")
        for text in lines
        for match in _PROSE_MOVE.finditer(without_links(text))
        if match.group(1).strip("./")
    ]


def moved_to_script(
    doc: Document, source: Sequence[str], line: int, path: str, folders: Sequence[Path]
) -> bool:
    """True when a sentence of the section of README line `line`, above it, moves the reader into a
    folder (`prose_moves`) that holds the script `path`, from one of the folders `folders` the commands
    may run in."""
    heading = max((at for at, _ in doc.headings if at < line), default=0)
    moves = prose_moves(source[heading : line - 1])
    return any(os.path.isfile(Path(folder, moved, path)) for moved in moves for folder in folders)


def missing_scripts(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    audited: Sequence[str],
    readme: str,
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A script a command block runs from the current folder (`./build.sh`) that exists neither in the
    README's folder (or the one its `cd` lines lead to), nor above it (commands run from the
    repository's root), nor next to an audited Dockerfile, while another script the README runs is
    found in the folder it would be in (the commands are run there: it was renamed or removed), or a
    script of a close name is (`build_image.sh`: renamed); with neither, the README more likely
    follows another layout or a fuller checkout. Nor one that may be in a git submodule not fetched
    (`paths.Submodules`). And no line of the
    README makes it (`wget …/build.sh`, `Save this as build.sh`). One finding a file, at the first line
    that runs it, naming the others (inline code `./build.sh` in prose too). The README's folder is one
    the commands run in when its compose file builds the image from it (`builds_here`), but for the
    blocks the container runs (`container_blocks.container_lines`). Only folders in `project`
    (by default the README's folder and the four above it) are looked at."""
    top = project_top(directory, project)
    rooted: set[Path] = set()
    roots = root_variables("\n".join(source))
    runs = list(_scripts_run(doc.fences, run_folders(directory, audited, top), top, roots, rooted, cloned))
    # The folders the README's commands are confirmed to run in: where a script they run is, and
    # those a `cd $ROOT/…` or into a clone of this repository leads to, where the README says the
    # repository's root is (and, below those, a folder of the path that holds scripts of its own).
    confirmed = {place.parent for _, _, places in runs for place in places if _is_script(place)} | rooted
    # the folder whose compose file builds the image, where it is built: its scripts are looked for
    # there, and the runs in the container (`./run.sh` the image copies to its WORKDIR) are the image's
    home = inside(directory.absolute(), top) if builds_here(directory) else None
    container = container_lines(doc) if home is not None else set()
    missing: dict[str, tuple[list[int], list[str]]] = {}
    nowhere: set[str] = set()
    listed: tuple[frozenset[str] | None] | None = None  # the project's file names, listed once when needed
    submodules = Submodules(doc)
    for line, path, places in runs:
        if any(_is_script(place) for place in places) or any(submodules.holds(p, directory) for p in places):
            continue  # (a script of a submodule not fetched may be there once it is)
        if line in container:
            continue  # (a path of the image: the container's WORKDIR rules read it)
        if moved_to_script(doc, source, line, path, [place.parent for place in places]):
            continue  # (`move into the serve directory`: the section's steps run there)
        there = [place for place in places if place.parent in confirmed or _scripts_below(place, rooted)]
        if not there and home is not None:
            there = [place for place in places if place.parent == home]
        renamed = _close_script(path, _scripts_next_to(places)) or _beside(path, places)
        renamed = renamed or _joined_folder(path, places)
        if there or renamed:
            others = [renamed] if renamed else _scripts_next_to(there)
            missing.setdefault(path, ([], others))[0].append(line)
        elif project is not None and not _PLACEHOLDER_PATH.search(path.lstrip("./")):
            if listed is None:  # read once, when a script is first found nowhere near
                listed = (repository_names(top) if _exported(doc, directory, top) else None,)
            if not runs_nowhere(path, listed[0]):
                continue
            missing.setdefault(path, ([], []))[0].append(line)
            nowhere.add(path)
    for path, (lines, others) in missing.items():
        name = posixpath.basename(path)
        bare = path.lstrip("./")
        mentions = [i + 1 for i, text in enumerate(source) if name in text]
        if any(makes(source[i - 1], name) for i in mentions):
            continue
        seen = set(lines)
        for number in mentions:
            for _, _, content in code_spans(source[number - 1]):
                first = content.strip().split(" ", 1)[0]
                if first.lstrip("./") == bare or first == path:
                    seen.add(number)
        at, *more = sorted(seen)
        also = f"; also run at line{'s' if len(more) > 1 else ''} {', '.join(map(str, more))}" if more else ""
        if path in nowhere:
            yield Diagnostic(
                readme,
                at,
                f"README runs {re.sub(r'^(?:[.]/)+', '', path)}, which does not exist in the "
                f"repository{also}",
                confidence=LIKELY,
            )
            continue
        joined = len(others) == 1 and "/" in others[0]  # (`_joined_folder`: the path meant)
        close = others[0] if joined else _close_script(path, others)
        hint = f"did you mean {close}?" if close else f"the scripts there: {', '.join(others[:5])}"
        hint = f" ({hint})" if close or others else ""  # (a clone of this checkout, with no script at all)
        yield Diagnostic(
            readme,
            at,
            f"README runs {path}, which does not exist next to it or in a folder above it{hint}{also}",
            confidence=CERTAIN,
        )


def _exported(doc: Document, directory: Path, top: Path) -> bool:
    """True when the README is outside a git checkout (`setup_files` reads a checkout's missing scripts)
    but read against the whole project at `top`: a path with a folder that it names in code in its
    prose (`train-0/train.sh`) is a file here, from the README's folder or `top`. Else a README whose
    scripts are all missing follows another layout, or the copy is partial."""
    if any(os.path.exists(folder / ".git") for folder in (directory.resolve(), *directory.resolve().parents)):
        return False
    for _, code in code_paths(doc):
        path = code.removeprefix("./")
        if "/" not in path.strip("/") or not re.fullmatch(r"[\w.+-]+(?:/[\w.+-]+)+", path):
            continue
        if any(
            (found := inside(base / path, top)) is not None and os.path.isfile(found)
            for base in (directory.resolve(), top)
        ):
            return True
    return False


_LISTED_MOST = 20000
"""Files of a repository listed to tell that a script is nowhere in it: past these, it is not told."""
_NOT_LISTED = frozenset({"node_modules", "__pycache__", "site-packages"})


Walked = tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
"""(folder, its folders' names, its files' names) of each folder of a walk (`repository_files`)."""


@per_audit(maxsize=4)
def repository_files(top: Path) -> Walked | None:
    """(folder, its folders' names, its files' names) of each folder of the repository at `top`
    (resolved), as `os.walk` goes, its version control, caches and links to folders left out; None
    when it holds more than `_LISTED_MOST` files or cannot be listed. Walked once an audit, for
    `repository_names` and a rule that reads the files after it."""
    walked = []
    count = 0
    try:
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = [
                d
                for d in subfolders
                if d not in _NOT_LISTED
                and d not in (".git", ".hg", ".svn", ".venv", ".tox")
                and not os.path.islink(os.path.join(folder, d))
            ]
            count += len(files)
            if count > _LISTED_MOST:
                return None
            walked.append((folder, tuple(subfolders), tuple(files)))
    except (OSError, ValueError):
        return None
    return tuple(walked)


def repository_names(top: Path, folders: bool = False) -> frozenset[str] | None:
    """The names of the files of the repository at `top` (`repository_files`; with `folders`, its
    folders' names too); None when it holds more than `_LISTED_MOST` or cannot be listed."""
    walked = repository_files(top)
    if walked is None:
        return None
    return frozenset(
        name for _, subfolders, files in walked for name in (*files, *(subfolders if folders else ()))
    )


def runs_nowhere(path: str, names: frozenset[str] | None) -> bool:
    """True when no file of the repository (its file `names`) has the name of the script `path` runs
    (`scripts/train_docker.sh`), nor one a slip away (`build_docker.py` for `build-docker.py`): the
    README runs a script the repository never had or no longer has."""
    if not names:
        return False
    name = posixpath.basename(path)
    squashed, scripts = _name_keys(names)
    if _squash(name) in squashed:
        return False
    if difflib.get_close_matches(name, scripts, n=1, cutoff=0.8):
        return False
    return True


def _squash(name: str) -> str:
    """`name` in lower case without its `-`, `_` and `.`: `build_docker.py` and `Build-Docker.py` are one."""
    return re.sub(r"[-_.]", "", name.lower())


@functools.lru_cache(maxsize=4)
def _name_keys(names: frozenset[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The squashed `names` (`_squash`) and the names of scripts among them, made once for a repository's
    names rather than once for each script the README runs."""
    return frozenset(_squash(n) for n in names), tuple(n for n in names if n.endswith(_SCRIPT_SUFFIXES))


def _scripts_below(place: Path, rooted: set[Path]) -> bool:
    """True when the folder of `place` (`scripts/` of `./scripts/find.sh`) is below a folder of `rooted`
    (the repository's root, where the README says its commands run) and holds scripts: the path was
    read as the README means it, and the script is gone from where it was."""
    folder = place.parent
    return any(folder.is_relative_to(r) for r in rooted) and bool(_scripts_next_to([place]))


def makes(text: str, name: str) -> bool:
    """True when the README line `text` makes the script `name` (`wget …/run.sh`, `Save this as run.sh`);
    not one taking something from it (`Paste the paths from find.sh into config.yaml`, `the output of
    run.sh`): the script is there already."""
    if re.search(rf"\b(?:from|of)[ \t]+`*[\w./-]*{re.escape(name)}(?![\w.-])", text):
        return False
    return bool(MAKES_FILE.search(without_runs(text, name)))


def without_runs(text: str, name: str) -> str:
    """`text` with what only runs or names the script `name` taken out (`./build.sh -h`, `bash build.sh`),
    so that what is left tells whether the line makes it. The path is read from its first character
    only: from each of a long word's characters, it was read to the word's end (n² for n characters)."""
    return re.sub(rf"(?:(?:bash|sh)[ \t]+)?(?<![\w./-])[\w./-]*{re.escape(name)}", " ", text)


# --------------------------------------------------------------------------------------------------
# What a Dockerfile reads from its copy of the whole context

_INSTALL_STEP = re.compile(
    r"^[ \t]*(?:python[0-9.]*[ \t]+-m[ \t]+)?pip[0-9.]*[ \t]+install\b(?P<rest>[^\n]*)$"
)
"""A `pip install` step (`pip3 install`, `python3 -m pip install`)."""
_REQUIREMENT = re.compile(r"(?:^|[ \t])(?:-r|--requirement)(?:[ \t]+|=)[\"']?([\w./-]+)")
_PROJECT = re.compile(
    r"(?:^|[ \t])(?:-e[ \t]+|--editable[ \t]+|--editable=)?[\"']?\.(?:\[[\w,.-]*\])?[\"']?(?=[ \t]|$)"
)
"""The current folder as the project to install (`.`, `-e .`, `".[dev]"`)."""
PROJECT_FILES = ("setup.py", "pyproject.toml", "setup.cfg")
_MAKES_FILES = re.compile(
    r"\bgit[ \t]+clone\b|\bwget\b|\bcurl\b|\bcp\b|\bmv\b|\btar\b|\bunzip\b|\btouch\b|\bln\b|>|\btee\b|\bsed\b"
    r"|\bmim\b|\bgit\b"
)
"""A step that may make or change files (the check stops in that stage)."""
_PACKAGES = re.compile(r"[ \t]*(?:sudo[ \t]+)?(?:apt-get|apt|yum|dnf|microdnf|apk|zypper)[ \t]")
"""A system package manager's step (`apt-get install -y git unzip`): the packages it names are no files
it makes in the copied folder."""


def _container_path(path: str, workdir: str | None) -> str | None:
    """`path` of the container, absolute, read from `workdir`; None when it cannot be told."""
    if "$" in path:
        return None
    if path.startswith("/"):
        return posixpath.normpath(path)
    return posixpath.normpath(posixpath.join(workdir, path)) if workdir is not None else None


def context_installs(instructions: Sequence[Instruction], context: Path) -> list[tuple[int, str]]:
    """(Dockerfile line, file) of each file a `pip install` reads from the copy of the whole context
    (`COPY . /app` and `WORKDIR /app`, or `WORKDIR /app` then `COPY . .`), run in that folder, that the
    context does not hold: `-r requirements.txt`, and for `pip install .` / `-e .` a project file
    (`setup.py or pyproject.toml`). A stage is read until a step that may make files (`git clone`,
    `wget`, `cp` …, a `cd`) or another COPY into that folder."""
    return context_reads(instructions, context)[0]


def context_scripts(instructions: Sequence[Instruction], context: Path) -> list[tuple[int, str]]:
    """(Dockerfile line, path in the context) of each script a RUN runs by its path in the copy of the
    whole context (`COPY . /srv/` then `RUN bash /srv/setup/install.sh`, or `./setup.sh` from that
    WORKDIR) that the context does not hold (a glob: that matches nothing there), read as
    `context_installs` reads a stage."""
    return context_reads(instructions, context)[1]


_SCRIPT_STEP = re.compile(
    r"^[ \t]*(?:(?:bash|sh|zsh|source|\.|python[0-9.]*)[ \t]+)?[\"']?"
    r"((?:/|\./)[\w./*?-]*\.(?:sh|bash|py))[\"']?(?=[ \t]|$)"
)
"""A step running a script by its path (`bash /srv/setup/install_*.sh`, `./setup.sh`, `python3 /app/x.py`)."""


def _in_whole(path: str, whole: set[str]) -> str | None:
    """`path` of the container (absolute) as a path of the context, when it is inside a folder the whole
    context was copied to; else None."""
    for folder in sorted(whole, key=len, reverse=True):
        if path.startswith(folder.rstrip("/") + "/"):
            return path[len(folder.rstrip("/")) + 1 :]
    return None


class _WholeCopies:
    """The walk of a Dockerfile both readers of its copy of the whole context share (`context_reads`,
    `context_unpacks`): in each stage, its WORKDIR and the folders the whole context was copied to
    (`COPY . /app`), up to a COPY of something else into one of them (a step before the copy changes
    nothing of it) or a step the reader stops at (`stop`): what comes after may not be the context's."""

    def __init__(self) -> None:
        self.workdir: str | None = None
        self.whole: set[str] = set()
        self._stopped = False

    def stop(self) -> None:
        """Read nothing more of this stage."""
        self._stopped = True

    def runs(self, instructions: Sequence[Instruction]) -> Iterator[Instruction]:
        """The shell-form RUNs (no heredoc) of `instructions` up to where the walk stops, `workdir` and
        `whole` as they are at each."""
        for instruction in instructions:
            keyword = instruction.keyword
            if keyword == "FROM":
                self.workdir, self.whole, self._stopped = None, set(), False
            elif self._stopped:
                continue
            elif keyword == "WORKDIR":
                self.workdir = _container_path(instruction.args.strip().strip("\"'"), self.workdir)
            elif keyword in ("COPY", "ADD"):
                if any(flag.name == "from" for flag in instruction.flags):
                    continue
                words = list(instruction.exec_form or instruction.args.split())
                target = _container_path(words[-1], self.workdir) if len(words) >= 2 else None
                if len(words) >= 2 and all(w.strip("\"'") in (".", "./") for w in words[:-1]):
                    if target is not None:
                        self.whole.add(target)
                elif target is not None and any(
                    target == w or target.startswith(w + "/") for w in self.whole
                ):
                    self._stopped = True  # something else put in that folder
            elif keyword == "RUN" and not instruction.heredocs and instruction.exec_form is None:
                yield instruction


def context_reads(
    instructions: Sequence[Instruction], context: Path
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """`context_installs` and `context_scripts`, read in one pass."""
    scripts: list[tuple[int, str]] = []
    found: list[tuple[int, str]] = []
    walk = _WholeCopies()
    for instruction in walk.runs(instructions):
        whole, workdir = walk.whole, walk.workdir
        for step in re.split(r"&&|\|\||;", instruction.args):
            install = _INSTALL_STEP.match(step)
            run = _SCRIPT_STEP.match(step)
            if run is not None and whole:
                path = _container_path(run.group(1), workdir)
                relative = _in_whole(path, whole) if path is not None else None
                if relative is not None and not _context_holds(context, relative):
                    scripts.append((instruction.start_line, relative))
                continue
            if install is None:
                if _PACKAGES.match(step):
                    continue  # (a system package install writes nothing into the copied folder)
                if whole and (re.match(r"[ \t]*(?:cd|pushd)\b", step) or _MAKES_FILES.search(step)):
                    walk.stop()
                    break
                continue
            if workdir is None or workdir not in whole:
                continue
            rest = install.group("rest")
            for name in _REQUIREMENT.findall(rest):
                if not name.startswith("/") and not os.path.lexists(context / name):
                    found.append((instruction.start_line, name))
            if _PROJECT.search(rest) and not any(os.path.lexists(context / f) for f in PROJECT_FILES):
                found.append((instruction.start_line, "setup.py or pyproject.toml"))
    return list(dict.fromkeys(found)), list(dict.fromkeys(scripts))


def _context_holds(context: Path, relative: str) -> bool:
    """True when the context holds `relative` (a glob: a file matching it), or it cannot be told (`..`)."""
    parts = relative.split("/")
    if ".." in parts or len(relative) > 1000 or "\0" in relative:
        return True
    if not any(c in relative for c in "*?["):
        return os.path.lexists(context / relative)
    folder = context.joinpath(*parts[:-1]) if len(parts) > 1 else context
    if any(c in "/".join(parts[:-1]) for c in "*?["):
        return True
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(fnmatch.fnmatchcase(name, parts[-1]) for name in names)


_UNPACKING = re.compile(
    r"^[ \t]*(?:sudo[ \t]+)?"
    r"(?P<tool>tar|unzip|7z|7za|gunzip|dpkg|rpm|mv|cp|pip[0-9.]*|python[0-9.]*[ \t]+-m[ \t]+pip)"
    r"(?=[ \t])(?P<rest>.*)$"
)
"""A step that reads a file of the folder it runs in to unpack, install or move it (`tar -zxvf x.tar.gz`,
`dpkg -i x.deb`, `mv weights.pth /root/.cache/`, `pip install x.whl`)."""
_DOWNLOADS = re.compile(r"\b(?:wget|curl|git|gdown|aria2c|huggingface-cli|hf|download\w*|gsutil|aws)\b", re.I)
"""A step that may bring a file from elsewhere: what it names is no file the context must hold."""
_PACKED = re.compile(r"\.(?:tar\.(?:gz|xz|bz2|zst)|tar|tgz|txz|tbz2?|zip|7z|deb|rpm|whl)\Z", re.IGNORECASE)
"""An archive, a system package or a wheel: a file a build unpacks or installs whole."""


def context_unpacks(instructions: Sequence[Instruction], context: Path) -> list[tuple[int, str]]:
    """(Dockerfile line, path in the context) of each archive, package, wheel or file only a download
    gives (`fetched`: weights, an installer) that a RUN step unpacks, installs or moves from the copy of
    the whole context (`COPY . /app`, `WORKDIR /app`, then `tar -zxvf packages.tar.gz`, `mv
    checkpoint.pth /root/.cache/`) and the context does not hold. A stage is read up to the first step
    that unpacks or may download a file (`wget`, `git`), that step included: what comes after may be
    what it made; a COPY of something else into that folder ends it too."""
    found: list[tuple[int, str]] = []
    walk = _WholeCopies()
    for instruction in walk.runs(instructions):
        whole, workdir = walk.whole, walk.workdir
        if whole:
            for step in re.split(r"&&|\|\||;", instruction.args):
                if _DOWNLOADS.search(step) or re.match(r"[ \t]*(?:cd|pushd)\b", step):
                    walk.stop()
                    break
                unpack = _UNPACKING.match(step)
                if unpack is None:
                    continue
                tool = unpack.group("tool")
                operands = [w.strip("\"'") for w in unpack.group("rest").split() if not w.startswith("-")]
                if tool in ("mv", "cp"):
                    operands = operands[:-1]  # (the last is where it goes)
                for word in operands:
                    name = posixpath.basename(word)
                    if not (_PACKED.search(name) or fetched(name)) or any(c in word for c in "$*?[{~"):
                        continue
                    path = _container_path(word, workdir)
                    relative = _in_whole(path, whole) if path is not None else None
                    if relative is not None and not _context_holds(context, relative):
                        found.append((instruction.start_line, relative))
                if tool not in ("pip", "python") and not tool.startswith(("pip", "python")):
                    walk.stop()  # (what it unpacks or moves may be what a later step reads)
                    break
    return list(dict.fromkeys(found))
