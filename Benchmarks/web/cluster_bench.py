#!/usr/bin/env python3
"""What the session store and several nodes cost (issue 13 benchmark): the same measures on

  memory      one process, --memory-only
  SQLite      one process, --state-dir (a fresh temporary directory)
  PostgreSQL  one node of `scripts/cluster` (asked directly)
  3 nodes     `scripts/cluster --nodes 3`, through nginx

Measures (the logic of api_load.py and keystroke_latency.py, imported from them):
  - API single-item operations/s: wrk, 16 connections, ~10 s, `POST …/operations` moving one item
    of a 1,000-item Numbers list; once on one list (16 clients on one session: one list's writer,
    and behind nginx one node), once on 16 lists (16 sessions, the requests spread over them);
  - API call → event at a subscribed client (sequential moves, api_load.event_latency);
  - keystroke → event: 1 session typing into the Mountains search with its event stream open
    (keystroke_latency.run), N keystrokes one after another.
Plus the CPU the serving processes used per operation (nodes, PostgreSQL and nginx, from /proc).

Not a test. Everything on 127.0.0.1, bounded; every process started here is stopped at the end.

    python3 Benchmarks/web/cluster_bench.py [--binary .build/release/diffable-web-postgres] [--seconds 10]

Before and after in one run: give --binary once per build and --rounds N; the builds alternate,
round after round (each row is named by its binary's index and path).

Prints a markdown table. Needs wrk (scripts/deps --bench), PostgreSQL and nginx-light.
"""
import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import api_load  # noqa: E402  (prepare, wrk, MOVE_LUA, event_latency, quantile, cpu_seconds)
import keystroke_latency  # noqa: E402  (Session, run, percentile)

CLUSTER = ROOT / "scripts" / "cluster"

# Like api_load.MOVE_LUA, over several sessions: request k goes to session k mod n, each session
# rotating its own list (its last item moved to the top).
MULTI_MOVE_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local paths = {%s}
local ids = {%s}
local n = #ids
local positions = {}
for s = 1, #paths do positions[s] = n end
local turn = 0
request = function()
  turn = turn %% #paths + 1
  local i = positions[turn]
  local item, before = ids[i], ids[(i %% n) + 1]
  i = i - 1
  if i == 0 then i = n end
  positions[turn] = i
  return wrk.format(nil, paths[turn], nil,
    '{"operations":[{"op":"moveItem","item":"' .. item .. '","beforeItem":"' .. before .. '"}]}')
end
"""


def free_block(count):
    import random
    import socket
    for _ in range(200):
        base = random.randrange(20000, 60000 - count)
        ok = True
        for port in range(base, base + count):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    sys.exit("no free ports")


def process_tree_pids(roots):
    """The pids of `roots` and all their descendants (PostgreSQL's backends, nginx's workers)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    seen, stack = set(), list(roots)
    while stack:
        pid = stack.pop()
        if pid not in seen:
            seen.add(pid)
            stack.extend(children.get(pid, []))
    return seen


def cpu_of(pids):
    total = 0.0
    for pid in pids:
        try:
            total += api_load.cpu_seconds(pid)
        except (OSError, IndexError, ValueError):
            pass  # gone
    return total


class Single:
    """One diffable-web process: memory-only or SQLite."""

    def __init__(self, name, binary, args, mountains):
        self.name = name
        self.state = tempfile.mkdtemp(prefix="dw-bench-state-") if "--state-dir" in args else None
        args = [a if a != "STATE" else self.state for a in args]
        self.process = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--log-level", "warning",
                                         "--mountains", str(mountains), "--connections-per-address", "0",
                                         "--max-sessions", "20000", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if "Listening on http://127.0.0.1:" not in line:
            self.stop()
            raise RuntimeError(f"{name}: the server did not start")
        self.port = int(line.rsplit(":", 1)[1].strip().strip("/"))

    def pids(self):
        return {"diffable-web": {self.process.pid}}

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.state:
            shutil.rmtree(self.state, ignore_errors=True)


