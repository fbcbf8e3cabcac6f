"""`docgen audit`: a file the README tells the reader to edit that the project holds nowhere
(docgen/audit/edited_configs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# A fine-tuning example under examples/, its settings said to live in a config file it lacks.
FINETUNE_README = """\
## Llama 3 8B LoRA fine-tuning

### Quickstart

```bash
bash examples/llm/llama_lora/build.sh
bash examples/llm/llama_lora/train.sh
```

### Your own data

Every training setting is controlled via `train_config.yaml`. To train on your data:

1. **Edit `train_config.yaml`** and point `data.path` at your dataset.
2. Keep the output folder `./runs/` mounted.
"""
FINETUNE_FILES = {
    "examples/llm/llama_lora/Dockerfile": "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\nWORKDIR /ws\n",
    "examples/llm/llama_lora/build.sh": "docker build -t llama_lora examples/llm/llama_lora\n",
    "examples/llm/llama_lora/train.sh": "docker run --gpus all -v $(pwd):/ws llama_lora python3 finetune.py",
    "examples/llm/llama_lora/finetune.py": "print('train')\n",
}
# A chat bot whose README runs and has the reader edit a script the repository renamed.
BOT_README = """\
# Standup bot

## Configure

Change the channel id in `standup_bot.py` before the first run.

## Run

