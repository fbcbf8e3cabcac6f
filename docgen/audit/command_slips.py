"""A `git` command with an option written before its subcommand that git itself does not take there:
`git -b v1.2 clone …` (for `git clone -b v1.2 …`). Before the subcommand git reads only its own short
list of options (`-C`, `-c`, `--git-dir`, `--work-tree`, `--no-pager`, `-p`, `-P`, `--bare`, …); any other
one makes it print "unknown option" and exit with status 129, whatever the rest says.

Read in the README's command blocks (`certain`: the command fails as written) and in the shell scripts
the README runs, found where its commands run them (`script_args.script_runs`; `likely`: the script may
not reach that line). One finding a command of the README, and one a script (at the README line that runs
it, naming the script's line; for pip's `install` given to venv, at the prose line saying the package is
installed, when one does: `the push step creates a venv, installs `s3cmd``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import fence_commands, joined, shell_steps, without_prompt
from docgen.audit.script_args import script_runs
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
_WORDS = re.compile(r"\bgit\b|\bvenv\b")
"""The words a step must hold to be one of the slips read."""
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


def slip(step: str) -> str | None:
    """What a step does wrong as written (`git with -b before its subcommand (…): git takes only …`), when
    it is one of the slips this module reads; None otherwise."""
    option = misplaced_option(step)
    if option is not None:
        return (
            f"git with {option} before its subcommand ({step.strip()[:80]}): git takes only its own options "
            f'there (-C, -c, --git-dir, …) and exits with "unknown option: {option}"'
        )
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
    if not (path.suffix in (".sh", ".bash") or _SHELL.match(text)) or not _WORDS.search(text):
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


def slipped_commands(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A step that fails or does nothing as written (`slip`), in a command block of the README (`certain`)
    or in a shell script a command block runs (`likely`): `README runs ./build.sh, whose line 85 runs git
    with -b before its subcommand (sudo git -b … clone …): git takes only its own options there (-C, -c,
    --git-dir, …) and exits with "unknown option: -b"`."""
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = without_prompt(joined(command))
            if not _WORDS.search(text):
                continue
            said = next((s for step in shell_steps(sh_code(text)) if (s := slip(step))), None)
            if said is not None:
                yield Diagnostic(readme, command[0][0], f"README runs {said}", confidence=CERTAIN)
    read: set[Path] = set()
    for line, path, script, _ in script_runs(doc, directory, audited, project):
        if script in read:
            continue  # one finding a script
        read.add(script)
        found = next(((at, step, s) for at, step in _script_steps(script) if (s := slip(step))), None)
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
