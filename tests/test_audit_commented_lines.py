"""`docgen audit`: commented lines a README says a Dockerfile holds for the reader to uncomment, for paths
or packages no line of that Dockerfile names (docgen/audit/commented_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVING = """\
FROM registry.example.org/base/ubi9:9.4
# Install base Python packages
RUN pip install --no-cache-dir numpy==2.1.0
# Copy license
COPY LICENSE /licenses/LICENSE
RUN pip install vllm && python3 -c "import vllm.entrypoints.cli"
ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]
"""
DEV = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y r-base
COPY setup.R /tmp/setup.R
# COPY .rstudio/prefs.json /home/analyst/.config/rstudio/prefs.json
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {**files, "README.md": readme})
    models = [build_model(root / path, path) for path in files if "Dockerfile" in path]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, root, root)]


def stale(line: int, path: str, shown: str) -> str:
    return (
        f"{line}: README says {path} has commented lines to uncomment for {shown}, but no line of {path}, "
        "comment or not, names any of them"
    )


def test_commented_lines_said_to_copy_folders_the_dockerfile_never_names(tmp_path: Path) -> None:
    # a serving image's install guide: the RHEL Dockerfile "includes commented lines" for its extras
    readme = (
        "# Serving\n\n"
        "The RHEL Dockerfile includes commented lines to install extra packages and copy scripts from\n"
        "`deploy/templates` and `deploy/bench` into `/opt/tools/`. If you need them, uncomment the\n"
        "relevant lines in `deploy/Dockerfile.rhel` and adjust the container `ENTRYPOINT`.\n"
    )
    files = {"deploy/Dockerfile.rhel": SERVING, "deploy/Dockerfile.ubuntu": "FROM ubuntu:22.04\n"}
    shown = "`deploy/templates`, `deploy/bench`, `/opt/tools/`"
    assert found(tmp_path, readme, files) == [stale(3, "deploy/Dockerfile.rhel", shown)]


def test_the_line_said_to_copy_a_file_is_gone(tmp_path: Path) -> None:
    # a development image's README: "uncomment the line in the Dockerfile that copies it to …"
    readme = (
        "# Analysis image\n\n"
        "To apply your editor settings, edit `settings.json` here. You will also need to uncomment the\n"
        "line in the Dockerfile that copies it to `/home/analyst/.config/editor/settings.json`.\n"
    )
    shown = "`/home/analyst/.config/editor/settings.json`"
    assert found(tmp_path, readme, {"Dockerfile": DEV}) == [stale(3, "Dockerfile", shown)]


def test_commented_installs_of_named_packages_that_are_gone(tmp_path: Path) -> None:
    readme = (
        "# Serving\n\n"
        "For notebooks, uncomment the lines installing `pandas` and `seaborn`\nin `Dockerfile.rhel`.\n"
    )
    files = {"Dockerfile.rhel": SERVING}
    assert found(tmp_path, readme, files) == [stale(3, "Dockerfile.rhel", "`pandas`, `seaborn`")]
    files = {"Dockerfile.rhel": SERVING + "# RUN pip install pandas seaborn\n"}
    assert found(tmp_path, readme, files) == []


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the commented line is there
        (
            "Uncomment the line in the Dockerfile that copies `prefs.json` to `/home/analyst/.config/`.\n",
            {"Dockerfile": DEV},
        ),
        (
            "The Dockerfile has commented lines to copy `deploy/templates` into `/opt/tools/`; uncomment them"
            " in `deploy/Dockerfile.rhel`.\n",
            {"deploy/Dockerfile.rhel": SERVING + "# COPY deploy/templates /opt/tools/templates\n"},
        ),
        # a live line names it: already uncommented
        (
            "Uncomment the line in the Dockerfile that copies `setup.R` into the image.\n",
            {"Dockerfile": DEV},
        ),
        # about another file
        (
            "Uncomment the `command` lines in `docker-compose.yml` to mount `/data/models`.\n",
            {
                "Dockerfile": DEV,
                "docker-compose.yml": "services:\n  app:\n    build: .\n    # command: serve /data/models\n",
            },
        ),
        (
            "To add certs, uncomment the line `ADD certs /opt/broker/certs` in `broker/Dockerfile` too.\n",
            {"Dockerfile": DEV},
        ),
        # a general tip, or nothing named
        (
            "You can comment out lines of the Dockerfile you do not need, such as `/opt/extra`.\n",
            {"Dockerfile": DEV},
        ),
        ("To build it yourself, uncomment the lines in the Dockerfile and rebuild.\n", {"Dockerfile": DEV}),
        (
            "Uncomment the lines in the Dockerfile and export your token as `GITHUB_TOKEN` and `REG_USER`.\n",
            {"Dockerfile": DEV},
        ),
        # `the Dockerfile` while several are audited
        (
            "Uncomment the line in the Dockerfile that copies `extras/` to `/opt/extras`.\n",
            {"Dockerfile": DEV, "gpu/Dockerfile": DEV.replace("24.04", "22.04")},
        ),
    ],
)
def test_what_names_its_lines_or_is_no_such_claim(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, "# Image\n\n" + readme, files) == []


GUIDE = """\
# GPU setup

