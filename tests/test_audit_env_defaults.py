"""`docgen.audit.env_defaults`: defaults a README gives the environment variables of a container (a
`Default` column or `default is …` in a table of environment variables, `` `NAME=VALUE` by default ``
in a sentence) against the value the image's ENV sets. Planted drifts and the nearest true statements
as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


SERVER = """\
FROM python:3.11-slim AS build
ENV PORT=5000

FROM python:3.11-slim
ARG UTIL=0.90
ENV PORT=8080 \\
    GPU_MEMORY_UTILIZATION=${UTIL} \\
    PIN_MEMORY=1 \\
    LOG_LEVEL=info
CMD ["python", "serve.py"]
"""

TABLE = """\
# Server

## Environment variables

| Variable | Default | Description |
|---|---|---|
| `PORT` | `8000` | port to serve on |
| `GPU_MEMORY_UTILIZATION` | `0.9` | fraction of memory |
| `LOG_LEVEL` | `INFO` | log level |
| `HF_TOKEN` | *(none)* | token |
| `MODEL` | `qwen` | model to serve |
"""


def test_a_default_column_against_env(tmp_path: Path) -> None:
    # PORT is 8080 in the image built (5000 is another stage's); 0.9 is 0.90, INFO is info; HF_TOKEN
    # and MODEL the image does not set
    assert _audit(tmp_path, TABLE, SERVER) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (certain)"
    ]


DESCRIBED = """\
# Server

The following options are set with environment variables:

| Env Name | Description |
| --- | --- |
| PORT | OPTIONAL, the port to use for serving, default is 8000 |
| LOG_LEVEL | OPTIONAL, default is info |
"""


def test_a_default_in_a_description_cell(tmp_path: Path) -> None:
    assert _audit(tmp_path, DESCRIBED, SERVER) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (certain)"
    ]


PROSE = """\
# Server

Runtime images set `PIN_MEMORY=0` by default. Pass `-e PIN_MEMORY=1` to turn it on.

The image sets `LOG_LEVEL=info` by default.

If you run it behind a proxy, `PORT=80` is the default there.
"""


def test_a_default_said_in_a_sentence(tmp_path: Path) -> None:
    # the value to pass (-e), the one that agrees and a condition are not findings
    assert _audit(tmp_path, PROSE, SERVER) == [
        "3: README says PIN_MEMORY defaults to 0 but Dockerfile:6 sets ENV PIN_MEMORY=1 (certain)"
    ]


def test_a_script_that_starts_the_container_makes_it_likely(tmp_path: Path) -> None:
    scripted = SERVER.replace('CMD ["python", "serve.py"]', 'ENTRYPOINT ["/entrypoint.sh"]')
    assert _audit(tmp_path, TABLE, scripted) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (likely)"
    ]


def test_a_table_not_about_the_environment_is_not_read(tmp_path: Path) -> None:
    options = TABLE.replace("## Environment variables", "## Script options")
    assert _audit(tmp_path, options, SERVER) == []


# --------------------------------------------------------------------------------------------------
# `` - `NAME=VALUE` - … `` items of a list under an environment-variables heading

SETS_LIST = """\
# Server

## Environment Variables

- `PORT=8080` - port to serve on
- `PIN_MEMORY=0` - pin host memory
- `LOG_LEVEL=info` - log level
"""


def test_a_listed_value_the_env_sets_otherwise_is_found(tmp_path: Path) -> None:
    assert _audit(tmp_path, SETS_LIST, SERVER) == [
        "6: README says PIN_MEMORY defaults to 0 but Dockerfile:6 sets ENV PIN_MEMORY=1 (certain)"
    ]


def test_a_list_of_values_to_pass_that_mirrors_no_env_is_left_alone(tmp_path: Path) -> None:
    # examples of what a user may set: no item is the image's own value
    examples = SETS_LIST.replace("`PORT=8080`", "`PORT=9000`").replace(
        "`LOG_LEVEL=info`", "`LOG_LEVEL=debug`"
    )
    assert _audit(tmp_path, examples, SERVER) == []


def test_a_list_under_a_heading_about_compose_or_the_host_is_not_the_image_s(tmp_path: Path) -> None:
    compose = SETS_LIST.replace("## Environment Variables", "## Environment variables of the compose file")
    assert _audit(tmp_path, compose, SERVER) == []


TRAINER = """\
FROM example/train-base:25.01
ENV LAUNCHER_VERSION=25.02 \\
    RECIPES_VERSION=24.05 \\
    TRAINER_COMMIT=4c1d2e3f5a6b7c8d9e0f11223344556677889900
