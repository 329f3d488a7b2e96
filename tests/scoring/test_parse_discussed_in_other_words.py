"""Gates discussed in other words and given no verdict (issue 13, gate references; s28).

Every text here was written for this file; the readings are labelled by hand. Regression kinds:

- *Facts in other words dropped*: a sentence on the case that states a criterion's facts by its words ("the shares trade
  well below net current asset value") met the gate as ``substance`` and, with no verdict word, lost it: the corpus
  README labels a bare fact a discussed gate (``-``). It is kept with no verdict; a remark on the investor's rule with no
  figure of the case ("Graham liked buying below net current asset value") is still no gate.
- *Input names*: the names of the inputs one gate alone reads ("current assets", "long-term debt") name that gate as
  its aliases do; an input several gates read ("price per share": P/E and price-to-assets) names none.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

SEVEN = "graham_seven_tests_defensive"  # 2 financial condition reads current_assets, current_liabilities, long_term_debt
NET_NET = "graham_net_net_screen"  # 1 price below net current asset value


def _read(text: str, card: str) -> list[tuple[int, str | None, str]]:
    return [(g.gate, g.verdict, g.how) for g in parse_response(text, card, embedder=False).gates]


def test_a_fact_stated_in_the_criterions_words_is_a_discussed_gate() -> None:
    text = "The shares trade well below net current asset value. Nothing else is known."
    assert _read(text, NET_NET) == [(1, None, "substance")]


@pytest.mark.parametrize("text", [
    "Graham liked buying below net current asset value, a habit worth keeping. Nothing else is known.",
    "As Benjamin Graham put it, net current asset value is the floor. Nothing else is known.",
], ids=["liked", "put-it"])
def test_a_remark_on_the_investors_rule_is_no_gate(text: str) -> None:
    parsed = parse_response(text, NET_NET, embedder=False)
    assert parsed.gates == [] and parsed.status == "parse_failure"


@pytest.mark.parametrize("line", [
    'Source: "The Intelligent Investor" (1949), ch. 15 (buying below net current asset value).',
    "- References: Graham and Dodd (1934), on stocks below net current asset value, p. 495.",
], ids=["source", "references"])
def test_a_source_line_in_the_criterions_words_is_no_gate(line: str) -> None:
    """A citation's title, year and locator are no facts of the case (the synthetic drop_gate answers of the Lynch
    and PIF cards kept a dropped gate through their "Source:" line before this)."""
    text = f"Gate 2: Margin of Safety -- PROCEED.\n{line}\nFinal verdict: INVEST"
    assert 1 not in [g for g, _, _ in _read(text, NET_NET)]


def test_a_figure_makes_a_sentence_naming_the_investor_a_reading() -> None:
    # the sentence names Graham but states the case's figure: it reads the criterion
    text = "At $0.61 per $1 of net current asset value, Graham would have been interested. Nothing else is known."
    assert [(g, v) for g, v, _ in _read(text, NET_NET)] == [(1, None)]


@pytest.mark.parametrize("text", [
    "Current assets run at 2.5 times current liabilities. I have not decided yet.",
    "Its long-term debt has been paid down to almost nothing. I have not decided yet.",
], ids=["current-assets", "long-term-debt"])
def test_an_input_one_gate_reads_names_that_gate(text: str) -> None:
    assert _read(text, SEVEN) == [(2, None, "substance")]


def test_an_input_two_gates_read_names_neither() -> None:
    # price_per_share is read by gate 6 (P/E) and gate 7 (price to assets)
    parsed = parse_response("The price per share is $41 and nothing else is known yet.", SEVEN, embedder=False)
    assert parsed.gates == [] and parsed.status == "parse_failure"


# ---------------------------------------------------------------- the no-gate fallback (_described.py)

PIF = "pif_dual_kill_investment_screen"  # 1 portfolio policy fit, 2 IRR hurdle, 3 Vision 2030 alignment


def test_an_answer_naming_no_gate_is_read_in_the_cards_words() -> None:
    text = ("Fund walks away from port deal\n\nThe terminal fits the mandate of the fund's strategic holdings, whose policy "
            "lists such assets. Its projected return was 4% a year against an 8% hurdle, people said.")
    parsed = parse_response(text, PIF, embedder=False)
    # gate 2's clause compares its figure with a stated bar (4% against an 8% hurdle): its verdict, read since stop 30
    assert parsed.status == "ok" and _read(text, PIF) == [(1, None, "described"), (2, "REJECT", "described+stated-bar")]


@pytest.mark.parametrize("text", [
    # one gate's words only: too weak a reading of a whole answer
    "Fund walks away from port deal\n\nIts projected return was 4% a year against an 8% hurdle, people said.",
    # a clause naming two gates' criteria (the mandate, the national objective) is neither's
    "Fund walks away from port deal\n\nThe terminal fits the mandate and serves the national objective, people said.",
    "Markets were quiet today. Oil rose 2% and the riyal was steady.",
], ids=["one-gate", "two-criteria-in-one-clause", "unrelated"])
def test_the_fallback_never_invents(text: str) -> None:
    parsed = parse_response(text, PIF, embedder=False)
    assert parsed.gates == [] and parsed.status == "parse_failure"


# ---------------------------------------------------------------- order and the investor's own pass


def test_gates_named_in_one_sentence_keep_their_order_in_it() -> None:
    # one sentence names gates 1, 2 and 3; gate 3's section opens at the sentence's start ('the first three steps' and its
    # alias), gates 1 and 2 are placed by their mentions: before, gate 3 came first
    text = ("Move the same firm to 2009 and the first three steps do not change: a subscription model with 95% retention "
            "stays inside the circle of competence (Gate 1 PROCEED), a 90% gross margin still makes a moat (Gate 2 "
            "PROCEED), and management stays an unknown because nothing is disclosed (Gate 3 INCONCLUSIVE, no kill).\n\n"
            "DECLINE.")
    assert [(g, v) for g, v, _ in _read(text, "buffett_acquisition_checklist")] == [(1, "PROCEED"), (2, "PROCEED"), (3, "INCONCLUSIVE")]


@pytest.mark.parametrize("tail", ["at this price.", "at $88.", "at today's price."])
def test_the_investors_pass_at_a_price_is_no_gate_pass(tail: str) -> None:
    # 'market value' is an input of Munger's price gate (5): the sentence discusses it, and 'I'd pass' declines
    text = f"At a market value of $9B on owner earnings of $300M, I'd pass {tail}"
    parsed = parse_response(text, "munger_business_quality_price", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(5, None)]
    assert parsed.final_verdict == ("DECLINE" if "this price" in tail else None)
