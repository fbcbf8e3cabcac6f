"""`docgen audit`: arguments a README passes to a script beside it that the script's own format check
rejects (docgen/audit/script_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM ubuntu:22.04\nARG RELEASE\nARG commit\n"
BUILD = """\
#!/bin/bash
if ! [[ $1 =~ ^jammy|noble$ ]]; then
    echo "bad release"
    exit 1
fi
TOOLKIT="${2:-cuda12.4}"
[[ $TOOLKIT =~ ^cuda[[:digit:]]+\\.[0-9]+$ ]] || exit 2
if ! [[ $3 =~ ^v[0-9]+ ]]; then
    echo "no tag given, using main"
fi
docker build --build-arg RELEASE=$1 -t app .
"""


def found(root: Path, commands: str, build: str = BUILD) -> list[tuple[int, str, str]]:
    readme = f"# App\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "build.sh": build, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README runs" in d.message
    ]


def test_an_argument_the_scripts_check_rejects(tmp_path: Path) -> None:
    assert found(tmp_path, "./build.sh jammy cuda-12.4") == [
        (
            4,
            "README runs ./build.sh with cuda-12.4 as argument 2, which build.sh:7 rejects "
            "(it must match ^cuda[0-9]+\\.[0-9]+$)",
            "likely",
        )
    ]


def test_an_argument_named_by_an_exported_variable(tmp_path: Path) -> None:
    build = BUILD.replace('TOOLKIT="${2', 'export TOOLKIT="${2')
    [(line, message, _)] = found(tmp_path, "./build.sh jammy cuda-12.4", build)
    assert "cuda-12.4 as argument 2, which build.sh:7 rejects" in message
    assert found(tmp_path / "ok", "./build.sh jammy cuda12.4", build) == []


def test_two_rejected_arguments_are_one_finding(tmp_path: Path) -> None:
    [(line, message, _)] = found(tmp_path, "bash build.sh ubuntu-22.04 12.4")
    assert line == 4
    assert "ubuntu-22.04 as argument 1, which build.sh:2 rejects" in message
    assert "12.4 as argument 2, which build.sh:7 rejects" in message


@pytest.mark.parametrize(
    "commands",
    [
        "./build.sh noble cuda12.4",  # the true statement
        "./build.sh jammy",  # the second argument left to its default
        "./build.sh jammy cuda12.4 main",  # a check that only warns
        "./build.sh <release> <toolkit>",  # placeholders
        "./build.sh $RELEASE cuda12.4",  # a variable
        "./build.sh --release noble cuda-12.4",  # options first: positions are not the words'
        "docker run app ./build.sh ubuntu-22.04",  # run in the container
    ],
)
def test_arguments_left_alone(tmp_path: Path, commands: str) -> None:
    assert found(tmp_path, commands) == []


# --------------------------------------------------------------------------------------------------
# The options a README lists for a script

LAUNCH = """\
#!/bin/bash
while [[ $# -gt 0 ]]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -t|--tag)
            TAG="$2"; shift 2 ;;
        -g|--gpus)
            GPUS="$2"; shift 2 ;;
        --dry-run)
            DRY=1; shift ;;
        *) echo "unknown option $1"; exit 1 ;;
    esac
done
"""


def listed(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "launch.sh": LAUNCH, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "options of" in d.message
    ]


def test_an_option_list_that_leaves_out_options_the_script_accepts(tmp_path: Path) -> None:
    items = "- `-h, --help`: help\n- `-t, --tag TAG`: the tag\n- `--dry-run`: print\n"
    readme = f"## launch.sh\n\n### Options\n\n{items}"
    assert listed(tmp_path, readme) == [
        (3, "README lists the options of launch.sh without -g/--gpus, which launch.sh:7 accepts", "likely")
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the true statement: every option but help
        "## launch.sh\n\n- `-t, --tag TAG`: the tag\n- `-g, --gpus N`: GPUs\n- `--dry-run`: print\n",
        # a list saying it holds only some
        "Common options of `launch.sh`:\n\n- `-t, --tag TAG`: the tag\n- `--dry-run`: print\n",
        # an option the script does not take: another script's list
        "## launch.sh\n\n- `-t, --tag TAG`: the tag\n- `--push`: push it\n",
        # no script named
        "## Options\n\n- `-t, --tag TAG`: the tag\n- `--dry-run`: print\n",
    ],
)
def test_option_lists_left_alone(tmp_path: Path, readme: str) -> None:
    assert listed(tmp_path, readme) == []


OPTIONS = """\
#!/bin/bash
usage() { echo "usage: $0 [-f FRAMEWORK] [-d DEVICE] [--tag=TAG]"; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    -f|--framework) FRAMEWORK="$2"; shift 2 ;;
    -d|--device) DEVICE="$2"; shift 2 ;;
    --tag=*) TAG="${1#*=}"; shift ;;
    -h|--help) usage 0 ;;
    *) echo "Unknown arg: $1" >&2; usage 2 ;;
  esac
done
docker build -t "app:$TAG" .
"""
KEEPS = OPTIONS.replace('*) echo "Unknown arg: $1" >&2; usage 2 ;;', '*) ARGS+=("$1"); shift ;;')
GETOPTS = '#!/bin/bash\nwhile getopts "f:d:" o; do case $o in f) F=$OPTARG ;; *) exit 1 ;; esac; done\n'


def options_found(root: Path, script: str, commands: str) -> list[tuple[int, str, str]]:
    readme = f"# App\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "build.sh": script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


TAKES = "(it takes -f, --framework, -d, --device, --tag=*, -h, --help)"


@pytest.mark.parametrize(
    ("commands", "said"),
    [
        (
            "./build.sh --main -d strix",
            f"README runs ./build.sh with --main, which build.sh:9 refuses {TAKES}",
        ),
        (
            "bash build.sh -f vllm --devise strix",
            f"README runs build.sh with --devise, which build.sh:9 refuses {TAKES}",
        ),
        ("./build.sh --tag v1", f"README runs ./build.sh with --tag, which build.sh:9 refuses {TAKES}"),
    ],
)
def test_an_option_the_script_refuses(tmp_path: Path, commands: str, said: str) -> None:
    assert options_found(tmp_path, OPTIONS, commands) == [(4, said, "certain")]


@pytest.mark.parametrize(
    ("script", "commands"),
    [
        (OPTIONS, "./build.sh -f vllm --device strix --tag=v1"),
        (OPTIONS, "./build.sh --help"),
        (OPTIONS, "./build.sh -f vllm -- --main"),  # after `--`: not the script's options
        (KEEPS, "./build.sh --main"),  # its catch-all passes words on
        (OPTIONS, "./build.sh -f $FRAMEWORK --${WHAT}"),
    ],
)
def test_options_the_script_takes_or_may_take(tmp_path: Path, script: str, commands: str) -> None:
    assert options_found(tmp_path, script, commands) == []


LATEST = """\
#!/bin/bash
COMMIT=$(curl -s https://api.example.org/latest | cut -d'"' -f4)
docker build --build-arg commit="$COMMIT" -t app .
"""


def test_arguments_a_script_never_reads(tmp_path: Path) -> None:
    assert found(tmp_path, "./build.sh 7a3ca2c68f1c", LATEST) == [
        (
            4,
            "README runs ./build.sh with 7a3ca2c68f1c, but build.sh reads no argument (no $1, $@, shift or "
            "getopts): what it is given changes nothing",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "reads",
    [
        'COMMIT="${1:-main}"',
        'for a in "$@"; do echo "$a"; done',
        "while getopts c: opt; do :; done",
        '[ "$#" -gt 0 ] && COMMIT=x',
        "shift",
        "source ./common.sh",
        ". ./common.sh",
        'eval "$EXTRA"',
    ],
)
def test_a_script_that_reads_or_may_pass_on_its_arguments(tmp_path: Path, reads: str) -> None:
    script = LATEST.replace("docker build", f"{reads}\ndocker build")
    assert found(tmp_path, "./build.sh 7a3ca2c68f1c", script) == []


def test_a_script_run_without_arguments_or_not_a_shell_script(tmp_path: Path) -> None:
    assert found(tmp_path, "./build.sh", LATEST) == []
    assert found(tmp_path / "b", "./build.sh > build.log", LATEST) == []
    make_tree(tmp_path / "c", {"tool.py": "print('hi')\n"})
    assert found(tmp_path / "c", "python tool.py --fast", LATEST) == []


# A clone of this repository in one block, entered by `cd` at the top of later blocks
CLONED = """\
# Chat UI

```sh
git clone https://github.com/acme/chat-ui-docker.git
```

```sh
cd {first}
docker build -t chat-ui:latest .
```

```sh
cd {second}
./build.sh 7a3ca2c68f1c
```
"""


def _cloned(root: Path, first: str, second: str) -> list[tuple[int, str, str]]:
    readme = CLONED.format(first=first, second=second)
    make_tree(root, {"Dockerfile": APP, "build.sh": LATEST, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "reads no argument" in d.message
    ]


def test_an_ignored_argument_in_a_later_block_entering_this_repositorys_clone(tmp_path: Path) -> None:
    # the checkout's folder is not named `chat-ui-docker`: the clone is told by the file it runs
    assert [line for line, _, _ in _cloned(tmp_path, "chat-ui-docker", "chat-ui-docker")] == [14]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("other-tool", "other-tool"),  # blocks entering another folder than the clone's
        ("chat-ui-docker", "chat-ui-docker/upstream"),  # a folder inside it, not found here
    ],
)
def test_later_blocks_that_do_not_enter_the_clone(tmp_path: Path, first: str, second: str) -> None:
    assert _cloned(tmp_path, first, second) == []


def test_a_script_is_read_up_to_the_project_file_limit(tmp_path: Path) -> None:
    # One limit for a project file read because it may be a script (`errors.MAX_PROJECT_FILE_BYTES`):
    # a long script under it is read, a file over it (a model, an archive) is passed over in silence.
    from docgen.errors import MAX_PROJECT_FILE_BYTES

    padding = "# generated table\n" * (300_000 // 18)
    assert found(tmp_path / "long", "./build.sh jammy cuda-12.4", BUILD + padding) != []
    over = "#" * (MAX_PROJECT_FILE_BYTES - len(BUILD)) + "\n"
    assert found(tmp_path / "over", "./build.sh jammy cuda-12.4", BUILD + over) == []


# --------------------------------------------------------------------------------------------------
# A first word the script's `case "$1"` or word list does not take (`unknown_first_words`)

# Modelled on an entrypoint that downloads a model named by its first argument from a heredoc list
# (`MODEL_LIST=$(cat << EOF`, then `grep "$1"`, `usage; exit 1` when nothing matched).
FETCH = """\
#!/bin/sh
set -eu
MODELS=$(cat << EOF
tiny-1b 0a1b https://models.example.org/tiny-1b.gguf
owl-7b 2c3d https://models.example.org/owl-7b.gguf
owl-13b 4e5f https://models.example.org/owl-13b.gguf
kite-2.5-3b 6a7b https://models.example.org/kite-2.5-3b.gguf
EOF
)

usage() {
  echo "Usage: $0 [MODEL]"
}

fetch() {
  if [ "$#" -ge 1 ]; then
    LINE=$(echo "$MODELS" | grep "$1" || true)
    if [ -z "$LINE" ]; then
      usage
      exit 1
    fi
    curl -LO "$(echo "$LINE" | awk '{print $3}')"
    exit 0
  fi
}

fetch "$@"
exec server
"""
MODELS_README = """\
# Server

## Models

Download a model with `./fetch.sh <model>`.

| Target | Size |
| --- | --- |
| owl-7b | 5 GB |
| kite-2.5-3b | 2 GB |
| heron-9b | 6 GB |
| owl-13b | 9 GB |
"""
# Modelled on a helper script whose `case "$1" in` names its commands, the catch-all printing help.
TASKS = """\
#!/usr/bin/env bash
set -e
case "$1" in
  build) docker build -t app . ;;
  serve|up)
    docker run --rm -p 80:80 app
    ;;
  logs-*) docker logs app ;;
  *)
    echo "usage: $0 build|serve|logs-NAME"
    exit 2
    ;;
