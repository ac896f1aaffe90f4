"""Numbers: Append, Remove last and Remove center change a numbered list with animation."""
import re
import time

from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import (api, client_viewport, console_errors, number_of, post_json, read_snapshot, session_cookie, share_id, snapshot_ids,
                     snapshot_cells_in_view, visible_cells, wait_for_client, wait_settled, wait_until)

BUTTONS = {"append": "Append", "removeLast": "Remove last", "removeCenter": "Remove center"}


def open_numbers(driver, server):
    driver.get(f"{server}/demos/numbers")
    wait_for_client(driver)
    wait_settled(driver)


def button(driver, action):
    return driver.find_element(By.CSS_SELECTOR, f'form[data-action="{action}"] button')


def model_numbers(driver):
    """The client's whole list (the model, not only the DOM), in order."""
    ids = driver.execute_script("return window.diffableWeb.model.itemOrder()")
    return [int(item[1:]) for item in ids]


def dom_numbers(driver):
    return [number_of(cell["text"]) for cell in visible_cells(driver)["cells"] if cell["kind"] == "item"]


def simulate(numbers, next_number, action):
    numbers = list(numbers)
    if action == "append":
        numbers.append(next_number)
        next_number += 1
    elif action == "removeLast" and numbers:
        numbers.pop()
    elif action == "removeCenter" and numbers:
        numbers.pop(len(numbers) // 2)
    return numbers, next_number


def wait_for_numbers(driver, expected, timeout=10):
    wait_until(lambda: model_numbers(driver) == expected, timeout=timeout,
               message=f"the list {expected}")
    wait_settled(driver)
    shown = dom_numbers(driver)
    assert shown and shown == expected[:len(shown)], f"the page shows {shown}, expected {expected}"


def assert_dom_matches_server(driver, server):
    viewport = client_viewport(driver)
    snapshot = read_snapshot(server, session_cookie(driver), "numbers", viewport["width"], viewport["height"], viewport["top"])
    wait_settled(driver)
    model = driver.execute_script("""
        const m = window.diffableWeb.model;
        return {version: m.version, cells: [...m.cells.values()].map(c => ({id: c.id, frame: c.frame, html: c.html}))};""")
    assert model["version"] == snapshot["version"]
    assert driver.execute_script("return window.diffableWeb.model.itemOrder()") == snapshot_ids(snapshot), \
        "the client's order differs from the server's"
    ours = {c["id"]: (c["frame"], c["html"]) for c in model["cells"]}
    theirs = {c["id"]: ({k: c["frame"][k] for k in "xywh"}, c["html"]) for c in snapshot["cells"]}
    assert ours == theirs, "the client's model differs from the server's snapshot"
    view = visible_cells(driver)
    expected = snapshot_cells_in_view(snapshot, view)
    assert [c["id"] for c in view["cells"]] == [c["id"] for c in sorted(expected, key=lambda c: (c["frame"]["y"], c["frame"]["x"]))]
    for cell, frame in ((c, {e["id"]: e["frame"] for e in expected}[c["id"]]) for c in view["cells"]):
        assert all(abs(cell[k] - frame[k]) <= 1 for k in "xywh"), f"{cell['id']} at {cell}, frame {frame}"
    return snapshot


def test_append_remove_center_remove_last(driver, server):
    open_numbers(driver, server)
    numbers = model_numbers(driver)
    next_number = max(numbers, default=0) + 1
    for action in ["append"] * 3 + ["removeCenter", "removeLast"]:
        before = driver.execute_script("return window.diffableWeb.stats.animations")
        button(driver, action).click()
        numbers, next_number = simulate(numbers, next_number, action)
        wait_for_numbers(driver, numbers)
        assert driver.execute_script("return window.diffableWeb.stats.animations") > before, f"{action} animated"
    assert driver.current_url.endswith("/demos/numbers"), "buttons must not reload the page"
    assert_dom_matches_server(driver, server)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "numbers.png"))
    assert console_errors(driver) == []


def test_twenty_fast_clicks_end_in_the_server_state(driver, server):
    open_numbers(driver, server)
    numbers = model_numbers(driver)
    next_number = max(numbers, default=0) + 1
    actions = ["append", "append", "removeCenter", "append", "removeLast"] * 4
    for action in actions:  # no waiting between clicks
        button(driver, action).click()
        numbers, next_number = simulate(numbers, next_number, action)
    wait_for_numbers(driver, numbers, timeout=20)
    snapshot = assert_dom_matches_server(driver, server)
    server_numbers = [number_of(re.sub(r"<[^>]*>", " ", c["html"])) for c in
                      sorted((c for c in snapshot["cells"] if c["kind"] == "item"),
                             key=lambda c: (c["frame"]["y"], c["frame"]["x"]))]
    assert server_numbers == numbers
    assert console_errors(driver) == []


def append_ten_thousand(driver, server):
    """Opens Numbers and appends 10,000 items through the action; waits until the client has them."""
    open_numbers(driver, server)
    count = len(model_numbers(driver))
    status, body = post_json(server, "/demos/numbers/actions/append", {"count": 10000}, cookie=session_cookie(driver))
    assert status == 200 and "version" in body
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.itemCount") == count + 10000,
               timeout=20, message="10,000 more items")
    wait_settled(driver)


