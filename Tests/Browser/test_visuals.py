"""What a person sees (issue #20, item 4): pictures without text, one left edge, a stable
scrollbar gutter, readable dark mode, Explore's bands, the Mountains animation in phases, Numbers'
drag, the no-JavaScript page, titles, and the index's introductions."""
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import console_errors, wait_for_client, wait_settled, wait_until


def dark(driver):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})


def open_demo(driver, server, demo):
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    wait_settled(driver, timeout=20)


@pytest.mark.parametrize("demo", ["photos", "explore", "destinations"])
def test_generated_pictures_carry_no_text(server, demo):
    # The page draws each caption itself; one drawn into the picture is cropped and overlaps it.
    for n in (1, 2, 7):
        with urllib.request.urlopen(f"{server}/demos/{demo}/assets/p{n:03d}.svg", timeout=30) as response:
            svg = response.read().decode()
        assert svg.startswith("<svg") and "<text" not in svg, f"{demo}'s p{n:03d}.svg draws text"


def test_titles(driver, server):
    driver.get(server + "/")
    assert driver.title == "DiffableWeb"
    driver.get(server + "/demos/mountains")
    assert driver.title == "Mountains · DiffableWeb"
    driver.get(server + "/no-such-page")
    assert driver.title == "Page not found · DiffableWeb"


def test_index_introduces_each_demo_plainly(driver, server):
    driver.get(server + "/")
    links = driver.find_elements(By.CSS_SELECTOR, ".demo-link")
    assert len(links) >= 9
    for link in links:
        assert link.find_element(By.CSS_SELECTOR, ".demo-summary").text.strip()
        assert link.find_element(By.CSS_SELECTOR, ".demo-try").text.startswith("Try: ")
    wait_until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('.demo-link img.demo-picture')].every(i => i.complete && i.naturalWidth > 0)"),
        message="every demo's picture")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".demo-link img.demo-picture")) == len(links)
    text = driver.find_element(By.TAG_NAME, "main").text.lower()
    for jargon in ("seed", "orthogonal", "compositional", "snapshot"):
        assert jargon not in text, f"the index says {jargon!r}"


# Elements a person sees: rendered, larger than the 1-px visually-hidden box.
SEEN = """
const seen = (el) => { const r = el.getBoundingClientRect();
  return el.checkVisibility({visibilityProperty: true}) && r.width > 1 && r.height > 1; };
"""


def test_without_javascript_the_list_shows_once(driver_without_js, server):
    driver = driver_without_js
    driver.get(server + "/demos/numbers")
    copies = driver.execute_script(SEEN + """
        return [...document.querySelectorAll('.label')].filter(e => e.textContent.trim() === 'Item 1' && seen(e)).length;""")
    assert copies == 1, f"“Item 1” shows {copies} times"
    # The row's ↑ and ↓ buttons stand apart.
    gaps = driver.execute_script(SEEN + """
        return [...document.querySelectorAll('.reorder-buttons')].filter(seen).map(row => {
          const [up, down] = [...row.querySelectorAll('button')].map(b => b.getBoundingClientRect());
          return down.left - up.right; });""")
    assert gaps and min(gaps) >= 6, f"↑/↓ gaps {gaps}"
    driver.get(server + "/demos/mountains")
    shown = driver.execute_script(SEEN + "return [...document.querySelectorAll('.name')].filter(seen).length")
    page = driver.execute_script("return document.querySelectorAll('.fallback-list > li').length")
    assert shown == page == 100, f"{shown} mountain names show for a page of {page}"


