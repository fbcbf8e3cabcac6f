"""A `git` command with an option written before its subcommand that git itself does not take there:
`git -b v1.2 clone …` (for `git clone -b v1.2 …`). Before the subcommand git reads only its own short
list of options (`-C`, `-c`, `--git-dir`, `--work-tree`, `--no-pager`, `-p`, `-P`, `--bare`, …); any other
one makes it print "unknown option" and exit with status 129, whatever the rest says. A `git clone` given
more than a repository and a folder (`git clone clone https://… /src`: "fatal: Too many arguments"), or
`clone` as its repository. A `cd` given two folders (`cd cd ~/src/app`: "cd: too many arguments"), so the
commands after it run in the wrong folder (`cd_slip`, in shell blocks only). A `cp` or `mv` given one
source that is its destination (`self_copy`: `cp settings.yaml settings.yaml` where the example file
was meant): "are the same file", and the file is never made.

In a script the README runs, also a `docker run` (`nvidia-docker run` too) given a short option docker run
does not have (`-n jupyter`: "unknown shorthand flag"), which the README's own commands get from
`grammar`, or options docker refuses together or by value (`--rm` with `--restart unless-stopped`:
`docker_cli.refused_options`, which tells them in the README's own commands). A `docker run`, `exec` or
`build` of such a script, or of the Makefile recipe of a target the README makes, whose last line lacks
the `\\` the next line needs (`unjoined_lines`: the reading of `continuations.unjoined`, which tells it in
the README's blocks).

Read in the README's command blocks (`certain`: the command fails as written) and in the shell scripts
the README runs, found where its commands run them (`script_args.script_runs`; `likely`: the script may
not reach that line). One finding a command of the README, and one a script (at the README line that runs
it, naming the script's line; for pip's `install` given to venv, at the prose line saying the package is
installed, when one does: `the push step creates a venv, installs `s3cmd``).

And an unindented script line assigning with a space after `=` (`IMAGE_NAME= "org/app"`) whose variable a
later line reads (`spaced_assignments`, `certain`).

A python option that takes a value given the script (`swallowed_script`: `python -W ignore -W run.py
--config c`, the script taken as a warning filter), read with the slips above (`likely` for `-m main.py`,
which imports `main` before it fails). And a command substitution whose backticks are escaped
(`escaped_substitutions`: `--workdir=\\`pwd\\``, as prose escapes them) outside quotes or in the text of
an alias defined in single quotes: the shell takes the backticks as characters, so the program gets the
text (`certain` when docker refuses it: a working directory, a mount path, a volume name, an image).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY, clipped
from docgen.audit.commands import (
    PROSE_WORD,
    clone_operands,
    fence_commands,
    joined,
    shell_steps,
    without_prompt,
)
from docgen.audit.continuations import Unjoined, cut_off, shell_block, shell_commands, unjoined
from docgen.audit.docker_cli import docker_verb, docker_words, refused_options
from docgen.audit.grammar import RUN, read_words
from docgen.audit.make_targets import make_commands, makefile_of, makefile_text
from docgen.audit.paths import resolves_inside
from docgen.audit.references import project_top
from docgen.audit.script_builds import readme_runs, shell_scripts_run
from docgen.audit.wording import SHELL_BLOCK_LANGS
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.shell import sh_code, shell_split

GLOBAL_VALUED = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source"}
)
"""git's own options that take the next word as their value (`-C repo`), or one after `=`."""
GLOBAL_FLAGS = frozenset(
    {
        "-p",
        "--paginate",
        "-P",
        "--no-pager",
        "--bare",
        "--no-replace-objects",
        "--no-lazy-fetch",
        "--no-optional-locks",
        "--no-advice",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--version",
        "-v",
        "--help",
        "-h",
        "--html-path",
        "--man-path",
        "--info-path",
        "--exec-path",
        "--list-cmds",
    }
)
"""git's own options that take no value (`--exec-path` and `--list-cmds` may take one after `=`)."""
_PREFIX = re.compile(r"[A-Za-z_]\w*=\S*\Z")
"""`GIT_SSH_COMMAND=… git …`: a variable set for the command."""
_BEFORE = frozenset({"sudo", "time", "exec", "command", "then", "do", "else", "!", "{"})
"""Words a command may start with before the program it runs."""
_WORDS = re.compile(r"\bgit\b|\bvenv\b|python|\b(?:cp|mv)\b")
_SCRIPT_WORDS = re.compile(r"\bgit\b|\bvenv\b|\bdocker\b|python|\b(?:cp|mv)\b")
"""The words a script must hold to be read (`run_option` too)."""
_SHELL = re.compile(r"\A#![^\n]*\b(?:ba|z|da|k)?sh\b")


