"""Destinations (seed 002): a like updates its cell in place (the same DOM node, no delete or
insert); a failed picture's Retry replaces the cell; scrolling away cancels prefetched loads."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import console_errors, share_id, wait_for_client, wait_settled, wait_until

RECORD_EVENTS = """
window.__events = [];
const model = window.diffableWeb.model;
const apply = model.apply.bind(model);
model.apply = (type, data) => { window.__events.push({type, data}); return apply(type, data); };
"""


def cell(driver, item):
    return driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{item}"]')


def test_like_in_place_and_retry_replaces(driver, server):
    driver.get(f"{server}/demos/destinations")
    wait_for_client(driver)
    wait_settled(driver)
    driver.execute_script(RECORD_EVENTS)
    post = "post-0002"
    wait_until(lambda: cell(driver, post).find_elements(By.CSS_SELECTOR, "img.photo"), message="post-0002's picture")
    count = lambda: cell(driver, post).find_element(By.CSS_SELECTOR, ".like-count").text
    before = count()
    driver.execute_script("window.__node = arguments[0]", cell(driver, post))
    cell(driver, post).find_element(By.CSS_SELECTOR, "form.like button").click()
    wait_until(lambda: count() == f"{int(before.replace(',', '')) + 1:,}", message="the like count to grow")
    assert cell(driver, post).find_element(By.CSS_SELECTOR, "form.like button").get_attribute("aria-pressed") == "true"
    assert driver.execute_script("return window.__node === arguments[0]", cell(driver, post)), "the like reconfigured the same node"
    changes = driver.execute_script("return window.__events.filter(e => e.type === 'changeset').map(e => e.data)")
    assert changes and all(not c["inserted"] and not c["deleted"] for c in changes), "no delete or insert went out"
    assert any(u["id"] == post and u["reload"] is False for c in changes for u in c.get("updated", []))

    # post-0007's first load fails (every seventh does): Retry reloads it as a new cell.
    failed = "post-0007"
    wait_until(lambda: cell(driver, failed).find_elements(By.CSS_SELECTOR, ".asset-failed button"), message="the failed picture")
    driver.execute_script("window.__node = arguments[0]", cell(driver, failed))
    cell(driver, failed).find_element(By.CSS_SELECTOR, ".asset-failed button").click()
    wait_until(lambda: cell(driver, failed).find_elements(By.CSS_SELECTOR, "img.photo"), message="the retried picture")
    assert driver.execute_script("return window.__node !== arguments[0]", cell(driver, failed)), "retry replaced the element"
    wait_settled(driver)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "destinations.png"))
    assert console_errors(driver) == []


def test_scrolling_away_cancels_prefetches(driver, server):
    driver.get(f"{server}/demos/destinations")
    wait_for_client(driver)
    # Jump far down at once, then again: the loads started for the first windows are cancelled.
    driver.execute_script("window.scrollTo(0, 12000)")
    wait_settled(driver)
    driver.execute_script("window.scrollTo(0, 24000)")
    wait_settled(driver)
    share = share_id(driver)

    def cancelled():
        with urllib.request.urlopen(f"{server}/api/sessions/{share}", timeout=10) as response:
            demos = json.loads(response.read())["demos"]
        details = next(d for d in demos if d["name"] == "destinations").get("details", "")
        return int(details.split(" cancelled")[0].rsplit(" ", 1)[-1]) if " cancelled" in details else 0

    wait_until(lambda: cancelled() > 0, message="cancelled loads in the API's details")
    # The counters are for scripts: the script panel shows them, the status line does not.
    wait_until(lambda: " 0 cancelled" not in driver.find_element(By.ID, "details").get_attribute("textContent"),
               message="the script panel's counters to count them")
    assert "cancelled" not in driver.find_element(By.ID, "status").text
    assert console_errors(driver) == []


GRID_JS = """
const list = document.getElementById('list');
const rows = [...list.querySelectorAll(':scope > .cell[data-kind="item"]')];
return {role: list.getAttribute('role'), rowcount: list.getAttribute('aria-rowcount'),
        rows: rows.map(el => ({id: el.dataset.id, role: el.getAttribute('role'), selected: el.getAttribute('aria-selected'),
                               rowindex: el.getAttribute('aria-rowindex'), tabindex: el.getAttribute('tabindex'),
                               parts: [...el.children].map(part => part.getAttribute('role')),
                               controls: [...el.querySelectorAll('button')].map(b => b.getAttribute('tabindex'))}))};
"""


def test_a_post_opens_and_its_card_is_a_grid_row(driver, server):
    """A card holds its own Like button, so the list is the WAI-ARIA grid pattern: rows with
    aria-selected, their parts gridcells, their buttons reached with → (out of the Tab order). A
    click or Return on a post selects it and opens it (its primary action): the pane shows it,
    its likes kept in step, and Close shuts it."""
    driver.get(f"{server}/demos/destinations")
    wait_for_client(driver)
    wait_settled(driver)
    grid = driver.execute_script(GRID_JS)
    assert grid["role"] == "grid" and grid["rowcount"] == "225", "200 posts and 25 promos"
    first = grid["rows"][0]
    assert first["role"] == "row" and first["selected"] == "false" and first["rowindex"] == "1"
    assert set(first["parts"]) == {"gridcell"} and first["controls"] == ["-1"], "the Like button is a cell's, out of the Tab order"
    pane = driver.find_element(By.ID, "opened-post")
    assert not pane.is_displayed(), "nothing opened yet"

    cell(driver, "post-0002").find_element(By.CSS_SELECTOR, ".post-title").click()
    wait_until(lambda: cell(driver, "post-0002").get_attribute("aria-selected") == "true", message="post-0002 selected")
    wait_until(lambda: pane.is_displayed() and "First light on K2" in pane.text, message="the pane to show post-0002")
    likes = driver.find_element(By.CSS_SELECTOR, ".opened-post-likes").text
    assert likes.endswith("likes") and "yours" not in likes

    # The keyboard: → into the card's Like button, Return likes it (the pane follows), ← back to the row.
    driver.execute_script("arguments[0].focus()", cell(driver, "post-0002"))
    active = lambda: driver.execute_script("const a = document.activeElement; return a.dataset.id ?? a.getAttribute('aria-label')")
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert active() == "Like First light on K2"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(lambda: "yours among them" in pane.text, message="the pane's likes to follow the like")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert active() == "post-0002"
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert active() == "post-0003", "↓ moves between rows"
    assert cell(driver, "post-0002").get_attribute("aria-selected") == "true", "a focus move selects nothing here"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(lambda: "Clouds around Kangchenjunga" in pane.text, message="Return opens the focused post")
    assert cell(driver, "post-0003").get_attribute("aria-selected") == "true"
    assert cell(driver, "post-0002").get_attribute("aria-selected") == "false", "single selection"

    driver.find_element(By.CSS_SELECTOR, "#opened-post button").click()
    wait_until(lambda: not pane.is_displayed(), message="Close to shut the pane")
    wait_settled(driver)
    assert console_errors(driver) == []
