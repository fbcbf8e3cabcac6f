"""`docgen.audit.codenames`: a codename the README gives a component of the image (`Gazebo Harmonic`)
against the default of the build arg named for that component's version (`ARG GAZEBO_VERSION=fortress`).
Each drift is planted next to the traps nearest to it."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

# modelled on a robotics image on a CUDA base: its environment listed under the title
SIM = """\
ARG ROS_DISTRO=humble
ARG GAZEBO_VERSION=fortress
FROM nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG ROS_DISTRO
ARG GAZEBO_VERSION
RUN apt-get update && apt-get install -y ros-${ROS_DISTRO}-desktop ignition-${GAZEBO_VERSION}
"""

SIM_README = """\
# Robot sim

## Environment

- Ubuntu 22.04
- ROS 2 Humble
- Gazebo Harmonic

## Build

```bash
docker build -t robot-sim .
```
"""

SAID = "README says Gazebo Harmonic but Dockerfile:2 sets GAZEBO_VERSION=fortress (Gazebo Fortress)"


def _codenames(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    models = [build_model(root / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message}"
        for d in audit(readme, "README.md", models, {}, root)
        if "(Gazebo " in d.message or "(Debian " in d.message
    ]


def test_a_gazebo_release_the_arg_no_longer_defaults_to(tmp_path: Path) -> None:
    assert _codenames(tmp_path, SIM_README, SIM) == [f"7: {SAID}"]
    assert _codenames(tmp_path, SIM_README, SIM.replace("=fortress", "=harmonic")) == []
    assert _codenames(tmp_path, SIM_README.replace("Gazebo Harmonic", "Ignition **Fortress**"), SIM) == []


def test_releases_that_are_not_the_image_s(tmp_path: Path) -> None:
    for trap in (
        SIM_README.replace("- Gazebo Harmonic", "- Gazebo (ported from Gazebo Harmonic)"),  # history
        SIM_README.replace("- Gazebo Harmonic", "- Gazebo Harmonic\n- Gazebo Fortress"),  # two of them
        SIM_README.replace("robot-sim .", "--build-arg GAZEBO_VERSION=harmonic -t robot-sim ."),  # passed
        SIM_README.replace("## Environment", "## Tested environment"),  # the host's
        SIM_README.replace("Gazebo Harmonic", "Gazebo simulator"),  # no codename
    ):
        assert _codenames(tmp_path, trap, SIM) == [], trap
    numeric = SIM.replace("GAZEBO_VERSION=fortress", "GAZEBO_VERSION=8")  # a number: compared elsewhere
    assert _codenames(tmp_path, SIM_README, numeric) == []


# modelled on a web service whose slim base and system libraries follow one Debian release
WEB = """\
ARG DEBIAN_RELEASE=bullseye
FROM python:3.11-slim-${DEBIAN_RELEASE}
RUN apt-get update && apt-get install -y libpq5
"""


def test_a_debian_release_of_a_web_image(tmp_path: Path) -> None:
    readme = "# Shop API\n\nThe image runs on Debian Bookworm with libpq.\n"
    assert _codenames(tmp_path, readme, WEB) == [
        "3: README says Debian Bookworm but Dockerfile:1 sets DEBIAN_RELEASE=bullseye (Debian Bullseye)"
    ]
    upgraded = "# Shop API\n\nThe image was upgraded from Debian Bookworm.\n"
    assert _codenames(tmp_path, upgraded, WEB) == []
    sibling = WEB + "ARG DEBIAN_RELEASE=bookworm\n"  # two defaults: not one release
    assert _codenames(tmp_path, readme, sibling) == []
