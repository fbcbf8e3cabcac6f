"""`docgen audit`: a list of the files of the README's folder naming one that is not there
(docgen/audit/file_lists.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
FILES = {
    "deploy/Dockerfile": APP,
    "deploy/Dockerfile.cuda": APP,
    "deploy/compose.prod.yaml": "services: {}\n",
    "deploy/entrypoint.sh": "#!/bin/sh\n",
    "compose.yaml": "services: {}\n",
}
LISTED = """\
- `compose.yaml` - the main compose file
- `compose.prod.yaml` - production overrides
- `Dockerfile` - the CPU image
- `Dockerfile.cuda` - the CUDA image
- `entrypoint.sh`: starts the server
"""
HERE = LISTED.replace("- `compose.yaml` - the main compose file\n", "")


def found(root: Path, readme: str, extra: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {**FILES, **(extra or {}), "deploy/README.md": readme})
    folder = root / "deploy"
    model = build_model(folder / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, folder, root)
        if "among the files" in d.message
    ]


def test_a_listed_file_of_this_folder_that_is_elsewhere(tmp_path: Path) -> None:
    readme = f"# Deploy\n\nThis directory holds what deploys the service.\n\n## Files\n\n{LISTED}"
    assert found(tmp_path, readme) == [
        (
            7,
            "README lists compose.yaml among the files of its folder, which does not exist there (there is "
            "one at ../compose.yaml)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("intro", "line", "confidence"),
    [
        ("## Project structure\n\n", 5, "likely"),
        ("## Layout\n\nWhat is in this folder:\n\n", 7, "certain"),
        ("## Overview\n\nThe files:\n\n", 7, "likely"),
    ],
)
def test_other_words_for_a_list_of_files(tmp_path: Path, intro: str, line: int, confidence: str) -> None:
    listed = LISTED.replace("`compose.yaml` - the main", "**compose.yml**: the main")
    assert [(n, c) for n, _, c in found(tmp_path, f"# Deploy\n\n{intro}{listed}")] == [(line, confidence)]


@pytest.mark.parametrize(
    "readme",
    [
        f"# Deploy\n\n## Files\n\n{HERE}",  # all there
        f"# Deploy\n\n## Usage\n\n{LISTED}",  # not said to be files of a folder
        f"# Deploy\n\n## Files\n\nThe build will generate:\n\n{LISTED}",  # files to come
        f"# Deploy\n\n```sh\ntouch compose.yaml\n```\n\n## Files\n\n{LISTED}",  # the README makes it
        "# Deploy\n\n## Files\n\n- `a.yaml` - one\n- `b.yaml` - two\n- `Dockerfile` - the image\n",  # few
        f"# Deploy\n\n## Files\n\n{HERE}- `server.log` - what the server writes\n- `.env` - settings\n",
        # written by a run, or by the reader
    ],
)
def test_lists_that_say_nothing_of_a_missing_file(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


def test_a_file_git_ignores_is_no_claim(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Files\n\n{LISTED}"
    assert found(tmp_path, readme, {"deploy/.gitignore": "compose.yaml\n"}) == []


TREE = """\
```
deploy/
├── Dockerfile
├── Dockerfile.cuda
├── compose.prod.yaml
├── scripts/
│   └── build.sh          # builds both images
├── logs/                 # written at run time
└── entrypoint.sh
```
"""


def test_a_tree_of_the_folder_naming_a_file_that_is_not_there(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Project structure\n\n{TREE}"
    assert found(tmp_path, readme, {"deploy/scripts/run.sh": "#!/bin/sh\n"}) == [
        (
            11,
            "README lists scripts/build.sh among the files of its folder, which does not exist there",
            "likely",
        )
    ]
    # nor a folder that is not there (git keeps no empty folder), nor the files under it
    assert found(tmp_path / "other", readme) == []


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        (f"# Deploy\n\n## Project structure\n\n{TREE}", {"deploy/scripts/build.sh": ""}),  # all there
        (f"# Deploy\n\n## Usage\n\n{TREE}", {"deploy/scripts/run.sh": ""}),  # not about files
        (
            f"# Deploy\n\n## Layout\n\nAfter the build the folder will look like:\n\n{TREE}",
            {"deploy/scripts/run.sh": ""},
        ),  # files to come
    ],
)
def test_trees_that_say_nothing_of_a_missing_file(tmp_path: Path, readme: str, extra: dict[str, str]) -> None:
    assert found(tmp_path, readme, extra) == []


CHAIN_TREE = """\
```
deploy/
├── Dockerfile
├── Dockerfile.cuda
├── Makefile
├── compose.prod.yaml
├── entrypoint.sh
├── requirements.txt
├── .dockerignore
├── k8s-*.yaml              # Kubernetes manifests
├── config_<SITE>.sh        # one per site, kept outside the repository
└── src/webapp/
    ├── app.py
    ├── settings.py
    └── templates/index.html
```
"""
CHAIN_FILES = {
    "deploy/Makefile": "all:\n",
    "deploy/requirements.txt": "flask\n",
    "deploy/.dockerignore": ".git\n",
    "deploy/k8s-service.yaml": "kind: Service\n",
    "deploy/src/webapp/app.py": "",
    "deploy/src/webapp/settings.py": "",
    "deploy/src/webapp/templates/index.html": "",
}


def test_a_tree_with_a_folder_chain_a_pattern_and_a_filled_in_name(tmp_path: Path) -> None:
    # a branch naming two folders at once (`src/webapp/`) holds the files under both; a pattern
    # (`k8s-*.yaml`) is there when a file matches it; `config_<SITE>.sh` is a name to fill in
    readme = f"# Deploy\n\n## Project structure\n\n{CHAIN_TREE}"
    assert found(tmp_path, readme, CHAIN_FILES) == []


def test_a_tree_whose_pattern_or_chained_file_is_gone(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Project structure\n\n{CHAIN_TREE}"
    gone = ("deploy/k8s-service.yaml", "deploy/src/webapp/settings.py")
    extra = {k: v for k, v in CHAIN_FILES.items() if k not in gone}
    suffix = "among the files of its folder, which does not exist there"
    assert found(tmp_path, readme, extra) == [
        (14, f"README lists k8s-*.yaml {suffix}", "likely"),
        (18, f"README lists src/webapp/settings.py {suffix}", "likely"),
    ]


ROOTS_FILES = {
    "images/gpu/cu124/Dockerfile": APP,
    "images/gpu/cu124-slim/Dockerfile": APP,
    "images/npu/cann81/Dockerfile": APP,
    "images/npu/cann81-slim/Dockerfile": APP,
    "images/tools/smoke.sh": "#!/bin/sh\n",
}
ROOTS_TREE = """\
```
gpu
|-- cu124
|-- cu124-slim

npu
|-- cann80
`-- cann80-slim

