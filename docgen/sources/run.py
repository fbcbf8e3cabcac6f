"""Reading one RUN: shell form, exec form and heredoc scripts, command by command.

Each command is stripped of shell keywords (`if`, `then`, `do` …), leading assignments and wrappers
(`sudo`, `env`, `conda run …`), then handed to the recogniser for its tool: git, pip / `uv pip`,
curl / wget, apt, conda / mamba / micromamba, apk, dnf / yum / microdnf / rpm, `npm install -g`,
`go install`, `cargo install`, `uv tool install` and pipx. `cd`, `pushd` and `for` are followed;
`bash -c '…'` and heredoc scripts are read as nested scripts. Commands that install things docgen does
not read (gem, zypper, pacman, spack, choco) are noted as skipped.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from docgen.model import Instruction
from docgen.shell import Unknown
from docgen.sources import apt, conda, downloads, git, packages, pip, setup_scripts, tools
from docgen.sources.context import RunContext
from docgen.sources.installer import short
from docgen.sources.script import MAX_DEPTH, Command, Word, expand_text, line_offsets, read_commands

_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ash", "ksh"})
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time", "fi", "done"}
)
_DECLARE = frozenset({"export", "declare", "local", "readonly", "typeset", "unset", "set", "shopt", "trap"})
_WRAPPERS = frozenset({"sudo", "env", "nice", "nohup", "exec", "command", "stdbuf", "eatmydata", "builtin"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?\Z")
_PIP = re.compile(r"pip(?:\d+(?:\.\d+)?)?\Z")
_BUILD_TOOLS = frozenset({"make", "cmake", "ninja", "meson", "cargo", "bazel", "scons", "gmake", "colcon"})
_CONFIGURE_TOOLS = frozenset({"cmake", "meson"})
"""Build tools whose arguments may name a source folder other than the one they run in."""
_UNREAD_INSTALLERS = {
    "gem": "install",
    "zypper": "install",
    "pacman": "-S",
    "spack": "install",
    "choco": "install",
}


def _basename(path: str) -> str:
    """`posixpath.basename` of a str, without its generic-path overhead (it runs once a word)."""
    return path[path.rfind("/") + 1 :]


def read_run(inst: Instruction, ctx: RunContext, escape: str = "\\") -> None:
    """Read one RUN instruction into `ctx.recorder`."""
    if inst.exec_form is not None:
        words = [Word(w) for w in inst.exec_form]
        if words and _basename(words[0].text) in _SHELLS:
            _shell(words, Command(words=words, line=inst.start_line), ctx)
        else:
            _command(Command(words=words, line=inst.start_line), _strip(words), None, ctx)
        return
    ctx.run_line = inst.start_line
    bodies = [(h.body, h.start_line) for h in inst.heredocs]
    offsets = line_offsets(inst.args, inst.original, escape, inst.start_line)
    _commands(read_commands(inst.args, ctx.state, inst.start_line, bodies, offsets), ctx)


def script(text: str, ctx: RunContext, line: int) -> None:
    """Read shell `text` (a heredoc script, a `bash -c` argument) starting at Dockerfile `line`."""
    _commands(read_commands(text, ctx.state, line), ctx)


def _commands(commands: Iterator[Command], ctx: RunContext) -> None:
    previous: tuple[Command, list[Word]] | None = None
    for cmd in commands:
        words = _strip(cmd.words)  # once a command: its own reading and the next one's look back
        _command(cmd, words, previous, ctx)
        previous = (cmd, words)


def _strip(words: list[Word]) -> list[Word]:
    """The words from the command name on: keywords, assignments and wrappers removed."""
    i = 0
    n = len(words)
    while i < n:
        word = words[i]
        text = word.text
        if (not word.quoted and text in _KEYWORDS) or ("=" in text and _ASSIGNMENT.match(text)):
            i += 1
            continue
        name = _basename(text)
        if name in _WRAPPERS:
            i += 1
            while i < n and words[i].text.startswith("-"):
                i += 2 if words[i].text in ("-u", "-g", "-C", "-o", "-e", "-i0") else 1
            continue
        if name in ("timeout",):
            i += 2
            continue
        if name in ("conda", "mamba", "micromamba") and i + 1 < n and words[i + 1].text == "run":
            i += 2
            while i < n and words[i].text.startswith("-"):
                i += 2 if words[i].text in ("-n", "--name", "-p", "--prefix") else 1
            continue
        break
    return words[i:]


def _command(
    cmd: Command, words: list[Word], before: tuple[Command, list[Word]] | None, ctx: RunContext
) -> None:
    """Read one command; `words` are its words from the command name on (`_strip`), `before` the
    command before it in the script and its words so."""
    ctx.line = cmd.line
    ctx.recorder.condition = cmd.condition
    previous, previous_words = before if before is not None else (None, [])
    ctx.recorder.reach.note(cmd)
    if cmd.glued and words:
        _redirected_requirements(cmd, words, ctx)
    if cmd.skipped is not None:
        if words and _installs(words):
            ctx.recorder.skip(
                cmd.line, f"{short(words)}: in a branch the default build does not take ({cmd.skipped})"
            )
        return
    ctx.conditional = previous is not None and previous.sep in ("&&", "||") and _is_test(previous_words)
    ctx.recorder.branch = ctx.in_branch()
    if len(words) > 1 and not _CLOSING.isdisjoint([w.text for w in words]) and _installs(words):
        words = _without_stray_keywords(words, ctx)
    if not words:
        if cmd.heredocs and not cmd.words:  # `RUN <<EOF`: the body is the script
            _heredoc_scripts(cmd, ctx)
        return
    name = _basename(words[0].text)
    if words[0].text == "for" and len(words) > 1:
        ctx.state.variables[words[1].text] = (Unknown("a loop variable"), frozenset())
    elif name in _DECLARE:
        return
    elif name in ("cd", "pushd"):
        _cd(words, ctx, push=name == "pushd")
    elif name == "popd":
        if ctx.dirstack:
            ctx.cwd = ctx.dirstack.pop()
    elif _runs_pip_module(
        words
    ):  # `/isaac-sim/python.sh -m pip`, `${PYTHON} -m pip`, `$VENV/bin/python3.12 -m pip`
        _python(words, ctx)
    elif name == "git":
        git.handle(words, ctx)
    elif _PIP.match(name):
        _pip(words[1:], ctx)
    elif _PYTHON.match(name):
        _python(words, ctx)
    elif name == "uv" and len(words) > 2 and words[1].text == "pip":
        _pip(words[2:], ctx)
    elif name == "uv" and len(words) > 1 and words[1].text == "sync":
        tools.uv_sync(words[2:], ctx)
    elif name == "uv" and len(words) > 2 and words[1].text == "add":
        pip.handle(words[2:], ctx)  # `uv add pkg==1.2`: added to the project and installed
    elif name in ("curl", "wget", "aria2c", "axel"):
        lists = [w.text for w in words[1:] if "sources.list" in w.text and "://" not in w.text]
        lists += [t.text for _, t in cmd.redirects if "sources.list" in t.text]
        if lists:  # `wget -qO /etc/apt/sources.list.d/x.list URL`: an apt repository, not a download
            for url in downloads.urls(words):
                apt.list_file(url, lists[0], ctx)
            return
        for url in downloads.urls(words):
            arg = ctx.recorder.arg_for(url)
            value = ctx.recorder.value_in(arg, url.text)
            found = downloads.component(url, ctx.stage.label, ctx.line_of(url), arg, value=value)
            if found is not None:
                ctx.recorder.add(found)
                if found.version is None and (found.source or "").endswith(".sh"):
                    ctx.installer = len(ctx.recorder.components) - 1
    elif name in ("apt-get", "apt", "aptitude"):
        for i, word in enumerate(words[1:], 1):
            if word.text in ("install", "satisfy"):
                if word.text == "install":
                    apt.install(words[i + 1 :], ctx)
                break
            if word.text in ("remove", "purge"):
                apt.remove(words[i + 1 :], ctx, f"{name} {word.text}")
                break
            if word.text in ("upgrade", "dist-upgrade", "full-upgrade"):
                ctx.donors.clear()  # it may upgrade packages from any repository added before it
                break
            if not word.text.startswith("-"):
                break
    elif name == "dpkg":
        apt.dpkg_install(words[1:], ctx)
    elif name in ("add-apt-repository", "apt-add-repository"):
        apt.add_repository(words[1:], ctx)
    elif name in ("echo", "printf"):
        lists = [target.text for _, target in cmd.redirects if "sources.list" in target.text]
        if lists:
            ctx.list_file = ctx.path(lists[0])
            _deb_words(words[1:], ctx)
            ctx.list_file = None
    elif name in ("tee", "cat"):
        targets = [t.text for _, t in cmd.redirects] + [w.text for w in words[1:]]
        lists = [t for t in targets if "sources.list" in t]
        if lists:
            ctx.list_file = ctx.path(lists[0])
            for body, _ in cmd.heredocs:
                expanded = expand_text(body, ctx.state)
                apt.deb_lines(expanded.text, expanded, ctx)
            if name == "tee" and previous is not None and previous.sep == "|":
                if previous_words and posixpath.basename(previous_words[0].text) in ("echo", "printf"):
                    _deb_words(previous_words[1:], ctx)
            ctx.list_file = None
    elif name in conda.COMMANDS:
        conda.handle(name, words[1:], ctx)
    elif name == "apk":
        packages.apk(words[1:], ctx)
    elif name in packages.RPM_COMMANDS:
        packages.dnf(name, words[1:], ctx)
    elif name == "yum-config-manager":
        packages.config_manager(words[1:], ctx)
    elif name == "rpm":
        packages.rpm(words[1:], ctx)
    elif name in ("npm", "pnpm", "yarn"):
        tools.npm(name, words[1:], ctx)
    elif name == "go":
        tools.go(words[1:], ctx)
    elif name == "cargo" and any(w.text == "install" for w in words[1:3]):
        tools.cargo(words[1:], ctx)
    elif name == "uv" and len(words) > 2 and words[1].text == "tool" and words[2].text == "install":
        tools.uv_tool(words[3:], ctx)
    elif name == "pipx":
        tools.pipx(words[1:], ctx)
    elif name == "rm":
        _rm(words[1:], ctx)
    elif name in ("cp", "mv", "rsync", "install") and len(words) > 2:
        for word in words[1:-1]:  # copied out of a clone: the clone is used, even if deleted later
            clone = ctx.repo_at(ctx.path(word.text)) if not word.text.startswith("-") else None
            if clone is not None:
                clone.used = True
    elif name in _SHELLS:
        if ctx.installer is not None and previous is not None and previous.sep == "|":
            _piped_version(words, ctx)
        _shell(words, cmd, ctx)
    elif name in _BUILD_TOOLS or name.startswith(("build", "./build", "install.sh", "./install")):
        _built(_make_dir(words, ctx), ctx)
        if name in _CONFIGURE_TOOLS:
            _configured(words[1:], ctx)
        if name.endswith(".sh"):
            _script(words[0], words[1:], ctx)
    elif name.endswith(".sh"):
        _script(words[0], words[1:], ctx)
    elif name in _UNREAD_INSTALLERS and len(words) > 1:
        verb = _UNREAD_INSTALLERS[name]
        if any(w.text == verb for w in words[1:4]):
            ctx.recorder.skip(ctx.line, f"{name} {verb} is not read by docgen: {short(words)}")


_REQUIREMENT_VERBS = {
    "pip": ("install",),
    "uv": ("add",),
    "poetry": ("add",),
    "pdm": ("add",),
    "pipx": ("install",),
}
"""Python package installers (beside pip, `uv pip` and conda) and the subcommand that takes requirements."""
_CONDA_VERBS = ("install", "create")
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][\w.-]*(?:::[A-Za-z0-9][\w.-]*)?(?:\[[\w,.-]*\])?\Z")
"""A package name as a requirement starts (`paddleocr`, `uvicorn[standard]`, `conda-forge::numpy`)."""
_BOUND = re.compile(r"=?[0-9*]")
"""What follows a `>` or `<` in a version bound (`>=2.9.1`, `<2.6`): a redirect's target so."""


