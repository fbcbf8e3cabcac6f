"""`docgen audit`: a README's list of the container's environment variables with values, against the
defaults the script the image starts gives them (docgen/audit/listed_env.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# A speech server started by a script that passes environment variables on as flags.
SPEECH_DOCKERFILE = """\
FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && pip install hearsay-server
WORKDIR /srv
COPY start.sh .
EXPOSE 10400
ENTRYPOINT ["bash", "/srv/start.sh"]
"""
SPEECH_SCRIPT = """\
#!/usr/bin/env bash
python3 -m hearsay_server \\
    --uri 'tcp://0.0.0.0:10400' \\
    --voice "${VOICE:-auto}" \\
    --lang "${LANG_CODE:-de}" \\
    --precision "${PRECISION:-int8}" \\
    --beams "${BEAMS:-3}" \\
    "$@"
"""
SPEECH_README = """\
# Hearsay

Environment variables:

> VOICE=small-int8 (Name of the voice model to load)
>
> LANG_CODE=de (Language of the transcription)
>
> PRECISION=int8 (float16, int8, ...)
>
> BEAMS=3 (Beam width while decoding)
>
"""

# A web service whose entrypoint script gives its settings defaults before starting gunicorn.
WEB_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /app
COPY . /app
RUN pip install -r requirements.txt
ENTRYPOINT ["/app/docker/entrypoint.sh"]
"""
WEB_SCRIPT = """\
#!/usr/bin/env sh
set -e
PORT="${PORT:-8090}"
MODE="${MODE:-poll}"
WORKERS="${WORKERS:-2}"
THREADS="${THREADS:-4}"
exec gunicorn --bind "0.0.0.0:${PORT}" --workers "${WORKERS}" --threads "${THREADS}" serve:app
"""
WEB_README = """\
# Relay

## Environment variables

The container reads these environment variables:

```env
PORT=8090
MODE=poll
WORKERS=4
THREADS=4
```
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "requirements.txt": "flask\n", **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "among the environment variables" in d.message
    ]


def test_a_listed_value_that_is_not_the_started_scripts_default(tmp_path: Path) -> None:
    assert found(tmp_path, SPEECH_README, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": SPEECH_SCRIPT}) == [
        (
            5,
            "README lists VOICE=small-int8 among the environment variables, but start.sh:4, which the image "
            "starts, defaults it to auto (`${VOICE:-auto}`); the list's other entries are its defaults",
            "likely",
        )
    ]


def test_a_code_block_of_defaults_under_a_heading(tmp_path: Path) -> None:
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert [(line, msg.split(",")[0]) for line, msg, _ in found(tmp_path, WEB_README, files)] == [
        (10, "README lists WORKERS=4 among the environment variables")
    ]


def test_silent_when_every_entry_is_the_default(tmp_path: Path) -> None:
    readme = SPEECH_README.replace("small-int8", "auto")
    assert found(tmp_path, readme, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": SPEECH_SCRIPT}) == []


def test_silent_for_a_list_of_the_users_own_settings(tmp_path: Path) -> None:
    readme = SPEECH_README.replace("PRECISION=int8", "PRECISION=float16").replace("BEAMS=3", "BEAMS=5")
    assert found(tmp_path, readme, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": SPEECH_SCRIPT}) == []


def test_silent_for_an_example(tmp_path: Path) -> None:
    readme = WEB_README.replace("The container reads these", "For example, set these")
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, readme, files) == []


def test_silent_for_a_users_env_file(tmp_path: Path) -> None:
    readme = WEB_README.replace("The container reads these", "Create a `.env` file with your")
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, readme, files) == []


def test_silent_for_a_compose_environment_block(tmp_path: Path) -> None:
    readme = (
        "# Relay\n\n## Environment variables\n\n```yaml\nservices:\n  relay:\n    build: .\n"
        "    environment:\n      - PORT=8090\n      - MODE=poll\n      - WORKERS=4\n      - THREADS=4\n```\n"
    )
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, readme, files) == []


def test_silent_for_a_variable_the_dockerfile_sets(tmp_path: Path) -> None:
    dockerfile = WEB_DOCKERFILE.replace("WORKDIR /app\n", "WORKDIR /app\nENV WORKERS=4\n")
    files = {"Dockerfile": dockerfile, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, WEB_README, files) == []


def test_silent_when_the_image_starts_no_script(tmp_path: Path) -> None:
    dockerfile = WEB_DOCKERFILE.replace(
        'ENTRYPOINT ["/app/docker/entrypoint.sh"]', 'CMD ["python", "serve.py"]'
    )
    files = {"Dockerfile": dockerfile, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, WEB_README, files) == []


def test_silent_for_a_placeholder_and_a_default_that_expands(tmp_path: Path) -> None:
    script = SPEECH_SCRIPT.replace("${VOICE:-auto}", "${VOICE:-$FALLBACK}")
    assert found(tmp_path, SPEECH_README, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": script}) == []
    readme = SPEECH_README.replace("small-int8", "<voice>")
    assert found(tmp_path, readme, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": SPEECH_SCRIPT}) == []


def test_silent_for_a_list_in_an_html_comment(tmp_path: Path) -> None:
    readme = WEB_README.replace("The container reads", "<!--\nThe container reads") + "-->\n"
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, readme, files) == []


def test_silent_for_a_list_in_a_host_section(tmp_path: Path) -> None:
    readme = WEB_README.replace(
        "## Environment variables", "## Running without Docker\n\n### Environment variables"
    )
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert found(tmp_path, readme, files) == []


def test_a_quoted_list_after_a_comment_and_a_host_section_still_fires(tmp_path: Path) -> None:
    readme = (
        "# Hearsay\n\n## Running without Docker\n\nPRECISION=float16\n\n<!-- VOICE=tiny -->\n\n"
        "## Settings\n\n" + SPEECH_README.removeprefix("# Hearsay\n\n")
    )
    assert [
        line
        for line, _, _ in found(
            tmp_path, readme, {"Dockerfile": SPEECH_DOCKERFILE, "start.sh": SPEECH_SCRIPT}
        )
    ] == [13]


def test_a_list_whose_items_blank_lines_set_apart(tmp_path: Path) -> None:
    readme = (
        "# Relay\n\nThe container reads these environment variables:\n\n"
        "- PORT=8090\n\n- MODE=poll\n\n- WORKERS=4\n\n- THREADS=4\n"
    )
    files = {"Dockerfile": WEB_DOCKERFILE, "docker/entrypoint.sh": WEB_SCRIPT}
    assert [line for line, _, _ in found(tmp_path, readme, files)] == [9]


SERVER_DOCKERFILE = """\
FROM ubuntu:22.04
ENV PORT=5000
ENV MODEL=org/tiny-model
COPY entrypoint.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"""
"""Modelled on a language-model server whose entrypoint passes variables on as its flags."""
SERVER_SCRIPT = """\
#!/bin/bash
hf-login --token $HF_TOKEN
python -m serve --host $BIND_HOST --port $PORT --model $MODEL --workers ${WORKERS:-2} --gpus $GPU_COUNT
"""
SERVER_README = """\
# Server

