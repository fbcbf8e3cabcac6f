"""`docgen.audit.run_time`: what a README says a container of the image does at run time (the environment
variables it reads, the user a `docker run --user` names, the script it starts) against what the image
can honour. Each rule has a planted drift and, next to it, the near misses that must stay silent. The
READMEs, Dockerfiles and scripts are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(
    tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: tuple[str, ...] = ("Dockerfile",)
) -> list[str]:
    """`audit` of `readme` against the Dockerfiles `dockerfiles` of `files` written into `tmp_path`: each
    finding of this module's rules as `line: message (confidence)`."""
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in dockerfiles]
    found = audit(readme, "README.md", models, {}, tmp_path)
    ours = (
        "as an environment variable of the container",
        "runs the container as user",
        "container starts",
        "no ARG or ENV declares it",
    )
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if any(w in d.message for w in ours)]


WEBUI = """\
FROM python:3.11-slim AS base
ARG UI_RELEASE=2.4.0
ARG GPU_MODE=false
ARG HF_TOKEN
ARG TORCH_HOME=/models
ENV APP_PORT=7860

FROM base AS build
WORKDIR /src
RUN git clone https://github.com/example/webui.git . && git checkout v${UI_RELEASE}
RUN HF_TOKEN=${HF_TOKEN} TORCH_HOME=${TORCH_HOME} python fetch_models.py

FROM python:3.11-slim AS runtime
ARG GPU_MODE
COPY --from=build /src /app
RUN if [ "$GPU_MODE" = true ]; then echo "--gpu" > /app/flags; else echo "--cpu" > /app/flags; fi
ENV LOG_LEVEL=info
CMD ["python", "/app/launch.py"]
"""

WEBUI_README = """\
# Web UI image

## Environment Variables

| Variable | Default | Description |
|---|---|---|
| `UI_RELEASE` | `2.4.0` | Version of the web UI to use |
| `GPU_MODE` | `false` | Set to `true` to start on the GPU |
| `LOG_LEVEL` | `info` | Log verbosity |
| `HF_TOKEN` | | Token to download gated models |
| `NOT_MENTIONED` | | Read by the application |
| `TORCH_HOME` | | Where PyTorch keeps its caches |
"""


def test_an_environment_variable_that_is_only_a_build_arg(tmp_path: Path) -> None:
    # UI_RELEASE and GPU_MODE are build args the build reads, with no ENV in the final stage; LOG_LEVEL
    # has its ENV, HF_TOKEN and TORCH_HOME are read by the application and PyTorch, NOT_MENTIONED is not in
    # the Dockerfile at all
    assert _audit(tmp_path, WEBUI_README, {"Dockerfile": WEBUI}) == [
        "7: README documents UI_RELEASE as an environment variable of the container, but Dockerfile:2 "
        "declares it only as a build arg (ARG UI_RELEASE, read at build time on line 10); no ENV sets it in "
        "the image: a value given at run time changes nothing (certain)",
        "8: README documents GPU_MODE as an environment variable of the container, but Dockerfile:14 "
        "declares it only as a build arg (ARG GPU_MODE, read at build time on line 16); no ENV sets it in "
        "the image: a value given at run time changes nothing (certain)",
    ]


def test_a_build_arg_the_image_keeps_as_env_is_no_finding(tmp_path: Path) -> None:
    kept = WEBUI.replace("ENV LOG_LEVEL=info", "ENV LOG_LEVEL=info UI_RELEASE=2.4.0 GPU_MODE=${GPU_MODE}")
    assert _audit(tmp_path, WEBUI_README, {"Dockerfile": kept}) == []


def test_a_build_arg_the_application_may_read_is_no_finding(tmp_path: Path) -> None:
    # the image copies in an application that names GPU_MODE: a value given at run time may reach it
    copied = WEBUI.replace("COPY --from=build /src /app", "COPY --from=build /src /app\nCOPY app /app/local")
    files = {"Dockerfile": copied, "app/settings.py": 'GPU = os.environ.get("GPU_MODE") == "true"\n'}
    assert [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, files)] == ["7"]


CARRIED = """\
FROM python:3.11-slim AS base
ARG UI_RELEASE=2.4.0
ARG GPU_MODE=false
ENV UI_RELEASE=${UI_RELEASE}
ENV GPU_MODE="$GPU_MODE"

FROM base AS build
WORKDIR /src
RUN git clone https://github.com/example/webui.git . \\
    && git checkout v${UI_RELEASE}

FROM base AS runtime
COPY --from=build /src /app
RUN if [ "$GPU_MODE" = "true" ]; then \\
      echo 'python /app/launch.py --gpu' > /app/start.sh; \\
    else \\
      echo 'python /app/launch.py --cpu' > /app/start.sh; \\
    fi
ENV LOG_LEVEL=info
CMD ["bash", "/app/start.sh"]
"""


