"""The built site in a real browser: headless Chromium, driven through chromedriver, on 127.0.0.1.

The ROCm page must show the generated tables with the README's rows, and a page generated from a
hostile Dockerfile (`tests/data/site/Dockerfile.xss`) must show its HTML and script text literally and
run nothing. At 1400 and 390 CSS pixels wide, light and dark: no generated table is wider than its
column, no code span in a table is cut inside a word (1400), every `#L` link lands on a line of the
Dockerfile page, and the stage diagram is drawn; the same for a page the plugin generates for an image
without a page of its own. Screenshots are saved to `artifacts/` (gitignored, or
`$DOCGEN_ARTIFACTS`) for a person to look at.

Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian: `apt-get install chromium
chromium-driver`); skipped with that reason when they are missing. The site is served without network,
so Mermaid is served from a local copy (`plugins: docgen: mermaid_js`): `$DOCGEN_MERMAID_JS`, else the
npm package `mermaid@11` fetched once with `npm pack` into `~/.cache/docgen-tests`; without either,
only the diagram's source is checked and the drawing test is skipped with that reason.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docgen import markers

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("DOCGEN_ARTIFACTS", ROOT / "artifacts"))
MERMAID_CACHE = Path.home() / ".cache" / "docgen-tests" / "mermaid.min.js"
WIDTHS = {"desktop": (1400, 1000), "phone": (390, 844)}
CHROMIUM = os.environ.get("DOCGEN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("DOCGEN_CHROMEDRIVER", "/usr/bin/chromedriver")

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)),
    reason=f"needs {CHROMIUM} and {CHROMEDRIVER} (Debian: apt-get install chromium chromium-driver)",
)


def build(mkdocs_yml: Path, site: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(mkdocs_yml), "-d", str(site)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return site


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def mermaid_js() -> Path | None:
    """A local mermaid.min.js (see the module docstring), or None when none can be had."""
    given = os.environ.get("DOCGEN_MERMAID_JS")
    if given:
        return Path(given)
    if MERMAID_CACHE.is_file():
        return MERMAID_CACHE
    npm = shutil.which("npm")
    if npm is None:
        return None
    MERMAID_CACHE.parent.mkdir(parents=True, exist_ok=True)
    folder = MERMAID_CACHE.parent
    result = subprocess.run(
        [npm, "pack", "mermaid@11", "--silent", "--pack-destination", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    packed = folder / result.stdout.strip().splitlines()[-1] if result.stdout.strip() else None
    if result.returncode != 0 or packed is None or not packed.is_file():
        return None
    with tarfile.open(packed) as tar:
        member = tar.extractfile("package/dist/mermaid.min.js")
        if member is None:
            return None
        MERMAID_CACHE.write_bytes(member.read())
    packed.unlink()
    return MERMAID_CACHE


def site_config(folder: Path, mermaid: Path | None) -> Path:
    """A mkdocs.yml building the project's site (INHERIT) with Mermaid served from `mermaid`."""
    docgen = {"config": str(ROOT / "pyproject.toml")}
    if mermaid is not None:
        docgen["mermaid_js"] = str(mermaid)
    plugin = ", ".join(f"{key}: {value!r}" for key, value in docgen.items())
    path = folder / "mkdocs.yml"
    path.write_text(
        f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {ROOT / 'docs'}\nplugins:\n  - search\n"
        f"  - docgen: {{{plugin}}}\n",
        encoding="utf-8",
    )
    return path


