"""`docgen audit`: the targets a README's `docker buildx bake` commands name, against the bake file they
read (docgen/audit/bakes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
BAKE = """\
{
  "group": {"default": {"targets": ["py311-cu121"]}, "all": {"targets": ["py311-cu121", "py311-cu124"]}},
  "target": {
    "py311-cu121": {"dockerfile": "Dockerfile", "args": {"CUDA": "12.1"}},
    "py311-cu124": {"dockerfile": "Dockerfile", "args": {"CUDA": "12.4"}}
  }
}
"""


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


def test_a_bake_target_the_bake_file_does_not_define(tmp_path: Path) -> None:
    command = "REGISTRY=ghcr.io docker buildx bake \\\n    -f docker-bake.json --push cu121"
    readme = f"# Images\n\n```sh\n{command}\n```\n"
    assert found(tmp_path, {"docker-bake.json": BAKE, "README.md": readme}) == [
        (
            4,
            "README bakes cu121, which docker-bake.json does not define (did you mean py311-cu121?)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker buildx bake -f docker-bake.json --push py311-cu124",  # a target it defines
        "docker buildx bake all",  # a group, from the default bake file
        "docker bake --set '*.platform=linux/amd64' py311-cu121",  # an option with a value
        "docker buildx bake <target>",  # a placeholder
        "docker buildx bake ${TARGET}",
        "cd images && docker buildx bake cu121",  # another folder's files
        "make images; pushd images; docker buildx bake cu121",
        "docker buildx bake -f ../outside.json cu121",  # outside the project: not read
    ],
)
def test_targets_the_bake_file_defines_or_that_cannot_be_told_are_no_finding(
    tmp_path: Path, command: str
) -> None:
    files = {"docker-bake.json": BAKE, "README.md": f"# Images\n\n```bash\n{command}\n```\n"}
    assert found(tmp_path / "repo", files) == []


MATRIX = """\
target "solver" {
  name   = "solver-sm${item.sm}"
  matrix = { item = [{ sm = "80" }, { sm = "90" }] }
}
group "fast" { targets = ["solver-sm90"] }
"""


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("docker buildx bake solver-sm90", None),  # a target the matrix makes
        ("docker buildx bake solver", None),  # the matrix's own name: the group of them
        ("docker buildx bake fast", None),
        (
            "docker buildx bake solver-sm86",
            "README bakes solver-sm86, which docker-bake.hcl does not define (did you mean solver-sm80?)",
        ),
    ],
)
def test_the_targets_a_matrix_makes_are_defined_by_their_names(
    tmp_path: Path, command: str, said: str | None
) -> None:
    readme = f"# Images\n\n```sh\n{command}\n```\n"
    expected = [] if said is None else [(4, said, "certain")]
    assert found(tmp_path, {"docker-bake.hcl": MATRIX, "README.md": readme}) == expected


def test_a_bake_file_docgen_cannot_read_or_beside_a_compose_file_is_not_read(tmp_path: Path) -> None:
    readme = "# Images\n\n```sh\ndocker buildx bake cu121\n```\n"
    # a name written with a function: docgen cannot tell the names the matrix makes
    matrix = 'target "app" {\n  name = "app-${lower(v)}"\n  matrix = { v = ["CU121"] }\n}\n'
    assert found(tmp_path / "a", {"docker-bake.hcl": matrix, "README.md": readme}) == []
    compose = "services:\n  cu121:\n    build: .\n"
    for name in ("compose.yaml", "docker-compose.yaml"):  # bake reads all four default compose names
        assert found(tmp_path / name, {"docker-bake.json": BAKE, name: compose, "README.md": readme}) == []


GPU_BAKE = """\
variable "REGISTRY" {
    default = "docker.io"
}
variable "OWNER" {
    default = "someone"
}

group "default" {
  targets = ["cu118-torch212", "cu118-torch222", "cu124-torch250"]
}

target "cu118-torch212" {
    dockerfile = "./cu118-torch212/Dockerfile"
    tags = ["${REGISTRY}/${OWNER}/gpu-base:cu118-torch212"]
}

target "cu118-torch222" {
    dockerfile = "./cu118-torch222/Dockerfile"
    tags = ["${REGISTRY}/${OWNER}/gpu-base:cu118-torch222"]
}

