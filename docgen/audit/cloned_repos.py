"""Repositories a README lists as in the image that the image never clones: a list of repository links
(`- [ComfyUI-GGUF](https://github.com/city96/ComfyUI-GGUF)`, or one link a line) most of whose
repositories the Dockerfile, or a script it copies, clones by their address, one of which nothing of
the image names (`certain`: an address compared with the addresses cloned, not a name guessed).

Images of plug-ins (ComfyUI custom nodes, web UI extensions, JupyterLab or editor plug-ins) list what
they bake in as links to the repositories, and clone them one by one; a node dropped from the clone list
or never added to it stays in the README.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import CLONE_STEP, clone_operands
from docgen.audit.contents import CONTENTS_HEADING, CONTENTS_INTRO, LATER, copied_context
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.versions import raw_name
from docgen.audit.wording import LIST_ITEM
from docgen.copied import copied_texts
from docgen.markdown import Document, lists
from docgen.model import Diagnostic, ImageModel

_REPO_LINK = re.compile(
    r"\[([^\[\]]{1,100})\]\(<?https?://(?:www\.)?(github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)"
    r"/([\w.-]{1,100})/([\w.-]{1,100}?)(?:\.git)?/?>?\)"
)
"""A link to a repository's home on a forge (no file or folder in it): its text, host, owner, name."""
_ANY_LINK = re.compile(r"\[[^\[\]]{0,200}\]\([^()\s]{0,500}\)")
_WORD = re.compile(r"[^\W_]+")
_MAX_WORDS = 12
"""Words a line may hold beside its link and still be an item naming that repository, not prose."""
_GENERIC = frozenset({"link", "here", "repo", "repository", "github", "source", "code", "homepage"})
"""Link texts that name no repository (`- `ComfyUI-Essentials` - [Link](…)`): its name is used instead."""
_ELSEWHERE = re.compile(
    r"credit|thank|acknowledg|inspir|related|see[ \t]+also|references?\b|resources?\b|\blinks?\b"
    r"|alternative|similar|upstream|based[ \t]+on|\bforks?\b|compar|awesome|recommend|suggest|optional"
    r"|require|prerequisite|\bneed|\bhost\b|\byour?\b|\bwant|community|contribut|sponsor|roadmap|todo|planned",
    re.IGNORECASE,
)
"""Headings and introductions of lists that are not what the image holds: thanks, related projects,
what the reader needs or may add."""
_MIN_CLONED = 3
"""Repositories of a list the image clones at least for the list to be the image's: with fewer, two of
three links may be what it clones and the third the project's own repository or the reader's to fetch."""


@dataclass(frozen=True)
class _Listed:
    """A repository a list item links to."""

    line: int
    label: str
    address: str
    """`github.com/owner/name`, as messages show it."""
    name: str
    """The repository's name, compared as `raw_name` spells it."""
    owned: str
    """Its owner and name, compared as `raw_name` spells them."""
    later: bool
    """The item says it comes later or may not be there (`optional`, `install it yourself`: `LATER`)."""


def _listed(line: int, text: str) -> _Listed | None:
    """The repository a line names, when the line is an item of a list of repositories: exactly one link,
    to a repository's home, and no more than a short description beside it; None otherwise."""
    links = _ANY_LINK.findall(text)
    match = _REPO_LINK.search(text)
    if match is None or len(links) != 1:
        return None
    rest = _ANY_LINK.sub(" ", text)
    if len(_WORD.findall(rest)) > _MAX_WORDS:
        return None
    label, host, owner, name = match.groups()
    label = label.strip("`*_ \t")
    if raw_name(label) in _GENERIC or not raw_name(label):
        label = name
    later = LATER.search(rest) is not None
    return _Listed(line, label, f"{host}/{owner}/{name}", raw_name(name), raw_name(owner + name), later)


def _groups(doc: Document) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """(heading and introduction, lines) of each list of `doc` and each paragraph of lines that is no list
    (one link a line, set apart by line breaks)."""
    for block in lists(doc):
        yield f"{block.heading} {block.intro}", block.items
    for para in doc.paragraphs:
        if any(LIST_ITEM.match(text) for _, text in para.lines):
            continue
        lines = para.lines
        intro = ""
        if lines and lines[0][1].rstrip().endswith(":") and _REPO_LINK.search(lines[0][1]) is None:
            intro, lines = lines[0][1], lines[1:]
        elif para.before.rstrip().endswith(":"):
            intro = para.before
        yield f"{para.heading} {intro}", lines