def generated_site(folder: Path, mermaid: Path | None) -> Path:
    """A project whose two images have no page of their own, so the plugin generates `images/rocm/`
    (from a copy of the project's ROCm Dockerfile: long sources, many rows) and `images/small/`;
    returns its mkdocs.yml."""
    (folder / "docker" / "rocm").mkdir(parents=True)
    shutil.copy(ROOT / "docker" / "rocm" / "Dockerfile.rocm", folder / "docker" / "rocm" / "Dockerfile")
    (folder / "docker" / "small").mkdir()
    (folder / "docker" / "small" / "Dockerfile").write_text(
        "FROM python:3.12-slim\n# EXTRA_INDEX Where pip finds the wheels.\n"
        "ARG EXTRA_INDEX=https://download.pytorch.org/whl/cpu\nRUN pip install torch==2.5.1\n",
        encoding="utf-8",
    )
    (folder / "pyproject.toml").write_text(
        '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "docker/*/Dockerfile"\n', encoding="utf-8"
    )
    (folder / "docs").mkdir()
    (folder / "docs" / "index.md").write_text("# Images built here\n", encoding="utf-8")
    plugin = f"  - docgen: {{mermaid_js: {str(mermaid)!r}}}\n" if mermaid else "  - docgen\n"
    (folder / "mkdocs.yml").write_text(
        "site_name: generated\ntheme: {name: material}\nplugins:\n  - search\n"
        + plugin
        + "markdown_extensions:\n  - tables\n  - pymdownx.superfences:\n      custom_fences:\n"
        "        - name: mermaid\n          class: mermaid\n"
        "          format: !!python/name:pymdownx.superfences.fence_code_format\n"
        "validation:\n  links: {not_found: warn, anchors: warn}\n",
        encoding="utf-8",
    )
    return folder / "mkdocs.yml"


@pytest.fixture(scope="module")
def mermaid() -> Path | None:
    return mermaid_js()


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory, mermaid: Path | None) -> Iterator[str]:
    """The real site, the XSS fixture site and a site of generated image pages, built and served on
    127.0.0.1; yields the base URL."""
    root = tmp_path_factory.mktemp("served")
    build(site_config(tmp_path_factory.mktemp("config"), mermaid), root / "site")
    build(ROOT / "tests" / "data" / "site" / "mkdocs.yml", root / "xss")
    build(generated_site(tmp_path_factory.mktemp("generated"), mermaid), root / "generated")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,800",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(30)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def table_after(driver: webdriver.Chrome, heading_id: str) -> list[list[str]]:
    """The visible cell texts of the first table after the `h2` with id `heading_id`."""
    table = driver.find_element(By.XPATH, f"//h2[@id='{heading_id}']/following::table[1]")
    assert table.is_displayed()
    return [
        [cell.text for cell in row.find_elements(By.XPATH, "./th|./td")]
        for row in table.find_elements(By.TAG_NAME, "tr")
    ]