def test_ten_thousand_items_keep_the_dom_bounded(driver, server):
    append_ten_thousand(driver, server)
    bounded = "return document.querySelectorAll('#list > [data-id]').length"
    assert driver.execute_script(bounded) < 200
    for fraction in (0.25, 0.5, 0.75, 1.0):
        driver.execute_script("window.scrollTo(0, arguments[0] * document.documentElement.scrollHeight)", fraction)
        wait_settled(driver)
        assert driver.execute_script(bounded) < 200, f"too many cells at {fraction:.0%}"
        assert driver.execute_script("return window.diffableWeb.stats.domCells") < 200
    last = model_numbers(driver)[-1]
    shown = dom_numbers(driver)
    assert shown and shown[-1] == last, f"the last item ({last}) is on screen after scrolling to the bottom"
    assert_dom_matches_server(driver, server)
    assert console_errors(driver) == []


def event_stream_headers(driver):
    """The request headers as sent on the wire and the response headers of the page's event
    stream, from Chromium's own network log (lower-case names)."""
    import json
    messages = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    ids = {m["params"]["requestId"] for m in messages
           if m["method"] == "Network.requestWillBeSent" and "/events" in m["params"]["request"]["url"]}
    request, response = {}, {}
    for m in messages:
        if m.get("params", {}).get("requestId") not in ids:
            continue
        if m["method"] == "Network.requestWillBeSentExtraInfo":  # with the headers the network stack adds
            request = {k.lower(): v for k, v in m["params"]["headers"].items()}
        elif m["method"] == "Network.responseReceived":
            response = {k.lower(): v for k, v in m["params"]["response"]["headers"].items()}
    return request, response


def test_the_event_stream_is_gzip_and_a_large_compressed_changeset_applies(driver_with_network_log, server):
    driver = driver_with_network_log
    # 10,000 inserted identifiers (~100 KB of JSON): well over the size from which events are compressed.
    append_ten_thousand(driver, server)
    snapshot = read_snapshot(server, session_cookie(driver), "numbers")
    assert driver.execute_script("return window.diffableWeb.model.itemOrder()") == snapshot_ids(snapshot)
    request, response = event_stream_headers(driver)
    assert "gzip" in request.get("accept-encoding", ""), request
    assert response.get("content-encoding") == "gzip", response
    assert console_errors(driver) == []


def test_reduced_motion_runs_no_animation(driver, server):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    open_numbers(driver, server)
    assert driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
    numbers = model_numbers(driver)
    next_number = max(numbers, default=0) + 1
    for action in ("append", "removeCenter", "append"):
        button(driver, action).click()
        numbers, next_number = simulate(numbers, next_number, action)
        deadline = time.monotonic() + 10
        while model_numbers(driver) != numbers:
            assert driver.execute_script("return document.getAnimations().length") == 0
            assert time.monotonic() < deadline, "the list did not change"
        assert driver.execute_script("return document.getAnimations().length") == 0
    assert driver.execute_script("return window.diffableWeb.stats.animations") == 0
    assert_dom_matches_server(driver, server)
    assert console_errors(driver) == []


def test_without_javascript_buttons_post_and_redirect(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/numbers")
    assert driver.execute_script("return typeof window.diffableWeb") == "undefined", "page scripts must be off"
    cells = lambda: [number_of(text) for text in driver.execute_script(  # noqa: E731
        """return [...document.querySelectorAll('#list .cell[data-kind="item"]')].map(c => c.innerText);""")]
    before = cells()
    assert before, "the first screen of cells is in the HTML"
    button(driver, "append").click()
    wait_until(lambda: len(cells()) == len(before) + 1 or None, message="the appended row after the redirect")
    assert cells() == before + [max(before) + 1]
    assert driver.current_url.rstrip("/").endswith("/demos/numbers")


def test_scrolling_ten_thousand_items_while_a_script_changes_the_list_above_the_window(driver, server):
    """The window follows the scroll; inserts and deletes above it shift every cell, and the
    cells shown always match the server's snapshot at that offset (order, frames, HTML)."""
    open_numbers(driver, server)
    status, body = post_json(server, "/demos/numbers/actions/append", {"count": 10000}, cookie=session_cookie(driver))
    assert status == 200
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.version") >= body["version"],
               timeout=20, message="10,000 more items")
    wait_settled(driver)
    operations = f"/api/sessions/{share_id(driver)}/demos/numbers/operations"
    fresh = 500_000
    for fraction in (0.0, 0.33, 0.66, 1.0):
        driver.execute_script("window.scrollTo(0, arguments[0] * (document.documentElement.scrollHeight - innerHeight))", fraction)
        wait_settled(driver)
        order = driver.execute_script("return window.diffableWeb.model.itemOrder()")
        window_ids = driver.execute_script("return [...window.diffableWeb.model.cells.keys()]")
        above = [item for item in order[:40] if item not in window_ids]
        first_shown = min((order.index(i) for i in window_ids if i in order), default=0)
        # Delete two items and insert three above the window (or at the top when the window is there).
        anchor = order[max(0, first_shown - 1)] if fraction > 0 else order[0]
        batch = [{"op": "deleteItems", "items": above[:2] or order[-2:]},
                 {"op": "insertItems", "items": [f"n{fresh + k}" for k in range(3)], "beforeItem": anchor}]
        fresh += 3
        status, result = api(server, "POST", operations, {"operations": batch})
        assert status == 200, result
        wait_until(lambda: driver.execute_script("return window.diffableWeb.model.version") >= result["version"],
                   message=f"the script's change at {fraction:.0%}")
        wait_settled(driver)
        assert_dom_matches_server(driver, server)
        assert driver.execute_script("return document.querySelectorAll('#list > [data-id]').length") < 200
    shown = dom_numbers(driver)
    assert shown and shown[-1] == model_numbers(driver)[-1], "the end of the list at 100%"
    assert console_errors(driver) == []
