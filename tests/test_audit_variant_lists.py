"""`docgen audit`: variants of the image a README lists (tags, tiers, the entries of a build matrix) that
nothing of the project builds (docgen/audit/variant_lists.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

# modelled on a CPU-only server image built once per instruction-set level by one job each
LEVELS = """\
# lean-server

* The image comes in 4 "levels", each compiled for a set of CPU instructions:

- l0 = SSE3 only
- l1 = AVX
- l2 = AVX, AVX2
- l3 = AVX, AVX2, AVX512

* Tags follow the level: **l0-latest**, **l1-latest** and so on.

```bash
docker run -p 8080:8080 ghcr.io/ann/lean-server:l0-latest
```

## FAQ

Slow answers? Pick a higher level like l4 if your CPU has it.
"""


def _job(level: str) -> str:
    return (
        f"  build-{level}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: docker/build-push-action@v6\n        with:\n          push: true\n"
        f"          tags: ghcr.io/${{{{ github.repository }}}}:{level}-latest\n"
        f"          build-args: LEVEL={level}\n"
    )


WORKFLOW = "name: Build\non: push\njobs:\n" + "".join(_job(level) for level in ("l0", "l1", "l2"))
DOCKERFILE = 'FROM alpine:3.20\nARG LEVEL\nRUN echo "$LEVEL" > /level\nCMD ["server"]\n'


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "nothing of the project builds" in d.message
    ]


SHOWN = (
    "l0 (.github/workflows/build.yml:4), l1 (.github/workflows/build.yml:13), "
    "l2 (.github/workflows/build.yml:22)"
)


def test_a_level_the_workflow_does_not_build(tmp_path: Path) -> None:
    assert found(tmp_path, LEVELS, {".github/workflows/build.yml": WORKFLOW}) == [
        f"8: README lists the level l3, but nothing of the project builds it: the build files name {SHOWN} "
        "and never l3 (likely)",
        f"18: README names the level l4, but nothing of the project builds it: the build files name {SHOWN} "
        "and never l4 (likely)",
    ]


def test_every_level_built_and_one_in_a_commented_out_job(tmp_path: Path) -> None:
    every = "name: Build\non: push\njobs:\n" + "".join(
        _job(level) for level in ("l0", "l1", "l2", "l3", "l4")
    )
    assert found(tmp_path / "a", LEVELS, {".github/workflows/build.yml": every}) == []
    commented = WORKFLOW + "".join(f"#{line}\n" for line in _job("l3").splitlines())
    assert [f[:3] for f in found(tmp_path / "b", LEVELS, {".github/workflows/build.yml": commented})] == [
        "8: ",
        "18:",
    ]


# modelled on a ComfyUI image built for two GPU generations by a matrix of mappings
MATRIX_README = """\
# Studio

## Local build

```bash
docker build -f Dockerfiles/Dockerfile.h100 --build-arg PRECISION=fp8 -t studio:h100-fp8 .
```

## GitHub Actions

### Build Matrix

- `a100` - CUDA 12.1
- `h100` - CUDA 12.8 (default)
- `h100-fp8` - CUDA 12.8 with FP8 kernels
"""
MATRIX = """\
name: Build & Push
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        target:
          - { file: Dockerfiles/Dockerfile.a100, tag: a100 }
          - { file: Dockerfiles/Dockerfile.h100, tag: h100 }
    steps:
      - uses: docker/build-push-action@v6
        with:
          file: ${{ matrix.target.file }}
          push: true
          tags: ann/studio:${{ matrix.target.tag }}
