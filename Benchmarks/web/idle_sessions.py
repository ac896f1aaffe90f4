#!/usr/bin/env python3
"""What an idle session with one open Mountains stream costs the server (issue 22: idle cost).

For each binary, in one run: starts the release server (`--mountains 1467`, memory only, or a
fresh SQLite store with `--store`), opens N sessions the way a browser does (the page, then
one event stream on its list, accepting gzip unless `--plain`), waits for each stream's first
event, then leaves them idle. The client keeps reading (heartbeats) but does nothing else.
Reported per binary: RSS per session after `--idle-seconds` (default 130), the server's CPU
over the last `--cpu-seconds` of that (default 60: two whole heartbeat intervals, 30 s or 15 s,
and one minute's marking of watched sessions; heartbeats included). The 70 s before the CPU
window let every idle gzip stream free its deflate state (two heartbeats of 30 s after its
first event): 10,000 frees (`munmap`) are a one-off cost, a third of the idle CPU if they
fall inside the window, and the process's anonymous memory
(`/proc/PID/smaps_rollup`). `--no-stream`: the page visit only (what a session costs
without its stream). Standard library only; everything on 127.0.0.1, bounded in count and time.

    python3 Benchmarks/web/idle_sessions.py --binary before=/work/bin/before --binary after=.build/release/diffable-web
"""
import argparse, asyncio, os, resource, signal, subprocess, sys, tempfile, time, zlib

from keystroke_latency import free_port, rss_kib


def rollup(pid):
    """`Anonymous` and `Rss` of /proc/PID/smaps_rollup, in KiB."""
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[-1] == "kB":
                values[parts[0].rstrip(":")] = int(parts[1])
    return values


