#!/usr/bin/env python3
"""Bytes per keystroke against the peer (issue 22): DiffableWeb and Datastar, side by side.

Starts our release server (`--memory-only`, the bundled 1,467 mountains) and the Datastar peer
(Benchmarks/datastar/server.py: datastar-py on Starlette, uvicorn with uvloop and httptools),
one at a time, each fresh, and drives each with the SAME keystrokes: real names typed letter by
letter, then deleted letter by letter, closed loop at 1 session (a keystroke waits for its event).
Each fresh server gets three sessions in turn: a gzip one (Accept-Encoding: gzip, as a browser's
EventSource asks) typing into the fresh server, a second gzip one typing the same keystrokes again
(the figures of the table unless it says "first session"), and a plain one. The servers alternate, round after round (the order rotates), and
the table gives the median of the rounds with their spread (min–max).

Three targets:
- `ours`: page visit for the cookie, `GET /demos/mountains/events?width=1024&height=768`, then
  per keystroke `POST /demos/mountains/actions/search {"query","seq"}`; its event is the
  changeset carrying the version the POST answered.
- `datastar`: the peer's long-lived stream: page visit, `GET /updates`, per keystroke
  `POST /search` (Datastar signals as JSON: `query`, `seq`; answered 204); its event is the
  `datastar-patch-elements` event whose `id:` is the seq.
- `datastar-get` (`--get`, on by default): the docs' active-search idiom, one
  `GET /search?datastar={...}` per keystroke whose answer is a one-event SSE response (a fresh
  gzip stream every time).

Bytes: the bytes of an event on the wire are the response-body bytes read from the socket for
it (the compressed bytes with gzip), WITHOUT HTTP/1.1 chunked framing (chunk-size lines and
CRLFs); a second row counts them WITH the framing. For `datastar-get` an event's bytes are the
whole answer's body (the event, the gzip header and trailer). The keystroke's own HTTP answer
(POST's head and body, or the GET's head) is a separate row. Latency: from writing the keystroke's
request to decoding its event. Server CPU: user+system time of the server process
(/proc/<pid>/stat) over a session's typing, ÷ keystrokes (10-ms ticks: more keystrokes,
finer figure).

    python3 Benchmarks/datastar/compare.py [--rounds 3] [--sequence names|prefixes] [--cycles N]
        [--binary .build/release/diffable-web] [--before OTHER-BINARY] [--peer-gzip-level 9] [--no-get]
        [--json out.json]

`--before` adds a fourth target, `before`: another build of DiffableWeb (say the previous
commit's release binary) driven exactly as `ours`, in the same rounds, so that a change's
before and after come from one run; its column's ratio is ours ÷ before.

On first use it creates .build-bench/datastar-venv and installs requirements.txt from PyPI, then
runs itself under that venv (uvloop for the client too). Only 127.0.0.1; bounded in count and time.
"""
import argparse, asyncio, gc, json, os, socket, statistics, subprocess, sys, time, urllib.parse, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VENV = os.path.join(ROOT, ".build-bench", "datastar-venv")
REQUIREMENTS = os.path.join(HERE, "requirements.txt")

NAMES = ["Kangchenjunga", "Mont Blanc", "Ben Nevis", "Matterhorn", "Aconcagua", "Denali", "Annapurna", "Mount Kenya"]
# Benchmarks/web/keystroke_latency.py's sequence (short prefixes: large results), the one issue
# 22's first side-by-side figures were typed with.
PREFIXES = ["k", "ka", "kan", "kang", "kan", "ka", "k", "", "m", "mo", "mon", "mont", "monte", "mont", "mon", "mo", "m",
            "", "b", "be", "ben", "ben ", "ben m", "ben", "be", "b", "", "a", "al", "alp", "al", "a", ""]


def keystrokes(cycles, sequence="names"):
    """`names`: each name typed letter by letter, then deleted letter by letter back to an empty
    box; `prefixes`: keystroke_latency.py's words. The sequence `cycles` times."""
    if sequence == "prefixes":
        return PREFIXES * cycles
    one = []
    for name in NAMES:
        one += [name[:i] for i in range(1, len(name) + 1)] + [name[:i] for i in range(len(name) - 1, -1, -1)]
    return one * cycles


