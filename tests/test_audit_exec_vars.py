"""`docgen.audit.exec_vars`: an environment variable a README documents as a setting of the container
(a table of environment variables, `-e NAME=…` in a run of the image it builds: `certain`; a list under a
heading about them: `likely`) that the image reads only as `${NAME}` in an exec-form ENTRYPOINT or CMD,
which expands nothing, is a finding; a shell, a script, a health check, the README's own `$NAME`, a run
with its own entrypoint or command, and variables libraries read themselves are not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

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


LAB = """\
FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04
RUN pip install jupyterlab
EXPOSE 8888
CMD jupyter lab --ip 0.0.0.0 --notebook-dir=/work --ServerApp.token='$LAB_TOKEN'
"""


def quoted(readme: str, dockerfile: str = LAB, directory: Path | None = None) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    if directory is not None:
        (directory / "Dockerfile").write_text(dockerfile)
        model = replace(model, file=str(directory / "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, directory=directory)
        if "inside single quotes" in d.message
    ]


LAB_TABLE = """\
# Lab

```
docker build -t acme/lab .
docker run -p 8888:8888 -e LAB_TOKEN=s3cret acme/lab
```

## Environment variables

| Variable | Meaning |
|---|---|
| `LAB_TOKEN` | the token to log in with |
"""
"""Modelled on a notebook image's README: a table of variables and a run passing one."""


def test_a_variable_read_only_inside_single_quotes() -> None:
    assert quoted(LAB_TABLE) == [
        "12: README documents LAB_TOKEN as a setting of the container, but Dockerfile:4 reads LAB_TOKEN "
        "only as '$LAB_TOKEN' inside single quotes in its shell-form CMD (jupyter lab --ip 0.0.0.0 "
        "--notebook-dir=/work --ServerApp…): the shell does not expand there, so the program gets the "
        "literal text $LAB_TOKEN (certain)"
    ]


def test_a_variable_passed_with_e() -> None:
    readme = LAB_TABLE.split("## Environment")[0]
    assert [q.split(":")[0] for q in quoted(readme)] == ["5"]


COMPOSE = """\
services:
  lab:
    build:
      context: .
      dockerfile: Dockerfile
    environment:
      LAB_TOKEN: "kepler42"
    ports:
      - "8888:8888"
"""

LAB_COMPOSE = """\
# lab

Start with:
```
$ docker compose up -d
```

Open port 8888 and log in with kepler42.
"""
"""Modelled on a notebook image's README that runs compose and gives the password compose sets."""


def test_a_value_compose_sets_and_the_readme_gives(tmp_path: Path) -> None:
    (tmp_path / "docker-compose.yml").write_text(COMPOSE)
    assert quoted(LAB_COMPOSE, directory=tmp_path) == [
        "8: README runs docker compose up and gives kepler42, which docker-compose.yml sets LAB_TOKEN to, "
        "but Dockerfile:4 reads LAB_TOKEN only as '$LAB_TOKEN' inside single quotes in its shell-form CMD "
        "(jupyter lab --ip 0.0.0.0 --notebook-dir=/work --ServerApp…): the shell does not expand there, "
        "so the program gets the literal text $LAB_TOKEN (likely)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        LAB_COMPOSE.replace("kepler42", "your password"),  # the value is not given
        LAB_COMPOSE.replace("docker compose up -d", "docker compose -f other.yml up -d"),  # another file
        LAB_COMPOSE.replace("docker compose up -d", "make lab"),  # no compose run
    ],
)
def test_compose_readmes_that_stay_silent(readme: str, tmp_path: Path) -> None:
    (tmp_path / "docker-compose.yml").write_text(COMPOSE)
    assert quoted(readme, directory=tmp_path) == []


@pytest.mark.parametrize(
    "cmd",
    [
        'CMD jupyter lab --ip 0.0.0.0 --ServerApp.token="$LAB_TOKEN"',  # double quotes expand
        "CMD jupyter lab --ip 0.0.0.0 --ServerApp.token=$LAB_TOKEN",  # unquoted
        "CMD sh -c 'jupyter lab --ServerApp.token=$LAB_TOKEN'",  # the quotes are the script
        "CMD su lab -c 'jupyter lab --ServerApp.token=$LAB_TOKEN'",
        "CMD bash -lc 'exec jupyter lab --ServerApp.token=$LAB_TOKEN'",
        "CMD echo 'token: '\\''$LAB_TOKEN'\\''' && jupyter lab",  # nested quoting idiom
        "CMD jupyter lab --ServerApp.token='${LAB_TOKEN}'",  # a program may read ${…} itself
        "CMD jupyter lab --ServerApp.token='$LAB_TOKEN' --notify=$LAB_TOKEN",  # expanded elsewhere
        "CMD python -c 'import os; os.system(\"lab $LAB_TOKEN\")'",  # code of an interpreter
        'CMD ["jupyter", "lab", "--ServerApp.token=\'$LAB_TOKEN\'"]',  # exec form: another rule
        "ENTRYPOINT [\"/start.sh\"]\nCMD jupyter lab --ServerApp.token='$LAB_TOKEN'",  # a script runs it
        "CMD \"jupyter lab --ServerApp.token='$LAB_TOKEN'\"",  # single quotes inside double quotes
    ],
)
def test_commands_that_expand_it(cmd: str) -> None:
    dockerfile = LAB.rsplit("CMD", 1)[0] + cmd + "\n"
    assert quoted(LAB_TABLE, dockerfile) == []


