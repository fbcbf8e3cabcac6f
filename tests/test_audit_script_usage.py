"""`docgen audit`: a README's usage line for a script beside it that names more arguments than the
script's own usage line and its reads take (docgen/audit/script_usage.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\n"
LAUNCH = """\
#!/bin/bash -e
if [ "$1" == "-h" ]; then
  echo "Usage: `basename $0` [release] [device] [cache dir]"
  exit 0
fi
echo "starting release $1 on device #$2"  # a comment naming $7
CACHE=$3
docker run --rm --gpus device=$2 -v $CACHE:/cache trainer:$1 \\
    python3 fit.py $3 $4 $5 $6 $7 $8 $9
"""


def found(root: Path, commands: str, script: str = LAUNCH) -> list[tuple[int, str, str]]:
    readme = f"# Trainer\n\n```sh\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "launch.sh": script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "arguments (" in d.message
    ]


def test_a_usage_naming_more_arguments_than_the_scripts_own(tmp_path: Path) -> None:
    assert found(tmp_path, "sh launch.sh <release> <device> <cache-dir> <run-dir> <entry> [entry-args]") == [
        (
            4,
            "README runs launch.sh with 5 arguments (<release> <device> <cache-dir> <run-dir> <entry>), but "
            "launch.sh:3 gives its usage as [release] [device] [cache dir] and it reads $1 to $3 only: "
            "<run-dir>, <entry> would be passed on to what it runs, as $3 on are",
            "likely",
        )
    ]


def test_arguments_a_script_neither_names_nor_passes_on(tmp_path: Path) -> None:
    script = 'echo "usage: ./launch.sh <release>"\ndocker run trainer:$1\n'
    assert found(tmp_path, "./launch.sh <release> <device>", script) == [
        (
            4,
            "README runs ./launch.sh with 2 arguments (<release> <device>), but launch.sh:1 gives its usage "
            "as <release> and it reads $1 only: <device> would be left unread",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "sh launch.sh <release> <device> <cache-dir>",
        "sh launch.sh <release> <device> [cache-dir] [run-dir] [entry-args]",
        "sh launch.sh <release> <device> <cache-dir> [entry-args...]",
        "sh launch.sh 0.2 1 /data/cache ~/runs fit.py",
        "sh launch.sh --tag <release> <device> <cache-dir> <run-dir>",
        "sh launch.sh <release> [device] <cache-dir> <run-dir>",
        "sh launch.sh -h",
    ],
)
def test_usage_lines_the_script_takes(tmp_path: Path, commands: str) -> None:
    assert found(tmp_path, commands) == []


@pytest.mark.parametrize(
    "change",
    [
        # no usage line of its own
        ('  echo "Usage: `basename $0` [release] [device] [cache dir]"\n', ""),
        # a usage naming options or a list of arguments
        ("[cache dir]", "[cache dir] [-v]"),
        ("[cache dir]", "[cache dir] [args]"),
        ("[cache dir]", "[cache dir] files..."),
        # another script's usage line
        ("`basename $0`", "fit.sh"),
        # reads its arguments as a list or by count
        ("CACHE=$3\n", 'CACHE=$3\nfor a in "$@"; do echo "$a"; done\n'),
        ("CACHE=$3\n", "CACHE=$3\nshift 3\n"),
        ("CACHE=$3\n", "CACHE=$3\nwhile getopts v opt; do :; done\n"),
        ("CACHE=$3\n", "CACHE=$3\nsource ./common.sh\n"),
        ("CACHE=$3\n", "CACHE=$3\nfor a; do echo $a; done\n"),
        ("$3 $4 $5 $6 $7 $8 $9", '"${@:3}"'),
        # reads a fifth argument by itself
        ("CACHE=$3\n", "CACHE=$3\nENTRY=$5\n"),
    ],
)
def test_scripts_whose_arguments_are_not_their_usage_lines(tmp_path: Path, change: tuple[str, str]) -> None:
    script = LAUNCH.replace(*change)
    assert script != LAUNCH
    assert found(tmp_path, "sh launch.sh <release> <device> <cache-dir> <run-dir> <entry>", script) == []


def test_a_script_that_counts_its_arguments(tmp_path: Path) -> None:
    script = (
        'if [ $# -ne 2 ]; then\n  echo "Usage: $0 <release> <device>"\n  exit 1\nfi\n'
        "docker run --gpus $2 trainer:$1\n"
    )
    assert [
        line for line, _, _ in found(tmp_path, "bash launch.sh <release> <device> <cache-dir>", script)
    ] == [4]


def test_a_usage_line_run_twice_is_one_finding(tmp_path: Path) -> None:
    usage = "sh launch.sh <release> <device> <cache-dir> <run-dir>"
    assert len(found(tmp_path, f"{usage} && {usage}")) == 1


def test_a_script_that_is_a_link_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "launch.sh").write_text(LAUNCH)
    project = tmp_path / "project"
    readme = "# Trainer\n\n```sh\nsh launch.sh <release> <device> <cache-dir> <run-dir> <entry>\n```\n"
    make_tree(project, {"Dockerfile": APP, "README.md": readme})
    (project / "launch.sh").symlink_to(tmp_path / "elsewhere" / "launch.sh")
    model = build_model(project / "Dockerfile", "Dockerfile")
    assert [
        d for d in audit(readme, "README.md", model, {}, project, project) if "arguments (" in d.message
    ] == []


@pytest.mark.parametrize(
    ("script", "told"),
    [
        (LAUNCH.replace("\n", "\r\n"), 1),  # CRLF: read as lines all the same
        ("\xff\xfe" + LAUNCH, 1),  # bytes that are no UTF-8: replaced
        (LAUNCH.replace("\n", "\0\n"), 1),
        ("", 0),
        (LAUNCH + "# " + "x" * 2_000_000 + "\n", 0),  # larger than docgen reads
    ],
)
def test_scripts_of_odd_bytes_are_read_or_passed_over(tmp_path: Path, script: str, told: int) -> None:
    assert len(found(tmp_path, "sh launch.sh <r> <d> <c> <run> <entry>", script)) == told


def test_a_script_name_that_is_a_folder_is_passed_over(tmp_path: Path) -> None:
    readme = "# Trainer\n\n```sh\nsh launch.sh <r> <d> <c> <run> <entry>\n```\n"
    make_tree(tmp_path, {"Dockerfile": APP, "README.md": readme, "launch.sh/usage.txt": LAUNCH})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [
        d for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path) if "arguments (" in d.message
    ] == []


# --------------------------------------------------------------------------------------------------
# The default a README's list gives a script's argument or variable

SERVE = """\
#!/bin/bash
# Usage: ./serve.sh [DEVICE] [RESULTS_DIR] [CACHE_DIR]
DEVICE=${1:-0}
RESULTS=${2:-$(pwd)/results}
CACHE_DIR=${3:-}
if [ -z "$CACHE_DIR" ]; then CACHE_DIR=$HOME/.cache/serve; fi
PORT="${PORT:-8000}"
mkdir -p "$RESULTS"
docker run --gpus "device=$DEVICE" -p $PORT:8000 -v "$RESULTS":/out -v "$CACHE_DIR":/cache server:1
"""


def defaults(root: Path, items: str, script: str = SERVE) -> list[tuple[int, str, str]]:
    readme = f"# Server\n\n## Run\n\n```bash\n./serve.sh [DEVICE] [RESULTS_DIR] [CACHE_DIR]\n```\n\n{items}"
    make_tree(root, {"Dockerfile": APP, "serve.sh": script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "defaults to" in d.message
    ]


def test_a_documented_default_the_script_does_not_give(tmp_path: Path) -> None:
    items = (
        "- DEVICE: the GPU to use (e.g. 0, 1, 2). Defaults to 1 if not given.\n"
        "- RESULTS_DIR: where results go. Defaults to ./result in the current directory.\n"
        "- `PORT`: the port served, default: `8080`.\n"
    )
    assert defaults(tmp_path, items) == [
        (9, "README says DEVICE defaults to 1, but serve.sh:3 gives $1 the default 0", "likely"),
        (
            10,
            "README says RESULTS_DIR defaults to ./result, but serve.sh:4 gives $2 the default "
            "$(pwd)/results",
            "likely",
        ),
        (11, "README says PORT defaults to 8080, but serve.sh:7 gives PORT the default 8000", "likely"),
    ]


def test_defaults_that_agree_or_are_computed_elsewhere_are_no_claim(tmp_path: Path) -> None:
    items = (
        "- DEVICE: the GPU to use, e.g. 3. Defaults to 0.\n"
        "- RESULTS_DIR: Defaults to `$PWD/results/`.\n"
        "- CACHE_DIR: Defaults to ~/.cache/other.\n"  # `${3:-}`, computed below it
        "- PORT: Defaults to the port the server picks.\n"  # words, not a value
    )
    assert defaults(tmp_path, items) == []
    # a default read from another variable, a variable assigned again after its default
    script = SERVE.replace("${2:-$(pwd)/results}", "${2:-$OUT_ROOT}").replace(
        'mkdir -p "$RESULTS"', 'PORT=9000\nmkdir -p "$RESULTS"'
    )
    items = "- RESULTS_DIR: Defaults to ./elsewhere.\n- PORT: Defaults to 8080.\n- DEVICE: for example 5.\n"
    assert defaults(tmp_path / "computed", items, script) == []
    # a list of another section: not about this command
    other = "## Results\n\n- RESULTS_DIR: Defaults to ./elsewhere.\n"
    assert defaults(tmp_path / "other", other) == []


# --------------------------------------------------------------------------------------------------
# The defaults of a file the README's build scripts source

SETTINGS = """\
export BASE_VERSION="${BASE_VERSION:-6.1}"
export GPU_ARCH="${GPU_ARCH:-gfx1100}"
export LIB_BRANCH="${LIB_BRANCH:-v3.2.0}"
: "${JOBS:=8}"
OUT_DIR=${OUT_DIR:-./out}
export REGISTRY="docker.io/acme"
"""
BUILD_LIB = """\
#!/bin/bash
set -e
cd "$(dirname "$0")/.."
source ./env.sh
podman build -t "$REGISTRY/lib:$LIB_BRANCH" \\
  --build-arg BASE_VERSION="${BASE_VERSION}" \\
  --build-arg LIB_REF="${LIB_BRANCH}" \\
  -f lib/Dockerfile lib
