"""`docgen audit`: arguments a README gives a script the image holds, run in a container by `docker
run` or `docker exec`, that the script refuses or never reads (docgen/audit/container_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DEV_IMAGE = """\
FROM ubuntu:22.04
WORKDIR /code
COPY scripts/create-user.sh /start-scripts/
COPY scripts/entry.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"""
CREATE_USER = """\
#!/bin/bash
set_password() {
    local user=$1
    echo "${user}:$2" | chpasswd
}
if ! id "$MY_USER" &>/dev/null; then
    adduser --disabled-password --gecos "" --uid $MY_UID $MY_USER
    set_password "$MY_USER" "$MY_PASSWORD"
fi
"""
DEV_README = """\
# CUDA dev box

```bash
docker run -d --name dev -p 2222:22 cuda-dev
```

### Adding users

```bash
docker exec -it dev /start-scripts/create-user.sh <username>
```
"""


def _found(root: Path, dockerfile: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "(run in the container)" in d.message
    ]


def _dev(root: Path, readme: str = DEV_README, script: str = CREATE_USER) -> list[tuple[int, str, str]]:
    files = {
        "README.md": readme,
        "scripts/create-user.sh": script,
        "scripts/entry.sh": '#!/bin/sh\nexec "$@"\n',
    }
    return _found(root, DEV_IMAGE, files)


def test_an_argument_a_script_in_the_image_never_reads(tmp_path: Path) -> None:
    assert _dev(tmp_path) == [
        (
            10,
            "README runs /start-scripts/create-user.sh with <username>, but create-user.sh reads no argument "
            "(no $1, $@, shift or getopts): what it is given changes nothing (run in the container)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<username>", ""),  # no argument given
        ("docker exec -it dev", "docker exec -it -v /x:/y dev"),  # an option exec does not have
        ("-p 2222:22", "-v $(pwd)/scripts:/start-scripts -p 2222:22"),  # the folder mounted over
        ("/start-scripts/create-user.sh", "/entrypoint.sh"),  # passes its arguments on
        ("/start-scripts/create-user.sh", "/opt/create-user.sh"),  # no file the image puts there
    ],
)
def test_runs_in_the_container_left_alone(tmp_path: Path, old: str, new: str) -> None:
    assert _dev(tmp_path, DEV_README.replace(old, new)) == []


@pytest.mark.parametrize("reads", ['MY_USER="${1:-$MY_USER}"', "shift", "source /etc/profile.d/users.sh"])
def test_a_script_in_the_image_that_reads_its_arguments(tmp_path: Path, reads: str) -> None:
    assert _dev(tmp_path, script=CREATE_USER.replace("if ! id", f"{reads}\nif ! id")) == []


RNN_IMAGE = """\
FROM nvcr.io/nvidia/pytorch:20.06-py3
WORKDIR /usr/src/app
COPY requirements.txt ./
COPY . .
"""
TRAIN = """\
import argparse
import sys


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("-s", "--session", required=True)
    parser.add_argument("-n", "--number", default=200)
    parser.add_argument("-d", "--data_dir")
    args = parser.parse_args()
    print(args)


if __name__ == "__main__":
    main(sys.argv[1:])
"""
RNN_README = """\
# rnn-midi

## train

    docker run --rm -v $(pwd)/workspace:/workspace rnn:latest python train.py --mode train -s m3
    docker run --rm -v $(pwd)/workspace:/workspace rnn:latest python train.py -d /workspace/txt -s m3
"""


def test_an_option_the_images_script_does_not_declare(tmp_path: Path) -> None:
    files = {"README.md": RNN_README, "train.py": TRAIN, "requirements.txt": "torch\n"}
    [(line, message, confidence)] = _found(tmp_path, RNN_IMAGE, files)
    assert (line, confidence) == (5, "certain")
    assert message.startswith(
        "README runs train.py with --mode, but train.py does not accept it: its argparse"
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("-v $(pwd)/workspace:/workspace", "-v $(pwd):/usr/src/app"),  # the host's checkout runs
        ("--rm -v", "--rm -w /workspace -v"),  # run from a folder the image puts no train.py in
        ("python train.py --mode", "python -m train --mode"),  # no script path
    ],
)
def test_python_runs_in_the_container_left_alone(tmp_path: Path, old: str, new: str) -> None:
    files = {"README.md": RNN_README.replace(old, new), "train.py": TRAIN, "requirements.txt": "torch\n"}
    assert _found(tmp_path, RNN_IMAGE, files) == []
