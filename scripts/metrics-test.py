#!/usr/bin/env python3
"""`GET /metrics` on a real `diffable-web` (issue 38), against the catalog in docs/metrics.md:

  a. the exposition: 200, `text/plain; version=0.0.4`, parsed by prometheus-client's parser;
     every family of the catalog present with its type, a `# HELP` text and exactly its labels
     (a histogram's buckets `le` too); no label value holds the session's id or share id;
  b. exact counts, as deltas between two scrapes: M event streams on one session's Mountains
     list, N search keystrokes through the API, each waited for on every stream: changeset
     events sent grow by N × M, the list's writes by N, the action route's request count by N;
     the streams gauge is M while they are open and drops back when they close; a stream that
     reconnects with `Last-Event-ID` counts one resume, replayed; one request refused 414 (too
     many query arguments) counts once; the sessions in memory are at least 1;
  c. request ids: every response carries `X-Request-ID`; a usable one sent is returned as is, an
     unusable one (spaces, 200 characters) is replaced by 16 new hex digits;
  d. `/metrics` is answered within a second while every heavy-read thread is busy;
  e. the Grafana dashboard (docs/grafana/diffableweb-dashboard.json) names only metrics the server
     exposes.

Bounded: every request has a timeout, every wait a deadline, the whole run a watchdog; the server
is killed on any failure. Runs under .venv (prometheus-client from PyPI, pinned; made if missing).

    python3 scripts/metrics-test.py      (DIFFABLE_WEB_BINARY: the server, default .build/debug)"""
import json
import os
import re
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import promtext  # noqa: E402
promtext.use_venv()
from dwhttp import Client, Stream  # noqa: E402
from findings import Findings  # noqa: E402
from dwserver import Server, StartError, wait_for, watchdog  # noqa: E402

NAME = "metrics-test"
DASHBOARD = os.path.join(ROOT, "docs", "grafana", "diffableweb-dashboard.json")
STREAMS = 3  # M
KEYSTROKES = 5  # N: each query filters the list differently from the one before
QUERIES = ["k", "ka", "kan", "ka", "k"]
MOUNTAINS_EVENTS = "/demos/mountains/events?width=800&height=600"
ACTION_ROUTE = re.compile(r"^/api/sessions/\{[^}]+\}/demos/\{[^}]+\}/actions/\{[^}]+\}$")
MAX_QUERY_ARGUMENTS = 64  # Sources/MicroHTTP/Limits.swift, maxQueryArguments
MADE_ID = re.compile(r"^[0-9a-f]{16}$")
ID_LIKE = re.compile(r"[0-9a-f]{16}|\bm\d{4}\b|\bn\d+\b")  # a session's id, a Mountains or Numbers item's

findings = Findings(NAME)
log, fail = findings.log, findings.fail


class Tracked(Client):
    """A client that checks every response for an `X-Request-ID`."""

    def call(self, method, path, body=None, cookie=None, headers=None):
        reply = super().call(method, path, body, cookie, headers)
        if not reply.headers.get("x-request-id"):
            fail(f"c: {method} {path[:80]} was answered {reply.status} without X-Request-ID")
        return reply


def exposition(port):
    """Scrapes /metrics and checks its head; returns the families (empty when unusable)."""
    status, content_type, text, headers = promtext.scrape(port)
    if status != 200:
        fail(f"a: GET /metrics answered {status}: {text[:200]!r}")
        return {}
    if not content_type.startswith("text/plain; version=0.0.4"):
        fail(f"a: GET /metrics has Content-Type {content_type!r}, not text/plain; version=0.0.4")
    if not headers.get("x-request-id"):
        fail("c: GET /metrics was answered without X-Request-ID")
    try:
        return promtext.parse(text)
    except Exception as error:  # noqa: BLE001 - the parser's verdict is the finding
        fail(f"a: the exposition does not parse: {type(error).__name__}: {error}")
        return {}


def check_catalog(families, secrets):
    """Every catalog family present, of its type, with help text and exactly its labels."""
    for name, kind, labels in promtext.catalog():
        family = families.get(promtext.family_name(name, kind))
        if family is None:
            fail(f"a: {name} ({kind}) is not in the exposition")
            continue
        if family.type != kind:
            fail(f"a: {name} is a {family.type}, docs/metrics.md says {kind}")
        if not family.documentation.strip():
            fail(f"a: {name} has no # HELP text")
        if not family.samples:
            fail(f"a: {name} has a TYPE line but no sample")
        for sample in family.samples:
            expected = set(labels) | ({"le"} if sample.name.endswith("_bucket") else set())
            if set(sample.labels) != expected:
                fail(f"a: {sample.name} has labels {sorted(sample.labels)}, docs/metrics.md says {sorted(expected)}")
                break
    for family, sample, label, value in promtext.label_values(families):
        if any(secret in value for secret in secrets) or ID_LIKE.search(value):
            fail(f"a: {sample}{{{label}={value!r}}} holds a session's id or an item's")


