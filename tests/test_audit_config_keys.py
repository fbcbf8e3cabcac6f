"""`docgen.audit.config_keys`: a sentence telling the reader to set, remove or change a key of a config
file of the repository that has no such key while it has one a slip away (`likely`); a key the sentence
adds, a key the file holds anywhere (a value, a comment), a nested path, a file the repository does not
hold, a sentence naming two files and a key no key of the file is close to are not findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SETTINGS = """\
use_sim_time: true
bridge:
  # where the simulator listens
  host: '10.0.0.5'
  port: 2000
  ego:
    role_name: ["hero"]
  truth_sensor:
    tick_rate: 0.1
"""
SERVER = '[server]\nmax_workers = 2\n# gpu_id = 0\n\n[cache]\ndir = "/tmp/cache"\n'


def found(root: Path, prose: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(
        root,
        {
            "README.md": f"# Bridge\n\n## Perception\n\n{prose}\n",
            "Dockerfile": "FROM ubuntu:24.04\nRUN echo hi\n",
            "config/settings.yaml": SETTINGS,
            "server.toml": SERVER,
            **(files or {}),
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if " anywhere; it has " in d.message
    ]


def test_a_renamed_key_a_sentence_removes(tmp_path: Path) -> None:
    # a robotics bridge's README: the ground-truth sensor key was renamed, the sentence kept the old name
    prose = (
        "The examples use a ground truth sensor, enabled by truth_sensor in the settings.\n"
        "To use the camera stack, remove\nsim_sensor from [config/settings.yaml](config/settings.yaml) and "
        "enable the 'Camera' module."
    )
    assert found(tmp_path, prose) == [
        "7: README says to remove key sim_sensor of config/settings.yaml, but config/settings.yaml has no "
        "sim_sensor anywhere; it has truth_sensor (line 8): the key was renamed (likely)"
    ]


def test_a_renamed_key_a_sentence_sets_with_its_value(tmp_path: Path) -> None:
    # a server's README: the key in a code span with the value to give it
    assert found(tmp_path, "For more throughput, set `max_worker = 8` in `server.toml`.") == [
        "5: README says to set key max_worker of server.toml, but server.toml has no max_worker anywhere; "
        "it has max_workers (line 2): the key was renamed (likely)"
    ]
    env = {"deploy/app.env": "APP_PORT=8080\nAPP_LOG_LEVEL=info\n"}
    assert found(tmp_path, "Change `APP_LOG_LEVL` in deploy/app.env to `debug`.", env) == [
        "5: README says to change key APP_LOG_LEVL of deploy/app.env, but deploy/app.env has no "
        "APP_LOG_LEVL anywhere; it has APP_LOG_LEVEL (line 2): the key was renamed (likely)"
    ]


@pytest.mark.parametrize(
    "prose",
    [
        # the key is there (as a key, or only commented out: the reader uncomments it)
        "Set `max_workers` in `server.toml` to the number of cores.",
        "Uncomment `gpu_id` in `server.toml` to pin a GPU.",
        "Remove truth_sensor from [config/settings.yaml](config/settings.yaml) to use the camera stack.",
        # a key the sentence adds: it need not be there yet
        "Add `max_worker = 8` to `server.toml` for more throughput.",
        "To use the camera stack, add a new sim_sensor block to config/settings.yaml.",
        # a nested path, a compose-style path of keys: not one key
        "Set `bridge.hosts` in config/settings.yaml.",
        "Set the `services > api > volumes` parameter in the config/settings.yaml file.",
        # a file the repository does not hold (a .env the reader makes from an example)
        "Set `HF_TOKEN` in `.env` before you start.",
        "Set `max_worker` in `conf/server.toml`.",
        # two files: which one holds the key cannot be told
        "Set `max_worker` in `server.toml` and `config/settings.yaml`.",
        # no key of the file is close: a key the reader adds
        "Set `hf_token` in config/settings.yaml.",
        # no word telling to act on the key
        "The sim_sensor of config/settings.yaml is documented in the wiki.",
        # the file's link goes out of the repository
        "Remove sim_sensor from [settings](https://example.org/config/settings.yaml).",
    ],
)
def test_no_config_key_claim(tmp_path: Path, prose: str) -> None:
    assert found(tmp_path, prose) == []


def test_json_keys(tmp_path: Path) -> None:
    files = {"web/config.json": '{\n  "listen": {"port": 8080},\n  "batch_size": 4\n}\n'}
    assert found(tmp_path, "Edit `batch_sizes` in web/config.json.", files) == [
        "5: README says to edit key batch_sizes of web/config.json, but web/config.json has no batch_sizes "
        "anywhere; it has batch_size (line 3): the key was renamed (likely)"
    ]
    assert found(tmp_path, "Edit `batch_size` in web/config.json.", files) == []


def test_a_long_line_costs_its_length(tmp_path: Path) -> None:
    prose = "Set " + "`max_worker` " * 5_000 + "in `server.toml`."
    assert len(found(tmp_path, prose)) == 1


TRANSCRIBE = """\
convert:
  model_dir: /models/large
  quant: float16