esac
"""


def first_words(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "does not take" in d.message
    ]


def test_a_listed_word_the_script_list_does_not_hold(tmp_path: Path) -> None:
    assert first_words(tmp_path, MODELS_README, {"fetch.sh": FETCH}) == [
        "11: README lists heron-9b for fetch.sh, which fetch.sh does not take: line 17 looks it up in its "
        "MODELS, and no entry holds it, so it exits with an error (likely)"
    ]


def test_a_word_a_command_passes_to_a_case(tmp_path: Path) -> None:
    readme = (
        "# App\n\n```bash\n./tasks.sh serve\n./tasks.sh logs-web\n./tasks.sh deploy\n./tasks.sh <task>\n```\n"
    )
    assert first_words(tmp_path, readme, {"tasks.sh": TASKS}) == [
        '6: README runs ./tasks.sh with deploy, which tasks.sh does not take: its `case "$1"` (line 3) '
        "takes build, serve, up, logs-*, so it exits with an error (likely)"
    ]


@pytest.mark.parametrize(
    ("script", "old", "new"),
    [
        # a catch-all that passes the words on, or exits 0
        ("tasks.sh", '    echo "usage: $0 build|serve|logs-NAME"\n    exit 2', '    exec "$@"'),
        ("tasks.sh", "    exit 2", "    exit 0"),
        # the first word moved (`shift`), another file sourced, a pattern holding a variable
        ("tasks.sh", "set -e\n", 'set -e\n[ "$1" = -v ] && shift\n'),
        ("tasks.sh", "set -e\n", "set -e\n. ./more-tasks.sh\n"),
        ("tasks.sh", "  build)", '  "$TARGET")'),
        # the list test in a function called with other words, a grep as a whole word, no error exit
        ("fetch.sh", 'fetch "$@"', 'fetch "$2"'),
        ("fetch.sh", 'grep "$1"', 'grep -w "$1"'),
        ("fetch.sh", "      exit 1\n", ""),
    ],
)
def test_first_words_the_script_may_take(tmp_path: Path, script: str, old: str, new: str) -> None:
    text = {"tasks.sh": TASKS, "fetch.sh": FETCH}[script]
    assert old in text
    word = {"tasks.sh": "deploy", "fetch.sh": "heron-9b"}[script]
    readme = f"# App\n\n```bash\n./{script} {word}\n```\n"
    assert (
        first_words(tmp_path, readme, {"fetch.sh": FETCH, "tasks.sh": TASKS, script: text.replace(old, new)})
        == []
    )


@pytest.mark.parametrize(
    "readme",
    [
        # a table listing other things (fewer than two of the script's words), a cell not a plain word
        MODELS_README.replace("| owl-7b |", "| raven-7b |").replace("| owl-13b |", "| raven-13b |"),
        MODELS_README.replace("| heron-9b |", "| `heron 9b` (soon) |"),
        # no span showing the script with a word to fill in, or the table under another heading
        MODELS_README.replace("`./fetch.sh <model>`", "`./fetch.sh`"),
        MODELS_README.replace("\n| Target", "\n## Others\n\n| Target"),
        # `.` in a word is any character for grep: `tiny.1b` matches `tiny-1b`
        MODELS_README.replace("| heron-9b |", "| tiny.1b |"),
    ],
)
def test_tables_not_read_as_the_script_words(tmp_path: Path, readme: str) -> None:
    assert first_words(tmp_path, readme, {"fetch.sh": FETCH}) == []


# -- options given to a script that reads its arguments only by position -----------------------------

# modelled on a game-server image's run script: the world name first, the port second
SERVE = """\
#!/usr/bin/env bash
IMAGE=acme/worlds
TAG="stable"
WORLD=${1:-meadow}
PORT="${2:-25565}"
if [ -n "$2" ]; then
    echo "port $PORT"
fi
docker run -d --name "world-$WORLD" -p "$PORT:25565" "$IMAGE:$TAG"
"""


def positioned(
    root: Path, readme: str, script: str = SERVE, where: str = "serve.sh"
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, where: script, "docs/README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "docs/README.md", model, {}, root / "docs", root)
        if "parses no options" in d.message
    ]


def test_an_option_given_to_a_script_that_reads_only_positions(tmp_path: Path) -> None:
    readme = "# Worlds\n\n```bash\ncd ..\n./serve.sh --tag beta\n```\n"
    assert positioned(tmp_path, readme) == [
        (
            5,
            "README runs ./serve.sh with --tag, but serve.sh parses no options: it reads only its arguments "
            "1 and 2, as WORLD, PORT (serve.sh:4, 5), so --tag is taken as a value; TAG is set to stable at "
            "serve.sh:3",
            "certain",
        )
    ]


# modelled on a notebook image's guide, one page down from the scripts
GUIDE = """\
# Lab container

## Running

```bash
./start.sh
```

### Options

You can run the `start.sh` script with the following options:

* `--gpu`: Use the GPU.
* `--detach`: Run in the background.
* `-h`, `--help`: Show help.
"""
START = """\
#!/bin/bash
NAME=lab
PORT=8888
if [ "$1" ]; then
    PORT="$1"
fi
docker run -it --name "$NAME" -p "$PORT:8888" lab:latest
"""


def test_a_list_of_options_for_a_script_that_reads_only_positions(tmp_path: Path) -> None:
    found = positioned(tmp_path, GUIDE, START, "start.sh")
    assert [(line, message.split(":", 1)[0], confidence) for line, message, confidence in found] == [
        (13, "README lists --gpu as an option of start.sh, but start.sh parses no options", "likely"),
        (14, "README lists --detach as an option of start.sh, but start.sh parses no options", "likely"),
        (15, "README lists -h as an option of start.sh, but start.sh parses no options", "likely"),
    ]
    assert found[0][1].endswith("it reads only its argument 1, as PORT (start.sh:5)")


@pytest.mark.parametrize(
    "script",
    [
        START.replace('if [ "$1" ]', 'if [ "$1" = "--help" ]; then echo usage; exit 0; fi\nif [ "$1" ]'),
        START.replace("fi\n", "fi\nshift\n", 1),  # reads the rest as a list
        START + 'exec docker logs -f "$NAME" "$@"\n',  # passes its words on
        START.replace('PORT="$1"', 'PORT="$1"\n    case "$1" in -g|--gpu) GPU=1 ;; esac'),  # a case
        "#!/bin/bash\nwhile getopts g:d opt; do :; done\n",
        START.replace('    PORT="$1"', '    ./launch "$1"'),  # $1 handed to another program
        "#!/usr/bin/env python3\nimport sys\nport = sys.argv[1]\n",  # not a shell script
    ],
)
def test_scripts_that_parse_or_pass_on_their_options(tmp_path: Path, script: str) -> None:
    assert positioned(tmp_path, GUIDE, script, "start.sh") == []


def test_positional_words_and_other_lists_are_left_alone(tmp_path: Path) -> None:
    plain = "# Worlds\n\n```bash\ncd ..\n./serve.sh meadow 25570\n```\n"
    assert positioned(tmp_path, plain) == []
    other = GUIDE.replace("the `start.sh` script", "the `lab` command")  # names no script
    assert positioned(tmp_path, other, START, "start.sh") == []
    usage = START.replace("NAME=lab", 'NAME=lab\necho "start.sh [--gpu] [--detach]"')  # said by the script
    found = positioned(tmp_path, GUIDE, usage, "start.sh")
    assert [line for line, _, _ in found] == [15]


# --------------------------------------------------------------------------------------------------
# Options a README gives or lists for a script that its `getopt` or `getopts` does not declare

IMAGE = """\
#!/bin/bash
set -e
NAME=NULL
PY="3.8"
usage() {
  echo "  -n/--name            : name of the image"
  echo "  -p/--python_version  : the Python version"
}
args=$(getopt -o n:p:rh:: --long name:,python_verison:,release,help::, -n "$0" -- "$@")
[ $? -ne 0 ] && { usage; exit 1; }
eval set -- "$args"
while true; do
  case "$1" in
    -n|--name) NAME=$2; shift 2;;
    -p|--python_verison) PY=$2; shift 2;;
    -r|--release) REL=1; shift;;
    -h|--help) usage; exit;;
    --) shift; break;;
    *) usage; exit 1;;
  esac