tools
```
"""


def found_in(root: Path, folder: str, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    """The tree and list findings of `readme`, written at `folder`/README.md in a repository of `files`."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    make_tree(root, {**files, f"{folder}/README.md" if folder else "README.md": readme})
    here = root / folder if folder else root
    dockerfile = next(root / p for p in files if p.endswith("Dockerfile"))
    model = build_model(dockerfile, "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, here, root)
        if "among the files" in d.message
    ]


def test_a_tree_of_several_top_folders_drawn_in_ascii(tmp_path: Path) -> None:
    # each top folder on a line of its own, its subfolders under it with `|--` and `` `-- ``: the
    # folders of the second were renamed (`cann80` → `cann81`)
    readme = f"# Images\n\n## Structure\n\nOne folder per accelerator stack:\n\n{ROOTS_TREE}"
    suffix = "among the files of its folder, which does not exist there"
    assert found_in(tmp_path, "images", readme, ROOTS_FILES) == [
        (13, f"README lists npu/cann80 {suffix} (npu/ holds cann81)", "likely"),
        (14, f"README lists npu/cann80-slim {suffix} (npu/ holds cann81-slim)", "likely"),
    ]


def test_a_tree_of_several_top_folders_that_all_exist(tmp_path: Path) -> None:
    readme = f"# Images\n\n## Structure\n\n{ROOTS_TREE.replace('cann80', 'cann81')}"
    assert found_in(tmp_path, "images", readme, ROOTS_FILES) == []


