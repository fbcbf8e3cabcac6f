"""`docgen audit`: compose files a README starts that compose refuses while loading them, and prose that
says compose builds an image no service builds (docgen/audit/compose_loads.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

APP = "FROM python:3.12-slim\nCOPY . /app\n"


def found(root: Path, readme: str, files: dict[str, str], words: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if words in d.message
    ]


# `${NAME:default}`

SD_COMPOSE = """\
services:
  ui:
    build: .
    volumes:
      - ${MODELS_DIR:./models}:/models
    ports:
      - "7860:7860"
"""


def test_a_default_written_without_a_dash(tmp_path: Path) -> None:
    readme = "# UI\n\n## Setup\n\n1. `cp .env.example .env`\n2. `docker compose up -d`\n"
    assert found(tmp_path, readme, {"docker-compose.yml": SD_COMPOSE}, "interpolation") == [
        (
            6,
            "README runs docker compose up, but docker-compose.yml:5 writes ${MODELS_DIR:./models}, which is "
            "no compose interpolation (${MODELS_DIR:-./models} gives a default): compose refuses the file "
            "while loading it (invalid interpolation format)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "source",
    [
        "${MODELS_DIR:-./models}",
        "${MODELS_DIR-./models}",
        "${MODELS_DIR:?set MODELS_DIR}",
        "${MODELS_DIR:+./models}",
        "${MODELS_DIR}",
        "$${MODELS_DIR:x}",  # an escaped dollar: compose leaves it to the container
        "./models  # was ${MODELS_DIR:./models}",  # a comment
    ],
)
def test_interpolations_compose_reads_are_no_claim(tmp_path: Path, source: str) -> None:
    compose = SD_COMPOSE.replace("${MODELS_DIR:./models}", source)
    readme = "# UI\n\n```sh\ndocker compose up -d\n```\n"
    assert found(tmp_path, readme, {"docker-compose.yml": compose}, "interpolation") == []


def test_a_file_the_readme_does_not_start_is_no_claim(tmp_path: Path) -> None:
    readme = "# UI\n\n```sh\ndocker build -t ui .\ndocker run ui\n```\n"
    assert found(tmp_path, readme, {"docker-compose.yml": SD_COMPOSE}, "interpolation") == []


# `external: true`

COMFY_COMPOSE = """\
services:
  comfy:
    build: .
    volumes:
      - "hub_cache:/home/app/.cache/huggingface"
  files:
    image: filebrowser/filebrowser
    networks: [edge]

volumes:
  hub_cache:
    external: true
networks:
  edge:
    external:
      name: proxy_edge
