"""`docgen audit`: a script the README runs that stops when a variable the README never names is unset
(docgen/audit/unset_stops.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.unset_stops import unset_stops
from docgen.pipeline import build_model

APP = 'FROM python:3.12-slim\nCOPY . /app\nCMD ["python", "/app/serve.py"]\n'
# a launcher that checks two keys with `if [ -z … ]; then … exit 1; fi` before it runs the containers
LAUNCH = """\
#!/usr/bin/env bash
set -e

pool_image="local/pool:latest"
docker run --rm --gpus all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi

if [ -z "${POOL_WALLET}" ]; then
  echo "Error: wallet missing. Do something like export POOL_WALLET=\\"0xabc\\""
  exit 1
fi

if [ -z "${POOL_SECRET}" ]; then
  echo "Error: secret missing"
  exit 1
fi

docker run -d --name pool -e POOL_WALLET="${POOL_WALLET}" "$pool_image" serve --secret "${POOL_SECRET}"
"""
# a compose wrapper that stops with `${NAME:?}` and a `[[ -z ]] && exit` line
WRAPPER = """\
#!/bin/bash
set -euo pipefail
: "${WEATHER_TOKEN:?export WEATHER_TOKEN first}"
[[ -z "${WEATHER_REGION:-}" ]] && { echo "no region"; exit 2; }
docker compose up --build -d
"""


def found(root: Path, files: dict[str, str], dockerfile: str = APP) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "stops unless" in d.message
    ]


def test_a_script_run_from_a_prose_span_stops_on_two_unnamed_variables(tmp_path: Path) -> None:
    readme = (
        "# Pool\n\n1. Build the images with ```./build.sh```\n"
        "1. Then start the containers with the provided ```./launch.sh``` in this folder\n"
    )
    build = "#!/bin/sh\ndocker build -t local/pool .\n"
    files = {"launch.sh": LAUNCH, "build.sh": build, "README.md": readme}
    assert found(tmp_path, files) == [
        (
            4,
            "README runs ./launch.sh, but launch.sh stops unless POOL_WALLET (launch.sh:7), POOL_SECRET "
            "(launch.sh:12) are set, and the README never names them: run as written, the script aborts",
            "likely",
        )
    ]


def test_a_script_run_from_a_command_block_stops_on_a_required_expansion(tmp_path: Path) -> None:
    readme = "# Weather\n\n```bash\ncd deploy\n./up.sh\n```\n"
    files = {"deploy/up.sh": WRAPPER, "README.md": readme}
    assert found(tmp_path, files) == [
        (
            5,
            "README runs ./up.sh, but up.sh stops unless WEATHER_TOKEN (up.sh:3), WEATHER_REGION (up.sh:4) "
            "are set, and the README never names them: run as written, the script aborts",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Set `POOL_WALLET` and `POOL_SECRET` first.",
        "export pool_wallet and pool_secret in your shell",  # any case
        "```\nPOOL_WALLET=0x1 POOL_SECRET=s ./launch.sh\n```",
    ],
)
def test_variables_the_readme_names_are_not_reported(tmp_path: Path, said: str) -> None:
    readme = f"# Pool\n\n{said}\n\nStart the containers with ```./launch.sh```.\n"
    assert found(tmp_path, {"launch.sh": LAUNCH, "README.md": readme}) == []


@pytest.mark.parametrize(
    "script",
    [
        # a default: never empty
        '#!/bin/bash\nKEY="${KEY:-demo}"\nif [ -z "$KEY" ]; then\n  exit 1\nfi\n',
        # set in the script itself (an argument, a prompt)
        '#!/bin/bash\nKEY=$1\nif [ -z "$KEY" ]; then\n  echo "usage: launch.sh KEY"\n  exit 1\nfi\n',
        '#!/bin/bash\nread -rp "key: " KEY\nif [ -z "$KEY" ]; then\n  exit 1\nfi\n',
        '#!/bin/bash\n: "${KEY:=demo}"\necho "${KEY:?}"\n',
        # read from a file the script sources, or from an env file
        '#!/bin/bash\nsource ./settings.conf\nif [ -z "$KEY" ]; then\n  exit 1\nfi\n',
        '#!/bin/bash\nset -a; . ./.env; set +a\n: "${KEY:?}"\n',
        # a check that does not stop (exit 0, a fallback, only in a function or a branch)
        '#!/bin/bash\nif [ -z "$KEY" ]; then\n  echo "nothing to do"\n  exit 0\nfi\n',
        '#!/bin/bash\nif [ -z "$KEY" ]; then\n  echo "no key"\n  docker run --env-file .docker.env app\nfi\n',
        '#!/bin/bash\nif [ -z "$KEY" ] && [ -f .env ]; then\n  docker run --env-file .env app\nfi\n',
        '#!/bin/bash\npush() {\n: "${KEY:?}"\n}\nif [ "$1" = push ]; then\n  : "${KEY:?}"\nfi\n',
        # variables a shell or a CI runner sets; a lower-case name; a positional argument
        '#!/bin/bash\n: "${HOME:?}" "${GITHUB_TOKEN:?}"\n[ -z "$1" ] && exit 1\n',
        '#!/bin/bash\nif [ -z "$key" ]; then\n  exit 1\nfi\n',
        # quoted text, a heredoc
        "#!/bin/bash\necho 'use ${KEY:?} in your shell'\ncat <<EOF\n: \"${KEY:?}\"\nEOF\n",
    ],
)
def test_checks_that_do_not_stop_a_plain_run(tmp_path: Path, script: str) -> None:
    readme = "# App\n\n```\n./launch.sh\n```\n"
    assert found(tmp_path, {"launch.sh": script, "README.md": readme}) == []


def test_a_variable_an_env_file_compose_file_or_the_dockerfile_names(tmp_path: Path) -> None:
    readme = "# Weather\n\n```\n./up.sh\n```\n"
    files = {"up.sh": WRAPPER, "README.md": readme, ".env.example": "WEATHER_TOKEN=\nWEATHER_REGION=eu\n"}
    assert found(tmp_path, files) == []
    files = {"up.sh": WRAPPER, "README.md": readme}
    dockerfile = APP + "ENV WEATHER_TOKEN=demo WEATHER_REGION=eu\n"
    assert found(tmp_path / "other", files, dockerfile) == []


def test_a_script_outside_the_readme_folder_or_without_a_shell_line(tmp_path: Path) -> None:
    readme = "# Pool\n\nRun ```../launch.sh``` and ```./start.sh```.\n"
    files = {"launch.sh": LAUNCH, "docs/README.md": readme, "docs/start.sh": LAUNCH.split("\n", 1)[1]}
    make_tree(tmp_path, {"Dockerfile": APP, **files})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    text = (tmp_path / "docs/README.md").read_text(encoding="utf-8")
    said = audit(text, "README.md", model, {}, tmp_path / "docs", tmp_path)
    assert [d for d in said if "stops" in d.message] == []


def test_unset_stops_reads_top_level_checks_only() -> None:
    assert unset_stops(LAUNCH) == {"POOL_WALLET": 7, "POOL_SECRET": 12}
    assert unset_stops('#!/bin/sh\n[ -n "$TOKEN" ] || exit 3\n') == {"TOKEN": 2}
    assert unset_stops('#!/bin/sh\nmain() {\n  : "${TOKEN:?}"\n}\nmain\n') == {}


# --------------------------------------------------------------------------------------------------
# A Python script the README runs in the container by the path the image copies it to

SYNC_IMAGE = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3 python3-pip
COPY tools/ /opt/app/tools/
WORKDIR /opt/app
CMD ["/bin/bash"]
"""
# fetches weights from a bucket; stops without its two keys
FETCH = """\
#!/usr/bin/env python3
import os
import sys

key_id = os.environ.get("BUCKET_KEY_ID")
key_secret = os.getenv("BUCKET_KEY_SECRET")
region = os.environ.get("BUCKET_REGION", "eu-1")

if not key_id or not key_secret:
    print("set BUCKET_KEY_ID and BUCKET_KEY_SECRET")
    sys.exit(1)

def fetch(prefix):
    if not os.getenv("BUCKET_DEBUG"):
        sys.exit(2)
"""
# a second tool: one stop written on the read itself, raising SystemExit
PUSH = """\
import os

if not os.getenv("REGISTRY_TOKEN"):
    raise SystemExit("REGISTRY_TOKEN is required")
"""
SYNC_README = """\
# Weights

```bash
docker run --gpus all -it -v /data:/opt/app/data registry.example.org/team/sync:latest
# in the container
python3 /opt/app/tools/fetch.py
python /opt/app/tools/push.py --all
```
"""


