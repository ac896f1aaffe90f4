"""A real `diffable-web` process for the tests in scripts/: started on a free port (`--port 0`,
the port read from its "Listening on http://127.0.0.1:PORT/" line), its state in a temporary
directory, its stderr (the log) in a file there; killed by `kill()` and by the watchdog.

    server = Server("metrics-test", ["--log-level", "debug"])
    ...
    server.kill()"""
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("DIFFABLE_WEB_BINARY", os.path.join(ROOT, ".build", "debug", "diffable-web"))

running = []


class StartError(Exception):
    pass


class Server:
    def __init__(self, name, flags=(), binary=BINARY, start_timeout=60):
        self.directory = tempfile.mkdtemp(prefix=f"{name}-")
        self.log_path = os.path.join(self.directory, "server.log")
        self.command = [binary, "--port", "0", "--state-dir", os.path.join(self.directory, "state"),
                        "--connections-per-address", "0", *flags]
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log,
                                            stdin=subprocess.DEVNULL, text=True)
        running.append(self)
        deadline = time.monotonic() + start_timeout
        line = ""
        while not line and time.monotonic() < deadline and self.process.poll() is None:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if ready:
                line = self.process.stdout.readline()
                if not line:
                    break
        match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.kill()
            message = (f"{' '.join(self.command)} did not print its port within {start_timeout} s "
                       f"(exit {self.process.poll()}): {line.strip()!r}; log: {self.log().strip()[-500:]}")
            self.remove()
            raise StartError(message)
        self.port = int(match.group(1))

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stop(self, grace=15):
        """SIGTERM, then SIGKILL after `grace` s; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        return self.process.returncode

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self in running:
            running.remove(self)

    def remove(self):
        self.kill()
        shutil.rmtree(self.directory, ignore_errors=True)


def watchdog(name, seconds):
    """Kills every server and ends the process with status 1 after `seconds`, whatever happens."""
    def run():
        time.sleep(seconds)
        print(f"{name}: FAIL: still running after {seconds} s; servers killed", file=sys.stderr, flush=True)
        for server in list(running):
            server.kill()
        os._exit(1)
    threading.Thread(target=run, daemon=True).start()


def wait_for(predicate, bound, step=0.05):
    """Polls predicate() until it returns a true value or `bound` seconds pass; returns the last
    value (false when the bound passed)."""
    deadline = time.monotonic() + bound
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)
