"""The data format of shard results: msgpack with a closed set of tagged types, never pickle.

A shard result travels from the worker to the driver and is checkpointed on
disk in this format. Reading it back builds plain data only (``None``,
``bool``, ``int``, ``float``, ``str``, ``bytes``, ``list``, ``dict`` and the
tagged types below), so a checkpoint folder that someone else can write is
not a way to run code in the driver, which ``pickle.loads`` of such a file
would be.

Every value round-trips to an equal value of the same type, so results
unpacked on the driver are what a local run computes:

- tag 1, ``tuple``: its items;
- tag 2, a result class of the library (``Candidate``, ``RecordCheck``): its
  name and fields; only the names in ``_CLASSES`` are accepted;
- tag 3, ``decimal.Decimal``: ``str(d)`` (exact, NaN and signs kept);
- tag 4, ``datetime.date`` and tag 5, ``datetime.datetime``: ISO 8601 (with its UTC offset);
- tag 6, an ``int`` outside 64 bits: its decimal digits;
- tag 7, ``set`` and tag 8, ``frozenset``: its items.

Subclasses of ``float``, ``int``, ``str``, ``list`` and ``dict`` (numpy's
``float64``, a ``str`` enum) and numpy scalars are written as the plain
type. Anything else is a :class:`TypeError` on the worker naming the type,
so the shard fails by key rather than carrying a value the driver cannot read.

``msgpack`` comes with Ray (it is listed in the ``ray`` extra as well) and is
imported on first use.
"""

from __future__ import annotations

import datetime as dt
import importlib
from decimal import Decimal
from typing import Any

__all__ = ["dumps", "loads"]

_TUPLE, _CLASS, _DECIMAL, _DATE, _DATETIME, _BIGINT, _SET, _FROZENSET = range(1, 9)

_CANDIDATE_NAME = "ipb.perturb.generation.Candidate"
#: The library's result classes a shard may return, by module and name: rebuilt from their fields, never
#: by a name read from the file (a name not listed here is an error).
_CLASSES = frozenset({_CANDIDATE_NAME, "ipb.perturb.verify.RecordCheck"})


def _field_names(kind: type) -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(kind)]


def _default(obj: Any) -> Any:
    import msgpack

    kind = type(obj)
    if kind is tuple:
        return msgpack.ExtType(_TUPLE, dumps(list(obj)))
    name = f"{kind.__module__}.{kind.__qualname__}"
    if name in _CLASSES:
        fields = list(obj) if name == _CANDIDATE_NAME else {f: getattr(obj, f) for f in _field_names(kind)}
        return msgpack.ExtType(_CLASS, dumps([name, fields]))
    if kind is Decimal:
        return msgpack.ExtType(_DECIMAL, str(obj).encode("ascii"))
    if kind is dt.datetime:
        return msgpack.ExtType(_DATETIME, obj.isoformat().encode("ascii"))
    if kind is dt.date:
        return msgpack.ExtType(_DATE, obj.isoformat().encode("ascii"))
    if kind is int:  # only reached when it does not fit in 64 bits
        return msgpack.ExtType(_BIGINT, str(obj).encode("ascii"))
    if kind is set or kind is frozenset:
        return msgpack.ExtType(_SET if kind is set else _FROZENSET, dumps(list(obj)))
    if isinstance(obj, bool):
        return bool(obj)
    if isinstance(obj, float):
        return float(obj)
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, str):
        return str.__str__(obj)
    if isinstance(obj, dict):
        return dict(obj)
    if isinstance(obj, list):
        return list(obj)
    item = getattr(obj, "item", None)  # a numpy scalar (numpy.int64, numpy.bool_): its Python value
    if kind.__module__ == "numpy" and callable(item):
        return item()
    raise TypeError(f"a shard result holds a {kind.__module__}.{kind.__qualname__}, which the checkpoint "
                    f"format (ipb.distributed._codec) does not carry")


def _ext(code: int, data: bytes) -> Any:
    if code == _TUPLE:
        return tuple(loads(data))
    if code == _CLASS:
        name, fields = loads(data)
        if name not in _CLASSES:
            raise ValueError(f"a shard result names the class {name!r}, which the checkpoint format does not carry")
        module, _, qualname = name.rpartition(".")
        kind = getattr(importlib.import_module(module), qualname)  # one of the fixed names in _CLASSES
        return kind(*fields) if isinstance(fields, list) else kind(**fields)
    if code == _DECIMAL:
        return Decimal(data.decode("ascii"))
    if code == _DATE:
        return dt.date.fromisoformat(data.decode("ascii"))
    if code == _DATETIME:
        return dt.datetime.fromisoformat(data.decode("ascii"))
    if code == _BIGINT:
        return int(data.decode("ascii"))
    if code == _SET:
        return set(loads(data))
    if code == _FROZENSET:
        return frozenset(loads(data))
    raise ValueError(f"unknown type tag {code} in a shard result")


def dumps(value: Any) -> bytes:
    """``value`` as bytes (see the module's table of types).

    Raises
    ------
    TypeError
        A value of a type the format does not carry (named in the message).
    """
    import msgpack

    return msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True)  # type: ignore[no-any-return]


def loads(blob: bytes) -> Any:
    """The value :func:`dumps` wrote; plain data only, nothing is imported or called by name.

    Raises
    ------
    ValueError
        Bytes that are not a whole value of this format (msgpack's own errors are ``ValueError`` subclasses).
    """
    import msgpack

    return msgpack.unpackb(blob, ext_hook=_ext, strict_map_key=False, raw=False, use_list=True)
