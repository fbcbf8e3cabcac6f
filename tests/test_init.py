"""`docgen init`: blocks added under matching headings or at the end, the config entry, the whole flow."""

from __future__ import annotations

import difflib
import io
import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers import make_tree, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen import markers
from docgen.config import Config, load_config, parse_config
from docgen.errors import ConfigError, MarkerError, UsageError
from docgen.init import (
    FAMILY_SECTIONS,
    HEADINGS,
    NEW_HEADINGS,
    Added,
    add_blocks,
    add_to_pyproject,
    config_snippet,
    init,
)
from docgen.markers import DEFAULT_SECTIONS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def block(name: str, newline: str = "\n") -> str:
    return f"<!-- BEGIN docgen:{name} -->{newline}<!-- END docgen:{name} -->{newline}"


def only_insertions(old: str, new: str) -> bool:
    """True when `new` is `old` with text inserted and nothing removed or changed (a supersequence)."""
    rest = iter(new)
    return all(char in rest for char in old)


ALL_UNDER_HEADINGS = """\
# My image

Intro.

## Supported hardware

| GPU | Arch |
|---|---|
| MI300X | gfx942 |

## Key versions
| ROCm | 7.0 |

## What's in the image?
Everything.

## Build arguments
"""


def test_blocks_go_under_their_headings_after_one_blank_line() -> None:
    new, added = add_blocks(ALL_UNDER_HEADINGS, "README.md")
    assert new == (
        "# My image\n\nIntro.\n\n## Supported hardware\n\n"
        + block("hardware")
        + "\n| GPU | Arch |\n|---|---|\n| MI300X | gfx942 |\n\n## Key versions\n\n"
        + block("versions")
        + "\n| ROCm | 7.0 |\n\n## What's in the image?\n\n"
        + block("contents")
        + "\nEverything.\n\n## Build arguments\n\n"
        + block("build-args")
    )
    assert added == [
        Added("hardware", 7, "Supported hardware"),
        Added("versions", 16, "Key versions"),
        Added("contents", 23, "What's in the image?"),
        Added("build-args", 30, "Build arguments"),
    ]
    for item in added:
        assert new.splitlines()[item.line - 1] == f"<!-- BEGIN docgen:{item.section} -->"


@pytest.mark.parametrize(
    ("heading", "section", "text"),
    [
        ("# Hardware", "hardware", "Hardware"),
        ("###### GPU support", "hardware", "GPU support"),
        ("## Key versions ##", "versions", "Key versions"),
        ("## Key versions #####   ", "versions", "Key versions"),
        ("   ## SOFTWARE VERSIONS", "versions", "SOFTWARE VERSIONS"),
        ("## 2. Component versions:", "versions", "2. Component versions:"),
        ("## 3.1 Image contents", "contents", "3.1 Image contents"),
        ("## Whats in the image", "contents", "Whats in the image"),
        ("## **Components**", "contents", "**Components**"),
        ("## Build-args", "build-args", "Build-args"),
        ("## Build-time arguments", "build-args", "Build-time arguments"),
        ("## `Build args`", "build-args", "`Build args`"),
    ],
)
def test_atx_headings_match_ignoring_case_punctuation_and_numbering(
    heading: str, section: str, text: str
) -> None:
    new, added = add_blocks(f"{heading}\n\nprose\n", "R.md", [section])
    assert new == f"{heading}\n\n{block(section)}\nprose\n"
    assert added == [Added(section, 3, text)]


@pytest.mark.parametrize(
    ("underline", "level_ok"),
    [("=====", True), ("---", True), ("-", True), ("  ==  ", True)],
)
def test_setext_headings(underline: str, level_ok: bool) -> None:
    text = f"Intro.\n\nKey versions\n{underline}\n| ROCm | 7.0 |\n"
    new, added = add_blocks(text, "R.md", ["versions"])
    assert new == f"Intro.\n\nKey versions\n{underline}\n\n{block('versions')}\n| ROCm | 7.0 |\n"
    assert added == [Added("versions", 6, "Key versions")]


def test_setext_heading_text_spans_its_paragraph_and_thematic_breaks_are_not_headings() -> None:
    text = "Supported\nhardware\n---\n\nVersions\n\n---\n\n- Contents\n---\n"
    new, added = add_blocks(text, "R.md", ["hardware", "versions", "contents"])
    # "Versions" is a paragraph followed by a blank line, the `---` after it a thematic break, and a
    # list item followed by `---` is no heading either: both sections are appended
    assert [(a.section, a.heading) for a in added] == [
        ("hardware", "Supported hardware"),
        ("versions", None),
        ("contents", None),
    ]
    assert new.startswith("Supported\nhardware\n---\n\n" + block("hardware") + "\nVersions\n\n---\n")


@pytest.mark.parametrize("fence", ["```", "~~~~", "```markdown"])
def test_headings_inside_fenced_code_are_ignored(fence: str) -> None:
    close = fence[:3] if fence.startswith("`") else fence
    text = f"# Title\n\n{fence}\n## Key versions\n{close}\n\n## Versions\n\ntext\n"
    new, added = add_blocks(text, "R.md", ["versions"])
    assert added == [Added("versions", 9, "Versions")]
    assert (
        new == f"# Title\n\n{fence}\n## Key versions\n{close}\n\n## Versions\n\n{block('versions')}\ntext\n"
    )


@pytest.mark.parametrize(("fence", "final"), [("```", "\n"), ("~~~~", ""), ("````", "\n\n")])
def test_an_unclosed_fence_hides_the_headings_after_it_and_is_closed_before_appended_blocks(
    fence: str, final: str
) -> None:
    text = f"# Title\n\n{fence}\n## Versions{final}"
    new, added = add_blocks(text, "R.md", ["versions"])
    closed = text if final else text + "\n"
    assert new == closed + f"{fence}\n\n## Key versions\n\n" + block("versions").rstrip(
        "\n" if not final else ""
    )
    assert [b.name for b in markers.find_blocks(new)] == ["versions"]
    assert added == [Added("versions", new.count("\n", 0, new.index("<!-- BEGIN")) + 1, None)]


def test_the_best_heading_wins_then_the_first() -> None:
    text = "## Versions\n\n## Components\n\n## Key versions\n\n## Versions\n"
    new, added = add_blocks(text, "R.md", ["versions", "contents"])
    assert [(a.section, a.line, a.heading) for a in added] == [
        ("contents", 5, "Components"),
        ("versions", 10, "Key versions"),
    ]
    assert new.count("docgen:versions") == 2 and new.count("docgen:contents") == 2


def test_not_every_heading_containing_a_word_matches() -> None:
    text = "# T\n\n## Configuration\n\n## Hardware requirements for the host\n\n## Environment variables\n"
    new, added = add_blocks(text, "R.md")
    assert all(a.heading is None for a in added)
    assert new.startswith(text + "\n## Supported hardware\n")


def test_existing_blocks_are_kept_and_not_added_again() -> None:
    text = (
        "# T\n\n## Key versions\n<!-- BEGIN docgen:versions -->\n| old |\n<!-- END docgen:versions -->\n\n"
        "## Hardware\n"
    )
    new, added = add_blocks(text, "R.md")
    assert [(a.section, a.heading) for a in added] == [
        ("hardware", "Hardware"),
        ("contents", None),
        ("build-args", None),
    ]
    assert new.startswith(text + "\n" + block("hardware") + "\n## What the image contains\n")
    assert markers.block_bodies(new)["versions"] == "| old |\n"


