"""`docgen audit`: a Python module a README's server command starts that the repository does not have
(docgen/audit/server_modules.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = (
    "FROM python:3.11-slim\nWORKDIR /srv\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    'COPY service/ ./service\nEXPOSE 9000\nCMD ["uvicorn", "service.api:app", "--port", "9000"]\n'
)
TREE = {
    "Dockerfile": DOCKERFILE,
    "requirements.txt": "fastapi==0.110.0\nuvicorn==0.29.0\n",
    "service/__init__.py": "",
    "service/api.py": "app = object()\n",
    "service/tasks/__init__.py": "",
    "service/tasks/warm.py": "print('warm')\n",
}


def _started_by(command: str) -> dict[str, str]:
    """The tree with the Dockerfile's CMD starting `command` (a JSON array's items) instead."""
    return dict(TREE, Dockerfile=DOCKERFILE.replace('"uvicorn", "service.api:app"', command))


def _findings(root: Path, readme: str, tree: dict[str, str] | None = None) -> list[str]:
    make_tree(root, TREE if tree is None else tree)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_server_module_the_repository_does_not_have(tmp_path: Path) -> None:
    readme = "# Vectors\n\n```bash\nuvicorn vector_server:app --host 0.0.0.0 --port 9000\n```\n"
    assert _findings(tmp_path, readme) == [
        "4: README runs `uvicorn vector_server:app`, but the repository has no module vector_server: "
        "Dockerfile:7 runs service.api:app (certain)"
    ]


def test_a_bare_command_line_and_a_code_span_told_once(tmp_path: Path) -> None:
    readme = "gunicorn -w 2 -b 0.0.0.0:9000 web:app\n\nOr run `gunicorn web:app` by hand.\n"
    tree = dict(
        TREE, Dockerfile=DOCKERFILE.replace('"uvicorn", "service.api:app"', '"gunicorn", "service.api:app"')
    )
    assert _findings(tmp_path, readme, tree) == [
        "1: README runs `gunicorn web:app`, but the repository has no module web: Dockerfile:7 runs "
        "service.api:app; also at line 3 (certain)"
    ]


def test_a_compose_command_is_likely(tmp_path: Path) -> None:
    tree = dict(TREE, Dockerfile=DOCKERFILE.replace("CMD", "# CMD"))
    tree["docker-compose.yml"] = "services:\n  api:\n    build: .\n    command: uvicorn service.api:app\n"
    readme = "```\nuvicorn vector_server:app\n```\n"
    assert _findings(tmp_path, readme, tree) == [
        "2: README runs `uvicorn vector_server:app`, but the repository has no module vector_server: "
        "docker-compose.yml:4 runs service.api:app (likely)"
    ]


def test_a_module_missing_from_a_package_of_the_repository(tmp_path: Path) -> None:
    readme = "```sh\npython -m service.tasks.cold\n```\n"
    assert _findings(tmp_path, readme) == [
        "2: README runs `python -m service.tasks.cold`, but the repository has no module service.tasks.cold: "
        "package service has no tasks/cold.py (likely)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "uvicorn service.api:app --reload",  # the module is there
        "uvicorn api:app --app-dir service",  # below a folder
        "cd service && uvicorn api:app",
        "python -m service.tasks.warm",
        "python -m pip install -r requirements.txt",  # Python's own and the installer
        "python3 -m http.server 9000",
        "python -m venv .venv",
        "python -m vllm.entrypoints.openai.api_server --model m",  # an installed package
        "uvicorn fastapi_demo.main:app",  # named by the requirements below
        "uvicorn your_module:app",  # a placeholder
        "pip install uvicorn gunicorn",  # no server started
        "docker run -p 9000:9000 vectors uvicorn vector_server:app",  # another image may hold it
    ],
)
def test_server_commands_that_say_nothing(tmp_path: Path, command: str) -> None:
    tree = dict(TREE, **{"requirements.txt": "fastapi-demo==1.0\nuvicorn==0.29.0\n"})
    assert _findings(tmp_path, f"```bash\n{command}\n```\n", tree) == []


def test_a_src_layout_installed_with_pip(tmp_path: Path) -> None:
    tree = dict(TREE, **{"src/vector_server/__init__.py": "", "pyproject.toml": "[project]\nname='v'\n"})
    assert _findings(tmp_path, "```\npip install -e .\nuvicorn vector_server:app\n```\n", tree) == []


def test_commands_inside_a_container_say_nothing(tmp_path: Path) -> None:
    readme = "```bash\ndocker run -it --rm vectors bash\nuvicorn vector_server:app\n```\n"
    assert _findings(tmp_path, readme) == []


def test_a_module_of_a_cloned_repository(tmp_path: Path) -> None:
    readme = "```bash\ngit clone https://example.com/org/chat.git\ncd chat\nuvicorn chat_api:app\n```\n"
    assert _findings(tmp_path, readme) == []


def test_a_module_the_readme_writes(tmp_path: Path) -> None:
    readme = (
        "Save this as `vector_server.py`:\n\n```python\napp = 1\n```\n\n```\nuvicorn vector_server:app\n```\n"
    )
    assert _findings(tmp_path, readme) == []


def test_no_claim_without_a_server_command_of_the_project(tmp_path: Path) -> None:
    tree = dict(
        TREE, Dockerfile=DOCKERFILE.replace('"uvicorn", "service.api:app"', '"python", "-m", "service.api"')
    )
    assert _findings(tmp_path, "```\nuvicorn vector_server:app\n```\n", tree) == []


def test_a_python_module_outside_the_repository_packages(tmp_path: Path) -> None:
    tree = dict(
        TREE, Dockerfile=DOCKERFILE.replace('"uvicorn", "service.api:app"', '"python", "-m", "service.api"')
    )
    assert _findings(tmp_path, "```\npython -m torch.distributed.run train.py\n```\n", tree) == []


# --------------------------------------------------------------------------------------------------
# A `module:attribute` whose module is in the repository but binds no such name

RAY_TREE = {
    "Dockerfile": "FROM rayproject/ray:2.9.0-py310\nCOPY shop.py greet.py ./\n",
    "shop.py": (
        "from ray import serve\nfrom ray.serve.drivers import DAGDriver\n\n\n@serve.deployment\n"
        "class Shop:\n    def price(self, item):\n        return 1\n\n\nshop = Shop.bind()\n"
        "app = DAGDriver.bind(shop)\n"
    ),
    "greet.py": (
        "from ray import serve\n\n\n@serve.deployment\nclass Greet:\n    pass\n\n\ngreeter = Greet.bind()\n"
    ),
    "shop.yaml": "# written by serve build\n\nimport_path: shop:shop_graph\n\nruntime_env: {}\n",
    "greet.yaml": "applications:\n  - name: greet\n    import_path: greet:greeter\n",
}
RAY_README = """\
# Serve examples

