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


SHELL_ONLY = """\
FROM tensorflow/tensorflow:2.4.0-gpu
EXPOSE 8888
RUN pip install jupyterlab && jupyter-lab --generate-config
#RUN nohup jupyter-lab --no-browser --allow-root --port=8888 --ip=0.0.0.0 &
ENTRYPOINT ["/bin/bash"]
"""
LOGS_README = (
    "# lab-image\n\nA TensorFlow image with a Jupyter Lab server.\n\n"
    "```bash\ngit clone https://github.com/someone/tf-jupyter-lab-image\ncd tf-jupyter-lab-image\n"
    "docker build -t lab .\ndocker run -dit --name lab -p 8888:8888 lab\n```\n\n"
    "The token is printed in the logs when the container starts:\n\n```bash\ndocker logs lab\n```\n"
)


def started(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "starts Jupyter" in d.message
    ]


def test_a_token_in_the_logs_of_an_image_that_starts_a_shell(tmp_path: Path) -> None:
    assert started(tmp_path, LOGS_README, SHELL_ONLY) == [
        (
            12,
            "README says Jupyter's token appears when the container starts, but Dockerfile:5 starts "
            'ENTRYPOINT ["/bin/bash"], a shell, and nothing in the image starts Jupyter; its Jupyter launch '
            "at line 4 is commented out: no server runs and no token is printed",
            "likely",
        )
    ]


def test_a_shell_cmd_over_a_plain_base_and_copy_the_token_from_the_output(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3-pip\n"
        "RUN pip install notebook\nCMD bash\n"
    )
    readme = (
        "# Notebook box\n\n```sh\ndocker run -it -p 8888:8888 nbbox\n```\n\n"
        "Copy the token from the output in your terminal and open the page.\n"
    )
    assert [line for line, _, _ in started(tmp_path, readme, dockerfile)] == [7]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the README starts Jupyter itself inside the container
        (LOGS_README.replace("docker logs lab", "docker exec -it lab jupyter lab --ip=0.0.0.0"), SHELL_ONLY),
        # the same, in a code span of the prose
        (LOGS_README + "\nThen run `jupyter notebook --allow-root` in the container.\n", SHELL_ONLY),
        # the image starts Jupyter with its CMD
        (
            LOGS_README,
            SHELL_ONLY.replace('ENTRYPOINT ["/bin/bash"]', 'CMD ["jupyter", "lab", "--ip=0.0.0.0"]'),
        ),
        # a start script may start it
        (
            LOGS_README,
            SHELL_ONLY.replace(
                'ENTRYPOINT ["/bin/bash"]', 'COPY start.sh /\nENTRYPOINT ["/bin/bash", "/start.sh"]'
            ),
        ),
        # a Jupyter base image, whose own start the shell CMD may not replace the README's way
        (
            LOGS_README,
            SHELL_ONLY.replace("FROM tensorflow/tensorflow:2.4.0-gpu", "FROM jupyter/base-notebook").replace(
                'ENTRYPOINT ["/bin/bash"]', 'CMD ["bash"]'
            ),
        ),
        # a base whose ENTRYPOINT is not known, with a shell CMD
        (LOGS_README, SHELL_ONLY.replace('ENTRYPOINT ["/bin/bash"]', 'CMD ["bash"]')),
        # an image with no Jupyter at all: the README speaks of another one
        (LOGS_README, 'FROM ubuntu:22.04\nENTRYPOINT ["/bin/bash"]\n'),
        # a token of another service
        (LOGS_README.replace("The token is", "The Hugging Face token is"), SHELL_ONLY),
    ],
)
def test_silent_where_something_may_start_jupyter(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert started(tmp_path, readme, dockerfile) == []
