"""docgen reads the common `name==version` pin without `packaging`; it must agree with `packaging`.

`docgen.sources.pip.requirement` matches plain pins and bare names with a strict regular expression
and hands everything else to `packaging.requirements.Requirement`. These tests compare it with the
`packaging` reading on generated and hand-picked requirement strings, valid and invalid.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.sources.pip import packaging_requirement, packaging_version_range, requirement, version_range

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


RANGES = [n + a + "," + b for n in ("x", "x[y]") for a in ("", ">=1", "~=1.0", "<2.0") for b in (">=1.0", "<2", "!=1.5", "~=1")]


def test_the_fast_version_range_agrees_with_packaging() -> None:
    texts = [*CASES, *RANGES]
    assert [t for t in texts if version_range(t) != packaging_version_range(t)] == []
    assert version_range("transformers>=4.51,<4.53") == ">=4.51,<4.53"
    assert version_range("numpy<2,>=1.26") == ">=1.26,<2"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab09.,=!~<>[] ", max_size=20))
def test_the_fast_version_range_agrees_with_packaging_on_any_text(text: str) -> None:
    assert version_range(text) == packaging_version_range(text)