def _install_verb(words: list[Word]) -> int | None:
    """The index of the subcommand that takes requirements (`install` of `pip install`, `add` of
    `poetry add`) in a command's words from its name on, or None when it is no such install."""
    name = _basename(words[0].text)
    start = 1
    verbs: tuple[str, ...]
    if _runs_pip_module(words):
        start, verbs = (4 if words[2].text == "uv" else 3), ("install",)
    elif _PIP.match(name):
        verbs = ("install",)
    elif name == "uv" and len(words) > 1 and words[1].text == "pip":
        start, verbs = 2, ("install",)
    elif name in conda.COMMANDS:
        verbs = _CONDA_VERBS
    elif name in _REQUIREMENT_VERBS:
        verbs = _REQUIREMENT_VERBS[name]
    else:
        return None
    for index in range(start, min(len(words), start + 4)):
        if words[index].text in verbs:
            return index
        if not words[index].text.startswith("-"):
            return None
    return None


def _redirected_requirements(cmd: Command, words: list[Word], ctx: RunContext) -> None:
    """A requirement with a version bound the shell splits into a name and a redirection (`pip install
    paddleocr>=2.9.1`: `paddleocr`, output to a file `=2.9.1`; `torch<2.6`: input from a file `2.6`,
    which fails the build when there is none): the package is installed with no bound. Said to
    `docgen lint` as DG013 (`pip.redirect_warning`); the words are read as the shell reads them."""
    verb = _install_verb(words)
    if verb is None:
        return
    at = {id(word): index for index, word in enumerate(words)}
    for place, (word_index, redirect_index) in enumerate(cmd.glued):
        if word_index < 0:
            continue
        word = cmd.words[word_index]
        index = at.get(id(word))
        if (
            index is None
            or index <= verb
            or word.text.startswith("-")
            or not _REQUIREMENT_NAME.match(word.text)
        ):
            continue
        parts = []
        for _, following in [(word_index, redirect_index), *_chained(cmd.glued, place)]:
            parts.append(cmd.redirects[following] if following < len(cmd.redirects) else None)
        if parts[0] is None or not _BOUND.match(parts[0][1].text):
            continue
        shown = [(op, target.text) for op, target in (p for p in parts if p is not None)]
        tool = " ".join(w.text if i else _basename(w.text) for i, w in enumerate(words[: verb + 1]))
        ctx.recorder.skip(
            word.line or ctx.line,
            pip.redirect_warning(ctx.run_line or ctx.line, tool, word.text, shown),
            rule="DG013",
        )