def test_a_heading_inside_an_existing_block_is_not_used() -> None:
    text = "# T\n\n<!-- BEGIN docgen:contents -->\n## Versions\n<!-- END docgen:contents -->\n"
    new, added = add_blocks(text, "R.md", ["versions"])
    assert added == [Added("versions", 9, None)]
    markers.find_blocks(new, "R.md")  # still well-formed: nothing nested


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("<!-- BEGIN docgen:versions -->\n## Hardware\n", "R.md:1: BEGIN docgen:versions has no"),
        ("## Hardware\n<!-- END docgen:hardware -->\n", "R.md:2: END docgen:hardware without a BEGIN"),
        (
            "<!-- BEGIN docgen:version -->\n<!-- END docgen:version -->\n",
            "R.md:1: unknown block docgen:version",
        ),
    ],
)
def test_broken_markers_raise_marker_error(text: str, error: str) -> None:
    with pytest.raises(MarkerError) as info:
        add_blocks(text, "R.md")
    assert str(info.value).startswith(error)


def test_sections_without_a_heading_are_appended_in_sections_order() -> None:
    text = "# My image\n\nIntro.\n\n## Building\n\nRun make.\n"
    new, added = add_blocks(text, "README.md")
    assert new == text + "".join(
        f"\n## {NEW_HEADINGS[name]}\n\n{block(name)}"
        for name in ("hardware", "versions", "contents", "build-args")
    )
    assert [(a.section, a.line, a.heading) for a in added] == [
        ("hardware", 11, None),
        ("versions", 16, None),
        ("contents", 21, None),
        ("build-args", 26, None),
    ]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("", "##"),
        ("Just prose.\n", "##"),
        ("# Title\n\n## A\n", "##"),
        ("## A\n\n## B\n", "##"),  # no title: beside the top headings
        ("Title\n=====\n\nIntro\n", "##"),
        ("## Only section\n", "##"),  # a lone `##` is a section, not a title: beside it
        ("###### Deep\n", "######"),
        ("# A\n\n# B\n", "#"),
    ],
)
def test_appended_heading_level(text: str, level: str) -> None:
    new, _ = add_blocks(text, "R.md", ["build-args"])
    assert f"\n{level} Build arguments\n" in "\n" + new


def test_appended_after_an_existing_blank_line_without_a_second_one() -> None:
    new, _ = add_blocks("# T\n\n", "R.md", ["versions"])
    assert new == "# T\n\n## Key versions\n\n" + block("versions")


def test_empty_text() -> None:
    new, added = add_blocks("", "R.md", ["hardware", "versions"])
    assert new == "## Supported hardware\n\n" + block("hardware") + "\n## Key versions\n\n" + block(
        "versions"
    )
    assert [a.line for a in added] == [3, 8]


def test_crlf_is_kept_in_inserted_and_appended_text() -> None:
    text = "# T\r\n\r\n## Versions\r\n| a |\r\n"
    new, added = add_blocks(text, "R.md", ["versions", "contents"])
    assert new == (
        "# T\r\n\r\n## Versions\r\n\r\n"
        + block("versions", "\r\n")
        + "\r\n| a |\r\n\r\n## What the image contains\r\n\r\n"
        + block("contents", "\r\n")
    )
    assert "\n" not in new.replace("\r\n", "")
    assert [a.line for a in added] == [5, 12]


def test_a_missing_final_newline_stays_missing() -> None:
    new, added = add_blocks("# T\n\n## Versions\n\ntext", "R.md", ["versions", "contents"])
    assert new == (
        "# T\n\n## Versions\n\n"
        + block("versions")
        + "\ntext\n\n## What the image contains\n\n<!-- BEGIN docgen:contents -->\n"
        + "<!-- END docgen:contents -->"
    )
    assert [a.line for a in added] == [5, 12]
    assert add_blocks(new, "R.md", ["versions", "contents"]) == (new, [])


def test_a_heading_ending_the_file_without_newline() -> None:
    new, added = add_blocks("# T\n\n## Key versions", "R.md", ["versions"])
    assert new == "# T\n\n## Key versions\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->"
    assert added == [Added("versions", 5, "Key versions")]
    new, _ = add_blocks("Key versions\r\n---", "R.md", ["versions"])
    assert new == "Key versions\r\n---\r\n\r\n<!-- BEGIN docgen:versions -->\r\n<!-- END docgen:versions -->"


def test_a_byte_order_mark_is_kept_and_does_not_hide_the_first_heading() -> None:
    text = "\ufeff## Hardware\n\nprose\n"
    new, added = add_blocks(text, "R.md", ["hardware", "versions"])
    assert new.startswith("\ufeff## Hardware\n\n" + block("hardware") + "\nprose\n")
    assert added[0] == Added("hardware", 3, "Hardware")
    new, added = add_blocks("\ufeff", "R.md", ["versions"])
    assert new == "\ufeff## Key versions\n\n" + block("versions")
    assert added == [Added("versions", 3, None)]


@pytest.mark.parametrize(
    "text",
    [
        ALL_UNDER_HEADINGS,
        "",
        "\ufeff# T\r\n\r\n## Versions\r\nno newline",
        "Hardware\n===\n## Components",
        (ROOT / "README.md").read_text(encoding="utf-8"),
        (ROOT / "docs/getting-started.md").read_text(encoding="utf-8"),
    ],
)
def test_init_twice_adds_nothing_the_second_time(text: str) -> None:
    once, added = add_blocks(text, "R.md")
    assert only_insertions(text, once)
    assert {b.name for b in markers.find_blocks(once)} == set(DEFAULT_SECTIONS)
    assert add_blocks(once, "R.md") == (once, [])


def test_the_projects_own_readme_is_left_alone() -> None:
    readme = (ROOT / "docker/rocm/README.md").read_text(encoding="utf-8")
    assert add_blocks(readme, "docker/rocm/README.md") == (readme, [])


def test_unknown_section_names_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="env"):
        add_blocks("", "R.md", ["env"])


def test_every_heading_name_is_documented() -> None:
    docs = (ROOT / "docs/getting-started.md").read_text(encoding="utf-8")
    assert set(HEADINGS) == {*DEFAULT_SECTIONS, *FAMILY_SECTIONS} == set(NEW_HEADINGS)
    for names in HEADINGS.values():
        for name in names:
            assert f'"{name}"' in docs, f"{name!r} missing from docs/getting-started.md"


