"""`docgen.audit.auditor`: which pins a version claim is compared with.

- a base image named after a project (`example/trainkit:3.1.0_cu121-latest`) whose project a later step
  installs again (`git clone …/trainkit.git`, `pip install trainkit`): the tag is the base's stack
  (its torch, its CUDA), not the project's version, which is the clone's or the install's.
- a claim more precise than a pin that agrees with it (`CUDA 12.6.0` beside a wheel index's `cu126`,
  which tells 12.6 only): the image's pin as precise as the claim (its base tag `12.6.3-…`) decides.
- the Dockerfile of the family an image is built on (`own_base`, `OwnBases`), told once for a family.
- a ROCm or CUDA release said of the base image (`ROCm 6.5.3 (base image from rocm/dev-ubuntu-24.04)`)
  contradicting every pin: compared with the tag of the FROM it names, not the wheels installed over it.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import findings, model_of

from docgen.audit import audit
from docgen.audit.auditor import OwnBases, norm, own_base
from docgen.audit.paths import tag_names
from docgen.dockerfile import parse_dockerfile
from docgen.model import ImageModel

BASE = "FROM example/trainkit:3.1.0_cu121-latest\n"
CLONE = "RUN git clone --branch {ref} --depth 1 https://example.com/acme/trainkit.git /tk\n"
CLONE_BRANCH = BASE + CLONE.format(ref="release/v0.9.0")
CLONE_TAG = BASE + CLONE.format(ref="v0.9.0")
PIP_PIN = BASE + "RUN pip install trainkit==0.9.0\n"
PIP_LOOSE = BASE + "RUN pip install -U trainkit\n"
ALONE = "FROM example/trainkit:0.9.0\nRUN pip install flask==3.0.3\n"

LISTED = """\
# Trainkit image

The image is based on `example/trainkit:3.1.0_cu121-latest` and includes:

