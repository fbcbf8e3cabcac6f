"""`docgen.audit.container_scripts`: a script a block said to run inside the container runs by a
relative path (`./serve_model.sh`) from the image's working folder, which holds no such file while the
image copies one of that name to one other folder, is a finding; a `cd` or `-w` first, the script in the
working folder, one the README copies in or mounts over, one a RUN names, and a run on the host are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvcr.io/nvidia/tritonserver:24.01-py3
COPY deploy/launcher /srv/launcher
COPY deploy/tools/warm.sh /srv/warm.sh
WORKDIR /srv
CMD ["/bin/bash"]
"""

README = """\
# Serving

## Start

```bash
docker run --rm -it {mount} serving:1.0 bash
```

{intro}

```bash
{command}
```
"""

INSIDE = "Inside the docker container, build the engines with the script:"


def found(
    root: Path,
    command: str,
    intro: str = INSIDE,
    dockerfile: str = DOCKERFILE,
    mount: str = "-v /data/weights:/weights",
) -> list[str]:
    make_tree(
        root,
        {
            "README.md": README.format(intro=intro, command=command, mount=mount),
            "Dockerfile": dockerfile,
            "deploy/launcher/serve_model.sh": "#!/bin/sh\n",
            "deploy/launcher/README.txt": "x\n",
            "deploy/tools/warm.sh": "#!/bin/sh\n",
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "inside the container" in d.message
    ]


@pytest.mark.parametrize(
    "command",
    [
        "./serve_model.sh /weights/llm 8 1",
        "$ ./serve_model.sh /weights/llm",
        "bash ./serve_model.sh /weights",
    ],
)
def test_planted(tmp_path: Path, command: str) -> None:
    assert found(tmp_path, command) == [
        "12: README runs ./serve_model.sh inside the container, whose working folder holds no "
        "serve_model.sh: Dockerfile:4 WORKDIR /srv; line 2 copies it to /srv/launcher/serve_model.sh "
        "(did you mean /srv/launcher/serve_model.sh?) (likely)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "cd /srv/launcher\n./serve_model.sh /weights/llm",  # a `cd` first
        "docker exec -it -w /srv/launcher app ./serve_model.sh",  # the block starts its own command
        "./warm.sh",  # in the working folder
        "./launcher/serve_model.sh /weights",  # the path from the working folder
        "./absent.sh",  # in no folder the image fills (the base image's, or a typo another rule reads)
        "docker cp serve_model.sh app:/srv/\n./serve_model.sh",  # copied in by the README
    ],
)
def test_traps(tmp_path: Path, command: str) -> None:
    assert found(tmp_path, command) == []


def test_a_run_on_the_host_is_not_read(tmp_path: Path) -> None:
    assert found(tmp_path, "./serve_model.sh /weights", intro="On your host, run:") == []


@pytest.mark.parametrize("mount", ["-v $PWD/deploy/launcher:/srv", "-v $PWD:/srv/launcher"])
def test_a_folder_mounted_onto_or_into_the_working_folder(tmp_path: Path, mount: str) -> None:
    assert found(tmp_path, "./serve_model.sh", mount=mount) == []


def test_a_script_a_run_moves(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(
        "WORKDIR /srv", "RUN ln -s /srv/launcher/serve_model.sh /srv/serve_model.sh\nWORKDIR /srv"
    )
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []


def test_a_working_folder_from_a_variable(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("WORKDIR /srv", "WORKDIR ${APP_HOME}")
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []


def test_a_script_copied_into_the_working_folder_named_without_a_slash(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("WORKDIR /srv", "COPY deploy/launcher/serve_model.sh /srv\nWORKDIR /srv")
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []
