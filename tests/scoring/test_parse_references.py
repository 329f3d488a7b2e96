"""Gate references in answers written by others (issue 13, "gate references"; paper §7.5).

Each test pins one rule a human reader uses to tell which card gate a passage
talks about, on answers written for these tests (never corpus copies): a gate
named by the substance of its criterion rather than its name, "all seven
tests pass" and "the other two checks", "the second condition". Every
expected value was worked by hand against the bundled card.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._card import _gate_phrases, _substance_mentions
from parse_support import read_gates as _read

NET_NET = "graham_net_net_screen"  # 1 price at most two-thirds of NCAV, 2 current assets not dissipated by losses
SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
OWNER_DCF = "buffett_owner_earnings_dcf"  # 1 owner earnings, 2 discounted intrinsic value, 3 margin of safety


# ---------------------------------------------------------------- substance phrases


def test_frame_words_leave_the_substance_of_an_alias() -> None:
    gate = compiled_card(NET_NET).card.gates[0]
    phrases = _gate_phrases(gate)
    # the alias "net current asset value test" is met as "the net current asset value"
    assert "net current asset value" in phrases
    # single content words ("size" of "size test") are too loose to name a gate on their own
    seven = compiled_card(SEVEN).card.gates[0]
    assert "size" not in _gate_phrases(seven)


def test_element_text_gives_phrases_split_at_fields_and_figures() -> None:
    gate = compiled_card(SEVEN).card.gates[1]  # "current ratio {current_ratio} (at least 2)", "long-term debt {..} vs net current assets {..}"
    phrases = _gate_phrases(gate)
    assert {"current ratio", "long term debt", "net current assets"} <= set(phrases)


def test_a_phrase_two_gates_share_names_neither() -> None:
    card = compiled_card(OWNER_DCF).card
    found = _substance_mentions(card, {})
    # "intrinsic value" is in gate 2's elements and in gate 3's "price below intrinsic value": it names neither
    assert "intrinsic value" not in found
    assert found["discount rate"] == (2, "substance")


def test_prose_names_gates_by_their_substance() -> None:
    text = ("At $14M against a net current asset value of $30M the shares sit comfortably under the two-thirds line, "
            "which passes. But operating losses of $2M a year keep shrinking that cushion, and this one fails.\n\n"
            "DECLINE.")
    assert _read(text, NET_NET) == [(1, "PROCEED"), (2, "REJECT")]


def test_a_passing_mention_of_substance_is_no_gate() -> None:
    # gate 1 is addressed by name; the net current asset value only colours a closing remark, with no verdict
    text = ("Gate 2: Current Assets Not Dissipated by Losses: PROCEED. The company earned $4M last year.\n\n"
            "Graham liked buying below net current asset value, a habit worth keeping.\n\nFinal verdict: INVEST")
    assert _read(text, NET_NET) == [(2, "PROCEED")]


# ---------------------------------------------------------------- several gates at once


def test_all_seven_tests_pass_gives_every_gate_its_verdict() -> None:
    text = ("Sales of $2bn make this a large enough company and the current ratio of 2.4 passes. "
            "All seven tests pass. INVEST.")
    read = dict(_read(text, SEVEN))
    assert read == {g: "PROCEED" for g in range(1, 8)}


def test_the_other_checks_are_the_gates_not_yet_named() -> None:
    text = ("Gate 1: the shares trade at 50% of net current asset value. PROCEED.\n"
            "The other checks fail badly. DECLINE.")
    # the card has 2 gates: "the other checks" is gate 2 only
    assert _read(text, NET_NET) == [(1, "PROCEED"), (2, "REJECT")]


@pytest.mark.parametrize("sentence", [
    "Not all seven tests pass.",        # a negated quantifier is no verdict on each gate
    "A stock must pass all seven tests.",  # the rule, not a reading
    "If every test passes we buy.",     # hypothetical
    "All four tests pass.",             # four is not this card's seven gates
])
def test_quantifiers_that_are_not_readings(sentence: str) -> None:
    text = f"Gate 1: adequate size, sales $5bn. PROCEED.\n{sentence}\nFinal verdict: DECLINE"
    assert _read(text, SEVEN) == [(1, "PROCEED")]


def test_the_second_condition_is_gate_two_and_one_third_is_a_fraction() -> None:
    text = ("The price is 40% of net current asset value, which passes. "
            "The company lost money in each of the last three years, so the second condition fails.\n\nDECLINE.")
    assert _read(text, NET_NET) == [(1, "PROCEED"), (2, "REJECT")]
    # "the one-third requirement" is a fraction, not "the third requirement" (gate 3)
    growth = "EPS rose 45% over the decade, well above the one-third requirement, so earnings growth passes. INVEST."
    assert _read(growth, SEVEN) == [(5, "PROCEED")]


# ---------------------------------------------------------------- what is not an invented gate


AWC = "dalio_all_weather_portfolio_construction"  # 1 four-environment asset mapping, 2 risk parity balance, 3 leverage
SCENARIO_TABLE = """**Holdings:** world equities, long Treasuries, linkers, gold.

