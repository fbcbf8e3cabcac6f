"""`docgen audit`: the services and profiles a README's `docker compose` commands name, against the
compose files they read (docgen/audit/compose_services.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
COMPOSE = """\
services:
  api:
    build: .
    ports: ["8080:8080"]
  worker:
    build: .
    profiles: ["gpu"]
"""
PLAIN = "services:\n  api:\n    build: .\n  proxy:\n    image: nginx:1.27\n"


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if ("compose command" in d.message or "docker compose" in d.message)
        and "is not in the README's folder" not in d.message  # a missing -f file: compose_builds' finding
        and "where it stands" not in d.message  # no compose file at all: entered_compose's finding
    ]


def readme(*commands: str) -> str:
    return "# App\n\n## Run\n\n```bash\n" + "\n".join(commands) + "\n```\n"


def test_a_service_the_default_compose_file_does_not_define(tmp_path: Path) -> None:
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("docker compose up -d --build api-cpu")}
    assert found(tmp_path, files) == [
        (
            6,
            "README's compose command names service api-cpu, which docker-compose.yml does not define "
            "(did you mean api?)",
            "certain",
        )
    ]


def test_services_and_profiles_of_several_f_files(tmp_path: Path) -> None:
    files = {
        "compose.base.yml": PLAIN,
        "compose.amd.yml": "services:\n  rocm:\n    build: .\n",
        "README.md": readme(
            "docker-compose -f compose.base.yml -f compose.amd.yml build api rocm cuda",
            "docker-compose -f compose.amd.yml up --profile rocm --profile extra -d",
        ),
    }
    assert found(tmp_path, files) == [
        (
            6,
            "README's compose command names service cuda, which compose.base.yml, compose.amd.yml does not "
            "define (it defines api, proxy, rocm)",
            "certain",
        ),
        (
            7,
            "README's compose command names profiles rocm, extra, which compose.amd.yml does not define "
            "(no service there has profiles)",
            "certain",
        ),
    ]


def test_a_profile_enabled_by_compose_profiles(tmp_path: Path) -> None:
    files = {"compose.yaml": COMPOSE, "README.md": readme("COMPOSE_PROFILES=cuda docker compose up -d")}
    assert [(line, confidence) for line, _, confidence in found(tmp_path, files)] == [(6, "certain")]


def test_exec_into_a_service_only_in_a_profile_up_does_not_enable(tmp_path: Path) -> None:
    files = {
        "compose.yaml": COMPOSE,
        "README.md": readme("docker compose up -d", "docker compose exec worker nvidia-smi"),
    }
    assert found(tmp_path, files) == [
        (
            7,
            "README's docker compose exec worker needs a container the docker compose up of line 6 does not "
            "start: compose.yaml puts service worker only in profile gpu, which that command does not enable",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "commands",
    [
        ("docker compose up -d api",),  # a service it defines
        ("docker compose --profile gpu up -d", "docker compose exec worker nvidia-smi"),  # enabled
        ("docker compose up -d worker", "docker compose logs -f worker"),  # named: started anyway
        ("docker compose -p demo run --rm api python -m app.cli",),  # -p and the command run
        ("docker compose exec -u root api bash",),
        ("vim docker-compose.yml && docker compose up -d api",),
        ("docker compose build --pull --progress plain api",),  # --pull: a flag of build
        ("docker compose logs --tail 50 <service>",),  # placeholders
        ("docker compose up -d ${SERVICE}",),
        ("cd deploy && docker compose up -d web",),  # another folder's file
        ("cd deploy", "docker compose up -d web"),
        ("docker compose -f compose.prod.yml up -d web",),  # a file that is not there: no service read
        ("docker compose --project-directory deploy up web",),
        ("COMPOSE_FILE=deploy/compose.yaml docker compose up web",),
    ],
)
def test_names_the_files_define_or_that_cannot_be_told_are_no_finding(
    tmp_path: Path, commands: tuple[str, ...]
) -> None:
    files = {"compose.yaml": COMPOSE, "README.md": readme(*commands)}
    assert found(tmp_path, files) == []


def test_a_clone_of_the_repository_is_the_readme_folder(tmp_path: Path) -> None:
    text = "# App\n\n```bash\ngit clone https://example.com/org/app.git\ncd app\n```\n\n" + readme(
        "docker compose up web"
    ).removeprefix("# App\n")
    files = {"compose.yaml": COMPOSE, "README.md": text}
    assert [line for line, _, _ in found(tmp_path, files)] == [12]


def test_no_default_file_in_the_folder_is_not_read(tmp_path: Path) -> None:
    # Compose looks in the folders above, which the README does not show
    files = {"deploy/compose.yaml": COMPOSE, "README.md": readme("docker compose up web")}
    assert found(tmp_path, files) == []


def test_a_compose_file_that_includes_others_is_not_read(tmp_path: Path) -> None:
    text = "include:\n  - db/compose.yaml\n" + COMPOSE
    included = "services:\n  cache:\n    image: redis\n"  # (there: a missing one stops compose)
    files = {
        "compose.yaml": text,
        "db/compose.yaml": included,
        "README.md": readme("docker compose up -d db"),
    }
    assert found(tmp_path, files) == []


def test_an_override_file_adds_services(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": PLAIN,
        "docker-compose.override.yml": "services:\n  debug:\n    image: busybox\n",
        "README.md": readme("docker-compose up -d debug"),
    }
    assert found(tmp_path, files) == []


@pytest.mark.parametrize(
    "block",
    [
        "```yaml\nservices:\n  web:\n    image: nginx\n```\n",  # a service the reader adds
        "```bash\ncat > compose.yaml <<'EOF'\nservices: {}\nEOF\n```\n",  # a file the README writes
    ],
)
def test_a_compose_file_the_readme_shows_or_writes(tmp_path: Path, block: str) -> None:
    text = "# App\n\n" + block + "\n" + readme("docker compose up -d web").removeprefix("# App\n")
    files = {"compose.yaml": COMPOSE, "README.md": text}
    assert found(tmp_path, files) == []


def test_a_compose_command_in_inline_code(tmp_path: Path) -> None:
    text = "# App\n\nStart it with `docker compose up -d web`, or `docker compose up -d api`.\n"
    files = {"compose.yaml": COMPOSE, "README.md": text}
    assert [(line, confidence) for line, _, confidence in found(tmp_path, files)] == [(3, "certain")]


def test_the_default_file_is_the_one_compose_reads_first(tmp_path: Path) -> None:
    # compose reads docker-compose.yml before docker-compose.yaml (compose-go's order)
    files = {
        "docker-compose.yml": "services:\n  web:\n    build: .\n",
        "docker-compose.yaml": "services:\n  api:\n    build: .\n",
        "README.md": readme("docker compose up -d web"),
    }
    assert found(tmp_path, files) == []


def test_the_override_is_the_first_compose_finds_whatever_the_default_files_name(tmp_path: Path) -> None:
    files = {
        "compose.yaml": PLAIN,
        "docker-compose.override.yml": "services:\n  worker:\n    build: .\n",
        "README.md": readme("docker compose up -d worker"),
    }
    assert found(tmp_path, files) == []


def test_a_command_flag_that_shares_a_short_name_with_a_value_option_of_another(tmp_path: Path) -> None:
    """`exec -t` is `--tty` (`up -t` is `--timeout`): the service after it is `api`, not the command."""
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("docker compose exec -t api bash")}
    assert found(tmp_path, files) == []


@pytest.mark.parametrize(
    "command",
    [
        "docker compose up --attach-dependencies api-cpu",  # a flag of `up`
        "docker compose rm -s api-cpu",  # `rm -s` is `--stop` (`kill -s` takes a signal)
        "docker compose --tlscacert ca.pem up api-cpu",  # a global option with a value
        "docker compose logs -f api-cpu",  # `logs -f` is `--follow`, not the global `--file`
    ],
)
def test_a_service_after_an_option_read_by_the_command_s_own_table(tmp_path: Path, command: str) -> None:
    files = {"docker-compose.yml": COMPOSE, "README.md": readme(command)}
    assert [(line, confidence) for line, _, confidence in found(tmp_path, files)] == [(6, "certain")]


def test_a_redirection_ends_the_services(tmp_path: Path) -> None:
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("docker compose logs api-cpu > api.log")}
    assert [message for _, message, _ in found(tmp_path, files)] == [
        "README's compose command names service api-cpu, which docker-compose.yml does not define "
        "(did you mean api?)"
    ]


def test_a_command_substitution_is_one_value_not_services(tmp_path: Path) -> None:
    # The words of `$(stat -c '%g' /dev/dri/card0)` belong to stat; the build names no service. A
    # misspelt service after one is still found.
    files = {
        "docker-compose.yml": COMPOSE,
        "README.md": readme(
            "docker compose build --build-arg GID=$(stat -c '%g' /dev/dri/card0)",
            "docker compose build --build-arg GID=`id -g` --build-arg N=$(nproc) api",
            "docker compose build --build-arg TAG=$(git describe --tags | tr -d v) apii",
            # an apostrophe inside double quotes opens no single quote
            "docker compose build --build-arg MSG=\"it's\" --build-arg GID=$(stat -c '%g' /dev/dri/card0)",
        ),
    }
    assert [(line, confidence) for line, _, confidence in found(tmp_path, files)] == [(8, "certain")]
    assert "service apii" in found(tmp_path, files)[0][1]


ONE = "services:\n  trainer:\n    build: .\n    ports: ['8888:8888']\n"


def program_first(verb: str, program: str, file: str, hint: str) -> str:
    return (
        f"README's docker compose {verb} names service {program}, which {file} does not define: the first "
        f"word after its options is the service, so {program} is taken for one ({hint})"
    )


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("docker compose run --rm --service-ports /bin/bash", "/bin/bash"),
        ("docker compose run -e SEED=1 -v ./data:/data --name t1 -w /work bash", "bash"),
        ("docker-compose exec -u root python3", "python3"),
        ("docker compose run -p 8888:8888 --entrypoint /bin/sh /opt/run.sh", "/opt/run.sh"),
    ],
)
def test_a_program_where_the_service_goes(tmp_path: Path, command: str, program: str) -> None:
    verb = "exec" if " exec " in command else "run"
    files = {"compose.yaml": ONE, "README.md": readme(command)}
    hint = f"did you mean docker compose {verb} … trainer {program}?"
    assert found(tmp_path, files) == [(6, program_first(verb, program, "compose.yaml", hint), "certain")]


def test_a_program_where_the_service_goes_with_several_services(tmp_path: Path) -> None:
    files = {"compose.yaml": COMPOSE, "README.md": readme("docker compose --profile gpu run --rm bash")}
    said = program_first("run", "bash", "compose.yaml", "name one of api, worker before it")
    assert found(tmp_path, files) == [(6, said, "certain")]


def test_a_compose_command_written_as_a_line_of_prose(tmp_path: Path) -> None:
    text = (
        "# App\ngit clone https://example.com/org/app.git\n\n## Try it\n"
        "docker compose run --rm --service-ports /bin/bash\n\n"
        "## Serve\n$ docker compose up trainer --build\n\n"
        "sudo docker-compose up -d trainr\n"
    )
    files = {"compose.yaml": ONE, "README.md": text}
    hint = "did you mean docker compose run … trainer /bin/bash?"
    assert found(tmp_path, files) == [
        (5, program_first("run", "/bin/bash", "compose.yaml", hint), "certain"),
        (
            10,
            "README's compose command names service trainr, which compose.yaml does not define "
            "(did you mean trainer?)",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "docker compose up starts the trainer and its notebook.",  # a sentence
        "docker compose up launches everything you need",  # a word of one
        "docker compose run --rm trainer /bin/bash",  # the service first
        "docker compose -f compose.yaml -f compose.gpu.yaml run --rm gpu bash",  # a file that is not there
        "docker compose up -d",
        "Run docker compose run --rm /bin/bash in the folder",  # not a line that starts with it
        "- docker compose run --rm bash",  # a list item: not read as a command line
        "docker compose run --rm <service> /bin/bash",  # a placeholder
        "docker compose exec $SERVICE bash",
    ],
)
def test_prose_lines_that_are_no_command_or_name_no_missing_service(tmp_path: Path, text: str) -> None:
    files = {"compose.yaml": ONE, "README.md": f"# App\n\n{text}\n"}
    assert found(tmp_path, files) == []


def test_a_program_named_in_an_override_service_is_not_read_as_one(tmp_path: Path) -> None:
    files = {
        "compose.yaml": ONE,
        "compose.override.yaml": "services:\n  bash:\n    image: bash:5\n",
        "README.md": readme("docker compose run --rm bash"),
    }
    assert found(tmp_path, files) == []


def _in_subfolder(root: Path, *commands: str) -> list[tuple[int, str, str]]:
    """The findings for a README in `docker/` beside the compose file, the audit run from `root`."""
    make_tree(root, {"docker/Dockerfile": APP, "docker/docker-compose.yml": COMPOSE})
    (root / "docker" / "README.md").write_text(readme(*commands), encoding="utf-8")
    model = build_model(root / "docker" / "Dockerfile", "docker/Dockerfile")
    text = (root / "docker" / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "docker/README.md", model, {}, root / "docker", root)
        if "compose command" in d.message
    ]


def test_a_cd_back_into_the_readmes_own_folder_reads_its_compose_file(tmp_path: Path) -> None:
    # elsewhere, then into the clone, then into the README's folder: the compose file beside it is read
    assert _in_subfolder(
        tmp_path,
        "cd ~/src",
        "git clone https://example.org/team/app.git",
        "cd app",
        "cd docker",
        "docker compose run apis",
    ) == [
        (
            10,
            "README's compose command names service apis, which docker-compose.yml does not define "
            "(did you mean api?)",
            "certain",
        )
    ]
    assert _in_subfolder(tmp_path, "cd ~/src/app/docker/", "docker compose run apis") != []


@pytest.mark.parametrize(
    "commands",
    [
        ("cd docker", "cd build", "docker compose run apis"),  # left it again
        ("cd ~/src/app/deploy", "docker compose run apis"),  # another folder
        ("cd docker", "cd ..", "docker compose run apis"),
    ],
)
def test_a_cd_that_leaves_the_readmes_folder_still_sets_the_command_aside(
    tmp_path: Path, commands: tuple[str, ...]
) -> None:
    assert _in_subfolder(tmp_path, *commands) == []


def test_a_cd_into_a_folder_named_like_a_root_readme_s_is_still_a_move(tmp_path: Path) -> None:
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("cd docker", "docker compose run apis")}
    assert found(tmp_path, files) == []


def test_the_value_of_an_option_compose_run_does_not_know_is_no_service(tmp_path: Path) -> None:
    # a training guide passing docker run's `--gpus all` to `compose run`; a notebook README `up`
    # with `--shm-size 8g`: the word after an unknown option may be its value, never a service
    files = {
        "docker-compose.yml": COMPOSE,
        "README.md": readme(
            "docker compose run -e DATA_DIR=/data --gpus all api",
            "docker compose up --shm-size 8g api",
            "docker compose exec --cpus 2 api bash",
        ),
    }
    # (`--cpus` is docker run's: compose exec refusing it is the grammar rule's finding, not a service's)
    assert [f for f in found(tmp_path, files) if "no such option" not in f[1]] == []


def test_a_wrong_service_after_an_unknown_option_is_still_told_by_up(tmp_path: Path) -> None:
    # the trap's neighbour: `up` names every service, so the word after the value is still one
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("docker compose up --gpus all apii")}
    assert [line for line, _, _ in found(tmp_path, files)] == [6]
    files = {"docker-compose.yml": COMPOSE, "README.md": readme("docker compose run -e X=1 apii")}
    assert [line for line, _, _ in found(tmp_path, files)] == [6]


TRAINER = """\
services:
  trainer-demo:
    build: .
    volumes: ["./out:/app/out"]
  notebook:
    build: .
    ports: ["8888:8888"]
