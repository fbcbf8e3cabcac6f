"""One Markdown for both readers: every generated block reads the same on GitHub and on the site.

GitHub renders GFM; markdown-it-py in CommonMark mode with GFM tables and strikethrough stands in for
it. The site renders with Python-Markdown and the extensions of mkdocs.yml. For each block (the golden
files, the ROCm README's blocks, and blocks rendered from Dockerfile values full of Markdown and HTML
characters) the visible text of the two renderings, cell by cell, must be equal.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from markdown_it import MarkdownIt

from docgen import markers
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of
from docgen.render import RenderOptions, render_sections

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*/*.md"))

GFM = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
SITE_EXTENSIONS = [
    "admonition",
    "attr_list",
    "tables",
    "toc",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.superfences",
    "pymdownx.details",
]
SITE_CONFIG = {
    "pymdownx.superfences": {
        "custom_fences": [
            {
                "name": "mermaid",
                "class": "mermaid",
                "format": __import__("pymdownx.superfences").superfences.fence_code_format,
            }
        ]
    }
}


class Visible(HTMLParser):
    """The text a reader sees, as a list of blocks: one string per table cell, paragraph or code."""

    BLOCKS = frozenset({"td", "th", "p", "pre", "li", "div"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.current: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS:
            self.flush()
        elif tag == "br":
            self.current.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        self.current.append(data)

    def flush(self) -> None:
        text = " ".join("".join(self.current).split(" ")).strip()
        text = re.sub(r"[ \t]*\n[ \t]*", "\n", re.sub(r"[ \t]+", " ", text))
        if text:
            self.blocks.append(text)
        self.current = []


def visible(rendered: str) -> list[str]:
    parser = Visible()
    parser.feed(rendered)
    parser.close()
    parser.flush()
    return parser.blocks


def both(body: str) -> tuple[list[str], list[str]]:
    site = markdown.markdown(body, extensions=SITE_EXTENSIONS, extension_configs=SITE_CONFIG)
    return visible(GFM.render(body)), visible(site)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_blocks_read_the_same(path: Path) -> None:
    github, site = both(path.read_text(encoding="utf-8"))
    assert github == site


def test_readme_blocks_read_the_same() -> None:
    text = (ROOT / "docker" / "rocm" / "README.md").read_text(encoding="utf-8")
    for name, body in markers.block_bodies(text).items():
        github, site = both(body)
        assert github == site, name


HOSTILE = [
    "~2 GB",
    "a~~b~~c",
    "*x* and **y**",
    "_u_ snake_case __d__",
    "[t](https://e.org) ![i](x.png)",
    "<b>bold</b> <script>x()</script>",
    "&amp; &lt; &#96;",
    "a|b",
    "`c` ``d``",
    "back\\slash \\* \\~",
    "#1 {x} (y) +z -w .v !u",
    "1. item",
    "- item",
    "> quote",
    "https://e.org/x_y_z",
    "$(nproc) ${A:-b}",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_values_full_of_markup_read_the_same(value: str) -> None:
    quoted = '"' + "".join("\\" + c if c in '"\\$' else c for c in value) + '"'
    dockerfile = (
        f"# GPU_ARCH {value}\nARG GPU_ARCH={quoted}\nFROM ubuntu:22.04 AS base\n"
        f"# PURPOSE_ARG {value}\nARG PURPOSE_ARG={quoted}\n"
        f"ARG TORCH_VERSION={quoted}\nRUN pip install torch==${{TORCH_VERSION}} {value.split()[0]!r}\n"
    )
    model = model_of(parse_dockerfile(dockerfile))
    for name, body in render_sections(model, RenderOptions()).items():
        github, site = both(body)
        assert github == site, (name, body)
        if name == "build-args":
            shown = "\n".join(github)
            assert html.unescape(value.strip()) in shown or value.strip() in shown, (value, shown)
