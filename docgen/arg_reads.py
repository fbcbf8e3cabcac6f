"""How the RUNs read build args: those they cannot do without (`ImageModel.required_args`), and those
they read only where the build ignores them (`ImageModel.inert_args`).

A RUN cannot do without a build arg declared with no default in any ARG of its name that it reads in
one of two ways:

- it tests the arg and stops without it: `test -n "$REF" && git fetch …`, `[ -z "$REF" ] && exit 1`,
  `if [ -z "$REF" ]; then … exit 1`, `${REF:?}` (a test under `if` that does not exit is a choice);
- it runs a command that cannot work with nothing in the arg's place, the arg being the command's last
  word (`useradd -m -u 1000 ${USER}`: with USER empty the shell drops the word and `useradd` has no
  user name; `"${USER}"` gives it an empty one, which it refuses too): the user and group tools,
  `chown`/`chgrp`/`chmod` and `mkdir` left with too few operands, `git clone` with no repository.
  The command must decide the RUN's status: a simple command of the RUN's top-level list, after which
  only `&&` follows (`useradd $U; echo done` ends with `echo`'s status: BuildKit runs `sh -c` without
  `-e`), not after `||` or `|`; a RUN with `if`, a loop, a group, a subshell or a redirection is not
  read, nor one whose SHELL is no POSIX shell.

The arg must be in scope at the RUN (declared in its stage, or re-declared there), and no ENV may set
its name to anything but itself (`ENV model_path=${model_path}` keeps it empty). The base image may
still set it in its environment, which the Dockerfile cannot tell: the audit reports these as likely.

A build arg is inert when every instruction reading it is a RUN whose `cmake` gives it only to an option
naming the GPU targets of one backend (`-D HIP_ARCH=${SM_NUMBER}`) while the same command selects another
backend and not that one (`-D GPU_API=CUDA`): the build never reads the option (`hardware.py` holds
which options and switches belong to which backend).
"""

from __future__ import annotations

import re

from docgen.evaluate import PREDEFINED_ARGS, Evaluation, env_pairs
from docgen.hardware import arch_option_backend, selected_backend
from docgen.model import ArgDecl, Instruction, ParsedDockerfile, RequiredArg
from docgen.shell import COMPOUND_WORDS, POSIX_SHELLS, referenced_names, sh_tokens

_NON_EMPTY = r"(?:test[ \t]+-n|\[\[?[ \t]+-n)[ \t]+\"?\$\{?(NAME)\}?\"?(?:[ \t]*\]\]?)?"
_EMPTY = r"(?:test[ \t]+-z|\[\[?[ \t]+-z)[ \t]+\"?\$\{?(NAME)\}?\"?(?:[ \t]*\]\]?)?"
_REQUIRING = tuple(
    re.compile(pattern.replace("NAME", r"[A-Za-z_][A-Za-z0-9_]*"))
    for pattern in (
        # the RUN starts with the test and goes on only with `&&`: an empty value fails it
        r"\A[ \t]*" + _NON_EMPTY + r"[ \t]*&&(?!.*(?:;|\|\|))",
        # the test, else a failure
        _NON_EMPTY + r"[ \t]*\|\|[ \t]*[({]?[^;|]*?\b(?:exit(?![ \t]+0\b)|false)\b",
        _EMPTY + r"[ \t]*&&[ \t]*[({]?[^;|]*?\b(?:exit(?![ \t]+0\b)|false)\b",
        r"\bif[ \t]+"
        + _EMPTY
        + r"[ \t]*;[ \t]*then\b(?:(?!\b(?:fi|else|elif)\b).)*?\b(?:exit(?![ \t]+0\b)|false)\b",
        r"\$\{(NAME):?\?",
    )
)

