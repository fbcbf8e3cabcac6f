"""`docgen.audit`: stale claims in hand-written READMEs, outside the docgen blocks.

The fixtures under tests/data/audit/ are hand-written READMEs next to the Dockerfile they describe (a
ROCm training image, a CUDA training image, a vLLM server, a small Python service), each with the
drifts listed here: the ones real READMEs pick up when the Dockerfile moves on and the prose does not.
Nine more (`PUBLIC`) were written independently of the code, after public GPU projects' docker docs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from helpers import findings, make_tree, run
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.errors import MarkerError
from docgen.model import Diagnostic, ImageModel
from docgen.pipeline import build_model, model_of

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "audit"

ROCM_NAMES = {
    "FA_TAG": "Flash Attention",
    "TE_TAG": "TransformerEngine",
    "VLLM_TAG": "vLLM",
    "AITER_TAG": "aiter",
    "ROCM_VERSION": "ROCm",
    "PYTHON_VERSION": "Python",
}
"""The display names the project's own pyproject.toml gives."""


def audit_file(readme: str, dockerfile: str, names: Mapping[str, str] = {}) -> list[str]:
    """`audit` on tests/data/audit/README against tests/data/audit/DOCKERFILE, as `path:line: message`."""
    model = build_model(DATA / dockerfile, dockerfile)
    text = (DATA / readme).read_text(encoding="utf-8")
    return [str(d) for d in audit(text, readme, model, names, (DATA / readme).parent)]


def model_from(text: str, path: str = "Dockerfile") -> ImageModel:
    return model_of(parse_dockerfile(text, path))


def messages(readme: str, dockerfile: str, names: Mapping[str, str] = {}) -> list[str]:
    return [d.message for d in audit(readme, "README.md", model_from(dockerfile), names)]


# --------------------------------------------------------------------------------------------------
# Realistic READMEs with known drifts

R, RD = "rocm/README.md", "rocm/Dockerfile.rocm"
C, CD = "cuda/README.md", "cuda/Dockerfile"
V, VD = "vllm/README.md", "vllm/Dockerfile"
P, PD = "python/README.md", "python/Dockerfile"

DRIFTS: dict[str, tuple[str, list[str]]] = {
    # (a) the version table still says Megatron-core 0.16.0, the Dockerfile moved to 0.18.0;
    # (b) four build args the Dockerfile no longer has; (c) MAX_JOBS and GPU_ARCH defaults changed.
    R: (
        RD,
        [
            f"{R}:16: README says Megatron-core 0.16.0 but {RD}:238 says 0.18.0",
            f"{R}:20: build arg AMDGPU_VERSION ({RD}:64) is missing from the README's build-argument table",
            f"{R}:20: build arg FA_REPO ({RD}:129) is missing from the README's build-argument table",
            f"{R}:20: build arg AITER_TAG ({RD}:215) is missing from the README's build-argument table",
            f"{R}:22: README says GPU_ARCH defaults to gfx90a;gfx942 but {RD}:8 says gfx942;gfx950",
            f"{R}:29: README says MAX_JOBS defaults to 64 but {RD}:135 says $(nproc)",
            f"{R}:30: README documents build arg ROCM_ARCH but {RD} does not declare it; also at line 41",
            f"{R}:31: README documents build arg TORCH_WHEEL_URL but {RD} does not declare it",
            f"{R}:32: README documents build arg BUILD_APEX but {RD} does not declare it",
            f"{R}:33: README documents build arg APEX_COMMIT but {RD} does not declare it",
            f"{R}:44: README says megatron-core 0.16.0 but {RD}:238 says 0.18.0",
        ],
    ),
    # prose versions, an inline pin, a package table, a build-args list and a docker build example
    C: (
        CD,
        [
            f"{C}:3: README says CUDA 12.4.1 but {CD}:5 says 12.6.3",
            f"{C}:4: README says PyTorch 2.6.0 but {CD}:21 says 2.7.1",
            f"{C}:5: README says flash-attn 2.6.3 but {CD}:29 says 2.7.4.post1",
            f"{C}:15: README says Apex 24.04 but {CD}:39 says 25.04",
            f"{C}:16: README says megatron_core 0.12.2 but {CD}:40 says 0.13.1",
            f"{C}:26: README documents build arg APEX_REF but {CD} does not declare it",
            f"{C}:34: README documents build arg CUDA_ARCH but {CD} does not declare it",
        ],
    ),
    # `vLLM v0.10.2` in prose, a component table, an arg replaced by BASE_IMAGE; a table of server
    # arguments, an HTML comment and a Python example that are not claims
    V: (
        VD,
        [
            f"{V}:3: README says vLLM v0.10.2 but {VD}:6 says 0.11.0",
            f"{V}:12: README says Transformers 4.56.0 but {VD}:16 says 4.57.1",
            f"{V}:18: README documents build arg CUDA_VERSION but {VD} does not declare it",
        ],
    ),
    # a Name/Default table under a build-args heading, an ENV table that is not one, a stale block
    P: (
        PD,
        [
            f"{P}:3: README says Python 3.11 but {PD}:4 says 3.12",
            f"{P}:8: build arg UID ({PD}:19) is missing from the README's build-argument table",
            f"{P}:11: README says POETRY_VERSION defaults to 1.7.1 but {PD}:7 says 1.8.3",
            f"{P}:12: README says APP_ENV defaults to development but {PD}:17 says production",
        ],
    ),
}


# Inputs written here, independently of the code, modelled on how public GPU projects document their
# images (verl, NGC Megatron-LM, TGI, llama.cpp, SGLang, ROCm PyTorch, vLLM's ROCm guide, a plain
# service): their idioms and kinds of claim, in wording and names of our own, not copies of their files.
# Each has a README.clean.md that restates the same facts in other words and has no finding.
PUBLIC: dict[str, tuple[str, list[tuple[int, str]]]] = {
    # badges, a `- Name: version` list, a build-args table with a `${ROCM_VERSION}` default, a renamed arg
    "verl": (
        "Dockerfile.rocm",
        [
            (3, "README says ROCm 6.4.1 but {D}:4 says 7.0.2"),
            (13, "README says vLLM 0.10.1 but {D}:34 says 0.11.2"),
            (16, "README says Megatron-core v0.13.0 but {D}:39 says 0.14.0"),
            (27, "README documents build arg FA_BRANCH but {D}:24 declares FA_COMMIT"),
            (33, "build arg AITER_COMMIT ({D}:29) is missing from the README's build-argument table"),
            (35, "README says ROCM_VERSION defaults to 6.4.1 but {D}:4 says 7.0.2"),
        ],
    ),
    # an NGC-style table with a column per component, `core_r0.13.0` tags, an NGC calendar version
    # (`25.04`) next to `PyTorch 2.7.0`, release notes of older releases
    "megatron": (
        "Dockerfile",
        [
            (11, "README says NCCL 2.26.3 but {D}:9 says 2.26.5"),
            (11, "README says Megatron Core 0.12.1 but {D}:17 says core_r0.13.0"),
            (15, "README says nvidia-resiliency-ext 0.3.0 but {D}:20 says 0.4.0"),
            (26, "README documents build arg MCORE_BRANCH but {D}:17 declares MCORE_REF"),
        ],
    ),
    # HTML header, a table of launcher arguments and their environment variables, `Python 3.9+`
    "tgi": (
        "Dockerfile",
        [
            (12, "README says PyTorch 2.4.0 but {D}:20 says 2.6.0"),
            (12, "README says CUDA 12.1 but {D}:23 says 12.4"),
            (41, "README documents build arg BUILD_EXTENSIONS but {D} does not declare it"),
        ],
    ),
    # after llama.cpp's docs/docker.md: defaults in a list (`CUDA_VERSION` set to `12.4.0`)
    "llamacpp": (
        "cuda.Dockerfile",
        [
            (35, "README says CUDA_VERSION defaults to 12.4.0 but {D}:3 says 12.6.2"),
            (36, "README says CUDA_DOCKER_ARCH defaults to all but {D}:12 says default"),
            (38, "README says Ubuntu 22.04 but {D}:1 says 24.04"),
        ],
    ),
    # an HTML build-args table, `docker run` aliases, ENV names
    "sglang": (
        "rocm.Dockerfile",
        [
            (3, "README says SGLang v0.5.2 but {D}:11 says v0.5.3"),
            (11, "README documents build arg BUILD_VLLM but {D} does not declare it"),
            (18, "build arg TRITON_COMMIT ({D}:14) is missing from the README's build-argument table"),
            (24, "README says SGL_BRANCH defaults to v0.5.2 but {D}:11 says v0.5.3"),
        ],
    ),
    # a table of image tags (one row per release, newest first), `release/2.9` branches
    "pytorch-rocm": (
        "Dockerfile.rocm",
        [
            (10, "README says Torchvision 0.24.0 but {D}:8 says v0.24.1"),
            (17, "README says Triton 3.4.0 but {D}:19 says 3.5.1"),
            (31, "README documents build arg BUILD_TRITON but {D} does not declare it"),
        ],
    ),
    # a plain Python service: badges, an ENV table, a Name/Default build-args table
    "service": (
        "Dockerfile",
        [
            (5, "README says gunicorn 22.0 but {D}:18 says 23.0.0"),
            (7, "README says gunicorn 22.0.0 but {D}:18 says 23.0.0"),
            (30, "build arg APP_USER ({D}:14) is missing from the README's build-argument table"),
            (32, "README says PYTHON_VERSION defaults to 3.11 but {D}:2 says 3.12.7"),
            (34, "README says APP_UID defaults to 1000 but {D}:15 says 10001"),
            (35, "README documents build arg APP_GID but {D} does not declare it"),
        ],
    ),
    # after verl's docker/README.md: versions only in image tags (`app-rf0.5-…-vllm0.10.0-mcore0.13.0`),
    # community images with other versions, `the tag rf0.4 means release v0.4.x`
    "verl-app": (
        "Dockerfile.app.vllm.mcore0.13",
        [
            (25, "README says vllm 0.10.0 but {D}:14 says 0.10.1"),
            (
                42,
                "README names docker/Dockerfile.extenstion.awsefa, which does not exist (the Dockerfile is "
                "gone or moved)",
            ),
        ],
    ),
    # after vLLM's ROCm guide: ROCm in the base image tag, `FX_GFX_ARCHS` (a typo of the real docs),
    # `ROCm 5.7, 6.0 and 6.1` and `Python: 3.9 -- 3.12` (lists, not claims), another image as an example
    "vllm-rocm": (
        "Dockerfile.rocm",
        [
            (3, "README says ROCm 6.2 but {D}:2 says 6.3; also at lines 10, 27, 38, 44"),
            (32, "README documents build arg FX_GFX_ARCHS but {D} does not declare it"),
            (33, "README says FA_BRANCH defaults to ae7928c but {D}:11 says 3cea2fb"),
        ],
    ),
}
for _name, (_dockerfile, _expected) in PUBLIC.items():
    _d = f"{_name}/{_dockerfile}"
    DRIFTS[f"{_name}/README.md"] = (_d, [f"{_name}/README.md:{n}: {m.format(D=_d)}" for n, m in _expected])

# Planted drifts and planted traps of the classes public READMEs showed (issue 16): each README names
# its traps in the comment here; none may be flagged.
PLANTED: dict[str, tuple[str, list[tuple[int, str]]]] = {
    # a fenced "packages version" list: `core_v0.12.2` (a tag for a release) and `transformer_engine`
    # (TransformerEngine.git), drifted; traps: `flash_attn=2.7.4.post1` (one `=`, agrees with the base
    # tag's fa2.7.4), `cuda==12.6` (cu126), and the `# Preview` versions after the current ones.
    "verl-app/README.packages.md": (
        "verl-app/Dockerfile.app.vllm.mcore0.13",
        [
            (10, "README says vllm 0.8.5.post1 but {D}:14 says 0.10.1"),
            (12, "README says transformer_engine 2.3 but {D}:28 says v2.2.1"),
            (13, "README says megatron.core core_v0.12.2 but {D}:31 says core_v0.13.0"),
        ],
    ),
    # (and a base image tag in prose that is not FROM's; another repository's tag passed as an example)
    # a README about two images: the ROCm one audited, the CUDA one (its section's `-f Dockerfile.cuda`)
    # a sibling whose versions and args are not claims about it. Traps: `VLLM_TAG` / `AITER_TAG` with
    # default "pinned", a Debian epoch and revision (`1:2.34.1-1ubuntu1.10`), `History versions:` with
    # older images, the CUDA section. Drifts: the ROCm base, an undeclared second name in a cell, a link
    # and a `-f` path to Dockerfiles that do not exist.
    "family/README.md": (
        "family/Dockerfile.rocm",
        [
            (11, "README says ROCm 6.4.0 but {D}:2 says 6.4.1"),
            (19, "README documents build arg FA_BRANCH but {D}:8 declares FA_TAG"),
            (
                26,
                "README links to Dockerfile.rocm6.2, which does not exist (the Dockerfile is gone or moved)",
            ),
            (
                43,
                "README builds with build/Dockerfile.legacy-cu118, which does not exist (the Dockerfile is "
                "gone or moved)",
            ),
            (
                48,
                "README says rocm/dev-ubuntu-22.04:6.4.0-complete but {D}:2 says "
                "rocm/dev-ubuntu-22.04:6.4.1-complete",
            ),
        ],
    ),
}
for _readme, (_d, _expected) in PLANTED.items():
    DRIFTS[_readme] = (_d, [f"{_readme}:{n}: {m.format(D=_d)}" for n, m in _expected])


@pytest.mark.parametrize("readme", sorted(DRIFTS))
def test_every_drift_is_found_without_false_alarms(readme: str) -> None:
    dockerfile, expected = DRIFTS[readme]
    found = audit_file(readme, dockerfile)
    missed = [d for d in expected if d not in found]
    false_alarms = [d for d in found if d not in expected]
    assert not missed, f"drifts not found in {readme}: {missed}"
    # audit prefers silence to a false alarm: none of these READMEs gives one.
    assert not false_alarms, f"false alarms in {readme}: {false_alarms}"
    assert found == expected, "not sorted by README line"


