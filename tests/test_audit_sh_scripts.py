"""`docgen audit`: a bash script the README runs with `sh` (docgen/audit/sh_scripts.py): `sh build.sh`
where build.sh starts `#!/bin/bash` and uses bash-only syntax, which dash rejects.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.sh_scripts import bash_only

DOCKERFILE = 'FROM python:3.12-slim\nCOPY app.py /srv/app.py\nCMD ["python", "/srv/app.py"]\n'
PIPED = (
    "#!/bin/bash -e\n# build the kiln image\nTAG=0.3\ndocker build -t kiln:$TAG . \\\n  |& tee build.log\n"
)


def _audited(tmp_path: Path, command: str, script: str) -> list[str]:
    readme = f"# Kiln\n\n## Build\n\n```bash\n{command}\n```\n"
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "app.py": "print(1)\n", "make_kiln.sh": script})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if " with sh" in d.message
    ]


def test_a_bash_script_run_with_sh(tmp_path: Path) -> None:
    assert _audited(tmp_path, "sh make_kiln.sh --no-cache", PIPED) == [
        "6: README runs make_kiln.sh with sh, but it is a bash script (#!/bin/bash) using |& (its line 5), "
        "a syntax error where sh is dash: run it with bash or ./make_kiln.sh (likely)"
    ]


@pytest.mark.parametrize(
    ("script", "construct"),
    [
        ("#!/usr/bin/env bash\nif [[ -n $1 ]]; then echo hi; fi\n", "[["),
        ("#!/bin/bash\nGPUS=(0 1)\necho ${GPUS[0]}\n", "an array (=( … ))"),
        ("#!/bin/bash\nsource ./env.sh\n", "source"),
        ("#!/bin/bash\nfunction go {\n  echo go\n}\n", "function"),
        ("#!/bin/bash\nprintf $'a\\tb'\n", "$'…'"),
        ('#!/bin/bash\nread -r a b <<< "$LINE"\n', "<<<"),
    ],
)
def test_each_bash_only_construct(script: str, construct: str) -> None:
    found = bash_only(script)
    assert found is not None and found[1] == construct


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("bash make_kiln.sh", PIPED),  # run with bash
        ("./make_kiln.sh", PIPED),  # its own #! line
        ("sh make_kiln.sh", PIPED.replace("#!/bin/bash -e", "#!/bin/sh")),  # a sh script
        (
            "sh make_kiln.sh",
            "#!/bin/bash\n# use |& and [[ ]] later\necho 'a |& b [[ x ]]'\n",
        ),  # comment, string
        ("sh make_kiln.sh", "#!/bin/bash\ncat <<'EOF' > run.sh\nsource env.sh\nA=(1 2)\nEOF\necho ok\n"),
        ("sh make_kiln.sh", "#!/bin/bash\nX=$(id -u)\ndocker build -t kiln . 2>&1 | tee log\n"),  # portable
        ("sh missing.sh", PIPED),  # not in the repository
        ("docker run kiln sh make_kiln.sh", PIPED),  # run inside the container
    ],
)
def test_traps_stay_silent(tmp_path: Path, command: str, script: str) -> None:
    assert _audited(tmp_path, command, script) == []


def test_quoted_strings_are_taken_out_in_one_pass() -> None:
    from docgen.audit.sh_scripts import unquoted

    assert unquoted("""echo "a [[ b" 'c |& d' x""") == "echo '' '' x"
    assert unquoted('echo "a \\" [[ b" ok') == "echo '' ok"  # an escaped quote does not close it
    # a quote not closed on its line keeps the rest as written (many of them: still one pass)
    assert unquoted("echo 'open [[ x") == "echo 'open [[ x"
    assert unquoted('x"' * 3) == 'x"x"x"'.replace('"x"', "''", 1)


def test_a_script_that_is_a_link_out_of_the_repository_is_not_read(tmp_path: Path) -> None:
    # the same bash script, reached through a link leading out of the repository: docgen reads nothing
    # outside the project, so it says nothing of it
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "make_kiln.sh").write_text(PIPED)
    project = tmp_path / "project"
    readme = "# Kiln\n\n## Build\n\n```bash\nsh make_kiln.sh --no-cache\n```\n"
    make_tree(project, {".git/HEAD": "ref: main\n", "Dockerfile": DOCKERFILE, "app.py": "print(1)\n"})
    (project / "make_kiln.sh").symlink_to(tmp_path / "elsewhere" / "make_kiln.sh")
    models = [build_model(project / "Dockerfile", "Dockerfile")]
    assert [d for d in audit(readme, "README.md", models, {}, project) if " with sh" in d.message] == []
    # the trap: a link inside the repository is read
    (project / "make_kiln.sh").unlink()
    (project / "tools").mkdir()
    (project / "tools" / "kiln.sh").write_text(PIPED)
    (project / "make_kiln.sh").symlink_to(project / "tools" / "kiln.sh")
    assert len([d for d in audit(readme, "README.md", models, {}, project) if " with sh" in d.message]) == 1
