"""Numbers, edit mode: drag a row by its handle, move the focused row with Alt+↑/↓ (announced),
and a pinned row cannot be dragged. Without JavaScript each row's ↑/↓ buttons post a form."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import console_errors, wait_for_client, wait_settled, wait_until


def order(driver):
    return driver.execute_script("return window.diffableWeb.model.itemOrder()")


def cell(driver, item):
    return driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{item}"]')


def test_drag_keyboard_and_pinned_rows(driver, server):
    driver.get(f"{server}/demos/numbers")
    wait_for_client(driver)
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="append"] button').click()  # n6 … up to n10 (pinned)
    for _ in range(4):
        driver.find_element(By.CSS_SELECTOR, 'form[data-action="append"] button').click()
    wait_until(lambda: len(order(driver)) == 10, message="ten rows")
    wait_settled(driver)
    start = order(driver)
    toggle = driver.find_element(By.ID, "edit-toggle")
    assert toggle.is_displayed() and toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert cell(driver, start[0]).find_element(By.CSS_SELECTOR, ".drag-handle").is_displayed()
    assert not cell(driver, "n10").find_elements(By.CSS_SELECTOR, ".drag-handle"), "a pinned row has no handle"

    # Drag the first row down past two others (rows are 44 px tall).
    kept = driver.execute_script("window.__dragged = arguments[0]; return true", cell(driver, start[0]))
    handle = cell(driver, start[0]).find_element(By.CSS_SELECTOR, ".drag-handle")
    ActionChains(driver).click_and_hold(handle).move_by_offset(0, 30).move_by_offset(0, 60).release().perform()
    expected = start[1:3] + [start[0]] + start[3:]
    wait_until(lambda: order(driver) == expected, message=f"the drag to give {expected}")
    wait_settled(driver)
    assert kept and driver.execute_script("return window.__dragged === arguments[0]", cell(driver, start[0])), "the row moved, not re-created"

    # Alt+↓ on the focused row moves it one place, and says so.
    target = expected[0]
    driver.execute_script("arguments[0].focus()", cell(driver, target))
    ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
    expected = [expected[1], target] + expected[2:]
    wait_until(lambda: order(driver) == expected, message="Alt+Down to move the row")
    wait_until(lambda: "position 2 of 10" in driver.find_element(By.ID, "announcer").text, message="the move to be announced")
    assert driver.switch_to.active_element.get_attribute("data-id") == target, "focus stays on the moved row"

    # A pinned row: Alt+↑ is refused without a request.
    driver.execute_script("arguments[0].focus()", cell(driver, "n10"))
    ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    wait_until(lambda: "pinned" in driver.find_element(By.ID, "announcer").text, message="the refusal to be announced")
    assert order(driver) == expected
    wait_settled(driver)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "numbers-editing.png"))
    assert console_errors(driver) == []


def test_without_javascript_rows_move_by_form(driver_without_js, server):
    driver = driver_without_js
    driver.get(f"{server}/demos/numbers")
    # Without JavaScript the list shows once, in the page-by-page fallback (#list is hidden).
    driver.find_element(By.CSS_SELECTOR, '.fallback-list form:has(input[name="item"][value="n3"]) input[value="up"] + button').click()
    # The URL is the demo's before and after the post and its redirect: wait for the new page's
    # rows (wait_until reads again when the navigation replaced the document mid-read).
    def first_rows():
        ids = driver.execute_script(
            "return [...document.querySelectorAll(\"#list > .cell[data-kind='item']\")].map(e => e.dataset.id)")
        return ids[:3] if ids[:3] == ["n1", "n3", "n2"] else None
    assert wait_until(first_rows, message="n3 moved up one place after the redirect") == ["n1", "n3", "n2"]
