"""Pinned headers and section backgrounds (docs/protocol.md, "Pinned headers and footers" and
"Decorations"), on Explore: every section header sticks to the top of the viewport while its
section scrolls by and is pushed up by the section's end, where the next header takes over; the
list's rows sit on a card (a decoration) that spans them."""
import pytest

from conftest import SCREENSHOTS
from helpers import console_errors, post_json, session_cookie, wait_for_client, wait_settled, wait_until

# Where things are, in the list's coordinates: the list's top in the document, the viewport,
# and for each section its header's resting frame and its band (from the model, the server's).
GEOMETRY = """
const list = document.getElementById('list'), m = window.diffableWeb.model;
const pins = Object.fromEntries([...(m.pinned ?? new Map()).values()].map(p => [p.id, p]));
const frames = Object.fromEntries([...m.cells.values()].filter(c => c.kind !== 'item').map(c => [c.id, c.frame]));
return {listTop: list.getBoundingClientRect().top + window.scrollY, innerHeight, pins, frames,
        contentHeight: m.contentSize.h};
"""

# The header elements on screen: their rectangles in the viewport.
HEADERS = """
const out = {};
for (const el of document.querySelectorAll('#list > .cell[data-kind="header"][data-id]')) {
  const r = el.getBoundingClientRect();
  out[el.dataset.id] = {top: r.top, bottom: r.bottom, height: r.height, pinned: el.dataset.pinned ?? null,
                        stuck: 'stuck' in el.dataset, role: el.getAttribute('role')};
}
return out;
"""


def scroll_list_to(driver, geometry, offset):
    """Scrolls so that the viewport's top is `offset` px into the list, and waits for the
    client to render there and the server's window to follow."""
    driver.execute_script("window.scrollTo({top: arguments[0], behavior: 'instant'})", geometry["listTop"] + offset)
    wait_until(lambda: abs(driver.execute_script(
        "return -document.getElementById('list').getBoundingClientRect().top") - offset) < 1,
        message=f"the list to scroll to {offset}")
    wait_settled(driver, timeout=20)


