"""The MkDocs plugin: the site's tables equal the README's, errors fail the build with path:line,
the plugin never writes into docs_dir, and `mkdocs serve` watches the inputs.

Small sites are built in `tmp_path` from a dict of strings; the real site (mkdocs.yml at the repo root)
is built once per module with `python -m mkdocs build --strict`.
"""

from __future__ import annotations

import hashlib
import html as html_module
import os
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files, get_files
from mkdocs.structure.nav import Navigation, Section, get_navigation
from mkdocs.structure.pages import Page

import docgen.mkdocs_plugin
from docgen import markers
from docgen.config import load_config as load_docgen_config
from docgen.errors import ConfigError
from docgen.mkdocs_plugin import DocgenPlugin

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "docker" / "rocm" / "README.md"
XSS_SITE = ROOT / "tests" / "data" / "site"
QUIET = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}

# --------------------------------------------------------------------------------------------------
# Helpers


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Create `files` (relative path → text) under `root`; returns `root`."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def site_files(**extra: str) -> dict[str, str]:
    """A minimal project: pyproject with one image listing `page.md`, a Dockerfile, mkdocs.yml."""
    files = {
        "pyproject.toml": """\
            [tool.docgen]
            [[tool.docgen.images]]
            dockerfile = "Dockerfile"
            pages = ["page.md", "other.md"]
            """,
        "Dockerfile": """\
            ARG GPU_ARCH="gfx942"
            FROM ubuntu:22.04 AS base
            # MAX_JOBS Parallel compile jobs.
            ARG MAX_JOBS=8
            ARG GPU_ARCH
            RUN make -j"${MAX_JOBS}" ARCH="${GPU_ARCH}"
            """,
        "mkdocs.yml": """\
            site_name: t
            theme: mkdocs
            plugins: [docgen]
            """,
        "docs/other.md": "# Other\n",
        "docs/page.md": """\
            # Page

            <!-- BEGIN docgen:build-args -->
            <!-- END docgen:build-args -->
            """,
    }
    files.update(extra)
    return files


def config_for(root: Path, site_dir: Path | None = None) -> MkDocsConfig:
    return load_config(str(root / "mkdocs.yml"), site_dir=str(site_dir or root / "site"))


def strict_build(root: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the site in `root`, in a child process, output captured."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env=QUIET,
        capture_output=True,
        text=True,
    )


def build_site(root: Path) -> Path:
    """Build the site of `root/mkdocs.yml` in-process; returns the site folder."""
    build(config_for(root))
    return root / "site"


class WatchRecorder:
    """A stand-in for `mkdocs serve`'s live-reload server: records the paths it is asked to watch."""

    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)


def serve(root: Path) -> tuple[MkDocsConfig, DocgenPlugin, list[str]]:
    """The first build of `mkdocs serve` for `root/mkdocs.yml`, in-process: the config, the docgen
    plugin and the paths it has asked the server to watch (a list later builds add to)."""
    config = config_for(root)
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    plugin = config.plugins["docgen"]
    assert isinstance(plugin, DocgenPlugin)
    server = WatchRecorder()
    plugin.on_serve(server, config=config, builder=lambda: None)  # type: ignore[arg-type]
    return config, plugin, server.watched


def page_markdown(mkdocs_yml: Path, src_uri: str) -> str:
    """The Markdown of page `src_uri` after the docgen plugin's `on_page_markdown`."""
    config = load_config(str(mkdocs_yml), site_dir=str(mkdocs_yml.parent / "unused-site"))
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    files = get_files(config)
    plugin = config.plugins["docgen"]
    assert isinstance(plugin, DocgenPlugin)
    plugin.on_pre_build(config=config)
    files = plugin.on_files(files, config=config) or files
    file = files.get_file_from_path(src_uri)
    assert file is not None, src_uri
    page = Page(None, file, config)
    page.read_source(config)
    result = plugin.on_page_markdown(page.markdown or "", page=page, config=config, files=files)
    assert result is not None
    return result


def unlink_lines(text: str) -> str:
    """Line links `[L8](anything#L8)` → `L8`: the README links to its Dockerfile, the site may not."""
    return re.sub(r"\[L(\d+)\]\([^)\s]*#L\1\)", r"L\1", text)


class Tables(HTMLParser):
    """Cell texts of every table, grouped by the docgen block (HTML comment markers) around it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: dict[str, list[list[list[str]]]] = {}
        self.block: str | None = "(outside)"
        self.cell: list[str] | None = None

    def handle_comment(self, data: str) -> None:
        match = re.match(r"\s*(BEGIN|END) docgen:(\S+)", data)
        if match:
            self.block = match.group(2) if match.group(1) == "BEGIN" else "(outside)"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert self.block is not None
        if tag == "table":
            self.blocks.setdefault(self.block, []).append([])
        elif tag == "tr":
            self.blocks[self.block][-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            assert self.block is not None
            self.blocks[self.block][-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(html: str) -> dict[str, list[list[list[str]]]]:
    parser = Tables()
    parser.feed(html)
    return {name: tables for name, tables in parser.blocks.items() if name != "(outside)"}


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# --------------------------------------------------------------------------------------------------
# The real site


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's own site, built with `mkdocs build --strict`, docs/ checked to stay untouched."""
    site = tmp_path_factory.mktemp("site")
    before = tree_digest(ROOT / "docs")
    mtimes = {p: p.stat().st_mtime_ns for p in (ROOT / "docs").rglob("*")}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        env=QUIET,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    assert tree_digest(ROOT / "docs") == before, "the plugin wrote into docs_dir"
    assert {p: p.stat().st_mtime_ns for p in (ROOT / "docs").rglob("*")} == mtimes
    return site


