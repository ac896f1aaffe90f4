"""List appearances (Apple's Lists › List Appearances): one emoji list switched live among UIKit's
five appearances with the page's segmented control. At a phone's and a desktop's width, after
each switch: the rows on screen are still in the DOM, and every row the page held is the same
element (a relayout re-creates none; rows the new frames take past the client's margin leave), at
their new frames (inset grouped inset 20 px from the list's edges, sidebar 10, the others edge to
edge), on the section backgrounds the layout gives (a band, a rounded card, or unseen), with the
pressed option and the body's `data-appearance` following; animated, or not at all under
prefers-reduced-motion; no console errors."""
import pytest
from selenium.webdriver.common.by import By

from helpers import console_errors, open_emulated, wait_settled, wait_until

SIZES = {390: 844, 1280: 900}
ALL_IDS = ["grinning-face", "face-with-tears-of-joy", "smiling-face-with-heart-eyes", "thinking-face", "sleeping-face",
           "partying-face", "dog-face", "cat-face", "fox", "panda", "koala", "penguin", "red-apple", "croissant", "pizza",
           "taco", "sushi", "doughnut", "soccer-ball", "basketball", "tennis", "bowling", "artist-palette", "video-game",
           "automobile", "bicycle", "locomotive", "rocket", "mount-fuji", "statue-of-liberty"]
# From the default (plain) through every other appearance and back.
ORDER = ["insetGrouped", "sidebar", "grouped", "sidebarPlain", "plain"]
INSET = {"plain": 0, "grouped": 0, "insetGrouped": 20, "sidebar": 10, "sidebarPlain": 0}
# Whether a section's background shows (the layout gives one to every section in every appearance).
SHOWS_BACKGROUND = {"grouped", "insetGrouped"}

# Runs before the page's scripts: notes every cell the client animates (Web Animations).
RECORD_ANIMATIONS_JS = """
window.__animated = new Set();
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.dataset && this.dataset.id) window.__animated.add(this.dataset.id);
  return animate.apply(this, args);
};
"""

# Marks every row element in the DOM with its id; returns the ids, and those on screen.
MARK_JS = """
const held = [], onScreen = [];
for (const cell of document.querySelectorAll('#list > .cell[data-kind="item"]')) {
  cell.__marked = cell.dataset.id;
  held.push(cell.dataset.id);
  const box = cell.getBoundingClientRect();
  if (box.bottom > 0 && box.top < innerHeight) onScreen.push(cell.dataset.id);
}
return {held, onScreen};
"""

# Every row in the DOM: its id, whether it is the element marked before the first switch, and
# its box relative to the list's.
ROWS_JS = """
const list = document.getElementById('list').getBoundingClientRect();
return [...document.querySelectorAll('#list > .cell[data-kind="item"]')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return {id: cell.dataset.id, marked: cell.__marked === cell.dataset.id, left: box.left - list.left,
          right: list.right - box.right, radius: getComputedStyle(cell).borderTopLeftRadius};
});
"""


def open_list(driver, server, width, reduced_motion=False):
    open_emulated(driver, f"{server}/demos/list-appearances", width, SIZES[width], reduced_motion, RECORD_ANIMATIONS_JS)


def switch(driver, style):
    """Presses the style's option and waits until the page shows it: the option pressed, the
    body's appearance, and no animation left."""
    driver.execute_script("window.__animated.clear()")
    driver.find_element(By.CSS_SELECTOR, f'button[data-state-key="appearance"][data-state-value="{style}"]').click()
    wait_until(lambda: driver.execute_script("return document.body.dataset.appearance") == style,
               timeout=15, message=f"the {style} appearance")
    wait_settled(driver)


@pytest.mark.parametrize("width", sorted(SIZES))
def test_every_appearance_keeps_the_rows_and_moves_them(driver, server, width):
    open_list(driver, server, width)
    assert driver.execute_script("return document.body.dataset.appearance") == "plain", "a new list opens plain"
    ids = driver.execute_script("return [...document.querySelectorAll('#list > .cell[data-kind=\"item\"]')].map((c) => c.dataset.id)")
    assert len(ids) >= 20, f"the rows of two screens are in the DOM: {ids}"
    if width == 390:
        assert driver.execute_script("""
            const list = document.getElementById('list').getBoundingClientRect();
            return list.left === 0 && list.right === document.documentElement.clientWidth;"""), "the list is full-bleed on a phone"

    for style in ORDER:
        # Marks the rows in the DOM, and notes those on screen: a switch keeps them all.
        before = driver.execute_script(MARK_JS)
        switch(driver, style)
        pressed = driver.execute_script("""
            return [...document.querySelectorAll('button[data-state-key="appearance"]')]
              .filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.dataset.stateValue);""")
        assert pressed == [style]

        rows = driver.execute_script(ROWS_JS)
        present = {row["id"] for row in rows}
        assert set(before["onScreen"]) <= present, f"{style}: rows on screen left the DOM: {set(before['onScreen']) - present}"
        assert present <= set(ALL_IDS)
        recreated = [row["id"] for row in rows if row["id"] in before["held"] and not row["marked"]]
        assert not recreated, f"{style}: rows re-created instead of moved: {recreated}"
        inset = INSET[style]
        off = [row for row in rows if abs(row["left"] - inset) > 1 or abs(row["right"] - inset) > 1]
        assert not off, f"{style}: rows {inset} px from the list's edges, not {off[:3]}"
        if style == "sidebar":
            assert all(row["radius"] == "10px" for row in rows), "a sidebar's rows are rounded"
        elif style != "sidebarPlain":
            assert all(row["radius"] == "0px" for row in rows)

        backgrounds = driver.execute_script("""
            return [...document.querySelectorAll('#list > .cell[data-kind="decoration"]')].map((d) => {
              const box = d.getBoundingClientRect(), list = document.getElementById('list').getBoundingClientRect();
              const style = getComputedStyle(d);
              return {kind: d.dataset.decoration, left: box.left - list.left, radius: style.borderTopLeftRadius,
                      shows: style.backgroundColor !== 'rgba(0, 0, 0, 0)'};
            });""")
        assert [b["kind"] for b in backgrounds] == ["list-section"] * 5, f"{style}: one background a section: {backgrounds}"
        assert all(abs(b["left"] - inset) <= 1 for b in backgrounds), f"{style}: backgrounds behind the rows: {backgrounds}"
        assert all(b["shows"] == (style in SHOWS_BACKGROUND) for b in backgrounds), f"{style}: {backgrounds}"
        assert all((b["radius"] != "0px") == (style == "insetGrouped") for b in backgrounds), f"{style}: {backgrounds}"

        animated = driver.execute_script("return [...window.__animated]")
        assert set(before["onScreen"]) <= set(animated), f"{style}: every row on screen glides to its new frame ({len(animated)} animated)"

    assert console_errors(driver) == []


def test_reduced_motion_switches_without_animation(driver, server):
    open_list(driver, server, 390, reduced_motion=True)
    for style in ["insetGrouped", "sidebar"]:
        switch(driver, style)
        assert driver.execute_script("return [...window.__animated]") == [], f"{style}: nothing animates"
        rows = driver.execute_script(ROWS_JS)
        assert all(abs(row["left"] - INSET[style]) <= 1 for row in rows)
    assert console_errors(driver) == []
