"""`docgen.audit.piped_scripts`: a script of the README's own repository that the README pipes into a
shell from its GitHub address (`curl … | bash`, `bash <(curl …)`) while it reads a file beside itself
through the folder it takes from its own path (`${BASH_SOURCE[0]}`, `$0`) is a finding; a script that
downloads that file, a name that is no file beside it, an address of another repository or ref, a run
from a clone and a commented line are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

INSTALL = """\
#!/usr/bin/env bash
set -euo pipefail
TARGET_DIR="$HOME/.local/bin"
mkdir -p "$TARGET_DIR"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# cp "$SCRIPT_DIR/old-tool" "$TARGET_DIR/"
cp "$SCRIPT_DIR/mkproj" "$TARGET_DIR/mkproj"
echo "installed"
"""
INSTALL_README = """\
# proj-devcontainer

Install the helper in one command:

```bash
curl -fsSL https://raw.githubusercontent.com/ann/proj-devcontainer/main/scripts/install.sh | bash
```

Or from a clone:

```bash
git clone https://github.com/ann/proj-devcontainer.git && cd proj-devcontainer
bash scripts/install.sh
```
"""
BOOTSTRAP = """\
#!/bin/sh
HERE=$(dirname "$0")
. "$HERE/common.sh"
setup_toolchain > "$HERE/setup.log"
"""
BOOTSTRAP_README = """\
# toolbox

```sh
bash <(curl -s https://raw.githubusercontent.com/lab/toolbox/master/bootstrap.sh)
```

See [bootstrap.sh](https://github.com/lab/toolbox/blob/master/bootstrap.sh).
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    model = model_of(parse_dockerfile("FROM ubuntu:24.04\n", "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "the pipe never fetches" in d.message
    ]


def test_installer_copying_a_sibling(tmp_path: Path) -> None:
    got = found(tmp_path, INSTALL_README, {"scripts/install.sh": INSTALL, "scripts/mkproj": "#!/bin/sh\n"})
    assert len(got) == 1, got
    assert got[0].startswith("6: README pipes install.sh from https://raw.githubusercontent.com/ann/")
    assert "scripts/install.sh:7 reads mkproj from $SCRIPT_DIR" in got[0]
    assert "never fetches scripts/mkproj" in got[0]


def test_bootstrap_sourcing_a_sibling_by_dollar_zero(tmp_path: Path) -> None:
    got = found(
        tmp_path, BOOTSTRAP_README, {"bootstrap.sh": BOOTSTRAP, "common.sh": "setup_toolchain() { :; }\n"}
    )
    assert len(got) == 1, got
    assert "bootstrap.sh:3 reads common.sh from $HERE" in got[0] and got[0].endswith("(certain)")


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the script downloads the file it needs when run from a pipe
        (
            INSTALL_README,
            {
                "scripts/install.sh": INSTALL.replace(
                    "cp ",
                    '[ -f "$SCRIPT_DIR/mkproj" ] || curl -fsSLo "$SCRIPT_DIR/mkproj" "$URL/mkproj"\ncp ',
                    1,
                ),
                "scripts/mkproj": "#!/bin/sh\n",
            },
        ),
        # the name is an output the script writes, not a file beside it
        (BOOTSTRAP_README, {"bootstrap.sh": BOOTSTRAP.replace('. "$HERE/common.sh"\n', "")}),
        # another repository's installer
        (
            INSTALL_README.replace("ann/proj-devcontainer/main", "nvm-sh/nvm/main"),
            {"scripts/install.sh": INSTALL, "scripts/mkproj": "#!/bin/sh\n", "other/x.sh": "#!/bin/sh\n"},
        ),
        # the folder is not taken from the script's own path
        (
            INSTALL_README,
            {
                "scripts/install.sh": INSTALL.replace(
                    '"$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"', '"$HOME/src/proj/scripts"'
                ),
                "scripts/mkproj": "#!/bin/sh\n",
            },
        ),
        # only the commented line reads the sibling
        (
            INSTALL_README,
            {
                "scripts/install.sh": INSTALL.replace('cp "$SCRIPT_DIR/mkproj"', 'cp "$HOME/mkproj"'),
                "scripts/old-tool": "",
            },
        ),
        # a tag: the file there may differ
        (
            INSTALL_README.replace("/main/", "/v1.2.0/"),
            {"scripts/install.sh": INSTALL, "scripts/mkproj": "#!/bin/sh\n"},
        ),
    ],
)
def test_piped_scripts_traps(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, files) == []


def test_run_from_a_clone_only(tmp_path: Path) -> None:
    readme = INSTALL_README.replace(
        "curl -fsSL https://raw.githubusercontent.com/ann/proj-devcontainer/main/scripts/install.sh | bash",
        "git clone https://github.com/ann/proj-devcontainer && cd proj-devcontainer",
    )
    assert found(tmp_path, readme, {"scripts/install.sh": INSTALL, "scripts/mkproj": "#!/bin/sh\n"}) == []