def test_clean_readme_with_other_spellings_has_no_findings() -> None:
    # (d) `PyTorch v2.9.1`, `torch 2.9.1.dev…`, `flash-attn 83f9e450`, the full FA commit,
    # `Transformer Engine`, `TE`, `VLLM 1ff9d335`, `megatron_core==0.18.0`, `Megatron Core 0.18`,
    # `mbridge==0.15.1` for tag v0.15.1, `gfx942,gfx950` for `gfx942;gfx950`, `*(empty)*` for MAX_JOBS.
    assert audit_file("rocm/README.clean.md", RD) == []
    assert audit_file("rocm/README.clean.md", RD, ROCM_NAMES) == []


def test_clean_cuda_readme_has_no_findings() -> None:
    # `CUDA 12.6` for 12.6.3, `torch==2.7.1+cu126`, `FlashAttention 2.7.4` for 2.7.4.post1, `TE`,
    # `Megatron Core 0.13`, a `--build-arg` column, `8.0 9.0` for `8.0;9.0`, `v2.7.1` for 2.7.1.
    assert audit_file("cuda/README.clean.md", CD) == []


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_same_facts_restated_have_no_findings(name: str) -> None:
    assert audit_file(f"{name}/README.clean.md", f"{name}/{PUBLIC[name][0]}") == []


def test_project_readmes_around_the_image() -> None:
    # A project's front page: badges, News, benchmark and hardware tables, launcher flags, run-time
    # variables, `HF_TOKEN ... is not a build argument`.
    assert audit_file("verl/README.project.md", "verl/Dockerfile.rocm") == []
    # Megatron-LM's: the one false alarm left is another container named in passing (`lts`: NGC
    # PyTorch 24.01), which reads like a stale claim about the base image.
    assert audit_file("megatron/README.project.md", "megatron/Dockerfile") == [
        "megatron/README.project.md:58: README says PyTorch 24.01 but megatron/Dockerfile:3 says 25.04-py3"
    ]


def test_the_clean_readme_would_fail_if_its_claims_were_wrong() -> None:
    text = (DATA / "rocm/README.clean.md").read_text(encoding="utf-8")
    for old, new in (
        ("flash-attn 83f9e450", "flash-attn 83f9e451"),
        ("Transformer Engine 386bd316", "Transformer Engine 386bd317"),
        ("| PyTorch | v2.9.1 |", "| PyTorch | v2.8.0 |"),
        ("`megatron_core==0.18.0`", "`megatron_core==0.17.0`"),
        ("`GPU_ARCH` | `gfx942,gfx950`", "`GPU_ARCH` | `gfx942`"),
        ("`GPU_ARCH` | `gfx942,gfx950`", "`GPU_ARCH` | `gfx942,gfx950,gfx1100`"),
    ):
        assert old in text
        model = build_model(DATA / RD, RD)
        assert len(audit(text.replace(old, new), "README.md", model)) == 1, old


def test_the_project_readme_is_true_to_its_dockerfile() -> None:
    model = build_model(ROOT / "docker/rocm/Dockerfile.rocm", "docker/rocm/Dockerfile.rocm")
    text = (ROOT / "docker/rocm/README.md").read_text(encoding="utf-8")
    assert audit(text, "docker/rocm/README.md", model, ROCM_NAMES) == []


# --------------------------------------------------------------------------------------------------
# What is a claim and what is not

DOCKERFILE = """\
# GPU_ARCH GPU targets.
ARG GPU_ARCH="gfx942;gfx950"
ARG ROCM_VERSION=7.0.2
FROM rocm/dev-ubuntu-22.04:${ROCM_VERSION} AS base
ARG GPU_ARCH
ENV PYTORCH_ROCM_ARCH=${GPU_ARCH} CCACHE_DIR=/root/.cache/ccache
# FA_TAG Flash Attention commit.
ARG FA_TAG=83f9e450cd10e20701fb109db9c7703d376f282b
# MAX_JOBS Parallel jobs.
ARG MAX_JOBS=
RUN git clone https://github.com/ROCm/flash-attention /fa && cd /fa && git checkout ${FA_TAG} \\
    && MAX_JOBS=${MAX_JOBS:-$(nproc)} pip install .
RUN pip install torch==2.9.1 megatron-core==0.18.0 transformers>=4.50 \\
    "git+https://github.com/ISEEKYAN/mbridge.git@v0.15.1"
"""


def test_env_names_and_other_backticks_are_not_build_args() -> None:
    # (e) ENV names, client variables, predefined args, placeholders and non-arg code spans.
    readme = """\
# Image

Every build argument can be overridden with `--build-arg NAME=value`: kernels are compiled for
`PYTORCH_ROCM_ARCH`, which follows the `GPU_ARCH` build arg, and ccache keeps its files in `CCACHE_DIR`.
Build args need BuildKit (`DOCKER_BUILDKIT=1`, `RUN --mount=type=cache`); `TARGETARCH` is set by it.
Use --build-arg to override a default, and `--build-arg HTTP_PROXY=http://proxy:3128` behind a proxy.
At run time set `HIP_VISIBLE_DEVICES` and `NCCL_DEBUG=INFO`.

- `HSA_OVERRIDE_GFX_VERSION`: set it when running on consumer GPUs.
"""
    assert messages(readme, DOCKERFILE) == []


def test_build_arg_claims_in_each_context_are_found() -> None:
    readme = """\
Build with `--build-arg OLD_ONE=1`; the `OLD_TWO` build argument is gone too.

The build args:

- `OLD_THREE`: gone.
- **`OLD_FOUR=1`**: gone.

```console
$ docker buildx build --build-arg=OLD_FIVE=1 .
```
"""
    assert [m.split()[4] for m in messages(readme, DOCKERFILE)] == [
        "OLD_ONE",
        "OLD_TWO",
        "OLD_THREE",
        "OLD_FOUR",
        "OLD_FIVE",
    ]


def test_markers_comments_and_other_fences_are_ignored() -> None:
    # (f) the same stale claims, inside docgen blocks, HTML comments and non-docker fences.
    stale = "`--build-arg OLD_ARG=1` and torch 2.4.0 (`megatron-core==0.10.0`)"
    readme = f"""\
<!-- BEGIN docgen:versions -->
{stale}
<!-- END docgen:versions -->
<!-- {stale} -->
<!--
{stale}
-->
```python
{stale}
```
```yaml
{stale}
```
```bash
pip install megatron-core==0.10.0  # run this inside the container
```
~~~~dockerfile
ARG OLD_ARG=1
~~~~
"""
    assert messages(readme, DOCKERFILE) == []
    assert len(messages(stale, DOCKERFILE)) == 3  # outside of them, each one is a finding


def test_comment_closing_mid_line_keeps_the_rest() -> None:
    readme = "<!-- old --> Uses torch 2.4.0.\n"
    assert messages(readme, DOCKERFILE) == ["README says torch 2.4.0 but Dockerfile:13 says 2.9.1"]


@pytest.mark.parametrize(
    ("claim", "stale"),
    [
        ("PyTorch 2.9.1", False),
        ("pytorch 2.9.1+rocm7.0.2", False),
        ("Torch 2.9", False),
        ("PyTorch 2.9.0", True),
        ("Megatron-core 0.18.0", False),
        ("megatron_core 0.18", False),
        ("Megatron Core v0.18.0", False),
        ("Megatron-core 0.16.0", True),
        ("`megatron-core==0.16.0`", True),
        ("`megatron-core>=0.16`", False),
        ("`megatron-core>=0.19`", True),
        ("megatron-core 0.17 or newer", False),
        ("Flash Attention 83f9e450", False),
        ("FlashAttention 83f9e450cd10e20701fb109db9c7703d376f282b", False),
        ("flash_attn at commit 83f9e45", False),
        ("flash_attn at commit 93f9e45", True),
        ("Flash Attention (pinned to commit 83f9e450)", False),
        ("Flash Attention (pinned to commit 93f9e450)", True),
        ("`--build-arg ROCM_VERSION=6.4`", False),
        ("ROCM_VERSION=6.4", False),
        ("`ROCM_VERSION` 6.4", True),
        ("flash-attn 93f9e450", True),
        ("FA 83f9e450", False),
        ("flash-attn 2.7.4", False),  # a release against a commit cannot be compared
        ("mbridge v0.15.1", False),
        ("mbridge 0.15.1", False),
        ("mbridge 0.14.0", True),
        ("ROCm 7.0.2", False),
        ("ROCm 7.0", False),
        ("ROCm 6.4.1", True),
        ("upgraded from PyTorch 2.8.0 to 2.9.1", False),
        ("transformers 4.40", False),  # `>=4.50`: not a pin to compare with
    ],
)
def test_version_spellings(claim: str, stale: bool) -> None:
    found = messages(f"The image has {claim} installed.\n", DOCKERFILE)
    assert bool(found) == stale, found


def test_version_table_rows_and_names_from_the_config() -> None:
    readme = """\
| Library | Version | Notes |
|---|---|---|
| [PyTorch](https://pytorch.org) | **2.8.0** | ROCm build |
| Flash Attention (ROCm fork) | `83f9e450` | CK backend |
| FA2 | deadbee1 | by its config name |
| DeepSpeed | 0.9.0 | not in the Dockerfile |
| transformers | latest | not a version |
"""
    assert messages(readme, DOCKERFILE, {"FA_TAG": "FA2"}) == [
        "README says PyTorch 2.8.0 but Dockerfile:13 says 2.9.1",
        "README says FA2 deadbee1 but Dockerfile:8 says 83f9e450",
    ]


def test_build_arg_table_defaults_and_missing_rows() -> None:
    readme = """\
## Build arguments

| Name | Default value | What for |
|---|---|---|
| GPU_ARCH | "gfx942 gfx950" | targets |
| `FA_TAG` | `83f9e450` | short commit |
| `ROCM_ARCH` | `gfx942` | removed |
"""
    assert messages(readme, DOCKERFILE) == [
        "build arg ROCM_VERSION (Dockerfile:3) is missing from the README's build-argument table",
        "build arg MAX_JOBS (Dockerfile:10) is missing from the README's build-argument table",
        "README documents build arg ROCM_ARCH but Dockerfile does not declare it",
    ]


@pytest.mark.parametrize(
    ("cell", "stale"),
    [
        ("", False),
        ("`$(nproc)`", False),
        ('`""`', False),
        ("*(none)*", False),
        ("empty (one job per CPU)", False),
        ("number of CPUs (`nproc`)", False),
        ("`64`", True),
        ("8", True),
    ],
)
def test_empty_defaults_are_written_many_ways(cell: str, stale: bool) -> None:
    readme = f"""\
| Build arg | Default |
|---|---|
| `GPU_ARCH` | `gfx942;gfx950` |
| `ROCM_VERSION` | 7.0.2 |
| `FA_TAG` | `83f9e450cd10` |
| `MAX_JOBS` | {cell} |
"""
    assert bool(messages(readme, DOCKERFILE)) == stale


def test_tables_that_are_not_about_build_args() -> None:
    readme = """\
## Environment variables

| Name | Value |
|---|---|
| `CCACHE_DIR` | `/root/.cache/ccache` |
| `WEB_CONCURRENCY` | `4` |

## Server

| Argument | Default |
|---|---|
| `--max-model-len` | model's |

| Name | Default |
|---|---|
| `RETRIES` | `3` |
"""
    # no build-argument table: nothing documented, nothing missing
    assert messages(readme, DOCKERFILE) == []


def test_line_numbers_with_crlf_and_a_byte_order_mark() -> None:
    readme = "\ufeff# Image\r\n\r\nUses PyTorch 2.4.0.\r\n"
    found = audit(readme, "README.md", model_from(DOCKERFILE))
    assert found == [
        Diagnostic(
            "README.md",
            3,
            "README says PyTorch 2.4.0 but Dockerfile:13 says 2.9.1",
            rule="DG101",
            confidence="likely",
        )
    ]


def test_broken_markers_are_bad_input() -> None:
    with pytest.raises(MarkerError) as err:
        audit("<!-- BEGIN docgen:versions -->\n", "README.md", model_from(DOCKERFILE))
    assert str(err.value).startswith("README.md:1:")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            list("abAB_ 019.=|`-<!>#*\n\t:")
            + ["torch", "GPU_ARCH", "--build-arg ", "```", "<!--", "-->", "build arg", "\n|---|---|\n"]
            + ["<!-- BEGIN docgen:versions -->\n", "<!-- END docgen:versions -->\n"]
        ),
        max_size=120,
    ).map("".join)
)
def test_any_text_gives_sorted_diagnostics_or_a_marker_error(text: str) -> None:
    model = model_from(DOCKERFILE)
    try:
        found = audit(text, "README.md", model)
    except MarkerError:
        return
    lines = text.count("\n") + 1
    assert all(1 <= d.line <= lines for d in found)
    assert [d.line for d in found] == sorted(d.line for d in found)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("Python 3.10+", []),
        ("Python 3.13+", ["README says Python 3.13+ but Dockerfile:2 says 3.12"]),
        ("Python 3.13 or newer", ["README says Python 3.13+ but Dockerfile:2 says 3.12"]),
        ("Python 3.11 or older", []),
        ("`python>=3.13`", ["README says python>=3.13 but Dockerfile:2 says 3.12"]),
    ],
)
def test_minimum_versions(claim: str, found: list[str]) -> None:
    dockerfile = "FROM ubuntu:22.04\nARG PYTHON_VERSION=3.12\n"
    assert messages(f"Needs {claim}.\n", dockerfile) == found


