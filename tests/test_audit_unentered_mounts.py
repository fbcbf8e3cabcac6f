"""`docgen.audit.unentered_mounts`: an install from `.` or a relative requirements file typed inside an
interactive container that mounts the repository, with no WORKDIR in the image or its plain base, no
`-w` and no `cd`, reads the wrong folder (`likely`); a WORKDIR, a base that may set one (a private
image), `-w`, a `cd`, no word saying the lines run inside, a program after the image and another
image are not findings."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

PLAIN = "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\nRUN pip install torch==2.1.0\n"

README = """\
# Kiln

```bash
KILN=kiln
docker build -t $KILN .
docker run --gpus all -it -v /data:/data -v ${{HOME}}/kiln:/root/kiln ${{KILN}}{after}

# inside the container, install it
{install}
```
"""


def found(readme: str, dockerfile: str = PLAIN) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "enters the mount" in d.message
    ]


def test_an_install_in_the_folder_the_container_starts_in() -> None:
    readme = README.format(after="", install="pip install --no-cache-dir -r requirements/base.txt")
    assert found(readme) == [
        "9: README runs `pip install --no-cache-dir -r requirements/base.txt` in the container of "
        "`docker run … $KILN` (line 6), which mounts /data, /root/kiln but starts in /: Dockerfile sets no "
        "WORKDIR nor does its base nvidia/cuda:12.2.0-devel-ubuntu22.04, and neither -w nor a cd enters "
        "the mount, so the paths it reads are not found (likely)"
    ]


@pytest.mark.parametrize(
    "install", ["pip install -e .", "python -m pip install .", "python setup.py develop"]
)
def test_installs_from_the_folder(install: str) -> None:
    assert [f.split(":", 1)[0] for f in found(README.format(after=" bash", install=install))] == ["9"]


@pytest.mark.parametrize(
    ("dockerfile", "after", "install"),
    [
        # the image starts in a folder of its own, or its base may set one
        (PLAIN + "WORKDIR /root/kiln\n", "", "pip install -e ."),
        (PLAIN + "WORKDIR /opt\n", "", "pip install -e ."),
        ("FROM acme/private-base:3\nRUN pip install tqdm\n", "", "pip install -e ."),
        ("FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-devel\n", "", "pip install -e ."),
        # the command enters the mount
        (PLAIN, " -w /root/kiln", "pip install -e ."),
        (PLAIN, "", "cd /root/kiln\npip install -e ."),
        # a program after the image: the lines after are the host's
        (PLAIN, " python train.py", "pip install -e ."),
        # an install that reads no relative path
        (PLAIN, "", "pip install tqdm==4.66.1"),
        (PLAIN, "", "pip install -r /root/kiln/requirements.txt"),
    ],
)
def test_traps(dockerfile: str, after: str, install: str) -> None:
    readme = README.format(after=after, install=install)
    if after == " -w /root/kiln":  # `-w` goes before the image
        readme = readme.replace("docker run --gpus all", "docker run -w /root/kiln --gpus all").replace(
            "${KILN} -w /root/kiln", "${KILN}"
        )
    assert found(readme, dockerfile) == []


def test_no_word_that_the_lines_run_inside() -> None:
    readme = README.format(after="", install="pip install -e .").replace(
        "# inside the container, install it", ""
    )
    assert found(readme) == []


def test_an_image_the_readme_does_not_build() -> None:
    readme = README.format(after="", install="pip install -e .").replace("-t $KILN", "-t other")
    assert found(readme) == []


def test_not_interactive() -> None:
    readme = README.format(after="", install="pip install -e .").replace(" -it ", " -d ")
    assert found(readme) == []
