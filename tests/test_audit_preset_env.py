"""`docgen audit`: environment variables a README says are set already (`By default, the following
options are set:`, `` `NAME` is already set in the environment ``, `环境变量已经配置好 NAME`) that nothing
sets (docgen/audit/preset_env.py): no ENV, no compose `environment:`, no file beside the README naming
them, no `-e` of the README's commands.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

IMAGE = 'FROM debian:bookworm-slim\nENV WORKER_COUNT=4\nCOPY start.sh /start.sh\nENTRYPOINT ["/start.sh"]\n'
START = "#!/bin/sh\nexport TOKEN_FILE_PATH=/run/token\nexec server\n"
COMPOSE = "services:\n  server:\n    build: .\n    environment:\n      - QUEUE_NAME=jobs\n"


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    tree = {"Dockerfile": IMAGE, "start.sh": START, "README.md": readme}
    make_tree(root, {**tree, **(files if files is not None else {"compose.yaml": COMPOSE})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def unset(name: str, said: str = "is set already") -> str:
    return (
        f"README says {name} {said}, but nothing sets it: no ENV of the image, no compose service's "
        "environment, no file beside the README names it"
    )


@pytest.mark.parametrize(
    "intro",
    [
        "By default, the following options are set:",
        "Out of the box these variables are preconfigured:",
        "下列环境变量已经默认设置：",
    ],
)
def test_a_list_of_variables_said_set_names_those_nothing_sets(tmp_path: Path, intro: str) -> None:
    readme = f"""\
# Server

{intro}

- `WORKER_COUNT`: worker processes (default 4)
- `QUEUE_NAME`: the queue read
- `TOKEN_FILE_PATH`: where the token is
- `CACHE_DIR_PATH`: the cache (default `/cache`)
"""
    assert found(tmp_path, readme) == [(8, unset("CACHE_DIR_PATH"), "likely")]


@pytest.mark.parametrize(
    "intro",
    [
        "You must set the following options:",
        "The following variables can be set:",
        "If needed, these are set:",
        "Set these variables before starting:",
    ],
)
def test_a_list_of_variables_to_set_is_no_claim_they_are(tmp_path: Path, intro: str) -> None:
    readme = f"# Server\n\n{intro}\n\n- `CACHE_DIR_PATH`: the cache\n"
    assert found(tmp_path, readme) == []


def test_a_sentence_or_a_comment_saying_a_variable_is_set_already(tmp_path: Path) -> None:
    readme = """\
# Server

`TRACE_ENDPOINT_URL` is already configured in the environment.

`WORKER_COUNT` is already configured in the environment.

```python
import tracing
# 环境变量已经配置好 TRACE_SINK_URL，无需手动指定
tracing.start()
```

```bash
# the environment variable RUN_LABEL_TEXT is already set by the command below
docker run -e RUN_LABEL_TEXT=demo server
```
"""
    assert found(tmp_path, readme) == [
        (3, unset("TRACE_ENDPOINT_URL"), "likely"),
        (9, unset("TRACE_SINK_URL"), "likely"),
    ]


def test_a_named_file_that_does_not_set_the_variable_is_certain(tmp_path: Path) -> None:
    readme = """\
# Server

Options are environment variables in the `compose.yaml` file. By default, these are set:

- `QUEUE_NAME`: the queue read
- `CACHE_DIR_PATH`: the cache
"""
    assert found(tmp_path, readme) == [(6, unset("CACHE_DIR_PATH", "is set in compose.yaml"), "certain")]
    # the file named is not there (another compose file is): the reader may mean it, `likely`; the
    # name itself is then the compose file renamed for its flavour (docgen/audit/missing.py)
    other = {"compose.gpu.yaml": COMPOSE}
    assert found(tmp_path / "other", readme, other) == [
        (3, "README names compose.yaml, which does not exist (did you mean compose.gpu.yaml?)", "likely"),
        (6, unset("CACHE_DIR_PATH"), "likely"),
    ]


def test_a_variable_named_after_the_base_image_may_be_set_by_it(tmp_path: Path) -> None:
    readme = (
        "# Server\n\nBy default, these are set:\n\n- `OLLAMA_HOST`: its address\n- `SERVE_HOST_ADDR`: ours\n"
    )
    make_tree(tmp_path, {"Dockerfile": "FROM ollama/ollama:0.3.0\n", "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [(d.line, d.message) for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert found == [(6, unset("SERVE_HOST_ADDR"))]
