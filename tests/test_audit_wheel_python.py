"""`docgen.audit.auditor` reads the Python release a Dockerfile's wheels fix (`sources.pip.wheel_python`):
a wheel tagged `cp312-cp312` installs only on Python 3.12, so a README saying the image runs another
Python is stale. Wheels that fit several releases (`py3-none-any`, `cp39-abi3`) and wheels naming two
releases tell nothing.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.sources.pip import wheel_python

WHEELS = """\
FROM example/trainer-base:20260301
RUN wget -q https://example.org/dl/fused_ops-1.4.2-cp312-cp312-linux_x86_64.whl
RUN pip install ./fused_ops-1.4.2-cp312-cp312-linux_x86_64.whl \\
    https://example.org/dl/attn_kernels-0.9.0-cp312-cp312-manylinux_2_28_x86_64.whl
"""

TABLE = """\
| Component | Version |
|-----------|---------|
| Python    | `{}`    |
"""


@pytest.mark.parametrize(
    ("filename", "release"),
    [
        ("fused_ops-1.4.2-cp312-cp312-linux_x86_64.whl", "3.12"),
        ("torch-2.5.1+rocm6.2-cp310-cp310-linux_x86_64.whl", "3.10"),
        ("old-1.0-cp37-cp37m-manylinux1_x86_64.whl", "3.7"),
        ("ft-1.0-cp313-cp313t-linux_x86_64.whl", "3.13"),
        ("pure-1.0-py3-none-any.whl", None),
        ("stable-1.0-cp39-abi3-manylinux_2_17_x86_64.whl", None),
        ("two-1.0-cp311.cp312-cp311.cp312-linux_x86_64.whl", None),
        ("other-1.0-pp310-pypy310_pp73-linux_x86_64.whl", None),
    ],
)
def test_the_python_a_wheel_file_name_fixes(filename: str, release: str | None) -> None:
    assert wheel_python(filename) == release


def test_a_python_the_wheels_cannot_install_on() -> None:
    assert findings(TABLE.format("3.11.x"), {"Dockerfile": WHEELS}) == [
        "3: README says Python 3.11.x but Dockerfile:3 says 3.12 (cp312 wheels)"
    ]


@pytest.mark.parametrize("said", ["3.12", "3.12.x", "3.12.9"])
def test_the_python_the_wheels_install_on(said: str) -> None:
    assert findings(TABLE.format(said), {"Dockerfile": WHEELS}) == []


def test_wheels_of_two_pythons_fix_none() -> None:
    mixed = WHEELS.replace("attn_kernels-0.9.0-cp312-cp312", "attn_kernels-0.9.0-cp311-cp311")
    assert findings(TABLE.format("3.11.x"), {"Dockerfile": mixed}) == []


def test_a_wheel_only_downloaded_fixes_nothing() -> None:
    downloaded = "FROM example/trainer-base:20260301\nRUN wget -q https://example.org/x-1.0-cp312-cp312-linux_x86_64.whl\n"
    assert findings(TABLE.format("3.11.x"), {"Dockerfile": downloaded}) == []


def test_a_family_where_only_one_image_has_such_wheels() -> None:
    """`The default image runs Python 3.11` in a README about two images: the wheels of the other one
    say nothing of the default image."""
    plain = "FROM example/trainer-base:20260301\nRUN pip install flask==3.0.3\n"
    readme = "The default image is built on Python 3.11.\n"
    assert findings(readme, {"Dockerfile": plain, "Dockerfile.kernels": WHEELS}) == []
    assert findings(readme, {"Dockerfile": WHEELS}) == [
        "1: README says Python 3.11 but Dockerfile:3 says 3.12 (cp312 wheels)"
    ]
