"""`docgen.audit.near_images`: an image a Dockerfile the README builds copies from or starts from that
nothing of the project builds, while a build of the project tags a near name (the same word tag, or the
same last name and tag), is a `likely` finding. Traps: the exact name built, a generic or version tag
on another name, a name the README or a script pulls, a registry's image, an owner's image sharing only
a word tag, the Dockerfile's own image built FROM a namesake, a stage of the Dockerfile."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

pytest.importorskip("yaml")

# an OCR server: build.sh builds the OCR engine image with one compose file, then the app whose
# Dockerfile copies the engine out of an image of another name
OCR_DOCKERFILE = """\
ARG BASE=nvcr.io/nvidia/pytorch:23.05-py3
FROM ${BASE}
RUN pip install fastapi
COPY --from=inkworks:ocr-engine /opt/engine /opt/engine
CMD ["python", "-m", "server"]
"""
OCR_COMPOSE = """\
services:
  engine:
    build:
      context: .
      dockerfile: Dockerfile.engine
    image: scanlab:ocr-engine
"""
OCR_README = """\
# Scan server

1. Build the images (this also compiles the OCR engine):
   ```sh
   bash build.sh
   ```
2. Start the server:
   ```sh
   docker compose up server
   ```
"""
OCR_FILES = {
    "Dockerfile.engine": "FROM ubuntu:22.04\nRUN make -C /src\n",
    "docker-compose-engine.yaml": OCR_COMPOSE,
    "docker-compose.yaml": "services:\n  server:\n    build: .\n    image: scanlab:server\n",
    "build.sh": "#!/bin/bash\ndocker compose -f docker-compose-engine.yaml build\ndocker compose build\n",
}

# a speech toolkit: the README builds a base with `docker build -t`, the app starts from another owner's
SPEECH_DOCKERFILE = 'FROM voxlab/whisper-base:cuda12\nCOPY app /app\nCMD ["python", "/app/main.py"]\n'
SPEECH_README = """\
# Speech

