"""`docgen audit`: a path of the repository the prose names (inline code, a command in a code span, a
list item opening with a path) that a git checkout holds nowhere (`setup_files.named_nowhere`); and a
script run after a line running a file whose name holds a making word (`download_models.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM python:3.12-slim\nWORKDIR /app\nCOPY . /app\nCMD ["python", "-m", "server"]\n'


def found(
    root: Path, files: dict[str, str], git: bool = True, dockerfile: str = APP
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, **files})
    if git:
        (root / ".git").mkdir()
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


def nowhere(results: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    return [r for r in results if "which the repository does not hold" in r[1]]


# An inference server whose catalog moved (modelled on a serving project's README)
SERVER = """# Inference server

## Configuration

- `MODELS` (required): comma-separated model ids from `configs/model_config.yaml`.
- Defaults per model live in the catalog.
"""
SERVER_FILES = {"models.yaml": "a: 1\n", "server/__init__.py": "", "server/app.py": ""}


def test_a_settings_path_a_checkout_holds_nowhere_is_likely(tmp_path: Path) -> None:
    got = nowhere(found(tmp_path, {"README.md": SERVER, **SERVER_FILES}))
    assert [(line, conf) for line, _, conf in got] == [(5, "likely")]
    assert "configs/model_config.yaml" in got[0][1] and "no configs/ folder" in got[0][1]


def test_outside_a_git_checkout_the_same_path_is_silent(tmp_path: Path) -> None:
    assert nowhere(found(tmp_path, {"README.md": SERVER, **SERVER_FILES}, git=False)) == []


def test_a_file_of_that_name_elsewhere_is_silent(tmp_path: Path) -> None:
    files = {**SERVER_FILES, "deploy/model_config.yaml": "a: 1\n"}
    assert nowhere(found(tmp_path, {"README.md": SERVER, **files})) == []


def test_a_folder_holding_siblings_of_its_suffix_is_certain(tmp_path: Path) -> None:
    files = {**SERVER_FILES, "configs/base.yaml": "a: 1\n"}
    got = nowhere(found(tmp_path, {"README.md": SERVER, **files}))
    assert [(line, conf) for line, _, conf in got] == [(5, "certain")]


# A research tool's Japanese README (modelled on a Hydra-based project)
HYDRA = """# 実験ツール

## 補完

bashでは`source hydra/tab_completion_bash hoge.py`と入力すると有効化されます．

モデルは `Qwen/Qwen3-4B` を使います．
"""


def test_a_file_a_command_in_a_code_span_sources_is_read_without_a_suffix(tmp_path: Path) -> None:
    got = nowhere(found(tmp_path, {"README.md": HYDRA, "train.py": ""}))
    assert [line for line, _, _ in got] == [5]
    assert "hydra/tab_completion_bash" in got[0][1]


# A ROCm fork's notes (modelled on a patched vLLM build's README)
PATCHES = """# vLLM on ROCm

## What is in here

* hacks/bitsandbytes.patch - adds the ROCm bitsandbytes to vLLM
* hacks/requirements.txt - the pins
* `preload.py` runs during the Docker build.
"""


def test_a_list_item_opening_with_a_path_and_a_bare_script_are_read(tmp_path: Path) -> None:
    got = nowhere(found(tmp_path, {"README.md": PATCHES, "hacks/requirements.txt": "x\n"}))
    assert sorted(line for line, _, _ in got) == [5, 7]


TRAPS = """# App

## Setup

Copy `.env.example` to `.env` and create `config/local.yaml` with your keys.

Training writes `outputs/run1/metrics.json` and `checkpoints/last.py`.

The model's `config.json` and `tokenizer.json` come from the hub.

Put your settings in `path/to/your_config.yaml`, e.g. `my_config.yaml`.

Upstream keeps `tools/convert.py` at https://github.com/example/other.

Inside the container, `/app/serve.py` and `app/serve.py` start the server.

