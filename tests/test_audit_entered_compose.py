"""`docgen audit`: compose commands run after a `cd` into a folder with no compose file
(docgen/audit/entered_compose.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SERVICE = "services:\n  web:\n    build: .\n"
SAID = (
    "README runs docker compose build in deploy/cuda, but no compose.yaml, compose.yml, "
    "docker-compose.yml or docker-compose.yaml is in that folder nor in one above it"
)


def found(
    root: Path, block: str, files: dict[str, str] | None = None, readme: str = "README.md", prose: str = ""
) -> list[tuple[int, str, str]]:
    tree = {"Dockerfile": APP, readme: f"# App\n\n{prose}\n\n```sh\n{block}\n```\n"}
    base = {"deploy/cuda/Dockerfile.cuda": APP, "deploy/cuda/docker-compose.mac.yml": SERVICE}
    make_tree(root, tree | base | (files or {}))
    model = build_model(root / "Dockerfile", "Dockerfile")
    page = root / readme
    text = page.read_text(encoding="utf-8")
    found = audit(text, readme, model, {}, page.parent, root)
    return [(d.line, d.message, d.confidence) for d in found if "where it stands" not in d.message]


def test_a_build_in_an_entered_folder_with_no_compose_file(tmp_path: Path) -> None:
    hint = " (it holds docker-compose.mac.yml)"
    assert found(tmp_path, "cd deploy/cuda\ndocker-compose build") == [(7, SAID + hint, "certain")]


def test_the_folder_is_read_from_the_root_for_a_page_in_a_subfolder(tmp_path: Path) -> None:
    result = found(tmp_path, "cd deploy/cuda\ndocker compose build", readme="deploy/cuda/README.md")
    assert [(line, message.split(" (it holds")[0]) for line, message, _ in result] == [(7, SAID)]


def test_the_same_line_cd_is_followed(tmp_path: Path) -> None:
    assert [r[0] for r in found(tmp_path, "cd deploy/cuda && docker compose build")] == [6]


@pytest.mark.parametrize("name", ["compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"])
def test_a_default_file_in_the_folder_is_silent(tmp_path: Path, name: str) -> None:
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", {f"deploy/cuda/{name}": SERVICE}) == []


def test_a_compose_file_in_a_folder_above_is_silent(tmp_path: Path) -> None:
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", {"deploy/compose.yaml": SERVICE}) == []
    assert found(tmp_path, "cd deploy/cuda\ndocker compose up", {"docker-compose.yml": SERVICE}) == []


@pytest.mark.parametrize(
    "block",
    [
        "cd deploy/cuda\ndocker compose -f docker-compose.mac.yml build",
        "cd deploy/cuda\ndocker compose --file ../../other.yml up",
        "cd deploy/cuda\ndocker compose --project-directory ../.. build",
        "cd deploy/cuda\nCOMPOSE_FILE=docker-compose.mac.yml docker compose build",
        "cd $HOME/deploy/cuda\ndocker compose build",
        "cd ~/deploy/cuda\ndocker compose build",
        "cd /opt/deploy/cuda\ndocker compose build",
        "git clone https://example.org/other/tool.git\ncd tool/deploy\ndocker compose build",
        "cd deploy/rocm\ndocker compose build",
        "cd deploy/cuda\ndocker compose version",
        "docker compose build\ncd deploy/cuda",
    ],
)
def test_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def test_compose_file_set_in_prose_is_silent(tmp_path: Path) -> None:
    prose = "Set `COMPOSE_FILE=docker-compose.mac.yml` in your shell first."
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", prose=prose) == []


CLONED = "git clone https://github.com/acme/tools.git\ncd tools\ndocker compose build"


def cloned(root: Path, block: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    """The findings on a README kept in `docker/x/` beside its compose file, in a checkout of
    acme/tools, whose block is `block`."""
    tree = {
        ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/tools.git\n',
        ".git/HEAD": "ref: refs/heads/main\n",
        "docker/x/Dockerfile": APP,
        "docker/x/docker-compose.yml": SERVICE,
        "docker/x/README.md": f"# X\n\n```sh\n{block}\n```\n",
    }
    make_tree(root, tree | (files or {}))
    model = build_model(root / "docker/x/Dockerfile", "Dockerfile")
    page = root / "docker/x/README.md"
    text = page.read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, page.parent)]


@pytest.mark.parametrize(
    ("block", "line", "verb"),
    [
        (CLONED, 6, "build"),
        ("git clone https://github.com/acme/tools && cd tools\ndocker compose up -d", 5, "up"),
        ("git clone git@github.com:acme/tools.git\ncd tools/\ndocker compose build", 6, "build"),
    ],
)
def test_a_build_at_the_root_of_a_clone_of_this_repository_whose_compose_file_is_below(
    tmp_path: Path, block: str, line: int, verb: str
) -> None:
    assert cloned(tmp_path, block) == [
        (
            line,
            f"README runs docker compose {verb} in tools (a clone of this repository), but no compose.yaml, "
            "compose.yml, docker-compose.yml or docker-compose.yaml is in that folder nor in one above it",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("block", "files"),
    [
        # the compose file is at the root, or the steps go on to its folder or name it
        (CLONED, {"compose.yaml": SERVICE}),
        (CLONED.replace("cd tools", "cd tools/docker/x"), {}),
        (CLONED.replace("cd tools\n", "cd tools\ncd docker/x\n"), {}),
        (CLONED.replace("build", "-f docker/x/docker-compose.yml build"), {}),
        # a step between that may make the file
        (CLONED.replace("cd tools\n", "cd tools\ncp docker/x/docker-compose.yml .\n"), {}),
        (CLONED.replace("cd tools\n", "cd tools\n./configure --gpu\n"), {}),
        # a clone of another repository: its files are not this checkout's
        (
            CLONED.replace("acme/tools", "YOUR_USERNAME/tools-docker").replace("cd tools", "cd tools-docker"),
            {},
        ),
        (CLONED.replace("acme/tools", "other/kit").replace("cd tools", "cd kit"), {}),
        # a branch of its own, or a folder entered that the clone does not make
        (CLONED.replace("clone ", "clone -b v2 "), {}),
        ("cd tools\ngit clone https://github.com/acme/tools.git\ndocker compose build", {}),
    ],
)
def test_builds_in_a_clone_that_holds_the_file_or_is_not_known_are_no_finding(
    tmp_path: Path, block: str, files: dict[str, str]
) -> None:
    assert cloned(tmp_path, block, files) == []


# `unentered_compose`: compose commands run where the README stands, in a project with no compose file
# there or above. Modelled on two shapes: a plain-text README (no code blocks) of a Stable Diffusion
# setup whose lines `docker-compose build sd-cpu` stand alone between "Using CPU" labels, and a chat
# bot whose Quick start block runs `docker compose up -d` while its only compose file is `deploy/`'s.
PLAIN_TEXT = """\
Building the image
This downloads the packages.

