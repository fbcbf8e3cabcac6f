"""`docgen audit`: a README's copy of a script's argparse help that the parser the script defines no
longer matches (docgen/audit/help_copies.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM python:3.11-slim\nEXPOSE 8888\n"

# a Bash launcher that hands its parser definition to Python's argparse through a heredoc
LAB = (
    "#!/usr/bin/env bash\n"
    "argparse(){\n"
    "    parser_file=$(mktemp)\n"
    '    cat > "$parser_file" <<EOF\n'
    "import argparse\n"
    "class QuietParser(argparse.ArgumentParser):\n"
    "    pass\n"
    "parser = QuietParser(prog='notebook.sh')\n"
    "EOF\n"
    '    cat >> "$parser_file"\n'
    '    eval $(python "$parser_file" "$@")\n'
    "}\n"
    'argparse "$@" <<EOF || exit 1\n'
    "parser.add_argument('project_dir')\n"
    "parser.add_argument('-n', '--notebook-port', default=None, type=int,\n"
    "                    help='The notebook port [default: any free port]')\n"
    "parser.add_argument('-k', '--token', default=None, type=str,\n"
    "                    help='The notebook token (a random one if not given)')\n"
    "parser.add_argument('-a', '--attach', default=False, action='store_true',\n"
    "                    help='Open a shell in the container')\n"
    "EOF\n"
    'docker run -d -P -v "$PROJECT_DIR:/home/me/project" me/notebook\n'
)
LAB_README = (
    "# Notebook lab\n"
    "\n"
    "```\n"
    "usage: notebook.sh [-h] [-n NOTEBOOK_PORT] [-k TOKEN]\n"
    "                   data_dir\n"
    "\n"
    "positional arguments:\n"
    "  data_dir\n"
    "\n"
    "optional arguments:\n"
    "  -h, --help            show this help message and exit\n"
    "  -n NOTEBOOK_PORT, --notebook-port NOTEBOOK_PORT\n"
    "                        The notebook port [default: any free port]\n"
    "  -k TOKEN, --token TOKEN\n"
    "                        The notebook token (a random one if not given)\n"
    "```\n"
)

# a Python runner with options only, one of them required
RUNNER = (
    "import argparse\n\n"
    "parser = argparse.ArgumentParser(\n    prog='start_box.py', description='Start the box'\n)\n"
    "parser.add_argument('--shell', type=str, default='bash', required=False)\n"
    "parser.add_argument('--host-port', type=str, default='', required=False)\n"
    "parser.add_argument('--image', type=str, required=True)\n"
    "args = parser.parse_args()\n"
)
RUNNER_README = (
    "# Box\n\n```text\nusage: start_box.py [-h] [--shell SHELL] [--port PORT] --image IMAGE\n```\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "copies the help" in d.message
    ]


def test_a_renamed_positional_and_a_new_option(tmp_path: Path) -> None:
    assert found(tmp_path, LAB_README, {"notebook.sh": LAB}) == [
        (
            4,
            "README copies the help of notebook.sh, but notebook.sh:14 defines positional project_dir "
            "(the copy: data_dir); option -a/--attach, which the copy lacks",
            "likely",
        )
    ]


def test_a_stale_option_in_a_python_script_copy(tmp_path: Path) -> None:
    assert found(tmp_path, RUNNER_README, {"start_box.py": RUNNER}) == [
        (
            4,
            "README copies the help of start_box.py, but start_box.py:6 defines option --host-port, "
            "which the copy lacks; no option --port, which the copy shows",
            "likely",
        )
    ]


def test_silent_on_a_copy_that_matches(tmp_path: Path) -> None:
    readme = LAB_README.replace("data_dir", "project_dir").replace("[-k TOKEN]\n", "[-k TOKEN] [-a]\n")
    assert found(tmp_path, readme, {"notebook.sh": LAB}) == []
    fixed = RUNNER_README.replace("[--port PORT]", "[--host-port HOST_PORT]")
    assert found(tmp_path, fixed, {"start_box.py": RUNNER}) == []


def test_silent_where_the_parser_or_the_copy_cannot_be_read_whole(tmp_path: Path) -> None:
    traps = {
        # subcommands, a list argument, a hidden option, a second parser
        "sub": RUNNER.replace("args = ", "parser.add_subparsers()\nargs = "),
        "nargs": RUNNER.replace("'--shell', type=str", "'--shell', nargs='+', type=str"),
        "hidden": RUNNER.replace("required=True)", "required=True, help=argparse.SUPPRESS)"),
        "two": RUNNER + "other = argparse.ArgumentParser(prog='x')\n",
        "names": RUNNER.replace("'--shell'", "*SHELL_FLAGS"),
    }
    for script in traps.values():
        assert found(tmp_path, RUNNER_README, {"start_box.py": script}) == []
    # a hand-written usage (no `[-h]`), a copy with choices, a script not beside the README
    for readme in (
        "# Box\n\n```\nusage: start_box.py [--port PORT]\n```\n",
        "# Box\n\n```\nusage: start_box.py [-h] [--shell {bash,zsh}] [--port PORT]\n```\n",
        "# Box\n\n```\nusage: other_box.py [-h] [--port PORT]\n```\n",
        "# Box\n\nusage: start_box.py [-h] [--port PORT]\n",
    ):
        assert found(tmp_path, readme, {"start_box.py": RUNNER}) == []