target "cu124-torch250" {
    context = "cu124"
    tags = ["${REGISTRY}/${OWNER}/gpu-base:cu124-torch250"]
}
"""


def missing_dockerfiles(
    root: Path, readme: str, extra: dict[str, str] | None = None
) -> list[tuple[int, str]]:
    files = {
        "docker-bake.hcl": GPU_BAKE,
        "cu118-torch212/Dockerfile": APP,
        "README.md": readme,
        **(extra or {}),
    }
    return [(line, said) for line, said, _ in found(root, files) if "is not in the project" in said]


def test_an_image_listed_whose_bake_target_has_no_dockerfile(tmp_path: Path) -> None:
    # modelled on a list of published GPU base images, one line per tag
    readme = (
        "## Versions\n\n"
        "    *   CUDA 11.8 & Torch 2.1.2   someone/gpu-base:cu118-torch212\n"
        "    *   CUDA 11.8 & Torch 2.2.2   someone/gpu-base:cu118-torch222\n"
    )
    assert missing_dockerfiles(tmp_path, readme) == [
        (
            4,
            "README names the image someone/gpu-base:cu118-torch222, built by bake target cu118-torch222, "
            "whose Dockerfile cu118-torch222/Dockerfile (docker-bake.hcl:18) is not in the project: the "
            "image cannot be built",
        )
    ]


def test_a_bake_of_a_group_holding_a_target_with_no_dockerfile(tmp_path: Path) -> None:
    # modelled on a README building every image with one bake command (the default group)
    readme = "# Images\n\nBuild them all:\n\n```sh\ndocker buildx bake --push\n```\n"
    assert missing_dockerfiles(tmp_path, readme) == [
        (
            6,
            "README bakes cu118-torch222, built by bake target cu118-torch222, whose Dockerfile "
            "cu118-torch222/Dockerfile (docker-bake.hcl:18) is not in the project: the image cannot be built",
        ),
        (
            6,
            "README bakes cu124-torch250, built by bake target cu124-torch250, whose Dockerfile "
            "cu124/Dockerfile (docker-bake.hcl:22) is not in the project: the image cannot be built",
        ),
    ]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # only the target whose Dockerfile is there
        ("```\ndocker buildx bake cu118-torch212\n```\n", {}),
        # a target the README never names
        ("Pull `someone/gpu-base:cu118-torch212`.\n", {}),
        # a README step makes the folder first
        ("```\n./generate.sh cu118-torch222\ndocker buildx bake cu118-torch222\n```\n", {}),
        # a script beside the bake file writes the Dockerfile
        (
            "```\ndocker buildx bake cu118-torch222\n```\n",
            {"generate.sh": "mkdir -p cu118-torch222 && sed s/X/Y/ tpl > cu118-torch222/Dockerfile\n"},
        ),
        # another bake file given with -f
        ("```\ndocker buildx bake -f other.hcl cu118-torch222\n```\n", {}),
    ],
)
def test_targets_whose_dockerfile_is_there_or_may_be_made_are_silent(
    tmp_path: Path, readme: str, extra: dict[str, str]
) -> None:
    assert missing_dockerfiles(tmp_path, "# Images\n\n" + readme, extra) == []


UNPINNED_BAKE = """\
target "py-cu121" {
    tags = ["acme/ml-base:py-cu121"]
    args = {
        PIP_PACKAGES = "torch==2.2.1 numpy==1.26.4"
    }
}

target "py-cu124" {
    tags = ["acme/ml-base:py-cu124"]
    args = {
        PIP_PACKAGES = "torch numpy==1.26.4"
    }
}
"""


def unpinned(root: Path, readme: str) -> list[tuple[int, str, str]]:
    files = {"docker-bake.hcl": UNPINNED_BAKE, "README.md": readme}
    return [f for f in found(root, files) if "with no version" in f[1]]


def test_a_version_said_of_an_image_whose_bake_target_pins_nothing(tmp_path: Path) -> None:
    # modelled on a table of ML base images, one bake target each
    readme = (
        "# ML bases\n\n| Image | Contents |\n|---|---|\n"
        "| `acme/ml-base:py-cu121` | PyTorch 2.2.1, NumPy 1.26.4 |\n"
        "| `acme/ml-base:py-cu124` | Torch 2.5.0, NumPy 1.26.4 |\n"
    )
    assert [(line, level) for line, _, level in unpinned(tmp_path, readme)] == [(6, "likely")]
    [(_, said, _)] = unpinned(tmp_path / "b", readme)
    assert said == (
        "README says Torch 2.5.0 for the image of bake target py-cu124, but its build arg PIP_PACKAGES "
        "(docker-bake.hcl:11) installs Torch with no version (`torch numpy==1.26.4`) while another target "
        "pins it (`torch==2.2.1`): pip installs the newest release"
    )


@pytest.mark.parametrize(
    "line",
    [
        "| `acme/ml-base:py-cu121` | Torch 2.2.1 |",  # the version the target pins
        "| `acme/ml-base:py-cu124` | NumPy 1.26.4 |",  # a package it pins
        "| `acme/ml-base:py-cu124` | Python 3.12 |",  # no target pins it
        "| py-cu124 | Torch 2.5.0 |",  # the target's name is no image name
    ],
)
def test_versions_the_targets_give_or_no_target_pins_are_silent(tmp_path: Path, line: str) -> None:
    assert unpinned(tmp_path, f"# ML bases\n\n| Image | Contents |\n|---|---|\n{line}\n") == []


# `bake_contexts`: named contexts of a target the README bakes that the checkout does not hold (a RunPod
# template copied out of a monorepo, its contexts two folders up; a web app's `assets` context folder
# that was renamed).
POD_BAKE = """\
group "default" {
    targets = ["py311-cuda1280"]
}

