"""`docgen audit`: a README showing a Jupyter address with a token, or telling the user to copy the token
from the logs, while the image starts Jupyter with the token turned off (docgen/audit/jupyter_tokens.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

EXEC_OFF = """\
FROM python:3.12-slim
RUN pip install jupyterlab
EXPOSE 8890
CMD ["jupyter", "lab", \\
     "--ip=0.0.0.0", \\
     "--port=8890", \\
     "--ServerApp.token=", \\
     "--ServerApp.password="]
"""
SPLIT_OFF = """\
FROM python:3.11
RUN pip install notebook
ENTRYPOINT ["jupyter", "notebook", "--ip=0.0.0.0", "--port=8890"]
CMD ["--notebook-dir=/books", "--allow-root", "--NotebookApp.token=''", "--NotebookApp.password=''"]
"""
COMPOSE = 'services:\n  books:\n    build: .\n    ports:\n      - "8890:8890"\n'
SHOWN = (
    "# Books\n\n```bash\ndocker compose up\n```\n\nWhen it starts you will see:\n\n"
    "```\nhttp://127.0.0.1:8890/lab?token=abcdef0123456789\n```\n\nOpen that address.\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "token" in d.message
    ]


def test_a_token_address_while_the_cmd_turns_the_token_off(tmp_path: Path) -> None:
    assert found(tmp_path, SHOWN, {"Dockerfile": EXEC_OFF, "compose.yaml": COMPOSE}) == [
        (
            10,
            "README says Jupyter asks for a token (?token=…), but Dockerfile line 7 starts Jupyter with "
            "the token turned off (--ServerApp.token=): no token is printed or asked for",
            "likely",
        )
    ]


def test_copy_the_token_while_the_cmd_of_an_entrypoint_turns_it_off(tmp_path: Path) -> None:
    readme = (
        "# Books\n\n```sh\ndocker run -p 9000:8890 books\n```\n\n"
        "Then copy the token printed in the terminal and paste it at http://localhost:9000.\n"
    )
    assert [line for line, _, _ in found(tmp_path, readme, {"Dockerfile": SPLIT_OFF})] == [7]


def test_a_copied_config_that_turns_the_token_off(tmp_path: Path) -> None:
    dockerfile = (
        "FROM python:3.12-slim\nRUN pip install notebook\n"
        "COPY conf/jupyter_server_config.py /root/.jupyter/\nCMD jupyter lab --ip=0.0.0.0 --port=8890\n"
    )
    config = "c = get_config()\nc.ServerApp.open_browser = False\nc.ServerApp.token = ''\n"
    files = {"Dockerfile": dockerfile, "conf/jupyter_server_config.py": config}
    assert [m for _, m, _ in found(tmp_path, SHOWN, files)] == [
        "README says Jupyter asks for a token (?token=…), but Dockerfile copies "
        "conf/jupyter_server_config.py, whose line 3 turns the token off: no token is printed or asked for"
    ]


@pytest.mark.parametrize(
    "cmd",
    [
        'CMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8890"]',
        "CMD jupyter lab --ip=0.0.0.0 --port=8890 --NotebookApp.token=$BOOK_TOKEN",
        'CMD jupyter lab --port=8890 --LabApp.token="$BOOK_TOKEN"',
        'CMD ["jupyter", "lab", "--port=8890", "--ServerApp.token=books-2024"]',
        "CMD /usr/local/bin/start-books.sh",
        'ENV JUPYTER_TOKEN=books\nCMD ["jupyter", "lab", "--port=8890", "--ServerApp.token="]',
    ],
)
def test_silent_when_a_token_is_on_or_unknown(tmp_path: Path, cmd: str) -> None:
    dockerfile = f"FROM python:3.12-slim\nRUN pip install jupyterlab\n{cmd}\n"
    assert found(tmp_path, SHOWN, {"Dockerfile": dockerfile, "compose.yaml": COMPOSE}) == []


def test_silent_when_the_readme_or_compose_sets_a_token(tmp_path: Path) -> None:
    passed = SHOWN.replace("docker compose up", "JUPYTER_TOKEN=abcdef0123456789 docker compose up")
    assert found(tmp_path, passed, {"Dockerfile": EXEC_OFF, "compose.yaml": COMPOSE}) == []
    compose = COMPOSE + "    environment:\n      - JUPYTER_TOKEN=abcdef\n"
    assert found(tmp_path, SHOWN, {"Dockerfile": EXEC_OFF, "compose.yaml": compose}) == []
    command = COMPOSE + "    command: jupyter lab --port=8890 --ServerApp.token=abcdef\n"
    assert found(tmp_path, SHOWN, {"Dockerfile": EXEC_OFF, "compose.yaml": command}) == []


def test_silent_for_another_service_or_another_token(tmp_path: Path) -> None:
    readme = (
        "# Books\n\n```bash\ndocker compose up\ndocker logs board\n```\n\n"
        "The board prints http://127.0.0.1:6007/?token=9f8e7d6c5b4a.\n\n"
        "Copy your Hugging Face token from the settings page into the notebook output cell.\n"
    )
    assert found(tmp_path, readme, {"Dockerfile": EXEC_OFF, "compose.yaml": COMPOSE}) == []


def test_silent_when_one_of_several_images_keeps_its_token(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "README.md": SHOWN,
            "Dockerfile": EXEC_OFF,
            "gpu/Dockerfile": 'FROM python:3.12-slim\nCMD ["jupyter", "lab", "--port=8890"]\n',
        },
    )
    models = [
        build_model(tmp_path / "Dockerfile", "Dockerfile"),
        build_model(tmp_path / "gpu/Dockerfile", "gpu/Dockerfile"),
    ]
    assert not [d for d in audit(SHOWN, "README.md", models, {}, tmp_path, tmp_path) if "token" in d.message]
