"""Shell commands of a README that cannot work for one word of them: a program misspelled a letter off
one a Docker README runs (`dokcer build -t app .`, `kubect create -f launcher.yaml`, `pyhton3 train.py`:
`did you mean docker?`) that the README defines nowhere (no `alias`, no shell function), and a clone
over GitHub's unauthenticated `git://` protocol, which GitHub turned off on 15 March 2022 (github.blog,
"Improving Git protocol security on GitHub", 2021-09-01): `git clone git://github.com/org/app.git`
fails. And a
variable a letter case off one the shell sets (`-v $pwd/out:/out` for `$PWD`) that the README never
sets: shell variables are case-sensitive, so it expands to nothing. And a `cp` or `mv` given one operand
(`cp app/`): it needs a source and a destination.

Only command blocks are read (a shell, console or plain fence), and of a block with prompts (`$ `) only
the lines with one: the others are output. Each step of a line (after `&&`, `;`, a pipe, `sudo`, a
variable set for it) is a command.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import SHELL_PROMPT, fence_commands, joined, shell_steps, without_prompt
from docgen.audit.docker_cli import LEAD
from docgen.audit.versions import one_slip
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic

_PROGRAMS = ("docker", "docker-compose", "nvidia-docker", "git", "pip") + (
    "kubectl",
    "python",
    "python3",
    "nvidia-smi",
    "podman",
    "helm",
    "conda",
    "apt-get",
    "sudo",
)
"""The programs a Docker README runs (the image's tools, the cluster's and the GPU's) whose slips are read."""
_LONG = 6
"""Below this length a program's slips are read as swaps of two letters only (`gti`, `ipp`, `hlem`):
`gif`, `zip` or `ip` a letter off `git` and `pip`, `conny` off `conda`, are programs of their own."""
_REAL = frozenset(
    {"dockerd", "dockle", "docker-compose", "nvidia-docker", "pip3", "pipx", "gitk", "docker2"}
    | {"kubectx", "cython", "jython", "ipython", "bpython", "pythonw", "ipython3", "bpython3", "python3m"}
)
"""Programs a letter off one of `_PROGRAMS` (Docker's daemon, the image linter, kubectl's context
switcher, the other Pythons, …)."""
_WORD = re.compile(r"[a-z][a-z0-9-]*[a-z0-9]")
_GIT_PROTOCOL = re.compile(r"git://(?:www\.)?github\.com/[^\s\"'`)]*")


def _swapped(word: str, name: str) -> bool:
    """`word` is `name` with two neighbouring letters swapped (`dokcer`)."""
    if len(word) != len(name) or word == name:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, name, strict=True)) if a != b]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and word[diff[0]] == name[diff[1]]
        and word[diff[1]] == name[diff[0]]
    )


def slip_of(word: str) -> str | None:
    """The program of `_PROGRAMS` that `word`, a command's first word, is a slip of; None for a program
    itself, a real program near one (`dockerd`), or a word near none."""
    if (
        word in _REAL
        or word in _PROGRAMS
        or not _WORD.fullmatch(word)
        or word.startswith("docker-credential")
    ):
        return None
    for name in _PROGRAMS:
        if _digits(word) != _digits(name):
            continue  # (`python2`, `docker1`: a digit tells another program or a version)
        if _swapped(word, name) or (len(name) >= _LONG and one_slip(word, name)):
            return name
    return None


def _digits(word: str) -> str:
    return "".join(c for c in word if c.isdigit())


def _defined(text: str, word: str) -> bool:
    """True when the README `text` makes `word` a command of the reader's shell: an alias (`alias
    kubect=kubectl`), a function (`kubect() {`, `function kubect`) or a link or file it names by that
    name (`ln -s /usr/bin/kubectl ~/bin/kubect`)."""
    name = re.escape(word)
    return bool(
        re.search(rf"\balias[ \t]+{name}=|(?<![\w-]){name}[ \t]*\(\)|\bfunction[ \t]+{name}\b", text)
        or re.search(rf"\bln[ \t][^\n]*[/ \t]{name}(?![\w-])", text)
    )


