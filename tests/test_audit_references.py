"""References to Dockerfiles (`docgen/audit/references.py`): a `-f` naming a file the reader writes is
no reference to a missing one; a build with no `-f` next to one that passes it builds the default on
purpose."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, findings, gone, make_tree

from docgen.audit import audit
from docgen.audit.references import MadeFiles
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import build_model, model_of

DOCKERFILE = {"Dockerfile": "FROM python:3.12-slim\nRUN pip install acme\n"}


def _readme(heading: str, intro: str, command: str) -> str:
    return (
        f"# Acme runner\n\n## {heading}\n\n{intro}\n\n"
        "```dockerfile\nFROM acme/runner:py3.12\nRUN pip install x\n```\n\n"
        f"Then build it:\n\n```bash\n{command}\n```\n"
    )


@pytest.mark.parametrize(
    "command",
    [
        "docker build -t your-registry/your-image:tag -f your.Dockerfile .",
        "docker build -t app -f my.Dockerfile .",
        "docker build -t app -f docker/my-app.Dockerfile .",
        "docker build -t app -f path/to/Dockerfile .",
    ],
)
def test_a_file_named_by_placeholder_words_is_the_readers_own(tmp_path: Path, command: str) -> None:
    make_tree(tmp_path, DOCKERFILE)
    assert findings(_readme("Images", "Use the images as they are.", command), DOCKERFILE, tmp_path) == []


def test_a_custom_file_under_words_about_the_readers_own_image(tmp_path: Path) -> None:
    make_tree(tmp_path, DOCKERFILE)
    command = "docker build -t app -f custom.Dockerfile ."
    readme = _readme("Build your own image", "Add your own packages on top:", command)
    assert findings(readme, DOCKERFILE, tmp_path) == []
    # the nearest drift: the same name in the project's own build instructions is a file that is gone
    readme = _readme("Building the images", "The project builds two images:", command)
    assert findings(readme, DOCKERFILE, tmp_path) == [f"15: {gone('custom.Dockerfile', 'Dockerfile')}"]


def test_a_project_file_that_is_gone_is_still_reported(tmp_path: Path) -> None:
    make_tree(tmp_path, DOCKERFILE)
    readme = _readme("Images", "Use the images as they are.", "docker build -t app -f gpu.Dockerfile .")
    assert findings(readme, DOCKERFILE, tmp_path) == [f"15: {gone('gpu.Dockerfile', 'Dockerfile')}"]


DEV = {
    "Dockerfile": "FROM debian:12\nRUN true\n",
    "Dockerfile.dev": "FROM debian:12\nRUN apt-get install -y gdb\n",
}


def _dev_section(block: str) -> str:
    return f"# Tool\n\n## Manual build\n\n```bash\n{block}```\n"


def _no_flag(line: int) -> str:
    return (
        f"{line}: README builds with no -f, which builds the Dockerfile next to it, not Dockerfile.dev that "
        "this section is about"
    )


def test_a_build_with_no_file_flag_next_to_one_that_passes_it(tmp_path: Path) -> None:
    make_tree(tmp_path, DEV)
    dev = {"Dockerfile.dev": DEV["Dockerfile.dev"]}
    mixed = "docker build -t tool:1.0 .\ndocker build -f Dockerfile.dev -t tool:1.0-dev .\n"
    assert findings(_dev_section(mixed), dev, tmp_path) == []
    commented = "# Production image\ndocker build -t tool:1.0 .\n"
    assert findings(_dev_section(commented), dev, tmp_path) == []
    # the nearest drift: a build tagged as the section's variant forgot its -f
    forgot = "docker build -f Dockerfile.dev -t tool:1.0-dev .\ndocker build -t tool:arm64-dev .\n"
    assert findings(_dev_section(forgot), dev, tmp_path) == [_no_flag(7)]
    # a block whose only build passes no -f, in a section whose other block passes -f, builds the
    # plain Dockerfile on purpose all the same: the writer passes -f where it is meant
    alone = "docker build -t tool:1.0 .\n```\n\n```bash\ndocker build -f Dockerfile.dev -t tool:dev .\n"
    assert findings(_dev_section(alone), dev, tmp_path) == []
    three = alone.replace(
        "```\n\n```bash\n", "```\n\n```bash\ndocker build -t tool:1.0-slim .\n```\n\n```bash\n"
    )
    assert findings(_dev_section(three), dev, tmp_path) == []
    # the nearest drift: the lone build of its block is tagged as the section's variant
    tagged = (
        "docker build -t tool:arm64-dev .\n```\n\n```bash\ndocker build -f Dockerfile.dev -t tool:dev .\n"
    )
    assert findings(_dev_section(tagged), dev, tmp_path) == [_no_flag(6)]


STAGED = {
    "Dockerfile": "FROM example/tf:10.2-build\nRUN pip install /tmp/tf.whl\n",
    "Dockerfile.build": "FROM nvidia/cuda:10.2-devel-ubuntu18.04\nRUN make\n",
}


def test_a_build_heading_is_no_section_about_a_dockerfile_named_build(tmp_path: Path) -> None:
    # `## Build` is the verb: the section's `docker build .` builds the plain Dockerfile on purpose
    make_tree(tmp_path, STAGED)
    readme = "# TF image\n\n## Build\n\n```bash\ndocker build -t example/tf:10.2 .\n```\n"
    assert findings(readme, STAGED, tmp_path) == []
    # the nearest drift: a heading naming the file itself ties the section to it
    named = readme.replace("## Build", "## Dockerfile.build")
    assert findings(named, STAGED, tmp_path) == [
        "6: README builds with no -f, which builds the Dockerfile next to it, not Dockerfile.build that "
        "this section is about"
    ]


SUBMODULE = '[submodule "llama"]\n\tpath = third_party/llama.cpp\n\turl = https://example.com/llama.cpp.git\n'


def test_a_dockerfile_of_a_git_submodule_is_not_a_dead_reference(tmp_path: Path) -> None:
    # third_party/llama.cpp is a submodule: a checkout without --recurse-submodules leaves it empty
    make_tree(tmp_path, DOCKERFILE | {".gitmodules": SUBMODULE, "third_party/llama.cpp/.keep": ""})
    command = "docker build -t server -f third_party/llama.cpp/.devops/cuda.Dockerfile third_party/llama.cpp"
    readme = _readme("Server", "The server image builds from the submodule:", command)
    assert findings(readme, DOCKERFILE, tmp_path) == []
    # the nearest drift: the same file in a folder of the project itself is gone
    command = "docker build -t server -f third_party/llama/.devops/cuda.Dockerfile third_party/llama"
    readme = _readme("Server", "The server image builds from the submodule:", command)
    assert findings(readme, DOCKERFILE, tmp_path) == [
        f"15: {gone('third_party/llama/.devops/cuda.Dockerfile', 'Dockerfile')}"
    ]


ROOT_SETUP = """\
# Stream images

{definition}

### Build setup on the host machine

