"""`docgen.audit`: three classes of claims (issue 16) a hand-written README gets wrong.

- A section whose `docker build -f` names a Dockerfile that is gone: the dead reference is reported, and
  the section's claims are compared with the Dockerfile it most likely means now, or with none.
- `NAME=VALUE` lists of build args with one-word names the Dockerfile does not declare, and the env
  examples (`docker run -e`, `export`, an environment list) that are no such claim.
- "X must be explicitly specified" / "X has no default" while `ARG X` has one, and a default given for an
  ARG declared without one.

Each README and Dockerfile below is modelled on how projects write them: a planted drift that must be
found, next to a trap that must not be flagged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import gone, make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.model import Diagnostic
from docgen.pipeline import build_model, model_of

CUDA = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG PYTORCH_VERSION=2.5.1
ARG TORCH_CUDA_ARCH_LIST="8.0;9.0"
RUN pip install torch==${PYTORCH_VERSION}
"""

ROCM = """\
FROM rocm/dev-ubuntu-22.04:6.2
ARG PYTORCH_VERSION=2.4.0
ARG GFX_ARCH=gfx942
ENV PYTORCH_ROCM_ARCH=${GFX_ARCH}
RUN pip install torch==${PYTORCH_VERSION}
"""


def audit_tree(root: Path, files: dict[str, str], dockerfiles: list[str]) -> list[tuple[int, str, str]]:
    """`audit` of root/README.md against `dockerfiles` (paths under `root`, shown as written), as
    (line, message, confidence)."""
    make_tree(root, files)
    models = [build_model(root / d, d) for d in dockerfiles]
    text = (root / "README.md").read_text(encoding="utf-8")
    found: list[Diagnostic] = audit(text, "README.md", models, {}, root)
    return [(d.line, d.message, d.confidence) for d in found]


# --------------------------------------------------------------------------------------------------
# 1. A build command naming a Dockerfile that is gone

FAMILY_README = """\
# Training images

## NVIDIA GPUs

```bash
docker build -f cuda/Dockerfile --build-arg TORCH_CUDA_ARCH_LIST="9.0" -t train:cuda .
```

It ships PyTorch 2.3.0.

## AMD GPUs

```bash
docker build -f rocm/Dockerfile --build-arg GFX_ARCH=gfx90a -t train:rocm .
```

It ships PyTorch 2.4.0.

## Other accelerators

```bash
docker build -f Dockerfile.gpu --build-arg XPU_ARCH=pvc .
```

It ships PyTorch 2.2.0.

## Older releases

```bash
docker build -f old/cuda/Dockerfile --build-arg CUDA_ARCH=7.0 .
```

It ships PyTorch 1.13.1.
"""


def test_a_section_building_a_renamed_dockerfile_is_compared_with_its_new_name(tmp_path: Path) -> None:
    # cuda/Dockerfile became docker/Dockerfile.cuda (its flavour is in the name now): the section's
    # PyTorch is stale against it. The AMD section is true of docker/Dockerfile.rocm; "Other
    # accelerators" could be either image (not compared); "Older releases" is about the past.
    found = audit_tree(
        tmp_path,
        {"README.md": FAMILY_README, "docker/Dockerfile.cuda": CUDA, "docker/Dockerfile.rocm": ROCM},
        ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm"],
    )
    assert found == [
        (6, gone("cuda/Dockerfile", "docker/Dockerfile.cuda"), "certain"),
        (9, "README says PyTorch 2.3.0 but docker/Dockerfile.cuda:2 says 2.5.1", "likely"),
        (14, gone("rocm/Dockerfile", "docker/Dockerfile.rocm"), "certain"),
        (22, gone("Dockerfile.gpu"), "certain"),
        (30, gone("old/cuda/Dockerfile"), "certain"),
    ]