@pytest.mark.parametrize(
    "tree",
    [
        # the image's file system: the same names, read from no folder of the repository
        "```\n/app\n├── Dockerfile\n├── compose.yaml\n├── entrypoint.sh\n└── weights.bin\n```\n",
        "```\n${APP_HOME}\n|-- Dockerfile\n|-- compose.yaml\n|-- entrypoint.sh\n`-- weights.bin\n```\n",
        # a tree of this folder, then one of another repository (its top name a second top line)
        "```\n.\n|-- Dockerfile\n|-- README.md\n|-- compose.yaml\n`-- entrypoint.sh\n\n"
        "upstream\n|-- setup.py\n`-- src\n```\n",
        # a top folder the run makes, drawn after ones of the repository
        "```\ngpu\n|-- cu124\n`-- cu124-slim\n\nmodels\n|-- llama-7b\n`-- qwen-7b\n```\n",
        # elided: `...` as a top line and as a branch
        "```\ngpu\n|-- cu124\n|-- ...\n\n...\n\ntools\n```\n",
    ],
)
def test_trees_of_other_things_say_nothing(tmp_path: Path, tree: str) -> None:
    files = {
        **ROOTS_FILES,
        "Dockerfile": APP,
        "compose.yaml": "services: {}\n",
        "entrypoint.sh": "#!/bin/sh\n",
        "gpu/cu124/Dockerfile": APP,
        "gpu/cu124-slim/Dockerfile": APP,
    }
    readme = f"# App\n\n## Project structure\n\n{tree}"
    assert found_in(tmp_path, "", readme, files) == []


def test_a_layout_to_create_says_nothing(tmp_path: Path) -> None:
    readme = f"# Images\n\n## Structure\n\nCreate the following folders:\n\n{ROOTS_TREE}"
    assert found_in(tmp_path, "images", readme, ROOTS_FILES) == []


def test_a_tree_printed_by_the_tree_command(tmp_path: Path) -> None:
    tree = "```\n$ tree\n.\n├── Dockerfile\n├── compose.yaml\n├── entrypoint.sh\n└── healthcheck.sh\n```\n"
    readme = f"# App\n\n## Files\n\n{tree}"
    files = {"app/Dockerfile": APP, "app/compose.yaml": "", "app/entrypoint.sh": "", "other.txt": ""}
    assert found_in(tmp_path, "app", readme, files) == [
        (
            11,
            "README lists healthcheck.sh among the files of its folder, which does not exist there",
            "likely",
        )
    ]


# a listed file the Dockerfile beside the README copies, missing from a git checkout (file_lists._copied_here)

SERVER = """\
FROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
WORKDIR /srv
COPY deps.txt ./deps.txt
RUN pip install -r deps.txt
COPY launch.sh ./launch.sh
ENTRYPOINT ["./launch.sh"]
"""
"""An inference server's Dockerfile (the shape of a vLLM wrapper's): it copies its pip list and script."""
SERVER_LIST = """\
# Inference server image

## Files in This Repository

- **Dockerfile**: the container environment and the server.
- **launch.sh**: starts the server with tuned flags.
- **deps.txt**: {what}
"""
EMBEDDER = """\
FROM python:3.11-slim
COPY ./pins.txt /tmp/pip-tmp/
RUN pip install -r /tmp/pip-tmp/pins.txt
COPY app/ /app/
CMD ["python", "/app/serve.py"]
"""
"""An embedding microservice's Dockerfile (the shape of a Flask one's): a pip list at the top, a folder."""
EMBEDDER_LIST = """\
# Embedding service

## Project structure

- `app/` - the Flask application
- `pins.txt` - pinned Python packages
"""


def listed(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "among the files" in d.message
    ]


