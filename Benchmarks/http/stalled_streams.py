#!/usr/bin/env python3
"""Memory with event-stream clients that never read: the server's peak RSS.

Starts the server (`--port 0`, plus any extra flags), creates one session, opens N event
streams on its Mountains list that never read a byte, then for S seconds alternates searches
through the JSON API (each one a changeset sent to every stream) and samples the server's
resident memory. Loopback only; bounded in time and count.

    python3 Benchmarks/http/stalled_streams.py --binary .build/debug/diffable-web
    python3 Benchmarks/http/stalled_streams.py --binary … -- --stream-buffer-total 0      # no budget
"""
import argparse, json, resource, socket, subprocess, sys, threading, time, urllib.request

def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
    return 0.0

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True)
    p.add_argument("--streams", type=int, default=500)
    p.add_argument("--seconds", type=float, default=12)
    p.add_argument("--gzip", action="store_true", help="streams that accept gzip (as browsers do)")
    p.add_argument("extra", nargs="*")
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, a.streams + 256)), hard))
    proc = subprocess.Popen([a.binary, "--port", "0", "--log-level", "warning", "--connections-per-address", "0", *a.extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "Listening on" not in line:
        proc.kill(); sys.exit(f"server did not start: {line!r}")
    root = line.split("Listening on ", 1)[1].strip().rstrip("/")
    port = int(root.rsplit(":", 1)[1])
    socks = []
    try:
        req = urllib.request.Request(root + "/api/sessions", method="POST", data=b"")
        sid = json.load(urllib.request.urlopen(req, timeout=10))["id"]
        base = f"/api/sessions/{sid}/demos/mountains"
        accept = "Accept-Encoding: gzip\r\n" if a.gzip else ""
        for _ in range(a.streams):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(f"GET {base}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{accept}\r\n".encode())
            socks.append(s)          # never read
        time.sleep(1)
        start_rss = peak = rss_mb(proc.pid)
        queries = ["a", "", "e", "", "o", ""]
        t0 = time.monotonic(); n = 0
        while time.monotonic() - t0 < a.seconds:
            body = json.dumps({"query": queries[n % len(queries)]}).encode()
            r = urllib.request.Request(root + base + "/actions/search", data=body, method="POST",
                                       headers={"Content-Type": "application/json"})
            try: urllib.request.urlopen(r, timeout=10).read()
            except OSError: pass
            n += 1
            peak = max(peak, rss_mb(proc.pid))
        time.sleep(1)
        peak = max(peak, rss_mb(proc.pid))
        alive = sum(1 for s in socks if s.fileno() >= 0)
        print(f"flags {' '.join(a.extra) or '(defaults)'}: {a.streams} non-reading {'gzip' if a.gzip else 'plain'} streams, {n} searches in {a.seconds:.0f} s: "
              f"RSS {start_rss:.0f} MB after connecting, peak {peak:.0f} MB, end {rss_mb(proc.pid):.0f} MB")
    finally:
        for s in socks: s.close()
        proc.terminate(); proc.wait(timeout=30)

if __name__ == "__main__":
    main()