def test_a_folder_naming_another_dockerfiles_flavour_is_no_path_of_another_checkout(tmp_path: Path) -> None:
    # `-f rocm/Dockerfile` with a Dockerfile next to the README used to be read as that Dockerfile (a
    # path from another checkout), so the ROCm section was compared with the CUDA image: GFX_ARCH
    # "undeclared", PyTorch 2.4.0 "stale". docker/Dockerfile.rocm is what it means now.
    readme = "## AMD GPUs\n\n```bash\ndocker build -f rocm/Dockerfile --build-arg GFX_ARCH=gfx90a .\n```\n\n"
    readme += "It ships PyTorch 2.4.0.\n"
    found = audit_tree(
        tmp_path,
        {"README.md": readme, "Dockerfile": CUDA, "docker/Dockerfile.rocm": ROCM},
        ["Dockerfile", "docker/Dockerfile.rocm"],
    )
    assert found == [(4, gone("rocm/Dockerfile", "docker/Dockerfile.rocm"), "certain")]


def test_a_path_of_another_checkout_to_the_same_name_stays_that_dockerfile(tmp_path: Path) -> None:
    readme = "```bash\ndocker build -f path/to/Dockerfile .\n```\n\nIt ships PyTorch 2.3.0.\n"
    found = audit_tree(tmp_path, {"README.md": readme, "Dockerfile": CUDA}, ["Dockerfile"])
    assert found == [(5, "README says PyTorch 2.3.0 but Dockerfile:2 says 2.5.1", "likely")]


@pytest.mark.parametrize(
    ("heading", "reference", "expected"),
    [
        # the only Dockerfile there is: what a renamed Dockerfile.gpu means now
        ("## GPU image", "Dockerfile.gpu", [(9, "README says PyTorch 2.3.0 but Dockerfile:2 says 2.5.1")]),
        # an image of the past is not this one, whatever the only Dockerfile is
        ("## GPU image", "Dockerfile.legacy", []),
        ("## Deprecated image", "Dockerfile.gpu", []),
    ],
)
def test_a_dead_reference_with_one_dockerfile(
    tmp_path: Path, heading: str, reference: str, expected: list[tuple[int, str]]
) -> None:
    readme = (
        f"# Image\n\n{heading}\n\n```bash\ndocker build -f {reference} .\n```\n\nIt ships PyTorch 2.3.0.\n"
    )
    found = audit_tree(tmp_path, {"README.md": readme, "Dockerfile": CUDA}, ["Dockerfile"])
    instead = "Dockerfile" if expected else ""
    assert found == [(6, gone(reference, instead), "certain"), *[(n, m, "likely") for n, m in expected]]


def test_a_dead_reference_whose_flavour_is_a_dockerfile_not_audited_is_that_one(tmp_path: Path) -> None:
    # Audited against the CUDA image only, `-f rocm/Dockerfile` means docker/Dockerfile.rocm next to
    # it: another image, so its section is not compared with the CUDA one.
    readme = "## AMD GPUs\n\n```bash\ndocker build -f rocm/Dockerfile .\n```\n\nIt ships PyTorch 2.4.0.\n"
    found = audit_tree(
        tmp_path,
        {"README.md": readme, "docker/Dockerfile.cuda": CUDA, "docker/Dockerfile.rocm": ROCM},
        ["docker/Dockerfile.cuda"],
    )
    assert found == [(4, gone("rocm/Dockerfile"), "certain")]


BENCH = "FROM nvcr.io/nvidia/tritonserver:24.08-trtllm-python-py3\nARG UID=1000\nARG GID=1000\n"


def test_the_build_args_of_a_build_whose_dockerfile_is_gone_are_compared_with_no_guess(
    tmp_path: Path,
) -> None:
    # A benchmark guide building a Dockerfile.bench the repository no longer has (only Dockerfile.trtllm
    # is left): its section is compared with the guess, but the build args it passes were the gone
    # file's, in a code span of prose and in a continued command alike.
    readme = (
        "# Bench\n\n## Build\n\n"
        "`docker build -t bench -f Dockerfile.bench --build-arg torch_cuda_arch_list=9.0 .`\n\n"
        "```bash\ndocker build -t bench \\\n  -f Dockerfile.bench \\\n  --build-arg MAX_JOBS=8 \\\n"
        "  --build-arg UID=$(id -u) .\n```\n"
    )
    found = audit_tree(tmp_path, {"README.md": readme, "Dockerfile.trtllm": BENCH}, ["Dockerfile.trtllm"])
    assert [(line, "build arg" in m) for line, m, _ in found] == [(5, False)]
    # the trap's counterpart: a path of another checkout to a Dockerfile of the same name is that
    # Dockerfile, and an arg it does not declare is still told
    same = readme.replace("Dockerfile.bench", "path/to/Dockerfile.trtllm")
    found = audit_tree(
        tmp_path / "same", {"README.md": same, "Dockerfile.trtllm": BENCH}, ["Dockerfile.trtllm"]
    )
    assert [line for line, m, _ in found if "build arg MAX_JOBS" in m] == [10]