def streams_open(port):
    return promtext.total(exposition(port), "diffableweb_event_streams_open")


def check_counts(port, client, share, cookie):
    """b: the scripted sequence and its deltas."""
    baseline_streams = streams_open(port)
    streams = [Stream(port, MOUNTAINS_EVENTS, cookie=cookie) for _ in range(STREAMS)]
    try:
        for k, stream in enumerate(streams):
            if not stream.headers.get("x-request-id"):
                fail(f"c: event stream {k}'s head has no X-Request-ID")
            if not stream.first_event.wait(10):
                fail(f"b: stream {k} got no first event within 10 s")
                return
        seen = wait_for(lambda: streams_open(port) == baseline_streams + STREAMS, 5)
        if not seen:
            fail(f"b: diffableweb_event_streams_open is {streams_open(port)} with {STREAMS} streams open "
                 f"(before them: {baseline_streams})")
        before = exposition(port)
        sent = []
        for i, query in enumerate(QUERIES[:KEYSTROKES]):
            reply = client.call("POST", f"/api/sessions/{share}/demos/mountains/actions/search",
                                {"query": query, "seq": i + 1})
            if reply.status != 200:
                fail(f"b: search {query!r} answered {reply}")
                return
            version = reply.json()["version"]
            sent.append(version)
            for k, stream in enumerate(streams):
                if stream.wait_version(version, 5) is None:
                    fail(f"b: stream {k} did not get version {version} (search {query!r}) within 5 s")
                    return
        if len(set(sent)) != KEYSTROKES:
            fail(f"b: the searches did not each make a version: {sent}")
        after = exposition(port)
        changesets = [sum(1 for _, name, p in s.events if name == "changeset" and p.get("version") in sent)
                      for s in streams]
        if changesets != [KEYSTROKES] * STREAMS:
            fail(f"b: changesets of the searches per stream: {changesets}, expected {KEYSTROKES} each")

        def delta(name, sample=None, **labels):
            return promtext.total(after, name, sample, **labels) - promtext.total(before, name, sample, **labels)

        expected = {
            'diffableweb_events_sent_total{event="changeset"}': (delta("diffableweb_events_sent", event="changeset"),
                                                                  KEYSTROKES * STREAMS),
            'diffableweb_list_writes_total{list="mountains"}': (delta("diffableweb_list_writes", list="mountains"),
                                                                 KEYSTROKES),
        }
        durations = after.get("http_server_request_duration_seconds")
        routes = sorted({s.labels.get("http_route", "") for s in (durations.samples if durations else [])})
        action = [r for r in routes if ACTION_ROUTE.match(r)]
        if len(action) != 1:
            fail(f"b: no one action route among http_route values {routes}")
        else:
            count = delta("http_server_request_duration_seconds", "http_server_request_duration_seconds_count",
                          http_route=action[0], http_request_method="POST")
            expected[f'http_server_request_duration_seconds_count{{http_route="{action[0]}",http_request_method="POST"}}'] = \
                (count, KEYSTROKES)
        for what, (got, want) in expected.items():
            if got != want:
                fail(f"b: {what} grew by {got:g} over {KEYSTROKES} searches on {STREAMS} streams, expected {want}")
        if delta("diffableweb_event_bytes_sent", event="changeset") <= 0:
            fail("b: diffableweb_event_bytes_sent_total{event=\"changeset\"} did not grow")
        log(f"b. {KEYSTROKES} searches × {STREAMS} streams: "
            + "; ".join(f"{what} +{got:g}" for what, (got, _) in expected.items()))

        # A reconnect with the newest event's id: replayed from the log (nothing to replay, then a window).
        resumes_before = promtext.total(after, "diffableweb_stream_resumes")
        replayed_before = promtext.total(after, "diffableweb_stream_resumes", outcome="replayed")
        resumed = Stream(port, MOUNTAINS_EVENTS, cookie=cookie, last_event_id=streams[0].last_id)
        streams.append(resumed)
        if not resumed.first_event.wait(10):
            fail("b: the resumed stream got no event within 10 s")
        elif resumed.events[0][1] == "snapshot":
            fail(f"b: a reconnect with Last-Event-ID {streams[0].last_id} got a snapshot, not a replay")

        def resumes(**labels):
            return promtext.total(exposition(port), "diffableweb_stream_resumes", **labels)
        if not wait_for(lambda: resumes(outcome="replayed") - replayed_before == 1, 5) \
                or resumes() - resumes_before != 1:
            family = exposition(port).get("diffableweb_stream_resumes")
            fail(f"b: diffableweb_stream_resumes_total after one replayed reconnect (before: {resumes_before:g}): "
                 f"{[(s.labels, s.value) for s in family.samples] if family else 'absent'}")
    finally:
        for stream in streams:
            stream.close()
    if not wait_for(lambda: streams_open(port) == baseline_streams, 10):
        fail(f"b: diffableweb_event_streams_open is {streams_open(port)} 10 s after the streams closed "
             f"(before them: {baseline_streams})")
    else:
        log(f"b. diffableweb_event_streams_open {baseline_streams + STREAMS} while open, back to {baseline_streams}")


