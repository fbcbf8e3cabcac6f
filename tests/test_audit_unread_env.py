"""`docgen audit`: a variable a README passes to the container beside others that the image's start reads,
while nothing of the image reads it (docgen/audit/unread_env.py).

Each case: a planted drift next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# A simulator image whose entrypoint script picks a mode from variables (as GPU simulator stacks do).
SIM_DOCKERFILE = """\
FROM nvcr.io/nvidia/isaac-sim:4.5.0
COPY start.sh /opt/sim/start.sh
RUN chmod +x /opt/sim/start.sh
ENTRYPOINT ["/opt/sim/start.sh"]
"""
SIM_START = """\
#!/bin/bash
set -e
echo "preparing caches"
if [ "${RUN_GUI}" = "true" ]; then
  exec /opt/sim/gui.sh "$@"
elif [ "${RUN_SHELL}" = "true" ]; then
  exec /bin/bash
fi
exec /opt/sim/headless.sh
"""
SIM_README = """\
# Simulator container

```bash
docker build -t simlab:1.0 .
docker run --gpus all -e "ACCEPT_EULA=Y" -e "SIM_LICENSE_SERVER=lic.example.org" simlab:1.0
```

### Environment Variables
```bash
# GUI mode
-e "RUN_GUI=true"
# Shell
-e "RUN_SHELL=true"
# Rebuild the extension cache
-e "REBUILD_EXTENSIONS=true"
```
"""

# A training image whose CMD is a shell string reading the data path only.
TRAIN_DOCKERFILE = """\
FROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
RUN pip install zarr einops
WORKDIR /work/app
CMD ["sh", "-c", "python ./stats.py --path $DATA_FILE && python ./train.py --path $DATA_FILE"]
"""
TRAIN_README = """\
# Policy training

```sh
docker build -t trainer .
docker run --gpus all -v $(pwd)/data:/work/app/data -e DATA_FILE=data/demo.parquet -e EPOCHS=500 trainer
```
"""


def found(root: Path, files: dict[str, str], readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


SIM = {"Dockerfile": SIM_DOCKERFILE, "start.sh": SIM_START}
TRAIN = {"Dockerfile": TRAIN_DOCKERFILE}


def test_a_mode_variable_the_entrypoint_script_never_reads(tmp_path: Path) -> None:
    said = (
        "README passes REBUILD_EXTENSIONS as an environment variable of the container, but nothing in the "
        "image reads it: start.sh, which the image starts, reads RUN_GUI, RUN_SHELL and never "
        "REBUILD_EXTENSIONS"
    )
    # (the run's ACCEPT_EULA and SIM_LICENSE_SERVER: none of them is the script's, the simulator's own)
    assert found(tmp_path, SIM, SIM_README) == [(15, said, "likely")]


def test_a_variable_beside_one_a_shell_cmd_reads(tmp_path: Path) -> None:
    said = (
        "README passes EPOCHS as an environment variable of the container, but nothing in the image reads "
        "it: CMD (Dockerfile:4), which the image starts, reads DATA_FILE and never EPOCHS"
    )
    assert found(tmp_path, TRAIN, TRAIN_README) == [(5, said, "likely")]


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # the script reads it
        (
            {
                **SIM,
                "start.sh": SIM_START.replace("set -e", 'set -e\n[ -n "$REBUILD_EXTENSIONS" ] && rm -rf c'),
            },
            SIM_README,
        ),
        # the Dockerfile names it (an ENV default the application reads)
        ({**SIM, "Dockerfile": SIM_DOCKERFILE + "ENV REBUILD_EXTENSIONS=false\n"}, SIM_README),
        # a file the image copies in names it
        (
            {
                **TRAIN,
                "Dockerfile": TRAIN_DOCKERFILE.replace("WORKDIR", "COPY train.py .\nWORKDIR"),
                "train.py": "import os\nEPOCHS = int(os.environ.get('EPOCHS', 100))\n",
            },
            TRAIN_README,
        ),
        # a script of the project names it (it may be mounted)
        ({**TRAIN, "scripts/train.py": "epochs = os.environ['EPOCHS']\n"}, TRAIN_README),
        # a variable a library reads itself
        (TRAIN, TRAIN_README.replace("EPOCHS=500", "HF_TOKEN=hf_xxx")),
        # the run replaces the entrypoint
        (SIM, SIM_README.replace("docker run --gpus all", "docker run --entrypoint bash --gpus all")),
        # the CMD is no shell: the program may read the environment
        (
            {
                "Dockerfile": TRAIN_DOCKERFILE.replace(
                    TRAIN_DOCKERFILE.splitlines()[-1], 'CMD ["python", "train.py"]'
                )
            },
            TRAIN_README,
        ),
        # a run passing one variable only
        (TRAIN, TRAIN_README.replace(" -e DATA_FILE=data/demo.parquet", "")),
    ],
)
def test_variables_the_image_may_read(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    assert [f for f in found(tmp_path, files, readme) if "nothing in the image reads" in f[1]] == []


# `prose_env_claims`: variables a sentence says the container takes, for an image that starts one
# Python script reading none of them

QUANT_DOCKERFILE = """\
FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime
WORKDIR /app
COPY requirements.txt /app/
RUN pip install --no-cache-dir -r /app/requirements.txt
COPY quantize.py /app/
ENTRYPOINT ["python", "/app/quantize.py", "--model_dir", "/models"]
"""
QUANT_SCRIPT = """\
import argparse
import os

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--calib_len", type=int, default=2048)
    parser.add_argument("--cpu_only", action="store_true")
    args = parser.parse_args()
    saved = os.environ.get("CUDA_VISIBLE_DEVICES")
    print(args, saved)

