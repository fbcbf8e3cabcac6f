"""Build args documented in a list, one item each (`docgen/audit/arg_lists.py`): names no ARG declares,
defaults that differ, required args that have a default; `certain` under words that say build args,
and the traps (another tool's options, environment lists, a sibling's item, a default in words)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.model import ImageModel

CUDA = """\
ARG CUDA_VERSION=12.6.2
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04
ARG PYTHON_VERSION=3.11
ARG TORCH_TAG=v2.5.1
ARG BASE_REPO=https://example.org/base.git
ARG HF_TOKEN
RUN echo ${PYTHON_VERSION} ${TORCH_TAG} ${BASE_REPO} ${HF_TOKEN}
"""

ROCM = """\
ARG ROCM_VERSION=6.1.2
FROM rocm/dev-ubuntu-22.04:${ROCM_VERSION}
ARG PYTHON_VERSION=3.11
RUN echo ${PYTHON_VERSION}
"""


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    """(line, message, confidence) of each finding of `audit` on `readme` against the Dockerfiles."""
    files = files or {"Dockerfile": CUDA}
    make_tree(root, {**files, "README.md": readme})
    models: list[ImageModel] = [build_model(root / name, name) for name in files]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", models[0] if len(models) == 1 else models, {}, root)
    ]


LISTED = """\
# CUDA image

## Build arguments

