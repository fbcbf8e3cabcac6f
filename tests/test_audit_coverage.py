"""Build args a README's table or list covers without naming each (`docgen/audit/coverage.py`): a family
name (`PKGS_*`, `*_VERSION`, `TOOL_{A,B}`, `MIRROR_<NAME>`), an arg nothing reads, and one whose default
only joins listed args."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.coverage import (
    composed_args,
    covered,
    family_pattern,
    internal_args,
    reached_stages,
    scopeless_args,
    stamped_args,
    unreached_args,
)
from docgen.dockerfile import parse_dockerfile

DOCKERFILE = """\
ARG BASE=debian:bookworm-slim
ARG LEFTOVER_IMAGE=builder
FROM ${BASE}
ARG CORE_REPO=acme/core
ARG CORE_REF=main
ARG PLUGINS_REPO=acme/plugins
ARG PLUGINS_REF=main
ARG PLUGINS_PATCHES=""
ARG PLUGINS_PATCH_FILES=""
RUN git clone https://github.com/${CORE_REPO} /core && git -C /core checkout ${CORE_REF} \\
 && git clone https://github.com/${PLUGINS_REPO} /plugins && git -C /plugins checkout ${PLUGINS_REF} \\
 && for p in ${PLUGINS_PATCHES}; do git -C /plugins cherry-pick $p; done \\
 && echo ${PLUGINS_PATCH_FILES} > /plugins/patches.txt
