"""`docgen audit`: a script a README runs inside the container from the working folder that belongs to
a repository the image clones below that folder (docgen/audit/clone_scripts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# modelled on a Jetson detection image: a clone at the base's working folder, no WORKDIR, the test
# command quoted in a sentence
JETSON = """\
FROM nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3
# fetch the segmenter
RUN git clone https://github.com/acme/segnext
RUN pip3 install pillow tqdm
"""
SENTENCE = """\
# Segmenter for Jetson

# Docker run
Run "docker run --rm -it --runtime nvidia -v /path/to/data:/data seg_image".

# Try it
Once you are inside of the docker container, you can try segnext with: "python3 infer.py --image ./cat.jpg"
"""
# modelled on a tracking workbench: WORKDIR written out, the clone below it, a block after `docker run -it`
WORKBENCH = """\
FROM nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04
WORKDIR /workspace
RUN git clone --depth 1 https://github.com/acme/TrackFormerX.git
RUN pip install -r TrackFormerX/requirements.txt
"""
BLOCK = """\
# Tracking

## Run TrackFormerX

```bash
docker run --gpus all -it --rm tracker
python tools/track.py --video demo.mp4
```
"""


def found(
    root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "is not in its working folder" in d.message
    ]


def test_a_quoted_run_of_a_script_of_the_clone(tmp_path: Path) -> None:
    assert found(tmp_path, SENTENCE, JETSON) == [
        (
            7,
            "README runs python3 infer.py inside the container, but infer.py is not in its working folder: "
            "Dockerfile:3 clones segnext into segnext/, and the container starts in the base image's "
            "working folder (did you mean cd segnext first?)",
            "likely",
        )
    ]


def test_a_block_after_docker_run(tmp_path: Path) -> None:
    assert [(line, message.split(": ", 1)[1]) for line, message, _ in found(tmp_path, BLOCK, WORKBENCH)] == [
        (
            7,
            "Dockerfile:3 clones TrackFormerX into /workspace/TrackFormerX, and the container starts in "
            "/workspace (did you mean cd TrackFormerX first?)",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (SENTENCE, JETSON + "WORKDIR /segnext\n"),  # WORKDIR into the clone
        (SENTENCE, JETSON.replace("/segnext", "/segnext /opt/segnext")),  # an absolute clone
        (SENTENCE, JETSON.replace("RUN git clone", "RUN cd /opt && git clone")),  # a `cd` first
        (SENTENCE, JETSON + "COPY . .\n"),  # the context copied: may hold the script
        (SENTENCE, JETSON + 'ENTRYPOINT ["/entry.sh"]\n'),  # an entrypoint may move the shell
        (SENTENCE, JETSON + 'CMD ["bash", "-c", "cd segnext && bash"]\n'),  # so may a CMD
        (SENTENCE, JETSON + "RUN cp segnext/infer.py .\n"),  # a RUN names the script
        (SENTENCE, JETSON.replace("nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3", "acme/segnext:base")),
        (SENTENCE.replace("you can try segnext with", "you can try it with"), JETSON),  # no tie to the clone
        (SENTENCE.replace("inside of the docker container", "in the repository"), JETSON),  # not said inside
        (SENTENCE.replace('"python3', '"cd segnext && python3'), JETSON),  # the README moves first
        (SENTENCE.replace("infer.py", "segnext/infer.py"), JETSON),  # the path goes through the clone
        (BLOCK.replace("python tools", "cd TrackFormerX\npython tools"), WORKBENCH),  # a `cd` in the block
        (BLOCK.replace("-it --rm", "-it -w /workspace/TrackFormerX --rm"), WORKBENCH),  # a `-w`
        (BLOCK.replace("-it --rm", "-it -v $PWD:/workspace --rm"), WORKBENCH),  # a mount of the folder
        (BLOCK.replace("-it --rm", "--rm"), WORKBENCH),  # no shell opened: the host's
        (BLOCK.replace("TrackFormerX", "tools"), WORKBENCH.replace("TrackFormerX", "tools")),  # a word
    ],
)
def test_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


def test_a_copied_script_of_that_name(tmp_path: Path) -> None:
    dockerfile = JETSON + "COPY infer.py /opt/\n"
    assert found(tmp_path, SENTENCE, dockerfile, {"infer.py": "print('hi')\n"}) == []


# modelled on a point-cloud reconstruction image: the project cloned below the workspace, entered to
# install it, then the workspace set again; the README's runs under a lead-in and bold labels
RECON = """\
FROM nvidia/cuda:12.4.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git python3-pip
WORKDIR /workspace
RUN git clone https://github.com/acme/QuickRecon
WORKDIR /workspace/QuickRecon
RUN pip install -r requirements.txt
COPY helpers/run_scene.sh /workspace/run_scene.sh
WORKDIR /workspace
CMD ["sleep", "infinity"]
"""
LEAD_IN = """\
# QuickRecon Docker Container