def misplaced_option(step: str) -> str | None:
    """The option a `git` step (`sudo git -b v1 clone …`) writes before its subcommand that git does not
    take there; None when the step is no git command, or every option before the subcommand is git's."""
    if "git" not in step:
        return None
    try:
        words = shell_split(step)
    except ValueError:
        return None
    index = 0
    while index < len(words) and (_PREFIX.match(words[index]) or words[index] in _BEFORE):
        index += 1
        if words[index - 1] == "sudo":  # its own flags (`sudo -E`), not one taking a value
            while index < len(words) and re.fullmatch(r"-[EHSknbPi]+", words[index]):
                index += 1
    if index >= len(words) or words[index] not in ("git", "/usr/bin/git"):
        return None
    index += 1
    while index < len(words) and words[index].startswith("-"):
        word = words[index]
        index += 1
        name = word.split("=", 1)[0]
        if word == "--" or "$" in word or "`" in word:
            return None
        if name in GLOBAL_VALUED:
            index += "=" not in word
        elif name in GLOBAL_FLAGS:
            continue
        elif re.fullmatch(r"--?[A-Za-z][\w-]*", name):
            return name if any(re.fullmatch(r"[a-z][a-z-]+", w) for w in words[index:]) else None
        else:
            return None
    return None


_PYTHON = re.compile(r"(?:\S*/)?python(?:[23](?:\.\d+)?)?\Z")
_VENV_FLAGS = frozenset(
    {
        "--system-site-packages",
        "--symlinks",
        "--copies",
        "--clear",
        "--upgrade",
        "--without-pip",
        "--upgrade-deps",
        "--without-scm-ignore-files",
    }
)


def venv_install(step: str) -> list[str] | None:
    """The folders of a `python -m venv install PKG …` step (`python3 -m venv install s3cmd`: ["install",
    "s3cmd"]): pip's verb given to venv. None for any other step."""
    if "venv" not in step or "install" not in step:
        return None
    try:
        words = shell_split(step)
    except ValueError:
        return None
    index = 0
    while index < len(words) and (_PREFIX.match(words[index]) or words[index] in _BEFORE):
        index += 1
    if (
        index + 2 >= len(words)
        or not _PYTHON.match(words[index])
        or words[index + 1 : index + 3] != ["-m", "venv"]
    ):
        return None
    folders: list[str] = []
    index += 3
    while index < len(words) and words[index] not in ("&&", "||", ";", "|"):
        word = words[index]
        index += 1
        if word == "--prompt":
            index += 1
        elif word.startswith("--prompt=") or word in _VENV_FLAGS:
            continue
        elif word.startswith("-") or "$" in word or "`" in word:
            return None
        else:
            folders.append(word)
    return folders if len(folders) >= 2 and folders[0] == "install" else None


_CLONE = re.compile(r"(?:^|[;&|(]|\s-c[ \t]+[\"'])[ \t]*(?:sudo[ \t]+)?git[ \t]+clone\b(?P<words>[^;&|)]*)")
"""A `git clone` at the start of a step, or of the code a shell is given (`bash -c "git clone …`), with its
words up to the step's end or a redirection."""
_UNSURE = re.compile(r"[$`<>\[\]{}*]|\.\.\.")
"""A word the shell or the reader may turn into another number of words (a variable, a placeholder)."""


def clone_slip(step: str) -> str | None:
    """What is wrong with a `git clone` step given more than two operands (`git clone clone URL DIR`: git
    stops with "fatal: Too many arguments"), or `clone` as the repository (`git clone clone URL`: no
    repository `clone`); None for any other step, or one with a variable or a placeholder."""
    found = _CLONE.search(step)
    if found is None:
        return None
    words = [w.strip("\"'") for w in found.group("words").split()]
    ends = next((at for at, w in enumerate(words) if re.match(r"\d*[<>]|&", w)), len(words))
    words = words[:ends]  # (a redirection ends the words: `2>/dev/null`)
    if not words or any(_UNSURE.search(w) for w in words):
        return None
    operands = [w for w in clone_operands(words) if w]
    shown = f"git clone {' '.join(words)}"[:100]
    twice = " (clone written twice)" if operands and operands[0] == "clone" else ""
    if len(operands) > 2:
        return (
            f"{shown}: git clone takes a repository and at most a folder, but is given {len(operands)} "
            f'operands{twice}, so it exits with "fatal: Too many arguments" and clones nothing'
        )
    if twice:
        return (
            f"{shown}: git clone takes clone as the repository to clone (clone written twice), so it "
            "fails with \"repository 'clone' does not exist\" and clones nothing"
        )
    return None


_RUN = re.compile(
    r"\A[ \t]*(?:[A-Za-z_]\w*=\S*[ \t]+)*(?:sudo[ \t]+(?:-E[ \t]+)?)?(?:nvidia-)?docker(?:[ \t]+container)?"
    r"[ \t]+run(?=[ \t])"
)
_LETTER = re.compile(r"-[A-Za-z]")


