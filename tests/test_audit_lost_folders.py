"""`docgen audit`: a path in the prose that starts in a folder of the repository and goes on into one that
is not there (docgen/audit/lost_folders.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
FILES = {
    "images/whisper-gpu/Dockerfile": APP,
    "images/whisper-gpu/README.md": "",
    "images/whisper-cpu/Dockerfile": APP,
    ".github/workflows/images.yml": "on: push\n",
    "serving/Dockerfile": APP,
    "serving/Makefile": "all:\n",
    "serving/examples/repository/asr/config.pbtxt": "",
    "serving/examples/presets/small_1x/1/model.json": "",
    "serving/examples/presets/large_4x/1/model.json": "",
    "models/.gitkeep": "",
}


def found(root: Path, readme: str, folder: str = "images/whisper-gpu", dockerfile: str = "") -> list[str]:
    """The findings of this rule for `readme` at `folder`/README.md of a repository of `FILES`, audited
    with `dockerfile` (a path from `folder`; its Dockerfile by default)."""
    (root / ".git").mkdir(exist_ok=True)
    make_tree(root, {**FILES, f"{folder}/README.md": readme})
    here = root / folder
    audited = here / (dockerfile or "Dockerfile")
    model = build_model(audited, str(audited))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, here, root)
        if d.message.startswith("README names") and "does not exist" in d.message
    ]


def test_a_pattern_under_a_folder_that_was_renamed(tmp_path: Path) -> None:
    readme = "# Whisper on GPU\n\n## CI\n\n- On commit to `images/whisper-cuda/**` or the workflow itself.\n"
    assert found(tmp_path, readme) == [
        "5: README names images/whisper-cuda/**, but images/whisper-cuda does not exist "
        "(images/ holds whisper-cpu, whisper-gpu) (likely)"
    ]


def test_a_plain_path_into_a_folder_found_one_level_up(tmp_path: Path) -> None:
    # a README above the image folder, speaking of the files of the audited Dockerfile's folder
    readme = (
        "# Serving\n\nStart it with the models of examples/repository.\n\n"
        "Sample presets are under examples/repository/presets folder. To use one, copy its "
        "model.json to the asr folder.\n"
    )
    assert found(tmp_path, readme, ".", "serving/Dockerfile") == [
        "5: README names examples/repository/presets, but examples/repository/presets does not "
        "exist (there is examples/presets) (likely)"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "On commit to `images/whisper-gpu/**` or `.github/workflows/images.yml`.",  # both there
        "Images are pushed to `ghcr.io/acme/whisper-cuda` on each commit.",  # an address
        "Put the weights in `models/whisper-large/` before the first run.",  # the reader's files
        "Weights go to `models/whisper-large/` (kept out of git).",  # under a folder of a `.gitkeep`
        "The server reads `images/whisper-cuda/config.yaml` inside the container.",  # the image's path
        "Download the model to `images/cache/large.bin` first.",  # one the reader makes
        "Logs land in `build/logs/server.log`.",  # a generated folder
        "See `/opt/whisper/config.yaml` and `~/whisper/cache/`.",  # absolute, the host's home
        "Copy `images/<variant>/Dockerfile` to start a new one.",  # a placeholder
        "Point it at `images/whisper-cuda/config.yaml`, for example.",  # an example
        "Use CUDA/ROCm/oneAPI builds as you need.",  # words with slashes, no folder of the repository
        "Our base is `images/whisper-cuda` from Docker Hub.",  # two parts, nothing says a folder
        "Settings are read from `images/whisper-gpu/settings.yaml`.",  # a file's name: the slip rule's
    ],
)
def test_paths_that_say_nothing(tmp_path: Path, line: str) -> None:
    assert found(tmp_path, f"# Whisper on GPU\n\n{line}\n") == []


def test_a_path_a_command_of_the_readme_makes(tmp_path: Path) -> None:
    readme = (
        "# Whisper on GPU\n\n```sh\nmkdir -p images/whisper-cuda\n```\n\n"
        "Then the files of `images/whisper-cuda/**` are picked up.\n"
    )
    assert found(tmp_path, readme) == []


def test_a_path_a_slip_away_is_told_once_with_the_file_meant(tmp_path: Path) -> None:
    readme = "# Whisper on GPU\n\nThe workflow is `.github/workflow/images.yml`.\n"
    messages = [
        d.message
        for d in audit(
            readme,
            "README.md",
            build_model(_made(tmp_path) / "images/whisper-gpu/Dockerfile", "Dockerfile"),
            {},
            tmp_path / "images/whisper-gpu",
            tmp_path,
        )
    ]
    assert messages == [
        "README names .github/workflow/images.yml, which does not exist (did you mean "
        ".github/workflows/images.yml?)"
    ]


def _made(root: Path) -> Path:
    (root / ".git").mkdir(exist_ok=True)
    make_tree(root, FILES)
    return root


def _copied_tree(root: Path, readme: str, project: Path | None, marker: str = "") -> list[str]:
    """The findings for `readme` at images/whisper-gpu/README.md of a copy of `FILES` with no `.git`
    (a tarball, an export), the audit told the project folder `project`."""
    make_tree(root, {**FILES, "images/whisper-gpu/README.md": readme, **({marker: ""} if marker else {})})
    here = root / "images/whisper-gpu"
    model = build_model(here / "Dockerfile", str(here / "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, here, project)
        if d.message.startswith("README names") and "does not exist" in d.message
    ]


PATTERN = "# Whisper on GPU\n\n## CI\n\n- On commit to `images/whisper-cuda/**` or the workflow itself.\n"


def test_without_a_repository_root_the_project_folder_stands_for_it(tmp_path: Path) -> None:
    assert _copied_tree(tmp_path, PATTERN, tmp_path) == [
        "5: README names images/whisper-cuda/**, but images/whisper-cuda does not exist "
        "(images/ holds whisper-cpu, whisper-gpu) (likely)"
    ]


def test_a_project_folder_is_no_root_when_one_is_found(tmp_path: Path) -> None:
    # a `pyproject.toml` in the image's folder is the root found: the project folder above it is not
    # read, and `images/` is nowhere from there
    assert _copied_tree(tmp_path, PATTERN, tmp_path, "images/whisper-gpu/pyproject.toml") == []
    # no project folder given: nothing above the README's folder is read
    assert _copied_tree(tmp_path / "b", PATTERN, None) == []


@pytest.mark.parametrize(
    "line",
    [
        # modelled on a Japanese README of an embeddings server: the model lands there on first use
        "> - ダウンロード後、モデルは`examples/presets/e5-small/`に保存されている。",
        # modelled on a Chinese README: the run downloads the weights into the folder
        "首次运行会自动下载模型到 `examples/presets/qwen-7b/` 目录。",
        # the hub cache's own folder name, in any words: a download makes it
        "The embeddings model then sits in `examples/presets/models--acme--tiny-embed/`.",
    ],
)
def test_a_folder_a_download_makes_said_in_any_words(tmp_path: Path, line: str) -> None:
    assert found(tmp_path, f"# Serving\n\n{line}\n", folder="serving") == []


def test_a_folder_gone_said_in_other_words_is_told(tmp_path: Path) -> None:
    readme = "# Serving\n\n設定は`examples/weights/base/`にあります。\n"
    assert found(tmp_path, readme, folder="serving") == [
        "3: README names examples/weights/base, but examples/weights does not exist "
        "(examples/ holds presets, repository) (likely)"
    ]
