"""`docgen.audit.branch_refs`: a README build passing a commit to a build arg the Dockerfile uses only as
`git clone --branch` is a `likely` finding; a checkout or fetch of the arg, a branch or tag, a date and a
placeholder naming no commit are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVER = """\
FROM rocm/dev-ubuntu-22.04:6.2
RUN apt-get update && apt-get install -y git python3-pip
ARG ENGINE_REF=main
RUN mkdir -p /work && cd /work && \\
    git clone --depth 1 --branch "${ENGINE_REF}" https://example.org/serve/engine.git && \\
    cd engine && pip install -e . && \\
    echo "engine $(git rev-parse --short HEAD) from ${ENGINE_REF}" > /work/ENGINE_VERSION
"""
"""Modelled on an inference-server ROCm image: the engine cloned at a ref the README lets you pin."""

CPP = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y git cmake build-essential
ARG LLAMA_REF=b4100
RUN git clone -b $LLAMA_REF https://example.org/ml/infer.cpp /src && cmake -S /src -B /build
"""
"""Modelled on a C++ inference runtime image built from a release tag."""


def found(root: Path, dockerfile: str, block: str) -> list[tuple[int, str, str]]:
    readme = f"# Engine\n\nTo pin a specific commit instead of the default:\n\n```bash\n{block}\n```\n"
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "git clone --branch" in d.message
    ]


def said(name: str, value: str, line: int) -> str:
    return (
        f"README passes {name}={value} (a commit), but Dockerfile:{line} uses {name} only as the branch of "
        "git clone --branch, which takes a branch or tag name, not a commit: the clone fails (check the "
        "commit out after the clone)"
    )


@pytest.mark.parametrize(
    ("dockerfile", "block", "finding"),
    [
        (
            SERVER,
            "docker build --build-arg ENGINE_REF=<sha-or-tag> \\\n    -t engine:rocm-<sha> .",
            (6, said("ENGINE_REF", "<sha-or-tag>", 4), "likely"),
        ),
        (
            CPP,
            "docker build -t infer:cpu \\\n  --build-arg LLAMA_REF=9e3f1a7c .",
            (7, said("LLAMA_REF", "9e3f1a7c", 4), "likely"),
        ),
        (
            CPP,
            "docker build --build-arg=LLAMA_REF=<commit-hash> -t infer:cpu .",
            (6, said("LLAMA_REF", "<commit-hash>", 4), "likely"),
        ),
    ],
)
def test_a_commit_given_to_a_clone_branch(
    tmp_path: Path, dockerfile: str, block: str, finding: tuple[int, str, str]
) -> None:
    assert found(tmp_path, dockerfile, block) == [finding]


@pytest.mark.parametrize(
    ("dockerfile", "block"),
    [
        (  # checked out after the clone
            CPP.replace("cmake -S", "git -C /src checkout ${LLAMA_REF} && cmake -S").replace(
                "git clone -b $LLAMA_REF", "git clone"
            ),
            "docker build --build-arg LLAMA_REF=9e3f1a7c -t infer .",
        ),
        (
            CPP.replace("&& cmake -S", "&& cd /src && git checkout ${LLAMA_REF} && cmake -S"),
            "docker build --build-arg LLAMA_REF=9e3f1a7c -t infer .",
        ),
        (  # fetched by ref
            CPP.replace(
                "git clone -b $LLAMA_REF https://example.org/ml/infer.cpp /src",
                "git clone https://example.org/ml/infer.cpp /src && cd /src && git fetch origin $LLAMA_REF"
                " && git checkout FETCH_HEAD",
            ),
            "docker build --build-arg LLAMA_REF=9e3f1a7c -t infer .",
        ),
        (SERVER, "docker build --build-arg ENGINE_REF=<tag-or-branch> -t engine ."),
        (SERVER, "docker build --build-arg ENGINE_REF=v0.4.2 -t engine ."),
        (SERVER, "docker build --build-arg ENGINE_REF=20250114 -t engine ."),
        (SERVER, "docker build --build-arg ENGINE_REF=release-2025.01 -t engine ."),
        (  # installed by pip from the ref, which takes a commit
            SERVER + "RUN pip install git+https://example.org/serve/plugins.git@${ENGINE_REF}\n",
            "docker build --build-arg ENGINE_REF=9e3f1a7c -t engine .",
        ),
        (CPP, "docker build --build-arg OTHER_REF=9e3f1a7c -t infer ."),  # not the clone's arg
    ],
)
def test_refs_the_clone_takes_or_a_checkout_reads(tmp_path: Path, dockerfile: str, block: str) -> None:
    assert found(tmp_path, dockerfile, block) == []


# -- the same in prose -------------------------------------------------------------------------------


def told(root: Path, dockerfile: str, prose: str) -> list[tuple[int, str, str]]:
    readme = f"# Engine\n\nThe image is built in CI.\n\n{prose}\n"
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "git clone --branch" in d.message
    ]


@pytest.mark.parametrize(
    ("dockerfile", "prose", "word", "line"),
    [
        (  # a workflow input written in lower case, modelled on a llama.cpp CUDA image built by Actions
            CPP,
            "## Why\n\n- **Faster builds** for one GPU.\n- **Pinning**: set `llama_ref` to a commit hash for "
            "reproducible builds.",
            "llama_ref",
            8,
        ),
        (  # the build arg bare, modelled on a ROCm serving image's notes
            SERVER,
            "Notes on building:\nENGINE_REF can be a branch, a tag or a commit SHA of the engine.",
            "ENGINE_REF",
            6,
        ),
    ],
)
def test_prose_giving_the_clone_arg_a_commit(
    tmp_path: Path, dockerfile: str, prose: str, word: str, line: int
) -> None:
    name = word.upper()
    assert told(tmp_path, dockerfile, prose) == [
        (
            line,
            f"README says {word} may be set to a commit, but Dockerfile:4 uses {name} only as the branch "
            "of git clone --branch, which takes a branch or tag name, not a commit: the clone fails (check "
            "the commit out after the clone)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("dockerfile", "prose"),
    [
        (CPP, "Set `LLAMA_REF` to a release tag (`b4100`); the image records the commit it built."),
        (CPP, "`LLAMA_REF` takes a branch or tag, not a commit hash."),
        (CPP, "Set `LLAMA_REF` to a commit and check it out yourself after the clone."),
        (CPP, "`LLAMA_REF` (git ref, default `b4100`)."),
        (CPP, "`LLAMA_REF` is the release whose commit hash the image records."),
        (  # the Dockerfile checks the ref out: a commit works
            CPP.replace("cmake -S", "git -C /src checkout ${LLAMA_REF} && cmake -S").replace(
                "git clone -b $LLAMA_REF", "git clone"
            ),
            "Set `llama_ref` to a commit hash for reproducibility.",
        ),
        (CPP, "Set `OTHER_REF` to a commit hash."),  # no such arg
    ],
)
def test_prose_refs_the_clone_takes(tmp_path: Path, dockerfile: str, prose: str) -> None:
    assert told(tmp_path, dockerfile, prose) == []
