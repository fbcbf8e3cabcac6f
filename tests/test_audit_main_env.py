"""`docgen audit`: an environment variable a README passes to the container (`-e`) or documents in a table
of environment variables that the Python app the image starts through a server by `module:attr`
(`uvicorn app:app`) reads only in its `if __name__ == "__main__":` block, or in a function only that
block or a console script calls: an import never runs that code (docgen/audit/main_env.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.audit.main_env import main_only_reads
from docgen.pipeline import build_model

# A translation API whose token is read only when the module runs as a script.
TOKEN_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /srv/translate
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY server.py .
EXPOSE 7100
CMD ["uvicorn", "server:api", "--host", "0.0.0.0", "--port", "7100"]
"""
TOKEN_APP = """\
import os
import uvicorn
from fastapi import FastAPI, Header, HTTPException

api = FastAPI()
expected = "changeme"
LANGS = os.getenv("TRANSLATE_LANGS", "en,fr")

@api.post("/translate")
async def translate(text: str, authorization: str = Header("")):
    if authorization != f"Bearer {expected}":
        raise HTTPException(401)
    return {"text": text[::-1], "cache": os.environ.get("TRANSLATE_CACHE")}

if __name__ == "__main__":
    expected = os.environ["TRANSLATE_TOKEN"]
    uvicorn.run(api, host="0.0.0.0", port=7100)
"""
TOKEN_README = """\
# Translate service

```bash
docker build -t translate-api .
docker run -d -p 7100:7100 \\
  -e TRANSLATE_TOKEN=s3cret \\
  -e TRANSLATE_LANGS=en,de \\
  -e TRANSLATE_CACHE=/tmp/c \\
  translate-api
```
"""

# A Flask app under gunicorn whose settings table lists what only `serve()` reads.
FLASK_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /opt
COPY . /opt/notes/
WORKDIR /opt/notes
RUN pip install flask gunicorn
ENTRYPOINT ["tini", "--"]
CMD ["gunicorn", "-w", "2", "-b", "0.0.0.0:5000", "web.main:create_app()"]
"""
FLASK_APP = """\
import os
from flask import Flask

def create_app():
    app = Flask(__name__)
    app.config["TITLE"] = os.getenv("NOTES_TITLE", "Notes")
    return app

def _bind():
    return os.getenv("NOTES_BIND", "127.0.0.1"), int(os.getenv("NOTES_PORT", "5000"))

def serve():
    host, port = _bind()
    create_app().run(host=host, port=port, debug="NOTES_DEBUG" in os.environ)
"""
FLASK_PYPROJECT = """\
[project]
name = "notes"
version = "1.0"

[project.scripts]
notes-serve = "web.main:serve"
"""
FLASK_README = """\
# Notes

Build and start it:

```
docker build -t notes .
docker run -p 5000:5000 notes
```

## Settings

Environment variables:

