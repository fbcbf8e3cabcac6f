"""`docgen audit`: a build path written from the folder a README's `git clone` made
(docgen/audit/clone_builds.py), and what a build needs from its context (references.context_findings,
references.context_unpacks, script_builds).

The shapes are modelled on kinds of real README: a Japanese ROS image folder whose numbered list clones
the repository and builds `REPO/ros1/<folder>` in ```` ```bash:bash ```` blocks with `$ ` prompts; a
README copied from another project's folder that still clones that project; a one-file image README
whose Dockerfile untars vendored archives from `COPY . /app`; a web UI image copying a `models` folder;
a `make docker_build` whose recipe builds `-f docker/Dockerfile .`; a Jetson `build.sh` that copies a
key into its folder just before its build.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

ROS_DOCKERFILE = (
    "FROM nvidia/opengl:1.2-glvnd-runtime-ubuntu20.04\nENV ROS_DISTRO=noetic\n"
    "RUN apt-get update && apt-get install -y curl\n"
    'COPY ./entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n'
)


def _findings(tmp_path: Path, files: dict[str, str], readme: str, folder: str = ".") -> list[str]:
    make_tree(tmp_path, files)
    directory = tmp_path / folder
    dockerfile = directory / "Dockerfile"
    models = [build_model(dockerfile, "Dockerfile")] if dockerfile.is_file() else []
    return [
        f"{d.line}: {d.message} ({d.confidence}) [{d.rule}]"
        for d in audit(readme, "README.md", models, {}, directory, tmp_path)
    ]


def _ros_readme(url: str, path: str) -> str:
    return (
        "# Dockerfile for ROS Noetic GPUs\n\n1. ## Build Image\n\n   To clone the current release:\n\n"
        f"   ```bash:bash\n   $ git clone {url}\n   ```\n\n   ROS-Noetic:\n\n"
        f"   ```bash:bash\n   $ docker build -t my/ros:gpu-noetic {path}\n   ```\n"
    )


def test_clone_prefix_own_folder_lacks_copied_file(tmp_path: Path) -> None:
    readme = _ros_readme("https://github.com/kaito/Dockerfile.git", "Dockerfile/ros1/noetic_gpu")
    found = _findings(tmp_path, {"ros1/noetic_gpu/Dockerfile": ROS_DOCKERFILE}, readme, "ros1/noetic_gpu")
    assert [f for f in found if "entrypoint.sh" in f] == [
        "14: README builds Dockerfile/ros1/noetic_gpu/Dockerfile with the context Dockerfile/ros1/noetic_gpu "
        "(this README's folder in the clone Dockerfile/), which does not hold entrypoint.sh (line 4) that it "
        "copies, and no folder of the project has it (certain) [DG102]"
    ]


def test_clone_prefix_own_folder_with_the_file_is_clean(tmp_path: Path) -> None:
    readme = _ros_readme("https://github.com/kaito/Dockerfile.git", "Dockerfile/ros1/noetic_gpu")
    files = {"ros1/noetic_gpu/Dockerfile": ROS_DOCKERFILE, "ros1/noetic_gpu/entrypoint.sh": "#!/bin/sh\n"}
    found = _findings(tmp_path, files, readme, "ros1/noetic_gpu")
    assert not [f for f in found if "clone" in f or "entrypoint" in f]


def test_clone_prefix_own_folder_without_a_dockerfile(tmp_path: Path) -> None:
    readme = (
        "# Dockerfile for ros:melodic_gpu\n\n1. ## Build Image\n    clone:\n    ```bash:bash\n"
        "    git clone https://github.com/mika/rosenv\n    ```\n    build image:\n    ```bash:bash\n"
        "    docker build -t user/ros:melodic rosenv/docker/ros_melodic_gpu\n    ```\n"
    )
    folder = "docker/ros_melodic_gpu"
    found = _findings(tmp_path, {f"{folder}/ref_url.txt": "x\n"}, readme, folder)
    assert [f for f in found if "holds no Dockerfile" in f] == [
        "10: README builds the context rosenv/docker/ros_melodic_gpu (this README's folder in the clone "
        "rosenv/), which holds no Dockerfile: with no -f, docker build reads Dockerfile from the context "
        "(certain) [DG102]"
    ]


FOXY = (
    "FROM nvidia/cuda:11.0-base\nARG ros2_ver=foxy\nRUN apt-get update && apt-get install -y "
    "ros-${ros2_ver}-desktop\n"
)


def _copied_readme(extra: str = "") -> str:
    return (
        "# Dockerfile for ROS2 GPUs\n\n1. ## Build Image\n    To clone the current release:\n"
        "    ```bash:bash\n    $ git clone https://github.com/taro/Dockerfile.git\n    ```\n"
        "    To build ROS-Foxy:\n    ```bash:bash\n"
        "    $ docker build -t my/ros:foxy_gpu Dockerfile/ros2/ROS2_GPU\n"
        f"{extra}    ```\n"
    )


def test_clone_of_another_repository_while_the_dockerfile_beside_is_unbuilt(tmp_path: Path) -> None:
    found = _findings(tmp_path, {"docker/ros2_foxy/Dockerfile": FOXY}, _copied_readme(), "docker/ros2_foxy")
    assert [f for f in found if "clones" in f] == [
        "10: README clones https://github.com/taro/Dockerfile.git and builds Dockerfile/ros2/ROS2_GPU "
        "(ros2/ROS2_GPU in that clone), a path this repository does not have, while the Dockerfile beside "
        "the README (Dockerfile) is built by no command of it: the build reads another repository's files, "
        "not the ones this README documents (likely) [DG103]"
    ]


def test_clone_of_another_repository_traps(tmp_path: Path) -> None:
    # the README builds its own Dockerfile too: the clone is a base it builds first
    own = _copied_readme("    $ docker build -t my/app .\n")
    assert not [f for f in _findings(tmp_path / "a", {"d/Dockerfile": FOXY}, own, "d") if "clones" in f]
    # compose builds the Dockerfile beside the README
    compose = _copied_readme("    $ docker compose up --build\n")
    assert not [f for f in _findings(tmp_path / "b", {"d/Dockerfile": FOXY}, compose, "d") if "clones" in f]
    # the path is one of this repository
    files = {"d/Dockerfile": FOXY, "ros2/ROS2_GPU/Dockerfile": FOXY}
    assert not [f for f in _findings(tmp_path / "c", files, _copied_readme(), "d") if "clones" in f]
    # no Dockerfile beside the README: nothing it documents instead
    assert not [f for f in _findings(tmp_path / "e", {"d/x.txt": ""}, _copied_readme(), "d") if "clones" in f]


def test_checkout_inside_a_folder_of_the_clone_name_is_not_read_here(tmp_path: Path) -> None:
    # the project sits in a folder of the clone's name: the path is found as written
    readme = _ros_readme("https://github.com/kaito/Dockerfile.git", "Dockerfile/ros1/noetic_gpu")
    files = {"Dockerfile/ros1/noetic_gpu/Dockerfile": ROS_DOCKERFILE}
    found = _findings(tmp_path, files, readme, "Dockerfile/ros1/noetic_gpu")
    assert not [f for f in found if "this README's folder in the clone" in f]


SD_DOCKERFILE = (
    "FROM pytorch/pytorch:1.12.1-cuda11.3-cudnn8-runtime\r\n\r\nCOPY . /app\r\n\r\nWORKDIR /app\r\n\r\n"
    "RUN tar -zxvf packages.tar.gz && dpkg -i packages/*\r\n\r\nRUN pip install -r requirements.txt\r\n"
    "RUN mkdir -p /root/.cache && mv checkpoint_aug.pth /root/.cache/\r\n"
)
SD_README = "## sd-docker\r\n\r\n### Build\r\n\r\n```bash\r\ndocker build -t sd-docker .\r\n```\r\n"


def test_run_unpacks_an_archive_the_context_lacks(tmp_path: Path) -> None:
    found = _findings(tmp_path, {"Dockerfile": SD_DOCKERFILE, "requirements.txt": "torch\n"}, SD_README)
    assert [f for f in found if "unpacks" in f] == [
        "6: README builds ./Dockerfile with the context ., which does not hold packages.tar.gz (line 7) that "
        "it unpacks or moves from its copy of the context, and the README never says to fetch or make it "
        "(likely) [DG102]"
    ]


def test_run_unpacks_traps(tmp_path: Path) -> None:
    files = {"Dockerfile": SD_DOCKERFILE}
    # the README downloads the archive before the build
    fetched = SD_README.replace("```bash\r\n", "```bash\r\nwget https://example.org/packages.tar.gz\r\n")
    assert not [f for f in _findings(tmp_path / "a", files, fetched) if "unpacks" in f]
    # the archive is there
    there = {**files, "packages.tar.gz": "x"}
    assert not [f for f in _findings(tmp_path / "b", there, SD_README) if "unpacks" in f]
    # git ignores it: a file the reader makes
    ignored = {**files, ".gitignore": "*.tar.gz\n"}
    assert not [f for f in _findings(tmp_path / "c", ignored, SD_README) if "unpacks" in f]
    # a RUN that downloads it first
    run = "RUN wget https://x/p.tar.gz && tar xzf p.tar.gz\n"
    downloads = {"Dockerfile": f"FROM ubuntu\nCOPY . /app\nWORKDIR /app\n{run}"}
    assert not [f for f in _findings(tmp_path / "d", downloads, SD_README) if "unpacks" in f]


def test_run_unpacks_a_vendor_package_after_the_copy(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nWORKDIR /opt/src\nCOPY . .\nRUN dpkg -i ./nvidia-driver-local.deb\n"
    readme = "# Driver image\n\n```sh\ndocker build -t drv .\n```\n"
    found = _findings(tmp_path, {"Dockerfile": dockerfile}, readme)
    assert [f for f in found if "unpacks" in f] == [
        "4: README builds ./Dockerfile with the context ., which does not hold nvidia-driver-local.deb "
        "(line 4) that it unpacks or moves from its copy of the context, and the README never says to "
        "fetch or make it (likely) [DG102]"
    ]


WEBUI = "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\nWORKDIR /app\nCOPY ./models /app/webui/models\n"


def test_copied_folder_of_its_own_name_is_missing(tmp_path: Path) -> None:
    readme = "docker build --no-cache -t webui .\n\ndocker run --gpus all -p 7860:7860 webui\n"
    found = _findings(tmp_path, {"Dockerfile": WEBUI}, readme)
    assert [f for f in found if "models" in f] == [
        "1: README builds ./Dockerfile with the context ., which does not hold models/ (line 3) that it "
        "copies, and no folder of the project has it (likely) [DG102]"
    ]


def test_copied_folder_the_readme_makes_is_not_told(tmp_path: Path) -> None:
    readme = "```sh\nmkdir models\ncp ~/weights/*.safetensors models/\ndocker build -t webui .\n```\n"
    assert not [f for f in _findings(tmp_path, {"Dockerfile": WEBUI}, readme) if "models" in f]


ISEG = (
    "FROM nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04\nWORKDIR /root\n"
    "COPY requirements_apt.txt requirements_apt.txt\nRUN apt-get update\n"
    "COPY requirements_pip.txt requirements_pip.txt\nRUN pip install -r requirements_pip.txt\n"
)


def test_make_build_from_the_root_of_a_dockerfile_written_for_its_folder(tmp_path: Path) -> None:
    files = {
        "Makefile": "docker_build:\n\tdocker build -t iseg:latest -f docker/Dockerfile .\n",
        "docker/Dockerfile": ISEG,
        "docker/requirements_pip.txt": "torch\n",
    }
    readme = "# iseg\n\n2) Build docker image\n```\nmake docker_build\n```\n"
    found = _findings(tmp_path, files, readme)
    assert [f for f in found if "make docker_build" in f] == [
        "5: README runs make docker_build, whose recipe (Makefile:2) builds docker/Dockerfile with the "
        "context ., which holds none of what it copies: requirements_pip.txt (line 5) is in docker/; "
        "requirements_apt.txt (line 3) is in no folder of the project (likely) [DG103]"
    ]


def test_make_build_of_a_partial_copy_is_not_told(tmp_path: Path) -> None:
    # nothing beside the Dockerfile either: a copy that lacks those files, not a wrong context
    files = {"Makefile": "build:\n\tdocker build -f docker/Dockerfile .\n", "docker/Dockerfile": ISEG}
    readme = "# iseg\n\n```\nmake build\n```\n"
    assert not [f for f in _findings(tmp_path, files, readme) if "holds none of what it copies" in f]


JETSON = "FROM nvcr.io/nvidia/l4t-base:r32.4.3\nCOPY jetson-ota-public.asc /etc/apt/trusted.gpg.d/\n"


def test_script_copies_a_file_into_its_folder_before_its_build(tmp_path: Path) -> None:
    script = (
        "TAG=bot:base\n\ncp /etc/apt/trusted.gpg.d/jetson-ota-public.asc ./\n\nsudo docker build -t $TAG .\n"
    )
    readme = "## Build\n\n```bash\n./build.sh\n```\n"
    found = _findings(tmp_path, {"Dockerfile": JETSON, "build.sh": script}, readme)
    assert not [f for f in found if "jetson-ota-public.asc" in f]


def test_script_copies_the_file_only_after_its_build(tmp_path: Path) -> None:
    script = "sudo docker build -t bot:base .\ncp /etc/apt/trusted.gpg.d/jetson-ota-public.asc ./\n"
    readme = "## Build\n\n```bash\n./build.sh\n```\n"
    found = _findings(tmp_path, {"Dockerfile": JETSON, "build.sh": script}, readme)
    assert [f for f in found if "jetson-ota-public.asc" in f]
