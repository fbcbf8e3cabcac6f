"""`docgen.audit.prose_scripts`: a script the prose tells to run by its path (`` build using
`builder/build.sh` ``) that is not in its folder, while the folder is there with other scripts, is a
finding; a script the sentence makes, one in a folder the repository does not have, one a slip away
from an existing script (`missing`'s `did you mean`) and one that is there are not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM ubuntu:24.04\nRUN echo hi\n"


def found(root: Path, sentence: str) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {
            "README.md": f"# App\n\n## Installation\n\n1. Pull the image, or {sentence}\n",
            "Dockerfile": DOCKERFILE,
            "builder/docker.sh": "#!/bin/sh\ndocker build .\n",
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", [model], {}, root)
        if "does not exist" in d.message
    ]


GONE = "README runs builder/build.sh, which does not exist (the scripts in builder/: docker.sh)"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # the folder is the repository's, the script the sentence runs is not in it
        ("build using `builder/build.sh`", [(5, GONE, "certain")]),
        ("run `./builder/build.sh` to build it", [(5, GONE, "certain")]),
        # the one that is there
        ("build using `builder/docker.sh`", []),
        # the reader makes it
        ("create `builder/build.sh` with the lines below", []),
        # no folder of that name: another layout, nothing to tell
        ("build using `tools/build.sh`", []),
        # run in the container: a path of the image
        ("run `builder/build.sh` inside the container", []),
        # not run: named only
        ("read the notes in `builder/build.md`", []),
    ],
)
def test_a_script_the_prose_runs_from_a_folder_of_the_repository(
    tmp_path: Path, sentence: str, expected: list[tuple[int, str, str]]
) -> None:
    assert found(tmp_path, sentence) == expected


def test_a_script_a_slip_away_is_left_to_did_you_mean(tmp_path: Path) -> None:
    messages = [m for _, m, _ in found(tmp_path, "build using `builder/dockr.sh`")]
    slip = "README names builder/dockr.sh, which does not exist (did you mean builder/docker.sh?)"
    assert messages == [slip]


# A script in a folder the checkout has nowhere, when the README clones this very repository

CLONING = """\
# app

```bash
git clone https://github.com/example/app.git
cd app
cp config/app.example.yaml config/app.yaml
```