```
cd {target}
./prepare_host.sh
```
"""


@pytest.mark.parametrize(
    ("definition", "target", "expected"),
    [
        # the README says where its commands run: the script is not there (in a section about the host)
        ("$ROOT is the root directory of this git repo.", "$ROOT/", ["9: README runs ./prepare_host.sh"]),
        ("", "$REPO_ROOT", ["9: README runs ./prepare_host.sh"]),
        # the script that is there
        ("$ROOT is the root directory of this git repo.", "$ROOT/tools", []),
        # a bare $ROOT the README does not define may be any folder
        ("", "$ROOT/", []),
    ],
)
def test_a_script_run_after_a_cd_into_the_repository_root(
    tmp_path: Path, definition: str, target: str, expected: list[str]
) -> None:
    # (two copies below the root: which one is meant is not known, `moved_scripts` says nothing)
    scripts = {"tools/prepare_host.sh": "#!/bin/sh\n", "old/prepare_host.sh": "#!/bin/sh\n"}
    make_tree(tmp_path, {**DOCKERFILE, **scripts, "stream.sh": "#!/bin/sh\n"})
    readme = ROOT_SETUP.format(definition=definition, target=target)
    said = [f.split(", which")[0] for f in findings(readme, DOCKERFILE, tmp_path) if "README runs" in f]
    assert said == expected


EFA = {"docker/Dockerfile.base.efa": "FROM ubuntu:22.04\nRUN apt-get install -y libfabric\n"}


def _named(tmp_path: Path, prose: str, heading: str = "Images") -> list[tuple[int, str, str]]:
    """`audit` of docker/README.md (prose under `heading`) in a repository (a `.git` at `tmp_path`)
    whose only Dockerfile is docker/Dockerfile.base.efa: (line, message, confidence) of each finding."""
    make_tree(tmp_path, {**EFA, ".git/HEAD": "ref: refs/heads/main\n", "ci/Dockerfile.cuda": "FROM x\n"})
    readme = f"# Images\n\n## {heading}\n\n{prose}\n"
    (tmp_path / "docker/README.md").write_text(readme)
    model = model_of(parse_dockerfile(EFA["docker/Dockerfile.base.efa"], "docker/Dockerfile.base.efa"))
    found = audit(readme, "docker/README.md", [model], {}, tmp_path / "docker", tmp_path)
    return [(d.line, d.message, d.confidence) for d in found]


def test_a_dockerfile_path_in_prose_that_is_gone(tmp_path: Path) -> None:
    prose = "On hosts with EFA, install the driver as shown in ``docker/Dockerfile.extension.efa``."
    assert _named(tmp_path, prose) == [
        (
            5,
            "README names docker/Dockerfile.extension.efa, which does not exist (the Dockerfile is gone or "
            "moved; did you mean docker/Dockerfile.base.efa?)",
            "certain",
        )
    ]
    # a bare name nothing in the repository has: said, less surely (it may be read from anywhere)
    assert _named(tmp_path, "The `Dockerfile.rocm` builds the ROCm image.") == [
        (5, "README names Dockerfile.rocm, which does not exist (the Dockerfile is gone or moved)", "likely")
    ]


def test_a_dockerfile_the_readme_names_as_itself_is_no_hint_for_one_that_is_gone(tmp_path: Path) -> None:
    # `Dockerfile_ROSnoetic` gone, `Dockerfile_ROS2` named on the next line: not the one meant
    prose = (
        "The ``docker/Dockerfile.extension.efa`` installs the driver.\n"
        "The ``docker/Dockerfile.base.efa`` builds the base."
    )
    assert _named(tmp_path, prose) == [
        (
            5,
            "README names docker/Dockerfile.extension.efa, which does not exist (the Dockerfile is gone or "
            "moved)",
            "certain",
        )
    ]


def test_a_link_from_the_repository_root_to_a_dockerfile_that_is_gone(tmp_path: Path) -> None:
    # a leading `/` is the repository's root, as a forge reads a link: one to a folder that was renamed
    said = [
        f
        for f in _named(tmp_path, "Download the [Dockerfile](/efa-docker/Dockerfile.base.efa).")
        if f[0] == 5
    ]
    assert [(line, message.split(" (")[0]) for line, message, _ in said] == [
        (5, "README links to /efa-docker/Dockerfile.base.efa, which does not exist")
    ]
    # one that is there, read from the root, is no finding
    assert [f for f in _named(tmp_path, "See the [CUDA one](/ci/Dockerfile.cuda).") if f[0] == 5] == []


@pytest.mark.parametrize(
    "prose",
    [
        "Install the driver as shown in `docker/Dockerfile.base.efa`.",  # there, from the root
        "Install the driver as shown in `Dockerfile.base.efa`.",  # there, next to the README
        "The CUDA image is built from `Dockerfile.cuda`.",  # there, in another folder
        "Using the following short `Dockerfile` you can extend the image.",  # any Dockerfile
        "vLLM is built exactly as upstream's `Dockerfile.310p` does.",  # another project's
        "vLLM's `docker/Dockerfile.rocm` pins the same ROCm.",
        "Create a `docker/Dockerfile.dev` with your tools.",  # one the reader makes
        "Pass `--dockerfile` to choose one.",  # an option
        "Build your own image from `docker/Dockerfile.custom`.",  # the reader's own
    ],
)
def test_a_dockerfile_named_in_prose_that_is_there_or_not_the_projects(tmp_path: Path, prose: str) -> None:
    assert _named(tmp_path, prose) == []


def test_a_dockerfile_named_after_a_link_to_another_repository_is_that_ones(tmp_path: Path) -> None:
    # the sentence links to another repository's front page, then names its files: not this project's
    linked = (
        "Modelled on [acme/kernels](https://github.com/acme/kernels)\n"
        "(`.devcontainer/Dockerfile`, `docker/Dockerfile.kernels_ci`)."
    )
    assert _named(tmp_path, linked) == []
    # traps: a link in an earlier sentence, or a link to a file, leaves the name this project's
    earlier = "See [acme/kernels](https://github.com/acme/kernels). Use `docker/Dockerfile.kernels_ci`."
    to_a_file = "As [here](https://github.com/acme/kernels/blob/x.md), use `docker/Dockerfile.kernels_ci`."
    for prose in (earlier, to_a_file):
        assert [message.split(",")[0] for _, message, _ in _named(tmp_path, prose)] == [
            "README names docker/Dockerfile.kernels_ci"
        ]


def test_a_dockerfile_named_by_a_word_standing_for_a_name_is_no_file(tmp_path: Path) -> None:
    # `image_name` stands for whichever image the reader builds (`./docker/build.sh image_name`)
    prose = (
        "Here image_name is the suffix of the ```Dockerfile.image_name``` it builds, "
        "and `TARGET_NAME.Dockerfile` too."
    )
    assert _named(tmp_path, prose) == []
    # traps: a real suffix holding `name` in another way is still a file that is gone
    named = "Install the driver as shown in `docker/Dockerfile.hostname` and `Dockerfile.name`."
    assert [message.split(",")[0] for _, message, _ in _named(tmp_path, named)] == [
        "README names docker/Dockerfile.hostname",
        "README names Dockerfile.name",
    ]


def test_a_word_ending_in_s_before_the_name_is_no_possessive(tmp_path: Path) -> None:
    # `as`, `is`, `was` before the code are no other project's: the path is the project's, and gone
    prose = "The driver goes in as `docker/Dockerfile.extension.efa` shows."
    assert [line for line, _, _ in _named(tmp_path, prose)] == [5]
    theirs = "The driver goes in as vLLM\u2019s `docker/Dockerfile.extension.efa` shows."
    assert _named(tmp_path, theirs) == []


def test_a_gone_dockerfile_under_an_older_images_heading_is_history(tmp_path: Path) -> None:
    prose = "The 2023 image was built from `docker/Dockerfile.rocm5`."
    assert _named(tmp_path, prose, heading="Older images") == []
    assert [line for line, _, _ in _named(tmp_path, prose)] == [5]


def test_a_dockerfile_named_in_plain_words_that_is_gone(tmp_path: Path) -> None:
    # a feature list names the GPU image's Dockerfile in parentheses, in no code: the repository has none
    item = "- **GPU support** via ROCm (Dockerfile.gpu)\n- **Tests** with `pytest`"
    assert _named(tmp_path, item) == [
        (5, "README names Dockerfile.gpu, which does not exist (the Dockerfile is gone or moved)", "likely")
    ]
    # in a sentence and a heading alike (a name in a path in plain words is not read: code holds paths)
    sentence = "The image is built from Dockerfile.cuda12 on the runners, not docker/Dockerfile.x."
    assert _named(tmp_path, sentence) == [
        (
            5,
            "README names Dockerfile.cuda12, which does not exist (the Dockerfile is gone or moved)",
            "likely",
        )
    ]
    assert [line for line, _, _ in _named(tmp_path, "Text.", heading="Building arm.Dockerfile")] == [3]


@pytest.mark.parametrize(
    "prose",
    [
        "The EFA image is built from Dockerfile.base.efa.",  # there, next to the README
        "The CUDA image is built from Dockerfile.cuda.",  # there, in another folder
        "A Dockerfile-based build, Dockerfile-first.",  # English compounds, no file
        "vLLM's Dockerfile.rocm pins the same ROCm.",  # another project's
        "The build follows the upstream Dockerfile.rocm closely.",
        "Create a Dockerfile.dev with your own tools.",  # one the reader makes
        "Dockerfile.rocm5 was removed in 2.0.",  # gone on purpose
        "As in [their Dockerfile.rocm](https://github.com/acme/x/blob/main/Dockerfile.rocm).",  # a link
        "Name it your.Dockerfile and build it.",  # the reader's own
    ],
)
def test_a_dockerfile_in_plain_words_that_is_there_or_not_the_projects(tmp_path: Path, prose: str) -> None:
    assert _named(tmp_path, prose) == []


def test_a_gone_dockerfile_a_command_builds_is_the_build_commands_to_tell(tmp_path: Path) -> None:
    prose = "Build the GPU image (Dockerfile.gpu):\n\n```bash\ndocker build -f Dockerfile.gpu .\n```"
    assert [message.split(",")[0] for _, message, _ in _named(tmp_path, prose)] == [
        "README builds with Dockerfile.gpu"
    ]


def test_a_gone_dockerfile_in_plain_words_under_an_older_images_heading_is_history(tmp_path: Path) -> None:
    prose = "The 2023 image was built from Dockerfile.rocm5 on the old runners."
    assert _named(tmp_path, prose, heading="Older images") == []
    assert [line for line, _, _ in _named(tmp_path, prose)] == [5]


def test_a_stale_name_of_a_list_is_told_once(tmp_path: Path) -> None:
    # the list names a Dockerfile next to the README: `_unlisted_names` tells the stale one, not this rule
    items = "- Dockerfile.base.efa: the EFA image\n- Dockerfile.base.efb: the other one"
    assert [message for _, message, _ in _named(tmp_path, items)] == [
        "README lists Dockerfile.base.efb, which does not exist next to it"
    ]


# Scripts a command runs: `source x.sh` and `. x.sh` too, behind a prompt of any host words.


def _scripts(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": "FROM alpine:3.20\nCOPY . /srv\n", **files})
    model = model_of(parse_dockerfile((root / "Dockerfile").read_text(), "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root, root)
    ]


SOURCED = """\
# Rover image

Set up the shell:
```
dev-box $ source setup/env.sh
```
Start it:
```
me@rig:~/rover$ . orin_start.sh
```
Stop it:
```
(venv) $ source ./stop.sh
```
"""


def test_scripts_sourced_behind_a_prompt(tmp_path: Path) -> None:
    files = {"env.sh": "", "start.sh": "", "stop.sh": ""}
    assert _scripts(tmp_path, SOURCED, files) == [
        "5: README runs setup/env.sh, which does not exist next to it or in a folder above it "
        "(did you mean env.sh?) (certain)",
        "9: README runs orin_start.sh, which does not exist next to it or in a folder above it "
        "(did you mean start.sh?) (certain)",
    ]


@pytest.mark.parametrize(
    "files",
    [
        {"setup/env.sh": "", "orin_start.sh": "", "stop.sh": ""},  # all there
        # the folder named is there: the script is not one of its, nor one beside the README
        {"setup/tools.sh": "", "orin_start.sh": "", "stop.sh": ""},
        # nothing the README runs is found: another layout or a partial checkout
        {"launch.py": ""},
    ],
)
def test_sourced_scripts_that_are_there_or_unplaced(tmp_path: Path, files: dict[str, str]) -> None:
    assert _scripts(tmp_path, SOURCED, files) == []


def test_a_prompt_is_no_part_of_the_command(tmp_path: Path) -> None:
    readme = "```console\nuser@box:~/rover$ ./build.sh\nroot# ./deploy.sh\n# ./deploy.sh is optional\n```\n"
    assert _scripts(tmp_path, readme, {"build.sh": ""}) == [
        "3: README runs ./deploy.sh, which does not exist next to it or in a folder above it "
        "(the scripts there: build.sh) (certain)"
    ]


# a benchmark README that makes a folder for downloads in the home, enters it at a `$ ` prompt, then builds
# and runs the project's scripts in later sections: the detour ends with its section
DETOUR = """\
# Bench

## Download the models