def _chained(glued: list[tuple[int, int]], place: int) -> list[tuple[int, int]]:
    """The redirections glued on after the one at `place` of `glued`, each to the previous one's
    target (`torch>=2,<2.6`: `<2.6` after `>=2,`)."""
    found: list[tuple[int, int]] = []
    for word_index, redirect_index in glued[place + 1 :]:
        if word_index >= 0 or redirect_index != (found[-1][1] if found else glued[place][1]) + 1:
            break
        found.append((word_index, redirect_index))
    return found


_CLOSING = frozenset({"fi", "done", "esac", "then", "do", "else", "elif"})
"""Shell keywords that end or continue a compound command: after a command name they are plain words."""


def _without_stray_keywords(words: list[Word], ctx: RunContext) -> list[Word]:
    """An install command's words without a `fi`, `done` … written as one of its arguments: the `;`
    or newline before it is missing (`pip install x==1 \\` then `fi`), so the shell hands the tool
    the word, and it is no package of the image. Said to `docgen lint` as DG008."""
    stray = [w for w in words[1:] if not w.quoted and w.text in _CLOSING]
    for word in stray:
        ctx.recorder.skip(
            word.line or ctx.line,
            f"{short(words[:2])} gets `{word.text}` as an argument: the shell reads it as a keyword only "
            f"after a ';' or a newline (one is missing before it?); not listed as a package",
            rule="DG008",
        )
    return [w for w in words if w not in stray] if stray else words


