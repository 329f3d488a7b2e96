"""Financial abbreviations and the phrases they stand for (issue 13, gate references and elements;
:mod:`ipb.scoring.parse._abbreviations`).

Regression tests for the bug kind "an abbreviation is not matched to the gate or element it names": "ROCE" for a gate
that says "return on capital employed", "D/E" for "debt to equity", "enterprise value to EBIT" for an element "EV/EBIT".
The texts are written for this file; the readings are worked by hand against the bundled cards.
"""

from __future__ import annotations

import pytest

from ipb.scoring._text import stem
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._abbreviations import ABBREVIATIONS, expansion_stems, gate_abbreviations


def test_a_gate_gets_the_other_spelling_of_an_abbreviation_it_holds() -> None:
    got = gate_abbreviations([(1, ["High ROCE"], []), (2, ["Return on invested capital"], []), (3, ["Cash"], ["FCF {fcf}"])])
    assert got["return on capital employed"] == (1, "alias")
    assert got["roic"] == (2, "alias")
    assert got["free cash flow"] == (3, "substance")  # from an element text: a substance phrase


def test_a_phrase_inside_a_longer_phrase_adds_no_abbreviation_of_its_own() -> None:
    # "return on capital employed" holds "return on capital": ROCE, never ROC
    got = gate_abbreviations([(1, ["Return on capital employed"], [])])
    assert "roce" in got and "roc" not in got


def test_a_spelling_two_gates_could_claim_names_neither() -> None:
    got = gate_abbreviations([(1, ["Return on equity"], []), (2, ["Leverage"], ["return on equity {roe} vs cost of equity"])])
    assert "roe" not in got


def test_an_abbreviation_in_the_answer_holds_the_stems_of_its_words() -> None:
    assert expansion_stems("ROCE") == tuple(stem(w) for w in ("return", "capital", "employed"))
    assert expansion_stems("Roic") == tuple(stem(w) for w in ("return", "invested", "capital"))
    assert expansion_stems("capital") == () and expansion_stems("EV/EBIT") == ()


def test_every_phrase_is_normalised() -> None:
    # the table is matched against normalised text: lower case, single spaces, no punctuation
    for abbr, phrases in ABBREVIATIONS.items():
        for p in (abbr, *phrases):
            assert p == " ".join(p.lower().split()) and p.replace(" ", "").isalnum(), p


@pytest.mark.parametrize(("text", "card", "gate"), [
    ("Our read: the D/E of 0.3 is conservative, fine.\n", "lynch_six_category_framework", 3),
    ("Net cash flow aside, FCF came to $210M last year, so that step passes.\n", "buffett_owner_earnings_dcf", 1),
], ids=["d-e-for-debt-to-equity", "fcf-for-free-cash-flow"])
def test_an_abbreviation_in_running_text_names_its_gate(text: str, card: str, gate: int) -> None:
    result = parse_response(text, card, embedder=False)
    hit = {g.gate: g for g in result.gates}
    assert gate in hit and hit[gate].how.split("+")[0] in ("alias", "name"), [(g.gate, g.how) for g in result.gates]


def test_the_spelled_out_phrase_finds_an_abbreviated_element() -> None:
    # the card's element says "EV/EBIT {ev_to_ebit}"; the answer spells it out
    text = "The spinoff trades at an enterprise value to EBIT of 6x, well under peers at 11x. Cheap: pass.\n"
    gates = {g.gate: g for g in parse_response(text, "greenblatt_spinoff_checklist", embedder=False).gates}
    assert gates[3].verdict == "PROCEED"
    assert any("6x" in e for e in gates[3].elements)
