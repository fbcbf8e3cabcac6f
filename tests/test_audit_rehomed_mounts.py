"""`docgen audit`: mounts into a project folder at the container's top while the image builds that
project below another folder (docgen/audit/rehomed_mounts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

LAB = (
    "FROM ubuntu:20.04\n"
    "ARG ME=dev\n"
    "RUN useradd -m ${ME}\n"
    "RUN git clone https://example.com/lab/KestrelML /home/${ME}/KestrelML\n"
    "ENV KESTREL_HOME=/home/${ME}/KestrelML\n"
    "WORKDIR /home/${ME}/KestrelML/bench\n"
    "USER ${ME}\n"
)
LAUNCH = (
    "#!/bin/bash\n"
    "docker run --gpus all --rm -it \\\n"
    '    -v "${PWD}/cache":"/KestrelML/data/cache" \\\n'
    '    -v "${PWD}/results":"/KestrelML/bench/results" \\\n'
    "    lab/kestrel\n"
)
README = (
    "# KestrelML image\n\n## Run\n\n```sh\n./launch.sh\n```\n\n"
    "This maps host folders into the container to keep the cache (`cache/`) and results (`results/`).\n"
)


def _findings(root: Path, readme: str = README, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": LAB, "launch.sh": LAUNCH, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_script_mounting_a_project_folder_the_image_keeps_elsewhere(tmp_path: Path) -> None:
    assert _findings(tmp_path) == [
        "6: README runs ./launch.sh, which mounts /KestrelML/bench/results, /KestrelML/data/cache, but "
        "Dockerfile never names /KestrelML: it puts KestrelML at /home/dev/KestrelML (line 6) (likely)"
    ]


def test_a_readme_command_mounting_it(tmp_path: Path) -> None:
    readme = "# Run\n\n```sh\ndocker run -it -v $PWD/out:/KestrelML/bench/out lab/kestrel\n```\n"
    assert [f[:24] for f in _findings(tmp_path, readme)] == ["4: README mounts /Kestre"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the image names the folder at the top: an entrypoint links it
        (README, {"entry.sh": "#!/bin/sh\nln -s /home/dev/KestrelML /KestrelML\n"}),
        (README, {"Dockerfile": LAB + "WORKDIR /KestrelML\n"}),
        # the README tells the program where the folder is (a flag, an env)
        (README + "\nSet `cache_dir: /KestrelML/data/cache` in `lab.yaml`.\n", {}),
        (
            README,
            {
                "launch.sh": LAUNCH.replace(
                    "    lab/kestrel", "    -e CACHE=/KestrelML/data/cache lab/kestrel"
                )
            },
        ),
        # a commented-out run in the script is not run
        (README, {"launch.sh": "#!/bin/sh\n# docker run -v $PWD/c:/KestrelML/c lab/kestrel\n"}),
        # a word any tree has: the app is told of /data, /workspace by a flag or its own config
        (
            README,
            {
                "launch.sh": LAUNCH.replace("/KestrelML/", "/workspace/"),
                "Dockerfile": LAB + "RUN mkdir /opt/workspace\n",
            },
        ),
        # system folders and a home
        (
            README,
            {"launch.sh": "docker run -v $PWD/t:/tmp/KestrelML -v $PWD:/home/dev/KestrelML lab/kestrel\n"},
        ),
        # the image has no folder of that name anywhere
        (README, {"Dockerfile": LAB.replace("KestrelML", "kestrel_src")}),
        # a script the README does not run
        ("# KestrelML\n\nBuild with `docker build .`\n", {}),
    ],
)
def test_mounts_the_image_may_read_are_no_finding(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _findings(tmp_path, readme, files) == []


MAPS = (
    "#!/bin/bash\n"
    "docker run --rm -it \\\n"
    '    -v "${PWD}/run-logs":"/home/dev/KestrelML/logs" \\\n'
    '    -v "${PWD}/model":"/home/dev/KestrelML/model" \\\n'
    "    -v ./plot_output:/home/dev/KestrelML/plots lab/kestrel\n"
)


def test_a_folder_the_readme_names_a_slip_off_the_one_its_script_maps(tmp_path: Path) -> None:
    readme = README + "\n* logs (`run-=logs/`)\n* plots (`plot_output/`)\n"
    assert _findings(tmp_path, readme, {"launch.sh": MAPS}) == [
        "11: README names run-=logs/, but launch.sh maps run-logs (launch.sh:3): did you mean run-logs/? "
        "(likely)"
    ]


@pytest.mark.parametrize(
    ("said", "files"),
    [
        ("`models/`", {}),  # a plural: a folder of its own as often as a slip
        ("`run-logz/`", {"run-logz/a.txt": ""}),  # there as written
        ("`plot_outputs/`", {}),  # a plural
        ("`old-runs/`", {"launch.sh": MAPS + "# docker run -v ./old-rune:/x lab/kestrel\n"}),  # a comment
        ("`runlogs/`", {"launch.sh": MAPS.replace("/run-logs", "/run-logs1")}),  # a digit away
        (
            "`run-=logs/`",
            {"launch.sh": MAPS.replace('"${PWD}/run-logs"', "/var/run-logs")},
        ),  # not the current folder
    ],
)
def test_names_no_slip_off_a_mapped_folder(tmp_path: Path, said: str, files: dict[str, str]) -> None:
    readme = README + f"\nThe folders: {said}.\n"
    assert _findings(tmp_path, readme, {"launch.sh": MAPS, **files}) == []


def test_a_run_script_linking_out_of_the_project_or_too_long_a_name_is_not_read(tmp_path: Path) -> None:
    # `./launch.sh` a link to a script outside the project: its mounts are not read (nothing is read
    # through a link out); a name longer than the file system allows is no script either
    outside = tmp_path / "elsewhere"
    make_tree(outside, {"launch.sh": LAUNCH})
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "launch.sh").symlink_to(outside / "launch.sh")
    make_tree(project, {"Dockerfile": LAB})
    model = build_model(project / "Dockerfile", "Dockerfile")
    assert audit(README, "README.md", model, {}, project) == []
    long_run = README.replace("./launch.sh", "./" + "a" * 300 + ".sh")
    assert audit(long_run, "README.md", model, {}, project) == []


STUDIO = (
    "FROM ubuntu:24.04 AS fetch\n"
    "RUN apt-get update && apt-get install -y git\n"
    "WORKDIR /srv\n"
    "RUN git clone https://example.com/acme/studio studio\n"
    "FROM ubuntu:24.04\n"
    "COPY --from=fetch /srv/studio /srv/studio\n"
    "COPY start.sh /usr/local/bin/start\n"
    "WORKDIR /srv/studio\n"
    "RUN mkdir -p weights inbox outbox\n"
    'VOLUME ["/srv/studio/weights", "/srv/studio/outbox"]\n'
    'ENTRYPOINT ["/usr/local/bin/start"]\n'
)
START = '#!/bin/sh\nexec python3 serve.py --port 9000 "$@"\n'
SAID = (
    "# Studio image\n\nThe studio at a fixed commit. "
    "Weights are mounted read-only at `/weights`, never baked in.\n"
)


def _volume_findings(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": STUDIO, "start.sh": START, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


@pytest.mark.parametrize(
    ("readme", "line", "by"),
    [
        (SAID, 3, "README says a folder is mounted at"),
        ("# Studio\n\n权重通过 `/weights` 只读挂载，不进入镜像。\n", 3, "README says a folder is mounted at"),
        ("# Run\n\n```sh\ndocker run -v $PWD/w:/weights:ro acme/studio\n```\n", 4, "README mounts"),
    ],
)
def test_a_mount_at_the_top_where_the_image_declares_the_volume_below_another_folder(
    tmp_path: Path, readme: str, line: int, by: str
) -> None:
    assert _volume_findings(tmp_path, readme) == [
        f"{line}: {by} /weights, but Dockerfile never names /weights: its volume for weights is "
        "/srv/studio/weights (line 10) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the image reads the top folder: a link, an ENV, the entrypoint's flag
        (SAID, {"Dockerfile": STUDIO + "RUN ln -s /weights /srv/studio/weights\n"}),
        (SAID, {"Dockerfile": STUDIO.replace("WORKDIR /srv/studio\n", "ENV WEIGHTS=/weights\n")}),
        (SAID, {"start.sh": START.replace('"$@"', '--weights /weights "$@"')}),
        # the README tells the program where it is
        (SAID + "\n```sh\ndocker run -e STUDIO_WEIGHTS=/weights acme/studio\n```\n", {}),
        (SAID + "\nStart it with `serve.py --weights /weights/base`.\n", {}),
        # the folder named is the host's, a maybe, or restated from an option
        ("Mount your host's `/weights` folder into the container.\n", {}),
        ("You can mount models at `/weights` if you like.\n", {}),
        ("Models are not mounted at `/weights`.\n", {}),
        ("`-v /data:/weights` mounts the weights.\n", {}),
        # the clause names both sides
        ("Mount `/weights` to `/srv/studio/weights`.\n", {}),
        # no VOLUME of that name below another folder, or one at the top
        (SAID.replace("/weights", "/inbox"), {}),
        (SAID, {"Dockerfile": STUDIO.replace('"/srv/studio/weights", ', "")}),
        (SAID, {"Dockerfile": STUDIO + "VOLUME /weights\n"}),
        # a base that may read the folder itself
        (SAID, {"Dockerfile": STUDIO.replace("FROM ubuntu:24.04\n", "FROM acme/serving:2\n")}),
        # a system folder
        (
            "# Run\n\n```sh\ndocker run -v $PWD/t:/tmp acme/studio\n```\n",
            {"Dockerfile": STUDIO + "VOLUME /srv/tmp\n"},
        ),
    ],
)
def test_mounts_at_the_top_the_image_may_read_are_no_finding(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _volume_findings(tmp_path, readme, files) == []


ROS = (
    "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
    "RUN apt-get update && apt-get install -y ros-humble-desktop\n"
    "# the workspace lives at the root\n"
    "WORKDIR /colcon_ws\n"
    "COPY ./entry.sh /entry.sh\n"
    'ENTRYPOINT ["/entry.sh"]\n'
)
ENTRY = (
    "#!/bin/bash\nsource /opt/ros/humble/setup.bash\n"
    "[ -f /colcon_ws/install/setup.bash ] && source /colcon_ws/install/setup.bash\n"
    'exec "$@"\n'
)
ROS_README = (
    "# Arm sim\n\n## Build\n\n```bash\ndocker build -t armsim:humble .\n```\n\n## Run\n\n```bash\n"
    "docker run -it --rm --net host \\\n"
    "    -v /tmp/.X11-unix:/tmp/.X11-unix \\\n"
    "    -v ~/arm_ws:/root/colcon_ws \\\n"
    "    armsim:humble\n```\n"
)
WEBUI = (
    "FROM python:3.11-slim\n"
    "RUN useradd -m painter\n"
    "USER painter\n"
    "WORKDIR /home/painter\n"
    "RUN git clone https://github.com/example/paint-studio.git /home/painter/paint-studio\n"
    "CMD paint-studio/launch.sh --listen\n"
)
WEBUI_README = (
    "# Paint studio in Docker\n\n```sh\n"
    "docker run --rm -p 7860:7860 -v models:/home/painter/Projects/paint-studio/models "
    "-v out:/home/painter/Projects/paint-studio/outputs example/paint-studio:latest\n```\n"
)


def _twin_findings(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_mount_of_the_workspace_below_a_home_while_the_image_keeps_it_at_the_top(tmp_path: Path) -> None:
    assert _twin_findings(tmp_path, ROS_README, {"Dockerfile": ROS, "entry.sh": ENTRY}) == [
        "14: README mounts /root/colcon_ws, but Dockerfile never names /root/colcon_ws: it puts colcon_ws "
        "at /colcon_ws (line 4) (likely)"
    ]


def test_a_mount_of_the_project_below_another_folder_of_the_home(tmp_path: Path) -> None:
    assert _twin_findings(tmp_path, WEBUI_README, {"Dockerfile": WEBUI}) == [
        "4: README mounts /home/painter/Projects/paint-studio/models, "
        "/home/painter/Projects/paint-studio/outputs, "
        "but Dockerfile never names /home/painter/Projects/paint-studio: it puts paint-studio at "
        "/home/painter/paint-studio (line 5) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the image names the mounted folder too: a home's form, a link, an env
        (ROS_README, {"Dockerfile": ROS + "RUN mkdir -p ~/colcon_ws\n", "entry.sh": ENTRY}),
        (ROS_README, {"Dockerfile": ROS, "entry.sh": ENTRY + "ln -sfn /root/colcon_ws /colcon_ws\n"}),
        (WEBUI_README, {"Dockerfile": WEBUI + "ENV STUDIO=$HOME/Projects/paint-studio\n"}),
        # the image makes the mounted folder itself
        (ROS_README, {"Dockerfile": ROS + "WORKDIR /root/colcon_ws\n", "entry.sh": ENTRY}),
        # the README starts the container in the mounted folder or tells the program of it
        (
            ROS_README.replace("--net host", "--net host -w /root/colcon_ws"),
            {"Dockerfile": ROS, "entry.sh": ENTRY},
        ),
        (
            ROS_README + "\nInside the container, `cd /root/colcon_ws && colcon build`.\n",
            {"Dockerfile": ROS, "entry.sh": ENTRY},
        ),
        # a scratch mount in /tmp or /mnt is a folder of its own
        (ROS_README.replace("/root/colcon_ws", "/mnt/colcon_ws"), {"Dockerfile": ROS, "entry.sh": ENTRY}),
        # a word any tree has, a placeholder the user fills
        (
            WEBUI_README.replace("paint-studio/", "models/"),
            {"Dockerfile": WEBUI.replace("paint-studio", "models")},
        ),
        (ROS_README.replace("/root/colcon_ws", "/root/<your_ws>"), {"Dockerfile": ROS, "entry.sh": ENTRY}),
        # the README's history says where the workspace was
        (
            ROS_README + "\n## Changes\n\n- v2: the workspace moved from `/root/colcon_ws`.\n",
            {"Dockerfile": ROS, "entry.sh": ENTRY},
        ),
    ],
)
def test_mounts_below_a_home_the_image_may_read_are_no_finding(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _twin_findings(tmp_path, readme, files) == []


def test_a_comment_url_or_image_name_naming_the_folder_keeps_the_finding(tmp_path: Path) -> None:
    readme = WEBUI_README + "\nOr pull `example/paint-studio` from the registry.\n"
    dockerfile = (
        WEBUI
        + "# an older layout: /home/$(whoami)/src/paint-studio\n"
        + "ADD https://example.com/x/paint-studio/a.txt /tmp/a\n"
    )
    assert [f[:16] for f in _twin_findings(tmp_path, readme, {"Dockerfile": dockerfile})] == [
        "4: README mounts"
    ]


def test_a_run_of_a_pre_built_release_mounts_into_that_image(tmp_path: Path) -> None:
    # the README builds armsim:jazzy and offers pre-built releases, humble among them; the run takes
    # armsim:humble: that image's folders are not the Dockerfile's, whose workspace moved
    offers = "\n## Pre-built images\n\n| Tag | ROS |\n|---|---|\n| humble | ROS 2 Humble |\n"
    readme = ROS_README.replace("docker build -t armsim:humble .", "docker build -t armsim:jazzy .")
    assert _twin_findings(tmp_path, readme + offers, {"Dockerfile": ROS, "entry.sh": ENTRY}) == []
    # a run of the tag built, in the same README, is still read
    both = readme + "\n```bash\ndocker run -it -v ~/arm_ws:/root/colcon_ws armsim:jazzy\n```\n" + offers
    got = _twin_findings(tmp_path, both, {"Dockerfile": ROS, "entry.sh": ENTRY})
    assert [g.split(":", 1)[0] for g in got if "never names" in g] == ["19"]


def test_a_run_of_a_stale_tag_still_runs_the_image_built(tmp_path: Path) -> None:
    # no release offered: the run's tag is a slip of the build's (a ROS 2 workspace image's README), and
    # the mount is still read against the Dockerfile
    readme = ROS_README.replace("docker build -t armsim:humble .", "docker build -t armsim:humble-cuda .")
    got = _twin_findings(tmp_path, readme, {"Dockerfile": ROS, "entry.sh": ENTRY})
    assert [g.split(":", 1)[0] for g in got if "never names" in g] == ["14"]


def test_a_run_of_another_project_s_image_mounts_into_that_image(tmp_path: Path) -> None:
    # a drone simulator's README: its own image built and run, then a stock image of the autopilot's
    # project run with a mount of its own layout: that image's folders are not the Dockerfile's
    stock = (
        "\n## Stock image\n\n```bash\n"
        "docker run -it -v ~/arm_ws:/root/colcon_ws osrf/ros2-dev:humble bash\n```\n"
    )
    own = ROS_README.replace("-v ~/arm_ws:/root/colcon_ws", "-v ~/arm_ws:/colcon_ws")
    assert _twin_findings(tmp_path, own + stock, {"Dockerfile": ROS, "entry.sh": ENTRY}) == []
    # a name a slip off the built one is the same image under a stale name: still read
    slip = own + stock.replace("osrf/ros2-dev:humble", "armsimm:humble")
    got = _twin_findings(tmp_path, slip, {"Dockerfile": ROS, "entry.sh": ENTRY})
    assert [g.split(":", 1)[0] for g in got if "never names" in g] == ["21"]
