"""`docgen.audit.script_copies`: a README block that shows the content of a script of the repository
(```` ```bash:launch.sh ````, a heading that is the script's name, words saying what the script runs, or
the command block right under one that only runs the script) is compared with the script's `docker run`:
options the copy lacks or adds, another value, another image. Invocations of the script, excerpts,
other ways to run, scripts not in the repository and tutorials building a script up are no copies."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.model import ImageModel
from docgen.pipeline import build_model

DOCKERFILE = 'FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y curl\nCMD ["bash"]\n'

# A launcher kept beside the README (the shape of a robotics dev-container repository: variables set
# at the top, then one long `docker run`).
LAUNCH = """\
HOST_USER=kenji
PROJECT=code/rover/ws
DISTRO=humble

docker run --rm -it --privileged \\
    --gpus all \\
    --net=host \\
    -v /tmp/.X11-unix:/tmp/.X11-unix \\
    -v /home/$HOST_USER/$PROJECT:/home/dev/ws \\
    -e DISPLAY=$DISPLAY \\
    --name rover-dev \\
    rover-dev:$DISTRO
"""

# The README's copy of it, in a fence whose info string names the file (`lang:file`), the values the
# reader sets left as placeholders; it has lost `--net=host`.
QIITA = """\
# rover-dev

## Run

Set `HOST_USER` and `PROJECT` in launch.sh first:

```bash:launch.sh
HOST_USER=<your host user>
PROJECT=<folder of the workspace>

docker run --rm -it --privileged \\
    --gpus all \\
    -v /tmp/.X11-unix:/tmp/.X11-unix \\
    -v /home/$HOST_USER/$PROJECT:/home/dev/ws \\
    -e DISPLAY=$DISPLAY \\
    --name rover-dev \\
    rover-dev:humble
```

Then:

```bash
bash launch.sh
```
"""

# A web UI started by a script, the README showing the command under the block that runs it (the
# shape of a stable-diffusion setup repository); its mount of the results folder has since changed.
START = """\
docker run -itd \\
    --net host \\
    -v /srv/$USER/webui/models:/app/models \\
    -v /srv/$USER/webui/result:/app/result \\
    --gpus all \\
    --restart always \\
    webui-gpu
"""

ADJACENT = """\
# webui

start the web UI container

```shell
bash start_webui.sh
```

```shell
docker run -itd \\
    --net host \\
    -v /srv/$USER/webui/models:/app/models \\
    -v /srv/$USER/webui/results:/app/results \\
    --gpus all \\
    --restart always \\
    webui-gpu
```
"""


def _copies(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    models: list[ImageModel] = [build_model(root / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "README's copy of" in d.message and ".sh" in d.message
    ]


def test_a_copy_named_by_its_fence_lacks_an_option_the_script_passes(tmp_path: Path) -> None:
    assert _copies(tmp_path, QIITA, {"launch.sh": LAUNCH}) == [
        "11: README's copy of launch.sh lacks --net=host, which launch.sh:7 passes (certain)"
    ]


def test_the_command_under_the_block_running_the_script_mounts_another_folder(tmp_path: Path) -> None:
    assert _copies(tmp_path, ADJACENT, {"start_webui.sh": START}) == [
        "13: README's copy of start_webui.sh passes -v /srv/$USER/webui/results:/app/results where "
        "start_webui.sh:4 passes -v /srv/$USER/webui/result:/app/result (likely)"
    ]


def test_a_copy_under_words_saying_what_the_script_runs(tmp_path: Path) -> None:
    # (the shape of a deployment README: "… it uses `start.sh`, which runs:")
    readme = """\
# webui

The service starts through `start_webui.sh`, which runs:

```bash
docker run -itd --net host -v /srv/$USER/webui/models:/app/models --gpus all --restart always webui-gpu:2
```
"""
    assert _copies(tmp_path, readme, {"start_webui.sh": START}) == [
        "6: README's copy of start_webui.sh lacks -v /srv/$USER/webui/result:/app/result, which "
        "start_webui.sh:4 passes (likely)",
        "6: README's copy of start_webui.sh runs the image webui-gpu:2 where start_webui.sh:7 runs webui-gpu "
        "(likely)",
    ]


def test_a_heading_naming_the_script_over_its_copy(tmp_path: Path) -> None:
    readme = """\
# tracker

### ~/tracker/run.sh

