"""`docgen.audit.dropped`: a build stage a sentence about the build's stages names in code (`` a lighter
`runtime` image for the final release ``) whose `FROM … AS runtime` is commented out is a finding, and so
is the component the README's title says the image is (`# Docker Quantix for clusters`) that only
commented-out instructions name; a live stage, a stage the sentence does not tie to the build, a title
word a live line names (or that no line names), and a word after `for` are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

STAGED = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS builder
RUN apt-get update && apt-get install -y cmake
{runtime}
CMD ["bash"]
"""


def found(root: Path, readme: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "commented" in d.message
    ]


def stage(line: int, name: str, at: int) -> str:
    return (
        f"{line}: README describes a build stage {name}, but Dockerfile:{at} has it only commented out "
        "(the build has no such stage) (certain)"
    )


@pytest.mark.parametrize(
    ("sentence", "runtime", "expected"),
    [
        (
            "- **small:** a multi-stage build compiles in `builder` and ships a lighter `runtime` image.",
            "# FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS runtime",
            [stage(3, "runtime", 3)],
        ),
        (
            "The final image is the `slim` stage.",
            "#FROM debian:12-slim as slim",
            [stage(3, "slim", 3)],
        ),
        # the stage is there
        (
            "A multi-stage build ships a lighter `runtime` image.",
            "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS runtime",
            [],
        ),
        # not a sentence about the build's stages
        (
            "Set `runtime` to `nvidia` in daemon.json.",
            "# FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS runtime",
            [],
        ),
        # no stage of that name, live or not: another rule's business
        ("A multi-stage build ships a lighter `runtime` image.", "", []),
    ],
)
def test_a_build_stage_the_prose_describes(
    tmp_path: Path, sentence: str, runtime: str, expected: list[str]
) -> None:
    assert found(tmp_path, f"# Tool\n\n{sentence}\n", STAGED.format(runtime=runtime)) == expected


HPC = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y openmpi-bin
ENV APP_DIR=/opt/run
{lines}
CMD ["/bin/bash"]
"""


def title(word: str, at: int) -> str:
    return (
        f"1: README's title says the image is {word}, but Dockerfile:{at} names it only in a commented-out "
        "instruction (the image does not install it) (likely)"
    )


@pytest.mark.parametrize(
    ("heading", "lines", "expected"),
    [
        ("# Docker Quantix for clusters", '#CMD "${QUANTIX_DIR}/quantix.bat" 64', [title("Quantix", 4)]),
        ("# Quantix image", "#RUN curl -L https://example.org/quantix.tgz | tar xz", [title("Quantix", 4)]),
        ("# docker-quantix", '#ENTRYPOINT ["quantix"]', [title("quantix", 4)]),
        # a live line installs it
        ("# Docker Quantix for clusters", "RUN apt-get install -y quantix\n#CMD quantix run", []),
        # named in no line: the project's own name
        ("# Docker Quantix for clusters", "", []),
        # a comment that is no instruction
        ("# Docker Quantix for clusters", "# Thanks to the Quantix team", []),
        # after `for`: where it runs, not what it is
        ("# Docker MPI for Quantix", '#CMD "${QUANTIX_DIR}/quantix.bat"', []),
        # a first heading that is a step to take, not the image's name
        ("# COPY samples to workdir", "#RUN cp /opt/work/samples.yaml /opt/data/", []),
        ("# Install Quantix", '#CMD "${QUANTIX_DIR}/quantix.bat"', []),
        ("# How to run Quantix", '#CMD "${QUANTIX_DIR}/quantix.bat"', []),
        # a title that is a section's name: a comment saying `installation` is no component (a Jetson
        # build page titled `# installation`; a ROCm page titled `# Usage notes`)
        ("# installation", '#RUN echo "previous OpenCV installation not found"', []),
        ("# Usage notes", "#RUN python3 -m pip install notes usage", []),
        ("# Quantix installation", '#CMD "${QUANTIX_DIR}/quantix.bat"', [title("Quantix", 4)]),
        # a title word that only looks like a step's start is still read
        ("# Runtime Quantix image", '#CMD "${QUANTIX_DIR}/quantix.bat"', [title("Quantix", 4)]),
    ],
)
def test_the_component_a_title_names(tmp_path: Path, heading: str, lines: str, expected: list[str]) -> None:
    assert found(tmp_path, f"{heading}\n\nAn HPC base.\n", HPC.format(lines=lines)) == expected


def test_a_copied_file_naming_it_may_install_it(tmp_path: Path) -> None:
    dockerfile = HPC.format(lines='COPY setup.sh /setup.sh\nRUN /setup.sh\n#CMD "${QUANTIX_DIR}/quantix.bat"')
    readme = "# Docker Quantix for clusters\n\nAn HPC base.\n"
    assert found(tmp_path, readme, dockerfile, {"setup.sh": "install quantix\n"}) == []


@pytest.mark.parametrize(
    ("copy", "ignore", "expected"),
    [
        ("COPY conf/*.cfg /etc/solver/", "", []),  # a glob: the files it matches are read
        ("COPY /conf/site.cfg /etc/solver/", "", []),  # `/conf` is the context's `conf`
        # what the `.dockerignore` leaves out is not in the image: it brings nothing
        ("COPY conf/*.cfg /etc/solver/", "conf/site.cfg\n", [title("Quantix", 5)]),
        ("COPY conf/other.cfg /etc/solver/", "", [title("Quantix", 5)]),  # a file that does not name it
    ],
)
def test_the_copied_files_read_as_the_build_copies_them(
    tmp_path: Path, copy: str, ignore: str, expected: list[str]
) -> None:
    dockerfile = HPC.format(lines=f'{copy}\n#CMD "${{QUANTIX_DIR}}/quantix.bat"')
    files = {"conf/site.cfg": "solver = quantix\n", "conf/other.cfg": "solver = none\n"}
    if ignore:
        files[".dockerignore"] = ignore
    readme = "# Docker Quantix for clusters\n\nAn HPC base.\n"
    assert found(tmp_path, readme, dockerfile, files) == expected


CRYO = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git cmake build-essential libfftw3-dev
RUN git clone https://github.com/example/relic.git /opt/relic && cd /opt/relic && cmake . && make -j8
ENV PATH=/opt/relic/bin:$PATH
"""
BODY = "\n\nDocker image to run tools for cryo-EM.\n\n```\ndocker build . -t lab/cryo\n```\n"


