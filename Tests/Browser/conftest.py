"""Browser tests: the real `diffable-web` server on a free loopback port, driven by Debian's
headless Chromium through Selenium. Each test gets its own browser, hence its own session."""
import os
import socket
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRATCH = ROOT / ".tmp" / "browser"
SCRATCH.mkdir(parents=True, exist_ok=True)
# Every Chromium launch leaves a profile folder in TMPDIR: keep them out of /tmp.
os.environ["TMPDIR"] = str(SCRATCH)

from selenium import webdriver  # noqa: E402  (after TMPDIR, which Chromium inherits)
from selenium.common.exceptions import NoAlertPresentException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

BINARY = Path(os.environ.get("DIFFABLE_WEB_BINARY", ROOT / ".build" / "debug" / "diffable-web"))
# Screenshots the tests take land in the build folder, never over tracked files;
# `make screenshots` (scripts/screenshots) refreshes docs/screenshots on purpose.
SCREENSHOTS = Path(os.environ.get("DIFFABLE_WEB_SCREENSHOTS", ROOT / ".build" / "screenshots"))
WINDOW = (1024, 768)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_state_directory():
    state = SCRATCH / "state"
    shutil.rmtree(state, ignore_errors=True)
    return state


@pytest.fixture(scope="session")
def server():
    """The base URL of a running server (started once for the whole run, with test hooks)."""
    assert BINARY.exists(), f"{BINARY} is missing: run `swift build --product diffable-web` first"
    port = free_port()
    log = open(SCRATCH / "server.log", "wb")
    process = subprocess.Popen(
        # Every test client is one address (127.0.0.1): no per-address cap (see README, Limits).
        # A fresh store per run: the tests exercise the saving path too.
        [str(BINARY), "--host", "127.0.0.1", "--port", str(port), "--test-hooks", "--connections-per-address", "0",
         "--state-dir", str(fresh_state_directory())],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}; see {SCRATCH / 'server.log'}")
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the server did not answer GET / within 60 s")
        time.sleep(0.1)
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


def make_driver(javascript=True, network_log=False):
    """A headless Chromium; with `network_log`, its DevTools network events are kept for
    `driver.get_log("performance")` (request and response headers)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", **({"performance": "ALL"} if network_log else {})})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class SharedBrowser:
    """One Chromium for every test that asks for the plain `driver`, made new for each test in
    every way a test can see: a new tab (the old ones closed, with their streams, emulations and
    scripts to run on new documents), no cookies (a new session), no cache, no storage for the
    server's origin, no network conditions, the default window size and an empty console log.
    Starting a Chromium took about a second a test, a third of the browser tests' time; a reset
    takes under a tenth. A browser that cannot be reset (it crashed, a dialog will not close)
    is replaced by a new one."""

    def __init__(self):
        self.browser = None

    def fresh(self, server):
        if self.browser is not None:
            try:
                self._reset(server)
                return self.browser
            except Exception:  # noqa: BLE001 (whatever broke it, a new browser is the answer)
                self.quit()
        self.browser = make_driver()
        return self.browser

    def _reset(self, server):
        browser = self.browser
        try:
            browser.switch_to.alert.dismiss()
        except NoAlertPresentException:
            pass
        old = browser.window_handles
        browser.switch_to.new_window("tab")
        fresh = browser.current_window_handle
        for handle in old:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(fresh)
        try:
            browser.delete_network_conditions()
        except WebDriverException:
            pass  # none were set
        browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
        browser.execute_cdp_cmd("Network.clearBrowserCache", {})
        browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": server, "storageTypes": "all"})
        browser.set_window_size(*WINDOW)
        browser.get_log("browser")  # drained: a test reads only its own console

    def quit(self):
        if self.browser is not None:
            try:
                self.browser.quit()
            except WebDriverException:
                pass
            self.browser = None


@pytest.fixture(scope="session")
def shared_browser():
    shared = SharedBrowser()
    yield shared
    shared.quit()


@pytest.fixture
def driver(shared_browser, server):
    """A browser of the test's own, as if new (``SharedBrowser``)."""
    yield shared_browser.fresh(server)


@pytest.fixture
def driver_with_network_log():
    browser = make_driver(network_log=True)
    yield browser
    browser.quit()


@pytest.fixture
def driver_without_js():
    browser = make_driver(javascript=False)
    yield browser
    browser.quit()
