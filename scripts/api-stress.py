#!/usr/bin/env python3
"""A bounded stress run of the write endpoints with extreme integers and lengths.

Against a running server (--base http://127.0.0.1:PORT), for a fixed number of rounds and at
most --seconds: random operation batches, snapshot PUTs and demo actions whose numbers are
extreme (±2⁶³, 2⁵³, -1, 0, floats, exponents, huge digit strings) and whose strings are
extreme (empty, 200/201 characters, 100 KB, non-ASCII, `n…` ids at the edges of the range).
Every answer must be a documented status with a JSON error body for 4xx, no answer may be 5xx,
the server must stay up (/healthz), and a refused write must leave the snapshot exactly as it
was (its version and items read before and after).

Standard library only; loopback only. Exit status 0 when every check held.
"""
import argparse
import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.request

EXTREME_INTS = [0, -1, 1, 2**31 - 1, 2**31, 2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), 2**64, 10**30]
EXTREME_NUMBERS = EXTREME_INTS + [0.5, -0.0, 1e308, -1e308, 1e-308, 3.0, 10000.0000001]
N_IDS = ["n1", "n5", "n0", "n007", "n+7", "n-3", "n", "n9007199254740990", "n9007199254740991", "n9007199254740992",
         "n9223372036854775807", "n9223372036854775808", "n" + "9" * 40, "n٣", "n 1", "N1"]
DOCUMENTED = {200, 201, 400, 403, 404, 405, 409, 413, 415, 422}


def strings(rng):
    choice = rng.randrange(8)
    if choice == 0:
        return ""
    if choice == 1:
        return "s" * rng.choice([199, 200, 201, 1000])
    if choice == 2:
        return "é" * rng.choice([200, 201])
    if choice == 3:
        return "x" * 100_000
    if choice == 4:
        return "\u202e<script>\"'\u0000\ud7ff"
    return rng.choice(N_IDS)


def value(rng):
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(EXTREME_NUMBERS)
    if kind == 1:
        return str(rng.choice(EXTREME_INTS))
    if kind == 2:
        return None
    if kind == 3:
        return [strings(rng) for _ in range(rng.choice([0, 1, 3]))]
    return strings(rng)


def ids(rng):
    if rng.random() < 0.1:
        return [rng.choice(N_IDS) for _ in range(rng.choice([20_001, 5_000]))]
    return [rng.choice(N_IDS) if rng.random() < 0.8 else value(rng) for _ in range(rng.randrange(0, 6))]


OPS = ["appendSections", "insertSections", "deleteSections", "moveSection", "appendItems", "insertItems",
       "deleteItems", "deleteAllItems", "moveItem", "reloadItems", "reconfigureItems", "reloadSections", "bogus"]


def operation(rng):
    op = {"op": rng.choice(OPS)}
    for key in rng.sample(["items", "sections", "item", "section", "beforeItem", "afterItem", "beforeSection", "afterSection"],
                          rng.randrange(0, 4)):
        op[key] = ids(rng) if key in ("items", "sections") else strings(rng) if rng.random() < 0.8 else value(rng)
    return op


