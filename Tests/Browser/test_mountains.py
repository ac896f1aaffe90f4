"""Mountains: Apple's search demo in a real browser."""
import time

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import (client_viewport, console_errors, expected_mountains, post_json, read_snapshot, snapshot_ids,
                     session_cookie, snapshot_cells_in_view, visible_cells, visible_items, wait_for_client,
                     wait_settled, wait_until)


def open_mountains(driver, server, query=None):
    url = f"{server}/demos/mountains"
    if query is not None:
        from urllib.parse import urlencode
        url += "?" + urlencode({"q": query})
    driver.get(url)
    wait_for_client(driver)
    wait_settled(driver)


def wait_for_list(driver, query, timeout=10):
    """Until the cells on screen are the first ones of `query`'s expected list; returns them."""
    expected = expected_mountains(query)

    def matching():
        names = [cell["name"] for cell in visible_items(driver)]
        shown = names == [] if not expected else bool(names) and names == expected[:len(names)]
        return (names,) if shown else None
    wait_until(matching, timeout=timeout, message=f"the cells of {query!r}")
    # Then once nothing moves, in one read: cells are ordered by where they are on screen, and a
    # read taken while a later event's cells slide can swap a row's neighbours on their way.
    wait_settled(driver, timeout=timeout)
    return wait_until(matching, timeout=timeout, message=f"the cells of {query!r}, settled")[0]


def assert_frames_match_server(driver, server):
    """Every cell on screen sits at the frame the server's snapshot gives it (±1 px), and the
    cells on screen are exactly the snapshot's cells that meet the viewport."""
    wait_settled(driver)
    viewport = client_viewport(driver)
    snapshot = read_snapshot(server, session_cookie(driver), "mountains", viewport["width"], viewport["height"], viewport["top"])
    wait_settled(driver)
    assert driver.execute_script("return window.diffableWeb.model.version") == snapshot["version"]
    assert driver.execute_script("return window.diffableWeb.model.itemOrder()") == snapshot_ids(snapshot)
    view = visible_cells(driver)
    expected_ids = [cell["id"] for cell in snapshot_cells_in_view(snapshot, view)]
    on_screen = {cell["id"]: cell for cell in view["cells"]}
    assert sorted(on_screen) == sorted(expected_ids), "the cells on screen are not the snapshot's visible cells"
    frames = {cell["id"]: cell["frame"] for cell in snapshot["cells"]}
    for id_, cell in on_screen.items():
        frame = frames[id_]
        for ours, theirs in (("x", "x"), ("y", "y"), ("w", "w"), ("h", "h")):
            assert abs(cell[ours] - frame[theirs]) <= 1, f"{id_}: {ours}={cell[ours]} but the frame says {frame}"
    return snapshot


def test_typing_filters_the_grid_keystroke_by_keystroke_with_animation(driver, server):
    open_mountains(driver, server)
    assert wait_for_list(driver, "") == expected_mountains("")[:len(visible_items(driver))]
    assert len(visible_items(driver)) >= 20, "the first screen should show a full grid"
    field = driver.find_element(By.ID, "search")
    query = ""
    animated_keystrokes = 0
    for character in "mOun":
        screen = len(visible_items(driver))
        first_screen_changes = expected_mountains(query)[:screen] != expected_mountains(query + character)[:screen]
        query += character
        before = driver.execute_script("return window.diffableWeb.stats.animations")
        field.send_keys(character)
        if first_screen_changes:
            # Animations run for about 300 ms: they must be seen right after the keystroke.
            wait_until(lambda: driver.execute_script("return document.getAnimations().length") > 0,
                       timeout=3, interval=0.01, message=f"an animation after typing {query!r}")
        names = wait_for_list(driver, query)
        assert names == expected_mountains(query)[:len(names)]
        if first_screen_changes:
            assert driver.execute_script("return window.diffableWeb.stats.animations") > before
            animated_keystrokes += 1
    assert animated_keystrokes > 0, "no keystroke changed the first screen: pick another query"
    assert driver.current_url.endswith("/demos/mountains"), "typing must not reload the page"
    snapshot = assert_frames_match_server(driver, server)
    assert len(snapshot_ids(snapshot)) == len(expected_mountains(query)), "every id, in order"
    assert sum(1 for c in snapshot["cells"] if c["kind"] == "item") <= len(expected_mountains(query)), "cells of the window only"
    status = driver.find_element(By.ID, "status")
    assert status.get_attribute("aria-live") == "polite"
    assert f"{len(expected_mountains(query)):,}" in status.text
    assert console_errors(driver) == []