def test_rocm_page_blocks_equal_readme_blocks() -> None:
    page = page_markdown(ROOT / "mkdocs.yml", "images/rocm.md")
    site_blocks = markers.block_bodies(page)
    readme_blocks = markers.block_bodies(README.read_text(encoding="utf-8"))
    assert set(site_blocks) == {"hardware", "versions", "contents", "build-args", "stages", "summary"}
    assert set(readme_blocks) == set(site_blocks)
    for name, body in site_blocks.items():
        assert body.strip(), f"docgen:{name} is empty on the site"
        assert unlink_lines(body) == unlink_lines(readme_blocks[name]), (
            f"docgen:{name} differs between the site and docker/rocm/README.md; run `docgen sync`"
        )


def test_rocm_page_has_no_relative_links_out_of_docs() -> None:
    page = page_markdown(ROOT / "mkdocs.yml", "images/rocm.md")
    assert "Dockerfile.rocm#L" not in page
    assert re.search(r"\| `GPU_ARCH` \| `gfx942;gfx950` \|", page)
    assert "[L8](../dockerfiles/docker/rocm/Dockerfile.rocm.md#L8)" in page, "the site's Dockerfile page"


def test_built_rocm_tables_equal_readme_tables(real_site: Path) -> None:
    html = (real_site / "images" / "rocm" / "index.html").read_text(encoding="utf-8")
    site = tables_of(html)
    readme_text = README.read_text(encoding="utf-8")
    readme = {
        name: tables_of(f"<!-- BEGIN docgen:{name} -->" + markdown.markdown(body, extensions=["tables"]))[
            name
        ]
        for name, body in markers.block_bodies(readme_text).items()
        if "|" in body
    }
    assert site == readme
    args = {row[0]: row[1] for row in site["build-args"][0][1:]}
    assert args["GPU_ARCH"] == "gfx942;gfx950"
    assert args["MAX_JOBS"] == "$(nproc)"


def test_every_page_is_built(real_site: Path) -> None:
    for page in (
        "index.html",
        "getting-started/index.html",
        "cli/index.html",
        "configuration/index.html",
        "markers/index.html",
        "images/rocm/index.html",
        "images/index.html",
        "dockerfile-semantics/index.html",
        "contributing/index.html",
    ):
        assert (real_site / page).is_file(), page


# --------------------------------------------------------------------------------------------------
# Small sites


def test_fills_configured_page_and_leaves_others(tmp_path: Path) -> None:
    root = write_tree(tmp_path, site_files(**{"docs/plain.md": "# Plain\n"}))
    site = build_site(root)
    html = (site / "page" / "index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    assert "<code>MAX_JOBS</code>" in html and "<code>8</code>" in html
    assert "Parallel compile jobs." in html
    assert (root / "docs" / "page.md").read_text(encoding="utf-8").count("\n") == 4, "source untouched"


def test_line_links_follow_repo_url_and_branch(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "mkdocs.yml": """\
                    site_name: t
                    theme: mkdocs
                    repo_url: https://github.com/example/proj/
                    plugins:
                      - docgen:
                          branch: dev
                    """,
                "docs/page.md": "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n",
            }
        ),
    )
    text = page_markdown(root / "mkdocs.yml", "page.md")
    assert "[L1](https://github.com/example/proj/blob/dev/Dockerfile#L1)" in text


def test_rows_from_a_base_dockerfile_link_to_it_in_the_repository(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "pyproject.toml": """\
                    [tool.docgen]
                    [[tool.docgen.images]]
                    dockerfile = "Dockerfile.base"
                    produces = ["org/base"]
                    [[tool.docgen.images]]
                    dockerfile = "Dockerfile"
                    pages = ["page.md"]
                    """,
                "Dockerfile.base": "FROM rocm/dev-ubuntu-22.04:6.4.1-complete\n",
                "Dockerfile": "FROM org/base:1\nRUN pip install vllm==0.9.1\n",
                "mkdocs.yml": """\
                    site_name: t
                    theme: mkdocs
                    repo_url: https://github.com/example/proj/
                    plugins: [docgen]
                    """,
                "docs/page.md": "<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n",
            }
        ),
    )
    text = page_markdown(root / "mkdocs.yml", "page.md")
    assert "| ROCm | `6.4.1` |" in text
    assert "[L1](https://github.com/example/proj/blob/main/Dockerfile.base#L1)" in text
    assert "[L2](https://github.com/example/proj/blob/main/Dockerfile#L2)" in text


def test_config_option_names_the_pyproject(tmp_path: Path) -> None:
    files = site_files()
    files["conf/pyproject.toml"] = files.pop("pyproject.toml")
    files["conf/Dockerfile"] = files.pop("Dockerfile")
    files["mkdocs.yml"] = (
        "site_name: t\ntheme: mkdocs\nplugins:\n  - docgen:\n      config: conf/pyproject.toml\n"
    )
    root = write_tree(tmp_path, files)
    assert "| `MAX_JOBS` | `8` |" in page_markdown(root / "mkdocs.yml", "page.md")
    (root / "conf" / "pyproject.toml").unlink()
    with pytest.raises(PluginError, match="config file not found"):
        page_markdown(root / "mkdocs.yml", "page.md")