done
docker build --build-arg PY=$PY -t $NAME .
"""
IMAGE_README = """\
# Images

#### Options of make_image.sh
* `-n`/`--name`: name of the image, default: NULL.
* `-p`/`--python_version`: the Python version, default: 3.8.
* `-r`/`--release`: build the release image.
* `-h`/`--help`: help.

```shell
bash make_image.sh -n dev -p 3.10
```
"""


def declared(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    readme = files["README.md"]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "does not accept" in d.message
    ]


def test_a_listed_long_option_its_getopt_does_not_declare(tmp_path: Path) -> None:
    assert declared(tmp_path, {"make_image.sh": IMAGE, "README.md": IMAGE_README}) == [
        (
            5,
            "README lists --python_version as an option of make_image.sh, but make_image.sh does not "
            "accept it: its getopt (make_image.sh:9) declares --python_verison, not --python_version",
            "certain",
        )
    ]
    fixed = IMAGE.replace("python_verison", "python_version")
    assert declared(tmp_path / "fixed", {"make_image.sh": fixed, "README.md": IMAGE_README}) == []


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("./make_image.sh --name dev --python_version 3.10", "--python_version"),
        ("./make_image.sh -n dev -x", "-x"),
        ("./make_image.sh -rx", "-x"),  # a cluster of short options
        ("./make_image.sh --tag v1 -n dev", "--tag"),
    ],
)
def test_a_command_giving_an_option_its_getopt_does_not_declare(
    tmp_path: Path, command: str, said: str
) -> None:
    readme = f"# Images\n\n```bash\n{command}\n```\n"
    [(line, message, confidence)] = declared(tmp_path, {"make_image.sh": IMAGE, "README.md": readme})
    name = said if said != "-x" else "-rx" if "-rx" in command else "-x"
    assert (line, confidence) == (4, "certain")
    assert message.startswith(f"README runs ./make_image.sh with {name}, but make_image.sh does not accept")


@pytest.mark.parametrize(
    "command",
    [
        "./make_image.sh --name dev --python_verison 3.10 --release",
        "./make_image.sh --na dev --rel",  # a prefix of one long option: getopt takes it
        "./make_image.sh -n --odd",  # the value of -n
        "./make_image.sh --name=dev -h",
        "./make_image.sh -n dev -- --extra",  # after `--`
        "./make_image.sh -n dev ${EXTRA_FLAGS}",
    ],
)
def test_options_its_getopt_declares(tmp_path: Path, command: str) -> None:
    readme = f"# Images\n\n```bash\n{command}\n```\n"
    assert declared(tmp_path, {"make_image.sh": IMAGE, "README.md": readme}) == []


@pytest.mark.parametrize(
    "script",
    [
        IMAGE.replace('-n "$0" -- "$@"', '-n "$0" -- "$ARGS"'),  # not the script's own arguments
        IMAGE.replace("--long name:", "--long $LONG,name:"),  # a variable in the list
        IMAGE.replace("getopt -o", "getopt -a -o"),  # long options with one dash
        IMAGE + 'sub=$(getopt -o x: --long extra: -- "$@")\n',  # two parsers
        '#!/usr/bin/env python3\nimport sys\n# getopt -o n: --long name: -- "$@"\n',  # no shell script
    ],
)
def test_getopt_scripts_left_alone(tmp_path: Path, script: str) -> None:
    assert declared(tmp_path, {"make_image.sh": script, "README.md": IMAGE_README}) == []


SERVE = """\
#!/usr/bin/env bash
PORT=8080
for arg in "$@"; do
  shift
  case "$arg" in
    "--port") set -- "$@" "-p" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
while getopts ":p:t:g" opt; do
  case $opt in
    p) PORT=$OPTARG ;;
    t) TAG=$OPTARG ;;
    g) GPU=1 ;;
    \\?) echo "invalid option -$OPTARG"; exit 1 ;;
  esac
done
shift $((OPTIND - 1))
docker run -p "$PORT:8080" "server:$TAG"
"""
SERVE_README = """\
# Server

Run `serve.sh` with these flags:

| Flag | Meaning |
|---|---|
| `-t <tag>` | image tag |
| `-p`, `--port` | port to publish |
| `-g` | use the GPU |
| `--detach` | run in the background |

```bash
./serve.sh -t v2 -g run --detach
```
"""


def test_a_table_option_its_getopts_does_not_declare(tmp_path: Path) -> None:
    assert declared(tmp_path, {"serve.sh": SERVE, "README.md": SERVE_README}) == [
        (
            10,
            "README lists --detach as an option of serve.sh, but serve.sh does not accept it: its "
            "getopts (serve.sh:10) takes -g, -p, -t, --port",
            "certain",
        )
    ]  # the command's --detach comes after `run`, where getopts stops reading options


@pytest.mark.parametrize(
    ("script", "readme"),
    [
        (SERVE.replace('":p:t:g"', '":p:t:g-:"'), SERVE_README),  # `-:`: long options read by getopts
        (SERVE.replace('"--port")', "--*)"), SERVE_README),  # long options read by a pattern
        # a list of another program's options under a heading naming the script
        (SERVE, "## serve.sh\n\n* `--rm`: remove\n* `--gpus all`: GPUs\n* `-t`: tag\n"),
    ],
)
def test_getopts_scripts_left_alone(tmp_path: Path, script: str, readme: str) -> None:
    assert declared(tmp_path, {"serve.sh": script, "README.md": readme}) == []


def test_getopts_refuses_an_option_before_its_first_word(tmp_path: Path) -> None:
    [(line, message, _)] = declared(
        tmp_path, {"build.sh": GETOPTS, "README.md": "```bash\n./build.sh -x\n```\n"}
    )
    assert (
        message
        == "README runs ./build.sh with -x, but build.sh does not accept it: its getopts (build.sh:2) "
        "takes -d, -f"
    )


# --------------------------------------------------------------------------------------------------
# A Python script's argparse options, listed or passed with `-` where the parser declares `_`

SHRINK = """\
import argparse


def parse():
    parser = argparse.ArgumentParser(description="Shrink a checkpoint")
    parser.add_argument("--ckpt_dir", required=True)
    parser.add_argument("--bits", type=int, default=4)
    parser.add_argument("--group_size", type=int, default=128)
    parser.add_argument("--act-order", action="store_true")
    parser.add_argument("--out", default="out")
    return parser.parse_args()
"""
SHRINK_IMAGE = (
    "FROM python:3.11-slim\nWORKDIR /app\nCOPY shrink.py /app/\n"
    'ENTRYPOINT ["python", "/app/shrink.py", "--ckpt_dir", "/ckpt"]\n'
)
SHRINK_README = """\
# Checkpoint shrinker

The container's entry point runs `shrink.py --ckpt_dir /ckpt` on the folder you mount.

## Flags

### Tuning
- `--bits`: bits per weight (default 4).
- `--group-size`: quantisation group size (default 128).
- `--act-order`: quantise columns by decreasing activation.
- `--gpus all`: give the container the GPUs (a `docker run` option).

## Max mode

Max mode keeps everything else and turns on (`--group-size 64 --act_order`) internally.
"""


def _python_declared(root: Path, files: dict[str, str], dockerfile: str = APP) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "does not accept" in d.message
    ]


def test_an_entry_script_option_listed_with_a_dash_for_its_underscore(tmp_path: Path) -> None:
    files = {"shrink.py": SHRINK, "README.md": SHRINK_README}
    assert _python_declared(tmp_path, files, SHRINK_IMAGE) == [
        (
            9,
            "README lists --group-size as an option of shrink.py, but shrink.py does not accept it: its "
            "argparse (shrink.py:8) declares --group_size, not --group-size (argparse does not read `-` "
            "and `_` alike)",
            "certain",
        )
    ]
    fixed = dict(files, **{"shrink.py": SHRINK.replace('"--group_size"', '"--group-size"')})
    assert _python_declared(tmp_path / "fixed", fixed, SHRINK_IMAGE) == []


@pytest.mark.parametrize(
    "change",
    [
        ("import argparse\n", "import argparse\nimport typer\n"),  # typer spells `group_size` `--group-size`
        ("import argparse\n", "import argparse\nfrom transformers import HfArgumentParser\n"),
        ("parser.parse_args()", "parser.parse_known_args()[0]"),  # the rest passed on
        ('description="Shrink a checkpoint"', "parents=[common]"),  # options of another parser
    ],
)
def test_python_scripts_that_may_take_the_other_spelling(tmp_path: Path, change: tuple[str, str]) -> None:
    files = {"shrink.py": SHRINK.replace(*change), "README.md": SHRINK_README}
    assert _python_declared(tmp_path, files, SHRINK_IMAGE) == []


def test_an_entry_script_the_readme_never_names(tmp_path: Path) -> None:
    readme = SHRINK_README.replace("runs `shrink.py --ckpt_dir /ckpt` on", "runs on")
    assert _python_declared(tmp_path, {"shrink.py": SHRINK, "README.md": readme}, SHRINK_IMAGE) == []


TRAIN = """\
#!/usr/bin/env python3
import argparse

p = argparse.ArgumentParser()
p.add_argument('--data-dir', default='data')
p.add_argument('--epochs', type=int, default=10)
p.add_argument('--learning_rate', type=float, default=3e-4)
p.add_argument('--no_wandb', action='store_true')
args = p.parse_args()
"""
TRAIN_README = """\
# Tiny trainer

## train.py options

| Option | Meaning |
|---|---|
| `--data-dir` | the dataset folder |
| `--epochs` | how many passes |
| `--learning-rate` | the optimiser's step |

```bash
python3 train.py --data-dir ./data --epoch 3 --no-wandb
```
"""


def test_a_table_and_a_run_of_a_python_script(tmp_path: Path) -> None:
    assert _python_declared(tmp_path, {"train.py": TRAIN, "README.md": TRAIN_README}) == [
        (
            9,
            "README lists --learning-rate as an option of train.py, but train.py does not accept it: its "
            "argparse (train.py:7) declares --learning_rate, not --learning-rate (argparse does not read "
            "`-` and `_` alike)",
            "certain",
        ),
        (
            12,
            "README runs train.py with --no-wandb, but train.py does not accept it: its argparse "
            "(train.py:8) declares --no_wandb, not --no-wandb (argparse does not read `-` and `_` alike)",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("--no-wandb", "--no_wandb"),  # `--epoch`: a prefix of --epochs alone, which argparse takes
        ("p = argparse.ArgumentParser()", "import click\np = argparse.ArgumentParser()"),
    ],
)
def test_python_runs_argparse_takes(tmp_path: Path, old: str, new: str) -> None:
    readme = TRAIN_README.replace("`--learning-rate`", "`--learning_rate`")
    files = {"train.py": TRAIN, "README.md": readme}
    files = {k: v.replace(old, new) for k, v in files.items()}
    assert _python_declared(tmp_path, files) == []


def test_argparse_without_abbreviations_refuses_a_prefix(tmp_path: Path) -> None:
    train = TRAIN.replace("ArgumentParser()", "ArgumentParser(allow_abbrev=False)")
    readme = TRAIN_README.replace("`--learning-rate`", "`--learning_rate`").replace("--no-wandb", "")
    [(line, message, _)] = _python_declared(tmp_path, {"train.py": train, "README.md": readme})
    assert line == 12
    assert message.startswith("README runs train.py with --epoch, but train.py does not accept it")


def test_a_parser_given_to_another_files_function(tmp_path: Path) -> None:
    shrink = SHRINK.replace(
        "    return parser.parse_args()", "    add_common(parser)\n    return parser.parse_args()"
    )
    files = {"shrink.py": "from common import add_common\n" + shrink, "README.md": SHRINK_README}
    assert _python_declared(tmp_path, files, SHRINK_IMAGE) == []


# --------------------------------------------------------------------------------------------------
# argparse scripts whose words come from `sys.argv` through `main`, and positional words counted

MIDI = """\
import argparse
import sys


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("-s", "--session", required=True)
    parser.add_argument("-n", "--number", default=200)
    parser.add_argument("-d", "--data_dir")
    args = parser.parse_args(argv)
    print(args.session)


if __name__ == "__main__":
    main(sys.argv[1:])
"""
MIDI_README = """\
# midi trainer

## train
python train.py --mode train --session metal03 --number 4000
"""


def test_an_option_of_a_parser_built_in_main_given_sys_argv(tmp_path: Path) -> None:
    [(line, message, confidence)] = _python_declared(tmp_path, {"train.py": MIDI, "README.md": MIDI_README})
    assert (line, confidence) == (4, "certain")
    assert message.startswith("README runs train.py with --mode, but train.py does not accept it")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("    main(sys.argv[1:])", "    main(sys.argv[2:])"),  # a word read apart from the parser
        ("    print(args.session)", "    print(args.session, argv[0])"),  # main reads its words itself
        ("    main(sys.argv[1:])", "    MODE = sys.argv[1]\n    main(sys.argv[2:])"),
        ("import sys\n", "import sys\nfrom sys import argv\nif argv[1] == 'x':\n    pass\n"),
    ],
)
def test_a_script_reading_sys_argv_beside_its_parser(tmp_path: Path, old: str, new: str) -> None:
    files = {"train.py": MIDI.replace(old, new), "README.md": MIDI_README}
    assert _python_declared(tmp_path, files) == []


DUPLICATE = """\
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("augment_amount", type=int, default=24,
                    help="augmented images per class")
parser.add_argument('--path',
                    help='Path to duplicate')
args = parser.parse_args()
"""


def _counted(root: Path, script: str, commands: str) -> list[tuple[int, str, str]]:
    readme = f"# Signature tools\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "duplicate_images.py": script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "positional argument" in d.message
    ]


def test_a_path_given_by_position_where_the_parser_takes_it_as_an_option(tmp_path: Path) -> None:
    assert _counted(tmp_path, DUPLICATE, "python duplicate_images.py 24 /data/crop/") == [
        (
            4,
            "README runs duplicate_images.py with 2 positional arguments (24 /data/crop/), but its argparse "
            '(duplicate_images.py:3) declares one, augment_amount, so it exits with "unrecognized '
            'arguments: /data/crop/"',
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("script", "commands"),
    [
        (DUPLICATE, "python duplicate_images.py 24 --path /data/crop/"),
        (DUPLICATE, "python duplicate_images.py --path /data/crop/ 24"),
        (DUPLICATE, "python duplicate_images.py 24 /data/$NAME"),  # a variable: maybe no word
        (DUPLICATE, "python duplicate_images.py <amount> [<path>]"),  # a usage line
        (DUPLICATE, "python duplicate_images.py -5 /data"),  # a negative number
        (DUPLICATE, "python duplicate_images.py 24 --pa /data/crop/"),  # a prefix: not counted here
        (DUPLICATE.replace("default=24,", "nargs='+',"), "python duplicate_images.py 24 /data/crop/"),
        (DUPLICATE.replace("default=24,", "nargs='?',"), "python duplicate_images.py 24"),
        (DUPLICATE.replace("'--path',", "'--path', nargs='*',"), "python duplicate_images.py 1 --path a b"),
        (
            DUPLICATE.replace("'--path',", "'path', nargs=argparse.REMAINDER,"),
            "python duplicate_images.py 1 a b",
        ),
        (
            DUPLICATE.replace("args = parser", "sub = parser.add_subparsers()\nargs = parser"),
            "python duplicate_images.py 24 train",
        ),
        (
            DUPLICATE.replace("parse_args()", "parse_known_args()"),
            "python duplicate_images.py 24 /data/crop/",
        ),
        (
            DUPLICATE.replace("import argparse", "import argparse\nimport click"),
            "python duplicate_images.py 2 3",
        ),
    ],
)
def test_positional_words_the_parser_takes_or_may_take(tmp_path: Path, script: str, commands: str) -> None:
    assert _counted(tmp_path, script, commands) == []


LABELLED = """\
# Signature tools

[PREPARING DATA]

python duplicate_images.py [AMOUNT] --path [DESTINATION], example: python duplicate_images.py 24 /data/crop/,

[TRAINING]
1.run: python duplicate_images.py 24 --path /data/crop/\\
2.run: python duplicate_images.py 12 /data/device/\\
"""


def test_python_runs_written_in_prose_after_a_label(tmp_path: Path) -> None:
    make_tree(tmp_path, {"Dockerfile": APP, "duplicate_images.py": DUPLICATE, "README.md": LABELLED})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    lines = [
        d.line
        for d in audit(LABELLED, "README.md", model, {}, tmp_path, tmp_path)
        if "positional" in d.message
    ]
    assert lines == [5, 9]


# A shell script whose functions read their own arguments, not the script's

ENV_USER = """\
#!/bin/bash
set_password() {
    local user=$1
    local password=$2
    echo "${user}:${password}" | chpasswd
}

if ! id "$MY_USER" &>/dev/null; then
    adduser --disabled-password --gecos "" --uid $MY_UID $MY_USER
    set_password "$MY_USER" "$MY_PASSWORD"
fi
"""


def test_a_script_whose_functions_alone_read_arguments(tmp_path: Path) -> None:
    [(line, message, confidence)] = found(tmp_path, "./build.sh alice", ENV_USER)
    assert (line, confidence) == (4, "likely")
    assert "build.sh reads no argument" in message


@pytest.mark.parametrize(
    "call",
    [
        'set_password "$@"',  # the function is given the script's arguments
        'set_password "$1" secret',
        "set_password() { echo $1; }\nset_password x",  # a one-line function: not told apart
    ],
)
def test_a_function_given_the_scripts_arguments(tmp_path: Path, call: str) -> None:
    assert found(tmp_path, "./build.sh alice", ENV_USER + call + "\n") == []


# --------------------------------------------------------------------------------------------------
# A Python script run with arguments that runs nothing when started (`python_runs_nothing`)

FIT = '''\
"""Training entry points."""
from pathlib import Path

import hydra
from omegaconf import DictConfig

from fitter.models import Net

CONFIG_DIR = Path(__file__).parent / "configs"


def fit(path: str, dry: bool = False) -> None:
    cfg: DictConfig = hydra.utils.instantiate(path)
    Net(cfg).fit()
'''
INDEXER = """\
import logging
from typing import TYPE_CHECKING

try:
    import faiss
except ImportError:
    faiss = None

if TYPE_CHECKING:
    from numpy import ndarray

logger = logging.getLogger(__name__)
DEFAULT_DIM = 768


class Index:
    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        self.dim = dim


def build(folder: str) -> Index:
    return Index()


if __name__ == "__main__":
    pass
"""


def idle_found(root: Path, commands: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    readme = f"# Project\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": "FROM python:3.11\nCOPY . /app\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "runs nothing" in d.message
    ]


def test_a_python_script_that_only_defines_functions(tmp_path: Path) -> None:
    found = idle_found(
        tmp_path,
        "cd fitter\n# e.g. python3 fit.py --config configs/mnist.yaml\npython3 fit.py --config my.yaml",
        {"fitter/fit.py": FIT},
    )
    assert found == [
        (
            6,
            "README runs fit.py with --config my.yaml, but fit.py reads no argument and runs nothing when "
            'started: it only defines fit() (fit.py:12), with no `if __name__ == "__main__":` block nor a '
            "call at its top level, so the command does nothing",
            "certain",
        )
    ]


def test_a_module_of_definitions_with_an_empty_main_block(tmp_path: Path) -> None:
    found = idle_found(
        tmp_path, "python tools/indexer.py data/ --dim 384 && echo done", {"tools/indexer.py": INDEXER}
    )
    assert [(line, confidence) for line, _, confidence in found] == [(4, "certain")]
    assert "it only defines Index (indexer.py:16), build() (indexer.py:21)" in found[0][1]


@pytest.mark.parametrize(
    "tail",
    [
        'if __name__ == "__main__":\n    fit("configs/mnist.yaml")\n',
        "fit('configs/mnist.yaml')\n",
        "import sys\n\n\ndef main():\n    fit(sys.argv[2])\n",
        "import fire\nfire.Fire(fit)\n",
        "args = parse_args()\n",
        "from sacred import Experiment\nex = Experiment()\n\n\n@ex.automain\ndef run():\n    fit('x')\n",
        "import atexit\n\n\n@atexit.register\ndef at_end():\n    fit('x')\n",
        "with open('x') as f:\n    pass\n",
        "for name in ('a', 'b'):\n    fit(name)\n",
        "def broken(:\n",
    ],
)
def test_python_scripts_that_run_or_read_something(tmp_path: Path, tail: str) -> None:
    files = {"fitter/fit.py": FIT + "\n\n" + tail}
    assert idle_found(tmp_path, "cd fitter && python3 fit.py --config my.yaml", files) == []


@pytest.mark.parametrize(
    "commands",
    [
        "cd fitter && python3 fit.py",  # no argument: not this rule's
        "cd fitter && python3 fit.py && echo trained",
        "python3 fit.py --config my.yaml",  # no fit.py where the command runs
        "cd fitter && python3 fit.py > log.txt",
    ],
)
def test_python_runs_this_rule_leaves_alone(tmp_path: Path, commands: str) -> None:
    assert idle_found(tmp_path, commands, {"fitter/fit.py": FIT, "fitter/__init__.py": ""}) == []


# --------------------------------------------------------------------------------------------------
# A value argparse's `choices` refuse

RENDER = """\
#!/usr/bin/env python
import argparse
import sys

