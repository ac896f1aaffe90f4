"""axe-core on every demo page after its client has taken over (serious and critical rules), in
light and dark mode."""
import pytest
from selenium.webdriver.common.by import By

from helpers import wait_for_client, wait_settled, wait_until

DEMOS = ["numbers", "photos", "urls", "destinations", "explore", "insertion-sort", "list-appearances", "emoji-explorer", "editing", "wifi"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("demo", DEMOS)
def test_demo_page_passes_axe(driver, server, demo, scheme):
    axe_module = pytest.importorskip("axe_selenium_python")
    # Both colour schemes: dark mode has its own colours to get right (contrast above all).
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.get(f"{server}/demos/{demo}")
    wait_for_client(driver)
    wait_settled(driver)
    if demo in ("numbers", "editing"):
        driver.find_element(By.ID, "edit-toggle").click()  # the accessories, drag handles and row buttons show
        wait_until(lambda: driver.execute_script("return document.getElementById('list').hasAttribute('data-editing')"),
                   message="editing mode")
        wait_settled(driver)
    axe = axe_module.Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert serious == [], axe.report(serious)