def check_refusal(port, client):
    """b: a request past the query-argument limit is refused 414 and counted once."""
    before = exposition(port)
    path = "/api/demos?" + "&".join(f"a{i}=1" for i in range(MAX_QUERY_ARGUMENTS + 6))
    reply = client.call("GET", path)
    after = exposition(port)
    if reply.status != 414:
        fail(f"b: GET /api/demos with {MAX_QUERY_ARGUMENTS + 6} query arguments answered {reply}, not 414")
        return
    error = (reply.json() or {}).get("error")
    count = promtext.total(after, "diffableweb_http_refusals", http_response_status_code="414") \
        - promtext.total(before, "diffableweb_http_refusals", http_response_status_code="414")
    typed = promtext.total(after, "diffableweb_http_refusals", http_response_status_code="414", error_type=error) \
        - promtext.total(before, "diffableweb_http_refusals", http_response_status_code="414", error_type=error)
    if count != 1 or typed != 1:
        fail(f"b: one 414 ({error}) grew diffableweb_http_refusals_total{{http_response_status_code=\"414\"}} by "
             f"{count:g} (by {typed:g} with error_type=\"{error}\"), expected 1")
    else:
        log(f"b. one 414 refusal counted once (error_type=\"{error}\")")


def check_request_ids(client):
    """c: ids sent, kept or replaced."""
    reply = client.call("GET", "/healthz", headers={"X-Request-ID": "test-abc-123"})
    if reply.headers.get("x-request-id") != "test-abc-123":
        fail(f"c: X-Request-ID: test-abc-123 came back as {reply.headers.get('x-request-id')!r}")
    for sent in ("has spaces in it", "x" * 200):
        reply = client.call("GET", "/healthz", headers={"X-Request-ID": sent})
        got = reply.headers.get("x-request-id") or ""
        if not MADE_ID.match(got):
            fail(f"c: X-Request-ID {sent[:20]!r}… (unusable) came back as {got[:40]!r}, not 16 new hex digits")
    ids = {client.call("GET", "/healthz").headers.get("x-request-id") for _ in range(5)}
    if len(ids) != 5 or not all(MADE_ID.match(i or "") for i in ids):
        fail(f"c: five requests without an id got {sorted(map(str, ids))}, not five distinct 16-hex ids")
    reply = client.call("GET", "/no-such-page")
    log("c. X-Request-ID kept when usable, made (16 hex) otherwise; on a 404 too: "
        f"{reply.headers.get('x-request-id')}")


def check_busy(port, share):
    """d: /metrics while every heavy-read thread lays out a 50,000-item list."""
    client = Client(port, timeout=60)
    sections = [{"id": f"s{s}", "items": [f"n{s * 10000 + i + 1}" for i in range(10000)]} for s in range(5)]
    reply = client.call("PUT", f"/api/sessions/{share}/demos/numbers/snapshot", {"sections": sections})
    if reply.status != 200:
        fail(f"d: the 50,000-item snapshot was answered {reply}")
        return
    stop = threading.Event()

    def load(index):
        loader = Client(port, timeout=60)
        while not stop.is_set():
            try:
                loader.call("GET", f"/api/sessions/{share}/demos/numbers/layout?width={300 + index}&height=800")
            except Exception:  # noqa: BLE001 - load only
                pass
        loader.close()

    loaders = [threading.Thread(target=load, args=(i,), daemon=True) for i in range(8)]
    for thread in loaders:
        thread.start()
    try:
        # The layouts under way: requests in flight beside the scrape itself (a bound, not a verdict).
        wait_for(lambda: promtext.total(exposition(port), "http_server_active_requests") >= 4, 10)
        times = []
        for _ in range(5):
            started = time.monotonic()
            status, _, _, _ = promtext.scrape(port, timeout=5)
            times.append(time.monotonic() - started)
            if status != 200:
                fail(f"d: /metrics answered {status} under load")
        log(f"d. /metrics under 8 layout loops: max {max(times) * 1000:.0f} ms of 5 scrapes")
        if max(times) > 1.0:
            fail(f"d: /metrics took {max(times):.2f} s while the lists were busy")
    finally:
        stop.set()
        for thread in loaders:
            thread.join(60)
        client.close()