def test_a_copied_key_versions_table_is_a_version_table() -> None:
    readme = """\
| Component | Version | Source | Build arg | Line |
|---|---|---|---|---|
| PyTorch | `2.8.0` | pypi |  | L13 |
| Flash Attention | `83f9e450` | github | `FA_COMMIT` | L8 |
"""
    assert messages(readme, DOCKERFILE) == [
        "README says PyTorch 2.8.0 but Dockerfile:13 says 2.9.1",
        "README documents build arg FA_COMMIT but Dockerfile:8 declares FA_TAG",
    ]


@pytest.mark.parametrize(
    ("cell", "stale"),
    [
        ("`gfx942;gfx950`", False),
        ('"gfx950 gfx942"', False),
        ("*(none)*", True),  # a bare re-declaration does not make the global default empty
        ("`gfx942`", True),
    ],
)
def test_defaults_of_a_global_arg_declared_again_bare(cell: str, stale: bool) -> None:
    readme = f"| ARG | Default |\n|---|---|\n| GPU_ARCH | {cell} |\n"
    found = [m for m in messages(readme, DOCKERFILE) if "missing" not in m]
    assert bool(found) == stale, found


# --------------------------------------------------------------------------------------------------
# How public READMEs write their claims

NGC = """\
ARG FROM_IMAGE_NAME=nvcr.io/nvidia/pytorch:25.04-py3
FROM ${FROM_IMAGE_NAME}
ARG NCCL_VERSION=2.26.5
ARG MCORE_REF=core_r0.13.0
RUN apt-get install -y libnccl2=${NCCL_VERSION}-1+cuda12.9 \\
    && git clone https://github.com/NVIDIA/Megatron-LM.git && cd Megatron-LM && git checkout ${MCORE_REF}
"""

ROCM_BASE = """\
ARG BASE_IMAGE="rocm/pytorch:rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.4.0"
FROM $BASE_IMAGE
ARG BUILD_FA="1"
ARG CUDA_VERSION=12.6.2
RUN echo $BUILD_FA $CUDA_VERSION
"""


@pytest.mark.parametrize(
    ("badge", "found"),
    [
        ("ROCm-6.3-red", ["README says ROCm 6.3 but Dockerfile:2 says 6.4"]),
        ("ROCm-6.4-red.svg", []),
        ("python-3.10%2B-blue", []),
        ("python-3.11+-blue", ["README says python 3.11+ but Dockerfile:1 says 3.10"]),
        ("python-3.9%20%7C%203.10-blue", []),  # several versions: not one claim
        ("license-Apache%202.0-blue", []),
        ("ROCm-6.3", []),  # no colour: `message-color`, no label
    ],
)
def test_shields_badges(badge: str, found: list[str]) -> None:
    dockerfile = "ARG PYTHON_VERSION=3.10\nARG ROCM_VERSION=6.4\nFROM rocm/dev-ubuntu-22.04:${ROCM_VERSION}\n"
    readme = f"[![badge](https://img.shields.io/badge/{badge})](https://example.com)\n"
    assert messages(readme, dockerfile) == found


def test_a_table_with_a_column_per_component() -> None:
    # NGC style: the header names components, each row a release, newest first.
    readme = """\
| Container | PyTorch | NCCL | Megatron Core |
|---|---|---|---|
| 25.04 | 2.7.0a0+79aa174 | 2.26.3 | 0.13.0 |
| 25.03 | 2.7.0a0+7c8ec84 | 2.25.1 | 0.12.1 |
"""
    assert messages(readme, NGC) == ["README says NCCL 2.26.3 but Dockerfile:3 says 2.26.5"]
    # a column where an older row agrees is a history, and the newest row comes first
    history = readme.replace("| 25.04 | 2.7.0a0+79aa174 | 2.26.3 |", "| 25.05 | 2.8.0 | 2.27.1 |")
    assert messages(history, NGC) == ["README says NCCL 2.27.1 but Dockerfile:3 says 2.26.5"]
    # none of its cells agrees: a benchmark or a matrix of something else, not this image
    benchmark = "| Model | NCCL | Megatron Core |\n|---|---|---|\n| Llama | 3.1 | 1.5 |\n"
    assert messages(benchmark, NGC) == []


@pytest.mark.parametrize(
    ("claim", "stale"),
    [
        ("PyTorch 2.7.0", False),  # NGC's 25.04 is a calendar version: not comparable with 2.7.0
        ("the NGC PyTorch 25.04 container", False),
        ("the NGC PyTorch 25.03 container", True),
        ("`nvcr.io/nvidia/pytorch:25.03-py3`", True),
        ("Megatron Core 0.13.0", False),  # the tag is `core_r0.13.0`
        ("Megatron Core 0.12.1", True),
        ("Python 3", False),  # `-py3`
    ],
)
def test_calendar_versions_and_prefixed_tags(claim: str, stale: bool) -> None:
    assert bool(messages(f"Uses {claim}.\n", NGC)) == stale


@pytest.mark.parametrize(
    ("claim", "stale"),
    [
        ("ROCm 6.3", False),
        ("ROCm 6.2", True),
        ("Ubuntu 22.04", False),
        ("Ubuntu 20.04", True),
        ("Python 3.10", False),
        ("PyTorch 2.4", False),
        ("PyTorch 2.3.0", True),
        ("ROCm 5.7, 6.0 and 6.1", False),  # a list of versions is not one claim
        ("Python 3.9 -- 3.12", False),
        ("Python 3.8/3.9", False),
        ("upgraded PyTorch 2.3 to 2.4", False),
    ],
)
def test_versions_in_a_base_image_tag(claim: str, stale: bool) -> None:
    assert bool(messages(f"The image has {claim}.\n", ROCM_BASE)) == stale


def test_release_notes_tell_the_past() -> None:
    readme = """\
# Image

Ships NCCL 2.26.5.

## Release notes

### 25.03

- NCCL 2.25.1; removed the `APEX_REF` build arg.

## Build

Pass `--build-arg OLD_ARG=1` and get NCCL 2.25.1.
"""
    assert messages(readme, NGC) == [
        "README documents build arg OLD_ARG but Dockerfile does not declare it",
        "README says NCCL 2.25.1 but Dockerfile:3 says 2.26.5",
    ]


@pytest.mark.parametrize(
    ("item", "found"),
    [
        (
            "- `CUDA_VERSION` set to `12.4.0`",
            ["README says CUDA_VERSION defaults to 12.4.0 but Dockerfile:4 says 12.6.2"],
        ),
        ("- `CUDA_VERSION` is set to `12.6.2`", []),
        ("* `CUDA_VERSION` (default `12.6`): CUDA of the base image", []),
        (
            "1. `CUDA_VERSION` (default value: `12.5`)",
            ["README says CUDA_VERSION defaults to 12.5 but Dockerfile:4 says 12.6.2"],
        ),
        (
            "- `BUILD_FA`: whether to build CK flash-attention. The default is `0`.",
            ["README says BUILD_FA defaults to 0 but Dockerfile:3 says 1"],
        ),
        ("- `BUILD_FA`: should be set to `0` for gfx1100.", []),  # a value to pass, not the default
        ("- `BUILD_FA`: set it to `0` for gfx1100; the default is `1`.", []),
        ("- `BUILD_FA`: the default is 1.", []),  # not in code: skipped
        ("- `HIP_VISIBLE_DEVICES`: defaults to `0`", []),  # not a build arg of the Dockerfile
    ],
)
def test_defaults_in_list_items(item: str, found: list[str]) -> None:
    assert messages(f"The defaults are:\n\n{item}\n", ROCM_BASE) == found


def test_html_tables() -> None:
    readme = """\
The build arguments:

<table>
  <tr><th>Argument</th><th>Default</th></tr>
  <tr><td><code>BASE_IMAGE</code></td><td><code>rocm/pytorch:rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.4.0</code></td></tr>
  <tr>
    <td><code>BUILD_FA</code></td>
    <td>
      <code>0</code>
    </td>
  </tr>
  <tr><td><code>OLD_ARG</code></td><td>-</td></tr>
</table>

<table align="center">
<tr><th>Component</th><th>Version</th></tr>
<tr><td><a href="https://pytorch.org">PyTorch</a></td><td>2.3.0</td></tr>
</table>
"""
    assert messages(readme, ROCM_BASE) == [
        "build arg CUDA_VERSION (Dockerfile:4) is missing from the README's build-argument table",
        "README says BUILD_FA defaults to 0 but Dockerfile:3 says 1",
        "README documents build arg OLD_ARG but Dockerfile does not declare it",
        "README says PyTorch 2.3.0 but Dockerfile:1 says 2.4.0",
    ]


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        (
            "Every launcher argument can also be set through an environment variable: `MAX_TOTAL_TOKENS`.",
            False,
        ),
        ("The server arguments are `MAX_BATCH_SIZE` and `MAX_TOTAL_TOKENS`.", False),
        ("Pass the `MAX_TOTAL_TOKENS` argument.", True),
        ("The `MAX_TOTAL_TOKENS` build argument sets the environment variable.", True),
        ("Set `MAX_TOTAL_TOKENS` as an ARG.", True),
    ],
)
def test_arguments_of_other_programs_are_not_build_args(sentence: str, claim: bool) -> None:
    assert bool(messages(sentence + "\n", ROCM_BASE)) == claim


SERVER = """\
ARG NCCL_VERSION=2.26.5
FROM nvcr.io/nvidia/pytorch:25.05-py3
RUN pip install torch==2.9.1 vllm==0.11.0
"""


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("- PyTorch — 2.8.0", ["README says PyTorch 2.8.0 but Dockerfile:3 says 2.9.1"]),
        ("PyTorch version: 2.8.0", ["README says PyTorch 2.8.0 but Dockerfile:3 says 2.9.1"]),
        ("PyTorch version is 2.9.1", []),
        ("Runs the vLLM V1 engine.", []),  # not a version of vllm
        (
            "| Package | Version |\n|---|---|\n| torch | `==2.8.0` |",
            ["README says torch 2.8.0 but Dockerfile:3 says 2.9.1"],
        ),
        ("| Package | Version |\n|---|---|\n| vllm | >=0.10 |", []),
        (
            "| Package | Version |\n|---|---|\n| vllm | >=0.12 |",
            ["README says vllm 0.12+ but Dockerfile:3 says 0.11.0"],
        ),
        ("| Package | Version |\n|---|---|\n| vllm | 0.10 or newer |", []),
        ("| Package | Version |\n|---|---|\n| vllm | 0.10, 0.11 |", []),
        # NGC's support matrix: a column per release, the newest first
        (
            "| Component | 25.04 | 25.03 |\n|---|---|---|\n"
            "| NCCL | 2.26.3 | 2.25.1 |\n| PyTorch | 2.9.1 | 2.8.0 |",
            ["README says NCCL 2.26.3 but Dockerfile:1 says 2.26.5"],
        ),
    ],
)
def test_more_ways_to_write_a_version(claim: str, found: list[str]) -> None:
    assert messages(claim + "\n", SERVER) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Pull `verlai/verl:app-verl0.5-vllm0.10.1-mcore0.13.0-te2.2`.", []),
        (
            "Pull `verlai/verl:app-verl0.5-vllm0.10.0-mcore0.12.2-te2.2`.",
            [
                "README says vllm 0.10.0 but Dockerfile:2 says 0.10.1",
                "README says mcore 0.12.2 but Dockerfile:3 says core_v0.13.0",
            ],
        ),
        ("Community image: `hiyouga/verl:ngc-th2.6.0-cu126-vllm0.8.4-flashinfer0.2.2`.", []),  # none agrees
        ("Start from an image, e.g. `verlai/verl:app-verl0.5-vllm0.8.0-mcore0.13.0`.", []),
        ("For example, verl release v0.4.x uses vLLM 0.8.", []),
        ("Uses vLLM 0.8.", ["README says vLLM 0.8 but Dockerfile:2 says 0.10.1"]),
    ],
)
def test_versions_in_image_tags_and_examples(text: str, found: list[str]) -> None:
    dockerfile = """\
FROM verlai/verl:base-verl0.5-cu126-cudnn9.8-torch2.7.1-fa2.7.4
RUN pip install vllm==0.10.1 "git+https://github.com/NVIDIA/TransformerEngine.git@v2.2.1" \\
    "git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.0"
"""
    assert messages(text + "\n", dockerfile) == found


# --------------------------------------------------------------------------------------------------
# Issue 16: image of a claim, several-name cells, history lists, versions by meaning, dead references


def test_the_sibling_image_sees_only_its_own_section() -> None:
    # Audited against Dockerfile.cuda, the ROCm sections (drifts included) are another image's; the
    # dead references are the README's, whichever image it is audited against.
    assert audit_file("family/README.md", "family/Dockerfile.cuda") == [
        "family/README.md:26: README links to Dockerfile.rocm6.2, which does not exist (the Dockerfile is "
        "gone or moved)",
        "family/README.md:43: README builds with build/Dockerfile.legacy-cu118, which does not exist (the "
        "Dockerfile is gone or moved)",
    ]


def test_dead_references_need_the_readme_directory() -> None:
    model = build_model(DATA / "family/Dockerfile.rocm", "Dockerfile.rocm")
    text = (DATA / "family/README.md").read_text(encoding="utf-8")
    assert not any("does not exist" in d.message for d in audit(text, "README.md", model))