def ensure_venv():
    """Re-runs this script under the benchmark's venv, creating it (pip, PyPI) when needed."""
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    stamp = os.path.join(VENV, ".requirements")
    wanted = open(REQUIREMENTS).read()
    if not (os.path.exists(python) and os.path.exists(stamp) and open(stamp).read() == wanted):
        print(f"Creating {os.path.relpath(VENV, ROOT)} (pip install -r {os.path.relpath(REQUIREMENTS, ROOT)})", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", REQUIREMENTS], check=True)
        with open(stamp, "w") as f:
            f.write(wanted)
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EventStream:
    """Reads a chunked SSE response body: per event, its type, id, plain size, and the body bytes
    (and the bytes with chunk framing) read from the socket since the previous event."""

    def __init__(self, reader, on_event):
        self.reader, self.on_event = reader, on_event

    async def read_head(self):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:] if l)}
        return lines[0], headers, len(head)

    async def read_body(self, headers):
        """Until the terminating chunk; returns the body bytes and the bytes with framing."""
        gzip = "gzip" in headers.get("content-encoding", "")
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        buffer = bytearray()
        pending = pending_framed = total = total_framed = 0
        while True:
            size_line = await self.reader.readline()
            if not size_line:
                return total, total_framed
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")  # no trailers are sent
                total_framed += len(size_line) + 2
                if self.on_event is not None and (pending or pending_framed):
                    self.on_event(None, None, 0, pending, pending_framed + len(size_line) + 2, tail=True)
                return total, total_framed
            chunk = await self.reader.readexactly(size)
            await self.reader.readexactly(2)
            total += size
            total_framed += len(size_line) + size + 2
            pending += size
            pending_framed += len(size_line) + size + 2
            buffer += inflater.decompress(chunk) if gzip else chunk
            while (end := buffer.find(b"\n\n")) >= 0:
                block = bytes(buffer[:end])
                del buffer[:end + 2]
                event = ident = None
                for line in block.split(b"\n", 3)[:3]:
                    if line.startswith(b"event: "):
                        event = line[7:].decode()
                    elif line.startswith(b"id: "):
                        ident = line[4:].decode()
                if event is None:
                    continue  # a comment (heartbeat): its bytes go with the next event
                self.on_event(event, ident, end + 2, pending, pending_framed)
                pending = pending_framed = 0


