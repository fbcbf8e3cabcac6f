"""`docgen.audit.platforms`: README build commands whose `--platform` the base image is not published
for, or whose `--build-arg` values make the FROM reference invalid. Planted drifts and the nearest true
commands as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

AMD64_ONLY = 'ARG BASE="amd64/alpine:3.20"\nFROM ${BASE}\nRUN apk add --no-cache curl\n'
MULTI = 'ARG BASE="alpine:3.20"\nFROM ${BASE}\nRUN apk add --no-cache curl\n'


def _audit(tmp_path: Path, readme: str, dockerfile: str, path: str = "img/Dockerfile") -> list[str]:
    make_tree(tmp_path, {path: dockerfile, "README.md": readme})
    model = build_model(tmp_path / path, path)
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def _fence(*lines: str) -> str:
    return "# Tools\n\nBuild it:\n\n```bash\n" + "\n".join(lines) + "\n```\n"


@pytest.mark.parametrize(
    "command",
    [
        ("docker buildx build --platform linux/arm64 -f img/Dockerfile -t tools:arm img",),
        ("docker buildx build \\", "  --platform=linux/arm64/v8 \\", "  -f img/Dockerfile img"),
        ("docker build --platform linux/amd64,linux/aarch64 -f ./img/Dockerfile img",),
        ("podman build --platform linux/arm64 --file img/Dockerfile img",),
    ],
)
def test_a_platform_an_arch_namespace_is_not_for(tmp_path: Path, command: tuple[str, ...]) -> None:
    found = _audit(tmp_path, _fence(*command), AMD64_ONLY)
    assert len(found) == 1
    assert found[0].startswith("6: README builds img/Dockerfile for --platform linux/a")
    assert found[0].endswith(
        "but img/Dockerfile:2 starts FROM amd64/alpine:3.20, an image for amd64 only (certain)"
    )


@pytest.mark.parametrize(
    ("command", "dockerfile"),
    [
        ("docker buildx build --platform linux/amd64 -f img/Dockerfile img", AMD64_ONLY),
        ("docker buildx build --platform linux/x86_64 -f img/Dockerfile img", AMD64_ONLY),
        ("docker buildx build --platform linux/arm64 -f img/Dockerfile img", MULTI),
        (
            "docker buildx build --platform linux/arm64 --build-arg BASE=alpine:3.20 -f img/Dockerfile img",
            AMD64_ONLY,
        ),
        ("docker buildx build --platform $PLATFORM -f img/Dockerfile img", AMD64_ONLY),
        (
            "docker buildx build --platform linux/arm64 -f img/Dockerfile img",
            'ARG BASE="amd64/alpine:3.20"\nFROM --platform=$BUILDPLATFORM ${BASE}\nRUN true\n',
        ),
        ("docker buildx build --platform linux/arm64 -f other/Dockerfile other", AMD64_ONLY),
        (
            "docker buildx build --platform linux/arm64 --build-context amd64/alpine:3.20=docker-image://alpine"
            " -f img/Dockerfile img",
            AMD64_ONLY,
        ),
    ],
)
def test_a_platform_the_base_can_be_is_no_finding(tmp_path: Path, command: str, dockerfile: str) -> None:
    # (a -f naming a Dockerfile not audited is another rule's finding: only this rule's are looked at)
    assert [f for f in _audit(tmp_path, _fence(command), dockerfile) if "--platform" in f] == []


def test_an_arch_word_in_the_base_tag_is_likely(tmp_path: Path) -> None:
    dockerfile = "FROM example.com/team/runtime:1.4-amd64\nRUN true\n"
    found = _audit(tmp_path, _fence("docker build --platform linux/arm64 -t rt ."), dockerfile, "Dockerfile")
    assert found == [
        "6: README builds Dockerfile for --platform linux/arm64, but Dockerfile:1 starts FROM "
        "example.com/team/runtime:1.4-amd64, an image for amd64 only (likely)"
    ]
    # the same base built for its own architecture
    same = _fence("docker build --platform linux/amd64 -t rt .")
    assert _audit(tmp_path, same, dockerfile, "Dockerfile") == []


REGISTRY = (
    'ARG REGISTRY="ghcr.io/acme/"\nARG BUILDER="builder"\nARG TAG="main"\n'
    "FROM ${REGISTRY}${BUILDER}:${TAG} AS build\nRUN make\nFROM build AS final\nRUN true\n"
)


@pytest.mark.parametrize(
    "args",
    [
        '--build-arg REGISTRY="" --build-arg BUILDER=builder:local --build-arg TAG=""',
        "--build-arg BUILDER=builder:local",
        "--build-arg TAG=Main/Branch",
    ],
)
def test_build_args_that_make_the_from_reference_invalid(tmp_path: Path, args: str) -> None:
    found = _audit(tmp_path, _fence(f"docker build {args} -f img/Dockerfile img"), REGISTRY)
    assert len(found) == 1
    assert found[0].startswith("6: README builds img/Dockerfile with --build-arg ")
    assert (
        "which makes img/Dockerfile:4 FROM ${REGISTRY}${BUILDER}:${TAG} the invalid image reference"
        in found[0]
    )
    assert found[0].endswith("(certain)")


@pytest.mark.parametrize(
    "args",
    [
        '--build-arg REGISTRY="" --build-arg BUILDER=builder --build-arg TAG=local',
        "--build-arg REGISTRY=localhost:5000/ --build-arg TAG=v1.2",
        "--build-arg BUILDER=$IMAGE",
        "--build-arg BUILDER",
    ],
)
def test_build_args_giving_a_valid_reference_are_no_finding(tmp_path: Path, args: str) -> None:
    assert _audit(tmp_path, _fence(f"docker build {args} -f img/Dockerfile img"), REGISTRY) == []


def test_a_value_passed_for_an_arg_declared_without_default(tmp_path: Path) -> None:
    dockerfile = "ARG BASE\nARG TAG\nFROM ${BASE}:${TAG}\nRUN true\n"
    good = _fence("docker build --build-arg BASE=ubuntu --build-arg TAG=24.04 -f img/Dockerfile img")
    assert _audit(tmp_path, good, dockerfile) == []
    bad = _fence("docker build --build-arg BASE=ubuntu -f img/Dockerfile img")
    assert _audit(tmp_path, bad, dockerfile) == [
        "6: README builds img/Dockerfile with --build-arg BASE=ubuntu, which makes img/Dockerfile:3 "
        "FROM ${BASE}:${TAG} the invalid image reference 'ubuntu:' (certain)"
    ]


def test_a_platform_an_l4t_base_is_not_published_for(tmp_path: Path) -> None:
    dockerfile = "FROM nvcr.io/nvidia/l4t-cuda:12.2.12-devel\nRUN apt-get update\n"
    found = _audit(tmp_path, _fence("docker build --platform linux/amd64 -f img/Dockerfile img"), dockerfile)
    assert found == [
        "6: README builds img/Dockerfile for --platform linux/amd64, but img/Dockerfile:1 starts FROM "
        "nvcr.io/nvidia/l4t-cuda:12.2.12-devel, an image for arm64 only (certain)"
    ]
    assert (
        _audit(tmp_path, _fence("docker build --platform linux/arm64 -f img/Dockerfile img"), dockerfile)
        == []
    )