The image is `nvidia/cuda` and the model `meta-llama/Llama-3.1-8B`.

```bash
mkdir -p data && python scripts/fetch.py > data/gen.py
git clone https://github.com/example/tools.git
```

`tools/run.sh` runs the clone's job; `data/gen.py` is generated.

## Changelog

- Removed `scripts/old_build.sh`.
- `legacy/setup.py` is gone.
"""


def test_traps_are_silent(tmp_path: Path) -> None:
    files = {"README.md": TRAPS, "scripts/fetch.py": "", ".gitignore": "secret/\n"}
    assert nowhere(found(tmp_path, files)) == []


def test_a_path_the_dockerfile_names_is_the_image_s(tmp_path: Path) -> None:
    readme = "# App\n\nThe server reads `runtime/settings.toml` at start.\n"
    docker = APP + "RUN mkdir -p /app/runtime && echo x > /app/runtime/settings.toml\n"
    assert nowhere(found(tmp_path, {"README.md": readme}, dockerfile=docker)) == []


def test_a_git_ignored_path_is_silent(tmp_path: Path) -> None:
    readme = "# App\n\nThe server reads `local/settings.toml` at start.\n"
    assert nowhere(found(tmp_path, {"README.md": readme, ".gitignore": "local/\n"})) == []


# A speech server's quick start: a script whose name holds `download` is run, not made
QUICK = """# Speech server

1) Download the models:

   ```bash
   MODELS=openai/whisper-tiny uv run python scripts/download_models.py
   ```

2) Smoke test:

   ```bash
   uv run python scripts/manual_smoke.py \\
     --base-url http://localhost:8000
   ```
"""


@pytest.mark.parametrize("present", [True, False])
def test_a_script_run_after_a_line_running_a_making_name_is_read(tmp_path: Path, present: bool) -> None:
    files = {"README.md": QUICK, "scripts/run_dev.py": ""}
    if present:
        files["scripts/download_models.py"] = ""
    got = [(line, m) for line, m, _ in found(tmp_path, files) if "manual_smoke" in m]
    assert [line for line, _ in got] == [12]


COMPLETION = """# Tool

## Shell completion

```bash
source hydra/tab_completion_bash
source env/bin/activate
```
"""


def test_a_file_a_block_sources_with_no_suffix_is_read_in_a_checkout(tmp_path: Path) -> None:
    got = [(line, m) for line, m, _ in found(tmp_path / "a", {"README.md": COMPLETION, "tool.py": ""})]
    assert [line for line, m in got if "hydra/tab_completion_bash" in m] == [6]
    assert not [m for _, m in got if "activate" in m]
    assert not [m for _, m, _ in found(tmp_path / "b", {"README.md": COMPLETION}, git=False) if "hydra" in m]


# A diffusion server's notes (modelled on a llama/SD server stack): the sentence naming the file says
# nothing of making it, though the one before speaks of generating images, and `their` is no project
NOTES = """# Image server

## Additional notes

The image server provides endpoints for generating images. Refer to the `server.py` file in the
`img-server` directory for the available endpoints and their usage.
"""


def test_a_path_is_read_with_the_words_of_its_own_sentence(tmp_path: Path) -> None:
    got = nowhere(found(tmp_path, {"README.md": NOTES, "api/app.py": ""}))
    assert [(line, conf) for line, _, conf in got] == [(5, "likely")]
    assert "server.py" in got[0][1]


@pytest.mark.parametrize(
    "line",
    [
        "Run `make assets` first. It generates the `server.py` file for the image server.",
        "The endpoints are documented in their repository's `server.py` file.",
    ],
)
def test_a_sentence_that_makes_the_file_or_names_another_project(tmp_path: Path, line: str) -> None:
    readme = f"# Image server\n\n## Notes\n\n{line}\n"
    assert nowhere(found(tmp_path, {"README.md": readme, "api/app.py": ""})) == []


# A template folder's index of images (modelled on a research template repository): each section names
# the Dockerfile and the requirements list it installs, in plain words under a label
TEMPLATES = """# Templates