Using CPU
docker-compose build sd-cpu
Using ROCm
docker-compose build sd-rocm
Edit sd.env to match your use case.

First run
docker-compose up sd-cpu
docker start -a sd-cpu-runner
"""
BOT = "# Bot\n\n## Quick start\n\n```bash\ncp .env.example .env\ndocker compose up -d\n```\n"
NONE_HERE = (
    "README runs docker compose {verb} where it stands{more}, but no compose.yaml, compose.yml, "
    "docker-compose.yml or docker-compose.yaml is in {where} nor in one above it{hint}: compose finds no "
    "configuration file"
)


def here(
    root: Path, readme: str, files: dict[str, str], page: str = "README.md"
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, page: readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, page, model, {}, (root / page).parent, root)
    return [(d.line, d.message, d.confidence) for d in found if "where it stands" in d.message]


def test_compose_commands_of_a_project_with_no_compose_file(tmp_path: Path) -> None:
    said = NONE_HERE.format(
        verb="build",
        more=" (and 2 more compose commands of the README)",
        where="the README's folder",
        hint="",
    )
    assert here(tmp_path, PLAIN_TEXT, {"docker/Dockerfile.rocm": APP}) == [(5, said, "certain")]
    hint = " (it holds docker-compose.gpu.yml: name one with -f)"
    files = {"deploy/compose.yaml": SERVICE, "docker-compose.gpu.yml": SERVICE}
    said = NONE_HERE.format(verb="up", more="", where="the README's folder", hint=hint)
    assert here(tmp_path / "b", BOT, files) == [(7, said, "certain")]
    # a block of YAML that is no compose file (a config of the app) shows no file to save
    config = BOT.replace("## Quick start", "```yaml\nserver:\n  port: 8080\n```\n")
    assert here(tmp_path / "c", config, files) == [(11, said, "certain")]


@pytest.mark.parametrize(
    ("readme", "files", "page"),
    [
        # a default file here, or in a folder above a README of a subfolder
        (BOT, {"compose.yml": SERVICE}, "README.md"),
        (BOT, {"docker-compose.yaml": SERVICE}, "docs/README.md"),
        # the README names its files (-f, --project-directory, COMPOSE_FILE) or a default file it has
        # the reader write or fetch
        (BOT.replace("compose up", "compose -f deploy/compose.yaml up"), {}, "README.md"),
        (BOT.replace("compose up", "compose --project-directory deploy up"), {}, "README.md"),
        (BOT.replace("cp .env", "export COMPOSE_FILE=deploy/compose.yaml\ncp .env"), {}, "README.md"),
        (BOT + "\nSave the example below as `docker-compose.yml`.\n", {}, "README.md"),
        # a cd, a clone or a folder a sentence enters, before the first command
        (BOT.replace("cp .env", "cd deploy\ncp .env"), {}, "README.md"),
        (BOT.replace("cp .env", "git clone https://example.org/bot-deploy\ncp .env"), {}, "README.md"),
        (BOT.replace("## Quick start", "Go to the deploy folder first."), {}, "README.md"),
        # a compose command that reads no file
        (BOT.replace("compose up -d", "compose version"), {}, "README.md"),
        # the compose file shown in a block before the commands, for the reader to save
        (
            BOT.replace("## Quick start", "```yaml\nservices:\n  bot:\n    image: bot:1.0\n```\n"),
            {},
            "README.md",
        ),
    ],
)
def test_compose_commands_that_may_find_a_file(
    tmp_path: Path, readme: str, files: dict[str, str], page: str
) -> None:
    assert here(tmp_path, readme, {"deploy/compose.yaml": SERVICE, **files}, page) == []


CLONED = """\
# Whisper on the GPU

