"""Build args a README tells to set as environment variables or as the Dockerfile's ENV
(`docgen/audit/arg_kinds.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

TOOLKIT = """\
FROM ubuntu:24.04
ARG TOOLKIT_MAJOR=12
ARG TOOLKIT_MINOR=4
ENV TZ=Etc/UTC
RUN apt-get install -y toolkit-${TOOLKIT_MAJOR}-${TOOLKIT_MINOR}
"""

SOLVER = """\
FROM python:3.12-slim
ARG SOLVER_VERSION=9.1
ARG THREADS=4
RUN pip install solver==${SOLVER_VERSION} && echo ${THREADS} > /etc/threads
"""


def kinds(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [
        (d.line, d.message, d.confidence)
        for d in found
        if "from the environment" in d.message or "the Dockerfile's ENV" in d.message
    ]


def from_env(line: int, name: str, value: str, how: str, at: int, default: str) -> tuple[int, str, str]:
    return (
        line,
        f"README's docker build gets {name}={value} from the environment ({how}), but docker build passes "
        f"no environment variable to the Dockerfile unless --build-arg names it: Dockerfile:{at} ARG {name} "
        f"keeps its default {default} (pass --build-arg {name}={value})",
        "certain",
    )


@pytest.mark.parametrize(
    ("readme", "dockerfile", "expected"),
    [
        (
            "# Toolkit\n\n```bash\nTOOLKIT_MINOR=6 docker build -t toolkit .\n```\n",
            TOOLKIT,
            [from_env(4, "TOOLKIT_MINOR", "6", "set in front of it", 3, "4")],
        ),
        (
            "# Solver\n\n```console\n$ export SOLVER_VERSION=9.3\n$ cd docker\n"
            "$ DOCKER_BUILDKIT=1 docker build --build-arg THREADS=8 -t solver .\n```\n",
            SOLVER,
            [from_env(6, "SOLVER_VERSION", "9.3", "set at line 4", 2, "9.1")],
        ),
    ],
)
def test_a_build_arg_given_only_as_an_environment_variable(
    tmp_path: Path, readme: str, dockerfile: str, expected: list[tuple[int, str, str]]
) -> None:
    assert kinds(tmp_path, readme, dockerfile) == expected


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (
            "# Solver\n\n```bash\nexport SOLVER_VERSION=9.3\n"
            "docker build --build-arg SOLVER_VERSION -t s .\n```\n",
            SOLVER,
        ),
        (
            "# Solver\n\n```bash\nV=9.3\ndocker build --build-arg SOLVER_VERSION=$V -t s .\n```\n",
            SOLVER,
        ),
        (  # passed on under another name
            "# Solver\n\n```bash\nexport SOLVER_VERSION=9.3\n"
            'docker build --build-arg "SOLVER_VERSION=${SOLVER_VERSION}" -t s .\n```\n',
            SOLVER,
        ),
        ("# Solver\n\n```bash\nSOLVER_VERSION=9.1 docker build -t s .\n```\n", SOLVER),  # the default
        (
            "# Solver\n\n```bash\nexport SOLVER_VERSION=9.3\ndocker compose build\n```\n",
            SOLVER,
        ),  # compose reads it
        ("# Solver\n\n```bash\nSOLVER_VERSION=9.3 ./build.sh\n```\n", SOLVER),  # a script's business
        ("# Toolkit\n\n```bash\nDOCKER_BUILDKIT=1 docker build -t toolkit .\n```\n", TOOLKIT),
    ],
)
def test_a_build_arg_passed_on_or_not_a_build(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert kinds(tmp_path, readme, dockerfile) == []


ENV_SAID = (
    "README says the versions are changed through the Dockerfile's ENV, but no ENV of Dockerfile sets a "
    "version: they are build args, ARG TOOLKIT_MAJOR=12 (line 2), TOOLKIT_MINOR=4 (line 3), set with "
    "--build-arg NAME=VALUE without editing the Dockerfile"
)


@pytest.mark.parametrize(
    "readme",
    [
        "# Toolkit\n\nYou can change the toolkit version by modifying the Dockerfile ENV before building.\n",
        "# Toolkit\n\n- To pick other versions, edit the `ENV` lines of the Dockerfile.\n",
    ],
)
def test_versions_said_to_be_env(tmp_path: Path, readme: str) -> None:
    assert kinds(tmp_path, readme, TOOLKIT) == [(3, ENV_SAID, "likely")]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (  # the versions are ENV
            "# Toolkit\n\nYou can change the toolkit version by modifying the Dockerfile ENV.\n",
            TOOLKIT.replace("ARG TOOLKIT_MINOR=4", "ENV TOOLKIT_MINOR=4"),
        ),
        (  # the container's environment, not the build's
            "# Toolkit\n\nSet the ENV values with `docker run -e` to change the log version shown.\n",
            TOOLKIT,
        ),
        ("# Toolkit\n\nThe `ENV` lines set the time zone.\n", TOOLKIT),  # no version changed
    ],
)
def test_env_said_of_what_env_sets(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert kinds(tmp_path, readme, dockerfile) == []


def test_exports_after_entering_a_container_are_not_the_builds(tmp_path: Path) -> None:
    readme = (
        "# Solver\n\n```bash\ndocker run -it --rm solver bash\nexport SOLVER_VERSION=9.3\n"
        "docker build -t s .\n```\n"
    )
    assert kinds(tmp_path, readme, SOLVER) == []


def test_a_value_set_for_another_command_only(tmp_path: Path) -> None:
    readme = "# Solver\n\n```bash\nSOLVER_VERSION=9.3 ./fetch.sh\ndocker build -t s .\n```\n"
    assert kinds(tmp_path, readme, SOLVER) == []
    both = "# Solver\n\n```bash\nTHREADS=8 SOLVER_VERSION=9.3  # pick them\ndocker build -t s .\n```\n"
    assert [f[1].split(" from ")[0] for f in kinds(tmp_path / "b", both, SOLVER)] == [
        "README's docker build gets THREADS=8",
        "README's docker build gets SOLVER_VERSION=9.3",
    ]