"""


def missing(root: Path, readme: str, dockerfile: str = DOCKERFILE) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root)
        if "is missing from the README" in d.message
    ]


def table(*rows: str) -> str:
    return "# Acme\n\n## Build arguments\n\n| Argument | Description | Default |\n|---|---|---|\n" + "".join(
        f"| `{name}` | what | |\n" for name in rows
    )


def test_a_wildcard_row_documents_every_arg_it_matches(tmp_path: Path) -> None:
    readme = table("BASE", "CORE_REPO", "CORE_REF", "PLUGINS_*")
    assert missing(tmp_path / "a", readme) == []
    # the planted drift: a row that covers only the core args leaves the plugin args out
    readme = table("BASE", "CORE_*", "PLUGINS_REPO", "PLUGINS_REF")
    assert missing(tmp_path / "b", readme) == [
        (5, "build arg PLUGINS_PATCHES (Dockerfile:8) is missing from the README's build-argument table"),
        (5, "build arg PLUGINS_PATCH_FILES (Dockerfile:9) is missing from the README's build-argument table"),
    ]


def test_suffix_alternative_and_placeholder_families(tmp_path: Path) -> None:
    readme = table("BASE", "*_REPO", "*_REF", "PLUGINS_{PATCHES,PATCH_FILES}")
    assert missing(tmp_path / "a", readme) == []
    readme = table("BASE", "<NAME>_REPO", "{CORE,PLUGINS}_REF", "PLUGINS_<WHAT>")
    assert missing(tmp_path / "b", readme) == []
    # alternatives name only themselves: `PLUGINS_{PATCHES}` is no wildcard for PATCH_FILES
    readme = table("BASE", "*_REPO", "*_REF", "PLUGINS_{PATCHES,PATCH}")
    assert [m for _, m in missing(tmp_path / "c", readme)] == [
        "build arg PLUGINS_PATCH_FILES (Dockerfile:9) is missing from the README's build-argument table"
    ]


def test_a_family_item_of_a_list_of_all_build_args(tmp_path: Path) -> None:
    names = ("BASE", "CORE_REPO", "CORE_REF", "PLUGINS_REPO", "PLUGINS_*")
    items = "".join(f"- `{n}`: what\n" for n in names)
    assert missing(tmp_path / "a", "# Acme\n\nAll build arguments:\n\n" + items) == []
    items = items.replace("PLUGINS_*", "PLUGINS_REF")
    assert missing(tmp_path / "b", "# Acme\n\nAll build arguments:\n\n" + items) == [
        (3, "build arg PLUGINS_PATCHES (Dockerfile:8) is missing from the README's build-argument list"),
        (3, "build arg PLUGINS_PATCH_FILES (Dockerfile:9) is missing from the README's build-argument list"),
    ]


def test_an_arg_nothing_reads_is_owed_no_row(tmp_path: Path) -> None:
    readme = table("BASE", "CORE_*", "PLUGINS_*")
    assert missing(tmp_path / "a", readme) == []  # LEFTOVER_IMAGE: declared, read by nothing
    # the same arg once a FROM reads it is one a user sets: the table leaves it out
    used = DOCKERFILE.replace("FROM ${BASE}", "FROM ${LEFTOVER_IMAGE}:${BASE}")
    assert missing(tmp_path / "b", readme, used) == [
        (5, "build arg LEFTOVER_IMAGE (Dockerfile:2) is missing from the README's build-argument table")
    ]
    # a bare arg no instruction names but a RUN sees in its environment (pip reads PIP_INDEX_URL)
    env = DOCKERFILE.replace("FROM ${BASE}\n", "FROM ${BASE}\nARG PIP_INDEX_URL\nRUN pip install acme\n")
    assert missing(tmp_path / "c", readme, env) == [
        (5, "build arg PIP_INDEX_URL (Dockerfile:4) is missing from the README's build-argument table")
    ]


STAGED = """\
ARG BASE=debian:bookworm-slim
FROM ${BASE} AS build
ARG CORE_REF=main
RUN git clone -b ${CORE_REF} https://github.com/acme/core /core
FROM ${BASE} AS bench
ARG BENCH_REF=main
RUN git clone -b ${BENCH_REF} https://github.com/acme/bench /bench
FROM ${BASE} AS runtime
ARG RUNTIME_USER=acme
COPY --from=build /core /core
RUN useradd ${RUNTIME_USER}
"""


def test_an_arg_of_a_stage_the_build_never_runs_is_owed_no_row(tmp_path: Path) -> None:
    # `bench` is no stage of the runtime image: neither built FROM nor copied from
    readme = table("BASE", "CORE_REF", "RUNTIME_USER")
    assert missing(tmp_path / "a", readme, STAGED) == []
    model = build_model(tmp_path / "a" / "Dockerfile", "Dockerfile")
    assert reached_stages(model) == {0, 2}
    assert unreached_args(model) == {"BENCH_REF"}
    # the planted drift: once the runtime copies from `bench`, BENCH_REF changes the image
    copied = STAGED.replace(
        "COPY --from=build /core /core", "COPY --from=build /core /core\nCOPY --from=bench /bench /bench"
    )
    assert missing(tmp_path / "b", readme, copied) == [
        (5, "build arg BENCH_REF (Dockerfile:6) is missing from the README's build-argument table")
    ]


STAMPED = (
    DOCKERFILE
    + """\