"""


def test_a_matrix_entry_ci_does_not_build_though_the_readme_builds_it_by_hand(tmp_path: Path) -> None:
    assert found(tmp_path, MATRIX_README, {".github/workflows/publish.yml": MATRIX}) == [
        "15: README lists the build matrix entry h100-fp8, but nothing of the project builds it: the "
        "workflows name a100 (.github/workflows/publish.yml:9), h100 (.github/workflows/publish.yml:10) and "
        "never h100-fp8 (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "workflow"),
    [
        # a tag written with a variable next to its text may spell the entry
        (MATRIX_README, MATRIX.replace("${{ matrix.target.tag }}", "${{ matrix.target.tag }}-fp8")),
        # an entry said to be planned, a version or a moving tag
        (MATRIX_README.replace("with FP8 kernels", "(planned)"), MATRIX),
        (MATRIX_README.replace("`h100-fp8`", "`1.4.0`").replace("`a100`", "`latest`"), MATRIX),
        # a list not about the image's variants
        (MATRIX_README.replace("### Build Matrix", "### GPUs we tried"), MATRIX),
        # one entry found only
        (MATRIX_README.replace("`h100`", "`b200`"), MATRIX),
    ],
)
def test_lists_that_promise_nothing_unbuilt(tmp_path: Path, readme: str, workflow: str) -> None:
    assert found(tmp_path, readme, {".github/workflows/publish.yml": workflow}) == []


def test_variants_named_by_the_folders_and_the_compose_file(tmp_path: Path) -> None:
    # modelled on an app family with a folder a variant: every variant there, and one the README adds
    readme = "# App\n\n### Variants\n\n- `rocm`: AMD GPUs\n- `vulkan`: any Vulkan GPU\n- `sycl`: Intel GPUs\n"
    compose = (
        "services:\n  rocm:\n    build:\n      dockerfile: rocm/Dockerfile\n    image: ann/app:rocm\n"
        "  vulkan:\n    build:\n      dockerfile: vulkan/Dockerfile\n    image: ann/app:vulkan\n"
    )
    files = {
        "docker-compose.build.yml": compose,
        "rocm/Dockerfile": DOCKERFILE,
        "vulkan/Dockerfile": DOCKERFILE,
    }
    assert found(tmp_path / "a", readme, files) == [
        "7: README lists the variant sycl, but nothing of the project builds it: the build files name "
        "rocm (docker-compose.build.yml:2), vulkan (docker-compose.build.yml:6) and never sycl (likely)"
    ]
    files["sycl/Dockerfile"] = DOCKERFILE
    assert found(tmp_path / "b", readme, files) == []


def test_a_level_the_readme_builds_itself_is_built(tmp_path: Path) -> None:
    readme = LEVELS.replace(
        "```bash\n", "```bash\ndocker build --build-arg LEVEL=l3 -t ghcr.io/ann/lean-server:l3-latest .\n"
    )
    assert [f[:3] for f in found(tmp_path, readme, {".github/workflows/build.yml": WORKFLOW})] == ["19:"]


# modelled on a speech server whose bake file builds one target a flavour
TAGS_README = """\
# whisperd

## Image tags

| Tag | Hardware |
|---|---|
| `cpu` | any x86-64 machine |
| `cuda` | NVIDIA GPUs |
| `rocm` | AMD GPUs |
| `latest` | the same as `cpu` |
"""
BAKE = """\
group "default" {
  targets = ["cpu", "cuda"]
}
target "cpu" {
  dockerfile = "Dockerfile"
  tags = ["ann/whisperd:cpu", "ann/whisperd:latest"]
}
target "cuda" {
  dockerfile = "Dockerfile"
  args = { BASE = "nvidia/cuda:12.4.1-runtime-ubuntu22.04" }
  tags = ["ann/whisperd:cuda"]
}
"""


def test_a_tag_of_a_table_the_bake_file_does_not_build(tmp_path: Path) -> None:
    assert found(tmp_path / "a", TAGS_README, {"docker-bake.hcl": BAKE}) == [
        "9: README lists the tag rocm, but nothing of the project builds it: the build files name cpu "
        "(docker-bake.hcl:2), cuda (docker-bake.hcl:2) and never rocm (likely)"
    ]
    # a tag said to come later, or a table not of tags
    later = TAGS_README.replace("| AMD GPUs |", "| AMD GPUs (planned) |")
    assert found(tmp_path / "b", later, {"docker-bake.hcl": BAKE}) == []
    hardware = TAGS_README.replace("| Tag | Hardware |", "| Backend | Hardware |")
    assert found(tmp_path / "c", hardware, {"docker-bake.hcl": BAKE}) == []


def test_layers_named_as_words_and_one_published_by_others(tmp_path: Path) -> None:
    # modelled on a training stack's images: `three layers`, counted, named in words, not as tags
    readme = (
        "# stack\n\nImages come in three layers:\n\n- **Base**: CUDA and torch\n- **App**: the frameworks\n"
        "- **Preview**: newest frameworks\n"
    )
    files = {".github/workflows/build.yml": "jobs:\n  base:\n    steps: []\n  app:\n    steps: []\n"}
    assert found(tmp_path / "a", readme, files) == []
    tags = (
        readme.replace("**Base**", "`base`").replace("**App**", "`app`").replace("**Preview**", "`preview`")
    )
    assert [f[:3] for f in found(tmp_path / "b", tags, files)] == ["7: "]
    community = tags.replace("newest frameworks", "newest frameworks, published by the community")
    assert found(tmp_path / "c", community, files) == []


# modelled on a web UI built as Dockerfile stages, one a variant, whose CI also pushes a nightly tag
STAGES_README = """\
# webui

