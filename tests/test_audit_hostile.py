"""`docgen.audit` on hostile READMEs: the claim rules stay linear in the README's size.

Each test is a README shaped to make one rule do work that grows faster than its input: a run of
spaces a pattern splits many ways, or a rule reading its whole line (or sentence, table, document)
again for each claim on it. Where a count of the work shows the fault, the test counts it; where only
the size does, the README is large enough that the old code took minutes (no timed assertions).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, run, times_told

from docgen import audit, markdown
from docgen.audit import cells, contents, missing, prose, references, targets, wording
from docgen.audit.wording import fence_intro
from docgen.markdown import Document, Fence, Paragraph
from docgen.model import ImageModel
from docgen.pipeline import build_model

DOCKERFILE = """\
ARG IMAGE=nvidia/cuda:12.4.1-devel-ubuntu22.04
FROM ${IMAGE}
ARG FOO_BAR=1
RUN pip install tensorrt==10.0.1 && echo "$FOO_BAR" > /foo
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
    assert contents.NOT_INSTALLED.search("FOO" + spaces + "x") is None
    readme = "FOO" + spaces + "x. TensorRT is not installed.\n"
    assert messages(readme, model) == [
        "README says TensorRT is not installed but Dockerfile:4 installs tensorrt"
    ]


def test_a_default_cell_with_a_run_of_spaces_is_read_once(model: ImageModel) -> None:
    """A default cell `none   …   x` was split the same way by `_REQUIRED_CELL` (20,000 spaces: 21 s)."""
    assert cells.REQUIRED_CELL.fullmatch("none" + " " * 100_000 + "x") is None
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
    maybe = _Counted(contents.MAYBE)
    patch(monkeypatch, "MAYBE", maybe)
    assert messages(claim * 1000 + "\n", model) == expected
    assert maybe.searches <= 3  # the line, by each of the three rules (held_tools reads its sentences too)


def test_image_references_in_one_sentence_read_it_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each image reference looked for the end of its sentence from the start of the line and read the
    sentence again: n references on a line cost n² (20,000 characters: 6 s)."""
    base_words = _Counted(prose.BASE_WORDS)
    patch(monkeypatch, "BASE_WORDS", base_words)
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
    """`heading_of` listed every heading for each dead `-f` or link it placed, `fence_intro` every
    paragraph for each fence: 10,000 of each cost 10⁸ steps."""
    _Walked.walks = 0
    doc = Document()
    doc.headings = _Walked((4 * n + 1, f"h{n}") for n in range(1000))
    doc.paragraphs = _Walked(Paragraph([(4 * n + 2, "Build args:")], "", "", 0) for n in range(1000))
    assert wording.heading_of(doc, 4 * 500 + 3) == "h500"
    assert wording.heading_of(doc, 0) == ""
    assert fence_intro(doc, Fence("", [(4 * 500 + 5, "A=1")], 0)) == "Build args:"
    assert fence_intro(doc, Fence("", [(4 * 500 + 6, "A=1")], 0)) == "h501"
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
        built_for = _Counted(targets.BUILT_FOR)
        patch(monkeypatch, "BUILT_FOR", built_for)
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
    same_path = references.same_path

    def counted(a: str, b: str) -> bool:
        calls.append((a, b))
        return same_path(a, b)

    patch(monkeypatch, "same_path", counted)
    if hasattr(references, "candidates"):  # (found afresh: another test may have filled its cache)
        references.candidates.cache_clear()
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

    counted = _Counted(prose.SENTENCE_THE)
    patch(monkeypatch, "version_owner", version_owner)
    patch(monkeypatch, "SENTENCE_THE", counted)
    messages("the image ships TensorRT 10.0.1 with CUDA 12.4.1 image and " * 2_000, model)
    assert owners and max(owners) <= 80
    assert counted.searches and counted.scanned <= 80 * counted.searches


# --------------------------------------------------------------------------------------------------
# Scripts a README's commands run: only the project is looked at, and no path it names is an error


def _scripts_tree(root: Path) -> Path:
    """A project `root/proj` with `run.sh` and a link `linked` to a folder outside it; outside it,
    scripts whose names the README comes close to."""
    make_tree(
        root,
        {
            "proj/Dockerfile": "FROM python:3.12-slim\n",
            "proj/run.sh": "",
            "proj/tools/run.sh": "",
            "secret_deploy.sh": "",
            "other/private_rotate.sh": "",
        },
    )
    (root / "proj" / "linked").symlink_to(root / "other", target_is_directory=True)
    return root / "proj"


@pytest.mark.parametrize(
    "commands",
    [
        "./run.sh\n./secret_deplo.sh",  # from the folder above the project
        "./run.sh\ncd ../other\n./private_rotat.sh",  # a `cd` out of it
        "./run.sh\ncd tools/../../other\n./private_rotat.sh",
        "./run.sh\ncd linked\n./private_rotat.sh",  # a link leading out
        "./run.sh\n./linked/private_rotat.sh",
        "./run.sh\n../other/private_rotat.sh",  # a path leading out
    ],
)
def test_scripts_are_looked_for_in_the_project_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commands: str
) -> None:
    """The folders above the project, a `cd ..` past its top or into a link leading out, and a script's
    path leading out are not looked at: the README used to be told `did you mean secret_deploy.sh?`,
    a file outside the project, and that folder listed."""
    proj = _scripts_tree(tmp_path)
    (proj / "README.md").write_text(f"# App\n\n```bash\n{commands}\n```\n")
    listed: list[str] = []
    scandir = os.scandir

    def listing(path: Any = ".") -> Any:
        listed.append(os.path.realpath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", listing)
    monkeypatch.chdir(proj)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert "secret_deploy" not in result.out and "private_rotate" not in result.out, result.out
    assert all(Path(p).is_relative_to(proj.resolve()) for p in listed), listed


@pytest.mark.parametrize("command", ["bash ../other/private-rotate.sh", "bash linked/Private-Rotate.sh"])
def test_a_script_respelt_outside_the_project_is_not_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A script named but for case and separators like a file outside the project, through `..` or a
    link leading out: that folder used to be listed (`os.listdir`) and the README told `did you mean
    ../other/private_rotate.sh?`, a file outside the project."""
    proj = _scripts_tree(tmp_path)
    (proj / "README.md").write_text(f"# App\n\n```bash\n./run.sh\n{command}\n```\n")
    listed: list[str] = []
    listdir = os.listdir

    def listing(path: Any = ".") -> Any:
        listed.append(os.path.realpath(path))
        return listdir(path)

    monkeypatch.setattr(os, "listdir", listing)
    monkeypatch.chdir(proj)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert "private_rotate" not in result.out, result.out
    assert all(Path(p).is_relative_to(proj.resolve()) for p in listed), listed


def test_a_script_of_a_renamed_name_inside_the_project_is_still_found(tmp_path: Path) -> None:
    """What the rule finds inside the project it still finds, through a `cd` and a link that stay in it."""
    proj = _scripts_tree(tmp_path)
    (proj / "in").symlink_to(proj / "tools", target_is_directory=True)
    readme = "```bash\ncd in\n./run.sh\n./deploy.sh\n```\n"
    model = build_model(proj / "Dockerfile", "Dockerfile")
    found = audit.audit(readme, "README.md", model, {}, proj, proj)
    assert [(d.line, d.message) for d in found] == [
        (
            4,
            "README runs ./deploy.sh, which does not exist next to it or in a folder above it "
            "(the scripts there: run.sh)",
        )
    ]


def test_cd_in_and_out_across_many_blocks_keeps_the_folder_short(tmp_path: Path) -> None:
    """Each `cd tools` … `cd ..` made the folder's path longer (`tools/../tools/..`): after 250 blocks
    it was longer than the file system allows and the audit ended in `File name too long` (exit 2)."""
    proj = _scripts_tree(tmp_path)
    readme = "".join("```bash\ncd tools\n./run.sh\ncd ..\n```\n\n" for _ in range(400))
    readme += "```bash\n./run.sh\n./deploy.sh\n```\n"
    model = build_model(proj / "Dockerfile", "Dockerfile")
    found = audit.audit(readme, "README.md", model, {}, proj)
    assert [d.line for d in found] == [readme.count("\n") - 1]


@pytest.mark.parametrize("name", ["a" * 300 + ".sh", "/".join(["d" * 200] * 30) + "/x.sh"])
def test_a_script_path_longer_than_the_file_system_allows_is_a_missing_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """`./aaa…a.sh` (300 bytes) ended the audit: `aaa…a.sh: file name too long (longer than the file
    system allows)` (exit 2), naming a path the user never gave; a script that cannot be there is
    missing like any other, or not looked at."""
    proj = _scripts_tree(tmp_path)
    (proj / "README.md").write_text(f"```bash\n./run.sh\n./{name}\n```\n")
    monkeypatch.chdir(proj)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert result.code in (0, 1) and not result.err, result.err


def test_a_line_naming_a_missing_script_before_a_long_word_is_read_once(tmp_path: Path) -> None:
    """A line naming the script, then a word of 200,000 letters: taking out what only runs the script
    read the rest of the word from each of its letters (20,000: 1.1 s; 200,000: minutes)."""
    proj = _scripts_tree(tmp_path)
    readme = "```bash\n./run.sh\n./buildx.sh\n```\n\nbuildx.sh " + "a" * 200_000 + "\n"
    long_word = "a" * 200_000
    assert references.without_runs(f"buildx.sh {long_word}", "buildx.sh") == f"  {long_word}"
    model = build_model(proj / "Dockerfile", "Dockerfile")
    found = audit.audit(readme, "README.md", model, {}, proj, proj)
    assert [d.line for d in found] == [3]


# --------------------------------------------------------------------------------------------------
# Headings and names in marks


def test_a_long_run_of_marks_after_a_stage_or_variable_name_is_split_a_few_ways() -> None:
    """A name then n `*` or `_` and a letter: the marks after the name (and the `_` it may end with)
    were split n² ways (4,000: 0.1 s; 100,000 would take minutes)."""
    marks = 100_000
    assert contents.STAGE_ITEM.match("- a" + "*" * marks + "x") is None
    assert contents.STAGE_TITLE.fullmatch("a" + "_" * marks + "!") is None
    assert wording.CODE_NAME.match("A" + "_" * marks + "x") is None
    assert contents.STAGE_ITEM.match("2. **`build_x`** stage: compiles").group(1) == "build_x"
    assert contents.STAGE_TITLE.fullmatch("`builder` stage").group(1) == "builder"
    assert wording.CODE_NAME.match("**HF_TOKEN**").group(1) == "HF_TOKEN"