WORKDIR /trainer
"""

VALUES_LIST = """\
# Trainer image

## Environment Variables

The following environment variables are pre-configured:

- **LAUNCHER_VERSION**: {launcher}
- **RECIPES_VERSION**: 24.05
- `TRAINER_COMMIT`: `{commit}`
"""


def test_a_list_of_names_and_values_the_env_sets_otherwise_is_found(tmp_path: Path) -> None:
    readme = VALUES_LIST.format(launcher="24.12", commit="0a9b8c7")
    assert _audit(tmp_path, readme, TRAINER) == [
        "7: README says LAUNCHER_VERSION defaults to 24.12 but Dockerfile:2 sets ENV LAUNCHER_VERSION=25.02"
        " (certain)",
        "9: README says TRAINER_COMMIT defaults to 0a9b8c7 but Dockerfile:2 sets ENV"
        " TRAINER_COMMIT=4c1d2e3f5a6b7c8d9e0f11223344556677889900 (certain)",
    ]


def test_a_short_commit_that_begins_the_env_s_is_the_same(tmp_path: Path) -> None:
    readme = VALUES_LIST.format(launcher="25.02", commit="4c1d2e3")
    assert _audit(tmp_path, readme, TRAINER) == []


def test_names_with_descriptions_or_values_of_no_env_are_left_alone(tmp_path: Path) -> None:
    described = """\
# Trainer image

## Environment Variables

- **LAUNCHER_VERSION**: the launcher release to check out
- **RECIPES_VERSION**: 24.05 unless you pass another
- **TRAINER_COMMIT**: required
"""
    assert _audit(tmp_path, described, TRAINER) == []
    # values to pass, none of them the image's: examples, not what it sets
    examples = VALUES_LIST.format(launcher="24.12", commit="0a9b8c7").replace("24.05", "23.11")
    assert _audit(tmp_path, examples, TRAINER) == []
    # a list of the same shape under another heading is not about the environment
    other = VALUES_LIST.format(launcher="24.12", commit="0a9b8c7")
    other = other.replace("## Environment Variables", "## Releases")
    assert _audit(tmp_path, other, TRAINER) == []


ROCM = """\
FROM rocm/dev-ubuntu-22.04:6.0.2
ENV HF_HOME=/root/.cache/hf
CMD ["python3", "-m", "app"]
"""
CPU = """\
FROM python:3.11-slim
ENV HF_HOME=/root/.cache/hf \\
    FORCE_GPU=false
CMD ["python3", "-m", "app"]
"""
CUDA = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
ENV HF_HOME=/root/.cache/hf \\
    FORCE_GPU=true
CMD ["python3", "-m", "app"]
"""
VARIANTS = """\
# Image variants

## Variants

### 1. ROCm Variant (Default)

**File:** `Dockerfile`

### 2. CPU Variant

**File:** `Dockerfile.cpu`

### 3. CUDA Variant

**File:** `Dockerfile.cuda`

## Environment Variables

### All Variants

- `HF_HOME=/root/.cache/hf` - cache

### ROCm Variant

- `FORCE_GPU=true` - use the GPU

### CPU Variant

- `FORCE_GPU=false` - CPU only

### CUDA Variant

- `FORCE_GPU=true` - use the GPU
"""


def _family(tmp_path: Path, readme: str) -> list[str]:
    files = {"Dockerfile": ROCM, "Dockerfile.cpu": CPU, "Dockerfile.cuda": CUDA, "README.md": readme}
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / p, p) for p in files if p != "README.md"]
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, tmp_path)
    ]


def test_a_variant_s_list_naming_a_variable_only_its_siblings_set_is_found(tmp_path: Path) -> None:
    # `### ROCm Variant` is about what `### 1. ROCm Variant (Default)` is: `**File:** `Dockerfile``
    assert _family(tmp_path, VARIANTS) == [
        "25: README says Dockerfile sets FORCE_GPU=true, but it sets no FORCE_GPU (Dockerfile.cuda:2 does)"
        " (certain)"
    ]


