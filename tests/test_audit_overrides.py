"""`docgen.audit.overrides`: a command the README gives a container (`docker run … IMAGE cmd`, a compose
`command:` it tells the user to edit) that the image's ENTRYPOINT throws away — a shell-form ENTRYPOINT,
or an exec-form one starting a script that never reads its arguments. Each rule has a planted drift and,
next to it, the near misses that must stay silent. The READMEs, Dockerfiles and scripts are small models
written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of `readme` against `Dockerfile` of `files` written into `tmp_path`: each finding of this
    module as `line: message (confidence)`."""
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    ours = ("is ignored",)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if any(w in d.message for w in ours)]


SHELL_FORM = """\
FROM rocm/pytorch:latest
WORKDIR /root
RUN git clone --depth 1 https://github.com/example/webui app
EXPOSE 7860
ENTRYPOINT cd app && \\
           python launch.py --listen
"""

COMPOSE = """\
services:
  webui:
    build: .
    ports:
      - 7860:7860
    # arguments of the web UI
    command: --precision full --no-half
"""

RUN_README = """\
# WebUI on ROCm

```bash
docker build -t rocm-webui .
docker run --device /dev/kfd -p 7860:7860 rocm-webui --precision full
```
"""


def test_run_arguments_of_a_shell_form_entrypoint(tmp_path: Path) -> None:
    found = _audit(tmp_path, RUN_README, {"Dockerfile": SHELL_FORM})
    assert found == [
        "5: README passes `--precision full` to a container of rocm-webui, but the ENTRYPOINT of "
        "Dockerfile:5 is in shell form: /bin/sh -c runs it and drops CMD and every argument of the run: "
        "the command is ignored (certain)"
    ]


def test_runs_that_reach_the_program_are_silent(tmp_path: Path) -> None:
    # an exec-form ENTRYPOINT passes the words on; a run with nothing after the image, one replacing the
    # entrypoint and a run of the base image pass nothing to this image's ENTRYPOINT
    exec_form = SHELL_FORM.replace(
        "ENTRYPOINT cd app && \\\n           python launch.py --listen",
        'ENTRYPOINT ["python", "app/launch.py"]',
    )
    assert _audit(tmp_path / "a", RUN_README, {"Dockerfile": exec_form}) == []
    readme = """\
# WebUI on ROCm

```bash
docker build -t rocm-webui .
docker run --device /dev/kfd -p 7860:7860 rocm-webui
docker run --rm --entrypoint bash rocm-webui -c 'rocm-smi'
docker run --rm rocm/pytorch:latest python -c 'import torch'
docker run --rm other-image --help
docker run --rm rocm-webui | tee log.txt
docker run --rm rocm-webui 2>&1 > log.txt
```
"""
    assert _audit(tmp_path / "b", readme, {"Dockerfile": SHELL_FORM}) == []


def test_a_shell_form_entrypoint_the_base_sets_is_silent(tmp_path: Path) -> None:
    # no ENTRYPOINT of its own: the base's is not seen, so nothing is known of the arguments
    no_entry = "FROM rocm/pytorch:latest\nCMD python launch.py\n"
    assert _audit(tmp_path, RUN_README, {"Dockerfile": no_entry}) == []


def test_compose_command_a_shell_form_entrypoint_drops(tmp_path: Path) -> None:
    readme = """\
# WebUI on ROCm

```bash
docker compose up
```

## Configuration

- Edit the `command` parameter to choose the arguments the web UI starts with
- Edit the `HSA_OVERRIDE_GFX_VERSION` variable for your GPU
"""
    found = _audit(tmp_path, readme, {"Dockerfile": SHELL_FORM, "docker-compose.yml": COMPOSE})
    assert found == [
        "9: README says to edit the `command` of the container, but the ENTRYPOINT of Dockerfile:5 is in "
        "shell form: /bin/sh -c runs it and drops CMD and every argument of the run: the `command:` "
        "docker-compose.yml gives service webui is ignored (certain)"
    ]


def test_compose_command_traps(tmp_path: Path) -> None:
    readme = """\
# WebUI on ROCm

## Configuration

- Edit the `command` parameter to choose the arguments the web UI starts with
"""
    exec_form = SHELL_FORM.replace(
        "ENTRYPOINT cd app && \\\n           python launch.py --listen",
        'ENTRYPOINT ["python", "app/launch.py"]',
    )
    # the exec form passes `command:` on as arguments
    assert _audit(tmp_path / "a", readme, {"Dockerfile": exec_form, "docker-compose.yml": COMPOSE}) == []
    # no compose file gives the service a command: the sentence names nothing docgen can see
    no_command = COMPOSE.replace("    command: --precision full --no-half\n", "")
    assert _audit(tmp_path / "b", readme, {"Dockerfile": SHELL_FORM, "docker-compose.yml": no_command}) == []
    # a service running another image (`image:`) is not this image's container
    other = COMPOSE.replace("    build: .\n", "    image: nginx:1.27\n")
    assert _audit(tmp_path / "c", readme, {"Dockerfile": SHELL_FORM, "docker-compose.yml": other}) == []
    # `command` in a sentence that is not about giving arguments
    plain = readme.replace(
        "Edit the `command` parameter to choose the arguments the web UI starts with",
        "The `command` key is described in the Compose reference",
    )
    assert _audit(tmp_path / "d", plain, {"Dockerfile": SHELL_FORM, "docker-compose.yml": COMPOSE}) == []


