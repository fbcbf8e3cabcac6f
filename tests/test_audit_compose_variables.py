"""`docgen audit`: a README's table of the variables a compose file reads, against the compose files it
runs or that sit near it (docgen/audit/compose_variables.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

WORKER = "FROM python:3.12-slim\nARG TOOLKIT_REF=main\nRUN echo $TOOLKIT_REF\n"
GATEWAY = "FROM nginx:1.27\nCOPY site /srv\n"
STACK = (
    "services:\n"
    "  worker:\n"
    "    build:\n"
    "      context: .\n"
    "      dockerfile: ${WORKER_DOCKERFILE:-worker/Dockerfile}\n"
    "      args:\n"
    "        - TOOLKIT_REF=${TOOLKIT_REF:-main}\n"
    "        - MIRROR_URL=${MIRROR_URL:-https://pypi.org/simple}\n"
    "    environment:\n"
    "      - QUEUE_SIZE=${QUEUE_SIZE:-16}\n"
    "      - LOG_LEVEL=${LOG_LEVEL-info}\n"
    "      - CACHE_DIR=/cache\n"
    "      - API_TOKEN=${API_TOKEN:?set a token}\n"
    "    command: serve --bind ${BIND_HOST:-} --port ${WORKER_PORT:-7000}\n"
    "  gateway:\n"
    "    build: gateway\n"
    "    environment:\n"
    "      - QUEUE_SIZE=${QUEUE_SIZE:-16}\n"
    "      - LOG_LEVEL=${LOG_LEVEL:-warn}\n"
)


def found(
    root: Path, readme: str, files: dict[str, str], at: str = "README.md"
) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {
            "worker/Dockerfile": WORKER,
            "gateway/Dockerfile": GATEWAY,
            "gateway/site/index.html": "",
            at: readme,
            **files,
        },
    )
    model = build_model(root / "worker/Dockerfile", "worker/Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, at, model, {}, (root / at).parent, root)
        if any(w in d.message for w in (" defaults to ", " is a build arg ", " as a variable of "))
    ]


def table(*rows: str, header: str = "| Variable | Default | Used by |") -> str:
    return f"# Stack\n\nThe compose file reads these variables.\n\n{header}\n|---|---|---|\n" + "".join(
        f"{row}\n" for row in rows
    )


TRUE_ROWS = (
    "| `QUEUE_SIZE` | `16` | `worker`, `gateway` |",
    "| `WORKER_PORT` | `7000` | `worker` |",
    "| `CACHE_DIR` | `/cache` | `worker` |",
)


def test_a_default_the_compose_file_gives_otherwise(tmp_path: Path) -> None:
    readme = table(*TRUE_ROWS, "| `LOG_LEVEL` | `debug` | `worker` |")
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (10, "README says LOG_LEVEL defaults to debug, but compose.yaml:11 defaults it to info", "certain")
    ]


@pytest.mark.parametrize("folder", ["docker", "deploy", ""])
def test_compose_files_near_the_readme_are_read(tmp_path: Path, folder: str) -> None:
    readme = table(*TRUE_ROWS, "| `BIND_HOST` | `0.0.0.0` | `worker` |")
    where = f"{folder}/compose.yaml" if folder else "compose.yaml"
    found_ = found(
        tmp_path,
        readme,
        {
            where: STACK.replace(
                "dockerfile: ${WORKER_DOCKERFILE:-worker/Dockerfile}", "dockerfile: worker/Dockerfile"
            )
        },
    )
    assert [(line, confidence) for line, _, confidence in found_] == [(10, "certain")]
    assert found_[0][1].endswith(f"{where}:14 gives it no default (empty)")


def test_the_default_of_one_service_named_in_the_row(tmp_path: Path) -> None:
    # LOG_LEVEL is `info` for worker and `warn` for gateway: a row naming gateway with `warn` is true
    readme = table(
        *TRUE_ROWS, "| `LOG_LEVEL` | `warn` | `gateway` |", "| `LOG_LEVEL` | `warn` | `worker`, `gateway` |"
    )
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (
            11,
            "README says LOG_LEVEL defaults to warn for service worker, but compose.yaml:11 "
            "defaults it to info",
            "certain",
        )
    ]


def test_a_default_the_env_file_sets_is_true(tmp_path: Path) -> None:
    readme = table(*TRUE_ROWS, "| `WORKER_PORT` | `7100` | `worker` |", "| `QUEUE_SIZE` | `64` | |")
    files = {"compose.yaml": STACK, ".env": "WORKER_PORT=7100\n"}
    assert found(tmp_path, readme, files) == [
        (11, "README says QUEUE_SIZE defaults to 64, but compose.yaml:10 defaults it to 16", "certain")
    ]


def test_a_required_variable_has_no_default_to_compare(tmp_path: Path) -> None:
    readme = table(*TRUE_ROWS, "| `API_TOKEN` | `changeme` | `worker` |")
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == []


def test_a_variable_nothing_reads(tmp_path: Path) -> None:
    readme = table(
        *TRUE_ROWS, "| `WORKER_THREADS` | `4` | `worker` |", "| `TOOLKIT_REF` | `main` | `worker` |"
    )
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (
            10,
            "README lists WORKER_THREADS as a variable of compose.yaml, but no service there "
            "reads it (setting it changes nothing)",
            "certain",
        )
    ]


def test_a_variable_the_services_may_read_from_an_env_file(tmp_path: Path) -> None:
    readme = table(*TRUE_ROWS, "| `WORKER_THREADS` | `4` | `worker` |")
    stack = STACK.replace(
        "    environment:\n      - QUEUE", "    env_file: app.env\n    environment:\n      - QUEUE", 1
    )
    assert found(tmp_path, readme, {"compose.yaml": stack}) == []


def test_a_build_arg_the_dockerfile_does_not_declare(tmp_path: Path) -> None:
    readme = table(
        *TRUE_ROWS,
        "| `TOOLKIT_REF` | `main` | `worker.build.args` |",
        "| `MIRROR_URL` | `https://pypi.org/simple` | `worker.build.args` |",
        "| `GPU_ARCH` | `sm_90` | `worker.build.args`, `gateway.build.args` |",
    )
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (
            11,
            "README says MIRROR_URL is a build arg (worker), but worker/Dockerfile declares "
            "no ARG MIRROR_URL "
            "(compose.yaml:8 passes it to worker; it changes nothing)",
            "certain",
        ),
        (
            12,
            "README says GPU_ARCH is a build arg (worker, gateway), but compose.yaml does "
            "not pass it to worker, "
            "and worker/Dockerfile declares no ARG GPU_ARCH; compose.yaml does not pass it to gateway, and "
            "gateway/Dockerfile declares no ARG GPU_ARCH",
            "certain",
        ),
    ]


def test_a_page_in_a_subfolder_runs_the_compose_file_it_names(tmp_path: Path) -> None:
    readme = (
        "# Stack\n\n```bash\ndocker compose -f ops/stack.yml up -d\n```\n\n"
        "| Variable | Default In Compose | Notes |\n|---|---|---|\n"
        "| `QUEUE_SIZE` | `16` | |\n| `WORKER_PORT` | `7000` | |\n| `LOG_LEVEL` | `info` | |\n"
        "| `BIND_HOST` | `localhost` | |\n"
    )
    stack = STACK.replace("context: .", "context: ..").replace("build: gateway", "build: ../gateway")
    assert found(tmp_path, readme, {"ops/stack.yml": stack}, at="wiki/stack.md") == [
        (
            12,
            "README says BIND_HOST defaults to localhost, but ../ops/stack.yml:14 gives it "
            "no default (empty)",
            "certain",
        )
    ]


def test_a_table_of_what_the_application_reads_is_not_compared(tmp_path: Path) -> None:
    readme = table(
        "| `QUEUE_SIZE` | `32` | `worker` |",
        "| `MODEL_NAME` | `tiny` | |",
        "| `MAX_TOKENS` | `512` | |",
        "| `TEMPERATURE` | `0.7` | |",
        header="| Variable | Default | Where |",
    ).replace("The compose file reads these variables.", "The server reads these variables.")
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == []


def test_a_table_of_variables_without_a_compose_file_is_not_read(tmp_path: Path) -> None:
    assert found(tmp_path, table(*TRUE_ROWS, "| `LOG_LEVEL` | `debug` | `worker` |"), {}) == []


@pytest.mark.parametrize(
    "line",
    [
        "- `QUEUE_SIZE` (default: `32`): jobs held before the compose stack refuses more.",
        "With compose, `QUEUE_SIZE` defaults to `32`.",
        "The compose file's `QUEUE_SIZE` default is `32`.",
    ],
)
def test_a_default_said_in_prose(tmp_path: Path, line: str) -> None:
    readme = f"# Stack\n\n{line}\nAnd `WORKER_PORT` defaults to `7000` in the compose file.\n"
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (3, "README says QUEUE_SIZE defaults to 32, but compose.yaml:10 defaults it to 16", "likely")
    ]


def test_a_default_in_prose_not_about_compose_is_not_compared(tmp_path: Path) -> None:
    readme = "# Worker\n\nThe server's `QUEUE_SIZE` defaults to `32` when you run the image yourself.\n"
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == []


def test_every_compose_file_a_command_names_is_read(tmp_path: Path) -> None:
    gpu = "services:\n  worker:\n    environment:\n      - GPU_COUNT=${GPU_COUNT:-1}\n"
    readme = "# Stack\n\n```bash\ndocker compose -f compose.yaml -f compose.gpu.yaml up\n```\n\n" + table(
        *TRUE_ROWS, "| `GPU_COUNT` | `2` | `worker` |", "| `GPU_COUNT` | `1` | `worker` |"
    )
    files = {"compose.yaml": STACK, "compose.gpu.yaml": gpu}
    assert found(tmp_path, readme, files) == [
        (16, "README says GPU_COUNT defaults to 2, but compose.gpu.yaml:4 defaults it to 1", "certain")
    ]


def env_list(*items: str, intro: str = "Edit the `.env` file to customize:") -> str:
    return f"# Stack\n\n## Configuration\n\n{intro}\n\n" + "".join(
        f"- `{item}` - a setting\n" for item in items
    )


def unread(name: str) -> str:
    return (
        f"README says to set {name} in .env, but nothing reads it: no compose file (docker-compose.yml), "
        "Dockerfile or script beside them names it"
    )


def env_found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {
            "worker/Dockerfile": WORKER,
            "gateway/Dockerfile": GATEWAY,
            "README.md": readme,
            "docker-compose.yml": STACK,
            **(files or {}),
        },
    )
    model = build_model(root / "worker/Dockerfile", "worker/Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if " in .env" in d.message
    ]


def test_a_variable_the_readme_says_to_set_in_env_that_nothing_reads(tmp_path: Path) -> None:
    readme = env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI", "TOOLKIT_REF")
    assert env_found(tmp_path, readme) == [(9, unread("ENABLE_WEBUI"), "certain")]
    assert env_found(tmp_path, env_list("QUEUE_SIZE", "WORKER_PORT=7000", "ENABLE_WEBUI=1")) == [
        (9, unread("ENABLE_WEBUI"), "certain")
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the services read an env file: the container may read any variable
        (
            env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI"),
            {"docker-compose.yml": STACK.replace("  gateway:\n", "  gateway:\n    env_file: .env\n")},
        ),
        # a script beside the compose file reads it
        (
            env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI"),
            {"start.sh": '#!/bin/sh\nset -a; . ./.env\n[ "$ENABLE_WEBUI" = 1 ] && docker compose up\n'},
        ),
        # not said to be set in .env
        (env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI", intro="The application reads:"), {}),
        # the application's settings: most of them are not the compose file's
        (env_list("QUEUE_SIZE", "MODEL_NAME", "ENABLE_WEBUI", "THEME"), {}),
    ],
)
def test_env_lists_that_are_not_all_compose_variables(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert env_found(tmp_path, readme, files) == []


def env_block(
    *lines: str, intro: str = "Write a `.env` file beside the compose file:", lang: str = "bash"
) -> str:
    body = "".join(f"{line}\n" for line in lines)
    return f"# Stack\n\n## Settings\n\n{intro}\n\n```{lang}\n{body}```\n"


def test_a_variable_an_env_block_sets_that_nothing_reads(tmp_path: Path) -> None:
    readme = env_block(
        "# where the weights are", "WEIGHTS_DIR=/data/weights", "", "QUEUE_SIZE=8", "WORKER_PORT=7000"
    )
    assert env_found(tmp_path, readme) == [(9, unread("WEIGHTS_DIR"), "certain")]
    assert env_found(
        tmp_path / "b", env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=", lang="env")
    ) == [(10, unread("WEIGHTS_DIR"), "certain")]


def test_an_env_block_half_of_which_the_compose_file_reads(tmp_path: Path) -> None:
    # a local model server: a key renamed in the compose file, a setting it dropped
    readme = env_block(
        "SERVER_API_KEY=",
        "WORKER_THREADS=4",
        "QUEUE_SIZE=8",
        "WORKER_PORT=7000",
        intro="Create a `.env` file beside the compose file. Here is an example `.env` file:",
        lang="env",
    )
    assert env_found(tmp_path, readme) == [
        (8, unread("SERVER_API_KEY"), "certain"),
        (9, unread("WORKER_THREADS"), "certain"),
    ]
    # a list of four, two of which compose reads
    assert env_found(tmp_path / "b", env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI", "UI_THEME")) == [
        (9, unread("ENABLE_WEBUI"), "certain"),
        (10, unread("UI_THEME"), "certain"),
    ]
    # fewer than half read: the application's settings
    assert (
        env_found(tmp_path / "c", env_list("QUEUE_SIZE", "WORKER_PORT", "ENABLE_WEBUI", "UI_THEME", "TONE"))
        == []
    )


@pytest.mark.parametrize(
    "readme",
    [
        # not introduced as the .env file
        env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=/data", intro="Run with these settings:"),
        env_block(
            "QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=/data", intro="The `.env` file holds secrets."
        ),
        # a block that is not only NAME=value lines
        env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=/data", "docker compose up"),
        env_block("export QUEUE_SIZE=8", "export WORKER_PORT=7000", "export WEIGHTS_DIR=/data"),
        env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=$HOME/data"),
        # another language's block
        env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=/data", lang="python"),
        # most of its names are the application's, not the compose file's
        env_block("QUEUE_SIZE=8", "WEIGHTS_DIR=/data", "THEME=dark"),
    ],
)
def test_env_blocks_that_stay_silent(tmp_path: Path, readme: str) -> None:
    assert env_found(tmp_path, readme) == []


EDITED = (
    "# Stack\n\n## Step 4: Configure the environment\n\n```bash\ncp .env.example .env\nnano .env\n```\n\n"
    "Ensure these settings are configured:\n\n```bash\n# tuned for a small board\nQUEUE_SIZE=8\n"
    "WORKER_PORT=7000\nCACHE_CLEAR_INTERVAL=2\n```\n"
)
"""Modelled on a setup guide for a small board: a block edits `.env`, the next one lists its settings."""


def test_an_env_block_under_a_block_that_edits_the_env_file(tmp_path: Path) -> None:
    assert env_found(tmp_path / "a", EDITED) == [(16, unread("CACHE_CLEAR_INTERVAL"), "certain")]
    # traps: the edit is in another section, or the block is not introduced by a line ending in `:`
    other = EDITED.replace("\nEnsure", "\n## Step 5: Tune\n\nEnsure")
    assert env_found(tmp_path / "b", other) == []
    assert env_found(tmp_path / "c", EDITED.replace("configured:", "configured.")) == []
    assert (
        env_found(
            tmp_path / "d",
            EDITED.replace("nano .env", "nano config.yaml").replace("cp .env.example .env\n", ""),
        )
        == []
    )


def test_an_env_block_of_services_reading_an_env_file_is_silent(tmp_path: Path) -> None:
    readme = env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "WEIGHTS_DIR=/data")
    files = {"docker-compose.yml": STACK.replace("  gateway:\n", "  gateway:\n    env_file: .env\n")}
    assert env_found(tmp_path, readme, files) == []


def test_an_env_file_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    # `.env` beside the compose file is a link to a file outside the project: its values are not read,
    # and the row is compared with the compose file's own default (test_a_default_the_env_file_sets_is_true
    # reads the same value from a `.env` inside it)
    readme = table(*TRUE_ROWS, "| `WORKER_PORT` | `7100` | `worker` |")
    make_tree(tmp_path / "outside", {"app.env": "WORKER_PORT=7100\n"})
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / ".env").symlink_to(tmp_path / "outside" / "app.env")
    assert found(tmp_path / "proj", readme, {"compose.yaml": STACK}) == [
        (10, "README says WORKER_PORT defaults to 7100, but compose.yaml:14 defaults it to 7000", "certain")
    ]
    assert found(tmp_path / "in", readme, {"compose.yaml": STACK, ".env": "WORKER_PORT=7100\n"}) == []


def test_a_variable_to_set_in_the_compose_file_spelt_a_slip_away(tmp_path: Path) -> None:
    cache = "      - CACHE_DIR=/cache\n"
    compose = STACK.replace(cache, cache + "      - DEVICE_SELECTOR=gpu:0\n")
    readme = (
        "# Stack\n\nWith two GPUs, set the DEVICE_SELECTER environment variable in the compose file.\n\n"
        # traps: the name the file sets; a name near none; a variable the Dockerfile declares
        "Set `DEVICE_SELECTOR` in the compose file to pick one; the MODEL_MIRROR variable is yours.\n\n"
        "Set the TOOLKIT_REF variable in the compose file to pin the toolkit.\n"
    )
    make_tree(tmp_path, {"worker/Dockerfile": WORKER, "docker-compose.yml": compose, "README.md": readme})
    model = build_model(tmp_path / "worker/Dockerfile", "worker/Dockerfile")
    got = [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)
        if "README says to set" in d.message
    ]
    assert got == [
        (
            3,
            "README says to set DEVICE_SELECTER, which no compose file nor Dockerfile sets or reads; "
            "docker-compose.yml:13 sets DEVICE_SELECTOR (did you mean DEVICE_SELECTOR?)",
            "likely",
        )
    ]


IGNORING = "FROM runtime/base:2.1\nARG SEED_REF=main\nRUN echo $SEED_REF\n"
PASSING = (
    "services:\n"
    "  studio:\n"
    "    build:\n"
    "      context: .\n"
    "      args:\n"
    "        - BASE_IMAGE=${BASE_IMAGE:-vendor/cuda:13.0-devel}\n"
    "        - WHEEL_URL=${WHEEL_URL:-https://example.org/pkg-1.0.whl}\n"
    "        - SEED_REF=${SEED_REF:-main}\n"
    "        - RUNTIME_MODE=fast\n"
    "    environment:\n"
    "      - RUNTIME_MODE=fast\n"
)


def ignored(root: Path, readme: str, dockerfile: str = IGNORING) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "docker-compose.yml": PASSING, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "changes nothing" in d.message
    ]


def test_a_build_arg_compose_passes_and_the_dockerfile_ignores(tmp_path: Path) -> None:
    readme = (
        "# Studio\n\n"
        "## Updating\n\n"
        "When the runtime moves, edit these in `.env`:\n\n"
        "```env\nWHEEL_URL\n```\n\n"
        "For another toolkit change `BASE_IMAGE`, then `docker compose build`.\n\n"
        "`SEED_REF` picks the seed revision; `WHEEL_URL` again.\n"
    )
    assert ignored(tmp_path, readme) == [
        (
            8,
            "README names WHEEL_URL, which docker-compose.yml:7 passes to studio as a build arg; "
            "Dockerfile declares no ARG WHEEL_URL, so setting it changes nothing",
            "likely",
        ),
        (
            11,
            "README names BASE_IMAGE, which docker-compose.yml:6 passes to studio as a build arg; "
            "Dockerfile declares no ARG BASE_IMAGE, so setting it changes nothing",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # a YAML block quotes the compose file: its args as they are, no knob to turn
        ("# S\n\n```yaml\nargs:\n  - WHEEL_URL=x\n```\n\nRun `docker compose up`.\n", IGNORING),
        # a line saying the name is of the past
        ("# S\n\n`BASE_IMAGE` is deprecated; run `docker compose build`.\n", IGNORING),
        # the service sets it in its environment too: a runtime setting
        ("# S\n\nSet `RUNTIME_MODE` before `docker compose up`.\n", IGNORING),
        # the Dockerfile declares it (a global ARG before FROM) or names it some other way
        (
            "# S\n\nEdit `BASE_IMAGE` and `WHEEL_URL`, then `docker compose build`.\n",
            "ARG BASE_IMAGE=vendor/cuda:12.8\nFROM ${BASE_IMAGE}\nRUN pip install ${WHEEL_URL:-pkg}\n",
        ),
        # not named in the README
        ("# S\n\nRun `docker compose up -d`.\n", IGNORING),
    ],
)
def test_build_args_the_readme_may_name(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert ignored(tmp_path, readme, dockerfile) == []


def test_a_build_arg_another_audited_dockerfile_declares(tmp_path: Path) -> None:
    # a build script passes WHEEL_URL to the base image's Dockerfile (audited too), which the service
    # builds on: the README's variable is read there
    base = (
        "FROM vendor/cuda:12.8-devel\n"
        "ARG WHEEL_URL=https://example.org/pkg-1.0.whl\n"
        "RUN pip install $WHEEL_URL\n"
    )
    readme = "# S\n\n- `WHEEL_URL`: the wheel the base image installs (`docker compose build`)\n"
    make_tree(tmp_path, {"Dockerfile": IGNORING, "docker-compose.yml": PASSING, "base/Dockerfile": base})
    models = [
        build_model(tmp_path / "Dockerfile", "Dockerfile"),
        build_model(tmp_path / "base/Dockerfile", "base/Dockerfile"),
    ]
    found = audit(readme, "README.md", models, {}, tmp_path, tmp_path)
    assert [d.message for d in found if "changes nothing" in d.message] == []


SERVE = (
    "services:\n  llm:\n    build: .\n    env_file:\n      - .env\n    ports:\n"
    '      - "${API_PORT:-9090}:9090"\n    environment:\n      - WEIGHTS=/weights/${WEIGHTS_FILE}\n'
    "      - CTX_LEN=${CTX_LEN:-2048}\n"
)
TEMPLATE = (
    "# copy to .env\nAPI_PORT=9090\n\n# weights file (empty: the first found)\nWEIGHTS_FILE=\nCTX_LEN=2048\n"
)


def template_found(
    root: Path, readme: str, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": WORKER, "README.md": readme, "docker-compose.yml": SERVE, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def template_table(
    rows: str, copy: str = "```bash\ncp env.template .env\n```\n", header: str = "Default"
) -> str:
    return (
        f"# Local LLM\n\n## Configuration\n\nSettings live in `.env`:\n\n{copy}\n### Settings\n\n"
        f"| Variable | Description | {header} |\n|---|---|---|\n{rows}"
    )


TEMPLATE_ROWS = "| `API_PORT` | port | `9090` |\n| `CTX_LEN` | context | `2048` |\n"


def test_a_default_the_env_template_the_readme_copies_leaves_empty(tmp_path: Path) -> None:
    readme = template_table(TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n")
    assert template_found(tmp_path, readme, {"env.template": TEMPLATE}) == [
        (
            17,
            "README says WEIGHTS_FILE defaults to tiny-q4.gguf, but env.template:5 sets WEIGHTS_FILE= "
            "(empty)",
            "certain",
        )
    ]


def test_a_default_the_env_template_sets_otherwise(tmp_path: Path) -> None:
    readme = template_table("| `API_PORT` | port | `9090` |\n| `CTX_LEN` | context | `4096` |\n")
    assert [f[1] for f in template_found(tmp_path, readme, {"env.template": TEMPLATE})] == [
        "README says CTX_LEN defaults to 4096, but env.template:6 sets CTX_LEN=2048"
    ]


@pytest.mark.parametrize(
    ("rows", "files", "copy", "header"),
    [
        # the template agrees
        (TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | |\n", {}, None, "Default"),
        # a recommended or example value, not a default
        (TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n", {}, None, "Recommended"),
        (TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n", {}, None, "Example"),
        # no step copies the template to the env file: it is not what compose reads
        (
            TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n",
            {},
            "Edit the settings.\n",
            "Default",
        ),
        # the env file is there: it is read, not the template
        (
            TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n",
            {".env": "WEIGHTS_FILE=tiny-q4.gguf\n"},
            None,
            "Default",
        ),
        # a script of the project fills the empty value with the one the README says
        (
            TEMPLATE_ROWS + "| `WEIGHTS_FILE` | weights | `tiny-q4.gguf` |\n",
            {"start.sh": 'WEIGHTS_FILE="${WEIGHTS_FILE:-tiny-q4.gguf}"\n'},
            None,
            "Default",
        ),
    ],
)
def test_env_template_rows_that_say_nothing(
    tmp_path: Path, rows: str, files: dict[str, str], copy: str | None, header: str
) -> None:
    readme = template_table(rows, header=header) if copy is None else template_table(rows, copy, header)
    assert template_found(tmp_path, readme, {"env.template": TEMPLATE, **files}) == []


GATEWAY_STACK = (
    "services:\n"
    "  llm:\n"
    "    build:\n"
    "      context: ${BUILD_CONTEXT}\n"
    "      dockerfile: ${LLM_DOCKERFILE}\n"
    "    volumes:\n"
    '      - "${MODEL_DIR}:/models"\n'
    "    command: ${LLM_ARGS}\n"
    "  proxy:\n"
    "    image: nginx:1.27\n"
    "    depends_on:\n"
    '      - "${ENABLED_BACKENDS}"\n'
    "    environment:\n"
    "      - PROXY_TOKEN=${PROXY_TOKEN}\n"
    "      - LOG_LEVEL=${LOG_LEVEL:-info}\n"
    "      - EXTRA=${EXTRA_FLAGS:+--verbose}\n"
    "      - ROOT=${PWD}/site\n"
)
"""Modelled on a pair of model servers behind a proxy whose dependency is a variable."""
GATEWAY_ENV = env_block(
    "BUILD_CONTEXT=./",
    "LLM_DOCKERFILE=./llm/Dockerfile",
    'LLM_ARGS="--port 8000 --host 0.0.0.0 -m \\"/models/q5.gguf\\" "',
    "MODEL_DIR=/srv/models",
    "PROXY_TOKEN=change_me",
    intro="1. Create a `.env` file in the root directory and set the following variables:",
    lang="",
)


def unset_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": GATEWAY, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "sets no" in d.message
    ]


def unset(name: str, at: str) -> str:
    return (
        f"README's .env sets no {name}, but {at} reads ${{{name}}} with no default and no env file, script "
        "or command of the README sets it: compose gives it an empty value"
    )


def test_a_variable_the_compose_file_needs_that_the_readme_env_leaves_unset(tmp_path: Path) -> None:
    files = {"docker-compose.yml": GATEWAY_STACK}
    assert unset_found(tmp_path, GATEWAY_ENV, files) == [
        (8, unset("ENABLED_BACKENDS", "docker-compose.yml:12"), "likely")
    ]
    # a monitoring stack: a password the dashboard needs, missing from the block
    monitor = (
        "services:\n  grafana:\n    image: grafana/grafana:11.0.0\n    ports:\n      - ${GRAFANA_PORT}:3000\n"
        "    environment:\n      - GF_SECURITY_ADMIN_PASSWORD=$GRAFANA_PASSWORD\n"
        "      - GF_SERVER_ROOT_URL=${ROOT_URL}\n"
    )
    readme = env_block("GRAFANA_PORT=3000", "ROOT_URL=http://localhost:3000", lang="env")
    assert unset_found(tmp_path / "b", readme, {"compose.yaml": monitor}) == [
        (8, unset("GRAFANA_PASSWORD", "compose.yaml:7"), "likely")
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the README sets it in the shell, or names it in a sentence
        (GATEWAY_ENV + "\n```bash\nexport ENABLED_BACKENDS=llm\ndocker compose up -d\n```\n", {}),
        (GATEWAY_ENV + "\nSet `enabled_backends` to the services you run.\n", {}),
        # an env template beside the compose file names it
        (GATEWAY_ENV, {".env.example": "ENABLED_BACKENDS=llm\n"}),
        # a script beside the compose file sets it
        (GATEWAY_ENV, {"start.sh": "#!/bin/sh\nexport ENABLED_BACKENDS=llm\ndocker compose up -d\n"}),
        # a default for it
        (
            GATEWAY_ENV,
            {"docker-compose.yml": GATEWAY_STACK.replace("${ENABLED_BACKENDS}", "${ENABLED_BACKENDS:-llm}")},
        ),
        # the block is not introduced as the .env file
        (GATEWAY_ENV.replace("Create a `.env` file in", "Pick values in"), {}),
        # the block is an example, or optional: what it leaves out is not said to be set
        (GATEWAY_ENV.replace("and set the following", "like this example, with the following"), {}),
        (GATEWAY_ENV.replace("## Settings", "## Environment setup (optional)"), {}),
    ],
)
def test_variables_left_out_of_the_readme_env_but_set(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert unset_found(tmp_path, readme, {"docker-compose.yml": GATEWAY_STACK, **files}) == []


# A wrapper script beside the compose file that picks the services and exports the variable for its
# own compose run (as stacks of model servers behind one proxy do), while the README also runs compose
# directly, where nothing sets it.
GATEWAY_UP = (
    "#!/bin/sh\nset -a\n. ./.env\nset +a\nbackends=llm\n"
    'export ENABLED_BACKENDS="$backends"\n'
    "docker compose -f docker-compose.yml --profile llm up -d\n"
)
GATEWAY_DIRECT = (
    GATEWAY_ENV
    + "\n## Run\n\n```bash\ndocker compose -f docker-compose.yml --profile llm up -d\n```\n\n"
    + "Or let the script pick the services:\n\n```bash\n./gateway-up.sh\n```\n"
)


def bypassed(name: str, at: str, scripts: str, line: int) -> str:
    one = "," not in scripts and " and " not in scripts
    return (
        f"README's .env sets no {name}, but {at} reads ${{{name}}} with no default and only {scripts}, "
        f"which {'runs compose itself, sets' if one else 'run compose themselves, set'} it, while README "
        f"runs docker compose up (line {line}) not through {'it' if one else 'them'}: compose gives it an "
        "empty value"
    )


def test_a_variable_only_a_wrapper_script_sets_for_its_own_compose_run(tmp_path: Path) -> None:
    files = {"docker-compose.yml": GATEWAY_STACK, "gateway-up.sh": GATEWAY_UP}
    assert unset_found(tmp_path, GATEWAY_DIRECT, files) == [
        (8, bypassed("ENABLED_BACKENDS", "docker-compose.yml:12", "gateway-up.sh", 18), "likely")
    ]
    # a media stack: two wrappers (one a GPU), each exporting the transcoder list; the README runs
    # compose in its default file
    media = (
        "services:\n  web:\n    image: nginx:1.27\n    ports:\n      - ${WEB_PORT}:80\n"
        "    volumes:\n      - ${MEDIA_ROOT}:/srv/media\n    depends_on:\n      - ${TRANSCODERS}\n"
    )
    wrapper = "#!/bin/bash\nexport TRANSCODERS=ffmpeg-{0}\ndocker-compose up -d\n"
    readme = (
        env_block("WEB_PORT=8080", "MEDIA_ROOT=/srv/media", lang="env")
        + "\n```bash\ndocker-compose up -d\n```\n"
    )
    found = unset_found(
        tmp_path / "b",
        readme,
        {"compose.yaml": media, "up-cpu.sh": wrapper.format("cpu"), "up-gpu.sh": wrapper.format("gpu")},
    )
    assert found == [(8, bypassed("TRANSCODERS", "compose.yaml:9", "up-cpu.sh and up-gpu.sh", 13), "likely")]


def test_a_wrapper_script_above_a_readme_that_starts_compose_from_there(tmp_path: Path) -> None:
    # the README sits in docs/ and starts the project's compose file from the folder above it: that
    # start is the README's own, as one in its own folder is
    readme = GATEWAY_DIRECT.replace("```bash\ndocker compose", "```bash\ncd ..\ndocker compose")
    files = {"docker-compose.yml": GATEWAY_STACK, "gateway-up.sh": GATEWAY_UP, "Dockerfile": GATEWAY}
    make_tree(tmp_path, {"docs/README.md": readme, **files})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "docs/README.md", model, {}, tmp_path / "docs", tmp_path)
        if "sets no" in d.message
    ]
    assert found == [
        (8, bypassed("ENABLED_BACKENDS", "../docker-compose.yml:12", "gateway-up.sh", 19), "likely")
    ]


@pytest.mark.parametrize(
    ("readme", "script"),
    [
        # the README only runs the script
        (GATEWAY_ENV + "\n```bash\n./gateway-up.sh\n```\n", GATEWAY_UP),
        # the README sources the script before its own compose command
        (
            GATEWAY_DIRECT.replace("```bash\ndocker compose", "```bash\n. ./gateway-up.sh\ndocker compose"),
            GATEWAY_UP,
        ),
        # the script writes the .env the README's compose command reads after it
        (
            GATEWAY_DIRECT,
            GATEWAY_UP.replace("docker compose", 'echo "ENABLED_BACKENDS=llm" >> .env\ndocker compose'),
        ),
        # the script only reads it (it expects the user to set it)
        (
            GATEWAY_DIRECT,
            GATEWAY_UP.replace('export ENABLED_BACKENDS="$backends"\n', 'echo "$ENABLED_BACKENDS"\n'),
        ),
        # the script sets it but runs no compose: the README's commands run after it may see it
        (GATEWAY_DIRECT, 'export ENABLED_BACKENDS=llm\necho "set"\n'),
    ],
)
def test_a_variable_a_script_may_set_for_the_readme_commands(
    tmp_path: Path, readme: str, script: str
) -> None:
    files = {"docker-compose.yml": GATEWAY_STACK, "gateway-up.sh": script}
    assert unset_found(tmp_path, readme, files) == []


def _env_found(
    root: Path, readme: str, files: dict[str, str], words: tuple[str, ...]
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.12-slim\nENV BIND=0.0.0.0\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if any(w in d.message for w in words)
    ]


ONLY = ("changes nothing",)
INDEXER = (
    "services:\n"
    "  indexer:\n"
    "    build: .\n"
    "    volumes:\n"
    "      - ./corpus:/srv/corpus\n"
    "      - ${CACHE_ROOT:-./cache}:/srv/cache\n"
    "    env_file:\n"
    "      - runtime.env\n"
)


def test_variables_of_a_compose_env_file_no_compose_file_reads(tmp_path: Path) -> None:
    readme = (
        "# Indexer\n\n## Compose\n\n"
        "1. Write `stack.env` beside `compose.yaml` with these variables:\n"
        "    ```sh\n    CORPUS_DIR=/data/corpus\n    CACHE_ROOT=/data/cache\n    ```\n\n"
        "2. Start it:\n"
        "    ```sh\n    docker compose --env-file stack.env up -d\n    ```\n"
    )
    got = _env_found(tmp_path, readme, {"compose.yaml": INDEXER}, ONLY)
    assert len(got) == 1
    line, message, confidence = got[0]
    assert (line, confidence) == (7, "certain")
    assert "CORPUS_DIR" in message and "CACHE_ROOT" not in message and "line 13" in message


@pytest.mark.parametrize(
    "readme",
    [
        # the env file is also passed to the container
        "Create `runtime.env` with:\n\n```env\nCORPUS_DIR=/data\nWORKERS=4\n```\n\n"
        "```sh\ndocker compose --env-file runtime.env up\n```\n",
        # Compose's own variables
        "Create `stack.env` with:\n\n```env\nCOMPOSE_PROJECT_NAME=idx\nCACHE_ROOT=/c\n```\n\n"
        "```sh\ndocker compose --env-file stack.env up\n```\n",
        # a block introduced as another file
        "Create `.env.local` with:\n\n```env\nCORPUS_DIR=/data\n```\n\n"
        "```sh\ndocker compose --env-file stack.env up\n```\n",
        # no --env-file run
        "Create `stack.env` with:\n\n```env\nCORPUS_DIR=/data\n```\n\n```sh\ndocker compose up\n```\n",
    ],
)
def test_compose_env_files_that_stay_silent(tmp_path: Path, readme: str) -> None:
    assert _env_found(tmp_path, "# Indexer\n\n" + readme, {"compose.yaml": INDEXER}, ONLY) == []


def test_a_script_beside_compose_that_reads_the_variable(tmp_path: Path) -> None:
    readme = (
        "# Indexer\n\nCreate `stack.env` with:\n\n```env\nCORPUS_DIR=/data\n```\n\n"
        "```sh\ndocker compose --env-file stack.env up\n```\n"
    )
    files = {"compose.yaml": INDEXER, "up.sh": "source stack.env\nmkdir -p $CORPUS_DIR\n"}
    assert _env_found(tmp_path, readme, files, ONLY) == []


LOOPBACK = ("listens on loopback only",)
LLM_HOST = (
    "services:\n"
    "  llm:\n"
    "    build: .\n"
    "    environment:\n"
    "      - LLM_LISTEN=127.0.0.1\n"
    "      - LLM_VERBOSE=1\n"
    "    network_mode: host\n"
)
LLM_BRIDGE = (
    "services:\n"
    "  llm:\n"
    "    build: .\n"
    "    ports:\n"
    '      - "9090:9090"\n'
    "    environment:\n"
    "      LLM_LISTEN: localhost:9090\n"
)
LLM_TABLE = (
    "# LLM box\n\n```bash\ndocker compose up -d\n```\n\nThen open `http://<server-ip>:9090`.\n\n"
    "| Variable | Default | Description |\n|---|---|---|\n"
    "| `LLM_LISTEN` | `0.0.0.0:9090` | Listen address |\n| `LLM_VERBOSE` | `0` | Debug logs |\n"
)


@pytest.mark.parametrize(("compose", "why"), [(LLM_HOST, "network_mode: host"), (LLM_BRIDGE, "9090:9090")])
def test_a_listen_address_compose_sets_to_loopback(tmp_path: Path, compose: str, why: str) -> None:
    got = _env_found(tmp_path, LLM_TABLE, {"compose.yml": compose}, LOOPBACK)
    assert len(got) == 1
    line, message, confidence = got[0]
    assert (line, confidence) == (11, "likely")
    assert "compose.yml:" in message and why in message


@pytest.mark.parametrize(
    ("readme", "compose"),
    [
        # the README itself says to keep it on loopback
        (LLM_TABLE + "\nSet `LLM_LISTEN=127.0.0.1` to keep it local.\n", LLM_HOST),
        # a service that publishes nothing and is on its own network
        (LLM_TABLE, LLM_HOST.replace("    network_mode: host\n", "")),
        # the README never starts compose
        (LLM_TABLE.replace("docker compose up -d", "docker run --rm -p 9090:9090 llm"), LLM_HOST),
        # compose keeps every address
        (LLM_TABLE, LLM_HOST.replace("127.0.0.1", "0.0.0.0")),
    ],
)
def test_listen_addresses_that_stay_silent(tmp_path: Path, readme: str, compose: str) -> None:
    assert _env_found(tmp_path, readme, {"compose.yml": compose}, LOOPBACK) == []


EXCERPT = (" as in ",)
WHISPER = (
    "services:\n"
    "  api:\n"
    "    build: .\n"
    "    environment:\n"
    "      - DB_HOST=db        # uncomment to use the database\n"
    "      - DB_NAME=jobs\n"
    "      - DB_USER=postgres\n"
    "      - DB_PASS=postgres\n"
    "  db:\n"
    "    image: postgres:16\n"
    "    environment:\n"
    "      - POSTGRES_USER=postgres\n"
    "      - POSTGRES_PASSWORD=postgres\n"
)


def _excerpt(intro: str) -> str:
    return (
        "# Jobs\n\n## Storage\n\n"
        f"{intro}\n\n```yaml\n- DB_HOST=db\n- DB_NAME=jobs\n- DB_USER=jobs\n- DB_PASS=jobspass\n```\n"
    )


def test_an_excerpt_of_the_compose_file_with_other_values(tmp_path: Path) -> None:
    readme = _excerpt("To use the database, uncomment these variables in docker-compose.yml:")
    got = _env_found(tmp_path, readme, {"docker-compose.yml": WHISPER}, EXCERPT)
    assert [(line, confidence) for line, _, confidence in got] == [(10, "certain"), (11, "certain")]
    assert "docker-compose.yml:7 sets DB_USER=postgres" in got[0][1]


@pytest.mark.parametrize(
    "intro",
    [
        "Change these values in docker-compose.yml to your own:",
        "For example, in docker-compose.yml:",
        "Set these variables in your environment:",  # not said to be the compose file
    ],
)
def test_excerpts_that_stay_silent(tmp_path: Path, intro: str) -> None:
    assert _env_found(tmp_path, _excerpt(intro), {"docker-compose.yml": WHISPER}, EXCERPT) == []


def test_an_excerpt_sharing_no_value_is_not_the_file(tmp_path: Path) -> None:
    readme = "# Jobs\n\nAdd to docker-compose.yml:\n\n```yaml\n- DB_USER=alice\n- DB_PASS=wonderland\n```\n"
    assert _env_found(tmp_path, readme, {"docker-compose.yml": WHISPER}, EXCERPT) == []


def test_a_variable_only_a_profile_compose_file_below_reads(tmp_path: Path) -> None:
    # a monitoring profile (`profiles/monitoring.yml`) the reader adds with `-f`: no default name
    readme = env_block("QUEUE_SIZE=8", "WORKER_PORT=7000", "GRAFANA_PORT=3001", "PROM_PORT=9090")
    profile = "services:\n  grafana:\n    image: grafana/grafana\n    ports:\n"
    profile += "      - ${GRAFANA_PORT:-3001}:3000\n"
    assert env_found(tmp_path, readme, {"profiles/monitoring.yml": profile}) == [
        (11, unread("PROM_PORT"), "certain")
    ]
    # a hidden folder's YAML (a CI workflow) is no compose file the reader runs
    assert env_found(tmp_path / "b", readme, {".github/workflows/ci.yml": profile}) == [
        (10, unread("GRAFANA_PORT"), "certain"),
        (11, unread("PROM_PORT"), "certain"),
    ]


# -- a volume whose host side is a variable nothing sets for the README's compose run (`_empty_sources`) --

# Modelled on a notebook image's compose file: the workspace folder is mounted from a variable that only
# the repository's start script exports before it runs compose itself.
NOTEBOOK = (
    "services:\n"
    "  lab:\n"
    "    build: .\n"
    "    ports:\n"
    '      - "8890:8890"\n'
    "    volumes:\n"
    "      - ${WORKSPACE_DIR}:/mnt/\n"
    "      - ${HOME}/.cache:/root/.cache\n"
    "      - ${DATA_ROOT:-./data}:/data\n"
    "  extra:\n"
    "    image: busybox\n"
    "    profiles: [debug]\n"
    "    volumes:\n"
    "      - ${DEBUG_DIR}:/debug\n"
)
START = (
    '#!/bin/bash\nDIR="$(cd "$(dirname "$0")" && pwd)"\nexport WORKSPACE_DIR=$DIR\n'
    "docker-compose up -d --build\n"
)
# Modelled on a media server's compose file whose models folder is read from a variable with no default.
MEDIA = 'services:\n  media:\n    image: lab/media:2\n    volumes:\n      - "$MODELS:/models:ro"\n'


def empty_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.12-slim\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "volume's host path" in d.message
    ]


def test_a_volume_from_a_variable_only_a_script_sets(tmp_path: Path) -> None:
    readme = "# Lab\n\nTo start:\n    with compose: docker compose up -d --build\n\n    or: bash start.sh\n"
    files = {"docker-compose.yaml": NOTEBOOK, "start.sh": START}
    assert empty_found(tmp_path, readme, files) == [
        (
            4,
            "README runs docker compose up, but docker-compose.yaml:7 mounts ${WORKSPACE_DIR} as a volume's "
            "host path with no default, and no env file or command of the README sets WORKSPACE_DIR (only "
            "start.sh, which runs compose itself, sets it): compose reads the volume as :/mnt/ and refuses "
            "the file (invalid spec: empty section between colons)",
            "certain",
        )
    ]


def test_a_volume_from_a_variable_nothing_sets(tmp_path: Path) -> None:
    readme = "# Media\n\n```bash\ndocker compose up -d\n```\n"
    assert empty_found(tmp_path, readme, {"compose.yaml": MEDIA}) == [
        (
            4,
            "README runs docker compose up, but compose.yaml:5 mounts ${MODELS} as a volume's host path with "
            "no default, and no env file or command of the README sets MODELS: compose reads the volume as "
            ":/models:ro and refuses the file (invalid spec: empty section between colons)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the README names the variable (an export, a value in front of the command, a sentence)
        ("# Media\n\n```bash\nexport MODELS=/srv/models\ndocker compose up -d\n```\n", {}),
        ("# Media\n\n```bash\nMODELS=/srv/models docker compose up -d\n```\n", {}),
        ("# Media\n\nSet `MODELS` to your weights' folder.\n\n```bash\ndocker compose up -d\n```\n", {}),
        # an env file there sets it, or the README passes one
        ("# Media\n\n```bash\ndocker compose up -d\n```\n", {".env": "MODELS=/srv/models\n"}),
        ("# Media\n\n```bash\ncp .env.example .env\ndocker compose up\n```\n", {".env.example": "MODELS=\n"}),
        ("# Media\n\n```bash\ndocker compose --env-file prod.env up -d\n```\n", {}),
        # a script the README sources, or one that writes the env file compose reads
        ("# Media\n\n```bash\nsource ./env.sh\ndocker compose up\n```\n", {"env.sh": "export MODELS=/m\n"}),
        # the README starts it only through the script, or another compose file
        ("# M\n\n```bash\n./start.sh\n```\n", {"start.sh": "#!/bin/sh\nexport MODELS=/m\ndocker compose up"}),
        ("# Media\n\n```bash\ndocker compose -f other.yaml up -d\n```\n", {"other.yaml": "services: {}\n"}),
    ],
)
def test_volumes_from_variables_that_are_set(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert empty_found(tmp_path, readme, {"compose.yaml": MEDIA, **files}) == []


def test_volumes_with_a_default_a_path_after_or_in_a_profile(tmp_path: Path) -> None:
    # `${HOME}/.cache` and `${DATA_ROOT:-./data}` are set or defaulted; `${DEBUG_DIR}` is in a profile
    readme = "# Lab\n\n```bash\nexport WORKSPACE_DIR=$PWD\ndocker compose up -d\n```\n"
    assert empty_found(tmp_path, readme, {"docker-compose.yaml": NOTEBOOK}) == []


# Modelled on a ROCm serving stack whose compose file adds the host's render group from a variable that
# only the start script beside it computes before it runs compose itself.
RENDER = (
    "services:\n  infer:\n    build: .\n    group_add:\n      - $RENDER_GID\n"
    "    environment:\n      - LOG=${LOG_LEVEL:+debug}\n"
)
RENDER_START = (
    "#!/bin/bash\nRENDER_GID=$(getent group render | cut -d: -f3)\n"
    "RENDER_GID=$RENDER_GID docker compose up -d\n"
)


def script_set_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.12-slim\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "an empty value" in d.message
    ]


def test_a_variable_only_the_start_script_sets(tmp_path: Path) -> None:
    readme = "# Infer\n\n```bash\ndocker compose up -d\n```\n"
    assert script_set_found(tmp_path, readme, {"compose.yaml": RENDER, "up.sh": RENDER_START}) == [
        (
            4,
            "README runs docker compose up, but compose.yaml:5 reads $RENDER_GID with no default "
            "(- $RENDER_GID), and no env file or command of the README sets it; up.sh, which runs compose "
            "itself, sets it, while README runs docker compose up (line 4) not through it: run as the README "
            "says, compose gives RENDER_GID an empty value",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        ("# Infer\n\n```bash\n./up.sh\n```\n", {"up.sh": RENDER_START}),  # started through the script
        ("# Infer\n\n```bash\nexport RENDER_GID=110\ndocker compose up -d\n```\n", {"up.sh": RENDER_START}),
        ("# Infer\n\n```bash\ndocker compose up -d\n```\n", {}),  # no script sets it: not this rule's to say
        (
            "# Infer\n\n```bash\ndocker compose up -d\n```\n",
            {"up.sh": RENDER_START, ".env": "RENDER_GID=110\n"},
        ),
    ],
)
def test_a_variable_the_readme_run_gets(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert script_set_found(tmp_path, readme, {"compose.yaml": RENDER, **files}) == []
