#!/usr/bin/env python3
"""Server CPU per keystroke of two builds, side by side in one run (issue 37).

Drives each build's release server exactly as `keystroke_latency.py` does (10,000 mountains,
memory only, the same typed words, 1024×768), one fresh server at a time, the builds alternating
round after round (the first build of a round rotates). Each round and build runs the chosen
modes: `plain` and `gzip` (1 session: a warm-up, then the measured keystrokes, closed loop) and
`paced` (N sessions, gzip, each typing R keystrokes a second for S seconds). Server CPU is the
user + system time of the server process (/proc/<pid>/stat, 10 ms ticks) over the measured
keystrokes only, ÷ keystrokes.

    python3 Benchmarks/web/keystroke_cpu.py --build before=PATH --build after=PATH \
        [--rounds 3] [--keystrokes 1000] [--warmup 200] [--modes plain,gzip,paced] \
        [--mountains 10000] [--sequence prefixes|names] [--store] \
        [--paced-sessions 100] [--paced-rate 3] [--paced-seconds 20]

Prints one line per measurement, then the medians per build and mode. Only 127.0.0.1.

With `--capture FILE` it instead records, from the first build, the plain changeset events of one
cycle of the typed words (after a cycle of warm-up), each as a 4-byte little-endian length and
the SSE block: the input of the floor benchmark (Benchmarks/Sources/KeystrokeFloor).
"""
import argparse, asyncio, gc, os, shlex, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keystroke_latency as kl  # noqa: E402


async def one_session(port, warmup, keystrokes, words):
    client = kl.Session(port)
    await client.start()
    await client.connect_for_posts()
    for i in range(warmup):
        await client.keystroke(words[i % len(words)], i + 1)
    gc.collect()
    gc.disable()
    cpu = kl.cpu_seconds(kl.SERVER_PID)
    samples = []
    for i in range(warmup, warmup + keystrokes):
        samples.append(await client.keystroke(words[i % len(words)], i + 1))
    cpu = kl.cpu_seconds(kl.SERVER_PID) - cpu
    gc.enable()
    client.close()
    latencies = [s[0] for s in samples]
    return {"cpu_ms": 1000 * cpu / keystrokes, "p50": statistics.median(latencies), "p99": kl.percentile(latencies, 99),
            "wire": sum(s[3] for s in samples) / keystrokes, "plain": sum(s[4] for s in samples) / keystrokes}


class CapturingSession(kl.Session):
    """A session that keeps each changeset event's SSE block (a plain stream)."""
    def __init__(self, port):
        super().__init__(port)
        self.blocks = []

    def take_events(self, buffer, scanned, wire=False):
        at = 0
        while (end := buffer.find(b"\n\n", at)) >= 0:
            block = bytes(buffer[at:end + 2])
            if block.startswith(b"event: changeset"):
                self.blocks.append(block)
            at = end + 2
        return super().take_events(buffer, scanned, wire)


# Benchmarks/datastar/compare.py's names, typed letter by letter and deleted again.
NAMES = ["Kangchenjunga", "Mont Blanc", "Ben Nevis", "Matterhorn", "Aconcagua", "Denali", "Annapurna", "Mount Kenya"]


def typed_names():
    one = []
    for name in NAMES:
        one += [name[:i] for i in range(1, len(name) + 1)] + [name[:i] for i in range(len(name) - 1, -1, -1)]
    return one


async def capture(port, path, sequence):
    kl.NO_GZIP = True
    client = CapturingSession(port)
    await client.start()
    await client.connect_for_posts()
    typed = typed_names() if sequence == "names" else kl.WORDS
    words = len(typed)
    for i in range(2 * words):
        await client.keystroke(typed[i % words], i + 1)
    client.close()
    blocks = client.blocks[-words:]
    with open(path, "wb") as out:
        for block in blocks:
            out.write(len(block).to_bytes(4, "little") + block)
    print(f"captured {len(blocks)} changeset events, {sum(map(len, blocks)) / len(blocks):,.0f} bytes each on average, in {path}")


