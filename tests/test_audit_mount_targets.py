"""`docgen audit`: a folder a README mounts into the container that the image does not have, one folder
away from the path the Dockerfile names (docgen/audit/mount_targets.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SIM = (
    "FROM debian:bookworm AS builder\n"
    "RUN make install && cd /opt/simkit/share/simkit/params && tar -czf /opt/params.tgz .\n"
    "FROM debian:bookworm\n"
    "COPY --from=builder /opt/simkit /opt/simkit\n"
    "COPY start.sh /start.sh\n"
    "WORKDIR /data\n"
    "ENTRYPOINT /start.sh\n"
)
START = "#!/bin/sh\ntar -xzf /opt/params.tgz -C /opt/simkit/share/simkit/params\nexec bash\n"


def _findings(root: Path, readme: str, dockerfile: str = SIM, start: str = START) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "start.sh": start})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_mount_one_folder_short_of_the_one_the_image_uses(tmp_path: Path) -> None:
    readme = (
        "# Simkit\n\n| Option | Use |\n| --- | --- |\n"
        "| -v ${PWD}:/data | your work |\n"
        "| -v ${PWD}/p:/opt/simkit/share/params | extra parameter files |\n"  # planted: …/simkit/params
    )
    assert _findings(tmp_path, readme) == [
        "6: README mounts a folder at /opt/simkit/share/params, which Dockerfile does not have: it names "
        "/opt/simkit/share/simkit/params (did you mean /opt/simkit/share/simkit/params?) (likely)"
    ]


def test_a_mount_one_folder_too_deep(tmp_path: Path) -> None:
    readme = "```bash\ndocker run -v ./p:/opt/simkit/share/simkit/extra/params simkit\n```\n"
    assert [f[:3] for f in _findings(tmp_path, readme)] == ["2: "]


@pytest.mark.parametrize(
    "mount",
    [
        "-v ${PWD}:/opt/simkit/share/simkit/params",  # the folder the image uses
        "-v ${PWD}:/opt/simkit/share/simkit/params/extra",  # below it
        "-v ${PWD}:/work/inputs",  # a new folder of its own: near nothing the image names
        "-v ${PWD}:/usr/local/params",  # in a system folder: the base's, not known
        "-v ${PWD}:/opt/params",  # a folder of one part
        "-v ${PWD}:/opt/simkit/share/params -e PARAMS=/opt/simkit/share/params",  # the program is told
    ],
)
def test_mounts_the_image_has_or_that_say_nothing(tmp_path: Path, mount: str) -> None:
    assert _findings(tmp_path, f"```bash\ndocker run {mount} simkit\n```\n") == []


def test_a_target_a_context_file_names_is_the_images(tmp_path: Path) -> None:
    readme = "```bash\ndocker run -v ${PWD}:/opt/simkit/share/params simkit\n```\n"
    start = START + "ln -s /opt/simkit/share/params /opt/simkit/share/simkit/more\n"
    assert _findings(tmp_path, readme, start=start) == []


def test_two_paths_one_folder_away_say_no_one(tmp_path: Path) -> None:
    readme = "```bash\ndocker run -v ${PWD}:/opt/simkit/share/params simkit\n```\n"
    both = SIM.replace("WORKDIR /data", "RUN mkdir -p /opt/simkit/share/lib/params\nWORKDIR /data")
    assert _findings(tmp_path, readme, dockerfile=both) == []


NPU = 'FROM ubuntu:22.04\nRUN useradd -m devuser\nWORKDIR /home/devuser/\nUSER devuser\nCMD ["bash"]\n'


def _restated(root: Path, command: str, note: str, dockerfile: str = NPU) -> list[str]:
    readme = (
        "# Dev image\n\n```\ndocker run -it --rm \\\n"
        f"  {command} \\\n  -v ~/.cache/hub:/home/devuser/.cache/hub \\\n  acme/dev:1.0\n```\n\n"
        f"Notes:\n- {note} mounts the current folder.\n"
        "- `-v ~/.cache/hub:/home/devuser/.cache/hub` the cache.\n"
    )
    return [f for f in _findings(root, readme, dockerfile) if "its note" in f]


@pytest.mark.parametrize(
    ("command", "note", "dockerfile", "expected"),
    [
        # planted: the note was updated, the command was not
        (
            "-v .:/workspace",
            "`-v .:/home/devuser/workspace`",
            NPU,
            [
                "5: README mounts . at /workspace, but its note on line 11 mounts it at "
                "/home/devuser/workspace, and Dockerfile names /home/devuser, not /workspace (likely)"
            ],
        ),
        # they agree
        ("-v .:/home/devuser/workspace", "`-v .:/home/devuser/workspace`", NPU, []),
        # the image uses the command's folder
        ("-v .:/workspace", "`-v .:/home/devuser/workspace`", NPU + "RUN mkdir -p /workspace\n", []),
        # another host folder: another mount
        ("-v ./data:/workspace", "`-v .:/home/devuser/workspace`", NPU, []),
        # the note's folder is nowhere in the image either
        ("-v .:/workspace", "`-v .:/srv/shared/workspace`", NPU, []),
    ],
)
def test_a_mount_its_own_note_restates_elsewhere(
    tmp_path: Path, command: str, note: str, dockerfile: str, expected: list[str]
) -> None:
    assert _restated(tmp_path, command, note, dockerfile) == expected


def test_two_commands_mounting_one_folder_at_two_places(tmp_path: Path) -> None:
    """Two command blocks (one per image) mount `.` at two places: no note restates either."""
    readme = (
        "# Dev image\n\n```\ndocker run -v .:/workspace acme/tools:1.0\n```\n\n"
        "```\ndocker run -v .:/home/devuser/workspace acme/dev:1.0\n```\n"
    )
    assert [f for f in _findings(tmp_path, readme, NPU) if "its note" in f] == []


ROVER = (
    "FROM ubuntu:20.04\n"
    "ARG UNAME=pilot\n"
    "ARG HOME=/home/${UNAME}\n"
    "RUN useradd -m -d ${HOME} ${UNAME}\n"
    "USER ${UNAME}\n"
    "WORKDIR $HOME\n"
    "RUN mkdir -p $HOME/rover_work/src /srv/maps/tiles\n"
    "RUN echo 'source ~/rover_work/devel/setup.bash' >> ~/.bashrc\n"
)


def _rover(root: Path, mount: str, dockerfile: str = ROVER, readme_more: str = "") -> list[str]:
    readme = f"```bash\n{readme_more}docker run -it -v $HOME/code:{mount} rover\n```\n"
    return _findings(root, readme, dockerfile=dockerfile)


@pytest.mark.parametrize(
    ("mount", "meant"),
    [
        ("/home/pilot/rovr_work/src", "/home/pilot/rover_work/src"),  # a letter dropped, `$HOME` read
        ("/home/pilot/rovre_work/src", "/home/pilot/rover_work/src"),  # two letters swapped
        ("/home/pilot/rover_wrok", "/home/pilot/rover_work"),  # the folder itself
        ("/srv/maps/tilles", "/srv/maps/tiles"),  # a letter added
    ],
)
def test_a_mount_a_slip_off_the_folder_the_image_makes(tmp_path: Path, mount: str, meant: str) -> None:
    assert _rover(tmp_path, mount) == [
        f"2: README mounts a folder at {mount}, which Dockerfile does not have: it names {meant} (did you "
        f"mean {meant}?) (likely)"
    ]


def test_the_home_of_the_last_user_when_no_home_is_declared(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nRUN useradd -m pilot\nUSER pilot\nRUN mkdir -p ~/rover_work/src\n"
    assert [f[:41] for f in _rover(tmp_path, "/home/pilot/rovr_work/src", dockerfile)] == [
        "2: README mounts a folder at /home/pilot/"
    ]


@pytest.mark.parametrize(
    "mount",
    [
        "/home/pilot/rover_work/src",  # the folder `$HOME/rover_work/src` makes
        "/home/pilot/rover_work/src/extra",  # below it
        "/data",  # a new data folder
        "/workspace/rover",  # a new folder of its own
        "/models",
        "/srv/maps/tile",  # `tiles` and `tile`: a folder of its own as often as a slip
        "/srv/maps/tiles2",  # a digit differs: another folder
        "/srv/mapz",  # a folder of one part
        "/home/pilot/rover_work/src/config.yamll",  # a mount of a file
        "/srv/maps/Tiles",  # case only
    ],
)
def test_slips_that_are_none(tmp_path: Path, mount: str) -> None:
    assert _rover(tmp_path, mount) == []


def test_a_folder_the_readme_makes_is_its_own(tmp_path: Path) -> None:
    made = "docker run rover mkdir -p /home/pilot/rovr_work/src\n"
    assert _rover(tmp_path, "/home/pilot/rovr_work/src", readme_more=made) == []


def test_a_home_the_image_does_not_know_reads_no_slip(tmp_path: Path) -> None:
    dockerfile = ROVER.replace("ARG HOME=/home/${UNAME}\n", "").replace("USER ${UNAME}\n", "USER $(id -un)\n")
    assert _rover(tmp_path, "/home/pilot/rovr_work/src", dockerfile) == []


def test_two_folders_a_slip_off_say_no_one(tmp_path: Path) -> None:
    dockerfile = ROVER + "RUN mkdir -p /srv/maps/tides\n"
    assert _rover(tmp_path, "/srv/maps/tices", dockerfile) == []


def test_many_commands_and_notes_are_read_in_one_pass_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each command's mount searched every note (and sorted what they meant): n² folders looked at
    import posixpath
    import types

    from docgen.audit import mount_targets
    from docgen.markdown import read_document

    looked = [0]

    def dirname(path: str) -> str:
        looked[0] += 1
        return posixpath.dirname(path)

    monkeypatch.setattr(mount_targets, "posixpath", types.SimpleNamespace(dirname=dirname))
    n = 2000
    readme = "# Dev image\n\n" + "".join(
        f"```\ndocker run -v .:/workspace{i} acme/dev\n```\n\nThen `-v .:/home/devuser/work{i}`.\n\n"
        for i in range(n)
    )
    make_tree(tmp_path, {"Dockerfile": NPU})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    doc = read_document(readme, "README.md")
    assert list(mount_targets.restated_mounts(doc, [model], "README.md", tmp_path)) == []
    assert looked[0] <= 2 * n


LAB = (
    "FROM tensorflow/tensorflow:2.15.0-gpu\n"
    "RUN pip install jupyterlab\n"
    "RUN mkdir /notebook && chmod a+rwx /notebook\n"
    "RUN mkdir /dataset\n"
    "WORKDIR /notebook\n"
    'CMD ["jupyter", "lab", "--ip=0.0.0.0", "--allow-root"]\n'
)


def test_a_top_level_mount_a_plural_off_a_folder_the_image_makes(tmp_path: Path) -> None:
    readme = (
        "# Lab\n\n```shell\ndocker build -t lab .\n"
        "docker run --rm -v $(realpath ~/notebooks):/notebooks -v $(realpath /data):/datasets lab\n```\n"
    )
    make_tree(
        tmp_path, {"docker-compose.yml": "services:\n  lab:\n    volumes:\n      - /home/me/nb:/notebooks\n"}
    )
    assert _findings(tmp_path, readme, LAB) == [
        "5: README mounts a folder at /notebooks, which Dockerfile does not have: it names /notebook (did "
        "you mean /notebook?) (likely)",
        "5: README mounts a folder at /datasets, which Dockerfile does not have: it names /dataset (did you "
        "mean /dataset?) (likely)",
    ]


@pytest.mark.parametrize(
    "mount",
    [
        "-v $(pwd):/notebook",  # the very folder the image makes
        "-v $(pwd):/workspace",  # near nothing the image makes
        "-v $(pwd):/data",  # a short name: a folder of its own as often as a slip
        "-v $(pwd):/notebooks -e NOTEBOOK_DIR=/notebooks",  # the program is told where it is
    ],
)
def test_top_level_mounts_that_say_nothing(tmp_path: Path, mount: str) -> None:
    readme = f"# Lab\n\n```shell\ndocker run --rm {mount} lab\n```\n"
    assert _findings(tmp_path, readme, LAB.replace("/dataset", "/data2")) == []


def test_a_plural_of_a_folder_only_an_env_value_names_is_no_slip(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.11\nENV MODEL_DIR=/models\nRUN pip install app\n"
    readme = "```shell\ndocker run -v ./m:/model app\n```\n"
    assert _findings(tmp_path, readme, dockerfile) == []
