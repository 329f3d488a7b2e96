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
for that id, except that while items are made (``ipb perturb``), a listed card
that is one of the run's own cards takes that card's hash (``given``: card id
-> content hash of the cards the run was given, by id or by file path): the
card given counts as the listed card of its id. s61 new user N2: a card given
by file path, with an investor of the user's own registry (``IPB_INVESTORS``),
was "not found" by id at perturb time (hash null) and found in ``ipb-cards/``
beside the items at verify time, so every item failed ``ipb verify``. Verify
and respond look the card up by id, which finds that copy (a copy edited since
then hashes otherwise, and verify says the knowledge differs).

Examples
--------
>>> value = knowledge_sha256(["Warren Buffett"])
>>> len(value), value == knowledge_sha256(["Warren Buffett", "Warren Buffett"])
(64, True)
>>> knowledge_sha256(["Nobody Known"]) != value
True
>>> listed = knowledge_sources(["Warren Buffett"])["investors"][0]["cards"][0]["id"]
>>> knowledge_sources(["Warren Buffett"], {listed: "ab" * 32})["investors"][0]["cards"][0]["content_hash"]
'abababababababababababababababababababababababababababababababab'
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping, Sequence

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


def knowledge_sources(investors: Sequence[str], given: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The value :func:`knowledge_sha256` hashes (the module's canonical form, before writing it as JSON).

    ``given`` maps card id -> content hash of the cards items are being made from (``ipb perturb``); a listed card
    among them takes that hash instead of the one found by id (see the module's text). None: every listed card is
    looked up by id (``ipb verify``, ``ipb respond``)."""
    own = given or {}
    entries = []
    for name in dict.fromkeys(investors):
        inv = _registered(name)
        entries.append({"name": name, "registry": None if inv is None else _entry(inv),
                        "cards": [] if inv is None else [{"id": c, "content_hash": own[c] if c in own else _card_hash(c)}
                                                         for c in inv.cards]})
    return {"investors": entries, "knowledge_version": KNOWLEDGE_VERSION}


def knowledge_sha256(investors: Sequence[str], given: Mapping[str, str] | None = None) -> str:
    """SHA-256 (hex) of the knowledge sources of ``investors`` (registry entries, listed cards' content hashes and
    :data:`KNOWLEDGE_VERSION`), in the module's canonical form; ``given`` as in :func:`knowledge_sources`. Callers
    keep it per investor list (an item's frame, a verify or respond run): it reads the registry and compiles the
    listed cards not given."""
    text = json.dumps(knowledge_sources(investors, given), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