def test_the_readme_expanding_it_itself() -> None:
    readme = LAB_TABLE.replace("LAB_TOKEN=s3cret", 'LAB_TOKEN="$LAB_TOKEN"')
    assert quoted(readme) == []


CRUNCH = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y gridclient
ENV DONOR=guest SQUAD=0 SLOTS="0" HOME_DIR=/srv
ENTRYPOINT ["/usr/bin/gridclient", "--donor=${DONOR} --squad=${SQUAD} --slots=${SLOTS} --home=$HOME_DIR"]
"""
"""Modelled on a volunteer-computing client's image: every option in one element of the exec form."""

CRUNCH_README = """\
# Crunch on Docker

Docker : [![hub](https://img.shields.io/badge/hub-blue)](https://hub.docker.com/r/ferro/crunch-gpu)

## Run it

```
docker run -d --name crunch \\
    --gpus all \\
    -e DONOR="yourname" \\
    -e SQUAD="1234" \\
    ferro/crunch-gpu
```
"""


def crunch_said(name: str) -> str:
    return (
        f"README passes {name} as a setting of the container, but Dockerfile:4 reads it only in its "
        'exec-form ENTRYPOINT (["/usr/bin/gridclient", "--donor=${DONOR} --s…), which expands no '
        "variables: the program gets the literal text --donor=${DONOR} --squad=${SQUAD} --slots=${SLOTS} "
        "--home…"
    )


def test_a_run_of_the_published_image_of_the_only_dockerfile() -> None:
    """The README builds nothing and runs the image whose Docker Hub page it links (or whose owner's
    GitHub repository it links): that image is the Dockerfile's."""
    assert found(CRUNCH_README, CRUNCH) == [
        f"12: {crunch_said('DONOR')} (certain)",
        f"12: {crunch_said('SQUAD')} (certain)",
    ]
    github = CRUNCH_README.replace(
        "https://hub.docker.com/r/ferro/crunch-gpu", "https://github.com/ferro/docker-crunch-gpu"
    )
    assert found(github, CRUNCH) == found(CRUNCH_README, CRUNCH)


def test_a_run_passing_two_variables_of_the_exec_form() -> None:
    """Modelled on a web app's README: one `docker run --env … --env …` of a published image and no
    link to tie it; two of the variables the exec form names tie it, `likely`."""
    dockerfile = (
        "FROM node:20-slim\nENV PORT=8080 SITE=notes\n"
        'ENTRYPOINT ["node", "server.js", "${PORT}", "${SITE}"]\n'
    )
    readme = """\
# Notes

Run it with:

```bash
docker run --env PORT=9000 --env SITE=mynotes -p 9000:9000 kestrel/notes
```
"""
    assert [line.rsplit(" (", 1)[1] for line in found(readme, dockerfile)] == ["likely)", "likely)"]


@pytest.mark.parametrize(
    "readme",
    [
        # one variable and nothing tying the image to the Dockerfile
        "# Crunch\n\n```\ndocker run -e DONOR=me other/cruncher\n```\n",
        # the image the Dockerfile is built on, run as it comes
        "# Crunch\n\n[gh](https://github.com/ferro/x)\n\n```\n"
        "docker run -e DONOR=me -e SQUAD=1 nvidia/cuda:12.4.1-runtime-ubuntu22.04\n```\n",
        # a build of another tag: the run image is not tied to this Dockerfile
        CRUNCH_README.replace("## Run it\n", "## Run it\n\n```\ndocker build -t crunch-dev .\n```\n"),
        # an official image
        "# Crunch\n\n```\ndocker run -e DONOR=me -e SQUAD=1 postgres:16\n```\n",
        # a run with its own entrypoint
        CRUNCH_README.replace("--gpus all", "--entrypoint /bin/sh"),
        # a linked page of another image, and one variable only
        CRUNCH_README.replace('    -e SQUAD="1234" \\\n', "")
        .replace("ferro/crunch-gpu)", "ferro/other)")
        .replace("    ferro/crunch-gpu", "    gull/crunch"),
    ],
)
def test_runs_not_tied_to_the_dockerfile(readme: str) -> None:
    assert found(readme, CRUNCH) == []


def test_a_published_image_with_several_dockerfiles_is_not_tied() -> None:
    models = [
        replace(model_of(parse_dockerfile(CRUNCH, "Dockerfile")), path="Dockerfile"),
        replace(model_of(parse_dockerfile(CRUNCH, "Dockerfile.cpu")), path="Dockerfile.cpu"),
    ]
    assert [d for d in audit(CRUNCH_README, "README.md", models) if "exec-form" in d.message] == []
