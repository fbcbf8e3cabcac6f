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
