"""What a test in scripts/ found: progress lines on stdout, failures on stderr (each said once),
and the closing line and exit status.

    findings = Findings("metrics-test")
    findings.fail("a: …")
    findings.finish(started)   # exits 1 when anything failed"""
import sys
import time


class Findings(list):
    def __init__(self, name):
        super().__init__()
        self.name = name

    def log(self, message):
        print(f"{self.name}: {message}", flush=True)

    def fail(self, message):
        if message in self:
            return
        self.append(message)
        print(f"{self.name}: FAIL: {message}", file=sys.stderr, flush=True)

    def finish(self, started):
        if self:
            print(f"{self.name}: {len(self)} failure(s) in {time.monotonic() - started:.0f} s", file=sys.stderr)
            sys.exit(1)
        self.log(f"passed in {time.monotonic() - started:.0f} s")
