"""`docgen audit`: a table of the variables a README sets in front of the script that builds
(`DEPLOY_MODE=chat TAG=x bash docker/build.sh` over `## Build variables`) is the script's interface, not
the Dockerfile's build-argument table (docgen/audit/tables.py, `set_for_scripts` in
docgen/audit/references.py). A table titled or introduced as a selection of the build args (`### Useful
build arguments`, `Key build arguments:`) owes no row (`wording.chosen_args`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings as audited
from helpers import make_tree, model_of

from docgen.audit import audit
from docgen.audit.references import set_for_scripts
from docgen.dockerfile import parse_dockerfile
from docgen.markdown import read_document
from docgen.pipeline import build_model

SERVING = """\
FROM nvidia/cuda:12.8.0-devel-ubuntu24.04
ARG SERVE_MODE="hybrid"
ARG WEIGHTS_REPO=""
ARG ENGINE_LABEL=""
ARG CLASSIFIER_REPO=""
ARG RUNTIME_WHEEL=engine_rt==3.1.0
RUN pip install "${RUNTIME_WHEEL}"
ENV SERVE_MODE=${SERVE_MODE} WEIGHTS_REPO=${WEIGHTS_REPO} ENGINE_LABEL=${ENGINE_LABEL} \\
    CLASSIFIER_REPO=${CLASSIFIER_REPO}
"""

WRAPPED = """\
# Serving image

## Build

```bash
REGISTRY_USER=someone \\
  SERVE_MODE=chat \\
  WEIGHTS_REPO=org/weights \\
  IMAGE_TAG=eng-a100 \\
  bash tools/make_image.sh
```

## Build variables

| Variable | Default | Description |
|----------|---------|-------------|
| `REGISTRY_USER` | | Registry account the image is pushed to |
| `SERVE_MODE` | {mode} | `chat`, `embed` or `hybrid` |
| `WEIGHTS_REPO` | | Hub repository of the weights |
| `{label}` | | Engine folder (e.g. `sm80_eng-3.1.0`) |
| `CLASSIFIER_REPO` | | Hub repository of the classifier |
| `IMAGE_TAG` | | Tag of the image |
| `PULL_TOKEN` | | Token for private weights |
"""


def findings(root: Path, readme: str, dockerfile: str = SERVING) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_the_names_set_in_front_of_a_script_are_read_over_continued_lines() -> None:
    doc = read_document(WRAPPED.format(mode="`hybrid`", label="ENGINE_LABEL"), "README.md")
    assert set_for_scripts(doc) == {"REGISTRY_USER", "SERVE_MODE", "WEIGHTS_REPO", "IMAGE_TAG"}
    # (A variable set for `docker build`, not a script, is none: `docker` is no script.)
    plain = read_document("```bash\nDOCKER_BUILDKIT=1 docker build -t x .\n```\n", "README.md")
    assert set_for_scripts(plain) == frozenset()


def test_a_table_of_the_build_scripts_variables_is_not_the_build_argument_table(tmp_path: Path) -> None:
    # The script's own names (`REGISTRY_USER`, `IMAGE_TAG`, a token it hands over as a secret) are no
    # build args the README claims, and the ARGs the script does not expose are not missing from it.
    assert findings(tmp_path, WRAPPED.format(mode="`hybrid`", label="ENGINE_LABEL")) == []


def test_in_a_script_table_a_default_is_still_compared(tmp_path: Path) -> None:
    readme = WRAPPED.format(mode="`chat`", label="ENGINE_LABEL")
    assert findings(tmp_path, readme) == [
        (18, "README says SERVE_MODE defaults to chat but Dockerfile:2 says hybrid", "certain")
    ]


def test_a_script_given_only_build_args_leaves_the_table_a_build_argument_table(tmp_path: Path) -> None:
    # Every name set in front of the script is a build arg: the script passes them on, and the table
    # documents the Dockerfile's args; a row it declares no longer, and an ARG it leaves out, are drift.
    readme = """\
# Serving image

```bash
SERVE_MODE=chat WEIGHTS_REPO=org/weights ./tools/make_image.sh
```

## Build arguments

| Variable | Default | Description |
|----------|---------|-------------|
| `SERVE_MODE` | `hybrid` | `chat`, `embed` or `hybrid` |
| `WEIGHTS_REPO` | | Hub repository of the weights |
| `ENGINE_LABEL` | | Engine folder |
| `QUANT_SCHEME` | | Quantization of the weights |
"""
    messages = [m for _, m, _ in findings(tmp_path, readme)]
    assert any("QUANT_SCHEME" in m and "does not declare" in m for m in messages), messages
    assert any("RUNTIME_WHEEL" in m and "missing" in m for m in messages), messages


ROCM_BUILD = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-24.04:6.4.1-complete
FROM ${BASE_IMAGE}
ARG GPU_TARGETS=gfx942
ARG LLAMA_REF=b4521
ARG BUILD_JOBS=16
RUN git clone https://example.org/llama.git && cd llama && git checkout ${LLAMA_REF} \\
 && cmake -B build -DAMDGPU_TARGETS=${GPU_TARGETS} && cmake --build build -j ${BUILD_JOBS}
"""
ROWS = """\
| Build arg | Default | Purpose |
| --- | --- | --- |
| `GPU_TARGETS` | `gfx942` | GPU targets to compile for. |
| `BUILD_JOBS` | `16` | Parallel compile jobs. |
| `ARCH_LIST` | `gfx942` | Kernel targets. |
"""
LEFT_OUT = [
    "build arg BASE_IMAGE (Dockerfile:1) is missing from the README's build-argument table",
    "build arg LLAMA_REF (Dockerfile:4) is missing from the README's build-argument table",
]


