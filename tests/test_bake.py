"""Bake files: an `[[tool.docgen.images]]` entry written `bake = "docker-bake.hcl"` (or `.json`) gives
one image per bake target, named after it, built with its args and target. `docgen.bake` reads the
file; end to end through `docgen.cli.main` in a temporary project."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen import bake
from docgen.config import load_config
from docgen.errors import ConfigError
from docgen.fastcheck import fast_check

DOCKERFILE = """\
ARG CUDA_VERSION=12.9.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base
ARG PYTHON_VERSION=3.12
RUN apt-get update && apt-get install -y python${PYTHON_VERSION}
RUN pip install torch==2.8.0

FROM base AS build
# Parallel compile jobs.
ARG max_jobs=2
RUN pip install ninja==1.11.1

FROM nvidia/cuda:${CUDA_VERSION}-base-ubuntu22.04 AS vllm-base
COPY --from=build /dist /tmp/dist
RUN pip install flashinfer-python==0.3.1

FROM vllm-base AS test
ARG PYTEST_VERSION=8.3.5
RUN pip install pytest==${PYTEST_VERSION}

FROM vllm-base AS vllm-openai
RUN pip install accelerate==1.10.0
"""

ROCM = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete
FROM ${BASE_IMAGE} AS base
ARG PYTORCH_ROCM_ARCH="gfx90a;gfx942"
RUN pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/rocm6.4
"""

HCL = """\
# the images of the project
variable "REGISTRY" {
  default = "docker.io/example"
}
variable "VERSION" { default = "0.10.2" }
variable "CUDA_129" { default = "12.9.1" }
JOBS = 16

group "default" {
  targets = ["cuda", "rocm"]
}

group "cuda" {
  targets = ["cu129", "cu130"]
}

target "_cuda" {
  context    = ".."
  dockerfile = "docker/Dockerfile"
  target     = "vllm-openai"
  args = {
    PYTHON_VERSION = "3.12"
    max_jobs       = JOBS
  }
}

target "cu129" {
  inherits = ["_cuda"]
  args     = { CUDA_VERSION = "${CUDA_129}" }
  tags     = ["${REGISTRY}/vllm:${VERSION}-cu129"]
}

target "cu130" {
  inherits = ["_cuda"]
  args     = { CUDA_VERSION = "13.0.2" }
  tags     = ["${REGISTRY}/vllm:${VERSION}-cu130", "${REGISTRY}/vllm:latest"]
}

target "rocm" {
  dockerfile = "Dockerfile.rocm"
  tags       = ["${REGISTRY}/vllm:${VERSION}-rocm"]
}
"""

JSON = {  # the same file as `docker buildx bake --print` shapes it
    "variable": {
        "REGISTRY": {"default": "docker.io/example"},
        "VERSION": {"default": "0.10.2"},
        "CUDA_129": {"default": "12.9.1"},
        "JOBS": {"default": 16},
    },
    "group": {"default": {"targets": ["cuda", "rocm"]}, "cuda": {"targets": ["cu129", "cu130"]}},
    "target": {
        "_cuda": {
            "context": "..",
            "dockerfile": "docker/Dockerfile",
            "target": "vllm-openai",
            "args": {"PYTHON_VERSION": "3.12", "max_jobs": "${JOBS}"},
        },
        "cu129": {
            "inherits": ["_cuda"],
            "args": {"CUDA_VERSION": "${CUDA_129}"},
            "tags": ["${REGISTRY}/vllm:${VERSION}-cu129"],
        },
        "cu130": {
            "inherits": ["_cuda"],
            "args": {"CUDA_VERSION": "13.0.2"},
            "tags": ["${REGISTRY}/vllm:${VERSION}-cu130", "${REGISTRY}/vllm:latest"],
        },
        "rocm": {"dockerfile": "Dockerfile.rocm", "tags": ["${REGISTRY}/vllm:${VERSION}-rocm"]},
    },
}

README = "# {name}\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n\n" + (
    "<!-- BEGIN docgen:contents -->\n<!-- END docgen:contents -->\n"
)

ENTRY = (
    '[tool.docgen]\n\n[[tool.docgen.images]]\nbake = "docker/{bake}"\n'
    'outputs = ["docker/README.{{name}}.md"]\n'
)


@pytest.fixture(params=["docker-bake.hcl", "docker-bake.json"])
def project(request: pytest.FixtureRequest, chdir_tmp: Path) -> Path:
    """A CUDA Dockerfile with several targets, a ROCm one, and a bake file (HCL or JSON) building a
    cu129/cu130 pair and the ROCm image."""
    name = request.param
    make_tree(
        chdir_tmp,
        {
            "docker/Dockerfile": DOCKERFILE,
            "docker/Dockerfile.rocm": ROCM,
            f"docker/{name}": HCL if name.endswith(".hcl") else json.dumps(JSON, indent=2),
            "pyproject.toml": ENTRY.format(bake=name),
            **{f"docker/README.{n}.md": README.format(name=n) for n in ("cu129", "cu130", "rocm")},
        },
    )
    return chdir_tmp