def _installs(words: list[Word]) -> bool:
    """True for a command whose tool docgen reads for components (what `show --verbose` should say
    was not read when a branch the default build does not take holds it)."""
    name = _basename(words[0].text)
    return bool(
        _PIP.match(name)
        or _runs_pip_module(words)
        or name in _INSTALLERS
        or name in conda.COMMANDS
        or name.endswith(".sh")
        or (_PYTHON.match(name) and any(w.text.endswith("setup.py") for w in words[1:3]))
    )


_INSTALLERS = frozenset(
    {"git", "uv", "curl", "wget", "apt-get", "apt", "apk", "npm", "go", "cargo", "pipx", "add-apt-repository"}
    | packages.RPM_COMMANDS
)


_VERSION_OPTIONS = frozenset({"--tag", "--version", "--ver"})


def _piped_version(words: list[Word], ctx: RunContext) -> None:
    """`curl …/install.sh | bash -s -- --tag 1.42.4`: the version the downloaded installer is told to
    install, when an option names one (`--tag`, `--version`) with a value known from the Dockerfile."""
    assert ctx.installer is not None
    for i, word in enumerate(words[1:-1], 1):
        key, eq, value = word.text.partition("=")
        if key in _VERSION_OPTIONS:
            given = Word(value, word.names, word.known) if eq else words[i + 1]
            if given.known and given.text and not given.text.startswith("-"):
                version = (
                    given.text[1:] if given.text[:1] == "v" and given.text[1:2].isdigit() else given.text
                )
                ctx.recorder.set_version(ctx.installer, version)
                ctx.installer = None
            return


