"""`docgen.audit.command_values`: a README table of a server's options whose values the compose command
the README starts passes otherwise (`command_values`), and a `docker compose up` of a service whose
command only prints its program's help (`help_commands`). Traps: a `Default` column (the program's
defaults), a table under a tuning heading, values read from variables, a second service with the
README's value, suggestions in a block, too few options shared, a README that says to change the
command first, a real server command."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

# an inference stack: llama.cpp server started by compose, list-form command
LLAMA_COMPOSE = """\
services:
  llm:
    image: local/llama-hip:latest
    ports:
      - "8000:8080"
    command:
      - --model
      - /models/coder-q4.gguf
      - --ctx-size
      - "65536"                  # 16K per slot x 4
      - --parallel
      - "4"
      - --n-gpu-layers
      - "99"
      - --temp
      - "0.7"
      - --metrics
  tunnel:
    image: cloudflare/cloudflared:latest
    command: tunnel run
"""
LLAMA_README = """\
# Coder on one GPU

Start it:

```bash
docker compose up -d
```

## Configuration

| Flag | Value | Meaning |
|------|-------|---------|
| `--ctx-size` | 32768 | total context |
| `--parallel` | 2 | two slots |
| `--n-gpu-layers` | 99 | all layers on the GPU |
| `--temp` | 0.70 | sampling |
| `--metrics` | — | Prometheus |

With `--parallel 2` each slot holds half the context.

## Tuning

```bash
--parallel 8   # more slots
```
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [], {}, root, root)
        if " the value " in d.message or "prints the program's" in d.message
    ]


def test_a_table_value_the_list_form_command_passes_otherwise(tmp_path: Path) -> None:
    assert found(tmp_path, LLAMA_README, {"docker-compose.yml": LLAMA_COMPOSE}) == [
        "13: README gives --ctx-size the value 32768, but the compose command the README starts passes "
        "--ctx-size 65536 (docker-compose.yml:10) (certain)",
        "14: README gives --parallel the value 2, but the compose command the README starts passes "
        "--parallel 4 (docker-compose.yml:12); also at line 19 (certain)",
    ]


# a vLLM service with a string command, the README's settings table
VLLM_COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.9.0
    command: >
      --model Qwen/Qwen2.5-7B-Instruct
      --max-model-len 16384
      --gpu-memory-utilization 0.85
      --tensor-parallel-size ${TP:-1}
"""
VLLM_README = """\
# Qwen behind vLLM

```sh
docker compose up
```

### Server settings

| Setting | Option | Notes |
|---|---|---|
| 8192 | `--max-model-len` | context |
| 0.85 | `--gpu-memory-utilization` | |
| 2 | `--tensor-parallel-size` | two GPUs |
"""


def test_a_string_command_and_a_variable_value(tmp_path: Path) -> None:
    # the tensor-parallel size comes from ${TP:-1}: the user sets it, not told
    assert found(tmp_path, VLLM_README, {"docker-compose.yml": VLLM_COMPOSE}) == [
        "11: README gives --max-model-len the value 8192, but the compose command the README starts "
        "passes --max-model-len 16384 (docker-compose.yml:6) (certain)"
    ]


def test_a_table_of_the_programs_defaults_is_not_read(tmp_path: Path) -> None:
    readme = LLAMA_README.replace("| Flag | Value | Meaning |", "| Flag | Default | Meaning |")
    assert found(tmp_path, readme, {"docker-compose.yml": LLAMA_COMPOSE}) == []


def test_a_table_under_a_tuning_heading_is_not_read(tmp_path: Path) -> None:
    readme = LLAMA_README.replace("## Configuration", "## Tuning tips")
    assert found(tmp_path, readme, {"docker-compose.yml": LLAMA_COMPOSE}) == []


def test_another_service_with_the_readmes_value(tmp_path: Path) -> None:
    # a second profile runs the smaller context the README documents
    small = LLAMA_COMPOSE.replace(
        "  tunnel:",
        "  llm-small:\n    profiles: [small]\n    image: local/llama-hip:latest\n"
        '    command: ["--ctx-size", "32768", "--parallel", "2"]\n  tunnel:',
    )
    assert found(tmp_path, LLAMA_README, {"docker-compose.yml": small}) == []


def test_a_table_of_another_program_shares_too_few_options(tmp_path: Path) -> None:
    readme = (
        LLAMA_README.replace("| `--parallel` | 2 | two slots |\n", "")
        .replace("| `--n-gpu-layers` | 99 |", "| `--layers` | 99 |")
        .replace("| `--temp` | 0.70 |", "| `--top-k` | 40 |")
    )
    assert found(tmp_path, readme, {"docker-compose.yml": LLAMA_COMPOSE}) == []


def test_a_compose_file_the_readme_never_starts(tmp_path: Path) -> None:
    readme = LLAMA_README.replace("docker compose up -d", "./run.sh")
    assert found(tmp_path, readme, {"docker-compose.yml": LLAMA_COMPOSE}) == []


HELP_COMPOSE = """\
services:
  server:
    image: llama-rocm:latest
    build:
      context: .
    env_file:
      - .docker.env
    ports:
      - "8080:8080"
    restart: unless-stopped
    command: >
      llama-server --help
