"""The site helpers (`docgen.site`), the stage diagram (`docgen.stages`) and the short source texts of
generated tables (`docgen.render.source_text`), as pure functions over strings."""

from __future__ import annotations

import re
from pathlib import Path

import markdown

from docgen import site, stages
from docgen.pipeline import build_model
from docgen.render import commit_code, docker_build, source_text
from docgen.rows import build_arg_rows

# --------------------------------------------------------------------------------------------------
# Short source texts


def test_a_wheel_is_shown_as_package_version_python_tag_and_platform() -> None:
    url = (
        "https://repo.radeon.com/rocm/manylinux/rocm-rel-7.0.2/"
        "torch-2.9.1.dev20251204%2Brocm7.0.2.lw.git351ff442-cp312-cp312-linux_x86_64.whl"
    )
    assert source_text(url) == "torch 2.9.1.dev20251204+rocm7.0.2.lw.git351ff442 · cp312 · linux_x86_64"
    assert source_text("https://x.org/a/flash_attn-2.8.3+cu12-1abc-cp310-cp310-manylinux_2_28.whl") == (
        "flash_attn 2.8.3+cu12 · cp310 · manylinux_2_28"
    ), "a build tag is left out"


def test_other_urls_lose_the_scheme_and_long_ones_keep_their_last_segment() -> None:
    assert source_text("https://github.com/ROCm/aiter.git") == "github.com/ROCm/aiter.git"
    long = "https://cmake.org/files/v3.26/" + "x" * 40 + "/cmake-3.26.4-linux-x86_64.tar.gz"
    assert source_text(long) == "cmake-3.26.4-linux-x86_64.tar.gz"
    assert source_text("https://example.org/pkg-1.0%2Bcpu.tar.gz") == "example.org/pkg-1.0+cpu.tar.gz"


# --------------------------------------------------------------------------------------------------
# Decorating generated blocks in a page's HTML


BLOCK = """<p>Intro</p>
<!-- BEGIN docgen:versions dockerfile=abc -->
<table>
<thead>
<tr>
<th>Component</th>
<th>Version</th>
</tr>
</thead>
<tbody>
<tr>
<td>PyTorch</td>
<td><code>2.9.1.dev20251204+rocm7.0.2</code></td>
</tr>
<tr>
<td>Python</td>
<td><code>PYTHON_VERSION</code> <a href="https://x.org/a/b">x.org/a/b</a></td>
</tr>
</tbody>
</table>
<!-- END docgen:versions -->
<table><thead><tr><th>Other</th></tr></thead><tbody><tr><td><code>a.b</code></td></tr></tbody></table>
"""


def test_blocks_are_wrapped_and_cells_labelled() -> None:
    out = site.decorate_blocks(BLOCK)
    assert '<!-- BEGIN docgen:versions dockerfile=abc -->\n<div class="docgen docgen-versions">' in out
    assert "</div>\n<!-- END docgen:versions -->" in out
    assert '<td data-label="Component">PyTorch</td>' in out
    assert (
        '<td data-label="Version"><code>2.<wbr>9.<wbr>1.<wbr>dev20251204+<wbr>rocm7.<wbr>0.<wbr>2</code>'
        in out
    )
    assert "<code>PYTHON_VERSION</code>" in out
    assert '<a href="https://x.org/a/b">x.<wbr>org/<wbr>a/<wbr>b</a>' in out, "link texts, not hrefs"
    assert out.endswith("<td><code>a.b</code></td></tr></tbody></table>\n"), "tables outside blocks untouched"
    assert re.sub(r"<wbr>|<div[^>]*>\n|</div>\n| data-label=\"[^\"]*\"", "", out) == BLOCK


def test_breaks_go_after_separators_never_into_entities_or_tags() -> None:
    assert site.breakable("a&amp;b;c") == "a&amp;b;<wbr>c"
    assert site.breakable("x&#124;y") == "x&#124;<wbr>y", "an escaped | is a separator"
    assert site.breakable('<span class="k">a/</span>b') == '<span class="k">a/<wbr></span>b'
    assert site.breakable("gfx942;gfx950") == "gfx942;<wbr>gfx950"
    assert site.breakable("trailing/") == "trailing/", "no break opportunity at the very end"