| Season | What does well | Held? |
|---|---|---|
| Inflation surprise up | gold, linkers | ✓ |
| Growth surprise down | long Treasuries | ✓ |
{extra}
Asset mapping: every season has something that thrives -> PROCEED.

**Risk parity balance:** each season carries 22-28% of the risk. PROCEED.

**Leverage:** 1.6x on the bond sleeve, carry positive. PROCEED.

Verdict: IMPLEMENT."""


def test_a_table_naming_no_gate_is_evidence_not_invented_gates() -> None:
    # the scenario rows carry ticks, and the inline "Holdings:" label sits above them; neither is a gate the card lacks
    result = parse_response(SCENARIO_TABLE.format(extra=""), AWC, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]
    assert result.invented_gates == []


def test_a_table_that_names_a_gate_still_shows_the_rows_it_adds() -> None:
    text = ("| Check | Reading | OK? |\n|---|---|---|\n| Four-environment asset mapping | all four covered | ✓ |\n"
            "| Risk parity balance | 22-28% each | ✓ |\n| Liquidity reserve | 5% in cash | ✓ |\n\n"
            "**Leverage:** 1.6x on the bond sleeve, carry positive. PROCEED.\n\nVerdict: IMPLEMENT.")
    result = parse_response(text, AWC, embedder=False)
    assert [g.gate for g in result.gates] == [1, 2, 3]
    assert result.invented_gates == ["Liquidity reserve"]


def test_a_bare_numbered_label_is_named_by_its_title() -> None:
    lines = [f"Test {k} \u2013 {name}: fine. \u2713" for k, name in enumerate(
        ["Size", "Current ratio", "Earnings stability", "Dividend record", "EPS growth", "P/E", "P/B"], start=1)]
    text = "\n".join(lines) + "\nTest 8 \u2013 Buyback yield above 2%: 2.4%. \u2713\n\nINVEST."
    result = parse_response(text, SEVEN, embedder=False)
    assert [g.gate for g in result.gates] == [1, 2, 3, 4, 5, 6, 7]
    assert result.invented_gates == ["Test 8: Buyback yield above 2%"]


# ---------------------------------------------------------------- "the price test"

LYNCH6 = "lynch_six_category_framework"  # 1 classify, 2 price versus growth, 3 balance sheet strength, 4 category story check


def test_part_of_a_gate_name_before_a_criterion_word_names_it() -> None:
    text = ("Balance sheet first: the debt check passes at 20% debt. "
            "Then the price test fails at a ratio of 0.6. DECLINE.")
    # "debt check" -> balance sheet strength (alias "debt factor"); "price test" -> Price Versus Growth
    assert _read(text, LYNCH6) == [(3, "PROCEED"), (2, "REJECT")]


def test_a_criterion_word_after_words_of_no_gate_names_nothing() -> None:
    result = parse_response("The smell test passes and the sniff check is fine. INVEST.", LYNCH6, embedder=False)
    assert result.gates == []