# --------------------------------------------------------------------------------------------------
# 2. NAME=VALUE build-arg lists with one-word names

SERVICE = """\
FROM python:3.11-slim
ARG CUDA_VERSION=12.4
ARG JOBS=8
ARG TORCH_ARCH
ARG HF_TOKEN=""
RUN echo "$CUDA_VERSION $JOBS $TORCH_ARCH $HF_TOKEN"
"""


def messages(readme: str) -> list[tuple[str, str]]:
    model = model_of(parse_dockerfile(SERVICE, "Dockerfile"))
    return [(d.message, d.confidence) for d in audit(readme, "README.md", model)]


UNDECLARED_PYTHON = [("README documents build arg PYTHON but Dockerfile does not declare it", "likely")]
# a block of `NAME=VALUE` lines under words that can only mean build args is as plain as a table
UNDECLARED_PYTHON_IN_BLOCK = [
    ("README documents build arg PYTHON but Dockerfile does not declare it", "certain")
]


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        ("Build args: `CUDA_VERSION=12.4` `PYTHON=3.11`\n", UNDECLARED_PYTHON),
        ("Build args: CUDA_VERSION=12.4 PYTHON=3.11 JOBS=8\n", UNDECLARED_PYTHON),
        ("## Build arguments\n\n- `CUDA_VERSION=12.4`\n- `PYTHON=3.11`\n", UNDECLARED_PYTHON),
        ("The image takes these build args:\n\n- JOBS=8\n- PYTHON=3.11\n", UNDECLARED_PYTHON),
        ("## Build args\n\n```\nCUDA_VERSION=12.4\nPYTHON=3.11\n```\n", UNDECLARED_PYTHON_IN_BLOCK),
        (
            "Build arguments:\n\n```text\n# defaults\nJOBS=8\nPYTHON=3.11  # interpreter\n```\n",
            UNDECLARED_PYTHON_IN_BLOCK,
        ),
        # traps: variables of the running container or of the shell, placeholders, program arguments
        (
            "## Build args\n\nRun with `docker run -e PORT=8000 img`, build with `--build-arg JOBS=4`.\n",
            [],
        ),
        ("The build args are set in CI; export MODEL=llama before docker run -e PORT=80 img.\n", []),
        ("Build args go in the Dockerfile, runtime env vars such as PORT=8000 go to docker run.\n", []),
        ("## Environment variables\n\n- `PORT=8000`\n- `MODEL=llama`\n", []),
        ("## Build arguments\n\nPass each as `--build-arg NAME=VALUE`, or `KEY=VALUE`.\n", []),
        ("Arguments: `MODEL=llama` `PORT=80`\n", []),
        ("## Environment variables\n\n```\nPORT=8000\nMODEL=llama\n```\n", []),
        ("## Build args\n\n```bash\nPYTHON=3.11\nexport PORT=1\n```\n", []),
        ("## Build args\n\nThe runtime env file:\n\n```env\nPORT=8000\n```\n", []),
        ("## Build args\n\n```\nPYTHON=3.11\ndocker compose up\n```\n", []),
    ],
)
def test_one_word_names_in_a_build_arg_list(readme: str, expected: list[tuple[str, str]]) -> None:
    assert messages(readme) == expected


# --------------------------------------------------------------------------------------------------
# 3. Required args and defaults