def test_a_block_with_mismatched_end_is_left_alone() -> None:
    text = "<!-- BEGIN docgen:versions -->\n<table></table>\n<!-- END docgen:hardware -->\n"
    assert site.decorate_blocks(text) == text


# --------------------------------------------------------------------------------------------------
# Dockerfile pages


def test_dockerfile_page_has_an_anchor_per_line_with_that_line() -> None:
    text = 'FROM ubuntu:22.04 AS base\n\nRUN echo "<b>&" \\\n    && true\n'
    page = site.dockerfile_page(text, "docker/Dockerfile", "https://example.org/blob/main/docker/Dockerfile")
    html = markdown.markdown(page, extensions=["meta"])
    lines = re.findall(r'<span class="docgen-line" id="L(\d+)">(.*?)</span>\n', html)
    assert [int(n) for n, _ in lines] == [1, 2, 3, 4]
    shown = [
        re.sub(r"<[^>]+>", "", body).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        for _, body in lines
    ]
    assert shown == text.splitlines()
    assert "<b>" not in html, "Dockerfile text is escaped"
    assert '<a href="https://example.org/blob/main/docker/Dockerfile">docker/Dockerfile</a>' in html


def test_page_uris_stay_inside_the_pages_folder() -> None:
    assert site.page_uri("docker/rocm/Dockerfile.rocm") == "dockerfiles/docker/rocm/Dockerfile.rocm.md"
    assert site.page_uri("../other/Dockerfile") == "dockerfiles/other/Dockerfile.md"


# --------------------------------------------------------------------------------------------------
# Stage diagram


def test_stage_diagram_has_from_and_file_edges(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "ARG CUDA=12.8.1\n"
        "FROM nvidia/cuda:${CUDA}-devel-ubuntu24.04 AS build\n"
        "RUN make\n"
        "FROM python:3.12-slim AS wheels\n"
        "RUN pip wheel -w /w flash-attn\n"
        "FROM nvidia/cuda:${CUDA}-runtime-ubuntu24.04 AS final\n"
        "COPY --from=build /out /opt/out\n"
        "RUN --mount=type=bind,from=wheels,source=/w,target=/w pip install /w/*.whl\n",
        encoding="utf-8",
    )
    text = stages.mermaid(build_model(dockerfile))
    assert text.splitlines() == [
        "flowchart TD",
        '  s0["build"]',
        '  i0(["nvidia/cuda:12.8.1-devel-ubuntu24.04"])',
        "  i0 ==> s0",
        '  s1["wheels"]',
        '  i1(["python:3.12-slim"])',
        "  i1 ==> s1",
        '  s2["final"]',
        '  i2(["nvidia/cuda:12.8.1-runtime-ubuntu24.04"])',
        "  i2 ==> s2",
        "  s0 -. files .-> s2",
        "  s1 -. files .-> s2",
        "  style s2 stroke-width:3px",
    ]


def test_stage_labels_cannot_break_the_diagram_or_the_page() -> None:
    assert stages.label('a"b<script>`|&') == '"a#quot;b#lt;script#gt;#96;#124;#amp;"'
    assert stages.label("two\nlines") == '"two lines"'


# --------------------------------------------------------------------------------------------------
# Build args: a row id each, a command to copy


ARGS_BLOCK = """<!-- BEGIN docgen:build-args -->
<table>
<thead>
<tr>
<th>Build arg</th>
<th>Default</th>
</tr>
</thead>
<tbody>
<tr>
<td><code>GPU_ARCH</code></td>
<td><code>gfx942</code></td>
</tr>
<tr>
<td><code>odd name&lt;x&gt;</code></td>
<td></td>
</tr>
</tbody>
</table>
<!-- END docgen:build-args -->
"""


def test_build_arg_rows_get_an_id_each() -> None:
    out = site.decorate_blocks(ARGS_BLOCK)
    assert '<tr id="build-arg-gpu_arch">\n<td data-label="Build arg"><code>GPU_ARCH</code></td>' in out
    assert '<tr id="build-arg-odd-name-x-">' in out
    assert site.ANCHORS.findall(out) == ["build-arg-gpu_arch", "build-arg-odd-name-x-"]
    assert "<tr>\n<th>Build arg</th>" in out, "the header row has no id"


