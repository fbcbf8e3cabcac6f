"""`docgen audit`: a `cd $_` right after a command whose last argument is not a folder
(docgen/audit/last_words.py): `git clone URL && cd $_` enters the address, not the clone.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM node:20-slim\nCOPY . /srv/quill\nCMD ["node", "/srv/quill/main.js"]\n'


def _audited(tmp_path: Path, readme: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "main.js": "console.log('quill')\n"})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "$_" in d.message
    ]


def _wrong(before: str, why: str) -> str:
    return (
        f"README runs `cd $_` right after `{before}`, but `$_` is the last argument of the command before, "
        f"{why}, not a folder: the cd fails"
    )


def test_clone_of_an_address_then_cd_last_argument_in_a_prompted_block(tmp_path: Path) -> None:
    url = "https://github.com/orla/quill-pad.git"
    readme = f"# Quill pad\n\n## Develop\n\n```shell\n$ git clone {url} && cd $_\n$ npm install\n```\n"
    assert _audited(tmp_path, readme) == [f"6: {_wrong(f'git clone {url}', f'the address {url}')} (certain)"]


def test_ssh_address_and_a_comment_after(tmp_path: Path) -> None:
    url = "git@github.com:orla/quill-pad.git"
    readme = f'# Quill pad\n\n```sh\ngit clone {url} && cd "$_"  # fetch and enter\nyarn start\n```\n'
    assert _audited(tmp_path, readme) == [f"4: {_wrong(f'git clone {url}', f'the address {url}')} (certain)"]


def test_inline_code_of_a_list_item(tmp_path: Path) -> None:
    url = "https://github.com/orla/quill-pad"
    readme = (
        "# Quill pad\n\n## Setup\n\n1. Install Docker\n"
        f"1. ```git clone {url} && cd $_```\n1. Build the image with ```./build.sh```\n"
    )
    assert _audited(tmp_path, readme) == [f"6: {_wrong(f'git clone {url}', f'the address {url}')} (certain)"]


def test_clone_ending_in_an_option(tmp_path: Path) -> None:
    url = "https://github.com/orla/quill-pad"
    readme = f"# Quill pad\n\n```bash\ngit clone {url} --recursive && cd $_\n```\n"
    assert _audited(tmp_path, readme) == [
        f"4: {_wrong(f'git clone {url} --recursive', 'the option --recursive')} (certain)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "mkdir quill-work && cd $_",  # the folder just made
        "mkdir -p ~/src/quill && cd $_\ngit clone https://github.com/orla/quill-pad.git",
        "mkdir <your-folder> && cd $_",  # a placeholder
        "git clone https://github.com/orla/quill-pad.git quill && cd $_",  # the clone names its folder
        "git clone . /tmp/quill-check && cd $_ && npm ci",  # a local clone into a folder
        "rm -rf out && mkdir -p $_ && cd $_",
        "curl -L https://example.org/quill.tgz | tar xz && cd $_",  # a pipeline: not read
        "wget https://example.org/quill.tgz || cd $_",  # an alternative: not read
        "git clone https://github.com/orla/quill-pad.git\ncd $_",  # another line: not read
        "echo 'cd $_' >> notes.txt",
        "git clone https://github.com/orla/quill-pad.git && cd $_/docs",  # not the bare cd
    ],
)
def test_silent(tmp_path: Path, block: str) -> None:
    readme = f"# Quill pad\n\n```bash\n{block}\n```\n"
    assert _audited(tmp_path, readme) == []