ARG CI_BUILD_ID
ENV CI_BUILD_ID=${CI_BUILD_ID:-unknown}
LABEL org.acme.build.id="${CI_BUILD_ID}"
ARG CI_BUILD_REF
LABEL org.acme.build.ref="${CI_BUILD_REF}"
"""
)


def test_an_arg_that_only_stamps_a_label_is_owed_no_row_in_a_table(tmp_path: Path) -> None:
    readme = table("BASE", "CORE_*", "PLUGINS_*")
    assert missing(tmp_path / "a", readme, STAMPED) == []
    model = build_model(tmp_path / "a" / "Dockerfile", "Dockerfile")
    instructions = parse_dockerfile(STAMPED, "Dockerfile").instructions
    assert stamped_args(model, instructions) == {"CI_BUILD_ID", "CI_BUILD_REF"}
    assert stamped_args(model, ()) == frozenset()  # no Dockerfile read
    # the planted drift: the same arg once a RUN reads it changes what is built
    read = STAMPED + "RUN echo ${CI_BUILD_REF} > /core/BUILD\n"
    assert missing(tmp_path / "b", readme, read) == [
        (5, "build arg CI_BUILD_REF (Dockerfile:17) is missing from the README's build-argument table")
    ]
    # an ENV that hands the value to another name (an app's setting) is no stamp either
    renamed = STAMPED.replace("ENV CI_BUILD_ID=", "ENV ACME_RELEASE=")
    assert [m for _, m in missing(tmp_path / "c", readme, renamed)] == [
        "build arg CI_BUILD_ID (Dockerfile:14) is missing from the README's build-argument table"
    ]
    # a list that says it is all the build args still owes them their items
    items = "".join(f"- `{n}`: what\n" for n in ("BASE", "CORE_REPO", "CORE_REF", "PLUGINS_*"))
    assert [m for _, m in missing(tmp_path / "d", "# Acme\n\nAll build arguments:\n\n" + items, STAMPED)] == [
        "build arg CI_BUILD_ID (Dockerfile:14) is missing from the README's build-argument list",
        "build arg CI_BUILD_REF (Dockerfile:17) is missing from the README's build-argument list",
    ]


@pytest.mark.parametrize(
    ("family", "name", "expected"),
    [
        ("PKGS_*", "PKGS_CHERRYPICKS_FILES", True),
        ("PKGS_*", "PKG_VERSION", False),
        ("*_VERSION", "CUDA_VERSION", True),
        ("*_VERSION", "CUDA_VERSION_MAJOR", False),
        ("CUDA_{MAJOR,MINOR}", "CUDA_MINOR", True),
        ("CUDA_{MAJOR,MINOR}", "CUDA_PATCH", False),
        ("MIRROR_<NAME>", "MIRROR_PYPI", True),
        ("MIRROR_<NAME>", "MIRROR_", False),
        ("*", "ANYTHING", False),
        ("<name>", "ANYTHING", False),
    ],
)
def test_what_a_family_name_covers(family: str, name: str, expected: bool) -> None:
    assert covered(name, [family]) is expected


def test_a_plain_name_is_no_family() -> None:
    assert family_pattern("CUDA_VERSION") is None
    assert family_pattern("jobs") is None


COMPOSED = """\
ARG BASE_NAME
ARG BASE_VERSION
ARG BASE=${BASE_NAME}:${BASE_VERSION}
FROM $BASE
ARG WHEEL_PKG
RUN pip3 install $WHEEL_PKG
"""


def test_an_arg_whose_default_joins_listed_args_is_owed_no_row(tmp_path: Path) -> None:
    # the table documents the name and the tag the image is built on: BASE only joins them
    assert missing(tmp_path / "a", table("BASE_NAME", "BASE_VERSION", "WHEEL_PKG"), COMPOSED) == []
    # the planted drift: with the tag left out, BASE holds a part the table does not document
    assert missing(tmp_path / "b", table("BASE_NAME", "WHEEL_PKG"), COMPOSED) == [
        (5, "build arg BASE_VERSION (Dockerfile:2) is missing from the README's build-argument table"),
        (5, "build arg BASE (Dockerfile:3) is missing from the README's build-argument table"),
    ]
    # a default with a word of its own (a registry) is more than its parts: a user may change it
    own = COMPOSED.replace("${BASE_NAME}:", "registry.local/${BASE_NAME}:")
    assert missing(tmp_path / "c", table("BASE_NAME", "BASE_VERSION", "WHEEL_PKG"), own) == [
        (5, "build arg BASE (Dockerfile:3) is missing from the README's build-argument table")
    ]


def test_which_args_are_composed_of_listed_ones(tmp_path: Path) -> None:
    make_tree(
        tmp_path, {"Dockerfile": COMPOSED.replace("ARG WHEEL_PKG", 'ARG IMAGE="$BASE_NAME/$BASE_VERSION"')}
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert composed_args(model, {"BASE_NAME", "BASE_VERSION"}) == {"BASE", "IMAGE"}
    assert composed_args(model, {"BASE_*"}) == {"BASE", "IMAGE"}  # a family row covers the parts
    assert composed_args(model, {"BASE_NAME"}) == frozenset()


SCOPELESS = """\
ARG BASE_IMAGE=ubuntu:24.04
ARG GPU_TARGET=gfx1151
ARG ROCM_PATH=/opt/rocm
FROM $BASE_IMAGE AS build
ARG ROCM_PATH
ENV GPU_TARGET=${GPU_TARGET}
RUN cmake -DAMDGPU_TARGETS=${GPU_TARGET} -DROCM=${ROCM_PATH} .
"""

SCOPELESS_README = """\
# llama.cpp for ROCm

