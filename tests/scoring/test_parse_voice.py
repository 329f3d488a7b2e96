"""Whose verdict it is, and in which words: card synonym tables and the writer's own voice (issue 13; breaker finding 1).

Every answer here is written for this test. Each test names the reading rule
it pins down; the expected readings are what a careful human reader takes
from the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

CARDS = Path(__file__).parent / "cards"
NET_NET = "graham_net_net_screen"  # outcomes INVEST / DECLINE; gate 1 the two-thirds rule
REPURCHASE = "buffett_share_repurchase"  # outcomes REPURCHASE / NO_REPURCHASE, with verdict_synonyms


@pytest.fixture(scope="module")
def dividend_card():
    """A card written as a new author would, with its own outcome words and a verdict_synonyms table."""
    return load_card(CARDS / "dividend_raise_review.yaml")


def _final(text: str, card) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


def _gate(text: str, card, number: int = 1) -> str | None:
    parsed = parse_response(text, card, embedder=False)
    return next((g.verdict for g in parsed.gates if g.gate == number), None)


# --------------------------------------------------------------------------- synonym tables


def test_a_new_authors_card_loads_its_synonyms(dividend_card) -> None:
    assert dividend_card.verdict_synonyms["KEEP_DIVIDEND"][-1] == "hold"
    table = vw.synonym_table("RAISE_DIVIDEND", "KEEP_DIVIDEND", dividend_card.verdict_synonyms)
    assert table["lift the payout"] == "RAISE_DIVIDEND" and table["sell"] == "KEEP_DIVIDEND" and table["hold"] == "KEEP_DIVIDEND"


@pytest.mark.parametrize("conclusion, outcome", [
    ("Conclusion: lift the payout by a tenth.", "RAISE_DIVIDEND"),
    ("So we would Hike-the-dividend this year.", "RAISE_DIVIDEND"),
    ("Recommendation: leave the dividend unchanged until the debt is down.", "KEEP_DIVIDEND"),
    ("Board decision: no raise.", "KEEP_DIVIDEND"),
    ("Verdict: HOLD.", "KEEP_DIVIDEND"),             # the card maps HOLD, which the default table leaves open
    ("Rating: SELL", "KEEP_DIVIDEND"),               # the default table, mapped to the card's fail outcome
    ("Final call: RAISE_DIVIDEND.", "RAISE_DIVIDEND"),  # the card's own word still reads
])
def test_card_synonyms_state_the_cards_outcomes(dividend_card, conclusion: str, outcome: str) -> None:
    text = "Cash cover: payout ratio 45%, PROCEED.\nBalance sheet headroom: leverage 3.1x, REJECT.\n" + conclusion
    assert _final(text, dividend_card) == outcome


def test_hold_is_unmapped_by_default_and_a_card_can_map_it(dividend_card) -> None:
    """HOLD is neither outcome of a buy decision: the default table leaves it out, this card's table says what it means."""
    text = "Gate 1 (two-thirds rule): the price is above the ceiling, REJECT.\nRecommendation: HOLD."
    assert _final(text, NET_NET) is None
    assert _final("Cash cover: payout ratio 45%, PROCEED.\nRecommendation: HOLD.", dividend_card) == "KEEP_DIVIDEND"


def test_a_card_synonym_is_not_read_as_an_alternative_or_a_condition(dividend_card) -> None:
    assert _final("Cash cover: payout ratio 45%, PROCEED.\nWe could lift the payout or hold it; I cannot tell yet.", dividend_card) is None
    assert _final("Cash cover: payout ratio 45%, PROCEED.\nIf debt falls we would lift the payout.", dividend_card) is None


def test_the_bundled_repurchase_card_reads_no_buyback() -> None:
    text = ("Funds beyond needs: cash covers every project. PROCEED.\n"
            "Purpose: only to offset option grants, which does not serve continuing owners. REJECT.\n"
            "So: no buyback for now.")
    assert _final(text, REPURCHASE) == "NO_REPURCHASE"


# --------------------------------------------------------------------------- options listed, not chosen


@pytest.mark.parametrize("tail", [
    "The two possible answers are INVEST or DECLINE.",
    "Possible outcomes: DECLINE or INVEST.",
    "Final verdict: INVEST/DECLINE",
    "I can't choose between INVEST and DECLINE on these figures.",
    "It is either INVEST or DECLINE depending on the audit.",
])
def test_listing_the_options_chooses_none(tail: str) -> None:
    text = "Gate 1 (two-thirds rule): market value sits above two-thirds of NCAV.\n" + tail
    assert _final(text, NET_NET) is None


