"""Every demo page, as a person sees it (issue 23): each demo linked from `/`, at a phone's
390×844 and a desktop's 1280×900 in light mode and at 390×844 in dark mode, once the page has
settled, then scrolled to a third, two thirds and its end. For every cell in the DOM:

- no text is clipped or cut short (an element that hides its overflow holds all of its text, an
  ellipsis or a line clamp included, and every line of text lies inside its cell);
- no two text elements or controls of one cell overlap;
- no two cells overlap (decorations lie behind their section and pinned headers float over it,
  by design: they are left out);
- every control lies inside its cell;
- the cell's frame in the DOM is the server's layout (`GET /api/sessions/{id}/demos/{demo}/layout`
  for the viewport the page reported) within 1 px.

One page load per page, size and scheme serves every check (they are separate tests so that each
reads as one expectation and can be marked on its own). A demo the index links that PAGES does not
name is checked too, in one test of its own, so a new demo is never left out."""
import re
import urllib.parse
import urllib.request

import pytest

from conftest import SCREENSHOTS, make_driver
from helpers import api, read_snapshot, session_cookie, share_id, wait_for_client, wait_settled, wait_until

SIZES = {"390": (390, 844, "light"), "1280": (1280, 900, "light"), "390-dark": (390, 844, "dark")}

# The pages checked, "demo" or "demo-state": every demo of the index, and the states that show
# what the first screen does not: Mountains searched for " - " (the longest names), Numbers and
# Editing in editing mode (each row's accessories, Numbers' ↑/↓ buttons), Photos in each of its other layouts, Outline opened down to the rows of its longest names (level 3,
# indented most). A demo the index links that is not named here is checked by
# test_the_index_links_no_demo_left_unchecked.
PAGES = ["mountains", "mountains-longest", "numbers", "numbers-editing", "photos", "photos-list",
         "photos-leftOneRightThree", "photos-grid", "urls", "destinations", "explore", "outline", "outline-open",
         "insertion-sort", "list-appearances", "list-appearances-insetGrouped", "list-appearances-sidebar",
         "editing", "editing-editing", "wifi"]
# The states a page name may end in ("photos-grid"); any other name is a demo's alone, hyphens
# and all ("insertion-sort").
STATES = {"longest", "editing", "list", "leftOneRightThree", "grid", "open", "insetGrouped", "sidebar"}

# Outline's bands that hold its longest names ("Beinn a' Ghlo - Braigh Coire Chruinn-bhalgain",
# 1,070 m; "Buachaille Etive Beag - Stob Coire Raineach", 925 m), parents first and the lowest
# first, so that each row is on screen (in the DOM) when it is opened.
OUTLINE_OPEN = ("h0-999", "h900-999", "h1000-1999", "h1000-1099")

CHECKS = ("clipped", "overlapping", "cellsOverlapping", "controlsOutside", "frames")

# Text taller than its fixed or estimated frame, which only self-sizing cells (the client
# measures them, the server lays out again) can fix; every other expectation holds today.
NEEDS_SELF_SIZING = set()


def demo_and_state(page):
    """"photos-grid" is Photos in its grid layout; "insertion-sort" is a demo."""
    demo, _, state = page.rpartition("-")
    return (demo, state) if demo and state in STATES else (page, "")


def demos_on_the_index(server):
    with urllib.request.urlopen(server + "/", timeout=30) as response:
        html = response.read().decode()
    return sorted(set(re.findall(r'href="/demos/([a-z0-9-]+)"', html)))


