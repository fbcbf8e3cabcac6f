"""`docgen.arg_reads`: the build args a RUN cannot do without (`ImageModel.required_args`). Input/expected
pairs: each Dockerfile a small model written for these tests."""

from __future__ import annotations

import pytest

from docgen.arg_reads import inert_args, required_args
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate


def required(text: str) -> list[tuple[str, int, str, str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    return [(r.name, r.line, r.stage, r.command) for r in required_args(parsed, evaluate(parsed))]


@pytest.mark.parametrize(
    ("run", "command"),
    [
        ("useradd -m -u 1000 -s /bin/bash ${DEV_USER}", "useradd -m -u 1000 -s /bin/bash ${DEV_USER}"),
        ('groupadd -g 1000 "$DEV_USER"', 'groupadd -g 1000 "$DEV_USER"'),
        ("apt-get update && sudo useradd -m $DEV_USER", "sudo useradd -m $DEV_USER"),
        ("useradd -s $DEV_USER", "useradd -s $DEV_USER"),  # an option left without its value
        ("mkdir -p ${DEV_USER}", "mkdir -p ${DEV_USER}"),
        ('mkdir -p "${DEV_USER}" && echo made', 'mkdir -p "${DEV_USER}"'),
        ("chown -R 1000:1000 ${DEV_USER}", "chown -R 1000:1000 ${DEV_USER}"),
        ("git clone --depth 1 --branch v2 ${DEV_USER}", "git clone --depth 1 --branch v2 ${DEV_USER}"),
        ("echo start; useradd -m $DEV_USER", "useradd -m $DEV_USER"),
    ],
)
def test_a_command_that_fails_with_the_arg_empty(run: str, command: str) -> None:
    text = f"FROM debian:12\nARG DEV_USER\nRUN {run}\n"
    assert required(text) == [("DEV_USER", 3, "#0", command)]


@pytest.mark.parametrize(
    "run",
    [
        "useradd -m ${DEV_USER} || true",  # the failure is caught
        "useradd -m ${DEV_USER}; echo done",  # `echo` decides the RUN's status
        "id ${DEV_USER} || useradd -m ${DEV_USER}",  # runs only when the first fails
        'if [ -n "$DEV_USER" ]; then useradd -m $DEV_USER; fi',  # a choice
        "useradd -m ${DEV_USER} > /dev/null",  # a redirection: not read
        "useradd -m ${DEV_USER:-dev}",  # a fallback
        'useradd -m dev -c "$DEV_USER"',  # an empty comment is fine
        "chown -R dev /opt/${DEV_USER}",  # not the whole word
        "chown dev:dev /srv ${DEV_USER}",  # enough operands without it
        "mkdir -m 755 /srv ${DEV_USER}",
        "chmod --reference=/etc/hosts ${DEV_USER}",
        "echo ${DEV_USER} | useradd -m ${DEV_USER}",  # in a pipeline
        "useradd -D -s ${DEV_USER}",  # the defaults mode
        "cp ${DEV_USER}",  # a command docgen does not count
    ],
)
def test_a_command_that_does_not_decide_the_build(run: str) -> None:
    assert required(f"FROM debian:12\nARG DEV_USER\nRUN {run}\n") == []


def test_an_arg_with_a_default_an_env_or_out_of_scope_is_not_required() -> None:
    run = "RUN useradd -m ${DEV_USER}\n"
    assert required(f"FROM debian:12\nARG DEV_USER=dev\n{run}") == []
    assert required(f"FROM debian:12\nARG DEV_USER\nENV DEV_USER=dev\n{run}") == []
    # declared with a default elsewhere: a default may reach it
    assert required(f"ARG DEV_USER=dev\nFROM debian:12\nARG DEV_USER\n{run}") == []
    # not declared in the stage: `--build-arg` cannot reach the RUN, a matter for `lint`
    assert required(f"ARG DEV_USER\nFROM debian:12\n{run}") == []
    # declared after the RUN
    assert required(f"FROM debian:12\n{run}ARG DEV_USER\n") == []
    # a SHELL that is no POSIX shell
    shell = 'SHELL ["pwsh", "-Command"]\n'
    assert required(f"FROM mcr.microsoft.com/powershell\nARG DEV_USER\n{shell}{run}") == []


def test_an_env_passing_the_arg_on_keeps_it_empty() -> None:
    text = "FROM debian:12\nARG model_dir\nENV model_dir=${model_dir}\nRUN mkdir -p ${model_dir}\n"
    assert required(text) == [("model_dir", 4, "#0", "mkdir -p ${model_dir}")]


def test_a_test_of_the_arg_and_the_stage_it_is_in() -> None:
    text = (
        'FROM alpine:3.20 AS fetch\nARG SOURCE_REV\nRUN test -n "$SOURCE_REV" && wget x/$SOURCE_REV\n'
        "FROM fetch AS dev\nRUN useradd -m $SOURCE_REV\n"
    )
    assert required(text) == [
        ("SOURCE_REV", 3, "fetch", ""),
        ("SOURCE_REV", 5, "dev", "useradd -m $SOURCE_REV"),
    ]


def test_a_stage_keeps_the_shell_of_the_stage_it_is_built_from() -> None:
    text = (
        'FROM mcr.microsoft.com/powershell AS win\nSHELL ["pwsh", "-Command"]\n'
        "FROM win AS app\nARG DEV_USER\nRUN useradd -m ${DEV_USER}\n"
        "FROM debian:12 AS other\nARG DEV_USER\nRUN useradd -m ${DEV_USER}\n"
    )
    assert required(text) == [("DEV_USER", 8, "other", "useradd -m ${DEV_USER}")]


# --------------------------------------------------------------------------------------------------
# Build args read only in an option of a GPU backend the build does not select


def inert(text: str) -> list[tuple[str, int, str, str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    return list(inert_args(parsed, evaluate(parsed)))


SIM = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG GPU_TARGET=sm_80
RUN cmake -S sim -B build -D PKG_GPU=on -D GPU_API={api} -D {option}=${{GPU_TARGET}} && cmake --build build
"""
"""A molecular-dynamics build whose GPU package takes its backend from `GPU_API`."""


def test_an_arch_option_of_a_backend_the_build_does_not_select() -> None:
    assert inert(SIM.format(api="CUDA", option="HIP_ARCH")) == [("GPU_TARGET", 3, "HIP_ARCH", "GPU_API=CUDA")]
    # one of the backend it selects: read
    assert inert(SIM.format(api="HIP", option="HIP_ARCH")) == []
    assert inert(SIM.format(api="cuda", option="CUDA_ARCH")) == []
    # an option docgen knows no backend of
    assert inert(SIM.format(api="CUDA", option="GPU_ARCH")) == []


def test_a_backend_switched_on_by_its_own_option() -> None:
    llm = (
        "FROM rocm/dev-ubuntu-22.04:6.1\nARG CUDA_DOCKER_ARCH=86\n"
        "RUN cmake -B build -DGGML_CUDA=OFF -DGGML_HIP=ON -DCMAKE_CUDA_ARCHITECTURES=${CUDA_DOCKER_ARCH} "
        "&& cmake --build build -j\n"
    )
    assert inert(llm) == [("CUDA_DOCKER_ARCH", 3, "CMAKE_CUDA_ARCHITECTURES", "GGML_HIP=ON")]
    both = llm.replace("-DGGML_CUDA=OFF", "-DGGML_CUDA=ON")
    assert inert(both) == []  # two backends: the option may be read


def test_an_arg_read_anywhere_else_is_not_inert() -> None:
    text = SIM.format(api="CUDA", option="HIP_ARCH")
    assert inert(text.replace("&& cmake --build", "&& echo ${GPU_TARGET} && cmake --build")) == []
    assert inert(text + "ENV GPU_TARGET=${GPU_TARGET}\n") == []
    assert inert(text + "RUN make -C extra ARCH=$GPU_TARGET\n") == []
