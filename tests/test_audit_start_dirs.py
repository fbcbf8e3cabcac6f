"""Sentences saying where a container of the image starts, against its WORKDIR
(`docgen/audit/start_dirs.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

BASE = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir requests
WORKDIR /srv/ledger
COPY . .
CMD ["python", "serve.py"]
"""


def starts(
    root: Path, readme: str, dockerfile: str = BASE, extra: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root)
        if "starts in" in d.message
    ]


def test_working_directory_said_in_a_list_of_runtime_facts(tmp_path: Path) -> None:
    readme = """\
# Ledger server

```bash
docker build -t ledger .
docker run --rm -p 9000:9000 ledger
```

## At run time

- The working directory inside the container is `/opt/ledger`.
- The virtual environment lives in the image.
"""
    assert starts(tmp_path, readme) == [
        (
            10,
            "README says a container of the image starts in /opt/ledger, but Dockerfile:3 sets WORKDIR "
            "/srv/ledger",
            "likely",
        )
    ]


def test_folder_the_reader_lands_in_named_before_folder(tmp_path: Path) -> None:
    readme = """\
# Evaluation image

### Run
After the build, run the command below; users will be in the docker instance under report-tools folder.
```bash
docker run -it ledger:latest
```
"""
    assert starts(tmp_path, readme) == [
        (
            4,
            "README says a container of the image starts in report-tools, but Dockerfile:3 sets WORKDIR "
            "/srv/ledger",
            "likely",
        )
    ]


def test_dropped_into_a_shell_in_a_path(tmp_path: Path) -> None:
    readme = """\
# Cross build

```bash
docker compose up -d
docker attach ledger
```

You will be dropped into a shell inside the container, in the `/work` directory. Build from there.
"""
    found = starts(tmp_path, readme)
    assert [(line, msg.split(",")[0]) for line, msg, _ in found] == [
        (8, "README says a container of the image starts in /work")
    ]


def test_the_working_folder_itself_a_part_of_it_or_its_end_are_true(tmp_path: Path) -> None:
    readme = """\
# Ledger

- The working directory inside the container is `/srv/ledger/`.
- Inside the container you will be in the ledger folder.
- You will be dropped into a shell in the container at `srv/ledger`.
"""
    assert starts(tmp_path, readme) == []


def test_no_workdir_leaves_it_to_the_base_image(tmp_path: Path) -> None:
    readme = """\
# Stream jobs

```sh
docker exec -it jobs-worker /bin/bash
```
You will be in the `/opt/engine` directory of the container. Run `cd bin` to find the submit tool.
"""
    dockerfile = "FROM example/engine:3.5\nCOPY jobs /jobs\n"
    assert starts(tmp_path, readme, dockerfile) == []


def test_a_workdir_in_a_variable_is_not_read(tmp_path: Path) -> None:
    readme = "# App\n\nThe working directory inside the container is `/opt/ledger`.\n"
    dockerfile = "FROM python:3.12-slim\nARG HOME_DIR\nWORKDIR ${HOME_DIR}\n"
    assert starts(tmp_path, readme, dockerfile) == []


def test_a_command_setting_the_folder_itself(tmp_path: Path) -> None:
    readme = """\
# Ledger

```bash
docker run -it -v "$PWD":/data -w /data ledger bash
```

You will be in the `/data` directory of the container, with your files.
"""
    assert starts(tmp_path, readme) == []


def test_an_entrypoint_script_may_move(tmp_path: Path) -> None:
    readme = "# Ledger\n\nThe working directory inside the container is `/opt/ledger`.\n"
    dockerfile = BASE.replace('CMD ["python", "serve.py"]', 'ENTRYPOINT ["/srv/ledger/start.sh"]')
    assert starts(tmp_path, readme, dockerfile) == []


def test_compose_working_dir_or_several_services(tmp_path: Path) -> None:
    readme = "# Ledger\n\nThe working directory inside the container is `/opt/ledger`.\n"
    one = "services:\n  ledger:\n    build: .\n    working_dir: /opt/ledger\n"
    assert starts(tmp_path / "a", readme, extra={"compose.yaml": one}) == []
    two = "services:\n  ledger:\n    build: .\n  jobs:\n    image: example/jobs:1\n"
    assert starts(tmp_path / "b", readme, extra={"docker-compose.yml": two}) == []


def test_host_conditions_examples_other_containers_and_plain_words(tmp_path: Path) -> None:
    readme = """\
# Ledger

On the host you will be in the `/home/me/ledger` directory after the clone, ready for the docker build.

If you mount a volume, you will be in the `/data` directory of the container.

In the worker container you will be in `/opt/engine`.

Inside the container you will be in the home directory.

For example, the working directory inside the container is `/tmp/demo`.

The working directory inside the container is not `/opt/ledger`.
"""
    assert starts(tmp_path, readme) == []


def test_a_sentence_settings_reads_is_told_once(tmp_path: Path) -> None:
    readme = "# App\n\nThe default working directory inside the container is `/opt/ledger`.\n"
    make_tree(tmp_path, {"Dockerfile": BASE, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [(d.line, d.confidence) for d in audit(readme, "README.md", model, {}, tmp_path)] == [
        (3, "certain")
    ]


# -- no WORKDIR on a base that sets none: the container starts in `/`

TRANSCRIBE = """\
FROM python:3.11-slim-bookworm
RUN pip install --no-cache-dir faster-whisper
VOLUME /audio
ENTRYPOINT ["faster-whisper"]
"""
"""Modelled on a transcription CLI image that mounts the reader's audio."""

TRANSCRIBE_README = """\
# Transcribe

```sh
docker run -v "$PWD":/audio transcribe talk.wav
```

Transcripts are written to the working directory (`/audio` by default).
"""


def test_a_working_directory_the_image_only_declares_a_volume_at(tmp_path: Path) -> None:
    assert starts(tmp_path, TRANSCRIBE_README, TRANSCRIBE) == [
        (
            7,
            "README says a container of the image starts in /audio, but Dockerfile sets no WORKDIR and its "
            "base python:3.11-slim-bookworm starts in /",
            "likely",
        )
    ]


def test_a_bare_base_that_sets_none_and_a_landing_path(tmp_path: Path) -> None:
    readme = (
        "# Tools\n\nAfter `docker run -it tools`, you will be dropped into `/workspace` in the container.\n"
    )
    dockerfile = 'FROM ubuntu:22.04\nRUN apt-get update\nCMD ["bash"]\n'
    assert [line for line, _, _ in starts(tmp_path, readme, dockerfile)] == [3]


def test_no_workdir_on_a_base_that_may_set_one_or_a_folder_name(tmp_path: Path) -> None:
    # the base decides
    assert (
        starts(tmp_path, TRANSCRIBE_README, TRANSCRIBE.replace("python:3.11-slim-bookworm", "acme/asr:2"))
        == []
    )
    # the WORKDIR is the volume
    assert starts(tmp_path, TRANSCRIBE_README, TRANSCRIBE.replace("VOLUME /audio", "WORKDIR /audio")) == []
    # the run sets the folder itself
    assert starts(tmp_path, TRANSCRIBE_README.replace("-v", "-w /audio -v"), TRANSCRIBE) == []
    # a relative folder: which one is meant is not said
    relative = TRANSCRIBE_README.replace("(`/audio` by default)", "(`audio` by default)")
    assert starts(tmp_path, relative, TRANSCRIBE) == []
    # a path no VOLUME names, in a sentence that names no container: the reader's own folder
    other = TRANSCRIBE_README.replace("(`/audio` by default)", "(`/tmp/out` by default)")
    assert starts(tmp_path, other, TRANSCRIBE) == []
