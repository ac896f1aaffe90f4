"""The screenshot tour: every page at phone, tablet and desktop width, in light and dark mode,
each once its cells (and pictures) are in and nothing moves. `make test` writes them to
.build/screenshots; `make screenshots` (scripts/screenshots) writes the tracked ones in
docs/screenshots on purpose. Each page must render its list without a console error."""
import os

import pytest
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import console_errors, wait_for_client, wait_settled, wait_until

# The widths to take: `make test` checks three; the tracked set (scripts/screenshots) keeps two.
WIDTHS = [int(w) for w in os.environ.get("DIFFABLE_WEB_SCREENSHOT_WIDTHS", "390,768,1280").split(",")]
SCHEMES = ["light", "dark"]
HEIGHT = {390: 844}  # an iPhone's viewport; wider ones get 900
PAGES = ["home", "mountains", "numbers", "photos", "urls", "destinations", "explore", "outline", "insertion-sort", "list-appearances", "emoji-explorer", "editing", "wifi", "not-found"]


def show(driver, width, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": HEIGHT.get(width, 900), "deviceScaleFactor": 1, "mobile": False})
    wait_until(lambda: driver.execute_script("return window.innerWidth") == width, message=f"the {width}-px viewport")


def settle(driver, demo):
    """Until the page shows its list as it is: the server's window for this width, no
    animation, every picture on screen decoded."""
    if demo not in ("home", "not-found"):
        wait_settled(driver, timeout=20)
        wait_until(lambda: driver.execute_script("""
            return [...document.querySelectorAll('#list .cell')].filter(c => {
                const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }).length > 0"""),
                   timeout=20, message="cells on screen")
    wait_until(lambda: driver.execute_script("""
        return [...document.images].filter(i => { const r = i.getBoundingClientRect();
            // A card beyond its band's edge is clipped (and lazy): not on screen.
            const band = i.closest('.orthogonal-section')?.getBoundingClientRect() ?? {left: 0, right: innerWidth};
            return r.bottom > 0 && r.top < innerHeight && r.right > band.left && r.left < band.right && r.width > 0; })
                                   .every(i => i.complete && i.naturalWidth > 0)"""), timeout=20, message="pictures on screen")
    if demo in ("photos", "destinations"):  # their pictures arrive after placeholders, off the writer path
        wait_until(lambda: driver.execute_script("""
            return ![...document.querySelectorAll('#list .placeholder')].some(p => {
                const r = p.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })"""),
                   timeout=20, message="placeholders on screen replaced")
        wait_settled(driver, timeout=20)


def take(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize("page", PAGES)
def test_screenshot_tour(driver, server, page):
    url = {"home": "/", "not-found": "/no-such-page"}.get(page, f"/demos/{page}")
    driver.get(server + url)
    if page not in ("home", "not-found"):
        wait_for_client(driver)
    if page == "outline":  # two levels open, down to Mount Everest
        for band in ("h8000-8999", "h8800-8899"):
            wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'#list .cell[data-id="{band}"] .disclosure button'),
                       message=f"{band}'s row")
            driver.find_element(By.CSS_SELECTOR, f'#list .cell[data-id="{band}"] .disclosure button').click()
            wait_until(lambda: driver.execute_script(
                "return document.querySelector(arguments[0])?.getAttribute('aria-expanded') === 'true'",
                f'#list .cell[data-id="{band}"] .disclosure button'), message=f"{band} expanded")
    for scheme in SCHEMES:
        for width in WIDTHS:
            show(driver, width, scheme)
            settle(driver, page)
            take(driver, f"{page}-{width}-{scheme}")
            if page in ("numbers", "editing") and width in (390, 1280):
                # Editing mode is the server's: wait for the page to show its answer.
                editing = "return document.getElementById('list').hasAttribute('data-editing')"
                driver.find_element(By.ID, "edit-toggle").click()
                wait_until(lambda: driver.execute_script(editing), message="editing mode")
                wait_settled(driver)
                take(driver, f"{page}-editing-{width}-{scheme}")
                driver.find_element(By.ID, "edit-toggle").click()
                wait_until(lambda: not driver.execute_script(editing), message="editing mode left")
    errors = [e for e in console_errors(driver) if not (page == "not-found" and "status of 404" in e["message"])]
    assert errors == []
