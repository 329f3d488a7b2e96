"""Gate detection on titles of the writer's own (issue 13, stop 38; scoring/parse/_body_named.py, _positional.py).

Answers written for these tests (never corpus copies); every expected reading was worked by hand against the bundled
card named below, with the embedder off.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from parse_support import read_gates as _read

LYNCH = "lynch_six_category_framework"  # 1 company category, 2 price vs growth, 3 balance sheet, 4 category story check
BUYBACK = "buffett_share_repurchase"  # 1 ample funds, 2 price below intrinsic value, 3 published price limit, 4 purpose


def _invented(text: str, card: str) -> list[str]:
    return parse_response(text, card, embedder=False).invented_gates


# ---------------------------------------------------------------- a title whose value opens with a gate's name

_CUSHION = ("- Lynch category: stalwart, earnings up 9% a year. Pass.\n"
            "- Price versus growth: PEG of 0.8. Pass.\n"
            "- Cushion: debt to equity of 0.3, easily carried. Pass.\n"
            "- Category-specific story check: the stalwart story still holds. Pass.\n")


def test_a_title_whose_value_opens_with_a_gates_alias_is_that_gate() -> None:
    # "Cushion" names no gate; "debt to equity", right after its colon, is an alias of gate 3 (Balance Sheet Strength)
    assert _read(_CUSHION, LYNCH) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]
    assert _invented(_CUSHION, LYNCH) == []


def test_a_title_naming_the_gate_only_late_in_its_value_stays_invented() -> None:
    # the alias comes six words after the colon: a passing mention, not the value's subject
    text = _CUSHION.replace("Cushion: debt to equity of 0.3", "Insider buying: the founders bought more shares, so debt to equity")
    assert "Insider buying" in _invented(text, LYNCH)


def test_a_title_whose_value_names_a_gate_labelled_elsewhere_stays_invented() -> None:
    # gate 3 has a label of its own below: the writer's extra title is no second label of it
    text = _CUSHION + "- Balance sheet strength: net cash. Pass.\n"
    assert "Cushion" in _invented(text, LYNCH)


def test_a_title_whose_value_names_two_gates_stays_invented() -> None:
    text = _CUSHION.replace("Cushion: debt to equity of 0.3, easily carried.",
                            "Cushion: debt to equity of 0.3 against the PEG ratio of 0.8.")
    assert "Cushion" in _invented(text, LYNCH)


# ---------------------------------------------------------------- bold numbered lines are a numbered list

_BOLD = ("Buyback review\n\n"
         "**1. Liquidit\u00e0 disponibile** \u2014 PASS. Cassa netta 2,1 mld.\n\n"
         "**2. Sconto sul valore** \u2014 FAIL. Il titolo quota 20 volte gli utili.\n\n"
         "**3. Tetto pubblicato** \u2014 FAIL. Nessun tetto dichiarato.\n\n"
         "**4. Chi ne trae vantaggio** \u2014 PASS. Il numero di azioni scende del 3%.\n")


def test_bold_numbered_lines_one_per_gate_are_read_by_position() -> None:
    assert _read(_BOLD, BUYBACK) == [(1, "PROCEED"), (2, "REJECT"), (3, "REJECT"), (4, "PROCEED")]


def test_bold_numbered_lines_with_the_verdict_in_the_paragraph_below_are_read_by_position() -> None:
    text = ("**1. Liquidit\u00e0 disponibile**\nCassa netta 2,1 mld.\nEsito: PASS\n\n"
            "**2. Sconto sul valore**\nIl titolo quota 20 volte gli utili.\nEsito: FAIL\n\n"
            "**3. Tetto pubblicato**\nNessun tetto dichiarato.\nEsito: FAIL\n\n"
            "**4. Chi ne trae vantaggio**\nIl numero di azioni scende del 3%.\nEsito: PASS\n")
    assert _read(text, BUYBACK) == [(1, "PROCEED"), (2, "REJECT"), (3, "REJECT"), (4, "PROCEED")]


def test_bold_lines_numbered_out_of_order_are_no_run() -> None:
    text = _BOLD.replace("**2. Sconto", "**5. Sconto")
    assert all(g.how != "position" for g in parse_response(text, BUYBACK, embedder=False).gates)


def test_bold_numbered_lines_fewer_than_the_gates_are_not_read_by_position() -> None:
    text = _BOLD.split("**4.")[0]
    assert all(g.how != "position" for g in parse_response(text, BUYBACK, embedder=False).gates)



# ---------------------------------------------------------------- a title made of words of two gates' names

MACHINE = "dalio_economic_machine_positioning"  # 1 growth vs expectations, 2 inflation vs expectations, 3 credit, 4 quadrant


def test_a_title_of_words_two_gates_share_is_no_invented_gate() -> None:
    # "inflation" lies in gate 2's name and in gate 4's ("Growth-Inflation Quadrant"): it names the card's criteria
    text = ("- Growth relative to expectations: real growth 2.8% against 1.9% priced. PASS\n"
            "- Inflation: 2.1% expected against breakevens of 2.6%. PASS\n"
            "- Short-term debt cycle confirmation: credit up 2.4% of GDP. PASS\n")
    assert _invented(text, MACHINE) == []


def test_a_title_with_a_word_of_its_own_beside_shared_words_stays_invented() -> None:
    text = ("- Growth relative to expectations: real growth 2.8% against 1.9% priced. PASS\n"
            "- Wage inflation: unit labour costs up 4%. PASS\n"
            "- Short-term debt cycle confirmation: credit up 2.4% of GDP. PASS\n")
    assert _invented(text, MACHINE) == ["Wage inflation"]
