"""`docgen.audit.port_vars`: a port variable the README says sets the container's port while the server
the image starts is given a fixed port and nothing of the image reads the variable. Planted drifts and
the nearest true statements as traps; the READMEs, Dockerfiles and scripts are small models written for
these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

README = """# Echo

```bash
docker build -t zeta/echo .
docker run -e PORT=9100 -p 9100:9100 zeta/echo
```

Set the `PORT` environment variable to change the port.

## Environment variables

| Variable | Default | Description |
|---|---|---|
| `PORT` | `7000` | Port the server listens on |
"""
FIXED = (
    "FROM python:3.11-slim\nCOPY echo.py /srv/\n"
    'CMD ["uvicorn", "echo:app", "--host", "0.0.0.0", "--port", "7000"]\n'
)


def _audit(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, "echo.py": "app = None\n", **files})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "PORT" in d.message]


def test_a_port_variable_the_fixed_command_ignores(tmp_path: Path) -> None:
    fact = (
        "PORT for the port the container listens on, but Dockerfile:3 (CMD) starts the server on fixed "
        "port 7000 and nothing the image runs reads PORT (likely)"
    )
    assert _audit(tmp_path, README, {"Dockerfile": FIXED}) == [
        f"5: README passes (`docker run … zeta/echo`) {fact}",
        f"8: README tells to set {fact}",
        f"14: README documents {fact}",
    ]


def test_a_start_script_with_a_fixed_port(tmp_path: Path) -> None:
    files = {
        "Dockerfile": 'FROM python:3.11-slim\nCOPY serve.sh /serve.sh\nENTRYPOINT ["/serve.sh"]\n',
        "serve.sh": "#!/bin/sh\n# serve the echo app\nexec gunicorn echo:app \\\n  --bind 0.0.0.0:7000\n",
    }
    found = _audit(tmp_path, README, files)
    assert [f.split(":", 1)[0] for f in found] == ["5", "8", "14"]
    assert "serve.sh, which its ENTRYPOINT or CMD runs, starts the server on fixed port 7000" in found[0]


def test_the_application_reading_it_does_not_count(tmp_path: Path) -> None:
    # the launcher is given the port; the application's main(), which reads the variable, is not what runs
    files = {
        "Dockerfile": "FROM python:3.11-slim\nCOPY echo.py /srv/\n"
        'ENTRYPOINT ["tini", "--"]\n'
        'CMD ["python", "-m", "uvicorn", "echo:app", "--port", "7000"]\n',
        "echo.py": "import os\nPORT = int(os.environ.get('PORT', 7000))\n",
    }
    found = _audit(tmp_path, README, files)
    assert [f.split(":", 1)[0] for f in found] == ["5", "8", "14"]


@pytest.mark.parametrize(
    "files",
    [
        # an ENTRYPOINT docgen cannot read runs the CMD, and may rewrite it
        {
            "Dockerfile": "FROM python:3.11-slim\nCOPY echo.py /srv/\n"
            'ENTRYPOINT ["python", "/srv/echo.py"]\nCMD ["uvicorn", "echo:app", "--port", "7000"]\n'
        },
        # a shell-form CMD expands it
        {"Dockerfile": "FROM python:3.11-slim\nCMD uvicorn echo:app --port ${PORT:-7000}\n"},
        # the start script reads it
        {
            "Dockerfile": 'FROM python:3.11-slim\nCOPY serve.sh /serve.sh\nENTRYPOINT ["/serve.sh"]\n',
            "serve.sh": '#!/bin/sh\nexec uvicorn echo:app --port "${PORT:-7000}"\n',
        },
        # an ENV the script reads
        {
            "Dockerfile": "FROM python:3.11-slim\nENV PORT=7000\n"
            'COPY serve.sh /serve.sh\nCMD ["/serve.sh"]\n',
            "serve.sh": "#!/bin/sh\nexec uvicorn echo:app --port $PORT\n",
        },
        # the application starts the server itself, and may read it
        {
            "Dockerfile": "FROM python:3.11-slim\nCOPY echo.py /srv/\n"
            'CMD ["python", "/srv/echo.py", "--port", "7000"]\n'
        },
        # gunicorn with no --bind reads $PORT itself
        {"Dockerfile": 'FROM python:3.11-slim\nCMD ["gunicorn", "echo:app"]\n'},
        # a RUN writes the start script, which may read it
        {
            "Dockerfile": "FROM python:3.11-slim\n"
            "RUN printf 'exec uvicorn echo:app --port ${PORT}' > /serve.sh\n"
            'CMD ["uvicorn", "echo:app", "--port", "7000"]\n'
        },
        # a base docgen does not know, whose entrypoint may read it
        {"Dockerfile": 'FROM zeta/runtime:3\nCMD ["uvicorn", "echo:app", "--port", "7000"]\n'},
    ],
)
def test_an_image_that_may_read_it(tmp_path: Path, files: dict[str, str]) -> None:
    assert _audit(tmp_path, README, files) == []


def test_other_variables_and_other_images(tmp_path: Path) -> None:
    readme = (
        "# Echo\n\n```bash\ndocker build -t zeta/echo .\n"
        "docker run -e MASTER_PORT=29500 zeta/echo\n"  # another program's port
        "docker run -e PORT=7000 zeta/echo\n"  # the port it listens on anyway
        "docker run -e PORT=9100 redis:7\n```\n"  # another image
    )
    assert _audit(tmp_path, readme, {"Dockerfile": FIXED}) == []


def test_a_start_script_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    # `serve.sh` is a link to a file outside the Dockerfile's folder: what it says is not the project's
    # and is not read (the same script beside the Dockerfile is: `test_a_start_script_with_a_fixed_port`)
    outside = tmp_path / "elsewhere" / "serve.sh"
    outside.parent.mkdir()
    outside.write_text("#!/bin/sh\nexec gunicorn echo:app --bind 0.0.0.0:7000\n")
    project = tmp_path / "project"
    files = {"Dockerfile": 'FROM python:3.11-slim\nCOPY serve.sh /serve.sh\nENTRYPOINT ["/serve.sh"]\n'}
    make_tree(project, files)
    (project / "serve.sh").symlink_to(outside)
    assert _audit(project, README, files) == []


def test_a_long_word_in_the_command_is_read_once(tmp_path: Path) -> None:
    """The start script of the command was looked for by `[\\w./-]+\\.sh` from each letter of a word:
    a long one cost n² (60,000 letters: 18 s; the 150,000 here: two minutes). The fixed port after it
    is still read."""
    files = {
        "Dockerfile": "FROM python:3.11-slim\nCOPY echo.py /srv/\n"
        'CMD ["uvicorn", "echo:app", "--root-path", "' + "a" * 150_000 + '", "--port", "7000"]\n'
    }
    assert [f.split(":", 1)[0] for f in _audit(tmp_path, README, files)] == ["5", "8", "14"]


def test_a_tag_glued_to_the_next_command_names_the_image(tmp_path: Path) -> None:
    # `-t zeta/echo&& docker run …`: the tag ends where its command does, so the run is of the image built
    readme = "# Echo\n\n```bash\ndocker build . -t zeta/echo&& docker run -e PORT=9100 zeta/echo\n```\n"
    found = _audit(tmp_path, readme, {"Dockerfile": FIXED})
    assert [f.split(":", 1)[0] for f in found] == ["4"]


def test_a_command_nested_too_deeply_for_json_is_read_as_shell_form(tmp_path: Path) -> None:
    # `CMD [[[[…`: json.loads raised RecursionError, and the audit stopped with exit 2 (BuildKit reads it
    # as the shell form); it is a command docgen cannot read, so no finding
    files = {"Dockerfile": "FROM python:3.11-slim\nCOPY echo.py /srv/\nCMD " + "[" * 100_000 + "\n"}
    assert _audit(tmp_path, README, files) == []


NOTEBOOK = 'FROM python:3.11-slim\nCOPY rootfs /\nEXPOSE 8888\nENTRYPOINT ["/start.sh"]\n'
START = (
    "#!/bin/bash\nset -e\nexport LAB_PORT=${LAB_PORT:-8888}\n"
    'exec jupyter lab --ip 0.0.0.0 --port "$LAB_PORT"\n'
)


def _notebook(tmp_path: Path, run: str, files: dict[str, str] | None = None) -> list[str]:
    readme = f"# Lab\n\n## Full example\n\n```bash\n{run}\n```\n"
    tree = {"Dockerfile": NOTEBOOK, "rootfs/start.sh": START, **(files or {})}
    return [line for line in _audit(tmp_path, readme, tree) if "publishes container port" in line]


def test_a_port_variable_moved_off_the_published_port(tmp_path: Path) -> None:
    run = "docker run -d -e LAB_PORT=8000 \\\n  -e LAB_TOKEN=x \\\n  -p 8000:8888 \\\n  someone/lab"
    assert _notebook(tmp_path, run) == [
        "6: README sets LAB_PORT=8000 and publishes container port 8888, but rootfs/start.sh:3 makes "
        "LAB_PORT the port the container listens on (8888 by default): the server moves to 8000, which is "
        "not published, and container port 8888 reaches nothing (likely)"
    ]


def test_a_port_variable_set_by_env_moved_off_the_published_port(tmp_path: Path) -> None:
    dockerfile = 'FROM node:20-slim\nENV WEB_PORT=3000\nEXPOSE 3000\nCMD ["node", "server.js"]\n'
    readme = "# Web\n\n```bash\ndocker run -e WEB_PORT=4000 -p 4000:3000 acme/web:1.2\n```\n"
    found = _audit(tmp_path, readme, {"Dockerfile": dockerfile})
    assert [f.split(", but")[0] for f in found if "publishes container port" in f] == [
        "4: README sets WEB_PORT=4000 and publishes container port 3000"
    ]


@pytest.mark.parametrize(
    "run",
    [
        "docker run -e LAB_PORT=8000 -p 8000:8000 someone/lab",  # the new port is published
        "docker run -e LAB_PORT=8888 -p 8000:8888 someone/lab",  # the default, named again
        "docker run -p 8000:8888 someone/lab",  # nothing moved: the host side is the user's choice
        "docker run -e LAB_PORT=8000 --network host someone/lab",  # the host's network
        "docker run -e LAB_PORT=8000 -P someone/lab",  # every port published
        "docker run -e REDIS_PORT=6380 -p 8000:8888 someone/lab",  # not the server's variable
    ],
)
def test_port_variables_that_keep_the_published_port_served(tmp_path: Path, run: str) -> None:
    assert _notebook(tmp_path, run) == []


def test_a_start_script_given_another_variables_port(tmp_path: Path) -> None:
    files = {
        "Dockerfile": 'FROM python:3.11-slim\nCOPY run.sh /run.sh\nENTRYPOINT ["/run.sh"]\n',
        "run.sh": "#!/bin/sh\nexec hypercorn echo:app --bind 0.0.0.0:$ECHO_HTTP_PORT\n",
    }
    found = _audit(tmp_path, README, files)
    assert [f.split(":", 1)[0] for f in found] == ["5", "8", "14"]
    assert (
        "starts the server on the port of ${ECHO_HTTP_PORT} and nothing the image runs reads PORT" in found[0]
    )
    # the script passes PORT on, or gives the variable a default of PORT's: read
    files["run.sh"] = (
        "#!/bin/sh\nECHO_HTTP_PORT=$PORT\nexec hypercorn echo:app --bind 0.0.0.0:$ECHO_HTTP_PORT\n"
    )
    assert _audit(tmp_path / "b", README, files) == []
    files["run.sh"] = "#!/bin/sh\nexec hypercorn echo:app --bind 0.0.0.0:${ECHO_HTTP_PORT:-7000}\n"
    assert _audit(tmp_path / "c", README, files) == []


VISION = """**Vision server**

