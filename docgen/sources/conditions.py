"""Tests in RUN text (`[ "$USE_SCCACHE" = "1" ]`, `[[ … ]]`, `test`, `case … in`) as the default build
sees them.

The shell reader (`script.read_commands`) asks this module, for each `if`, `elif` and `case` pattern and
for a test joined by `&&` / `||`, whether the default build takes the branch:

* every operand known (build args at their defaults, shell variables set earlier in the RUN): the test
  is evaluated the way `sh` / `bash` would, and a branch known not taken is not read for components;
* an operand that depends on the platform (`$TARGETPLATFORM`, `$TARGETARCH`, `$(uname -m)`, `$(arch)`,
  `$(dpkg --print-architecture)`): the default build's platform is not known, so the branch is read and
  what it installs carries a note (`linux/arm64 only`, `not aarch64`);
* anything else unknown (a file test, a value from the base image): the branch is read, no note.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Protocol


class Word(Protocol):
    """What a test needs of a shell word (`script.Word`, which imports this module)."""

    @property
    def text(self) -> str: ...
    @property
    def names(self) -> frozenset[str]: ...
    @property
    def known(self) -> bool: ...
    @property
    def quoted(self) -> bool: ...


@dataclass(frozen=True)
class _Doubtful:
    """A word whose value is not known after all (see `_doubt`)."""

    text: str
    names: frozenset[str]
    quoted: bool
    known: bool = False


PLATFORM_ARGS = frozenset({"TARGETPLATFORM", "TARGETARCH", "TARGETVARIANT", "BUILDPLATFORM", "BUILDARCH"})
"""The automatic platform args BuildKit sets; their value is not known from the Dockerfile."""
_PLATFORM_COMMAND = re.compile(r"(?:\$\(|`)\s*(?:uname\s+-[mpi]|arch|dpkg\s+--print-architecture)\s*(?:\)|`)")
_COMPARE = frozenset({"=", "==", "!="})
_NUMBERS = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}


@dataclass(frozen=True)
class Test:
    """What a test says for the default build."""

    truth: bool | None
    """True or False when every operand is known; None otherwise."""
    platform: str | None = None
    """The platform value a platform test compares with (`linux/arm64`, `aarch64`)."""
    equal: bool = True
    """For a platform test: True when the test holds on `platform`, False when it holds elsewhere."""
    text: str = ""
    """The test as the default build sees it (for messages)."""
    depends: frozenset[str] = frozenset()
    """Names the undecided test reads that only the base image sets (`CUDA_VERSION` under nvidia/cuda)."""

    def note(self, holds: bool) -> str | None:
        """The note of the branch run when the test is `holds`: the platform, or what it depends on."""
        if self.platform is None:
            if self.truth is None and self.depends:
                return f"depends on the base image's {', '.join(sorted(self.depends))}"
            return None
        return f"{self.platform} only" if holds == self.equal else f"not {self.platform}"


def is_platform(word: Word) -> bool:
    """True when `word`'s value is the build platform (unknown to docgen)."""
    return not word.known and (bool(word.names & PLATFORM_ARGS) or bool(_PLATFORM_COMMAND.search(word.text)))


def _shown(words: Sequence[Word]) -> str:
    return " ".join(w.text if w.text else '""' for w in words)


def _doubt(words: Sequence[Word], doubtful: Collection[str]) -> Sequence[Word]:
    """`words`, those made from a name in `doubtful` marked unknown (read as empty, but the base image
    may set it: `$CUDA_VERSION` under `FROM nvidia/cuda:…` when only a global ARG declares it)."""
    if not doubtful:
        return words
    return [
        _Doubtful(w.text, w.names, w.quoted) if w.names and not w.names.isdisjoint(doubtful) else w
        for w in words
    ]


def evaluate(words: Sequence[Word], doubtful: Collection[str] = ()) -> Test:
    """The test `words` (`[ a = b ]`, `[[ … ]]`, `test …`, with `!`) for the default build."""
    text = _shown(words)
    depends = frozenset(n for w in words for n in w.names if n in doubtful)
    test = _evaluate(_doubt(words, doubtful), text)
    return (
        replace(test, depends=depends) if depends and test.truth is None and test.platform is None else test
    )


def _evaluate(words: Sequence[Word], text: str) -> Test:
    negate = False
    while words and words[0].text == "!" and not words[0].quoted:
        negate, words = not negate, words[1:]
    if not words:
        return Test(None, text=text)
    head = words[0].text
    double = head == "[["
    if head in ("[", "[[") and not words[0].quoted:
        closer = "]]" if double else "]"
        if len(words) < 2 or words[-1].text != closer:
            return Test(None, text=text)
        operands = words[1:-1]
    elif head == "test" and not words[0].quoted:
        operands = words[1:]
    else:
        return Test(None, text=text)  # a command's exit status (`if grep …`, `if command -v uv`)
    while operands and operands[0].text == "!" and not operands[0].quoted and len(operands) != 1:
        negate, operands = not negate, operands[1:]
    test = _operands(operands, double)
    if negate:
        truth = None if test.truth is None else not test.truth
        return Test(truth, test.platform, not test.equal, text)
    return Test(test.truth, test.platform, test.equal, text)


def _operands(ops: Sequence[Word], double: bool) -> Test:
    if len(ops) == 1:
        return Test(ops[0].text != "" if ops[0].known else None)
    if len(ops) == 2 and ops[0].text in ("-n", "-z") and not ops[0].quoted:
        if not ops[1].known:
            return Test(None)
        empty = ops[1].text == ""
        return Test(empty if ops[0].text == "-z" else not empty)
    if len(ops) != 3 or ops[1].quoted:
        return Test(None)
    left, op, right = ops[0], ops[1].text, ops[2]
    if op in _COMPARE or (op == "=~" and double):
        for side, other in ((left, right), (right, left)):
            if is_platform(side) and other.known and other.text:
                value = other.text.strip("*") if op != "=~" else other.text.strip("^$.*")
                return Test(None, value or None, op != "!=")
        if not (left.known and right.known):
            return Test(None)
        if op == "=~":
            try:
                return Test(re.search(right.text, left.text) is not None)
            except re.error:
                return Test(None)
        same = fnmatchcase(left.text, right.text) if double and not right.quoted else left.text == right.text
        return Test(same if op != "!=" else not same)
    if op in _NUMBERS and left.known and right.known:
        try:
            return Test(_NUMBERS[op](int(left.text), int(right.text)))
        except ValueError:
            return Test(None)
    return Test(None)


def case_pattern(
    subject: Word, patterns: Sequence[Word], earlier: list[str], doubtful: Collection[str] = ()
) -> Test:
    """Whether a `case` branch with `patterns` is taken for `subject` (earlier branches not taken)."""
    depends = frozenset(n for n in subject.names if n in doubtful)
    test = _case(_doubt([subject], doubtful)[0], patterns, earlier)
    return (
        replace(test, depends=depends) if depends and test.truth is None and test.platform is None else test
    )


def _case(subject: Word, patterns: Sequence[Word], earlier: list[str]) -> Test:
    texts = [p.text for p in patterns]
    if subject.known and all(p.known for p in patterns):
        taken = any(fnmatchcase(subject.text, p) for p in texts)
        return Test(taken, text=f"{subject.text} in {'|'.join(texts)}")
    if is_platform(subject):
        if texts == ["*"]:
            return Test(None, "/".join(earlier) or None, False) if earlier else Test(None)
        return Test(None, "/".join(t.strip("*") for t in texts), True)
    return Test(None)