def _link_lists(doc: Document) -> Iterator[tuple[str, list[_Listed]]]:
    """(heading and introduction, repositories) of each group of lines every one of which is an item
    naming a repository (`_groups`, `_listed`), and of each list of what the image installs (`## Installs`,
    `The image includes:`) whose other items name no repository (`* CUDA 11.8`), an item whose link
    breaks after its `(` joined with its next line (`_contents_links`)."""
    for words, lines in _groups(doc):
        listed = [found for line, text in lines if (found := _listed(line, text)) is not None]
        if len(listed) == len(lines):
            yield words, listed
    yield from _contents_links(doc)


def _contents_links(doc: Document) -> Iterator[tuple[str, list[_Listed]]]:
    """(heading and introduction, repositories) of each list of what the image installs, its items that
    link to a repository (`_listed`), an item whose link breaks after its `(` read with its next line."""
    texts = {line: text for para in doc.paragraphs for line, text in para.lines}
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        intro = block.intro.strip()
        if not (CONTENTS_INTRO.search(intro) if intro else CONTENTS_HEADING.fullmatch(heading)):
            continue
        found = []
        for line, text in block.items:
            if _OPEN_LINK.search(text) and line + 1 in texts:
                text = text.rstrip() + texts[line + 1].strip()
            if (listed := _listed(line, text)) is not None:
                found.append(listed)
        if len(found) < len(block.items):
            yield f"{heading} {intro}", found


_OPEN_LINK = re.compile(r"\]\([ \t]*\Z")
"""An item whose link's target goes on the next line (`* [Deforum extension](` then the address)."""


