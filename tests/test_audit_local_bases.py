"""`docgen audit`: a README build whose base is a build arg defaulting to the published image of one the
README has just built locally, with no `--build-arg` for it (docgen/audit/local_bases.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# a family of GPU images: a full image, and a server image built FROM it through an arg
FULL = (
    "ARG CUDA_VERSION=12.6.3\nFROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04\nCOPY . /src\n"
    'ENTRYPOINT ["/src/tools.sh"]\n'
)
SERVER = """\
ARG KIT_FULL_IMAGE=ghcr.io/acme/infer-kit:full-gpu

FROM ${KIT_FULL_IMAGE}
HEALTHCHECK CMD curl -f http://localhost:7070/health
ENTRYPOINT ["/src/serve"]
"""
# a plugins image FROM the app image, the arg's default the app's hub name (shell form `$NAME`)
PLUGINS = "ARG APP_IMAGE=shopco/storefront:latest\nFROM $APP_IMAGE\nCOPY plugins/ /srv/plugins/\n"


def found(root: Path, files: dict[str, str], audited: tuple[str, ...]) -> list[tuple[int, str]]:
    make_tree(root, files)
    text = files["README.md"]
    said: list[tuple[int, str]] = []
    for name in audited:
        model = build_model(root / name, name)
        said += [
            (d.line, d.confidence)
            for d in audit(text, "README.md", model, {}, root, root)
            if "not on the one just built" in d.message
        ]
    return said


def block(*lines: str) -> str:
    return "# Kit\n\n## Building locally\n\n```bash\n" + "\n".join(lines) + "\n```\n"


BUILD_FULL = "docker build -t local/infer:full-gpu -f docker/full.Dockerfile ."
BUILD_SERVER = "docker build -t local/infer:server -f docker/server.Dockerfile ."


def test_a_server_built_on_the_published_full_image(tmp_path: Path) -> None:
    files = {"docker/full.Dockerfile": FULL, "docker/server.Dockerfile": SERVER}
    files["README.md"] = block(BUILD_FULL, BUILD_SERVER)
    assert found(tmp_path, files, ("docker/server.Dockerfile",)) == [(7, "likely")]
    model = build_model(tmp_path / "docker/server.Dockerfile", "docker/server.Dockerfile")
    (said,) = [
        d
        for d in audit(files["README.md"], "README.md", model, {}, tmp_path, tmp_path)
        if "just" in d.message
    ]
    assert said.message == (
        "README builds docker/server.Dockerfile after building local/infer:full-gpu, but "
        "docker/server.Dockerfile:3 starts FROM ${KIT_FULL_IMAGE}, whose default (line 1) is the published "
        "ghcr.io/acme/infer-kit:full-gpu, and the build passes no --build-arg "
        "KIT_FULL_IMAGE=local/infer:full-gpu: the image is built on the published base, not on the one "
        "just built"
    )


def test_a_plugins_image_built_on_the_hub_app_image(tmp_path: Path) -> None:
    files = {"Dockerfile": "FROM python:3.12-slim\nCOPY . /srv\n", "plugins.Dockerfile": PLUGINS}
    files["README.md"] = block(
        "docker build -t storefront .", "docker build -t storefront-plugins -f plugins.Dockerfile ."
    )
    assert found(tmp_path, files, ("plugins.Dockerfile",)) == [(7, "likely")]


@pytest.mark.parametrize(
    "lines",
    [
        # the arg passed
        (BUILD_FULL, BUILD_SERVER.replace(" -f", " --build-arg KIT_FULL_IMAGE=local/infer:full-gpu -f")),
        (BUILD_FULL, BUILD_SERVER.replace(" -f", ' --build-arg "KIT_FULL_IMAGE=$FULL" -f')),
        # built before the full image, or alone
        (BUILD_SERVER, BUILD_FULL),
        (BUILD_SERVER,),
        # another image built first (another tag)
        ("docker build -t local/infer:full-cpu -f docker/full.Dockerfile .", BUILD_SERVER),
        # the default is what the first build tags
        ("docker build -t ghcr.io/acme/infer-kit:full-gpu -f docker/full.Dockerfile .", BUILD_SERVER),
        # built through a bake file
        (BUILD_FULL, "docker buildx bake server"),
    ],
)
def test_builds_that_pass_the_base_or_build_nothing_before(tmp_path: Path, lines: tuple[str, ...]) -> None:
    files = {"docker/full.Dockerfile": FULL, "docker/server.Dockerfile": SERVER, "README.md": block(*lines)}
    assert found(tmp_path, files, ("docker/server.Dockerfile",)) == []


def test_a_readme_that_names_the_arg(tmp_path: Path) -> None:
    readme = block(BUILD_FULL, BUILD_SERVER) + "\nSet `KIT_FULL_IMAGE` to use your own full image.\n"
    files = {"docker/full.Dockerfile": FULL, "docker/server.Dockerfile": SERVER, "README.md": readme}
    assert found(tmp_path, files, ("docker/server.Dockerfile",)) == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        "ARG REGISTRY=ghcr.io/acme\nFROM ${REGISTRY}/infer-kit:full-gpu\n",  # a part of the name only
        "ARG KIT_FULL_IMAGE=infer-kit:full-gpu\nFROM ${KIT_FULL_IMAGE}\n",  # no registry, no namespace
        "ARG KIT_FULL_IMAGE=ghcr.io/acme/infer-kit:full-gpu\nFROM ubuntu:24.04\n",  # the arg is no base
    ],
)
def test_bases_not_read(tmp_path: Path, dockerfile: str) -> None:
    files = {"docker/full.Dockerfile": FULL, "docker/server.Dockerfile": dockerfile}
    files["README.md"] = block(BUILD_FULL, BUILD_SERVER)
    assert found(tmp_path, files, ("docker/server.Dockerfile",)) == []


# a base written out in the FROM: a Jetson test image on a published base the README also builds locally
FOCAL_BASE = "FROM nvcr.io/nvidia/l4t-base:r32.7.1\nRUN apt-get update && apt-get -y dist-upgrade\n"
FOCAL_TEST = "FROM ghcr.io/kitlab/l4t-focal-base:r32.7.1\nRUN apt-get install -y cuda-samples-10-2\n"
BUILD_BASE = "docker buildx build --load -f base/focal.Dockerfile -t l4t-focal-base:r32.7.1 ."
BUILD_TEST = "docker buildx build --load -f tests/focal_test.Dockerfile -t l4t-focal-test:r32.7.1 ."


def test_a_test_image_written_on_the_published_base(tmp_path: Path) -> None:
    files = {"base/focal.Dockerfile": FOCAL_BASE, "tests/focal_test.Dockerfile": FOCAL_TEST}
    files["README.md"] = (
        "# Focal on the Nano\n\nGet it:\n\n"
        "```bash\ndocker pull ghcr.io/kitlab/l4t-focal-base:r32.7.1\n```\n\n"
        f"Build it locally:\n\n```bash\n{BUILD_BASE}\n```\n\n## Test image\n\n"
        f"Tests the base built above.\n\n```bash\n{BUILD_TEST}\n```\n"
    )
    assert found(tmp_path, files, ("tests/focal_test.Dockerfile",)) == [(20, "likely")]
    model = build_model(tmp_path / "tests/focal_test.Dockerfile", "tests/focal_test.Dockerfile")
    (said,) = [
        d
        for d in audit(files["README.md"], "README.md", model, {}, tmp_path, tmp_path)
        if "just" in d.message
    ]
    assert said.message == (
        "README builds tests/focal_test.Dockerfile after building l4t-focal-base:r32.7.1, but "
        "tests/focal_test.Dockerfile:1 starts FROM the published ghcr.io/kitlab/l4t-focal-base:r32.7.1, "
        "written out (no build arg can change it): the image is built on the published base, not on the "
        "one just built"
    )


def test_an_app_image_written_on_the_hub_image_of_its_base(tmp_path: Path) -> None:
    files = {
        "Dockerfile": "FROM python:3.12-slim\nCOPY . /srv\n",
        "worker/Dockerfile": "FROM shopco/storefront:2.1\nCOPY worker/ /srv/worker/\n",
    }
    files["README.md"] = block(
        "docker build -t storefront:2.1 .", "docker build -t storefront-worker:2.1 -f worker/Dockerfile ."
    )
    assert found(tmp_path, files, ("worker/Dockerfile",)) == [(7, "likely")]


@pytest.mark.parametrize(
    "lines",
    [
        # the local image tagged with the published name too, or after
        (BUILD_BASE.replace(" .", " -t ghcr.io/kitlab/l4t-focal-base:r32.7.1 ."), BUILD_TEST),
        (BUILD_BASE, "docker tag l4t-focal-base:r32.7.1 ghcr.io/kitlab/l4t-focal-base:r32.7.1", BUILD_TEST),
        # the base given from the local image by a named context
        (
            BUILD_BASE,
            BUILD_TEST.replace(
                " -f",
                " --build-context ghcr.io/kitlab/l4t-focal-base:r32.7.1=docker-image://l4t-focal-base:r32.7.1"
                " -f",
            ),
        ),
        # another release built locally
        (BUILD_BASE.replace("-t l4t-focal-base:r32.7.1", "-t l4t-focal-base:r35.4.1"), BUILD_TEST),
        # the test image built first
        (BUILD_TEST, BUILD_BASE),
    ],
)
def test_written_bases_that_are_the_local_image_or_not_built_before(
    tmp_path: Path, lines: tuple[str, ...]
) -> None:
    files = {"base/focal.Dockerfile": FOCAL_BASE, "tests/focal_test.Dockerfile": FOCAL_TEST}
    files["README.md"] = block(*lines)
    assert found(tmp_path, files, ("tests/focal_test.Dockerfile",)) == []


@pytest.mark.parametrize(
    "test_dockerfile",
    [
        "FROM l4t-focal-base:r32.7.1\nRUN true\n",  # the local image itself
        "FROM ubuntu:20.04\nRUN true\n",  # an official image, no published form of anything built
        "FROM nvcr.io/nvidia/l4t-base:r32.7.1\nRUN true\n",  # the base's own base
    ],
)
def test_written_bases_of_another_image(tmp_path: Path, test_dockerfile: str) -> None:
    files = {"base/focal.Dockerfile": FOCAL_BASE, "tests/focal_test.Dockerfile": test_dockerfile}
    files["README.md"] = block(BUILD_BASE, BUILD_TEST)
    assert found(tmp_path, files, ("tests/focal_test.Dockerfile",)) == []