```sh
docker build -t standup .
docker run --rm standup python standup_bot.py
```
"""
BOT_FILES = {"Dockerfile": "FROM python:3.12-slim\nCOPY . /app\nWORKDIR /app\n", "bot/main.py": "print(1)\n"}


def found(root: Path, readme: str, files: dict[str, str], at: str = "") -> list[tuple[int, str, str]]:
    folder = root / at if at else root
    make_tree(root, {f"{at}/README.md" if at else "README.md": readme, **files})
    dockerfile = next(name for name in files if name.endswith("Dockerfile"))
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, folder, root)
        if "for its settings" in d.message
    ]


def test_a_settings_file_the_example_names_and_lacks(tmp_path: Path) -> None:
    said = (
        "README has the reader edit train_config.yaml for its settings, but the project has no "
        "train_config.yaml: not in examples/llm/llama_lora/ nor in any other folder, and nothing the README "
        "runs makes it; also at line 14"
    )
    assert found(tmp_path, FINETUNE_README, FINETUNE_FILES, "examples/llm/llama_lora") == [
        (12, said, "likely")
    ]


def test_a_script_the_readme_runs_and_has_edited_is_certain(tmp_path: Path) -> None:
    said = (
        "README has the reader edit standup_bot.py for its settings, but the project has no standup_bot.py: "
        "not in the README's folder nor in any other folder, and nothing the README runs makes it"
    )
    assert found(tmp_path, BOT_README, BOT_FILES) == [(5, said, "certain")]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # it is there, in another folder of the project
        (FINETUNE_README, {"configs/train_config.yaml": "lr: 1\n"}),
        # a template of it is, that the reader copies
        (FINETUNE_README, {"examples/llm/llama_lora/train_config.example.yaml": "lr: 1\n"}),
        # the README copies it from a template first
        (
            FINETUNE_README.replace(
                "bash examples/llm/llama_lora/build.sh\n",
                "cp defaults.yaml train_config.yaml\nbash examples/llm/llama_lora/build.sh\n",
            ),
            {},
        ),
        # an init command writes it
        (FINETUNE_README.replace("bash examples/llm/llama_lora/train.sh", "llamafactory init"), {}),
        # a script of the project reads it: a step the README does not show may make it
        (FINETUNE_README, {"examples/llm/llama_lora/finetune.py": "open('train_config.yaml')\n"}),
        # ignored by git: the reader's own
        (FINETUNE_README, {".gitignore": "train_config.yaml\n"}),
        # the README clones another repository, whose file it may be
        (
            FINETUNE_README.replace(
                "bash examples/llm/llama_lora/build.sh\n",
                "git clone https://github.com/other/trainer.git\nbash examples/llm/llama_lora/build.sh\n",
            ),
            {},
        ),
        # an example's name, a dotenv file, a path of the container or of a tool's cache
        (FINETUNE_README.replace("train_config.yaml", "my_config.yaml"), {}),
        (FINETUNE_README.replace("`train_config.yaml`", "`.env`"), {}),
        (FINETUNE_README.replace("`train_config.yaml`", "`/etc/trainer/train_config.yaml`"), {}),
        (FINETUNE_README.replace("`train_config.yaml`", "`~/.cache/trainer/state.json`"), {}),
        # a sentence about the container, or one creating the file
        (
            FINETUNE_README.replace(
                "Every training setting", "Inside the container, every training setting"
            ).replace("**Edit `train_config.yaml`**", "**Create `train_config.yaml`**"),
            {},
        ),
    ],
)
def test_files_the_reader_makes_or_has_are_silent(tmp_path: Path, readme: str, extra: dict[str, str]) -> None:
    assert found(tmp_path, readme, FINETUNE_FILES | extra, "examples/llm/llama_lora") == []


def test_a_script_named_only_in_passing_is_silent(tmp_path: Path) -> None:
    readme = BOT_README.replace("Change the channel id in", "The channel id lives in")
    assert found(tmp_path, readme, BOT_FILES) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the sentence follows a block that runs in another folder: the file may be that folder's
        FINETUNE_README.replace(
            "bash examples/llm/llama_lora/train.sh\n", "cd deploy/chart\nhelm upgrade --install lora .\n"
        ),
        FINETUNE_README.replace(
            "bash examples/llm/llama_lora/train.sh\n",
            "# Run from $REPO/deploy/chart path\nhelm install lora .\n",
        ),
        # the README also writes it with a folder the project lacks: the copy lacks that folder
        FINETUNE_README.replace("**Edit `train_config.yaml`**", "**Edit `conf/train_config.yaml`**"),
        # a tree of the project's files lists it
        FINETUNE_README + "\n```\nllama_lora/\n├── finetune.py\n└── train_config.yaml\n```\n",
        # `update` keeps a file in step: not a settings file the reader configures
        FINETUNE_README.replace("is controlled via", "needs").replace("**Edit", "**Update"),
    ],
)
def test_files_of_another_folder_or_a_partial_copy_are_silent(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme, FINETUNE_FILES, "examples/llm/llama_lora") == []


@pytest.mark.parametrize(
    "readme",
    [
        # a sentence elsewhere has the reader create it; `your` marks it as theirs
        FINETUNE_README + "\nCreate a `train_config.yaml` next to the build script first.\n",
        FINETUNE_README.replace("**Edit `train_config.yaml`**", "**Edit your `train_config.yaml`**").replace(
            "controlled via `train_config.yaml`", "controlled via your settings"
        ),
        # `set … in`: said as often of a file the program writes on its first run
        FINETUNE_README.replace("Every training setting is controlled via `train_config.yaml`.", "").replace(
            "**Edit `train_config.yaml`** and point", "Set `data.path` in `train_config.yaml` to point"
        ),
        # the file of that name is one of the image's or the machine's
        FINETUNE_README + "\nThe image reads it as `/ws/conf/train_config.yaml`.\n",
        # a slip of a file the project has (the `missing` rules' finding, which names it)
        FINETUNE_README.replace("train_config.yaml", "train_configs.yml"),
        # a compose file: the compose rules'
        "# Stack\n\nEdit `docker-compose.gpu.yml` to choose the GPUs.\n",
    ],
)
def test_files_the_reader_makes_elsewhere_or_other_rules_tell_are_silent(tmp_path: Path, readme: str) -> None:
    files = {
        **FINETUNE_FILES,
        "examples/llm/llama_lora/train_config.yaml.bak2": "",
        "configs/train_config.yml": "",
    }
    if "train_configs.yml" not in readme:
        files = FINETUNE_FILES
    assert found(tmp_path, readme, files, "examples/llm/llama_lora") == []