## Build

```bash
docker build --build-arg GPU_TARGET=gfx1100 --build-arg ROCM_PATH=/opt/rocm-7 -t llama .
```
"""


def findings_of(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message) for d in audit(readme, "README.md", model, {}, root)]


def test_a_global_arg_read_out_of_scope_is_one_a_build_arg_cannot_change(tmp_path: Path) -> None:
    """`ARG GPU_TARGET` before the first FROM, read after it with no `ARG GPU_TARGET` there: BuildKit
    hands the stage an empty value, so the README's `--build-arg GPU_TARGET=gfx1100` changes nothing.
    ROCM_PATH, re-declared in the stage, and BASE_IMAGE, read by the FROM line, do change the build."""
    make_tree(tmp_path, {"Dockerfile": SCOPELESS})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert scopeless_args(model) == {"GPU_TARGET": 6}
    assert findings_of(tmp_path / "a", SCOPELESS_README, SCOPELESS) == [
        (
            6,
            "README documents build arg GPU_TARGET, but Dockerfile:6 reads it in a stage that does not "
            "declare it again (declared only before the first FROM, it is seen by FROM lines only): "
            "--build-arg GPU_TARGET changes nothing",
        )
    ]
    # the trap: the stage declares it again, and the build arg reaches the RUN
    fixed = SCOPELESS.replace("ARG ROCM_PATH\n", "ARG ROCM_PATH\nARG GPU_TARGET\n")
    assert findings_of(tmp_path / "b", SCOPELESS_README, fixed) == []
    # an arg read by no stage at all is not this rule's (nothing reads it out of scope either)
    unread = SCOPELESS.replace("${GPU_TARGET}", "gfx1151")
    make_tree(tmp_path / "c", {"Dockerfile": unread})
    assert scopeless_args(build_model(tmp_path / "c" / "Dockerfile", "Dockerfile")) == {}


def test_an_arg_a_heredoc_run_passes_its_script_is_no_stamp(tmp_path: Path) -> None:
    # the RUN line hands CI_BUILD_REF to the script its here-document holds: the arg picks the checkout,
    # though its name on the line is followed by the body's first word once joined
    passed = STAMPED + 'RUN <<EOF bash -s $CI_BUILD_REF\ngit -C /core checkout "$1"\nEOF\n'
    readme = table("BASE", "CORE_*", "PLUGINS_*")
    assert [m for _, m in missing(tmp_path / "a", readme, passed)] == [
        "build arg CI_BUILD_REF (Dockerfile:17) is missing from the README's build-argument table"
    ]
    # the trap: a body whose first word, joined to the line's last, would spell a read of the arg
    spelled = STAMPED + "RUN <<EOF echo $\nCI_BUILD_REF > /dev/null\nEOF\n"
    assert missing(tmp_path / "b", readme, spelled) == []


NOTICED = (
    STAMPED
    + """\
ARG RC_DATE=00.00
RUN echo "Sources: https://oss.example.com/acme/${RC_DATE}:linux/index.html" > NOTICES.txt && \\
    echo "Contact: oss@example.com" >> NOTICES.txt
