"""Text of a README that reads like a claim about the image but is about something else.

`docgen audit` compares what a README says with the Dockerfile. Some of what a README says is about
other things, and comparing it with the image only gives false alarms:

- the arguments of another build tool (`Required CMake build arguments:` then `` - `TRT_LIB_DIR`: … ``):
  they are passed to `cmake -D`, `make`, `bazel` or `setup.py`, not to `docker build --build-arg`
  (`other_tool_args`);
- the keys of a build script's configuration files: a table under `## Build config files` or
  `### Neutral axis (`conf/build-config.env`)` lists what the script reads from those files (a name for the
  image tag, a registry, a release number), of which only some reach `docker build` (`config_file_keys`);
- the host: a section about building or installing without the container (`## Native build`,
  `(Optional - if not using the container) Download …`, `Example: native build on Windows`) or about
  what the machine needs (`## System requirements`, a list after `ensure that your environment meets
  the following requirements:`) (`aside_lines`, `is_host_intro`), and a sentence saying it is done
  without the container (`run the client without docker (tested with python3.10)`: `without_container`);
- another container tool's recipe: a section headed `Singularity`, `Apptainer`, `Building the .sif`,
  `Conda environment`, `Vagrant` (`is_other_recipe_heading`), unless the heading names Docker too;
- the past: a section headed `Previous versions`, `Older images`, `Legacy` (`aside_lines`), and a table
  column headed as what the project replaced (`| Old | Now |`, `Before`, `Previous setup`, `Removed`):
  its cells name the versions, files and scripts that are gone (`without_past_columns`);
- a list of published images or past releases: sibling sections headed by other versions of one thing
  (`### Image 2.4.1`, `### Image 2.7.1`), but for the one naming the version built now (`release_list_lines`),
  and of entries labelled alike (`Base Image: …`) those whose image is not the one built on now
  (`superseded_entry_lines`);
- a version a sentence says is gone (`removes its vLLM 0.20.2`, `CUDA 11 was dropped`), the release a
  sentence says removed something (`CUDA 13.0+ has removed sm_70 support`) or is another
  component's requirement (`OpenCV 4.13 requires NumPy >= 2`) (`not_current_spans`);
- an open-ended newer release a sentence hedges about (`Python 3.13+ may have limited PyTorch wheels`),
  and in Japanese or Chinese clauses another component's requirement, what the reader could try, or
  what a release removed (`` `transformers` は `torch >= 2.4` を要求する ``, `ROCm 6.4.0 で … 同梱されない`)
  (`not_current_spans`, `_cjk_spans`);
- what a distribution has by default (`Ubuntu 22.04 (JetPack 6.2) defaults to Python 3.10.`), mostly
  why the image installs another (`not_current_spans`);
- a version another package source carries (`The default Ubuntu 24.04 apt repositories contain
  `libze-intel-gpu1` version `23.43.27642.40``), mostly why the image takes the package elsewhere
  (`not_current_spans`);
- a version that belongs to another component than the name right before it: in `The default CUDA
  version used by CMake is 13.0` the 13.0 is CUDA's, not CMake's (`version_owner`);
- a pin in an instruction to edit a file (`change `torch>=2.0.0` to `torch==2.0.0``, `replace X with
  Y`, `将 X 改为 Y`) or given as an example of how to write one (`such as `numpy==1.26.4``):
  how to write a requirement, not what the image has (`edit_example`).

Pure functions over strings; every regular expression runs on one line or one sentence.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from docgen.build_scripts import BUILD, BUILD_COMMAND
from docgen.markdown import Document, cell_spans, pipe_tables, plain, table_cells
from docgen.markers import split_lines

_TOOL_NAMES = (
    r"cmake|bazel(?:isk)?|meson|ninja|\./configure|configure[ \t]+script|autoconf|autotools|setup\.py"
    r"|pip|cargo|gradle|maven|mvn|scons|msbuild|colcon|catkin|npm|yarn|go[ \t]+build"
)
_TOOLS = _TOOL_NAMES + r"|make(?![ \t]+build\b)"
"""Build tools whose arguments a README lists, before the words (`make variables`; `make build args
optional` is no tool's; `configure` alone is a verb)."""
_TOOLS_AFTER = _TOOL_NAMES + r"|make(?=[ \t]*(?:[:.,;)`]|\Z))"
"""The same after the words: `options passed to make:` (`arguments to make the build faster` is none)."""
_OPTION_WORDS = (
    r"(?:build[- ]?)?(?:arg(?:ument)?s?|options?|flags?|variables?|defines?|settings?|parameters?"
    r"|switch(?:es)?)"
)
_OTHER_TOOL_ARGS = re.compile(
    rf"(?<![\w-])(?:{_TOOLS})(?![\w-])[ \t]+(?:(?:build|configure|configuration|compile|cache)[ \t]+)?"
    rf"{_OPTION_WORDS}\b"
    rf"|\b{_OPTION_WORDS}[ \t]+(?:(?:passed|given)[ \t]+)?(?:to|for|of)[ \t]+(?:the[ \t]+)?`?"
    rf"(?:{_TOOLS_AFTER})(?![\w-])"
    r"|(?<![\w-])-D[ \t]*`?[A-Z][A-Z0-9_]*=",
    re.IGNORECASE,
)
"""Words saying that arguments are another tool's: `CMake build arguments`, `make variables`, `options
to setup.py`, `-DTRT_LIB_DIR=…`."""
_DOCKER_ARGS = re.compile(
    r"--build-arg|\bdocker(?:[ \t]+build)?[ \t]+(?:build[- ]?)?arg|\b(?:docker|podman|buildah)[ \t]+build\b"
    r"|\b(?:dockerfile|containerfile)\b|(?-i:\bARGs?\b)",
    re.IGNORECASE,
)
"""Words that make arguments Docker's whatever else is named: `--build-arg`, `Docker build arguments`,
`docker build`, `Dockerfile`, the `ARG` instruction."""


_PAST_HEADER = re.compile(
    r"(?:the[ \t]+)?(?:old|previous(?:ly)?|former(?:ly)?|legacy|deprecated|obsolete|removed|replaced"
    r"|superseded|dropped|eliminated|retired|before|was|prior)"
    r"(?:[ \t]+(?!(?:by|with|in|to|into|for|of|from|as|on|at|than|favou?r)\b)[\w./-]+){0,2}"
    r"(?:[ \t]*\([^()]*\))?",
    re.IGNORECASE,
)
"""A table column's header telling what the project had before (`Old`, `Before`, `Previous setup`,
`Legacy (v1)`, `Removed`), the whole header; not one naming what replaced it (`Replaced by`, `Deprecated in
favour of`, `Old → new`) nor a comparison (`Older than`)."""


def past_columns(header: Sequence[str]) -> list[int]:
    """The indexes of the columns of a table `header` (its cells) headed as the past (`_PAST_HEADER`);
    none when every column is (the table as a whole is then about the past or about something else)."""
    past = [index for index, cell in enumerate(header) if _PAST_HEADER.fullmatch(plain(cell).strip(" \t*_:"))]
    return past if len(past) < len(header) else []


def without_past_columns(text: str) -> str:
    """`text` with the cells of each pipe table column headed as what the project had before
    (`past_columns`: `| Old | vllm-rocm-tq |` under `## What This Eliminates`) replaced by spaces, the
    header kept: a row names the script removed or the wheel replaced (`run-ornith-vllm.sh`, `vllm-0.1.dev1`)
    beside what took its place, and only the other cells say what the project is now. Line numbers and
    the offsets of every other character stay."""
    if "|" not in text or not any(_PAST_HEADER.match(word) for word in _header_words(text)):
        return text
    lines = split_lines(text)
    bare = [line.rstrip("\r\n") for line in lines]
    changed = False
    for header, rows in pipe_tables(bare):
        past = past_columns(table_cells(bare[header]))
        if not past:
            continue
        for index in rows:
            row = bare[index]
            spans = cell_spans(row)
            chars = list(row)
            for column in past:
                if column < len(spans):
                    start, end = spans[column]
                    chars[start:end] = " " * (end - start)
            blanked = "".join(chars)
            if blanked != row:
                lines[index] = blanked + lines[index][len(row) :]
                changed = True
    return "".join(lines) if changed else text


_WORD_IN_CELL = re.compile(r"(?:^|\|)[ \t*_]*([A-Za-z]+)", re.MULTILINE)
"""The first word of a table cell (after its pipe, or first on a line): a cheap look for a past header
before any table is read."""


def _header_words(text: str) -> Iterable[str]:
    """The first word of each cell of `text` that follows a pipe (see `_WORD_IN_CELL`)."""
    return (match.group(1) for match in _WORD_IN_CELL.finditer(text))


def other_tool_args(text: str) -> bool:
    """True when `text` (a heading, a sentence, the introduction of a list or a table) says the
    arguments it is about are another build tool's (`Required CMake build arguments are:`, `Options
    passed to setup.py`) and says nothing of Docker's (`--build-arg`, `Docker build arguments`,
    `docker build`, `Dockerfile`, `ARG`)."""
    return bool(_OTHER_TOOL_ARGS.search(text)) and not _DOCKER_ARGS.search(text)


_CONFIG_FILES = re.compile(
    r"\b(?:config(?:uration)?|settings|env(?:ironment)?)[ \t]+files?\b"
    r"|`[^`\s]{0,200}\.(?:env|conf|cfg|ini|toml)`|(?<![\w.-])\.env\b",
    re.IGNORECASE,
)
"""Words naming configuration files: `Build config files`, `environment file`, `` `conf/build-config.env` ``,
`.env`."""


def config_file_keys(text: str) -> bool:
    """True when `text` (the headings over a table and its introduction) says that what it lists are the
    keys of configuration files (`## Build config files`, `### Neutral axis (`conf/build-config.env`)`) and
    says nothing of Docker's arguments (`--build-arg`, `Dockerfile`, `ARG`): a script reads those files,
    and only some of their keys reach `docker build`, so a key no ARG declares is no claim."""
    return bool(_CONFIG_FILES.search(text)) and not _DOCKER_ARGS.search(text)


# --------------------------------------------------------------------------------------------------
# The host

_NOT_IN_CONTAINER = re.compile(
    r"\bnative(?:ly)?[ \t]+(?:build|install|setup|compil)"
    r"|\b(?:build|install|compil)\w*[ \t]+(?:\w+[ \t]+)?natively\b"
    r"|\bbare[- ]metal\b"
    r"|\bwithout[ \t]+(?:using[ \t]+)?(?:an?[ \t]+|the[ \t]+)?"
    r"(?:docker(?![ \t-]*compose)|containers?|podman)\b"
    r"|\bnot[ \t]+using[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:[\w.-]+[ \t]+){0,3}?(?:docker|containers?)\b"
    r"|\boutside[ \t]+(?:of[ \t]+)?(?:an?[ \t]+|the[ \t]+)?(?:docker|containers?)\b",
    re.IGNORECASE,
)
"""Words saying a section is about working without the container: `Native build`, `bare metal`,
`without Docker`, `(Optional - if not using the TensorRT container)`, `outside the container`."""
_ON_HOST = re.compile(
    r"\b(?:install|build|compil|set[ \t]*up)\w*\b[^.]{0,40}?\b(?:on|to)[ \t]+(?:your|the)[ \t]+"
    r"(?:own[ \t]+|local[ \t]+)?(?:host|machine|workstation|laptop)\b"
    r"|\b(?:host|system|hardware)[ \t]+(?:requirements|prerequisites|setup|installation)\b"
    r"|\bprerequisites?\b|\bpre-requisites?\b"
    r"|\b(?:dev|development|build)[ \t-]+(?:host|machine|workstation)\b"
    r"|\b(?:your|my|our)[ \t]+(?:own[ \t]+|local[ \t]+)?(?:dev|development|build)[ \t-]+box\b"
    r"|\b(?:dev|development|build)[ \t-]+box[ \t-]+(?:host|machine)\b"
    r"|\A[ \t#*_]*(?:前提(?:条件)?|必要(?:な)?(?:環境|条件)|システム要件|動作要件"
    r"|先决条件|前置条件|系统要求|环境要求)",
    re.IGNORECASE,
)
"""Words saying a section is about setting up the host: `Install on your machine`, `Host setup`,
`System requirements`, `Prerequisites` (`## 前提`, `## 先决条件` opening a heading) (what to have before
the image; a plain `Requirements` may be the image's), `Convert the model on an x86 dev host`. A `dev
box` alone is as often the container (a dev-container image: `# Devbox: a CUDA dev box`, `## The dev
box image`) as the host: only `your dev box` or `the dev box host` make it the host."""
_TESTED_ON = re.compile(
    r"\b(?:tested|verified|validated)[ \t]+(?:on\b|"
    r"(?:environments?|envs?|setups?|platforms?|systems?|machines?|hardware|configurations?|specs?)\b)"
    r"|\b(?:environments?|envs?|setups?|platforms?|hardware|systems?)[ \t]+(?:tested|verified|validated)\b"
    r"|検証環境|動作確認環境|验证环境|驗證環境",
    re.IGNORECASE,
)
"""Words of a heading over the machine the author tested on (`## Tested Environment`, `### Tested ENV`,
`### Verified setup`, `Tested on`, `検証環境`): its versions (a driver, a host CUDA toolkit) are that
machine's, not the image's. Not `Test environment` (`# Warp C++ Test Environment` names an image made
for tests), nor `Tested with` (what a README says it tested the image with may be the image's
components)."""
_IMAGE_WORDS = re.compile(r"\b(?:image|container|dockerfile|in[ \t]+docker)\b", re.IGNORECASE)
_HOST_INTRO = re.compile(
    r"\byour[ \t]+(?:own[ \t]+|local[ \t]+)?(?:environment|machine|system|host|computer|workstation|server)\b"
    r"|\bmy[ \t]+(?:own[ \t]+|local[ \t]+|current[ \t]+)?"
    r"(?:environment|machine|system|host|computer|workstation|server|laptop|desktop|pc|setup|rig)\b"
    r"|\b(?:on|of)[ \t]+the[ \t]+host\b|\bhost[ \t]+(?:machine|system|environment)\b"
    r"|\binstall\b[^.:]{0,60}?\b(?:first|beforehand|in[ \t]+advance)\b"
    r"|\b(?:on|for|under)[ \t]+(?:an?[ \t]+)?(?-i:Windows|WINDOWS|macOS|MacOS|Mac|WSL2?)\b"
    r"(?![ \t-]*(?:server[ \t]+)?(?:containers?|base)\b)"
    r"|\b(?-i:Windows|macOS|Mac)[ \t]+users?\b",
    re.IGNORECASE,
)
"""Words of a list's introduction saying its items are the host's: `ensure that your environment meets
the following requirements:`, `on the host:`, `You need to install the following components first:`,
`My system is currently running on the following OS & drivers:` (the author's own machine), or the
reader's desktop system (`For GPU support on Windows, you may need to:`, `Mac users:`): the image is a
Linux one, so what such a list has the reader install (a driver, a CUDA toolkit, WSL) is the machine's.
Not `on Windows containers:` nor `for a Windows base:`, which are about an image."""
_BUILD_WORDS = re.compile(r"\b(?:image|dockerfile|containerfile)\b|build[- ]?arg", re.IGNORECASE)
PAST = re.compile(
    r"\b(?:previous|older|old|past|earlier|former|legacy|deprecated|archived)[ \t]+"
    r"(?:versions?|releases?|images?|tags?|builds?)\b"
    r"|\A[^\w]*(?:legacy|deprecated|archived?)[^\w]*\Z",
    re.IGNORECASE,
)
"""A heading over the past, that `docgen.markdown` does not already skip as a changelog: `Previous
versions`, `Older images`, `Legacy`."""
_STEP_HEADING = re.compile(r"[ \t]{0,3}(?:\d{1,3}[.)]|[-*+])[ \t]+#{1,6}[ \t]+(.*)")
"""A heading inside a list item, as step-by-step guides write them: `2. #### Specify the build path`."""
_CAPTION = re.compile(r"[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)(.+?)(?:\*\*|__)[ \t:]*\Z")
"""A paragraph that is one bold line: the caption of the example below it."""


_OTHER_RECIPE = re.compile(
    r"\b(?:singularity|apptainer|vagrant(?:file)?|virtualbox|lxc|lxd|nix[ \t]+shell)\b"
    r"|[\w*]\.(?:def|sif)\b|\bconda[ \t]+env(?:ironment)?s?\b|\benvironment\.ya?ml\b"
    r"|\bvirtual[ \t]+machines?\b|(?-i:\bVMs?\b)",
    re.IGNORECASE,
)
"""Words naming another tool's recipe than a Dockerfile: a Singularity or Apptainer definition file
(`.def`, `.sif`), a conda environment file, a Vagrant or virtual-machine setup."""
_DOCKER_NAMED = re.compile(r"\b(?:docker\w*|containerfile|podman)\b", re.IGNORECASE)


_JOINED = re.compile(r"[&+,/]|\b(?:and|with|on|in|for)\b", re.IGNORECASE)
"""What joins two subjects in a title: `vLLM ROCm Runtime & Proxmox LXC Suite`, `X in LXC`."""


def is_other_recipe_heading(text: str, title: bool = False) -> bool:
    """True when a heading is about another container or environment tool's recipe (`## Singularity`,
    `### Building the Apptainer image`, `## Conda environment`, `## Vagrant VM`) and does not name
    Docker or a Dockerfile (`## Docker and Singularity` is still the image's). The README's `title` (a
    level-1 heading) that joins the tool to something else (`# MI50 vLLM Runtime & Proxmox LXC Suite`,
    `# vLLM in LXC`) names all the README is about, the image too: no aside."""
    if not _OTHER_RECIPE.search(text) or _DOCKER_NAMED.search(text):
        return False
    return not (title and _JOINED.search(text))


def is_host_heading(text: str, title: bool = False) -> bool:
    """True when a heading (or a heading in a list item, or a bold caption) says its text is about the
    host: building or installing without the container, setting up the machine, or the machine the
    author tested on (`## Tested Environment`, `## 検証環境`), but for the README's `title` (a level-1
    heading): `# ComfyUI verified on RTX 4090` names what the whole README is about, not an aside."""
    if _NOT_IN_CONTAINER.search(text):
        return True
    tested = not title and _TESTED_ON.search(text)
    return bool(_ON_HOST.search(text) or tested) and not _IMAGE_WORDS.search(text)


def is_host_intro(text: str) -> bool:
    """True when the line introducing a list (ending in `:`) says the list is what the host has or needs
    (`Before you start, ensure that your environment meets the following requirements:`), and not
    that it is about the image or its build args (`Build the image on your machine with:`)."""
    if not text.rstrip().endswith((":", "：")) or _BUILD_WORDS.search(text):
        return False
    return bool(_HOST_INTRO.search(text) or is_host_heading(text))


def aside_lines(
    lines: Sequence[str | None], headings: Mapping[int, tuple[int, str]], recipes: bool = True
) -> set[int]:
    """The README lines (1-based) about the host, another tool's recipe or the past, not the image
    audited:

    - under a heading that `is_host_heading` (`## Native build`, `### Without Docker`) or tells the
      past (`## Previous versions`, `## Legacy`) or is about another tool's recipe (`## Singularity`,
      `is_other_recipe_heading`), down to the next heading of the same or a higher level;
    - after a heading in a list item that `is_host_heading` (`2. #### (Optional - if not using the
      container) Download …`), down to the next such step heading or heading;
    - a one-line bold caption that `is_host_heading` (`**Example: Native build on Windows**`).

    `headings`: README line → (level, text) of every heading, those of skipped sections too. `lines`:
    the README's lines, None where nothing is read (docgen blocks, comments). Without `recipes` (no
    Dockerfile is audited: every section is as much the README's as another), another tool's recipe
    sections are kept."""
    found: set[int] = set()
    level: int | None = None  # of the heading the lines are under
    step = False  # under a step heading about the host
    for number, line in enumerate(lines, start=1):
        if number in headings:
            depth, text = headings[number]
            step = False
            if level is not None and depth <= level:
                level = None
            if level is None and (
                is_host_heading(text, title=depth == 1)
                or (recipes and is_other_recipe_heading(text, title=depth == 1))
                or PAST.search(text)
            ):
                level = depth
        elif line is not None and (heading := _STEP_HEADING.match(line)):
            step = is_host_heading(heading.group(1))
        elif line is not None and (caption := _CAPTION.match(line)) and is_host_heading(caption.group(1)):
            found.add(number)
        if level is not None or step:
            found.add(number)
    return found


OFFERING = re.compile(
    r"\bpre-?built\b|\bready-?made\b|\bpublished[ \t]+(?:images?|containers?|tags?|versions?|releases?)\b"
    r"|\bdocker[ \t]*hub\b"
    r"|\b(?:download|pull)(?:ing)?\b[^\n]{0,40}?\b(?:images?|containers?|tags?)\b",
    re.IGNORECASE,
)
"""A heading over a section offering images the reader does not build: `### Option 2: Download
Pre-built Container`, `## Prebuilt images`, `## Pull from Docker Hub`."""


def offered_text(doc: Document, lines: Sequence[tuple[int, str]]) -> str:
    """The text of `lines` under a heading offering pre-built images (`OFFERING`), down to the next
    heading of the same or a higher level: the versions it lists (a table of container versions) are
    images the reader may run without building them."""
    spans: list[tuple[int, int]] = []
    ordered = sorted(doc.headings)
    for index, (at, title) in enumerate(ordered):
        if not OFFERING.search(title):
            continue
        level = doc.levels.get(at, 6)
        end = next((n for n, _ in ordered[index + 1 :] if doc.levels.get(n, 6) <= level), None)
        spans.append((at, end if end is not None else 1 << 30))
    if not spans:
        return ""
    return "\n".join(said for n, said in lines if any(a <= n < b for a, b in spans))


_PULL = re.compile(
    r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s:@`]+)[:@]([^\s`]+)"
)
_HEADING_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+|(?<![\w.])\d{6,8}(?![\w.])")
"""A version or a date in a heading: `### Image 2.4.1`, `### v0.5`, `### 20250110`."""


