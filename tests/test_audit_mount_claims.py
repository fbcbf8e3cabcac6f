"""`docgen audit`: a folder a README's prose says is mounted in the container at a path where neither
the compose files beside it nor its commands mount anything (docgen/audit/mount_claims.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nWORKDIR /srv\n"
COMPOSE = """\
services:
  lab:
    build: .
    ports:
      - "8890:8890"
    volumes:
      - /home/ana/lab-image/:/srv/ana/lab/
      - cache:/root/.cache
volumes:
  cache:
"""
SAYS = "- Mount this repository's folder into the container at `/srv/`.\n"


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "mounted in the container" in d.message
    ]


def test_a_mount_the_compose_file_puts_elsewhere(tmp_path: Path) -> None:
    readme = f"# Lab\n\nThe compose file here will:\n{SAYS}- Serve Jupyter on port 8890.\n"
    assert found(tmp_path, readme, {"compose.yaml": COMPOSE}) == [
        (
            4,
            "README says a folder is mounted in the container at /srv/, but compose.yaml mounts "
            "/root/.cache, /srv/ana/lab/ only",
            "likely",
        )
    ]


def test_a_mount_the_readmes_command_puts_elsewhere(tmp_path: Path) -> None:
    readme = (
        "# Lab\n\n```sh\ndocker run --mount type=bind,source=$PWD,target=/work lab\n```\n\n"
        "This mounts the current folder to `/data` inside the container.\n"
    )
    assert [line for line, _, _ in found(tmp_path, readme)] == [7]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the path mounted, written with or without its last slash, or a folder below it
        (SAYS.replace("`/srv/`", "`/srv/ana/lab`"), {"compose.yaml": COMPOSE}),
        (SAYS.replace("`/srv/`", "`/srv/ana/lab/notebooks`"), {"compose.yaml": COMPOSE}),
        ("```sh\ndocker run -v D:\\lab:/srv lab\n```\n\n" + SAYS, {}),
        ("```sh\ndocker run -v ~/lab:/srv:ro lab\n```\n\n" + SAYS, {}),
        # a volume the Dockerfile declares
        (
            SAYS.replace("`/srv/`", "`/var/lab`"),
            {"compose.yaml": COMPOSE, "Dockerfile": APP + 'VOLUME ["/var/lab"]\n'},
        ),
        # nothing mounted that docgen reads: a compose file spoken of but not beside the README
        (SAYS, {}),
        ("Start it with docker compose.\n\n" + SAYS, {"deploy/compose.yaml": COMPOSE}),
        # a line explaining an option in code
        ("- `-v /data/lab:/srv/` mounts the data into the container at `/srv/`\n", {"compose.yaml": COMPOSE}),
        # no mount spoken of, or a path on the host
        ("- Copies the notebooks into the container at `/srv/`.\n", {"compose.yaml": COMPOSE}),
        ("- Mounts your local `/srv/` folder.\n", {"compose.yaml": COMPOSE}),
    ],
)
def test_mount_claims_left_alone(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, f"# Lab\n\n{readme}", files) == []


def test_a_compose_file_that_is_a_link_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "compose.yaml").write_text(COMPOSE)
    project = tmp_path / "project"
    project.mkdir()
    (project / "compose.yaml").symlink_to(tmp_path / "elsewhere" / "compose.yaml")
    assert found(project, f"# Lab\n\nThe compose file here will:\n{SAYS}") == []


@pytest.mark.parametrize(
    "compose",
    [
        b"\xff\xfe\x00services:\n",
        COMPOSE.replace("\n", "\0\n").encode(),
        b"",
        b"services: [\n" + b"x" * 2_000_000,
    ],
)
def test_a_compose_file_that_cannot_be_read_says_nothing(tmp_path: Path, compose: bytes) -> None:
    (tmp_path / "compose.yaml").write_bytes(compose)
    assert found(tmp_path, f"# Lab\n\nThe compose file here will:\n{SAYS}") == []


def test_a_compose_name_that_is_a_folder_is_passed_over(tmp_path: Path) -> None:
    readme = f"# Lab\n\n```sh\ndocker run -v $PWD:/work lab\n```\n\n{SAYS}"
    assert [line for line, _, _ in found(tmp_path, readme, {"compose.yaml/x": COMPOSE})] == [7]


# The folder the README is run from, said to be mounted at a path where the compose file or the
# README's command mounts a folder below it or beside it.

NOTES = 'FROM python:3.12-slim\nWORKDIR /notes\nCMD ["jupyter", "lab", "--ip=0.0.0.0"]\n'
SUB_COMPOSE = """\
services:
  notes:
    build: .
    ports:
      - "8890:8890"
    volumes:
      - ./notes:/notes
