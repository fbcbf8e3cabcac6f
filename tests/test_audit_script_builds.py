"""`docgen audit`: the `docker build` of a script a README runs, followed from where the README runs it
(docgen/audit/script_builds.py): build args the Dockerfile does not declare, a context lacking what the
Dockerfile copies or installs."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = """\
ARG TORCH="2.1"
FROM pytorch/pytorch:${TORCH}-devel
ARG TOOLKIT
RUN echo $TOOLKIT
COPY . /workspace/app
WORKDIR /workspace/app
RUN pip install -r requirements.txt
RUN pip install -e .
"""
BUILD = """\
#!/bin/sh
if [ $# != 1 ]; then
    echo "usage: $0 <version>"
    exit 1
fi
version=$1
docker build -t segkit:${version} \\
             --build-arg USER_ID=$(id -u) \\
             --build-arg SEGKIT_RELEASE=v${version} \\
             --build-arg TORCH=2.2 \\
             .
"""
README = "# Segkit image\n\nBuild it:\n\n```\n./make_image.sh 1.4.0\n```\n"


def found(
    root: Path,
    files: dict[str, str],
    readme_at: str = "docker/README.md",
    dockerfile: str = "docker/Dockerfile",
) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    readme = files[readme_at]
    folder = (root / readme_at).parent
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, readme_at, model, {}, folder, root)
        if "whose docker build" in d.message or "which builds" in d.message
    ]


def tree(**changes: str) -> dict[str, str]:
    files = {
        "docker/README.md": README,
        "docker/make_image.sh": BUILD,
        "docker/Dockerfile": APP,
        "setup.py": "from setuptools import setup\nsetup()\n",
        "requirements.txt": "numpy\n",
    }
    files.update(changes)
    return {k: v for k, v in files.items() if v}


def test_build_args_the_scripts_dockerfile_does_not_declare(tmp_path: Path) -> None:
    args = [f for f in found(tmp_path, tree()) if "--build-arg" in f[1]]
    assert args == [
        (
            6,
            "README runs ./make_image.sh, whose docker build (make_image.sh:7) passes --build-arg "
            "SEGKIT_RELEASE, but Dockerfile declares no such ARG in any stage: the build leaves it unused",
            "certain",
        )
    ]


def test_args_the_script_gives_itself_are_silent(tmp_path: Path) -> None:
    # the script's own values (`CUDNN=8`, `OS=ubuntu20.04` for a Dockerfile reading CUDNN_VERSION, a
    # host value `$(id -u)`): BuildKit warns and builds; the README's `./build.sh` claims nothing of them
    build = (
        "#!/bin/bash\ndocker build \\\n    --tag vision-cuda:latest \\\n    --build-arg CUDNN=8 \\\n"
        "    --build-arg OS=ubuntu20.04 \\\n    --build-arg USER_ID=$(id -u) \\\n"
        "    --build-arg TORCH=2.2 \\\n    .\n"
    )
    readme = "# Vision\n\n1. Run `./build.sh` to build the image.\n\n```\n./build.sh\n```\n"
    files = tree(**{"docker/make_image.sh": "", "docker/build.sh": build, "docker/README.md": readme})
    assert [f for f in found(tmp_path / "a", files) if "--build" in f[1]] == []
    # one the README names is its claim: the README tells what CUDNN sets
    said = readme + "\nSet `CUDNN` in build.sh to pick the cuDNN release.\n"
    files["docker/README.md"] = said
    [(_, message, _)] = [f for f in found(tmp_path / "b", files) if "--build" in f[1]]
    assert "passes --build-arg CUDNN, but Dockerfile declares no such ARG" in message
    # one fed from a variable the README sets on the command line
    build_env = "#!/bin/sh\ndocker build --build-arg OPENCV=$OPENCV_RELEASE -t cvlab .\n"
    env_readme = "# cvlab\n\n```\nOPENCV_RELEASE=4.9.0 ./build.sh\n```\n"
    files = tree(**{"docker/make_image.sh": "", "docker/build.sh": build_env, "docker/README.md": env_readme})
    [(_, message, _)] = [f for f in found(tmp_path / "c", files) if "--build" in f[1]]
    assert "passes --build-arg OPENCV, but Dockerfile declares no such ARG" in message


def test_an_arg_set_from_the_scripts_arguments_through_a_variable(tmp_path: Path) -> None:
    build = '#!/bin/bash\nrelease="${1:-2.0}"\ndocker build --build-arg LIB_RELEASE=$release -t lib .\n'
    files = tree(**{"docker/make_image.sh": build, "docker/README.md": README})
    [(_, message, _)] = [f for f in found(tmp_path, files) if "--build" in f[1]]
    assert "passes --build-arg LIB_RELEASE, but Dockerfile declares no such ARG" in message


def test_one_undeclared_arg(tmp_path: Path) -> None:
    build = BUILD.replace("--build-arg USER_ID=$(id -u) \\\n", "").replace("TORCH=2.2", "TOOLKIT=12")
    files = tree(**{"docker/make_image.sh": build})
    [(_, message, _)] = [f for f in found(tmp_path, files) if "--build" in f[1]]
    assert "passes --build-arg SEGKIT_RELEASE, but Dockerfile declares no such ARG in any stage" in message


def test_declared_predefined_and_proxy_args_are_silent(tmp_path: Path) -> None:
    # declared before the first FROM (TORCH) or in a stage (TOOLKIT), predefined, proxies, BuildKit's own
    build = (
        "#!/bin/bash\ndocker build --build-arg TORCH=2.2 --build-arg TOOLKIT=12 "
        "--build-arg HTTP_PROXY=$http_proxy "
        "--build-arg https_proxy --build-arg TARGETARCH=amd64 --build-arg BUILDKIT_INLINE_CACHE=1 -t app .\n"
    )
    assert [f for f in found(tmp_path, tree(**{"docker/make_image.sh": build})) if "--build" in f[1]] == []


def test_args_of_another_dockerfile_named_by_f(tmp_path: Path) -> None:
    build = "#!/bin/bash\ndocker build -f Dockerfile.cpu --build-arg SEGKIT_RELEASE=v$1 -t app .\n"
    other = "FROM python:3.11\nARG SEGKIT_RELEASE\nRUN pip install segkit==$SEGKIT_RELEASE\n"
    files = tree(**{"docker/make_image.sh": build, "docker/Dockerfile.cpu": other})
    assert [f for f in found(tmp_path, files) if "--build" in f[1]] == []
    # the same build of a Dockerfile.cpu that does not declare it is told, naming that file
    files["docker/Dockerfile.cpu"] = "FROM python:3.11\nRUN pip install segkit\n"
    [(_, message, _)] = [f for f in found(tmp_path / "b", files) if "--build" in f[1]]
    assert "passes --build-arg SEGKIT_RELEASE, but Dockerfile.cpu declares no such ARG" in message


def test_hidden_dockerfiles_and_unknown_folders_are_silent(tmp_path: Path) -> None:
    scripts = [
        # the Dockerfile in a variable the script does not give a literal
        '#!/bin/bash\nDOCKERFILE="$2"\ndocker build -f "$DOCKERFILE" --build-arg SEGKIT_RELEASE=v$1 .\n',
        # a `cd` to a folder not known
        "#!/bin/bash\ncd $WORKSPACE\ndocker build --build-arg SEGKIT_RELEASE=v$1 .\n",
        # the script writes the Dockerfile it builds
        "#!/bin/bash\nsed -i s/X/Y/ Dockerfile\ndocker build --build-arg SEGKIT_RELEASE=v$1 .\n",
        # only shown
        '#!/bin/bash\necho "docker build --build-arg SEGKIT_RELEASE=v$1 ."\n'
        "# docker build --build-arg X=1 .\n",
        # not a shell script
        "import os\nos.system('docker build --build-arg SEGKIT_RELEASE=v$1 .')\n",
    ]
    for index, script in enumerate(scripts):
        files = tree(**{"docker/make_image.sh": script})
        assert [f for f in found(tmp_path / str(index), files) if "--build" in f[1]] == [], script


def test_a_literal_variable_names_the_dockerfile(tmp_path: Path) -> None:
    build = '#!/bin/bash\nFILE=Dockerfile.cpu\ndocker build -f "${FILE}" --build-arg SEGKIT_RELEASE=v$1 .\n'
    files = tree(**{"docker/make_image.sh": build, "docker/Dockerfile.cpu": "FROM python:3.11\n"})
    [(_, message, _)] = [f for f in found(tmp_path, files) if "--build" in f[1]]
    assert "Dockerfile.cpu declares no such ARG" in message


def test_a_script_that_enters_its_own_folder_first(tmp_path: Path) -> None:
    # run from the root, the script moves to docker/ (its own folder) then to the root: `-f docker/Dockerfile`
    build = (
        '#!/bin/bash\ncd "$(dirname "$0")/.."\n'
        "docker build -f docker/Dockerfile --build-arg SEGKIT_RELEASE=v$1 --build-arg TOOLKIT=1 .\n"
    )
    readme = "# Segkit\n\n```\n./docker/make_image.sh\n```\n"
    files = tree(**{"docker/make_image.sh": build, "README.md": readme, "docker/README.md": ""})
    [(_, message, _)] = [f for f in found(tmp_path, files, readme_at="README.md") if "--build" in f[1]]
    assert "whose docker build (docker/make_image.sh:3) passes --build-arg SEGKIT_RELEASE, but " in message
    assert "docker/Dockerfile declares no such ARG" in message


def test_an_arg_the_dockerfile_beside_the_script_declares_is_silent(tmp_path: Path) -> None:
    # run from the root, `docker build .` reads the root's Dockerfile; the script's own folder's declares it
    build = "#!/bin/bash\ndocker build --build-arg SEGKIT_RELEASE=v$1 -t app .\n"
    readme = "# Segkit\n\n```\n./docker/make_image.sh\n```\n"
    files = tree(
        **{
            "docker/make_image.sh": build,
            "README.md": readme,
            "docker/README.md": "",
            "Dockerfile": "FROM python:3.11\n",
            "docker/Dockerfile": APP.replace("ARG TOOLKIT", "ARG SEGKIT_RELEASE"),
        }
    )
    assert [f for f in found(tmp_path, files, readme_at="README.md") if "--build" in f[1]] == []


def context_claims(root: Path, files: dict[str, str], readme_at: str = "docker/README.md") -> list[str]:
    dockerfile = readme_at.replace("README.md", "Dockerfile")
    return [f"{n} {message} ({level})" for n, message, level in found(root, files, readme_at, dockerfile)]


def test_a_context_that_lacks_what_the_copy_installs(tmp_path: Path) -> None:
    # the script builds from docker/ (where the README runs it); requirements.txt and setup.py are at the root
    build = "#!/bin/sh\ndocker build --build-arg TOOLKIT=1 -t segkit .\n"
    assert context_claims(tmp_path, tree(**{"docker/make_image.sh": build})) == [
        "6 README runs ./make_image.sh, whose docker build (make_image.sh:2) builds Dockerfile with the "
        "context . (docker/, the README's folder), which does not hold requirements.txt (line 7), "
        "setup.py or pyproject.toml (line 8) that it installs from its copy of the context "
        "(are in ../) (likely)"
    ]


def test_a_docker_folder_with_no_project_anywhere_is_told(tmp_path: Path) -> None:
    # a copy of the docker/ folder only: it is kept for container files, it holds no project
    build = "#!/bin/sh\ndocker build -t segkit .\n"
    files = tree(**{"docker/make_image.sh": build, "setup.py": "", "requirements.txt": ""})
    [claim] = context_claims(tmp_path, files)
    assert claim.endswith(
        "setup.py or pyproject.toml (line 8) that it installs from its copy of the context (likely)"
    )
    # another folder name with nothing above: a partial copy, no claim
    moved = {k.replace("docker/", "deploy/"): v for k, v in files.items()}
    assert context_claims(tmp_path / "b", moved, readme_at="deploy/README.md") == []


def test_contexts_that_hold_the_project_are_silent(tmp_path: Path) -> None:
    scripts = {
        # the script enters the root itself
        "own": '#!/bin/bash\ncd "$(dirname "$0")/.."\ndocker build -f docker/Dockerfile -t segkit .\n',
        # the context is the root, given as `..`
        "up": "#!/bin/bash\ndocker build -f Dockerfile -t segkit ..\n",
        # the context in a variable the script does not give a literal
        "var": '#!/bin/bash\ndocker build -t segkit "$ROOT"\n',
    }
    for name, script in scripts.items():
        assert context_claims(tmp_path / name, tree(**{"docker/make_image.sh": script})) == [], name


def test_installs_the_dockerfile_does_not_read_from_the_copy_are_silent(tmp_path: Path) -> None:
    build = "#!/bin/sh\ndocker build -t segkit .\n"
    dockerfiles = {
        # a clone, not the copy, is installed
        "clone": "FROM python:3.11\nCOPY . /src\nWORKDIR /opt\nRUN git clone https://example.org/segkit.git\n"
        "WORKDIR /opt/segkit\nRUN pip install -e .\n",
        # the copy is not the whole context
        "part": "FROM python:3.11\nCOPY entry.sh /app/\nWORKDIR /app\nRUN pip install -r requirements.txt\n",
        # a step makes the file first
        "made": "FROM python:3.11\nCOPY . /app\nWORKDIR /app\nRUN wget https://example.org/requirements.txt "
        "&& pip install -r requirements.txt\n",
        # an absolute requirements file of the image
        "abs": "FROM python:3.11\nCOPY . /app\nWORKDIR /app\nRUN pip install -r /opt/requirements.txt\n",
        # another stage's folder
        "stage": "FROM python:3.11 AS a\nCOPY . /app\nFROM python:3.11\nWORKDIR /app\nRUN pip install .\n",
    }
    for name, dockerfile in dockerfiles.items():
        files = tree(
            **{"docker/make_image.sh": build, "docker/Dockerfile": dockerfile, "docker/entry.sh": "x"}
        )
        assert context_claims(tmp_path / name, files) == [], name


def test_the_copy_into_the_workdir_given_first(tmp_path: Path) -> None:
    build = "#!/bin/sh\ndocker build -t segkit .\n"
    dockerfile = (
        "FROM python:3.11\nWORKDIR /srv/app\nCOPY . .\nRUN pip3 install --no-cache-dir -r requirements.txt\n"
    )
    files = tree(**{"docker/make_image.sh": build, "docker/Dockerfile": dockerfile})
    [claim] = context_claims(tmp_path, files)
    assert (
        "which does not hold requirements.txt (line 4) that it installs from its copy of the context "
        "(is in ../)" in claim
    )
    files["docker/requirements.txt"] = "numpy\n"
    assert context_claims(tmp_path / "b", files) == []


def test_a_copied_source_the_scripts_context_lacks(tmp_path: Path) -> None:
    # as for a README's own build: the context holds none of what the Dockerfile copies, all in the root
    build = "#!/bin/sh\ndocker build -f Dockerfile -t segkit .\n"
    dockerfile = "FROM python:3.11\nCOPY segkit /app/segkit\nCOPY setup.py /app/\n"
    files = tree(
        **{"docker/make_image.sh": build, "docker/Dockerfile": dockerfile, "segkit/__init__.py": "x"}
    )
    [claim] = context_claims(tmp_path, files)
    assert claim.startswith(
        "6 README runs ./make_image.sh, whose docker build (make_image.sh:2) builds Dockerfile"
    )
    assert "which holds none of what it copies: segkit (line 2), setup.py (line 3) are in ../" in claim


def test_long_lines_cost_their_length(tmp_path: Path) -> None:
    import time

    build = "#!/bin/sh\necho " + "> " * 100_000 + "\n" + "cd " + "a;" * 100_000 + "\ndocker build -t x .\n"
    started = time.monotonic()
    assert [f for f in found(tmp_path, tree(**{"docker/make_image.sh": build})) if "--build" in f[1]] == []
    assert time.monotonic() - started < 20


ASCEND = """\
FROM ubuntu:22.04
WORKDIR /home/AscendWork
COPY ./data /tmp
COPY ./run.sh ./run.sh
COPY ./requirements.txt /tmp/requirements.txt
RUN pip install -r /tmp/requirements.txt
CMD bash /home/AscendWork/run.sh
"""
"""An NPU toolkit image (the shape of an Ascend CANN one): the vendor's installers in data/, which the
reader fills and git ignores, then a start script and the requirements from the build's folder."""
ASCEND_BUILD = """\
#!/bin/bash
soc_version=310b
if [ ! -d "data" ]; then
    mkdir data
fi
docker build -t ascend-${soc_version}:latest . -f Dockerfile
"""


def prose_claims(root: Path, readme: str, **extra: str) -> list[tuple[int, str, str]]:
    files = {"README.md": readme, "build.sh": ASCEND_BUILD, "Dockerfile": ASCEND, ".gitignore": "data/\n"}
    return found(root, {**files, **extra}, "README.md", "Dockerfile")


@pytest.mark.parametrize(
    "sentence",
    [
        # the name between the characters of a Chinese sentence, no space around it
        "5. 运行build.sh，开始编译docker镜像。编译成功后，可以得到一个docker镜像。",
        "Run build.sh to make the image.",
        "Then run the `build.sh` script.",
    ],
)
def test_a_script_a_sentence_runs_by_its_bare_name(tmp_path: Path, sentence: str) -> None:
    readme = f"# Ascend image\n\nPut the CANN installers in data/.\n\n{sentence}\n"
    assert prose_claims(tmp_path, readme) == [
        (
            5,
            "README runs build.sh, whose docker build (build.sh:6) builds Dockerfile with the context . "
            f"({tmp_path.name}/, the README's folder), which does not hold run.sh (line 4), "
            "requirements.txt (line 5) that it copies, and no folder of the project has them",
            "certain",  # two files of the context's top: the build stops at the first
        )
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Run build.sh inside the container to rebuild the kernels.",  # the image's script
        "Run make.sh to make the image.",  # a script the folder does not hold
        "The build.sh script builds the image.",  # no word telling to run it
    ],
)
def test_sentences_that_run_no_script_of_the_folder_are_silent(tmp_path: Path, sentence: str) -> None:
    assert prose_claims(tmp_path, f"# Ascend image\n\n{sentence}\n") == []