```bash
docker build -t server .
docker run --gpus all -p 5000:5000 -e HF_TOKEN=$HF_TOKEN server
```
"""


def unset(
    root: Path, readme: str, script: str = SERVER_SCRIPT, files: dict[str, str] | None = None
) -> list[str]:
    make_tree(
        root,
        {"Dockerfile": SERVER_DOCKERFILE, "entrypoint.sh": script, "README.md": readme, **(files or {})},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line} {d.confidence} {d.message}"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "sets no" in d.message
    ]


def test_variables_the_started_script_passes_as_flags_that_nothing_sets(tmp_path: Path) -> None:
    assert unset(tmp_path, SERVER_README) == [
        "5 likely README's docker run sets no BIND_HOST, GPU_COUNT, but entrypoint.sh:3, which the image "
        "starts, passes them as option values (--host $BIND_HOST; --gpus $GPU_COUNT) and neither the "
        "Dockerfile's ENV nor the README sets them: the option gets no value"
    ]
    # a crawler image run with podman: one variable, braced
    script = "#!/bin/sh\nexec crawl --seed-url ${SEED_URL} --port $PORT\n"
    readme = "# Crawler\n\n```sh\npodman run -p 5000:5000 crawler\n```\n"
    assert unset(tmp_path / "b", readme, script) == [
        "4 likely README's docker run sets no SEED_URL, but entrypoint.sh:2, which the image starts, passes "
        "it as an option value (--seed-url $SEED_URL) and neither the Dockerfile's ENV nor the README sets "
        "it: the option gets no value"
    ]


def test_variables_the_started_script_passes_that_something_sets(tmp_path: Path) -> None:
    told = SERVER_README.replace("-e HF_TOKEN", "-e BIND_HOST=0.0.0.0 -e GPU_COUNT=1 -e HF_TOKEN")
    assert unset(tmp_path / "a", told) == []  # the README passes them
    assert unset(tmp_path / "b", SERVER_README, files={".env.example": "BIND_HOST=\nGPU_COUNT=1\n"}) == []
    assert (
        unset(
            tmp_path / "c",
            SERVER_README,
            files={
                "compose.yaml": "services:\n  s:\n    environment:\n"
                "      - BIND_HOST=x\n      - GPU_COUNT=1\n"
            },
        )
        == []
    )
    coped = SERVER_SCRIPT.replace(
        "#!/bin/bash\n", '#!/bin/bash\nBIND_HOST=0.0.0.0\n[ -z "$GPU_COUNT" ] && GPU_COUNT=1\n'
    )
    assert unset(tmp_path / "d", SERVER_README, coped) == []  # the script gives them values
    sourced = SERVER_SCRIPT.replace("#!/bin/bash\n", "#!/bin/bash\nsource /etc/server.env\n")
    assert unset(tmp_path / "e", SERVER_README, sourced) == []  # it reads a file of settings
    indented = (
        "#!/bin/bash\nrun() {\n  serve --host $BIND_HOST\n}\n"
        'if [ -n "$X" ]; then\n  serve --gpus $GPU_COUNT\nfi\n'
    )
    assert unset(tmp_path / "f", SERVER_README, indented) == []  # inside a function or a branch
    assert unset(tmp_path / "g", SERVER_README.replace("docker run", "docker ps")) == []  # no run


# `run_script_env`: a listed value the run script the README starts the container with passes otherwise

# A GPU course's development images: a run script builds each `docker run` up in an array and passes the
# ROCm container a GFX override; the README lists the image's values under `## Environment Variables`.
COURSE_DOCKERFILE = """\
FROM rocm/dev-ubuntu-22.04:7.0
ENV ROCM_PATH=/opt/rocm HIP_PLATFORM=amd
ENV HSA_OVERRIDE_GFX_VERSION=11.0.0
WORKDIR /workspace
"""
COURSE_RUN = """\
#!/bin/bash
set -e
run_rocm() {
    local cmd=(
        docker run
        --name gpu-course-rocm
        -it
        -e HIP_VISIBLE_DEVICES=0
        -e HSA_OVERRIDE_GFX_VERSION=10.3.0
    )
    cmd+=("gpu-course:rocm" /bin/bash)
    "${cmd[@]}"
}
case "$1" in
    rocm) run_rocm ;;
    *) echo "usage: $0 rocm" >&2; exit 1 ;;