def test_cells_sit_at_the_server_frames_on_load_and_after_deleting(driver, server):
    open_mountains(driver, server)
    assert_frames_match_server(driver, server)
    field = driver.find_element(By.ID, "search")
    field.send_keys("peak")
    wait_for_list(driver, "peak")
    field.send_keys(Keys.BACKSPACE * 4)
    wait_for_list(driver, "")
    assert_frames_match_server(driver, server)
    assert console_errors(driver) == []


def test_fast_typing_ends_on_the_last_keystroke(driver, server):
    open_mountains(driver, server)
    field = driver.find_element(By.ID, "search")
    field.send_keys("pic ")  # no pause between keystrokes
    field.send_keys(Keys.BACKSPACE)
    names = wait_for_list(driver, "pic")
    time.sleep(0.5)  # any stale event would have arrived by now
    assert [c["name"] for c in visible_items(driver)] == names
    assert_frames_match_server(driver, server)
    assert console_errors(driver) == []


def test_the_stream_reconnects_and_recovers_the_list(driver, server):
    open_mountains(driver, server)
    field = driver.find_element(By.ID, "search")
    field.send_keys("mount")
    wait_for_list(driver, "mount")
    reconnects = driver.execute_script("return window.diffableWeb.stats.reconnects")
    status, _ = post_json(server, "/__test/drop-streams", {})
    assert status in (200, 204)
    wait_until(lambda: driver.execute_script("return window.diffableWeb.stats.reconnects") > reconnects,
               message="the client to notice the dropped stream")
    wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "open",
               message="the stream to open again")
    wait_for_list(driver, "mount")
    # A change made while the stream is down reaches the page after it reconnects.
    post_json(server, "/__test/drop-streams", {})
    post_json(server, "/demos/mountains/actions/search", {"query": "mounta"}, cookie=session_cookie(driver))
    wait_for_list(driver, "mounta")
    # And the live path works again: typing still filters.
    field.send_keys(Keys.BACKSPACE * 5)
    wait_for_list(driver, "")
    assert_frames_match_server(driver, server)
    errors = console_errors(driver)
    assert errors == [], errors


def test_html_in_the_query_is_shown_as_text(driver, server):
    hostile = """<script>alert(1)</script>"'"""
    open_mountains(driver, server)
    field = driver.find_element(By.ID, "search")
    field.send_keys(hostile)
    wait_until(lambda: hostile in driver.find_element(By.ID, "status").text,
               message="the query in the status line")
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert field.get_attribute("value") == hostile
    assert driver.execute_script("return document.querySelectorAll('#list script, #status script').length") == 0
    assert wait_for_list(driver, hostile) == []
    # The same query rendered by the server (the GET form) stays text too.
    open_mountains(driver, server, query=hostile)
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert driver.find_element(By.ID, "search").get_attribute("value") == hostile
    assert hostile in driver.find_element(By.ID, "status").text
    assert console_errors(driver) == []


def test_only_cells_near_the_viewport_are_in_the_dom(driver, server):
    open_mountains(driver, server)
    total = len(expected_mountains(""))
    in_dom = driver.execute_script("return document.querySelectorAll('#list > [data-id]').length")
    assert 0 < in_dom < min(total, 400)
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait_settled(driver)
    names = [c["name"] for c in visible_items(driver)]
    assert names and names == expected_mountains("")[-len(names):], "the end of the list after scrolling"
    assert driver.execute_script("return document.querySelectorAll('#list > [data-id]').length") < 400
    assert_frames_match_server(driver, server)
    assert console_errors(driver) == []


