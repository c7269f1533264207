"""What the browser tests of ledgerly-web share (issue 47): the services plus ledgerly-web on a
temporary home, a headless Chromium, the screenshot folder, and the phone/desktop fit check.

Each test module imports the fixtures it uses (`from web_support import web, browser, artifacts`);
they are module-scoped, so each module gets its own home, services and browser. Needs chromium,
chromium-driver (Debian) and selenium (PyPI): deploy/install-deps.sh --python-test-deps installs
them; a module without them is skipped with the reason (`pytestmark = WEB_REQUIREMENTS`).
"""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest

from conftest import Services, base_env, binary, run_cli

selenium = pytest.importorskip("selenium", reason="selenium is not installed (deploy/install-deps.sh --python-test-deps)")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service as ChromeService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402,F401

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
WEB_REQUIREMENTS = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")

XSS = "<script>window.__xss=1</script>\"'><img src=x onerror=\"window.__xss=2\">{{ 7*7 }}"


class Web:
    """The four services plus ledgerly-web on one home, and how to reach it."""

    def __init__(self, home: Path):
        self.home = home
        self.services = Services(home)
        self.proc: subprocess.Popen | None = None
        self.base = ""

    def start(self) -> None:
        self.services.start()
        self.services.wait_ready()
        log = open(self.home.parent / f"{self.home.name}.ledgerly-web.log", "wb")
        self.proc = subprocess.Popen([binary("ledgerly-web"), "--home", str(self.home), "--listen", "127.0.0.1:0"],
                                     env=base_env(self.home), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        address = self.home / "run" / "web.address"
        end = time.monotonic() + 20
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"ledgerly-web exited with {self.proc.returncode}"
            if address.exists():
                self.base = address.read_text().splitlines()[0]
                return
            time.sleep(0.05)
        raise RuntimeError("ledgerly-web did not write run/web.address")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.services.stop()

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return run_cli(self.home, *args)

    def sign_in_link(self) -> str:
        result = self.cli("web", "open")
        assert result.returncode == 0, result.stderr
        link = result.stdout.splitlines()[0]
        assert link.startswith(self.base + "/signin?token=")
        return link

    def request(self, method: str, path: str, body: dict | None = None, cookie: str | None = None):
        """One plain HTTP request (no redirects followed): status, headers, text."""
        parsed = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
        headers = {}
        data = None
        if cookie:
            headers["Cookie"] = cookie
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def session_cookie(self) -> str:
        """A session of its own (not the browser's), as a Cookie header value."""
        path = urllib.parse.urlsplit(self.sign_in_link())
        status, headers, _ = self.request("GET", f"{path.path}?{path.query}")
        assert status == 303
        return headers["set-cookie"].split(";")[0]


def submit(browser, form_action: str) -> None:
    """Clicks the form's submit button and waits until the next page has replaced this one."""
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, f"form[action='{form_action}'] button[type=submit]").click()
    WebDriverWait(browser, 10).until(expected_conditions.staleness_of(page))


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    import tempfile
    home = Path(tempfile.mkdtemp(prefix="lw", dir="/tmp"))
    web = Web(home)
    try:
        web.start()
        yield web
    finally:
        web.stop()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=ChromeService(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(15)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    folder = Path(os.environ["LEDGERLY_ARTIFACTS"]) / "web" if os.environ.get("LEDGERLY_ARTIFACTS") else tmp_path_factory.mktemp("web-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder



def fit_phone_and_desktop(web: Web, browser, artifacts: Path, pages: dict[str, str]) -> list[str]:
    """Opens each page (name -> path) at 360x800 and 1280x800, keeps a screenshot of each as
    NAME-WIDTH.png, and returns the pages wider than 360 px at 360 (empty when all fit)."""
    overflowing = []
    for width in (360, 1280):
        browser.set_window_size(width, 800)
        # The viewport, not the window, must be `width` wide: correct for the window's frame.
        inner = browser.execute_script("return window.innerWidth")
        browser.set_window_size(width + (width - inner), 800)
        for name, path in pages.items():
            browser.get(web.base + path)
            browser.save_screenshot(str(artifacts / f"{name}-{width}.png"))
            scroll = browser.execute_script("return document.documentElement.scrollWidth")
            if width == 360 and scroll > 360:
                overflowing.append(f"{path}: {scroll}px")
    browser.set_window_size(1280, 800)
    return overflowing
