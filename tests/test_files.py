"""`docgen.files`: which files beside the README are the project's (`stays_home`) and read
(`bytes_or_none`, `text_or_none`).

A file is read through a link only when it stays in its own repository: the folder holding `.git` (else
`pyproject.toml`) found by climbing the file's folder as written, its links not resolved, and that
repository not itself a link out of the one holding it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import make_tree

from docgen import files
from docgen.files import bytes_or_none, dockerfiles_led_to, stays_home, text_or_none

_GIT = {".git/HEAD": "ref: refs/heads/main\n"}


@pytest.fixture
def checkouts(tmp_path: Path) -> Path:
    """`proj` (a git checkout) and `other` (another one), each with the same file names."""
    for name in ("proj", "other"):
        make_tree(tmp_path / name, _GIT)
    make_tree(
        tmp_path / "other",
        {
            ".github/workflows/ci.yml": "tags: other/image:9\n",
            "docs/Dockerfile": "FROM other:9\n",
            "requirements/base.txt": "flask==0.1\n",
            "compose.yml": "services: {}\n",
            "repo/.git/HEAD": "\n",
            "repo/setup.sh": "echo other\n",
        },
    )
    make_tree(tmp_path / "proj", {"docker/Dockerfile": "FROM python:3.12\n", "Dockerfile": "FROM x\n"})
    return tmp_path


@pytest.mark.parametrize(
    ("link", "target", "read"),
    [
        (".github", ".github", ".github/workflows/ci.yml"),
        ("docs", "docs", "docs/Dockerfile"),
        ("requirements", "requirements", "requirements/base.txt"),
        ("compose.yml", "compose.yml", "compose.yml"),
        ("vendor", "", "vendor/docs/Dockerfile"),  # the whole other checkout, its `.git` read through it
        ("vendor", "", "vendor/repo/setup.sh"),  # a checkout inside it
        ("ext", "repo", "ext/setup.sh"),  # a checkout of its own, but linked out of the project
    ],
)
def test_a_link_into_another_checkout_is_not_read(checkouts: Path, link: str, target: str, read: str) -> None:
    """The other checkout's files are not the project's, be the link the file, a folder above it or a
    folder holding a `.git` of its own: before, the folder was resolved first and the other checkout
    was taken for its repository."""
    os.symlink(checkouts / "other" / target, checkouts / "proj" / link)
    path = checkouts / "proj" / read
    assert path.is_file()
    assert not stays_home(path)
    assert bytes_or_none(path) is None and text_or_none(path) is None


@pytest.mark.parametrize("marker", [".git/HEAD", "pyproject.toml", None])
def test_a_folder_linked_into_a_checkout_from_a_project_without_git(
    tmp_path: Path, marker: str | None
) -> None:
    """With no `.git` at all (or a `pyproject.toml` only) above the file as written, a folder that
    resolves into a git checkout is still no folder of the project."""
    make_tree(tmp_path / "other", {**_GIT, "docs/Dockerfile": "FROM other:9\n"})
    make_tree(tmp_path / "proj", {"Dockerfile": "FROM x\n", **({marker: "\n"} if marker else {})})
    os.symlink(tmp_path / "other" / "docs", tmp_path / "proj" / "docs")
    assert not stays_home(tmp_path / "proj" / "docs" / "Dockerfile")
    assert stays_home(tmp_path / "proj" / "Dockerfile")


def test_a_link_out_of_a_project_without_git_is_read_only_below_top(tmp_path: Path) -> None:
    """A project with no `.git` or `pyproject.toml` has no repository to tell its files by: a `.github`
    linked to a folder of no checkout is refused when the caller passes the project's top."""
    make_tree(tmp_path, {"outside/workflows/ci.yml": "tags: other/image:9\n", "proj/Dockerfile": "FROM x\n"})
    os.symlink(tmp_path / "outside", tmp_path / "proj" / ".github")
    path = tmp_path / "proj" / ".github" / "workflows" / "ci.yml"
    assert bytes_or_none(path, top=tmp_path / "proj") is None
    assert text_or_none(path, top=tmp_path / "proj") is None
    assert text_or_none(tmp_path / "proj" / "Dockerfile", top=tmp_path / "proj") == "FROM x\n"