$ mkdir ~/models

$ cd ~/models
$ huggingface-cli download acme/model --local-dir ./model

## Run

```bash
bash scripts/launch.sh
```
"""


def test_a_cd_into_a_folder_made_for_downloads_is_a_detour(tmp_path: Path) -> None:
    assert _scripts(tmp_path / "a", DETOUR, {"launch.sh": "", "serve.sh": ""}) == [
        "13: README runs scripts/launch.sh, which does not exist next to it or in a folder above it "
        "(did you mean launch.sh?) (certain)"
    ]
    # a folder the README did not make: where the reader is after it is not known
    unmade = DETOUR.replace("$ mkdir ~/models\n", "")
    assert _scripts(tmp_path / "b", unmade, {"launch.sh": "", "serve.sh": ""}) == []
    # the run in the detour's own section is not read
    same = DETOUR.replace("## Run\n\n", "")
    assert _scripts(tmp_path / "c", same, {"launch.sh": "", "serve.sh": ""}) == []


# modelled on a README of a TensorFlow GPU image that writes its steps as bare lines, no code block
BARE = """\
# docker
contains dockerfiles, build and run scripts

## Build
cd build
./build.sh

## Run
./run_docker.sh
"""


def test_a_script_run_on_a_bare_line_after_a_bare_cd(tmp_path: Path) -> None:
    files = {"build/build.sh": "", "run_docker.sh": ""}
    assert _scripts(tmp_path, BARE, files) == [
        "9: README runs ./run_docker.sh, which does not exist next to it or in a folder above it "
        "(the scripts there: build.sh) (certain)"
    ]
    # the true statement: the run script is in the folder the `cd` entered
    assert _scripts(tmp_path / "ok", BARE, {"build/build.sh": "", "build/run_docker.sh": ""}) == []


def test_a_sentence_starting_with_a_script_is_no_step(tmp_path: Path) -> None:
    # modelled on a README that names its scripts in sentences after a block
    readme = (
        "# Lab\n\n```\ncd build\n./build.sh\n```\n\n"
        "./run_docker.sh is the script that starts the container.\ncd build first.\n"
    )
    assert _scripts(tmp_path, readme, {"build/build.sh": "", "run_docker.sh": ""}) == []


WRAPPED = """\
# Lab images

Compile inside the image:
```bash
./run_in.sh lab_gpu bash -c "cd out && cmake -GNinja .. && ninja"
```
Render the manual:
```bash
./run_in_old.sh lab_gpu bash -c "cd manual && make site"
```
"""


@pytest.mark.parametrize(
    "first",
    ['./run_in.sh lab_gpu bash -c "cd out && cmake -GNinja .. && ninja"', "./run_in.sh lab_gpu make all"],
)
def test_a_command_passed_to_a_script_is_no_command_of_the_readme_s_shell(tmp_path: Path, first: str) -> None:
    # the `cmake` and `ninja` are arguments of ./run_in.sh: no file appears on the host, and the next
    # block still runs from the README's folder
    readme = WRAPPED.replace('./run_in.sh lab_gpu bash -c "cd out && cmake -GNinja .. && ninja"', first)
    assert _scripts(tmp_path, readme, {"run_in.sh": ""}) == [
        "9: README runs ./run_in_old.sh, which does not exist next to it or in a folder above it "
        "(did you mean run_in.sh?) (certain)"
    ]


@pytest.mark.parametrize(
    "first",
    [
        # the README's own shell builds: any file may be there after it
        'bash -c "cd out && cmake -GNinja .. && ninja"',
        "./run_in.sh lab_gpu && cmake -GNinja . && ninja",
        './run_in.sh lab_gpu "--fast" && make site',
    ],
)
def test_a_build_of_the_readme_s_shell_still_stops_the_reading(tmp_path: Path, first: str) -> None:
    readme = WRAPPED.replace('./run_in.sh lab_gpu bash -c "cd out && cmake -GNinja .. && ninja"', first)
    # (a `make` runs a makefile of the folder: one with none makes nothing, `references.makes_nothing`)
    assert _scripts(tmp_path, readme, {"run_in.sh": "", "Makefile": "site:\n\tmkdocs build\n"}) == []


def test_a_script_in_the_argument_of_a_script_is_not_run_here(tmp_path: Path) -> None:
    readme = (
        '```bash\n./run_in.sh lab_gpu bash -c "cd /work && ./only_inside.sh"\n./run_in.sh lab_gpu ls\n```\n'
    )
    assert _scripts(tmp_path, readme, {"run_in.sh": ""}) == []


def test_a_dockerfile_name_in_code_read_with_the_readme_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`docgen audit README.md` run in the README's folder: a Dockerfile name in code that is not there
    (`./build-whl.Dockerfile`) is a finding, not a traceback (the folder is `Path(".")`, no name)."""
    import io

    from docgen.cli import main

    make_tree(
        tmp_path,
        {"README.md": "Wheels are built by `./build-whl.Dockerfile`.\n", "Dockerfile": "FROM alpine:3.20\n"},
    )
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = main(["audit", "--confidence", "likely", "README.md", "--dockerfile", "Dockerfile"], out, err)
    assert (code, err.getvalue()) == (1, "")
    assert "build-whl.Dockerfile, which does not exist" in out.getvalue()


# --------------------------------------------------------------------------------------------------
# A `-f` whose name holds a stray control character, a `-f` in a quoted shell string

ROCM = {
    "rocm.ub22.Dockerfile": "FROM ubuntu:22.04\nRUN true\n",
    "rocm-rocblas.ub22.Dockerfile": "ARG base\nFROM ${base}\nRUN true\n",
}


def _rocblas(path: str) -> str:
    return (
        "# ROCm containers\n\n## Build rocm with rocblas clients\n\n```\n"
        f"BASE=amd/rocm:6.2.0 bash -c 'podman build --build-arg base=${{BASE}} -t rocblas -f {path} `pwd`'"
        " 2>&1 | tee build.log\n```\n"
    )


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("rocm^Cocblas.ub22.Dockerfile", "rocm^Cocblas.ub22.Dockerfile (^C)"),  # as a terminal shows it
        ("rocm\x12ocblas.ub22.Dockerfile", "rocm\\x12ocblas.ub22.Dockerfile (^R)"),  # the character itself
        ("rocm^rocblas.ub22.Dockerfile", "rocm^rocblas.ub22.Dockerfile (^)"),  # a caret for a dash
    ],
)
def test_a_file_flag_with_a_stray_character_names_the_dockerfile_meant(
    tmp_path: Path, path: str, shown: str
) -> None:
    make_tree(tmp_path, ROCM)
    name, char = shown.rsplit(" ", 1)
    assert findings(_rocblas(path), ROCM, tmp_path) == [
        f"6: README builds with {name}, which does not exist: its name holds a stray control character "
        f"{char}; the Dockerfile meant is rocm-rocblas.ub22.Dockerfile"
    ]


def test_a_stray_character_in_a_name_two_dockerfiles_may_mean_names_none(tmp_path: Path) -> None:
    files = {**ROCM, "rocm-hipblas.ub22.Dockerfile": "FROM ubuntu:22.04\n"}
    make_tree(tmp_path, files)
    assert findings(_rocblas("rocm^Cocblas.ub22.Dockerfile"), ROCM, tmp_path) == [
        "6: README builds with rocm^Cocblas.ub22.Dockerfile, which does not exist: its name holds a stray "
        "control character (^C); the Dockerfile meant is rocm-rocblas.ub22.Dockerfile"
    ]
    # (`-hipblas` is not `-r` + `ocblas`: one name still fits); with two that fit, none is named
    make_tree(tmp_path, {"rocm-Rocblas.ub22.Dockerfile": "FROM ubuntu:22.04\n"})
    assert findings(_rocblas("rocm^Cocblas.ub22.Dockerfile"), ROCM, tmp_path) == [
        "6: README builds with rocm^Cocblas.ub22.Dockerfile, which does not exist: its name holds a stray "
        "control character (^C)"
    ]


def test_a_file_flag_in_a_quoted_shell_string_is_read_after_its_cd(tmp_path: Path) -> None:
    files = {"docker/Dockerfile.rocm": "FROM ubuntu:22.04\nRUN true\n"}
    make_tree(tmp_path, files)
    readme = "# App\n\n```bash\nsh -c 'cd docker && docker build -t app -f Dockerfile.rocm .'\n```\n"
    assert findings(readme, files, tmp_path) == []
    # a Dockerfile that is not in the folder the string's `cd` enters is gone
    readme = "# App\n\n```bash\nsh -c 'cd docker && docker build -t app -f Dockerfile.gone .'\n```\n"
    assert findings(readme, files, tmp_path) == [
        f"4: {gone('docker/Dockerfile.gone', 'docker/Dockerfile.rocm')}"
    ]


# A `-f` whatever its name (`-f Docker.rocm`, a README calling `Dockerfile.rocm` so)

ROCM_VULKAN = {
    "Dockerfile.rocm": "FROM rocm/dev-ubuntu-24.04:6.4\nRUN make\n",
    "Dockerfile.vulkan": "FROM ubuntu:24.04\nRUN make\n",
}


@pytest.mark.parametrize("tool", ["podman build", "docker build", "buildah bud"])
def test_a_build_file_not_named_as_a_dockerfile_that_is_gone(tmp_path: Path, tool: str) -> None:
    make_tree(tmp_path, ROCM_VULKAN)
    readme = f"# Toolboxes\n\n## ROCm\n\n```bash\n{tool} -t llama-rocm -f Docker.rocm .\n```\n"
    assert findings(readme, ROCM_VULKAN, tmp_path) == [f"6: {gone('Docker.rocm', 'Dockerfile.rocm')}"]
    # the nearest true one: the file is there under that name
    make_tree(tmp_path, {"Docker.rocm": ROCM_VULKAN["Dockerfile.rocm"]})
    assert findings(readme, ROCM_VULKAN, tmp_path) == []