def test_a_long_heading_is_read_once_not_once_a_paragraph_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each paragraph asked of its heading whether it is about build args, environment variables or a
    stage (and joined it to the paragraph before): a heading of n words over n paragraphs cost n²
    (8,000 characters over 400 paragraphs: 1.9 s, 17× the time of a quarter of each)."""
    tmp = tmp_path
    (tmp / "Dockerfile").write_text("FROM python:3.12 AS builder\nFROM builder AS runtime\nARG A=1\n")
    model = build_model(tmp / "Dockerfile", "Dockerfile")
    wording.about_build_args.cache_clear()
    wording.about_env.cache_clear()
    scanned = []
    for n in (100, 400):
        counted = _Counted(wording.NOT_A_BUILD_ARG)
        patch(monkeypatch, "NOT_A_BUILD_ARG", counted)
        readme = "## " + "word " * (4 * n) + "\n\n" + "Some `B` text.\n\n" * n
        assert messages(readme, model) == []
        scanned.append((counted.scanned, len(readme)))
    assert all(work <= 4 * size for work, size in scanned), scanned


def test_dead_build_files_read_the_readme_once_for_the_folder_it_puts_the_reader_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each `-f Dockerfile.goneN` (a bare name) asked the whole README whether it puts the reader in
    the audited `docker/Dockerfile`'s folder: n such commands read it n times (1,200: 7.6 s, 13.5× the
    time of 300)."""
    make_tree(tmp_path, {"docker/Dockerfile": "FROM ubuntu:22.04\n"})
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    block = "Build it:\n\n```bash\ndocker build -f Dockerfile.gone{} .\n```\n\n"
    readme = "".join(block.format(i) for i in range(60))
    read = []
    search = re.search

    def counted(pattern: Any, string: str, flags: int = 0) -> re.Match[str] | None:
        # (`references.re` is the one `re` module: only the reads `references` makes are counted; other
        # rules read the README once each, for their own words)
        if string is readme and sys._getframe(1).f_globals.get("__name__") == references.__name__:
            read.append(len(string))
        return search(pattern, string, flags)

    monkeypatch.setattr(references.re, "search", counted)
    references.puts_in_folder.cache_clear()
    assert len(audit.audit(readme, "README.md", model, {}, tmp_path)) == 60
    assert sum(read) <= 3 * len(readme)  # once (three patterns) for the Dockerfile, not once a command


def test_links_and_build_files_out_of_the_project_are_not_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link or `-f` to `../Dockerfile.x` from the project's top: whether it was reported told whether
    a file of that name exists outside the project. Neither is looked for; a dead one inside still is."""
    proj = _scripts_tree(tmp_path)
    (tmp_path / "Dockerfile.secret").write_text("FROM scratch\n")
    readme = (
        "```bash\ndocker build -f ../Dockerfile.secret .\ndocker build -f ../Dockerfile.nothere .\n"
        "docker build -f linked/Dockerfile.nothere .\ndocker build -f Dockerfile.gone .\n```\n\n"
        "See [x](../Dockerfile.secret) and [y](../Dockerfile.nothere).\n"
    )
    (proj / "README.md").write_text(readme)
    monkeypatch.chdir(proj)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert [line.split(":", 2)[1] for line in result.out.splitlines() if ": error:" in line] == ["5"]


def test_gpu_target_lists_read_each_images_target_default_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each list of GPU targets is compared with every image's target build arg, but the arg's default
    is read once per audit, not once per list (400 lists × 400 images took 22.8 s)."""
    models = []
    for i in range(12):
        text = f"FROM ubuntu:22.04\nARG GPU_ARCH=gfx90a;gfx942;gfx{1100 + i}\n"
        (tmp_path / f"Dockerfile.{i}").write_text(text)
        models.append(build_model(tmp_path / f"Dockerfile.{i}", f"Dockerfile.{i}"))
    calls = 0
    parse = targets.hardware.parse_targets

    def counted(text: str) -> list[str]:
        nonlocal calls
        calls += 1
        return parse(text)

    monkeypatch.setattr(targets.hardware, "parse_targets", counted)
    section = "## Image {i}\n\nThe image is compiled for:\n\n- gfx90a\n- gfx942\n- gfx1200\n\n"
    found = audit.audit("".join(section.format(i=i) for i in range(40)), "README.md", models)
    # gfx1200 is in no image's default: each of the 40 lists is still compared
    assert sum(times_told(d.line, d.message) for d in found) >= 40
    assert calls <= 2 * len(models)  # once per image (per part of the audit), not once per list (480)


def test_a_reference_definition_with_a_long_target_is_read_once() -> None:
    """`[a]: target "title"` read its target as `\\S*[./#]\\S*` and the blanks after it two ways: a target
    of n dots (or n blanks) before other words was tried n² ways (20,000 dots: 31 s)."""
    assert markdown.REFERENCE_DEFINITION.match("[a]: " + "." * 100_000 + " words") is None
    assert markdown.REFERENCE_DEFINITION.match("[a]: x.md" + " " * 100_000 + "words") is None
    assert markdown.destinations("[a]: x.md" + " " * 100_000 + "'title'") == ["x.md"]


def test_a_run_of_blanks_after_an_output_flag_is_split_one_way() -> None:
    """`-o` followed by `[ \\t=]+[ \\t]*`: n blanks with no file after them split n² ways (20,000: 4.5 s)."""
    assert list(missing.OUTPUT.finditer("curl -o" + " " * 100_000)) == []
    assert list(missing.OUTPUT.finditer(">" + " " * 100_000 + "\t")) == []


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
    # once for the links, and once by the check of definition files beside the README (recipe_bases):
    # a listing a link would be 4,000
    assert set(listed) == {str(tmp_path.resolve())}
    assert len(listed) <= 2


# --------------------------------------------------------------------------------------------------
# Build contexts: a context or a Dockerfile leading out of the project is neither read nor reported


@pytest.mark.parametrize(
    "commands",
    [
        "docker build -f deploy/Dockerfile linked",  # a context through a link leading out
        "docker build -f deploy/Dockerfile ../other",  # a context above the project's top
        "docker build -f ../other/Dockerfile .",  # a Dockerfile outside
        "docker build -f linked/Dockerfile deploy",
        "cd ..\ndocker build -f proj/deploy/Dockerfile other",  # a cd out of it
    ],
)
def test_build_contexts_are_looked_at_in_the_project_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commands: str
) -> None:
    copies = "FROM python:3.12-slim\nCOPY hooks /opt/hooks\nCOPY settings.toml /etc/\n"
    make_tree(
        tmp_path,
        {
            "proj/deploy/Dockerfile": copies,
            "proj/deploy/hooks/a.sh": "",
            "proj/deploy/settings.toml": "",
            "other/Dockerfile": copies,
        },
    )
    proj = tmp_path / "proj"
    (proj / "linked").symlink_to(tmp_path / "other", target_is_directory=True)
    read: list[str] = []
    real = references.read_dockerfile

    def reading(path: Any, shown: Any = None) -> Any:
        read.append(os.path.realpath(path))
        return real(path, shown)

    monkeypatch.setattr(references, "read_dockerfile", reading)
    readme = f"# App\n\n```bash\n{commands}\n```\n"
    found = audit.audit(
        readme, "README.md", build_model(proj / "deploy/Dockerfile", "deploy/Dockerfile"), {}, proj, proj
    )
    assert [d.message for d in found if "context" in d.message] == []
    assert all(Path(p).is_relative_to(proj.resolve()) for p in read), read


def test_a_run_of_spaces_after_default_is_split_one_way() -> None:
    """`default` then blanks, an optional `:` and blanks again (`[ \\t]*:?[ \\t]+`): a run of n blanks
    with no version after it was split n² ways (`FOO_BAR (default` + 25,000 spaces: 10.8 s, 100,000:
    172 s)."""
    assert prose.GLUED_DEFAULT.search("FOO_BAR (default" + " " * 100_000 + "x") is None
    assert prose.GLUED_DEFAULT.search("defaults to:  cuda12.4") is not None
    assert prose.GLUED_DEFAULT.search("default cuda12.4") is not None


def test_a_run_of_spaces_after_an_entry_title_is_split_one_way() -> None:
    """An entry's title `FOO` then blanks, an optional `:` and blanks again, and a `Default:` line with
    blanks either side of its marks: a run of n blanks with no end after it was split n² ways
    (`FOO` + 25,000 spaces + `x`: 1.9 s, 100,000: 27 s)."""
    from docgen.audit import arg_entries

    spaces = " " * 100_000
    assert arg_entries.TITLE.fullmatch("FOO" + spaces + "x") is None
    assert arg_entries.DEFAULT_LINE.match("Default" + spaces + "x") is None
    assert arg_entries.TITLE.fullmatch("- ### UCX_BRANCH :  ") is not None
    assert arg_entries.DEFAULT_LINE.match("- **Default value**: `1`") is not None
    assert arg_entries.DEFAULT_LINE.match("Default   `1`") is not None


def test_the_line_of_each_claim_in_a_long_paragraph_is_found_without_walking_it() -> None:
    """`line_at` walked the paragraph's lines from the first for each claim: a list of n items
    (`- a` repeated, one paragraph) cost n² (6,250 items: 1.5 s, 25,000: 17 s)."""
    lines = _Walked([(n + 1, "- a") for n in range(20_000)])
    _Walked.walks = 0
    assert [wording.line_at(lines, offset) for offset in (0, 3, 4, 7, 8, 79_999)] == [1, 1, 2, 2, 3, 20_000]
    assert lines.walks <= 1


def test_base_images_offered_in_one_long_sentence_read_it_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a base image is offered (`You can also use …`) looked for the start of its sentence from
    the start of the line and for `can`, `instead` … over the whole sentence, once an image: a line of
    n references to the base cost n² (25,000 characters: 2.2 s, 100,000: 31 s)."""
    other_base = _Counted(prose.OTHER_BASE)
    monkeypatch.setattr(prose, "OTHER_BASE", other_base)
    readme = "Based on " + "nvidia/cuda:12.4.1-devel-ubuntu22.04 " * 500 + "\n"
    audit.audit(readme, "README.md", model)
    assert other_base.scanned <= 2 * len(readme)
    offered = "You can also use nvidia/cuda:12.1.0-devel-ubuntu22.04 as base.\n"
    assert messages(offered, model) == []
    assert messages("Based on nvidia/cuda:12.1.1-devel-ubuntu22.04.\n", model) != []


def test_a_list_item_of_many_names_looks_each_code_span_up(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list item under `## Build arguments` naming n args in code looked for the span at each name by
    walking all the item's spans: n² (25,000 characters: 0.16 s, 100,000: 1.2 s, 400,000: 16 s)."""
    from docgen.audit import arg_lists

    def walked(text: str, html_code: bool = False) -> list[tuple[int, int, str]]:
        return _Walked(markdown.code_spans(text, html_code))

    monkeypatch.setattr(arg_lists, "code_spans", walked)
    _Walked.walks = 0
    audit.audit("## Build arguments\n\n- " + "`FOO_BAR` " * 2000 + "\n", "README.md", model)
    assert _Walked.walks <= 10  # a few readings of the item, not one a name (2,000 before)


