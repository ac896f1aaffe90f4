"""Layouts that adapt to their container (issue 23): Mountains' columns and Destinations' cards
follow the width, no text of theirs is cut at a phone's or a desktop's width, and a resize
slides the cells to their new frames."""
import re
import urllib.request

import pytest

from helpers import session_cookie, wait_for_client, wait_settled, wait_until

HEIGHT = {390: 844, 640: 900, 960: 900, 1280: 900}


def open_demo(driver, server, demo, width):
    driver.set_window_size(width, HEIGHT[width])
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    wait_settled(driver, timeout=20)
    # The first render was laid out for the viewport the server knew; the stream's first
    # report lays it out for this one.
    wait_until(lambda: driver.execute_script(
        "return window.diffableWeb.reportedViewport()?.width === window.diffableWeb.measure().width"),
        timeout=15, message="the viewport to be reported")
    wait_settled(driver, timeout=20)


# For every cell on screen: the text it cuts (an element whose content overflows its box, an
# ellipsis or a line clamp; text outside the cell), the text elements of one cell that overlap
# (the place under the like button), and the cells that overlap.
PROBLEMS = """
const list = document.getElementById('list');
const cells = [...list.querySelectorAll(':scope > .cell[data-id]')].filter(cell => {
  const r = cell.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.width > 1;
});
const clipped = [], overlapping = [], cellsOverlapping = [];
const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
for (const cell of cells) {
  const box = cell.getBoundingClientRect();
  const texts = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const element = node.parentElement;
    if (!element.checkVisibility({visibilityProperty: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0.5);
    const label = `${cell.dataset.id} ${element.className || element.tagName}: ${node.textContent.trim().slice(0, 40)}`;
    if (rects.some(r => !inside(r, box))) clipped.push(`${label} (outside its cell)`);
    for (let e = element; e && e !== cell; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) clipped.push(`${label} (${e.scrollWidth} > ${e.clientWidth} wide)`);
      if (style.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1) clipped.push(`${label} (${e.scrollHeight} > ${e.clientHeight} high)`);
    }
    texts.push({element, label, rects});
  }
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    if (texts[i].element.contains(texts[j].element) || texts[j].element.contains(texts[i].element)) continue;
    if (texts[i].rects.some(a => texts[j].rects.some(b => meet(a, b)))) overlapping.push(`${texts[i].label} / ${texts[j].label}`);
  }
}
const boxes = cells.map(cell => [cell.dataset.id, cell.getBoundingClientRect()]);
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  if (meet(boxes[i][1], boxes[j][1])) cellsOverlapping.push(`${boxes[i][0]} / ${boxes[j][0]}`);
}
return {cells: cells.length, clipped, overlapping, cellsOverlapping};
"""


def problems_after_scrolling(driver, screens=3):
    """The problems of the first few screens (the longest names are not all on the first)."""
    found = {"cells": 0, "clipped": [], "overlapping": [], "cellsOverlapping": []}
    for screen in range(screens):
        driver.execute_script("window.scrollTo(0, arguments[0] * innerHeight)", screen)
        wait_settled(driver, timeout=20)
        result = driver.execute_script(PROBLEMS)
        for key in found:
            found[key] += result[key]
    return found


@pytest.mark.parametrize("demo,width", [("mountains", 390), ("mountains", 1280),
                                        ("destinations", 390), ("destinations", 640), ("destinations", 1280)])
def test_no_text_is_cut_and_no_cells_overlap(driver, server, demo, width):
    open_demo(driver, server, demo, width)
    found = problems_after_scrolling(driver)
    assert found["cells"] > 3
    assert found["clipped"] == [], f"text cut at {width} px: {found['clipped'][:8]}"
    assert found["overlapping"] == [], f"text over text at {width} px: {found['overlapping'][:8]}"
    assert found["cellsOverlapping"] == [], f"cells over cells at {width} px: {found['cellsOverlapping'][:8]}"


# 640 and 960: the narrowest two and three columns (a 605- and a 925-px list).
@pytest.mark.parametrize("width", [390, 640, 960, 1280])
def test_the_longest_mountain_names_fit(driver, server, width):
    open_demo(driver, server, "mountains", width)
    # "Beinn a' Ghlo - Braigh Coire Chruinn-bhalgain" (45 characters) and its like.
    driver.execute_script("""
        const box = document.querySelector('input[type=search]');
        box.value = ' - ';
        box.dispatchEvent(new Event('input', {bubbles: true}));""")
    wait_until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#list .cell[data-id] .name')].some(n => n.textContent.includes('Chruinn-bhalgain'))"),
        timeout=15, message="the search for ' - '")
    wait_settled(driver, timeout=20)
    found = driver.execute_script(PROBLEMS)
    assert found["cells"] > 3
    assert found["clipped"] == [], f"names cut at {width} px: {found['clipped'][:8]}"
    assert found["overlapping"] == [], f"name over height at {width} px: {found['overlapping'][:8]}"


def columns(driver):
    return driver.execute_script("""
        return new Set([...document.querySelectorAll('#list > .cell[data-id]')]
          .map(cell => Math.round(cell.getBoundingClientRect().left))).size;""")


def test_a_resize_from_desktop_to_phone_slides_mountains_into_one_column(driver, server):
    open_demo(driver, server, "mountains", 1280)
    assert columns(driver) == 3
    before = driver.execute_script("return window.diffableWeb.stats.animations")
    driver.set_window_size(390, HEIGHT[390])
    # The cells slide to their new frames (animations, not a jump), then rest in one column.
    wait_until(lambda: driver.execute_script("return window.diffableWeb.stats.animations") > before + 3,
               timeout=15, message="the cells to slide to their new frames")
    wait_settled(driver, timeout=20)
    assert columns(driver) == 1
    found = driver.execute_script(PROBLEMS)
    assert found["cellsOverlapping"] == [] and found["clipped"] == [], found
    # And back: three columns again.
    driver.set_window_size(1280, HEIGHT[1280])
    wait_until(lambda: columns(driver) == 3, timeout=15, message="three columns again")


def test_the_first_render_uses_the_layout_of_the_known_viewport(driver, server):
    """Once the session's viewport is a phone's, the page (and the page without JavaScript)
    is rendered in one column from its first byte."""
    open_demo(driver, server, "mountains", 390)
    request = urllib.request.Request(f"{server}/demos/mountains", headers={"Cookie": f"dw_session={session_cookie(driver)}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        html = response.read().decode()
    frames = re.findall(r'class="cell item"[^>]*data-frame="([-\d.]+),', html) or \
        re.findall(r'data-kind="item"[^>]*data-frame="([-\d.]+),', html)
    assert len(frames) > 3, "the page has its first screen of cells"
    assert len(set(frames)) == 1, f"one column: x = {sorted(set(frames))}"