esac
"""
COURSE_README = """\
# GPU course containers

```bash
./scripts/run.sh rocm
```

## Environment Variables

### ROCm Container
```bash
ROCM_PATH=/opt/rocm
HIP_PLATFORM=amd
HSA_OVERRIDE_GFX_VERSION=11.0.0
```
"""
COURSE = {"Dockerfile": COURSE_DOCKERFILE, "scripts/run.sh": COURSE_RUN}

# A notebook image whose launcher passes the port it serves on; the README lists the settings as items.
LAB_DOCKERFILE = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir jupyterlab==4.2.5
COPY start-lab.sh /usr/local/bin/start-lab.sh
CMD ["start-lab.sh"]
"""
LAB_LAUNCH = """\
#!/bin/sh
# start the lab on this machine
docker run --rm -p 8899:8899 \\
  --env LAB_PORT=8899 \\
  -e "LAB_ROOT=/home/lab/work" \\
  lab-box:latest
"""
LAB_README = """\
# lab-box

The launcher, launch.sh, starts it:

```sh
sh launch.sh
```

The container's environment variables:

- LAB_PORT=8888
- LAB_ROOT=/home/lab/work
"""
LAB = {"Dockerfile": LAB_DOCKERFILE, "start-lab.sh": "#!/bin/sh\nexec jupyter lab\n", "launch.sh": LAB_LAUNCH}


