"""`docgen.audit.script_versions`: a CUDA, cuDNN or NCCL version the README states that a script the
image holds, and the README names, exports otherwise. Shapes modelled on a research
container whose `set_env.sh` was left from an older CUDA base, and on a serving image whose `env.sh`
agrees; a planted drift next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-devel
RUN pip install opencv-python==4.4.0.44
WORKDIR /home/user
COPY set_env.sh ./
CMD bash
"""
SCRIPT = (
    'export PATH="/usr/local/cuda/bin:$PATH"\n'
    'export NCCL_VERSION="2.4.8"\n'
    'export CUDNN_VERSION="7.6.5.32"\n'
    'export CUDA_VERSION="10.1.243"\n'
)
README = """\
# Packages version
- pytorch: 1.9.0
- cuda: 11.1
- cudnn: 8

# How to use
- Run the shell scripts (optional: `set_env.sh`)
"""


def found(root: Path, readme: str = README, script: str = SCRIPT, dockerfile: str = DOCKERFILE) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, "set_env.sh": script})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "and the README names" in d.message
    ]


def test_a_version_a_copied_script_exports_otherwise(tmp_path: Path) -> None:
    assert found(tmp_path / "a") == [
        "3: README says CUDA 11.1, but set_env.sh:4, which Dockerfile:4 copies into the image and the README "
        "names, sets CUDA_VERSION=10.1.243 (likely)",
        "4: README says cuDNN 8, but set_env.sh:3, which Dockerfile:4 copies into the image and the README "
        "names, sets CUDNN_VERSION=7.6.5.32 (likely)",
    ]


def test_script_version_traps(tmp_path: Path) -> None:
    # the script agrees, as far as the README writes the version
    agreeing = SCRIPT.replace("7.6.5.32", "8.0.5.39").replace("10.1.243", "11.1.1")
    assert found(tmp_path / "a", script=agreeing) == []
    # the README never names the script; the Dockerfile does not copy it; a value with a variable
    assert found(tmp_path / "b", README.replace("(optional: `set_env.sh`)", "")) == []
    assert found(tmp_path / "c", dockerfile=DOCKERFILE.replace("COPY set_env.sh ./\n", "")) == []
    assert found(tmp_path / "d", script='export CUDA_VERSION="${CUDA_MAJOR}.1"\n') == []
    # the host's driver, a minimum
    host = README.replace("- cuda: 11.1", "- host driver for CUDA 11.1").replace(
        "- cudnn: 8", "- cudnn: 8 or newer"
    )
    assert found(tmp_path / "e", host) == []
