"""Regression (element credited for a label, user41 defect 2): naming a gate does not state its required elements.

A required element that repeats the gate's name or an alias (``cash coverage`` of a gate named "Cash coverage";
Soros' ``prevailing bias`` of "Prevailing Bias"; NBIM's ``management mandate`` of "Management mandate scope") was
credited to an answer that only names the gate. The words that named the gate are its label, not the element; the
same words used again in the reasoning state it (paper §6.3 required elements, §7.7 KCCS, §7.13 L7 composite).
Answers written for these tests; expected values worked by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring.api import score
from ipb.scoring.parse import parse_response

#: Two kill gates; on the facts below gate 1 REJECTs (0.9x < 1.5x) and ends the chain: gate 2 is N/A.
CARD = """\
id: label_element_demo
investor: Geraldine Weiss
name: Dividend cover demo
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: false
topology_rationale: Two tests in order; an uncovered dividend ends the analysis.
vintage: {start: 1966, end: 2002}
sources:
  - {tier: 1, document: "Dividends Don't Lie", year: 1988}
outcomes: {pass: BUY, fail: AVOID}
inputs:
  coverage: {type: multiple, description: free cash flow over dividends paid, range: [0.2x, 5x]}
  leverage: {type: multiple, description: net debt over EBITDA, range: [0x, 8x]}
constants:
  min_cover: 1.5x
  max_leverage: 3x
gates:
  - id: cover_test
    name: Cash coverage
    aliases: [dividend cover test]
    proceed: coverage >= min_cover
    decisive: true
    kill_criterion: dividend_not_covered
    required_elements: [cash coverage, 1.5x floor]
  - id: leverage_test
    name: Leverage
    proceed: leverage <= max_leverage
    decisive: true
    kill_criterion: leverage_too_high
    required_elements: [net debt to EBITDA, 3x ceiling]
"""
FACTS = {"coverage": "0.9x", "leverage": "2x"}


@pytest.fixture
def card(tmp_path: Path) -> str:
    path = tmp_path / "label_element_demo.yaml"
    path.write_text(CARD, encoding="utf-8")
    return str(path)


# By hand: G_K = {gate 1} (gate 2 not reached), E_1 = {cash coverage, 1.5x floor}; KCCS = KCCS_1 = 2|E∩Ê|/(|E|+|Ê|).
# Every answer names gate 1 alone with the right verdict and AVOID: OGRS_k = 1 (GCF 1, tau_n 1), VerdictAcc = 1, no
# attribution or citation on an L7 item, which asks for none: SAP@1 not applicable (stop 50; it was 0), so the L7
# composite 0.35 OGRS_k + 0.30 KCCS + 0.20 VerdictAcc + 0.15 SAP@1 renormalises: (0.55 + 0.30 KCCS) / 0.85.
# GRA_1 = (name 1 + verdict 1 + elements |E∩Ê|/|E|) / 3.
@pytest.mark.parametrize("answer, elements, kccs, composite, gra", [
    # the label alone: Ê = {} -> KCCS 0 (it was 2*1/(2+1) = 0.667 and composite 0.75 when the label was credited)
    ("Cash coverage: REJECT\nFinal verdict: AVOID", [], 0.0, 0.55 / 0.85, 2 / 3),
    # the label, then the element's words in the reasoning: Ê = {cash coverage} -> 2*1/(2+1) = 2/3, composite
    # (0.55 + 0.20) / 0.85 = 0.882
    ("Cash coverage: REJECT. Cash coverage is far too thin to carry the dividend.\nFinal verdict: AVOID",
     ["cash coverage"], 2 / 3, 0.75 / 0.85, (2 + 0.5) / 3),
    # ... and the bar too: Ê = E -> 1, composite 0.85 / 0.85 = 1
    ("Cash coverage: REJECT. Cash coverage is only 0.9x, under the 1.5x floor.\nFinal verdict: AVOID",
     ["cash coverage", "1.5x floor"], 1.0, 1.0, 1.0),
], ids=["label-only", "label-then-reasoning", "label-reasoning-and-bar"])
def test_naming_the_gate_earns_no_element(card: str, answer: str, elements: list[str], kccs: float, composite: float,
                                          gra: float) -> None:
    parsed = parse_response(answer, card, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "REJECT")]
    assert sorted(parsed.gates[0].elements) == sorted(elements)
    record = score(answer, card=card, facts=FACTS)
    assert record["status"] == "scored"
    m = record["metrics"]
    assert (m["ogrs_k"], m["verdict_acc"], m["sap@1"]) == (1.0, 1.0, None)
    assert m["kccs"] == pytest.approx(kccs)
    assert m["layer_composite"] == pytest.approx(composite)
    assert m["gra"] == pytest.approx(gra)


def test_a_heading_and_a_list_label_are_labels_too(card: str) -> None:
    text = "### Gate 1 (Cash coverage)\nREJECT.\n\n- Cash coverage: REJECT\n\nFinal verdict: AVOID"
    assert parse_response(text, card, embedder=False).gates[0].elements == []


def test_a_figure_beside_the_label_still_states_a_figured_element(card: str) -> None:
    # the bar "1.5x floor" is outside the label "Cash coverage": it counts; the label's words do not
    parsed = parse_response("Cash coverage: 0.9x against a 1.5x floor. REJECT.\nFinal verdict: AVOID", card, embedder=False)
    assert parsed.gates[0].elements == ["1.5x floor"]


@pytest.mark.parametrize("card_id, text, elements", [
    # Soros gate 1 "Prevailing Bias", element "prevailing bias"
    ("soros_reflexive_hypothesis_trade_construction", "Prevailing Bias: PROCEED", []),
    ("soros_reflexive_hypothesis_trade_construction", "1. Prevailing Bias: PROCEED. Investors treat the lender's growth as permanent.", []),
    ("soros_reflexive_hypothesis_trade_construction",
     "Prevailing Bias: PROCEED. The prevailing bias is that investors treat the lender's growth as permanent.",
     ["prevailing bias"]),
    # NBIM gate 1 "Management mandate scope", element "management mandate": a part of the label is the label too
    ("nbim_gpfg_exclusion_screen", "Management mandate scope: PROCEED", []),
    ("nbim_gpfg_exclusion_screen",
     "Management mandate scope: PROCEED. The issuer is a listed equity, inside the management mandate.", ["management mandate"]),
], ids=["soros-label", "soros-label-and-other-words", "soros-reasoning", "nbim-label", "nbim-reasoning"])
def test_bundled_gates_whose_element_is_their_label(card_id: str, text: str, elements: list[str]) -> None:
    parsed = parse_response(text, card_id, embedder=False)
    assert parsed.gates[0].gate == 1 and parsed.gates[0].verdict == "PROCEED"
    assert parsed.gates[0].elements == elements