def command_steps(fence: Fence) -> Iterator[tuple[int, str]]:
    """(README line, text) of each step of each command of a command block (`fence_commands`), without
    its prompt, `sudo` or variables set for it; of a block with prompts, only the prompted lines."""
    prompted = any(SHELL_PROMPT.match(text) for _, text in fence.lines)
    for lines in fence_commands(fence):
        if prompted and not SHELL_PROMPT.match(lines[0][1]):
            continue
        text = joined([(n, t) for n, t in lines])
        text = without_prompt(text).split(" #", 1)[0]
        if text.lstrip().startswith("#"):
            continue
        for step in shell_steps(text):
            yield lines[0][0], LEAD.sub("", step, count=1)


def _misspelt_programs(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """A step whose program is a slip of one of `_PROGRAMS`, that has arguments and that the README
    does not define itself (`_defined`) (`certain`)."""
    defined: dict[str, bool] = {}  # (the README read once a word: thousands of steps of one slip)
    for fence in doc.fences:
        for line, step in command_steps(fence):
            words = step.split()
            if len(words) < 2:
                continue
            meant = slip_of(words[0])
            if meant is not None and words[0] not in defined:
                defined[words[0]] = _defined(text, words[0])
            if meant is not None and not defined[words[0]]:
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs {words[0]} {words[1]}, but there is no program {words[0]}: the command "
                    f"cannot run (did you mean {meant}?)",
                    confidence=CERTAIN,
                )


_COPIERS = frozenset({"cp", "mv"})
_NOT_POSIX = frozenset({"powershell", "ps1", "pwsh", "ps", "bat", "cmd", "batch", "doscon"})
_COPY_VALUES = frozenset({"-S", "--suffix"})
"""The options of `cp` and `mv` that take the next word as their value (GNU coreutils)."""
_TARGET = re.compile(r"-[A-Za-z]*t|--target-directory(?:=.*)?|--t(?:a(?:r(?:g(?:et?)?)?)?)?(?:=.*)?")
"""`-t DIR` (in a bundle too, `-rt DIR`) or `--target-directory`: the destination is an option."""
_OPERAND = re.compile(r"[\w.@%+:,/~-]+")
"""An operand written out: no variable, placeholder, glob or brace expansion, quote or redirection."""


def _one_operand(words: list[str]) -> str | None:
    """The one operand of a `cp`/`mv` command's `words` (after its name) when it has exactly one and it
    is written out; None otherwise (two or more, a destination given by `-t`, a word that may expand to
    several: `$SRC`, `*.yaml`, `{a,b}`, `<dir>`, `...`)."""
    operands: list[str] = []
    at = 0
    options = True
    while at < len(words):
        word = words[at]
        at += 1
        if options and word == "--":
            options = False
        elif options and word.startswith("-") and word != "-":
            if _TARGET.fullmatch(word):
                return None
            if word in _COPY_VALUES:
                at += 1
        else:
            operands.append(word)
    if len(operands) != 1:
        return None
    operand = operands[0]
    if not _OPERAND.fullmatch(operand) or "..." in operand or operand.isupper():
        return None
    return operand