def test_a_bake_file_gives_one_image_per_target_of_its_default_group(project: Path) -> None:
    images = load_config(cwd=project).images
    assert [(i.name, i.display) for i in images] == [
        ("cu129", "docker/Dockerfile"),
        ("cu130", "docker/Dockerfile"),
        ("rocm", "docker/Dockerfile.rocm"),
    ]
    cu129, cu130, rocm = images
    # inherited from `_cuda` (a number written as bake passes it), then the target's own
    assert cu129.args == {"PYTHON_VERSION": "3.12", "max_jobs": "16", "CUDA_VERSION": "12.9.1"}
    assert cu130.args["CUDA_VERSION"] == "13.0.2"
    assert (cu129.target, cu130.target, rocm.target) == ("vllm-openai", "vllm-openai", None)
    assert cu130.tags == ("docker.io/example/vllm:0.10.2-cu130", "docker.io/example/vllm:latest")
    assert rocm.tags == ("docker.io/example/vllm:0.10.2-rocm",)
    assert rocm.args == {}


def test_sync_documents_each_target_as_docker_buildx_bake_builds_it(project: Path) -> None:
    assert run("sync").code == 0
    cu129 = (project / "docker/README.cu129.md").read_text()
    cu130 = (project / "docker/README.cu130.md").read_text()
    assert "| CUDA | `12.9.1`" in cu129 and "| CUDA | `13.0.2`" in cu130
    assert "accelerate" in cu130  # the target stage
    assert "pytest" not in cu130  # the `test` stage: `--target vllm-openai` does not build it
    assert "| PyTorch | `2.7.1`" in (project / "docker/README.rocm.md").read_text()
    assert run("check").code == 0


def test_an_edited_bake_file_makes_check_stale_on_the_fast_path(project: Path) -> None:
    assert run("sync").code == 0
    assert fast_check([], io.StringIO(), str(project)) == 0
    bake_file = next((project / "docker").glob("docker-bake.*"))
    bake_file.write_text(bake_file.read_text().replace("13.0.2", "13.0.1"))
    assert fast_check([], io.StringIO(), str(project)) is None  # the record was made from other bytes
    result = run("check")
    assert result.code == 1
    assert "docker/README.cu130.md is out of date" in result.out
    assert "docker/README.cu129.md is up to date" in result.out
    assert run("sync").code == 0
    assert "| CUDA | `13.0.1`" in (project / "docker/README.cu130.md").read_text()
    assert fast_check([], io.StringIO(), str(project)) == 0


def test_targets_chooses_targets_and_groups(project: Path) -> None:
    bake_name = next((project / "docker").glob("docker-bake.*")).name
    (project / "pyproject.toml").write_text(
        ENTRY.format(bake=bake_name).replace("outputs", 'targets = ["rocm", "cuda"]\noutputs')
    )
    assert [i.name for i in load_config(cwd=project).images] == ["rocm", "cu129", "cu130"]


def test_the_entrys_own_args_and_target_win_over_the_bake_files(project: Path) -> None:
    bake_name = next((project / "docker").glob("docker-bake.*")).name
    (project / "pyproject.toml").write_text(
        ENTRY.format(bake=bake_name).replace(
            "outputs", 'targets = ["cu130"]\nargs = { max_jobs = "4" }\ntarget = "test"\noutputs'
        )
    )
    (image,) = load_config(cwd=project).images
    assert image.args["max_jobs"] == "4" and image.args["CUDA_VERSION"] == "13.0.2"
    assert image.target == "test"
    assert run("sync").code == 0
    text = (project / "docker/README.cu130.md").read_text()
    assert "pytest" in text and "accelerate" not in text


def test_an_arg_of_the_bake_file_no_arg_reads_is_no_error_but_the_entrys_is(project: Path) -> None:
    bake_file = next((project / "docker").glob("docker-bake.*"))
    text = bake_file.read_text()
    bake_file.write_text(text.replace("PYTHON_VERSION", "BUILDKIT_CONTEXT_KEEP_GIT_DIR", 1))
    assert run("sync").code == 0  # bake passes its args to every target; docker only warns
    (project / "pyproject.toml").write_text(
        ENTRY.format(bake=bake_file.name).replace("outputs", 'args = { max_job = "4" }\noutputs')
    )
    result = run("check")
    assert result.code == 2
    assert result.err == (
        "pyproject.toml:5: args: max_job is no ARG of docker/Dockerfile that target = 'vllm-openai' "
        "builds (did you mean max_jobs?); docker build would not use it\n"
    )


def test_an_arg_a_bake_target_sets_itself_that_no_arg_declares_is_an_error_at_its_line(
    project: Path,
) -> None:
    """`CUDA_VERSON` in cu130's own args: docker buildx bake builds it with the Dockerfile's default
    CUDA, silently; the README would say the same. An arg BuildKit reads itself is no mistake."""
    bake_file = next((project / "docker").glob("docker-bake.*"))
    text = bake_file.read_text()
    assert text.count('"13.0.2"') == 1
    bake_file.write_text(text.replace("CUDA_VERSION", "BUILDKIT_INLINE_CACHE", 1))
    assert run("sync").code == 0
    typo = text.replace('CUDA_VERSION = "13.0.2"', 'CUDA_VERSON = "13.0.2"')
    typo = typo.replace('"CUDA_VERSION": "13.0.2"', '"CUDA_VERSON": "13.0.2"')
    bake_file.write_text(typo)
    line = typo.splitlines().index(next(row for row in typo.splitlines() if "CUDA_VERSON" in row)) + 1
    result = run("check")
    assert result.code == 2
    assert result.err == (
        f'docker/{bake_file.name}:{line}: target "cu130" sets build arg CUDA_VERSON, which '
        "docker/Dockerfile that target = 'vllm-openai' builds does not declare (did you mean "
        "CUDA_VERSION?); docker buildx bake would not use it\n"
    )
    # the entry's own `args` wins over the bake file's: then the bake file's name is not used
    (project / "pyproject.toml").write_text(
        ENTRY.format(bake=bake_file.name).replace("outputs", 'args = { CUDA_VERSON = "1" }\noutputs')
    )
    assert "pyproject.toml:5: args: CUDA_VERSON is no ARG" in run("check").err


