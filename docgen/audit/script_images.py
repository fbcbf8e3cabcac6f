"""Image names a README says a build script makes, against the tags the script gives
(`build_scripts.built_tag_lines`: `docker build -t`, `docker tag`, `docker push`, variables expanded
with their defaults, `*` for what the script does not know).

Two kinds of claim: a sentence or list that says a script builds or pushes an image (`This script will:
- Build/push a ray-vllm-cuda image`, under the block running `build_images.sh`, or `` `build.sh` builds
`org/app:1.0` ``), and a table with an image column listing images in a registry namespace a build
script beside the README pushes to. A name is a finding only when no tag matches it and one is a
segment away (`ray-vllm-cuda` for `vllm-cuda`, `py3.9-cuda12` for `pytorch-*`): a name further off
may be an image built elsewhere.

And a sentence saying the build makes an image under a namespace (`It builds a tagged container
upstream/docking:TOOL_VERSION-IMAGE_VERSION`, `This creates the image `kitlab/jupyter-gpu:3.1``) that no
file of the project names at all (the audited Dockerfiles, the scripts, compose, bake, Make and env
files beside them and the README up to the project's top folder, its GitHub Actions workflows), while
its build scripts and Makefiles tag other names they give in full (`_unmade_claims`, `likely`): a README
kept from the project the repository was forked from, or from an older build. Silent when the README
builds (`-t`) or pulls an image itself, when a script tags a name it cannot tell (`-t $1`), and on a
line telling where the image comes from (`upstream`, `original`, an example).

And an image a table of images or containers lists (a code span in a column headed `Image`,
`Container` or `Tag`) or a list links to its Docker Hub page, in a README that runs `make`, that no
build of the project makes while one it makes differs from it in one `-`/`_` part holding a digit on
both sides (a release: `devbox-x86-20-build` listed, `devbox-x86-22-build` made) (`_made_misses`,
`likely`). What the build makes is read from the Makefile beside the README: each target's recipe
(its prerequisites' too), its `docker build -t`, and each build script it runs with words (`bash
./build.sh build x86 22 build`), read as that run goes through it (`build_scripts.run_walk`: its
`if`/`elif` chains on those words followed). Silent when a target passes words make does not know
(`$(DISTRO)`), when a build file or workflow names the listed image, for a part that is a variant
(`cpu`, `gpu`), and for a part holding a value a README command sets (`make image CUDA=11.8`).
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import build_scripts, makefile
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.commands import fence_commands, image_repository, joined
from docgen.audit.make_targets import makefile_in, makefile_text
from docgen.audit.owner_images import build_texts, workflow_texts
from docgen.audit.pulled_runs import one_part_apart
from docgen.audit.references import RUN_SCRIPT, project_top
from docgen.audit.script_args import SCRIPT_NAME, found_scripts
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, stays_home, text_or_none
from docgen.markdown import Document, code_spans, links
from docgen.model import Diagnostic, ImageModel

_VERB = (
    r"(?:build|builds|building|built|push|pushes|pushed|publish|publishes|published|tag|tags|tagged"
    r"|create|creates|produce|produces)"
)
_PROSE_IMAGE = re.compile(
    rf"\b{_VERB}(?:/[A-Za-z]+)*[ \t]+(?:a|an|the)[ \t]+`?([a-z0-9][a-z0-9.]*(?:[-_/][a-z0-9.]+)+)"
    r"(?::[\w.-]+)?`?[ \t]+(?:docker[ \t]+|container[ \t]+)?images?\b",
    re.IGNORECASE,
)
"""`Build/push a ray-vllm-cuda image`, `builds the `app-cuda` image`: an image the sentence makes."""
_LEADS_TO = re.compile(
    rf"(?:\b{_VERB}(?:/[A-Za-z]+)*(?:[ \t]+and[ \t]+{_VERB})?(?:[ \t]+(?:a|an|the))?"
    r"|\b(?:as|named|called))[ \t]+\Z",
    re.IGNORECASE,
)
"""What comes right before an image named in code that a sentence says is made: `builds and pushes `,
`tags the image as `."""
_REFERENCE = re.compile(r"[a-z0-9][a-z0-9._-]*(?:/[a-z0-9._-]+)*(?::[A-Za-z0-9_][\w.-]*)?")
_FILE = re.compile(r"\.(?:sh|bash|py|ya?ml|json|toml|txt|md|hcl|cfg|ini|env)(?::|\Z)")
_THIS_SCRIPT = re.compile(
    r"^\W*(?:note:?[ \t]+(?:that[ \t]+)?)?(?:(?:this|the|that)[ \t]+(?:build[ \t]+)?script\b|it[ \t]+will\b)",
    re.I,
)
"""The start of a paragraph about the script the block above it runs: `This script will:`, `(note it will`."""
_CALLED = re.compile(
    r"\b(?:will[ \t]+(?:call|name|tag)|calls|called|names|named|tags|tagged)[ \t]+"
    r"(?:it[ \t]+|the[ \t]+image[ \t]+)?"
    r"(?:as[ \t]+)?([a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._-]*(?::[\w.-]+)?)(?![\w/:-])"
)
"""An image a sentence says the script names, written plainly with its namespace: `it will call it
org/app`, `tags the image as org/app:1.0`; not what the reader is told to do (`tag it as org/app-prod`)."""
_IMAGE_HEADER = re.compile(r"\bimage", re.IGNORECASE)
_SEPARATORS = re.compile(r"[-_]")
_CODE = re.compile(r"`[^`]*`")
Cloned = Callable[[int, str], tuple[str, Path] | None] | None
"""`steps.own_clones`: of a step, the folder it makes when it clones this very repository, and its root."""


@dataclass(frozen=True)
class _Tag:
    """An image reference a script tags: the script, its line, the reference as expanded."""

    script: Path
    line: int
    reference: str
    caller: Path | None = None
    """The script that runs `script` with the variables the tag was read with, if one does."""

    @property
    def repository(self) -> str:
        return image_repository(self.reference)


def _tags(script: Path, text: str | None = None) -> list[_Tag]:
    """The tags of the script at `script` (its `text` when read already; none when it cannot be read)."""
    text = text_or_none(script) if text is None else text
    return [] if text is None else [_Tag(script, n, ref) for n, ref in build_scripts.built_tag_lines(text)]


def _without_one(name: str) -> list[str]:
    """`name` with one of its `-`/`_` segments taken out (with a separator beside it)."""
    found: list[str] = []
    for match in re.finditer(r"[^-_]+", name):
        start, end = match.span()
        if end < len(name):
            found.append(name[:start] + name[end + 1 :])
        elif start > 0:
            found.append(name[: start - 1])
    return [f for f in found if f]


def _near(name: str, pattern: str, anchored: bool) -> bool:
    """True when the repository name `name` (last part) is a segment away from `pattern` (last part of a
    tag, `*` for what the script does not know): one segment more (`ray-vllm-cuda` for `vllm-cuda`) or
    one literal segment less (`torch-2.1` for `pytorch-*`; with only `*` left, only when `anchored`: the
    namespaces are the same), or the same but for a `-` or `_` more or less (`torch-2.1.1-py3.9`
    for `torch2.1.1-py3.9`)."""
    if any(fnmatch.fnmatchcase(shorter, pattern) for shorter in _without_one(name)):
        return True
    if "*" not in pattern and name != pattern and _SEPARATORS.sub("", name) == _SEPARATORS.sub("", pattern):
        return True  # `torch-2.1.1-py3.9` for `torch2.1.1-py3.9`: a separator more or less
    for shorter in _without_one(pattern):
        if shorter == "*" and not anchored:
            continue
        if len(shorter) < len(pattern) and fnmatch.fnmatchcase(name, shorter):
            return True
    return False


def _miss(name: str, tags: Sequence[_Tag]) -> _Tag | None:
    """The tag `name` (an image the README names) is a slip of, when no tag matches it; None otherwise.
    A name with a namespace is compared with tags of that very namespace only."""
    repo = image_repository(name)
    head, _, last = repo.rpartition("/")
    mates: list[tuple[_Tag, str]] = []
    for tag in tags:
        their_head, _, their_last = tag.repository.rpartition("/")
        if fnmatch.fnmatchcase(repo, tag.repository) or (not head and fnmatch.fnmatchcase(last, their_last)):
            return None
        if head and their_head != head:
            continue
        mates.append((tag, their_last))
    return next((tag for tag, theirs in mates if _near(last, theirs, bool(head))), None)


def _namesake(name: str, tags: Sequence[_Tag]) -> _Tag | None:
    """A tag the script gives in the namespace of `name` (`org/app`: a tag `org/…` it knows in full),
    when no tag matches `name`: the script names its image in that namespace, and not so. None for a
    name with no namespace (a local name the reader may give it)."""
    repo = image_repository(name)
    head = repo.rpartition("/")[0]
    if not head or any(fnmatch.fnmatchcase(repo, tag.repository) for tag in tags):
        return None
    return next(
        (t for t in tags if "*" not in t.repository and t.repository.rpartition("/")[0] == head), None
    )


def _chained_tags(scripts: Sequence[Path], directory: Path, roots: Sequence[Path]) -> list[_Tag]:
    """The tags of `scripts`, a script another of them runs (`./docker/build.sh` after `export
    IMAGE_TAG=torch2.1.1-…`) read with the variables each caller gives it, and on its own only when none
    of them runs it (its tags alone are `docker.kt.io/baseimages/*:*`). A script run is looked for only
    within `roots` (resolved)."""
    tags: list[_Tag] = []
    fed: set[Path] = set()
    texts = {script: text_or_none(script) for script in scripts}  # (each read once)
    for script, text in texts.items():
        if text is None:
            continue
        for _, called, variables in build_scripts.called_scripts(text):
            where = (script.parent, script.parent.parent, directory)
            callee = next(
                (
                    f / called
                    for f in where
                    if any(real_path(f / called).is_relative_to(root) for root in roots)
                    and os.path.isfile(f / called)
                ),
                None,
            )
            if callee is None or real_path(callee) == real_path(script):
                continue
            body = text_or_none(callee)
            if body is None:
                continue
            fed.add(real_path(callee))
            tags += [
                _Tag(callee, n, ref, script) for n, ref in build_scripts.built_tag_lines(body, variables)
            ]
    for script, text in texts.items():
        if text is not None and real_path(script) not in fed:
            tags += _tags(script, text)
    return tags


def _script_runs(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None, cloned: Cloned = None
) -> dict[int, Path]:
    """README line → the script a command block runs there (found where it runs it, `found_scripts`)."""
    runs: dict[int, Path] = {}
    for line, _, script, _ in found_scripts(doc, directory, audited, project, cloned):
        runs.setdefault(line, script)
    return runs


def _named(text: str, directory: Path, bases: Sequence[Path]) -> Path | None:
    """The one script `text` names that is found from the README's folder (or a folder above it)."""
    names = set(SCRIPT_NAME.findall(text))
    if len(names) != 1:
        return None
    name = next(iter(names))
    for folder in (directory, *bases):
        if os.path.isfile(folder / name) and stays_home(folder / name):
            return Path(os.path.realpath(folder / name))
    return None


