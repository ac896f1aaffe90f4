"""Destinations (seed 002): a like updates its cell in place (the same DOM node, no delete or
insert); a failed picture's Retry replaces the cell; scrolling away cancels prefetched loads."""
import json
import urllib.request

from selenium.webdriver.common.by import By

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