"""
HELP_README = """\
# llama.cpp toolbox

## Quick start

```bash
docker-compose up --build
```

Once running, the server answers on `http://localhost:8080/v1/chat/completions`.
"""


def test_a_compose_up_of_a_help_command(tmp_path: Path) -> None:
    assert found(
        tmp_path, HELP_README, {"docker-compose.yml": HELP_COMPOSE, "Dockerfile": "FROM ubuntu\n"}
    ) == [
        "6: README starts the compose service server with docker compose up, but its command "
        "(docker-compose.yml:12) is `llama-server --help`, which prints the program's help and exits: "
        "no server runs (certain)"
    ]


def test_a_readme_that_says_to_change_the_command_first(tmp_path: Path) -> None:
    readme = HELP_README.replace(
        "```bash\ndocker-compose",
        "Edit the `command:` in docker-compose.yml to add `--model`.\n\n```bash\ndocker-compose",
    )
    assert found(tmp_path, readme, {"docker-compose.yml": HELP_COMPOSE, "Dockerfile": "FROM ubuntu\n"}) == []


def test_a_real_server_command_and_a_version_check_in_a_profile(tmp_path: Path) -> None:
    compose = HELP_COMPOSE.replace("llama-server --help", "llama-server --model /m/a.gguf --port 8080") + (
        "  check:\n    image: llama-rocm:latest\n    profiles: [check]\n"
        "    command: [llama-server, --version]\n"
    )
    assert found(tmp_path, HELP_README, {"docker-compose.yml": compose, "Dockerfile": "FROM ubuntu\n"}) == []


# no compose file: the image's own ENTRYPOINT and CMD start the server with the values
SERVER_DOCKERFILE = """\
FROM ghcr.io/ggml-org/llama.cpp:server-rocm
COPY models/ /models/
EXPOSE 8080
ENTRYPOINT ["/app/llama-server"]
CMD ["--model", "/models/phi.gguf", "--ctx-size", "4096", "--threads", "8", "--port", "8080"]
"""
SERVER_README = """\
# Phi server

```sh
docker build -t phi-server .
docker run -p 8080:8080 phi-server
```

| Argument | Set to |
|---|---|
| `--ctx-size` | 8192 |
| `--threads` | 8 |
"""


def image_found(root: Path, readme: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": SERVER_DOCKERFILE})
    models = [build_model(root / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root, root)
        if " the value " in d.message
    ]


def test_a_table_value_the_images_cmd_passes_otherwise(tmp_path: Path) -> None:
    assert image_found(tmp_path, SERVER_README) == [
        "10: README gives --ctx-size the value 8192, but the image's ENTRYPOINT/CMD passes --ctx-size 4096 "
        "(Dockerfile:5) (certain)"
    ]


def test_an_option_the_readmes_run_passes_itself(tmp_path: Path) -> None:
    readme = SERVER_README.replace("phi-server\n```", "phi-server --ctx-size 8192\n```")
    assert image_found(tmp_path, readme) == []