class Cluster:
    """scripts/cluster in a temporary directory; `port` is node 1 (one node) or nginx (several)."""

    def __init__(self, name, binary, nodes, mountains):
        self.name = name
        self.work = tempfile.mkdtemp(prefix="dw-bench-cluster-")
        os.chmod(self.work, 0o755)
        self.dir = os.path.join(self.work, "cluster")
        base = free_block(nodes + 2)
        self.nodes = nodes
        result = subprocess.run([str(CLUSTER), "start", "--dir", self.dir, "--nodes", str(nodes), "--port", str(base),
                                 "--pg-port", str(base + nodes + 1), "--binary", binary, "--",
                                 "--mountains", str(mountains), "--max-sessions", "20000"],
                                capture_output=True, text=True, timeout=180)
        if result.returncode != 0:
            self.stop()
            raise RuntimeError(f"{name}: scripts/cluster start failed:\n{result.stdout}{result.stderr}")
        self.port = base + 1 if nodes == 1 else base

    def pids(self):
        groups = {"diffable-web": {int(open(os.path.join(self.dir, f"node{k}.pid")).read())
                                   for k in range(1, self.nodes + 1)},
                  "PostgreSQL": process_tree_pids(
                      [int(open(os.path.join(self.dir, "postgres", "data", "postmaster.pid")).readline())])}
        if self.nodes > 1:
            groups["nginx"] = process_tree_pids([int(open(os.path.join(self.dir, "nginx", "nginx.pid")).read())])
        return groups

    def stop(self):
        subprocess.run([str(CLUSTER), "stop", "--dir", self.dir], capture_output=True, timeout=120)
        shutil.rmtree(self.work, ignore_errors=True)


def measured_wrk(target, url, args, script):
    """api_load.wrk, plus the CPU the serving processes used per request, by group."""
    groups = target.pids()
    before = {name: cpu_of(pids) for name, pids in groups.items()}
    result = api_load.wrk(url, args.seconds, args.connections, script)
    requests = max(1, result["requests"])
    result["cpu"] = {name: (cpu_of(pids) - before[name]) / requests * 1e6 for name, pids in groups.items()}
    result["cpu_us"] = sum(result["cpu"].values())
    return result


