"""`docgen.audit.moved_scripts`: a script the README runs from its folder (`python fetch_nodes.py` in a
numbered step or a command block, `bash tools/sync.sh`, `./sync.sh`) that is not there while one file of
that name is in a folder below it is a finding naming that file; a script that is there, one of which
two folders hold a copy, one run after a `cd` into its folder, one run in the container (after `docker
exec`, under a heading about the container, one the image copies) are not. A `cd` into a variable the
README says is the repository's root is followed (`root_vars`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = (
    'FROM python:3.12-slim\nWORKDIR /srv/app\nCOPY nodes/nodes /srv/app/nodes\nCMD ["python", "main.py"]\n'
)


def found(
    root: Path, readme: str, dockerfile: str = DOCKERFILE, extra: dict[str, str] | None = None
) -> list[str]:
    make_tree(
        root,
        {
            "README.md": readme,
            "Dockerfile": dockerfile,
            "nodes/fetch_nodes.py": "print('fetch')\n",
            "nodes/requirements.txt": "requests\n",
            "weights/get_weights.py": "print('get')\n",
            "tools/sync.sh": "#!/bin/sh\n",
            **(extra or {}),
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(text, "README.md", [model], {}, root)]


def moved(line: int, path: str, meant: str, where: str = "the README's folder") -> str:
    return (
        f"{line}: README runs {path} from {where}, which has no such file (did you mean {meant}?) (certain)"
    )


STEPS = """\
Images of the app.

### Usage
1. fetch the nodes, `{first}`
2. build the image, `docker build -t app .`
3) get the weights: `{second}`
"""


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (
            "python fetch_nodes.py",
            "python3 get_weights.py --all",
            [
                moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py"),
                moved(6, "get_weights.py", "weights/get_weights.py"),
            ],
        ),
        ("python -u fetch_nodes.py", "echo", [moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        # other interpreters' commands
        ("python3.11 fetch_nodes.py", "echo", [moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        ("uv run fetch_nodes.py", "echo", [moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        ("uv run python fetch_nodes.py", "echo", [moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        ("poetry run python fetch_nodes.py", "echo", [moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        # a module is no script
        ("python -m fetch_nodes.py", "echo", []),
        ("bash sync.sh", "./sync.sh", [moved(4, "sync.sh", "tools/sync.sh")]),
        # the paths as they are
        ("python nodes/fetch_nodes.py", "python3 weights/get_weights.py", []),
        ("bash tools/sync.sh", "echo", []),
        # a step that goes into the folder first
        ("cd nodes && python fetch_nodes.py", "echo", []),
        # no file of that name anywhere: another rule's business (or another layout)
        ("python train.py", "echo", []),
        # run in the container
        ("docker exec -it app python fetch_nodes.py", "echo", []),
    ],
)
def test_a_numbered_step_runs_a_script_of_a_folder_below(
    tmp_path: Path, first: str, second: str, expected: list[str]
) -> None:
    told = found(tmp_path, STEPS.format(first=first, second=second))
    # (`python -m fetch_nodes.py` is `command_slips`' finding, a module option given a script)
    assert [f for f in told if "which has no such file" in f] == expected


def test_two_copies_of_the_script_name_none(tmp_path: Path) -> None:
    extra = {"old/fetch_nodes.py": "print('old')\n"}
    assert found(tmp_path, STEPS.format(first="python fetch_nodes.py", second="echo"), extra=extra) == []


def test_a_step_inside_the_container_is_not_read(tmp_path: Path) -> None:
    readme = "# App\n\nInside the container:\n\n1. fetch the nodes, `python fetch_nodes.py`\n"
    assert found(tmp_path, readme) == []


@pytest.mark.parametrize(
    "copy",
    [
        "COPY nodes/ /srv/app/",
        # the source as BuildKit reads it (`copied.context_path`): quotes off, `/` and `./` the context's top
        "COPY /nodes/ /srv/app/",
        'COPY ["./nodes/fetch_nodes.py", "/srv/app/"]',
        # globs, as BuildKit matches them (Go's filepath.Match): a folder a glob matches is copied whole
        "COPY nodes/*.py /srv/app/",
        "COPY nod?s /srv/app/",
        "COPY */fetch_nodes.py /srv/app/",
        "COPY nodes/[^x]*.py /srv/app/",
        # `[!f]` is a class of `!` and `f` for Go (for fnmatch, any letter but `f`)
        "COPY nodes/[!f]etch_nodes.py /srv/app/",
    ],
)
def test_a_script_the_image_copies_is_run_in_it(tmp_path: Path, copy: str) -> None:
    dockerfile = f"FROM python:3.12-slim\nWORKDIR /srv/app\n{copy}\n"
    assert found(tmp_path, STEPS.format(first="python fetch_nodes.py", second="echo"), dockerfile) == []


@pytest.mark.parametrize(
    "copy",
    [
        # a star is within one name for BuildKit (fnmatch's crosses `/`): `*.py`, `**.py` are files at the top
        "COPY *.py /srv/app/",
        "COPY **.py /srv/app/",
        "COPY nodes*py /srv/app/",
        # `[^f]` leaves `f` out for Go (for fnmatch, a class of `^` and `f`)
        "COPY nodes/[^f]etch_nodes.py /srv/app/",
    ],
)
def test_a_glob_that_copies_another_file_copies_no_script(tmp_path: Path, copy: str) -> None:
    dockerfile = f"FROM python:3.12-slim\nWORKDIR /srv/app\n{copy}\n"
    assert found(tmp_path, STEPS.format(first="python fetch_nodes.py", second="echo"), dockerfile) == [
        moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")
    ]


def test_a_source_above_the_context_copies_no_script(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nWORKDIR /srv/app\nCOPY ../nodes/ /srv/app/\n"
    assert found(tmp_path, STEPS.format(first="python fetch_nodes.py", second="echo"), dockerfile) == [
        moved(4, "fetch_nodes.py", "nodes/fetch_nodes.py")
    ]


def test_a_workdir_named_as_the_folder_runs_it_there(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nCOPY . /srv\nWORKDIR /srv/nodes\n"
    assert found(tmp_path, STEPS.format(first="python fetch_nodes.py", second="echo"), dockerfile) == []


BLOCKS = """\
# App

