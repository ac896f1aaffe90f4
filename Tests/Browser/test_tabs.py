"""Connections: a browser opens at most 6 HTTP/1.1 connections to a host, and an event stream
holds one for as long as it is open. These tests use Chromium with its default back/forward
cache, in one browser: every demo from the home page and back, then ten tabs; a page restored
from the cache catches up; a tab whose stream slot another tab took shows it is paused and can
go live again; a hidden tab gives its slot back; the header shows the connection's state."""
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import api, share_id, wait_until

PAGE_LOAD_LIMIT_S = 5
LIVE_CHANGE_LIMIT_S = 1
SLOT_LOCK = "diffable-web:stream-slot:"
LEASE_KEY = "diffable-web:stream-lease:"
# A page served over plain HTTP from another host is not a secure context: no Web Locks.
WITHOUT_WEB_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined});"


def cells_shown_within(driver, seconds, what):
    """Until the page shows cells (`#list .cell`); fails when that takes more than `seconds`."""
    WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#list .cell"), message=f"{what} showed no cells within {seconds} s")


def timed(action):
    started = time.monotonic()
    action()
    return time.monotonic() - started


def demo_links(driver):
    return [link.get_attribute("href") for link in driver.find_elements(By.CSS_SELECTOR, "a.demo-link")]


def connection_state(driver):
    return driver.execute_script("return document.body.dataset.connection || ''")


def wait_live(driver, timeout=10):
    wait_until(lambda: connection_state(driver) == "open", timeout=timeout, message="the stream to be live")


