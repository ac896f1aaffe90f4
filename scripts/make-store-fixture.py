#!/usr/bin/env python3
"""Writes the store fixture of issue 36, item 6 ("sessions survive the upgrade"): a SQLite
store as today's build writes it, with sessions that touch all seven demos, and what the server
answered for each of their lists before it stopped.

A real `diffable-web` (the built debug binary, or $DIFFABLE_WEB_BINARY) is started on a fresh
state directory and driven through the HTTP API only (docs/protocol.md): sessions are made with
`POST /api/sessions` (the cookie is the session id, the answer's `id` the share id), their lists
changed with operations, a snapshot put and the demos' actions. Every list's
`GET /api/sessions/{share}/demos/{demo}/snapshot` is recorded, the server is stopped with SIGTERM
(and waited for), and the store's files are copied as the stopped server left them: the
database and its WAL when one is left (today's server does not checkpoint at exit; the WAL is
part of the file as written). The copy is then read once more in a scratch directory with
Python's sqlite3, to record the schema version (table `schema_version`), each list's stored
state (what `SQLiteSessionStore.list` reads: `lists.state`, or the last `changes.state` after
`lists.version`) and whether it is derived, and to check that the versions saved are the ones
answered.

Output: Tests/DiffableWebTests/Fixtures/schema<N>/ (N the schema version found) holding
`diffable-web.sqlite`, `diffable-web.sqlite-wal` (when left) and `expected.json`. Read by
Tests/DiffableWebTests/StoreUpgradeTests.swift.

    python3 scripts/make-store-fixture.py [--output DIR] [--force]"""
import argparse
import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from dwhttp import Client  # noqa: E402
from dwserver import BINARY, Server, watchdog  # noqa: E402

DATABASE = "diffable-web.sqlite"
FIXTURES = os.path.join(ROOT, "Tests", "DiffableWebTests", "Fixtures")
DEMOS = ["numbers", "mountains", "photos", "outline", "explore", "urls", "destinations"]