def test_a_link_inside_the_project_is_read(checkouts: Path) -> None:
    """`docs/Dockerfile -> ../docker/Dockerfile`, a folder linked to another of the project, and a
    checkout of its own inside it (a submodule) are the project's."""
    proj = checkouts / "proj"
    make_tree(
        proj, {"docs/README.md": "# x\n", "sub/.git": "gitdir: ../.git/modules/sub\n", "sub/a.sh": "x\n"}
    )
    os.symlink("../docker/Dockerfile", proj / "docs" / "Dockerfile")
    os.symlink(proj / "docker", proj / "images")
    os.symlink(proj / "sub", proj / "linked-sub")
    assert text_or_none(proj / "docs" / "Dockerfile") == "FROM python:3.12\n"
    assert text_or_none(proj / "images" / "Dockerfile") == "FROM python:3.12\n"
    assert text_or_none(proj / "sub" / "a.sh") == "x\n"
    assert text_or_none(proj / "linked-sub" / "a.sh") == "x\n"


@pytest.mark.parametrize("marker", [".git/HEAD", "pyproject.toml", None])
def test_a_project_reached_through_a_linked_parent_reads_its_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str | None
) -> None:
    """`/tmp/link -> /real`, docgen run in `/tmp/link/proj`: the link is above the project, whose files
    are its own (by an absolute path as written, and from inside it)."""
    make_tree(tmp_path / "real" / "proj", {"Dockerfile": "FROM x\n", **({marker: "\n"} if marker else {})})
    os.symlink(tmp_path / "real", tmp_path / "link")
    written = tmp_path / "link" / "proj"
    assert stays_home(written / "Dockerfile")
    assert text_or_none(written / "Dockerfile", top=written) == "FROM x\n"
    monkeypatch.chdir(written)
    assert text_or_none(Path("Dockerfile")) == "FROM x\n"


def test_a_link_loop_or_a_missing_file_is_no_file(tmp_path: Path) -> None:
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    assert not stays_home(tmp_path / "a")
    assert bytes_or_none(tmp_path / "a") is None
    assert bytes_or_none(tmp_path / "missing") is None


# A README with no Dockerfile beside it that runs a compose file: the Dockerfiles are each service's
# `dockerfile:` read from that service's own `context:`. Modelled on a web app's deploy folder (an API
# built from `Dockerfile.prod`, a frontend from its plain Dockerfile) and on a worker stack whose second
# service names its build context only.
COMPOSE = """\
services:
  api:
    build:
      context: ../api
      dockerfile: Dockerfile.prod   # the production image
  web:
    build: ../web
  worker:
    build: {context: ../worker, dockerfile: gpu.Dockerfile}
  db:
    image: postgres:16
"""


def test_a_compose_files_dockerfiles_are_read_per_service(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "deploy/compose.yaml": COMPOSE,
            "deploy/README.md": "",
            "api/Dockerfile.prod": "FROM python:3.12\n",
            "api/Dockerfile": "FROM python:3.12\n",  # the api's dev image: not what the compose builds
            "web/Dockerfile": "FROM node:20\n",
            "web/Dockerfile.prod": "FROM node:20\n",  # another service's dockerfile: name, not web's
            "worker/gpu.Dockerfile": "FROM nvidia/cuda:12.4.0-base-ubuntu22.04\n",
            "worker/Dockerfile": "FROM python:3.12\n",
        },
    )
    readme = "# Deploy\n\n```bash\ndocker compose -f compose.yaml up -d\n```\n"
    found = dockerfiles_led_to(tmp_path / "deploy/README.md", readme, tmp_path)
    assert sorted(os.path.relpath(p, tmp_path) for p in found) == [
        "api/Dockerfile.prod",
        "web/Dockerfile",
        "worker/gpu.Dockerfile",
    ]


