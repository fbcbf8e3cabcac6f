"""docgen.toml: `[tool.docgen]`'s keys for a repository without pyproject.toml (docgen/config.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from helpers import make_tree, run

from docgen.config import Config, ImageConfig
from docgen.fastcheck import fast_check

DOCKERFILE = "FROM ubuntu:24.04\n# MAX_JOBS Parallel compile jobs.\nARG MAX_JOBS=64\nRUN echo $MAX_JOBS\n"
README = "# Image\n\n## Build arguments\n\nHand-written.\n"


def test_init_writes_docgen_toml_where_there_is_no_pyproject(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE, "README.md": README})
    result = run("init")
    assert result.code == 0, result.err
    assert "docgen.toml: added [[images]] for Dockerfile -> README.md" in result.out
    assert not (chdir_tmp / "pyproject.toml").exists()
    assert (
        chdir_tmp / "docgen.toml"
    ).read_text() == '[[images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
    assert run("sync").out == "README.md: updated\n"
    assert "| `MAX_JOBS` | `64` | Parallel compile jobs. |" in (chdir_tmp / "README.md").read_text()
    assert run("check").code == 0
    out = io.StringIO()
    assert fast_check([], out, str(chdir_tmp)) == 0  # the settings cache works for docgen.toml too
    assert out.getvalue().endswith("1 file checked, 0 out of date\n")
    assert run("init").out.splitlines()[-2] == "docgen.toml: already configures Dockerfile -> README.md"


def test_found_from_a_subfolder_with_the_same_keys(chdir_tmp: Path) -> None:
    config = (
        '[names]\nMAX_JOBS = "Jobs"\n\n[lint]\ndisable = ["DG003"]\n\n'
        '[[images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
    )
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": DOCKERFILE + "ARG UNUSED_ONE=1\n",
            "README.md": "<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n",
            "docgen.toml": config,
            "sub/x": "",
        },
    )
    os.chdir(chdir_tmp / "sub")
    assert run("sync").out.endswith("/README.md: updated\n")
    assert "| `MAX_JOBS` |" in (chdir_tmp / "README.md").read_text()
    assert "0 warnings" in run("lint").out  # [lint] disable read from docgen.toml


def test_docgen_toml_wins_over_pyproject_in_the_same_folder(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": DOCKERFILE,
            "README.md": README,
            "pyproject.toml": '[tool.docgen]\ncolour = "red"\n',
            "docgen.toml": "colour = 1\n",
        },
    )
    result = run("sync")
    assert result.code == 2
    assert result.err.startswith("docgen.toml:1: unknown key 'colour' in [tool.docgen]")


def test_the_images_of_a_page_come_in_config_order_from_one_index(tmp_path: Path) -> None:
    images = tuple(
        ImageConfig(dockerfile=tmp_path / f"Dockerfile.{n}", display=f"Dockerfile.{n}", pages=pages, name=n)
        for n, pages in (("a", ("all.md", "a.md")), ("b", ("b.md",)), ("c", ("all.md", "all.md")))
    )
    config = Config(root=tmp_path, source="pyproject.toml", images=images)
    assert [i.name for i in config.images_for_page("all.md")] == ["a", "c"]
    assert config.images_for_page("b.md") == (images[1],)
    assert config.images_for_page("missing.md") == ()