def test_an_env_that_only_carries_a_build_arg_into_the_build(tmp_path: Path) -> None:
    # ENV UI_RELEASE=${UI_RELEASE} and ENV GPU_MODE="$GPU_MODE" reach only the checkout and the test that
    # writes the start script; what the container starts names neither
    assert _audit(tmp_path, WEBUI_README, {"Dockerfile": CARRIED}) == [
        "7: README documents UI_RELEASE as an environment variable of the container, but Dockerfile:2 "
        "declares it as a build arg (ARG UI_RELEASE), which ENV UI_RELEASE on line 4 only carries into the "
        "build step that reads it on line 9; nothing the container starts reads it: a value given at run "
        "time changes nothing (certain)",
        "8: README documents GPU_MODE as an environment variable of the container, but Dockerfile:3 "
        "declares it as a build arg (ARG GPU_MODE), which ENV GPU_MODE on line 5 only carries into the "
        "build step that reads it on line 14; nothing the container starts reads it: a value given at run "
        "time changes nothing (certain)",
    ]


def test_envs_carrying_a_build_arg_that_the_container_may_read(tmp_path: Path) -> None:
    # the generated start script reads GPU_MODE itself (single quotes: written as is, read at run time)
    script = CARRIED.replace("--gpu' > /app/start.sh", "--mode $GPU_MODE' > /app/start.sh")
    assert [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, {"Dockerfile": script})] == ["7"]
    # an application the image copies in names UI_RELEASE
    copied = CARRIED.replace(
        "COPY --from=build /src /app", "COPY --from=build /src /app\nCOPY app /app/local"
    )
    files = {"Dockerfile": copied, "app/about.py": 'RELEASE = os.environ["UI_RELEASE"]\n'}
    assert [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, files)] == ["8"]
    # an ENV of a value of its own, not the build arg's: a setting of the image
    own = CARRIED.replace("ENV UI_RELEASE=${UI_RELEASE}", "ENV UI_RELEASE=2.4.0")
    assert [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, {"Dockerfile": own})] == ["8"]
    # the variable read for no choice of what is built (a log line)
    logged = CARRIED.replace("&& git checkout v${UI_RELEASE}", '&& echo "release ${UI_RELEASE}"')
    assert [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, {"Dockerfile": logged})] == ["8"]


def test_a_list_of_build_time_variables_is_no_claim_about_the_container(tmp_path: Path) -> None:
    readme = """\
# Web UI image

## Environment variables for the build

- `UI_RELEASE`: version of the web UI to check out
- `GPU_MODE`: set to `true` to build for the GPU

## Environment Variables

- `LOG_LEVEL`: log verbosity
- `GPU_MODE`: build with GPU start flags (`--build-arg GPU_MODE=true`)
"""
    assert _audit(tmp_path, readme, {"Dockerfile": WEBUI}) == []
    # a list under a section about building from source
    nested = "# Web UI image\n\n## Building from source\n\n### Environment variables\n\n"
    nested += "- `UI_RELEASE`: the release\n"
    assert _audit(tmp_path / "nested", nested, {"Dockerfile": WEBUI}) == []
    # a column headed as variables under no such heading: the variables a compose build passes on
    columned = (
        "# Web UI image\n\n| Environment Variable Name | Default Value | Description |\n| --- | --- | --- |\n"
        "| UI_RELEASE | `2.4.0` | web UI release |\n| GPU_MODE | `false` | GPU start flags |\n"
    )
    assert _audit(tmp_path / "columned", columned, {"Dockerfile": WEBUI}) == []


def test_a_list_item_and_a_docker_run_option(tmp_path: Path) -> None:
    readme = """\
# Web UI image

### Environment

- `GPU_MODE`: set to true for GPU mode (default: false)

```bash
docker build -t example/webui:latest .
docker run -d -p 7860:7860 -e UI_RELEASE=2.5.0 -e LOG_LEVEL=debug example/webui:latest
GPU_MODE=true ./run.sh
docker run -d -e UI_RELEASE=7 example/other-service
```
"""
    assert _audit(tmp_path, readme, {"Dockerfile": WEBUI}) == [
        "5: README documents GPU_MODE as an environment variable of the container, but Dockerfile:14 "
        "declares it only as a build arg (ARG GPU_MODE, read at build time on line 16); no ENV sets it in "
        "the image: a value given at run time changes nothing (certain)",
        "9: README passes (`docker run … example/webui:latest`) UI_RELEASE as an environment variable of "
        "the container, but Dockerfile:2 declares it only as a build arg (ARG UI_RELEASE, read at build "
        "time on line 10); no ENV sets it in the image: a value given at run time changes nothing (certain)",
    ]


SIBLING = """\
FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04
COPY app /app
CMD ["python3", "/app/launch.py"]
"""


def test_a_family_where_one_image_keeps_the_variable_is_silent(tmp_path: Path) -> None:
    # the sibling has no GPU_MODE at all; the first keeps it as ENV: the claim holds for one image (the
    # UI_RELEASE neither keeps is still told)
    kept = WEBUI.replace("ENV LOG_LEVEL=info", "ENV LOG_LEVEL=info GPU_MODE=${GPU_MODE}")
    files = {"Dockerfile": kept, "Dockerfile.cuda": SIBLING}
    found = _audit(tmp_path, WEBUI_README, files, ("Dockerfile", "Dockerfile.cuda"))
    assert [f.split(":")[0] for f in found] == ["7"]
    # neither keeps it: the one that declares it tells why, the sibling with no such name agrees
    files = {"Dockerfile": WEBUI, "Dockerfile.cuda": SIBLING}
    found = _audit(tmp_path, WEBUI_README, files, ("Dockerfile", "Dockerfile.cuda"))
    assert [f.split(":")[0] for f in found] == ["7", "8"]