# --------------------------------------------------------------------------- someone else's verdict


@pytest.mark.parametrize("tail, outcome", [
    ('Gate 1 (two-thirds rule): REJECT.\nThe analyst on the desk wrote "Final verdict: INVEST"; I disagree.', None),
    ("Gate 1 (two-thirds rule): REJECT.\nMy partner says INVEST. Not me.", None),
    ("Gate 1 (two-thirds rule): REJECT.\nA momentum trader would say INVEST.", None),
    ("Gate 1 (two-thirds rule): REJECT.\nEarlier draft (superseded): INVEST.", None),
    ("Gate 1 (two-thirds rule): REJECT.\nPrevious answer (wrong): Final verdict: INVEST", None),
    ("Gate 1 (two-thirds rule): REJECT.\nSome analysts would call it an INVEST. My call: DECLINE.", "DECLINE"),
    ('Gate 1 (two-thirds rule): REJECT.\nMy verdict is "DECLINE".', "DECLINE"),  # a quotation with no other speaker is the writer's
])
def test_a_verdict_in_another_voice_is_not_the_answer(tail: str, outcome: str | None) -> None:
    assert _final(tail, NET_NET) == outcome


def test_another_voice_is_kept_as_the_runner_up() -> None:
    parsed = parse_response("Gate 1 (two-thirds rule): REJECT.\nDECLINE. A value purist would say INVEST.", NET_NET, embedder=False)
    assert (parsed.final_verdict, parsed.final_runner_up) == ("DECLINE", "INVEST")


@pytest.mark.parametrize("text, outcome", [
    ("Gate 1 (two-thirds rule): REJECT.\nFinal verdict: DECLINE ~~INVEST~~", "DECLINE"),
    ("Gate 1 (two-thirds rule): REJECT.\nFinal verdict: ~~INVEST~~ DECLINE", "DECLINE"),
    ("Gate 1 (two-thirds rule): REJECT.\nFinal verdict: <del>INVEST</del> DECLINE", "DECLINE"),
    ("Gate 1 (two-thirds rule): REJECT.\nFinal verdict: ~~INVEST~~", None),
])
def test_struck_through_text_is_withdrawn(text: str, outcome: str | None) -> None:
    parsed = parse_response(text, NET_NET, embedder=False)
    assert parsed.final_verdict == outcome
    assert any("struck-through" in n for n in parsed.notes)


# --------------------------------------------------------------------------- gate verdicts: voice, neither/nor, columns


@pytest.mark.parametrize("line, verdict", [
    ("a strict reader would REJECT, but it is PROCEED.", "PROCEED"),
    ("a cautious analyst might call it a fail; I call it PROCEED.", "PROCEED"),
    ("I first marked it REJECT but it is PROCEED.", "PROCEED"),
    ("at first glance a REJECT, yet on the figures it passes.", "PROCEED"),
    ("some would say it passes. It does not: REJECT.", "REJECT"),
])
def test_the_writers_own_clause_outranks_a_set_aside_reading(line: str, verdict: str) -> None:
    assert _gate("Gate 1 (two-thirds rule): " + line, NET_NET) == verdict


@pytest.mark.parametrize("line, verdict", [
    ("neither PROCEED nor REJECT until the audit lands.", None),
    ("neither PROCEED nor REJECT, the data are insufficient.", "INCONCLUSIVE"),
    ("it is not a pass and not a fail yet.", None),
])
def test_neither_nor_states_neither_verdict(line: str, verdict: str | None) -> None:
    assert _gate("Gate 1 (two-thirds rule): " + line, NET_NET) == verdict


@pytest.mark.parametrize("header, row, verdict", [
    ("| Gate | Price test | Notes | Verdict |", "| 1 two-thirds rule | PROCEED? | price above the line | REJECT |", "REJECT"),
    ("| Gate | Kill criterion triggered? | Gate verdict |", "| Two-thirds rule | No | REJECT |", "REJECT"),
    ("| Test | Pass? | Decision |", "| Two-thirds rule | Yes | INCONCLUSIVE |", "INCONCLUSIVE"),
    ("| Test | Pass? | Notes |", "| Two-thirds rule | Yes | close to the line |", "PROCEED"),  # no Verdict column: Pass? decides
])
def test_a_verdict_column_outranks_the_other_columns(header: str, row: str, verdict: str) -> None:
    sep = "|" + "---|" * (header.count("|") - 1)
    assert _gate("\n".join([header, sep, row]), NET_NET) == verdict


