"""Swipe actions on the Emoji Explorer (docs/protocol.md, "Swipe actions"): a pointer drag and
a touch swipe reveal a row's actions, a full swipe performs the outermost (a star, shown in
the same node), a refused action (hiding a starred emoji: the handler's completion(false))
puts the row back, and the row's Actions menu does the same from the keyboard. Every wait is
on what the page shows (data-swipe, the star, the menu), never a sleep."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from explorer import (cell_state, content_offset, is_starred, mark_node, open_explorer, row, same_node, screenshot,
                      status)
from helpers import console_errors, post_json, session_cookie, wait_settled, wait_until

WIDTHS = [390, 1280]


def bring_into_view(driver, item):
    driver.execute_script(f"document.querySelector('#list > .cell[data-id=\"{item}\"]').scrollIntoView({{block: 'center'}})")
    wait_settled(driver)


def drag(driver, item, dx, steps=8):
    """A mouse drag across the row, `dx` px sideways in steps, from the side it moves away from."""
    bring_into_view(driver, item)
    element = row(driver, item)
    start = -row_width(driver, item) * 0.3 if dx > 0 else row_width(driver, item) * 0.3
    chain = ActionChains(driver, duration=0).move_to_element_with_offset(element, int(start), 0).click_and_hold()
    for _ in range(steps):
        chain.move_by_offset(int(dx / steps), 0)
    chain.release().perform()


def touch_swipe(driver, item, dx, steps=8):
    """A touch swipe through CDP (`Input.dispatchTouchEvent`), `dx` px sideways."""
    bring_into_view(driver, item)
    rect = driver.execute_script(
        f"const r = document.querySelector('#list > .cell[data-id=\"{item}\"]').getBoundingClientRect();"
        "return {x: r.left + r.width / 2, y: r.top + r.height / 2};")
    x, y = rect["x"], rect["y"]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, steps + 1):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                               {"type": "touchMove", "touchPoints": [{"x": x + dx * step / steps, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def row_width(driver, item):
    return driver.execute_script(f"return document.querySelector('#list > .cell[data-id=\"{item}\"]').clientWidth")


@pytest.mark.parametrize("width", WIDTHS)
def test_pointer_drag_reveals_the_actions(driver, server, width):
    open_explorer(driver, server, width)
    drag(driver, "fox", 120)
    wait_until(lambda: cell_state(driver, "fox", "swipe") == "open-leading", message="the row open on its leading edge")
    button = row(driver, "fox").find_element(By.CSS_SELECTOR, ".swipe-tray.leading .swipe-action[data-action='star']")
    assert button.is_displayed() and button.text.strip().endswith("Star")
    wait_until(lambda: content_offset(driver, "fox") == 76, message="the content slid by one action's width")
    screenshot(driver, f"swipe-revealed-{width}-light.png")
    # A drag the other way, on another row: its trailing Hide.
    drag(driver, "koala", -120)
    wait_until(lambda: cell_state(driver, "koala", "swipe") == "open-trailing", message="koala open on its trailing edge")
    assert cell_state(driver, "fox", "swipe") == "closed", "opening one row closes the other"
    assert row(driver, "koala").find_element(By.CSS_SELECTOR, ".swipe-tray.trailing .swipe-action.destructive").text.strip().endswith("Hide")
    assert not [e for e in console_errors(driver) if "favicon" not in e["message"]]


@pytest.mark.parametrize("width", WIDTHS)
def test_touch_swipe_reveals_the_actions_and_a_short_one_snaps_back(driver, server, width):
    open_explorer(driver, server, width)
    touch_swipe(driver, "panda", -110)
    wait_until(lambda: cell_state(driver, "panda", "swipe") == "open-trailing", message="the row open after a touch swipe")
    assert row(driver, "panda").find_element(By.CSS_SELECTOR, ".swipe-tray.trailing [data-action='hide']").is_displayed()
    # A tap elsewhere closes it and selects nothing.
    touch_swipe(driver, "cat-face", 20)
    wait_until(lambda: cell_state(driver, "panda", "swipe") == "closed", message="the open row closed")
    wait_until(lambda: cell_state(driver, "cat-face", "swipe") == "closed", message="a short swipe snapped back")
    wait_until(lambda: content_offset(driver, "cat-face") == 0, message="the short-swiped row at rest")
    assert driver.execute_script("return window.diffableWeb.selection()?.items ?? []") == []


@pytest.mark.parametrize("width", WIDTHS)
def test_full_swipe_performs_the_first_action_in_place(driver, server, width):
    open_explorer(driver, server, width)
    mark_node(driver, "penguin")
    drag(driver, "penguin", row_width(driver, "penguin") * 0.75, steps=10)
    wait_until(lambda: is_starred(driver, "penguin"), message="the star in the row")
    assert same_node(driver, "penguin"), "a reconfigure keeps the row's node"
    wait_until(lambda: cell_state(driver, "penguin", "swipeResult") == "performed", message="the action performed")
    wait_until(lambda: content_offset(driver, "penguin") == 0, message="the row back at rest")
    assert "1 starred" in status(driver)


@pytest.mark.parametrize("width", WIDTHS)
def test_refused_action_puts_the_row_back(driver, server, width):
    open_explorer(driver, server, width)
    code, answer = post_json(server, "/demos/emoji-explorer/swipe", {"item": "sushi", "action": "star"}, session_cookie(driver))
    assert code == 200 and answer["performed"] is True
    wait_until(lambda: is_starred(driver, "sushi"), message="the star a script set")
    wait_settled(driver)
    # Hiding a starred emoji is refused by the handler (completion(false)).
    drag(driver, "sushi", -row_width(driver, "sushi") * 0.75, steps=10)
    wait_until(lambda: cell_state(driver, "sushi", "swipeResult") == "refused", message="the refusal")
    wait_until(lambda: cell_state(driver, "sushi", "swipe") == "closed" and content_offset(driver, "sushi") == 0,
               message="the row back in place")
    assert driver.execute_script("return !!document.querySelector('#list > .cell[data-id=\"sushi\"]')")
    assert "hidden" not in status(driver)


@pytest.mark.parametrize("width", WIDTHS)
def test_keyboard_actions_menu(driver, server, width):
    open_explorer(driver, server, width, reduced_motion=True)
    bring_into_view(driver, "croissant")
    button = row(driver, "croissant").find_element(By.CSS_SELECTOR, ".row-actions")
    assert button.get_attribute("aria-haspopup") == "menu"
    assert button.get_attribute("aria-label") == "Actions for Croissant"
    driver.execute_script("arguments[0].focus()", button)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: driver.execute_script("return document.activeElement?.getAttribute('role')") == "menuitem",
               message="the focus on the menu's first item")
    items = driver.execute_script("return [...document.querySelectorAll('.popup-menu [role=menuitem]')].map(b => b.dataset.action)")
    assert items == ["star", "hide"]
    assert button.get_attribute("aria-expanded") == "true"
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    assert driver.execute_script("return document.activeElement.dataset.action") == "hide"
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: not driver.execute_script("return !!document.querySelector('.popup-menu')"), message="the menu closed")
    assert driver.execute_script("return document.activeElement") == button, "the focus back on the button"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: driver.execute_script("return document.activeElement?.dataset?.action") == "star", message="the menu again")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: is_starred(driver, "croissant"), message="the star chosen from the menu")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(driver, server, width, scheme):
    open_explorer(driver, server, width, scheme)
    post_json(server, "/demos/emoji-explorer/swipe", {"item": "thinking-face", "action": "star"}, session_cookie(driver))
    wait_until(lambda: is_starred(driver, "thinking-face"), message="a starred row to show")
    for item in ["grinning-face", "sleeping-face"]:
        row(driver, item).click()
    wait_until(lambda: len(driver.execute_script("return window.diffableWeb.selection()?.items ?? []")) == 2, message="two selected")
    wait_settled(driver)
    screenshot(driver, f"emoji-explorer-{width}-{scheme}.png")
