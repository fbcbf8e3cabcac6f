"""What the MkDocs plugin adds to a site besides filled blocks: the Dockerfile pages line links point at,
and the HTML touches that make generated tables fit their column.

Pure functions over strings (no mkdocs import), so they are tested without building a site:

- `dockerfile_page` is the Markdown of a page showing a Dockerfile highlighted, one anchor per line
  (`#L118`), which line cells link to when no repository URL is configured;
- `decorate_blocks` wraps each generated block of a page's HTML in `<div class="docgen docgen-NAME">`,
  labels every table cell with its column header (`data-label`, for the stacked layout of narrow
  screens) and lets code and link texts in cells break only after separators (`<wbr>` after
  `/ . - + ; , : = @ |`), and gives each row of a build-args table the id `build-arg-<name>`
  (`#build-arg-gpu_arch`, see `anchor_id`);
- `STYLESHEET` is the small stylesheet (`assets/docgen.css`) those classes need;
- `image_page_uri` and `images_nav` place the pages generated per image (`images/NAME/`)
  and their index (`images/`): where they go, the index's list of links, the Images section of an
  explicit `nav`.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

STYLESHEET = Path(__file__).parent / "assets" / "docgen.css"
"""The stylesheet the plugin adds to every site (as `assets/docgen/docgen.css`)."""

PAGES_FOLDER = "dockerfiles"
"""The folder (in the site) of the generated Dockerfile pages."""

IMAGES_FOLDER = "images"
"""The folder (in the site) of the pages generated per image, and of their index."""

INDEX_URI = f"{IMAGES_FOLDER}/index.md"
"""The source URI of the index of the image pages (`images/` in the site)."""

NAV_TITLE = "Images"
"""The title of the navigation section listing the image pages, and the literal `nav` entry that
places it."""

SEPARATORS = frozenset("/.-+;,:=@|")
"""Characters code in a generated table may break after (never inside a run of letters and digits,
nor at the `_` of an identifier: `PYTHON_VERSION` stays whole)."""


def page_uri(display: str) -> str:
    """The source URI (relative to docs_dir) of the generated page showing the Dockerfile `display`."""
    parts = [p for p in display.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return posixpath.join(PAGES_FOLDER, *parts) + ".md"


def image_page_uri(name: str) -> str | None:
    """The source URI of the page generated for the image named `name` (`images/cuda.md`, shown as
    `images/cuda/`); None for a name that is no file name (`.`, `..`)."""
    if name in ("", ".", "..") or "/" in name or "\\" in name:
        return None
    return f"{IMAGES_FOLDER}/{name}.md"


def hand_written_uris(name: str) -> tuple[str, ...]:
    """Where a site's own page for the image `name` would be (it wins over a generated one)."""
    return (f"{IMAGES_FOLDER}/{name}.md", f"{IMAGES_FOLDER}/{name}/index.md")


def relative_link(target_uri: str, from_uri: str) -> str:
    """A Markdown link target from page `from_uri` to page `target_uri` (source URIs, as MkDocs
    resolves `.md` links), URL-quoted."""
    return quote(posixpath.relpath(target_uri, posixpath.dirname(from_uri) or "."))


