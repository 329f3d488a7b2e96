"""Condition B finds an investor as the registry does (s61 tidy; bug kind: two lookups disagreeing).

``ipb check`` accepts a card whose ``investor:`` is a registry id or alias in any case
(:func:`ipb.engine.investors.get_investor`), but :meth:`KnowledgeBase.canonical` folded names its own way
(punctuation to spaces, no ids): a card with ``investor: buffett`` had its knowledge cards filed under "buffett"
while the lookup of "buffett" answered "Warren Buffett", so retrieval never offered them; and a registry entry whose
id is not also an alias was "not in the registry" to ``ipb respond`` though every other command found it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.investors import get_investor, load_investors
from ipb.errors import RespondError
from ipb.respond.knowledge import KnowledgeBase

ROOT = Path(__file__).resolve().parents[2]


def _buffett_card(investor: str):
    text = (ROOT / "frameworks" / "buffett_acquisition_checklist.yaml").read_text(encoding="utf-8")
    text = text.replace("investor: Warren Buffett", f"investor: {investor}", 1).replace(
        "id: buffett_acquisition_checklist", "id: s61_buffett_by_id", 1)
    return load_card_text(text, "s61_buffett_by_id.yaml")


@pytest.mark.parametrize("written", ["buffett", "BUFFETT", "warren  buffett"])
def test_a_card_naming_its_investor_by_id_or_alias_is_retrieved_for_that_investor(written):
    card = _buffett_card(written)
    assert get_investor(written).name == "Warren Buffett"  # what ipb check accepts
    kb = KnowledgeBase.build([card], load_investors())
    # the card's framework card and its 6 gates, and the registry's investor card: 8 (before: 1, the investor card)
    assert len(kb.for_investor("Warren Buffett")) == 8
    assert len(kb.for_investor(written)) == 8
    found = kb.retrieve("Is there a margin of safety below intrinsic value?", [written], k=3, method="keyword")
    assert found.investors == ("Warren Buffett",)
    assert [c.id for c in found.cards] != ["investor:buffett"] and len(found.cards) == 3
    assert "buffett" not in kb.investors() and written not in kb.investors()


def test_a_registry_id_that_is_no_alias_is_found():
    registry = load_investors()
    registry = {k: dataclasses.replace(v, aliases=()) if k == "buffett" else v for k, v in registry.items()}
    kb = KnowledgeBase.build([], registry)
    assert kb.canonical("buffett") == "Warren Buffett"  # before: None, and retrieve raised "not in the registry"
    assert kb.canonical("Warren Buffett") == "Warren Buffett"
    assert kb.retrieve("margin of safety", ["buffett"], method="keyword").investors == ("Warren Buffett",)


@pytest.mark.parametrize("written", ["Warren-Buffett", "NBIM Norges Bank Investment Management", "Buffett."])
def test_names_the_registry_refuses_are_refused_by_respond_too(written):
    # before: folded as ``normalize`` folds (punctuation to spaces) and accepted, though get_investor refuses them
    from ipb.engine.investors import UnknownInvestorError

    with pytest.raises(UnknownInvestorError):
        get_investor(written)
    kb = KnowledgeBase.build([], load_investors())
    assert kb.canonical(written) is None
    with pytest.raises(RespondError, match="not in the registry"):
        kb.retrieve("margin of safety", [written], method="keyword")
