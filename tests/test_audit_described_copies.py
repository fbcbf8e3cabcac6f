"""`docgen audit` (docgen/audit/described_copies.py): a file the README describes by the words of its
name (`Pre-configured with sample workflows`) that the audited Dockerfile copies while no folder of the
project holds it; and the shapes that stay silent (the file is there, the README names it or says to
make it, a one-word name, a folder or several parts of the project missing, a README that builds the
image itself, where the build's own finding tells it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

COMFY = """\
ARG BASE_IMAGE=rocm/pytorch:latest
FROM ${BASE_IMAGE}
WORKDIR /workspace
COPY docker/requirements_rocm.txt /workspace/
RUN pip install -r requirements_rocm.txt
COPY docker/startup.sh /workspace/startup.sh
COPY docker/sample_workflow.json /workspace/ComfyUI/
CMD ["/workspace/startup.sh"]
"""
"""A node-graph UI image for AMD GPUs (the shape of a ComfyUI-on-ROCm one): its requirements, its start
script and a workflow to open first, each copied from docker/ with the repository's root as context."""
COMFY_README = """\
# ComfyUI for ROCm

## Features

- Tested compatibility: every dependency verified on real hardware
- Ready to use: pre-configured with sample workflows

## Quick Start

```bash
docker compose up -d
```
"""

GALLERY = """\
FROM python:3.11-slim
COPY requirements.txt /app/
COPY app.py /app/
COPY demo_images.tar /app/
COPY default_theme.css /app/static/
"""
"""A small image-gallery web app (the shape of a Gradio demo's): its code, a theme file and demo images."""
GALLERY_README = "# Gallery\n\nThe app opens with the default theme and a few demo images.\n"


def found(root: Path, files: dict[str, str], dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "copies them from" in d.message
    ]


def comfy(**changes: str) -> dict[str, str]:
    files = {
        "README.md": COMFY_README,
        "docker/Dockerfile": COMFY,
        "docker/requirements_rocm.txt": "torch\n",
        "docker/startup.sh": "#!/bin/sh\n",
        "docker-compose.yaml": "services:\n  comfyui:\n    image: org/comfyui-rocm:latest\n",
    }
    return {k: v for k, v in {**files, **changes}.items() if v}


def test_a_feature_whose_file_no_folder_holds(tmp_path: Path) -> None:
    assert found(tmp_path, comfy(), "docker/Dockerfile") == [
        (
            6,
            "README describes sample workflows, but docker/Dockerfile:7 copies them from "
            "docker/sample_workflow.json, which no folder of the project holds: the image's build stops "
            "at that COPY",
            "likely",
        )
    ]


def test_words_of_a_name_read_apart_by_a_dash_or_a_blank(tmp_path: Path) -> None:
    files = {"README.md": GALLERY_README, "Dockerfile": GALLERY, "requirements.txt": "", "app.py": "x"}
    files = {k: v or "\n" for k, v in files.items()}
    files["demo_images.tar"] = "x"
    assert [m.split(",")[0] for _, m, _ in found(tmp_path, files, "Dockerfile")] == [
        "README describes default theme"
    ]


@pytest.mark.parametrize(
    "changes",
    [
        {"docker/sample_workflow.json": "{}"},  # it is there
        # the README names the file: one it tells the reader to bring
        {"README.md": COMFY_README + "\nPut your sample_workflow.json in docker/ before building.\n"},
        # the sentence tells to make one
        {"README.md": COMFY_README.replace("pre-configured with", "save your own")},
        # a one-word name: `workflow` may mean anything
        {"docker/Dockerfile": COMFY.replace("sample_workflow.json", "workflow.json")},
        # a folder is missing too: a copy of some of the project's files
        {"docker/Dockerfile": COMFY + "COPY docker/nodes /workspace/ComfyUI/custom_nodes\n"},
        # none of the other sources is there either: a README and a Dockerfile copied alone
        {"docker/startup.sh": "", "docker/requirements_rocm.txt": ""},
        # nothing the README says names it
        {"README.md": COMFY_README.replace("sample workflows", "a tuned default graph")},
    ],
)
def test_files_the_readme_accounts_for_or_a_copy_may_lack(tmp_path: Path, changes: dict[str, str]) -> None:
    assert found(tmp_path, comfy(**changes), "docker/Dockerfile") == []