def test_each_variant_s_list_that_matches_its_own_file_is_clean(tmp_path: Path) -> None:
    fixed = VARIANTS.replace("### ROCm Variant\n\n- `FORCE_GPU=true` - use the GPU\n\n", "")
    assert _family(tmp_path, fixed) == []


def test_a_value_another_variant_sets_is_found_under_the_variant_it_is_wrong_for(tmp_path: Path) -> None:
    swapped = VARIANTS.replace("- `FORCE_GPU=false` - CPU only", "- `FORCE_GPU=true` - CPU only")
    assert (
        "29: README says FORCE_GPU defaults to true but Dockerfile.cpu:2 sets ENV FORCE_GPU=false (certain)"
        in (_family(tmp_path, swapped))
    )


# --------------------------------------------------------------------------------------------------
# Defaults the command a container starts with reads a variable with

STARTED = """\
FROM vllm/vllm-openai:v0.9.0
ENV PORT=8000
ENTRYPOINT python3 -m vllm.entrypoints.openai.api_server \\
    --port ${PORT:-9000} \\
    --model ${MODEL_NAME:-acme/chat-7b} \\
    ${REVISION:+--revision "$REVISION"}
"""
STARTED_TABLE = """\
# Server

## Environment variables

| Variable | Default | Description |
|---|---|---|
| `MODEL_NAME` | `{model}` | model to serve |
| `PORT` | `8000` | port |
| `REVISION` | *(none)* | model revision |
"""


def test_a_default_the_started_command_reads_a_variable_with_is_compared(tmp_path: Path) -> None:
    assert _audit(tmp_path, STARTED_TABLE.format(model="acme/chat-2b"), STARTED) == [
        "7: README says MODEL_NAME defaults to acme/chat-2b but Dockerfile:3 starts the container with "
        "${MODEL_NAME:-acme/chat-7b} (certain)"
    ]
    # the right default; and `PORT`, which ENV sets (8000), not the expansion's 9000
    assert _audit(tmp_path, STARTED_TABLE.format(model="acme/chat-7b"), STARTED) == []


def test_an_exec_form_command_expands_nothing_but_a_shell_s_c_does(tmp_path: Path) -> None:
    exec_form = (
        'FROM python:3.11-slim\nCMD ["python", "serve.py", "--model", "${MODEL_NAME:-acme/chat-7b}"]\n'
    )
    # no default to compare (the exec form's is never taken); audit/exec_vars.py says so instead
    assert _audit(tmp_path, STARTED_TABLE.format(model="acme/chat-2b"), exec_form) == [
        "7: README documents MODEL_NAME as a setting of the container, but Dockerfile:2 reads it only in its "
        'exec-form CMD (["python", "serve.py", "--model", "${MODEL_NA…), which expands no variables: the '
        "program gets the literal text ${MODEL_NAME:-acme/chat-7b} (certain)"
    ]
    shell_c = (  # (REVISION read too: a variable of the table nothing reads is audit/unread_env.py's)
        'FROM python:3.11-slim\nCMD ["sh", "-c", "python serve.py --model ${MODEL_NAME:-acme/chat-7b} '
        '${REVISION:+--revision $REVISION}"]\n'
    )
    assert _audit(tmp_path, STARTED_TABLE.format(model="acme/chat-2b"), shell_c) == [
        "7: README says MODEL_NAME defaults to acme/chat-2b but Dockerfile:2 starts the container with "
        "${MODEL_NAME:-acme/chat-7b} (certain)"
    ]


def test_a_default_of_a_stage_the_image_does_not_start_with_is_not_compared(tmp_path: Path) -> None:
    staged = "FROM python:3.11-slim AS tool\nCMD python t.py --model ${MODEL_NAME:-acme/chat-7b}\n\n"
    staged += "FROM python:3.11-slim\nCMD python serve.py\n"
    assert _audit(tmp_path, STARTED_TABLE.format(model="acme/chat-2b"), staged) == []


# --- a line about one variable, named first, giving its default ---------------------------------------