1. Uncomment the `"runArgs"` section in `.devcontainer/devcontainer.json`.

2. Uncomment the `nvidia` channel and `pytorch-cuda` package lines in `environment.yml`.

3. Uncomment `--extra-index-url` and `torch-cuda` in `requirements.txt`, then rebuild.

4. Uncomment the lines in `environment.yml` and `requirements.txt` that name `rocm`.
"""

ENV_YML = """\
name: lab
channels:
  - pytorch
  - conda-forge
dependencies:
  - python=3.11
  - pytorch=2.5.1
"""

REQUIREMENTS = "numpy==2.2.5\n# --extra-index-url https://download.pytorch.org/whl/cu124\n# torch-cuda\n"

DEVCONTAINER = '{\n  "name": "lab",\n  // "runArgs": ["--gpus", "all"]\n}\n'


def test_lines_to_uncomment_in_a_settings_file_that_has_none(tmp_path: Path) -> None:
    # environment.yml names neither the channel nor the package; requirements.txt holds its commented
    # lines; devcontainer.json is named and nothing else; a sentence naming two files is not read
    make_tree(
        tmp_path,
        {
            ".devcontainer/devcontainer.json": DEVCONTAINER,
            "environment.yml": ENV_YML,
            "requirements.txt": REQUIREMENTS,
            "Dockerfile": "FROM python:3.12-slim\nCOPY requirements.txt .\n",
        },
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [f"{d.line}: {d.message}" for d in audit(GUIDE, "README.md", [model], {}, tmp_path)]
    assert found == [
        "5: README says to uncomment the lines of environment.yml for `nvidia`, `pytorch-cuda`, but no "
        "line of environment.yml, comment or not, names any of them"
    ]


def test_lines_to_uncomment_in_a_file_the_project_lacks_or_that_holds_them(tmp_path: Path) -> None:
    held = ENV_YML.replace("  - conda-forge\n", "  - conda-forge\n  # - nvidia\n")
    make_tree(tmp_path, {"environment.yml": held, "Dockerfile": "FROM python:3.12-slim\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [d.message for d in audit(GUIDE, "README.md", [model], {}, tmp_path)]
    assert not any("uncomment the lines of" in message for message in found)


# a README telling the reader to take out the Dockerfile's step that gets the models (model_step_claims)

APP_IMAGE = """\
ARG BASE_IMAGE=registry.example.org/gpu/base:2.1
FROM ${BASE_IMAGE}
COPY --chmod=755 build/* ./
# Install the painting app
RUN /install_app.sh
# Install the Gallery Model Downloader
RUN /install_gallery_model_downloader.sh
CMD ["/start.sh"]
"""
CACHING = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir huggingface_hub
# Cache the models
RUN python3 -c "from huggingface_hub import snapshot_download; snapshot_download('org/painter')"
"""
MODEL_STEP = (
    "README says Dockerfile has code that caches the models, but no line of Dockerfile, comment or not, "
    "names models or downloads them"
)


def model_steps(root: Path, readme: str, dockerfile: str) -> list[str]:
    return [f for f in found(root, readme, {"Dockerfile": dockerfile}) if "names models" in f]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "expected"),
    [
        # modelled on a GPU-cloud app image's build notes: a quoted warning, the step long gone
        (
            "# Painter\n\n## Building\n\n> [!IMPORTANT]\n> To cache the models you need 32GB of memory.  If\n"
            "> you have less, you can comment out or remove the code in the\n> `Dockerfile` that caches the "
            "models.\n",
            APP_IMAGE,
            [f"6: {MODEL_STEP}"],
        ),
        # modelled on a speech-model server's README: plain prose, the Dockerfile downloading nothing
        (
            "# Speech\n\nTo build a smaller image, remove the lines in the Dockerfile which download the "
            "weights.\n",
            "FROM python:3.11-slim\nRUN pip install --no-cache-dir flask\nCOPY app.py /app/app.py\n",
            [
                "3: README says Dockerfile has code that download the weights, but no line of Dockerfile, "
                "comment or not, names models or downloads them"
            ],
        ),
        # the step is there (a Hugging Face download, or a comment naming the models over a script)
        (
            "# Painter\n\nYou can comment out the code in the `Dockerfile` that caches the models.\n",
            CACHING,
            [],
        ),
        (
            "# Painter\n\nYou can comment out the code in the `Dockerfile` that caches the models.\n",
            "FROM python:3.11-slim\n# Download models\nRUN python3 /fetch.py\n",
            [],
        ),
        # a sentence about the models at run time, or about another file
        ("# Painter\n\nThe container downloads the models when it starts.\n", APP_IMAGE, []),
        (
            "# Painter\n\nRemove the code in `scripts/pre_start.sh` that downloads the models.\n",
            APP_IMAGE,
            [],
        ),
    ],
)
def test_a_model_step_the_dockerfile_does_not_have(
    tmp_path: Path, readme: str, dockerfile: str, expected: list[str]
) -> None:
    assert model_steps(tmp_path, readme, dockerfile) == expected


def test_several_dockerfiles_with_no_name_given_are_not_read(tmp_path: Path) -> None:
    readme = "# Painter\n\nYou can comment out the code in the `Dockerfile` that caches the models.\n"
    make_tree(tmp_path, {"README.md": readme, "Dockerfile": APP_IMAGE, "gpu/Dockerfile": APP_IMAGE})
    models = [build_model(tmp_path / p, p) for p in ("Dockerfile", "gpu/Dockerfile")]
    assert not [
        d for d in audit(readme, "README.md", models, {}, tmp_path, tmp_path) if "names models" in d.message
    ]


# The lines said to be under a comment the README quotes (`# Install dep with poetry`).

SEG = """\
FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04
ENV CONDA_PATH=/opt/conda
RUN conda create -n seg -y python=3.9
# Install the segmentation toolbox
RUN pip install mmsegmentation
"""
"""The shape of a research image: conda, then one toolbox; no optional section."""
BENCH = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y build-essential
############# Hyperparameter sweeps #############
# RUN pip install optuna
"""
"""An image keeping an optional section, commented out, under a banner comment."""


def test_lines_under_a_quoted_comment_the_dockerfile_lacks(tmp_path: Path) -> None:
    readme = (
        "# Seg\n\n### Build with your project's dependencies\n\n1. Put your pyproject.toml beside the "
        "Dockerfile\n2. Uncomment the 4 lines under `# Install deps with poetry` in the Dockerfile\n"
    )
    assert found(tmp_path / "seg", readme, {"Dockerfile": SEG}) == [
        stale(6, "Dockerfile", "`# Install deps with poetry`")
    ]
    # a banner comment quoted whole, in a file named beside others
    readme = "# Bench\n\nUncomment the lines under `#### Profiling with nsight ####` in `bench.Dockerfile`.\n"
    assert found(tmp_path / "bench", readme, {"bench.Dockerfile": BENCH, "seg.Dockerfile": SEG}) == [
        stale(3, "bench.Dockerfile", "`#### Profiling with nsight ####`")
    ]


def test_lines_under_a_quoted_comment_the_dockerfile_has(tmp_path: Path) -> None:
    # the banner is there (its words, not its exact hashes)
    readme = "# Bench\n\nUncomment the lines under `# Hyperparameter sweeps` in the Dockerfile.\n"
    assert found(tmp_path / "banner", readme, {"Dockerfile": BENCH}) == []
    # the commented lines name what the comment says (`optuna`), the comment worded otherwise
    readme = "# Bench\n\nTo tune, uncomment the lines under `# optuna sweeps` in the Dockerfile.\n"
    assert found(tmp_path / "named", readme, {"Dockerfile": BENCH}) == []
    # a comment of plain words only says nothing that can be looked for
    readme = "# Seg\n\nUncomment the lines under `# install the dependencies` in the Dockerfile.\n"
    assert found(tmp_path / "plain", readme, {"Dockerfile": SEG}) == []
