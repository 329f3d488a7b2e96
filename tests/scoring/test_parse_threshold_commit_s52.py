"""A gate verdict the parser gives a restated figure by the card's own threshold is hedged and alone commits to nothing
(s52break finding 1; scoring/parse/_prose.py '+threshold', scoring/parse/_section_reading.py).

s52echo ran bench/parse_accuracy.py --embedder off on the whole corpus with and without that reading: without it
gate-verdict accuracy fell (tuned 64.8% -> 64.3%, heldout 61.6% -> 61.2%; final verdicts, parse failures and invented
gates unchanged), so the labels keep it. It stays, with a confidence under the review bar, and
:func:`ipb.scoring.outcome.commits` does not count it: an answer whose only decided gates are such readings, with no
decided final verdict, is a refusal (``no_commitment``). Texts written for this test; card graham_net_net_screen,
whose gate 2 rejects a net loss (net_income < 0).
"""

from __future__ import annotations

import pytest

from ipb.scoring.outcome import commits
from ipb.scoring.parse import parse_response

NETNET = "graham_net_net_screen"
# a restated fact, no word of judgement: the card's test reads gate 2 REJECT from "-$4M"
FACT = "A shoe maker.\n\nThe net income of the latest fiscal year is -$4M.\n"


def _gate(parsed, gate):
    return next(g for g in parsed["gates"] if g["gate"] == gate)


SAID = [
    FACT,
    # the gate's name as a heading, then the figure: read 0.65 before s52echo capped it
    "Current Assets Not Dissipated by Losses\nThe net income of the latest year is -$4M.\n",
    # under the gate's label: the section reader, which marks it '+threshold' too
    "Gate 2 (Current Assets Not Dissipated by Losses): net income was -$4M last year.\n",
]


@pytest.mark.parametrize("text", SAID)
def test_a_restated_figure_is_read_hedged_and_says_how(text):
    parsed = parse_response(text, NETNET, embedder=False).to_dict()
    g2 = _gate(parsed, 2)
    assert g2["verdict"] == "REJECT" and "+threshold" in g2["how"] and g2["verdict_span"] is None
    assert g2["confidence"] <= 0.55  # THRESHOLD_CONFIDENCE / SECTION_CONFIDENCE
    assert not commits(parsed, "DECLINE")


def test_alone_it_commits_to_nothing():
    parsed = parse_response(FACT, NETNET, embedder=False).to_dict()
    assert parsed["final_verdict"] is None
    assert not commits(parsed, "DECLINE")


def test_with_a_verdict_word_of_its_own_the_answer_commits():
    parsed = parse_response(FACT + "\nGate 2 (Current Assets Not Dissipated by Losses): REJECT.\n", NETNET,
                            embedder=False).to_dict()
    assert _gate(parsed, 2)["verdict"] == "REJECT" and "+threshold" not in _gate(parsed, 2)["how"]
    assert commits(parsed, "DECLINE")


def test_with_a_stated_final_verdict_the_answer_commits():
    parsed = parse_response(FACT + "\nFinal verdict: DECLINE\n", NETNET, embedder=False).to_dict()
    assert parsed["final_verdict"] == "DECLINE" and commits(parsed, "DECLINE")