## Setup

```bash
{commands}
```
"""


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        ("python fetch_nodes.py", [moved(6, "fetch_nodes.py", "nodes/fetch_nodes.py")]),
        (
            "pip install -r nodes/requirements.txt\n$ python3 fetch_nodes.py",
            [moved(7, "fetch_nodes.py", "nodes/fetch_nodes.py")],
        ),
        ("cd nodes\npython fetch_nodes.py", []),
        ("cd weights\npython fetch_nodes.py", []),  # nothing below the folder it runs in
        # the rest of the block runs in the container
        ("docker run -it app bash\npython fetch_nodes.py", []),
        ("docker run --rm app python fetch_nodes.py", []),
    ],
)
def test_a_command_block_runs_a_script_of_a_folder_below(
    tmp_path: Path, commands: str, expected: list[str]
) -> None:
    assert found(tmp_path, BLOCKS.format(commands=commands)) == expected


def test_a_block_about_the_container_is_not_read(tmp_path: Path) -> None:
    readme = "# App\n\n## In the container\n\n```bash\npython fetch_nodes.py\n```\n"
    assert found(tmp_path, readme) == []


ROOTED = """\
# App

$ROOT is the root directory of this git repo.

```bash
cd $ROOT/{folder}
{command}
```
"""


def test_a_cd_into_the_repository_root_variable_is_followed(tmp_path: Path) -> None:
    readme = ROOTED.format(folder="", command="python fetch_nodes.py")
    assert found(tmp_path, readme) == [moved(7, "fetch_nodes.py", "nodes/fetch_nodes.py")]
    assert found(tmp_path, ROOTED.format(folder="nodes", command="python fetch_nodes.py")) == []


@pytest.mark.parametrize(
    "readme",
    [
        "# App\n\n1. Open the `nodes` folder.\n2. fetch them, `python fetch_nodes.py`\n",
        "# App\n\nFrom the nodes directory, run:\n\n```bash\npython fetch_nodes.py\n```\n",
        "# App\n\n```bash\npushd nodes\npython fetch_nodes.py\npopd\n```\n",
        # a section naming the folder many lines above its run (a robot workspace's build steps)
        "# App\n\n## Fetch\n\nFetch the nodes with `fetch_nodes.py` in `nodes` directory.\n"
        "The `nodes` folder also holds a list of packages.\nIt lists one per line.\n"
        "Add your own at the end.\nKeep them sorted.\nOne more line.\n\n```\n$ python fetch_nodes.py\n```\n",
    ],
)
def test_words_putting_the_reader_in_the_folder(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


def test_a_folder_named_in_another_section_puts_no_reader_there(tmp_path: Path) -> None:
    readme = (
        "# App\n\n## Layout\n\nThe `nodes` folder holds the fetcher.\n\n"
        "## Fetch\n\n```bash\npython fetch_nodes.py\n```\n"
    )
    assert found(tmp_path, readme) == [moved(10, "fetch_nodes.py", "nodes/fetch_nodes.py")]


MOVED_SECTION = """\
# App