def test_an_entrys_arg_buildkit_reads_itself_is_no_error(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": "FROM ubuntu:22.04\n",
            "README.md": README.format(name="x"),
            "pyproject.toml": '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\n'
            'args = { BUILDKIT_INLINE_CACHE = "1", HTTPS_PROXY = "http://proxy:3128" }\n'
            'outputs = ["README.md"]\n',
        },
    )
    assert run("sync").code == 0


def parse(text: str, name: str = "docker-bake.hcl") -> bake.BakeFile:
    return bake.parse(text.encode(), name)


def test_inherits_in_order_later_wins_own_attributes_win_args_merge() -> None:
    found = parse(
        """
target "a" {
  dockerfile = "a.Dockerfile"
  target = "one"
  args = { X = "a", Y = "a" }
}
target "b" {
  dockerfile = "b.Dockerfile"
  args = { Y = "b", Z = "b" }
  tags = ["b"]
}
target "c" {
  inherits = ["a", "b"]
  args = { Z = "c" }
}
target "d" {
  inherits = ["c"]
  dockerfile = "d.Dockerfile"
  context = "sub"
}
"""
    )
    c = found.target("c")
    assert (c.dockerfile, c.target, c.tags) == ("b.Dockerfile", "one", ("b",))
    assert c.args == {"X": "a", "Y": "b", "Z": "c"}
    d = found.target("d")
    assert (d.dockerfile, d.args) == ("sub/d.Dockerfile", {"X": "a", "Y": "b", "Z": "c"})
    assert found.default() == ("d",)  # a, b and c are inherited: templates, not images
    assert found.target("a").dockerfile == "a.Dockerfile"


def test_variables_are_their_defaults_never_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAG", "from-the-environment")
    found = parse(
        """
variable "TAG" { default = "1.0" }
variable "IMAGE" { default = "org/app:${TAG}" }
variable "EMPTY" {}
variable "ON" { default = true }
target "default" {
  args = { A = "${IMAGE}", B = "x-${EMPTY}-y", C = ON, D = "$${TAG}", E = TAG }
}
"""
    )
    assert found.default() == ("default",)
    assert found.target("default").args == {
        "A": "org/app:1.0",
        "B": "x--y",
        "C": "true",
        "D": "${TAG}",
        "E": "1.0",
    }


def test_without_a_default_group_every_target_no_other_inherits_is_an_image() -> None:
    found = parse('target "_common" {}\ntarget "x" { inherits = ["_common"] }\ntarget "y" {}\n')
    assert found.default() == ("x", "y")
    assert found.target("y").dockerfile == "Dockerfile"  # bake's defaults: context ".", Dockerfile


def test_the_json_form_reads_like_the_hcl_form() -> None:
    hcl = parse(HCL)
    as_json = parse(json.dumps(JSON), "docker-bake.json")
    assert hcl.default() == as_json.default() == ("cu129", "cu130", "rocm")
    for name in hcl.default():
        assert hcl.target(name).args == as_json.target(name).args
        assert hcl.target(name).tags == as_json.target(name).tags
        assert hcl.target(name).dockerfile == as_json.target(name).dockerfile


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (  # bake's own example names its targets with a function: docgen reads none
            'target "m" {\n  matrix = { v = ["1.0", "2.0"] }\n  name = "m-${replace(v, ".", "-")}"\n}\n',
            3,
            '${replace(v, ".", "-")}: functions are not supported (replace(…))',
        ),
        (
            'target "m" {\n  matrix = { v = [1, 2] }\n  name = "m-${v + 1}"\n}\n',
            3,
            "${v + 1} is not supported: docgen reads variables",
        ),
        (
            'target "m" {\n  matrix = { v = split(",", "a,b") }\n  name = "m-${v}"\n}\n',
            2,
            '${split(",", "a,b")}: functions are not supported (split(…))',
        ),
        (
            'target "f" {\n  tags = [upper("x")]\n}\n',
            2,
            '${upper("x")}: functions are not supported (upper(…))',
        ),
        (
            'variable "A" { default = 1 }\ntarget "f" {\n  args = { X = A + 1 }\n}\n',
            3,
            "${A + 1} is not supported: docgen reads variables, literals, ==, !=, !, &&, || and `? :` in "
            "${…}, not functions or arithmetic",
        ),
        (
            'variable "A" { default = "x" }\ntarget "f" {\n  args = { X = A ? "1" : "2" }\n}\n',
            3,
            '${A ? "1" : "2"}: \'x\' is not true or false',
        ),
        (
            'function "tag" {\n  params = [v]\n  result = v\n}\ntarget "f" {}\n',
            1,
            "function blocks are not supported (docgen reads no bake functions)",
        ),
        ('target "f" {\n  args = { X = "${NOPE}" }\n}\n', 2, "${NOPE}: no variable 'NOPE' in this file"),
        (
            'target "f" {\n  context = "${BAKE_CMD_CONTEXT}"\n}\n',
            2,
            "${BAKE_CMD_CONTEXT} is not supported (it is set by the bake command)",
        ),
        (
            'target "f" {\n  inherits = ["nope"]\n}\n',
            2,
            "target \"f\": inherits 'nope', which is no target of this file",
        ),
        (
            'target "f" {\n  inherits = ["g"]\n}\ntarget "g" {\n  inherits = ["f"]\n}\n',
            2,
            'target "f": inherits itself (f -> g -> f)',
        ),
        (
            'target "f" {\n  context = "https://github.com/org/repo.git"\n}\n',
            2,
            "target \"f\": context = 'https://github.com/org/repo.git' is not a local folder; "
            "docgen reads the Dockerfiles of the project only",
        ),
        (
            'target "f" {\n  dockerfile-inline = "FROM alpine"\n}\n',
            2,
            'target "f": dockerfile-inline is not supported (docgen documents a Dockerfile file)',
        ),
    ],
)
def test_what_docgen_does_not_read_is_an_error_at_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        found = parse(text)
        for name in found.names:
            found.target(name)
    assert caught.value.path == "docker-bake.hcl"
    assert caught.value.line == line
    assert message in caught.value.message


