"""Inline code spans that are whole commands, read as one-line command blocks (docgen/markdown.py
`inline_commands`), and what the command rules then find in them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.markdown import read_document
from docgen.pipeline import build_model

# modelled on READMEs that give their whole build and run as list items of inline code
STEPS = """\
# Voice UI image

### Setup
- Clone the repository and run ```docker build -t voice-ui:latest .``` to build the image
- Start it with ```docker run --gpus all -p 7980:7980 voice-ui:latest```
- Open the UI at localhost:7890
"""

# modelled on READMEs that build in a paragraph and explain the options in a list below
EXPLAINED = """\
## Build

`docker build -t cellviz .`
* `-t cellviz` names the image `cellviz`
* `.` is the folder the Dockerfile is in

## Run

`docker run -p 4242:4242 cellviz`
* `--gpus all` gives it the GPUs
"""

DOCKERFILE = 'FROM ubuntu:22.04\nCOPY start.sh /start.sh\nEXPOSE {port}\nCMD ["/start.sh"]\n'


def commands(text: str) -> list[tuple[int, str]]:
    return [(f.lines[0][0], f.lines[0][1]) for f in read_document(text, "README.md").fences if f.inline]


def test_list_items_and_paragraphs_hold_commands() -> None:
    assert commands(STEPS) == [
        (4, "docker build -t voice-ui:latest ."),
        (5, "docker run --gpus all -p 7980:7980 voice-ui:latest"),
    ]
    assert commands(EXPLAINED) == [(3, "docker build -t cellviz ."), (9, "docker run -p 4242:4242 cellviz")]
    block = read_document(STEPS, "README.md").fences[0]
    assert (block.lang, block.section, block.inline) == ("bash", 3, True)


def test_table_cells_and_other_commands() -> None:
    text = (
        "| Step | Command |\n|---|---|\n| get | `git clone https://example.org/a/b.git` |\n"
        "| build | `sudo docker build -t b ..` |\n\n"
        "Then `cd b`, `bash setup.sh`, `./run.sh`, `python3 train.py --epochs 2`, `make` and "
        "`docker compose up`.\n"
    )
    assert [c for _, c in commands(text)] == [
        "git clone https://example.org/a/b.git",
        "sudo docker build -t b ..",
        "cd b",
        "bash setup.sh",
        "./run.sh",
        "python3 train.py --epochs 2",
        "make",
        "docker compose up",
    ]


@pytest.mark.parametrize(
    "span",
    [
        "docker run <image>",  # a placeholder
        "docker build -t [name] .",
        "docker build -f dockerfile -t image_name:tag path",
        "docker build -t app /path/to/repo",
        "./build.sh /path/where/your/data/is",
        "docker run -v ${pwd}/data:/data app",  # PowerShell's ${pwd}
        "docker run ... app",
        "--gpus all",  # options alone
        "-p 8080:8080",
        "docker build --platform linux/arm64",  # no context: a fragment of a longer command
        "docker build -t app",
        "docker",
        "docker ps",
        "python",
        "cd ./models/*",
    ],
)
def test_fragments_and_placeholders_are_no_command(span: str) -> None:
    assert commands(f"Run `{span}` first.\n") == []


def test_headings_history_and_fences_give_no_inline_command() -> None:
    text = (
        "# Run `docker build -t app .`\n\n"
        "## Changelog\n\n- 1.0: `docker run -p 1:1 old-app`\n\n"
        "## Use\n\n```bash\ndocker run -p 2:2 app  # `docker run -p 3:3 app`\n```\n"
    )
    doc = read_document(text, "README.md")
    assert [f.inline for f in doc.fences] == [False]


def findings(root: Path, readme: str, port: int = 7980) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE.format(port=port), "README.md": readme, ".git/HEAD": ""})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_planted_drifts_in_inline_commands_are_found(tmp_path: Path) -> None:
    found = findings(tmp_path, STEPS, port=7890)
    assert [(line, confidence) for line, _, confidence in found] == [(4, "certain"), (5, "likely")]
    assert "does not hold start.sh" in found[0][1]
    assert "publishes container port 7980" in found[1][1] and "exposes 7890" in found[1][1]


def test_true_inline_commands_stay_silent(tmp_path: Path) -> None:
    make_tree(tmp_path, {"start.sh": "#!/bin/sh\nexec app\n"})
    assert findings(tmp_path, STEPS.replace("7890", "7980")) == []
    assert findings(tmp_path, EXPLAINED, port=4242) == []


def test_a_command_read_inline_and_in_a_block_is_reported_once(tmp_path: Path) -> None:
    readme = STEPS + "\n```bash\ndocker build -t voice-ui:latest .\n```\n"
    found = findings(tmp_path, readme, port=7980)
    assert [line for line, message, _ in found if "does not hold start.sh" in message] == [4]


def test_a_script_a_sentence_runs_in_inline_code_is_told_once(tmp_path: Path) -> None:
    readme = "# App\n\n## Installation\n\n1. Pull the image, or run `./tools/make.sh` to build it\n"
    make_tree(tmp_path, {"tools/build.sh": "#!/bin/sh\ndocker build .\n"})
    found = findings(tmp_path, readme)
    assert [(line, message) for line, message, _ in found] == [
        (5, "README runs tools/make.sh, which does not exist (the scripts in tools/: build.sh)")
    ]


# --------------------------------------------------------------------------------------------------
# Commands written as plain prose lines, no code at all

# modelled on a README of a GPU image that writes its steps as bare lines under headings
BARE_STEPS = """\
# docker
contains dockerfiles, build and run scripts