"""
LIB = (
    "ARG BASE_VERSION=6.1\nFROM rocm/dev:${BASE_VERSION}\n"
    'ARG LIB_REF="v3.1.0"\nRUN git clone -b ${LIB_REF} x\n'
)
CONFIGURATION = """\
## Configuration

All build settings live in `env.sh`:
- `BASE_VERSION`: the ROCm release (default: `6.1`)
- `LIB_BRANCH`: tag of the library to compile (default: `v3.1.0`)
- `JOBS`: parallel compile jobs (default: `4`)
- `OUT_DIR`: where logs go (default: `out/`)
"""


def sourced(
    root: Path, section: str = CONFIGURATION, script: str = BUILD_LIB, settings: str = SETTINGS
) -> list[tuple[int, str, str]]:
    readme = f"# Lib toolbox\n\n{section}\n## Build\n\n```bash\n./lib/build.sh\n```\n"
    make_tree(root, {"lib/Dockerfile": LIB, "lib/build.sh": script, "env.sh": settings, "README.md": readme})
    model = build_model(root / "lib/Dockerfile", "lib/Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "defaults to" in d.message
    ]


def test_a_default_the_sourced_settings_file_changed(tmp_path: Path) -> None:
    # the Dockerfile's own ARG default still says what the README says: the script's value wins
    assert sourced(tmp_path) == [
        (
            7,
            "README says LIB_BRANCH defaults to v3.1.0, but env.sh:3 gives it the default v3.2.0 "
            "(lib/build.sh passes it as build arg LIB_REF, over lib/Dockerfile:3's default v3.1.0)",
            "likely",
        ),
        (8, "README says JOBS defaults to 4, but env.sh:4 gives it the default 8", "likely"),
    ]


def test_a_table_of_the_settings_file_is_told_once(tmp_path: Path) -> None:
    # (a table under text naming the file is `script_vars`' claim, `certain`)
    table = (
        "## Settings\n\nEdit `./env.sh` to change them.\n\n| Variable | Default | Meaning |\n|---|---|---|\n"
        "| `GPU_ARCH` | `gfx1030` | target |\n| `BASE_VERSION` | `6.1` | ROCm |\n"
    )
    assert sourced(tmp_path, table) == [
        (9, "README says GPU_ARCH defaults to gfx1030, but env.sh:2 gives it gfx1100", "certain")
    ]


@pytest.mark.parametrize(
    ("section", "script", "settings"),
    [
        # an example, not the default
        (
            CONFIGURATION.replace("(default: `v3.1.0`)", "(default: e.g. `v3.1.0`)").replace("`4`", "e.g. 4"),
            None,
            None,
        ),
        # a section that does not name the file
        (CONFIGURATION.replace("in `env.sh`", "in one place"), None, None),
        # the settings file assigns the variable again later, the script sets it itself
        (
            None,
            BUILD_LIB.replace("source ./env.sh", "source ./env.sh\nJOBS=4"),
            SETTINGS + "LIB_BRANCH=v3.1.0\n",
        ),
        # the script sources it before a `cd` docgen follows: from a folder it does not know
        (None, BUILD_LIB.replace('cd "$(dirname "$0")/.."\nsource ./env.sh', "source ./env.sh"), None),
        # no script sources the file the README names
        (None, BUILD_LIB.replace("source ./env.sh", "true"), None),
    ],
)
def test_settings_files_that_say_nothing_against_the_readme(
    tmp_path: Path, section: str | None, script: str | None, settings: str | None
) -> None:
    assert sourced(tmp_path, section or CONFIGURATION, script or BUILD_LIB, settings or SETTINGS) == []


LAUNCHER = """\
#!/bin/bash
set -e

