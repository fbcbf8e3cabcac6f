"""`docgen.audit.included_paths`: a path the README says the image has that nothing of a build on a plain
OS image puts there; silent for another base, a path the README mounts or makes, one a RUN names or
enters, one under a folder the image makes, and sentences about the reader's files or run-time output."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

BENCH = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y python3-pip git
WORKDIR /app
COPY serve.py /app/serve.py
RUN git clone https://github.com/acme/tools /opt/tools
CMD ["python3", "/app/serve.py"]
"""


def _findings(root: Path, readme: str, dockerfile: str = BENCH) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "serve.py": "print('up')\n"})
    found = audit(readme, "README.md", [build_model(root / "Dockerfile", "Dockerfile")], {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_paths_the_image_is_said_to_have_that_nothing_puts_there(tmp_path: Path) -> None:
    readme = (
        "# Bench image\n\n"
        "The image ships the benchmark scripts under `/opt/bench`.\n\n"  # planted
        "The example notebooks are in `/workspace/examples` inside the container.\n\n"  # planted
        "Run them from `/opt/bench` in the container once it is up.\n"  # (no claim of its own)
    )
    assert _findings(tmp_path, readme) == [
        "3: README says the image has /opt/bench, but Dockerfile puts nothing there (no COPY, ADD, WORKDIR "
        "or RUN makes or names it) and its base ubuntu:22.04 is a plain OS image (likely)",
        "5: README says the image has /workspace/examples, but Dockerfile puts nothing there (no COPY, ADD, "
        "WORKDIR or RUN makes or names it) and its base ubuntu:22.04 is a plain OS image (likely)",
    ]


def test_paths_the_build_or_the_readme_makes_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# Bench image\n\n"
        "The tools are in `/opt/tools/bin` in the image.\n\n"  # under a clone destination
        "The server script lives at `/app/serve.py` in the container.\n\n"  # copied there
        "Mount your data into the container with `-v $PWD:/data/in`; results are written to `/data/out` in "
        "the container.\n\n"
        "The image includes /workspace/notebooks once mounted: `docker run -v $PWD:/workspace bench`.\n\n"
        "The container has /srv/models available after `mkdir -p /srv/models`.\n\n"
        "The image has /usr/share/doc/python3 like any Ubuntu.\n"  # a system folder
    )
    assert _findings(tmp_path, readme) == []


def test_another_base_may_hold_anything(tmp_path: Path) -> None:
    dockerfile = "FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN pip install vllm==0.5.1\n"
    readme = "# Bench image\n\nThe example notebooks are in `/workspace/examples` inside the container.\n"
    assert _findings(tmp_path, readme, dockerfile) == []


def test_a_path_a_run_names_or_a_downloaded_script_may_make_is_no_claim(tmp_path: Path) -> None:
    named = BENCH + "RUN python3 -m pip download --dest /opt/wheels torch\n"
    readme = "# Bench image\n\nThe image ships the wheels in `/opt/wheels/cu121`.\n"
    assert _findings(tmp_path, readme, named) == []
    piped = BENCH + "RUN curl -fsSL https://example.org/install.sh | bash\n"
    readme = "# Bench image\n\nThe image ships the benchmark scripts under `/opt/bench`.\n"
    assert _findings(tmp_path, readme, piped) == []


def test_a_folder_a_package_makes_under_its_own_name_is_no_claim(tmp_path: Path) -> None:
    rocm = BENCH + "RUN apt-get install -y rocm-dev intel-oneapi-compiler-dpcpp-cpp\n"
    readme = (
        "# Bench image\n\nThe image ships ROCm under `/opt/rocm/bin`.\n\n"
        "The container has the oneAPI compilers in `/opt/intel/oneapi`.\n\n"
        "The image ships the benchmark scripts under `/opt/bench`.\n"  # planted: still a finding
    )
    assert [f.split(":")[0] for f in _findings(tmp_path, readme, rocm)] == ["7"]


def test_a_sentence_over_several_lines_is_told_at_the_line_of_its_path(tmp_path: Path) -> None:
    readme = (
        "# Bench image\n\n"
        "The scripts of the `bench` folder here are included in the image at\n"
        "path `/opt/suite/scripts/`, and get run by the container's entrypoint.\n"
    )
    assert [f.split(":")[0] for f in _findings(tmp_path, readme)] == ["4"]


def test_a_comment_naming_the_folder_does_not_put_it_there(tmp_path: Path) -> None:
    dockerfile = (
        "ARG BASE=quay.io/pypa/manylinux_2_28_x86_64:latest\nFROM ${BASE}\n"
        "# LLVM is deliberately not baked in: the build fetches it\nRUN yum install -y wget\n"
    )
    readme = (
        "# Builder image\n\n- License files are included in the image at `/opt/llvm/licenses/`\n"
        "- The interpreters are in the image at `/opt/python/cp312-cp312/bin`\n"  # manylinux's own
    )
    assert _findings(tmp_path, readme, dockerfile) == [
        "3: README says the image has /opt/llvm/licenses, but Dockerfile puts nothing there (no COPY, ADD, "
        "WORKDIR or RUN makes or names it) and its base quay.io/pypa/manylinux_2_28_x86_64:latest is a plain "
        "OS image (likely)"
    ]


def test_a_path_ending_a_sentence_is_told_without_its_full_stop(tmp_path: Path) -> None:
    # `/opt/bench.` and `/opt/bench` are one path, told once; the stop is no part of its name
    readme = (
        "# Bench image\n\nThe image ships the benchmark scripts under /opt/bench.\n\n"
        "The container also has the bench data in /opt/bench, next to them.\n"
    )
    assert _findings(tmp_path, readme) == [
        "3: README says the image has /opt/bench, but Dockerfile puts nothing there (no COPY, ADD, WORKDIR "
        "or RUN makes or names it) and its base ubuntu:22.04 is a plain OS image; also at line 5 (likely)",
    ]


def test_a_path_with_two_leading_slashes_ends_the_climb() -> None:
    """`posixpath.dirname("//")` is `//`: looking for `//srv/x` among the folders an image makes stops
    there (a loop that waited for `/` never ended)."""
    from docgen.audit.image_paths import Image
    from docgen.audit.included_paths import holds_path

    image = Image(path="Dockerfile", file="Dockerfile", made={"/opt/app": 2})
    assert not holds_path(image, "//srv/x")
    assert holds_path(image, "/opt/app/bin")


def test_a_link_into_the_repository_is_no_path_of_the_image(tmp_path: Path) -> None:
    # GitHub reads a link target starting with `/` from the repository's top:
    # `[Dockerfile](/docker/Dockerfile)` in a sentence about the image names a file of the checkout,
    # not one of the image
    readme = (
        "# Dev box image\n\n"
        "The [Dockerfile](/docker/Dockerfile) in this folder defines the dev box image, which includes\n"
        "the build tools of Go and C++.\n\n"
        "The image ships the [helper scripts](/tools/dev/) for the container.\n\n"
        "The image ships the benchmark scripts under `/opt/bench`.\n"  # planted: still told
    )
    found = _findings(tmp_path, readme)
    assert [f.split(":")[0] for f in found] == ["8"]
    assert "/opt/bench" in found[0]


def test_a_path_of_the_checkout_named_from_its_top_is_no_claim(tmp_path: Path) -> None:
    # written bare, a path that is the repository's own file (from the folder holding .git) is one of it
    make_tree(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "workspace/dev/run.sh": "echo\n"})
    readme = "# Dev box\n\nThe image comes with /workspace/dev/run.sh for the container's users.\n"
    assert _findings(tmp_path, readme) == []
    # the same sentence without that file in the checkout is told
    readme = "# Dev box\n\nThe image comes with /workspace/lab/run.sh for the container's users.\n"
    assert [f.split(":")[0] for f in _findings(tmp_path / "b", readme)] == ["3"]
