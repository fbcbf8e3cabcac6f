"""`docgen.audit.gpu_scripts`: a run script the README presents as its GPU path whose container run gives
the container no GPU, while a sibling run script of the README gives one.

Shapes modelled on a photogrammetry image with an automatic, an interactive and a CPU-mode run script,
and on a training image whose `train_gpu.sh` lost its `--gpus` while its notebook script kept
`--runtime=nvidia`. Planted drifts next to the nearest true statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

MAPPER = "FROM nvidia/cuda:12.2.2-devel-ubuntu22.04\nRUN apt-get update && apt-get install -y xvfb\n"
AUTO = "docker run \\\n    -t --rm \\\n    --user $(id -u) \\\n    -v $SCAN:/scan \\\n    lab/mapper\n"
SHELL = "docker run \\\n    -it --rm \\\n    --gpus all \\\n    -v $SCAN:/scan \\\n    lab/mapper\n"
CPU = "docker run -t --rm -v $SCAN:/scan lab/mapper auto --use-gpu=0\n"
MAPPER_README = """\
# Mapper

## Reconstruction

For automatic reconstruction, run:
```
bash auto.sh
```

For an interactive shell, run
```
bash shell.sh
```

If no (CUDA capable) GPU is available, the reconstruction can also run in a CPU mode:
```
bash auto_cpu.sh
```
"""
TRAIN_GPU = "#!/bin/bash\ndocker run --rm -v $(pwd)/data:/data lab/trainer python train.py\n"
NOTEBOOK = "#!/bin/bash\ndocker run -it --rm --runtime=nvidia -p 8888:8888 lab/trainer jupyter lab\n"
TRAIN_README = """\
# Trainer

Train the model:
```bash
./train_gpu.sh
```

Open a notebook:
```bash
./notebook.sh
```
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"Dockerfile": MAPPER, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "for a machine with a GPU" in d.message
    ]


MAPPER_FILES = {"auto.sh": AUTO, "shell.sh": SHELL, "auto_cpu.sh": CPU}


def test_the_run_a_cpu_mode_is_offered_apart_from(tmp_path: Path) -> None:
    assert found(tmp_path, MAPPER_README, MAPPER_FILES) == [
        '7: README runs auto.sh for a machine with a GPU (line 15 offers another run for "no (CUDA capable) '
        'GPU"), but auto.sh:1 starts the container with no --gpus, --runtime=nvidia or GPU device, while '
        "shell.sh:1 gives it one: the container gets no GPU, and what needs CUDA in it fails or falls back "
        "to the CPU (likely)"
    ]


def test_a_script_named_for_the_gpu(tmp_path: Path) -> None:
    files = {"train_gpu.sh": TRAIN_GPU, "notebook.sh": NOTEBOOK}
    assert found(tmp_path, TRAIN_README, files) == [
        "5: README runs ./train_gpu.sh for a machine with a GPU (its name says so), but train_gpu.sh:2 "
        "starts the container with no --gpus, --runtime=nvidia or GPU device, while notebook.sh:2 gives it "
        "one: the container gets no GPU, and what needs CUDA in it fails or falls back to the CPU (likely)"
    ]


def test_a_script_the_line_above_runs_on_the_gpu(tmp_path: Path) -> None:
    readme = TRAIN_README.replace("Train the model:", "Train the model on the GPU:")
    files = {"train.sh": TRAIN_GPU, "notebook.sh": NOTEBOOK}
    assert found(tmp_path, readme.replace("train_gpu.sh", "train.sh"), files) == [
        "5: README runs ./train.sh for a machine with a GPU (line 3 says so), but train.sh:2 starts the "
        "container with no --gpus, --runtime=nvidia or GPU device, while notebook.sh:2 gives it one: the "
        "container gets no GPU, and what needs CUDA in it fails or falls back to the CPU (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the run gives a GPU another way: nvidia-docker, a GPU device, the NVIDIA variables, privileged
        (MAPPER_README, {**MAPPER_FILES, "auto.sh": AUTO.replace("docker run", "nvidia-docker run")}),
        (MAPPER_README, {**MAPPER_FILES, "auto.sh": AUTO.replace("-t --rm", "-t --rm --device=/dev/kfd")}),
        (
            MAPPER_README,
            {**MAPPER_FILES, "auto.sh": AUTO.replace("-t --rm", "-t -e NVIDIA_VISIBLE_DEVICES=0")},
        ),
        (MAPPER_README, {**MAPPER_FILES, "auto.sh": AUTO.replace("-t --rm", "-t --rm --privileged")}),
        # options docgen cannot read (`$GPU_ARGS`)
        (MAPPER_README, {**MAPPER_FILES, "auto.sh": AUTO.replace("-t --rm", "-t --rm $GPU_ARGS")}),
        # no sibling gives a GPU: the project runs its image so everywhere
        (MAPPER_README, {**MAPPER_FILES, "shell.sh": SHELL.replace("--gpus all", "")}),
        # no CPU mode offered, no GPU said: nothing presents the script as the GPU path
        (MAPPER_README[: MAPPER_README.index("If no")], MAPPER_FILES),
        # a machine whose daemon hands every container the GPU
        (MAPPER_README + "\nOn a Jetson, the NVIDIA runtime is the default.\n", MAPPER_FILES),
        # the script is the CPU mode itself (by its name, or the words above it)
        (
            TRAIN_README.replace("train_gpu", "train_cpu"),
            {"train_cpu.sh": TRAIN_GPU, "notebook.sh": NOTEBOOK},
        ),
        (
            TRAIN_README.replace("Train the model:", "Train the model on the CPU:").replace(
                "train_gpu", "train"
            ),
            {"train.sh": TRAIN_GPU, "notebook.sh": NOTEBOOK},
        ),
        # a build script whose run checks the image it made
        (
            TRAIN_README.replace("train_gpu", "build_gpu"),
            {
                "build_gpu.sh": "#!/bin/bash\ndocker build -t lab/t .\ndocker run --rm lab/t python -V\n",
                "notebook.sh": NOTEBOOK,
            },
        ),
    ],
)
def test_runs_that_are_not_a_gpu_path_without_a_gpu(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert found(tmp_path, readme, files) == []
