"""`docgen audit`: compose commands that build from a file, context or stage that is not there
(docgen/audit/compose_builds.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

APP = "FROM python:3.12-slim AS base\nFROM base AS serve\nCOPY . /app\n"
COMPOSE = """\
services:
  api:
    build:
      context: .
      target: serve
  worker:
    build:
      context: ./worker
  gpu:
    image: org/app:gpu
    build:
      context: .
      dockerfile: Dockerfile.gpu
  debug:
    build:
      context: .
      target: serve-debug
"""


def found(root: Path, block: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    tree = {"Dockerfile": APP, "README.md": f"# App\n\n```sh\n{block}\n```\n"}
    make_tree(root, tree | (files if files is not None else {"compose.yaml": COMPOSE}))
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


def test_every_build_of_the_services_a_command_builds(tmp_path: Path) -> None:
    said = "README runs docker compose build, whose service"
    assert found(tmp_path, "docker compose build") == [
        (4, f"{said} worker builds from worker, which does not exist", "certain"),
        (4, f"{said} gpu builds Dockerfile.gpu, which does not exist", "certain"),
        (
            4,
            f"{said} debug builds stage serve-debug, which Dockerfile does not define (did you mean serve?)",
            "certain",
        ),
    ]


def test_a_service_with_an_image_to_pull_is_likely(tmp_path: Path) -> None:
    said = "README runs docker compose up, whose service gpu builds Dockerfile.gpu, which does not exist"
    assert found(tmp_path, "docker compose up -d gpu") == [(4, said, "likely")]


def test_a_compose_file_not_beside_the_readme(tmp_path: Path) -> None:
    said = "README runs docker compose -f compose.dev.yaml up, but compose.dev.yaml is not in the README's"
    said += " folder nor in one above it"
    assert found(tmp_path, "docker compose -f compose.dev.yaml up --build api") == [(4, said, "certain")]


def wiki_found(root: Path, block: str) -> list[tuple[int, str, str]]:
    """A page in wiki/ whose compose file is deploy/compose.yaml, named from the project root."""
    compose_file = COMPOSE.replace("context: ./worker", "context: ../worker").replace(
        "context: .\n", "context: ..\n"
    )
    tree = {
        "Dockerfile": APP,
        "Dockerfile.gpu": APP,
        "deploy/compose.yaml": compose_file,
        "wiki/compose.md": f"# Compose\n\n```sh\n{block}\n```\n",
    }
    make_tree(root, tree)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "wiki/compose.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "wiki/compose.md", model, {}, root / "wiki", root)
    ]


def test_a_compose_file_named_from_the_project_root_is_read_where_it_is(tmp_path: Path) -> None:
    said = "README runs docker compose -f deploy/compose.yaml up, whose service"
    assert wiki_found(tmp_path, "docker compose -f deploy/compose.yaml up -d --build") == [
        (4, f"{said} worker builds from ../worker, which does not exist", "certain"),
        (
            4,
            f"{said} debug builds stage serve-debug, which ../Dockerfile does not define"
            " (did you mean serve?)",
            "certain",
        ),
    ]


def test_a_compose_file_no_folder_up_to_the_root_holds(tmp_path: Path) -> None:
    said = "README runs docker compose -f deploy/compose.prod.yaml up, but compose.prod.yaml is not in the"
    said += " README's folder nor in one above it"
    assert wiki_found(tmp_path, "docker compose -f deploy/compose.prod.yaml up --build") == [
        (4, said, "certain")
    ]


@pytest.mark.parametrize(
    "block",
    [
        "docker compose up --build api",  # its context, Dockerfile and stage are there
        "docker compose up --no-build",
        "docker compose logs -f worker",  # a command that builds nothing
        "cd deploy && docker compose build",  # another folder
        "docker compose -f $COMPOSE_FILE build",  # a variable
        "docker compose run --rm api pytest -f x",
    ],
)
def test_builds_that_can_run_or_are_not_read(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def test_a_service_two_files_set_is_not_read(tmp_path: Path) -> None:
    override = "services:\n  worker:\n    build:\n      context: .\n"
    files = {"compose.yaml": COMPOSE, "compose.override.yaml": override}
    assert all("worker" not in message for _, message, _ in found(tmp_path, "docker compose build", files))


def test_only_the_first_override_file_is_read(tmp_path: Path) -> None:
    # compose reads compose.override.yml and leaves compose.override.yaml alone
    files = {
        "compose.yaml": "services:\n  api:\n    build: ./gone\n",
        "compose.override.yml": "services:\n  proxy:\n    image: nginx:1.27\n",
        "compose.override.yaml": "services:\n  api:\n    build: .\n",
    }
    assert [f[1] for f in found(tmp_path, "docker compose build", files) if "gone" in f[1]] == [
        "README runs docker compose build, whose service api builds from gone, which does not exist"
    ]


SUBMODULES = '[submodule "tts"]\n\tpath = vendor/tts\n\turl = https://example.com/tts.git\n'


def test_a_compose_file_of_a_git_submodule_is_not_judged(tmp_path: Path) -> None:
    # vendor/tts is a submodule: a checkout without --recurse-submodules leaves it empty
    files = {"compose.yaml": COMPOSE, ".gitmodules": SUBMODULES, "vendor/tts/.keep": ""}
    block = "docker compose -f compose.yaml -f vendor/tts/compose.extra.yml up --build"
    assert found(tmp_path, block, files) == []


def test_a_missing_compose_file_beside_a_submodule_is_found(tmp_path: Path) -> None:
    files = {"compose.yaml": COMPOSE, ".gitmodules": SUBMODULES}
    said = "README runs docker compose -f vendor/stt/compose.extra.yml up, but compose.extra.yml is not in"
    said += " the README's folder nor in one above it"
    assert found(tmp_path, "docker compose -f vendor/stt/compose.extra.yml up", files) == [
        (4, said, "certain")
    ]


OLLAMA = """\
FROM rocm/dev-ubuntu-22.04 AS rocm
COPY sudo-nopasswd /etc/sudoers.d/sudo-nopasswd
COPY entry.sh /usr/local/bin/entry.sh
RUN useradd --create-home -G sudo,video rocm-user
"""
"""A ROCm image for an LLM server (the shape of an Ollama-on-ROCm one): a sudo rule and a start script."""
OLLAMA_COMPOSE = "services:\n  ollama:\n    build:\n      context: .\n      dockerfile: Dockerfile\n"


def copies(root: Path, block: str, **changes: str) -> list[tuple[int, str, str]]:
    files = {"Dockerfile": OLLAMA, "entry.sh": "#!/bin/sh\n", "docker-compose.yml": OLLAMA_COMPOSE, **changes}
    return [f for f in found(root, block, files) if "that it copies" in f[1]]


def test_a_service_whose_context_lacks_a_file_its_dockerfile_copies(tmp_path: Path) -> None:
    said = (
        "README runs docker compose up, whose service ollama builds Dockerfile with the context ., which "
        "does not hold sudo-nopasswd (line 2) that it copies, and no folder of the project has it"
    )
    assert copies(tmp_path / "a", "docker compose up -d --build") == [(4, said, "certain")]
    # a service with an image to pull may never be built
    image = OLLAMA_COMPOSE.replace("  ollama:\n", "  ollama:\n    image: org/ollama-rocm\n")
    assert copies(tmp_path / "b", "docker compose up -d", **{"docker-compose.yml": image}) == [
        (4, said, "likely")
    ]


@pytest.mark.parametrize(
    ("block", "changes"),
    [
        ("docker compose up -d --build", {"sudo-nopasswd": "%sudo ALL=(ALL) NOPASSWD:ALL\n"}),  # it is there
        ("docker compose up --no-build", {}),  # builds nothing
        ("cp sudoers.example sudo-nopasswd\ndocker compose up -d --build", {}),  # made first
        # build args may name the file a COPY reads
        (
            "docker compose build",
            {"docker-compose.yml": OLLAMA_COMPOSE + "      args:\n        GPU: gfx1030\n"},
        ),
        # a folder that the copy of the project may lack, and the file with it
        ("docker compose build", {"Dockerfile": OLLAMA + "COPY models /opt/models\n"}),
    ],
)
def test_services_whose_copies_are_accounted_for(tmp_path: Path, block: str, changes: dict[str, str]) -> None:
    assert copies(tmp_path, block, **changes) == []


# `unbuilt_images`: a service whose `build:` is commented out, run from a local image nothing builds.
WHISPER = """\
services:
  local:
    tty: true
    # build:
    #   context: .
    #   dockerfile: Dockerfile
    image: fast-whisper
    container_name: fast-whisper-inf