def test_a_build_the_readme_runs_tells_it_once(tmp_path: Path) -> None:
    readme = COMFY_README.replace("docker compose up -d", "docker build -f docker/Dockerfile -t comfy .")
    make_tree(tmp_path, comfy(**{"README.md": readme}))
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    messages = [d.message for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert [m for m in messages if "sample_workflow.json" in m] == [
        "README builds docker/Dockerfile with the context ., which does not hold docker/sample_workflow.json "
        "(line 7) that it copies, and no folder of the project has it"
    ]


def test_a_project_read_through_a_link_to_its_folder(tmp_path: Path) -> None:
    """The project opened by a symlinked path (`~/work` -> `/data/work`): the Dockerfile's folders are
    compared with the project's top with the links of both resolved, so the finding stays."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert [f[0] for f in found(tmp_path / "link", comfy(), "docker/Dockerfile")] == [6]


# Builds the README documents without a `docker build` of its own (`unheld_copies`): a script it runs,
# one it names that is gone, or its words; in a git checkout, a source no folder holds stops the build.

ROVER = """\
FROM ros:noetic
RUN apt-get update && apt-get install -y python3-pip
COPY ./rover_entry.sh /
ENTRYPOINT ["/rover_entry.sh"]
"""
"""A robot's ROS image (the shape of a mobile-robot lab's): its entrypoint copied from the build context."""
ROVER_README = """\
# Rover image

**build the image**
```
host $ ./build.sh
```
**run it**
```
host $ ./run.sh
```
"""
ROVER_FILES = {
    "robot/docker/README.md": ROVER_README,
    "robot/docker/Dockerfile": ROVER,
    "robot/docker/build.sh": "#!/bin/sh\ndocker build --rm -t lab/rover:gpu .\n",
    "robot/docker/run.sh": "#!/bin/sh\ndocker run -it lab/rover:gpu\n",
}

SIM = """\
FROM nvcr.io/nvidia/isaac-sim:4.2.0
WORKDIR /sim
COPY ./sim.docker/start.sh /
COPY . .
ENTRYPOINT ["/start.sh"]
"""
"""A simulator image (the shape of a robot stack's dev image): built from the repository's root by a
script that keeps its command in an array."""
SIM_BUILD = """\
#!/bin/bash
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" &>/dev/null && pwd)"
CMD=(docker build -f "${HERE}/Dockerfile" "$(dirname "${HERE}")" --tag sim)
exec ${CMD[*]}
"""
SIM_README = """\
#### Build Image

To build the image, run the script:

```bash
sim.docker/build.bash
```
"""
SIM_FILES = {
    "sim.docker/README.md": SIM_README,
    "sim.docker/Dockerfile": SIM,
    "sim.docker/build.bash": SIM_BUILD,
    "src/motion/node.py": "",
}

GYM = """\
FROM lab/py36-cu110:torch1.7
COPY .vimrc /root/
COPY deps /root/deps
RUN cd /root/deps && unzip engine.zip
COPY license.key /root/.engine/
CMD ["/bin/bash"]
"""
"""A family of research images (the shape of a DeepRL lab's): dotfiles, a folder of vendored archives and
a licence key the reader brings, each copied from the image's own folder."""
GYM_README = """\
## Images for RL research
- If you want to build the docker images with the physics engine, you need `license.key` to build them.
- See the folders `gym-cu110` and `gym-cu102` for details.
"""
GYM_FILES = {
    "README.md": GYM_README,
    "gym-cu110/Dockerfile": GYM,
    "gym-cu102/Dockerfile": GYM.replace("cu110:torch1.7", "cu102:torch1.4"),
}


def unheld(
    root: Path, files: dict[str, str], readme: str, dockerfiles: list[str], git: bool = True
) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    if git:
        (root / ".git").mkdir()
    models = [build_model(root / d, d) for d in dockerfiles]
    text = files[readme]
    directory = (root / readme).parent
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, readme, models, {}, directory, root)
        if "holds nowhere" in d.message or "the build's context does not hold" in d.message
    ]


GONE_README = ROVER_README.replace("./build.sh", "source docker/build.sh")
"""The rover's README running a build script that is gone: only `unheld_copies` reads its build."""


def _rover(**changes: str) -> dict[str, str]:
    files = {**ROVER_FILES, **changes}
    return {k: v for k, v in files.items() if v}


