"""`docgen.audit.reinstalled_torch`: a README command pinning torch at another release than the one the
image's base fixes and the README states is a `likely` finding; commands for another environment, the
host, a release the README documents too, or an image whose PyTorch docgen cannot tell stay silent.

A planted drift next to the nearest true statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM pytorch/pytorch:2.0.1-cuda11.7-cudnn8-devel\nRUN pip install einops==0.6.1\n"
README = """\
# Pose lab

- torch: 2.0.1
- cuda: 11.7

## {heading}

{before}

```
{command}
```
"""
COMMAND = (
    "pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117 --extra-index-url https://example.org/whl"
)


def found(
    root: Path,
    command: str = COMMAND,
    heading: str = "Updating packages",
    before: str = "Swap torch inside the running container:",
    dockerfile: str = DOCKERFILE,
    head: str = "- torch: 2.0.1",
) -> list[str]:
    readme = README.format(heading=heading, before=before, command=command).replace("- torch: 2.0.1", head)
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "in place of the image's PyTorch" in d.message
    ]


def test_a_command_swapping_the_images_pytorch(tmp_path: Path) -> None:
    assert found(tmp_path) == [
        "11: README's command `pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117…` installs "
        "torch==1.13.1+cu117 in place of the image's PyTorch 2.0.1 (Dockerfile:1), the release README says "
        "at line 3 (likely)"
    ]


def test_python_m_pip_and_a_quoted_pin(tmp_path: Path) -> None:
    assert len(found(tmp_path, command='python3 -m pip install "torch==1.12.0"')) == 1


@pytest.mark.parametrize(
    ("command", "heading", "before"),
    [
        # the image's own release, to the places written
        ("pip install torch==2.0.1 --force-reinstall", "Updating packages", "Swap torch:"),
        # another environment made in the block
        ("python -m venv .venv\nsource .venv/bin/activate\n" + COMMAND, "Updating packages", "Swap torch:"),
        ("conda create -n pose python=3.10\n" + COMMAND, "Updating packages", "Swap torch:"),
        # the host, a local setup
        (COMMAND, "Run without Docker", "Install the packages:"),
        (COMMAND, "Updating packages", "On the host, install:"),
        # a step for some GPUs only, or optional
        (COMMAND, "3090", "- Reinstall torch in the container"),
        (COMMAND, "Ampere cards", "Swap torch:"),
        (COMMAND, "Updating packages", "For RTX 4090 cards, swap torch:"),
        (COMMAND, "Updating packages", "Optionally, swap torch:"),
        (COMMAND, "Local setup", "Install the packages:"),
        # not a pin
        ("pip install 'torch>=1.13'", "Updating packages", "Swap torch:"),
        ("pip install torchvision==0.14.1", "Updating packages", "Swap torch:"),
    ],
)
def test_silent(tmp_path: Path, command: str, heading: str, before: str) -> None:
    assert found(tmp_path, command, heading, before) == []


def test_a_release_the_readme_documents_too(tmp_path: Path) -> None:
    before = "For older drivers, PyTorch 1.13.1 works too:"
    assert found(tmp_path, before=before) == []


def test_no_release_stated(tmp_path: Path) -> None:
    assert found(tmp_path, head="- vision lab") == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        # the image pins another torch over its base: docgen does not tell which one the README means
        DOCKERFILE + "RUN pip install torch==2.1.0\n",
        # no PyTorch from the base
        "FROM nvidia/cuda:11.7.1-devel-ubuntu22.04\nRUN pip install torch==2.0.1\n",
    ],
)
def test_an_image_whose_pytorch_is_not_one_base_release(tmp_path: Path, dockerfile: str) -> None:
    assert found(tmp_path, dockerfile=dockerfile) == []


@pytest.mark.parametrize(
    ("base", "release", "pinned"),
    [
        ("rocm/pytorch:rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.4.0", "2.4.0", "2.3.1"),
        # NGC's 20.02 is 1.4.0a0+… (its release notes): `torch: 1.4` is that release
        ("nvcr.io/nvidia/pytorch:20.02-py3", "1.4", "1.3.1"),
    ],
)
def test_other_bases_that_fix_pytorch(tmp_path: Path, base: str, release: str, pinned: str) -> None:
    findings = found(
        tmp_path,
        command=f"pip install torch=={pinned}",
        dockerfile=f"FROM {base}\n",
        head=f"- torch: {release}",
    )
    assert [f.split(" in place of ")[0].split(" installs ")[1] for f in findings] == [f"torch=={pinned}"]


def test_a_base_whose_pytorch_docgen_does_not_know(tmp_path: Path) -> None:
    # NGC's 23.10 is not in the release table: its tag gives no PyTorch release
    findings = found(
        tmp_path,
        command="pip install torch==2.0.1",
        dockerfile="FROM nvcr.io/nvidia/pytorch:23.10-py3\n",
        head="- torch: 2.1",
    )
    assert findings == []