def readme_rows(block: str) -> list[str]:
    """The first column of each data row of the README's `block` table, as plain text."""
    body = markers.block_bodies((ROOT / "docker" / "rocm" / "README.md").read_text(encoding="utf-8"))[block]
    rows = [line for line in body.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    return [row.split("|")[1].strip().strip("`") for row in rows[1:]]


def screenshot(driver: webdriver.Chrome, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.set_window_size(1280, 800)
    # the window size includes the browser's own frame: add it so the whole page fits the viewport
    height = driver.execute_script(
        "return document.documentElement.scrollHeight + window.outerHeight - window.innerHeight"
    )
    driver.set_window_size(1280, min(max(int(height), 800), 8000))
    assert driver.save_screenshot(str(ARTIFACTS / name)), name


def test_rocm_page_shows_the_generated_tables(serve: str, driver: webdriver.Chrome) -> None:
    driver.get(f"{serve}/site/images/rocm/")
    assert "ROCm image" in driver.title

    args = table_after(driver, "build-arguments")
    assert args[0] == ["Build arg", "Default", "Purpose", "Declared in stages"]
    defaults = {row[0]: row[1] for row in args[1:]}
    assert defaults["GPU_ARCH"] == "gfx942;gfx950"
    assert defaults["MAX_JOBS"] == "$(nproc)"
    assert defaults["GFX_ARCH"] == "gfx942|gfx950", "the pipe is in the cell, not a column break"
    assert [row[0] for row in args[1:]] == readme_rows("build-args")

    versions = table_after(driver, "key-versions")
    assert versions[0][:2] == ["Component", "Version"]
    assert [row[0] for row in versions[1:]] == readme_rows("versions")
    assert all(row[1] for row in versions[1:]), "every Key versions row shows a version"

    hardware = table_after(driver, "supported-hardware")
    assert [row[0] for row in hardware[1:]] == ["gfx942", "gfx950"]
    screenshot(driver, "rocm-page.png")


def test_hostile_defaults_show_as_text_and_run_nothing(serve: str, driver: webdriver.Chrome) -> None:
    driver.get(f"{serve}/xss/")
    title = driver.title
    assert title == "docgen XSS check", "a script changed the title"
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018 - reading the alert is what raises

    args = table_after(driver, "build-arguments")
    defaults = {row[0]: row[1] for row in args[1:]}
    assert defaults["IMG_TAG"] == "<img src=x onerror=alert(1)>"
    assert defaults["SCRIPT_TAG"] == "<script>document.title='pwned'</script> | not a new cell"
    assert defaults["GPU_ARCH"] == "gfx942;<img src=x onerror=alert(1)>"
    assert all(len(row) == 4 for row in args), "a | in a value must not add a column"
    purposes = {row[0]: row[2] for row in args[1:]}
    assert purposes["IMG_TAG"] == "An image tag <img src=x onerror=alert(1)> that should stay text."

    article = driver.find_element(By.TAG_NAME, "article")
    assert article.find_elements(By.CSS_SELECTOR, "img[src='x'], img[onerror]") == []
    assert article.find_elements(By.TAG_NAME, "script") == []
    assert driver.execute_script("return document.title") == title != "pwned"
    screenshot(driver, "xss-page.png")
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018


# --------------------------------------------------------------------------------------------------
# Layout at a desktop and a phone width, light and dark


def view(driver: webdriver.Chrome, url: str, width: int, height: int, scheme: str) -> None:
    """Load `url` in a `width`×`height` CSS-pixel viewport preferring the `scheme` colour scheme."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    driver.get(url)
    # Material keeps the palette last used in localStorage, which would win over the media query
    if driver.execute_script("const kept = localStorage.length; localStorage.clear(); return kept"):
        driver.get(url)
    driver.execute_script("return document.fonts.ready")


def full_screenshot(driver: webdriver.Chrome, name: str, width: int) -> None:
    """The whole page (up to 10,000 px tall) at `width`, saved as `name` in the artifacts folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": min(height, 10_000), "deviceScaleFactor": 1, "mobile": width < 600},
    )
    assert driver.save_screenshot(str(ARTIFACTS / name)), name


# Each generated table against the column it is in: [table width, column width, block name, text].
TABLE_WIDTHS = """
return [...document.querySelectorAll('.docgen table')].map(t => {
  const column = t.closest('.md-content__inner') || t.closest('article');
  const style = getComputedStyle(column);
  const inner = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [t.getBoundingClientRect().width, inner, t.closest('.docgen').className,
          t.innerText.slice(0, 40)];
});
"""

# Each place a code span in a generated table wraps between two letters or digits: [code text, where].
CUT_WORDS = """
const cuts = [];
for (const code of document.querySelectorAll('.docgen td code')) {
  const text = code.textContent;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect) chars.push([node.data[i], rect.top]);
    }
  }
  for (let i = 1; i < chars.length; i++) {
    const [a, top0] = chars[i - 1], [b, top1] = chars[i];
    if (top1 > top0 + 2 && /[A-Za-z0-9]/.test(a) && /[A-Za-z0-9]/.test(b)) {
      cuts.push([text, a + '|' + b]);
    }
  }
}
return cuts;
"""


def check_tables_fit(driver: webdriver.Chrome, device: str, width: int) -> None:
    """The six tables of the ROCm image page open in `driver` fit its column; on the desktop no code
    is cut inside a word."""
    tables = driver.execute_script(TABLE_WIDTHS)
    assert len(tables) == 6, "hardware, versions, three contents tables and build args"
    too_wide = [t for t in tables if t[0] > t[1] + 0.5]
    assert too_wide == [], f"tables wider than the {tables[0][1]:.0f} px column at {width} px"
    if device == "desktop":
        assert driver.execute_script(CUT_WORDS) == [], "code cut inside a word"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", sorted(WIDTHS))
def test_generated_tables_fit_their_column(
    serve: str, driver: webdriver.Chrome, device: str, scheme: str
) -> None:
    width, height = WIDTHS[device]
    view(driver, f"{serve}/site/images/rocm/", width, height, scheme)
    check_tables_fit(driver, device, width)
    if device != "desktop":
        header = driver.find_element(By.CSS_SELECTOR, ".docgen-versions thead")
        assert not header.is_displayed(), "rows are stacked as label/value pairs"
        cell = driver.find_element(By.CSS_SELECTOR, ".docgen-versions tbody td[data-label='Version']")
        label = driver.execute_script("return getComputedStyle(arguments[0], '::before').content", cell)
        assert label == '"Version"'
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(255, 255, 255)") == (scheme == "light"), background
    full_screenshot(driver, f"rocm-{device}-{scheme}.png", width)


def test_home_page_code_is_not_cut_inside_words(serve: str, driver: webdriver.Chrome) -> None:
    view(driver, f"{serve}/site/", 1400, 1000, "light")
    codes = driver.execute_script(
        "return [...document.querySelectorAll('article td code')].map(c => c.textContent)"
    )
    cuts = driver.execute_script(CUT_WORDS.replace(".docgen td code", "article td code"))
    assert cuts == [], f"of {len(codes)} code spans in tables"


def lines_shown(driver: webdriver.Chrome, page: str, numbers: list[int]) -> list[str | None]:
    """Open `page` and give the text of its element `L<n>` for each of `numbers` (None where it has none)."""
    driver.get(page)
    shown: list[str | None] = driver.execute_script(
        "return arguments[0].map(n => { const e = document.getElementById('L' + n);"
        " return e ? e.textContent : null; })",
        numbers,
    )
    return shown


def test_every_line_link_lands_on_its_line(serve: str, driver: webdriver.Chrome) -> None:
    view(driver, f"{serve}/site/images/rocm/", 1400, 1000, "light")
    links = driver.execute_script(
        "return [...document.querySelectorAll('a[href*=\"#L\"]')].map(a => [a.textContent, a.href])"
    )
    unlinked = driver.execute_script(
        "return [...document.querySelectorAll('.docgen td[data-label=\"Line\"]')]"
        ".filter(td => td.textContent.trim() && !td.querySelector('a[href*=\"#L\"]')).length"
    )
    lines = driver.execute_script(
        "return document.querySelectorAll('.docgen td[data-label=\"Line\"]').length"
    )
    assert lines > 20 and unlinked == 0, "every Line cell links to its line"
    assert len(links) > lines, "and the hardware section's line"
    for text, href in links:
        assert re.fullmatch(r"L\d+", text) and href.endswith("#" + text), (text, href)
    dockerfile = (ROOT / "docker" / "rocm" / "Dockerfile.rocm").read_text(encoding="utf-8").splitlines()
    for page in sorted({href.split("#", 1)[0] for _, href in links}):
        wanted = sorted({int(href.rsplit("#L", 1)[1]) for _, href in links if href.startswith(page + "#")})
        shown = lines_shown(driver, page, wanted)
        for number, text in zip(wanted, shown, strict=True):
            assert text is not None, f"{page}#L{number} is not on the page"
            assert text.rstrip("\n") == dockerfile[number - 1], f"line {number} shows another line"
    # the browser follows one: the line is scrolled into view and marked
    view(driver, f"{serve}/site/images/rocm/", 1400, 1000, "light")
    driver.find_element(By.XPATH, "//h2[@id='key-versions']/following::a[text()='L118'][1]").click()
    target = driver.find_element(By.ID, "L118")
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight",
        target,
    )
    assert "torch" in target.text
    full_screenshot(driver, "rocm-dockerfile-page.png", 1400)


