"""`docgen audit`: `make TARGET` commands against the rules of the Makefile `make` reads
(docgen/audit/make_targets.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
MAKEFILE = """\
.PHONY: image shell-gpu gpu-shell
image: ## Build the image
\tdocker build -t app .
shell-gpu: image
\tdocker run --gpus all -it app
%-push: image
\tdocker push app:$*
"""


def found(root: Path, readme: str, where: str = "") -> list[tuple[int, str, str]]:
    make_tree(root, {f"{where}Dockerfile": APP, "Makefile": MAKEFILE, f"{where}README.md": readme})
    model = build_model(root / where / "Dockerfile", "Dockerfile")
    text = (root / where / "README.md").read_text(encoding="utf-8")
    findings = audit(text, "README.md", model, {}, root / where, root)
    return [(d.line, d.message, d.confidence) for d in findings]


def test_a_target_only_listed_as_phony(tmp_path: Path) -> None:
    readme = "# App\n\n```sh\nmake image\nmake gpu-shell\n```\n"
    said = "README runs make gpu-shell, but no rule of Makefile makes it (did you mean shell-gpu?)"
    assert found(tmp_path, readme) == [(5, said, "certain")]


def test_inline_code_and_a_makefile_above(tmp_path: Path) -> None:
    readme = "# App\n\n1. Build: `make image`\n2. Start a shell: `make gpu-shell`\n"
    said = "README runs make gpu-shell, but no rule of ../../Makefile makes it (did you mean shell-gpu?)"
    assert found(tmp_path, readme, "containers/gpu/") == [(4, said, "likely")]


@pytest.mark.parametrize(
    "block",
    [
        "make image shell-gpu",  # rules it has
        "make -j4 image V=1",  # an option's value and a variable
        "make cuda-push",  # a pattern rule makes it
        "make -C docs html",  # another folder's Makefile
        "cd docs && make html",  # after a `cd`
        "docker run -it app bash\nmake gpu-shell",  # in the container
        "make <target>",  # a placeholder
        "# make gpu-shell",  # a comment
        "make",  # the default goal
    ],
)
def test_targets_made_or_not_read(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, f"# App\n\n```sh\n{block}\n```\n") == []


# A Makefile building one image per platform (a robotics stack's docker/ folder), each rule named for the
# architecture while the Dockerfiles are named for the board.
PLATFORMS = """\
all: amd64 arm64

amd64:
\t@docker build -t acme/slam:x86 -f ./Dockerfile.x86 ..

amd64_cpu:
\t@docker build -t acme/slam:x86_cpu -f ./Dockerfile.x86_cpu ..

