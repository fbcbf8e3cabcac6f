"""`docgen audit`: a `docker run` that moves the server to another port than the one the image's
HEALTHCHECK probes (docgen/audit/health_ports.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# an inference server image built on a tools image, its check in exec form
SERVER = """\
ARG TOOLS_IMAGE=ghcr.io/acme/infer:tools
FROM ${TOOLS_IMAGE}
RUN apt-get update && apt-get install -y curl
HEALTHCHECK CMD [ "curl", "-f", "http://localhost:7070/health" ]
ENTRYPOINT ["/opt/infer/serve"]
"""
# a JVM service whose CMD reads its port from the environment, its check in shell form with options
JVM = """\
FROM eclipse-temurin:21-jre
COPY build/libs/shop.jar /srv/shop.jar
EXPOSE 8081
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \\
  CMD curl -f http://127.0.0.1:8081/status || exit 1
CMD ["sh", "-c", "java -jar /srv/shop.jar --listen=${SHOP_PORT:-8081}"]
"""


def found(root: Path, dockerfile: str, name: str, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {name: dockerfile, "README.md": readme})
    model = build_model(root / name, name)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "HEALTHCHECK probes" in d.message
    ]


def block(*lines: str) -> str:
    return "# Infer\n\n```bash\n" + "\n".join(lines) + "\n```\n"


BUILD_SERVER = "docker build -t local/infer:server -f infer.Dockerfile ."


def test_a_port_option_after_the_image(tmp_path: Path) -> None:
    readme = block(
        BUILD_SERVER,
        "docker run --gpus all -v /models:/models local/infer:server -m /models/q4.gguf --port 9000",
    )
    assert found(tmp_path, SERVER, "infer.Dockerfile", readme) == [
        (
            5,
            "README runs local/infer:server with --port 9000, but infer.Dockerfile:4 HEALTHCHECK probes port "
            "7070: the server listens on 9000, the check fails and docker reports the container unhealthy",
            "likely",
        )
    ]


def test_an_environment_variable_the_program_reads(tmp_path: Path) -> None:
    readme = block("docker build -t shop .", "docker run -d -p 9090:9090 -e SHOP_PORT=9090 shop")
    assert found(tmp_path, JVM, "Dockerfile", readme) == [
        (
            5,
            "README runs shop with -e SHOP_PORT=9090, but Dockerfile:4 HEALTHCHECK probes port 8081: the "
            "server listens on 9090, the check fails and docker reports the container unhealthy",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "run",
    [
        "docker run local/infer:server -m /models/q4.gguf --port 7070",  # the same port
        "docker run --port-hint local/infer:server --port 9000",  # an option docgen does not know
        "docker run --no-healthcheck local/infer:server --port 9000",
        "docker run --health-cmd 'curl -f localhost:9000/health' local/infer:server --port 9000",
        "docker run --entrypoint /opt/infer/bench local/infer:server --port 9000",
        "docker run -p 9000:7070 local/infer:server -m /models/q4.gguf",  # the host's port only
        "docker run ghcr.io/acme/infer:server --port 9000",  # not built by the README
        "docker run local/infer:other --port 9000",
    ],
)
def test_runs_that_keep_the_check_right_or_leave_it(tmp_path: Path, run: str) -> None:
    readme = block(BUILD_SERVER, "docker build -t local/infer:other -f other.Dockerfile .", run)
    assert found(tmp_path, SERVER, "infer.Dockerfile", readme) == []


@pytest.mark.parametrize(
    "check",
    [
        'HEALTHCHECK CMD curl -f "http://localhost:${PORT:-7070}/health" || exit 1',  # reads the port
        "HEALTHCHECK NONE",
        "HEALTHCHECK CMD curl -f http://localhost:7070/live && curl -f http://localhost:7071/ready",
        "HEALTHCHECK CMD /opt/infer/probe",  # no port written
    ],
)
def test_checks_that_do_not_name_one_fixed_port(tmp_path: Path, check: str) -> None:
    dockerfile = SERVER.replace('HEALTHCHECK CMD [ "curl", "-f", "http://localhost:7070/health" ]', check)
    readme = block(BUILD_SERVER, "docker run local/infer:server --port 9000")
    assert found(tmp_path, dockerfile, "infer.Dockerfile", readme) == []


def test_an_environment_variable_the_program_does_not_read(tmp_path: Path) -> None:
    readme = block("docker build -t shop .", "docker run -d -e PORT=9090 -e SHOP_MODE=9090 shop")
    assert found(tmp_path, JVM, "Dockerfile", readme) == []


# one Dockerfile, several targets: only the server stage has the check
TARGETS = """\
FROM ubuntu:24.04 AS base
RUN apt-get update && apt-get install -y curl
FROM base AS tools
COPY bin/ /opt/kit/
ENTRYPOINT ["/opt/kit/tools.sh"]
FROM base AS server
COPY bin/serve /opt/kit/serve
HEALTHCHECK CMD curl -f http://localhost:5050/healthz || exit 1
ENTRYPOINT ["/opt/kit/serve"]
"""


def test_the_check_of_the_target_built(tmp_path: Path) -> None:
    readme = block(
        "docker build -t kit:tools --target tools -f kit.Dockerfile .",
        "docker build -t kit:server --target=server -f kit.Dockerfile .",
        "docker run kit:tools --serve --port 6000",
        "docker run kit:server --port 6000",
    )
    assert [
        (line, confidence) for line, _, confidence in found(tmp_path, TARGETS, "kit.Dockerfile", readme)
    ] == [(7, "likely")]


# -- a plain-HTTP check of a port the README reaches only over HTTPS

SPEECH = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir speechd
ENV SPEECHD_PORT=8443
EXPOSE 8443
HEALTHCHECK --interval=30s CMD python -c "import urllib.request; urllib.request.urlopen('http://localhost:8443/health')"
CMD ["python", "-m", "speechd"]
"""
"""Modelled on a speech server that serves TLS with a self-signed certificate by default."""