ROCM = """\
FROM rocm/dev-ubuntu-22.04:6.4-complete
RUN pip install torch --index-url https://download.pytorch.org/whl/rocm6.4
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
"""

ROCM_README = """\
# ComfyUI for AMD GPUs

## Environment variables

| Name | Default | Description |
|------|---------|-------------|
| `ROCM_VERSION` | `6.4` | ROCm version for PyTorch |
| `COMFY_ARGS` | | Extra arguments |
"""


def test_a_variable_the_entrypoint_sets_before_reading_it(tmp_path: Path) -> None:
    script = (
        '#!/bin/bash\nROCM_VERSION="6.4"\nCOMFY_ARGS="${COMFY_ARGS:-}"\n'
        'pip install torch --index-url "rocm${ROCM_VERSION}"\nexec python main.py $COMFY_ARGS\n'
    )
    assert _audit(tmp_path, ROCM_README, {"Dockerfile": ROCM, "entrypoint.sh": script}) == [
        "7: README documents ROCM_VERSION as an environment variable of the container, but entrypoint.sh:2, "
        "which the image starts, sets ROCM_VERSION=6.4: a value given at run time changes nothing (certain)"
    ]


def test_a_script_an_add_pattern_copies_in_is_the_one_the_image_starts(tmp_path: Path) -> None:
    # `ADD root/* /` puts root/start.sh at /start.sh; a pattern that does not match it copies nothing
    script = '#!/bin/bash\nROCM_VERSION="6.4"\nexec python main.py\n'
    added = ROCM.replace("COPY entrypoint.sh /usr/local/bin/entrypoint.sh", "ADD root/* /").replace(
        'ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]', 'CMD ["/bin/bash", "/start.sh"]'
    )
    assert _audit(tmp_path, ROCM_README, {"Dockerfile": added, "root/start.sh": script}) == [
        "7: README documents ROCM_VERSION as an environment variable of the container, but start.sh:2, "
        "which the image starts, sets ROCM_VERSION=6.4: a value given at run time changes nothing (certain)"
    ]
    other = added.replace("ADD root/* /", "ADD root/*.py /")
    assert _audit(tmp_path, ROCM_README, {"Dockerfile": other, "root/start.sh": script}) == []


def test_a_variable_the_entrypoint_defaults_is_no_finding(tmp_path: Path) -> None:
    script = (
        '#!/bin/bash\nROCM_VERSION="${ROCM_VERSION:-6.4}"\n'
        'if [ -z "$X" ]; then COMFY_ARGS=--cpu; fi\nexec python main.py\n'
    )
    assert _audit(tmp_path, ROCM_README, {"Dockerfile": ROCM, "entrypoint.sh": script}) == []


SENTINEL = """\
FROM nvidia/cuda:11.8.0-base-ubuntu22.04
ENV USER sentinel
RUN groupadd --gid 1000 $USER \\
 && useradd --uid 1000 --gid $USER --shell /bin/bash --create-home $USER
RUN apt-get update && apt-get install -y python3-pip && pip install torch
COPY entrypoint.sh /usr/local/bin/
ENTRYPOINT ["entrypoint.sh"]
CMD ["bash"]
"""

SENTINEL_README = """\
# PyTorch on CUDA

### Usage
```
docker build -t example/torch .
docker run [-ti --rm --user torch] example/torch <command>
docker run [-ti --rm --user torch] example/torch bash
docker run --rm --user sentinel example/torch bash
docker run --rm --user "$(id -u):$(id -g)" example/torch bash
docker run --rm --user nobody example/torch bash
docker run --rm --user torch ubuntu:22.04 bash
```

### Entrypoint
`/var/entrypoint.sh` is executed when the container starts.

You can override it with `--entrypoint /bin/bash`; `/usr/local/bin/entrypoint.sh` is run on start.
"""


def test_a_user_the_image_does_not_make_and_an_entrypoint_path(tmp_path: Path) -> None:
    # torch is told once (line 6); sentinel is made, ids and system users exist, a run of ubuntu is another
    # image's; the entrypoint is copied to /usr/local/bin, not /var
    files = {"Dockerfile": SENTINEL, "entrypoint.sh": '#!/bin/bash\nexec "$@"\n'}
    assert _audit(tmp_path, SENTINEL_README, files) == [
        "6: README runs the container as user torch, but Dockerfile makes user sentinel and its base "
        "nvidia/cuda:11.8.0-base-ubuntu22.04 brings none of that name (certain)",
        "15: README says the container starts /var/entrypoint.sh, but Dockerfile:6 copies it to "
        '/usr/local/bin/entrypoint.sh (ENTRYPOINT ["entrypoint.sh"] on line 7) (certain)',
    ]