@pytest.mark.parametrize(
    "title",
    [
        "### Useful build arguments\n\n",
        "## Key Build Arguments\n\n",
        "### Commonly used build args\n\n",
        "## Build\n\nThe image builds from source. The most useful build args:\n\n",
        "## Build\n\nKey build arguments for `Dockerfile`, all optional:\n\n",
    ],
)
def test_a_table_of_some_build_args_owes_no_row(title: str) -> None:
    # its rows are still checked (ARCH_LIST is declared by no ARG)
    readme = f"# Llama on ROCm\n\n{title}{ROWS}"
    assert [f.split(": ", 1)[1] for f in audited(readme, {"Dockerfile": ROCM_BUILD})] == [
        "README documents build arg ARCH_LIST but Dockerfile does not declare it"
    ]


@pytest.mark.parametrize(
    "title",
    [
        "## Build arguments\n\n",
        "## Build args (useful defaults)\n\n",
        "## Build\n\nAll build arguments:\n\n",
        "## Build\n\nSome build args are set by CI. The table lists them:\n\n",
    ],
)
def test_a_table_of_the_build_args_still_owes_every_row(title: str) -> None:
    readme = f"# Llama on ROCm\n\n{title}{ROWS}"
    said = [f.split(": ", 1)[1] for f in audited(readme, {"Dockerfile": ROCM_BUILD})]
    assert said == [*LEFT_OUT, "README documents build arg ARCH_LIST but Dockerfile does not declare it"]


def test_the_args_left_out_are_reported_at_a_later_table_of_them_all() -> None:
    readme = (
        "# Llama on ROCm\n\n### Useful build arguments\n\n| Build arg | Default |\n| --- | --- |\n"
        "| `GPU_TARGETS` | `gfx942` |\n\n## All build arguments\n\n| Build arg | Default |\n| --- | --- |\n"
        "| `GPU_TARGETS` | `gfx942` |\n| `BUILD_JOBS` | `16` |\n"
    )
    assert audited(readme, {"Dockerfile": ROCM_BUILD}) == [f"11: {m}" for m in LEFT_OUT]


WIDE_BUILD = ROCM_BUILD.replace(
    "ARG BUILD_JOBS=16\n",
    "ARG BUILD_JOBS=16\nARG CMAKE_FLAGS=-O2\nARG PREFIX=/opt/llama\nARG USE_HIPBLAS=1\nARG WITH_TESTS=0\n",
).replace("${BUILD_JOBS}", "${BUILD_JOBS} ${CMAKE_FLAGS} ${PREFIX} ${USE_HIPBLAS} ${WITH_TESTS}")
FEW_ROWS = "| Build arg | Default |\n| --- | --- |\n| `GPU_TARGETS` | `gfx942` |\n| `BUILD_JOBS` | `16` |\n"


@pytest.mark.parametrize("title", ["## Build arguments\n\n", "## Build\n\nThe build takes these args:\n\n"])
def test_a_table_leaving_out_most_build_args_is_a_selection(title: str) -> None:
    # two rows of the eight args a user can pass: the ones that matter, not a table that fell behind
    assert audited(f"# Llama on ROCm\n\n{title}{FEW_ROWS}", {"Dockerfile": WIDE_BUILD}) == []


def test_a_table_saying_it_holds_every_build_arg_owes_every_row_however_few_it_has() -> None:
    said = audited(
        f"# Llama on ROCm\n\n## Build\n\nAll build arguments:\n\n{FEW_ROWS}", {"Dockerfile": WIDE_BUILD}
    )
    assert len(said) == 6 and all("is missing from the README's build-argument table" in m for m in said), (
        said
    )


def _left_out_confidence(readme: str) -> set[str]:
    models = [model_of(parse_dockerfile(ROCM_BUILD, "Dockerfile"))]
    return {d.confidence for d in audit(readme, "README.md", models, {}) if "is missing from" in d.message}


@pytest.mark.parametrize(
    ("title", "confidence"),
    [
        # a title of all the build args, or an introduction saying the table is all of them
        ("## Build arguments\n\n", "certain"),
        ("### Supported build args\n\n", "certain"),
        ("## All build arguments\n\n", "certain"),
        ("## Build\n\nAll build arguments:\n\n", "certain"),
        ("## Build\n\nArguments and their defaults are listed below.\n\n", "certain"),
        # a table in a how-to section, introduced by a sentence: the args its writer picked may be fewer
        # than the Dockerfile's, and an omission is no contradiction
        ("### UBI-based image\n\nThe Dockerfile supports the following build arguments:\n\n", "likely"),
        ("## Build\n\nSome build args are set by CI. The table lists them:\n\n", "likely"),
        ("## Build args (useful defaults)\n\n", "likely"),
    ],
)
def test_how_sure_an_arg_left_out_of_a_table_is(title: str, confidence: str) -> None:
    assert _left_out_confidence(f"# Llama on ROCm\n\n{title}{ROWS}") == {confidence}
