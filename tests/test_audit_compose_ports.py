"""`docgen.audit.compose_ports`: a compose service publishing a container port its server does not listen
on (its `command:`, else the CMD of the audited Dockerfile it builds, gives another `--port`), told on
the README lines that point at the host port, or on the `ports:` entry of a README compose example.
Traps: the server's port published too, the port named in the service's environment, several programs,
another service's port option, a host port the README never names, a second file publishing the host
port from the right container port, a README example whose command moves the port itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.compose_ports import said_ports
from docgen.markdown import read_document
from docgen.pipeline import build_model

pytest.importorskip("yaml")

SERVE = """\
services:
  llm:
    image: vllm/vllm-openai:v0.10.1
    ports:
      - "9998:8000"
    command: >
      --model Qwen/Qwen2.5-7B-Instruct
      --host 0.0.0.0
      --port 8001
      --max-model-len 32768
"""
STACK = """\
# Model stack

| Service | Port | Notes |
|---|---|---|
| Qwen 7B | 9998 | OpenAI API |
| Embeddings | 9997 | |

Query it with `curl http://localhost:9998/v1/models`.
"""


def found(root: Path, readme: str, files: dict[str, str], dockerfile: bool = False) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    models = [build_model(root / "Dockerfile", "Dockerfile")] if dockerfile else []
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root, root)
        if "starts the server on port" in d.message
        and "compose" in d.message + d.message
        or "points to port" in d.message
    ]


def test_a_compose_file_whose_command_moves_the_server(tmp_path: Path) -> None:
    # an LLM stack: a compose file per model in a folder of its own, the README's port table
    assert found(tmp_path, STACK, {"qwen-7b/docker-compose.yaml": SERVE}) == [
        "5: README points to port 9998, but qwen-7b/docker-compose.yaml:5 publishes it from container port "
        "8000 of service llm, while qwen-7b/docker-compose.yaml:9 (command) starts the server on port 8001: "
        "nothing listens behind host port 9998; also at line 8 (certain)"
    ]


@pytest.mark.parametrize(
    "compose",
    [
        SERVE.replace("--port 8001", "--port 8000"),  # the server's own port
        SERVE.replace('"9998:8000"', '"9998:8000"\n      - "9999:8001"'),  # its port published too
        SERVE + "    environment:\n      - METRICS_PORT=8000\n",  # the container port has another use
        SERVE.replace("--port 8001", "--db-port 8001"),  # another service's port
        SERVE.replace("command: >\n", 'command: sh -c "nginx &&\n').replace(
            "32768", '32768"'
        ),  # two programs
        SERVE.replace("--port 8001", "--port ${PORT:-8001}"),  # a variable
        SERVE.replace("9998", "9990"),  # a host port the README never names
    ],
)
def test_services_that_may_serve_the_port(tmp_path: Path, compose: str) -> None:
    assert found(tmp_path, STACK, {"qwen-7b/docker-compose.yaml": compose}) == []


def test_another_file_publishing_the_port_rightly(tmp_path: Path) -> None:
    # a GPU and a CPU variant of the service; the CPU one serves on the port it publishes
    cpu = SERVE.replace("--port 8001", "--port 8000").replace("vllm/vllm-openai", "example/cpu-server")
    files = {"gpu/docker-compose.yaml": SERVE, "cpu/docker-compose.yaml": cpu}
    assert found(tmp_path, STACK, files) == []


DOCKERFILE = """\
FROM python:3.10-slim
WORKDIR /app
COPY . .
EXPOSE 8020
CMD ["python", "server.py", "--host", "0.0.0.0", "--port", "8020"]
"""
EXAMPLE = """\
# TTS API

## Docker Compose

Create `docker-compose.yml`:

```yaml
services:
  tts:
    build: .
    ports:
      - "8000:8000"
    volumes:
      - ./models:/app/models
```