def test_users_and_entrypoints_a_base_may_bring_are_no_finding(tmp_path: Path) -> None:
    # Ubuntu 24.04 brings `ubuntu`; a Jupyter base brings its own users; an entrypoint the base sets
    readme = SENTINEL_README.replace("--user torch] example", "--user ubuntu] example")
    noble = SENTINEL.replace("base-ubuntu22.04", "base-ubuntu24.04")
    files = {"Dockerfile": noble, "entrypoint.sh": '#!/bin/bash\nexec "$@"\n'}
    assert [f for f in _audit(tmp_path, readme, files) if "user" in f] == []
    # users written into /etc/passwd, or made by a script of the build context the image runs
    passwd = SENTINEL.replace(
        "RUN apt-get", 'RUN echo "torch:x:1008:1008::/home/torch:/bin/bash" >> /etc/passwd\nRUN apt-get'
    )
    files = {"Dockerfile": passwd, "entrypoint.sh": '#!/bin/bash\nexec "$@"\n'}
    assert [f for f in _audit(tmp_path / "passwd", SENTINEL_README, files) if "user" in f] == []
    scripted = SENTINEL.replace(
        "RUN apt-get", "COPY add-users.sh /tmp/\nRUN bash /tmp/add-users.sh\nRUN apt-get"
    )
    files = {"Dockerfile": scripted, "entrypoint.sh": "#!/bin/bash\n", "add-users.sh": "useradd torch\n"}
    assert [f for f in _audit(tmp_path / "scripted", SENTINEL_README, files) if "user" in f] == []
    jupyter = "FROM quay.io/jupyter/base-notebook:2024-05-01\nRUN pip install torch\n"
    files = {"Dockerfile": jupyter}
    assert _audit(tmp_path, SENTINEL_README.replace("torch]", "jovyan]"), files) == []


def test_a_user_made_on_a_heredoc_runs_line_is_read_apart_from_the_body(tmp_path: Path) -> None:
    # the RUN line makes sentinel after writing a sudoers file its here-document holds: the body's first
    # word (torch) is no user, so `--user torch` still makes no user the image has
    sudoers = SENTINEL.replace(
        "RUN apt-get",
        "RUN cat > /etc/sudoers.d/torch <<EOF && useradd --create-home sentinel\n"
        "torch ALL=(ALL) NOPASSWD: ALL\nEOF\nRUN apt-get",
    )
    files = {"Dockerfile": sudoers, "entrypoint.sh": '#!/bin/bash\nexec "$@"\n'}
    assert [f for f in _audit(tmp_path / "a", SENTINEL_README, files) if "user" in f] == [
        "6: README runs the container as user torch, but Dockerfile makes user sentinel and its base "
        "nvidia/cuda:11.8.0-base-ubuntu22.04 brings none of that name (certain)",
    ]
    # the trap: a user a body makes, its useradd continued over two lines of the body, is made
    body = SENTINEL.replace(
        "RUN apt-get",
        "RUN <<EOF\nset -e\nuseradd --create-home \\\n    --shell /bin/bash torch\nEOF\nRUN apt-get",
    )
    files = {"Dockerfile": body, "entrypoint.sh": '#!/bin/bash\nexec "$@"\n'}
    assert [f for f in _audit(tmp_path / "b", SENTINEL_README, files) if "user" in f] == []


# --------------------------------------------------------------------------------------------------
# a variable a RUN reads that no ARG or ENV declares: nothing the user sets reaches the build

ROCM_UI = """\
FROM rocm/pytorch:latest
WORKDIR /root
ENV PYTHONUNBUFFERED=1
RUN git clone --depth 1 https://github.com/example/webui app
RUN python -m venv venv \\
    && source venv/bin/activate \\
    && pip install --force-reinstall torch --index-url $PYTORCH_INDEX \\
    && deactivate
{more}ENTRYPOINT ["/bin/bash", "-c", "source venv/bin/activate && python launch.py"]
"""

SETTING_README = """\
# Web UI on ROCm

## Configuration

- {sentence}
- Tinker around if things break
"""

SET_INDEX = "Edit the `PYTORCH_INDEX` environment variable to the PyTorch build you need"
UNDECLARED = (
    "5: README tells to set PYTORCH_INDEX, but Dockerfile:5 reads it in a RUN while no ARG or ENV "
    "declares it: the build sees it empty, whatever is set for the build or the container (certain)"
)


def test_a_variable_the_readme_sets_that_a_run_reads_undeclared(tmp_path: Path) -> None:
    readme = SETTING_README.format(sentence=SET_INDEX)
    assert _audit(tmp_path, readme, {"Dockerfile": ROCM_UI.format(more="")}) == [UNDECLARED]


def test_a_variable_an_arg_or_env_declares_is_set_for_the_build(tmp_path: Path) -> None:
    readme = SETTING_README.format(sentence=SET_INDEX)
    for declared in ("ARG PYTORCH_INDEX=https://download.pytorch.org/whl/rocm6.0", "ENV PYTORCH_INDEX=x"):
        dockerfile = ROCM_UI.format(more="").replace("WORKDIR /root\n", f"WORKDIR /root\n{declared}\n")
        assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == [], declared


def test_a_run_that_may_set_the_variable_itself(tmp_path: Path) -> None:
    readme = SETTING_README.format(sentence=SET_INDEX)
    for step in ("&& . /opt/rocm/env.sh \\\n", "&& export PYTORCH_INDEX=https://x/whl/rocm6.0 \\\n"):
        dockerfile = ROCM_UI.format(more="").replace("    && pip install", f"    {step}    && pip install")
        assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == [], step