ISSUE16_DOCKERFILE = """\
ARG BASE_IMAGE=ubuntu:22.04
FROM ${BASE_IMAGE}
ARG VLLM_TAG=v0.10.1
ARG AITER_TAG=9d1b2a4c
RUN apt-get install -y git=1:2.34.1-1ubuntu1.12
RUN git clone https://github.com/vllm-project/vllm && cd vllm && git checkout ${VLLM_TAG} && pip install .
RUN pip install vllm-extra==0.8.5.post1 torch==2.7.1rc1
RUN pip install https://example.org/wheels/torchvision-0.22.0a0+gitb13c4f8-cp311-cp311-linux_x86_64.whl
"""


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # several names in one cell, each checked; a default in words is no value
        (
            "| Build arg | Default |\n|---|---|\n| `VLLM_TAG` / `AITER_TAG` | pinned |\n"
            "| `BASE_IMAGE` | `ubuntu:22.04` |\n",
            [],
        ),
        (
            "| Build arg | Default |\n|---|---|\n| `VLLM_TAG` / `VLLM_REPO` | pinned |\n| `AITER_TAG` | x |\n"
            "| `BASE_IMAGE` | `ubuntu:22.04` |\n",
            [
                "README documents build arg VLLM_REPO but Dockerfile does not declare it",
                "README says AITER_TAG defaults to x but Dockerfile:4 says 9d1b2a4c",
            ],
        ),
        # a Debian epoch and revision are the same git
        ("The image has `git==1:2.34.1-1ubuntu1.10`.", []),
        (
            "The image has `git==1:2.35.0-1ubuntu1`.",
            ["README says git 1:2.35.0-1ubuntu1 but Dockerfile:5 says 2.34.1"],
        ),
        # pre-, post- and dev releases by meaning: one only omitting the other's suffix agrees
        ("It has `vllm-extra==0.8.5` and `torch==2.7.1rc1`.", []),
        (
            "It has `vllm-extra==0.8.5.post2` and `vllm-extra==0.8.5rc1`.",
            [
                "README says vllm-extra 0.8.5.post2 but Dockerfile:7 says 0.8.5.post1",
                "README says vllm-extra 0.8.5rc1 but Dockerfile:7 says 0.8.5.post1",
            ],
        ),
        # a source build of a release reports `a0` and a local label: the release it is built from
        ("It has torchvision 0.22.0.", []),
        (
            "It has torchvision 0.22.1 and `torch==2.7.1a0`.",
            [
                "README says torch 2.7.1a0 but Dockerfile:7 says 2.7.1rc1",
                "README says torchvision 0.22.1 but Dockerfile:8 says 0.22.0",
            ],
        ),
        # a fenced package list, its `=` spelling, and a `# Preview` part that is not this image
        ("```txt\nvllm==0.10.1\nvllm-extra=0.8.5.post1\n# Preview\nvllm==0.11.0\n```\n", []),
        ("```\nvllm==0.9.0\n```\n", ["README says vllm 0.9.0 but Dockerfile:3 says v0.10.1"]),
        # an env file sets variables to values: not claims
        ("```\nVLLM_TAG=v0.9.0\nMAX_JOBS=8\n```\n", []),
        # code in a block is not a package list
        ("```python\nimport vllm\nx = 1\nvllm.run(version=2)\n```\n", []),
        # a list of older images after `History versions:`, without a History heading
        ("Images:\n\n- `img:v0.10.1`: vLLM 0.10.1\n\nHistory versions:\n- vLLM 0.9.2\n- vLLM 0.8.5\n", []),
        (
            "History versions:\n\n| Image | vLLM |\n|---|---|\n| old | 0.9.2 |\n\nIt has vLLM 0.9.0.\n",
            ["README says vLLM 0.9.0 but Dockerfile:3 says v0.10.1"],
        ),
    ],
)
def test_issue16_classes(readme: str, expected: list[str]) -> None:
    assert messages(readme, ISSUE16_DOCKERFILE) == expected


TAGGED_BASE = """\
FROM verlai/verl:base-v2-cu126-cudnn9.8-torch2.7.1-fa2.8.0
RUN pip install sglang==0.4.8
"""


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # `cu126` in the base tag is CUDA 12.6; the tag `base-v2-…` names the base, it is not verl 2
        ("```txt\ncuda==12.6\ntorch==2.7.1\n```\n\n- `verlai/verl:app-verl0.5-sglang0.4.8-fa2.8.0`\n", []),
        (
            "```txt\ncuda==12.4\ntorch==2.6.0\n```\n",
            [
                "README says cuda 12.4 but Dockerfile:1 says 12.6",
                "README says torch 2.6.0 but Dockerfile:1 says 2.7.1",
            ],
        ),
        # images listed after `- Preview image:` are not this one; a community image agreeing only
        # in its CUDA is another image
        (
            "- App image: `verlai/verl:app-sglang0.4.8-fa2.8.0`\n"
            "- Preview image:\n  - `x/y:sglang0.5.0-fa2.8.0`\n",
            [],
        ),
        ("Community image: `other/verl:ngc-cu126-sglang0.4.6`.", []),
    ],
)
def test_tags_and_preview_lists(readme: str, expected: list[str]) -> None:
    assert messages(readme, TAGGED_BASE) == expected


BASE_ARG = """\
ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:25.06-py3-cu129
FROM ${BASE_IMAGE}
ARG TORCH_CUDA_ARCH_LIST="9.0 10.0"
"""


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        (
            "The image defaults to the cu130 base.",
            [
                "README says the default is cu130 but Dockerfile:1 says "
                "BASE_IMAGE=nvcr.io/nvidia/pytorch:25.06-py3-cu129"
            ],
        ),
        ("The image defaults to the cu129 base; `BASE_IMAGE` defaults to py3 images.", []),
        ("`TORCH_CUDA_ARCH_LIST` defaults to sm90 and sm100.", []),  # no part of its default has that shape
        (
            "Built on `nvcr.io/nvidia/pytorch:25.05-py3-cu129`.",
            [
                "README says nvcr.io/nvidia/pytorch:25.05-py3-cu129 but Dockerfile:1 says "
                "nvcr.io/nvidia/pytorch:25.06-py3-cu129"
            ],
        ),
        (
            "Built on `nvcr.io/nvidia/pytorch:25.06-py3-cu129`; makes `nvcr.io/nvidia/pytorch:latest-dev`.",
            [],
        ),
    ],
)
def test_stated_defaults_and_base_tags(readme: str, expected: list[str]) -> None:
    assert messages(readme, BASE_ARG) == expected


def test_a_heading_naming_another_dockerfile_is_another_image() -> None:
    readme = (
        "# Images\n\n## `Dockerfile.cuda`\n\nIt has vLLM 0.11.0.\n\n## Dockerfile\n\nIt has vLLM 0.9.0.\n"
    )
    assert messages(readme, ISSUE16_DOCKERFILE) == ["README says vLLM 0.9.0 but Dockerfile:3 says v0.10.1"]


NO_DOCKERFILE_NOTE = (
    "docgen: note: no Dockerfile found for {}; only its file and command claims are audited (pass "
    "--dockerfile to audit image claims)\n"
)


def test_without_config_the_dockerfile_next_to_the_readme(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"img/Dockerfile.rocm": ISSUE16_DOCKERFILE, "img/README.md": "It has vLLM 0.9.0.\n"})
    result = run("audit", "--confidence", "likely", "img/README.md")
    assert result.code == 1
    assert result.out.startswith(
        "img/README.md:1: error: README says vLLM 0.9.0 but img/Dockerfile.rocm:3 says"
    )
    # With several next to it, the README is about all of them: the claim is checked against the one
    # that pins vLLM.
    (chdir_tmp / "img/Dockerfile.cuda").write_text(TAGGED_BASE)
    several = run("audit", "--confidence", "likely", "img/README.md")
    assert several.code == 1
    assert several.out == (
        "img/README.md:1: error: README says vLLM 0.9.0 but img/Dockerfile.rocm:3 says v0.10.1 [DG101] "
        "(likely)\n"
        "1 claim in img/README.md contradicts img/Dockerfile.cuda, img/Dockerfile.rocm\n"
    )
    (chdir_tmp / "img/Dockerfile.cuda").unlink()
    (chdir_tmp / "img/Dockerfile.rocm").unlink()
    # with none left, its file and command claims are still audited, and it says so once
    none = run("audit", "--confidence", "likely", "img/README.md")
    assert (none.code, none.err) == (0, NO_DOCKERFILE_NOTE.format("img/README.md"))
    assert none.out == (
        "img/README.md: no file or command claim outside the docgen blocks contradicts the repository "
        "(no Dockerfile audited)\n"
    )


def test_without_one_beside_it_the_dockerfile_the_readme_s_commands_lead_to(chdir_tmp: Path) -> None:
    # the only Dockerfile is in a dot-folder the README's own `cd` enters before building
    readme = "# Gym\n\n```bash\ncd .container\ndocker build -t gym .\n```\n\nIt has vLLM 0.9.0.\n"
    make_tree(chdir_tmp, {"README.md": readme, ".container/Dockerfile": ISSUE16_DOCKERFILE})
    result = run("audit", "--confidence", "likely", "README.md")
    assert result.code == 1
    assert result.out.startswith(
        "README.md:8: error: README says vLLM 0.9.0 but .container/Dockerfile:3 says"
    )


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # `-f` names it, in a folder the README does not enter
        ("```\ndocker build -f build/gpu/Dockerfile.cuda .\n```\n", {"build/gpu/Dockerfile.cuda": ""}),
        # a compose file the README names, whose build names the Dockerfile
        (
            "```\ndocker compose -f deploy/compose.yaml up\n```\n",
            {
                "deploy/compose.yaml": "services:\n  app:\n    build:\n      context: ../src\n",
                "src/Dockerfile": "",
            },
        ),
        # no command leads anywhere: a dot-folder beside the README holds it
        ("Open it in VS Code.\n", {".devcontainer/Dockerfile": ""}),
    ],
)
def test_dockerfiles_found_where_the_readme_leads(
    chdir_tmp: Path, readme: str, files: dict[str, str]
) -> None:
    make_tree(chdir_tmp, {"README.md": readme + "\nIt has vLLM 0.9.0.\n"})
    for name in files:
        make_tree(chdir_tmp, {name: files[name] or ISSUE16_DOCKERFILE})
    result = run("audit", "--confidence", "likely", "README.md")
    assert result.code == 1, result.err
    assert "README says vLLM 0.9.0 but" in result.out


def test_without_one_beside_it_the_images_its_compose_file_builds(chdir_tmp: Path) -> None:
    # `docker compose up` reads the compose file beside the README, whose services build under services/
    readme = "# Stack\n\n```bash\ndocker compose up --build\n```\n\nThe server has vLLM 0.9.0.\n"
    compose = (
        "services:\n  server:\n    build: ./services/server\n  ui:\n    build:\n      context: apps/ui\n"
        "      dockerfile: prod.Dockerfile\n"
    )
    make_tree(
        chdir_tmp,
        {
            "README.md": readme,
            "compose.yaml": compose,
            "services/server/Dockerfile": ISSUE16_DOCKERFILE,
            "apps/ui/prod.Dockerfile": "FROM node:20\n",
            "apps/ui/Dockerfile": "FROM node:18\n",  # the ui's dev image: no service builds it
        },
    )
    result = run("audit", "--confidence", "likely", "README.md")
    assert result.code == 1, result.err
    assert "README says vLLM 0.9.0 but services/server/Dockerfile:3 says" in result.out
    assert result.err == (
        "docgen: note: no Dockerfile beside README.md; auditing the images its compose file builds: "
        "services/server/Dockerfile, apps/ui/prod.Dockerfile\n"
    )
    # with no compose command in the README, the compose file is not what it is about
    (chdir_tmp / "README.md").write_text("# Stack\n\nThe server has vLLM 0.9.0.\n")
    plain = run("audit", "--confidence", "likely", "README.md")
    assert (plain.code, plain.err) == (0, NO_DOCKERFILE_NOTE.format("README.md"))


# A docs page about the Dockerfiles at the project root, one section each (modelled on a transcription
# service's `docs/DOCKER_VARIANTS.md` and a speech image's `docs/dockerhub-overview.md`)
ROOT_VARIANTS = """\
# Image variants

## CPU

**File:** `Dockerfile.cpu`

**Base Image:** `python:3.11-slim`

```bash
docker build -t app:cpu -f Dockerfile.cpu .
```

## CUDA

**File:** `Dockerfile.cuda`

**Base Image:** `nvidia/cuda:12.1.0-runtime-ubuntu22.04`

```bash
docker build -t app:cuda -f Dockerfile.cuda .
```
"""


def test_a_docs_page_is_audited_against_the_dockerfiles_its_commands_build_from_the_root(
    chdir_tmp: Path,
) -> None:
    make_tree(
        chdir_tmp,
        {
            "docs/VARIANTS.md": ROOT_VARIANTS,
            "Dockerfile.cpu": 'FROM python:3.11-slim AS base\nCMD ["python3"]\n',
            "Dockerfile.cuda": 'FROM nvidia/cuda:13.1.0-runtime-ubuntu22.04 AS base\nCMD ["python3"]\n',
            "Dockerfile.rocm": "FROM rocm/dev-ubuntu-22.04:7.0.2\n",  # the page names no ROCm image
        },
    )
    result = run("audit", "docs/VARIANTS.md")
    assert (result.code, result.err) == (
        1,
        "docgen: note: no Dockerfile beside docs/VARIANTS.md; auditing Dockerfile.cpu, Dockerfile.cuda (its "
        "commands name them from the project root)\n",
    )
    assert result.out == (
        "docs/VARIANTS.md:17: error: README says nvidia/cuda:12.1.0-runtime-ubuntu22.04 but "
        "Dockerfile.cuda:1 says nvidia/cuda:13.1.0-runtime-ubuntu22.04 [DG101] (certain)\n"
        "1 claim in docs/VARIANTS.md contradicts Dockerfile.cpu, Dockerfile.cuda\n"
    )
    # with the commands gone, the `**File:**` lines name the same two
    make_tree(chdir_tmp, {"docs/VARIANTS.md": "\n".join(ROOT_VARIANTS.split("```")[::2])})
    named = run("audit", "docs/VARIANTS.md")
    assert named.err.endswith("auditing Dockerfile.cpu, Dockerfile.cuda (its text names them)\n")
    assert "README says nvidia/cuda:12.1.0-runtime-ubuntu22.04 but Dockerfile.cuda:1" in named.out