def test_front_matter_names_the_dockerfile(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "docker/other.Dockerfile": 'FROM alpine:3.20\nARG LEVEL="front matter"\n',
                "docs/fm.md": """\
                    ---
                    docgen_dockerfile: docker/other.Dockerfile
                    ---
                    <!-- BEGIN docgen:build-args -->
                    <!-- END docgen:build-args -->
                    """,
            }
        ),
    )
    assert "| `LEVEL` | `front matter` |" in page_markdown(root / "mkdocs.yml", "fm.md")


def test_front_matter_may_not_leave_the_site(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        site_files(
            **{
                "docs/fm.md": "---\ndocgen_dockerfile: ../../etc/passwd\n---\n"
                "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n"
            }
        ),
    )
    with pytest.raises(PluginError, match=r"docs/fm\.md: docgen_dockerfile = .* points outside"):
        page_markdown(root / "mkdocs.yml", "fm.md")


def test_blocks_without_a_dockerfile_fail_with_page_path(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{"docs/lost.md": "# Lost\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"}
        ),
    )
    with pytest.raises(
        PluginError, match=r"^docs/lost\.md:3: block docgen:versions but no Dockerfile for this page"
    ):
        page_markdown(root / "mkdocs.yml", "lost.md")


def test_marker_examples_in_code_fences_are_not_blocks(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "docs/lost.md": "# Docs\n\n```markdown\n<!-- BEGIN docgen:versions -->\n"
                "<!-- END docgen:versions -->\n```\n"
            }
        ),
    )
    html = (build_site(root) / "lost" / "index.html").read_text(encoding="utf-8")
    assert "BEGIN docgen:versions" in html


def test_broken_marker_fails_with_path_and_source_line(tmp_path: Path) -> None:
    # The front matter is stripped before plugins see the page; the line must still be the file's.
    page = "---\ntitle: Broken\n---\n# Page\n\n<!-- BEGIN docgen:build-args -->\ntext\n"
    root = write_tree(tmp_path, site_files(**{"docs/page.md": page}))
    with pytest.raises(PluginError) as info:
        page_markdown(root / "mkdocs.yml", "page.md")
    assert str(info.value).startswith(
        "docs/page.md:6: BEGIN docgen:build-args has no <!-- END docgen:build-args -->"
    )


def test_unknown_block_fails(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path, site_files(**{"docs/page.md": "<!-- BEGIN docgen:nope -->\n<!-- END docgen:nope -->\n"})
    )
    with pytest.raises(PluginError, match=r"^docs/page\.md:1: unknown block docgen:nope"):
        page_markdown(root / "mkdocs.yml", "page.md")


def test_bad_config_fails(tmp_path: Path) -> None:
    root = write_tree(tmp_path, site_files(**{"pyproject.toml": "[tool.docgen]\ncolour = 1\n"}))
    with pytest.raises(PluginError, match=r"^pyproject\.toml:2: unknown key 'colour'"):
        page_markdown(root / "mkdocs.yml", "page.md")


def test_dockerfile_error_fails_the_cli_build_with_path_line(tmp_path: Path) -> None:
    bad = "# syntax=docker/dockerfile:1\n# syntax=docker/dockerfile:1\nFROM alpine\n"
    expected = subprocess.run(
        [sys.executable, "-m", "docgen", "show", "Dockerfile"],
        cwd=write_tree(tmp_path, site_files(Dockerfile=bad)),
        capture_output=True,
        text=True,
    )
    assert expected.returncode == 2, "the fixture must be an error for the reader"
    result = strict_build(tmp_path)
    assert result.returncode == 1
    message = expected.stderr.strip().splitlines()[-1]
    assert re.match(r"Dockerfile:\d+: ", message), message
    assert f"ERROR   -  {message}\n" in result.stderr
    assert "Traceback" not in result.stderr


