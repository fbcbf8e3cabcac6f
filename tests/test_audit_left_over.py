"""`docgen.audit.left_over`: an item of a list of what the image installs that the README's title names
too, and that nothing the build reads names, is a finding even when the build installs a clone's
requirements docgen cannot read; an item the title does not name, one the Dockerfile or a copied file
names, one a base image carries, one a copied file docgen has no copy of may bring, an optional one and
one of an `Additional` list are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

WEBUI = """\
FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends git python3-pip ffmpeg
RUN curl https://bootstrap.pypa.io/get-pip.py | python3
WORKDIR /srv
RUN git clone https://github.com/example-org/chat-panel && cd chat-panel && git checkout 1a2b3c4d
RUN cd /srv/chat-panel && pip3 install -r requirements.txt && python3 fetch-weights.py demo/tiny-7b
{extra}
CMD ["/start.sh"]
"""

README = """\
# {title}

## Installs

* Ubuntu 22.04 LTS
* CUDA 12.1
{item}
* Torch 2.1.0
"""

MESSAGE = (
    "8: README's title and its list of what the image installs name Warbler, but Dockerfile installs "
    "no Warbler and copies no file naming it (the README may describe another image) (likely)"
)


def found(root: Path, readme: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "title and its list" in d.message
    ]


@pytest.mark.parametrize(
    ("title", "item", "extra", "files", "expected"),
    [
        # the README of another image: its title and its list name a project the build never installs,
        # its link's target on the next line
        (
            "Docker image for Warbler speech synthesis",
            "* [Warbler](\n  https://github.com/sound-lab/warbler)",
            "",
            {},
            [MESSAGE.replace("8:", "7:")],
        ),
        ("Warbler Docker image", "* Warbler", "", {}, [MESSAGE.replace("8:", "7:")]),
        # the title does not name it: a requirements file docgen cannot read may bring it
        ("Docker image for chat", "* [Warbler](https://github.com/sound-lab/warbler)", "", {}, []),
        # the Dockerfile installs it
        (
            "Docker image for Warbler",
            "* [Warbler](https://github.com/sound-lab/warbler)",
            "RUN pip3 install warbler==0.3.1",
            {},
            [],
        ),
        # by its repository's name, not its title
        (
            "Docker image for Warbler",
            "* [Warbler](https://github.com/sound-lab/warbler-tts)",
            "RUN git clone https://github.com/sound-lab/warbler-tts /srv/wtts",
            {},
            [],
        ),
        # a requirements file it copies names it
        (
            "Docker image for Warbler",
            "* Warbler",
            "COPY extra-requirements.txt /tmp/\nRUN pip3 install -r /tmp/extra-requirements.txt",
            {"extra-requirements.txt": "warbler>=0.3\n"},
            [],
        ),
        # a script it copies that docgen has no copy of may install it
        (
            "Docker image for Warbler",
            "* Warbler",
            "COPY setup-audio.sh /tmp/\nRUN bash /tmp/setup-audio.sh",
            {},
            [],
        ),
        # a start script it copies that no RUN after the copy runs: it runs only in a container
        (
            "Docker image for Warbler",
            "* Warbler",
            "COPY serve_chat.sh /srv/chat-panel/\nCOPY start.sh /start.sh\nRUN chmod a+x /start.sh",
            {},
            [MESSAGE.replace("8:", "7:")],
        ),
        # a RUN after the copy runs what lands in its folder, or every script by a wildcard
        (
            "Docker image for Warbler",
            "* Warbler",
            "COPY setup-audio.sh /opt/setup/\nRUN cd /opt/setup && ./$(ls | head -1)",
            {},
            [],
        ),
        (
            "Docker image for Warbler",
            "* Warbler",
            "COPY setup-audio.sh ./\nRUN for f in *.sh; do bash $f; done",
            {},
            [],
        ),
        # the base image carries it: CUDA in a CUDA image
        ("CUDA Docker image", "* CUDA", "", {}, []),
        # optional, to be added
        ("Docker image for Warbler", "* Warbler (optional)", "", {}, []),
        ("Docker image for Warbler", "* Warbler can be added with a build arg", "", {}, []),
    ],
)
def test_left_over_items(
    tmp_path: Path, title: str, item: str, extra: str, files: dict[str, str], expected: list[str]
) -> None:
    readme = README.format(title=title, item=item)
    assert found(tmp_path, readme, WEBUI.format(extra=extra), files) == expected


def test_added_list_is_not_read(tmp_path: Path) -> None:
    """A list of what the Dockerfile adds to its base is `contents`' to read, not this rule's."""
    readme = "# Warbler image\n\n## Additional\n\n* Warbler\n"
    assert found(tmp_path, readme, WEBUI.format(extra="")) == []


def test_every_image_must_lack_it(tmp_path: Path) -> None:
    """A list under a README about two images: an item one of them installs is not left over."""
    readme = README.format(title="Docker images for Warbler", item="* Warbler")
    make_tree(
        tmp_path,
        {
            "README.md": readme,
            "Dockerfile": WEBUI.format(extra=""),
            "Dockerfile.tts": "FROM python:3.11-slim\nRUN pip install warbler==0.3.1\n",
        },
    )
    models = [build_model(tmp_path / n, n) for n in ("Dockerfile", "Dockerfile.tts")]
    assert [
        d for d in audit(readme, "README.md", models, {}, tmp_path) if "title and its list" in d.message
    ] == []


def test_only_the_start_of_a_long_title_is_read(tmp_path: Path) -> None:
    # Each item is looked for in the title: a title of a paragraph's length made every item cost it.
    near = README.format(title="Docker image for Warbler " + "and more " * 100, item="* Warbler")
    assert found(tmp_path / "near", near, WEBUI.format(extra="")) == [MESSAGE.replace("8:", "7:", 1)]
    far = README.format(title="Docker image " + "and more " * 100 + "for Warbler", item="* Warbler")
    assert found(tmp_path / "far", far, WEBUI.format(extra="")) == []