SCRIPT_IMAGE = """\
FROM lmsysorg/sglang:v0.5.2-cu126
WORKDIR /app
COPY scripts /app/scripts
COPY entrypoint.sh /app/entrypoint.sh
RUN chmod +x /app/entrypoint.sh
EXPOSE 8000
ENTRYPOINT ["/app/entrypoint.sh"]
"""

IGNORING = """\
#!/usr/bin/env bash
set -euo pipefail
MODEL_DIR="${MODEL_DIR:-/models}"
python /app/scripts/fetch.py --into "${MODEL_DIR}"
exec python -m sglang.launch_server --model-path "${MODEL_DIR}/chat" --port "${PORT:-8000}" ${EXTRA_ARGS:-}
"""

SCRIPT_README = """\
# SGLang server

```bash
docker build -t chat-server .
```

To launch another model, override the command:

```bash
docker run --rm --gpus all chat-server \\
  python -m sglang.launch_server --model-path /models/other --port 8000
```
"""


def test_run_arguments_a_copied_entrypoint_script_ignores(tmp_path: Path) -> None:
    found = _audit(tmp_path, SCRIPT_README, {"Dockerfile": SCRIPT_IMAGE, "entrypoint.sh": IGNORING})
    assert found == [
        "11: README passes `python -m sglang.launch_server --model-path …` to a container of chat-server, "
        "but the ENTRYPOINT of Dockerfile:7 starts /app/entrypoint.sh (entrypoint.sh), a script that never "
        "reads its arguments: the command is ignored (certain)"
    ]


def test_a_copied_entrypoint_script_is_read_as_the_build_copies_it(tmp_path: Path) -> None:
    """`_RunImage.context_file`: the script the COPY puts at the ENTRYPOINT's path, read through
    `docgen.copied` (a source in a folder shown with its folder; the `.dockerignore` applied)."""
    image = SCRIPT_IMAGE.replace("COPY entrypoint.sh /app/", "COPY docker/entrypoint.sh /app/")
    files = {"Dockerfile": image, "docker/entrypoint.sh": IGNORING}
    assert [f.split(" (")[1] for f in _audit(tmp_path, SCRIPT_README, files)] == [
        "docker/entrypoint.sh), a script that never reads its arguments: the command is ignored"
    ]
    # left out of the build by the `.dockerignore`: no script of the context is copied, none is read
    files = {"Dockerfile": SCRIPT_IMAGE, "entrypoint.sh": IGNORING, ".dockerignore": "*.sh\n"}
    assert _audit(tmp_path / "b", SCRIPT_README, files) == []


WHOLE_CONTEXT = """\
FROM rocm/vllm:rocm6.3.1_vllm_0.8.5
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
ENTRYPOINT ["./run.sh"]
"""

WHOLE_README = """\
# GRPO trainer

```bash
docker build -t grpo .
docker run --rm --device=/dev/kfd grpo ./run.sh
docker run --rm --device=/dev/kfd grpo ./evaluate.sh /app/outputs/model
```
"""


def test_a_script_the_whole_context_copies_in(tmp_path: Path) -> None:
    # `COPY . .` puts run.sh of the context's top at the WORKDIR, where the ENTRYPOINT starts it
    trainer = "#!/bin/bash\naccelerate launch --num_processes 8 train.py\n"
    files = {
        "Dockerfile": WHOLE_CONTEXT,
        "run.sh": trainer,
        "evaluate.sh": "#!/bin/bash\npython eval.py $1\n",
    }
    assert _audit(tmp_path, WHOLE_README, files) == [
        "6: README passes `./evaluate.sh /app/outputs/model` to a container of grpo, but the ENTRYPOINT of "
        "Dockerfile:6 starts ./run.sh (run.sh), a script that never reads its arguments: the command is "
        "ignored (certain)"
    ]
    # (line 5 passes the ENTRYPOINT's own script: it runs what runs anyway)
    # a run.sh only below the context's top is not the one `COPY . .` puts at /app/run.sh
    below = {"Dockerfile": WHOLE_CONTEXT, "scripts/run.sh": trainer}
    assert _audit(tmp_path / "below", WHOLE_README, below) == []