if __name__ == "__main__":
    main()
"""
QUANT_README = """\
# quantizer

## Running on a NAS

Map your model folder to `/models`; the entry-point does the rest.
Optionally set `CALIB_LEN` or `CPU_ONLY` as environment variables if your template supports them.
"""

CAPTION_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /srv
COPY serve.py helpers.py /srv/
RUN pip install --no-cache-dir flask==3.0.3 pillow==10.4.0
CMD python3 serve.py
"""
CAPTION_SERVE = """\
import os
from flask import Flask

MODEL = os.environ.get("CAPTION_MODEL", "blip-base")
BATCH = int(os.getenv("BATCHSIZE", "8"))
app = Flask(__name__)
"""
CAPTION_README = """\
# caption server

The server reads the `CAPTION_MODEL` and `BATCH_SIZE` environment variables (model name and batch).
Pass `HF_TOKEN` as an environment variable for gated models.
"""


def _prose_env(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "as an environment variable, but" in d.message
    ]


def test_variables_a_sentence_gives_that_the_python_start_never_reads(tmp_path: Path) -> None:
    files = {"Dockerfile": QUANT_DOCKERFILE, "quantize.py": QUANT_SCRIPT, "requirements.txt": "autoawq\n"}
    assert _prose_env(tmp_path, QUANT_README, files) == [
        "6: README says the container takes CALIB_LEN as an environment variable, but nothing in the "
        "image reads it: quantize.py, which the ENTRYPOINT starts (Dockerfile:6) names no CALIB_LEN; "
        "it takes the option --calib_len (likely)",
        "6: README says the container takes CPU_ONLY as an environment variable, but nothing in the "
        "image reads it: quantize.py, which the ENTRYPOINT starts (Dockerfile:6) names no CPU_ONLY; "
        "it takes the option --cpu_only (likely)",
    ]


