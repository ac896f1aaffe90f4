#!/usr/bin/env python3
"""Memory is bounded as a whole (issue 35): a real `diffable-web --memory-limit SIZE` is pushed
past its budget three ways, and its resident memory (VmRSS sampled every 20 ms, and the
kernel's high-water mark VmHWM) must stay under the limit plus 64 MiB throughout, the process
must stay alive, and what it sheds must be shed cleanly:

A. 300 event streams that never read, on one session's Mountains list that changes every 50 ms
   (alternating a search matching every mountain and one matching one), `--memory-limit 256M`:
   every stream the server cut is closed (its socket gives EOF or a reset, and no server-side
   socket of it is ESTABLISHED), the ESTABLISHED connections are exactly the streams the server
   still counts open, and a client that reads beside them sees every change within 1 s of its
   acknowledgment.
B. Sessions with lists as large as their budget allows, made until the server answers
   `503 memory_full` (with `Retry-After`), with a store: every session after the first keeps a
   reading stream open (so it is not idle: memory, not eviction, binds; `--memory-total 0`, so
   no count of the lists refuses before RSS does), the first is idle
   and is evicted, then comes back whole; after `kill -9` a restart on the same store shows
   every write that was answered 2xx.
C. 5,000 fresh gzip streams (each a new session), opened as fast as possible under
   `--memory-limit 128M`, then not read: the server refuses (503 memory_full) or closes streams
   to stay within bound, every cut stream's socket is freed, and `/healthz`, asked every 10 ms
   meanwhile (from another process), answers with p99 under 50 ms. (A stream cut with a reset
   before its head was read shows as "closed unanswered": a reset drops what the client had
   not read yet.)

Bounded: every request has a timeout, every wait a bound; the servers are killed on any failure.
`DIFFABLE_WEB_BINARY` overrides the binary (default: the debug build); `MEMORY_TEST_CASES=AB`
runs only some cases."""
import http.client
import json
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("DIFFABLE_WEB_BINARY", os.path.join(ROOT, ".build", "debug", "diffable-web"))
MIB = 1 << 20
SLACK = 64 * MIB          # RSS may pass the limit by at most this much
SERVERS = []              # every process started, killed at the end whatever happens


def fail(message):
    print(f"memory-test: FAIL: {message}", file=sys.stderr)
    for server in SERVERS:
        server.dump_log()
    sys.exit(1)


def say(message):
    print(f"memory-test: {message}", flush=True)


# ---------------------------------------------------------------------------------------------
# The server process, its memory and its sockets