def test_typing_then_scrolling_to_the_end_shows_the_right_cells(driver, server):
    open_mountains(driver, server)
    field = driver.find_element(By.ID, "search")
    field.send_keys("a")
    wait_for_list(driver, "a")
    expected = expected_mountains("a")
    assert len(expected) > 200, "a query whose list is several screens long"
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait_settled(driver)
    names = [c["name"] for c in visible_items(driver)]
    assert names and names == expected[-len(names):], "the end of the filtered list"
    assert_frames_match_server(driver, server)
    assert console_errors(driver) == []


def test_keyboard_moves_focus_between_cells(driver, server):
    open_mountains(driver, server)
    tabbable = driver.execute_script(
        "return [...document.querySelectorAll('#list .cell[tabindex=\"0\"]')].map(e => e.dataset.id)")
    assert len(tabbable) == 1, "one cell of the list is in the tab order (roving tabindex)"
    first = visible_items(driver)[0]
    driver.find_element(By.CSS_SELECTOR, f'#list [data-id="{first["id"]}"]').click()
    active = lambda: driver.execute_script("return document.activeElement.dataset.id")  # noqa: E731
    assert active() == first["id"]
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert active() == visible_items(driver)[1]["id"]
    columns = sum(1 for c in visible_items(driver) if abs(c["y"] - first["y"]) < 1)
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert active() == visible_items(driver)[1 + columns]["id"]
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused cell shows a focus ring"
    driver.switch_to.active_element.send_keys(Keys.END)
    wait_settled(driver)
    assert active() == visible_items(driver)[-1]["id"]
    assert driver.execute_script("return document.activeElement.getAttribute('aria-posinset')") == \
        str(len(expected_mountains("")))
    assert console_errors(driver) == []


def test_resizing_lays_the_grid_out_again(driver, server):
    open_mountains(driver, server)
    columns = lambda: len({round(c["x"]) for c in visible_items(driver)})  # noqa: E731
    assert columns() == 3, "a list wider than 800 px has 3 columns"
    driver.set_window_size(700, 768)
    wait_until(lambda: columns() == 2, message="2 columns after the viewport report and the layout event")
    assert_frames_match_server(driver, server)
    assert driver.execute_script("return window.diffableWeb.measure().width") <= 800
    assert console_errors(driver) == []


def test_page_passes_axe(driver, server):
    axe_module = pytest.importorskip("axe_selenium_python")
    open_mountains(driver, server)
    axe = axe_module.Axe(driver)
    axe.inject()
    # axe-core 3.x (the version axe-selenium-python bundles) reports autocomplete="off" on a
    # search field as "inappropriate for this type of input"; HTML allows "off" on every
    # input, and newer axe-core accepts it. Every other rule runs.
    version = driver.execute_script("return axe.version")
    options = '{"rules": {"autocomplete-valid": {"enabled": false}}}' if version.startswith("3.") else None
    results = axe.run(options=options)
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert serious == [], axe.report(serious)


def test_screenshot(driver, server):
    open_mountains(driver, server)
    wait_for_list(driver, "")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "mountains.png"))
    assert console_errors(driver) == []


def test_without_javascript_the_form_filters_by_get(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/mountains")
    time.sleep(0.3)
    assert driver.execute_script("return typeof window.diffableWeb") == "undefined", "page scripts must be off"
    assert driver.find_elements(By.CSS_SELECTOR, "#list [data-id]"), "the first screen of cells is in the HTML"
    field = driver.find_element(By.ID, "search")
    field.send_keys("mount")
    field.send_keys(Keys.ENTER)
    wait_until(lambda: "q=mount" in driver.current_url, message="the GET submit")
    expected = expected_mountains("mount")

    def names():
        # Read in one script so a late navigation cannot leave stale element handles.
        return driver.execute_script("""
            return [...document.querySelectorAll('#list .cell[data-id]')].map(c =>
                (c.querySelector('.name') || c).textContent.trim());""")
    shown = wait_until(lambda: (lambda n: n if n and n == expected[:len(n)] else None)(names()),
                       message="the filtered first screen")
    assert shown and shown == expected[:len(shown)]
    assert driver.find_element(By.ID, "search").get_attribute("value") == "mount"
