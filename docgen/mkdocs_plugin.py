"""The docgen MkDocs plugin: fills the docgen blocks of every page at build time.

Enable it with `plugins: [docgen]` in mkdocs.yml. Each page is filled by
`docgen.family.fill_document`, the function `docgen sync` uses, so a page shows what `docgen sync` would
write into a README from the same Dockerfiles. A page gets its Dockerfiles from `pages` in
`[[tool.docgen.images]]` (paths relative to docs_dir; several images may list one page, whose blocks
then say which image with `image=`) or from `docgen_dockerfile: path` in its front matter (relative to
mkdocs.yml). The plugin
never writes a file, and under `mkdocs serve` it watches the Dockerfiles, pyproject.toml and the
template folder so an edit rebuilds the site.

It also adds to the site (see `docgen.site`): a page per configured Dockerfile, highlighted, with an
anchor per line, which line cells link to unless `repo_url` says where the repository is hosted; a
small stylesheet that keeps generated tables inside their column (stacked rows on narrow screens);
Mermaid's script when `mermaid_js` names a local copy (Material otherwise fetches it from a CDN). And it
warns, so that `mkdocs build --strict` fails, when an `outputs` file of the config is out of date.

Unless `image_pages: false`, it also generates a page `images/NAME/` (template `image-page.md.j2`) for
each configured image that has no page of its own, an index `images/` (`images-index.md.j2`) unless the
site has one, and, when mkdocs.yml has an explicit `nav`, an `Images` section listing them (without
`nav`, MkDocs' own navigation shows the `images/` folder as that section).

This is the only module that imports mkdocs (an optional dependency: `pip install docgen[mkdocs]`).
"""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from docgen import markers, site
from docgen.config import Config, ImageConfig, find_pyproject, load_config, resolve_path
from docgen.errors import DocgenError, MarkerError
from docgen.family import by_document, fill_document
from docgen.files import os_error
from docgen.markers import SECTIONS
from docgen.model import ImageModel
from docgen.pipeline import build_model, member
from docgen.render import render_page

log = logging.getLogger("mkdocs.plugins.docgen")

FRONT_MATTER_KEY = "docgen_dockerfile"


def _read(image: ImageConfig) -> ImageModel:
    """The model of a configured image: its Dockerfile built with its `args` and `target`."""
    return build_model(image.dockerfile, image.display, image.args, image.target, image.target_at)


class DocgenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of `plugins: - docgen: …` in mkdocs.yml."""

    config = c.Optional(c.Type(str))
    """pyproject.toml holding `[tool.docgen]`, relative to mkdocs.yml (default: the nearest one)."""
    branch = c.Type(str, default="main")
    """Branch used in line links `{repo_url}/blob/{branch}/{dockerfile}#L{n}` when `repo_url` is set."""
    line_links = c.Choice(("auto", "repository", "site"), default="auto")
    """Where line cells link: `repository` (needs `repo_url`), `site` (the Dockerfile pages docgen adds),
    `auto` (the repository when `repo_url` is set, else the site)."""
    mermaid_js = c.Optional(c.Type(str))
    """A local copy of mermaid.min.js (relative to mkdocs.yml) served with the site, so stage diagrams
    draw without network (MkDocs Material otherwise loads Mermaid from unpkg.com)."""
    check_outputs = c.Type(bool, default=True)
    """Warn (fail `mkdocs build --strict`) when a file in `outputs` is out of date with its Dockerfile."""
    image_pages = c.Type(bool, default=True)
    """Generate `images/NAME/` for each image without a page of its own, the index `images/`, and the
    Images section of an explicit `nav`."""


ASSETS = "assets/docgen"
"""Where the plugin's stylesheet and Mermaid copy go in the site."""


