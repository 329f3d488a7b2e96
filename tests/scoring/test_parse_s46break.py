"""A gate's name read as its own verdict, found by stop 46's breaker (break46; issue 13; paper §7.5).

Munger's gate 5 is called "Fair Price", and "fair price" is an appraisal of the lexicon (grammar/appraisals.yaml): an
answer that only named the gate ("Fair Price.", "Fair Price is a gate.", "Next: Fair Price.", "We discuss Fair
Price.", or the sentence "Fair Price is a gate. " repeated to a megabyte) read gate 5 as PROCEED (0.38 to 0.65), from
the section reading (``._section_reading``) or the prose reading (``._prose``). The gate's name written as the card
writes it, in title case, names the gate; it does not appraise it (``._prose.in_titled_name``). The same words in
running text ("At 14x this is a fair price.") stay a PROCEED reading.

Answers written for these tests (no corpus text); each expected verdict worked by hand: none of the answers that only
name the gate states a verdict, so none may read one.
"""

from __future__ import annotations

import pytest

from parse_support import gate_reading
from ipb.scoring.parse import parse_response

MUNGER = "munger_business_quality_price"


def _gate5_verdicts(text: str) -> list[str]:
    """The verdicts read for gate 5 (rules only); an answer with no gate recognised at all reads none."""
    return [g.verdict for g in parse_response(text, MUNGER, embedder=False).gates if g.gate == 5 and g.verdict]


@pytest.mark.parametrize("text", [
    "Fair Price.",
    "Fair Price is a gate.",
    "Fair Price is a criterion.",
    "Fair Price is the fifth gate of the card.",
    "Next: Fair Price.",
    "We discuss Fair Price.",
    "Fair Price is a gate. " * 50,
])
def test_naming_the_gate_reads_no_verdict(text):
    assert _gate5_verdicts(text) == []


@pytest.mark.parametrize("text", [
    "Fair Price\nAt 14x this is a fair price.",  # the appraisal in running text, under the gate's name
    "Fair Price: at 14x earnings it is a fair price.",
])
def test_the_same_words_as_an_appraisal_still_read_proceed(text):
    reading = gate_reading(text, MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED", reading


def test_a_stated_verdict_after_the_name_is_read():
    assert gate_reading("Fair Price: REJECT (45x earnings).", MUNGER, 5) == ("REJECT", 0.95)
