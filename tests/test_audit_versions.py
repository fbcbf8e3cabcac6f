"""`docgen.audit.versions`: the slip tests the audit rules share (`one_slip`, `differing`)."""

from __future__ import annotations

from docgen.audit.versions import differing, one_slip, same_default
from docgen.model import ArgDecl


def test_differing_gives_the_parts_between_the_common_start_and_end() -> None:
    assert differing("anaconda", "anaconda3") == ("", "3")
    assert differing("dokcer", "docker") == ("kc", "ck")
    assert differing("cudnn", "cuDNN") == ("dnn", "DNN")
    assert differing("same", "same") == ("", "")
    assert differing("aa", "aaa") == ("", "a")  # the common end is taken after the common start
    assert differing("", "x") == ("", "x")


def test_one_slip_is_one_letter_added_dropped_changed_or_two_neighbours_swapped() -> None:
    for a, b in (("docker", "dokcer"), ("docker", "docke"), ("docker", "dockerr"), ("docker", "dicker")):
        assert one_slip(a, b) and one_slip(b, a), (a, b)
    for a, b in (("docker", "docker"), ("docker", "dcoekr"), ("docker", "dock"), ("docker", "rekcod")):
        assert not one_slip(a, b), (a, b)


def _decl(name: str, default: str) -> ArgDecl:
    return ArgDecl(name, "global", None, 1, default, default, None, False, "", (), ())


def test_a_tag_default_that_adds_a_word_is_another_image() -> None:
    decl = _decl("CUDA_TAG", "12.4.1-devel-ubuntu22.04")
    assert not same_default("12.4.1-cudnn-devel-ubuntu22.04", [decl])  # cuDNN added: another image
    assert not same_default("12.4.1-runtime-ubuntu22.04", [decl])
    assert same_default("12.4.1-devel", [decl])  # the OS left out: a shorter name of the same tag
    assert same_default("12.4-devel-ubuntu22.04", [decl])  # a shorter release
    assert same_default("12.4.1", [decl])
    slim = _decl("PY", "3.12-slim-bookworm")
    assert same_default("3.12-slim", [slim])
    assert not same_default("3.12-alpine", [slim])