## Setup

1. **Clone the repository:**
   ```bash
   git clone https://github.com/acme/whisper-gpu.git
   cd whisper-gpu
   ```
2. Copy the settings: `cp .env.example .env`

## Usage

```bash
docker compose build
```

```bash
docker compose run --rm whisper python serve.py
```
"""
SERVICE_ONLY = {"docker/docker-compose.yml": SERVICE, ".env.example": "TOKEN=x\n", "README.md": CLONED}


def placed(root: Path, files: dict[str, str], readme: str = "README.md") -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP} | files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / readme).read_text(encoding="utf-8")
    found = audit(text, readme, model, {}, (root / readme).parent, root)
    return [
        (d.line, d.message, d.confidence)
        for d in found
        if "where its steps lead" in d.message or ("no Makefile is there" in d.message)
    ]


def test_compose_in_the_clone_the_readme_enters_has_no_file(tmp_path: Path) -> None:
    assert placed(tmp_path, SERVICE_ONLY) == [
        (
            15,
            "README runs docker compose build in whisper-gpu (where its steps lead) (and 1 more compose "
            "command of the README), but no compose.yaml, compose.yml, docker-compose.yml or "
            "docker-compose.yaml is in that folder nor in one above it: compose finds no configuration file "
            "(the project's is docker/docker-compose.yml: name it with -f or cd there first)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"docker-compose.yml": SERVICE},  # the root holds one
        {".env": "COMPOSE_FILE=docker/docker-compose.yml\n"},  # the folder's .env names it
        {"README.md": CLONED.replace("cd whisper-gpu\n", "cd whisper-gpu/docker\n")},  # enters its folder
        {"README.md": CLONED.replace("2. Copy", "2. Then `cd docker`. Copy")},  # prose moves the reader
        {"README.md": CLONED.replace("Clone the repository", "Get the sources")},  # whose clone is unsaid
        {
            "README.md": CLONED.replace(
                "docker compose build", "docker compose -f docker/docker-compose.yml build"
            )
        },
        {"README.md": CLONED.replace("## Usage", "Save it as `docker-compose.yml`.\n\n## Usage")},
    ],
)
def test_placed_compose_commands_that_stay_silent(tmp_path: Path, change: dict[str, str]) -> None:
    assert placed(tmp_path, SERVICE_ONLY | change) == []


MAKEFILE = (
    "COMPOSE := docker compose\n\nup:\n\t$(COMPOSE) up -d\n\n"
    "down:\n\t$(COMPOSE) down\n\nhelp:\n\t@echo up down\n"
)
MAKE_README = """\
# Model server

Wraps the compose file with a `Makefile`.

## Usage

