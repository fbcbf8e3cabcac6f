"""`docgen.audit.unshipped_cmd.unshipped_run_scripts`: a script a container of the image the README builds
runs from its WORKDIR that the image does not hold there (a whole-context copy lacking it, or a script of
the context no COPY takes in) is a finding; a script the image holds, a mount at the working folder, `-w`,
a script the README downloads, another image, and a shell left by `cd` are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

WHOLE = """\
FROM nvcr.io/nvidia/pytorch:24.01-py3
WORKDIR /usr/src/app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
"""

WHOLE_README = """\
# Melody generator

## docker

```
docker build -t melody-rnn:latest .
{run}
```
"""

TAGGER = """\
FROM nvcr.io/nvidia/tensorrt:23.09-py3
RUN apt-get update && apt-get install -y git wget
WORKDIR /code
RUN git clone --recursive https://github.com/microsoft/onnxruntime onnxruntime
RUN pip install opencv-python pandas
"""

TAGGER_README = """\
# Image tagger

```
docker build -t someone/tagger-trt:latest -f Dockerfile.trt .
```

```
# run docker
docker run --gpus all -it {mount} someone/tagger-trt:latest
{between}
# example usage
python label.py --onnx model.onnx --input pics/ --threshold 0.9
```
"""


def findings(root: Path, files: dict[str, str], dockerfile: str) -> list[str]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root, root)
        if "in a container of the image" in d.message
    ]


def whole(root: Path, run: str, extra: dict[str, str] | None = None) -> list[str]:
    files = {
        "README.md": WHOLE_README.format(run=run),
        "Dockerfile": WHOLE,
        "requirements.txt": "mido==1.3.2\n",
        "train.py": "print('train')\n",
        **(extra or {}),
    }
    return findings(root, files, "Dockerfile")


def test_a_script_the_copied_context_lacks(tmp_path: Path) -> None:
    run = (
        "docker run --gpus all -it --rm -v $(pwd)/workspace:/workspace melody-rnn:latest "
        "python sketch.py -m x.mid"
    )
    assert whole(tmp_path, run) == [
        "7: README runs sketch.py in a container of the image Dockerfile builds, from its WORKDIR "
        "/usr/src/app (line 2), but the build context Dockerfile copies into it holds no sketch.py; the run "
        "mounts /workspace, not the working folder: the script is not found there (likely)"
    ]


def test_a_context_script_no_copy_takes_in_typed_in_the_shell(tmp_path: Path) -> None:
    files = {
        "README.md": TAGGER_README.format(mount="-v /home/me/Downloads/:/workspace/", between=""),
        "Dockerfile.trt": TAGGER,
        "label.py": "import argparse\n",
    }
    assert findings(tmp_path, files, "Dockerfile.trt") == [
        "12: README runs label.py in a container of the image Dockerfile.trt builds, from its WORKDIR /code "
        "(line 3), but no COPY or ADD of Dockerfile.trt puts it in the image; the run mounts /workspace, "
        "not the working folder: the script is not found there (likely)"
    ]


@pytest.mark.parametrize(
    ("run", "extra"),
    [
        # the image holds it: the context has it, and `COPY . .` takes it in
        ("docker run --rm melody-rnn:latest python train.py -n 4000", {}),
        # the working folder is mounted over: the reader's checkout brings the script
        ("docker run --rm -v $(pwd):/usr/src/app melody-rnn:latest python sketch.py", {}),
        # another folder to start in, or another image
        ("docker run --rm -w /workspace -v $(pwd):/workspace melody-rnn:latest python sketch.py", {}),
        ("docker run --rm nvcr.io/nvidia/pytorch:24.01-py3 python sketch.py", {}),
        # a placeholder, not a script of the project
        ("docker run --rm melody-rnn:latest python <script>.py", {}),
    ],
)
def test_scripts_the_container_has_or_other_runs_are_silent(
    tmp_path: Path, run: str, extra: dict[str, str]
) -> None:
    assert whole(tmp_path, run, extra) == []


def test_a_script_the_readme_downloads_first_is_silent(tmp_path: Path) -> None:
    run = "docker run --rm melody-rnn:latest python sketch.py"
    readme_extra = "\nDownload sketch.py from the releases page and save it next to the Dockerfile.\n"
    files = {
        "README.md": WHOLE_README.format(run=run) + readme_extra,
        "Dockerfile": WHOLE,
        "requirements.txt": "mido==1.3.2\n",
    }
    assert findings(tmp_path, files, "Dockerfile") == []


@pytest.mark.parametrize(
    ("mount", "between", "script"),
    [
        ("-v /home/me/Downloads/:/code/", "", True),  # the mount is the working folder
        ("-v /home/me/Downloads/:/workspace/", "cd /workspace", True),  # the shell moved first
        ("-v /home/me/Downloads/:/workspace/", "", False),  # no file of the project: the base's may be
    ],
)
def test_typed_runs_that_may_find_the_script_are_silent(
    tmp_path: Path, mount: str, between: str, script: bool
) -> None:
    files = {"README.md": TAGGER_README.format(mount=mount, between=between), "Dockerfile.trt": TAGGER}
    if script:
        files["label.py"] = "import argparse\n"
    assert findings(tmp_path, files, "Dockerfile.trt") == []


PEOPLE = """\
FROM nvcr.io/nvidia/l4t-tensorflow:r32.5.0-tf2.3-py3
WORKDIR /app
COPY . ./
RUN apt-get update && apt-get install -y git unzip
WORKDIR /
RUN git clone https://example.org/lab/people-counter.git
WORKDIR /Deepsort-Tracking/data/frames/
RUN wget "https://example.org/frames.zip" && unzip frames.zip
WORKDIR ../../
"""

PEOPLE_README = """\
# People counter

