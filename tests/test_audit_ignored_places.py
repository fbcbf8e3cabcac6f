"""`docgen audit` (docgen/audit/ignored_places.py): files a README tells the reader to put in a folder the
image copies from the context and then rebuild, while the `.dockerignore` leaves such files out; and the
shapes that stay silent: a pattern taking them back, a top-level pattern (BuildKit matches `*.wav` at the
context's top only), no rebuild said, a folder no COPY brings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

VOICE_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /srv
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY app /srv/app
CMD ["python", "-m", "app.server"]
"""
VOICE_README = """\
# Voice cloning server

## Custom voices

1. Put your reference clips (`*.wav`, 10 s or more) in `app/voices/`.
2. Name each clip after the speaker.
3. Rebuild the image: `docker compose build`.

## Run

```sh
docker compose up
```
"""
"""A voice server's README (the shape of one that bakes the user's clips into the image)."""


def voice_tree(ignore: str = "**/__pycache__\n**/*.wav\n.git\n", **change: str) -> dict[str, str]:
    return {
        "README.md": VOICE_README,
        "Dockerfile": VOICE_DOCKERFILE,
        ".dockerignore": ignore,
        "requirements.txt": "fastapi==0.115.0\n",
        "app/server.py": "app = None\n",
        "app/voices/.gitkeep": "",
        **change,
    }


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "leaves them out of the build context" in d.message
    ]


def test_clips_the_dockerignore_leaves_out(tmp_path: Path) -> None:
    assert found(tmp_path, voice_tree()) == [
        (
            5,
            "README tells to put *.wav files in app/voices/ and rebuild, but .dockerignore:2 (**/*.wav) "
            "leaves them out of the build context: COPY app /srv/app (Dockerfile:5) never puts them in "
            "the image",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "ignore",
    [
        "**/*.wav\n!app/voices/*.wav\n",  # taken back
        "*.wav\n",  # the context's top only
        "**/*.mp3\n",  # another kind
    ],
)
def test_a_pattern_that_keeps_the_clips_is_silent(tmp_path: Path, ignore: str) -> None:
    assert found(tmp_path, voice_tree(ignore)) == []


def test_no_rebuild_said_is_silent(tmp_path: Path) -> None:
    readme = VOICE_README.replace("3. Rebuild the image: `docker compose build`.", "3. Restart the server.")
    assert found(tmp_path, voice_tree(**{"README.md": readme})) == []


PROXY_DOCKERFILE = """\
FROM nginx:1.27-alpine
COPY nginx.conf /etc/nginx/nginx.conf
COPY certs /etc/nginx/certs
"""
PROXY_README = """\
# TLS proxy

Copy your certificate server.pem and key server.key into /etc/nginx/certs/ of the image:
they go in the certs folder of this repository. Then build it again:

    docker build -t proxy .
"""
"""A reverse proxy's README (the shape of one that copies the user's certificate at build time)."""


def proxy_tree(**change: str) -> dict[str, str]:
    return {
        "README.md": PROXY_README,
        "Dockerfile": PROXY_DOCKERFILE,
        ".dockerignore": "certs/*.key\ncerts/*.pem\n!certs/example.pem\n",
        "nginx.conf": "events {}\n",
        "certs/example.pem": "-----BEGIN CERTIFICATE-----\n",
        **change,
    }


def test_a_certificate_put_at_the_image_path_the_copy_maps_back(tmp_path: Path) -> None:
    assert found(tmp_path, proxy_tree()) == [
        (
            3,
            "README tells to put server.pem in /etc/nginx/certs/ and rebuild, but .dockerignore:2 "
            "(certs/*.pem) leaves them out of the build context: COPY certs /etc/nginx/certs (Dockerfile:3) "
            "never puts them in the image",
            "certain",
        )
    ]


def test_a_folder_no_copy_brings_is_silent(tmp_path: Path) -> None:
    dockerfile = PROXY_DOCKERFILE.replace("COPY certs /etc/nginx/certs\n", "")
    assert found(tmp_path, proxy_tree(Dockerfile=dockerfile)) == []
