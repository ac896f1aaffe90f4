"""Insertion sort (Apple's "Insertion Sort Visualization"): started, every row sorts one
insertion at a time; each step reaches the page as a changeset of moves only, animated; once
every row ascends, a shuffle comes without animation. Checked at a phone's and a desktop's
width, from the events the page receives and the rows it shows."""
import pytest
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS
from helpers import console_errors, open_emulated, wait_until

NODES = 12
SIZES = {390: 844, 1280: 900}

# Runs before the page's own scripts: keeps every changeset the page's EventSource receives
# (what it carried, not how the client drew it), and, when an event says every row is sorted,
# the rows as the client holds them and as the page draws them, once the client has applied it
# (a task after the event's dispatch: the client applies and renders synchronously).
RECORD_EVENTS_JS = """
window.__changesets = [];
window.__sortedRows = null;
const ids = (runs) => (runs || []).flatMap((run) => run.ids);
const drawnRows = () => {
  const rows = {};
  for (const cell of document.querySelectorAll('#list > .cell[data-kind="item"]')) {
    const x = new DOMMatrixReadOnly(cell.style.transform).m41;  // the cell's frame (an animation ends there)
    (rows[cell.dataset.section] ||= []).push([x, cell.dataset.id]);
  }
  return Object.fromEntries(Object.entries(rows).map(([row, cells]) => [row, cells.sort((a, b) => a[0] - b[0]).map((c) => c[1])]));
};
const listen = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, listener, options) {
  if (type === 'changeset') {
    listen.call(this, type, (event) => {
      const data = JSON.parse(event.data);
      window.__changesets.push({animated: data.animated, status: data.status, moved: ids(data.moved),
                                inserted: ids(data.inserted), deleted: data.deleted || [],
                                updated: (data.updated || []).length, sections: !!data.sections});
      if ((data.status || '').startsWith('Sorted') && !window.__sortedRows) {
        setTimeout(() => {
          const model = window.diffableWeb.model;
          window.__sortedRows = {model: Object.fromEntries(model.sections.map((s) => [s.id, s.items])), drawn: drawnRows()};
        });
      }
    });
  }
  return listen.call(this, type, listener, options);
};
"""


def value(node):
    """The value of a node id: row-3-node-7 → 7."""
    return int(node.rsplit("-", 1)[1])


def open_sort(driver, server, width, reduced_motion=False):
    open_emulated(driver, f"{server}/demos/insertion-sort", width, SIZES[width], reduced_motion, RECORD_EVENTS_JS)


def press(driver, action):
    driver.find_element(By.CSS_SELECTOR, f'form[data-action="{action}"] button').click()


def sort_once(driver):
    """Presses Start and waits for the page to receive the shuffle that follows the sorted rows;
    then Stop. Returns the changesets received meanwhile."""
    press(driver, "start")
    wait_until(lambda: driver.execute_script("return window.__changesets.some((c) => c.animated === false)"),
               timeout=60, message="the rows to sort and the shuffle that follows")
    press(driver, "stop")
    wait_until(lambda: driver.find_element(By.ID, "status").text.startswith("Stopped"), message="the sort to stop")
    return driver.execute_script("return window.__changesets")


@pytest.mark.parametrize("width", SIZES)
def test_rows_sort_with_moves_only_then_reshuffle_without_animation(driver, server, width):
    open_sort(driver, server, width)
    assert driver.find_element(By.ID, "status").text == "Stopped"
    labels = driver.execute_script(
        "return [...document.querySelectorAll('#list .sort-node')].map((n) => n.getAttribute('aria-label'))")
    assert labels and all(label.endswith(tuple(f", row {r}" for r in range(1, 17))) and f" of {NODES}," in label
                          for label in labels), labels[:3]
    animations = driver.execute_script("return window.diffableWeb.stats.animations")
    changesets = sort_once(driver)

    shuffle_at = next(i for i, c in enumerate(changesets) if c["animated"] is False)
    steps = [c for c in changesets[:shuffle_at] if c["moved"]]
    assert 1 <= len(steps) <= NODES - 1, f"{len(steps)} steps"
    for step in steps:
        assert step["animated"] is True
        assert step["deleted"] == [] and step["inserted"] == [] and step["updated"] == 0 and not step["sections"], step
        rows = [node.rsplit("-node-", 1)[0] for node in step["moved"]]
        assert len(set(rows)) == len(rows), f"one node a row: {step['moved']}"
    # Start's own event carries the state only: no identifier at all.
    assert all(not c["deleted"] and not c["inserted"] for c in changesets[:shuffle_at])
    shuffle = changesets[shuffle_at]
    assert shuffle["deleted"] == [] and shuffle["inserted"] == [] and shuffle["moved"], "the shuffle moves the same nodes"
    assert driver.execute_script("return window.diffableWeb.stats.animations") > animations, "the steps animated"

    sorted_rows = driver.execute_script("return window.__sortedRows")
    assert sorted_rows, "the page received the sorted rows"
    for source in ("model", "drawn"):
        rows = sorted_rows[source]
        assert len(rows) == 16, f"{source}: {len(rows)} rows"
        for row, nodes in rows.items():
            assert [value(node) for node in nodes] == list(range(NODES)), f"{source} {row}: {nodes}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / f"insertion-sort-stopped-{width}.png"))
    assert console_errors(driver) == []


def test_reduced_motion_sorts_without_animating(driver, server):
    """With prefers-reduced-motion the same steps arrive, and no node moves on screen: each
    lands at its new place at once."""
    open_sort(driver, server, 390, reduced_motion=True)
    animations = driver.execute_script("return window.diffableWeb.stats.animations")
    changesets = sort_once(driver)
    assert any(c["moved"] and c["animated"] for c in changesets), "the server still says the steps animate"
    assert driver.execute_script("return window.diffableWeb.stats.animations") == animations
    assert console_errors(driver) == []