"""


def here(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": NOTES, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "current folder is mounted" in d.message
    ]


def test_the_current_folder_said_mounted_where_compose_mounts_a_subfolder(tmp_path: Path) -> None:
    readme = (
        "# Notes\n\n```bash\ndocker compose up\n```\n\nThis will:\n\n"
        "* Serve Jupyter on port 8890\n* Mount your current directory into `/notes`\n\n"
        "## Files\n\nYour current local folder (`.`) is mounted inside the container at:\n\n"
        "```\n/notes\n```\n"
    )
    assert here(tmp_path, readme, {"docker-compose.yml": SUB_COMPOSE}) == [
        (
            10,
            "README says the current folder is mounted at /notes, but docker-compose.yml line 7 mounts "
            "./notes there; also at line 14",
            "likely",
        )
    ]


def test_the_repository_said_mounted_where_the_run_mounts_a_subfolder(tmp_path: Path) -> None:
    readme = (
        "# Notes\n\n```sh\ndocker run -p 8890:8890 -v $(pwd)/books:/home/reader/books notes\n```\n\n"
        "The command mounts this repository at `/home/reader/books`.\n"
    )
    assert [line for line, _, _ in here(tmp_path, readme)] == [7]


@pytest.mark.parametrize(
    "volume",
    [
        ".:/notes",
        "./:/notes",
        "${PWD}:/notes",
        "$PWD:/notes",
        "$(pwd):/notes",
        "~/notes:/notes",
        "/home/ana/notes:/notes",
        "notes:/notes",
        "${NOTES_DIR}:/notes",
        "./notes:/elsewhere",
    ],
)
def test_silent_when_the_compose_mount_is_the_folder_or_unknown(tmp_path: Path, volume: str) -> None:
    readme = "# Notes\n\n```bash\ndocker compose up\n```\n\nIt mounts your current directory into `/notes`.\n"
    compose = SUB_COMPOSE.replace("./notes:/notes", volume)
    assert here(tmp_path, readme, {"docker-compose.yml": compose}) == []


def test_silent_when_another_way_mounts_the_folder_itself(tmp_path: Path) -> None:
    readme = (
        "# Notes\n\n```bash\ndocker compose up\n```\n\nor\n\n```sh\n"
        'docker run --mount type=bind,src="$(pwd)",target=/notes notes\n```\n\n'
        "Either way your current directory is mounted at `/notes`.\n"
    )
    assert here(tmp_path, readme, {"docker-compose.yml": SUB_COMPOSE}) == []


def test_silent_when_two_services_mount_it_differently(tmp_path: Path) -> None:
    compose = SUB_COMPOSE + "  shell:\n    build: .\n    volumes:\n      - .:/notes\n"
    readme = "# Notes\n\nThe services mount the project folder into `/notes`.\n"
    assert here(tmp_path, readme, {"compose.yaml": compose}) == []


@pytest.mark.parametrize(
    "said",
    [
        "Mount a folder of yours into `/notes`.",
        "The `notes` folder of this repository is mounted at `/notes`.",
        "Mount the data folder in your current directory into `/notes`.",
        "Mount your current directory with `-v $(pwd):/notes`.",
    ],
)
def test_silent_for_a_folder_that_is_not_the_current_one(tmp_path: Path, said: str) -> None:
    readme = f"# Notes\n\n```bash\ndocker compose up\n```\n\n{said}\n"
    assert here(tmp_path, readme, {"docker-compose.yml": SUB_COMPOSE}) == []


# A folder of the reader's home said mounted while one user's home is (`home_mount_claims`). Modelled on a
# ROCm Ollama compose setup (`- /home/NAME/.ollama:/root/.ollama`, `maps ~/.ollama from your machine`),
# a terminal app's README (`This mounts your ~/.config/X directory` over `-v $HOME/.config/X:…`) and a
# shop image's compose snippet (`Note this mounts your ~/.composer directory` over `~/.composer:…`).

LLM_COMPOSE = """\
services:
  llm:
    build: .
    ports:
      - '0.0.0.0:11500:11500'
    volumes:
      - {volume}
    devices:
      - /dev/kfd