_pieces = st.sampled_from(
    [
        "# Title",
        "## Key versions",
        "## Hardware ##",
        "Components",
        "---",
        "===",
        "",
        "   ",
        "prose",
        "- item",
        "```",
        "~~~",
        "> ## Versions",
        "<!-- BEGIN docgen:versions -->",
        "<!-- END docgen:versions -->",
        "| a | b |",
        "<details>",
        "</details>",
        "<h2>Versions</h2>",
        "  ## Build args",
        "## License",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(_pieces, max_size=14),
    newline=st.sampled_from(["\n", "\r\n"]),
    final=st.booleans(),
    bom=st.booleans(),
)
def test_properties_only_inserts_is_idempotent_and_yields_every_block(
    lines: list[str], newline: str, final: bool, bom: bool
) -> None:
    text = ("\ufeff" if bom else "") + newline.join(lines) + (newline if final and lines else "")
    try:
        markers.find_blocks(text)
    except MarkerError:
        with pytest.raises(MarkerError):
            add_blocks(text, "R.md")
        return
    new, added = add_blocks(text, "R.md")
    assert only_insertions(text, new)
    assert new.startswith("\ufeff") == bom
    blocks = markers.find_blocks(new)
    assert {b.name for b in blocks} == set(DEFAULT_SECTIONS)
    assert {a.section: a.line for a in added} == {
        b.name: b.begin_line for b in blocks if b.name in {a.section for a in added}
    }
    if text.strip("\ufeff"):
        assert new.endswith(("\n", "\r")) == text.endswith(("\n", "\r"))
    if "\r\n" in text or newline == "\r\n" and lines:
        assert markers.newline_of(new) == markers.newline_of(text)
    assert add_blocks(new, "R.md") == (new, [])


# --------------------------------------------------------------------------------------------------
# pyproject.toml


def images_of(text: str, root: Path) -> list[tuple[str, list[str]]]:
    config = parse_config(tomllib.loads(text)["tool"]["docgen"], root, "pyproject.toml", text)
    return [(i.display, [o.relative_to(root.resolve()).as_posix() for o in i.outputs]) for i in config.images]


def test_config_snippet() -> None:
    assert config_snippet("docker/Dockerfile", "README.md") == (
        '[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\noutputs = ["README.md"]\n'
    )


def test_config_snippet_escapes_toml_strings(tmp_path: Path) -> None:
    odd = 'we"ird\\dir\t\x7f/Dockerfile'
    snippet = config_snippet(odd, "ü.md")
    assert tomllib.loads(snippet)["tool"]["docgen"]["images"] == [{"dockerfile": odd, "outputs": ["ü.md"]}]


def test_pyproject_created_when_there_is_none(tmp_path: Path) -> None:
    new = add_to_pyproject(None, "docker/Dockerfile", "README.md")
    assert new == config_snippet("docker/Dockerfile", "README.md")
    assert images_of(new, tmp_path) == [("docker/Dockerfile", ["README.md"])]
    (tmp_path / "pyproject.toml").write_text(new)
    config = load_config(cwd=tmp_path)
    assert [i.dockerfile for i in config.images] == [(tmp_path / "docker/Dockerfile").resolve()]


@pytest.mark.parametrize(
    "existing",
    [
        "",
        "\n\n",
        '[project]\nname = "x"\n',
        '[project]\nname = "x"',  # no final newline
        '[project]\nname = "x"\n\n\n',
        '[tool.docgen]\narch-arg = "GFX"\ntemplates = "t"\n\n[tool.docgen.names]\ntorch = "PyTorch"\n',
        '[tool.docgen]\narch-arg = "GFX"\n\n[tool.ruff]\nline-length = 110\n',
        "[tool.docgen]\n\n[[tool.docgen.images]]\n"
        'dockerfile = "other/Dockerfile"\noutputs = ["other/README.md"]\n\n[tool.mypy]\nstrict = true\n',
    ],
)
def test_pyproject_entry_appended_keeping_everything_else(existing: str, tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()  # the template folder one of them names
    new = add_to_pyproject(existing, "docker/Dockerfile", "README.md")
    snippet = config_snippet("docker/Dockerfile", "README.md")
    assert new is not None and new.startswith(existing) and new.endswith(snippet)
    # one blank line before the entry, unless the file is empty or already ends with one
    assert new[len(existing) : -len(snippet)] == {"": "", "\n\n": "", '[project]\nname = "x"': "\n\n"}.get(
        existing, "" if existing.endswith("\n\n") else "\n"
    )
    before = images_of(existing, tmp_path) if "tool.docgen" in existing else []
    assert images_of(new, tmp_path) == [*before, ("docker/Dockerfile", ["README.md"])]
    (tmp_path / "pyproject.toml").write_text(new)
    assert load_config(cwd=tmp_path).images[-1].outputs == ((tmp_path / "README.md").resolve(),)
    assert add_to_pyproject(new, "docker/Dockerfile", "README.md") is None


def test_pyproject_crlf_kept_and_bom_refused() -> None:
    existing = '[project]\r\nname = "x"'
    new = add_to_pyproject(existing, "Dockerfile", "README.md")
    assert (
        new
        == existing
        + '\r\n\r\n[[tool.docgen.images]]\r\ndockerfile = "Dockerfile"\r\noutputs = ["README.md"]\r\n'
    )
    # TOML forbids a byte-order mark (and sync would then fail): say so before writing anything
    with pytest.raises(ConfigError, match=r"pyproject.toml:1: starts with a byte-order mark"):
        add_to_pyproject("\ufeff" + existing, "Dockerfile", "README.md")


def test_pyproject_already_listing_the_output_is_unchanged() -> None:
    existing = '[[tool.docgen.images]]\ndockerfile = "./docker/Dockerfile"\noutputs = ["x.md", "README.md"]\n'
    assert add_to_pyproject(existing, "docker/Dockerfile", "README.md") is None
    assert add_to_pyproject(existing, "docker/Dockerfile", "docs/README.md") is not None
    assert add_to_pyproject(existing, "Dockerfile", "README.md") is not None


def test_a_second_output_of_a_configured_image_keeps_its_settings(tmp_path: Path) -> None:
    existing = (
        '[tool.docgen]\narch-arg = "X"\n\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\n'
        'outputs = ["README.md"]\narch-arg = "GFX"\nversions = ["ROCm", "torch"]\n'
        'names = { torch = "PyTorch", "odd key" = "Odd" }\n'
    )
    new = add_to_pyproject(existing, "Dockerfile", "docs/image.md")
    assert new is not None
    (tmp_path / "pyproject.toml").write_text(new)
    first, second = load_config(cwd=tmp_path).images
    assert second.outputs == ((tmp_path / "docs/image.md").resolve(),)
    assert (second.arch_arg, second.versions, dict(second.names)) == (
        first.arch_arg,
        first.versions,
        dict(first.names),
    )


@pytest.mark.parametrize(
    ("existing", "message"),
    [
        ("[project\n", "pyproject.toml:1: invalid TOML"),
        ('tool = { docgen = { arch-arg = "X" } }\n', "pyproject.toml: cannot append"),
        (
            '[tool.docgen]\nimages = [{ dockerfile = "D", outputs = ["R.md"] }]\n',
            "pyproject.toml: cannot append",
        ),
    ],
)
def test_pyproject_that_cannot_take_the_entry(existing: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        add_to_pyproject(existing, "Dockerfile", "README.md")
    assert str(info.value).startswith(message)
    if "cannot append" in message:
        # the advice works: the item, added to the inline array, gives valid TOML with the new image
        item = str(info.value).splitlines()[-1]
        assert item == '{ "dockerfile" = "Dockerfile", "outputs" = ["README.md"] }'
        if "images = [" in existing:
            fixed = existing.replace("}]", "}, " + item + "]")
        else:
            fixed = existing.replace('"X" }', '"X", images = [' + item + "] }")
        images = tomllib.loads(fixed)["tool"]["docgen"]["images"]
        assert images[-1] == {"dockerfile": "Dockerfile", "outputs": ["README.md"]}


# --------------------------------------------------------------------------------------------------
# init: the command


DOCKERFILE = """\
# GPU_ARCH GPU targets to build for.
ARG GPU_ARCH="gfx942;gfx950"
FROM ubuntu:22.04 AS base
# ROCM_VERSION ROCm release.
ARG ROCM_VERSION=7.0.2
FROM base AS build
ARG GPU_ARCH
# MAX_JOBS Parallel jobs.
ARG MAX_JOBS=
RUN make -j${MAX_JOBS:-$(nproc)} ARCH=${GPU_ARCH}
"""

HAND_WRITTEN = """\
# My image

Hand-written intro.

## Key versions

| Component | Version |
|---|---|
| ROCm | 7.0.1 |

Build arguments
---------------
* `MAX_JOBS`: parallel jobs

## License

MIT
"""


def without_blocks(text: str) -> str:
    """`text` without its blocks, markers included (sync may add attributes to begin markers)."""
    lines = text.splitlines(keepends=True)
    for b in reversed(markers.find_blocks(text)):
        del lines[b.begin_line - 1 : b.end_line]
    return "".join(lines)


def run_init(readme: str, dockerfile: str | None = None, root: Path | None = None) -> str:
    out = io.StringIO()
    config = load_config(cwd=root or Path.cwd())
    code = init(Path(readme), Path(dockerfile) if dockerfile else None, config, out)
    assert code == 0
    return out.getvalue()


def test_init_then_sync_fills_the_blocks_and_keeps_the_rest(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": HAND_WRITTEN, "docker/Dockerfile": DOCKERFILE})
    output = run_init("README.md", "docker/Dockerfile")
    assert output == (
        'README.md:7: added block docgen:versions under "Key versions"\n'
        'README.md:17: added block docgen:build-args under "Build arguments"\n'
        'README.md:24: added block docgen:hardware under a new heading "Supported hardware" '
        'before "License"\n'
        'README.md:29: added block docgen:contents under a new heading "What the image contains" '
        'before "License"\n'
        "note: hand-written tables under these headings are left as they are; compare them with the "
        "generated blocks (docgen audit README.md) and delete them\n"
        "docgen.toml: added [[images]] for docker/Dockerfile -> README.md\n"
        "next: run docgen sync\n"
    )
    after_init = (chdir_tmp / "README.md").read_text()
    assert after_init == add_blocks(HAND_WRITTEN, "README.md")[0]
    assert (chdir_tmp / "docgen.toml").read_text() == config_snippet(
        "docker/Dockerfile", "README.md"
    ).replace("[[tool.docgen.images]]", "[[images]]")

    result = run("sync")
    assert (result.code, result.out, result.err) == (0, "README.md: updated\n", "")
    synced = (chdir_tmp / "README.md").read_text()
    bodies = markers.block_bodies(synced)
    assert set(bodies) == set(DEFAULT_SECTIONS) and all(bodies.values())
    assert "| `gfx942` | AMD | CDNA3 |" in bodies["hardware"]
    assert "`7.0.2`" in bodies["versions"]
    assert "| `MAX_JOBS` | `$(nproc)` | Parallel jobs. |" in bodies["build-args"]
    # sync touched nothing outside the blocks
    assert without_blocks(synced) == without_blocks(after_init)
    assert run("check").code == 0

    # init again: nothing to add, nothing written
    mtimes = [(chdir_tmp / f).stat().st_mtime_ns for f in ("README.md", "docgen.toml")]
    assert run_init("README.md") == (
        "README.md: has every docgen block already\n"
        "docgen.toml: already configures docker/Dockerfile -> README.md\n"
        "next: run docgen sync\n"
    )
    assert [(chdir_tmp / f).stat().st_mtime_ns for f in ("README.md", "docgen.toml")] == mtimes


def test_init_appends_to_an_existing_pyproject(chdir_tmp: Path) -> None:
    pyproject = '[project]\nname = "x"\n\n[tool.docgen]\narch-arg = "GPU_ARCH"\n'
    make_tree(
        chdir_tmp,
        {"pyproject.toml": pyproject, "images/a/README.md": "# A\n", "images/a/Dockerfile": DOCKERFILE},
    )
    output = run_init("images/a/README.md")  # the only Dockerfile beside the README
    assert (
        "pyproject.toml: added [[tool.docgen.images]] for images/a/Dockerfile -> images/a/README.md\n"
        in output
    )
    text = (chdir_tmp / "pyproject.toml").read_text()
    assert text == pyproject + "\n" + config_snippet("images/a/Dockerfile", "images/a/README.md")
    assert run("sync").code == 0


def test_init_finds_the_dockerfile_of_the_configured_image(chdir_tmp: Path) -> None:
    pyproject = '[[tool.docgen.images]]\ndockerfile = "b/Dockerfile.b"\noutputs = ["docs/b.md"]\n'
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": pyproject,
            "docs/b.md": "# B\n\n## Versions\n",
            "b/Dockerfile.b": DOCKERFILE,
            "Dockerfile": DOCKERFILE,
        },
    )
    output = run_init("docs/b.md")
    assert "pyproject.toml: already configures b/Dockerfile.b -> docs/b.md\n" in output
    assert (chdir_tmp / "pyproject.toml").read_text() == pyproject


def test_init_refuses_a_second_dockerfile_for_a_configured_readme(chdir_tmp: Path) -> None:
    pyproject = '[[tool.docgen.images]]\ndockerfile = "a/Dockerfile"\noutputs = ["README.md"]\n'
    make_tree(
        chdir_tmp,
        {"pyproject.toml": pyproject, "README.md": "# R\n", "a/Dockerfile": "", "b/Dockerfile": ""},
    )
    with pytest.raises(UsageError) as info:
        run_init("README.md", "b/Dockerfile")
    assert str(info.value) == (
        "README.md: already generated from a/Dockerfile (pyproject.toml); "
        "drop --dockerfile, or remove it from that image's outputs first"
    )
    assert (chdir_tmp / "README.md").read_text() == "# R\n"
    assert "docgen:hardware" in run_init("README.md", "a/Dockerfile")


def test_init_from_a_subfolder_uses_paths_relative_to_the_project(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": "[tool.docgen]\n",
            "docker/x/Dockerfile.x": DOCKERFILE,
            "docker/x/README.md": "# X\n",
        },
    )
    os.chdir(chdir_tmp / "docker/x")  # chdir_tmp changes back afterwards
    output = run_init("README.md", "Dockerfile.x")
    assert output.startswith('README.md:5: added block docgen:hardware under a new heading "Supported')
    # the project file is outside the current folder: shown by its full path
    pyproject = (chdir_tmp / "pyproject.toml").resolve()
    assert (
        f"{pyproject}: added [[tool.docgen.images]] for docker/x/Dockerfile.x -> docker/x/README.md\n"
        in output
    )
    assert load_config(cwd=Path.cwd()).images[0].outputs == ((chdir_tmp / "docker/x/README.md").resolve(),)


@pytest.mark.parametrize(
    ("files", "readme", "dockerfile", "message"),
    [
        ({"Dockerfile": DOCKERFILE}, "MISSING.md", None, "MISSING.md: README not found"),
        ({"Dockerfile": DOCKERFILE, "docs/x.md": ""}, "docs", None, "docs: README is a folder, not a file"),
        ({"README.md": b"\xff\xfe"}, "README.md", "Dockerfile", "README.md:1: not UTF-8 text"),
        ({"README.md": "# R\n"}, "README.md", "nope/Dockerfile", "nope/Dockerfile: Dockerfile not found"),
        (
            {"README.md": "# R\n"},
            "README.md",
            None,
            "README.md: no Dockerfile found beside it, at the project root or under docker/",
        ),
        (
            {"README.md": "# R\n", "Dockerfile": "", "docker/a/Dockerfile": "", "docker/b/Dockerfile.b": ""},
            "README.md",
            None,
            "README.md: which Dockerfile does it describe? "
            "Dockerfile, docker/a/Dockerfile, docker/b/Dockerfile.b; pass --dockerfile DOCKERFILE",
        ),
        ({"README.md": "# R\n", "Dockerfile": ""}, "../outside.md", None, "outside the project folder"),
        ({"README.md": "# R\n"}, "README.md", "../Dockerfile", "outside the project folder"),
        (
            {"README.md": "<!-- END docgen:hardware -->\n", "Dockerfile": ""},
            "README.md",
            None,
            "README.md:1: END docgen:hardware without a BEGIN",
        ),
        (
            {"README.md": "# R\n", "Dockerfile": "", "pyproject.toml": "[project\n"},
            "README.md",
            None,
            "pyproject.toml:1: invalid TOML",
        ),
    ],
)
def test_init_errors_name_the_file_and_write_nothing(
    chdir_tmp: Path, files: dict[str, str | bytes], readme: str, dockerfile: str | None, message: str
) -> None:
    project = chdir_tmp / "project"
    project.mkdir()
    make_tree(project, files)
    (chdir_tmp / "outside.md").write_text("# O\n")
    (chdir_tmp / "Dockerfile").write_text(DOCKERFILE)
    os.chdir(project)  # chdir_tmp changes back afterwards
    before = {p: p.read_bytes() for p in chdir_tmp.rglob("*") if p.is_file()}
    config = Config(root=project, source="(none)")
    writes: list[Path] = []
    with pytest.raises((UsageError, MarkerError, ConfigError)) as info:
        init(
            Path(readme),
            Path(dockerfile) if dockerfile else None,
            config,
            io.StringIO(),
            write=lambda changes: writes.extend(path for path, _, _ in changes),
        )
    assert message in str(info.value)
    assert re.match(r"[^:]+(:\d+)?: ", str(info.value)), "message reads path: what is wrong"
    assert writes == []
    assert {p: p.read_bytes() for p in chdir_tmp.rglob("*") if p.is_file()} == before


# --------------------------------------------------------------------------------------------------
# odd files around `docgen init`


def test_a_read_only_pyproject_stops_init_before_the_readme_is_written(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "pyproject.toml": "[project]\n"})
    (chdir_tmp / "pyproject.toml").chmod(0o444)
    result = run("init")
    assert (result.code, result.out) == (2, "")
    assert result.err == "pyproject.toml: file is read-only; docgen will not replace it\n"
    assert (chdir_tmp / "README.md").read_text() == "# R\n"  # not half done


