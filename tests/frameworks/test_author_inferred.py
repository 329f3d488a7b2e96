"""The card author's own numbers are marked (issue 15, defect 5).

A constant flagged ``author_inferred: true`` says so in its description, and
a constant whose description calls it author-inferred carries the flag, so
a reader (and a tool) can tell the investor's numbers from the card's.
"""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from ipb.engine.registry import bundled_card_paths, compiled_card

PATHS = bundled_card_paths()


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_flag_and_description_agree(path):
    raw = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    card = compiled_card(str(path)).card
    for name, spec in (raw.get("constants") or {}).items():
        if not isinstance(spec, dict):
            continue
        says = bool(re.search(r"author[- ]inferred", spec.get("description", ""), re.I))
        assert bool(spec.get("author_inferred")) == says, f"{path.stem}.{name}"
        assert (name in card.author_inferred) == says


def test_the_numbers_the_review_named_are_marked():
    buffett = compiled_card("buffett_acquisition_checklist").card
    assert {"discount_rate", "maturity_margin", "moat_retention_floor", "moat_gross_margin_floor",
            "required_margin"} <= buffett.author_inferred
    greenblatt = compiled_card("greenblatt_magic_formula_screen").card
    assert {"min_holding_months", "max_holding_months"} <= greenblatt.author_inferred
    assert "max_buy_rank" not in greenblatt.author_inferred  # Greenblatt's own "20-30 highest ranked"
    graham = compiled_card("graham_intrinsic_value_margin_of_safety").card
    assert "margin_of_safety_fraction" not in graham.author_inferred  # Graham's, ch. 15 (defect 12)
