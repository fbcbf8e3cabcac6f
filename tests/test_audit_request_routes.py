"""`docgen.audit.request_routes`: a request a README's code block sends to the project's own server on a
path one slip from a route its code registers (FastAPI's or Flask's decorators), while no route serves
it, is a `certain` finding naming the route; external URLs, paths a route with parameters serves, a
port the project never names, routes mounted under a prefix, paths two slips away or close to two routes,
and requests sent from inside a container are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.request_routes import one_edit
from docgen.pipeline import build_model

# a speech-to-text service in FastAPI, published on 8000
FASTAPI_SERVER = """\
import argparse
from fastapi import FastAPI, UploadFile

app = FastAPI()


@app.get("/v1/models")
async def models():
    return {"data": []}


@app.post("/v1/audio/transcriptions")
async def transcribe(file: UploadFile):
    return {"text": ""}


@app.post("/v1/audio/translations")
async def translate(file: UploadFile):
    return {"text": ""}


@app.get("/v1/jobs/{job_id}")
async def job(job_id: str):
    return {}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8000)
"""
FASTAPI_DOCKERFILE = 'FROM python:3.11-slim\nCOPY speech.py /app/\nCMD ["python", "/app/speech.py"]\n'
FASTAPI_README = """\
# Speech service

```shell
docker build -t speech .
docker run -d -p 8000:8000 speech
```

## Usage

```shell
{commands}
```
"""

# an image classifier in Flask, under app/, published on 5000
FLASK_SERVER = """\
from flask import Flask, request

app = Flask(__name__)


@app.route("/predict", methods=["POST"])
def predict():
    return {}


@app.route("/labels/<int:label_id>")
def label(label_id):
    return {}


def health():
    return "ok"


app.add_url_rule("/healthz", view_func=health)
"""
FLASK_DOCKERFILE = (
    'FROM python:3.12-slim\nCOPY app/ /srv/app/\nEXPOSE 5000\nCMD ["python", "/srv/app/main.py"]\n'
)
FLASK_README = """\
# Classifier

Send an image:

```bash
{commands}
```
"""


def found(root: Path, kind: str, commands: str, extra: dict[str, str] | None = None) -> list[tuple[int, str]]:
    if kind == "fastapi":
        readme = FASTAPI_README.format(commands=commands)
        files = {"README.md": readme, "Dockerfile": FASTAPI_DOCKERFILE, "speech.py": FASTAPI_SERVER}
    else:
        readme = FLASK_README.format(commands=commands)
        files = {"README.md": readme, "Dockerfile": FLASK_DOCKERFILE, "app/main.py": FLASK_SERVER}
    make_tree(root, {**files, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", [model], {}, root)
        if "sends a request" in d.message and d.confidence == "certain"
    ]


TRANSCRIBE = (
    "README sends a request to /v1/audio/transscriptions, which the project's server does not serve "
    "(speech.py:12 registers /v1/audio/transcriptions)"
)


@pytest.mark.parametrize(
    ("kind", "commands", "expected"),
    [
        # a letter added: every request to it, told once
        (
            "fastapi",
            "curl -s http://localhost:8000/v1/audio/transscriptions -F file=@a.mp3\n"
            "curl http://127.0.0.1:8000/v1/audio/transscriptions -F model=whisper-1 -F file=@a.mp3",
            [(11, TRANSCRIBE + "; also at line 12")],
        ),
        # a letter dropped, on a continued command
        (
            "fastapi",
            "curl -s \\\n  http://localhost:8000/v1/model",
            [
                (
                    12,
                    "README sends a request to /v1/model, which the project's server does not serve "
                    "(speech.py:7 registers /v1/models)",
                )
            ],
        ),
        # a Flask route in a folder below, a letter changed, the port the Dockerfile exposes
        (
            "flask",
            'curl -X POST -F "image=@cat.jpg" http://localhost:5000/predlct',
            [
                (
                    6,
                    "README sends a request to /predlct, which the project's server does not serve "
                    "(app/main.py:6 registers /predict)",
                )
            ],
        ),
        (
            "flask",
            "curl http://localhost:5000/healthy",
            [
                (
                    6,
                    "README sends a request to /healthy, which the project's server does not serve "
                    "(app/main.py:20 registers /healthz)",
                )
            ],
        ),
        # the routes as registered, a parameter's value, a trailing slash, a query
        ("fastapi", "curl http://localhost:8000/v1/audio/transcriptions -F file=@a.mp3", []),
        ("fastapi", "curl http://localhost:8000/v1/jobs/42", []),
        ("fastapi", "curl http://localhost:8000/v1/models/", []),
        ("fastapi", "curl 'http://localhost:8000/v1/models?limit=1'", []),
        ("flask", "curl http://localhost:5000/labels/7", []),
        # an external server: another API, whatever its paths
        ("fastapi", "curl https://api.openai.com/v1/audio/transscriptions -F file=@a.mp3", []),
        ("fastapi", "curl http://speech.example.org:8000/v1/model", []),
        # a port the project never names: another service of the reader's
        ("fastapi", "curl http://localhost:9999/v1/model", []),
        # two slips away, or close to a route with a parameter only: no one route meant
        ("fastapi", "curl http://localhost:8000/v1/audio/transcribe", []),
        ("fastapi", "curl http://localhost:8000/v1/jobs", []),
        # sent from inside a container or another machine: its localhost is not this one
        ("fastapi", "docker exec speech curl http://localhost:8000/v1/model", []),
        ("fastapi", "ssh gpu-box\ncurl http://localhost:8000/v1/model", []),
    ],
)
def test_a_request_to_a_path_one_slip_from_a_route(
    tmp_path: Path, kind: str, commands: str, expected: list[tuple[int, str]]
) -> None:
    assert found(tmp_path, kind, commands) == expected


def test_routes_under_a_prefix_are_not_read(tmp_path: Path) -> None:
    mounted = FASTAPI_SERVER.replace(
        "app = FastAPI()", 'app = FastAPI()\napp.include_router(admin, prefix="/v2")'
    )
    commands = "curl http://localhost:8000/v1/model"
    assert found(tmp_path / "a", "fastapi", commands, {"speech.py": mounted}) == []
    assert found(tmp_path / "b", "fastapi", commands) != []


@pytest.mark.parametrize(
    ("kind", "commands", "mounting"),
    [
        # FastAPI's usual layout: the routes in one file, the app including them in main.py
        (
            "fastapi",
            "curl http://localhost:8000/v1/model",
            {
                "main.py": "from fastapi import FastAPI\nfrom speech import router\n\n"
                'app = FastAPI()\napp.include_router(router, prefix="/api")\n'
            },
        ),
        # Flask's: a blueprint's routes, registered under a prefix by the app factory
        (
            "flask",
            "curl -X POST http://localhost:5000/predit",
            {
                "app/__init__.py": "def create_app(app, bp):\n"
                '    app.register_blueprint(bp, url_prefix="/api")\n'
            },
        ),
    ],
)
def test_routes_mounted_under_a_prefix_by_a_file_without_routes(
    tmp_path: Path, kind: str, commands: str, mounting: dict[str, str]
) -> None:
    assert found(tmp_path / "a", kind, commands, mounting) == []
    assert found(tmp_path / "b", kind, commands) != []


def test_a_prefix_of_something_else_in_a_file_without_routes(tmp_path: Path) -> None:
    """A temporary folder's `prefix=` or a client's `session.mount("https://", …)` mounts no route."""
    helper = (
        'import tempfile\nimport requests\n\nwork = tempfile.mkdtemp(prefix="speech-")\n'
        'session = requests.Session()\nsession.mount("https://", requests.adapters.HTTPAdapter())\n'
    )
    commands = "curl http://localhost:8000/v1/model"
    assert found(tmp_path, "fastapi", commands, {"client.py": helper}) == found(
        tmp_path / "b", "fastapi", commands
    )
    assert found(tmp_path / "b", "fastapi", commands) != []


def test_a_path_close_to_two_routes_is_silent(tmp_path: Path) -> None:
    other = 'from speech import app\n\n\n@app.get("/v1/modes")\ndef modes():\n    return []\n'
    assert found(tmp_path, "fastapi", "curl http://localhost:8000/v1/model", {"modes.py": other}) == []


def test_a_route_whose_path_is_not_read_is_silent(tmp_path: Path) -> None:
    other = (
        'from speech import app\n\nMODEL = "/v1/model"\n\n\n@app.get(MODEL)\ndef model():\n    return {}\n'
    )
    assert found(tmp_path, "fastapi", "curl http://localhost:8000/v1/model", {"model.py": other}) == []
    keyword = 'from speech import app\n\n\n@app.get(path="/v1/model")\ndef model():\n    return {}\n'
    assert (
        found(tmp_path / "b", "fastapi", "curl http://localhost:8000/v1/model", {"model.py": keyword}) == []
    )


def test_no_route_found_says_nothing(tmp_path: Path) -> None:
    plain = "import http.server\nhttp.server.test(port=8000)\n"
    assert found(tmp_path, "fastapi", "curl http://localhost:8000/v1/model", {"speech.py": plain}) == []


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("/v1/models", "/v1/model", True),
        ("/v1/model", "/v1/models", True),
        ("/predict", "/predlct", True),
        ("/predict", "/predict", False),
        ("/predict", "/prdict/x", False),
        ("/ab", "/ba", False),
        ("", "/", True),
    ],
)
def test_one_edit(a: str, b: str, expected: bool) -> None:
    assert one_edit(a, b) is expected


# -- a WebSocket endpoint given at the root while the server serves its socket on a path

START = """\
#!/usr/bin/env bash
PORT="${PORT:-9000}"
python -m server &
echo "[start] streaming endpoint: ws://${PUBLIC_HOST}:${PORT}/v1/stream"
wait
"""
"""Modelled on a GPU speech server's start script that announces its socket."""

