"""`docgen.audit.downloaded_copies`: a package a README links to download whose file name is the one an
audited Dockerfile copies from the build context but with other numbers (another version or OS release)
is a `certain` finding naming the COPY; a name the README offers too, a file the context holds, a
download a command renames, another package and a glob are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# an inference image that needs a vendor tarball the reader downloads by hand
TRT_DOCKERFILE = """\
FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04
WORKDIR /workspace
COPY TensorRT-7.2.3.4.Ubuntu-18.04.x86_64-gnu.cuda-11.1.cudnn8.1.tar.gz /workspace/
RUN tar -xzf TensorRT-7.2.3.4.Ubuntu-18.04.x86_64-gnu.cuda-11.1.cudnn8.1.tar.gz
"""
TRT = "TensorRT-7.2.3.4.Ubuntu-18.04.x86_64-gnu.cuda-11.1.cudnn8.1.tar.gz"
TRT_1604 = TRT.replace("18.04", "16.04")
TRT_URL = "https://developer.example.com/tensorrt/secure/7.2.3/tars/"

# a desktop app image that installs a .deb the reader fetches from the releases page
DEB_DOCKERFILE = (
    "FROM ubuntu:22.04\nCOPY viewer_2.4.1_amd64.deb /tmp/\n"
    "RUN apt-get install -y /tmp/viewer_2.4.1_amd64.deb\n"
)


def found(
    root: Path, dockerfile: str, readme: str, extra: dict[str, str] | None = None
) -> list[tuple[int, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", [model], {}, root)
        if "to download" in d.message
    ]


def trt_readme(link: str, commands: str = "docker build -t infer .") -> str:
    intro = f"Place the Dockerfile and the {link} package together in this folder."
    return f"## Build\n{intro}\n\n```\n{commands}\n```\n"


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # the link's text is the copied name, its URL another OS release's
        (
            trt_readme(f"[{TRT}]({TRT_URL}{TRT_1604})"),
            [
                (
                    2,
                    f"README links {TRT_1604} to download, but Dockerfile:3 copies {TRT}: the build does not "
                    "find the file downloaded",
                )
            ],
        ),
        # a bare URL of another version
        (
            trt_readme(f"{TRT_URL}{TRT.replace('7.2.3.4', '7.2.1.6')}"),
            [
                (
                    2,
                    f"README links {TRT.replace('7.2.3.4', '7.2.1.6')} to download, but Dockerfile:3 copies "
                    f"{TRT}: the build does not find the file downloaded",
                )
            ],
        ),
        # the name copied, offered too, or a command saving the download under it
        (trt_readme(f"[{TRT}]({TRT_URL}{TRT})"), []),
        (trt_readme(f"{TRT_URL}{TRT_1604} (or {TRT_URL}{TRT})"), []),
        (trt_readme("package", f"wget {TRT_URL}{TRT_1604} -O {TRT}\ndocker build -t infer ."), []),
        # another package whose name is not the copied one with other numbers
        (trt_readme(f"{TRT_URL}onnxruntime-linux-x64-1.5.1.tgz"), []),
        (trt_readme(f"{TRT_URL}TensorRT-7.2.3.4.Windows10.x86_64.cuda-11.1.cudnn8.1.zip"), []),
    ],
)
def test_a_download_of_another_version_than_the_copy(
    tmp_path: Path, readme: str, expected: list[tuple[int, str]]
) -> None:
    assert found(tmp_path, TRT_DOCKERFILE, readme) == expected


def test_a_file_the_context_holds_needs_no_download(tmp_path: Path) -> None:
    readme = trt_readme(f"[{TRT}]({TRT_URL}{TRT_1604})")
    assert found(tmp_path, TRT_DOCKERFILE, readme, {TRT: "x"}) == []


def test_a_deb_of_another_release(tmp_path: Path) -> None:
    readme = (
        "# Viewer\n\nDownload https://github.com/acme/viewer/releases/download/v2.3.0/viewer_2.3.0_amd64.deb"
        " next to the Dockerfile, then:\n\n```\ndocker build -t viewer .\n```\n"
    )
    assert found(tmp_path / "a", DEB_DOCKERFILE, readme) == [
        (
            3,
            "README links viewer_2.3.0_amd64.deb to download, but Dockerfile:2 copies "
            "viewer_2.4.1_amd64.deb: the build does not find the file downloaded",
        )
    ]
    # a glob copies any release
    globbed = DEB_DOCKERFILE.replace("COPY viewer_2.4.1_amd64.deb", "COPY viewer_*_amd64.deb")
    assert found(tmp_path / "b", globbed, readme) == []
