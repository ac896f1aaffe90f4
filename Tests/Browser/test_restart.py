"""Sessions survive the server (issue 13): a page builds its lists through the buttons and a
script through the API, the server is killed with SIGKILL and started again on the same store
and port; the open page's stream reconnects by itself and shows the same list, a reload shows it
at the same version, and the page follows writes made after the restart."""
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By

from conftest import BINARY, ROOT, free_port
from helpers import api, session_cookie, share_id, snapshot_item_ids, wait_for_client, wait_settled, wait_until


def start(port, state):
    process = subprocess.Popen(
        [str(BINARY), "--host", "127.0.0.1", "--port", str(port), "--connections-per-address", "0",
         "--log-level", "warning", "--state-dir", state],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}")
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def model_ids(driver):
    return driver.execute_script("return window.diffableWeb.model.itemOrder()")


def test_a_killed_server_comes_back_with_the_lists_and_the_page_follows(driver):
    state = tempfile.mkdtemp(prefix="dw-browser-restart-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(port, state)
    try:
        driver.get(f"{base}/demos/numbers")
        wait_for_client(driver)
        for _ in range(3):
            driver.find_element(By.CSS_SELECTOR, 'form[data-action="append"] button').click()
        wait_until(lambda: len(model_ids(driver)) == 8, message="three appends")
        share = share_id(driver)
        status, _ = api(base, "POST", f"/api/sessions/{share}/demos/numbers/operations",
                        {"operations": [{"op": "moveItem", "item": "n8", "beforeItem": "n1"}]})
        assert status == 200
        wait_until(lambda: model_ids(driver)[:1] == ["n8"], message="the script's move on the page")
        before = model_ids(driver)
        status, snapshot = api(base, "GET", f"/api/sessions/{share}/demos/numbers/snapshot")
        version = snapshot["version"]
        cookie = session_cookie(driver)

        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        server = start(port, state)

        # The page was not reloaded: its stream reconnects (Last-Event-ID) and the list is the same.
        status, after = api(base, "GET", f"/api/sessions/{share}/demos/numbers/snapshot")
        assert status == 200 and after["version"] == version and snapshot_item_ids(after) == before
        status, _ = api(base, "POST", f"/api/sessions/{share}/demos/numbers/actions/append", {})
        assert status == 200
        wait_until(lambda: model_ids(driver) == before + ["n9"], timeout=20,
                   message="the reconnected page follows a write made after the restart")

        driver.get(f"{base}/demos/numbers")
        wait_for_client(driver)
        wait_settled(driver)
        assert session_cookie(driver) == cookie, "the same session"
        assert model_ids(driver) == before + ["n9"]
        assert driver.execute_script("return window.diffableWeb.model.version") == version + 1
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(state, ignore_errors=True)
