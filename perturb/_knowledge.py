"""The knowledge version an item records for condition B (``conditions.B.knowledge_sha256``).

Condition B of a model run (:mod:`ipb.respond.knowledge`) retrieves knowledge
cards rendered from two sources: the investor's entry in the investor
registry (``frameworks/investors.yaml`` and any ``--investors`` file) and the
framework cards that entry lists. The renderings themselves are versioned by
:data:`KNOWLEDGE_VERSION`. Items are made before any model run, and this layer
does not render knowledge cards, so an item records a SHA-256 over those
sources instead: if it differs at run time, the cards condition B can send
differ from those it could send when the item was made.

Canonical form: the UTF-8 bytes of the JSON text (sorted keys, no spaces,
non-ASCII characters as themselves, i.e. ``json.dumps(value, sort_keys=True,
separators=(",", ":"), ensure_ascii=False)``) of ::

    {"investors": [ENTRY, ...], "knowledge_version": KNOWLEDGE_VERSION}

with one ``ENTRY`` per investor name, in the order given, duplicates dropped::

    {"name": NAME,
     "registry": null or {"id", "name", "organisation", "school", "active_start", "active_end",
                          "distinctive_phrases": [...], "milestones": [[DATE, DESCRIPTION], ...]},
     "cards": [{"id": CARD_ID, "content_hash": HASH}, ...]}

``registry`` is the entry ``NAME`` refers to, found as
:func:`ipb.engine.investors.get_investor` finds it (the entry's id, or its name
or an alias compared without case and with runs of spaces as one, the fold by
which the registry keeps names apart; null when the registry has none, and
then condition B refuses the investor); dates are written as the registry
writes them (``1965``, ``1965-05``); ``cards`` are the framework cards the
entry lists, in its order, each with the content hash of the card file found
for that id.

Examples
--------
>>> value = knowledge_sha256(["Warren Buffett"])
>>> len(value), value == knowledge_sha256(["Warren Buffett", "Warren Buffett"])
(64, True)
>>> knowledge_sha256(["Nobody Known"]) != value
True
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Sequence

from ipb.engine.investors import Investor, UnknownInvestorError, get_investor
from ipb.engine.registry import compiled_card
from ipb.errors import IpbError

__all__ = ["KNOWLEDGE_VERSION", "knowledge_sha256", "knowledge_sources"]

#: Version of the knowledge-card and card-text renderings (recorded with condition B and C runs and hashed into
#: every item's ``conditions.B.knowledge_sha256``).
#: 2: knowledge cards without executable criteria; Retrieval.scope (issue 15, defect 13).
#: 3: a required element's figure that is an ``author_inferred`` constant is left out (stop 33).
KNOWLEDGE_VERSION = 3


def _entry(inv: Investor) -> dict[str, Any]:
    return {"id": inv.id, "name": inv.name, "organisation": inv.organisation, "school": inv.school,
            "active_start": str(inv.active_start),
            "active_end": None if inv.active_end is None else str(inv.active_end),
            "distinctive_phrases": list(inv.distinctive_phrases),
            "milestones": [[str(b.date), b.description] for b in inv.career_boundaries]}


def _card_hash(card_id: str) -> str | None:
    try:
        return compiled_card(card_id).card.content_hash
    except IpbError:  # a listed card that cannot be found or compiled: condition B lacks it too
        return None


def _registered(name: str) -> Investor | None:
    """The registry entry ``name`` refers to (:func:`ipb.engine.investors.get_investor`), or None."""
    try:
        return get_investor(name)
    except UnknownInvestorError:
        return None


def knowledge_sources(investors: Sequence[str]) -> dict[str, Any]:
    """The value :func:`knowledge_sha256` hashes (the module's canonical form, before writing it as JSON)."""
    entries = []
    for name in dict.fromkeys(investors):
        inv = _registered(name)
        entries.append({"name": name, "registry": None if inv is None else _entry(inv),
                        "cards": [] if inv is None else [{"id": c, "content_hash": _card_hash(c)} for c in inv.cards]})
    return {"investors": entries, "knowledge_version": KNOWLEDGE_VERSION}


def knowledge_sha256(investors: Sequence[str]) -> str:
    """SHA-256 (hex) of the knowledge sources of ``investors`` (registry entries, listed cards' content hashes and
    :data:`KNOWLEDGE_VERSION`), in the module's canonical form. Callers keep it per investor list (an item's frame,
    a verify or respond run): it reads the registry and compiles the listed cards."""
    text = json.dumps(knowledge_sources(investors), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