```bash
make up      # start both models
make down    # stop everything
```
"""


def test_make_where_the_readme_stands_has_no_makefile(tmp_path: Path) -> None:
    files = {"deploy/Makefile": MAKEFILE, "deploy/docker-compose.yml": SERVICE, "README.md": MAKE_README}
    assert placed(tmp_path, files) == [
        (
            8,
            "README runs make up in the README's folder (and 1 more make command of the README), but no "
            "Makefile is there: make stops (no rule to make target up); the Makefile with rule up is "
            "deploy/Makefile (run make -C deploy up, or cd deploy first)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"Makefile": MAKEFILE},  # one beside the README
        {"README.md": MAKE_README.replace("```bash\n", "```bash\ncd deploy\n")},  # the block enters it
        {"README.md": MAKE_README.replace("## Usage", "First `cd deploy`.\n\n## Usage")},
        {
            "README.md": MAKE_README.replace("make up  ", "make -C deploy up").replace(
                "make down", "make -C deploy down"
            )
        },
        {
            "README.md": MAKE_README.replace("make up  ", "make lint").replace("make down", "make test")
        },  # no rule
        {
            "README.md": MAKE_README.replace("## Usage", "Run `cmake -B build` first.\n\n## Usage")
        },  # generated
        {"README.md": MAKE_README.replace("## Usage", "Inside the container:\n\n## Usage")},
    ],
)
def test_make_commands_that_stay_silent(tmp_path: Path, change: dict[str, str]) -> None:
    files = {"deploy/Makefile": MAKEFILE, "deploy/docker-compose.yml": SERVICE, "README.md": MAKE_README}
    assert placed(tmp_path, files | change) == []


def test_make_after_entering_the_clone(tmp_path: Path) -> None:
    readme = (
        "# Tool\n\nClone this repo:\n\n```sh\ngit clone https://github.com/acme/tool && cd tool\n```\n\n"
        "```sh\nmake down\n```\n"
    )
    result = placed(tmp_path, {"deploy/Makefile": MAKEFILE, "README.md": readme})
    assert [(line, message.split(",")[0], confidence) for line, message, confidence in result] == [
        (10, "README runs make down in tool (where its steps lead)", "likely")
    ]


def test_a_vendored_makefile_is_not_the_readmes(tmp_path: Path) -> None:
    files = {"third_party/deploy/Makefile": MAKEFILE, "README.md": MAKE_README}
    assert placed(tmp_path, files) == []


# a clone of this repository entered, then compose run there, in a project holding no compose file at
# all: modelled on a speech pipeline fork whose Setup clones "the repository" and enters it, and whose
# Docker section says `docker compose up` with only a Dockerfile in the tree, and on the Whisper README
# above with its compose file gone
SPEECH = """\
# Speech to speech

## Setup

Clone the repository:

```bash
git clone https://github.com/acme/speech-to-speech.git
cd speech-to-speech
```

Install: `pip install -r requirements.txt`

## Docker server

Start the container: `docker compose up`
"""
NONE_AT_ALL = (
    "README runs docker compose {verb} in {where} (where its steps lead: a clone of this repository){more},"
    " but the project has no compose file at all: compose finds no configuration file"
)


def test_compose_in_a_clone_of_a_project_with_no_compose_file_at_all(tmp_path: Path) -> None:
    files = {"README.md": SPEECH, "requirements.txt": "torch\n"}
    assert placed_all(tmp_path, files) == [
        (16, NONE_AT_ALL.format(verb="up", where="speech-to-speech", more=""), "certain")
    ]
    assert placed_all(tmp_path / "b", {".env.example": "TOKEN=x\n", "README.md": CLONED}) == [
        (
            15,
            NONE_AT_ALL.format(
                verb="build", where="whisper-gpu", more=" (and 1 more compose command of the README)"
            ),
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"deploy/docker-compose.gpu.yml": SERVICE},  # a compose file of another name, below
        {"README.md": SPEECH.replace("Clone the repository:", "Get the upstream pipeline:")},  # another's
        {"README.md": SPEECH + "\nSave the file above as `docker-compose.yml`.\n"},  # the reader writes one
    ],
)
def test_a_clone_whose_compose_file_may_be_somewhere(tmp_path: Path, change: dict[str, str]) -> None:
    assert placed_all(tmp_path, {"README.md": SPEECH} | change) == []


def placed_all(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP} | files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    found = audit(text, "README.md", model, {}, root, root)
    return [(d.line, d.message, d.confidence) for d in found if "compose file at all" in d.message]