def _runs_pip_module(words: list[Word]) -> bool:
    """True for `ANY -m pip …` / `ANY -m uv pip …`: a Python interpreter by any name or wrapper
    script (`python.sh`, `${PYTHON}`) running pip as a module."""
    if len(words) < 3 or words[1].text != "-m":
        return False
    return words[2].text == "pip" or (words[2].text == "uv" and len(words) > 3 and words[3].text == "pip")


def _is_test(words: list[Word]) -> bool:
    """`[ … ]`, `[[ … ]]` or `test …` (a command's words from its name on, see `_strip`): what a
    following `&&` or `||` makes a condition of."""
    return bool(words) and words[0].text in ("[", "[[", "test")


def _cd(words: list[Word], ctx: RunContext, push: bool) -> None:
    args = [w for w in words[1:] if not w.text.startswith("-") or w.text == "-"]
    if not args or args[0].text == "-" or not args[0].known:
        return
    if push:
        ctx.dirstack.append(ctx.cwd)
    ctx.cwd = ctx.path(args[0].text)


def _pip(args: list[Word], ctx: RunContext) -> None:
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 2 if args[i].text in ("--python", "-p", "--log", "--cache-dir", "--proxy") else 1
    if i >= len(args):
        return
    sub = args[i].text
    if sub == "install":
        pip.handle(args[i + 1 :], ctx)
    elif sub == "uninstall":
        pip.uninstall(args[i + 1 :], ctx)
    elif sub == "wheel":
        pip.handle(args[i + 1 :], ctx, build_only=True)


def _python(words: list[Word], ctx: RunContext) -> None:
    for i, word in enumerate(words[1:], 1):
        text = word.text
        if text.startswith("-m") and (len(text) > 2 or i + 1 < len(words)):
            # `-m pip` and `-mpip`: Python takes the rest of the option as the module name
            module, rest = (text[2:], i + 1) if len(text) > 2 else (words[i + 1].text, i + 2)
            if module == "pip":
                _pip(words[rest:], ctx)
            elif module == "uv" and rest + 1 < len(words) and words[rest].text == "pip":
                _pip(words[rest + 1 :], ctx)  # `python3 -m uv pip install …`
            elif module == "build":
                _built(ctx.cwd, ctx)
            return
        if text.endswith("setup.py"):
            if any(
                w.text in ("install", "develop", "bdist_wheel", "build_ext", "build") for w in words[i + 1 :]
            ):
                _built(posixpath.dirname(ctx.path(text)), ctx)
            return
        if not text.startswith("-"):
            return


