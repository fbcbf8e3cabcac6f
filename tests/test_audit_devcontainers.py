"""`docgen.audit.devcontainers`: a setting a README quotes from the dev container configuration that the
configuration holds otherwise, and a GPU said to be set up for the dev container that no configuration
gives it.

Shapes modelled on a research-code template whose README quotes the cache mount of its
`.devcontainer/devcontainer.json`, on a robotics workspace quoting the `runArgs` of its dev container,
and on a CUDA dev container template whose `runArgs` are left in a comment. Each planted drift sits next
to the nearest true statements (traps): placeholders on either side, keys the reader adds, values offered
as the reader's change, several configurations, a GPU the README passes itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.devcontainers import read_config

TEMPLATE_CONFIG = """// For format details, see https://aka.ms/devcontainer.json.
{
\t"name": "Research template",
\t"build": {
\t\t"context": "..", // one level up
\t\t"dockerfile": "../Dockerfile",
\t},
\t"runArgs": [
\t\t"--ipc=host",
\t\t"--gpus",
\t\t"device=CHANGE_ME"
\t],
\t"mounts": [
\t\t"source=/CHANGE_ME/.cache,target=/mamba/.cache,type=bind"
\t],
\t/* "postCreateCommand": "pip install -e ." */
}
"""
TEMPLATE_README = (
    "# Research template\n\n## Development\n\n"
    'With VS Code Dev Containers, adapt `"runArgs": ["--ipc=host", "--gpus", "device=CHANGE_ME"]` in '
    "[`.devcontainer/devcontainer.json`](.devcontainer/devcontainer.json) to your GPUs. Optionally mount "
    'your cache with `"mounts": ["source=/MY_HOME_DIR/.cache,target=/home/mamba/.cache,type=bind"]`.\n'
)

ROBOT_CONFIG = """{
  "name": "rover-ws",
  "image": "ghcr.io/example/rover:humble",
  "workspaceFolder": "/rover_ws",
  "runArgs": ["--network=host", "--privileged"],
  "containerEnv": {"ROS_DOMAIN_ID": "42"},
}
"""
ROBOT_README = (
    "# Rover workspace\n\n## Dev container\n\n"
    'The dev container opens the workspace at `"workspaceFolder": "/ros2_ws"` and shares the host '
    "network.\n\n"
    'The dev container runs with `"runArgs": ["--network=bridge", "--privileged"]`.\n'
)

CUDA_CONFIG = """{
\t"name": "NVIDIA CUDA",
\t"image": "nvcr.io/nvidia/cuda:${templateOption:imageVariant}",
\t// NOTE: uncomment runArgs before use.
\t// "runArgs": [
\t// \t"--gpus",
\t// \t"all"
\t// ],
\t"remoteUser": "${templateOption:defaultUser}"
}
"""
CUDA_README = (
    "# NVIDIA CUDA Dev Container\n\nA dev container for CUDA development.\n\n## Usage\n\n"
    "This container is configured to use the NVIDIA Container Runtime. Ensure your host supports GPU "
    "passthrough.\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [], {}, root)
        if "dev container setting" in d.message or "set up for the GPU" in d.message
    ]


def test_a_quoted_mount_target_the_configuration_holds_otherwise(tmp_path: Path) -> None:
    assert found(tmp_path, TEMPLATE_README, {".devcontainer/devcontainer.json": TEMPLATE_CONFIG}) == [
        '5: README quotes the dev container setting "mounts" with target=/home/mamba/.cache, but '
        ".devcontainer/devcontainer.json:14 holds target=/mamba/.cache: a reader copying the README's "
        "value gets another container than the project's configuration (certain)"
    ]


def test_quoted_values_of_a_workspace_and_a_flag(tmp_path: Path) -> None:
    assert found(tmp_path, ROBOT_README, {".devcontainer.json": ROBOT_CONFIG}) == [
        '5: README quotes the dev container setting "workspaceFolder" with /ros2_ws, but '
        ".devcontainer.json:4 holds /rover_ws: a reader copying the README's value gets another container "
        "than the project's configuration (likely)",
        '7: README quotes the dev container setting "runArgs" with --network=bridge, but '
        ".devcontainer.json:5 holds --network=host: a reader copying the README's value gets another "
        "container than the project's configuration (likely)",
    ]


def test_a_gpu_said_where_the_run_args_are_commented_out(tmp_path: Path) -> None:
    assert found(tmp_path, CUDA_README, {".devcontainer/devcontainer.json": CUDA_CONFIG}) == [
        "7: README says the container is set up for the GPU (configured to use the NVIDIA Container "
        "Runtime), but .devcontainer/devcontainer.json gives it none (no --gpus or --runtime=nvidia in "
        "runArgs, no hostRequirements.gpu) (.devcontainer/devcontainer.json:5 leaves its runArgs in a "
        "comment): the dev container starts without a GPU (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the same target, only the placeholders differ
        (
            TEMPLATE_README.replace("/home/mamba/.cache", "/mamba/.cache"),
            {".devcontainer/devcontainer.json": TEMPLATE_CONFIG},
        ),
        # a placeholder on the README's side of the differing item
        (
            TEMPLATE_README.replace("target=/home/mamba/.cache", "target=<CACHE_DIR>"),
            {".devcontainer/devcontainer.json": TEMPLATE_CONFIG},
        ),
        # a key the configuration lacks: the reader adds it
        (
            TEMPLATE_README,
            {".devcontainer/devcontainer.json": TEMPLATE_CONFIG.replace('"mounts"', '"otherMounts"')},
        ),
        # the key left in a comment is no key either
        (
            TEMPLATE_README,
            {
                ".devcontainer/devcontainer.json": TEMPLATE_CONFIG.replace(
                    '\t"mounts": [\n\t\t"source=/CHANGE_ME/.cache,target=/mamba/.cache,type=bind"\n\t],\n',
                    '\t// "mounts": ["source=/CHANGE_ME/.cache,target=/mamba/.cache,type=bind"],\n',
                )
            },
        ),
        # a value offered as the reader's change
        (
            "# Research template\n\nIn the dev container, change the mount to "
            '`"mounts": ["source=/data,target=/home/mamba/.cache,type=bind"]` instead.\n',
            {".devcontainer/devcontainer.json": TEMPLATE_CONFIG},
        ),
        # two configurations: which one is quoted is not read
        (
            TEMPLATE_README,
            {
                ".devcontainer/gpu/devcontainer.json": TEMPLATE_CONFIG,
                ".devcontainer/cpu/devcontainer.json": TEMPLATE_CONFIG.replace("/mamba/", "/home/mamba/"),
            },
        ),
        # a line about no dev container
        (
            '# Rover\n\nThe app reads `"workspaceFolder": "/ros2_ws"` from its settings.\n',
            {".devcontainer.json": ROBOT_CONFIG},
        ),
        # a list of another length: items added or left out by the reader
        (
            '# Rover\n\nThe dev container runs with `"runArgs": ["--network=bridge"]`.\n',
            {".devcontainer.json": ROBOT_CONFIG},
        ),
        # GPU: runArgs pass one
        (
            CUDA_README,
            {
                ".devcontainer/devcontainer.json": CUDA_CONFIG.replace(
                    '\t"remoteUser"', '\t"runArgs": ["--gpus=all"],\n\t"remoteUser"'
                )
            },
        ),
        # GPU: the legacy runtime
        (
            CUDA_README,
            {
                ".devcontainer/devcontainer.json": CUDA_CONFIG.replace(
                    '\t"remoteUser"', '\t"runArgs": ["--runtime=nvidia"],\n\t"remoteUser"'
                )
            },
        ),
        # GPU: asked for as a host requirement
        (
            CUDA_README,
            {
                ".devcontainer/devcontainer.json": CUDA_CONFIG.replace(
                    '\t"remoteUser"', '\t"hostRequirements": {"gpu": "optional"},\n\t"remoteUser"'
                )
            },
        ),
        # GPU: a compose file starts the container
        (
            CUDA_README,
            {
                ".devcontainer/devcontainer.json": CUDA_CONFIG.replace(
                    '\t"image"', '\t"dockerComposeFile": "compose.yaml",\n\t"image"'
                )
            },
        ),
        # GPU: the reader is told to uncomment the run args
        (
            CUDA_README.replace(
                "This container is configured", "Uncomment runArgs; then the container is configured"
            ),
            {".devcontainer/devcontainer.json": CUDA_CONFIG},
        ),
        # GPU: the README runs the container with a GPU itself
        (
            CUDA_README
            + "\n```sh\ndocker run --gpus all -it nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04\n```\n",
            {".devcontainer/devcontainer.json": CUDA_CONFIG},
        ),
        # GPU: no dev container configuration at all
        (CUDA_README, {"NOTES.md": "notes\n"}),
    ],
)
def test_traps(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, files) == []


def test_comments_in_strings_and_trailing_commas(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "c.json": (
                '{\n  "url": "https://example.org/a//b", // a comment\n  "list": ["x",],\n  /* gone */\n}\n'
            )
        },
    )
    read = read_config(tmp_path / "c.json")
    assert read is not None
    config, _, comments = read
    assert config == {"url": "https://example.org/a//b", "list": ["x"]}
    assert [line for line, _ in comments] == [2, 4]


def test_an_unreadable_configuration_is_silent(tmp_path: Path) -> None:
    assert found(tmp_path, TEMPLATE_README, {".devcontainer/devcontainer.json": "{ not json"}) == []
    assert found(tmp_path, CUDA_README, {".devcontainer/devcontainer.json": "\x00\x01"}) == []
