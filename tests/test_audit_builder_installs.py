"""`docgen.audit.builder_installs`: a component a README lists as in the image that only a stage the
image is not built from installs, while the image takes other files of that stage, is a finding; one the
image takes with a broad copy (`/usr/local`, a virtual environment), one its own stages name, one a
copied wheel brings, one its base carries, one a `RUN --mount` reads, and one the image's stage is built
on are not."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# modelled on an inference server image that rebuilds a plugin with a newer CMake in a builder stage
SERVER = """\
ARG BASE_IMAGE=nvcr.io/nvidia/tritonserver:23.03-py3
FROM ${BASE_IMAGE} AS base
RUN apt-get update && apt-get install -y --no-install-recommends libssl-dev ffmpeg

FROM base AS builder
WORKDIR /tmp
RUN wget https://github.com/Kitware/CMake/releases/download/v3.27.9/cmake-3.27.9-linux-x86_64.tar.gz \\
    && tar -zxf cmake-3.27.9-linux-x86_64.tar.gz \\
    && cp -rf cmake-3.27.9-linux-x86_64/bin/ cmake-3.27.9-linux-x86_64/share/ /usr/local/
RUN git clone https://github.com/acme/fastplug /tmp/fastplug \\
    && cd /tmp/fastplug && mkdir build && cd build && cmake .. && make -j8 \\
    && mkdir -p /plugins && cp libfastplug.so /plugins/

FROM base AS runtime
COPY --from=builder /plugins /opt/plugins
RUN pip install --no-cache-dir opencv-python numpy
"""
SERVER_README = """\
# Acme server

## Additional