- `CUDA_VERSION`: CUDA release (default `12.6.2`)
* **PYTHON_VERSION** – defaults to 3.11
- TORCH_TAG (default v2.5.1)
- `BASE_REPO`: where the base sources come from
- `HF_TOKEN`: must be explicitly specified
"""


def test_a_stale_default_in_each_shape_of_item_is_certain(tmp_path: Path) -> None:
    readme = (
        LISTED.replace("`12.6.2`", "`12.4.1`").replace("to 3.11", "to 3.10").replace("v2.5.1)", "v2.4.0)")
    )
    assert found(tmp_path, readme) == [
        (5, "README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2", "certain"),
        (6, "README says PYTHON_VERSION defaults to 3.10 but Dockerfile:3 says 3.11", "certain"),
        (7, "README says TORCH_TAG defaults to v2.4.0 but Dockerfile:4 says v2.5.1", "certain"),
    ]
    # the nearest true statement: every item agrees with its ARG
    assert found(tmp_path / "true", LISTED) == []


def test_an_item_naming_an_arg_no_arg_declares_is_certain(tmp_path: Path) -> None:
    readme = LISTED.replace("`BASE_REPO`", "`BASE_GIT_URL`")
    assert found(tmp_path, readme) == [
        (8, "README documents build arg BASE_GIT_URL but Dockerfile does not declare it", "certain"),
    ]


def test_an_arg_said_required_that_has_a_default_is_certain(tmp_path: Path) -> None:
    readme = LISTED.replace("`HF_TOKEN`: must", "`PYTHON_VERSION`: must").replace(
        "* **PYTHON_VERSION** – defaults to 3.11\n", ""
    )
    assert found(tmp_path, readme) == [
        (
            8,
            "README says PYTHON_VERSION has no default (must be passed) but Dockerfile:3 says 3.11",
            "certain",
        ),
    ]
    # `must be set to your GPU` says what to pass in a case, not that there is no default
    case = LISTED.replace("must be explicitly specified", "must be set to your account's token")
    assert found(tmp_path / "case", case) == []


def test_an_introduction_ending_in_a_colon_says_the_list_is_build_args(tmp_path: Path) -> None:
    readme = (
        "# Image\n\n## Customization\n\nAvailable build arguments:\n\n"
        "- `CUDA_VERSION` (default: `12.4.1`) - CUDA version from NVIDIA redistrib\n"
        "- `UBUNTU_VERSION` (default: `22.04`) - Ubuntu base version\n"
    )
    assert found(tmp_path, readme) == [
        (7, "README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2", "certain"),
        (8, "README documents build arg UBUNTU_VERSION but Dockerfile does not declare it", "certain"),
    ]


def test_a_default_in_words_or_a_mark_is_no_value(tmp_path: Path) -> None:
    readme = (
        "# Image\n\n## Build args\n\n"
        "* `CUDA_VERSION` `PYTHON_VERSION`: can be set, default value is set in `docker/Dockerfile`.\n"
        "* `TORCH_TAG`: the torch tag (default: pinned)\n"
        "* `BASE_REPO`: (default: -)\n"
        "* `time`: the time of the build, for the tag\n"
    )
    # (the Dockerfile the first item names is there: a gone one is a finding of references.dead_code_names)
    assert found(tmp_path, readme, {"docker/Dockerfile": CUDA}) == []


def test_default_on_a_platform_says_when_not_what(tmp_path: Path) -> None:
    # `(default on CUDA 12)`: on which platform the arg has its default, not the value `on`
    readme = "# Image\n\n## Build args\n\n* `TORCH_TAG`: the torch tag (default on CUDA 12)\n"
    assert found(tmp_path, readme) == []
    # `on` as the value is still read: closed by the parenthesis, or followed by when it holds
    for said in ("(default on)", "(default on for ROCm builds)"):
        assert [
            message for _, message, _ in found(tmp_path, readme.replace("(default on CUDA 12)", said))
        ] == ["README says TORCH_TAG defaults to on but Dockerfile:4 says v2.5.1"]


def test_generic_words_make_a_list_build_args_only_when_most_names_are_declared(tmp_path: Path) -> None:
    options = (
        "# Image\n\n## Options\n\n- `CUDA_VERSION` (default `12.4.1`)\n- `PYTHON_VERSION` (default `3.11`)\n"
    )
    assert found(tmp_path, options) == [
        (5, "README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2", "certain"),
    ]
    # a script's options under the same heading name no ARG: no claim
    script = (
        "# Image\n\n## Options\n\n- `CUDA_HOME` (default `/usr/local/cuda`)\n- `NUM_GPUS` (default `8`)\n"
    )
    assert found(tmp_path / "script", script) == []


def test_a_list_of_mostly_declared_args_under_no_such_words_gives_likely_defaults(tmp_path: Path) -> None:
    readme = (
        "# Image\n\nYou may want other values for your host.\n\nThe defaults are:\n\n"
        "- `CUDA_VERSION` set to `12.4.1`\n- `PYTHON_VERSION` (default `3.11`)\n"
        "- `CUDA_ARCH` (default `89`)\n"
    )
    assert found(tmp_path, readme) == [
        (7, "README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2", "likely"),
    ]


def test_other_tools_and_environment_lists_are_no_build_args(tmp_path: Path) -> None:
    cmake = (
        "# Image\n\nCMake options:\n\n- `CMAKE_CUDA_ARCHITECTURES` (default `80`)\n"
        "- `CUDA_VERSION` (default `11.8`)\n"
    )
    assert found(tmp_path, cmake) == []
    env = (
        "# Image\n\n## Environment variables\n\n- `PYTHON_VERSION` (default `3.12`)\n"
        "- `CUDA_VERSION` (default `12.4.1`)\n- `LOG_LEVEL` (default `info`)\n"
    )
    assert found(tmp_path / "env", env) == []


def test_an_item_labelled_for_a_sibling_image_names_no_missing_arg(tmp_path: Path) -> None:
    readme = (
        "# Worker\n\n## Build Arguments\n\nSpecific build arguments:\n"
        "- For CUDA: `CUDA_VERSION` (default: 12.6.2)\n- For ROCm: `ROCM_VERSION` (default: 6.0.2)\n"
    )
    # audited against the CUDA image alone: the ROCm item is the sibling's, no finding
    assert found(tmp_path, readme) == []
    # against both: each default compared with the image that declares it
    both = {"Dockerfile.cuda": CUDA, "Dockerfile.rocm": ROCM}
    assert found(tmp_path / "both", readme, both) == [
        (7, "README says ROCM_VERSION defaults to 6.0.2 but Dockerfile.rocm:1 says 6.1.2", "certain"),
    ]


def test_a_note_binding_an_item_to_a_sibling_image_is_skipped(tmp_path: Path) -> None:
    readme = (
        "# Image\n\n## Build args\n\n- `CUDA_VERSION` (default `12.6.2`)\n"
        "- `NCCL_TAG` (only for the nccl image)\n"
    )
    sibling = {"Dockerfile": CUDA, "Dockerfile.nccl": CUDA.replace("TORCH_TAG", "NCCL_TAG")}
    assert found(tmp_path, readme, sibling) == []


def test_a_caption_says_the_list_is_build_args(tmp_path: Path) -> None:
    # a `<details>` caption over the list, under a heading with the word "Environment" in another sense
    readme = (
        "# Image\n\n### Setting up a Development Environment\n\n<details>\n"
        "<summary>Build argument descriptions</summary>\n\n"
        "* `CUDA_VERSION`: CUDA version (default: 12.4.1)\n"
        "* `PYTHON_VERSION`: Python version (default: 3.11)\n"
        "* `HF_TOKEN`: a token for gated models\n\n</details>\n"
    )
    assert found(tmp_path, readme) == [
        (8, "README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2", "certain"),
    ]
    # a caption of the arguments of `docker run` names none of its build args
    run = readme.replace("Build argument descriptions", "Docker run argument descriptions").replace(
        "* `CUDA_VERSION`: CUDA version (default: 12.4.1)\n", "* `--ipc=host`: shares host IPC\n"
    )
    assert found(tmp_path / "run", run) == []


def test_an_item_under_the_old_name_of_a_renamed_arg_names_the_new_one(tmp_path: Path) -> None:
    renamed = CUDA.replace("TORCH_TAG", "TORCH_REF")
    assert found(tmp_path, LISTED, {"Dockerfile": renamed}) == [
        (7, "README documents build arg TORCH_TAG but Dockerfile:4 declares TORCH_REF", "certain"),
    ]
    # a name with another stem is no rename: said as not declared
    other = CUDA.replace("TORCH_TAG", "PYTORCH_REF")
    assert found(tmp_path / "other", LISTED, {"Dockerfile": other}) == [
        (7, "README documents build arg TORCH_TAG but Dockerfile does not declare it", "certain"),
    ]


ARCHS = """\
FROM rocm/dev-ubuntu-22.04:6.1.2
ARG GPU_ARCHS='gfx90a gfx942'
ARG JOBS=2
RUN echo ${GPU_ARCHS} ${JOBS}
"""


def test_a_quoted_default_is_read_to_its_closing_quote(tmp_path: Path) -> None:
    # a default in quotes holding a space (`'gfx90a gfx942'`), then a full-width comma and more words
    readme = (
        "# Image\n\n## Build arguments\n\n"
        "- `GPU_ARCHS`: GPU targets (default: 'gfx90a gfx942'，for MI200 and MI300)\n"
        '- `JOBS`: parallel jobs (default: "2")\n'
    )
    assert found(tmp_path, readme, {"Dockerfile": ARCHS}) == []
    # a stale list in quotes is compared whole, not by its first word
    stale = readme.replace("'gfx90a gfx942'", "'gfx90a gfx1100'")
    assert found(tmp_path / "stale", stale, {"Dockerfile": ARCHS}) == [
        (
            5,
            "README says GPU_ARCHS defaults to gfx90a gfx1100 but Dockerfile:2 says gfx90a gfx942",
            "certain",
        ),
    ]


TWO_IMAGES = """\
# Acme