def utc(timestamp):
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def fail(message):
    print(f"make-store-fixture: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Driver:
    """Calls the API and fails on any answer but a 2xx."""

    def __init__(self, port):
        self.client = Client(port)

    def call(self, method, path, body=None):
        reply = self.client.call(method, path, body)
        if not 200 <= reply.status < 300:
            fail(f"{method} {path} {json.dumps(body)}: {reply}")
        return reply

    def session(self):
        reply = self.call("POST", "/api/sessions")
        cookie, share = reply.cookie(), reply.json()["id"]
        if not cookie or cookie == share:
            fail(f"POST /api/sessions: no session cookie apart from the share id ({reply})")
        return {"id": cookie, "shareID": share}

    def operations(self, session, demo, *operations):
        self.call("POST", f"/api/sessions/{session['shareID']}/demos/{demo}/operations", {"operations": list(operations)})

    def action(self, session, demo, action, **parameters):
        self.call("POST", f"/api/sessions/{session['shareID']}/demos/{demo}/actions/{action}", parameters)

    def put(self, session, demo, sections):
        self.call("PUT", f"/api/sessions/{session['shareID']}/demos/{demo}/snapshot", {"sections": sections})

    def snapshot(self, session, demo):
        return self.call("GET", f"/api/sessions/{session['shareID']}/demos/{demo}/snapshot").json()


def drive(api):
    """Makes the fixture's sessions; returns them, each with a note and the demos it opened."""
    available = sorted(demo["name"] for demo in api.call("GET", "/api/demos").json())
    if available != sorted(DEMOS):
        fail(f"GET /api/demos lists {available}, the fixture expects {sorted(DEMOS)}")
    sessions = []

    # Every demo, each changed by its actions or operations.
    every = api.session()
    every["note"] = "every demo, each changed through its actions or operations"
    api.action(every, "numbers", "append", count=3)                                 # n6 n7 n8
    api.operations(every, "numbers", {"op": "moveItem", "item": "n1", "afterItem": "n3"},
                   {"op": "deleteItems", "items": ["n2"]})
    api.action(every, "numbers", "move", **{"from": 0, "to": 4})
    api.action(every, "numbers", "reorder", item="n8", to=0)                         # one reorder by hand
    api.action(every, "numbers", "removeCenter")
    api.action(every, "mountains", "search", query="ben")                            # a derived list: its query
    api.action(every, "outline", "expand", item="h8000-8999")
    api.action(every, "outline", "expand", item="h7000-7999")
    api.action(every, "outline", "expand", item="h8800-8899")                        # a second level
    api.action(every, "outline", "collapse", item="h7000-7999")                      # loaded, collapsed
    api.action(every, "photos", "setLayout", layout="grid")
    api.action(every, "photos", "loadMore")
    api.action(every, "explore", "shuffle", section="new")
    api.action(every, "urls", "publish", urls=["https://example.com/one", "https://example.com/two",
                                               "https://example.com/three"])
    api.action(every, "urls", "pause")
    api.action(every, "destinations", "like", post="post-0002")
    api.action(every, "destinations", "like", post="post-0005")
    api.action(every, "destinations", "like", post="post-0007")
    api.action(every, "destinations", "unlike", post="post-0005")
    api.operations(every, "destinations", {"op": "deleteItems", "items": ["post-0010"]})
    sessions.append(every)

    # A list a script edited (Mountains is no longer its query), sections put whole, more changes.
    edited = api.session()
    edited["note"] = ("Mountains searched, then edited by a script (a checkpoint and a change after it); Numbers put as two "
                     "sections; the URL stream paused and resumed")
    api.action(edited, "mountains", "search", query="pic")
    found = [item["id"] for section in api.snapshot(edited, "mountains")["sections"] for item in section["items"]]
    api.operations(edited, "mountains", {"op": "deleteItems", "items": found[1:3]},
                   {"op": "moveItem", "item": found[-1], "beforeItem": found[0]})    # saved whole (a checkpoint)
    api.operations(edited, "mountains", {"op": "deleteItems", "items": [found[3]]})  # a change after it
    api.put(edited, "numbers", [{"id": "odd", "items": ["n1", "n3", "n5"]}, {"id": "even", "items": ["n2", "n4"]}])
    api.action(edited, "numbers", "append", count=2)
    api.operations(edited, "numbers", {"op": "moveSection", "section": "even", "beforeSection": "odd"},
                   {"op": "reloadItems", "items": ["n3"]})
    for _ in range(3):
        api.action(edited, "numbers", "append")
        api.action(edited, "numbers", "removeLast")
    api.action(edited, "outline", "toggle", item="h0-999")
    api.action(edited, "photos", "setLayout", layout="list")
    api.action(edited, "photos", "loadMore")
    api.action(edited, "photos", "loadMore")
    api.action(edited, "urls", "pause")
    api.action(edited, "urls", "resume")
    sessions.append(edited)

    # Lists opened and left as they started.
    untouched = api.session()
    untouched["note"] = "Numbers and Explore opened (read), never changed"
    api.snapshot(untouched, "numbers")
    api.snapshot(untouched, "explore")
    sessions.append(untouched)

    # A session and no list.
    empty = api.session()
    empty["note"] = "a session that opened no list"
    sessions.append(empty)

    for session in sessions:
        described = api.call("GET", f"/api/sessions/{session['shareID']}").json()
        opened = [demo["name"] for demo in described["demos"] if demo["opened"]]
        session["lists"] = {demo: api.snapshot(session, demo) for demo in DEMOS if demo in opened}
    return sessions


def stored(directory, sessions):
    """Reads a copy of the store: its schema version, and per list its state and derived flag
    (checking that the store holds exactly the sessions and lists answered, at their versions)."""
    connection = sqlite3.connect(os.path.join(directory, DATABASE))
    try:
        version = connection.execute("SELECT version FROM schema_version").fetchone()[0]
        rows = set(connection.execute("SELECT id, share_id FROM sessions").fetchall())
        answered = {(session["id"], session["shareID"]) for session in sessions}
        if rows != answered:
            fail(f"the store holds sessions {sorted(rows)}, the server answered {sorted(answered)}")
        for session in sessions:
            demos = {row[0] for row in connection.execute("SELECT demo FROM lists WHERE session_id = ?", (session["id"],))}
            if demos != set(session["lists"]):
                fail(f"session {session['id']}: the store holds lists {sorted(demos)}, the server opened {sorted(session['lists'])}")
            for demo, answer in session["lists"].items():
                head, state, derived = connection.execute(
                    "SELECT version, state, derived FROM lists WHERE session_id = ? AND demo = ?", (session["id"], demo)).fetchone()
                last = head
                for change, changed in connection.execute(
                        "SELECT version, state FROM changes WHERE session_id = ? AND demo = ? AND version > ? ORDER BY version",
                        (session["id"], demo, head)):
                    last = change
                    if changed is not None:
                        state = changed
                if last != answer["version"]:
                    fail(f"{session['id']}/{demo}: saved at version {last}, answered {answer['version']}")
                answer["state"] = json.loads(state)
                answer["derived"] = bool(derived)
        return version
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", help="the directory to write (default: Tests/DiffableWebTests/Fixtures/schema<N>)")
    parser.add_argument("--force", action="store_true",
                        help="replace a fixture that is there (a committed one stands for stores written by its build)")
    arguments = parser.parse_args()
    watchdog("make-store-fixture", 120)

    server = Server("store-fixture", ["--log-level", "warning"])
    try:
        sessions = drive(Driver(server.port))
        status = server.stop()
        if status != 0:
            fail(f"the server exited with status {status} after SIGTERM; log: {server.log()[-500:]}")
        state = os.path.join(server.directory, "state")
        files = [name for name in (DATABASE, DATABASE + "-wal")
                 if os.path.exists(os.path.join(state, name)) and os.path.getsize(os.path.join(state, name)) > 0]

        scratch = tempfile.mkdtemp(prefix="store-fixture-check-")
        try:
            for name in files:
                shutil.copy2(os.path.join(state, name), scratch)
            schema = stored(scratch, sessions)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

        output = arguments.output or os.path.join(FIXTURES, f"schema{schema}")
        if os.path.exists(os.path.join(output, "expected.json")) and not arguments.force:
            fail(f"{os.path.relpath(output, ROOT)} holds a fixture already (--force replaces it, --output writes elsewhere)")
        os.makedirs(output, exist_ok=True)
        for name in (DATABASE, DATABASE + "-wal", DATABASE + "-shm", "expected.json"):
            if os.path.exists(os.path.join(output, name)):
                os.remove(os.path.join(output, name))
        for name in files:
            shutil.copyfile(os.path.join(state, name), os.path.join(output, name))
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        expected = {
            "about": "Written by scripts/make-store-fixture.py: the store a server of this build left after SIGTERM, and what "
                     "GET /api/sessions/{shareID}/demos/{demo}/snapshot answered for every list before the stop. `state` and "
                     "`derived` are read from the file (lists.state, or the last changes.state after lists.version).",
            "generatedAt": utc(datetime.datetime.now().timestamp()),
            # The checkout's HEAD as the fixture was written; the binary may have been built before it.
            "build": {"headCommit": commit, "binary": os.path.relpath(BINARY, ROOT),
                      "binaryModified": utc(os.path.getmtime(BINARY))},
            "schemaVersion": schema,
            "files": files,
            "sessions": sessions,
        }
        with open(os.path.join(output, "expected.json"), "w") as f:
            json.dump(expected, f, indent=1, ensure_ascii=False, sort_keys=True)
            f.write("\n")

        size = sum(os.path.getsize(os.path.join(output, name)) for name in os.listdir(output))
        print(f"make-store-fixture: {os.path.relpath(output, ROOT)}: schema {schema}, files {files + ['expected.json']}, "
              f"{size} bytes")
        for session in sessions:
            print(f"  session {session['id']} (share {session['shareID']}): {session['note']}")
            for demo, answer in session["lists"].items():
                count = sum(len(section["items"]) for section in answer["sections"])
                print(f"    {demo}: version {answer['version']}, {len(answer['sections'])} sections, {count} items, "
                      f"{'derived, ' if answer['derived'] else ''}state {json.dumps(answer['state'], ensure_ascii=False)}")
        if size >= 1 << 20:
            fail(f"the fixture is {size} bytes, over 1 MiB")
    finally:
        server.remove()


if __name__ == "__main__":
    main()