## Serving with the node server

To serve the model, first either:

- move into the [nodes](./nodes/) directory and fetch the nodes:

  ```bash
  python fetch_nodes.py
  ```

- or download them from the release page.

Put the files in the [cache](./nodes/cache/) folder, then check them:

```bash
python check_nodes.py
```

Start the server:

```bash
./{script}
```

## Other steps

```bash
./{other}
```
"""
"""A section whose first step moves the reader into a folder in words (a link as the folder's name, the
shape of a model-serving README with one section per server), its runs many lines below it."""


def test_a_section_moving_the_reader_in_words_runs_its_steps_there(tmp_path: Path) -> None:
    extra = {
        "nodes/check_nodes.py": "print()\n",
        "nodes/serve.sh": "#!/bin/sh\n",
        "nodes/cache/.keep": "",
        "tools/pack.sh": "#!/bin/sh\n",
    }
    readme = MOVED_SECTION.format(script="serve.sh", other="sync.sh")
    # the section's runs are in nodes/; the next section's is not: sync.sh is tools/sync.sh, told
    assert found(tmp_path, readme, extra=extra) == [moved(30, "sync.sh", "tools/sync.sh")]
    # a script the folder moved into does not hold is still told, where the checkout has it
    readme = MOVED_SECTION.format(script="pack.sh", other="serve.sh")
    assert [f.split(":")[0] for f in found(tmp_path / "b", readme, extra=extra)] == ["24", "30"]


def test_the_summary_counts_a_moved_script_as_a_file_of_the_repository(chdir_tmp: Path) -> None:
    # the finding is about the repository (a script not where the README runs it), not the image: the
    # summary line says so, as it does for a dead link
    readme = STEPS.format(first="python fetch_nodes.py", second="python weights/get_weights.py")
    (chdir_tmp / ".git").mkdir()
    found(chdir_tmp, readme)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert result.out.splitlines()[-1] == (
        "1 claim in README.md contradicts the repository: a file it names or needs is missing"
    )
    # trap: next to a claim about the image, only the script counts as a missing file
    (chdir_tmp / "README.md").write_text(readme.replace("Images of the app.", "Built on Python 3.11."))
    result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    assert result.out.splitlines()[-1] == (
        "2 claims in README.md contradict Dockerfile or the repository (1 of a missing file)"
    )


RENAMED = """\
# App

## Build

Build and push the image with the script:

```bash
{command}
```
"""


@pytest.mark.parametrize(
    ("command", "extra", "expected"),
    [
        # the script is `build_docker.py`: run by another spelling, it is no file
        (
            "python3 build-docker.py --username=me --tag=1.0 app",
            {"build_docker.py": "print('build')\n"},
            [moved(8, "build-docker.py", "build_docker.py")],
        ),
        # in a folder, in another case
        (
            "python tools/Build_Image.py",
            {"tools/build-image.py": "print('build')\n"},
            [moved(8, "tools/Build_Image.py", "tools/build-image.py")],
        ),
        # the name as it is
        ("python3 build_docker.py app", {"build_docker.py": "print('build')\n"}, []),
        # a name one letter away is another file, not a respelling (`missing`'s rules, not this one)
        ("python3 build_dockr.py app", {"build_docker.py": "print('build')\n"}, []),
        # two files of that spelling: which one is meant is not known
        (
            "python3 build-docker.py app",
            {"build_docker.py": "print('a')\n", "Build_Docker.py": "print('b')\n"},
            [],
        ),
        # a line of the README makes the script first
        (
            "wget https://example.com/tools/build-docker.py\npython3 build-docker.py app",
            {"build_docker.py": "print('build')\n"},
            [],
        ),
        # after a clone of another project, the script is that project's
        (
            "git clone https://github.com/other/builder.git\npython3 build-docker.py app",
            {"build_docker.py": "print('build')\n"},
            [],
        ),
        # run in the container
        (
            "docker run -it app bash\npython3 build-docker.py",
            {"build_docker.py": "print('build')\n"},
            [],
        ),
    ],
)
def test_a_script_run_by_another_spelling_of_a_file_there(
    tmp_path: Path, command: str, extra: dict[str, str], expected: list[str]
) -> None:
    assert found(tmp_path, RENAMED.format(command=command), extra=extra) == expected


LIFTED = """\
# App