def numbers_cell_count(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#list .cell[data-kind=item]"))


def append_number(server, session):
    status, answer = api(server, "POST", f"/api/sessions/{session}/demos/numbers/actions/append", {"count": 1})
    assert status == 200, answer
    return answer["version"]


def open_streams(server, session, demo):
    """How many streams of this session's list the server has open."""
    status, answer = api(server, "GET", f"/api/sessions/{session}")
    assert status == 200, answer
    return next(entry["openStreams"] for entry in answer["demos"] if entry["name"] == demo)


def held_slots(driver):
    """The stream slots (Web Locks) held in this browser, as this tab's `navigator.locks` sees them."""
    return driver.execute_script(
        "const prefix = arguments[0];"
        "return navigator.locks.query().then(s => s.held.filter(l => l.name.startsWith(prefix)).length);", SLOT_LOCK)


def test_every_demo_and_back_then_ten_tabs_all_load(driver, server):
    # A page that cannot get a connection would hang for the default 300 s.
    driver.set_page_load_timeout(30)
    driver.get(server + "/")
    links = demo_links(driver)
    assert len(links) >= 9, links

    # Every demo from the home page, and back each time (each page goes to the bfcache).
    for index in range(len(links)):
        link = driver.find_elements(By.CSS_SELECTOR, "a.demo-link")[index]
        href = link.get_attribute("href")
        try:
            elapsed = timed(lambda: (link.click(), cells_shown_within(driver, PAGE_LOAD_LIMIT_S, href)))
        except TimeoutException as error:
            raise AssertionError(f"page {index + 1} of the tour, {href}, did not load") from error
        assert elapsed <= PAGE_LOAD_LIMIT_S, f"{href} took {elapsed:.1f} s"
        assert driver.current_url == href
        elapsed = timed(lambda: (driver.back(), WebDriverWait(driver, PAGE_LOAD_LIMIT_S).until(
            lambda d: len(demo_links(d)) == len(links), message="the home page did not come back")))
        assert elapsed <= PAGE_LOAD_LIMIT_S, f"back to the home page took {elapsed:.1f} s"

    open_ten_tabs(driver, server, links)
    # Streams stay within the browser's budget, whatever the number of tabs.
    assert held_slots(driver) <= 3


def open_ten_tabs(driver, server, links, prepare=lambda: None):
    """Ten tabs of demos in one browser, the last Numbers: each shows its cells within 5 s, and
    the last one, live, shows a change made over the JSON API within 1 s. `prepare` runs in
    each new tab before its page loads."""
    numbers = next(href for href in links if href.endswith("/demos/numbers"))
    others = [href for href in links if href != numbers]
    for href in [others[i % len(others)] for i in range(9)] + [numbers]:
        driver.switch_to.new_window("tab")
        prepare()
        elapsed = timed(lambda: (driver.get(href), cells_shown_within(driver, PAGE_LOAD_LIMIT_S, href)))
        assert elapsed <= PAGE_LOAD_LIMIT_S, f"tab {href} took {elapsed:.1f} s"

    wait_live(driver, timeout=PAGE_LOAD_LIMIT_S)
    before = numbers_cell_count(driver)
    append_number(server, share_id(driver))
    elapsed = timed(lambda: WebDriverWait(driver, LIVE_CHANGE_LIMIT_S, poll_frequency=0.02).until(
        lambda d: numbers_cell_count(d) == before + 1, message="the appended number did not show within 1 s"))
    assert elapsed <= LIVE_CHANGE_LIMIT_S


def test_a_page_restored_from_the_back_forward_cache_catches_up(driver, server):
    driver.get(server + "/demos/numbers")
    wait_live(driver)
    session = share_id(driver)
    before = numbers_cell_count(driver)
    driver.execute_script("window.leftForTheCache = true")

    driver.get(server + "/")  # the Numbers page goes to the back/forward cache
    WebDriverWait(driver, 10).until(lambda d: demo_links(d))
    # A page in the cache holds no connection.
    wait_until(lambda: open_streams(server, session, "numbers") == 0, timeout=10,
               message="the cached page to close its stream")
    append_number(server, session)  # a change while the page is away

    driver.back()
    # Restored from the cache (the page's own script state survived), not loaded again.
    assert driver.execute_script("return window.leftForTheCache === true"), \
        "the page was not restored from the back/forward cache"
    assert driver.execute_script("return window.diffableWeb.stream.restores") == 1
    wait_until(lambda: numbers_cell_count(driver) == before + 1, timeout=10,
               message="the restored page to show the change made while it was away")
    wait_live(driver)
    assert open_streams(server, session, "numbers") == 1


def test_a_tab_whose_slot_is_taken_pauses_and_goes_live_again(driver, server):
    driver.get(server + "/demos/numbers")
    wait_live(driver)
    session = share_id(driver)
    # Other tabs take every slot (here the test itself, as a tab would: Web Locks with steal).
    driver.execute_script("""
        window.takenSlots = [];
        for (let n = 0; n < 3; n++) {
          navigator.locks.request(arguments[0] + n, {steal: true},
            () => new Promise(release => window.takenSlots.push(release))).catch(() => {});
        }""", SLOT_LOCK)
    wait_until(lambda: connection_state(driver) == "paused", message="the page to pause")
    indicator = driver.find_element(By.ID, "connection")
    text = indicator.find_element(By.CSS_SELECTOR, "[role=status]")
    assert text.get_attribute("aria-live") == "polite"
    assert text.text == "Paused: 3 other tabs are live"
    button = indicator.find_element(By.CSS_SELECTOR, "button[data-connection-go-live]")
    assert button.is_displayed() and button.text == "Go live"

    # Paused means no stream (the page closed it at once); a change made meanwhile shows when
    # the page goes live again.
    wait_until(lambda: open_streams(server, session, "numbers") == 0, message="the paused page to close its stream")
    before = numbers_cell_count(driver)
    append_number(server, session)

    button.click()
    wait_live(driver)
    wait_until(lambda: numbers_cell_count(driver) == before + 1, message="the change made while paused")
    assert text.text == "Live"
    assert not button.is_displayed()


def test_a_tab_waiting_for_a_slot_goes_live_when_one_is_free(driver, server):
    driver.get(server + "/demos/numbers")
    wait_live(driver)
    driver.execute_script("""
        window.takenSlots = [];
        for (let n = 0; n < 3; n++) {
          navigator.locks.request(arguments[0] + n, {steal: true},
            () => new Promise(release => window.takenSlots.push(release))).catch(() => {});
        }""", SLOT_LOCK)
    wait_until(lambda: connection_state(driver) == "paused", message="the page to pause")
    wait_until(lambda: driver.execute_script("return window.takenSlots.length") == 3, message="the slots taken")
    driver.execute_script("window.takenSlots[1]()")  # another tab closes: its slot is free
    wait_live(driver)


def test_a_hidden_tab_gives_its_slot_back_and_catches_up_when_shown(driver, server):
    driver.get(server + "/demos/numbers")
    wait_live(driver)
    session = share_id(driver)
    before = numbers_cell_count(driver)
    first = driver.current_window_handle

    driver.switch_to.new_window("tab")  # the Numbers tab is now in the background
    driver.get(server + "/demos/mountains")
    wait_live(driver)
    # After its grace (5 s), the hidden tab pauses: only this tab's slot is held.
    wait_until(lambda: held_slots(driver) == 1, timeout=20, message="the hidden tab to give its slot back")
    append_number(server, session)

    driver.switch_to.window(first)  # shown again: it resumes and catches up
    wait_until(lambda: numbers_cell_count(driver) == before + 1, timeout=10,
               message="the shown tab to catch up")
    wait_live(driver)


def test_the_header_shows_every_connection_state(driver, server):
    driver.get(server + "/demos/mountains")
    wait_live(driver)
    indicator = driver.find_element(By.ID, "connection")
    assert indicator.is_displayed()
    text = indicator.find_element(By.CSS_SELECTOR, "[role=status]")
    assert text.text == "Live"
    # Record every text the status shows from now on.
    driver.execute_script("""
        const text = document.querySelector('#connection [role=status]');
        window.shownStates = [];
        new MutationObserver(() => window.shownStates.push(text.textContent))
          .observe(text, {childList: true, characterData: true, subtree: true});""")

    status, _ = api(server, "POST", "/__test/drop-streams", {})
    assert status in (200, 204)
    wait_until(lambda: driver.execute_script("return window.shownStates.at(-1)") == "Live",
               message="the stream to be live again")
    shown = driver.execute_script("return window.shownStates")
    assert "Reconnecting (attempt 1)…" in shown, shown

    driver.set_network_conditions(offline=True, latency=0, download_throughput=-1, upload_throughput=-1)
    try:
        wait_until(lambda: connection_state(driver) == "offline", message="the page to notice it is offline")
        assert text.text.startswith("Offline")
    finally:
        driver.set_network_conditions(offline=False, latency=0, download_throughput=-1, upload_throughput=-1)
    wait_live(driver)
    assert text.text == "Live"


def test_without_javascript_no_connection_state_is_shown(driver_without_js, server):
    driver_without_js.get(server + "/demos/numbers")
    assert not driver_without_js.find_element(By.ID, "connection").is_displayed()


def without_web_locks(driver):
    """From the next page on, this tab has no `navigator.locks`."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITHOUT_WEB_LOCKS})


def live_leases(driver):
    """The stream leases (the fallback without Web Locks) that are held and not expired."""
    return driver.execute_script("""
        let n = 0;
        for (let i = 0; i < 3; i++) {
          const lease = JSON.parse(localStorage.getItem(arguments[0] + i) || 'null');
          if (lease && lease.expires > Date.now()) n++;
        }
        return n;""", LEASE_KEY)


def test_without_web_locks_ten_tabs_share_leases(driver, server):
    driver.set_page_load_timeout(30)
    without_web_locks(driver)
    driver.get(server + "/")
    links = demo_links(driver)
    open_ten_tabs(driver, server, links, prepare=lambda: without_web_locks(driver))
    assert driver.execute_script("return navigator.locks === undefined")
    assert 1 <= live_leases(driver) <= 3


def test_without_web_locks_a_tab_whose_lease_is_taken_pauses_and_goes_live_again(driver, server):
    without_web_locks(driver)
    driver.get(server + "/demos/numbers")
    wait_live(driver)
    # Other tabs hold every lease.
    driver.execute_script("""
        for (let i = 0; i < 3; i++) localStorage.setItem(arguments[0] + i,
          JSON.stringify({tab: 'another', visible: true, at: Date.now(), expires: Date.now() + 600000}));""", LEASE_KEY)
    wait_until(lambda: connection_state(driver) == "paused", message="the page to notice its lease is gone")
    button = driver.find_element(By.CSS_SELECTOR, "#connection button[data-connection-go-live]")
    button.click()
    wait_live(driver)
