#!/usr/bin/env python3
"""The process's memory under load (issue 35): how RSS, the governor's shedding and its
refusals behave with the release server, under its default budget or `--memory-limit`.

Cases (both by default):
  streams    one session, N Mountains event streams that never read (plain, or `--gzip`), and
             C full-list changes through the JSON API (alternating "" and "everest": 1,467 ids
             out, then in); reports RSS before, at its peak and at the end, the streams the
             server still counts against the ESTABLISHED sockets on its side, and
             /healthz/memory (state, shed counts, parts) when RSS was highest.
  big-lists  sessions made one after another from one client, each with a URL list of up to
             100,000 identifiers of 200 characters (as much as its budget allows), until the
             server refuses (503 memory_full) or N sessions; reports RSS per session, the
             peak, refusals and shed counts. `--pin` keeps a reading stream open on each
             session (so it is not idle and cannot be evicted).

    python3 Benchmarks/http/memory_probe.py
    python3 Benchmarks/http/memory_probe.py --case streams --gzip --memory-limit 256M
    python3 Benchmarks/http/memory_probe.py --case big-lists --sessions 40 -- --session-memory 64

Extra server flags go after `--`. Loopback only; bounded in time and count.
"""
import argparse
import http.client
import json
import os
import re
import resource
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIB = 1 << 20


