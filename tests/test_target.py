"""`target = "STAGE"` on an image: its Dockerfile documented as `docker build --target STAGE` builds it.
The stage named is the final one, stages it does not need list nothing, an unknown stage is an error at
the config line. End to end through `docgen.cli.main`, and the evaluator's part directly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.dockerfile import parse_dockerfile
from docgen.errors import ConfigError, DockerfileError
from docgen.evaluate import evaluate
from docgen.fastcheck import fast_check
from docgen.pipeline import build_model
from docgen.stages import mermaid

# a multi-target Dockerfile as inference servers write them: a build stage, a slim base the wheel is
# installed into, then one target to test and one to serve
DOCKERFILE = """\
ARG CUDA_VERSION=12.9.1
ARG PYTHON_VERSION=3.12

FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base
ARG PYTHON_VERSION
RUN apt-get update && apt-get install -y python${PYTHON_VERSION}
RUN pip install torch==2.8.0

FROM base AS build
# Parallel compile jobs.
ARG max_jobs=2
RUN pip install ninja==1.11.1 cmake==3.31.6
RUN python3 setup.py bdist_wheel --dist-dir=dist

FROM nvidia/cuda:${CUDA_VERSION}-base-ubuntu22.04 AS vllm-base
COPY --from=build /workspace/dist /tmp/dist
RUN pip install /tmp/dist/*.whl flashinfer-python==0.3.1

FROM vllm-base AS test
# pytest for the test suite.
ARG PYTEST_VERSION=8.3.5
RUN pip install pytest==${PYTEST_VERSION} pytest-asyncio==0.24.0

FROM vllm-base AS vllm-openai
RUN pip install accelerate==1.10.0 hf_transfer==0.1.9
ENTRYPOINT ["vllm", "serve"]
"""

README = """\
# vLLM

<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

<!-- BEGIN docgen:build-args -->
<!-- END docgen:build-args -->

<!-- BEGIN docgen:contents -->
<!-- END docgen:contents -->
"""


def configure(project: Path, target: str | None) -> None:
    line = f'target = "{target}"\n' if target is not None else ""
    (project / "pyproject.toml").write_text(
        f'[tool.docgen]\n\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\n{line}'
        'outputs = ["README.md"]\n'
    )


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    make_tree(chdir_tmp, {"docker/Dockerfile": DOCKERFILE, "README.md": README})
    return chdir_tmp


def test_the_target_stage_is_the_final_one(project: Path) -> None:
    configure(project, "test")
    assert run("sync").code == 0
    text = (project / "README.md").read_text()
    assert "| pytest | `8.3.5`" in text and "pytest-asyncio" in text
    assert "`PYTEST_VERSION` | `8.3.5`" in text
    assert "flashinfer-python" in text and "ninja" in text  # the stages it needs (FROM, COPY --from)
    assert "accelerate" not in text and "hf_transfer" not in text  # `vllm-openai` is not built
    assert "--target test" in text
    assert "not built by default" not in text
    assert run("check").code == 0


def test_stages_the_target_does_not_need_list_nothing(project: Path) -> None:
    configure(project, "vllm-openai")
    assert run("sync").code == 0
    text = (project / "README.md").read_text()
    assert "accelerate" in text and "--target vllm-openai" in text
    assert "pytest" not in text and "PYTEST_VERSION" not in text


def test_without_a_target_the_last_stage_is_built_and_others_are_marked(project: Path) -> None:
    configure(project, None)
    assert run("sync").code == 0
    text = (project / "README.md").read_text()
    assert "accelerate" in text and "--target" not in text
    row = next(line for line in text.splitlines() if line.startswith("| pytest |"))
    assert row.endswith("| `test` (not built by default) | [L22](docker/Dockerfile#L22) |")


def test_changing_the_target_makes_check_stale(project: Path) -> None:
    configure(project, "vllm-openai")
    assert run("sync").code == 0
    assert fast_check([], io.StringIO(), str(project)) == 0
    configure(project, "test")
    assert fast_check([], io.StringIO(), str(project)) is None
    result = run("check")
    assert result.code == 1 and "README.md is out of date" in result.out


def test_an_unknown_stage_is_an_error_at_the_config_line_with_a_suggestion(project: Path) -> None:
    configure(project, "vllm-opnai")
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.out, result.err) == (
            2,
            "",
            "pyproject.toml:5: target = 'vllm-opnai' is no stage of docker/Dockerfile (did you mean "
            "'vllm-openai'?); its stages: base, build, vllm-base, test, vllm-openai\n",
        )


def test_an_arg_only_a_stage_not_built_declares_is_an_error(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.docgen]\n\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\ntarget = "vllm-openai"\n'
        'args = { PYTEST_VERSION = "8.4.0" }\noutputs = ["README.md"]\n'
    )
    result = run("check")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml:6: args: PYTEST_VERSION is no ARG of docker/Dockerfile that target = 'vllm-openai' "
        "builds (did you mean PYTHON_VERSION?); docker build would not use it\n",
    )


def test_a_target_that_is_no_stage_name_is_an_error(project: Path) -> None:
    configure(project, "vllm openai")
    result = run("check")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml:5: target = 'vllm openai' must be the name of a stage (FROM … AS name)\n",
    )


def test_the_evaluator_matches_stage_names_as_buildkit_does() -> None:
    parsed = parse_dockerfile(DOCKERFILE, "Dockerfile")
    stages = evaluate(parsed).stages
    assert evaluate(parsed).target == -1
    assert stages[evaluate(parsed, target="VLLM-Base").target].name == "vllm-base"  # case ignored
    with pytest.raises(DockerfileError) as caught:
        evaluate(parsed, target="1")  # `--target` takes a name, not an index
    assert str(caught.value).startswith("Dockerfile: --target 1: no such stage; its stages: base, build")
    with pytest.raises(ConfigError) as at_config:
        evaluate(parsed, target="tests", target_at=("pyproject.toml", 7))
    assert str(at_config.value).startswith("pyproject.toml:7: target = 'tests' is no stage of Dockerfile")
    assert "(did you mean 'test'?)" in str(at_config.value)


def test_the_stage_diagram_marks_the_target(project: Path) -> None:
    model = build_model(project / "docker/Dockerfile", "docker/Dockerfile", target="build")
    assert model.target is not None and model.target.name == "build"
    assert mermaid(model).endswith("style s1 stroke-width:3px")
    assert build_model(project / "docker/Dockerfile").target.name == "vllm-openai"  # type: ignore[union-attr]


def test_one_dockerfile_with_two_targets_needs_names(project: Path) -> None:
    entry = '\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\ntarget = "{}"\noutputs = ["{}.md"]\n'
    (project / "pyproject.toml").write_text(
        "[tool.docgen]\n" + entry.format("test", "test") + entry.format("vllm-openai", "openai")
    )
    result = run("check")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml:8: two [[tool.docgen.images]] are named 'docker' (docker/Dockerfile and "
        'docker/Dockerfile); give one a name = "…" of its own\n',
    )


def test_sync_with_flags_keeps_the_configured_images_target(project: Path) -> None:
    configure(project, "test")
    result = run("sync", "--dockerfile", "docker/Dockerfile", "--output", "README.md")
    assert (result.code, result.err) == (0, "")
    assert "--target test" in (project / "README.md").read_text()
    assert run("check").code == 0  # the same blocks the configuration gives
