#!/usr/bin/env python3
"""What self-sizing costs a keystroke (issue 23): one session types into Mountains (10,000 by
default) with nothing measured, then with every row measured at its width (as after a person
scrolled the whole list: each row's size known to the server, none equal to the estimate), in
the same server, alternating. Reports keystroke -> event latency (median, p99) and the server's
CPU per keystroke. Standard library only (uvloop when installed); loopback.

    python3 Benchmarks/web/self_sizing.py --binary .build/release/diffable-web
"""
import argparse, asyncio, json, os, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(__file__))
import keystroke_latency as kl  # noqa: E402


async def measure(port, cookie, width, height, fraction):
    """Opens a plain stream of the session at `width`, reads its snapshot (every id), and sends
    a size for `fraction` of the items, evenly spread: 46 or 64 px tall (a name on two or three
    lines; a browser sends only sizes that differ from the estimate)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /demos/mountains/events?width={width}&height={height} HTTP/1.1\r\nHost: x\r\n"
                 f"Cookie: dw_session={cookie}\r\n\r\n".encode())
    await writer.drain()
    while (line := await reader.readline()) not in (b"\r\n", b""):
        pass
    buffer = bytearray()
    while b"event: snapshot" not in buffer or buffer.find(b"\n\n", buffer.find(b"event: snapshot")) < 0:
        size = int((await reader.readline()).strip() or b"0", 16)
        buffer += await reader.readexactly(size)
        await reader.readexactly(2)
    start = buffer.find(b"event: snapshot")
    block = bytes(buffer[start:buffer.find(b"\n\n", start)]).decode()
    # SSE: the data lines joined by newlines (the server splits the JSON between tokens).
    data = json.loads("\n".join(line[5:].removeprefix(" ") for line in block.split("\n") if line.startswith("data:")))
    ids = [item for section in data["sections"] for item in section["items"]]
    step = max(1, round(1 / fraction))
    ids = ids[::step]
    column = data["cells"][0]["frame"]["w"]
    post_reader, post_writer = await asyncio.open_connection("127.0.0.1", port)
    for start in range(0, len(ids), 1000):
        sizes = {id: {"w": column, "h": 46 if i % 3 else 64} for i, id in enumerate(ids[start:start + 1000], start)}
        body = json.dumps({"stream": data["stream"], "sizes": sizes}).encode()
        post_writer.write(b"POST /demos/mountains/measure HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          + f"Cookie: dw_session={cookie}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        await post_writer.drain()
        head = await post_reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 204"):
            raise RuntimeError(f"measure answered {head[:80]!r}")
    post_writer.close()
    writer.close()
    return len(ids)


async def one_session(port, keystrokes, fraction):
    session = kl.Session(port)
    await session.start()
    if fraction:
        await measure(port, session.cookie, 1024, 768, fraction)
        await asyncio.sleep(0.5)  # the typing stream's window events
    await session.connect_for_posts()
    cpu = kl.cpu_seconds(kl.SERVER_PID)
    latencies = [(await session.keystroke(kl.WORDS[i % len(kl.WORDS)], i + 1))[0] for i in range(keystrokes)]
    cpu = kl.cpu_seconds(kl.SERVER_PID) - cpu
    session.close()
    return latencies, cpu / keystrokes * 1000


def main():
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/diffable-web")
    parser.add_argument("--mountains", type=int, default=10_000)
    parser.add_argument("--keystrokes", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fractions", default="0,0.01,0.1,1",
                        help="the fractions of rows measured, comma-separated (e.g. 1 alone, to profile)")
    args = parser.parse_args()
    port = kl.free_port()
    server = subprocess.Popen([args.binary, "--port", str(port), "--mountains", str(args.mountains), "--log-level", "warning",
                               "--memory-only", "--connections-per-address", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    kl.SERVER_PID = server.pid
    try:
        server.stdout.readline()
        fractions = tuple(float(f) for f in args.fractions.split(","))
        results = {fraction: [] for fraction in fractions}
        for _ in range(args.rounds):
            for fraction in fractions:
                results[fraction].append(asyncio.run(one_session(port, args.keystrokes, fraction)))
        print(f"\n## Self-sizing and a keystroke (release, {args.mountains:,} mountains, 1 session, 1024 px, "
              f"{args.rounds} rounds of {args.keystrokes} keystrokes, alternating; medians over rounds)\n")
        print("| rows measured | median ms | p99 ms | server CPU per keystroke ms |")
        print("|---|---:|---:|---:|")
        for fraction, rounds in results.items():
            print(f"| {f'{fraction:.0%} ({round(args.mountains * fraction):,}), 46 or 64 px' if fraction else 'none (estimates)'} | "
                  f"{statistics.median(statistics.median(l) for l, _ in rounds):.2f} | "
                  f"{statistics.median(kl.percentile(l, 99) for l, _ in rounds):.2f} | "
                  f"{statistics.median(c for _, c in rounds):.3f} |")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
