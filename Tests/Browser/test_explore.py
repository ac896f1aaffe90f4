"""Explore (orthogonal sections): each carousel scrolls sideways on its own at the server's
frames; the groupPaging one snaps to a group; the keyboard reveals a card; a shuffle slides the
same nodes."""
import math

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import console_errors, post_json, session_cookie, wait_for_client, wait_settled, wait_until

BANDS = """
return [...document.querySelectorAll('#list > .orthogonal-section')].map(s => ({
  section: s.dataset.section, behavior: s.dataset.behavior, snap: getComputedStyle(s).scrollSnapType,
  scrollWidth: s.scrollWidth, clientWidth: s.clientWidth, cells: s.querySelectorAll(':scope > .cell[data-id]').length}));
"""

PLACES = """
const s = document.querySelector(`#list > .orthogonal-section[data-section="${arguments[0]}"]`);
const box = s.getBoundingClientRect();
const model = window.diffableWeb.model;
return [...s.querySelectorAll(':scope > .cell[data-id]')].map(el => {
  const r = el.getBoundingClientRect(), f = model.cells.get(el.dataset.id).frame, band = model.orthogonal.get(arguments[0]);
  return {id: el.dataset.id, dx: r.left - box.left + s.scrollLeft - f.x, dy: r.top - box.top - (f.y - band.y), w: r.width - f.w};
});
"""


def test_carousels_scroll_on_their_own(driver, server):
    driver.get(f"{server}/demos/explore")
    wait_for_client(driver)
    wait_until(lambda: len(driver.execute_script(BANDS)) == 2, message="two sideways sections")
    wait_settled(driver)
    bands = {band["section"]: band for band in driver.execute_script(BANDS)}
    assert bands["featured"]["behavior"] == "groupPaging" and "mandatory" in bands["featured"]["snap"]
    assert bands["new"]["behavior"] == "continuous" and bands["new"]["snap"] in ("none", "")
    assert bands["featured"]["cells"] == 8 and bands["new"]["cells"] == 16, "every card of a carousel is in the DOM"
    assert bands["featured"]["scrollWidth"] > 6 * bands["featured"]["clientWidth"]
    for place in driver.execute_script(PLACES, "featured") + driver.execute_script(PLACES, "new"):
        assert abs(place["dx"]) <= 1 and abs(place["dy"]) <= 1 and abs(place["w"]) <= 1, f"{place} is not at its frame"

    # groupPaging: a scroll that stops between groups comes to rest on one.
    group = driver.execute_script("""
        const m = window.diffableWeb.model, ids = m.sections.find(s => s.id === 'featured').items;
        return m.cells.get(ids[1]).frame.x - m.cells.get(ids[0]).frame.x;""")
    driver.execute_script("""document.querySelector('.orthogonal-section[data-section="featured"]').scrollTo({left: arguments[0], behavior: 'instant'})""", group * 0.6)
    left = lambda: driver.execute_script("""return document.querySelector('.orthogonal-section[data-section="featured"]').scrollLeft""")
    wait_until(lambda: abs(left() - group) < 2, message=f"the carousel to snap to the second group at {group}")

    # The keyboard: → moves to the next card and scrolls it into its band.
    first = driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'new').items")
    driver.execute_script("arguments[0].focus()", driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{first[4]}"]'))
    for _ in range(4):
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert driver.switch_to.active_element.get_attribute("data-id") == first[8]
    wait_until(lambda: driver.execute_script("""
        const el = document.activeElement, s = el.parentElement, r = el.getBoundingClientRect(), b = s.getBoundingClientRect();
        return r.left >= b.left - 1 && r.right <= b.right + 1;"""), message="the focused card to scroll into view")

    # A shuffle slides the same nodes to their new places inside the band.
    driver.execute_script("window.__nodes = new Map([...document.querySelectorAll('.orthogonal-section .cell[data-id]')].map(e => [e.dataset.id, e]))")
    status, _ = post_json(server, "/demos/explore/actions/shuffle", {"section": "new"}, cookie=session_cookie(driver))
    assert status == 200
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'new').items") != first,
               message="the shuffle")
    wait_settled(driver)
    assert driver.execute_script("""
        return [...document.querySelectorAll('.orthogonal-section .cell[data-id]')].every(e => window.__nodes.get(e.dataset.id) === e)""")
    for place in driver.execute_script(PLACES, "new"):
        assert abs(place["dx"]) <= 1 and abs(place["dy"]) <= 1, f"{place} is not at its new frame"
    driver.execute_script("window.scrollTo(0, 0)")
    wait_settled(driver)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "explore.png"))
    assert console_errors(driver) == []