- **Trainkit v{version}**: the training framework
"""


@pytest.mark.parametrize("dockerfile", [CLONE_BRANCH, CLONE_TAG, PIP_PIN, PIP_LOOSE])
def test_a_project_installed_over_a_base_named_after_it_is_not_the_tag_s_version(dockerfile: str) -> None:
    assert findings(LISTED.format(version="0.9.0"), {"Dockerfile": dockerfile}) == []


@pytest.mark.parametrize(
    ("dockerfile", "expected"),
    [
        (CLONE_TAG, "5: README says Trainkit v0.8.0 but Dockerfile:2 says v0.9.0"),
        (PIP_PIN, "5: README says Trainkit v0.8.0 but Dockerfile:2 says 0.9.0"),
    ],
)
def test_a_stale_version_of_the_project_is_compared_with_its_install(dockerfile: str, expected: str) -> None:
    assert findings(LISTED.format(version="0.8.0"), {"Dockerfile": dockerfile}) == [expected]


def test_a_base_named_after_the_project_still_gives_its_version_when_nothing_installs_it_again() -> None:
    assert findings(LISTED.format(version="0.8.0"), {"Dockerfile": ALONE}) == [
        "5: README says Trainkit v0.8.0 but Dockerfile:1 says 0.9.0"
    ]
    assert findings(LISTED.format(version="0.9.0"), {"Dockerfile": ALONE}) == []


WHEELS = "FROM nvidia/cuda:{base}-cudnn-devel-ubuntu22.04\nRUN pip install torch==2.5.1 --index-url {index}\n"
TORCH_CU126 = "https://download.pytorch.org/whl/cu126"
SLIM = f"FROM python:3.12-slim\nRUN pip install torch==2.5.1 --index-url {TORCH_CU126}\n"
ENTRY = "# Images\n\n> gpu-a\n> cuda: {cuda} / torch: 2.5.1\n"


def test_a_wheel_index_release_does_not_confirm_a_more_precise_claim_its_base_tag_contradicts() -> None:
    family = {
        "gpu-a/Dockerfile": WHEELS.format(base="12.6.3", index=TORCH_CU126),
        "gpu-b/Dockerfile": WHEELS.format(base="12.4.1", index="https://download.pytorch.org/whl/cu124"),
    }
    assert findings(ENTRY.format(cuda="12.6.0"), family) == [
        "4: README says cuda 12.6.0 but gpu-a/Dockerfile:1 says 12.6.3"
    ]
    # a single image too: its prose claim against its own base tag
    single = {"Dockerfile": WHEELS.format(base="12.6.3", index=TORCH_CU126)}
    assert findings("# Image\n\nThe image ships CUDA 12.6.0.\n", single) == [
        "3: README says CUDA 12.6.0 but Dockerfile:1 says 12.6.3"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the claim as precise as the index: the wheels' CUDA, true whatever the base's release
        (ENTRY.format(cuda="12.6"), {"gpu-a/Dockerfile": WHEELS.format(base="12.8.1", index=TORCH_CU126)}),
        # the base tag agrees at the claim's precision
        (ENTRY.format(cuda="12.6.3"), {"gpu-a/Dockerfile": WHEELS.format(base="12.6.3", index=TORCH_CU126)}),
        # a sibling's precise base tag says nothing of an image that only has the index's release
        (
            "# Images\n\nEvery image ships CUDA 12.6.0.\n",
            {
                "slim/Dockerfile": SLIM,
                "full/Dockerfile": WHEELS.format(base="12.6.3", index=TORCH_CU126),
            },
        ),
    ],
)
def test_a_coarse_agreement_stands_when_no_pin_of_the_same_image_is_as_precise_and_different(
    readme: str, files: dict[str, str]
) -> None:
    assert findings(readme, files) == []


RADEON = (
    "# ROCm {said} runtime for RDNA cards\nFROM ubuntu:22.04\n"
    "RUN echo 'deb [arch=amd64] https://repo.radeon.com/rocm/apt/{repo}/ jammy main' "
    "> /etc/apt/sources.list.d/rocm.list && apt-get update && apt-get install -y rocminfo\n"
    "RUN pip install torch==2.1.2+rocm5.6 --index-url https://download.pytorch.org/whl/rocm5.6\n"
)
ROCM_PAGE = "# RDNA runtime\n\nThe image ships ROCm {version} and PyTorch 2.1.2.\n"


def _confidences(readme: str, dockerfile: str) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", [model], {}, None)]


def test_a_point_release_the_rocm_repository_of_its_minor_does_not_serve() -> None:
    # `…/rocm/apt/5.6/` serves 5.6.0; 5.6.1 has its own path; the comment repeating 5.6.1 is no fact
    dockerfile = RADEON.format(said="5.6.1", repo="5.6")
    assert _confidences(ROCM_PAGE.format(version="5.6.1"), dockerfile) == [
        "3: README says ROCm 5.6.1 but Dockerfile:3 says 5.6.0 (the ROCm apt repository "
        "https://repo.radeon.com/rocm/apt/5.6/ serves 5.6.0) (likely)"
    ]


@pytest.mark.parametrize(
    ("version", "repo"),
    [
        ("5.6", "5.6"),  # as precise as the repository
        ("5.6.0", "5.6"),  # the release it serves
        ("5.6.x", "5.6"),
        ("5.6.1", "5.6.1"),  # a point release's own repository
        ("5.6", "5.6.1"),
    ],
)
def test_rocm_releases_the_repository_serves(version: str, repo: str) -> None:
    assert _confidences(ROCM_PAGE.format(version=version), RADEON.format(said=version, repo=repo)) == []


def test_another_minor_than_the_rocm_repository_s_stays_as_sure_as_its_claim() -> None:
    table = "# RDNA runtime\n\n| Component | Version |\n|---|---|\n| ROCm | 5.5.1 |\n"
    assert _confidences(table, RADEON.format(said="5.6", repo="5.6")) == [
        "5: README says ROCm 5.5.1 but Dockerfile:3 says 5.6 (certain)"
    ]
    table = table.replace("5.5.1", "5.6.1")
    assert _confidences(table, RADEON.format(said="5.6", repo="5.6")) == [
        "5: README says ROCm 5.6.1 but Dockerfile:3 says 5.6.0 (the ROCm apt repository "
        "https://repo.radeon.com/rocm/apt/5.6/ serves 5.6.0) (likely)"
    ]


def _own_base_one_at_a_time(model: ImageModel, family: Sequence[ImageModel]) -> ImageModel | None:
    """`own_base` as it was, the family's paths scored again for each image: what `OwnBases` must give."""
    stage = model.target
    seen = 0
    while stage is not None and stage.parent is not None and seen < len(model.stages):
        stage, seen = model.stages[stage.parent], seen + 1
    reference = stage.base.split("@", 1)[0] if stage is not None else ""
    if ":" not in reference.rsplit("/", 1)[-1]:
        return None
    tag = reference.rsplit(":", 1)[1]
    scores = [0 if o.path == model.path else tag_names(tag, o.path, norm) for o in family]
    best = max(scores, default=0)
    named = [i for i, score in enumerate(scores) if score == best]
    return family[named[0]] if best and len(named) == 1 else None