def test_model_is_built_once_per_build_per_dockerfile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = docgen.mkdocs_plugin.build_model

    def counting(path: object, display: str | None = None, *rest: object) -> object:
        calls.append(str(path))
        return real(path, display, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(docgen.mkdocs_plugin, "build_model", counting)
    root = write_tree(
        tmp_path,
        site_files(**{"docs/other.md": "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n"}),
    )
    build_site(root)
    assert len(calls) == 1
    build_site(root)
    assert len(calls) == 2, "a new build reads the Dockerfile again"


def test_on_serve_watches_dockerfiles_config_and_templates(tmp_path: Path) -> None:
    files = site_files(
        **{
            "pyproject.toml": """\
                [tool.docgen]
                templates = "templates"
                [[tool.docgen.images]]
                dockerfile = "Dockerfile"
                pages = ["page.md"]
                outputs = ["README.md"]
                """,
            "README.md": "# Image\n",
            "templates/hardware.md.j2": "custom hardware table\n",
            "extra/Dockerfile": "FROM alpine\n",
            "docs/fm.md": "---\ndocgen_dockerfile: extra/Dockerfile\n---\n"
            "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n",
        }
    )
    root = write_tree(tmp_path, files)
    config, plugin, watched = serve(root)
    resolved = tmp_path.resolve()
    assert sorted(watched) == sorted(
        str(resolved / p)
        for p in ("Dockerfile", "pyproject.toml", "templates", "extra/Dockerfile", "README.md")
    )
    plugin.on_post_build(config=config)
    assert len(watched) == 5, "each path is watched once"
    assert "custom hardware table" in (root / "site" / "fm" / "index.html").read_text(encoding="utf-8")


def test_xss_fixture_page_builds_as_text(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(XSS_SITE / "mkdocs.yml"),
            "-d",
            str(tmp_path),
        ],
        env=QUIET,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    body = html[html.index("BEGIN docgen:hardware") : html.index("END docgen:build-args")].replace(
        "<wbr>", ""
    )
    assert "<script" not in body and "<img" not in body
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt; &#124; not a new cell" in body
    rows = tables_of(html)["build-args"][0]
    assert ["SCRIPT_TAG", "<script>document.title='pwned'</script> | not a new cell"] == rows[3][:2]


def test_mkdocs_is_imported_only_by_the_plugin() -> None:
    for module in (ROOT / "docgen").glob("*.py"):
        if module.name == "mkdocs_plugin.py":
            continue
        text = module.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) mkdocs\b", text, re.MULTILINE), module.name
    code = "import sys, docgen.cli, docgen.pipeline; sys.exit('mkdocs' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_a_listed_page_the_site_lacks_fails_a_strict_build(tmp_path: Path) -> None:
    files = site_files()
    files["pyproject.toml"] = files["pyproject.toml"].replace('"other.md"', '"imagess/rocm.md"')
    write_tree(tmp_path, files)
    result = strict_build(tmp_path)
    assert result.returncode == 1
    assert (
        "WARNING -  pyproject.toml:4: pages = 'imagess/rocm.md' is not a page of this site" in result.stderr
    )


@pytest.mark.parametrize(
    ("pages", "message"),
    [
        ('["../README.md"]', "pyproject.toml:4: pages = '../README.md' must be a page path relative to"),
        ('["/etc/passwd"]', "pyproject.toml:4: pages = '/etc/passwd' must be a page path relative to"),
    ],
)
def test_pages_out_of_docs_dir_are_refused(tmp_path: Path, pages: str, message: str) -> None:
    files = site_files()
    files["pyproject.toml"] = files["pyproject.toml"].replace('["page.md", "other.md"]', pages)
    write_tree(tmp_path, files)
    with pytest.raises(ConfigError) as info:
        load_docgen_config(tmp_path / "pyproject.toml", cwd=tmp_path)
    assert str(info.value).startswith(message)


def test_pages_are_normalised_and_may_be_listed_by_several_images(tmp_path: Path) -> None:
    files = site_files()
    files["pyproject.toml"] = files["pyproject.toml"].replace('"other.md"', '"./sub/../other.md"')
    write_tree(tmp_path, files)
    assert load_docgen_config(tmp_path / "pyproject.toml").images[0].pages == ("page.md", "other.md")
    files["pyproject.toml"] += (
        '[[tool.docgen.images]]\ndockerfile = "Dockerfile"\nname = "again"\npages = ["page.md"]\n'
    )
    write_tree(tmp_path, files)
    config = load_docgen_config(tmp_path / "pyproject.toml")
    assert [image.name for image in config.images_for_page("page.md")] == [config.images[0].name, "again"]
    assert [image.name for image in config.images_for_page("other.md")] == [config.images[0].name]


@pytest.mark.parametrize(
    ("front", "message"),
    [
        (
            '---\ndocgen_dockerfile: "nope"\n---\n',
            "docs/page.md:2: docgen_dockerfile: Dockerfile 'nope' not found",
        ),
        (
            "---\ntitle: t\ndocgen_dockerfile: [Dockerfile\n---\n",
            "docs/page.md:1: the front matter is not valid YAML (MkDocs ignored it), so docgen_dockerfile "
            "was not read",
        ),
    ],
)
def test_front_matter_errors_point_at_the_front_matter(tmp_path: Path, front: str, message: str) -> None:
    files = site_files()
    files["docs/page.md"] = (
        front + "# Page\n\n<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n"
    )
    write_tree(tmp_path, files)
    result = strict_build(tmp_path)
    assert result.returncode == 1
    assert f"ERROR   -  {message}\n" in result.stderr


def test_a_page_opening_with_a_rule_is_not_taken_for_front_matter(tmp_path: Path) -> None:
    files = site_files()
    files["docs/page.md"] = (
        "---\n\nThe key `docgen_dockerfile:` is documented below.\ndocgen_dockerfile: is a front matter key\n"
        "\n<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n"
    )
    write_tree(tmp_path, files)
    site = build_site(tmp_path)
    assert "MAX_JOBS" in (site / "page" / "index.html").read_text().replace("<wbr>", "")


# --------------------------------------------------------------------------------------------------
# What the plugin adds: Dockerfile pages, line links to them, the stylesheet, the README check


HARDWARE_PAGE = "# Page\n\n<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n"