def test_docker_build_example_quotes_values_and_leaves_out_unknown_ones(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "ARG GPU_ARCH=gfx942;gfx950\n"
        "FROM ubuntu:22.04\n"
        "ARG GPU_ARCH\n"
        "ARG MAX_JOBS\n"
        'ARG QUOTE="it\'s"\n'
        "ARG HOME_DIR=$HOME/x\n"
        "ARG PLAIN=1.2.3\n"
        "RUN make -j${MAX_JOBS} ${GPU_ARCH} ${QUOTE} ${HOME_DIR} ${PLAIN}\n",
        encoding="utf-8",
    )
    model = build_model(dockerfile, "docker/Dockerfile")
    command = docker_build(model, build_arg_rows(model))
    assert command.split(" \\\n    ") == [
        "docker build -f docker/Dockerfile",
        "--build-arg 'GPU_ARCH=gfx942;gfx950'",
        "--build-arg 'QUOTE=it'\"'\"'s'",
        "--build-arg PLAIN=1.2.3",
        ".",
    ]


def test_a_commit_default_is_shortened_with_the_whole_commit_as_title() -> None:
    full = "83f9e450cd10e20701fb109db9c7703d376f282b"
    assert commit_code(full) == f'<code title="{full}">83f9e450</code>'
    assert commit_code("v2.8.3") == "`v2.8.3`"
    assert commit_code("a|b") == "<code>a&#124;b</code>"


# --------------------------------------------------------------------------------------------------
# Generated image pages: where they go, the index's list, the Images section of an explicit nav

PAGES = ["images/index.md", "images/cuda.md", "images/rocm.md"]


def test_image_page_uri_is_in_the_images_folder_and_refuses_no_file_names() -> None:
    assert site.image_page_uri("vllm-rocm") == "images/vllm-rocm.md"
    assert [site.image_page_uri(name) for name in ("", ".", "..", "a/b")] == [None] * 4
    assert site.hand_written_uris("cuda") == ("images/cuda.md", "images/cuda/index.md")


def test_relative_links_between_pages_are_quoted() -> None:
    assert site.relative_link("images/rocm/index.md", "images/index.md") == "rocm/index.md"
    assert site.relative_link("page one.md", "images/index.md") == "../page%20one.md"


def test_images_nav_appends_a_section_without_pages_named_elsewhere() -> None:
    nav = [{"Home": "index.md"}, {"ROCm": "images/rocm.md"}]
    assert site.images_nav(nav, PAGES) == [*nav, {"Images": ["images/index.md", "images/cuda.md"]}]
    assert nav == [{"Home": "index.md"}, {"ROCm": "images/rocm.md"}], "the nav given is not changed"
    assert site.images_nav([*nav, "./images/index.md", "images/cuda.md"], PAGES) == [
        *nav, "./images/index.md", "images/cuda.md"
    ], "nothing missing, nothing added"  # fmt: skip


def test_images_nav_fills_an_images_section_index_first() -> None:
    nav = [{"Home": "index.md"}, {"Images": [{"ROCm": "images/rocm.md"}]}, {"About": "about.md"}]
    assert site.images_nav(nav, PAGES) == [
        {"Home": "index.md"},
        {"Images": ["images/index.md", {"ROCm": "images/rocm.md"}, "images/cuda.md"]},
        {"About": "about.md"},
    ]


def test_a_literal_images_entry_is_replaced_by_the_section_at_any_depth_once() -> None:
    nav = [{"Home": "index.md"}, {"Guide": ["guide.md", "Images"]}, "Images"]
    assert site.images_nav(nav, PAGES) == [
        {"Home": "index.md"},
        {"Guide": ["guide.md", {"Images": PAGES}]},
    ]
    assert site.images_nav(["index.md", "Images", *PAGES], PAGES) == ["index.md", *PAGES], (
        "every page named: the entry goes, no empty section"
    )