def test_a_build_script_docgen_follows_tells_it_once(tmp_path: Path) -> None:
    make_tree(tmp_path, ROVER_FILES)
    (tmp_path / ".git").mkdir()
    model = build_model(tmp_path / "robot/docker/Dockerfile", "robot/docker/Dockerfile")
    found = audit(ROVER_README, "README.md", model, {}, tmp_path / "robot/docker", tmp_path)
    assert [(d.line, d.confidence) for d in found if "rover_entry.sh" in d.message] == [(5, "certain")]
    assert not any("holds nowhere" in d.message for d in found)  # (the script's build tells it)


def test_a_build_script_that_is_gone_still_says_the_image_is_built(tmp_path: Path) -> None:
    files = _rover(**{"robot/docker/build.sh": "", "robot/docker/README.md": GONE_README})
    assert unheld(tmp_path, files, "robot/docker/README.md", ["robot/docker/Dockerfile"]) == [
        (
            5,
            "README builds the image (source docker/build.sh), but robot/docker/Dockerfile:3 copies "
            "rover_entry.sh, which the git checkout holds nowhere (not in robot/docker/ or a folder above "
            "it, no file or folder of that name anywhere): the build stops at that COPY",
            "likely",
        )
    ]


def test_a_script_kept_in_an_array_and_a_source_under_a_folder(tmp_path: Path) -> None:
    assert unheld(tmp_path, SIM_FILES, "sim.docker/README.md", ["sim.docker/Dockerfile"]) == [
        (
            6,
            "README builds the image (sim.docker/build.bash), but sim.docker/Dockerfile:3 copies "
            "sim.docker/start.sh, which the git checkout holds nowhere (not in sim.docker/ or a folder above "
            "it, no file or folder of that name anywhere): the build stops at that COPY",
            "likely",
        )
    ]


def test_a_script_of_the_checkout_that_builds_and_a_plain_file_is_certain(tmp_path: Path) -> None:
    files = {**SIM_FILES, "sim.docker/Dockerfile": SIM.replace("./sim.docker/start.sh", "start.sh")}
    got = unheld(tmp_path, files, "sim.docker/README.md", ["sim.docker/Dockerfile"])
    assert [(line, conf) for line, _, conf in got] == [(6, "certain")]


def test_words_that_build_the_images_and_a_file_the_reader_brings(tmp_path: Path) -> None:
    got = unheld(tmp_path, GYM_FILES, "README.md", ["gym-cu110/Dockerfile", "gym-cu102/Dockerfile"])
    assert sorted(got) == [
        (
            2,
            f"README builds the images (build the docker images), but gym-{cuda}/Dockerfile copies .vimrc "
            "(line 2), deps (line 3), which the git checkout holds nowhere (not in "
            f"gym-{cuda}/ or a folder above it, no file or folder of those names anywhere): the build stops "
            "at the first of them",
            "likely",
        )
        for cuda in ("cu102", "cu110")
    ]
    assert all("license.key" not in message for _, message, _ in got)