arm64:
\t@docker build -t acme/slam:arm64 -f ./Dockerfile.arm64 ..
"""
DOCKERFILES = {f"Dockerfile.{n}": "FROM ubuntu:22.04\n" for n in ("x86", "x86_cpu", "arm64", "jetson")}


def named(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {**DOCKERFILES, "Makefile": PLATFORMS, "README.md": readme})
    models = [build_model(root / name, name) for name in DOCKERFILES]
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", models, {}, root, root)]


def test_a_target_prose_names_with_its_dockerfile(tmp_path: Path) -> None:
    readme = (
        "# SLAM images\n\n```\nmake amd64\n```\n\n## CPU only\n\n"
        "Targets arm64 (Dockerfile.arm64) and x86_cpu (`Dockerfile.x86_cpu`) build images without CUDA.\n"
    )
    said = (
        "README names x86_cpu as the make target of Dockerfile.x86_cpu, but no rule of Makefile makes it; "
        "rule amd64_cpu builds Dockerfile.x86_cpu (Makefile:7)"
    )
    assert named(tmp_path, readme) == [(9, said, "likely")]


@pytest.mark.parametrize(
    "sentence",
    [
        # the rule's own name
        "Target amd64_cpu (Dockerfile.x86_cpu) builds the CPU image.",
        # no word of make targets: the name is the image's, not a rule's
        "The x86_cpu image (Dockerfile.x86_cpu) has no CUDA.",
        # a Dockerfile no rule builds, or that two rules build
        "Target jetson (Dockerfile.jetson) is for boards.",
        # a placeholder
        "Pick a target <name> (Dockerfile.<name>).",
    ],
)
def test_prose_targets_that_agree_or_say_nothing(tmp_path: Path, sentence: str) -> None:
    assert named(tmp_path, f"# SLAM images\n\n{sentence}\n") == []


def test_a_dockerfile_two_rules_build(tmp_path: Path) -> None:
    makefile = PLATFORMS + "\nx86_cpu_dev:\n\t@docker build -t acme/slam:dev -f ./Dockerfile.x86_cpu ..\n"
    make_tree(tmp_path, {"Makefile": makefile})
    readme = "# SLAM\n\nTarget x86_cpu (Dockerfile.x86_cpu) builds the CPU image.\n"
    make_tree(tmp_path, {**DOCKERFILES, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in DOCKERFILES]
    assert audit(readme, "README.md", models, {}, tmp_path, tmp_path) == []


# A segmentation zoo's Makefile: one run rule a data set, none a model.
ZOO = """\
docker_build:
\tdocker build -t zoo -f docker/Dockerfile .

run_cityscape:
\tpython zoo/run.py configs/cityscape.yaml

