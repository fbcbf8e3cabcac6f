"""`docgen audit`: a build arg a README sets for `make TARGET` that the target's image build never
passes (docgen/audit/make_env.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "ARG PY=3.11\nFROM python:${PY}-slim\nARG CUDA_ARCH=8.6\nRUN echo building for ${CUDA_ARCH}\n"
MAKEFILE = """\
CUDA_ARCH ?= 8.6
PY ?= 3.11
IMAGE := trainer-sm$(CUDA_ARCH)

image: ## build the trainer image
\tdocker build \\
\t\t--build-arg PY=$(PY) \\
\t\t-t $(IMAGE) .

push: image
\tdocker push $(IMAGE)
"""
README = """\
# Trainer

```bash
export CUDA_ARCH=9.0  # H100
make image
```
"""


def found(
    root: Path, readme: str, makefile: str = MAKEFILE, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "Makefile": makefile, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "for make" in d.message
    ]


def test_an_export_the_target_never_passes(tmp_path: Path) -> None:
    assert found(tmp_path, README) == [
        (
            5,
            "README sets CUDA_ARCH=9.0 for make image, but the image build of its recipe (Makefile:6) does "
            "not pass CUDA_ARCH: Dockerfile keeps ARG CUDA_ARCH=8.6 (line 3); also at line 4",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "block",
    [
        "CUDA_ARCH=9.0 make image\n",
        "make image CUDA_ARCH=9.0\n",
        "$ make push CUDA_ARCH=9.0\n",  # through the prerequisite that builds
    ],
)
def test_a_variable_on_the_make_line(tmp_path: Path, block: str) -> None:
    [(line, message, confidence)] = found(tmp_path, f"# Trainer\n\n```sh\n{block}```\n")
    assert (line, confidence) == (4, "certain")
    assert "CUDA_ARCH=9.0" in message


@pytest.mark.parametrize(
    ("makefile", "files"),
    [
        # the recipe passes it: from the make variable, bare (the environment's), through a variable
        (
            MAKEFILE.replace(
                "--build-arg PY=$(PY)", "--build-arg PY=$(PY) --build-arg CUDA_ARCH=$(CUDA_ARCH)"
            ),
            {},
        ),
        (MAKEFILE.replace("--build-arg PY=$(PY)", "--build-arg PY=$(PY) --build-arg CUDA_ARCH"), {}),
        (
            MAKEFILE.replace("--build-arg PY=$(PY)", "$(ARGS)").replace(
                "PY ?= 3.11\n", "PY ?= 3.11\nARGS = --build-arg PY=$(PY) --build-arg CUDA_ARCH=$(CUDA_ARCH)\n"
            ),
            {},
        ),
        (
            MAKEFILE.replace(
                "--build-arg PY=$(PY)", "--build-arg PY=$(PY) --build-arg CUDA_ARCH=$${CUDA_ARCH}"
            ),
            {},
        ),
        # a variable name computed: any may be passed
        (
            MAKEFILE.replace("--build-arg PY=$(PY)", "$(foreach v,$(PASS),--build-arg $(v)=$($(v)))").replace(
                "PY ?= 3.11\n", "PY ?= 3.11\nPASS = PY $(filter CUDA_%,$(.VARIABLES))\n"
            ),
            {},
        ),
        # the makefile exports it, or everything
        ("export CUDA_ARCH\n" + MAKEFILE, {}),
        (".EXPORT_ALL_VARIABLES:\n" + MAKEFILE, {}),
        # a script builds and holds the name, or cannot be read
        (
            MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\t./build.sh\n"),
            {"build.sh": 'docker build --build-arg CUDA_ARCH="${CUDA_ARCH:-8.6}" .\n'},
        ),
        (MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\tbash scripts/missing.sh\n"), {}),
        # a recipe that hands the environment on: compose, bake, a sub-make
        (MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\tdocker compose build\n"), {}),
        (MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\t$(MAKE) -C base\n"), {}),
        # the target is made by a pattern rule, or sets the variable for itself
        (MAKEFILE.replace("image: ## build the trainer image", "%-image:"), {}),
        (MAKEFILE.replace("push: image", "image: CUDA_ARCH = 9.0\npush: image"), {}),
        # an include may hold another rule for it
        ("include local.mk\n" + MAKEFILE, {"local.mk": ""}),
    ],
)
def test_traps_stay_silent(tmp_path: Path, makefile: str, files: dict[str, str]) -> None:
    assert found(tmp_path, README, makefile, files) == []


@pytest.mark.parametrize(
    "readme",
    [
        README.replace("9.0", "8.6"),  # the Dockerfile's own default
        README.replace("make image", "make push-docs"),  # no such rule
        README.replace("export CUDA_ARCH=9.0  # H100", "export HF_TOKEN=abc"),  # no ARG of that name
        README.replace("export CUDA_ARCH=9.0  # H100", "export CUDA_ARCH=$(nvidia-smi --query)"),
        README.replace("make image", "cd trainer\nmake image"),  # another folder
        README.replace("make image", "docker run --rm app\nmake image"),  # elsewhere
        "# Trainer\n\n```bash\nexport CUDA_ARCH=9.0\n```\n\n```bash\nmake image\n```\n",  # another block
        "# Trainer\n\n```bash\nexport CUDA_ARCH=9.0\nmake clean\n```\n",  # no build
    ],
)
def test_readme_traps_stay_silent(tmp_path: Path, readme: str) -> None:
    makefile = MAKEFILE + "\nclean:\n\trm -rf build\n"
    assert found(tmp_path, readme, makefile) == []


def test_a_script_read_whole_without_the_name(tmp_path: Path) -> None:
    makefile = MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\t./prepare.sh\n")
    [(_, _, confidence)] = found(tmp_path, README, makefile, {"prepare.sh": "mkdir -p out\n"})
    assert confidence == "certain"


def test_an_unknown_program_or_variable_is_likely(tmp_path: Path) -> None:
    makefile = MAKEFILE.replace("image: ## build the trainer image\n", "image:\n\tfetch-weights --all\n")
    assert [c for *_, c in found(tmp_path, README, makefile)] == ["likely"]
    makefile = MAKEFILE.replace("--build-arg PY=$(PY)", "--build-arg PY=$(PY) $(EXTRA)")
    assert [c for *_, c in found(tmp_path, README, makefile)] == ["likely"]
