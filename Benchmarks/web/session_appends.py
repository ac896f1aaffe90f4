#!/usr/bin/env python3
"""Memory one client can make the server hold: appends of long identifiers, RSS before and after.

Starts the server (`--port 0`, plus any extra flags after `--`), then, for each of C sessions
(one after another), sends N `POST …/urls/operations` appends of 4,900 identifiers of 200
characters (a ~1 MB body, under the 1 MiB limit) and counts the answers by status. Prints the
server's RSS at start, after each session, and at the end, and the first refusal's JSON.
Loopback only; bounded in count.

    python3 Benchmarks/web/session_appends.py --binary .build/release/diffable-web -- --memory-only
    python3 Benchmarks/web/session_appends.py --binary … --sessions 40 -- --memory-only --memory-total 256
"""
import argparse, collections, json, subprocess, sys, time, urllib.error, urllib.request

def rss_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"): return int(line.split()[1]) / 1024
    return 0.0

def post(url, body):
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r: return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True)
    p.add_argument("--sessions", type=int, default=1)
    p.add_argument("--appends", type=int, default=20)
    p.add_argument("--ids", type=int, default=4_900)
    p.add_argument("--settle", type=float, default=0, help="seconds to wait before the last RSS reading")
    p.add_argument("extra", nargs="*")
    a = p.parse_args()
    proc = subprocess.Popen([a.binary, "--port", "0", "--log-level", "warning", *a.extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "Listening on" not in line:
        proc.kill(); sys.exit(f"server did not start: {line!r}")
    root = line.split("Listening on ", 1)[1].strip().rstrip("/")
    try:
        time.sleep(0.5)
        start, start_anon = rss_mb(proc.pid), rss_mb(proc.pid, "RssAnon")
        statuses = collections.Counter()
        first_refusal = None
        t0 = time.monotonic()
        for s in range(a.sessions):
            status, body = post(root + "/api/sessions", b"")
            if status != 201:
                statuses[f"new session {status}"] += 1
                first_refusal = first_refusal or body.decode(errors="replace")[:300]
                continue
            sid = json.loads(body)["id"]
            url = f"{root}/api/sessions/{sid}/demos/urls/operations"
            for n in range(a.appends):
                ids = []
                for i in range(a.ids):
                    head = f"https://example.org/{s}/{n}/{i}/"
                    ids.append(head + "x" * (200 - len(head)))
                op = {"operations": [{"op": "appendItems", "items": ids}]}
                status, body = post(url, json.dumps(op, separators=(",", ":")).encode())
                statuses[status] += 1
                if status != 200 and first_refusal is None: first_refusal = body.decode(errors="replace")[:300]
            print(f"  after session {s + 1}: RSS {rss_mb(proc.pid):.0f} MB", flush=True)
        time.sleep(a.settle)
        end = rss_mb(proc.pid)
        anon, file = rss_mb(proc.pid, "RssAnon"), rss_mb(proc.pid, "RssFile")
        print(f"flags {' '.join(a.extra) or '(defaults)'}: {a.sessions} session(s) x {a.appends} appends of {a.ids} ids "
              f"of 200 characters in {time.monotonic() - t0:.1f} s: answers {dict(statuses)}; "
              f"RSS {start:.0f} -> {end:.0f} MB (+{end - start:.0f} MB, +{(end - start) / max(1, a.sessions):.1f} MB a session; "
              f"anonymous {start_anon:.0f} -> {anon:.0f} MB, files {file:.0f} MB at the end)")
        if first_refusal: print(f"first refusal: {first_refusal}")
    finally:
        proc.terminate(); proc.wait(timeout=30)

if __name__ == "__main__":
    main()