def test_python_scripts_run_in_the_container_that_stop_without_variables(tmp_path: Path) -> None:
    files = {"tools/fetch.py": FETCH, "tools/push.py": PUSH, "README.md": SYNC_README}
    assert found(tmp_path, files, SYNC_IMAGE) == [
        (
            6,
            "README runs /opt/app/tools/fetch.py, but fetch.py stops unless BUCKET_KEY_ID (fetch.py:9), "
            "BUCKET_KEY_SECRET (fetch.py:9) are set, and the README never names them: run as written, the "
            "script aborts",
            "likely",
        ),
        (
            7,
            "README runs /opt/app/tools/push.py, but push.py stops unless REGISTRY_TOKEN (push.py:3) is set, "
            "and the README never names it: run as written, the script aborts",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    "change",
    [
        # the README names the keys (it tells the user to pass them)
        lambda f: {
            **f,
            "README.md": f["README.md"].replace("-it", "-it -e BUCKET_KEY_ID -e BUCKET_KEY_SECRET"),
        },
        # the image copies the tools elsewhere: the README's path is not the project's file
        lambda f: {**f, "Dockerfile": SYNC_IMAGE.replace("/opt/app/tools/", "/srv/tools/")},
        # the script loads a .env file
        lambda f: {**f, "tools/fetch.py": "from dotenv import load_dotenv\nload_dotenv()\n" + FETCH},
        # the stop is inside a function only some runs reach
        lambda f: {
            **f,
            "tools/fetch.py": FETCH.replace("\nif not key_id", "\ndef check():\n  if not key_id"),
        },
    ],
)
def test_python_scripts_whose_stops_do_not_hold(tmp_path: Path, change: object) -> None:
    files = {
        "tools/fetch.py": FETCH,
        "README.md": SYNC_README.replace("python /opt/app/tools/push.py --all\n", ""),
    }
    assert callable(change)
    changed = change({"Dockerfile": SYNC_IMAGE, **files})
    dockerfile = changed.pop("Dockerfile")
    assert found(tmp_path, changed, dockerfile) == []


def test_python_stops_reads_top_level_checks_with_a_failing_exit() -> None:
    from docgen.audit.unset_stops import python_stops

    assert python_stops(FETCH) == {"BUCKET_KEY_ID": 9, "BUCKET_KEY_SECRET": 9}
    assert python_stops(PUSH) == {"REGISTRY_TOKEN": 3}
    assert (
        python_stops('import os\nA = os.getenv("A")\nif not A:\n    print("no A, using the default")\n') == {}
    )
    assert python_stops('import os, sys\nA = os.getenv("A", "x")\nif not A:\n    sys.exit(1)\n') == {}
    assert python_stops('import os, sys\nif not os.getenv("A"):\n    sys.exit(0)\n') == {}