def _said_images(text: str) -> list[str]:
    """The image names a line says are built (`Build/push a X image`, `` builds `org/x:1` ``)."""
    found = [m.group(1) for m in _PROSE_IMAGE.finditer(text) if m.group(1).islower()]
    found += [
        m.group(1).rstrip(".") for m in _CALLED.finditer(_CODE.sub(" ", text)) if "://" not in text[: m.end()]
    ]
    for start, _, code in code_spans(text):
        code = code.strip()
        if _LEADS_TO.search(text[max(0, start - 60) : start]):
            if (
                _REFERENCE.fullmatch(code)
                and ("/" in code or ":" in code)
                and not _FILE.search(code)
                and not code.startswith(("./", "../"))
            ):
                found.append(code)
    return list(dict.fromkeys(found))


def _prose_misses(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Cloned = None,
) -> Iterator[Diagnostic]:
    """A paragraph (a list with its introduction) that names a script beside the README, or starts
    `This script will:` (`(note it will`) right after a command block running one, and says it builds or
    pushes an image the script tags under no name like it while one is a segment away (`certain`), or
    names it (`it will call it org/app`) in a namespace where the script tags another name only
    (`likely`: read from prose)."""
    runs = _script_runs(doc, directory, audited, project, cloned)
    bases = list(directory.resolve().parents)[:4]
    fence_ends = sorted((f.lines[-1][0], f.lines[0][0]) for f in doc.fences if f.lines)
    starts = sorted(p.lines[0][0] for p in doc.paragraphs)
    read: dict[Path, list[_Tag]] = {}
    for para in doc.paragraphs:
        first = para.lines[0][0]
        text = " ".join(t for _, t in para.lines)
        script = _named(text, directory, bases)
        if script is None and _THIS_SCRIPT.search(para.lines[0][1]):
            above = [(end, start) for end, start in fence_ends if end < first]
            if above and not any(above[-1][0] < s < first for s in starts):
                end, start = above[-1]
                ran = [runs[n] for n in range(start, end + 1) if n in runs]
                script = ran[-1] if ran and len(set(ran)) == 1 else None
        if script is None:
            continue
        if script not in read:
            read[script] = _tags(script)
        tags = read[script]
        if not tags:
            continue
        for line, line_text in para.lines:
            for name in _said_images(line_text):
                tag = _miss(name, tags)
                if tag is not None:
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {script.name} builds image {name}, but {script.name}:{tag.line} tags "
                        f"{tag.reference} and no image of that name",
                        confidence=CERTAIN,
                    )
                elif (tag := _namesake(name, tags)) is not None:
                    space = image_repository(name).rpartition("/")[0]
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {script.name} names the image {name}, but {script.name}:{tag.line} "
                        f"tags {tag.reference}, and no image of that name in {space}/",
                        confidence=LIKELY,
                    )


