"""A card's ``verdict_synonyms`` field: extra phrases that state its final verdicts (issue 13; read by ipb.scoring.parse).

The card loader (:mod:`ipb.engine.card`) calls :func:`verdict_synonyms_of`
once the gates and their branches are compiled, so every outcome the card
can reach is known.
"""

from __future__ import annotations

import re
from typing import Any

from ipb.errors import LoadError, did_you_mean

__all__ = ["verdict_synonyms_of"]


def verdict_synonyms_of(col: Any, data: dict[str, Any], outcomes: dict[str, str], branches: list[Any]) -> dict[str, tuple[str, ...]]:
    """The card's ``verdict_synonyms`` (outcome -> phrases), checked against the outcomes the card can reach.

    A key must be the card's pass or fail outcome, a branch outcome or
    INCONCLUSIVE ("did you mean" names the closest); a phrase may state only
    one outcome (compared case- and spacing-insensitively). The schema has
    already checked the shapes.
    """
    raw = data.get("verdict_synonyms") or {}
    known = [outcomes["pass"], outcomes["fail"]]
    for b in branches:
        known += [b.pass_outcome, b.fail_outcome]
    known = list(dict.fromkeys(known + ["INCONCLUSIVE"]))
    out: dict[str, tuple[str, ...]] = {}
    owner: dict[str, str] = {}
    for outcome, phrases in raw.items():
        path = ("verdict_synonyms", outcome)
        if outcome not in known:
            col.add(LoadError(f"verdict_synonyms names {outcome!r}, which is not an outcome of this card; outcomes: "
                              f"{', '.join(known)}", rule="verdict-synonym", name=outcome,
                              suggestion=did_you_mean(outcome, known)), path, key=True)
            continue
        for k, phrase in enumerate(phrases):
            norm = " ".join(re.sub(r"[_-]+", " ", phrase).lower().split())
            if norm in owner and owner[norm] != outcome:
                col.add(LoadError(f"verdict synonym {phrase!r} is listed for both {owner[norm]} and {outcome}",
                                  rule="verdict-synonym", name=phrase), path + (k,))
            owner.setdefault(norm, outcome)
        out[outcome] = tuple(phrases)
    return out
