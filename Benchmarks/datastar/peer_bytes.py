#!/usr/bin/env python3
"""The peer's bytes per keystroke without running it: how they move with its choices.

Builds the peer's events exactly as server.py does (its Catalog, datastar-py's patch_elements)
for compare.py's keystroke sequences and compresses them as Starlette's GZipMiddleware does
(zlib, gzip wrapper, one context per response, `Z_SYNC_FLUSH` after every event), for gzip levels
9 (Starlette's default), 6 and 1, the list's HTML on one line (server.py) or one `<li>` per line
(as a template with a loop would write it: datastar-py then prefixes every line with
`data: elements `), on the long-lived stream or as one `@get` answer per keystroke. At level 9 on
one line it gives the same bytes compare.py reads from the running peer.

    .build-bench/datastar-venv/bin/python Benchmarks/datastar/peer_bytes.py
"""
import os, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from datastar_py import ServerSentEventGenerator as SSE  # noqa: E402
from compare import keystrokes  # noqa: E402
from server import DEFAULT_DATA, Catalog  # noqa: E402


def bytes_per_keystroke(catalog, keys, level, lines, stream):
    """(first event plain, on the wire), mean plain, mean on the wire (gzip)."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    first, plain, wire = None, 0, 0
    for seq, query in enumerate([None, *keys]):
        html = catalog.render(query or "")
        if lines:
            html = html.replace("<li", "\n<li").replace("</ul>", "\n</ul>")
        event = SSE.patch_elements(html, event_id=str(seq) if seq else None).encode()
        if not stream:
            compressor = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        size = len(compressor.compress(event) + compressor.flush(zlib.Z_SYNC_FLUSH))
        if not stream:
            size += len(compressor.flush())
        if seq == 0:
            first = (len(event), size)
        else:
            plain += len(event)
            wire += size
    return first, plain / len(keys), wire / len(keys)


def main():
    catalog = Catalog(DEFAULT_DATA)
    print("| sequence | gzip level | HTML | transport | first event plain → gzip | mean plain | mean gzip |")
    print("|---|---:|---|---|---:|---:|---:|")
    for sequence, cycles in (("names", 4), ("prefixes", 18)):
        keys = keystrokes(cycles, sequence)
        for level in (9, 6, 1):
            for lines in (False, True):
                for stream in (True, False):
                    (first_plain, first_wire), plain, wire = bytes_per_keystroke(catalog, keys, level, lines, stream)
                    print(f"| {sequence} | {level} | {'a line per item' if lines else 'one line'} | "
                          f"{'stream + POST' if stream else '@get'} | {first_plain:,} → {first_wire:,} | {plain:,.0f} | {wire:,.0f} |")


if __name__ == "__main__":
    main()