def release_list_lines(
    lines: Sequence[str | None],
    headings: Mapping[int, tuple[int, str]],
    current: Collection[str] = (),
    components: Collection[str] = (),
) -> set[int]:
    """The README lines of a list of published images or releases, sibling sections (`### Image 2.4.1`,
    `### Image 2.5.1` under `## Available Images`) each true of its own release, a past build, not of
    what the Dockerfile builds now. `lines` and `headings` as for `aside_lines`. A list is either:

    - two sibling sections or more, each headed by a version or a date and each pulling its own tag of
      one repository (`docker pull org/app:05102024`) (`_pulled_entries`);
    - two sibling sections or more whose headings are the same words with other versions
      (`### Image 2.4.1`, `### Image 2.7.1`), whatever each holds: two entries under one heading
      (`cuda12.6` and `cuda12.8` builds of 2.7.1) are still that release's, unless the section runs a
      build (`_versioned_entries`).

    `current`: the versions the audited images are built with (their FROM tags, pins and build arg
    defaults). A section whose heading names one of them is the current release's and stays a claim;
    without them no section of the second kind is set aside (nothing tells the past from the present).
    `components`: the names (lower case) of what the images hold; a heading with one (`### Python 3.11`)
    names a version of that component, a variant, not a release of the image."""
    ordered = sorted(headings)
    found: set[int] = set()
    for index, start in enumerate(ordered):
        level = headings[start][0]
        # the direct subsections of this heading (or of the top of the file, for index -1 below)
        children: list[tuple[int, int]] = []
        child_level: int | None = None
        end = len(lines) + 1
        for other in ordered[index + 1 :]:
            depth = headings[other][0]
            if depth <= level:
                end = other
                break
            child_level = depth if child_level is None else child_level
            if depth <= child_level:
                children.append((other, 0))
        spans = [
            (at, children[i + 1][0] if i + 1 < len(children) else end) for i, (at, _) in enumerate(children)
        ]
        entries = _pulled_entries(lines, headings, spans) + _versioned_entries(
            lines, headings, spans, current, components
        )
        for at, stop in entries:
            if not _names_current(headings[at][1], current):
                found.update(range(at, stop))
    return found


