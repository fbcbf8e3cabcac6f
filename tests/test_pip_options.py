"""pip and uv options that take a value: docgen's table against pip's own parser, and what a user sees
when an option's value would otherwise be read as a package (`--resume-retries 999` is no package)."""

from __future__ import annotations

import pytest

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate
from docgen.model import Component
from docgen.sources.pip import PIP_VALUE_OPTIONS, UV_VALUE_OPTIONS

pip_commands = pytest.importorskip("pip._internal.commands")


@pytest.mark.parametrize("command", ["install", "download", "wheel", "uninstall"])
def test_every_pip_option_that_takes_a_value_is_known(command: str) -> None:
    parser = pip_commands.create_command(command).parser
    taking = {
        name
        for option in parser._get_all_options()
        if option.takes_value()
        for name in (*option._short_opts, *option._long_opts)
    }
    assert taking, "pip's parser lists no option: the test would prove nothing"
    assert sorted(taking - PIP_VALUE_OPTIONS) == []


def components_of(text: str) -> tuple[Component, ...]:
    parsed = parse_dockerfile(text, "Dockerfile")
    return extract(parsed, evaluate(parsed))[0]


def _names(dockerfile: str) -> list[tuple[str, str]]:
    return [(c.name, c.display_version) for c in components_of(dockerfile) if c.kind != "image"]


def test_resume_retries_value_is_no_package() -> None:
    found = _names(
        "FROM python:3.12\n"
        "RUN pip3 install --resume-retries 999 --no-build-isolation "
        "git+https://github.com/NVIDIA/TransformerEngine.git@v2.6\n"
    )
    assert found == [("TransformerEngine", "v2.6")]


@pytest.mark.parametrize(
    "options",
    [
        "--root-user-action ignore --exists-action w --progress-bar off",
        "--use-feature fast-deps --report /tmp/r.json --uploaded-prior-to 2025-01-01",
        "--timeout=60 --retries 5 -C build-dir=/tmp -t/opt/site",
    ],
)
def test_pip_option_values_are_no_packages(options: str) -> None:
    found = _names(f"FROM python:3.12\nRUN pip install {options} deepspeed==0.17.5\n")
    assert found == [("deepspeed", "0.17.5")]


@pytest.mark.parametrize(
    "command",
    [
        "uv pip install --system --link-mode copy --refresh-package 3 --index-strategy unsafe-best-match",
        "uv pip install --torch-backend cu128 --fork-strategy fewest -P flashinfer-python",
        "uv add --bounds exact --marker 'sys_platform == \"linux\"' --optional gpu",
    ],
)
def test_uv_option_values_are_no_packages(command: str) -> None:
    found = _names(f"FROM python:3.12\nRUN {command} flashinfer-python==0.3.1\n")
    assert found == [("flashinfer-python", "0.3.1")]


def test_uv_tool_install_option_values_are_no_packages() -> None:
    found = _names("FROM python:3.12\nRUN uv tool install --with-executables-from 2 ruff==0.6.9\n")
    assert found == [("ruff", "0.6.9")]


def test_an_unknown_option_followed_by_a_number_is_no_package() -> None:
    comps = components_of("FROM python:3.12\nRUN pip install --max-parallel-downloads 8 torch==2.7.1\n")
    assert [(c.name, c.version) for c in comps if c.kind == "pip"] == [("torch", "2.7.1")]


def test_an_unknown_flag_before_a_package_keeps_the_package() -> None:
    comps = components_of("FROM python:3.12\nRUN pip install --some-new-flag vllm==0.10.1\n")
    assert [(c.name, c.version) for c in comps if c.kind == "pip"] == [("vllm", "0.10.1")]


def test_the_uv_table_says_which_release_it_follows() -> None:
    assert {"--torch-backend", "--with-executables-from", "--link-mode"} <= UV_VALUE_OPTIONS