def test_a_docs_page_naming_no_dockerfile_is_audited_against_the_project_s(chdir_tmp: Path) -> None:
    page = "# App\n\n```bash\ndocker run --rm acme/app:1.0\n```\n\nIt has vLLM 0.9.0.\n"
    make_tree(chdir_tmp, {"docs/overview.md": page, "docker/Dockerfile": ISSUE16_DOCKERFILE})
    result = run("audit", "--confidence", "likely", "docs/overview.md")
    assert result.code == 1
    assert result.err == (
        "docgen: note: no Dockerfile beside docs/overview.md; auditing docker/Dockerfile (the project's, "
        "at its root and under docker/, as a docs page running docker that names no Dockerfile)\n"
    )
    assert result.out.startswith("docs/overview.md:7: error: README says vLLM 0.9.0 but docker/Dockerfile:3")
    # a page outside docs/ is not taken for the project's documentation
    make_tree(chdir_tmp, {"notes/overview.md": page})
    notes = run("audit", "--confidence", "likely", "notes/overview.md")
    assert (notes.code, notes.err) == (0, NO_DOCKERFILE_NOTE.format("notes/overview.md"))


def test_no_dockerfile_where_the_readme_leads_audits_its_files_and_commands(chdir_tmp: Path) -> None:
    # `.git` is never looked into; a `cd` out of the project is not followed
    make_tree(
        chdir_tmp,
        {
            "app/README.md": "```\ncd ../../elsewhere && docker build .\n```\n",
            "app/.git/Dockerfile": ISSUE16_DOCKERFILE,
            "docgen.toml": "",
        },
    )
    result = run("audit", "app/README.md")
    assert (result.code, result.err) == (0, NO_DOCKERFILE_NOTE.format("app/README.md"))


# An HPC folder of Apptainer recipes (no Dockerfile anywhere): a table of its flavours, the builds and
# pulls it runs, and what the images hold said in prose (no image to compare that with).
APPTAINER_README = """\
# Apptainer recipes for the solver

Images built on Ubuntu 22.04 with CUDA 12.2 and PyTorch 2.3.1; the image includes OpenMPI 4.1.

## Layout

Each directory holds one flavour of the container.

| Directory | Contents |
| --- | --- |
| recipes | Shared scripts |
| recipes/jammy | Definition file for 22.04 |
| recipes/noble | Definition file for 24.04 |
| recipes/rocky | Rocky Linux flavour, planned: nothing yet |
| extras | Optional add-ons |

## Build

```bash
cd recipes/jammy
apptainer build solver.sif solver.def
./submit_gpu.sh solver.sif
apptainer pull library://acme/hpc/solver-tools:1.4
apptainer exec --nv solver-tools_1.4.sif solve --help
```

Older notes used `recipes/bionic` (removed).
"""
APPTAINER_FILES = {
    "recipes/common.sh": "#!/bin/sh\n",
    "recipes/jammy/solver.def": "Bootstrap: docker\nFrom: ubuntu:22.04\n",
    "recipes/jammy/submit.sh": "#!/bin/sh\n",
    "extras/README.txt": "add-ons\n",
}


def test_an_apptainer_folder_with_no_dockerfile_is_audited_for_its_files_and_commands(
    chdir_tmp: Path,
) -> None:
    make_tree(chdir_tmp, {"README.md": APPTAINER_README, **APPTAINER_FILES})
    result = run("audit", "--confidence", "likely", "README.md")
    assert (result.code, result.err) == (1, NO_DOCKERFILE_NOTE.format("README.md"))
    lines = result.out.splitlines()
    # the row of a flavour never added, and the script the build block runs that is not there; not the
    # planned row, the history line, the recipe built, the pull's own file, nor what the prose says the
    # image holds (no image is audited: nothing to compare it with)
    assert [line.split(": error: ")[0] for line in lines[:-1]] == ["README.md:13", "README.md:22"], lines
    assert "recipes/noble, which does not exist: recipes/ holds jammy, not noble" in lines[0]
    assert "submit_gpu.sh" in lines[1]
    assert lines[-1].startswith("2 claims in README.md contradict the repository")
    assert "Dockerfile" not in lines[-1].replace("(no Dockerfile audited)", "")
    # the flavour added, the script renamed back: clean, exit 0, and the summary names no Dockerfile
    make_tree(chdir_tmp, {"recipes/noble/solver.def": "Bootstrap: docker\nFrom: ubuntu:24.04\n"})
    make_tree(chdir_tmp, {"recipes/jammy/submit_gpu.sh": "#!/bin/sh\n"})
    clean = run("audit", "--confidence", "likely", "README.md")
    assert (clean.code, clean.err) == (0, NO_DOCKERFILE_NOTE.format("README.md"))
    assert clean.out == (
        "README.md: no file or command claim outside the docgen blocks contradicts the repository "
        "(no Dockerfile audited)\n"
    )


# A compose-only project running published images: no Dockerfile, a GPU file and a CPU file.
COMPOSE_README = """\
# Local LLM stack

Runs Ollama and Open WebUI from their published images.

## GPU

```bash
docker compose up -d
```

## CPU only

```bash
docker compose -f compose-cpu.yaml up -d
```

Open http://localhost:8080 once it is up, and read the logs with `docker compose logs ollama`.
"""
COMPOSE = """\
services:
  ollama:
    image: ollama/ollama:latest
    ports: ["11434:11434"]
  webui:
    image: ghcr.io/open-webui/open-webui:main
    ports: ["8080:8080"]
"""


def test_a_compose_project_of_published_images_is_audited_without_a_dockerfile(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": COMPOSE_README, "docker-compose.yaml": COMPOSE})
    result = run("audit", "--confidence", "likely", "README.md")
    assert (result.code, result.err) == (1, NO_DOCKERFILE_NOTE.format("README.md"))
    # the CPU compose file the README runs is not there; the default one, its port and service are
    assert [line.split(": error: ")[0] for line in result.out.splitlines()[:-1]] == ["README.md:14"]
    assert "compose-cpu.yaml" in result.out
    make_tree(chdir_tmp, {"compose-cpu.yaml": COMPOSE})
    clean = run("audit", "README.md")
    assert (clean.code, clean.err) == (0, NO_DOCKERFILE_NOTE.format("README.md"))
    # a Dockerfile given that is not there is still the error it was
    given = run("audit", "README.md", "--dockerfile", "Dockerfile")
    assert given.code == 2 and "Dockerfile" in given.err and "note:" not in given.err


def test_an_ignore_comment_in_the_readme_silences_its_claim(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "img/Dockerfile": ISSUE16_DOCKERFILE,
            "img/README.md": "<!-- docgen: ignore=DG101 -->\nIt has vLLM 0.9.0.\n\nIt has vLLM 0.8.0.\n",
        },
    )
    result = run("audit", "--confidence", "likely", "img/README.md")
    assert result.code == 1
    assert result.out.startswith("img/README.md:4: error: README says vLLM 0.8.0 but img/Dockerfile:3 says")
    assert "README.md:2:" not in result.out


# --------------------------------------------------------------------------------------------------
# Issue 16, measured on public READMEs: families of images, variants of a base, how sure a finding is

CUDA_IMAGE = """\
ARG CUDA_VERSION=12.8.1
FROM nvidia/cuda:${CUDA_VERSION}-cudnn-devel-ubuntu24.04
ARG TORCH_VERSION=2.8.0
RUN pip install torch==${TORCH_VERSION} flash-attn==2.8.3
"""
ROCM_IMAGE = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete
FROM ${BASE_IMAGE}
ARG TORCH_VERSION=2.7.1
ARG AITER_COMMIT=5e3f1b9c
RUN pip install torch==${TORCH_VERSION}
"""


FAMILY_README = """\
# Training images

Both images install PyTorch from its wheels.

## CUDA image (`cuda`)

- Base: CUDA 12.8.1 on Ubuntu 24.04
- PyTorch 2.8.0, flash-attn 2.8.3

## ROCm image (`rocm`)

- PyTorch 2.8.0
- Build args: `TORCH_VERSION`, `AITER_COMMIT`

## Shared notes

