"""ROS packages a README runs that the image's ROS variant lacks (`docgen/audit/ros_variants.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

BASE = """\
FROM ubuntu:22.04
ARG DISTRO=humble
RUN apt-get update && apt-get install -y --no-install-recommends curl gnupg2 lsb-release
# RUN apt-get install -y ros-${DISTRO}-desktop
RUN apt-get update && apt-get install -y ros-${DISTRO}-ros-base python3-colcon-common-extensions
CMD ["bash"]
"""

README = """\
# Rover base image

```bash
docker build -t rover .
docker run -it --rm rover
```

Check that ROS works in the container:

```bash
ros2 run demo_nodes_cpp talker
```

And in a second shell of it:

```bash
ros2 run turtlesim turtlesim_node
```
"""


def lacking(
    root: Path, readme: str = README, dockerfile: str = BASE, extra: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root)
        if "desktop variant" in d.message
    ]


def test_demo_packages_a_ros_base_install_lacks(tmp_path: Path) -> None:
    assert lacking(tmp_path) == [
        (
            11,
            "README runs `ros2 run demo_nodes_cpp` and `ros2 run turtlesim` in the image, but Dockerfile:5 "
            "installs ROS as ros-${DISTRO}-ros-base, which has no demo_nodes_cpp, turtlesim (the demos, "
            "turtlesim, rviz and rqt come with the desktop variant), and nothing else of the build installs "
            "them; also at line 17",
            "likely",
        )
    ]


def test_other_ros_packages_that_bring_no_viewer(tmp_path: Path) -> None:
    middleware = BASE.replace(
        "python3-colcon", "ros-${DISTRO}-rmw-cyclonedds-cpp ros-dev-tools python3-colcon"
    )
    assert [line for line, _, _ in lacking(tmp_path, dockerfile=middleware)] == [11]


def test_an_official_ros_base_image(tmp_path: Path) -> None:
    dockerfile = "FROM ros:noetic\nRUN apt-get update && apt-get install -y python3-catkin-tools\n"
    readme = "# Noetic\n\nIn the container:\n\n```bash\nrosrun rviz rviz\n```\n"
    [(line, message, _)] = lacking(tmp_path, readme, dockerfile)
    assert line == 6
    assert "Dockerfile:1 installs ROS as ros:noetic, which has no rviz" in message


def test_traps_stay_silent(tmp_path: Path) -> None:
    desktop = BASE.replace("ros-${DISTRO}-ros-base", "ros-${DISTRO}-desktop")
    assert lacking(tmp_path / "desktop", dockerfile=desktop) == []
    osrf = "FROM osrf/ros:humble-desktop-full\nRUN apt-get update\n"
    assert lacking(tmp_path / "osrf", dockerfile=osrf) == []
    # a build stage on ros-base and the image on desktop: not every variant lacks them
    both = "FROM ros:humble AS build\nRUN echo build\nFROM osrf/ros:humble-desktop\nRUN echo run\n"
    assert lacking(tmp_path / "both", dockerfile=both) == []
    # the packages installed by name (apt spells them with dashes)
    named = BASE.replace(
        "python3-colcon", "ros-${DISTRO}-demo-nodes-cpp ros-${DISTRO}-turtlesim python3-colcon"
    )
    assert lacking(tmp_path / "named", dockerfile=named) == []
    # a robot stack whose dependencies may bring the viewers and demos
    stack = BASE.replace("python3-colcon", "ros-${DISTRO}-nav2-bringup python3-colcon")
    assert lacking(tmp_path / "stack", dockerfile=stack) == []
    # sources fetched or dependencies installed by rosdep, a script that may install more
    rosdep = BASE.replace('CMD ["bash"]', 'RUN rosdep install --from-paths src -y\nCMD ["bash"]')
    assert lacking(tmp_path / "rosdep", dockerfile=rosdep) == []
    script = BASE.replace('CMD ["bash"]', 'RUN bash install_extras.sh\nCMD ["bash"]')
    assert lacking(tmp_path / "script", dockerfile=script) == []
    # no ROS variant known: another base, nothing installed by metapackage
    unknown = "FROM example/robot-stack:3.1\nRUN echo ready\n"
    assert lacking(tmp_path / "unknown", dockerfile=unknown) == []
    # a package of that name in the repository (a workspace the image builds)
    package = {"src/turtlesim/package.xml": "<package><name>turtlesim</name></package>\n"}
    only_turtle = README.replace("ros2 run demo_nodes_cpp talker", "ros2 run my_rover drive")
    assert lacking(tmp_path / "package", only_turtle, extra=package) == []
    # the README installs them itself, or a desktop variant
    installs = README.replace(
        "Check that",
        "```bash\napt-get install -y ros-humble-demo-nodes-cpp ros-humble-turtlesim\n```\n\nCheck that",
    )
    assert lacking(tmp_path / "installs", installs) == []
    upgrade = README.replace(
        "Check that", "```bash\napt-get install -y ros-humble-desktop\n```\n\nCheck that"
    )
    assert lacking(tmp_path / "upgrade", upgrade) == []
    # blocks introduced as run elsewhere, a docker line of another ROS image, code in prose
    host = README.replace("Check that ROS works in the container:", "On your host, check ROS:").replace(
        "And in a second shell of it:", "Then on another computer:"
    )
    assert lacking(tmp_path / "host", host) == []
    other = (
        "# Rover\n\n```bash\ndocker run -it osrf/ros:humble-desktop ros2 run demo_nodes_cpp listener\n```\n"
    )
    assert lacking(tmp_path / "other", other) == []
    prose = "# Rover\n\nWatch it with `ros2 run rviz2 rviz2` on your laptop.\n"
    assert lacking(tmp_path / "prose", prose) == []
    # a package of the README's own (not one of the desktop's)
    own = "# Rover\n\n```bash\nros2 run rover_nav planner\n```\n"
    assert lacking(tmp_path / "own", own) == []


# A ROS distribution the README names for the image that the Dockerfile's contradicts (`ros_distro_claims`).

SIM = """\
FROM example/sim:4.5.0
ENV LANG=C.UTF-8
ENV ROS_DISTRO=humble
RUN apt-get update && apt-get install -y ros-humble-desktop ros-humble-vision-msgs ros-dev-tools
# ENV ROS_DISTRO=jazzy
RUN /bin/bash -c "source /opt/ros/humble/setup.sh && colcon build"
"""
"""The shape of a simulator image with a ROS 2 workspace: one distribution, named four ways."""


def distro(root: Path, readme: str, dockerfile: str = SIM) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root)
        if "installs ROS " in d.message
    ]


def test_a_distribution_the_image_does_not_hold(tmp_path: Path) -> None:
    # copied from the sibling image of another distribution
    readme = "# Sim ROS 2\n\nThis Dockerfile provides a ready-to-use ROS2 jazzy workspace for the sim.\n"
    assert distro(tmp_path / "sim", readme) == [
        (3, "README says ROS2 jazzy but Dockerfile:3 installs ROS humble (ROS_DISTRO=humble)", "likely")
    ]
    # an official base image of ROS 1 under a README of another ROS 1 distribution
    noetic = (
        "FROM ros:noetic-ros-base AS ros1\nRUN apt-get update && apt-get install -y python3-catkin-tools\n"
    )
    readme = "# Rover\n\nA **ROS Melodic** image with the rover's drivers.\n"
    assert distro(tmp_path / "noetic", readme, noetic) == [
        (3, "README says ROS Melodic but Dockerfile:1 installs ROS noetic (ros:noetic)", "likely")
    ]


def test_distribution_traps_stay_silent(tmp_path: Path) -> None:
    assert distro(tmp_path / "true", "# Sim\n\nA ready-to-use ROS 2 Humble workspace.\n") == []
    # a bridge image holding two distributions
    bridge = "FROM osrf/ros:humble-desktop\nRUN apt-get install -y ros-noetic-ros-base\n"
    assert distro(tmp_path / "bridge", "# Bridge\n\nA ROS 2 Jazzy bridge.\n", bridge) == []
    # a README about a family of images, or naming two distributions
    family = (
        "# Images\n\nOne image per ROS 2 distribution.\n\n- the ROS 2 Jazzy image\n- the ROS 2 Humble image\n"
    )
    assert distro(tmp_path / "family", family) == []
    # history, a choice, what something supports, the host or another machine
    for n, said in enumerate(
        (
            "This workspace was ported from ROS 2 Jazzy.",
            "Pick ROS 2 Jazzy or the default.",
            "The nodes support ROS 2 Jazzy.",
            "Run the bridge on a robot with ROS Noetic.",
        )
    ):
        assert distro(tmp_path / f"said{n}", f"# Sim\n\n{said}\n") == []
    host = "# Sim\n\n## Host setup\n\nInstall ROS 2 Jazzy on the workstation first.\n"
    assert distro(tmp_path / "host", host) == []
    # no distribution known: a variable with no value in the Dockerfile, only a comment naming one
    unknown = (
        "FROM example/sim:4.5.0\nARG ROS_DISTRO\n# ros-jazzy-desktop\n"
        "RUN apt-get install -y ros-${ROS_DISTRO}-desktop\n"
    )
    assert distro(tmp_path / "unknown", "# Sim\n\nA ROS 2 Jazzy workspace.\n", unknown) == []


# A path of a ROS distribution's install a README uses in the container while the image holds another
# (`ros_distro_paths`).

FLYER = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y curl gnupg2 lsb-release
RUN apt-get install -y ros-jazzy-desktop python3-colcon-common-extensions
RUN echo "source /opt/ros/jazzy/setup.bash" >> /root/.bashrc
ENV ROS_DISTRO=jazzy
"""
"""The shape of a drone simulator image that installs ROS 2 from apt on a plain Ubuntu."""


