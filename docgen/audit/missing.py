"""References to files of the repository that are not there: a relative link (or image, reference
definition, HTML `href`/`src`) whose target does not exist, and a path in code in the prose
(`` Run `build.docker.sh` ``) that names no file while one a slip away does (`build_docker.sh`), and a
folder named with a trailing slash, in code or plain prose (`the scripts in test_scripts/`), while a
folder a slip away is there (`test_scipts/`).

A link, or a command's address (`wget https://raw.githubusercontent.com/o/app/main/run.sh`), to a file
of the README's own repository by its GitHub address is read as a path from the repository's root
(`missing_own_files`).

Links to Dockerfiles are `references`' concern (which image a section is about follows from them); these
are every other file.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
import stat
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.commands import cloned_folder, clones
from docgen.audit.own_repo import DEFAULT_BRANCHES, checked_out, forge_file, remote_names, repository_root
from docgen.audit.paths import Submodules, basename, ignore_patterns, ignores, reference_path
from docgen.audit.versions import differing
from docgen.compose import COMPOSE_FILE
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import is_dockerfile_name, real_path, text_or_none
from docgen.markdown import Document, code_spans, links, lists
from docgen.model import Diagnostic, ImageModel

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
"""`https:`, `mailto:`, `data:` …: a target that is no path of the repository."""
_UNREAD = re.compile(r"[{}$<>*|@]|%7[BbDd]")
"""A target with a placeholder or a template (`{{ page }}`, `$DIR`, `<name>`) or an e-mail address:
not a file name."""
_WRAPPED_URL = re.compile(r"\(+((?:[A-Za-z][A-Za-z0-9+.-]*:|www\.)[^\s()]*)\)*")
"""`(https://example.com)`: an address in parentheses, as `[x]((https://example.com))` makes the target."""
DOMAIN = re.compile(
    r"(?:[\w-]+(?:\.[\w-]+)*\.(?:com|io|org|net|dev|ai|co|cn|gov|edu)"
    r"|(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?)(?:/|\Z)",
    re.I,
)
"""`www.example.com/x`, `github.com/a/b`: a web address written without its scheme, not a file; so is a
network address (`127.0.0.1:8000`, `0.0.0.0`, `localhost:7860/docs`, `[::1]:80`): the running app's, which
a README links to (`[127.0.0.1:8000](127.0.0.1:8000)`) for the reader to open. (A `my-host:8080` link is
`SCHEME`'s.)"""
_GITHUB_PAGE = re.compile(
    r"(?:\.\./)+(?:blob|tree|raw|issues|pulls?|wiki|actions|releases|discussions|commits?|compare|security"
    r"|projects|labels|milestones|tags|branches|graphs|network|stargazers|forks)(?:/|\Z)"
)
"""`../../issues`, `../../blob/main/x`: a page of the repository's host, not a file."""
GENERATED = frozenset(
    {"site", "build", "dist", "_build", "out", "output", "outputs", "node_modules", "htmlcov", "__pycache__"}
    | {".venv", "venv", "target", "logs", "runs", "wandb", "checkpoints"}
)
"""Folders a build, a docs site or a run writes (rarely committed): links into them are not checked."""


_PLUGINS = re.compile(r"^plugins:[ \t]*\n((?:[ \t]+.*\n|[ \t]*\n)*)", re.MULTILINE)
_PLUGIN = re.compile(r"^[ \t]{1,4}(?:-[ \t]+)?([\w.-]+)", re.MULTILINE)


def _site_folder(directory: Path, root: Path | None) -> str | None:
    """When `directory` is in the `docs_dir` of a MkDocs site (a `mkdocs.yml` at or above it, up to
    `root`), whose pages link to other pages and to site paths that exist only once built: "pages" when
    the site has a plugin other than `search` (one may add the pages: `gen-files`, docgen's own
    Dockerfile pages), else "site"; None when it is not."""
    start = directory.resolve()
    for folder in (start, *start.parents):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            config = folder / name
            if os.path.isfile(config):
                try:
                    text = config.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    return None
                found = re.search(r"^docs_dir:[ \t]*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
                docs = real_path(folder / (found.group(1) if found else "docs"))
                if start != docs and docs not in start.parents:
                    return None
                listed = _PLUGINS.search(text + "\n")
                plugins = set(_PLUGIN.findall(listed.group(1))) if listed else set()
                return "pages" if plugins - {"search"} else "site"
        if root is not None and folder == root:
            break
    return None


def gitignore_patterns(folders: Iterable[Path], root: Path | None) -> list[tuple[Path, str]]:
    """(folder, pattern) of the `.gitignore` files of `folders`, negations (`!x`) left out, and the
    paths of the submodules `root/.gitmodules` lists (a checkout may not have their files)."""
    found: list[tuple[Path, str]] = []
    if root is not None:
        try:
            modules = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")
        except OSError:
            modules = ""
        found += [(root, m) for m in re.findall(r"^[ \t]*path[ \t]*=[ \t]*(\S+)", modules, re.MULTILINE)]
    for folder in dict.fromkeys(folders):
        found += [(folder, pattern) for pattern in ignore_patterns(folder / ".gitignore")]
    return found


def ignored(full: Path, patterns: Sequence[tuple[Path, str]]) -> bool:
    """True when git ignores the path `full` by one of `patterns` (see `paths.ignores`)."""
    for folder, pattern in patterns:
        try:
            parts = full.relative_to(folder).parts
        except ValueError:
            continue
        if ignores(pattern, parts):
            return True
    return False


CREATES = frozenset(
    {
        "mkdir",
        "touch",
        "wget",
        "curl",
        "git",
        "cp",
        "mv",
        "ln",
        "tar",
        "unzip",
        "gunzip",
        "7z",
        "rsync",
        "scp",
    }
    | {"huggingface-cli", "hf", "gsutil", "aws", "make", "cmake", "ninja", "docker", "podman", "install"}
)
"""Commands that write or fetch files: the names on their lines may exist only after they run."""
COPIERS = frozenset({"cp", "mv", "ln", "rsync", "install"})
"""Commands of `CREATES` whose first operands are read, not made: only their last is made."""
_STEP_END = re.compile(r"&&|\|\||[;|]")
"""Where a step of a command line ends (`cp a b && ls`)."""
PROMPT = re.compile(r"[ \t]*(?:[$#>][ \t]+|\([\w.-]+\)[ \t]*\$[ \t]+)?(?:sudo[ \t]+(?:-\S+[ \t]+)*)?")
OUTPUT = re.compile(
    r"(?:>>?[ \t]*|(?<![\w-])(?:-o|-O|-P|--output(?:-dir)?|--local-dir|--out(?:dir)?)(?:=|[ \t]+))"
    r"([^\s;&|<>()]+)"
)
"""Where a command writes: after `>`, `-o`, `--output` … (each part followed by what it cannot hold)."""
WORD = re.compile(r"[^\s'\"=;&|()<>`]+")


def _first_step(text: str) -> tuple[str, str]:
    """The first step of a command line and the rest after its separator (`cp a b`, `ls`)."""
    end = _STEP_END.search(text)
    return (text, "") if end is None else (text[: end.start()], text[end.end() :])


def _copy_made(words: Sequence[str]) -> list[str]:
    """What a copy, move or link (`COPIERS`) with these words after its name makes: its last operand,
    and the names of its sources too when that is a folder (`cp a/b.yml .`, `cp x y dir/`). All the
    words when the operands cannot be told apart (one operand, `-t DIR`)."""
    operands = [w for w in words if not w.startswith("-")]
    if len(operands) < 2 or any(w in ("-t", "--target-directory") for w in words):
        return list(words)
    *sources, target = operands
    if target in (".", "..", "~") or target.endswith("/") or len(sources) > 1:
        return [target, *(s.rstrip("/").rsplit("/", 1)[-1] for s in sources)]
    return [target]


_DIAGRAMS = frozenset({"mermaid", "plantuml", "dot", "graphviz"})
"""Languages of blocks that draw a diagram: no command in them."""


def made_names(doc: Document, creates: frozenset[str] = CREATES, *, whole: bool = False) -> set[str]:
    """The file and folder names (each part of each path) that a command block of the README creates or
    downloads (`mkdir data`, `wget …/model.bin`, `git clone …/repo.git`, `> out.txt`, `-o x`): such a
    file may be missing from the repository and still be there for a reader who followed the steps.
    `creates`: the commands whose words count (a `git clone`'s always do). `whole`: each path whole
    (`download/amd64`, `./` and a `.git` off), of an address its last part (`…/run.sh`)."""
    names: set[str] = set()
    for fence in doc.fences:
        if fence.lang.lower() in _DIAGRAMS:
            continue  # `src --> out.txt` is an arrow, no redirection
        for _, text in fence.lines:
            prompt = PROMPT.match(text)
            words = WORD.findall(text[prompt.end() if prompt else 0 :])
            found = [m.group(1) for m in OUTPUT.finditer(text)]
            if words and words[0] in creates & COPIERS:
                first, rest = _first_step(text[prompt.end() if prompt else 0 :])
                found += _copy_made(WORD.findall(first)[1:]) + WORD.findall(rest)
            elif words and words[0] in creates:
                found += words[1:]
            elif words[:2] == ["git", "clone"]:
                found += words[2:]
            for word in found:
                if whole:  # an address makes its last part (`curl -O …/run.sh`, `git clone …/app.git`)
                    names.add(word.rstrip("/").rsplit("/", 1)[-1] if "://" in word else word.strip("/"))
                    continue
                for part in word.rstrip("/").split("/"):
                    names.add(part.removesuffix(".git"))
    return names


def in_commands(doc: Document) -> set[str]:
    """The base names of the paths the command blocks of the README name (`./build.sh`, `bash
    tools/run.sh`): a path in the prose that a command makes or runs is for the rules on commands. Not
    those in the folder of a clone (`repo/build.py` after `git clone …/repo`): no rule on commands
    looks into a clone, so the prose's name of such a file is checked as any other."""
    cloned = {folder or cloned_folder(url) for url, folder in clones(doc)}
    return {
        word.rstrip("/").rsplit("/", 1)[-1]
        for fence in doc.fences
        if fence.lang.lower() not in _DIAGRAMS
        for _, text in fence.lines
        for word in WORD.findall(text)
        if word.removeprefix("./").split("/", 1)[0] not in cloned or "/" not in word.strip("/")
    }


def name_key(name: str) -> str:
    """`name` without case or separators: `build_docker.sh` and `Build.Docker.sh` have one key."""
    return re.sub(r"[-_. ]", "_", name.lower())


def near_names(name: str, entries: Iterable[tuple[str, str]]) -> list[str]:
    """The entries (name, `name_key`) a slip away from `name`: the same but for separators and case
    (`build_docker.sh` for `build.docker.sh`), or, for a name of five characters or more, one letter
    added, dropped, changed or two swapped (`workflows` for `workflow`); an edit of a digit is another
    file (`v2` for `v1`)."""
    key = name_key(name)
    return [
        entry
        for entry, entry_key in entries
        if entry != name and (entry_key == key or (len(name) >= 5 and one_edit(name, entry)))
    ]


def one_edit(a: str, b: str) -> bool:
    """True when `b` is `a` with one letter (not a digit) added, dropped, changed, or two swapped."""
    if abs(len(a) - len(b)) > 1:
        return False
    in_a, in_b = differing(a, b)
    if any(c.isdigit() for c in in_a + in_b):
        return False
    if len(a) == len(b) and len(in_a) == 2:  # two letters swapped
        return in_a == in_b[::-1]
    return len(in_a) + len(in_b) <= 2 and max(len(in_a), len(in_b)) == 1


def one_slip(parts: Sequence[str], others: Sequence[str], closed: bool = False) -> bool:
    """True when the name of parts `others` is the one of `parts` with one slip in one part: one letter
    added, dropped, changed, or two swapped, in a part of five letters or more (a part of four only by a
    swap); not a plural (`PATH` and `PATHS`) unless `closed` (the other name is of a closed list)."""
    if len(parts) != len(others):
        return False
    differ = [(a, b) for a, b in zip(parts, others, strict=True) if a != b]
    if len(differ) != 1:
        return False
    part, known = differ[0]
    if min(len(part), len(known)) < 4 or not one_edit(part, known):
        return False
    swapped = len(part) == len(known) and sorted(part) == sorted(known)
    if min(len(part), len(known)) < 5 and not swapped:
        return False
    plural = (part + "s").lower() == known.lower() or (known + "s").lower() == part.lower()
    return closed or not plural


class Listings:
    """The entries of each folder looked into, listed once for all the references of a README."""

    def __init__(self) -> None:
        self._seen: dict[Path, list[tuple[str, str]]] = {}

    def __call__(self, folder: Path) -> list[tuple[str, str]]:
        if folder not in self._seen:
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                names = []
            self._seen[folder] = [(n, name_key(n)) for n in names]
        return self._seen[folder]


def corrected(base: Path, path: str, listings: Listings) -> str | None:
    """`path` (read from `base`) with its one missing part replaced by the one entry a slip away from it
    when the rest of the path then exists (`.github/workflows/main.yml` for `.github/workflow/main.yml`);
    None when no part is missing, or no such single correction exists."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    folder = base
    for index, part in enumerate(parts):
        if part == ".." or os.path.exists(folder / part):
            folder = folder / part
            continue
        near = near_names(part, listings(folder))
        if len(near) != 1 or not os.path.exists(folder.joinpath(near[0], *parts[index + 1 :])):
            return None
        return "/".join([*parts[:index], near[0], *parts[index + 1 :]])
    return None


def _moved(directory: Path, root: Path | None, path: str, listings: Listings) -> str | None:
    """Where a missing relative link target most likely is: a slip away (`corrected`), else the same
    path from the folder above (`../build.sh`) or from the repository root, shown from `directory`."""
    fixed = corrected(directory, path, listings)
    if fixed is not None:
        return fixed
    bases = [directory.parent, *([root] if root is not None and root != directory.resolve() else [])]
    for base in bases:
        if os.path.exists(base / path):
            return posixpath.relpath(real_path(base / path).as_posix(), directory.resolve().as_posix())
    return None


def _inside(full: Path, root: Path | None) -> bool:
    return root is None or full == root or root in full.parents


def link_roots(directory: Path, project: Path | None) -> list[Path]:
    """The folders a link starting with `/` may be read from: the repository root (`repository_root`);
    in a checkout holding neither `.git` nor `pyproject.toml`, the README's folder and each folder above
    it up to the project folder (where `docgen audit` runs), when the README is in it: the root is one
    of them, and a link is dead only when none holds its file. Empty when there is none."""
    root = repository_root(directory)
    if root is not None:
        return [root]
    if project is None:
        return []
    top, here = project.resolve(), directory.resolve()
    if here != top and top not in here.parents:
        return []
    return [here, *here.parents[: len(here.parents) - len(top.parents)]]


_MYST_TARGET = re.compile(r"\([\w.:-]+\)=")
"""A MyST target line (`(docker-usage)=`): it labels the heading below it for Sphinx cross-references."""


def _sphinx_page(doc: Document) -> bool:
    """True for a MyST page built by Sphinx: it holds a target line (`(docker)=`) or a directive fence
    (```` ```{tab} ````). There `[text](label)` refers to a label or a document, not to a file."""
    return any(lang.startswith("{") for lang in (fence.lang for fence in doc.fences)) or any(
        _MYST_TARGET.fullmatch(text.strip()) for paragraph in doc.paragraphs for _, text in paragraph.lines
    )


def missing_links(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A relative link, image, reference definition or HTML `href`/`src` (not to a Dockerfile: see
    `references`) whose target, read from `directory` (a leading `/` from the repository root, or, in a
    checkout without one, from the folders up to `project`: `link_roots`), does not exist. Not for URLs,
    anchors, placeholders, pages of the repository's host (`../../issues`), a relative link leading out
    of the repository root (else the project folder), files a command of the README makes, files git
    ignores or in a generated folder (`site/`, `build/`), files that may be in a git submodule not
    fetched (`paths.Submodules`). In a MkDocs docs folder, site paths (no file
    suffix, `.html`) are not checked, and a missing page is `likely`, or not checked when a plugin may
    add pages."""
    root = repository_root(directory)
    tops = link_roots(directory, project)  # (relative links are read as before: a checkout may lack both)
    # A relative link leading above the repository (or, in a checkout with no root, the project
    # folder) is not checked: what is there is not the project's.
    bound = root if root is not None else project.resolve() if project is not None else None
    site = _site_folder(directory, root)
    patterns = gitignore_patterns([directory.resolve(), *([root] if root is not None else [])], root)
    made = made_names(doc)
    listings = Listings()
    submodules = Submodules(doc)
    seen: set[tuple[int, str]] = set()
    for line, target in doc.destinations:
        target = target.strip()
        wrapped = _WRAPPED_URL.fullmatch(target)
        if wrapped is not None:  # `[x]((https://…))`: read as a relative path, the link is broken
            yield Diagnostic(
                readme,
                line,
                f"README links to {target}, a malformed link: the address {wrapped.group(1)} is wrapped in "
                "parentheses",
                confidence=CERTAIN,
            )
            continue
        if (
            not target
            or target.startswith(("#", "//", "?"))
            or SCHEME.match(target)
            or _UNREAD.search(target)
        ):
            continue
        path = reference_path(target)
        name = basename(path)
        if not path.strip("/.") or is_dockerfile_name(name) or _GITHUB_PAGE.match(path) or DOMAIN.match(path):
            continue
        bases = tops if path.startswith("/") else [directory.resolve()]
        fulls = [(b, Path(os.path.normpath(b / path.lstrip("/")))) for b in bases]
        if not fulls or any(
            os.path.exists(full) or not _inside(full, base if path.startswith("/") else bound)
            for base, full in fulls
        ):
            continue
        base, full = fulls[-1]
        if site and (path.endswith("/") or "." not in name or name.endswith((".html", ".htm"))):
            continue
        if "/" not in path and "." not in name and _sphinx_page(doc):
            continue  # `[Data](pretrain-data)` in a MyST page: a cross-reference label, not a file
        if "." not in name and any(os.path.isfile(full.with_name(name + page)) for page in _PAGE_SUFFIXES):
            continue  # `(./tutorials/consuming)` beside `tutorials/consuming.md`: a docs site's page link
        if site == "pages" and name.endswith(".md"):
            continue
        if ignored(full, patterns) or any(p in GENERATED or p in made for p in Path(path).parts):
            continue
        if submodules.holds(full, base if path.startswith("/") else directory):
            continue  # a file of a git submodule: a checkout holds it only once the submodule is fetched
        if (line, path) in seen:
            continue
        seen.add((line, path))
        if path.startswith("/"):
            fixed = corrected(base, path, listings)
            moved = None if fixed is None else "/" + fixed
        else:
            moved = _moved(directory, root, path, listings)
        hint = f" (did you mean {moved}?)" if moved else ""
        yield Diagnostic(
            readme,
            line,
            f"README links to {path}, which does not exist{hint}",
            confidence=LIKELY if site else CERTAIN,
        )


_COMMAND_ADDRESS = re.compile(
    r"https?://(?:www\.)?(?:raw\.githubusercontent\.com|github\.com)/[^\s'\"<>()`|;&]+"
)
"""A GitHub file address in a command (`wget https://raw.githubusercontent.com/o/app/main/run.sh`)."""
_ROOT_COMMON = re.compile(
    r"(?i)(?:readme|license|licence|changelog|requirements[\w-]*|setup|pyproject|makefile|dockerfile"
    r"|docker-compose|compose|package|environment|\.gitignore|\.dockerignore)(?:\.\w+)*\Z"
)
"""Names any repository may hold at its root: found there, they tell nothing of which repository it is."""
_PLACEMENT_DEPTH = 6
"""Folders above the README tried as the repository's root when no `.git` tells it."""


def command_addresses(doc: Document) -> list[tuple[int, str]]:
    """(README line, address) of each GitHub file address in a command block or inline command (`wget
    …/run.sh`, `curl -O …`), its trailing punctuation off; not in a diagram."""
    found: list[tuple[int, str]] = []
    for fence in doc.fences:
        if fence.lang.lower() in _DIAGRAMS:
            continue
        for line, text in fence.lines:
            if "github" not in text:
                continue
            for match in _COMMAND_ADDRESS.finditer(text.split(" #", 1)[0]):
                found.append((line, match.group(0).rstrip(".,:")))
    return found


def _placements(directory: Path, top: Path) -> list[Callable[[str], Path | None]]:
    """For a README outside any checkout: each way of reading a path from the repository's root, the
    README's folder being at the root, one folder below it, two … (`Lab02/README.md`: a path
    `Lab02/run.sh` is the README's neighbour). A root above `top` is never read: a path is then
    read from the README's folder when its first parts are the folders the README is in."""
    home = directory.resolve()
    parts = home.parts
    ways: list[Callable[[str], Path | None]] = []
    for depth in range(min(_PLACEMENT_DEPTH, len(parts) - 1) + 1):
        above = home.parents[depth - 1] if depth else home
        prefix = "/".join(parts[len(parts) - depth :]) if depth else ""

        def place(path: str, above: Path = above, prefix: str = prefix) -> Path | None:
            if _inside(above, top):
                return Path(os.path.normpath(above / path))
            if prefix and path.startswith(prefix + "/"):
                return Path(os.path.normpath(home / path[len(prefix) + 1 :]))
            return None

        ways.append(place)
    return ways


def _own_files(
    destinations: Sequence[tuple[int, str]],
    directory: Path,
    root: Path | None,
    top: Path,
    said: Collection[str] = (),
) -> tuple[dict[tuple[int, str], tuple[Path, str, str]], Path]:
    """(README line, target) → (the file here, path from the root, confidence) of each link or command
    address to a file or folder of the README's own repository on GitHub at the branch checked out
    (`own_repo.forge_file`; at `main` or `master` when the checkout does not say), and the root the
    paths are read from. The repository is its own when a remote of the checkout names it (`certain`
    on the branch checked out, else `likely`); in a copy with no remote, when the README tells it
    (`said`: its clone of itself, a badge; `certain`), or, for a file in a folder that holds a file
    another address of that repository names (not a name any root has: `README.md`, `Dockerfile`), as
    the folder of that file: `certain` when it is the README's own folder (the README fetches its
    neighbours, `Lab02/README.md` and `…/main/Lab02/run.sh`), else `likely`. A file in another folder is
    not read: a project that copied another's folder (`docker/` of the project it forked) holds the
    paths of that project's links into that folder, not into the rest of its tree. A checkout whose
    remotes name other repositories reads no other one as its own."""
    branch = checked_out(root)
    read = [
        (line, target, found)
        for line, target in destinations
        if "github" in target and (found := forge_file(target, (branch,) if branch else DEFAULT_BRANCHES))
    ]
    home = root if root is not None else directory.resolve()
    if not read:
        return {}, home
    remotes = remote_names(root)
    if remotes:
        named = {(repo, ref) for _, _, (repo, ref, _) in read if repo in remotes}
        confidence = CERTAIN if branch else LIKELY
        return {
            (line, target): (Path(os.path.normpath(home / path)), path, confidence)
            for line, target, (repo, ref, path) in read
            if (repo, ref) in named
        }, home
    ways: list[Callable[[str], Path | None]] = (
        [lambda path: Path(os.path.normpath(home / path))]
        if root is not None
        else _placements(directory, top)
    )
    best = (-1, 0)  # (files found, -depth) of the best way
    chosen = ways[0]
    held: set[tuple[str, str]] = set()  # (repository, folder) of a file an address names, found
    for depth, way in enumerate(ways):
        there = set()
        for repo, path in {(repo, path) for _, _, (repo, _, path) in read}:
            full = way(path)
            bare = path.strip("/")
            if full is not None and os.path.isfile(full) and ("/" in bare or not _ROOT_COMMON.match(bare)):
                there.add((repo, posixpath.dirname(bare)))
        if (len(there), -depth) > best:
            best, chosen, held = (len(there), -depth), way, there
    own: dict[tuple[int, str], tuple[Path, str, str]] = {}
    readme_folder = directory.resolve()
    for line, target, (repo, _, path) in read:
        full = chosen(path)
        folder = posixpath.dirname(path.strip("/"))
        if full is None:
            continue
        if repo in said:
            own[(line, target)] = (full, path, CERTAIN)
        elif (repo, folder) in held:  # its folder holds a file another of its addresses names
            neighbour = os.path.realpath(full.parent) == str(readme_folder)
            own[(line, target)] = (full, path, CERTAIN if neighbour else LIKELY)
    placed = chosen(".")
    return own, placed if placed is not None else home


def _renamed_neighbour(full: Path, path: str, listings: Listings) -> str | None:
    """The one file of the folder of `full` whose name is that of `path` but for words added or dropped
    at its start (`run_cpu.sh` for `arm_02_run_cpu.sh`), as a path beside `path`; None when none or
    several."""
    name = posixpath.basename(path)
    found = [
        entry
        for entry, _ in listings(full.parent)
        if len(min(entry, name, key=len)) >= 6
        and (name.endswith(("_" + entry, "-" + entry)) or entry.endswith(("_" + name, "-" + name)))
        and os.path.isfile(full.parent / entry)
    ]
    return posixpath.join(posixpath.dirname(path), found[0]) if len(found) == 1 else None


def missing_own_files(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None = None,
    said: Collection[str] = (),
) -> Iterator[Diagnostic]:
    """A link or a command's address (`wget https://raw.githubusercontent.com/o/app/main/run.sh`) to a
    file or folder of the README's own repository by its GitHub address (`[tts-train](https://raw.
    githubusercontent.com/o/app/master/coqui-tts/tts-train)`, `…/blob/main/x`: `_own_files`) that the
    checkout does not hold: the file is gone, moved or renamed. `said`: the repositories the README
    tells are its own (`steps.said_remotes`). Not for another repository, another ref (a tag, a commit,
    another branch may hold it), files git ignores, in a generated folder (`site/`, `build/`) or a
    submodule, as for a relative link; a link, not a command's address, to a file a command of the
    README makes (`wget …/model.bin` then a link to it) is not told either."""
    root = repository_root(directory)
    top = (project or directory).resolve() if root is None else root
    commands = command_addresses(doc)
    fetched = set(commands)
    own, base = _own_files([*doc.destinations, *commands], directory, root, top, said)
    if not own:
        return
    patterns = gitignore_patterns([directory.resolve(), base], base)
    made: set[str] | None = None
    listings = Listings()
    submodules = Submodules(doc)
    seen: set[tuple[int, str]] = set()
    for (line, target), (full, path, confidence) in own.items():
        if os.path.exists(full) or not _inside(full, top) or _UNREAD.search(path) or (line, path) in seen:
            continue
        parts = Path(path).parts
        if any(p in GENERATED for p in parts) or ignored(full, patterns):
            continue
        if (line, target) not in fetched:
            if made is None:
                made = {w.removeprefix("./").removesuffix(".git") for w in made_names(doc, whole=True)}
            if parts[-1] in made or any("/".join(parts[:n]) in made for n in range(1, len(parts) + 1)):
                continue  # `wget …/run.sh`, `mkdir -p download/amd64`: a command of the README makes it
        if submodules.holds(full, base):
            continue  # a file of a git submodule, not fetched
        seen.add((line, path))
        fixed = corrected(base, path, listings) if _inside(base, top) else None
        if fixed is None and (line, target) in fetched:
            fixed = _renamed_neighbour(full, path, listings)
        hint = f" (did you mean {fixed}?)" if fixed else ""
        how = "fetches" if (line, target) in fetched else "links to"
        yield Diagnostic(
            readme,
            line,
            f"README {how} {path} of its own repository ({target}), which does not exist{hint}",
            confidence=confidence,
        )


_PAGE_SUFFIXES = (".md", ".mdx")
"""The files a docs site builds a page from: a link to `page` (no suffix) is to `page.md` or `page.mdx`
(Hugging Face's doc-builder, Docusaurus, MkDocs with directory URLs)."""
PATH = re.compile(r"(?:\./)?[\w.+-]+(?:/[\w.+-]+)*/?")
SUFFIXES = frozenset(
    "sh bash zsh ps1 bat py ipynb md rst txt yml yaml json toml cfg ini conf env patch diff cmake mk"
    " c cc cpp h hpp cu js ts go rs java xml html csv lock sql".split()
)
"""File suffixes that make a name in code a file (`build_docker.sh`), not a module or a version."""
SCRIPT_SUFFIXES = frozenset({"sh", "bash", "zsh", "py"})
"""Suffixes of scripts run by their exact name (on a file system that tells cases apart): another case
is another file to run. Not Windows' `.bat` or `.ps1`, whose file system does not."""
PLACEHOLDER = re.compile(
    r"(?:^|/)(?:path/to|your[\w-]*|my[-_][\w-]*|some[-_]?\w*|foo|bar|baz|hoge|fuga|piyo|xxx+|\.\.\.|"
    r"name[-_]of[-_][\w-]+|(?:(?:the|a|an|script|file|program|module|app)[-_])*(?:file|script)?[-_]?name)"
    r"(?:/|$|\.)",
    re.I,
)
"""A path or name that stands for the reader's own (`path/to/…`, `your_config.yaml`, `my-app`,
`foo.py`, Japanese `hoge.py`) or says in words what to put there (`name_of_the_script.sh`, `name_of_file.py`,
`SCRIPT_NAME.sh`, `filename`): no file of the repository is meant. A real name that holds `name` among
words of its own (`run_name.sh`, `dataset_name.py`, `names.txt`) is not one."""


def code_paths(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, text) of each code span in the prose, table cells and headings, except those in the
    text of a link (the link's target is what is checked)."""
    lines = [line for para in doc.paragraphs for line in para.lines]
    lines += [(number, " | ".join(cells)) for table in doc.tables for number, cells in table.rows]
    lines += [(table.line, " | ".join(table.header)) for table in doc.tables]
    lines += doc.headings
    for number, text in lines:
        if "`" not in text:
            continue
        linked = [(link.text_start, link.text_end) for link in links(text)] if "](" in text else []
        for start, _, code in code_spans(text):
            if not any(a <= start < b for a, b in linked):
                yield number, code.strip()


_MERMAID_WORD = re.compile(r"[\w.+/-]+")


def _mermaid_names(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, word) of each word of a ```` ```mermaid ```` diagram that may be a file of the
    repository (a node's id or label: `src --> resolv.conf`, `A[build.sh]`); `misspelt_paths` keeps
    those with a `/` or a file suffix. An absolute path is a file in the image, not the repository's."""
    for fence in doc.fences:
        if fence.lang.lower() != "mermaid":
            continue  # (the other diagram languages are not read)
        for line, text in fence.lines:
            for word in _MERMAID_WORD.findall(text):
                word = word.strip("-.")
                if "." in word and not word.startswith("/") and "//" not in word:
                    yield line, word


_PLAIN_COMPOSE = re.compile(r"(?<![\w./`-])((?:docker-)?compose[\w.-]*\.ya?ml)(?![\w./`-])")
"""A compose file named in plain prose (`A docker-compose.yaml file has been provided`): a name that is
a file of the repository however it is written."""


def _plain_compose_names(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, name) of each compose file named in the prose outside code and links (`code_paths`
    has those in code)."""
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "compose" not in text or "://" in text:
                continue
            spans = [(start, end) for start, end, _ in code_spans(text)] if "`" in text else []
            spans += [(link.start, link.end) for link in links(text)] if "](" in text else []
            for match in _PLAIN_COMPOSE.finditer(text):
                if not any(a <= match.start() < b for a, b in spans):
                    yield number, match.group(1)


_PLAIN_FOLDER = re.compile(r"(?<![\w./:@~$%{}<>\\-])([A-Za-z_][\w.-]*[A-Za-z0-9_](?:/[\w.-]+)*/)(?![\w./-])")
"""A folder named in plain prose by its name and a trailing slash (`the scripts in test_scripts/`,
`under configs/local/`): not in an address or an absolute, home or variable path (what stands before it
is no part of a path), not `and/or` (the slash ends the word)."""
_ADDRESS = re.compile(r"(?<!\S)\S*://\S*|\bwww\.\S*")
"""A web address, from the start of its word (the leftmost match always starts there; trying from each
letter of a long word would read it once per letter)."""


def _plain_folder_names(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, path) of each folder named in the prose outside code and links by its name and a
    trailing slash (`_PLAIN_FOLDER`); `code_paths` has those in code."""
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "/" not in text:
                continue
            spans = [(start, end) for start, end, _ in code_spans(text)] if "`" in text else []
            spans += [(link.start, link.end) for link in links(text)] if "](" in text else []
            spans += [match.span() for match in _ADDRESS.finditer(text)]
            for match in _PLAIN_FOLDER.finditer(text):
                if not any(a <= match.start() < b for a, b in spans) and not DOMAIN.match(match.group(1)):
                    yield number, match.group(1)


def line_texts(doc: Document) -> dict[int, str]:
    """README line → its text as the prose, a table row (cells joined by ` | `) or a heading holds it;
    the first of them that holds the line."""
    texts: dict[int, str] = {}
    for para in doc.paragraphs:
        for number, text in para.lines:
            texts.setdefault(number, text)
    for table in doc.tables:
        for number, cells in table.rows:
            texts.setdefault(number, " | ".join(cells))
    for number, text in doc.headings:
        texts.setdefault(number, text)
    return texts


def prose_bases(directory: Path) -> list[Path]:
    """The folders a file prose names is read from: the README's, then the repository root."""
    root = repository_root(directory)
    return [directory, *([root] if root is not None and root != directory.resolve() else [])]


def prose_fix(bases: list[Path], path: str, suffix: str, listings: Listings) -> str | None:
    """The path a slip away from `path` (`corrected`) in the first of `bases` that has one; not one
    that differs only in case unless `suffix` is a script's: prose writes names in any case
    (`readme.md`), but a script is run by its name."""
    fixed = next((f for base in bases if (f := corrected(base, path, listings)) is not None), None)
    if fixed is None or (fixed.lower() == path.lower() and suffix not in SCRIPT_SUFFIXES):
        return None
    return fixed


_SUFFIX_TWINS = {"yaml": "yml", "jpeg": "jpg", "htm": "html"}
"""Suffixes one file type is written with either way (`docker-compose.yml`, `docker-compose.yaml`)."""


def _spelt_alike(path: str, fixed: str) -> bool:
    """True when `fixed` is `path` but for case, separators (`-`, `_`, `.`) and a suffix written the
    other way (`.yml` for `.yaml`): the same name typed as a reader would say it, not another file."""

    def spelling(part: str) -> str:
        stem, dot, suffix = part.rpartition(".")
        if dot and stem:
            part = f"{stem}.{_SUFFIX_TWINS.get(suffix.lower(), suffix)}"
        return name_key(part)

    said, meant = path.split("/"), fixed.split("/")
    if len(said) != len(meant):
        return False
    return all(spelling(a) == spelling(b) for a, b in zip(said, meant, strict=True))


def misspelt_paths(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A path in code in the prose (`` `.github/workflow/main.yml` ``, `` Run `build.docker.sh` ``), or a
    compose file named in plain prose (`A docker-compose.yaml file has been provided`), that
    is clearly one of the repository's (it has a `/` or a file suffix; not absolute, not a placeholder,
    not a URL, nothing a command of the README makes) and does not exist, while the path with one part
    a slip away does (`near_names`), read from the README's folder or the repository root; not on a line that
    has the reader make, copy or rename a file (`_READER_MAKES`). `certain` when that part is the file's
    name but for case, separators or a suffix written the other way (`docker-compose.yml` for the
    repository's `docker-compose.yaml`, `build-docker.sh` for `build_docker.sh`: no other file is meant),
    or when the file meant is a compose file, which runs the image (docs/audit/index.md, the measured record);
    else `likely` (`workflow/` for `workflows/`)."""
    made = made_names(doc) | in_commands(doc)
    listings = Listings()
    bases = prose_bases(directory)
    seen: set[tuple[int, str]] = set()
    texts: dict[int, str] | None = None  # the text of each line, read once when needed
    owned: set[str] | None = None  # the names the README has the reader make, read once when needed
    drawn = set(_mermaid_names(doc))
    plain = set(_plain_folder_names(doc))
    for line, code in itertools.chain(code_paths(doc), _plain_compose_names(doc), drawn, plain):
        if (
            not PATH.fullmatch(code)
            or code.strip("./") == ""
            or PLACEHOLDER.search(code)
            or DOMAIN.match(code)
        ):
            continue
        path = code.removeprefix("./")
        name = basename(path)
        suffix = name.rsplit(".", 1)[1].lower() if "." in name else ""
        if _misspelt_dockerfile(name) and path not in made and (line, path) not in seen:
            meant = _dockerfile_meant(bases, path, listings)
            if meant is not None:
                if texts is None:
                    texts = line_texts(doc)
                if not _READER_MAKES.search(texts.get(line, "")):
                    seen.add((line, path))
                    yield Diagnostic(
                        readme,
                        line,
                        f"README names {path}, which does not exist (did you mean {meant}?)",
                        confidence=CERTAIN,
                    )
            continue
        folder = path.endswith("/")  # (`test_scripts/`: a folder, by its trailing slash)
        if "/" not in path.rstrip("/") and suffix not in SUFFIXES and not folder:
            continue
        if is_dockerfile_name(name) or any(part in made for part in path.split("/")):
            continue
        if any(os.path.exists(base / path) for base in bases) or (line, path) in seen:
            continue
        fixed = prose_fix(bases, path, suffix, listings)
        if fixed is not None and folder and not any(os.path.isdir(base / fixed) for base in bases):
            fixed = None  # a folder named, a file a slip away: not the one meant
        elif fixed is not None and folder:
            fixed = fixed.rstrip("/") + "/"
        flavoured = False
        if fixed is None:
            fixed = _compose_twin(bases, path, listings)
            flavoured = fixed is not None
        if fixed is None:
            continue
        if texts is None:
            texts = line_texts(doc)
        if _READER_MAKES.search(texts.get(line, "")):
            continue  # `Copy `config.yaml` to `config.yml``: the reader's own file, a slip away on purpose
        if owned is None:
            owned = _readers_files(doc, texts)
        if path in owned:
            continue  # `in your `docker-compose.yml``, after `Create a `docker-compose.yml` file`
        if flavoured and (_YOUR_FILE.search(texts.get(line, "")) or _EXAMPLE.search(texts.get(line, ""))):
            continue  # `add this to your `docker-compose.yml``: the reader's compose file, not a twin
        seen.add((line, path))
        yield Diagnostic(
            readme,
            line,
            f"README names {path}, which does not exist (did you mean {fixed}?)",
            confidence=(
                LIKELY
                if flavoured or (line, code) in drawn or (line, code) in plain
                else CERTAIN
                if _spelt_alike(path, fixed) or COMPOSE_FILE.fullmatch(basename(fixed))
                else LIKELY
            ),
        )


_DOCKERFILE_WORDS = ("dockerfile", "containerfile")


def _misspelt_dockerfile(name: str) -> bool:
    """True when `name` is a Dockerfile's but for the word `Dockerfile` (or `Containerfile`) a letter off
    (`Dockerfil.nvidia.jupyter`, `cuda.dockerfle`); not the plural (`dockerfiles`, a folder's name). A
    Dockerfile name spelt right that names nothing is `references`' to tell."""
    parts = name_key(name).split("_")
    return any(
        part not in _DOCKERFILE_WORDS
        and part.rstrip("s") not in _DOCKERFILE_WORDS
        and any(one_edit(part, word) for word in _DOCKERFILE_WORDS)
        for part in {parts[0], parts[-1]}
    )


def _dockerfile_meant(bases: Sequence[Path], path: str, listings: Listings) -> str | None:
    """The Dockerfile `path` (a Dockerfile's name, or nearly) most likely means when it names nothing: the
    one Dockerfile in its folder, read from the first of `bases` that has any, whose name is the same
    but for case and separators or one letter (`Dockerfile.nvidia-jupyter` for `Dockerfil.nvidia.jupyter`;
    not `Dockerfile.cu12` for `Dockerfile.cu11`). None when the file exists or no single one is meant."""
    folder, _, name = path.rstrip("/").rpartition("/")
    key = name_key(name)
    for base in bases:
        if os.path.exists(base / path):
            return None
    for base in bases:
        entries = [e for e, _ in listings(base / folder if folder else base) if is_dockerfile_name(e)]
        if not entries:
            continue
        near = [e for e in entries if name_key(e) == key or one_edit(key, name_key(e))]
        if len(near) != 1:
            return None
        return f"{folder}/{near[0]}" if folder else near[0]
    return None


_YOUR_FILE = re.compile(r"\b(?:your|yours|own|an?)[ \t]+`+[^`]*compose[^`]*`", re.IGNORECASE)
"""`your `docker-compose.yml``, `a `compose.yaml``: a compose file of the reader's, or any one, not the
repository's."""
_EXAMPLE = re.compile(r"\b(?:example|sample|e\.g\.|such as|following|below|template)\b", re.IGNORECASE)
"""Words of a line that shows a compose file as an example (`an example `docker-compose.yml`:`), which the
reader writes: its name is no claim about the repository's."""
_OVERRIDE = re.compile(r"override", re.IGNORECASE)


def _compose_twin(bases: Sequence[Path], path: str, listings: Listings) -> str | None:
    """The compose file, in the first of `bases` with any, that is the compose file `path` names but for
    one flavour part more (`docker-compose.gpu.yml` or `docker-compose-gpu.yml` for `docker-compose.yml`;
    `.yml` and `.yaml` alike) when it is the only compose file there: the file renamed for its flavour.
    None when `path` is no compose file in a folder of its own or an override file (the reader writes
    it), or when the folder has another compose file (the name may mean any of them, or one of the
    reader's)."""
    name = basename(path)
    if "/" in path.strip("/") or not COMPOSE_FILE.fullmatch(name) or _OVERRIDE.search(name):
        return None

    def parts(file: str) -> tuple[str, str]:
        stem, _, end = file.rpartition(".")
        return stem.lower(), _SUFFIX_TWINS.get(end.lower(), end.lower())

    stem, end = parts(name)
    for base in bases:
        composes = [entry for entry, _ in listings(base) if COMPOSE_FILE.fullmatch(entry)]
        if not composes:
            continue
        if len(composes) != 1 or _OVERRIDE.search(composes[0]):
            return None
        other, other_end = parts(composes[0])
        extra = other[len(stem) :]
        if other_end == end and other.startswith(stem) and re.fullmatch(r"[.-][a-z0-9]+", extra):
            return composes[0]
        return None
    return None


_READER_MAKES = re.compile(
    r"\b(?:creat|generat|renam)(?:e|es|ed|ing)\b|\b(?:writ(?:e|es|ing)|wrote|cop(?:y|ies|ied|ying)"
    r"|(?:sav|mov)(?:e|es|ed|ing))\b|\boutput[ \t]+(?:as|to)\b",
    re.IGNORECASE,
)
"""Words of a line that has the reader make a file (`Create `config.yml``, `copy `.env.example` to
`.env.local``, `rename … to`): the name it gives may be a slip away from the repository's on purpose."""


_READER_COPIES = re.compile(r"\b(?:cop(?:y|ies|ied|ying)|renam(?:e|es|ed|ing)|mov(?:e|es|ed|ing))\b", re.I)
"""Words of a line that has the reader make a file from another (`copy `a` to `b``): only its last name
is made."""


def _readers_files(doc: Document, texts: dict[int, str]) -> set[str]:
    """The paths in code the README has the reader make (`Create a `docker-compose.yml` file`, `Save
    `config.yml``; of `Copy `a.example` to `a``, the last): the reader's own files wherever the README
    names them again (`set it in your `docker-compose.yml``), not slips from the repository's."""
    named: dict[int, list[str]] = {}
    for line, code in code_paths(doc):
        named.setdefault(line, []).append(code.removeprefix("./"))
    owned: set[str] = set()
    for line, codes in named.items():
        text = texts.get(line, "")
        if not _READER_MAKES.search(text):
            continue
        owned.update(codes[-1:] if _READER_COPIES.search(text) else codes)
    return owned


_ITEM_NAME = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*|__|`)?([\w][\w.+-]*)(?:\*\*|__|`)?[ \t]*(?::|-|–|—)[ \t]+\S"
)
"""A list item that starts with a file's name and says what it is (`- build.sh : builds the image`)."""


def listed_files(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A file named at the start of a list item that describes the folder's files (`- Build.sh :
    script to build the image`), when it does not exist while a name a slip away does (another case
    too, for a script: it is run by its name) and another item of the list names a file that exists:
    the list describes this folder, and names one file wrongly (`likely`; `certain` when only the letter
    case differs, `Build.sh` for `build.sh`: no other file is meant, and Linux, where the script runs,
    tells the two apart). Not in code (see `misspelt_paths`), not a Dockerfile (see `references`),
    nothing a command of the README makes."""
    bases = prose_bases(directory)
    made = made_names(doc) | in_commands(doc)
    listings = Listings()
    for block in lists(doc):
        named = [(line, m.group(1)) for line, text in block.items if (m := _ITEM_NAME.match(text))]
        if not any(any(os.path.isfile(base / name) for base in bases) for _, name in named):
            continue
        for line, name in named:
            suffix = name.rsplit(".", 1)[1].lower() if "." in name else ""
            if suffix not in SUFFIXES or is_dockerfile_name(name) or name in made or PLACEHOLDER.search(name):
                continue
            if any(os.path.exists(base / name) for base in bases):
                continue
            fixed = prose_fix(bases, name, suffix, listings)
            if fixed is None:
                continue
            yield Diagnostic(
                readme,
                line,
                f"README lists {name}, which does not exist (did you mean {fixed}?)",
                confidence=CERTAIN if fixed.lower() == name.lower() else LIKELY,
            )


_LICENSE_WORD = re.compile(
    r"(?:\b(?:[Ss]ee|[Rr]ead|[Rr]efer[ \t]+to|[Cc]heck|[Ii]n)[ \t]+(?:the[ \t]+)?"
    r"`?(LICEN[CS]E(?:\.md|\.txt)?)`?"
    r"(?![\w./-])(?:[ \t]+file\b)?"
    r"|(?<![\w./-])`?(LICEN[CS]E(?:\.md|\.txt)?)`?[ \t]+file\b)"
)
"""A sentence naming the licence file of the repository by its file name, no link: `See LICENSE file for
details`, `see `LICENSE``, `in the LICENSE file` (the word in capitals: `see the license` is no file)."""
_OTHER_LICENSE = re.compile(
    r"\b(?:upstream|original|main[ \t]+project|parent|their|its|respective|each|every|other|submodules?"
    r"|third[ -]party|vendor\w*|repositor(?:y|ies)|repo|folder|directory|package)\b|['\u2019]s\b",
    re.IGNORECASE,
)
"""Words of a sentence telling the licence file is another project's or in another folder (`See main
project LICENSE file`, `see the LICENSE file in each folder`, `llama.cpp's LICENSE`)."""
_LICENSE_TO_ADD = re.compile(
    r"\b(?:add|adding|creat(?:e|ing)|generat(?:e|ing)|writ(?:e|ing)|put|putting|plac(?:e|ing)|no|without"
    r"|missing|lacks?)\b[^.!?]*\Z",
    re.IGNORECASE,
)
"""Words before the file's name, in its sentence, telling the reader or the maintainer to make it, or that
it is not there (`Consider adding a `LICENSE` file`, `TODO: create a LICENSE file`, `no LICENSE file
yet`): a file still to make is no claim that it exists. Not `added`, `includes`: those say it is there."""
_LICENSE_LATER = re.compile(
    r"[^.!?]*?\b(?:(?:will|would|is[ \t]+to|to)[ \t]+be[ \t]+(?:added|created|included|provided)"
    r"|(?:is[ \t]+)?(?:not[ \t]+yet|coming[ \t]+soon|TBD|TODO)\b)",
    re.IGNORECASE,
)
"""Words after the name saying it is still to come (`A LICENSE file will be added`, `LICENSE file: TBD`)."""
_LICENSE_FILE = re.compile(r"(?:LICEN[CS]E|COPYING)(?:[.-][\w.-]*)?", re.IGNORECASE)
"""The names a repository's licence file goes by (`LICENSE`, `LICENSE.md`, `LICENCE-MIT`, `COPYING`)."""


def _has_license(folder: Path) -> bool:
    """True when `folder` holds a licence file (`_LICENSE_FILE`), or cannot be read."""
    try:
        return any(_LICENSE_FILE.fullmatch(entry.name) for entry in os.scandir(folder))
    except (OSError, ValueError):
        return True


def named_licenses(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """A sentence sending the reader to the repository's licence file by its name, with no link (`MIT
    License - See LICENSE file for details`), when neither the README's folder nor a folder above it up
    to the repository's root (`link_roots`) holds one (`LICENSE`, `LICENSE.md`, `COPYING` …): the file
    is gone or was never added. Not a sentence about another project's or folder's licence (`See main
    project LICENSE file`, `the LICENSE file of each model`), nor a line that links to it as well (a
    dead link is `missing_links`' to tell), nor one telling to add it (`Consider adding a `LICENSE`
    file`) or that it is to come (`_LICENSE_TO_ADD`, `_LICENSE_LATER`). `certain`: a file name is read,
    as in a link."""
    here = directory.resolve()
    folders = list(dict.fromkeys([here, *link_roots(directory, project)]))
    if any(_has_license(folder) for folder in folders):
        return
    linked = {line for line, _ in doc.destinations}
    for paragraph in doc.paragraphs:
        for line, text in paragraph.lines:
            found = _LICENSE_WORD.search(text)
            if found is None or line in linked or _OTHER_LICENSE.search(text):
                continue
            if _LICENSE_TO_ADD.search(text, 0, found.start()) or _LICENSE_LATER.match(text, found.end()):
                continue  # a file the README says to add, or still to come: no claim that it is there
            name = found.group(1) or found.group(2)
            yield Diagnostic(
                readme,
                line,
                f"README names {name} as the repository's licence file, which does not exist",
                confidence=CERTAIN,
            )


ANY_SCRIPT = re.compile(r"(?<![\w-])[A-Za-z][\w-]*\.(?:py|sh)(?![\w-])")
"""A script's name anywhere in a line, after a folder too (`../render.py`)."""
TEXT_SUFFIXES = frozenset({".md", ".rst", ".txt", ".adoc", ".html", ".htm", ".tex", ".org"})
"""Files for readers: one naming a script says no more than the README does (no program makes it)."""
WALK_LIMIT = 5000
"""At most this many entries of the repository are listed for one README."""


def repository_files(root: Path) -> list[Path] | None:
    """The files below `root` (folders whose name starts with a dot left out); None past `WALK_LIMIT`
    entries: a repository too large to tell a file it holds nowhere."""
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        seen += len(dirs) + len(files)
        if seen > WALK_LIMIT:
            return None
        found += [Path(folder) / f for f in files]
    return found


def script_names_in_files(files: Sequence[Path], models: Sequence[ImageModel]) -> set[str] | None:
    """The script names (`ANY_SCRIPT`) the audited Dockerfiles and the files of the repository that are
    no text for readers (code, scripts, build and configuration files: not `TEXT_SUFFIXES`) name, each
    read once up to `MAX_PROJECT_FILE_BYTES` (regular files only); None when an audited Dockerfile cannot
    be read."""
    texts = []
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            return None  # a Dockerfile not read may name any
        texts.append(read[0])
    for path in files:
        if path.suffix.lower() in TEXT_SUFFIXES:
            continue
        try:  # (a regular file only: not a dangling link, a FIFO or a device)
            if not stat.S_ISREG(path.stat().st_mode) or path.stat().st_size > MAX_PROJECT_FILE_BYTES:
                continue
        except OSError:
            continue
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if text is not None:
            texts.append(text)
    return {m.group(0) for text in texts for m in ANY_SCRIPT.finditer(text)}


COMMON_SCRIPTS = frozenset(
    {"setup.py", "manage.py", "__init__.py", "__main__.py", "conftest.py", "get-pip.py", "configure.sh"}
)
"""Names every project or tool has its own of: a sentence naming one may mean any."""


_POINTED = re.compile(
    r"(?i)\b(?:see|check|look[ \t]+(?:at|in|into)|refer[ \t]+to|browse)[ \t]+(?:the[ \t]+)?"
    r"(?:(?:directory|folder)[ \t]+`([\w.-]+)/?`|`([\w.-]+)/?`[ \t]+(?:directory|folder)\b)"
)
"""A sentence sending the reader to a folder of the repository by its name in code: `See the directory
`Dockerfiles` for more details`, `look in the `docs` folder`."""
_WALK_LIMIT = 5000
"""Entries looked at below the README's folder for a folder of that name, at most."""


def _has_folder(top: Path, name: str) -> bool | None:
    """Whether a folder `name` is at or below `top` (links not followed); None when `top` holds more
    entries than `_WALK_LIMIT` (not known)."""
    seen = 0
    for _, folders, files in os.walk(top):
        folders[:] = [f for f in folders if not f.startswith(".")]
        if name in folders or name in files:
            return True
        seen += len(folders) + len(files)
        if seen > _WALK_LIMIT:
            return None
    return False


def pointed_folders(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A folder a sentence sends the reader to (`_POINTED`) that is nowhere at or below the README's
    folder nor at the repository's root, which no command or code block of the README names (a folder
    it makes, clones or mounts) (`likely`): `README points to the directory Dockerfiles, which does not
    exist (folders there: app, worker)`."""
    root = repository_root(directory)
    own = {directory.resolve().name, *([root.name] if root is not None else [])}  # the checkout itself
    named = {word for fence in doc.fences for _, text in fence.lines for word in re.findall(r"[\w.-]+", text)}
    told: set[str] = set()
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" not in text:
                continue
            for found in _POINTED.finditer(text):
                name = found.group(1) or found.group(2)
                if name in told or name in named or name.strip(".") == "" or name in own:
                    continue
                if os.path.exists(directory / name) or (root is not None and os.path.exists(root / name)):
                    continue
                if _has_folder(directory, name) is not False:
                    continue
                told.add(name)
                try:
                    entries = os.scandir(directory)
                    folders = sorted(e.name for e in entries if e.is_dir() and e.name[:1] != ".")
                except OSError:
                    folders = []
                there = f" (folders there: {', '.join(folders[:6])})" if folders else ""
                yield Diagnostic(
                    readme,
                    line,
                    f"README points to the directory {name}, which does not exist{there}",
                    confidence=LIKELY,
                )


def own_addresses(
    addresses: Sequence[tuple[int, str]],
    directory: Path,
    root: Path | None,
    top: Path,
    said: Collection[str] = (),
) -> dict[tuple[int, str], tuple[Path, str, str]]:
    """(README line, address) → (the file here, path from the root, confidence) of each GitHub address
    of `addresses` to a file of the README's own repository (`_own_files`)."""
    return _own_files(addresses, directory, root, top, said)[0]
