"""`docgen audit`: `make TARGET` commands against the rules of the Makefile `make` reads
(docgen/audit/make_targets.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
MAKEFILE = """\
.PHONY: image shell-gpu gpu-shell
image: ## Build the image
\tdocker build -t app .
shell-gpu: image
\tdocker run --gpus all -it app
%-push: image
\tdocker push app:$*
"""


def found(root: Path, readme: str, where: str = "") -> list[tuple[int, str, str]]:
    make_tree(root, {f"{where}Dockerfile": APP, "Makefile": MAKEFILE, f"{where}README.md": readme})
    model = build_model(root / where / "Dockerfile", "Dockerfile")
    text = (root / where / "README.md").read_text(encoding="utf-8")
    findings = audit(text, "README.md", model, {}, root / where, root)
    return [(d.line, d.message, d.confidence) for d in findings]


def test_a_target_only_listed_as_phony(tmp_path: Path) -> None:
    readme = "# App\n\n```sh\nmake image\nmake gpu-shell\n```\n"
    said = "README runs make gpu-shell, but no rule of Makefile makes it (did you mean shell-gpu?)"
    assert found(tmp_path, readme) == [(5, said, "certain")]


def test_inline_code_and_a_makefile_above(tmp_path: Path) -> None:
    readme = "# App\n\n1. Build: `make image`\n2. Start a shell: `make gpu-shell`\n"
    said = "README runs make gpu-shell, but no rule of ../../Makefile makes it (did you mean shell-gpu?)"
    assert found(tmp_path, readme, "containers/gpu/") == [(4, said, "likely")]


@pytest.mark.parametrize(
    "block",
    [
        "make image shell-gpu",  # rules it has
        "make -j4 image V=1",  # an option's value and a variable
        "make cuda-push",  # a pattern rule makes it
        "make -C docs html",  # another folder's Makefile
        "cd docs && make html",  # after a `cd`
        "docker run -it app bash\nmake gpu-shell",  # in the container
        "make <target>",  # a placeholder
        "# make gpu-shell",  # a comment
        "make",  # the default goal
    ],
)
def test_targets_made_or_not_read(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, f"# App\n\n```sh\n{block}\n```\n") == []