```
sh build-image.sh

sudo docker run -it counter_img

{typed}
```
"""


def counter(
    root: Path, typed: str, dockerfile: str = PEOPLE, extra: dict[str, str] | None = None
) -> list[str]:
    files = {
        "README.md": PEOPLE_README.format(typed=typed),
        "build-image.sh": "sudo docker build -t counter_img .\n",
        "Dockerfile": dockerfile,
        **(extra or {}),
    }
    return findings(root, files, "Dockerfile")


def test_a_script_typed_in_a_folder_only_the_dockerfile_makes(tmp_path: Path) -> None:
    # modelled on a Jetson tracker: the image is built by a script, WORKDIR ends in a folder nothing fills
    assert counter(tmp_path, "sh run-counter.sh") == [
        "8: README runs run-counter.sh in a container of the image Dockerfile builds, from its WORKDIR "
        "/Deepsort-Tracking (line 9), but the image makes that folder itself and nothing of the build puts "
        "a run-counter.sh in it, nor does the project hold one: the script is not found there (likely)"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # a clone into that very folder
        PEOPLE.replace("people-counter.git", "people-counter.git Deepsort-Tracking"),
        # an archive unpacked above it may hold the folder
        PEOPLE.replace("WORKDIR /\n", "WORKDIR /\nRUN wget https://example.org/t.tgz && tar xzf t.tgz\n"),
        # a RUN names the script
        PEOPLE + "RUN echo 'python3 count.py' > run-counter.sh\n",
        # a folder a base image may fill
        PEOPLE.replace("Deepsort-Tracking", "workspace"),
        # a copy from another image
        PEOPLE + "COPY --from=lab/tools:1 /tools /Deepsort-Tracking\n",
    ],
)
def test_folders_a_step_may_fill_are_silent(tmp_path: Path, dockerfile: str) -> None:
    assert counter(tmp_path, "sh run-counter.sh", dockerfile) == []


def test_a_script_the_project_holds_or_the_readme_makes_is_silent(tmp_path: Path) -> None:
    # the project holds one (a mount or copy the README leaves out may bring it)
    assert counter(tmp_path / "a", "sh run-counter.sh", extra={"tools/run-counter.sh": "true\n"}) == []
    # the README writes it first
    typed = "echo 'python3 count.py' > run-counter.sh\nsh run-counter.sh"
    assert counter(tmp_path / "b", typed) == []


SEGMENTER = """\
FROM lab/caffe:snapshot-py2-cuda9
RUN git clone https://github.com/acme/segmenter /segmenter && \\
    pip install -r /segmenter/requirements.txt && \\
    cd /segmenter && make
EXPOSE 8888
WORKDIR "/root/"
CMD ["jupyter", "lab", "--allow-root"]
"""

SEGMENTER_README = """\
# Segmenter

```sh
docker build -t acme/segmenter:cu9 -f Dockerfile.gpu .
```

