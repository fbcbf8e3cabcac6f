"""`docgen audit`: a README build of a Dockerfile whose RUN fails whatever the machine
(docgen/audit/broken_runs.py): a shell syntax error (`&& &&` across a continued line), or a command
list ending in `test -n "$NAME" && …` whose test is false with the build's values; a build of a
Dockerfile docker cannot read at all.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.broken_runs import syntax_error, unreadable_builds
from docgen.errors import DockerfileError
from docgen.markdown import read_document
from docgen.shell import sh_tokens

BUILD = "docker build -t ferry:dev ."


def _audited(tmp_path: Path, dockerfile: str, block: str = BUILD, name: str = "Dockerfile") -> list[str]:
    make_tree(tmp_path, {name: dockerfile, "app.py": "print('ferry')\n"})
    models = [build_model(tmp_path / name, name)]
    readme = f"# Ferry\n\n## Build\n\n```bash\n{block}\n```\n"
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "cannot complete" in d.message
    ]


# -- a shell syntax error ----------------------------------------------------------------------------

# modelled on a serving image whose last cleanup step lost its command and kept both `&&`
DOUBLED = """FROM python:3.11-slim
RUN pip install --no-cache-dir ferry-server && \\
    apt-get clean && \\
    rm -rf /var/lib/apt/lists/* && \\
    && python3 -c "import ferry" && \\
    # drop caches
    find /usr/local -name "*.pyc" -delete
CMD ["python", "/app.py"]
"""


def test_doubled_and_across_a_continued_line(tmp_path: Path) -> None:
    assert _audited(tmp_path, DOUBLED) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 2 is a shell syntax error "
        "(`&& &&`, line 5) (certain)"
    ]


def test_pipe_then_semicolon_with_a_named_file(tmp_path: Path) -> None:
    # modelled on a tools image that lists packages through a pipe
    dockerfile = "FROM alpine:3.19\nRUN apk info | \\\n    ; sort > /pkgs.txt\n"
    block = "git clone https://example.org/ferry.git && cd ferry\ndocker build -f docker/Ferry.Dockerfile ."
    assert _audited(tmp_path, dockerfile, block, "docker/Ferry.Dockerfile") == [
        "7: README's build of docker/Ferry.Dockerfile cannot complete: its RUN at line 2 is a shell syntax "
        "error (`| ;`, line 3) (certain)"
    ]


@pytest.mark.parametrize(
    "run",
    [
        "find /opt -name '*.tmp' -exec rm {} \\; && echo done",  # an escaped `;`
        "echo \"a && && b\" && echo '| |'",  # operators in quotes
        "case $(uname -m) in x86_64) echo a;; *) echo b;; esac",
        "apt-get update && \\\n    # a note\n    apt-get install -y curl",  # a comment line dropped
        "x=$(echo a; echo b) && echo $x",
        "true || true && echo ok",
    ],
)
def test_sound_commands_are_silent(tmp_path: Path, run: str) -> None:
    assert _audited(tmp_path, f"FROM debian:12\nRUN {run}\n") == []


def test_syntax_error_in_an_unbuilt_stage_or_another_target(tmp_path: Path) -> None:
    dockerfile = "FROM debian:12 AS scratchpad\nRUN a && && b\nFROM debian:12\nRUN echo ok\n"
    assert _audited(tmp_path, dockerfile) == []
    dockerfile = "FROM debian:12 AS base\nRUN echo ok\nFROM base\nRUN a && && b\n"
    assert _audited(tmp_path, dockerfile, "docker build --target base -t ferry .") == []


def test_exec_form_heredoc_and_other_shell_are_not_read(tmp_path: Path) -> None:
    assert _audited(tmp_path, 'FROM debian:12\nRUN ["sh", "-c", "a && && b"]\n') == []
    assert _audited(tmp_path, 'FROM debian:12\nSHELL ["pwsh", "-c"]\nRUN a && && b\n') == []


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("a && && b", "&& &&"),
        ("&& a", "&& first"),
        ("a | | b", "| |"),
        ("a ; && b", "; &&"),
        ("a && ; b", "&& ;"),
    ],
)
def test_syntax_error(command: str, error: str) -> None:
    assert syntax_error(sh_tokens(command)) == error


# -- a last test that is false -----------------------------------------------------------------------

# modelled on a training image whose mirror switch is passed but never declared
MIRROR = """FROM ubuntu:22.04
RUN test -n "$USE_MIRROR" && echo "deb https://mirror.example.org/ubuntu jammy main\\n\\
deb https://mirror.example.org/ubuntu jammy-updates main" > /etc/apt/sources.list
RUN apt-get update
"""
FALSE_MIRROR = (
    'README\'s build of Dockerfile cannot complete: its RUN at line 2 ends in `test -n "$USE_MIRROR" && …`, '
    "false with USE_MIRROR empty (its stage declares no ARG USE_MIRROR): the RUN exits 1"
)


def test_undeclared_switch_passed_and_not(tmp_path: Path) -> None:
    block = f"{BUILD}\n# behind the firewall\ndocker build --build-arg USE_MIRROR=1 -t ferry:dev ."
    assert _audited(tmp_path, MIRROR, block) == [f"6: {FALSE_MIRROR}; also at line 8 (certain)"]


# modelled on an image that turns a proxy on with a declared ARG and a bracket test
DECLARED = """FROM node:20-slim
ARG NPM_PROXY_ON
RUN [ -n "${NPM_PROXY_ON}" ] && npm config set proxy http://proxy.example.org:3128
RUN npm ci
"""


def test_declared_switch_without_a_value(tmp_path: Path) -> None:
    assert _audited(tmp_path, DECLARED) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 ends in "
        '`test -n "$NPM_PROXY_ON" && …`, false with NPM_PROXY_ON empty: the RUN exits 1 (certain)'
    ]


def test_minus_z_with_a_default(tmp_path: Path) -> None:
    dockerfile = 'FROM node:20-slim\nARG CHANNEL=beta\nRUN test -z "$CHANNEL" && echo stable > /channel\n'
    assert _audited(tmp_path, dockerfile) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 ends in "
        '`test -z "$CHANNEL" && …`, false with CHANNEL set to beta: the RUN exits 1 (certain)'
    ]


@pytest.mark.parametrize(
    ("dockerfile", "block"),
    [
        (DECLARED, "docker build --build-arg NPM_PROXY_ON=yes -t ferry ."),  # the build passes it
        (DECLARED, "docker build --build-arg NPM_PROXY_ON -t ferry ."),  # from the environment
        (DECLARED.replace("ARG NPM_PROXY_ON", "ARG NPM_PROXY_ON=1"), BUILD),  # a default that makes it true
        (DECLARED.replace("ARG NPM_PROXY_ON", "ARG NPM_PROXY_ON=${OTHER}"), BUILD),  # a default not known
        (DECLARED.replace("] && npm", "] && npm config list || npm"), BUILD),  # an alternative after
        (DECLARED.replace("proxy.example.org:3128", "p:3128; npm config list"), BUILD),  # test mid-way
        (
            DECLARED.replace(
                'RUN [ -n "${NPM_PROXY_ON}" ] && npm', 'RUN if [ -n "$NPM_PROXY_ON" ]; then npm'
            ),
            BUILD,
        ),
        (
            'FROM debian:12\nARG TOKEN\nRUN test -n "$TOKEN" || (echo "pass TOKEN"; exit 1)\n',
            BUILD,
        ),  # a guard
        ('FROM debian:12\nARG TOKEN\nRUN test -n "$TOKEN"\n', BUILD),  # a bare assertion
        ("FROM debian:12\nARG TOKEN\nRUN test -n $TOKEN && echo x\n", BUILD),  # unquoted: `test -n` is true
        (
            'FROM nvidia/cuda:12.2.0-base-ubuntu22.04\nARG CUDA_VERSION\nRUN test -n "$CUDA_VERSION" && id\n',
            BUILD,
        ),
        ('FROM debian:12\nENV FLAG=1\nRUN test -n "$FLAG" && echo x\n', BUILD),  # set by ENV
        ('FROM debian:12\nRUN test -n "$HTTPS_PROXY" && git config --global http.proxy x\n', BUILD),
        ('FROM debian:12\nRUN test -n "$NEVER_PASSED" && echo x\n', BUILD),  # the base may set it
        ('FROM debian:12\nARG M\nRUN M=1; test -n "$M" && echo x\n', BUILD),  # assigned in the RUN
        (MIRROR, "cd docker && docker build -t ferry ."),  # run elsewhere
        (MIRROR, "cd docker\n```\n\nThen:\n\n```bash\ndocker build -t ferry ."),  # a cd of a block before
        (MIRROR, "git clone https://example.org/o/upstream.git && cd upstream && docker build -t up ."),
    ],
)
def test_silent(tmp_path: Path, dockerfile: str, block: str) -> None:
    assert _audited(tmp_path, dockerfile, block) == []


# -- shell syntax in a COPY or ADD -------------------------------------------------------------------

# modelled on a CUDA runtime stage that copies optional libraries from its builder and meant to ignore a miss
GPU_COPY = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS builder
RUN make -C /src
FROM debian:12
COPY --from=builder /usr/lib/x86_64-linux-gnu/libnccl* /usr/lib/x86_64-linux-gnu/ || true
CMD ["ferry"]
"""
# modelled on a web image whose frontend stage copies files that may be absent
WEB_COPY = """FROM node:20-slim AS web
WORKDIR /srv/web
COPY web/package*.json ./ 2>/dev/null || true
RUN npm ci
"""


def test_an_or_true_in_a_copy(tmp_path: Path) -> None:
    assert _audited(tmp_path, GPU_COPY) == [
        "6: README's build of Dockerfile cannot complete: its COPY at line 4 holds shell syntax (`|| true`): "
        "COPY reads its words as more sources and the destination true, which does not end in / as several "
        "sources need (certain)"
    ]


def test_a_redirection_in_a_copy(tmp_path: Path) -> None:
    found = _audited(tmp_path, WEB_COPY)
    assert [f.split(" holds")[0] for f in found] == [
        "6: README's build of Dockerfile cannot complete: its COPY at line 3"
    ]
    assert "(`2>/dev/null || true`)" in found[0]
    assert _audited(tmp_path, "FROM debian:12\nADD ferry.tar.gz /opt/ && echo done\n") != []


@pytest.mark.parametrize(
    "line",
    [
        'COPY ["web/a b.json", "/srv/"]',  # exec form
        "COPY <<EOF /srv/run.sh\ncp a b 2>/dev/null || true\nEOF",  # a heredoc's body is a file
        "COPY app.py setup.cfg /srv/",  # several sources into a folder
        "COPY app.py /srv/app.py",
        "COPY --chmod=755 app.py /srv/",
        "RUN cp /srv/a /srv/b 2>/dev/null || true",  # a RUN: shell
        "COPY app.py || /srv/",  # the destination a folder: the copy may only miss a source
    ],
)
def test_copies_without_a_failing_shell_word_are_silent(tmp_path: Path, line: str) -> None:
    assert _audited(tmp_path, f"FROM debian:12\n{line}\n") == []


def test_a_copy_with_shell_syntax_in_an_unbuilt_stage(tmp_path: Path) -> None:
    dockerfile = "FROM debian:12 AS extras\nCOPY a.so /opt/ || true\nFROM debian:12\nRUN echo ok\n"
    assert _audited(tmp_path, dockerfile) == []


# modelled on a GPU app image that sets bash as its RUN shell before copying its helper scripts
BASH_SHELL_COPY = """FROM nvidia/cuda:12.6.0-runtime-ubuntu22.04
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN apt-get update && apt-get install -y python3 && rm -rf /var/lib/apt/lists/*
COPY ./tools/smoke /opt/app/smoke || true
CMD ["python3", "/opt/app/smoke/check.py"]
"""


def test_a_shell_instruction_does_not_hide_a_copy_with_shell_syntax(tmp_path: Path) -> None:
    # SHELL changes what runs a RUN; COPY runs no shell under any
    found = _audited(tmp_path, BASH_SHELL_COPY)
    assert [f.split(" holds")[0] for f in found] == [
        "6: README's build of Dockerfile cannot complete: its COPY at line 4"
    ]


def test_a_shell_instruction_still_leaves_its_runs_alone(tmp_path: Path) -> None:
    dockerfile = 'FROM debian:12\nSHELL ["/bin/bash", "-c"]\nRUN a && && b\nCOPY ./tools/smoke /opt/smoke/\n'
    assert _audited(tmp_path, dockerfile) == []


# -- a package name left malformed by a build arg out of scope ----------------------------------------
# modelled on a robotics image on a CUDA base: the ROS and simulator releases declared above the FROM
ROBOT = """ARG UBUNTU_RELEASE=22.04
ARG ROS_DISTRO=humble
ARG SIM_VERSION=fortress
FROM nvcr.io/nvidia/cuda:12.5.1-devel-ubuntu${UBUNTU_RELEASE}
RUN apt-get update && apt-get install -y --no-install-recommends \\
    curl \\
    ros-${ROS_DISTRO}-desktop \\
    ignition-${SIM_VERSION} \\
    && rm -rf /var/lib/apt/lists/*
RUN echo "source /opt/ros/${ROS_DISTRO}/setup.bash" >> ~/.bashrc
"""


def test_a_package_named_through_an_arg_out_of_scope(tmp_path: Path) -> None:
    assert _audited(tmp_path, ROBOT) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 5 installs "
        "ros-${ROS_DISTRO}-desktop (line 7), which is ros--desktop: ROS_DISTRO is declared only before "
        "the first FROM (line 2) and not again in the RUN's stage, so it is empty there and no package "
        "has that name (likely)"
    ]
    # declared again after the FROM: the build's value reaches the RUN
    again = ROBOT.replace("RUN apt-get", "ARG ROS_DISTRO\nARG SIM_VERSION\nRUN apt-get", 1)
    assert _audited(tmp_path, again) == []
    # the ROS base image sets ROS_DISTRO itself; a path (not a package name) with the arg empty
    ros_base = ROBOT.replace(
        "nvcr.io/nvidia/cuda:12.5.1-devel-ubuntu${UBUNTU_RELEASE}", "ros:humble-ros-base"
    )
    ros_base = ros_base.replace("    ignition-${SIM_VERSION} \\\n", "")
    assert _audited(tmp_path, ros_base) == []


# modelled on a Python service whose wheel version is an arg above the FROM
WHEEL = """ARG ENGINE_VERSION=0.4.2
FROM python:3.11-slim
RUN pip install --no-cache-dir "engine==${ENGINE_VERSION}"
"""


def test_a_pip_pin_emptied_by_an_arg_out_of_scope(tmp_path: Path) -> None:
    found = _audited(tmp_path, WHEEL)
    assert len(found) == 1 and "installs engine==${ENGINE_VERSION}, which is engine==:" in found[0]
    used_in_from = WHEEL.replace("FROM python:3.11-slim", "FROM python:3.11-slim AS base\nARG ENGINE_VERSION")
    assert _audited(tmp_path, used_in_from) == []
    optional = WHEEL.replace('"engine==${ENGINE_VERSION}"', "engine${ENGINE_EXTRAS}")  # not declared at all
    assert _audited(tmp_path, optional) == []


# -- bash-only syntax dash rejects, on a base whose /bin/sh is dash --------------------------------------
# modelled on a fine-tuning image README (`docker build -t vlm:latest .`) whose Dockerfile activates conda
# with `source` on PyTorch's Ubuntu image
CONDA_SOURCE = """FROM pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel
COPY app.py /tmp/app.py
RUN source activate base && \\
    conda env create -f /tmp/environment.yaml
RUN conda run -n train pip install flash-attn --no-build-isolation
"""

# modelled on a small web service on Debian's Python image that picks its server by an environment name
WEB_SWITCH = """FROM python:3.11-slim
ARG APP_ENV=production
COPY app.py /srv/app.py
RUN pip install --no-cache-dir flask && \\
    [ "$APP_ENV" == "production" ] && pip install --no-cache-dir gunicorn
"""


def test_source_on_a_dash_base_fails_the_build(tmp_path: Path) -> None:
    assert _audited(tmp_path, CONDA_SOURCE, "docker build -t vlm:latest .") == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 uses `source`, which bash has "
        "and dash does not: with no SHELL, /bin/sh runs the RUN, and in "
        "pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel /bin/sh is dash: `source: not found`, status 127, and "
        "the RUN fails with it (certain)"
    ]


def test_double_equals_in_a_test_on_a_dash_base(tmp_path: Path) -> None:
    found = _audited(tmp_path, WEB_SWITCH)
    assert [f.split(", which")[0] for f in found] == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 4 uses `== in [ ]` (line 5)"
    ]
    assert "`[: unexpected operator`, status 2" in found[0]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # another shell runs the RUN: a SHELL, a base stage's SHELL, /bin/sh relinked, exec form, bash -c
        CONDA_SOURCE.replace("COPY", 'SHELL ["/bin/bash", "-c"]\nCOPY'),
        'FROM ubuntu:22.04 AS base\nSHELL ["/bin/bash", "-c"]\nFROM base\nRUN source /etc/profile && make\n',
        "FROM ubuntu:22.04\nRUN ln -sf /bin/bash /bin/sh\nRUN source /etc/profile && make\n",
        'FROM ubuntu:22.04\nRUN ["bash", "-c", "source /etc/profile && make"]\n',
        "FROM ubuntu:22.04\nRUN bash -c 'source /etc/profile && make'\n",
        # a base whose sh has `source` (ash) or is bash, or that docgen does not know
        CONDA_SOURCE.replace("pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel", "python:3.11-alpine"),
        CONDA_SOURCE.replace("pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel", "rockylinux:9"),
        CONDA_SOURCE.replace("pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel", "ghcr.io/acme/trainer:1.2"),
        # dash fails the command but the RUN goes on: a later list, a condition, a literal brace
        "FROM ubuntu:22.04\nRUN source /etc/profile; make\n",
        'FROM debian:12\nRUN if [[ -n "$X" ]]; then echo x; fi\n',
        "FROM debian:12\nRUN mkdir -p /data/{raw,cache} && echo ok\n",
        # an unbuilt stage
        "FROM debian:12 AS dev\nRUN source /etc/profile && make\nFROM debian:12\nRUN echo ok\n",
        # POSIX spellings
        'FROM ubuntu:22.04\nRUN . /etc/profile && [ "$A" = b ] && echo ${A:-x}\n',
    ],
)
def test_bash_syntax_that_does_not_fail_this_build(tmp_path: Path, dockerfile: str) -> None:
    assert _audited(tmp_path, dockerfile) == []


# -- a Dockerfile docker cannot read -----------------------------------------------------------------

# modelled on a trainer whose `ENV PYTHONPATH=…` lost its `PATH=` (one word: no value) and on a
# serving image whose heredoc is never closed: BuildKit refuses the file before any step
UNREADABLE = {
    "docker/Dockerfile": (17, "ENV needs a name and a value"),
    "Dockerfile.serve": (9, "unterminated heredoc"),
}


def _unreadable(tmp_path: Path, block: str) -> list[str]:
    make_tree(
        tmp_path, {"docker/Dockerfile": "FROM x\n", "Dockerfile.serve": "FROM y\n", "Dockerfile": "FROM z\n"}
    )
    broken = {
        str((tmp_path / file).resolve()): DockerfileError(message, file, line)
        for file, (line, message) in UNREADABLE.items()
    }
    doc = read_document(f"# Trainer\n\n```bash\n{block}\n```\n", "README.md")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in unreadable_builds(doc, "README.md", tmp_path, broken)
    ]


def test_a_build_of_an_unreadable_dockerfile_cannot_start(tmp_path: Path) -> None:
    block = (
        "docker build -t trainer:v1.0 -f ./docker/Dockerfile .\n"
        "docker build -t serve -f Dockerfile.serve .\n"
        "docker build -t trainer:v1.1 -f docker/Dockerfile ."
    )
    assert _unreadable(tmp_path, block) == [
        "4: README's build cannot start: docker cannot read the Dockerfile it builds (docker/Dockerfile:17: "
        "ENV needs a name and a value); also at line 6 (certain)",
        "5: README's build cannot start: docker cannot read the Dockerfile it builds (Dockerfile.serve:9: "
        "unterminated heredoc) (certain)",
    ]


def test_builds_of_readable_or_other_projects_dockerfiles_are_silent(tmp_path: Path) -> None:
    # the Dockerfile beside the README reads; a build after a `cd` into another project's clone, of a
    # `--target`, of a path with a variable, are not told
    block = (
        "docker build -t trainer .\n"
        "docker build --target dev -f docker/Dockerfile .\n"
        "docker build -f $DOCKERFILE .\n"
        "git clone https://github.com/example/serving.git && cd serving\n"
        "docker build -f Dockerfile.serve ."
    )
    assert _unreadable(tmp_path, block) == []


# -- ln, cp or mv swallowing the next line's command -----------------------------------------------------

# modelled on a ROCm image whose symlink step lost its `&&` before the pip install on the next line
SWALLOWED = """FROM ubuntu:24.04
RUN apt-get update && apt-get install -y python3-pip
RUN ln -sf /opt/rocm/lib/libomp.so /lib/libomp.so \\
    pip3 install --break-system-packages einops safetensors>=0.4.2
COPY app.py /app/
"""


def test_ln_takes_the_next_lines_pip_install_as_operands(tmp_path: Path) -> None:
    assert _audited(tmp_path, SWALLOWED) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 runs ln on a line ending in \\ "
        "with no && before `pip3 install --break-system-packages …` on the next (line 4): the shell joins "
        "them, so ln takes pip3's words as more operands and fails (unrecognized option "
        "'--break-system-packages') (certain)"
    ]


def test_cp_whose_last_operand_is_a_package_with_a_bound(tmp_path: Path) -> None:
    # modelled on a notebook image copying a config, then installing pinned packages without `&&`
    dockerfile = (
        "FROM python:3.11-slim\nRUN cp /etc/skel/.bashrc /root/.bashrc \\\n"
        "    pip install jupyterlab notebook==7.2.0\n"
    )
    got = _audited(tmp_path, dockerfile)
    assert len(got) == 1
    assert got[0].endswith("and fails (target 'notebook==7.2.0' is not a directory) (certain)")


@pytest.mark.parametrize(
    "dockerfile",
    [
        # joined right
        "FROM ubuntu:24.04\nRUN ln -sf /a/libomp.so /lib/libomp.so && \\\n"
        "    pip3 install --break-system-packages einops\n",
        # several sources into a folder: the last operand may be one the build made
        "FROM ubuntu:24.04\nRUN mkdir /opt/x && cp /etc/hosts /etc/hostname \\\n    /opt/x\n",
        # a command word that is a source, not a new line's command
        "FROM ubuntu:24.04\nRUN cp -r \\\n    echo /opt/echo\n",
        # operands past `--`, or a target folder given with -t
        "FROM ubuntu:24.04\nRUN mv -t /opt/ -- /a /b \\\n    pip install x==1\n",
        # the joined words are no option ln lacks and the last is no package spec
        "FROM ubuntu:24.04\nRUN ln -s /a /b \\\n    pip3 install numpy\n",
    ],
)
def test_file_commands_that_may_succeed(tmp_path: Path, dockerfile: str) -> None:
    assert _audited(tmp_path, dockerfile) == []


# -- a FROM placeholder only CI fills in -------------------------------------------------------------------

# modelled on a GitLab project whose job rewrites the base's registry with sed before building
GITLAB_CI = """\
build:
  image: docker:24
  script:
    - docker login $CI_REGISTRY -u $CI_REGISTRY_USER -p $CI_JOB_TOKEN
    - |
      sed -i "s#CI_REGISTRY#$CI_REGISTRY#" Dockerfile
    - docker build -t $CI_REGISTRY_IMAGE:latest .
"""
# modelled on a project whose workflow fills in `%BASE` and pipes the result to docker build
WORKFLOW = """\
on: push
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - run: sed "s#%BASE#nvidia/cuda:12.4.1-runtime-ubuntu22.04#g" Dockerfile | docker build -t vox -f- .
"""


def _based(tmp_path: Path, files: dict[str, str], readme: str) -> list[str]:
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "placeholder" in d.message
    ]


def placeholder(base: str, token: str, where: str, text: str, also: str = "") -> str:
    return (
        f"README's build of Dockerfile cannot start: its FROM at line 2 names {base}, whose {token} is a "
        f"placeholder only {where} fills in ({text}) before its own build; run as the README says, docker "
        f"has no such image to pull and stops at the FROM{also} (certain)"
    )


@pytest.mark.parametrize(
    ("files", "readme", "said"),
    [
        (
            {
                "Dockerfile": "# whisper\nFROM CI_REGISTRY/ml/rocm-base:latest\nRUN pip install whisper\n",
                ".gitlab-ci.yml": GITLAB_CI,
            },
            "# Whisper ROCm\n\n## Build\ndocker build -t whisper-rocm .\n",
            "4: "
            + placeholder(
                "CI_REGISTRY/ml/rocm-base:latest",
                "CI_REGISTRY",
                ".gitlab-ci.yml:6",
                'sed -i "s#CI_REGISTRY#$CI_REGISTRY#" Dockerfile',
            ),
        ),
        (
            {
                "Dockerfile": "# vox\nFROM %BASE\nRUN pip install vox\n",
                ".github/workflows/image.yml": WORKFLOW,
            },
            "# Vox\n\n```bash\ndocker build -t vox .\n```\n\nOr `docker build -t vox:dev .`\n",
            "4: "
            + placeholder(
                "%BASE",
                "%BASE",
                ".github/workflows/image.yml:6",
                'sed "s#%BASE#nvidia/cuda:12.4.1-runtime-ubuntu22.04#g" Dockerfile '
                "| docker build -t vox -f- .",
                "; also at line 7",
            ),
        ),
    ],
)
def test_a_base_only_ci_fills_in(tmp_path: Path, files: dict[str, str], readme: str, said: str) -> None:
    assert _based(tmp_path, files, readme) == [said]


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        (  # the README runs the script that fills it in
            {
                "Dockerfile": "# b\nFROM <base-image>\n",
                "build.sh": "sed 's#<base-image>#ubuntu:22.04#' Dockerfile\n",
            },
            "# B\n\n```bash\n./build.sh\ndocker build -t b .\n```\n",
        ),
        (  # the README fills it in itself
            {"Dockerfile": "# b\nFROM CI_REGISTRY/base:1\n", ".gitlab-ci.yml": GITLAB_CI},
            "# B\n\n```bash\nsed -i 's#CI_REGISTRY#registry.example.org#' Dockerfile\n"
            "docker build -t b .\n```\n",
        ),
        (  # nothing fills it in: no claim of CI here (another rule's matter)
            {"Dockerfile": "# b\nFROM MY_REGISTRY/base:1\n"},
            "# B\n\n```bash\ndocker build -t b .\n```\n",
        ),
        (  # a build arg, which CI passes with --build-arg
            {"Dockerfile": "ARG BASE=ubuntu:22.04\nFROM ${BASE}\n", ".gitlab-ci.yml": GITLAB_CI},
            "# B\n\n```bash\ndocker build -t b .\n```\n",
        ),
        (  # a registry host written in capitals is a host, not a placeholder of the script
            {"Dockerfile": "# b\nFROM Registry.Example.org/base:1\n", ".gitlab-ci.yml": GITLAB_CI},
            "# B\n\n```bash\ndocker build -t b .\n```\n",
        ),
    ],
)
def test_bases_the_readme_can_build(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    assert _based(tmp_path, files, readme) == []


# -- an option a package installer refuses -----------------------------------------------------------

# modelled on a notebook image whose last layer reinstalls torch with a slipped option
NOTEBOOK = """FROM quay.io/example/notebook:cuda12
USER root
RUN apt-get update && apt-get install -y --no-install-recommends build-essential && \\
    rm -rf /var/lib/apt/lists/*
USER 1000
RUN pip install ---no-cache-dir -upgrade torch torchvision \\
    --index-url https://download.example.org/whl/cu121
"""


def test_a_run_with_an_option_pip_refuses(tmp_path: Path) -> None:
    assert _audited(tmp_path, NOTEBOOK) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 6 runs pip install with "
        '---no-cache-dir, an option pip does not take (three dashes): it stops with "no such option: '
        '---no-cache-dir" before it installs anything (certain)'
    ]


def test_a_run_with_a_slipped_apt_option_is_likely(tmp_path: Path) -> None:
    # modelled on a Rails image: the slip is on the RUN's second line
    dockerfile = (
        "FROM ruby:3.3\nRUN apt-get update -qq \\\n  && apt-get install -yqq --no-install-recomends \\\n"
        "    postgresql-client nodejs\n"
    )
    assert _audited(tmp_path, dockerfile) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 2 runs apt-get install with "
        "--no-install-recomends (line 3), an option apt-get does not take (did you mean "
        '--no-install-recommends?): it stops with "Command line option --no-install-recomends is not '
        'understood in combination with the other options" before it installs anything (likely)'
    ]


@pytest.mark.parametrize(
    "run",
    [
        "pip install --no-cache --upgrade-strategy eager ferry",
        "apt-get -o Dpkg::Options::=--force-confold install -yqq --no-install-recommends git",
        "pip install --global-option --with-cuda ferry",
        "pip install --a-newer-switch ferry",
        "conda run -n tune pip install ---x",
    ],
)
def test_runs_whose_installer_options_are_taken_or_not_read(tmp_path: Path, run: str) -> None:
    assert _audited(tmp_path, f"FROM python:3.12\nRUN {run}\n") == []