@pytest.mark.parametrize(
    ("readme", "tree", "expected"),
    [
        # `docker-compose up` with no -f: the compose file beside the README builds each service's
        # Dockerfile from its own context (a web UI and a model downloader, each under services/)
        (
            "```\ngit clone https://example.org/upstream-fork.git\ncd upstream-fork\n"
            "docker-compose up download -d\ndocker-compose up webui\n```\n",
            {
                "docker-compose.yml": "services:\n  webui:\n    build: ./services/webui/\n"
                "  download:\n    build: ./services/download/\n",
                "services/webui/Dockerfile": "FROM ubuntu:22.04\n",
                "services/download/Dockerfile": "FROM alpine:3.19\n",
                "services/webui/Dockerfile.old": "FROM ubuntu:20.04\n",  # no service builds it
            },
            ["services/download/Dockerfile", "services/webui/Dockerfile"],
        ),
        # `docker compose` (v2) after a `cd` into the folder holding compose.yaml, whose build names
        # a dockerfile of its context
        (
            "Run `cd deploy && docker compose up --build`.\n",
            {
                "deploy/compose.yaml": "services:\n  api:\n    build:\n      context: ../api\n"
                "      dockerfile: docker/prod.Dockerfile\n  db:\n    image: postgres:16\n",
                "api/docker/prod.Dockerfile": "FROM python:3.12\n",
            },
            ["api/docker/prod.Dockerfile"],
        ),
        # traps: a compose file whose services pull their images (no build:) leads nowhere
        (
            "```\ndocker compose up -d\n```\n",
            {"compose.yaml": "services:\n  db:\n    image: postgres:16\n", "tools/Dockerfile": ""},
            [],
        ),
        # a build context past the project
        (
            "```\ndocker compose up -d\n```\n",
            {"compose.yaml": "services:\n  app:\n    build: ../elsewhere\n"},
            [],
        ),
        # the README only names the compose file, it runs no compose command
        (
            "The `docker-compose.yml` file is an example for your own stack.\n",
            {"docker-compose.yml": "services:\n  app:\n    build: ./app\n", "app/Dockerfile": ""},
            [],
        ),
    ],
)
def test_a_compose_command_with_no_file_reads_the_default_compose_file(
    tmp_path: Path, readme: str, tree: dict[str, str], expected: list[str]
) -> None:
    make_tree(tmp_path / "project", {"README.md": readme, **tree})
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/Dockerfile").write_text("FROM scratch\n")
    found = dockerfiles_led_to(tmp_path / "project/README.md", readme, tmp_path / "project")
    assert sorted(os.path.relpath(p, tmp_path / "project") for p in found) == expected


def test_a_compose_command_with_a_file_does_not_read_the_default_one(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "docker-compose.yml": "services:\n  dev:\n    build: ./dev\n",
            "docker-compose.prod.yml": "services:\n  app:\n    build: ./prod\n",
            "dev/Dockerfile": "",
            "prod/Dockerfile": "",
        },
    )
    readme = "```\ndocker compose -f docker-compose.prod.yml up -d\n```\n"
    found = dockerfiles_led_to(tmp_path / "README.md", readme, tmp_path)
    assert [os.path.relpath(p, tmp_path) for p in found] == ["prod/Dockerfile"]


# `led_dockerfiles`: the Dockerfiles a page with none beside it is about, and why. Modelled on a
# transcription service's `docs/DOCKER_VARIANTS.md` (builds written from the root: `-f Dockerfile.cuda .`),
# a fingerprinting project's `docker/README.md` (its one command in plain text, two Dockerfiles two folders
# down) and a whisper image's `docs/dockerhub-overview.md` (runs published tags, names no Dockerfile).
ROOT_FILES = {"Dockerfile": "", "Dockerfile.cpu": "", "Dockerfile.cuda": "", "docs/.keep": ""}
TWO_DOWN = {"docker/cuda/base/Dockerfile": "", "docker/cpu/base/Dockerfile": ""}
UNDER_DOCKER = {"docker/Dockerfile.cuda": "", "docker/Dockerfile.cpu": "", "docs/.keep": ""}