@pytest.mark.parametrize(
    "changes",
    [
        # the README makes it first
        {
            "robot/docker/README.md": GONE_README.replace(
                "host $ source", "host $ cp rover_entry.example.sh rover_entry.sh\nhost $ source"
            )
        },
        # the reader brings it: the README names it, or git ignores it
        {"robot/docker/README.md": GONE_README + "\nPut your `rover_entry.sh` next to the Dockerfile.\n"},
        {"robot/docker/.gitignore": "rover_entry.sh\n"},
        # a folder above holds it: the build's context is that one
        {"robot/rover_entry.sh": "#!/bin/sh\n"},
        # another folder holds a file of its name: the context or a copy step may bring it
        {"tools/rover_entry.sh": "#!/bin/sh\n"},
        # a script of the project makes it
        {"robot/docker/prepare.sh": "#!/bin/sh\ncp ../common/entry.sh rover_entry.sh\n"},
        # a script named for building that builds no image, under words about no image
        {
            "robot/docker/README.md": ROVER_README.replace("build the image", "build the driver"),
            "robot/docker/build.sh": "#!/bin/sh\ncmake -B out && cmake --build out\n",
        },
        # the README builds the image itself: the build command's own finding tells it
        {"robot/docker/README.md": GONE_README.replace("source docker/build.sh", "docker build -t rover .")},
        # it builds another repository's image from its address
        {
            "robot/docker/README.md": GONE_README.replace(
                "source docker/build.sh", "docker build -t rover https://github.com/lab/rover.git"
            )
        },
        # it only pulls a published image
        {"robot/docker/README.md": "# Rover\n\n```\ndocker pull lab/rover:gpu\n```\n"},
        # its build script is another image's, in a folder of its own, or in one this checkout lacks
        {
            "robot/docker/README.md": GONE_README.replace("source docker/build.sh", "cd arm && ./build.sh"),
            "robot/docker/arm/build.sh": "#!/bin/sh\ndocker build -t lab/arm .\n",
            "robot/docker/arm/Dockerfile": "FROM ros:noetic\n",
        },
        {"robot/docker/README.md": GONE_README.replace("source docker/build.sh", "cd arm && ./build.sh")},
        # a tool of the project builds it its own way
        {"robot/docker/README.md": GONE_README.replace("source docker/build.sh", "labctl build rover")},
        # its words are about the CI's build
        {"robot/docker/README.md": "# Rover\n\nThe CI workflow builds the image on every push.\n"},
        # the image copies the entrypoint from another stage
        {
            "robot/docker/Dockerfile": ROVER.replace(
                "COPY ./rover_entry.sh /", "COPY --from=lab/tools:1 /rover_entry.sh /"
            )
        },
    ],
)
def test_sources_accounted_for_or_builds_not_read_here(tmp_path: Path, changes: dict[str, str]) -> None:
    files = _rover(**{"robot/docker/build.sh": "", "robot/docker/README.md": GONE_README, **changes})
    assert unheld(tmp_path, files, "robot/docker/README.md", ["robot/docker/Dockerfile"]) == []


def test_the_checkout_is_walked_once_for_its_names_and_the_files_that_may_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[Path] = []
    walk = os.walk

    def counted(top: str, *args: Any, **kwargs: Any) -> Iterator[tuple[str, list[str], list[str]]]:
        walked.append(Path(top))
        return walk(top, *args, **kwargs)

    monkeypatch.setattr(os, "walk", counted)
    files = _rover(**{"robot/docker/build.sh": "", "robot/docker/README.md": GONE_README})
    assert len(unheld(tmp_path, files, "robot/docker/README.md", ["robot/docker/Dockerfile"])) == 1
    assert walked.count(tmp_path) == 1


def test_outside_a_git_checkout_a_copy_may_lack_any_file(tmp_path: Path) -> None:
    got = unheld(tmp_path, ROVER_FILES, "robot/docker/README.md", ["robot/docker/Dockerfile"], git=False)
    assert got == []


def test_a_source_in_a_submodule_not_fetched(tmp_path: Path) -> None:
    sub = GYM.replace("COPY deps /root/deps", "COPY third/simcore /root/deps")
    files = {
        **GYM_FILES,
        "gym-cu110/Dockerfile": sub,
        "gym-cu110/.vimrc": "",
        ".gitmodules": '[submodule "engine"]\n\tpath = gym-cu110/third/simcore\n\turl = x\n',
    }
    assert unheld(tmp_path / "a", files, "README.md", ["gym-cu110/Dockerfile"]) == []
    files.pop(".gitmodules")  # (without it, the engine's folder is the checkout's to hold)
    got = unheld(tmp_path / "b", files, "README.md", ["gym-cu110/Dockerfile"])
    assert [line for line, _, _ in got] == [2]


def test_a_script_in_another_folder_naming_the_dockerfile(tmp_path: Path) -> None:
    files = {
        "README.md": "# Deep\n\n## build docker image\n\n```\n$ tools/image.sh\n```\n",
        "docker/Dockerfile": "FROM ubuntu:22.04\nCOPY ./docker/helpers/. /root/helpers/\n",
        "tools/image.sh": "#!/bin/bash\nCMD=(docker build -f docker/Dockerfile -t deep .)\nexec ${CMD[*]}\n",
    }
    got = unheld(tmp_path, files, "README.md", ["docker/Dockerfile"])
    assert [(line, conf) for line, _, conf in got] == [(6, "likely")]
    assert "copies docker/helpers, which the git checkout holds nowhere" in got[0][1]