RUNNING WITH ENV VARS:

### `PORT` : int
The port to run the server on (default 6919)

### `CUDA_VISIBLE_DEVICES` : str
The device to use.

```bash
docker run -p 6920:6920 --gpus all -e PORT=6920 -e CUDA_VISIBLE_DEVICES=0 acme/vision:server
```
"""
VISION_COMPOSE = (
    "services:\n  server:\n    build:\n      context: .\n      dockerfile: Dockerfile\n"
    '    command:\n      - "/entrypoint.sh"\n    ports:\n      - 8080:8080\n'
)
VISION_START = (
    "#!/bin/bash\n\nsource activate venv\nuvicorn --port ${SERVE_PORT} --host 0.0.0.0 app.asgi:app\n"
)


def _composed(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, **files})
    found = audit(readme, "README.md", [], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "PORT" in d.message]


def test_a_port_variable_a_compose_started_script_ignores(tmp_path: Path) -> None:
    # no Dockerfile in the folder: the compose service runs the script of its build context
    files = {"docker-compose.yml": VISION_COMPOSE, "entrypoint.sh": VISION_START}
    start = (
        "entrypoint.sh:4 (which service server of docker-compose.yml starts) runs the server on the port of "
    )
    assert _composed(tmp_path, VISION, files) == [
        f"5: README documents PORT for the port the container listens on, but {start}${{SERVE_PORT}} and "
        "nothing of the project reads PORT (likely)",
        f"6: README says PORT defaults to 6919, but {start}${{SERVE_PORT}}, which has no default there, and "
        "no file of the project gives 6919 (likely)",
    ]
    # a model server whose compose file mounts its start script, which gives a fixed port
    llama = (
        "# Llama\n\n## Environment variables\n\n- `API_PORT` - where the API listens\n"
        "- `MODEL_PATH` - the weights\n"
    )
    mounted = {
        "compose.yaml": "services:\n  llama:\n    image: ghcr.io/acme/llama:1.2\n"
        "    entrypoint: [/usr/local/bin/start.sh]\n"
        "    volumes:\n      - ./scripts/start.sh:/usr/local/bin/start.sh\n",
        "scripts/start.sh": '#!/bin/sh\nexec llama-server -m "$MODEL_PATH" \\\n  --port 8080\n',
    }
    assert _composed(tmp_path / "b", llama, mounted) == [
        "5: README documents API_PORT for the port the container listens on, but scripts/start.sh:2 (which "
        "service llama of compose.yaml starts) runs the server on fixed port 8080 and nothing of the project "
        "reads API_PORT (likely)"
    ]


@pytest.mark.parametrize(
    "files",
    [
        # the script reads PORT, or the compose file passes it on
        {
            "docker-compose.yml": VISION_COMPOSE,
            "entrypoint.sh": VISION_START.replace("${SERVE_PORT}", "${PORT}"),
        },
        {
            "docker-compose.yml": VISION_COMPOSE + "    environment:\n      - SERVE_PORT=${PORT:-6919}\n",
            "entrypoint.sh": VISION_START,
        },
        # a Dockerfile beside it names PORT (ENV SERVE_PORT=$PORT)
        {
            "docker-compose.yml": VISION_COMPOSE,
            "entrypoint.sh": VISION_START,
            "Dockerfile": "FROM python:3.11\nENV SERVE_PORT=${PORT}\nCOPY entrypoint.sh /\n",
        },
        # the launcher takes no port on its command line (gunicorn reads PORT itself)
        {"docker-compose.yml": VISION_COMPOSE, "entrypoint.sh": "#!/bin/sh\nexec gunicorn app.asgi:app\n"},
        # the compose service runs no script of the project
        {"docker-compose.yml": VISION_COMPOSE.replace('"/entrypoint.sh"', "python serve.py"), "serve.py": ""},
        {"docker-compose.yml": VISION_COMPOSE, "start.sh": VISION_START},
    ],
)
def test_port_variables_a_compose_started_script_may_read(tmp_path: Path, files: dict[str, str]) -> None:
    assert _composed(tmp_path, VISION, files) == []


def test_a_said_default_the_project_gives(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": VISION_COMPOSE.replace("8080:8080", "6919:6919"),
        "entrypoint.sh": VISION_START,
    }
    found = _composed(tmp_path, VISION, files)
    assert [f.split(":", 1)[0] for f in found] == ["5"]