Build the configs:

```
serve build greet:greeter -o greet.yaml
serve build shop:shop_graph -o shop.yaml
serve build --multi-app greet:greeter shop:app -o both.yaml
```

Deploy them:

```
serve deploy greet.yaml
serve deploy shop.yaml
```

Write your own with `serve run your_module:app`.
"""


def _ray_findings(root: Path, readme: str, tree: dict[str, str]) -> list[str]:
    return [f for f in _findings(root, readme, tree) if "binds no" in f]


def test_an_app_the_serve_module_does_not_bind(tmp_path: Path) -> None:
    assert _ray_findings(tmp_path, RAY_README, RAY_TREE) == [
        "7: README runs `serve build shop:shop_graph`, but shop.py binds no shop_graph: shop.py:12 binds app "
        "(certain)",
        "15: README deploys shop.yaml, whose import_path (shop.yaml:3) is shop:shop_graph, but shop.py binds "
        "no shop_graph: shop.py:12 binds app (certain)",
    ]
    fixed = dict(RAY_TREE, **{"shop.yaml": RAY_TREE["shop.yaml"].replace("shop_graph", "app")})
    readme = RAY_README.replace("shop:shop_graph", "shop:app")
    assert _ray_findings(tmp_path / "fixed", readme, fixed) == []


@pytest.mark.parametrize(
    "shop",
    [
        "from shop_impl import *\n",  # names bound another way
        "import os\nif os.environ.get('X'):\n    shop_graph = 1\nelse:\n    shop_graph = 2\n",  # in a branch
        "from shop_impl import app as shop_graph\n",
        "def make():\n    global shop_graph\n    shop_graph = 1\n",
        "def __getattr__(name):\n    return name\n",
        "",  # binds nothing at all
    ],
)
def test_modules_that_bind_or_may_bind_the_app(tmp_path: Path, shop: str) -> None:
    tree = dict(RAY_TREE, **{"shop.py": shop, "shop_impl.py": "app = 1\n"})
    assert [f for f in _ray_findings(tmp_path, RAY_README, tree) if "shop_graph" in f] == []


WEB_TREE = {
    "Dockerfile": (
        "FROM python:3.12-slim\nWORKDIR /srv\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
        'COPY web/ ./web\nCMD ["gunicorn", "-b", "0.0.0.0:8000", "web.wsgi:application"]\n'
    ),
    "requirements.txt": "flask==3.0.0\ngunicorn==21.2.0\n",
    "web/__init__.py": "from flask import Flask\n\n\ndef create_app():\n    return Flask(__name__)\n",
    "web/wsgi.py": "from web import create_app\n\napp = create_app()\n",
    "compose.yaml": "services:\n  web:\n    build: .\n    command: gunicorn web.wsgi:app\n",
}
WEB_README = """\
# Notes web app