@pytest.mark.parametrize("flag", ["-f Dockerfile.[rocm|vulkan]", "-f 'Dockerfile.*'", "-f Docker.(rocm)"])
def test_a_build_file_the_reader_picks_is_no_reference(tmp_path: Path, flag: str) -> None:
    make_tree(tmp_path, ROCM_VULKAN)
    readme = f"# Toolboxes\n\n```bash\ndocker build {flag} -t llama .\n```\n"
    assert [f for f in findings(readme, ROCM_VULKAN, tmp_path) if "builds with" in f] == []


def test_a_compose_or_run_file_flag_is_no_build_file(tmp_path: Path) -> None:
    make_tree(tmp_path, ROCM_VULKAN)
    readme = (
        "# Toolboxes\n\n```bash\npodman run -f rocm.env llama-rocm\ndocker compose -f stack.yml up\n```\n"
    )
    assert [f for f in findings(readme, ROCM_VULKAN, tmp_path) if "builds with" in f] == []


# A script run after `git clone …/app.git` and `cd app`: a clone of this very repository is its root

CLONED = """\
# app

## Quick start

```bash
git clone https://github.com/example/{repo}.git
cd {repo}
cp config/app.example.yaml config/app.yaml
./scripts/{script}   # finds the model files
# Paste the paths from {script} into config/app.yaml
```
"""


@pytest.mark.parametrize(
    ("repo", "script", "example", "expected"),
    [
        # the clone is this repository (a file the block reads is at its root): the script is gone
        ("app", "find-models.sh", True, ["9: README runs ./scripts/find-models.sh"]),
        # the nearest true one: the script is there
        ("app", "add-model.sh", True, []),
        # the clone of another repository (nothing the block reads is at this one's root): its files
        # are not this checkout's
        ("other", "find-models.sh", False, []),
    ],
)
def test_a_script_run_in_a_clone_of_this_repository(
    tmp_path: Path, repo: str, script: str, example: bool, expected: list[str]
) -> None:
    tree = {**DOCKERFILE, "scripts/add-model.sh": "#!/bin/sh\n"}
    make_tree(tmp_path, {**tree, **({"config/app.example.yaml": "x: 1\n"} if example else {})})
    readme = CLONED.format(repo=repo, script=script)
    said = [f.split(", which")[0] for f in findings(readme, DOCKERFILE, tmp_path) if "README runs" in f]
    assert said == expected


def test_a_make_target_named_like_a_dockerfile_is_no_file(tmp_path: Path) -> None:
    # a table of make targets: `test-dockerfile` is a target of the Makefile, not a Dockerfile's name
    targets = (
        "| Subtarget | Verifies |\n|---|---|\n"
        "| `test-compose` | `docker compose config` parses |\n"
        "| `test-dockerfile` | `hadolint` clean |"
    )
    assert _named(tmp_path, targets, heading="Tests") == []
    # the nearest truth: the same name in a column of files is a Dockerfile that is not there
    files = "| File | Builds |\n|---|---|\n| `test-dockerfile` | the test image |"
    assert _named(tmp_path, files, heading="Tests") == [
        (7, "README names test-dockerfile, which does not exist (the Dockerfile is gone or moved)", "likely")
    ]


JETSON = {"deploy/jetson/Dockerfile": "FROM nvcr.io/nvidia/l4t-base:r36.2.0\nRUN true\n"}


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        # `cd kiln`: the reader's checkout, named as they cloned it; the path is found from its root
        ("cd kiln\ndocker build -t kiln:jetson -f deploy/jetson/Dockerfile .", []),
        ("cd kiln && docker build -f deploy/jetson/Dockerfile .", []),
        # the folder entered is in the project: the path is looked for there, and is not there
        (
            "cd deploy\ndocker build -f deploy/jetson/Dockerfile .",
            ["misplaced: deploy/deploy/jetson/Dockerfile"],
        ),
        # the rest of the path is not found either: not where the command runs, whatever the folder
        ("cd kiln\ndocker build -f deploy/orin/Dockerfile .", ["misplaced: kiln/deploy/orin/Dockerfile"]),
        # no `cd`: a folder written in the path is not a checkout's name
        ("docker build -f kiln/deploy/jetson/Dockerfile .", ["misplaced: kiln/deploy/jetson/Dockerfile"]),
    ],
)
def test_a_cd_into_the_readers_checkout(tmp_path: Path, commands: str, expected: list[str]) -> None:
    make_tree(tmp_path, JETSON)
    readme = f"# Kiln on Jetson\n\n## Build\n\n```sh\n{commands}\n```\n"
    models = [model_of(parse_dockerfile(text, path)) for path, text in JETSON.items()]
    got = [d.message for d in audit(readme, "README.md", models, {}, tmp_path)]
    shown = [
        ("misplaced: " if "where the command runs" in m else "gone: " if "is gone or moved" in m else "")
        + m.split("README builds with ", 1)[-1].split(",", 1)[0]
        for m in got
    ]
    assert shown == expected


