"""Outline (Apple's outline sample on our SectionSnapshot): expand and collapse with the mouse
and the keyboard, the WAI-ARIA tree (role, level, expanded, set size and position), the DOM in
the server's order, and the disclosure state kept by the server across a reload."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import (console_errors, post_json, read_snapshot, session_cookie, snapshot_ids, wait_for_client,
                     wait_settled, wait_until)

TREE_JS = """
const list = document.getElementById('list');
const rows = [...list.querySelectorAll(':scope > .cell[data-id]')].map(el => ({
  id: el.dataset.id, role: el.getAttribute('role'), level: el.getAttribute('aria-level'),
  expanded: el.getAttribute('aria-expanded'), setsize: el.getAttribute('aria-setsize'),
  posinset: el.getAttribute('aria-posinset'), label: el.getAttribute('aria-label'),
  tabindex: el.getAttribute('tabindex'), top: el.getBoundingClientRect().top}));
return {role: list.getAttribute('role'), rows};
"""


def open_outline(driver, server):
    driver.get(f"{server}/demos/outline")
    wait_for_client(driver)
    wait_settled(driver)


def tree(driver):
    return driver.execute_script(TREE_JS)


def row(driver, item):
    return next((r for r in tree(driver)["rows"] if r["id"] == item), None)


def active(driver):
    return driver.execute_script("return document.activeElement.dataset.id ?? null")


def press(driver, key):
    driver.switch_to.active_element.send_keys(key)


def wait_expanded(driver, item, expanded):
    value = "true" if expanded else "false"
    wait_until(lambda: (row(driver, item) or {}).get("expanded") == value, message=f"{item} aria-expanded={value}")
    wait_settled(driver)


def disclosure(driver, item):
    return driver.find_element(By.CSS_SELECTOR, f'#list .cell[data-id="{item}"] .disclosure button')


def assert_tree_matches_server(driver, server):
    """The DOM holds the server's rows from the top (the page is not scrolled) as far as the
    window reaches, in the server's order, each a treeitem whose ARIA matches its row."""
    order = snapshot_ids(read_snapshot(server, session_cookie(driver), "outline"))
    shown = tree(driver)
    assert shown["role"] == "tree"
    ids = [r["id"] for r in shown["rows"]]
    assert ids and ids == order[:len(ids)], "the DOM order is the server's snapshot order"
    assert len(ids) == len(order) or shown["rows"][-1]["top"] > driver.execute_script("return innerHeight"), \
        "every row in view is in the DOM"
    tops = [r["top"] for r in shown["rows"]]
    assert tops == sorted(tops), "and the rows are laid out in that order"
    for r in shown["rows"]:
        assert r["role"] == "treeitem" and r["level"] in ("1", "2", "3"), r
        assert 1 <= int(r["posinset"]) <= int(r["setsize"]), r
        assert (r["expanded"] is None) == r["id"].startswith("m"), f"only bands have aria-expanded: {r}"
    assert sum(1 for r in shown["rows"] if r["tabindex"] == "0") == 1, "one treeitem is in the tab order"
    return shown["rows"]


def test_mouse_expands_and_collapses_three_levels(driver, server):
    open_outline(driver, server)
    rows = assert_tree_matches_server(driver, server)
    assert [r["level"] for r in rows] == ["1"] * len(rows), "the first page shows the top level only"
    assert rows[0]["id"] == "h8000-8999" and rows[0]["expanded"] == "false" and rows[0]["setsize"] == str(len(rows))
    animations = driver.execute_script("return window.diffableWeb.stats.animations")

    disclosure(driver, "h8000-8999").click()
    wait_expanded(driver, "h8000-8999", True)
    wait_until(lambda: row(driver, "h8800-8899"), message="the 100-m bands")
    assert driver.execute_script("return window.diffableWeb.stats.animations") > animations, "the children animated in"
    rows = assert_tree_matches_server(driver, server)
    band = row(driver, "h8800-8899")
    assert band["level"] == "2" and band["posinset"] == "1" and band["expanded"] == "false"
    assert band["label"] == "8,800–8,899 m, 1 mountain"

    disclosure(driver, "h8800-8899").click()
    wait_until(lambda: row(driver, "m0001"), message="Mount Everest")
    wait_settled(driver)
    everest = row(driver, "m0001")
    assert everest["level"] == "3" and everest["expanded"] is None and everest["label"] == "Mount Everest, 8,848 m"
    assert_tree_matches_server(driver, server)

    disclosure(driver, "h8000-8999").click()
    wait_expanded(driver, "h8000-8999", False)
    wait_until(lambda: row(driver, "m0001") is None and row(driver, "h8800-8899") is None, message="the children to go")
    rows = assert_tree_matches_server(driver, server)
    assert all(r["level"] == "1" for r in rows)
    assert console_errors(driver) == []