LABELLED = """\
# Server

Set these on the deployment page:

MODEL_NAME: the model to serve. Remove this variable to deploy the default {model} model.
REVISION: the model revision. Remove this variable to deploy the default revision.

- `PORT` – the port to serve on (default: `{port}`)
"""


def test_a_line_about_a_variable_giving_its_default_is_compared(tmp_path: Path) -> None:
    readme = LABELLED.format(model="acme/chat-2b", port="8000")
    assert _audit(tmp_path, readme, STARTED) == [
        "5: README says MODEL_NAME defaults to acme/chat-2b but Dockerfile:3 starts the container with "
        "${MODEL_NAME:-acme/chat-7b} (certain)"
    ]
    # ENV PORT=8000 (not the expansion's 9000); `likely`, as the started command may set it again
    wrong_port = LABELLED.format(model="acme/chat-7b", port="9000")
    assert _audit(tmp_path, wrong_port, STARTED) == [
        "8: README says PORT defaults to 9000 but Dockerfile:2 sets ENV PORT=8000 (likely)"
    ]
    # the right defaults; `the default revision` names no value (and REVISION has none)
    assert _audit(tmp_path, LABELLED.format(model="acme/chat-7b", port="8000"), STARTED) == []


def test_a_labelled_default_of_something_else_is_left_alone(tmp_path: Path) -> None:
    for readme in (
        # a build-args section: the ARG's default, arg_lists' concern
        "# Server\n\n## Build arguments\n\n- `MODEL_NAME`: model baked in (default: `acme/chat-2b`)\n",
        # a condition, a compose file
        "# Server\n\nMODEL_NAME: if unset in compose, the default is `acme/chat-2b`.\n",
        # a variable the image gives no value
        "# Server\n\nHF_TOKEN: your token (default: `none-1`)\n",
        # a name written later in the line is no label
        "# Server\n\nThe server reads MODEL_NAME: default `acme/chat-2b`.\n",
    ):
        assert not [f for f in _audit(tmp_path, readme, STARTED) if "defaults to" in f], readme


# --- `default` saying when, not what --------------------------------------------------------------------

WHEN = """\
# Server

## Environment variables

| Variable | Value | Description |
|---|---|---|
| `PORT` | `8080` | Use this port (default for single-GPU hosts) |
| `PIN_MEMORY` | `1` | Pin host memory (default on ROCm 6.3 and later) |
| `LOG_LEVEL` | `info` | Default for staging and tests |
| `GPU_MEMORY_UTILIZATION` | `0.90` | fraction of memory, the default when unset |
"""

WHEN_AND_VALUE = """\
# Server

## Environment variables

| Variable | Description |
|---|---|
| `PORT` | port to serve on (default 8000) |
| `PIN_MEMORY` | pin host memory (default 0) |
| `LOG_LEVEL` | log level, defaults to warn |
"""


def test_a_default_that_says_when_gives_no_value(tmp_path: Path) -> None:
    # shapes of real tables: a value column and a description saying for what the value is the
    # default (`Default for validate gates`, `(default on ROCm >= 7.12)`): no `defaults to for`
    assert _audit(tmp_path, WHEN, SERVER) == []


def test_a_default_with_a_value_next_to_it_is_still_read(tmp_path: Path) -> None:
    assert _audit(tmp_path, WHEN_AND_VALUE, SERVER) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (certain)",
        "8: README says PIN_MEMORY defaults to 0 but Dockerfile:6 sets ENV PIN_MEMORY=1 (certain)",
        "9: README says LOG_LEVEL defaults to warn but Dockerfile:6 sets ENV LOG_LEVEL=info (certain)",
    ]


# --- a default in parentheses at the end of a list item ---------------------------------------------

FLAGS = """\
FROM python:3.11-slim
ENV SERVE_PORT=7860 \\
    FETCH_PLUGINS=true \\
    WORKERS=4 \\
    TRACE_LEVEL=0
CMD ["python", "app.py"]
"""

FLAG_LIST = """\
# App

## Environment Variables

- `SERVE_PORT` - Port the UI listens on (default: 7860)
- `FETCH_PLUGINS` - Whether to fetch the plugins at start (default: {fetch})
* WORKERS: number of worker processes (default {workers})
- **TRACE_LEVEL**: tracing verbosity (0-4). Default is 0.
"""


