"""The reader against BuildKit's own parser (the PyPI package `dockerfile`, a wrapper of its Go code).

Every Dockerfile under `tests/` (including the reader cases exported to `tests/data/reader/`) and under
`docker/` is parsed by both; they must agree on instruction keywords, start and end lines, flags and
heredoc names and bodies. BuildKit runs in a subprocess so a crash in its Go runtime cannot take pytest
down. Deliberate differences, normalised below before comparing:

- flag names are lower-cased by docgen (BuildKit keeps `--FROM` as written, then rejects it later);
- heredoc bodies: BuildKit keeps a CR before each newline and strips `<<-` tabs only when it runs the
  instruction; docgen does both while reading;
- heredocs of an `ONBUILD RUN <<EOF` sub-command are not exposed by the wrapper (lines still compared);
- a continuation holding no instruction at all (a lone `\\` followed by a comment) is a node with an empty
  keyword for BuildKit and dropped (with a warning) by docgen;
- the wrapper bundles a BuildKit older than Dockerfile frontend 1.16, where `<< EOF` (blanks after `<<`)
  opened no heredoc; docgen follows the newer rule, so that shape is tested in tests/test_dockerfile.py
  only, never in a Dockerfile under `tests/` or `docker/`;
- BuildKit errors that belong to instruction semantics (`ENV must have two arguments` …) are the
  evaluator's business, not the reader's; errors of the reader's rules must match.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from docgen.dockerfile import read_dockerfile
from docgen.errors import DockerfileError
from docgen.evaluate import INSTRUCTIONS, evaluate
from docgen.model import ParsedDockerfile

if importlib.util.find_spec("dockerfile") is None:
    pytest.skip("the BuildKit parser wrapper (PyPI `dockerfile`) is not installed", allow_module_level=True)

ROOT = Path(__file__).parent.parent
FILES = sorted(
    {
        *(ROOT / "tests").glob("**/Dockerfile*"),
        *(ROOT / "tests").glob("**/*.Dockerfile"),
        *(ROOT / "docker").glob("**/Dockerfile*"),
    }
)
# BuildKit parse errors that come from the reader's rules: docgen must fail on these too.
READER_ERRORS = ("unterminated heredoc", "parser directive", "invalid escape token", "strings only")

_ORACLE = """
import json, sys
import dockerfile

out = {}
for path in sys.argv[1:]:
    try:
        cmds = dockerfile.parse_file(path)
    except Exception as exc:
        out[path] = {"error": str(exc)}
        continue
    out[path] = {"commands": [
        {"cmd": c.cmd, "start": c.start_line, "end": c.end_line, "flags": list(c.flags),
         "heredocs": [[h.name, h.content] for h in c.heredocs]}
        for c in cmds
    ]}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def oracle() -> dict[str, dict[str, Any]]:
    """BuildKit's view of every file in FILES, keyed by path."""
    done = subprocess.run(
        [sys.executable, "-c", _ORACLE, *map(str, FILES)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result


def test_files_found() -> None:
    assert any(path.parent.name == "reader" for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_agrees_with_buildkit(path: Path, oracle: dict[str, dict[str, Any]]) -> None:
    theirs = oracle[str(path)]
    try:
        mine: ParsedDockerfile | None = read_dockerfile(path)
    except DockerfileError as exc:
        assert "error" in theirs, f"docgen fails ({exc}) where BuildKit reads the file"
        return
    if "error" in theirs:
        error = str(theirs["error"])
        assert not any(known in error for known in READER_ERRORS), f"BuildKit fails: {error}"
        if "file with no instructions" in error:
            assert mine is not None and mine.instructions == ()
        return
    assert mine is not None
    assert _mine(mine) == _theirs(theirs["commands"], mine)


def _mine(parsed: ParsedDockerfile) -> list[tuple[Any, ...]]:
    return [
        (
            ins.keyword,
            ins.start_line,
            ins.end_line,
            [f"--{f.name}" + ("" if f.value is None else f"={f.value}") for f in ins.flags],
            [(h.name, h.body) for h in ins.heredocs] if ins.keyword != "ONBUILD" else [],
        )
        for ins in parsed.instructions
    ]


def _theirs(commands: list[dict[str, Any]], mine: ParsedDockerfile) -> list[tuple[Any, ...]]:
    chomp = {(ins.start_line, h.name): h.strip_tabs for ins in mine.instructions for h in ins.heredocs}
    result = []
    for cmd in commands:
        if not cmd["cmd"]:
            continue  # a continuation without an instruction: docgen drops it
        heredocs = []
        for name, content in cmd["heredocs"]:
            lines = content.replace("\r\n", "\n").splitlines(keepends=True)
            if chomp.get((cmd["start"], name)):
                lines = [line.lstrip("\t") for line in lines]
            heredocs.append((name, "".join(lines)))
        flags = []
        for flag in cmd["flags"]:
            name, sep, value = flag.partition("=")
            flags.append(name.lower() + sep + value)
        result.append((cmd["cmd"].upper(), cmd["start"], cmd["end"], flags, heredocs))
    return result


UNKNOWN_CASES = {
    "misspelt": "FROM ubuntu:22.04\nRUNN pip install torch==2.3.0\nFOO bar\n",
    "lower case": "from ubuntu:22.04\nrunn true\nrun true\n",
    "continued": "FROM a\nRUNN a \\\n  b\nCOPYY x y\n",
    "onbuild": "FROM a\nONBUILD FOO bar\nONBUILD RUNN x\n",
    "no-break space": "FROM a\nRUN\u00a0true\n",
    "before FROM": "ARGG X=1\nFROM a\n",
    "heredoc": "FROM a\nRUN <<EOF\nRUNN inside\nEOF\nRUNN after\n",
}


def test_unknown_instructions_are_those_buildkit_does_not_know(
    oracle: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    """docgen refuses an instruction outside `INSTRUCTIONS` at its line; applied to BuildKit's own
    parse of every test Dockerfile and of the cases above, the rule finds the same lines."""
    cases = []
    for name, text in UNKNOWN_CASES.items():
        path = tmp_path / f"{name.replace(' ', '_')}.Dockerfile"
        path.write_text(text, encoding="utf-8")
        cases.append(path)
    done = subprocess.run(
        [sys.executable, "-c", _ORACLE, *map(str, cases)], capture_output=True, text=True, check=True
    )
    theirs_all = {**oracle, **json.loads(done.stdout)}
    for path in [*FILES, *cases]:
        theirs = theirs_all[str(path)]
        if "error" in theirs:
            continue
        try:
            mine = read_dockerfile(path)
        except DockerfileError:
            continue
        expected = [
            c["start"] for c in theirs["commands"] if c["cmd"] and c["cmd"].upper() not in INSTRUCTIONS
        ]
        assert [i.start_line for i in mine.instructions if i.keyword not in INSTRUCTIONS] == expected, path
        if path in cases and expected:
            with pytest.raises(DockerfileError, match="unknown instruction") as info:
                evaluate(mine)
            assert info.value.line == expected[0]
        elif path in cases:  # ONBUILD FOO: its instruction is read only by a build FROM this image
            evaluate(mine)