"""


def test_a_snippet_changing_a_service_does_not_define_it(tmp_path: Path) -> None:
    # a README block that patches a service (`runtime: nvidia`, no image nor build) names no service
    # the reader adds: the command naming it still names one the file lacks
    text = (
        "# Trainer\n\n## Train\n\n```bash\ndocker-compose up model-training\n"
        "docker-compose logs -f model-training\n```\n\n## GPU\n\n```yaml\n# In docker-compose.yaml\n"
        "services:\n  model-training:\n    runtime: nvidia\n```\n"
    )
    files = {"docker-compose.yaml": TRAINER, "README.md": text}
    assert [(line, said[:60]) for line, said, _ in found(tmp_path, files)] == [
        (6, "README's compose command names service model-training, which"),
    ]


def test_a_service_the_readme_shows_whole_is_one_to_add(tmp_path: Path) -> None:
    # trap: a service shown with its own image (or build) is one the reader adds to the file
    text = (
        "# Trainer\n\n```bash\ndocker-compose up tensorboard\n```\n\nAdd to docker-compose.yaml:\n\n"
        "```yaml\nservices:\n  tensorboard:\n    image: tensorflow/tensorflow:2.16.1\n```\n"
    )
    assert found(tmp_path, {"docker-compose.yaml": TRAINER, "README.md": text}) == []


SPEECH = """\
services:
  speech:
    image: acme/speech:cpu
    env_file:
      - path: .env
        required: false
    environment:
      - SPEECH_PORT=9100
      - SPEECH_TLS=${SPEECH_TLS:-true}
      - SPEECH_TOKEN