## torch 2.1
- Dockerfile: Dockerfile.gpu
- requirements.txt: requirements_torch_2.1.txt

## tensorflow 2.15
- Dockerfile: Dockerfile.gpu
- requirements.txt: requirements-tf.txt
- Output: results.txt

## poetry
- Setup script: setup_env.sh
"""


def test_a_requirements_list_named_under_a_label_that_the_checkout_lacks(tmp_path: Path) -> None:
    files = {
        "README.md": TEMPLATES,
        "Dockerfile.gpu": APP,
        "setup_env.sh": "#!/bin/sh\n",
        "requirements-tf.txt": "tensorflow==2.15.0\n",
    }
    got = nowhere(found(tmp_path, files))
    assert [(line, conf) for line, _, conf in got] == [(5, "likely")]
    assert got[0][1].startswith("README names requirements_torch_2.1.txt, which the repository does not hold")


def test_a_labelled_file_outside_a_checkout_is_silent(tmp_path: Path) -> None:
    files = {"README.md": TEMPLATES, "Dockerfile.gpu": APP, "setup_env.sh": "#!/bin/sh\n"}
    assert nowhere(found(tmp_path, files, git=False)) == []


# A file the reader is told to take the contents of: modelled on a SLAM image whose in-container steps say
# to copy a stereo settings file's contents, and on a bot whose setup copies a settings template's
SLAM = """# Stereo SLAM (Docker)

```
docker run -it --rm slam:stereo
cd Examples/Stereo
vim ./KITTI00-02.yaml (then, copy the contents of kitti_stereo_settings.yaml)
```
"""
BOT = """# Chat bot

1. Open `settings.json` and paste the contents of `settings.base.json` into it.
2. Run `python bot.py`.
"""


def test_a_file_whose_contents_the_reader_copies_that_no_folder_holds(tmp_path: Path) -> None:
    assert nowhere(found(tmp_path / "slam", {"README.md": SLAM})) == [
        (
            6,
            "README names kitti_stereo_settings.yaml, which the repository does not hold: no file "
            "kitti_stereo_settings.yaml is anywhere in the checkout",
            "likely",
        )
    ]
    files = {"README.md": BOT, "bot.py": "", "settings.json": "{}"}
    assert nowhere(found(tmp_path / "bot", files)) == [
        (
            3,
            "README names settings.base.json, which the repository does not hold: no file settings.base.json "
            "is anywhere in the checkout",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files", "git"),
    [
        (SLAM, {"stereo/kitti_stereo_settings.yaml": "a: 1\n"}, True),  # elsewhere in the checkout
        (SLAM, {}, False),  # a copy of some of the repository's files
        # made above it: the reader's own file
        (
            "```\nkubectl get configmap app -o yaml > configmap.yaml\n```\n\n"
            "Copy the contents of configmap.yaml into deployment.yaml.\n",
            {},
            True,
        ),
        # another project's file, by its address
        (
            "Copy the contents of [config.example.yml](https://example.org/x/config.example.yml) to "
            "`~/.app/server.yml`.\n",
            {},
            True,
        ),
        # the reader makes it first
        (
            "Create a file called `config.json` and copy the contents of config.json.sample into it.\n",
            {},
            True,
        ),
        # the image's file: the Dockerfile names it
        (SLAM.replace("kitti_stereo_settings", "app_defaults"), {}, True),
    ],
)
def test_files_copied_from_that_may_be_there(
    tmp_path: Path, readme: str, files: dict[str, str], git: bool
) -> None:
    dockerfile = APP + "COPY app_defaults.yaml /app/\n"
    assert nowhere(found(tmp_path, {"README.md": readme, **files}, git=git, dockerfile=dockerfile)) == []