if [ -f "defaults.env" ]; then
    set -a
    source defaults.env
    set +a
else
    echo "defaults.env not found"
fi

usage() {
    cat <<EOF
Usage: $0 [--weights W] [--batch N]
  --threads N   (Current: $THREADS)
EOF
}

PRESET="rdna3"  # picks the GPU settings
VERBOSE=0

while [[ $# -gt 0 ]]; do
    case "$1" in
        --weights)
            WEIGHTS="$2"
            shift 2
            ;;
        --batch) BATCH="$2"; shift 2 ;;
        --threads)
            THREADS="$2"
            shift 2
            ;;
        --preset)
            PRESET="$2"
            shift 2
            ;;
        --dtype)
            DTYPE="$2"
            shift 2
            ;;
        --verbose)
            VERBOSE=1
            shift
            ;;
        -h|--help)
            usage
            exit 0
            ;;
        *)
            echo "unknown: $1"
            exit 1
            ;;
    esac
done
docker compose up -d
"""
ENV_FILE = "# model\nWEIGHTS=acme/coder-7b-int4\nBATCH=16\nTHREADS=8\n"


def table_defaults(root: Path, rows: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    readme = (
        "# Launcher\n\n```bash\n./launch.sh --preset rdna2\n```\n\n## Options\n\n"
        f"| Option | Default | Description |\n|---|---|---|\n{rows}"
    )
    make_tree(root, {"launch.sh": LAUNCHER, "defaults.env": ENV_FILE, "README.md": readme, **(files or {})})
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [], {}, root, root)
        if "defaults to" in d.message
    ]


def test_an_option_table_default_the_sourced_env_file_overrides(tmp_path: Path) -> None:
    rows = (
        "| `--weights` | `acme/coder-3b` | model to serve |\n"
        "| `--batch N` | 16 | batch size |\n"
        "| `--threads` | your CPU count | threads |\n"
        "| `--preset` | `rdna4` | GPU preset |\n"
        "| `--dtype` | `auto` | the program picks |\n"
        "| `--verbose` | `0` | a switch |\n"
    )
    assert table_defaults(tmp_path, rows) == [
        (
            11,
            "README says --weights defaults to acme/coder-3b, but launch.sh:25 sets WEIGHTS from it, which "
            "defaults.env:2 (sourced by launch.sh:6) sets to acme/coder-7b-int4 before the options are read",
            "likely",
        ),
        (
            14,
            "README says --preset defaults to rdna4, but launch.sh:34 sets PRESET from it, which "
            "launch.sh:19 sets to rdna3 before the options are read",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    ("rows", "files"),
    [
        # defaults that agree, a word for a default, the program's own default (nothing set before)
        (
            "| `--weights` | `acme/coder-7b-int4` | |\n| `--threads` | all cores | |\n"
            "| `--dtype` | `fp16` | |\n",
            {},
        ),
        # the env file sets none of them: nothing set before the options are read
        ("| `--weights` | `acme/coder-3b` | |\n| `--batch` | `4` | |\n", {"defaults.env": ""}),
        # a table of another program's options (the script takes none of two of them)
        ("| `--weights` | `acme/coder-3b` | |\n| `--top-k` | `40` | |\n| `--top-p` | `0.9` | |\n", {}),
    ],
)
def test_option_tables_that_agree_or_are_not_the_scripts(
    tmp_path: Path, rows: str, files: dict[str, str]
) -> None:
    assert table_defaults(tmp_path, rows, files) == []


def test_an_option_table_of_a_script_the_readme_does_not_run(tmp_path: Path) -> None:
    rows = "| `--weights` | `acme/coder-3b` | |\n| `--batch` | `4` | |\n"
    readme = f"# Launcher\n\n## Options\n\n| Option | Default | Description |\n|---|---|---|\n{rows}"
    make_tree(tmp_path, {"launch.sh": LAUNCHER, "defaults.env": ENV_FILE, "README.md": readme})
    assert [
        d for d in audit(readme, "README.md", [], {}, tmp_path, tmp_path) if "defaults to" in d.message
    ] == []