def test_the_cds_of_a_block_are_read_once_for_all_its_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each `-f` found only without its first folder read every line of every block again for a `cd`
    into that folder: n such builds cost n² (4,000: 33 s). The blocks are read once; each build is
    still reported."""
    import re

    from docgen.audit import references

    class Counted:
        def __init__(self, pattern: re.Pattern[str]) -> None:
            self.pattern, self.calls = pattern, 0

        def match(self, text: str) -> re.Match[str] | None:
            self.calls += 1
            return self.pattern.match(text)

    counted = Counted(references.CD)
    monkeypatch.setattr(references, "CD", counted)
    make_tree(tmp_path, JETSON)
    builds = "docker build -f kiln/deploy/jetson/Dockerfile .\n" * 400
    readme = f"# Kiln on Jetson\n\n## Build\n\n```sh\n{builds}```\n"
    models = [model_of(parse_dockerfile(text, path)) for path, text in JETSON.items()]
    got = [d for d in audit(readme, "README.md", models, {}, tmp_path) if "kiln/deploy" in d.message]
    assert len(got) == 1 and got[0].message.endswith(
        "also at lines 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 and 389 more"
    )
    assert counted.calls <= 2 * 400, counted.calls


# --------------------------------------------------------------------------------------------------
# Build contexts read past the commands typed inside a container

EDGE = {
    "docker/edge/Dockerfile": (
        "FROM ubuntu:22.04\nCOPY vision.patch /tmp/.\nCOPY setup_deps.sh /tmp/.\nCOPY entry.sh /tmp/.\n"
    ),
    "docker/edge/entry.sh": "",
    "docker/vision.patch": "",
    "docker/setup_deps.sh": "",
}

_ENTER = "```\nsudo docker run --runtime nvidia -it --name rover acme/rover\n```\n\n"
_ATTACH = "```\nsudo docker exec -it rover /bin/bash\n```\n\n"
_INSIDE = "```\ncd ~/ros_ws/src/rover/learn\npython3 infer.py --weights /home/dev/w.pth\n```\n\n"
_BUILD = "```\ndocker build -t acme/rover .\n```\n"


def edge_findings(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str]]:
    """audit of docker/edge/README.md against the Dockerfile next to it, `root` the project."""
    make_tree(root, {**EDGE, **(files or {}), "docker/edge/README.md": readme})
    model = build_model(root / "docker/edge/Dockerfile", "Dockerfile")
    folder = root / "docker/edge"
    return [(d.line, d.message) for d in audit(readme, "README.md", model, {}, folder, root)]


def test_a_cd_typed_in_a_container_leaves_the_build_context_where_it_was(tmp_path: Path) -> None:
    readme = f"# Rover\n\n## Start\n\n{_ENTER}{_ATTACH}## Inside\n\n{_INSIDE}## Build\n\n{_BUILD}"
    assert edge_findings(tmp_path, readme) == [
        (
            23,
            "README builds ./Dockerfile with the context ., which does not hold vision.patch (line 2), "
            "setup_deps.sh (line 3) that it copies (are in ../)",
        )
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # no container was entered: the `cd ~/…` is the host's, the walk ends there
        f"# Rover\n\n## Inside\n\n{_INSIDE}## Build\n\n{_BUILD}",
        # the same section cds and builds: where the build runs is not known
        f"# Rover\n\n{_ENTER}## Use\n\n{_INSIDE}{_BUILD}",
        # a block with a docker command of its own is the host's
        f"# Rover\n\n{_ENTER}## Use\n\n```\ncd /srv/rover\ndocker compose up -d\n```\n\n## Build\n\n"
        + _BUILD,
        # a README that moves to the folder that holds what it copies first
        f"# Rover\n\n{_ENTER}## Inside\n\n{_INSIDE}## Build\n\n"
        + "```\ncd ..\ndocker build -f edge/Dockerfile .\n```\n",
        # a script run before the build copies the sources in
        "# Rover\n\n## Build\n\n```\n./fetch.sh\ndocker build -t acme/rover .\n```\n",
    ],
)
def test_a_context_the_walk_cannot_tell_is_no_finding(tmp_path: Path, readme: str) -> None:
    script = {
        "docker/edge/fetch.sh": "#!/bin/sh\ncp ../vision.patch ../setup_deps.sh .\n",
        "docker/entry.sh": "",
    }
    assert edge_findings(tmp_path, readme, script) == []


def test_the_dockerignore_of_the_context_still_holds_after_a_container(tmp_path: Path) -> None:
    readme = f"# Rover\n\n{_ENTER}## Inside\n\n{_INSIDE}## Build\n\n{_BUILD}"
    ignore = {"docker/edge/.dockerignore": "vision.patch\nsetup_deps.sh\n"}
    assert edge_findings(tmp_path, readme, ignore) == []


def test_a_script_that_makes_no_source_keeps_the_finding(tmp_path: Path) -> None:
    readme = "# Rover\n\n## Build\n\n```\n./check.sh\ndocker build -t acme/rover .\n```\n"
    found = edge_findings(tmp_path, readme, {"docker/edge/check.sh": "#!/bin/sh\nnvidia-smi\n"})
    assert [line for line, _ in found] == [7]


# --------------------------------------------------------------------------------------------------
# A file a git checkout lacks, copied by the README's build: `certain` for one file of the context's top,
# and a build after a clone of the repository itself (the `cd` joined to the clone by a backslash)

SPEECH = """\
FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04
RUN pip install "wyoming-whisper-server==1.4.0"
WORKDIR /
COPY start.sh ./
EXPOSE 10300
ENTRYPOINT ["bash", "/start.sh"]
"""
"""A speech server's Dockerfile (the shape of a Wyoming whisper image's): its one COPY is its start script."""
ROS = """\
FROM osrf/ros:noetic-desktop-full
COPY ./ros_start.sh /
COPY config/ /opt/config/
ENTRYPOINT ["/ros_start.sh"]
"""
"""A ROS image's Dockerfile (the shape of an NVIDIA ROS Noetic one's): the entrypoint script and a folder."""
_JOINED = (
    "# Speech on CUDA\n\nClone it and enter it:\n```\ngit clone https://github.com/wren/speech-cuda \\\n"
    "cd speech-cuda\n```\nBuild the image:\n```\ndocker build --tag speech .\n```\n"
)


def checkout_findings(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, ".git/HEAD": "", **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "that it copies" in d.message
    ]


def test_a_build_after_a_clone_joined_to_its_cd_reads_the_checkout(tmp_path: Path) -> None:
    assert checkout_findings(tmp_path, _JOINED, {"Dockerfile": SPEECH}) == [
        (
            10,
            "README builds ./Dockerfile with the context ., which does not hold start.sh (line 4) that it "
            "copies, in a git checkout that holds every file",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the file is there, git ignores it, a README step makes it or tells to
        (_JOINED, {"start.sh": ""}),
        (_JOINED, {".gitignore": "start.sh\n"}),
        (_JOINED.replace("Build the image:", "```\nwget https://example.org/start.sh\n```\n"), {}),
        (_JOINED.replace("Build the image:", "```\ncp start.sh.example start.sh\n```\n"), {}),
        (_JOINED.replace("Build the image:", "Create start.sh with the lines below, then build:"), {}),
        # the clone is of another repository's folder, or the build is not that of the clone's folder
        (_JOINED.replace("cd speech-cuda", "cd other"), {}),
        (_JOINED.replace("docker build --tag speech .", "docker build --tag speech ./srv"), {}),
        # a git submodule's folder (its files come with a clone of the submodules)
        (_JOINED, {".gitmodules": '[submodule "start"]\n\tpath = start.sh\n\turl = https://example.org/s\n'}),
    ],
)
def test_a_file_the_reader_makes_or_that_is_there_is_silent(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert checkout_findings(tmp_path, readme, {"Dockerfile": SPEECH, **files}) == []


@pytest.mark.parametrize(
    ("dockerfile", "files", "expected"),
    [
        # the ROS entrypoint a checkout lacks: one plain file
        (ROS, {"config/a.yaml": ""}, ("ros_start.sh (line 2)", "certain")),
        # a folder, several files: a checkout lacking a part (`likely`); a folder a build makes (`bin/`)
        (ROS.replace("./ros_start.sh", "tools"), {"config/a.yaml": ""}, ("tools (line 2)", "likely")),
        (ROS.replace("./ros_start.sh", "bin/ros_start.sh"), {"config/a.yaml": ""}, []),
        (ROS, {}, ("ros_start.sh (line 2), config (line 3)", "likely")),
        # several files of the context's top: the build stops at the first (`certain`)
        (
            ROS.replace("COPY config/ /opt/config/", "COPY ros.env /opt/"),
            {},
            ("ros_start.sh (line 2), ros.env (line 3)", "certain"),
        ),
        # a download named by its version (no suffix of letters)
        (
            ROS.replace("./ros_start.sh", "Gmatch_v0.53"),
            {"config/a.yaml": ""},
            ("Gmatch_v0.53 (line 2)", "likely"),
        ),
        # another stage's file: not looked for; a pattern that matches a file
        (
            ROS.replace("COPY ./ros_start.sh /", "COPY --from=tools /ros_start.sh /"),
            {"config/a.yaml": ""},
            [],
        ),
        (ROS.replace("./ros_start.sh", "./ros_*.sh"), {"config/a.yaml": "", "ros_up.sh": ""}, []),
    ],
)
def test_one_plain_file_a_checkout_lacks_is_certain(
    tmp_path: Path, dockerfile: str, files: dict[str, str], expected: tuple[str, str] | list[str]
) -> None:
    readme = "# ROS Noetic\n\n## Build\n\n```\ndocker build -t lab/noetic .\n```\n"
    found = checkout_findings(tmp_path, readme, {"Dockerfile": dockerfile, **files})
    if isinstance(expected, list):
        assert found == expected
        return
    listed, confidence = expected
    assert found == [
        (
            6,
            f"README builds ./Dockerfile with the context ., which does not hold {listed} that it copies, in "
            "a git checkout that holds every file",
            confidence,
        )
    ]


PLANTED = {
    "deploy/Dockerfile.full": "FROM ubuntu:22.04\nRUN true\n",
    "deploy/Dockerfile.rocm-full": "FROM ubuntu:22.04\nRUN true\n",
    "deploy/runner.sh": "#!/bin/sh\n",
}


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        # modelled on a docs page of a ROCm project: `cd` into a placeholder of the reader's checkout,
        # then builds from its root; one `-f` is there, the other two are gone
        (
            "cd /path/to/lantern\n\n# core image\ndocker build -f deploy/Dockerfile.core -t l:core deploy/\n"
            "docker build -f deploy/Dockerfile.full -t l:full .\n"
            "docker build -f deploy/Dockerfile.panel -t l:panel .",
            ["gone: deploy/Dockerfile.core", "gone: deploy/Dockerfile.panel"],
        ),
        (
            "cd <lantern-repo>\ndocker build -f deploy/Dockerfile.full .\n"
            "docker build -f deploy/Dockerfile.core .",
            ["gone: deploy/Dockerfile.core"],
        ),
        (
            "cd ~/src/lantern && docker build -f deploy/Dockerfile.core .\n"
            "docker build -f deploy/Dockerfile.full .",
            ["gone: deploy/Dockerfile.core"],
        ),
        # a `cd` further down from the placeholder is followed
        (
            "cd /path/to/lantern\ncd deploy\ndocker build -f Dockerfile.full ..\n"
            "docker build -f Dockerfile.core ..",
            ["gone: deploy/Dockerfile.core"],
        ),
        # every path is there: nothing to say
        (
            "cd /path/to/lantern\ndocker build -f deploy/Dockerfile.full .\n"
            "docker build -f deploy/Dockerfile.rocm-full .",
            [],
        ),
        # a placeholder of another project: none of its paths is found here, none is read
        (
            "cd /path/to/vendor-sdk\ndocker build -f build/Dockerfile.sdk .\n"
            "docker build -f build/Dockerfile.rt .",
            [],
        ),
        # one path only, not found from the root: unknown whose checkout that is
        ("cd /path/to/lantern\ndocker build -f deploy/Dockerfile.core .", []),
        # modelled on a plugin's install steps: a clone of another repository, then a `cd` into a placeholder
        (
            "git clone https://example.org/other/tool.git /path/to/tool\ncd /path/to/tool\n"
            "docker build -f deploy/Dockerfile.core .\ndocker build -f deploy/Dockerfile.full .",
            [],
        ),
        # a folder of data, mounted from there: no `-f`, nothing read
        ("cd /path/to/models\ndocker run -v $(pwd):/m l:full ./deploy/runner.sh", []),
        # a `cd` into a folder of no placeholder (`/opt/app`) is still not followed
        (
            "cd /opt/lantern\ndocker build -f deploy/Dockerfile.core .\n"
            "docker build -f deploy/Dockerfile.full .",
            [],
        ),
    ],
)
def test_a_cd_into_a_placeholder_checkout_reads_from_the_root(
    tmp_path: Path, commands: str, expected: list[str]
) -> None:
    make_tree(tmp_path, PLANTED)
    readme = f"# Lantern images\n\n## Build by hand\n\n```bash\n{commands}\n```\n"
    directory = tmp_path / "deploy"
    models = [
        model_of(parse_dockerfile(text, path)) for path, text in PLANTED.items() if "Dockerfile" in path
    ]
    got = [d.message for d in audit(readme, "deploy/README.md", models, {}, directory, project=tmp_path)]
    shown = [
        ("misplaced: " if "where the command runs" in m else "gone: " if "is gone or moved" in m else "")
        + m.split("README builds with ", 1)[-1].split(",", 1)[0]
        for m in got
        if "README builds with" in m
    ]
    assert shown == expected


# A training README whose one-command path names a script the repository never had.
ONE_CLICK = """\
Docker training

Quick start
- One command: `bash scripts/train_docker.sh`
  - Copies `stage-1/prepare.py` next to `stage-1/train.sh` inside the container.
"""
# A driver README whose device helper lives in the upstream project only.
DEVICES = """\
# GPU drivers

Built from `docker/Dockerfile`.

