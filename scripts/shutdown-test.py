#!/usr/bin/env python3
"""SIGTERM is honoured under CPU load: a real `diffable-web` gets a 100,000-item list and 24
layout requests on it at once (every thread of its cooperative pool busy for seconds), then
SIGTERM. A request sent 0.2 s after the signal must be answered 503 (JSON, Connection: close),
and the process must exit within its grace period plus a bound (1 s is the target; the test
allows 2.5 s on a loaded machine). The stop's log line must count what it did.

Bounded: every request has a timeout; the server is killed on any failure."""
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("DIFFABLE_WEB_BINARY", os.path.join(ROOT, ".build", "debug", "diffable-web"))
GRACE = float(os.environ.get("SHUTDOWN_GRACE", "2"))
BOUND = 2.5
LOADERS = 24


def fail(message, process=None):
    if process is not None and process.poll() is None:
        process.kill()
    print(f"shutdown-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def call(port, method, path, body=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data, response.getheader("Connection") or ""


def main():
    state = tempfile.mkdtemp(prefix="shutdown-test-")
    log = open(os.path.join(state, "server.log"), "w+")
    process = subprocess.Popen(
        [BINARY, "--port", "0", "--log-level", "info", "--state-dir", state, "--shutdown-grace", str(GRACE),
         "--connections-per-address", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)
    match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", process.stdout.readline() or "")
    if not match:
        fail("the server did not start", process)
    port = int(match.group(1))
    try:
        status, body, _ = call(port, "POST", "/api/sessions")
        share = json.loads(body)["id"]
        sections = [{"id": f"s{s}", "items": [f"n{s * 20000 + i + 1}" for i in range(20000)]} for s in range(5)]
        status, body, _ = call(port, "PUT", f"/api/sessions/{share}/demos/numbers/snapshot", {"sections": sections}, timeout=60)
        if status != 200:
            fail(f"the 100,000-item snapshot was answered {status}: {body[:200]!r}", process)

        def load(index):
            try:
                call(port, "GET", f"/api/sessions/{share}/demos/numbers/layout?width={300 + index}&height=800", timeout=30)
            except Exception:
                pass  # cut by the stop: expected

        loaders = [threading.Thread(target=load, args=(i,), daemon=True) for i in range(LOADERS)]
        for thread in loaders:
            thread.start()
        time.sleep(1.0)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        try:
            status, body, connection = call(port, "GET", "/healthz", timeout=5)
        except Exception as error:
            fail(f"a request 0.2 s after SIGTERM was not answered: {error}", process)
        if status != 503 or json.loads(body).get("error") != "server_stopping" or connection.lower() != "close":
            fail(f"a request 0.2 s after SIGTERM was answered {status} {body[:120]!r} (Connection: {connection})", process)
        try:
            process.wait(timeout=GRACE + BOUND)
        except subprocess.TimeoutExpired:
            fail(f"still running {GRACE + BOUND:.1f} s after SIGTERM (grace {GRACE} s)", process)
        elapsed = time.monotonic() - signalled
        log.seek(0)
        lines = [line for line in log.read().splitlines() if "stopped gracefully" in line]
        if not lines:
            fail("no 'stopped gracefully' line in the log")
        counts = re.search(r"(\d+) in-flight requests finished, (\d+) cut in ([\d.]+)", lines[-1])
        if not counts or int(counts.group(1)) + int(counts.group(2)) == 0:
            fail(f"the stop's log line does not count the {LOADERS} requests in flight: {lines[-1]}")
        if float(counts.group(3)) > GRACE + 1.5:
            fail(f"the stop took longer than its grace period: {lines[-1]}")
        print(f"shutdown-test: ok: 503 after SIGTERM, exit {elapsed:.2f} s after it (grace {GRACE} s); {lines[-1].split('stopped gracefully: ')[-1]}")
    finally:
        if process.poll() is None:
            process.kill()


if __name__ == "__main__":
    main()
