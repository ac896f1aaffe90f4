#!/usr/bin/env python3
"""The server's logs (issue 38), on a real `diffable-web`:

  a. `--log-format json --log-level debug`: every line of stderr is one JSON object with `time`,
     `level` and `message`; a request sent with `X-Request-ID: log-test-1` has its line (debug),
     whose metadata holds `request_id: "log-test-1"`, the route template as `route`, `method`,
     `status` and its duration (`duration`, or with its unit: `duration_ms`); a request on a route with a session's id in its path logs the
     template, not the id;
  b. `--log-format text` still serves, and its request line names the request's id;
  c. `--log-format yaml` is refused at start: a non-zero exit and a message naming `--log-format`.

Bounded: every request has a timeout, the run a watchdog; servers are killed on any failure.

    python3 scripts/log-test.py      (DIFFABLE_WEB_BINARY: the server, default .build/debug)"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from dwhttp import Client  # noqa: E402
from findings import Findings  # noqa: E402
from dwserver import BINARY, Server, StartError, wait_for, watchdog  # noqa: E402

NAME = "log-test"
findings = Findings(NAME)
log, fail = findings.log, findings.fail


def records(text):
    """(line, the JSON object or None) for every line."""
    result = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        result.append((line, value if isinstance(value, dict) else None))
    return result


def fields(record):
    """A JSON log line's fields: its top level, and its `metadata` object if it has one."""
    metadata = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
    return {**metadata, **record}


def field(record, name):
    return fields(record).get(name)


def request_line(server, request_id):
    """The JSON line whose request_id is `request_id`, once it is written (5 s)."""
    def find():
        return next((r for _, r in records(server.log()) if r and field(r, "request_id") == request_id
                     and field(r, "route") is not None), None)
    return wait_for(find, 5)


def json_logs():
    server = Server(NAME, ["--log-format", "json", "--log-level", "debug"])
    try:
        check_json_logs(server)
    finally:
        server.remove()


def check_json_logs(server):
    client = Client(server.port)
    try:
        reply = client.call("GET", "/api/demos", headers={"X-Request-ID": "log-test-1"})
        if reply.status != 200 or reply.headers.get("x-request-id") != "log-test-1":
            fail(f"a: GET /api/demos with X-Request-ID: log-test-1 answered {reply.status}, "
                 f"X-Request-ID {reply.headers.get('x-request-id')!r}")
        reply = client.call("POST", "/api/sessions")
        share = (reply.json() or {}).get("id", "")
        client.call("GET", f"/api/sessions/{share}", headers={"X-Request-ID": "log-test-2"})
        line = request_line(server, "log-test-1")
        if line is None:
            fail("a: no JSON line with request_id \"log-test-1\" and a route within 5 s")
        else:
            expected = {"route": "/api/demos", "method": "GET", "level": "debug"}
            for name, value in expected.items():
                if field(line, name) != value:
                    fail(f"a: the request's line has {name} {field(line, name)!r}, expected {value!r}: {line}")
            if str(field(line, "status")) != "200":
                fail(f"a: the request's line has status {field(line, 'status')!r}, expected 200: {line}")
            durations = [k for k in fields(line) if k == "duration" or k.startswith("duration_")]
            if not durations:
                fail(f"a: the request's line has no duration (`duration`, or `duration_<unit>`): {line}")
            log(f"a. GET /api/demos logged as {json.dumps(line)[:300]}")
        line = request_line(server, "log-test-2")
        if line is None:
            fail("a: no JSON line with request_id \"log-test-2\" and a route within 5 s")
        elif share and share in str(field(line, "route")):
            fail(f"a: the route of GET /api/sessions/<id> holds the id, not the template: {line}")
    finally:
        client.close()
        status = server.stop()
    text = server.log()
    lines = records(text)
    bad = [line for line, record in lines if record is None
           or not all(isinstance(record.get(k), str) and record.get(k) for k in ("time", "level", "message"))]
    if not lines:
        fail("a: --log-format json --log-level debug wrote nothing to stderr")
    if bad:
        fail(f"a: {len(bad)} of {len(lines)} stderr lines are not JSON objects with time, level and message, "
             f"e.g. {bad[0][:200]!r}")
    else:
        log(f"a. {len(lines)} stderr lines, each a JSON object with time, level and message (exit {status})")


def text_logs():
    server = Server(NAME, ["--log-format", "text", "--log-level", "debug"])
    client = Client(server.port)
    try:
        reply = client.call("GET", "/healthz", headers={"X-Request-ID": "log-test-3"})
        if reply.status != 200:
            fail(f"b: --log-format text: GET /healthz answered {reply}")
        if not wait_for(lambda: "log-test-3" in server.log(), 5):
            fail(f"b: --log-format text: no line names log-test-3: {server.log()[-400:]!r}")
        else:
            line = next(line for line in server.log().splitlines() if "log-test-3" in line)
            if records(line)[0][1] is not None:
                fail(f"b: --log-format text wrote a JSON line: {line}")
            log(f"b. --log-format text: {line[:200]}")
    finally:
        client.close()
        server.remove()


def refused_format():
    try:
        result = subprocess.run([BINARY, "--port", "0", "--log-format", "yaml"], capture_output=True, text=True,
                                timeout=30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail("c: --log-format yaml still running after 30 s (it started?)")
        return
    output = result.stdout + result.stderr
    if result.returncode == 0 or "--log-format" not in output or "unknown option" in output.lower():
        fail(f"c: --log-format yaml exited {result.returncode}: {output.strip()[-300:]!r}")
    else:
        log(f"c. --log-format yaml refused (exit {result.returncode}): {output.strip().splitlines()[0][:160]}")


def main():
    watchdog(NAME, 90)
    started = time.monotonic()
    for part in (json_logs, text_logs, refused_format):
        try:
            part()
        except StartError as error:
            fail(f"{part.__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - reported, then the next part
            fail(f"{part.__name__}: {type(error).__name__}: {error}")
    findings.finish(started)


if __name__ == "__main__":
    main()