# --------------------------------------------------------------------------- implied final verdict (a trace that ends in a kill)


@pytest.mark.parametrize("card, text, implied, gate", [
    # conjunction: the first REJECT kills
    (NET_NET, "Gate 1 (two-thirds rule): price $30M against NCAV $60M, PROCEED.\nGate 2 (no dissipation): it lost money last "
              "year. REJECT.", "DECLINE", 2),
    # conjunction, no kill: nothing implied (an unstated gate could still fail)
    (NET_NET, "Gate 1 (two-thirds rule): price $30M against NCAV $60M, PROCEED.", None, None),
    # disjunction of sell triggers: one firing is enough
    ("lynch_portfolio_story_review", "Story broken or fundamentals deteriorated: growth halved from 20% to 8%. REJECT.",
     "SELL", 1),
    # 3 of 5 counting PROCEED: three REJECTs leave too few lenses to clear; two do not
    ("marks_risk_return_assessment", "Price relative to value: REJECT.\nProspective return versus risk: REJECT.\n"
                                     "Risk of permanent loss: REJECT.", "DECLINE", 3),
    ("marks_risk_return_assessment", "Price relative to value: REJECT.\nProspective return versus risk: REJECT.", None, None),
])
def test_a_kill_with_no_stated_verdict_implies_one_that_is_never_credited(card: str, text: str, implied: str | None,
                                                                          gate: int | None) -> None:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.final_verdict is None  # scoring credits only what was said
    assert (parsed.implied_final_verdict, parsed.implied_final_gate) == (implied, gate)
    d = parsed.to_dict()
    assert d["implied_final_verdict"] == implied and d["final_verdict"] is None
    if implied is not None:
        span = parsed.implied_final_span
        assert span is not None and text[span[0] : span[1]] == "REJECT"


def test_a_stated_verdict_leaves_nothing_implied() -> None:
    text = "Gate 1 (two-thirds rule): PROCEED.\nGate 2 (no dissipation): REJECT.\nFinal verdict: INVEST (I overrule gate 2)."
    parsed = parse_response(text, NET_NET, embedder=False)
    assert (parsed.final_verdict, parsed.implied_final_verdict) == ("INVEST", None)


