"""Properties that hold for every input (hypothesis): generated Dockerfiles, READMEs and values.

- the reader, the evaluator and the extractor raise nothing but `DocgenError`;
- `sync` is idempotent, keeps the text outside the markers byte for byte, and `check` passes after it;
- any value a Dockerfile can hold keeps every rendered table's column count and the markers intact.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import make_tree, run, without_fingerprints
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from docgen import pipeline
from docgen.dockerfile import parse_dockerfile
from docgen.errors import DocgenError, MarkerError
from docgen.markers import find_blocks
from docgen.model import ImageModel
from docgen.pipeline import fill
from docgen.render import SECTIONS, RenderOptions

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces a Dockerfile is made of, so generated text reaches deep into the reader and evaluator.
_FRAGMENTS = [
    "FROM ",
    "FROM ubuntu:22.04",
    "FROM scratch",
    " AS ",
    "base",
    "ARG ",
    "ENV ",
    "RUN ",
    "COPY ",
    "ADD ",
    "ONBUILD ",
    "CMD ",
    "SHELL ",
    "# escape=`",
    "# syntax=docker/dockerfile:1",
    "# X_VERSION purpose",
    "X_VERSION",
    "GPU_ARCH",
    "=",
    "$",
    "${",
    "}",
    ":-",
    ":+",
    "?",
    "#",
    "%%",
    "//",
    "*",
    "'",
    '"',
    "\\",
    "`",
    "<<EOF",
    "<<-'EOF'",
    "EOF",
    "--from=",
    "--mount=type=cache,target=/x",
    "--platform=$BUILDPLATFORM",
    '["a", 1]',
    '["sh", "-c"]',
    "[",
    "]",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\ufeff",
    "é",
    "7.0.2",
    "0",
    "a",
]
dockerfiles = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=5)), max_size=40).map("".join)


def model_of(text: str) -> ImageModel:
    """What `pipeline.build_model` builds, from text instead of a file."""
    return pipeline.model_of(parse_dockerfile(text, "Dockerfile"))


@FAST
@given(dockerfiles)
def test_reader_evaluator_extractor_raise_only_docgen_errors(text: str) -> None:
    try:
        model_of(text)
    except DocgenError as exc:
        assert exc.path == "Dockerfile" and str(exc).startswith("Dockerfile")


@FAST
@given(st.text(max_size=200))
def test_reader_on_any_text(text: str) -> None:
    try:
        model_of("FROM a\n" + text)
    except DocgenError:
        pass


# --------------------------------------------------------------------------------------------------
# READMEs

MODEL = model_of(
    "# GPU_ARCH Targets.\nARG GPU_ARCH=gfx942\nFROM ubuntu:22.04 AS base\n"
    "# ROCM_VERSION ROCm release.\nARG ROCM_VERSION=7.0.2\nRUN make ARCH=${GPU_ARCH}\n"
)
OPTIONS = RenderOptions()

prose = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n<"), max_size=30)
newlines = st.sampled_from(["\n", "\r\n"])


@st.composite
def readmes(draw: st.DrawFn) -> str:
    """A README: prose lines and docgen blocks (stale bodies, odd spacing, mixed line endings)."""
    names = draw(st.lists(st.sampled_from(SECTIONS), unique=True, max_size=len(SECTIONS)))
    parts: list[str] = []
    for name in [None, *names]:
        for line in draw(st.lists(prose, max_size=3)):
            parts.append(line + draw(newlines))
        if name is None:
            continue
        pad = draw(st.sampled_from(["", " ", "\t"]))
        parts.append(f"{pad}<!-- BEGIN docgen:{name} -->{pad}{draw(newlines)}")
        for line in draw(st.lists(prose, max_size=2)):
            parts.append(line + draw(newlines))
        parts.append(f"<!-- END docgen:{name} -->{draw(newlines)}")
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no final newline
    return text


def outside(text: str) -> list[str]:
    """The pieces of `text` outside every block body."""
    pieces, pos = [], 0
    for block in find_blocks(text):
        pieces.append(text[pos : block.body_start])
        pos = block.body_end
    pieces.append(text[pos:])
    return pieces


@FAST
@given(readmes())
def test_sync_is_idempotent_keeps_outside_text_and_check_passes(readme: str) -> None:
    synced = fill(readme, "README.md", MODEL, OPTIONS)
    assert outside(synced) == outside(readme)
    assert fill(synced, "README.md", MODEL, OPTIONS) == synced  # what `check` compares
    assert [b.name for b in find_blocks(synced)] == [b.name for b in find_blocks(readme)]


# --------------------------------------------------------------------------------------------------
# Values

values = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x00"), min_size=1, max_size=40
)


def quoted(value: str) -> str:
    """`value` as a double-quoted Dockerfile word that BuildKit reads back as `value`."""
    return '"' + "".join("\\" + c if c in '"\\$' else c for c in value) + '"'


README_ALL = "".join(f"<!-- BEGIN docgen:{s} -->\n<!-- END docgen:{s} -->\n" for s in SECTIONS)


@FAST
@given(values)
def test_any_value_keeps_columns_and_markers(value: str) -> None:
    model = model_of(
        f"ARG GPU_ARCH={quoted(value)}\nFROM ubuntu:22.04\n"
        f"# ROCM_VERSION {value}\nARG ROCM_VERSION={quoted(value)}\nENV PATH={quoted(value)}\n"
    )
    assert [a.default for a in model.args if a.name == "ROCM_VERSION"] == [value]
    synced = fill(README_ALL, "README.md", model, OPTIONS)
    blocks = find_blocks(synced)
    assert [b.name for b in blocks] == list(SECTIONS)
    assert outside(synced) == outside(README_ALL)
    for block in blocks:
        body = synced[block.body_start : block.body_end]
        rows = [line for line in body.split("\n") if line.startswith("|")]
        # the header decides the column count; every row has it, and nothing else starts a row
        assert {row.count("|") for row in rows} <= {rows[0].count("|")} if rows else True
        assert "\r" not in body and "<!--" not in body and "-->" not in body
    assert fill(synced, "README.md", model, OPTIONS) == synced


# --------------------------------------------------------------------------------------------------
# End to end: the command itself, in a scratch folder


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(old)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(readme=readmes(), value=values)
@example(  # a fence line of the prose in a block (found by a run): its END is inside the fence
    readme="<!-- BEGIN docgen:versions -->\n```\n<!-- END docgen:versions -->\n", value="0"
)
def test_cli_sync_then_check(scratch: Path, readme: str, value: str) -> None:
    make_tree(
        scratch,
        {
            "Dockerfile": f"FROM ubuntu:22.04\nARG ROCM_VERSION={quoted(value)}\n",
            "README.md": readme,
        },
    )
    argv = ("--dockerfile", "Dockerfile", "--output", "README.md")
    first = run("sync", *argv)
    try:
        blocks = find_blocks(readme)
    except MarkerError:  # (a fence opened in a block hides its END): said as README.md:line, file kept
        assert (first.code, first.out) == (2, "") and first.err.startswith("README.md:"), first.err
        assert (scratch / "README.md").read_bytes().decode("utf-8") == readme
        return
    if not blocks:  # an output without a block is a mistake, said as one
        assert (first.code, first.out) == (2, "") and "README.md: no docgen block found" in first.err
        assert (scratch / "README.md").read_bytes().decode("utf-8") == readme
        return
    assert first.code == 0, first.err
    after = (scratch / "README.md").read_bytes().decode("utf-8")
    assert [without_fingerprints(p) for p in outside(after)] == outside(readme)
    second = run("sync", *argv)
    assert (second.code, second.out) == (0, "README.md: unchanged\n")
    assert (scratch / "README.md").read_bytes().decode("utf-8") == after
    check = run("check", *argv)
    assert (check.code, check.out) == (0, "README.md is up to date\n1 file checked, 0 out of date\n")


class _CountedImages(tuple):  # type: ignore[type-arg]
    """`Config.images` that counts how often it is looked through."""

    walks = 0

    def __iter__(self) -> Iterator[object]:
        type(self).walks += 1
        return super().__iter__()


def test_the_images_are_looked_through_once_not_once_per_image(tmp_path: Path) -> None:
    """Each image's render options look for the Dockerfiles that `produces` its base image; they looked
    through every configured image each time, so 4,000 images made 32 million path comparisons
    (`check --full` 41.9 s, 8.4 s now; 1,000 images 2.9 s)."""
    from dataclasses import replace

    from docgen.config import load_config

    make_tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "d/*/Dockerfile"\n'
            'outputs = ["README.md"]\n',
            **{f"d/i{i}/Dockerfile": "FROM ubuntu:22.04\n" for i in range(60)},
        },
    )
    config = load_config(cwd=tmp_path)
    config = replace(config, images=_CountedImages(config.images))
    _CountedImages.walks = 0
    for image in config.images:
        pipeline.render_options(image, config, tmp_path / "README.md")
    assert _CountedImages.walks <= 2  # the loop above, and `Config.producers` once