def request(base, method, path, body=None, timeout=15):
    """One request; a connection closed without a response is reported as status 0."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except (ConnectionError, http.client.HTTPException, urllib.error.URLError) as error:
        return 0, f"{type(error).__name__}: {error} ({method} {path.split('?')[0]}, {len(data or b'')} bytes)".encode()


TRANSPORT = []


def reliable(base, method, path, body=None):
    """A request, sent again once if the connection closed without any response. Each such
    close is recorded and printed; a second close in a row fails the run. Cause, measured: with
    libmicrohttpd's per-address cap on (the default 256), about one connection in 40,000 of this
    connection-per-request churn is refused at accept although far fewer are open (0 in 30 runs
    with --connections-per-address 0, 2 in 30 with 256): its per-address count lags behind
    closed connections. Replacing that cap with one counted in our own registry is left open."""
    status, answer = request(base, method, path, body)
    if status == 0:
        TRANSPORT.append(answer.decode(errors="replace"))
        status, answer = request(base, method, path, body)
    return status, answer


def snapshot(base, share, demo):
    status, body = reliable(base, "GET", f"/api/sessions/{share}/demos/{demo}/snapshot")
    assert status == 200, f"snapshot read answered {status}: {body[:300]!r}"
    parsed = json.loads(body)
    return parsed["version"], [[item["id"] for item in section["items"]] for section in parsed["sections"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", default="random", help="a number, or random (the time)")
    args = parser.parse_args()
    assert args.base.startswith("http://127.") or args.base.startswith("http://[::1]"), "loopback only"
    args.seed = int(time.time()) if args.seed == "random" else int(args.seed)
    rng = random.Random(args.seed)
    print(f"api-stress: seed {args.seed} (API_STRESS_SEED={args.seed} scripts/api-contract replays it)", flush=True)
    status, body = request(args.base, "POST", "/api/sessions")
    share = json.loads(body)["id"]
    failures, counts = [], {}
    deadline = time.monotonic() + args.seconds
    rounds = 0
    while rounds < args.rounds and time.monotonic() < deadline:
        rounds += 1
        demo = rng.choice(["numbers", "numbers", "mountains"])
        kind = rng.randrange(4)
        before = snapshot(args.base, share, demo)
        if kind == 0:
            body = {"operations": [operation(rng) for _ in range(rng.choice([0, 1, 2, 5]))]}
            if rng.random() < 0.3:
                body["ifVersion"] = rng.choice(EXTREME_NUMBERS + [before[0]])
            method, path = "POST", f"/api/sessions/{share}/demos/{demo}/operations"
        elif kind == 1:
            body = {"sections": [{"id": strings(rng), "items": ids(rng)} for _ in range(rng.choice([0, 1, 2]))]}
            if rng.random() < 0.3:
                body["ifVersion"] = rng.choice(EXTREME_NUMBERS)
            method, path = "PUT", f"/api/sessions/{share}/demos/{demo}/snapshot"
        elif kind == 2:
            action = rng.choice(["append", "removeLast", "removeCenter", "move", "search"])
            body = {key: value(rng) for key in rng.sample(["count", "from", "to", "query", "seq"], rng.randrange(0, 3))}
            method, path = "POST", f"/api/sessions/{share}/demos/{demo}/actions/{action}"
        else:
            width, height = rng.choice(EXTREME_NUMBERS), rng.choice(EXTREME_NUMBERS + [844])
            method, path, body = "GET", f"/api/sessions/{share}/demos/{demo}/layout?width={width}&height={height}", None
        if body is not None and len(json.dumps(body)) > 1_000_000:
            # Over the 1 MiB body limit the server refuses before reading (413 and a close, which
            # a client still sending sees as a broken pipe): covered by the MicroHTTP tests.
            body = {"operations": []} if kind == 0 else {"sections": []}
        status, answer = reliable(args.base, method, path, body)
        counts[status] = counts.get(status, 0) + 1
        where = f"round {rounds}: {method} {path.split('?')[0].rsplit('/', 1)[-1]} → {status}"
        if status >= 500 or status not in DOCUMENTED:
            failures.append(f"{where}: {answer[:200]!r}")
        elif status >= 400:
            try:
                error = json.loads(answer)
                assert isinstance(error.get("error"), str) and isinstance(error.get("message"), str)
            except Exception:
                failures.append(f"{where}: not a JSON error: {answer[:200]!r}")
            if method != "GET" and snapshot(args.base, share, demo) != before:
                failures.append(f"{where}: a refused write changed the snapshot")
        if rounds % 50 == 0:
            health, _ = request(args.base, "GET", "/healthz")
            if health != 200:
                failures.append(f"round {rounds}: /healthz answered {health}")
                break
    health, _ = request(args.base, "GET", "/healthz")
    if health != 200:
        failures.append(f"the server is down after {rounds} rounds")
    summary = ", ".join(f"{status}×{count}" for status, count in sorted(counts.items()))
    print(f"api-stress: {rounds} rounds (seed {args.seed}): {summary}")
    for close in TRANSPORT:
        print(f"  note: a connection closed without a response, then the request succeeded when sent again: {close}")
    for failure in failures[:20]:
        print("  FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
