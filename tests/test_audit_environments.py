"""`docgen audit`: versions a README's Spack commands name against the Spack environment file the
Dockerfile copies and installs (docgen/audit/environments.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = (
    "FROM ghcr.io/example/spack-base:1.0\n"
    "COPY envs/solver.yaml /opt/env-main/spack.yaml\n"
    "RUN cd /opt/env-main && spack env activate . && spack concretize -f && spack install\n"
)
ENVIRONMENT = (
    "spack:\n"
    "  specs:\n"
    "  - solver@develop+mpi  # built from /src/solver\n"
    "  - hdf5@1.14.3~fortran\n"
    "  - python@:3.11\n"
    "  develop:\n"
    "    solver:\n"
    "      spec: solver@develop+mpi\n"
)
README = (
    "```bash\n"
    "spack install --force solver@main+mpi\n"  # planted: the environment builds solver@develop
    "spack install hdf5@1.14.3~fortran\n"  # as listed
    "spack install python@3.12\n"  # the environment gives a range: not compared
    "spack install zlib@1.3.1\n"  # a package the environment does not list
    "```\n"
)


def _findings(root: Path, dockerfile: str, readme: str = README) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "envs/solver.yaml": ENVIRONMENT})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_spec_at_a_version_the_copied_environment_does_not_list(tmp_path: Path) -> None:
    assert _findings(tmp_path, DOCKERFILE) == [
        "2: README runs Spack with solver@main, but the environment solver.yaml (Dockerfile:2) lists "
        "solver@develop (likely)"
    ]


def test_an_environment_the_dockerfile_does_not_install_is_no_claim(tmp_path: Path) -> None:
    copied_only = DOCKERFILE.replace("spack concretize -f && spack install", "true")
    assert _findings(tmp_path, copied_only) == []


def test_specs_outside_spack_commands_are_no_claim(tmp_path: Path) -> None:
    readme = "```bash\necho solver@main\npip download solver@main\n```\n"
    assert _findings(tmp_path, DOCKERFILE, readme) == []


def test_an_environment_file_an_arg_names_is_read(tmp_path: Path) -> None:
    """The COPY is read as BuildKit expands it (`ImageModel.context_copies`): `${ENV_FILE}` is the file."""
    named = DOCKERFILE.replace("COPY envs/solver.yaml", "ARG ENV_FILE=envs/solver.yaml\nCOPY ${ENV_FILE}")
    assert _findings(tmp_path, named) == [
        "2: README runs Spack with solver@main, but the environment solver.yaml (Dockerfile:3) lists "
        "solver@develop (likely)"
    ]
