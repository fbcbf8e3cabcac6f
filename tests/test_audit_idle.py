"""Build args the README documents that the Dockerfile declares and never reads (`docgen/audit/idle.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

SDK = """\
ARG BASE=ubuntu:24.04
FROM ${BASE}
ARG SDK_VERSION=3.2.1-1
ARG TOOLS_VERSION=1.4
RUN apt-get update && apt-get install -y \\
        curl \\
    # the SDK, when a version is given
    #   sdk-core=${SDK_VERSION} \\
    #   sdk-dev=${SDK_VERSION} \\
        tools=${TOOLS_VERSION}
"""


def idle(root: Path, readme: str, dockerfile: str = SDK) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root)]


def test_a_documented_build_arg_used_only_in_comments(tmp_path: Path) -> None:
    readme = (
        "# SDK image\n\nPick the SDK with `SDK_VERSION`; leave it empty to skip the SDK.\n\n"
        "```bash\ndocker build --build-arg SDK_VERSION=3.2.1-1 --build-arg TOOLS_VERSION=1.4 .\n```\n"
    )
    assert idle(tmp_path / "a", readme) == [
        (
            3,
            "README documents build arg SDK_VERSION, but Dockerfile:3 declares it and never uses it "
            "(its only uses are commented out: lines 8-9)",
            "likely",
        )
    ]
    # the same README, once the install line is live again: the arg is used
    live = SDK.replace("    #   sdk-core", "        sdk-core").replace("    #   sdk-dev", "        sdk-dev")
    assert idle(tmp_path / "b", readme, live) == []


def test_a_documented_build_arg_never_referenced(tmp_path: Path) -> None:
    table = "| Build arg | Default |\n|---|---|\n| `BASE` | `ubuntu:24.04` |\n| `SDK_VERSION` | `3.2.1-1` |\n"
    table += "| `TOOLS_VERSION` | `1.4` |\n"
    dockerfile = SDK.replace("    #   sdk-core=${SDK_VERSION} \\\n    #   sdk-dev=${SDK_VERSION} \\\n", "")
    assert idle(tmp_path, "# SDK\n\n" + table, dockerfile) == [
        (
            6,
            "README documents build arg SDK_VERSION, but Dockerfile:3 declares it and never uses it",
            "likely",
        )
    ]


def test_an_arg_a_tool_reads_from_the_environment_is_not_idle(tmp_path: Path) -> None:
    # a bare ARG a RUN sees as an environment variable (a token a script reads) does something
    dockerfile = "FROM ubuntu:24.04\nARG HF_TOKEN\nRUN python3 /fetch.py\n"
    readme = "# Model\n\n```bash\ndocker build --build-arg HF_TOKEN=hf_xxx .\n```\n"
    assert idle(tmp_path, readme, dockerfile) == []


def test_platform_args_and_args_declared_for_later_are_no_finding(tmp_path: Path) -> None:
    dockerfile = """\