target "py311-cuda1280" {
    dockerfile = "Dockerfile"
    tags = ["kit/pod:py311-cuda1280"]
    contexts = {
        scripts = "../../pod-template"
        proxy = "../../pod-template/proxy"
        base = "docker-image://nvidia/cuda:12.8.0-runtime-ubuntu22.04"
    }
}
"""
POD_DOCKERFILE = (
    "FROM base\nCOPY --from=proxy nginx.conf /etc/nginx/nginx.conf\nCOPY --from=scripts start.sh /\n"
    'CMD ["/start.sh"]\n'
)
POD_README = "## Build\n\n- To build with the default options, simply run `docker buildx bake`.\n"
WEB_BAKE = (
    '{"target": {"web": {"dockerfile": "Dockerfile",'
    ' "contexts": {"assets": "static", "builder": "target:deps"}},'
    ' "deps": {"dockerfile": "Dockerfile.deps"}}}\n'
)
WEB_README = "# Web\n\n```bash\ndocker buildx bake web\n```\n"
WEB_DOCKERFILE = "FROM python:3.12-slim\nCOPY --from=builder /deps /deps\nCOPY --from=assets . /srv/static\n"


def contexts(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    return [f for f in found(root, files) if "named contexts" in f[1]]


def test_named_contexts_above_the_project_root(tmp_path: Path) -> None:
    files = {"docker-bake.hcl": POD_BAKE, "Dockerfile": POD_DOCKERFILE, "README.md": POD_README}
    assert contexts(tmp_path / "pod", files) == [
        (
            3,
            "README bakes py311-cuda1280, whose named contexts (docker-bake.hcl:8) point at folders the "
            "project's checkout does not hold: scripts = ../../pod-template (above the project's root; "
            "Dockerfile:3 COPY --from=scripts); proxy = ../../pod-template/proxy (above the project's root; "
            "Dockerfile:2 COPY --from=proxy): the build cannot find them",
            "likely",
        )
    ]


def test_a_named_context_folder_missing_from_the_project(tmp_path: Path) -> None:
    files = {"docker-bake.json": WEB_BAKE, "Dockerfile": WEB_DOCKERFILE, "README.md": WEB_README}
    [(line, message, confidence)] = contexts(tmp_path, files)
    assert (line, confidence) == (4, "certain")
    assert "assets = static (not in the project; Dockerfile:3 COPY --from=assets)" in message


@pytest.mark.parametrize(
    "files",
    [
        # the folder is there
        {
            "docker-bake.json": WEB_BAKE,
            "Dockerfile": WEB_DOCKERFILE,
            "README.md": WEB_README,
            "static/a.css": "",
        },
        # the Dockerfile does not copy from the context
        {
            "docker-bake.json": WEB_BAKE,
            "Dockerfile": "FROM python:3.12-slim\nCOPY . /srv\n",
            "README.md": WEB_README,
        },
        # the README bakes nothing
        {"docker-bake.json": WEB_BAKE, "Dockerfile": WEB_DOCKERFILE, "README.md": "# Web\n\nSee docs.\n"},
        # a context written with a placeholder the reader fills in
        {
            "docker-bake.json": WEB_BAKE.replace('"static"', '"<assets-folder>"'),
            "Dockerfile": WEB_DOCKERFILE,
            "README.md": WEB_README,
        },
    ],
)
def test_contexts_the_build_finds_or_does_not_use_are_silent(tmp_path: Path, files: dict[str, str]) -> None:
    assert contexts(tmp_path, files) == []