Then open http://localhost:8000/docs.
"""


def test_a_readme_example_that_keeps_the_image_command(tmp_path: Path) -> None:
    # a speech API's README: its compose example builds the image and keeps its CMD
    assert found(tmp_path, EXAMPLE, {"Dockerfile": DOCKERFILE, "server.py": ""}, dockerfile=True) == [
        "12: README's compose example publishes container port 8000 of service tts, but Dockerfile:5 (CMD) "
        "starts the server on port 8020: the published port reaches nothing (certain)"
    ]


def test_a_readme_example_that_moves_the_port_itself(tmp_path: Path) -> None:
    example = EXAMPLE.replace("    volumes:", "    command: python server.py --port 8000\n    volumes:")
    assert found(tmp_path, example, {"Dockerfile": DOCKERFILE, "server.py": ""}, dockerfile=True) == []
    # a command that moves it elsewhere is told at the example's own line (likely: no address given)
    moved = EXAMPLE.replace("    volumes:", "    command: python server.py --port 8080\n    volumes:")
    assert found(tmp_path, moved, {"Dockerfile": DOCKERFILE, "server.py": ""}, dockerfile=True) == [
        "12: README's compose example publishes container port 8000 of service tts, but line 13 (command) "
        "starts the server on port 8080: the published port reaches nothing (likely)"
    ]


def test_said_ports() -> None:
    doc = read_document(STACK + "\nThe API listens on port 7000; `8080` port is the UI's.\n", "README.md")
    assert said_ports(doc) == {"9998": [5, 8], "9997": [6], "7000": [10], "8080": [10]}


SEARCH_README = """\
# Catalog search

## Run

```bash
git clone https://example.com/acme/catalog-search && cd catalog-search
docker compose up -d
```

Query it:

```bash
curl -F image=@shoe.jpg http://localhost:8000/search
```
"""
SEARCH_COMPOSE = """\
services:
  api:
    build:
      context: .
      dockerfile: docker/Dockerfile
    ports:
      - "8000:8000"
    depends_on:
      - db
  db:
    image: postgres:16
    ports:
      - "5432:5432"
  inference:
    image: nvcr.io/nvidia/tritonserver:24.08-py3
    command: tritonserver --model-repository=/models
    ports:
      - "8000:8000"
      - "8001:8001"
"""
SEARCH_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /app
COPY . .
EXPOSE 8000
CMD ["uvicorn", "search.main:app", "--host", "0.0.0.0", "--port", "8080"]
"""