## Docker

```bash
docker build -t app .
{commands}
```
"""


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        # a one-line `docker run` with no terminal leaves the reader on the host
        (
            "docker run --rm -p 8080:8080 app\npython client/main_client.py --url x",
            [moved(8, "client/main_client.py", "main_client.py")],
        ),
        ("python3 client/main_client.py", [moved(7, "client/main_client.py", "main_client.py")]),
        ("bash helpers/sync.sh", []),  # no sync.sh next to the README
        # traps: the rest of the block may run in the container
        ("docker run -it app bash\npython client/main_client.py", []),
        ("docker run --rm \\\n  -it app\npython client/main_client.py", []),
        ("docker compose run app\npython client/main_client.py", []),
        ("docker exec -ti app sh\npython client/main_client.py", []),
        ("docker run --rm app python client/main_client.py", []),
        # the README makes the folder, or a clone brings it
        ("mkdir client && cp main_client.py client/\npython client/main_client.py", []),
        ("git clone https://example.org/other/client.git\npython client/main_client.py", []),
        ("python -m client.main_client", []),
    ],
)
def test_a_script_run_from_a_folder_that_is_not_there(
    tmp_path: Path, commands: str, expected: list[str]
) -> None:
    # (a compose file for `docker compose run`: one with none is audit/entered_compose.py's finding)
    extra = {"main_client.py": "print('client')\n", "compose.yaml": "services:\n  app:\n    build: .\n"}
    assert found(tmp_path, LIFTED.format(commands=commands), extra=extra) == expected


def test_a_script_run_from_a_folder_the_image_makes_is_the_container_s(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nWORKDIR /srv\nCOPY main_client.py /srv/client/\n"
    readme = LIFTED.format(commands="python client/main_client.py")
    assert found(tmp_path, readme, dockerfile, {"main_client.py": "x\n"}) == []


# --------------------------------------------------------------------------------------------------
# A README at the root running the scripts that sit next to a Dockerfile in a folder below it

BENCH = 'FROM python:3.12-slim\nCOPY . /tmp\nWORKDIR /tmp\nENTRYPOINT ["python3"]\n'
ROOT_README = """\
# Benchmarks

Build the image and run the container:

```bash
./build_run.sh [SAVE_NAME (default: bench.log)]
```

Or only run the container:

```bash
./run.sh [SAVE_NAME (default: bench.log)]
```

Add new cases under `bench/cases`.
"""


def found_below(root: Path, readme: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    make_tree(
        root,
        {
            "README.md": readme,
            "bench/Dockerfile": BENCH,
            "bench/build_run.sh": '#!/bin/sh\nLOG="${1:-bench.log}"\ndocker build -t bench .\n',
            "bench/run.sh": '#!/bin/sh\ndocker run bench main.py --save "${1:-bench.log}"\n',
            "bench/cases/mlp.py": "print('mlp')\n",
        },
    )
    monkeypatch.chdir(root)  # the Dockerfile is given from where docgen runs, as the command line does
    model = build_model(Path("bench/Dockerfile"), "bench/Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(text, "README.md", [model], {}, root)]


def test_scripts_next_to_a_dockerfile_below_a_root_readme_are_not_where_it_runs_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert found_below(tmp_path, ROOT_README, monkeypatch) == [
        moved(6, "build_run.sh", "bench/build_run.sh"),
        moved(12, "run.sh", "bench/run.sh"),
    ]


@pytest.mark.parametrize(
    "entering",
    [
        "```bash\ncd bench\n```\n\n",  # the README enters the folder first
        "Run these from the `bench/` folder:\n\n",  # its words put the reader there
        "Run these from the bench directory.\n\n",
    ],
)
def test_scripts_run_where_the_readme_puts_the_reader_are_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entering: str
) -> None:
    readme = ROOT_README.replace("Build the image", entering + "Build the image")
    assert found_below(tmp_path, readme, monkeypatch) == []


def test_a_script_the_readme_downloads_first_is_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = ROOT_README.replace(
        "./build_run.sh [",
        "wget https://example.org/tools/build_run.sh\nchmod +x build_run.sh\n./build_run.sh [",
    )
    assert not [f for f in found_below(tmp_path, readme, monkeypatch) if "build_run.sh" in f]


CAPTIONED = """\
# Reconstruction container