"""
SPEECH_GPU = """\
services:
  speech:
    image: acme/speech:gpu
    environment:
      - SPEECH_IDLE_TTL=${SPEECH_IDLE_TTL:-300}
"""


def test_variables_set_in_front_of_compose_that_the_file_never_reads(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": SPEECH,
        "docker-compose.gpu.yml": SPEECH_GPU,
        "README.md": readme(
            "SPEECH_IDLE_TTL=600 SPEECH_CACHE=2 docker compose up -d",
            "SPEECH_TLS=false SPEECH_TOKEN=abc docker compose up -d",  # read: `${…}` and `- NAME`
            "COMPOSE_PROJECT_NAME=speech docker compose up -d",  # compose's own
            "SPEECH_IDLE_TTL=600 docker compose -f docker-compose.gpu.yml up -d",  # the file that reads it
        ),
    }
    assert found(tmp_path, files) == [
        (
            6,
            "README sets SPEECH_IDLE_TTL in front of docker compose up, but docker-compose.yml never reads "
            "it (no ${SPEECH_IDLE_TTL}, no environment entry passing it on): the container does not get it; "
            "docker-compose.gpu.yml:5 reads it (add -f docker-compose.gpu.yml)",
            "certain",
        ),
        (
            6,
            "README sets SPEECH_CACHE in front of docker compose up, but docker-compose.yml never reads it "
            "(no ${SPEECH_CACHE}, no environment entry passing it on): the container does not get it",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    ("extra", "command"),
    [
        (
            {".env": "SPEECH_CACHE=${SPEECH_CACHE:-1}\n"},
            "SPEECH_CACHE=2 docker compose up -d",
        ),  # .env reads it
        ({}, "SPEECH_CACHE=2 docker compose exec speech env"),  # no container made
        ({}, "sudo SPEECH_CACHE=2 docker compose up -d"),  # sudo drops it: not read
        ({}, "SPEECH_CACHE=2 ./start.sh && docker compose up -d"),  # set for another command
        (
            {"docker-compose.override.yml": "services:\n  speech:\n    environment:\n      - SPEECH_CACHE\n"},
            "SPEECH_CACHE=2 docker compose up -d",
        ),  # the override file compose reads too passes it on
    ],
)
def test_variables_in_front_that_reach_the_container(
    tmp_path: Path, extra: dict[str, str], command: str
) -> None:
    files = {"docker-compose.yml": SPEECH, **extra, "README.md": readme(command)}
    assert found(tmp_path, files) == []


# `_built_nothing`: `docker compose build SERVICE` of a service that only pulls its `image:`. Modelled on
# two shapes: an inference server whose services all run a published `server-rocm` image (steps say
# "Build the server" anyway), and a web stack whose `proxy` is a stock nginx beside a built `api`.
SERVER = """\
services:
  chat-rocm:
    image: ghcr.io/example/llm-server:server-rocm
    ports: ["8085:8080"]
  chat-cpu:
    image: ghcr.io/example/llm-server:server
    profiles: ["cpu"]
