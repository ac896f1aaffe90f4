"""Settings: Wi-Fi (Apple's Diffable Data Source › Settings: Wi-Fi), at a phone's and a desktop's
width. The switch (a button with role="switch") turns Wi-Fi off and on, with the keyboard and with
a click: the networks section and the joined network's row go and come back, and the Wi-Fi row
stays the same DOM element throughout (its content is reconfigured, never re-created), with the
focus kept on the switch. A tap on a network joins it: it becomes the joined row, the previous
network returns to the networks at its sorted place, and nothing stays selected. Screenshots in
both schemes, and with Wi-Fi off. The server's radio scans every 2 s meanwhile: nothing here
depends on which networks are in range."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SCREENSHOTS
from helpers import console_errors, open_emulated, wait_settled, wait_until

SIZES = {390: 844, 1280: 900}
SWITCH = '#list .cell[data-id="wifi-enabled"] button[role="switch"]'

# The page's rows as they are drawn: the switch's state, the joined network, the networks'
# names from top to bottom, the selection, and whether the Wi-Fi row is the element marked.
STATE_JS = """
const row = (id) => document.querySelector(`#list > .cell[data-id="${id}"]`);
const wifi = row('wifi-enabled');
const networks = [...document.querySelectorAll('#list > .cell[data-id][data-kind="item"][data-section="networks"]')]
  .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
