"""`docgen audit`: a `cd` into the folder a `git clone` does not make (docgen/audit/clone_folders.py):
`git clone …/app.git` then `cd app.git`, while git makes `app`.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM python:3.12-slim\nCOPY . /srv/kiln\nCMD ["python", "/srv/kiln/serve.py"]\n'
WRONG = "README cds into {0}, but `git clone …/kiln-box.git` makes the folder kiln-box (did you mean cd {1}?)"


def _audited(tmp_path: Path, readme: str, extra: dict[str, str] | None = None) -> list[str]:
    files = {"Dockerfile": DOCKERFILE, "serve.py": "print('kiln')\n", **(extra or {})}
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "clone" in d.message
    ]


def _readme(block: str) -> str:
    return f"# Kiln box\n\n## Get it\n\n```bash\n{block}\n```\n"


def test_cd_into_the_address_with_its_git(tmp_path: Path) -> None:
    readme = _readme(
        "git clone https://github.com/rena/kiln-box.git\ncd kiln-box.git\ndocker build -t kiln ."
    )
    assert _audited(tmp_path, readme) == [f"7: {WRONG.format('kiln-box.git', 'kiln-box')} (certain)"]


def test_on_one_line_and_into_a_subfolder(tmp_path: Path) -> None:
    readme = _readme("git clone --depth 1 git@github.com:rena/kiln-box.git && cd kiln-box.git/docker")
    assert _audited(tmp_path, readme) == [
        f"6: {WRONG.format('kiln-box.git/docker', 'kiln-box/docker')} (certain)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "git clone https://github.com/rena/kiln-box.git kiln-box.git\ncd kiln-box.git",  # folder given
        "git clone https://github.com/rena/kiln-box.git box\ncd box",
        "git clone https://github.com/rena/kiln-box.git\ncd kiln-box",  # the folder git makes
        "git clone --bare https://github.com/rena/kiln-box.git\ncd kiln-box.git",  # bare keeps .git
        "git clone --mirror https://github.com/rena/kiln-box.git && cd kiln-box.git",
        "git clone https://github.com/rena/kiln-box.git\nmv kiln-box kiln-box.git\ncd kiln-box.git",
        "cd kiln-box.git\ngit clone https://github.com/rena/kiln-box.git",  # cd before the clone
        "git clone https://github.com/rena/kiln-box\ncd kiln-box.git",  # no .git in the address
    ],
)
def test_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert _audited(tmp_path, _readme(block)) == []


def test_a_folder_of_that_name_in_the_repository(tmp_path: Path) -> None:
    readme = _readme("git clone https://github.com/rena/kiln-box.git\ncd kiln-box.git")
    assert _audited(tmp_path, readme, {"kiln-box.git/README": "mirror\n"}) == []


# A `cd` right after a clone into a slip of the clone's folder (`clone_slips`), modelled on a CUDA stress
# test README (`git clone …/gpu_burner.git` then `cd gpu-burner`) and on a Jetson detector README whose
# clone keeps capitals its `cd` drops.

SLIP = "README cds into {0}, but `git clone …/{1}` makes the folder {2} (did you mean cd {3}?)"


def _slips(tmp_path: Path, readme: str, extra: dict[str, str] | None = None) -> list[str]:
    return [a for a in _audited(tmp_path, readme, extra) if "makes the folder" in a or "clone's parent" in a]


def test_cd_into_a_separator_slip_of_the_clone(tmp_path: Path) -> None:
    readme = _readme(
        "git clone https://github.com/tolva/heat_soak.git\ncd heat-soak\ndocker build -t heat_soak ."
    )
    assert _slips(tmp_path, readme) == [
        f"7: {SLIP.format('heat-soak', 'heat_soak.git', 'heat_soak', 'heat_soak')} (certain)"
    ]


def test_cd_into_a_letter_slip_in_the_next_block(tmp_path: Path) -> None:
    readme = (
        "# Tool\n\n```\n$ git clone --recursive https://github.com/tolva/frame-grabber\n```\n\n"
        "Then build it:\n\n```\n$ cd frame-graber/docker && docker build -t fg .\n```\n"
    )
    assert _slips(tmp_path, readme) == [
        f"10: {SLIP.format('frame-graber/docker', 'frame-grabber', 'frame-grabber', 'frame-grabber/docker')}"
        " (certain)"
    ]


def test_a_case_slip_is_certain(tmp_path: Path) -> None:
    # Linux file names are case-sensitive: the folder git made has the address's letters
    readme = _readme("git clone https://github.com/tolva/NanoDetect-Trt.git && cd nanodetect-trt")
    assert _slips(tmp_path, readme) == [
        f"6: {SLIP.format('nanodetect-trt', 'NanoDetect-Trt.git', 'NanoDetect-Trt', 'NanoDetect-Trt')}"
        " (certain)"
    ]
    # modelled on a SLAM install README that clones its own repository and enters it in lower case in
    # the next block
    slam = (
        "# SLAM-Kit\n\n```bash\ngit clone https://github.com/tolva/SLAM-Kit.git\n```\n\n"
        "Then:\n\n```bash\ncd slam-kit\ndocker build -t slam .\n```\n"
    )
    assert _slips(tmp_path / "slam", slam) == [
        f"10: {SLIP.format('slam-kit', 'SLAM-Kit.git', 'SLAM-Kit', 'SLAM-Kit')} (certain)"
    ]
    # the trap: the checkout the reader is in holds a folder of that name as written
    assert _slips(tmp_path / "held", slam, {"slam-kit/notes.md": "x"}) == []


@pytest.mark.parametrize(
    "block",
    [
        "git clone https://github.com/tolva/heat_soak.git heat-soak\ncd heat-soak",  # folder given
        "git clone https://github.com/tolva/heat_soak.git\ncd heat_soak/docker",  # into the clone
        "git clone https://github.com/tolva/heat_soak.git\ncd heat_soak\ncd heat-soak",  # not right after
        "git clone https://github.com/tolva/heat_soak.git\nmv heat_soak heat-soak\ncd heat-soak",
        "git clone https://github.com/tolva/heat_soak.git\nmkdir heat-soak && cd heat-soak",
        "git clone --bare https://github.com/tolva/heat_soak.git\ncd heat-soak",
        "git clone https://github.com/tolva/soak1.git\ncd soak2",  # a digit: another folder
        "git clone https://github.com/tolva/soak.git\ncd soap",  # short names: no letter slip
        "git clone https://github.com/tolva/heat_soak.git\ncd <heat-soak>",
    ],
)
def test_slip_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert [a for a in _audited(tmp_path, _readme(block)) if "heat-soak" in a or "soa" in a] == []


def test_cd_with_the_git_suffix_is_told_once(tmp_path: Path) -> None:
    readme = _readme("git clone https://github.com/tolva/heat_soak.git\ncd heat_soak.git")
    assert len(_audited(tmp_path, readme)) == 1  # by clone_folders, not again as a slip


def test_slip_after_prose_that_renames(tmp_path: Path) -> None:
    readme = (
        "# Tool\n\n```\ngit clone https://github.com/tolva/heat_soak.git\n```\n\n"
        "Rename the folder to heat-soak, then:\n\n```\ncd heat-soak\n```\n"
    )
    assert _slips(tmp_path, readme) == []


def test_slip_into_a_folder_that_exists(tmp_path: Path) -> None:
    readme = _readme("git clone https://github.com/tolva/heat_soak.git\ncd heat-soak")
    assert _slips(tmp_path, readme, {"heat-soak/run.sh": "echo\n"}) == []


# A `cd` right after a clone of this very repository into one of its folders, modelled on a Jetson mask
# camera README (`git clone …/mask_camera.git` then `cd docker`) and on a ROS bridge README whose clone is
# told to be its own by the checkout's remote.

PARENT = (
    "README cds into {0} right after `git clone …/{1}`, but the reader is in the clone's parent: {0} is in "
    "the clone (did you mean cd {1}/{0}?)"
)


def _own(tmp_path: Path, name: str, block: str, extra: dict[str, str] | None = None) -> list[str]:
    home = tmp_path / name
    home.mkdir()
    return _slips(home, _readme(block), {"docker/Dockerfile": DOCKERFILE, **(extra or {})})


def test_cd_into_the_repository_folder_from_the_clone_parent(tmp_path: Path) -> None:
    found = _own(tmp_path, "visor_cam", "$ git clone https://github.com/hollin/visor_cam.git\n\n$ cd docker")
    assert found == [f"8: {PARENT.format('docker', 'visor_cam')} (likely)"]


def test_own_clone_told_by_the_remote(tmp_path: Path) -> None:
    git = {".git/config": '[remote "origin"]\n\turl = https://github.com/hollin/ros-visor.git\n'}
    found = _own(tmp_path, "checkout", "git clone https://github.com/hollin/ros-visor && cd docker/", git)
    assert found == [f"6: {PARENT.format('docker', 'ros-visor')} (likely)"]


@pytest.mark.parametrize(
    "block",
    [
        "git clone https://github.com/hollin/visor_cam.git\ncd visor_cam/docker",  # through the clone
        "git clone https://github.com/hollin/visor_cam.git .\ncd docker",  # cloned here
        "git clone https://github.com/hollin/other-cam.git\ncd docker",  # another repository
        "git clone https://github.com/hollin/visor_cam.git\ncd tools",  # no such folder in the repository
    ],
)
def test_own_clone_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert _own(tmp_path, "visor_cam", block) == []


def test_own_clone_then_cd_in_the_next_block(tmp_path: Path) -> None:
    readme_block = "git clone https://github.com/hollin/visor_cam.git\n```\n\nEnter it.\n\n```\ncd docker"
    assert _own(tmp_path, "visor_cam", readme_block) == []


def test_a_checkout_of_another_name_with_no_remote(tmp_path: Path) -> None:
    assert _own(tmp_path, "P07", "git clone https://github.com/hollin/visor_cam.git\ncd docker") == []


def test_own_clone_told_by_the_title(tmp_path: Path) -> None:
    home = tmp_path / "P07"
    home.mkdir()
    readme = "# visor_cam\n\n```\ngit clone https://github.com/hollin/visor_cam.git\ncd docker\n```\n"
    found = _slips(home, readme, {"docker/Dockerfile": DOCKERFILE})
    assert found == [f"5: {PARENT.format('docker', 'visor_cam')} (likely)"]


# A `cd` or `code` right after a clone into a folder of another name meant for it, modelled on a VS Code
# dev-container README (`git clone …/ubuntu-…-docker.git`, then `code devcontainer-…/`) and on a ROS
# workspace README whose clone was renamed (`git clone …/rover-nav-stack.git`, then `cd rover_nav`).

OTHER = (
    "README enters {0} right after `git clone …/{1}.git`, which makes the folder {1}; no step makes {0} "
    "and the repository holds no such folder (did you mean {1}?)"
)


def _others(tmp_path: Path, readme: str, extra: dict[str, str] | None = None) -> list[str]:
    return [a for a in _audited(tmp_path, readme, extra) if "README enters" in a]


def test_code_into_a_folder_of_another_name(tmp_path: Path) -> None:
    readme = (
        "# Lens box\n\nFirst, clone it\n```bash\ngit clone https://github.com/tolva/debian-gpu-lens-box.git\n```\n"
        "Then open the project in VS Code\n```bash\ncode devcontainer-gpu-lens/\n```\n"
    )
    assert _others(tmp_path, readme) == [
        f"9: {OTHER.format('devcontainer-gpu-lens', 'debian-gpu-lens-box')} (likely)"
    ]


def test_cd_into_a_renamed_repository_folder(tmp_path: Path) -> None:
    readme = _readme("git clone https://github.com/tolva/rover-nav-stack.git\ncd rover_nav\ndocker build .")
    assert _others(tmp_path, readme) == [f"7: {OTHER.format('rover_nav', 'rover-nav-stack')} (likely)"]


@pytest.mark.parametrize(
    "block",
    [
        "git clone https://github.com/tolva/rover-nav-stack.git\ncd src",  # no word shared: not meant for it
        "git clone https://github.com/tolva/rover-nav-stack.git\nmkdir rover_nav && cd rover_nav",
        "git clone https://github.com/tolva/rover-nav-stack.git rover_nav\ncd rover_nav",  # folder given
        "git clone https://github.com/tolva/rover-nav-stack.git\ncd rover_nav\n# or: cd rover-nav-stack",
        "git clone https://github.com/tolva/rover-nav-stack.git\ncd rover_nav/launch",  # a path: not judged
        "git clone https://github.com/tolva/rover-nav-stack.git\ncode rover.code-workspace",  # a file held
        "git clone https://github.com/tolva/rover-nav-stack.git\ncd rover_kit",  # a folder held
        "git clone https://github.com/$OWNER/rover-nav-stack\ncd rover_nav",  # no plain address
    ],
)
def test_other_name_traps_stay_silent(tmp_path: Path, block: str) -> None:
    extra = {"rover.code-workspace": "{}\n", "rover_kit/notes.md": "x\n"}
    assert _others(tmp_path, _readme(block), extra) == []


@pytest.mark.parametrize(
    ("block", "line"),
    [
        ("git clone https://github.com/tolva/onedl-rover.git && cd rover", 6),
        ("git clone https://github.com/tolva/onedl-rover.git\ncd rover", 7),
    ],
)
def test_cd_into_the_upstream_name_of_a_fork(tmp_path: Path, block: str, line: int) -> None:
    # a fork renamed `onedl-rover`, its README still entering `rover`: the clone line itself, which
    # enters the folder, makes none of that name, and a checkout of the project named `rover` (a folder
    # above the README's, above the project's own files) is no folder the reader's clone makes
    project = tmp_path / "rover"
    (project / ".git").mkdir(parents=True)
    assert _others(project, _readme(block)) == [f"{line}: {OTHER.format('rover', 'onedl-rover')} (likely)"]


def test_other_name_made_in_prose_stays_silent(tmp_path: Path) -> None:
    readme = (
        "# Rover\n\n```bash\ngit clone https://github.com/tolva/rover-nav-stack.git\n```\n\n"
        "Rename the folder to rover_nav, then:\n\n```bash\ncd rover_nav\n```\n"
    )
    assert _others(tmp_path, readme) == []


# A later `cd` into the clone's folder by its full path, with other separators than the clone's, while the
# README enters the right path too. Modelled on a ROS project guide (`cd ~/PR2Project/docker-ros-kinetic-
# project` after the clone, `cd ~/PR2Project/docker-ros_kinetic_project` a block later) and on a
# simulation box's (`/opt/work/heat_soak` then `/opt/work/heat-soak/docker`).
GUIDE = """\
# Kiln box