TARGETS = {
    "debian12-amd64": {"base": "debian:12"},
    "rocky9-amd64": {"base": "rockylinux:9"},
}
PRECISIONS = ["fp16", "bf16"]


def parse_args(args):
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", type=str, required=True, choices=sorted(TARGETS.keys()))
    parser.add_argument("--precision", default="fp16", choices=PRECISIONS + ["fp32"])
    parser.add_argument("--threads", type=int, choices=[1, 2, 4])
    parser.add_argument("--name", default="out")
    return parser.parse_args(args)


def main(args):
    conf = parse_args(args[1:])
    print(conf)


if __name__ == "__main__":
    main(sys.argv)
"""
RENDER_README = """\
# Recipe renderer

Render a Dockerfile for Debian 12 in half precision:

```
$ ./render.py --target debian12 --precision fp16 --name demo
```

Or for Rocky in full precision:

```
$ ./render.py --target=rocky9-amd64 --precision fp64
```
"""


def _chosen(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "invalid choice" in d.message
    ]


def test_values_argparse_choices_refuse(tmp_path: Path) -> None:
    assert _chosen(tmp_path, {"render.py": RENDER, "README.md": RENDER_README}) == [
        (
            6,
            "README runs ./render.py with --target debian12, but its argparse (render.py:14) allows only "
            "debian12-amd64, rocky9-amd64 for --target, so it exits with \"invalid choice: 'debian12'\"",
            "certain",
        ),
        (
            12,
            "README runs ./render.py with --precision fp64, but its argparse (render.py:15) allows only "
            "fp16, bf16, fp32 for --precision, so it exits with \"invalid choice: 'fp64'\"",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("--target debian12-amd64 ", "--target debian12-amd64 "),  # listed
        ("--target debian12-amd64 ", "--target <target> "),  # a placeholder
        ("--target debian12-amd64 ", "--target $TARGET "),  # a variable
        ("--target debian12-amd64 ", "--target TARGET_NAME "),  # a name for the value
        ("--precision fp32", "--precision fp32 --threads 3"),  # type=int: not compared as words
        ("--name demo", "--name debian12"),  # an option without choices
    ],
)
def test_values_argparse_choices_take_or_are_not_read(tmp_path: Path, old: str, new: str) -> None:
    readme = RENDER_README.replace("--precision fp64", "--precision fp32")
    readme = readme.replace("--target debian12 ", "--target debian12-amd64 ").replace(old, new)
    assert _chosen(tmp_path, {"render.py": RENDER, "README.md": readme}) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('PRECISIONS = ["fp16", "bf16"]', 'PRECISIONS = ["fp16", "bf16"]\nPRECISIONS.append("fp64")'),
        ('PRECISIONS = ["fp16", "bf16"]', 'PRECISIONS = ["fp16", "bf16"]\nPRECISIONS = load()'),
        ('choices=PRECISIONS + ["fp32"]', "choices=precisions()"),
        ("    main(sys.argv)", "    main(sys.argv)\n    print(sys.argv[2])"),  # argv read by hand too
    ],
)
def test_choices_that_cannot_be_read(tmp_path: Path, old: str, new: str) -> None:
    readme = RENDER_README.replace("--target debian12 ", "--target debian12-amd64 ")
    assert [line for line, _, _ in _chosen(tmp_path, {"render.py": RENDER, "README.md": readme})] == [12]
    assert _chosen(tmp_path, {"render.py": RENDER.replace(old, new), "README.md": readme}) == []


# --------------------------------------------------------------------------------------------------
# Options prose names in code for the script the README runs (`prose_options`)

UPSCALE = """\
import argparse
import sys


class Upscaler:
    def main(self, argv):
        parser = argparse.ArgumentParser()
        parser.add_argument("input")
        parser.add_argument("output")
        parser.add_argument("--weights", action="append", required=True)
        parser.add_argument("--prefilter", action="append", metavar="FILE")
        parser.add_argument("--postfilter", action="append", metavar="FILE")
        parser.add_argument("--tile_size", type=int, default=512)
        args = parser.parse_args(args=argv[1:])
        return 0


if __name__ == "__main__":
    exit(Upscaler().main(sys.argv))
"""


def prose_found(
    root: Path, readme: str, script: str = UPSCALE, name: str = "upscale.py"
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.11\n", name: script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README names the option" in d.message
    ]


def test_prose_options_spelled_apart_from_the_parsers(tmp_path: Path) -> None:
    readme = (
        "# Upscaler\n\nFilters come in two kinds: before (``--pre-filter``) and after (``--post-filter``).\n"
        "Set the tile with `--tile-size`; weights with `--weights`.\n\n"
        "```\nupscale.py in out --weights w.pth --prefilter f.pth\n```\n"
    )
    assert prose_found(tmp_path, readme) == [
        (
            3,
            "README names the option --pre-filter of upscale.py, but its argparse (upscale.py:11) declares "
            "--prefilter, not --pre-filter: the script refuses the spelling the README gives",
            "certain",
        ),
        (
            3,
            "README names the option --post-filter of upscale.py, but its argparse (upscale.py:12) declares "
            "--postfilter, not --post-filter: the script refuses the spelling the README gives",
            "certain",
        ),
        (
            4,
            "README names the option --tile-size of upscale.py, but its argparse (upscale.py:13) declares "
            "--tile_size, not --tile-size: the script refuses the spelling the README gives",
            "certain",
        ),
    ]


def test_prose_options_of_a_script_run_by_python(tmp_path: Path) -> None:
    script = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--max_new_tokens', type=int)\n"
        "p.add_argument('--model', default='m')\nargs = p.parse_args()\n"
    )
    readme = (
        "# Chat\n\nRun it:\n\n```bash\npython3 chat.py --model tiny\n```\n\n"
        "Raise ``--max-new-tokens`` for longer answers.\n"
    )
    [(line, message, confidence)] = prose_found(tmp_path, readme, script, "chat.py")
    assert (line, confidence) == (9, "certain")
    assert "declares --max_new_tokens, not --max-new-tokens" in message


def test_prose_options_traps(tmp_path: Path) -> None:
    # an option another program takes (docker's), one the script declares, one no declared option is
    # near, and one the README's own commands use for another program
    readme = (
        "# Upscaler\n\nPass `--gpus all` to docker, `--prefilter` for filters, `--verbose` for logs.\n"
        "The wrapper takes `--pre-filter` too:\n\n"
        "```\nwrap --pre-filter x\nupscale.py in out --weights w\n```\n"
    )
    assert prose_found(tmp_path, readme) == []
    # no command runs the script: the option may be another program's
    assert prose_found(tmp_path / "b", "# Upscaler\n\nUse ``--pre-filter``.\n") == []
    # two scripts each declaring a near spelling: not told
    other = UPSCALE.replace("--prefilter", "--pre_filter")
    make_tree(tmp_path / "c", {"other.py": other})
    readme = (
        "# U\n\nUse ``--pre-filter``.\n\n```\nupscale.py a b --weights w\nother.py a b --weights w\n```\n"
    )
    assert prose_found(tmp_path / "c", readme) == []


def test_a_method_given_the_scripts_words_still_reads_its_parser(tmp_path: Path) -> None:
    from docgen.audit.script_args import script_options

    make_tree(tmp_path, {"up.py": UPSCALE})
    declared = script_options(tmp_path / "up.py")
    assert declared is not None and "--prefilter" in (declared.long or ())
    make_tree(tmp_path, {"raw.py": UPSCALE.replace("argv[1:]", "argv[2:]")})
    assert script_options(tmp_path / "raw.py") is None


# --------------------------------------------------------------------------------------------------
# A brace expansion in the value of an option taking one (`braced_values`)


def braced_found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM python:3.11\n", "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "bash expands the braces" in d.message
    ]


def test_a_braced_value_of_a_program_in_a_run_of_one_variant(tmp_path: Path) -> None:
    readme = (
        "# Serving\n\n```bash\ndocker build -t acme/serve_cpu -f Dockerfile .\n```\n\n"
        "```bash\ndocker run -d -p 8080:80 acme/serve_cpu "
        "model-server start --config /m/app_{cpu,gpu}.conf\n```\n"
    )
    [(line, message, confidence)] = braced_found(tmp_path, readme)
    assert (line, confidence) == (8, "certain")
    assert message.startswith(
        "README passes --config /m/app_{cpu,gpu}.conf, but bash expands the braces into 2 words "
        "(/m/app_cpu.conf /m/app_gpu.conf): --config takes /m/app_cpu.conf and /m/app_gpu.conf is a stray "
        "argument (the run's image acme/serve_cpu names cpu alone"
    )


def test_a_braced_value_of_dockers_own_option_and_of_a_script(tmp_path: Path) -> None:
    script = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\nargs = p.parse_args()\n"
    )
    many = script.replace("'--config')", "'--files', nargs='+')")
    readme = (
        "# Train\n\n```bash\ndocker run -v /data/{train,test}:/data trainer\n"
        "python train.py --config configs/{small,large}.yaml\n"
        "python train.py --files data/{a,b}.csv\n"
        "some-tool --level lvl_{1,2}\n```\n"
    )
    found = braced_found(tmp_path, readme, {"train.py": script, "merge.py": many})
    assert [(line, confidence) for line, _, confidence in found] == [
        (4, "certain"),
        (5, "certain"),
        (7, "likely"),
    ]
    assert "docker run takes one value for -v, so it reads /data/test:/data as the image" in found[0][1]
    assert "train.py's argparse takes one value for --config, and refuses configs/large.yaml" in found[1][1]


def test_braces_that_are_no_one_value_option(tmp_path: Path) -> None:
    readme = (
        "# Tools\n\n```bash\nmkdir -p out/{logs,ckpt}\ncp config{,.bak}\n"
        'curl -d \'{"a":1,"b":2}\' http://x\n'
        "run --name=job_{a,b}\n"
        'echo ${NAME,,}\ntool --language {en,de} in.txt\n```\n\n```json\n{"opts": --x a{1,2}}\n```\n\n'
        "```\nusage: tool [-h] [--config FILE]\n\noptions:\n  --config cfg_{a,b}.yaml  a config\n```\n"
    )
    assert braced_found(tmp_path, readme) == []


# -- a first word of a script that loads an env file first, or reads `$1` in an `if` chain -------------

# Modelled on a compose wrapper that loads `.env` (`set -a; . .env`) and dispatches on its first word,
# its catch-all printing the usage; the README runs a command word it has no arm for.
WRAPPER = """\
#!/bin/sh
set -a
. ./.env
set +a
build_images() {
  docker compose -f compose.gpu.yml build
}
up() {
  docker compose -f compose.gpu.yml up -d
}
case "$1" in
  start) up ;;
  stop) docker compose -f compose.gpu.yml stop ;;
  status) docker compose -f compose.gpu.yml ps ;;
  *)
    echo "Usage: $0 {start|stop|status}"
    exit 1
    ;;