def test_json_errors_name_their_line() -> None:
    text = '{\n  "target": {\n    "m": {\n      "dockerfile-inline": "FROM alpine"\n    }\n  }\n}\n'
    with pytest.raises(ConfigError) as caught:
        parse(text, "docker-bake.json").target("m")
    assert str(caught.value) == (
        'docker-bake.json:4: target "m": dockerfile-inline is not supported '
        "(docgen documents a Dockerfile file)"
    )
    with pytest.raises(ConfigError) as caught:
        parse('{\n  "target": {\n', "docker-bake.json")
    assert str(caught.value).startswith("docker-bake.json:3: invalid JSON:")


def test_without_python_hcl2_an_hcl_file_says_how_to_install_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "hcl2", None)  # `import hcl2` raises ImportError
    result = run("check")
    if (project / "docker/docker-bake.json").exists():
        assert result.code == 1  # JSON needs nothing but the standard library
        return
    assert result.code == 2
    assert result.err == (
        "docker/docker-bake.hcl: reading an HCL bake file needs the python-hcl2 package: "
        "pip install 'dockerdocgen[hcl]' (or write the file as JSON: docker buildx bake --print)\n"
    )


def config_error(project: Path, entry: str) -> str:
    (project / "pyproject.toml").write_text("[tool.docgen]\n\n[[tool.docgen.images]]\n" + entry)
    result = run("check")
    assert (result.code, result.out) == (2, "")
    return result.err


def test_config_mistakes_are_errors_at_the_config_line(project: Path) -> None:
    outputs = 'outputs = ["docker/README.{name}.md"]\n'
    bake_name = next((project / "docker").glob("docker-bake.*")).name
    shown = f"docker/{bake_name}"
    assert config_error(project, f'{outputs}bake = "docker/missing.hcl"\n') == (
        "pyproject.toml:5: bake = 'docker/missing.hcl': no such file\n"
    )
    assert config_error(project, f'bake = "{shown}"\ntargets = ["cu129", "rcom"]\n{outputs}') == (
        f"pyproject.toml:5: targets: 'rcom' is no target or group of {shown} (did you mean 'rocm'?); "
        "its targets: _cuda, cu129, cu130, rocm\n"
    )
    assert config_error(project, f'bake = "{shown}"\ndockerfile = "docker/Dockerfile"\n{outputs}') == (
        f"pyproject.toml:5: dockerfile and bake = '{shown}' in one [[tool.docgen.images]]: the bake "
        "file names the Dockerfiles; give dockerfile an entry of its own\n"
    )
    assert config_error(project, f'dockerfile = "docker/Dockerfile"\ntargets = ["cu129"]\n{outputs}') == (
        'pyproject.toml:5: targets chooses targets of a bake file: it needs bake = "docker-bake.hcl"\n'
    )
    (project / "docker/Dockerfile.rocm").unlink()
    assert config_error(project, f'bake = "{shown}"\n{outputs}') == (
        f"pyproject.toml:4: bake = '{shown}': target \"rocm\" builds Dockerfile.rocm, which does not exist "
        "(context + dockerfile, relative to docker/ or to the project folder)\n"
    )


def test_two_bake_targets_may_not_share_a_name_with_another_image(project: Path) -> None:
    bake_name = next((project / "docker").glob("docker-bake.*")).name
    (project / "pyproject.toml").write_text(
        ENTRY.format(bake=bake_name)
        + '\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile.rocm"\noutputs = ["README.md"]\n'
    )
    result = run("check")
    assert result.code == 2
    assert "two [[tool.docgen.images]] are named 'rocm'" in result.err