"""


MAPS = "It maps ~/.llmstore from your machine."


def homes(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "folder of one user's machine" in d.message
    ]


def test_the_home_folder_said_mounted_where_compose_mounts_one_users(tmp_path: Path) -> None:
    readme = (
        "# LLM on gfx1151\n\nYou will have to edit the docker file a little.\n\n"
        "```bash\ndocker compose up --build\n```\n\n"
        "It also maps  ~/.llmstore from your current machine. The container writes as root.\n"
    )
    compose = LLM_COMPOSE.format(volume="/home/okafor/.llmstore:/root/.llmstore")
    assert homes(tmp_path, readme, {"compose.yml": compose}) == [
        (
            9,
            "README says ~/.llmstore is mounted, but compose.yml line 7 mounts /home/okafor/.llmstore, "
            "a folder of one user's machine: on any other machine it is not the reader's",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "source",
    ["/home/rin/.config/tunes", "/Users/rin/.config/tunes/", "C:\\Users\\rin\\.config\\tunes"],
)
def test_the_home_folder_said_mounted_where_the_readmes_run_mounts_one_users(
    tmp_path: Path, source: str
) -> None:
    readme = (
        "# Tunes\n\n- This mounts your `$HOME/.config/tunes` directory so settings are kept:\n\n"
        f"```bash\ndocker run --rm -it -v {source}:/root/.config/tunes tunes\n```\n"
    )
    assert [(line, message.split(", a folder")[0]) for line, message, _ in homes(tmp_path, readme)] == [
        (3, f"README says $HOME/.config/tunes is mounted, but README line 6 mounts {source}")
    ]


@pytest.mark.parametrize(
    ("readme", "volume"),
    [
        # the compose file mounts the reader's home: true
        ("Note this mounts your ~/.pkgauth directory inside the container.", "~/.pkgauth:/home/shop/.pa"),
        ("It maps ~/.llmstore from your machine.", "${HOME}/.llmstore:/root/.llmstore"),
        ("It maps ~/.llmstore from your machine.", "$HOME/.llmstore/:/root/.llmstore"),
        # a name standing for anyone's home, a placeholder, a variable
        ("It maps ~/.llmstore from your machine.", "/home/user/.llmstore:/root/.llmstore"),
        ("It maps ~/.llmstore from your machine.", "/home/<you>/.llmstore:/root/.llmstore"),
        ("It maps ~/.llmstore from your machine.", "/home/$USER/.llmstore:/root/.llmstore"),
        # another folder of that home, or the same name deeper in it
        ("It maps ~/.llmstore from your machine.", "/home/okafor/models:/root/.llmstore"),
        ("It maps ~/.llmstore from your machine.", "/home/okafor/work/.llmstore:/root/.llmstore"),
        ("It maps ~/.llmstore from your machine.", "/srv/okafor/.llmstore:/root/.llmstore"),
        # the README tells the reader to change the path, or names that user
        (
            "It maps ~/.llmstore from your machine. Change the volume path in compose.yml to your home.",
            "/home/okafor/.llmstore:/root/.llmstore",
        ),
        (
            "It maps ~/.llmstore from your machine (here `/home/okafor`).",
            "/home/okafor/.llmstore:/root/.llmstore",
        ),
        # the home folder said is the container's
        ("The store is mounted at ~/.llmstore in the container.", "/home/okafor/.llmstore:/root/.llmstore"),
        ("Models go to the container's ~/.llmstore volume.", "/home/okafor/.llmstore:/root/.llmstore"),
        # no word of a mount
        ("Models are kept in ~/.llmstore.", "/home/okafor/.llmstore:/root/.llmstore"),
    ],
)
def test_home_mount_claims_left_alone(tmp_path: Path, readme: str, volume: str) -> None:
    files = {"compose.yml": LLM_COMPOSE.format(volume=volume)}
    assert homes(tmp_path, f"# LLM\n\n{readme}\n", files) == []


def test_silent_when_the_compose_file_says_to_change_it(tmp_path: Path) -> None:
    compose = LLM_COMPOSE.format(volume="/home/okafor/.llmstore:/root/.llmstore  # change to your home")
    assert homes(tmp_path, f"# LLM\n\n{MAPS}\n", {"compose.yml": compose}) == []


def test_silent_when_another_mount_takes_the_readers_folder(tmp_path: Path) -> None:
    compose = LLM_COMPOSE.format(volume="/home/okafor/.llmstore:/root/.llmstore") + (
        "  cpu:\n    build: .\n    volumes:\n      - ~/.llmstore:/root/.llmstore\n"
    )
    assert homes(tmp_path, f"# LLM\n\n{MAPS}\n", {"compose.yml": compose}) == []


def test_a_patched_mount_the_readme_tells_to_apply_is_no_claim(tmp_path: Path) -> None:
    readme = (
        "# Stack\n\nChange all three services to use a bind mount, which maps ~/.llmstore:\n\n"
        "```yaml\nvolumes:\n  - /home/pal/.llmstore:/root/.llmstore\n```\n"
    )
    compose = LLM_COMPOSE.format(volume="/home/pal/.llmstore:/root/.llmstore")
    assert homes(tmp_path, readme, {"compose.yml": compose}) == []


UI_COMPOSE = """\
services:
  ui:
    build: .
    volumes:
      - ./models:/opt/app/models
      - ./output:/opt/app/output
      - ./custom_nodes:/opt/app/custom_nodes