## Build
cd build
./build.sh

## Run
./run_docker.sh

## Notes
docker run is used by the script above, see it for the options.
make sure the NVIDIA runtime is installed
cd into the folder you cloned first.
build.sh, run_docker.sh and requirements.txt are the files here
"""

# modelled on a README with code blocks that also names commands in its sentences
WITH_BLOCKS = """\
# Trainer

Clone it and enter it:
git clone https://github.com/acme/trainer.git
then build.

$ ./setup.sh

```bash
docker build -t trainer .
```

bash scripts/train.sh starts the training of the model.
"""


def test_bare_lines_of_a_readme_with_no_block_are_commands() -> None:
    assert commands(BARE_STEPS) == [(5, "cd build"), (6, "./build.sh"), (9, "./run_docker.sh")]
    fence = read_document(BARE_STEPS, "README.md").fences[0]
    assert (fence.lang, fence.inline, fence.loose) == ("bash", True, False)


def test_with_code_blocks_only_paragraphs_made_of_commands_count() -> None:
    # the clone stands in a paragraph of sentences; the prompt line is a command block of its own
    # (`prompt_commands`, its prompt kept as a fenced block keeps it)
    assert commands(WITH_BLOCKS) == []
    blocks = [(f.lang, f.lines) for f in read_document(WITH_BLOCKS, "README.md").fences if not f.inline]
    assert blocks == [("", [(7, "$ ./setup.sh")]), ("bash", [(10, "docker build -t trainer .")])]
    # with no block, the clone written among sentences is a command too
    no_block = WITH_BLOCKS.replace("```bash\ndocker build -t trainer .\n```\n", "")
    assert commands(no_block) == [(4, "git clone https://github.com/acme/trainer.git")]


@pytest.mark.parametrize(
    "line",
    [
        "docker run is the way to start it",
        "cd to the folder.",
        "./build.sh builds the image and then runs it",
        "sudo is needed for docker",
        "python is 3.10 in this image",
        "docker run -it <image>",
        "git clone the repository first",
        "    ./indented.sh",
        "./build.sh: builds it",  # a list of the scripts and what each does
        "cd build and run it",
    ],
)
def test_sentences_and_shapes_are_no_command(line: str) -> None:
    assert commands(f"# App\n\n{line}\n") == []


LABELS = """\
Create image:
     docker build -t lab/seg:0.4 .

Run on the CPU:
    docker run --rm lab/seg:0.4 python /app/main.py

Then run
    docker run --rm lab/seg:0.4
and read the log.
"""


def test_indented_commands_under_a_label_are_commands() -> None:
    # a label ending in `:` over indented lines: Markdown folds them into its paragraph; the author wrote
    # a code block. An indented line inside a sentence's paragraph stays prose.
    assert commands(LABELS) == [
        (2, "docker build -t lab/seg:0.4 ."),
        (5, "docker run --rm lab/seg:0.4 python /app/main.py"),
    ]


def test_blocks_fenced_with_single_quotes_are_code_blocks() -> None:
    """`'''` in place of a backtick fence (a paragraph to Markdown): each pair of such lines encloses a
    block; an odd one, or a docstring inside a real block, is no fence."""
    text = (
        "# Service\n\n###### Start server\n'''\ndocker build -t asr .\n'''\n'''bash\n"
        "docker run --gpus all \\\n  -p 8002:8002 \\\n  asr\n'''\n\n"
        "A lone ''' quote, then:\n'''\ndocker pull nothing\n\n"
        "```python\ndef f():\n    '''\n    docker run x\n    '''\n```\n"
    )
    doc = read_document(text, "README.md")
    blocks = [(f.lang, f.lines) for f in doc.fences if not f.inline]
    assert blocks == [
        ("", [(5, "docker build -t asr .")]),
        ("bash", [(8, "docker run --gpus all \\"), (9, "  -p 8002:8002 \\"), (10, "  asr")]),
        ("python", [(18, "def f():"), (19, "    '''"), (20, "    docker run x"), (21, "    '''")]),
    ]


# modelled on notes that list a cluster's launch steps as bare lines under a heading, then explain the
# launcher in a fenced block
CLUSTER_STEPS = """\
# launch on the cluster
vpnup
eval $(docker-machine env worker-3)
export NODE_RANK=1
bash prepare
bash launch/start-node.sh

```sh
torchrun --nnodes 2 train.py
```
"""

# modelled on a README whose prose wraps `bash scripts` onto a line of its own
WRAPPED = """\
# Tools

The helpers here are plain
bash scripts
that you can read before running.

```sh
./tools/setup.sh
```
"""


def test_a_paragraph_of_commands_with_shell_only_lines_is_read_as_commands() -> None:
    # the alias, the eval and the export are read by the shell only: the paragraph is still commands
    assert commands(CLUSTER_STEPS) == [(5, "bash prepare"), (6, "bash launch/start-node.sh")]
    assert not any(f.loose for f in read_document(CLUSTER_STEPS, "README.md").fences)


def test_a_bare_bash_word_in_prose_is_no_command() -> None:
    assert commands(WRAPPED) == []
    # a sentence line in the paragraph keeps the other command lines loose, and the bare run is dropped
    mixed = CLUSTER_STEPS.replace("vpnup\n", "Connect to the VPN first\n")
    assert commands(mixed) == []
    no_block = mixed.replace("```sh\ntorchrun --nnodes 2 train.py\n```\n", "")
    assert commands(no_block) == [(6, "bash launch/start-node.sh")]