return {
  checked: wifi?.querySelector('button[role="switch"]')?.getAttribute('aria-checked') ?? null,
  marked: !!wifi && wifi.__marked === true,
  current: row('current-network')?.querySelector('.wifi-name')?.textContent ?? null,
  header: !!row('header:networks'),
  networks: networks.map((cell) => ({id: cell.dataset.id, name: cell.querySelector('.wifi-name').textContent})),
  selected: [...document.querySelectorAll('#list .cell[aria-selected="true"]')].map((cell) => cell.dataset.id),
  focusOnSwitch: document.activeElement === wifi?.querySelector('button[role="switch"]'),
};
"""


def name_key(name):
    return (name.lower(), name)


def state(driver):
    return driver.execute_script(STATE_JS)


def open_wifi(driver, server, width, scheme="light"):
    open_emulated(driver, f"{server}/demos/wifi", width, SIZES[width])
    # After open_emulated, whose media features (reduced motion) replace any set before.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "no-preference"}]})
    wait_until(lambda: driver.execute_script("return matchMedia(arguments[0]).matches", f"(prefers-color-scheme: {scheme})"),
               message=f"the {scheme} scheme")
    wait_settled(driver)  # the switch's colour transition to the scheme
    driver.execute_script("document.querySelector('#list > .cell[data-id=\"wifi-enabled\"]').__marked = true")


def wait_wifi(driver, on):
    """Until the page shows Wi-Fi `on` or off, in the switch and in the sections, and settles."""
    def shown():
        now = state(driver)
        return (now["checked"] == ("true" if on else "false") and now["header"] == on
                and (now["current"] is not None) == on and (len(now["networks"]) > 0) == on)
    wait_until(shown, timeout=15, message=f"Wi-Fi {'on' if on else 'off'} on the page")
    wait_settled(driver, timeout=20)
    return state(driver)


def assert_on(now):
    assert now["marked"], "the Wi-Fi row is the element it was: reconfigured, not re-created"
    assert now["header"] and now["current"], now
    names = [network["name"] for network in now["networks"]]
    assert names == sorted(names, key=name_key), f"the networks are sorted by name: {names}"


@pytest.mark.parametrize("width", sorted(SIZES))
@pytest.mark.parametrize("how", ["keyboard", "click"])
def test_the_switch_folds_the_networks_away_and_back(driver, server, width, how):
    open_wifi(driver, server, width)
    assert_on(state(driver))
    switch = driver.find_element(By.CSS_SELECTOR, SWITCH)
    assert switch.get_attribute("aria-label") == "Wi-Fi" and switch.get_attribute("aria-checked") == "true"
    if how == "keyboard":
        # Reachable with Tab from the top of the page.
        driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        for _ in range(12):
            if state(driver)["focusOnSwitch"]:
                break
            driver.switch_to.active_element.send_keys(Keys.TAB)
        assert state(driver)["focusOnSwitch"], "Tab reaches the switch"
        driver.switch_to.active_element.send_keys(Keys.SPACE)
    else:
        switch.click()
    off = wait_wifi(driver, on=False)
    assert off["marked"], "the Wi-Fi row is the element it was: reconfigured, not re-created"
    assert off["networks"] == [] and off["current"] is None and not off["header"]
    assert driver.execute_script("return document.querySelectorAll('#list > .cell[data-section=\"networks\"]').length") == 0, \
        "the networks section's cells (its header and card) are gone"
    if how == "keyboard":
        assert off["focusOnSwitch"], "the focus stays on the switch (its cell reconfigured in place)"
        driver.switch_to.active_element.send_keys(Keys.ENTER)
    else:
        driver.find_element(By.CSS_SELECTOR, SWITCH).click()
    on = wait_wifi(driver, on=True)
    assert_on(on)
    if how == "keyboard":
        assert on["focusOnSwitch"]
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", sorted(SIZES))
def test_tapping_a_network_joins_it(driver, server, width):
    open_wifi(driver, server, width)
    before = state(driver)
    previous = before["current"]
    joined = None
    # A scan may take the tapped network out of range before the tap arrives: then tap another.
    for _ in range(3):
        target = state(driver)["networks"][0]
        cell = driver.find_elements(By.CSS_SELECTOR, f'#list > .cell[data-id="{target["id"]}"]')
        if not cell:
            continue
        cell[0].find_element(By.CSS_SELECTOR, ".wifi-name").click()

        def settled_tap():
            now = state(driver)
            if now["current"] == target["name"]:
                return "joined"
            if not now["selected"] and all(network["id"] != target["id"] for network in now["networks"]):
                return "gone"  # taken by a scan, not joined
            return None
        if wait_until(settled_tap, timeout=15, message=f"{target['name']} joined") == "joined":
            joined = target
            break
    assert joined, "a tap joined a network"
    wait_until(lambda: not state(driver)["selected"], timeout=15, message="the selection to clear")
    wait_settled(driver, timeout=20)
    now = state(driver)
    assert now["current"] == joined["name"] and now["marked"]
    names = [network["name"] for network in now["networks"]]
    assert previous in names, f"{previous} is back among the networks: {names}"
    assert joined["name"] not in names
    assert names == sorted(names, key=name_key), f"sorted by name: {names}"
    assert now["selected"] == [], "nothing stays selected after a tap (the sample deselects)"
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", sorted(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(driver, server, width, scheme):
    open_wifi(driver, server, width, scheme)
    assert_on(state(driver))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / f"wifi-{width}-{scheme}.png"))
    if (width, scheme) == (1280, "light"):
        driver.find_element(By.CSS_SELECTOR, SWITCH).click()
        wait_wifi(driver, on=False)
        assert driver.save_screenshot(str(SCREENSHOTS / "wifi-off-1280-light.png"))
        driver.find_element(By.CSS_SELECTOR, SWITCH).click()
        wait_wifi(driver, on=True)
    assert console_errors(driver) == []


def test_without_javascript_the_switch_is_a_form(driver_without_js, server):
    """The page read without JavaScript (its list page by page) holds the same switch, in a form
    that posts: Wi-Fi goes off and the page that comes back shows it, then on again."""
    driver = driver_without_js
    driver.set_window_size(390, 844)
    driver.get(f"{server}/demos/wifi")
    visible = '.fallback-list button[role="switch"]'
    names = lambda: [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".fallback-list .wifi-name")]
    assert names()[:2] == ["Wi-Fi", "breeno-net"] and len(names()) > 3, names()
    for checked, after in (("true", "false"), ("false", "true")):
        switch = driver.find_element(By.CSS_SELECTOR, visible)
        assert switch.is_displayed() and switch.get_attribute("aria-checked") == checked
        switch.click()
        # The post's answer is a redirect to the page: while it loads, the switch may be missing.
        wait_until(lambda: driver.execute_script("return document.readyState") == "complete"
                   and [e.get_attribute("aria-checked") for e in driver.find_elements(By.CSS_SELECTOR, visible)] == [after],
                   timeout=15, message=f"the page after the post, the switch {after}")
        shown = names()
        assert (shown == ["Wi-Fi"]) == (after == "false"), shown