## Base image

Build arguments:

- `TOOLKIT_RUN`: the toolkit installer
- `PY_VERSION`: the Python built in the image

## App image

Build arguments:

- `BASE_IMAGE`: the base image built above
- `APP_REF`: the app release
"""

BASE_BELOW = "FROM ubuntu:22.04\nARG TOOLKIT_RUN\nARG PY_VERSION\nRUN ./${TOOLKIT_RUN} ${PY_VERSION}\n"
APP = "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nARG APP_REF\nARG APP_MIRROR\nRUN fetch ${APP_MIRROR} ${APP_REF}\n"


def audited_alone(root: Path, tree: dict[str, str], dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, {**tree, "README.md": TWO_IMAGES})
    model = build_model(root / dockerfile, dockerfile)
    return [(d.line, d.message, d.confidence) for d in audit(TWO_IMAGES, "README.md", model, {}, root)]


def test_the_list_of_another_image_below_the_readme_is_that_image_s(tmp_path: Path) -> None:
    app = "images/stage2/Dockerfile"
    # the base's list is the base's (its Dockerfile is below the README): its items are no claims about
    # the app image and it owes the app image no item; the app's own list leaves APP_MIRROR out
    tree = {"images/stage1/Dockerfile": BASE_BELOW, app: APP}
    assert audited_alone(tmp_path / "a", tree, app) == [
        (12, f"build arg APP_MIRROR ({app}:4) is missing from the README's build-argument list", "likely")
    ]
    # the planted drift: with no Dockerfile declaring them, the base's items are ghosts of the app's
    assert [m for _, m, _ in audited_alone(tmp_path / "b", {app: APP}, app)] == [
        f"README documents build arg TOOLKIT_RUN but {app} does not declare it",
        f"README documents build arg PY_VERSION but {app} does not declare it",
        f"build arg APP_MIRROR ({app}:4) is missing from the README's build-argument list",
    ]


def test_a_dockerfile_of_tests_or_vendored_code_below_the_readme_is_no_image_of_it(tmp_path: Path) -> None:
    app = "images/stage2/Dockerfile"
    # the planted drift: a test fixture (or a vendored checkout) declaring the base's names does not make
    # the README's items the base's: they are still ghosts of the app's
    for folder in ("tests/fixtures/base", "third_party/toolkit", "deps/toolkit"):
        tree = {f"{folder}/Dockerfile": BASE_BELOW, app: APP}
        if folder.startswith("deps"):
            tree[f"{folder}/.git"] = "gitdir: ../../.git/modules/toolkit\n"
        assert [m for _, m, _ in audited_alone(tmp_path / folder, tree, app)] == [
            f"README documents build arg TOOLKIT_RUN but {app} does not declare it",
            f"README documents build arg PY_VERSION but {app} does not declare it",
            f"build arg APP_MIRROR ({app}:4) is missing from the README's build-argument list",
        ], folder
    # the traps: such a Dockerfile the README names (`cd examples/base`), or one beside the audited one
    named = TWO_IMAGES.replace("## Base image\n", "## Base image\n\n`cd examples/base && docker build .`\n")
    make_tree(tmp_path / "n", {"examples/base/Dockerfile": BASE_BELOW, app: APP, "README.md": named})
    model = build_model(tmp_path / "n" / app, app)
    assert [d.message for d in audit(named, "README.md", model, {}, tmp_path / "n")] == [
        f"build arg APP_MIRROR ({app}:4) is missing from the README's build-argument list"
    ]
    beside = {"tests/Dockerfile.base": BASE_BELOW, "tests/Dockerfile": APP}
    assert [m for _, m, _ in audited_alone(tmp_path / "s", beside, "tests/Dockerfile")] == [
        "build arg APP_MIRROR (tests/Dockerfile:4) is missing from the README's build-argument list"
    ]


WHEELS_GPU = """\
FROM nvidia/cuda:12.6.3-runtime-ubuntu22.04
ARG TORCH_INDEX=https://download.pytorch.org/whl/cu126
RUN pip install --index-url ${TORCH_INDEX} torch==2.5.1
"""
WHEELS_AMD = """\
FROM rocm/dev-ubuntu-22.04:6.2.4
ARG TORCH_INDEX=https://download.pytorch.org/whl/rocm6.2
RUN pip install --index-url ${TORCH_INDEX} torch==2.5.1
"""
VARIANTS = {"Dockerfile.gpu": WHEELS_GPU, "Dockerfile.amd": WHEELS_AMD}

PER_VARIANT = """\
# Images