def run_option(step: str) -> str | None:
    """What is wrong with a `docker run` step (`nvidia-docker run` too) given a short option docker run does
    not have before its image (`-n name` for `--name`): docker refuses the command ("unknown shorthand
    flag"); or, its options all known, given options docker refuses together or by value
    (`docker_cli.refused_options`: `--rm` with `--restart unless-stopped`); None for any other step, or
    one asking for help."""
    found = _RUN.match(step)
    if found is None:
        return None
    try:
        words = shell_split(step[found.end() :])
    except ValueError:
        return None
    read = read_words(words, RUN)
    if read.help:
        return None
    engine = "nvidia-docker" if "nvidia-docker" in step[: found.end()] else "docker"
    option = next((o for o, _ in read.short if _LETTER.fullmatch(o)), None)
    if option is None:
        if not read.complete:
            return None  # (an option docgen does not know may take a value it misreads)
        why = next(refused_options(read.values, read.flags, "run"), None)
        return (
            None
            if why is None
            else f"{engine} run with options docker refuses: {why}, so no container starts"
        )
    return (
        f"{engine} run with {option}, which docker run does not have: docker refuses the command "
        f"(unknown shorthand flag: '{option[1]}')"
    )


_PYTHON_PROGRAM = re.compile(r"(?:\S*/)?python(?:[23](?:\.\d+)?)?\Z")
"""A Python interpreter as a command names it (`python`, `python3.10`, `/usr/bin/python3`)."""
_PYTHON_FLAGS = frozenset("bBdEhiIOPqsSuvVx?")
"""The letters of python's own short options that take no value (python(1), `python -h`)."""
_PYTHON_LONG = frozenset("--help --help-env --help-xoptions --help-all --version".split())
_PYTHON_VALUED = {"W": "a warning filter", "X": "an implementation option", "c": "code", "m": "a module name"}
"""python's own short options that take a value (the rest of the word or the next one), with what the
value is: `-c` and `-m` end python's options, whatever follows is the program's."""
_SCRIPT_FILE = re.compile(r"[\w./~-]*[\w-]\.py\Z")
"""A Python script's path (`run.py`, `tools/eval.py`): no value of `-W` or `-X` (a filter is
`action:message:category:module:line`), no code, no module name."""


def swallowed_script(step: str) -> tuple[str, str] | None:
    """(the option, what goes wrong) of a step running python whose option taking a value is given the
    script (`python -W ignore -W slam.py --config c.txt`: the second `-W` takes `slam.py` as its
    warning filter, and python reads `--config` as its own option); None for any other step. `-m
    main.py` imports `main` and then fails to find a module `main.py`; `-c demo.py` runs the text
    `demo.py` as code."""
    if "python" not in step:
        return None
    try:
        words = shell_split(step)
    except ValueError:
        return None
    start = next((at for at, word in enumerate(words) if _PYTHON_PROGRAM.match(word)), None)
    if start is None:
        return None
    at = start + 1
    while at < len(words):
        word = words[at]
        at += 1
        if word in _PYTHON_LONG:
            continue
        if not word.startswith("-") or word in ("-", "--") or word.startswith("--"):
            return None  # the script, standard input, or an option python lacks (its own error)
        for index, letter in enumerate(word[1:], start=1):
            if letter in _PYTHON_FLAGS:
                continue
            if letter not in _PYTHON_VALUED:
                return None
            if index < len(word) - 1:
                value = word[index + 1 :]
            elif at < len(words):
                value, at = words[at], at + 1
            else:
                return None
            if not _SCRIPT_FILE.fullmatch(value):
                if letter in "cm":
                    return None  # (the options end: the rest is the module's or the code's)
                break
            return f"-{letter}", _swallowed(words[start:at], words[at:], letter, value)
    return None


def _swallowed(given: list[str], rest: list[str], letter: str, script: str) -> str:
    """What a python run whose `-{letter}` took the script `script` does (`swallowed_script`): `given`,
    its words up to the script, `rest` the words after it."""
    shown = " ".join([*given, *rest[:1]]) + (" …" if len(rest) > 1 else "")
    said = (
        f"{shown}: python takes {script} as the value of its -{letter} option ({_PYTHON_VALUED[letter]}), "
        "not as the script to run"
    )
    if letter == "c":
        name = script.rsplit("/", 1)[-1].split(".", 1)[0]
        return (
            f"{said}: it runs the text {script} as Python code and stops (NameError: name '{name}' is not "
            "defined)"
        )
    if letter == "m":
        module = script.removesuffix(".py").replace("/", ".")
        return (
            f'{said}: it imports {module} and stops with "Error while finding module specification for '
            f'\'{script}\'", so its `if __name__ == "__main__"` part never runs (write python {script})'
        )
    if not rest:
        return f"{said}, and with no script left it starts its interactive prompt: {script} never runs"
    nxt = rest[0]
    if nxt.startswith("-") and nxt != "-":
        own = nxt in _PYTHON_LONG or (not nxt.startswith("--") and set(nxt[1:2]) <= _PYTHON_FLAGS)
        if not own:
            return (
                f"{said}, and then reads {nxt} as an option of its own (unknown option): {script} never runs"
            )
        return f"{said}, and then reads {nxt} as an option of its own: {script} never runs"
    return f"{said}, and then runs {nxt} as the script: {script} never runs"