def test_keyboard_moves_expands_and_collapses_like_a_tree(driver, server):
    open_outline(driver, server)
    driver.execute_script("document.querySelector('#list .cell[data-id=\"h8000-8999\"]').focus()")
    assert active(driver) == "h8000-8999"

    press(driver, Keys.ARROW_RIGHT)  # collapsed: expands, focus stays
    wait_expanded(driver, "h8000-8999", True)
    assert active(driver) == "h8000-8999"
    press(driver, Keys.ARROW_RIGHT)  # expanded: to the first child
    assert active(driver) == "h8800-8899"
    press(driver, Keys.ARROW_DOWN)
    assert active(driver) == "h8600-8699"
    press(driver, Keys.ARROW_RIGHT)
    wait_expanded(driver, "h8600-8699", True)
    press(driver, Keys.ARROW_RIGHT)
    assert active(driver) == "m0002", "K2, the only mountain from 8,600 to 8,699 m"
    press(driver, Keys.ARROW_RIGHT)  # a leaf: nothing, and not the next row
    assert active(driver) == "m0002"
    assert_tree_matches_server(driver, server)
    press(driver, Keys.ARROW_LEFT)  # a leaf: to its parent
    assert active(driver) == "h8600-8699"
    press(driver, Keys.ARROW_LEFT)  # expanded: collapses, focus stays
    wait_expanded(driver, "h8600-8699", False)
    wait_until(lambda: row(driver, "m0002") is None, message="K2 to go")
    assert active(driver) == "h8600-8699"
    press(driver, Keys.ARROW_LEFT)  # collapsed: to its parent
    assert active(driver) == "h8000-8999"
    press(driver, Keys.ENTER)  # toggles
    wait_expanded(driver, "h8000-8999", False)
    press(driver, Keys.SPACE)
    wait_expanded(driver, "h8000-8999", True)
    assert active(driver) == "h8000-8999"
    rows = assert_tree_matches_server(driver, server)
    assert next(r for r in rows if r["id"] == "h8000-8999")["tabindex"] == "0", "the focused treeitem is the tab stop"
    assert console_errors(driver) == []


def test_left_arrow_reaches_a_parent_far_outside_the_window(driver, server):
    open_outline(driver, server)
    cookie = session_cookie(driver)
    for item in ["h0-999", "h900-999"]:  # 163 mountains from 900 to 999 m: 7,000 px of rows
        assert post_json(server, "/demos/outline/actions/expand", {"item": item}, cookie)[0] == 200
    order = snapshot_ids(read_snapshot(server, cookie, "outline"))
    last = order[-1]  # the lowest 100-m band, its parent 170 rows above
    assert last.startswith("h") and order.index(last) - order.index("h0-999") > 170
    wait_until(lambda: row(driver, "h900-999"), message="the expanded band")
    driver.execute_script("document.querySelector('#list .cell[data-id=\"h8000-8999\"]').focus()")
    press(driver, Keys.END)
    wait_until(lambda: active(driver) == last, message="the last row focused")
    wait_settled(driver)
    assert row(driver, "h0-999") is None, "its parent is far above the window"
    press(driver, Keys.ARROW_LEFT)
    wait_until(lambda: active(driver) == "h0-999", message="focus on the parent, scrolled to")
    wait_settled(driver)
    parent = row(driver, "h0-999")
    assert 0 <= parent["top"] < driver.execute_script("return innerHeight"), "the parent is in view"
    assert console_errors(driver) == []


