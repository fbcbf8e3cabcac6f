"""`docgen audit`: variables a README says to set in a compose file beside it that no service there
passes or reads (docgen/audit/compose_claims.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen import compose
from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nARG GPU_LEVEL=80\nCOPY . /app\n"
SERVE = (
    "services:\n"
    "  api:\n"
    "    build: .\n"
    "    env_file:\n"
    "      - settings.env\n"
    "    ports:\n"
    '      - "8000:${APP_PORT:-8000}"\n'
)
BUILD = (
    "services:\n"
    "  app:\n"
    "    build:\n"
    "      context: .\n"
    "      args:\n"
    "        GPU_LEVEL: 86\n"
    "    environment:\n"
    "      - MODEL_NAME=tiny\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


@pytest.mark.parametrize(
    "sentence",
    [
        "1. Edit `docker-compose-serve.yml` with the `OPENAI_URL` and `OPENAI_KEY`.",
        "Set `OPENAI_URL` and `OPENAI_KEY` in docker-compose-serve.yml before starting.",
        "- Configure the `OPENAI_URL`, `OPENAI_KEY` variables in `docker-compose-serve.yml`",
    ],
)
def test_variables_said_to_be_set_in_a_compose_file_that_lacks_them(tmp_path: Path, sentence: str) -> None:
    assert found(tmp_path, f"# App\n\n{sentence}\n", {"docker-compose-serve.yml": SERVE}) == [
        (
            3,
            "README says to set OPENAI_URL, OPENAI_KEY in docker-compose-serve.yml, but no service there "
            "passes or reads them; its services read variables from settings.env (env_file)",
            "likely",
        )
    ]


def test_the_compose_file_when_there_is_one(tmp_path: Path) -> None:
    readme = "# App\n\nSet `CUDA_LEVEL` in the docker-compose file to your GPU's level.\n"
    assert found(tmp_path, readme, {"docker-compose.yml": BUILD}) == [
        (
            3,
            "README says to set CUDA_LEVEL in docker-compose.yml, but no service there passes or reads it",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Edit `docker-compose-serve.yml` to change `APP_PORT`.",  # read by `${APP_PORT:-8000}`
        "Set `GPU_LEVEL` in the docker-compose file.",  # one compose file, which does not lack it
        "Edit `docker-compose.yml` to pick `MODEL_NAME`.",  # an `environment:` key
        "Set `GPU_LEVEL` and `MODEL_NAME` in docker-compose.yml.",  # a build arg and an environment key
        "There is no need to edit `docker-compose-serve.yml` for `OPENAI_URL`.",  # told not to
        "`docker-compose-serve.yml` reads `OPENAI_URL` from settings.env.",  # no edit
        "Set `OPENAI_URL` in settings.env, which docker-compose-serve.yml reads.",  # settings.env named first
        "Set `OPENAI_URL` in `docker-compose-other.yml`.",  # a file not beside the README
    ],
)
def test_settings_left_alone(tmp_path: Path, sentence: str) -> None:
    files = {"docker-compose-serve.yml": SERVE, "docker-compose.yml": BUILD}
    assert found(tmp_path, f"# App\n\n{sentence}\n", files) == []


def test_a_compose_file_of_no_services_says_nothing(tmp_path: Path) -> None:
    readme = "# App\n\nThe defaults of `EXTRA_ARGS` are set in the `docker-compose.yml`.\n"
    assert found(tmp_path / "a", readme, {"docker-compose.yml": "# filled in later\n"}) == []
    assert found(tmp_path / "b", readme, {"docker-compose.yml": BUILD}) != []


def test_the_env_files_a_service_reads() -> None:
    text = (
        b"services:\n  a:\n    image: x\n    env_file:\n"
        b"      - path: one.env\n        required: false\n      - two.env\n"
    )
    assert compose.services(text, "compose.yaml")[0].env_files == ("one.env", "two.env")


def test_a_compose_file_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    # the README's folder holds a link named like a compose file to one outside the project: what that
    # file lacks is no claim about this project, and the file is not read at all
    readme = "# App\n\nSet `CUDA_LEVEL` in the docker-compose file to your GPU's level.\n"
    make_tree(tmp_path / "outside", {"docker-compose.yml": BUILD})
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "docker-compose.yml").symlink_to(tmp_path / "outside" / "docker-compose.yml")
    assert [f for f in found(tmp_path / "proj", readme, {}) if "docker-compose.yml, but" in f[1]] == []
    # the same file inside the project is read (test_the_compose_file_when_there_is_one)
    assert found(tmp_path / "inside", readme, {"docker-compose.yml": BUILD}) != []