def test_a_prose_run_whose_context_holds_what_it_copies(tmp_path: Path) -> None:
    readme = "# Ascend image\n\nRun build.sh to make the image.\n"
    assert prose_claims(tmp_path, readme, **{"run.sh": "#!/bin/sh\n", "requirements.txt": "numpy\n"}) == []


def test_a_build_script_with_no_suffix_builds_another_dockerfile_than_the_text_says(tmp_path: Path) -> None:
    build = "DOCKERFILE='gpu.Dockerfile'\nTAG='me/dl'\ndocker build --rm -t \"$TAG\" -f \"$DOCKERFILE\" .\n"
    readme = (
        "# dl image\n\n1. Build docker image based on Dockerfile. You can edit the name in this file.\n"
        "```shell\n./build\n```\n"
    )
    plain = 'FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y zsh\nCMD ["zsh"]\n'
    gpu = "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\nRUN apt-get update && apt-get install -y git\n"
    files = {"README.md": readme, "build": build, "Dockerfile": plain, "gpu.Dockerfile": gpu}
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / name, name) for name in ("Dockerfile", "gpu.Dockerfile")]
    said = [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", models, {}, tmp_path, tmp_path)
        if "builds the image from" in d.message
    ]
    assert said == [
        (
            3,
            "README says ./build builds the image from Dockerfile, but its docker build (build:3) builds "
            "gpu.Dockerfile",
            "likely",
        )
    ]
    # the sentence names the very Dockerfile the script builds, or none: nothing to say
    for sentence in ("Build the image from gpu.Dockerfile.", "Build the docker image."):
        text = readme.replace(
            "Build docker image based on Dockerfile. You can edit the name in this file.", sentence
        )
        make_tree(tmp_path, {"README.md": text})
        assert not [
            d
            for d in audit(text, "README.md", models, {}, tmp_path, tmp_path)
            if "builds the image from" in d.message
        ]
    # a script file with another program's `#!` line is not the shell's
    make_tree(
        tmp_path,
        {"build": "#!/usr/bin/env python3\nimport os\nos.system('docker build -f gpu.Dockerfile .')\n"},
    )
    assert not [
        d
        for d in audit(readme, "README.md", models, {}, tmp_path, tmp_path)
        if "builds the image from" in d.message
    ]


