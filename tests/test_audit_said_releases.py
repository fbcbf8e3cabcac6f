"""Versions and build args a README states against the image definitions, read where they were missed:

- a `--build-arg NAME=…` a build command passes for a name the Dockerfile only sets with ENV (`ENV
  AITER_ROCM_ARCH=gfx942;gfx950`): no ARG takes the value (`auditor.arg_claim`, `passed`);
- a release with a wildcard (`ROCm 7.x-compatible`) against the base tag's (`prose._AFTER_NAME`), and
  a README titled for the image and another tool (`# … Runtime & Proxmox LXC Suite`), still the image's
  (`aside.is_other_recipe_heading`, `title`);
- a number with a unit (`422.8 tok/s`, `1.5 GB`) after a name is a measure, not a release (`MEASURED`);
- a pre-release word the installed file does not have (`CANN 7.0.RC1.3.beta1` for
  `Ascend-cann-toolkit_7.0.RC1.3`) (`versions.pre_release_apart`), and CANN's toolkit under its name;
- a version written before its name and `version` (`compatible with 1.13.0 Habana Version`) against
  a label's `HabanaAI 1.15.1` (`prose._version_first`).

Shapes modelled on a ROCm vLLM image for an old GPU, a vLLM ROCm fork building a base image, an Ascend
framework's Dockerfiles for two architectures and a notebook image labelled with its accelerator
release; each planted drift next to the nearest true statement (a trap)."""

from __future__ import annotations

from helpers import findings

ROCM_BASE = (
    "ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:7.0-complete\nFROM ${BASE_IMAGE} AS base\n"
    "ARG PYTORCH_ROCM_ARCH=gfx90a;gfx942\nENV PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}\n"
    "ENV AITER_ROCM_ARCH=gfx942;gfx950\nENV FROM_ARG=${PYTORCH_ROCM_ARCH}\n"
    "RUN echo $AITER_ROCM_ARCH $FROM_ARG\n"
)
BUILD = """\
# vLLM on ROCm

```bash
podman build -t base --build-arg "PYTORCH_ROCM_ARCH=$ARCH" --build-arg "{name}=$ARCH" \\
  -f docker/Dockerfile.rocm_base .
```
"""


def test_a_build_arg_only_an_env_sets() -> None:
    found = findings(BUILD.format(name="AITER_ROCM_ARCH"), {"docker/Dockerfile.rocm_base": ROCM_BASE})
    assert found == [
        "4: README passes --build-arg AITER_ROCM_ARCH, but docker/Dockerfile.rocm_base declares no ARG "
        "AITER_ROCM_ARCH: docker/Dockerfile.rocm_base:5 sets ENV AITER_ROCM_ARCH=gfx942;gfx950 itself, so "
        "the value passed is unused"
    ]
    # an ARG it declares (PYTORCH_ROCM_ARCH, passed on the same line) is the trap
    assert findings(BUILD.format(name="PYTORCH_ROCM_ARCH"), {"docker/Dockerfile.rocm_base": ROCM_BASE}) == []


def test_an_env_name_in_a_table_of_environment_variables_is_no_build_arg() -> None:
    readme = "# x\n\n## Environment\n\n| Variable | Meaning |\n|---|---|\n| `AITER_ROCM_ARCH` | targets |\n"
    assert findings(readme, {"Dockerfile": ROCM_BASE}) == []


GFX906 = (
    "FROM rocm/dev-ubuntu-22.04:6.2-complete\n"
    "RUN pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/rocm6.2\n"
    "RUN git clone --depth 1 https://github.com/vllm-project/vllm.git /opt/vllm\n"
)
SUITE = """\
# MI50 vLLM ROCm Runtime & Proxmox LXC Suite

AMD deprecated gfx906 in ROCm versions 6.x and beyond.

- `Dockerfile.gfx906`: recipe building a ROCm {release}-compatible vLLM runtime.

| Engine | Peak Throughput |
|:---|:---:|
| `llama.cpp` | 31.2 tok/s |
| **`vLLM` (PagedAttention)** | **422.8 tok/s** |

vLLM reaches 422.8 tok/s; the image is 1.5 GB.

| GPU | Suggested path |
|-----|----------------|
| RDNA2 | ROCm 7.x is officially supported there |

- ROCm 7.x + PyTorch 2.9 for the newest vLLM (gfx906 may fail to load)
"""


def test_a_wildcard_release_under_a_title_naming_lxc_too() -> None:
    assert findings(SUITE.format(release="7.x"), {"Dockerfile.gfx906": GFX906}) == [
        "5: README says ROCm 7.x but Dockerfile.gfx906:1 says 6.2"
    ]
    # the base's own major: true; the history line (6.x and beyond), the measures and the releases of
    # other GPUs or another path (lines about no image or build) are no claims
    assert findings(SUITE.format(release="6.x"), {"Dockerfile.gfx906": GFX906}) == []


def test_a_title_only_about_another_tool_still_sets_its_readme_aside() -> None:
    title = "# MI50 vLLM ROCm Runtime & Proxmox LXC Suite"
    readme = SUITE.format(release="7.x").replace(title, "# Proxmox LXC")
    assert findings(readme, {"Dockerfile.gfx906": GFX906}) == []


ASCEND = (
    "FROM ubuntu:20.04\n"
    "RUN wget https://ascend-repo.example.com/CANN/Ascend-cann-toolkit_7.0.RC1.3_linux-x86_64.run \\\n"
    "    && bash Ascend-cann-toolkit_7.0.RC1.3_linux-x86_64.run --install --quiet\n"
)
AICC = "FROM swr.example.com/ms/mindspore2_2_0:MindSpore2.2.0-cann7.0rc1_py_3.9-euler_2.8.3\nRUN echo x\n"
CONTENTS = """\
# Dockerfiles

The standard images hold:

- Ubuntu: 20.04
- CANN: CANN {release}
"""


def test_a_pre_release_word_the_installed_toolkit_does_not_have() -> None:
    images = {"ascend_x86/Dockerfile": ASCEND, "aicc/Dockerfile": AICC}
    assert findings(CONTENTS.format(release="7.0.RC1.3.beta1"), images) == [
        "6: README says CANN 7.0.RC1.3.beta1 but ascend_x86/Dockerfile:2 says 7.0.RC1.3"
    ]
    # the toolkit's own release; the aicc base's `cann7.0rc1` agrees with it too
    assert findings(CONTENTS.format(release="7.0.RC1.3"), images) == []
    assert findings(CONTENTS.format(release="7.0.RC1"), {"aicc/Dockerfile": AICC}) == []


HABANA = (
    "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n"
    'LABEL name="notebook-habana-1.15.1" \\\n'
    '    description="Jupyter HabanaAI 1.15.1 notebook image with Python 3.10"\n'
    "RUN echo x\n"
)
NOTEBOOK = """\
# Habana Notebook Image
This folder holds the Dockerfile of a Notebook image compatible with {release} Habana Version.

Firmware 1.14.0 or 1.15.1 Habana version of the host works.
"""


def test_a_version_written_before_its_name() -> None:
    assert findings(NOTEBOOK.format(release="1.13.0"), {"Dockerfile": HABANA}) == [
        "2: README says Habana 1.13.0 but Dockerfile:3 says HabanaAI 1.15.1 (its LABEL description)"
    ]
    assert findings(NOTEBOOK.format(release="1.15.1"), {"Dockerfile": HABANA}) == []