```
docker build -t mira/whisper-base:cuda12 -f base/Dockerfile base
docker build -t mira/speech .
```
"""


def found(root: Path, readme: str, dockerfile: str, files: dict[str, str]) -> list[str]:
    for name, body in {"README.md": readme, "Dockerfile": dockerfile, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    model = replace(model_of(parse_dockerfile(dockerfile, "Dockerfile")), file=str(root / "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, directory=root, project=root)
        if "instead of the image just built" in d.message
    ]


def test_a_copy_from_an_image_of_another_name_than_the_one_built(tmp_path: Path) -> None:
    assert found(tmp_path, OCR_README, OCR_DOCKERFILE, OCR_FILES) == [
        "5: README builds the images, but Dockerfile:4 takes inkworks:ocr-engine, which nothing of the "
        "project builds, while docker-compose-engine.yaml:6 builds scanlab:ocr-engine: docker looks for "
        "inkworks:ocr-engine on Docker Hub instead of the image just built (likely)"
    ]


def test_a_base_of_another_owner_with_the_same_last_name_and_tag(tmp_path: Path) -> None:
    files = {"base/Dockerfile": "FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04\n"}
    [finding] = found(tmp_path, SPEECH_README, SPEECH_DOCKERFILE, files)
    assert finding.startswith(
        "4: README builds the images, but Dockerfile:1 takes voxlab/whisper-base:cuda12"
    )
    assert "README:4 builds mira/whisper-base:cuda12" in finding


@pytest.mark.parametrize(
    ("dockerfile", "readme", "extra"),
    [
        # the very name the engine's compose file tags
        (OCR_DOCKERFILE.replace("inkworks:", "scanlab:"), OCR_README, {}),
        # the README says where the other image comes from
        (OCR_DOCKERFILE, OCR_README + "\nPull `inkworks:ocr-engine` first.\n", {}),
        # a script of the project pulls it
        (OCR_DOCKERFILE, OCR_README, {"pull.sh": "docker pull inkworks:ocr-engine\n"}),
        # a generic tag shared by unrelated images
        (
            OCR_DOCKERFILE.replace("inkworks:ocr-engine", "inkworks:latest"),
            OCR_README,
            {"docker-compose-engine.yaml": OCR_COMPOSE.replace("scanlab:ocr-engine", "scanlab:latest")},
        ),
        # a version tag on an image of another last name
        (
            OCR_DOCKERFILE.replace("inkworks:ocr-engine", "inkworks:1.4"),
            OCR_README,
            {"docker-compose-engine.yaml": OCR_COMPOSE.replace("scanlab:ocr-engine", "scanlab:1.4")},
        ),
        # a registry's image
        (OCR_DOCKERFILE.replace("inkworks:", "ghcr.io/ink/works:"), OCR_README, {}),
        # an owner's image with the same word tag: it may well be on Docker Hub
        (OCR_DOCKERFILE.replace("inkworks:ocr-engine", "inkworks/ocr:ocr-engine"), OCR_README, {}),
        # the Dockerfile's own image, built FROM the other owner's of the same last name
        (
            "FROM pytorch/pytorch:2.1-cuda\nRUN pip install fastapi\n",
            "# T\n\n```\ndocker build -t lab/pytorch:2.1-cuda .\n```\n",
            {},
        ),
        # a stage of the Dockerfile
        ("FROM ubuntu:22.04 AS engine\nFROM ubuntu:22.04\nCOPY --from=engine /opt /opt\n", OCR_README, {}),
    ],
)
def test_names_that_are_built_pulled_or_no_near_name(
    tmp_path: Path, dockerfile: str, readme: str, extra: dict[str, str]
) -> None:
    assert found(tmp_path, readme, dockerfile, {**OCR_FILES, **extra}) == []


def _audited(root: Path, readme: str, files: dict[str, str], audited: list[str]) -> list[str]:
    for name, body in {"README.md": readme, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    models = [replace(model_of(parse_dockerfile(files[p], p)), file=str(root / p)) for p in audited]
    return [
        f"{d.line}: {d.message}"
        for d in audit(readme, "README.md", models, directory=root, project=root)
        if "instead of the image just built" in d.message
    ]


# a cluster's custom images (the shape of a Ray fork's): each Dockerfile starts from the upstream image,
# and the README tags the result under the team's own owner with the same tag
RAY_FILES = {
    "images/Dockerfile_cpu": "FROM upstream/ray:2.9.0-py311-cpu\nRUN pip install vllm\n",
    "images/Dockerfile_gpu": "FROM upstream/ray:2.9.0-py311-cu121\nRUN pip install vllm\n",
    "images/Dockerfile_xpu": "FROM upstream/ray:2.9.0-py311-cpu\nRUN pip install intel-ext\n",
}
RAY_README = """\
# Ray images

```sh
docker build -f ./images/Dockerfile_cpu -t team/ray:2.9.0-py311-cpu .
docker build -f ./images/Dockerfile_gpu -t team/ray:2.9.0-py311-cu121 .
```

Dockerfile_xpu is not used yet.
"""


def test_an_unbuilt_dockerfile_and_the_upstream_of_an_image_built_are_no_slips(tmp_path: Path) -> None:
    # Dockerfile_xpu takes upstream/ray:…-cpu: no build names it, and the near name team/ray:…-cpu is
    # built FROM that very image (the upstream and the derived, not a rename)
    assert _audited(tmp_path, RAY_README, RAY_FILES, sorted(RAY_FILES)) == []


def test_a_built_dockerfile_starting_from_the_other_owners_name_is_still_told(tmp_path: Path) -> None:
    # the same shape, but the cpu image is built from a Dockerfile on another base: the xpu one, built
    # too, takes a name only the upstream has
    files = {**RAY_FILES, "images/Dockerfile_cpu": "FROM ubuntu:22.04\nRUN pip install ray==2.9.0\n"}
    readme = RAY_README.replace(
        "Dockerfile_xpu is not used yet.",
        "```sh\ndocker build -f ./images/Dockerfile_xpu -t team/ray:xpu .\n```",
    )
    got = _audited(tmp_path, readme, files, sorted(files))
    assert [g.split(":", 1)[0] for g in got] == ["4"]
    assert "images/Dockerfile_xpu:1 takes upstream/ray:2.9.0-py311-cpu" in got[0]