def test_a_pyproject_symlink_into_another_folder_is_not_written_through(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "cfg/p.toml": "[project]\n"})
    (chdir_tmp / "pyproject.toml").symlink_to("cfg/p.toml")
    result = run("init")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"pyproject.toml: a symlink to {chdir_tmp.resolve()}/cfg/p.toml, in another")
    assert (chdir_tmp / "pyproject.toml").is_symlink()
    assert (chdir_tmp / "cfg/p.toml").read_text() == "[project]\n"
    assert (chdir_tmp / "README.md").read_text() == "# R\n"


def test_a_pyproject_symlink_in_the_same_folder_is_written_through(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "p.toml": "[project]\n"})
    (chdir_tmp / "pyproject.toml").symlink_to("p.toml")
    assert run("init").code == 0
    assert (chdir_tmp / "pyproject.toml").is_symlink()
    assert "[[tool.docgen.images]]" in (chdir_tmp / "p.toml").read_text()
    assert run("sync").code == 0 and run("check").code == 0


@pytest.mark.parametrize(
    "content, line",
    [(b"# R\n\nText \x00\n", 3), ("# Title\n\nText\n".encode("utf-16-le"), 1)],
    ids=["nul", "utf-16"],
)
def test_a_binary_or_utf16_readme_is_refused(chdir_tmp: Path, content: bytes, line: int) -> None:
    make_tree(chdir_tmp, {"README.md": content, "Dockerfile": DOCKERFILE})
    result = run("init")
    assert (result.code, result.err) == (2, f"README.md:{line}: binary file (contains a NUL byte)\n")
    assert (chdir_tmp / "README.md").read_bytes() == content
    assert not (chdir_tmp / "pyproject.toml").exists()


