"""What the browser tests share: reading the server's snapshot over SSE, reading the page's
cells, waiting for the client to settle."""
import csv
import http.client
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from selenium.common.exceptions import (JavascriptException, NoSuchElementException, StaleElementReferenceException,
                                        WebDriverException)

ROOT = Path(__file__).resolve().parents[2]
MOUNTAINS_CSV = Path(os.environ.get("DIFFABLE_WEB_MOUNTAINS_CSV",
                                    ROOT / "Sources" / "DiffableWebDemos" / "Resources" / "mountains.csv"))


def mountain_names():
    with open(MOUNTAINS_CSV, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 1000, f"{MOUNTAINS_CSV} has {len(rows)} mountains"
    return [row["name"] for row in rows]


def expected_mountains(query):
    """Apple's performQuery: names containing the query, case-insensitive, sorted by name."""
    needle = query.lower()
    return sorted(name for name in mountain_names() if needle in name.lower())


def wait_until(predicate, timeout=10, interval=0.05, message="condition"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
        except (JavascriptException, NoSuchElementException, StaleElementReferenceException) as error:
            # A navigation (a no-JS form post and its redirect) can replace the document between
            # finding an element and reading it, or be under way (a document not parsed yet) when
            # the poll looks for it; the next poll reads the new document.
            last = error
        except WebDriverException as error:
            # The same race seen from ChromeDriver's side: the element was found in the old
            # document and read in the new one ("Node with given id does not belong to the
            # document", an "unknown error", not a stale reference).
            if "does not belong to the document" not in str(error):
                raise
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {message} (last: {last!r})")


def submit_and_wait_for_page(driver, element):
    """Clicks a no-JavaScript form's button and waits for the page its post redirects to: the old
    document's root goes stale, and the new one is loaded. A check made after this reads the new
    page, never the old one (whose checkboxes, say, already show what the person clicked)."""
    root = driver.find_element("tag name", "html")
    element.click()

    def replaced():
        try:
            root.tag_name
            return False
        except StaleElementReferenceException:
            return driver.execute_script("return document.readyState") == "complete"
    wait_until(replaced, timeout=15, message="the page the form's post redirects to")


def wait_for_client(driver):
    """Until the client has started and applied its first event."""
    wait_until(lambda: driver.execute_script(
        "return !!(window.diffableWeb && window.diffableWeb.stats.events > 0)"), message="the first event")


def wait_settled(driver, timeout=10):
    """Until no animation runs, the DOM has been rendered for the current scroll, and the
    server's window follows the viewport (its last report answered)."""
    def settled():
        return driver.execute_script("""
            return new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(() =>
                resolve(document.getAnimations().length === 0 &&
                        (!window.diffableWeb || window.diffableWeb.viewportSettled())))));""")
    wait_until(settled, timeout=timeout, message="animations to finish")


def open_emulated(driver, url, width, height, reduced_motion=False, script=None):
    """Opens `url` in a `width`×`height` viewport, with or without reduced motion, `script` run
    before the page's own; returns once the client has applied its first event and settled."""
    features = [{"name": "prefers-reduced-motion", "value": "reduce" if reduced_motion else "no-preference"}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    if script:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    driver.get(url)
    wait_for_client(driver)
    wait_settled(driver)


def session_cookie(driver):
    cookie = driver.get_cookie("dw_session")
    assert cookie, "no dw_session cookie"
    return cookie["value"]


def read_snapshot(base, cookie, demo, width=None, height=None, top=None, timeout=10):
    """Opens a fresh event stream with the browser's session cookie and returns the first
    `snapshot` event's data: every identifier in order, and the cells of the window at `top`
    (one screen and one above and below) with their frames."""
    parsed = urllib.parse.urlsplit(base)
    query = ""
    if width and height:
        parameters = {"width": width, "height": height}
        if top is not None:
            parameters["top"] = top
        query = "?" + urllib.parse.urlencode(parameters)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)
    try:
        connection.request("GET", f"/demos/{demo}/events{query}",
                           headers={"Cookie": f"dw_session={cookie}", "Accept": "text/event-stream"})
        response = connection.getresponse()
        assert response.status == 200, f"GET events answered {response.status}"
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        event, data = None, []
        while True:
            line = response.readline()
            assert line, "the stream ended before a snapshot event"
            line = line.decode("utf-8").rstrip("\r\n")
            if line == "":
                if event == "snapshot" and data:
                    return json.loads("\n".join(data))
                event, data = None, []
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
    finally:
        connection.close()


def post_json(base, path, body, cookie=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    if cookie:
        request.add_header("Cookie", f"dw_session={cookie}")
    with urllib.request.urlopen(request, timeout=30) as response:
        payload = response.read()
        return response.status, (json.loads(payload) if payload else None)


# The cells the page shows: live cells (`[data-id]`) of #list whose rectangle meets the
# viewport, in reading order, with their rectangle relative to the list.
VISIBLE_CELLS_JS = """
const list = document.getElementById('list');
const box = list.getBoundingClientRect();
const cells = [];
for (const el of list.querySelectorAll(':scope > .cell[data-id]')) {
  const r = el.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= window.innerHeight || r.right <= 0 || r.left >= window.innerWidth) continue;
  const name = el.querySelector('.name');
  cells.push({id: el.dataset.id, kind: el.dataset.kind, text: el.textContent.trim(),
              name: (name ? name.textContent : el.textContent).trim(),
              x: r.left - box.left, y: r.top - box.top, w: r.width, h: r.height});
}
cells.sort((a, b) => a.y - b.y || a.x - b.x);
return {cells, listTop: box.top, scrollY: window.scrollY, innerHeight: window.innerHeight, innerWidth: window.innerWidth};
"""


def visible_cells(driver):
    return driver.execute_script(VISIBLE_CELLS_JS)


def visible_items(driver):
    return [cell for cell in visible_cells(driver)["cells"] if cell["kind"] == "item"]


def snapshot_cells_in_view(snapshot, view):
    """The snapshot's cells whose frame meets the viewport described by `view`."""
    top = -view["listTop"]
    bottom = top + view["innerHeight"]
    return [cell for cell in snapshot["cells"]
            if cell["frame"]["y"] < bottom and cell["frame"]["y"] + cell["frame"]["h"] > top]


def number_of(text):
    """The first number in a Numbers cell's text ("12Item 12" → 12)."""
    match = re.search(r"\d[\d,]*", text)
    assert match, f"no number in {text!r}"
    return int(match.group().replace(",", ""))


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def client_viewport(driver):
    """The viewport the client last reported: its window on the server is laid out for it."""
    return driver.execute_script("return window.diffableWeb.reportedViewport()")


def snapshot_ids(snapshot):
    """Every item id of a `snapshot` event, in order."""
    return [item for section in snapshot["sections"] for item in section["items"]]


def share_id(driver):
    """The session's public share id, as the page's "Script this session" panel shows it (the
    panel is collapsed, so read textContent rather than the rendered text)."""
    value = driver.find_element("id", "session-id").get_attribute("textContent").strip()
    assert re.fullmatch(r"[0-9a-f]{32}", value), f"#session-id shows {value!r}"
    return value


def api(base, method, path, body=None, timeout=30):
    """One JSON API call; returns (status, parsed body) for successes and errors alike."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Accept": "application/json"})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            payload = response.read()
            return response.status, (json.loads(payload) if payload else None)
    except urllib.error.HTTPError as error:
        payload = error.read()
        return error.code, (json.loads(payload) if payload else None)


def snapshot_item_ids(snapshot):
    """The item ids of an API snapshot (GET …/snapshot), in order."""
    return [item["id"] for section in snapshot["sections"] for item in section["items"]]
