"""`docgen.audit.exec_vars`: an environment variable a README documents as a setting of the container
(a table of environment variables, `-e NAME=…` in a run of the image it builds: `certain`; a list under a
heading about them: `likely`) that the image reads only as `${NAME}` in an exec-form ENTRYPOINT or CMD,
which expands nothing, is a finding; a shell, a script, a health check, the README's own `$NAME`, a run
with its own entrypoint or command, and variables libraries read themselves are not."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

SERVER = """\
FROM python:3.11-slim
ENV SHARDS=2 CACHE_RATIO=0.8
EXPOSE 7070
ENTRYPOINT ["python", "-m", "tern.serve", "--shards", "${SHARDS}", "--cache-ratio", "${CACHE_RATIO}"]
"""


def found(readme: str, dockerfile: str = SERVER) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "exec-form" in d.message
    ]


def said(how: str, name: str, keyword: str = "ENTRYPOINT", at: int = 4) -> str:
    form = '["python", "-m", "tern.serve", "--shards", "$…' if keyword == "ENTRYPOINT" else ""
    form = form or '["tern-serve", "--shards", "${SHARDS}"]'
    return (
        f"README {how} {name} as a setting of the container, but Dockerfile:{at} reads it only in its "
        f"exec-form {keyword} ({form}), which expands no variables: the program gets the literal text "
        f"${{{name}}}"
    )


def test_a_table_and_a_list_of_variables_the_exec_form_never_expands() -> None:
    readme = """\
# Tern

## Environment variables

| Variable | Meaning |
|---|---|
| `SHARDS` | how many shards to serve |
| `TERN_HOME` | where models live |

## 环境变量
1. `CACHE_RATIO`: share of GPU memory kept for the cache
"""
    assert found(readme) == [
        f"7: {said('documents', 'SHARDS')} (certain)",
        f"11: {said('documents', 'CACHE_RATIO')} (likely)",
    ]


def test_a_variable_passed_with_e_to_a_run_of_the_image_built() -> None:
    readme = """\
# Tern

```bash
docker build -t acme/tern .
docker run --gpus all -e SHARDS=4 -p 7070:7070 acme/tern
```
"""
    assert found(readme) == [f"5: {said('passes', 'SHARDS')} (certain)"]


def test_a_variable_of_cmd_passed_to_a_run_of_the_image_built() -> None:
    dockerfile = 'FROM python:3.11-slim\nENV SHARDS=2\nCMD ["tern-serve", "--shards", "${SHARDS}"]\n'
    readme = """\
# Tern

```bash
docker build -t acme/tern .
docker run -e SHARDS=4 acme/tern
```
"""
    assert found(readme, dockerfile) == [f"5: {said('passes', 'SHARDS', 'CMD', 3)} (certain)"]


TABLE = "# Tern\n\n## Environment variables\n\n| Variable | Meaning |\n|---|---|\n| `SHARDS` | shards |\n"


@pytest.mark.parametrize(
    "dockerfile",
    [
        # a shell expands it
        'FROM python:3.11-slim\nENTRYPOINT ["sh", "-c", "python -m tern.serve --shards ${SHARDS}"]\n',
        "FROM python:3.11-slim\nENTRYPOINT python -m tern.serve --shards ${SHARDS}\n",
        'FROM python:3.11-slim\nCMD ["/bin/bash", "-lc", "tern-serve --shards $SHARDS"]\n',
        # a script the container starts may read it
        'FROM python:3.11-slim\nCOPY start.sh /\nENTRYPOINT ["/start.sh", "--shards", "${SHARDS}"]\n',
        'FROM python:3.11-slim\nENTRYPOINT ["/docker-entrypoint.sh"]\n'
        'CMD ["tern-serve", "--shards", "${SHARDS}"]\n',
        'FROM python:3.11-slim\nENTRYPOINT ["tini", "--", "/opt/tern/run.sh", "${SHARDS}"]\n',
        # only an ENV default: the program reads the environment itself
        'FROM python:3.11-slim\nENV SHARDS=2\nENTRYPOINT ["python", "-m", "tern.serve"]\n',
        # a health check reads it
        'FROM python:3.11-slim\nHEALTHCHECK CMD test "$SHARDS" -gt 0\n'
        'ENTRYPOINT ["tern-serve", "${SHARDS}"]\n',
        # an earlier CMD, replaced
        'FROM python:3.11-slim\nCMD ["tern-serve", "${SHARDS}"]\nCMD tern-serve --shards $SHARDS\n',
        # a shell-form ENTRYPOINT ignores CMD
        'FROM python:3.11-slim\nENTRYPOINT tern-serve\nCMD ["--shards", "${SHARDS}"]\n',
    ],
)
def test_images_that_read_the_variable(dockerfile: str) -> None:
    assert found(TABLE, dockerfile) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the README's own command expands it
        TABLE + "\n```bash\ndocker run --entrypoint sh acme/tern -c 'tern-serve --shards $SHARDS'\n```\n",
        # a run with its own entrypoint
        "# Tern\n\n```bash\ndocker build -t acme/tern .\n"
        "docker run --entrypoint tern-cli -e SHARDS=4 acme/tern status\n```\n",
        # a run of another image
        "# Tern\n\n```bash\ndocker build -t acme/tern .\ndocker run -e SHARDS=4 redis:7\n```\n",
        # build args, not the container's variables
        "# Tern\n\n## Build args and environment variables\n\n| Name | Meaning |\n|---|---|\n"
        "| `SHARDS` | x |\n",
        # a variable libraries read themselves
        "# Tern\n\n## Environment variables\n\n| Variable | Meaning |\n|---|---|\n"
        "| `CUDA_VISIBLE_DEVICES` | x |\n",
    ],
)
def test_readmes_that_do_not_rely_on_the_exec_form(readme: str) -> None:
    dockerfile = SERVER.replace('"${CACHE_RATIO}"', '"${CUDA_VISIBLE_DEVICES}"')
    assert found(readme, dockerfile) == []


def test_a_run_giving_its_own_command_replaces_cmd() -> None:
    dockerfile = 'FROM python:3.11-slim\nENV SHARDS=2\nCMD ["tern-serve", "--shards", "${SHARDS}"]\n'
    readme = """\
# Tern

```bash
docker build -t acme/tern .
docker run -e SHARDS=4 acme/tern tern-serve --shards 4
```
"""
    assert found(readme, dockerfile) == []