def test_a_bare_word_closing_a_parenthesised_default_is_its_value(tmp_path: Path) -> None:
    # shapes of real lists: `` - `NAME` - Whether to … (default: true) ``, `* NAME: … (default v)`
    readme = FLAG_LIST.format(fetch="false", workers="two")
    assert _audit(tmp_path, readme, FLAGS) == [
        "6: README says FETCH_PLUGINS defaults to false but Dockerfile:2 sets ENV FETCH_PLUGINS=true "
        "(certain)",
        "7: README says WORKERS defaults to two but Dockerfile:2 sets ENV WORKERS=4 (certain)",
    ]
    # the values the ENV sets: `true` is read as `true`, never as the empty text after `default:`
    assert _audit(tmp_path, FLAG_LIST.format(fetch="true", workers="4"), FLAGS) == []


def test_a_parenthesised_default_with_no_value_gives_none(tmp_path: Path) -> None:
    for said in ("(default: )", "(default:)", "(default: -)", "(default: none)", "(default for GPU hosts)"):
        readme = FLAG_LIST.format(fetch="true", workers="4").replace("(default 4)", said)
        assert _audit(tmp_path, readme, FLAGS) == [], said


TRITON = """\
FROM tritonserver:24.08-py3
RUN apt-get update && apt-get install -y gettext-base
COPY model_repository /model_configs
ENTRYPOINT ["/model_configs/entrypoint.sh"]
"""
"""Modelled on an inference server whose entrypoint fills its model configs with `envsubst`."""
ENTRY = '#!/bin/bash\nfor f in /models/*.pbtxt; do envsubst < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; done\n'
CONFIG = (
    'name: "tokenizer"\nparameters {\n  key: "MAX_TOKENS"\n  value: { string_value: "${MAX_TOKENS}" }\n}\n'
)
TRITON_README = """\
# Tokenizer server

## Runtime environment variables

| Variable | Required | Default | Description |
|---|---|---|---|
| `MODEL_KIND` | yes | — | Model folder to serve |
| `MAX_TOKENS` | no | `4096` | Longest input |
"""


def _unprovided(root: Path, files: dict[str, str], readme: str = TRITON_README) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": TRITON, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "gives it a default" in d.message]


def test_a_default_nothing_gives_a_variable_envsubst_fills(tmp_path: Path) -> None:
    files = {"model_repository/entrypoint.sh": ENTRY, "model_repository/tok/config.pbtxt": CONFIG}
    assert _unprovided(tmp_path / "a", files) == [
        "8: README says MAX_TOKENS defaults to 4096, but nothing gives it a default: no Dockerfile sets it, "
        "model_repository/tok/config.pbtxt:4 substitutes ${MAX_TOKENS} with none, and no file naming it "
        "holds 4096 (likely)"
    ]
    # traps: the template gives the default; the code reading it holds it; the entrypoint sets it; no
    # envsubst (a program reads the template); the README's own value is a placeholder
    given = {
        **files,
        "model_repository/tok/config.pbtxt": CONFIG.replace("${MAX_TOKENS}", "${MAX_TOKENS:-4096}"),
    }
    assert _unprovided(tmp_path / "b", given) == []
    code = {**files, "model_repository/tok/model.py": 'n = int(params.get("MAX_TOKENS") or 4096)\n'}
    assert _unprovided(tmp_path / "c", code) == []
    entry = {**files, "model_repository/entrypoint.sh": 'export MAX_TOKENS="${MAX_TOKENS:-2048}"\n' + ENTRY}
    assert _unprovided(tmp_path / "d", entry) == []
    plain = {
        **files,
        "model_repository/entrypoint.sh": "#!/bin/bash\nexec tritonserver --model-repository=/models\n",
    }
    assert _unprovided(tmp_path / "e", plain) == []
    assert _unprovided(tmp_path / "f", files, TRITON_README.replace("`4096`", "`<tokens>`")) == []


# --------------------------------------------------------------------------------------------------
# A variable the table says is required, with no default, that the image falls back on