def test_a_real_run_time_variable_stays_silent(tmp_path: Path) -> None:
    # the application's own variable, read by a RUN but not to pick what is installed
    dockerfile = ROCM_UI.format(more="RUN huggingface-cli download org/model --token $HF_TOKEN\n")
    readme = SETTING_README.format(sentence="Set the `HF_TOKEN` environment variable for gated models")
    assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == []
    # what the container starts reads it: it is the container's variable
    clone = "RUN git clone --branch $MODEL_NAME https://example.com/m.git /models\n"
    dockerfile = ROCM_UI.format(more=clone).replace("launch.py", "launch.py --model $MODEL_NAME")
    readme = SETTING_README.format(sentence="Set the `MODEL_NAME` environment variable to the model to serve")
    assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_a_run_reading_it_for_no_install_is_no_fact(tmp_path: Path) -> None:
    # the application may read MODEL_ID when the container runs: a RUN passing it on tells nothing
    dockerfile = ROCM_UI.format(more="RUN python download.py --model $MODEL_ID\n")
    readme = SETTING_README.format(sentence="Set the `MODEL_ID` environment variable to the model to serve")
    assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_a_sentence_about_another_variable_or_no_setting(tmp_path: Path) -> None:
    dockerfile = ROCM_UI.format(more="")
    for sentence in (
        "The `PYTORCH_INDEX` environment variable picks the wheel index",  # tells nothing to set
        "Set the `GFX_TARGET` environment variable for your GPU",  # no RUN reads it
    ):
        assert _audit(tmp_path, SETTING_README.format(sentence=sentence), {"Dockerfile": dockerfile}) == []


def test_an_entry_under_an_environment_heading_read_undeclared(tmp_path: Path) -> None:
    dockerfile = (
        "FROM python:3.11-slim\nWORKDIR /src\n"
        "RUN git clone https://github.com/example/webui.git . && git checkout ${WEBUI_REF}\n"
        'CMD ["python", "launch.py"]\n'
    )
    readme = (
        "# Web UI\n\n## Environment variables\n\n| Variable | Description |\n|---|---|\n"
        "| `WEBUI_REF` | Branch of the web UI to run |\n"
    )
    assert _audit(tmp_path, readme, {"Dockerfile": dockerfile}) == [
        "7: README documents WEBUI_REF, but Dockerfile:3 reads it in a RUN while no ARG or ENV declares it: "
        "the build sees it empty, whatever is set for the build or the container (certain)"
    ]


def test_a_lower_case_name_in_prose_is_no_variable_to_set(tmp_path: Path) -> None:
    # a variable named in a sentence is an upper-case name as written: `port` and `the` are words of
    # the sentence, even when a RUN reads a lower-case shell variable of that name undeclared
    dockerfile = ROCM_UI.format(more="").replace("$PYTORCH_INDEX", "$pytorch_index")
    for sentence in (
        "Edit the `pytorch_index` environment variable to the PyTorch build you need",
        "Set the `port` variable, and set the port your proxy listens on",
        "Change `the` variable names in your shell before you build",
    ):
        assert _audit(tmp_path, SETTING_README.format(sentence=sentence), {"Dockerfile": dockerfile}) == []
    # (written in capitals it is one: test_a_variable_the_readme_sets_that_a_run_reads_undeclared)


def _read_lines(tmp_path: Path, copy: str, files: dict[str, str]) -> list[str]:
    """The lines of WEBUI_README's findings when the image also copies `copy` from a context of `files`."""
    copied = WEBUI.replace("COPY --from=build /src /app", f"COPY --from=build /src /app\n{copy}")
    return [f.split(":")[0] for f in _audit(tmp_path, WEBUI_README, {"Dockerfile": copied, **files})]


SETTINGS = {"app/settings.py": 'GPU = os.environ.get("GPU_MODE") == "true"\n'}


def test_the_files_a_glob_copies_are_read_as_buildkit_copies_them(tmp_path: Path) -> None:
    # `copied.copied_files`: a glob is matched, what it copies names GPU_MODE (the README's line 8)
    assert _read_lines(tmp_path, "COPY app/*.py /app/local/", SETTINGS) == ["7"]
    assert _read_lines(tmp_path / "b", "COPY app/*.sh /app/local/", SETTINGS) == ["7", "8"]


def test_a_file_the_dockerignore_leaves_out_is_not_read(tmp_path: Path) -> None:
    files = {**SETTINGS, ".dockerignore": "app/settings.py\n"}
    assert _read_lines(tmp_path, "COPY app /app/local", files) == ["7", "8"]
    files[".dockerignore"] = "app\n!app/settings.py\n"  # taken back: it is in the build
    assert _read_lines(tmp_path / "b", "COPY app /app/local", files) == ["7"]


def test_a_hidden_file_below_a_copied_folder_is_not_read(tmp_path: Path) -> None:
    hidden = {"app/.env.example": "GPU_MODE=true\n"}
    assert _read_lines(tmp_path, "COPY app /app/local", hidden) == ["7", "8"]
    # named itself, it is read
    assert _read_lines(tmp_path / "b", "COPY app/.env.example /app/local/", hidden) == ["7"]


def test_an_entrypoint_the_dockerignore_leaves_out_is_not_read(tmp_path: Path) -> None:
    script = '#!/bin/bash\nROCM_VERSION="6.4"\nexec python main.py\n'
    files = {"Dockerfile": ROCM, "entrypoint.sh": script, ".dockerignore": "*.sh\n"}
    assert _audit(tmp_path, ROCM_README, files) == []  # the build gets no entrypoint.sh: nothing to read