def script_said(name: str, value: str, script: str, at: int, run: int, given: str, image: str = "") -> str:
    return (
        f"README lists {name}={value} among the environment variables, but {script}:{at}, which the README "
        f"runs to start the container (line {run}), passes -e {name}={given}{image}: a container it starts "
        f"has {given}"
    )


def test_a_listed_value_the_run_script_passes_otherwise(tmp_path: Path) -> None:
    image = " (over the image's ENV HSA_OVERRIDE_GFX_VERSION=11.0.0, Dockerfile:3)"
    assert found(tmp_path, COURSE_README, COURSE) == [
        (
            13,
            script_said("HSA_OVERRIDE_GFX_VERSION", "11.0.0", "scripts/run.sh", 9, 4, "10.3.0", image),
            "likely",
        )
    ]
    assert found(tmp_path / "b", LAB_README, LAB) == [
        (11, script_said("LAB_PORT", "8888", "launch.sh", 4, 6, "8899"), "likely")
    ]


def test_listed_values_a_run_script_does_not_contradict(tmp_path: Path) -> None:
    # the list is an example, or the user's own settings
    readme = COURSE_README.replace("### ROCm Container", "### For example")
    assert found(tmp_path / "a", readme, COURSE) == []
    # the README passes the variable itself
    readme = COURSE_README.replace(
        "./scripts/run.sh rocm", "./scripts/run.sh rocm -e HSA_OVERRIDE_GFX_VERSION=11.0.0"
    )
    assert found(tmp_path / "b", readme, COURSE) == []
    # the script passes it two values (one per platform), or a variable
    two = COURSE_RUN.replace(
        "    cmd+=(", '    [ -n "$NAVI" ] && cmd+=(-e HSA_OVERRIDE_GFX_VERSION=11.0.0)\n    cmd+=('
    )
    assert found(tmp_path / "c", COURSE_README, {**COURSE, "scripts/run.sh": two}) == []
    given = COURSE_RUN.replace("=10.3.0", "=$GFX")
    assert found(tmp_path / "d", COURSE_README, {**COURSE, "scripts/run.sh": given}) == []
    # the list is under a heading about something else
    readme = COURSE_README.replace("## Environment Variables", "## Build")
    assert found(tmp_path / "e", readme, COURSE) == []
    # the README names the script but does not run it
    readme = LAB_README.replace("```sh\nsh launch.sh\n```\n", "")
    assert found(tmp_path / "f", readme, LAB) == []
    # the script runs no container (its `-e` is another tool's)
    launch = "#!/bin/sh\ngrep -e LAB_PORT=8899 settings.ini\n"
    assert found(tmp_path / "g", LAB_README, {**LAB, "launch.sh": launch}) == []
    # a commented-out option passes nothing
    launch = LAB_LAUNCH.replace("  --env LAB_PORT=8899 \\\n", "  # --env LAB_PORT=8899\n")
    assert found(tmp_path / "h", LAB_README, {**LAB, "launch.sh": launch}) == []
