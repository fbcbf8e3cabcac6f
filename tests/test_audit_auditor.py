"""`docgen.audit.auditor`: which pins a version claim is compared with.

- a base image named after a project (`example/trainkit:3.1.0_cu121-latest`) whose project a later step
  installs again (`git clone …/trainkit.git`, `pip install trainkit`): the tag is the base's stack
  (its torch, its CUDA), not the project's version, which is the clone's or the install's.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

BASE = "FROM example/trainkit:3.1.0_cu121-latest\n"
CLONE = "RUN git clone --branch {ref} --depth 1 https://example.com/acme/trainkit.git /tk\n"
CLONE_BRANCH = BASE + CLONE.format(ref="release/v0.9.0")
CLONE_TAG = BASE + CLONE.format(ref="v0.9.0")
PIP_PIN = BASE + "RUN pip install trainkit==0.9.0\n"
PIP_LOOSE = BASE + "RUN pip install -U trainkit\n"
ALONE = "FROM example/trainkit:0.9.0\nRUN pip install flask==3.0.3\n"

LISTED = """\
# Trainkit image

The image is based on `example/trainkit:3.1.0_cu121-latest` and includes:

- **Trainkit v{version}**: the training framework
"""


@pytest.mark.parametrize("dockerfile", [CLONE_BRANCH, CLONE_TAG, PIP_PIN, PIP_LOOSE])
def test_a_project_installed_over_a_base_named_after_it_is_not_the_tag_s_version(dockerfile: str) -> None:
    assert findings(LISTED.format(version="0.9.0"), {"Dockerfile": dockerfile}) == []


@pytest.mark.parametrize(
    ("dockerfile", "expected"),
    [
        (CLONE_TAG, "5: README says Trainkit v0.8.0 but Dockerfile:2 says v0.9.0"),
        (PIP_PIN, "5: README says Trainkit v0.8.0 but Dockerfile:2 says 0.9.0"),
    ],
)
def test_a_stale_version_of_the_project_is_compared_with_its_install(dockerfile: str, expected: str) -> None:
    assert findings(LISTED.format(version="0.8.0"), {"Dockerfile": dockerfile}) == [expected]


def test_a_base_named_after_the_project_still_gives_its_version_when_nothing_installs_it_again() -> None:
    assert findings(LISTED.format(version="0.8.0"), {"Dockerfile": ALONE}) == [
        "5: README says Trainkit v0.8.0 but Dockerfile:1 says 0.9.0"
    ]
    assert findings(LISTED.format(version="0.9.0"), {"Dockerfile": ALONE}) == []