def left_edges(driver, demo):
    """The page's left edges: the title, the search box, and the first cell (for Explore:
    each section's title, its first card, and the first row of the list)."""
    return driver.execute_script("""
        const left = (el) => el ? Math.round(el.getBoundingClientRect().left) : null;
        const edges = {title: left(document.querySelector('h1')), search: left(document.querySelector('input[type=search]'))};
        if (document.body.dataset.demo === 'explore') {
          for (const h of document.querySelectorAll('#list > .cell[data-kind=header] .header-title')) edges['header ' + h.textContent] = left(h);
          for (const band of document.querySelectorAll('.orthogonal-section')) {
            const cards = [...band.querySelectorAll('.cell[data-id]')].sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
            edges['band ' + band.dataset.section] = left(cards[0]);
          }
          edges.row = left(document.querySelector('#list > .cell[data-kind=item]'));
        } else if (document.body.dataset.demo === 'list-appearances') {
          // Plain (a new list's appearance): the rows run edge to edge; their emoji and the
          // section titles start on the page's edge.
          for (const h of document.querySelectorAll('#list > .cell[data-kind=header] .header-title')) edges['header ' + h.textContent] = left(h);
          edges.emoji = left(document.querySelector('#list > .cell[data-kind=item] .emoji'));
        } else {
          const cells = [...document.querySelectorAll('#list > .cell[data-id]')].map(c => c.getBoundingClientRect());
          edges.cell = Math.round(Math.min(...cells.map(r => r.left)));
        }
        return Object.fromEntries(Object.entries(edges).filter(([, v]) => v !== null));""")


@pytest.mark.parametrize("demo", ["mountains", "numbers", "destinations", "explore", "outline", "insertion-sort", "list-appearances", "wifi"])
@pytest.mark.parametrize("width", [390, 1280])
def test_one_left_edge(driver, server, demo, width):
    driver.set_window_size(width, 900)
    open_demo(driver, server, demo)
    edges = left_edges(driver, demo)
    assert len(edges) >= 2
    assert max(edges.values()) - min(edges.values()) <= 1, f"left edges differ: {edges}"


def test_the_page_does_not_move_sideways_when_it_scrolls(driver, server):
    # Numbers (five rows) does not scroll; Mountains does: the centred column stays where it is.
    driver.set_window_size(1280, 900)
    open_demo(driver, server, "numbers")
    assert driver.execute_script("return document.documentElement.scrollHeight <= innerHeight")
    short = driver.execute_script("return document.querySelector('h1').getBoundingClientRect().left")
    open_demo(driver, server, "mountains")
    assert driver.execute_script("return document.documentElement.scrollHeight > innerHeight")
    long = driver.execute_script("return document.querySelector('h1').getBoundingClientRect().left")
    assert short == long, f"the title is at {short} px on a short page, {long} px on a scrolling one"


def test_explore_bands_scrollbar_leaves_the_cards_whole(driver, server):
    open_demo(driver, server, "explore")
    bands = driver.execute_script("""
        return [...document.querySelectorAll('.orthogonal-section')].map(band => {
          const card = band.querySelector('.cell[data-id]').getBoundingClientRect();
          const box = band.getBoundingClientRect();
          // The scrollport without the scrollbar: clientHeight. Cards must fit in it.
          return {section: band.dataset.section, port: box.top + band.clientTop + band.clientHeight, card: card.bottom,
                  scrolls: band.scrollWidth > band.clientWidth, overflow: getComputedStyle(band).overflowX};
        });""")
    assert len(bands) == 2
    for band in bands:
        assert band["scrolls"] and band["overflow"] == "auto", band
        assert band["card"] <= band["port"] + 0.5, f"the scrollbar covers {band['card'] - band['port']:.0f} px of {band['section']}'s cards"