def open_explore(driver, server, width):
    driver.set_window_size(width, 900)
    driver.get(f"{server}/demos/explore")
    wait_for_client(driver)
    wait_settled(driver, timeout=20)
    return driver.execute_script(GEOMETRY)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_pinned_header_sticks_and_the_next_one_pushes_it(driver, server, width):
    geometry = open_explore(driver, server, width)
    frames = geometry["frames"]
    featured, new = frames["header:featured"], frames["header:new"]
    # A section's band runs from its header to the next section's header (the last: to the end).
    band = [featured["y"], new["y"]]
    all_band = [frames["header:all"]["y"], geometry["contentHeight"]]

    # Resting: nothing is scrolled, each header is at its own frame.
    headers = driver.execute_script(HEADERS)
    view_top = -driver.execute_script("return document.getElementById('list').getBoundingClientRect().top")
    assert abs(headers["header:featured"]["top"] - (featured["y"] - view_top)) <= 1
    assert not headers["header:featured"]["stuck"]

    # Scrolled into the section: the header stays at the viewport's top while its cards pass under it.
    for offset in (band[0] + 30, (band[0] + band[1] - featured["h"]) / 2):
        scroll_list_to(driver, geometry, offset)
        headers = driver.execute_script(HEADERS)
        assert abs(headers["header:featured"]["top"]) <= 1, f"at {offset}: {headers['header:featured']}"
        assert headers["header:featured"]["stuck"] and headers["header:featured"]["pinned"] == "top"

    # Near the section's end: the end pushes it up, and the next header (at rest) meets its bottom.
    offset = band[1] - featured["h"] / 2
    scroll_list_to(driver, geometry, offset)
    headers = driver.execute_script(HEADERS)
    assert abs(headers["header:featured"]["top"] - (band[1] - featured["h"] - offset)) <= 1, headers["header:featured"]
    assert headers["header:featured"]["top"] < 0, "pushed partly out of the viewport"
    assert abs(headers["header:new"]["top"] - (new["y"] - offset)) <= 1, headers["header:new"]
    assert abs(headers["header:new"]["top"] - headers["header:featured"]["bottom"]) <= 1, "the next header pushes it"

    # Past it: the next header has taken over the top.
    scroll_list_to(driver, geometry, new["y"] + 20)
    headers = driver.execute_script(HEADERS)
    assert abs(headers["header:new"]["top"]) <= 1, headers["header:new"]
    assert headers.get("header:featured") is None or headers["header:featured"]["bottom"] <= 1

    # Deep in the long list, screens below its header's resting place: its header is there, stuck.
    middle = (all_band[0] + all_band[1]) / 2
    scroll_list_to(driver, geometry, middle)
    headers = driver.execute_script(HEADERS)
    assert "header:all" in headers, f"at {middle}, screens below its resting place, the list's header is gone: {sorted(headers)}"
    assert abs(headers["header:all"]["top"]) <= 1, headers["header:all"]
    assert headers["header:all"]["role"] == "listitem", "a header stays a list item for screen readers"
    # It covers the rows that scroll under it: the top row's middle shows the header.
    hit = driver.execute_script("""
        const h = document.querySelector('#list > .cell[data-id="header:all"]').getBoundingClientRect();
        const el = document.elementFromPoint(h.left + 5, h.top + h.height / 2);
        return el && el.closest('.cell') ? el.closest('.cell').dataset.id : null;""")
    assert hit == "header:all", f"{hit} shows over the stuck header"

    # At the list's end, the section's end pushes it up.
    end = all_band[1] - frames["header:all"]["h"] / 2
    scroll_list_to(driver, geometry, min(end, geometry["contentHeight"] - geometry["innerHeight"]))
    view_top = -driver.execute_script("return document.getElementById('list').getBoundingClientRect().top")
    header = driver.execute_script(HEADERS)["header:all"]
    expected = min(0, all_band[1] - frames["header:all"]["h"] - view_top)
    assert abs(header["top"] - expected) <= 1, (header, expected)

    # The protocol's marks: each band as the server states it (docs/protocol.md, `pinned`).
    pins = driver.execute_script(GEOMETRY)["pins"]
    assert pins["header:all"]["edge"] == "top" and abs(pins["header:all"]["band"][0] - all_band[0]) <= 1
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", [390, 1280])
def test_a_section_background_spans_its_rows(driver, server, width):
    geometry = open_explore(driver, server, width)
    seen = False
    for offset in (0, 600, 1500):
        scroll_list_to(driver, geometry, offset)
        found = driver.execute_script("""
            const card = document.querySelector('#list > .cell[data-kind="decoration"][data-section="all"]');
            if (!card) return null;
            const c = card.getBoundingClientRect();
            const rows = [...document.querySelectorAll('#list > .cell[data-kind="item"][data-section="all"]')]
              .map(el => { const r = el.getBoundingClientRect(); return {id: el.dataset.id, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; });
            const row = rows.find(r => r.top > 60 && r.bottom < innerHeight);
            const hit = row ? document.elementFromPoint((row.left + row.right) / 2, (row.top + row.bottom) / 2)?.closest('.cell')?.dataset.id : null;
            return {card: {left: c.left, right: c.right, top: c.top, bottom: c.bottom}, rows, row: row?.id, hit,
                    hidden: card.getAttribute('aria-hidden'), role: card.getAttribute('role'), tabIndex: card.tabIndex,
                    decoration: card.dataset.decoration, radius: parseFloat(getComputedStyle(card).borderTopLeftRadius),
                    background: getComputedStyle(card).backgroundColor};""")
        if offset == 0 and found is None:
            continue  # the list may start below the first screen's window on a short phone
        assert found, f"at {offset}: no section background"
        card, rows = found["card"], found["rows"]
        assert rows, f"at {offset}: no rows"
        for row in rows:
            assert card["left"] - 1 <= row["left"] and row["right"] <= card["right"] + 1, (offset, row, card)
            assert card["top"] - 1 <= row["top"] and row["bottom"] <= card["bottom"] + 1, (offset, row, card)
        assert abs(card["left"] - min(r["left"] for r in rows)) <= 1 and abs(card["right"] - max(r["right"] for r in rows)) <= 1, \
            "the card has the rows' insets"
        assert found["hidden"] == "true" and found["role"] is None and found["tabIndex"] < 0
        assert found["decoration"] == "inset-grouped-card" and found["radius"] > 0
        assert found["background"] not in ("rgba(0, 0, 0, 0)", "transparent")
        if found["row"]:
            assert found["hit"] == found["row"], "the rows are drawn over the card"
        seen = True
    assert seen, "the card was never on screen"
    assert console_errors(driver) == []