"""
CACHE = "services:\n  app:\n    image: app-cache\n    # build: .\n  db:\n    image: redis\n"


def _unbuilt(root: Path, block: str, compose: str = WHISPER) -> list[tuple[int, str, str]]:
    return [f for f in found(root, block, {"docker-compose.yaml": compose}) if "is commented out" in f[1]]


def test_a_local_image_whose_build_is_commented_out(tmp_path: Path) -> None:
    assert _unbuilt(tmp_path, "docker compose up -d\ndocker exec -it fast-whisper-inf bash") == [
        (
            4,
            "README runs docker compose up, whose service local runs image fast-whisper "
            "(docker-compose.yaml:7), but its build: is commented out and nothing the README runs builds "
            "fast-whisper: compose pulls it from Docker Hub",
            "likely",
        )
    ]


def test_one_service_of_two_and_docker_compose_v1(tmp_path: Path) -> None:
    [(line, message, _)] = _unbuilt(tmp_path, "docker-compose up", CACHE)
    assert line == 4 and "service app runs image app-cache" in message


@pytest.mark.parametrize(
    ("block", "compose"),
    [
        # the README builds the image first
        ("docker build -t fast-whisper .\ndocker compose up -d", WHISPER),
        # compose builds with --build? no build: key, so a script or make that may build it
        ("./build.sh\ndocker compose up -d", WHISPER),
        ("make image\ndocker compose up -d", WHISPER),
        # a published image with an owner
        ("docker compose up -d", WHISPER.replace("image: fast-whisper", "image: acme/fast-whisper:1.0")),
        # no build: commented out: an image the project means to pull
        ("docker compose up -d", "services:\n  local:\n    image: fast-whisper\n"),
        # the README loads the image
        ("docker load -i fast-whisper.tar\ndocker compose up -d", WHISPER),
    ],
)
def test_images_the_readme_gives_or_pulls_on_purpose_are_silent(
    tmp_path: Path, block: str, compose: str
) -> None:
    assert _unbuilt(tmp_path, block, compose) == []


# A README whose one heading is its prerequisites: the clone, the `cd` and the compose build fall under
# it (a chat service built from ./server, its Dockerfile copying a requirements file that only the root
# holds; a photo indexer built from ./indexer, written with CRLF line endings).
CHAT_README = """\
## Prerequisites
- Docker and Docker Compose
- 8GB of RAM

```bash
# Get the code
git clone https://github.com/jdoe/chat-stack.git
cd chat-stack

# Build and start everything
docker compose up --build
```

Then open http://localhost:8080
"""
CHAT_COMPOSE = """\
services:
  llm:
    image: ollama/ollama
  web:
    build:
      context: ./server
      dockerfile: Dockerfile
    ports:
      - "8080:8080"
"""
CHAT_DOCKERFILE = (
    "FROM python:3.11-slim\nWORKDIR /srv\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    "COPY . .\n"
)
INDEXER_README = """\
# photo-indexer

### Requirements

You need Docker 24 or later.

    git clone https://github.com/acme/photo-indexer
    cd photo-indexer
    docker-compose build
