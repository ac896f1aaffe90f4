#!/usr/bin/env python3
"""What a session costs (issue 15, finding 5): memory per session that has opened nothing, and
how fast sessions are created while the store fills and once it is full (each creation then
evicts the session idle the longest).

Starts the release server with --max-sessions N, creates N sessions over the API (keep-alive
connections, a few in parallel), reads the server's RSS, then creates N/2 more (every one evicts).
Loopback only, bounded in count. Standard library only.

    python3 Benchmarks/web/session_memory.py --binary .build/release/diffable-web [--sessions 10000]
"""
import argparse
import http.client
import re
import subprocess
import threading
import time

from keystroke_latency import rss_kib  # the same directory: the server's resident memory


def create(port, count, threads=4):
    def worker(share):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(share):
            connection.request("POST", "/api/sessions", body=b"", headers={"Content-Length": "0"})
            response = connection.getresponse()
            response.read()
            assert response.status == 201, response.status
        connection.close()
    started = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(count // threads,)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return (count // threads * threads) / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/diffable-web")
    parser.add_argument("--sessions", type=int, default=10_000)
    args = parser.parse_args()
    server = subprocess.Popen([args.binary, "--port", "0", "--log-level", "warning", "--memory-only", "--max-sessions", str(args.sessions)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        time.sleep(0.5)
        before = rss_kib(server.pid)
        filling = create(port, args.sessions)
        time.sleep(1)
        after = rss_kib(server.pid)
        full = create(port, args.sessions // 2)
        print(f"{args.sessions:,} sessions that opened nothing: RSS {before / 1024:.1f} → {after / 1024:.1f} MiB, "
              f"{(after - before) / args.sessions:.2f} KiB per session")
        print(f"creation: {filling:,.0f}/s while the store fills; {full:,.0f}/s once full (each one evicts)")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
