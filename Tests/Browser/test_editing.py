"""Editing mode (docs/protocol.md "Editing"), on the Editing demo and Numbers: Edit shows the
cells' accessories (delete and multiselect circles, reorder handles), a delete circle reveals
its row's Delete button (Escape hides it) and the deletion animates; the keyboard reaches and
confirms it; a multiple selection made while editing goes at once with Delete selected; Done
hides the accessories. Every wait is on what the page shows or the server states, never a sleep."""
import os
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import api, console_errors, share_id, wait_for_client, wait_settled, wait_until

WIDTHS = [390, 1280]
# The screenshots the brief asks for go to the notes (DIFFABLE_WEB_EDITING_SCREENS overrides).
NOTES_SCREENS = Path(os.environ.get("DIFFABLE_WEB_EDITING_SCREENS", "/work/notes/screens"))


def open_demo(driver, server, demo="editing", width=1280, scheme="light"):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.set_window_size(width, 900)
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    wait_settled(driver)
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection() !== null"), message="the selection")


def editing(driver):
    return driver.execute_script("return document.getElementById('list').hasAttribute('data-editing')")


def press_edit(driver, expected):
    driver.find_element(By.ID, "edit-toggle").click()
    wait_until(lambda: editing(driver) == expected, message=f"editing {expected}")
    wait_until(lambda: driver.find_element(By.ID, "edit-toggle").text == ("Done" if expected else "Edit"), message="the button's title")
    # The server's answer (the page shows Edit and Done at once, before it).
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection()?.editing") == expected,
               message=f"the server's editing {expected}")
    wait_settled(driver)


def accessory(driver, item, kind):
    return driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{item}"] [data-accessory="{kind}"]')


def shown(driver, kind):
    """The items whose `kind` accessory is displayed."""
    return sorted(driver.execute_script("""
        return [...document.querySelectorAll(`#list > .cell[data-kind=item] [data-accessory="${arguments[0]}"]`)]
            .filter(e => e.getClientRects().length > 0).map(e => e.closest('.cell').dataset.id);""", kind))


def dom_items(driver):
    return driver.execute_script("return [...document.querySelectorAll('#list > .cell[data-kind=item]:not(.leaving)')].map(e => e.dataset.id)")


def server_items(driver, server, demo="editing"):
    status, snapshot = api(server, "GET", f"/api/sessions/{share_id(driver)}/demos/{demo}/snapshot")
    assert status == 200, snapshot
    return [item["id"] for section in snapshot["sections"] for item in section["items"]]


def server_editing(driver, server, demo="editing"):
    status, answer = api(server, "GET", f"/api/sessions/{share_id(driver)}/demos/{demo}/editing")
    assert status == 200, answer
    return answer["editing"]


