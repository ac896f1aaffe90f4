#!/usr/bin/env python3
"""Load on the JSON API (issue 7 benchmark): requests/s and latency percentiles of
`POST …/operations` with a small batch (move one item) and of `GET …/snapshot`, with the Numbers
list at 1,000 and 10,000 items; then the time from an API call to the event at a subscribed
client (`GET …/events`).

The throughput runs use wrk (Debian's `wrk`, with a generated Lua script for the POST); the
event latency is measured here (standard library only). Everything on 127.0.0.1, bounded in
count and time; the server is started here and stopped at the end.

    python3 Benchmarks/web/api_load.py [--binary .build/release/diffable-web] [--seconds 5]

Prints a markdown table.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_server(binary, state_dir=None):
    # --memory-only unless asked: this measures the live path; --store measures it with the
    # SQLite store saving every change (see BENCHMARKS.md).
    storage = ["--state-dir", state_dir] if state_dir else ["--memory-only"]
    process = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0", "--log-level", "warning", *storage],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.match(r"Listening on http://127\.0\.0\.1:(\d+)/", line or "")
        if match:
            return process, int(match.group(1))
        if process.poll() is not None:
            break
    process.kill()
    sys.exit("the server did not start")


class API:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method, path, body=None):
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path} → {response.status} {payload[:200]!r}")
        return json.loads(payload) if payload else None


def prepare(port, items):
    """A session whose Numbers list has `items` items; returns (share id, first id, last id)."""
    api = API(port)
    share = api.call("POST", "/api/sessions")["id"]
    root = f"/api/sessions/{share}/demos/numbers"
    count = sum(len(s["items"]) for s in api.call("GET", f"{root}/snapshot")["sections"])
    while count < items:
        step = min(10000, items - count)
        api.call("POST", f"{root}/actions/append", {"count": step})
        count += step
    snapshot = api.call("GET", f"{root}/snapshot")
    ids = [item["id"] for section in snapshot["sections"] for item in section["items"]]
    assert len(ids) == items, len(ids)
    return share, ids


MOVE_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bodies = {}
-- Rotate: move the last item to the top; the new last item is the one before it.
local ids = {%s}
local n = #ids
local i = n
request = function()
  local item, before = ids[i], ids[(i %% n) + 1]
  i = i - 1
  if i == 0 then i = n end
  return wrk.format(nil, nil, nil,
    '{"operations":[{"op":"moveItem","item":"' .. item .. '","beforeItem":"' .. before .. '"}]}')
end
"""


def wrk(url, seconds, connections, script=None):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], capture_output=True, text=True, timeout=seconds + 60).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))

    def percentile(name):
        match = re.search(rf"^\s+{name}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    requests = re.search(r"(\d+) requests in", output)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors:.*", output)
    return {"rate": rate, "p50": percentile("50"), "p99": percentile("99"), "requests": int(requests.group(1)) if requests else 0,
            "errors": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(0) if socket_errors else ""}


def cpu_seconds(pid):
    """User + system CPU time a process has used (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured_wrk(pid, url, seconds, connections, script=None):
    """wrk, plus the server's CPU time per request: on a shared machine the rate moves with the
    other load, while the CPU a request costs the server moves much less."""
    before = cpu_seconds(pid)
    result = wrk(url, seconds, connections, script)
    result["cpu_us"] = (cpu_seconds(pid) - before) / max(1, result["requests"]) * 1e6
    return result


def event_latency(port, items, samples):
    """Sends `samples` operations one at a time; for each, the time from sending the POST to the
    arrival of the changeset carrying its version on a subscribed client's event stream."""
    share, ids = prepare(port, items)
    root = f"/api/sessions/{share}/demos/numbers"
    arrivals, ready, stop = {}, threading.Event(), threading.Event()
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    stream.request("GET", f"{root}/events?width=1024&height=768", headers={"Accept": "text/event-stream"})
    response = stream.getresponse()
    assert response.status == 200, response.status

    def read():
        event, data = None, []
        while not stop.is_set():
            try:
                line = response.readline()
            except (OSError, ValueError, AttributeError):  # the stream was closed at the end
                return
            if not line:
                return
            line = line.decode("utf-8").rstrip("\r\n")
            if line == "":
                if event == "snapshot":
                    ready.set()
                elif event == "changeset" and data:
                    version = json.loads("\n".join(data))["version"]
                    arrivals[version] = time.perf_counter()
                event, data = None, []
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert ready.wait(30), "no snapshot event"
    api = API(port)
    latencies, round_trips = [], []
    n = len(ids)
    for k in range(samples):
        item, before = ids[n - 1 - (k % n)], ids[(n - 1 - (k % n) + 1) % n]
        sent = time.perf_counter()
        version = api.call("POST", f"{root}/operations",
                           {"operations": [{"op": "moveItem", "item": item, "beforeItem": before}]})["version"]
        round_trips.append((time.perf_counter() - sent) * 1000)
        deadline = time.monotonic() + 10
        while version not in arrivals and time.monotonic() < deadline:
            time.sleep(0.0002)
        assert version in arrivals, f"no changeset for version {version}"
        latencies.append((arrivals[version] - sent) * 1000)
    stop.set()
    stream.close()
    return latencies, round_trips


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    release = ROOT / ".build" / "release" / "diffable-web"
    parser.add_argument("--binary", default=str(release if release.exists() else ROOT / ".build" / "debug" / "diffable-web"))
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run (default %(default)s)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--samples", type=int, default=200, help="event-latency samples per size")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--store", action="store_true", help="save every change in a fresh SQLite store (default: memory only)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing (apt-get install -y wrk)")
    binary = Path(args.binary)
    print(f"binary: {binary}{'' if 'release' in str(binary) else '  (DEBUG build: not representative)'}",
          file=sys.stderr)
    state = tempfile.mkdtemp(prefix="dw-state-") if args.store else None
    process, port = start_server(binary, state)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="api-load.") as scratch:
            for items in (int(s) for s in args.sizes.split(",")):
                share, ids = prepare(port, items)
                root = f"http://127.0.0.1:{port}/api/sessions/{share}/demos/numbers"
                script = os.path.join(scratch, f"move-{items}.lua")
                with open(script, "w") as f:
                    f.write(MOVE_LUA % ", ".join(f'"{i}"' for i in ids))
                result = measured_wrk(process.pid, f"{root}/operations", args.seconds, args.connections, script)
                rows.append((f"`POST …/operations` (move 1 item), {items:,} items", result))
                result = measured_wrk(process.pid, f"{root}/snapshot", args.seconds, args.connections)
                rows.append((f"`GET …/snapshot`, {items:,} items", result))
            latencies = {}
            for items in (int(s) for s in args.sizes.split(",")):
                latencies[items] = event_latency(port, items, args.samples)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()

    print(f"| request ({args.connections} connections, {args.seconds} s, wrk -t1) | requests/s | p50 ms | p99 ms | non-2xx | server CPU µs/request |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in rows:
        print(f"| {name} | {r['rate']:,.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['errors']} | {r['cpu_us']:.0f} |"
              + (f" {r['socket_errors']}" if r["socket_errors"] else ""))
    print()
    print(f"| API call → event at a subscribed client ({args.samples} sequential moves) | p50 ms | p99 ms | max ms | POST round trip p50 ms |")
    print("|---|---:|---:|---:|---:|")
    for items, (values, trips) in latencies.items():
        print(f"| Numbers, {items:,} items | {statistics.median(values):.2f} | {quantile(values, 0.99):.2f} |"
              f" {max(values):.2f} | {statistics.median(trips):.2f} |")


if __name__ == "__main__":
    main()