# --- a `-e NAME` nothing in the image reads, while the entrypoint the Dockerfile writes reads its kin ---

_SERVING = """\
FROM ubuntu:22.04
COPY bin/serve_bin /usr/local/bin/serve_bin
ENV WEIGHTS_ROOT=/weights
ENV WEIGHTS_LABEL=default
RUN echo '#!/bin/bash \\n\\
/usr/local/bin/serve_bin --port=9400 --name=${WEIGHTS_LABEL} --base=${WEIGHTS_ROOT}/${WEIGHTS_LABEL} "$@"' \\
    > /usr/bin/serve_entry.sh && chmod +x /usr/bin/serve_entry.sh
ENTRYPOINT ["/usr/bin/serve_entry.sh"]
"""

_BUILD_SH = "#!/bin/sh\nIMAGE=acme-serving:node-$1\ndocker build -f serving.Dockerfile -t $IMAGE .\n"


def _unread(tmp_path: Path, run: str, dockerfile: str = _SERVING, build: str = _BUILD_SH) -> list[str]:
    readme = f"# Serving\n\n```\nIMAGE_NAME=acme-serving:node-gpu\n{run}\n```\n"
    make_tree(
        tmp_path,
        {"README.md": readme, "serving.Dockerfile": dockerfile, "build.sh": build, "bin/serve_bin": "x"},
    )
    model = build_model(tmp_path / "serving.Dockerfile", "serving.Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, tmp_path)
        if "nothing in the image reads" in d.message
    ]


def test_a_variable_nothing_reads_beside_its_kin(tmp_path: Path) -> None:
    run = "docker run -v /data:/space -e WEIGHTS_LABEL=m1 -e WEIGHTS_DIR=/space/m1 -it $IMAGE_NAME"
    assert _unread(tmp_path, run) == [
        "5: README passes WEIGHTS_DIR (`docker run … $IMAGE_NAME`) as an environment variable of the "
        "container, but nothing in the image reads it: serving.Dockerfile:5 writes the ENTRYPOINT "
        "/usr/bin/serve_entry.sh, which reads WEIGHTS_LABEL (ENV line 4), WEIGHTS_ROOT (ENV line 3) (likely)"
    ]


def test_unread_traps(tmp_path: Path) -> None:
    # the variables the entrypoint reads; a proxy and a library's variable; a name of no kin
    for run in (
        "docker run -e WEIGHTS_ROOT=/space -e WEIGHTS_LABEL=m1 $IMAGE_NAME",
        "docker run -e http_proxy=$http_proxy -e HF_HOME=/cache $IMAGE_NAME",
        "docker run -e LOG_DIR=/logs $IMAGE_NAME",
        "docker run -e WEIGHTS_DIR=/space other/serving:1",  # not the image built here
    ):
        assert _unread(tmp_path, run) == [], run


def test_unread_traps_of_the_image(tmp_path: Path) -> None:
    run = "docker run -e WEIGHTS_DIR=/space $IMAGE_NAME"
    named = _SERVING.replace("ENV WEIGHTS_LABEL=default", "ENV WEIGHTS_LABEL=default WEIGHTS_DIR=")
    assert _unread(tmp_path, run, dockerfile=named) == []  # the Dockerfile names it
    copied = _SERVING.replace('ENTRYPOINT ["/usr/bin/serve_entry.sh"]', 'ENTRYPOINT ["/usr/bin/other.sh"]')
    assert _unread(tmp_path, run, dockerfile=copied) == []  # an entrypoint the Dockerfile does not write
    assert _unread(tmp_path, run, build="#!/bin/sh\ndocker build -t elsewhere:1 .\n") == []  # not built here


def test_a_pattern_an_add_copies_is_matched_as_buildkit_matches_it(tmp_path: Path) -> None:
    # `docgen.copied.glob_matches`, not fnmatch: `[^…]` leaves its letters out, `[!…]` is a class holding
    # `!`, `\*` is a star as written, `**` goes no deeper than `*`
    script = '#!/bin/bash\nROCM_VERSION="6.4"\nexec python main.py\n'
    base = ROCM.replace('ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]', 'CMD ["/bin/bash", "/start.sh"]')
    finding = (
        "7: README documents ROCM_VERSION as an environment variable of the container, but start.sh:2, "
        "which the image starts, sets ROCM_VERSION=6.4: a value given at run time changes nothing (certain)"
    )

    def audit(folder: str, add: str, where: str = "root/start.sh") -> list[str]:
        dockerfile = base.replace("COPY entrypoint.sh /usr/local/bin/entrypoint.sh", add)
        return _audit(tmp_path / folder, ROCM_README, {"Dockerfile": dockerfile, where: script})

    assert audit("negated", "ADD root/[^d]tart.sh /") == [finding]
    assert audit("double", "ADD **/start.sh /") == [finding]
    # traps: patterns BuildKit matches to no start.sh (fnmatch or pathlib would)
    assert audit("bang", "ADD root/[!d]tart.sh /") == []
    assert audit("escaped", "ADD root/\\*.sh /") == []
    assert audit("deep", "ADD **/start.sh /", "a/root/start.sh") == []


