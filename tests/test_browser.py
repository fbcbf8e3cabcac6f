"""The built site in a real browser: headless Chromium, driven through chromedriver, on 127.0.0.1.

The ROCm page must show the generated tables with the README's rows, and a page generated from a
hostile Dockerfile (`tests/data/site/Dockerfile.xss`) must show its HTML and script text literally and
run nothing. Screenshots are saved to `artifacts/` (gitignored) for a person to look at.

Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian: `apt-get install chromium
chromium-driver`); skipped with that reason when they are missing.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docgen import markers

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
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


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real site and the XSS fixture site, built and served on 127.0.0.1; yields the base URL."""
    root = tmp_path_factory.mktemp("served")
    build(ROOT / "mkdocs.yml", root / "site")
    build(ROOT / "tests" / "data" / "site" / "mkdocs.yml", root / "xss")
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
