"""What the package-manager recognisers share: reading a command line into options and operands, and
recording one package as a component.

Package managers (conda, apk, dnf, npm, cargo …) mix options and package names freely and put options
before or after the subcommand, so a command is read in one pass: `--opt=value`, `--opt value` and a
glued `-Xvalue` (for options known to take a value) are options with their values; any other word
starting with `-` is a flag; the rest are operands, the subcommand first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from docgen.model import Component
from docgen.sources.context import RunContext
from docgen.sources.script import Word


@dataclass
class Options:
    """A command line read into operands, option values and flags."""

    operands: list[Word] = field(default_factory=list)
    """The words that are not options or option values, in order (the subcommand first)."""
    values: dict[str, list[Word]] = field(default_factory=dict)
    """Option (as written, `-c` and `--channel` apart) → the values given to it, in order."""
    flags: set[str] = field(default_factory=set)
    """Options given without a value (`-y`, `--no-cache`, `-ivh`)."""

    def value(self, *names: str) -> Word | None:
        """The first value given to any of `names`, else None."""
        for name in names:
            if self.values.get(name):
                return self.values[name][0]
        return None

    def all_values(self, *names: str) -> list[Word]:
        """Every value given to any of `names`, options in the order of `names`."""
        return [value for name in names for value in self.values.get(name, ())]


def read_options(words: list[Word], value_options: frozenset[str]) -> Options:
    """`words` (after the command name) read into an `Options`; `--` ends the options."""
    found = Options()
    i = 0
    n = len(words)
    while i < n:
        word = words[i]
        text = word.text
        i += 1
        if text == "--":
            found.operands.extend(w for w in words[i:] if w.text)
            break
        if text.startswith("--") and "=" in text:
            key, _, value = text.partition("=")
            found.values.setdefault(key, []).append(replace(word, text=value))
        elif text in value_options:
            if i < n:
                found.values.setdefault(text, []).append(words[i])
                i += 1
        elif len(text) > 2 and text[0] == "-" and text[1] != "-" and text[:2] in value_options:
            found.values.setdefault(text[:2], []).append(replace(word, text=text[2:]))
        elif text.startswith("-") and len(text) > 1:
            found.flags.add(text)
        elif text:
            found.operands.append(word)
    return found


def is_exact(version: str, word: Word) -> bool:
    """True when `version` names one version (no range, wildcard or alternative) known from the Dockerfile."""
    return (
        bool(version)
        and word.known
        and not any(c in version for c in "*<>!~^|, $`")
        and version not in ("latest", "next")
    )


def add(
    ctx: RunContext,
    word: Word,
    *,
    name: str,
    kind: str,
    version: str | None,
    pinned: bool,
    source: str | None,
    method: str,
    ref: str | None = None,
    ref_kind: str | None = None,
    fork: str | None = None,
    arg_version: str | None = None,
    record: bool = True,
) -> Component:
    """Record the component installed by `word`: its stage is the one being read, its line and the
    build arg behind it come from the word (the arg whose default `arg_version` holds, when given: see
    `Recorder.arg_for`). With `record` False, the component is only made."""
    component = Component(
        name=name,
        kind=kind,
        version=version or None,
        ref=ref,
        source=source,
        method=method,
        stage=ctx.stage.label,
        line=ctx.line_of(word),
        pinned=pinned,
        arg=ctx.recorder.arg_for(word, version=arg_version),
        ref_kind=ref_kind,
        fork=fork,
    )
    if record:
        ctx.recorder.add(component)
    return component


def short(words: list[Word]) -> str:
    """A command line for a message, cut at 80 characters."""
    text = " ".join(w.text for w in words)
    return text if len(text) <= 80 else text[:77] + "..."


def is_url(text: str) -> bool:
    """True for an http(s) or ftp URL."""
    return text.lower().startswith(("http://", "https://", "ftp://"))


def is_path(text: str) -> bool:
    """True for a local file path (`/tmp/x.rpm`, `./pkg`, `~/x`)."""
    return text.startswith(("/", "./", "../", "~")) or text in (".", "..")