def test_line_links_go_to_the_generated_dockerfile_page(tmp_path: Path) -> None:
    root = write_tree(tmp_path, site_files(**{"docs/page.md": HARDWARE_PAGE}))
    text = page_markdown(root / "mkdocs.yml", "page.md")
    assert "[L1](dockerfiles/Dockerfile.md#L1)" in text
    site = build_site(root)
    page = (site / "dockerfiles" / "Dockerfile" / "index.html").read_text(encoding="utf-8")
    line = re.search(r'<span class="docgen-line" id="L1">(.*?)</span>\n', page)
    assert line is not None
    assert html_module.unescape(re.sub(r"<[^>]+>", "", line.group(1))) == 'ARG GPU_ARCH="gfx942"'
    built = (site / "page" / "index.html").read_text(encoding="utf-8")
    assert 'href="../dockerfiles/Dockerfile/#L1"' in built
    assert 'href="assets/docgen/docgen.css"' in built or 'href="../assets/docgen/docgen.css"' in built
    assert (site / "assets" / "docgen" / "docgen.css").is_file()


def test_line_links_option_site_wins_over_repo_url(tmp_path: Path) -> None:
    yml = "site_name: t\ntheme: mkdocs\nrepo_url: https://example.org/p\nplugins:\n  - docgen:\n"
    page = {"docs/page.md": HARDWARE_PAGE}
    root = write_tree(tmp_path, site_files(**{"mkdocs.yml": yml + "      line_links: site\n"}, **page))
    assert "[L1](dockerfiles/Dockerfile.md#L1)" in page_markdown(root / "mkdocs.yml", "page.md")
    (root / "mkdocs.yml").write_text(
        "site_name: t\ntheme: mkdocs\nplugins:\n  - docgen:\n      line_links: repository\n", encoding="utf-8"
    )
    with pytest.raises(PluginError, match="line_links: repository needs repo_url"):
        page_markdown(root / "mkdocs.yml", "page.md")


def test_strict_build_fails_while_a_readme_is_out_of_date(tmp_path: Path) -> None:
    files = site_files()
    files["pyproject.toml"] += 'outputs = ["README.md"]\n'
    files["README.md"] = "# Image\n\n<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n"
    root = write_tree(tmp_path, files)
    result = strict_build(root)
    assert result.returncode == 1
    assert "README.md is out of date with Dockerfile (blocks: build-args): run `docgen sync`" in result.stderr
    from docgen.cli import main

    assert main(["sync", "--config", str(root / "pyproject.toml")]) == 0
    result = strict_build(root)
    assert result.returncode == 0, result.stderr
    with (root / "Dockerfile").open("a", encoding="utf-8") as dockerfile:
        dockerfile.write("# NEW_ARG A new argument.\nARG NEW_ARG=1\n")
    result = strict_build(root)
    assert result.returncode == 1 and "README.md is out of date" in result.stderr


def test_mermaid_js_is_served_from_the_site(tmp_path: Path) -> None:
    yml = "site_name: t\ntheme: mkdocs\nplugins:\n  - docgen:\n      mermaid_js: vendor/mermaid.min.js\n"
    root = write_tree(tmp_path, site_files(**{"mkdocs.yml": yml, "vendor/mermaid.min.js": "var mermaid;\n"}))
    site = build_site(root)
    assert (site / "assets" / "docgen" / "mermaid.min.js").read_text(encoding="utf-8") == "var mermaid;\n"
    assert "assets/docgen/mermaid.min.js" in (site / "page" / "index.html").read_text(encoding="utf-8")
    (root / "vendor" / "mermaid.min.js").unlink()
    result = strict_build(root)
    assert result.returncode == 1
    assert f"docgen: mermaid_js: file not found: {root / 'vendor' / 'mermaid.min.js'}" in result.stderr


def test_a_page_in_pages_and_outputs_is_synced_on_disk_and_filled_by_the_plugin(tmp_path: Path) -> None:
    files = site_files(**{"docs/page.md": HARDWARE_PAGE})
    files["pyproject.toml"] += 'outputs = ["docs/page.md"]\n'
    root = write_tree(tmp_path, files)
    from docgen.cli import main

    assert main(["sync", "--config", str(root / "pyproject.toml")]) == 0
    assert "([L1](../Dockerfile#L1))" in (root / "docs" / "page.md").read_text(encoding="utf-8")
    result = strict_build(root)
    assert result.returncode == 0, result.stderr
    built = (root / "site" / "page" / "index.html").read_text(encoding="utf-8")
    assert 'href="../dockerfiles/Dockerfile/#L1"' in built


def test_the_sites_hosting_addresses_come_from_the_publishing_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdocs.yml reads site_url, repo_url and edit_uri from the environment the deploy workflow sets:
    a local build links line cells to the site's Dockerfile pages, a published one to the repository."""
    for name in ("DOCGEN_SITE_URL", "DOCGEN_REPO_URL", "DOCGEN_EDIT_URI"):
        monkeypatch.delenv(name, raising=False)
    local = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(ROOT / "unused-site"))
    assert (local.site_url, local.repo_url, local.edit_uri) == (None, None, None)
    monkeypatch.setenv("DOCGEN_SITE_URL", "https://example.org/docgen/")
    monkeypatch.setenv("DOCGEN_REPO_URL", "https://github.com/example/docgen")
    monkeypatch.setenv("DOCGEN_EDIT_URI", "edit/main/docs/")
    hosted = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(ROOT / "unused-site"))
    assert (hosted.site_url, hosted.repo_url, hosted.edit_uri) == (
        "https://example.org/docgen/",
        "https://github.com/example/docgen",
        "edit/main/docs/",
    )
    page = page_markdown(ROOT / "mkdocs.yml", "images/rocm.md")
    assert "[L8](https://github.com/example/docgen/blob/main/docker/rocm/Dockerfile.rocm#L8)" in page
    workflow = (ROOT / ".github/workflows/docs.yml").read_text(encoding="utf-8")
    for name in ("DOCGEN_SITE_URL", "DOCGEN_REPO_URL", "DOCGEN_EDIT_URI", "mkdocs build --strict"):
        assert name in workflow