# An image whose Dockerfile writes its entrypoint: it falls back to a local endpoint and a model.
AGENT = """\
FROM python:3.12-slim
ENV LOG_LEVEL=info
RUN cat > /app/entrypoint.sh << 'EOF'
#!/bin/bash
set -e
export LLM_ENDPOINT="${LLM_BASE_URL:-${ENDPOINT:-http://host.docker.internal:11434/v1}}"
export LLM_MODEL="${LLM_MODEL_NAME:-qwen2.5:7b}"
: "${LLM_API_KEY:?set LLM_API_KEY}"
if [ -z "$STORE_DSN" ]; then echo "no store"; exit 1; fi
export STORE_DSN="${STORE_DSN:-sqlite:///x.db}"
exec python -m agent --port "${PORT:-7860}"
EOF
RUN chmod +x /app/entrypoint.sh
ENTRYPOINT ["/app/entrypoint.sh"]
"""
AGENT_TABLE = """\
# Agent

## Environment Variables

| Variable | Description | Default | Required |
|----------|-------------|---------|----------|
| `LLM_BASE_URL` | API endpoint | - | Yes |
| `LLM_MODEL_NAME` | model | - | ✅ |
| `LLM_API_KEY` | API key | - | Yes |
| `STORE_DSN` | database | - | Yes |
| `LOG_LEVEL` | verbosity | - | No |
| `PORT` | web port | 7860 | No |
| `TRACE_ID` | tracing | - | Yes |
"""


def test_a_required_variable_the_image_falls_back_on(tmp_path: Path) -> None:
    # LLM_API_KEY and STORE_DSN stop the script when unset (they are required); LOG_LEVEL is not said
    # required; PORT has its default; TRACE_ID the image gives nothing
    assert _audit(tmp_path, AGENT_TABLE, AGENT) == [
        "7: README's table says LLM_BASE_URL is required and has no default, but the image gives it one when "
        "it is unset: Dockerfile:6 gives it http://host.docker.internal:11434/v1 (likely)",
        "8: README's table says LLM_MODEL_NAME is required and has no default, but the image gives it one "
        "when it is unset: Dockerfile:7 gives it qwen2.5:7b (likely)",
    ]


def test_a_required_column_for_a_table_without_defaults_or_of_the_build(tmp_path: Path) -> None:
    no_default = AGENT_TABLE.replace(" Default |", " Notes |")
    assert _audit(tmp_path, no_default, AGENT) == []
    build_args = AGENT_TABLE.replace("## Environment Variables", "## Build arguments").replace(
        "| Variable |", "| Build arg |"
    )
    assert [f for f in _audit(tmp_path, build_args, AGENT) if "required" in f] == []


EMPTY_DEFAULTS = """\
FROM python:3.12-slim
ENV EXTRA_ARGS="" \\
    PROXY_URL= \\
    CACHE_DIR='' \\
    FLAGS="" \\
    WORKERS=""
CMD ["sh", "-c", "python main.py $EXTRA_ARGS"]
"""
EMPTY_TABLE = """\
# Runner

## Environment variables

| Variable | Default | Notes |
|---|---|---|
| `EXTRA_ARGS` | *(empty)* | appended to the command line |
| `PROXY_URL` | `""` | proxy to use |
| `CACHE_DIR` | empty | cache folder |
| `FLAGS` | _(none)_ | more flags |
| `WORKERS` | `4` | worker processes |
"""


def test_an_empty_value_spelled_as_a_word_is_an_empty_default(tmp_path: Path) -> None:
    # `*(empty)*`, `""`, `empty`, `_(none)_` all say the image's empty ENV value; `4` does not
    assert _audit(tmp_path, EMPTY_TABLE, EMPTY_DEFAULTS) == [
        "11: README says WORKERS defaults to 4 but Dockerfile:2 sets ENV WORKERS= (certain)"
    ]


def test_an_empty_word_against_a_set_value_is_still_compared(tmp_path: Path) -> None:
    readme = EMPTY_TABLE.replace("| `WORKERS` | `4` |", "| `WORKERS` | *(empty)* |")
    assert _audit(tmp_path, readme, EMPTY_DEFAULTS.replace('WORKERS=""', "WORKERS=4")) == [
        "11: README says WORKERS defaults to *(empty)* but Dockerfile:2 sets ENV WORKERS=4 (certain)"
    ]