# --- a variable the started script overwrites, the script copied in with its folder --------------------

STUDIO = """\
FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04
RUN pip install torch==2.1.0
ENV STUDIO_PORT=7788
COPY launch/ /opt/launch/
ENTRYPOINT ["/opt/launch/boot.sh"]
"""

STUDIO_README = """\
# Studio

## Environment Variables

- `STUDIO_PORT` - Port to serve on (default: 7788)
- `WEIGHTS_PATH` - Folder of the weights (default: /data/weights)
- `STUDIO_MODE` - Mode to start in (default: serve)

| Name | Default | Description |
|------|---------|-------------|
| `STUDIO_MODE` | `serve` | Mode to start in |

```bash
docker build -t acme/studio .
docker run -e WEIGHTS_PATH=/mnt/w acme/studio
```
"""

OVERWRITING = """\
#!/bin/bash
set -euo pipefail
if [ ! -d "/opt/studio" ]; then
    echo "studio missing"
    exit 1
fi
# settings of the studio
export WEIGHTS_PATH="/data/weights"
STUDIO_MODE=serve
mkdir -p "$WEIGHTS_PATH"
exec python -u studio.py --port "${STUDIO_PORT:-7788}" --mode "$STUDIO_MODE"
"""


def test_a_variable_a_copied_folder_s_entrypoint_overwrites(tmp_path: Path) -> None:
    # shapes of real images: `COPY scripts/ /scripts/` with `ENTRYPOINT ["/scripts/docker-entrypoint.sh"]`
    # exporting a `…_PATH` a README lists with a default; a serving script exporting `MODEL_NAME=…` before
    # `exec "$@"`. A list item is `likely`, a table row or a `-e` of the image built `certain`.
    found = _audit(tmp_path, STUDIO_README, {"Dockerfile": STUDIO, "launch/boot.sh": OVERWRITING})
    fact = "boot.sh:{}, which the image starts, sets {}: a value given at run time changes nothing ({})"
    assert found == [
        "6: README documents WEIGHTS_PATH as an environment variable of the container, but "
        + fact.format(8, "WEIGHTS_PATH=/data/weights", "likely"),
        "7: README documents STUDIO_MODE as an environment variable of the container, but "
        + fact.format(9, "STUDIO_MODE=serve", "likely"),
        "11: README documents STUDIO_MODE as an environment variable of the container, but "
        + fact.format(9, "STUDIO_MODE=serve", "certain"),
        "15: README passes (`docker run … acme/studio`) WEIGHTS_PATH as an environment variable of the "
        "container, but " + fact.format(8, "WEIGHTS_PATH=/data/weights", "certain"),
    ]


def test_a_variable_the_started_script_may_leave_alone_is_no_finding(tmp_path: Path) -> None:
    files = {"Dockerfile": STUDIO}
    kept = [
        # read with a default: the value passed wins
        OVERWRITING.replace('export WEIGHTS_PATH="/data/weights"', ': "${WEIGHTS_PATH:=/data/weights}"'),
        OVERWRITING.replace('"/data/weights"', '"${WEIGHTS_PATH:-/data/weights}"'),
        # set in a branch: a file test the container decides, a test of the variable itself
        OVERWRITING.replace(
            'export WEIGHTS_PATH="/data/weights"',
            'if [ -d /data ]; then\n  :\nelse\n  export WEIGHTS_PATH="/data/weights"\nfi',
        ),
        OVERWRITING.replace(
            'export WEIGHTS_PATH="/data/weights"', 'if [ -z "$WEIGHTS_PATH" ]; then WEIGHTS_PATH=/w; fi'
        ),
        # the command handed over before the assignment: nothing after an `exec` runs
        OVERWRITING.replace("# settings of the studio", 'exec "$@"'),
        OVERWRITING.replace("# settings of the studio", 'if [ "$1" = bash ]; then exec "$@"; fi'),
    ]
    for script in kept:
        found = _audit(tmp_path, STUDIO_README, {**files, "launch/boot.sh": script})
        assert not [f for f in found if "WEIGHTS_PATH" in f], script
    # a script the image copies but does not start
    other = STUDIO.replace('ENTRYPOINT ["/opt/launch/boot.sh"]', 'ENTRYPOINT ["/opt/launch/run.sh"]')
    assert _audit(tmp_path, STUDIO_README, {"Dockerfile": other, "launch/boot.sh": OVERWRITING}) == []
    # a README that runs the container past the script
    entered = STUDIO_README.replace("docker run -e", "docker run --entrypoint bash -e")
    assert not [
        f for f in _audit(tmp_path, entered, {**files, "launch/boot.sh": OVERWRITING}) if "WEIGHTS_PATH" in f
    ]
    # redirections alone are no hand-over: the assignment still runs
    logged = OVERWRITING.replace("# settings of the studio", "exec >/var/log/boot.log 2>&1")
    found = _audit(tmp_path, STUDIO_README, {**files, "launch/boot.sh": logged})
    assert any(f.startswith("6: README documents WEIGHTS_PATH") for f in found), found