def cloned_repos(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A repository a list of repository links names (`_link_lists`: every line of the list such an
    item, or the items of a list of what the image installs that link to one) that no image compared
    names, when the list is of what the images clone: at least three of its repositories are cloned by
    their address (owner and name) in a Dockerfile compared or the build-context files it copies, and
    two thirds of them are named there (by address or name). Held: a repository whose name is anywhere
    in those texts. `certain` when docgen reads all the images run; `likely` when one runs what docgen
    cannot read (a script not among its files, a download piped into a shell): it clones what it holds
    one by one, but the script may add one. Not read: a list whose heading or introduction is about
    thanks, related projects, or what the reader needs or may add (`_ELSEWHERE`), or says its items come
    later (`LATER`); an item saying it comes later or is optional (`LATER`) counts among those listed but
    is no claim."""
    contexts = [copied_context(model) for model in auditor.models if model.file]
    if not contexts or len(contexts) != len(auditor.models):
        return
    told: set[int] = set()
    for words, listed in _link_lists(doc):
        if len(listed) < _MIN_CLONED or _ELSEWHERE.search(words) or LATER.search(words):
            continue
        cloned = sum(1 for repo in listed if any(repo.owned in text for text, _, _ in contexts))
        named = sum(1 for repo in listed if any(repo.name in text for text, _, _ in contexts))
        if cloned < _MIN_CLONED or 3 * max(cloned, named) < 2 * len(listed):
            continue
        unread = any(run_unread for _, run_unread, _ in contexts)
        for repo in listed:
            if repo.later or repo.line in told or any(repo.name in text for text, _, _ in contexts):
                continue
            told.add(repo.line)
            model = auditor.models[0]
            said = (
                f"README lists {repo.label} ({repo.address}) as in the image but {model.path} and the "
                f"files it copies never clone it (they clone {cloned} of the {len(listed)} repositories "
                "listed)"
            )
            yield Diagnostic(auditor.path, repo.line, said, confidence=LIKELY if unread else CERTAIN)


_FORGE = r"(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)"
_README_REPO = re.compile(
    r"\b(?:image|container|dockerfile|docker[ \t]+setup|build|port)s?[ \t]+(?:for|of)[ \t]+(?:the[ \t]+)?"
    r"(?:latest[ \t]+)?(?:\[[^\[\]`]{0,100}\]\(<?https?://(?:www\.)?"
    + _FORGE
    + r"/([\w.-]{1,100})/([\w.-]{1,100}?)(?:\.git)?/?>?\)|`?https?://(?:www\.)?"
    + _FORGE
    + r"/([\w.-]{1,100})/([\w.-]{1,100}?)(?:\.git)?/?`?(?![\w./-])|`([\w.-]{1,100})/([\w.-]{1,100})`)",
    re.IGNORECASE,
)
"""A README naming the project its image is for by its repository: `Docker image for
[owner/name](https://github.com/owner/name)`, `container of https://github.com/owner/name`, `image for
`owner/name``: owner and name, from whichever of the three spellings matched."""
_ADDRESS = re.compile(
    r"("
    + _FORGE
    + r"|huggingface\.co/spaces)[/:]([\w.-]{1,100})/([\w.-]{1,100}?)(?:\.git)?(?=[\s/\"'@#]|\Z)",
    re.IGNORECASE,
)
"""A forge address, or a Hugging Face Space's (a Space is a git repository of an app), in a text: host,
owner and name."""
_ITEM_LINK = re.compile(
    r"\[([^\[\]]{1,100})\]\([ \t]*<?https?://(?:www\.)?(" + _FORGE + r"|huggingface\.co/spaces)"
    r"/([\w.-]{1,100})/([\w.-]{1,100}?)(?:\.git)?/?>?[ \t]*\)",
    re.IGNORECASE,
)
"""A list item's link to a repository's home (its text may break the line after `(`): label, host, owner,
name."""
_TOLD_APART = re.compile(
    r"\bforks?\b|\bforked\b|\bbased[ \t]+on\b|\bupstream\b|\boriginal\b|\bthanks?\b", re.I
)
"""Words of an item telling the linked project from what the image builds (`fork of`, `based on`)."""
_ITEM_SPAN = 4
"""Lines an item may run over (a link broken after its `(`)."""
_GIT_PLUS = re.compile(r"\bgit\+(\S+)")
"""`pip install git+https://github.com/owner/name`: the address installed."""


def _addresses(keyword: str, args: str) -> Iterator[str]:
    """The addresses an instruction clones (`git clone URL`), installs (`git+URL`) or ADDs."""
    if keyword == "ADD":
        yield args
        return
    for match in CLONE_STEP.finditer(args):
        if operands := clone_operands(match.group(1).split(), "\"'"):
            yield operands[0]
    yield from (m.group(1) for m in _GIT_PLUS.finditer(args))


def _fetched(model: ImageModel) -> tuple[list[tuple[int, str, str, str]], set[tuple[str, str]]] | None:
    """(Dockerfile line, owner, name, host) of each repository the RUN and ADD instructions of `model` clone,
    install or add, and the (owner, name) of every forge address they or the build-context files the
    Dockerfile copies name, lower-cased; None when it cannot be told: the Dockerfile unread, more copied
    than docgen reads, or a clone of an address a variable gives."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    copies = copied_texts(model.file, model.context_copies)
    if copies is None:
        return None
    fetched: list[tuple[int, str, str, str]] = []
    named: set[tuple[str, str]] = set()
    texts = [text for _, text in copies[0]]
    for inst in read[1].instructions:
        if inst.keyword not in ("RUN", "ADD"):
            continue
        texts.append(inst.args)
        for address in _addresses(inst.keyword, inst.args):
            if "$" in address and inst.keyword == "RUN":
                return None  # a clone of an address a variable gives: any repository
            fetched.extend(
                (inst.start_line, m.group(2), m.group(3), m.group(1)) for m in _ADDRESS.finditer(address)
            )
    for text in texts:
        named.update((m.group(2).lower(), m.group(3).lower()) for m in _ADDRESS.finditer(text))
    return fetched, named


def _installed_links(doc: Document) -> Iterator[tuple[int, str, str, str]]:
    """(line, label, owner, name) of each item of a list of what the image installs (`## Installs`, `The
    image includes:`, as `listed_contents` reads them) that links to a repository's home (`* [LLaVA](
    https://github.com/haotian-liu/llava) v1.1.3`, the link broken over two lines). Not read: a list of
    thanks, related projects or what the reader adds (`_ELSEWHERE`), or of what comes later (`LATER`);
    an item telling the project from what the image builds (`fork`, `based on`: `_TOLD_APART`) or saying
    it comes later."""
    texts = {line: text for para in doc.paragraphs for line, text in para.lines}
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        intro = block.intro.strip()
        words = f"{heading} {intro}"
        if not (CONTENTS_INTRO.search(intro) if intro else CONTENTS_HEADING.fullmatch(heading)):
            continue
        if LATER.search(words) or _ELSEWHERE.search(words):
            continue
        starts = [line for line, _ in block.items]
        for index, (line, text) in enumerate(block.items):
            end = min(starts[index + 1] if index + 1 < len(starts) else line + _ITEM_SPAN, line + _ITEM_SPAN)
            parts = [text]
            for after in range(line + 1, end):
                if after not in texts:
                    break
                parts.append(texts[after].strip())
            item = " ".join(parts)
            match = _ITEM_LINK.search(item)
            if match is None or _TOLD_APART.search(item) or LATER.search(_ANY_LINK.sub(" ", item)):
                continue
            yield line, match.group(1).strip("`*_ \t"), match.group(3), match.group(4)


def _names_home(text: str, owner: str, name: str) -> bool:
    """`text` names the repository `owner/name` itself (`someone/Tool`, a link to its home), not only a
    longer name (`someone/Tool-docker`) or a page inside it (`someone/Tool/tree/branch`, a reference)."""
    home = rf"(?<![\w.-]){re.escape(owner)}/{re.escape(name)}(?:\.git)?(?![\w.-]|/\w)"
    return re.search(home, text, re.IGNORECASE) is not None


def forked_upstream(doc: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A README saying its image is for a project it names by its repository (`Docker image for
    [ostris/ai-toolkit](https://github.com/ostris/ai-toolkit)`, `_README_REPO`), or listing the project
    as what the image installs by a link to its repository (`## Installs` / `* [InstantStyle](
    https://github.com/InstantStyle/InstantStyle)`, `_installed_links`), while every image compared
    clones, `pip install git+`s or ADDs a repository of that name only from another owner (a fork: `git
    clone https://github.com/someone/ai-toolkit`, or a Hugging Face Space of that name): the image is
    built from the fork, not from the project the README names (`likely`). Silent: the README telling
    of the fork (for `image for`, naming the other owner anywhere; for a list item, naming the other
    owner's repository, `owner/name`, anywhere, or the item's own words of a fork), an image whose RUN,
    ADD or copied files name the project's own address anywhere, one that clones an address a variable
    gives or copies more than docgen reads, a repository of another name (a plug-in of the project),
    and the project being this repository (its git remote). `text`: the whole README."""
    said: list[tuple[int, str, str, str | None]] = [
        (line, m.group(1) or m.group(3) or m.group(5), m.group(2) or m.group(4) or m.group(6), None)
        for para in doc.paragraphs
        for line, said_text in para.lines
        if "/" in said_text
        for m in _README_REPO.finditer(said_text)
    ]
    said.extend((line, owner, name, label) for line, label, owner, name in _installed_links(doc))
    if not said or not auditor.models:
        return
    images = [_fetched(model) for model in auditor.models]
    if any(image is None for image in images):
        return
    words = {w.lower() for w in re.findall(r"[\w.-]+", text)}
    root = repository_root(Path(auditor.models[0].file).parent) if auditor.models[0].file else None
    own = remote_names(root)
    reported: set[tuple[str, str]] = set()
    for line, owner, name, label in said:
        key = (owner.lower(), name.lower())
        if key in reported or f"{key[0]}/{key[1]}" in own:
            continue
        forks: list[tuple[str, int, str, str, str]] = []  # (Dockerfile, line, owner, name, host)
        for model, image in zip(auditor.models, images, strict=True):
            assert image is not None
            fetched, named = image
            if key in named:
                break
            forks.extend(
                (model.path, at, o, n, h)
                for at, o, n, h in fetched
                if n.lower() == key[1] and o.lower() != key[0]
            )
        else:
            if not forks:
                continue
            if label is None and any(o.lower() in words for _, _, o, _, _ in forks):
                continue
            if label is not None and any(_names_home(text, o, name) for _, _, o, _, _ in forks):
                continue
            reported.add(key)
            path, at, other, cloned, host = forks[0]
            where = f"{other}/{cloned}"
            if host.lower().startswith("huggingface"):
                where = f"{host}/{where}"
            if label is None:
                claim = f"README says the image is built from {owner}/{name}"
            else:
                claim = f"README lists {label} ({owner}/{name}) as installed"
            yield Diagnostic(
                auditor.path,
                line,
                f"{claim} but {path}:{at} clones {where} (another owner's repository of that name)",
                confidence=LIKELY,
            )


_SOURCE_LABEL = re.compile(
    r"(?:\A|[\s*_>|(-])(?:(?:base|source|build|app(?:lication)?|software|project|code)[ \t]+)?"
    r"(?:repo(?:sitory)?|source(?:[ \t]+repo(?:sitory)?)?)[*_ \t]*[:：][*_ \t]*\Z",
    re.IGNORECASE,
)
"""The words right before an address that label it as the image's source (`Base Repository:`,
`**Source:**`, `Repo:`), read on what stands before the address on its line."""
_SOURCE_SENTENCE = re.compile(
    r"\b(?:built|builds?|building|compiled|compiles?|cloned|clones?|install(?:ed|s)?|packag(?:ed|es)"
    r"|provides?|providing|ships?|fetch(?:ed|es)|taken|comes?)\b(?:[^.;:!?]|\.(?=\w)){0,60}\bfrom\b"
    r"(?:[^.;:!?]|\.(?=\w)){0,40}\Z|\bfork\b(?![ \t]+of\b)(?:[^.;:!?]|\.(?=\w)){0,30}\Z",
    re.IGNORECASE,
)
"""A sentence saying the image (or a variant of it) is built or taken from the address that ends it
(`Provides rocm variant from the ROCm fork (`, `built from`), read on what stands before the address."""
_CREDIT = re.compile(
    r"\b(?:thanks?|credits?|inspired|acknowledg\w*|original(?:ly)?|upstream|powered[ \t]+by|visit"
    r"|licen[cs]e[ds]?|cit(?:e|ation)|docs?|documentation|issues?|report|contribut\w*|discuss\w*"
    r"|mirror(?:ed|s)?|instead|no[ \t]+longer|used[ \t]+to|was|were|previous(?:ly)?|formerly|old(?:er)?"
    r"|deprecated|replaced?)\b",
    re.IGNORECASE,
)
"""Words of a line that credit a project, send the reader to its pages, or tell of the past: no claim
of what the image is built from now."""
_FORK = re.compile(r"\bforks?\b(?![ \t]+of\b)", re.IGNORECASE)
"""The word of a fork the image is built from (`the ROCm fork`), not of the project forked (`a fork of`)."""
_SAID_ADDRESS = re.compile(
    r"\[[^\[\]]{0,100}\]\([ \t]*<?(https?://(?:www\.)?"
    + _FORGE
    + r"/[\w.-]{1,100}/[\w.-]{1,100})/?>?[ \t]*\)"
    r"|<?(https?://(?:www\.)?" + _FORGE + r"/[\w.-]{1,100}/[\w.-]{1,100}?)(?:\.git)?/?>?(?![\w./-])",
    re.IGNORECASE,
)
"""A forge address on a line, as a link to it or written out: the repository's home only."""
_SAID_SLUG = re.compile(
    r"(?<![\w./:@-])(`?)([A-Za-z0-9][\w.-]{0,99})/([A-Za-z][\w.-]{0,99}?)\1(?![\w/.-]|\.\w)"
    r"(?=[)`]|[ \t]+fork\b|[ \t]+repo(?:sitory)?\b|[ \t]*[.,;]?[ \t]*\Z)"
)
"""A repository by its `owner/name` alone, in code, in parentheses, or followed by `fork`/`repository`
(`(ggml-org/llama.cpp)`, `using ann/colmap fork`): read on a line naming a repository or a fork."""
_REPO_WORD = re.compile(r"\b(?:repo(?:sitory)?|fork(?:ed)?)\b", re.IGNORECASE)
_FORK_AFTER = re.compile(r"[ \t]+fork\b", re.IGNORECASE)
_RECIPE_WORDS = frozenset(
    "docker dockerfile dockerfiles container containers image images compose helm chart charts deploy "
    "deployment template templates devcontainer runpod serverless k8s kubernetes ci builder build builds "
    "setup installer infra env environment recipe recipes config configs".split()
)
"""Words of a repository name that make it a recipe for images (`app-docker`), not the software built."""


@dataclass(frozen=True)
class _Source:
    """A repository a README line states as what the image is built from."""

    line: int
    owner: str
    name: str
    fork: bool
    """The line calls it a fork."""
    context: str
    """The line, with the first line of the list item it goes on (which may name the variant)."""


def _stated_sources(doc: Document) -> Iterator[_Source]:
    """Each repository a README line states as the image's source (`_SOURCE_LABEL`, `_SOURCE_SENTENCE`
    right before its address), on a line with no credit or past (`_CREDIT`) and no `image for` claim
    (`forked_upstream` reads those)."""
    for para in doc.paragraphs:
        first = para.lines[0][1] if para.lines else ""
        for line, text in para.lines:
            if "/" not in text or _CREDIT.search(_ANY_LINK.sub(" ", text)) or _README_REPO.search(text):
                continue
            said: list[tuple[int, int, str, str]] = []  # (start, end, owner, name)
            for match in _SAID_ADDRESS.finditer(text):
                address = _ADDRESS.search(match.group(1) or match.group(2))
                if address is not None:
                    said.append((match.start(), match.end(), address.group(2), address.group(3)))
            if _REPO_WORD.search(text):
                bare = _ANY_LINK.sub(lambda m: " " * len(m.group(0)), text)
                said.extend((m.start(), m.end(), m.group(2), m.group(3)) for m in _SAID_SLUG.finditer(bare))
            for start, end, owner, name in said:
                before = text[:start]
                fork_after = _FORK_AFTER.match(text, end) is not None
                if not (fork_after or _SOURCE_LABEL.search(before) or _SOURCE_SENTENCE.search(before)):
                    continue
                item = first if text[:1].isspace() and first is not text else para.before
                yield _Source(
                    line,
                    owner,
                    name.removesuffix(".git"),
                    fork_after or _FORK.search(text[:end]) is not None,
                    f"{text} {item if text[:1].isspace() else ''}",
                )


def _derived(said: str, cloned: str) -> bool:
    """True when the repository name `said` is `cloned` with words added after it (`koboldcpp-rocm` for
    `koboldcpp`): a build of that project for something, none of the added words a recipe's word."""
    if len(said) <= len(cloned) + 1 or not said.startswith(cloned) or said[len(cloned)] not in "-_.":
        return False
    return not any(w in _RECIPE_WORDS for w in re.split(r"[-_.]", said[len(cloned) + 1 :]))


def _preferred(models: Sequence[ImageModel], context: str) -> list[int]:
    """The indexes of `models` whose Dockerfile's path has a word the claim's `context` names (`rocm` in
    `rocm/Dockerfile` for a line of the `rocm` item); all of them when none has."""
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9]+", context)}
    named = [
        i
        for i, model in enumerate(models)
        if words & {w.lower() for w in re.split(r"[/._-]", model.path) if w and w.lower() != "dockerfile"}
    ]
    return named or list(range(len(models)))