def _script(script: Word, args: list[Word], ctx: RunContext) -> None:
    """A shell script run: what its name says it installs, and the clone it comes from is used (what
    it does with the tree is not read, so deleting the tree later does not drop the clone)."""
    clone = ctx.repo_at(ctx.path(script.text)) if script.known else None
    if clone is not None:
        clone.used = True
    setup_scripts.run_script(script, args, ctx)


def _rm(args: list[Word], ctx: RunContext) -> None:
    """`rm -rf DIR`: a clone under DIR that nothing was installed, built or copied from is gone from
    the image (cloned to read a file, or only for its requirements), so it is not listed; so is a
    versioned apt repository whose sources list goes before anything was installed from it
    (`RunContext.drop_donors`)."""
    for word in args:
        text = word.text
        if text.startswith("-") or not text or not word.known or any(c in text for c in "*?["):
            continue
        target = ctx.path(text)
        if target == "/":
            continue
        ctx.drop_donors(target, ctx.line_of(word))
        for directory, clone in list(ctx.stage.repos.items()):
            if directory == target or directory.startswith(target.rstrip("/") + "/"):
                del ctx.stage.repos[directory]
                if not clone.built and not clone.used and clone.removed is None:
                    line = ctx.line_of(word)
                    clone.removed = f"deleted at line {line} before anything was installed from it"


def _make_dir(words: list[Word], ctx: RunContext) -> str:
    for i, word in enumerate(words[:-1]):
        if word.text in ("-C", "-S", "--directory"):
            return ctx.path(words[i + 1].text)
    return ctx.cwd


def _configured(args: list[Word], ctx: RunContext) -> None:
    """`cmake ../src` or `meson setup build ../src` run from a build folder beside the clone: the source
    folder a configure step names is built too (`make install` in the build folder installs it)."""
    for word in args:
        if word.known and word.text and not word.text.startswith("-") and "=" not in word.text:
            _built(ctx.path(word.text), ctx)


def _built(directory: str, ctx: RunContext) -> None:
    clone = ctx.repo_at(directory)
    if clone is not None:
        clone.built = True


def _deb_words(words: list[Word], ctx: RunContext) -> None:
    """The arguments of `echo` / `printf` into a sources list: echo joins them with blanks, so
    `echo deb [arch=amd64] URL jammy main` (unquoted) is one line, like `echo "deb …"`."""
    words = [w for w in words if not (w.text.startswith("-") and len(w.text) <= 3)]  # -e, -n, -ne
    if not words:
        return
    joined = Word(
        " ".join(w.text for w in words),
        frozenset(n for w in words for n in w.names),
        all(w.known for w in words),
        line=words[0].line,
    )
    apt.deb_lines(joined.text.replace("\\n", "\n"), joined, ctx)


def _shell(words: list[Word], cmd: Command, ctx: RunContext) -> None:
    """`bash -c 'script'`, `bash <<EOF`, `sh -s`; a script file is not read."""
    if ctx.depth >= MAX_DEPTH:
        ctx.recorder.skip(ctx.line, "shell script nested too deeply; not read")
        return
    for i, word in enumerate(words[1:], 1):
        if word.text.startswith("-") and "c" in word.text.lstrip("-") and not word.text.startswith("--"):
            if i + 1 < len(words):
                ctx.depth += 1
                script(words[i + 1].text, ctx, ctx.line)
                ctx.depth -= 1
            return
        if not word.text.startswith("-"):
            if word.text.endswith(".sh"):  # `bash install_nccl.sh --NCCL_VER=2.27.3`
                if _basename(word.text).startswith(("install", "build")):
                    _built(ctx.cwd, ctx)
                _script(word, words[i + 1 :], ctx)
            return  # bash script.sh
    _heredoc_scripts(cmd, ctx)


def _heredoc_scripts(cmd: Command, ctx: RunContext) -> None:
    if ctx.depth >= MAX_DEPTH:
        return
    for body, line in cmd.heredocs:
        ctx.depth += 1
        script(body, ctx, line)
        ctx.depth -= 1