def test_in_use_claims_on_one_line_cut_it_into_sentences_once(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`TensorRT 10.0.1 is used`: each `Name version` claim looked for the start of its sentence from the
    start of the line: a line of n claims with no full stop cost n² (25,000 characters: 0.4 s, 100,000:
    3.2 s)."""
    scanned = []

    class Stops:
        def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
            scanned.append(min(endpos, len(text)) - pos)
            return prose._SENTENCE_STOP_PATTERN.finditer(text, pos, endpos)

    monkeypatch.setattr(prose, "_SENTENCE_STOP_PATTERN", prose.SENTENCE_STOP, raising=False)
    monkeypatch.setattr(prose, "SENTENCE_STOP", Stops())
    readme = "TensorRT 10.0.1 " * 2000 + "\n"
    audit.audit(readme, "README.md", model)
    assert sum(scanned) <= 4 * len(readme)
    assert messages("## Versions\n\nTensorRT 9.0.0 is installed.\n", model) == [
        "README says TensorRT 9.0.0 but Dockerfile:4 says 10.0.1"
    ]


def test_the_words_above_each_command_block_are_found_without_walking_the_paragraphs(
    tmp_path: Path, model: ImageModel
) -> None:
    """`setup_files` looked at every paragraph for the words above each block (`inside the container`):
    n blocks under n paragraphs cost n²."""
    from docgen.audit.setup_files import setup_files

    make_tree(tmp_path, {".git/HEAD": "", "Dockerfile": DOCKERFILE})
    doc = Document()
    doc.paragraphs = _Walked(Paragraph([(4 * n + 1, "Run:")], "", "", 0) for n in range(1000))
    doc.fences = [Fence("bash", [(4 * n + 2, "cp a.env.example a.env")], 0) for n in range(1000)]
    _Walked.walks = 0
    found = list(setup_files(doc, [""] * 4001, tmp_path, [model], "README.md", tmp_path))
    assert [d.line for d in found] == [2]  # told once
    assert _Walked.walks <= 10


def test_the_text_of_each_dead_code_path_s_line_is_read_once(tmp_path: Path, model: ImageModel) -> None:
    """A Dockerfile path in code that is elsewhere in the repository read its line's text by walking
    every paragraph, for each of its mentions: n mentions cost n²."""
    make_tree(tmp_path, {".git/HEAD": "", "Dockerfile": DOCKERFILE, "deep/a/b/Dockerfile.gpu": DOCKERFILE})
    doc = Document()
    doc.paragraphs = _Walked(
        Paragraph([(n + 1, "See `other/Dockerfile.gpu` for the GPU image.")], "", "", 0) for n in range(1000)
    )
    _Walked.walks = 0
    list(references.dead_code_names(doc, "README.md", tmp_path, ["Dockerfile"], tmp_path))
    assert _Walked.walks <= 10


def test_lists_tell_a_fence_between_two_paragraphs_by_bisection() -> None:
    fences = [3, 10, 20]
    assert markdown.fence_between(fences, 2, 4) and markdown.fence_between(fences, 9, 21)
    assert not markdown.fence_between(fences, 3, 10) and not markdown.fence_between(fences, 20, 99)


def test_the_files_readme_lines_make_are_indexed_once() -> None:
    """A step's source was looked for in every README line above it (`wget`, `cp`, `mkdir` …), once a
    step: n steps under n making lines cost n² (a 150 KB README of setup steps: 9 s; now 1.7 s)."""
    _Walked.walks = 0
    lines = _Walked(f"cp a{n}.example a{n}" for n in range(2000))
    made = references.MadeFiles(lines)
    assert all(made.before(f"a{n}", n + 2) and not made.before(f"a{n}", n + 1) for n in range(2000))
    assert _Walked.walks == 1


@pytest.mark.parametrize(
    "path",
    ["model.bin", "models/x.bin", "config.json", "config", "weights", "a b.txt", "x+y.txt", ".env", "data/"],
)
def test_the_index_of_made_files_says_what_reading_each_line_says(path: str) -> None:
    lines = [
        "wget https://example.org/model.bin",
        "mkdir -p models/x",
        "Copy config.json.example to your folder.",
        "echo hi > a b.txt",
        "touch x+y.txt .env.local",
        "Download the weights-v2 archive.",
        "cp data.tar /tmp",
    ]
    made = references.MadeFiles(lines)
    for line in range(1, len(lines) + 2):
        names = {path.split("/", 1)[0], path.rsplit("/", 1)[-1], path} - {""}
        assert made.before(path, line) == made._slowly(names, line)


def test_file_names_are_grouped_by_their_words_once(
    tmp_path: Path, model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each missing template a step copies looked for a file of the same words in another order by
    reading the words of every file name of the repository: n templates in a repository of m files
    cost n·m."""
    module = importlib.import_module("docgen.audit.setup_files")
    plain = module._words
    files = {".git/HEAD": "", "Dockerfile": DOCKERFILE}
    files |= {f"conf/f{n}.json": "" for n in range(300)}
    make_tree(tmp_path, files)
    counted = []

    def words(name: str) -> tuple[str, ...]:
        counted.append(name)
        return plain(name)

    monkeypatch.setattr(module, "_words", words)
    doc = Document()
    doc.fences = [Fence("bash", [(n + 1, f"cp a{n}.json.example a{n}.json")], 0) for n in range(300)]
    found = list(module.setup_files(doc, [""] * 301, tmp_path, [model], "README.md", tmp_path))
    assert len(found) == 300
    assert len(counted) <= 2 * 300 + 310  # each file name once, each template once or twice


def test_the_features_a_build_switches_off_are_looked_for_in_one_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each feature a Dockerfile switched off (`-D WITH_F1=OFF`) walked the README's lists, sentences
    and headings again, and looked for its switch's name in the whole README: n features over a README
    of n claims cost n² (a 25 KB README over 300 switches: 19 s; now 2.6 s)."""
    from docgen.audit import switches

    switched = "".join(f"RUN cmake -D WITH_F{n}=OFF ..\n" for n in range(300))
    (tmp_path / "Dockerfile").write_text("FROM ubuntu:22.04\n" + switched)
    image = build_model(tmp_path / "Dockerfile", "Dockerfile")
    walks = []
    claims = switches._claims
    monkeypatch.setattr(switches, "_claims", lambda doc, keys: walks.append(keys) or claims(doc, keys))
    readme = "# App\n\n" + "".join(f"Built with F{n} support.\n\n" for n in range(300))
    found = [m for m in messages(readme, image) if "switches it off" in m]
    assert len(found) == 300
    assert len(walks) == 1 and len(walks[0]) == 300


def test_what_readme_sentences_give_to_the_base_is_read_once() -> None:
    """Each component a README promised whose install is commented out read every sentence of the
    README again for one giving it to the base image: n promises cost n²."""
    from docgen.audit import disabled

    doc = Document()
    doc.paragraphs = _Walked(
        Paragraph([(n + 1, f"The base image brings pkg{n}." if n % 2 else f"It has Pkg{n}.")], "", "", 0)
        for n in range(1000)
    )
    _Walked.walks = 0
    sayings = disabled.base_sayings(doc)
    assert _Walked.walks == 1 and sayings.count("\n") == 499


def test_the_names_set_in_front_of_scripts_are_read_once_for_all_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables of each part of the README (a part for each build a section gives: `--build-arg
    FOO_BAR=i`) read every command block of the whole README again for the names set in front of a
    script (`set_for_scripts`): n sections cost n² (1,000 sections, 19,000 lines: 11 s of 64 s)."""
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    calls: list[int] = []
    original = references.set_for_scripts

    def counted(doc: Document) -> frozenset[str]:
        calls.append(len(doc.fences))
        return original(doc)

    patch(monkeypatch, "set_for_scripts", counted)
    if hasattr(audit, "set_for_scripts"):  # (`audit` itself, which reads it once for all parts)
        monkeypatch.setattr(audit, "set_for_scripts", counted)
    readme = "# App\n\n" + "".join(
        f"## Build {i}\n\n```bash\ndocker build --build-arg FOO_BAR={i} -t app:{i} .\n```\n\n"
        "| Arg | Default |\n|---|---|\n| `FOO_BAR` | 1 |\n\n"
        for i in range(40)
    )
    (tmp_path / "README.md").write_text(readme)
    monkeypatch.chdir(tmp_path)
    run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert len(calls) == 1, calls


def test_an_entrypoint_script_is_read_once_for_all_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part of the README (a part for each build a section gives) read the entrypoint script the
    image copies in again, searched it whole for a read of its arguments and parsed the Dockerfile
    again: n sections cost n times the script (250 sections over a 1.5 MB script and a 5,000-line
    Dockerfile: 83 s of a 133 s audit)."""
    from docgen.audit import overrides

    dockerfile = (
        "FROM ubuntu:24.04\nARG FOO_BAR=1\nRUN echo $FOO_BAR > /f\nCOPY entrypoint.sh /entrypoint.sh\n"
        'ENTRYPOINT ["/entrypoint.sh"]\n'
    )
    readme = "# App\n\n" + "".join(
        f"## Build {i}\n\n```bash\ndocker build --build-arg FOO_BAR={i} -t app:{i} .\n```\n\n"
        for i in range(40)
    )
    make_tree(
        tmp_path,
        {
            "Dockerfile": dockerfile,
            "README.md": readme,
            "entrypoint.sh": "#!/bin/sh\nexec python server.py\n",
        },
    )
    reads = _Counted(overrides.READS_ARGS)
    monkeypatch.setattr(overrides, "READS_ARGS", reads)
    monkeypatch.chdir(tmp_path)
    run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert reads.searches == 1, reads.searches


def test_the_copied_scripts_are_read_once_for_a_port_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each row of a port table read every start script the image copies in again for the ports its
    commands give (`--port 5001`): a table of n rows over scripts of m lines cost n·m (250 build
    sections over a 100,000-line copied script: 18 s)."""
    from docgen.audit import ports

    calls: list[int] = []
    given = ports.given_ports

    def counted(script: str) -> Iterator[tuple[str, int]]:
        calls.append(len(script))
        return given(script)

    monkeypatch.setattr(ports, "given_ports", counted)
    dockerfile = (
        'FROM ubuntu:24.04\nCOPY nginx.conf /etc/nginx/nginx.conf\nCOPY scripts/* /\nCMD ["/start.sh"]\n'
    )
    rows = "".join(f"| 3000 | {3100 + i} | Llama Chat |\n" for i in range(100))
    readme = f"# Chat\n\n| Connect Port | Internal Port | Description |\n|---|---|---|\n{rows}"
    make_tree(
        tmp_path,
        {
            "Dockerfile": dockerfile,
            "nginx.conf": "http {\n  server {\n    listen 5000;\n  }\n}\n",
            "scripts/start_llama_chat.sh": "#!/bin/bash\npython -m chat --port 5001\n",
            "scripts/start.sh": "#!/bin/bash\n/start_llama_chat.sh\n",
        },
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit.audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    assert len([d for d in found if "port table" in d.message]) == 100
    assert len(calls) <= 2, len(calls)


def test_the_torch_index_is_read_once_for_all_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each part of the README (a part for each build a section gives) split every RUN of the
    Dockerfile again for the pip commands installing torch from a PyTorch index: n sections cost n
    times the Dockerfile (250 sections over a 5,000-line Dockerfile: 4.5 s)."""
    from docgen.audit import methods

    dockerfile = (
        "FROM ubuntu:24.04\nARG FOO_BAR=1\nRUN echo $FOO_BAR > /f\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cu124\n"
    )
    readme = "# App\n\n" + "".join(
        f"## Build {i}\n\n```bash\ndocker build --build-arg FOO_BAR={i} -t app:{i} .\n```\n\n"
        for i in range(40)
    )
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    index = _Counted(methods.TORCH_INDEX)
    monkeypatch.setattr(methods, "TORCH_INDEX", index)
    monkeypatch.chdir(tmp_path)
    run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert index.searches == 1, index.searches


def test_a_long_sentence_naming_the_compose_command_is_read_once(tmp_path: Path) -> None:
    """A sentence naming the compose `command` was searched for a verb of editing, `.*`, then a word for
    arguments, from each verb on: a sentence of n such verbs and no such word cost n² (8,000 words:
    4.4 s; the 60,000 here would take minutes). The finding of a true sentence stays."""
    dockerfile = "FROM rocm/pytorch:latest\nENTRYPOINT cd app && python launch.py --listen\n"
    compose = "services:\n  webui:\n    build: .\n    command: --precision full\n"
    told = "Edit the `command` parameter to customize the arguments of the web UI.\n"
    readme = "# WebUI\n\nThe `command` is " + "set " * 60_000 + "here.\n\n" + told
    make_tree(tmp_path, {"Dockerfile": dockerfile, "docker-compose.yml": compose, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit.audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    assert [d.line for d in found if "`command:`" in d.message] == [5]


def test_a_copied_script_with_a_line_of_dashes_is_read_once() -> None:
    """The ports a start script's commands give (`--server-port 7860`) were read by `--[\\w-]*[-_]port`,
    which went back over a line of dashes from each of them: a banner of n dashes cost n² (20,000:
    5 s; the 200,000 here would take minutes). The ports of the script are still read."""
    from docgen.audit import ports

    script = 'echo "' + "-" * 200_000 + '"\npython -m chat --server-port 7860\n'
    assert list(ports.given_ports(script)) == [("7860", 2)]


def test_the_promises_of_one_long_sentence_read_its_words_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`disabled.promised` read everything after each promise (`an image with X`) up to the end of its
    sentence: one paragraph of n promising lines and no full stop cost n² (2,000 lines: 34 s)."""
    from docgen.audit import disabled

    scanned = [0]
    real = disabled.plain

    def counted(text: str, html_tags: bool = True) -> str:
        scanned[0] += len(text)
        return real(text, html_tags)

    monkeypatch.setattr(disabled, "plain", counted)
    readme = "# T\n\n" + "an image with Jupyter and Keras here\n" * 2_000
    promised = list(disabled.promised(markdown.read_document(readme, "README.md")))
    assert promised == [(3, "Jupyter"), (3, "Keras")]
    assert scanned[0] <= 2 * len(readme)


def test_a_run_of_blanks_in_a_list_item_is_split_one_way() -> None:
    """`- Name` then n blanks and no version: `[ \\t]*:?[ \\t]+` split the blanks n² ways in the
    bare-version and pinned-ref items (20,000: 7.7 s), as `[ \\t]*(?:[:=–—-][ \\t]*)?\\(?[ \\t]*` did
    after an arg list item's name (20,000: 9 s)."""
    from docgen.audit import arg_lists

    blanks = " " * 100_000
    assert not wording.BARE_VERSION.match("- Foo" + blanks + "x")
    assert not wording.REF_ITEM.match("- Foo" + blanks + "x")
    assert wording.BARE_VERSION.match("- Foo" + blanks + ":" + blanks + "1.2")
    item = arg_lists._item(3, "- `FOO_BAR`" + blanks + "x")
    assert item is not None and item.names == ("FOO_BAR",) and not item.required


def test_a_run_of_blanks_after_an_items_version_is_split_one_way() -> None:
    """`- CUDA 11.8` then n blanks: `[ \\t]*` then `\\(?[ \\t]*` split them n² ways before failing."""
    blanks = " " * 100_000
    assert not wording.OPEN_NOT_ONE.match(blanks + "x")
    assert wording.OPEN_NOT_ONE.match(blanks + "(" + blanks + "or 12.1")


# --------------------------------------------------------------------------------------------------
# Shapes `benchmarks/bench_shapes.py` found superlinear: the findings are those the old code gave


_SHAPES_DOCKERFILE = (
    "FROM ubuntu:22.04\n# RUN pip install gamess==1.0\nRUN pip install torch==2.3.1 numpy==1.26.4\n"
)


def _shapes_readme(words: int, run: int) -> str:
    """A README whose first line (its title) has `words` distinct words, then a list of what the image
    installs with items whose name runs into `run` underscores or blanks and no version."""
    title = "# Gamess " + " ".join(f"Word{k}x" for k in range(words)) + "\n\n"
    return (
        title
        + "The image installs:\n\n- torch 2.2.0\n- numpy 1.26.4\n"
        + "- Tooling"
        + "_" * run
        + "!\n- Python stack"
        + "_" * run
        + ": x\n- scipy"
        + " " * run
        + "1.11\n- mpich (from the base)\n"
    )


def test_long_titles_and_runs_in_list_items_keep_their_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title of 3,000 words read the Dockerfile (and the files it copies) again for each word, and an
    item's name followed by 20,000 `_` or blanks was split n² ways (`wording.BARE_VERSION`,
    `_LABELLED`, `_STACK_LINE`, `_REF_ITEM`, `contents._AFTER_NAME`, and later `set_aside._ENTRY_NAME`
    and `listed_components._NAME_END`, which ran past CI's hour): 3 minutes for this README, whose
    findings, recorded from that code (and `listed_components`'s scipy, as with a run of 2), stay the same."""
    make_tree(tmp_path, {"Dockerfile": _SHAPES_DOCKERFILE, "README.md": _shapes_readme(3_000, 20_000)})
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md", "--confidence", "likely")
    assert result.code == 1
    assert result.out.splitlines() == [
        "README.md:1: error: README's title says the image is Gamess, but Dockerfile:2 names it only in a "
        "commented-out instruction (the image does not install it) [DG101] (likely)",
        "README.md:5: error: README says torch 2.2.0 but Dockerfile:3 says 2.3.1 [DG101] (likely)",
        "README.md:9: error: README lists scipy 1.11 as in the image but Dockerfile installs no scipy "
        "[DG101] (likely)",
        "README.md:10: error: README lists mpich as in the image but Dockerfile installs no mpich [DG101] "
        "(likely)",
        "4 claims in README.md contradict Dockerfile",
    ]


def test_a_title_reads_the_dockerfile_and_copied_files_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each title word read every file the image copies (and the Dockerfile's lines) again: now the
    files are read once per Dockerfile, and only for the words a commented-out instruction names."""
    from docgen.audit import dropped

    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM ubuntu:22.04\nCOPY a.sh b.sh /opt/\n# RUN pip install gamess c++abi\n"
            "RUN echo ready\n",
            "a.sh": "echo one\n",
            "b.sh": "echo two\n",
        },
    )
    reads: list[Path] = []
    real = dropped.project_text

    def counted(file: Path) -> str:
        reads.append(file)
        return real(file)

    monkeypatch.setattr(dropped, "project_text", counted)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    words = ["Gamess", "c++abi", "ready", "ſcipy", *(f"Word{k}" for k in range(2_000))]
    found = dropped.only_commented(model, words)
    assert found["Gamess"] == 3 and found["c++abi"] == 3
    assert found["ready"] is None and found["Word7"] is None
    assert len(reads) == 2


@pytest.mark.parametrize(
    ("line", "word", "expected"),
    [
        ("# RUN pip install ſcipy", "scipy", 1),  # `re`'s case-blind `[A-Za-z]` takes `ſ` as `s`
        ("# RUN pip install \u212aernel", "kernel", 1),  # and the Kelvin sign as `k`
        ("# RUN pip install xgamess", "gamess", None),
        ("# RUN pip install gamess2", "gamess", None),
        ("# RUN pip install gamess-2", "gamess", 1),
        ("# RUN make c++abi", "c++abi", 1),
        ("# RUN make gc++abi", "c++abi", None),
        ("# RUN make c++abix", "c++abi", None),
        ("#RUN make GAMESS\nRUN gamess --version", "gamess", None),
        ("# a note on gamess\n#CMD gamess", "gamess", 2),
    ],
)
def test_a_title_word_is_named_where_it_was(
    tmp_path: Path, line: str, word: str, expected: int | None
) -> None:
    """The words of a line are read once, as the per-word pattern found them: not between letters or
    digits, any case (with the four letters a case-blind `[A-Za-z]` also matches)."""
    from docgen.audit import dropped

    (tmp_path / "Dockerfile").write_text(f"FROM ubuntu:22.04\n{line}\n")
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    shifted = None if expected is None else expected + 1
    assert dropped.only_commented(model, [word])[word] == shifted == _one_word(model, word)


def _one_word(model: ImageModel, word: str) -> int | None:
    """What `dropped` found for one title word before it read the Dockerfile once for all of them."""
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", re.IGNORECASE)
    found = None
    for number, line in enumerate(Path(model.file).read_text().splitlines(), 1):
        if not pattern.search(line):
            continue
        if not line.lstrip().startswith("#"):
            return None
        if found is None and re.match(r"[ \t]*#+[ \t]*(?:RUN|CMD)[ \t]", line, re.IGNORECASE):
            found = number
    return found


def test_a_run_of_blanks_after_a_version_is_split_one_way() -> None:
    """`Name version` then blanks before anything else: the stack line (`[ \\t]*` either side of a
    joiner) and the words that make a version the host's (`[ \\t]*,?[ \\t]+` before `but`/`or`) split a
    run of n blanks n² ways (`- torch 2.3 CUDA 12.1` + 8,000 spaces + `x`: 5 s and 1.6 s)."""
    spaces = " " * 100_000
    assert wording.STACK_LINE.match("- torch 2.3 CUDA 12.1" + spaces + "x") is None
    assert wording.STACK_LINE.match("torch 2.3 CUDA 12.1 Python 3.10" + spaces + "x") is None
    assert wording.STACK_LINE.match("torch 2.3 ," + spaces + "x") is None
    assert wording.STACK_LINE.match("Ubuntu Server 20.04 with Python 3.10, PyTorch 1.13.0, CUDA 11.8.")
    assert wording.STACK_LINE.match("- CUDA 12.4 + PyTorch 2.5 / Python 3.11  ")
    assert wording.STACK_LINE.match("torch 2.3 and onnx 1.2 plus CUDA 12")
    assert wording.STACK_LINE.match("torch 2.3, CUDA 12.1") is None  # two are no stack
    assert prose.HOST_AFTER.match("torch 2.3" + spaces + "x", 9) is None
    assert prose.HOST_AFTER.match("Ubuntu 20.04, but any unix system will do", 12)
    assert prose.HOST_AFTER.match("Ubuntu 20.04 or any other Linux distro", 12)


def test_names_versions_and_joins_are_tried_once_a_word_or_a_run_of_blanks() -> None:
    """Patterns searched from each letter of a long word, each digit of a long number or each blank of a
    long run read the rest of it again (n²): a name set in front of a command (`NAME=`), a list item's
    `Name version`, a `12.x`, a `${` placeholder, the joins between names, a package's number suffix."""
    from docgen.audit import commands, contents, references

    word, blanks, digits = "a_" * 50_000, " " * 100_000, "1" * 100_000
    assert references.SET_IN_FRONT.search("RUN " + word + "!") is None
    assert [m.groups() for m in references.SET_IN_FRONT.finditer('A=1 B="x y" c_d=2')] == [
        ("A", "1"),
        ("B", '"x y"'),
        ("c_d", "2"),
    ]
    assert contents.VERSIONED_ITEM.search("- " + word + "!") is None
    assert contents.VERSIONED_ITEM.search("- 9-CUDA 8.0 x").groups() == ("CUDA", "8.0")  # type: ignore[union-attr]
    assert contents.VERSION_IN.search(digits + "!") is None
    assert contents.VERSION_IN.search("python3.x").group() == "3.x"  # type: ignore[union-attr]
    assert commands.PLACEHOLDER.search("${" * 50_000 + "!") is None
    assert commands.PLACEHOLDER.search("docker/${NAME:-x}.Dockerfile") is not None
    assert contents.JOIN_SPLIT.split("a" + blanks + "b") == ["a" + blanks + "b"]
    assert contents.JOIN_SPLIT.split("PyTorch + torchvision   and torchaudio, CUDA") == [
        "PyTorch",
        "torchvision",
        "torchaudio",
        "CUDA",
    ]
    assert contents.PACKAGING.sub("", "lib" + digits + "x") == digits + "x"
    assert [contents.PACKAGING.sub("", n) for n in ("libcudnn8", "foo-123", "x_12")] == ["cudnn", "foo", "x"]


_OPENED: list[str] = []
_RECORDING: list[bool] = []


def _record_opens(event: str, args: tuple[Any, ...]) -> None:
    if _RECORDING and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        path = os.path.realpath(os.fsdecode(args[0]))
        _OPENED.append(path)
        with contextlib.suppress(OSError, ValueError):
            # opening a FIFO waits for a writer: the test would hang rather than fail
            assert not stat.S_ISFIFO(os.stat(path).st_mode), f"a FIFO opened: {path}"


sys.addaudithook(_record_opens)


@contextlib.contextmanager
def _recording() -> Iterator[list[str]]:
    """The real paths of the files opened inside the `with` block."""
    _OPENED.clear()
    _RECORDING.append(True)
    try:
        yield _OPENED
    finally:
        _RECORDING.clear()


_HOSTILE_README = """\
# App

Build with `make image` or `./build.sh`, then see [the dev file](Dockerfile.dev).

```bash
make image
./build.sh
bash scripts/run.sh
pip install -r requirements.txt
docker compose up
docker run -v $(pwd)/data:/data app
```
"""

_HOSTILE_FILES = (
    "Makefile",
    "build.sh",
    "scripts/run.sh",
    "scripts/env.sh",
    "requirements.txt",
    "poetry.lock",
    "docker-compose.yml",
    ".env",
    "Dockerfile.dev",
    ".github/workflows/ci.yml",
    ".github/actions/setup/action.yml",
    ".git/config",
    ".git/HEAD",
)


def _hostile_project(root: Path, kind: str) -> Path:
    """A project `root/proj` whose every file the audit's rules read beside the README is `kind`: a link
    to a file outside it (`link`), a folder (`folder`), a file no one may read (`unreadable`), a binary
    file (`binary`)."""
    proj = root / "proj"
    make_tree(
        root,
        {
            "proj/Dockerfile": "FROM python:3.12-slim\nCOPY . /app\nRUN pip install -r requirements.txt\n",
            "proj/README.md": _HOSTILE_README,
            "outside/secret": "image:\n\tsource ./x.sh\nFROM secret:1\n[remote]\nurl = git@h:o/r\n",
        },
    )
    for name in _HOSTILE_FILES:
        place = proj / name
        place.parent.mkdir(parents=True, exist_ok=True)
        if kind == "link":
            place.symlink_to(root / "outside" / "secret")
        elif kind == "folder":
            place.mkdir()
        elif kind == "unreadable":
            place.write_text("image:\n")
            place.chmod(0)
        else:
            place.write_bytes(b"\xff\xfe\x00image:\n" + bytes(range(256)) * 64)
    return proj


@pytest.mark.parametrize("kind", ["link", "folder", "unreadable", "binary"])
def test_files_beside_the_readme_that_are_links_out_folders_or_binary_are_read_safely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Each file a rule reads beside the README (a Makefile, scripts, requirements and lock files, compose
    and env files, workflows and local actions, `.git/config`, another Dockerfile) a link out of the
    project, a folder or a binary file: the audit ends in findings or none, never exit 2 or a traceback,
    and opens nothing outside the project."""
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its mode")
    proj = _hostile_project(tmp_path, kind)
    monkeypatch.chdir(proj)
    with _recording():
        result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    assert result.code in (0, 1), result.err
    outside = str((tmp_path / "outside").resolve())
    assert not [p for p in _OPENED if p.startswith(outside)], _OPENED


_LONG = "x" * 300


@pytest.mark.parametrize(
    "command",
    [
        f"make -f {_LONG}.mk image",
        f"make -C {_LONG} image",
        f"./{_LONG}.sh",
        f"bash scripts/{_LONG}.sh --push",
        f"source {_LONG}.env",
        f"pip install -r {_LONG}.txt",
        f"docker compose -f {_LONG}.yml up",
        f"docker compose --env-file {_LONG}.env up",
        f"docker build -f {_LONG}.Dockerfile .",
        f"docker run -v $(pwd)/{_LONG}:/data app",
        f"docker buildx bake -f {_LONG}.hcl",
        f"```\n\nSee [the notes]({_LONG}.md) and `{_LONG}.sh`.\n\n```bash",
        f"```\n\nThe [other image](Dockerfile.{_LONG}).\n\n```bash",
    ],
)
def test_a_file_named_longer_than_the_file_system_allows_is_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A README naming a Makefile, script, env, requirements, compose file or Dockerfile by a name longer
    than the file system allows (`File name too long` where the file is looked at): that file is
    missing or not looked at, never exit 2 or a traceback."""
    proj = _hostile_project(tmp_path, "folder")
    readme = _HOSTILE_README.replace("make image\n", f"make image\n{command}\n")
    (proj / "README.md").write_text(readme)
    monkeypatch.chdir(proj)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    assert result.code in (0, 1), result.err


def _linked_out(root: Path, names: list[str]) -> Path:
    """A project `root/proj` (a repository: it has `.git`) with a `Dockerfile` and `names`, each a link to
    a file outside it."""
    make_tree(root, {"proj/Dockerfile": "FROM python:3.12-slim\n", "proj/.git/HEAD": "", "out/x": "x\n"})
    for name in names:
        (root / "proj" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "proj" / name).symlink_to(root / "out" / "x")
    return root / "proj"


def _sourced(proj: Path) -> list[Path]:
    from docgen.audit.script_usage import sourced_files

    (proj / "run.sh").write_text('cd "$(dirname "$0")"\nsource ./env.sh\n')
    return sourced_files(proj / "run.sh")


def _builder_compose(proj: Path) -> str:
    from docgen.audit.builder_paths import compose_text

    return compose_text(proj)


def _owner_build_files(proj: Path) -> list[Path]:
    from docgen.audit.owner_images import build_files

    return [p for p in build_files(proj, [], proj / "README.md", proj.resolve()) if p.name != "Dockerfile"]


@pytest.mark.parametrize(
    ("names", "read"),
    [
        (["env.sh"], _sourced),  # script_usage: a file a script sources
        (["docker-compose.yml"], _builder_compose),  # builder_paths: compose files beside the README
        (["build.sh", "docker-bake.hcl"], _owner_build_files),  # owner_images: build files beside it
    ],
    ids=["script_usage", "builder_paths", "owner_images"],
)
def test_a_rule_does_not_read_a_file_linked_out_of_the_project(
    tmp_path: Path, names: list[str], read: Any
) -> None:
    """A file a rule reads beside the README or a script, a link to a file outside the project: it was
    read (its path given back, its text joined), now it is no file."""
    proj = _linked_out(tmp_path, names)
    assert not read(proj)


def test_the_dockerfiles_beside_the_readme_are_not_read_through_a_link_out(tmp_path: Path) -> None:
    """buildkit_features: `All our Dockerfiles use …` reads the Dockerfiles beside the README; one that
    is a link to a file outside the project was read (and its cache mount taken as the project's)."""
    proj = _linked_out(tmp_path, ["Dockerfile.cache"])
    (tmp_path / "out" / "x").write_text("FROM python:3.12-slim\nRUN --mount=type=cache,target=/c pip -V\n")
    (proj / "Dockerfile").write_text("FROM python:3.12-slim\nRUN pip -V\n")
    model = build_model(proj / "Dockerfile", "Dockerfile")
    with _recording():
        audit.audit("All our Dockerfiles use BuildKit cache mounts.\n", "README.md", model, {}, proj, proj)
    assert str((tmp_path / "out" / "x").resolve()) not in _OPENED


def test_a_package_file_the_image_copies_is_not_read_through_a_link_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """floating_pins: the `requirements.txt` a Dockerfile copies and installs from, a link to a file
    outside the project, was read for its pins."""
    from docgen.audit.floating_pins import package_texts

    proj = _linked_out(tmp_path, ["requirements.txt"])
    (proj / "Dockerfile").write_text("FROM python:3.12-slim\nCOPY requirements.txt /app/\n")
    monkeypatch.chdir(proj)
    model = build_model(proj / "Dockerfile", "Dockerfile")
    assert package_texts(model, "requirements.txt", []) == []


_LINKING_README = """\
### Docker image

We provide a [`Dockerfile`](Dockerfile) to build an image.

```shell
docker build -t vision:2.1 docker/vision/
```
"""
_LINKED = "FROM python:3.12-slim\nRUN sed -i s/archive/mirror/ /etc/apt/sources.list\n"
_BUILT = "FROM python:3.12-slim\nRUN python setup_seg.py develop\n"


@pytest.mark.parametrize(
    ("odd", "audited"),
    [
        ("docker/vision/Dockerfile", "docker/Dockerfile"),  # the Dockerfile built
        ("docker/Dockerfile", "docker/vision/Dockerfile"),  # the Dockerfile linked
    ],
)
@pytest.mark.parametrize("kind", ["link", "large"])
def test_unbuilt_link_compares_no_dockerfile_out_of_the_project_or_too_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, odd: str, audited: str, kind: str
) -> None:
    """unbuilt_link: a README linking docker/Dockerfile as its Dockerfile while its build builds
    docker/vision/Dockerfile, one of them a link to a file outside the project or larger than
    `errors.MAX_FILE_BYTES`. As every file read beside the README (`files.bytes_or_none`), it says
    nothing: no finding, exit 0 (the built one, a link out, was read and compared on main; the linked
    one, too large, was read whole)."""
    from docgen.errors import MAX_FILE_BYTES

    proj = tmp_path / "proj"
    make_tree(
        tmp_path,
        {
            "proj/.git/HEAD": "",
            "proj/pyproject.toml": "",  # the project's top: the build runs from it
            "proj/docker/README.md": _LINKING_README,
            "proj/docker/Dockerfile": _LINKED,
            "proj/docker/vision/Dockerfile": _BUILT,
            "out/x": _BUILT if "vision" in odd else _LINKED,
        },
    )
    monkeypatch.chdir(proj)
    args = ("audit", "docker/README.md", "--dockerfile", audited, "--confidence", "likely")
    assert run(*args).code == 1  # the plain project: the finding
    if kind == "link":
        (proj / odd).unlink()
        (proj / odd).symlink_to(tmp_path / "out" / "x")
    else:
        with (proj / odd).open("ab") as handle:
            handle.truncate(MAX_FILE_BYTES + 1)  # a sparse file: its size is all that is read
    result = run(*args)
    assert (result.code, result.out, result.err) == (
        0,
        f"docker/README.md: no claim outside the docgen blocks contradicts {audited}\n",
        "",
    )


def test_a_script_a_block_runs_is_not_read_through_a_link_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """references: the text of each script a README block runs (`./launch.sh`, read for the files it
    may make before a build) was read through a link leading out of the project."""
    proj = _linked_out(tmp_path, ["launch.sh"])
    (tmp_path / "out" / "x").write_text("git clone https://example.com/o/r\n")
    (proj / "README.md").write_text(
        "# App\n\n```sh\n./launch.sh\ndocker build -t app -f r/Dockerfile r\n```\n"
    )
    monkeypatch.chdir(proj)
    with _recording():
        result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    assert result.code in (0, 1), result.err
    assert str((tmp_path / "out" / "x").resolve()) not in _OPENED


@pytest.mark.parametrize(
    "text",
    [
        "",
        "/top",
        "see /top and /top/x, not /home/top, ${H}/top, ~/top, x/top, a:/top",
        "/top.d /top+ /top@1 /top- /topx /to /top.",
        "//top /top//x '/top' \"/top\" (/top) /a:b /a%b /",
        "mount /KestrelML/data\n/deps_ws",
    ],
)
@pytest.mark.parametrize("name", ["top", "top.d", "to", "KestrelML", "deps_ws", "a:b", "a%b", ""])
def test_the_names_a_text_gives_at_the_root_are_read_once_as_at_root_reads_them(text: str, name: str) -> None:
    from docgen.audit.rehomed_mounts import RootNames, at_root

    assert (name in RootNames(text)) == at_root(name, text)


def test_thousands_of_mount_clauses_read_the_readme_and_context_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rehomed_mounts.volume_elsewhere: each folder a README says is mounted looked for its VOLUME among
    all the Dockerfile's and for its name in the whole README and build context: n clauses over n
    VOLUMEs cost n² (20,000 characters: 0.9 s, 80,000: 6.9 s)."""
    rehomed_mounts = importlib.import_module("docgen.audit.rehomed_mounts")
    calls = []
    at_root = rehomed_mounts.at_root
    monkeypatch.setattr(rehomed_mounts, "at_root", lambda *a: calls.append(a) or at_root(*a))
    n = 500
    volumes = "".join(f"VOLUME /srv/studio/w{k} /srv/studio/o{k}\n" for k in range(n))
    (tmp_path / "Dockerfile").write_text("FROM ubuntu:24.04\nWORKDIR /srv/studio\n" + volumes)
    readme = "# Studio\n\n" + "".join(f"Weights {k} are mounted at `/w{k}`.\n" for k in range(n))
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [
        d.line for d in audit.audit(readme, "README.md", model, {}, tmp_path) if "its volume for" in d.message
    ]
    assert found == list(range(3, n + 3))
    assert calls == []


def test_the_script_an_image_starts_is_found_once_for_all_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_time: the script the image's CMD starts was looked for in every word of the CMD again for each
    variable the README sets: a CMD of n words under n variables cost n² (13.5× for 4× the text)."""
    run_time = importlib.import_module("docgen.audit.run_time")
    words = _Counted(run_time.SCRIPT_WORD)
    words.findall = lambda *a: (setattr(words, "searches", words.searches + 1), words.pattern.findall(*a))[1]  # type: ignore[method-assign]
    monkeypatch.setattr(run_time, "SCRIPT_WORD", words)
    n = 300
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\nCMD lab serve " + "".join(f"--o{k}='$LAB_V{k}' " for k in range(n)) + "\n"
    )
    readme = "# Lab\n\n## Environment variables\n\n| Variable | Meaning |\n|---|---|\n" + "".join(
        f"| `LAB_V{k}` | value {k} |\n" for k in range(n)
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [d for d in audit.audit(readme, "README.md", model, {}, tmp_path) if "single quotes" in d.message]
    assert len(found) == n
    assert words.searches <= 2


def test_a_git_config_of_many_lines_that_are_no_setting_is_given_up_at_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """own_repo.remote_names (a `cd` into a clone of this repository, `audit/entered_compose`): a
    `.git/config` of 100,000 lines that are no setting was read to the end by `configparser`, each bad
    line added to one message holding all those before it (n²: minutes); the first is enough."""
    import configparser

    from docgen.audit.own_repo import remote_names

    copied = [0]
    append = configparser.ParsingError.append

    def counted(self: configparser.ParsingError, *args: Any) -> None:
        copied[0] += len(self.message)
        append(self, *args)

    monkeypatch.setattr(configparser.ParsingError, "append", counted)
    config = '[remote "origin"]\n\turl = https://github.com/acme/tools.git\n'
    make_tree(tmp_path, {".git/config": config})
    assert remote_names(tmp_path) == {"acme/tools"}
    (tmp_path / ".git" / "config").write_text(config + "a line\n" * 100_000)
    assert remote_names(tmp_path) == set()
    assert copied[0] <= 100 * 100_000


def test_compose_commands_after_many_cd_lines_read_each_step_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """entered_compose: each compose command of a block walked every `cd` before it again and looked
    for a step writing a file in every line since the first: a block of n `cd` and compose lines cost
    n² (`cd-after-clones`: 8.6× for 4× the text)."""
    entered_compose = importlib.import_module("docgen.audit.entered_compose")
    writes = _Counted(entered_compose.WRITES)
    monkeypatch.setattr(entered_compose, "WRITES", writes)
    n = 300
    block = (
        "git clone https://github.com/acme/tools.git\ncd tools\n"
        + "cd deploy\ndocker compose build\ncd ..\n" * n
    )
    make_tree(
        tmp_path,
        {
            ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/tools.git\n',
            ".git/HEAD": "ref: refs/heads/main\n",
            "deploy/Dockerfile": "FROM python:3.12-slim\n",
            "docker/x/Dockerfile": "FROM python:3.12-slim\n",
            "docker/x/docker-compose.yml": "services:\n  web:\n    build: .\n",
        },
    )
    readme = f"# X\n\n```sh\n{block}```\n"
    model = build_model(tmp_path / "docker/x/Dockerfile", "Dockerfile")
    found = [
        d.line
        for d in audit.audit(readme, "README.md", model, {}, tmp_path / "docker/x", tmp_path)
        if "docker compose build in tools/deploy" in d.message
    ]
    assert found == [7]  # (one finding a folder)
    assert writes.searches <= len(readme.splitlines())


def test_a_long_run_of_flag_letters_after_docker_run_is_read_once() -> None:
    """moved_scripts: `docker run -iiii…!` (a word of 100,000 letters, no flag): the pattern placing an
    `i` or a `t` inside the run tried every split of it, minutes; the letters are read as one run now."""
    from docgen.audit.moved_scripts import enters

    assert not enters("docker run -" + "i" * 100_000 + "! image")
    assert enters("docker run -" + "d" * 100_000 + "it image")
    assert not enters("docker run --rm -p 8080:8080 app")


def test_a_command_with_a_word_of_a_megabyte_is_not_split_by_shlex() -> None:
    """docker_cli, names, unshipped_cmd and the other readers of a command's words: `docker run -iiii…`
    (a word of a megabyte) was split by `shlex`, which copies a word at each character it adds: hours.
    Such a word is no option or path: the command reads as one that cannot be split."""
    from docgen.audit.docker_cli import docker_words
    from docgen.audit.names import words_of
    from docgen.shell import shell_split

    long = "docker run -" + "i" * 1_000_000 + "! image"
    assert docker_words(long) is None
    assert words_of(long) == long.split()
    with pytest.raises(ValueError):
        shell_split('echo "' + "a " * 500_000 + '"')
    assert shell_split('docker run -e "A=x y" image') == ["docker", "run", "-e", "A=x y", "image"]


def test_a_path_longer_than_linux_allows_is_no_path_in_the_image() -> None:
    """image_paths (and moved_clones): `ls /srv/ab/ab/…` of a megabyte, 333,000 levels: each folder above
    it, a slice of it, was looked up (the square of its length, minutes); no file is at such a path."""
    from docgen.audit.image_paths import clean_path

    assert clean_path("/srv/" + "ab/" * 333_000) is None
    assert clean_path("/srv/" + "ab/" * 1_000) == "/srv/" + "/".join(["ab"] * 1_000)


def test_a_copy_source_longer_than_the_file_system_allows_is_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copied.matched (builder_paths, image_paths): `COPY ./${M}` whose ARG default is a name of a
    megabyte, or of 300 letters: `Path.exists` raised ENAMETOOLONG and the audit stopped with exit 2,
    the name whole as its message; such a name is no file of the context."""
    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM python:3.12\nARG M="
            + "m" * 300
            + ".pth\nARG N="
            + "n" * 1_000_000
            + ".pth\nCOPY ./${M} ./${N} /m/\n",
            "README.md": "# X\n\n```sh\ndocker build -t acme/app:1.0 .\n```\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md", "--confidence", "likely")
    assert result.code in (0, 1), result.err[-300:]
    assert "too long" not in result.err


def test_a_workflows_folder_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    """owner_images: `.github` (or `.github/workflows`) a link to a folder out of the project: each
    workflow there resolved into a folder whose own repository `stays_home` took for its own, and its
    images were told as the build's (`did you mean acme/secretapp?`)."""
    from docgen.audit.owner_images import other_owner_images

    make_tree(
        tmp_path,
        {
            "outside/gh/workflows/ci.yml": "tags: acme/secretapp:1\n",
            "outside/wf/ci.yml": "tags: acme/secretapp:1\n",
            "a/proj/Dockerfile": "FROM python:3.12\n",
            "b/proj/Dockerfile": "FROM python:3.12\n",
            "c/proj/Dockerfile": "FROM python:3.12\n",
            "c/proj/.github/workflows/ci.yml": "tags: acme/secretapp:1\n",
        },
    )
    os.symlink(tmp_path / "outside/gh", tmp_path / "a/proj/.github")
    (tmp_path / "b/proj/.github").mkdir()
    os.symlink(tmp_path / "outside/wf", tmp_path / "b/proj/.github/workflows")
    readme = "# X\n\nUse `acme/secretap:1`.\n"
    doc = markdown.read_document(readme, "README.md")
    told = {}
    for name in ("a", "b", "c"):
        folder = tmp_path / name / "proj"
        model = build_model(folder / "Dockerfile", "Dockerfile")
        told[name] = [
            d.message for d in other_owner_images(doc, readme, "README.md", folder, [model], folder)
        ]
    assert told["a"] == told["b"] == []
    assert ["did you mean acme/secretapp?" in m for m in told["c"]] == [True]  # (inside: told)


def test_a_file_linked_out_of_the_project_names_no_variable_of_it(tmp_path: Path) -> None:
    """env_slips (and preset_env): the files beside the README were read through a link out of the
    project (`vars.sh` → a file elsewhere), and a variable named there was told as the project's."""
    from docgen.audit.env_slips import env_slips
    from docgen.audit.preset_env import folder_files

    make_tree(
        tmp_path,
        {
            "outside/vars.sh": "export OUTSIDE_SECRETVALUE_NAME=1\n",
            "proj/.git/HEAD": "ref: refs/heads/main\n",
            "proj/Dockerfile": "FROM python:3.12\n",
            "inside/.git/HEAD": "ref: refs/heads/main\n",
            "inside/Dockerfile": "FROM python:3.12\n",
            "inside/vars.sh": "export OUTSIDE_SECRETVALUE_NAME=1\n",
        },
    )
    os.symlink(tmp_path / "outside/vars.sh", tmp_path / "proj/vars.sh")
    readme = "# X\n\nSet `OUTSIDE_SECRETVALEU_NAME`.\n"
    doc = markdown.read_document(readme, "README.md")
    told = {}
    for name in ("proj", "inside"):
        folder_files.cache_clear()
        folder = tmp_path / name
        model = build_model(folder / "Dockerfile", "Dockerfile")
        told[name] = [d.message for d in env_slips(doc, "README.md", folder, [model], folder)]
    assert told["proj"] == []
    assert ["did you mean OUTSIDE_SECRETVALUE_NAME?" in m for m in told["inside"]] == [True]


def test_a_name_of_many_parts_is_indexed_in_as_many_steps() -> None:
    """env_slips.SlipIndex (env_slips, owner_images): each name was keyed by its parts but one, a tuple
    of n - 1 parts for each of its n parts: 20 names of 20,000 parts made 8·10⁹ part copies (hours).
    The keys are hashes made part by part now."""
    from docgen.audit.env_slips import SlipIndex

    names = ["AB_" * 20_000 + f"CDEFG{i}" for i in range(20)]
    index = SlipIndex(names)
    near = index.near("AB_" * 20_000 + "CDEFH0")
    assert sorted(near) == sorted(names)
    assert index.near("AB_" * 19_999 + "XY_CDEFG0") == ["AB_" * 20_000 + "CDEFG0"]
    assert index.near("AB_" * 20_000 + "CDEFG0_X") == []


def test_a_workflow_of_megabytes_is_not_parsed_for_ci_claims(tmp_path: Path) -> None:
    """ci_claims: a workflow of ten megabytes (under `MAX_FILE_BYTES`) was parsed by PyYAML, minutes;
    one past `MAX_PROJECT_FILE_BYTES` is refused as a file that cannot be read."""
    from docgen.audit.ci_claims import read_workflows

    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM python:3.12\n",
            ".github/workflows/ci.yml": "on: push\njobs:\n  b:\n    steps:\n"
            + "      - run: docker build -t acme/app:1 .\n" * 30_000,
        },
    )
    assert read_workflows(tmp_path, tmp_path, {(tmp_path / "Dockerfile").resolve()}) is None


def test_many_slipped_images_are_each_looked_up_not_compared_with_every_name(tmp_path: Path) -> None:
    """owner_images: each image one slip from a workflow's went through every image the build files and
    workflows name (`_slipped`), and searched every workflow again for its name under a variable owner:
    20,000 images against 20,000 names, minutes. The names are looked up by `owner/name` now, and the
    names under a variable owner read once."""
    from docgen.audit.owner_images import other_owner_images

    n = 20_000
    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM python:3.12\n",
            ".github/workflows/ci.yml": "on: push\n"
            + "".join(f"# tags: majestic/app{k}-worker:1\n" for k in range(n)),
        },
    )
    readme = "# X\n\n" + "".join(f"Pull `majestic/app{k}-wroker:1`.\n" for k in range(n))
    doc = markdown.read_document(readme, "README.md")
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = list(other_owner_images(doc, readme, "README.md", tmp_path, [model], tmp_path))
    assert len(found) == n
    assert "did you mean majestic/app7-worker?" in found[7].message


