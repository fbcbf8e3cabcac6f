"""`docgen audit`: an environment variable a README names (a code span of its own, `-e NAME`) that
nothing of the project knows, one slip from exactly one name the image, a file beside it or a GPU
container runtime knows (docgen/audit/env_slips.py): "did you mean …?".

Each rule: a planted drift next to the nearest true statement (a trap). The shapes are modelled on two
kinds of README: a robotics image listing the NVIDIA runtime's variables as a numbered list of bold code
spans beside a run script passing `-e`, and an application image with a table of its own settings read
by an entrypoint script.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.env_slips import SlipIndex
from docgen.audit.missing import one_slip
from docgen.hardware import runtime_reads, runtime_variables
from docgen.pipeline import build_model

IMAGE = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
ARG SIM_RELEASE=harmonic
ENV NVIDIA_VISIBLE_DEVICES=all
ENV NVIDIA_DRIVER_CAPABILITIES=graphics,utility
ENV RENDER_QUALITY=high
COPY launch.sh /launch.sh
ENTRYPOINT ["/launch.sh"]
"""
LAUNCH = """\
#!/bin/sh
: "${OUTPUT_FOLDER:=/out}"
: "${MODEL_PATHS:=/models}"
exec sim --quality "$RENDER_QUALITY" --out "$OUTPUT_FOLDER"
"""
RUN = """\
#!/bin/bash
docker run --rm --gpus all -e NVIDIA_DRIVER_CAPABILITIES=graphics,utility,video -e DISPLAY \\
  -v /tmp/.X11-unix:/tmp/.X11-unix org/sim-desktop:latest
"""


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    tree = {"Dockerfile": IMAGE, "launch.sh": LAUNCH, "run-sim.sh": RUN, "README.md": readme}
    make_tree(root, {**tree, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "did you mean" in d.message and d.message.startswith("README names ")
    ]


def slip(name: str, where: str, meant: str) -> str:
    said = f"README names {name}, which nothing of the project sets or reads"
    return f"{said}; {where} {meant} (did you mean {meant}?)"


def test_a_listed_runtime_variable_one_letter_off_is_told_with_the_name_meant(tmp_path: Path) -> None:
    readme = """\
# Simulator desktop

## Variables of the NVIDIA container runtime
1. **`NVIDIA_VISIBLE_DEVICES`** : the GPUs the container sees.<br>
2. **`NVIDIA_DRIVER_CAPABILITES`** : the driver libraries mounted in.<br>
3. **`NVIDIA_REQUIRE_*`** : constraints on the host.<br>
4. **`NVIDIA_DISABEL_REQUIRE`** : turns every constraint off.<br>
5. **`NVIDIA_REQUIRE_BRAND`** : a constraint on the GPU brand.<br>
6. **`NVIDIA_MIG_CONFIG_DEVICES`** : the GPUs whose MIG setup the container may change.
"""
    assert found(tmp_path, readme) == [
        (5, slip("NVIDIA_DRIVER_CAPABILITES", "Dockerfile:4 sets", "NVIDIA_DRIVER_CAPABILITIES"), "likely"),
        (
            7,
            slip("NVIDIA_DISABEL_REQUIRE", "the NVIDIA container runtime reads", "NVIDIA_DISABLE_REQUIRE"),
            "likely",
        ),
    ]


def test_a_setting_of_the_entrypoint_misspelt_in_a_table_or_a_run_command_is_told(tmp_path: Path) -> None:
    readme = """\
# Simulator desktop

| Variable | Meaning |
|---|---|
| `RENDER_QAULITY` | low, medium or high |
| `OUTPUT_FOLDER` | where frames go |

```bash
docker run --rm --gpus all -e OUTPUT_FOLDR=/data org/sim-desktop:latest
```
"""
    assert found(tmp_path, readme) == [
        (5, slip("RENDER_QAULITY", "Dockerfile:5 sets", "RENDER_QUALITY"), "likely"),
        (9, slip("OUTPUT_FOLDR", "launch.sh:2 names", "OUTPUT_FOLDER"), "likely"),
    ]


@pytest.mark.parametrize(
    "said",
    [
        # a plural of a name of the project: both may be real
        "Set `MODEL_PATH` to the folder of one model.",
        # another GPU stack's variable of the same family: both real
        "On AMD GPUs use `HIP_VISIBLE_DEVICES` instead of `CUDA_VISIBLE_DEVICES`.",
        # a constraint of the NVIDIA runtime's NVIDIA_REQUIRE_* family
        "Set `NVIDIA_REQUIRE_DRIVER` to pin the host driver.",
        # the README assigns the name itself in a command block
        "Then pass `RENDER_QUALITI` on:\n\n```bash\nexport RENDER_QUALITI=high\n```",
        # the line names both: a contrast, not a slip
        "`RENDER_QUALITI` was renamed to `RENDER_QUALITY`.",
        # a digit edited: another variable
        "Set `SIM_RELEASE2` for the second release.",
        # a short part changed: another word (`MODE` for `NODE`)
        "Set `OUTPUT_MODE` to `video`.",
        # a name no known name is one slip from
        "Set `PYTORCH_CUDA_ALLOC_CONF` to tune the allocator.",
        # a name a file of the project reads as written
        "Set `OUTPUT_FOLDER` to move the frames.",
        # an edit of a `_`: not read as a slip
        "Set `OUTPUTFOLDER` or `OUTPUT_FOLDER`.",
    ],
)
def test_names_that_are_no_slip_are_silent(tmp_path: Path, said: str) -> None:
    files = {"nodes.py": "import os\nNODE = os.environ.get('OUTPUT_NODE')\n"}
    assert found(tmp_path, f"# Simulator desktop\n\n{said}\n", files) == []


def test_two_names_one_slip_away_are_silent(tmp_path: Path) -> None:
    files = {"worker.py": "import os\nA = os.environ['FRAME_STARTS']\nB = os.environ['FRAME_STARTED']\n"}
    # FRAME_STARTES is one slip from both FRAME_STARTS and FRAME_STARTED
    readme = "# Sim\n\nSet `FRAME_STARTES` first.\n"
    assert found(tmp_path, readme, files) == []
    files = {"worker.py": "import os\nA = os.environ['SCENE_LOADER']\nB = os.environ['SCENE_LOADED']\n"}
    assert found(tmp_path, "# Sim\n\nSet `SCENE_LOADEX` first.\n", files) == []


def test_a_name_a_build_defines_with_minus_d_is_known(tmp_path: Path) -> None:
    # `-DSOLVER_USE_MPI=ON` defines SOLVER_USE_MPI: the name the README says is the one the build sets, not
    # a slip of the word `DSOLVER_USE_MPI` the `-D` runs into
    build = "build.sh"
    files = {build: "#!/bin/sh\ncmake -S . -B out -DSOLVER_USE_MPI=ON -DSOLVER_WITH_FORTRAN=OFF\n"}
    readme = "# Sim\n\nThe build sets `SOLVER_USE_MPI`; `SOLVER_WITH_FORTRAN` stays off.\n"
    assert found(tmp_path, readme, files) == []
    # a slip of the defined name is still told
    assert found(tmp_path, "# Sim\n\nThe build sets `SOLVER_WITH_FORTRAM`.\n", files) == [
        (3, slip("SOLVER_WITH_FORTRAM", "build.sh:2 names", "SOLVER_WITH_FORTRAN"), "likely")
    ]


def test_one_slip_reads_one_part() -> None:
    assert one_slip(["MAJESTICL"], ["MAJESTIC"])
    assert one_slip(["MODEL", "PAHT"], ["MODEL", "PATH"])  # a swap in four letters
    assert not one_slip(["MODEL", "MATH"], ["MODEL", "PATH"])  # a change in four letters
    assert not one_slip(["worker"], ["workers"])
    assert one_slip(["DEVICE"], ["DEVICES"], closed=True)
    assert not one_slip(["GPU", "DEVICE"], ["CPU", "DEVICE"])
    assert not one_slip(["render", "v1"], ["render", "v2"])


def test_the_runtime_table() -> None:
    assert runtime_variables()["NVIDIA_DISABLE_REQUIRE"] == "the NVIDIA container runtime"
    assert runtime_reads("NVIDIA_REQUIRE_ARCH") and runtime_reads("HIP_VISIBLE_DEVICES")
    assert not runtime_reads("NVIDIA_REQUIRE_") and not runtime_reads("NVIDIA_DIABLE_REQUIRE")


def test_the_index_finds_the_names_with_all_parts_but_one() -> None:
    index = SlipIndex(["RENDER_QUALITY", "RENDER_QUEUE", "OUTPUT_QUALITY", "RENDER_QUALITY_MAX"])
    assert sorted(index.near("RENDER_QAULITY")) == ["RENDER_QUALITY", "RENDER_QUEUE"]
    assert index.near("RENDER_QUALITY") == ["OUTPUT_QUALITY", "RENDER_QUEUE"]


def test_many_names_on_both_sides_are_read_in_linear_time(tmp_path: Path) -> None:
    files = {"settings.py": "".join(f"SETTING_{n:05d}_VALUE = 1\n" for n in range(20_000))}
    readme = (
        "# Sim\n\n" + "".join(f"- `OPTION_{n:05d}_VALUE`\n" for n in range(5_000)) + "- `RENDER_QUALTY`\n"
    )
    assert [f[0] for f in found(tmp_path, readme, files)] == [5_003]


# A model-bundle image whose README names the model variable by another name than the build arg, and a
# speech image whose README pastes settings the image knows.
BUNDLE = """\
FROM ollama/ollama
ARG MODEL_LIST="llama3.2:1b qwen2:0.5b"
ARG PULL_RETRIES=3
ENV OLLAMA_HOST=0.0.0.0:8000
RUN ollama serve & sleep 5 && for m in $MODEL_LIST; do ollama pull "$m"; done
ENTRYPOINT ["ollama", "serve"]
"""
BUNDLE_README = """\
# Model bundle

Bundles `llama3.2:1b qwen2:0.5b` by default; the `MODEL_CHOICE` environment variable changes it.

Paste these variables into the service's settings:

```
MODEL_CHOICE=
RETRY_COUNT=
```

- `RETRY_COUNT`: how many times a pull is retried (default `3`).
"""


def bundle(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": BUNDLE, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "which nothing of the project sets or reads" in d.message
    ]


def test_a_variable_nothing_reads_given_the_default_of_another(tmp_path: Path) -> None:
    # RETRY_COUNT's default 3 is too common a value to tie it to PULL_RETRIES, and shares no part
    assert bundle(tmp_path, BUNDLE_README) == [
        (
            3,
            "README names MODEL_CHOICE, which nothing of the project sets or reads, with the value "
            "llama3.2:1b qwen2:0.5b; Dockerfile:2 declares MODEL_LIST with that default (did you mean "
            "MODEL_LIST?)",
            "likely",
        )
    ]


def test_silent_when_the_variable_is_the_readmes_own_or_named_beside(tmp_path: Path) -> None:
    # the README's commands expand what it assigns: a shell variable of its own
    own = BUNDLE_README.replace("RETRY_COUNT=\n```", "RETRY_COUNT=\necho $MODEL_CHOICE\n```")
    assert bundle(tmp_path, own) == []
    # the line names the build arg too (`use X, not Y`)
    both = BUNDLE_README.replace("changes it.", "changes it (the build arg `MODEL_LIST`).")
    assert bundle(tmp_path, both) == []
    # another value than the default: nothing ties the two
    other = BUNDLE_README.replace("`llama3.2:1b qwen2:0.5b`", "`phi3:mini`")
    assert bundle(tmp_path, other) == []
    # a variable a library reads (the app may read it whatever the Dockerfile says)
    token = BUNDLE_README.replace("MODEL_CHOICE", "MODEL_TOKEN")
    assert bundle(tmp_path, token) == []
    # said as a build arg: a build arg no Dockerfile declares is another rule's
    built = BUNDLE_README.replace("the `MODEL_CHOICE` environment variable", "the build arg `MODEL_CHOICE`")
    assert bundle(tmp_path, built.replace("MODEL_CHOICE=\n", "")) == []
    # no part shared
    unrelated = BUNDLE_README.replace("MODEL_CHOICE", "BUNDLED_SET")
    assert bundle(tmp_path, unrelated) == []