esac
"""
# Modelled on a helper that tests `$1` in an `if`/`elif` chain and refuses anything else in its `else`.
CHAIN = """\
#!/usr/bin/env bash
source .env.local
if [ "$1" = "train" ]; then
  docker run --gpus all trainer
elif [ "$1" == "serve" ] || [ "$1" = "api" ]; then
  if [ -n "$PORT" ]; then
    echo "port $PORT"
  fi
  docker run -p 8000:8000 server
elif [[ "$1" == "eval" ]]; then
  docker run trainer python eval.py
else
  echo "usage: $0 train|serve|api|eval" >&2
  exit 2
fi
"""


def test_a_word_a_wrapper_that_loads_an_env_file_has_no_arm_for(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n./wrapper.sh build\n./wrapper.sh start\n```\n"
    assert first_words(tmp_path, readme, {"wrapper.sh": WRAPPER}) == [
        '4: README runs ./wrapper.sh with build, which wrapper.sh does not take: its `case "$1"` (line 11) '
        "takes start, stop, status, so it exits with an error (its build_images function, line 5, is never "
        "called) (likely)"
    ]


def test_a_word_an_if_chain_on_the_first_argument_refuses(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n./chain.sh serve\n./chain.sh api\n./chain.sh deploy\n```\n"
    assert first_words(tmp_path, readme, {"chain.sh": CHAIN, ".env.local": "PORT=8000\n"}) == [
        '6: README runs ./chain.sh with deploy, which chain.sh does not take: its `if [ "$1" = … ]` chain '
        "(line 3) takes train, serve, api, eval, so it exits with an error (likely)"
    ]


@pytest.mark.parametrize(
    ("script", "old", "new"),
    [
        # a sourced file that is no env file, or an env file of the repository that moves the words
        ("wrapper.sh", ". ./.env", ". ./lib/common.sh"),
        ("chain.sh", "source .env.local", 'source .env.local\nset -- "$@" --default'),
        # the catch-all passes the words on
        ("wrapper.sh", '    echo "Usage: $0 {start|stop|status}"\n    exit 1', '    docker compose "$@"'),
        ("chain.sh", '  echo "usage: $0 train|serve|api|eval" >&2\n  exit 2', '  exec "$@"'),
        # no `else`, an `else` that exits 0, a test of something besides `$1`
        ("chain.sh", '\nelse\n  echo "usage: $0 train|serve|api|eval" >&2\n  exit 2', ""),
        ("chain.sh", "exit 2", "exit 0"),
        ("chain.sh", '[ "$1" = "train" ]', '[ "$1" = "train" ] && [ -n "$GPU" ]'),
        ("chain.sh", '[ "$1" = "train" ]', '[ "$1" != "train" ]'),
        ("chain.sh", '[ "$1" = "train" ]', '[ "$1" = "$MODE" ]'),
    ],
)
def test_env_files_and_if_chains_that_may_take_the_word(
    tmp_path: Path, script: str, old: str, new: str
) -> None:
    text = {"wrapper.sh": WRAPPER, "chain.sh": CHAIN}[script]
    assert old in text
    readme = f"# App\n\n```bash\n./{script} deploy\n```\n"
    files = {script: text.replace(old, new)}
    if script == "chain.sh":
        files[".env.local"] = "PORT=8000\n"
    assert first_words(tmp_path, readme, files) == []


def test_an_env_file_with_a_quoted_value_or_a_template_name_leaves_the_words_alone(tmp_path: Path) -> None:
    # a value of two words in quotes is one assignment; `env.sample` is an env file's template name
    readme = "# App\n\n```bash\n./chain.sh deploy\n```\n"
    said = (
        '4: README runs ./chain.sh with deploy, which chain.sh does not take: its `if [ "$1" = … ]` chain '
        "(line 3) takes train, serve, api, eval, so it exits with an error (likely)"
    )
    files = {"chain.sh": CHAIN, ".env.local": 'PORT=8000\nAPP_NAME="my app"\n'}
    assert first_words(tmp_path / "a", readme, files) == [said]
    chain = CHAIN.replace("source .env.local", "source env.sample")
    assert first_words(tmp_path / "b", readme, {"chain.sh": chain, "env.sample": "PORT=8000\n"}) == [said]


def test_an_env_file_of_the_repository_that_runs_commands(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n./chain.sh deploy\n```\n"
    files = {"chain.sh": CHAIN, ".env.local": "PORT=8000\nshift\n"}
    assert first_words(tmp_path, readme, files) == []


# -- a positional argument the README documents that the script never uses (`unused_arguments`) -------

# Modelled on a script that packs a model into a serving image: it names its six arguments, but the
# sixth's variable is never read again (not used, not exported to the template step it runs).
PACK = """\
MODEL_PATH=$1
TOKENIZER=$2
LABELS=$3
CLASSES=$4
NAME=$5
BATCH=$6

python tools/convert.py -m $MODEL_PATH -t $TOKENIZER
export CLASSES=$CLASSES
export NAME=$NAME
bash render.sh
cp $LABELS repo/post/1
docker build -t packed:v1 .
"""
PACK_README = """\
# Packer

1. Install the requirements.
2. Run `pack.sh`, giving its arguments in this order:
  1. model_path — the model's folder.
  2. tokenizer_path — the tokenizer's folder.
  3. `labels_path` - the label map.
  4. num_classes: how many classes.
  5. model_name — the name served.
  6. max_batch_size — the largest batch served at once.
"""


def unused(root: Path, readme: str, script: str) -> list[str]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, "pack.sh": script, "render.sh": "envsubst\n"})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "has no effect" in d.message
    ]


def test_a_listed_argument_whose_variable_nothing_reads(tmp_path: Path) -> None:
    assert unused(tmp_path, PACK_README, PACK) == [
        "10: README lists 6 arguments of pack.sh (the 6th: max_batch_size), but pack.sh:6 only assigns $6 to "
        "BATCH, which nothing reads (the script neither uses nor exports it): the argument has no effect "
        "(likely)"
    ]


def test_a_listed_argument_the_script_never_reads(tmp_path: Path) -> None:
    script = PACK.replace("BATCH=$6\n", "")
    assert unused(tmp_path, PACK_README, script) == [
        "10: README lists 6 arguments of pack.sh (the 6th: max_batch_size), but pack.sh never reads $6: the "
        "argument has no effect (likely)"
    ]


def test_a_command_giving_an_argument_nothing_reads(tmp_path: Path) -> None:
    readme = "# Packer\n\n```bash\n./pack.sh ./model ./tok labels.json 3 clf 32\n```\n"
    assert unused(tmp_path, readme, PACK) == [
        "4: README runs ./pack.sh with 6 arguments (the 6th: 32), but pack.sh:6 only assigns $6 to BATCH, "
        "which nothing reads (the script neither uses nor exports it): the argument has no effect (likely)"
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("bash render.sh", "bash render.sh --batch $BATCH"),  # used
        ("export NAME=$NAME", "export NAME=$NAME BATCH"),  # exported
        ("BATCH=$6\n", "BATCH=$6\nset -a\n"),  # every variable exported
        ("bash render.sh", ". ./render.sh"),  # a sourced file sees every variable
        ("bash render.sh", 'bash render.sh "$@"'),  # the words passed on
        ("bash render.sh", "shift 5; bash render.sh"),
        ("bash render.sh", "run() {\n  echo $1\n}\nrun x\nbash render.sh"),  # functions: `$6` may be theirs
        ("bash render.sh", 'eval "$EXTRA"\nbash render.sh'),
        ("BATCH=$6\n", 'BATCH="${6:-8}"\necho "batch ${BATCH}"\n'),
    ],
)
def test_arguments_the_script_uses_or_may(tmp_path: Path, old: str, new: str) -> None:
    assert old in PACK
    assert unused(tmp_path, PACK_README, PACK.replace(old, new)) == []


@pytest.mark.parametrize(
    "readme",
    [
        # steps, not arguments: no identifier before a dash, or no colon introducing them
        PACK_README.replace("giving its arguments in this order:", "then:").replace(
            "  6. max_batch_size — the largest batch served at once.", "  6. Check the logs."
        ),
        PACK_README.replace("giving its arguments in this order:", "giving its arguments in this order."),
        # fewer arguments than the script reads, a list not numbered from 1
        PACK_README.replace("  6. max_batch_size — the largest batch served at once.\n", ""),
        PACK_README.replace("  1. model_path", "  7. model_path"),
        # a command giving fewer words, or options
        "# Packer\n\n```bash\n./pack.sh ./model ./tok labels.json 3 clf\n```\n",
        "# Packer\n\n```bash\n./pack.sh -v ./model ./tok labels.json 3 clf 32\n```\n",
    ],
)
def test_lists_and_commands_it_leaves_alone(tmp_path: Path, readme: str) -> None:
    assert unused(tmp_path, readme, PACK) == []


# -- a first word read as a value before the options (`VERSION="${1:-12.4}"`, then `shift`) -------------

# Modelled on a variant build script: the toolkit release first, then options; a release it does not
# map to a wheel index exits, so an option given first (`--no-cache`) is taken for a release.
TOOLKIT = """\
#!/usr/bin/env bash
# Usage: ./build.sh [toolkit] [--no-cache] [--push]
set -euo pipefail
TOOLKIT="${1:-12.4}"
NO_CACHE=""
shift || true
while [[ $# -gt 0 ]]; do
    case $1 in
        --no-cache) NO_CACHE="--no-cache"; shift ;;
        --push) PUSH=true; shift ;;
        *) echo "Unknown option: $1"; exit 1 ;;
    esac
