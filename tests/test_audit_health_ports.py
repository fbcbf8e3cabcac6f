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