Every image ships PyTorch 2.6.0.
"""


def test_each_section_of_a_family_readme_is_compared_with_its_image() -> None:
    # The heading word `rocm` names Dockerfile.rocm: its PyTorch 2.8.0 is stale there although the CUDA
    # image has it; the CUDA section agrees with its own image (not with ROCm's); the shared section
    # is compared with both, and a version neither image has is stale.
    found = findings(FAMILY_README, {"Dockerfile.cuda": CUDA_IMAGE, "Dockerfile.rocm": ROCM_IMAGE})
    assert found == [
        "12: README says PyTorch 2.8.0 but Dockerfile.rocm:3 says 2.7.1",
        "17: README says PyTorch 2.6.0 but Dockerfile.cuda:3 says 2.8.0",
    ]


def test_a_build_arg_is_stale_only_when_no_image_of_its_section_declares_it() -> None:
    readme = "## CUDA image (`cuda`)\n\nBuild args: `TORCH_VERSION`, `AITER_COMMIT`.\n"
    found = findings(readme, {"Dockerfile.cuda": CUDA_IMAGE, "Dockerfile.rocm": ROCM_IMAGE})
    assert found == ["3: README documents build arg AITER_COMMIT but Dockerfile.cuda does not declare it"]
    untied = "Build args: `TORCH_VERSION`, `AITER_COMMIT`, `GPU_TARGETS`.\n"
    assert findings(untied, {"Dockerfile.cuda": CUDA_IMAGE, "Dockerfile.rocm": ROCM_IMAGE}) == [
        "1: README documents build arg GPU_TARGETS but none of Dockerfile.cuda, Dockerfile.rocm declares it"
    ]


@pytest.mark.parametrize(
    "section",
    [
        # a link to the Dockerfile
        "## Training\n\nBuilt from [Dockerfile.rocm](Dockerfile.rocm).\n\n- PyTorch 2.8.0\n",
        # the base image only that Dockerfile uses
        "## Training\n\nBuilt on `rocm/dev-ubuntu-22.04:6.4.1-complete`.\n\n- PyTorch 2.8.0\n",
        # the -f of its build command, in a section above
        "## Training\n\n```bash\ndocker build -f docker/Dockerfile.rocm .\n```\n\n"
        "### Contents\n\n- PyTorch 2.8.0\n",
    ],
)
def test_links_base_images_and_build_commands_tie_a_section_to_an_image(section: str) -> None:
    found = findings(section, {"Dockerfile.cuda": CUDA_IMAGE, "Dockerfile.rocm": ROCM_IMAGE})
    assert len(found) == 1
    assert found[0].endswith("README says PyTorch 2.8.0 but Dockerfile.rocm:3 says 2.7.1")


def test_sections_about_a_sibling_next_to_the_readme_are_not_this_images(tmp_path: Path) -> None:
    # Audited against the ROCm Dockerfile alone, the `slim` section is the sibling's (Dockerfile.slim
    # is next to the README), so its PyTorch 2.8.0 is no claim about ROCm; without the folder it is.
    make_tree(tmp_path, {"Dockerfile.slim": CUDA_IMAGE, "Dockerfile.rocm": ROCM_IMAGE})
    readme = "## Slim image (`slim`)\n\n- PyTorch 2.8.0\n\n## ROCm image\n\n- PyTorch 2.7.0\n"
    assert findings(readme, {"Dockerfile.rocm": ROCM_IMAGE}, tmp_path) == [
        "7: README says PyTorch 2.7.0 but Dockerfile.rocm:3 says 2.7.1"
    ]
    assert len(findings(readme, {"Dockerfile.rocm": ROCM_IMAGE})) == 2


VARIANT_BASE = """\
ARG BASE_IMAGE=registry.example.com/acme/sdk:8.2.rc1-x1-ubuntu22.04-py3.10
FROM ${BASE_IMAGE}
ARG EXTRAS=npu,metrics
ARG PIP_INDEX=https://pypi.org/simple
RUN pip install --index-url "${PIP_INDEX}" "torch==2.6.0" "torch-accel==2.6.0"
"""


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # another release of the same variant is stale (the whole reference is shown); the other
        # variants (chip `x2`, another OS) are built with another BASE_IMAGE: not claims about this one
        (
            "| Chip | OS | Base |\n|---|---|---|\n"
            "| x1 | Ubuntu | `registry.example.com/acme/sdk:8.3.0-x1-ubuntu22.04-py3.10` |\n"
            "| x2 | Ubuntu | `registry.example.com/acme/sdk:8.3.0-x2-ubuntu22.04-py3.10` |\n"
            "| x1 | Fedora | `registry.example.com/acme/sdk:8.3.0-x1-fedora40-py3.10` |\n",
            [
                "README says registry.example.com/acme/sdk:8.3.0-x1-ubuntu22.04-py3.10 but Dockerfile:1 says "
                "registry.example.com/acme/sdk:8.2.rc1-x1-ubuntu22.04-py3.10"
            ],
        ),
        ("Default base: `registry.example.com/acme/sdk:8.2.rc1-x1-ubuntu22.04-py3.10`.", []),
        # a claim that adds a post release to an exact `==` pin is wrong; one that leaves it out is not
        (
            "| Component | Version or source |\n|---|---|\n| torch-accel | `2.6.0.post3` |\n"
            "| torch | `2.6.0` |\n| SDK | Inherited from the SDK 8.3.0 base image |\n",
            [
                "README says torch-accel 2.6.0.post3 but Dockerfile:5 says 2.6.0",
                "README says SDK 8.3.0 but Dockerfile:1 says 8.2.rc1-x1-ubuntu22.04-py3.10",
            ],
        ),
        # a build-arg table's default in words may still name a version
        (
            "| Argument | Default | Purpose |\n|---|---|---|\n"
            "| `BASE_IMAGE` | the x1 SDK 8.3.0 image | base |\n"
            "| `EXTRAS` | `npu,metrics` | extras |\n| `PIP_INDEX` | `https://pypi.org/simple` | index |\n",
            ["README says SDK 8.3.0 but Dockerfile:1 says 8.2.rc1-x1-ubuntu22.04-py3.10"],
        ),
        # a table headed in another language is read by what its cells hold
        (
            "| 参数 | 默认值 |\n|---|---|\n| `BASE_IMAGE` | x1 SDK 8.2 镜像 |\n"
            "| `PIP_INDEX` | `https://pypi.org/simple` |\n"
            "| `TORCH_INDEX` | `https://download.pytorch.org/whl/cpu` |\n"
            "\n| 组件 | 版本 |\n|---|---|\n| torch | `2.6.0` |\n| torch-accel | `2.5.1` |\n",
            [
                "build arg EXTRAS (Dockerfile:3) is missing from the README's build-argument table",
                "README documents build arg TORCH_INDEX but Dockerfile does not declare it",
                "README says torch-accel 2.5.1 but Dockerfile:5 says 2.6.0",
            ],
        ),
    ],
)
def test_variants_of_a_base_image_and_exact_pins(readme: str, expected: list[str]) -> None:
    assert messages(readme, VARIANT_BASE) == expected


def test_a_version_read_off_an_image_tag_is_no_exact_pin() -> None:
    # `fa2.8.0` in the base tag abbreviates the release: `2.8.0.post2` may be what is installed
    dockerfile = "FROM example/train:base-cu126-torch2.7.1-fa2.8.0\n"
    assert messages("```txt\nflash_attn==2.8.0.post2\ntorch==2.7.1\n```\n", dockerfile) == []


def test_preview_and_nightly_tags_are_other_images() -> None:
    dockerfile = "FROM example/train:base-cu126-torch2.7.1\nRUN pip install sglang==0.4.8 vllm==0.10.1\n"
    readme = (
        "- `example/train:app-sglang0.4.8-vllm0.10.1`\n"
        "- `example/train:app-sglang0.5.0-vllm0.10.1-preview`\n"
        "- `example/train:nightly-sglang0.5.1-vllm0.10.1`\n"
        "- `example/train:app-sglang0.4.6-vllm0.10.1`\n"
    )
    assert messages(readme, dockerfile) == ["README says sglang 0.4.6 but Dockerfile:2 says 0.4.8"]


def test_every_finding_says_how_sure_docgen_is() -> None:
    readme = (
        "| Component | Version |\n|---|---|\n| PyTorch | 2.6.0 |\n\n"  # a table cell: certain
        "The image ships PyTorch 2.5.0.\n\n"  # prose: likely
        "Install with `pip install torch==2.4.0`.\n\n"  # a pin: certain
        "Pass `--build-arg ROCM_ARCH=gfx942`.\n\n"  # a build arg flag: certain
        "`TORCH_ARCH` is a build arg.\n"  # a backticked name in a sentence: likely
    )
    found = audit(readme, "README.md", model_from(CUDA_IMAGE))
    assert [(d.line, d.confidence) for d in found] == [
        (3, "certain"),
        (5, "likely"),
        (7, "certain"),
        (9, "certain"),
        (11, "likely"),
    ]


def test_confidence_in_every_output_format(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": CUDA_IMAGE,
            "README.md": "| Component | Version |\n|---|---|\n| PyTorch | 2.6.0 |\n\n"
            "It ships PyTorch 2.5.0.\n",
        },
    )
    text = run("audit", "--confidence", "likely", "README.md")
    assert text.out.splitlines()[:2] == [
        "README.md:3: error: README says PyTorch 2.6.0 but Dockerfile:3 says 2.8.0 [DG101] (certain)",
        "README.md:5: error: README says PyTorch 2.5.0 but Dockerfile:3 says 2.8.0 [DG101] (likely)",
    ]
    data = json.loads(run("audit", "--confidence", "likely", "README.md", "--format", "json").out)
    assert [f["confidence"] for f in data["findings"]] == ["certain", "likely"]
    sarif = json.loads(run("audit", "--confidence", "likely", "README.md", "--format", "sarif").out)
    results = sarif["runs"][0]["results"]
    assert [(r["rank"], r["properties"]) for r in results] == [
        (90, {"confidence": "certain"}),
        (50, {"confidence": "likely"}),
    ]
    github = run("audit", "--confidence", "likely", "README.md", "--format", "github").out.splitlines()
    assert github[0].startswith("::error file=README.md,line=3,title=docgen DG101 certain::")
    lint = json.loads(run("lint", "Dockerfile", "--format", "json").out)
    assert all("confidence" not in f for f in lint["findings"])


def test_a_base_image_at_the_end_of_a_sentence_is_compared_without_the_full_stop(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
            "README.md": "Based on nvidia/cuda:11.8.0-devel-ubuntu20.04.\n\n"
            "Also runs on nvidia/cuda:12.4.1-devel-ubuntu22.04.\n",
        },
    )
    result = run("audit", "README.md")
    assert result.out.splitlines()[:-1] == [
        "README.md:1: error: README says nvidia/cuda:11.8.0-devel-ubuntu20.04 but Dockerfile:1 says "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 [DG101] (certain)"
    ]


def test_by_default_every_finding_is_shown_and_certain_leaves_out_and_counts_the_likely_ones(
    chdir_tmp: Path,
) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": CUDA_IMAGE,
            "README.md": "| Component | Version |\n|---|---|\n| PyTorch | 2.6.0 |\n\n"
            "It ships PyTorch 2.5.0.\n",
        },
    )
    table = "README.md:3: error: README says PyTorch 2.6.0 but Dockerfile:3 says 2.8.0 [DG101] (certain)"
    prose = "README.md:5: error: README says PyTorch 2.5.0 but Dockerfile:3 says 2.8.0 [DG101] (likely)"
    default = run("audit", "README.md")
    assert (default.code, default.out.splitlines()) == (
        1,
        [table, prose, "2 claims in README.md contradict Dockerfile"],
    )
    assert run("audit", "README.md", "--confidence", "likely").out == default.out
    certain = run("audit", "README.md", "--confidence", "certain")
    expected = [
        table,
        "1 claim in README.md contradicts Dockerfile"
        " (1 likely one not shown: --confidence likely shows them)",
    ]
    assert (certain.code, certain.out.splitlines()) == (1, expected)
    make_tree(chdir_tmp, {"README.md": "It ships PyTorch 2.5.0.\n"})
    quiet = run("audit", "README.md", "--confidence", "certain")
    assert quiet.code == 0 and "(1 likely one not shown" in quiet.out  # the exit status counts what is shown
    data = json.loads(run("audit", "README.md", "--confidence", "certain", "--format", "json").out)
    assert data["findings"] == []
    shown = json.loads(run("audit", "README.md", "--format", "json").out)
    assert [f["confidence"] for f in shown["findings"]] == ["likely"]


def test_a_claim_read_twice_on_one_line_is_one_finding_the_surest(chdir_tmp: Path) -> None:
    # A build command in an indented block is read as a command (certain) and as a line of prose
    # (likely): one finding, counted once. A claim about another name on the next line stays.
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": "FROM python:3.12-slim\nARG APP_VERSION=1.0\nRUN echo $APP_VERSION > /v\n",
            "README.md": "# App\n\nBuild it:\n\n\t$ docker build --build-arg GONE_ARG=1 -t app .\n"
            "\t$ docker build --build-arg APP_VERSION=2 --build-arg LOST_ARG=1 -t app .\n",
        },
    )
    result = run("audit", "README.md")
    assert (result.code, result.out.splitlines()) == (
        1,
        [
            "README.md:5: error: README documents build arg GONE_ARG but Dockerfile does not declare it"
            " [DG101] (certain)",
            "README.md:6: error: README documents build arg LOST_ARG but Dockerfile does not declare it"
            " [DG101] (certain)",
            "2 claims in README.md contradict Dockerfile",
        ],
    )


def test_a_claim_contradicting_two_images_stays_two_findings() -> None:
    # The default is each image's (a scope note binds the other item to one image): the README line
    # contradicts both, and each finding names its image.
    readme = """\
## Build

Build arguments:

- `UCX_TAG`: UCX release to build (default `v1.13.0`)
- `MOFED_VERSION`: MOFED release (MOFED image only)