Run it locally:

```sh
flask --app web:make_app run --debug
uvicorn --factory web:create_app
```

Or in a container:

```sh
docker build -t notes .
docker run -p 8000:8000 notes
```
"""


def test_apps_of_flask_a_factory_and_the_image_cmd(tmp_path: Path) -> None:
    assert [f for f in _findings(tmp_path, WEB_README, WEB_TREE) if "binds no" in f] == [
        "6: README runs `flask --app web:make_app`, but web/__init__.py binds no make_app: "
        "web/__init__.py:4 binds create_app (certain)",
        "14: README starts the image, whose Dockerfile:6 runs `gunicorn web.wsgi:application`, but "
        "web/wsgi.py binds no application: web/wsgi.py:3 binds app (certain)",
    ]
    tree = dict(WEB_TREE, Dockerfile=WEB_TREE["Dockerfile"].replace("wsgi:application", "wsgi:app"))
    readme = WEB_README.replace("web:make_app", "web:create_app")
    assert [f for f in _findings(tmp_path / "fixed", readme, tree) if "binds no" in f] == []


def test_a_compose_command_told_at_compose_up(tmp_path: Path) -> None:
    tree = dict(WEB_TREE, **{"compose.yaml": WEB_TREE["compose.yaml"].replace("wsgi:app", "wsgi:wsgi_app")})
    tree["Dockerfile"] = tree["Dockerfile"].replace("wsgi:application", "wsgi:app")
    readme = "# Notes\n\n```sh\ndocker compose up -d\n```\n"
    assert [f for f in _findings(tmp_path, readme, tree) if "binds no" in f] == [
        "4: README starts the compose services, whose compose.yaml:4 runs `gunicorn web.wsgi:wsgi_app`, but "
        "web/wsgi.py binds no wsgi_app: web/wsgi.py:3 binds app (certain)"
    ]
    quiet = "# Notes\n\nThe compose file starts the app.\n"  # the README starts nothing
    assert [f for f in _findings(tmp_path / "quiet", quiet, tree) if "binds no" in f] == []


# The image's own server command naming its app by a module path the image does not have from its
# WORKDIR: the COPY put the package's files in the WORKDIR itself. Planted drifts modelled on an LLM
# API (`COPY app/ /app`, `WORKDIR /app`, `uvicorn app.main:app`) and a gunicorn web service (`COPY
# web /srv`, `gunicorn web.wsgi:application`); traps modelled on an image copying the package under
# the WORKDIR (`COPY app/ ./app`), one installing the project (`pip install .`), one setting
# PYTHONPATH or `--app-dir`.

_FLAT = {
    "Dockerfile": "FROM python:3.11-slim\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    'COPY app/ /app\nWORKDIR /app\nCMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000"]\n',
    "requirements.txt": "fastapi==0.110.0\nuvicorn==0.29.0\n",
    "app/__init__.py": "",
    "app/main.py": "from fastapi import FastAPI\n\napp = FastAPI()\n",
}


def test_an_image_app_copied_into_its_workdir_itself(tmp_path: Path) -> None:
    readme = "# LLM API\n\n```bash\ndocker build -t llm-api .\ndocker run -p 8000:8000 llm-api\n```\n"
    assert _findings(tmp_path, readme, _FLAT) == [
        "5: README starts the image, whose Dockerfile:6 runs `uvicorn app.main:app` from WORKDIR /app, "
        "but the COPY of line 4 puts app/main.py at /app/main.py, not /app/app/main.py: the server cannot "
        "import app.main and the container stops (certain)"
    ]


def test_an_image_app_said_to_serve_a_port_with_no_run(tmp_path: Path) -> None:
    readme = (
        "# LLM API\n\n- Dockerized for reproducibility\n\nTry it:\n\n"
        'curl "http://localhost:8000/generate?prompt=hi"\n'
    )
    assert _findings(tmp_path / "a", readme, _FLAT) == [
        "7: README sends a request to port 8000, which the image's Dockerfile:6 serves with `uvicorn "
        "app.main:app` from WORKDIR /app, but the COPY of line 4 puts app/main.py at /app/main.py, not "
        "/app/app/main.py: the server cannot import app.main and the container stops (likely)"
    ]
    # no word of Docker: the request may be to a server run on the host
    readme = '# LLM API\n\nTry it:\n\ncurl "http://localhost:8000/generate?prompt=hi"\n'
    assert _findings(tmp_path / "b", readme, _FLAT) == []


def test_a_gunicorn_app_copied_into_its_workdir(tmp_path: Path) -> None:
    tree = {
        "Dockerfile": "FROM python:3.12\nWORKDIR /srv\nCOPY web .\nRUN pip install -r requirements.txt\n"
        "CMD gunicorn -w 4 -b 0.0.0.0:8080 web.wsgi:application\n",
        "web/requirements.txt": "django==5.0\ngunicorn==22.0\n",
        "web/wsgi.py": "application = object()\n",
    }
    readme = "# Web\n\n```bash\ndocker build -t web .\ndocker run --rm -p 8080:8080 web\n```\n"
    found = _findings(tmp_path, readme, tree)
    assert found == [
        "5: README starts the image, whose Dockerfile:5 runs `gunicorn web.wsgi:application` from WORKDIR "
        "/srv, but the COPY of line 3 puts web/wsgi.py at /srv/wsgi.py, not /srv/web/wsgi.py: the server "
        "cannot import web.wsgi and the container stops (certain)"
    ]


@pytest.mark.parametrize(
    "change",
    [
        ("COPY app/ /app\nWORKDIR /app\n", "WORKDIR /app\nCOPY app/ ./app\n"),
        ("COPY app/ /app\nWORKDIR /app\n", "COPY . /app\nWORKDIR /app\n"),
        ("COPY app/ /app\nWORKDIR /app\n", "COPY app/ /app\nWORKDIR /\n"),
        ("WORKDIR /app\n", "WORKDIR /app\nRUN pip install .\n"),
        ("WORKDIR /app\n", "WORKDIR /app\nENV PYTHONPATH=/\n"),
        ('"app.main:app",', '"app.main:app", "--app-dir", "/",'),
        ('"app.main:app"', '"main:app"'),
        ("WORKDIR /app\n", "WORKDIR /app\nRUN mkdir app && mv *.py app/\n"),
        ("COPY requirements.txt .\n", "COPY --from=builder /src/app /app/app\n"),
    ],
)
def test_image_apps_the_image_can_import(tmp_path: Path, change: tuple[str, str]) -> None:
    tree = dict(_FLAT, Dockerfile=_FLAT["Dockerfile"].replace(*change))
    readme = "# LLM API\n\n```bash\ndocker build -t llm-api .\ndocker run -p 8000:8000 llm-api\n```\n"
    assert [f for f in _findings(tmp_path, readme, tree) if "cannot import" in f] == []


def test_a_run_of_another_image_is_no_start_of_this_one(tmp_path: Path) -> None:
    readme = "# LLM API\n\n```bash\ndocker build -t llm-api .\ndocker run -d -p 6379:6379 redis\n```\n"
    assert [f for f in _findings(tmp_path, readme, _FLAT) if "cannot import" in f] == []
