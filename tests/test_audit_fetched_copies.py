"""`docgen.audit.fetched_copies` with `references._context_misses`: a README's build whose Dockerfile copies
a file the repository does not hold (an installer named by ARG defaults, a data file), found from a build
command written as a prose line of its own, or in a fenced block; and the shapes that must stay silent
(the README says to fetch the file, a `--build-arg`, an ARG with no default, a source file a partial copy
may lack, an ignored file, a sentence that only mentions `docker build`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.fetched_copies import command_at, expanded_sources, fetched, told
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import build_model

INSTALLER = """\
# syntax = docker/dockerfile:1.4
ARG SDK_VERSION=12.2.0
FROM ubuntu:22.04 AS tools
WORKDIR /work
ADD ./helpers/*.sh ./
ARG SDK_VERSION
ARG DRIVER_VERSION=535.54
ADD ./sdk_${SDK_VERSION}_${DRIVER_VERSION}_win64.exe /tmp/sdk.exe
RUN bash ./build.sh
"""
"""A static-build Dockerfile that adds a vendor installer named by its ARG defaults (the shape of a
CUDA-for-Windows cross build)."""

SIMULATION = """\
FROM condaforge/miniforge3
WORKDIR /lab
COPY ./simulate.py /lab
COPY ./1xyz-clean.pdb /lab/input
CMD ["python", "simulate.py"]
"""
"""A molecular-dynamics workload that copies its input structure (the shape of an OpenMM test image)."""


def findings(root: Path, files: dict[str, str], readme: str, dockerfile: str = "Dockerfile") -> list[str]:
    """The messages (with their line and confidence) of the audit of README.md at `root`."""
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / dockerfile, dockerfile)
    return [
        f"{d.line} {d.confidence} {d.message}"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "copies" in d.message
    ]


BUILT_IN_PROSE = (
    "# Static build\nThe encoder with GPU filters\ndocker buildx build -o out -f ./gpu.Dockerfile .\n"
)


def test_an_installer_no_folder_holds_is_a_finding(tmp_path: Path) -> None:
    files = {"gpu.Dockerfile": INSTALLER, "helpers/build.sh": ""}
    assert findings(tmp_path, files, BUILT_IN_PROSE, "gpu.Dockerfile") == [
        "3 likely README builds ./gpu.Dockerfile with the context ., which does not hold "
        "sdk_12.2.0_535.54_win64.exe (line 8) that it copies, and the README never says to fetch it"
    ]


def test_in_a_checkout_the_expanded_source_is_told_with_the_others(tmp_path: Path) -> None:
    files = {"gpu.Dockerfile": INSTALLER, "helpers/build.sh": "", ".git/HEAD": ""}
    assert findings(tmp_path, files, BUILT_IN_PROSE, "gpu.Dockerfile") == [
        "3 likely README builds ./gpu.Dockerfile with the context ., which does not hold "
        "sdk_12.2.0_535.54_win64.exe (line 8) that it copies, in a git checkout that holds every file"
    ]


def test_a_data_file_a_checkout_lacks_is_found_from_a_build_line_in_prose(tmp_path: Path) -> None:
    readme = "# Sim\n\n### Build the image\n\ndocker build -t lab/sim .\n\ndocker push lab/sim\n"
    files = {"Dockerfile": SIMULATION, "simulate.py": "", ".git/HEAD": ""}
    assert findings(tmp_path, files, readme) == [
        "5 likely README builds ./Dockerfile with the context ., which does not hold 1xyz-clean.pdb "
        "(line 4) that it copies, in a git checkout that holds every file"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the README says to fetch it, by its kind, before the build
        "# Build\nDownload the SDK installer for Windows and put it next to gpu.Dockerfile.\n\n"
        "docker buildx build -o out -f ./gpu.Dockerfile .\n",
        # it names the file, even after the build
        BUILT_IN_PROSE + "\nThe build needs sdk_12.2.0_535.54_win64.exe beside the Dockerfile.\n",
        # a command fetches it first
        "# Build\n```sh\nwget https://vendor.example/sdk_12.2.0_535.54_win64.exe\n"
        "docker buildx build -o out -f ./gpu.Dockerfile .\n```\n",
        # build args may name another file
        "# Build\n```sh\ndocker buildx build --build-arg SDK_VERSION=12.4 -o out -f gpu.Dockerfile .\n```\n",
        # a sentence that mentions a build is no command
        "# Build\nThen run docker buildx build -f ./gpu.Dockerfile . to make it.\n",
    ],
)
def test_a_fetched_file_the_readme_accounts_for_is_no_finding(tmp_path: Path, readme: str) -> None:
    files = {"gpu.Dockerfile": INSTALLER, "helpers/build.sh": ""}
    assert findings(tmp_path, files, readme, "gpu.Dockerfile") == []


@pytest.mark.parametrize(
    "files",
    [
        {"gpu.Dockerfile": INSTALLER, "sdk_12.2.0_535.54_win64.exe": ""},  # it is there
        {"gpu.Dockerfile": INSTALLER, ".gitignore": "*.exe\n"},  # left out on purpose
        {"gpu.Dockerfile": INSTALLER.replace("DRIVER_VERSION=535.54", "DRIVER_VERSION")},  # no default
        {"gpu.Dockerfile": INSTALLER.replace("_win64.exe", "_win64.cfg")},  # a settings file a copy may lack
    ],
)
def test_a_source_that_is_there_ignored_unknown_or_no_download_is_no_finding(
    tmp_path: Path, files: dict[str, str]
) -> None:
    assert findings(tmp_path, files, BUILT_IN_PROSE, "gpu.Dockerfile") == []


def test_an_indented_build_line_is_read_once(tmp_path: Path) -> None:
    readme = "# Sim\n\nBuild it:\n\n    $ docker build -t lab/sim .\n"
    files = {"Dockerfile": SIMULATION, "simulate.py": "", ".git/HEAD": ""}
    assert [f.split(" ", 1)[0] for f in findings(tmp_path, files, readme)] == ["5"]


def test_expanded_sources_are_those_written_with_a_variable() -> None:
    parsed = parse_dockerfile(INSTALLER, "gpu.Dockerfile")
    assert expanded_sources(parsed, "docker build .") == [(8, "sdk_12.2.0_535.54_win64.exe")]
    assert expanded_sources(parsed, "docker build --build-arg DRIVER_VERSION=550 .") == []


def test_fetched_kinds_and_told() -> None:
    assert fetched("models/unet.safetensors") and fetched("in/1abc.PDB") and not fetched("app/main.py")
    lines = ["# App", "Fetch the model weights into models/.", "docker build ."]
    assert told(lines, "models/unet.safetensors", 3)
    assert not told(lines, "models/unet.safetensors", 2)
    assert (
        command_at(["docker build \\", "  --build-arg A=1 .", "echo"], 1)
        == "docker build \\   --build-arg A=1 ."
    )