```
docker build -f UCX-MOFED.dockerfile .
docker build -f UCX-rdma-core.dockerfile .
```
"""
    images = {
        "UCX-MOFED.dockerfile": "FROM ubuntu:22.04\nARG UCX_TAG=v1.12.1\nARG MOFED_VERSION=5.4\n",
        "UCX-rdma-core.dockerfile": "FROM ubuntu:22.04\nARG UCX_TAG=v1.17.0\n",
    }
    assert findings(readme, images) == [
        "5: README says UCX_TAG defaults to v1.13.0 but UCX-MOFED.dockerfile:2 says v1.12.1",
        "5: README says UCX_TAG defaults to v1.13.0 but UCX-rdma-core.dockerfile:2 says v1.17.0",
    ]


def test_a_readme_about_several_images_from_the_command_line_and_the_config(chdir_tmp: Path) -> None:
    readme = "## CUDA image (`cuda`)\n\n- PyTorch 2.8.0\n\n## ROCm image (`rocm`)\n\n- PyTorch 2.8.0\n"
    make_tree(
        chdir_tmp,
        {
            "docker/envs/Dockerfile.cuda": CUDA_IMAGE,
            "docker/envs/Dockerfile.rocm": ROCM_IMAGE,
            "docker/README.md": readme,
        },
    )
    stale = (
        "docker/README.md:7: error: README says PyTorch 2.8.0 but docker/envs/Dockerfile.rocm:3 says 2.7.1"
    )
    # --dockerfile given twice
    given = run(
        "audit",
        "--confidence",
        "likely",
        "docker/README.md",
        "--dockerfile",
        "docker/envs/Dockerfile.cuda",
        "--dockerfile",
        "docker/envs/Dockerfile.rocm",
    )
    assert given.code == 1
    assert given.out.startswith(stale)
    assert given.out.endswith("contradicts docker/envs/Dockerfile.cuda, docker/envs/Dockerfile.rocm\n")
    # nothing configured: the Dockerfiles next to the README, in its subfolders too
    nearby = run("audit", "--confidence", "likely", "docker/README.md")
    assert nearby.out == given.out
    # configured images that do not fill the README: every one is a candidate
    (chdir_tmp / "pyproject.toml").write_text(
        '[[tool.docgen.images]]\ndockerfile = "docker/envs/Dockerfile.cuda"\noutputs = ["docker/CUDA.md"]\n\n'
        '[[tool.docgen.images]]\ndockerfile = "docker/envs/Dockerfile.rocm"\noutputs = ["docker/ROCM.md"]\n'
    )
    configured = run("audit", "--confidence", "likely", "docker/README.md")
    assert configured.code == 1
    assert configured.out.startswith(stale)


def test_a_tag_is_judged_by_the_image_it_names_and_community_sections_are_others() -> None:
    # Of a family, a tag is one image's: `sglang0.4.9` agrees with the app image, so the tag is the
    # app's and its `mcore0.12.0` is stale; `torch2.6.0` is the base's, no finding although the app
    # image has 2.7.1. A tag that is no single image's (the base's torch with an sglang neither has) is
    # an image neither builds, and a `Community images` section is others' images.
    app = "FROM example/base:cu126-torch2.7.1\nRUN pip install sglang==0.4.9 megatron-core==0.13.0\n"
    base = "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install torch==2.6.0 flash-attn==2.7.4\n"
    readme = (
        "## Images\n\n- `example/verl:app-sglang0.4.9-mcore0.12.0`\n"
        "- `example/verl:base-torch2.6.0-fa2.7.4`\n"
        "- `example/verl:mix-torch2.6.0-sglang0.4.8`\n"  # the base's torch, an sglang no image has
        "\n## Community images\n\n- `someone/verl:ngc-cu126-sglang0.4.6-mcore0.13.0`\n"
    )
    assert findings(readme, {"Dockerfile.app": app, "Dockerfile.base": base}) == [
        "3: README says mcore 0.12.0 but Dockerfile.app:2 says 0.13.0"
    ]


def test_a_community_section_stays_others_when_an_image_is_built_on_what_it_names() -> None:
    # `Dockerfile.megatron` is built FROM an older tag of the community image the section names: the
    # section still describes the community image, not the Dockerfile built on it. The same tag under
    # a plain heading is about the image built on that repository, and its CUDA is compared.
    megatron = "FROM someone/verl:ngc-th2.6.0-cu124-vllm0.8.2\nRUN pip install megatron-core==0.12.0\n"
    ngc = "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install vllm==0.8.2\n"
    files = {"Dockerfile.megatron": megatron, "Dockerfile.ngc": ngc}
    latest = "the latest version is `someone/verl:ngc-th2.6.0-cu126-vllm0.8.4`.\n"
    assert findings("# Images\n\n## Community images\n\nFor vLLM, " + latest, files) == []
    assert findings("# Images\n\n## Base images\n\nFor vLLM, " + latest, files) != []


@pytest.mark.parametrize(
    ("item", "found"),
    [
        ("- Default `CUDA` is `10.0-cudnn7-runtime-ubuntu18.04`", []),
        (
            "- Default `PYTHON_VERSION` is `3.6`",
            ["README says PYTHON_VERSION defaults to 3.6 but Dockerfile:3 says 3.8"],
        ),
        (
            "- The default for `CUDA` is `10.1-cudnn7-runtime-ubuntu18.04`",
            [
                "README says CUDA defaults to 10.1-cudnn7-runtime-ubuntu18.04 but Dockerfile:1 says "
                "10.0-cudnn7-runtime-ubuntu18.04"
            ],
        ),
        ("- Default `CUDA` is whatever the base has", []),  # no value in code
        ("- Default `OTHER_ARG` is `1`", []),  # not a build arg of this Dockerfile: no default to compare
    ],
)
def test_a_list_item_that_starts_with_default(item: str, found: list[str]) -> None:
    dockerfile = "ARG CUDA=10.0-cudnn7-runtime-ubuntu18.04\nFROM nvidia/cuda:$CUDA\nARG PYTHON_VERSION=3.8\n"
    assert messages(f"Build args:\n\n{item}\n", dockerfile) == found


# --------------------------------------------------------------------------------------------------
# Issue 16, a held-out round: commands in fences of other languages, Dockerfiles named with `-`/`_`,
# `NAME=VALUE` lists of defaults, defaults stated "by default" in prose

NPU_IMAGE = """\
ARG BASE_NAME=example/cann
ARG BASE_VERSION=latest
FROM ${BASE_NAME}:${BASE_VERSION}
ARG TORCH_VERSION=2.2.0
RUN pip install torch==${TORCH_VERSION}
"""


@pytest.mark.parametrize("lang", ["docker", "text", "console", ""])
def test_a_build_command_in_a_fence_of_any_command_language(tmp_path: Path, lang: str) -> None:
    # Run from the repository's root, as the README says; `img/old.Dockerfile` was renamed `Dockerfile`.
    readme = (
        "## NPU image\n\nRun in the root directory:\n\n"
        f"```{lang}\ndocker buildx build \\\n    -t example/torch:latest \\\n    -f img/old.Dockerfile \\\n"
        "    --build-arg BASE_VERSION=latest \\\n    img/\n```\n"
        "\nOr with bake:\n\n```docker\ndocker buildx bake -f docker-bake.hcl torch-all\n```\n"
        f"\n## From its folder\n\n```{lang}\ndocker build --build-arg TORCH_VER=2.2.0 .\n```\n"
    )
    make_tree(tmp_path, {"img/Dockerfile": NPU_IMAGE, "img/README.md": readme})
    found = [str(d) for d in audit(readme, "img/README.md", model_from(NPU_IMAGE), {}, tmp_path / "img")]
    assert found == [
        "img/README.md:8: README builds with img/old.Dockerfile, which does not exist (the Dockerfile is "
        "gone or moved)",
        "img/README.md:22: README documents build arg TORCH_VER but Dockerfile:4 declares TORCH_VERSION",
    ]


def test_a_dockerfile_block_is_not_a_command() -> None:
    readme = "```dockerfile\n# docker build -f gone.Dockerfile --build-arg NOPE=1 .\nFROM scratch\n```\n"
    assert messages(readme, NPU_IMAGE) == []


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("Dockerfile-ubuntu", "ubuntu"),
        ("Dockerfile_llamacpp", "llamacpp"),
        ("cuda_dockerfile", "cuda"),
        ("cuda12.1_dockerfile", "cuda12.1"),
        ("rocm-Dockerfile", "rocm"),
        ("Dockerfile.rocm", "rocm"),
        ("dockerfile.gpu", "gpu"),
        ("ROCmDockerfile", "rocm"),
        ("DockerfileOptimized", "optimized"),
        ("Dockerfile-build.sh", None),
        ("dockerfile_utils.py", None),
        ("Dockerfile_notes.md", None),
    ],
)
def test_dockerfiles_named_with_a_dash_or_an_underscore(name: str, image: str | None) -> None:
    from docgen.audit import variant
    from docgen.files import is_dockerfile_name

    assert is_dockerfile_name(name) == (image is not None)
    if image is not None:
        assert variant(name) == image


def test_siblings_named_with_a_dash_are_the_family_next_to_the_readme(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "img/Dockerfile-ubuntu": NPU_IMAGE,
            "img/Dockerfile-centos": NPU_IMAGE.replace("2.2.0", "2.1.0"),
            "img/build.sh": "docker build -f Dockerfile-ubuntu .\n",
            "img/README.md": "It has torch 2.0.0.\n",
        },
    )
    result = run("audit", "--confidence", "likely", "img/README.md")
    assert result.code == 1, result.err
    assert result.out.splitlines()[-1] == (
        "1 claim in img/README.md contradicts img/Dockerfile-centos, img/Dockerfile-ubuntu"
    )


DEFAULTS_IMAGE = (
    'ARG VERSION="22.12"\nFROM nvcr.io/nvidia/pytorch:${VERSION}-py3\nARG USER_NAME=dev\nARG GUID=1000\n'
)


@pytest.mark.parametrize(
    ("readme", "found"),
    [
        (
            '### Build\nDefault build variables:\n* VERSION="22.11"\n* USER_NAME=dev\n* G_U_ID=1000\n',
            [
                "README says VERSION defaults to 22.11 but Dockerfile:1 says 22.12",
                "README documents build arg G_U_ID but Dockerfile does not declare it",
            ],
        ),
        (  # the same list introduced in Chinese ("default parameter variables"), a blank line before it
            '默认参数变量：\n\n- VERSION="22.11"\n- USER_NAME=dev\n- `G_U_ID=1000`\n',
            [
                "README says VERSION defaults to 22.11 but Dockerfile:1 says 22.12",
                "README documents build arg G_U_ID but Dockerfile does not declare it",
            ],
        ),
        ('Default build variables:\n* VERSION="22.12"\n* USER_NAME=dev\n* GUID=1000\n', []),
        # values to pass, not defaults: an undeclared name is still named, a value is not compared
        (
            "Build with these build args:\n\n- VERSION=23.01\n- G_U_ID=1000\n",
            ["README documents build arg G_U_ID but Dockerfile does not declare it"],
        ),
        # environment variables of the container, a shell session: no build args
        ("Environment defaults:\n\n- CUDA_HOME=/usr/local/cuda\n- VERSION=1\n", []),
        ("Default settings:\n\n- run `make` with VERSION=23.01\n", []),
    ],
)
def test_a_list_of_name_value_defaults(readme: str, found: list[str]) -> None:
    assert messages(readme, DEFAULTS_IMAGE) == found


GFX_IMAGE = "FROM ubuntu:24.04\nARG ROCM_TARGET=gfx1101\nARG PYTHON_VERSION=python3.12\n"


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        (
            "By default, sets the device to gfx1100 (i.e. compatible with 7800XT).",
            ["README says the default is gfx1100 but Dockerfile:2 says ROCM_TARGET=gfx1101"],
        ),
        (
            "By default it uses python3.10.",
            ["README says the default is python3.10 but Dockerfile:3 says PYTHON_VERSION=python3.12"],
        ),
        ("By default, sets the device to gfx1101.", []),
        ("By default the image targets the RX 7900 XTX.", []),  # a product, no build arg's shape
        ("By default, sets the device for you; for example to gfx1100.", []),
    ],
)
def test_a_default_stated_with_by_default(sentence: str, found: list[str]) -> None:
    assert messages(f"# ROCm image\n\n{sentence}\n", GFX_IMAGE) == found


@pytest.mark.parametrize(
    ("commands", "found"),
    [
        ("cd main\ndocker build -t x -f Dockerfile.base .", []),
        ("$ cd main && docker build -t x -f Dockerfile.base .", []),
        ("cd ./main/\ndocker build -f ../main/Dockerfile.base .", []),
        ("cd main\ndocker build -f Dockerfile.gone .", ["main/Dockerfile.gone"]),
        ("cd $WORKDIR\ndocker build -f Dockerfile.gone .", []),  # where it is cannot be told
        # no `cd`: the command is run from the folder of the Dockerfile it names (main/) when the
        # README names a Dockerfile there; a name found nowhere is gone
        ("# builds main/Dockerfile.base\ndocker build -f Dockerfile.base .", []),
        ("docker build -f Dockerfile.base .", ["Dockerfile.base"]),
        ("docker build -f Dockerfile.gone .", ["Dockerfile.gone"]),
    ],
)
def test_a_build_after_cd_is_read_from_that_folder(tmp_path: Path, commands: str, found: list[str]) -> None:
    make_tree(tmp_path, {"docker/main/Dockerfile.base": "FROM scratch\n"})
    readme = f"# Images\n\n```bash\n{commands}\n```\n"
    model = model_from("FROM scratch\n", "main/Dockerfile.base")
    gone = [
        d.message.split("builds with ", 1)[1].split(",", 1)[0]
        for d in audit(readme, "README.md", model, {}, tmp_path / "docker")
        if "does not exist" in d.message
    ]
    assert gone == found


def test_a_configured_variant_is_audited_as_it_is_built(chdir_tmp: Path) -> None:
    """A README about the cu130 variant (`args = { CUDA_VERSION = … }`) is compared with that build,
    not with the Dockerfile's defaults."""
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": (
                "[[tool.docgen.images]]\n"
                'dockerfile = "docker/Dockerfile"\n'
                'name = "cu130"\n'
                'args = { CUDA_VERSION = "13.0.1" }\n'
                'outputs = ["docker/README.cu130.md"]\n'
            ),
            "docker/Dockerfile": (
                "ARG CUDA_VERSION=12.9.1\n"
                "FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04\n"
                "RUN pip install torch==2.9.0\n"
            ),
            "docker/README.cu130.md": (
                "# CUDA 13 image\n\n"
                "| Component | Version |\n|---|---|\n| CUDA | 13.0.1 |\n| PyTorch | 2.9.0 |\n\n"
                "<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"
            ),
        },
    )
    result = run("audit", "docker/README.cu130.md")
    assert result.code == 0, result.out
    stale = (
        (chdir_tmp / "docker/README.cu130.md").read_text().replace("| CUDA | 13.0.1 |", "| CUDA | 12.8.0 |")
    )
    (chdir_tmp / "docker/README.cu130.md").write_text(stale)
    result = run("audit", "docker/README.cu130.md")
    assert result.code == 1
    assert "13.0.1" in result.out and "12.9.1" not in result.out