"""
"""Modelled on a node-graph image UI's compose file: its data folders mounted, not its source."""


def sourced(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if " is mounted, but " in d.message and "one user's" not in d.message
    ]


def test_a_folder_said_mounted_that_no_mount_takes(tmp_path: Path) -> None:
    readme = (
        "# UI\n\n```bash\ndocker compose up -d\n```\n\nNotes\n"
        "- We clone the app into `/opt/app`. Mounting `./app` into the container (via docker-compose) lets "
        "you iterate on local changes.\n"
    )
    assert sourced(tmp_path, readme, {"docker-compose.yml": UI_COMPOSE}) == [
        (
            8,
            "README says ./app is mounted, but docker-compose.yml mounts ./models, ./output, ./custom_nodes "
            "only",
            "likely",
        )
    ]
    # a notebook server run by hand: the README's own command mounts another folder
    notebook = (
        "# Lab\n\n```bash\ndocker run -p 8888:8888 -v $(pwd)/work:/home/lab/work lab\n```\n\n"
        "Your notebooks in `./notebooks` are mounted, so they survive a restart.\n"
    )
    assert sourced(tmp_path / "b", notebook.replace("in `./notebooks` are", "`./notebooks` is"), {}) == [
        (7, "README says ./notebooks is mounted, but its commands mount $(pwd)/work only", "likely")
    ]


@pytest.mark.parametrize(
    ("said", "volume"),
    [
        ("Mounting `./models` into the container keeps downloads.", "./models:/opt/app/models"),
        ("Mounting `./models/` into the container keeps downloads.", "${PWD}/models:/opt/app/models"),
        ("Mounting `./app` into the container (via compose).", "$(pwd)/app/:/opt/app"),
        ("Mounting `./data` into the container (via compose).", "./data/cache:/cache"),  # a folder in it
        ("Mounting `./app/web` into the container (via compose).", "./app:/opt/app"),  # a folder above
        ("Mounting `./app` into the container (via compose).", "${APP_DIR}:/opt/app"),  # a variable
        ("Mounting `./app` into the container (via compose).", "/srv/app:/opt/app"),  # an absolute path
        ("Mounting `./app` into the container (via compose).", "."),  # nothing read as a mount
        ("Store the models in `./app` on the host.", "./models:/opt/app/models"),  # no mount said
    ],
)
def test_folders_said_mounted_that_a_mount_takes(tmp_path: Path, said: str, volume: str) -> None:
    files = {"docker-compose.yml": f"services:\n  ui:\n    build: .\n    volumes:\n      - {volume}\n"}
    assert sourced(tmp_path, f"# UI\n\n```bash\ndocker compose up\n```\n\n{said}\n", files) == []