def test_a_listed_file_the_dockerfile_copies_is_missing_from_the_checkout(tmp_path: Path) -> None:
    files = {"Dockerfile": SERVER, "launch.sh": "#!/bin/sh\n", ".git/HEAD": ""}
    readme = SERVER_LIST.format(what="the Python packages of the container.")
    assert listed(tmp_path / "a", readme, files) == [
        (
            7,
            "README lists deps.txt among the files of its folder, which does not exist there, but Dockerfile "
            "copies it (line 3): its build stops at that COPY",
            "certain",
        )
    ]
    files = {"Dockerfile": EMBEDDER, "app/serve.py": "", ".git/HEAD": ""}
    assert listed(tmp_path / "b", EMBEDDER_LIST, files) == [
        (
            6,
            "README lists pins.txt among the files of its folder, which does not exist there, but Dockerfile "
            "copies it (line 2): its build stops at that COPY",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("what", "extra"),
    [
        # the file is there, the copy is no checkout and lacks another copied file (some of its files),
        # git ignores it
        ("the Python packages.", {"deps.txt": "vllm\n"}),
        ("the Python packages.", {".git/HEAD": None, "launch.sh": None}),
        ("the Python packages.", {".gitignore": "deps.txt\n"}),
        # the item says the reader brings it
        ("create it with `pip freeze > deps.txt`.", {}),
        ("your own pins (not committed).", {}),
        ("download it from the release page.", {}),
    ],
)
def test_a_listed_copied_file_the_reader_brings_or_that_is_there_is_silent(
    tmp_path: Path, what: str, extra: dict[str, str | None]
) -> None:
    files: dict[str, str] = {"Dockerfile": SERVER, "launch.sh": "#!/bin/sh\n", ".git/HEAD": ""}
    files.update({k: v for k, v in extra.items() if v is not None})
    for name in [k for k, v in extra.items() if v is None]:
        files.pop(name)
    assert listed(tmp_path, SERVER_LIST.format(what=what), files) == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        SERVER.replace("COPY deps.txt", "COPY --from=builder /out/deps.txt"),  # another stage's file
        SERVER.replace("COPY deps.txt ./deps.txt", "COPY dep*.txt ./"),  # a glob may match none on purpose
        SERVER.replace("COPY deps.txt ./deps.txt\n", ""),  # the Dockerfile copies it not
    ],
)
def test_a_listed_file_no_plain_copy_reads_is_left_to_the_list_rule(tmp_path: Path, dockerfile: str) -> None:
    files = {"Dockerfile": dockerfile, "launch.sh": "#!/bin/sh\n", ".git/HEAD": ""}
    readme = SERVER_LIST.format(what="the Python packages of the container.")
    assert listed(tmp_path, readme, files) == []


def test_a_copied_file_of_a_dockerfile_in_another_folder_is_not_this_lists(tmp_path: Path) -> None:
    files = {"docker/Dockerfile": SERVER, "launch.sh": "#!/bin/sh\n", ".git/HEAD": ""}
    readme = SERVER_LIST.format(what="the Python packages of the container.")
    make_tree(tmp_path, {"README.md": readme, **files})
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    found = [d for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path) if "among" in d.message]
    assert found == []


# A benchmark README's layout, drawn with indentation alone, one package a line with what it holds.
LAYOUT = """\
# Edge bench

## What's in this drop

```
src/edgebench/
  core/        # domain types, errors
  runtimes/    # ONNX and TensorRT adapters
  models/      # registry of detectors
  api/         # FastAPI surface
  reports/     # markdown + html generators
```
"""
PACKAGES = {
    "src/edgebench/core/__init__.py": "",
    "src/edgebench/runtimes/__init__.py": "",
    "src/edgebench/models/__init__.py": "",
    "src/edgebench/api/__init__.py": "",
    "Dockerfile": APP,
}


def packages(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README's tree lists" in d.message
    ]


def test_a_package_the_indented_layout_lists_that_is_not_there(tmp_path: Path) -> None:
    assert packages(tmp_path, LAYOUT, PACKAGES) == [
        (
            11,
            "README's tree lists src/edgebench/reports/ (markdown + html generators), a folder that does not "
            "exist, while core/, runtimes/, models/, api/ beside it do",
            "likely",
        )
    ]


def test_a_package_a_drawn_tree_lists_that_is_not_there(tmp_path: Path) -> None:
    # the same layout drawn by `tree`, under a heading that says it is the project's structure
    drawn = (
        "## Project structure\n\n```\nsrc/edgebench/\n├── core/        # domain types\n"
        "├── runtimes/    # adapters\n"
        "├── models/      # registry\n├── api/         # FastAPI\n└── reports/     # html generators\n```\n"
    )
    assert [line for line, _, _ in packages(tmp_path, drawn, PACKAGES)] == [9]


@pytest.mark.parametrize(
    "readme",
    [
        LAYOUT.replace("# markdown + html generators", "# generated reports land here"),  # output
        LAYOUT.replace("# markdown + html generators", "# model weights (download them)"),  # data
        LAYOUT.replace("  reports/     # markdown + html generators\n", "  reports/\n"),  # no comment
        LAYOUT.replace("reports/     # markdown", "data/     # markdown"),  # a data folder's name
        LAYOUT + "\n```bash\nmkdir -p src/edgebench/reports\n```\n",  # the README makes it
        # the layout of what the reader will create
        LAYOUT.replace("## What's in this drop\n", "## What's in this drop\n\nYou will create:\n"),
        # a shell block: commands, not a tree
        "```bash\nsrc/edgebench/\n  core/\n  run.sh --fast\n  api/\n```\n",
    ],
)
def test_folders_a_layout_lists_that_may_be_missing(tmp_path: Path, readme: str) -> None:
    assert packages(tmp_path, readme, PACKAGES) == []