@pytest.mark.parametrize(
    ("page", "readme", "tree", "expected"),
    [
        # `-f` names a Dockerfile that is not in docs/ but at the root the commands run from
        (
            "docs/VARIANTS.md",
            "```bash\ndocker build -t app:cuda -f Dockerfile.cuda .\n```\n",
            ROOT_FILES,
            [("Dockerfile.cuda", files.LED_ROOT)],
        ),
        # a `docker build .` with no -f, run from the root, builds its Dockerfile
        (
            "docs/build.md",
            "```bash\ndocker build -t app .\n```\n",
            ROOT_FILES,
            [("Dockerfile", files.LED_ROOT)],
        ),
        # the files its text labels and links, from its folder or the root
        (
            "docs/VARIANTS.md",
            "**File:** `Dockerfile.cpu`\n\nSee [the CUDA one](../Dockerfile.cuda).\n",
            ROOT_FILES,
            [("Dockerfile.cpu", files.LED_TEXT), ("Dockerfile.cuda", files.LED_TEXT)],
        ),
        # a command in plain text (no code) naming one of two Dockerfiles: that one
        (
            "docker/README.md",
            "docker build -t fp-cuda -f docker/cuda/base/Dockerfile .\ndocker run -it --rm fp-cuda\n",
            TWO_DOWN,
            [("docker/cuda/base/Dockerfile", files.LED_TEXT)],
        ),
        # naming none: those more than one folder down its own
        (
            "docker/README.md",
            "Build the images from the repository root.\n",
            TWO_DOWN,
            [
                ("docker/cpu/base/Dockerfile", files.LED_BELOW),
                ("docker/cuda/base/Dockerfile", files.LED_BELOW),
            ],
        ),
        # a docs page running published tags: the project's, at the root and under docker/
        (
            "docs/overview.md",
            "```bash\ndocker run --rm acme/whisper:cpu-v1.0.0 --input a.wav\n```\n",
            UNDER_DOCKER,
            [("docker/Dockerfile.cpu", files.LED_DOCS), ("docker/Dockerfile.cuda", files.LED_DOCS)],
        ),
        # traps: a docs page that runs no docker command
        ("docs/overview.md", "Install with `pip install whisper-cli`.\n", UNDER_DOCKER, []),
        # a page outside the docs folder naming nothing, with nothing below it
        ("notes/overview.md", "```bash\ndocker run --rm acme/whisper:cpu\n```\n", UNDER_DOCKER, []),
        # `Dockerfile` in prose is any Dockerfile, not the root's (a docs page on writing one)
        ("docs/guide.md", "Write a Dockerfile for your service.\n", ROOT_FILES, []),
        # a name that is no file, and a path leading out of the project
        ("docs/guide.md", "`Dockerfile.rocm` and `../../Dockerfile` are gone.\n", ROOT_FILES, []),
        # the build after a `cd`: its context is that folder, not the root
        (
            "docs/build.md",
            "```bash\ncd examples/demo\ndocker build -t demo .\n```\n",
            {**ROOT_FILES, "examples/demo/Dockerfile": ""},
            [("examples/demo/Dockerfile", files.LED_ROOT)],
        ),
    ],
)
def test_the_dockerfiles_a_page_with_none_beside_it_is_about(
    tmp_path: Path, page: str, readme: str, tree: dict[str, str], expected: list[tuple[str, str]]
) -> None:
    project = tmp_path / "project"
    make_tree(project, {page: readme, **tree, "examples/demo/app.py": ""})
    make_tree(tmp_path, {"Dockerfile": ""})  # outside the project
    found = files.led_dockerfiles(project / page, readme, project)
    assert [(os.path.relpath(os.path.normpath(path), project), why) for path, why in found] == expected


# The Dockerfile a context has: `Dockerfile`, else the lower-case `dockerfile` the Docker CLI, BuildKit
# and Compose read in its place (moby#10858). Modelled on a TTS image whose only build file is
# `dockerfile` beside its compose file, and on a service folder of a monorepo built by `docker build svc`.
def test_the_dockerfile_a_context_has(tmp_path: Path) -> None:
    make_tree(tmp_path, {"tts/dockerfile": "FROM x\n", "svc/Dockerfile": "FROM y\n", "svc/dockerfile": ""})
    make_tree(tmp_path, {"gpu/dockerfile.gpu": "FROM z\n", "empty/README.md": ""})
    assert files.context_dockerfile(tmp_path / "tts") == tmp_path / "tts/dockerfile"
    assert files.context_dockerfile(tmp_path / "svc") == tmp_path / "svc/Dockerfile"  # the exact name first
    # only the default name falls back; a flavoured one and a folder with none stay as named
    assert files.built_dockerfile(tmp_path / "gpu/Dockerfile.gpu") == tmp_path / "gpu/Dockerfile.gpu"
    assert files.context_dockerfile(tmp_path / "gpu") == tmp_path / "gpu/Dockerfile"
    assert files.context_dockerfile(tmp_path / "empty") == tmp_path / "empty/Dockerfile"
    # `-f tts/Dockerfile` written out: BuildKit reads the lower-case file for it too
    assert files.built_dockerfile(tmp_path / "tts/Dockerfile") == tmp_path / "tts/dockerfile"