def _lone_operands(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A `cp` or `mv` step of a command block given one operand (`cp jetson_team_c/`): both take a
    source and a destination, so the command fails ("missing destination file operand") and nothing is
    copied or moved (`certain`). `ln` is not read: with one target it links into the current folder.
    Not read: a step with a redirection, a substitution or a variable (`cp $FILES`), a glob or a brace
    expansion (`cp *.env`), a placeholder (`<file>`, `SRC`), and `-t DIR` / `--target-directory`."""
    for fence in doc.fences:
        if fence.lang.lower() in _NOT_POSIX:
            continue  # (PowerShell's `cp` is Copy-Item: with one path it copies into the current folder)
        for line, step in command_steps(fence):
            words = step.split()
            if not words or words[0] not in _COPIERS or re.search(r"[<>|`$]", step):
                continue
            operand = _one_operand(words[1:])
            if operand is None:
                continue
            said = (
                f"README runs {words[0]} {operand} with one operand: {words[0]} takes a source and a "
                f"destination, so it fails (missing destination file operand)"
            )
            if words[0] == "cp" and operand.endswith("/") and len(words) == 2:
                said += f" (did you mean cd {operand}?)"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _git_protocol(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A `git://github.com/…` URL in a command of a command block or an inline code span (`certain`)."""
    seen: set[tuple[int, str]] = set()
    places = [(line, step) for fence in doc.fences for line, step in command_steps(fence)]
    places += [
        (line, code)
        for para in doc.paragraphs
        for line, text in para.lines
        for _, _, code in code_spans(text)
    ]
    for line, text in places:
        if "git://" not in text or not re.search(r"\b(?:git|pip|pip3)\b", text):
            continue
        for match in _GIT_PROTOCOL.finditer(text):
            if (line, match.group(0)) in seen:
                continue
            seen.add((line, match.group(0)))
            https = "https://" + match.group(0).removeprefix("git://")
            yield Diagnostic(
                readme,
                line,
                f"README fetches {match.group(0)}, but GitHub turned off the unauthenticated git:// "
                f"protocol in March 2022: the command fails (use {https})",
                confidence=CERTAIN,
            )


_SHELL_SETS = frozenset("PWD OLDPWD HOME USER PATH SHELL HOSTNAME LOGNAME UID DISPLAY TERM LANG".split())
"""Variables a POSIX shell (bash, dash, zsh) or the login sets: what a README's command may read unset."""
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_NOT_POSIX = frozenset({"powershell", "ps1", "pwsh", "ps", "cmd", "bat", "zsh", "csh", "tcsh", "fish"})
"""Fences whose shell has variables of other names (PowerShell's `$pwd`, zsh's `$path`, csh's `$home`)."""
_POWERSHELL_PROMPT = re.compile(r"[ \t]*PS(?: [A-Za-z]:[^>]*)?>")


def _set_in(text: str, name: str) -> bool:
    """The README `text` sets the variable `name` (`name=…`, `export name=…`, `for name in`, `read name`)."""
    quoted = re.escape(name)
    return bool(
        re.search(rf"(?<![\w$.-]){quoted}[ \t]*=", text)
        or re.search(rf"\b(?:for|read|export|local|declare|set)\b[^\n]*\b{quoted}\b", text)
    )


def _case_slipped_variables(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """A variable of a command that differs only in case from one the shell sets (`$pwd`, `$Home`) and
    that the README never sets: it expands to nothing (`likely`)."""
    seen: set[str] = set()
    for fence in doc.fences:
        if fence.lang in _NOT_POSIX or any(_POWERSHELL_PROMPT.match(t) for _, t in fence.lines):
            continue
        for line, step in command_steps(fence):
            for match in _VARIABLE.finditer(step):
                name = match.group(1)
                meant = name.upper()
                if name == meant or meant not in _SHELL_SETS or name in seen or _set_in(text, name):
                    continue
                seen.add(name)
                written = (n for n, t in fence.lines if n >= line and re.search(rf"\$\{{?{name}\b", t))
                yield Diagnostic(
                    readme,
                    next(written, line),
                    f"README's command reads ${name}, which no shell sets (variables are case-sensitive; "
                    f"did you mean ${meant}?): it expands to nothing",
                    confidence=LIKELY,
                )


def shell_words(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    yield from _misspelt_programs(doc, text, readme)
    yield from _lone_operands(doc, readme)
    yield from _git_protocol(doc, readme)
    yield from _case_slipped_variables(doc, text, readme)