"""
INDEXER_COMPOSE = "services:\r\n  indexer:\r\n    build:\r\n      context: ./indexer\r\n"
INDEXER_DOCKERFILE = "FROM node:20\r\nWORKDIR /app\r\nCOPY package.json .\r\nRUN npm install\r\nCOPY . .\r\n"


def _readme_found(root: Path, tree: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, tree)
    name = next(n for n in tree if n.endswith("Dockerfile"))
    model = build_model(root / name, name)
    text = (root / "README.md").read_text(encoding="utf-8")
    found = audit(text, "README.md", model, {}, root, root)
    return [(d.line, d.message, d.confidence) for d in found if "copies" in d.message]


def test_a_compose_build_under_the_prerequisites_heading_of_its_own_clone(tmp_path: Path) -> None:
    tree = {
        "README.md": CHAT_README,
        "docker-compose.yml": CHAT_COMPOSE,
        "server/Dockerfile": CHAT_DOCKERFILE,
        "server/main.py": "print(1)\n",
        "requirements.txt": "fastapi\n",
    }
    said = (
        "README runs docker compose up, whose service web builds server/Dockerfile with the context "
        "server, which holds none of what it copies: requirements.txt (line 3) is in ../"
    )
    assert _readme_found(tmp_path, tree) == [(11, said, "likely")]


def test_a_crlf_compose_build_in_an_indented_block_under_requirements(tmp_path: Path) -> None:
    tree = {
        "README.md": INDEXER_README,
        "docker-compose.yml": INDEXER_COMPOSE,
        "indexer/Dockerfile": INDEXER_DOCKERFILE,
        "indexer/index.js": "1\n",
    }
    said = (
        "README runs docker compose build, whose service indexer builds indexer/Dockerfile with the "
        "context indexer, which does not hold package.json (line 3) that it copies, and no folder of the "
        "project has it"
    )
    assert _readme_found(tmp_path, tree) == [(9, said, "certain")]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # the file is there: nothing to tell
        (CHAT_README, {"server/requirements.txt": "fastapi\n"}),
        # a section about the past keeps its old commands
        (CHAT_README.replace("## Prerequisites", "## Legacy"), {}),
        # another compose file: not the one beside the README
        (
            CHAT_README.replace("docker compose up --build", "docker compose -f deploy/prod.yml up --build"),
            {},
        ),
        # the clone's folder is not entered: its build runs elsewhere
        (CHAT_README.replace("cd chat-stack\n", "cd chat-stack/deploy\n"), {}),
    ],
)
def test_prerequisite_compose_builds_that_stay_silent(
    tmp_path: Path, readme: str, extra: dict[str, str]
) -> None:
    tree = {
        "README.md": readme,
        "docker-compose.yml": CHAT_COMPOSE,
        "server/Dockerfile": CHAT_DOCKERFILE,
        "server/main.py": "print(1)\n",
    }
    assert _readme_found(tmp_path, tree | extra) == []


# a build the compose command after it never uses (`unused_builds`)

WEAVER_COMPOSE = """\
services:
  weaver:
    build:
      context: .
      dockerfile: Dockerfile
    image: {image}
    ports:
      - "8080:8080"
  cache:
    image: redis:7
