"""Photos (seed 001): the layout switcher moves every cell to the seed layout's frame without
re-creating it, images replace their placeholders, and scrolling to the end loads the next page."""
import urllib.request

from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import (client_viewport, console_errors, read_snapshot, session_cookie, snapshot_cells_in_view,
                     visible_cells, wait_for_client, wait_settled, wait_until)

LAYOUTS = ["grid", "list", "leftOneRightThree", "leftThreeRightThree"]


def open_photos(driver, server):
    driver.get(f"{server}/demos/photos")
    wait_for_client(driver)
    wait_settled(driver)


def visible_placeholders(driver):
    """Visible photo cells still showing a placeholder."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#list > .cell[data-kind="item"]')].filter(el => {
          const r = el.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight && el.querySelector('.photo.placeholder');
        }).map(el => el.dataset.id);""")


def assert_frames_match_server(driver, server):
    viewport = client_viewport(driver)
    snapshot = read_snapshot(server, session_cookie(driver), "photos", viewport["width"], viewport["height"], viewport["top"])
    view = visible_cells(driver)
    expected = {cell["id"]: cell["frame"] for cell in snapshot_cells_in_view(snapshot, view)}
    shown = [cell for cell in view["cells"] if cell["kind"] == "item"]
    assert shown and {cell["id"] for cell in shown} == set(expected), "the page shows the server's cells"
    for cell in shown:
        frame = expected[cell["id"]]
        assert all(abs(cell[k] - frame[k]) <= 1 for k in "xywh"), f"{cell['id']} at {cell}, the server lays it at {frame}"


def test_layouts_switch_in_place_and_images_replace_placeholders(driver, server):
    with urllib.request.urlopen(f"{server}/demos/photos", timeout=10) as response:
        assert 'class="photo placeholder"' in response.read().decode(), "a new session's cells start as placeholders"
    open_photos(driver, server)
    wait_until(lambda: visible_placeholders(driver) == [], timeout=10, message="the visible images to load")
    assert driver.execute_script("""
        const img = document.querySelector('#list .cell img.photo');
        return img !== null && img.complete && img.naturalWidth > 0;"""), "a loaded image is decoded"
    for layout in LAYOUTS:
        # Keep a reference to every cell node, then switch.
        kept = driver.execute_script("""
            window.__nodes = new Map([...document.querySelectorAll('#list > .cell[data-kind="item"]')].map(el => [el.dataset.id, el]));
            return window.diffableWeb.stats.animations;""")
        driver.find_element(By.CSS_SELECTOR, f'form[data-action="setLayout"] input[value="{layout}"] + button').click()
        wait_until(lambda: driver.execute_script("return window.diffableWeb.stats.animations") > kept, message=f"{layout} to animate")
        wait_settled(driver)
        assert driver.find_element(By.CSS_SELECTOR, f'input[value="{layout}"] + button').get_attribute("aria-pressed") == "true"
        survivors = driver.execute_script("""
            let same = 0, replaced = [];
            for (const el of document.querySelectorAll('#list > .cell[data-kind="item"]')) {
              const old = window.__nodes.get(el.dataset.id);
              if (old === el) same += 1; else if (old) replaced.push(el.dataset.id);
            }
            return {same, replaced};""")
        assert survivors["replaced"] == [], f"{layout}: cells re-created instead of moved: {survivors['replaced']}"
        assert survivors["same"] > 0, f"{layout}: some cells stayed in the window"
        wait_until(lambda: visible_placeholders(driver) == [], timeout=10, message="new images to load")
        wait_settled(driver)
        assert_frames_match_server(driver, server)
        if layout == "leftThreeRightThree":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            assert driver.save_screenshot(str(SCREENSHOTS / "photos.png"))
    assert console_errors(driver) == []


def test_scrolling_to_the_end_loads_the_next_page(driver, server):
    open_photos(driver, server)
    count = lambda: driver.execute_script("return window.diffableWeb.model.itemOrder().length")
    first = count()
    assert first >= 30
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait_until(lambda: count() >= first + 30, timeout=10, message="the next page after scrolling to the end")
    wait_settled(driver)
    assert_frames_match_server(driver, server)
    assert console_errors(driver) == []
