"""`docgen audit`: image tags a compose service gives the image it builds that spell a build arg's value
the service passes otherwise (docgen/audit/tag_args.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

BASE = (
    "ARG DISTRO=22.04\nARG CU=12.4.1\n"
    "FROM nvidia/cuda:${CU}-devel-ubuntu${DISTRO}\nARG TORCH=2.3.0\nARG PYTHON=3.11\n"
    "RUN pip install torch==${TORCH}\n"
)
LAYER = "ARG CU=12.1.0\nFROM me/vision:cu${CU}\nARG DISTRO\nRUN echo layer\n"


def _service(name: str, tag: str, dockerfile: str, args: dict[str, str]) -> str:
    listed = "".join(f"        - {k}={v}\n" for k, v in args.items())
    return (
        f"  {name}:\n    image: me/vision:{tag}\n    build:\n      context: .\n"
        f"      dockerfile: {dockerfile}\n      args:\n{listed}"
    )


LAYERS = (
    'version: "3.9"\n\nservices:\n'
    + _service(
        "layer-cu12.1.0",
        "ubuntu22.04-cu12.1.0-torch2.3.0-app",
        "Dockerfile.layer",
        {"CU": "12.4.1", "DISTRO": "22.04"},
    )
    + _service(
        "layer-cu12.4.1",
        "ubuntu22.04-cu12.4.1-torch2.3.0-app",
        "Dockerfile.layer",
        {"CU": "12.4.1", "DISTRO": "22.04"},
    )
    # a Dockerfile not in the folder: its service is not judged
    + _service("gone-cu11.8.0", "ubuntu20.04-cu11.8.0-torch2.0.1-gone", "Dockerfile.gone", {"CU": "12.4.1"})
)
BUILDS = (
    "services:\n"
    + _service(
        "cu12.4",
        "ubuntu22.04-cu12.4-torch2.3.0",
        "Dockerfile",
        {"DISTRO": "22.04", "CU": "12.4.1", "TORCH": "2.3.0"},
    )
    # PYTHON is passed, but the tag spells no python part; py3.10 spells an arg it does not pass
    + _service("py", "ubuntu22.04-py3.10-cu12.4.1", "Dockerfile", {"PYTHON": "3.11", "CU": "12.4.1"})
    # a value that is no plain version, and an arg the Dockerfile does not declare
    + _service("var", "ubuntu20.04-cu11.8.0", "Dockerfile", {"CU": "${CU:-11.8.0}", "UBUNTU": "22.04"})
)
README = (
    "# Vision\n"
    "\n"
    "|Ubuntu|CUDA|Torch|Tag|\n"
    "|---|---|---|---|\n"
    "|22.04|12.4|2.3.0|`ubuntu22.04-cu12.4-torch2.3.0`<br>`latest`|\n"
    "|22.04|12.1.0|2.3.0|`ubuntu22.04-cu12.1.0-torch2.3.0-app`|\n"
    "|22.04|12.4.1|2.3.0|`ubuntu22.04-cu12.4.1-torch2.3.0-app`|\n"
    "|20.04|11.8.0|2.0.1|`ubuntu20.04-cu11.8.0-torch2.0.1-gone`|\n"
    "|22.04|12.4.1|2.3.0|`ubuntu22.04-py3.10-cu12.4.1`|\n"
    "|20.04|11.8.0|2.3.0|`ubuntu20.04-cu11.8.0`|\n"
    "|22.04|12.1.0|2.3.0|`ubuntu22.04-cu12.1.0-torch2.3.0-app-slim` (made by CI)|\n"
    "\n"
    "```\n"
    "docker pull me/vision:ubuntu22.04-cu12.1.0-torch2.3.0-app\n"
    "```\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": BASE, "Dockerfile.layer": LAYER, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "image tag" in d.message
    ]


def test_a_tag_spelling_a_version_its_build_does_not_pass(tmp_path: Path) -> None:
    files = {"docker-compose.yml": BUILDS, "docker-compose-layers.yml": LAYERS}
    fact = (
        "README names image tag `ubuntu22.04-cu12.1.0-torch2.3.0-app`: its part `cu12.1.0` says CU 12.1.0, "
        "but docker-compose-layers.yml:{} (service layer-cu12.1.0) builds it with CU=12.4.1"
    )
    line = LAYERS.splitlines().index("        - CU=12.4.1") + 1
    # the same fact on two lines is said once, with the other line
    assert found(tmp_path, README, files) == [(6, fact.format(line) + "; also at line 14", "certain")]


def test_silent_when_every_tag_agrees_with_its_build(tmp_path: Path) -> None:
    fixed = LAYERS.replace(
        "- CU=12.4.1\n        - DISTRO=22.04\n  layer-cu12.4.1",
        "- CU=12.1.0\n        - DISTRO=22.04\n  layer-cu12.4.1",
    )
    assert fixed != LAYERS
    files = {"docker-compose.yml": BUILDS, "docker-compose-layers.yml": fixed}
    assert found(tmp_path, README, files) == []


def test_silent_when_the_readme_does_not_repeat_the_tag(tmp_path: Path) -> None:
    readme = "# Vision\n\nBuild every image with `docker compose -f docker-compose-layers.yml build`.\n"
    assert found(tmp_path, readme, {"docker-compose-layers.yml": LAYERS}) == []