def required(name: str, line: int, value: str, confidence: str = "likely") -> tuple[str, str]:
    return (
        f"README says {name} has no default (must be passed) but Dockerfile:{line} says {value}",
        confidence,
    )


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        ("`JOBS` must be explicitly specified.\n", [required("JOBS", 3, "8")]),
        ("The build arg `CUDA_VERSION` is required.\n", [required("CUDA_VERSION", 2, "12.4")]),
        (
            "CUDA_VERSION has no default; pick the one of your driver.\n",
            [required("CUDA_VERSION", 2, "12.4")],
        ),
        ("- `JOBS` (required): parallel compile jobs.\n", [required("JOBS", 3, "8")]),
        (
            "| Build arg | Default |\n|---|---|\n| `JOBS` | *required* |\n| `CUDA_VERSION` | `12.4` |\n"
            '| `TORCH_ARCH` | none |\n| `HF_TOKEN` | `""` |\n',
            [required("JOBS", 3, "8", "certain")],
        ),
        # the reverse: a default for an ARG declared without one
        (
            "`TORCH_ARCH` defaults to `8.0;9.0`.\n",
            [("README says TORCH_ARCH defaults to 8.0;9.0 but Dockerfile:4 says no default", "likely")],
        ),
        (
            "Set `TORCH_ARCH` (default: `9.0`) to your GPU.\n",
            [("README says TORCH_ARCH defaults to 9.0 but Dockerfile:4 says no default", "likely")],
        ),
        # traps: true claims, an empty default, a condition, a recommendation, a negation, no ARG
        ("`TORCH_ARCH` must be explicitly specified.\n", []),
        ("`HF_TOKEN` is required to download gated models.\n", []),
        ("`HF_TOKEN` is required.\n", []),
        ("`JOBS` is required for multi-node builds.\n", []),
        ("`JOBS` must be set to the number of cores.\n", []),
        ("`JOBS` is not required.\n", []),
        ("`MODEL` is required.\n", []),
        ("`JOBS` defaults to `8`.\n", []),
    ],
)
def test_required_and_default_claims(readme: str, expected: list[tuple[str, str]]) -> None:
    assert messages(readme) == expected


def test_a_dead_link_that_could_mean_either_image_leaves_its_section_compared_with_both(
    tmp_path: Path,
) -> None:
    # A link may be a "see also": unlike a `-f`, when what it means now is unclear it does not take its
    # section away from the family.
    readme = "## Images\n\nSee [Dockerfile.gpu](Dockerfile.gpu).\n\nBoth ship PyTorch 2.2.0.\n"
    found = audit_tree(
        tmp_path,
        {"README.md": readme, "docker/Dockerfile.cuda": CUDA, "docker/Dockerfile.rocm": ROCM},
        ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm"],
    )
    assert [(line, confidence) for line, _, confidence in found] == [(3, "certain"), (5, "likely")]
    assert found[1][1].startswith("README says PyTorch 2.2.0 but docker/Dockerfile.")


# --------------------------------------------------------------------------------------------------
# One default stated for several build args a list item starts with

BRANCHES = """\
FROM ubuntu:22.04
ARG APP_BRANCH="main"
ARG DOCS_BRANCH
ARG TOOLS_BRANCH=main
RUN echo "$APP_BRANCH $DOCS_BRANCH $TOOLS_BRANCH"
"""
NO_DEFAULT = "README says DOCS_BRANCH defaults to main but Dockerfile:3 says no default"


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (
            '`APP_BRANCH`, `DOCS_BRANCH`, `TOOLS_BRANCH` - branches. By default, they are equal to "main".',
            [NO_DEFAULT],
        ),
        ("`APP_BRANCH` / `DOCS_BRANCH`: the branches to build; they default to `main`.", [NO_DEFAULT]),
        ("`APP_BRANCH` and `DOCS_BRANCH` select branches (their default is `main`).", [NO_DEFAULT]),
        # both names have that default: true
        ('`APP_BRANCH`, `TOOLS_BRANCH` - branches. By default, they are equal to "main".', []),
        # `the default` may be one name's; a default in words is not compared
        ("`APP_BRANCH`, `DOCS_BRANCH` - branches. The default is `main`.", []),
        ("`APP_BRANCH`, `DOCS_BRANCH` - branches. By default, they are empty.", []),
    ],
)
def test_one_default_stated_for_several_build_args(item: str, expected: list[str]) -> None:
    readme = f"Override these with `--build-arg`:\n\n* {item}\n"
    model = model_of(parse_dockerfile(BRANCHES, "Dockerfile"))
    found = audit(readme, "README.md", model)
    assert [d.message for d in found] == expected
    assert all(d.line == 3 and d.confidence == "likely" for d in found)