class DocgenPlugin(BasePlugin[DocgenPluginConfig]):  # type: ignore[no-untyped-call]
    """Regenerates docgen blocks in pages as they are built; see the module docstring."""

    def __init__(self) -> None:
        self._docgen: Config | None = None
        self._site_root = Path.cwd()
        self._repo_url: str | None = None
        self._pyproject: Path | None = None
        self._models: dict[tuple[str, int, int, tuple[tuple[str, str], ...], str | None], ImageModel] = {}
        self._seen: set[Path] = set()
        self._server: LiveReloadServer | None = None
        self._watched: set[str] = set()
        self._source_pages: dict[str, ImageConfig] = {}
        self._filled: set[str] = set()
        self._image_pages: dict[str, ImageConfig] = {}
        self._generated: set[str] = set()
        self._index_uri: str | None = None
        self._index_images: list[tuple[ImageConfig, str | None]] = []

    # Defining on_startup makes mkdocs keep one instance across the rebuilds of `mkdocs serve` (and
    # across every config loaded in the same process), so per-session state is reset here.
    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self._seen.clear()
        self._watched.clear()
        self._server = None

    def on_shutdown(self) -> None:
        self._server = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self._site_root = (
            Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()
        )
        self._repo_url = config.repo_url.rstrip("/") if config.repo_url else None
        try:
            if self.config.config is not None:
                self._pyproject = self._site_root / self.config.config
                if not self._pyproject.is_file():
                    raise PluginError(f"docgen: config file not found: {self._pyproject}")
            else:
                self._pyproject = find_pyproject(self._site_root)
            self._docgen = load_config(self._pyproject, cwd=self._site_root)
        except DocgenError as exc:
            raise PluginError(str(exc)) from None
        except OSError as exc:  # a name too long, a symlink loop … (see `docgen.files.os_error`)
            raise PluginError(f"docgen: {os_error(exc)}") from None
        log.debug("read %s: %d image(s)", self._docgen.source, len(self._docgen.images))
        if self.config.line_links == "repository" and not self._repo_url:
            raise PluginError("docgen: line_links: repository needs repo_url in mkdocs.yml")
        css = f"{ASSETS}/docgen.css"
        if css not in config.extra_css:
            config.extra_css.append(css)
        if self.config.mermaid_js is not None:
            script = self._site_root / self.config.mermaid_js
            if not script.is_file():
                raise PluginError(f"docgen: mermaid_js: file not found: {script}")
            if f"{ASSETS}/mermaid.min.js" not in [str(s) for s in config.extra_javascript]:
                config.extra_javascript.append(f"{ASSETS}/mermaid.min.js")
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self._models.clear()  # one model per Dockerfile per build
        self._filled.clear()
        if self._docgen is not None and self.config.check_outputs:
            self._check_outputs(self._docgen)

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        """A page listed in `pages` that this site lacks, while it has others of the list: likely a
        typo, which would leave the page unfilled; a warning (an error with `mkdocs build --strict`).
        A site with none of the listed pages is another site sharing the configuration: not checked."""
        docgen = self._docgen
        if docgen is None:
            return files
        self._add_assets(files, config)
        known = {f.src_uri for f in files.documentation_pages()}
        listed = [(image, page) for image in docgen.images for page in image.pages]
        if any(page in known for _, page in listed):
            for image, page in listed:
                if page not in known:
                    where = docgen.source + (f":{image.pages_line}" if image.pages_line else "")
                    log.warning(
                        f"{where}: pages = {page!r} is not a page of this site "
                        f"(pages are paths relative to docs_dir, {config.docs_dir})"
                    )
        self._plan_image_pages(docgen, known, config)
        self._add_source_pages(files, config, docgen, known)
        self._add_image_pages(files, config, docgen)
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if "docgen:" not in markdown or page.file.src_uri in self._source_pages:
            return markdown
        docgen = self._docgen
        assert docgen is not None, "on_config runs before on_page_markdown"
        source = page.file.abs_src_path
        offset = _front_matter_lines(page, markdown)
        if page.file.src_uri == self._index_uri:
            # the index of the images (generated or the site's own): its `images` and `matrix` blocks
            # cover every image the site shows, in config order
            shown = self._shown(Path(source)) if source else page.file.src_uri
            images: tuple[ImageConfig, ...] = tuple(image for image, _ in self._index_images)
        else:
            shown = self._shown(Path(source)) if source else f"{config.docs_dir}/{page.file.src_uri}"
            try:
                images = self._images_for(page, docgen, shown)
            except DocgenError as exc:  # its line is already one of the whole file (the front matter)
                raise PluginError(str(exc)) from None
            except OSError as exc:  # a path too long, a symlink loop … (see `docgen.files.os_error`)
                raise PluginError(f"{shown}: {FRONT_MATTER_KEY}: {os_error(exc).message}") from None
        try:
            if not images:
                blocks = markers.find_blocks(markdown, shown, known=SECTIONS)
                if not blocks:
                    return markdown
                raise MarkerError(
                    f"block docgen:{blocks[0].name} but no Dockerfile for this page: list "
                    f"{page.file.src_uri!r} in `pages` of a [[tool.docgen.images]] entry in {docgen.source}, "
                    f"or set `{FRONT_MATTER_KEY}: path/to/Dockerfile` in the page's front matter",
                    shown,
                    blocks[0].begin_line,
                )
            uri = page.file.src_uri
            filled = fill_document(
                markdown,
                shown,
                [
                    member(image, self._model(image), docgen, None, lambda i: self._dockerfile_link(i, uri))
                    for image in images
                ],
            )[0]
        except DocgenError as exc:
            if exc.path == shown and exc.line:
                exc.line += offset  # the front matter is not part of `markdown`
            raise PluginError(str(exc)) from None
        except OSError as exc:
            raise PluginError(str(os_error(exc))) from None
        log.debug("filled %s from %s", shown, ", ".join(image.display for image in images))
        self._filled.add(page.file.src_uri)
        return filled

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        if page.file.src_uri not in self._filled:
            return html
        decorated = site.decorate_blocks(html)
        if page.present_anchor_ids is not None:  # links to `#build-arg-…` are checked like any anchor
            page.present_anchor_ids.update(site.ANCHORS.findall(decorated))
        return decorated

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer | None:
        self._server = server
        self._watch()
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self._server is not None:
            self._watch()  # Dockerfiles named for the first time in this build

    # ----------------------------------------------------------------------------------------------

    def _repository_link(self, image: ImageConfig) -> str | None:
        """The Dockerfile's URL in the hosted repository, when `repo_url` says where that is."""
        if not self._repo_url or self.config.line_links == "site":
            return None
        return f"{self._repo_url}/blob/{quote(self.config.branch)}/{quote(image.display)}"

    def _dockerfile_link(self, image: ImageConfig, page_uri: str) -> str | None:
        """What line cells of `page_uri` link to (plus `#L<n>`): the repository's file, else the
        Dockerfile page of this site, else nothing (a Dockerfile named only by front matter)."""
        repository = self._repository_link(image)
        if repository is not None:
            return repository
        target = site.page_uri(image.display)
        if target not in self._source_pages:
            return None
        return quote(posixpath.relpath(target, posixpath.dirname(page_uri) or "."))

    def _add_assets(self, files: Files, config: MkDocsConfig) -> None:
        """The stylesheet, and the local Mermaid script when `mermaid_js` names one."""
        css = site.STYLESHEET.read_text(encoding="utf-8")
        files.append(File.generated(config, f"{ASSETS}/docgen.css", content=css))
        if self.config.mermaid_js is not None:
            script = str(self._site_root / self.config.mermaid_js)
            files.append(File.generated(config, f"{ASSETS}/mermaid.min.js", abs_src_path=script))

    def _add_source_pages(self, files: Files, config: MkDocsConfig, docgen: Config, known: set[str]) -> None:
        """A page per configured Dockerfile that a page of this site shows (see `site.dockerfile_page`)."""
        self._source_pages.clear()
        for image in docgen.images:
            if not any(page in known for page in image.pages) and image not in self._image_pages.values():
                continue
            uri = site.page_uri(image.display)
            if uri in known or uri in self._source_pages:
                continue
            try:
                text = image.dockerfile.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue  # the page that shows the image reports the unreadable Dockerfile
            content = site.dockerfile_page(text, image.display, self._repository_link(image))
            files.append(File.generated(config, uri, content=content, inclusion=InclusionLevel.NOT_IN_NAV))
            self._source_pages[uri] = image

    def _plan_image_pages(self, docgen: Config, known: set[str], config: MkDocsConfig) -> None:
        """Which image pages to generate (`images/NAME.md` for each image with no `pages` and no page of
        the site at `images/NAME.md` or `images/NAME/index.md`, which is then its page), which page is
        the index of the images (generated unless the site has one), and what it lists."""
        self._image_pages.clear()
        self._generated.clear()
        self._index_uri = None
        self._index_images = []
        if not self.config.image_pages or not docgen.images:
            return
        listed = {page for image in docgen.images for page in image.pages}
        taken = known | listed | {site.INDEX_URI}
        for image in docgen.images:
            own = next(
                (uri for uri in site.hand_written_uris(image.name) if uri in known and uri != site.INDEX_URI),
                None,
            )
            if own is not None and not image.pages and own not in listed and own not in self._image_pages:
                self._image_pages[own] = image  # the site's own page for the image, filled from it
            elif own is None and not image.pages:
                uri = site.image_page_uri(image.name)
                if uri is None or uri in taken:
                    log.warning(
                        f"{docgen.source} ({image.display}): no page generated for image {image.name!r}: "
                        + ("another image or page has its path " + uri if uri else "its name is no file name")
                        + '; give it a name = "…" of its own'
                    )
                else:
                    self._image_pages[uri] = image
                    self._generated.add(uri)
                    taken.add(uri)
                    own = uri
            if own is None:
                own = next((page for page in image.pages if page in known), None)
            self._index_images.append((image, own))
        if not any(own for _, own in self._index_images):
            return  # none of the images is shown by this site: another site sharing the config
        if site.INDEX_URI not in listed:
            self._index_uri = site.INDEX_URI
        if config.nav is not None:
            pages = [site.INDEX_URI] if self._index_uri else []
            pages += [own for _, own in self._index_images if own is not None]
            config.nav = site.images_nav(config.nav, list(dict.fromkeys(pages)))

    def _add_image_pages(self, files: Files, config: MkDocsConfig, docgen: Config) -> None:
        """The generated image pages and index the plan chose, their Markdown from the templates
        `image-page.md.j2` and `images-index.md.j2` (a user's templates win); their blocks are filled
        later, as those of any page."""
        known = {f.src_uri for f in files.documentation_pages()}
        try:
            for uri, image in self._image_pages.items():
                if uri not in self._generated:
                    continue
                context: dict[str, object] = {
                    "name": image.name,
                    "dockerfile": image.display,
                    "dockerfile_link": self._dockerfile_link(image, uri),
                    "index_link": site.relative_link(site.INDEX_URI, uri) if self._index_uri else None,
                }
                content = render_page("image-page.md.j2", context, docgen.templates, docgen.root)
                files.append(File.generated(config, uri, content=content))
            if self._index_uri is not None and self._index_uri not in known:
                context = {"images": self._index_entries(self._index_uri)}
                content = render_page("images-index.md.j2", context, docgen.templates, docgen.root)
                files.append(File.generated(config, self._index_uri, content=content))
        except DocgenError as exc:
            raise PluginError(str(exc)) from None

    def _index_entries(self, from_uri: str) -> list[dict[str, str | None]]:
        """The images the index lists: name, Dockerfile, and link to its page from `from_uri`."""
        return [
            {
                "name": image.name,
                "dockerfile": image.display,
                "link": site.relative_link(own, from_uri) if own else None,
            }
            for image, own in self._index_images
        ]

    def _check_outputs(self, docgen: Config) -> None:
        """Warn for each `outputs` file whose blocks differ from what `docgen sync` would write now."""
        for output, images in by_document(docgen.images).items():
            shown = self._shown(output)
            try:
                text = output.read_text(encoding="utf-8")
                members = [member(image, self._model(image), docgen, output) for image in images]
                filled = fill_document(text, shown, members)
            except (DocgenError, OSError, UnicodeDecodeError):
                continue  # `docgen check` reports these; the site's own pages fail on their own errors
            if filled[0] != text:
                names = ", ".join(
                    b.key for b in filled[1] if filled[2].get(b.key) != text[b.body_start : b.body_end]
                )
                log.warning(
                    f"{shown} is out of date with {', '.join(dict.fromkeys(i.display for i in images))} "
                    f"(blocks: {names}): run `docgen sync` (`docgen check` shows the difference)"
                )

    def _shown(self, path: Path) -> str:
        """`path` as shown in messages: relative to the folder of mkdocs.yml when it is below it."""
        try:
            return path.resolve().relative_to(self._site_root).as_posix()
        except ValueError:
            return str(path)

    def _images_for(self, page: Page, docgen: Config, shown: str) -> tuple[ImageConfig, ...]:
        """The page's images: its front matter's Dockerfile, else the config's entries listing the page
        (or the entry the page was generated for)."""
        value = page.meta.get(FRONT_MATTER_KEY)
        if value is None and page.file.src_uri in self._image_pages:
            return (self._image_pages[page.file.src_uri],)
        raw = _raw_content(page)
        line = next(
            (
                n
                for n, text in enumerate(raw.splitlines()[:200], 1)
                if text.startswith(FRONT_MATTER_KEY + ":")
            ),
            1,
        )
        if value is None:
            closing = raw.find("\n---\n", 3) if raw.startswith("---\n") else -1
            if closing > 0 and not page.meta and f"\n{FRONT_MATTER_KEY}:" in raw[:closing]:
                raise DocgenError(
                    f"the front matter is not valid YAML (MkDocs ignored it), "
                    f"so {FRONT_MATTER_KEY} was not read",
                    shown,
                    1,
                )
            return docgen.images_for_page(page.file.src_uri)
        if not isinstance(value, str):
            raise DocgenError(f"front matter {FRONT_MATTER_KEY} must be a path (a string)", shown, line)
        dockerfile = resolve_path(self._site_root, value, FRONT_MATTER_KEY, shown)
        if not dockerfile.is_file():
            raise DocgenError(f"{FRONT_MATTER_KEY}: Dockerfile {value!r} not found", shown, line)
        for image in docgen.images:
            if image.dockerfile == dockerfile:
                return (image,)
        try:
            display = dockerfile.relative_to(docgen.root.resolve()).as_posix()
        except ValueError:
            display = self._shown(dockerfile)
        return (ImageConfig(dockerfile=dockerfile, display=display, pages=(page.file.src_uri,)),)

    def _model(self, image: ImageConfig) -> ImageModel:
        self._seen.add(image.dockerfile)
        try:
            stat = image.dockerfile.stat()
        except OSError:
            return _read(image)  # the reader's own error
        key = (
            str(image.dockerfile),
            stat.st_mtime_ns,
            stat.st_size,
            tuple(sorted(image.args.items())),
            image.target,
        )
        model = self._models.get(key)
        if model is None:
            model = self._models[key] = _read(image)
            for warning in model.warnings:
                log.info("%s", warning)
        return model

    def _watch(self) -> None:
        """Watch the config (and the bake files it reads), the template folder, every Dockerfile and
        every `outputs` file (each path once)."""
        if self._server is None or self._docgen is None:
            return
        paths: set[Path] = {image.dockerfile for image in self._docgen.images} | self._seen
        if self.config.check_outputs:  # a `docgen sync` clears the stale-README warning at once
            paths |= {output for image in self._docgen.images for output in image.outputs}
        if self._pyproject is not None:
            paths.add(self._pyproject.resolve())
        paths |= {self._docgen.root / path for path, _ in self._docgen.inputs}  # bake files
        if self._docgen.templates is not None:
            paths.add(self._docgen.templates)
        for path in sorted(str(p) for p in paths):
            if path not in self._watched and os.path.exists(path):
                self._server.watch(path)
                self._watched.add(path)
                log.debug("watching %s", path)


def _raw_content(page: Page) -> str:
    """The page's file as written, front matter included ('' when it cannot be read)."""
    try:
        return page.file.content_string
    except (OSError, UnicodeDecodeError, TypeError):
        return ""


def _front_matter_lines(page: Page, markdown: str) -> int:
    """How many lines of the page's source come before `markdown` (its front matter)."""
    raw = _raw_content(page)
    if markdown and raw.endswith(markdown):
        return raw[: len(raw) - len(markdown)].count("\n")
    return 0