class Server:
    """The server on a free port, its RSS sampled every 20 ms."""

    def __init__(self, binary, flags):
        self.process = subprocess.Popen([binary, "--port", "0", "--log-level", "warning", *flags], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", line or "")
        if not match:
            self.process.kill()
            sys.exit(f"the server did not start: {line!r} ({' '.join([binary, *flags])})")
        self.port = int(match.group(1))
        self.peak = 0
        self.stopped = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def status(self, field):
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                for line in status:
                    if line.startswith(field + ":"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def rss(self):
        return self.status("VmRSS")

    def high_water(self):
        return max(self.peak, self.status("VmHWM"))

    def _sample(self):
        while not self.stopped.is_set():
            self.peak = max(self.peak, self.rss())
            self.stopped.wait(0.02)

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        self.stopped.set()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


def call(port, method, path, body=None, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = body if body is None or isinstance(body, (bytes, str)) else json.dumps(body)
        connection.request(method, path, data, {"Content-Type": "application/json"} if data is not None else {})
        response = connection.getresponse()
        raw = response.read()
        is_json = (response.getheader("Content-Type") or "").startswith("application/json")
        return response.status, (json.loads(raw) if raw and is_json else raw), response.getheader("Retry-After")
    finally:
        connection.close()


def memory(port):
    """/healthz/memory, or None when the server has none (a build before issue 35)."""
    try:
        status, body, _ = call(port, "GET", "/healthz/memory", timeout=10)
    except OSError:
        return None
    return body if status == 200 and isinstance(body, dict) else None


def established(port, queued=None):
    """Client ports of the server's ESTABLISHED connections on `port`; `queued`, a dict, gets
    the bytes the kernel holds in their send queues (what the server wrote, unread)."""
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
                client = int(fields[2].rsplit(":", 1)[1], 16)
                ports.add(client)
                if queued is not None:
                    queued[client] = int(fields[4].split(":")[0], 16)
    return ports


def open_streams(port, session, demo):
    status, body, _ = call(port, "GET", f"/api/sessions/{session}", timeout=10)
    if status != 200:
        return None
    return next((d.get("openStreams") for d in body["demos"] if d["name"] == demo), None)


def mib(value):
    return f"{value / MIB:.0f}" if value is not None else "-"


def shed_text(state):
    if not state:
        return "(no /healthz/memory)"
    shed = state.get("shed", {})
    return (f"{state.get('state')}; shed caches {shed.get('caches')}, sessions {shed.get('sessions')}, "
            f"streams {shed.get('streams')}; refusals {state.get('refusals')}")


def parts_text(state):
    if not state:
        return "-"
    return ", ".join(f"{name} {value / MIB:.1f} MiB" for name, value in sorted(state.get("parts", {}).items()))


def table(rows):
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"  {label.ljust(width)}  {value}")


def stalled(port, path, gzip):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    accept = "Accept-Encoding: gzip\r\n" if gzip else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{accept}\r\n".encode())
    return sock


def closed_by_server(sockets, quiet=1.0, bound=60.0):
    """Reads every socket without blocking until EOF/reset (closed by the server) or `quiet` s
    without data (open). Returns how many the server closed."""
    selector = selectors.DefaultSelector()
    last, closed = {}, 0
    now = time.monotonic()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        last[sock] = now
    deadline = now + bound
    while selector.get_map() and time.monotonic() < deadline:
        now = time.monotonic()
        for key, _ in selector.select(timeout=0.1):
            sock, gone = key.fileobj, False
            try:
                while True:
                    data = sock.recv(1 << 20)
                    if not data:
                        gone = True
                        break
                    last[sock] = now
            except BlockingIOError:
                pass
            except OSError:
                gone = True
            if gone:
                closed += 1
                selector.unregister(sock)
        for key in list(selector.get_map().values()):
            if now - last[key.fileobj] > quiet:
                selector.unregister(key.fileobj)
    selector.close()
    return closed


def case_streams(args, flags):
    server = Server(args.binary, ["--memory-only", "--connections-per-address", "0", *flags])
    sockets = []
    try:
        status, body, _ = call(server.port, "POST", "/api/sessions")
        session = body["id"]
        root = f"/api/sessions/{session}/demos/mountains"
        call(server.port, "POST", f"{root}/actions/search", {"query": ""})
        before = server.rss()
        for _ in range(args.streams):
            sockets.append(stalled(server.port, f"{root}/events?width=1024&height=768", args.gzip))
        deadline = time.monotonic() + 30
        while (open_streams(server.port, session, "mountains") or 0) < args.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        connected = server.rss()
        highest, highest_rss, refused, started = None, 0, {}, time.monotonic()
        for change in range(args.changes):
            status, body, _ = call(server.port, "POST", f"{root}/actions/search",
                                   {"query": "everest" if change % 2 == 0 else ""})
            if status != 200:
                key = f"{status} {body.get('error') if isinstance(body, dict) else ''}"
                refused[key] = refused.get(key, 0) + 1
            state = memory(server.port)
            if state and state.get("residentBytes", 0) >= highest_rss:
                highest, highest_rss = state, state.get("residentBytes", 0)
        elapsed = time.monotonic() - started
        time.sleep(1)
        end = server.rss()
        counted = open_streams(server.port, session, "mountains")
        ports = {sock.getsockname()[1] for sock in sockets}
        queued = {}
        live = len(established(server.port, queued) & ports)
        kernel = sum(queued.get(port, 0) for port in ports)
        at_end = memory(server.port)
        closed = closed_by_server(sockets)
        alive = server.alive()
        print(f"streams: {args.streams} {'gzip' if args.gzip else 'plain'} Mountains streams that never read, "
              f"{args.changes} full-list changes in {elapsed:.1f} s; server flags: {' '.join(flags) or '(defaults)'}")
        table([
            ("limit", f"{mib(at_end['limitBytes'])} MiB" if at_end else "(no /healthz/memory)"),
            ("RSS before the streams", f"{mib(before)} MiB"),
            ("RSS with the streams open", f"{mib(connected)} MiB"),
            ("RSS peak (sampled / VmHWM)", f"{mib(server.peak)} / {mib(server.high_water())} MiB"),
            ("RSS at the end", f"{mib(end)} MiB"),
            ("changes refused", ", ".join(f"{k}: {v}" for k, v in refused.items()) or "none"),
            ("streams the server counts open", f"{counted}"),
            ("their sockets ESTABLISHED", f"{live}"),
            ("kernel send queues of those (not RSS)", f"{mib(kernel)} MiB"),
            ("closed by the server (client sees)", f"{closed}"),
            ("/healthz/memory at peak RSS", shed_text(highest)),
            ("  parts at peak", parts_text(highest)),
            ("/healthz/memory at the end", shed_text(at_end)),
            ("server alive", "yes" if alive else f"NO (exit {server.process.returncode})"),
        ])
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def identifier(session, batch, n):
    head = f"https://example.org/{session}/{batch}/{n}/"
    return head + "x" * (200 - len(head))


def case_big_lists(args, flags):
    state_dir = None
    store = []
    if "--memory-only" not in flags and "--state-dir" not in flags:
        state_dir = tempfile.mkdtemp(prefix="dw-memory-probe-")
        store = ["--state-dir", state_dir]
    server = Server(args.binary, [*store, *flags])
    pins = []
    try:
        base = server.rss()
        rows, refusal, started = [], None, time.monotonic()
        print(f"big-lists: up to {args.sessions} sessions of up to 100,000 identifiers of 200 characters, from one "
              f"client{', each with a reading stream' if args.pin else ''}; server flags: "
              f"{' '.join(store + flags) or '(defaults)'}")
        print(f"  {'session':>7} {'items':>7} {'ended by':<24} {'RSS MiB':>7} {'per session':>11} {'state':<9} "
              f"{'shed c/s/s':<12} {'refusals':>8} {'s':>5}")
        for number in range(1, args.sessions + 1):
            began = time.monotonic()
            status, body, retry = call(server.port, "POST", "/api/sessions")
            if status != 201:
                code = body.get("error") if isinstance(body, dict) else repr(body)
                refusal = f"new session {number}: {status} {code}, Retry-After {retry}"
                break
            session = body["id"]
            root = f"/api/sessions/{session}/demos/urls"
            if args.pin:
                pin = stalled(server.port, f"/api/sessions/{session}/demos/numbers/events", False)
                pin.setblocking(False)
                pins.append(pin)
            held, ended = 12, "100,000 items"
            for batch in range(20):
                for pin in pins:                      # read what the pinned streams got
                    try:
                        while pin.recv(1 << 20):
                            pass
                    except (BlockingIOError, OSError):
                        pass
                ids = [identifier(number, batch, n) for n in range(min(5000, 100_000 - held))]
                if not ids:
                    break
                status, body, retry = call(server.port, "POST", f"{root}/operations",
                                           {"operations": [{"op": "appendItems", "items": ids}]})
                if status == 200:
                    held += len(ids)
                    continue
                code = body.get("error") if isinstance(body, dict) else str(body)[:40]
                ended = f"{status} {code}"
                if status == 503:
                    refusal = f"session {number}'s append: {status} {code}, Retry-After {retry}"
                break
            rss = server.rss()
            state = memory(server.port) or {}
            shed = state.get("shed", {})
            print(f"  {number:>7} {held:>7} {ended:<24} {rss / MIB:>7.0f} {(rss - base) / number / MIB:>11.1f} "
                  f"{state.get('state', '-'):<9} "
                  f"{shed.get('caches', '-')}/{shed.get('sessions', '-')}/{shed.get('streams', '-'):<6} "
                  f"{state.get('refusals', '-'):>8} {time.monotonic() - began:>5.1f}", flush=True)
            rows.append((number, held, rss))
            if refusal or not server.alive():
                break
        end = memory(server.port)
        table([
            ("sessions made", f"{len(rows)} in {time.monotonic() - started:.0f} s"),
            ("limit", f"{mib(end['limitBytes'])} MiB" if end else "(no /healthz/memory)"),
            ("RSS at start / peak (sampled, VmHWM) / end",
             f"{mib(base)} / {mib(server.peak)}, {mib(server.high_water())} / {mib(server.rss())} MiB"),
            ("refused", refusal or "never"),
            ("/healthz/memory at the end", shed_text(end)),
            ("  parts", parts_text(end)),
            ("server alive", "yes" if server.alive() else f"NO (exit {server.process.returncode})"),
        ])
    finally:
        for pin in pins:
            pin.close()
        server.stop()
        if state_dir:
            shutil.rmtree(state_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "diffable-web"))
    parser.add_argument("--case", choices=["streams", "big-lists", "all"], default="all")
    parser.add_argument("--memory-limit", help="passed to the server (256M, 1G, bytes); default: its own")
    parser.add_argument("--streams", type=int, default=500, help="streams case: streams that never read")
    parser.add_argument("--changes", type=int, default=44, help="streams case: full-list changes")
    parser.add_argument("--gzip", action="store_true", help="streams case: streams that accept gzip")
    parser.add_argument("--sessions", type=int, default=30, help="big-lists case: at most this many sessions")
    parser.add_argument("--pin", action="store_true", help="big-lists case: a reading stream on each session")
    parser.add_argument("extra", nargs="*", help="server flags (after --)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.streams + args.sessions + 256)), hard))
    flags = list(args.extra)
    if args.memory_limit:
        flags += ["--memory-limit", args.memory_limit]
    if args.case in ("streams", "all"):
        case_streams(args, flags)
    if args.case in ("big-lists", "all"):
        case_big_lists(args, flags)


if __name__ == "__main__":
    main()