def _pulled_entries(
    lines: Sequence[str | None], headings: Mapping[int, tuple[int, str]], spans: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The sibling sections `spans` (heading line, end) that are entries of a list of published images:
    two or more, each headed by a version or a date and pulling one tag of its own of one repository."""
    entries: list[tuple[int, int, str, str]] = []
    for at, stop in spans:
        pulls = [m for text in lines[at : stop - 1] if text for m in _PULL.finditer(text)]
        if _HEADING_VERSION.search(headings[at][1]) and len({m.groups() for m in pulls}) == 1:
            entries.append((at, stop, pulls[0].group(1).lower(), pulls[0].group(2)))
    if (
        len(entries) >= 2
        and len({e[2] for e in entries}) == 1
        and len({e[3] for e in entries}) == len(entries)
    ):
        return [(at, stop) for at, stop, _, _ in entries]
    return []


_DOTTED = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+)(?![\w.]*\w)")
"""A dotted version standing as a word of a heading (`2.7.1`, `v0.5`), not part of a name (`py3.12`)."""


def _versioned_entries(
    lines: Sequence[str | None],
    headings: Mapping[int, tuple[int, str]],
    spans: Sequence[tuple[int, int]],
    current: Collection[str],
    components: Collection[str] = (),
) -> list[tuple[int, int]]:
    """The sibling sections `spans` whose headings are the same words around other versions: two or
    more (`### Image 2.4.1`, `### Image 2.5.1`, `### Release v0.9`), when `current` is known, and
    none naming one of the `components` (`### Python 3.10`, `### Python 3.11`). A section
    with a build command (`docker build --build-arg BASE=…:6.1.1 .`) is a variant built now, no release
    of the past: it is no entry."""
    if not current:
        return []
    by_words: dict[str, list[tuple[int, int, str]]] = {}
    for at, stop in spans:
        title = headings[at][1]
        versions = _DOTTED.findall(title)
        if len(versions) != 1 or any(text and BUILD.search(text) for text in lines[at : stop - 1]):
            continue
        found = re.findall(r"[a-z][a-z0-9+-]*", _DOTTED.sub(" ", title).lower())
        if any(word in components for word in found):
            continue  # `### Python 3.11`: a variant of a component's version, no release of the image
        words = " ".join(found)
        by_words.setdefault(words, []).append((at, stop, versions[0]))
    return [
        (at, stop)
        for entries in by_words.values()
        if len(entries) >= 2 and len({v for _, _, v in entries}) == len(entries)
        for at, stop, _ in entries
    ]


def _names_current(title: str, current: Collection[str]) -> bool:
    """True when the heading `title` names one of the `current` versions, or a shorter or longer form
    of one (`2.12` for `2.12.1`)."""
    for found in _DOTTED.findall(title):
        if any(c == found or c.startswith(found + ".") or found.startswith(c + ".") for c in current):
            return True
    return False


_TAG_ENTRY = re.compile(
    r"([ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+[*_]*\[?`?([a-z0-9][a-z0-9._/-]*):([A-Za-z0-9_][A-Za-z0-9._-]*)`?\]?"
    r"(?:\([^()\s]*\))?[*_]*[ \t:]*\Z"
)
"""A list item that is only an image reference, the name of an entry (`` - `org/app:0.16.0-t4` ``,
`- **`org/app:2.10.0-cu131`**`, a link to it); its indentation, repository and tag."""
_NOT_TEXT = frozenset({"", "---", "***", "___"})
"""A line that holds nothing of a section: blank, or a thematic break."""
_TAG_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+[*_]*`([^`\s]+)`")
"""A list item that starts with a tag in code (`` - `0.5.8-t5` → SGLang 0.5.8 ``)."""


def catalogue_lines(
    lines: Sequence[str | None], headings: Mapping[int, tuple[int, str]], current: Collection[str]
) -> set[int]:
    """The README lines of a catalogue of published images: list items that are each only the reference
    of an image, two or more of one repository with other tags each naming a version
    (`` - `org/vllm:0.16.0-t4` ``, `` - `org/vllm:0.15.1-t4` ``), with what is nested under each (`- vLLM
    0.16.0`, `- CUDA 13.1.1`, `` - Built on `nvidia/cuda:13.1.1-devel-ubuntu24.04` ``). Each entry is an
    image pushed with its own build args, not the Dockerfile's defaults: an entry whose tag names none of
    the `current` versions (those the audited images are built with) is set aside, and so are a heading
    whose section holds only such entries and whose version is one of their tags' (`##### vLLM 0.16.0`)
    and an item starting with the tag of one alone (`` - `0.5.8-t5` → SGLang 0.5.8 ``). `lines` and
    `headings` as for `aside_lines` (line numbers from 1)."""
    heads = set(headings)
    entries: list[tuple[int, int, str, str]] = []  # (first line, end, repository, tag)
    for index, text in enumerate(lines):
        match = _TAG_ENTRY.match(text or "")
        if match is None or index + 1 in heads:
            continue
        indent = len(match.group(1).expandtabs(4))
        end = index + 1
        while end < len(lines):
            following = lines[end] or ""
            if not following.strip():
                ahead = next((t for t in lines[end + 1 :] if t and t.strip()), None)
                if ahead is None or len(ahead) - len(ahead.lstrip(" \t")) <= indent:
                    break
            elif len(following.expandtabs(4)) - len(following.expandtabs(4).lstrip()) <= indent:
                break
            elif end + 1 in heads:
                break
            end += 1
        entries.append((index + 1, end + 1, match.group(2).lower(), match.group(3)))
    by_repository: dict[str, list[tuple[int, int, str, str]]] = {}
    for entry in entries:
        if _DOTTED.search(entry[3]):
            by_repository.setdefault(entry[2], []).append(entry)
    found: set[int] = set()
    past: dict[str, tuple[int, int]] = {}
    kept: set[str] = set()
    for group in by_repository.values():
        if len({tag for _, _, _, tag in group}) < 2:
            continue
        for start, stop, _, tag in group:
            if _names_current(tag, current):
                kept.add(tag)
            else:
                found.update(range(start, stop))
                past[tag] = (start, stop)
    if not found:
        return found
    for index, text in enumerate(lines):
        item = _TAG_ITEM.match(text or "")
        if item is not None and item.group(1) in past and item.group(1) not in kept:
            found.add(index + 1)
    ordered = sorted(heads)
    for position, at in enumerate(ordered):
        stop = ordered[position + 1] if position + 1 < len(ordered) else len(lines) + 1
        body = [n for n in range(at + 1, stop) if (lines[n - 1] or "").strip() not in _NOT_TEXT]
        title = headings[at][1]
        if (
            body
            and all(n in found for n in body)
            and _DOTTED.search(title)
            and any(_names_current(title, _DOTTED.findall(tag)) for tag in past)
        ):
            found.add(at)
    return found


_LABELLED_IMAGE = re.compile(
    r"[ \t]*(?:[-*+][ \t]+)?[*_]*([A-Za-z][A-Za-z -]{0,30}?)[*_]*[ \t]*:[*_ \t]*`?"
    r"((?:[a-z0-9][a-z0-9._-]*/)*[a-z0-9][a-z0-9._-]*:[A-Za-z0-9_][A-Za-z0-9._-]*)`?"
    r"(?:[ \t.]*\Z|[ \t]*[,;(—–][ \t]*\S|[ \t]+-[ \t])"
)
"""A line opening with a label and an image reference: `Base Image:
pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime`, `- **Base:** `nvidia/cuda:12.8.0-runtime-ubuntu22.04`, pulled
as …`."""


def _plain_ref(ref: str) -> str:
    """An image reference without the default registry and namespace: `docker.io/library/ubuntu:22.04` →
    `ubuntu:22.04`."""
    ref = ref.lower()
    for prefix in ("docker.io/", "index.docker.io/", "library/"):
        if ref.startswith(prefix):
            ref = ref[len(prefix) :]
    return ref


def _repository(ref: str) -> str:
    """An image reference (`_plain_ref`) without its tag: `nvidia/cuda` of `nvidia/cuda:12.8.1-runtime`."""
    name, _, tag = ref.rpartition(":")
    return name if name and "/" not in tag else ref


def superseded_entry_lines(
    lines: Sequence[str | None], headings: Mapping[int, tuple[int, str]], bases: Collection[str]
) -> set[int]:
    """The README lines of the entries of a list of published images that are not the one built now:
    two lines or more with one label, each giving another image reference (`Base Image:
    pytorch/pytorch:2.9.0-cuda13.0-cudnn9-runtime`, then `Base Image: pytorch/pytorch:2.9.0-cuda12.8-…`,
    each followed by the `docker pull` of its own tag), of which one is one of the `bases` the audited
    Dockerfiles are built on. The others are earlier builds (or other images of a family) and are not
    compared: each entry runs from its label line to the next one of the list or the next heading. The
    entries of one list are under one heading or under sibling headings (`### Image 2.8.0`, `### Image
    2.9.0`): a line with the same label in a section of its own (`## Base image`) is a claim. When no
    entry names a base built now nothing is set aside: the list may then be the image's own.
    `headings`: README line → (level, text)."""
    current = {_plain_ref(base) for base in bases if base}
    audited = {_repository(ref) for ref in current}
    heads = sorted(headings)
    groups: dict[tuple[str, int, int], list[tuple[int, str]]] = {}
    for index, text in enumerate(lines):
        match = _LABELLED_IMAGE.match(text or "")
        if match is None or index + 1 in headings:
            continue
        position = bisect.bisect_right(heads, index + 1) - 1
        container = heads[position] if position >= 0 else 0
        level = headings[container][0] if container else 0
        parent = (
            next((h for h in reversed(heads[:position]) if headings[h][0] < level), 0) if container else 0
        )
        label = " ".join(match.group(1).lower().split())
        groups.setdefault((label, parent, level), []).append((index + 1, _plain_ref(match.group(2))))
    found: set[int] = set()
    for entries in groups.values():
        refs = {ref for _, ref in entries}
        if len(entries) < 2 or len(refs) != len(entries) or not refs & current:
            continue
        starts = [at for at, _ in entries]
        # an entry of the repository an entry built now names is an earlier build of that image; one
        # of another audited image's base repository is that sibling's own (a family's variants, one
        # label each: `**Base Image:** `python:3.11-slim`` for the CPU image, then
        # `rocm/dev-ubuntu-22.04:6.0.2` for the ROCm one), a claim about it
        siblings = audited - {_repository(ref) for _, ref in entries if ref in current}
        for position, (at, ref) in enumerate(entries):
            if ref in current or _repository(ref) in siblings:
                continue
            stop = starts[position + 1] if position + 1 < len(starts) else len(lines) + 1
            head = bisect.bisect_right(heads, at)
            if head < len(heads):
                stop = min(stop, heads[head])
            found.update(range(at, stop))
    return found


def built_versions(values: Iterable[str | None]) -> frozenset[str]:
    """The dotted versions written in `values` (an image reference, a pin, a build arg default):
    `pytorch/pytorch:2.12.1-cuda13.0-cudnn9-devel` → `2.12.1`, `13.0`."""
    return frozenset(m for value in values if value for m in re.findall(r"\d+(?:\.\d+)+", value))


# --------------------------------------------------------------------------------------------------
# A version that is another component's

_OWNER_BEFORE = re.compile(
    r"(?:\b([A-Za-z][\w.+-]*)[ \t]+(?:version|release)|\b(?:version|release)[ \t]+of[ \t]+([A-Za-z][\w.+-]*))"
    r"[ \t]+(?:(?:used|required|needed|expected|supported|targeted|chosen|picked)[ \t]+)?"
    r"(?:by|for|in|with|of)[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
_LINKED = re.compile(r"[ \t*`]*(?:(?:is|will[ \t]+be|defaults[ \t]+to)\b|[:=])", re.IGNORECASE)
"""Between a name and a version, a verb or a sign that links the version to the sentence's subject."""


def version_owner(before: str, between: str) -> str | None:
    """The component a version belongs to when it is not the name right before it: in `The default
    CUDA version used by CMake is 13.0` (`before`: the text up to `CMake`, `between`: the text from
    the name to the version, ` is `) the version is CUDA's, the subject qualified by the name. None when
    the version is the name's (`CMake 3.27`, `The version of PyTorch is 2.1`)."""
    if not _LINKED.match(between):
        return None
    found = _OWNER_BEFORE.search(before[-80:])
    if found is None:
        return None
    owner = found.group(1) or found.group(2)
    return None if owner.lower() in ("the", "a", "default", "this", "that", "its", "same") else owner


_COMPOUND_HEAD = re.compile(
    r"((?:(?-i:[A-Z])[\w.+-]*[ \t]+){0,3})"
    r"((?:extensions?|optimi[sz]ations?|distribution|plug-?ins?|bindings?|add-?ons?)[ \t]+for[ \t]+)\Z",
    re.IGNORECASE,
)
"""The head of a product named after another (`Intel Extension for PyTorch`, `Extension for
Scikit-learn`, `Intel Distribution for Python`, `Intel Optimization for TensorFlow`): a version after
the inner name is the whole product's."""


def compound_names(before: str, name: str) -> list[str]:
    """The names the product `name` ends may have, longest first, when it is one named after `name`
    (`before` ends in `Intel Extensions for `): `Intel Extensions for PyTorch`, `Extensions for
    PyTorch`; none when `name` stands alone."""
    found = _COMPOUND_HEAD.search(before[-80:])
    if found is None:
        return []
    words = found.group(1).split()
    return [" ".join([*words[i:], found.group(2).strip(), name]) for i in range(len(words) + 1)]


# --------------------------------------------------------------------------------------------------
# What a sentence says is gone, or another component's requirement

_GONE_BEFORE = re.compile(
    r"\b(?:remov(?:e|es|ed|ing)|uninstall(?:s|ed|ing)?|replac(?:e|es|ed|ing)"
    r"|drop(?:s|ped|ping)?(?![ \t]+(?:you|users?|the[ \t]+user|into|inside|onto)\b"
    r"|[ \t]+(?:in|at)[ \t]+(?:an?|the|your)[ \t]+(?:shell|container|terminal|prompt|folder|directory)\b)"
    r"|reject(?:s|ed|ing)?|purg(?:e|es|ed|ing)|no[ \t]+longer|instead[ \t]+of|rather[ \t]+than"
    r"|(?<!or[ \t])(?<!and[ \t])older|formerly|previously)\b",
    re.IGNORECASE,
)
"""Words after which, to the end of the clause, a version is one that is gone or not used: `removes its
vLLM 0.20.2`, `rejects an old image instead of testing vLLM 0.20.2`, `no longer ships CUDA 11`. A drop
that takes the reader somewhere (`drops you into`, `You will be dropped into a shell inside the
container's `/build` directory`, `dropped in the container`) removes nothing."""
_GONE_AFTER = re.compile(
    r"\b(?:is|was|were|are|has[ \t]+been|have[ \t]+been|gets|got|being)[ \t]+(?:now[ \t]+)?"
    r"(?:removed|uninstalled|replaced|dropped|rejected|purged|deprecated)\b",
    re.IGNORECASE,
)
"""Words before which, from the start of the clause, a version is gone: `vLLM 0.20.2 is removed`."""
_RELEASE_CHANGE = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)*(?:\.x)?(?:\+|[ \t]+(?:or|and)[ \t]+(?:later|newer|above|higher))?[*_`]{0,2}"
    r"[ \t]+(?:(?:has|have)[ \t]+)?(?:(?:now|since|already|officially|completely|fully|entirely)[ \t]+)?"
    r"(?:remov(?:ed|es)|drop(?:ped|s)|deprecat(?:ed|es)|discontinu(?:ed|es)|no[ \t]+longer[ \t]+supports?)\b",
    re.IGNORECASE,
)
"""A version that is the subject of what its release changed (`CUDA 13.0+ has removed sm_70 offline
compilation support`, `Triton 3.3+ dropped support for SM < 80`, `CUDA 12.8 deprecates Maxwell`): a fact
of that release, most often why the image stays on an older one, not what the image has. Only the
version is set aside (`CUDA` alone claims nothing); the verb's object is `_GONE_BEFORE`'s."""
_REQUIRES = re.compile(
    r"(?<![\w.-])`?([A-Za-z][\w.+-]*|\d[\w.+]*)`?(?:[ \t]+v?\d[\w.+-]*)?(?:[ \t]+\([^()]{0,40}\))?[ \t]+"
    r"(?:also[ \t]+)?[*_]{0,2}(?:requires?|needs?|depends[ \t]+on)[*_]{0,2}[ \t]+",
    re.IGNORECASE,
)
"""`OpenCV 4.13 requires NumPy >= 2`, `` `rknn-toolkit2` (the converter) **requires** Python 3.8-3.11 ``,
`80,86,89 (120 requires CUDA 12.8+)`: what follows is that tool's (or GPU target's) requirement, not the
image's."""
_IMAGE_SUBJECTS = frozenset(
    {
        "image",
        "container",
        "dockerfile",
        "build",
        "it",
        "this",
        "that",
        "which",
        "who",
        "one",
        "everything",
        "we",
    }
)
_OUTSIDE_SUBJECT = re.compile(
    r"[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?[*_]{0,2}((?:[\w.+/-]+(?:'s|’s)?[ \t]+){0,6}?)"
    r"(?:wheels?|packages?|binar(?:y|ies)|installers?|distributions?|releases?|tarballs?)[*_]{0,2}"
    r"[ \t]+(?:(?:only|currently|still|just|now|all)[ \t]+)?"
    r"(?:supports?|go(?:es)?|tops?|stops?|exists?|ships?|provides?|targets?|lacks?|covers?|"
    r"are|is|were|was|do|does|don't|doesn't|can|cannot|can't|have|has|need|needs|come|comes|max)\b",
    re.IGNORECASE,
)
"""A sentence whose subject is a thing made outside the project (`NVIDIA official Jetson PyTorch wheels
only support Python 3.10`, `PyTorch's prebuilt packages stop at 2.5`): the group is the words before the
noun, which must say whose (`_OUTSIDE_OWNER`)."""
_OUTSIDE_OWNER = re.compile(
    r"(?i:\b(?:official|upstream|vendors?|pre-?built|third[- ]party|stock|pypi|conda-forge)\b)"
    r"|\b[A-Z][\w.-]*(?:'s|’s)(?=[ \t])"
)
_OUR_OWNER = re.compile(r"\b(?:our|this|these|we|project's|image's|container's|its)\b", re.IGNORECASE)
_OTHER_IMAGES = re.compile(
    r"[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?[*_]{0,2}((?:[\w.+/-]+(?:'s|’s)?[ \t]+){0,6}?)"
    r"(?:images?|containers?)[*_]{0,2}[ \t]+\([ \t]*`?[\w.-]+(?:/[\w.-]+)+:[\w.-]+`?"
    r"(?:[ \t]*,[ \t]*`?[\w.-]+(?:/[\w.-]+)+(?::[\w.-]+)?`?){0,4}[ \t]*\)[*_]{0,2}[ \t]+"
    r"(?:(?:only|currently|still|just|now|all|also)[ \t]+)?"
    r"(?:are|is|do|does|don't|doesn't|lack|lacks|ship|ships|have|has|come|comes|can|cannot|can't)\b",
    re.IGNORECASE,
)
"""A sentence whose subject is images made outside the project, named by their reference
(`- **Pre-built llama.cpp ROCm images** (`ghcr.io/ggml-org/llama.cpp:server-rocm`) are useful but don't
include llama-swap`): what they lack is why this image exists, not what it holds. The group is the
words before the noun, which must say whose (`_OUTSIDE_OWNER`)."""


def outside_subject(sentence: str) -> bool:
    """True when `sentence`'s subject is an artifact made outside the project, not the image: `official
    … wheels`, `upstream packages`, `NVIDIA's binaries`, followed by what they support (`NVIDIA official
    Jetson PyTorch wheels only support Python 3.10`, `Official wheels only go up to PyTorch 2.5`). What
    it says is why the image does what it does, not what the image has; so are images of others named by
    their reference (`Pre-built llama.cpp ROCm images (`ghcr.io/ggml-org/llama.cpp:server-rocm`) don't
    include llama-swap`, `_OTHER_IMAGES`). A subject that is ours (`our official wheels`, `this
    project's packages`) is a claim."""
    match = _OUTSIDE_SUBJECT.match(sentence) or _OTHER_IMAGES.match(sentence)
    if match is None:
        return False
    subject = match.group(1)
    return bool(_OUTSIDE_OWNER.search(subject)) and not _OUR_OWNER.search(subject)


_OTHER_SOURCE = re.compile(
    r"[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?(?:[*_]{2}[^*_]{1,40}[*_]{2}(?:[ \t]*:[ \t]+|[ \t]+))?[*_]{0,2}"
    r"((?:[\w.+/-]+(?:'s|’s)?[ \t]+){0,6}?)"
    r"(?:(?:apt|yum|dnf|package|software)[ \t]+)?"
    r"(?:repositor(?:y|ies)|repos|archives?|mirrors?|feeds?)[*_]{0,2}"
    r"[ \t]+(?:(?:only|currently|still|just|now|all)[ \t]+)?"
    r"(?:contains?|carr(?:y|ies)|ships?|provides?|offers?|holds?|has|have|lists?)\b",
    re.IGNORECASE,
)
"""A sentence whose subject is a package source the README names as another's (`The default Ubuntu 24.04
apt repositories contain `libze-intel-gpu1` version `23.43.27642.40``, `Debian's archive ships CMake
3.25`): what that source carries, usually why the image takes the package elsewhere. The group is the
words before the noun, which must name the distribution's or another's source (`_SOURCE_OWNER`)."""
_SOURCE_OWNER = re.compile(
    r"(?i:\b(?:default|stock|distribution|distro|system|os|official|upstream|ubuntu|debian|centos|fedora"
    r"|rhel|rocky|almalinux|alpine|opensuse|suse)\b)"
    r"|\b[A-Z][\w.-]*(?:'s|’s)(?=[ \t])"
)


def other_source(sentence: str) -> bool:
    """True when `sentence` says what a package source that is not the image carries: the
    distribution's (`The default Ubuntu 24.04 apt repositories contain … version 23.43`) or a named
    other's (`Debian's archive ships CMake 3.25`). A source of ours (`our repository has …`) or one
    named by a component (`the ROCm apt repository provides 6.3`, what the Dockerfile may add) is
    not."""
    match = _OTHER_SOURCE.match(sentence)
    if match is None:
        return False
    subject = match.group(1)
    return bool(_SOURCE_OWNER.search(subject)) and not _OUR_OWNER.search(subject)


_DISTRIBUTION_DEFAULT = re.compile(
    r"[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?(?:the[ \t]+)?(?:(?:stock|default|base)[ \t]+)?"
    r"(?:ubuntu|debian|centos|fedora|rhel|rocky(?:[ \t]+linux)?|almalinux|alpine|opensuse|l4t|jetpack)"
    r"(?:[ \t]+v?\d[\w.-]*)?(?:[ \t]*\([^()]{1,40}\))?(?:'s|’s)?[ \t]+"
    r"(?:(?:still|only|currently|already|itself)[ \t]+)?"
    r"(?:(?P<default>defaults?[ \t]+to)|ships(?:[ \t]+with)?|comes[ \t]+with|has|provides)\b",
    re.IGNORECASE,
)
"""A clause whose subject is a distribution saying what it has by default (`Ubuntu 22.04 (JetPack 6.2)
defaults to Python 3.10.`, `Debian 12 ships Python 3.11 by default,`): what the image is built on
carries, mostly why the image installs another; up to the end of the clause, so `…, so the image
installs Python 3.11` stays a claim. A verb other than `defaults to` needs `by default` in the clause:
`- Ubuntu 22.04 comes with CUDA 12.1` in a list of what the image has is a claim."""
_BY_DEFAULT = re.compile(r"\bby[ \t]+default\b", re.IGNORECASE)


_CLAUSE_END = re.compile(
    r"[.;,:!?](?=[ \t]|\Z)|[()]|[ \t]-[ \t]|—|\b(?:and|but|then|with|by|to|while|whereas|which|so|yet)\b",
    re.IGNORECASE,
)


_OLD_ONE = re.compile(
    r"\b(?:old(?:er)?|previous|original|earlier)[ \t]+"
    r"(?:versions?|images?|Dockerfiles?|base[ \t]+images?|releases?|builds?)\b",
    re.IGNORECASE,
)
"""What a sentence opposes the image to: `the old version`, `the previous image`, `the original
Dockerfile`."""
_CUDA_SAID = re.compile(r"\bCUDA[ \t]+v?(\d{1,2}(?:\.\d+){0,2})(?!\w|\.\d)", re.IGNORECASE)
_CONTRAST = re.compile(r"\b(?:but|whereas|while|now)\b", re.IGNORECASE)
_NOW_CUDA = re.compile(
    r"\b(?:requires?|needs?|uses?|runs?[ \t]+on|is[ \t]+(?:on|built[ \t]+(?:on|with))"
    r"|(?:moved|updated|upgraded|switched|bumped)[ \t]+to)[ \t]+(?:the[ \t]+)?CUDA[ \t]+v?"
    r"(\d{1,2}(?:\.\d+){0,2})(?!\w|\.\d)",
    re.IGNORECASE,
)
"""What the image is said to need or use now: `requires CUDA 11`, `moved to CUDA 12.1`."""
_READERS_CASE = re.compile(r"\b(?:if|you|your|yours|unless|when)\b", re.IGNORECASE)
_SENTENCE_STOP = re.compile(r"[.!?;](?:[ \t]|\Z)")
_OPEN_ENDED = re.compile(
    r"\+|[ \t]+(?:or|and)[ \t]+(?:newer|later|above|higher|older|earlier|below|lower)\b"
    r"|[ \t]*(?:,|/|-+|–|to|and|or|through)[ \t]*v?\d|[ \t]+(?:drivers?|on[ \t]+the[ \t]+host)\b",
    re.IGNORECASE,
)
"""After a version: a minimum or a bound (`CUDA 11+`, `CUDA 11 or newer`), one of several (`CUDA 11/12`),
the driver's or the host's (`CUDA 11 drivers`)."""


def contrasted_cuda(text: str) -> list[re.Match[str]]:
    """The claims of the sentences of `text` that oppose the CUDA of an old version of the image to the
    one it needs or uses now (`the old version used the CUDA 10 image, but my RTX 3090 requires CUDA
    11`), each the match of the second (its group 1 the version): the first CUDA said after `but`
    (`whereas`, `while`, `now`), after the old one's, right after `requires`, `needs`, `uses`, `moved
    to` …, and another release than the old one's. Not when it is a minimum or one of several (`CUDA
    11 or newer`, `CUDA 11+`, `CUDA 11/12`), the driver's or the host's, nor in a sentence about the
    reader's case (`if`, `you`)."""
    found: list[re.Match[str]] = []
    for old in _OLD_ONE.finditer(text):
        stop = _SENTENCE_STOP.search(text, old.end())
        end = stop.start() if stop is not None else len(text)
        begin = max((m.end() for m in _SENTENCE_STOP.finditer(text, 0, old.start())), default=0)
        if _READERS_CASE.search(text, begin, end):
            continue
        before = _CUDA_SAID.search(text, old.end(), end)
        contrast = _CONTRAST.search(text, before.end(), end) if before is not None else None
        if before is None or contrast is None:
            continue
        now = _CUDA_SAID.search(text, contrast.end(), end)
        claim = _NOW_CUDA.search(text, contrast.end(), end)
        if now is None or claim is None or claim.end() != now.end():
            continue  # the first CUDA after the contrast is the one the image needs or uses
        if before.group(1).split(".")[0] == claim.group(1).split(".")[0]:
            continue
        if _OPEN_ENDED.match(text, claim.end()) or "host" in text[contrast.end() : claim.start()].lower():
            continue
        if claim not in found:
            found.append(claim)
    return found


_NEWER_HEDGED = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)*(?:\.x)?(?:\+|[ \t]+(?:or|and)[ \t]+(?:later|newer|above|higher))[*_`]{0,2}"
    r"[ \t]+(?:(?:still|currently|often|sometimes)[ \t]+)?"
    r"(?:may|might|could|can't|cannot|won't|doesn't|don't|lacks?|is[ \t]+not"
    r"|(?:has|have)[ \t]+(?:limited|no|few))\b",
    re.IGNORECASE,
)
"""An open-ended newer release as the subject of a hedge or a lack (`Python 3.13+ may have limited PyTorch
wheels`, `CUDA 13 or later lacks …`): a warning about releases past the image's, not what it has. Only the
version is set aside, as of `_RELEASE_CHANGE`."""
_CJK_CLAUSE_END = re.compile(r"[。！？；]")
_CJK_REQUIRES = re.compile(r"(?:を|が)?(?:要求|必要と|依存|依赖)(?:する|し|します|される|に|して|的)?")
"""The verb of a Japanese or Chinese clause saying what something requires or would have to be tried
(`ComfyUI v0.3.70 以降は … PyTorch 2.4+ を要求する`, `` `transformers` は `torch >= 2.4` を要求する ``,
`X 依赖 Y`): the verb ends the clause, so what it requires comes before it. Not the plain `が必要` / `需要`
(`is needed`), as often the image's own need."""
_CJK_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+\+?|(?<![\w.])v?\d+(?:\.x|\+)")
"""A version in a clause set aside (`v0.3.70`, `2.4+`, `6.x`): only versions are blanked, so the words
other rules read there (`試す`, `書き換え`) stay."""
_KANA = re.compile(r"[\u3040-\u30ff]")
"""A kana: the clause is Japanese (its verb last), not Chinese (its verb before its object)."""
_CJK_TRY = re.compile(r"を(?:実験|試)|を?尝试|試してみ")
"""The verb of a clause naming what the reader could try (`PyTorch 2.4 + rocm6.x の組み合わせを実験する`)."""
_CJK_IMAGE_TOPIC = re.compile(
    r"(?:イメージ|コンテナ|Dockerfile|本リポジトリ|本構成|镜像|容器|本项目)[^。！？；]{0,6}?(?:は|が|では|で|需要|要求)",
    re.IGNORECASE,
)
"""A clause whose subject is the image (`このイメージは CUDA 12.8 が必要`, `镜像需要 CUDA 12.8`): its
requirement is the image's."""
_CJK_RELEASE_CHANGE = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)*(?:\.x)?\+?[ \t]*(?:で|から|以降|起)[^。！？；]{0,60}?"
    r"(?:されない|されなくな|削除|廃止|非対応|サポート外|サポート終了|deprecated|removed|dropped|移除|弃用|不再)",
    re.IGNORECASE,
)
"""A release as the place of what it removed (`ROCm 6.4.0 で rocBLAS の TensileLibrary すら同梱されない`,
`CUDA 13 起不再支持 sm_70`): `_RELEASE_CHANGE` in Japanese and Chinese word order. Only the version is set
aside."""


def _cjk_spans(sentence: str) -> list[tuple[int, int]]:
    """The spans of the versions of Japanese and Chinese clauses (ended by `。`) that are another
    component's requirement or what to try (`_CJK_REQUIRES`, `_CJK_TRY`: from the clause's start to the
    verb, unless the image is its subject), and the releases named as what removed something
    (`_CJK_RELEASE_CHANGE`)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [m.start() for m in _CJK_CLAUSE_END.finditer(sentence)] + [len(sentence)]:
        clause = sentence[start:end]
        verbs = [m.start() for pattern in (_CJK_REQUIRES, _CJK_TRY) for m in pattern.finditer(clause)]
        # Japanese puts what is required before the verb, Chinese after it (from the verb to the
        # clause's end: `httpx==0.27.0 及其依赖`, "and its dependencies", names no requirement)
        japanese = _KANA.search(clause) is not None
        since, reach = (0, max(verbs, default=0)) if japanese else (min(verbs, default=0), len(clause))
        if verbs and not _CJK_IMAGE_TOPIC.search(clause, 0, reach):
            spans.extend(
                (start + m.start(), start + m.end()) for m in _CJK_VERSION.finditer(clause, since, reach)
            )
        for match in _CJK_RELEASE_CHANGE.finditer(clause):
            spans.append(
                (start + match.start(), start + match.start() + len(match.group().split(None, 1)[0]))
            )
        start = end + 1
    return spans


def not_current_spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of the parts of `sentence` whose versions are not the image's now: from a word of
    removal (`removes`, `uninstalls`, `replaces`, `drops`, `rejects`, `no longer`, `instead of`, `older`)
    to the end of its clause; from the start of a clause to `is removed`, `was replaced`, `has been
    dropped`; and the requirement of another component (`OpenCV 4.13 requires NumPy >= 2`) to the end
    of its clause. A clause ends at punctuation or at `and`, `but`, `with`, `by`, `to`, `while` …, so
    `removes vLLM 0.20.2 and installs vLLM 0.28.0` still claims 0.28.0; but not the CUDA a sentence
    opposes to an old version's (`contrasted_cuda`: `… but my RTX 3090 requires CUDA 11`). A whole
    sentence whose subject is made outside the project (`outside_subject`), that says what another
    package source carries (`other_source`), that reads the host's GPU check (`host_check`) or that tells
    of work done without the container (`without_container`). The
    clause of a distribution's default (`Ubuntu 22.04 defaults to Python 3.10`, `_DISTRIBUTION_DEFAULT`)."""
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence)]
    spans: list[tuple[int, int]] = []

    def clause_end(start: int) -> int:
        index = bisect.bisect_left(ends, start)
        return ends[index] if index < len(ends) else len(sentence)

    for match in _GONE_BEFORE.finditer(sentence):
        spans.append((match.start(), clause_end(match.end())))
    for match in _GONE_AFTER.finditer(sentence):
        index = bisect.bisect_left(ends, match.start())
        start = _after_break(sentence, ends[index - 1]) if index else 0
        spans.append((start, match.end()))
    for match in _RELEASE_CHANGE.finditer(sentence):
        spans.append((match.start(), match.start() + len(match.group().split(None, 1)[0])))
    for match in _NEWER_HEDGED.finditer(sentence):
        spans.append((match.start(), match.start() + len(match.group().split(None, 1)[0])))
    if not sentence.isascii():
        spans.extend(_cjk_spans(sentence))
    kept = [claim.start() for claim in contrasted_cuda(sentence)]  # what the image needs now
    for match in _REQUIRES.finditer(sentence):
        if match.group(1).lower() not in _IMAGE_SUBJECTS:
            end = clause_end(match.end())
            if not any(match.start() <= at < end for at in kept):
                spans.append((match.end(), end))
    default = _DISTRIBUTION_DEFAULT.match(sentence)
    if default is not None:
        end = clause_end(default.end())
        said = _BY_DEFAULT.search(sentence, default.end())  # (`by` ends a clause: it may start there)
        if default.group("default"):
            spans.append((0, end))
        elif said is not None and said.start() <= end:
            spans.append((0, clause_end(said.end())))
    if outside_subject(sentence) or other_source(sentence):
        spans.append((0, len(sentence)))
    elif host_check(sentence) or without_container(sentence):  # the list mark stays: the list is one
        mark = _ITEM_MARK.match(sentence)
        spans.append((mark.end() if mark else 0, len(sentence)))
    return spans


_ITEM_MARK = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+")


_HOST_CHECK = re.compile(
    r"(?<![\w-])(?:nvidia|rocm|npu|xpu)-smi(?![\w-])"
    r"|\bdrivers?[ \t]+(?:is|are|was|were|has[ \t]+been|have[ \t]+been)[ \t]+"
    r"(?:(?:correctly|properly|successfully|already|not)[ \t]+)?installed\b",
    re.IGNORECASE,
)
"""A sentence about checking the host's GPU stack: one naming `nvidia-smi` (or `rocm-smi`, `npu-smi`),
whose `CUDA Version` is the newest the driver can run, or saying the drivers are installed."""
_IN_IMAGE = re.compile(r"\b(?:image|container|dockerfile)s?\b", re.IGNORECASE)


def host_check(sentence: str) -> bool:
    """True when `sentence` reads the host's GPU check and names no image or container (`The above results
    show that NVIDIA graphics drivers are correctly installed (580.95.05), and the CUDA runtime environment
    is visible (CUDA 13.0).`, `nvidia-smi shows CUDA Version 12.2`): its versions are the host driver's.
    A sentence naming the image too (`nvidia-smi works, and the container has CUDA 12.4`) is still read."""
    return bool(_HOST_CHECK.search(sentence)) and not _IN_IMAGE.search(sentence)


def without_container(sentence: str) -> bool:
    """True when `sentence` says what it tells is done without the container (`then run the client
    without docker (tested with ubuntu22.04 and python3.10)`, `For a native build, install CMake 3.28`):
    its versions are the host's, as under a heading that says so (`is_host_heading`). Not when it names
    the image or a container besides those words (`Unlike a native install, the image ships CUDA 12.1`)."""
    match = _NOT_IN_CONTAINER.search(sentence)
    if match is None:
        return False
    return not _IN_IMAGE.search(sentence[: match.start()] + " " + sentence[match.end() :])


def _after_break(sentence: str, end: int) -> int:
    """The offset right after the clause break that starts at `end`."""
    found = _CLAUSE_END.match(sentence, end)
    return found.end() if found else end


# --------------------------------------------------------------------------------------------------
# A pin shown as how to edit a file

_CLAUSE_BREAK = re.compile(r"[.;!?。；！？](?=[ \t]|\Z)|[。；！？]")
_EDIT_VERB = re.compile(
    r"(?<![\w-])(?:change|replace|swap|switch|rewrite|modify|edit)(?![\w-])"
    r"|改为|改成|替换|换成|修改为|更改为",
    re.IGNORECASE,
)
"""An instruction to edit text, in the form one gives it (`change`, `replace`; not `changed`, `replaces`):
what follows is how to write the file, not what it, or the image, holds."""
_EDIT_AFTER = re.compile(r"[`'\"]?[ \t]*(?:改为|改成|替换为|替换成|换成|修改为|更改为)")
"""`X`改为`Y`: the Chinese verb comes after the first pin."""
_PIN_EXAMPLE = re.compile(r"(?<![\w-])(?:such[ \t]+as|like)(?![\w-])[ \t`*]*\Z", re.IGNORECASE)
"""`such as `numpy==1.26.4``, right before a pin: one way to write it."""


def edit_example(text: str, start: int, end: int) -> bool:
    """True when the pin at `text[start:end]` (`torch==2.0.0`) is part of an instruction to edit a file
    (`change `torch>=2.0.0` to `torch==2.0.0``, `replace X with Y`, `将`X`改为`Y``) or is given right
    after `such as`: how to write a requirement, not a claim about the image. The instruction is looked
    for in the clause before the pin (80 characters at most) and, for a Chinese `改为`, right after it."""
    window = text[max(0, start - 80) : start]
    breaks = list(_CLAUSE_BREAK.finditer(window))
    clause = window[breaks[-1].end() :] if breaks else window
    if _EDIT_VERB.search(clause) or _PIN_EXAMPLE.search(clause):
        return True
    return bool(_EDIT_AFTER.match(text, end, min(len(text), end + 12)))


# --------------------------------------------------------------------------------------------------
# A version said to be a command-line option's default

_OPTION = re.compile(r"(?<![\w-])--(?!build-arg\b)[A-Za-z][\w-]*")
"""A long option of a script or a program (`--docker_cuda`, `--cuda-version`), not `--build-arg`."""
_BUILD_COMMAND = re.compile(r"--build-arg\b|" + BUILD_COMMAND, re.IGNORECASE)
"""A sentence that passes build args or names a build command: in prose, in any letter case (`Docker
build`)."""
_DEFAULT_BEFORE = re.compile(
    r"\bdefault(?:s|[ \t]+(?:version|value))?\b(?:(?!\b(?:image|container|dockerfile)s?\b)[^.;!?()]){0,30}\Z",
    re.IGNORECASE,
)
"""`default`, then up to 30 characters naming no image, right before a version's name: `(default version
set at CUDA=9.1)`."""
_SENTENCE_REACH = 400
"""How far from a version its sentence is looked at, each way: the cost stays linear on a long line."""


def option_default(text: str, start: int) -> bool:
    """True when the version whose name starts at `start` is said to be the default of a command-line
    option the same sentence names (`you can set the CUDA version with `--docker_cuda` (default version
    set at CUDA=9.1)`): the option's default, which a script passes, not what a Dockerfile says. Not
    when the sentence passes build args or runs `docker build` (`--build-arg CUDA=12.4 (default CUDA
    12.1)` is the ARG's default, compared as one)."""
    low = max(0, start - _SENTENCE_REACH)
    sentence_start = max((m.end() for m in _CLAUSE_BREAK.finditer(text, low, start)), default=low)
    if not _DEFAULT_BEFORE.search(text, max(sentence_start, start - 50), start):
        return False
    following = _CLAUSE_BREAK.search(text, start, start + _SENTENCE_REACH)
    sentence = text[sentence_start : following.start() if following else start + _SENTENCE_REACH]
    return bool(_OPTION.search(sentence)) and not _BUILD_COMMAND.search(sentence)