def show(driver, width, height, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def settle(driver):
    """Until the server's window is laid out for this viewport, no animation runs and the
    pictures on screen are in (a placeholder shimmers: an animation)."""
    wait_until(lambda: driver.execute_script(
        "return window.diffableWeb.reportedViewport()?.width === window.diffableWeb.measure().width"),
        timeout=20, message="the viewport to be reported")
    wait_until(lambda: driver.execute_script("""
        return ![...document.querySelectorAll('#list .placeholder')].some(p => {
            const r = p.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })"""),
               timeout=20, message="the placeholders on screen to be replaced")
    wait_settled(driver, timeout=20)


def open_page(driver, server, page, width, height, scheme):
    demo, state = demo_and_state(page)
    show(driver, width, height, scheme)
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    settle(driver)
    if state == "longest":
        driver.execute_script("""
            const box = document.querySelector('input[type=search]');
            box.value = ' - ';
            box.dispatchEvent(new Event('input', {bubbles: true}));""")
        wait_until(lambda: driver.execute_script(
            "return window.diffableWeb.model.itemOrder().length < 100"), timeout=15, message="the search for ' - '")
    elif demo in ("photos", "list-appearances") and state:
        key = "layout" if demo == "photos" else "appearance"
        selector = f'button[data-state-key="{key}"][data-state-value="{state}"]'
        driver.find_element("css selector", selector).click()
        wait_until(lambda: driver.execute_script(
            "return document.querySelector(arguments[0]).getAttribute('aria-pressed') === 'true'", selector),
                   timeout=15, message=f"the {state} layout")
        if demo == "list-appearances":  # the event that brings the frames sets the body's appearance
            wait_until(lambda: driver.execute_script("return document.body.dataset.appearance") == state,
                       timeout=15, message=f"the {state} appearance")
    elif state == "editing":
        driver.find_element("id", "edit-toggle").click()
        wait_until(lambda: driver.execute_script("return document.body.classList.contains('editing')"),
                   message="edit mode")
    elif state == "open":
        for band in OUTLINE_OPEN:
            selector = f'#list .cell[data-id="{band}"] .disclosure button'
            wait_until(lambda: driver.execute_script("return !!document.querySelector(arguments[0])", selector),
                       message=f"{band}'s row")
            driver.execute_script("document.querySelector(arguments[0]).click()", selector)
            wait_until(lambda: driver.execute_script(
                "return document.querySelector(arguments[0])?.getAttribute('aria-expanded') === 'true'", selector),
                       timeout=15, message=f"{band} expanded")
    settle(driver)


# What the page shows: for every cell in the DOM its frame relative to the list's content box
# (a sideways band's cells at their band's scroll offset 0, as the server gives them), and the
# problems of its text and controls.
INSPECT = """
const list = document.getElementById('list');
const listBox = list.getBoundingClientRect();
const origin = {x: listBox.left + list.clientLeft, y: listBox.top + list.clientTop};
const model = window.diffableWeb.model;
const fmt = (r) => `${Math.round(r.left - origin.x)},${Math.round(r.top - origin.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
const shown = (e) => { const r = e.getBoundingClientRect(); return e.checkVisibility({visibilityProperty: true, opacityProperty: true}) && r.width > 1 && r.height > 1; };
const CONTROLS = 'button, input:not([type=hidden]), select, textarea, a[href]';
const cells = [], clipped = [], overlapping = [], controlsOutside = [];
for (const cell of list.querySelectorAll('.cell[data-id]:not(.leaving)')) {
  const id = cell.dataset.id, box = cell.getBoundingClientRect();
  const band = cell.parentElement.classList.contains('orthogonal-section') ? cell.parentElement : null;
  cells.push({id, kind: cell.dataset.kind, pinned: cell.dataset.pinned ?? null,
              x: box.left - origin.x + (band ? band.scrollLeft : 0), y: box.top - origin.y, w: box.width, h: box.height});
  if (cell.dataset.kind === 'decoration') continue;
  const parts = []; // text nodes and controls: what must not overlap
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const element = node.parentElement;
    if (!shown(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5);
    const label = `${element.className || element.tagName.toLowerCase()} "${node.textContent.trim().slice(0, 40)}"`;
    const out = rects.find(r => !inside(r, box));
    if (out) clipped.push({id, what: `${label} runs out of its cell: line at ${fmt(out)}, cell at ${fmt(box)}`});
    for (let e = element; e && e !== cell; e = e.parentElement) {
      const style = getComputedStyle(e);
      const name = e.className || e.tagName.toLowerCase();
      if (style.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
        clipped.push({id, what: `${label} cut by ${name}: ${e.scrollWidth} px of text in ${e.clientWidth} px wide${style.textOverflow === 'ellipsis' ? ' (ellipsis)' : ''}`});
      if (style.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1)
        clipped.push({id, what: `${label} cut by ${name}: ${e.scrollHeight} px of text in ${e.clientHeight} px high`});
      if (style.webkitLineClamp && style.webkitLineClamp !== 'none')
        clipped.push({id, what: `${label} clamped by ${name} to ${style.webkitLineClamp} lines`});
    }
    parts.push({element, label, rects});
  }
  for (const control of cell.querySelectorAll(CONTROLS)) {
    if (!shown(control)) continue;
    const r = control.getBoundingClientRect();
    const label = `${control.tagName.toLowerCase()} "${(control.getAttribute('aria-label') || control.textContent).trim().slice(0, 40)}"`;
    if (!inside(r, box)) controlsOutside.push({id, what: `${label} at ${fmt(r)}, its cell at ${fmt(box)}`});
    parts.push({element: control, label, rects: [r]});
  }
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = parts[i], b = parts[j];
    if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
    for (const ra of a.rects) {
      const rb = b.rects.find(r => meet(ra, r));
      if (rb) { overlapping.push({id, what: `${a.label} at ${fmt(ra)} / ${b.label} at ${fmt(rb)}`}); break; }
    }
  }
}
// Cells over cells: items and headers (a decoration lies behind its section by design; a pinned
// header floats over the cells that scroll under it).
const cellsOverlapping = [];
const solid = [...list.querySelectorAll('.cell[data-id]:not(.leaving)')]
  .filter(c => c.dataset.kind !== 'decoration' && c.dataset.pinned === undefined)
  .map(c => [c.dataset.id, c.getBoundingClientRect()]);
for (let i = 0; i < solid.length; i++) for (let j = i + 1; j < solid.length; j++) {
  if (meet(solid[i][1], solid[j][1])) cellsOverlapping.push({id: solid[i][0], what: `at ${fmt(solid[i][1])} / ${solid[j][0]} at ${fmt(solid[j][1])}`});
}
const viewport = window.diffableWeb.reportedViewport();
return {version: model.version, moving: document.getAnimations().length > 0, cells, clipped, overlapping, cellsOverlapping, controlsOutside,
        pins: Object.fromEntries([...model.pinned].map(([id, pin]) => [id, pin])),
        scrollTop: -listBox.top, innerHeight, viewport: {width: viewport.width, height: viewport.height}};
"""


def pinned_y(frame, pin, scroll_top, viewport_height):
    """Where a pinned header or footer is drawn (Public/js/pinned.js; docs/protocol.md)."""
    low, high = pin["band"]
    if pin["edge"] == "bottom":
        return max(low, min(frame["y"], scroll_top + viewport_height - frame["h"]))
    return max(frame["y"], min(scroll_top, high - frame["h"]))


def server_layout(base, share, demo, viewport):
    query = urllib.parse.urlencode({"width": viewport["width"], "height": viewport["height"]})
    status, layout = api(base, "GET", f"/api/sessions/{share}/demos/{demo}/layout?{query}")
    assert status == 200, f"GET layout answered {status}: {layout}"
    return layout


def frame_mismatches(layout, seen, decorations):
    """The cells whose DOM frame is not the server's layout for the viewport the page reported.
    The layout endpoint lists items, headers and footers; a decoration's frame is the one a fresh
    stream of the session gives for that viewport (`decorations`)."""
    frames = {cell["id"]: cell["frame"] for cell in layout["cells"]} | decorations
    wrong = []
    for cell in seen["cells"]:
        frame = frames.get(cell["id"])
        if frame is None:
            wrong.append({"id": cell["id"], "what": "is not in the server's layout"})
            continue
        expected = dict(frame)
        pin = seen["pins"].get(cell["id"])
        if pin:
            expected["y"] = pinned_y(frame, pin, seen["scrollTop"], seen["innerHeight"])
        off = {key: round(cell[key] - expected[key], 1) for key in ("x", "y", "w", "h") if abs(cell[key] - expected[key]) > 1}
        if off:
            dom = ",".join(f"{cell[k]:g}" for k in ("x", "y", "w", "h"))
            server = ",".join(f"{expected[k]:g}" for k in ("x", "y", "w", "h"))
            wrong.append({"id": cell["id"], "what": f"DOM {dom} ≠ server {server} (off by {off})"})
    return wrong


def inspect(driver, base, demo, where):
    share = share_id(driver)
    for _ in range(5):
        seen = driver.execute_script(INSPECT)
        layout = server_layout(base, share, demo, seen["viewport"])
        if layout["version"] == seen["version"] and not seen["moving"]:
            break
        settle(driver)  # the list changed in between (the URL stream's next batch): look again
    assert layout["version"] == seen["version"] and not seen["moving"], \
        f"{demo} kept changing: the page at {seen['version']}, the server at {layout['version']}"
    found = {check: [dict(finding, where=where) for finding in seen[check]] for check in CHECKS if check != "frames"}
    decorations = {}
    if any(cell["kind"] == "decoration" for cell in seen["cells"]):
        viewport = seen["viewport"]
        stream = read_snapshot(base, session_cookie(driver), demo, viewport["width"], viewport["height"],
                               top=max(0, round(seen["scrollTop"])))
        decorations = {cell["id"]: cell["frame"] for cell in stream["cells"] if cell.get("kind") == "decoration"}
    found["frames"] = [dict(finding, where=where) for finding in frame_mismatches(layout, seen, decorations)]
    found["cells"] = len(seen["cells"])
    return found


def check_page(base, page, size):
    """Opens the page at the size, inspects it at the top, a third and two thirds down and at its
    end, and returns the findings by check (each names the place, the cell and the numbers)."""
    width, height, scheme = SIZES[size]
    demo, _ = demo_and_state(page)
    driver = make_driver()
    try:
        open_page(driver, base, page, width, height, scheme)
        found = inspect(driver, base, demo, "top")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / f"every-page-{page}-{size}.png"))
        # Further down: the cells that entered (a list that loads more as it nears its end grows
        # first, so its end is scrolled to twice).
        for where, fraction in (("1/3", 1 / 3), ("2/3", 2 / 3), ("end", 1)):
            for _ in range(2 if where == "end" else 1):
                driver.execute_script(
                    "window.scrollTo(0, arguments[0] * (document.scrollingElement.scrollHeight - innerHeight))", fraction)
                settle(driver)
            there = inspect(driver, base, demo, where)
            for check in CHECKS:
                found[check] += there[check]
            found["cells"] = min(found["cells"], there["cells"])
        return found
    finally:
        driver.quit()