def test_entrypoint_scripts_that_may_read_their_arguments_are_silent(tmp_path: Path) -> None:
    files = {"Dockerfile": SCRIPT_IMAGE}
    passes = IGNORING.replace("${EXTRA_ARGS:-}", '${EXTRA_ARGS:-} "$@"')
    execs = IGNORING + 'if [ "$#" -gt 0 ]; then exec "$@"; fi\n'
    first = IGNORING.replace('"${MODEL_DIR}/chat"', '"${1:-/models/chat}"')
    sources = IGNORING.replace("set -euo pipefail\n", "set -euo pipefail\n. /app/scripts/common.sh\n")
    shifts = IGNORING.replace("set -euo pipefail\n", "set -euo pipefail\nwhile getopts m: o; do :; done\n")
    for n, script in enumerate((passes, execs, first, sources, shifts)):
        assert _audit(tmp_path / str(n), SCRIPT_README, {**files, "entrypoint.sh": script}) == [], script
    # a stand-in with no command (a placeholder kept in place of the real script)
    placeholder = {**files, "entrypoint.sh": "#!/bin/bash\n# placeholder\n"}
    assert _audit(tmp_path / "stub", SCRIPT_README, placeholder) == []
    # a python entrypoint may read sys.argv: not a shell script, not read
    py = SCRIPT_IMAGE.replace("entrypoint.sh", "entrypoint.py")
    found = _audit(tmp_path / "py", SCRIPT_README, {"Dockerfile": py, "entrypoint.py": "import sys\n"})
    assert found == []
    # a script the build edits after copying it
    edited = SCRIPT_IMAGE.replace("RUN chmod +x", "RUN sed -i 's/8000/9000/' /app/entrypoint.sh && chmod +x")
    assert _audit(tmp_path / "ed", SCRIPT_README, {"Dockerfile": edited, "entrypoint.sh": IGNORING}) == []
    # the script is copied elsewhere than the path the ENTRYPOINT starts
    moved = SCRIPT_IMAGE.replace(
        "COPY entrypoint.sh /app/entrypoint.sh", "COPY entrypoint.sh /opt/entrypoint.sh"
    )
    assert _audit(tmp_path / "mv", SCRIPT_README, {"Dockerfile": moved, "entrypoint.sh": IGNORING}) == []
    # a program, not a script, as the entrypoint
    program = SCRIPT_IMAGE.replace('["/app/entrypoint.sh"]', '["python", "-m", "sglang.launch_server"]')
    assert _audit(tmp_path / "pg", SCRIPT_README, {"Dockerfile": program, "entrypoint.sh": IGNORING}) == []


def test_sh_c_entrypoint(tmp_path: Path) -> None:
    dockerfile = SCRIPT_IMAGE.replace('["/app/entrypoint.sh"]', '["/bin/sh", "-c", "python -m app.serve"]')
    found = _audit(tmp_path / "a", SCRIPT_README, {"Dockerfile": dockerfile})
    assert [f.split(",", 1)[0] for f in found] == [
        "11: README passes `python -m sglang.launch_server --model-path …` to a container of chat-server"
    ]
    passes = SCRIPT_IMAGE.replace(
        '["/app/entrypoint.sh"]', '["/bin/sh", "-c", "python -m app.serve \\"$@\\"", "--"]'
    )
    assert _audit(tmp_path / "b", SCRIPT_README, {"Dockerfile": passes}) == []


def test_an_entrypoint_script_that_is_a_symlink_loop_is_passed_over(tmp_path: Path) -> None:
    # `entrypoint.sh -> entrypoint.sh`: Path.resolve() raised RuntimeError (Python < 3.13), which stopped
    # the whole audit (`Symlink loop from …`, exit 2); a file docgen cannot read says nothing
    make_tree(tmp_path, {"Dockerfile": SCRIPT_IMAGE})
    (tmp_path / "entrypoint.sh").symlink_to("entrypoint.sh")
    assert _audit(tmp_path, SCRIPT_README, {}) == []


def test_files_linked_out_of_the_project_are_not_read(tmp_path: Path) -> None:
    # an entrypoint script or a compose file beside the Dockerfile that is a link out of its folder is
    # not read: its text (a `command:`, a script's lines) is no fact of this image
    outside = {"outside/entrypoint.sh": IGNORING, "outside/docker-compose.yml": COMPOSE}
    make_tree(tmp_path, outside)
    proj = tmp_path / "proj"
    make_tree(proj, {"Dockerfile": SCRIPT_IMAGE})
    (proj / "entrypoint.sh").symlink_to(tmp_path / "outside" / "entrypoint.sh")
    assert _audit(proj, SCRIPT_README, {}) == []
    told = RUN_README + "\nEdit the `command` parameter to customize the arguments of the web UI.\n"
    shell = tmp_path / "shell"
    make_tree(shell, {"Dockerfile": SHELL_FORM})
    (shell / "docker-compose.yml").symlink_to(tmp_path / "outside" / "docker-compose.yml")
    found = _audit(shell, told, {})
    assert not any("`command:`" in f for f in found), found


def test_the_words_telling_to_edit_the_command_in_either_order() -> None:
    from docgen.audit.overrides import tells_to_edit

    assert tells_to_edit("Edit the `command` parameter to customize what arguments the web-ui runs on")
    assert tells_to_edit("The `command` flags are what you change")  # (a word for arguments first)
    assert not tells_to_edit("The `command` flags are set here")  # (`set` after it is no instruction)
    assert not tells_to_edit("Edit the `command` to run another program")  # (no word for arguments)
    assert not tells_to_edit("The `command` options are listed below")  # (no verb of editing)