def nav_paths(nav: Any) -> set[str]:
    """Every page path an explicit `nav` (as mkdocs.yml holds it) names, normalised."""
    found: set[str] = set()
    if isinstance(nav, str):
        if "://" not in nav:
            found.add(posixpath.normpath(nav))
    elif isinstance(nav, list):
        for item in nav:
            found |= nav_paths(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            found |= nav_paths(value)
    return found


def images_nav(nav: list[Any], pages: Sequence[str]) -> list[Any]:
    """`nav` with the image pages `pages` (the index first) that it does not name yet: in place of a
    literal `Images` entry, else at the end of a section titled `Images`, else in a new section
    `Images` at its end. A page `nav` names anywhere stays where it is; `nav` itself is not changed."""
    named = nav_paths(nav) - {NAV_TITLE}
    missing = [page for page in pages if posixpath.normpath(page) not in named]

    placed = False

    def place(items: list[Any]) -> list[Any]:
        nonlocal placed
        out: list[Any] = []
        for item in items:
            if item == NAV_TITLE:  # the placeholder: the section once, never a page named `Images`
                if missing and not placed:
                    out.append({NAV_TITLE: list(missing)})
                placed = True
            elif isinstance(item, dict) and len(item) == 1:
                ((title, value),) = item.items()
                out.append({title: place(value) if isinstance(value, list) else value})
            else:
                out.append(item)
        return out

    placed_nav = place(nav)
    if placed:
        return placed_nav
    if not missing:
        return list(nav)
    for index, item in enumerate(nav):
        if isinstance(item, dict) and isinstance(item.get(NAV_TITLE), list) and len(item) == 1:
            section = list(item[NAV_TITLE])
            if INDEX_URI in missing:
                section.insert(0, INDEX_URI)
            section += [page for page in missing if page != INDEX_URI]
            return [*nav[:index], {NAV_TITLE: section}, *nav[index + 1 :]]
    return [*nav, {NAV_TITLE: list(missing)}]


def dockerfile_page(text: str, display: str, repository_link: str | None = None) -> str:
    """The Markdown of the page showing Dockerfile `text` (shown as `display`), highlighted, with an
    element `id="L<n>"` per line; `repository_link`, when given, is added as the file in its repository."""
    from docgen.render import escape_text, link  # render imports Jinja2: only when a site is built

    lines = _highlighted_lines(text)
    body = "".join(
        f'<span class="docgen-line" id="L{n}"><a class="docgen-lineno" href="#L{n}" data-line="{n}"></a>'
        f"{line}</span>\n"
        for n, line in enumerate(lines, 1)
    )
    name = escape_text(display)
    where = f" It is also in the repository: {link(display, repository_link)}." if repository_link else ""
    return (
        "---\nhide:\n  - toc\n---\n\n"  # MkDocs Material: the whole width for the code
        f"# {name}\n\n"
        f"The Dockerfile the generated tables are read from, as docgen read it when the site was built; "
        f"their line cells link to its lines.{where}\n\n"
        f'<div class="docgen-source highlight"><pre><code>{body}</code></pre></div>\n'
    )


def _highlighted_lines(text: str) -> list[str]:
    """`text` as HTML, one string per line, each with its tags closed (Pygments' Docker lexer when it
    is installed, else escaped text)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        from pygments import highlight  # type: ignore[import-untyped,unused-ignore]
        from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped,unused-ignore]
        from pygments.lexers import DockerLexer  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # pragma: no cover - Pygments comes with mkdocs-material
        return [html.escape(line, quote=False) for line in lines]
    out: list[str] = highlight("\n".join(lines) + "\n", DockerLexer(), HtmlFormatter(nowrap=True)).split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(lines):  # a lexer that joined or split lines: keep every anchor on its line
        return [html.escape(line, quote=False) for line in lines]
    return out


_BLOCK = re.compile(
    r"^(<!-- BEGIN docgen:(?P<name>[a-z0-9][a-z0-9_-]*)\b[^\n]*-->)\n"
    r"(?P<body>.*?)^(<!-- END docgen:(?P=name) -->)",
    re.S | re.M,
)
_TABLE = re.compile(r"<table>.*?</table>", re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_HEADER = re.compile(r"<th(?:\s[^>]*)?>(.*?)</th>", re.S)
_CELL = re.compile(r"<td(\s[^>]*)?>(.*?)</td>", re.S)
_BREAKABLE = re.compile(r"(<code>|<a\s[^>]*>)(.*?)(</code>|</a>)", re.S)
_TOKEN = re.compile(r"&#?\w+;|<[^>]*>|.", re.S)
_TAGS = re.compile(r"<[^>]*>")


def anchor_id(name: str) -> str:
    """The HTML id of a build arg's row: `build-arg-` and its name in lower case (`build-arg-gpu_arch`),
    any character but letters, digits, `_` and `-` as `-`."""
    return "build-arg-" + re.sub(r"[^a-z0-9_-]", "-", name.lower())


ANCHORS = re.compile(r'<tr id="(build-arg-[^"]*)">')
"""The row ids `decorate_blocks` adds, to read them back from its output."""


def decorate_blocks(page_html: str) -> str:
    """`page_html` with each generated block wrapped and its tables labelled (see the module docstring)."""

    def block(match: re.Match[str]) -> str:
        body = _TABLE.sub(_label_table, match.group("body"))
        if match.group("name") == "build-args":
            body = _TABLE.sub(_anchor_rows, body, count=1)
        return (
            f'{match.group(1)}\n<div class="docgen docgen-{match.group("name")}">\n{body}</div>\n'
            f"{match.group(4)}"
        )

    return _BLOCK.sub(block, page_html)


def _label_table(match: re.Match[str]) -> str:
    table = match.group(0)
    headers = [html.escape(html.unescape(_TAGS.sub("", h)).strip()) for h in _HEADER.findall(table)]

    def row(row_match: re.Match[str]) -> str:
        column = iter(range(len(headers) + 1000))

        def cell(cell_match: re.Match[str]) -> str:
            index = next(column)
            label = f' data-label="{headers[index]}"' if index < len(headers) else ""
            content = _BREAKABLE.sub(
                lambda m: m.group(1) + breakable(m.group(2)) + m.group(3), cell_match.group(2)
            )
            return f"<td{cell_match.group(1) or ''}{label}>{content}</td>"

        return f"<tr>{_CELL.sub(cell, row_match.group(1))}</tr>"

    return _ROW.sub(row, table)


def _anchor_rows(match: re.Match[str]) -> str:
    """The build-args table with `id="build-arg-<name>"` on each body row (the name: its first cell)."""
    seen: set[str] = set()

    def row(row_match: re.Match[str]) -> str:
        first = _CELL.search(row_match.group(1))
        if first is None:
            return row_match.group(0)
        name = html.unescape(_TAGS.sub("", first.group(2))).strip()
        anchor = anchor_id(name)
        if not name or anchor in seen:
            return row_match.group(0)
        seen.add(anchor)
        return f'<tr id="{html.escape(anchor)}">{row_match.group(1)}</tr>'

    return _ROW.sub(row, match.group(0))


def breakable(code_html: str) -> str:
    """The HTML of a code span's content with `<wbr>` after each separator of its text (not in tags
    or inside an entity), so a browser breaks it there and only there."""
    out = []
    for token in _TOKEN.findall(code_html):
        out.append(token)
        if token[0] != "<" and html.unescape(token) in SEPARATORS:
            out.append("<wbr>")
    if out and out[-1] == "<wbr>":
        out.pop()
    return "".join(out)
