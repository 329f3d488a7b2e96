"""A manifest's flip and isolate claims agree with the item's own gold after ``stale_partial`` (stop 63 closing note).

``perturb.partial_derived.stale_partial`` runs after the operators, in generation: a derived fact whose stated source
a move dropped is left out *after* the flip's search saw it, and the gold is re-executed on the final facts. The
closing note asked whether a manifest can then claim a flip (``details.verdicts_after``) or an isolated gate
verdict (``details.verdict_after``) that the drop undid. Measured at s64 (script /tmp/s64small/stale/claims.py):
the four bundled cards with ``derive:`` constraints (greenblatt_magic_formula_screen and three Dalio cards), first
base each, ``--n 200 --seed 64``, default operators: 0 of 263 flip and 0 of 262 isolate claims disagree; Greenblatt
with ``--ops sector+flip,sector+isolate`` (the recipes where a move to financials drops the capital the combined rank
is derived from): 0 of 100 and 0 of 100. No fix was needed; this pins the agreement on the recipes where the drop
happens, so a change to the order of the steps that lets a claim go stale fails here.
"""

from __future__ import annotations

import json

from ipb.perturb.generation import Job, generate
from ipb.perturb.recipes import parse_recipes

from perturb_support import SCENARIOS

CARD = "greenblatt_magic_formula_screen"
BASE = SCENARIOS / CARD / "decline_outside_top_group.yaml"


def _gate_ids() -> tuple[str, ...]:
    """The card's gate ids in order (gold_program's ``gate`` is the 1-based place)."""
    from ipb.engine.registry import compiled_card, find_card

    return tuple(g.id for g in compiled_card(str(find_card(CARD))).card.gates)


def test_flip_and_isolate_claims_match_the_gold_when_a_sector_move_drops_a_derived_source() -> None:
    ids = _gate_ids()
    result = generate(Job((CARD,), str(BASE), 64, parse_recipes("sector+flip,sector+isolate")), 40, allow_short=True)
    items = [json.loads(line) for line in result.lines]
    dropped = flips = isolates = 0
    for item in items:
        changes = {c["input"]: c for c in item["manifest"]["changes"]}
        # the stale_partial path: the move dropped the capital the stated combined rank is derived from
        if changes.get("net_fixed_assets", {}).get("new", "") is None and "combined_rank_position" in changes:
            dropped += 1
            assert "combined_rank_position" not in item["scenario"]["facts"], item["id"]
        for op in item["manifest"]["operators"]:
            details = op.get("details") or {}
            if "verdicts_after" in details:
                flips += 1
                assert details["verdicts_after"] == [item["investment_verdict"]], item["id"]
            if "verdict_after" in details and "gate" in details:
                isolates += 1
                gold = {ids[g["gate"] - 1]: g["verdict"] for g in item["grp"]["gold_program"]}
                assert gold[details["gate"]] == details["verdict_after"], item["id"]
    assert flips >= 10 and isolates >= 10, (flips, isolates)  # the claims were read, not skipped
    assert dropped >= 1, "no item of the run took the stale_partial path"
