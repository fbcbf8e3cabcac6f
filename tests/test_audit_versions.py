"""`docgen.audit.versions`: the slip tests the audit rules share (`one_slip`, `differing`)."""

from __future__ import annotations

from docgen.audit.versions import differing, one_slip


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