def heap_in_use(pid):
    """Bytes malloc hands out now (its arenas' size less their free blocks, plus its own mappings),
    read with glibc's `malloc_info` through gdb (which stops the process for a moment)."""
    import re
    path = tempfile.mktemp(suffix=".xml")
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", f'set $f=(void*)fopen("{path}","w")',
                    "-ex", "call (int)malloc_info(0,$f)", "-ex", "call (int)fclose($f)"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    try:
        xml = open(path).read().rsplit("</heap>", 1)[-1]
        os.unlink(path)
    except OSError:
        return None
    total = lambda kind: int(re.search(f'<total type="{kind}" count="\\d+" size="(\\d+)"', xml).group(1))
    current = int(re.search('<system type="current" size="(\\d+)"', xml).group(1))
    return current - total("fast") - total("rest") + total("mmap")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One session: the page visit (its cookie), then one stream read until its first event."""

    def __init__(self, port, gzip, stream, viewport="width=1024&height=768"):
        self.port, self.gzip, self.stream, self.viewport = port, gzip, stream, viewport
        self.writer = None
        self.task = None

    async def start(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(b"GET /demos/mountains HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
        await writer.drain()
        head = (await reader.read(-1)).split(b"\r\n\r\n", 1)[0].decode("latin-1")
        writer.close()
        cookie = next((line.split("=", 1)[1].split(";", 1)[0] for line in head.split("\r\n")
                       if line.lower().startswith("set-cookie: dw_session=")), None)
        if cookie is None:
            raise RuntimeError(f"no session cookie: {head[:200]!r}")
        if not self.stream:
            return
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        accept = "Accept-Encoding: gzip, deflate\r\n" if self.gzip else ""
        self.writer.write(f"GET /demos/mountains/events?{self.viewport} HTTP/1.1\r\nHost: x\r\n{accept}"
                          f"Accept: text/event-stream\r\nCookie: dw_session={cookie}\r\n\r\n".encode())
        await self.writer.drain()
        first = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self.read(reader, first))
        await asyncio.wait_for(first, 120)

    async def read(self, r, first):
        gzip = False
        while (line := await r.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-encoding:") and b"gzip" in line.lower():
                gzip = True
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        text = bytearray()
        while not first.done():
            size_line = await r.readline()
            if not size_line or int(size_line.strip() or b"0", 16) == 0:
                first.set_exception(RuntimeError("stream ended before its first event"))
                return
            chunk = (await r.readexactly(int(size_line.strip(), 16) + 2))[:-2]
            text += inflater.decompress(chunk) if inflater else chunk
            at = text.find(b"event: snapshot")
            if at >= 0 and text.find(b"\n\n", at) >= 0:
                first.set_result(True)
        del inflater, text
        # Idle from here: heartbeats arrive every 30 s (15 s before session 11); read and drop them.
        while await r.read(65536):
            pass

    def close(self):
        if self.task:
            self.task.cancel()
        if self.writer:
            self.writer.close()


async def hold(port, args, pid):
    clients = [Client(port, not args.plain, not args.no_stream, args.viewport) for _ in range(args.sessions)]
    opened = time.monotonic()
    for start in range(0, len(clients), 50):
        await asyncio.gather(*(c.start() for c in clients[start:start + 50]))
    opened = time.monotonic() - opened
    settle = max(0.0, args.idle_seconds - args.cpu_seconds)
    await asyncio.sleep(settle)
    profile = None
    if args.perf:
        # Over the CPU window only: where the idle server's time goes (`perf report -i FILE`).
        profile = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-g", "-p", str(pid), "-o", f"{args.perf}-{args.name}.data"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(args.idle_seconds - settle)
    cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    if profile:
        profile.send_signal(signal.SIGINT)
        profile.wait(60)
    rss, smaps = rss_kib(pid), rollup(pid)
    heap = heap_in_use(pid) if args.heap else None
    for c in clients:
        c.close()
    return opened, rss, smaps, cpu, heap


def measure(name, binary, args):
    port = free_port()
    state = tempfile.TemporaryDirectory(prefix="idle-store-")
    storage = ["--state-dir", state.name] if args.store else ["--memory-only"]
    server = subprocess.Popen([binary, "--port", str(port), "--mountains", str(args.mountains), "--log-level", "warning",
                               *storage, "--max-sessions", str(args.sessions + 1000), "--connections-per-address", "0", *args.extra],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdout.readline()  # "Listening on …"
        time.sleep(1)
        before, smaps0 = rss_kib(server.pid), rollup(server.pid)
        heap0 = heap_in_use(server.pid) if args.heap else None
        args.name = name
        opened, after, smaps, cpu, heap = asyncio.run(hold(port, args, server.pid))
        per = (after - before) / args.sessions
        anon = (smaps.get("Anonymous", 0) - smaps0.get("Anonymous", 0)) / args.sessions
        print(f"| {name} | {args.sessions:,} | {opened:.1f} s | {before / 1024:,.1f} → {after / 1024:,.1f} MiB | **{per:,.1f} KiB** "
              f"| {anon:,.1f} KiB | {100 * cpu:.2f}% |", flush=True)
        if heap is not None and heap0 is not None:
            print(f"|   (malloc in use: {(heap - heap0) / 1024 / args.sessions:,.1f} KiB per session) |||||||", flush=True)
    finally:
        server.terminate()
        server.wait(30)
        state.cleanup()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", action="append", required=True, help="NAME=PATH (repeat: measured in that order)")
    p.add_argument("--sessions", type=int, default=10_000)
    p.add_argument("--mountains", type=int, default=1467)
    p.add_argument("--idle-seconds", type=float, default=130)
    p.add_argument("--cpu-seconds", type=float, default=60, help="the last part of the idle time, over which CPU is measured")
    p.add_argument("--store", action="store_true", help="a fresh SQLite store (the server's default) instead of memory only")
    p.add_argument("--plain", action="store_true", help="streams that do not accept gzip")
    p.add_argument("--no-stream", action="store_true", help="the page visit only: sessions without a stream")
    p.add_argument("--viewport", default="width=1024&height=768", help="the stream's query (a browser's viewport)")
    p.add_argument("--heap", action="store_true", help="also malloc's bytes in use per session (gdb; outside the CPU window)")
    p.add_argument("--perf", metavar="PREFIX", help="also `perf record -e cpu-clock -g` the server over the CPU window, into PREFIX-NAME.data "
                   "(the profile's own cost is in that binary's CPU figure)")
    p.add_argument("extra", nargs="*", help="more server flags (after --)")
    args = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.sessions + 256:
        sys.exit(f"the file descriptor limit ({hard}) is below {args.sessions + 256}")
    kind = "pages only" if args.no_stream else ("plain streams" if args.plain else "gzip streams")
    print(f"{'SQLite store' if args.store else 'memory only'}, {kind}, {args.mountains:,} mountains, "
          f"{args.idle_seconds:g} s idle (CPU over the last {args.cpu_seconds:g} s); load average {os.getloadavg()[0]:.1f}\n")
    print("| binary | sessions | time to open | RSS | RSS per session | anonymous per session | server CPU idle |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec in args.binary:
        name, _, path = spec.partition("=")
        measure(name, path or name, args)
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
