"""URL stream (seed 003): each batch replaces the list; a URL in two batches keeps its DOM node."""
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import console_errors, wait_for_client, wait_settled, wait_until

U = [f"/demos/photos/assets/p{n:03d}.svg" for n in range(1, 10)]


def order(driver):
    return driver.execute_script("return window.diffableWeb.model.itemOrder()")


def publish(driver, urls):
    area = driver.find_element(By.ID, "publish-urls")
    area.clear()
    area.send_keys("\n".join(urls))
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="publish"] button').click()
    wait_until(lambda: order(driver) == urls, message=f"the list {urls}")
    wait_settled(driver)


def test_a_repeated_url_keeps_its_node(driver, server):
    driver.get(f"{server}/demos/urls")
    wait_for_client(driver)
    driver.find_element(By.CSS_SELECTOR, 'form[data-action="pause"] button').click()
    wait_until(lambda: "paused" in driver.find_element(By.ID, "status").text, message="the publisher to pause")
    publish(driver, U[:6])
    driver.execute_script("window.__kept = document.querySelector(`#list > .cell[data-id=\"${arguments[0]}\"]`)", U[2])
    before = driver.execute_script("return window.diffableWeb.stats.animations")
    publish(driver, [U[7], U[2], U[8], U[0]])
    same = driver.execute_script("return document.querySelector(`#list > .cell[data-id=\"${arguments[0]}\"]`) === window.__kept", U[2])
    assert same, "the URL in both batches kept its DOM node (moved, not re-created)"
    assert driver.execute_script("return window.diffableWeb.stats.animations") > before, "the batch animated"
    gone = driver.execute_script("return document.querySelector(`#list > .cell[data-id=\"${arguments[0]}\"]`)", U[1])
    assert gone is None, "a URL not in the new batch left"
    wait_until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#list img.photo')].every(i => i.complete && i.naturalWidth > 0)"), message="images")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "urls.png"))
    assert console_errors(driver) == []
