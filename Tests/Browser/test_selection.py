"""Selection on Numbers (multiple selection, docs/protocol.md "Selection"): the WAI-ARIA listbox
pattern, clicks and the keyboard, the same selection live in two windows of one session, the
editing mode, and the no-JavaScript form. Every wait is on what the page shows or states
(aria-selected, the client's selection), never a sleep."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS, make_driver
from helpers import api, console_errors, session_cookie, share_id, submit_and_wait_for_page, wait_for_client, wait_settled, wait_until

WIDTHS = [390, 1280]


def open_numbers(driver, server, width=1024):
    driver.set_window_size(width, 800)
    driver.get(f"{server}/demos/numbers")
    wait_for_client(driver)
    wait_settled(driver)
    wait_until(lambda: list_role(driver) == "listbox", message="the list to become a listbox")


def list_role(driver):
    return driver.execute_script("return document.getElementById('list').getAttribute('role')")


def shown_selection(driver):
    """The items the page marks selected (aria-selected), sorted."""
    return sorted(driver.execute_script(
        "return [...document.querySelectorAll('#list > .cell[aria-selected=\"true\"]')].map(e => e.dataset.id)"))


def wait_for_selection(driver, expected, what="the selection"):
    expected = sorted(expected)
    wait_until(lambda: shown_selection(driver) == expected, message=f"{what} {expected} (shown: {shown_selection(driver)})")


def cell(driver, item):
    return driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{item}"]')


def focused_item(driver):
    return driver.execute_script("return document.activeElement?.dataset?.id ?? null")


def keys(driver, *sequence):
    chain = ActionChains(driver)
    for key in sequence:
        chain.send_keys(key)
    chain.perform()


@pytest.mark.parametrize("width", WIDTHS)
def test_click_selects_and_aria_selected_follows(driver, server, width):
    open_numbers(driver, server, width)
    items = driver.execute_script("return [...document.querySelectorAll('#list > .cell[data-kind=item]')].map(e => e.getAttribute('role'))")
    assert items and set(items) == {"option"}, items
    assert driver.execute_script("return document.getElementById('list').getAttribute('aria-multiselectable')") == "true"
    assert shown_selection(driver) == []
    assert driver.execute_script("return document.querySelector('#list > .cell[data-id=n1]').getAttribute('aria-selected')") == "false"

    cell(driver, "n2").click()
    wait_for_selection(driver, ["n2"])
    cell(driver, "n4").click()  # multiple selection: a click adds…
    wait_for_selection(driver, ["n2", "n4"])
    cell(driver, "n2").click()  # …and a second click removes
    wait_for_selection(driver, ["n4"])
    ActionChains(driver).key_down(Keys.SHIFT).click(cell(driver, "n5")).key_up(Keys.SHIFT).perform()
    wait_for_selection(driver, ["n2", "n3", "n4", "n5"], "a Shift-click's range from the anchor (n2)")
    assert driver.execute_script("return window.getSelection().toString()") == "", "a Shift-click selects rows, not text"
    # A selected row looks selected: its background is not an unselected row's (once its
    # 0.12 s tint transition has run: waited for, not timed).
    def backgrounds():
        return driver.execute_script("""
            const bg = (id) => getComputedStyle(document.querySelector(`#list > .cell[data-id=${id}]`)).backgroundColor;
            return [bg('n3'), bg('n1')];""")
    wait_until(lambda: backgrounds()[0] != backgrounds()[1], message=f"a selected row's tint (backgrounds {backgrounds()})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"selection-{width}.png"))
    assert console_errors(driver) == []


def test_keyboard_arrows_move_focus_space_toggles_shift_extends_ctrl_a_selects_all(driver, server):
    open_numbers(driver, server)
    driver.execute_script("document.querySelector('#list > .cell[tabindex=\"0\"]').focus()")
    assert focused_item(driver) == "n1"
    keys(driver, Keys.ARROW_DOWN)
    wait_until(lambda: focused_item(driver) == "n2", message="the focus on n2")
    assert shown_selection(driver) == [], "an arrow moves the focus only"
    assert driver.execute_script("return document.querySelector('#list > .cell[data-id=n2]').tabIndex") == 0, "roving tabindex"
    keys(driver, Keys.SPACE)
    wait_for_selection(driver, ["n2"], "Space toggles the focused item on")
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
    wait_for_selection(driver, ["n2", "n3"], "Shift+↓ extends")
    assert focused_item(driver) == "n3"
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
    wait_for_selection(driver, ["n2", "n3", "n4"])
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ARROW_UP).key_up(Keys.SHIFT).perform()
    wait_for_selection(driver, ["n2", "n3"], "Shift+↑ shrinks the range from the anchor")
    keys(driver, Keys.SPACE)  # on n3: off again
    wait_for_selection(driver, ["n2"])
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    wait_for_selection(driver, ["n1", "n2", "n3", "n4", "n5"], "Ctrl+A selects all")
    assert driver.execute_script("return window.getSelection().toString()") == "", "Ctrl+A selects rows, not the page's text"
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_two_windows_of_one_session_show_the_same_selection_live(driver, server, width):
    open_numbers(driver, server, width)
    other = make_driver()
    try:
        other.get(f"{server}/")  # the origin, to set its cookie: the first window's session
        other.delete_all_cookies()
        other.add_cookie({"name": "dw_session", "value": session_cookie(driver), "path": "/"})
        open_numbers(other, server, width)
        cell(driver, "n3").click()
        wait_for_selection(driver, ["n3"])
        wait_for_selection(other, ["n3"], "the other window's selection")
        cell(other, "n5").click()
        wait_for_selection(driver, ["n3", "n5"], "the first window's selection")
        # A script's change reaches both.
        status, answer = api(server, "POST", f"/api/sessions/{share_id(driver)}/demos/numbers/selection", {"items": ["n1"]})
        assert status == 200 and answer["selection"]["items"] == ["n1"]
        wait_for_selection(driver, ["n1"])
        wait_for_selection(other, ["n1"])
        # Delete selected (the toolbar's button) removes it in both.
        driver.find_element(By.CSS_SELECTOR, 'form[data-action="deleteSelected"] button').click()
        for browser in (driver, other):
            wait_until(lambda b=browser: b.execute_script("return window.diffableWeb.model.itemOrder()") == ["n2", "n3", "n4", "n5"],
                       message="n1 deleted")
            wait_for_selection(browser, [])
        assert console_errors(driver) == [] and console_errors(other) == []
    finally:
        other.quit()


def test_edit_mode_is_a_plain_list_whose_clicks_toggle_the_multiselect_circles(driver, server):
    """Editing mode (the server's, docs/protocol.md "Editing"): the rows hold buttons, so the list
    is a plain list; with multiple selection during editing a click on a row toggles it, shown
    by its multiselect circle; Done keeps the selection (multiple selection out of editing too)."""
    open_numbers(driver, server)
    driver.find_element(By.ID, "edit-toggle").click()
    wait_until(lambda: list_role(driver) == "list", message="a plain list while editing")
    assert driver.execute_script("return document.querySelectorAll('#list [role=option], #list [aria-selected]').length") == 0
    cell(driver, "n2").find_element(By.CSS_SELECTOR, ".label").click()
    circle = cell(driver, "n2").find_element(By.CSS_SELECTOR, '[data-accessory="multiselect"]')
    wait_until(lambda: circle.get_attribute("aria-checked") == "true", message="n2's circle checked")
    assert driver.execute_script("return window.diffableWeb.selection().items") == ["n2"]
    driver.find_element(By.ID, "edit-toggle").click()
    wait_until(lambda: list_role(driver) == "listbox", message="a listbox again")
    wait_for_selection(driver, ["n2"], "the selection made while editing")
    assert console_errors(driver) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_listbox_passes_axe(driver, server, scheme):
    axe_module = pytest.importorskip("axe_selenium_python")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_numbers(driver, server)
    cell(driver, "n2").click()
    wait_for_selection(driver, ["n2"])
    axe = axe_module.Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert serious == [], axe.report(serious)


def test_without_javascript_the_selection_is_a_form_of_checkboxes(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/numbers")
    boxes = driver.find_elements(By.CSS_SELECTOR, ".fallback-list input.select-box")
    assert [box.get_attribute("value") for box in boxes] == ["n1", "n2", "n3", "n4", "n5"]
    assert not any(box.is_selected() for box in boxes)
    boxes[1].click()
    boxes[3].click()
    # The old page's boxes already show n2 and n4 checked: the check reads the page the post
    # redirects to, the server's selection.
    submit_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, ".selection-submit button"))
    assert [b.is_selected() for b in driver.find_elements(By.CSS_SELECTOR, ".fallback-list input.select-box")] \
        == [False, True, False, True, False], "the page back with n2 and n4 checked"
    assert "2 selected" in driver.find_element(By.CSS_SELECTOR, ".selection-submit").text