_CD = re.compile(r"\A[ \t]*cd[ \t]")
_CD_OPTIONS = frozenset({"-L", "-P", "-e", "-@", "-LP", "-Pe", "-eP"})
"""`cd`'s own options (bash, POSIX): not operands."""


def cd_slip(step: str) -> str | None:
    """What is wrong with a `cd` step given more than one folder (`cd cd ~/src/app`: bash stops with "cd:
    too many arguments", zsh with "string not in pwd"), so it changes no folder and the commands after it
    run where the reader stood; None for any other step, a folder holding a variable, a placeholder or
    prose (`cd path to repo`), or a Windows `cd /d X`."""
    if _CD.match(step) is None:
        return None
    try:
        words = shell_split(step)
    except ValueError:
        return None
    operands = [w for w in words[1:] if w not in _CD_OPTIONS]
    if operands[:1] == ["--"]:
        operands = operands[1:]
    ends = next((at for at, w in enumerate(operands) if re.match(r"\d*[<>]|&|#", w)), len(operands))
    operands = operands[:ends]  # (a redirection or a comment ends the words)
    if len(operands) < 2 or any(_UNSURE.search(w) or re.fullmatch(r"/\w", w) for w in operands):
        return None
    if operands[0] != "cd" and any(PROSE_WORD.fullmatch(w) for w in operands):
        return None
    twice = " (cd written twice)" if operands[0] == "cd" else ""
    return (
        f"cd {' '.join(operands)[:100]}: cd takes one folder but is given "
        f'{len(operands)}{twice}, so it fails with "cd: too many arguments" and changes no folder: the '
        "commands after it run in the folder the reader was in"
    )


_COPY = re.compile(r"\A[ \t]*(?:sudo[ \t]+)?(cp|mv)[ \t]")


def self_copy(step: str) -> str | None:
    """What is wrong with a `cp` or `mv` step whose one source is its destination (`cp settings.yaml
    settings.yaml`): GNU cp and mv stop with "are the same file" (or "No such file" when it is not
    there), and the file the step was to make from another (`settings(example).yaml`) is never made.
    None for any other step, a path holding a variable or a placeholder, or a `--backup` copy (which
    makes a backup of the file onto itself on purpose)."""
    copy = _COPY.match(step)
    if copy is None:
        return None
    try:
        words = shell_split(step)
    except ValueError:
        return None
    words = words[words.index(copy.group(1)) + 1 :]
    ends = next((at for at, w in enumerate(words) if re.match(r"\d*[<>]|&|#", w)), len(words))
    words = words[:ends]
    options = [w for w in words if w.startswith("-")]
    operands = [w for w in words if not w.startswith("-")]
    if any(
        o.startswith("--b") or o.startswith("--suffix") or re.match(r"-[a-zA-Z]*[bSt]", o) for o in options
    ):
        return None
    if len(operands) != 2 or any(_UNSURE.search(w) for w in operands):
        return None
    source, target = (posixpath.normpath(w) for w in operands)
    if source != target or source in (".", "/"):
        return None
    name = copy.group(1)
    return (
        f"{name} {' '.join(operands)[:100]}: {name} is given the same file as its source and its "
        f'destination, so it fails with "are the same file" and makes no file from another'
    )


def slip(step: str, clone: bool = True) -> str | None:
    """What a step does wrong as written (`git with -b before its subcommand (…): git takes only …`), when
    it is one of the slips this module reads; None otherwise. Without `clone`, `clone_slip` is not read
    (a README command continued over lines: `continuations` tells a `\\` that joins the next command)."""
    option = misplaced_option(step)
    if option is not None:
        return (
            f"git with {option} before its subcommand ({step.strip()[:80]}): git takes only its own options "
            f'there (-C, -c, --git-dir, …) and exits with "unknown option: {option}"'
        )
    cloned = clone_slip(step) if clone else None
    if cloned is not None:
        return cloned
    copied = self_copy(step)
    if copied is not None:
        return copied
    folders = venv_install(step)
    if folders is not None:
        return (
            f"{step.strip()[:80]}: venv takes each word as a folder to make an environment in "
            f"({', '.join(folders[:4])}), so nothing is installed (`install` is pip's word)"
        )
    return None


def _script_steps(path: Path) -> Iterator[tuple[int, str]]:
    """(script line, step) of each command step of the shell script at `path`, lines ending in `\\`
    joined to the next, comments left out; nothing for a file that is no shell script."""
    text = text_or_none(path, MAX_PROJECT_FILE_BYTES) or ""
    if not (path.suffix in (".sh", ".bash") or _SHELL.match(text)) or not _SCRIPT_WORDS.search(text):
        return
    start, parts = 0, list[str]()
    for number, line in enumerate(text.splitlines(), start=1):
        if not parts:
            start = number
        code = sh_code(line)
        if code.rstrip().endswith("\\"):
            parts.append(code.rstrip()[:-1])
            continue
        parts.append(code)
        for step in shell_steps(" ".join(parts)):
            yield start, step
        parts = []


