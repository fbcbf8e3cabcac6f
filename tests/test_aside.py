"""`docgen.audit.aside`: the words that make text about another tool, the host or another component, and the
look-alikes that stay claims about the image."""

from __future__ import annotations

import pytest

from docgen.audit.aside import (
    aside_lines,
    catalogue_lines,
    is_host_heading,
    is_host_intro,
    not_current_spans,
    other_tool_args,
    release_list_lines,
    version_owner,
    without_container,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Required CMake build arguments are:", True),
        ("Options passed to make:", True),
        ("Arguments to `make`:", True),
        ("./configure options:", True),
        ("Pass -DGPU_ARCHS=80 to select the targets", True),
        # verbs and Docker's own words
        ("You can configure build arguments:", False),
        ("The following build arguments to make the build faster:", False),
        ("You can make build args optional", False),
        ("Docker build arguments (also used by CMake):", False),
        ("CMake options, passed with --build-arg CMAKE_ARGS:", False),
    ],
)
def test_other_tool_args(text: str, expected: bool) -> None:
    assert other_tool_args(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(Optional - if not using TensorRT container) Specify the build path", True),
        ("Building without Docker", True),
        ("Bare-metal installation", True),
        ("Install on your machine", True),
        ("System requirements", True),
        # the container, or a plain heading that may list the image's versions
        ("Running without Docker Compose", False),
        ("If not using the prebuilt image", False),
        ("Build the image on your machine", False),
        ("Requirements", False),
    ],
)
def test_is_host_heading(text: str, expected: bool) -> None:
    assert is_host_heading(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Before you start, ensure that your environment meets the following requirements:", True),
        ("Make sure your host has:", True),
        ("My system is currently running on the following OS & drivers:", True),
        ("My system image ships:", False),  # the image, not the machine
        ("Make sure your host has", False),  # no list follows
        ("Build the image on your machine with these build args:", False),
        # the reader's desktop system: the image is a Linux one
        ("For GPU support on Windows, you may need to:", True),
        ("On macOS, install:", True),
        ("Windows users need:", True),
        ("Under WSL2, set up:", True),
        ("On Windows containers, the image has:", False),  # an image, named
        ("For a Windows base, the Dockerfile installs:", False),
        ("Windows line endings are converted for:", False),  # not the reader's system
    ],
)
def test_is_host_intro(text: str, expected: bool) -> None:
    assert is_host_intro(text) is expected


def test_aside_lines_end_at_the_next_heading_of_the_same_level() -> None:
    lines = [
        "## Native build",
        "CUDA 12.9",
        "### Windows",
        "x",
        "## Image",
        "CUDA 13.0",
        "1. #### Without Docker",
        "y",
    ]
    headings = {1: (2, "Native build"), 3: (3, "Windows"), 5: (2, "Image")}
    assert aside_lines(lines, headings) == {1, 2, 3, 4, 7, 8}


RELEASE_LINES = [
    "## Images",
    "### Image 1.2",
    "base: 1.2-a",
    "base: 1.2-b",
    "### Image 1.3",
    "base: 1.3-a",
    "### Image 1.4.0",
    "base: 1.4.0-a",
]
RELEASE_HEADINGS = {1: (2, "Images"), 2: (3, "Image 1.2"), 5: (3, "Image 1.3"), 7: (3, "Image 1.4.0")}


def test_release_list_lines_sets_aside_past_releases_not_the_current_one() -> None:
    # 1.4 is built now (`1.4.0`): its section stays; the two past ones go, two entries or one
    assert release_list_lines(RELEASE_LINES, RELEASE_HEADINGS, {"1.4.0", "22.04"}) == {2, 3, 4, 5, 6}
    # nothing known of the current versions: nothing tells the past from the present
    assert release_list_lines(RELEASE_LINES, RELEASE_HEADINGS) == set()
    # one versioned section alone is no list
    one = {1: (2, "Images"), 2: (3, "Image 1.2"), 5: (3, "Usage")}
    assert release_list_lines(RELEASE_LINES, one, {"1.4.0"}) == set()