@pytest.mark.parametrize("width", WIDTHS)
def test_edit_shows_the_accessories_and_done_hides_them(driver, server, width):
    open_demo(driver, server, width=width)
    assert shown(driver, "delete") == [] and shown(driver, "multiselect") == [] and shown(driver, "reorder") == []
    with_disclosure = shown(driver, "disclosureIndicator")
    assert "c-ada" in with_disclosure, "out of editing: the disclosure indicators"
    press_edit(driver, True)
    assert server_editing(driver, server) is True
    rows = dom_items(driver)
    assert "c-ada" in shown(driver, "delete") and "c-me" not in shown(driver, "delete"), "My Card cannot be deleted"
    assert shown(driver, "multiselect") == sorted(rows), "every row's multiselect circle"
    assert "c-ada" in shown(driver, "reorder") and "c-me" not in shown(driver, "reorder")
    assert shown(driver, "disclosureIndicator") == [], "the disclosure indicator shows only out of editing"
    assert shown(driver, "label") == sorted(rows), "the label shows always"
    assert driver.find_element(By.ID, "edit-toggle").get_attribute("aria-pressed") == "true"
    assert driver.execute_script("return document.getElementById('list').getAttribute('role')") == "list", "a plain list while editing"
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        NOTES_SCREENS.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(NOTES_SCREENS / f"editing-{width}-{scheme}.png"))
    press_edit(driver, False)
    assert server_editing(driver, server) is False
    assert shown(driver, "delete") == [] and shown(driver, "multiselect") == [] and shown(driver, "reorder") == []
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_delete_asks_for_confirmation_then_deletes_with_an_animation(driver, server, width):
    open_demo(driver, server, width=width)
    press_edit(driver, True)
    confirm = driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="c-ada"] .delete-confirm')
    assert not confirm.is_displayed()
    accessory(driver, "c-ada", "delete").click()
    wait_until(confirm.is_displayed, message="the Delete button")
    assert accessory(driver, "c-ada", "delete").get_attribute("aria-expanded") == "true"
    assert confirm.get_attribute("aria-label") == "Delete Ada Lovelace"
    assert "c-ada" in server_items(driver, server), "nothing is deleted before the confirmation"
    wait_settled(driver)
    if width == 1280:
        NOTES_SCREENS.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(NOTES_SCREENS / "editing-confirm-1280-light.png"))
    # Escape hides it and gives the focus back to the circle.
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: not confirm.is_displayed(), message="the Delete button hidden")
    assert driver.execute_script("return document.activeElement.dataset.accessory") == "delete"
    # Revealed again and confirmed: the row goes, animated, here and on the server.
    accessory(driver, "c-ada", "delete").click()
    wait_until(confirm.is_displayed, message="the Delete button again")
    animations = driver.execute_script("return window.diffableWeb.stats.animations")
    confirm.click()
    wait_until(lambda: "c-ada" not in dom_items(driver), message="c-ada deleted on the page")
    assert driver.execute_script("return window.diffableWeb.stats.animations") > animations, "the deletion animated"
    items = server_items(driver, server)
    assert "c-ada" not in items and len(items) == 13 and "c-grace" in items
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_keyboard_reaches_a_delete_circle_and_confirms(driver, server, width):
    open_demo(driver, server, width=width)
    press_edit(driver, True)
    toggle = driver.find_element(By.ID, "edit-toggle")
    toggle.send_keys(Keys.TAB)  # the focus leaves the toggle for the list

    def active():
        return driver.execute_script(
            "const e = document.activeElement; return [e.closest('.cell')?.dataset.id ?? null, e.dataset.accessory ?? null]")
    for _ in range(12):
        if active() == ["c-ada", "delete"]:
            break
        ActionChains(driver).send_keys(Keys.TAB).perform()
    assert active() == ["c-ada", "delete"], f"Tab reaches Ada's delete circle (at {active()})"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: driver.execute_script("return document.activeElement.classList.contains('delete-confirm')"),
               message="the focus on the revealed Delete")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: "c-ada" not in dom_items(driver), message="c-ada deleted")
    assert "c-ada" not in server_items(driver, server)
    assert active() == ["c-grace", "delete"], "the focus goes on to the next row's delete circle"
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_multiple_selection_made_while_editing_is_deleted_at_once(driver, server, width):
    open_demo(driver, server, width=width)
    bulk = driver.find_element(By.CSS_SELECTOR, '.toolbar form[data-action="deleteSelected"] button')
    wait_until(lambda: not bulk.is_enabled(), message="Delete selected disabled with nothing selected")
    press_edit(driver, True)
    driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="c-grace"] .name').click()  # a tap on the row
    accessory(driver, "c-alan", "multiselect").click()  # a tap on the circle
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection().items") == ["c-grace", "c-alan"],
               message="two selected")
    for item in ("c-grace", "c-alan"):
        wait_until(lambda: accessory(driver, item, "multiselect").get_attribute("aria-checked") == "true", message=f"{item}'s circle")
    assert accessory(driver, "c-ada", "multiselect").get_attribute("aria-checked") == "false"
    wait_until(bulk.is_enabled, message="Delete selected enabled")
    bulk.click()
    wait_until(lambda: "c-grace" not in dom_items(driver) and "c-alan" not in dom_items(driver), message="both deleted")
    items = server_items(driver, server)
    assert "c-grace" not in items and "c-alan" not in items and "c-ada" in items and len(items) == 12
    wait_until(lambda: not bulk.is_enabled(), message="Delete selected disabled again")
    press_edit(driver, False)
    assert console_errors(driver) == []


def test_numbers_edit_mode_is_the_servers(driver, server):
    open_demo(driver, server, demo="numbers", width=1280)
    driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="n2"] .label').click()
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection().items") == ["n2"], message="n2 selected")
    press_edit(driver, True)
    assert server_editing(driver, server, "numbers") is True
    # Multiple selection during editing keeps the selection; the circles show it.
    wait_until(lambda: accessory(driver, "n2", "multiselect").get_attribute("aria-checked") == "true", message="n2's circle")
    assert shown(driver, "delete") == sorted(dom_items(driver))
    accessory(driver, "n4", "delete").click()
    wait_until(lambda: driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="n4"] .delete-confirm').is_displayed(),
               message="n4's Delete")
    wait_settled(driver)
    NOTES_SCREENS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(NOTES_SCREENS / "numbers-editing-1280-light.png"))
    driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="n4"] .delete-confirm').click()
    wait_until(lambda: "n4" not in dom_items(driver), message="n4 deleted")
    assert server_items(driver, server, "numbers") == ["n1", "n2", "n3", "n5"]
    press_edit(driver, False)
    assert server_editing(driver, server, "numbers") is False
    assert console_errors(driver) == []