def test_dark_mode_and_reduced_motion(driver, server):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    geometry = open_explore(driver, server, 390)
    scroll_list_to(driver, geometry, geometry["frames"]["header:all"]["y"] + 300)
    colors = driver.execute_script("""
        const card = document.querySelector('#list > .cell[data-kind="decoration"]');
        const header = document.querySelector('#list > .cell[data-id="header:all"]');
        return {card: getComputedStyle(card).backgroundColor, page: getComputedStyle(document.documentElement).backgroundColor,
                top: header.getBoundingClientRect().top};""")
    assert colors["card"] != colors["page"], "the card stands out from the page"
    assert abs(colors["top"]) <= 1, "pinning is not motion: it holds with reduced motion too"


def test_a_stuck_header_holds_through_a_change_and_a_reconnect(driver, server):
    geometry = open_explore(driver, server, 390)
    header = geometry["frames"]["header:all"]
    offset = header["y"] + 1200
    scroll_list_to(driver, geometry, offset)
    assert abs(driver.execute_script(HEADERS)["header:all"]["top"]) <= 1

    def card_spans_rows():
        return driver.execute_script("""
            const card = document.querySelector('#list > .cell[data-kind="decoration"][data-section="all"]').getBoundingClientRect();
            return [...document.querySelectorAll('#list > .cell[data-kind="item"][data-section="all"]')].every(el => {
              const r = el.getBoundingClientRect();
              return r.top >= card.top - 1 && r.bottom <= card.bottom + 1 && r.left >= card.left - 1 && r.right <= card.right + 1; });""")

    # A shuffle of the list: its rows slide under the header, which stays where it is.
    before = driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'all').items")
    status, _ = post_json(server, "/demos/explore/actions/shuffle", {"section": "all"}, cookie=session_cookie(driver))
    assert status == 200
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'all').items") != before,
               message="the shuffle")
    wait_settled(driver, timeout=20)
    assert abs(driver.execute_script(HEADERS)["header:all"]["top"]) <= 1
    assert card_spans_rows()

    # A dropped stream: the replay has no window part, the window event after it states the pins again.
    reconnects = driver.execute_script("return window.diffableWeb.stats.reconnects")
    status, _ = post_json(server, "/__test/drop-streams", {})
    assert status in (200, 204)
    wait_until(lambda: driver.execute_script("return window.diffableWeb.stats.reconnects") > reconnects,
               message="the client to notice the dropped stream")
    wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "open", message="the stream to open again")
    wait_settled(driver, timeout=20)
    assert driver.execute_script("return window.diffableWeb.model.pinned.has('header:all')")
    assert abs(driver.execute_script(HEADERS)["header:all"]["top"]) <= 1
    assert card_spans_rows()

    # A change made while the stream is down is replayed (identifiers only), then the window.
    before = driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'all').items")
    post_json(server, "/__test/drop-streams", {})
    post_json(server, "/demos/explore/actions/shuffle", {"section": "all"}, cookie=session_cookie(driver))
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'all').items") != before,
               timeout=20, message="the shuffle made while the stream was down")
    wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "open", message="the stream to open again")
    wait_settled(driver, timeout=20)
    assert driver.execute_script("return window.diffableWeb.model.pinned.has('header:all')")
    assert abs(driver.execute_script(HEADERS)["header:all"]["top"]) <= 1
    assert card_spans_rows()
    assert console_errors(driver) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_screenshot_of_a_stuck_header_over_its_card(driver, server, width, scheme):
    """`explore-pinned-<width>-<scheme>.png`: the list's header stuck at the top, the first row
    half under it, the card's rounded top corners gone under the header (.build/screenshots;
    `DIFFABLE_WEB_SCREENSHOTS=docs/screenshots` for the tracked ones)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    geometry = open_explore(driver, server, width)
    header = geometry["frames"]["header:all"]
    scroll_list_to(driver, geometry, header["y"] + header["h"] + 22)
    assert abs(driver.execute_script(HEADERS)["header:all"]["top"]) <= 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / f"explore-pinned-{width}-{scheme}.png"))