run_ade20k:
\tpython zoo/run.py configs/ade20k.yaml
"""


def filled(root: Path, readme: str, makefile: str = ZOO) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "Makefile": makefile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "with [" in d.message or "with <" in d.message
    ]


def test_a_placeholder_target_filled_from_the_line_above(tmp_path: Path) -> None:
    readme = (
        "# Zoo\n\n4) Run a model. `UNet`, `PSPNet` and `FastFCN` are available in `[model name]`\n"
        "```\nmake run_[model name]\n```\n"
    )
    assert filled(tmp_path, readme) == [
        (
            5,
            "README runs make run_[model name] with [model name] one of UNet, PSPNet, FastFCN (line 3), but "
            "no rule of Makefile makes run_UNet, run_PSPNet or run_FastFCN (its run_… rules: run_ade20k "
            "(Makefile:7), run_cityscape (Makefile:4))",
            "likely",
        )
    ]


def test_a_placeholder_target_filled_from_a_list_and_a_table(tmp_path: Path) -> None:
    # a speech toolkit's README: `make train-<recipe>` with the recipes listed under it
    makefile = (
        "train-librispeech:\n\tpython train.py librispeech\n\ntrain-tedlium:\n\tpython train.py tedlium\n"
    )
    listed = (
        "# Speech\n\nTrain with:\n\n```sh\nmake train-<recipe>\n```\n\nwhere `<recipe>` is one of:\n"
        "- librispeech\n- commonvoice: the Mozilla set\n"
    )
    [(line, said, confidence)] = filled(tmp_path, listed, makefile)
    assert (line, confidence) == (6, "likely")
    assert (
        "one of librispeech, commonvoice (line 9), but no rule of Makefile makes train-commonvoice " in said
    )
    tabled = (
        "# Speech\n\n```sh\nmake train-<recipe>\n```\n\n| Recipe | Hours |\n|---|---|\n"
        "| `librispeech` | 960 |\n| `tedlium` | 452 |\n| `voxpopuli` | 543 |\n"
    )
    [(line, said, confidence)] = filled(tmp_path / "tabled", tabled, makefile)
    assert (line, confidence) == (4, "certain")
    assert "(the table 7), but no rule of Makefile makes train-voxpopuli " in said


@pytest.mark.parametrize(
    "readme",
    [
        # every value has its rule
        "# Zoo\n\nPick `cityscape` or `ade20k` as `[dataset]`:\n```\nmake run_[dataset]\n```\n",
        # no line near it says which values the placeholder takes
        "# Zoo\n\n```\nmake run_[model name]\n```\n\nModels: `UNet`, `PSPNet`.\n\n" + "\n" * 20 + "Done.\n",
        "# Zoo\n\nRun a model with `make run_<model>`; see the docs for the models.\n",
        # a variable's value, not a target
        "# Zoo\n\nSet `<gpu>` to `0` or `1`:\n```\nmake docker_build GPU=<gpu>\n```\n",
        # a placeholder alone: the target itself, not read here
        "# Zoo\n\n`docker_build` and `run_cityscape` are the `<target>`s:\n```\nmake <target>\n```\n",
    ],
)
def test_placeholder_targets_made_or_not_read(tmp_path: Path, readme: str) -> None:
    assert filled(tmp_path, readme) == []


def test_a_pattern_rule_makes_every_value(tmp_path: Path) -> None:
    makefile = ZOO + "\nrun_%:\n\tpython zoo/run.py configs/$*.yaml\n"
    readme = "# Zoo\n\n`UNet`, `PSPNet` and `FastFCN` are available in `[model name]`\n"
    readme += "```\nmake run_[model name]\n```\n"
    assert filled(tmp_path, readme, makefile) == []


# a Makefile make stops reading ("missing separator"): every `make` of the README fails
_SPACED = (
    "secret:\n\tmkdir -p etc\n        echo ${APP_KEY} > etc/key.txt\n\n"
    "image: secret\n\tdocker build -t app .\n"
)


def _with_makefile(root: Path, readme: str, text: str, where: str = "") -> list[tuple[int, str, str]]:
    make_tree(root, {f"{where}Dockerfile": APP, "Makefile": text, f"{where}README.md": readme})
    model = build_model(root / where / "Dockerfile", "Dockerfile")
    findings = audit(readme, "README.md", model, {}, root / where, root)
    return [(d.line, d.message, d.confidence) for d in findings if "missing separator" in d.message]


def test_a_recipe_line_indented_with_spaces_stops_every_make(tmp_path: Path) -> None:
    readme = "# App\n\n```sh\nexport APP_KEY=<key>\nmake secret\n```\n\nThen:\n\n```sh\nmake image\n```\n"
    assert _with_makefile(tmp_path, readme, _SPACED) == [
        (
            5,
            "README runs make secret (line 5), make image (line 11), but Makefile:3 is indented with 8 "
            "spaces, not a tab (echo ${APP_KEY} > etc/key.txt): make stops reading Makefile there "
            '("missing separator"), so no target of it can be made',
            "likely",
        )
    ]


def test_plain_words_indented_with_spaces_are_certain(tmp_path: Path) -> None:
    text = "test:\n    pytest -q\n"
    readme = "# Tool\n\nRun `make test`.\n"
    assert _with_makefile(tmp_path, readme, text) == [
        (
            3,
            "README runs make test (line 3), but Makefile:2 is indented with 4 spaces, not a tab (pytest "
            '-q): make stops reading Makefile there ("missing separator"), so no target of it can be made',
            "certain",
        )
    ]
    # a Makefile above the README's folder: the README may mean another
    assert [c for _, _, c in _with_makefile(tmp_path / "up", readme, text, "docs/")] == ["likely"]


@pytest.mark.parametrize(
    ("readme", "text"),
    [
        ("# App\n\n```sh\nmake image\n```\n", _SPACED.replace("        echo", "\techo")),  # a tab
        ("# App\n\n```sh\nmake image\n```\n", ".RECIPEPREFIX = >\nimage:\n> docker build .\n"),
        ("# App\n\nBuild with docker.\n", _SPACED),  # the README runs no make
        ("# App\n\n```sh\nmake -C other image\n```\n", _SPACED),  # make reads another folder
    ],
)
def test_makefiles_make_reads_or_no_make(tmp_path: Path, readme: str, text: str) -> None:
    assert _with_makefile(tmp_path, readme, text) == []
