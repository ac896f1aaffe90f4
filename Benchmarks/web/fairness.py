#!/usr/bin/env python3
"""Fairness between sessions (issue 22, finding 3): a second session's keystroke latency while
a first session runs heavy loops.

Starts the release server (SQLite store in a fresh directory, as `make run`), fills session A's
Numbers list to 100,000 items over the API, then for each loop count L (default 0, 4, 16) runs
L clients, each a separate process, that ask again and again for A's whole layout
(`GET /api/sessions/A/demos/numbers/layout?width=390&height=844`, a ~10 MB answer read in full;
a 429 is retried after its Retry-After). Meanwhile session B, with its Mountains event stream
open, types: a search POST every 50 ms, each timed from sending to its answer (the answer comes
after the change is saved and its event built). Prints B's p50/p99/max per L, and A's layouts
answered and refused. Standard library only; loopback only; bounded in count and time.

    swift build -c release --product diffable-web
    python3 Benchmarks/web/fairness.py --binary .build/release/diffable-web
    python3 Benchmarks/web/fairness.py --server-args "--heavy-read-items 1000000"   # as before: inline
"""
import argparse, http.client, json, multiprocessing, re, socket, statistics, subprocess, tempfile, threading, time

WORDS = ["k", "ka", "kan", "kang", "kan", "ka", "k", "", "m", "mo", "mon", "mont", "monte", "mont", "mon", "mo", "m",
         "", "b", "be", "ben", "ben ", "ben m", "ben", "be", "b", ""]


def request(port, method, path, body=None, headers=None, timeout=600):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = json.dumps(body).encode() if body is not None else None
    head = {"Content-Type": "application/json"} if data is not None else {}
    head.update(headers or {})
    connection.request(method, path, body=data, headers=head)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, payload, response


def fill(port, share, items):
    """Appends numbers to A's list until it holds `items`."""
    while True:
        status, payload, _ = request(port, "GET", f"/api/sessions/{share}")
        count = next(d["itemCount"] for d in json.loads(payload)["demos"] if d["name"] == "numbers")
        if count >= items:
            return count
        status, payload, _ = request(port, "POST", f"/api/sessions/{share}/demos/numbers/actions/append",
                                     {"count": min(10_000, items - count)})
        assert status == 200, (status, payload[:200])


def heavy_loop(port, path, stop, answered, refused):
    """One client asking for the layout again and again (run in its own process)."""
    while not stop.is_set():
        try:
            status, _, response = request(port, "GET", path)
        except OSError:
            continue
        if status == 200:
            with answered.get_lock():
                answered.value += 1
        else:
            with refused.get_lock():
                refused.value += 1
            time.sleep(float(response.getheader("Retry-After") or 1))


class Typist:
    """Session B: a page visit (its cookie), its Mountains stream open, then search POSTs."""

    def __init__(self, port):
        self.port = port
        status, _, response = request(port, "GET", "/demos/mountains")
        cookie = response.getheader("Set-Cookie")
        self.cookie = cookie.split(";", 1)[0]
        self.stream = socket.create_connection(("127.0.0.1", port))
        self.stream.sendall(f"GET /demos/mountains/events?width=1024&height=768 HTTP/1.1\r\nHost: x\r\nCookie: {self.cookie}\r\n\r\n".encode())
        threading.Thread(target=self.drain, daemon=True).start()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def drain(self):
        try:
            while self.stream.recv(1 << 16):
                pass
        except OSError:
            pass

    def keystroke(self, word):
        started = time.perf_counter()
        self.connection.request("POST", "/demos/mountains/actions/search", body=json.dumps({"query": word}).encode(),
                                headers={"Content-Type": "application/json", "Cookie": self.cookie})
        response = self.connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        return time.perf_counter() - started


def run(port, share, typist, loops, keystrokes, seconds):
    stop = multiprocessing.Event()
    answered, refused = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
    path = f"/api/sessions/{share}/demos/numbers/layout?width=390&height=844"
    workers = [multiprocessing.Process(target=heavy_loop, args=(port, path, stop, answered, refused)) for _ in range(loops)]
    for worker in workers:
        worker.start()
    time.sleep(2 if loops else 0.2)  # the loops' first requests are in the server
    samples, deadline = [], time.perf_counter() + seconds
    for i in range(keystrokes):
        samples.append(typist.keystroke(WORDS[i % len(WORDS)]))
        if time.perf_counter() > deadline:
            break
        time.sleep(0.05)
    stop.set()
    for worker in workers:
        worker.join(120)
        if worker.is_alive():
            worker.terminate()
    samples.sort()
    p = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))] * 1000
    print(f"{loops:>2} heavy loops: B's keystroke p50 {p(0.5):8.2f} ms  p99 {p(0.99):8.2f} ms  max {samples[-1] * 1000:8.2f} ms"
          f"  ({len(samples)} keystrokes; A's layouts: {answered.value} answered, {refused.value} refused 429)", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/diffable-web")
    parser.add_argument("--loops", default="0,4,16", help="heavy loop counts to run, in order")
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--keystrokes", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60, help="at most this long typing per loop count")
    parser.add_argument("--server-args", default="", help="more flags for the server, e.g. '--heavy-read-items 1000000' (heavy reads inline, as before issue 22)")
    args = parser.parse_args()
    state = tempfile.TemporaryDirectory()
    server = subprocess.Popen([args.binary, "--port", "0", "--log-level", "warning", "--state-dir", state.name,
                               "--connections-per-address", "0", *args.server_args.split()], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        status, payload, _ = request(port, "POST", "/api/sessions")
        share = json.loads(payload)["id"]
        print(f"session A's Numbers list: {fill(port, share, args.items):,} items", flush=True)
        typist = Typist(port)
        time.sleep(3)  # the store settles after saving the big list (its first keystrokes are not the baseline's)
        for loops in (int(n) for n in args.loops.split(",")):
            run(port, share, typist, loops, args.keystrokes, args.seconds)
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