done
case ${TOOLKIT} in
    12.4)
        INDEX=https://wheels.example.org/cu124
        ;;
    11.8)
        INDEX=https://wheels.example.org/cu118
        ;;
    *)
        echo "Unsupported toolkit: ${TOOLKIT}"
        exit 1
        ;;
esac
docker build ${NO_CACHE} --build-arg INDEX=$INDEX -t app:cu${TOOLKIT} .
"""
# Modelled on a serving script: the model size first, an `if` chain over it, the rest passed on.
SIZES = """\
#!/bin/sh
MODEL="$1"
shift
if [ "$MODEL" = "small" ]; then
  WEIGHTS=/models/small
elif [ "$MODEL" = "large" ]; then
  WEIGHTS=/models/large
else
  echo "usage: $0 small|large [server options]" >&2
  exit 2
fi
exec server --weights "$WEIGHTS" "$@"
"""


def test_an_option_given_where_the_script_reads_a_release(tmp_path: Path) -> None:
    runs = ("./build.sh", "./build.sh 11.8 --no-cache", "./build.sh --no-cache", "./build.sh 12.1")
    readme = "# App\n\n```bash\n" + "\n".join(runs) + "\n```\n"
    said = (
        "README runs ./build.sh with {}, which build.sh does not take: it reads its first argument as "
        "TOOLKIT (line 4), and its `case $TOOLKIT` (line 14) takes 12.4, 11.8, so it exits with an error "
        "(likely)"
    )
    assert first_words(tmp_path, readme, {"build.sh": TOOLKIT}) == [
        "6: " + said.format("--no-cache"),
        "7: " + said.format("12.1"),
    ]


def test_an_option_given_where_the_script_tests_a_model_name(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n./serve.sh large --port 8080\n./serve.sh --port 8080\n```\n"
    assert first_words(tmp_path, readme, {"serve.sh": SIZES}) == [
        "5: README runs ./serve.sh with --port, which serve.sh does not take: it reads its first argument "
        'as MODEL (line 2), and its `if [ "$MODEL" = … ]` chain (line 4) takes small, large, so it exits '
        "with an error (likely)"
    ]


@pytest.mark.parametrize(
    ("script", "old", "new"),
    [
        # options read before the first word is named, or the words set again before it
        ("build.sh", 'TOOLKIT="${1:-12.4}"', 'while [[ $1 == -* ]]; do shift; done\nTOOLKIT="${1:-12.4}"'),
        ("build.sh", "set -euo pipefail\n", 'set -euo pipefail\nset -- "$@" 12.4\n'),
        # the name given another value (an option setting it), or read from the user
        ("build.sh", "--push) PUSH=true; shift ;;", '--toolkit) TOOLKIT="$2"; shift 2 ;;'),
        ("serve.sh", 'MODEL="$1"\n', 'MODEL="$1"\n[ -z "$MODEL" ] && read MODEL\n'),
        # a catch-all that lets other values through, an `else` that passes them on
        ("build.sh", '        echo "Unsupported toolkit: ${TOOLKIT}"\n        exit 1', "        INDEX=x"),
        ("serve.sh", '  echo "usage: $0 small|large [server options]" >&2\n  exit 2', "  WEIGHTS=$MODEL"),
        # named inside a function called with other words
        ("serve.sh", 'MODEL="$1"\nshift\n', 'pick() {\nMODEL="$1"\n}\npick "$2"\nshift\n'),
    ],
)
def test_first_words_named_before_the_options_that_may_pass(
    tmp_path: Path, script: str, old: str, new: str
) -> None:
    text = {"build.sh": TOOLKIT, "serve.sh": SIZES}[script]
    assert old in text
    readme = f"# App\n\n```bash\n./{script} --no-cache\n```\n"
    assert first_words(tmp_path, readme, {script: text.replace(old, new)}) == []


def test_a_script_that_maps_no_release(tmp_path: Path) -> None:
    # modelled on the sibling script that puts the release in the wheel index's address unchecked
    script = TOOLKIT[: TOOLKIT.index("case ${TOOLKIT}")] + "docker build ${NO_CACHE} -t app:${TOOLKIT} .\n"
    readme = "# App\n\n```bash\n./build.sh --no-cache\n```\n"
    assert first_words(tmp_path, readme, {"build.sh": script}) == []


# --------------------------------------------------------------------------------------------------
# Required options and positional arguments a run of a Python script leaves out

TILER = """\
import argparse

parser = argparse.ArgumentParser(description="cut a slide into tiles")
inputs = parser.add_argument_group("inputs")
inputs.add_argument("-s", "--slide", dest="slide", required=True, help="slide file")
parser.add_argument("--tile-size", type=int, default=512)
parser.add_argument("-o", "--out", required=True)
args = parser.parse_args()
"""
TILER_README = """\
# Slide tiler

```bash
python tiler.py {words}
```
"""


def _required(root: Path, words: str, script: str = TILER) -> list[tuple[int, str, str]]:
    readme = TILER_README.format(words=words)
    make_tree(root, {"Dockerfile": APP, "tiler.py": script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "are required" in d.message
    ]


def test_a_required_option_a_python_run_leaves_out(tmp_path: Path) -> None:
    assert _required(tmp_path, "--tile-size 256 -o tiles/") == [
        (
            4,
            "README runs tiler.py with no -s/--slide, but its argparse (tiler.py:5) requires it, so it "
            'exits with "the following arguments are required: -s/--slide"',
            "certain",
        )
    ]


def test_a_required_positional_argument_a_python_run_leaves_out(tmp_path: Path) -> None:
    script = TILER.replace('"-s", "--slide", dest="slide", required=True', '"slide"')
    [(line, message, _)] = _required(tmp_path, "-o tiles/", script)
    assert line == 4
    assert message.startswith("README runs tiler.py with no slide, but its argparse (tiler.py:5) requires it")


@pytest.mark.parametrize(
    ("words", "script"),
    [
        ("--slide a.svs -o tiles/", TILER),
        ("-s a.svs --out=tiles/", TILER),
        ("-sa.svs -otiles/", TILER),  # short options with their values attached
        ("--sli a.svs --ou tiles/", TILER),  # prefixes argparse takes
        ("--help", TILER),
        ("-o tiles/ $SLIDE_ARGS", TILER),  # a variable may give it
        ("-o tiles/ <options>", TILER),  # a placeholder
        ("-o tiles/ @args.txt", TILER),
        ("--tile-size 256 -o tiles/", TILER.replace("parse_args()", "parse_known_args()")),
        ("--tile-size 256 -o tiles/", TILER.replace("parse_args()", 'parse_args(["-s", "x", "-o", "y"])')),
        (
            "--tile-size 256 -o tiles/",
            TILER.replace("args = parser", "sub = parser.add_subparsers()\nargs = parser"),
        ),
        ("--tile-size 256 -o tiles/", TILER.replace("required=True, help", "required=not CI, help")),
        ("--tile-size 256 -o tiles/", TILER.replace("import argparse", "import argparse\nimport click")),
        (
            "-o tiles/ run a b",
            TILER.replace('"--tile-size", type=int', '"rest", nargs=argparse.REMAINDER, type=str'),
        ),
    ],
)
def test_runs_that_give_the_required_ones_or_may_give_them(tmp_path: Path, words: str, script: str) -> None:
    assert _required(tmp_path, words, script) == []


# --------------------------------------------------------------------------------------------------
# Positional arguments, their choices and subcommands an `argparse` parser refuses in a run

CAPTIONS = """\
import os
from argparse import ArgumentParser