def stated_sources(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A repository a README line states as what the image is built from (`Base Repository:
    https://github.com/ann/tool-rocm/`, `Provides the rocm variant from the ROCm fork ([ann/tool-rocm](…))`)
    while the images compared (those whose Dockerfile path the line's list item names, else all) clone,
    `pip install git+` or ADD a repository of another owner or name it derives from, and nothing they
    run or copy names the stated one: `tool` for `tool-rocm` (the stated name the cloned one with words
    added), or, when the line calls the stated repository a fork, a repository of its name under
    another owner (`likely`). Silent: a line crediting a project or sending the reader to its pages
    (`thanks`, `upstream`, `original`, `docs`: `_CREDIT`), the stated repository being this one (its git
    remote) or a recipe of images (`tool-docker`), a stated name shorter than the cloned one (the README
    names the project, the image builds a fork of it: a credit), the same name under another owner
    with no word of a fork (a maintainer's fork of a plug-in; also when the image clones the project the
    stated name derives from too), an image docgen cannot read whole (a clone of an address a variable
    gives, more copied than it reads)."""
    said = list(_stated_sources(doc))
    if not said or not auditor.models:
        return
    images = [_fetched(model) for model in auditor.models]
    if any(image is None for image in images):
        return
    root = repository_root(Path(auditor.models[0].file).parent) if auditor.models[0].file else None
    own = remote_names(root)
    told: set[tuple[int, str]] = set()
    for source in said:
        owner, name = source.owner.lower(), source.name.lower()
        if f"{owner}/{name}" in own or any(w in _RECIPE_WORDS for w in re.split(r"[-_.]", name)):
            continue
        if any(image is not None and (owner, name) in image[1] for image in images):
            continue
        for index in _preferred(auditor.models, source.context):
            image = images[index]
            assert image is not None
            if not source.fork and any(n.lower() == name for _, _, n, _ in image[0]):
                break  # (a repository of its name under another owner: a fork of it, no claim of one)
            found = [
                (at, o, n)
                for at, o, n, _ in image[0]
                if _derived(name, n.lower()) or (source.fork and n.lower() == name and o.lower() != owner)
            ]
            if not found or (source.line, found[0][1]) in told:
                continue
            at, other, cloned = found[0]
            told.add((source.line, other))
            yield Diagnostic(
                auditor.path,
                source.line,
                f"README says the image is built from {source.owner}/{source.name} but "
                f"{auditor.models[index].path}:{at} clones {other}/{cloned}, and nothing the image runs or "
                f"copies names {source.owner}/{source.name}",
                confidence=LIKELY,
            )
            break
