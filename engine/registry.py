"""The bundled framework cards and scenarios, and lookup by id or path.

Cards ship as package data in ``ipb.frameworks`` (``*.yaml``), scenarios in
``ipb.frameworks/scenarios``; both are read through ``importlib.resources``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Callable, Mapping

from ipb.engine.card import Card, load_card
from ipb.engine.graph import CompiledCard, compile_card
from ipb.errors import IpbError, LoadError, did_you_mean

__all__ = ["bundled_card_paths", "bundled_scenario_paths", "resolve_card", "compiled_card", "card_table", "item_card"]

#: Files in ``frameworks/`` that are data but not cards.
NOT_CARDS = {"investors.yaml", "sectors.yaml", "regimes.yaml"}

#: ``ipb check`` validators for those data files: file name -> (path -> errors).
#: A module that owns such a file registers its validator here.
DATA_FILES: dict[str, Callable[[Path], list[IpbError]]] = {}


def data_file_validator(name: str) -> Callable[[Callable[[Path], list[IpbError]]], Callable[[Path], list[IpbError]]]:
    """Register the ``ipb check`` validator of the data file called ``name`` (e.g. investors.yaml)."""

    def register(fn: Callable[[Path], list[IpbError]]) -> Callable[[Path], list[IpbError]]:
        DATA_FILES[name] = fn
        return fn

    return register


def _skip(path: Path) -> list[IpbError]:
    return []


for _name in NOT_CARDS:
    DATA_FILES.setdefault(_name, _skip)


def _frameworks_dir() -> Path:
    return Path(str(resources.files("ipb.frameworks")))


def bundled_card_paths() -> list[Path]:
    """Every bundled card file, sorted by file name."""
    return sorted(p for p in _frameworks_dir().glob("*.yaml") if p.name not in NOT_CARDS)


def bundled_scenario_paths() -> list[Path]:
    """Every bundled scenario file (``scenarios/<card_id>/*.yaml``), sorted by path."""
    return sorted((_frameworks_dir() / "scenarios").glob("**/*.yaml"))


@lru_cache(maxsize=None)
def _bundled_ids() -> dict[str, Path]:
    ids: dict[str, Path] = {}
    for path in bundled_card_paths():
        ids[path.stem] = path
    return ids


def resolve_card(ref: str) -> Path:
    """The path of a card given as a file path or a bundled card id.

    Raises
    ------
    LoadError
        Neither an existing file nor a bundled id (with a "did you mean").
    """
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise LoadError(f"no such card file: {ref}", file=ref, rule="file")
        return path
    ids = _bundled_ids()
    if ref in ids:
        return ids[ref]
    raise LoadError(
        f"{ref!r} is neither a card file nor a bundled card id",
        file=ref,
        rule="card",
        suggestion=did_you_mean(ref, list(ids)),
    )


_CARD_ID = re.compile(r"[a-z][a-z0-9_]*")


def item_card(ref: object, sources: Mapping[str, str] | None = None) -> str:
    """What to load for the card an item (or a response record) names: never a path taken from the data.

    An item names its card by id. The id resolves through the explicit card
    ``sources`` the user gave (id -> path, e.g. ``card_paths`` of a run), and
    otherwise to a bundled card; a value that is not an id (``/etc/passwd``,
    ``../x.yaml``) is refused, so a data file can never make ipb open a file.
    The one check of this kind: card-source options extend ``sources``.

    Raises
    ------
    LoadError
        Rule ``card-ref``: ``ref`` is not a card id.

    >>> item_card("graham_net_net_screen")
    'graham_net_net_screen'
    >>> item_card("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: <input>: load error: an item names its card by id ..., not a path: '/etc/passwd'
    """
    if isinstance(ref, str) and sources and ref in sources:
        return sources[ref]
    if not isinstance(ref, str) or not _CARD_ID.fullmatch(ref):
        raise LoadError(f"an item names its card by id (lower-case letters, digits, '_'), not a path: {ref!r}",
                        rule="card-ref", name=str(ref)[:100])
    return ref


@lru_cache(maxsize=64)
def _compiled(path: str, mtime: float) -> CompiledCard:
    return compile_card(load_card(path))


def compiled_card(ref: str) -> CompiledCard:
    """Load and compile a card by path or id (cached while the file is unchanged)."""
    path = resolve_card(ref)
    return _compiled(str(path), path.stat().st_mtime)


def card_table(cards: list[Card]) -> list[dict[str, object]]:
    """The paper's Table 5 columns for ``cards``: investor, framework, topology, gate logic, gates, kill gates.

    Practitioner cards come first (in the given order), then institutions; each
    row also says its ``kind``.
    """
    ordered = [c for c in cards if c.kind == "practitioner"] + [c for c in cards if c.kind != "practitioner"]
    return [
        {
            "id": c.id,
            "kind": c.kind,
            "investor": c.investor,
            "name": c.name,
            "topology_type": c.topology_type,
            "gate_logic": c.gate_logic,
            "gates": len(c.gates),
            "kill_gates": len(c.kill_gates),
        }
        for c in ordered
    ]