## Usage

```bash
./run.sh build
```

### Example commands
{intro}

**Fetch the nodes:**
```bash
python fetch_nodes.py --out /workspace/nodes
```

**Then the weights:**
```bash
python get_weights.py
```
"""


@pytest.mark.parametrize(
    "intro",
    [
        "Inside the container:",
        "Once the shell opens, run these inside the container:",
        "Run the following in the running container:",
    ],
)
def test_an_introduction_about_the_container_holds_over_captioned_blocks(tmp_path: Path, intro: str) -> None:
    # the scripts are the image's (its Dockerfile is not beside the README): no block after it is read
    assert found(tmp_path, CAPTIONED.format(intro=intro), extra={"run.sh": "#!/bin/sh\n"}) == []


WEIGHTS = moved(19, "get_weights.py", "weights/get_weights.py")


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # no introduction at all: the host's folder
        (CAPTIONED.format(intro=""), [moved(14, "fetch_nodes.py", "nodes/fetch_nodes.py"), WEIGHTS]),
        # a caption saying the host ends it
        (
            CAPTIONED.format(intro="Inside the container:").replace(
                "**Fetch the nodes:**", "**On the host:**"
            ),
            [moved(14, "fetch_nodes.py", "nodes/fetch_nodes.py"), WEIGHTS],
        ),
        # a paragraph of prose between ends it for the blocks after
        (
            CAPTIONED.format(intro="Inside the container:").replace(
                "**Then the weights:**", "The nodes are cached for later runs.\n\n**Then the weights:**"
            ),
            [moved(21, "get_weights.py", "weights/get_weights.py")],
        ),
        # a heading ends it
        (
            CAPTIONED.format(intro="Inside the container:").replace(
                "**Then the weights:**", "### Weights\n\n**Then the weights:**"
            ),
            [moved(21, "get_weights.py", "weights/get_weights.py")],
        ),
    ],
)
def test_what_ends_an_introduction_about_the_container(
    tmp_path: Path, readme: str, expected: list[str]
) -> None:
    assert found(tmp_path, readme, extra={"run.sh": "#!/bin/sh\n"}) == expected


def test_a_block_leaving_the_container_ends_it(tmp_path: Path) -> None:
    readme = (
        "# Robot stack\n\n## Run\n\nIn the container:\n\n"
        "```bash\nros2 launch stack demo.launch.py\nexit\n```\n\n"
        "**Sync the maps:**\n\n```bash\nbash sync.sh\n```\n"
    )
    assert found(tmp_path, readme) == [moved(15, "sync.sh", "tools/sync.sh")]


def test_a_script_run_in_the_container_whose_copy_names_its_old_place(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nWORKDIR /workspace\nCOPY fetch_nodes.py /workspace/fetch_nodes.py\n"
    readme = CAPTIONED.format(intro="Inside the container:")
    assert found(tmp_path, readme, dockerfile, {"run.sh": "#!/bin/sh\n"}) == [
        "14: README runs fetch_nodes.py inside the container, where Dockerfile:3 copies it from "
        "fetch_nodes.py of the build context, which has no such file "
        "(did you mean nodes/fetch_nodes.py?) (certain)"
    ]
    # copied from where it is: the container has it
    fixed = dockerfile.replace("COPY fetch_nodes.py", "COPY nodes/fetch_nodes.py")
    assert found(tmp_path / "b", readme, fixed, {"run.sh": "#!/bin/sh\n"}) == []


# A script run by a path that lost a folder, told by the README's own longer path to it: modelled on a
# distributed-training README whose quick run is `python gpt/train.py` while its torchrun lines (and the
# image) use `apps/gpt/train.py`, and on a speech server whose "Local development" block runs
# `uv run server.py` from the root while the image copies `svc/` to its working folder and runs it there.
TRAIN = """\
# Distributed GPT

