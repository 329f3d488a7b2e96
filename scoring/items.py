"""The items of a scoring run: each item's gold programs, resolved to compiled cards.

:func:`load_items` reads an items file (as ``ipb perturb`` writes it, or any
JSON object with ``id`` and a gold program ``grp``); every bad line is listed
in :attr:`ItemSet.errors` and the rest are kept. An item whose card cannot be
found keeps its error, so each response to it is reported, never dropped.
Also :func:`canonical_condition`, the §7.2 condition letter of a label.

Imports: :mod:`ipb.errors`, :mod:`ipb.perturb.items` and (lazily) :mod:`ipb.engine.registry`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Mapping

from ipb._files import UTF16_SNIFF, compressed_format, file_kind, refuse_utf16
from ipb.engine._json import parse_json_line
from ipb.errors import IpbError, LoadError, ScoreError, did_you_mean
from ipb.perturb._golds import golds_of
from ipb.scoring._log_limits import MAX_RECORD_BYTES, read_line_limited

__all__ = ["Target", "PreparedItem", "ItemSet", "load_items", "item_set", "canonical_condition", "refuse_compressed"]

@dataclass
class Target:
    """One gold program of an item and the card it belongs to."""

    card_id: str
    grp: Mapping[str, Any]
    compiled: Any = None
    investor: str | None = None
    topology: str | None = None
    framework_year: int | None = None
    error: IpbError | None = None


@dataclass
class PreparedItem:
    """An item read from the items file, with its targets resolved (or why it cannot be scored)."""

    id: str
    item: Mapping[str, Any]
    line: int
    targets: list[Target]
    layer: str | None
    error: IpbError | None = None


@dataclass
class ItemSet:
    """The items of a run by id, and every problem met reading them."""

    items: dict[str, PreparedItem]
    errors: list[dict[str, Any]]
    source: str
    sha256: str | None = None
    n_lines: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "sha256": self.sha256,
            "n_records": self.n_lines,
            "n_items": len(self.items),
            "n_unusable": sum(1 for p in self.items.values() if p.error is not None),
            "errors": self.errors,
        }


def _compiled(card_id: str, cache: dict[str, Any]) -> Any:
    if card_id not in cache:
        from ipb.engine.registry import compiled_card, item_card

        try:
            # compiled, not only loaded: a card that fails the graph-level checks of compile_card (a forward
            # re-entry, an unreachable gate, a cycle) is refused here as ``ipb check``/``verify`` refuse it
            # (breaker 3, finding 5). It costs the networkx import (~0.12 s CPU), once per process.
            cache[card_id] = compiled_card(item_card(card_id))
        except IpbError as exc:
            from ipb.engine.registry import bundled_card_paths

            names = [p.stem for p in bundled_card_paths()]
            cache[card_id] = ScoreError(
                f"card {card_id!r} does not exist or cannot be compiled ({_located(exc)})",
                rule="unknown_card", name=card_id,
                suggestion=None if card_id in names else did_you_mean(card_id, names))
    return cache[card_id]


def _located(exc: IpbError) -> str:
    """``exc``'s message after its ``file:line:column``, where it has one (the card line to fix)."""
    where = ":".join(str(part) for part in (exc.file, exc.line, exc.column) if part is not None)
    return f"{where}: {exc.message}" if exc.file else exc.message


def _vintage_start(item: Mapping[str, Any], card_id: str, card: Any) -> int | None:
    manifest = item.get("manifest")
    if isinstance(manifest, Mapping):
        for entry in manifest.get("cards") or ():
            if isinstance(entry, Mapping) and entry.get("id") == card_id:
                vintage = entry.get("vintage")
                if isinstance(vintage, Mapping) and isinstance(vintage.get("start"), int):
                    return int(vintage["start"])
    start = card.vintage[0] if card is not None and getattr(card, "vintage", None) else None
    return start if isinstance(start, int) else None


