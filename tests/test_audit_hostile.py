"""`docgen.audit` on hostile READMEs: the claim rules stay linear in the README's size.

Each test is a README shaped to make one rule do work that grows faster than its input: a run of
spaces a pattern splits many ways, or a rule reading its whole line (or sentence, table, document)
again for each claim on it. Where a count of the work shows the fault, the test counts it; where only
the size does, the README is large enough that the old code took minutes (no timed assertions).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docgen import audit, markdown
from docgen.audit import cells, contents, missing, prose, references, targets, wording
from docgen.audit.fences import _fence_intro
from docgen.markdown import Document, Fence, Paragraph
from docgen.model import ImageModel
from docgen.pipeline import build_model

DOCKERFILE = """\
ARG IMAGE=nvidia/cuda:12.4.1-devel-ubuntu22.04
FROM ${IMAGE}
ARG FOO_BAR=1
RUN pip install tensorrt==10.0.1
"""


@pytest.fixture
def model(tmp_path: Path) -> ImageModel:
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    return build_model(tmp_path / "Dockerfile", "Dockerfile")


def messages(readme: str, model: ImageModel) -> list[str]:
    return [d.message for d in audit.audit(readme, "README.md", model)]


def patch(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    """Set `name` to `value` in each module of `docgen.audit` that has it (defined or imported)."""
    holders = [
        module
        for info in pkgutil.iter_modules(audit.__path__)
        if hasattr(module := importlib.import_module(f"docgen.audit.{info.name}"), name)
    ]
    assert holders, name
    for module in holders:
        monkeypatch.setattr(module, name, value)


class _Counted:
    """A compiled pattern that counts its `search` calls (re.Pattern cannot be subclassed)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searches = 0
        self.scanned = 0  # characters the searches were given

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        self.searches += 1
        self.scanned += min(len(text), len(text) if endpos is None else endpos) - pos
        return self.pattern.search(text, pos, len(text) if endpos is None else endpos)

    def finditer(self, *args: Any) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(*args)


def test_a_run_of_spaces_after_a_word_is_split_one_way(model: ImageModel) -> None:
    """`X (Not Installed)` read `[ \\t]*[(:,-]?[ \\t]*` after each word: a run of n spaces not followed
    by `not installed` was split n² ways (5,000 spaces: 1.3 s; 100,000 would take minutes)."""
    spaces = " " * 100_000
    assert contents._NOT_INSTALLED.search("FOO" + spaces + "x") is None
    readme = "FOO" + spaces + "x. TensorRT is not installed.\n"
    assert messages(readme, model) == [
        "README says TensorRT is not installed but Dockerfile:4 installs tensorrt"
    ]


def test_a_default_cell_with_a_run_of_spaces_is_read_once(model: ImageModel) -> None:
    """A default cell `none   …   x` was split the same way by `_REQUIRED_CELL` (20,000 spaces: 21 s)."""
    assert cells._REQUIRED_CELL.fullmatch("none" + " " * 100_000 + "x") is None
    readme = (
        "| Arg | Default |\n|---|---|\n| `IMAGE` | x |\n"
        f"| `FOO_BAR` | none{' ' * 100_000}x |\n| `FOO_BAR` | required |\n"
    )
    assert messages(readme, model) == [
        "README says IMAGE defaults to x but Dockerfile:1 says nvidia/cuda:12.4.1-devel-ubuntu22.04",
        "README says FOO_BAR has no default (must be passed) but Dockerfile:3 says 1",
    ]


