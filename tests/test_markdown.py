"""docgen.markdown, the one Markdown reader, read against markdown-it-py as the oracle.

markdown-it-py in CommonMark mode with GFM tables stands in for GitHub (as in test_markdown_parity.py).
Generated texts are built from lines and characters that exercise each construct (headings, fences,
code spans, links, table cells); realistic README texts are written out below. What the reader does
not follow (block quotes, link reference definitions, raw HTML taking precedence) is left out of the
generated texts and said in the module's docstring.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docgen import markdown
from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.init import add_blocks
from docgen.model import ImageModel
from docgen.pipeline import model_of

GFM = MarkdownIt("commonmark", {"html": True}).enable(["table"])

# --------------------------------------------------------------------------------------------------
# what markdown-it reads


def oracle_headings(text: str) -> list[tuple[int, int, str]]:
    """(1-based first line, level, text with white space collapsed) of the headings outside lists."""
    tokens = GFM.parse(text)
    found = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0 and token.map:
            content = tokens[index + 1].content
            found.append((token.map[0] + 1, int(token.tag[1]), " ".join(content.split())))
    return found


def ours_headings(text: str) -> list[tuple[int, int, str]]:
    lines = markdown.source_lines(text)
    return [(h.line, h.level, " ".join(h.text.split())) for h in markdown.headings(lines) if not h.nested]


def oracle_fences(text: str) -> list[tuple[int, str]]:
    """(1-based opening line, first word of the info string) of every fenced code block."""
    return sorted(
        (t.map[0] + 1, t.info.split()[0] if t.info.split() else "")
        for t in GFM.parse(text)
        if t.type == "fence" and t.map
    )


def inline_children(text: str) -> list[Token]:
    children = GFM.parseInline(text)[0].children
    return list(children or [])


def oracle_code(text: str) -> list[str]:
    return [t.content for t in inline_children(text) if t.type == "code_inline"]


def oracle_links(text: str) -> list[tuple[bool, str]]:
    found = []
    for token in GFM.parseInline(text)[0].children or []:
        stack = [token]
        while stack:
            t = stack.pop(0)
            if t.type in ("link_open", "image"):
                found.append((t.type == "image", str(t.attrGet("src" if t.type == "image" else "href"))))
            stack[:0] = list(t.children or [])
    return found


def ours_links(text: str) -> list[tuple[bool, str]]:
    return [
        (link.image, GFM.normalizeLink(link.target))
        for link in markdown.links(text)
        if link.target is not None
    ]


def oracle_tables(text: str) -> list[tuple[int, list[str], list[list[str]]]]:
    """(1-based header line, header cells, body rows) of every table, cells as written (stripped)."""
    tables = []
    row: list[str] | None = None
    for token in GFM.parse(text):
        if token.type == "table_open" and token.map:
            tables.append((token.map[0] + 1, [], []))
        elif token.type == "tr_open":
            row = []
            if tables[-1][1]:
                tables[-1][2].append(row)
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None and not tables[-1][1]:
            tables[-1][1].extend(row)
            row = None
        elif token.type == "tr_close":
            row = None
    return tables


def ours_tables(text: str) -> list[tuple[int, list[str], list[list[str]]]]:
    found = []
    for table in markdown.read_document(text, "R.md").tables:

        def gfm(cells: list[str], width: int = len(table.header)) -> list[str]:
            cells = [cell.replace("\\|", "|") for cell in cells][:width]
            return cells + [""] * (width - len(cells))

        found.append((table.line, gfm(table.header), [gfm(cells) for _, cells in table.rows]))
    return found


# --------------------------------------------------------------------------------------------------
# generated texts

BLOCK_LINES = [
    "",
    "",
    "# Title",
    "## Key versions ##",
    "### Build `args` #",
    "###### six",
    "####### seven",
    "#hashtag",
    "  ## indented",
    "Supported hardware",
    "some prose with `code`",
    "2. What's inside?",
    "===",
    "---",
    "  ---  ",
    "- - -",
    "***",
    "- item",
    "* item",
    "1. step",
    "   continued",
    "  - nested item",
    "```",
    "```bash",
    "~~~",
    "````",
    "  ```python",
    "- ```sh",
    "    indented text",
    "<!-- a comment -->",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BLOCK_LINES), max_size=14))
def test_headings_are_markdown_its(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    assert ours_headings(text) == oracle_headings(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BLOCK_LINES), max_size=14))
def test_fences_are_markdown_its(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    states = markdown.fence_states(markdown.source_lines(text))[0]
    opened = [i + 1 for i, kind in enumerate(states) if kind == markdown.OPENS]
    assert opened == [line for line, _ in oracle_fences(text)]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="`a \\", max_size=16))
def test_code_spans_are_markdown_its(inner: str) -> None:
    text = "x" + inner + "y"
    assert [content for _, _, content in markdown.code_spans(text)] == oracle_code(text)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet='[]()!`ab \\"', max_size=20))
def test_links_are_markdown_its(inner: str) -> None:
    text = "x" + inner + "y"
    if "\\ " in text:
        return  # markdown-it ends a destination before `\` and a blank; CommonMark keeps the `\`
    assert ours_links(text) == oracle_links(text)


CELL = st.text(alphabet="a `|\\", max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(CELL, min_size=1, max_size=3),
    st.integers(1, 3),
    st.lists(st.lists(CELL, max_size=4), max_size=3),
    st.booleans(),
)
def test_table_cells_are_markdown_its(
    header: list[str], columns: int, rows: list[list[str]], outer: bool
) -> None:
    def row(cells: list[str]) -> str:
        inner = " | ".join(cells)
        return f"| {inner} |" if outer else inner

    lines = [row(header), row(["---"] * columns), *(row(cells) for cells in rows if cells)]
    text = "\n".join(lines) + "\n"
    if any("|" not in line for line in lines[2:]):
        return  # a line without a pipe ends the table here; GFM would take it as a one-cell row
    if lines[0].lstrip().startswith("```"):
        return  # a fence: markdown-it tries tables first, GitHub (a table continues a paragraph) does not
    assert ours_tables(text) == oracle_tables(text)


# --------------------------------------------------------------------------------------------------
# realistic README texts

README = """\
# vLLM on ROCm ![build](https://img.shields.io/badge/build-passing-green)

