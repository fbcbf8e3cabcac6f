"""`docgen audit`: a value a README offers for a build arg of FROM that names a distribution family whose
package manager the Dockerfile never uses, while its RUNs use apt-get only (docgen/audit/distro_args.py).

Shapes modelled on real pairs: a JAX image built `FROM nvidia/cuda:${CUDA}-cudnn${CUDNN}-${TAG}-${OS}`
whose README offers `ubuntu22.04` or `centos7`; a detector simulation image `FROM
nvidia/cuda:${CUDA_VERSION}-devel-${OS} AS base` installing with `apt update && apt install`.
Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

ML = (
    'ARG CUDA="12.2.2"\nARG OS="ubuntu22.04"\n'
    "FROM nvidia/cuda:${CUDA}-cudnn8-devel-${OS}\n"
    "RUN apt-get update && apt-get install -y git python3-pip && rm -rf /var/lib/apt/lists/*\n"
    "RUN useradd -m lens\n"
)
SIM = (
    "ARG DISTRO=ubuntu24.04\nARG CUDA_VERSION=12.6.0\n"
    "FROM nvidia/cuda:${CUDA_VERSION}-devel-${DISTRO} AS base\n"
    "RUN apt update \\\n && apt install -y g++ cmake \\\n && apt clean\n"
)


def _audited(tmp_path: Path, dockerfile: str, readme: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, **(extra or {})})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "README offers" in d.message
    ]


def test_a_prose_value_of_another_family(tmp_path: Path) -> None:
    readme = "# Lens\n\n## Build\n\n- CUDA (eg: `12.2.2`)\n- OS (eg: `ubuntu22.04` or `rockylinux8`)\n"
    assert _audited(tmp_path, ML, readme) == [
        "6: README offers OS=rockylinux8 for the base image (Dockerfile line 3 reads ${OS} in FROM), but "
        "every package step uses apt-get (line 4), which a rockylinux8 base does not have (likely)"
    ]


def test_a_build_arg_in_a_command(tmp_path: Path) -> None:
    readme = "# Sim\n\n```bash\ndocker build --build-arg DISTRO=ubi9 -t sim .\n```\n"
    found = _audited(tmp_path, SIM, readme)
    assert [f.split(" for the base")[0] for f in found] == ["4: README offers DISTRO=ubi9"]


@pytest.mark.parametrize(
    "line",
    [
        "- OS (eg: `ubuntu22.04` or `ubuntu20.04`)",  # the same family
        "| OS | `centos7` |",  # a table row: a list of published tags
        "Our published tags include `12.2.2-centos7`.",  # no arg named
        "- OS: `centos7` is not supported",  # said not to work
        "- The image runs on hosts with `centos7` (OS of the host)",  # another word than a value
    ],
)
def test_traps_stay_silent(tmp_path: Path, line: str) -> None:
    assert _audited(tmp_path, ML, f"# Lens\n\n## Build\n\n{line}\n") == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        ML.replace("RUN useradd -m lens", "RUN if command -v yum; then yum install -y git; fi"),  # branches
        ML.replace("RUN useradd -m lens", "RUN dnf install -y git || true"),  # another manager
        SIM + "RUN curl -LsSf https://x.example/install.sh | sh\n",  # a script may do anything
        ML.replace("${OS}", "ubuntu22.04"),  # no arg in FROM
    ],
)
def test_dockerfiles_that_may_build_there_stay_silent(tmp_path: Path, dockerfile: str) -> None:
    readme = "# Lens\n\n## Build\n\n- OS (eg: `centos7`)\n- DISTRO (eg: `centos7`)\n"
    assert _audited(tmp_path, dockerfile, readme) == []


def test_a_sibling_dockerfile_for_that_family(tmp_path: Path) -> None:
    extra = {"Dockerfile.rhel": "FROM rockylinux:8\nRUN dnf install -y git\n"}
    readme = "# Lens\n\n## Build\n\n- OS (eg: `rockylinux8`)\n"
    assert _audited(tmp_path, ML, readme, extra) == []