def test_defaults_in_one_sentence_read_its_code_spans_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each `X defaults to `v`` read the code spans of the rest of its sentence again: a sentence of
    n such claims cost n² (20,000 characters: 1.6 s, 80,000: 30 s)."""
    calls = []
    code_spans = markdown.code_spans

    def counted(text: str, html_code: bool = False) -> list[tuple[int, int, str]]:
        calls.append(len(text))
        return code_spans(text, html_code)

    patch(monkeypatch, "code_spans", counted)
    readme = "Build args: " + "`FOO_BAR` defaults to `2`, " * 500 + "and `FOO_BAR` defaults to `3`.\n"
    assert messages(readme, model) == [
        "README says FOO_BAR defaults to 2 but Dockerfile:3 says 1",
        "README says FOO_BAR defaults to 3 but Dockerfile:3 says 1",
    ]
    assert sum(calls) <= 4 * len(readme)  # a few readings of the sentence, not one a claim (n² before)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("xyz not installed, ", []),
        (
            "TensorRT not installed, ",
            ["README says TensorRT is not installed but Dockerfile:4 installs tensorrt"],
        ),
        ("the image includes TensorRT, ", []),
    ],
)
def test_many_absence_or_presence_claims_on_a_line_read_it_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch, claim: str, expected: list[str]
) -> None:
    """`TensorRT not installed` and `the image includes X` looked for a conditional word (`unless`,
    `default`) in the whole line once for each claim on it: n claims cost n² (20,000 characters of
    them: 2 to 5 s, 80,000: 45 s)."""
    maybe = _Counted(contents._MAYBE)
    patch(monkeypatch, "_MAYBE", maybe)
    assert messages(claim * 1000 + "\n", model) == expected
    assert maybe.searches <= 2  # the line, by each of the two rules


def test_image_references_in_one_sentence_read_it_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each image reference looked for the end of its sentence from the start of the line and read the
    sentence again: n references on a line cost n² (20,000 characters: 6 s)."""
    base_words = _Counted(prose._BASE_WORDS)
    patch(monkeypatch, "_BASE_WORDS", base_words)
    readme = "Based on " + "python:3.10 " * 1000 + "here. Based on nvidia/cuda:11.8-devel.\n"
    assert messages(readme, model) == [
        "README says the base image is nvidia/cuda:11.8-devel but Dockerfile:1 says "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04"
    ]
    assert base_words.searches == 2  # one a sentence


class _Walked(list):  # type: ignore[type-arg]
    """A list that counts how often it is walked from end to end."""

    walks = 0

    def __iter__(self) -> Iterator[Any]:
        _Walked.walks += 1
        return super().__iter__()


def test_the_heading_and_intro_of_a_line_are_found_without_walking_the_document() -> None:
    """`_heading_of` listed every heading for each dead `-f` or link it placed, `_fence_intro` every
    paragraph for each fence: 10,000 of each cost 10⁸ steps."""
    _Walked.walks = 0
    doc = Document()
    doc.headings = _Walked((4 * n + 1, f"h{n}") for n in range(1000))
    doc.paragraphs = _Walked(Paragraph([(4 * n + 2, "Build args:")], "", "", 0) for n in range(1000))
    assert wording._heading_of(doc, 4 * 500 + 3) == "h500"
    assert wording._heading_of(doc, 0) == ""
    assert _fence_intro(doc, Fence("", [(4 * 500 + 5, "A=1")], 0)) == "Build args:"
    assert _fence_intro(doc, Fence("", [(4 * 500 + 6, "A=1")], 0)) == "h501"
    assert _Walked.walks == 0


def test_a_wide_header_over_short_rows_is_read_cell_by_cell(model: ImageModel) -> None:
    """A header of 50,000 columns over 50,000 one-cell rows (700 KB): three table rules walked every
    column of every row, 2.5 × 10⁹ steps (minutes); a target column is still found."""
    n = 50_000
    readme = "| " + " | ".join(["h"] * n) + " |\n|" + "---|" * n + "\n" + "| 9 |\n" * n
    assert messages(readme, model) == []