# A variable the README lists for the container that the script the image starts never reads, passing its
# program the option of that name with a value of its own, while a build stage takes it as a build arg
# (`RunImage.flag_fact`). Modelled on an OpenAI-compatible server image that bakes its model at build time
# (`ARG MODEL` in a `data` stage, `ENV MODEL="./model"` last, the entrypoint passing `--model ./model`), a
# pre-warmed server image reading `${MODEL_NAME:-…}` in its ENTRYPOINT, and a serverless worker whose own
# `handler.py` reads the build arg's name.

BAKED = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS base
WORKDIR /srv
COPY ./fetch.py /srv
COPY ./pyproject.toml /srv
RUN pip install poetry && poetry install

FROM base AS data
ARG HF_TOKEN
ARG CHECKPOINT
ENV HF_TOKEN=${HF_TOKEN}
ENV CHECKPOINT=${CHECKPOINT}
RUN poetry run python3 ./fetch.py

FROM data AS boot
ENV CHECKPOINT="./weights"
ENV SHARDS=1
COPY ./start.sh /srv/start.sh
ENTRYPOINT [ "/srv/start.sh" ]
"""
START = """\
#!/bin/bash
set -e
if [ -f ./.env ]; then
  source ./.env
fi
poetry run python3 -m servekit.openai_api \\
  --checkpoint ./weights \\
  --shards="${SHARDS}"
"""
FETCH = 'import os\nsnapshot(os.environ["CHECKPOINT"], token=os.environ["HF_TOKEN"])\n'
BAKED_README = """\
# Ready-to-deploy LLM server

## Environment Variables

### For `base` tag

- `HF_TOKEN`: your Hugging Face token. **Mandatory**.
- `CHECKPOINT`: Hugging Face model id (e.g. `org/model-7b`). **Mandatory**.
- `SHARDS`: number of GPUs. Default: `1`.
"""
BAKED_FILES = {"Dockerfile": BAKED, "start.sh": START, "fetch.py": FETCH, "pyproject.toml": "[tool.poetry]\n"}


def test_a_variable_the_started_script_passes_a_value_of_its_own_for(tmp_path: Path) -> None:
    assert _audit(tmp_path, BAKED_README, BAKED_FILES) == [
        "8: README documents CHECKPOINT as an environment variable of the container, but start.sh:7, which "
        "the image starts, passes its program --checkpoint ./weights and never reads CHECKPOINT "
        "(Dockerfile:9 takes it as a build arg, ARG CHECKPOINT): a value given at run time changes "
        "nothing (likely)"
    ]


def test_a_package_list_a_saved_copy_left_out_runs_nothing(tmp_path: Path) -> None:
    files = {k: v for k, v in BAKED_FILES.items() if k != "pyproject.toml"}
    assert len(_audit(tmp_path, BAKED_README, files)) == 1


@pytest.mark.parametrize(
    ("files", "why"),
    [
        (
            {"start.sh": START.replace("--checkpoint ./weights", '--checkpoint "${CHECKPOINT:-./weights}"')},
            "read",
        ),
        ({"start.sh": START.replace("--checkpoint ./weights", "--checkpoint $CHECKPOINT_DIR")}, "a variable"),
        ({"start.sh": START.replace("--checkpoint ./weights", "--weights ./weights")}, "no such option"),
        ({"start.sh": START.replace("python3 -m servekit.openai_api", "python3 serve.py")}, "own program"),
        ({"start.sh": START + 'echo "serving $CHECKPOINT"\n'}, "named"),
        ({"Dockerfile": BAKED.replace("ARG CHECKPOINT\n", "")}, "no build arg"),
        ({"Dockerfile": BAKED.replace("COPY ./fetch.py /srv", "COPY ./fetch.py ./serve.py /srv/")}, "a file"),
        ({"Dockerfile": BAKED.replace("RUN poetry run python3 ./fetch.py", "RUN true")}, "not the build's"),
    ],
)
def test_a_variable_the_container_may_read_after_all(tmp_path: Path, files: dict[str, str], why: str) -> None:
    # `serve.py` (the worker's own program) and `fetch.py` copied in but run by no build step may read it
    serve = {"serve.py": 'MODEL = os.environ.get("CHECKPOINT")\n'}
    found = _audit(tmp_path, BAKED_README, {**BAKED_FILES, **serve, **files})
    assert [f for f in found if "CHECKPOINT" in f] == [], why


def test_an_option_in_a_comment_is_no_value_passed(tmp_path: Path) -> None:
    script = START.replace("  --checkpoint ./weights \\\n", "") + "# e.g. --checkpoint ./weights\n"
    assert _audit(tmp_path, BAKED_README, {**BAKED_FILES, "start.sh": script}) == []


def test_a_missing_program_file_may_read_it(tmp_path: Path) -> None:
    files = {k: v for k, v in BAKED_FILES.items() if k != "fetch.py"}
    script = START.replace("python3 -m servekit.openai_api", "python3 fetch.py")
    assert _audit(tmp_path, BAKED_README, {**files, "start.sh": script}) == []


def test_a_list_under_a_build_sub_heading_is_no_claim(tmp_path: Path) -> None:
    readme = BAKED_README.replace("### For `base` tag", "### Build time")
    assert _audit(tmp_path, readme, BAKED_FILES) == []
    other = BAKED_README.replace("### For `base` tag", "### Troubleshooting")
    assert _audit(tmp_path, other, BAKED_FILES) == []
