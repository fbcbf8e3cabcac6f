"""`docgen.audit.linked_versions`: a link into a component's repository at a release (`…/tree/v1.0.0/
configs`) given as where to read what the image holds, against the release the image installs. Planted
drifts and the nearest true statements as traps; the READMEs and Dockerfiles are small models written
for these tests (one of a segmentation toolbox cloned at a tag, one of a detector installed from PyPI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

CLONED = (
    "FROM pytorch/pytorch:1.11.0-cuda11.3-cudnn8-runtime\n"
    "RUN git clone https://github.com/segkit/segtoolbox.git /segtoolbox && \\\n"
    "    cd /segtoolbox && \\\n"
    "    git checkout tags/v1.2.2\n"
)
PIPPED = "FROM python:3.11-slim\nRUN pip install detkit==0.8.4\n"


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "links to" in d.message]


def test_a_link_to_another_release_s_files(tmp_path: Path) -> None:
    readme = (
        "# Segtoolbox\n\n## Example configs\n\n"
        "You can browse the config files [here](https://github.com/segkit/segtoolbox/tree/v1.0.0/configs).\n"
    )
    assert _audit(tmp_path, readme, CLONED) == [
        "5: README links to segtoolbox at v1.0.0 (https://github.com/segkit/segtoolbox/tree/v1.0.0/configs) "
        "as what the image holds, but Dockerfile:2 installs v1.2.2: the linked files are another release's "
        "(likely)"
    ]
    readme = "# Detkit\n\nThe model zoo is [listed here](https://github.com/detkit/detkit/blob/v0.7.0/docs/zoo.md).\n"
    found = _audit(tmp_path, readme, PIPPED)
    assert len(found) == 1 and "installs 0.8.4" in found[0]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        ("Browse the configs [here](https://github.com/segkit/segtoolbox/tree/v1.2.2/configs).", CLONED),
        ("Browse the configs [here](https://github.com/segkit/segtoolbox/tree/main/configs).", CLONED),
        ("The [release](https://github.com/segkit/segtoolbox/tree/v1.0.0) is older.", CLONED),
        ("Upgraded from [v1.0.0](https://github.com/segkit/segtoolbox/tree/v1.0.0/configs) configs.", CLONED),
        ("See the [changelog](https://github.com/segkit/segtoolbox/blob/v1.0.0/docs/changelog.md).", CLONED),
        ("Browse [other configs](https://github.com/other/toolbox/tree/v1.0.0/configs).", CLONED),
        ("The zoo is [here](https://github.com/detkit/detkit/blob/v0.8.4/docs/zoo.md).", PIPPED),
    ],
)
def test_a_link_that_holds_is_no_finding(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _audit(tmp_path, f"# Toolbox\n\n{readme}\n", dockerfile) == []
