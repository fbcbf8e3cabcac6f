"""`docgen.audit.fetched_copies` with `references.context_misses`: a README's build whose Dockerfile copies
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
        "3 certain README builds ./gpu.Dockerfile with the context ., which does not hold "
        "sdk_12.2.0_535.54_win64.exe (line 8) that it copies, in a git checkout that holds every file"
    ]


def test_a_data_file_a_checkout_lacks_is_found_from_a_build_line_in_prose(tmp_path: Path) -> None:
    readme = "# Sim\n\n### Build the image\n\ndocker build -t lab/sim .\n\ndocker push lab/sim\n"
    files = {"Dockerfile": SIMULATION, "simulate.py": "", ".git/HEAD": ""}
    assert findings(tmp_path, files, readme) == [
        "5 certain README builds ./Dockerfile with the context ., which does not hold 1xyz-clean.pdb "
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
        # a settings file with a folder the context lacks too: a copy of some of the project's files
        {"gpu.Dockerfile": INSTALLER.replace("_win64.exe", "_win64.cfg") + "COPY conf/ /etc/sdk/\n"},
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
    # a literal build arg names the file the build copies; one read from the environment names any
    assert expanded_sources(parsed, "docker build --build-arg DRIVER_VERSION=550 .") == [
        (8, "sdk_12.2.0_550_win64.exe")
    ]
    assert expanded_sources(parsed, "docker build --build-arg DRIVER_VERSION .") == []
    assert expanded_sources(parsed, 'docker build --build-arg "DRIVER_VERSION=$V" .') == []


def test_fetched_kinds_and_told() -> None:
    assert fetched("models/unet.safetensors") and fetched("in/1abc.PDB") and not fetched("app/main.py")
    lines = ["# App", "Fetch the model weights into models/.", "docker build ."]
    assert told(lines, "models/unet.safetensors", 3)
    assert not told(lines, "models/unet.safetensors", 2)
    assert (
        command_at(["docker build \\", "  --build-arg A=1 .", "echo"], 1)
        == "docker build \\   --build-arg A=1 ."
    )


# --- a file the README tells the reader to put in place before the build ------------------------------

SERVER = """\
FROM ubuntu:20.04
COPY ./pkg/fix.patch /opt/
COPY ./pkg/launch.sh /opt/
RUN patch -p1 < /opt/fix.patch
"""
"""An embedding server that copies a patch and a start script from a folder the reader fills (the shape
of an NPU serving image whose README lists the files to put in `package/`)."""

WEIGHTS = """\
FROM python:3.11-slim
COPY serve.py /app/
COPY weights/model.pth /app/weights/
CMD ["python", "/app/serve.py"]
"""
"""A model server that copies its checkpoint from `weights/` (the shape of a README saying `Place the
weights file in ...` before the build)."""


@pytest.mark.parametrize(
    "readme",
    [
        # the names glued to the words of a Chinese step (`将start.sh tei.patch存放到package目录中`)
        "# 部署\n\n1 在Dockerfile同级目录创建pkg目录\n\n2 将launch.sh fix.patch存放到pkg目录中\n\n"
        "3 执行构建命令\ndocker build -t srv .\n",
        # only the folder, with a step putting files there
        "# 部署\n\n1 将补丁和启动脚本放到pkg目录\n\n2 构建\ndocker build -t srv .\n",
        "# Server\n\nPlace launch.sh and fix.patch in the pkg folder, then build:\n\ndocker build -t srv .\n",
    ],
)
def test_in_a_checkout_a_file_put_in_place_before_the_build_is_no_finding(
    tmp_path: Path, readme: str
) -> None:
    files = {"Dockerfile": SERVER, ".git/HEAD": ""}
    assert findings(tmp_path, files, readme) == []


def test_in_a_checkout_a_weights_file_placed_before_the_build_is_no_finding(tmp_path: Path) -> None:
    files = {"Dockerfile": WEIGHTS, "serve.py": "", ".git/HEAD": ""}
    readme = "# Serve\n\nPlace your checkpoint in `weights/` as model.pth.\n\ndocker build -t serve .\n"
    assert findings(tmp_path, files, readme) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the file named only after the build (the shape of a workload README copying its input later)
        "# 部署\n\n1 构建\ndocker build -t srv .\n\n2 将launch.sh fix.patch存放到pkg目录中\n",
        # the folder named before the build, but no step puts anything there
        "# 部署\n\npkg目录说明见下文。\n\ndocker build -t srv .\n",
        "# Server\n\nThe pkg folder is kept small.\n\ndocker build -t srv .\n",
    ],
)
def test_in_a_checkout_a_file_not_put_in_place_before_the_build_is_a_finding(
    tmp_path: Path, readme: str
) -> None:
    files = {"Dockerfile": SERVER, ".git/HEAD": ""}
    found = findings(tmp_path, files, readme)
    assert len(found) == 1 and "pkg/fix.patch (line 2), pkg/launch.sh (line 3)" in found[0], found


# A TensorRT development image whose Dockerfile (CRLF) copies the vendor's tarball from lib/, and an
# OpenVINO runtime image that adds the toolkit archive from packages/: the README of each only builds.
TENSORRT = (
    "FROM nvidia/cuda:12.0.1-cudnn8-devel-ubuntu22.04\r\n"
    "RUN apt-get update && apt-get install -y python3-pip\r\n"
    "WORKDIR /opt/\r\n"
    "COPY lib/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz /opt/\r\n"
    "RUN tar -xvf TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz\r\n"
)
TENSORRT_README = (
    "# Setup\nBuild the image\n```\ndocker build -t trt_dev -f trt.Dockerfile .\n```\n\n"
    "Start a shell\n```\ndocker run --rm -it --gpus all -v $PWD:/workspace trt_dev:latest bash\n```\n"
)
OPENVINO = (
    "FROM ubuntu:22.04\nWORKDIR /tmp\n"
    "ADD packages/l_openvino_toolkit_ubuntu22_2023.3.0.13775_x86_64.tgz /opt/intel/\n"
    'COPY app.py /srv/app.py\nCMD ["python3", "/srv/app.py"]\n'
)
OPENVINO_README = (
    "# Edge inference\n\n## Build\n\n```bash\ndocker build -t edge-infer .\n"
    "docker run --rm -p 8000:8000 edge-infer\n```\n"
)


def test_a_vendor_tarball_the_readme_never_mentions_is_a_finding(tmp_path: Path) -> None:
    files = {"trt.Dockerfile": TENSORRT, "models/yolo.py": ""}
    assert findings(tmp_path, files, TENSORRT_README, "trt.Dockerfile") == [
        "4 likely README builds trt.Dockerfile with the context ., which does not hold "
        "lib/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz (line 4) that it copies, and the README "
        "never says to fetch it"
    ]


def test_a_vendor_toolkit_archive_added_from_its_folder_is_a_finding(tmp_path: Path) -> None:
    files = {"Dockerfile": OPENVINO, "app.py": ""}
    assert findings(tmp_path, files, OPENVINO_README) == [
        "6 likely README builds ./Dockerfile with the context ., which does not hold "
        "packages/l_openvino_toolkit_ubuntu22_2023.3.0.13775_x86_64.tgz (line 3) that it copies, and the "
        "README never says to fetch it"
    ]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # the README tells to download the product, after the build too
        (TENSORRT_README + "\nBefore building, download the TensorRT 8.6 GA tar for Linux.\n", {}),
        # … or to put the tarball in its folder
        ("Put the tarball in `lib/` first.\n\n" + TENSORRT_README, {}),
        # … or links to the vendor's page
        ("Get it at https://developer.nvidia.com/tensorrt\n\n" + TENSORRT_README, {}),
        # … or names the file
        (TENSORRT_README + "\nNeeds TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz.\n", {}),
        # a command of the README fetches it first
        (
            "```\nwget -P lib https://example.com/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz\n```\n"
            + TENSORRT_README,
            {},
        ),
        # it is there
        (TENSORRT_README, {"lib/TensorRT-8.6.1.6.Linux.x86_64-gnu.cuda-12.0.tar.gz": ""}),
        # left out of the repository on purpose
        (TENSORRT_README, {".gitignore": "lib/\n"}),
    ],
)
def test_a_vendor_tarball_the_readme_accounts_for_is_no_finding(
    tmp_path: Path, readme: str, extra: dict[str, str]
) -> None:
    files = {"trt.Dockerfile": TENSORRT, **extra}
    assert findings(tmp_path, files, readme, "trt.Dockerfile") == []


@pytest.mark.parametrize(
    "copied",
    [
        "COPY app.tar.gz /srv/",  # no version: a step may make it
        "COPY dist/app-1.2.0.tar.gz /srv/",  # in a folder a build makes
        "COPY wheels/app-1.2.0-py3-none-any.whl /srv/",  # a wheel the project builds
        "COPY target/app-1.2.0.jar /srv/",  # a jar the project builds
    ],
)
def test_archives_a_build_makes_are_no_finding(tmp_path: Path, copied: str) -> None:
    files = {"Dockerfile": f"FROM ubuntu:22.04\n{copied}\n"}
    assert findings(tmp_path, files, OPENVINO_README) == []


def test_a_vendor_tarball_after_a_download_script_is_no_finding(tmp_path: Path) -> None:
    readme = (
        "# Setup\n1. download the plugins, `python fetch_plugins.py`\n" + TENSORRT_README.split("\n", 1)[1]
    )
    files = {"trt.Dockerfile": TENSORRT}
    assert findings(tmp_path, files, readme, "trt.Dockerfile") == []


# The download step before the build runs a script of the repository that fetches something else.
# Modelled on a ComfyUI-style image (a plugin-cloning script, a release tarball of the app added from a
# folder) and on an SDK image whose model-download script names only model files.
APP_TARBALL = "FROM python:3.11\nARG APP_VERSION=0.4.2\nADD releases/Forge-${APP_VERSION}.tar.gz /srv/\n"
PLUGINS = (
    "import json, subprocess\nfor url in json.load(open('plugins.json')):\n"
    "    subprocess.run(['git', 'clone', url])\n"
)


def test_a_vendor_tarball_after_a_download_script_that_fetches_other_things(tmp_path: Path) -> None:
    readme = "# Forge\n1. download plugins, `python fetch_plugins.py`\n2. build, `docker build -t forge .`\n"
    files = {"Dockerfile": APP_TARBALL, "plugins/fetch_plugins.py": PLUGINS}
    told = (
        "3 likely README builds ./Dockerfile with the context ., which does not hold "
        "releases/Forge-0.4.2.tar.gz (line 3) that it copies, and the README never says to fetch it"
    )
    assert findings(tmp_path / "a", files, readme) == [told]
    # in a git checkout too (an archive is otherwise taken as one a build makes)
    assert findings(tmp_path / "b", files | {".git/HEAD": ""}, readme) == [told]


@pytest.mark.parametrize(
    "script",
    [
        "import urllib.request\nurllib.request.urlretrieve(URL, 'releases/forge.tar.gz')\n",  # its folder
        "# fetches the Forge release\nimport requests\n",  # the product
    ],
)
def test_a_vendor_tarball_after_a_download_script_that_may_fetch_it(tmp_path: Path, script: str) -> None:
    readme = (
        "# Forge\n1. download assets, `python scripts/get_assets.py`\n2. build, `docker build -t forge .`\n"
    )
    files = {"Dockerfile": APP_TARBALL, "scripts/get_assets.py": script, ".git/HEAD": ""}
    assert findings(tmp_path, files, readme) == []