def test_explore_shuffle_lives_in_its_section_header_and_rewinds_the_band(driver, server):
    open_demo(driver, server, "explore")
    header = driver.find_element(By.CSS_SELECTOR, '#list > .cell[data-id="header:featured"]')
    button = header.find_element(By.CSS_SELECTOR, "button")
    assert button.text == "Shuffle" and button.get_attribute("aria-label") == "Shuffle Featured climbs"
    assert not driver.find_elements(By.CSS_SELECTOR, "main select:not(.session-panel select)"), "no section picker on the page"
    band = 'document.querySelector(\'.orthogonal-section[data-section="featured"]\')'
    driver.execute_script(f"{band}.scrollTo({{left: {band}.scrollWidth, behavior: 'instant'}})")
    wait_until(lambda: driver.execute_script(f"return {band}.scrollLeft") > 500, message="the carousel scrolled to its end")
    before = driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'featured').items")
    button.click()
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.sections.find(s => s.id === 'featured').items") != before,
               message="the shuffle")
    wait_until(lambda: driver.execute_script(f"return {band}.scrollLeft") < 1, timeout=10, message="the band back at its start")
    assert console_errors(driver) == []


CONTRAST = """
const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
return [...document.querySelectorAll('button')].filter(b => b.getClientRects().length && getComputedStyle(b).visibility !== 'hidden')
  .map(b => { const s = getComputedStyle(b), bg = parse(s.backgroundColor), fg = parse(s.color);
    if (bg.length === 4 && bg[3] < 1) return null;  // a plain (unfilled) button: its text is on the page
    const [l1, l2] = [lum(fg), lum(bg)].sort((a, c) => c - a);
    return {text: b.textContent.trim(), ratio: (l1 + 0.05) / (l2 + 0.05), fg: s.color, bg: s.backgroundColor}; })
  .filter(Boolean);
"""


@pytest.mark.parametrize("demo", ["numbers", "photos", "urls", "destinations"])
def test_dark_mode_filled_buttons_are_readable(driver, server, demo):
    dark(driver)
    open_demo(driver, server, demo)
    if demo == "numbers":
        driver.find_element(By.ID, "edit-toggle").click()  # "Done": pressed
        wait_until(lambda: driver.find_element(By.ID, "edit-toggle").text == "Done", message="edit mode")
    buttons = driver.execute_script(CONTRAST)
    assert buttons, "no filled button"
    poor = [b for b in buttons if b["ratio"] < 4.5]
    assert poor == [], f"below 4.5:1 in dark mode: {poor}"


ANIMATION_SAMPLER = """
window.__overlaps = []; window.__longest = 0; window.__sampled = 0;
const opacity = (el) => parseFloat(getComputedStyle(el).opacity);
const fading = (el) => el.getAnimations().some(a => a.effect.getKeyframes().some(k => 'opacity' in k));
const meet = (a, b) => a.left < b.right - 2 && b.left < a.right - 2 && a.top < b.bottom - 2 && b.top < a.bottom - 2;
const end = performance.now() + 1500;
const sample = () => {
  window.__sampled += 1;
  for (const a of document.getAnimations()) {
    const t = a.effect.getTiming(); window.__longest = Math.max(window.__longest, t.delay + t.duration);
  }
  const leaving = [...document.querySelectorAll('#list .cell.leaving')].filter(e => opacity(e) > 0.05);
  const arriving = [...document.querySelectorAll('#list .cell[data-id]')].filter(e => fading(e) && opacity(e) > 0.05);
  for (const l of leaving) for (const a of arriving) {
    if (meet(l.getBoundingClientRect(), a.getBoundingClientRect())) window.__overlaps.push([l.textContent, a.textContent]);
  }
  if (performance.now() < end) requestAnimationFrame(sample);
};
requestAnimationFrame(sample);
"""


def test_mountains_animation_never_shows_a_leaving_and_an_arriving_cell_in_one_place(driver, server):
    open_demo(driver, server, "mountains")
    search = driver.find_element(By.ID, "search")
    search.send_keys("ann")
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.itemCount") < 100, message="the search for ann")
    wait_settled(driver)
    driver.execute_script(ANIMATION_SAMPLER)
    # One change that deletes and inserts many cells at once: "ann" → "b".
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys("b")
    wait_until(lambda: driver.execute_script("return window.__sampled") > 20, message="frames sampled")
    wait_until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#list .cell[data-id] .name')].slice(0, 3).every(n => n.textContent.toLowerCase().includes('b'))"),
        message="the results for b")
    wait_settled(driver)
    overlaps = driver.execute_script("return window.__overlaps")
    assert overlaps == [], f"{len(overlaps)} frames show a leaving and an arriving cell in one place, e.g. {overlaps[:3]}"
    longest = driver.execute_script("return window.__longest")
    assert 0 < longest <= 350, f"a change animates for {longest} ms"