def test_an_unknown_stage_in_the_bake_file_is_an_error_at_its_line(project: Path) -> None:
    bake_file = next((project / "docker").glob("docker-bake.*"))
    bake_file.write_text(bake_file.read_text().replace('"vllm-openai"', '"vllm-opnai"'))
    result = run("check")
    assert result.code == 2
    line = 1 + bake_file.read_text()[: bake_file.read_text().index('"vllm-opnai"')].count("\n")
    assert result.err == (
        f"docker/{bake_file.name}:{line}: target = 'vllm-opnai' is no stage of docker/Dockerfile "
        "(did you mean 'vllm-openai'?); its stages: base, build, vllm-base, test, vllm-openai\n"
    )


def test_a_target_outside_the_project_is_an_error_at_the_config_line(project: Path) -> None:
    (project / "docker/docker-bake.json").write_text(
        json.dumps({"target": {"up": {"context": "../..", "dockerfile": "Dockerfile"}}})
    )
    (project / "pyproject.toml").write_text(ENTRY.format(bake="docker-bake.json"))
    result = run("check")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml:4: bake = 'docker/docker-bake.json': target \"up\" builds ../Dockerfile, outside "
        "the project folder\n",
    )


def test_build_metadata_expressions_are_evaluated() -> None:
    found = parse(
        """
variable "COMMIT" { default = "" }
variable "BUILD_COMMIT" { default = "unknown" }
variable "JOBS" { default = 16 }
target "default" {
  args = {
    VLLM_BUILD_COMMIT = BUILD_COMMIT != "unknown" ? BUILD_COMMIT : (COMMIT != "" ? COMMIT : "unknown")
    PARALLEL = JOBS == 16 && !false ? "wide" : "narrow"
    SUFFIX = "cu-${COMMIT == "" ? "dev" : COMMIT}"
  }
  labels = { "org.opencontainers.image.revision" = substr(COMMIT, 0, 7) }
}
"""
    )
    assert found.target("default").args == {
        "VLLM_BUILD_COMMIT": "unknown",
        "PARALLEL": "wide",
        "SUFFIX": "cu-dev",
    }  # `labels` is not read: its function is no error


def test_and_binds_tighter_than_or_and_both_chain() -> None:
    found = parse(
        """
target "default" {
  args = {
    TIGHT = true || false && false ? "and first" : "left to right"
    OR3 = false || false || true ? "yes" : "no"
    AND3 = true && true && false ? "yes" : "no"
  }
}
"""
    )
    assert found.target("default").args == {"TIGHT": "and first", "OR3": "yes", "AND3": "no"}


