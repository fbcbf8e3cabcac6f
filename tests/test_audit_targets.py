"""`docgen.audit.targets`: a list of GPU targets introduced as what the image itself is compiled for
(`This image is compiled for broad AMD GPU compatibility:`) that is the target build arg's list but for
a slip is `certain`; the same list under weaker words, or a list sharing few of the default's targets,
stays `likely`, and a list to choose from says nothing.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = (
    "FROM rocm/dev-ubuntu-22.04:6.4\n"
    "ARG ROCM_ARCH=gfx900,gfx906,gfx908,gfx90a,gfx942,gfx1030,gfx1100,gfx1101\n"
    "RUN cmake -DAMDGPU_TARGETS=${ROCM_ARCH} .\n"
)

LIST = (
    "- Vega: gfx900, gfx906\n- CDNA: gfx908, gfx90a, gfx942\n- RDNA 2: gfx1030, gfx1031\n"
    "- RDNA 3: gfx1100, gfx1101\n"
)


def said(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    return [
        (d.line, d.confidence) for d in audit(readme, "README.md", [model], {}) if "GPU targets" in d.message
    ]


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        # the image itself is said to be compiled for the list, which is the build arg's but for gfx1031
        ("This image is compiled for broad AMD GPU compatibility:", [(7, "certain")]),
        ("The binaries are built for these GPUs:", [(7, "certain")]),
        # weaker words: the list may be the project's, not this build's
        ("Compiled for these GPUs:", [(7, "likely")]),
        # a list to choose from
        ("This image is compiled for your GPU: pick its target.", []),
        # the image's hardware, not its build
        ("This image was tested on:", []),
    ],
)
def test_a_target_list_said_of_the_image(intro: str, expected: list[tuple[int, str]]) -> None:
    assert said(f"# Image\n\n{intro}\n\n{LIST}") == expected


def test_a_short_list_is_not_the_build_args_list() -> None:
    # two of the default's eight targets and one it lacks: a list of highlights, not the build's list
    readme = (
        "# Image\n\nThis image is compiled for:\n\n- gfx942 (MI300X)\n- gfx1100 (RX 7900 XTX)\n- gfx1201\n"
    )
    assert said(readme) == [(7, "likely")]