SOCKET_APP = """\
from fastapi import FastAPI, WebSocket
app = FastAPI()


@app.websocket("/ws/tts")
async def tts(socket: WebSocket):
    await socket.accept()
"""
"""Modelled on a text-to-speech server with one WebSocket route."""

SOCKETS_README = """\
# Stream server

```bash
docker run --gpus all -p 9000:9000 stream-server
```

**WebSocket Endpoint**: `ws://localhost:9000`
"""


def sockets(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.11-slim\nCOPY . /app\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "WebSocket endpoint" in d.message
    ]


def test_a_root_socket_the_start_script_announces_on_a_path(tmp_path: Path) -> None:
    assert sockets(tmp_path, SOCKETS_README, {"docker/start.sh": START}) == [
        (
            7,
            "README gives the WebSocket endpoint as ws://localhost:9000 with no path, but the server serves "
            "its socket on /v1/stream (docker/start.sh:4)",
        )
    ]


def test_a_root_socket_a_route_serves_on_a_path(tmp_path: Path) -> None:
    assert sockets(tmp_path, SOCKETS_README, {"server/app.py": SOCKET_APP}) == [
        (
            7,
            "README gives the WebSocket endpoint as ws://localhost:9000 with no path, but the server serves "
            "its socket on /ws/tts (server/app.py:5)",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the README gives the path elsewhere: the bare URL names the server
        (
            SOCKETS_README + "\nConnect clients to `ws://localhost:9000/v1/stream`.\n",
            {"docker/start.sh": START},
        ),
        # a route at the root
        (SOCKETS_README, {"server/app.py": SOCKET_APP.replace('"/ws/tts"', '"/"')}),
        # two paths: which one is meant is not said
        (SOCKETS_README, {"docker/start.sh": START, "server/app.py": SOCKET_APP}),
        # an announced URL of another port
        (SOCKETS_README, {"docker/start.sh": START.replace("${PORT}", "9100")}),
        # nothing the project serves is read
        (SOCKETS_README, {"docker/start.sh": "#!/bin/sh\nexec python -m server\n"}),
    ],
)
def test_root_sockets_the_server_may_serve(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert sockets(tmp_path, readme, files) == []


# a speech service whose routes hang off a FastAPI router with a prefix, included by the app as is
ROUTED_SERVER = """\
from fastapi import APIRouter, FastAPI, File, Header, UploadFile

app = FastAPI()
router = APIRouter(prefix="/stt", tags=["speech"])


@router.get("/health")
def health():
    return {"status": "ok"}


@router.post("/transcribe_batch")
async def transcribe_batch(file: UploadFile = File(...), speakers: int | None = Header(None)):
    return {}


@router.get("/jobs/{job_id}")
def job(job_id: str):
    return {}


app.include_router(router)
"""
ROUTED_README = """\
# Speech to text

'''
docker build -t stt .
'''
'''
docker run -p 8010:8010 stt
'''

'''
{commands}
'''
"""
ROUTED_DOCKERFILE = (
    'FROM python:3.12-slim\nCOPY . /app\nEXPOSE 8010\nCMD ["uvicorn", "app.main:app", "--port", "8010"]\n'
)


def routed(
    root: Path, commands: str, server: str = ROUTED_SERVER, extra: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    readme = ROUTED_README.format(commands=commands)
    make_tree(
        root, {"README.md": readme, "Dockerfile": ROUTED_DOCKERFILE, "app/main.py": server, **(extra or {})}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root)
        if "sends a request" in d.message
    ]


def test_routes_of_a_router_with_a_prefix_are_read_under_it(tmp_path: Path) -> None:
    # in a block fenced with ''' (a paragraph to Markdown, a block to its author)
    assert routed(tmp_path, "curl http://localhost:8010/stt/helth") == [
        (
            11,
            "README sends a request to /stt/helth, which the project's server does not serve "
            "(app/main.py:7 registers /stt/health)",
            "certain",
        )
    ]
    # the routes it serves, a path parameter read as any segment
    assert (
        routed(tmp_path / "b", "curl http://localhost:8010/stt/health\ncurl localhost:8010/stt/jobs/42") == []
    )


def test_a_request_to_a_sibling_of_the_route_it_means(tmp_path: Path) -> None:
    commands = 'curl -X POST http://127.0.0.1:8010/stt/transcribe_file \\\n  -F "file=@call.wav"'
    assert routed(tmp_path, commands) == [
        (
            11,
            "README sends a request to /stt/transcribe_file, which the project's server does not serve "
            "(app/main.py:12 registers /stt/transcribe_batch)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("commands", "server", "extra"),
    [
        # two siblings start with the same word: which one the README means is not known
        (
            "curl -X POST http://127.0.0.1:8010/stt/transcribe_file",
            ROUTED_SERVER.replace('@router.get("/health")', '@router.get("/transcribe_status")'),
            None,
        ),
        # another folder, or another first word
        ("curl -X POST http://127.0.0.1:8010/v2/transcribe_file", ROUTED_SERVER, None),
        ("curl -X POST http://127.0.0.1:8010/stt/upload_file", ROUTED_SERVER, None),
        # the router is included under a prefix more, or into another router
        (
            "curl http://localhost:8010/stt/helth",
            ROUTED_SERVER.replace("app.include_router(router)", 'app.include_router(router, prefix="/api")'),
            None,
        ),
        (
            "curl http://localhost:8010/stt/helth",
            ROUTED_SERVER.replace(
                "app.include_router(router)", 'api = APIRouter(prefix="/v1")\napi.include_router(router)'
            ),
            None,
        ),
        # a prefix not written as a string
        (
            "curl http://localhost:8010/stt/helth",
            ROUTED_SERVER.replace('APIRouter(prefix="/stt", tags=["speech"])', "APIRouter(prefix=PREFIX)"),
            None,
        ),
        # a route registered without a decorator: the routes read are not all
        (
            "curl -X POST http://127.0.0.1:8010/stt/transcribe_file",
            ROUTED_SERVER + 'app.add_api_route("/stt/transcribe_file", transcribe_batch, methods=["POST"])\n',
            None,
        ),
        # a router of another file whose prefix that file gives
        (
            "curl http://localhost:8010/stt/helth",
            ROUTED_SERVER.replace(
                'router = APIRouter(prefix="/stt", tags=["speech"])', "from app.api import router"
            ),
            {"app/api.py": 'from fastapi import APIRouter\n\nrouter = APIRouter(prefix="/speech")\n'},
        ),
    ],
)
def test_routes_whose_served_path_is_not_known_are_silent(
    tmp_path: Path, commands: str, server: str, extra: dict[str, str] | None
) -> None:
    assert routed(tmp_path, commands, server, extra) == []
