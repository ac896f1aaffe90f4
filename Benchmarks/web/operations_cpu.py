#!/usr/bin/env python3
"""`POST …/operations` on a list of N items: latency and server CPU per operation, for several
builds side by side in one run (issue 36's "no slower": a typed list's write against the
untyped demo's).

For each build and size, round after round (builds alternating): a fresh release server
(memory only, or `--store` a fresh SQLite store), one session whose Numbers list is put to N
items (`PUT …/snapshot`), then K operations one after another, each moving one item to the
front (`moveItem … beforeItem`, so every write changes the list). Server CPU is the process's
user + system time (/proc/<pid>/stat) over the K operations ÷ K.

    python3 Benchmarks/web/operations_cpu.py --build before=PATH --build after=PATH \\
        [--sizes 1000,10000] [--operations 500] [--rounds 3] [--store]

Prints one line per measurement, then the medians. Only 127.0.0.1.
"""
import argparse, http.client, json, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keystroke_latency as kl  # noqa: E402


def call(connection, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    response = connection.getresponse()
    payload = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {payload[:200]!r}")
    return json.loads(payload) if payload else None


def measure(binary, size, args):
    port = kl.free_port()
    state = tempfile.mkdtemp(prefix="operations-cpu-")
    store = ["--state-dir", state] if args.store else ["--memory-only"]
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", *store],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdout.readline()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        session = call(connection, "POST", "/api/sessions", {})["id"]
        base = f"/api/sessions/{session}/demos/numbers"
        items = [f"n{i}" for i in range(1, size + 1)]
        call(connection, "PUT", base + "/snapshot", {"sections": [{"id": "numbers", "items": items}]})
        for i in range(50):  # warm-up
            call(connection, "POST", base + "/operations",
                 {"operations": [{"op": "moveItem", "item": items[-1 - i], "beforeItem": items[0]}]})
        latencies = []
        cpu = kl.cpu_seconds(server.pid)
        for i in range(args.operations):
            item = items[(size // 2 + i * 7) % size]
            start = time.perf_counter()
            call(connection, "POST", base + "/operations", {"operations": [{"op": "moveItem", "item": item, "beforeItem": "n1" if item != "n1" else "n2"}]})
            latencies.append(1000 * (time.perf_counter() - start))
        cpu = kl.cpu_seconds(server.pid) - cpu
        return {"cpu_ms": 1000 * cpu / args.operations, "p50": statistics.median(latencies), "p99": kl.percentile(latencies, 99)}
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(state, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", required=True, help="NAME=PATH of a release diffable-web (repeat)")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--operations", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--store", action="store_true", help="a fresh SQLite store per server (as `make run`) instead of memory only")
    args = parser.parse_args()
    builds = [b.split("=", 1) for b in args.build]
    results = {}
    for round in range(args.rounds):
        order = builds[round % len(builds):] + builds[:round % len(builds)]
        for size in map(int, args.sizes.split(",")):
            for name, path in order:
                r = measure(path, size, args)
                results.setdefault((name, size), []).append(r)
                print(f"round {round + 1} {name:>8} {size:>6} items: CPU {r['cpu_ms']:.3f} ms/op, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms", flush=True)
    print(f"\nmedians ({'SQLite' if args.store else 'memory only'}, {args.operations} operations, {args.rounds} rounds)")
    for (name, size), rs in sorted(results.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"{name:>8} {size:>6} items: CPU {statistics.median(r['cpu_ms'] for r in rs):.3f} ms/op, "
              f"p50 {statistics.median(r['p50'] for r in rs):.2f} ms, p99 {statistics.median(r['p99'] for r in rs):.2f} ms")


if __name__ == "__main__":
    main()