## Build Arguments

Each image takes the arguments below.

### GPU image

- `TORCH_INDEX` - wheel index (default: {gpu})

### AMD image

- `TORCH_INDEX` - wheel index (default: {amd})
"""


def test_a_list_under_a_variant_heading_of_a_build_args_section_gives_each_variant_s_default(
    tmp_path: Path,
) -> None:
    readme = PER_VARIANT.format(gpu="cu124", amd="rocm6.2")
    assert found(tmp_path, readme, VARIANTS) == [
        (
            9,
            "README says TORCH_INDEX defaults to cu124 but Dockerfile.gpu:2 says "
            "https://download.pytorch.org/whl/cu126",
            "certain",
        ),
    ]
    # the whole URL, stale, is a finding too
    readme = PER_VARIANT.format(gpu="cu126", amd="https://download.pytorch.org/whl/rocm6.1")
    assert found(tmp_path / "url", readme, VARIANTS) == [
        (
            13,
            "README says TORCH_INDEX defaults to https://download.pytorch.org/whl/rocm6.1 but "
            "Dockerfile.amd:2 says https://download.pytorch.org/whl/rocm6.2",
            "certain",
        ),
    ]


def test_variant_lists_that_agree_or_are_not_build_args_are_no_findings(tmp_path: Path) -> None:
    # each default is its own variant's URL by its last part (the sibling's would be a finding)
    assert found(tmp_path, PER_VARIANT.format(gpu="cu126", amd="rocm6.2"), VARIANTS) == []
    # a subsection about the environment, under the build-args section, is the container's
    env = PER_VARIANT.format(gpu="cu124", amd="rocm6.2")
    env = env.replace("### GPU image", "### GPU environment variables")
    assert found(tmp_path / "env", env, VARIANTS) == []
    # no heading over the variant's says build args: its list is not read as build args
    usage = PER_VARIANT.format(gpu="cu124", amd="rocm6.2").replace("## Build Arguments", "## Usage")
    assert found(tmp_path / "usage", usage, VARIANTS) == []
    # an undeclared name in such a list is not reported (the words are a level up)
    other = PER_VARIANT.format(gpu="cu126", amd="rocm6.2").replace(
        "- `TORCH_INDEX` - wheel index (default: rocm6.2)", "- `WHEEL_MIRROR` - a mirror (default: none)"
    )
    assert found(tmp_path / "other", other, VARIANTS) == []


def test_a_list_under_a_heading_of_some_build_args_owes_no_item(tmp_path: Path) -> None:
    items = "Build arguments:\n\n- `PYTHON_VERSION`: Python release\n- `TORCH_TAG`: PyTorch tag\n"
    whole = found(tmp_path, f"# Image\n\n## Build arguments\n\n{items}")
    missing = [m for _, m, _ in whole if "missing" in m]
    assert missing == [
        "build arg CUDA_VERSION (Dockerfile:1) is missing from the README's build-argument list",
        "build arg BASE_REPO (Dockerfile:5) is missing from the README's build-argument list",
        "build arg HF_TOKEN (Dockerfile:6) is missing from the README's build-argument list",
    ]
    # the heading says the list is a selection: the introduction's plain `Build arguments:` does not
    # make it all of them (the same words a table's heading is read by: `wording.chosen_args`)
    assert found(tmp_path, f"# Image\n\n### Useful build arguments\n\n{items}") == []


LLAMA = """\
ARG CUDA_TAG=12.4.1-devel-ubuntu22.04
ARG PYTHON_VERSION=3.12
FROM example/cuda-python:${CUDA_TAG}-python${PYTHON_VERSION}
ARG POETRY_VERSION=1.8.*
ARG CMAKE_ARGS="-DLLAMA_CUDA=on"
RUN echo ${POETRY_VERSION} ${CMAKE_ARGS}
"""

ARG_LINES = """\
# llama server

