"""`docgen.audit.entry_modes`: an image whose ENTRYPOINT script picks a mode with `case "$1" in` and runs
any other first word with `exec "$@"`. A run whose first word falls to `exec "$@"` while it is an option
(`--help`), or a subcommand-like word nothing of the image installs next to such a run, is a finding; a
heading that calls a mode the default while CMD selects another is one. Traps: programs the image has
(`python`, `bash`, a path), a `*` branch that prepends a program, a script that rewrites its arguments
first (`set -- app "$@"`), an ENTRYPOINT that is no script, a compose `command:`, a `(default)` about an
option value. The READMEs, Dockerfiles and scripts are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, files: dict[str, str], level: str = "") -> list[str]:
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    ours = ('exec "$@"', "the default, but")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if any(w in d.message for w in ours)]


# modelled on a multipurpose dev/CLI image that writes its entrypoint with a heredoc
HEREDOC = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y python3-pip git
RUN pip install torch --index-url https://download.pytorch.org/whl/cpu
RUN pip install --pre acme-runtime-nightly-cpu jupyter
COPY <<'EOF' /usr/local/bin/entrypoint.sh
#!/bin/bash
set -e
run_checks() {
    python -c "import acme"
}
case "${1:-}" in
    "dev"|"develop")
        exec /bin/bash
        ;;
    "check")
        run_checks
        ;;
    *)
        echo "Executing: $@"
        exec "$@"
        ;;
esac
EOF
RUN chmod +x /usr/local/bin/entrypoint.sh
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
CMD ["dev"]
"""

HEREDOC_README = """\
# Acme toolbox

## Modes

### 1. Development shell

```bash
docker run -it --rm ghcr.io/acme/toolbox dev
```

### 2. Tool Mode (Default)

```bash
docker run --rm ghcr.io/acme/toolbox --version
docker run --rm -v $(pwd)/w:/w ghcr.io/acme/toolbox compile --model /w/m
docker run --rm ghcr.io/acme/toolbox python -c "import acme"
docker run --rm ghcr.io/acme/toolbox /bin/bash -c "ls"
docker run --rm ghcr.io/acme/toolbox jupyter lab --ip 0.0.0.0
docker run --rm ghcr.io/acme/toolbox git --version
```

### 3. Checks

```bash
docker run --rm ghcr.io/acme/toolbox check
```
"""


def test_an_option_and_a_subcommand_fall_to_exec(tmp_path: Path) -> None:
    found = _audit(tmp_path, HEREDOC_README, {"Dockerfile": HEREDOC})
    assert found == [
        "11: README calls '2. Tool Mode (Default)' the default, but Dockerfile:26 CMD 'dev' selects the dev "
        "mode of the ENTRYPOINT's case (/usr/local/bin/entrypoint.sh), not this one (likely)",
        "14: README runs ghcr.io/acme/toolbox --version …, but the ENTRYPOINT (Dockerfile:25, "
        "/usr/local/bin/entrypoint.sh) runs any first word its case does not name (modes: check, dev, "
        'develop) as a program with exec "$@", and --version is an option, which exec refuses: the '
        "container fails; also at lines 15 (compile) (likely)",
    ]


def test_a_word_alone_is_not_enough(tmp_path: Path) -> None:
    # no run passes an option: `compile` may be a program some package brings
    readme = HEREDOC_README.replace("docker run --rm ghcr.io/acme/toolbox --version\n", "")
    assert not [f for f in _audit(tmp_path, readme, {"Dockerfile": HEREDOC}) if "exec" in f]


def test_a_requirements_file_may_bring_the_program(tmp_path: Path) -> None:
    dockerfile = HEREDOC.replace(
        "RUN pip install --pre",
        "COPY requirements.txt .\nRUN pip install -r requirements.txt\nRUN pip install --pre",
    )
    found = [
        f
        for f in _audit(tmp_path, HEREDOC_README, {"Dockerfile": dockerfile, "requirements.txt": "x\n"})
        if "exec" in f
    ]
    assert len(found) == 1 and "also at" not in found[0]


def test_a_star_branch_that_prepends_its_program(tmp_path: Path) -> None:
    dockerfile = HEREDOC.replace('        exec "$@"\n', '        exec acme-cli "$@"\n')
    assert not [f for f in _audit(tmp_path, HEREDOC_README, {"Dockerfile": dockerfile}) if "exec" in f]