def test_the_lines_telling_to_fetch_a_file_are_read_once_for_every_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fetched_copies.told (references._context_misses): each build of a file only a download gives
    read every README line again for the file's name and for the words telling to fetch it: thousands
    of prose builds (`docker build -t appN .`) made the README's lines times the builds. `Told` reads
    each line once for one README."""
    from docgen.audit import fetched_copies

    counted = _Counted(fetched_copies.TELLS_FETCH)
    monkeypatch.setattr(fetched_copies, "TELLS_FETCH", counted)
    lines = [f"docker build -t app{k} ." for k in range(3_000)]
    lines[1_500] = "Download the weights into this folder."
    asked = fetched_copies.Told(lines)
    answers = [asked("models/model.safetensors", n) for n in range(1, len(lines) + 1)]
    assert counted.searches <= len(lines)
    assert answers == [n > 1_501 for n in range(1, len(lines) + 1)]
    assert asked("a/W.PTH", 1) is False and fetched_copies.Told(["get w.pth"])("a/W.PTH", 1) is True
    assert fetched_copies.told(["", "copy the .pth file here"], "x.pth", 3)
    assert not fetched_copies.told(["", "copy the .pth file here"], "x.pth", 2)


_LINKED_DOCKERFILE = """\
FROM python:3.12-slim
COPY requirements/base.txt /srv/requirements.txt
RUN pip install -r /srv/requirements.txt
COPY . /srv
EXPOSE 8000
CMD ["python", "/srv/serve.py"]
"""
_LINKED_README = """\
# Teapot