def test_a_dockerfile_outside_the_project_is_named_as_such(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"p/README.md": "# R\n", "Dockerfile": DOCKERFILE})
    os.chdir(chdir_tmp / "p")
    result = run("init", "--dockerfile", "../Dockerfile")
    root = (chdir_tmp / "p").resolve()
    assert result.err == (
        f"../Dockerfile: outside the project folder {root}; the Dockerfile must be inside it too\n"
    )


# --------------------------------------------------------------------------------------------------
# realistic READMEs: tests/data/init/<name>/ holds a project as a new user has it before `docgen init`

DATA = Path(__file__).resolve().parent / "data" / "init"

# name → (README, extra `init` arguments, {block: (nearest non-blank line above it, below it)})
REAL_READMES: dict[str, tuple[str, list[str], dict[str, tuple[str, str]]]] = {
    # verl docker/README: in a subfolder, emoji and numbered nested headings, License at the end
    "verl-rocm": (
        "docker/rocm/README.md",
        [],
        {
            "hardware": ("## 🚀 Supported Hardware", "- MI300X / MI325X (gfx942)"),
            "versions": ("### 2. Key versions", "| Component | Version |"),
            "build-args": ("### 3. Build arguments", "* `MAX_JOBS` – number of parallel compile jobs"),
            "contents": ("## What the image contains", "## License"),
        },
    ),
    # after vLLM's ROCm docs: headings with a link and a badge; a poetry pyproject
    "vllm-rocm": (
        "README.md",
        ["--dockerfile", "Dockerfile.rocm"],
        {
            "hardware": (
                "## [Supported GPUs](https://rocm.docs.amd.com/en/latest/compatibility.html)",
                "* MI200 (gfx90a), MI300 (gfx942), Radeon RX 7900 (gfx1100)",
            ),
            "build-args": (
                "## Build arguments ![status](https://img.shields.io/badge/buildkit-required-red)",
                "- `BASE_IMAGE`: the PyTorch-on-ROCm image to start from.",
            ),
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", ""),
        },
    ),
    # SGLang: an HTML title and <h2>, versions and build args collapsed in <details>, Contributing last
    "sglang-rocm": (
        "README.md",
        [],
        {
            "hardware": ("<h2>Supported hardware</h2>", "SGLang's ROCm image runs on MI300X and MI325X."),
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", "## Build arguments"),
            "build-args": ("## Build arguments", "## Contributing"),
        },
    ),
    # PyTorch ROCm images: CRLF, setext headings ("Build Arguments:"), setuptools with [tool.*] tables
    "pytorch-rocm-crlf": (
        "README.md",
        [],
        {
            "versions": ("-----------------", "- ROCm 6.2"),
            "build-args": ("----------------", "| Argument | Default |"),
            "hardware": ("## Supported hardware", "## What the image contains"),
            "contents": ("## What the image contains", ""),
        },
    ),
    # NGC release notes: numbered headings; [tool.docgen] already configures another image
    "ngc-pytorch": (
        "README.md",
        ["--dockerfile", "docker/pytorch/Dockerfile"],
        {
            "contents": ("## 1. What's inside", "Besides PyTorch the image has:"),
            "hardware": (
                "## 3. GPU Requirements",
                "Runs on GPUs of compute capability 6.0 or newer.",
            ),
            "versions": ("## Key versions", "## Build arguments"),
            "build-args": ("## Build arguments", ""),
        },
    ),
    # TGI: prose and code, no heading at all; no pyproject
    "tgi-no-headings": (
        "README.md",
        [],
        {
            "hardware": ("## Supported hardware", "## Key versions"),
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", "## Build arguments"),
            "build-args": ("## Build arguments", ""),
        },
    ),
    # llama.cpp docker docs: only a title; several Dockerfiles in .devops/, none listing GPU targets
    "llamacpp-title-only": (
        "README.md",
        ["--dockerfile", ".devops/cuda.Dockerfile"],
        {
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", "## Build arguments"),
            "build-args": ("## Build arguments", ""),
        },
    ),
    # a plain web service: Configuration/Environment variables are run-time settings; a nested
    # "Build options"; See also last; no final newline; no GPU, so no hardware section
    "plain-service": (
        "README.md",
        [],
        {
            "build-args": ("#### Build options", "1. `PYTHON_VERSION` - Python to use"),
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", "## See also"),
        },
    ),
    # Megatron-LM: setext title, "Key versions" indented into a numbered list, Citation and
    # Acknowledgements last
    "megatron-list-steps": (
        "README.md",
        [],
        {
            "versions": ("## Key versions", "## What the image contains"),
            "contents": ("## What the image contains", "## Build arguments"),
            "build-args": ("## Build arguments", "Citation"),
        },
    ),
}