def measure(binary, mode, args):
    binary, *flags = shlex.split(binary)  # "PATH --memory-limit 0": a build with flags of its own
    port = kl.free_port()
    # Memory only, or (--store) a fresh SQLite store as `make run` keeps sessions.
    store = ["--state-dir", tempfile.mkdtemp(prefix="keystroke-cpu-")] if args.store else ["--memory-only"]
    server = subprocess.Popen([binary, "--port", str(port), "--mountains", str(args.mountains), "--log-level", "warning", *store,
                               "--max-sessions", "20000", "--connections-per-address", "0", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    kl.SERVER_PID = server.pid
    try:
        server.stdout.readline()
        if mode == "capture":
            return asyncio.run(capture(port, args.capture, args.sequence))
        if mode in ("plain", "gzip"):
            kl.NO_GZIP = mode == "plain"
            words = typed_names() if args.sequence == "names" else kl.WORDS
            return asyncio.run(one_session(port, args.warmup, args.keystrokes, words))
        kl.NO_GZIP = False
        samples, elapsed, (server_cpu, _) = asyncio.run(kl.run_paced(port, args.paced_sessions, args.paced_rate, args.paced_seconds))
        latencies = [s[0] for s in samples if s[0] is not None]
        wire = [s[3] for s in samples if s[0] is not None]
        return {"cpu_ms": 1000 * server_cpu / max(1, len(samples)), "p50": statistics.median(latencies),
                "p99": kl.percentile(latencies, 99), "wire": sum(wire) / max(1, len(wire)), "plain": 0,
                "errors": sum(1 for s in samples if s[0] is None), "rate": len(samples) / elapsed}
    finally:
        server.terminate()
        server.wait(10)
        if args.store: shutil.rmtree(store[1], ignore_errors=True)


def main():
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="append", required=True,
                        help="NAME=PATH of a release diffable-web, optionally with flags of its own: NAME='PATH --memory-limit 0'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keystrokes", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--modes", default="plain,gzip")
    parser.add_argument("--paced-sessions", type=int, default=100)
    parser.add_argument("--paced-rate", type=float, default=3)
    parser.add_argument("--paced-seconds", type=float, default=20)
    parser.add_argument("--store", action="store_true", help="a fresh SQLite store per server (as `make run`) instead of memory only")
    parser.add_argument("--mountains", type=int, default=10_000, help="10,000 as keystroke_latency.py; 1467: the bundled set")
    parser.add_argument("--sequence", default="prefixes", choices=["prefixes", "names"],
                        help="what the 1-session runs type: keystroke_latency.py's words, or compare.py's names")
    parser.add_argument("--capture", help="record one cycle of plain changeset events from the first build into this file")
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if args.capture:
        os.makedirs(os.path.dirname(os.path.abspath(args.capture)), exist_ok=True)
        measure(builds[0][1], "capture", args)
        return
    modes = args.modes.split(",")
    results = {}
    for round_ in range(args.rounds):
        order = builds[round_ % len(builds):] + builds[:round_ % len(builds)]
        for mode in modes:
            for name, binary in order:
                r = measure(binary, mode, args)
                results.setdefault((mode, name), []).append(r)
                extra = f" errors {r['errors']} rate {r['rate']:.0f}/s" if "errors" in r else f" plain {r['plain']:,.0f} B"
                print(f"round {round_ + 1} {mode:5} {name:8} CPU {r['cpu_ms']:.3f} ms/keystroke  p50 {r['p50']:.2f} p99 {r['p99']:.2f} ms  "
                      f"wire {r['wire']:,.0f} B{extra}", flush=True)
    print("\n| mode | build | CPU ms/keystroke, median (min–max) | p50 ms | p99 ms | bytes/event on the wire |")
    print("|---|---|---:|---:|---:|---:|")
    for mode in modes:
        for name, _ in builds:
            rs = results[(mode, name)]
            cpu = [r["cpu_ms"] for r in rs]
            print(f"| {mode} | {name} | {statistics.median(cpu):.3f} ({min(cpu):.3f}–{max(cpu):.3f}) | "
                  f"{statistics.median(r['p50'] for r in rs):.2f} | {statistics.median(r['p99'] for r in rs):.2f} | "
                  f"{statistics.median(r['wire'] for r in rs):,.0f} |")


if __name__ == "__main__":
    main()