def unnamed(root: Path, readme: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "title says" in d.message
    ]


@pytest.mark.parametrize(
    "title", ["# Tomoview Container", "### Tomoview Docker Setup", "# Docker image for Tomoview"]
)
def test_a_title_naming_what_nothing_of_the_build_names(tmp_path: Path, title: str) -> None:
    assert unnamed(tmp_path, title + BODY, CRYO) == [
        "1: README's title says the image is Tomoview, but nothing of Dockerfile, the files it copies or the "
        "project names Tomoview (the title may be left from another image) (likely)"
    ]


@pytest.mark.parametrize(
    ("title", "dockerfile", "extra"),
    [
        ("# Relic Container", CRYO, {}),  # the build installs it
        ("# RELIC Container", CRYO, {}),  # in any case
        ("# Tomoview Container", CRYO + "# Tomoview comes with the next release\n", {}),  # a comment names it
        ("# Tomoview Container", CRYO, {"tomoview.cfg": "x=1\n"}),  # a file of the project is named after it
        ("# Tomoview Container", CRYO, {"run.sh": "tomoview --gpu\n"}),  # a file of the project names it
        ("# Tomoview Container", CRYO + "COPY . /src\n", {}),  # it copies the project: its own code
        ("# Tomoview Container", CRYO + "COPY setup.sh /tmp/\nRUN bash /tmp/setup.sh\n", {}),  # unread
        ("# Custom Container", CRYO, {}),  # no name
        ("## cuda-build Dockerfile", CRYO, {}),  # a name of words that name no component
        ("# Tomoview and Relic Container", CRYO, {}),  # not one name
        ("# Tomoview", CRYO, {}),  # not said to be the image
    ],
)
def test_titles_the_project_names_or_that_name_no_image(
    tmp_path: Path, title: str, dockerfile: str, extra: dict[str, str]
) -> None:
    assert unnamed(tmp_path, title + BODY, dockerfile, extra) == []


def test_a_title_the_readme_names_again(tmp_path: Path) -> None:
    readme = "# Tomoview Container" + BODY + "\nTomoview is our lab's pipeline.\n"
    assert unnamed(tmp_path, readme, CRYO) == []
