"""`docgen audit`: a ROS launch file a README runs that its package, in the repository, does not have
(docgen/audit/launch_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM ros:noetic-ros-base\nWORKDIR /home/ros\nCOPY ws /home/ros\n"
PACKAGE = "<package format='2'>\n  <name>rover_nav</name>\n  <version>0.1.0</version>\n</package>\n"
TREE = {
    "Dockerfile": DOCKERFILE,
    "ws/src/rover_nav/package.xml": PACKAGE,
    "ws/src/rover_nav/CMakeLists.txt": "project(rover_nav)\n",
    "ws/src/rover_nav/launch/follow.launch": "<launch>\n  <node pkg='rover_nav' type='run' />\n</launch>\n",
    "ws/src/rover_nav/launch/map.launch": "<launch/>\n",
}


def _findings(root: Path, readme: str, tree: dict[str, str] | None = None) -> list[str]:
    make_tree(root, TREE if tree is None else tree)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_a_launch_file_the_package_does_not_have(tmp_path: Path) -> None:
    readme = "# Rover\n\n```bash\ncatkin_make\nroslaunch rover_nav rover_nav.launch\n```\n"
    assert _findings(tmp_path, readme) == [
        "5: README runs `roslaunch rover_nav rover_nav.launch`, but package rover_nav (ws/src/rover_nav) has "
        "no rover_nav.launch: it has launch/follow.launch, launch/map.launch (certain)"
    ]


def test_ros2_launch_with_options_and_arguments_told_once(tmp_path: Path) -> None:
    readme = (
        "Run `ros2 launch rover_nav follow.launch.py use_sim:=true`.\n\n"
        "```bash\nros2 launch --debug rover_nav follow.launch.py\n```\n"
    )
    assert [f[:61] for f in _findings(tmp_path, readme)] == [
        "1: README runs `ros2 launch rover_nav follow.launch.py`, but "
    ]
    assert _findings(tmp_path, readme)[0].endswith("; also at line 4 (certain)")


def test_a_package_named_by_its_folder_with_a_launch_folder(tmp_path: Path) -> None:
    tree = {"Dockerfile": DOCKERFILE, "ros/src/arm_ctl/launch/arm.launch": "<launch/>\n"}
    readme = "```\nroslaunch arm_ctl arms.launch\n```\n"
    assert [f[:3] for f in _findings(tmp_path, readme, tree)] == ["2: "]


@pytest.mark.parametrize(
    "command",
    [
        "roslaunch rover_nav follow.launch",  # the package has it
        "roslaunch rover_nav follow.launch speed:=2",
        "roslaunch realsense2_camera rs_camera.launch",  # a package not in the repository
        "roslaunch rover_nav $LAUNCH_FILE",  # a variable
        "roslaunch rover_nav/launch/follw.launch",  # a path, not a package and a file
        "rosrun rover_nav follow_node.py",  # no launch command
    ],
)
def test_launch_commands_that_say_nothing(tmp_path: Path, command: str) -> None:
    assert _findings(tmp_path, f"```bash\n{command}\n```\n") == []


def test_a_launch_file_the_readme_writes(tmp_path: Path) -> None:
    readme = (
        "```bash\ncat > ws/src/rover_nav/launch/demo.launch <<EOF\n<launch/>\nEOF\n"
        "roslaunch rover_nav demo.launch\n```\n"
    )
    assert _findings(tmp_path, readme) == []


def test_a_launch_file_the_package_makes(tmp_path: Path) -> None:
    tree = dict(TREE)
    tree["ws/src/rover_nav/CMakeLists.txt"] = "configure_file(demo.launch.in launch/demo.launch)\n"
    assert _findings(tmp_path, "```bash\nroslaunch rover_nav demo.launch\n```\n", tree) == []


def test_a_launch_file_the_dockerfile_names(tmp_path: Path) -> None:
    tree = dict(TREE)
    tree["Dockerfile"] = DOCKERFILE + "COPY demo.launch /home/ros/src/rover_nav/launch/\n"
    assert _findings(tmp_path, "```bash\nroslaunch rover_nav demo.launch\n```\n", tree) == []


def test_a_second_package_of_the_name_holding_it(tmp_path: Path) -> None:
    tree = dict(TREE)
    tree["third_party/rover_nav/package.xml"] = PACKAGE
    tree["third_party/rover_nav/launch/demo.launch"] = "<launch/>\n"
    assert _findings(tmp_path, "```bash\nroslaunch rover_nav demo.launch\n```\n", tree) == []


def test_a_launch_file_elsewhere_in_the_package(tmp_path: Path) -> None:
    tree = dict(TREE)
    tree["ws/src/rover_nav/config/demo.launch"] = "<launch/>\n"
    assert _findings(tmp_path, "```bash\nroslaunch rover_nav demo.launch\n```\n", tree) == []


def test_many_launch_commands_read_the_readme_and_the_package_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each missing launch file looked for its name in the whole README and read every file of its
    # package again: 2,000 commands took 4.6 s, 8,000 took 42 s. Now the README's words and each file's
    # are counted once.
    from docgen.audit import launch_files

    reads: list[Path] = []
    real = launch_files.text_or_none

    def counted(path: Path, *rest: int) -> str | None:
        reads.append(path)
        return real(path, *rest)

    monkeypatch.setattr(launch_files, "text_or_none", counted)
    commands = "".join(f"roslaunch rover_nav n{k}.launch\n" for k in range(300))
    readme = f"```bash\n{commands}```\n\nThe step writes `n7.launch` first.\n"
    found = _findings(tmp_path, readme)
    assert len(found) == 299 and found[0].startswith("2: README runs `roslaunch rover_nav n0.launch`")
    assert " n7.launch" not in "".join(found)  # named elsewhere in the README: a step may write it
    assert len(reads) == 5  # package.xml to find the package, then each of its 4 files once
