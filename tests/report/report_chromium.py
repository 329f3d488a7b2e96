"""Headless Chromium driven over the DevTools protocol, for the report tests.

Starts Debian's ``chromium`` with the flags a closed network needs
(background networking, component updates, sync and QUIC off, a fresh
profile), reads the DevTools port from ``DevToolsActivePort`` and talks to
the page over a WebSocket. The WebSocket client is the few lines of RFC 6455
a loopback DevTools connection needs (masked text frames out; text,
continuation, ping and close frames in), so the tests need no package beyond
the standard library.

Usage::

    with Browser() as browser:
        page = browser.open(path)          # waits for the load event
        page.errors                        # console errors and uncaught exceptions
        page.evaluate("document.title")
        png = page.screenshot()
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["chromium_binary", "Browser", "Page", "FLAGS"]

#: Flags for a headless run on a machine without network access.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-default-browser-check",
    "--mute-audio",
    "--hide-scrollbars",
)


def chromium_binary() -> str | None:
    """Debian's chromium (or ``$IPB_CHROMIUM``), None when not installed."""
    configured = os.environ.get("IPB_CHROMIUM")
    if configured:
        return shutil.which(configured)
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _Socket:
    """A client WebSocket (RFC 6455) on a plain TCP connection."""

    def __init__(self, url: str, timeout: float) -> None:
        assert url.startswith("ws://")
        hostport, _, path = url[len("ws://"):].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        status, _, rest = head.partition(b"\r\n\r\n")
        if b" 101 " not in status.split(b"\r\n")[0]:
            raise ConnectionError(f"WebSocket handshake refused: {status.splitlines()[0]!r}")
        self.buffer = rest

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("DevTools connection closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, text: str) -> None:
        payload = text.encode("utf-8")
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack(">H", n)
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", n)
        mask = os.urandom(4)
        header += mask
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes(header) + masked)

    def receive(self) -> str:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            opcode, length = b0 & 0x0F, b1 & 0x7F
            if length == 126:
                (length,) = struct.unpack(">H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack(">Q", self._read(8))
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(length)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 0x8:
                raise ConnectionError("DevTools sent a close frame")
            if opcode == 0x9:  # ping: answer with a pong carrying the same data
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if opcode in (0x1, 0x2, 0x0):
                parts.append(data)
                if b0 & 0x80:
                    return b"".join(parts).decode("utf-8")

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Page:
    """One tab: commands by id, events collected; console errors in :attr:`errors`."""

    def __init__(self, ws_url: str, timeout: float) -> None:
        self.ws = _Socket(ws_url, timeout)
        self.timeout = timeout
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.console: list[str] = []

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result") or {})
            self._event(message)
        raise TimeoutError(method)

    def _event(self, message: dict[str, Any]) -> None:
        if "method" not in message:
            return
        self.events.append(message)
        method, params = message["method"], message.get("params") or {}
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append(f"{params.get('type')}: {text}")
            if params.get("type") in ("error", "assert"):
                self.errors.append(f"console.{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails") or {}
            exc = details.get("exception") or {}
            self.errors.append(f"uncaught: {exc.get('description') or details.get('text')}")
        elif method == "Log.entryAdded":
            entry = params.get("entry") or {}
            if entry.get("level") == "error":
                self.errors.append(f"log: {entry.get('source')}: {entry.get('text')} {entry.get('url') or ''}".strip())

    def wait_for(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + (timeout or self.timeout)
        for event in self.events:
            if event["method"] == method:
                return event
        while time.monotonic() < deadline:
            message = json.loads(self.ws.receive())
            self._event(message)
            if message.get("method") == method:
                return message
        raise TimeoutError(method)

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def settle(self, seconds: float = 0.3) -> None:
        """Drain events for a moment (late console messages)."""
        self.ws.sock.settimeout(seconds)
        try:
            while True:
                self._event(json.loads(self.ws.receive()))
        except (socket.timeout, TimeoutError):
            pass
        finally:
            self.ws.sock.settimeout(self.timeout)

    def screenshot(self, *, full_page: bool = False) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            metrics = self.send("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics.get("contentSize")
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        return base64.b64decode(self.send("Page.captureScreenshot", **params)["data"])


class Browser:
    """A headless Chromium process with a fresh profile, closed (and its profile removed) on exit."""

    def __init__(self, *, width: int = 1400, height: int = 1000, timeout: float = 60.0) -> None:
        binary = chromium_binary()
        if binary is None:
            raise FileNotFoundError("chromium is not installed")
        self.binary = binary
        self.width, self.height, self.timeout = width, height, timeout
        self.profile = tempfile.mkdtemp(prefix="ipb-chromium-")
        self.scratch = tempfile.mkdtemp(prefix="ipb-chromium-tmp-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.port: int | None = None

    def __enter__(self) -> "Browser":
        args = [self.binary, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
                "--remote-debugging-address=127.0.0.1", f"--window-size={self.width},{self.height}", "about:blank"]
        # Chromium makes org.chromium.Chromium.* folders in TMPDIR and leaves them behind when
        # terminated; a TMPDIR of its own is removed with the profile (a separate, short path:
        # its socket path must stay under the 108 bytes a unix socket allows).
        env = {**os.environ, "TMPDIR": self.scratch}
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        marker = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if marker.exists() and marker.read_text().strip():
                self.port = int(marker.read_text().split()[0])
                break
            if self.proc.poll() is not None:
                stderr = self.proc.stderr.read().decode("utf-8", "replace") if self.proc.stderr else ""
                raise RuntimeError(f"chromium exited with {self.proc.returncode}: {stderr[-2000:]}")
            time.sleep(0.05)
        else:
            self.__exit__(None, None, None)
            raise TimeoutError("chromium did not open its DevTools port")
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def _targets(self) -> list[dict[str, Any]]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=self.timeout) as response:
            return list(json.loads(response.read().decode()))

    def open(self, path: str | Path) -> Page:
        """Load ``path`` (a local file) in the tab and wait for its load event."""
        pages = [t for t in self._targets() if t.get("type") == "page"]
        page = Page(pages[0]["webSocketDebuggerUrl"], self.timeout)
        for domain in ("Runtime", "Log", "Page"):
            page.send(f"{domain}.enable")
        page.send("Emulation.setDeviceMetricsOverride", width=self.width, height=self.height, deviceScaleFactor=1,
                  mobile=False)
        page.send("Page.navigate", url=Path(path).resolve().as_uri())
        page.wait_for("Page.loadEventFired")
        page.settle()
        return page