def sourced(root: Path, readme: str, dockerfile: str = FLYER) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root)
        if "/opt/ros/" in d.message and "in the container" in d.message
    ]


def test_a_distribution_path_the_image_lacks(tmp_path: Path) -> None:
    readme = (
        "# Flyer\n\n```bash\ndocker run -it --rm flyer bash\n```\n\n## Inside the container\n\n"
        "```bash\nsource /opt/ros/humble/setup.bash\ncd ~/ws && colcon build\n```\n"
    )
    assert sourced(tmp_path / "flyer", readme) == [
        (
            10,
            "README runs `source /opt/ros/humble/setup.bash` in the container, but Dockerfile:3 installs "
            "ROS jazzy (ros-jazzy-desktop): /opt/ros/humble is not in the image, so the command fails "
            "(No such file or directory)",
            "likely",
        )
    ]
    # a ROS 1 image from an official base, entered with docker exec, the path said twice
    arm = "FROM ros:noetic-robot\nRUN apt-get update && apt-get install -y python3-catkin-tools\n"
    readme = (
        "# Arm\n\n```sh\ndocker exec -it arm bash\n. /opt/ros/melodic/setup.sh\n"
        "roslaunch arm_bringup arm.launch\n```\n\nThen again:\n\n```sh\n. /opt/ros/melodic/setup.sh\n```\n"
    )
    found = sourced(tmp_path / "arm", readme, arm)
    assert [(line, confidence) for line, _, confidence in found] == [(5, "likely")]
    assert "Dockerfile:1 installs ROS noetic (ros:noetic)" in found[0][1]
    assert found[0][1].endswith("; also at line 12")