"""


def unused(
    root: Path, block: str, image: str = "weaver:universal", more: dict[str, str] | None = None
) -> list[str]:
    files = {"docker-compose.yml": WEAVER_COMPOSE.format(image=image), **(more or {})}
    return [
        f"{line}: {said} ({sure})" for line, said, sure in found(root, block, files) if "never used" in said
    ]


def test_a_build_whose_image_compose_builds_again_under_another_tag(tmp_path: Path) -> None:
    block = "# Build the image\ndocker build -t weaver:local .\n\n# Run with compose\ndocker-compose up -d"
    assert unused(tmp_path, block) == [
        "5: README builds image weaver:local and then runs docker compose up (line 8), but "
        "docker-compose.yml:6 builds service weaver's own image and tags it weaver:universal: the image "
        "the README builds is never used (likely)"
    ]


def test_a_checkout_the_block_clones_is_the_project_top(tmp_path: Path) -> None:
    # a guide in docs/ that clones the project and builds at its top (compose beside the top Dockerfile)
    readme = (
        "# Lab server\n\n## From source\n\n```bash\ngit clone https://example.org/lab/labsrv.git\ncd labsrv\n"
        "docker build -t labsrv:dev .\ndocker compose up\n```\n"
    )
    compose = "services:\n  api:\n    build: .\n    image: labsrv:1.2\n"
    make_tree(tmp_path, {"Dockerfile": APP, "docs/README.md": readme, "docker-compose.yml": compose})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    said = [
        d
        for d in audit(readme, "docs/README.md", model, {}, tmp_path / "docs", tmp_path)
        if "never used" in d.message
    ]
    assert [(d.line, d.confidence) for d in said] == [(8, "likely")]
    assert "but docker-compose.yml:4 builds service api's own image and tags it labsrv:1.2" in said[0].message


@pytest.mark.parametrize(
    ("block", "image", "more"),
    [
        ("docker build -t weaver:local .\ndocker compose up", "weaver:local", None),  # compose runs it
        ("docker build -t weaver .\ndocker compose up", "weaver:latest", None),  # `latest` is the bare name
        ("docker build -t weaver:$TAG .\ndocker compose up", "weaver:universal", None),  # the reader's tag
        ("docker build -t weaver:<tag> .\ndocker compose up", "weaver:universal", None),  # a placeholder
        ("docker build -t weaver:local .\ndocker compose up", "${IMAGE:-weaver:universal}", None),
        ("docker build -t weaver:local .\ndocker compose up", "ghcr.io/acme/other:1", None),  # another name
        (  # a base image the service's Dockerfile builds from
            "docker build -t weaver:local -f Dockerfile.base .\ndocker compose up",
            "weaver:universal",
            {"Dockerfile": "FROM weaver:local\nCOPY . /app\n"},
        ),
        (  # the README runs the image it built too: used
            "docker build -t weaver:local .\ndocker run --rm weaver:local --help\ndocker compose up",
            "weaver:universal",
            None,
        ),
        (
            "docker build -t weaver:local .\ndocker compose up cache",
            "weaver:universal",
            None,
        ),  # another service
        (
            "docker build -t weaver:local .\ncd deploy\ndocker compose up",
            "weaver:universal",
            None,
        ),  # elsewhere
        ("docker compose up\ndocker build -t weaver:local .", "weaver:universal", None),  # built after
    ],
)
def test_a_build_compose_uses_or_cannot_be_told_is_no_claim(
    tmp_path: Path, block: str, image: str, more: dict[str, str] | None
) -> None:
    assert unused(tmp_path, block, image, more) == []


def test_a_compose_file_that_pulls_the_published_image_is_no_rebuild(tmp_path: Path) -> None:
    # `image:` and no `build:`: compose pulls the published image the README also names; not this rule's
    compose = "services:\n  weaver:\n    image: acme/weaver:universal\n"
    block = "docker pull acme/weaver:universal\ndocker build -t acme/weaver:local .\ndocker compose up"
    assert [
        s for _, s, _ in found(tmp_path, block, {"docker-compose.yml": compose}) if "never used" in s
    ] == []


def test_a_build_before_a_compose_file_that_only_pulls_another_image(tmp_path: Path) -> None:
    # a Jupyter lab README: builds its own image, then starts a compose file that runs someone else's
    compose = "services:\n  lab:\n    image: someone/jupyter-lab:latest\n    ports:\n      - '8888:8888'\n"
    block = "docker build -t torch-lab:latest .\ndocker compose up -d"
    assert [
        (line, said, sure)
        for line, said, sure in found(tmp_path, block, {"docker-compose.yml": compose})
        if "never used" in said
    ] == [
        (
            4,
            "README builds image torch-lab:latest and then runs docker compose up (line 5), but "
            "docker-compose.yml:3 runs service lab from image someone/jupyter-lab:latest and builds none: "
            "the image the README builds is never used",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("block", "compose"),
    [
        # the compose image is the README's own, published under its owner: a release of it
        ("docker build -t tiler .\ndocker compose up", "services:\n  app:\n    image: tiler:2.1\n"),
        # the README tags the build as the compose image (a publish step)
        (
            "docker build -t tiler .\ndocker tag tiler acme/tiler-gpu\ndocker compose up",
            "services:\n  app:\n    image: acme/tiler-gpu\n",
        ),
        # the service takes its build from another file
        (
            "docker build -t tiler .\ndocker compose up",
            "services:\n  app:\n    image: acme/tiler-gpu\n"
            "    extends:\n      file: base.yml\n      service: app\n",
        ),
        # an official image beside the build (a database the README's own container talks to)
        ("docker build -t tiler .\ndocker compose up -d", "services:\n  db:\n    image: postgres:16\n"),
    ],
)
def test_a_pulled_image_the_readme_means_is_no_unused_build(tmp_path: Path, block: str, compose: str) -> None:
    files = {"docker-compose.yml": compose}
    assert [s for _, s, _ in found(tmp_path, block, files) if "never used" in s] == []


# an image: naming the README's build with one path part written twice (`doubled_images`)


def test_a_compose_image_with_a_doubled_owner(tmp_path: Path) -> None:
    compose = "services:\n  app:\n    image: acme/acme/llm-runner\n    ports:\n      - 8000:8000\n"
    block = "docker build . -t acme/llm-runner"
    assert [
        (line, said, sure)
        for line, said, sure in found(tmp_path, block, {"docker-compose-dev.yml": compose})
        if "written twice" in said
    ] == [
        (
            4,
            "README builds image acme/llm-runner, but docker-compose-dev.yml:3 runs service app from image "
            "acme/acme/llm-runner (acme written twice) and builds none: no build makes that name, and "
            "compose pulls it from a registry instead",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "image",
    [
        "acme/llm-runner",  # the very image
        "registry.acme.io/acme/llm-runner",  # a registry's path
        "acme/llm/llm-runner",  # no part written twice
        "${OWNER}/${OWNER}/llm-runner",  # a variable
    ],
)
def test_an_image_that_is_no_doubled_build_is_no_claim(tmp_path: Path, image: str) -> None:
    compose = f"services:\n  app:\n    image: {image}\n"
    block = "docker build . -t acme/llm-runner"
    assert [s for _, s, _ in found(tmp_path, block, {"docker-compose.yml": compose}) if "twice" in s] == []


def test_a_doubled_image_a_service_builds_is_no_claim(tmp_path: Path) -> None:
    compose = "services:\n  app:\n    build: .\n    image: acme/acme/llm-runner\n"
    block = "docker build . -t acme/llm-runner"
    assert [s for _, s, _ in found(tmp_path, block, {"docker-compose.yml": compose}) if "twice" in s] == []


ENV_COMPOSE = """\
services:
  trainer:
    build: ./trainer
    env_file:
      - ./trainer/gpu.env
  board:
    image: tensorflow/tensorflow
    env_file: ./trainer/gpu.env
  extra:
    image: redis
    env_file:
      - path: ./optional.env
        required: false
  debug:
    image: redis
    profiles: [debug]
    env_file: ./debug.env