# --------------------------------------------------------------------------------------------------
# Scripts a README runs that are not there

APP = "FROM python:3.12-slim\nCOPY . /app\n"


def scripts_found(root: Path, files: dict[str, str], readme: str = "README.md") -> list[tuple[int, str, str]]:
    """`audit` of root/`readme` against root/Dockerfile, with the README's folder: (line, message,
    confidence) of each finding. `root` is the project: nothing above it (the machine's own /tmp) is
    looked at, as `docgen audit` looks only inside the project."""
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / readme).read_text(encoding="utf-8")
    found = audit(text, readme, model, {}, (root / readme).parent, root.resolve())
    return [(d.line, d.message, d.confidence) for d in found]


def missing(path: str, hint: str) -> str:
    return f"README runs {path}, which does not exist next to it or in a folder above it ({hint})"


def test_a_script_the_readme_runs_that_is_not_there(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n./build.sh --tag app\n./run.sh\n```\n\nSee `./build.sh -h` for its options.\n"
    assert scripts_found(tmp_path, {"README.md": readme, "run.sh": ""}) == [
        (4, missing("./build.sh", "the scripts there: run.sh") + "; also run at line 8", "certain")
    ]


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        ("cd tools\n./build.sh\n./run.sh", []),
        ("cd tools\n./deploy.sh\n./run.sh", ["./deploy.sh"]),
        ("cd tools && bash deploy.sh && ./run.sh", ["deploy.sh"]),
        # run in the container, not here
        ("cd tools\n./run.sh\ndocker run --rm app ./deploy.sh", []),
        ("cd tools\n./run.sh\ndocker run -it app bash\n./deploy.sh", []),
        # made first: downloaded, or in a checkout
        ("cd tools\n./run.sh\nwget https://example.com/deploy.sh\n./deploy.sh", []),
        ("git clone https://example.com/tools.git\ncd tools\n./deploy.sh", []),
        ("cd $TOOLS\n./deploy.sh", []),
        # a `cd` to where the reader keeps this checkout: its block runs a script found here
        ("cd ~/src/app\n./tools/run.sh\n```\n\n```bash\n./tools/logs.sh", ["./tools/logs.sh"]),
        ("cd src/app && ./tools/run.sh && ./tools/logs.sh", ["./tools/logs.sh"]),
        # one whose block runs no script found here (a folder this checkout lacks) ends the reading
        ("cd vendor/app\n./logs.sh\n```\n\n```bash\n./tools/run.sh\n./tools/logs.sh", []),
        ("cd ~/src/app\ndocker run app ./tools/run.sh\n./tools/logs.sh", []),
    ],
)
def test_scripts_are_read_from_where_the_commands_run(
    tmp_path: Path, commands: str, expected: list[str]
) -> None:
    files = {"README.md": f"# App\n\n```bash\n{commands}\n```\n", "tools/run.sh": "", "tools/build.sh": ""}
    found = scripts_found(tmp_path, files)
    assert [message.split(",", 1)[0].removeprefix("README runs ") for _, message, _ in found] == expected


def test_a_script_the_readme_says_to_create_or_that_no_found_script_places(tmp_path: Path) -> None:
    created = "Save the following as `deploy.sh`:\n\n```bash\n./run.sh\n./deploy.sh\n```\n"
    assert scripts_found(tmp_path / "a", {"README.md": created, "run.sh": ""}) == []
    # No script the README runs is found where it runs them: another layout or a partial checkout,
    # not a README whose every script is gone.
    alone = "```bash\n./build.sh\n./deploy.sh\n```\n"
    assert scripts_found(tmp_path / "b", {"README.md": alone, "run.sh": ""}) == []


def test_scripts_run_from_the_repository_root(tmp_path: Path) -> None:
    readme = "From the repository root:\n\n```bash\n./scripts/build.sh\n./scripts/deploy.sh\n```\n"
    files = {"docs/README.md": readme, "scripts/build.sh": ""}
    assert scripts_found(tmp_path, files, "docs/README.md") == [
        (5, missing("./scripts/deploy.sh", "the scripts there: build.sh"), "certain")
    ]


def test_a_script_renamed_next_to_the_readme(tmp_path: Path) -> None:
    readme = "```bash\n./build.sh --push\n```\n"
    assert scripts_found(tmp_path / "a", {"README.md": readme, "build_image.sh": ""}) == [
        (2, missing("./build.sh", "did you mean build_image.sh?"), "certain")
    ]
    # A script of another name is no rename: nothing places the README's commands there.
    assert scripts_found(tmp_path / "b", {"README.md": readme, "post_start.sh": ""}) == []


# 4. A list introduced as the build args is checked like a build-argument table

HDF = """\
ARG BASE=debian:12
FROM ${BASE}
ARG HDF_MAJOR=1.14
ARG HDF_MINOR=3
ARG BUILD_DATE
ARG VCS_REF
ARG VCS_URL
RUN echo "$HDF_MAJOR.$HDF_MINOR $BUILD_DATE $VCS_REF $VCS_URL"
"""
HDF_BUILD = "## Build\n\n```\ndocker build --build-arg BUILD_DATE=now --build-arg VCS_REF=abc .\n```\n\n"
HDF_ITEMS = (
    "- `BASE`: image (default=`debian:12`)\n\n- `HDF_MAJOR`: X.Y (default=`1.14`)\n\n- `HDF_MINR`: X\n"
)


def hdf(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(HDF, "Dockerfile"))
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model)]


def test_a_list_said_to_be_the_build_args_must_list_them_all() -> None:
    readme = HDF_BUILD + "Arguments and their defaults are listed below.\n\n" + HDF_ITEMS
    assert hdf(readme) == [
        "7: build arg HDF_MINOR (Dockerfile:4) is missing from the README's build-argument list",
        "7: build arg VCS_URL (Dockerfile:7) is missing from the README's build-argument list",
        "13: README documents build arg HDF_MINR but Dockerfile does not declare it",
    ]
    assert hdf(HDF_BUILD + "Build arguments:\n" + HDF_ITEMS.replace("HDF_MINR", "HDF_MINOR"))[0].startswith(
        "7: build arg VCS_URL (Dockerfile:7) is missing"
    )


def test_an_arg_the_dockerfile_sets_for_its_own_tools_is_owed_no_row() -> None:
    # `ARG DEBIAN_FRONTEND=noninteractive` quiets apt: no one passes it, a complete table leaves it out
    quiet = HDF.replace(
        "FROM ${BASE}\n", "FROM ${BASE}\nARG DEBIAN_FRONTEND=noninteractive\nRUN apt-get update\n"
    )
    model = model_of(parse_dockerfile(quiet, "Dockerfile"))
    readme = HDF_BUILD + "Arguments and their defaults are listed below.\n\n" + HDF_ITEMS
    assert [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model)] == [
        "7: build arg HDF_MINOR (Dockerfile:6) is missing from the README's build-argument list",
        "7: build arg VCS_URL (Dockerfile:9) is missing from the README's build-argument list",
        "13: README documents build arg HDF_MINR but Dockerfile does not declare it",
    ]


def test_a_list_of_some_build_args_need_not_list_them_all() -> None:
    for intro in ("You can override the following build arguments:", "Some useful build args:"):
        assert hdf(HDF_BUILD + intro + "\n\n" + HDF_ITEMS) == [
            "13: README documents build arg HDF_MINR but Dockerfile does not declare it"
        ]
    # a build-argument table says what is missing (the list's items are documented), once
    table = "| Argument | Default |\n|---|---|\n| `BASE` | `debian:12` |\n\n"
    assert hdf(HDF_BUILD + table + "Arguments are listed below.\n\n" + HDF_ITEMS) == [
        "7: build arg HDF_MINOR (Dockerfile:4) is missing from the README's build-argument table",
        "7: build arg VCS_URL (Dockerfile:7) is missing from the README's build-argument table",
        "17: README documents build arg HDF_MINR but Dockerfile does not declare it",
    ]
    # a list of the environment names no build arg
    assert hdf("Environment variables:\n\n- `HDF_MAJOR`: 1.14\n\n- `HDF_PLUGIN_PATH`: /opt\n") == []


def test_a_numbered_list_right_under_a_build_args_heading_must_list_them_all() -> None:
    items = "1. `BASE`: image\n2. `HDF_MAJOR`: X.Y\n3. `BUILD_DATE`: when\n4. `VCS_REF`: commit\n"
    for heading in ("#### Docker Arguments:", "## Build arguments", "### Build Args"):
        assert hdf(f"# HDF\n\n{heading}\n{items}") == [
            "3: build arg HDF_MINOR (Dockerfile:4) is missing from the README's build-argument list",
            "3: build arg VCS_URL (Dockerfile:7) is missing from the README's build-argument list",
        ], heading
    # a heading saying they are some of them, or a list with an item no ARG declares, claims no more
    assert hdf(f"# HDF\n\n## Useful build args\n{items}") == []
    other = items.replace("`VCS_REF`: commit", "`HDF_PATH`: folder")
    assert hdf(f"# HDF\n\n## Build arguments\n{other}") == [
        "7: README documents build arg HDF_PATH but Dockerfile does not declare it"
    ]
    # an arg the README passes in a build command is documented there
    assert hdf(f"# HDF\n\n## Build arguments\n{items}\n{HDF_BUILD}".replace("VCS_REF=abc", "VCS_URL=x"))[
        :1
    ] == ["3: build arg HDF_MINOR (Dockerfile:4) is missing from the README's build-argument list"]


# 5. A Dockerfile named in plain words in a table or list of this folder's Dockerfiles

JETSON_README = """\
# Inference images

| Dockerfile | Board |
|---|---|
| Dockerfile.trt.jetson.4.6 | Jetson 4.6 |
| **Dockerfile.trt.jetson.5.1.0** | Jetson 5.1 |
| Dockerfile.trt.gpu | GPU (removed in 3.0) |

Pull `acme/trt:Dockerfile.trt.jetson.5.0` or acme/trt:Dockerfile.trt.jetson.5.0 instead of building.

- Dockerfile.trt.jetson.4.6: the older board
- Dockerfile.trt.x86, kept in the upstream repository
- Dockerfile.trt.jetson.5.1: the newer board

## Changelog

| Dockerfile | Change |
|---|---|
| Dockerfile.trt.jetson.5.0 | replaced by 5.1 |
"""


def test_a_plain_dockerfile_name_in_a_table_or_list_of_this_folder(tmp_path: Path) -> None:
    jetson = {
        "README.md": JETSON_README,
        "Dockerfile.trt.jetson.4.6": "FROM ubuntu:20.04\n",
        "Dockerfile.trt.jetson.5.1.1": "FROM ubuntu:22.04\n",
    }
    gone_hint = "which does not exist next to it (did you mean Dockerfile.trt.jetson.5.1.1?)"
    # The stale table row (bold) and list item are found; an image tag, a row saying the file was
    # removed, another repository's Dockerfile and the changelog's table are not.
    assert audit_tree(tmp_path / "a", jetson, ["Dockerfile.trt.jetson.5.1.1"]) == [
        (6, f"README lists Dockerfile.trt.jetson.5.1.0, {gone_hint}", "certain"),
        (13, f"README lists Dockerfile.trt.jetson.5.1, {gone_hint}", "likely"),
    ]
    # A name found in a folder just below the README's is there.
    below = {**jetson, "jetson/Dockerfile.trt.jetson.5.1.0": "FROM ubuntu:22.04\n"}
    assert [line for line, _, _ in audit_tree(tmp_path / "c", below, ["Dockerfile.trt.jetson.5.1.1"])] == [13]
    # A table naming no Dockerfile that is here is not a list of this folder's files.
    other = {"README.md": JETSON_README, "Dockerfile": "FROM ubuntu:22.04\n"}
    assert audit_tree(tmp_path / "b", other, ["Dockerfile"]) == []


ROCM_REPO = """\
FROM ubuntu:22.04
RUN echo "deb [arch=amd64] https://repo.radeon.com/rocm/apt/6.1 jammy main" \\
        > /etc/apt/sources.list.d/rocm.list && \\
    echo "deb [arch=amd64] https://repo.radeon.com/amdgpu/6.1/ubuntu jammy main" \\
        > /etc/apt/sources.list.d/amdgpu.list && \\
    apt-get update && apt-get install -y rocm-dev
"""


def test_the_rocm_version_targeted_against_the_apt_repository(tmp_path: Path) -> None:
    def found(readme: str, dockerfile: str = ROCM_REPO) -> list[tuple[int, str, str]]:
        files = {"README.md": readme, "Dockerfile": dockerfile}
        return audit_tree(tmp_path / str(len(list(tmp_path.iterdir()))), files, ["Dockerfile"])

    stale = "README says ROCm 6.4 but Dockerfile:2 says 6.1"
    assert found("# Image\n\nROCm version targeted is 6.4.\n") == [(3, stale, "likely")]
    # The repository of a minor serves its first release (6.1.0; 6.1.3 has its own path `apt/6.1.3`).
    point = (
        "README says ROCm 6.1.3 but Dockerfile:2 says 6.1.0 (the ROCm apt repository "
        "https://repo.radeon.com/rocm/apt/6.1 serves 6.1.0)"
    )
    assert found("# Image\n\nROCm version targeted is 6.1.3.\n") == [(3, point, "likely")]
    assert found("# Image\n\nROCm version targeted is 6.1.0.\n") == []
    assert found("# Image\n\nROCm version targeted is 6.1.\n") == []
    # The host's ROCm is not the image's; a participle not followed by `is` says no version.
    assert found("# Image\n\nROCm version targeted by the host driver is 6.4.\n") == []
    # The `latest` repository path says no version to compare with.
    latest = ROCM_REPO.replace("apt/6.1", "apt/latest").replace("amdgpu/6.1", "amdgpu/latest")
    assert found("# Image\n\nROCm version targeted is 6.4.\n", latest) == []


NPU = """\
ARG BASE_VERSION=latest
FROM example/cann:${BASE_VERSION}
ARG TORCH_VERSION=2.1.0
RUN pip install torch==${TORCH_VERSION}
"""

NPU_README = """\
# PyTorch for NPUs

Don't have Bake? Use `docker build` instead.

```docker
docker build \\
    -t example/pytorch:latest \\
    -f pytorch/v2.Dockerfile \\
    --build-arg BASE_VERSION=latest \\
    --build-arg PYTORCH_VERSION=2.2.0 \\
    pytorch/
```
"""


def test_a_gone_dockerfile_whose_folder_holds_the_one_compared_gets_its_build_args_compared(
    tmp_path: Path,
) -> None:
    # `pytorch/v2.Dockerfile` is gone; `pytorch/Dockerfile`, in its folder, is the image the command
    # most likely builds now: the arg it passes, no ARG of it, is told `likely`; BASE_VERSION is declared
    found = audit_tree(tmp_path, {"README.md": NPU_README, "pytorch/Dockerfile": NPU}, ["pytorch/Dockerfile"])
    assert found == [
        (8, gone("pytorch/v2.Dockerfile", "pytorch/Dockerfile"), "certain"),
        (
            10,
            "README documents build arg PYTORCH_VERSION but pytorch/Dockerfile does not declare it",
            "likely",
        ),
    ]


def test_a_gone_dockerfile_of_another_folder_gets_no_build_arg_compared(tmp_path: Path) -> None:
    # the gone file was in `tools/`: the one compared is a guess across folders, its args no claim
    readme = NPU_README.replace("pytorch/v2.Dockerfile", "tools/v2.Dockerfile")
    found = audit_tree(tmp_path, {"README.md": readme, "pytorch/Dockerfile": NPU}, ["pytorch/Dockerfile"])
    assert [f for f in found if "build arg" in f[1]] == []