"""
)


def test_an_arg_only_echoed_into_a_notice_file_is_owed_no_row_in_a_table(tmp_path: Path) -> None:
    # RC_DATE only names a release in a text file the build writes and nothing reads: a stamp like a LABEL
    readme = table("BASE", "CORE_*", "PLUGINS_*")
    assert missing(tmp_path / "a", readme, NOTICED) == []
    model = build_model(tmp_path / "a" / "Dockerfile", "Dockerfile")
    instructions = parse_dockerfile(NOTICED, "Dockerfile").instructions
    assert stamped_args(model, instructions) == {"CI_BUILD_ID", "CI_BUILD_REF", "RC_DATE"}
    # the planted drifts: a text file a later step reads (pip's constraints), the same echo piped to a
    # command, a file that is no text file (/core/BUILD, above)
    pinned = NOTICED + "RUN pip install -c NOTICES.txt acme\n"
    assert [m for _, m in missing(tmp_path / "b", readme, pinned)] == [
        "build arg RC_DATE (Dockerfile:19) is missing from the README's build-argument table"
    ]
    piped = NOTICED.replace('index.html" > NOTICES.txt', 'index.html" | sh > NOTICES.txt')
    assert [m for _, m in missing(tmp_path / "c", readme, piped)] == [
        "build arg RC_DATE (Dockerfile:19) is missing from the README's build-argument table"
    ]
    # a list that says it is all the build args still owes it an item
    items = "".join(f"- `{n}`: what\n" for n in ("BASE", "CORE_REPO", "CORE_REF", "PLUGINS_*", "CI_*"))
    assert [m for _, m in missing(tmp_path / "d", "# Acme\n\nAll build arguments:\n\n" + items, NOTICED)] == [
        "build arg RC_DATE (Dockerfile:19) is missing from the README's build-argument list"
    ]


INTERNAL = """\
ARG BASE=debian:bookworm-slim
ARG CORE_REPO=acme/core
# for internal use - another package suffix for the older release with Python 3.12
ARG PKG_SUFFIX=
# Constants, do not override
ARG CROSS_VERSION=0.3.1
ARG TOOLS_VERSION=1.4.0
FROM ${BASE}
ARG PKG_SUFFIX
ARG CORE_REPO
ARG TOOLS_VERSION
# Re-declare ARGs for internal use
ARG CROSS_VERSION
RUN git clone https://github.com/${CORE_REPO} /core && pip install core${PKG_SUFFIX} \\
 && pip install cross==${CROSS_VERSION} tools==${TOOLS_VERSION}
"""


def test_an_arg_its_comment_says_is_for_internal_use_is_owed_no_row(tmp_path: Path) -> None:
    readme = table("BASE", "CORE_REPO", "TOOLS_VERSION")
    assert missing(tmp_path / "a", readme, INTERNAL) == []
    model = build_model(tmp_path / "a" / "Dockerfile", "Dockerfile")
    instructions = parse_dockerfile(INTERNAL, "Dockerfile").instructions
    assert internal_args(model, instructions) == {"PKG_SUFFIX", "CROSS_VERSION"}
    # the planted drift: a user's arg left out of the table
    assert missing(tmp_path / "b", table("BASE", "CORE_REPO"), INTERNAL) == [
        (5, "build arg TOOLS_VERSION (Dockerfile:7) is missing from the README's build-argument table")
    ]
    # a stage re-declaring a user's arg "for internal use" reads the user's value
    redeclared = INTERNAL.replace(
        "ARG TOOLS_VERSION\n", "# Re-declare ARGs for internal use\nARG TOOLS_VERSION\n"
    )
    assert [m for _, m in missing(tmp_path / "c", table("BASE", "CORE_REPO"), redeclared)] == [
        "build arg TOOLS_VERSION (Dockerfile:7) is missing from the README's build-argument table"
    ]
    # a comment parted from the ARG by a blank line heads a section; a second value the user may set
    parted = INTERNAL.replace("Python 3.12\nARG PKG_SUFFIX=", "Python 3.12\n\nARG PKG_SUFFIX=")
    again = INTERNAL.replace("FROM ${BASE}\nARG PKG_SUFFIX\n", "FROM ${BASE}\nARG PKG_SUFFIX=-legacy\n")
    for folder, text, line in (("d", parted, 5), ("e", again, 4)):
        assert [m for _, m in missing(tmp_path / folder, readme, text)] == [
            f"build arg PKG_SUFFIX (Dockerfile:{line}) is missing from the README's build-argument table"
        ], folder
