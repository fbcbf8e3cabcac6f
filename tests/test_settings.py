"""The pyproject.toml reader of the fast path (`docgen.settings`): wherever it answers, it agrees with
`tomllib` on the image list and template folder, and it steps aside on TOML it cannot follow."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.settings import declares_docgen, find_pyproject, read_settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def parsed(text: str) -> tuple[list[tuple[str, list[str]]], str]:
    table = tomllib.loads(text).get("tool", {}).get("docgen", {})
    images = [(i["dockerfile"], list(i.get("outputs", []))) for i in table.get("images", [])]
    return images, table.get("templates", "")


def test_this_repository() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    found = read_settings(text)
    assert found is not None
    assert (found.images, found.templates) == parsed(text)
    assert found.sections.startswith("[tool.docgen]\n") and "[project]" not in found.sections


@pytest.mark.parametrize(
    "text",
    [
        'tool.docgen.arch-arg = "X"\n[[tool.docgen.images]]\ndockerfile = "D"\noutputs = ["R"]\n',
        '[tool]\ndocgen = { arch-arg = "X" }\n',
        'tool = { docgen = { arch-arg = "X" } }\n',
        '[tool]\n"docgen".arch-arg = "X"\n',
        '[tool]\n"\\u0064ocgen".arch-arg = "X"\n',
        'x = """\n[tool.docgen]\n"""\n',
        "[tool.docgen.images\n",
        '[[tool.docgen.images]]\ndockerfile = "D"\noutputs = [\n "R",\n',
        "[tool.docgenerator]\n",
    ],
)
def test_steps_aside_when_unsure(text: str) -> None:
    assert read_settings(text) is None


@pytest.mark.parametrize(
    "text",
    [
        '[project.scripts]\ndocgen = "docgen.cli:main"\n[tool.mypy]\nfiles = ["docgen"]\n'
        '[[tool.docgen.images]]\ndockerfile = "D"\noutputs = ["R"]\n',
        '[project.entry-points."mkdocs.plugins"]\ndocgen = "x:y"\n[tool.docgen]\ntemplates = "t"  # mine\n'
        "[[tool.docgen.images]]\ndockerfile = 'D'  # the image\noutputs = [\n  \"a.md\",\n  'b.md',\n]\n"
        '[tool.docgen.images.names]\ntorch = "PyTorch"\n[[ tool . docgen . images ]]\ndockerfile="E"\n'
        'outputs=["c.md"]\n',
        '[tool.docgen]\r\n[[tool.docgen.images]]\r\ndockerfile = "D"\r\noutputs = ["R"]\r\n',
    ],
)
def test_agrees_with_tomllib(text: str) -> None:
    found = read_settings(text)
    assert found is not None
    assert (found.images, found.templates) == parsed(text)


names = st.text("abcXYZ019_-./", min_size=1, max_size=8)
blank = st.sampled_from(["", " ", "  ", "\t"])
quote = st.sampled_from(['"', "'"])
comment = st.sampled_from(["", "  # note", " #x"])


@st.composite
def pyprojects(draw: st.DrawFn) -> str:
    lines = ["[project]", f'name = "{draw(names)}"', "[tool.docgen]"]
    if draw(st.booleans()):
        q = draw(quote)
        lines.append(f"templates{draw(blank)}={draw(blank)}{q}{draw(names)}{q}{draw(comment)}")
    for _ in range(draw(st.integers(0, 3))):
        q = draw(quote)
        lines.append(f"[[tool.docgen.images]]{draw(comment)}")
        lines.append(f"dockerfile{draw(blank)}={draw(blank)}{q}{draw(names)}{q}{draw(comment)}")
        outputs = [f"{draw(quote)}{draw(names)}" for _ in range(draw(st.integers(0, 3)))]
        items = [o + o[0] for o in outputs]
        if draw(st.booleans()):
            lines.append("outputs = [" + ", ".join(items) + "]" + draw(comment))
        else:
            lines += ["outputs = [", *(f"  {i}," for i in items), "]"]
        if draw(st.booleans()):
            lines += ["[tool.docgen.images.names]", f'x = "{draw(names)}"']
    lines += ["[tool.ruff]", "line-length = 110"]
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(pyprojects())
def test_generated_configs_agree_with_tomllib(text: str) -> None:
    found = read_settings(text)
    assert found is not None  # plain configurations like these are always read
    assert (found.images, found.templates) == parsed(text)


def test_find_pyproject_skips_files_without_docgen(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.docgen]\narch-arg = "X"\n')
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_pyproject(str(inner)) == str(tmp_path / "pyproject.toml")


DOCGEN_PIECES = [
    "[tool.docgen]\n",
    "[[tool.docgen.images]]\n",
    '[ tool . "docgen" ]\n',
    "[tool]\n",
    "[tool.ruff]\n",
    "[project]\n",
    'tool.docgen.arch-arg = "X"\n',
    "docgen.arch-arg = 'X'\n",
    "docgen = { arch-arg = 'X' }\n",
    "tool.ruff.line-length = 1\n",
    'name = "x"\n',
    'description = "set [tool.docgen] here"\n',
    "# [tool.docgen]\n",
    "\n",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(DOCGEN_PIECES), max_size=6).map("".join))
def test_declares_docgen_agrees_with_tomllib(text: str) -> None:
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    tool = parsed.get("tool", {})
    assert declares_docgen(text) == (isinstance(tool, dict) and "docgen" in tool)


def test_nearest_config_in_any_spelling_wins_over_a_parent(tmp_path: Path) -> None:
    """A monorepo: the subproject's dotted-key config is its own; the parent's is not used."""
    (tmp_path / "pyproject.toml").write_text("[tool.docgen]\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "s"\n\n[tool]\ndocgen.images = []\n')
    assert find_pyproject(str(sub)) == str(sub / "pyproject.toml")
    (sub / "pyproject.toml").write_text('[project]\ndescription = "see [tool.docgen] in the docs"\n')
    assert find_pyproject(str(sub)) == str(tmp_path / "pyproject.toml")
