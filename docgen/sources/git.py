"""git: `clone` (with `-b`/`--branch`), `checkout`/`switch`/`reset --hard`, `fetch … && checkout FETCH_HEAD`.

A clone is remembered per stage under its directory (the target given, else the repository's
basename), so a checkout in the same RUN or a later RUN of the stage (`cd DIR`, `git -C DIR`,
`WORKDIR DIR`) pins it. The component is made once the whole Dockerfile has been read.
"""

from __future__ import annotations

import posixpath

from docgen.sources.context import GitClone, RunContext
from docgen.sources.naming import repo_name
from docgen.sources.script import Word

_GLOBAL_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"})
_CLONE_VALUE_OPTIONS = frozenset(
    {
        "-b",
        "--branch",
        "--depth",
        "-o",
        "--origin",
        "-c",
        "--config",
        "--reference",
        "--reference-if-able",
        "--separate-git-dir",
        "-j",
        "--jobs",
        "--filter",
        "--shallow-since",
        "--shallow-exclude",
        "--template",
        "-u",
        "--upload-pack",
        "--revision",
        "--server-option",
        "--bundle-uri",
    }
)
_FETCH_VALUE_OPTIONS = frozenset(
    {"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs"}
)


def handle(words: list[Word], ctx: RunContext) -> None:
    """Read one `git …` command."""
    i = 1
    gitdir = ctx.cwd
    while i < len(words) and words[i].text.startswith("-"):
        text = words[i].text
        if text == "-C" and i + 1 < len(words):
            gitdir = ctx.path(words[i + 1].text)
        if text in _GLOBAL_VALUE_OPTIONS:
            i += 1
        i += 1
    if i >= len(words):
        return
    sub, rest = words[i].text, words[i + 1 :]
    if sub == "clone":
        _clone(rest, gitdir, ctx)
    elif sub in ("checkout", "switch"):
        _checkout(rest, gitdir, ctx)
    elif sub == "reset":
        positional = [w for w in rest if not w.text.startswith("-")]
        if any(w.text == "--hard" for w in rest) and positional:
            _pin(positional[0], gitdir, ctx)
    elif sub == "fetch":
        _fetch(rest, gitdir, ctx)
    elif sub == "remote" and len(rest) >= 3 and rest[0].text == "add":
        outer = ctx.repo_at(gitdir)
        if outer is None or outer.directory != gitdir:
            # `cd pytorch/third_party/kineto && git remote add rocm URL && git checkout X`: a submodule
            # of its own, whose checkout pins it and not the repository around it
            _remember(rest[2], gitdir, ctx)


def _remember(url: Word, directory: str, ctx: RunContext) -> GitClone:
    clone = GitClone(
        url=url.text,
        directory=directory,
        stage=ctx.stage.label,
        line=ctx.line_of(url),
        url_words=(url,),
        known=url.known,
        condition=ctx.recorder.condition,
    )
    key = posixpath.normpath(directory)
    ctx.stage.repos[key] = clone  # `repo_at` looks clones up by path
    ctx.stage.repo_depth = max(ctx.stage.repo_depth, key.count("/"))
    ctx.recorder.clones.append(clone)
    return clone


def _clone(rest: list[Word], gitdir: str, ctx: RunContext) -> None:
    positional: list[Word] = []
    branch: Word | None = None
    i = 0
    while i < len(rest):
        word = rest[i]
        text = word.text
        if text == "--":
            positional.extend(rest[i + 1 :])
            break
        if text.startswith("--") and "=" in text:
            key, _, value = text.partition("=")
            if key in ("--branch", "--revision"):
                branch = Word(value, word.names, word.known)
        elif text in _CLONE_VALUE_OPTIONS:
            if text in ("-b", "--branch", "--revision") and i + 1 < len(rest):
                branch = rest[i + 1]
            i += 1
        elif text.startswith("-b") and len(text) > 2:
            branch = Word(text[2:], word.names, word.known)
        elif not text.startswith("-"):
            positional.append(word)
        i += 1
    if not positional:
        ctx.recorder.skip(ctx.line, "git clone without a repository URL")
        return
    url = positional[0]
    target = positional[1].text if len(positional) > 1 else repo_name(url.text)
    directory = posixpath.normpath(posixpath.join(gitdir, target))
    clone = _remember(url, directory, ctx)
    if branch is not None:
        clone.ref, clone.ref_words = branch.text, (branch,)


def _checkout(rest: list[Word], gitdir: str, ctx: RunContext) -> None:
    i = 0
    while i < len(rest):
        text = rest[i].text
        if text == "--":
            return
        if text in ("-b", "-B", "-c", "-C", "--orphan", "--create", "--force-create"):
            i += 2
            continue
        if text.startswith("-"):
            i += 1
            continue
        if text in (".", "HEAD") or text.startswith(("./", "/")):
            return
        _pin(rest[i], gitdir, ctx)
        return


def _pin(ref: Word, gitdir: str, ctx: RunContext) -> None:
    clone = ctx.repo_at(gitdir)
    if clone is None:
        ctx.recorder.skip(ctx.line, f"git checkout {ref.text} outside a repository cloned in this stage")
        return
    clone.ref, clone.ref_words = ref.text, (ref,)


def _fetch(rest: list[Word], gitdir: str, ctx: RunContext) -> None:
    positional: list[Word] = []
    i = 0
    while i < len(rest):
        text = rest[i].text
        if text in _FETCH_VALUE_OPTIONS:
            i += 1
        elif not text.startswith("-"):
            positional.append(rest[i])
        i += 1
    if len(positional) < 2:
        return
    clone = ctx.repo_at(gitdir)
    if clone is None:
        return
    ref = positional[1]
    text = ref.text.lstrip("+").split(":", 1)[0]
    clone.fetched, clone.fetched_words = text, (Word(text, ref.names, ref.known),)
