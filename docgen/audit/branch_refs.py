"""A commit passed to a build arg the Dockerfile uses only as the branch of a `git clone`: a README build
command gives the arg a commit (`--build-arg SGLANG_REF=3f9a2c1`, a hex word of 7 to 40 letters with a
digit and a letter, or a placeholder naming one: `<sha-or-tag>`, `<commit>`, `<hash>`) while every RUN
that reads the arg uses it only as the value of `git clone --branch` / `-b` (`git clone --depth 1
--branch "${SGLANG_REF}" …`). `--branch` takes a branch or a tag name, so git answers "Remote branch …
not found" and the build fails (`likely`: a tag may be named like a commit).

Silent when the arg is read anywhere else in a RUN but an `echo` or `printf` (`git checkout ${REF}`,
`git fetch origin $REF`, `git reset --hard`, a script given it, a `pip install …@${REF}`), when a clone
passes it otherwise (as the address, `--revision`), for a value that is no commit (`v1.2`, `main`, a
date, `<tag-or-branch>`) and when no Dockerfile audited declares the arg.

The same arg told in prose to take a commit (`set `llama_ref` to a commit hash for reproducibility`,
`` `ENGINE_REF` may be a branch, tag or commit SHA``; the name matched with the arg's whatever its case, as a
workflow input passing it on is often written) is the same failure (`likely`), unless the sentence
says a commit is not taken (`not a commit`) or that it is checked out after the clone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import CLONE_STEP, build_commands, joined
from docgen.audit.wording import line_at, sentences
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_PASSED = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)=([^\s\"']+)")
"""A build arg a README build command sets, with its value."""
_HEX = re.compile(r"(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}")
"""A commit's hash, whole or abbreviated (a digit and a letter in it: a date or a word is none)."""
_NAMED_COMMIT = re.compile(r"[<{$(\[][^>}\])]*\b(?:sha\d*|commit|hash|git[-_]?sha)s?\b", re.IGNORECASE)
"""A placeholder naming a commit (`<sha-or-tag>`, `<commit>`, `{git_hash}`)."""
_STEP = re.compile(r"&&|\|\||;|\||\n")
_PRINTS = re.compile(r"[ \t]*(?:echo|printf)\b")
_BRANCH = frozenset({"--branch", "-b"})
_CAPS = re.compile(r"(?<![\w$`{-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w-])")
"""A build arg's name written bare in prose (`LLAMA_REF`)."""
_TO_COMMIT = re.compile(
    r"[^.;:]{0,40}?\b(?:to|=|at|accepts?|takes?|can[ \t]+be|may[ \t]+be)\b"
    r"[^.;:]{0,40}?\b(?:commit(?:[ \t]+(?:hash|sha|id))?|(?:git[ \t]+)?sha(?:-?1)?|hash)(?:es|s)?\b",
    re.IGNORECASE,
)
"""What follows an arg's name when the sentence gives it a commit (`to a commit hash`, `= <commit SHA>`,
`can be a branch, tag or commit`), matched at the end of the name (`match(sentence, end)`: no copy of
the rest of the sentence for each name in it)."""
_COMMIT_WORD = re.compile(r"commit|sha|hash", re.IGNORECASE)
"""A word a sentence giving an arg a commit has: the others are not read further."""
_NO_COMMIT = re.compile(
    r"\bnot\b[^.;]{0,30}\bcommit|\bn['’]t\b"
    r"|\bcheck(?:s|ed|ing)?[ \t-]*(?:\w+[ \t]+)?out\b|\bcheckout\b|\bfetch",
    re.IGNORECASE,
)
"""A sentence saying a commit is not taken, or that one is checked out (or fetched) after the clone."""


