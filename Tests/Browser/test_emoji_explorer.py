"""The Emoji Explorer's own behaviour (beside its swipe actions and menus): the search box
filters the outline, a category's disclosure collapses and expands it, and "Star selected"
stars every selected emoji in place. Waits are on the DOM, never a sleep."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from explorer import is_starred, mark_node, open_explorer, row, same_node, status
from helpers import wait_settled, wait_until

WIDTHS = [390, 1280]


@pytest.mark.parametrize("width", WIDTHS)
def test_search_filters_and_a_category_collapses(driver, server, width):
    open_explorer(driver, server, width)
    driver.find_element(By.ID, "search").send_keys("face")
    wait_until(lambda: status(driver).startswith("8 emoji match “face”"), message="the search's status")
    wait_settled(driver)
    wait_until(lambda: driver.execute_script("return document.querySelectorAll('#list > .cell[data-kind=item]:not(.leaving)').length") == 10,
               message="two categories and their eight faces")
    assert not driver.execute_script("return !!document.querySelector('#list > .cell[data-id=\"pizza\"]:not(.leaving)')")
    disclosure = row(driver, "smileys").find_element(By.CSS_SELECTOR, ".disclosure button")
    assert disclosure.get_attribute("aria-expanded") == "true"
    disclosure.click()
    wait_until(lambda: row(driver, "smileys").find_element(By.CSS_SELECTOR, ".disclosure button").get_attribute("aria-expanded") == "false",
               message="the category collapsed")
    wait_until(lambda: not driver.execute_script("return !!document.querySelector('#list > .cell[data-id=\"grinning-face\"]:not(.leaving)')"),
               message="its emoji gone")
    assert driver.execute_script("return !!document.querySelector('#list > .cell[data-id=\"dog-face\"]')"), "the other category's stay"
    search = driver.find_element(By.ID, "search")
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    wait_until(lambda: status(driver).startswith("24 emoji"), message="every emoji but the collapsed category's")


@pytest.mark.parametrize("width", WIDTHS)
def test_star_selected_stars_every_selected_emoji_in_place(driver, server, width):
    open_explorer(driver, server, width)
    for item in ["grinning-face", "thinking-face"]:
        row(driver, item).click()
    wait_until(lambda: len(driver.execute_script("return window.diffableWeb.selection()?.items ?? []")) == 2, message="two selected")
    mark_node(driver, "grinning-face")
    driver.find_element(By.CSS_SELECTOR, "form[data-action='starSelected'] button").click()
    wait_until(lambda: is_starred(driver, "grinning-face") and is_starred(driver, "thinking-face"), message="both starred")
    assert same_node(driver, "grinning-face")
    assert not is_starred(driver, "sleeping-face")
    assert "2 starred" in status(driver)
