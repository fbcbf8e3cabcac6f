"""`docgen audit`: the default a README gives an option of the Python program the image starts, against
the program's `argparse` default (docgen/audit/entry_options.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.entry_options import argparse_defaults
from docgen.pipeline import build_model

# A plain-text README of an image whose build script packs a folder into an archive the image unpacks.
ARCHIVE_DOCKERFILE = """\
FROM python:3.11-slim
RUN pip install numpy
COPY Tools.tar.gz /opt/
RUN cd /opt && tar xzf Tools.tar.gz && rm Tools.tar.gz
ENTRYPOINT ["python3", "/opt/Tools/blend.py"]
"""
ARCHIVE_SCRIPT = """\
import argparse

parser = argparse.ArgumentParser(description='Blend frames')
parser.add_argument('--stride', help='frames left out', default=2, required=False)
parser.add_argument('--verbose', action='store_true')
parser.add_argument('--mode', default=None)
args = parser.parse_args()
"""
ARCHIVE_README = """\
Frame blending image
====================

Usage:
------

-\tdocker run --rm -it -v <<dir>>:/opt/Tools/data blend <<args>>

\t<<args>>\t--stride <<n>>\tOptional. Leaves out <<n>> frames between two kept ones.
\t\t\t\tDefault is zero: every frame is kept.

\t\t--verbose\tPrint progress. Default: off.
"""

# A Markdown README listing the options of the script the image copies and starts.
COPY_DOCKERFILE = """\
FROM python:3.12
COPY src/watch.py /srv/
WORKDIR /srv
CMD ["python3", "/srv/watch.py"]
"""
COPY_SCRIPT = """\
import argparse

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min-score", type=float, default=0.35, help="smallest score reported")
    p.add_argument("--camera", default="0")
    p.add_argument("--format", choices=["json", "text"], default="json")
    return p.parse_args()
"""
COPY_README = """\
# Watcher

## Run

```bash
docker run --rm watcher --min-score 0.6
```

Options:

- `--min-score`: smallest detection score reported (default: 0.5)
- `--camera`: camera index (default: 0)
- `--format`: output format (default: text)
"""


def found(root: Path, readme: str, files: dict[str, str], name: str = "README.md") -> list[tuple[int, str]]:
    make_tree(root, {name: readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, name, model, {}, root, root)
        if "which the image starts" in d.message
    ]


ARCHIVE_FILES = {"Dockerfile": ARCHIVE_DOCKERFILE, "Tools/blend.py": ARCHIVE_SCRIPT}
COPY_FILES = {"Dockerfile": COPY_DOCKERFILE, "src/watch.py": COPY_SCRIPT}


def test_a_default_of_the_started_script_in_an_archive_the_image_unpacks(tmp_path: Path) -> None:
    assert found(tmp_path, ARCHIVE_README, ARCHIVE_FILES, "README.txt") == [
        (
            10,
            "README says --stride defaults to zero, but blend.py:4, which the image starts, gives it "
            "default=2",
        )
    ]


def test_a_list_of_options_of_the_script_the_image_copies(tmp_path: Path) -> None:
    assert found(tmp_path, COPY_README, COPY_FILES) == [
        (
            11,
            "README says --min-score defaults to 0.5, but watch.py:5, which the image starts, gives it "
            "default=0.35",
        )
    ]


def test_silent_when_the_defaults_agree(tmp_path: Path) -> None:
    readme = ARCHIVE_README.replace("Default is zero", "Default is two")
    assert found(tmp_path, readme, ARCHIVE_FILES, "README.txt") == []
    assert found(tmp_path, COPY_README.replace("0.5)", "0.35)"), COPY_FILES) == []
    behaviour = COPY_README.replace("(default: 0.5)", "(default behaviour: all)")
    assert found(tmp_path, behaviour, COPY_FILES) == []


def test_silent_for_a_section_naming_another_program(tmp_path: Path) -> None:
    readme = COPY_README.replace("Options:", "Options of `python train.py`:")
    assert found(tmp_path, readme, COPY_FILES) == []


def test_silent_for_a_section_that_runs_no_image(tmp_path: Path) -> None:
    readme = COPY_README.replace("docker run --rm watcher --min-score 0.6", "make watch")
    assert found(tmp_path, readme, COPY_FILES) == []


def test_silent_when_the_image_starts_another_program(tmp_path: Path) -> None:
    dockerfile = COPY_DOCKERFILE.replace('CMD ["python3", "/srv/watch.py"]', 'CMD ["python3", "-m", "watch"]')
    assert found(tmp_path, COPY_README, {**COPY_FILES, "Dockerfile": dockerfile}) == []


def test_argparse_defaults_read_with_ast() -> None:
    assert argparse_defaults(COPY_SCRIPT) == {"--min-score": (5, 0.35), "--camera": (6, "0")}
    assert argparse_defaults(ARCHIVE_SCRIPT) == {"--stride": (4, 2)}
    assert argparse_defaults("print 'python 2'\n") == {}
    assert argparse_defaults("p.add_argument('--n', default=N)\np.add_argument('--k', **extra)\n") == {}
    assert argparse_defaults("a.add_argument('--n', default=1)\nb.add_argument('--n', default=2)\n") == {}
    assert argparse_defaults("p.add_argument('--n', default=1)\np.set_defaults(n=3)\n") == {}


# A README that runs a training script of its folder in a compose service, and lists each script's
# options in a section of its own.
RUN_SCRIPT = """\
import argparse

def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="./clips")
    return parser.parse_args()
"""
RUN_README = """\
# Cart pole lab

## Evaluate

```bash
cd .docker
docker compose run lab python score.py --episodes 2
```

## Score options

The `score.py` script accepts:

