"""A file a README's build copies that only a download gives, which the repository does not hold and the
README never says to fetch: `ADD ./cuda_12.1.0_530.30_windows.exe /tmp/` (an installer), `COPY
./model.safetensors /models/` (weights), `COPY ./1abc-clean.pdb /input/` (a data file). The build
stops at that line: nobody can run it from the README alone.

Only a kind of file no build of the repository makes and a repository rarely keeps (`_FETCHED`: an
installer, model weights, a molecule or sequence file), so that a checkout which lacks it lacks it for
good; a source file, a script or a settings file a copy of the repository may leave out is never told
here (`references.context_findings` tells those: of a git checkout, and outside one when every other
source is there). So is an archive or a package of a vendor's release, its version in its name (`COPY
lib/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz /opt/`: `vendor_archive`), unless a line before
the build tells to download or put, or links to, its product or its folder, or runs a download script
that may fetch it (one found whose text names neither the archive, its product nor its folder fetches
something else). The source is read as
BuildKit reads it, ARG defaults expanded (`${CUDA_VERSION}` the `ARG CUDA_VERSION=12.1.0` of its stage);
not when the build command passes a `--build-arg` (it may name another file), when a name stays
unexpanded (an ARG with no default), for a glob, a URL, `--from=` or a heredoc. Silent when the README
names the file anywhere, or tells on a line before the build to download, copy or put a file of its kind
(`Download the CUDA installer into this folder`), and for what the callers leave aside (a file made by a
command or script the README runs first, an ignored one).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from docgen.copied import context_path
from docgen.errors import DocgenError
from docgen.evaluate import evaluate
from docgen.model import ParsedDockerfile

_FETCHED = re.compile(
    r"\.(?:exe|msi|run|dmg|iso|appimage"  # installers
    r"|safetensors|ckpt|pth?|onnx|gguf|tflite|caffemodel"  # model weights
    r"|pdb|cif|fasta|fastq|bam)\Z",  # molecule and sequence data
    re.IGNORECASE,
)
"""The names of files only a download gives: an installer, model weights, a molecule or sequence file."""
_ARCHIVE = re.compile(r"\.(?:tar\.(?:gz|xz|bz2|zst)|tgz|txz|tbz2?|zip|7z|deb|rpm)\Z", re.IGNORECASE)
_RELEASE = re.compile(r"(?<![A-Za-z])v?\d+(?:[._]\d+)+")
"""A version in a file's name (`8.6.1.6`, `v2_3`, `12.0`): a release of something, as published."""
_STEM = re.compile(r"[A-Za-z][A-Za-z]+")
_RUNS = re.compile(r"\b(?:python3?|bash|sh)[ \t]+\S+|(?<![\w/])\./\S+|\b[\w-]+\.(?:py|sh)\b")
"""A line running a script (`python clone_or_update_plugins.py`, `./fetch.sh`)."""
_SCRIPT_PATH = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*[\w-]+(?:/[\w.-]+)*\.(?:py|sh))\b")
"""The path of a script a line runs (`plugins/fetch.py`, `./get_sdk.sh`)."""
_KIND_WORDS = re.compile(
    r"\b(?:installers?|weights?|checkpoints?|models?|structures?|proteins?|sequences?|data|inputs?"
    r"|archives?|tarballs?|packages?|sdks?|librar(?:y|ies)|releases?)\b",
    re.IGNORECASE,
)
"""Words that name such a file by its kind (`the CUDA installer`, `the model weights`)."""
TELLS_FETCH = re.compile(r"\b(?:download|fetch|get|obtain|place|put|copy|move|save|grab)\w*", re.IGNORECASE)
"""Words telling the reader to bring a file."""


def expanded_sources(parsed: ParsedDockerfile, command: str) -> list[tuple[int, str]]:
    """(Dockerfile line, context path) of each COPY or ADD source of `parsed` written with a variable
    (`./cuda_${CUDA_VERSION}.exe`), as the ARG defaults expand it and the build `command`'s literal
    build args override them (`--build-arg ENV=patolli`); none when the command passes a build arg whose
    value is not plain (`--build-arg ENV`, `--build-arg ENV=$ENV`: another file). Not a source that stays
    unexpanded (an ARG with no default), a glob, a URL, `--from=` or a heredoc."""
    given = passed_args(command)
    if given is None:
        return []
    return expanded_with(parsed, given)


def expanded_with(parsed: ParsedDockerfile, given: dict[str, str]) -> list[tuple[int, str]]:
    """`expanded_sources` with the build args `given` (name → value: a compose service's `args`)."""
    try:
        copies = evaluate(parsed, given).context_copies
    except DocgenError:
        return []
    written = {i.start_line: list(i.exec_form or i.args.split()) for i in parsed.instructions}
    found: list[tuple[int, str]] = []
    for copy in copies:
        words = written.get(copy.line, [])
        if copy.heredoc or len(words) != len(copy.sources) + 1:
            continue
        for word, value in zip(words[:-1], copy.sources, strict=True):
            path = context_path(value)
            if "$" not in word or path is None or path == "." or any(c in path for c in "$*?[{"):
                continue
            found.append((copy.line, path))
    return found


_PASSED = re.compile(r"--build-arg(?:[ \t]+|=)(\S+)")
_PLAIN_ARG = re.compile(r"([\"']?)([A-Za-z_]\w*)=([\w.+@%:,/-]+)\1\Z")
"""A build arg given a literal value (`ENV=patolli`, `"PY=3.11"`): no variable, no placeholder."""


