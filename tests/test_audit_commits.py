"""`docgen audit`: the commit a README says a repository is checked out at (docgen/audit/commits.py),
against the commit the Dockerfile checks it out at.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import re

import pytest
from helpers import findings

PINNED = """\
FROM ubuntu:22.04
WORKDIR /src
RUN git clone https://github.com/example-org/segmenter.git && \\
    cd segmenter && \\
    git reset --hard 5c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f607 && \\
    pip install .
"""
OLD = "0badc0de11223344556677889900aabbccddeeff"
NOW = "5c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f607"


@pytest.mark.parametrize(
    ("readme", "line"),
    [
        (f"# Seg\n\n## Version\n\nSegmenter repository commit:\n\n```\n{OLD}\n```\n", 8),
        (f"# Seg\n\nThe image holds segmenter at commit `{OLD[:10]}`.\n", 3),
        (
            "# Seg\n\n```bash\ngit clone https://github.com/example-org/segmenter\ncd segmenter\n"
            f"git checkout {OLD[:12]}\n```\n",
            6,
        ),
        (f"# Seg\n\n```\npip install git+https://github.com/example-org/segmenter.git@{OLD}\n```\n", 4),
    ],
)
def test_a_commit_the_dockerfile_does_not_check_out(readme: str, line: int) -> None:
    found = findings(readme, {"Dockerfile": PINNED})
    assert len(found) == 1, found
    assert found[0].startswith(f"{line}: README says "), found
    assert re.search(r"[Ss]egmenter 0badc0de\w* but Dockerfile:3 says 5c0ffee1\Z", found[0]), found


@pytest.mark.parametrize(
    "readme",
    [
        f"# Seg\n\n## Version\n\nSegmenter repository commit:\n\n```\n{NOW}\n```\n",
        f"# Seg\n\nThe image holds segmenter at commit `{NOW[:7]}`.\n",  # a prefix agrees
        "# Seg\n\n```bash\ngit clone https://github.com/example-org/segmenter\n"
        f"git checkout {NOW[:9]}\n```\n",
        # another repository's commit
        f"# Seg\n\n```bash\ngit clone https://github.com/example-org/tracker\ngit checkout {OLD}\n```\n",
        # a hash under a label naming no repository the image pins
        f"# Seg\n\nRelease hash:\n\n```\n{OLD}\n```\n",
        # two hashes on one line: an old and a new one, no single claim
        f"# Seg\n\nsegmenter moved from commit {OLD[:8]} to {NOW[:8]}.\n",
    ],
)
def test_the_commit_checked_out_or_no_claim_about_it(readme: str) -> None:
    assert findings(readme, {"Dockerfile": PINNED}) == []


def test_a_branch_the_dockerfile_checks_out_says_nothing() -> None:
    branch = PINNED.replace(NOW, "main")
    readme = f"# Seg\n\nSegmenter repository commit:\n\n```\n{OLD}\n```\n"
    assert findings(readme, {"Dockerfile": branch}) == []


def test_a_family_agreeing_with_one_image_of_several() -> None:
    other = PINNED.replace(NOW, OLD)
    readme = f"# Seg\n\nThe image holds segmenter at commit `{OLD[:10]}`.\n"
    assert findings(readme, {"a/Dockerfile": PINNED, "b/Dockerfile": other}) == []