SPEECH_README = """\
# Speechd

```bash
docker run -d -p 8443:8443 ghcr.io/acme/speechd:latest
```

Open **https://localhost:8443/ui** and accept the self-signed certificate.

```bash
curl -sk https://localhost:8443/v1/transcribe -F file=@talk.wav
```
"""

MAPS = """\
FROM node:20-slim
COPY . /srv
EXPOSE 3000
HEALTHCHECK CMD curl -f http://127.0.0.1:3000/healthz || exit 1
CMD ["node", "/srv/index.js"]
"""
"""Modelled on a tile server behind a TLS proxy."""


def test_a_plain_http_check_of_a_port_reached_over_https(tmp_path: Path) -> None:
    assert found(tmp_path, SPEECH, "Dockerfile", SPEECH_README) == [
        (
            7,
            "README reaches port 8443 only over HTTPS (https://localhost:8443, 2 times), but Dockerfile:5 "
            "HEALTHCHECK probes http://localhost:8443: a plain HTTP request to a TLS listener fails and "
            "docker reports the container unhealthy",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("dockerfile", "readme"),
    [
        # the README also reaches the port over plain HTTP: TLS is optional
        (SPEECH, SPEECH_README + "\nWith `SSL=false`, use `http://localhost:8443/ui`.\n"),
        # one https URL only
        (
            SPEECH,
            SPEECH_README.replace("curl -sk https://localhost:8443", "curl -sk https://speech.example.com"),
        ),
        # the check asks https
        (SPEECH.replace("'http://localhost:8443/health'", "'https://localhost:8443/health'"), SPEECH_README),
        # a TLS proxy on another port in front of the server
        (
            MAPS,
            "# Maps\n\nOpen https://localhost:443/ after `docker compose up`; "
            "tiles at https://localhost:443/tiles.\n",
        ),
        # no check
        (SPEECH.replace("HEALTHCHECK", "# HEALTHCHECK"), SPEECH_README),
    ],
)
def test_checks_that_speak_what_the_port_serves(tmp_path: Path, dockerfile: str, readme: str) -> None:
    assert found(tmp_path, dockerfile, "Dockerfile", readme) == []


# -- an image whose own HEALTHCHECK probes a port its server does not listen on (`unserved_checks`)

# a CPU llama.cpp server that moves the port through the variable llama-server reads (no option)
TIERS = """\
FROM alpine:3.20 AS build
RUN apk add --no-cache git cmake build-base curl-dev
RUN git clone https://github.com/ggerganov/llama.cpp /src && cmake -S /src -B /b && cmake --build /b
FROM alpine:3.20
RUN apk add --no-cache curl libstdc++ libgomp
COPY --from=build /b/bin/llama-server /usr/local/bin/llama-server
ENV LLAMA_ARG_HOST=0.0.0.0 \\
    LLAMA_ARG_PORT=11500
HEALTHCHECK CMD [ "curl", "-f", "http://localhost:8080/health" ]
EXPOSE 11500
ENTRYPOINT [ "/usr/local/bin/llama-server" ]
"""
TIERS_README = """\
# tiny-llama-box

* It listens on port 11500, like the daemon it replaces.
* It features health checks
* It runs as an unprivileged user

```
docker run -d -p 11500:11500 ghcr.io/acme/tiny-llama-box:t1
```
"""
# a FastAPI service whose uvicorn is given its port on the command line
MASKS = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir fastapi uvicorn
COPY app/ /srv/app/
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s \\
  CMD curl -f http://127.0.0.1:8080/health || exit 1
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000"]
"""
MASKS_README = """\
# Mask service

## Features

The container has a built-in health check, so compose restarts it when it hangs.

```bash
docker build -t masks .
docker run -p 8000:8000 masks
```
"""
# a gunicorn app whose shell-form CMD reads the port from ENV
SHELF = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir flask gunicorn
ENV APP_PORT=5001
COPY . /srv
HEALTHCHECK CMD wget -qO- http://localhost:5000/ping || exit 1
CMD gunicorn --workers 2 --bind 0.0.0.0:${APP_PORT} shelf:app
"""
SHELF_README = """\
# Shelf

## Health check

`docker ps` shows the container as healthy once the app answers.
"""


def unserved(root: Path, dockerfile: str, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "the server listens on" in d.message and "README says" in d.message
    ]


def test_a_check_of_the_default_port_after_an_env_variable_moved_it(tmp_path: Path) -> None:
    assert unserved(tmp_path, TIERS, TIERS_README) == [
        (
            4,
            "README says the image has health checks, but Dockerfile:9 HEALTHCHECK probes port 8080 while "
            "the server listens on 11500 (Dockerfile:8 ENV LLAMA_ARG_PORT=11500) and the image names 8080 "
            "nowhere else: the check fails and docker never reports the container healthy",
            "likely",
        )
    ]


def test_a_check_of_another_port_than_the_command_line_gives(tmp_path: Path) -> None:
    got = unserved(tmp_path, MASKS, MASKS_README)
    assert [(line, confidence) for line, _, confidence in got] == [(5, "likely")]
    assert "probes port 8080 while the server listens on 8000 (Dockerfile:7 (CMD))" in got[0][1]


def test_a_port_variable_the_command_reads(tmp_path: Path) -> None:
    got = unserved(tmp_path, SHELF, SHELF_README)
    assert [(line, confidence) for line, _, confidence in got] == [(3, "likely")]
    assert "probes port 5000 while the server listens on 5001 (Dockerfile:6 (CMD))" in got[0][1]


@pytest.mark.parametrize(
    ("dockerfile", "readme"),
    [
        (TIERS.replace("localhost:8080", "localhost:11500"), TIERS_README),  # the same port
        (TIERS.replace("LLAMA_ARG_PORT=11500", "LLAMA_ARG_CTX_SIZE=4096"), TIERS_README),  # not moved
        (TIERS, TIERS_README.replace("* It features health checks\n", "")),  # no claim
        (TIERS, TIERS_README.replace("It features health checks", "It has no health check yet")),
        (TIERS, TIERS_README.replace("It features", "A health check endpoint serves /health; it features")),
        # the README overrides the image's check
        (TIERS, TIERS_README.replace("docker run -d", "docker run -d --health-cmd 'curl -f :11500/health'")),
        # a proxy in front: the image names the probed port (EXPOSE 8080)
        (TIERS.replace("EXPOSE 11500", "EXPOSE 11500 8080"), TIERS_README),
        # a start script gets the command: it may start a proxy on the probed port
        (
            TIERS.replace('ENTRYPOINT [ "/usr/local/bin/llama-server" ]', 'ENTRYPOINT ["/start.sh"]'),
            TIERS_README,
        ),
        # the port variable of another program the image does not start
        (
            SHELF.replace("APP_PORT=5001", "REDIS_PORT=6379").replace("${APP_PORT}", "5000"),
            SHELF_README,
        ),
        (SHELF.replace("localhost:5000", "localhost:${APP_PORT}"), SHELF_README),  # the check reads it
        (MASKS.replace('"--port", "8000"', '"--port", "8080"'), MASKS_README),
    ],
)
def test_checks_of_the_served_port_or_of_what_the_image_names(
    tmp_path: Path, dockerfile: str, readme: str
) -> None:
    assert unserved(tmp_path, dockerfile, readme) == []


# a Node app that sets no port for its program: EXPOSE is where the README says it serves
BOARD = """\
FROM node:20-slim
WORKDIR /srv
COPY . .
RUN npm ci --omit=dev
EXPOSE 3000
HEALTHCHECK CMD node -e "require('http').get('http://localhost:4000/healthz', r => process.exit(0))"
CMD ["node", "server.js"]
"""
BOARD_README = """\
# Board

The image ships a health check.

```bash
docker run -d -p 8080:3000 acme/board
```
"""


def test_a_check_of_another_port_than_the_one_exposed_and_published(tmp_path: Path) -> None:
    got = unserved(tmp_path, BOARD, BOARD_README)
    assert [(line, confidence) for line, _, confidence in got] == [(3, "likely")], got
    assert (
        "probes port 4000 while the server listens on 3000 (Dockerfile:5 EXPOSE 3000, as the README"
        in got[0][1]
    )


@pytest.mark.parametrize(
    ("dockerfile", "readme"),
    [
        (BOARD, BOARD_README.replace("-p 8080:3000", "-p 8080:4000")),  # the README publishes the probed one
        (BOARD, BOARD_README.replace(" -p 8080:3000", "")),  # the README names no port
        (BOARD.replace("EXPOSE 3000", "EXPOSE 3000 9229"), BOARD_README),  # which one serves is unclear
        (BOARD.replace("EXPOSE 3000", "ENV PORT=4000\nEXPOSE 3000"), BOARD_README),  # the image names 4000
        (BOARD.replace('["node", "server.js"]', '["/srv/start.sh"]'), BOARD_README),  # a start script
        # a server with a default port of its own: the check may ask it rightly, EXPOSE be stale
        (BOARD.replace('["node", "server.js"]', '["uvicorn", "app:api"]'), BOARD_README),
    ],
)
def test_an_exposed_port_the_readme_does_not_back(tmp_path: Path, dockerfile: str, readme: str) -> None:
    assert unserved(tmp_path, dockerfile, readme) == []