def passed_args(command: str) -> dict[str, str] | None:
    """The build args a `docker build` `command` passes (`--build-arg NAME=VALUE`), each a literal value;
    None when one is not (`--build-arg NAME` reads the environment, `$VAR`, `<value>`)."""
    given: dict[str, str] = {}
    for word in _PASSED.findall(command):
        match = _PLAIN_ARG.match(word)
        if match is None:
            return None
        given[match.group(2)] = match.group(3)
    return given


def fetched(path: str) -> bool:
    """True when the context path `path` names a file only a download gives (`_FETCHED`)."""
    return _FETCHED.search(path) is not None


def vendor_archive(path: str) -> bool:
    """True when the context path `path` names an archive or a package of a release, its version in
    its name (`lib/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz`, `jdk-17.0.2_linux-x64.tar.gz`,
    `nv-driver-535.104.05_amd64.deb`): a vendor's download the reader supplies, not an archive a step
    of the build makes (`app.tar.gz`, `dist.zip`: no version), nor a wheel or a jar (what the project
    itself builds)."""
    name = path.rsplit("/", 1)[-1]
    return _ARCHIVE.search(name) is not None and _RELEASE.search(name) is not None


def told(lines: Sequence[str], path: str, line: int) -> bool:
    """True when the README `lines` name the file `path` anywhere (its name, in any case), or a line
    before README `line` tells to download, copy or put a file of its kind (its extension or a word
    such as `installer`, `weights`). For many files or builds of one README, `Told`."""
    return Told(lines)(path, line)


class Told:
    """`told` for one README's `lines`, each line read once whatever the number of builds and files
    asked of it: the lines telling to bring a file found once, the first of them for each extension
    and for the words of a kind kept (a README of thousands of builds read its lines again for each)."""

    def __init__(self, lines: Sequence[str], script: Callable[[str], str | None] | None = None) -> None:
        self._lines = lines
        self._script = script  # a script's path as a line writes it → its text (None: not found)
        self._text: str | None = None  # the README lower case, its lines joined
        self._tells: list[tuple[int, str]] | None = None  # (index, lower case) of a line telling to bring
        self._kind = -1  # the index of the first such line naming a kind of file (none: len(lines))
        self._suffixes: dict[str, int] = {}  # extension → the index of the first such line naming it

    def __call__(self, path: str, line: int) -> bool:
        name = path.rsplit("/", 1)[-1].lower()
        suffix = "." + name.rsplit(".", 1)[-1]
        if self._text is None:
            self._text = "\n".join(self._lines).lower()
        if "\n" not in name and name in self._text:
            return True
        if self._tells is None:
            self._tells = [(n, t.lower()) for n, t in enumerate(self._lines) if TELLS_FETCH.search(t)]
            self._kind = next(
                (n for n, _ in self._tells if _KIND_WORDS.search(self._lines[n])), len(self._lines)
            )
        if suffix not in self._suffixes:
            self._suffixes[suffix] = next((n for n, t in self._tells if suffix in t), len(self._lines))
        return min(self._kind, self._suffixes[suffix]) < max(line - 1, 0)

    def archive(self, path: str, line: int) -> bool:
        """`told` for a vendor's archive (`vendor_archive`), and more: a line of the README (before the
        build or after it: `Before building, download …`) that tells to bring something (`Download
        …`, `put … in`) or links to a page (`https://…`, not a `git clone`) naming the product of its
        name (`TensorRT` of `TensorRT-8.6.1.6….tar.gz`) or its folder (`lib/`); or a line before the
        build that tells to download something and runs a script (it may fetch the archive), unless
        each script it runs is found (`script`) and its text names neither the product, the folder nor
        the archive (`plugins/fetch.py` cloning plugins into its folder fetches no `ComfyUI-….tar.gz`)."""
        if self(path, line):
            return True
        name = path.rsplit("/", 1)[-1]
        stem = _STEM.match(name)
        words = {stem.group(0).lower()} if stem is not None and len(stem.group(0)) > 2 else set()
        if "/" in path:
            words.add(path.rsplit("/", 1)[0].lower().removeprefix("./") + "/")
        for number, text in enumerate(self._lines, 1):
            lower = text.lower()
            if number < line and TELLS_FETCH.search(text) and _RUNS.search(text):
                if not self._fetches_other(text, {*words, name.lower()}):
                    return True  # (`download plugins, `python fetch_all.py``: that script may fetch it)
            links = "://" in lower and "git clone" not in lower
            if (links or TELLS_FETCH.search(text)) and any(w in lower for w in words):
                return True
        return False

    def _fetches_other(self, text: str, names: set[str]) -> bool:
        """True when every script the README line `text` runs is found and its text names none of
        `names` (the archive's file name, its product, its folder): what it downloads is something
        else. False when a script cannot be read, or the line names none by its path."""
        paths = _SCRIPT_PATH.findall(text)
        if self._script is None or not paths:
            return False
        for path in paths:
            body = self._script(path)
            if body is None:
                return False
            lower = body.lower()
            if any(n in lower for n in names):
                return False
        return True


def command_at(lines: Sequence[str], line: int) -> str:
    """The command starting at README `line` (1-based) with the lines it continues on (`\\`)."""
    parts: list[str] = []
    for text in lines[line - 1 :]:
        parts.append(text)
        if not text.rstrip().endswith("\\"):
            break
    return " ".join(parts)
