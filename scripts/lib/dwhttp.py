"""HTTP clients for the tests in scripts/ (standard library only): a keep-alive JSON client and a
server-sent event stream read on a raw socket. Import with

    sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
    from dwhttp import Client, Stream

Every call has a timeout; nothing here waits without a bound."""
import http.client
import json
import re
import socket
import threading
import time


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def node(self):
        return self.headers.get("x-diffableweb-node")

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def cookie(self):
        match = re.search(r"dw_session=([^;]+)", self.headers.get("set-cookie", ""))
        return match.group(1) if match else None

    def __repr__(self):
        return f"{self.status} from {self.node or 'nginx'}: {self.body[:200]!r}"


class Client:
    """One keep-alive connection; a failed request closes it (the next one reconnects)."""

    def __init__(self, port, timeout=10):
        self.port, self.timeout, self.connection = port, timeout, None

    def call(self, method, path, body=None, cookie=None, headers=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        headers = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if cookie:
            headers["Cookie"] = f"dw_session={cookie}"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except Exception:
            self.close()
            raise
        reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, payload)
        if response.will_close:
            self.close()
        return reply

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Stream:
    """A server-sent event stream on a raw socket (chunked, not gzip): the head is read here, the
    events by a thread. `versions` maps every event's version to its arrival (perf_counter)."""

    def __init__(self, port, path, cookie=None, last_event_id=None, timeout=10, headers=None):
        self.versions, self.events = {}, []
        self.condition = threading.Condition()
        self.closed = threading.Event()
        self.first_event = threading.Event()
        self.first_event_at = None
        self.last_id = None
        self.error = None
        self.stopping = False
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        try:
            head = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
            if cookie:
                head.append(f"Cookie: dw_session={cookie}")
            if last_event_id:
                head.append(f"Last-Event-ID: {last_event_id}")
            head += [f"{name}: {value}" for name, value in (headers or {}).items()]
            self.socket.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
            self.buffer = b""
            while b"\r\n\r\n" not in self.buffer:
                data = self.socket.recv(65536)
                if not data or len(self.buffer) > 65536:
                    raise ConnectionError("the stream's head did not arrive")
                self.buffer += data
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            self.status = int(lines[0].split()[1])
            self.headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                self.headers[name.strip().lower()] = value.strip()
            if self.status != 200:
                raise ConnectionError(f"stream answered {self.status} from {self.headers.get('x-diffableweb-node', 'nginx')}")
            if "chunked" not in self.headers.get("transfer-encoding", ""):
                raise ConnectionError("the stream is not chunked")
        except Exception:
            self.socket.close()
            raise
        self.node = self.headers.get("x-diffableweb-node")
        self.socket.settimeout(45)  # a heartbeat comes every 15 s
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _chunks(self):
        while True:
            while b"\r\n" not in self.buffer:
                data = self.socket.recv(65536)
                if not data:
                    return
                self.buffer += data
            line, self.buffer = self.buffer.split(b"\r\n", 1)
            size = int(line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                return
            while len(self.buffer) < size + 2:
                data = self.socket.recv(65536)
                if not data:
                    return
                self.buffer += data
            chunk, self.buffer = self.buffer[:size], self.buffer[size + 2:]
            yield chunk

    def _read(self):
        pending = b""
        try:
            for chunk in self._chunks():
                pending += chunk
                while b"\n\n" in pending:
                    block, pending = pending.split(b"\n\n", 1)
                    self._event(block.decode("utf-8"))
        except Exception as error:  # closed by us, or the connection broke
            if not self.stopping:
                self.error = error
        finally:
            self.closed.set()
            with self.condition:
                self.condition.notify_all()

    def _event(self, block):
        name, ident, data = None, None, []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("id:"):
                ident = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if name is None:
            return  # a comment (": connected", ": heartbeat")
        now = time.perf_counter()
        payload = json.loads("\n".join(data)) if data else {}
        with self.condition:
            if ident:
                self.last_id = ident
            self.events.append((now, name, payload))
            version = payload.get("version")
            if version is not None and name in ("snapshot", "changeset"):
                self.versions.setdefault(version, now)
            if self.first_event_at is None:
                self.first_event_at = now
                self.first_event.set()
            self.condition.notify_all()

    def wait_version(self, version, timeout):
        """When an event carrying `version` (or a later snapshot) arrived, or None."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                if version in self.versions:
                    return self.versions[version]
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.closed.is_set():
                    return None
                self.condition.wait(remaining)

    def newest_version(self):
        with self.condition:
            return max(self.versions, default=None)

    def close(self):
        self.stopping = True
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()