def _neighbour(lines: list[str], start: int, step: int) -> str:
    """The first non-blank line from `start` going by `step`, without its ending; "" past either end."""
    index = start
    while 0 <= index < len(lines):
        if lines[index].strip():
            return lines[index].rstrip("\r\n")
        index += step
    return ""


def _inserted_by_init(line: str) -> bool:
    """Whether `line` is one `docgen init` may insert: blank, a marker, or a new heading."""
    bare = line.rstrip("\r\n")
    new_headings = {f"{'#' * level} {h}" for level in range(1, 7) for h in NEW_HEADINGS.values()}
    return (
        not bare.strip()
        or bare.startswith(("<!-- BEGIN docgen:", "<!-- END docgen:"))
        or bare in new_headings
    )


@pytest.mark.parametrize("name", sorted(REAL_READMES))
def test_init_on_real_readmes(chdir_tmp: Path, name: str) -> None:
    readme, args, where = REAL_READMES[name]
    shutil.copytree(DATA / name, chdir_tmp, dirs_exist_ok=True)
    original = (chdir_tmp / readme).read_bytes().decode()
    assert ("\r\n" in original) == name.endswith("-crlf")  # the data was not normalised on the way
    pyproject = chdir_tmp / "pyproject.toml"
    original_pyproject = pyproject.read_bytes().decode() if pyproject.exists() else None
    if original_pyproject is None:  # a repository without Python: init writes docgen.toml
        pyproject = chdir_tmp / "docgen.toml"

    result = run("init", readme, *args)
    assert (result.code, result.err) == (0, "")
    assert result.out.endswith("next: run docgen sync\n")
    new = (chdir_tmp / readme).read_bytes().decode()

    # the blocks land where a reader expects them, each with a blank line on both sides
    lines = markers.split_lines(new)
    blocks = markers.find_blocks(new)
    assert {b.name for b in blocks} == set(where)
    for b in blocks:
        begin, end = b.begin_line - 1, b.end_line - 1
        placed = (_neighbour(lines, begin - 1, -1), _neighbour(lines, end + 1, 1))
        assert placed == where[b.name], b.name
        assert not lines[begin - 1].strip() and (end + 1 == len(lines) or not lines[end + 1].strip())
    # only docgen's own lines were inserted: the hand-written text is kept byte for byte
    matcher = difflib.SequenceMatcher(None, markers.split_lines(original), lines, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        assert tag in ("equal", "insert"), (tag, lines[j1:j2])
        assert tag == "equal" or all(_inserted_by_init(line) for line in lines[j1:j2]), lines[j1:j2]
    assert markers.newline_of(new) == markers.newline_of(original)
    assert new.endswith("\n") == original.endswith("\n")

    # the config change is one appended entry, and valid
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    entry = (config if original_pyproject is None else config["tool"]["docgen"])["images"][-1]
    assert entry["outputs"] == [readme]
    if original_pyproject is not None:
        added = pyproject.read_bytes().decode()[len(original_pyproject) :]
        assert pyproject.read_bytes().decode().startswith(original_pyproject)
        assert added.lstrip("\r\n").startswith("[[tool.docgen.images]]")

    sync = run("sync")
    assert sync.code == 0 and f"{readme}: updated" in sync.out
    assert all(markers.block_bodies((chdir_tmp / readme).read_text(encoding="utf-8")).values())
    assert run("check").code == 0
    synced, configured = (chdir_tmp / readme).read_bytes(), pyproject.read_bytes()
    again = run("init", readme, *args)
    assert again.code == 0 and "already" in again.out
    assert ((chdir_tmp / readme).read_bytes(), pyproject.read_bytes()) == (synced, configured)


@pytest.mark.parametrize(
    ("heading", "shown"),
    [
        ("## [Build args](https://example.com/args)", "Build args"),
        ("## Build args ![ci](https://img.shields.io/x.svg)", "Build args"),
        ("## Build args [![ci](https://img.shields.io/x.svg)](https://ci)", "Build args"),
        ('## <a name="args"></a>2. Build args', "2. Build args"),
        ("## 🛠️ Build args", "🛠️ Build args"),
        ('<h2 align="center">Build <em>args</em></h2>', "Build args"),
        ("   <H3>Build args</H3>", "Build args"),
    ],
)
def test_badges_links_tags_and_html_headings(heading: str, shown: str) -> None:
    new, added = add_blocks(f"# T\n\n{heading}\n\nprose\n", "R.md", ["build-args"])
    assert new == f"# T\n\n{heading}\n\n{block('build-args')}\nprose\n"
    assert added == [Added("build-args", 5, shown)]


@pytest.mark.parametrize(
    "text",
    [
        "# T\n\n<details>\n<summary>More</summary>\n\n## Build args\n\n| a |\n\n</details>\n",
        "# T\n\n<DETAILS open><summary>x</summary>\n\nBuild args\n---\n\n</DETAILS>\n",
        "# T\n\n1. Build it:\n\n   ## Build args\n\n   - `A`\n",
        "# T\n\n- step\n  ## Build args\n",
        '# T\n\n<div align="center">\n<h2>Build args</h2>\n</div>\n',
        "# T\n\n<h2>Build args</h2>\nraw *HTML* block\n",
    ],
    ids=["details", "details-setext", "numbered-list", "bullet-list", "div", "html-text"],
)
def test_headings_inside_details_or_list_items_are_not_used(text: str) -> None:
    new, added = add_blocks(text, "R.md", ["build-args"])
    assert added == [Added("build-args", new.count("\n", 0, new.index("<!-- BEGIN")) + 1, None)]
    assert new == text + "\n## Build arguments\n\n" + block("build-args")


def test_headings_after_details_and_lists_are_used_again() -> None:
    text = "# T\n\n<details>\n\n## x\n\n</details>\n\n- a\n  - b\n\n## Build args\n"
    _, added = add_blocks(text, "R.md", ["build-args"])
    assert added == [Added("build-args", 14, "Build args")]
    # `<details>` in a code span is text, not a tag
    _, added = add_blocks("# T\n\nWrap logs in `<details>`.\n\n## Build args\n", "R.md", ["build-args"])
    assert added == [Added("build-args", 7, "Build args")]


@pytest.mark.parametrize(
    ("text", "before"),
    [
        ("# T\n\n## Use\n\nx\n\n## License\n\nMIT\n", "License"),
        ("# T\n\n## Use\n\n## Contributing\n\n## 📝 License\nMIT\n", "Contributing"),
        ("T\n=\n\nUse\n---\n\nCitation\n--------\n\n```bib\n```\n", "Citation"),
        ("# T\n\n## Use\n## See also\n\n### Other\n", "See also"),
    ],
)
def test_new_headings_go_before_closing_sections(text: str, before: str) -> None:
    new, added = add_blocks(text, "R.md", ["versions"])
    assert added[0].before == before
    start = new.index("## Key versions")
    closing = next(
        h for h in ("## License", "## Contributing", "Citation", "## See also") if h.endswith(before)
    )
    assert new[start:].startswith("## Key versions\n\n" + block("versions") + "\n" + closing)
    assert new[:start].endswith("\n\n") and only_insertions(text, new)
    assert add_blocks(new, "R.md", ["versions"]) == (new, [])


@pytest.mark.parametrize(
    "text",
    [
        "# License\n\nMIT\n",  # the title is not back matter
        "# T\n\n## License\n\n## Usage\n",  # License is not at the end
        "# T\n\n## Usage\n\n### License\n",  # below the level of the new headings
    ],
)
def test_appended_at_the_end_when_nothing_closes_the_file(text: str) -> None:
    new, added = add_blocks(text, "R.md", ["versions"])
    assert new.startswith(text) and added[0].before is None


@pytest.mark.parametrize(
    ("existing", "arch_args", "expected"),
    [
        (None, ["PYTORCH_ROCM_ARCH"], "PYTORCH_ROCM_ARCH"),
        (None, ["GPU_ARCH", "PYTORCH_ROCM_ARCH"], None),  # the default is set: nothing to say
        (None, [], None),
        ('[tool.docgen]\narch-arg = "TORCH_CUDA_ARCH_LIST"\n', ["GPU_ARCH", "TORCH_CUDA_ARCH_LIST"], None),
        ('[tool.docgen]\narch-arg = "OTHER"\n', ["TORCH_CUDA_ARCH_LIST"], "TORCH_CUDA_ARCH_LIST"),
    ],
)
def test_new_entry_names_the_arch_arg_the_dockerfile_sets(
    existing: str | None, arch_args: list[str], expected: str | None
) -> None:
    new = add_to_pyproject(existing, "Dockerfile", "README.md", arch_args)
    assert new is not None
    assert tomllib.loads(new)["tool"]["docgen"]["images"][-1].get("arch-arg") == expected


def test_a_cpu_image_gets_no_new_hardware_section_but_keeps_its_hardware_heading(chdir_tmp: Path) -> None:
    cpu = "FROM python:3.12-slim\nARG APP_VERSION=1.0\n"
    make_tree(chdir_tmp, {"README.md": "# App\n", "Dockerfile": cpu, "b/README.md": "# B\n\n## Hardware\n"})
    output = run_init("README.md")
    assert "docgen:hardware" not in (chdir_tmp / "README.md").read_text()
    assert 'note: no "Supported hardware" section: Dockerfile sets no list of GPU targets' in output
    assert run_init("README.md").startswith("README.md: has every docgen block it needs already\n")
    assert 'added block docgen:hardware under "Hardware"' in run_init("b/README.md", "Dockerfile")


def test_an_ascend_image_gets_a_hardware_section_for_the_npu_its_base_image_names(chdir_tmp: Path) -> None:
    npu = "FROM quay.io/ascend/cann:8.5.0-910b-ubuntu22.04-py3.11\nARG VLLM_TAG=v0.9.1\n"
    make_tree(chdir_tmp, {"README.md": "# App\n", "Dockerfile": npu})
    output = run_init("README.md")
    assert "added block docgen:hardware" in output
    assert run("sync").code == 0
    assert "| `910b` | Huawei | Ascend 910B |" in (chdir_tmp / "README.md").read_text()


def test_an_ascend_soc_version_becomes_the_arch_arg(chdir_tmp: Path) -> None:
    npu = "FROM ubuntu:22.04\nARG SOC_VERSION=Ascend910B3\nRUN cmake -DSOC_VERSION=${SOC_VERSION} .\n"
    make_tree(chdir_tmp, {"README.md": "# App\n", "Dockerfile": npu})
    run_init("README.md")
    assert 'arch-arg = "SOC_VERSION"' in (chdir_tmp / "docgen.toml").read_text()
    assert run("sync").code == 0
    readme = (chdir_tmp / "README.md").read_text()
    assert "| `Ascend910B3` | Huawei | Ascend 910B | Atlas A2 series |" in readme


@pytest.mark.parametrize("path", ["Dockerfile.cuda", "rocm.Dockerfile", "docker/x/cuda.Dockerfile"])
def test_dockerfiles_named_either_way_are_found(chdir_tmp: Path, path: str) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", path: DOCKERFILE})
    assert f"for {path} -> README.md" in run_init("README.md")


def test_a_heading_inside_an_html_comment_is_not_used() -> None:
    text = "# Image\n\n<!--\n## Versions\n\nTODO: fill in later\n-->\n\n## Usage\n\nRun it.\n"
    new, added = add_blocks(text, "README.md", ["versions"])
    assert [a.heading for a in added] == [None]  # appended under a new heading, not inside the comment
    assert new.startswith(text)


def test_a_heading_inside_a_block_is_not_the_back_matter() -> None:
    """A block holding `## License` (generated or stale text) does not make `add_blocks` insert new
    blocks inside it; they go at the end of the file."""
    text = "# Title\n<!-- BEGIN docgen:versions -->\n## License\n<!-- END docgen:versions -->\n"
    new, added = add_blocks(text, "R.md")
    assert new.startswith(text)
    assert [a.section for a in added] == ["hardware", "contents", "build-args"]
    assert {b.name for b in markers.find_blocks(new)} == set(DEFAULT_SECTIONS)


# --------------------------------------------------------------------------------------------------
# `docgen init FOLDER`: a family of images

_CUDA = """\
# syntax=docker/dockerfile:1
ARG CUDA_VERSION=12.9.1
FROM nvidia/cuda:${CUDA_VERSION}-cudnn-devel-ubuntu22.04 AS base
ARG TORCH_CUDA_ARCH_LIST="8.0 8.9 9.0"
ARG PYTHON_VERSION=3.12
RUN apt-get update && apt-get install -y --no-install-recommends python${PYTHON_VERSION} git
RUN pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129
ARG FLASH_ATTN_COMMIT=5f1ae4a7c3e8d4b2b8f4e7d3a0e6c1b9d2f3a4b5
RUN git clone https://github.com/Dao-AILab/flash-attention.git /opt/fa \\
 && cd /opt/fa && git checkout ${FLASH_ATTN_COMMIT} && MAX_JOBS=8 pip install --no-build-isolation .
"""

_ROCM = """\
FROM rocm/dev-ubuntu-22.04:7.0.2-complete
ARG PYTORCH_ROCM_ARCH="gfx942;gfx950"
RUN pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/rocm7.0
"""

_ROCM_README = """\
# ROCm image

Built on the ROCm dev image.

## Key versions

| Component | Version |
|---|---|
| PyTorch | 2.9.0 |

## Usage

docker run --device /dev/kfd rocm-image
"""


def _family(root: Path, extra: Mapping[str, str] | None = None) -> None:
    make_tree(
        root,
        {
            "pyproject.toml": '[project]\nname = "x"\nversion = "0"\n',
            "docker/Dockerfile.cu129": _CUDA,
            "docker/Dockerfile.cu130": _CUDA.replace("12.9.1", "13.0.1").replace("cu129", "cu130"),
            "docker/rocm/Dockerfile": _ROCM,
            "docker/rocm/README.md": _ROCM_README,
            **(extra or {}),
        },
    )


def test_init_on_a_folder_sets_up_the_family(chdir_tmp: Path) -> None:
    _family(chdir_tmp)
    result = run("init", "docker")
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        "docker/README.md: created with blocks docgen:images and docgen:matrix",
        'docker/rocm/README.md:7: added block docgen:versions under "Key versions"',
        'pyproject.toml: added [[tool.docgen.images]] dockerfile = "docker/Dockerfile.*" (cu129, cu130)',
        'pyproject.toml: added [[tool.docgen.images]] dockerfile = "docker/rocm/Dockerfile" (rocm)',
        "note: hand-written tables under these headings are left as they are; compare them with the "
        "generated blocks (docgen audit) and delete them",
        "next: run docgen sync",
    ]
    images = tomllib.loads((chdir_tmp / "pyproject.toml").read_text())["tool"]["docgen"]["images"]
    assert images == [
        {
            "dockerfile": "docker/Dockerfile.*",
            "outputs": ["docker/README.md"],
            "arch-arg": "TORCH_CUDA_ARCH_LIST",
        },
        {
            "dockerfile": "docker/rocm/Dockerfile",
            "outputs": ["docker/README.md", "docker/rocm/README.md"],
            "arch-arg": "PYTORCH_ROCM_ARCH",
        },
    ]
    index = (chdir_tmp / "docker/README.md").read_text()
    assert block("images") in index and block("matrix") in index
    own = (chdir_tmp / "docker/rocm/README.md").read_text()
    # only under the headings it has: no new "Supported hardware" … sections appended to it
    assert [b.name for b in markers.find_blocks(own)] == ["versions"]
    assert only_insertions(_ROCM_README, own)

    # the family is ready: sync fills every block, check passes, a second init adds nothing
    assert run("sync").code == 0
    assert run("check", "--full").code == 0
    filled = (chdir_tmp / "docker/README.md").read_text()
    for name in ("cu129", "cu130", "rocm"):
        assert name in filled
    assert "13.0.1" in filled and "12.9.1" in filled and "7.0.2" in filled
    again = run("init", "docker")
    assert again.code == 0
    assert (
        "note: already configured, left as they are: docker/Dockerfile.cu129, docker/Dockerfile.cu130, "
        "docker/rocm/Dockerfile" in again.out
    )
    assert "added" not in again.out