def measure(target, args, scratch):
    row = {}
    # One list, 16 clients.
    share, ids = api_load.prepare(target.port, args.items)
    script = os.path.join(scratch, f"{target.name}-one.lua")
    with open(script, "w") as f:
        f.write(api_load.MOVE_LUA % ", ".join(f'"{i}"' for i in ids))
    url = f"http://127.0.0.1:{target.port}/api/sessions/{share}/demos/numbers/operations"
    row["one"] = measured_wrk(target, url, args, script)
    # 16 lists, the requests spread over them.
    shares = []
    for _ in range(args.connections):
        share, ids = api_load.prepare(target.port, args.items)
        shares.append(share)
    script = os.path.join(scratch, f"{target.name}-many.lua")
    with open(script, "w") as f:
        f.write(MULTI_MOVE_LUA % (", ".join(f'"/api/sessions/{s}/demos/numbers/operations"' for s in shares),
                                  ", ".join(f'"{i}"' for i in ids)))
    row["many"] = measured_wrk(target, f"http://127.0.0.1:{target.port}/", args, script)
    # API call → event.
    latencies, trips = api_load.event_latency(target.port, args.items, args.samples)
    row["event"] = (statistics.median(latencies), api_load.quantile(latencies, 0.99), statistics.median(trips))
    # Keystroke → event, one session.
    keystroke_latency.SERVER_PID = min(target.pids()["diffable-web"])  # run() reads it (its CPU figure is not used here)
    samples, elapsed, _, _ = asyncio.run(keystroke_latency.run(target.port, 1, args.keystrokes))
    values = [s[0] for s in samples]
    row["keys"] = (statistics.median(values), keystroke_latency.percentile(values, 99), max(values),
                   len(samples) / elapsed)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append",
                        help="the executable (again for another build: they alternate; default "
                             ".build/release/diffable-web-postgres)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds over the binaries and configs (default %(default)s)")
    parser.add_argument("--seconds", type=int, default=10, help="per wrk run (default %(default)s)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--items", type=int, default=1000, help="Numbers list size (default %(default)s)")
    parser.add_argument("--samples", type=int, default=200, help="API call → event samples")
    parser.add_argument("--keystrokes", type=int, default=300)
    parser.add_argument("--mountains", type=int, default=10_000, help="as keystroke_latency.py (default %(default)s)")
    parser.add_argument("--configs", default="memory,sqlite,postgres,cluster",
                        help="which of memory, sqlite, postgres, cluster (default: all)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing (scripts/deps --bench)")
    binaries = [os.path.abspath(b) for b in (args.binary or [str(ROOT / ".build" / "release" / "diffable-web-postgres")])]
    has_postgres = {}
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            sys.exit(f"no executable at {binary} (swift build -c release --product diffable-web-postgres)")
        help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
        has_postgres[binary] = "--database-url" in help_text
        print(f"binary: {binary}{'' if '/release/' in binary else '  (not a release build: not representative)'}",
              file=sys.stderr)

    plans = {
        "memory": ("memory (`--memory-only`)", lambda b: Single("memory", b, ["--memory-only"], args.mountains)),
        "sqlite": ("SQLite (`--state-dir`)", lambda b: Single("sqlite", b, ["--state-dir", "STATE"], args.mountains)),
        "postgres": ("PostgreSQL, 1 node", lambda b: Cluster("postgres", b, 1, args.mountains)),
        "cluster": ("PostgreSQL, 3 nodes behind nginx", lambda b: Cluster("cluster", b, 3, args.mountains)),
    }
    rows, notes = [], []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="cluster-bench.") as scratch:
        for round_ in range(1, args.rounds + 1):
            for index, binary in enumerate(binaries, 1):
                for key in args.configs.split(","):
                    label, make = plans[key]
                    if len(binaries) > 1 or args.rounds > 1:
                        label = f"{label}, binary {index}" + (f", round {round_}" if args.rounds > 1 else "")
                    if key in ("postgres", "cluster") and not has_postgres[binary]:
                        notes.append(f"{label}: skipped ({binary} has no --database-url)")
                        continue
                    print(f"{label}…", file=sys.stderr, flush=True)
                    started = time.monotonic()
                    target = make(binary)
                    try:
                        rows.append((label, measure(target, args, scratch)))
                    except Exception as error:
                        notes.append(f"{label}: failed: {type(error).__name__}: {error}")
                    finally:
                        target.stop()
                    print(f"  {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)

    if len(binaries) > 1:
        print()
        for index, binary in enumerate(binaries, 1):
            print(f"binary {index}: {binary}")
    print(f"\n| storage | ops/s, 1 list, {args.connections} clients | p50 · p99 ms | CPU µs/op "
          f"| ops/s, {args.connections} lists | p50 · p99 ms | CPU µs/op "
          f"| op → event p50 · p99 ms | keystroke → event p50 · p99 · max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, r in rows:
        one, many = r["one"], r["many"]
        errors = ""
        if one["errors"] or many["errors"]:
            errors = f" (non-2xx: {one['errors']} · {many['errors']})"
        print(f"| {label}{errors} | {one['rate']:,.0f} | {one['p50']:.2f} · {one['p99']:.2f} | {one['cpu_us']:.0f} "
              f"| {many['rate']:,.0f} | {many['p50']:.2f} · {many['p99']:.2f} | {many['cpu_us']:.0f} "
              f"| {r['event'][0]:.2f} · {r['event'][1]:.2f} "
              f"| {r['keys'][0]:.2f} · {r['keys'][1]:.2f} · {r['keys'][2]:.2f} |")
    print(f"\nwrk -t1, {args.seconds} s per run, `POST …/operations` moving one item of a {args.items:,}-item Numbers "
          f"list; {args.samples} sequential API calls for op → event; {args.keystrokes} keystrokes of 1 session "
          f"({args.mountains:,} mountains) for keystroke → event. CPU: the serving processes (nodes, PostgreSQL, "
          f"nginx) per operation, from /proc. All on one {os.cpu_count()}-core machine, load generator included "
          f"(load average before: {load_before:.2f}; other work on the machine moves these figures).")
    print(f"\n| storage | server CPU µs per operation, 1 list: diffable-web · PostgreSQL · nginx "
          f"| {args.connections} lists: diffable-web · PostgreSQL · nginx |")
    print("|---|---:|---:|")
    for label, r in rows:
        cells = []
        for part in ("one", "many"):
            cpu = r[part]["cpu"]
            cells.append(" · ".join(f"{cpu[name]:.0f}" if name in cpu else "—" for name in ("diffable-web", "PostgreSQL", "nginx")))
        print(f"| {label} | {cells[0]} | {cells[1]} |")
    for note in notes:
        print(f"\n{note}")


if __name__ == "__main__":
    main()
