"""Self-sizing cells (issue 23): a cell whose height the layout estimates takes its content's
height; the client reports it (`POST …/measure`), the server lays the list out again and the
client's frames, the DOM and the server's layout endpoint agree. What the person looks at stays
where it is while cells above it change height (scroll anchoring)."""
import pytest

from helpers import api, console_errors, share_id, wait_settled, wait_until

HEIGHT = {390: 844, 1280: 900}

FRAMES_JS = """
const list = document.getElementById('list');
const box = list.getBoundingClientRect();
const model = window.diffableWeb.model;
return [...list.querySelectorAll(':scope > .cell[data-id][data-kind="item"]')]
  .filter(e => e.getAnimations().length === 0)
  .map(e => { const r = e.getBoundingClientRect(); const c = model.cells.get(e.dataset.id);
              return {id: e.dataset.id, fit: e.dataset.fit !== undefined, x: r.left - box.left, y: r.top - box.top,
                      w: r.width, h: r.height, model: c ? c.frame : null}; });
"""


def add_rule(driver, rule):
    """Adds a CSS rule to the page's own style sheet (the CSP allows no inline <style>)."""
    driver.execute_script("const sheet = document.styleSheets[0]; sheet.insertRule(arguments[0], sheet.cssRules.length);", rule)


def open_page(driver, server, demo, width):
    driver.set_window_size(width, HEIGHT[width])
    driver.get(f"{server}/demos/{demo}")
    wait_until(lambda: driver.execute_script("return !!(window.diffableWeb && window.diffableWeb.model.stream)"),
               message="the stream")
    wait_settled(driver)


def type_and_settle(driver, field, text):
    """Types `text` into the search field, waits for the list to state that query (its event
    arrived: a loaded machine may answer after the page looked settled), then for the page to
    settle."""
    field.send_keys(text)
    wait_until(lambda: driver.execute_script(
        "return (window.diffableWeb.state() || {}).query === arguments[0].value", field),
        message="the list to answer the query")
    wait_settled(driver)


def server_layout(driver, server, demo):
    viewport = driver.execute_script("return window.diffableWeb.reportedViewport()")
    status, body = api(server, "GET", f"/api/sessions/{share_id(driver)}/demos/{demo}/layout"
                                      f"?width={viewport['width']}&height={viewport['height']}")
    assert status == 200, body
    return body, {cell["id"]: cell for cell in body["cells"]}


def assert_frames_agree(driver, server, demo):
    """Every item cell in the DOM is where the server's layout endpoint puts it, within 1 px,
    and so is the client's model; self-sizing cells are at their measured size."""
    body, server_cells = server_layout(driver, server, demo)
    shown = driver.execute_script(FRAMES_JS)
    assert shown, "cells on screen"
    for cell in shown:
        expected = server_cells[cell["id"]]["frame"]
        for key in ("x", "y", "w", "h"):
            assert abs(cell[key] - expected[key]) <= 1, f"{demo} {cell['id']}: DOM {key}={cell[key]} (model {cell['model']}) vs server {expected}"
            assert abs(cell["model"][key] - expected[key]) <= 1, f"{demo} {cell['id']}: model {cell['model']} vs server {expected}"
        if cell["fit"]:
            assert server_cells[cell["id"]].get("fit") is True
    list_height = driver.execute_script("return document.getElementById('list').offsetHeight")
    assert abs(list_height - body["contentSize"]["h"]) <= 1, f"{demo}: list {list_height} px vs content {body['contentSize']}"
    return shown, server_cells


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("demo", ["mountains", "destinations", "numbers"])
def test_self_sizing_cells_match_the_servers_layout(driver, server, demo, width):
    open_page(driver, server, demo, width)
    shown, server_cells = assert_frames_agree(driver, server, demo)
    assert all(cell["fit"] for cell in shown), f"{demo}: every item sizes itself"
    assert console_errors(driver) == []


def test_destination_cards_take_their_contents_height(driver, server):
    """The estimate (226 px on a phone) is only a guess: each card is as tall as its picture,
    title and place, measured, and the server's frames say so."""
    open_page(driver, server, "destinations", 390)
    shown, server_cells = assert_frames_agree(driver, server, "destinations")
    measured = [server_cells[c["id"]] for c in shown if server_cells[c["id"]].get("measured")]
    assert measured, "the server knows the measured cards"
    assert all(abs(cell["frame"]["h"] - 226) > 0.5 for cell in measured), "cards measured, not estimated"


def test_a_taller_cell_pushes_the_next_and_the_view_stays_put(driver, server):
    """Cells above the viewport grow (a style change makes every card taller): the server moves
    what follows, and the first card the person sees keeps its place on screen."""
    open_page(driver, server, "destinations", 390)
    driver.execute_script("window.scrollTo(0, 2400)")
    wait_settled(driver)
    # The first card the person sees (the top one, maybe partly scrolled away): it keeps its place.
    anchor = driver.execute_script("""
        const cells = [...document.querySelectorAll('#list > .cell[data-kind="item"]')]
          .map(e => [e.dataset.id, e.getBoundingClientRect().top, e.getBoundingClientRect().bottom])
          .filter(([, , bottom]) => bottom > 0).sort((a, b) => a[1] - b[1]);
        return cells[0];""")
    before_height = driver.execute_script("return window.diffableWeb.model.contentSize.h")
    add_rule(driver, 'body[data-demo="destinations"] .cell .post-text { padding-bottom: 40px !important; }')
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.contentSize.h") > before_height + 100,
               message="the taller cards measured and laid out")
    wait_settled(driver)
    top = driver.execute_script("return document.querySelector(`#list > .cell[data-id=\"${arguments[0]}\"]`)?.getBoundingClientRect().top",
                                anchor[0])
    assert top is not None and abs(top - anchor[1]) <= 2, f"{anchor[0]} was at {anchor[1]} px, now at {top} px"
    assert_frames_agree(driver, server, "destinations")
    assert console_errors(driver) == []


