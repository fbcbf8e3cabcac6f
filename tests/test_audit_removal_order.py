"""`removal_order`: a README clean-up removing an image before the container made from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM python:3.12-slim\nCOPY . /app\nCMD ["python", "/app/serve.py"]\n'


def found(root: Path, body: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "serve.py": "print(1)\n", "README.md": body})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(body, "README.md", model, {}, root, root)
        if "docker rmi" in d.message
    ]


def refused(image: str, container: str, made_at: int, chained: bool) -> str:
    after = " (joined with &&, so that rm never runs either)" if chained else ""
    return (
        f"README runs docker rmi {image} before docker rm {container}{after}: the container {container}, "
        f"made from {image} by the docker run at README:{made_at}, still uses the image, so the daemon "
        "refuses to remove it (conflict: unable to remove repository reference … container … is using its "
        "referenced image); remove the container first, then the image"
    )


OCR = """\
# OCR service

```shell
sudo docker build -t ocrsvc .
```

```
docker run -d --name ocrsvc -p 9000:9000 --restart always ocrsvc
```

- `sudo docker stop ocrsvc && sudo docker rmi ocrsvc && sudo docker rm ocrsvc`
"""

TRANSLATE = """\
# Translator

```bash
docker build -t acme/translate:1.2 .
docker create --name=tr acme/translate:1.2
```

To start again from scratch:

```bash
docker stop tr
docker image rm acme/translate:1.2
docker container rm tr
```
"""


@pytest.mark.parametrize(
    ("body", "line", "said"),
    [
        (OCR, 11, refused("ocrsvc", "ocrsvc", 8, chained=True)),
        (TRANSLATE, 12, refused("acme/translate:1.2", "tr", 5, chained=False)),
    ],
)
def test_an_image_removed_before_its_container(tmp_path: Path, body: str, line: int, said: str) -> None:
    assert found(tmp_path, body) == [(line, said, "certain")]


@pytest.mark.parametrize(
    "body",
    [
        OCR.replace("rmi ocrsvc && sudo docker rm ocrsvc", "rm ocrsvc && sudo docker rmi ocrsvc"),  # rm first
        OCR.replace("docker rmi ocrsvc", "docker rmi -f ocrsvc"),  # forced
        OCR.replace("--name ocrsvc -p", "--rm --name ocrsvc -p"),  # removed when it stops
        OCR.replace("-t ocrsvc .", "-t ocrsvc -t ocrsvc:2024 ."),  # a second name: rmi untags
        OCR.replace(
            "--name ocrsvc -p 9000:9000 --restart always ocrsvc", "--name ocrsvc -p 9000:9000 other/app"
        ),
        TRANSLATE.replace("docker container rm tr\n", ""),  # no rm of it in the block
        TRANSLATE.replace("docker image rm acme/translate:1.2", "docker image rm <image>"),
        "# A\n\n```bash\ndocker run -d --name web nginx\ndocker rmi $(docker images -q -f dangling=true)\n"
        "docker rm web\n```\n",
    ],
)
def test_removals_that_work(tmp_path: Path, body: str) -> None:
    assert found(tmp_path, body) == []