@pytest.mark.parametrize(
    ("before", "between", "expected"),
    [
        ("The default CUDA version used by ", " is ", "CUDA"),
        ("The version of CUDA targeted by ", " is ", "CUDA"),
        ("The default CUDA version used by ", " ", None),  # `… used by CMake 3.27`: CMake's
        ("The version of ", " is ", None),
    ],
)
def test_version_owner(before: str, between: str, expected: str | None) -> None:
    assert version_owner(before, between) == expected


CATALOGUE_LINES = [
    "## Images",  # 1
    "",
    "### Runner 1.2.0",  # 3
    "",
    "- `acme/runner:1.2.0-a`",  # 5
    "    - Runner 1.2.0",
    "",
    "- `acme/runner:1.1.0-a`",  # 8
    "    - Runner 1.1.0",
    "- Runner 1.3.0 is next",  # 10: an item of its own, no entry's
    "",
    "- `1.2.0-a` → Runner 1.2.0",  # 12
]
CATALOGUE_HEADINGS = {1: (2, "Images"), 3: (3, "Runner 1.2.0")}


def test_catalogue_lines_are_the_pushed_entries_their_heading_and_tag_items() -> None:
    # the heading over them holds an item of its own (line 10): it stays
    assert catalogue_lines(CATALOGUE_LINES, CATALOGUE_HEADINGS, {"0.9.0"}) == {5, 6, 8, 9, 12}
    # the entry whose tag names a version built now stays, and so does the item naming its tag
    assert catalogue_lines(CATALOGUE_LINES, CATALOGUE_HEADINGS, {"1.2.0"}) == {8, 9}
    # without that item the heading names the release of its entries: set aside too
    alone = CATALOGUE_LINES[:9] + ["", "", "- `1.2.0-a` → Runner 1.2.0"]
    assert catalogue_lines(alone, CATALOGUE_HEADINGS, {"0.9.0"}) == {3, 5, 6, 8, 9, 12}
    # one entry of a repository is no catalogue
    assert catalogue_lines(CATALOGUE_LINES[:7], CATALOGUE_HEADINGS, {"0.9.0"}) == set()


@pytest.mark.parametrize(
    ("sentence", "kept", "gone"),
    [
        # a drop that takes the reader somewhere removes nothing
        ("You will be dropped into a shell inside the container's `/build` directory.", "`/build`", None),
        ("Users are dropped in the container at `/srv/app` with Python 3.12.", "Python 3.12", None),
        ("The entrypoint drops you into bash with CUDA 12.4 on the path.", "CUDA 12.4", None),
        # a drop that removes still sets its object aside
        ("The image drops CUDA 11.8 and installs CUDA 12.4.", "CUDA 12.4", "CUDA 11.8"),
        ("Support for Python 3.8 was dropped in the 2.1 release.", None, "Python 3.8"),
        ("This release dropped PyTorch 1.13 in the container image.", None, "PyTorch 1.13"),
    ],
)
def test_not_current_spans_read_a_drop_into_a_shell_as_no_removal(
    sentence: str, kept: str | None, gone: str | None
) -> None:
    spans = not_current_spans(sentence)

    def blanked(word: str) -> bool:
        start = sentence.index(word)
        return any(a <= start and start + len(word) <= b for a, b in spans)

    if kept is not None:
        assert not blanked(kept)
    if gone is not None:
        assert blanked(gone)


@pytest.mark.parametrize(
    ("sentence", "host"),
    [
        # a client run on the host, its tested versions the host's (a simulator's README)
        ("then run the carla client without docker (tested with ubuntu22.04 and python3.10)", True),
        # a native build of a library's README, and work outside the container
        ("For a native build, install CMake 3.28 and GCC 13.", True),
        ("Outside the container, Python 3.12 works too.", True),
        # the image named besides: its versions are the image's
        ("Unlike a native install, the image ships CUDA 12.1.", False),
        ("Run without Docker Desktop: the container has Python 3.11.", False),
        # no word of working without the container
        ("The client is tested with python3.10.", False),
    ],
)
def test_a_sentence_about_work_done_without_the_container(sentence: str, host: bool) -> None:
    assert without_container(sentence) is host
    assert (not_current_spans(sentence) == [(0, len(sentence))]) is host