def test_a_case_on_an_option_pattern(tmp_path: Path) -> None:
    # `-*)` hands options to the CLI: `--version` works, and then nothing says `compile` is no program
    dockerfile = HEREDOC.replace(
        '    "check")', '    -*)\n        exec acme-cli "$@"\n        ;;\n    "check")'
    )
    assert not [f for f in _audit(tmp_path, HEREDOC_README, {"Dockerfile": dockerfile}) if "exec" in f]


def test_no_readme_run_names_a_mode(tmp_path: Path) -> None:
    # nothing ties the published image to this Dockerfile
    readme = HEREDOC_README.replace("toolbox dev", "toolbox").replace("toolbox check", "toolbox")
    assert _audit(tmp_path, readme, {"Dockerfile": HEREDOC}) == []


# modelled on an official-style database image: the script prepends its server to a leading option
PREPENDS = """\
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y acmedb-server
COPY docker-entrypoint.sh /usr/local/bin/
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["acmedb"]
"""

PREPENDS_SCRIPT = """\
#!/bin/sh
set -e
if [ "${1#-}" != "$1" ]; then
    set -- acmedb "$@"
fi
case "$1" in
    acmedb)
        exec gosu acme "$@"
        ;;
    *)
        exec "$@"
        ;;
esac
"""

PREPENDS_README = """\
# acmedb image

```bash
docker build -t acme/db .
docker run --rm acme/db --help
docker run --rm acme/db acmedb --port 7000
```
"""


def test_a_script_that_prepends_its_server(tmp_path: Path) -> None:
    files = {"Dockerfile": PREPENDS, "docker-entrypoint.sh": PREPENDS_SCRIPT}
    assert _audit(tmp_path, PREPENDS_README, files) == []


def test_the_same_script_without_the_prepend(tmp_path: Path) -> None:
    script = PREPENDS_SCRIPT.replace('if [ "${1#-}" != "$1" ]; then\n    set -- acmedb "$@"\nfi\n', "")
    dockerfile = PREPENDS.replace(
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]'
    )
    files = {"Dockerfile": dockerfile, "docker-entrypoint.sh": script}
    found = _audit(tmp_path, PREPENDS_README, files)
    assert len(found) == 1 and found[0].startswith("5: README runs acme/db --help …")


def test_a_sourced_file_before_the_switch(tmp_path: Path) -> None:
    script = PREPENDS_SCRIPT.replace(
        'if [ "${1#-}" != "$1" ]; then\n    set -- acmedb "$@"\nfi\n', ". /etc/acme/env.sh\n"
    )
    dockerfile = PREPENDS.replace(
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]'
    )
    assert _audit(tmp_path, PREPENDS_README, {"Dockerfile": dockerfile, "docker-entrypoint.sh": script}) == []


def test_an_entrypoint_that_is_a_python_module(tmp_path: Path) -> None:
    dockerfile = (
        'FROM python:3.12-slim\nRUN pip install acme\nENTRYPOINT ["python", "-m", "acme"]\nCMD ["serve"]\n'
    )
    assert _audit(tmp_path, PREPENDS_README, {"Dockerfile": dockerfile}) == []


def test_a_compose_command_replaces_cmd(tmp_path: Path) -> None:
    compose = "services:\n  tools:\n    image: ghcr.io/acme/toolbox\n    command: check\n"
    found = _audit(tmp_path, HEREDOC_README, {"Dockerfile": HEREDOC, "compose.yaml": compose})
    assert not [f for f in found if "the default, but" in f]


def test_a_default_about_an_option_value(tmp_path: Path) -> None:
    readme = HEREDOC_README.replace("### 2. Tool Mode (Default)", "### 2. Tools").replace(
        "### 3. Checks", "### Port (default)\n\nThe port is 8000.\n\n### 3. Checks"
    )
    assert not [f for f in _audit(tmp_path, readme, {"Dockerfile": HEREDOC}) if "the default, but" in f]


def test_the_default_heading_of_cmd_mode(tmp_path: Path) -> None:
    readme = HEREDOC_README.replace("### 1. Development shell", "### 1. Development shell (default)").replace(
        "### 2. Tool Mode (Default)", "### 2. Tool Mode"
    )
    assert not [f for f in _audit(tmp_path, readme, {"Dockerfile": HEREDOC}) if "the default, but" in f]


def test_a_heading_naming_another_mode(tmp_path: Path) -> None:
    readme = HEREDOC_README.replace("### 3. Checks", "### 3. Check mode (default)")
    found = [f for f in _audit(tmp_path, readme, {"Dockerfile": HEREDOC}) if "the default, but" in f]
    assert len(found) == 2 and found[1].startswith("22: README calls '3. Check mode (default)'")


# -- an interactive run with no command of an image whose ENTRYPOINT script only runs its arguments