```bash
#!/bin/bash
docker run -d -v /var/lib/tracker:/data -e TRACKER_DB=/data/db.sqlite tracker/app
```
"""
    script = "#!/bin/bash\ndocker run -d -v /var/lib/tracker:/data -e TRACKER_DB=/data/t.sqlite tracker/app\n"
    assert _copies(tmp_path, readme, {"run.sh": script}) == [
        "7: README's copy of run.sh passes -e TRACKER_DB=/data/db.sqlite where run.sh:2 passes "
        "-e TRACKER_DB=/data/t.sqlite (certain)"
    ]


def test_copies_that_agree_with_their_script(tmp_path: Path) -> None:
    files = {"launch.sh": LAUNCH}
    current = QIITA.replace("    --gpus all \\\n", "    --gpus all \\\n    --net host \\\n")
    spelled = current.replace("--rm -it", "--rm -i -t").replace("--net host", "--network=host")
    variable = current.replace("rover-dev:humble", "rover-dev:$DISTRO")  # set by the script
    for readme in (current, spelled, variable):
        assert _copies(tmp_path, readme, files) == [], readme
    # written with other variables for the same folder
    home = ADJACENT.replace("/srv/$USER/webui/results:/app/results", "$HOME/webui/result:/app/result")
    script = START.replace("/srv/$USER/webui/result:", "/home/$USER/webui/result:")
    assert _copies(tmp_path, home, {"start_webui.sh": script}) == []


def test_blocks_that_are_no_copy_of_the_script(tmp_path: Path) -> None:
    files = {"start_webui.sh": START}
    traps = [
        # an invocation of the script with its arguments
        ADJACENT.replace("bash start_webui.sh", "./start_webui.sh --port 7861").replace(
            "```shell\ndocker run", "```shell\n./start_webui.sh --share\n```\n\n```text\nno docker run"
        ),
        # another way to run, under its own words
        ADJACENT.replace(
            "```\n\n```shell\ndocker", "```\n\nOr run it directly, without the script:\n\n```shell\ndocker"
        ),
        # an abridged copy
        ADJACENT.replace("    --gpus all \\\n", "    ... \\\n"),
    ]
    for readme in traps:
        assert _copies(tmp_path, readme, files) == [], readme
    # the script is not in the repository
    assert _copies(tmp_path / "none", ADJACENT, {}) == []
    # the words name the script but present an excerpt
    excerpt = """\
An excerpt of `start_webui.sh`, which runs:

```bash
docker run -d --gpus all webui-gpu
```
"""
    assert _copies(tmp_path / "excerpt", excerpt, files) == []


def test_a_script_the_readme_builds_up_step_by_step(tmp_path: Path) -> None:
    # (the shape of a tutorial: the file is written in steps, each block fenced with its name)
    readme = """\
# Step 1

```bash:launch.sh
docker run --rm -it rover-dev:humble
```

# Step 2

```bash:launch.sh
docker run --rm -it --gpus all rover-dev:humble
```
"""
    assert _copies(tmp_path, readme, {"launch.sh": LAUNCH}) == []


def test_scripts_whose_docker_run_cannot_be_compared(tmp_path: Path) -> None:
    # options from a variable alone: the copy's extra option may come from it
    opened = 'OPTS="--shm-size 8g"\ndocker run -d $OPTS --net host webui-gpu "$@"\n'
    readme = ADJACENT.replace(
        ADJACENT[ADJACENT.index("```shell\ndocker") :],
        "```shell\ndocker run -d --shm-size 8g --net host webui-gpu\n```\n",
    )
    assert _copies(tmp_path, readme, {"start_webui.sh": opened}) == []
    # two runs in the script: which one the block copies is not known
    two = START + "docker run -d --name second webui-gpu\n"
    assert _copies(tmp_path / "two", ADJACENT, {"start_webui.sh": two}) == []
    # an option docgen does not know
    odd = START.replace("--restart always", "--frobnicate always")
    assert _copies(tmp_path / "odd", ADJACENT, {"start_webui.sh": odd}) == []


def test_the_next_step_under_a_block_running_a_build_script(tmp_path: Path) -> None:
    # (a build script that also tries the image once; the README's next block runs it for real)
    build = "docker build -t webui-gpu .\ndocker run --rm webui-gpu python -c 'import torch'\n"
    readme = """\
# webui

```bash
bash build.sh
```

```bash
docker run -itd --gpus all --net host -v /srv/models:/app/models -p 7860:7860 webui-gpu
```
"""
    assert _copies(tmp_path, readme, {"build.sh": build}) == []


def test_values_docgen_does_not_work_out_are_not_compared(tmp_path: Path) -> None:
    # (a launcher reading its settings from the environment with defaults)
    script = START.replace("--restart always", "-e WEBUI_PORT=${WEBUI_PORT:-7860} --restart always")
    readme = ADJACENT.replace("webui/results:/app/results", "webui/result:/app/result").replace(
        "--restart always", "-e WEBUI_PORT=7860 --restart always"
    )
    assert _copies(tmp_path, readme, {"start_webui.sh": script}) == []
    # the same, with a value that truly differs: reported
    moved = readme.replace("WEBUI_PORT=7860 ", "WEBUI_PORT=7860 --shm-size=8g ")
    assert _copies(tmp_path / "moved", moved, {"start_webui.sh": script}) == [
        "15: README's copy of start_webui.sh passes --shm-size=8g, which start_webui.sh does not pass "
        "(likely)"
    ]


def test_a_copy_said_to_look_like_the_script(tmp_path: Path) -> None:
    readme = """\
`run.sh` looks like this:

```bash
docker run -d -v /var/lib/tracker:/data -e TRACKER_DB=/data/db.sqlite tracker/app
```
"""
    script = "#!/bin/bash\ndocker run -d -v /var/lib/tracker:/data -e TRACKER_DB=/data/t.sqlite tracker/app\n"
    assert _copies(tmp_path, readme, {"run.sh": script}) == [
        "4: README's copy of run.sh passes -e TRACKER_DB=/data/db.sqlite where run.sh:2 passes "
        "-e TRACKER_DB=/data/t.sqlite (likely)"
    ]
    # something like it is another way
    assert (
        _copies(tmp_path, readme.replace("looks like this", "runs something like this"), {"run.sh": script})
        == []
    )