```
cd ~/work && git clone https://github.com/tolva/kiln-box-project
cd ~/work/kiln-box-project && ./build.sh
```

Then generate the dependencies:

```
cd ~/work/kiln-box_project && ./deps.sh
```
"""
LATER = "README cds into {0}, but the `git clone` of line {1} makes the folder {2} (did you mean cd {3}?)"


def test_a_later_cd_into_the_clone_with_other_separators(tmp_path: Path) -> None:
    said = LATER.format("~/work/kiln-box_project", 4, "kiln-box-project", "~/work/kiln-box-project")
    assert _slips(tmp_path / "a", GUIDE) == [f"11: {said} (certain)"]
    block = (
        "cd /opt/work\ngit clone https://github.com/tolva/heat_soak.git\ncd /opt/work/heat_soak\nmake\n"
        "cd /opt/work/heat-soak/docker\n"
    )
    said = LATER.format("/opt/work/heat-soak/docker", 7, "heat_soak", "/opt/work/heat_soak/docker")
    assert _slips(tmp_path / "b", _readme(block)) == [f"10: {said} (certain)"]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        (GUIDE.replace("kiln-box_project && ./deps", "kiln-box-project && ./deps"), {}),  # the right name
        (GUIDE.replace("cd ~/work/kiln-box-project && ./build.sh", "./build.sh"), {}),  # never entered right
        (GUIDE.replace("Then generate", "Then `mv kiln-box-project kiln-box_project` and generate"), {}),
        (GUIDE, {"kiln-box_project/x": ""}),  # a folder of that name is in the repository
        (GUIDE.replace("cd ~/work/kiln-box_project", "cd kiln-box_project"), {}),  # relative: from anywhere
        (GUIDE.replace("tolva/kiln-box-project", "tolva/kiln-box-project kiln-box_project"), {}),  # named
    ],
)
def test_later_cds_that_are_right_or_cannot_be_told(
    tmp_path: Path, readme: str, extra: dict[str, str]
) -> None:
    assert [a for a in _slips(tmp_path, readme, extra) if "kiln-box_project" in a] == []