def test_a_context_relative_to_the_project_root_is_found_too(project: Path) -> None:
    """`docker buildx bake -f docker/docker-bake.hcl` run from the root: `context = "."` is the root."""
    (project / "docker/docker-bake.json").write_text(
        json.dumps({"target": {"default": {"context": ".", "dockerfile": "docker/Dockerfile"}}})
    )
    (project / "pyproject.toml").write_text(ENTRY.format(bake="docker-bake.json").replace("{name}", "cu129"))
    (image,) = load_config(cwd=project).images
    assert (image.name, image.display) == ("default", "docker/Dockerfile")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"group": {"default": {"targets": ["a"]}, "a": {"targets": ["default"]}}, "target": {}},
            'docker-bake.json:1: group "a": holds itself (default -> a -> default)',
        ),
        (
            {"group": {"default": {"targets": ["nope"]}}, "target": {}},
            "docker-bake.json:1: group \"default\": 'nope' is no target or group of this file",
        ),
        (  # 10 keys of 10 values: 10**10 targets; refused before any is made
            {"target": {"gpu": {"name": "gpu", "matrix": {f"k{i}": list("0123456789") for i in range(10)}}}},
            'docker-bake.json:1: target "gpu": the matrix targets of this file number more than 4096, '
            "more than docgen reads",
        ),
        (
            {"target": {"t": {"args": {"A": "${" + "(" * 5000 + "1" + ")" * 5000 + "}"}}}},
            "docker-bake.json:1: nested too deeply to read (Python's recursion limit)",
        ),
        (
            {"target": {**{f"t{i}": {"inherits": [f"t{i + 1}"]} for i in range(5000)}, "t5000": {}}},
            "docker-bake.json:1: nested too deeply to read (Python's recursion limit)",
        ),
    ],
)
def test_a_hostile_bake_file_is_an_error_not_a_traceback(data: object, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        found = parse(json.dumps(data), "docker-bake.json")
        for name in found.default():
            found.target(name)
    assert str(caught.value) == message


def test_a_removed_bake_file_is_never_up_to_date(project: Path) -> None:
    assert run("sync").code == 0
    bake_file = next((project / "docker").glob("docker-bake.*"))
    bake_file.unlink()
    assert fast_check([], io.StringIO(), str(project)) is None
    result = run("check")
    assert (result.code, result.err) == (
        2,
        f"pyproject.toml:4: bake = 'docker/{bake_file.name}': no such file\n",
    )


def test_a_bake_file_that_is_a_fifo_a_folder_or_huge_is_refused_at_once(project: Path) -> None:
    """A FIFO used to block `sync` and `check` for ever (the file was read whole, whatever it was)."""
    entry = 'bake = "docker/x.hcl"\noutputs = ["docker/README.{name}.md"]\n'
    os.mkfifo(project / "docker/x.hcl")
    assert config_error(project, entry) == (
        "pyproject.toml:4: bake = 'docker/x.hcl': is a special file (a FIFO, a device …), not a bake file\n"
    )
    (project / "docker/x.hcl").unlink()
    (project / "docker/x.hcl").mkdir()
    assert (
        config_error(project, entry)
        == "pyproject.toml:4: bake = 'docker/x.hcl': is a folder, not a bake file\n"
    )
    (project / "docker/x.hcl").rmdir()
    (project / "docker/x.hcl").write_bytes(b" " * (10 * 1024 * 1024 + 1))
    assert config_error(project, entry) == (
        "pyproject.toml:4: bake = 'docker/x.hcl': file is larger than 10 MiB, not read\n"
    )


def test_variables_doubling_at_each_step_stop_at_one_mebibyte() -> None:
    """`default = "${V1}-${V1}"` 40 times is 2**40 characters: it used to take all the memory there is."""
    variables = {f"V{i}": {"default": f"${{V{i + 1}}}-${{V{i + 1}}}"} for i in range(40)}
    data = {"variable": {**variables, "V40": {"default": "x"}}, "target": {"a": {"args": {"X": "${V0}"}}}}
    with pytest.raises(ConfigError, match="the value grows past 1 MiB as variables are substituted in"):
        parse(json.dumps(data), "docker-bake.json").target("a")


def test_a_long_inherits_chain_is_read_once_not_once_per_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """300 targets each inheriting the next, all built: each target's attributes are merged once (300
    merges); they were merged again for every target below it (45,000 merges, quadratic)."""
    merges = 0
    merge = bake.merge_attributes

    def counting(into: dict[str, object], attributes: Mapping[str, object]) -> None:
        nonlocal merges
        merges += 1
        merge(into, attributes)

    monkeypatch.setattr(bake, "merge_attributes", counting)
    targets = {f"t{i}": {"inherits": [f"t{i + 1}"], "args": {f"A{i}": "1"}} for i in range(300)}
    data = {"target": {**targets, "t300": {}}, "group": {"default": {"targets": list(targets)}}}
    found = parse(json.dumps(data), "docker-bake.json")
    assert found.target("t0").args == {f"A{i}": "1" for i in range(300)}
    for name in found.default():
        found.target(name)
    assert merges <= 2 * 301


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'target "a" {\n  dockerfile = "a\\u0000b"\n}\n', 'docker-bake.hcl:2: target "a": dockerfile holds'),
        (b'target "a" {\n  args = { X = "\\u0000" }\n}\n', 'docker-bake.hcl:2: target "a": args holds'),
        (b'target "a" {}\n# \xff\n', "docker-bake.hcl:2: not UTF-8 text"),
    ],
)
def test_a_nul_or_a_bad_byte_is_an_error_at_its_line(data: bytes, message: str) -> None:
    """A NUL in a path used to reach the error message (and the terminal) as a NUL byte."""
    with pytest.raises(ConfigError) as caught:
        bake.parse(data, "docker-bake.hcl").target("a")
    assert str(caught.value).startswith(message)


def test_the_images_of_a_bake_file_leave_out_targets_only_inherited_from() -> None:
    data = {
        "group": {"all": {"targets": ["cpu", "base"]}},
        "target": {
            "_common": {"args": {"JOBS": "4"}},
            "base": {"dockerfile": "Dockerfile.base"},
            "cpu": {"inherits": ["_common", "base"]},
            "gpu": {"inherits": ["_common"]},
        },
    }
    found = bake.parse(json.dumps(data).encode(), "docker-bake.json")
    # `_common` only holds shared args; `base` is inherited from, but a group builds it
    assert found.images() == ("base", "cpu", "gpu")


# --------------------------------------------------------------------------------------------------
# `matrix`: one target block making a target per combination of its values, named by its `name`

SOLVER = """\
variable "REPO" { default = "ghcr.io/acme/solver" }

target "_gpu" {
  args = { JOBS = "4", ARCH = "none" }
}

target "solver" {
  name       = "solver-sm${sm}"
  matrix     = { sm = ["75", "86", "89"] }
  inherits   = ["_gpu"]
  context    = "gpu"
  dockerfile = "Dockerfile.sm${sm}"
  target     = sm == "89" ? "ada" : "runtime"
  args = {
    ARCH = sm
    TAG  = "sm${sm}"
  }
  tags = ["${REPO}:sm${sm}", "${REPO}:latest-${sm}"]
}

group "fast" { targets = ["solver-sm89"] }
group "all"  { targets = ["solver", "fast"] }
"""


