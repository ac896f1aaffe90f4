#!/usr/bin/env python3
"""Builds Examples/CustomList from outside the repository (copied to a folder of its own,
depending on DiffableWeb by the repository's path) and drives it over HTTP as a browser and a
script would: the page renders the example's own cell template, an action inserts an item that
arrives on the event stream, a duplicate is refused with 422 naming it and changes nothing,
SIGTERM stops the server cleanly, and a restart keeps the list and its state (the added item's
aisle).

Bounded: every wait has a timeout; the server is killed on any failure."""
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import shutil
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "Examples", "CustomList")
# Outside the repository, at a path stable for this checkout (the scratch folder's build is
# reused between runs; scripts/api-contract finds it there).
EXAMPLE = os.path.join(tempfile.gettempdir(), "diffableweb-example-" + hashlib.sha1(ROOT.encode()).hexdigest()[:8])
SCRATCH = os.path.join(ROOT, ".build-example")


def fail(message):
    print(f"example-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def request(port, method, path, body=None, cookie=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = f"dw_session={cookie}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read().decode()
    connection.close()
    return response, data


class EventStream:
    """A plain-socket SSE reader over HTTP/1.1 chunked encoding: returns (event, data) blocks."""

    def __init__(self, port, path, cookie):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\nCookie: dw_session={cookie}\r\n\r\n".encode())
        self.raw = b""
        self.head_done = False
        self.body = b""

    def _dechunk(self):
        if not self.head_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.raw.startswith(b"HTTP/1.1 200"):
                fail(f"the event stream answered {self.raw[:40]!r}")
            self.raw, self.head_done = self.raw[end + 4 :], True
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.body += self.raw[line_end + 2 : line_end + 2 + size]
            self.raw = self.raw[line_end + 2 + size + 2 :]

    def next_event(self, deadline=10):
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            self._dechunk()
            while b"\n\n" in self.body:
                block, self.body = self.body.split(b"\n\n", 1)
                lines = block.decode().split("\n")
                event = next((line[7:] for line in lines if line.startswith("event: ")), None)
                if event:
                    return event, "".join(line[6:] for line in lines if line.startswith("data: "))
            chunk = self.socket.recv(65536)
            if not chunk:
                fail("the event stream ended")
            self.raw += chunk
        fail("no event within the deadline")

    def close(self):
        self.socket.close()


def copy_example():
    """The example as a package of its own would have it: its files, and DiffableWeb by path."""
    shutil.rmtree(EXAMPLE, ignore_errors=True)
    shutil.copytree(SOURCE, EXAMPLE, ignore=shutil.ignore_patterns(".build", ".state", "Package.resolved"))
    manifest = os.path.join(EXAMPLE, "Package.swift")
    text = open(manifest, encoding="utf-8").read()
    if 'path: "../.."' not in text:
        fail("Examples/CustomList/Package.swift no longer depends on DiffableWeb by path \"../..\"")
    open(manifest, "w", encoding="utf-8").write(text.replace('path: "../.."', json.dumps(ROOT).join(["path: ", ""])))


def start(binary):
    server = subprocess.Popen([binary, "0"], cwd=EXAMPLE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        server.kill()
        fail(f"the example did not say where it listens: {line!r}")
    return server, int(match.group(1))


def stop(server):
    server.send_signal(signal.SIGTERM)
    if server.wait(timeout=15) != 0:
        fail(f"the example exited with {server.returncode} on SIGTERM")


def items(port, session):
    response, body = request(port, "GET", f"/api/sessions/{session}/demos/groceries/snapshot")
    if response.status != 200:
        fail(f"snapshot: {response.status} {body[:200]}")
    return [(item["id"], item.get("data", {}).get("aisle")) for item in json.loads(body)["sections"][0]["items"]]


def main():
    print(f"== building Examples/CustomList as a package outside the repository ({EXAMPLE})")
    copy_example()
    # SwiftPM keeps a path dependency's file list in the scratch directory's build description
    # and does not notice a source file added to DiffableWeb since the last build ("cannot find
    # … in scope"); without the description it plans again (a fresh clone has none anyway).
    description = os.path.join(SCRATCH, "debug.yaml")
    if os.path.exists(description):
        os.remove(description)
    subprocess.run(["swift", "build", "--package-path", EXAMPLE, "--scratch-path", SCRATCH], check=True)
    binary = os.path.join(SCRATCH, "debug", "CustomList")
    server, port = start(binary)
    try:

        response, page = request(port, "GET", "/demos/groceries")
        cookie = re.search(r"dw_session=([^;]+)", response.getheader("Set-Cookie") or "")
        if response.status != 200 or not cookie:
            fail(f"GET /demos/groceries: {response.status}")
        cookie = cookie.group(1)
        for needle in ['<span class="grocery-name">Bread</span>', 'data-action="add"', 'name="item"', ">Sort by aisle</button>"]:
            if needle not in page:
                fail(f"the page lacks {needle}")
        session = re.search(r'<code id="session-id">([^<]+)</code>', page).group(1)

        stream = EventStream(port, "/demos/groceries/events?width=600&height=800&top=0", cookie)
        event, data = stream.next_event()
        if event != "snapshot" or json.loads(data)["sections"] != [{"id": "list", "items": ["Bread", "Milk", "Apples", "Coffee"]}]:
            fail(f"first event: {event} {data[:200]}")

        response, body = request(port, "POST", "/demos/groceries/actions/add", {"item": "Lemons"}, cookie)
        if response.status != 200:
            fail(f"add Lemons: {response.status} {body}")
        event, data = stream.next_event()
        change = json.loads(data)
        if event != "changeset" or not any("Lemons" in run["ids"] for run in change.get("inserted", [])):
            fail(f"the add did not arrive as an insert: {event} {data[:300]}")
        if 'grocery-name\\">Lemons' not in data:
            fail("the inserted cell's HTML is not the example's template")

        before = request(port, "GET", f"/api/sessions/{session}/demos/groceries/snapshot")[1]
        response, body = request(port, "POST", f"/api/sessions/{session}/demos/groceries/actions/add", {"item": "Milk"})
        error = json.loads(body)
        if response.status != 422 or error.get("error") != "duplicate_items" or "Milk" not in error.get("message", ""):
            fail(f"a duplicate was not refused with a 422 naming it: {response.status} {body}")
        after = request(port, "GET", f"/api/sessions/{session}/demos/groceries/snapshot")[1]
        if before != after or [item["id"] for item in json.loads(after)["sections"][0]["items"]] != ["Bread", "Milk", "Apples", "Coffee", "Lemons"]:
            fail(f"the refused add changed the list: {after[:300]}")
        stream.close()
        saved = items(port, session)
        stop(server)

        # A restart: the list and its state (Lemons' aisle) are as they were; actions go on.
        server, port = start(binary)
        if items(port, session) != saved:
            fail(f"the restart lost the list or its state: {items(port, session)} != {saved}")
        response, body = request(port, "POST", f"/api/sessions/{session}/demos/groceries/actions/sortByAisle", {})
        ordered = items(port, session)
        if response.status != 200 or ordered != sorted(saved, key=lambda item: (int(item[1]), item[0])):
            fail(f"sortByAisle after the restart: {response.status} {ordered}")
        response, body = request(port, "POST", f"/api/sessions/{session}/demos/groceries/actions/add", {})
        if response.status != 400 or "item" not in json.loads(body).get("message", ""):
            fail(f"an add without its item was not a 400 naming it: {response.status} {body}")
        stop(server)
        print("example-test: Examples/CustomList builds outside the repository, serves its own cells, streams changes, "
              "refuses bad input, stops cleanly, and keeps its list and state across a restart")
    finally:
        if server.poll() is None:
            server.kill()


if __name__ == "__main__":
    main()