```sh
{run}
```
"""


def segmenter(root: Path, run: str, dockerfile: str = SEGMENTER) -> list[str]:
    files = {"README.md": SEGMENTER_README.format(run=run), "Dockerfile.gpu": dockerfile}
    return findings(root, files, "Dockerfile.gpu")


def test_a_script_below_a_folder_the_image_clones_elsewhere(tmp_path: Path) -> None:
    # modelled on a detection toolkit image: the clone is at the top, the container starts in /root
    run = "docker run --rm -it acme/segmenter:cu9 python2 segmenter/tests/test_ops.py"
    assert segmenter(tmp_path, run) == [
        "8: README runs segmenter/tests/test_ops.py in a container of the image Dockerfile.gpu builds, from "
        "its WORKDIR /root (line 6), but the image puts segmenter at /segmenter (line 2), not "
        "/root/segmenter: the script is not found there (run /segmenter/tests/test_ops.py, or give -w /) "
        "(likely)"
    ]


BENCH = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y git python3
RUN mkdir -p /opt/tools && git clone https://example.org/perf/bench_kit.git /opt/tools/bench_kit
COPY . /workspace
WORKDIR /workspace
"""

BENCH_README = """\
# Perf lab

```
docker build -t perf-lab .
docker run -it --rm perf-lab bash
{typed}
```
"""


def test_a_script_typed_below_a_folder_the_image_clones_elsewhere(tmp_path: Path) -> None:
    # modelled on a benchmark image: the tool is cloned under /opt/tools, the shell starts in /workspace
    files = {
        "README.md": BENCH_README.format(typed="bash bench_kit/scripts/run_all.sh --quick"),
        "Dockerfile": BENCH,
        "notes.txt": "x\n",
    }
    assert findings(tmp_path, files, "Dockerfile") == [
        "6: README runs bench_kit/scripts/run_all.sh in a container of the image Dockerfile builds, from its "
        "WORKDIR /workspace (line 5), but the image puts bench_kit at /opt/tools/bench_kit (line 3), not "
        "/workspace/bench_kit: the script is not found there (run "
        "/opt/tools/bench_kit/scripts/run_all.sh, or give -w /opt/tools) (likely)"
    ]


@pytest.mark.parametrize(
    ("run", "dockerfile"),
    [
        # the checkout mounted over the working folder brings its own segmenter/
        ("docker run --rm -v `pwd`:/root acme/segmenter:cu9 python2 segmenter/tests/test_ops.py", SEGMENTER),
        # a named volume over the working folder
        ("docker run --rm -v work:/root acme/segmenter:cu9 python2 segmenter/tests/test_ops.py", SEGMENTER),
        # the run starts somewhere else
        ("docker run --rm -w / acme/segmenter:cu9 python2 segmenter/tests/test_ops.py", SEGMENTER),
        # the path is already the image's
        ("docker run --rm acme/segmenter:cu9 python2 /segmenter/tests/test_ops.py", SEGMENTER),
        # a placeholder
        ("docker run --rm acme/segmenter:cu9 python2 <repo>/tests/test_ops.py", SEGMENTER),
        # the image also makes it below the working folder: a bare clone there, or a link
        (
            "docker run --rm acme/segmenter:cu9 python2 segmenter/tests/test_ops.py",
            SEGMENTER + "RUN git clone https://github.com/acme/segmenter\n",
        ),
        (
            "docker run --rm acme/segmenter:cu9 python2 segmenter/tests/test_ops.py",
            SEGMENTER + "RUN ln -s /segmenter /root/segmenter\n",
        ),
        # the folder the image puts elsewhere has another name
        ("docker run --rm acme/segmenter:cu9 python2 segmentor/tests/test_ops.py", SEGMENTER),
    ],
)
def test_folders_the_container_has_below_its_working_folder_are_silent(
    tmp_path: Path, run: str, dockerfile: str
) -> None:
    assert segmenter(tmp_path, run, dockerfile) == []


def test_a_folder_the_whole_context_copy_brings_is_silent(tmp_path: Path) -> None:
    # the context holds bench_kit/ too, and `COPY . /workspace` takes it into the working folder
    files = {
        "README.md": BENCH_README.format(typed="bash bench_kit/scripts/run_all.sh"),
        "Dockerfile": BENCH,
        "bench_kit/scripts/run_all.sh": "true\n",
    }
    assert findings(tmp_path, files, "Dockerfile") == []