FROM ubuntu:24.04
ARG TARGETARCH
ARG TARGETOS
# GPU targets for a devel build; not used yet by these stages (kept for later).
ARG GPU_TARGETS="80;90"
# GPU targets of the kernels.
ARG KERNEL_TARGETS="80;90"
RUN echo building
"""
    table = "| Build arg | Default | Notes |\n|---|---|---|\n| `TARGETARCH` | (set by BuildKit) | |\n"
    table += "| `TARGETOS` | (set by BuildKit) | |\n| `GPU_TARGETS` | `80;90` | devel builds |\n"
    table += "| `KERNEL_TARGETS` | `80;90` | kernels |\n"
    assert idle(tmp_path, "# Image\n\n" + table, dockerfile) == [
        (
            8,
            "README documents build arg KERNEL_TARGETS, but Dockerfile:7 declares it and never uses it",
            "likely",
        )
    ]


GUARDED = """\
FROM ubuntu:24.04
ARG SDK_VERSION=3.2.1-1
RUN apt-get update && apt-get install -y curl && \\
    if [ -n "${SDK_SDK_VERSION}" ]; then apt-get install -y \\
        sdk-core=${SDK_VERSION} \\
        sdk-dev=${SDK_VERSION}; \\
    fi && \\
    rm -rf /var/lib/apt/lists/*
"""

GUARDED_README = (
    "# SDK image\n\nPick the SDK with `SDK_VERSION`; leave it empty to skip the SDK.\n\n"
    "```bash\ndocker build --build-arg SDK_VERSION=3.2.1-1 .\n```\n"
)


def test_a_documented_build_arg_read_only_under_a_test_of_an_undeclared_variable(tmp_path: Path) -> None:
    assert idle(tmp_path, GUARDED_README, GUARDED) == [
        (
            3,
            "README documents build arg SDK_VERSION, but Dockerfile:4 reads it only in a branch that tests "
            "${SDK_SDK_VERSION}, which nothing declares: the branch never runs",
            "likely",
        )
    ]


def test_branches_that_may_run(tmp_path: Path) -> None:
    traps = {
        # the guard tests the arg itself
        "own": GUARDED.replace("${SDK_SDK_VERSION}", "${SDK_VERSION}"),
        # the guard's variable is declared (an ENV, another ARG)
        "env": GUARDED.replace("ARG SDK_VERSION=3.2.1-1", "ARG SDK_VERSION=3.2.1-1\nENV SDK_SDK_VERSION=1"),
        "arg": GUARDED.replace("ARG SDK_VERSION=3.2.1-1", "ARG SDK_VERSION=3.2.1-1\nARG SDK_SDK_VERSION"),
        # a test that the variable is empty: always true, the branch always runs
        "empty": GUARDED.replace('[ -n "${SDK_SDK_VERSION}" ]', '[ -z "${SDK_SDK_VERSION}" ]'),
        # a read outside the branch too
        "outside": GUARDED.replace("rm -rf /var", 'echo "${SDK_VERSION}" > /sdk && rm -rf /var'),
        # a shell variable the RUN sets before its test
        "shell": GUARDED.replace("if [ -n", 'SDK_SDK_VERSION="$SDK_VERSION"; if [ -n'),
        # a file the RUN sources may set it
        "sourced": GUARDED.replace("if [ -n", ". /etc/sdk.env && if [ -n"),
    }
    for name, dockerfile in traps.items():
        assert idle(tmp_path / name, GUARDED_README, dockerfile) == [], name
    # not documented: no claim
    assert idle(tmp_path / "quiet", "# SDK image\n\nRun it.\n", GUARDED) == []


# --------------------------------------------------------------------------------------------------
# read only by a RUN that sets shell variables (`lost_args`, DG011)

ALLOCATOR = """\
FROM ubuntu:22.04
ARG ALLOCATOR=tcmalloc
ENV ALLOCATOR=${ALLOCATOR}
ARG ALLOCATOR_PACKAGE=libgoogle-perftools-dev
RUN if [ "${ALLOCATOR}" = "jemalloc" ] ; then \\
       ALLOCATOR_PACKAGE=libjemalloc-dev; \\
    fi
RUN apt-get update && apt-get install -y ${ALLOCATOR_PACKAGE}
"""


def lost(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    return [found for found in idle(root, readme, dockerfile) if "shell variables" in found[1]]


def test_an_allocator_chosen_in_a_run_that_only_sets_variables(tmp_path: Path) -> None:
    """Modelled on an Intel GPU image's README: `--build-arg ALLOCATOR=jemalloc` switches allocators, but
    the only RUN that reads it (through the ENV of its name) sets a shell variable and ends."""
    readme = (
        "# Arc image\n\n* You can switch from `tcmalloc` to `jemalloc`: add "
        '`--build-arg="ALLOCATOR=jemalloc"` when building the image.\n'
    )
    assert lost(tmp_path / "a", readme, ALLOCATOR) == [
        (
            3,
            "README documents build arg ALLOCATOR, but Dockerfile:5 reads it only in a RUN that does nothing "
            "but set shell variables (ALLOCATOR_PACKAGE), which end with that RUN: the choice ALLOCATOR "
            "makes reaches no later line (docgen lint: DG011)",
            "likely",
        )
    ]


def test_a_variant_picked_by_the_arg_itself_in_such_a_run(tmp_path: Path) -> None:
    """Modelled on a CUDA image's README: `CUDA_FLAVOUR` picks a package name in a RUN of its own."""
    dockerfile = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "ARG CUDA_FLAVOUR=full\n"
        'RUN if [ "$CUDA_FLAVOUR" = "lite" ]; then export PKGS="cuda-libraries-12-4"; fi\n'
        "RUN apt-get install -y ${PKGS:-cuda-toolkit-12-4}\n"
    )
    readme = "# CUDA\n\n| Build arg | Default |\n|---|---|\n| `CUDA_FLAVOUR` | `full` |\n"
    assert [line for line, *_ in lost(tmp_path / "b", readme, dockerfile)] == [5]


def test_args_whose_choice_reaches_a_later_line_are_no_finding(tmp_path: Path) -> None:
    readme = '# Arc image\n\nAdd `--build-arg="ALLOCATOR=jemalloc"` to switch.\n'
    # the RUN installs the package itself: the choice is made where it is used
    does_work = ALLOCATOR.replace(
        "       ALLOCATOR_PACKAGE=libjemalloc-dev; \\\n", "       apt-get install -y libjemalloc-dev; \\\n"
    )
    assert lost(tmp_path / "a", readme, does_work) == []
    # only the image's own variable reads it: a choice for run time, no RUN lost
    env_only = "FROM ubuntu:22.04\nARG ALLOCATOR=tcmalloc\nENV ALLOCATOR=${ALLOCATOR}\n"
    assert lost(tmp_path / "b", readme, env_only) == []
    # the variables are written to a file the image keeps
    kept = ALLOCATOR.replace("libjemalloc-dev; \\\n", "libjemalloc-dev; echo $ALLOCATOR_PACKAGE > /pkg; \\\n")
    assert lost(tmp_path / "c", readme, kept) == []
    # a README that does not document the arg
    assert lost(tmp_path / "d", "# Arc image\n\nBuild it with `docker build .`.\n", ALLOCATOR) == []


def documented(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    return [f for f in idle(root, readme, dockerfile) if "documents build arg" in f[1]]


def test_a_uid_arg_a_useradd_reads_another_arg_for(tmp_path: Path) -> None:
    # a research base image: the uid and gid are args, the user is made with the gid as its uid
    dockerfile = (
        "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
        "ARG USER_UID=2323\n"
        "ARG USER_GID=2323\n"
        "RUN groupadd -g $USER_GID lab && \\\n"
        "    useradd -l -r -u $USER_GID -g lab -m lab\n"
        "COPY start.sh /app/start.sh\n"
        "RUN chmod 755 /app/start.sh\n"
    )
    readme = "# Base\n\n```bash\ndocker build --build-arg USER_UID=1000 --build-arg USER_GID=1000 .\n```\n"
    assert documented(tmp_path / "a", readme, dockerfile) == [
        (
            4,
            "README documents build arg USER_UID, but Dockerfile:2 declares it and never uses it (line 5 "
            "runs useradd -u $USER_GID: the id comes from USER_GID)",
            "likely",
        )
    ]
    # the start script runs in the build: it may read the uid from its environment
    ran = dockerfile.replace("RUN chmod 755 /app/start.sh", "RUN chmod 755 /app/start.sh && /app/start.sh")
    assert documented(tmp_path / "b", readme, ran) == []
    # a PUID the useradd reads itself
    own = dockerfile.replace("-u $USER_GID", "-u $USER_UID")
    assert documented(tmp_path / "c", readme, own) == []


WHEELS = """\
FROM python:3.11-slim
ARG PY_TAG=cp311
ARG NUMPY_VERSION=1.26.4
ARG SCIPY_VERSION=1.13.1
RUN pip download --python-version ${PY_TAG} numpy==${NUMPY_VERSION} scipy==${SCIPY_VERSION}
"""
SOURCES = """\
FROM python:3.11-slim
ARG PY_TAG=cp311
ARG NUMPY_VERSION=1.26.4
ARG SCIPY_VERSION=1.13.1
RUN git clone --branch v${NUMPY_VERSION} https://example.org/numpy.git && pip wheel ./numpy
"""


def shared(root: Path, readme: str, first: str = WHEELS, second: str = SOURCES) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile.wheels": first, "Dockerfile.sources": second, "README.md": readme})
    models = [build_model(root / name, name) for name in ("Dockerfile.wheels", "Dockerfile.sources")]
    found = audit(readme, "README.md", models, {}, root)
    return [(d.line, d.message, d.confidence) for d in found if "changes nothing in that image" in d.message]


BOTH = (
    "# Wheels\n\n`Dockerfile.wheels` downloads binary wheels; `Dockerfile.sources` builds them.\n\n"
    "Both images accept these build arguments:\n\n"
    "- `PY_TAG` (default `cp311`)\n- `NUMPY_VERSION` (default `1.26.4`)\n"
    "- `SCIPY_VERSION` (default `1.13.1`)\n"
)


def test_a_shared_build_arg_one_image_never_reads(tmp_path: Path) -> None:
    assert shared(tmp_path, BOTH) == [
        (
            7,
            "README documents build args PY_TAG, SCIPY_VERSION for Dockerfile.wheels, Dockerfile.sources, "
            "but Dockerfile.sources declares them (lines 2, 4) and never uses them: setting them changes "
            "nothing in that image (only Dockerfile.wheels reads them)",
            "likely",
        )
    ]


def test_a_shared_build_arg_scoped_by_the_readme_or_read_by_each(tmp_path: Path) -> None:
    scoped = BOTH.replace("(default `cp311`)", "(default `cp311`, only used in `Dockerfile.wheels`)")
    scoped = scoped.replace("(default `1.13.1`)", "(default `1.13.1`; wheels only)")
    assert shared(tmp_path / "a", scoped) == []
    # every image reads them
    reading = SOURCES.replace(
        "pip wheel ./numpy", "pip wheel ./numpy scipy==${SCIPY_VERSION} --python-version ${PY_TAG}"
    )
    assert shared(tmp_path / "b", BOTH, second=reading) == []
    # a README that speaks of one image only
    one = BOTH.replace("; `Dockerfile.sources` builds them", "")
    assert shared(tmp_path / "c", one) == []