SERVER = """\
FROM nvcr.io/nvidia/pytorch:23.01-py3
ENV TZ=Europe/Berlin
COPY . /edge-server/
RUN bash /edge-server/setup/install_base.sh
RUN bash /edge-server/setup/install_codec_*.sh
"""


def test_scripts_a_run_takes_from_the_copy_of_the_context(tmp_path: Path) -> None:
    # modelled on an edge-server image: the context copied whole, then scripts of a folder it lacks run
    build = "#!/bin/bash\nIMAGE=edge/server\ndocker build -t $IMAGE:1 .\n"
    files = {
        "server/README.md": "# Edge server\n\n```bash\nbash build.sh\n```\n",
        "server/build.sh": build,
        "server/Dockerfile": SERVER,
        "setup/install_base.sh": "apt-get install -y curl\n",  # at the root, not in the context
    }
    [claim] = context_claims(tmp_path, files, readme_at="server/README.md")
    assert claim == (
        "4 README runs build.sh, whose docker build (build.sh:3) builds Dockerfile with the context . "
        "(server/, the README's folder), which does not hold setup/install_base.sh (line 4), "
        "setup/install_codec_*.sh (line 5) that it runs from its copy of the context (likely)"
    )
    # the context holds them (the glob matches one file): no claim
    files["server/setup/install_base.sh"] = "true\n"
    files["server/setup/install_codec_h264.sh"] = "true\n"
    assert context_claims(tmp_path / "b", files, readme_at="server/README.md") == []


