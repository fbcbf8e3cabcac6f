"""`docgen audit`: a component a README lists as in the image whose only install in the Dockerfile is
commented out (docgen/audit/disabled.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

CODES = """\
FROM debian:12
#ENV SIESTA_VERSION=5.2.0
RUN apt-get update && apt-get install -y gfortran libopenmpi-dev
RUN pip install phonopy ase
# Siesta (fails to build, see issue 12)
# RUN wget -qO- https://example.org/siesta-${SIESTA_VERSION}.tar.gz | tar xz \\
#     && cmake -S siesta-${SIESTA_VERSION} -B build && cmake --build build
#RUN git clone https://example.org/octopus.git && make -C octopus install
"""


def found(root: Path, readme: str, dockerfile: str = CODES) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model, {}, root, root)]


def disabled(line: int, name: str, where: int) -> str:
    return (
        f"{line}: README lists {name} as in the image, but its install is commented out "
        f"(Dockerfile:{where}) and nothing else installs it"
    )


@pytest.mark.parametrize(
    "readme",
    [
        "Codes for materials science:\n\n- Phonopy\n- [SIESTA](https://siesta-project.org/)\n- ASE\n",
        "## Software\n\n* `phonopy`\n* `ase`\n* `siesta`: DFT with localised orbitals\n",
        "1. phonopy\n2. Siesta\n3. ase\n",
    ],
)
def test_a_listed_component_whose_install_is_commented_out(tmp_path: Path, readme: str) -> None:
    line = next(n for n, t in enumerate(readme.splitlines(), 1) if "iesta" in t)
    name = next(w for w in ("SIESTA", "siesta", "Siesta") if w in readme.splitlines()[line - 1])
    assert found(tmp_path, readme) == [disabled(line, name, 6)]


def test_every_commented_out_install_of_a_list(tmp_path: Path) -> None:
    readme = "Installed codes:\n\n- phonopy\n- ase\n- Siesta\n- Octopus\n"
    assert found(tmp_path, readme) == [disabled(5, "Siesta", 6), disabled(6, "Octopus", 8)]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the true statement: the install is live
        (
            "- phonopy\n- ase\n- Siesta\n",
            CODES.replace("# RUN wget", "RUN wget").replace("#     &&", "    &&"),
        ),
        # installed another way too
        ("- phonopy\n- ase\n- Siesta\n", CODES + "RUN pip install siesta-tools\n"),
        # what the reader needs, optional, or a version said
        ("Requirements on your machine:\n\n- phonopy\n- ase\n- Siesta\n", CODES),
        ("- phonopy\n- ase\n- Siesta (optional)\n", CODES),
        ("- phonopy\n- ase\n- Siesta 5.2\n", CODES),
        # a list mostly of what the image does not install: not the image's
        ("- Siesta\n- VASP\n- CP2K\n- phonopy\n", CODES),
        # a script docgen cannot read may install it
        ("- phonopy\n- ase\n- Siesta\n", CODES + "COPY install.sh /\nRUN bash /install.sh\n"),
        # the base image holds it
        ("- phonopy\n- ase\n- Siesta\n", CODES.replace("debian:12", "example/siesta:5.2")),
    ],
)
def test_lists_that_are_no_finding(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


NGC = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
RUN pip install --no-cache-dir transformers==4.44.0 peft==0.12.0
# RUN pip install deepspeed==0.14.0
# RUN git clone https://github.com/NVIDIA/apex && pip install ./apex
"""


def test_a_commented_out_install_on_a_framework_base(tmp_path: Path) -> None:
    # DeepSpeed: disabled, and NGC's PyTorch image has none; Apex: disabled too, but the base carries it
    readme = "# Trainer\n\n## Libraries\n\n- transformers\n- peft\n- DeepSpeed\n- Apex\n"
    assert found(tmp_path, readme, NGC) == [disabled(7, "DeepSpeed", 3)]