def test_a_matrix_target_makes_a_target_per_value_named_by_its_name() -> None:
    found = parse(SOLVER)
    assert found.names == ("_gpu", "solver-sm75", "solver-sm86", "solver-sm89")
    sm86 = found.target("solver-sm86")
    # the key read bare (`ARCH = sm`), in a string, in the Dockerfile, in a condition; `inherits` as usual
    assert sm86.args == {"JOBS": "4", "ARCH": "86", "TAG": "sm86"}
    assert sm86.dockerfile == "gpu/Dockerfile.sm86"
    assert sm86.tags == ("ghcr.io/acme/solver:sm86", "ghcr.io/acme/solver:latest-86")
    assert (sm86.target, found.target("solver-sm89").target) == ("runtime", "ada")
    # each target's own args are on the lines of the block that makes them
    assert found.target("solver-sm75").own_args == {"ARCH": 15, "TAG": 16}
    with pytest.raises(ConfigError) as caught:
        parse(SOLVER.replace("ARCH = sm", "ARCH = sm.x")).target("solver-sm75")
    assert str(caught.value) == "docker-bake.hcl:14: ${sm.x}: sm has no attribute 'x' (it is no object)"


def test_groups_name_the_targets_a_matrix_makes_and_the_matrix_is_the_group_of_them() -> None:
    found = parse(SOLVER)
    assert found.expand(["fast"]) == ("solver-sm89",)
    assert found.expand(["solver"]) == ("solver-sm75", "solver-sm86", "solver-sm89")
    assert found.expand(["all"]) == ("solver-sm75", "solver-sm86", "solver-sm89")
    assert found.groups == ("fast", "all", "solver")
    # `_gpu` is only inherited from: the images are the targets the matrix makes
    assert found.default() == found.images() == ("solver-sm75", "solver-sm86", "solver-sm89")
    # a matrix target named `default` is what `docker buildx bake` builds
    default = parse('target "default" {\n  name = "v${v}"\n  matrix = { v = ["1", "2"] }\n}\nt "x" {}\n')
    assert default.default() == ("v1", "v2")


def test_several_keys_make_every_combination_the_first_key_slowest() -> None:
    found = parse(
        'target "img" {\n'
        '  name   = "img-${os}-cu${cuda}"\n'
        '  matrix = {\n    os = ["jammy", "noble"]\n    cuda = ["126", "130"]\n  }\n'
        '  args   = { BASE = "ubuntu:${os}", CUDA = cuda }\n'
        "}\n"
    )
    assert found.names == ("img-jammy-cu126", "img-jammy-cu130", "img-noble-cu126", "img-noble-cu130")
    assert found.target("img-noble-cu126").args == {"BASE": "ubuntu:noble", "CUDA": "126"}


def test_object_values_are_read_by_key() -> None:
    found = parse(
        """
target "trainer" {
  name   = "trainer-${item.tag}"
  matrix = {
    item = [
      { tag = "cu128", cuda = "12.8", torch = "2.7", sm = 90 },
      { tag = "cu126", cuda = "12.6", torch = "2.6", sm = 80 },
    ]
  }
  args = {
    CUDA_VERSION  = item.cuda
    TORCH_VERSION = "${item.torch}.0"
    SM            = item.sm
  }
  tags = ["acme/trainer:${item.torch}-${item.tag}"]
}
"""
    )
    assert found.names == ("trainer-cu128", "trainer-cu126")
    cu126 = found.target("trainer-cu126")
    assert cu126.args == {"CUDA_VERSION": "12.6", "TORCH_VERSION": "2.6.0", "SM": "80"}
    assert cu126.tags == ("acme/trainer:2.6-cu126",)
    with pytest.raises(ConfigError) as caught:
        parse(
            'target "t" {\n  name = "t-${item.tag}"\n  matrix = { item = [{ tag = "a" }] }\n'
            "  tags = [item]\n}\n"
        ).target("t-a")
    assert str(caught.value) == (
        "docker-bake.hcl:4: ${item} is an object, which a string cannot hold (write ${item.KEY})"
    )
    with pytest.raises(ConfigError) as caught:
        parse('target "t" {\n  name = "t-${item.tga}"\n  matrix = { item = [{ tag = "a" }] }\n}\n')
    assert (
        str(caught.value) == "docker-bake.hcl:2: ${item.tga}: item has no attribute 'tga' (its keys are tag)"
    )