class Server:
    """One `diffable-web` process on a free port, its log in a file, its RSS sampled every 20 ms."""

    def __init__(self, name, flags, state=None):
        self.name = name
        self.directory = tempfile.mkdtemp(prefix="dw-memory-log-")
        self.log_path = os.path.join(self.directory, "server.log")
        store = ["--state-dir", state] if state else []
        command = [BINARY, "--port", "0", "--log-level", "warning", *store, *flags]
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, text=True)
        SERVERS.append(self)
        match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", self.process.stdout.readline() or "")
        if not match:
            fail(f"{name}: the server did not start: {' '.join(command)}")
        self.port = int(match.group(1))
        self.pid = self.process.pid
        self.peak_sampled = 0
        self.samples = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def status(self, field):
        """A field of /proc/PID/status in bytes (VmRSS, VmHWM), 0 once the process is gone."""
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith(field + ":"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def _sample(self):
        while not self._stop.is_set():
            rss = self.status("VmRSS")
            if rss:
                self.samples += 1
                self.peak_sampled = max(self.peak_sampled, rss)
            self._stop.wait(0.02)

    def peak(self):
        """The highest RSS seen: the sampler's and the kernel's high-water mark (VmHWM)."""
        return max(self.peak_sampled, self.status("VmHWM"))

    def alive(self, what):
        if self.process.poll() is not None:
            code = self.process.returncode
            fail(f"{self.name}: the server died {what} (exit {code}"
                 f"{', SIGKILL: the OOM killer?' if code == -signal.SIGKILL else ''}); peak RSS {self.peak() / MIB:.0f} MiB")

    def check_rss(self, limit, what):
        peak = self.peak()
        if peak >= limit + SLACK:
            fail(f"{self.name}: RSS reached {peak / MIB:.0f} MiB {what}; the limit is {limit / MIB:.0f} MiB "
                 f"(+{SLACK // MIB} MiB allowed)")
        return peak

    def kill(self):
        self._stop.set()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def dump_log(self):
        try:
            with open(self.log_path) as log:
                lines = log.read().splitlines()
        except OSError:
            return
        if lines:
            print(f"memory-test: {self.name}'s log, last lines:", file=sys.stderr)
            for line in lines[-15:]:
                print(f"    {line}", file=sys.stderr)

    def close(self):
        self.kill()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def call(port, method, path, body=None, headers=None, timeout=30):
    """One request on a fresh connection: (status, JSON or raw bytes, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        head = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            head.setdefault("Content-Type", "application/json")
        connection.request(method, path, data, head)
        response = connection.getresponse()
        raw = response.read()
        answer = raw
        if (response.getheader("Content-Type") or "").startswith("application/json") and raw:
            answer = json.loads(raw)
        return response.status, answer, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


class KeepAlive:
    """Requests on one keep-alive connection (a new one when the server closed it)."""

    def __init__(self, port, timeout=30):
        self.port, self.timeout, self.connection = port, timeout, None

    def request(self, method, path, body=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                data = json.dumps(body) if body is not None else None
                self.connection.request(method, path, data, {"Content-Type": "application/json"} if data else {})
                response = self.connection.getresponse()
                raw = response.read()
                if response.will_close:
                    self.close()
                is_json = (response.getheader("Content-Type") or "").startswith("application/json")
                return response.status, (json.loads(raw) if raw and is_json else raw), response.getheader("Retry-After")
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


MEMORY_KEYS = {"limitBytes", "residentBytes", "peakResidentBytes", "state", "shed", "refusals", "parts"}


def memory(port):
    """GET /healthz/memory, its shape checked."""
    status, body, _ = call(port, "GET", "/healthz/memory", timeout=10)
    if status != 200 or not isinstance(body, dict):
        fail(f"GET /healthz/memory answered {status}: {str(body)[:200]}")
    missing = MEMORY_KEYS - set(body)
    if (missing or not {"caches", "sessions", "streams"} <= set(body["shed"])
            or body["state"] not in ("normal", "shedding", "full")):
        fail(f"GET /healthz/memory lacks {sorted(missing)} or a shed count, or has an unknown state: {body}")
    return body


def memory_line(state):
    shed = state["shed"]
    parts = ", ".join(f"{name} {value / MIB:.1f}" for name, value in sorted(state["parts"].items()))
    return (f"state {state['state']}, shed caches {shed['caches']} / sessions {shed['sessions']} / streams "
            f"{shed['streams']}, refusals {state['refusals']}, parts (MiB) {parts}")


def established(port):
    """The client ports of the server's ESTABLISHED TCP connections on `port` (/proc/net/tcp*)."""
    ports = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as table:
                rows = table.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 3 and fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                ports.add(int(fields[2].rsplit(":", 1)[1], 16))
    return ports


def drain(sockets, quiet=1.0, bound=30.0):
    """Reads every socket, without blocking, until the server closed it (EOF: "closed", or a
    reset: "reset") or it had nothing more for `quiet` s ("open"). Returns {socket: outcome}."""
    selector = selectors.DefaultSelector()
    outcome, last = {}, {}
    now = time.monotonic()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        last[sock] = now
    deadline = now + bound
    while selector.get_map() and time.monotonic() < deadline:
        ready = selector.select(timeout=0.1)
        now = time.monotonic()
        for key, _ in ready:
            sock = key.fileobj
            try:
                while True:
                    data = sock.recv(1 << 20)
                    if not data:
                        outcome[sock] = "closed"
                        break
                    last[sock] = now
            except BlockingIOError:
                pass
            except OSError:                     # ECONNRESET: the server closed with unread data
                outcome[sock] = "reset"
            if sock in outcome:
                selector.unregister(sock)
        for key in list(selector.get_map().values()):
            if now - last[key.fileobj] > quiet:
                outcome[key.fileobj] = "open"
                selector.unregister(key.fileobj)
    for key in list(selector.get_map().values()):
        outcome[key.fileobj] = "open"           # still sending after the bound: open
    selector.close()
    return outcome


def open_stalled(port, path, gzip=False, receive_buffer=16384, timeout=10):
    """A raw socket that sends a stream's GET and never reads (a small receive buffer, so the
    server, not the kernel, holds what it cannot send)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    accept = "Accept-Encoding: gzip\r\n" if gzip else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{accept}\r\n".encode())
    return sock


class Reader(threading.Thread):
    """An event stream that reads (HTTP/1.0: the stream unchunked): the arrival time of every
    version it sees, by its event ids (`<epoch>-<version>[.<n>]`)."""

    def __init__(self, port, path):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        status = self.file.readline().decode("latin-1")
        if " 200 " not in status:
            fail(f"the reading stream {path} was answered {status.strip()!r}")
        while self.file.readline() not in (b"\r\n", b"\n", b""):
            pass
        self.seen = []            # (version, monotonic time) for each newer version
        self.newest = -1
        self.ended = None
        self.lock = threading.Lock()
        self.port = self.sock.getsockname()[1]

    def run(self):
        try:
            for line in self.file:
                if line.startswith(b"id: "):
                    version = int(line[4:].decode().strip().rsplit("-", 1)[1].split(".")[0])
                    now = time.monotonic()
                    with self.lock:
                        if version > self.newest:
                            self.newest = version
                            self.seen.append((version, now))
            self.ended = "the server closed it"
        except OSError as error:
            self.ended = f"{error!r}"

    def seen_at(self, version):
        with self.lock:
            for seen, when in self.seen:
                if seen >= version:
                    return when
        return None

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def wait_for(what, predicate, bound=30.0, step=0.05):
    """Waits until `predicate()` is truthy (its value is returned); `bound` only turns a hang into a failure."""
    deadline = time.monotonic() + bound
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f"waited {bound:.0f} s for {what}")
        time.sleep(step)


def open_streams(port, session, demo):
    status, body, _ = call(port, "GET", f"/api/sessions/{session}", timeout=10)
    if status != 200:
        fail(f"GET /api/sessions/{session} answered {status}")
    return next(d["openStreams"] for d in body["demos"] if d["name"] == demo)


def items(snapshot):
    return [item["id"] for section in snapshot["sections"] for item in section["items"]]


# ---------------------------------------------------------------------------------------------
# A. 300 streams that never read, a list changing every 50 ms, one reader beside them

def case_streams():
    limit = 256 * MIB
    server = Server("A", ["--memory-limit", "256M", "--memory-only", "--connections-per-address", "0"])
    stalled = []
    reader = None
    try:
        state = memory(server.port)
        if state["limitBytes"] != limit:
            fail(f"A: --memory-limit 256M gave limitBytes {state['limitBytes']}, not {limit} (256 MiB)")
        status, body, _ = call(server.port, "POST", "/api/sessions")
        if status != 201:
            fail(f"A: POST /api/sessions answered {status}: {body}")
        session = body["id"]
        root = f"/api/sessions/{session}/demos/mountains"
        api = KeepAlive(server.port)
        status, body, _ = api.request("POST", f"{root}/actions/search", {"query": ""})
        if status != 200:
            fail(f"A: the first search answered {status}: {body}")
        for _ in range(300):
            stalled.append(open_stalled(server.port, f"{root}/events?width=1024&height=768"))
        reader = Reader(server.port, f"{root}/events?width=1024&height=768")
        reader.start()
        wait_for("the server to count the 301 streams open", lambda: open_streams(server.port, session, "mountains") >= 301)
        before = server.status("VmRSS")

        # The list changes every 50 ms for 10 s: "everest" (1 mountain) and "" (1,467), in turn.
        acknowledged, refused, errors = [], {}, 0
        start = time.monotonic()
        tick = 0
        while time.monotonic() - start < 10:
            query = "everest" if tick % 2 == 0 else ""
            try:
                status, body, retry = api.request("POST", f"{root}/actions/search", {"query": query})
            except OSError as error:
                errors += 1
                if errors > 10:
                    fail(f"A: searches failed: {error!r}")
                continue
            now = time.monotonic()
            if status == 200:
                acknowledged.append((body["version"], now))
            else:
                code = body.get("error") if isinstance(body, dict) else body[:80]
                refused[f"{status} {code}"] = refused.get(f"{status} {code}", 0) + 1
                if status == 503 and retry is None:
                    fail(f"A: a search answered 503 without Retry-After: {body}")
            server.alive("while the list changed")
            tick += 1
            pause = start + tick * 0.05 - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        if not acknowledged:
            fail(f"A: no search was answered 200 (refused: {refused})")
        problems = []
        newest = acknowledged[-1][0]
        deadline = time.monotonic() + 10
        while reader.newest < newest and not reader.ended and time.monotonic() < deadline:
            time.sleep(0.05)
        if reader.ended:
            problems.append(f"the reading stream ended: {reader.ended} (it read every byte)")
        latencies = []
        for version, acknowledged_at in acknowledged:
            seen = reader.seen_at(version)
            latencies.append(max(0.0, seen - acknowledged_at) if seen is not None else float("inf"))
        worst = max(latencies)
        late = sum(1 for latency in latencies if latency > 1.0)
        if late:
            problems.append(f"{late} of {len(acknowledged)} changes reached the reading stream more than 1 s after "
                            f"their acknowledgment, or never (worst {worst * 1000:.0f} ms)")
        at_end = memory(server.port)
        peak = server.peak()
        if peak >= limit + SLACK:
            problems.append(f"RSS reached {peak / MIB:.0f} MiB (limit 256 MiB, +64 allowed)")

        # Sockets: what the server still counts against what is ESTABLISHED on its side (waited
        # for: it closes a cut stream's socket on its own thread), then what each client sees
        # when it finally reads.
        ports = {sock.getsockname()[1] for sock in stalled}
        watched = ports | {reader.port}
        deadline = time.monotonic() + 10
        while True:
            counted = open_streams(server.port, session, "mountains")
            live = established(server.port) & watched
            if counted == len(live) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if counted != len(live):
            problems.append(f"the server counts {counted} streams open (the reader's among them), but {len(live)} "
                            f"of their connections are ESTABLISHED on its side")
        outcome = drain(stalled)
        cut = [sock for sock in stalled if outcome[sock] != "open"]
        now_live = established(server.port)
        leaked = [sock for sock in cut if sock.getsockname()[1] in now_live]
        if leaked:
            problems.append(f"{len(leaked)} streams the server cut still have an ESTABLISHED socket on its side")
        still = len(stalled) - len(cut)
        live_stalled = len(now_live & ports)
        if live_stalled != still:
            problems.append(f"{still} streams that never read are open as their clients see them, {live_stalled} "
                            f"ESTABLISHED on the server's side")
        server.alive("at the end")
        say(f"A: 300 streams that never read, {len(acknowledged)} changes in 10 s (refused: {refused or 'none'}): "
            f"RSS {before / MIB:.0f} MiB with the streams open, peak {peak / MIB:.0f} MiB (limit 256 MiB); "
            f"{len(cut)} cut and closed ({sum(1 for s in cut if outcome[s] == 'reset')} with a reset), {still} open, "
            f"{counted} counted open by the server with the reader, {len(live)} ESTABLISHED; reader's worst latency "
            f"{worst * 1000:.0f} ms; {memory_line(at_end)}")
        if problems:
            fail("A: " + "; ".join(problems))
    finally:
        for sock in stalled:
            sock.close()
        if reader:
            reader.close()
        server.close()


# ---------------------------------------------------------------------------------------------
# B. Sessions with lists as large as their budget allows, until the server is full; a store

BATCH = 5000                  # 5,000 identifiers of 200 characters: ~1,015,000 bytes, under the 1 MiB body


def identifier(session, batch, n):
    head = f"https://example.org/{session}/{batch}/{n}/"
    return head + "x" * (200 - len(head))


class StreamKeeper(threading.Thread):
    """Reads every stream handed to it (and throws the bytes away): streams that read, so their
    sessions are not idle. Counts the ones the server closed."""

    def __init__(self):
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.pending = []
        self.lock = threading.Lock()
        self.closed = 0
        self.stop = threading.Event()

    def add(self, sock):
        sock.setblocking(False)
        with self.lock:
            self.pending.append(sock)

    def run(self):
        while not self.stop.is_set():
            with self.lock:
                pending, self.pending = self.pending, []
            for sock in pending:
                self.selector.register(sock, selectors.EVENT_READ)
            if not self.selector.get_map():
                time.sleep(0.05)
                continue
            for key, _ in self.selector.select(timeout=0.05):
                try:
                    while key.fileobj.recv(1 << 20):
                        pass
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                self.closed += 1                 # EOF or reset: the server closed it
                self.selector.unregister(key.fileobj)

    def close(self):
        self.stop.set()
        self.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def case_sessions():
    limit = 256 * MIB
    state = tempfile.mkdtemp(prefix="dw-memory-store-")
    # No other cap binds first: --max-sessions far off, and no count of the sessions' lists
    # (--memory-total 0; by default it is half the limit, and refuses before RSS gets near it).
    flags = ["--memory-limit", "256M", "--session-timeout", "120", "--max-sessions", "100000", "--memory-total", "0"]
    server = Server("B", flags, state=state)
    keeper = StreamKeeper()
    keeper.start()
    try:
        if memory(server.port)["limitBytes"] != limit:
            fail("B: --memory-limit 256M is not 256 MiB in /healthz/memory")
        sessions = []             # {"id", "cookie", "items", "version"}: what was answered 2xx
        refusal = None            # (what, status, body, Retry-After)
        budget_refusals = 0
        started = time.monotonic()
        while refusal is None:
            if len(sessions) >= 40 or time.monotonic() - started > 150:
                held = sum(len(s["items"]) for s in sessions)
                fail(f"B: no 503 memory_full after {len(sessions)} sessions holding {held} identifiers of 200 "
                     f"characters (~{held * 200 / MIB:.0f} MiB of them) in {time.monotonic() - started:.0f} s; "
                     f"RSS {server.status('VmRSS') / MIB:.0f} MiB, peak {server.peak() / MIB:.0f} MiB; "
                     f"{memory_line(memory(server.port))}")
            status, body, headers = call(server.port, "POST", "/api/sessions")
            if status != 201:
                refusal = ("a new session", status, body, headers.get("retry-after"))
                break
            cookie = re.search(r"dw_session=([^;]+)", headers.get("set-cookie", ""))
            session = {"id": body["id"], "cookie": cookie and cookie.group(1)}
            root = f"/api/sessions/{session['id']}/demos/urls"
            status, snapshot, headers = call(server.port, "GET", f"{root}/snapshot")
            if status == 503:              # making the list is growth too
                refusal = ("the first read of a new session's list", status, snapshot, headers.get("retry-after"))
                break
            if status != 200:
                fail(f"B: the new session's URL list answered {status}: {str(snapshot)[:200]}")
            session["items"], session["version"] = items(snapshot), snapshot["version"]
            sessions.append(session)
            if len(sessions) > 1:
                # A stream that reads: this session is not idle, so it is not evicted (the first is).
                keeper.add(open_stalled(server.port, f"/api/sessions/{session['id']}/demos/numbers/events"))
            for batch in range(40):
                ids = [identifier(len(sessions), batch, n) for n in range(BATCH)]
                status, body, headers = call(server.port, "POST", f"{root}/operations",
                                             {"operations": [{"op": "appendItems", "items": ids}]}, timeout=60)
                server.alive(f"while session {len(sessions)} grew")
                if status == 200:
                    session["items"] += ids
                    session["version"] = body["version"]
                    continue
                code = body.get("error") if isinstance(body, dict) else None
                if status == 422 and code in ("memory_budget", "list_too_large"):
                    budget_refusals += 1
                    break                         # this session is full: the next one
                refusal = (f"an append to session {len(sessions)}", status, body, headers.get("retry-after"))
                break
            server.check_rss(limit, f"with {len(sessions)} sessions")
        what, status, body, retry = refusal
        code = body.get("error") if isinstance(body, dict) else None
        if status != 503 or code != "memory_full":
            fail(f"B: {what} was answered {status} {str(body)[:200]}, not 503 memory_full")
        if not retry or not retry.strip().isdigit():
            fail(f"B: the 503 memory_full had no Retry-After (seconds): {retry!r}")
        server.alive("after the refusal")
        if call(server.port, "GET", "/healthz", timeout=10)[0] != 200:
            fail("B: /healthz is not answered 200 when memory is full")
        full = memory(server.port)
        held = sum(len(s["items"]) for s in sessions)
        if full["refusals"] < 1:
            fail(f"B: a 503 memory_full was answered, but /healthz/memory counts no refusal: {memory_line(full)}")
        # The first session is idle (no stream): it must have been evicted before anything was refused.
        if full["shed"]["sessions"] < 1:
            fail(f"B: refused with an idle session in memory (the first): {memory_line(full)}")
        first = sessions[0]
        status, snapshot, _ = call(server.port, "GET", f"/api/sessions/{first['id']}/demos/urls/snapshot", timeout=60)
        if status != 200:
            fail(f"B: the first session, evicted, answered {status} to a read: {str(snapshot)[:200]}")
        if snapshot["version"] != first["version"] or items(snapshot) != first["items"]:
            fail(f"B: the first session came back at version {snapshot['version']} with {len(items(snapshot))} "
                 f"items; it had version {first['version']} and {len(first['items'])} items")
        first_back = f"came back whole after its eviction ({len(first['items'])} items)"
        peak = server.check_rss(limit, "while sessions were made")
        server.alive("before the kill")
        say(f"B: {len(sessions)} sessions, {held} identifiers of 200 characters answered 2xx "
            f"({budget_refusals} sessions filled to their own budget), then {what}: 503 memory_full, "
            f"Retry-After {retry}; peak RSS {peak / MIB:.0f} MiB (limit 256 MiB); {keeper.closed} of "
            f"{len(sessions) - 1} reading streams closed by the server; the first session {first_back}; "
            f"{memory_line(full)}")

        # kill -9, then every answered write must be in the store.
        server.close()
        server = Server("B after kill -9", flags, state=state)
        for index, session in enumerate(sessions):
            status, snapshot, _ = call(server.port, "GET", f"/api/sessions/{session['id']}/demos/urls/snapshot", timeout=60)
            server.alive("while the sessions were read back")
            if status != 200:
                fail(f"B: after kill -9, session {index + 1} answered {status}: {str(snapshot)[:200]}")
            if snapshot["version"] != session["version"] or items(snapshot) != session["items"]:
                got = items(snapshot)
                fail(f"B: after kill -9, session {index + 1} is at version {snapshot['version']} with {len(got)} "
                     f"items; answered 2xx: version {session['version']} with {len(session['items'])} items")
        again = server.check_rss(limit, "while every session was read back after kill -9")
        say(f"B: after kill -9, all {len(sessions)} sessions read back with every answered write; "
            f"peak RSS {again / MIB:.0f} MiB; {memory_line(memory(server.port))}")
    finally:
        keeper.close()
        server.close()
        shutil.rmtree(state, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# C. 5,000 fresh gzip streams at once, /healthz measured from another process

CROWD = 5000


def healthz_probe(port):
    """Runs in a process of its own (no GIL shared with the crowd): GET /healthz every 10 ms on
    a keep-alive connection until stdin closes; prints the latencies (ms) as JSON."""
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    latencies, errors, connection = [], [], None
    while not stop.is_set():
        started = time.monotonic()
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
            if response.will_close:
                connection.close()
                connection = None
            latencies.append((time.time(), (time.monotonic() - started) * 1000))
        except OSError as error:
            errors.append(repr(error))
            latencies.append((time.time(), (time.monotonic() - started) * 1000))
            if connection is not None:
                connection.close()
            connection = None
        rest = 0.01 - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
    print(json.dumps({"latencies": latencies, "errors": errors[:20], "errorCount": len(errors)}))


class Crowd(threading.Thread):
    """Reads the response head of every socket handed to it: 200 (then reads nothing more),
    503 (then its body), or closed before an answer."""

    def __init__(self):
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.queue, self.lock = [], threading.Lock()
        self.heads = {}                    # socket -> bytes read so far
        self.answer = {}                   # socket -> ("200"|"503"|"other"|"closed", detail)
        self.done = threading.Event()

    def add(self, sock):
        sock.setblocking(False)
        with self.lock:
            self.queue.append(sock)

    def run(self):
        while not (self.done.is_set() and not self.selector.get_map() and not self.queue):
            with self.lock:
                queue, self.queue = self.queue, []
            for sock in queue:
                self.heads[sock] = b""
                self.selector.register(sock, selectors.EVENT_READ)
            if not self.selector.get_map():
                time.sleep(0.01)
                continue
            for key, _ in self.selector.select(timeout=0.05):
                self._read(key.fileobj)

    def _read(self, sock):
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError as error:
            data, reset = b"", error
        else:
            reset = None
        buffer = self.heads[sock] + data
        self.heads[sock] = buffer
        head, _, rest = buffer.partition(b"\r\n\r\n")
        if not data or reset:
            if b"\r\n\r\n" in buffer and b" 503 " in head.split(b"\r\n")[0]:
                self._finish(sock, "503", self._refusal(head, rest))
            else:
                self._finish(sock, "closed", repr(reset) if reset else "EOF")
            return
        if b"\r\n\r\n" not in buffer:
            return
        status = head.split(b"\r\n")[0].decode("latin-1")
        if " 200 " in status:
            self._finish(sock, "200", None)
        elif " 503 " in status:
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            if length and len(rest) >= int(length.group(1)):
                self._finish(sock, "503", self._refusal(head, rest))
        else:
            self._finish(sock, "other", status)

    @staticmethod
    def _refusal(head, body):
        retry = re.search(rb"(?im)^retry-after:\s*(\d+)", head)
        try:
            code = json.loads(body.decode()).get("error")
        except ValueError:
            code = body[:60]
        return code, retry.group(1).decode() if retry else None

    def _finish(self, sock, kind, detail):
        self.answer[sock] = (kind, detail)
        self.selector.unregister(sock)


def case_crowd():
    limit = 128 * MIB
    server = Server("C", ["--memory-limit", "128M", "--connections-per-address", "0", "--memory-only"])
    crowd = Crowd()
    sockets, connect_errors = [], []
    probe = None
    try:
        if memory(server.port)["limitBytes"] != limit:
            fail("C: --memory-limit 128M is not 128 MiB in /healthz/memory")
        probe = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--healthz-probe", str(server.port)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        time.sleep(0.3)                    # the probe's first requests, before the crowd
        crowd.start()
        started = time.monotonic()
        crowd_began = time.time()
        for _ in range(CROWD):
            try:
                sock = open_stalled(server.port, "/demos/mountains/events", gzip=True, timeout=10)
            except OSError as error:
                connect_errors.append(repr(error))
                continue
            sockets.append(sock)
            crowd.add(sock)
        opened = time.monotonic() - started
        # Every head answered (or the connection closed), then one more second of the crowd held.
        wait_for("an answer on every stream of the crowd",
                 lambda: len(crowd.answer) >= len(sockets) or server.process.poll() is not None, bound=60, step=0.1)
        answered = time.monotonic() - started
        crowd_answered = time.time()
        server.alive("with the crowd connected")
        time.sleep(1)
        probe.stdin.close()
        result = json.loads(probe.stdout.read() or "{}")
        probe.wait(timeout=30)
        probe = None
        at_end = memory(server.port)
        peak = server.peak()
        crowd.done.set()
        crowd.join(timeout=10)
        problems = []
        if peak >= limit + SLACK:
            problems.append(f"RSS reached {peak / MIB:.0f} MiB (limit 128 MiB, +64 allowed)")

        kinds = {}
        for kind, _ in crowd.answer.values():
            kinds[kind] = kinds.get(kind, 0) + 1
        refusals = [detail for kind, detail in crowd.answer.values() if kind == "503"]
        wrong = [r for r in refusals if r[0] != "memory_full" or not r[1]]
        if wrong:
            problems.append(f"{len(wrong)} of {len(refusals)} 503 answers were not memory_full with Retry-After: "
                            f"{wrong[:3]}")
        others = [detail for kind, detail in crowd.answer.values() if kind == "other"]
        if others:
            problems.append(f"{len(others)} streams were answered neither 200 nor 503: {others[:3]}")
        if at_end["refusals"] < len(refusals):
            problems.append(f"/healthz/memory counts {at_end['refusals']} refusals, the crowd got {len(refusals)} "
                            f"503 memory_full")

        # The streams answered 200: which the server closed since, and which are ESTABLISHED.
        streams = [sock for sock, (kind, _) in crowd.answer.items() if kind == "200"]
        outcome = drain(streams, quiet=0.5)
        cut = [sock for sock in streams if outcome[sock] != "open"]
        live = established(server.port)
        leaked = [sock for sock in cut if sock.getsockname()[1] in live]
        if leaked:
            problems.append(f"{len(leaked)} streams the server closed still have an ESTABLISHED socket on its side")
        still = [sock for sock in streams if outcome[sock] == "open"]
        live_streams = len(live & {sock.getsockname()[1] for sock in streams})
        if live_streams != len(still):
            problems.append(f"{len(still)} streams are open as their clients see them, {live_streams} ESTABLISHED "
                            f"on the server's side")

        samples = result.get("latencies") or [(0.0, float("inf"))]
        latencies = sorted(latency for _, latency in samples)
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        # Where the slow ones were: while the crowd connected and was answered, or after.
        during = sorted(latency for at, latency in samples if crowd_began <= at <= crowd_answered) or [0.0]
        slow = sum(1 for latency in latencies if latency >= 50)
        if result.get("errorCount"):
            problems.append(f"/healthz failed {result['errorCount']} times: {result['errors'][:5]}")
        if p99 >= 50:
            problems.append(f"/healthz p99 {p99:.1f} ms (must be under 50 ms)")
        server.alive("at the end")
        unanswered = {}
        for kind, detail in crowd.answer.values():
            if kind == "closed":
                name = "reset" if "Reset" in str(detail) else str(detail)
                unanswered[name] = unanswered.get(name, 0) + 1
        how = " (" + ", ".join(f"{n} {k}" for k, n in sorted(unanswered.items())) + ")" if unanswered else ""
        say(f"C: {CROWD} gzip streams sent in {opened:.1f} s ({len(connect_errors)} connects failed), all answered in "
            f"{answered:.1f} s: {kinds.get('200', 0)} answered 200, {len(refusals)} 503 memory_full, "
            f"{kinds.get('closed', 0)} closed unanswered{how}; of the 200s {len(cut)} closed since, {len(still)} open "
            f"({live_streams} ESTABLISHED); peak "
            f"RSS {peak / MIB:.0f} MiB (limit 128 MiB); /healthz p50 {latencies[len(latencies) // 2]:.1f} ms, p99 "
            f"{p99:.1f} ms, max {latencies[-1]:.1f} ms over {len(latencies)} requests ({slow} of 50 ms or more; "
            f"while the crowd was answered: {len(during)} requests, max {during[-1]:.1f} ms); {memory_line(at_end)}")
        if problems:
            fail("C: " + "; ".join(problems))
    finally:
        if probe is not None:
            probe.kill()
        crowd.done.set()
        for sock in sockets:
            sock.close()
        server.close()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--healthz-probe":
        healthz_probe(int(sys.argv[2]))
        return
    if not os.access(BINARY, os.X_OK):
        fail(f"no server binary at {BINARY} (swift build, or set DIFFABLE_WEB_BINARY)")
    usage = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    if "--memory-limit" not in usage:
        fail(f"{BINARY} has no --memory-limit flag")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CROWD + 1024
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            try:                           # root (CI) may raise the hard limit too
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
                hard = wanted
            except (ValueError, OSError):
                fail(f"the open-file limit is {hard}; case C needs {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    cases = os.environ.get("MEMORY_TEST_CASES", "ABC").upper()
    started = time.monotonic()
    try:
        for name, case in (("A", case_streams), ("B", case_sessions), ("C", case_crowd)):
            if name in cases:
                began = time.monotonic()
                case()
                say(f"{name}: {time.monotonic() - began:.0f} s")
    finally:
        for server in SERVERS:
            server.kill()
    say(f"ok ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