def test_scripts_a_step_makes_or_the_image_holds_are_silent(tmp_path: Path) -> None:
    build = "#!/bin/sh\ndocker build -t tracker .\n"
    dockerfiles = {
        # a clone of another project brings the script first: the stage is no longer read
        "clone": "FROM python:3.11\nCOPY . /srv\nWORKDIR /srv\nRUN git clone https://example.org/t.git\n"
        "RUN bash /srv/t/setup.sh\n",
        # a script of the base image, outside the copy
        "base": "FROM python:3.11\nCOPY . /srv\nRUN bash /opt/conda/setup.sh\n",
        # the script copied on its own, not through the whole context
        "own": "FROM python:3.11\nCOPY setup.sh /srv/setup.sh\nRUN bash /srv/setup.sh\n",
        # a download writes it
        "fetched": "FROM python:3.11\nCOPY . /srv\nRUN wget -O /srv/get.sh https://example.org/get.sh\n"
        "RUN bash /srv/get.sh\n",
    }
    for name, dockerfile in dockerfiles.items():
        files = {
            "docker/README.md": "# Tracker\n\n```\nsh build.sh\n```\n",
            "docker/build.sh": build,
            "docker/Dockerfile": dockerfile,
            "docker/setup.sh": "true\n",
        }
        assert context_claims(tmp_path / name, files) == [], name