The new model is served at once; then validate with
`./tests/tool_use/run.sh <NAME>`.
"""


def _clone_found(root: Path, readme: str, dockerfile: str = DOCKERFILE, example: bool = True) -> list[str]:
    files = {"README.md": readme, "Dockerfile": dockerfile, "scripts/add.sh": "#!/bin/sh\n"}
    make_tree(root, {**files, **({"config/app.example.yaml": "x: 1\n"} if example else {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message}"
        for d in audit(readme, "README.md", [model], {}, root)
        if "README runs" in d.message
    ]


def test_a_script_in_a_folder_a_clone_of_this_repository_has_not(tmp_path: Path) -> None:
    assert _clone_found(tmp_path, CLONING) == [
        "10: README runs tests/tool_use/run.sh, which does not exist (the repository has no tests/ folder)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "example"),
    [
        # the folder is the image's: the Dockerfile puts it there
        (CLONING, DOCKERFILE + "COPY tests/ /app/tests/\n", True),
        # the clone is another repository's (nothing the block reads is at this one's root)
        (CLONING, DOCKERFILE, False),
        # the README makes the folder (another checkout)
        (
            CLONING.replace("cd app\n", "cd app\ngit clone https://github.com/example/tests\n"),
            DOCKERFILE,
            True,
        ),
        # no clone: the README may follow another layout
        (CLONING.replace("git clone https://github.com/example/app.git\ncd app\n", ""), DOCKERFILE, True),
    ],
)
def test_a_missing_folder_that_is_no_drift(
    tmp_path: Path, readme: str, dockerfile: str, example: bool
) -> None:
    assert _clone_found(tmp_path, readme, dockerfile, example) == []


def test_a_line_of_many_script_paths_reads_each_from_its_last_separator(tmp_path: Path) -> None:
    """One line of prose holding hundreds of script paths in code: each path's words are read back to
    the last separator only (not cut from the line's start again for each), and the findings are the
    ones the sentence gives: the one run, missing script; not the made one, the one that is there, nor
    the many in a folder the repository has not."""
    many = " ".join(f"`tools/step{k}.sh`" for k in range(600))
    sentence = (
        f"see {many}; build using `builder/build.sh`, create `builder/new.sh`, run `builder/docker.sh`, "
        f"then {many} or run `builder/build.sh` again"
    )
    assert found(tmp_path, sentence) == [(5, GONE, "certain")]


@pytest.mark.parametrize(
    "line",
    [
        "run `a/b.sh`",
        "`a/b.sh` opens the line, run `a/b.sh`",
        "run `x` and then `a/b.sh`: call `a/b.sh`",
        "first ` a/b.sh ` then `a/b.sh`",
        "or ``a/b.sh`` with `a/b.sh`",
        "sandbox `a/b.sh`, orand use `c/d.sh`",
        "  `a/b.sh` after blanks",
        "no span here",
    ],
)
def test_the_words_before_a_span_are_the_ones_a_split_of_the_line_gives(line: str) -> None:
    """The words a span's first `` `code` `` follows, back to the last separator, are what splitting the
    text before it at every separator gives."""
    import re

    from docgen.audit.prose_scripts import Line
    from docgen.markdown import code_spans

    read = Line(line)
    for code in [content for _, _, content in code_spans(line)] + ["a/b.sh", "q/r.sh"]:
        start = read.start(code)
        before = line.split(f"`{code}`", 1)[0]
        assert start == len(before)
        assert read.words(start) == re.split(r"[,;:.!?]|\b(?:or|and|then)\b", before)[-1]
        assert (start <= read.lead) == (not before.strip())


# --------------------------------------------------------------------------------------------------
# a script's name with no folder that no file of the repository has (absent_prose_scripts)


def absent(root: Path, sentence: str, extra: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    readme = (
        "Render a scene\n\n./render ../scene.blend --python ../gpu_setup.py\n\n"
        f"To render from a folder on the host: {sentence}\n"
    )
    make_tree(
        root, {"README.md": readme, "Dockerfile": DOCKERFILE, "gpu_setup.py": "import sys\n", **(extra or {})}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root)
        if "does not exist in the repository" in d.message
    ]


ABSENT = (
    "README names enable_cuda.py, which does not exist in the repository (it names gpu_setup.py, a .py "
    "script the repository has)"
)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Make sure the enable_cuda.py script is available as well!", [(5, ABSENT, "likely")]),
        ("Keep `enable_cuda.py` next to the scene.", [(5, ABSENT, "likely")]),
        # the one it has
        ("Make sure the gpu_setup.py script is available as well!", []),
        # the reader makes it, it is the reader's own, another repository's, or the image's
        ("Create enable_cuda.py with the lines below.", []),
        ("Make sure your enable_cuda.py is available.", []),
        ("Get enable_cuda.py from https://example.org/tools first.", []),
        ("The image runs enable_cuda.py inside the container.", []),
        # a name every project has its own of, a slip of the one it has (`missing`'s)
        ("Make sure setup.py is available.", []),
        ("Make sure gpu-setup.py is available.", []),
        # a path with a folder: missing_prose_scripts'
        ("Make sure tools/enable_cuda.py is available.", []),
        # a citation of code (a line of it): most often the upstream package's or the base image's
        ("| `chat_nothink` template | present at `templates.py:2140` |", []),
        ("The handler is wired in `server.py:88-94`.", []),
        ("See `loader.py#L310` for the probe.", []),
        # a file the sentence places in the base image or in another project (a possessive)
        ("| `chat_nothink` template | present in the base at `templates.py` |", []),
        ("The launcher ships in the base image as enable_cuda.py already.", []),
        ("Call Blender-Tools' `enable_cuda.py` to switch devices.", []),
        ("Call TrainKit's `enable_cuda.py` to switch devices.", []),
        ("Call upstream's `enable_cuda.py` to switch devices.", []),
        # a number that is no line number, and words about a base that is no image: still a finding
        ("Make sure `enable_cuda.py` is available: version 2.", [(5, ABSENT, "likely")]),
        ("The database needs enable_cuda.py as well.", [(5, ABSENT, "likely")]),
        ("Check the based scenes with enable_cuda.py first.", [(5, ABSENT, "likely")]),
        # a placeholder that says in words which file to put there
        ("To start any of them: `chmod +x name_of_the_script.py; ./name_of_the_script.py`", []),
        ("Start one with `python3 SCRIPT_NAME.py --gpu 0`.", []),
        ("Start one with `python3 file_name.py`.", []),
        # a real name that holds `name` among words of its own
        (
            "Make sure the run_name.py script is available as well!",
            [(5, ABSENT.replace("enable_cuda.py", "run_name.py"), "likely")],
        ),
    ],
)
def test_a_script_name_no_file_has(
    tmp_path: Path, sentence: str, expected: list[tuple[int, str, str]]
) -> None:
    assert absent(tmp_path, sentence) == expected


def test_a_name_another_file_of_the_repository_names_is_silent(tmp_path: Path) -> None:
    sentence = "Make sure the enable_cuda.py script is available as well!"
    # a program writes it, or the Dockerfile copies it from elsewhere
    made = {"gpu_setup.py": "open('enable_cuda.py', 'w').write('x')\n"}
    assert absent(tmp_path / "a", sentence, made) == []
    # a note for readers naming it says no more than the README
    assert absent(tmp_path / "b", sentence, {"NOTES.txt": "enable_cuda.py is gone\n"}) == [
        (5, ABSENT, "likely")
    ]


def test_no_other_script_named_is_silent(tmp_path: Path) -> None:
    readme = "Render a scene\n\nMake sure the enable_cuda.py script is available as well!\n"
    make_tree(tmp_path, {"README.md": readme, "Dockerfile": DOCKERFILE, "gpu_setup.py": "x\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [d for d in audit(readme, "README.md", [model], {}, tmp_path) if "enable_cuda" in d.message] == []


def test_a_dangling_link_and_a_fifo_are_not_read(tmp_path: Path) -> None:
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    os.mkfifo(tmp_path / "pipe.sh")
    sentence = "Make sure the enable_cuda.py script is available as well!"
    assert absent(tmp_path, sentence) == [(5, ABSENT, "likely")]


def test_a_long_line_of_names_costs_its_length(tmp_path: Path) -> None:
    import time

    from docgen.audit.prose_scripts import absent_prose_scripts
    from docgen.markdown import read_document

    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "gpu_setup.py": "x\n"})
    names = " ".join(f"`n{i}.py`" for i in range(20_000))
    quiet = "Make sure your " + "x" * 200_000 + ".py and " + "b-" * 50_000 + "c.sh and " + names
    many = ". ".join(f"Keep n{i}.py" for i in range(20_000))  # each sentence allows a finding
    for line, count in ((quiet, 0), (many, 20_000)):
        readme = f"Run it\n\n./render --python ../gpu_setup.py\n\n{line}\n"
        started = time.monotonic()
        found = list(
            absent_prose_scripts(
                read_document(readme, "README.md"), readme.splitlines(), "README.md", tmp_path
            )
        )
        assert len(found) == count
        assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # the text of a link whose target is there (a label written in Chinese prose, another name
        # than the target's, as a whisper server's README links its examples): the link is the reference
        ("参考 [enable_cuda.py](samples/post_clip.py) 。", []),
        ("See [enable_cuda.py](./samples/post_clip.py#L3) for a client.", []),
        ("See [enable_cuda.py](samples/) for the clients.", []),
        ("See [`enable_cuda.py`](/samples/post_clip.py) for a client.", []),
        # a link whose target is missing too, a name outside the link: findings (a link out: `://`, silent)
        ("See [enable_cuda.py](samples/enable_cuda.py) for a client.", [(5, ABSENT, "likely")]),
        ("See [enable_cuda.py](https://example.org/enable_cuda.py) for a client.", []),
        ("Keep `enable_cuda.py` next to the scene, as [the samples](samples/) do.", [(5, ABSENT, "likely")]),
    ],
)
def test_a_link_text_whose_target_is_there(
    tmp_path: Path, sentence: str, expected: list[tuple[int, str, str]]
) -> None:
    assert absent(tmp_path, sentence, {"samples/post_clip.py": "import sys\n"}) == expected


# a script the sentence runs as the project's own (`use the helper `x.sh` script`), no other script named
def beside(root: Path, sentence: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    readme = f"# Notebook image\n\nBuild it with docker build.\n\n## On a cluster\n{sentence}\n"
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root)
        if "does not exist in the repository" in d.message
    ]


BESIDE = (
    "README names launch_lab.sh, which does not exist in the repository (the .sh scripts next to the "
    "README: make_sif.sh)"
)


@pytest.mark.parametrize(
    ("sentence", "files", "expected"),
    [
        ("To start it on a slurm node, use the helper `launch_lab.sh` script.", {}, [(6, BESIDE, "likely")]),
        ("Then run the provided script launch_lab.sh on the login node.", {}, [(6, BESIDE, "likely")]),
        ("Then execute the `launch_lab.sh` script and open the page it prints.", {}, [(6, BESIDE, "likely")]),
        # the folder holds it, or one of a slip of its name (`case_slips`' and `missing`'s)
        ("Use the helper `launch_lab.sh` script.", {"launch_lab.sh": "#!/bin/sh\n"}, []),
        ("Use the helper `launch_lab.sh` script.", {"launch-lab.sh": "#!/bin/sh\n"}, []),
        # the reader may bring it, writes it, or it is theirs or the image's
        ("Make sure the launch_lab.sh script is available.", {}, []),
        ("Use your own `launch_lab.sh` script.", {}, []),
        ("Create and run the `launch_lab.sh` script below.", {}, []),
        ("Inside the container, run the `launch_lab.sh` script.", {}, []),
        # a script of another kind only: the folder says nothing of its shell scripts
        ("Use the helper `launch_lab.sh` script.", {"make_sif.sh": None, "setup_env.py": "x\n"}, []),
    ],
)
def test_a_script_the_sentence_runs_that_its_folder_lacks(
    tmp_path: Path, sentence: str, files: dict[str, str | None], expected: list[tuple[int, str, str]]
) -> None:
    tree = {"make_sif.sh": "#!/bin/bash\nsingularity pull lab.sif docker://me/lab:v1\n"}
    tree.update({k: v for k, v in files.items() if v is not None})
    for k in [k for k, v in files.items() if v is None]:
        tree.pop(k)
    assert beside(tmp_path, sentence, tree) == expected


# a script the prose says the image's build runs, which no RUN of the Dockerfile runs: modelled on a TTS
# server whose README says "The `preload_models.py` script runs during Docker build" while its Dockerfile
# runs `uv run docker_models.py`, and on a ROS image whose notes say `fetch_deps.sh` is run at build time
# while the RUN lines run `install_deps.sh`
PRELOAD_IMAGE = (
    "FROM python:3.12-slim\nCOPY app /app\nWORKDIR /app\nRUN pip install uv && \\\n    uv sync\n"
    'RUN uv run docker_models.py\nCMD ["uv", "run", "proxy.py"]\n'
)
ROS_IMAGE = "FROM ros:humble\nCOPY scripts /opt/scripts\nRUN bash /opt/scripts/install_deps.sh\n"


def built(root: Path, sentence: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    readme = f"# Server\n\n## Docker\n\n{sentence}\n\n- downloads the models\n"
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root, root)
    ]


def test_a_script_the_prose_says_the_build_runs_that_no_run_runs(tmp_path: Path) -> None:
    sentence = "The `preload_models.py` script runs during Docker build to cache the models:"
    assert built(tmp_path, sentence, PRELOAD_IMAGE) == [
        "5: README says preload_models.py runs during the Docker build, but no RUN of the Dockerfile runs it"
        " (the build runs docker_models.py (Dockerfile:6)) (likely)"
    ]
    sentence = "The helper fetch_deps.sh is run at build time."
    assert built(tmp_path / "b", sentence, ROS_IMAGE) == [
        "5: README says fetch_deps.sh runs during the Docker build, but no RUN of the Dockerfile runs it"
        " (the build runs install_deps.sh (Dockerfile:3)) (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile", "extra"),
    [
        # the build runs it, or the repository has it
        ("The `docker_models.py` script runs during Docker build.", PRELOAD_IMAGE, {}),
        (
            "The `preload_models.py` script runs during Docker build.",
            PRELOAD_IMAGE,
            {"app/preload_models.py": "x\n"},
        ),
        # the build runs no script of its kind: nothing to set it against
        (
            "The `preload_models.py` script runs during Docker build.",
            "FROM python:3.12\nRUN pip install x\n",
            {},
        ),
        # not said to run at build time, or a script of another project
        ("The `preload_models.py` script caches the models.", PRELOAD_IMAGE, {}),
        ("Upstream's `preload_models.py` script runs during Docker build.", PRELOAD_IMAGE, {}),
        ("In your own image, `preload_models.py` runs during the build.", PRELOAD_IMAGE, {}),
    ],
)
def test_build_time_scripts_that_are_no_finding(
    tmp_path: Path, sentence: str, dockerfile: str, extra: dict[str, str]
) -> None:
    assert [f for f in built(tmp_path, sentence, dockerfile, extra) if "during the Docker build" in f] == []