def test_init_on_a_folder_uses_a_heading_the_index_readme_has(chdir_tmp: Path) -> None:
    readme = "# Our images\n\n## Available images\n\nSee below.\n\n## License\n\nMIT\n"
    _family(chdir_tmp, {"docker/README.md": readme})
    result = run("init", "docker")
    assert result.code == 0, result.err
    text = (chdir_tmp / "docker/README.md").read_text()
    assert 'docker/README.md:5: added block docgen:images under "Available images"' in result.out
    # the matrix has no heading yet: a new one, before the License that closes the file
    assert text.index("## Version matrix") < text.index("## License")
    assert only_insertions(readme, text)


def test_files_a_glob_would_take_in_that_are_no_dockerfiles_are_excluded(chdir_tmp: Path) -> None:
    # `docker/Dockerfile.*` also matches the ignore file, which is no Dockerfile
    _family(chdir_tmp, {"docker/Dockerfile.cu129.dockerignore": "*.pyc\n"})
    assert run("init", "docker").code == 0
    images = tomllib.loads((chdir_tmp / "pyproject.toml").read_text())["tool"]["docgen"]["images"]
    assert [(image["dockerfile"], image.get("exclude"), image.get("arch-arg")) for image in images] == [
        ("docker/Dockerfile.*", ["docker/Dockerfile.cu129.dockerignore"], "TORCH_CUDA_ARCH_LIST"),
        ("docker/rocm/Dockerfile", None, "PYTORCH_ROCM_ARCH"),
    ]
    assert run("sync").code == 0
    assert run("check", "--full").code == 0