class Client:
    """One session typing, for any of the three targets."""

    def __init__(self, kind, port, gzip):
        self.kind, self.port, self.gzip = kind, port, gzip
        self.cookie = None
        self.events = {}  # key -> (arrival, plain bytes, wire bytes, framed wire bytes)
        self.waiters = {}
        self.first = None
        self.other = (0, 0)  # events that belong to no keystroke: count, bytes on the wire

    async def page(self):
        path = "/demos/mountains" if self.kind == "ours" else "/"
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = (await reader.read(-1)).split(b"\r\n\r\n", 1)[0].decode()
        writer.close()
        name = "dw_session=" if self.kind == "ours" else "sid="
        for line in head.split("\r\n"):
            if line.lower().startswith("set-cookie: " + name):
                self.cookie = line.split(": ", 1)[1].split(";", 1)[0]
        if self.cookie is None:
            raise RuntimeError(f"{self.kind}: no session cookie from GET {path}")

    def arrived(self, event, ident, plain, wire, framed, tail=False):
        now = time.perf_counter()
        if tail:
            return
        if self.first is None:
            self.first = (plain, wire, framed)
            self.ready.set()
            return
        if self.kind == "ours":
            key = int(ident.rsplit("-", 1)[-1].split(".")[0]) if event == "changeset" and ident else None
        else:
            key = int(ident) if ident is not None else None
        if key is None or key in self.events:
            # Not a keystroke's event (none seen so far): counted, so that no bytes go unseen.
            self.other = (self.other[0] + 1, self.other[1] + wire)
            return
        self.events[key] = (now, plain, wire, framed)
        waiter = self.waiters.pop(key, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def accept(self):
        return "Accept-Encoding: gzip, deflate, br, zstd\r\n" if self.gzip else ""

    async def start(self):
        await self.page()
        self.ready = asyncio.Event()
        if self.kind == "datastar-get":
            self.first = None
        else:
            path = "/demos/mountains/events?width=1024&height=768" if self.kind == "ours" else "/updates"
            extra = "" if self.kind == "ours" else "Datastar-Request: true\r\n"
            self.sse_reader, self.sse_writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.sse_writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{self.accept()}{extra}"
                                  f"Cookie: {self.cookie}\r\n\r\n".encode())
            await self.sse_writer.drain()
            stream = EventStream(self.sse_reader, self.arrived)
            status, headers, _ = await stream.read_head()
            if " 200" not in status:
                raise RuntimeError(f"{self.kind}: stream answered {status}")
            if self.gzip != ("gzip" in headers.get("content-encoding", "")):
                raise RuntimeError(f"{self.kind}: stream Content-Encoding {headers.get('content-encoding')!r}, gzip asked: {self.gzip}")
            self.task = asyncio.create_task(stream.read_body(headers))
            await asyncio.wait_for(self.ready.wait(), 30)
        self.post_reader, self.post_writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def wait_event(self, key):
        if key not in self.events:
            future = asyncio.get_running_loop().create_future()
            self.waiters[key] = future
            await asyncio.wait_for(future, 10)
        return self.events[key]

    async def keystroke(self, query, seq):
        """Returns (latency ms, plain bytes, wire bytes, framed wire bytes, the keystroke's own answer bytes)."""
        body = json.dumps({"query": query, "seq": seq}).encode()
        r, w = self.post_reader, self.post_writer
        if self.kind == "datastar-get":
            target = "/search?datastar=" + urllib.parse.quote(body.decode(), safe="")
            request = (f"GET {target} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{self.accept()}"
                       f"Datastar-Request: true\r\nCookie: {self.cookie}\r\n\r\n").encode()
            sent = time.perf_counter()
            w.write(request)
            await w.drain()
            stream = EventStream(r, self.arrived_get)
            self.get_event = None
            status, headers, head_bytes = await stream.read_head()
            if " 200" not in status:
                raise RuntimeError(f"datastar-get answered {status}")
            if self.gzip != ("gzip" in headers.get("content-encoding", "")):
                raise RuntimeError("datastar-get: Content-Encoding does not match what was asked")
            total, framed = await stream.read_body(headers)
            arrival, plain, ident = self.get_event
            if ident != str(seq):
                raise RuntimeError(f"datastar-get: event id {ident!r}, expected {seq}")
            return (arrival - sent) * 1000, plain, total, framed, head_bytes
        path = "/demos/mountains/actions/search" if self.kind == "ours" else "/search"
        extra = "" if self.kind == "ours" else "Datastar-Request: true\r\n"
        request = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}"
                   f"Cookie: {self.cookie}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        sent = time.perf_counter()
        w.write(request)
        await w.drain()
        head = await r.readuntil(b"\r\n\r\n")
        lower = head.lower()
        at = lower.find(b"\r\ncontent-length:")
        length = int(lower[at + 17:lower.find(b"\r\n", at + 2)]) if at >= 0 else 0
        answer = await r.readexactly(length)
        status = head[:head.find(b"\r\n")]
        if self.kind == "ours":
            if b" 200" not in status:
                raise RuntimeError(f"ours: keystroke answered {status!r} {answer[:200]!r}")
            key = json.loads(answer)["version"]
        else:
            if b" 204" not in status:
                raise RuntimeError(f"datastar: keystroke answered {status!r} {answer[:200]!r}")
            key = seq
        arrival, plain, wire, framed = await self.wait_event(key)
        return (arrival - sent) * 1000, plain, wire, framed, len(head) + length

    def arrived_get(self, event, ident, plain, wire, framed, tail=False):
        if not tail and self.get_event is None:
            self.get_event = (time.perf_counter(), plain, ident)

    def close(self):
        if getattr(self, "task", None):
            self.task.cancel()
            self.sse_writer.close()
        self.post_writer.close()