def test_distribution_path_traps_stay_silent(tmp_path: Path) -> None:
    # the path of the image's own distribution
    same = "# Flyer\n\n```bash\nsource /opt/ros/jazzy/setup.bash\n```\n"
    assert sourced(tmp_path / "same", same) == []
    # on the host: its heading, or the block's introduction
    host = "# Flyer\n\n## Host setup\n\n```bash\nsource /opt/ros/humble/setup.bash\nrviz2\n```\n"
    assert sourced(tmp_path / "host", host) == []
    laptop = (
        "# Flyer\n\nOn your laptop, watch the topics:\n\n```bash\nsource /opt/ros/humble/setup.bash\n```\n"
    )
    assert sourced(tmp_path / "laptop", laptop) == []
    # a ROS install mounted from the host, another ROS image
    mounted = "# Flyer\n\n```bash\ndocker run -v /opt/ros/humble:/opt/ros/humble flyer\n```\n"
    assert sourced(tmp_path / "mounted", mounted) == []
    other = (
        "# Flyer\n\n```bash\ndocker run osrf/ros:humble-desktop bash -c '. /opt/ros/humble/setup.sh'\n```\n"
    )
    assert sourced(tmp_path / "other", other) == []
    # a Dockerfile fragment the README shows in a block with no language: a build step, not a command
    fragment = (
        "# Flyer\n\nThe old build:\n\n```\nRUN source /opt/ros/humble/setup.bash && colcon build\n```\n"
    )
    assert sourced(tmp_path / "fragment", fragment) == []
    # a README covering two distributions, one of them the image's
    both = (
        "# Flyer\n\n```bash\n# Jazzy\nsource /opt/ros/jazzy/setup.bash\n# Humble\n"
        "source /opt/ros/humble/setup.bash\n```\n"
    )
    assert sourced(tmp_path / "both", both) == []
    # the README picks the distribution through a build arg of a Dockerfile that reads it
    chosen = "ARG ROS_DISTRO=jazzy\nFROM ros:${ROS_DISTRO}\n"
    picked = (
        "# Flyer\n\n```bash\ndocker build --build-arg ROS_DISTRO=humble -t flyer .\n"
        "docker run flyer bash -c 'source /opt/ros/humble/setup.bash && ros2 topic list'\n```\n"
    )
    assert sourced(tmp_path / "picked", picked, chosen) == []
    # the Dockerfile names no distribution (built from a base docgen does not read)
    unknown = "FROM example/robot-base:2.1\nRUN apt-get update && apt-get install -y python3-pip\n"
    assert (
        sourced(tmp_path / "unknown", "# Flyer\n\n```bash\nsource /opt/ros/humble/setup.bash\n```\n", unknown)
        == []
    )