"""
UP_SH = '#!/usr/bin/env bash\necho "UID=$UID" > .env\nmkdir -p ./workspace\ndocker-compose up -d\n'


def test_an_external_volume_and_network_nothing_creates(tmp_path: Path) -> None:
    readme = "# Comfy\n\n## Usage\n\nRun the `up.sh` script to start the containers.\n"
    said = "README runs up.sh, whose docker compose up (up.sh:4), but docker-compose.yml"
    assert found(tmp_path, readme, {"docker-compose.yml": COMFY_COMPOSE, "up.sh": UP_SH}, "external") == [
        (
            5,
            f"{said}:11 declares the volume hub_cache external: true, and nothing the README runs creates it "
            '(docker volume create hub_cache): compose stops (external volume "hub_cache" not found)',
            "certain",
        ),
        (
            5,
            f"{said}:14 declares the network proxy_edge external: true, and nothing the README runs creates "
            'it (docker network create proxy_edge): compose stops (external network "proxy_edge" not found)',
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    ("readme", "more"),
    [
        # a README step creates them
        (
            "# Comfy\n\n```sh\ndocker volume create hub_cache\ndocker network create proxy_edge\n"
            "docker compose up -d\n```\n",
            {},
        ),
        # the README names the volume (made by another project, say)
        (
            "# Comfy\n\nThe `hub_cache` volume and `proxy_edge` network come from the proxy stack.\n\n"
            "```sh\ndocker compose up -d\n```\n",
            {},
        ),
        # a script beside the README creates them
        (
            "# Comfy\n\n```sh\n./init.sh\ndocker compose up -d\n```\n",
            {"init.sh": "#!/bin/sh\ndocker volume create hub_cache\ndocker network create proxy_edge\n"},
        ),
        # another compose file beside it declares them (the stack that makes them)
        (
            "# Comfy\n\n```sh\ndocker compose up -d\n```\n",
            {"proxy.yml": "networks:\n  proxy_edge:\nvolumes:\n  hub_cache:\n"},
        ),
    ],
)
def test_an_external_the_project_creates_is_no_claim(
    tmp_path: Path, readme: str, more: dict[str, str]
) -> None:
    files = {"docker-compose.yml": COMFY_COMPOSE, **more}
    assert found(tmp_path, readme, files, "external") == []


def test_an_external_named_by_a_variable_is_no_claim(tmp_path: Path) -> None:
    compose = (
        "services:\n  a:\n    image: x/y\nvolumes:\n  data:\n    external: true\n    name: ${DATA_VOLUME}\n"
    )
    readme = "# A\n\n```sh\ndocker compose up -d\n```\n"
    assert found(tmp_path, readme, {"docker-compose.yml": compose}, "external") == []


# prose saying compose builds the image

WHISPER_COMPOSE = (
    "services:\n  whisper:\n    image: someone/whisper-gpu:latest\n  db:\n    image: postgres:15\n"
)


def test_prose_saying_compose_builds_an_image_no_service_builds(tmp_path: Path) -> None:
    readme = (
        "# Whisper\n\n## Compose\n\n```bash\ndocker-compose up -d\n```\n\nThis will:\n"
        "- Build the image if it doesn't exist\n- Start the container in detached mode\n"
    )
    assert found(tmp_path, readme, {"docker-compose.yml": WHISPER_COMPOSE}, "builds none") == [
        (
            10,
            'README says "Build the image if it doesn\'t exist" of the docker compose command at line 6, '
            "but no service of docker-compose.yml has a build: (it runs whisper "
            "(someone/whisper-gpu:latest), db (postgres:15)): compose pulls the images and builds none",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("after", "compose"),
    [
        ("This builds the image and starts it.", "services:\n  whisper:\n    build: .\n"),  # it builds
        ("This does not build the image: it pulls it.", WHISPER_COMPOSE),  # it says so
        ("To rebuild the image, run `docker build -t whisper .`.", WHISPER_COMPOSE),  # the README's build
        (
            "This builds the image.",
            "services:\n  whisper:\n    image: a/b\n    extends:\n      file: base.yml\n      service: w\n",
        ),
    ],
)
def test_prose_compose_bears_out_is_no_claim(tmp_path: Path, after: str, compose: str) -> None:
    readme = f"# Whisper\n\n```bash\ndocker compose up -d\n```\n\n{after}\n"
    assert found(tmp_path, readme, {"docker-compose.yml": compose}, "builds none") == []


# what a service names that no file of the project declares

SPLIT_SERVICE = """\
services:
  llm:
    image: acme/llm-server:latest
    ports:
      - "11434:11434"
    networks:
      - chat_net
"""
"""One service of a stack split into a file a service (the shape of a home-lab repository whose README runs
each file with `-f`): the network is declared in the file of another service."""


def test_a_network_no_file_of_the_command_declares(tmp_path: Path) -> None:
    readme = "# Stack\n\n```bash\ndocker-compose -f stack/llm.yaml up\n```\n"
    files = {"stack/llm.yaml": SPLIT_SERVICE, "stack/webui.yaml": "services: {}\nnetworks:\n  chat_net:\n"}
    assert found(tmp_path, readme, files, "undefined") == [
        (
            4,
            "README runs docker compose up, but its service llm (stack/llm.yaml:7) joins the network "
            "chat_net, which no top-level networks: declares in stack/llm.yaml: compose refuses the project "
            'while loading it (service "llm" refers to undefined network chat_net) and starts nothing',
            "certain",
        )
    ]


def test_the_file_that_declares_it_given_too_is_no_claim(tmp_path: Path) -> None:
    files = {"stack/llm.yaml": SPLIT_SERVICE, "stack/net.yaml": "networks:\n  chat_net:\n    name: chat\n"}
    readme = "# Stack\n\n```bash\ndocker compose -f stack/net.yaml -f stack/llm.yaml up -d\n```\n"
    assert found(tmp_path, readme, files, "undefined") == []
    # the override compose merges by default, with no `-f`
    override = {"compose.yaml": SPLIT_SERVICE, "compose.override.yaml": "networks:\n  chat_net: {}\n"}
    assert found(tmp_path / "b", "# Stack\n\n```bash\ndocker compose up\n```\n", override, "undefined") == []
    # a file it includes
    including = {
        "compose.yaml": "include:\n  - net.yaml\n" + SPLIT_SERVICE,
        "net.yaml": "networks:\n  chat_net:\n",
    }
    assert found(tmp_path / "c", "# Stack\n\n```bash\ndocker compose up\n```\n", including, "undefined") == []
    # `COMPOSE_FILE` in the folder's .env: compose reads the files it lists instead
    listed = {"compose.yaml": SPLIT_SERVICE, ".env": "COMPOSE_FILE=compose.yaml:net.yaml\n"}
    assert found(tmp_path / "d", "# Stack\n\n```bash\ndocker compose up\n```\n", listed, "undefined") == []


WIKI_COMPOSE = """\
services:
  wiki:
    build: .
    depends_on:
      db:
        condition: service_healthy
      cache:
        required: false
    volumes:
      - wiki-data:/var/lib/wiki
      - ./config:/etc/wiki
      - /srv/shared:/shared
      - ~/.cache:/root/.cache
      - ${LOGS_DIR:-./logs}:/logs
      - /tmp/scratch
    secrets:
      - db_password
    configs:
      - source: wiki_conf
        target: /etc/wiki/wiki.conf
    networks:
      - default
  db:
    image: postgres:16
    volumes:
      - type: volume
        source: db-data
        target: /var/lib/postgresql/data
    network_mode: host