# --------------------------------------------------------------------------------------------------
# Generated image pages, their index and the Images section of the navigation


def three_images(**extra: str) -> dict[str, str]:
    """A project with three images: `cuda` and `rocm` (one glob, no page of their own) and `cpu`
    (`pages`, a hand-written page with a block)."""
    files = {
        "pyproject.toml": """\
            [tool.docgen]
            [[tool.docgen.images]]
            dockerfile = "docker/*/Dockerfile"
            [[tool.docgen.images]]
            dockerfile = "docker/Dockerfile.cpu"
            pages = ["images/cpu.md"]
            """,
        "docker/cuda/Dockerfile": """\
            FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS base
            # MAX_JOBS Parallel compile jobs.
            ARG MAX_JOBS=8
            RUN pip install torch==2.5.1
            """,
        "docker/rocm/Dockerfile": """\
            ARG GPU_ARCH="gfx942"
            FROM rocm/dev-ubuntu-22.04:6.2 AS base
            ARG GPU_ARCH
            RUN pip install torch==2.5.1 && make ARCH="${GPU_ARCH}"
            """,
        "docker/Dockerfile.cpu": "FROM python:3.12-slim\nRUN pip install numpy==2.1.0\n",
        "docs/index.md": "# Home\n",
        "docs/images/cpu.md": "# CPU image\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n",
        "mkdocs.yml": """\
            site_name: t
            theme: mkdocs
            plugins: [docgen]
            validation:
              nav: {omitted_files: warn, not_found: warn}
              links: {not_found: warn, anchors: warn, unrecognized_links: warn}
            """,
    }
    files.update(extra)
    return files


def site_structure(mkdocs_yml: Path) -> tuple[Files, Navigation, DocgenPlugin]:
    """The files and navigation of the site of `mkdocs_yml` as the plugin leaves them (no build)."""
    config = load_config(str(mkdocs_yml), site_dir=str(mkdocs_yml.parent / "unused-site"))
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    plugin = config.plugins["docgen"]
    assert isinstance(plugin, DocgenPlugin)
    plugin.on_pre_build(config=config)
    files = plugin.on_files(get_files(config), config=config) or get_files(config)
    return files, get_navigation(files, config), plugin