def _table_misses(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A table with an image column whose cells name images (in code) in a registry namespace a build
    script beside the README or an audited Dockerfile pushes to (`docker.kt.io/base/pytorch-*`), none
    of whose tags matches them while one is a segment away: one finding for all such tables, at the
    first row (`likely`: the image may be built another way). Only when a command block runs a script."""
    ran = [m.group(1) for f in doc.fences for _, t in f.lines for m in RUN_SCRIPT.finditer(t)]
    if not ran:
        return
    folders = [directory, *(Path(m.file).parent for m in models if m.file)]
    # the folders of the scripts the README runs (`bash scripts/build_xxx.sh`: the one named is an example)
    roots = [real_path(f) for f in folders]  # (the folders read, where a script may run another from)
    folders += [
        directory / os.path.dirname(r)
        for r in ran
        if os.path.dirname(r) and ".." not in r.split("/") and not r.startswith(("/", "~", "$"))
    ]
    scripts: list[Path] = []
    for folder in dict.fromkeys(real_path(f) for f in folders):
        if not any(folder.is_relative_to(root) for root in roots):
            continue  # a link leading out of the README's folder
        try:
            scripts += sorted(
                Path(e.path)
                for e in os.scandir(folder)
                if os.path.isfile(e) and e.name.endswith((".sh", ".bash"))
            )
        except OSError:
            continue
    tags = _chained_tags(scripts, directory, roots)
    spaces = {t.repository.rpartition("/")[0] for t in tags if "/" in t.repository}
    if not spaces:
        return
    misses: list[tuple[int, str, _Tag]] = []
    for table in doc.tables:
        columns = [i for i, cell in enumerate(table.header) if _IMAGE_HEADER.search(cell)]
        for line, cells in table.rows:
            for index in columns:
                if index >= len(cells):
                    continue
                for _, _, code in code_spans(cells[index]):
                    name = code.strip()
                    if (
                        not _REFERENCE.fullmatch(name)
                        or image_repository(name).rpartition("/")[0] not in spaces
                    ):
                        continue
                    tag = _miss(name, tags)
                    if tag is not None:
                        misses.append((line, name, tag))
    if not misses:
        return
    line, name, tag = misses[0]
    more = f" (and {len(misses) - 1} more)" if len(misses) > 1 else ""
    shown = os.path.relpath(tag.script, directory.resolve())
    said = f"README lists image {name}{more}, but {shown}:{tag.line} tags {tag.reference} in that namespace"
    if tag.caller is not None:
        said += f" (run by {os.path.relpath(tag.caller, directory.resolve())})"
    yield Diagnostic(readme, line, said, confidence=LIKELY)


_MAKES = re.compile(
    r"\b(?:build|builds|built|create|creates|created|produce|produces|make|makes)[ \t]+(?:a|an|the)[ \t]+"
    r"(?:(?:tagged|local|new|docker)[ \t]+){0,2}(?:image|container)[ \t]+"
    r"(?:(?:named|called|tagged)[ \t]+(?:as[ \t]+)?)?`?"
    r"(?P<name>[a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._/-]*(?::[A-Za-z0-9_][\w.-]*)?)`?(?![\w/:-])",
    re.IGNORECASE,
)
"""`It builds a tagged container org/app:TAG`, `creates the image `org/app:1.0``: an image a sentence
says the build makes, with its namespace."""
_ELSEWHERE = re.compile(
    r"\b(?:upstream|original(?:ly)?|fork(?:ed|s)?|e\.g\.|for[ \t]+example|such[ \t]+as|used[ \t]+to"
    r"|previous(?:ly)?|formerly|older|instead)\b",
    re.IGNORECASE,
)
"""Words of a line about an image from elsewhere, or an example."""
_PULLS = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?:pull|tag)\b")
_TAGS = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)\S")


def _gives_name(command: str) -> bool:
    """True when a README command line gives an image a name itself: a pull, a `docker tag`, a build
    with `-t` (not `docker run -t`, a terminal)."""
    return bool(_PULLS.search(command) or (build_scripts.BUILD.search(command) and _TAGS.search(command)))


_TAGGING_FILE = re.compile(r"\.(?:sh|bash)\Z|\A(?:GNU)?[Mm]akefile\Z|\.mk\Z")


_NAMED = re.compile(r"[A-Za-z0-9_][\w.-]*(?:/[\w.-]+)*")
"""A name a file holds, up to a blank, a quote, `:` or `@` (`ghcr.io/org/app`, `org/app`, `app-x86-22`)."""


def _named_repositories(bodies: Iterable[str]) -> set[str]:
    """Every name the texts `bodies` hold (`_NAMED`), lower case, with each of its tails after a `/`
    (`hub.docker.com/r/org/app` holds `org/app` and `app`): one reading of the files for every name
    the README says, a set look-up each."""
    found: set[str] = set()
    for body in bodies:
        for match in _NAMED.finditer(body.lower()):
            parts = match.group().rstrip(".").split("/")
            found.update("/".join(parts[i:]) for i in range(len(parts)))
    return found


def _project_texts(
    directory: Path, models: Sequence[ImageModel], readme: str, project: Path | None
) -> list[tuple[Path, str]]:
    """(path, text) of the build files of the project and of its GitHub Actions workflows, as
    `owner_images` reads them for its rules (once an audit, whichever rule asks first)."""
    top = project_top(directory, project)
    return [*build_texts(directory, models, readme, top), *workflow_texts(directory, top)]


def _unmade_claims(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The third claim of the module (see its docstring)."""
    claims = [
        (line, match.group("name"))
        for para in doc.paragraphs
        for line, text in para.lines
        if "/" in text and not _ELSEWHERE.search(_MAKES.sub(" ", text))
        for match in _MAKES.finditer(text)
    ]
    if not claims or any(_gives_name(joined(c)) for f in doc.fences for c in fence_commands(f)):
        return
    texts = _project_texts(directory, models, readme, project)
    tags = [
        (path, line, tag)
        for path, body in texts
        if _TAGGING_FILE.search(path.name)
        for line, tag in build_scripts.built_tag_lines(body)
    ]
    if not tags or any(build_scripts.UNKNOWN in tag for _, _, tag in tags):
        return  # (a tag read from an argument or a file, `-t $(cat name.txt)`, may be the one said)
    names = _named_repositories(body for _, body in texts)
    told: set[str] = set()
    for line, name in claims:
        repository = image_repository(name)
        if repository in told:
            continue
        if repository.lower() in names:
            continue
        told.add(repository)
        shown = ", ".join(
            f"{os.path.relpath(path, directory.resolve())}:{at} tags {tag}" for path, at, tag in tags[:3]
        )
        more = f" (and {len(tags) - 3} more)" if len(tags) > 3 else ""
        yield Diagnostic(
            readme,
            line,
            f"README says the build makes {name}, but no file of the project names {repository}: "
            f"{shown}{more}",
            confidence=LIKELY,
        )


_LISTING_HEADER = re.compile(r"\b(?:images?|containers?|tags?)\b", re.IGNORECASE)
_HUB_PAGE = re.compile(r"\Ahttps?://(?:hub\.docker\.com/(?:r/)?|github\.com/[^/]+/[^/]+/pkgs/container/)")
_MAKE_RUN = re.compile(r"(?:^|[;&|][ \t]*)(?:sudo[ \t]+)?(?:[A-Z_]+=\S*[ \t]+)*make\b")
_PUSH = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?push\b")
_TARGETS_READ = 200
"""At most this many targets of a Makefile are read for the images they make."""


@dataclass(frozen=True)
class _Made:
    """An image a make target makes: the target, how (the script run with its words, or the recipe's
    build), the file and line tagging it, the tag."""

    target: str
    how: str
    where: str
    reference: str
    pushed: bool = False
    """The tag is a `docker push`'s: it makes no image here."""


def _listed_images(doc: Document) -> dict[str, list[int]]:
    """Image name → the README lines listing it: code spans of a table column headed `Image`,
    `Container` or `Tag`, and link texts of Docker Hub (GitHub packages) pages."""
    found: dict[str, list[int]] = {}
    for table in doc.tables:
        columns = [i for i, cell in enumerate(table.header) if _LISTING_HEADER.search(cell)]
        for line, cells in table.rows:
            for index in columns:
                for _, _, code in code_spans(cells[index]) if index < len(cells) else ():
                    if _REFERENCE.fullmatch(code.strip()) and not _FILE.search(code):
                        found.setdefault(code.strip(), []).append(line)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "](" not in text:
                continue
            for link in links(text):
                name = text[link.start + 1 : link.text_end].strip("` ")
                if link.target and _HUB_PAGE.match(link.target) and _REFERENCE.fullmatch(name):
                    found.setdefault(name, []).append(line)
    return found


def _make_made(directory: Path) -> list[_Made]:
    """The images the Makefile beside the README makes, target by target (see the module's docstring)."""
    path = makefile_in(directory)
    if path is None or (text := makefile_text(path)) is None:
        return []
    targets = makefile.rule_targets(text)
    if not targets:
        return []
    scripts: dict[str, str | None] = {}
    runs: dict[tuple[str, tuple[str, ...]], tuple[tuple[int, str], ...]] = {}
    made: list[_Made] = []
    for target in sorted(targets)[:_TARGETS_READ]:
        recipe = makefile.target_recipe(text, target)
        if recipe is None:
            continue
        for build in recipe.builds:
            made += [_Made(target, "its recipe", f"{path.name}:{build.line}", t) for t in build.tags if t]
        for command in recipe.others:
            words = list(command.words)
            if words[:1] in (["bash"], ["sh"]):
                words = words[1:]
            if not words or not words[0].endswith(".sh") or any("$" in w for w in words):
                continue
            script = posixpath.normpath(words[0])
            if script.startswith(("..", "/")):
                continue
            if script not in scripts:
                scripts[script] = text_or_none(directory / script, MAX_PROJECT_FILE_BYTES)
            body = scripts[script]
            if body is None:
                continue
            key = (script, tuple(words[1:]))
            if key not in runs:
                runs[key] = build_scripts.built_tag_lines(body, None, words[1:])
            how = "runs " + " ".join([script, *words[1:]])
            lines = body.splitlines()
            made += [
                _Made(target, how, f"{script}:{n}", t, bool(_PUSH.search(lines[n - 1]))) for n, t in runs[key]
            ]
    return made


def _by_last_name(listed: dict[str, list[int]]) -> list[tuple[str, list[int]]]:
    """The names of `listed` with those of one last name merged (`devbox-x86-20-build` in a table,
    `kitlab/devbox-x86-20-build` linked): the first name written, every line naming one of them."""
    merged: dict[str, tuple[str, list[int]]] = {}
    for name, lines in listed.items():
        last = image_repository(name).rsplit("/", 1)[-1]
        _, seen = merged.setdefault(last, (name, []))
        seen.extend(lines)
    return [(name, sorted(set(lines))) for name, lines in merged.values()]


def _release_apart(listed: str, made: str) -> tuple[str, str] | None:
    """The parts in which the last names of `listed` and `made` differ when they differ in one `-`/`_`
    part, holding a digit on both sides (`devbox-x86-20-build`, `devbox-x86-22-build`: `20`, `22`;
    `pulled_runs.one_part_apart`); None otherwise, and for a `made` name holding a `*` (a part not
    known)."""
    made_last = image_repository(made).rsplit("/", 1)[-1]
    if "*" in made_last:
        return None
    return one_part_apart(image_repository(listed).rsplit("/", 1)[-1], made_last)


_SET_VALUE = re.compile(r"(?:^|[\s;&|])(?:export[ \t]+)?[A-Za-z_]\w*=[\"']?([^\s;&|\"']{2,})")
"""A value a README command sets (`make build CUDA=11.8`, `export DISTRO=20`): the reader's own build
may name an image by it."""


def _made_misses(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The fourth claim of the module (see its docstring)."""
    if not any(_MAKE_RUN.search(t) for f in doc.fences for _, t in f.lines):
        return
    listed = _listed_images(doc)
    if not listed:
        return
    set_values = {
        m.group(1) for f in doc.fences for c in fence_commands(f) for m in _SET_VALUE.finditer(joined(c))
    }
    made = _make_made(directory)
    if not made:
        return
    texts: set[str] | None = None  # the names the build files and workflows hold
    sizes: dict[str, int] = {}
    for entry in made:
        sizes[entry.target] = sizes.get(entry.target, 0) + 1
    # a build before a push, and the target making the fewest images: the one its name is about
    made.sort(key=lambda m: (m.pushed, sizes[m.target]))
    for name, lines in _by_last_name(listed):
        repository = image_repository(name)
        owner, _, last = repository.rpartition("/")
        mates = [m for m in made if not owner or image_repository(m.reference).rpartition("/")[0] == owner]
        if any(fnmatch.fnmatchcase(last, image_repository(m.reference).rsplit("/", 1)[-1]) for m in mates):
            continue
        near = next((m for m in mates if _release_apart(name, m.reference)), None)
        apart = _release_apart(name, near.reference) if near is not None else None
        if near is None or apart is None or any(value in apart[0] for value in set_values):
            continue  # (a value the README sets, `make CUDA=11.8`, may make the listed release)
        if texts is None:
            texts = _named_repositories(b for _, b in _project_texts(directory, models, readme, project))
        if last.lower() in texts:
            continue
        yield Diagnostic(
            readme,
            lines[0],
            f"README lists image {name}, but no build of the project makes it: make {near.target} "
            f"{near.how}, which tags {near.reference} ({near.where})" + also_at(lines),
            confidence=LIKELY,
        )


def script_images(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Cloned = None,
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring); `cloned` (`steps.own_clones`) tells a clone of
    this very repository, whose folder a later `cd` enters."""
    yield from _prose_misses(doc, readme, directory, audited, project, cloned)
    yield from _table_misses(doc, readme, directory, models)
    yield from _unmade_claims(doc, readme, directory, models, project)
    yield from _made_misses(doc, readme, directory, models, project)
