"""Golden files: the rendered sections of known Dockerfiles, compared byte for byte.

After an intended change to rendering, regenerate them with

    python tests/test_golden.py --regen

and review the diff of tests/golden/ before committing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from docgen.pipeline import build_model
from docgen.render import SECTIONS, RenderOptions, render_sections

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


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("section", SECTIONS)
def test_golden(case: str, section: str) -> None:
    expected_file = GOLDEN / case / f"{section}.md"
    assert expected_file.exists(), f"missing {expected_file}; run: {REGENERATE}"
    assert render(case)[section] == expected_file.read_text(encoding="utf-8"), (
        f"{case}/{section}.md differs from the golden file; if the change is intended, run: {REGENERATE}"
    )


def regenerate() -> None:
    for case in CASES:
        for section, text in render(case).items():
            (GOLDEN / case / f"{section}.md").write_text(text, encoding="utf-8")
            print(f"wrote tests/golden/{case}/{section}.md")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regen"]:
        sys.exit(f"usage: {REGENERATE}")
    regenerate()