def nav_outline(items: list[Any]) -> list[Any]:
    """A navigation as nested lists of titles and page URIs (`{title: [...]}` for a section)."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, Section):
            out.append({item.title: nav_outline(item.children)})
        elif isinstance(item, Page):
            out.append(item.file.src_uri)
    return out


def generated_markdown(files: Files, src_uri: str) -> str:
    file = files.get_file_from_path(src_uri)
    assert file is not None and file.generated_by is not None, src_uri
    return file.content_string


def test_three_images_get_two_generated_pages_an_index_and_an_images_section(tmp_path: Path) -> None:
    root = write_tree(tmp_path, three_images())
    files, nav, _ = site_structure(root / "mkdocs.yml")
    assert files.get_file_from_path("images/cpu.md").generated_by is None, "the hand-written page wins"  # type: ignore[union-attr]
    cuda = generated_markdown(files, "images/cuda.md")
    assert cuda.startswith("# cuda\n\n<!-- BEGIN docgen:summary -->\n<!-- END docgen:summary -->\n")
    assert "Built from [docker/cuda/Dockerfile](../dockerfiles/docker/cuda/Dockerfile.md)." in cuda
    assert [b.name for b in markers.find_blocks(cuda)] == [
        "summary", "hardware", "versions", "stages", "contents", "build-args"
    ]  # fmt: skip
    assert "[all images](index.md)" in cuda
    assert generated_markdown(files, "images/rocm.md").startswith("# rocm\n")
    assert nav_outline(nav.items) == [
        "index.md",
        {"Images": ["images/index.md", "images/cpu.md", "images/cuda.md", "images/rocm.md"]},
    ], "without `nav`, MkDocs shows the images/ folder as a section, the index first"

    result = strict_build(root)  # every link and anchor resolves, every page is in the navigation
    assert result.returncode == 0, result.stderr
    site = root / "site"
    page = (site / "images" / "cuda" / "index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    assert '<div class="docgen docgen-build-args">' in page and 'id="build-arg-max_jobs"' in page
    assert "<code>MAX_JOBS</code>" in page and "Parallel compile jobs." in page
    assert 'href="../../dockerfiles/docker/cuda/Dockerfile/#L4"' in page, "line links as on any page"
    rocm = (site / "images" / "rocm" / "index.html").read_text(encoding="utf-8")
    assert "<code>gfx942</code>" in rocm and "MI300X" in rocm
    assert "Dockerfile.cpu/#L1" in (site / "images" / "cpu" / "index.html").read_text(encoding="utf-8")
    assert not (root / "docs" / "images" / "cuda.md").exists(), "the plugin writes no file"


def test_the_index_page_holds_the_images_and_matrix_blocks_and_lists_the_images(tmp_path: Path) -> None:
    root = write_tree(tmp_path, three_images())
    files, _, _ = site_structure(root / "mkdocs.yml")
    index = generated_markdown(files, "images/index.md")
    assert index.startswith("# All images\n")
    assert [b.name for b in markers.find_blocks(index)] == ["images", "matrix"]
    text = page_markdown(root / "mkdocs.yml", "images/index.md")
    bodies = markers.block_bodies(text)
    images = bodies["images"].splitlines()
    assert images[0].startswith("| Image | Dockerfile | Base image | Key versions |")
    assert [row.split(" | ")[0] for row in images[2:]] == ["| cuda", "| rocm", "| cpu"]
    assert "[docker/cuda/Dockerfile](../dockerfiles/docker/cuda/Dockerfile.md)" in bodies["images"]
    assert bodies["matrix"].splitlines()[0].startswith("| Component | cuda | rocm | cpu |")
    assert text.endswith(
        "## Image pages\n\n"
        "- [cuda](cuda.md): `docker/cuda/Dockerfile`\n"
        "- [rocm](rocm.md): `docker/rocm/Dockerfile`\n"
        "- [cpu](cpu.md): `docker/Dockerfile.cpu`\n"
    )
    site = build_site(root)
    html = (site / "images" / "index.html").read_text(encoding="utf-8")
    for name in ("cuda", "rocm", "cpu"):
        assert f'<a href="{name}/">{name}</a>' in html


def test_a_hand_written_index_and_a_page_in_a_folder_win(tmp_path: Path) -> None:
    files = three_images(
        **{
            "docs/images/index.md": "# Our images\n\nIntro.\n\n"
            "<!-- BEGIN docgen:images -->\n<!-- END docgen:images -->\n",
            "docs/images/rocm/index.md": "# ROCm\n\n<!-- BEGIN docgen:hardware -->\n"
            "<!-- END docgen:hardware -->\n",
        }
    )
    root = write_tree(tmp_path, files)
    found, nav, _ = site_structure(root / "mkdocs.yml")
    generated = sorted(f.src_uri for f in found.documentation_pages() if f.generated_by)
    assert generated == [
        "dockerfiles/docker/Dockerfile.cpu.md",
        "dockerfiles/docker/cuda/Dockerfile.md",
        "dockerfiles/docker/rocm/Dockerfile.md",
        "images/cuda.md",
    ], "no generated index, no generated rocm page"
    text = page_markdown(root / "mkdocs.yml", "images/index.md")
    assert text.startswith("# Our images\n\nIntro.\n\n<!-- BEGIN docgen:images ")
    rows = markers.block_bodies(text)["images"].splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == ["| cuda", "| rocm", "| cpu"], (
        "every image, own page or not"
    )
    assert nav_outline(nav.items)[1] == {
        "Images": ["images/index.md", "images/cpu.md", "images/cuda.md", {"Rocm": ["images/rocm/index.md"]}]
    }, "MkDocs' own navigation: a folder is a section"
    # the page in the folder is filled from the image it is named after
    rocm = page_markdown(root / "mkdocs.yml", "images/rocm/index.md")
    assert "| `gfx942` | AMD |" in rocm and "[L1](../../dockerfiles/docker/rocm/Dockerfile.md#L1)" in rocm
    result = strict_build(root)
    assert result.returncode == 0, result.stderr


EXPLICIT_NAV = """\
site_name: t
theme: mkdocs
plugins: [docgen]
validation:
  nav: {omitted_files: warn, not_found: warn}
nav:
  - Home: index.md