## Usage

Inside the container:

**Run a scene:**
```bash
./run_scene.sh /workspace/data/scene1
```

**Manual run:**
```bash
python reconstruct.py --images /workspace/data/scene1/images
```
"""
# modelled on a depth-estimation image: the project cloned into a build folder, the container started
# in another; the README links the repository the image clones
DEPTH = """\
ARG CUDA=12.2.0
FROM nvidia/cuda:${CUDA}-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git python3-pip python-is-python3
WORKDIR /opt/build
RUN git clone https://github.com/acme/deepmeter.git
WORKDIR /opt/build/deepmeter
RUN pip install -r requirements.txt
WORKDIR /data
CMD ["/bin/bash"]
"""
LINKED = """\
# Depth estimation image

Upstream: [acme/deepmeter](https://github.com/acme/deepmeter)

## Examples
In the container, run:
```bash
python predict.py --input /data/room.jpg
```
"""


def test_a_clone_below_the_workspace_set_again_after_it(tmp_path: Path) -> None:
    assert [(line, message.split(": ", 1)[1]) for line, message, _ in found(tmp_path, LEAD_IN, RECON)] == [
        (
            14,
            "Dockerfile:4 clones QuickRecon into /workspace/QuickRecon, and the container starts in "
            "/workspace (did you mean cd QuickRecon first?)",
        )
    ]


def test_a_clone_in_another_folder_the_readme_links(tmp_path: Path) -> None:
    assert [(line, message.split(": ", 1)[1]) for line, message, _ in found(tmp_path, LINKED, DEPTH)] == [
        (
            8,
            "Dockerfile:5 clones deepmeter into /opt/build/deepmeter, and the container starts in /data "
            "(did you mean cd /opt/build/deepmeter first?)",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        (LEAD_IN, RECON.replace("WORKDIR /workspace\nCMD", "CMD"), {}),  # the container starts in the clone
        (LEAD_IN, RECON.replace("CMD", "COPY helpers/reconstruct.py /workspace/\nCMD"), {}),  # copied in
        (LEAD_IN.replace("**Manual run:**", "Then leave it and on the host:"), RECON, {}),  # not a label
        (LEAD_IN.replace("Inside the container:", "On the host:"), RECON, {}),  # not said inside
        (LEAD_IN.replace("```bash\npython", "```bash\ncd QuickRecon\npython"), RECON, {}),  # a `cd` first
        (LEAD_IN.replace("python reconstruct", "python QuickRecon/reconstruct"), RECON, {}),  # into the clone
        (  # a step before fetches the script into the working folder
            LEAD_IN.replace("./run_scene.sh", "wget https://example.com/reconstruct.py"),
            RECON,
            {},
        ),
        (  # a compose file mounts the project over the working folder
            LEAD_IN,
            RECON,
            {"docker-compose.yml": "services:\n  recon:\n    build: .\n    volumes:\n      - .:/workspace\n"},
        ),
        (  # the script's folder mounted into the working folder
            LINKED.replace(
                "In the container, run:\n```bash\n",
                "```bash\ndocker run -it -v $PWD/tools:/data/tools depth\n",
            ).replace("python predict.py", "python tools/predict.py"),
            DEPTH,
            {},
        ),
        (LINKED.replace("deepmeter", "othermeter"), DEPTH, {}),  # a link to another repository
        (LINKED.replace("In the container, run:", "```bash\ndocker run -v $PWD:/data depth\n```"), DEPTH, {}),
        (  # cloned into `.` of the folder the container starts in
            LINKED,
            DEPTH.replace("/opt/build\n", "/data\n")
            .replace("deepmeter.git", "deepmeter.git .")
            .replace("/opt/build/deepmeter", "/data"),
            {},
        ),
        (LINKED, DEPTH.replace("WORKDIR /data\n", ""), {}),  # the container starts in the clone
        (LINKED, DEPTH.replace("/bin/bash", "bash -c 'cd /opt/build/deepmeter && bash'"), {}),  # a CMD moves
    ],
)
def test_silent_elsewhere(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, dockerfile, files) == []