def test_a_glob_that_would_take_in_a_configured_dockerfile_is_not_used(chdir_tmp: Path) -> None:
    _family(chdir_tmp)
    pyproject = chdir_tmp / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text()
        + '\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile.cu129"\n'
        + 'outputs = ["docker/rocm/README.md"]\n'
    )
    result = run("init", "docker")
    assert result.code == 0, result.err
    images = tomllib.loads(pyproject.read_text())["tool"]["docgen"]["images"]
    # a glob matching Dockerfile.cu129 would make it an image twice
    assert [image["dockerfile"] for image in images] == [
        "docker/Dockerfile.cu129",
        "docker/Dockerfile.cu130",
        "docker/rocm/Dockerfile",
    ]
    assert "note: already configured, left as they are: docker/Dockerfile.cu129" in result.out


def test_files_that_would_share_a_name_are_named_after_their_folders(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": '[project]\nname = "x"\nversion = "0"\n',
            "images/cuda/Dockerfile.base": _CUDA,
            "images/rocm/Dockerfile.base": _ROCM,
        },
    )
    assert run("init", "images").code == 0
    images = tomllib.loads((chdir_tmp / "pyproject.toml").read_text())["tool"]["docgen"]["images"]
    assert [(image["dockerfile"], image.get("name")) for image in images] == [
        ("images/cuda/Dockerfile.base", "cuda-base"),
        ("images/rocm/Dockerfile.base", "rocm-base"),
    ]
    assert run("sync").code == 0
    index = (chdir_tmp / "images/README.md").read_text()
    assert "cuda-base" in index and "rocm-base" in index


def test_init_on_a_folder_refuses_what_it_cannot_do(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": "", "empty/notes.txt": "x", "docker/Dockerfile": _ROCM})
    result = run("init", "empty")
    assert (result.code, result.err) == (
        2,
        "empty: no Dockerfile in this folder or below (Dockerfile*, *.Dockerfile)\n",
    )
    result = run("init", "docker", "--dockerfile", "docker/Dockerfile")
    assert result.code == 2
    assert "init on a folder sets up every Dockerfile in it" in result.err
    assert not (chdir_tmp / "docker/README.md").exists()
    assert (chdir_tmp / "pyproject.toml").read_text() == ""


@pytest.mark.parametrize(
    ("link", "target", "message"),
    [
        (
            "docker/b/Dockerfile",
            "Dockerfile",
            "docker/b/Dockerfile: a symlink to {outside}/Dockerfile, outside the project folder {root}; "
            "the Dockerfile must be inside it too",
        ),
        (
            "docker/b/README.md",
            "README.md",
            "docker/b/README.md: a symlink to {outside}/README.md, outside the project folder {root}; "
            "docgen only writes files inside it",
        ),
    ],
)
def test_init_on_a_folder_refuses_a_symlink_out_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str, target: str, message: str
) -> None:
    """A Dockerfile or README linked out of the project used to end in a ValueError traceback."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    make_tree(outside, {"Dockerfile": _ROCM, "README.md": "# B\n\n## Key versions\n\ntext\n"})
    make_tree(root, {"pyproject.toml": "", "docker/a/Dockerfile": _ROCM, "docker/b/Dockerfile": _ROCM})
    (root / link).unlink(missing_ok=True)
    (root / link).symlink_to(outside / target)
    monkeypatch.chdir(root)
    result = run("init", "docker")
    assert (result.code, result.out) == (2, "")
    assert result.err == message.format(outside=outside, root=root) + "\n"
    assert (outside / "README.md").read_text() == "# B\n\n## Key versions\n\ntext\n"
    assert not (root / "docker/README.md").exists()
    assert (root / "pyproject.toml").read_text() == ""