evaluation:
  model_dir: /models/large-ct2
  beam_size: 5
  device: cuda # 'cuda'/'cpu'

manifest_path: /data/test_manifest.json
output_path: predictions.json
"""
"""Modelled on a speech-recognition inference repository whose file keeps its paths at the top level."""


def nested(root: Path, readme: str, config: str = TRANSCRIBE) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": "FROM ubuntu:24.04\n", "config.yaml": config})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line} {d.confidence} {d.message}"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README's block puts" in d.message
    ]


def block(*lines: str, lang: str = "") -> str:
    return (
        "# Inference\n\nThe settings are in [config.yaml](config.yaml).\n\n```"
        + lang
        + "\n"
        + "\n".join(lines)
        + "\n```\n"
    )


def moved(key: str, said: str, place: str, line: int) -> str:
    return (
        f"README's block puts {key} at {said}, but config.yaml has it at {place} (line {line}): a program "
        "reading config.yaml does not find it where the block shows it"
    )


def test_a_key_the_block_nests_where_the_file_does_not(tmp_path: Path) -> None:
    readme = block(
        "evaluation:", "  model_dir:", "  beam_size:", "  device: # 'cuda'/'cpu'", "  manifest_path:"
    )
    assert nested(tmp_path, readme) == [
        f"10 likely {moved('manifest_path', 'evaluation', 'the top level', 10)}"
    ]
    # a trainer's file: the README keeps lr at the top, the file under optimizer
    trainer = "data:\n  root: /data\n  workers: 4\noptimizer:\n  lr: 0.001\n  momentum: 0.9\nepochs: 10\n"
    readme = block("data:", "  root: /data", "  workers: 8", "epochs: 20", "lr: 0.01", lang="yaml")
    assert nested(tmp_path / "b", readme, trainer) == [
        f"10 likely {moved('lr', 'the top level', 'optimizer', 5)}"
    ]


@pytest.mark.parametrize(
    "lines",
    [
        # every key where the file has it (values the reader sets)
        ("evaluation:", "  model_dir: /mine", "  beam_size: 1", "manifest_path: /x.json"),
        # a key the file lacks: one the reader adds
        ("evaluation:", "  model_dir:", "  beam_size:", "  language: en"),
        # a name two places of the file hold
        ("evaluation:", "  beam_size:", "  device:", "model_dir: /models"),
        # a section the file does not have: the block is of another file or version
        ("serving:", "  model_dir:", "  manifest_path:", "evaluation:", "  beam_size:", "  device:"),
        # not YAML keys only
        ("evaluation:", "  model_dir:", "  beam_size:", "  manifest_path:", "python3 infer.py"),
    ],
)
def test_blocks_whose_keys_sit_where_the_file_has_them_or_are_unknown(
    tmp_path: Path, lines: tuple[str, ...]
) -> None:
    assert nested(tmp_path, block(*lines)) == []


def test_a_block_of_a_file_the_readme_does_not_name(tmp_path: Path) -> None:
    readme = block("evaluation:", "  model_dir:", "  beam_size:", "  manifest_path:").replace(
        "The settings are in [config.yaml](config.yaml).", "Write your own settings file."
    )
    assert nested(tmp_path, readme) == []
