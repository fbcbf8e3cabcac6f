"""A ROS package a README runs in the image (`ros2 run demo_nodes_cpp talker`, `rosrun turtlesim
turtlesim_node`) that the ROS variant the image installs does not have: the demos, the tutorials,
turtlesim, rviz and rqt come with the `desktop` variant, not with `ros-core`, `ros-base`, `robot` or
`perception` (the apt metapackage `ros-humble-ros-base`, the official base image `ros:humble`).

The variant is read from the audited Dockerfiles: an apt metapackage `ros-DISTRO-VARIANT` (the distro may
be a variable: `ros-${ROS_DISTRO}-ros-base`) on a line that is no comment, or a base image `ros:TAG` or
`osrf/ros:TAG` (`ros:noetic` is `ros-base`). A claim only when every variant read is one without the
package and at least one is read: a `desktop` anywhere, another variant, or none known is no claim. Nor
when a Dockerfile names the package (either spelling: `demo_nodes_cpp`, `demo-nodes-cpp`), installs a ROS
stack whose dependencies may bring it (`ros-humble-nav2-bringup`, `…-turtlebot3`, `…-moveit`, a
simulator: `_PULLS_DESKTOP`), fetches sources (`vcs import`, `rosinstall`, `wstool`, `rosdep install`) or
runs a script that may install more, when the repository holds a ROS package of that name (a workspace
the image builds), or when the README installs it or a desktop variant itself (`apt install
ros-humble-demo-nodes-cpp`). A command is read from a command block (`rosrun`, `roslaunch`, `ros2 run`,
`ros2 launch`, options before the package skipped) that its introduction does not say runs elsewhere (`on
the host`, `on another computer`, `locally`: a desktop install there has the demos), in a section not
about the host; a `docker` line naming another ROS image (`docker run osrf/ros:humble-desktop ros2 run
…`) is not about this one; a command in a code span of prose is not read (`view it with `rviz2` on your
laptop`). `likely`: the base image, not a ROS one, may have brought the package.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.aside import is_host_heading
from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.copies import runs_unread
from docgen.audit.launch_files import ros_packages
from docgen.audit.wording import COMMAND_LANGS
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic, ImageModel

_DESKTOP_ONLY = frozenset(
    {
        "action_tutorials_cpp",
        "action_tutorials_py",
        "composition",
        "demo_nodes_cpp",
        "demo_nodes_cpp_native",
        "demo_nodes_py",
        "dummy_robot_bringup",
        "examples_rclcpp_minimal_publisher",
        "examples_rclcpp_minimal_subscriber",
        "examples_rclpy_minimal_publisher",
        "examples_rclpy_minimal_subscriber",
        "image_tools",
        "intra_process_demo",
        "logging_demo",
        "pendulum_control",
        "quality_of_service_demo_cpp",
        "quality_of_service_demo_py",
        "roscpp_tutorials",
        "rospy_tutorials",
        "rqt_console",
        "rqt_graph",
        "rqt_gui",
        "rviz",
        "rviz2",
        "topic_monitor",
        "turtlesim",
    }
)
"""ROS packages of the `desktop` variant (demos, tutorials, viewers) that `ros-core`, `ros-base`,
`robot` and `perception` lack, in ROS 1 and ROS 2."""
_WITHOUT = frozenset({"ros-core", "ros-base", "robot", "perception"})
"""The variants without `_DESKTOP_ONLY`."""
_RUN = re.compile(
    r"(?<![\w/.-])(rosrun|roslaunch|ros2[ \t]+run|ros2[ \t]+launch)((?:[ \t]+-[\w-]+)*)[ \t]+"
    r"([a-z][a-z0-9_]*)(?![\w./-])"
)
"""`rosrun PKG …`, `ros2 run PKG …`, `roslaunch PKG …`, `ros2 launch PKG …` (options before PKG)."""
_APT_VARIANT = re.compile(
    r"\bros-(?:\$\{?[A-Za-z_]\w*\}?|[a-z]+)-(ros-core|ros-base|desktop-full|desktop|robot|perception"
    r"|simulators|viz)(?![\w-])"
)
"""A ROS metapackage of apt: `ros-humble-ros-base`, `ros-${ROS_DISTRO}-desktop`."""
_BASE_VARIANT = re.compile(
    r"(?:^|/)(?:osrf/)?ros:([a-z]+)(?:-(ros-core|ros-base|desktop-full|desktop|robot|perception|simulators))?"
    r"(?:-[a-z]+)?$"
)
"""An official ROS image (`ros:humble`, `ros:noetic-ros-base-focal`, `osrf/ros:humble-desktop`): the
variant of its tag, `ros-base` when it has none."""
_ROS_APT = re.compile(r"\bros-(?:\$\{?[A-Za-z_]\w*\}?|[a-z]+)-([a-z0-9][a-z0-9-]*)")
"""Any ROS apt package of a distro: `ros-humble-nav2-bringup`, `ros-${ROS_DISTRO}-turtlebot3`."""
_PULLS_DESKTOP = re.compile(
    r"nav2|navigation|turtlebot|moveit|gazebo|\bgz\b|ros-gz|ign|bringup|simulat|rviz|rqt|tutorial|demo|viz"
    r"|slam|cartographer|webots"
)
"""Words of a ROS package that may depend on a viewer, a demo or turtlesim (a robot stack, a simulator, a
bringup): with one installed the image may hold what `desktop` has."""
_SOURCES = re.compile(r"\b(?:vcs[ \t]+import|rosinstall|wstool|rosdep[ \t]+install)\b")
"""A build step that fetches ROS sources or installs what a workspace depends on."""


def _variants(models: Sequence[ImageModel]) -> tuple[set[str], list[tuple[str, int, str]], list[str]]:
    """The ROS variants the audited images install (apt metapackages, official base images); where
    each is read (Dockerfile path, line, as written); the Dockerfiles' texts, comment lines dropped.
    Empty variants when a Dockerfile cannot be read or may install what it does not name."""
    variants: set[str] = set()
    where: list[tuple[str, int, str]] = []
    texts: list[str] = []
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            return set(), [], []
        lines = read[0].splitlines()
        kept = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
        texts.append(kept)
        if _SOURCES.search(kept) or any(
            runs_unread(i.args) for i in read[1].instructions if i.keyword.upper() == "RUN"
        ):
            return set(), [], []
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("#"):
                continue
            for match in _APT_VARIANT.finditer(line):
                variants.add(match.group(1))
                where.append((model.path, number, match.group()))
            if any(_PULLS_DESKTOP.search(m.group(1)) for m in _ROS_APT.finditer(line)):
                return set(), [], []  # a stack whose dependencies may bring the viewers and demos
        for stage in model.stages:
            image = stage.base.split("@", 1)[0]
            if (tagged := _BASE_VARIANT.search(image)) is not None:
                variants.add(tagged.group(2) or "ros-base")
                where.append((model.path, stage.line, image))
    return variants, where, texts


_ELSEWHERE = re.compile(
    r"\b(?:host|locally|local[ \t]+machine|outside|another[ \t]+(?:computer|machine|pc|laptop|device)"
    r"|your[ \t]+(?:own[ \t]+)?(?:computer|machine|laptop|pc|workstation))\b",
    re.IGNORECASE,
)
"""Words of a block's introduction saying it runs outside the image (`on the host`, `on another
computer`, `locally`): ROS there may be a desktop install."""


def _intro(lines: Sequence[str], fence: Fence) -> str:
    """The README's lines `lines` of the two above `fence`'s opening (its introduction), joined."""
    opening = fence.lines[0][0] - 1 if fence.lines else 0
    return " ".join(lines[max(0, opening - 3) : max(0, opening - 1)])


def _commands(doc: Document, text: str) -> Iterator[tuple[int, str, str]]:
    """(README line, command as written, package) of each ROS command of a `_DESKTOP_ONLY` package in a
    command block not introduced as run elsewhere (`_ELSEWHERE`); a `docker` line naming another ROS
    image is left out."""
    readme = text.splitlines()
    lines = [
        (n, t)
        for fence in doc.fences
        if fence.lang in COMMAND_LANGS and _RUN.search("\n".join(t for _, t in fence.lines))
        if not _ELSEWHERE.search(_intro(readme, fence))
        for n, t in fence.lines
    ]
    for number, text in lines:
        if "docker" in text and re.search(r"(?:osrf/)?ros:|desktop", text):
            continue
        for match in _RUN.finditer(text):
            if match.group(3) in _DESKTOP_ONLY:
                command = f"{' '.join(match.group(1).split())} {match.group(3)}"
                yield number, command, match.group(3)


def _spellings(package: str) -> re.Pattern[str]:
    """The package's name as apt (`demo-nodes-cpp`) or ROS (`demo_nodes_cpp`) spells it, whole."""
    dashed = package.replace("_", "-")
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{re.escape(package)}|{re.escape(dashed)})(?![\w-])")


def ros_variants(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """One finding for the ROS packages the README runs that the image's ROS variant lacks (see the
    module's docstring), `likely`, at the first line, naming the others."""
    commands = list(_commands(doc, text))
    if not commands:
        return
    variants, where, texts = _variants(models)
    if not variants or not variants <= _WITHOUT:
        return
    if re.search(r"\bros-(?:\$\{?\w+\}?|[a-z]+)-desktop\b", text):
        return  # the README installs a desktop variant itself
    built = ros_packages(directory, {package for _, _, package in commands}) or {}
    lacking: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for line, command, package in commands:
        said = _spellings(package)
        if package in built or any(said.search(t) for t in texts):
            continue
        if any(said.search(m.group()) for m in re.finditer(r"\bros-\S+", text)):
            continue  # the README installs it (`apt install ros-humble-demo-nodes-cpp`)
        lacking.setdefault(package, []).append(line)
        shown.setdefault(package, command)
    if not lacking:
        return
    lines = sorted(line for found in lacking.values() for line in found)
    runs = " and ".join(f"`{shown[p]}`" for p in sorted(lacking, key=lambda p: lacking[p][0]))
    path, at, written = where[0]
    names = ", ".join(sorted(lacking))
    message = (
        f"README runs {runs} in the image, but {path}:{at} installs ROS as {written}, which has no {names} "
        f"(the demos, turtlesim, rviz and rqt come with the desktop variant), and nothing else of the "
        f"build installs {'it' if len(lacking) == 1 else 'them'}{also_at(lines)}"
    )
    yield Diagnostic(readme, lines[0], message, confidence=LIKELY)


ROS_DISTROS = frozenset(
    "boxturtle cturtle diamondback electric fuerte groovy hydro indigo jade kinetic lunar melodic noetic "
    "ardent bouncy crystal dashing eloquent foxy galactic humble iron jazzy kilted lyrical rolling".split()
)
"""The names of the ROS 1 and ROS 2 distributions."""
_DISTRO_FACT = re.compile(
    r"\bROS_DISTRO[ \t]*(?:=|[ \t])[ \t]*[\"']?([a-z]+)(?![\w$])"
    r"|(?<![\w-])ros-([a-z]+)-[a-z0-9][a-z0-9-]*"
    r"|/opt/ros/([a-z]+)(?![\w-])"
    r"|(?:^|[\s/])ros:([a-z]+)(?![\w.])"
)
"""Where a Dockerfile line names the ROS distribution of the image: `ENV ROS_DISTRO=humble`, an apt
package `ros-humble-desktop`, `/opt/ros/humble`, a base image `ros:humble`, `osrf/ros:humble-desktop`."""
_DISTRO_CLAIM = re.compile(r"\bROS[ \t]?[12]?[ \t]+\**([A-Za-z]+)\b", re.IGNORECASE)
"""A README naming a ROS distribution: `ROS2 jazzy`, `ROS 2 Humble`, `ROS Noetic`, `ros **jazzy**`."""
_NOT_THE_IMAGE = re.compile(
    r"\b(?:from|ported|porting|migrat\w*|previous\w*|former\w*|older|legacy|upgrad\w*|downgrad\w*|instead"
    r"|support\w*|compatib\w*|or|also|switch\w*|tested|unlike|until|was|were|used|deprecated|eol|host"
    r"|laptop|locally|outside|machine|computer|robot|branch\w*|version\w*|sibling|other)\b",
    re.IGNORECASE,
)
"""Words of a sentence naming a distribution that is not (only) the image's: its history (`ported from
Jazzy`), a choice (`Humble or Jazzy`), what something supports, the host or the robot that runs it."""


def _distro_facts(models: Sequence[ImageModel]) -> dict[str, tuple[str, int, str]] | None:
    """The ROS distributions the audited Dockerfiles name outside comments, each with where it is
    first named (path, line, as written); None when one cannot be read."""
    facts: dict[str, tuple[str, int, str]] = {}
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            return None
        for number, line in enumerate(read[0].splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for match in _DISTRO_FACT.finditer(line):
                distro = next(g for g in match.groups() if g is not None)
                if distro in ROS_DISTROS:
                    facts.setdefault(distro, (model.path, number, match.group().strip()))
    return facts


def ros_distro_claims(doc: Document, models: Sequence[ImageModel], readme: str) -> Iterator[Diagnostic]:
    """A ROS distribution the README's prose names for the image (`This Dockerfile provides a ROS2
    jazzy environment`) while the audited Dockerfiles hold exactly one other (`ENV ROS_DISTRO=humble`,
    `ros-humble-desktop`, `/opt/ros/humble`, `FROM ros:humble`), `likely`, told once at the first line.
    No claim when the Dockerfiles name two distributions (a bridge image, `ros1_bridge`), when the
    README's prose names two (a family of images, a bridge), in a section about the host, or in a
    sentence about the history, a choice, what something supports, or another machine
    (`_NOT_THE_IMAGE`)."""
    claims: list[tuple[int, str, str]] = []
    named: set[str] = set()
    for para in doc.paragraphs:
        host = is_host_heading(para.heading)
        for line, text in para.lines:
            for match in _DISTRO_CLAIM.finditer(text):
                distro = match.group(1).lower()
                if distro not in ROS_DISTROS:
                    continue
                named.add(distro)
                if not host and not _NOT_THE_IMAGE.search(text):
                    claims.append((line, distro, match.group().replace("*", "")))
    if len(named) != 1 or not claims:
        return
    facts = _distro_facts(models)
    if facts is None or len(facts) != 1:
        return
    ((fact, (path, at, written)),) = facts.items()
    if claims[0][1] == fact:
        return
    lines = [line for line, _, _ in claims]
    message = f"README says {claims[0][2]} but {path}:{at} installs ROS {fact} ({written}){also_at(lines)}"
    yield Diagnostic(readme, lines[0], message, confidence=LIKELY)


_SETUP_PATH = re.compile(r"(?<![\w.:-])/opt/ros/([a-z]+)(/[\w./-]*)?")
"""A path below a ROS distribution's install folder (`/opt/ros/humble/setup.bash`, `/opt/ros/noetic`)."""
_MOUNTED = re.compile(r"(?:-v|--volume|--mount)[ \t=]+\S*/opt/ros/|(?:osrf/)?ros:[a-z]+")
"""A line that mounts a ROS install into a container, or names another ROS image: not this image's."""
_INSTRUCTION = re.compile(r"[ \t]*(?:RUN|ENV|ARG|COPY|ADD|FROM|WORKDIR|SHELL|CMD|ENTRYPOINT)[ \t]")
"""A Dockerfile's line in a block with no language (`RUN source /opt/ros/noetic/setup.bash`): a build
step the README shows, not a command it runs in the container."""
_BUILD_ARG_DISTRO = re.compile(r"\bROS_DISTRO[ \t]*[=:][ \t]*[\"']?([a-z]+)")
"""A README setting the build's ROS distribution itself (`--build-arg ROS_DISTRO=jazzy`, a compose
`ROS_DISTRO: jazzy`): the image then holds that one."""


def _container_paths(doc: Document, text: str) -> Iterator[tuple[int, str, str]]:
    """(README line, distribution, path as written) of each `/opt/ros/DISTRO` path of a command block run
    in the container: not one introduced as run elsewhere (`_ELSEWHERE`), nor under a heading about the
    host, nor on a line mounting a ROS install or naming another ROS image (`_MOUNTED`), nor on a
    Dockerfile's line the README shows (`_INSTRUCTION`)."""
    readme = text.splitlines()
    heads = dict(doc.headings)
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or fence.inline:
            continue
        if _ELSEWHERE.search(_intro(readme, fence)) or is_host_heading(heads.get(fence.section, "")):
            continue
        for number, line in fence.lines:
            if _MOUNTED.search(line) or _INSTRUCTION.match(line):
                continue
            for match in _SETUP_PATH.finditer(line):
                if match.group(1) in ROS_DISTROS:
                    command = line.strip()
                    yield number, match.group(1), command if len(command) <= 80 else match.group()


def ros_distro_paths(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """A command the README runs in the container with a path of a ROS distribution's install
    (`source /opt/ros/humble/setup.bash`) while the audited Dockerfiles name only others (`ros-jazzy-
    desktop`, `ENV ROS_DISTRO=jazzy`, `FROM ros:jazzy`): the folder is not in the image and the command
    fails. No finding when a path of the README names a distribution the Dockerfiles do (the README
    covers several), when the README sets the build's distribution itself (`--build-arg
    ROS_DISTRO=humble`), or when the Dockerfiles name none. `likely`: a base image docgen does not read
    may hold a second distribution. Told once, at the first line."""
    paths = list(_container_paths(doc, text))
    if not paths:
        return
    facts = _distro_facts(models)
    if not facts:
        return
    said = {distro for _, distro, _ in paths}
    if said & facts.keys() or said & {m.group(1) for m in _BUILD_ARG_DISTRO.finditer(text)}:
        return
    line, distro, written = paths[0]
    fact = sorted(facts, key=lambda d: (facts[d][0], facts[d][1]))[0]
    path, at, shown = facts[fact]
    others = "" if len(facts) == 1 else f" (and ROS {', '.join(sorted(set(facts) - {fact}))})"
    message = (
        f"README runs `{written}` in the container, but {path}:{at} installs ROS {fact} ({shown}){others}: "
        f"/opt/ros/{distro} is not in the image, so the command fails (No such file or directory)"
        f"{also_at([n for n, _, _ in paths])}"
    )
    yield Diagnostic(readme, line, message, confidence=LIKELY)
