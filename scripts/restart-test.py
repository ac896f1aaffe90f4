#!/usr/bin/env python3
"""Sessions survive the process: a real `diffable-web` with a state directory is driven over
HTTP, then killed with SIGKILL after its last answer; a new process on the same directory must
show every change that was answered 2xx (same items, same version), and a client reconnecting
with a `Last-Event-ID` from before the crash must get the events it missed (the saved event
log), not a fresh snapshot. Then a search typed right before a SIGTERM must be there after the
restart (the stop writes what was deferred). Last, the eviction race (issue 21): with
`--max-sessions 2`, writers appending to one session while other clients make sessions (each
one evicts it); every append answered 200 must be there live and after kill -9.

Bounded: every request has a timeout; the servers are killed on any failure."""
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("DIFFABLE_WEB_BINARY", os.path.join(ROOT, ".build", "debug", "diffable-web"))


def fail(message):
    print(f"restart-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def start(state, *flags):
    process = subprocess.Popen([BINARY, "--port", "0", "--log-level", "warning", "--state-dir", state, *flags],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", process.stdout.readline() or "")
    if not match:
        process.kill()
        fail("the server did not start")
    return process, int(match.group(1))


def call(port, method, path, body=None, cookie=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = f"dw_session={cookie}"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    is_json = (response.getheader("Content-Type") or "").startswith("application/json")
    return response.status, (json.loads(data) if data and is_json else None), response.getheader("Set-Cookie") or ""


def read_events(port, path, last_event_id=None, count=1, timeout=10):
    """The first `count` events (name, id) of an event stream."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "text/event-stream"}
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    if response.status != 200:
        fail(f"stream {path}: {response.status}")
    events, name, event_id = [], None, None
    while len(events) < count:
        line = response.fp.readline().decode()
        if not line:
            break
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("id: "):
            event_id = line[4:]
        elif line == "" and name:
            events.append((name, event_id))
            name, event_id = None, None
    connection.close()
    return events


def items(snapshot):
    return [item["id"] for section in snapshot["sections"] for item in section["items"]]


def eviction_race(servers):
    """Writers, session creation and eviction together for 2 s; then kill -9 and a restart."""
    state = tempfile.mkdtemp(prefix="dw-evict-")
    try:
        server, port = start(state, "--max-sessions", "2")
        servers.append(server)
        _, session, _ = call(port, "POST", "/api/sessions")
        root = f"/api/sessions/{session['id']}/demos/numbers"
        _, first, _ = call(port, "GET", f"{root}/snapshot")
        deadline = time.monotonic() + 2
        answered, refused, errors, lock = [], [], [], threading.Lock()

        def write():
            while time.monotonic() < deadline:
                try:
                    status, body, _ = call(port, "POST", f"{root}/actions/append", {})
                except Exception as error:  # noqa: BLE001 - reported below
                    with lock:
                        errors.append(repr(error))
                    return
                with lock:
                    (answered if status == 200 else refused).append(body["version"] if status == 200 else status)

        def create():
            while time.monotonic() < deadline:
                call(port, "POST", "/api/sessions")

        threads = [threading.Thread(target=write) for _ in range(6)] + [threading.Thread(target=create) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        if errors or refused or len(set(answered)) != len(answered):
            fail(f"eviction race: errors {errors[:3]}, refused {refused[:5]}, "
                 f"{len(answered) - len(set(answered))} versions answered twice")
        expected = (first["version"] + len(answered), len(items(first)) + len(answered))
        _, live, _ = call(port, "GET", f"{root}/snapshot")
        if (live["version"], len(set(items(live)))) != expected:
            fail(f"eviction race, live: version {live['version']}, {len(set(items(live)))} items; expected {expected}")
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        server, port = start(state)
        servers.append(server)
        _, after, _ = call(port, "GET", f"{root}/snapshot")
        if (after["version"], len(set(items(after)))) != expected:
            fail(f"eviction race, after kill -9: version {after['version']}, {len(set(items(after)))} items; expected {expected}")
        return len(answered)
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main():
    state = tempfile.mkdtemp(prefix="dw-restart-")
    servers = []
    try:
        server, port = start(state)
        servers.append(server)
        status, session, _ = call(port, "POST", "/api/sessions")
        share = session["id"]
        root = f"/api/sessions/{share}/demos/numbers"
        rng = random.Random(7)
        answered = None
        for _ in range(60):
            _, snapshot, _ = call(port, "GET", f"{root}/snapshot")
            ids = items(snapshot)
            if rng.random() < 0.3 or len(ids) < 3:
                status, body, _ = call(port, "POST", f"{root}/actions/append", {"count": rng.randint(1, 5)})
            else:
                a, b = rng.sample(ids, 2)
                status, body, _ = call(port, "POST", f"{root}/operations",
                                       {"operations": [{"op": "moveItem", "item": a, "beforeItem": b}]})
            if status != 200:
                fail(f"a write answered {status}: {body}")
            answered = body["version"]
        _, last, _ = call(port, "GET", f"{root}/snapshot")
        if last["version"] != answered:
            fail(f"the snapshot is at {last['version']}, the last answer said {answered}")
        first = read_events(port, f"{root}/events")
        epoch = first[0][1].rsplit("-", 1)[0]
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)

        server, port = start(state)
        servers.append(server)
        status, after, _ = call(port, "GET", f"{root}/snapshot")
        if status != 200 or after["version"] != answered or items(after) != items(last):
            fail(f"after kill -9: {status}, version {after and after.get('version')} (answered {answered}), "
                 f"{len(items(after or {'sections': []}))} items (had {len(items(last))})")

        # A client that saw version answered-5 before the crash gets the five changes it missed,
        # under the same ids, then its window: a replay, not a fresh snapshot.
        replay = read_events(port, f"{root}/events", last_event_id=f"{epoch}-{answered - 5}", count=6)
        expected = [("changeset", f"{epoch}-{v}") for v in range(answered - 4, answered + 1)]
        if replay[:5] != expected or replay[5][0] != "window":
            fail(f"the replay after kill -9 was {replay}, expected {expected} and a window")

        # A search is saved lazily (within 250 ms); SIGTERM writes it before the process ends.
        status, _, cookie_header = call(port, "GET", "/demos/mountains")
        cookie = re.search(r"dw_session=([^;]+)", cookie_header).group(1)
        call(port, "POST", "/demos/mountains/actions/search", {"query": "everest"}, cookie)
        server.send_signal(signal.SIGTERM)
        if server.wait(timeout=15) != 0:
            fail(f"SIGTERM: exit {server.returncode}")
        server, port = start(state)
        servers.append(server)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/demos/mountains", headers={"Cookie": f"dw_session={cookie}"})
        response = connection.getresponse()
        html = response.read().decode()
        if 'value="everest"' not in html or "Mount Everest" not in html:
            fail("the search typed before SIGTERM was not kept")
        print(f"restart-test: {answered} answered versions survived kill -9, and their events replay; a search survived SIGTERM")
        raced = eviction_race(servers)
        print(f"restart-test: {raced} appends answered 200 while their session was evicted again and again survived kill -9")
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