def test_audit_against_many_images_compares_each_pin_once(
    chdir_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A README 200 images list: every pin was compared with each pin already known by its name
    (torch in each Dockerfile: 20,000 comparisons); 4,000 images took 10.2 s, 2.0 s now (1,000: 0.75 s)."""
    from docgen.audit import auditor

    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "d/*/Dockerfile"\n'
            'outputs = ["README.md"]\n',
            "README.md": "# Images\n\nPyTorch 2.0.0 on Ubuntu 22.04.\n",
            **{
                f"d/i{i}/Dockerfile": f"FROM ubuntu:22.04\nRUN pip install torch==2.{i}.0\n"
                for i in range(200)
            },
        },
    )
    compared = 0
    equal = auditor.Fact.__eq__

    def counting(self: object, other: object) -> bool:
        nonlocal compared
        compared += 1
        return equal(self, other)  # type: ignore[arg-type]

    monkeypatch.setattr(auditor.Fact, "__eq__", counting)
    result = run("audit", "README.md")
    assert result.code in (0, 1), result.err
    assert compared < 2_000


@pytest.mark.parametrize(
    ("dockerfile", "readme", "expected"),
    [
        # the tag gives torch a version of its own (`torch260`): its leading 1.3.1 is the image's release
        ("FROM acme/pytorch:1.3.1-cu1281-torch260-ubuntu2204\n", "Built on CUDA 12.8 and torch 2.6.0.\n", []),
        ("FROM acme/pytorch:0.9.2-torch2.6.0-py3.11\n", "- PyTorch 2.6.0\n- torch 2.6\n", []),
        # a tag naming no torch of its own: its leading version is the torch of a `pytorch` image
        (
            "FROM pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime\n",
            "Built on torch 2.3.0.\n",
            ["README says torch 2.3.0 but Dockerfile:1 says 2.4.0"],
        ),
        (
            "FROM acme/pytorch:0.9.2-torch2.6.0-py3.11\n",
            "Built on torch 2.5.1.\n",
            ["README says torch 2.5.1 but Dockerfile:1 says 2.6.0"],
        ),
    ],
)
def test_a_tag_that_gives_a_component_its_own_version(
    dockerfile: str, readme: str, expected: list[str]
) -> None:
    assert messages(readme, dockerfile) == expected


def test_a_dockerfile_edited_between_two_reads_is_read_again(tmp_path: Path) -> None:
    """The rules that read a Dockerfile as written share one read of it per file; a process that audits,
    edits the Dockerfile and audits again must see the edit, not the first read."""
    import os

    from docgen.audit.auditor import dockerfile_read

    file = tmp_path / "Dockerfile"
    file.write_text("FROM ubuntu:22.04\n")
    first = dockerfile_read(str(file))
    assert first is not None and first[0] == "FROM ubuntu:22.04\n"
    assert dockerfile_read(str(file)) is first  # unchanged: the same read
    file.write_text("FROM ubuntu:24.04\nRUN true\n")
    os.utime(file, ns=(1, 1))  # a different time even on a coarse clock
    second = dockerfile_read(str(file))
    assert second is not None and second[0] == "FROM ubuntu:24.04\nRUN true\n"
    file.unlink()
    assert dockerfile_read(str(file)) is None


NPU_README = """\
# Acme

## Base image

Build it in the folder of your system:

```
cd common/base/{os}-{arch}
docker build -t acme-base:1 --build-arg TOOLKIT_RUN=toolkit.run --build-arg PY_VERSION=3.9.9 .
```

| Argument | Description |
|---|---|
| TOOLKIT_RUN | the toolkit installer |
| PY_VERSION | the Python built in the image |

## Framework images

Go to the folder of your framework and architecture:

```
cd frameworks/{framework}/{arch}
```

The **x86_64** image:

```
docker build -t acme-torch:x86 --build-arg BASE_IMAGE=acme-base:1 --build-arg TORCH_WHEEL=torch.whl .
```

The **aarch64** image:

```
docker build -t acme-torch:arm --build-arg BASE_IMAGE=acme-base:1 --build-arg TORCH_WHEEL=torch.whl \\
  --build-arg VISION_VERSION=0.16.0 .
```

| Argument | Description |
|---|---|
| BASE_IMAGE | the base image built above |
| TORCH_WHEEL | the torch wheel |
| VISION_VERSION | the torchvision release (aarch64 only) |
"""

NPU_TREE = {
    "common/base/ubuntu-x64/Dockerfile": (
        "FROM ubuntu:18.04\nARG PY_VERSION\nARG TOOLKIT_RUN\n"
        "RUN ./build-python.sh ${PY_VERSION} && ./${TOOLKIT_RUN} --install\n"
    ),
    "frameworks/torch/x86_64/Dockerfile": (
        "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nARG TORCH_WHEEL\n"
        "RUN pip3 install ${TORCH_WHEEL} torchvision==0.6.0\n"
    ),
    "frameworks/torch/aarch64/Dockerfile": (
        "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nARG TORCH_WHEEL\nARG VISION_VERSION\n"
        "RUN pip3 install ${TORCH_WHEEL} torchvision==${VISION_VERSION}\n"
    ),
}


def npu_findings(root: Path, readme: str, tree: Mapping[str, str], audited: str) -> list[str]:
    make_tree(root, {"README.md": readme, **tree})
    model = build_model(root / audited, audited)
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model, {}, root)]


def test_args_of_the_images_below_the_readme_are_no_claims_about_the_one_audited(tmp_path: Path) -> None:
    x86 = "frameworks/torch/x86_64/Dockerfile"
    # the base's args and the aarch64 image's VISION_VERSION are declared by the Dockerfiles below the
    # README that are not audited: the sections about them are no claims about the x86_64 image, and
    # the base's table owes it no row
    assert npu_findings(tmp_path / "a", NPU_README, NPU_TREE, x86) == []
    # the planted drift: an arg no Dockerfile of the tree declares is still one the README gets wrong
    renamed = NPU_README.replace("TORCH_WHEEL", "TORCH_WHL")
    assert npu_findings(tmp_path / "b", renamed, NPU_TREE, x86) == [
        f"28: README documents build arg TORCH_WHL but {x86} does not declare it; also at lines 34, 41",
        f"38: build arg TORCH_WHEEL ({x86}:3) is missing from the README's build-argument table",
    ]
    # without the aarch64 Dockerfile, nothing declares VISION_VERSION: the README documents a ghost
    alone = {k: v for k, v in NPU_TREE.items() if "aarch64" not in k}
    assert npu_findings(tmp_path / "c", NPU_README, alone, x86) == [
        f"35: README documents build arg VISION_VERSION but {x86} does not declare it; also at line 42",
    ]


def test_the_audited_image_s_own_table_still_owes_its_args(tmp_path: Path) -> None:
    x86 = "frameworks/torch/x86_64/Dockerfile"
    tree = dict(NPU_TREE)
    tree[x86] = (
        tree[x86]
        .replace("ARG TORCH_WHEEL\n", "ARG TORCH_WHEEL\nARG PIP_MIRROR\n")
        .replace("pip3 install", "pip3 install -i ${PIP_MIRROR}")
    )
    # the base's table is the base's (its names are the base Dockerfile's): the image's own table
    # leaves PIP_MIRROR out, and is where it is said
    assert npu_findings(tmp_path, NPU_README, tree, x86) == [
        f"38: build arg PIP_MIRROR ({x86}:4) is missing from the README's build-argument table"
    ]


def test_a_dockerfile_that_fails_to_parse_is_named_with_its_line(chdir_tmp: Path) -> None:
    """`<<- EOF` (a space after `<<-`) opens no heredoc in BuildKit, so the body is read as
    instructions: audit says which file and line fail, and why, with exit 2 and no traceback."""
    make_tree(
        chdir_tmp,
        {
            "img/Dockerfile": "FROM x\nRUN cat <<- EOF > /etc/a.conf\n\tkey = 1\n\tEOF\n",
            "img/README.md": "Built from `x`.\n",
        },
    )
    result = run("audit", "img/README.md", "--dockerfile", "img/Dockerfile")
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("img/Dockerfile:3: unknown instruction: KEY (line 2 writes `<<- EOF`")
    assert "Traceback" not in result.err


def test_a_claim_repeated_word_for_word_is_one_finding_with_its_lines() -> None:
    """One drift the README states on three lines is one finding at the first, naming the others; a
    claim that differs on another line (another value) stays a finding of its own."""
    dockerfile = "FROM ubuntu:22.04\nARG ROCM_VERSION=6.1\nRUN echo ${ROCM_VERSION}\n"
    readme = (
        "# Image\n\n| Component | Version |\n|---|---|\n| ROCm | 6.0 |\n\n"
        "Other notes.\n\n| Component | Version |\n|---|---|\n| ROCm | 6.0 |\n\n"
        "| Component | Version |\n|---|---|\n| ROCm | 5.7 |\n"
    )
    found = audit(readme, "README.md", model_from(dockerfile), {"ROCM_VERSION": "ROCm"})
    assert [(d.line, d.message) for d in found] == [
        (5, "README says ROCm 6.0 but Dockerfile:2 says 6.1; also at line 11"),
        (15, "README says ROCm 5.7 but Dockerfile:2 says 6.1"),
    ]


# one build arg no Dockerfile declares, read on one line against the family and against one image: once

UBI_IMAGE = (
    "ARG OS_VERSION=9.4\nARG TORCH_VER=2.5.0\nFROM registry.access.redhat.com/ubi9/ubi:${OS_VERSION}\n"
    "RUN pip install torch==${TORCH_VER}\n"
)
DEBIAN_IMAGE = "FROM ubuntu:22.04\nARG TORCH_VER=2.5.0\nRUN pip install torch==${TORCH_VER}\n"
UBI_README = """# Accelerator images

## UBI image

The UBI-based Dockerfile takes these build arguments:

| Build argument | Default value |
|---|---|
| `OS_VERSION` | `9.4` |
| `TORCH_VER` | `2.5.0` |
| `TORCH_FLAVOUR` | `stock` |

To override them:

    $ docker build -f Dockerfile.ubi -t accel:ubi \\
            --build-arg TORCH_VER=2.5.0 \\
            --build-arg TORCH_FLAVOUR=stock \\
            .
"""
GPU_IMAGE = (
    "ARG BASE_IMAGE=nvidia/cuda:12.8.1-runtime-ubuntu24.04\nFROM ${BASE_IMAGE}\nARG ENGINE_VERSION=0.9.2\n"
    "RUN pip install engine==${ENGINE_VERSION}\n"
)
CPU_IMAGE = "FROM ubuntu:24.04\nARG ENGINE_VERSION=0.9.2\nRUN pip install engine==${ENGINE_VERSION}\n"
GPU_README = """# Model runner

#### GPU variant

To pick another server build:

    docker build -f Dockerfile.gpu \\
      --build-arg BASE_IMAGE=nvidia/cuda:12.8.1-runtime-ubuntu24.04 \\
      --build-arg SERVER_FLAVOUR=cuda \\
      -t runner:gpu .

The GPU variant supports the following build arguments:

- **ENGINE_VERSION**: the engine release to install (default: `0.9.2`)
- **SERVER_FLAVOUR**: the server build to use (default: `{flavour}`)
"""


def test_an_undeclared_build_arg_is_one_finding_per_line() -> None:
    # a table row and an override example in an indented block: a build of Dockerfile.ubi, told with the row
    assert findings(UBI_README, {"Dockerfile.ubi": UBI_IMAGE, "Dockerfile.ubuntu": DEBIAN_IMAGE}) == [
        "11: README documents build arg TORCH_FLAVOUR but Dockerfile.ubi does not declare it; also at "
        "line 17",
    ]
    readme = GPU_README.format(flavour="cuda")
    assert findings(readme, {"Dockerfile.gpu": GPU_IMAGE, "Dockerfile.cpu": CPU_IMAGE}) == [
        "9: README documents build arg SERVER_FLAVOUR but Dockerfile.gpu does not declare it; also at "
        "line 15",
    ]
    # declared: nothing to tell
    declared = GPU_IMAGE + "ARG SERVER_FLAVOUR=cuda\n"
    assert findings(readme, {"Dockerfile.gpu": declared, "Dockerfile.cpu": CPU_IMAGE}) == []


def test_undeclared_args_of_other_dockerfiles_on_one_line_stay_apart() -> None:
    from docgen.audit import undeclared_once
    from docgen.model import Diagnostic

    said = "README documents build arg {} but {}"
    found = [
        Diagnostic("README.md", 4, said.format("A", "Dockerfile.x does not declare it")),
        Diagnostic("README.md", 4, said.format("A", "Dockerfile.y does not declare it")),
        Diagnostic("README.md", 4, said.format("B", "Dockerfile.x does not declare it")),
    ]
    assert undeclared_once(found) == found
    # the family's reading covers one image's: the surer one is kept
    family = Diagnostic("README.md", 4, said.format("A", "none of Dockerfile.x, Dockerfile.y declares it"))
    assert undeclared_once([found[0], family]) == [family]


# --------------------------------------------------------------------------------------------------
# Every rule reads the README as `audit` hands it over, never as another rule has left it

LAYERS = frozenset({"read_document", "source_lines", "set_aside", "drop_aside", "without_lines"})
"""The steps of `audit` that change its Document on purpose (what is about the host, the past or another
image set aside; rows audited with the Dockerfile they link taken out): every rule after reads the same."""

STACKS_README = """# Stacks

See the [gnu image](gnu/Dockerfile) and `intel/Dockerfile`; build with `docker build -f gnu/Dockerfile .`.

| Tag | OS | Libraries | Dockerfile |
| --- | --- | --- | --- |
| `stacks:gnu` | Ubuntu 22.04 | NumPy 1.26.4 | [base](gnu/Dockerfile) |
| `stacks:intel` | Ubuntu 20.04 | NumPy 1.24.0 | [base](intel/Dockerfile) |

| `stacks:old` | Ubuntu 18.04 | NumPy 1.20.0 | [base](old/Dockerfile) |

You will be dropped into a shell inside the container's `/srv/app` directory, and CUDA 11.8 was dropped.

## Building on the host

```bash
git clone https://example.org/acme/stacks.git && cd stacks
docker build -t stacks:gnu --build-arg JOBS=4 -f gnu/Dockerfile .
```

<table><tr><th>Build arg</th><th>Default</th></tr><tr><td>JOBS</td><td>8</td></tr></table>
"""
STACKS = {
    "gnu/Dockerfile": "FROM ubuntu:22.04\nARG JOBS=8\nWORKDIR /srv/app\nRUN pip install numpy==1.26.4\n",
    "intel/Dockerfile": "FROM intel/oneapi-hpckit:2023.1-devel-ubuntu20.04\nRUN pip install numpy==1.24.0\n",
}


def _unchanged_by_every_rule(monkeypatch: pytest.MonkeyPatch, run_audit: Callable[[], object]) -> None:
    """Run `run_audit` with every function `audit` calls wrapped: each must leave the README's Document
    (and every Document or list of lines it is handed) as it found it."""
    import copy
    import functools
    import types

    import docgen.audit as audit_module
    from docgen.markdown import Document

    read: list[Document] = []
    changed: list[str] = []

    def watched(name: str, rule: Callable[..., object]) -> Callable[..., object]:
        @functools.wraps(rule)  # (`audit` tells each check's rule id by the function: `FAMILIES`)
        def call(*args: object, **kwargs: object) -> object:
            held = [*read, *(a for a in (*args, *kwargs.values()) if isinstance(a, (Document, list)))]
            before = [copy.deepcopy(x) for x in held]
            result = rule(*args, **kwargs)
            if isinstance(result, types.GeneratorType):
                result = iter(list(result))  # a rule's findings are read to the end here, as `audit` does
            if any(x != y for x, y in zip(held, before, strict=True)):
                changed.append(name)
            return result

        return call

    def reading(text: str, path: str) -> Document:
        read.append(real_read(text, path))
        return read[-1]

    real_read = audit_module.read_document
    monkeypatch.setattr(audit_module, "read_document", reading)
    for name, value in list(vars(audit_module).items()):
        if (
            callable(value)
            and not isinstance(value, type)
            and name not in LAYERS
            and name != "audit"
            and (getattr(value, "__module__", "") or "").startswith("docgen.")
        ):
            monkeypatch.setattr(audit_module, name, watched(name, value))
    run_audit()
    assert read, "audit read no README"
    assert changed == []


@pytest.mark.parametrize(("readme", "dockerfile"), [(R, RD), (C, CD), (V, VD), (P, PD)])
def test_no_rule_changes_the_readme_the_rules_after_it_read(
    monkeypatch: pytest.MonkeyPatch, readme: str, dockerfile: str
) -> None:
    _unchanged_by_every_rule(monkeypatch, lambda: audit_file(readme, dockerfile))


def test_no_rule_changes_the_readme_of_a_family(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    make_tree(tmp_path, {**STACKS, "README.md": STACKS_README})
    models = [model_from(text, path) for path, text in STACKS.items()]

    def run_audit() -> object:
        return audit(STACKS_README, "README.md", models, {}, tmp_path)

    _unchanged_by_every_rule(monkeypatch, run_audit)


def test_a_scripts_run_of_an_image_no_build_tags_is_told_once(tmp_path: Path) -> None:
    # two rules read a build, then a script whose docker run runs another tag: one drift, one finding
    readme = (
        "# Web UI\n\n```bash\ndocker build . -f Dockerfile.v1 -t webui:v1\n"
        "docker build . -f Dockerfile.v2 -t webui:v2\n```\n\n```bash\n./run.sh\n```\n"
    )
    run = "docker run --gpus all -it \\\n-v /srv/models:/tmp/models \\\n-p 8000:8080 webui:v1.7.0-20240307\n"
    dockerfile = 'FROM python:3.11\nCMD ["python", "-m", "http.server"]\n'
    make_tree(tmp_path, {"Dockerfile.v1": dockerfile, "Dockerfile.v2": dockerfile, "run.sh": run})
    models = [build_model(tmp_path / n, n) for n in ("Dockerfile.v1", "Dockerfile.v2")]
    said = [
        d for d in audit(readme, "README.md", models, {}, tmp_path) if "webui:v1.7.0-20240307" in d.message
    ]
    assert len(said) == 1, [d.message for d in said]