CONDA = """\
FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04
RUN apt-get update && apt-get install -y wget
WORKDIR /home
COPY ./environment.yml ./environment.yml
COPY ./entrypoint.sh ./entrypoint.sh
ENTRYPOINT ["./entrypoint.sh"]
CMD []
"""
CONDA_ENTRY = '#!/bin/bash --login\nset -e\n# the env of environment.yml\nconda activate ml\nexec "$@"\n'
CONDA_MAKEFILE = ".PHONY: build\nbuild:\n\t@docker build -t ml-env:latest .\n"
CONDA_README = """\
# ML with conda

# How to start

```
docker run --gpus all --rm --name ml -v `pwd`:/home -it ml-env
```
"""
"""Modelled on a conda research image built by its Makefile, whose entrypoint activates an env."""

ROS = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y curl
COPY entrypoint.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"""
ROS_ENTRY = '#!/bin/bash\nset -e\nsource /opt/robot/setup.bash\nexport ROBOT_ID=1\nexec "$@"\n'
ROS_README = (
    "# Robot dev\n\n```bash\ndocker build -t robodev .\ndocker run -it --rm --net=host robodev\n```\n"
)
"""Modelled on a robotics dev image whose entrypoint sources the workspace."""


def _exits(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "stops at once" in d.message]


def test_an_interactive_run_of_an_entrypoint_that_runs_nothing(tmp_path: Path) -> None:
    files = {"Dockerfile": CONDA, "entrypoint.sh": CONDA_ENTRY, "Makefile": CONDA_MAKEFILE}
    assert _exits(tmp_path, CONDA_README, files) == [
        "6: README runs ml-env interactively with no command, but its ENTRYPOINT (Dockerfile:6, "
        './entrypoint.sh) only runs the command it is given (exec "$@", line 5) and CMD [] (Dockerfile:7) '
        "gives none: the script exits once set up, so the container stops at once and no shell starts "
        "(append bash to the run) (likely)"
    ]


def test_an_entrypoint_with_no_cmd_after_it(tmp_path: Path) -> None:
    files = {"Dockerfile": ROS, "entrypoint.sh": ROS_ENTRY}
    assert [m.split(" (Dockerfile:4")[0] for m in _exits(tmp_path, ROS_README, files)] == [
        "5: README runs robodev interactively with no command, but its ENTRYPOINT"
    ]
    [message] = _exits(tmp_path / "again", ROS_README, files)
    assert "and no CMD gives one (an ENTRYPOINT resets the base image's CMD)" in message


@pytest.mark.parametrize(
    ("readme", "dockerfile", "entry"),
    [
        (ROS_README, ROS + 'CMD ["bash"]\n', ROS_ENTRY),  # CMD gives the command
        (ROS_README, ROS.replace("ENTRYPOINT", 'CMD ["bash"]\nENTRYPOINT'), ROS_ENTRY),  # its own stage's
        (ROS_README.replace("robodev\n```", "robodev bash\n```"), ROS, ROS_ENTRY),  # the run gives one
        (ROS_README.replace("-it --rm", "-d --rm"), ROS, ROS_ENTRY),  # detached
        (ROS_README.replace("-it --rm", "--rm"), ROS, ROS_ENTRY),  # not interactive
        (ROS_README, ROS, ROS_ENTRY.replace('exec "$@"', 'exec "${@:-bash}"')),
        (ROS_README, ROS, ROS_ENTRY.replace("set -e\n", "set -e\nif [ $# -eq 0 ]; then exec bash; fi\n")),
        (ROS_README, ROS, ROS_ENTRY.replace("export ROBOT_ID=1\n", "python3 /opt/robot/serve.py\n")),
        (ROS_README.replace("docker build -t robodev .\n", ""), ROS, ROS_ENTRY),  # whose image is it?
        (ROS_README, ROS.replace('["/entrypoint.sh"]', '["/entrypoint.sh", "bash"]'), ROS_ENTRY),
    ],
)
def test_entrypoints_that_start_something(tmp_path: Path, readme: str, dockerfile: str, entry: str) -> None:
    assert _exits(tmp_path, readme, {"Dockerfile": dockerfile, "entrypoint.sh": entry}) == []


def test_an_image_built_by_no_makefile(tmp_path: Path) -> None:
    files = {
        "Dockerfile": CONDA,
        "entrypoint.sh": CONDA_ENTRY,
        "Makefile": CONDA_MAKEFILE.replace("ml-env", "other"),
    }
    assert _exits(tmp_path, CONDA_README, files) == []