_pages = {}


def findings(server, page, size):
    """One page load per page and size, for every check (a page that cannot be checked fails
    every check, from one attempt)."""
    if (page, size) not in _pages:
        try:
            _pages[(page, size)] = check_page(server, page, size)
        except Exception as error:  # noqa: BLE001 (re-raised by every check of the page)
            _pages[(page, size)] = error
    found = _pages[(page, size)]
    if isinstance(found, Exception):
        raise found
    return found


def described(page, size, check, found):
    lines = [f"{page} at {size}: {len(found)} × {check}"]
    lines += [f"  [{f['where']}] {f['id']}: {f['what']}" for f in found[:12]]
    if len(found) > 12:
        lines.append(f"  … and {len(found) - 12} more")
    return "\n".join(lines)


def cases(check):
    marked = []
    for page in PAGES:
        for size in SIZES:
            marks = ()
            if (page, size, check) in NEEDS_SELF_SIZING:
                marks = (pytest.mark.xfail(strict=True, reason="needs self-sizing (issue 23)"),)
            marked.append(pytest.param(page, size, id=f"{page}-{size}", marks=marks))
    return marked


def expect_none(server, page, size, check):
    found = findings(server, page, size)
    assert found["cells"] > 0, f"{page} at {size} shows no cell"
    assert found[check] == [], described(page, size, check, found[check])