```
NV_DEVICES=$(sudo ./drivers/devices/list_devices.sh)
docker run -ti $NV_DEVICES app
```
"""
GROUND = "\nThe helpers are in `x/y.sh`.\n"


def _nowhere(root: Path, readme: str, files: dict[str, str], git: bool = False) -> list[str]:
    if git:
        (root / ".git").mkdir()
    return [line for line in _scripts(root, readme, files) if "does not exist in the repository" in line]


def test_a_script_the_prose_runs_that_no_folder_has(tmp_path: Path) -> None:
    files = {"stage-1/train.sh": "", "stage-1/prepare.py": "", "compose.yaml": "services: {}\n"}
    assert _nowhere(tmp_path, ONE_CLICK, files) == [
        "4: README runs scripts/train_docker.sh, which does not exist in the repository (likely)"
    ]


def test_a_script_a_command_substitution_runs_that_no_folder_has(tmp_path: Path) -> None:
    assert _nowhere(tmp_path, DEVICES, {"docker/Dockerfile": "FROM x\n"}) == [
        "6: README runs drivers/devices/list_devices.sh, which does not exist in the repository (likely)"
    ]


def test_in_a_checkout_the_setup_steps_rule_tells_it_once(tmp_path: Path) -> None:
    assert _nowhere(tmp_path, DEVICES, {"docker/Dockerfile": "FROM x\n"}, git=True) == [
        "6: README runs drivers/devices/list_devices.sh, which does not exist in the repository (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files", "git"),
    [
        # the script is elsewhere in the repository: another rule's (or the README's layout)
        (ONE_CLICK, {"stage-1/train.sh": "", "tools/train_docker.sh": ""}, False),
        # a name a slip away is in the repository
        (ONE_CLICK, {"stage-1/train.sh": "", "train-docker.sh": ""}, False),
        # no path of the README is a file here: a partial copy, or another layout
        (ONE_CLICK, {"compose.yaml": "services: {}\n"}, False),
        (DEVICES, {"docker/Dockerfile.gpu": "FROM x\n"}, False),
        # the README makes it first
        ("```\nwget https://example.com/get.sh\nbash ./get.sh\n```\n" + GROUND, {"x/y.sh": ""}, False),
        # a placeholder for the reader's own script
        ("```\nbash ./path/to/your_script.sh\n```\n" + GROUND, {"x/y.sh": ""}, False),
        # after a clone of another repository any file may be there
        (
            "```\ngit clone https://github.com/o/tools.git\n./tools/run.sh\n```\n" + GROUND,
            {"x/y.sh": ""},
            False,
        ),
    ],
)
def test_scripts_that_may_be_there(tmp_path: Path, readme: str, files: dict[str, str], git: bool) -> None:
    assert _nowhere(tmp_path, readme, files, git) == []


def test_a_path_past_the_project_top_is_no_ground(tmp_path: Path) -> None:
    """The only path that is a file climbs out of the project (`../shared/stage-1/train.sh`): nothing
    past the project's top is looked at, so the README reads as a partial copy and is not told."""
    readme = ONE_CLICK.replace("`stage-1/", "`../shared/stage-1/")
    make_tree(tmp_path, {"shared/stage-1/train.sh": "", "shared/stage-1/prepare.py": ""})
    (tmp_path / "project").mkdir()
    assert _nowhere(tmp_path / "project", readme, {"compose.yaml": "services: {}\n"}) == []


def test_a_repository_s_names_are_squashed_once() -> None:
    """Each script found nowhere is looked up in the names made once for the repository, not in each of
    its up to 20,000 file names again."""
    from docgen.audit import references

    class Counted(frozenset[str]):
        reads = 0

        def __iter__(self):  # type: ignore[no-untyped-def]
            Counted.reads += 1
            return super().__iter__()

    names = Counted({f"file_{n}.py" for n in range(200)} | {"run.sh"})
    assert [references.runs_nowhere(f"tools/gone_{n}.sh", names) for n in range(50)] == [True] * 50
    assert not references.runs_nowhere("tools/Run.sh", names)
    assert Counted.reads <= 2


# --------------------------------------------------------------------------------------------------
# A script run by a name that joins its folder and its file (`docker.start.sh` for `docker/start.sh`)

JOINED = """\
# Caption demo

1. Clone this repository
```
git clone https://github.com/example/caption-demo.git
```
2. Enter it
```
cd caption-demo
```
3. Build the image
```
bash docker/build.sh
```
4. Start it
```
bash {start}
```
"""


@pytest.mark.parametrize(
    ("start", "files", "expected"),
    [
        ("docker.start.sh", {"docker/build.sh": "", "docker/start.sh": ""}, "docker/start.sh"),
        ("./tools_serve.sh", {"docker/build.sh": "", "tools/serve.sh": ""}, "tools/serve.sh"),
    ],
)
def test_a_script_whose_folder_is_joined_to_its_name(
    tmp_path: Path, start: str, files: dict[str, str], expected: str
) -> None:
    said = [f for f in _scripts(tmp_path, JOINED.format(start=start), files) if "README runs" in f]
    assert said == [
        f"17: README runs {start}, which does not exist next to it or in a folder above it "
        f"(did you mean {expected}?) (certain)"
    ]


@pytest.mark.parametrize(
    ("start", "files"),
    [
        ("docker/start.sh", {"docker/build.sh": "", "docker/start.sh": ""}),  # as it is
        ("docker.start.sh", {"docker/build.sh": "", "docker.start.sh": ""}),  # a file of that name
        ("docker.start.sh", {"docker/build.sh": "", "docker/docker.start.sh": "", "docker.start.sh": ""}),
    ],
)
def test_scripts_whose_names_are_not_joined_folders(
    tmp_path: Path, start: str, files: dict[str, str]
) -> None:
    assert [f for f in _scripts(tmp_path, JOINED.format(start=start), files) if "README runs" in f] == []


def test_a_readme_titled_with_the_repository_name_names_no_dockerfile(tmp_path: Path) -> None:
    # `# IPEX_Dockerfile`: the README's title is the repository's name, not a file it refers to
    make_tree(tmp_path, {**EFA, ".git/HEAD": "ref: refs/heads/main\n"})
    for title, expected in (("IPEX_Dockerfile", []), ("Images", [3])):
        readme = (
            f"# {title}\n\n## Build (Dockerfile.gpu)\n\nBuild it.\n"
            if expected
            else f"# {title}\n\nBuild it.\n"
        )
        (tmp_path / "docker/README.md").write_text(readme)
        model = model_of(parse_dockerfile(EFA["docker/Dockerfile.base.efa"], "docker/Dockerfile.base.efa"))
        found = audit(readme, "docker/README.md", [model], {}, tmp_path / "docker", tmp_path)
        assert [d.line for d in found if "names" in d.message] == expected


def test_a_dockerfile_named_alone_in_a_later_top_heading_is_still_read(tmp_path: Path) -> None:
    prose = "Build it.\n\n# Dockerfile.gpu\n\nThe GPU image."
    assert [line for line, message, _ in _named(tmp_path, prose) if "Dockerfile.gpu" in message] == [7]


CLONED_STEPS = """\
# Chat server

1. Clone the repository:
    ```bash
    git clone https://github.com/example/chat-server.git
    ```

2. Enter it:
    ```bash
    cd chat-server
    ```

3. Build the image:
    ```bash
    docker build -t chat-server .
    ```

4. Write your user ids, then start it:
    ```bash
    chmod +x ./write_ids.sh
    ./write_ids.sh .env
    ```
"""


def test_a_script_missing_from_the_checkout_the_readme_clones_enters_and_builds(tmp_path: Path) -> None:
    # each step its own block: the clone, the `cd`, the build of the README's own Dockerfile; the
    # checkout is this folder, and it holds no write_ids.sh (nor any script to name instead)
    assert _scripts(tmp_path, CLONED_STEPS, {}) == [
        "21: README runs ./write_ids.sh, which does not exist next to it or in a folder above it (certain)"
    ]
    assert _scripts(tmp_path / "there", CLONED_STEPS, {"write_ids.sh": "#!/bin/sh\n"}) == []


def test_a_script_of_a_clone_that_builds_another_dockerfile_is_not_told(tmp_path: Path) -> None:
    # the clone is built with a Dockerfile of its own (`-f docker/Dockerfile`), not the README's
    # one: it may be an upstream repository, whose scripts are not this folder's
    readme = CLONED_STEPS.replace("docker build -t chat-server .", "docker build -f docker/Dockerfile .")
    assert _scripts(tmp_path, readme, {}) == []
    # the clone's block does not end with it and no `cd` follows: nothing tells where the commands run
    unentered = CLONED_STEPS.replace("    cd chat-server\n", "    ls\n")
    assert _scripts(tmp_path / "unentered", unentered, {}) == []


# a method folder of a research-containers repository: the compose file beside the README builds its
# Dockerfile from the folder; the README's wrapper script is gone, the in-container helper is the image's
METHOD = """\
# Surface reconstruction container

## Usage

### 1. Build & Start
```bash
./launch.sh build
./launch.sh shell
```

### 2. Example commands
Inside the container:

**Reconstruct a point cloud:**
```bash
./reconstruct.sh /data/cloud.ply
```
"""

METHOD_COMPOSE = "services:\n  recon:\n    build:\n      context: .\n      dockerfile: Dockerfile.recon\n"
METHOD_DOCKERFILE = "FROM python:3.12\nWORKDIR /work\nCOPY tools/reconstruct.sh /work/reconstruct.sh\n"

# an API service in a monorepo: `compose.yaml` says `build: .`; the README starts the stack with a script
SERVICE = """\
# Billing API

Getting started:

    ./dev-up.sh --seed

In the running container you can open a shell with `./console.sh`.
"""


def _folder_scripts(root: Path, folder: str, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {f"{folder}/README.md": readme, **{f"{folder}/{k}": v for k, v in files.items()}})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, f"{folder}/README.md", [], {}, root / folder, root)
    ]


def test_a_script_missing_from_the_folder_its_compose_file_builds_in(tmp_path: Path) -> None:
    files = {"docker-compose.yml": METHOD_COMPOSE, "Dockerfile.recon": METHOD_DOCKERFILE, "tools/run.py": ""}
    assert _folder_scripts(tmp_path / "a", "methods/recon", METHOD, files) == [
        "7: README runs ./launch.sh, which does not exist next to it or in a folder above it; also run "
        "at line 8 (certain)"
    ]
    # the image's helper, run after `Inside the container:` (another paragraph between), is not looked for
    service = {"compose.yaml": "services:\n  api:\n    build: .\n"}
    assert _folder_scripts(tmp_path / "b", "services/billing", SERVICE, service) == [
        "5: README runs ./dev-up.sh, which does not exist next to it or in a folder above it (certain)"
    ]


@pytest.mark.parametrize(
    ("compose", "extra"),
    [
        (METHOD_COMPOSE, {"launch.sh": ""}),  # there
        (METHOD_COMPOSE, {"../../launch.sh": ""}),  # at the repository's root, where it may be run from
        ("services:\n  recon:\n    build: ../..\n", {}),  # built from the root: run from there, not known
        ("services:\n  recon:\n    image: acme/recon:1.0\n", {}),  # builds nothing here
        ("services: [", {}),  # a file compose refuses
        (None, {}),  # no compose file: another layout or a partial copy
    ],
)
def test_scripts_of_a_folder_that_does_not_build_or_holds_them(
    tmp_path: Path, compose: str | None, extra: dict[str, str]
) -> None:
    files = {"Dockerfile.recon": METHOD_DOCKERFILE, **extra}
    if compose is not None:
        files["docker-compose.yml"] = compose
    assert _folder_scripts(tmp_path, "methods/recon", METHOD, files) == []