def test_a_layout_whose_packages_are_mostly_missing_is_of_another_tree(tmp_path: Path) -> None:
    files = {k: v for k, v in PACKAGES.items() if "core" in k or k == "Dockerfile"}
    assert packages(tmp_path, LAYOUT, files) == []


# A table of the folder's files (`| File | Contents |` under `## Directory contents`) naming one that is
# not there. Modelled on an HPC container folder's README (recipes, Dockerfiles and a launcher script)
# and on a service's deploy folder (`| Path | What |`).
TABLE = """\
# Deploy

## Directory contents

| File | Contents |
| --- | --- |
| entrypoint.sh | starts the server |
| compose.prod.yaml | production overrides |
| `Dockerfile` | the CPU image |
| **Dockerfile.rocm** | the ROCm image |
| Dockerfile.cuda | the CUDA image |
| README.md | this document |
"""


def test_a_table_of_the_folders_files_naming_one_that_is_not_there(tmp_path: Path) -> None:
    assert found(tmp_path / "a", TABLE) == [
        (
            10,
            "README lists Dockerfile.rocm among the files of its folder, which does not exist there",
            "likely",
        )
    ]
    paths = TABLE.replace("| File | Contents |", "| Path | What |").replace(
        "## Directory contents", "## Layout"
    )
    said = found(tmp_path / "b", paths.replace("# Deploy\n", "# Deploy\n\nThis folder deploys it.\n"))
    assert [(line, confidence) for line, _, confidence in said] == [(12, "certain")]


@pytest.mark.parametrize(
    "readme",
    [
        TABLE.replace("| **Dockerfile.rocm** | the ROCm image |\n", ""),  # every file is there
        TABLE.replace("## Directory contents", "## Files to create"),  # files to come
        TABLE.replace("## Directory contents", "## Images"),  # a table of images, not of files
        TABLE.replace("| File | Contents |", "| Image | Contents |"),
        # most of the files it names are missing: a table of another folder
        "## Files\n\n| File | Use |\n| --- | --- |\n| a.py | x |\n| b.py | y |\n| Dockerfile | z |\n",
    ],
)
def test_tables_that_say_nothing_of_a_missing_file(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


def test_a_layout_of_many_packages_scans_each_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file_lists = importlib.import_module("docgen.audit.file_lists")
    scanned: list[Path] = []
    scan = file_lists.holds_files

    def counted(folder: Path) -> bool:
        scanned.append(folder)
        return bool(scan(folder))

    monkeypatch.setattr(file_lists, "holds_files", counted)
    there = [f"  pkg{i}/    # the pkg{i} adapters" for i in range(200)]
    gone = [f"  old{i}/    # the old{i} adapters" for i in range(60)]
    layout = LAYOUT.split("```\n")[0] + "```\nsrc/edgebench/\n" + "\n".join(there + gone) + "\n```\n"
    files = {f"src/edgebench/pkg{i}/__init__.py": "" for i in range(200)} | {"Dockerfile": APP}
    assert len(packages(tmp_path, layout, files)) == 60  # each missing package told
    assert len(scanned) <= 260  # each listed folder once, not once for each missing one


# A table of folders (`| Directory | Contents |`), as an HPC recipe folder and an image family write
# them: a row naming a sub-folder never added while its parent and a sibling row's folder are there.
FLAVOURS = """\
# Images

Each folder builds one flavour.

| Folder | Purpose |
| --- | --- |
| `images/cuda121` | CUDA 12.1 image |
| `images/cuda124` | CUDA 12.4 image |
| `images/rocm57` | ROCm 5.7 image |
| `images/rocm62` | ROCm 6.2 image, coming soon |
| images/oneapi/ | Intel flavour, nothing so far |
| `tools/lint` | Lint helpers |
| `deploy/k8s` | Manifests |
| `/opt/conda` | The image's conda |
"""
FLAVOUR_FILES = {
    "images/cuda121/Dockerfile": "FROM ubuntu:22.04\n",
    "images/rocm57/Dockerfile": "FROM ubuntu:22.04\n",
    "tools/check.sh": "#!/bin/sh\n",
    "Dockerfile": "FROM python:3.12-slim\n",
}


def folders(
    root: Path, readme: str, files: dict[str, str], models: bool = True
) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    images = [build_model(root / "Dockerfile", "Dockerfile")] if models else []
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", images, {}, root, root)
        if "table lists the folder" in d.message
    ]