def test_a_copy_finding_names_what_the_copy_of_the_context_lacks_too(tmp_path: Path) -> None:
    # modelled on a Jetson tracker: two apt files copied from a folder that is gone, and a requirements
    # file installed from the whole copy that is gone too: one finding names them all
    dockerfile = (
        "FROM nvcr.io/nvidia/l4t-base:r32.5.0\nWORKDIR /app\nCOPY . ./\n"
        "COPY /apt/jetson.list /etc/apt/sources.list.d/jetson.list\n"
        "RUN apt-get update && apt-get install -y git unzip python3-pip\n"
        "RUN pip3 install -U pip && pip3 install -r requirements.txt\n"
    )
    files = {
        "README.md": "# Tracker\n\n```\nsh build-image.sh\n\nsudo docker run -it tracker_img\n```\n",
        "build-image.sh": "sudo docker build -t tracker_img .\n",
        "Dockerfile": dockerfile,
    }
    [claim] = context_claims(tmp_path, files, readme_at="README.md")
    assert "apt/jetson.list (line 4) that it copies" in claim
    assert claim.endswith(
        "; nor does it hold requirements.txt (line 6) that it installs from its copy of the context (certain)"
    )
    files["requirements.txt"] = "numpy\n"
    [claim] = context_claims(tmp_path / "b", files, readme_at="README.md")
    assert "requirements.txt" not in claim
