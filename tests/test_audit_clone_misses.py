"""`docgen audit`: a file a README takes from its clone of this very repository that the repository does
not hold (docgen/audit/clone_misses.py): `git clone …/dock-sim.git`, then `cp dock-sim/input/start.pdb .`
while the repository has no `input/`.

Each rule: a planted drift next to the nearest true statement (a trap). The shapes are modelled on two
kinds of real README: a "from scratch" recipe typed in a bare container (clone, copy the script and its
input out of the clone), and a setup block (clone, copy an example config and a script out of the clone).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM python:3.12-slim\nWORKDIR /work\nCOPY simulate.py /work\nCMD ["python", "simulate.py"]\n'
FILES = {
    "Dockerfile": DOCKERFILE,
    "simulate.py": "print('sim')\n",
    "conf/example.toml": "steps = 10\n",
}
RECIPE = (
    "docker run -it python:3.12-slim\nmkdir /work /work/input\ncd /work\n"
    "git clone https://github.com/tova/dock-sim.git\ncp dock-sim/simulate.py .\n"
    "cp dock-sim/input/start.pdb ./input\npython simulate.py"
)
SETUP = (
    "git clone https://github.com/tova/dock-sim.git\ncp dock-sim/conf/example.toml sim.toml\n"
    "cp dock-sim/conf/secrets.toml .\ndocker build -t sim dock-sim"
)


def _audited(
    tmp_path: Path,
    block: str,
    title: str = "Dock Sim",
    remote: str | None = None,
    extra: dict[str, str] | None = None,
) -> list[str]:
    make_tree(tmp_path, {**FILES, **(extra or {})})
    (tmp_path / ".git").mkdir(exist_ok=True)
    if remote is not None:
        (tmp_path / ".git" / "config").write_text(f'[remote "origin"]\n\turl = {remote}\n')
    readme = f"# {title}\n\n## From scratch\n\n```bash\n{block}\n```\n"
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "its clone of this repository" in d.message
    ]


def _says(line: int, path: str, clone: int, sure: str) -> str:
    inner = path.split("/", 1)[1]
    return (
        f"{line}: README takes {path} from its clone of this repository (line {clone}), "
        f"but the repository has no {inner} ({sure})"
    )


def test_recipe_copies_a_file_the_repository_lacks(tmp_path: Path) -> None:
    assert _audited(tmp_path, RECIPE) == [_says(11, "dock-sim/input/start.pdb", 9, "likely")]


def test_setup_copies_a_config_the_repository_lacks(tmp_path: Path) -> None:
    assert _audited(tmp_path, SETUP, title="dock-sim") == [
        _says(8, "dock-sim/conf/secrets.toml", 6, "likely")
    ]


def test_remote_of_the_checkout_makes_it_certain(tmp_path: Path) -> None:
    found = _audited(tmp_path, RECIPE, title="Tools", remote="git@github.com:tova/dock-sim.git")
    assert found == [_says(11, "dock-sim/input/start.pdb", 9, "certain")]


def test_python_bash_and_cd_read_their_path(tmp_path: Path) -> None:
    block = (
        "git clone https://github.com/tova/dock-sim.git\ncp dock-sim/simulate.py .\n"
        "python dock-sim/tools/prep.py --out dock-sim/prepared"
    )
    assert _audited(tmp_path, block) == [_says(8, "dock-sim/tools/prep.py", 6, "likely")]


@pytest.mark.parametrize(
    ("block", "title", "remote", "extra"),
    [
        (RECIPE, "Dock Sim", None, {"input/start.pdb": "ATOM\n"}),  # the file is there
        (RECIPE, "Docking notes", None, None),  # no remote, another name: maybe another repository
        (RECIPE, "Dock Sim", "https://github.com/tova/other.git", None),  # a remote, another repository
        (RECIPE, "Dock Sim", None, {".gitignore": "input/\n"}),  # git ignores it
        (RECIPE, "Dock Sim", None, {".gitmodules": '[submodule "i"]\n\tpath = input\n'}),  # a submodule
        (RECIPE.replace("cp dock-sim/simulate.py .\n", ""), "Dock Sim", None, None),  # no path of it here
        (RECIPE.replace("simulate.py", "README.md"), "Dock Sim", None, {"README.md": "x\n"}),  # any tree
        (RECIPE.replace("dock-sim.git", "dock-sim.git -b dev"), "Dock Sim", None, None),  # another branch
        (
            RECIPE.replace(
                "cp dock-sim/simulate.py .\n", "cp dock-sim/simulate.py .\ngit -C dock-sim checkout v1\n"
            ),
            "Dock Sim",
            None,
            None,
        ),
        (  # a script of the clone fetches the input first
            RECIPE.replace(
                "cp dock-sim/simulate.py .\n", "cp dock-sim/simulate.py .\nbash dock-sim/get.sh\n"
            ),
            "Dock Sim",
            None,
            {"get.sh": "wget x\n"},
        ),
        (  # a step above downloads it
            RECIPE.replace("cd /work\n", "cd /work\nwget https://files.example.org/start.pdb\n"),
            "Dock Sim",
            None,
            None,
        ),
        (RECIPE.replace("input/start.pdb", "build/start.pdb"), "Dock Sim", None, None),  # a build output
        (
            RECIPE.replace("cp dock-sim/input", "cp dock-sim/inputs"),
            "Dock Sim",
            None,
            {"input/start.pdb": "A\n"},
        ),
        (  # the clone's folder only as a destination
            RECIPE.replace("cp dock-sim/input/start.pdb ./input", "cp /data/start.pdb dock-sim/input/"),
            "Dock Sim",
            None,
            None,
        ),
        (
            SETUP.replace("cp dock-sim/conf/secrets.toml .", "cd dock-sim\ncp dock-sim/x.toml ."),
            "dock-sim",
            None,
            None,
        ),
        (  # a step above copies a folder into the clone's
            SETUP.replace(
                "cp dock-sim/conf/example", "cp -r ~/tova-conf dock-sim/conf\ncp dock-sim/conf/example"
            ),
            "dock-sim",
            None,
            None,
        ),
        (  # Dockerfile lines shown in a block: they run in the image
            "RUN git clone https://github.com/tova/dock-sim.git && cp dock-sim/simulate.py . "
            "&& cp dock-sim/input/start.pdb .",
            "Dock Sim",
            None,
            None,
        ),
    ],
)
def test_traps_stay_silent(
    tmp_path: Path, block: str, title: str, remote: str | None, extra: dict[str, str] | None
) -> None:
    assert _audited(tmp_path, block, title=title, remote=remote, extra=extra) == []


# A build-and-push recipe: clone this repository, move its build script out, run it.
MOVED = (
    "git clone https://github.com/tova/dock-sim.git\nmv ./dock-sim/push_image.py ..\n"
    "python push_image.py --tag x"
)


def test_a_title_naming_the_clone_is_evidence_enough(tmp_path: Path) -> None:
    # `# dock-sim on RunPod`: the README names itself by the clone's folder; no other path of the
    # clone is named, and the repository has no push_image.py
    assert _audited(tmp_path, MOVED, title="dock-sim on RunPod") == [
        _says(7, "dock-sim/push_image.py", 6, "likely")
    ]


def test_a_remote_naming_the_clone_is_evidence_enough(tmp_path: Path) -> None:
    assert _audited(tmp_path, MOVED, title="Simulator", remote="git@github.com:tova/dock-sim.git") == [
        _says(7, "dock-sim/push_image.py", 6, "certain")
    ]


@pytest.mark.parametrize(
    ("title", "extra"),
    [
        ("dock-sim on RunPod", {"push_image.py": "print()\n"}),  # the script is there
        ("docksim tools", {}),  # a first word that is not the clone's name as written
        ("Simulator", {}),  # a title that names another project: the clone may be another's
        ("dock-sim-extras", {}),  # a longer name: another repository of the family
    ],
)
def test_titles_that_are_no_evidence_or_scripts_that_are_there(
    tmp_path: Path, title: str, extra: dict[str, str]
) -> None:
    assert _audited(tmp_path, MOVED, title=title, extra=extra) == []