def test_scrolling_ten_thousand_self_sizing_rows(driver, server):
    """10,000 Numbers rows of which every seventh is taller (a style keyed on the id): at 0%,
    33%, 66% and 100% the cells shown are the server's for that offset, at their measured
    frames, and the content size is exact."""
    open_page(driver, server, "numbers", 390)
    cookie = driver.get_cookie("dw_session")["value"]
    from helpers import post_json
    status, body = post_json(server, "/demos/numbers/actions/append", {"count": 10000}, cookie=cookie)
    assert status == 200, body
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.itemCount") >= 10000, timeout=20,
               message="10,000 rows")
    add_rule(driver, '#list > .cell[data-kind="item"][data-id$="7"] { min-height: 80px; }')
    wait_settled(driver, timeout=20)
    for fraction in (0, 0.33, 0.66, 1.0):
        driver.execute_script("window.scrollTo(0, arguments[0] * (document.documentElement.scrollHeight - innerHeight))", fraction)
        wait_settled(driver, timeout=20)
        shown, server_cells = assert_frames_agree(driver, server, "numbers")
        tall = [c for c in shown if c["id"].endswith("7")]
        assert tall and all(c["h"] >= 79 for c in tall), f"at {fraction:.0%}: the rows ending in 7 are 80 px: {tall[:2]}"
        # The right cells: every server cell meeting the viewport is in the DOM.
        view = driver.execute_script("""const box = document.getElementById('list').getBoundingClientRect();
            return {top: -box.top, bottom: -box.top + innerHeight};""")
        expected = {id for id, c in server_cells.items() if c["kind"] == "item"
                    and c["frame"]["y"] < view["bottom"] and c["frame"]["y"] + c["frame"]["h"] > view["top"]}
        assert expected <= {c["id"] for c in shown}, f"at {fraction:.0%}: missing {sorted(expected - {c['id'] for c in shown})[:5]}"
    assert console_errors(driver) == []


OVERLAPS_JS = """
const cells = [...document.querySelectorAll('#list > .cell[data-id][data-kind="item"]')].map(e => [e.dataset.id, e.getBoundingClientRect()]);
const overlaps = [];
for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) {
  const a = cells[i][1], b = cells[j][1];
  if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
    overlaps.push([cells[i][0], cells[j][0], Math.round(a.top), Math.round(b.top)]);
}
return overlaps;
"""


# Watches every animation frame while typing: pairs of visible cells (opacity over one half)
# that overlap while at least one of them is a cell of the list (not one leaving the window).
OVERLAP_WATCH_JS = """
window.__overlaps = []; window.__frames = 0; window.__watching = true;
const view = window.diffableWeb.view;
const watch = () => {
  const cells = [...document.querySelectorAll('#list > .cell[data-id][data-kind="item"]:not(.leaving)')]
    .filter(e => parseFloat(getComputedStyle(e).opacity) > 0.5)
    .map(e => [e.dataset.id, e.getBoundingClientRect(), view.elements.get(e.dataset.id) === e]);
  for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) {
    const a = cells[i][1], b = cells[j][1];
    if ((cells[i][2] || cells[j][2]) && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      window.__overlaps.push([cells[i][0], cells[j][0], Math.round(a.top), Math.round(b.top)]);
  }
  window.__frames += 1;
  if (window.__watching) requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
"""


@pytest.mark.parametrize("width", [390, 1280])
def test_typing_into_mountains_overlaps_no_cell_while_it_animates(driver, server, width):
    """On no frame of a keystroke's animations does a cell of the list cover another, on a
    phone (one column) or a desktop (three columns). In one column the moves keep the list's
    order, so they slide; in a grid a cell whose slide would cross another visible cell (one
    moving to another row, say) fades out where it was and in where it goes instead (a cell
    that was still to fade in when the next keystroke moved it fades in at its new place; one
    never seen that left the window goes at once). Cells sliding out of the window may pass
    each other on their way out."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    open_page(driver, server, "mountains", width)
    field = driver.find_element(By.ID, "search")
    driver.execute_script(OVERLAP_WATCH_JS)
    for text in ("mo", Keys.BACKSPACE * 2, "ben", Keys.BACKSPACE, "a"):
        type_and_settle(driver, field, text)
    frames, overlaps = driver.execute_script("window.__watching = false; return [window.__frames, window.__overlaps]")
    assert frames > 10, "the watch ran through the animations"
    assert overlaps == [], f"{len(overlaps)} overlapping frame-pairs, e.g. {overlaps[:5]}"
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", [390, 1280])
def test_typing_into_mountains_leaves_no_cell_overlapping(driver, server, width):
    """Type, delete and type again: once each keystroke's animation is over, no two cells
    overlap and every cell is at the server's frame. (While cells slide, one that leaves the
    window may pass over another, as in UIKit's batch updates.)"""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    open_page(driver, server, "mountains", width)
    field = driver.find_element(By.ID, "search")
    for text in ("mo", Keys.BACKSPACE * 2, "ben", Keys.BACKSPACE, "a"):
        type_and_settle(driver, field, text)
        overlaps = driver.execute_script(OVERLAPS_JS)
        assert overlaps == [], f"at {width} px after {text!r}: {overlaps[:5]}"
    assert_frames_agree(driver, server, "mountains")
    assert console_errors(driver) == []
