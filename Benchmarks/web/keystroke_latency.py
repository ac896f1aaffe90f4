#!/usr/bin/env python3
"""Keystroke -> event latency of the Mountains search (issue 6 benchmark).

Starts the release server with a 10,000-mountain data set, opens N sessions (each with its
page visit, cookie and SSE stream), then types: every keystroke is a POST to
/demos/mountains/actions/search, and its latency is the time from sending the POST to the
arrival, on that session's event stream, of the changeset event carrying the version the
POST returned. Standard library only; everything on 127.0.0.1, bounded in count and time.

    python3 Benchmarks/web/keystroke_latency.py --binary .build/release/diffable-web
"""
import argparse, asyncio, gc, json, os, resource, socket, statistics, subprocess, sys, time, zlib

NO_GZIP = False  # --no-gzip: open event streams without Accept-Encoding: gzip
SERVER_PID = None  # for the CPU time the server spends in the paced runs


def cpu_seconds(pid):
    """User + system CPU time a process has used (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

WORDS = ["k", "ka", "kan", "kang", "kan", "ka", "k", "", "m", "mo", "mon", "mont", "monte", "mont", "mon", "mo", "m",
         "", "b", "be", "ben", "ben ", "ben m", "ben", "be", "b", "", "a", "al", "alp", "al", "a", ""]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Session:
    def __init__(self, port, sizes=True):
        self.sizes = sizes  # measure each event's data size (costs a scan of it)
        self.port, self.cookie, self.arrivals, self.waiters = port, None, {}, {}
        self.payload_sizes = {}
        self.wire_sizes = {}
        self.wire_pending = 0  # compressed bytes received since the last complete event
        self.first_event = (0, 0)  # the first snapshot's data bytes and bytes on the wire
        self.event_bytes = {}  # version -> the whole event's plain bytes (event, id and data lines)

    async def start(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(b"GET /demos/mountains HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        head = (await reader.read(-1)).split(b"\r\n\r\n", 1)[0].decode()
        writer.close()
        for line in head.split("\r\n"):
            if line.lower().startswith("set-cookie: dw_session="):
                self.cookie = line.split("=", 1)[1].split(";", 1)[0]
        self.sse_reader, self.sse_writer = await asyncio.open_connection("127.0.0.1", self.port)
        # Like a browser's EventSource, accept a gzip stream (unless --no-gzip).
        accept = "" if NO_GZIP else "Accept-Encoding: gzip, deflate\r\n"
        self.sse_writer.write(f"GET /demos/mountains/events?width=1024&height=768 HTTP/1.1\r\nHost: x\r\n{accept}Cookie: dw_session={self.cookie}\r\n\r\n".encode())
        await self.sse_writer.drain()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self.read_events())
        await asyncio.wait_for(self.ready.wait(), 120)
        self.post_writer = None

    async def connect_for_posts(self):
        # Opened when typing starts: a keep-alive connection left idle through a long setup
        # is closed by the server's idle timeout, as it should be.
        self.post_reader, self.post_writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def read_events(self):
        # Chunked transfer: parse chunk sizes, then SSE blocks separated by blank lines.
        # A gzip stream is flushed after every event (each flush ends with 00 00 ff ff), or
        # after each of its parts when the server splices shared bytes in: the compressed bytes
        # since the previous event ended are this event's size on the wire.
        r = self.sse_reader
        gzip = False
        while (line := await r.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-encoding:") and b"gzip" in line.lower():
                gzip = True
        # Raw inflate after the 10-byte gzip header (the server sets no optional fields): no
        # CRC-32 of every byte on this side, which the Swift and browser tests check.
        inflater = zlib.decompressobj(-zlib.MAX_WBITS) if gzip else None
        header = 10 if gzip else 0
        compressed = bytearray()
        # Events can be megabytes (a 10,000-cell snapshot): keep where the last search for the
        # blank line stopped, so each byte is scanned once (rescanning made parsing quadratic).
        buffer = bytearray()
        scanned = 0
        while True:
            size_line = await r.readline()
            if not size_line:
                return
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                return
            chunk = await r.readexactly(size)
            await r.readexactly(2)
            if not gzip:
                buffer += chunk
                scanned = self.take_events(buffer, scanned)
                continue
            compressed += chunk
            if header:
                if len(compressed) < header:
                    continue
                del compressed[:header]
                self.wire_pending += header
                header = 0
            # Everything up to the last flush in one call (an event may be several flushes).
            end = compressed.rfind(b"\x00\x00\xff\xff")
            if end >= 0:
                segment = bytes(compressed[:end + 4])
                del compressed[:end + 4]
                buffer += inflater.decompress(segment)
                self.wire_pending += len(segment)
                scanned = self.take_events(buffer, scanned, True)

    def take_events(self, buffer, scanned, wire=False):
        """Takes the complete SSE blocks off `buffer`; returns where the next search starts."""
        while True:
            end = buffer.find(b"\n\n", max(0, scanned - 1))
            if end < 0:
                scanned = len(buffer)
                break
            now = time.perf_counter()
            # The event and id lines come first: read those, and size the data without copying
            # it (a client this cheap leaves the machine's CPU to the server being measured).
            data_at = buffer.find(b"data: ", 0, end)
            data_at = end if data_at < 0 else data_at
            event, ident = None, None
            for line in bytes(buffer[:data_at]).split(b"\n"):
                if line.startswith(b"event: "): event = line[7:].decode()
                elif line.startswith(b"id: "): ident = line[4:].decode()
            data_lines = (buffer.count(b"\ndata: ", data_at, end) if self.sizes else 0) + (1 if data_at < end else 0)
            data_len = end - data_at - 6 * data_lines - (data_lines - 1 if data_lines else 0)
            block_len = end
            del buffer[:end + 2]
            scanned = 0
            if wire and not buffer:
                # Everything decoded so far belonged to events that are complete now.
                pending, self.wire_pending = self.wire_pending, 0
            else:
                pending = self.wire_pending
            if event == "snapshot" and not self.ready.is_set():
                # The first event, as a page's stream receives it: data bytes, bytes on the wire.
                self.first_event = (data_len, pending if wire else block_len + 2)
                self.ready.set()
            if event == "changeset" and ident is not None:
                version = int(ident.rsplit("-", 1)[-1].split(".")[0])
                self.arrivals[version] = now
                self.payload_sizes[version] = data_len
                self.wire_sizes[version] = pending if wire else block_len + 2
                self.event_bytes[version] = block_len + 2
                waiter = self.waiters.pop(version, None)
                if waiter and not waiter.done():
                    waiter.set_result(now)
        return scanned

    async def keystroke(self, query, seq):
        body = json.dumps({"query": query, "seq": seq}).encode()
        sent = time.perf_counter()
        self.post_writer.write(b"POST /demos/mountains/actions/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                               + f"Cookie: dw_session={self.cookie}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        await self.post_writer.drain()
        head = (await self.post_reader.readuntil(b"\r\n\r\n")).lower()
        status_line = head[:head.find(b"\r\n")]
        at = head.find(b"\r\ncontent-length:")
        length = int(head[at + 17:head.find(b"\r\n", at + 2)]) if at >= 0 else 0
        body = await self.post_reader.readexactly(length)
        if not status_line.startswith(b"http/1.1 200"):
            raise RuntimeError(f"keystroke answered {status_line!r} {body[:200]!r}")
        version = json.loads(body)["version"]
        if version in self.arrivals:
            arrived = self.arrivals[version]
        else:
            future = asyncio.get_running_loop().create_future()
            self.waiters[version] = future
            arrived = await asyncio.wait_for(future, 10)
        return (arrived - sent) * 1000, self.payload_sizes.get(version, 0), query, self.wire_sizes.get(version, 0), self.event_bytes.get(version, 0)

    def close(self):
        self.task.cancel()
        for w in (self.sse_writer, self.post_writer):
            if w is not None:
                w.close()


async def run(port, sessions, keystrokes_per_session):
    clients = [Session(port) for _ in range(sessions)]
    # Setup is not measured: each session's first snapshot of 10,000 cells is ~2.8 MB, so
    # sessions connect a few at a time.
    for start in range(0, sessions, 10):
        await asyncio.gather(*(c.start() for c in clients[start:start + 10]))

    async def type_words(client, offset):
        await client.connect_for_posts()
        results = []
        for i in range(keystrokes_per_session):
            results.append(await client.keystroke(WORDS[(offset + i) % len(WORDS)], i + 1))
        return results

    started = time.perf_counter()
    server_cpu = cpu_seconds(SERVER_PID)
    per_session = await asyncio.gather(*(type_words(c, i) for i, c in enumerate(clients)))
    elapsed = time.perf_counter() - started
    server_cpu = cpu_seconds(SERVER_PID) - server_cpu
    first_events = [c.first_event for c in clients]
    for c in clients:
        c.close()
    samples = [s for results in per_session for s in results]
    return samples, elapsed, server_cpu, first_events


async def run_paced(port, sessions, rate, seconds):
    """Each session types `rate` keystrokes per second (closed loop: a keystroke waits for its
    event), starting at a random phase, for `seconds`. Returns the samples, the elapsed time, and
    the CPU seconds the server and this client used while typing (on a shared machine the CPU a
    keystroke costs moves less than the rate)."""
    import random
    clients = [Session(port, sizes=False) for _ in range(sessions)]
    for start in range(0, sessions, 20):
        await asyncio.gather(*(c.start() for c in clients[start:start + 20]))
    await asyncio.gather(*(c.connect_for_posts() for c in clients))
    # No cyclic garbage collection while typing: a full collection over 1,000 sessions' objects
    # pauses this client for milliseconds, which the measured latencies would blame on the server.
    gc.collect()
    gc.disable()
    loop = asyncio.get_running_loop()
    interval = 1 / rate
    started = loop.time()
    server_cpu, client_cpu = cpu_seconds(SERVER_PID), time.process_time()

    async def pace(client, index):
        await asyncio.sleep(random.random() * interval)
        results, i = [], 0
        due = loop.time()
        while loop.time() - started < seconds:
            i += 1
            try:
                results.append(await client.keystroke(WORDS[(index + i) % len(WORDS)], i))
            except Exception as error:  # a failed keystroke counts as an error, not a latency
                results.append((None, 0, f"{type(error).__name__}: {error}"))
            due += interval
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
        return results

    per_session = await asyncio.gather(*(pace(c, i) for i, c in enumerate(clients)))
    elapsed = loop.time() - started
    gc.enable()
    cpu = (cpu_seconds(SERVER_PID) - server_cpu, time.process_time() - client_cpu)
    for c in clients:
        c.close()
    return [s for results in per_session for s in results], elapsed, cpu


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def idle_sessions(port, sessions):
    clients = [Session(port) for _ in range(sessions)]
    for start in range(0, sessions, 20):
        await asyncio.gather(*(c.start() for c in clients[start:start + 20]))
    return clients


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    # uvloop (PyPI; `make bench-web` installs it in .venv) halves the client's CPU per keystroke:
    # on 2 cores the load generator shares the machine with the server it measures.
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        loop_name = f"uvloop {uvloop.__version__}"
    except ImportError:
        loop_name = "asyncio"
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/diffable-web")
    parser.add_argument("--mountains", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--paced", type=int, default=1000, help="sessions for the paced and capacity runs (0: skip)")
    parser.add_argument("--paced-seconds", type=float, default=20)
    parser.add_argument("--capacity", default="3,6,10,15,20",
                        help="keystrokes/s per paced session to try, in order: ascending stops at the first rate that "
                             "misses (p99 ≥ 50 ms or under 80%% achieved), descending at the first that holds")
    parser.add_argument("--memory", type=int, default=500, help="idle sessions with an open stream to measure (0: skip)")
    parser.add_argument("--memory-idle-seconds", type=float, default=2, help="how long the idle sessions wait before RSS is read")
    parser.add_argument("--no-gzip", action="store_true", help="do not accept a gzip event stream (browsers do)")
    parser.add_argument("--store", action="store_true", help="save sessions in a fresh SQLite store (the server's default) instead of memory only")
    args = parser.parse_args()
    global NO_GZIP
    NO_GZIP = args.no_gzip
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    port = free_port()
    import tempfile
    state = tempfile.TemporaryDirectory(prefix="keystroke-store-")
    storage = ["--state-dir", state.name] if args.store else ["--memory-only"]
    server = subprocess.Popen([args.binary, "--port", str(port), "--mountains", str(args.mountains), "--log-level", "warning", *storage,
                               "--max-sessions", "20000", "--connections-per-address", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    global SERVER_PID
    SERVER_PID = server.pid
    try:
        server.stdout.readline()  # "Listening on …"
        if args.memory:
            before = rss_kib(server.pid)
            clients = None

            async def hold():
                nonlocal clients
                clients = await idle_sessions(port, args.memory)
                # 2 s by default; past two heartbeats (15 s each) idle gzip streams have freed
                # their deflate state (--memory-idle-seconds 35).
                await asyncio.sleep(args.memory_idle_seconds)
                rss = rss_kib(server.pid)
                for client in clients:
                    client.close()
                return rss
            after = asyncio.run(hold())
            print(f"\nMemory: {args.memory:,} idle sessions ({args.memory_idle_seconds:g} s), each with one open stream on a {args.mountains:,}-item list: "
                  f"RSS {before / 1024:,.1f} → {after / 1024:,.1f} MiB, {(after - before) / args.memory:,.1f} KiB per session.")
        print(f"\n## Keystroke → event latency (release, {args.mountains:,} mountains, loopback; client on {loop_name})\n")
        print("| sessions typing | keystrokes | median ms | p99 ms | max ms | keystrokes/s |")
        print("|---:|---:|---:|---:|---:|---:|")
        plans = [(1, 100 if args.quick else 600), (1000, 1 if args.quick else 2)]
        one_char = None
        for sessions, per in plans:
            samples, elapsed, typing_cpu, first_events = asyncio.run(run(port, sessions, per))
            latencies = [s[0] for s in samples]
            print(f"| {sessions:,} | {len(samples):,} | {statistics.median(latencies):.2f} | {percentile(latencies, 99):.2f} | "
                  f"{max(latencies):.2f} | {len(samples) / elapsed:,.0f} |")
            if sessions == 1:
                one_char = [s for s in samples if s[2] == "kang"]
                sizes = sorted((s[1], s[2]) for s in samples)
                wire = sorted((s[3], s[2]) for s in samples)
                one_session = (samples, typing_cpu, first_events[0])
        if one_char:
            print(f"\nPayload of the `kan` → `kang` changeset event: {one_char[0][1]:,} bytes of data.")
            print(f"Largest keystroke event (1 session): {sizes[-1][0]:,} bytes (query {sizes[-1][1]!r}); "
                  f"median {sizes[len(sizes) // 2][0]:,}; events over 64 KB: {sum(1 for s in sizes if s[0] > 65536)} of {len(sizes)}.")
            print(f"On the wire ({'plain' if NO_GZIP else 'the client accepts gzip'}): largest keystroke event {wire[-1][0]:,} bytes "
                  f"(query {wire[-1][1]!r}); median {wire[len(wire) // 2][0]:,}; "
                  f"events over 64 KB: {sum(1 for s in wire if s[0] > 65536)} of {len(wire)}.")
        if one_char:
            samples, typing_cpu, (first_data, first_wire) = one_session
            plain, on_wire = sum(s[4] for s in samples), sum(s[3] for s in samples)
            print(f"Bytes ({'plain' if NO_GZIP else 'gzip'}, 1 session, 1024×768): first event {first_wire:,} on the wire "
                  f"({first_data:,} bytes of data); {len(samples):,} keystrokes: mean {on_wire / len(samples):,.0f} bytes per "
                  f"keystroke on the wire, {plain / len(samples):,.0f} plain, {on_wire / max(1, plain):.3f}× plain; "
                  f"server CPU {1000 * typing_cpu / len(samples):.3f} ms per keystroke.")
        if args.paced:
            print(f"\n### {args.paced:,} sessions, paced (each with an open stream; closed loop; random phase)\n")
            print("| per session /s | target /s | achieved /s | keystrokes | errors | median ms | p99 ms | max ms "
                  "| server CPU ms/keystroke | server · client CPU |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            rates = [float(r) for r in args.capacity.split(",") if r]
            descending = len(rates) > 1 and rates[0] > rates[-1]
            for index, rate in enumerate(rates):
                seconds = args.paced_seconds if index == 0 else max(8.0, args.paced_seconds / 2)
                samples, elapsed, (server_cpu, client_cpu) = asyncio.run(run_paced(port, args.paced, rate, seconds))
                latencies = [s[0] for s in samples if s[0] is not None]
                errors = sum(1 for s in samples if s[0] is None)
                p99 = percentile(latencies, 99) if latencies else float("inf")
                print(f"| {rate:g} | {args.paced * rate:,.0f} | {len(samples) / elapsed:,.0f} | {len(samples):,} | {errors} | "
                      f"{statistics.median(latencies):.2f} | {p99:.2f} | {max(latencies):.2f} | "
                      f"{1000 * server_cpu / max(1, len(samples)):.2f} | "
                      f"{100 * server_cpu / elapsed:.0f}% · {100 * client_cpu / elapsed:.0f}% |", flush=True)
                for kind in sorted({s[2] for s in samples if s[0] is None})[:3]:
                    print(f"  error: {kind}", flush=True)
                missed = p99 >= 50 or len(samples) / elapsed < 0.8 * args.paced * rate
                if missed != descending:
                    break
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