volumes:
  wiki-data:
  db-data:
secrets:
  db_password:
    file: ./secrets/db_password.txt
configs:
  wiki_conf:
    file: ./wiki.conf
"""
"""A wiki and its database (the shape of a self-hosted app's compose file): every reference declared."""


def test_references_the_file_declares_are_no_claim(tmp_path: Path) -> None:
    readme = "# Wiki\n\n```sh\ndocker compose up -d\n```\n"
    assert found(tmp_path, readme, {"docker-compose.yml": WIKI_COMPOSE}, "undefined") == []


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("volumes:\n  wiki-data:\n  db-data:\n", "volumes:\n  wiki-data:\n"),
            "mounts the named volume db-data",
        ),
        (
            ("secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n", ""),
            "reads the secret db_password",
        ),
        (("configs:\n  wiki_conf:\n    file: ./wiki.conf\n", ""), "reads the config wiki_conf"),
        (
            ("    depends_on:\n      db:", "    depends_on:\n      database:"),
            "depends on the service database",
        ),
        (("    network_mode: host", "    network_mode: service:vpn"), "takes the network of the service vpn"),
        (("    image: postgres:16\n", ""), "has neither an image: nor a build:"),
    ],
)
def test_a_reference_no_file_declares(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    assert edit[0] in WIKI_COMPOSE
    compose = WIKI_COMPOSE.replace(*edit)
    readme = "# Wiki\n\n```sh\ndocker compose up -d\n```\n"
    (finding,) = found(tmp_path, readme, {"docker-compose.yml": compose}, "compose refuses the project")
    assert message in finding[1] and finding[2] == "certain"


def test_a_build_secret_and_an_extended_file_that_are_not_there(tmp_path: Path) -> None:
    compose = (
        "services:\n  api:\n    build:\n      context: .\n      secrets:\n        - npm_token\n"
        "  worker:\n    extends:\n      file: common.yml\n      service: base\n"
    )
    readme = "# API\n\n```sh\ndocker compose up\n```\n"
    (finding,) = found(tmp_path, readme, {"compose.yaml": compose}, "compose refuses the project")
    assert "builds with the secret npm_token" in finding[1]
    assert "(1 more such reference too)" in finding[1]
    # what a service extends from a file that is there may bring its networks and volumes
    base = "services:\n  base:\n    image: acme/worker\n    networks: [jobs]\n"
    extended = compose.replace(
        "        - npm_token\n", "        - npm_token\nsecrets:\n  npm_token:\n    environment: NPM_TOKEN\n"
    )
    extended = extended.replace("      service: base\n", "      service: base\n    networks: [jobs]\n")
    assert found(tmp_path / "b", readme, {"compose.yaml": extended, "common.yml": base}, "undefined") == []


def test_a_service_of_a_profile_or_a_file_the_readme_does_not_start_is_no_claim(tmp_path: Path) -> None:
    profiled = SPLIT_SERVICE.replace("    image:", "    profiles: [gpu]\n    image:")
    readme = "# Stack\n\n```bash\ndocker compose -f stack/llm.yaml up\n```\n"
    assert found(tmp_path, readme, {"stack/llm.yaml": profiled}, "undefined") == []
    told = "# Stack\n\nAdd the service of [stack/llm.yaml](stack/llm.yaml) to your own compose file.\n"
    assert found(tmp_path / "b", told, {"stack/llm.yaml": SPLIT_SERVICE}, "undefined") == []
    # a network named by a variable, or a section compose would read otherwise (left empty)
    variable = SPLIT_SERVICE.replace("chat_net", "${NETWORK:-chat_net}")
    assert found(tmp_path / "c", readme, {"stack/llm.yaml": variable}, "undefined") == []
    empty = SPLIT_SERVICE + "networks:\n"
    assert found(tmp_path / "d", readme, {"stack/llm.yaml": empty}, "undefined") == []