PROMQL_WORDS = {
    "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group",
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset",
    "rate", "irate", "increase", "delta", "idelta", "deriv", "histogram_quantile", "clamp_min", "clamp_max",
    "abs", "ceil", "floor", "round", "vector", "scalar", "time", "label_replace", "label_join", "absent",
    "sum_over_time", "avg_over_time", "max_over_time", "min_over_time", "changes", "resets", "sort", "sort_desc",
    "inf", "nan",
}


def promql_metrics(expr):
    """The metric names an expression reads: what is left once strings, label matchers, grouping
    clauses, ranges, variables, numbers and PromQL's own words are taken out."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)
    expr = re.sub(r"\{[^}]*\}", "", expr)
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    expr = re.sub(r"\$\{?\w+\}?", "", expr)
    names = re.findall(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)", expr)
    return {n for n in names if n.lower() not in PROMQL_WORDS}


def check_dashboard(families):
    """e: every PromQL expression of the dashboard reads metrics the server exposes."""
    try:
        dashboard = json.load(open(DASHBOARD))
    except (OSError, ValueError) as error:
        fail(f"e: {DASHBOARD}: {error}")
        return
    exposed = {s.name for family in families.values() for s in family.samples}
    exposed |= {n for name, kind, _ in promtext.catalog() for n in promtext.sample_names(name, kind)
                if promtext.family_name(name, kind) in families}
    panels = [p for row in dashboard.get("panels", []) for p in [row, *row.get("panels", [])]]
    expressions = [(p.get("title"), t["expr"]) for p in panels for t in p.get("targets", []) if t.get("expr")]
    if not expressions:
        fail("e: the dashboard has no PromQL expressions")
    for title, expr in expressions:
        names = promql_metrics(expr)
        if not names:
            fail(f"e: panel {title!r}: no metric found in {expr!r}")
        for name in sorted(names - exposed):
            fail(f"e: panel {title!r} reads {name}, which the server does not expose ({expr})")
    if dashboard.get("schemaVersion", 0) < 36:
        fail(f"e: the dashboard's schemaVersion is {dashboard.get('schemaVersion')}, below 36")
    if not any(i.get("name") == "DS_PROMETHEUS" for i in dashboard.get("__inputs", [])):
        fail("e: the dashboard has no DS_PROMETHEUS input")
    log(f"e. the dashboard's {len(expressions)} expressions read only exposed metrics")


def run(server, client):
    if not exposition(server.port):
        return
    reply = client.call("POST", "/api/sessions")
    if reply.status != 201 or not reply.cookie():
        fail(f"POST /api/sessions answered {reply}")
        return
    share, cookie = reply.json()["id"], reply.cookie()
    for name, part in (("b", lambda: check_counts(server.port, client, share, cookie)),
                       ("b", lambda: check_refusal(server.port, client)),
                       ("c", lambda: check_request_ids(client)),
                       ("d", lambda: check_busy(server.port, share))):
        try:
            part()
        except Exception as error:  # noqa: BLE001 - reported, then the next part
            fail(f"{name}: {type(error).__name__}: {error}")
    families = exposition(server.port)
    check_catalog(families, (share, cookie))
    if promtext.total(families, "diffableweb_sessions", location="memory") < 1:
        fail("b: diffableweb_sessions{location=\"memory\"} is below 1 with a session in use")
    check_dashboard(families)
    log(f"a. {len(families)} families; the catalog's {len(promtext.catalog())} checked")


def main():
    watchdog(NAME, 150)
    started = time.monotonic()
    try:
        server = Server(NAME, ["--log-level", "warning"])
    except StartError as error:
        fail(str(error))
        findings.finish(started)
    client = Tracked(server.port)
    try:
        run(server, client)
    except Exception as error:  # noqa: BLE001 - reported with the server's log
        fail(f"{type(error).__name__}: {error}")
    finally:
        client.close()
        server.kill()
        if findings:
            print(f"--- server log (last lines)\n{server.log()[-2000:]}", file=sys.stderr)
        server.remove()
    findings.finish(started)


if __name__ == "__main__":
    main()