def test_stage_diagram_source(serve: str) -> None:
    """The page as served carries the Mermaid source of the stages (drawn by Material or GitHub)."""
    with urllib.request.urlopen(f"{serve}/site/images/rocm/") as response:
        html = response.read().decode("utf-8")
    source = re.search(r'<pre class="mermaid"><code>(.*?)</code></pre>', html, re.S)
    assert source is not None
    text = source.group(1)
    assert text.startswith("flowchart TD")
    assert 's1["rocm_deb"]' in text and "s0 ==&gt; s1" in text


def test_stage_diagram_is_drawn(serve: str, driver: webdriver.Chrome, mermaid: Path | None) -> None:
    if mermaid is None:
        pytest.skip("no local mermaid.min.js ($DOCGEN_MERMAID_JS, or npm to fetch mermaid@11)")
    view(driver, f"{serve}/site/images/rocm/", 1400, 1000, "light")
    driver.set_script_timeout(30)
    size = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const start = Date.now();
        (function poll() {
          const drawn = document.querySelector('div.mermaid');
          if (drawn && !document.querySelector('pre.mermaid') && drawn.getBoundingClientRect().height > 100) {
            const r = drawn.getBoundingClientRect();
            drawn.scrollIntoView();
            return done([r.width, r.height]);
          }
          if (Date.now() - start > 25000) return done(null);
          setTimeout(poll, 100);
        })();
        """
    )
    assert size is not None, "Mermaid did not replace the diagram's source with a drawing"
    driver.save_screenshot(str(ARTIFACTS / "rocm-stages.png"))


def test_summary_build_arg_anchor_and_build_command(serve: str, driver: webdriver.Chrome) -> None:
    view(driver, f"{serve}/site/images/rocm/", 1400, 1000, "light")
    summary = driver.find_element(By.CSS_SELECTOR, ".docgen-summary").text
    assert summary.startswith("ROCm 7.0.2 · PyTorch 2.9.1.dev20251204 · vLLM 1ff9d3353 · Python 3.12")
    assert summary.endswith("GPU targets gfx942, gfx950")
    driver.get(f"{serve}/site/images/rocm/#build-arg-gpu_arch")
    row = driver.find_element(By.ID, "build-arg-gpu_arch")
    assert row.tag_name == "tr" and row.text.startswith("GPU_ARCH")
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", row
    ), "the row is scrolled into view"
    command = driver.find_element(By.CSS_SELECTOR, ".docgen-build-args pre code").text
    assert command.startswith("docker build -f docker/rocm/Dockerfile.rocm \\\n")
    assert "--build-arg 'GPU_ARCH=gfx942;gfx950' \\\n" in command


DOCS_PAGES = sorted(
    p.relative_to(ROOT / "docs").with_suffix("").as_posix() for p in (ROOT / "docs").rglob("*.md")
)


def test_code_blocks_fit_their_column_and_leave_room_for_the_copy_button(
    serve: str, driver: webdriver.Chrome
) -> None:
    problems = []
    for page in DOCS_PAGES:
        path = "" if page == "index" else page + "/"
        view(driver, f"{serve}/site/{path}", 1400, 1000, "light")
        problems += driver.execute_script(
            """
            return [...document.querySelectorAll('article pre > code')].flatMap(code => {
              const wide = code.scrollWidth > code.clientWidth + 1;
              const pad = parseFloat(getComputedStyle(code).paddingRight);
              const button = code.parentElement.querySelector('.md-clipboard');
              const covered = button && pad < button.getBoundingClientRect().width;
              const where = [location.pathname, code.textContent.slice(0, 40), wide, covered];
              return wide || covered ? [where] : [];
            });
            """
        )
    assert problems == []


@pytest.mark.parametrize("device", sorted(WIDTHS))
def test_a_generated_image_page_fits_and_its_line_links_land(
    serve: str, driver: webdriver.Chrome, device: str
) -> None:
    width, height = WIDTHS[device]
    view(driver, f"{serve}/generated/images/rocm/", width, height, "light")
    assert driver.find_element(By.TAG_NAME, "h1").text == "rocm"
    check_tables_fit(driver, device, width)
    full_screenshot(driver, f"generated-{device}.png", width)
    links = driver.execute_script(
        "return [...document.querySelectorAll('a[href*=\"#L\"]')].map(a => [a.textContent, a.href])"
    )
    assert len(links) > 20
    dockerfile = (ROOT / "docker" / "rocm" / "Dockerfile.rocm").read_text(encoding="utf-8").splitlines()
    pages = sorted({href.split("#", 1)[0] for _, href in links})
    assert pages == [f"{serve}/generated/dockerfiles/docker/rocm/Dockerfile/"]
    wanted = sorted({int(href.rsplit("#L", 1)[1]) for _, href in links})
    shown = lines_shown(driver, pages[0], wanted)
    for number, text in zip(wanted, shown, strict=True):
        assert text is not None, f"#L{number} is not on the Dockerfile page"
        assert text.rstrip("\n") == dockerfile[number - 1], f"line {number} shows another line"
    view(driver, f"{serve}/generated/images/", width, height, "light")
    names = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "article li a")]
    assert names == ["rocm", "small"]