- `--episodes`: episodes to play (default: 10)
- `--seed`: random seed (default: 7)
- `--out`: where clips go (default: `./clips`)
"""


def run_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": "FROM python:3.12-slim\nCOPY . /lab\n", **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "which the README runs" in d.message
    ]


def test_a_default_of_a_script_the_readme_runs(tmp_path: Path) -> None:
    assert run_found(tmp_path, RUN_README, {"score.py": RUN_SCRIPT}) == [
        (
            14,
            "README says --episodes defaults to 10, but score.py:5, which the README runs, gives it "
            "default=5",
        )
    ]


def test_a_list_of_a_script_beside_a_training_list_in_a_numbered_readme(tmp_path: Path) -> None:
    # a plain `python3 ./fit.py` run, the options given as a table-less list with "Default is"
    readme = (
        "Fitting\n=======\n\n    python3 ./fit.py --rate 0.1\n\nOptions of fit.py\n-----------------\n\n"
        "--rate R   learning rate. Default is 0.01\n"
    )
    script = (
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--rate', type=float, default=0.001)\n"
    )
    assert run_found(tmp_path, readme, {"fit.py": script}) == [
        (
            9,
            "README says --rate defaults to 0.01, but fit.py:3, which the README runs, gives it "
            "default=0.001",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the script is not one the README runs: the options may be another version's
        (RUN_README.replace("python score.py --episodes 2", "bash play.sh"), {"score.py": RUN_SCRIPT}),
        # the section names two scripts: which one the options are of is not known
        (
            RUN_README.replace("The `score.py` script", "The `score.py` and `train.py` scripts"),
            {"score.py": RUN_SCRIPT},
        ),
        # no such script beside the README
        (RUN_README, {"tools/score.py": RUN_SCRIPT}),
        # the defaults agree
        (RUN_README.replace("(default: 10)", "(default: 5)"), {"score.py": RUN_SCRIPT}),
        # the value is one the user is told to change, not a default
        (RUN_README.replace("(default: 10)", "(set it to 10 for a longer run)"), {"score.py": RUN_SCRIPT}),
    ],
)
def test_defaults_of_scripts_the_readme_runs_left_alone(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert run_found(tmp_path, readme, files) == []


# A README documenting a publish script's options in a table with a `Default` column, modelled on two
# kinds of projects: a base-image repository whose build script pushes to a Docker Hub account, and a
# data tool whose export script is run on the host.
PUBLISH_SCRIPT = """\
import argparse
import datetime

stamp = datetime.date.today().strftime("%Y%m%d")
parser = argparse.ArgumentParser()
parser.add_argument("folder")
parser.add_argument("--account", type=str, default="labteam")
parser.add_argument("--tag", default=stamp)
parser.add_argument("--jobs", type=int, default=4)
parser.add_argument("--push", action="store_true")
args = parser.parse_args()
"""
PUBLISH_README = """\
# Runtime base

## Publishing

The `publish-image.py` script builds and pushes the image.

### Options

| Flag | Meaning | Default |
|------|---------|---------|
| `--account` | Docker Hub account | Current user |
| `--tag` | Tag of the image | Today's date |
| `--jobs` | Parallel build jobs | 4 |
| `--push` | Push after building | off |

### Run

```bash
python3 publish-image.py --account=<your_account> runtime
```
"""


def table_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": "FROM python:3.12-slim\nCOPY . /lab\n", **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "which the README runs" in d.message
    ]


def test_a_table_default_against_the_script_named_with_a_slip(tmp_path: Path) -> None:
    # the README runs `publish-image.py`, the file is `publish_image.py`: that one is read
    assert table_found(tmp_path, PUBLISH_README, {"publish_image.py": PUBLISH_SCRIPT}) == [
        (
            11,
            "README says --account defaults to Current user, but publish_image.py:7, which the README "
            "runs, gives it default='labteam'",
            "certain",
        )
    ]


def test_a_table_default_of_a_host_tool_with_its_own_name(tmp_path: Path) -> None:
    script = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--format', default='csv')\n"
    readme = (
        "# Exporter\n\nRun `python export.py --out rows` on the host.\n\n"
        "| Argument | Default | Notes |\n|---|---|---|\n| `--format` | `parquet` | output format |\n"
    )
    assert table_found(tmp_path, readme, {"export.py": script}) == [
        (
            7,
            "README says --format defaults to `parquet`, but export.py:3, which the README runs, gives it "
            "default='csv'",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the defaults agree, or the cell names the default among other words
        (PUBLISH_README.replace("Current user", "labteam"), {"publish_image.py": PUBLISH_SCRIPT}),
        (
            PUBLISH_README.replace("Current user", "`labteam` (the maintainers')"),
            {"publish_image.py": PUBLISH_SCRIPT},
        ),
        # a placeholder or no value in the cell
        (PUBLISH_README.replace("Current user", "<your account>"), {"publish_image.py": PUBLISH_SCRIPT}),
        (PUBLISH_README.replace("Current user", "required"), {"publish_image.py": PUBLISH_SCRIPT}),
        # the README runs no such script (two slips away, or none near)
        (PUBLISH_README, {"publish_images_v2.py": PUBLISH_SCRIPT}),
        # the README names the script but never runs it
        (
            PUBLISH_README.replace("python3 publish-image.py", "./publish.sh"),
            {"publish_image.py": PUBLISH_SCRIPT},
        ),
        # two scripts named: which one the table is of is not known
        (
            PUBLISH_README.replace(
                "The `publish-image.py` script", "The `publish-image.py` and `lint.py` scripts"
            ),
            {"publish_image.py": PUBLISH_SCRIPT, "lint.py": PUBLISH_SCRIPT},
        ),
    ],
)
def test_table_defaults_left_alone(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert table_found(tmp_path, readme, files) == []