MODELS = ['vit-small', 'vit-large', 'tiny-cap']
parser = ArgumentParser()
parser.add_argument('model', choices=MODELS)
parser.add_argument('corpus', choices=['screens/train', 'screens/test', 'photos'])
parser.add_argument('--report', type=str, default="")
parser.add_argument('--batch', type=int, default=8)
parser.add_argument('--max_tokens', type=int, nargs='?')
parser.add_argument('--tags', nargs='+', default=[])
args = parser.parse_args()
print(os.listdir(args.corpus))
"""


def _refused(root: Path, script: str, commands: str, name: str = "bench.py") -> list[tuple[int, str, str]]:
    readme = f"# Caption service\n\nWith the service up:\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, name: script, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "argparse" in d.message
    ]


def test_a_positional_argument_left_out_beside_options_taking_several_words(tmp_path: Path) -> None:
    # `--max_tokens` (nargs='?') and `--tags` (nargs='+') are not given: the words can still be counted
    assert _refused(tmp_path, CAPTIONS, "python3 bench.py vit-small --batch=12") == [
        (
            6,
            "README runs bench.py with no corpus, but its argparse (bench.py:7) requires it, so it exits "
            'with "the following arguments are required: corpus"',
            "certain",
        )
    ]


def test_a_parser_class_imported_under_another_name(tmp_path: Path) -> None:
    script = CAPTIONS.replace("import ArgumentParser", "import ArgumentParser as AP").replace(
        "parser = ArgumentParser()", "parser = AP(description='captions')"
    )
    assert [line for line, _, _ in _refused(tmp_path, script, "python3 bench.py vit-small")] == [6]
    parented = script.replace("AP(description='captions')", "AP(parents=[BASE])")
    assert _refused(tmp_path / "parented", parented, "python3 bench.py vit-small") == []


def test_a_positional_value_its_choices_leave_out(tmp_path: Path) -> None:
    assert _refused(tmp_path, CAPTIONS, "python3 bench.py vit-base photos --batch 4") == [
        (
            6,
            "README runs bench.py with vit-base as its model argument, but its argparse (bench.py:6) allows "
            'only vit-small, vit-large, tiny-cap for model, so it exits with "argument model: invalid '
            "choice: 'vit-base'\"",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "python3 bench.py vit-small photos --batch 4",
        "python3 bench.py --report r.csv tiny-cap screens/test",
        "python3 bench.py vit-small --max_tokens photos",  # `?`: photos may be its value
        "python3 bench.py vit-small --tags a b",  # `+`: the words after it are its values
        "python3 bench.py MODEL CORPUS",  # names for the values the reader picks
        "python3 bench.py model corpus",
        "python3 bench.py vit-small corpus_name",
        "python3 bench.py <model> <corpus>",
        "python3 bench.py {vit-small,tiny-cap} photos",
        "python3 bench.py vit-small photos ...",
        "python3 bench.py $MODEL photos",
        'python3 bench.py "$@"',
        "python3 bench.py vit-small -- photos",
        "python3 bench.py --help",
    ],
)
def test_runs_the_caption_parser_takes_or_may_take(tmp_path: Path, commands: str) -> None:
    assert _refused(tmp_path, CAPTIONS, commands) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two parsers: which one reads the words is not told here
        ("args = parser.parse_args()", "other = ArgumentParser()\nargs = parser.parse_args()"),
        ("args = parser.parse_args()", "args, rest = parser.parse_known_args()"),
        ("import os\n", "import os\nimport sys\nif len(sys.argv) < 3:\n    sys.argv += ['photos']\n"),
        ("args = parser.parse_args()", "args = parser.parse_args(['tiny-cap', 'photos'])"),
        ("args = parser.parse_args()", "parser.print_help()"),  # nothing parses the run's words
        ("import os\n", "import os\nimport fire\n"),
        # a subclass of the script's own whose `error` may not stop the run
        (
            "parser = ArgumentParser()",
            (
                "class LenientArgumentParser(ArgumentParser):\n    def error(self, message):\n"
                "        print(message)\n\n\nparser = LenientArgumentParser()"
            ),
        ),
        (
            "args = parser.parse_args()",
            "try:\n    args = parser.parse_args()\nexcept SystemExit:\n    args = None",
        ),
        ("args = parser.parse_args()", "args = parser.parse_args(os.environ['BENCH_ARGS'].split())"),
    ],
)
def test_caption_scripts_whose_parser_may_not_read_the_words(tmp_path: Path, old: str, new: str) -> None:
    assert _refused(tmp_path, CAPTIONS.replace(old, new), "python3 bench.py vit-small --batch=12") == []


def test_a_parser_built_in_a_function_nothing_of_the_script_calls(tmp_path: Path) -> None:
    # a console script's entry point (`[project.scripts] bench = "bench:cli"`): `python bench.py` runs none
    head, _, rest = CAPTIONS.partition("parser = ArgumentParser()\n")
    body = "".join(f"    {line}\n" for line in ("parser = ArgumentParser()\n" + rest).splitlines())
    script = head + "\n\ndef cli():\n" + body
    assert "\n    args = parser.parse_args()\n" in script
    assert _refused(tmp_path, script, "python3 bench.py vit-small --batch=12") == []
    called = script + "\n\nif __name__ == '__main__':\n    cli()\n"
    assert [line for line, _, _ in _refused(tmp_path / "called", called, "python3 bench.py vit-small")] == [6]


def test_a_parser_built_in_main_that_the_script_calls(tmp_path: Path) -> None:
    script = (
        "import argparse\n\n\ndef parse():\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('source')\n    p.add_argument('target', nargs='?')\n"
        "    p.add_argument('--scale', type=float, default=1.0)\n    return p.parse_args()\n\n\n"
        "def main():\n    args = parse()\n    print(args)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert _refused(tmp_path, script, "python convert.py --scale 2", "convert.py") == [
        (
            6,
            "README runs convert.py with no source, but its argparse (convert.py:6) requires it, so it "
            'exits with "the following arguments are required: source"',
            "certain",
        )
    ]
    [(line, message, _)] = _refused(
        tmp_path / "b", script, "python convert.py a.png b.png c.png", "convert.py"
    )
    assert message.startswith("README runs convert.py with 3 positional arguments (a.png b.png c.png), but")
    assert message.endswith('so it exits with "unrecognized arguments: c.png"')
    for ok in (
        "python convert.py a.png",
        "python convert.py a.png b.png --scale 2",
        "python convert.py a.png --scale 2 b.png",
    ):
        assert _refused(tmp_path / "c", script, ok, "convert.py") == []


MANAGE = """\
import argparse

parser = argparse.ArgumentParser(prog="dataset-tool")
parser.add_argument("-q", "--quiet", action="store_true")
parser.add_argument("--root", default="data")
commands = parser.add_subparsers(dest="command", required=True)
fetch = commands.add_parser("fetch", help="download the archives")
fetch.add_argument("--mirror")
train = commands.add_parser("train", aliases=["fit"])
train.add_argument("-c", "--config", required=True)
commands.add_parser("evaluate")
args = parser.parse_args()
"""


def test_a_subcommand_the_parser_does_not_have(tmp_path: Path) -> None:
    assert _refused(tmp_path, MANAGE, "python manage.py --root /srv/data trian -c base.yml", "manage.py") == [
        (
            6,
            "README runs manage.py with the subcommand trian, but its argparse (manage.py:6) has only "
            "fetch, train, fit, evaluate, so it exits with \"argument command: invalid choice: 'trian'\"",
            "certain",
        )
    ]


def test_a_required_subcommand_left_out(tmp_path: Path) -> None:
    [(line, message, confidence)] = _refused(tmp_path, MANAGE, "python manage.py -q", "manage.py")
    assert (line, confidence) == (6, "certain")
    assert message == (
        "README runs manage.py with no command, but its argparse (manage.py:6) requires it, so it exits "
        'with "the following arguments are required: command"'
    )


@pytest.mark.parametrize(
    ("script", "commands"),
    [
        (MANAGE, "python manage.py fetch --mirror https://example.org"),
        (MANAGE, "python manage.py -q fit -c base.yml"),
        (MANAGE, "python manage.py --root data evaluate"),
        (MANAGE, "python manage.py COMMAND"),
        (MANAGE, "python manage.py <command> [options]"),
        (MANAGE, "python manage.py {fetch,train} ..."),
        (MANAGE, "python manage.py command ..."),
        (MANAGE, "python manage.py --help"),
        (MANAGE, "python manage.py --ro data trian"),  # a prefix: not read here
        (MANAGE, "python manage.py $CMD"),
        (MANAGE.replace("required=True)", ")"), "python manage.py -q"),  # optional subcommands
        # more subcommands may be added elsewhere
        (MANAGE.replace('commands.add_parser("evaluate")', "register(commands)"), "python manage.py trian"),
        (MANAGE.replace('"evaluate"', "NAME"), "python manage.py trian"),
        (
            MANAGE.replace(
                'commands.add_parser("evaluate")', 'for name in ("a", "b"):\n    commands.add_parser(name)'
            ),
            "python manage.py trian",
        ),
        # a positional of the parser itself comes first
        (
            MANAGE.replace('parser.add_argument("--root"', 'parser.add_argument("root"'),
            "python manage.py data x",
        ),
        (
            MANAGE.replace("args = parser.parse_args()", "args = parser.parse_known_args()"),
            "python manage.py trian",
        ),
    ],
)
def test_subcommand_runs_the_parser_takes_or_may_take(tmp_path: Path, script: str, commands: str) -> None:
    assert _refused(tmp_path, script, commands, "manage.py") == []


def test_a_boolean_optional_option_takes_no_word_and_its_no_spelling(tmp_path: Path) -> None:
    script = (
        "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('source')\n"
        "parser.add_argument('--cache', action=argparse.BooleanOptionalAction, default=True)\n"
        "args = parser.parse_args()\n"
    )
    assert _refused(tmp_path, script, "python shrink.py --no-cache in.png", "shrink.py") == []
    [(_, message, _)] = _refused(
        tmp_path / "b", script, "python shrink.py --cache in.png out.png", "shrink.py"
    )
    assert message.endswith('so it exits with "unrecognized arguments: out.png"')


OPTIONS_CLASS = """\
import argparse


class TrainOptions:
    def __init__(self):
        self.parser = argparse.ArgumentParser()
        self.parser.add_argument("dataroot")
        self.parser.add_argument("--epochs", type=int, default=10)

    def parse(self):
        return self.parser.parse_args()


opt = TrainOptions().parse()
"""


def test_a_parser_an_options_class_builds_when_the_script_makes_one(tmp_path: Path) -> None:
    [(line, message, _)] = _refused(tmp_path, OPTIONS_CLASS, "python train.py --epochs 3", "train.py")
    assert (line, message.split(", so")[0]) == (
        6,
        "README runs train.py with no dataroot, but its argparse (train.py:7) requires it",
    )
    unused = OPTIONS_CLASS.replace("opt = TrainOptions().parse()", "")  # a module others import
    assert _refused(tmp_path / "unused", unused, "python train.py --epochs 3", "train.py") == []
