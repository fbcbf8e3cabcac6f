"""A fuzz harness kept as a property test: realistic Dockerfiles, mutated, through `show` and `lint`.

The seeds are the Dockerfiles under `tests/data/` and `docker/rocm/Dockerfile.rocm`. Each example
applies a few mutations (bytes and lines inserted, deleted, duplicated or swapped, special characters
such as NUL, U+2028, NEL, a lone surrogate's bytes, `${`, `<<EOF`, a line or a character repeated
thousands of times) and runs `docgen show` and `docgen lint` in-process. Whatever the input, each exits
0, 1 or 2, never raises, and an exit 2 says `Dockerfile:LINE: …` or `Dockerfile: …`.

The run is derandomised (the same examples every time) with a small budget; a longer run takes
`DOCGEN_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py` (see docs/contributing.md).
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.cli import main

ROOT = Path(__file__).parent.parent
SEEDS = sorted(
    {
        *(ROOT / "tests" / "data").glob("**/*Dockerfile*"),
        ROOT / "docker" / "rocm" / "Dockerfile.rocm",
    }
)
TEXTS = [path.read_bytes() for path in SEEDS]
LINES = sorted({line for text in TEXTS for line in text.splitlines(keepends=True) if line.strip()})[:4000]

SPECIAL = [
    b"\0",
    b"\n",
    b"\r",
    b"\r\n",
    b"\t",
    b" \\\n",
    b"\\",
    b"`",
    b"$",
    b"${",
    b"}",
    b"${A:-",
    b"'",
    b'"',
    b"#",
    b"# escape=`\n",
    b"<<EOF",
    b"<<-'EOF'\n",
    b"EOF\n",
    b"\xef\xbb\xbf",  # byte-order mark
    "\u2028".encode(),  # line separator
    "\u2029".encode(),
    "\x85".encode(),  # NEL
    "\u00a0".encode(),
    "\u200b".encode(),
    "é".encode(),
    b"\xed\xb2\x80",  # a lone surrogate, as bytes: not UTF-8
    b"\xff",
    b"FROM ",
    b"RUNN ",
    b"ONBUILD ",
    b"ARG A=${A}${A}\n",
    b"--from=",
    b"[",
    b'["a", 1]',
]

EXAMPLES = int(os.environ.get("DOCGEN_FUZZ_EXAMPLES", "60"))
MESSAGE = re.compile(r"Dockerfile(:[0-9]+)?: \S")


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A seed Dockerfile with one to four mutations."""
    data = bytearray(draw(st.sampled_from(TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        lines = bytes(data).splitlines(keepends=True) or [b""]
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "swap", "line", "repeat", "bytes"]))
        at = draw(st.integers(0, len(lines)))
        if op == "insert":
            pos = draw(st.integers(0, len(data)))
            data[pos:pos] = draw(st.sampled_from(SPECIAL))
        elif op == "delete" and len(lines) > 1:
            end = at + draw(st.integers(1, 5))
            data = bytearray(b"".join(lines[:at] + lines[end:]))
        elif op == "duplicate" and at < len(lines):
            data = bytearray(b"".join(lines[: at + 1] + [lines[at]] + lines[at + 1 :]))
        elif op == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            at = min(at, len(lines) - 1)
            lines[at], lines[other] = lines[other], lines[at]
            data = bytearray(b"".join(lines))
        elif op == "line":
            data = bytearray(b"".join(lines[:at] + [draw(st.sampled_from(LINES))] + lines[at:]))
        elif op == "repeat":
            times = draw(st.sampled_from([100, 2_000, 20_000]))
            if draw(st.booleans()) and at < len(lines):
                piece = lines[at] if lines[at].endswith(b"\n") else lines[at] + b"\n"
                data = bytearray(b"".join(lines[:at] + [piece * min(times, 2_000)] + lines[at:]))
            else:
                pos = draw(st.integers(0, len(data)))
                data[pos:pos] = draw(st.sampled_from(SPECIAL + [b"a", b"${A}", b"(", b"\\\n"])) * times
        elif op == "bytes":
            pos = draw(st.integers(0, len(data)))
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    """A folder to write each example into (no pyproject.toml above it is read: `--config` is given)."""
    with tempfile.TemporaryDirectory() as name:
        path = Path(name)
        (path / "pyproject.toml").write_text("[tool.docgen]\n", encoding="utf-8")
        yield path


def test_seeds_found() -> None:
    assert len(SEEDS) > 20 and ROOT / "docker" / "rocm" / "Dockerfile.rocm" in SEEDS


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@given(mutated())
def test_mutated_dockerfiles_never_crash_show_or_lint(folder: Path, data: bytes) -> None:
    dockerfile = folder / "Dockerfile"
    dockerfile.write_bytes(data)
    config = str(folder / "pyproject.toml")
    for argv in (
        ["show", str(dockerfile), "--config", config],
        ["lint", str(dockerfile), "--config", config],
    ):
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdout=out, stderr=err)
        assert code in (0, 1, 2), (argv, code, err.getvalue())
        assert "Traceback" not in err.getvalue()
        if code == 2:
            message = err.getvalue().replace(str(folder) + "/", "")
            assert MESSAGE.match(message), message