# The README of the image beside it, with no build of its own (`_tie`'s `about`): a four-line README of a
# benchmark image whose server script was never committed cannot be served as it says.

BENCH = """\
FROM nvidia/cuda:12.4.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
ADD bench_server.sh /bench_server.sh
ADD bench_server.py /bench_server.py
CMD ["/bench_server.sh"]
"""
"""A GPU benchmark image (the shape of a cloud vendor's): a start script and its server, added at /."""
BENCH_README = "# gpubench\nGPU benchmarks\n\nDashboard served at localhost:9000\n"

NOTEBOOK = """\
FROM python:3.12-slim
WORKDIR /srv
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY start-notebook.sh /usr/local/bin/
CMD ["start-notebook.sh"]
"""
"""A notebook server image (the shape of a course's lab image): its list is committed, its start script
is not."""
NOTEBOOK_README = """\
# Lab notebooks

The container starts a notebook server; open http://127.0.0.1:8888 and enter the token it prints.
"""


def test_the_readme_of_the_image_beside_it_with_no_build_of_its_own(tmp_path: Path) -> None:
    files = {"README.md": BENCH_README, "Dockerfile": BENCH}
    assert unheld(tmp_path / "a", files, "README.md", ["Dockerfile"]) == [
        (
            4,
            "README documents the image of Dockerfile (Dashboard served at localhost:9000), but Dockerfile "
            "copies bench_server.sh (line 3), bench_server.py (line 4), which the git checkout holds nowhere "
            "(no file or folder of those names anywhere): the build stops at the first of them",
            "likely",
        )
    ]
    # a word of a name (`nvidia-container-toolkit`) is no word about the image
    toolkit = "# gpubench\n\nYou need:\n\n* nvidia-container-toolkit\n\nSee localhost:9000\n"
    got = unheld(tmp_path / "c", {"README.md": toolkit, "Dockerfile": BENCH}, "README.md", ["Dockerfile"])
    assert [line for line, _, _ in got] == [7]
    files = {
        "lab/README.md": NOTEBOOK_README,
        "lab/Dockerfile": NOTEBOOK,
        "lab/requirements.txt": "jupyterlab\n",
    }
    got = unheld(tmp_path / "b", files, "lab/README.md", ["lab/Dockerfile"])
    assert [(line, conf) for line, _, conf in got] == [(3, "likely")]
    assert "lab/Dockerfile:5 copies start-notebook.sh, which the git checkout holds nowhere" in got[0][1]


SEVERAL = """\
## cuda-tools
Base image with the CUDA build tools and the compilers of the lab

## [mpi](mpi)
Image on top of [cuda-tools](cuda-tools) with the MPI library

## solver
Image on top of mpi with the solver, tested on the cluster
"""
"""A README of several images, each under a heading naming it (the shape of a weather model's container
repository): its first line is about the image of cuda-tools/, not the solver's Dockerfile beside it."""


def test_the_first_line_under_another_image_s_heading_is_no_tie(tmp_path: Path) -> None:
    solver = "FROM lab/mpi:1.0\nCOPY solver/src/tests/case_1 /root/case_1\nADD run_case.sh /run_case.sh\n"
    files = {
        "hpc/README.md": SEVERAL,
        "hpc/Dockerfile": solver,
        "hpc/cuda-tools/Dockerfile": "FROM nvidia/cuda:12.4.0-devel-ubuntu22.04\n",
        "hpc/mpi/Dockerfile": "FROM lab/cuda-tools:1.0\n",
    }
    assert unheld(tmp_path / "a", files, "hpc/README.md", ["hpc/Dockerfile"]) == []
    # the first section about the solver (a heading naming no other image's folder) is still a tie
    files["hpc/README.md"] = SEVERAL.replace("## cuda-tools", "## The solver image").replace(
        "Base image with", "Image with"
    )
    got = unheld(tmp_path / "b", files, "hpc/README.md", ["hpc/Dockerfile"])
    assert [(line, conf) for line, _, conf in got] == [(1, "likely")]


