"""`docgen.audit.root_vars`: a `cd` into a variable that is the repository's root (`cd $ROOT/docker`, the
README saying `$ROOT is the root directory of this git repo`; `cd $REPO_ROOT/docker`) is followed, so a
`-f` after it that names a Dockerfile the repository does not have is a finding; a `cd` into any other
variable (`cd $WORKDIR/docker`, a bare `$ROOT` the README does not define) still cannot be followed."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import gone, make_tree

from docgen.audit import audit
from docgen.audit.root_vars import from_root, root_variables
from docgen.pipeline import build_model

JETSON = "FROM nvcr.io/nvidia/tritonserver:24.08-py3-igpu\nRUN echo jetson\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$ROOT is the root directory of this git repo.", {"ROOT"}),
        ("where `${SRC}` is the top-level folder of the repository", {"SRC"}),
        ("- `$TOP`: the root of this repo", {"TOP"}),
        ("$BASE = base folder of your clone", {"BASE"}),
        ("`$CKPT` is the root of the model checkpoints", set()),  # not the repository
        ("$ROOT is where you keep the models", set()),
    ],
)
def test_root_variables(text: str, expected: set[str]) -> None:
    assert root_variables(text) == expected


@pytest.mark.parametrize(
    ("target", "defined", "expected"),
    [
        ("$ROOT/docker", {"ROOT"}, "docker"),
        ('"${ROOT}/docker/"', {"ROOT"}, "docker"),
        ("$ROOT", {"ROOT"}, ""),
        ("$REPO_ROOT/tools", set(), "tools"),
        ("${PROJECT_ROOT}", set(), ""),
        ("$ROOT/docker", set(), None),  # a bare ROOT the README does not define
        ("$WORKDIR/docker", {"ROOT"}, None),
        ("docker", {"ROOT"}, None),
        ("$ROOTS/docker", {"ROOT"}, None),
    ],
)
def test_from_root(target: str, defined: set[str], expected: str | None) -> None:
    assert from_root(target, frozenset(defined)) == expected


README = """\
# Images

{definition}

## Jetson

```
cd {cd}/docker
sudo docker build -t app:jetson -f Dockerfile_Jetson_Devel ..
```

## x86

```
cd {cd}/docker
sudo docker build -t app:x86 -f Dockerfile_triton_x86 ..
```
"""


def audit_tree(root: Path, definition: str, cd: str) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {"README.md": README.format(definition=definition, cd=cd), "docker/Dockerfile_Jetson_Devel": JETSON},
    )
    model = build_model(root / "docker/Dockerfile_Jetson_Devel", "docker/Dockerfile_Jetson_Devel")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", [model], {}, root)]


DEAD = [(16, gone("docker/Dockerfile_triton_x86", "docker/Dockerfile_Jetson_Devel"), "certain")]


@pytest.mark.parametrize(
    ("definition", "cd", "expected"),
    [
        # the README says what $ROOT is: the x86 Dockerfile it builds is not in the repository
        ("$ROOT is the root directory of this git repo.", "$ROOT", DEAD),
        ("Run the commands below from a checkout.", "$REPO_ROOT", DEAD),
        # a variable that may be any folder: the commands run somewhere docgen cannot tell
        ("Run the commands below from a checkout.", "$ROOT", []),
        ("$ROOT is the root directory of this git repo.", "$WORKDIR", []),
    ],
)
def test_a_cd_into_the_repositorys_root_variable_is_followed(
    tmp_path: Path, definition: str, cd: str, expected: list[tuple[int, str, str]]
) -> None:
    assert audit_tree(tmp_path, definition, cd) == expected