def test_reload_keeps_the_disclosure_state(driver, server):
    open_outline(driver, server)
    for item in ["h8000-8999", "h8800-8899", "h7000-7999"]:
        wait_until(lambda: row(driver, item), message=item)
        disclosure(driver, item).click()
        wait_expanded(driver, item, True)
    before = assert_tree_matches_server(driver, server)
    driver.refresh()
    wait_for_client(driver)
    wait_settled(driver)
    after = assert_tree_matches_server(driver, server)
    assert [(r["id"], r["expanded"], r["level"]) for r in after] == [(r["id"], r["expanded"], r["level"]) for r in before]
    assert row(driver, "m0001")["level"] == "3"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "outline.png"))
    assert console_errors(driver) == []


def test_reduced_motion_expands_and_collapses_without_animation(driver, server):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    open_outline(driver, server)
    for expanded in (True, False):
        disclosure(driver, "h7000-7999").click()
        wait_until(lambda: (row(driver, "h7900-7999") is not None) == expanded, message="the children to come or go")
        assert driver.execute_script("return document.getAnimations().length") == 0
        wait_expanded(driver, "h7000-7999", expanded)
    assert driver.execute_script("return window.diffableWeb.stats.animations") == 0
    assert_tree_matches_server(driver, server)
    assert console_errors(driver) == []


def test_page_passes_axe(driver, server):
    axe_module = pytest.importorskip("axe_selenium_python")
    open_outline(driver, server)
    disclosure(driver, "h8000-8999").click()
    wait_expanded(driver, "h8000-8999", True)
    axe = axe_module.Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert serious == [], axe.report(serious)


def test_without_javascript_the_disclosure_posts_and_redirects(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/outline")
    assert driver.execute_script("return typeof window.diffableWeb") == "undefined", "page scripts must be off"
    button = driver.find_element(By.CSS_SELECTOR, '.fallback-list form.disclosure:has(input[value="h6000-6999"]) button')
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, '#list .cell[data-id="h6900-6999"]'),
               message="the children after the redirect")
    assert driver.current_url.rstrip("/").endswith("/demos/outline")
    button = driver.find_element(By.CSS_SELECTOR, '.fallback-list form.disclosure:has(input[value="h6000-6999"]) button')
    assert button.get_attribute("aria-expanded") == "true"


def selected(driver):
    return driver.execute_script("return [...document.querySelectorAll('#list .cell[aria-selected=\"true\"]')].map(el => el.dataset.id)")


def pane(driver):
    return driver.find_element(By.CSS_SELECTOR, ".outline-pane").text


def test_selection_follows_focus_and_a_click_opens_a_band(driver, server):
    """A sidebar: a click (or Return) on a band selects it and opens it (the primary action); an
    arrow key selects the row it lands on without opening it (selection follows focus); the pane
    shows the selected row, and both survive a reload."""
    open_outline(driver, server)
    assert pane(driver).startswith("Nothing selected")
    assert all(r.get("expanded") is not None for r in tree(driver)["rows"])
    driver.find_element(By.CSS_SELECTOR, '#list .cell[data-id="h8000-8999"] .outline-label').click()
    wait_expanded(driver, "h8000-8999", True)
    wait_until(lambda: selected(driver) == ["h8000-8999"], message="the clicked band selected")
    wait_until(lambda: pane(driver).startswith("8,000–8,999 m"), message="the pane to show it")

    driver.execute_script("document.querySelector('#list .cell[data-id=\"h8000-8999\"]').focus()")
    press(driver, Keys.ARROW_DOWN)
    assert active(driver) == "h8800-8899"
    wait_until(lambda: selected(driver) == ["h8800-8899"], message="the selection to follow the focus")
    wait_until(lambda: pane(driver).startswith("8,800–8,899 m\n1 mountain"), message="the pane to follow")
    assert row(driver, "h8800-8899")["expanded"] == "false", "a focus move is no primary action: nothing opens"
    press(driver, Keys.ENTER)
    wait_expanded(driver, "h8800-8899", True)
    press(driver, Keys.ARROW_DOWN)
    assert active(driver) == "m0001"
    wait_until(lambda: selected(driver) == ["m0001"] and pane(driver).startswith("Mount Everest\n8,848 m"), message="Everest selected")
    assert_tree_matches_server(driver, server)

    driver.refresh()
    wait_for_client(driver)
    wait_settled(driver)
    wait_until(lambda: selected(driver) == ["m0001"], message="the selection after a reload")
    assert pane(driver).startswith("Mount Everest")
    assert console_errors(driver) == []