@pytest.mark.parametrize(
    "changes",
    [
        # a copy of some files of the project, not a checkout: any may be left out
        {".git": ""},
        # it pulls the published image, or runs one of an owner, or names Docker Hub
        {"README.md": BENCH_README + "\n```\ndocker pull cloudlab/gpubench:1.2\n```\n"},
        {"README.md": BENCH_README + "\n```\ndocker run --gpus all -p 9000:9000 cloudlab/gpubench\n```\n"},
        {"README.md": BENCH_README + "\nThe image is on Docker Hub.\n"},
        {
            "README.md": BENCH_README
            + "\n* run it with `--gpus`, e.g. `docker run --gpus all cloudlab/gpubench`\n"
        },
        # a build command written as a line of prose: the build's own rules read it
        {"README.md": "docker build -t bench .\ndocker run --rm -p 9000:9000 bench\n"},
        # another's build makes it
        {"README.md": BENCH_README + "\nThe CI workflow builds the image on every tag.\n"},
        # it runs a script first, which may fetch or make the files
        {"README.md": BENCH_README + "\n```\n./fetch_server.sh\n```\n"},
        # the README makes them, or git ignores them
        {"README.md": BENCH_README + "\n```\ncp server/bench_server.sh server/bench_server.py .\n```\n"},
        {".gitignore": "bench_server.*\n"},
        # the Dockerfile is not the README's folder's: the README is the project's, not the image's
        {"README.md": "", "docs/README.md": BENCH_README},
        # a submodule not fetched holds them
        {
            "Dockerfile": BENCH.replace("ADD bench_", "ADD server/bench_"),
            ".gitmodules": '[submodule "server"]\n\tpath = server\n\turl = x\n',
        },
    ],
)
def test_a_readme_of_the_image_that_accounts_for_its_sources(tmp_path: Path, changes: dict[str, str]) -> None:
    files = {"README.md": BENCH_README, "Dockerfile": BENCH, **changes}
    git = ".git" not in files
    readme = "docs/README.md" if "docs/README.md" in files else "README.md"
    files = {k: v for k, v in files.items() if v and k != ".git"}
    assert unheld(tmp_path, files, readme, ["Dockerfile"], git=git) == []


# A build script of the checkout builds two images, each from its own folder; the one copies a file only
# the other's folder holds: `cd a && docker build .` never sees it.

PAIR_BUILD = """\
#!/bin/bash
cd noble_base
docker build -t noble_base:latest -f Dockerfile .
cd ../noble_sim
docker build -t noble_sim:latest -f Dockerfile .
"""
PAIR_README = """\
# Images

```bash
./build.sh
```

Or by hand:
```bash
docker build -t <NAME>:<TAG> <FOLDER>
```
"""
ENTRY = 'COPY entrypoint.sh /\nENTRYPOINT ["/entrypoint.sh"]\n'
PAIR_FILES = {
    "docker/README.md": PAIR_README,
    "docker/build.sh": PAIR_BUILD,
    "docker/noble_base/Dockerfile": "FROM ubuntu:24.04\n" + ENTRY,
    "docker/noble_sim/Dockerfile": "FROM noble_base:latest\n" + ENTRY,
    "docker/noble_sim/entrypoint.sh": '#!/bin/sh\nexec "$@"\n',
}