@pytest.mark.parametrize("page,size", cases("clipped"))
def test_no_text_in_a_cell_is_cut(server, page, size):
    expect_none(server, page, size, "clipped")


@pytest.mark.parametrize("page,size", cases("overlapping"))
def test_no_two_texts_or_controls_of_a_cell_overlap(server, page, size):
    expect_none(server, page, size, "overlapping")


@pytest.mark.parametrize("page,size", cases("cellsOverlapping"))
def test_no_two_cells_overlap(server, page, size):
    expect_none(server, page, size, "cellsOverlapping")


@pytest.mark.parametrize("page,size", cases("controlsOutside"))
def test_every_control_lies_inside_its_cell(server, page, size):
    expect_none(server, page, size, "controlsOutside")


@pytest.mark.parametrize("page,size", cases("frames"))
def test_every_cell_is_at_the_servers_frame(server, page, size):
    expect_none(server, page, size, "frames")


def test_the_index_links_no_demo_left_unchecked(server):
    """A demo the index links is checked: by the tests above when PAGES names it, else here."""
    demos = demos_on_the_index(server)
    assert len(demos) >= 9, f"the index links {demos}"
    named = {demo_and_state(page)[0] for page in PAGES}
    problems = []
    for demo in sorted(set(demos) - named):
        for size in SIZES:
            found = check_page(server, demo, size)
            problems += [described(demo, size, check, found[check]) for check in CHECKS if found[check]]
    assert problems == [], "\n".join(problems)
    assert named <= set(demos), f"PAGES names demos the index does not link: {sorted(named - set(demos))}"