def test_a_variable_the_server_reads_and_one_it_reads_under_another_name(tmp_path: Path) -> None:
    files = {"Dockerfile": CAPTION_DOCKERFILE, "serve.py": CAPTION_SERVE, "helpers.py": "X = 1\n"}
    # CAPTION_MODEL is read; HF_TOKEN a library reads; BATCH_SIZE nothing reads
    assert _prose_env(tmp_path, CAPTION_README, files) == [
        "3: README says the container takes BATCH_SIZE as an environment variable, but nothing in the image "
        "reads it: serve.py, which the CMD starts (Dockerfile:5) names no BATCH_SIZE (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a file beside the Dockerfile reads it (a module the script imports)
        (
            CAPTION_README,
            {
                "Dockerfile": CAPTION_DOCKERFILE,
                "serve.py": CAPTION_SERVE,
                "helpers.py": "import os\nB = os.environ['BATCH_SIZE']\n",
            },
        ),
        # the script reads variables by names it does not write
        (
            CAPTION_README,
            {
                "Dockerfile": CAPTION_DOCKERFILE,
                "serve.py": CAPTION_SERVE + "conf = {k: os.environ[k] for k in os.environ}\n",
                "helpers.py": "X = 1\n",
            },
        ),
        # an ENV of the Dockerfile sets it
        (
            CAPTION_README,
            {
                "Dockerfile": CAPTION_DOCKERFILE.replace("CMD", "ENV BATCH_SIZE=8\nCMD"),
                "serve.py": CAPTION_SERVE,
                "helpers.py": "X = 1\n",
            },
        ),
        # the variables of a build, not of the container
        (
            "# caption\n\nPass `BATCH_SIZE` as an environment variable with --build-arg.\n",
            {"Dockerfile": CAPTION_DOCKERFILE, "serve.py": CAPTION_SERVE, "helpers.py": ""},
        ),
        # the image starts a shell script: not read by this rule
        (
            QUANT_README,
            {
                "Dockerfile": QUANT_DOCKERFILE.replace(
                    'ENTRYPOINT ["python", "/app/quantize.py", "--model_dir", "/models"]',
                    'COPY run.sh /app/\nENTRYPOINT ["/app/run.sh"]',
                ),
                "quantize.py": QUANT_SCRIPT,
                "run.sh": "#!/bin/sh\nexec python /app/quantize.py --model_dir /models\n",
                "requirements.txt": "",
            },
        ),
    ],
)
def test_said_variables_the_python_start_may_read(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _prose_env(tmp_path, readme, files) == []


# A template image (RunPod-style): CMD starts /start.sh, which runs /pre_start.sh, which runs the app's
# launcher; the README passes one `-e` beside a table of the variables the chain reads.
POD_DOCKERFILE = """\
FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04
WORKDIR /
RUN python3 -m venv /venv
COPY --chmod=755 scripts/* ./
CMD ["/start.sh"]
"""
POD_START = """\
#!/usr/bin/env bash
if [[ $JUPYTER_LAB_PASSWORD ]]; then
    jupyter lab --ServerApp.token="${JUPYTER_LAB_PASSWORD}" &
fi
/pre_start.sh
sleep infinity
"""
POD_PRE_START = """\
#!/usr/bin/env bash
if [ -z "${DISABLE_SYNC}" ]; then
    rsync -au /musicgen/ /workspace/musicgen/
fi
if [[ ${DISABLE_AUTOLAUNCH} ]]; then
    echo "Launch it yourself: /start_musicgen.sh"
else
    /start_musicgen.sh
fi
"""
POD_LAUNCH = """\
#!/usr/bin/env bash
source /venv/bin/activate
cd /workspace/musicgen && nohup python3 app.py --listen 0.0.0.0 > /workspace/logs/musicgen.log 2>&1 &
"""
POD_README = """\
# MusicGen pod

```bash
docker build -t acme/musicgen:2.0 .
docker run -d --gpus all -p 3000:3001 \\
  -e VENV_PATH="/workspace/venvs/musicgen" \\
  acme/musicgen:2.0
```

## Environment Variables

| Variable             | Description                          | Default  |
|----------------------|--------------------------------------|----------|
| JUPYTER_LAB_PASSWORD | Password for Jupyter Lab             | not set  |
| DISABLE_AUTOLAUNCH   | Do not start the web UI              | not set  |
| DISABLE_SYNC         | Do not sync the app to the volume    | not set  |
"""
POD = {
    "Dockerfile": POD_DOCKERFILE,
    "scripts/start.sh": POD_START,
    "scripts/pre_start.sh": POD_PRE_START,
    "scripts/start_musicgen.sh": POD_LAUNCH,
}


def test_a_lone_variable_beside_the_table_the_start_chain_reads(tmp_path: Path) -> None:
    assert found(tmp_path, POD, POD_README) == [
        (
            6,
            "README passes VENV_PATH as an environment variable of the container, but nothing in the image "
            "reads it: start.sh (with pre_start.sh, start_musicgen.sh, which it runs), which the image "
            "starts, reads DISABLE_AUTOLAUNCH, DISABLE_SYNC, JUPYTER_LAB_PASSWORD and never VENV_PATH",
            "likely",
        )
    ]


def test_a_script_of_the_chain_the_project_does_not_hold(tmp_path: Path) -> None:
    files = {k: v for k, v in POD.items() if k != "scripts/pre_start.sh"}
    assert found(tmp_path, files, POD_README) == []  # /pre_start.sh may read VENV_PATH
    files = {k: v for k, v in POD.items() if k != "scripts/start.sh"}
    assert found(tmp_path / "b", files, POD_README) == []  # /start.sh is the base image's


def test_a_lone_variable_the_chain_reads_or_no_table(tmp_path: Path) -> None:
    readme = POD_README.replace('VENV_PATH="/workspace/venvs/musicgen"', "DISABLE_SYNC=1")
    assert found(tmp_path, POD, readme) == []
    readme = POD_README.split("## Environment")[0]
    assert found(tmp_path / "b", POD, readme) == []
    launch = POD_LAUNCH.replace("source /venv/bin/activate", 'source "${VENV_PATH:-/venv}/bin/activate"')
    assert found(tmp_path / "c", {**POD, "scripts/start_musicgen.sh": launch}, POD_README) == []


# An IDE image whose entrypoint hands the user setup to a second script it copies next to it.
IDE_DOCKERFILE = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y curl sudo
COPY docker/entrypoint.sh docker/setup-user.sh /usr/local/bin/
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
"""
IDE_ENTRY = """\
#!/bin/sh
set -e
. /usr/local/bin/setup-user.sh
exec code-server --bind-addr 0.0.0.0:8443 --auth password "$@"
"""
IDE_SETUP = """\
#!/bin/sh
groupmod -o -g "${PGID:-1000}" coder
usermod -o -u "${PUID:-1000}" coder
"""
IDE_README = """\
# code-box

```sh
docker build -t code-box .
docker run -d -p 8443:8443 -e PUID=1000 -e PGID=1000 -e WORKSPACE_THEME=dark code-box
```
"""
IDE = {"Dockerfile": IDE_DOCKERFILE, "docker/entrypoint.sh": IDE_ENTRY, "docker/setup-user.sh": IDE_SETUP}


def test_the_others_read_by_a_script_the_entrypoint_sources(tmp_path: Path) -> None:
    assert [(line, message[:81]) for line, message, _ in found(tmp_path, IDE, IDE_README)] == [
        (5, "README passes WORKSPACE_THEME as an environment variable of the container, but no")
    ]
    setup = IDE_SETUP + 'echo "theme: ${WORKSPACE_THEME}" > /home/coder/.theme\n'
    assert found(tmp_path / "b", {**IDE, "docker/setup-user.sh": setup}, IDE_README) == []


# A model server for an integrated GPU whose entrypoint turns two variables into the server's options
# and passes the model through its arguments; its table of variables sits under `## Configuration`, and an
# env template repeats the model variable the entrypoint no longer reads.
IGPU_DOCKERFILE = """\
FROM intel/oneapi-basekit:2025.0.1-0-devel-ubuntu24.04
RUN apt-get update && apt-get install -y --no-install-recommends gosu
COPY --chmod=755 entrypoint.sh /usr/local/bin/entrypoint.sh
EXPOSE 9090
ENTRYPOINT ["entrypoint.sh"]
"""
IGPU_ENTRY = """\
#!/bin/bash
set -e
RENDER_GID=$(stat -c '%g' /dev/dri/renderD128 2>/dev/null)
[ -n "$RENDER_GID" ] && groupadd -o -g "$RENDER_GID" render || true
SRV_BIND="${SRV_BIND:-0.0.0.0}"
SRV_LISTEN="${SRV_LISTEN:-9090}"
exec gosu worker infer-server --bind "$SRV_BIND" --listen "$SRV_LISTEN" "$@"
"""
IGPU_README = """\
# igpu-infer

```bash
docker build -t igpu-infer .
docker run -d --device /dev/dri -p 9090:9090 igpu-infer --model /models/small.gguf
```

## Configuration

| Variable | Default | Description |
|---|---|---|
| `SRV_MODEL` | *(required)* | Model file in `/models` |
| `SRV_BIND` | `0.0.0.0` | Bind address |
| `SRV_LISTEN` | `9090` | Listen port |
"""
IGPU = {"Dockerfile": IGPU_DOCKERFILE, "entrypoint.sh": IGPU_ENTRY, ".env.example": "SRV_MODEL=small.gguf\n"}

# A frame relay whose start script passes its settings on as flags; a `Env var` column under `## Settings`.
FRAMES_DOCKERFILE = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir frame-relay==0.9.2
COPY run-relay.sh /opt/run-relay.sh
CMD ["/opt/run-relay.sh"]
"""
FRAMES_START = """\
#!/bin/sh
exec frame-relay --fps=${RELAY_FPS:-15} --width ${RELAY_WIDTH:-640}
"""
FRAMES_README = """\
# relay

## Settings

| Env var | Meaning |
|---|---|
| `RELAY_FPS` | frames a second |
| `RELAY_WIDTH` | output width |
| `RELAY_CODEC` | output codec |
"""
FRAMES = {"Dockerfile": FRAMES_DOCKERFILE, "run-relay.sh": FRAMES_START}


def test_a_variable_a_configuration_table_lists_that_the_entrypoint_no_longer_reads(tmp_path: Path) -> None:
    said = (
        "README documents SRV_MODEL as an environment variable of the container, but nothing in the image "
        "reads it: entrypoint.sh, which the image starts, reads SRV_BIND, SRV_LISTEN and never SRV_MODEL; "
        "besides the README, only .env.example names it"
    )
    assert found(tmp_path, IGPU, IGPU_README) == [(12, said, "likely")]
    said = (
        "README documents RELAY_CODEC as an environment variable of the container, but nothing in the image "
        "reads it: run-relay.sh, which the image starts, reads RELAY_FPS, RELAY_WIDTH and never RELAY_CODEC"
    )
    assert found(tmp_path / "b", FRAMES, FRAMES_README) == [(9, said, "likely")]


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # a compose file beside it reads the template's value
        (
            {
                **IGPU,
                "compose.yaml": "services:\n  srv:\n    build: .\n"
                "    command: --model /models/${SRV_MODEL}\n",
            },
            IGPU_README,
        ),
        # the compose file hands the env file to the container: the server may read it
        ({**IGPU, "compose.yaml": "services:\n  srv:\n    build: .\n    env_file: .env\n"}, IGPU_README),
        # the README runs the container with the env file
        (IGPU, IGPU_README.replace("docker run -d", "docker run -d --env-file .env")),
        # a settings class beside it reads fields by names it does not write
        (
            {
                **IGPU,
                "settings.py": "from pydantic_settings import BaseSettings\n"
                "class S(BaseSettings):\n  srv_model: str\n",
            },
            IGPU_README,
        ),
        # the template is a script, not an env file
        (
            {
                **{k: v for k, v in IGPU.items() if k != ".env.example"},
                "env.sh": 'export SRV_MODEL=small.gguf\nexec "$@"\n',
            },
            IGPU_README,
        ),
        # the table is about the build
        (IGPU, IGPU_README.replace("## Configuration", "## Build configuration")),
        # the start only tests its variables: the program may read the others itself
        (
            {
                **IGPU,
                "entrypoint.sh": IGPU_ENTRY.replace('--bind "$SRV_BIND" --listen "$SRV_LISTEN" ', "").replace(
                    'SRV_LISTEN="${SRV_LISTEN:-9090}"', 'export SRV_BIND SRV_LISTEN="${SRV_LISTEN:-9090}"'
                ),
            },
            IGPU_README,
        ),
        # a first column that is not about variables
        (FRAMES, FRAMES_README.replace("| Env var |", "| Name |")),
        # a variable a library reads itself
        (FRAMES, FRAMES_README.replace("RELAY_CODEC", "HF_TOKEN")),
    ],
)
def test_configuration_tables_the_image_may_read(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    assert [f for f in found(tmp_path, files, readme) if "nothing in the image reads" in f[1]] == []


# --------------------------------------------------------------------------------------------------
# A variable a run passes whose near name the image sets or its code reads

# A fine-tuning image configured by ENV only; its run script is not in the context.
TUNE_DOCKERFILE = """\
FROM nvidia/cuda:12.1.1-devel-ubuntu22.04
ARG train_batch_size=16
ENV TRAIN_BATCH_SIZE=$train_batch_size
ARG eval_batch_size=8
ENV EVAL_BATCH_SIZE=$eval_batch_size
ENV BASE_MODEL=tiny-llama
ENV LORA_RANK=8
ENV HOMEDIR=/home/tuner
COPY --chown=1000:1000 . $HOMEDIR/
ENTRYPOINT "$HOMEDIR/go.sh"
"""
TUNE_README = """\
# Tuner

```shell
docker build \\
  -f Dockerfile \\
  -t tuner:dev . && \\
docker run -it \\
  --env BASE_MODEL="tiny-llama" \\
  --env LORA_RANK=16 \\
  --env REPORT_TO_COMET=1 \\
  --env BATCH_SIZE=4 \\
  --mount type=bind,src=`echo ~/.cache/hf/`,dst=/home/tuner/.cache/hf/ \\
  tuner:dev
```
"""

# A speech server whose settings module reads its knobs with os.getenv.
ASR_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /srv
COPY . .
CMD ["uvicorn", "api.main:app", "--host", "0.0.0.0", "--port", "9000"]
"""
ASR_SETTINGS = """\
import os

class Settings:
    window_sec = float(os.getenv("WINDOW_SEC", "0.5"))
    beam_width = int(os.getenv("BEAM_WIDTH", "1"))
    hf_token = os.getenv("HF_TOKEN")
"""
ASR_README = """\
# Speech server

```
docker build -t speech-api .
docker run -p 9000:9000 \\
  -e HF_TOKEN=hf_xxx \\
  -e DECODER_BEAM_WIDTH=4 \\
  -e AUDIO_WINDOW_SEC=30 \\
  -e BEAM_WIDTH_MAX=9 \\
  speech-api
```
"""


def test_a_passed_variable_the_image_sets_only_under_longer_names(tmp_path: Path) -> None:
    got = found(tmp_path, {"Dockerfile": TUNE_DOCKERFILE}, TUNE_README)
    assert [(line, confidence) for line, _, confidence in got] == [(11, "likely")]
    message = got[0][1]
    assert message.startswith("README passes BATCH_SIZE as an environment variable of the container")
    assert "Dockerfile:5 sets EVAL_BATCH_SIZE (ENV), Dockerfile:3 sets TRAIN_BATCH_SIZE (ENV)" in message
    assert "did you mean one of EVAL_BATCH_SIZE, TRAIN_BATCH_SIZE?" in message
    # (REPORT_TO_COMET: nothing near it, a script not in the context may read it)


def test_passed_variables_whose_shorter_names_the_app_reads(tmp_path: Path) -> None:
    files = {"Dockerfile": ASR_DOCKERFILE, "api/settings.py": ASR_SETTINGS, "api/main.py": "app = None\n"}
    got = found(tmp_path, files, ASR_README)
    assert [(line, message.split(", while ")[1]) for line, message, _ in got] == [
        (7, "api/settings.py:5 reads BEAM_WIDTH: did you mean BEAM_WIDTH?"),
        (8, "api/settings.py:4 reads WINDOW_SEC: did you mean WINDOW_SEC?"),
        (9, "api/settings.py:5 reads BEAM_WIDTH: did you mean BEAM_WIDTH?"),
    ]
    # (HF_TOKEN: the Hub's library reads it whatever the app does)


@pytest.mark.parametrize(
    "change",
    [
        # the settings module reads any name (pydantic settings with a prefix)
        lambda f: {**f, "api/settings.py": "from pydantic_settings import BaseSettings\n" + ASR_SETTINGS},
        # a file beside the image names the variables (an env file)
        lambda f: {**f, "api/.env.example": "DECODER_BEAM_WIDTH=1\nAUDIO_WINDOW_SEC=10\nBEAM_WIDTH_MAX=2\n"},
        # the Dockerfile sets them
        lambda f: {
            **f,
            "Dockerfile": ASR_DOCKERFILE + "ENV DECODER_BEAM_WIDTH=1 AUDIO_WINDOW_SEC=1 BEAM_WIDTH_MAX=2\n",
        },
    ],
)
def test_passed_variables_something_may_read(tmp_path: Path, change: object) -> None:
    files = {"Dockerfile": ASR_DOCKERFILE, "api/settings.py": ASR_SETTINGS, "api/main.py": "app = None\n"}
    assert callable(change)
    assert [m for _, m, _ in found(tmp_path, change(files), ASR_README) if "did you mean" in m] == []


def test_a_run_of_another_image_and_well_known_names_are_silent(tmp_path: Path) -> None:
    readme = (
        "# Tuner\n\n```shell\ndocker build -t tuner:dev .\n"
        "docker run -e BATCH_SIZE=4 -e CUDA_VISIBLE_DEVICES=0 -e TRAIN_BATCH_SIZE=2 other/trainer:1\n"
        "docker run -e NVIDIA_VISIBLE_DEVICES=all -e BATCH_SIZE=4 -e TRAIN_BATCH_SIZE=2 tuner:dev\n```\n"
    )
    # (the second run passes TRAIN_BATCH_SIZE itself: BATCH_SIZE is not a slip for it)
    assert found(tmp_path, {"Dockerfile": TUNE_DOCKERFILE}, readme) == []


def test_near_reads_one_part_added_at_either_end() -> None:
    from docgen.audit.unread_env import near

    known = {"TRAIN_BATCH_SIZE", "BATCH_SIZE", "CHUNK_SEC", "SIZE", "MAX_BATCH_SIZE_X", "BATCH"}
    assert near("BATCH_SIZE", known) == ["TRAIN_BATCH_SIZE"]
    assert near("AUDIO_CHUNK_SEC", known) == ["CHUNK_SEC"]
    assert near("CHUNK_SEC_MS", known) == ["CHUNK_SEC"]
    assert near("BATCH_SIZES", known) == []
    assert near("LOG_TO_WANDB", known) == []
    assert near("BATCH__SIZE", known) == []


# --------------------------------------------------------------------------------------------------
# A variable a table calls required that the start gives an empty value and goes on without

# A supervisor image (tunnel daemon + model server) whose start script accepts a missing tunnel token.
TUNNEL_DOCKERFILE = """\
FROM python:3.11-slim
RUN pip install vllm
COPY supervise.sh /usr/local/bin/supervise.sh
ENTRYPOINT ["/usr/local/bin/supervise.sh"]
"""
TUNNEL_START = """\
#!/usr/bin/env bash
set -euo pipefail
# the tunnel is optional: run without it when no token is given
: "${NGROK_AUTHTOKEN:=}"
if [ -z "${SERVED_MODEL:-}" ]; then
  echo "SERVED_MODEL must be set" >&2
  exit 1
fi
ngrok http 8000 ${NGROK_AUTHTOKEN:+--authtoken=${NGROK_AUTHTOKEN}} &
exec python -m vllm.entrypoints.openai.api_server --model "$SERVED_MODEL"
"""
TUNNEL_README = """\
# Tunnelled model server

```bash
docker run -d --gpus all -e SERVED_MODEL=Qwen/Qwen2-7B -e NGROK_AUTHTOKEN=xxx tunnelled:latest
```

## Environment Variables

| Variable | Description | Default |
|----------|-------------|---------|
| `NGROK_AUTHTOKEN` | Token of the tunnel | Required |
| `SERVED_MODEL` | Model to serve | Required |
| `LOG_COLOR` | Colour the logs | yes |
"""

# A webhook relay whose entrypoint fills unset variables with empty values; one it demands.
RELAY_DOCKERFILE = """\
FROM node:20-alpine
WORKDIR /srv
COPY entry.sh /entry.sh
CMD ["/entry.sh"]
"""
RELAY_START = """\
#!/bin/sh
export RELAY_SECRET="${RELAY_SECRET:-}"
UPSTREAM_URL="${UPSTREAM_URL:?set UPSTREAM_URL}"
exec node relay.js --upstream "$UPSTREAM_URL" --secret "$RELAY_SECRET"
"""
RELAY_README = """\
# Relay

### Configuration (environment variables)

| Name | Required | Default | Meaning |
|------|----------|---------|---------|
| `RELAY_SECRET` | Yes | - | Shared secret of the webhook |
| `UPSTREAM_URL` | Yes | - | Where events go |
| `RELAY_NAME` | No | relay | Its name in logs |
"""


def test_a_required_variable_the_start_gives_an_empty_value(tmp_path: Path) -> None:
    files = {"Dockerfile": TUNNEL_DOCKERFILE, "supervise.sh": TUNNEL_START}
    got = [f for f in found(tmp_path, files, TUNNEL_README) if "is required, but" in f[1]]
    assert [(line, confidence) for line, _, confidence in got] == [(11, "likely")]
    assert "NGROK_AUTHTOKEN" in got[0][1]
    assert 'supervise.sh:4 gives it an empty value when it is unset (: "${NGROK_AUTHTOKEN:=}")' in got[0][1]


def test_a_required_column_and_an_exported_empty_fallback(tmp_path: Path) -> None:
    files = {"Dockerfile": RELAY_DOCKERFILE, "entry.sh": RELAY_START}
    got = [f for f in found(tmp_path, files, RELAY_README) if "is required, but" in f[1]]
    assert [line for line, _, _ in got] == [7]
    assert "RELAY_SECRET" in got[0][1] and "entry.sh:2" in got[0][1]


def test_a_required_variable_the_start_tests_or_an_env_sets(tmp_path: Path) -> None:
    tested = TUNNEL_START.replace('if [ -z "${SERVED_MODEL:-}" ]', 'if [ -z "${NGROK_AUTHTOKEN}" ]')
    files = {"Dockerfile": TUNNEL_DOCKERFILE, "supervise.sh": tested}
    assert not [f for f in found(tmp_path / "a", files, TUNNEL_README) if "is required, but" in f[1]]
    set_env = TUNNEL_DOCKERFILE.replace("ENTRYPOINT", "ENV NGROK_AUTHTOKEN=\nENTRYPOINT")
    files = {"Dockerfile": set_env, "supervise.sh": TUNNEL_START}
    assert not [f for f in found(tmp_path / "b", files, TUNNEL_README) if "is required, but" in f[1]]
    program = TUNNEL_DOCKERFILE.replace(
        'ENTRYPOINT ["/usr/local/bin/supervise.sh"]', 'ENTRYPOINT ["python", "-m", "srv"]'
    )
    files = {"Dockerfile": program, "supervise.sh": TUNNEL_START}
    assert not [f for f in found(tmp_path / "c", files, TUNNEL_README) if "is required, but" in f[1]]


# --------------------------------------------------------------------------------------------------
# A library's variable the launch overrides with an option of its own

GRADIO_DOCKERFILE = """\
FROM python:3.10-slim
RUN pip install gradio==4.44.0
WORKDIR /app
COPY app.py .
ENV GRADIO_SERVER_NAME=0.0.0.0
EXPOSE 7860
CMD ["sh", "-c", "python app.py --server_port ${PORT:-7860} --share false"]
"""
GRADIO_APP = """\
import argparse
import gradio as gr
parser = argparse.ArgumentParser()
parser.add_argument("--server_port", type=int, default=7860)
parser.add_argument("--share", default="false")
args = parser.parse_args()
gr.Interface(lambda x: x, "text", "text").launch(server_port=args.server_port)
"""
GRADIO_README = """\
# Echo demo

```bash
docker run -p 7860:7860 echo-demo
```

## Environment variables

| Variable | Description | Default |
|---|---|---|
| `GRADIO_SERVER_PORT` | Port of the web UI | 7860 |
| `GRADIO_SERVER_NAME` | Address it listens on | 0.0.0.0 |
| `HF_TOKEN` | Token for gated models | - |
"""

STREAMLIT_DOCKERFILE = """\
FROM python:3.12-slim
RUN pip install streamlit pandas
COPY dashboard.py /srv/dashboard.py
ENTRYPOINT ["streamlit", "run", "/srv/dashboard.py", "--server.port=8501", "--server.headless=true"]
"""
STREAMLIT_README = """\
# Metrics dashboard

```bash
docker build -t metrics-dash .
docker run -e STREAMLIT_SERVER_PORT=9000 -e STREAMLIT_THEME_BASE=dark -p 9000:9000 metrics-dash
```
"""


def test_a_gradio_port_variable_the_launch_option_overrides(tmp_path: Path) -> None:
    files = {"Dockerfile": GRADIO_DOCKERFILE, "app.py": GRADIO_APP}
    got = [f for f in found(tmp_path, files, GRADIO_README) if "overrides the variable" in f[1]]
    assert [(line, confidence) for line, _, confidence in got] == [(11, "likely")]
    assert (
        "GRADIO_SERVER_PORT" in got[0][1] and "Dockerfile:7 passes --server_port ${PORT:-7860}" in got[0][1]
    )


def test_a_streamlit_port_a_run_passes_beside_the_option_of_the_entrypoint(tmp_path: Path) -> None:
    files = {"Dockerfile": STREAMLIT_DOCKERFILE, "dashboard.py": "import streamlit as st\nst.write('hi')\n"}
    got = [f for f in found(tmp_path, files, STREAMLIT_README) if "overrides the variable" in f[1]]
    assert [line for line, _, _ in got] == [5]
    assert "STREAMLIT_SERVER_PORT" in got[0][1] and "--server.port=8501" in got[0][1]


def test_a_library_variable_the_launch_reads_or_leaves_alone(tmp_path: Path) -> None:
    reads = GRADIO_DOCKERFILE.replace("${PORT:-7860}", "${GRADIO_SERVER_PORT:-7860}")
    files = {"Dockerfile": reads, "app.py": GRADIO_APP}
    assert not [f for f in found(tmp_path / "a", files, GRADIO_README) if "overrides the variable" in f[1]]
    no_option = GRADIO_DOCKERFILE.replace(" --server_port ${PORT:-7860}", "")
    files = {"Dockerfile": no_option, "app.py": GRADIO_APP.replace("server_port=args.server_port", "")}
    assert not [f for f in found(tmp_path / "b", files, GRADIO_README) if "overrides the variable" in f[1]]
    named = GRADIO_APP + 'import os\nPORT = int(os.getenv("GRADIO_SERVER_PORT", "7860"))\n'
    files = {"Dockerfile": GRADIO_DOCKERFILE, "app.py": named}
    assert not [f for f in found(tmp_path / "c", files, GRADIO_README) if "overrides the variable" in f[1]]
    skipped = STREAMLIT_README + "\n```bash\ndocker run --entrypoint bash -it metrics-dash\n```\n"
    files = {"Dockerfile": STREAMLIT_DOCKERFILE}
    assert not [f for f in found(tmp_path / "d", files, skipped) if "overrides the variable" in f[1]]