def test_a_script_the_readme_makes_or_names_as_a_placeholder(tmp_path: Path) -> None:
    files = {"docker-compose.yml": METHOD_COMPOSE, "Dockerfile.recon": METHOD_DOCKERFILE}
    made = METHOD.replace("### 1. Build", "Save the snippet below as `launch.sh`.\n\n### 1. Build")
    assert _folder_scripts(tmp_path / "a", "methods/recon", made, files) == []
    held = METHOD.replace("./launch.sh build\n./launch.sh shell", "./<your-script>.sh build")
    assert _folder_scripts(tmp_path / "b", "methods/recon", held, files) == []


# modelled on cluster notes: bare launch lines under a heading, one script run by a name with no extension
BARE_NAMES = """\
# run on the cluster
vpnup
eval $(docker-machine env worker-3)
bash prepare
bash start-node.sh

```sh
torchrun --nnodes 2 train.py
```
"""

# modelled on a toolkit README that runs its installers with `sh` and a name with no extension
FETCHED = "https://get.acme.dev"
INSTALLERS = """\
# Toolkit image

## Install

```sh
sh tools/bootstrap
bash -c "echo ready"
bash $HELPER
./tools/check.sh
sh tools/install
```
"""


def test_a_script_run_by_a_name_with_no_extension_must_be_there(tmp_path: Path) -> None:
    assert _scripts(tmp_path, BARE_NAMES, {"start-node.sh": ""}) == [
        "4: README runs prepare, which does not exist next to it or in a folder above it "
        "(the scripts there: start-node.sh) (certain)"
    ]
    assert _scripts(tmp_path / "kit", INSTALLERS, {"tools/check.sh": "", "tools/bootstrap": ""}) == [
        "10: README runs tools/install, which does not exist next to it or in a folder above it "
        "(the scripts there: check.sh) (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        (BARE_NAMES, {"start-node.sh": "", "prepare": ""}),  # there
        (BARE_NAMES, {"train.py": ""}),  # nothing the README runs is found: a partial checkout
        (INSTALLERS, {"tools/check.sh": "", "tools/bootstrap": "", "tools/install": ""}),
        # the README fetches the installer before running it
        (
            INSTALLERS.replace("sh tools/install", f"curl -o tools/install {FETCHED}\nsh tools/install"),
            {"tools/check.sh": "", "tools/bootstrap": ""},
        ),
    ],
)
def test_scripts_with_no_extension_that_are_there_made_or_unplaced(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _scripts(tmp_path, readme, files) == []


# Scripts named `.bash` or `.zsh` run by `bash`, `sh` or `source`: modelled on a photogrammetry image whose
# run scripts are `run_*.bash`, and on a robot workspace that sources its `.bash` and `.zsh` helpers
BASH_NAMED = """\
# Recon image

Automatic reconstruction:
```
bash run_auto.bash
```

Without a GPU:
```
bash run_nopgu.bash
```
"""


def test_a_bash_named_script_run_with_bash_must_be_there(tmp_path: Path) -> None:
    files = {"run_auto.bash": "", "run_nogpu.bash": ""}
    assert _scripts(tmp_path, BASH_NAMED, files) == [
        "10: README runs run_nopgu.bash, which does not exist next to it or in a folder above it "
        "(did you mean run_nogpu.bash?) (certain)"
    ]
    # the true statement
    fixed = BASH_NAMED.replace("run_nopgu", "run_nogpu")
    assert _scripts(tmp_path / "ok", fixed, files) == []


WORKSPACE = """\
# Rover workspace

```
source /opt/ros/humble/setup.bash
source tools/rover_env.zsh
sh tools/stop_all.bash
colcon build
source install/setup.bash
```
"""


def test_bash_named_scripts_sourced_or_run_with_sh(tmp_path: Path) -> None:
    files = {"tools/rover_env.zsh": "", "tools/stop.bash": ""}
    # an absolute path is the host's; after a build any file may be there (install/setup.bash)
    assert _scripts(tmp_path, WORKSPACE, files) == [
        "6: README runs tools/stop_all.bash, which does not exist next to it or in a folder above it "
        "(did you mean stop.bash?) (certain)"
    ]
    assert _scripts(tmp_path / "ok", WORKSPACE, {**files, "tools/stop_all.bash": ""}) == []


# --------------------------------------------------------------------------------------------------
# A COPY whose every source is a pattern that matches nothing in a git checkout: the build stops there
# ("no source files were specified"); BuildKit lets one pattern of several match nothing

SCRIPTS = """\
FROM pytorch/pytorch:2.0.1-cuda11.7-cudnn8-devel
RUN pip install --no-cache-dir redis
COPY bash.bashrc /etc/bash.bashrc
COPY kiln_* /usr/bin/
"""
"""A tool image's Dockerfile (the shape of a fine-tuning image's that copies its helper scripts by a
pattern): the folder has its bashrc, and no `kiln_*` script."""
_BUILT_HERE = "# Kiln\n\n## Build\n\n```\ndocker build -t kiln .\n```\n"


def test_a_pattern_that_matches_nothing_in_a_checkout(tmp_path: Path) -> None:
    assert checkout_findings(tmp_path, _BUILT_HERE, {"Dockerfile": SCRIPTS, "bash.bashrc": ""}) == [
        (
            6,
            "README builds ./Dockerfile with the context ., which holds no file matching kiln_* (line 4) "
            "that it copies, in a git checkout that holds every file: BuildKit copies nothing for a COPY "
            "whose every source matches nothing, so the image lacks what it was to give (the legacy builder "
            "stops: no source files were specified)",
            "likely",
        )
    ]


def test_a_pattern_beside_a_missing_file_keeps_the_file_certain(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nCOPY start.sh /start.sh\nCOPY tools/kiln_*.py /opt/tools/\n"
    found = checkout_findings(tmp_path, _BUILT_HERE, {"Dockerfile": dockerfile})
    assert [(line, sure) for line, _, sure in found] == [(6, "certain")]  # (the build stops at start.sh)
    assert (
        "not hold start.sh (line 2) that it copies, in a git checkout that holds every file; and no file "
        "matches tools/kiln_*.py (line 3): BuildKit copies nothing" in found[0][1]
    )


@pytest.mark.parametrize(
    ("copy", "files"),
    [
        ("COPY kiln_* /usr/bin/", {"kiln_redis": "#!/bin/sh\n"}),  # it matches
        ("COPY tools/kiln_?.py /usr/bin/", {"tools/kiln_a.py": ""}),
        ("COPY .kiln* /root/", {".kilnrc": ""}),  # `*` takes a leading dot, as Go's does
        ("COPY bash.bashrc kiln_* /usr/bin/", {}),  # one source of several matches
        ("COPY package.json yarn.lock* ./", {"package.json": "{}"}),
        ("COPY kiln_* *.cfg /usr/bin/", {"site.cfg": ""}),  # one pattern of two matches
        ("COPY dist/*.whl /tmp/", {}),  # what a build makes
        ("COPY ${TOOLS}/kiln_* /usr/bin/", {}),  # a variable
        ("COPY --from=builder /out/kiln_* /usr/bin/", {}),  # another stage
    ],
)
def test_patterns_that_match_or_may_are_silent(tmp_path: Path, copy: str, files: dict[str, str]) -> None:
    dockerfile = SCRIPTS.replace("COPY kiln_* /usr/bin/", copy)
    assert (
        checkout_findings(tmp_path, _BUILT_HERE, {"Dockerfile": dockerfile, "bash.bashrc": "", **files}) == []
    )


def test_a_pattern_the_dockerignore_empties_is_told(tmp_path: Path) -> None:
    files = {"Dockerfile": SCRIPTS, "bash.bashrc": "", "kiln_redis": "", ".dockerignore": "kiln_*\n"}
    assert [line for line, _, _ in checkout_findings(tmp_path, _BUILT_HERE, files)] == [6]


def test_a_pattern_beside_a_missing_plain_source_is_left_to_it(tmp_path: Path) -> None:
    # modelled on a transcription service: `COPY requirements.txt constraints.txt* ./`, both absent
    dockerfile = "FROM python:3.12-slim\nCOPY requirements.txt constraints.txt* ./\n"
    found = checkout_findings(tmp_path, _BUILT_HERE, {"Dockerfile": dockerfile})
    assert [message.split(", which ")[1] for _, message, _ in found] == [
        "does not hold requirements.txt (line 2) that it copies, in a git checkout that holds every file"
    ]


def test_a_pattern_outside_a_checkout_is_left_to_the_copy(tmp_path: Path) -> None:
    # (a copy of some of a project's files may lack what a pattern matches)
    make_tree(tmp_path, {"README.md": _BUILT_HERE, "Dockerfile": SCRIPTS, "bash.bashrc": ""})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [d for d in audit(_BUILT_HERE, "README.md", model, {}, tmp_path) if "kiln_*" in d.message] == []


# A training cluster's image (the shape of a cloud sample's `2.docker` folder): a build, then the same
# build with `-f` for a Dockerfile of another name, the name made up to show the flag.
_SAMPLE = "FROM nvcr.io/nvidia/pytorch:24.01-py3\nRUN pip install deepspeed\n"


@pytest.mark.parametrize(
    "block",
    [
        "# If the Dockerfile is named differently, e.g., Dockerfile-gpu.dockerfile\n"
        "docker build -t trainer:latest -f Dockerfile-gpu.dockerfile .\n",
        # an example in the sentence above the block
        None,
    ],
)
def test_a_dockerfile_named_as_an_example_is_no_missing_file(tmp_path: Path, block: str | None) -> None:
    if block is None:
        body = "To build from another file, for example cuda.dockerfile:\n\n```bash\n"
        body += "docker build -t trainer:latest -f cuda.dockerfile .\n```\n"
    else:
        body = f"```bash\ndocker build -t trainer:latest .\n\n{block}```\n"
    result = audit_tree(tmp_path, {"README.md": f"# Trainer\n\n{body}", "Dockerfile": _SAMPLE})
    assert "does not exist" not in result.out


def test_a_dockerfile_named_plainly_is_still_missing(tmp_path: Path) -> None:
    # the same build with no example word near the name: the file is gone
    body = (
        "```bash\n# Build the GPU image\ndocker build -t trainer:latest -f Dockerfile-gpu.dockerfile .\n```\n"
    )
    result = audit_tree(tmp_path, {"README.md": f"# Trainer\n\n{body}", "Dockerfile": _SAMPLE})
    assert "README builds with Dockerfile-gpu.dockerfile, which does not exist" in result.out


# A `-f` naming a Dockerfile a slip or a version off one beside the README (a simulator's images; a
# robot's images)

SIMULATOR = {
    "sim15.Dockerfile": "FROM ubuntu:22.04\nARG SIM_VERSION=0.9.15\nRUN true\n",
    "runner.Dockerfile": "FROM ubuntu:22.04\nARG SIM_VERSION=0.9.13\nRUN true\n",
    "runner13.Dockerfile": "FROM ubuntu:22.04\nARG SIM_VERSION=0.9.13\nRUN true\n",
}


def _simulator(flag: str, lang: str = "bash") -> str:
    return (
        "# Sim v0.9.15\n\n## Sim Docker Image (v0.9.15)\n\n"
        f"```{lang}\nsudo docker build -t acme/sim:0.9.15 {flag} .\n```\n\n"
        "# Runner v0.9.13\n\n## Sim Docker Image (v0.9.13)\n\nFor Sim v0.9.13\n\n"
        "```bash\nsudo docker pull acme/runner:0.9.13\n```\n\n"
        "## Runner Docker Image (v0.9.13)\n\n```bash\nsudo docker build -t acme/runner:0.9.13 "
        "--file ./runner.Dockerfile .\n```\n"
    )


@pytest.mark.parametrize("lang", ["bash", "commandline"])
@pytest.mark.parametrize(
    ("flag", "meant"),
    [
        ("--file ./sim.Dockerfile", "sim15.Dockerfile"),  # a version dropped
        ("-f sim-15.Dockerfile", "sim15.Dockerfile"),  # (its separator aside)
        ("-f ./runer.Dockerfile", "runner.Dockerfile"),  # a letter dropped
    ],
)
def test_a_file_flag_a_slip_off_a_dockerfile_beside_it_names_it(
    tmp_path: Path, flag: str, meant: str, lang: str
) -> None:
    make_tree(tmp_path, SIMULATOR)
    path = flag.split()[-1]
    found = findings(_simulator(flag, lang), SIMULATOR, tmp_path)
    assert [f for f in found if "builds with" in f] == [
        f"6: README builds with {path}, which does not exist (did you mean {meant}? a slip of its name; "
        "compared with it)"
    ]


@pytest.mark.parametrize(
    "flag",
    [
        "-f runner15.Dockerfile",  # another version of a name two Dockerfiles share: which is not told
        "-f runner.Dockerfile.gpu",  # no slip of a name
        "-f ./sim14.Dockerfile",  # another version is another image, no slip
    ],
)
def test_a_gone_file_flag_with_no_one_near_name_is_gone_only(tmp_path: Path, flag: str) -> None:
    make_tree(tmp_path, SIMULATOR)
    found = findings(_simulator(flag), SIMULATOR, tmp_path)
    assert [f for f in found if "did you mean" in f] == []
    assert any("which does not exist" in f for f in found)


def test_dockerfiles_a_slip_apart_that_both_exist_are_no_findings(tmp_path: Path) -> None:
    make_tree(tmp_path, SIMULATOR)
    assert findings(_simulator("-f runner13.Dockerfile"), SIMULATOR, tmp_path) == []


def test_a_title_said_again_with_another_version_is_about_another_image(tmp_path: Path) -> None:
    # `## Sim Docker Image (v0.9.13)` over a pull of the runner image is not the v0.9.15 section above it
    make_tree(tmp_path, SIMULATOR)
    assert findings(_simulator("--file ./sim.Dockerfile"), SIMULATOR, tmp_path) == [
        "6: README builds with ./sim.Dockerfile, which does not exist (did you mean sim15.Dockerfile? a slip "
        "of its name; compared with it)"
    ]


# A COPY source that climbs out of the build context: BuildKit reads every source from the context's
# top (`../engine` is the context's `engine`, `..` the context itself). Planted drifts modelled on a
# build environment copying a sibling checkout (`COPY .. /src` built with `docker build .` from its own
# folder) and a server image copying a sibling source folder (`COPY ../engine /app`); traps modelled on
# a Dockerfile written for a context two folders up (`docker build ../.. -f Dockerfile` with
# `COPY ../../ /root/proj`) and one whose `../common/x` is the context's `common/x` (built from the
# repository's root).

_CLIMB_ENV = (
    "FROM almalinux:8\nRUN dnf install -y git\nCOPY .. /src\nWORKDIR /src/qsim\nRUN bash scripts/install.sh\n"
)


def test_copy_of_the_folder_above_a_context_that_is_the_dockerfiles_own(tmp_path: Path) -> None:
    readme = (
        "# qenv\n\nClone qsim next to this folder:\n\n```bash\ngit clone https://github.com/acme/qsim.git\n"
        "```\n\nThe Dockerfile copies the `qsim` source folder into the image. From inside this folder:\n\n"
        "```bash\ndocker build -t qenv .\n```\n"
    )
    result = audit_tree(tmp_path / "work" / "qenv", {"README.md": readme, "Dockerfile": _CLIMB_ENV})
    told = (
        "error: README builds ./Dockerfile with the context ., whose COPY .. (line 3) copies the context "
        "itself, not the folder above it: BuildKit reads every source inside the context (the legacy "
        "builder refuses a path outside it), so nothing above the context reaches the image"
    )
    # (the clone may have been run in the context: what the WORKDIR enters is not told)
    assert result.out.splitlines()[0] == f"README.md:12: {told} [DG103] (likely)"
    readme = "# qenv\n\nFrom inside this folder:\n\n```bash\ndocker build -t qenv .\n```\n"
    result = audit_tree(tmp_path / "work" / "qenv", {"README.md": readme})
    entered = "WORKDIR /src/qsim (line 4) then enters qsim, which the context does not hold"
    assert result.out.splitlines()[0] == f"README.md:6: {told}; {entered} [DG103] (likely)"


def test_copy_of_the_folder_above_from_a_context_that_is_that_folder(tmp_path: Path) -> None:
    build = "docker build -t qenv -f Dockerfile .."
    readme = f"# qenv\n\nWith the folder above as the context:\n\n```bash\n{build}\n```\n"
    files = {"qenv/README.md": readme, "qenv/Dockerfile": _CLIMB_ENV, "qsim/scripts/install.sh": "true\n"}
    make_tree(tmp_path / "work", files)
    result = audit_tree(tmp_path / "work" / "qenv", {})
    assert "COPY .." not in result.out


_ENGINE = {
    "engine/main.c": "int main(void) { return 0; }\n",
    "server/Dockerfile": "FROM gcc:13\nCOPY ../engine /app\nWORKDIR /app\nRUN make\n",
}


def test_copy_of_a_sibling_folder_the_context_lacks(tmp_path: Path) -> None:
    readme = "# Server\n\n```bash\ndocker build -t srv .\n```\n"
    make_tree(tmp_path / "proj", _ENGINE)
    result = audit_tree(tmp_path / "proj" / "server", {"README.md": readme})
    assert result.out.splitlines()[0] == (
        "README.md:4: error: README builds ./Dockerfile with the context ., whose COPY ../engine (line 2) "
        "is read as engine at the context's top (BuildKit reads every source inside the context; the "
        "legacy builder refuses a path outside it), which the context does not hold: the engine above "
        "the context is never read, and the build stops at that COPY [DG103] (certain)"
    )


def test_a_sibling_folder_the_context_holds_too_or_nowhere(tmp_path: Path) -> None:
    readme = "# Server\n\n```bash\ndocker build -t srv -f server/Dockerfile .\n```\n"
    # from the root, `../engine` is the context's `engine`: the build copies it
    make_tree(tmp_path / "proj", _ENGINE)
    result = audit_tree(tmp_path / "proj", {"README.md": readme})
    assert "COPY ../engine" not in result.out
    # a folder no copy of the project holds (a submodule left out) is not this rule's to tell
    readme = "# Server\n\n```bash\ndocker build -t srv .\n```\n"
    files = {"server/Dockerfile": _ENGINE["server/Dockerfile"], "server/README.md": readme}
    make_tree(tmp_path / "other", files)
    assert "COPY ../engine" not in audit_tree(tmp_path / "other" / "server", {}).out


def test_a_dockerfile_written_for_a_context_two_folders_up(tmp_path: Path) -> None:
    readme = (
        "# Gaudi\n\nBuild the image:\n\n```bash\ncd infer/gaudi\n"
        "docker build ../.. -f Dockerfile -t proj:hpu\n```\n"
    )
    files = {
        "README.md": "# proj\n",
        "pyproject.toml": "[project]\nname = 'proj'\n",
        "infer/gaudi/README.md": readme,
        "infer/gaudi/Dockerfile": "FROM vault.example.com/gaudi/pytorch:1.13\nCOPY ../../ /root/proj\n"
        "WORKDIR /root/proj\nRUN pip install .\n",
    }
    make_tree(tmp_path / "proj", files)
    result = audit_tree(tmp_path / "proj" / "infer" / "gaudi", {})
    assert "COPY ../../" not in result.out


def test_a_folder_source_is_named_only_by_its_own_name() -> None:
    """`MadeFiles.named` of a folder written with its `/` (`data/`, as a COPY source reads) looks for the
    folder's name, not for an empty one that every README holds."""
    silent = MadeFiles(["# Trainer", "", "Build the image and run `train.py`."])
    assert not silent.named("data/")
    assert not silent.named("/")
    told = MadeFiles(["# Trainer", "", "Put the images in `data/` before the build."])
    assert told.named("data/")
    assert told.named("data")
