"""Report-style check titles that name a gate in other words (issue 13, gate references).

An agent's report titles its checks "Growth Metrics Analysis", "PEG Ratio Calculation", "Category Rules",
"Rotation Scan": the frame nouns (analysis, metrics, calculation, rules, scan) name no substance, and a word the
title keeps ("growth") may be shared by several gates. A reader settles such a title by the other titles: "PEG
Ratio" is the P/E-versus-growth gate by its alias, so "Growth Metrics" is the one gate left whose own words hold
"growth" (the broken-story gate reads growth now against growth at purchase).

Answers written for these tests; every reading was worked by hand against the bundled card named beside each
constant. Guards (a rule that must not fire) sit beside the positive tests.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from parse_support import read_gates as _read

LYNCH = "lynch_portfolio_story_review"  # 1 story broken, 2 P/E far above growth, 3 category sell signal, 4 better opportunity; HOLD / SELL
KLARMAN = "klarman_deep_value_identification"  # 1 source of mispricing, 2 conservative valuation, 3 margin of safety, 4 catalyst

_REVIEW = """Quarterly holding review: Brindle Tools (BRT)

- **Growth Metrics Review:** earnings are growing 11% a year, close to the 12% we bought it for. Story intact: PROCEED.
- **PEG Ratio Calculation:** P/E 14 on 11% growth plus a 2% yield gives 0.93. Not overpriced: PROCEED.
- **Category Rules:** a stalwart up 18% since purchase, short of the 30% profit zone. PROCEED.
- **Rotation Scan:** no better story at hand. PROCEED.

Decision: HOLD.
"""


def test_frame_nouns_and_a_shared_word_name_the_gate_no_other_title_names() -> None:
    """Bug kind: a title that shares one word with a gate another title names was read as an invented gate (or
    as that other gate, its verdict then crossing into the wrong row)."""
    result = parse_response(_REVIEW, LYNCH, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]
    assert result.invented == []
    assert result.final_verdict == "HOLD"


def test_plural_frame_noun_is_no_content_word() -> None:
    """"Category Rules" is the category gate: "rules" frames it as "rule" does."""
    text = "- **Category Rules:** a fast grower that has slowed to 6%: SELL signal hit. REJECT.\n\nDecision: SELL.\n"
    assert _read(text, LYNCH) == [(3, "REJECT")]


def test_a_field_under_a_gate_heading_stays_with_that_gate() -> None:
    """Guard: "- Price: ..." under the margin-of-safety heading is a field of that gate, not a peer title for
    another gate whose words also hold "price"."""
    text = ("### Margin of safety\n"
            "- Price: $20 a share against a value of $31.\n"
            "- A wide discount. PROCEED.\n\n"
            "### Catalyst\n"
            "- A spin-off is scheduled for March. PROCEED.\n")
    assert [g for g, _ in _read(text, KLARMAN)] == [3, 4]


QUALITY = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 advantage, 4 management, 5 price; INVEST / DECLINE

_QUESTIONS = """# Holding review: Corran Mills

## Is there a lasting moat here?
The mill brand holds its price against store labels. PROCEED.

## What are the incentives of the managers?
The chief executive sold half her shares last spring and the bonus is paid on revenue. REJECT.

Verdict: DECLINE.
"""


def test_a_question_heading_of_many_small_words_is_a_title() -> None:
    """Bug kind: a question heading of seven words, two of them content words ("incentives", "managers"), was
    too long for the vocabulary reader and was reported as an invented gate."""
    result = parse_response(_QUESTIONS, QUALITY, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(3, "PROCEED"), (4, "REJECT")]
    assert result.invented == []


def test_short_label_bounds() -> None:
    """The widened bound is for titles only; a comma still marks a sentence."""
    from ipb.scoring.parse._vocabulary import short_label

    assert short_label("What are the incentives of the managers?", title=True)
    assert not short_label("What are the incentives of the managers?")  # a bullet's or a cell's label keeps five words
    assert not short_label("Ten cap on owner earnings and growth of value", title=True)  # six content words
    assert not short_label("Management, which I would not trust", title=True)
