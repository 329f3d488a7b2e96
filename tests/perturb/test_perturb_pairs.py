"""Regression (contradictory facts): a category input paired with the sector is never moved past its pair (s34).

The s33review3 read (seed 3434) found a "crypto-asset trading and custody" business filed under "the enterprise
software sector" on the Buffett acquisition card (12 of 200 items): the isolate operator moved ``business_model``
alone and the card's pairing rule allowed crypto in enterprise software. The pairs now live in
``frameworks/sectors.yaml`` (a sector's ``profile`` and ``allows``; :meth:`SectorRegistry.pair_allowed`) and every
card that states a sector and a paired input refuses every other pair by a constraint, which the generator
applies to every operator's candidate (isolate, metric, flip, sector, temporal) and ``ipb verify`` re-checks.
"""

from __future__ import annotations

import json
from itertools import product

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate
from ipb.perturb.registries import bundled_sectors
from perturb_support import BUFFETT, BUFFETT_BASE, CARD_IDS

SECTORS = bundled_sectors()


def _pairs(card):
    """(sector input, paired category input) of a card: both category inputs with listed values."""
    inputs = card.inputs
    sectors = [n for n in SECTORS.inputs if n in inputs and inputs[n].type == "category" and inputs[n].values]
    return [(s, n) for s in sectors for n, spec in inputs.items()
            if n != s and spec.type == "category" and spec.values
            and any(n in sec.profile or n in sec.allows for sec in SECTORS.sectors)]


def _refused(card, sector_input, name, sector, value):
    facts = ipb.facts(card.id, {sector_input: sector, name: value})
    return [e.name for e in constraint_errors(card, facts)]


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_card_refuses_each_pair_the_sector_registry_does_not_allow(card_id):
    card = compiled_card(card_id).card
    for sector_input, name in _pairs(card):
        values = card.inputs[name].values
        # every value of the paired input is placed by some sector: none can sit beside any sector unchecked
        assert all(any(v in s.profile.get(name, ()) or v in s.allows.get(name, ()) for s in SECTORS.sectors)
                   for v in values), (card_id, name)
        for sector, value in product(card.inputs[sector_input].values, values):
            allowed = SECTORS.pair_allowed(name, value, sector)
            assert allowed is not None, (card_id, sector)  # a card sector the registry does not know
            assert bool(_refused(card, sector_input, name, sector, value)) is not allowed, (card_id, sector, value)


def test_the_pair_check_is_not_vacuous():
    paired = [c for c in CARD_IDS if _pairs(compiled_card(c).card)]
    assert paired == [BUFFETT]
    card = compiled_card(BUFFETT).card
    # the reviewed item's pair is refused by the pairing rule alone; its financial twin is kept
    assert _refused(card, "sector", "business_model", "enterprise_software", "crypto_asset") == [
        "business_model_fits_sector"]
    assert _refused(card, "sector", "business_model", "financials", "crypto_asset") == []
    assert _refused(card, "sector", "business_model", "transport", "railroad") == []
    assert _refused(card, "sector", "business_model", "consumer", "railroad") == ["business_model_fits_sector"]


def test_a_default_run_pairs_no_model_with_a_sector_that_does_not_allow_it():
    lines = generate(Job((BUFFETT,), str(BUFFETT_BASE), 4141), 200).lines
    moved = 0
    for line in lines:
        facts = json.loads(line)["scenario"]["facts"]
        if "business_model" in facts and "sector" in facts:
            assert SECTORS.pair_allowed("business_model", facts["business_model"], facts["sector"]), facts
            moved += facts["business_model"] != "subscription_software"
    assert moved > 0  # some item moved the model and kept a fitting sector
