"""A script changes the session over the JSON API while a browser tab is open on it: the tab
shows the change, animated, without reloading, and ends in the server's state."""
import pytest
from selenium.webdriver.common.by import By

from helpers import (api, client_viewport, console_errors, expected_mountains, share_id, snapshot_item_ids,
                     visible_items, wait_for_client, wait_settled, wait_until)

# Set in the page before the API calls: a reload (or navigation) would drop it.
MARK_PAGE = "window.__apiTestMark = 'same page'; return performance.getEntriesByType('navigation').length"
SAME_PAGE = ("return window.__apiTestMark === 'same page' && "
             "performance.getEntriesByType('navigation').length === 1")


def open_demo(driver, server, demo):
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    wait_settled(driver)
    assert driver.execute_script(MARK_PAGE) == 1
    return share_id(driver)


def animations(driver):
    return driver.execute_script("return window.diffableWeb.stats.animations")


def model_order(driver):
    return driver.execute_script("return window.diffableWeb.model.itemOrder()")


def get_snapshot(server, share, demo):
    status, snapshot = api(server, "GET", f"/api/sessions/{share}/demos/{demo}/snapshot")
    assert status == 200, snapshot
    return snapshot


def assert_page_shows(driver, server, share, demo, snapshot):
    """The tab is at the snapshot's version, its model holds the snapshot's items in order, and
    the items on screen are the snapshot's first items, in reading order, at the frames the API's
    layout gives for the tab's viewport (±1 px)."""
    wait_settled(driver)
    ids = snapshot_item_ids(snapshot)
    assert driver.execute_script("return window.diffableWeb.model.version") == snapshot["version"]
    assert model_order(driver) == ids
    shown = visible_items(driver)
    assert shown, "no item on screen"
    assert [cell["id"] for cell in shown] == ids[:len(shown)], "the page's order is not the snapshot's"
    # The width the tab last reported (the content width the server laid out for). It can lag
    # the list's current width by a scrollbar: the client reports window resizes only.
    width = driver.execute_script("return window.diffableWeb.model.contentSize.w")
    height = client_viewport(driver)["height"]
    status, layout = api(server, "GET", f"/api/sessions/{share}/demos/{demo}/layout?width={width}&height={height}")
    assert status == 200, layout
    assert layout["version"] == snapshot["version"]
    frames = {cell["id"]: cell["frame"] for cell in layout["cells"]}
    for cell in shown:
        frame = frames[cell["id"]]
        assert all(abs(cell[k] - frame[k]) <= 1 for k in "xywh"), f"{cell['id']} at {cell}, the layout says {frame}"


def test_operations_and_actions_over_the_api_animate_in_the_open_numbers_tab(driver, server):
    share = open_demo(driver, server, "numbers")
    url = driver.current_url
    root = f"/api/sessions/{share}/demos/numbers"
    before = get_snapshot(server, share, "numbers")
    ids = snapshot_item_ids(before)
    assert len(ids) >= 3 and model_order(driver) == ids

    # The demo's own action: append one item.
    count = animations(driver)
    status, result = api(server, "POST", f"{root}/actions/append", {})
    assert status == 200 and result["version"] == before["version"] + 1, result
    after_append = get_snapshot(server, share, "numbers")
    appended = snapshot_item_ids(after_append)
    assert appended[:-1] == ids and appended[-1] not in ids
    wait_until(lambda: model_order(driver) == appended, message="the appended item in the tab")
    assert animations(driver) > count, "the append was not animated"
    assert_page_shows(driver, server, share, "numbers", after_append)

    # A conditional batch: move the last item to the top.
    count = animations(driver)
    status, result = api(server, "POST", f"{root}/operations", {
        "ifVersion": after_append["version"],
        "operations": [{"op": "moveItem", "item": appended[-1], "beforeItem": appended[0]}]})
    assert status == 200, result
    assert result["version"] == after_append["version"] + 1 and result["changes"]["itemsMoved"] >= 1
    moved = [appended[-1]] + appended[:-1]
    wait_until(lambda: model_order(driver) == moved, message=f"the tab to show {moved}")
    assert animations(driver) > count, "the move was not animated"
    after_move = get_snapshot(server, share, "numbers")
    assert snapshot_item_ids(after_move) == moved
    assert_page_shows(driver, server, share, "numbers", after_move)

    # The same ifVersion again is stale now: 409, and nothing changes, in the server or the tab.
    events = driver.execute_script("return window.diffableWeb.stats.events")
    status, error = api(server, "POST", f"{root}/operations", {
        "ifVersion": after_append["version"],
        "operations": [{"op": "deleteItems", "items": [moved[0]]}]})
    assert status == 409 and error["error"] and error["message"], error
    assert get_snapshot(server, share, "numbers") == after_move
    assert_page_shows(driver, server, share, "numbers", after_move)
    assert driver.execute_script("return window.diffableWeb.stats.events") == events

    assert driver.execute_script(SAME_PAGE), "the page was reloaded"
    assert driver.current_url == url
    assert console_errors(driver) == []


def test_a_numbers_action_keeps_what_a_script_changed_with_operations(server):
    status, session = api(server, "POST", "/api/sessions")
    assert status == 201
    root = f"/api/sessions/{session['id']}/demos/numbers"
    ids = snapshot_item_ids(get_snapshot(server, session["id"], "numbers"))
    status, result = api(server, "POST", f"{root}/operations", {
        "operations": [{"op": "moveItem", "item": ids[-1], "beforeItem": ids[0]}]})
    assert status == 200, result
    moved = [ids[-1]] + ids[:-1]
    assert snapshot_item_ids(get_snapshot(server, session["id"], "numbers")) == moved
    status, result = api(server, "POST", f"{root}/actions/append", {})
    assert status == 200, result
    after = snapshot_item_ids(get_snapshot(server, session["id"], "numbers"))
    assert after[:-1] == moved, f"append turned {moved} into {after}"


def test_search_over_the_api_updates_the_open_mountains_tab(driver, server):
    share = open_demo(driver, server, "mountains")
    search_box = driver.find_element(By.ID, "search")
    assert search_box.get_attribute("value") == ""
    query = "Mont"
    expected = expected_mountains(query)
    assert 1 < len(expected) < 100

    count = animations(driver)
    status, result = api(server, "POST", f"/api/sessions/{share}/demos/mountains/actions/search", {"query": query})
    assert status == 200 and isinstance(result["version"], int), result
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.itemCount") == len(expected),
               message=f"{len(expected)} mountains in the tab")
    assert animations(driver) > count, "the search was not animated"
    snapshot = get_snapshot(server, share, "mountains")
    assert snapshot["version"] == result["version"]
    names = [item["data"]["name"] for section in snapshot["sections"] for item in section["items"]]
    assert names == expected
    assert_page_shows(driver, server, share, "mountains", snapshot)
    wait_settled(driver)
    assert [cell["name"] for cell in visible_items(driver)] == expected[:len(visible_items(driver))]

    # The box shows the list's query, whoever searched (issue 20: it stayed empty and lied).
    wait_until(lambda: search_box.get_attribute("value") == query, message="the search box to show the script's query")
    assert driver.execute_script(SAME_PAGE), "the page was reloaded"
    assert console_errors(driver) == []
