"""Shared helpers: build small project trees and run the CLI in-process."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

import docgen.parallel
from docgen.audit import audit
from docgen.cli import main
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import Evaluation, evaluate
from docgen.pipeline import model_of


@dataclass
class Result:
    code: int
    out: str
    err: str


def run(*argv: str) -> Result:
    """`docgen ARGV` in-process, capturing output."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return Result(code, out.getvalue(), err.getvalue())


def audit_tree(root: Path, files: Mapping[str, str | bytes]) -> Result:
    """`docgen audit README.md --confidence likely` run in `root` after writing `files` there."""
    import os

    make_tree(root, files)
    here = os.getcwd()
    os.chdir(root)
    try:
        return run("audit", "--confidence", "likely", "README.md")
    finally:
        os.chdir(here)


_FINGERPRINT = re.compile(r" dockerfile=[0-9a-f]+ setup=[0-9a-f]+ text=[0-9a-f]+(?= -->)")


def without_fingerprints(text: str) -> str:
    """`text` with the fingerprints `docgen sync` writes into begin markers removed."""
    return _FINGERPRINT.sub("", text)


def make_tree(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write `files` (relative path → content) under `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


def ev(text: str) -> Evaluation:
    """Parse and evaluate Dockerfile text."""
    return evaluate(parse_dockerfile(text, "Dockerfile"))


def count_image_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, note the display name of each Dockerfile `docgen.parallel` reads; returns that
    list. Only reads in this process are seen (a pool's workers are not: `DOCGEN_JOBS=1` keeps them
    here)."""
    read: list[str] = []
    real = docgen.parallel.read_image

    def counting(path: Path, display: str, **kwargs: bool) -> object:
        read.append(display)
        return real(path, display, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(docgen.parallel, "read_image", counting)
    return read


def findings(readme: str, dockerfiles: Mapping[str, str], directory: Path | None = None) -> list[str]:
    """`audit` of `readme` against every Dockerfile of `dockerfiles` (path → text): the README is about
    all of them. Each finding as `line: message`."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, directory)]


def gone(path: str, instead: str = "") -> str:
    """The message of `audit` for a build command naming a Dockerfile `path` that does not exist."""
    now = f"; compared with {instead}, which it most likely means now" if instead else ""
    return f"README builds with {path}, which does not exist (the Dockerfile is gone or moved{now})"


def misplaced(path: str, real: str) -> str:
    """The message of `audit` for a build command whose `-f path` is not where the command runs while
    the Dockerfile of that name is at `real`."""
    where = "which does not exist where the command runs"
    return f"README builds with {path}, {where}; the Dockerfile is {real} (compared with it)"


_ALSO_AT = re.compile(r"; also at lines? ([\d, ]+?)(?: and (\d+) more)?$")


def told_at(line: int, message: str) -> list[int]:
    """Every README line a finding at `line` stands for: `line` and those its message names at its end
    (`…; also at lines 13, 15`: audit tells a claim repeated word for word once)."""
    also = _ALSO_AT.search(message)
    return [line, *(int(n) for n in also[1].split(", "))] if also else [line]


def times_told(line: int, message: str) -> int:
    """How many README lines a finding at `line` stands for, those past the ten its message names counted
    (`…; also at lines 7, …, 16 and 389 more`)."""
    also = _ALSO_AT.search(message)
    return len(told_at(line, message)) + (int(also[2]) if also and also[2] else 0)