def test_tables_of_gpu_targets_read_the_prose_before_them_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table of GPU targets was read with every paragraph of its section before it, joined anew:
    a section of n paragraphs and n such tables cost n² (80,000 characters: 1 s; 1 MB: minutes)."""
    scanned = []
    for n in (200, 800):
        built_for = _Counted(targets._BUILT_FOR)
        patch(monkeypatch, "_BUILT_FOR", built_for)
        section = "Paragraph {} says little.\n\n| GPU |\n|---|\n| gfx90a |\n| gfx942 |\n\n"
        assert messages("".join(section.format(i) for i in range(n)), model) == []
        scanned.append(built_for.scanned)
    assert scanned[1] <= 4.4 * scanned[0]  # 4× the tables, 4× the reading (16× before)


def test_dead_references_compare_the_folder_with_the_audited_paths_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each link or `-f` to a Dockerfile that is gone compared every Dockerfile beside the README with
    every audited one again: n dead references beside n Dockerfiles cost n² comparisons each."""
    for i in range(50):
        (tmp_path / f"Dockerfile.v{i}").write_text(f"FROM ubuntu:22.04\nARG A{i}=1\n")
    given = build_model(tmp_path / "Dockerfile.v0", "Dockerfile.v0")
    readme = "".join(f"See [it](Dockerfile.gone{i}).\n\n" for i in range(100))
    calls = []
    same_path = references._same_path

    def counted(a: str, b: str) -> bool:
        calls.append((a, b))
        return same_path(a, b)

    patch(monkeypatch, "_same_path", counted)
    if hasattr(references, "_candidates"):  # (found afresh: another test may have filled its cache)
        references._candidates.cache_clear()
    found = audit.audit(readme, "README.md", given, directory=tmp_path)
    assert len(found) == 100
    assert len(calls) <= 50


def test_a_long_line_of_names_and_versions_reads_a_window_before_each_claim(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`The CUDA 13.0 image …` and `the CUDA version used by CMake is 13.0` look back from each name
    with a version; each look read the whole line before it (one line of 200,000 words: 7.8 s for 4×
    the 50,000-word line's 1.4 s). Now each reads a bounded window."""
    owners: list[int] = []
    real_owner = prose.version_owner

    def version_owner(before: str, between: str) -> str | None:
        owners.append(len(before))
        return real_owner(before, between)

    counted = _Counted(prose._SENTENCE_THE)
    patch(monkeypatch, "version_owner", version_owner)
    patch(monkeypatch, "_SENTENCE_THE", counted)
    messages("the image ships TensorRT 10.0.1 with CUDA 12.4.1 image and " * 2_000, model)
    assert owners and max(owners) <= 80
    assert counted.searches and counted.scanned <= 80 * counted.searches


def test_a_reference_definition_with_a_long_target_is_read_once() -> None:
    """`[a]: target "title"` read its target as `\\S*[./#]\\S*` and the blanks after it two ways: a target
    of n dots (or n blanks) before other words was tried n² ways (20,000 dots: 31 s)."""
    assert markdown._REFERENCE_DEFINITION.match("[a]: " + "." * 100_000 + " words") is None
    assert markdown._REFERENCE_DEFINITION.match("[a]: x.md" + " " * 100_000 + "words") is None
    assert markdown.destinations("[a]: x.md" + " " * 100_000 + "'title'") == ["x.md"]


def test_a_run_of_blanks_after_an_output_flag_is_split_one_way() -> None:
    """`-o` followed by `[ \\t=]+[ \\t]*`: n blanks with no file after them split n² ways (20,000: 4.5 s)."""
    assert list(missing._OUTPUT.finditer("curl -o" + " " * 100_000)) == []
    assert list(missing._OUTPUT.finditer(">" + " " * 100_000 + "\t")) == []


def test_many_missing_links_list_each_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each link to a missing file looks for a name a slip away in its folder: the folder's entries are
    listed once for the README, not once a link (2,000 links in a folder of 2,000 files)."""
    (tmp_path / ".git").mkdir()
    for n in range(2_000):
        (tmp_path / f"page{n}.md").write_text("")
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    listed: list[str] = []
    real = os.listdir

    def counting(path: Any) -> list[str]:
        listed.append(str(path))
        return real(path)

    monkeypatch.setattr(missing.os, "listdir", counting)
    readme = "".join(f"[p](gone/page{n}.md) [q](missing{n}.md)\n" for n in range(2_000))
    found = audit.audit(readme, "README.md", model, {}, tmp_path)
    assert len(found) == 4_000
    assert sorted(listed) == [str(tmp_path.resolve())]