def test_own_bases_of_a_family_read_once_are_those_told_one_image_at_a_time() -> None:
    """`OwnBases` scores the family's paths once for each FROM tag and Dockerfile (a compose file of
    thousands of services building one Dockerfile asked the whole family again for each): the bases it
    tells, and the chains it builds, are those of scoring each image alone. The family: bases named by
    a tag (`base-fi0.2.6`), the same Dockerfile built many times, a tag naming two Dockerfiles alike
    (none), one naming itself, an untagged base, a stage."""
    texts = {
        "Dockerfile.base.fi0.2.6": "FROM nvidia/cuda:12.6.3-devel\nRUN pip install torch==2.7.1\n",
        "Dockerfile.base.fi0.3": "FROM nvidia/cuda:12.8.1-devel\nRUN pip install torch==2.8.0\n",
        "Dockerfile.app": "FROM acme/verl:base-v2-cu126-fi0.2.6\nRUN pip install verl==0.4\n",
        "Dockerfile.app.fi0.3": "FROM acme/verl:base-fi0.3\nRUN pip install verl==0.5\n",
        "Dockerfile.self": "FROM acme/verl:self\nRUN echo\n",
        "Dockerfile.plain": "FROM ubuntu\nRUN echo\n",
        "Dockerfile.stage": "FROM acme/verl:base-fi0.3 AS b\nFROM b\nRUN echo\n",
        "Dockerfile.lab": "FROM acme/lab:lab-v1\nRUN echo\n",
        "Dockerfile.tie": "FROM acme/z:gpu\nRUN echo\n",
        "north/Dockerfile.gpu": "FROM ubuntu:22.04\n",
        "south/Dockerfile.gpu": "FROM ubuntu:22.04\n",
    }
    models = {path: model_of(parse_dockerfile(text, path)) for path, text in texts.items()}
    family = [*models.values(), *(models["Dockerfile.lab"] for _ in range(30))]
    family += [model_of(parse_dockerfile(texts["Dockerfile.app"], "Dockerfile.app")) for _ in range(5)]
    bases = OwnBases(family)
    told = [bases(m) for m in family]
    assert told == [_own_base_one_at_a_time(m, family) for m in family]
    assert [own_base(m, family) for m in family] == told
    assert [None if b is None else b.path for b in told[:9]] == [
        None,
        None,
        "Dockerfile.base.fi0.2.6",
        "Dockerfile.base.fi0.3",
        None,
        None,
        "Dockerfile.base.fi0.3",
        None,
        None,
    ]
    for model in family:
        chain = [model]
        for held in chain:
            base = _own_base_one_at_a_time(held, family)
            if base is not None and all(base is not c for c in chain):
                chain.append(base)
        assert bases.chain((model,)) == tuple(chain)


# --- a ROCm or CUDA release said of the base image ----------------------------------------------------

ROCM_STACK = {
    "base/Dockerfile": "FROM docker.io/rocm/dev-ubuntu-24.04:6.4.3-complete\n"
    "RUN pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ "
    "torch==2.7.1+rocm7.0.0rc20250826\n",
    "comfyui/Dockerfile": "FROM localhost/rocm_base:latest\n"
    "RUN pip install torchvision==0.22.1+rocm7.0.0rc20250826\n",
}
ROCM_README = """\
# ROCm PyTorch images

## The base image

Includes:

- Ubuntu 24.04 with ROCm {base} driver (base image from [ROCm dev-ubuntu-24.04](https://hub.docker.com/r/rocm/dev-ubuntu-24.04))
- ROCm {wheels}
"""
CUDA_IMAGE = {
    "Dockerfile": "FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04\n"
    "RUN pip install torch==2.4.1 --index-url https://download.pytorch.org/whl/cu124\n"
}


def _said(readme: str, dockerfiles: dict[str, str]) -> list[tuple[int, str, str]]:
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", models, {})]


def test_a_rocm_release_said_of_the_base_image_is_its_tags() -> None:
    assert _said(ROCM_README.format(base="6.5.3", wheels="7.0.0rc"), ROCM_STACK) == [
        (
            7,
            "README says ROCm 6.5.3 of the base image but base/Dockerfile:1 says "
            "rocm/dev-ubuntu-24.04:6.4.3-complete (ROCm 6.4.3)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("base", "wheels"),
    [
        ("6.4.3", "7.0.0rc"),  # both true: the base's ROCm, the wheels' ROCm
        ("6.4", "7.0"),  # as precise as the README writes them
    ],
)
def test_the_base_images_release_and_the_wheels_release_both_hold(base: str, wheels: str) -> None:
    assert _said(ROCM_README.format(base=base, wheels=wheels), ROCM_STACK) == []


def test_a_cuda_release_said_of_the_base_in_words_is_compared_with_its_tag() -> None:
    readme = "# Trainer\n\nThe image uses CUDA 11.8 from its base image, with PyTorch 2.4.1.\n"
    assert _said(readme, CUDA_IMAGE) == [
        (
            3,
            "README says CUDA 11.8 of the base image but Dockerfile:1 says "
            "nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 (CUDA 12.1.1)",
            "likely",
        )
    ]
    # trap: the wheels' CUDA said of the wheels agrees with a pin, whatever the base image's tag says
    assert (
        _said("# Trainer\n\nPyTorch wheels for CUDA 12.4 on the nvidia/cuda base image.\n", CUDA_IMAGE) == []
    )


def test_a_release_not_said_of_the_base_is_compared_as_before() -> None:
    readme = "# Trainer\n\nThe image ships CUDA 11.8.\n"
    assert [(line, confidence) for line, _, confidence in _said(readme, CUDA_IMAGE)] == [(3, "likely")]
    assert "of the base image" not in _said(readme, CUDA_IMAGE)[0][1]
