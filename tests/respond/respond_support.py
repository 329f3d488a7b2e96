"""A local OpenAI-compatible chat server for the model-run tests, shared paths, and :func:`respond_process`
(``ipb respond`` in a child process, for the kill and Ctrl-C tests).

:class:`FakeServer` listens on 127.0.0.1 (an ephemeral port) with the
standard library's ``ThreadingHTTPServer`` and answers
``POST /v1/chat/completions`` with canned completions. Tests queue *faults*
that the next requests get, in order:

``429`` (with ``Retry-After: 0``), ``500``, ``503``, ``400``, ``401``
(its body echoes the Authorization header, as a careless proxy might),
``malformed`` (a cut-off JSON body), ``html`` (an HTML page with status 200),
``nochoices`` (valid JSON without choices), ``empty`` (no text,
finish_reason length), ``echo`` (a completion that quotes the bearer token),
``hang`` (answers only after ``hang_s`` seconds), ``drip`` (sends the body one byte every
0.3 s), ``parts`` (content as a list of text parts) and ``slow`` (answers after
``slow_s`` seconds, for kill tests).

Every request is recorded (body and headers). Judge requests (recognised by
the judge's system prompt) are answered from ``judge_replies`` when it holds
any, else with ``{"score": 1, "reason": "fine"}``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
ITEMS = DATA / "items.jsonl"
DALIO_TEST_CARD = ROOT / "tests" / "perturb" / "cards" / "cbdc_dalio_machine.yaml"
SECRET = "sk-test-DO-NOT-LEAK-0123456789abcdef"

BUFFETT_ANSWER = """1. Circle of Competence: PROCEED - subscription software with measurable retention.
2. Economic Moat: PROCEED - retention 95% and gross margin above 60%.
3. Management Integrity: INCONCLUSIVE - management record not disclosed.
4. Intrinsic Value Estimation: PROCEED - owner earnings $1.25B at 20x is $25B.
5. Margin of Safety: REJECT - price $50B exceeds intrinsic value $25B.
6. Holding Period Economics: N/A
Final verdict: DECLINE"""


class FakeServer:
    """An OpenAI-compatible chat-completions endpoint on 127.0.0.1 for tests."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.faults: deque[str] = deque()
        self.judge_replies: deque[str] = deque()
        self.reply: Callable[[dict[str, Any]], str] = lambda body: BUFFETT_ANSWER
        self.hang_s = 1.0
        self.slow_s = 0.0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _send(self, status: int, body: bytes, content_type: str = "application/json",
                      headers: dict[str, str] | None = None) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    body = {}
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "no such route"}}')
                    return
                with server._lock:
                    server.requests.append({"body": body, "headers": dict(self.headers.items())})
                    fault = server.faults.popleft() if server.faults else None
                    judge_reply = None
                    if _is_judge(body) and server.judge_replies:
                        judge_reply = server.judge_replies.popleft()
                auth = self.headers.get("Authorization", "")
                error = lambda code, msg: self._send(code, json.dumps({"error": {"message": msg}}).encode(),
                                                     headers={"Retry-After": "0"} if code == 429 else None)
                if fault == "429":
                    return error(429, "rate limited, slow down")
                if fault in ("500", "503", "400"):
                    return error(int(fault), f"injected {fault} (request had {auth})")
                if fault == "401":
                    return error(401, f"invalid credentials: {auth}")
                if fault == "malformed":
                    return self._send(200, b'{"id": "x", "choices": [{"index": 0, "message": {"role": "assis')
                if fault == "html":
                    return self._send(200, b"<html><body>Bad gateway</body></html>", "text/html")
                if fault == "nochoices":
                    return self._send(200, json.dumps({"id": "x", "object": "chat.completion", "created": 0,
                                                       "model": body.get("model"), "choices": []}).encode())
                if fault == "drip":  # headers, then one byte of the body every 0.3 s (each read is quick)
                    body_bytes = json.dumps({"id": "x", "choices": []}).encode()
                    try:
                        self.send_response(200)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(body_bytes)))
                        self.end_headers()
                        for i in range(len(body_bytes)):
                            self.wfile.write(body_bytes[i:i + 1])
                            self.wfile.flush()
                            time.sleep(0.3)
                    except (BrokenPipeError, ConnectionResetError, OSError):
                        pass
                    return None
                if fault == "hang":
                    time.sleep(server.hang_s)
                if fault == "slow" or server.slow_s:
                    time.sleep(server.slow_s)
                if fault == "empty":
                    text, finish = "", "length"
                elif fault == "echo":
                    text, finish = f"my key is {auth.removeprefix('Bearer ')}", "stop"
                elif judge_reply is not None:
                    text, finish = judge_reply, "stop"
                elif _is_judge(body):
                    text, finish = '{"score": 1, "reason": "fine"}', "stop"
                else:
                    text, finish = server.reply(body), "stop"
                content: Any = text
                if fault == "parts":  # content as a list of text parts (some OpenAI-compatible servers)
                    half = len(text) // 2
                    content = [{"type": "text", "text": text[:half]}, {"type": "image_url", "image_url": {"url": "x"}},
                               {"type": "text", "text": text[half:]}]
                completion = {
                    "id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "?"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": finish}],
                    "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
                }
                self._send(200, json.dumps(completion).encode())

            def do_GET(self) -> None:
                self._send(404, b'{"error": {"message": "no such route"}}')

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.faults.clear()
            self.judge_replies.clear()
        self.reply = lambda body: BUFFETT_ANSWER
        self.slow_s = 0.0

    def chat_requests(self, judge: bool | None = None) -> list[dict[str, Any]]:
        """Recorded requests, only the judge's (True) or only the respondent's (False)."""
        with self._lock:
            reqs = list(self.requests)
        if judge is None:
            return reqs
        return [r for r in reqs if _is_judge(r["body"]) == judge]


def _is_judge(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    return bool(messages) and "evaluator" in str(messages[0].get("content", ""))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@contextmanager
def respond_process(args: list[str], out: Path, *, records: int, within_s: float,
                    then: str) -> Iterator["subprocess.Popen[bytes]"]:
    """``ipb respond`` run with ``args`` by the console entry point in a child process, yielded as soon as ``out``
    holds ``records`` lines; killed on the way out if it still runs.

    The child has the test key (:data:`SECRET`) in its environment and SIGINT's default action restored: a job
    that a non-interactive shell starts in the background (CI runners, nohup) inherits SIGINT ignored, and Python
    then installs no KeyboardInterrupt handler. The test fails when the run ends first (the message says it could
    not be ``then``, what the test does next: "killed", "interrupted") or when ``within_s`` seconds pass first
    ("no records appeared").
    """
    env = {**os.environ, "IPB_API_KEY": SECRET}
    proc = subprocess.Popen([sys.executable, "-c", "from ipb.cli import main; main()", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            if out.exists() and out.read_text(encoding="utf-8").count("\n") >= records:
                break
            if proc.poll() is not None:
                assert proc.stderr is not None
                pytest.fail(f"the run ended before it could be {then}: " + proc.stderr.read().decode())
            time.sleep(0.02)
        else:
            pytest.fail("no records appeared")
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