The image installs Flask 2.3.3 (`flask==2.3.3`, see `requirements/base.txt`).

Run it with `docker compose up` and open http://localhost:8000.

## Images

- `ghcr.io/kettle/teapot:2.0`: the server.
- `ghcr.io/kettle/teapot:3.0-slim`: the server, smaller.

Pull `ghcr.io/kettle/teapto:2.0` too.

CI builds the image on every pull request.
"""
# (each file makes a drift with the README above when it is the project's own)
_CHECKOUT = {
    "requirements/base.txt": "flask==3.0.2\n",
    "docker-compose.yml": 'services:\n  web:\n    build: .\n    ports:\n      - "9100:8000"\n',
    ".github/workflows/ci.yml": "name: Publish\non:\n  push:\n    tags: ['*']\njobs:\n  b:\n"
    "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
    "      - uses: docker/build-push-action@v5\n        with:\n          context: .\n"
    "          push: true\n          tags: ghcr.io/kettle/teapot:2.0\n",
}


@pytest.mark.parametrize("marker", [".git/HEAD", "pyproject.toml", None])
def test_files_linked_into_another_checkout_make_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str | None
) -> None:
    """files.stays_home: a project whose `.github`, `requirements/` and compose file are links into
    another git checkout. Each folder's repository was found from the folder resolved, so a file in
    `.github/workflows` took the other checkout for its home, and `published_tags` told a tag the
    other checkout's workflow does not push. The project's own copies of the same files (`inside`)
    make a finding each; the linked ones none, with no traceback."""
    make_tree(tmp_path, {f"other/{name}": text for name, text in _CHECKOUT.items()})
    make_tree(tmp_path, {"other/.git/HEAD": "ref: refs/heads/main\n"})
    for name in ("inside", "proj"):
        make_tree(tmp_path, {f"{name}/Dockerfile": _LINKED_DOCKERFILE, f"{name}/README.md": _LINKED_README})
        if marker is not None:
            make_tree(tmp_path, {f"{name}/{marker}": "\n"})
    make_tree(tmp_path, {f"inside/{name}": text for name, text in _CHECKOUT.items()})
    for name in (".github", "requirements", "docker-compose.yml"):
        os.symlink(tmp_path / "other" / name, tmp_path / "proj" / name)
    told = {}
    for name in ("inside", "proj"):
        monkeypatch.chdir(tmp_path / name)
        result = run("audit", "README.md", "--confidence", "likely")
        assert "Traceback" not in result.err
        told[name] = result.out
    assert "requirements/base.txt:1 says flask==3.0.2" in told["inside"]
    assert "publishes host port 8000 (they publish 9100)" in told["inside"]
    assert "pushes only the tags 2.0" in told["inside"]
    assert "did you mean kettle/teapot?" in told["inside"]
    assert "run on push only" in told["inside"]
    assert "no claim outside the docgen blocks contradicts" in told["proj"], told["proj"]


@pytest.mark.parametrize("other_git", [True, False])
def test_a_workflow_linked_out_of_the_project_is_a_ci_docgen_cannot_read(
    tmp_path: Path, other_git: bool
) -> None:
    """ci_claims and published_tags: a `.github` linked out of the project (into another checkout, or
    into a folder of none while the project has no `.git`) is a CI docgen cannot read (`read_workflows` None:
    both rules silent), not a project with no CI (`[]`) and not the project's CI."""
    from docgen.audit.ci_claims import read_workflows
    from docgen.audit.published_tags import publishing

    workflow = _CHECKOUT[".github/workflows/ci.yml"]
    make_tree(tmp_path, {"other/.github/workflows/ci.yml": workflow, "proj/Dockerfile": "FROM x\n"})
    if other_git:
        make_tree(tmp_path, {"other/.git/HEAD": "\n", "proj/.git/HEAD": "\n"})
    os.symlink(tmp_path / "other" / ".github", tmp_path / "proj" / ".github")
    proj = tmp_path / "proj"
    audited = {(proj / "Dockerfile").resolve()}
    assert read_workflows(proj, proj, audited) is None
    assert publishing(proj, proj) is None
    make_tree(tmp_path, {"bare/Dockerfile": "FROM x\n"})
    assert read_workflows(tmp_path / "bare", tmp_path / "bare", audited) == []


