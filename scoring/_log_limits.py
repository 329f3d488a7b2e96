"""Size and shape limits on the answer files ``ipb score`` reads (s53break items 1, 2, 3 and 7).

Limits
------
:data:`MAX_RECORD_BYTES` (64 MiB, the cap ``ipb respond`` puts on one response body)
    One record: a line of a JSON Lines responses or items file, or one member (``header.json``, a
    ``samples/*.json``) of an inspect_ai ``.eval`` archive, uncompressed. A longer line is one bad
    record and is skipped without being held in memory; a member whose declared size is over the
    limit is refused before it is read, and a member is never read past the limit whatever it
    declares (a zip can lie about its sizes).
:data:`MAX_LOG_BYTES` (1 GiB)
    A whole inspect_ai ``.json`` log, which is one JSON document and so is read whole.

A JSON document nested deeper than :data:`ipb.engine._json.MAX_JSON_DEPTH` levels is refused with the
words the JSON Lines reader uses (:func:`ipb.engine._json.json_depth_error`), before the standard
library's parser could overflow Python's stack.
"""

from __future__ import annotations

import re
import zipfile
from typing import BinaryIO

from ipb.engine._json import json_document

__all__ = ["MAX_RECORD_BYTES", "MAX_LOG_BYTES", "read_line_limited", "member_problem", "read_member",
           "log_document", "looks_like_inspect_log"]

#: Most bytes of one record (a JSON Lines line, one ``.eval`` member uncompressed): ``ipb respond``'s
#: ``MAX_BODY_BYTES``, so no answer it wrote is refused (tests/robustness/test_breaker53_findings.py checks they agree).
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: Most bytes of an inspect_ai ``.json`` log, read whole as one JSON document.
MAX_LOG_BYTES = 1024 * 1024 * 1024
#: How much :func:`read_line_limited` and :func:`read_member` read at a time.
_CHUNK = 1 << 20
#: Deflate and Zstandard frames cost a few bytes per block; a member whose compressed size passes its declared size by
#: more than this share (plus :data:`_SLACK` bytes) declares a size smaller than what it holds.
_OVERHEAD = 0.01
_SLACK = 4096


def _mib(n: int) -> str:
    return f"{n / 2**20:,.0f} MiB" if n >= 2**20 else f"{n:,} bytes"


def read_line_limited(handle: BinaryIO, limit: int = MAX_RECORD_BYTES) -> tuple[bytes, bool]:
    """The next line of ``handle`` (with its ``\\n``; ``b""`` at the end), and whether it was longer than ``limit``.

    A longer line is read to its end in chunks and dropped: what comes back is its first ``limit`` bytes
    and True, and memory never holds more than that (s53break item 3: a 1.6 GB line was read whole).

    >>> import io
    >>> h = io.BytesIO(b"abcdef\\nxy\\n")
    >>> read_line_limited(h, 4), read_line_limited(h, 4), read_line_limited(h, 4)
    ((b'abcd', True), (b'xy\\n', False), (b'', False))
    """
    line = handle.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):  # the whole line (at most ``limit`` bytes before its newline)
        return line, False
    while True:  # skip the rest of the long line
        rest = handle.readline(_CHUNK)
        if not rest or rest.endswith(b"\n"):
            break
    return line[:limit], True


def member_problem(info: zipfile.ZipInfo, limit: int = MAX_RECORD_BYTES) -> str | None:
    """Why the ``.eval`` member ``info`` is not read, from its declared sizes alone; None when it may be.

    A member declared larger than ``limit`` uncompressed is refused; so is one whose compressed data is
    larger than its declared size allows (a member that lies about its size).

    >>> info = zipfile.ZipInfo("samples/a_epoch_1.json"); info.file_size = 1_610_613_174; info.compress_size = 1_565_713
    >>> print(member_problem(info))
    samples/a_epoch_1.json is 1,536 MiB uncompressed; ipb reads log members of at most 64 MiB
    """
    if info.file_size > limit:
        return (f"{info.filename} is {_mib(info.file_size)} uncompressed; ipb reads log members of at most "
                f"{_mib(limit)}")
    if info.compress_size > info.file_size * (1 + _OVERHEAD) + _SLACK:
        return (f"{info.filename} declares {info.file_size:,} bytes but holds {info.compress_size:,} compressed: "
                "a damaged archive (or one that lies about its sizes)")
    return None


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int = MAX_RECORD_BYTES, *,
                keep: bool = True) -> bytes:
    """The bytes of member ``info``, read in chunks and never past ``limit`` (nor past its declared size).

    ``keep=False`` only checks the member (``b""`` back): read through to its end, within the limit, its CRC-32
    checked by :mod:`zipfile`, holding one chunk at a time. A member that inflates past the size it declares
    fails that check, since :mod:`zipfile` stops at the declared size.

    Raises
    ------
    ValueError
        The member is refused (:func:`member_problem`), it holds more than ``limit`` bytes whatever it
        declares, or it cannot be decompressed (a bad CRC, a damaged stream); the message names the member.
    """
    problem = member_problem(info, limit)
    if problem is not None:
        raise ValueError(problem)
    parts: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as stream:
            while size <= limit:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if keep:
                    parts.append(chunk)
    except NotImplementedError:  # a compression method this Python cannot read (Zstandard): the caller says so
        raise
    except Exception as exc:  # zipfile.BadZipFile (a bad CRC), zlib.error, EOFError, zstd's error: a damaged member
        raise ValueError(f"{info.filename} cannot be read from the archive ({type(exc).__name__}: {exc})") from None
    if size > limit:
        raise ValueError(f"{info.filename} holds more than {_mib(limit)} uncompressed; ipb reads log members of at "
                         f"most {_mib(limit)}")
    return b"".join(parts)


#: The opening of an inspect_ai ``.json`` log: ``EvalLog`` writes ``version`` (a number) first, then ``status`` or
#: ``eval``. An lm-eval ``results_*.json`` opens with ``"results"`` and a responses record with its own keys.
_INSPECT_OPENING = re.compile(rb'\A\s*\{\s*"version"\s*:\s*[0-9]+\s*,\s*"(?:status|eval)"\s*:')


def looks_like_inspect_log(head: bytes) -> bool:
    """Whether ``head`` (a ``.json`` file's first bytes) opens like an inspect_ai log, whole or cut off.

    >>> looks_like_inspect_log(b'{"version": 2, "status": "success", "eval": {')
    True
    >>> looks_like_inspect_log(b'{"item_id": "a", "response": "x"}')
    False
    """
    return _INSPECT_OPENING.match(head) is not None


#: The value of a log's bytes (a whole ``.json`` log or one ``.eval`` member): the project's one bounded reader of
#: whole JSON documents, :func:`ipb.engine._json.json_document` (rules ``json-depth``, ``encoding``, ``json-syntax``;
#: ``file`` names the file or ``FILE:MEMBER``). It lived here until s54brfix moved it where report and respond reach it.
log_document = json_document
