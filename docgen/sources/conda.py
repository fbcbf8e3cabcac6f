"""conda, mamba and micromamba: `install` and `create`, package specs and channels.

A spec is read as conda's MatchSpec writes it: `name`, `name=1.2`, `name=1.2=build`, `name==1.2`,
`name 1.2`, `name>=1,<2`, `channel::name=1.2`. `=1.2` and `==1.2` are pins (conda reads `=1.2` as
`1.2.*`, but it is how a conda user pins a version); a range, a wildcard or alternatives are kept as
written and not pinned. The source is the spec's channel, else the `-c` channel (of several, the one
named like the package, else the list). `--file FILE` is a requirements row, like pip's `-r FILE`.
`conda env create|update` reads an environment file docgen does not open: it is noted as skipped.
"""

from __future__ import annotations

import re

from docgen.sources import downloads
from docgen.sources.context import RunContext
from docgen.sources.installer import add, is_exact, is_path, is_url, read_options, short
from docgen.sources.script import Word

COMMANDS = frozenset({"conda", "mamba", "micromamba"})
_VALUE_OPTIONS = frozenset(
    {
        "-c",
        "--channel",
        "-n",
        "--name",
        "-p",
        "--prefix",
        "-f",
        "--file",
        "-r",
        "--root-prefix",
        "--rc-file",
        "--clone",
        "--platform",
        "--subdir",
        "--solver",
        "--channel-priority",
        "--repodata-fn",
        "--category",
        "--log-level",
        "--relocate-prefix",
        "--experimental-solver",
    }
)
_SPEC = re.compile(
    r"(?:(?P<channel>[^\s:]+)::)?(?P<name>[A-Za-z0-9_][A-Za-z0-9_.+\-]*)(?P<rest>(?:[\s=<>!~\[].*)?)\Z",
    re.DOTALL,
)


_CONDA_KINDS = frozenset({"conda"})


def handle(command: str, words: list[Word], ctx: RunContext) -> None:
    """`conda …` (`words` start after the command name)."""
    options = read_options(words, _VALUE_OPTIONS)
    if not options.operands:
        return
    verb = options.operands[0].text
    if verb == "env" and len(options.operands) > 1 and options.operands[1].text in ("create", "update"):
        sub = options.operands[1].text
        ctx.recorder.skip(
            ctx.line, f"{command} env {sub} is not read by docgen: {short([Word(command), *words])}"
        )
        return
    if verb in ("remove", "uninstall"):
        for word in options.operands[1:]:
            name = re.split(r"[=<>!~ ]", word.text.split("::")[-1], maxsplit=1)[0]
            if word.known and name:
                ctx.remove(_CONDA_KINDS, name, word, f"{command} {verb}")
        return
    if verb not in ("install", "create"):
        return
    channels = [w.text for w in options.all_values("-c", "--channel") if w.known and w.text]
    for req_file in options.all_values("-f", "--file"):
        ctx.install("requirements", req_file)
        add(
            ctx,
            req_file,
            name=req_file.text,
            kind="conda",
            version=None,
            pinned=False,
            source=req_file.text,
            method="requirements",
        )
    for word in options.operands[1:]:
        _spec(word, channels, ctx)


def _spec(word: Word, channels: list[str], ctx: RunContext) -> None:
    text = word.text.strip()
    if is_url(text):
        found = downloads.component(word, ctx.stage.label, ctx.line_of(word), ctx.recorder.arg_for(word))
        if found is not None:
            ctx.recorder.add(found)
        return
    if is_path(text):
        return  # a local package file: where it came from is the component
    match = _SPEC.match(text)
    if match is None or "$" in match.group("name"):
        ctx.recorder.skip(ctx.line_of(word), f"conda package spec not understood: {text}")
        return
    name = match.group("name")
    version, pinned = _version(match.group("rest").rstrip(), word)
    add(
        ctx,
        word,
        name=name,
        kind="conda",
        version=version,
        pinned=pinned,
        source=channel_source(match.group("channel") or _channel_for(name, channels), name),
        method="prebuilt",
    )


def _version(rest: str, word: Word) -> tuple[str | None, bool]:
    """(version, pinned) of what follows the name in a spec."""
    if not rest or rest.startswith("["):
        return None, False
    if rest.startswith("=="):
        version = rest[2:].strip()
        return version or None, is_exact(version, word)
    if rest.startswith("=") and rest[1:2] not in ("<", ">", "="):
        version = rest[1:].split("=", 1)[0].strip()  # `=1.2=build`: the build string is dropped
        return version or None, is_exact(version, word)
    if rest[0].isspace():
        version = rest.split()[0]  # `"numpy 1.26"`, `"numpy 1.26 py312_0"`
        return version, is_exact(version, word)
    return rest.strip(), False  # a range: `>=1.26,<2`, `!=1.0`, `~=2.1`


def _channel_for(name: str, channels: list[str]) -> str | None:
    """The channel a package comes from: the only one given, else one named like the package
    (`pytorch-cuda` from `-c pytorch -c nvidia`), else all of them (conda picks at build time)."""
    if len(channels) <= 1:
        return channels[0] if channels else None
    for channel in channels:
        if name.startswith(channel):
            return channel
    return ", ".join(channels)


def channel_source(channel: str | None, name: str) -> str | None:
    """Where a package of `channel` is published: the channel URL, or its anaconda.org page."""
    if not channel or "$" in channel:
        return None
    if is_url(channel) or channel.startswith("file:") or ", " in channel:
        return channel
    if channel == "defaults":
        channel = "anaconda"
    return f"https://anaconda.org/{channel}/{name}"