"""


def test_an_explicit_nav_gets_an_images_section_at_its_end(tmp_path: Path) -> None:
    root = write_tree(tmp_path, three_images(**{"mkdocs.yml": EXPLICIT_NAV + "  - CPU: images/cpu.md\n"}))
    _, nav, _ = site_structure(root / "mkdocs.yml")
    assert nav_outline(nav.items) == [
        "index.md",
        "images/cpu.md",
        {"Images": ["images/index.md", "images/cuda.md", "images/rocm.md"]},
    ], "a page the nav names stays where it is"
    result = strict_build(root)  # no page left out of the navigation
    assert result.returncode == 0, result.stderr


def test_a_literal_images_entry_places_the_section(tmp_path: Path) -> None:
    yml = EXPLICIT_NAV + "  - Images\n  - About: about.md\n"
    root = write_tree(tmp_path, three_images(**{"mkdocs.yml": yml, "docs/about.md": "# About\n"}))
    _, nav, _ = site_structure(root / "mkdocs.yml")
    assert nav_outline(nav.items) == [
        "index.md",
        {"Images": ["images/index.md", "images/cuda.md", "images/rocm.md", "images/cpu.md"]},
        "about.md",
    ], "the index, then the images in the config's order"
    result = strict_build(root)
    assert result.returncode == 0, result.stderr


def test_image_pages_false_generates_nothing(tmp_path: Path) -> None:
    yml = "site_name: t\ntheme: mkdocs\nplugins:\n  - docgen:\n      image_pages: false\n"
    root = write_tree(tmp_path, three_images(**{"mkdocs.yml": yml}))
    files, nav, _ = site_structure(root / "mkdocs.yml")
    assert sorted(f.src_uri for f in files.documentation_pages() if f.generated_by) == [
        "dockerfiles/docker/Dockerfile.cpu.md"
    ]
    assert nav_outline(nav.items) == ["index.md", {"Images": ["images/cpu.md"]}]


def test_a_user_template_overrides_the_image_page(tmp_path: Path) -> None:
    files = three_images(
        **{
            "templates/image-page.md.j2": "# The {{ name }} image\n\n"
            "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n",
        }
    )
    files["pyproject.toml"] = files["pyproject.toml"].replace(
        "[tool.docgen]\n", '[tool.docgen]\ntemplates = "templates"\n'
    )
    root = write_tree(tmp_path, files)
    found, _, _ = site_structure(root / "mkdocs.yml")
    assert generated_markdown(found, "images/rocm.md") == (
        "# The rocm image\n\n<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n"
    )
    site = build_site(root)
    assert "MI300X" in (site / "images" / "rocm" / "index.html").read_text(encoding="utf-8")
    (root / "templates" / "image-page.md.j2").write_text("# {{ name }\n", encoding="utf-8")
    result = strict_build(root)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "templates/image-page.md.j2:1: template error: " in result.stderr


def test_under_serve_a_dockerfile_edit_regenerates_its_image_page(tmp_path: Path) -> None:
    root = write_tree(tmp_path, three_images())
    _, plugin, watched = serve(root)
    page = root / "site" / "images" / "cuda" / "index.html"
    assert "NEW_ARG" not in page.read_text(encoding="utf-8")
    assert str((root / "docker" / "cuda" / "Dockerfile").resolve()) in watched
    with (root / "docker" / "cuda" / "Dockerfile").open("a", encoding="utf-8") as dockerfile:
        dockerfile.write("# NEW_ARG A new argument.\nARG NEW_ARG=1\n")
    rebuilt = config_for(root)  # as `mkdocs serve` does: the config again, the same plugin instance
    assert rebuilt.plugins["docgen"] is plugin
    build(rebuilt, serve_url="http://127.0.0.1:8000/")
    html = page.read_text(encoding="utf-8")
    assert "NEW_ARG" in html and "A new argument." in html


def test_two_images_of_one_name_get_one_page_and_a_warning(tmp_path: Path) -> None:
    files = three_images(
        **{
            "pyproject.toml": """\
                [tool.docgen]
                [[tool.docgen.images]]
                dockerfile = "a/cuda/Dockerfile"
                [[tool.docgen.images]]
                dockerfile = "b/cuda/Dockerfile"
                """,
            "a/cuda/Dockerfile": "FROM alpine:3.20\n",
            "b/cuda/Dockerfile": "FROM debian:12\n",
        }
    )
    root = write_tree(tmp_path, files)
    found, _, _ = site_structure(root / "mkdocs.yml")
    assert "a/cuda/Dockerfile" in generated_markdown(found, "images/cuda.md")
    result = strict_build(root)
    assert result.returncode == 1
    assert (
        "pyproject.toml (b/cuda/Dockerfile): no page generated for image 'cuda': another image or page "
        'has its path images/cuda.md; give it a name = "…" of its own'
    ) in result.stderr


def test_the_real_site_gains_the_index_in_its_images_section() -> None:
    files, nav, _ = site_structure(ROOT / "mkdocs.yml")
    outline = nav_outline(nav.items)
    assert outline[1] == {
        "Images": ["images/index.md", "images/rocm.md", "dockerfiles/docker/rocm/Dockerfile.rocm.md"]
    }
    assert [
        f.src_uri for f in files.documentation_pages() if f.generated_by and f.src_uri.startswith("images/")
    ] == ["images/index.md"], "the one image has its own page"


def test_two_targets_of_one_dockerfile_are_two_models(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "pyproject.toml": """\
                    [tool.docgen]
                    [[tool.docgen.images]]
                    dockerfile = "Dockerfile"
                    name = "base"
                    target = "base"
                    pages = ["page.md"]
                    [[tool.docgen.images]]
                    dockerfile = "Dockerfile"
                    name = "test"
                    target = "test"
                    pages = ["other.md"]
                    """,
                "Dockerfile": """\
                    FROM ubuntu:22.04 AS base
                    # MAX_JOBS Parallel compile jobs.
                    ARG MAX_JOBS=8
                    FROM base AS test
                    # PYTEST_VERSION The pytest release.
                    ARG PYTEST_VERSION=8.3.5
                    """,
                "docs/other.md": (
                    "# Other\n\n<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n"
                ),
            }
        ),
    )
    site = build_site(root)  # one plugin, one model cache for both pages
    page = (site / "page" / "index.html").read_text(encoding="utf-8")
    other = (site / "other" / "index.html").read_text(encoding="utf-8")
    assert "MAX_JOBS" in page and "PYTEST_VERSION" not in page and "--target base" in page
    assert "MAX_JOBS" in other and "PYTEST_VERSION" in other and "--target test" in other


def test_on_serve_watches_the_bake_file(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        site_files(
            **{
                "pyproject.toml": """\
                    [tool.docgen]
                    [[tool.docgen.images]]
                    bake = "docker-bake.json"
                    pages = ["page.md"]
                    """,
                "docker-bake.json": '{"target": {"app": {"dockerfile": "Dockerfile"}}}\n',
            }
        ),
    )
    _, _, watched = serve(root)
    assert str(tmp_path.resolve() / "docker-bake.json") in watched
