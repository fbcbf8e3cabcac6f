"""`docgen.audit.versions`: the slip tests the audit rules share (`one_slip`, `differing`)."""

from __future__ import annotations

from docgen.audit import audit
from docgen.audit.versions import differing, one_slip, same_default
from docgen.dockerfile import parse_dockerfile
from docgen.model import ArgDecl
from docgen.pipeline import model_of


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


def test_a_default_in_another_capitalisation_is_the_same_value() -> None:
    # a GPU app's build args: a branch `Master` in the README's table for `ARG HIP_BRANCH="master"`
    branch = _decl("HIP_BRANCH", '"master"')
    assert same_default("Master", [branch])
    assert not same_default("main", [branch])  # another branch
    # a CMake switch written `ON` for `ARG WITH_CUDA=on`, a build type `release` for `Release`
    assert same_default("ON", [_decl("WITH_CUDA", "on")])
    assert same_default("release", [_decl("BUILD_TYPE", "Release")])
    assert not same_default("Debug", [_decl("BUILD_TYPE", "Release")])


def test_a_table_default_capitalised_is_no_finding() -> None:
    model = model_of(parse_dockerfile('FROM ubuntu:22.04\nARG APP_BRANCH="8.1.0"\nARG HIP_BRANCH="master"\n'))
    readme = "# App\n\n| Build arg | Default |\n|---|---|\n| `APP_BRANCH` | `{}` |\n| `HIP_BRANCH` | `{}` |\n"
    assert [d.message for d in audit(readme.format("8.1.0", "Master"), "README.md", model)] == []
    assert [d.message for d in audit(readme.format("8.0.0", "Master"), "README.md", model)] == [
        "README says APP_BRANCH defaults to 8.0.0 but Dockerfile:2 says 8.1.0"
    ]
    assert [d.message for d in audit(readme.format("8.1.0", "develop"), "README.md", model)] == [
        "README says HIP_BRANCH defaults to develop but Dockerfile:3 says master"
    ]
