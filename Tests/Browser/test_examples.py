"""Examples/drive.py, the scripting example, against the test server (no browser): it runs to
the end, and the lists it reports are the server's."""
import json
import re
import subprocess
import sys

from conftest import ROOT
from helpers import api, expected_mountains, snapshot_item_ids

DRIVE = ROOT / "Examples" / "drive.py"


def drive(server, *arguments):
    return subprocess.run([sys.executable, str(DRIVE), "--base", server, "--fast", *arguments],
                          capture_output=True, text=True, timeout=60)


def reported(stdout):
    """The summary lines drive.py ends with: per demo, the version and what it shows."""
    numbers = re.search(r"^numbers: version (\d+), (\d+) items: (.*)$", stdout, re.M)
    mountains = re.search(r"^mountains: version (\d+), (\d+) items for ", stdout, re.M)
    assert numbers and mountains, f"no summary in:\n{stdout}"
    ids = numbers.group(3).split()
    assert len(ids) == int(numbers.group(2))
    return {"numbers": (int(numbers.group(1)), ids), "mountains": (int(mountains.group(1)), int(mountains.group(2)))}


def snapshot(server, share, demo):
    status, body = api(server, "GET", f"/api/sessions/{share}/demos/{demo}/snapshot")
    assert status == 200, body
    return body


def assert_report_matches_server(server, share, run, query):
    summary = reported(run.stdout)
    numbers = snapshot(server, share, "numbers")
    assert summary["numbers"] == (numbers["version"], snapshot_item_ids(numbers))
    mountains = snapshot(server, share, "mountains")
    names = [item["data"]["name"] for section in mountains["sections"] for item in section["items"]]
    assert summary["mountains"] == (mountains["version"], len(names))
    assert names == expected_mountains(query)
    return numbers


def test_drive_creates_a_session_and_reports_the_servers_snapshot(server):
    run = drive(server)
    assert run.returncode == 0, run.stderr
    created = re.search(r"^created session ([0-9a-f]{32})$", run.stdout, re.M)
    assert created, run.stdout
    assert "dw_session=" in run.stdout, "no cookie hint"
    numbers = assert_report_matches_server(server, created.group(1), run, "Mont")
    # 5 items, then append 3, remove center, remove last, append 1.
    assert len(snapshot_item_ids(numbers)) == 5 + 2
    assert "operations (move" in run.stdout


def test_drive_attaches_to_an_existing_session(server):
    status, session = api(server, "POST", "/api/sessions")
    assert status == 201
    share = session["id"]
    run = drive(server, "--session", share, "--query", "ever")
    assert run.returncode == 0, run.stderr
    assert "created session" not in run.stdout
    assert_report_matches_server(server, share, run, "ever")
    # One search per keystroke; four Numbers actions, a move and one operations batch.
    before = {demo["name"]: demo["version"] for demo in session["demos"]}
    status, described = api(server, "GET", f"/api/sessions/{share}")
    assert status == 200
    after = {demo["name"]: demo["version"] for demo in described["demos"]}
    assert after == {**before, "mountains": before["mountains"] + len("ever"), "numbers": before["numbers"] + 6}, \
        "drive.py touched Mountains and Numbers only"


def test_drive_prints_the_json_error_of_a_failed_call(server):
    run = drive(server, "--session", "0" * 32)
    assert run.returncode == 1
    assert run.stdout == ""
    message = run.stderr.strip()
    assert message.startswith("error: GET /api/sessions/") and "404" in message, message
    error = json.loads(message[message.index("{"):])
    assert error["error"] and error["message"], error
