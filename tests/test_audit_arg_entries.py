"""Build args documented one entry each, the name as the entry's title and a `Default:` line under it
(`docgen/audit/arg_entries.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

MPI = """\
ARG DISTRO=noble
FROM ubuntu:${DISTRO}
ARG FABRIC_TAG="v2.4.1"
ARG MPICH_TAG="v4.3.0"
ARG EXTRA_PKGS=""
RUN git clone -b ${FABRIC_TAG} https://example.org/fabric.git \\
 && git clone -b ${MPICH_TAG} https://example.org/mpich.git \\
 && apt-get install -y ${EXTRA_PKGS}
"""


def found(root: Path, readme: str, dockerfile: str = MPI) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root)]


ENTRIES = """\
# MPI base

## Inputs
Options for `docker build`, each passed as a `build-arg`:

- ### DISTRO
    Default: `noble`

- ### FABRIC_TAG
    Default: `v2.4.1`
    Tag from the fabric repository.

- ### MPICH_TAG
    Default: `v4.3.0`

- ### EXTRA_PKGS
    Default:  `[BLANK]`
    Packages to add, space separated.
"""


def test_a_stale_default_in_an_entry_is_certain(tmp_path: Path) -> None:
    readme = ENTRIES.replace("`v4.3.0`", "`v4.2.1`")
    assert found(tmp_path, readme) == [
        (13, "README says MPICH_TAG defaults to v4.2.1 but Dockerfile:4 says v4.3.0", "certain")
    ]
    # the nearest true statement: every entry agrees, the empty one written as a word
    assert found(tmp_path / "true", ENTRIES) == []


def test_a_word_for_an_empty_default_agrees_with_an_empty_arg(tmp_path: Path) -> None:
    for word in ("[BLANK]", "(empty)", "<none>", "blank"):
        readme = ENTRIES.replace("[BLANK]", word)
        assert found(tmp_path / word.strip("[]()<>"), readme) == [], word
    # a value where the arg has none is still a claim
    readme = ENTRIES.replace("[BLANK]", "vim")
    assert found(tmp_path / "vim", readme) == [
        (16, 'README says EXTRA_PKGS defaults to vim but Dockerfile:5 says ""', "certain")
    ]


def test_an_entry_for_an_arg_the_dockerfile_dropped(tmp_path: Path) -> None:
    readme = ENTRIES + "\n- ### HWLOC_TAG\n    Default: `master`\n"
    assert found(tmp_path, readme) == [
        (20, "README documents build arg HWLOC_TAG but Dockerfile does not declare it", "certain")
    ]
    # an entry of the same shape for an environment variable of the running container is no build arg
    runtime = ENTRIES + "\n## Runtime settings\n\n- ### OMP_PROC_BIND\n    Default: `close`\n"
    assert found(tmp_path / "runtime", runtime) == []


def test_a_heading_per_arg_and_a_bold_title(tmp_path: Path) -> None:
    readme = (
        "# MPI base\n\n## Build arguments\n\n### FABRIC_TAG\n\nDefault: `v2.3.0`\n\n"
        "- **MPICH_TAG**\n  Default value: `v4.3.0`\n"
    )
    assert found(tmp_path, readme) == [
        (5, "README says FABRIC_TAG defaults to v2.3.0 but Dockerfile:3 says v2.4.1", "certain")
    ]
    # a title with more words than the name is no entry: prose, read as before (`likely`)
    prose = readme.replace("### FABRIC_TAG", "### Setting FABRIC_TAG")
    assert [c for _, _, c in found(tmp_path / "prose", prose)] in ([], ["likely"])


# --------------------------------------------------------------------------------------------------
# The repository an entry says the arg's branches come from, against the one the build clones

MD = """\
ARG BASE=rocm/dev-ubuntu-22.04:6.1
FROM ${BASE}
ARG CORE_BRANCH="8.1.0"
ARG HIP_BRANCH="master"
RUN git clone -b ${CORE_BRANCH} https://github.com/simlab/mdcore.git && cd mdcore && make
RUN git clone --depth 1 --branch=${HIP_BRANCH} https://github.com/gpuvendor/mdcore-hip.git \\
 && cd mdcore-hip && make
"""
MD_ENTRIES = """\
# MD on ROCm

## Build arguments

- ### CORE_BRANCH
    Default: `8.1.0`
    Branch/Tag found: [MDCore repo](https://github.com/simlab/mdcore.git)

- ### HIP_BRANCH
    Default: `master`
    Branch/Tag found: [MDCore repo](https://github.com/simlab/mdcore.git)
"""


def test_an_entry_linking_another_repository_than_the_build_clones(tmp_path: Path) -> None:
    # a molecular-dynamics image: the HIP plugin's branch is said to come from the core repository
    assert [f for f in found(tmp_path, MD_ENTRIES, MD) if "branch or tag" in f[1]] == [
        (
            11,
            "README says HIP_BRANCH is a branch or tag of simlab/mdcore, but Dockerfile:6 checks "
            "HIP_BRANCH out of gpuvendor/mdcore-hip",
            "likely",
        )
    ]
    # an MPI image's entry under a heading of the name, its tag linked to another project's releases
    readme = (
        "# MPI\n\n### MPICH_TAG\n\nDefault: `v4.3.0`. Tags: <https://gitlab.com/other/mpich-fork/-/tags>\n"
    )
    dockerfile = MPI.replace("https://example.org/mpich.git", "https://github.com/pmodels/mpich.git")
    assert [f[0] for f in found(tmp_path, readme, dockerfile) if "branch or tag" in f[1]] == [5]


def test_entries_whose_link_agrees_or_cannot_be_told(tmp_path: Path) -> None:
    head, tail = MD_ENTRIES.split("- ### HIP_BRANCH")
    right = (
        head
        + "- ### HIP_BRANCH"
        + tail.replace(
            "[MDCore repo](https://github.com/simlab/mdcore.git)",
            "[plugin](https://github.com/GPUVendor/mdcore-hip)",
        )
    )
    assert [f for f in found(tmp_path, right, MD) if "branch or tag" in f[1]] == []
    # the clone's address from a variable: any repository
    variable = MD.replace("https://github.com/gpuvendor/mdcore-hip.git", "${HIP_REPO}")
    assert [f for f in found(tmp_path, MD_ENTRIES, variable) if "branch or tag" in f[1]] == []
    # the arg not a clone's branch (checked out after, or not a ref at all), or two links in the entry
    unref = MD.replace("--branch=${HIP_BRANCH}", "").replace("make\n", "git checkout ${HIP_BRANCH} && make\n")
    assert [f for f in found(tmp_path, MD_ENTRIES, unref) if "branch or tag" in f[1]] == []
    two = MD_ENTRIES.replace(
        "mdcore.git)\n",
        "mdcore.git) or [the plugin](https://github.com/gpuvendor/mdcore-hip)\n",
    )
    assert [f for f in found(tmp_path, two, MD) if "branch or tag" in f[1]] == []