- opencv
- [CMake](https://github.com/Kitware/CMake)
- [fastplug](https://github.com/acme/fastplug)
"""

# modelled on a small Go service: the build stage has the protocol compiler, the image only the binary
SERVICE = """\
FROM golang:1.22-bookworm AS build
RUN apt-get update && apt-get install -y protobuf-compiler
WORKDIR /src
COPY . .
RUN protoc --go_out=. api/*.proto && go build -o /src/out/relayd ./cmd/relayd

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y ca-certificates tini
COPY --from=build /src/out/relayd /usr/local/bin/relayd
ENTRYPOINT ["tini", "--", "relayd"]
"""
SERVICE_README = """\
# relayd

The image includes:

- `ca-certificates`
- `tini`
- `protobuf-compiler`
"""


def findings(root: Path, readme: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_tool_only_the_builder_stage_installs(tmp_path: Path) -> None:
    assert findings(tmp_path, SERVER_README, SERVER) == [
        "6: README lists CMake as in the image, but Dockerfile installs it only in stage builder"
        " (Dockerfile:7), which the image is not built from: it takes only /plugins of that stage"
        " (line 15) (likely)"
    ]


def test_a_package_only_the_build_stage_installs(tmp_path: Path) -> None:
    assert findings(tmp_path, SERVICE_README, SERVICE, {"cmd/relayd/main.go": "package main\n"}) == [
        "7: README lists protobuf-compiler as in the image, but Dockerfile installs it only in stage build"
        " (Dockerfile:2), which the image is not built from: it takes only /src/out/relayd of that stage"
        " (line 9) (likely)"
    ]


def test_a_broad_copy_of_the_builder_takes_it(tmp_path: Path) -> None:
    for number, copy in enumerate(
        [
            "COPY --from=builder /usr/local /usr/local",
            "COPY --from=builder /plugins /opt/plugins\nCOPY --from=builder /usr/local/bin/cmake /usr/bin/",
            "COPY --from=builder / /",
            "COPY --from=builder /plugins/*.so /opt/plugins/",
        ]
    ):
        dockerfile = SERVER.replace("COPY --from=builder /plugins /opt/plugins", copy)
        assert findings(tmp_path / str(number), SERVER_README, dockerfile) == [], copy


def test_a_virtual_environment_or_a_prefix_the_install_is_pointed_at(tmp_path: Path) -> None:
    venv = """\
FROM python:3.12-slim AS build
RUN python -m venv /opt/venv && /opt/venv/bin/pip install uvicorn fastapi
FROM python:3.12-slim
COPY --from=build /opt/venv /opt/venv
"""
    readme = "# Api\n\n## Installed packages\n\n- uvicorn\n- fastapi\n"
    assert findings(tmp_path / "a", readme, venv) == []
    prefix = """\
FROM python:3.12-slim AS build
RUN pip install --prefix=/install uvicorn fastapi
FROM python:3.12-slim
COPY --from=build /install /usr/local
"""
    assert findings(tmp_path / "b", readme, prefix) == []
    env_prefix = """\
FROM python:3.12-slim AS build
ENV PIP_PREFIX=/deps
RUN pip install uvicorn fastapi
FROM python:3.12-slim
COPY --from=build /deps /usr/local
"""
    assert findings(tmp_path / "c", readme, env_prefix) == []


def test_wheels_built_in_the_builder_and_installed_in_the_image(tmp_path: Path) -> None:
    wheels = """\
FROM python:3.12 AS build
RUN pip wheel --wheel-dir /wheels uvicorn fastapi
FROM python:3.12-slim
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl
"""
    readme = "# Api\n\n## Installed packages\n\n- uvicorn\n- fastapi\n"
    assert findings(tmp_path / "a", readme, wheels) == []
    mounted = """\
FROM python:3.12 AS build
RUN pip wheel --wheel-dir /out/whl uvicorn fastapi && mkdir -p /out/etc && echo x > /out/etc/app.conf
FROM python:3.12-slim
COPY --from=build /out/etc /etc/app
RUN --mount=type=bind,from=build,source=/out/whl,target=/w pip install /w/*.whl
"""
    assert findings(tmp_path / "b", readme, mounted) == []


def test_what_the_image_names_itself_or_its_base_carries(tmp_path: Path) -> None:
    # the image's own stage installs it too
    again = SERVICE.replace(
        "install -y ca-certificates tini", "install -y ca-certificates tini protobuf-compiler"
    )
    assert findings(tmp_path / "a", SERVICE_README, again) == []
    # the image is built on the builder: all it installs is there
    chained = SERVER.replace(
        "FROM base AS runtime\nCOPY --from=builder /plugins /opt/plugins", "FROM builder AS runtime"
    )
    assert findings(tmp_path / "b", SERVER_README, chained) == []
    # a list of what the image holds (not of what it adds): a base not known to lack it may carry it
    held = SERVER_README.replace("## Additional", "## Installed packages")
    assert findings(tmp_path / "c", held, SERVER) == []


def test_words_that_make_the_item_no_claim_of_the_image(tmp_path: Path) -> None:
    later = SERVICE_README.replace("- `protobuf-compiler`", "- `protobuf-compiler` (optional)")
    assert findings(tmp_path / "a", later, SERVICE) == []
    tools = SERVICE_README.replace("The image includes:", "Build requirements:")
    assert findings(tmp_path / "b", tools, SERVICE) == []


def test_a_stage_the_image_does_not_build_is_not_read_here(tmp_path: Path) -> None:
    # no COPY --from of it: the stage is not built, so `contents` (not this rule) reads it
    unbuilt = SERVICE.replace("COPY --from=build /src/out/relayd /usr/local/bin/relayd\n", "")
    found = findings(tmp_path, SERVICE_README, unbuilt)
    assert not any("which the image is not built from" in f for f in found)


def test_a_working_folder_or_a_folder_the_install_is_pointed_at_relatively(tmp_path: Path) -> None:
    readme = "# Web\n\n## Installed packages\n\n- express\n"
    local = """\
FROM node:20 AS build
WORKDIR /build/web
RUN npm install express
FROM node:20-slim
COPY --from=build /build/web /web
"""
    assert findings(tmp_path / "a", readme, local) == []
    target = """\
FROM python:3.12 AS build
WORKDIR /build
RUN pip install --target ./deps express
FROM python:3.12-slim
COPY --from=build /build/deps /deps
"""
    assert findings(tmp_path / "b", readme, target) == []


def test_every_image_compared_must_leave_it_behind(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "Dockerfile": SERVICE,
            "Dockerfile.dev": SERVICE.replace(
                "install -y ca-certificates tini", "install -y ca-certificates tini protobuf-compiler"
            ),
            "README.md": SERVICE_README,
        },
    )
    models = [build_model(tmp_path / name, name) for name in ("Dockerfile", "Dockerfile.dev")]
    found = audit(SERVICE_README, "README.md", models, {}, tmp_path)
    assert not any("which the image is not built from" in d.message for d in found)


def test_another_builder_stage_that_names_it_is_taken_whole(tmp_path: Path) -> None:
    tools = """\
FROM base AS tools
RUN pip install --no-cache-dir cmake==3.27.9

"""
    dockerfile = SERVER.replace("FROM base AS runtime\n", tools + "FROM base AS runtime\n").replace(
        "COPY --from=builder /plugins /opt/plugins",
        "COPY --from=builder /plugins /opt/plugins\nCOPY --from=tools /usr/local /usr/local",
    )
    assert findings(tmp_path, SERVER_README, dockerfile) == []
