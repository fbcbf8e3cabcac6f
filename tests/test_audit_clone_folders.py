"""`docgen audit`: a `cd` into the folder a `git clone` does not make (docgen/audit/clone_folders.py):
`git clone …/app.git` then `cd app.git`, while git makes `app`.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM python:3.12-slim\nCOPY . /srv/kiln\nCMD ["python", "/srv/kiln/serve.py"]\n'
WRONG = "README cds into {0}, but `git clone …/kiln-box.git` makes the folder kiln-box (did you mean cd {1}?)"


def _audited(tmp_path: Path, readme: str, extra: dict[str, str] | None = None) -> list[str]:
    files = {"Dockerfile": DOCKERFILE, "serve.py": "print('kiln')\n", **(extra or {})}
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "clone" in d.message
    ]


def _readme(block: str) -> str:
    return f"# Kiln box\n\n## Get it\n\n```bash\n{block}\n```\n"


def test_cd_into_the_address_with_its_git(tmp_path: Path) -> None:
    readme = _readme(
        "git clone https://github.com/rena/kiln-box.git\ncd kiln-box.git\ndocker build -t kiln ."
    )
    assert _audited(tmp_path, readme) == [f"7: {WRONG.format('kiln-box.git', 'kiln-box')} (certain)"]


def test_on_one_line_and_into_a_subfolder(tmp_path: Path) -> None:
    readme = _readme("git clone --depth 1 git@github.com:rena/kiln-box.git && cd kiln-box.git/docker")
    assert _audited(tmp_path, readme) == [
        f"6: {WRONG.format('kiln-box.git/docker', 'kiln-box/docker')} (certain)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "git clone https://github.com/rena/kiln-box.git kiln-box.git\ncd kiln-box.git",  # folder given
        "git clone https://github.com/rena/kiln-box.git box\ncd box",
        "git clone https://github.com/rena/kiln-box.git\ncd kiln-box",  # the folder git makes
        "git clone --bare https://github.com/rena/kiln-box.git\ncd kiln-box.git",  # bare keeps .git
        "git clone --mirror https://github.com/rena/kiln-box.git && cd kiln-box.git",
        "git clone https://github.com/rena/kiln-box.git\nmv kiln-box kiln-box.git\ncd kiln-box.git",
        "cd kiln-box.git\ngit clone https://github.com/rena/kiln-box.git",  # cd before the clone
        "git clone https://github.com/rena/kiln-box\ncd kiln-box.git",  # no .git in the address
    ],
)
def test_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert _audited(tmp_path, _readme(block)) == []


def test_a_folder_of_that_name_in_the_repository(tmp_path: Path) -> None:
    readme = _readme("git clone https://github.com/rena/kiln-box.git\ncd kiln-box.git")
    assert _audited(tmp_path, readme, {"kiln-box.git/README": "mirror\n"}) == []