"""


def _env_tree(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"compose.yaml": ENV_COMPOSE, "trainer/Dockerfile": "FROM python:3.12\n"} | (extra or {})


def test_an_env_file_the_services_started_read_that_is_not_there(tmp_path: Path) -> None:
    assert found(tmp_path, "docker compose up -d", _env_tree()) == [
        (
            4,
            "README runs docker compose up, whose services trainer, board read env_file ./trainer/gpu.env"
            " (compose.yaml:5), which does not exist; compose does not start without it",
            "certain",
        )
    ]


def test_an_env_file_is_not_read_for_a_build_alone(tmp_path: Path) -> None:
    assert found(tmp_path, "docker compose build", _env_tree()) == []


def test_an_env_file_that_is_there_or_optional_or_of_a_profile_is_no_finding(tmp_path: Path) -> None:
    assert found(tmp_path, "docker compose up", _env_tree({"trainer/gpu.env": "CUDA=1\n"})) == []


def test_an_env_file_the_reader_makes_is_no_finding(tmp_path: Path) -> None:
    # a template beside it, git ignoring it, or the README naming it: the reader writes it
    assert found(tmp_path, "docker compose up", _env_tree({"trainer/gpu.env.example": "CUDA=1\n"})) == []
    assert found(tmp_path / "b", "docker compose up", _env_tree({".gitignore": "*.env\n"})) == []
    block = "cp ~/keys/gpu.env trainer/\ndocker compose up"
    assert found(tmp_path / "c", block, _env_tree()) == []
    hidden = _env_tree({"compose.yaml": ENV_COMPOSE.replace("./trainer/gpu.env", ".env")})
    # a hidden one (`.env`) when the README speaks of it, of env files, variables or secrets
    for told in ("# put your keys in .env", "# set the environment variables first", "# secrets go here"):
        assert found(tmp_path / "d" / told[-4:].strip(), f"{told}\ndocker compose up", hidden) == []


GIT = {".git/HEAD": "ref: refs/heads/main\n"}


def test_a_hidden_env_file_the_readme_never_speaks_of(tmp_path: Path) -> None:
    hidden = _env_tree({"compose.yaml": ENV_COMPOSE.replace("./trainer/gpu.env", ".env")} | GIT)
    assert found(tmp_path, "docker compose up -d", hidden) == [
        (
            4,
            "README runs docker compose up, whose services trainer, board read env_file .env"
            " (compose.yaml:5), which does not exist; compose does not start without it, and the README"
            " never says to make it",
            "likely",
        )
    ]
    # git ignoring it is no step telling the reader to write it, nor a template the README never names
    ignored = hidden | {".gitignore": ".env\n"}
    assert [c for _, _, c in found(tmp_path / "b", "docker compose up", ignored)] == ["likely"]
    templated = found(tmp_path / "c", "docker compose up", hidden | {".env.example": "KEY=\n"})
    assert [(m.rsplit(", and ", 1)[1], c) for _, m, c in templated] == [
        ("the README never says to make it (from .env.example beside it)", "likely")
    ]
    # a README copying the template, or naming it, gives the step
    for told in (
        "cp .env.example .env\ndocker compose up",
        "# fill in .env.example first\ndocker compose up",
    ):
        assert found(tmp_path / "f" / told[:2], told, hidden | {".env.example": "KEY=\n"}) == []
    # a copy of some of the project's files (no git checkout) may lack its hidden ones; not its template,
    # and a template is no file the project keeps instead
    copy = {k: v for k, v in hidden.items() if k not in GIT}
    assert found(tmp_path / "e", "docker compose up", copy) == []
    copied = found(tmp_path / "g", "docker compose up", copy | {".env.example": "KEY=\n"})
    assert [c for _, _, c in copied] == ["likely"]
    # nor for a build alone: compose builds without the services' env files
    assert found(tmp_path / "h", "docker compose build", copy | {".env.example": "KEY=\n"}) == []


# A Makefile wrapping compose (`make up` → `$(COMPOSE) ${COMPOSE_FILES} up -d ${SERVICES}`): the shape of
# a self-hosted UI stack whose README only says to clone and `make up`.
STACK_MAKEFILE = """DOCKER = docker
COMPOSE = $(DOCKER) compose
SERVICES ?= app
COMPOSE_FILES ?= -f docker-compose.yml

.PHONY: info up down
info:
\t@echo $(SERVICES)

up: info
\t$(COMPOSE) ${COMPOSE_FILES} up -d ${SERVICES}

down:
\t$(COMPOSE) ${COMPOSE_FILES} down
"""
STACK_COMPOSE = """services:
  app:
    image: acme/ui:latest
    env_file: .env
    ports:
      - "8188:8188"
  tools:
    image: acme/tools
    env_file: ./tools.env
