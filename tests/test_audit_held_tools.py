"""`docgen audit`: an installer the README says the image includes that nothing of it installs
(docgen/audit/held_tools.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

PIP_ONLY = """\
FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04
RUN apt-get update && apt-get install -y python3-pip git && rm -rf /var/lib/apt/lists/*
RUN pip install --break-system-packages torch==2.7.1 peft==0.15.2
COPY train.py /work/
"""
SAYS = "# Trainer\n\n## Adding packages\n\nThe container includes uv package manager for quick installs:\n\n"
SAYS += "```bash\nuv pip install --system some-package\n```\n"
WANTED = (
    "5: README says the image includes uv but Dockerfile installs no uv, and its base "
    "nvidia/cuda:12.6.3-runtime-ubuntu24.04 comes without it (likely)"
)


def held(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(
        root, {"Dockerfile": dockerfile, "README.md": readme, "train.py": "print(1)\n", **(files or {})}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "includes uv" in d.message]


def test_an_installer_the_container_is_said_to_include_that_nothing_installs(tmp_path: Path) -> None:
    assert held(tmp_path, SAYS, PIP_ONLY) == [WANTED]


def test_an_installer_named_at_the_end_of_its_sentence(tmp_path: Path) -> None:
    readme = "# Trainer\n\nThe container includes uv. Packages go in with it.\n"
    assert held(tmp_path, readme, PIP_ONLY) == [WANTED.replace("5: ", "3: ")]


def test_a_copied_file_no_step_of_the_build_runs_hides_nothing(tmp_path: Path) -> None:
    """`COPY train.py /work/` of a file the checkout lacks: no RUN runs or imports it, so it installs
    nothing (it is the user's to run in the container)."""
    make_tree(tmp_path, {"Dockerfile": PIP_ONLY, "README.md": SAYS})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [f"{d.line}: {d.message} ({d.confidence})" for d in audit(SAYS, "README.md", model, {}, tmp_path)]
    assert WANTED in found


def test_a_copied_python_file_a_step_runs_may_install_it(tmp_path: Path) -> None:
    dockerfile = PIP_ONLY + "RUN python3 -m train\n"
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": SAYS})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert not any("includes uv" in d.message for d in audit(SAYS, "README.md", model, {}, tmp_path))


@pytest.mark.parametrize(
    "install",
    [
        "RUN pip install --break-system-packages uv\n",
        "COPY --from=ghcr.io/astral-sh/uv:0.6.14 /uv /uvx /bin/\n",
        "RUN curl -LsSf https://astral.sh/uv/install.sh | sh\n",  # a download run by a shell
        "RUN bash /work/setup.sh\n",  # a script docgen does not read
    ],
)
def test_an_installer_the_image_does_install(tmp_path: Path, install: str) -> None:
    assert held(tmp_path, SAYS, PIP_ONLY + install) == []


def test_an_installer_a_copied_script_installs(tmp_path: Path) -> None:
    dockerfile = PIP_ONLY + "COPY setup.sh /work/\nRUN bash /work/setup.sh\n"
    assert held(tmp_path, SAYS, dockerfile, {"setup.sh": "pip install uv\n"}) == []


@pytest.mark.parametrize(
    "base",
    [
        "ghcr.io/astral-sh/uv:python3.12-bookworm",  # an image that may hold it
        "nvcr.io/nvidia/pytorch:25.01-py3",  # a framework image docgen cannot tell about
    ],
)
def test_an_installer_a_base_may_hold(tmp_path: Path, base: str) -> None:
    dockerfile = PIP_ONLY.replace("nvidia/cuda:12.6.3-runtime-ubuntu24.04", base)
    assert held(tmp_path, SAYS, dockerfile) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The container does not include uv; use pip.",
        "Make sure the image includes uv if you want faster installs.",
        "The container includes uvicorn for serving.",  # another name
        "Your host includes uv for building the docs.",  # not the image
    ],
)
def test_sentences_that_do_not_say_the_image_holds_the_installer(tmp_path: Path, sentence: str) -> None:
    assert held(tmp_path, f"# Trainer\n\n{sentence}\n", PIP_ONLY) == []


def used(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(
        root, {"Dockerfile": dockerfile, "README.md": readme, "train.py": "print(1)\n", **(files or {})}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "built using" in d.message]


USES = """\
# Trainer

## Container features

- **Fast builds**: the Docker build installs packages with uv package manager
- **Base image**: `nvidia/cuda:12.6.3-runtime-ubuntu24.04`
- **Package manager**: `uv` (written in Rust)

The image builds quickly thanks to uv.
"""


def test_an_installer_the_build_is_said_to_use_that_nothing_installs(tmp_path: Path) -> None:
    assert used(tmp_path, USES, PIP_ONLY) == [
        "5: README says the image is built using uv but Dockerfile installs no uv (it installs its "
        "Python packages with pip), and its base nvidia/cuda:12.6.3-runtime-ubuntu24.04 comes without it; "
        "also at lines 7, 9 (likely)"
    ]


@pytest.mark.parametrize(
    "install",
    [
        "RUN pip install --break-system-packages uv && uv pip install --system rich\n",
        "COPY --from=ghcr.io/astral-sh/uv:0.6.14 /uv /uvx /bin/\n",
        "RUN bash /work/setup.sh\n",  # a script docgen does not read
    ],
)
def test_an_installer_the_build_does_use(tmp_path: Path, install: str) -> None:
    assert used(tmp_path, USES, PIP_ONLY + install) == []


def test_conda_that_miniforge_brings(tmp_path: Path) -> None:
    dockerfile = PIP_ONLY + (
        "RUN curl -fsSLo /tmp/mf.sh https://github.com/conda-forge/miniforge/releases/latest/download/"
        "Miniforge3-Linux-x86_64.sh && bash /tmp/mf.sh -b -p /opt/conda\n"
    )
    readme = "# Trainer\n\nThe image is built with conda for its environments.\n"
    assert used(tmp_path, readme, dockerfile) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Install the dependencies using uv: `uv sync`.",  # the reader's step
        "We use uv for local development of the package.",  # no image, no build
        "You can also build the image using uv if you prefer.",  # a choice
        "The build does not use uv.",  # negated
        "- **Package manager**: uv",  # a list about nothing of the image
    ],
)
def test_sentences_that_do_not_say_the_build_uses_the_installer(tmp_path: Path, sentence: str) -> None:
    assert used(tmp_path, f"# Trainer\n\n{sentence}\n", PIP_ONLY) == []


def test_an_installer_a_dev_container_feature_adds(tmp_path: Path) -> None:
    feature = "ghcr.io/va-h/devcontainers-features/uv:1"
    config = '{"build": {"dockerfile": "../Dockerfile"}, "features": {"' + feature + '": {}}}'
    assert held(tmp_path, SAYS, PIP_ONLY, {".devcontainer/devcontainer.json": config}) == []
