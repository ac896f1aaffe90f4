#!/usr/bin/env python3
"""The default SQLite store against memory only, side by side in one run (issue 21's targets).

Runs `keystroke_latency.py` (one session typing 600 keystrokes; 1,000 sessions paced at 3
keystrokes/s) and `api_load.py` (`POST …/operations` at 1,000 and 10,000 items) for each binary
given, memory only and with a fresh SQLite store, alternating, and prints one table with the
figures and the SQLite ÷ memory ratios. Release builds; everything on 127.0.0.1.

    python3 Benchmarks/web/store_ratio.py --binary before=/path/a --binary after=.build/release/diffable-web

Targets (issue 21): SQLite ≤ 1.3× memory server CPU per keystroke (one session, and 1,000 paced);
paced p99 ≤ 1.5× memory's; operations rate ≥ 0.8× memory's at both sizes.
"""
import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def number(text):
    return float(text.replace(",", ""))


def keystrokes(binary, store, paced_seconds):
    command = [sys.executable, str(HERE / "keystroke_latency.py"), "--binary", binary, "--memory", "0", "--capacity", "3",
               "--paced", "1000", "--paced-seconds", str(paced_seconds)] + (["--store"] if store else [])
    out = subprocess.run(command, capture_output=True, text=True, timeout=900).stdout
    figures = {}
    if m := re.search(r"^\| 1 \| [\d,]+ \| ([\d.]+) \| ([\d.]+) \|", out, re.M):
        figures["1 session: p99 ms"] = number(m.group(2))
    if m := re.search(r"server CPU ([\d.]+) ms per keystroke", out):
        figures["1 session: server CPU ms/keystroke"] = number(m.group(1))
    if m := re.search(r"^\| 3 \| 3,000 \| ([\d,]+) \| [\d,]+ \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|", out, re.M):
        figures["1,000 paced at 3/s: achieved /s"] = number(m.group(1))
        figures["1,000 paced at 3/s: errors"] = number(m.group(2))
        figures["1,000 paced at 3/s: p99 ms"] = number(m.group(4))
        figures["1,000 paced at 3/s: server CPU ms/keystroke"] = number(m.group(6))
    if not figures:
        print(out, file=sys.stderr)
    return figures


def operations(binary, store, seconds):
    command = [sys.executable, str(HERE / "api_load.py"), "--binary", binary, "--seconds", str(seconds), "--samples", "50"] \
        + (["--store"] if store else [])
    out = subprocess.run(command, capture_output=True, text=True, timeout=900).stdout
    figures = {}
    for m in re.finditer(r"^\| `POST …/operations` \(move 1 item\), ([\d,]+) items \| ([\d,]+) \| ([\d.]+) \| ([\d.]+) \| (\d+) \| ([\d,]+) \|",
                         out, re.M):
        size = m.group(1)
        figures[f"operations, {size} items: requests/s"] = number(m.group(2))
        figures[f"operations, {size} items: p99 ms"] = number(m.group(4))
        figures[f"operations, {size} items: server CPU µs/request"] = number(m.group(6))
    if not figures:
        print(out, file=sys.stderr)
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", required=True, help="name=path (repeat to compare builds)")
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds; medians are reported")
    parser.add_argument("--paced-seconds", type=float, default=15)
    parser.add_argument("--wrk-seconds", type=int, default=5)
    args = parser.parse_args()
    binaries = [tuple(b.split("=", 1)) for b in args.binary]
    results = {}  # (name, store) -> {figure: [values]}
    for round in range(args.rounds):
        for name, path in binaries:
            for store in (False, True):
                label = f"{name}, {'SQLite' if store else 'memory'}"
                print(f"round {round + 1}: {label}", file=sys.stderr, flush=True)
                figures = keystrokes(path, store, args.paced_seconds) | operations(path, store, args.wrk_seconds)
                for key, value in figures.items():
                    results.setdefault((name, store), {}).setdefault(key, []).append(value)
    keys = []
    for figures in results.values():
        keys += [k for k in figures if k not in keys]
    header = "| figure |" + "".join(f" {name}: memory | {name}: SQLite | {name}: SQLite ÷ memory |" for name, _ in binaries)
    print(header)
    print("|---|" + "---:|---:|---:|" * len(binaries))
    for key in keys:
        row = f"| {key} |"
        for name, _ in binaries:
            memory = results.get((name, False), {}).get(key)
            sqlite = results.get((name, True), {}).get(key)
            m = statistics.median(memory) if memory else None
            s = statistics.median(sqlite) if sqlite else None
            ratio = f"{s / m:.2f}×" if m and s is not None else "–"
            row += f" {m:,.2f} |" if m is not None else " – |"
            row += f" {s:,.2f} |" if s is not None else " – |"
            row += f" {ratio} |"
        print(row)


if __name__ == "__main__":
    main()