"""


def test_an_env_file_a_make_target_s_compose_command_needs(tmp_path: Path) -> None:
    files = {"Makefile": STACK_MAKEFILE, "docker-compose.yml": STACK_COMPOSE} | GIT
    assert found(tmp_path / "a", "make up", files) == [
        (
            4,
            "README runs make up, whose recipe (Makefile:11) runs docker compose up, whose service app reads"
            " env_file .env (docker-compose.yml:4), which does not exist; compose does not start without it,"
            " and the README never says to make it",
            "likely",
        )
    ]


def test_make_targets_whose_compose_needs_nothing_missing(tmp_path: Path) -> None:
    files = {"Makefile": STACK_MAKEFILE, "docker-compose.yml": STACK_COMPOSE} | GIT
    # a target that starts nothing, the env file there, the README telling the reader to write it
    assert found(tmp_path / "a", "make down", files) == []
    assert found(tmp_path / "b", "make up", files | {".env": "PORT=8188\n"}) == []
    written = found(tmp_path / "c", "cp .env.sample .env\nmake up", files)
    assert [m for _, m, _ in written if "env_file" in m] == []
    # a recipe that changes folder first: where compose runs is not read
    moved = STACK_MAKEFILE.replace(
        "\t$(COMPOSE) ${COMPOSE_FILES} up", "\tcd deploy && $(COMPOSE) ${COMPOSE_FILES} up"
    )
    assert found(tmp_path / "d", "make up", files | {"Makefile": moved}) == []


def test_an_env_file_of_a_service_the_command_does_not_start(tmp_path: Path) -> None:
    assert found(tmp_path, "docker compose up extra", _env_tree()) == []


# Services built from their own folder (`build: ./api`, the short form) whose Dockerfiles copy paths
# written from the project's root: the shape of an API-plus-browser-editor stack.
API = "FROM python:3.11-slim\nWORKDIR /app\nCOPY ./api/requirements.txt .\nRUN pip install -r reqs.txt\n"
EDITOR = "FROM codercom/code-server:latest\nCOPY ./ide/settings /home/coder/.local/share/code-server\n"
SPLIT_STACK = "services:\n  api:\n    build: ./api\n  ide:\n    build: ./ide\n    depends_on:\n      - api\n"


def relative_found(
    root: Path, monkeypatch: pytest.MonkeyPatch, block: str, files: dict[str, str]
) -> list[tuple[int, str, str]]:
    """`found`, audited as `docgen audit README.md` run in the README's folder (a relative directory)."""
    make_tree(root, {"README.md": f"# Stack\n\n```sh\n{block}\n```\n", **files})
    monkeypatch.chdir(root)
    model = build_model(Path("api/Dockerfile"), "api/Dockerfile")
    text = Path("README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, Path("."), None)]


def test_short_form_builds_whose_dockerfiles_copy_from_the_folder_above(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "api/Dockerfile": API,
        "api/requirements.txt": "fastapi\n",
        "ide/Dockerfile": EDITOR,
        "docker-compose.yml": SPLIT_STACK,
    }
    said = "README runs docker compose up, whose service"
    assert relative_found(tmp_path, monkeypatch, "docker-compose up --build", files) == [
        (
            4,
            f"{said} api builds api/Dockerfile with the context api, which holds none of what it copies:"
            " api/requirements.txt (line 3) is in ../",
            "likely",
        ),
        (
            4,
            f"{said} ide builds ide/Dockerfile with the context ide, which cannot hold what it copies:"
            " ide/settings (line 2) is written from the folder above ide/ (build there with -f"
            " ide/Dockerfile)",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    "changes",
    [
        # copies written from the service's own folder
        {"api/Dockerfile": API.replace("./api/", "./"), "ide/Dockerfile": EDITOR.replace("./ide/", "./")},
        # the long form from the root, as the Dockerfiles are written
        {
            "docker-compose.yml": "services:\n  api:\n    build:\n      context: .\n      dockerfile:"
            " api/Dockerfile\n  ide:\n    build:\n      context: .\n      dockerfile: ide/Dockerfile\n",
            "ide/settings/settings.json": "{}\n",
        },
    ],
)
def test_service_builds_whose_contexts_hold_their_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changes: dict[str, str]
) -> None:
    files = {
        "api/Dockerfile": API,
        "api/requirements.txt": "fastapi\n",
        "ide/Dockerfile": EDITOR,
        "ide/settings/settings.json": "{}\n",
        "docker-compose.yml": SPLIT_STACK,
        **changes,
    }
    assert relative_found(tmp_path, monkeypatch, "docker compose up --build", files) == []


# A stack whose compose files live in compose/: the README enters it in one step and runs compose later.
CORE = "services:\n  chat:\n    image: ollama/ollama\n  web:\n    build: .\n"


def entered_found(root: Path, steps: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    tree = {
        "Dockerfile": APP,
        "compose/Dockerfile": "FROM nginx:1.27\n",
        "compose/docker-compose.yml": CORE,
        "README.md": f"# Local LLM\n\n{steps}",
        **(files or {}),
    }
    make_tree(root, tree)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "README runs docker compose" in d.message
    ]


def test_a_compose_file_of_the_folder_an_earlier_step_entered(tmp_path: Path) -> None:
    steps = (
        "1. Start the core:\n\n```bash\ncd compose\ndocker compose --env-file ../.env up -d\n```\n\n"
        "2. Pull a model:\n\n```bash\ndocker exec -it chat ollama pull llama3\n```\n\n"
        "3. With the extras:\n\n```bash\ndocker compose -f docker-compose.yml -f docker-compose.extra.yml"
        " up -d --build\n```\n"
    )
    said = (
        "README runs docker compose -f docker-compose.yml -f docker-compose.extra.yml up, but"
        " docker-compose.extra.yml is not in the README's folder nor in one above it"
    )
    assert entered_found(tmp_path / "a", steps) == [(19, said, "certain")]
    extra = {"compose/docker-compose.extra.yml": "services:\n  gateway:\n    image: nginx:1.27\n"}
    assert entered_found(tmp_path / "b", steps, extra) == []


def test_a_compose_file_no_step_entered_is_still_missing(tmp_path: Path) -> None:
    # (no `cd compose` before the command: it runs where the README is)
    steps = "```bash\ndocker compose -f docker-compose.yml up -d\n```\n\n```bash\ncd compose\n```\n"
    said = (
        "README runs docker compose -f docker-compose.yml up, but docker-compose.yml is not in the"
        " README's folder nor in one above it"
    )
    assert entered_found(tmp_path, steps) == [(4, said, "certain")]


# `unbuilt_images` with no `build:` at all: the README's section says the Dockerfile beside the compose
# file makes the environment, while the services run a local name nothing builds (an upscaler launcher
# with a GPU and a CPU service; a notebook server with one service).
UPSCALE_COMPOSE = """\
version: "2.3"
services:
  main-cpu: &default
    image: upscaler
    volumes:
      - '.:/app/upscaler'
    entrypoint: python3 -u main.py
  main:
    <<: *default
    runtime: nvidia
"""
UPSCALE_README = """\
# Upscaler

## Docker

A Dockerfile and docker-compose file are included to create a runtime environment for the script.

```
docker-compose run --rm main [arguments]
```
"""
NOTEBOOK_README = """\
# Notebook

## Running

The `Dockerfile` holds the Jupyter environment; start it with:

```bash
docker compose up -d
```
"""


def _no_build(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme} | files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "no service has a build:" in d.message
    ]