def test_a_matrix_reads_its_values_from_a_list_variable_and_in_json() -> None:
    hcl = parse(
        'variable "SMS" { default = ["80", "90"] }\n'
        'target "k" {\n  name = "k-${sm}"\n  matrix = { sm = SMS }\n  args = { SM = sm }\n}\n'
    )
    as_json = parse(
        json.dumps(
            {
                "variable": {"SMS": {"default": ["80", "90"]}},
                "target": {"k": {"name": "k-${sm}", "matrix": {"sm": "${SMS}"}, "args": {"SM": "${sm}"}}},
            }
        ),
        "docker-bake.json",
    )
    for found in (hcl, as_json):
        assert found.names == ("k-80", "k-90")
        assert found.target("k-90").args == {"SM": "90"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # no `name`: every combination is named after the block, as bake names it
            'variable "V" { default = "1" }\n\ntarget "app" {\n  matrix = { v = ["a", "b"] }\n}\n',
            'docker-bake.hcl:3: target "app": duplicate name "app": a matrix target needs a name that '
            'differs for each combination of its values (name = "app-${KEY}")',
        ),
        (  # a name that does not use every key
            'target "app" {\n  matrix = {\n    v = ["a", "b"]\n    w = ["x", "y"]\n  }\n'
            '  name = "app-${v}"\n}\n',
            'docker-bake.hcl:6: target "app": duplicate name "app-a": name = \'app-${v}\' is the same '
            "for two combinations of the matrix",
        ),
        ('target "app" {\n  name = "app-x"\n}\n', 'docker-bake.hcl:2: target "app": name requires matrix'),
        (
            'target "app" {\n  matrix = { v = "a" }\n  name = "app-${v}"\n}\n',
            'docker-bake.hcl:2: target "app": matrix values must be a list (v is not)',
        ),
        (
            'target "app" {\n  matrix = { v = ["1.0"] }\n  name = "app-${v}"\n}\n',
            "docker-bake.hcl:3: target \"app\": name 'app-1.0' is no target name bake accepts: only "
            '"[a-zA-Z0-9_-]+" are allowed',
        ),
        (  # bake makes no target of the block's own name: it is the group of those it makes
            'target "base" {\n  name = "base-${v}"\n  matrix = { v = ["a", "b"] }\n}\n'
            'target "app" {\n  inherits = ["base"]\n}\n',
            "docker-bake.hcl:6: target \"app\": inherits 'base', a matrix target; bake inherits one of the "
            "targets it makes, by its name (base-a, base-b)",
        ),
        (
            'target "a" {\n  name = "x-${v}"\n  matrix = { v = ["1"] }\n}\ntarget "x-1" {}\n',
            'docker-bake.hcl:2: target "a": its matrix makes target "x-1", a name another target block has '
            "too; docgen does not merge a matrix target with another (not supported)",
        ),
    ],
)
def test_matrix_mistakes_are_bakes_errors_at_their_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        found = parse(text)
        for name in found.names:
            found.target(name)
    assert str(caught.value) == message


def test_a_matrix_of_one_value_without_a_name_keeps_the_blocks_name() -> None:
    found = parse('target "app" {\n  matrix = { v = ["a"] }\n  args = { V = v }\n}\n')
    assert (found.names, found.groups, found.target("app").args) == (("app",), (), {"V": "a"})


def test_a_matrix_target_inherits_per_combination() -> None:
    found = parse(
        'target "base-a" {\n  args = { FROM_BASE = "a" }\n}\n'
        'target "base-b" {\n  args = { FROM_BASE = "b" }\n}\n'
        'target "app" {\n  name = "app-${v}"\n  matrix = { v = ["a", "b"] }\n  inherits = ["base-${v}"]\n}\n'
    )
    assert [found.target(n).args for n in ("app-a", "app-b")] == [{"FROM_BASE": "a"}, {"FROM_BASE": "b"}]
    assert found.images() == ("app-a", "app-b")  # base-a and base-b are only inherited from
    # a target inherits one a matrix makes by its name, with that target's values
    made = parse(
        'target "base" {\n  name = "base-${v}"\n  matrix = { v = ["a", "b"] }\n  args = { V = v }\n}\n'
        'target "app" {\n  inherits = ["base-b"]\n}\n'
    )
    assert (made.target("app").args, made.images()) == ({"V": "b"}, ("base-a", "app"))


def test_a_matrix_target_is_read_once_per_target_it_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """200 targets of one matrix block with 50 args each: the line of each arg is found once for the
    block, not once per target (the search reads the file from its start)."""
    calls = 0
    find = bake.BakeFile._find_arg_line

    def counting(self: bake.BakeFile, block: str, arg: str) -> int | None:
        nonlocal calls
        calls += 1
        return find(self, block, arg)

    monkeypatch.setattr(bake.BakeFile, "_find_arg_line", counting)
    args = {f"A{i}": "${v}" for i in range(50)}
    data = {"target": {"t": {"name": "t-${v}", "matrix": {"v": [str(i) for i in range(200)]}, "args": args}}}
    found = parse(json.dumps(data, indent=1), "docker-bake.json")
    assert len([found.target(name) for name in found.default()]) == 200
    assert found.target("t-199").args["A49"] == "199"
    assert calls == 50


MATRIX_PROJECT = {
    "gpu/Dockerfile": "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\nARG SM=70\nARG TORCH=2.5.0\n"
    "RUN pip install torch==${TORCH}\n",
    "docker-bake.hcl": 'target "gpu" {\n  name = "gpu-sm${sm}"\n  matrix = { sm = ["80", "90"] }\n'
    '  context = "gpu"\n  args = { SM = sm, TORCH = "2.7.1" }\n}\n',
    "pyproject.toml": '[tool.docgen]\n\n[[tool.docgen.images]]\nbake = "docker-bake.hcl"\n'
    'targets = ["gpu"]\noutputs = ["README.{name}.md"]\n',
    **{f"README.gpu-sm{sm}.md": README.format(name=f"gpu-sm{sm}") for sm in ("80", "90")},
}


def test_a_configured_bake_file_gives_an_image_per_target_of_a_matrix(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, MATRIX_PROJECT)
    images = load_config(cwd=chdir_tmp).images
    assert [(i.name, i.display, i.args) for i in images] == [
        ("gpu-sm80", "gpu/Dockerfile", {"SM": "80", "TORCH": "2.7.1"}),
        ("gpu-sm90", "gpu/Dockerfile", {"SM": "90", "TORCH": "2.7.1"}),
    ]
    assert run("sync").code == 0
    assert "`2.7.1`" in (chdir_tmp / "README.gpu-sm90.md").read_text()
    assert run("check").code == 0