### Select variant

| Variant | Description |
|---|---|
| `full` | Everything included. |
| `full-nightly` | Automated nightly build of `full`, pushed by CI. |
| `cpu` | No GPU support. |
| `patched` | Old loader patches. |
"""
STAGES = (
    'FROM python:3.11 AS base\nRUN pip install app\nFROM base AS cpu\nCMD ["app"]\n'
    'FROM base AS patched\nCMD ["app", "--patch"]\nFROM base AS full\nCMD ["app"]\n'
)


def test_a_channel_tag_of_a_built_variant_is_no_variant(tmp_path: Path) -> None:
    # a table of Dockerfile targets with a nightly tag of one of them
    assert found(tmp_path / "a", STAGES_README, {"Dockerfile.webui": STAGES}) == []
    # a list of variants with a version and a channel joined to built keys, at either end
    readme = (
        "# App\n\n### Variants\n\n- `rocm`: AMD GPUs\n- `vulkan`: any Vulkan GPU\n"
        "- `rocm-v1.4.0`: the 1.4.0 release\n- `edge-vulkan`: built from main\n"
    )
    compose = (
        "services:\n  rocm:\n    build:\n      dockerfile: rocm/Dockerfile\n    image: ann/app:rocm\n"
        "  vulkan:\n    build:\n      dockerfile: vulkan/Dockerfile\n    image: ann/app:vulkan\n"
    )
    files = {
        "docker-compose.build.yml": compose,
        "rocm/Dockerfile": DOCKERFILE,
        "vulkan/Dockerfile": DOCKERFILE,
    }
    assert found(tmp_path / "b", readme, files) == []


def test_a_variant_with_a_channel_word_of_a_key_nothing_builds(tmp_path: Path) -> None:
    # the key before the channel is no variant the files build: still told
    readme = STAGES_README.replace("| `full-nightly` |", "| `turbo-nightly` |")
    assert found(tmp_path, readme, {"Dockerfile.webui": STAGES}) == [
        "8: README lists the variant turbo-nightly, but nothing of the project builds it: the build files "
        "name full (Dockerfile.webui:7), cpu (Dockerfile.webui:3), patched (Dockerfile.webui:5) and never "
        "turbo-nightly (likely)"
    ]


def test_a_version_joined_to_a_built_key_may_be_a_variant_of_its_own(tmp_path: Path) -> None:
    # `rocm-5.7` beside `rocm`: another ROCm release nothing builds, no tag of the built one
    readme = (
        "# App\n\n### Variants\n\n- `rocm`: AMD GPUs\n- `vulkan`: any Vulkan GPU\n- `rocm-5.7`: older cards\n"
    )
    compose = (
        "services:\n  rocm:\n    build:\n      dockerfile: rocm/Dockerfile\n    image: ann/app:rocm\n"
        "  vulkan:\n    build:\n      dockerfile: vulkan/Dockerfile\n    image: ann/app:vulkan\n"
    )
    files = {
        "docker-compose.build.yml": compose,
        "rocm/Dockerfile": DOCKERFILE,
        "vulkan/Dockerfile": DOCKERFILE,
    }
    assert [f[:40] for f in found(tmp_path, readme, files)] == ["7: README lists the variant rocm-5.7, bu"]