def test_a_local_image_no_service_builds_beside_the_readme_s_dockerfile(tmp_path: Path) -> None:
    assert _no_build(tmp_path, UPSCALE_README, {"docker-compose.yml": UPSCALE_COMPOSE}) == [
        (
            8,
            "README runs docker compose run, whose service main runs image upscaler (docker-compose.yml:4), "
            "but no service has a build: (the README names the Dockerfile beside it) and nothing the README "
            "runs builds upscaler: compose pulls it from Docker Hub",
            "likely",
        )
    ]
    compose = "services:\n  lab:\n    image: lab-env\n    ports:\n      - 8888:8888\n"
    [(line, message, _)] = _no_build(tmp_path / "nb", NOTEBOOK_README, {"compose.yaml": compose})
    assert line == 8 and "service lab runs image lab-env (compose.yaml:3)" in message


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the README builds the name first
        (
            UPSCALE_README.replace("```\ndocker-compose", "```\ndocker build -t upscaler .\ndocker-compose"),
            {"docker-compose.yml": UPSCALE_COMPOSE},
        ),
        # a script beside the compose file names (builds) the image
        (UPSCALE_README, {"docker-compose.yml": UPSCALE_COMPOSE, "build.sh": "docker build -t upscaler .\n"}),
        # a workflow of the project names it
        (
            UPSCALE_README,
            {
                "docker-compose.yml": UPSCALE_COMPOSE,
                ".github/workflows/image.yml": (
                    "jobs:\n  b:\n    steps:\n      - run: docker build -t upscaler .\n"
                ),
            },
        ),
        # the README's section does not speak of the Dockerfile: an image the project means to pull
        (
            UPSCALE_README.replace("A Dockerfile and docker-compose file are", "Compose files are"),
            {"docker-compose.yml": UPSCALE_COMPOSE},
        ),
        # the Dockerfile is named in another section only
        (
            "# Upscaler\n\nThe Dockerfile is for CI.\n\n## Run\n\n```\ndocker-compose run --rm main\n```\n",
            {"docker-compose.yml": UPSCALE_COMPOSE},
        ),
        # a service builds the image
        (
            UPSCALE_README,
            {
                "docker-compose.yml": UPSCALE_COMPOSE.replace(
                    "    image: upscaler\n", "    image: upscaler\n    build: .\n"
                )
            },
        ),
        # an image with an owner, an official image
        (UPSCALE_README, {"docker-compose.yml": UPSCALE_COMPOSE.replace("upscaler", "acme/upscaler")}),
        (UPSCALE_README, {"docker-compose.yml": UPSCALE_COMPOSE.replace("image: upscaler", "image: python")}),
    ],
)
def test_unbuilt_images_the_project_may_give_are_silent(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _no_build(tmp_path, readme, files) == []


def test_a_plain_env_file_a_make_target_needs_in_a_copy_of_the_files(tmp_path: Path) -> None:
    # every service started (no SERVICES): `tools` reads ./tools.env, not hidden, so no checkout needed
    every = STACK_MAKEFILE.replace(" ${SERVICES}", "")
    files = {"Makefile": every, "docker-compose.yml": STACK_COMPOSE}
    assert [(line, confidence) for line, _, confidence in found(tmp_path, "make up", files)] == [
        (4, "certain")
    ]
    assert (
        "service tools reads env_file ./tools.env (docker-compose.yml:9)"
        in found(tmp_path, "make up", files)[0][1]
    )


# a compose service run from another tag of the README's build, that nothing makes (`retagged_runs`)

VOCALIS_README = """\
# Vocalis

## Build

```bash
docker build -t vocalis:latest .
```

## Run

```bash
cp compose-example.yml docker-compose.yml
# edit the paths in docker-compose.yml
docker-compose up -d
```
"""
VOCALIS_COMPOSE = (
    "services:\n  vocalis:\n    image: {image}\n    container_name: vocalis\n    ports:\n      - 8004:8188\n"
)


def retagged(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "which has no such image" in d.message
    ]


def test_a_compose_file_copied_from_an_example_runs_another_tag_of_the_build(tmp_path: Path) -> None:
    # a TTS server: built as vocalis:latest, its example compose file (copied first) runs vocalis:v2.0
    files = {"compose-example.yml": VOCALIS_COMPOSE.format(image="vocalis:v2.0")}
    assert retagged(tmp_path, VOCALIS_README, files) == [
        (
            6,
            "README builds image vocalis:latest and then runs docker-compose up (line 14), but "
            "compose-example.yml:3 (copied to docker-compose.yml at line 12) runs service vocalis from "
            "image vocalis:v2.0 and builds none: nothing the README runs makes vocalis:v2.0, and compose "
            "pulls it from Docker Hub, which has no such image",
            "likely",
        )
    ]


def test_a_compose_file_beside_the_readme_runs_another_tag_of_the_build(tmp_path: Path) -> None:
    # an OCR API: `docker build -t ocr-api .` in one section, `docker compose up` of `ocr-api:1.3` in the next
    readme = "## Build\n\n```\ndocker build -t ocr-api .\n```\n\n## Start\n\n```\ndocker compose up -d\n```\n"
    compose = "services:\n  api:\n    image: ocr-api:1.3\n    restart: always\n"
    assert [(line, sure) for line, _, sure in retagged(tmp_path, readme, {"compose.yaml": compose})] == [
        (4, "likely")
    ]


@pytest.mark.parametrize(
    ("readme", "image", "more"),
    [
        (VOCALIS_README, "acme/vocalis:v2.0", {}),  # published under an owner: pulled
        (VOCALIS_README, "vocalis:latest", {}),  # the built tag
        (VOCALIS_README, "vocalis", {}),  # the same, `latest`
        (VOCALIS_README, "python:3.11", {}),  # another image (an official one)
        (VOCALIS_README, "vocalis:${TAG:-v2.0}", {}),  # the reader's choice
        (  # the README tags the build as the compose image
            VOCALIS_README.replace(
                "-t vocalis:latest .", "-t vocalis:latest .\ndocker tag vocalis vocalis:v2.0"
            ),
            "vocalis:v2.0",
            {},
        ),
        (  # a script beside the compose file that may tag it
            VOCALIS_README,
            "vocalis:v2.0",
            {"release.sh": "docker tag vocalis:latest vocalis:v2.0\n"},
        ),
        (  # the build in another folder
            VOCALIS_README.replace("docker build -t", "cd server\ndocker build -t"),
            "vocalis:v2.0",
            {"server/Dockerfile": APP},
        ),
        (  # the compose command first, the build after it
            "## Run\n\n```\ncp compose-example.yml docker-compose.yml\ndocker-compose up -d\n```\n\n"
            "## Build\n\n```\ndocker build -t vocalis:latest .\n```\n",
            "vocalis:v2.0",
            {},
        ),
    ],
)
def test_compose_images_a_step_gives_or_the_readme_does_not_build(
    tmp_path: Path, readme: str, image: str, more: dict[str, str]
) -> None:
    files = {"compose-example.yml": VOCALIS_COMPOSE.format(image=image), **more}
    assert retagged(tmp_path, readme, files) == []


def test_a_compose_service_that_builds_is_another_rules(tmp_path: Path) -> None:
    compose = "services:\n  vocalis:\n    build: .\n    image: vocalis:v2.0\n"
    assert retagged(tmp_path, VOCALIS_README, {"compose-example.yml": compose}) == []


# A COPY source written with a build arg the compose service passes from the shell (`${CKPT}`): read
# with the `.env` beside the compose file, blank when it sets none. Modelled on a diffusion UI image whose
# `make build` runs `docker compose build` and copies `./weights/${CKPT}` (no weights in the repository),
# and on an API image choosing `requirements-${VARIANT}.txt` by a compose arg with a default.
DIFFUSION = "FROM python:3.10\nARG CKPT\nCOPY ./weights/${CKPT} /srv/model.ckpt\nCOPY start.sh /srv/\n"
DIFFUSION_COMPOSE = (
    "services:\n  core:\n    image: ui:latest\n    build:\n      args:\n        - CKPT=${CKPT}\n"
)
MAKE_BUILD = "include .env\nexport\n\nbuild:\n\tdocker compose build core\n"


def test_a_make_targets_compose_build_copying_a_source_its_args_name(tmp_path: Path) -> None:
    files = {
        "Dockerfile": DIFFUSION,
        "start.sh": "",
        "docker-compose.yml": DIFFUSION_COMPOSE,
        "Makefile": MAKE_BUILD,
        ".env": "PYTHON_VERSION=3.10\n",
        ".git/HEAD": "",
    }
    assert [f for f in found(tmp_path, "make build", files) if "copies" in f[1]] == [
        (
            4,
            "README runs make build, whose recipe (Makefile:5) runs docker compose build, whose service "
            "core builds Dockerfile with the context ., which does not hold weights (line 3) that it "
            "copies, in a git checkout that holds every file",
            "likely",
        )
    ]


VARIANT_API = "FROM python:3.12-slim\nARG VARIANT\nCOPY requirements-${VARIANT}.txt /tmp/req.txt\n"
VARIANT_COMPOSE = (
    "services:\n  api:\n    build:\n      context: .\n      args:\n        VARIANT: ${VARIANT:-cpu}\n"
)


def test_a_compose_build_whose_arg_default_names_a_file_not_there(tmp_path: Path) -> None:
    files = {
        "Dockerfile": VARIANT_API,
        "docker-compose.yml": VARIANT_COMPOSE,
        "requirements-gpu.txt": "",
        ".git/HEAD": "",
    }
    assert [
        f[2] for f in found(tmp_path, "docker compose build", files) if "requirements-cpu.txt" in f[1]
    ] == ["likely"]


@pytest.mark.parametrize(
    ("block", "changes"),
    [
        ("make build", {".env": "CKPT=sd-v1.ckpt\n", "weights/sd-v1.ckpt": ""}),  # the .env names one there
        ("mkdir -p weights && wget -P weights https://example.org/sd.ckpt\nmake build", {}),  # fetched first
        # an arg of a value docgen cannot read: not guessed
        ("make build", {"docker-compose.yml": DIFFUSION_COMPOSE.replace("${CKPT}", "${DIR}/${CKPT}")}),
        ("make build", {"Makefile": "build:\n\tcd ui && docker compose build core\n"}),  # another folder
    ],
)
def test_compose_builds_whose_variable_sources_are_accounted_for(
    tmp_path: Path, block: str, changes: dict[str, str]
) -> None:
    files = {
        "Dockerfile": DIFFUSION,
        "start.sh": "",
        "docker-compose.yml": DIFFUSION_COMPOSE,
        "Makefile": MAKE_BUILD,
        ".git/HEAD": "",
    }
    assert [f for f in found(tmp_path, block, files | changes) if "copies" in f[1]] == []


# `build: .` (or `build: ./svc`) over a folder whose only build file is the lower-case `dockerfile`:
# Compose and BuildKit read it when there is no `Dockerfile`. Modelled on a TTS image for ROCm (one
# `dockerfile` beside its compose file) and on a monorepo service folder; a folder with neither, or with
# only a flavoured `dockerfile.gpu`, still has no Dockerfile to build.
_LOWER = "services:\n  tts:\n    build: .\n  api:\n    build:\n      context: ./api\n"


def lower(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": "# TTS\n\n```sh\ndocker compose up -d\n```\n", "compose.yaml": _LOWER})
    make_tree(root, files)
    dockerfile = next(n for n in files if n.lower() == "dockerfile")
    model = build_model(root / dockerfile, dockerfile)
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


def test_a_context_whose_dockerfile_is_written_in_lower_case(tmp_path: Path) -> None:
    assert lower(tmp_path / "a", {"dockerfile": APP, "api/dockerfile": APP}) == []
    said = "README runs docker compose up, whose service api builds api/Dockerfile, which does not exist"
    assert lower(tmp_path / "b", {"dockerfile": APP, "api/main.py": ""}) == [(4, said, "certain")]
    assert lower(tmp_path / "c", {"dockerfile": APP, "api/dockerfile.gpu": APP}) == [(4, said, "certain")]
