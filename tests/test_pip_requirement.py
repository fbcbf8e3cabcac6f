"""docgen reads the common `name==version` pin without `packaging`; it must agree with `packaging`.

`docgen.sources.pip.requirement` matches plain pins and bare names with a strict regular expression
and hands everything else to `packaging.requirements.Requirement`. These tests compare it with the
`packaging` reading on generated and hand-picked requirement strings, valid and invalid.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.sources.pip import (
    packaging_file_name_version,
    packaging_requirement,
    packaging_version_range,
    requirement,
    sdist_name_version,
    version_range,
    wheel_name_version,
)

NAMES = [
    "torch",
    "Torch",
    "a",
    "A1",
    "flash_attn",
    "flash-attn",
    "zope.interface",
    "x-",
    "-x",
    "_x",
    "x_",
    "a..b",
]
VERSIONS = [
    "1",
    "2.7.0",
    "01.002",
    "1.0rc1",
    "1.0a2",
    "1.0b",
    "1.0.post1",
    "1.0.dev3",
    "1.0rc1.post2.dev3",
    "2.5.1+rocm6.2",
    "2.5.1+cu121",
    "1.0+Local",
    "1.0+local-1",
    "1!2.0",
    "v1.0",
    "1.0.*",
    "1.0-1",
    "1.0.0-rc1",
    "1..0",
    "1.",
    "",
    "x",
    "1.0_post1",
]
OPERATORS = ["==", "===", ">=", "~=", "!=", "<", "<=", ">", "= =", "=", " == ", "=>", "<>"]


CASES = [n + op + v for n, op, v in itertools.product(NAMES, OPERATORS, VERSIONS)] + [
    *NAMES,
    "torch[cuda]==2.1.0",
    "torch[cuda,dev]==2.1.0",
    "torch[cuda, dev]==2.1.0",
    "torch[]==2.1.0",
    "torch[-x]==2.1.0",
    "ray[default]",
    "ray[default]>=2.47",
    "transformers>=4.51,<4.53",
    "transformers>=4.51, <4.53",
    "x>=1,>=1.0",
    "x>=1.0,>=1",
    "x<2,<2",
    "x~=2",
    "x~=2.0,!=2.1",
    "x>=1,",
    "x,>=1",
    "torch==2.1.0; python_version>'3'",
    "torch @ https://x/t.whl",
    "torch==2.1,<3",
]


def test_the_fast_reading_agrees_with_packaging() -> None:
    differ = [t for t in CASES if requirement(t) != packaging_requirement(t)]
    assert differ == []
    assert sum(packaging_requirement(t) is not None for t in CASES) > 200  # many valid ones among them


def test_a_plain_pin_is_a_pin() -> None:
    assert requirement("torch==2.5.1+rocm6.2") == ("torch", None, "2.5.1+rocm6.2")
    assert requirement("numpy") == ("numpy", None, None)
    assert requirement("numpy==1.*") == ("numpy", None, None)
    assert requirement("numpy==") is None


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aZ09._-=+!*v~<>[];@ ", max_size=24))
def test_the_fast_reading_agrees_with_packaging_on_any_text(text: str) -> None:
    assert requirement(text) == packaging_requirement(text)


RANGES = [
    n + a + "," + b
    for n in ("x", "x[y]")
    for a in ("", ">=1", "~=1.0", "<2.0")
    for b in (">=1.0", "<2", "!=1.5", "~=1")
]


def test_the_fast_version_range_agrees_with_packaging() -> None:
    texts = [*CASES, *RANGES]
    assert [t for t in texts if version_range(t) != packaging_version_range(t)] == []
    assert version_range("transformers>=4.51,<4.53") == ">=4.51,<4.53"
    assert version_range("numpy<2,>=1.26") == ">=1.26,<2"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab09.,=!~<>[] ", max_size=20))
def test_the_fast_version_range_agrees_with_packaging_on_any_text(text: str) -> None:
    assert version_range(text) == packaging_version_range(text)


WHEELS = [
    "torch-2.5.1+rocm6.2-cp310-cp310-linux_x86_64.whl",
    "flash_attn-2.7.4.post1-cp312-cp312-manylinux_2_28_x86_64.whl",
    "Flash.Attn-2.7.4-1-py3-none-any.whl",
    "flash__attn-2.7.4-py3-none-any.whl",
    "x-1.0-py3-none-any.whl",
    "x-1.0-py3.py2-none-any.whl",
    "x-1.0-1abc-py3-none-any.whl",
    "x-1.0-abc-py3-none-any.whl",
    "x-1.0-3py-none-any.whl",
    "x-1.0-py3-none-.whl",
    "x-1.0-py3-none-any.zip",
    "x-v1.0-py3-none-any.whl",
    "x-1.0.0-rc1-py3-none-any.whl",
    "x-1.0+LOCAL-py3-none-any.whl",
    "x-1!1.0-py3-none-any.whl",
    "x_y-1.0-py3-none-any-extra.whl",
    "-1.0-py3-none-any.whl",
    "x-y-1.0-py3-none-any.whl",
]
SDISTS = [
    "flash_attn-2.7.4.tar.gz",
    "Flash.Attn-2.7.4.post1.zip",
    "x-y-1.0.tar.gz",
    "x-1.0.tar.bz2",
    "x-v1.0.tar.gz",
    "-1.0.tar.gz",
    "x-1.0-rc1.tar.gz",
    "x.tar.gz",
    "x-1.0+local.zip",
]


def test_the_fast_file_name_reading_agrees_with_packaging() -> None:
    assert [w for w in WHEELS if wheel_name_version(w) != packaging_file_name_version(w, True)] == []
    assert [s for s in SDISTS if sdist_name_version(s) != packaging_file_name_version(s, False)] == []
    assert wheel_name_version(WHEELS[0]) == ("torch", "2.5.1+rocm6.2")
    assert sdist_name_version("Flash.Attn-2.7.4.post1.zip") == ("flash-attn", "2.7.4.post1")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aZ09._-+!vpy", max_size=30), st.sampled_from([".whl", ".tar.gz", ".zip"]))
def test_the_fast_file_name_reading_agrees_with_packaging_on_any_name(stem: str, ext: str) -> None:
    name = stem + ext
    assert wheel_name_version(name) == packaging_file_name_version(name, True)
    assert sdist_name_version(name) == packaging_file_name_version(name, False)


def test_the_fast_file_name_reading_agrees_with_packaging_on_combined_parts() -> None:
    names = ["torch", "Flash.Attn", "a__b", "a_b", "x1", "_x"]
    builds = ["", "-1", "-1a", "-a"]
    tags = ["-cp310-cp310-linux_x86_64", "-py3.py2-none-any", "-3x-none-any", "-py3-none-", "-py3--any"]
    wheels = [n + "-" + v + b + t + ".whl" for n, v, b, t in itertools.product(names, VERSIONS, builds, tags)]
    assert [w for w in wheels if wheel_name_version(w) != packaging_file_name_version(w, True)] == []
    assert sum(packaging_file_name_version(w, True) is not None for w in wheels) > 200
    sdists = [n + "-" + v + e for n, v, e in itertools.product(names, VERSIONS, [".tar.gz", ".zip"])]
    assert [s for s in sdists if sdist_name_version(s) != packaging_file_name_version(s, False)] == []