## Build

1. Clone it.

2. Build the image:
    ```bash
    docker build -t llama-server .
    ```

    The `docker build` command accepts the following arguments:
    - `ARG CUDA_TAG=12.4.1-devel-ubuntu22.04`: The CUDA base image tag.
    - `ARG PYTHON_VERSION=3.12`: The Python version to install.
    - `ARG POETRY_VERSION=1.8`: The Poetry version to install.
    - `ARG CMAKE_ARGS="-DLLAMA_CUDA=on"`: Options for the server.
"""


def test_items_written_as_arg_lines_inside_a_numbered_step_are_build_args(tmp_path: Path) -> None:
    readme = ARG_LINES.replace("12.4.1-devel-ubuntu22.04`", "12.4.1-cudnn-devel-ubuntu22.04`").replace(
        "- `ARG CMAKE_ARGS", "- `ARG SERVER_VERSION=0.2.76`: The server release.\n    - `ARG CMAKE_ARGS"
    )
    assert found(tmp_path, readme, {"Dockerfile": LLAMA}) == [
        (
            13,
            "README says CUDA_TAG defaults to 12.4.1-cudnn-devel-ubuntu22.04 but Dockerfile:1 says "
            "12.4.1-devel-ubuntu22.04",
            "certain",
        ),
        (16, "README documents build arg SERVER_VERSION but Dockerfile does not declare it", "certain"),
    ]


def test_arg_lines_that_agree_and_a_shorter_release_line_are_not_told(tmp_path: Path) -> None:
    # `1.8` for `1.8.*`: the same release line; `12.4.1-devel` leaves the OS out, adds nothing
    readme = ARG_LINES.replace("12.4.1-devel-ubuntu22.04`", "12.4.1-devel`")
    assert found(tmp_path, readme, {"Dockerfile": LLAMA}) == []


def test_arg_lines_of_a_history_section_are_not_read(tmp_path: Path) -> None:
    readme = (
        ARG_LINES
        + "\n## Changelog\n\nv0.1 accepted these:\n- `ARG CUDA_TAG=12.1.0-cudnn8-devel-ubuntu20.04`\n"
        + "- `ARG OLD_FLAG=1`\n"
    )
    assert found(tmp_path, readme, {"Dockerfile": LLAMA}) == []


def test_one_arg_line_in_a_list_of_notes_is_not_a_list_of_build_args(tmp_path: Path) -> None:
    readme = (
        "# llama server\n\nNotes:\n\n- `ARG CUDA_TAG=11.8.0-cudnn8-devel-ubuntu22.04` is what"
        " we used in 2023\n"
        "- the `SERVER_MODE` variable picks the mode\n"
    )
    assert found(tmp_path, readme, {"Dockerfile": LLAMA}) == []
