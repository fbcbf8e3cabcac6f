"""`docgen.audit.drivers` and `hardware.driver_too_old`: a minimum host driver a README states below what
the CUDA release of an image it covers needs (CUDA 13.x needs driver 580; minor version compatibility
makes 525 enough for any 12.x).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.hardware import driver_too_old

TRAINER = "FROM nvidia/cuda:13.0.1-cudnn-runtime-ubuntu24.04\nRUN pip install accelerate==1.10.1\n"
SERVE = "FROM pytorch/pytorch:2.6.0-cuda12.4-cudnn9-runtime\nRUN pip install fastapi==0.115.0\n"
LEGACY = "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\nRUN pip install flask==3.0.3\n"


@pytest.mark.parametrize(
    ("driver", "cuda", "reason"),
    [
        ("525", "13.0.1", "CUDA 13.0 needs driver 580 or newer"),
        ("525.60.13", "12.9", None),
        ("520", "12.0", "CUDA 12.0 needs driver 525 or newer"),
        ("450", "11.8", None),
        ("418", "11.2", "CUDA 11.2 needs driver 450.80.02 or newer"),
        ("580", "13.1", None),
        ("535", "10.2", None),  # a release the table does not hold: not known
    ],
)
def test_the_driver_a_cuda_release_needs(driver: str, cuda: str, reason: str | None) -> None:
    assert driver_too_old(driver, cuda) == reason


@pytest.mark.parametrize(
    "said",
    [
        "- Works on hosts with NVIDIA driver ≥ 525.x (R570+ recommended)",
        "Requires an r535+ driver on the host.",
        "You need NVIDIA driver 550 or newer.",
        "| Host driver | >= 470.82 |",
        "The trainer uses CUDA 13, which requires NVIDIA drivers 535 and later.",
        "Minimum driver version: 470.",
    ],
)
def test_a_minimum_driver_below_what_one_image_needs(said: str) -> None:
    table = "| What | Needed |\n|---|---|\n"
    readme = f"# Images\n\nBoth run on recent GPUs.\n\n## Requirements\n\n{table}| Docker | 24+ |\n\n{said}\n"
    if said.startswith("|"):
        readme = f"# Images\n\n## Requirements\n\n{table}{said}\n"
    found = findings(readme, {"Dockerfile.trainer": TRAINER, "Dockerfile.serve": SERVE})
    assert (
        len(found) == 1
        and "Dockerfile.trainer:1 runs on CUDA 13.0.1: CUDA 13.0 needs driver 580 or newer" in found[0]
    )


@pytest.mark.parametrize(
    "said",
    [
        "Requires NVIDIA driver 580 or newer.",  # the exact minimum
        "Tested with NVIDIA driver 550 on our workstations.",  # a driver used, not a minimum
        "We recommend driver 535+ for best results.",  # a recommendation
        "You need the NVIDIA driver and at least 500 GB of disk.",  # no driver figure
        "The CUDA 12.4 image runs with driver >= 525.",  # about the other image, by its CUDA
        "`Dockerfile.serve` needs driver 525 or newer.",  # about the other image, by name
    ],
)
def test_the_nearest_true_statements(said: str) -> None:
    readme = f"# Images\n\n{said}\n"
    assert findings(readme, {"Dockerfile.trainer": TRAINER, "Dockerfile.serve": SERVE}) == []


def test_a_heading_naming_another_cuda_release() -> None:
    readme = "# Images\n\n## The CUDA 11 image\n\nIt needs driver 450.80.02 or later.\n"
    assert findings(readme, {"Dockerfile.legacy": LEGACY, "Dockerfile.trainer": TRAINER}) == []


def test_a_base_chosen_with_a_build_arg_is_likely() -> None:
    from docgen.audit import audit
    from docgen.dockerfile import parse_dockerfile
    from docgen.pipeline import model_of

    text = "ARG BASE=nvidia/cuda:13.0.1-runtime-ubuntu24.04\nFROM ${BASE}\n"
    model = model_of(parse_dockerfile(text, "Dockerfile"))
    readme = "# App\n\nNVIDIA driver 535 or newer.\n"
    assert [(d.line, d.confidence) for d in audit(readme, "README.md", model)] == [(3, "likely")]


@pytest.mark.parametrize(
    ("dockerfile", "confidence"),
    [
        ("FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n", "certain"),
        # CUDA's forward compatibility: an NGC framework base ships it, or the image installs it; it
        # works on data-centre GPUs only, so an older minimum is doubtful there, not wrong
        ("FROM nvcr.io/nvidia/cuda-dl-base:25.09-cuda13.0-devel-ubuntu24.04\n", "likely"),
        ("FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\nRUN apt-get install -y cuda-compat-13-0\n", "likely"),
    ],
)
def test_an_image_that_may_run_on_an_older_driver_is_likely(dockerfile: str, confidence: str) -> None:
    from docgen.audit import audit
    from docgen.dockerfile import parse_dockerfile
    from docgen.pipeline import model_of

    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    readme = "# App\n\nNVIDIA driver 535 or newer.\n"
    assert [(d.line, d.confidence) for d in audit(readme, "README.md", model)] == [(3, confidence)]


def test_a_section_over_older_images_is_not_read() -> None:
    readme = "# Images\n\n## Legacy images\n\nThese ran on NVIDIA driver 470 or newer.\n"
    assert findings(readme, {"Dockerfile.trainer": TRAINER}) == []
    # the same sentence in a section about the images of today
    readme = readme.replace("## Legacy images", "## Hosts")
    assert len(findings(readme, {"Dockerfile.trainer": TRAINER})) == 1


BLACKWELL = "FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04\nRUN pip install onnx==1.17.0\n"


@pytest.mark.parametrize(
    "said",
    [
        "- A Linux host with an NVIDIA GPU (driver 560+ recommended for Blackwell)",
        "RTX 5090 cards need driver 550 or newer.",
    ],
)
def test_a_blackwell_driver_below_r570(said: str) -> None:
    found = findings(f"# Images\n\n## Requirements\n\n{said}\n", {"Dockerfile": BLACKWELL})
    assert found == [
        "5: README says NVIDIA driver "
        + ("560" if "560" in said else "550")
        + " or newer for Blackwell GPUs but Dockerfile:1 runs on CUDA 12.8.1, and Blackwell GPUs need "
        "driver 570 or newer"
    ]


@pytest.mark.parametrize(
    ("said", "dockerfile"),
    [
        ("Driver 575+ recommended for Blackwell.", BLACKWELL),  # R570 or newer
        ("Driver 560+ recommended for Blackwell.", LEGACY),  # an image older than CUDA 12.8
        ("Driver 560+ recommended; Ada and Hopper work too.", BLACKWELL),  # no Blackwell named
        ("Tested with driver 560 on a Blackwell box.", BLACKWELL),  # a driver used, not a minimum
    ],
)
def test_blackwell_traps(said: str, dockerfile: str) -> None:
    assert findings(f"# Images\n\n{said}\n", {"Dockerfile": dockerfile}) == []


# A driver stated by the CUDA release it supports, compared by the CUDA major alone. Modelled on two
# shapes of real READMEs: a numbered prerequisites list of a JupyterLab fine-tuning image and a bulleted
# requirements list of a robotics notebook image.
NOTEBOOK = "FROM nvidia/cuda:13.0.0-devel-ubuntu24.04\nRUN pip install jupyterlab==4.4.0\n"
NOTEBOOK_12 = "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\nRUN pip install jupyterlab==4.4.0\n"


@pytest.mark.parametrize(
    "said",
    [
        "1. **NVIDIA GPU Drivers** supporting CUDA 12.6  \n   Check:\n   ```bash\n   nvidia-smi\n   ```",
        "- A GPU with drivers supporting CUDA 12.2",
        "- NVIDIA driver compatible with CUDA 12.x installed on the host",
    ],
)
def test_a_driver_of_an_older_cuda_major(said: str) -> None:
    readme = f"# Lab image\n\n## Prerequisites\n\n{said}\n\n2. Docker\n"
    found = findings(readme, {"Dockerfile": NOTEBOOK})
    assert len(found) == 1 and "runs on CUDA 13.0.0, which needs a driver supporting CUDA 13" in found[0]


@pytest.mark.parametrize(
    ("said", "dockerfile"),
    [
        ("- A GPU with drivers supporting CUDA 12.2 or newer", NOTEBOOK),  # a minimum
        ("- A GPU with drivers supporting CUDA 12.2+", NOTEBOOK),
        ("Make sure you have up-to-date drivers supporting CUDA 12.1 at least.", NOTEBOOK),
        ("> Drivers supporting CUDA 12.x are backward-compatible with 11.x builds.", NOTEBOOK),
        ("- A GPU with drivers supporting CUDA 13.0", NOTEBOOK),  # the image's own major
        ("- A GPU with drivers supporting CUDA 12.4", NOTEBOOK_12),  # another minor: compatible
        ("- NVIDIA driver 580 or newer", NOTEBOOK),  # a driver number, not a CUDA release
        ("We tested on drivers supporting CUDA 12.4.", NOTEBOOK),  # a test, not a requirement
        ("- Drivers supporting CUDA 12.4 or CUDA 13.0", NOTEBOOK),  # a choice
    ],
)
def test_driver_cuda_traps(said: str, dockerfile: str) -> None:
    readme = f"# Lab image\n\n## Prerequisites\n\n{said}\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == []


def test_driver_cuda_of_several_majors_is_not_read() -> None:
    readme = "# Images\n\n## Prerequisites\n\n- A GPU with drivers supporting CUDA 12.4\n"
    assert findings(readme, {"Dockerfile.new": NOTEBOOK, "Dockerfile.old": NOTEBOOK_12}) == []
