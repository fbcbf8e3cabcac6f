"""Golden files: the rendered sections of known Dockerfiles, compared byte for byte.

Two kinds:

- tests/golden/<case>/<section>.md: each section of a known Dockerfile rendered alone;
- tests/data/realworld-readmes/<image>/: a small project (Dockerfiles written in the idioms of public
  GPU images, the README its maintainer would write, a pyproject.toml) whose README files are checked
  in as `docgen sync` leaves them. The test copies the project, empties every block and runs
  `docgen sync` there: the READMEs must come back byte for byte, but for the fingerprints in the begin
  markers (they digest docgen's own code, so every change to docgen changes them).

After an intended change to rendering, regenerate both with

    python tests/test_golden.py --regen

and review the diff of tests/golden/ and tests/data/realworld-readmes/ before committing.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import without_fingerprints

from docgen.cli import main
from docgen.config import load_config
from docgen.markers import find_blocks
from docgen.pipeline import build_model
from docgen.render import IMAGE_SECTIONS, RenderOptions, render_sections

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
REGENERATE = "python tests/test_golden.py --regen"

# golden folder -> (Dockerfile, render options)
CASES = {
    "rocm": (
        ROOT / "docker" / "rocm" / "Dockerfile.rocm",
        RenderOptions(arch_arg="GPU_ARCH", dockerfile_link="Dockerfile.rocm"),
    ),
    "cuda": (GOLDEN / "cuda" / "Dockerfile", RenderOptions(arch_arg="TORCH_CUDA_ARCH_LIST")),
}


def render(case: str) -> dict[str, str]:
    dockerfile, options = CASES[case]
    model = build_model(dockerfile, dockerfile.relative_to(ROOT).as_posix())
    return render_sections(model, options)


def render_family() -> dict[str, str]:
    """The sections about several images, of every case (in `CASES` order) as one document's images."""
    from docgen.render import render_family as render_images
    from docgen.rows import image_row

    rows = []
    for case, (dockerfile, options) in CASES.items():
        model = build_model(dockerfile, dockerfile.relative_to(ROOT).as_posix())
        rows.append(image_row(case, model, options, (f"org/{case}:latest",) if case == "rocm" else ()))
    return {
        "images": render_images("images", rows, RenderOptions()),
        "matrix": render_images("matrix", rows, RenderOptions(), "components"),
        "matrix-by-images": render_images("matrix", rows, RenderOptions(), "images"),
    }


@pytest.mark.parametrize("section", ["images", "matrix", "matrix-by-images"])
def test_golden_family(section: str) -> None:
    expected_file = GOLDEN / "family" / f"{section}.md"
    assert expected_file.exists(), f"missing {expected_file}; run: {REGENERATE}"
    assert render_family()[section] == expected_file.read_text(encoding="utf-8"), (
        f"family/{section}.md differs from the golden file; if the change is intended, run: {REGENERATE}"
    )


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("section", IMAGE_SECTIONS)
def test_golden(case: str, section: str) -> None:
    expected_file = GOLDEN / case / f"{section}.md"
    assert expected_file.exists(), f"missing {expected_file}; run: {REGENERATE}"
    assert render(case)[section] == expected_file.read_text(encoding="utf-8"), (
        f"{case}/{section}.md differs from the golden file; if the change is intended, run: {REGENERATE}"
    )


READMES = ROOT / "tests" / "data" / "realworld-readmes"
PROJECTS = sorted(p.name for p in READMES.iterdir() if (p / "pyproject.toml").is_file())


def outputs(project: Path) -> list[Path]:
    """The README files a project's configuration has `docgen sync` write."""
    return [out for image in load_config(project / "pyproject.toml").images for out in image.outputs]


def emptied(text: str) -> str:
    """`text` with every docgen block emptied and its fingerprint dropped, as a maintainer starts."""
    for block in reversed(find_blocks(text)):
        begin = f"<!-- BEGIN docgen:{block.name} -->\n"
        text = text[: block.begin_start] + begin + text[block.body_end :]
    return text


def synced(project: str, folder: Path) -> dict[str, str]:
    """Copy `project` into `folder`, empty its blocks, run `docgen sync`: each README's text by name."""
    copy = folder / project
    shutil.copytree(READMES / project, copy)
    files = outputs(copy)
    for path in files:
        path.write_text(emptied(path.read_text(encoding="utf-8")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["sync", "--config", str(copy / "pyproject.toml")], out, err)
    assert code == 0, err.getvalue()
    return {path.relative_to(copy).as_posix(): path.read_text(encoding="utf-8") for path in files}


@pytest.mark.parametrize("project", PROJECTS)
def test_realworld_readme(project: str, tmp_path: Path) -> None:
    for name, text in synced(project, tmp_path).items():
        expected = (READMES / project / name).read_text(encoding="utf-8")
        assert re.search(r"<!-- BEGIN docgen:\w+ -->", expected) is None, f"{project}/{name} was never synced"
        # the fingerprints hold a digest of docgen's own code: any change to docgen changes them
        assert without_fingerprints(text) == without_fingerprints(expected), (
            f"realworld-readmes/{project}/{name} differs from what docgen sync writes; "
            f"if the change is intended, run: {REGENERATE}"
        )


def regenerate() -> None:
    for case in CASES:
        for section, text in render(case).items():
            (GOLDEN / case / f"{section}.md").write_text(text, encoding="utf-8")
            print(f"wrote tests/golden/{case}/{section}.md")
    (GOLDEN / "family").mkdir(exist_ok=True)
    for section, text in render_family().items():
        (GOLDEN / "family" / f"{section}.md").write_text(text, encoding="utf-8")
        print(f"wrote tests/golden/family/{section}.md")
    with tempfile.TemporaryDirectory() as folder:
        for project in PROJECTS:
            for name, text in synced(project, Path(folder)).items():
                (READMES / project / name).write_text(text, encoding="utf-8")
                print(f"wrote tests/data/realworld-readmes/{project}/{name}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regen"]:
        sys.exit(f"usage: {REGENERATE}")
    regenerate()