"""


def test_a_build_of_a_service_with_only_an_image(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": SERVER,
        "README.md": readme("docker-compose build chat-rocm", "docker-compose up"),
    }
    assert found(tmp_path, files) == [
        (
            6,
            "README's docker compose build chat-rocm builds nothing: docker-compose.yml:3 gives service "
            "chat-rocm only image: ghcr.io/example/llm-server:server-rocm and no build: section, so compose "
            "skips it (the image is pulled, not built)",
            "certain",
        )
    ]
    files = {"compose.yaml": PLAIN, "README.md": readme("docker compose build api proxy")}
    assert [(line, message.split(":")[0]) for line, message, _ in found(tmp_path / "b", files)] == [
        (6, "README's docker compose build proxy builds nothing")
    ]


@pytest.mark.parametrize(
    ("command", "extra"),
    [
        # a service with a build, or one the override file gives one
        ("docker compose build api", {}),
        ("docker compose build proxy", {"compose.override.yml": "services:\n  proxy:\n    build: ./proxy\n"}),
        # one that extends another (which may build), one of another -f file that builds it
        ("docker compose build edge", {}),
        ("docker compose -f compose.yaml -f compose.dev.yaml build proxy", {}),
        # a pull or an up of the image-only service
        ("docker compose pull proxy", {}),
        ("docker compose up -d proxy", {}),
    ],
)
def test_builds_that_build_or_pull(tmp_path: Path, command: str, extra: dict[str, str]) -> None:
    plain = PLAIN + "  edge:\n    extends:\n      service: api\n"
    dev = "services:\n  proxy:\n    build:\n      context: ./proxy\n"
    files = {"compose.yaml": plain, "compose.dev.yaml": dev, "README.md": readme(command), **extra}
    assert [m for _, m, _ in found(tmp_path, files) if "builds nothing" in m] == []


def test_a_service_the_readme_shows_with_a_build_is_not_told(tmp_path: Path) -> None:
    shown = "\n\nAdd to compose.yaml:\n\n```yaml\nservices:\n  proxy:\n    build: ./proxy\n```\n"
    files = {"compose.yaml": PLAIN, "README.md": readme("docker compose build proxy") + shown}
    assert [m for _, m, _ in found(tmp_path, files) if "builds nothing" in m] == []
