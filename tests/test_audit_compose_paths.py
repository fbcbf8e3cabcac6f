"""`docgen.audit.compose_paths`: a compose file the README starts (its compose commands, after a `cd`;
the recipe of a `make` target it runs) whose `include:` names a file that is not there, or whose service
bind-mounts a configuration file nothing makes. Traps: a folder the application makes, a file the README
tells to create, a twin to copy, a `.gitignore`d file, a service with profiles, a compose file the README
never starts, a mount read through a variable."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.compose_paths import started_compose
from docgen.markdown import read_document

pytest.importorskip("yaml")

MAKEFILE = """\
.PHONY: up-proxy up-rag

env-check:
\t@test -f .env

up-proxy: env-check ## Start the proxy
\tcd proxy && docker compose up -d && cd ..

up-rag:
\t@cd rag && docker compose up -d

down-rag:
\tcd rag && docker compose down
"""
PROXY = """\
services:
  proxy:
    image: ghcr.io/example/proxy:1.2
    volumes:
      - ./data:/app/data
      - ./logs:/var/log/proxy
  grafana:
    image: grafana/grafana
    volumes:
      - ./grafana.ini:/etc/grafana/grafana.ini
  debug:
    image: busybox
    profiles: [debug]
    volumes:
      - ./debug.conf:/etc/debug.conf
"""
RAG = "include:\n  - ./compose-base.yml\nservices:\n  rag:\n    image: example/rag:0.9\n"
README = """\
# LLM stack

| Service | Port |
|---|---|
| Proxy | 4000 |
| Grafana | 3000 |

```bash
make up-proxy
make up-rag
```
"""


def found(root: Path, readme: str, files: dict[str, str | None]) -> list[str]:
    make_tree(root, {"README.md": readme, **{k: v for k, v in files.items() if v is not None}})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [], {}, root, root)
        if "includes" in d.message or "bind-mounts" in d.message
    ]


def test_make_targets_start_compose_files_that_lack_what_they_read(tmp_path: Path) -> None:
    # a model-serving stack: each make target enters a folder and starts its compose file
    files = {"Makefile": MAKEFILE, "proxy/docker-compose.yml": PROXY, "rag/docker-compose.yml": RAG}
    assert found(tmp_path, README, files) == [
        "6: README runs make up-proxy, whose recipe (Makefile:7) runs docker compose up in proxy "
        "(proxy/docker-compose.yml, line 9), whose service grafana bind-mounts ./grafana.ini onto "
        "/etc/grafana/grafana.ini (proxy/docker-compose.yml:10), but ./grafana.ini does not exist and "
        "nothing makes it: Docker creates an empty folder in its place, and the service cannot read its "
        "configuration (certain)",
        "10: README runs make up-rag, whose recipe (Makefile:10) runs docker compose up in rag, but "
        "rag/docker-compose.yml:2 includes ./compose-base.yml, which does not exist: compose stops while "
        "loading the file, before it starts any service (certain)",
    ]


@pytest.mark.parametrize(
    ("extra", "readme"),
    [
        ({"proxy/grafana.ini": "[server]\n", "rag/compose-base.yml": "services: {}\n"}, README),
        ({"proxy/grafana.ini.example": "[server]\n", "rag/compose-base.yml": "services: {}\n"}, README),
        ({"proxy/.gitignore": "grafana.ini\n", "rag/compose-base.yml": "services: {}\n"}, README),
        # a setup script beside the compose file writes it
        (
            {"proxy/setup.sh": "cp defaults.ini grafana.ini\n", "rag/compose-base.yml": "services: {}\n"},
            README,
        ),
        # the README tells the reader to write it
        (
            {"rag/compose-base.yml": "services: {}\n"},
            README + "\nWrite your settings to `proxy/grafana.ini`.\n",
        ),
    ],
)
def test_files_that_are_there_or_that_the_reader_makes(
    tmp_path: Path, extra: dict[str, str | None], readme: str
) -> None:
    files: dict[str, str | None] = {
        "Makefile": MAKEFILE,
        "proxy/docker-compose.yml": PROXY,
        "rag/docker-compose.yml": RAG,
        **extra,
    }
    assert found(tmp_path, readme, files) == []


def test_compose_files_the_readme_never_starts(tmp_path: Path) -> None:
    # `make down-rag` stops, it does not load an include; the proxy's file is never started
    readme = "# Stack\n\n```sh\nmake down-rag\n```\n"
    files: dict[str, str | None] = {
        "Makefile": MAKEFILE,
        "proxy/docker-compose.yml": PROXY,
        "rag/docker-compose.yml": RAG,
    }
    assert found(tmp_path, readme, files) == []


def test_a_compose_command_after_a_cd(tmp_path: Path) -> None:
    # a monitoring README: `cd deploy` then `docker compose -f monitoring.yml up`; a variable mount is
    # not read, a folder mount is the application's
    compose = (
        "services:\n  prometheus:\n    image: prom/prometheus\n    volumes:\n"
        "      - ./prometheus.yml:/etc/prometheus/prometheus.yml:ro\n"
        "      - ${RULES:-./rules.yml}:/etc/prometheus/rules.yml\n"
        "      - ./prom-data:/prometheus\n"
    )
    readme = "# Monitoring\n\n```bash\ncd deploy\ndocker compose -f monitoring.yml up -d\n```\n"
    assert found(tmp_path, readme, {"deploy/monitoring.yml": compose}) == [
        "5: README runs docker compose up (deploy/monitoring.yml), whose service prometheus bind-mounts "
        "./prometheus.yml onto /etc/prometheus/prometheus.yml (deploy/monitoring.yml:5), but "
        "./prometheus.yml does not exist and nothing makes it: Docker creates an empty folder in its "
        "place, and the service cannot read its configuration (certain)"
    ]


def test_started_files(tmp_path: Path) -> None:
    make_tree(
        tmp_path, {"Makefile": MAKEFILE, "proxy/docker-compose.yml": PROXY, "rag/docker-compose.yml": RAG}
    )
    started = started_compose(read_document(README, "README.md"), tmp_path, tmp_path)
    assert [(s.shown, s.line) for s in started] == [
        ("proxy/docker-compose.yml", 9),
        ("rag/docker-compose.yml", 10),
    ]
    # a `cd` that cannot be followed leaves the block's later commands unread
    blocked = "```sh\ncd $STACK\ndocker compose up\n```\n"
    make_tree(tmp_path, {"docker-compose.yml": "services: {}\n"})
    assert started_compose(read_document(blocked, "README.md"), tmp_path, tmp_path) == []


def test_names_no_file_can_have(tmp_path: Path) -> None:
    # a NUL (a YAML escape) or an overlong name in a mount or an include: no file, and no error
    mounts = (
        "services:\n  app:\n    image: nginx\n    volumes:\n"
        '      - "./a\\0b.conf:/etc/nginx/a.conf"\n'
        f'      - "./{"x" * 300}.conf:/etc/nginx/b.conf"\n'
    )
    readme = "# App\n\n```sh\ndocker compose up -d\n```\n"
    included = found(tmp_path / "one", readme, {"compose.yaml": 'include:\n  - "./base\\0.yml"\n' + mounts})
    assert len(included) == 1 and "includes ./base" in included[0]
    mounted = found(tmp_path / "two", readme, {"compose.yaml": mounts})
    assert [m.split(" bind-mounts ")[1][:6] for m in mounted] == ["./xxxx"]  # (a NUL is in no file's name)
