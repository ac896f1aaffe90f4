"""Shared by the Emoji Explorer's browser tests (test_swipe.py, test_context_menu.py): opening
the page at a width and colour scheme, its rows, and waits on what the page shows."""
from pathlib import Path

from selenium.webdriver.common.by import By

from helpers import wait_for_client, wait_settled, wait_until

NOTES_SCREENS = Path("/work/notes/screens")
HEIGHTS = {390: 844, 1280: 900}


def open_explorer(driver, server, width, scheme="light", reduced_motion=False):
    features = [{"name": "prefers-reduced-motion", "value": "reduce" if reduced_motion else "no-preference"},
                {"name": "prefers-color-scheme", "value": scheme}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": HEIGHTS[width], "deviceScaleFactor": 1, "mobile": False})
    driver.get(f"{server}/demos/emoji-explorer")
    wait_for_client(driver)
    wait_settled(driver)
    wait_until(lambda: driver.execute_script("return document.querySelectorAll('#list > .cell .row-actions').length > 0"),
               message="the rows' Actions buttons")


def row(driver, item):
    return driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{item}"]')


def cell_state(driver, item, key):
    return driver.execute_script(f"return document.querySelector('#list > .cell[data-id=\"{item}\"]')?.dataset['{key}'] ?? null")


def is_starred(driver, item):
    return driver.execute_script(
        f"return !!document.querySelector('#list > .cell[data-id=\"{item}\"] .explorer-star')")


def mark_node(driver, item):
    """Tags the row's element, so that a test can tell the same node from a new one."""
    driver.execute_script(f"document.querySelector('#list > .cell[data-id=\"{item}\"]').__marked = true")


def same_node(driver, item):
    return driver.execute_script(f"return document.querySelector('#list > .cell[data-id=\"{item}\"]')?.__marked === true")


def content_offset(driver, item):
    """The row content's translateX (0 when it rests)."""
    return driver.execute_script(f"""
        // What slides: the row itself, or the cell's content span around it (with accessories).
        const content = document.querySelector('#list > .cell[data-id="{item}"] .explorer-row')?.closest('.cell > *');
        return content ? new DOMMatrix(getComputedStyle(content).transform).m41 : null;""")


def status(driver):
    return driver.find_element(By.ID, "status").text


def screenshot(driver, name):
    NOTES_SCREENS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(NOTES_SCREENS / name))
