"""`docgen.audit.curl_uploads`: a file a `curl` example uploads (`-F "file=@./photos/owl.png"`,
`--data-binary @clips/a.wav`, `-T`) that is missing from a folder the repository has is a `likely`
finding naming what the folder holds; stdin (`@-`), a variable, a path without a folder, a folder the
repository lacks, a file the README makes and an upload after a `cd` are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = 'FROM python:3.12-slim\nCOPY serve.py /srv/\nEXPOSE 9000\nCMD ["python", "/srv/serve.py"]\n'

README = """\
# Photo service

## Try it

```bash
{commands}
```
"""


def found(root: Path, commands: str) -> list[str]:
    make_tree(
        root,
        {
            "README.md": README.format(commands=commands),
            "Dockerfile": DOCKERFILE,
            "serve.py": "print('serve')\n",
            "photos/heron.png": "png\n",
            "clips/first.wav": "wav\n",
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "curl" in d.message
    ]


def upload(line: int, path: str, held: str) -> str:
    folder = path.rsplit("/", 1)[0]
    return f"{line}: README uploads {path} with curl, which does not exist ({folder}/ holds {held}) (likely)"


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        (
            'curl -X POST http://localhost:9000/tag \\\n  -F "files=@./photos/owl.png" \\\n'
            '  -F "files=@./photos/heron.png"',
            [upload(7, "photos/owl.png", "heron.png")],
        ),
        (
            "curl --data-binary @clips/second.wav http://localhost:9000/hear",
            [upload(6, "clips/second.wav", "first.wav")],
        ),
        ("curl -T clips/third.wav http://localhost:9000/put", [upload(6, "clips/third.wav", "first.wav")]),
        # traps
        ('curl -F "files=@./photos/heron.png" http://localhost:9000/tag', []),  # there
        ("curl --data-binary @- http://localhost:9000/hear", []),  # stdin
        ('curl -F "files=@$IMAGE" http://localhost:9000/tag', []),  # a variable
        ("curl --data @request.json http://localhost:9000/tag", []),  # no folder: the reader's own
        ('curl -F "files=@samples/owl.png" http://localhost:9000/tag', []),  # no samples/ folder
        ('curl -F "files=@/tmp/photos/owl.png" http://localhost:9000/tag', []),  # absolute
        (
            "wget -O photos/owl.png https://example.org/owl.png\n"
            'curl -F "files=@photos/owl.png" http://localhost:9000/tag',
            [],
        ),  # the README fetches it
        ('cd clips\ncurl -F "files=@photos/owl.png" http://localhost:9000/tag', []),  # another folder
        ('echo -F "files=@photos/owl.png"', []),  # no curl
        ('docker exec app curl -F "files=@photos/owl.png" http://localhost:9000/tag', []),  # the container's
    ],
)
def test_a_file_a_curl_example_uploads(tmp_path: Path, commands: str, expected: list[str]) -> None:
    assert found(tmp_path, commands) == expected


def test_a_folder_linked_out_of_the_project_or_a_name_too_long_is_not_listed(tmp_path: Path) -> None:
    # A folder that links out of the project is not listed (its files are no business of the README's);
    # a folder name longer than the file system allows made the whole audit fail (exit 2).
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/private.pem").write_text("key\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "linked").symlink_to(tmp_path / "outside")
    long = "a" * 300
    commands = (
        'curl -F "f=@linked/owl.png" http://localhost:9000/tag\n'
        f'curl -F "f=@{long}/owl.png" http://localhost:9000/tag\n'
        f'curl -F "f=@photos/{long}.png" http://localhost:9000/tag'
    )
    assert found(proj, commands) == [upload(8, f"photos/{long}.png", "heron.png")]