async def measure(kind, port, gzip, keys, pid):
    client = Client(kind, port, gzip)
    await client.start()
    samples = []
    # No cyclic garbage collection while typing: a collection pauses this client, and the
    # latencies would blame the server for it.
    gc.collect()
    gc.disable()
    cpu = cpu_seconds(pid)
    started = time.perf_counter()
    for seq, query in enumerate(keys, 1):
        samples.append(await client.keystroke(query, seq))
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(pid) - cpu
    gc.enable()
    client.close()
    n = len(samples)
    latencies = sorted(s[0] for s in samples)
    return {
        "keystrokes": n,
        "first": client.first,  # (plain, wire, framed) or None
        "mean_plain": sum(s[1] for s in samples) / n,
        "mean_wire": sum(s[2] for s in samples) / n,
        "mean_framed": sum(s[3] for s in samples) / n,
        "mean_answer": sum(s[4] for s in samples) / n,
        "p50_ms": latencies[n // 2],
        "p99_ms": latencies[min(n - 1, round(0.99 * (n - 1)))],
        "cpu_ms": 1000 * cpu / n,
        "seconds": elapsed,
        "other_events": client.other[0],
        "other_wire": client.other[1],
    }


def start_server(kind, port, binary, peer_args=()):
    if kind == "ours":
        process = subprocess.Popen([binary, "--port", str(port), "--memory-only", "--log-level", "warning",
                                    "--connections-per-address", "0"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
        process.stdout.readline()  # "Listening on …"
    else:
        process = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--port", str(port), *peer_args],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
        process.stdout.readline()  # "Datastar peer: …"
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{kind} did not start (exit {process.poll()})")
            time.sleep(0.05)


def run_target(kind, binary, keys, peer_args=()):
    """`before` is DiffableWeb too (another binary): served and typed into as `ours`."""
    port = free_port()
    process = start_server("ours" if kind == "before" else kind, port, binary, peer_args)
    kind = "ours" if kind == "before" else kind
    try:
        # The first session types into a fresh server; the second types the same keystrokes
        # again (DiffableWeb keeps each query's results and each step's diff for every session
        # that types it; the peer keeps nothing); the third is plain.
        return {"first": asyncio.run(measure(kind, port, True, keys, process.pid)),
                "gzip": asyncio.run(measure(kind, port, True, keys, process.pid)),
                "plain": asyncio.run(measure(kind, port, False, keys, process.pid))}
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


ROWS = [
    # label, mode, key, format
    ("mean event bytes per keystroke on the wire, gzip", "gzip", "mean_wire", "{:,.0f}"),
    ("the same with chunked framing", "gzip", "mean_framed", "{:,.0f}"),
    ("mean event bytes per keystroke, plain", "plain", "mean_wire", "{:,.0f}"),
    ("gzip ÷ plain", None, "gzip_ratio", "{:.3f}"),
    ("first event on the wire, gzip", "gzip", "first_wire", "{:,.0f}"),
    ("first event, plain", "plain", "first_wire", "{:,.0f}"),
    ("keystroke's own HTTP answer (head + body), gzip session", "gzip", "mean_answer", "{:,.0f}"),
    ("p50 latency keystroke → event, 1 session, gzip (ms)", "gzip", "p50_ms", "{:.2f}"),
    ("p99 latency, 1 session, gzip (ms)", "gzip", "p99_ms", "{:.2f}"),
    ("p99 latency, first session on a fresh server (ms)", "first", "p99_ms", "{:.2f}"),
    ("server CPU per keystroke, gzip (ms)", "gzip", "cpu_ms", "{:.3f}"),
    ("server CPU per keystroke, first session on a fresh server (ms)", "first", "cpu_ms", "{:.3f}"),
    ("server CPU per keystroke, plain (ms)", "plain", "cpu_ms", "{:.3f}"),
]


def value(result, mode, key):
    if key == "gzip_ratio":
        return result["gzip"]["mean_wire"] / result["plain"]["mean_wire"]
    if key == "first_wire":
        first = result[mode]["first"]
        return None if first is None else first[1]
    return result[mode][key]


def cell(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    median = statistics.median(values)
    if len(values) == 1:
        return fmt.format(median)
    return f"{fmt.format(median)} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "diffable-web"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sequence", choices=["names", "prefixes"], default="names",
                        help="names: 8 real names typed and deleted letter by letter (154 keystrokes); "
                             "prefixes: keystroke_latency.py's 33 short prefixes")
    parser.add_argument("--cycles", type=int, help="times the sequence is typed per session (default: 4 names, 18 prefixes: ~600 keystrokes)")
    parser.add_argument("--peer-gzip-level", type=int, default=9, help="the peer's GZipMiddleware compresslevel (9: Starlette's default)")
    parser.add_argument("--no-get", action="store_true", help="skip the per-keystroke @get target")
    parser.add_argument("--json", help="write every round's figures here")
    parser.add_argument("--before", help="another diffable-web binary, measured as a `before` column in the same rounds")
    args = parser.parse_args()
    ensure_venv()
    import uvloop
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} is missing: build it with `swift build -c release --product diffable-web`")
    cycles = args.cycles or (4 if args.sequence == "names" else 18)
    keys = keystrokes(cycles, args.sequence)
    targets = ["ours"] + (["before"] if args.before else []) + ["datastar"] + ([] if args.no_get else ["datastar-get"])
    if args.before and not os.path.exists(args.before):
        sys.exit(f"{args.before} is missing")
    rounds = []
    load_before = os.getloadavg()
    for index in range(args.rounds):
        order = targets[index % len(targets):] + targets[:index % len(targets)]
        results = {}
        for kind in order:
            binary = args.before if kind == "before" else args.binary
            results[kind] = run_target(kind, binary, keys, ["--gzip-level", str(args.peer_gzip_level)])
            g = results[kind]["gzip"]
            for mode, figures in results[kind].items():
                if figures["other_events"]:
                    print(f"warning: {kind} {mode}: {figures['other_events']} events ({figures['other_wire']:,} B) "
                          "belong to no keystroke and are not in the means", file=sys.stderr)
            print(f"round {index + 1} {kind:>12}: gzip {g['mean_wire']:,.0f} B/keystroke, plain {results[kind]['plain']['mean_wire']:,.0f}, "
                  f"p99 {g['p99_ms']:.2f} ms, CPU {g['cpu_ms']:.3f} ms", file=sys.stderr, flush=True)
        rounds.append(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"keystrokes": keys, "rounds": rounds}, f, indent=1)

    what = f"{len(NAMES)} names typed and deleted" if args.sequence == "names" else f"{len(PREFIXES)} short prefixes"
    print(f"\n## DiffableWeb and Datastar, the same {len(keys)} keystrokes ({what}, ×{cycles}), 1,467 mountains, 1 session\n")
    print(f"Median of {args.rounds} rounds (min–max); servers alternated, each fresh per round; the peer's gzip level "
          f"{args.peer_gzip_level}. Bytes: response body bytes read from the socket per event, without chunked framing "
          "unless said. ours ÷ theirs: of the medians (min–max of the rounds' own ratios). "
          f"Load average (1 min) {load_before[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end.\n")
    header = "| | DiffableWeb |" + (" DiffableWeb before | ours ÷ before |" if args.before else "") + " Datastar (stream + POST) | ours ÷ theirs |"
    rule = "|---|---:|" + ("---:|---:|" if args.before else "") + "---:|---:|"
    if "datastar-get" in targets:
        header += " Datastar (@get per keystroke) | ours ÷ theirs |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for label, mode, key, fmt in ROWS:
        row = f"| {label} |"
        ours = [value(r["ours"], mode, key) for r in rounds]
        row += f" {cell(ours, fmt)} |"
        for kind in targets[1:]:
            theirs = [value(r[kind], mode, key) for r in rounds]
            ratios = [o / t for o, t in zip(ours, theirs) if o is not None and t]
            mo = statistics.median([o for o in ours if o is not None]) if any(o is not None for o in ours) else None
            mt = statistics.median([t for t in theirs if t is not None]) if any(t is not None for t in theirs) else None
            ratio = "—" if not (mo is not None and mt) else (f"**{mo / mt:.2f}**" if key == "mean_wire" and mode == "gzip" else f"{mo / mt:.2f}")
            if ratios and len(ratios) > 1:
                ratio += f" ({min(ratios):.2f}–{max(ratios):.2f})"
            row += f" {cell(theirs, fmt)} | {ratio} |"
        print(row)


if __name__ == "__main__":
    main()