def test_numbers_rows_make_room_for_a_dragged_row(driver, server):
    open_demo(driver, server, "numbers")
    driver.find_element(By.ID, "edit-toggle").click()
    order = driver.execute_script("return window.diffableWeb.model.itemOrder()")
    top = lambda item: driver.execute_script(  # noqa: E731
        "return document.querySelector(`#list > .cell[data-id='${arguments[0]}']`).getBoundingClientRect().top", item)
    second, third = top(order[1]), top(order[2])
    handle = driver.find_element(By.CSS_SELECTOR, f'#list > .cell[data-id="{order[0]}"] .drag-handle')
    ActionChains(driver).click_and_hold(handle).move_by_offset(0, 30).move_by_offset(0, 30).perform()
    # Dragged past the second row: it slides up into the first row's place; the third stays.
    first_place = driver.execute_script("return window.diffableWeb.model.cells.get(arguments[0]).frame.y", order[0])
    list_top = driver.execute_script("return document.getElementById('list').getBoundingClientRect().top")
    wait_until(lambda: abs(top(order[1]) - (list_top + first_place)) < 1, message="the second row to make room")
    assert abs(top(order[2]) - third) < 1 and second > top(order[1])
    ActionChains(driver).release().perform()
    wait_until(lambda: driver.execute_script("return window.diffableWeb.model.itemOrder()")[:2] == [order[1], order[0]],
               message="the drop")
    wait_settled(driver)
    assert abs(top(order[1]) - (list_top + first_place)) < 1, "the row stays in the room it made"


def test_numbers_drag_handle_and_count(driver, server):
    open_demo(driver, server, "numbers")
    driver.find_element(By.ID, "edit-toggle").click()
    handle = driver.execute_script("""
        const s = getComputedStyle(document.querySelector('#list .drag-handle'));
        return {height: parseFloat(s.height), tile: parseFloat(s.backgroundSize.split(' ')[1])};""")
    assert handle["height"] % handle["tile"] == 0, f"a clipped row of dots: {handle}"
    counts = driver.execute_script(SEEN + """
        return [...document.querySelectorAll('main *')].filter(e => e.children.length === 0 && /^\\s*5 items\\s*$/i.test(e.textContent) && seen(e)).length;""")
    assert counts == 1, f"“5 items” shows {counts} times"


def test_photos_list_layout_rows_are_a_thumbnail_and_a_title(driver, server):
    open_demo(driver, server, "photos")
    driver.find_element(By.XPATH, "//button[normalize-space()='List']").click()
    wait_until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#list > .cell[data-id]')].every(c => Math.round(c.getBoundingClientRect().height) === 44)"),
        message="44-px rows")
    wait_settled(driver)
    rows = driver.execute_script("""
        return [...document.querySelectorAll('#list > .cell[data-id]')].slice(0, 5).map(c => {
          const row = c.getBoundingClientRect(), pic = c.querySelector('.photo').getBoundingClientRect(),
                caption = c.querySelector('.photo-caption'), text = caption.getBoundingClientRect();
          return {row: row.width, picture: pic.width, pictureRight: pic.right, captionLeft: text.left,
                  color: getComputedStyle(caption).color, fontSize: parseFloat(getComputedStyle(caption).fontSize)};
        });""")
    for row in rows:
        assert row["picture"] <= 48, f"the picture is a stripe, not a thumbnail: {row}"
        assert row["captionLeft"] >= row["pictureRight"], f"the title is on the picture: {row}"
        assert row["fontSize"] >= 15