An image for serving models on AMD GPUs. See [the docs](https://docs.example.org/rocm "Docs") and
the [Dockerfile](docker/Dockerfile.rocm) it is built from, or the ![logo](<images/logo one.png>).

Quick start
-----------

```bash
docker build -f docker/Dockerfile.rocm --build-arg PYTORCH_ROCM_ARCH=gfx942 .
# not a heading
```

## Key versions

| Component | Version | Notes |
|-----------|:-------:|-------|
| ROCm | `6.3.1` | base image `rocm/dev-ubuntu-22.04:6.3.1` |
| PyTorch | 2.6.0 | a\\|b in one cell |
| `TORCH_CUDA_ARCH_LIST` | `8.0;9.0` | [link](https://example.org/a_(b)) |

1. Clone the repository:
   ```sh
   git clone https://example.org/project
   ```
2. Build it, passing ``MAX_JOBS=`nproc` `` when memory is short.

<!--
## Hidden heading
-->

Build arguments
===============

- `PYTORCH_ROCM_ARCH`: the GPU targets, default `gfx90a;gfx942`
- `MAX_JOBS` \\`escaped\\` and [a [nested] text](https://example.org/nested)

### License ###
"""

REALISTIC = [
    README,
    README.replace("\n", "\r\n"),
    "Title\n=====\n\ntext\n\n~~~python title=x\ncode\n~~~\n\n| a |\n| - |\n| 1 |\n",
    "- item\n\n  ## In the item\n\n  ```\n  code\n  ```\n\n## After\n",
    "[![badge](https://x.org/b.svg)](https://x.org) [text](url 'title') [empty]() ![a](b (c))\n",
]


@pytest.mark.parametrize("text", REALISTIC, ids=range(len(REALISTIC)))
def test_a_realistic_readme_reads_as_markdown_it_reads_it(text: str) -> None:
    assert ours_headings(text) == oracle_headings(text)
    states = markdown.fence_states(markdown.source_lines(text))[0]
    assert [i + 1 for i, kind in enumerate(states) if kind == markdown.OPENS] == [
        line for line, _ in oracle_fences(text)
    ]
    assert ours_tables(text) == oracle_tables(text)
    for line in markdown.source_lines(text):
        assert ours_links(line) == oracle_links(line), line
        assert [c for _, _, c in markdown.code_spans(line)] == oracle_code(line), line


def test_the_realistic_readme_in_detail() -> None:
    doc = markdown.read_document(README, "R.md")
    heads = markdown.headings(markdown.source_lines(README))
    assert [(h.line, h.last, h.level, h.shown) for h in heads] == [
        (1, 1, 1, "vLLM on ROCm"),
        (6, 7, 2, "Quick start"),
        (14, 14, 2, "Key versions"),
        (32, 33, 1, "Build arguments"),
        (38, 38, 3, "License"),
    ]
    assert heads[3].key == "buildarguments"
    assert doc.levels == {1: 1, 6: 2, 14: 2, 32: 1, 38: 3}
    assert [fence.lang for fence in doc.fences] == ["bash", "sh"]
    assert doc.tables[0].header == ["Component", "Version", "Notes"]
    assert doc.tables[0].rows[1] == (19, ["PyTorch", "2.6.0", "a\\|b in one cell"])
    assert [target for _, target in doc.links] == [
        "https://img.shields.io/badge/build-passing-green",
        "https://docs.example.org/rocm",
        "docker/Dockerfile.rocm",
        "images/logo one.png",
        "https://example.org/a_(b)",
        "https://example.org/nested",
    ]


# --------------------------------------------------------------------------------------------------
# the pieces, by example


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("`a` and ``b ` c``", ["a", "b ` c"]),
        ("` a `", ["a"]),
        ("`  `", ["  "]),
        ("\\`not code`", []),
        ("\\``code`", ["code"]),
        ("`a\\`b`", ["a\\"]),
        ("```a``", []),
        ("<code>x &lt; y</code>", []),
    ],
)
def test_code_spans_by_example(text: str, spans: list[str]) -> None:
    assert [content for _, _, content in markdown.code_spans(text)] == spans


def test_html_code_elements_count_when_asked() -> None:
    assert markdown.code_spans("<code>x &lt; y</code> and `z`", html_code=True) == [
        (0, 21, "x < y"),
        (26, 29, "z"),
    ]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Build `args` &amp; [more](https://x.org) ![badge](b.svg) <b>now</b>", "Build args & more now"),
        ("a\\*b\\_c", "a*b_c"),
        ("[text][label]", "text"),
    ],
)
def test_plain(text: str, shown: str) -> None:
    assert markdown.plain(text) == shown


def test_without_links_keeps_alt_text_unless_told() -> None:
    text = "[![CUDA 12.4](badge.svg)](https://x.org) see [docs](d)"
    assert markdown.without_links(text) == "CUDA 12.4 see docs"
    assert markdown.without_links(text, keep_alt=False) == " see docs"


@pytest.mark.parametrize(
    ("line", "columns"),
    [
        ("|---|---|", 2),
        ("--- | :---:", 2),
        (":-", 1),
        ("| - |", 1),
        ("---", 1),
        ("- -", None),
        ("-", None),
        ("|--x|", None),
        ("    |---|", None),
        ("| --- | | --- |", None),
    ],
)
def test_delimiter_rows(line: str, columns: int | None) -> None:
    assert markdown.delimiter_cells(line) == columns


def test_a_table_needs_as_many_delimiter_cells_as_header_cells() -> None:
    """GFM reads `a | b` over a one-column delimiter row as a setext heading, not a table."""
    assert markdown.read_document("a | b\n---\n", "R.md").tables == []
    assert markdown.read_document("a | b\n---|---\n", "R.md").tables[0].header == ["a", "b"]


# --------------------------------------------------------------------------------------------------
# what reading Markdown one way changed for the commands that read it


def _model() -> ImageModel:
    return model_of(parse_dockerfile("FROM ubuntu:22.04\nARG MAX_JOBS=4\n"))


def test_audit_reads_setext_headings_as_headings() -> None:
    """`Release notes` over `===` starts a changelog, whose tables tell the past (audit's
    history rule); it was read as a paragraph before, and the table after it as a claim."""
    text = "Release notes\n=============\n\n| Component | Version |\n|---|---|\n| Ubuntu | 20.04 |\n"
    doc = markdown.read_document(text, "R.md")
    assert doc.levels == {1: 1} and doc.tables == [] and doc.paragraphs == []
    assert markdown.read_document(text.replace("Release notes", "Versions"), "R.md").tables[0].section == 1


def test_audit_finds_dead_links_in_table_rows_and_not_in_code(tmp_path: Path) -> None:
    """Links in the rows of a table are links too (only the header row's were read before); a link
    written inside a code span is an example, not a link (it was read as one before)."""
    text = (
        "| Image | Dockerfile |\n|---|---|\n| cuda | [Dockerfile.cuda](Dockerfile.cuda) |\n\n"
        "Write links as `[x](Dockerfile.example)`.\n"
    )
    found = [(d.line, d.message) for d in audit(text, "README.md", _model(), directory=tmp_path)]
    assert found == [
        (
            3,
            "README links to Dockerfile.cuda, which does not exist (the Dockerfile is gone or moved; "
            "compared with Dockerfile, which it most likely means now)",
        )
    ]


def test_a_table_row_ends_where_another_block_starts() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n```sh | x\ncode\n```\n- item | 3\n"
    assert markdown.read_document(text, "R.md").tables[0].rows == [(3, ["1", "2"])]
    assert [fence.lang for fence in markdown.read_document(text, "R.md").fences] == ["sh"]


@pytest.mark.parametrize(
    ("text", "under"),
    [
        # two spaces are left of the text of `1. `: the heading is not in the list item
        ("1. step\n  ## Key versions\n\nprose\n", "Key versions"),
        # an entity reads as the character it stands for (the message shows the heading as written)
        ("## What&#39;s in the image\n\nprose\n", "What&#39;s in the image"),
    ],
)
def test_init_reads_headings_as_markdown_does(text: str, under: str) -> None:
    section = "versions" if "versions" in text else "contents"
    _, added = add_blocks(text, "R.md", [section])
    assert [(a.section, a.heading) for a in added] == [(section, under)]


def test_init_takes_no_heading_from_a_list_items_lazy_text() -> None:
    """`- item` then `Key versions` continues the item's text, and `---` under it is a thematic
    break, not a setext underline (it was taken for the heading `Key versions` before)."""
    _, added = add_blocks("- item\nKey versions\n---\n\nprose\n", "R.md", ["versions"])
    assert [(a.section, a.heading) for a in added] == [("versions", None)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]()!<>`\\|#=-*_ \n\r\tax:~", max_size=60))
def test_any_text_reads_without_error(text: str) -> None:
    lines = markdown.source_lines(text)
    markdown.read_document(text.replace("docgen:", ""), "R.md")
    for heading in markdown.headings(lines):
        assert heading.line <= heading.last <= len(lines)
        assert heading.key == markdown.heading_key(heading.text)
    for line in lines:
        for link in markdown.links(line):
            assert line[link.start] in "[!" and line[link.text_end] == "]"
        assert "](" not in markdown.without_links(line, keep_alt=False) or "](" in line
        markdown.plain(line)
        markdown.table_cells(line)


def test_a_list_whose_items_blank_lines_set_apart_is_one_list() -> None:
    text = (
        "# Build\n\nThe arguments are listed below.\n\n- `A`: one\n  - about A\n\n- `B`: two\n\n"
        "```\nx\n```\n\n- `C`: another list\n"
    )
    found = markdown.lists(markdown.read_document(text, "README.md"))
    assert [(b.intro, b.intro_line, [line for line, _ in b.items]) for b in found] == [
        ("The arguments are listed below.", 3, [5, 8]),
        ("", 14, [14]),
    ]


def test_the_headings_over_a_line_are_its_section_s_and_those_holding_it() -> None:
    doc = markdown.read_document(
        "# Image\n\n## Variants\n\n### ROCm Variant\n\ntext\n\n## Environment Variables\n\n"
        "### All Variants\n\n#### Notes\n\n### ROCm Variant\n\n- `A=1`\n",
        "README.md",
    )
    assert markdown.headings_over(doc, 1) == ["Image"]
    assert markdown.headings_over(doc, 7) == ["ROCm Variant", "Variants", "Image"]
    assert markdown.headings_over(doc, 17) == ["ROCm Variant", "Environment Variables", "Image"]
    assert markdown.headings_over(doc, 14) == ["Notes", "All Variants", "Environment Variables", "Image"]
    assert markdown.headings_over(markdown.read_document("text\n\n## Later\n", "README.md"), 1) == []


def test_the_headings_over_a_line_follow_headings_added_after_a_first_look() -> None:
    doc = markdown.Document()
    doc.headings, doc.levels = [(1, "A")], {1: 2}
    assert markdown.headings_over(doc, 5) == ["A"]
    doc.headings.append((3, "B"))
    doc.levels[3] = 1
    assert markdown.headings_over(doc, 5) == ["B"]


def test_the_bodies_of_docs_notes_and_tabs_are_read_unindented() -> None:
    # MkDocs (Python-Markdown's admonition and tabbed extensions) renders the indented body of `!!! note`
    # and `=== "Tab"` as Markdown of its own: a fence there is a fence, nested tabs too; a line
    # indented less ends the body, a blank line does not; the same lines without an opener are an
    # indented code block
    text = (
        '!!! note "Title"\n    Install it:\n\n    ```shell\n    pip install x\n    ```\n'
        'Back in the page.\n\n=== "Docker"\n\n    === "GPU"\n        ```bash\n        docker build .\n'
        "        ```\n\n    Body of Docker.\n\nAfter the tabs.\n\n    indented text\n"
    )
    doc = markdown.read_document(text, "R.md")
    assert [(f.lang, f.lines) for f in doc.fences] == [
        ("shell", [(5, "pip install x")]),
        ("bash", [(13, "docker build .")]),
        ("", [(20, "indented text")]),
    ]
    texts = [line for para in doc.paragraphs for line in para.lines]
    assert (2, "Install it:") in texts and (7, "Back in the page.") in texts
    assert (16, "Body of Docker.") in texts
    # `===` alone (a setext underline) and a `!!!` in prose open nothing
    plain = markdown.read_document("Title\n===\n    text\n\nWow!!! great\n    more\n", "R.md")
    assert [line for para in plain.paragraphs for line in para.lines][-1] == (6, "    more")


# A README pasted with the wrapper a chat answer put around it: ````markdown, the README's text (a heading
# first), an inner fence the author opened, and the wrapper's closing fence closing that inner fence. The
# author's text goes on after it. Modelled on a fine-tuning notebook image's README; the traps on a docs
# page's "create the file with this content" block and a components page's example block.
_WRAPPED = (
    "# Project\n\n````markdown\n# Lab environment (CUDA 12.8)\n\nIt runs JupyterLab.\n\n"
    "1. **Drivers** supporting CUDA 12.8\n   Verify:\n   ```bash\n   nvidia-smi\n````\n\n2. **Docker**\n"
)


def test_a_readme_wrapped_in_a_markdown_fence_is_read_as_text() -> None:
    doc = markdown.read_document(_WRAPPED, "README.md")
    assert (4, "Lab environment (CUDA 12.8)") in doc.headings
    said = [text for para in doc.paragraphs for _, text in para.lines]
    assert "It runs JupyterLab." in said and "2. **Docker**" in said
    assert [fence.lang for fence in doc.fences] == ["bash"]
    assert [text.strip() for _, text in doc.fences[0].lines if text.strip()] == ["nvidia-smi"]


@pytest.mark.parametrize(
    "readme",
    [
        # an example file's whole text: every fence it opens closes inside it
        "# Docs\n\nCreate the file:\n\n````markdown\n# API reference\n\n```bash\ncurl localhost\n```\n````\n",
        # an example that starts with no heading
        "# Docs\n\n````markdown\nSome text (CUDA 12.8)\n```bash\nnvidia-smi\n````\n",
        # another language
        "# Docs\n\n````text\n# Not a heading\n```bash\nnvidia-smi\n````\n",
    ],
)
def test_markdown_examples_stay_code(readme: str) -> None:
    doc = markdown.read_document(readme, "README.md")
    assert doc.headings == [(1, "Docs")] and len(doc.fences) == 1


def test_the_wrapped_readme_s_claims_are_audited() -> None:
    model = model_of(parse_dockerfile("FROM nvidia/cuda:13.0.0-devel-ubuntu24.04\n", "Dockerfile"))
    found = audit(_WRAPPED, "README.md", [model], {}, None)
    assert {d.line for d in found} >= {4}


def test_a_restructuredtext_page_is_read_as_one() -> None:
    page = """\
Install
=======

Build
~~~~~

Run this::

    docker build -t app .

.. code-block:: bash
   :linenos:

   pip install "numpy<2"
   echo done

Text after the block.
"""
    doc = markdown.read_document(page, "docs/install.rst")
    blocks = [(f.lang, [(n, t) for n, t in f.lines if t]) for f in doc.fences]
    assert blocks == [
        ("", [(9, "docker build -t app .")]),
        ("bash", [(14, 'pip install "numpy<2"'), (15, "echo done")]),
    ]
    assert [h[1] for h in doc.headings][:2] == ["Install", "Build"]
    assert any(t == "Text after the block." for p in doc.paragraphs for _, t in p.lines)
    # the same text in a Markdown file: `~~~~~` opens a fence there
    assert any(
        "Run this::" in t for f in markdown.read_document(page, "README.md").fences for _, t in f.lines
    )


# --------------------------------------------------------------------------------------------------
# indented code blocks, and commands written at a `$ ` prompt in a paragraph


def oracle_code_blocks(text: str) -> list[tuple[int, list[str]]]:
    """(1-based first line, lines) of every indented code block markdown-it reads."""
    found = []
    for token in GFM.parse(text):
        if token.type == "code_block" and token.map:
            found.append((token.map[0] + 1, token.content.removesuffix("\n").split("\n")))
    return found


def ours_code_blocks(text: str) -> list[tuple[int, list[str]]]:
    doc = markdown.read_document(text, "R.md")
    states = markdown.fence_states(markdown.source_lines(text))[0]
    return [
        (fence.lines[0][0], [line for _, line in fence.lines])
        for fence in doc.fences
        if not fence.inline and fence.lines and states[fence.lines[0][0] - 1] == markdown.OUTSIDE
    ]


CODE_LINES = [
    "",
    "",
    "# Title",
    "text",
    "- item",
    "1. step",
    "   continued",
    "    indented",
    "\tcode",
    "  \tcode",
    "        deep",
    "      six",
    "```",
    "```bash",
    "  - nested",
    "> quote",
    "===",
    "---",
    "-     item code",
    "    - not an item",
    "  ## h",
]
"""Lines for indented code blocks: in and out of list items, after paragraphs (lazy lines), tabs, block
quotes, setext underlines. (What an HTML block holds is not followed: list markers in one count.)"""


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(CODE_LINES), max_size=12))
def test_indented_code_blocks_are_markdown_its(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    assert ours_code_blocks(text) == oracle_code_blocks(text)
    states = markdown.fence_states(markdown.source_lines(text))[0]
    assert [i + 1 for i, kind in enumerate(states) if kind == markdown.OPENS] == [
        line for line, _ in oracle_fences(text)
    ]


@pytest.mark.parametrize(
    "text",
    [
        # a build between two paragraphs, then the same in a list item (8 columns: 4 past the item's text)
        "To build:\n\n    $ docker build -f docker/Dockerfile.gpu -t app .\n\nDone.\n",
        "1. Build it:\n\n       docker build -t app .\n\n2. Run it.\n",
        # a lazy line: indented, right after a paragraph's text, it is that paragraph's
        "Run the following\n    docker build -t app .\n",
        # a list item's continuation paragraph indented four columns: its text, no code
        "- Build it.\n\n    It takes ten minutes.\n",
        "10. Tenth step.\n\n    Its second paragraph.\n",
        # blank lines inside a block are its own when more code follows; those after it are not
        "    make\n\n\n    make install\n\n\nAfter.\n",
        # tabs are columns up to the next multiple of four
        "\tdocker build .\n  \tdocker run app\n\t\tnested\n",
        # a block quote's lazy line, an HTML block's indented line, a `<pre>` spanning a blank line
        "> Quoted text\n    lazy line\n",
        "<details>\n    <summary>Logs</summary>\n</details>\n",
        "<pre>\n\n    kept\n</pre>\n",
        # a setext heading ends its text: an indented line after it is code
        "Title\n=====\n    code\n",
        # spaces then a tab reach column four: code, so a `===` under it underlines no heading
        "  \tcode\n===\n===\n    indented\n===\n",
        "text\n  \tcode\n===\n    - not an item\n===\n",
    ],
)
def test_indented_code_blocks_by_example(text: str) -> None:
    assert ours_code_blocks(text) == oracle_code_blocks(text)


def test_an_indented_block_is_a_block_with_no_language() -> None:
    text = (
        "# App\n\nBuild:\n\n    $ docker build \\\n        -t app .\n\n    docker run app\n\nThat is all.\n"
    )
    doc = markdown.read_document(text, "README.md")
    assert [(f.lang, f.lines, f.inline) for f in doc.fences] == [
        ("", [(5, "$ docker build \\"), (6, "    -t app ."), (7, ""), (8, "docker run app")], False)
    ]
    said = [line for para in doc.paragraphs for line, _ in para.lines]
    assert said == [3, 10]
    # reStructuredText indents what is no code (a directive's body): not read so there
    rst = markdown.read_document("Title\n=====\n\n.. note::\n\n    Read this first.\n", "README.rst")
    assert all(f.lang for f in rst.fences) and rst.fences == []


def test_a_prompted_paragraph_is_a_command_block() -> None:
    text = (
        "To serve the notebook in docker:\n"
        "$ docker run --rm -it -v $(pwd):/work \\\n"
        "      -p 8888:8888\n"
        "      --gpus all \\\n"
        "      acme/lab\n"
        "It opens on port 8888.\n"
    )
    doc = markdown.read_document(text, "README.md")
    assert [(f.lang, [n for n, _ in f.lines], f.inline) for f in doc.fences] == [("", [2, 3, 4, 5], False)]
    assert doc.fences[0].lines[0][1] == "$ docker run --rm -it -v $(pwd):/work \\"
    assert len(doc.paragraphs) == 1  # the paragraph's text is still read as prose


@pytest.mark.parametrize(
    "text",
    [
        "Pricing starts at\n$ 5 a month.\n",  # money, not a prompt
        "$ is the prompt of a shell.\n",  # a sentence about it
        "The shell shows\n$ cd to the folder you want\n",  # words of a sentence
        "$`docker build .` is read from its code span\n",
    ],
)
def test_prose_with_a_dollar_stays_prose(text: str) -> None:
    doc = markdown.read_document(text, "README.md")
    assert [f for f in doc.fences if not f.inline] == []


# the audit of what indented blocks hold: a lab's README (its Dockerfiles in docker/) whose builds are
# indented blocks, and traps in the shapes READMEs indent other things in


def _audit_tree(tmp_path: Path, readme: str) -> list[str]:
    (tmp_path / "docker").mkdir(exist_ok=True)
    (tmp_path / "docker" / "Dockerfile.cpu").write_text("FROM python:3.11-slim\nCOPY . /app\n")
    (tmp_path / "README.md").write_text(readme)
    model = model_of(parse_dockerfile("FROM python:3.11-slim\nCOPY . /app\n", "docker/Dockerfile.cpu"))
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model, {}, tmp_path)]


def test_an_indented_build_of_a_missing_dockerfile(tmp_path: Path) -> None:
    readme = (
        "# Protein lab\n\n## Set up\n\nFor a GPU:\n\n"
        "    $ docker build -f docker/Dockerfile.gpu -t lab-gpu .\n\n"
        "For the CPU:\n\n    $ docker build -f docker/Dockerfile.cpu -t lab-cpu .\n"
    )
    found = _audit_tree(tmp_path, readme)
    assert [f for f in found if "builds with" in f] == [
        "7: README builds with docker/Dockerfile.gpu, which does not exist (the Dockerfile is gone or moved; "
        "compared with docker/Dockerfile.cpu, which it most likely means now)"
    ]


def test_indented_text_that_is_no_command_says_nothing(tmp_path: Path) -> None:
    readme = (
        "# Protein lab\n\nThe layout:\n\n"
        "    docker/\n        Dockerfile.gpu\n        Dockerfile.cpu\n    requirements/\n        base.txt\n\n"
        "What `docker images` shows:\n\n"
        "    REPOSITORY   TAG       IMAGE ID\n    lab-gpu      latest    0123456789ab\n\n"
        "The settings file:\n\n    image: lab-gpu:latest\n    dockerfile: docker/Dockerfile.gpu\n\n"
        "Check the GPU from Python:\n\n    import torch\n    print(torch.cuda.is_available())\n\n"
        "1. Build the CPU image.\n\n    It uses docker/Dockerfile.gpu on a GPU host.\n\n"
        "2. Read the notes:\n\n        The GPU image needs docker/Dockerfile.gpu, kept elsewhere.\n\n"
        "```sh\ndocker build -f docker/Dockerfile.cpu -t lab-cpu .\n```\n"
    )
    assert _audit_tree(tmp_path, readme) == []


def test_an_info_string_naming_a_file_after_a_colon_keeps_the_language_apart() -> None:
    # Qiita and Zenn write ```lang:filename: the language is the part before the colon
    text = (
        "```bash:bash\nmake\n```\n\n```sh:Run.sh\n./run.sh\n```\n\n"
        "```:setup.cfg\n[x]\n```\n\n```Python\nx\n```\n"
    )
    doc = markdown.read_document(text, "README.md")
    assert [(f.lang, f.title) for f in doc.fences] == [
        ("bash", "bash"),
        ("sh", "Run.sh"),  # (the file name as written)
        (":setup.cfg", ""),  # no language before the colon: as written
        ("python", ""),
    ]


def test_a_list_inside_a_list_items_paragraph_is_a_list_of_its_own() -> None:
    # `2. Build:` then an indented paragraph of that item and an indented list under it: the list
    # interrupts the item's paragraph (CommonMark); a line indented past the paragraph's own continues it
    text = (
        "# Build\n\n1. Clone it.\n\n2. Build:\n\n    The build accepts these arguments:\n"
        "    - `A`: one\n    - `B`: two\n\n3. Run it.\n\n    Some words\n        - not an item\n"
    )
    doc = markdown.read_document(text, "README.md")
    found = [(block.intro, [line for line, _ in block.items]) for block in markdown.lists(doc)]
    assert ("The build accepts these arguments:", [8, 9]) in found
    assert all(13 not in lines and 14 not in lines for _, lines in found)