| Name | Default | Meaning |
|------|---------|---------|
| `NOTES_TITLE` | `Notes` | page title |
| `NOTES_BIND` | `127.0.0.1` | address to bind |
| `NOTES_DEBUG` | unset | debug mode |
"""
FLASK_FILES = {
    "Dockerfile": FLASK_DOCKERFILE,
    "web/__init__.py": "",
    "web/main.py": FLASK_APP,
    "pyproject.toml": FLASK_PYPROJECT,
}
TOKEN_FILES = {
    "Dockerfile": TOKEN_DOCKERFILE,
    "server.py": TOKEN_APP,
    "requirements.txt": "fastapi\nuvicorn\n",
}


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "an import never runs" in d.message
    ]


def test_a_token_passed_with_e_that_only_the_main_block_reads(tmp_path: Path) -> None:
    assert found(tmp_path, TOKEN_README, TOKEN_FILES) == [
        (
            9,
            "README passes TRANSLATE_TOKEN as a setting of the container, but Dockerfile:7 starts the app "
            "with `uvicorn server:api`, which imports server.py as a module, and server.py:16 reads "
            'TRANSLATE_TOKEN only in its `if __name__ == "__main__"` block (line 15), which an import never '
            "runs: setting TRANSLATE_TOKEN changes nothing",
            "certain",
        )
    ]


def test_a_table_of_variables_only_a_function_of_the_main_path_reads(tmp_path: Path) -> None:
    assert found(tmp_path, FLASK_README, FLASK_FILES) == [
        (
            17,
            "README documents NOTES_BIND as a setting of the container, but Dockerfile:7 starts the app "
            "with `gunicorn web.main:create_app()`, which imports main.py as a module, and main.py:10 reads "
            "NOTES_BIND only in _bind() (line 9), called only by serve(), which an import never runs: "
            "setting NOTES_BIND changes nothing",
            "certain",
        ),
        (
            18,
            "README documents NOTES_DEBUG as a setting of the container, but Dockerfile:7 starts the app "
            "with `gunicorn web.main:create_app()`, which imports main.py as a module, and main.py:14 reads "
            "NOTES_DEBUG only in serve() (line 12), called only by a console script of pyproject.toml, "
            "which an import never runs: setting NOTES_DEBUG changes nothing",
            "certain",
        ),
    ]


def test_silent_when_the_container_runs_the_main_path(tmp_path: Path) -> None:
    # the image runs the module as a script: its __main__ block runs
    script = TOKEN_DOCKERFILE.replace(
        '["uvicorn", "server:api", "--host", "0.0.0.0", "--port", "7100"]', '["python", "server.py"]'
    )
    assert found(tmp_path, TOKEN_README, {**TOKEN_FILES, "Dockerfile": script}) == []
    # an entrypoint script starts first: it may run anything
    shell = TOKEN_DOCKERFILE.replace("CMD [", 'ENTRYPOINT ["/srv/start.sh"]\nCMD [')
    assert found(tmp_path, TOKEN_README, {**TOKEN_FILES, "Dockerfile": shell}) == []
    # the run gives its own command
    own = TOKEN_README.replace("  translate-api\n", "  translate-api python server.py\n")
    assert found(tmp_path, own, TOKEN_FILES) == []
    # the README runs the console script, where the table's variables work
    local = FLASK_README.replace("## Settings", "Or without Docker:\n\n```\nnotes-serve\n```\n\n## Settings")
    assert found(tmp_path, local, FLASK_FILES) == []


def test_silent_when_something_else_may_read_the_variable(tmp_path: Path) -> None:
    # a settings module the image copies names it
    settings = {
        **TOKEN_FILES,
        "Dockerfile": TOKEN_DOCKERFILE.replace("COPY server.py .", "COPY *.py ./"),
        "settings.py": 'import os\nTOKEN = os.environ.get("TRANSLATE_TOKEN")\n',
    }
    assert found(tmp_path, TOKEN_README, settings) == []
    # the command line reads it
    cmd = TOKEN_DOCKERFILE.replace(
        'CMD ["uvicorn", "server:api", "--host", "0.0.0.0", "--port", "7100"]',
        "CMD uvicorn server:api --host 0.0.0.0 --port 7100 --root-path $TRANSLATE_TOKEN",
    )
    assert found(tmp_path, TOKEN_README, {**TOKEN_FILES, "Dockerfile": cmd}) == []
    # the module reads the environment by a name it computes outside the main block
    dynamic = TOKEN_APP.replace(
        'LANGS = os.getenv("TRANSLATE_LANGS", "en,fr")', 'LANGS = os.getenv(PREFIX + "LANGS")'
    )
    assert found(tmp_path, TOKEN_README, {**TOKEN_FILES, "server.py": dynamic}) == []
    # a library reads it (the server's own variables)
    library = TOKEN_README.replace("TRANSLATE_TOKEN=s3cret", "UVICORN_WORKERS=4")
    assert found(tmp_path, library, TOKEN_FILES) == []
    # history: the README documents no container setting, only the module's file is there
    assert found(tmp_path, "# Translate\n\nSee server.py.\n", TOKEN_FILES) == []


def test_main_only_reads_of_a_module() -> None:
    reads = main_only_reads(TOKEN_APP)
    assert set(reads) == {"TRANSLATE_TOKEN"}
    assert reads["TRANSLATE_TOKEN"].line == 16
    # a decorated function, a function import-time code calls, and a method are live
    live = """\
import os
def helper():
    return os.getenv("A")
X = helper()
class C:
    def m(self):
        return os.getenv("B")
def main():
    print(os.getenv("C"), os.getenv("A"), C().m())
if __name__ == "__main__":
    main()
"""
    assert set(main_only_reads(live)) == {"C"}
    # no __main__ block and no console script: nothing is known to be main-only
    assert main_only_reads("import os\ndef main():\n    return os.getenv('D')\n") == {}
    assert set(
        main_only_reads("import os\ndef main():\n    return os.getenv('D')\n", frozenset({"main"}))
    ) == {"D"}
    # a settings library, bad Python, os.environ copied at import
    assert (
        main_only_reads(
            "from pydantic_settings import BaseSettings\n"
            "if __name__ == '__main__':\n    import os; os.getenv('E')\n"
        )
        == {}
    )
    assert main_only_reads("def (:\n") == {}
    assert (
        main_only_reads("import os\nENV = dict(os.environ)\nif __name__ == '__main__':\n    os.getenv('F')\n")
        == {}
    )
