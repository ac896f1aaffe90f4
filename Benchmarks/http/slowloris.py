#!/usr/bin/env python3
"""Slowloris outage: how long /healthz stops answering while N connections trickle request heads.

Starts the server (`--port 0 --connection-limit L`, plus any extra flags), keeps N connections
from 127.0.0.1 that each send a partial request head and one more byte every few seconds
(reopening any the server closes), and probes GET /healthz from 127.0.0.2 every 0.5 s with a
2-s time-out. Prints the seconds /healthz failed. Loopback only; bounded in time and count.

    python3 Benchmarks/http/slowloris.py --binary .build/debug/diffable-web                  # defaults
    python3 Benchmarks/http/slowloris.py --binary … -- --request-deadline 0 --connections-per-address 0
"""
import argparse, errno, resource, socket, subprocess, sys, threading, time

def start(binary, limit, extra):
    proc = subprocess.Popen([binary, "--port", "0", "--connection-limit", str(limit), "--log-level", "warning", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "Listening on" not in line:
        proc.kill(); sys.exit(f"server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1].strip(" /\n"))

def trickle(port, count, stop, stats):
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "
    def opened():
        s = socket.socket(); s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        return [s, 0]
    conns = []
    while not stop.is_set() and len(conns) < count:
        conns.append(opened())
        if len(conns) % 200 == 0: time.sleep(0.05)
    while not stop.is_set():
        for c in conns:
            s = c[0]
            try:
                if c[1] == 0:
                    s.send(head); c[1] = 1
                else:
                    s.send(b"a")
            except (BlockingIOError, InterruptedError):
                pass            # still connecting, or buffer full
            except OSError:
                s.close(); stats["reopened"] += 1
                c[:] = opened()
        stop.wait(2.0)
    for c in conns: c[0].close()

def probe(port):
    try:
        s = socket.socket(); s.settimeout(2); s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = s.recv(64); s.close()
        return data.startswith(b"HTTP/1.1 200")
    except OSError:
        return False

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True)
    p.add_argument("--connections", type=int, default=2000)
    p.add_argument("--connection-limit", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=40)
    p.add_argument("extra", nargs="*", help="extra server flags (after --)")
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, a.connections + 256)), hard))
    proc, port = start(a.binary, a.connection_limit, a.extra)
    stop, stats = threading.Event(), {"reopened": 0}
    try:
        assert probe(port), "healthz fails before the attack"
        attacker = threading.Thread(target=trickle, args=(port, a.connections, stop, stats)); attacker.start()
        t0 = time.monotonic(); failed = 0.0; longest = 0.0; run = 0.0; probes = 0
        while time.monotonic() - t0 < a.seconds:
            began = time.monotonic(); ok = probe(port); probes += 1
            time.sleep(max(0, 0.5 - (time.monotonic() - began)))
            spent = time.monotonic() - began
            if ok: run = 0.0
            else: failed += spent; run += spent; longest = max(longest, run)
        stop.set(); attacker.join()
        print(f"flags {' '.join(a.extra) or '(defaults)'}: {a.connections} trickling connections, limit {a.connection_limit}, "
              f"{a.seconds:.0f} s: /healthz failed {failed:.1f} s (longest outage {longest:.1f} s), "
              f"{probes} probes, {stats['reopened']} attack connections closed by the server and reopened")
    finally:
        stop.set(); proc.terminate(); proc.wait(timeout=30)

if __name__ == "__main__":
    main()