Single process:

```bash
pip install -r requirements.txt
python gpt/train.py
```

Several GPUs:

```bash
torchrun --nnodes 1 --nproc_per_node 4 apps/gpt/train.py
```
"""
TRAIN_IMAGE = "FROM python:3.12-slim\nWORKDIR /work/dist\nCOPY ./apps /work/dist/apps\n"


def bare(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    found = audit(text, "README.md", [model], {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "README runs" in d.message]


LOST = (
    "7: README runs gpt/train.py from the README's folder, which has no such file; README:13 runs it as"
    " apps/gpt/train.py (certain)"
)


def test_a_script_path_missing_a_folder_the_readme_writes_elsewhere(tmp_path: Path) -> None:
    assert bare(tmp_path, TRAIN, TRAIN_IMAGE) == [LOST]  # the image copies apps/
    assert bare(tmp_path / "b", TRAIN, "FROM python:3.12-slim\n", {"apps/README.md": "x\n"}) == [LOST]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        (TRAIN, TRAIN_IMAGE, {"gpt/train.py": "x\n"}),  # the path is there too
        (TRAIN, "FROM python:3.12-slim\n", {}),  # nothing says apps/ is the project's
        (TRAIN + "\n```bash\npython legacy/gpt/train.py\n```\n", TRAIN_IMAGE, {}),  # two longer paths
        (TRAIN.replace("torchrun", "git clone https://example.org/apps\ntorchrun"), TRAIN_IMAGE, {}),
        (
            TRAIN.replace("torchrun --nnodes 1 --nproc_per_node 4 apps", "see https://example.org/x/apps"),
            TRAIN_IMAGE,
            {},
        ),  # an address, not a path of the project
    ],
)
def test_a_shorter_path_that_may_be_right(
    tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]
) -> None:
    assert bare(tmp_path, readme, dockerfile, files) == []


def test_an_image_keeping_the_folder_does_not_make_the_short_path_its_own(tmp_path: Path) -> None:
    # the script is below: told with the file meant, though the image copies it (the image keeps apps/)
    files = {"apps/gpt/train.py": "x\n"}
    assert bare(tmp_path, TRAIN, TRAIN_IMAGE, files) == [
        "7: README runs gpt/train.py from the README's folder, which has no such file (did you mean"
        " apps/gpt/train.py?) (certain)"
    ]
    # an image copying apps/ to its working folder runs gpt/train.py there: the container's path
    flat = "FROM python:3.12-slim\nWORKDIR /work\nCOPY ./apps /work\n"
    assert bare(tmp_path / "b", TRAIN, flat, files) == []


SERVER = """\
# TTS proxy

## Local Development

```bash
uv sync
uv run server.py
```

## Docker