def _search(root: Path, compose_file: str, readme: str = SEARCH_README) -> list[str]:
    make_tree(
        root,
        {"README.md": readme, "docker-compose.yml": compose_file, "docker/Dockerfile": SEARCH_DOCKERFILE},
    )
    models = [build_model(root / "docker/Dockerfile", "docker/Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root, root)
        if "publish" in d.message
    ]


def test_two_services_started_together_on_one_host_port(tmp_path: Path) -> None:
    # an image-search API and the inference server it calls both publish host port 8000: the second
    # cannot bind it; the API's own server listens on 8080 besides, which the clash does not excuse
    assert _search(tmp_path, SEARCH_COMPOSE) == [
        "7: README's docker compose up starts services api (docker-compose.yml:7) and inference "
        "(docker-compose.yml:18), which both publish host port 8000: the second cannot bind it and does "
        "not start (certain)",
        "13: README points to port 8000, but docker-compose.yml:7 publishes it from container port 8000 of "
        "service api, while docker/Dockerfile:5 (CMD) starts the server on port 8080: nothing listens "
        "behind host port 8000 (certain)",
    ]


@pytest.mark.parametrize(
    "compose_file",
    [
        SEARCH_COMPOSE.replace('      - "8000:8000"\n      - "8001', '      - "8010:8000"\n      - "8001'),
        SEARCH_COMPOSE.replace("  inference:\n", "  inference:\n    profiles: [gpu]\n"),
        SEARCH_COMPOSE.replace("  inference:\n", "  inference:\n    network_mode: host\n"),
        SEARCH_COMPOSE.replace(
            '      - "8000:8000"\n    depends', '      - "127.0.0.1:8000:8000"\n    depends'
        ),
        SEARCH_COMPOSE.replace(
            '      - "8000:8000"\n      - "8001', '      - "8000:8000/udp"\n      - "8001'
        ),
        SEARCH_COMPOSE.replace('      - "8000:8000"\n      - "8001', '      - "8000"\n      - "8001'),
        SEARCH_COMPOSE.replace(
            '      - "8000:8000"\n      - "8001', '      - "8000-8009:8000"\n      - "8001'
        ),
        SEARCH_COMPOSE.replace(
            '      - "8000:8000"\n      - "8001', '      - "${TRITON_PORT}:8000"\n      - "8001'
        ),
    ],
)
def test_services_that_do_not_clash(tmp_path: Path, compose_file: str) -> None:
    # another host port, a service in a profile `up` does not enable, one on the host's network, two
    # addresses, two protocols, a port compose picks, a host range, a variable with no value
    assert [f for f in _search(tmp_path, compose_file) if "both publish" in f] == []


def test_clashes_read_through_variables_ranges_and_long_syntax(tmp_path: Path) -> None:
    with_default = SEARCH_COMPOSE.replace(
        '      - "8000:8000"\n      - "8001', '      - "${TRITON_PORT:-8000}:8000"\n      - "8001'
    )
    ranged = SEARCH_COMPOSE.replace(
        '      - "8000:8000"\n      - "8001', '      - "7999-8001:7999-8001"\n      - "8002'
    )
    long = SEARCH_COMPOSE.replace(
        '      - "8000:8000"\n      - "8001', '      - target: 8000\n        published: 8000\n      - "8001'
    )
    for compose_file in (with_default, ranged, long):
        assert [f for f in _search(tmp_path, compose_file) if "both publish" in f] != [], compose_file
    # the .env beside the compose file moves the variable's port away
    (tmp_path / ".env").write_text("TRITON_PORT=8100\n")
    assert [f for f in _search(tmp_path, with_default) if "both publish" in f] == []


def test_a_profile_the_command_enables_and_services_it_names(tmp_path: Path) -> None:
    profiled = SEARCH_COMPOSE.replace("  inference:\n", "  inference:\n    profiles: [gpu]\n")
    gpu = SEARCH_README.replace("docker compose up -d", "docker compose --profile gpu up -d")
    assert [f.split(":")[0] for f in _search(tmp_path, profiled, gpu) if "both publish" in f] == ["7"]
    # `up api` starts the API and the database it depends on, not the inference server
    named = SEARCH_README.replace("docker compose up -d", "docker compose up -d api")
    assert [f for f in _search(tmp_path, SEARCH_COMPOSE, named) if "both publish" in f] == []
    # started alone, the inference server is what answers on 8000: the API's port is not told either
    alone = SEARCH_README.replace("docker compose up -d", "docker compose up -d inference")
    assert _search(tmp_path, SEARCH_COMPOSE, alone) == []


DASHBOARD_README = """\
# Metrics dashboard

Start the stack:

    docker compose up

```sh
docker compose up --build
```

The dashboard is at http://localhost:3000.
"""
DASHBOARD = """\
services:
  web:
    build: .
    ports:
      - 3000:3000
    deploy:
      replicas: 2
  cache:
    image: redis:7
    ports: ["6379"]
    deploy:
      replicas: 3
"""


def test_replicas_of_one_service_on_a_fixed_host_port(tmp_path: Path) -> None:
    # a Node dashboard scaled to two replicas: only one binds host port 3000; the cache's replicas
    # each get a port compose picks
    make_tree(tmp_path, {"README.md": DASHBOARD_README, "docker-compose.yml": DASHBOARD})
    found = [
        d for d in audit(DASHBOARD_README, "README.md", [], {}, tmp_path, tmp_path) if "replicas" in d.message
    ]
    assert [(d.line, d.message) for d in found] == [
        (
            5,  # the indented block is a command block too (CommonMark's indented code)
            "README's docker compose up starts 2 replicas of service web, and docker-compose.yml:5 publishes "
            "host port 3000 for each: only one can bind it",
        )
    ]
    single = DASHBOARD.replace("replicas: 2", "replicas: 1")
    make_tree(tmp_path, {"docker-compose.yml": single})
    assert [
        d for d in audit(DASHBOARD_README, "README.md", [], {}, tmp_path, tmp_path) if "replicas" in d.message
    ] == []


LOOPBACK_COMPOSE = """\
services:
  notebook:
    build: .
    command: jupyter lab --ip=127.0.0.1 --port=8888 --no-browser
    ports:
      - "8888:8888"
"""


def test_a_service_whose_server_listens_on_loopback(tmp_path: Path) -> None:
    # a notebook service; the README opens the host port. On 0.0.0.0, or on the host's network, it is silent
    readme = "# Notebooks\n\n```bash\ndocker compose up -d\n```\n\nOpen http://localhost:8888/lab.\n"
    assert found(tmp_path, readme, {"docker-compose.yml": LOOPBACK_COMPOSE}) == [
        "7: README points to port 8888, but docker-compose.yml:6 publishes it from container port 8888 of "
        "service notebook, while docker-compose.yml:4 (command) starts the server on the container's "
        "loopback address (--ip=127.0.0.1): nothing answers behind host port 8888 (certain)"
    ]
    for fixed in (
        LOOPBACK_COMPOSE.replace("127.0.0.1", "0.0.0.0"),
        LOOPBACK_COMPOSE.replace("    ports:", "    network_mode: host\n    ports:"),
    ):
        assert found(tmp_path, readme, {"docker-compose.yml": fixed}) == []


def test_the_cmd_of_a_dockerfile_docgen_does_not_audit(tmp_path: Path) -> None:
    # the README sits beside no Dockerfile of its own: the service's build still names one, whose CMD
    # (last stage) moves the server; a start script, or a build target, may serve otherwise
    files = {
        "docker-compose.yml": SEARCH_COMPOSE.replace(
            '      - "8000:8000"\n      - "8001', '      - "8010:8000"\n      - "8001'
        )
    }
    make_tree(tmp_path, {"README.md": SEARCH_README, "docker/Dockerfile": SEARCH_DOCKERFILE, **files})

    def told() -> list[str]:
        return [
            f"{d.line}: {d.message}"
            for d in audit(SEARCH_README, "README.md", [], {}, tmp_path, tmp_path)
            if "points to port" in d.message
        ]

    assert told() == [
        "13: README points to port 8000, but docker-compose.yml:7 publishes it from container port 8000 of "
        "service api, while docker/Dockerfile:5 (CMD) starts the server on port 8080: nothing listens behind "
        "host port 8000"
    ]
    scripted = SEARCH_DOCKERFILE.replace('CMD ["uvicorn"', 'CMD ["bash", "start.sh", "uvicorn"')
    make_tree(tmp_path, {"docker/Dockerfile": scripted})
    assert told() == []
    staged = {
        "docker-compose.yml": files["docker-compose.yml"].replace(
            "      dockerfile:", "      target: dev\n      dockerfile:"
        )
    }
    make_tree(tmp_path, {"docker/Dockerfile": SEARCH_DOCKERFILE, **staged})
    assert told() == []


def test_an_override_file_repeating_a_services_port_is_no_clash(tmp_path: Path) -> None:
    # the override compose reads by default gives the API its port again (and a volume): one service
    lone = SEARCH_COMPOSE.replace('      - "8000:8000"\n      - "8001', '      - "8010:8000"\n      - "8001')
    override = 'services:\n  api:\n    ports:\n      - "8000:8000"\n    volumes:\n      - ./src:/app/src\n'
    make_tree(tmp_path, {"docker-compose.override.yml": override})
    assert [f for f in _search(tmp_path, lone) if "both publish" in f or "replicas" in f] == []
    # a second service in the override on the same port clashes
    other = 'services:\n  docs:\n    image: nginx:1.27\n    ports:\n      - "8000:80"\n'
    make_tree(tmp_path, {"docker-compose.override.yml": other})
    assert [f.split(":")[0] for f in _search(tmp_path, lone) if "both publish" in f] == ["7"]


EXPOSED_IMAGE = """\
FROM python:3.11-slim
RUN git clone --depth 1 https://example.org/textgen.git /srv/textgen
WORKDIR /srv/textgen
RUN pip install -r requirements.txt
# the web UI port
EXPOSE 80
ENTRYPOINT ["python", "server.py"]
"""
EXPOSED_COMPOSE = """\
services:
  textgen:
    build:
      dockerfile: Dockerfile
    volumes:
      - ./models:/models
    ports:
      - '5001:5001'
    command: "/models/${MODEL}"
"""
EXPOSED_README = """\
# textgen in a container

Run `./start.sh`, then open this address in a browser:

```
http://localhost:5001
```
"""
NOTES_IMAGE = """\
FROM node:20-alpine
WORKDIR /app
COPY . .
RUN npm ci
EXPOSE 3000
CMD ["node", "index.js"]
"""
NOTES_COMPOSE = 'services:\n  notes:\n    build: .\n    ports:\n      - "8080:8080"\n'
NOTES_README = "# Notes\n\nRun `docker compose up -d`, then visit http://localhost:8080 in your browser.\n"


def test_a_compose_port_the_image_exposes_none_of_the_readme_takes_no_side(tmp_path: Path) -> None:
    # the README agrees with the compose file it runs; the image's EXPOSE, which publishes nothing, is the
    # only one saying otherwise, and the README never names its port
    files = {"Dockerfile": EXPOSED_IMAGE, "docker-compose.yaml": EXPOSED_COMPOSE}
    assert found(tmp_path / "a", EXPOSED_README, files, dockerfile=True) == []
    files = {"Dockerfile": NOTES_IMAGE, "compose.yaml": NOTES_COMPOSE, "index.js": ""}
    assert found(tmp_path / "b", NOTES_README, files, dockerfile=True) == []


def test_a_compose_port_the_image_exposes_none_of(tmp_path: Path) -> None:
    # the README names the exposed port as the server's too: its two ports cannot both be right
    readme = EXPOSED_README + "\nThe web UI listens on port 80 inside the container.\n"
    files = {"Dockerfile": EXPOSED_IMAGE, "docker-compose.yaml": EXPOSED_COMPOSE}
    assert found(tmp_path, readme, files, dockerfile=True) == [
        "6: README points to port 5001, but docker-compose.yaml:8 publishes it from container port 5001 of "
        "service textgen, while Dockerfile:6 exposes 80 and names 5001 nowhere in its ENV, ENTRYPOINT or "
        "CMD: the image and the compose file disagree on the port the server listens on (likely)"
    ]
    readme = NOTES_README + "\nOr run the image alone: `docker run -p 3000:3000 notes`.\n"
    files = {"Dockerfile": NOTES_IMAGE, "compose.yaml": NOTES_COMPOSE, "index.js": ""}
    [told] = found(tmp_path / "notes", readme, files, dockerfile=True)
    assert told.startswith("3: README points to port 8080, but compose.yaml:5 publishes it from container")
    assert "Dockerfile:5 exposes 3000 and names 8080 nowhere" in told


def test_a_compose_port_the_service_or_image_names_is_served(tmp_path: Path) -> None:
    readme = NOTES_README + "\nOr run the image alone: `docker run -p 3000:3000 notes`.\n"
    env = NOTES_COMPOSE + "    environment:\n      - PORT=8080\n"
    files = {"Dockerfile": NOTES_IMAGE, "compose.yaml": env, "index.js": ""}
    assert found(tmp_path / "a", readme, files, dockerfile=True) == []
    both = NOTES_IMAGE.replace("EXPOSE 3000", "EXPOSE 3000 8080")
    files = {"Dockerfile": both, "compose.yaml": NOTES_COMPOSE, "index.js": ""}
    assert found(tmp_path / "b", readme, files, dockerfile=True) == []
    cmd = NOTES_IMAGE.replace('["node", "index.js"]', '["node", "index.js", "--listen", "8080"]')
    files = {"Dockerfile": cmd, "compose.yaml": NOTES_COMPOSE, "index.js": ""}
    assert found(tmp_path / "c", readme, files, dockerfile=True) == []
    silent = NOTES_IMAGE.replace("EXPOSE 3000\n", "")
    files = {"Dockerfile": silent, "compose.yaml": NOTES_COMPOSE, "index.js": ""}
    assert found(tmp_path / "d", readme, files, dockerfile=True) == []
    files = {"Dockerfile": NOTES_IMAGE, "compose.yaml": NOTES_COMPOSE.replace("8080:8080", "8080:3000")}
    assert found(tmp_path / "e", readme, {**files, "index.js": ""}, dockerfile=True) == []
