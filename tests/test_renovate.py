"""`# renovate:` annotations (docgen/renovate.py): they give a component its name and source, are never
a build arg's purpose nor a link that is no http(s) URL, and odd ones cause no traceback."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import make_tree, run

CONFIG = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
README = "# img\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"


def test_renovate_annotation_is_never_a_purpose(chdir_tmp: Path) -> None:
    dockerfile = (
        "FROM ubuntu:24.04\n"
        "# renovate: datasource=github-releases depName=vllm-project/vllm\n"
        "ARG VLLM_TAG=v0.6.0\n"
        "# The ROCm release.\n"
        "# renovate: datasource=docker depName=rocm/dev-ubuntu-22.04\n"
        "ARG ROCM_VERSION=7.0\n"
        "RUN echo $VLLM_TAG $ROCM_VERSION\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    out = run("show", "Dockerfile", "--format", "json").out
    assert "renovate" not in out.split('"components"')[0]
    assert '"description": "The ROCm release."' in out


def test_renovate_annotation_gives_the_component_its_name_and_source(chdir_tmp: Path) -> None:
    dockerfile = (
        "FROM ubuntu:24.04 AS base\n"
        "# renovate: datasource=github-releases depName=vllm-project/vllm\n"
        "ARG VLLM_TAG=v0.6.0\n"
        "# renovate: datasource=github-tags depName=ROCm/aiter\n"
        "ARG AITER_COMMIT=0123456789abcdef0123456789abcdef01234567\n"
        "RUN git clone https://github.com/ROCm/aiter.git /a && cd /a && git checkout ${AITER_COMMIT}\n"
        "RUN echo $VLLM_TAG > /versions\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    components = json.loads(run("show", "Dockerfile", "--format", "json").out)["components"]
    found = {c["arg"]: (c["name"], c["source"], c["version"] or c["ref"]) for c in components if c["arg"]}
    assert found == {
        "VLLM_TAG": ("vllm", "https://github.com/vllm-project/vllm", "v0.6.0"),
        "AITER_COMMIT": (
            "aiter",
            "https://github.com/ROCm/aiter",
            "0123456789abcdef0123456789abcdef01234567",
        ),
    }


def test_a_renovate_source_that_is_no_http_url_is_never_a_link(chdir_tmp: Path) -> None:
    # git-tags, docker and unknown datasources take the depName as the source as written
    dockerfile = "FROM ubuntu:22.04\n"
    for n, (source, dep) in enumerate(
        [("git-tags", "javascript:alert(1)"), ("made-up", "data:text/html,x"), ("github-tags", "../../x")]
    ):
        dockerfile += f"# renovate: datasource={source} depName={dep}\nARG V{n}=1.{n}\nRUN echo ${{V{n}}}\n"
    make_tree(chdir_tmp, {"pyproject.toml": CONFIG, "README.md": README, "Dockerfile": dockerfile})
    assert run("sync").code == 0
    text = (chdir_tmp / "README.md").read_text()
    assert "`javascript:alert(1)`" in text and "`data:text/html,x`" in text
    assert "](javascript:" not in text and "](data:" not in text
    assert "(https://github.com/../../x)" in text  # an http(s) URL: its host stays github.com


def test_a_renovate_annotation_above_an_arg_without_a_name_is_no_traceback(chdir_tmp: Path) -> None:
    # `ARG =1.0` declares nothing (docgen lists no arg for it); the annotation above it names nothing
    dockerfile = (
        "FROM ubuntu:22.04\n# renovate: datasource=github-releases depName=vllm-project/vllm\nARG =1.0\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    result = run("show", "Dockerfile")
    assert result.code == 0, result.err
    assert "Traceback" not in result.err and "vllm" not in result.out