```bash
docker build -t tts .
```
"""
SERVER_IMAGE = (
    'FROM python:3.12-slim\nCOPY svc /svc\nWORKDIR /svc\nRUN uv sync\nCMD ["uv", "run", "server.py"]\n'
)


def test_a_local_run_of_a_script_the_image_runs_from_a_copied_folder(tmp_path: Path) -> None:
    assert bare(tmp_path, SERVER, SERVER_IMAGE) == [
        "7: README runs server.py on the host from the README's folder, which has no such file;"
        " Dockerfile:5 runs it in /svc, where the image copies svc/ (did you mean svc/server.py?) (likely)"
    ]
    # in a checkout that holds svc/server.py: the file itself, though the image copies it
    assert bare(tmp_path / "b", SERVER, SERVER_IMAGE, {"svc/server.py": "x\n"}) == [
        "7: README runs server.py from the README's folder, which has no such file (did you mean"
        " svc/server.py?) (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        (SERVER.replace("Local Development", "Usage"), SERVER_IMAGE, {}),  # may run in the container
        (SERVER, SERVER_IMAGE, {"server.py": "x\n"}),  # it is there
        (SERVER, SERVER_IMAGE.replace("server.py", "main.py"), {}),  # the image runs another script
        (SERVER, SERVER_IMAGE.replace("WORKDIR /svc", "WORKDIR /app"), {}),  # not where svc/ goes
    ],
)
def test_local_runs_the_image_says_nothing_of(
    tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]
) -> None:
    assert bare(tmp_path, readme, dockerfile, files) == []


def test_a_numbered_step_of_a_readme_in_a_subfolder_runs_from_the_root(tmp_path: Path) -> None:
    """`docker/README.md` whose steps run `./docker/scripts/build.sh`: the path is the repository root's,
    as its command blocks' are, and the step is right; a step naming a script nowhere above is still
    told."""
    readme = "# Course images\n\n1. **Setup**: `./docker/scripts/build.sh cuda`\n2. **Start**: `{run}`\n"
    files = {
        "docker/Dockerfile": DOCKERFILE,
        "docker/scripts/build.sh": "#!/bin/sh\n",
        "docker/scripts/run.sh": "#!/bin/sh\n",
        "nodes/nodes/x.py": "",
    }
    for started, expected in (
        ("./docker/scripts/run.sh cuda", []),
        ("./scripts/run.sh cuda", []),
        ("./run.sh cuda", [moved(4, "run.sh", "scripts/run.sh")]),
    ):
        root = tmp_path / started.replace("/", "_").replace(" ", "_")
        make_tree(root, {**files, "docker/README.md": readme.format(run=started)})
        model = build_model(root / "docker/Dockerfile", "docker/Dockerfile")
        text = (root / "docker/README.md").read_text(encoding="utf-8")
        found = audit(text, "docker/README.md", [model], {}, root / "docker")
        out = [f"{d.line}: {d.message} ({d.confidence})" for d in found]
        assert [o for o in out if "README runs" in o] == expected, started


MOUNTED = (
    "Build:\n\n```sh\ndocker build -t app .\n```\n\nRun it:\n\n```sh\n{run}\n```\n\n"
    "Then:\n\n```sh\n{script}\n```\n"
)


@pytest.mark.parametrize(
    ("run", "script", "dockerfile", "expected"),
    [
        # a shell in a container whose WORKDIR the run mounts the script's folder onto
        ("docker run -it --rm -v $PWD/tools:/srv/app app bash", "./sync.sh", DOCKERFILE, []),
        ("docker run -it -v ./tools:/srv/app app bash", "bash sync.sh --all", DOCKERFILE, []),
        # a continued run with a bind mount onto its own `-w`, over an image with no WORKDIR
        (
            "docker run --rm -it \\\n  --mount type=bind,source=$(pwd)/nodes,target=/job \\\n"
            "  -w /job app bash",
            "python3 fetch_nodes.py",
            "FROM python:3.12-slim\n",
            [],
        ),
        # the mount lands beside the working folder, not on it: the script is not where the shell is
        (
            "docker run -it -v $PWD/tools:/srv/tools app bash",
            "./sync.sh",
            DOCKERFILE,
            [moved(16, "sync.sh", "tools/sync.sh")],
        ),
        # another folder is mounted there
        (
            "docker run -it -v $PWD/weights:/srv/app app bash",
            "./sync.sh",
            DOCKERFILE,
            [moved(16, "sync.sh", "tools/sync.sh")],
        ),
        # a detached run opens no shell the next block types in
        (
            "docker run -d -v $PWD/tools:/srv/app app",
            "./sync.sh",
            DOCKERFILE,
            [moved(16, "sync.sh", "tools/sync.sh")],
        ),
    ],
)
def test_a_script_in_the_folder_a_run_mounts_at_the_working_folder(
    tmp_path: Path, run: str, script: str, dockerfile: str, expected: list[str]
) -> None:
    """A block after `docker run -it -v $PWD/tools:/srv/app app bash` over `WORKDIR /srv/app` runs
    `./sync.sh` in the container, where tools/ is mounted: the script is there, no slip. Mounted
    elsewhere, another folder mounted, or a detached run: the run is the host's and is still told."""
    readme = MOUNTED.format(run=run, script=script)
    out = [o for o in found(tmp_path, readme, dockerfile) if "README runs" in o]
    shift = run.count("\n")
    assert out == [o.replace("16:", f"{16 + shift}:", 1) for o in expected]