def test_python_files_nested_past_the_parser_s_limit_are_read_as_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`entry_options` and `shipped_functions` parse with `ast` the Python script the image starts and the
    modules it copies. A 10 KB file of `x = ------…1` makes CPython's parser give up with MemoryError (and
    deeper brackets with SyntaxError), which stopped the audit with a traceback: such a file says nothing."""
    hostile = "x = " + "-" * 20_000 + "1\n"
    make_tree(
        tmp_path,
        {
            "Dockerfile": (
                'FROM python:3.12-slim\nCOPY main.py util.py /app/\nENTRYPOINT ["python", "/app/main.py"]\n'
            ),
            "main.py": hostile,
            "util.py": hostile,
            "README.md": (
                "# Tool\n\n```bash\ndocker run tool --steps 3\n```\n\n"
                "`--steps` defaults to 5.\n\n```python\nimport util\nutil.run(step=1)\n```\n"
            ),
        },
    )
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md", "--confidence", "likely")
    assert "Traceback" not in result.err
    assert result.code in (0, 1), result.err


_SHAPES = {
    "folder loop": "loop",
    "in a folder loop": "loop/x.sh",
    "file loop": "floop.sh",
    "deeper loop": "sub/loop/y",
    "climbing out of a loop": "loop/../deploy/Dockerfile",
    "link out": "out/secret.sh",
    "folder linked out": "out",
    "absolute": "/etc/passwd",
    "climbing out": "../../../../../etc/passwd",
    "5,000 characters": "x" * 5000,
    "many long parts": "/".join(["d" * 200] * 30),
    "name of 300 bytes": "n" * 300 + ".sh",
    "FIFO": "fifo.sh",
    "folder of FIFOs": "pipes",
    "folder for a file": "folder.sh",
    "unreadable file": "locked.sh",
    "in an unreadable folder": "locked/x.sh",
    "home": "~",
    "in home": "~/x.sh",
    "variable": "$HOME/x.sh",
    "double slash": "//etc/passwd",
    "Windows": "C:\\x\\y.sh",
    "Windows long path": "\\\\?\\C:\\x",
    "NUL": "a\0b.sh",
}


def _shaped_readme(word: str) -> str:
    """A README naming `word` as each kind of path a rule looks at: a link, a code span, a `cd`, a
    script run, a requirements, compose, env or Dockerfile (`-f`), a context, a mount, a Makefile, a
    line of a file, a file setting a variable."""
    return f"""# App