def test_a_table_of_folders_naming_a_sub_folder_that_is_not_there(tmp_path: Path) -> None:
    # not the row of a folder to come, nor one whose parent (`deploy/`) or sibling rows (`tools/`) are
    # not there, nor a path in the image
    assert folders(tmp_path, FLAVOURS, FLAVOUR_FILES) == [
        (
            8,
            "README's table lists the folder images/cuda124, which does not exist: images/ holds cuda121, "
            "rocm57, not cuda124",
            "certain",
        )
    ]
    # the same with no Dockerfile audited, the table under an Apptainer title
    apptainer = FLAVOURS.replace("# Images", "# Apptainer definition files")
    files = {k: v for k, v in FLAVOUR_FILES.items() if k != "Dockerfile"}
    assert [f[0] for f in folders(tmp_path / "b", apptainer, files, models=False)] == [8]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        (FLAVOURS, {**FLAVOUR_FILES, "images/cuda124/Dockerfile": "FROM ubuntu:22.04\n"}),
        # a table of folders to come, or of other things than folders
        (
            FLAVOURS.replace("Each folder builds one flavour.", "The build will create these folders."),
            FLAVOUR_FILES,
        ),
        (FLAVOURS.replace("| Folder | Purpose |", "| Image | Purpose |"), FLAVOUR_FILES),
        # git ignores it, or a command of the README makes it
        (FLAVOURS, {**FLAVOUR_FILES, ".gitignore": "images/cuda124/\n"}),
        (FLAVOURS + "\n```bash\nmkdir -p images/cuda124\n```\n", FLAVOUR_FILES),
    ],
)
def test_tables_of_folders_that_say_nothing(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert folders(tmp_path, readme, files) == []


# A folder table whose rows say what kind of files each folder holds, as an Apptainer recipe folder
# writes it: one folder said to hold scripts holds only a definition file.
SCRIPT_ROWS = """\
# Containers

| Directory | Contents |
| --- | --- |
| `recipes` | Scripts to build the cpu and gpu images |
| `tools` | Helper scripts |
| `ci` | Scripts for CI |
| `docs` | Scripts documentation |
| `hpc` | Scripts for the cluster, planned |
| `missing` | Scripts to deploy |
| `defs` | Definition files |
"""
SCRIPT_FILES = {
    "recipes/jammy/solver.def": "Bootstrap: docker\n",
    "recipes/jammy/notes.txt": "notes\n",
    "tools/check.py": "print()\n",
    "ci/run": "#!/bin/sh\n",
    "docs/index.md": "# Docs\n",
    "hpc/notes.txt": "x\n",
    "defs/a.def": "Bootstrap: docker\n",
}


def scriptless(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    (root / "ci/run").chmod(0o755)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [], {}, root, root)
        if "holds no script" in d.message
    ]


def test_a_folder_a_table_says_holds_scripts_that_holds_none(tmp_path: Path) -> None:
    # not a folder holding a .py or an executable, one whose row speaks of scripts' docs or says they are
    # planned, one that is not there, a row saying nothing of scripts
    assert scriptless(tmp_path, SCRIPT_ROWS, SCRIPT_FILES) == [
        (
            5,
            "README's table says recipes holds scripts (Scripts to build the cpu and gpu images), but "
            "recipes/ holds no script: only jammy/notes.txt, jammy/solver.def",
            "likely",
        )
    ]
    # the scripts added (in a folder below it): silent
    files = {**SCRIPT_FILES, "recipes/jammy/build_gpu.sh": "#!/bin/sh\n"}
    assert scriptless(tmp_path / "b", SCRIPT_ROWS, files) == []
    # a table of files to come
    to_come = SCRIPT_ROWS.replace("# Containers", "# Containers\n\nThe setup will create these folders.")
    assert scriptless(tmp_path / "c", to_come, SCRIPT_FILES) == []