def _card_refs(item: Mapping[str, Any]) -> list[Any]:
    """Every card an item names: ``card``, ``cards``, ``scenario.card`` and each gold's ``card`` (issue 16)."""
    refs: list[Any] = [item["card"]] if "card" in item else []
    cards = item.get("cards")
    if cards is not None:
        refs += list(cards) if isinstance(cards, list) else [cards]
    scenario = item.get("scenario")
    if isinstance(scenario, Mapping) and "card" in scenario:
        refs.append(scenario["card"])
    for gold in item.get("golds") or () if isinstance(item.get("golds"), list) else ():
        if isinstance(gold, Mapping) and "card" in gold:
            refs.append(gold["card"])
    return refs


def _prepare_item(item: Mapping[str, Any], line: int, source: str, cache: dict[str, Any]) -> PreparedItem:
    ident = str(item.get("id"))
    layer = item.get("layer")
    if not isinstance(layer, str):
        scenario = item.get("scenario")
        layer = scenario.get("layer") if isinstance(scenario, Mapping) and isinstance(scenario.get("layer"), str) else None
    for ref in _card_refs(item):  # an item names its cards by id; a path (/etc/passwd) is refused, as verify/respond do
        from ipb.engine.registry import item_card

        try:
            item_card(ref)
        except LoadError as exc:
            err = ScoreError(exc.message, rule="invalid_item", file=source, line=line)
            return PreparedItem(ident, item, line, [], layer, err)
    try:
        golds = golds_of(item)
    except ScoreError as exc:
        return PreparedItem(ident, item, line, [], layer, exc.with_location(source, line))
    targets = []
    for grp in golds:
        card_id = grp.get("framework")
        if not isinstance(card_id, str):
            err = ScoreError(f"item {ident!r}: a gold program names no 'framework'", rule="invalid_item",
                             file=source, line=line)
            targets.append(Target("?", grp, error=err))
            continue
        compiled = _compiled(card_id, cache)
        if isinstance(compiled, IpbError):
            targets.append(Target(card_id, grp, error=compiled))
            continue
        card = compiled.card
        targets.append(Target(card_id, grp, compiled, card.investor, card.topology_type,
                              _vintage_start(item, card_id, card)))
    return PreparedItem(ident, item, line, targets, layer)


def item_set(items: Iterable[Mapping[str, Any]], *, source: str = "<items>") -> ItemSet:
    """An :class:`ItemSet` from item dicts in memory (each must have a string ``id``)."""
    out = ItemSet({}, [], source)
    cache: dict[str, Any] = {}
    for line, item in enumerate(items, start=1):
        out.n_lines += 1
        _add_item(out, item, line, source, cache)
    return out


def _add_item(out: ItemSet, item: Any, line: int, source: str, cache: dict[str, Any]) -> None:
    if not isinstance(item, Mapping):
        out.errors.append({"line": line, "id": None, "message": f"item {line} is not a JSON object"})
        return
    ident = item.get("id")
    if not isinstance(ident, str) or not ident:
        out.errors.append({"line": line, "id": None, "message": f"item on line {line} has no string 'id'"})
        return
    if ident in out.items:
        out.errors.append({"line": line, "id": ident,
                           "message": f"item id {ident!r} repeats line {out.items[ident].line}; the first is used"})
        return
    out.items[ident] = _prepare_item(item, line, source, cache)


def refuse_compressed(head: bytes, path: Path, what: str) -> None:
    """A LoadError when ``head``, the first bytes of the ``what`` ("items", "responses") file ``path``, starts like a
    compressed file or an archive (:func:`ipb._files.compressed_format`): every line of it would be a "not UTF-8" error
    and nothing would be scored (s47break)."""
    packed = compressed_format(head)
    if packed is not None:
        raise LoadError(f"{what} file {path} is compressed ({packed[0]}), not JSON Lines text: unpack it first "
                        f"({packed[1]} {path})", file=str(path), rule="file")