def _script_slip(step: str) -> str | None:
    """`slip` of a script's step, or the `docker run` of it given an option docker run lacks (a line of
    it left without its `\\` is `unjoined_lines`')."""
    swallowed = swallowed_script(step)
    return (
        slip(step) or cd_slip(step) or run_option(step) or (swallowed[1] if swallowed is not None else None)
    )


def slipped_commands(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A step that fails or does nothing as written (`slip`), in a command block of the README (`certain`)
    or in a shell script a command block runs (`likely`; a `docker run` with an option it lacks too,
    `run_option`): `README runs ./build.sh, whose line 85 runs git with -b before its subcommand (sudo git
    -b … clone …): git takes only its own options there (-C, -c, --git-dir, …) and exits with "unknown
    option: -b"`."""
    for fence in doc.fences:
        shell = fence.lang.lower() in SHELL_BLOCK_LANGS
        for command in fence_commands(fence):
            text = without_prompt(joined(command))
            if shell and "cd" in text:
                moved = next((s for step in shell_steps(sh_code(text)) if (s := cd_slip(step))), None)
                if moved is not None:
                    yield Diagnostic(readme, command[0][0], f"README runs {moved}", confidence=CERTAIN)
                    continue
            if not _WORDS.search(text):
                continue
            alone = len(command) == 1
            steps = shell_steps(sh_code(text))
            said = next((s for step in steps if (s := slip(step, alone))), None)
            if said is not None:
                yield Diagnostic(readme, command[0][0], f"README runs {said}", confidence=CERTAIN)
                continue
            swallowed = next((w for step in steps if (w := swallowed_script(step))), None)
            if swallowed is not None:
                option, what = swallowed
                line = next((n for n, t in command if option in t), command[0][0])
                confidence = LIKELY if option == "-m" else CERTAIN  # (-m: the module's top level runs)
                yield Diagnostic(readme, line, f"README runs {what}", confidence=confidence)
    read: set[Path] = set()
    runs = [*readme_runs(doc, directory, audited, project), *listed_runs(doc, directory, project)]
    for line, path, script, _ in sorted(runs, key=lambda run: run[0]):
        if script in read:
            continue  # one finding a script
        read.add(script)
        found = _first_slip(script)
        if found is None:
            continue
        at, step, said = found
        claim = _install_claim(doc, venv_install(step) or [])
        if claim is not None:
            yield Diagnostic(
                readme,
                claim[0],
                f"README says {path} installs {claim[1]}, but its line {at} runs {said}",
                confidence=LIKELY,
            )
        else:
            yield Diagnostic(
                readme, line, f"README runs {path}, whose line {at} runs {said}", confidence=LIKELY
            )


def _install_claim(doc: Document, folders: Sequence[str]) -> tuple[int, str] | None:
    """(README line, package) of the first prose line saying a package is installed (`creates a venv,
    installs `s3cmd``) that a `python -m venv install PKG` step (`folders`: install, PKG …) meant to
    install: the claim the step breaks, where the finding goes. None when no line says so."""
    packages = [f for f in folders[1:] if f != "install"]
    if not packages:
        return None
    names = "|".join(re.escape(p) for p in packages)
    said = re.compile(
        rf"\binstall(?:s|ed|ing)?\b[^.;:!?]{{0,60}}?(?<![\w.-])[`*\"']?({names})(?![\w-])", re.IGNORECASE
    )
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "nstall" in text and (match := said.search(text)) is not None:
                return number, match.group(1)
    return None


_LISTED = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+`(?:\./)?([A-Za-z][\w.-]*\.(?:sh|bash))(?:[ \t][^`]*)?`[ \t]*\Z"
)
"""A list item that is a script run in a code span and nothing else: `` - `build_container_cpu.sh` ``."""


def listed_runs(
    doc: Document, directory: Path, project: Path | None
) -> Iterator[tuple[int, str, Path, Path]]:
    """(README line, the script as written, its real path, the README's folder) of each list item that is
    only a code span running a script of the README's folder (`` - `./download.sh` ``, a step of a list
    of steps)."""
    top = project_top(directory, project)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "sh`" not in text or (match := _LISTED.match(text)) is None:
                continue
            path = directory / match.group(1)
            if os.path.isfile(path) and resolves_inside(path, top):
                yield line, match.group(1), Path(os.path.realpath(path)), directory.absolute()


def _first_slip(script: Path) -> tuple[int, str, str] | None:
    """(script line, the step, what is wrong) of the first step of `script` that `_script_slip` tells."""
    for at, step in _script_steps(script):
        said = _script_slip(step)
        if said is not None:
            return at, step, said
    return None


def _first_unjoined(commands: Sequence[Sequence[tuple[int, str]]]) -> Unjoined | None:
    """The first docker command of `commands` (a script's or a recipe's, in order) whose last line lacks
    the `\\` the line right after it needs (`continuations.unjoined`, read as code)."""
    for run, after in zip(commands, commands[1:], strict=False):
        if run and after and after[0][0] == run[-1][0] + 1:
            gap = unjoined(list(run), list(after), code=True)
            if gap is not None:
                return gap
    return None


def _unjoined_said(gap: Unjoined, where: str, runner: str, after: str) -> str:
    """`whose docker run (run.sh:4) ends at line 12 without a `\\`, so the image … is not passed to it: the
    run ends before it and the shell runs line 13 ($IMAGE) as a command of its own`."""
    return (
        f"whose {gap.command} ({where}:{gap.first}) ends at line {gap.last} {gap.how}, so {cut_off(gap)} and "
        f"{runner} runs line {gap.line} ({clipped(after.strip())}) as a command of its own (the step cannot "
        "work as written)"
    )


def unjoined_lines(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A `docker run`, `exec` or `build` of a shell script the README runs, or of the recipe of a make
    target it runs, continued over lines whose last line lacks the `\\` while the next line goes on with
    it (an option, the image, the context: `continuations.unjoined`): the command ends there (a run with
    no image: "docker run requires at least 1 argument") and the next line runs as a command of its own.
    One finding a script, at the README line that runs it (`certain` when the command starts unindented,
    at the script's top level; `likely` when it is indented, in a branch the script may not take); one a
    recipe line, at the `make` command (`certain` for the Makefile of the README's folder, `likely` for
    one above it)."""
    for line, run, script, _cwd, text in shell_scripts_run(doc, directory, audited, project):
        lines = text.splitlines()
        gap = _first_unjoined(list(shell_commands(list(enumerate(lines, start=1)))))
        if gap is None:
            continue
        shown = Path(os.path.relpath(script, directory.resolve())).as_posix()
        start = lines[gap.first - 1]
        yield Diagnostic(
            readme,
            line,
            f"README runs {run}, {_unjoined_said(gap, shown, 'the shell', lines[gap.line - 1])}",
            confidence=LIKELY if start[:1] in (" ", "\t") else CERTAIN,
        )
    yield from _unjoined_recipes(doc, readme, directory, project)


def _unjoined_recipes(
    doc: Document, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """`unjoined_lines` of the recipes of the make targets the README's `make` commands name."""
    commands = list(make_commands(doc))
    path = makefile_of(directory, project) if commands else None
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return
    shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
    confidence = CERTAIN if path.parent == directory.resolve() else LIKELY
    lines = text.splitlines()
    told: set[int] = set()
    for line, targets in commands:
        for target in targets:
            recipe = makefile.recipe_commands(text, target)
            gap = _first_unjoined(recipe) if recipe else None
            if gap is None or gap.first in told:
                continue
            told.add(gap.first)
            said = _unjoined_said(gap, shown, "make", lines[gap.line - 1])
            yield Diagnostic(readme, line, f"README runs make {target}, {said}", confidence=confidence)


_SPACED = re.compile(
    r"(?P<name>[A-Za-z_]\w*)=[ \t]+(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|#]+)[ \t]*(?:#.*)?\Z"
)
"""An unindented script line that assigns with a space after `=` and gives one word (`IMAGE_NAME= "a/b"`):
the shell runs the word as a command, with the variable set to nothing for it alone."""
_SET_AGAIN = (
    r"(?:^|[\s;&|(]){name}(?:\+?=|\[)|\b(?:export|readonly|local|declare|typeset|read|for)\b[^\n;]*\b{name}\b"
)
"""Another assignment of the variable in the script (`NAME=x`, `export NAME`, `read NAME`, `for NAME`)."""


def _not_a_command(value: str) -> bool:
    """Whether the word after `= ` is a value rather than a command a one-command environment runs:
    a quoted string, or a word with a `/` or `:` that is no path (`nvidia/cuda:12`), or one starting with
    a digit."""
    if value[:1] in "\"'":
        return True
    if value.startswith(("/", ".", "~", "$")):
        return False
    return "/" in value or ":" in value or value[:1].isdigit()


def spaced_assignment(text: str) -> tuple[int, str, str, int] | None:
    """(line, variable, value, line using it) of the first unindented `NAME= value` of a script whose
    value is no command (`_not_a_command`) and whose variable a later line reads (`${NAME}`) while the
    script sets it nowhere else; None when there is none."""
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        match = _SPACED.match(line)
        if match is None or not _not_a_command(match.group("value")):
            continue
        name = match.group("name")
        rest = "\n".join(lines[number:])
        others = "\n".join(lines[: number - 1]) + "\n" + rest
        if re.search(_SET_AGAIN.format(name=re.escape(name)), others, re.MULTILINE):
            continue
        used = re.compile(rf"\$(?:{{{re.escape(name)}(?=[}}:#%/^,@\[-])|{re.escape(name)}(?!\w))")
        at = next(
            (n for n, later in enumerate(lines[number:], start=number + 1) if used.search(sh_code(later))),
            None,
        )
        if at is not None:
            return number, name, match.group("value"), at
    return None


def spaced_assignments(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A shell script the README runs that assigns with a space after `=` (`IMAGE_NAME= "nvidia/…"`) and
    reads the variable later (`docker build -t ${IMAGE_NAME}:${TAG} .`): the shell runs the value as a
    command and the variable stays empty, so the later line gets nothing in its place (`certain`)."""
    for line, run, _script, _cwd, text in shell_scripts_run(doc, directory, audited, project):
        found = spaced_assignment(text)
        if found is None:
            continue
        at, name, value, used = found
        if len(value) > 60:  # (a quoted value keeps its closing quote)
            value = value[:56] + "…" + (value[-1] if value[:1] in "\"'" else "")
        yield Diagnostic(
            readme,
            line,
            f"README runs {run}, whose line {at} assigns {name}= {value} with a space after =: the "
            f"shell runs {value} as a command and leaves {name} empty, so line {used} reads an empty "
            f"${{{name}}}",
            confidence=CERTAIN,
        )


_PAIR = re.compile(r"\\`([^`'\"\\\n]*)\\`")
"""A command substitution with its backticks escaped (`` \\`pwd\\` ``): as prose writes one in Markdown."""
_MARK = "DGLITERAL"
"""The word part that stands for such a pair in a command's text, while its words are read."""
_MARKED = re.compile(rf"{_MARK}(\d+)")
_ALIAS = re.compile(r"(?:^|[;&|][ \t]*)alias[ \t]+([\w.:-]+)='([^']*)'")
"""An alias defined in single quotes, whose text the shell reads as a command when the alias runs."""


def literal_pairs(text: str) -> tuple[str, list[str]]:
    """`text` (a shell command) with each escaped backtick pair the shell takes as text (`_PAIR`, outside
    quotes and outside a command substitution written with backticks, where `\\`` nests one) replaced
    by `_MARK` and its number, and the pairs as written, in order."""
    out: list[str] = []
    pairs: list[str] = []
    quote, ticked, at = "", False, 0
    while at < len(text):
        char = text[at]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            pair = _PAIR.match(text, at) if not quote and not ticked else None
            if pair is not None:
                out.append(f"{_MARK}{len(pairs)}")
                pairs.append(pair.group(0))
                at = pair.end()
                continue
            out.append(text[at : at + 2])
            at += 2
            continue
        elif quote == '"':
            quote = "" if char == '"' else quote
            ticked = not ticked if char == "`" else ticked
        elif char in "'\"":
            quote = char
        elif char == "`":
            ticked = not ticked
        out.append(char)
        at += 1
    return "".join(out), pairs


_WORKDIR = frozenset({"-w", "--workdir"})
_VOLUME = frozenset({"-v", "--volume"})


def _restored(text: str, pairs: Sequence[str]) -> str:
    """`text` with each `_MARK` put back as the pair it stands for."""
    return re.sub(rf"{_MARK}(\d+)", lambda m: pairs[int(m.group(1))], text)


def _written(text: str, name: str, value: str, pairs: Sequence[str]) -> str:
    """The option `name` given `value` (`_MARK`s in it) as the command `text` writes it
    (`--volume=`pwd`:\\`pwd\\``, `-v \\`pwd\\`/w:/w`; `name` empty: a positional word)."""
    marked = _MARKED.search(value)
    pair = pairs[int(marked.group(1))] if marked is not None else value
    word = next((w for w in text.split() if pair in w), pair)
    return word if not name or word.startswith(name) else f"{name} {word}"


_MOUNT_PATH = re.compile(rf"(?:^|,)(?:source|src|target|dst|destination)={_MARK}")
"""A `--mount` path that starts with a pair taken as text."""


def _docker_refusal(step: str, pairs: Sequence[str], text: str) -> tuple[str, str] | None:
    """(the option as written in `text`, what docker does with it) of a `docker run` / `create` step
    (`_MARK`s in it) whose working directory, mount path or volume name starts with a pair taken as text,
    or whose image holds one: docker refuses a path that is not absolute and a volume name or an image
    reference holding a backtick. None for any other step (`-v /data/\\`whoami\\`:/d`: an absolute path
    docker makes)."""
    words = docker_words(step)
    found = docker_verb(words) if words else None
    if words is None or found is None or found[0] not in ("run", "create"):
        return None
    read = read_words(words[found[1] :], RUN)
    if not read.complete or read.help:
        return None
    for name, value in read.values:
        if name in _WORKDIR and value.startswith(_MARK):
            return _written(text, name, value, pairs), (
                f"docker gets the text {_shown(value, pairs)} in backticks as its working directory, which "
                "is not an absolute path: docker refuses the run"
            )
        if name in _VOLUME and _MARK in value:
            source, _, rest = value.partition(":")
            target = rest.split(":", 1)[0]
            if target.startswith(_MARK):
                return _written(text, name, value, pairs), (
                    f"the mount's path in the container is the text {_shown(target, pairs)} in backticks, "
                    "which is not an absolute path: docker refuses the run (invalid volume specification)"
                )
            if source.startswith(_MARK):
                return _written(text, name, value, pairs), (
                    f"docker takes the text {_shown(source, pairs)} for the name of a volume, which may hold "
                    "no backtick or slash: docker refuses the run"
                )
        if name == "--mount" and _MOUNT_PATH.search(value):
            return _written(text, name, value, pairs), (
                "the mount is given a path that starts with the text of a pair in backticks, which is not "
                "an absolute path: docker refuses the run"
            )
    if read.positional and _MARK in read.positional[0]:
        image = read.positional[0]
        return _written(text, "", image, pairs), (
            f"docker gets the image reference {_shown(image, pairs)}, which may hold no backtick: docker "
            "refuses the run (invalid reference format)"
        )
    return None


def _shown(value: str, pairs: Sequence[str]) -> str:
    """A word holding `_MARK`s as docker or a program gets it: each pair's backticks without their
    backslashes."""
    return _restored(value, pairs).replace("\\`", "`")


_LITERALLY = "reads \\` as a backtick character, not as a command substitution"


@dataclass(frozen=True)
class _Literal:
    """An escaped backtick pair of a command that the shell takes as text, and what that does."""

    pair: str
    """The pair as written (`` \\`pwd\\` ``)."""
    head: str
    """The command's part it is in (`gives --workdir=\\`pwd\\``, `runs cd \\`pwd\\`/build`)."""
    why: str
    """What the program gets and does with it."""
    refused: bool
    """A `docker run` refuses it."""

    @property
    def fix(self) -> str:
        inner = self.pair[2:-2]
        return f"(write `{inner}` or $({inner}), with no backslashes)"


def _pair_finding(text: str) -> _Literal | None:
    """What the first step of the shell command `text` holding an escaped backtick pair the shell takes
    as text (`literal_pairs`) does with it; None when it holds none."""
    replaced, pairs = literal_pairs(text)
    if not pairs:
        return None
    for step in shell_steps(replaced):
        number = _MARKED.search(step)
        if number is None:
            continue
        pair = pairs[int(number.group(1))]
        refused = _docker_refusal(step, pairs, text)
        if refused is not None:
            return _Literal(pair, f"gives {refused[0]}", refused[1], True)
        try:
            words = [w for w in shell_split(step) if not _PREFIX.match(w)]
        except ValueError:
            continue
        held = next((w for w in words if _MARK in w), None)
        if held is None or _MARK in words[0]:
            continue
        shown = clipped(_restored(step.strip(), pairs), 80)
        given = _shown(held, pairs)
        why = f"{words[0]} gets the text {given} with its backticks, not the output of {pair[2:-2]}"
        return _Literal(pair, f"runs {shown}", why, False)
    return None


def escaped_substitutions(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A command of a shell block holding a command substitution whose backticks are escaped
    (`--workdir=\\`pwd\\``, as prose escapes them in Markdown), outside quotes or in the text of an alias
    defined in single quotes (`alias x='docker run -v \\`pwd\\`:/w …'`, read again when the alias runs):
    the shell takes the backticks as characters and runs no command. `certain` when a `docker run` is given
    the text as its working directory, a mount or its image (docker refuses a path that is not absolute and
    a volume name or reference with a backtick); `likely` for another program, which gets the text. Not
    read: double quotes (where the pair is a command substitution of the alias or script written), a
    heredoc's body, a prose line."""
    for fence in doc.fences:
        if not shell_block(fence) or not any("\\`" in text for _, text in fence.lines):
            continue
        for command in shell_commands(fence.lines):
            text = without_prompt(joined(command))
            if "\\`" not in text:
                continue
            alias = _ALIAS.search(sh_code(text))
            found = _pair_finding(alias.group(2) if alias is not None else text)
            if found is None:
                continue
            if alias is not None:
                body = alias.group(2)
                cut = body.find(found.pair) + len(found.pair)
                cut = next((i for i in range(cut, len(body)) if body[i] in " \t"), len(body))
                shown = body[:cut] + (" …" if cut < len(body) else "")
                message = (
                    f"README's alias {alias.group(1)}='{shown}' holds {found.pair} inside single quotes: the "
                    f"shell keeps the backslashes, and when the alias runs it {_LITERALLY}, so {found.why} "
                    f"{found.fix}"
                )
            else:
                who = "README's docker run" if found.refused else "README"
                message = (
                    f"{who} {found.head}: outside double quotes the shell {_LITERALLY}, so {found.why} "
                    f"{found.fix}"
                )
            line = next((n for n, t in command if found.pair in t), command[0][0])
            yield Diagnostic(readme, line, message, confidence=CERTAIN if found.refused else LIKELY)
