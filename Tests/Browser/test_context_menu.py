"""Context menus on the Emoji Explorer (docs/protocol.md, "Context menus"): a right-click on a
row of a multiple selection opens a menu for every selected item and its action applies to all
of them; outside the selection it is for that row; the ContextMenu key and Shift+F10 open it on
the focused row, and the keyboard drives it. Every wait is on what the page shows, never a sleep."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from explorer import is_starred, open_explorer, row, screenshot, status
from helpers import console_errors, wait_settled, wait_until

WIDTHS = [390, 1280]


def bring_into_view(driver, item):
    driver.execute_script(f"document.querySelector('#list > .cell[data-id=\"{item}\"]').scrollIntoView({{block: 'center'}})")
    wait_settled(driver)


def select(driver, items):
    for item in items:
        bring_into_view(driver, item)
        row(driver, item).click()
    wait_until(lambda: sorted(driver.execute_script("return window.diffableWeb.selection()?.items ?? []")) == sorted(items),
               message=f"the selection {items}")


def open_menu_items(driver):
    """The open context menu's items (data-items), or None."""
    return driver.execute_script("return document.querySelector('.popup-menu[data-menu=context]')?.dataset.items ?? null")


def menu_actions(driver):
    return driver.execute_script("return [...document.querySelectorAll('.popup-menu [role=menuitem]')].map(b => b.dataset.action)")


def focused_action(driver):
    return driver.execute_script("return document.activeElement?.dataset?.action ?? null")


@pytest.mark.parametrize("width", WIDTHS)
def test_right_click_on_a_multiple_selection_applies_to_all(driver, server, width):
    open_explorer(driver, server, width)
    select(driver, ["fox", "panda", "koala"])
    bring_into_view(driver, "panda")
    ActionChains(driver).context_click(row(driver, "panda")).perform()
    wait_until(lambda: open_menu_items(driver) == "fox panda koala", message="a menu for the whole selection, in list order")
    assert menu_actions(driver) == ["star", "hide"]
    title = driver.find_element(By.CSS_SELECTOR, ".popup-menu .popup-menu-title").text
    assert title == "3 emoji"
    assert driver.find_element(By.CSS_SELECTOR, ".popup-menu [data-action='hide']").get_attribute("class") == "destructive"
    driver.find_element(By.CSS_SELECTOR, ".popup-menu [data-action='star']").click()
    wait_until(lambda: all(is_starred(driver, item) for item in ["fox", "panda", "koala"]), message="all three starred")
    assert not is_starred(driver, "penguin") and not is_starred(driver, "dog-face")
    assert "3 starred" in status(driver)
    assert not driver.execute_script("return !!document.querySelector('.popup-menu')"), "the menu closed"
    assert not [e for e in console_errors(driver) if "favicon" not in e["message"]]


@pytest.mark.parametrize("width", WIDTHS)
def test_right_click_outside_the_selection_is_for_that_row(driver, server, width):
    open_explorer(driver, server, width)
    select(driver, ["fox", "panda"])
    bring_into_view(driver, "dog-face")
    ActionChains(driver).context_click(row(driver, "dog-face")).perform()
    wait_until(lambda: open_menu_items(driver) == "dog-face", message="a menu for the row alone")
    assert menu_actions(driver) == ["star", "copy-name", "hide"]
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: open_menu_items(driver) is None, message="the menu closed")
    assert driver.execute_script("return document.activeElement?.dataset?.id") == "dog-face", "the focus back on the row"
    assert sorted(driver.execute_script("return window.diffableWeb.selection().items")) == ["fox", "panda"], "the selection kept"


@pytest.mark.parametrize("width", WIDTHS)
def test_context_menu_key_on_a_focused_row(driver, server, width):
    open_explorer(driver, server, width, reduced_motion=True)
    bring_into_view(driver, "croissant")
    driver.execute_script("arguments[0].focus()", row(driver, "croissant"))
    # Shift+F10 opens it on the focused row, its first action focused.
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.F10).key_up(Keys.SHIFT).perform()
    wait_until(lambda: open_menu_items(driver) == "croissant", message="a menu for the focused row")
    wait_until(lambda: focused_action(driver) == "star", message="the focus on the first action")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: open_menu_items(driver) is None, message="the menu closed")
    # The ContextMenu key (CDP: Selenium names no such key).
    for kind in ("rawKeyDown", "keyUp"):
        driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": kind, "key": "ContextMenu", "code": "ContextMenu",
                                                          "windowsVirtualKeyCode": 93, "nativeVirtualKeyCode": 93})
    wait_until(lambda: open_menu_items(driver) == "croissant", message="the ContextMenu key's menu")
    wait_until(lambda: focused_action(driver) == "star", message="the focus on the first action again")
    ActionChains(driver).send_keys(Keys.END).perform()
    assert focused_action(driver) == "hide"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: not driver.execute_script("return !!document.querySelector('#list > .cell[data-id=\"croissant\"]')"),
               message="the row hidden")
    assert "1 hidden" in status(driver)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_context_menu_screenshots(driver, server, scheme):
    open_explorer(driver, server, 1280, scheme)
    select(driver, ["grinning-face", "thinking-face"])
    ActionChains(driver).context_click(row(driver, "thinking-face")).perform()
    wait_until(lambda: open_menu_items(driver) == "grinning-face thinking-face", message="the menu")
    screenshot(driver, f"context-menu-1280-{scheme}.png")


def test_long_press_on_touch_opens_the_menu(driver, server):
    open_explorer(driver, server, 390)
    bring_into_view(driver, "pizza")
    rect = driver.execute_script("const r = document.querySelector('#list > .cell[data-id=\"pizza\"]').getBoundingClientRect();"
                                 "return {x: r.left + r.width / 2, y: r.top + r.height / 2};")
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": rect["x"], "y": rect["y"]}]})
    wait_until(lambda: open_menu_items(driver) == "pizza", message="the long press's menu")
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert menu_actions(driver) == ["star", "copy-name", "hide"]
