#!/usr/bin/env python3
"""Drives the Mountains and Numbers demos of a running DiffableWeb server over its JSON API
(standard library only). Open a demo page in a browser on the same session and watch the lists
change, animated, as the script runs.

    python3 Examples/drive.py [--base http://127.0.0.1:8080] [--session SHARE_ID] [--query Mont] [--fast]

Without --session it creates a session and prints its share id. To watch a browser's session,
copy the id from the page's "Script this session" panel and pass it as --session.
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class APIError(Exception):
    def __init__(self, method, path, status, body):
        super().__init__(f"{method} {path} → {status}")
        self.method, self.path, self.status, self.body = method, path, status, body


class Client:
    def __init__(self, base):
        self.base = base.rstrip("/")

    def call(self, method, path, body=None):
        """One request; the JSON answer, or APIError with the server's JSON error."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Accept": "application/json"})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                payload = response.read()
                return json.loads(payload) if payload else None, response.headers
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                parsed = json.loads(payload)
            except ValueError:
                parsed = {"error": "not_json", "message": payload.decode("utf-8", "replace")}
            raise APIError(method, path, error.code, parsed) from None

    def get(self, path):
        return self.call("GET", path)[0]

    def post(self, path, body=None):
        return self.call("POST", path, {} if body is None else body)[0]


def item_ids(snapshot):
    return [item["id"] for section in snapshot["sections"] for item in section["items"]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8080", help="the server (default %(default)s)")
    parser.add_argument("--session", help="the share id of an existing session (from the page's panel)")
    parser.add_argument("--query", default="Mont", help="what to type into Mountains (default %(default)s)")
    parser.add_argument("--fast", action="store_true", help="no pauses (for tests)")
    args = parser.parse_args(argv)
    api = Client(args.base)

    def pause(seconds):
        if not args.fast:
            time.sleep(seconds)

    try:
        if args.session:
            session = api.get(f"/api/sessions/{urllib.parse.quote(args.session, safe='')}")
        else:
            session, headers = api.call("POST", "/api/sessions")
            cookie = (headers.get("Set-Cookie") or "").split(";")[0]
            print(f"created session {session['id']}")
            print(f"  to watch it in a browser, give the browser the cookie {cookie} (devtools → Application →"
                  f" Cookies), or open {args.base}/demos/numbers first and pass --session with the page's id")
        share = session["id"]
        root = f"/api/sessions/{share}/demos"
        print(f"session {share}: " + ", ".join(f"{d['name']} v{d['version']} ({d['itemCount']} items)"
                                               for d in session["demos"]))

        # Mountains: type the query letter by letter, as a person would (each keystroke one search).
        for n in range(1, len(args.query) + 1):
            result = api.post(f"{root}/mountains/actions/search", {"query": args.query[:n]})
            print(f"  mountains: search {args.query[:n]!r} → v{result['version']}")
            pause(0.35)
        pause(1.0)

        # Numbers: the demo's own actions.
        steps = [("append", {"count": 3}), ("removeCenter", {}), ("removeLast", {}), ("append", {})]
        for action, parameters in steps:
            result = api.post(f"{root}/numbers/actions/{action}", parameters)
            print(f"  numbers: {action} {json.dumps(parameters) if parameters else ''}".rstrip() + f" → v{result['version']}")
            pause(0.8)
        count = len(item_ids(api.get(f"{root}/numbers/snapshot")))
        if count >= 2:
            result = api.post(f"{root}/numbers/actions/move", {"from": 0, "to": count // 2})
            print(f"  numbers: move the first item to position {count // 2} → v{result['version']}")
            pause(0.8)

        # An operations batch, conditional on the version we read: move the last item to the top
        # and reconfigure it. A 409 means someone (a browser tab) changed the list meanwhile:
        # read again and retry, a few times at most.
        for attempt in range(3):
            snapshot = api.get(f"{root}/numbers/snapshot")
            ids = item_ids(snapshot)
            if len(ids) < 2:
                break
            batch = {"ifVersion": snapshot["version"], "operations": [
                {"op": "moveItem", "item": ids[-1], "beforeItem": ids[0]},
                {"op": "reconfigureItems", "items": [ids[-1]]}]}
            try:
                result = api.post(f"{root}/numbers/operations", batch)
            except APIError as error:
                if error.status == 409 and attempt < 2:
                    print(f"  numbers: version moved on ({error.body.get('message')}); retrying")
                    continue
                raise
            print(f"  numbers: operations (move {ids[-1]} to the top) → v{result['version']},"
                  f" {result['changes']['itemsMoved']} moved")
            break

        numbers = api.get(f"{root}/numbers/snapshot")
        mountains = api.get(f"{root}/mountains/snapshot")
    except APIError as error:
        print(f"error: {error}: {json.dumps(error.body, ensure_ascii=False)}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"error: cannot reach {args.base}: {error.reason}", file=sys.stderr)
        return 2

    names = [item["data"].get("name", item["id"]) for section in mountains["sections"] for item in section["items"]]
    print(f"mountains: version {mountains['version']}, {len(names)} items for {args.query!r}: "
          + ", ".join(names[:5]) + (", …" if len(names) > 5 else ""))
    print(f"numbers: version {numbers['version']}, {len(item_ids(numbers))} items: " + " ".join(item_ids(numbers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
