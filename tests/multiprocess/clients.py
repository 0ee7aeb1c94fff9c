"""The clients of the multi-process tests: a judge's phone (device API) and a spectator (SSE)."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

REQUEST_SECONDS = 30.0


def tap(round_id: int, entry: int, time_seconds: int,
        client_id: str | None = None) -> dict[str, Any]:
    """A judge's tap when the competitor at `entry` calls TIME (the first write of a result)."""
    return {"client_id": client_id or str(uuid.uuid4()), "round_id": round_id, "entry": entry,
            "base_version": 0, "action": "tap", "values": {"time_seconds": time_seconds}}


def post_result(http: httpx.Client, base_url: str, token: str,
                body: dict[str, Any]) -> httpx.Response:
    return http.post(f"{base_url}/api/v1/device/results", json=body,
                     headers={"Authorization": f"Bearer {token}"}, timeout=REQUEST_SECONDS)


def raw_request(base_url: str, token: str, body: dict[str, Any]) -> bytes:
    """The bytes of the device API request, as a phone sends them."""
    payload = json.dumps(body).encode()
    host = urlsplit(base_url).netloc
    head = (f"POST /api/v1/device/results HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n")
    return head.encode() + payload


def send_and_drop(base_url: str, token: str, body: dict[str, Any], *, whole: bool) -> None:
    """A dropped connection: the request (whole, or cut in the middle) is sent and the socket
    closed before any answer is read, as a phone losing its network does."""
    data = raw_request(base_url, token, body)
    if not whole:
        data = data[:len(data) // 2]
    split = urlsplit(base_url)
    with contextlib.suppress(OSError), socket.create_connection(
            (split.hostname or "127.0.0.1", split.port or 80), 5) as conn:
        conn.sendall(data)


@dataclass
class Spectator:
    """A spectator's EventSource on /live/<slug>/events: notices with their arrival times;
    reconnects (as a browser does) when the stream ends."""

    base_url: str
    slug: str
    notices: list[tuple[int, float]] = field(default_factory=list)
    hello_seq: int | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _connected: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self, timeout: float = 15.0) -> Spectator:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._connected.wait(timeout):
            raise AssertionError(f"spectator on {self.base_url} never got its hello")
        return self

    @property
    def last_seq(self) -> int:
        seqs = [seq for seq, _ in self.notices]
        return max([*seqs, self.hello_seq or 0])

    def first_arrival(self, seq: int) -> float | None:
        return next((at for s, at in self.notices if s >= seq), None)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        split = urlsplit(self.base_url)
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                self._follow(split.hostname or "127.0.0.1", split.port or 80)
            self._stop.wait(0.2)

    def _follow(self, host: str, port: int) -> None:
        with socket.create_connection((host, port), 5) as conn:
            # HTTP/1.0: the body is the raw event stream (no chunks), ended by closing.
            conn.sendall(f"GET /live/{self.slug}/events HTTP/1.0\r\nHost: {host}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            conn.settimeout(0.25)
            buffer = b""
            head_done = False
            while not self._stop.is_set():
                try:
                    chunk = conn.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    return
                buffer += chunk
                if not head_done:
                    if b"\r\n\r\n" not in buffer:
                        continue
                    _head, buffer = buffer.split(b"\r\n\r\n", 1)
                    head_done = True
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self._event(block.decode())

    def _event(self, block: str) -> None:
        fields = dict(line.split(": ", 1) for line in block.split("\n")
                      if line and not line.startswith(":") and ": " in line)
        if fields.get("event") == "hello":
            self.hello_seq = json.loads(fields["data"]).get("seq", 0) \
                if fields.get("data", "").startswith("{") else int(fields.get("id", 0))
            self._connected.set()
        elif fields.get("event") == "notice":
            self.notices.append((int(fields["id"]), time.monotonic()))


class Line:
    """A phone's keep-alive connection to one app process (the standard library's client:
    the test's side must cost far less CPU than the servers sharing the machine)."""

    def __init__(self, base_url: str, token: str, *, timeout: float = REQUEST_SECONDS) -> None:
        split = urlsplit(base_url)
        self.host = split.hostname or "127.0.0.1"
        self.port = split.port or 80
        self.token = token
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: dict[str, Any] | None = None
                ) -> tuple[int, Any]:
        """(status, JSON body); a broken keep-alive connection is opened again once."""
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                answer = self.conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    raise
                continue
            try:
                return answer.status, json.loads(data)
            except ValueError:
                return answer.status, data.decode(errors="replace")
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