def test_without_javascript_edit_and_done_are_a_form(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/editing")
    toggle = driver.find_element(By.ID, "edit-toggle")
    assert toggle.text == "Edit" and toggle.get_attribute("aria-pressed") == "false"
    toggle.click()  # a form post, answered 303 back to the page
    wait_until(lambda: driver.find_element(By.ID, "edit-toggle").text == "Done", message="the page in editing mode")
    assert "editing" in driver.find_element(By.TAG_NAME, "body").get_attribute("class").split()

    def shown_in_fallback(kind):  # the page each form post brings
        return [e for e in driver.find_elements(By.CSS_SELECTOR, f'.fallback-list [data-accessory="{kind}"]') if e.is_displayed()]
    assert shown_in_fallback("delete") == [] and shown_in_fallback("multiselect") == [], "the circles need the client"
    assert shown_in_fallback("reorder") == [], "dragging needs the client"
    assert shown_in_fallback("label") and not shown_in_fallback("disclosureIndicator"), "shown by the body's editing class"
    driver.find_element(By.ID, "edit-toggle").click()
    wait_until(lambda: driver.find_element(By.ID, "edit-toggle").text == "Edit", message="the page out of editing mode")
    assert shown_in_fallback("disclosureIndicator") and shown_in_fallback("label")


def test_out_of_editing_a_click_selects_one_row_and_alt_arrows_move_rows_while_editing(driver, server):
    open_demo(driver, server, width=1280)
    # A row holds its detail button out of editing mode: the grid pattern, not a listbox.
    assert driver.execute_script("return document.getElementById('list').getAttribute('role')") == "grid"
    driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="c-ada"] .name').click()
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection().items") == ["c-ada"], message="c-ada selected")
    driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="c-grace"] .name').click()
    wait_until(lambda: driver.execute_script("return window.diffableWeb.selection().items") == ["c-grace"],
               message="single selection out of editing: a click replaces")
    press_edit(driver, True)
    # Alt+↓ on the focused row moves it one place, into the next section from the last row of one.
    driver.execute_script("document.querySelector('#list > .cell[data-id=\"c-alan\"]').focus()")
    ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
    wait_until(lambda: server_items(driver, server)[3:5] == ["c-edsger", "c-alan"], message="Alan moved below Edsger")
    status, snapshot = api(server, "GET", f"/api/sessions/{share_id(driver)}/demos/editing/snapshot")
    others = [item["id"] for item in snapshot["sections"][1]["items"]]
    assert others[:2] == ["c-edsger", "c-alan"], others
    assert console_errors(driver) == []


def test_a_detail_button_opens_the_card_and_hides_while_editing(driver, server):
    """UITableView's detailDisclosureButton: out of editing mode each row's info button (a grid
    cell, reached with → from its row) asks the server, whose accessoryButtonTapped shows the
    person's card; a click on the button selects nothing; while editing the button is gone."""
    open_demo(driver, server, width=390)
    assert len(shown(driver, "detail")) >= 4, "each row in view has its detail button"
    card = driver.find_element(By.ID, "contact-card")
    assert not card.is_displayed()
    accessory(driver, "c-grace", "detail").click()
    wait_until(lambda: card.is_displayed() and "Grace Hopper" in card.text, message="Grace's card")
    assert "Rear admiral" in card.text
    assert driver.execute_script("return window.diffableWeb.selection().items") == [], "the button is no tap on the row"

    # The keyboard: → from the row reaches its detail button (the grid's cells); Return presses it.
    driver.execute_script("document.querySelector('#list > .cell[data-id=\"c-alan\"]').focus()")
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert driver.execute_script("return document.activeElement.dataset.accessory") == "detail"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(lambda: "Alan Turing" in card.text, message="Alan's card")
    NOTES_SCREENS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(NOTES_SCREENS / "editing-card-390-light.png"))

    press_edit(driver, True)
    assert shown(driver, "detail") == [], "the detail button shows out of editing mode only"
    press_edit(driver, False)
    driver.find_element(By.CSS_SELECTOR, "#contact-card button").click()
    wait_until(lambda: not card.is_displayed(), message="Close to shut the card")
    assert console_errors(driver) == []
