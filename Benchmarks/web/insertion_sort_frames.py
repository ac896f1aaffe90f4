#!/usr/bin/env python3
"""Frame times while the insertion sort runs (issue 39, item 6): opens /demos/insertion-sort in
Debian's headless Chromium at 390 and 1280 px, presses Start, records every frame's time with
requestAnimationFrame for ~10 s of sorting (a step every 125 ms, each row moving one node; a
shuffle each time all rows ascend), and prints the share of frames over 16.7 ms (a missed
60-Hz frame), the median and the p95 frame time, and the steps the page received; first for
~10 s of the page stopped, the machine's baseline.

Not a test (not part of `make test`): headless Chromium draws without a GPU and shares the
machine with the server, so read the numbers as a comparison between builds on one machine.

    .venv/bin/python Benchmarks/web/insertion_sort_frames.py [--binary .build/debug/diffable-web] [--seconds 10]

Needs selenium in the venv (scripts/browser-tests makes it) and chromium-driver.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUDGET_MS = 1000 / 60

# Counts the changesets that moved nodes while it records, and every frame's interval.
RECORD_JS = """
const [seconds, done] = [arguments[0], arguments[arguments.length - 1]];
const events = window.diffableWeb.stats.events, animations = window.diffableWeb.stats.animations;
const intervals = [];
let last = null;
const end = performance.now() + seconds * 1000;
const frame = (now) => {
  if (last !== null) intervals.push(now - last);
  last = now;
  if (now < end) requestAnimationFrame(frame);
  else done({intervals, events: window.diffableWeb.stats.events - events,
             animations: window.diffableWeb.stats.animations - animations});
};
requestAnimationFrame(frame);
"""


def start_server(binary):
    process = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0", "--log-level", "warning", "--memory-only"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"Listening on (http://127\.0\.0\.1:\d+)/", line)
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            break
    process.kill()
    sys.exit("the server did not start")


def browser(width, height):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(base, width, height, seconds, sorting=True):
    from selenium.webdriver.common.by import By
    driver = browser(width, height)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        driver.set_script_timeout(seconds + 30)
        driver.get(f"{base}/demos/insertion-sort")
        deadline = time.monotonic() + 30
        while not driver.execute_script("return !!(window.diffableWeb && window.diffableWeb.stats.events > 0)"):
            if time.monotonic() > deadline:
                sys.exit("the page's client did not start")
            time.sleep(0.05)
        if sorting:
            driver.find_element(By.CSS_SELECTOR, 'form[data-action="start"] button').click()
        result = driver.execute_async_script(RECORD_JS, seconds)
        if sorting:
            driver.find_element(By.CSS_SELECTOR, 'form[data-action="stop"] button').click()
        intervals = result["intervals"]
        return {
            "width": width, "what": "sorting" if sorting else "stopped", "frames": len(intervals),
            # rAF times are the display's ticks, give or take a timer's jitter: a frame over
            # 16.7 ms is one whose interval passed a tick by more than 1 ms.
            "over": sum(1 for i in intervals if i > BUDGET_MS + 1) / max(1, len(intervals)),
            # A frame late by half a frame or more: one the display showed twice.
            "dropped": sum(1 for i in intervals if i > 1.5 * BUDGET_MS) / max(1, len(intervals)),
            "median": statistics.median(intervals), "p95": percentile(intervals, 0.95), "max": max(intervals),
            "events": result["events"], "animations": result["animations"],
        }
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "diffable-web"))
    parser.add_argument("--seconds", type=float, default=10)
    arguments = parser.parse_args()
    load = os.getloadavg()[0]  # the machine's business besides this run (the numbers depend on it)
    # Chromium leaves a profile folder in TMPDIR for every launch: a scratch one, removed after.
    scratch = tempfile.mkdtemp(prefix="insertion-sort-frames-")
    os.environ["TMPDIR"] = scratch
    server, base = start_server(arguments.binary)
    try:
        # The page stopped first, as the baseline: what the machine and headless Chromium give
        # a page that draws nothing.
        rows = [measure(base, width, height, arguments.seconds, sorting)
                for width, height in ((390, 844), (1280, 900)) for sorting in (False, True)]
    finally:
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["rm", "-rf", scratch], check=False)
    print(f"load average before: {load:.2f} on {os.cpu_count()} cores")
    print(f"| width | page | frames | over {BUDGET_MS:.1f} ms | over {1.5 * BUDGET_MS:.1f} ms | median ms | p95 ms | max ms | events | animations |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['width']} | {row['what']} | {row['frames']} | {row['over']:.1%} | {row['dropped']:.1%} | {row['median']:.1f} | {row['p95']:.1f} | "
              f"{row['max']:.1f} | {row['events']} | {row['animations']} |")


if __name__ == "__main__":
    main()
