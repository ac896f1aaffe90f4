"""Reading a DiffableWeb server's `GET /metrics` in the tests (scripts/metrics-test.py,
scripts/cluster-test.py): the Prometheus text format parsed by prometheus-client's own parser,
the metric catalog read from docs/metrics.md, and sums and deltas of samples by label.

prometheus-client comes from PyPI into the repository's venv (.venv), pinned, installed only when
missing; `use_venv()` re-runs the calling script under that venv's Python (same pid, same
arguments). Note what the parser does: a counter's family is named without `_total` (its samples
keep it), a histogram's samples are `_bucket` (with `le`), `_sum` and `_count`."""
import http.client
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, ".venv")
PROMETHEUS_CLIENT = "0.26.0"


def use_venv():
    """Runs this script again under .venv's Python with prometheus-client PROMETHEUS_CLIENT, made
    and installed if missing (python3-venv from Debian when ensurepip is missing, as
    scripts/api-contract does). Returns only when already running there."""
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.access(python, os.X_OK):
        if subprocess.run(["/usr/bin/python3", "-c", "import ensurepip"], capture_output=True).returncode != 0:
            print("== installing python3-venv", flush=True)
            environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            for command in (["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "python3-venv"]):
                subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=300", *command], check=True, env=environment,
                               stdout=subprocess.DEVNULL, timeout=600)
        subprocess.run(["/usr/bin/python3", "-m", "venv", VENV], check=True, timeout=300)
    installed = subprocess.run(
        [python, "-c", "from importlib.metadata import version; print(version('prometheus-client'))"],
        capture_output=True, text=True, timeout=60).stdout.strip()
    if installed != PROMETHEUS_CLIENT:
        print(f"== installing prometheus-client {PROMETHEUS_CLIENT} into {VENV}", flush=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        f"prometheus-client=={PROMETHEUS_CLIENT}"], check=True, timeout=600)
    sys.stdout.flush()
    os.execv(python, [python, *sys.argv])


def scrape(port, timeout=10, headers=None):
    """GET /metrics: (status, content type, body text, response headers with lowercase names)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/metrics", headers=headers or {})
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        return (response.status, response.getheader("Content-Type") or "", body,
                {k.lower(): v for k, v in response.getheaders()})
    finally:
        connection.close()


def parse(text):
    """The families of an exposition, by the parser's name (counters without `_total`)."""
    from prometheus_client.parser import text_string_to_metric_families
    return {family.name: family for family in text_string_to_metric_families(text)}


def family_name(name, kind):
    """The parser's name for a catalog name: a counter's without `_total`."""
    return name.removesuffix("_total") if kind == "counter" else name


def sample_names(name, kind):
    """The sample names a family of the catalog exposes."""
    if kind == "histogram":
        return {f"{name}_bucket", f"{name}_sum", f"{name}_count"}
    return {name}


def catalog(path=os.path.join(ROOT, "docs", "metrics.md")):
    """docs/metrics.md's table: [(name, type, [label names])]. A labels cell names each label in
    backticks; the values after it in parentheses are examples, not labels."""
    entries = []
    for line in open(path, encoding="utf-8"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not re.fullmatch(r"`[a-z_:][a-z0-9_:]*`", cells[0]):
            continue
        labels = re.findall(r"`([a-z_][a-z0-9_]*)`", re.sub(r"\([^)]*\)", "", cells[2]))
        entries.append((cells[0].strip("`"), cells[1], labels))
    return entries


def total(families, name, sample=None, **labels):
    """The sum of the samples of family `name` (the parser's name) whose labels include `labels`;
    `sample` picks one sample name (a histogram's `…_count`), else every sample but buckets."""
    family = families.get(name)
    if family is None:
        return 0.0
    return sum(s.value for s in family.samples
               if (s.name == sample if sample else not s.name.endswith("_bucket"))
               and all(s.labels.get(k) == v for k, v in labels.items()))


def label_values(families):
    """Every (family, sample, label, value) of an exposition."""
    return [(family.name, s.name, k, v) for family in families.values() for s in family.samples
            for k, v in s.labels.items()]
