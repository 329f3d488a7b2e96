"""One chat-completion request to an OpenAI-compatible server, with retries.

:class:`ChatClient` wraps the ``openai`` client (its own retries switched
off) and adds:

- **retries** with exponential backoff and *seeded* jitter on rate limits
  (429), server errors (5xx, 408, 409, 425), time-outs, connection failures
  and malformed response bodies; a ``Retry-After`` header is honoured (up to
  the backoff cap), and a 429 pauses every request of the client, not only
  the one that got it;
- a bound on requests in flight (``concurrency``);
- **errors as values**: every failure becomes a :class:`RequestFailed` with a
  kind, the HTTP status, whether it may be retried and whether it should stop
  the whole run (401, 403, 404: every later request would fail the same way);
- **secrets kept out**: the API key is read from the environment
  (:func:`api_key_from_env`) and scrubbed from every message this module
  produces (:class:`Secrets`).

The jitter of attempt ``n`` of the request with key ``k`` is drawn from
``random.Random(f"{seed}:{k}:{n}")``, so a run's waiting pattern is
reproducible.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import re
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlsplit, urlunsplit

from ipb.respond.records import RunError

__all__ = [
    "KEY_VARIABLES",
    "JUDGE_KEY_VARIABLES",
    "api_key_from_env",
    "Secrets",
    "ANSWER_FIELDS",
    "scrub_record",
    "public_url",
    "check_base_url",
    "message_text",
    "RetryPolicy",
    "Completion",
    "RequestFailed",
    "ChatClient",
]

#: Environment variables holding the respondent's API key, first set wins.
KEY_VARIABLES = ("IPB_API_KEY", "OPENAI_API_KEY")
#: Environment variables holding the judge's API key, first set wins.
JUDGE_KEY_VARIABLES = ("IPB_JUDGE_API_KEY", "IPB_API_KEY", "OPENAI_API_KEY")

#: HTTP statuses retried besides 5xx.
RETRY_STATUSES = frozenset({408, 409, 425, 429})
#: HTTP statuses that stop the run: the key or the model is wrong for every request.
FATAL_STATUSES = frozenset({401, 403, 404})

#: Sent as the key when none is set (local servers such as vLLM or Ollama ignore it).
NO_KEY = "EMPTY"


def api_key_from_env(variables: Sequence[str] = KEY_VARIABLES, environ: Mapping[str, str] | None = None) -> str | None:
    """The first non-empty value among ``variables`` in the environment, or None."""
    env = os.environ if environ is None else environ
    for name in variables:
        value = env.get(name)
        if value:
            return value
    return None


#: An authorization scheme and its credentials, as an echoed header shows them ("Authorization: Basic dXNlcjpw").
_AUTH_VALUE = re.compile(r"(?i)\b(basic|bearer|token)\s+([A-Za-z0-9+/=._~-]{6,})")
#: A credential has a digit or a sign in it, or is long; a short run of letters is a word of prose (s50break: ipb's
#: own "the token budget ran out" was recorded as "the token [REDACTED] ran out").
_CREDENTIAL = re.compile(r"[0-9+/=_~-]|[A-Za-z]\.[A-Za-z0-9]|^.{20,}$")


def _mask_auth(match: re.Match[str], mask: str) -> str:
    value = match.group(2)
    if _CREDENTIAL.search(value.rstrip(".")) is None:
        return match.group(0)
    return f"{match.group(1)} {mask}"
#: The user info of a URL ("https://user:password@host").
_URL_USERINFO = re.compile(r"://[^/\s@:]*:[^/\s@]*@")
#: A key-like query parameter of a URL ("?api_key=...", "&token=...").
_URL_KEY = re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|auth|password|secret)=)[^&\s\"']+")


class Secrets:
    """Strings that must never be written where a key can appear; :meth:`scrub` replaces them.

    Scrubbed: error messages (an error body may quote the request's headers or
    URL), the run's terminal output and every field of a response record but
    the model's answer (:func:`scrub_record`). The answer itself is data: it is
    recorded and scored as the model wrote it, even when it quotes the key
    (only a server or proxy that echoes the key can make it do so; ``ipb
    respond`` then warns). Only values of a plausible key length
    (:attr:`MIN_LENGTH` characters or more) are treated as secrets: a
    4-character "key" would rewrite ordinary words ("the first [REDACTED]")
    and protect nothing. :meth:`scrub_error` also masks credentials that are
    not known values: an ``Authorization`` header's token (Basic or Bearer)
    and the user info or key parameters of a URL.

    >>> s = Secrets(["sk-abc123-0123456789"])
    >>> s.scrub("bad key sk-abc123-0123456789!")
    'bad key [REDACTED]!'
    >>> Secrets(["abcd"]).scrub("abcd")
    'abcd'
    >>> Secrets().scrub_error("echo: Authorization: Basic dXNlcjpwYXNzd29yZA== at https://u:pw@h.example/v1?api_key=x1")
    'echo: Authorization: Basic [REDACTED] at https://[REDACTED]@h.example/v1?api_key=[REDACTED]'
    """

    MASK = "[REDACTED]"
    #: Shortest value treated as a secret.
    MIN_LENGTH = 12

    def __init__(self, values: Sequence[str | None] = ()) -> None:
        self._values: list[str] = []
        for v in values:
            self.add(v)

    def add(self, value: str | None) -> None:
        if value and len(value) >= self.MIN_LENGTH and value != NO_KEY and value not in self._values:
            self._values.append(value)
            self._values.sort(key=len, reverse=True)

    def values(self) -> tuple[str, ...]:
        """The secrets held (for merging into another :class:`Secrets`; never to be printed)."""
        return tuple(self._values)

    def scrub(self, text: str) -> str:
        """``text`` with every held secret replaced by :attr:`MASK`."""
        for value in self._values:
            if value in text:
                text = text.replace(value, self.MASK)
        return text

    def scrub_error(self, text: str) -> str:
        """:meth:`scrub`, and credentials in headers and URLs masked whether known or not (for error messages only:
        the header pattern would also hit prose such as "Basic Materials")."""
        text = _AUTH_VALUE.sub(lambda m: _mask_auth(m, self.MASK), self.scrub(text))
        text = _URL_USERINFO.sub(f"://{self.MASK}@", text)
        return _URL_KEY.sub(lambda m: m.group(1) + self.MASK, text)

    def __bool__(self) -> bool:
        return bool(self._values)


#: Fields of a response record that hold the model's own text: recorded as the model wrote them, never scrubbed.
ANSWER_FIELDS = ("response",)


#: Fields (at any depth) that hold error messages: scrubbed with :meth:`Secrets.scrub_error`.
ERROR_FIELDS = ("error", "fatal")


def scrub_record(record: Mapping[str, Any], secrets: Secrets) -> dict[str, Any]:
    """A copy of a response record with the secrets scrubbed from every string but the answer.

    The answer (:data:`ANSWER_FIELDS`) is what is scored; rewriting it would
    change a score. Error fields (:data:`ERROR_FIELDS`, at any depth, the
    judgment's included) get :meth:`Secrets.scrub_error`, since an error body
    may quote headers and URLs; every other string (settings, prompt, context)
    gets :meth:`Secrets.scrub`, the known keys only, so prose is never
    rewritten.

    >>> s = Secrets(["sk-abc123-0123456789"])
    >>> scrub_record({"response": "key sk-abc123-0123456789", "error": "HTTP 400: sk-abc123-0123456789",
    ...               "context": "Basic Materials"}, s)
    {'response': 'key sk-abc123-0123456789', 'error': 'HTTP 400: [REDACTED]', 'context': 'Basic Materials'}
    """

    def walk(value: Any, error: bool) -> Any:
        if isinstance(value, str):
            return secrets.scrub_error(value) if error else secrets.scrub(value)
        if isinstance(value, Mapping):
            return {k: walk(v, error or k in ERROR_FIELDS) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v, error) for v in value]
        return value

    return {k: (v if k in ANSWER_FIELDS else walk(v, k in ERROR_FIELDS)) for k, v in record.items()}


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment (what may be recorded).

    >>> public_url("https://user:pw@example.invalid/v1?key=abc")
    'https://example.invalid/v1'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def check_base_url(url: str) -> str:
    """``url`` if it can serve as an OpenAI-compatible base URL, else a RunError.

    A base URL with user info (``https://user:pw@host/v1``), a query or a
    fragment is refused: the client would build wrong request paths from it and
    send the user info as Basic auth in place of the Bearer key. The message
    quotes only :func:`public_url`, so no password is echoed.

    >>> check_base_url("http://127.0.0.1:8000/v1")
    'http://127.0.0.1:8000/v1'
    """
    parts = urlsplit(url)
    problem = None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        problem = "it must be an http:// or https:// URL with a host"
    elif parts.username is not None or parts.password is not None or "@" in parts.netloc:
        problem = "it holds user info (user:password@); put the key in IPB_API_KEY instead"
    elif parts.query or parts.fragment or url.rstrip().endswith(("?", "#")):
        problem = "it has a query or fragment; give the plain base URL such as https://host/v1"
    if problem is not None:
        raise RunError(f"base URL {public_url(url)!r} is refused: {problem}", rule="base-url", name="base_url")
    return url


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attempt ``n`` (0-based) that fails waits ``min(max_s, base_s * 2**n)``
    times a factor drawn uniformly from [0.5, 1.0) (seeded), and at least the
    server's ``Retry-After`` (capped at ``max_s``). ``retries`` is the
    number of retries after the first attempt.
    """

    retries: int = 6
    base_s: float = 1.0
    max_s: float = 60.0
    seed: int = 0

    def delay(self, attempt: int, key: str, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` of request ``key``.

        >>> p = RetryPolicy(base_s=1.0, max_s=8.0)
        >>> p.delay(0, "k") == p.delay(0, "k"), 0.5 <= p.delay(0, "k") < 1.0, 4.0 <= p.delay(9, "k") < 8.0
        (True, True, True)
        """
        ceiling = min(self.max_s, self.base_s * (2 ** min(attempt, 30)))
        wait = ceiling * (0.5 + 0.5 * random.Random(f"{self.seed}:{key}:{attempt}").random())
        if retry_after is not None and retry_after > 0:
            wait = max(wait, min(retry_after, self.max_s))
        return wait


@dataclass(frozen=True)
class Completion:
    """A successful response: the text and what the server said about it."""

    text: str
    finish_reason: str | None
    usage: dict[str, int | None] | None
    latency_s: float
    attempts: int = 1


class RequestFailed(Exception):
    """A request that failed for good (after any retries).

    ``kind`` is one of ``rate_limit``, ``server``, ``timeout``,
    ``connection``, ``malformed``, ``client`` (4xx other than those that stop
    the run), ``fatal`` (401/403/404), ``empty`` (no text in the completion)
    or ``internal``.
    """

    def __init__(self, message: str, *, kind: str, status: int | None = None, retryable: bool = False,
                 fatal: bool = False, retry_after: float | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.status = status
        self.retryable = retryable
        self.fatal = fatal
        self.retry_after = retry_after
        self.attempts = attempts

    def describe(self) -> str:
        """One line for a record's ``error`` field."""
        status = f"HTTP {self.status}: " if self.status is not None else ""
        tries = f" (after {self.attempts} attempts)" if self.attempts > 1 else ""
        return f"{self.kind}: {status}{self.message}{tries}"


class _Malformed(Exception):
    pass


class _Deadline(Exception):
    pass


#: The most bytes one response body may hold: far beyond any completion (a model's token budget is some
#: thousands of tokens), near enough that a server streaming without end cannot fill the memory before the
#: time-out ends the attempt (one such stream held 3.2 GB after 30 s, s47break).
MAX_BODY_BYTES = 64 * 1024 * 1024


class _BodyTooLarge(Exception):
    pass


class _UnknownCoding(_BodyTooLarge):
    """A body in a content coding other than gzip or deflate (the only ones ipb asks for): refused unread, since
    its decoded size could not be counted against the cap."""


#: The content codings ipb accepts (and names in its Accept-Encoding header); zlib window bits for each.
_CODINGS = {"gzip": 16 + 15, "deflate": 15}


class _Inflation:
    """Counts the bytes a gzip- or deflate-encoded body decodes to, in bounded pieces, without keeping them.

    The cap in :func:`_capped_body` counts the bytes on the wire, but the HTTP client decodes a body sent with
    ``Content-Encoding: gzip`` after that, so 200 KB of gzip became 200 MB in memory (s48break). This decodes the
    same bytes a second time only to count them; a body the decoder cannot read is left to the HTTP client's
    own error.
    """

    def __init__(self, codings: Sequence[str], limit: int) -> None:
        # decoded in the reverse of the order in which the codings were applied
        self.layers = [self._decoder(name) for name in reversed(codings)]
        self.first = [True] * len(self.layers)
        self.codings = list(reversed(codings))
        self.limit = limit
        self.total = 0
        self.broken = False

    @staticmethod
    def _decoder(name: str) -> Any:
        return zlib.decompressobj(_CODINGS[name])

    def feed(self, data: bytes) -> None:
        if not self.broken:
            try:
                self._push(0, data)
            except zlib.error:
                self.broken = True  # the HTTP client's decoder fails on the same bytes and says so

    def _push(self, depth: int, data: bytes) -> None:
        if depth == len(self.layers):
            self.total += len(data)
            if self.total > self.limit:
                sent = ", ".join(reversed(self.codings))
                raise _BodyTooLarge(f"the response body decodes (Content-Encoding: {sent}) to more than "
                                    f"{self.limit:,} bytes; the read was stopped there (a compressed bomb?)")
            return
        while data:
            layer = self.layers[depth]
            try:
                out = layer.decompress(data, 1 << 20)
            except zlib.error:
                if not (self.first[depth] and self.codings[depth] == "deflate"):
                    raise
                # 'deflate' is sent both with and without the zlib header; raw deflate is tried next
                self.layers[depth] = zlib.decompressobj(-15)
                self.first[depth] = False
                continue
            self.first[depth] = False
            self._push(depth + 1, out)
            data = layer.unconsumed_tail


def _capped_body(limit: int) -> Callable[[Any], None]:
    """An httpx response hook that ends the read of a body longer than ``limit`` bytes with :class:`_BodyTooLarge`.

    It wraps the response's byte stream before the client reads it, so the cap holds for a body without a length
    (chunked, or ended by closing the connection) as well as for one that states a length. The wrapper derives
    from the ``SyncByteStream`` of the HTTP package the response comes from (the openai client may bring its own
    copy of httpx under another name, and the response checks the stream's class).
    """
    made: dict[type, type] = {}

    def capped(base: type) -> type:
        if base not in made:
            def iterate(self: Any) -> Any:
                seen = 0
                for chunk in self.inner:
                    seen += len(chunk)
                    if seen > limit:
                        raise _BodyTooLarge(f"the response body is longer than {limit:,} bytes; the read was "
                                            "stopped there (a server sending without end?)")
                    if self.inflation is not None:
                        self.inflation.feed(chunk)
                    yield chunk

            def close(self: Any) -> None:
                inner_close = getattr(self.inner, "close", None)
                if inner_close is not None:
                    inner_close()

            made[base] = type("CappedStream", (base,), {"__iter__": iterate, "close": close})
        return made[base]

    def hook(response: Any) -> None:
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise _BodyTooLarge(f"the response body is {int(length):,} bytes, longer than {limit:,}; it was not "
                                "read")
        codings = [part.strip().lower() for part in response.headers.get("content-encoding", "").split(",")]
        codings = [name for name in codings if name not in ("", "identity")]
        unknown = [name for name in codings if name not in _CODINGS]
        if unknown:
            raise _UnknownCoding(f"the response body is sent in content coding {unknown[0]!r}, which ipb did not ask "
                                 "for (it reads gzip, deflate or none); it was not read")
        package = importlib.import_module(type(response).__module__.split(".")[0])
        stream = capped(package.SyncByteStream)()
        stream.inner = response.stream
        stream.inflation = _Inflation(codings, limit) if codings else None
        response.stream = stream

    return hook


def _too_large(exc: BaseException) -> _BodyTooLarge | None:
    """The :class:`_BodyTooLarge` that ``exc`` is or was raised from (the openai client wraps it in a connection
    error), or None."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, _BodyTooLarge):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _short(text: str, limit: int = 500) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _classify(exc: BaseException) -> RequestFailed:
    import openai

    too_large = _too_large(exc)
    if too_large is not None:  # not retried: the same server would send the same endless body again
        return RequestFailed(str(too_large), kind="malformed")
    if isinstance(exc, _Malformed):
        return RequestFailed(f"malformed response body: {_short(str(exc))}", kind="malformed", retryable=True)
    if isinstance(exc, _Deadline):
        return RequestFailed(f"request timed out: {exc}", kind="timeout", retryable=True)
    if isinstance(exc, openai.APITimeoutError):
        return RequestFailed("request timed out", kind="timeout", retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        return RequestFailed(f"connection failed: {_short(str(exc))}", kind="connection", retryable=True)
    if isinstance(exc, openai.APIResponseValidationError):
        return RequestFailed(f"malformed response body: {_short(str(exc))}", kind="malformed",
                             status=getattr(exc, "status_code", None), retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = int(exc.status_code)
        message = _short(getattr(exc, "message", None) or str(exc))
        if status == 429:
            return RequestFailed(message, kind="rate_limit", status=status, retryable=True, retry_after=_retry_after(exc))
        if status >= 500 or status in RETRY_STATUSES:
            return RequestFailed(message, kind="server", status=status, retryable=True, retry_after=_retry_after(exc))
        if status in FATAL_STATUSES:
            return RequestFailed(message, kind="fatal", status=status, fatal=True)
        return RequestFailed(message, kind="client", status=status)
    if isinstance(exc, (json.JSONDecodeError, ValueError, TypeError, AttributeError, KeyError, IndexError,
                        RecursionError)):  # (RecursionError: a body nested too deep to decode, s47break)
        # the client could not make sense of the body (pydantic's ValidationError is a ValueError)
        return RequestFailed(f"malformed response body: {type(exc).__name__}: {_short(str(exc))}", kind="malformed",
                             retryable=True)
    if isinstance(exc, openai.OpenAIError):
        return RequestFailed(_short(str(exc)), kind="client")
    return RequestFailed(f"{type(exc).__name__}: {_short(str(exc))}", kind="internal")


#: Largest token count kept from a server's ``usage``: a count beyond it (``1e300``) is not a count.
MAX_USAGE_TOKENS = 10**15


def _usage(raw: Any) -> dict[str, int | None] | None:
    """The token counts of a response's ``usage``: each a non-negative whole number up to :data:`MAX_USAGE_TOKENS`,
    else None; the whole of it None when nothing is there or no count is usable.

    A server that sent ``"prompt_tokens": Infinity`` (Python's JSON reader accepts it) made ``int()`` raise
    OverflowError and the answer was lost (s53break item 6); such a count is now None and the answer is kept.

    >>> _usage({"prompt_tokens": float("inf"), "completion_tokens": 12.0, "total_tokens": float("nan")})
    {'prompt_tokens': None, 'completion_tokens': 12, 'total_tokens': None}
    >>> _usage({"prompt_tokens": 1e300}) is None
    True
    """
    if raw is None:
        return None
    out: dict[str, int | None] = {}
    for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
        try:
            value = getattr(raw, name, None) if not isinstance(raw, dict) else raw.get(name)
        except Exception:  # a server object whose attribute raises: no count, the answer still stands
            value = None
        count: int | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
                and 0 <= value <= MAX_USAGE_TOKENS:
            count = int(value)
        out[name] = count
    return out if any(v is not None for v in out.values()) else None


def message_text(content: Any) -> str | None:
    """The text of a message's ``content``: a string, or a list of parts whose text parts are joined.

    Some OpenAI-compatible servers send ``content`` as a list of parts such as
    ``{"type": "text", "text": "..."}``; their text parts are concatenated in
    order and other parts (images, refusals) are left out. A part that is a
    bare string is text too, and so is a ``text`` given as ``{"value": "..."}``
    (the Assistants API's shape); a part whose text is anything else is left out.

    Raises
    ------
    _Malformed
        ``content`` is neither None, a string nor a list of parts.

    >>> message_text([{"type": "text", "text": "1. Gate: PROCEED"}, {"type": "text", "text": "\\nFinal verdict: BUY"}])
    '1. Gate: PROCEED\\nFinal verdict: BUY'
    >>> message_text(["1. Gate: PROCEED", {"type": "text", "text": {"value": "\\nFinal verdict: BUY"}}])
    '1. Gate: PROCEED\\nFinal verdict: BUY'
    """
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        texts: list[str] = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
                continue
            kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
            text = part.get("text") if isinstance(part, dict) else getattr(part, "text", None)
            if isinstance(text, dict):
                text = text.get("value")
            elif text is not None and not isinstance(text, str):
                text = getattr(text, "value", None)
            if kind in (None, "text", "output_text") and isinstance(text, str):
                texts.append(text)
        return "".join(texts) if texts else None
    raise _Malformed(f"message content is {type(content).__name__}, not text")


def _extract(response: Any) -> tuple[str | None, str | None, dict[str, int | None] | None]:
    """(text, finish_reason, usage) of a chat completion; raises _Malformed when it is not one."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise _Malformed(f"no choices in the response ({type(response).__name__}: {_short(repr(response), 200)})")
    first = choices[0]
    message = getattr(first, "message", None)
    if message is None:
        raise _Malformed("the first choice has no message")
    content = message_text(getattr(message, "content", None))
    finish = getattr(first, "finish_reason", None)
    return content, (str(finish) if finish is not None else None), _usage(getattr(response, "usage", None))


class _Pause:
    """A moment before which no request starts (set by a 429)."""

    def __init__(self) -> None:
        self._until = 0.0
        self._lock = threading.Lock()

    def extend(self, seconds: float) -> None:
        with self._lock:
            self._until = max(self._until, time.monotonic() + seconds)

    def wait(self, sleep: Callable[[float], None]) -> None:
        with self._lock:
            left = self._until - time.monotonic()
        if left > 0:
            sleep(left)


@dataclass
class ChatClient:
    """An OpenAI-compatible chat endpoint.

    Parameters
    ----------
    base_url : str
        E.g. ``https://openrouter.ai/api/v1`` or ``http://127.0.0.1:8000/v1``.
    api_key : str, optional
        Default :func:`api_key_from_env`; a server that needs none gets ``EMPTY``.
    timeout_s : float
        Seconds one attempt may take in all (connect, send, and the whole
        response), not per read.
    concurrency : int
        Requests in flight at most.
    policy : RetryPolicy
    secrets : Secrets
        Scrubbed from every error message; the key is added to it.

    Raises
    ------
    RunError
        The ``openai`` package is not installed.
    """

    base_url: str
    api_key: str | None = None
    timeout_s: float = 120.0
    concurrency: int = 4
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    secrets: Secrets = field(default_factory=Secrets)
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        try:
            import openai
        except ImportError:
            raise RunError("model runs need the 'openai' package; install it (pip install openai)", rule="dependency",
                           name="openai") from None
        check_base_url(self.base_url)
        key = self.api_key if self.api_key is not None else api_key_from_env()
        self.secrets.add(key)
        base_url, timeout_s = self.base_url, self.timeout_s

        def new_client() -> Any:
            http = openai.DefaultHttpxClient(event_hooks={"response": [_capped_body(MAX_BODY_BYTES)]},
                                             headers={"Accept-Encoding": ", ".join(_CODINGS)})
            return openai.OpenAI(api_key=key or NO_KEY, base_url=base_url, max_retries=0, timeout=timeout_s,
                                 http_client=http)

        self._new_client = new_client
        self._slots = threading.BoundedSemaphore(max(1, self.concurrency))
        self._pause = _Pause()
        self.api_key = None  # only the openai client keeps it

    def _attempt(self, model: str, sent: list[Any], kwargs: Mapping[str, Any]) -> Any:
        """One request under a *total* deadline of ``timeout_s`` (the openai client's own timeout is per read).

        The request runs on a helper thread with its own connection; when the
        deadline passes, that connection is closed (which ends the thread) and a
        retryable time-out is raised. So a server that trickles one byte a second
        cannot hold an attempt longer than ``timeout_s``.
        """
        client = self._new_client()
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["response"] = client.chat.completions.create(model=model, messages=sent, **kwargs)
            except BaseException as exc:  # handed to the caller
                box["error"] = exc

        worker = threading.Thread(target=run, name="ipb-request", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive():
            client.close()
            worker.join(5.0)
            raise _Deadline(f"no complete response within {self.timeout_s:g} s")
        client.close()
        if "error" in box:
            raise box["error"]
        return box["response"]

    def complete(self, model: str, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any], key: str) -> Completion:
        """Send one chat completion, retrying as the policy says.

        Parameters
        ----------
        model : str
        messages : sequence of {"role", "content"}
        params : mapping
            ``temperature``, ``max_tokens``, ``top_p``, ``seed`` (None: not
            sent) and ``extra_body`` (sent as extra JSON fields).
        key : str
            The request's hash (seeds the jitter).

        Raises
        ------
        RequestFailed
            Not retryable, or still failing after ``policy.retries`` retries;
            its message has every secret scrubbed.
        """
        kwargs: dict[str, Any] = {k: v for k, v in params.items() if k != "extra_body" and v is not None}
        extra = params.get("extra_body")
        if extra:
            kwargs["extra_body"] = dict(extra)
        attempt = 0
        while True:
            self._pause.wait(self.sleep)
            with self._slots:
                started = time.monotonic()
                try:
                    sent: list[Any] = [dict(m) for m in messages]
                    response = self._attempt(model, sent, kwargs)
                    text, finish, usage = _extract(response)
                    failure = None
                except Exception as exc:  # every failure becomes a value
                    failure = _classify(exc)
                latency = time.monotonic() - started
            if failure is None:
                if text is None or not text.strip():
                    raise RequestFailed(
                        f"empty completion (finish_reason={finish})"
                        + ("; the token budget ran out: raise --max-tokens" if finish == "length" else ""),
                        kind="empty", attempts=attempt + 1)
                return Completion(text, finish, usage, round(latency, 3), attempt + 1)
            failure.message = self.secrets.scrub_error(failure.message)
            failure.attempts = attempt + 1
            if not failure.retryable or attempt >= self.policy.retries:
                raise failure
            wait = self.policy.delay(attempt, key, failure.retry_after)
            if failure.kind == "rate_limit":
                self._pause.extend(wait)
            else:
                self.sleep(wait)
            attempt += 1
