"""`docgen audit`: a build arg's default a README states that the Makefile it builds with passes
otherwise (docgen/audit/make_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "ARG RELEASE=22.04\nFROM ubuntu:${RELEASE}\nARG GPU=sm_80\nRUN echo $GPU\n"
MAKEFILE = (
    "GPU ?= sm_90\n\nbuild:\n\tdocker build --build-arg GPU=$(GPU) --build-arg RELEASE=22.04 -t app .\n"
)


def found(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "Makefile": MAKEFILE, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_a_default_the_makefile_passes_otherwise(tmp_path: Path) -> None:
    readme = "# App\n\nBuild with `make build`.\n\n- **`GPU`** (default: `sm_80`): the GPU target\n"
    assert found(tmp_path, readme) == [
        (
            5,
            "README says GPU defaults to sm_80, Dockerfile's default, but make passes sm_90 (Makefile:1)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "Build with `make build`.\n\n- **`GPU`** (default: `sm_90`): the target make passes\n",
        "Build with `make build`.\n\n- **`RELEASE`** (default: `22.04`)\n",  # both agree
        "Build with `docker build -t app .`\n\n- **`GPU`** (default: `sm_80`)\n",  # no make
    ],
)
def test_defaults_left_alone(tmp_path: Path, readme: str) -> None:
    assert [f for f in found(tmp_path, f"# App\n\n{readme}") if "make passes" in f[1]] == []


def test_a_makefile_larger_than_docgen_reads_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = "# App\n\nBuild with `make build`.\n\n- **`GPU`** (default: `sm_80`): the GPU target\n"
    monkeypatch.setattr("docgen.audit.make_targets.MAX_FILE_BYTES", len(MAKEFILE) - 1)
    assert [f for f in found(tmp_path, readme) if "make passes" in f[1]] == []


def _audit_cli(root: Path, files: dict[str, str]) -> list[str]:
    return [line for line in audit_tree(root, files).out.splitlines() if ": error: " in line]


SUITE = (
    "FROM ubuntu:22.04\nARG SUITE_VERSION\n"
    "RUN curl -fsSL https://example.org/suite-v${SUITE_VERSION}.tgz | tar xz\n"
)
SUITE_MAKE = (
    "SUITE_VERSION ?= 4.5.3\nRUNTIME ?= docker\n\nbuild:\n"
    "\t$(RUNTIME) build --build-arg SUITE_VERSION=$(SUITE_VERSION) . -f Dockerfile.desktop -t suite\n"
)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        (
            "# docker image for suite v2",
            ["README.md:1: error: README says suite v2 but Makefile:1 says 4.5.3 [DG101] (likely)"],
        ),
        ("# docker image for suite v4", []),
        (
            "# docker image for suite 4.4.0",
            ["README.md:1: error: README says suite 4.4.0 but Makefile:1 says 4.5.3 [DG101] (likely)"],
        ),
    ],
)
def test_the_value_make_passes_an_arg_with_no_default_is_the_image_s(
    tmp_path: Path, title: str, expected: list[str]
) -> None:
    # the shape of a licensed scientific package's desktop image: the Dockerfile's ARG has no default,
    # the Makefile's `?=` gives the version `make build` installs
    readme = f"{title}\n\nBuild it:\n\n```\nmake build\n```\n"
    files = {"README.md": readme, "Dockerfile.desktop": SUITE, "Makefile": SUITE_MAKE}
    assert _audit_cli(tmp_path, files) == expected


def _all(root: Path, files: dict[str, str], readme: str) -> list[str]:
    make_tree(root, {**files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model, {}, root, root)]


SDK_DOCKERFILE = "FROM ubuntu:22.04\nARG SDK_VERSION=7.1.70100-1\nRUN echo ${SDK_VERSION} > /sdk\n"
SDK_MAKEFILE = (
    "# Build arguments\nSDK_VERSION ?= 7.1.1.70101-1\n\n"
    "build:\n\tdocker build \\\n\t\t--build-arg SDK_VERSION=$(SDK_VERSION) \\\n\t\t-t sdk .\n"
)
ARCH_DOCKERFILE = (
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG CUDA_ARCH=80\nRUN make CUDA_ARCH=${CUDA_ARCH}\n"
)
ARCH_MAKEFILE = "CUDA_ARCH := 86\nimage:\n\tdocker build --build-arg CUDA_ARCH=$(CUDA_ARCH) -t kernels .\n"


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # a list of the Makefile's variables, each with its default and the line using it
        (
            {"Dockerfile": SDK_DOCKERFILE, "Makefile": SDK_MAKEFILE},
            "# SDK\n\n## Variables\n\n- **`SDK_VERSION`** (default: `7.1.1.70101-1`)\n"
            "  - SDK release for the build\n  - Used in: Makefile line 2, Dockerfile ARG\n",
        ),
        # a table of build args, read where `make image` builds
        (
            {"Dockerfile": ARCH_DOCKERFILE, "Makefile": ARCH_MAKEFILE},
            "# Kernels\n\nRun `make image`.\n\n| Build arg | Default | Meaning |\n|---|---|---|\n"
            "| `CUDA_ARCH` | `86` | the GPU target |\n",
        ),
    ],
)
def test_a_default_the_makefile_passes_is_the_readmes(
    tmp_path: Path, files: dict[str, str], readme: str
) -> None:
    assert [f for f in _all(tmp_path, files, readme) if "defaults to" in f] == []


def test_a_default_neither_the_dockerfile_nor_the_makefile_gives(tmp_path: Path) -> None:
    readme = "# SDK\n\n- **`SDK_VERSION`** (default: `6.4.3`)\n"
    files = {"Dockerfile": SDK_DOCKERFILE, "Makefile": SDK_MAKEFILE}
    assert _all(tmp_path, files, readme) == [
        "3: README says SDK_VERSION defaults to 6.4.3 but Dockerfile:2 says 7.1.70100-1"
    ]
    # a Makefile building another Dockerfile passes nothing to this one
    other = SDK_MAKEFILE.replace("-t sdk .", "-f Dockerfile.slim -t sdk .")
    readme = "# SDK\n\n- **`SDK_VERSION`** (default: `7.1.1.70101-1`)\n"
    assert _all(tmp_path / "b", {"Dockerfile": SDK_DOCKERFILE, "Makefile": other}, readme) == [
        "3: README says SDK_VERSION defaults to 7.1.1.70101-1 but Dockerfile:2 says 7.1.70100-1"
    ]
