"""`docgen audit`: where a README's steps place the reader (docgen/audit/placement.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit.placement import Placement
from docgen.markdown import read_document


def placement(root: Path, readme: str, page: str = "README.md") -> Placement:
    make_tree(root, {page: readme, "deploy/gpu/notes.txt": "x", "docs/notes.txt": "x"})
    path = root / page
    return Placement(read_document(readme, page), readme, path.parent, root)


def shown(place: Placement, line: int) -> str | None:
    placed = place.at(line)
    return "unknown" if placed is None else placed[1]


def test_a_cd_moves_the_later_lines_and_blocks(tmp_path: Path) -> None:
    place = placement(tmp_path, "# A\n\n```sh\ncd deploy\nls\n```\n\n```sh\ncd gpu\nls\n```\n")
    assert [shown(place, n) for n in (4, 5, 10)] == [None, "deploy", "deploy/gpu"]
    assert shown(place, 5) == "deploy"  # (asked again out of order: read again from the start)


def test_the_steps_of_one_command(tmp_path: Path) -> None:
    place = placement(tmp_path, "# A\n\n```sh\ncd deploy && ls && cd gpu && ls\n```\n")
    steps = ["cd deploy ", " ls ", " cd gpu ", " ls"]
    assert [p.shown if p else "unknown" for p in place.steps(4, steps)] == [
        None,
        "deploy",
        "deploy",
        "deploy/gpu",
    ]


def test_a_clone_of_another_project_stays_but_its_folder_is_unknown(tmp_path: Path) -> None:
    readme = "# A\n\n```sh\ncd deploy\ngit clone https://github.com/other/gpu.git\nls\ncd gpu\nls\n```\n"
    place = placement(tmp_path, readme)
    assert [shown(place, n) for n in (6, 8)] == ["deploy", "unknown"]


def test_a_cd_back_or_elsewhere_is_unknown(tmp_path: Path) -> None:
    readme = "# A\n\n```sh\ncd deploy\ncd ..\nls\ncd docs\ncd $HOME\nls\n```\n"
    place = placement(tmp_path, readme)
    assert [shown(place, n) for n in (6, 9)] == ["unknown", "unknown"]


def test_a_readme_below_the_root_whose_cd_is_written_from_the_root(tmp_path: Path) -> None:
    place = placement(tmp_path, "# A\n\n```sh\ncd deploy\nls\n```\n", page="docs/README.md")
    placed = place.at(5)
    assert placed is not None and placed[0] == tmp_path / "deploy" and placed[1] == "deploy"


def test_a_clone_of_this_repository_said_by_the_words_above_it(tmp_path: Path) -> None:
    clone = "git clone https://example.com/o/app.git"
    readme = f"# A\n\nClone the repository:\n\n```sh\n{clone}\ncd app/deploy\nls\n```\n"
    place = placement(tmp_path, readme)
    placed = place.steps(8, ["ls"])[0]
    assert placed is not None and placed.shown == "app/deploy" and not placed.sure


def test_a_clone_with_a_valued_option_is_read_past_its_value(tmp_path: Path) -> None:
    """`git clone --depth 1 URL`: the folder is the address's, not `1`'s (an option's value read as the
    address left the clone of this repository unread)."""
    readme = "# A\n\nClone the repository:\n\n```sh\ngit clone --depth 1 https://example.com/o/app.git\n"
    place = placement(tmp_path, readme + "cd app/deploy\nls\n```\n")
    placed = place.steps(8, ["ls"])[0]
    assert placed is not None and placed.shown == "app/deploy"