See [the file]({word}), [the dev file]({word}/Dockerfile.dev), `{word}` and `{word}/Dockerfile`.

```bash
cd {word}
docker build -f deploy/Dockerfile ..
```

```bash
bash {word} && ./{word} --flag && python {word} --help && source {word}
pip install -r {word}
docker compose -f {word} --env-file {word} up
docker build -t app -f {word} {word}
docker buildx bake -f {word}
docker run -v {word}:/data -v $(pwd)/{word}:/x --env-file {word} app /app/{word}
make -C {word} -f {word} image
cp {word} .env && cat {word}
cd {word} && docker compose up
```

| File | What |
|---|---|
| `{word}` | [{word}]({word}) |

- **`FOO`** Used in: {word} line 3

By default `TRACKING_URL` is already set in `{word}`.

[ref]: {word}
"""


def _shaped_project(root: Path, word: str, in_dockerfile: bool) -> Path:
    """A project `root/proj` holding each hostile thing a README may name (loops, a link out, FIFOs, a
    folder named like a file, an unreadable file and folder), its README naming `word` everywhere
    (`_shaped_readme`); with `in_dockerfile`, its Dockerfile and compose file name `word` too."""
    proj = root / "proj"
    named = word.replace("\0", "") if in_dockerfile else "scripts/run.sh"
    dockerfile = (
        f"FROM python:3.12-slim\nCOPY {named} /app/\nCOPY scripts/ /app/scripts/\n"
        f'ENTRYPOINT ["/app/scripts/run.sh"]\nCMD ["python", "/app/{named}"]\nRUN . /app/{named}\n'
    )
    named = named.replace("\\", "/")
    make_tree(
        root,
        {
            "proj/.git/HEAD": "ref: refs/heads/main\n",
            "proj/Dockerfile": dockerfile,
            "proj/deploy/Dockerfile": dockerfile,
            "proj/scripts/run.sh": "#!/bin/sh\nexec python -m app\n",
            "proj/docker-compose.yml": (
                f"services:\n  app:\n    build:\n      context: .\n      dockerfile: '{named}'\n"
                f"    env_file: ['{named}']\n    volumes: ['./{named}:/x']\n  other:\n    build: '{named}'\n"
            ),
            "proj/folder.sh/x": "",
            "proj/locked.sh": "echo\n",
            "proj/locked/x.sh": "echo\n",
            "outside/secret.sh": "#!/bin/sh\necho FOO=secret\n",
        },
    )
    (proj / "README.md").write_text(_shaped_readme(word))
    (proj / "loop").symlink_to("loop")
    (proj / "floop.sh").symlink_to("floop.sh")
    (proj / "sub").mkdir()
    (proj / "sub" / "loop").symlink_to("loop")
    (proj / "out").symlink_to(root / "outside")
    os.mkfifo(proj / "fifo.sh")
    (proj / "pipes").mkdir()
    for name in ("Dockerfile", "README.md", "Dockerfile.dev"):
        os.mkfifo(proj / "pipes" / name)
    (proj / "locked.sh").chmod(0)
    (proj / "locked").chmod(0)
    return proj


@pytest.mark.parametrize("in_dockerfile", [False, True], ids=["readme", "dockerfile"])
@pytest.mark.parametrize("word", list(_SHAPES.values()), ids=list(_SHAPES))
def test_a_hostile_path_a_readme_or_dockerfile_names_never_ends_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word: str, in_dockerfile: bool
) -> None:
    """A path the README (and the Dockerfile and compose file) names that is a symlink loop, a link or
    climb out of the project, longer than the file system allows, a FIFO, a folder, unreadable, a home,
    a variable, a Windows path or holds a NUL: the audit ends in findings or none (exit 0 or 1), never
    exit 2 (`Symlink loop from …`, `File name too long`) or a traceback; it opens no FIFO (which would
    hang it) and no file outside the project."""
    proj = _shaped_project(tmp_path, word, in_dockerfile)
    monkeypatch.chdir(proj)
    try:
        with _recording():
            result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    finally:
        (proj / "locked").chmod(0o755)  # for pytest to remove it
    assert result.code in (0, 1), result.err
    outside = str((tmp_path / "outside").resolve())
    assert not [p for p in _OPENED if p.startswith(outside) or p == "/etc/passwd"], _OPENED


def test_the_sentences_of_a_line_of_many_paths_in_code_are_cut_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`named_nowhere` reads the words of the sentence naming each path in code (whether it is made,
    another project's, history), cut from the line once: it read the whole line once a path, n² (3,000
    sentences of a path each, 100 kB: 75 s of the audit's time; now 3.5 s in all)."""
    setup_files = importlib.import_module("docgen.audit.setup_files")  # (the package's name is a rule's)
    scanned = []

    class Ends:
        def finditer(self, text: str) -> Iterator[re.Match[str]]:
            scanned.append(len(text))
            return setup_files._SENTENCE_END_PATTERN.finditer(text)  # type: ignore[no-any-return]

    monkeypatch.setattr(setup_files, "_SENTENCE_END_PATTERN", setup_files._SENTENCE_END, raising=False)
    monkeypatch.setattr(setup_files, "_SENTENCE_END", Ends())
    line = "".join(f"See `tools/gen{i}.py` for it. " for i in range(1000))
    make_tree(tmp_path, {"README.md": f"# App\n\n{line}\n", "Dockerfile": "FROM python:3.12\n"})
    (tmp_path / ".git").mkdir()
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit.audit(f"# App\n\n{line}\n", "README.md", model, {}, tmp_path, tmp_path)
    assert sum(scanned) <= 2 * len(line) + 100
    assert "tools/gen0.py" in found[0].message


def test_names_after_a_provides_claim_read_back_only_to_the_word_before_them(
    model: ImageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`The image includes PyTorch with **A**, **B**, …`: whether each name says how the one before it
    is built (`with **CUDA** support`) was asked of the whole sentence before it, n² for n names (8,000
    names: 22 s, 32,000 past minutes); now of the words just before it."""
    from docgen.audit import provides

    counted = _Counted(provides._FLAVOUR_BEFORE)
    patch(monkeypatch, "_FLAVOUR_BEFORE", counted)
    names = ", ".join(f"**Zed{i}**" for i in range(2_000))
    readme = f"# App\n\nThe image includes PyTorch with {names}.\n"
    told = messages(readme, model)
    assert "README says the image provides Zed0 but Dockerfile installs no Zed0" in told
    assert sum("installs no Zed" in m for m in told) == 2_000
    assert counted.searches >= 1_999
    assert counted.scanned < 20 * counted.searches  # the words before each name, not the sentence