def _only_branch(runs: list[str], name: str) -> bool:
    """Whether the RUNs (`runs`) read the arg `name` and only as a `git clone`'s branch (or in what
    they print)."""
    var = re.compile(rf"\$(?:\{{{re.escape(name)}\}}|{re.escape(name)}(?![A-Za-z0-9_]))")
    as_branch = False
    for body in runs:
        for step in _STEP.split(body):
            if var.search(step) is None:
                continue
            if _PRINTS.match(step):
                continue
            clone = CLONE_STEP.search(step)
            if clone is None:
                return False
            words = clone.group(1).split()
            used = False
            for at, word in enumerate(words):
                option, eq, value = word.partition("=")
                if option in _BRANCH:
                    value = value if eq else (words[at + 1] if at + 1 < len(words) else "")
                    if var.fullmatch(value.strip("\"'")):
                        used = True
            if not used or sum(1 for w in words if var.search(w)) != 1 or var.search(step[: clone.start()]):
                return False
            as_branch = True
    return as_branch


def branch_refs(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models:
        return
    judged: dict[str, str | None] = {}  # (each name's clone, read once for both halves)

    def clone_of(name: str) -> str | None:
        if name not in judged:
            judged[name] = _clone_line(name, models)
        return judged[name]

    for fence in doc.fences:
        for command in build_commands(fence):
            text = joined(command)
            for passed in _PASSED.finditer(text):
                name, value = passed.groups()
                if not (_HEX.fullmatch(value) or _NAMED_COMMIT.search(value)):
                    continue
                where = clone_of(name)
                if where is None:
                    continue
                line = next((n for n, t in command if f"{name}={value}" in t), command[0][0])
                yield Diagnostic(
                    readme,
                    line,
                    f"README passes {name}={value} (a commit), but {where} uses {name} only as the branch "
                    f"of git clone --branch, which takes a branch or tag name, not a commit: the clone "
                    "fails (check the commit out after the clone)",
                    confidence=LIKELY,
                )
    yield from _said_commits(doc, readme, models, clone_of)


def _said_commits(
    doc: Document, readme: str, models: Sequence[ImageModel], clone_of: Callable[[str], str | None]
) -> Iterator[Diagnostic]:
    """The prose half of the module: a sentence telling a build arg (any case, in code or bare in capitals)
    takes a commit, where every Dockerfile declaring it uses it only as a clone's branch (`clone_of`:
    the clone's `path:line`, None when not every one uses it so)."""
    declared = {a.name.upper(): a.name for m in models for a in m.args}
    if not declared:
        return
    told: set[str] = set()
    for paragraph in doc.paragraphs:
        lines = paragraph.lines
        for start, _, sentence in sentences(lines):
            if not _COMMIT_WORD.search(sentence) or _NO_COMMIT.search(sentence):
                continue
            named = [(b, e, t.strip()) for b, e, t in code_spans(sentence)]
            named += [(m.start(), m.end(), m.group(1)) for m in _CAPS.finditer(sentence)]
            for _, end, word in named:
                name = declared.get(word.replace("-", "_").upper())
                if name is None or name in told or not _TO_COMMIT.match(sentence, end):
                    continue
                where = clone_of(name)
                if where is None:
                    continue
                told.add(name)
                yield Diagnostic(
                    readme,
                    line_at(lines, start + sentence.find(word)),
                    f"README says {word} may be set to a commit, but {where} uses {name} only as the "
                    "branch of git clone --branch, which takes a branch or tag name, not a commit: the "
                    "clone fails (check the commit out after the clone)",
                    confidence=LIKELY,
                )


def _clone_line(name: str, models: Sequence[ImageModel]) -> str | None:
    """`path:line` of the clone that takes `name` as its branch when every Dockerfile declaring the arg
    uses it only so; None otherwise."""
    where: str | None = None
    for model in models:
        if not any(a.name == name for a in model.args) or not model.file:
            continue
        read = dockerfile_read(model.file)
        if read is None:
            return None
        runs = [inst for inst in read[1].instructions if inst.keyword.upper() == "RUN"]
        if not _only_branch([inst.body for inst in runs], name):
            return None
        if where is None:
            line = next(inst.start_line for inst in runs if name in inst.body)
            where = f"{model.path}:{line}"
    return where