def test_a_file_only_another_image_folder_holds(tmp_path: Path) -> None:
    dockerfiles = ["docker/noble_base/Dockerfile", "docker/noble_sim/Dockerfile"]
    assert unheld(tmp_path, PAIR_FILES, "docker/README.md", dockerfiles) == [
        (
            4,
            "README builds the images (./build.sh), but docker/noble_base/Dockerfile:2 copies entrypoint.sh, "
            "which the build's context does not hold (not in docker/noble_base/ or a folder above it, "
            "entrypoint.sh is only in docker/noble_sim/, which ./build.sh neither builds from nor copies): "
            "the build stops at that COPY",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "changes",
    [
        # the build script copies it across first
        {
            "docker/build.sh": PAIR_BUILD.replace(
                "cd noble_base\n", "cd noble_base\ncp ../noble_sim/entrypoint.sh .\n"
            )
        },
        # another script of the project makes it
        {"docker/sync.sh": "#!/bin/sh\ncp noble_sim/entrypoint.sh noble_base/\n"},
        # a folder above the Dockerfile's holds it
        {"docker/entrypoint.sh": "#!/bin/sh\n"},
    ],
)
def test_a_file_of_another_folder_the_project_brings(tmp_path: Path, changes: dict[str, str]) -> None:
    files = {**PAIR_FILES, **changes}
    dockerfiles = ["docker/noble_base/Dockerfile", "docker/noble_sim/Dockerfile"]
    assert unheld(tmp_path, files, "docker/README.md", dockerfiles) == []


# A simulator's container kit: its Dockerfile is meant to sit in the docker/ folder of a download of the
# simulator, whose own files (`docker/vk_icd.json`) the build copies.
KIT_DOCKERFILE = (
    "FROM nvcr.io/nvidia/pytorch:22.12-py3\nCOPY docker/vk_icd.json /usr/share/vulkan/icd.d/\n"
    "COPY docker/egl_vendor.json /usr/share/glvnd/egl_vendor.d/\nWORKDIR /opt/simkit\nCOPY . .\n"
)


@pytest.mark.parametrize(
    "step",
    [
        # the download's folder, written from the root with a placeholder
        "Download SimKit 4 and unzip, replace the files (`Dockerfile`, `build.sh`) in `/.../simkit/docker/`.",
        # a clone of another project on the same line, its folder named plainly
        "Clone the rover-sim repository and copy the Dockerfile into rover-sim/docker.",
        "Put these files under `~/src/rover-sim/docker/` and run build.sh there.",
    ],
)
def test_a_dockerfile_the_readme_has_put_in_another_projects_folder(tmp_path: Path, step: str) -> None:
    readme = f"# simkit-container\nContainer for the walker policies (lab/walker)\n\n1. {step}\n2. Build.\n"
    files = {"README.md": readme, "Dockerfile": KIT_DOCKERFILE, "build.sh": "cd ..\ndocker build .\n"}
    assert unheld(tmp_path, files, "README.md", ["Dockerfile"]) == []


def test_a_dockerfile_moved_within_the_repository_still_needs_its_files(tmp_path: Path) -> None:
    # the folder is this repository's own (no download, no path from the root): its copies are checked
    readme = (
        "# simkit-container\nContainer for the walker policies (lab/walker)\n\n"
        "1. Copy the Dockerfile into docker/.\n"
    )
    files = {"README.md": readme, "Dockerfile": KIT_DOCKERFILE, "build.sh": "docker build .\n"}
    got = unheld(tmp_path, files, "README.md", ["Dockerfile"])
    assert [line for line, _, _ in got] == [2]


# A folder source written with its closing slash (`COPY data/ /data`), in the README of the image beside
# it (the shape of a research code release: train in the container, tune a config, run inference
# "through the training pipeline"); a model's pipeline is no one else's build.

SOLVER = """\
FROM nvcr.io/nvidia/pytorch:23.10-py3
WORKDIR /workspace
COPY environment.yml .
COPY data/ /data
COPY scripts/ /workspace/scripts/
"""
"""A research image (the shape of an RL solver's): its environment, a dataset folder, its scripts."""
SOLVER_README = """\
# Contraction solver

## Setup

Use Docker with the Dockerfile of the repository, or conda.

## Inference

Run inference through the training pipeline with zero epochs.
"""


def test_a_folder_source_the_checkout_lacks_under_a_models_pipeline(tmp_path: Path) -> None:
    files = {
        "README.md": SOLVER_README,
        "Dockerfile": SOLVER,
        "environment.yml": "name: solver\n",
        "scripts/train.sh": "",
        "datasets/small.txt": "",
    }
    got = unheld(tmp_path, files, "README.md", ["Dockerfile"])
    assert [(line, conf) for line, _, conf in got] == [(5, "likely")]
    assert "Dockerfile:4 copies data, which the git checkout holds nowhere" in got[0][1]


@pytest.mark.parametrize(
    "changes",
    [
        # the README names the folder: the reader brings it
        {"README.md": SOLVER_README + "\nPut the tensor networks in data/ before the build.\n"},
        # the checkout holds it
        {"data/tn.txt": ""},
        # a CI pipeline builds the image: no build the reader runs
        {"README.md": SOLVER_README + "\nThe CI pipeline builds and pushes the image.\n"},
    ],
)
def test_a_folder_source_accounted_for(tmp_path: Path, changes: dict[str, str]) -> None:
    files = {
        "README.md": SOLVER_README,
        "Dockerfile": SOLVER,
        "environment.yml": "name: solver\n",
        "scripts/train.sh": "",
        **changes,
    }
    assert unheld(tmp_path, files, "README.md", ["Dockerfile"]) == []
