"""Loaded YAML documents cached by content hash, so a card read again skips the YAML parser.

A document that :func:`~ipb.engine._yaml.load_yaml` loaded without error is
kept as JSON (no pickle: the cache is data, never code) under
``$IPB_CACHE_DIR`` (default ``$XDG_CACHE_HOME/ipb`` or ``~/.cache/ipb``), in
``yaml/<sha256>.json``, the hash covering the text, the loader's options, the
format version of this cache and the ipb version. A new process then reads a
card in about a millisecond instead of the ruamel.yaml parse (tens of
milliseconds for a bundled card), with every value and position the same.
``IPB_NO_CACHE=1`` turns it off; an unreadable, corrupt or unwritable cache is
ignored (the document is parsed as before).
"""

from __future__ import annotations

import hashlib
import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

#: Bump when the stored form changes (2: strings are stored composed, NFC: a document cached before held them as written).
FORMAT = 2


def cache_dir() -> Path:
    """Where ipb keeps caches: ``$IPB_CACHE_DIR``, else ``$XDG_CACHE_HOME/ipb``, else ``~/.cache/ipb``."""
    explicit = os.environ.get("IPB_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ipb"


def _enabled() -> bool:
    return os.environ.get("IPB_NO_CACHE", "") not in ("1", "true", "yes")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("ipb")
    except Exception:  # pragma: no cover - an uninstalled tree
        return "0"


def key(text: str, require_mapping: bool) -> str:
    """The cache key of a document: SHA-256 over the text, the options and the versions."""
    h = hashlib.sha256(f"ipb-yaml-cache {FORMAT} {_version()} {require_mapping}\n".encode("utf-8"))
    h.update(text.encode("utf-8"))
    return h.hexdigest()


def _enc(value: Any) -> Any:
    if isinstance(value, dict):
        return ["m", [[k, _enc(v)] for k, v in value.items()]]
    if isinstance(value, list):
        return ["l", [_enc(v) for v in value]]
    if isinstance(value, Decimal):
        return ["d", str(value)]
    return value  # str, int, bool, None


def _dec(value: Any) -> Any:
    if isinstance(value, list):
        tag, body = value
        if tag == "m":
            return {k: _dec(v) for k, v in body}
        if tag == "l":
            return [_dec(v) for v in body]
        return Decimal(body)
    return value


def load(cache_key: str, file: str) -> Any:
    """The cached :class:`YamlDoc` for ``cache_key`` (named ``file``), or None."""
    if not _enabled():
        return None
    from ipb.engine._yaml import YamlDoc, _Scalar

    path = cache_dir() / "yaml" / f"{cache_key}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return YamlDoc(
            data=_dec(raw["data"]), file=file, lines=raw["lines"],
            _values={tuple(p): (a, b) for p, a, b in raw["values"]},
            _keys={tuple(p): (a, b) for p, a, b in raw["keys"]},
            _scalars={tuple(p): _Scalar(*s) for p, s in raw["scalars"]},
        )
    except (OSError, ValueError, KeyError, TypeError, ArithmeticError):
        return None


def store(cache_key: str, doc: Any) -> None:
    """Keep ``doc`` for ``cache_key`` (atomically; silently skipped when the cache cannot be written)."""
    if not _enabled():
        return
    from ipb._files import write_text_atomic

    payload = {
        "data": _enc(doc.data), "lines": doc.lines,
        "values": [[list(p), a, b] for p, (a, b) in doc._values.items()],
        "keys": [[list(p), a, b] for p, (a, b) in doc._keys.items()],
        "scalars": [[list(p), [s.value, s.style, s.line, s.column, s.end_line]] for p, s in doc._scalars.items()],
    }
    try:
        write_text_atomic(cache_dir() / "yaml" / f"{cache_key}.json", json.dumps(payload, separators=(",", ":")),
                          make_parents=True)
    except (OSError, TypeError, ValueError):
        pass
