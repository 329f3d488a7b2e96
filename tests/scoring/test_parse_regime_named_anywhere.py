"""A classifying gate's regime said of the case, wherever it is said (issue 13, detection round 2; s28).

Every text here was written for this file; the readings are labelled by hand. Regression kind: *regime named outside
its gate's section dropped*: "it's a slow grower" in prose, or "a cyclical name" inside another gate's paragraph,
classified nothing, so the classifying gate (Lynch's six categories, Marks' temperature, Dalio's debt-cycle phase)
went undetected. A regime said of the case (predicated, or naming the case: "a turnaround story") now detects the
classifying gate with a hedged PROCEED; a regime mentioned in passing or denied does not. Writers' plain words for a
regime ("sluggard", "overheated") read as the regime's own.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse._regime_words import placed
from tests.scoring.parse_support import gate_verdicts as _gates

LYNCH = "lynch_six_category_framework"  # 1 classifies (six categories), 2 price versus growth, 3 balance sheet, 4 story
MARKS = "marks_market_cycle_positioning"  # 1 temperature (hot / cold / neutral), 2 posture
DEBT = "dalio_debt_supercycle_navigation"  # 1 debt-cycle phase, 2 phase positioning


@pytest.mark.parametrize("text", [
    "Frankly it's a sluggard, earnings up 2% a year. Its P/E of 20 is far too high for that growth. Decline.",
    "This is a slow grower. The P/E of 20 is far too high for 2% growth. Decline.",
    "A turnaround story: heavy losses, a plan to sell the losing units. Invest.",
    "The PEG ratio is 2.1, which is fine, and it is a cyclical name at the bottom of its cycle. Invest.",
], ids=["sluggard", "slow-grower", "turnaround-story", "cyclical-name-in-another-gate"])
def test_a_lynch_category_said_of_the_company_detects_the_classifying_gate(text: str) -> None:
    gates = _gates(text, LYNCH)
    assert gates.get(1) == "PROCEED"


@pytest.mark.parametrize(("card", "text"), [
    (MARKS, "Everyone we speak to says the market is overheated. We stay defensive. DEFENSIVE."),
    (DEBT, "We are in a bubble: debt outgrows incomes and the signals are lit. Stay invested. STAY_INVESTED."),
], ids=["marks-overheated", "dalio-bubble"])
def test_a_cycle_word_said_of_the_market_detects_the_classifying_gate(card: str, text: str) -> None:
    assert _gates(text, card).get(1) == "PROCEED"


@pytest.mark.parametrize("text", [
    "The PEG ratio matters most for a fast grower; here it is 0.6, poor. Decline.",
    "It is not a slow grower, whatever the headlines say; the PEG ratio is 0.6, poor. Decline.",
], ids=["in-passing", "denied"])
def test_a_regime_mentioned_in_passing_or_denied_classifies_nothing(text: str) -> None:
    assert 1 not in _gates(text, LYNCH)


@pytest.mark.parametrize(("text", "word", "expected"), [
    ("So it's a sluggard.", "sluggard", True),
    ("The market is hot.", "hot", True),
    ("Slow grower: yes, 3% a year.", "Slow grower", True),
    ("A cyclical name.", "cyclical", True),
    ("Growth is 25% a year, so a fast grower.", "fast grower", True),
    ("Lynch would call it a stalwart.", "stalwart", True),
    ("Lynch buys a fast grower only cheap.", "fast grower", False),
    ("This is hardly a slow grower.", "slow grower", False),
])
def test_placed_reads_whether_the_regime_is_said_of_the_case(text: str, word: str, expected: bool) -> None:
    start = text.index(word)
    assert placed(text, start, start + len(word)) is expected