_ACCOUNT_TOOLS = frozenset({"useradd", "groupadd", "usermod", "groupmod", "userdel", "groupdel"})
"""Commands whose last word is the one user or group they act on: without it they print their usage
and fail, and an option left without its value fails them too."""
_ACCOUNT_FLAGS = frozenset(
    {"-m", "-M", "-N", "-r", "-U", "-l", "-f", "-o", "-a", "-L", "--create-home", "--no-create-home"}
    | {"--no-user-group", "--user-group", "--system", "--no-log-init", "--force", "--non-unique"}
    | {"--append", "--lock", "--unlock", "--move-home", "--remove"}
)
"""Options of the account tools that take no value: a quoted empty word after one is the user name."""
_OPERANDS = {"chown": 2, "chgrp": 2, "chmod": 2, "mkdir": 1, "clone": 1}
"""How many operands a command needs (`chown OWNER FILE`, `mkdir DIR`, `git clone REPOSITORY`)."""
_FLAGS = {
    "chown": frozenset({"-R", "-f", "-v", "-c", "-h", "-H", "-L", "-P", "--recursive", "--silent"})
    | frozenset({"--quiet", "--verbose", "--changes", "--no-dereference", "--dereference"}),
    "mkdir": frozenset({"-p", "-v", "--parents", "--verbose"}),
    "clone": frozenset({"--recursive", "--recurse-submodules", "-q", "--quiet", "--single-branch"})
    | frozenset({"--no-single-branch", "--bare", "--mirror", "-n", "--no-checkout", "--no-tags", "-v"})
    | frozenset({"--shallow-submodules", "--progress", "-l", "--local"}),
}
_FLAGS["chgrp"] = _FLAGS["chmod"] = _FLAGS["chown"]
"""Options of those commands that take no value (any other option: the words are not counted)."""
_VALUED = {
    "mkdir": frozenset({"-m", "--mode"}),
    "clone": frozenset({"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "-j", "--jobs"})
    | frozenset({"--filter", "--reference", "--template", "-u", "--upload-pack", "--separate-git-dir"}),
}
"""Options of those commands that take the next word as their value."""
_COMPOUND = COMPOUND_WORDS | {"function"}
"""A command starting with one of these is no simple command (`function f {`: a definition in bash)."""


def required_args(parsed: ParsedDockerfile, evaluation: Evaluation) -> tuple[RequiredArg, ...]:
    """Each build arg declared without a default (in every declaration) that a RUN of the Dockerfile
    fails the build without (see the module's docstring), by line."""
    given: dict[str, bool] = {}
    for decl in evaluation.args:
        given[decl.name] = given.get(decl.name, False) or decl.raw_default is not None
    unset = {name for name, has in given.items() if not has and name not in PREDEFINED_ARGS}
    if not unset:  # most Dockerfiles: every arg has a default, no RUN needs reading
        return ()
    unset -= _set_by_env(parsed, unset)
    found: dict[tuple[str, int], RequiredArg] = {}
    shells: list[bool] = []  # each stage read so far: whether its SHELL is a POSIX shell
    for inst, scope in zip(parsed.instructions, evaluation.scopes, strict=False):
        if inst.keyword == "FROM":  # the default shell, or the one of the stage it is built FROM
            parent = evaluation.stages[len(shells)].parent
            shells.append(True if parent is None else shells[parent])
        if inst.keyword == "SHELL" and shells:
            shells[-1] = _posix_shell(inst)
        if inst.keyword != "RUN" or scope.stage is None:
            continue
        label = evaluation.stages[scope.stage].label
        bodies = [inst.args, *(h.body for h in inst.heredocs)]
        for body in bodies:
            if not any(name in body for name in unset):
                continue  # a pattern matches only a body that names one of them
            for pattern in _REQUIRING:
                for match in pattern.finditer(body):
                    name = match.group(1)
                    if name in unset:
                        found.setdefault((name, inst.start_line), RequiredArg(name, inst.start_line, label))
        if not shells[-1] or inst.heredocs or inst.exec_form:
            continue
        in_scope = {n for n in unset if _in_scope(evaluation.args, n, label, inst.start_line)}
        for name, command in _failing_commands(inst.args, in_scope):
            key = (name, inst.start_line)
            found.setdefault(key, RequiredArg(name, inst.start_line, label, command))
    return tuple(sorted(found.values(), key=lambda r: (r.line, r.name)))


def _set_by_env(parsed: ParsedDockerfile, names: set[str]) -> set[str]:
    """Those of `names` an ENV of the Dockerfile sets to anything but the arg itself (`ENV NAME=$NAME`
    passes the empty value on)."""
    found: set[str] = set()
    for inst in parsed.instructions:
        if inst.keyword != "ENV":
            continue
        for name, value in env_pairs(inst, parsed.escape):
            if name in names and value.strip("\"'") not in (f"${name}", f"${{{name}}}"):
                found.add(name)
    return found


def _posix_shell(inst: Instruction) -> bool:
    """True when a SHELL instruction keeps a POSIX shell (`["/bin/bash", "-c"]`), not PowerShell or cmd."""
    words = inst.exec_form or ()
    return bool(words) and words[0].rsplit("/", 1)[-1] in POSIX_SHELLS


def _in_scope(args: tuple[ArgDecl, ...], name: str, stage: str, line: int) -> bool:
    """True when an ARG of `name` is in effect in `stage` at `line` (declared there before it, or in a
    stage it is built FROM)."""
    return any(a.name == name and a.stage is not None and a.line < line and stage in a.stages for a in args)


def _commands(body: str) -> list[tuple[str, list[str]]] | None:
    """(operator before it, words) of each simple command of the RUN `body`, a list joined by `&&`,
    `||`, `;` and `|` only; None when it holds anything else (a redirection, a subshell, a background
    job) or cannot be read."""
    try:
        tokens = sh_tokens(body)
    except ValueError:
        return None
    commands: list[tuple[str, list[str]]] = []
    before = ""
    words: list[str] = []
    for token in tokens:
        if token.operator:
            if token.text not in ("&&", "||", ";", "|"):
                return None
            commands.append((before, words))
            before, words = token.text, []
        else:
            words.append(token.text)
    commands.append((before, words))
    return commands


def inert_args(parsed: ParsedDockerfile, evaluation: Evaluation) -> tuple[tuple[str, int, str, str], ...]:
    """(build arg, RUN line, the option it feeds, the setting selecting another backend: `GPU_API=CUDA`)
    of each build arg every instruction reading it reads only in such an option (see the module's
    docstring), at the first of them."""
    used: dict[str, set[int]] = {}
    for decl in evaluation.args:
        used.setdefault(decl.name, set()).update(decl.used_lines)
    found: dict[tuple[str, int], tuple[str, str]] = {}
    for inst in parsed.instructions:
        if inst.keyword != "RUN" or "cmake" not in inst.args or inst.heredocs or inst.exec_form:
            continue
        names = {n for n, lines in used.items() if inst.start_line in lines}
        for name, option, selector in _inert_in(inst.args, names):
            found.setdefault((name, inst.start_line), (option, selector))
    inert = []
    for name, lines in used.items():
        if lines and all((name, line) in found for line in lines):
            line = min(lines)
            inert.append((name, line, *found[(name, line)]))
    return tuple(sorted(inert, key=lambda item: (item[1], item[0])))


def _inert_in(body: str, names: set[str]) -> list[tuple[str, str, str]]:
    """(arg, option, selector) of each of `names` the RUN `body` reads only in `cmake` options of a GPU
    backend its command does not select."""
    commands = _commands(body) if names else None
    if commands is None:
        return []
    found: list[tuple[str, str, str]] = []
    inert_reads: dict[str, int] = {}
    for _, words in commands:
        if not words or words[0].rsplit("/", 1)[-1] != "cmake":
            continue
        options = _cmake_options(words[1:])
        selected = {b: f"{o}={v}" for o, v in options if (b := selected_backend(o, v)) is not None}
        if len(selected) != 1:
            continue
        chosen = next(iter(selected))
        for option, value in options:
            backend = arch_option_backend(option)
            if backend is None or backend == chosen:
                continue
            for name in referenced_names(value) & names:
                inert_reads[name] = inert_reads.get(name, 0) + len(_reads(name).findall(value))
                found.append((name, option, selected[chosen]))
    # an arg read anywhere else in the RUN is read for something
    return [item for item in found if len(_reads(item[0]).findall(body)) == inert_reads[item[0]]]


def _reads(name: str) -> re.Pattern[str]:
    return re.compile(rf"\$(?:{re.escape(name)}\b|\{{{re.escape(name)}\b)")


def _cmake_options(words: list[str]) -> list[tuple[str, str]]:
    """(name, value) of each `-D NAME=VALUE`, `-DNAME=VALUE` or `-DNAME:TYPE=VALUE` of cmake `words`."""
    found = []
    for index, word in enumerate(words):
        if word == "-D" and index + 1 < len(words):
            word = "-D" + words[index + 1]
        if not word.startswith("-D") or "=" not in word:
            continue
        name, _, value = word[2:].partition("=")
        found.append((name.split(":", 1)[0].strip("\"'"), value))
    return found


def _failing_commands(body: str, names: set[str]) -> list[tuple[str, str]]:
    """(arg, command as written) of each command of the RUN `body` whose last word is one of `names`
    and that fails with it empty, deciding the RUN's status (see the module's docstring)."""
    if not names or not any(name in body for name in names):
        return []
    commands = _commands(body)
    if commands is None:
        return []
    found = []
    for index, (before, words) in enumerate(commands):
        if not words or words[0] in _COMPOUND:
            return []
        if before in ("||", "|"):
            continue
        after = [op for op, _ in commands[index + 1 :]]
        if any(op != "&&" for op in after):
            continue  # a later `;`, `||` or `|` decides the RUN's status
        failing = _fails_empty(words, names)
        if failing is not None:
            found.append((failing, " ".join(words)))
    return found


def _fails_empty(words: list[str], names: set[str]) -> str | None:
    """The arg of `names` whose empty value makes the simple command `words` fail (its last word), or
    None."""
    while words and (words[0] == "sudo" or re.fullmatch(r"[A-Za-z_]\w*=\S*", words[0])):
        words = words[1:]
    if len(words) < 2:
        return None
    last = words[-1]
    match = re.fullmatch(r"(\"?)\$(?:\{(\w+)\}|(\w+))\1", last)
    if match is None or (name := match.group(2) or match.group(3)) not in names:
        return None
    quoted = bool(match.group(1))
    command, rest = words[0].rsplit("/", 1)[-1], words[1:-1]
    if command == "git":
        if "clone" not in rest:
            return None
        command, rest = "clone", rest[rest.index("clone") + 1 :]
    if command in _ACCOUNT_TOOLS:
        if "-D" in rest or "--defaults" in rest:
            return None
        if quoted and rest and rest[-1].startswith("-") and rest[-1] not in _ACCOUNT_FLAGS:
            return None  # `-c "$COMMENT"`: an empty value of an option may be fine
        return name
    needed = _OPERANDS.get(command)
    if needed is None:
        return None
    flags, valued = _FLAGS.get(command, frozenset()), _VALUED.get(command, frozenset())
    if rest and rest[-1] in valued:
        return None if quoted else name  # `-m $MODE`: unquoted, the option has no value left
    operands = 0
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word in valued:
            skip = True
        elif word.startswith("--reference"):
            return None  # `chown --reference=FILE FILE`: one operand is enough
        elif word.startswith("-") and word not in flags and "=" not in word:
            return None  # an option docgen does not know: its words cannot be counted
        elif not word.startswith("-"):
            operands += 1
    if quoted:
        return name  # an empty operand: `mkdir -p ""`, `chown user ""` fail
    return name if operands < needed else None