def load_items(path: str | Path) -> ItemSet:
    """Read an items JSONL file; bad lines are listed in ``errors``, the rest are kept.

    Read one line at a time; a line longer than 64 MiB (:data:`~ipb.scoring._log_limits.MAX_RECORD_BYTES`)
    is a bad line, skipped without being held whole.

    Raises
    ------
    LoadError
        The file cannot be read, or it is not a regular file (a FIFO, which would block, or a device).
    """
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block before it is refused
    except OSError as exc:
        raise LoadError(f"cannot read items file {p}: {exc.strerror or exc}", file=str(p), rule="file") from None
    with open(fd, "rb", closefd=True) as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):  # s52paths: a FIFO hung, a device never ends
            raise LoadError(f"cannot read items file {p}: it is {file_kind(mode)}; ipb reads items only from regular "
                            "files (save a stream to a file first)", file=str(p), rule="file")
        os.set_blocking(handle.fileno(), True)
        try:
            refuse_compressed(handle.peek(8)[:8], p, "items")
            refuse_utf16(handle.peek(UTF16_SNIFF)[:UTF16_SNIFF], str(p), "items file")
            return _read_items(handle, p)
        except OSError as exc:
            raise LoadError(f"cannot read items file {p}: {exc.strerror or exc}", file=str(p), rule="file") from None


def _read_items(handle: BinaryIO, p: Path) -> ItemSet:
    """:func:`load_items` on an open regular file: one line at a time, a line longer than ``MAX_RECORD_BYTES``
    (64 MiB) one bad line skipped without being held whole (s53break item 3), the SHA-256 of every byte read."""
    digest = hashlib.sha256()
    out = ItemSet({}, [], str(p))
    cache: dict[str, Any] = {}
    line = 0
    while True:
        chunk, too_long = read_line_limited(handle)
        if not chunk:
            break
        line += 1
        digest.update(chunk)
        if too_long:
            out.n_lines += 1
            out.errors.append({"line": line, "id": None, "message": f"line {line} is longer than "
                               f"{MAX_RECORD_BYTES // 2**20} MiB; ipb reads items of at most "
                               f"{MAX_RECORD_BYTES // 2**20} MiB (the sha256 of this file covers only what was read)"})
            continue
        chunk = chunk.removesuffix(b"\n")
        if not chunk.strip():
            continue
        out.n_lines += 1
        try:
            text = chunk.decode("utf-8").removesuffix("\r")
            item = parse_json_line(text.removeprefix("\ufeff") if line == 1 else text, str(p), line, exact=False)
        except UnicodeDecodeError as exc:
            out.errors.append({"line": line, "id": None, "message": f"line {line} is not a JSON item ({exc})"})
            continue
        except LoadError as exc:
            out.errors.append({"line": line, "id": None,
                               "message": f"line {line} is not a JSON item ({exc.message} at column {exc.column})"})
            continue
        _add_item(out, item, line, str(p), cache)
    out.sha256 = digest.hexdigest()
    return out


# =========================================================================== conditions

_CONDITIONS = {
    "A": ("a", "closed", "closed_book", "closed-book", "closedbook", "closed book"),
    "B": ("b", "rag", "pkb", "pkb_rag", "pkb-rag", "pkb_augmented", "pkb-augmented", "retrieval"),
    "C": ("c", "oracle"),
}
_CONDITION_OF = {alias: key for key, aliases in _CONDITIONS.items() for alias in aliases}


def canonical_condition(value: str | None) -> str | None:
    """The §7.2 condition letter for a label (``closed_book`` -> ``A``, ``rag`` -> ``B``,
    ``oracle`` -> ``C``), the label itself when it is none of them, None for None.

    >>> [canonical_condition(c) for c in ("A", "closed-book", "RAG", "Oracle", "synthetic")]
    ['A', 'A', 'B', 'C', 'synthetic']
    """
    if value is None:
        return None
    return _CONDITION_OF.get(value.strip().lower(), value)


