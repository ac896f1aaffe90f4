#!/usr/bin/env python3
"""The Datastar peer of the Mountains search (issue 22): the same search, done the Datastar way.

Every keystroke re-renders the result list as HTML and sends it whole as one
`datastar-patch-elements` SSE event (datastar-py's `ServerSentEventGenerator.patch_elements`),
which the browser morphs into the page. Starlette app, served by uvicorn with uvloop and
httptools, one process. Same data as DiffableWeb (its mountains.csv), same search (the
lowercased name contains the lowercased query, sorted by name, query cut at 200 characters),
same cell markup (templates/cells/mountain.mustache: name, then the height as "8,848 m") and the
same status line.

Two transports, both Datastar idioms, so a client can measure either:
- `GET /updates` (the page's `data-init="@get('/updates')"`): one long-lived SSE stream per
  session; it opens with the current result list, then carries one event per keystroke.
  `POST /search` (`data-on:input="@post('/search')"`, signals as the JSON body: `query`, and
  `seq`, which becomes the event's `id:`) answers 204 and sends the new list on the stream.
- `GET /search?datastar={...}` (`@get('/search')`, the docs' "active search"): the answer is its
  own short SSE response holding the one event.

gzip: Starlette's own GZipMiddleware (compresslevel 9, its default). It excludes
`text/event-stream` by default; here that exclusion is lifted, so each SSE response that asked
for gzip gets one deflate context for its whole life and a `Z_SYNC_FLUSH` after every body
message, that is after every event (StreamingResponse sends each yielded event as one body
message). On the long-lived stream an event is therefore compressed against the stream's last
32 KiB (deflate's window); a per-keystroke `@get` response starts a fresh context each time.

    python server.py --port 8001 [--data path/to/mountains.csv] [--gzip-level 9] [--no-gzip]

Only 127.0.0.1.
"""
import argparse
import asyncio
import csv
import html
import json
import os
import secrets

from datastar_py import ServerSentEventGenerator as SSE
from datastar_py.starlette import DatastarResponse, read_signals
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.join(HERE, "..", "..", "Sources", "DiffableWebDemos", "Resources", "mountains.csv")
COOKIE = "sid"


class Catalog:
    """The mountains sorted by name once, each with its lowercased name and its cell's HTML
    rendered once (DiffableWeb also renders each mountain's cell once and shares it)."""

    def __init__(self, path):
        with open(path, newline="", encoding="utf-8") as f:
            rows = [(r["id"], r["name"], int(r["height_m"])) for r in csv.DictReader(f)]
        # Sorted by name; ties keep the data set's order (Python's sort is stable).
        rows.sort(key=lambda r: r[1])
        self.count = len(rows)
        self.names = [name.lower() for _, name, _ in rows]
        self.cells = [f'<li id="{mid}"><span class="name">{html.escape(name, quote=False)}</span>'
                      f'<span class="height">{height:,} m</span></li>' for mid, name, height in rows]

    def render(self, query):
        """The result list as the fragment a keystroke patches in (its top element's id is the
        patch's target: Datastar's default "outer" morph by id)."""
        needle = query.lower()
        cells = self.cells if not needle else [c for n, c in zip(self.names, self.cells) if needle in n]
        count = len(cells)
        if not query:
            status = f"{count:,} mountains"
        elif count == 0:
            status = f"No mountains match “{html.escape(query, quote=False)}”"
        elif count == 1:
            status = f"1 mountain matches “{html.escape(query, quote=False)}”"
        else:
            status = f"{count:,} mountains match “{html.escape(query, quote=False)}”"
        # One line: datastar-py prefixes every line of the HTML with "data: elements ", so this
        # is the smallest event the SDK produces for the list.
        return (f'<div id="results"><p id="status" role="status">{status}</p>'
                f'<ul id="list">{"".join(cells)}</ul></div>')


class Session:
    def __init__(self):
        self.query = ""
        self.queue = asyncio.Queue()


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mountains · Datastar peer</title>
<script type="module" src="{script}"></script></head>
<body data-signals="{{query: '', seq: 0}}" data-init="@get('/updates')">
<input type="search" placeholder="Search mountains" data-bind:query
       data-on:input="$seq++; @post('/search')" autocomplete="off">
{results}
</body></html>"""


def make_app(catalog, gzip_level, script):
    sessions = {}

    def session_of(request):
        return sessions.get(request.cookies.get(COOKIE, ""))

    async def page(request):
        sid = request.cookies.get(COOKIE)
        if sid not in sessions:
            sid = secrets.token_urlsafe(16)
            sessions[sid] = Session()
        response = HTMLResponse(PAGE.format(script=script, results=catalog.render(sessions[sid].query)))
        response.set_cookie(COOKIE, sid, httponly=True, samesite="lax")
        return response

    async def updates(request):
        session = session_of(request)
        if session is None:
            return Response("no session", status_code=403)

        async def events():
            yield SSE.patch_elements(catalog.render(session.query))
            while True:
                yield await session.queue.get()
        return DatastarResponse(events())

    async def search(request):
        session = session_of(request)
        signals = await read_signals(request) or {}
        query = str(signals.get("query", ""))[:200]
        seq = signals.get("seq")
        event = SSE.patch_elements(catalog.render(query), event_id=None if seq is None else str(seq))
        if request.method == "GET":
            # @get('/search'): the answer is the event.
            if session is not None:
                session.query = query
            return DatastarResponse(event)
        if session is None:
            return Response("no session", status_code=403)
        session.query = query
        session.queue.put_nowait(event)
        return DatastarResponse()  # 204: the event goes out on the session's stream

    middleware = []
    if gzip_level is not None:
        middleware.append(Middleware(
            GZipMiddleware, compresslevel=gzip_level,
            exclude_content_types=tuple(t for t in DEFAULT_EXCLUDED_CONTENT_TYPES if t != "text/event-stream")))
    return Starlette(routes=[Route("/", page), Route("/updates", updates),
                             Route("/search", search, methods=["GET", "POST"])],
                     middleware=middleware)


def main():
    import uvicorn
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--data", default=DEFAULT_DATA)
    parser.add_argument("--gzip-level", type=int, default=9, help="GZipMiddleware's compresslevel (9: its default)")
    parser.add_argument("--no-gzip", action="store_true", help="no GZipMiddleware at all")
    parser.add_argument("--script", default="/datastar.js", help="where the page loads Datastar's client from")
    args = parser.parse_args()
    catalog = Catalog(args.data)
    app = make_app(catalog, None if args.no_gzip else args.gzip_level, args.script)
    print(f"Datastar peer: {catalog.count:,} mountains on http://127.0.0.1:{args.port}", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, loop="uvloop", http="httptools",
                log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