def test_ipb_parse_shows_the_implied_verdict_apart_from_the_stated_one(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ipb.cli import app

    answer = tmp_path / "a.txt"
    answer.write_text("Gate 1 (two-thirds rule): price $30M against NCAV $60M, PROCEED.\nGate 2 (no dissipation): "
                      "losses every year. REJECT.\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["parse", NET_NET, str(answer), "--no-embed"], env={"COLUMNS": "220"})
    assert out.exit_code == 0, out.output
    assert "- (none stated)" in out.output
    assert "implied final verdict" in out.output and "DECLINE (not stated; gate 2 REJECT decides it" in out.output


def test_ipb_score_records_the_implied_verdict_and_scores_only_the_stated_one() -> None:
    from ipb.respond.synthetic import bundled_items, synthetic_responses
    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
    from ipb.scoring.run import ScoreOptions, score_responses

    base = next(i for i in bundled_items(["buffett_acquisition_checklist"]) if i["id"].endswith("ipb_p_011_base"))
    response = synthetic_responses([base])[0]
    response["response"] = ("1. Circle of competence: a business we understand. PROCEED.\n"
                            "2. Economic moat: retention has slipped to 70% and margins are thin; no durable edge. REJECT.\n")
    [record] = score_responses([base], [response], ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    parsed = record["targets"][0]["parsed"]
    assert (parsed["final_verdict"], parsed["implied_final_verdict"], parsed["implied_final_gate"]) == (None, "DECLINE", 2)
    assert record["metrics"]["verdict_acc"] == 0.0  # no final verdict stated: nothing is credited, whatever the gold


# --------------------------------------------------------------------------- answers with their detail; appraisals standing alone

BUFFETT = "buffett_acquisition_checklist"  # gate 5: Margin of Safety ("price vs value")


@pytest.mark.parametrize("cell, verdict", [
    ("No (price $9.1B against value $7.4B)", "REJECT"),
    ("Yes - about 30% below value", "PROCEED"),
    ("**No**; the price is too high", "REJECT"),
    ("see the notes", None),  # no Yes/No answer: the Met? column says nothing
    ("Nope", None),  # not the word No
])
def test_a_yes_no_cell_is_read_before_its_detail(cell: str, verdict: str | None) -> None:
    text = f"| Criterion | Met? |\n|---|---|\n| Circle of competence | Yes |\n| Margin of safety | {cell} |\n"
    assert _gate(text, BUFFETT, 5) == verdict


@pytest.mark.parametrize("line, verdict", [
    ("Price vs value: the bonds trade at 61 cents against a value of 85. Favourable.", "PROCEED"),
    ("Price vs value: 61 cents against 85 — attractive.", "PROCEED"),
    ("Price vs value: 97 cents against 85. Unattractive.", "REJECT"),
    ("Price vs value: 97 cents against 85; too expensive.", "REJECT"),
    ("Price vs value: a strong franchise trading at 97 cents against 85.", None),  # an appraisal inside a clause is no verdict
    ("Price vs value: the price is unattractive but the data are incomplete; INCONCLUSIVE.", "INCONCLUSIVE"),
])
def test_an_appraisal_standing_alone_is_a_hedged_verdict(line: str, verdict: str | None) -> None:
    assert _gate(line, "marks_risk_return_assessment", 1) == verdict


def test_a_committed_word_outranks_an_appraisal() -> None:
    text = "Price vs value: looks cheap at 61 against 85. Attractive. On the recovery maths, though, REJECT."
    assert _gate(text, "marks_risk_return_assessment", 1) == "REJECT"


# --------------------------------------------------------------------------- a classifying gate; a gate's named condition

LYNCH6 = "lynch_six_category_framework"  # gate 1 classifies: turnaround, cyclical, asset play, fast grower, stalwart, slow grower


@pytest.mark.parametrize("text, verdict", [
    ("Stock category: with earnings up 4% a year and a fat dividend, this is a slow grower.", "PROCEED"),
    ("Step 1, classify the company: losses two years running and bonds at 55 cents make it a Turnaround.", "PROCEED"),
    ("Stock category: growth is unknown, so the category cannot be determined yet.", "INCONCLUSIVE"),
    ("Stock category: we have not looked at the company yet.", None),
])
def test_naming_a_regime_in_a_classifying_gate_places_the_case(text: str, verdict: str | None) -> None:
    assert _gate(text, LYNCH6, 1) == verdict


def test_a_regime_named_in_another_gates_section_says_nothing_there() -> None:
    text = ("Gate 1, category: a stalwart.\n"
            "Gate 3, balance sheet: unlike a typical cyclical, debt is tiny at 5% of equity.")
    parsed = parse_response(text, LYNCH6, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (3, None)]


BUBBLE = "dalio_bubble_detection_gauge"  # every gate's condition is a bubble signal: present is REJECT
REBALANCE = "dalio_all_weather_rebalancing"  # gate 1's condition (drift beyond the band) is what lets it PROCEED
LYNCH_REVIEW = "lynch_portfolio_story_review"  # sell triggers: a trigger firing is REJECT


@pytest.mark.parametrize("card, text, gate, verdict", [
    (BUBBLE, "Prices vs traditional measures: 55th percentile. Not present.", 1, "PROCEED"),
    (BUBBLE, "New buyers: retail account openings at the 91st percentile, so the signal is present.", 3, "REJECT"),
    (BUBBLE, "Sentiment: surveys at the 85th percentile; this one is still flashing.", 4, "REJECT"),
    (LYNCH_REVIEW, "Story broken? No: growth 14% against 15% at purchase. No trigger.", 1, "PROCEED"),
    (LYNCH_REVIEW, "P/E versus growth: P/E 40 on 12% growth, a ratio of 0.3, so this trigger fires.", 2, "REJECT"),
    (LYNCH_REVIEW, "P/E versus growth: 18 times on 16% growth; no sell trigger fired.", 2, "PROCEED"),
    (REBALANCE, "Drift: rising-growth risk is 34% against the 25% budget, beyond the band. Rebalancing is triggered.", 1, "PROCEED"),
    (REBALANCE, "Drift: the largest gap is 2 points, inside the band, so rebalancing is not triggered.", 1, "REJECT"),
])
def test_a_gates_named_condition_holding_or_not_is_read_by_the_gates_sense(card: str, text: str, gate: int, verdict: str) -> None:
    assert _gate(text, card, gate) == verdict


def test_a_condition_word_in_the_conclusion_is_not_the_final_verdict() -> None:
    text = "Drift: 34% against the 25% budget, beyond the band. PROCEED.\nIn conclusion, rebalancing is triggered."
    assert _final(text, REBALANCE) is None


# --------------------------------------------------------------------------- final verdicts in report words


@pytest.mark.parametrize("tail, outcome", [
    ("On Graham's rules this is an AVOID.", "DECLINE"),           # a rating word in capitals is a verdict anywhere
    ("Six of six checks pass: BUY.", "INVEST"),
    ("Watchlist entry: buy < $0.40 a share.", "DECLINE"),          # a buy limit under today's price is not a buy now
    ("We would buy below $0.40, not at today's $0.55.", "DECLINE"),
    ("This note is not a recommendation to buy or sell.", None),   # two report words joined by 'or': no choice
    ("The price is too high today, so the answer is INCONCLUSIVE until the audit.", "INCONCLUSIVE"),
])
def test_report_words_in_the_wild(tail: str, outcome: str | None) -> None:
    text = "Gate 1 (two-thirds rule): market value $30M against NCAV $60M.\n" + tail
    assert _final(text, NET_NET) == outcome


@pytest.mark.parametrize("card, tail, outcome", [
    ("dalio_economic_machine_positioning", "Hold the balanced mix for now.", "HOLD_BALANCED_MIX"),  # an article inside an outcome
    (NET_NET, "Not a Graham buy at any price while losses continue.", "DECLINE"),  # a report word, denied
    (NET_NET, "We never buy this kind of thing on hope.", "DECLINE"),
])
def test_outcome_words_with_articles_and_denied_report_words(card: str, tail: str, outcome: str) -> None:
    text = "Gate 1 (two-thirds rule): REJECT.\nGate 3 (credit confirmation): REJECT.\n\n" + tail
    assert _final(text, card) == outcome


@pytest.mark.parametrize("line, verdict", [
    ("the discount to NCAV falls short of the one-third Graham asked for.", "REJECT"),
    ("the discount comes up short of the two-thirds line.", "REJECT"),
    ("the margin misses the bar by $4M.", "REJECT"),
    ("the discount does not fall short of the rule.", "PROCEED"),  # negated: a weak PROCEED
])
def test_a_minimum_not_reached_is_a_reject(line: str, verdict: str) -> None:
    assert _gate("Gate 1 (two-thirds rule): " + line, NET_NET) == verdict


@pytest.mark.parametrize("line", ["not assessed: the first gate already failed.", "the rule does not apply here.",
                                  "not meaningful until the price is known."])
def test_a_gate_left_unassessed_is_not_applicable(line: str) -> None:
    text = "Gate 1 (two-thirds rule): REJECT.\nGate 2 (no dissipation): " + line
    assert _gate(text, NET_NET, 2) == "N/A"


@pytest.mark.parametrize("text, outcome", [
    ("Gate 1 (two-thirds rule): PROCEED.\nGate 2 (no dissipation): no income statement was given.\n\n"
     "The numbers are not all in. INCONCLUSIVE until the accounts arrive.", "INCONCLUSIVE"),
    ("Gate 1 (two-thirds rule): PROCEED.\n\nGate 2 (no dissipation): losses in three of five years.\nREJECT.", None),  # a gate's own
])
def test_a_closing_paragraph_that_opens_with_a_verdict_states_the_final_one(text: str, outcome: str | None) -> None:
    assert _final(text, NET_NET) == outcome


def test_an_open_quotation_is_found_from_the_marks_alone_in_a_long_stretch() -> None:
    """still_open on a stretch over 2,000 characters (one scan kept per text, answered by bisection) reads what the
    plain scan reads, asked in any order (a 1 MB line of prose once cost a scan per verdict word; stop 43). Hand-placed
    marks: an opening at 10 closed at 20, a German „ at 3,000 closed by “ at 3,010, an opening at 5,000 never closed."""
    from ipb.scoring.parse._attributed import _QUOTES
    from ipb.scoring.parse._voice import still_open

    chars = ["x"] * 6000
    for at, mark in ((10, '"'), (20, '"'), (3000, "\u201e"), (3010, "\u201c"), (5000, "\u201c")):
        chars[at] = mark
    text = "".join(chars)
    asked = [(0, 15, (10, '"')), (0, 5999, (5000, "\u201d")), (0, 3005, (3000, "\u201c\u201d")), (0, 4000, (-1, "")),
             (0, 21, (-1, "")), (15, 2500, (20, '"')), (15, 5999, (20, '"')), (0, 5000, (-1, "")), (0, 5001, (5000, "\u201d"))]
    for start, stop, want in asked:
        assert still_open(text, _QUOTES, start, stop) == want, (start, stop)
