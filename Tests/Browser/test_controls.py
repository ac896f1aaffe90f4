"""Issue 20, items 2 and 3 in the browser: controls that tell the list's real state (also after a
script changed it), and failures a person can see next to the control that caused them."""
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import api, expected_mountains, share_id, visible_items, wait_for_client, wait_settled, wait_until


def pressed(driver, selector=".segmented"):
    """The `data-state-value`s of the pressed options of the page's segmented controls."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' button[aria-pressed=\"true\"]')]"
        ".map(b => b.dataset.stateValue)", selector)


def open_demo(driver, server, demo):
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)


def test_segmented_controls_press_exactly_the_lists_state(driver, server):
    open_demo(driver, server, "photos")
    assert pressed(driver) == ["leftThreeRightThree"], "one layout pressed on load, the list's own"
    share = share_id(driver)
    status, _ = api(server, "POST", f"/api/sessions/{share}/demos/photos/actions/setLayout", {"layout": "grid"})
    assert status == 200
    wait_until(lambda: pressed(driver) == ["grid"], timeout=15, message="a script's setLayout to press Grid alone")

    open_demo(driver, server, "urls")
    assert pressed(driver) == ["running"], "the running publisher: Resume pressed, Pause not"
    status, _ = api(server, "POST", f"/api/sessions/{share}/demos/urls/actions/pause", {})
    assert status == 200
    wait_until(lambda: pressed(driver) == ["paused"], timeout=15, message="a script's pause to press Pause alone")
    driver.find_element(By.CSS_SELECTOR, 'button[data-state-value="running"]').click()
    wait_until(lambda: pressed(driver) == ["running"], timeout=15, message="Resume to press Resume alone")


def test_search_box_shows_the_lists_query(driver, server):
    open_demo(driver, server, "mountains")
    box = driver.find_element(By.ID, "search")
    share = share_id(driver)
    status, _ = api(server, "POST", f"/api/sessions/{share}/demos/mountains/actions/search", {"query": "ben"})
    assert status == 200
    wait_until(lambda: box.get_attribute("value") == "ben", timeout=15, message="a script's search to show in the box")
    wait_settled(driver)
    names = [cell["name"] for cell in visible_items(driver)]
    assert names and all("ben" in name.lower() for name in names)
    # On reload the box shows it too.
    driver.refresh()
    wait_for_client(driver)
    assert driver.find_element(By.ID, "search").get_attribute("value") == "ben"
    # What the person types is never undone by the echoes of their own keystrokes.
    box = driver.find_element(By.ID, "search")
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("mont")
    wait_until(lambda: driver.find_element(By.ID, "status").text.startswith(f"{len(expected_mountains('mont')):,} "),
               timeout=15, message="the list to follow the typing")
    assert box.get_attribute("value") == "mont"


def test_numbers_header_counts_the_first_append(driver, server):
    open_demo(driver, server, "numbers")
    header = lambda: driver.find_element(By.CSS_SELECTOR, '#list .cell[data-kind="header"]').get_attribute("textContent")
    assert "5 items" in header()
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="append"] button').click()
    wait_until(lambda: "6 items" in header(), timeout=15, message="the header to count the first Append")


def test_resize_past_the_end_updates_the_content_size(driver, server):
    driver.set_window_size(1100, 800)
    open_demo(driver, server, "mountains")
    wait_settled(driver)
    # Far below the list (a tall page under it), so that the stream's window holds no cell at
    # either width: only the content size changes with the width.
    driver.execute_script("""
        const spacer = document.createElement('div');
        spacer.style.height = '20000px';
        document.getElementById('list').after(spacer);
        window.scrollTo(0, document.documentElement.scrollHeight);""")
    wait_settled(driver)
    before = driver.execute_script("return window.diffableWeb.model.contentSize.h")
    assert driver.execute_script("return window.diffableWeb.reportedViewport().top") > before + 1600
    driver.set_window_size(400, 800)
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.contentSize.h") > before * 1.3,
               timeout=15, message="the content size to follow the resize")
    wait_until(lambda: abs(driver.execute_script("return document.getElementById('list').offsetHeight")
                           - driver.execute_script("return window.diffableWeb.model.contentSize.h")) <= 1,
               timeout=15, message="the list's height to follow")


def alert_text(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.control-error[role=alert]:not([hidden])')].map(e => e.textContent).join(' | ')")


def test_a_refused_publish_is_shown_next_to_its_form_and_keeps_the_text(driver, server):
    open_demo(driver, server, "urls")
    area = driver.find_element(By.ID, "publish-urls")
    area.send_keys("not a url at all")
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="publish"] button[type="submit"]').click()
    wait_until(lambda: "not a url at all" in alert_text(driver), timeout=15, message="the server's 422 message on the page")
    alert = driver.find_element(By.CSS_SELECTOR, ".control-error[role=alert]:not([hidden])")
    assert driver.execute_script("return arguments[0].previousElementSibling.dataset.action", alert) == "publish", \
        "the message is right after the form that failed"
    assert area.get_attribute("value") == "not a url at all", "what was typed stays"


def test_a_failed_keystroke_is_marked_and_retried(driver, server):
    open_demo(driver, server, "mountains")
    # The server is busy for the first two searches (503), as when its store is unavailable.
    driver.execute_script("""
        const original = window.fetch;
        window.__failures = 2;
        window.fetch = (url, init) => {
          if (String(url).includes('/actions/search') && window.__failures > 0) {
            window.__failures -= 1;
            return Promise.resolve(new Response(JSON.stringify({error: 'store_unavailable', message: 'The store is busy'}),
              {status: 503, headers: {'Content-Type': 'application/json'}}));
          }
          return original(url, init);
        };""")
    box = driver.find_element(By.ID, "search")
    box.send_keys("k2")
    wait_until(lambda: "The store is busy" in alert_text(driver), timeout=10, message="the failure next to the box")
    wait_until(lambda: driver.find_element(By.ID, "status").text.startswith(f"{len(expected_mountains('k2'))} mountain"),
               timeout=20, message="the retried keystroke to filter the list")
    wait_until(lambda: alert_text(driver) == "", timeout=10, message="the alert to clear once it worked")
    assert box.get_attribute("value") == "k2"


def test_numbers_forms_that_can_work(driver, server):
    open_demo(driver, server, "numbers")
    toolbar = driver.find_element(By.CSS_SELECTOR, "[role=toolbar]")
    assert toolbar.find_elements(By.CSS_SELECTOR, "input, select") == [], "no field on the page's toolbar"
    assert toolbar.find_elements(By.CSS_SELECTOR, 'form[data-action="reorder"], form[data-action="move"]') == []
    # Move is in the (collapsed) script panel, and counts from 1: 1 → 3 moves Item 1.
    panel = driver.find_element(By.ID, "script-panel")
    assert panel.get_attribute("open") is None
    panel.find_element(By.TAG_NAME, "summary").click()
    wait_until(lambda: driver.find_element(By.ID, "script-move-from").get_attribute("max") == "5",
               message="positions bounded by the list's length, counting from 1")
    driver.find_element(By.ID, "script-move-from").send_keys("1")
    driver.find_element(By.ID, "script-move-to").send_keys("3")
    driver.find_element(By.CSS_SELECTOR, 'form.script-form[data-action="move"] button[type="submit"]').click()
    order = lambda: driver.execute_script("return window.diffableWeb.model.itemOrder()")
    wait_until(lambda: order() == ["n2", "n3", "n1", "n4", "n5"], timeout=15, message="Move 1 → 3 to move Item 1")
    assert alert_text(driver) == ""


def edge_buttons(driver):
    """The rows whose ↑ or ↓ is disabled."""
    return driver.execute_script("""
        const off = (move) => [...document.querySelectorAll(`#list button[data-move="${move}"]:disabled`)]
          .map(b => b.closest('.cell').dataset.id);
        return {up: off('up'), down: off('down')};""")


def test_first_up_and_last_down_are_disabled_as_rows_change(driver, server):
    open_demo(driver, server, "numbers")
    wait_until(lambda: edge_buttons(driver) == {"up": ["n1"], "down": ["n5"]}, timeout=10, message="↑ of n1 and ↓ of n5 off")
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="append"] button').click()
    wait_until(lambda: edge_buttons(driver) == {"up": ["n1"], "down": ["n6"]}, timeout=15, message="the new last row's ↓ off")
    share = share_id(driver)
    status, _ = api(server, "POST", f"/api/sessions/{share}/demos/numbers/actions/move", {"from": 0, "to": 2})
    assert status == 200
    wait_until(lambda: edge_buttons(driver) == {"up": ["n2"], "down": ["n6"]}, timeout=15, message="a moved first row's ↑ on again")
    status, _ = api(server, "POST", f"/api/sessions/{share}/demos/numbers/actions/removeLast", {})
    wait_until(lambda: edge_buttons(driver) == {"up": ["n2"], "down": ["n5"]}, timeout=15, message="the new last row after a removal")


def test_script_panel_names_this_server_and_copies(driver, server):
    open_demo(driver, server, "numbers")
    driver.find_element(By.CSS_SELECTOR, "#script-panel summary").click()
    command = driver.find_element(By.ID, "command-snapshot").text
    assert command.startswith(f"curl -s {server}/api/sessions/{share_id(driver)}/"), command
    assert "127.0.0.1:8080" not in driver.page_source or server.endswith(":8080")
    # The command works as shown.
    path = urllib.parse.urlsplit(command.split()[-1]).path
    status, body = api(server, "GET", path)
    assert status == 200 and body["version"] >= 1
    button = driver.find_element(By.CSS_SELECTOR, 'button[data-copy="command-snapshot"]')
    button.click()
    wait_until(lambda: button.text in ("Copied", "Select and copy"), timeout=10, message="the copy button to answer")


def test_status_lines_say_what_a_person_cares_about(driver, server):
    open_demo(driver, server, "destinations")
    wait_settled(driver)
    status = driver.find_element(By.ID, "status").text
    assert status.endswith(" posts") and "assets" not in status, status
    details = driver.find_element(By.ID, "details").get_attribute("textContent")
    assert details.startswith("assets: "), details
    open_demo(driver, server, "outline")
    assert "children loaded" not in driver.find_element(By.ID, "status").text
    assert "children loaded" in driver.find_element(By.ID, "details").get_attribute("textContent")


def test_a_refused_outline_expand_is_shown_above_the_tree(driver, server):
    open_demo(driver, server, "outline")
    driver.execute_script("window.diffableWeb.tree.send('expand', 'no-such-band')")
    wait_until(lambda: "no-such-band" in alert_text(driver), timeout=15, message="the server's 422 above the tree")
    assert driver.execute_script(
        "return document.querySelector('.control-error:not([hidden])').nextElementSibling.id") == "list"
