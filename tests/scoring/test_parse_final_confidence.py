"""The final verdict's confidence weighs the evidence around it (issue 13 item 3; ``scoring/parse/_confidence.py``).

Each evidence term is pinned twice: on its function with hand-worked values,
and on a short answer written for the test (never a corpus text), where the
statement alone gives "Verdict: DECLINE." level 3 (0.85, a label's value)
and the term then moves only the confidence, never the reading.

============================================  ========================================
evidence                                      confidence of a level-3 final verdict
============================================  ========================================
gate verdicts read decide the same outcome     0.95 (:data:`AGREED_CONFIDENCE`)
gate verdicts read decide another outcome      0.85 x 0.7 = 0.595
fail verdict, gates read all PROCEED, some     0.85 x 0.85 = 0.7225
unread
pass verdict, gates read all PROCEED, some     0.85 (no factor)
unread
nothing decided, verdict's sentence starts     0.85 x 0.8 = 0.68
inside (0.15, 0.75) of the text
nothing decided, first or last part            0.85
============================================  ========================================
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._confidence import (
    AGAINST_FACTOR,
    AGREED_CONFIDENCE,
    CONFLICT_FACTOR,
    MIDDLE_FACTOR,
    assessed,
    final_confidence,
    trace_relation,
)
from ipb.scoring.parse._entailed import ENTAILED_FACTOR
from ipb.scoring.parse._types import GateTrace

BUFFETT = compiled_card("buffett_acquisition_checklist").card  # conjunction of 6 gates; INVEST / DECLINE
MUNGER = compiled_card("munger_opportunity_evaluation").card  # 3 of 5 lenses must PROCEED (weight 1 each)
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]


def _g(number: int, verdict: str | None, how: str = "number") -> GateTrace:
    return GateTrace(number, f"gate {number}", verdict, (0, 1), (0, 1), how, None if verdict is None else (0, 1))


def _parse(text: str):  # noqa: ANN202 - a ParsedResponse
    return parse_response(text, BUFFETT, embedder=False)


# --------------------------------------------------------------------------- the trace read against the stated final


@pytest.mark.parametrize(("gates", "outcome", "want"), [
    ([_g(1, "PROCEED"), _g(2, "REJECT")], "DECLINE", "agree"),  # a kill decides DECLINE
    ([_g(1, "PROCEED"), _g(2, "REJECT")], "INVEST", "conflict"),
    ([_g(n, "PROCEED") for n in range(1, 7)], "INVEST", "agree"),  # every gate of the card passes
    ([_g(n, "PROCEED") for n in range(1, 7)], "DECLINE", "conflict"),
    ([_g(1, "PROCEED"), _g(2, "PROCEED")], "INVEST", "lean"),  # four gates unread: nothing decided yet
    ([_g(1, "PROCEED"), _g(2, "PROCEED")], "DECLINE", "against"),
    ([_g(1, "PROCEED"), _g(2, "INCONCLUSIVE")], "DECLINE", None),  # an open gate decides nothing
    ([_g(1, None), _g(2, None)], "DECLINE", None),  # no verdict read
    ([_g(1, "PROCEED"), _g(2, "REJECT")], "INCONCLUSIVE", "conflict"),  # the kill decides DECLINE, not INCONCLUSIVE
    ([], "DECLINE", None),
])
def test_trace_relation_on_a_conjunction(gates: list[GateTrace], outcome: str, want: str | None) -> None:
    assert trace_relation(BUFFETT, gates, outcome, "INVEST", "DECLINE") == want


def test_trace_relation_leaves_out_gates_the_final_verdict_entails() -> None:
    """A gate given PROCEED only because the final verdict clears it (how '+entailed') agrees by construction."""
    entailed = [_g(n, "PROCEED", "name+entailed") for n in range(1, 7)]
    assert trace_relation(BUFFETT, entailed, "INVEST", "INVEST", "DECLINE") is None
    assert trace_relation(BUFFETT, entailed[:5] + [_g(6, "PROCEED")], "INVEST", "INVEST", "DECLINE") == "lean"


def test_trace_relation_on_a_card_counting_proceed_weight() -> None:
    """3 of 5 lenses PROCEED decide INVEST whatever else is read; 3 REJECTs leave too little weight (a kill)."""
    three = [_g(1, "PROCEED"), _g(2, "PROCEED"), _g(3, "PROCEED"), _g(4, "REJECT")]
    assert trace_relation(MUNGER, three, "INVEST", "INVEST", "DECLINE") == "agree"
    assert trace_relation(MUNGER, three, "DECLINE", "INVEST", "DECLINE") == "conflict"
    assert trace_relation(MUNGER, three[:2], "INVEST", "INVEST", "DECLINE") == "lean"  # 2 of 3 needed
    assert trace_relation(MUNGER, [_g(n, "REJECT") for n in (1, 2, 3)], "DECLINE", "INVEST", "DECLINE") == "agree"


# --------------------------------------------------------------------------- the factors, by hand


def test_assessed_multiplies_the_factor_of_each_term() -> None:
    assert assessed(0.85, "conflict", 0.9) == pytest.approx(0.85 * CONFLICT_FACTOR) == pytest.approx(0.595)
    assert assessed(0.85, "against", 0.9) == pytest.approx(0.85 * AGAINST_FACTOR) == pytest.approx(0.7225)
    assert assessed(0.85, None, 0.5) == pytest.approx(0.85 * MIDDLE_FACTOR) == pytest.approx(0.68)
    assert assessed(0.85, "against", 0.5) == pytest.approx(0.85 * 0.85 * 0.8)  # both: 0.578
    assert assessed(0.95, "agree", 0.5) == 0.95  # an agreeing trace outweighs the place
    assert assessed(0.85, "lean", 0.5) == pytest.approx(0.68)
    assert assessed(0.85, None, 0.15) == 0.85 and assessed(0.85, None, 0.75) == 0.85  # the bounds are outside
    assert assessed(0.85, None, None) == 0.85


def test_an_agreeing_trace_raises_the_base_of_every_level() -> None:
    for level, want in ((4, 0.95), (3, 0.95), (2, 0.85), (1, 0.75)):
        assert AGREED_CONFIDENCE[level] == want
        assert final_confidence([(level, 5, "DECLINE", (5, 9))], "DECLINE", (5, 9), "agree", 0.95)[0] == want
    # a competitor at the same level still costs x0.6, on the raised base: 0.85 x 0.6
    assert final_confidence([(2, 5, "DECLINE", (5, 9)), (2, 1, "INVEST", (1, 3))], "DECLINE", (5, 9), "agree", 0.95) \
        == (0.51, "INVEST", (1, 3))


def test_without_evidence_final_confidence_is_the_statements_alone() -> None:
    assert final_confidence([(3, 5, "DECLINE", (5, 9))], "DECLINE", (5, 9)) == (0.85, None, None)
    assert final_confidence([(1, 5, "DECLINE", (5, 9))], "DECLINE", (5, 9)) == (0.45, None, None)


# --------------------------------------------------------------------------- whole answers


def _gates_text(verdicts: list[str]) -> str:
    return "".join(f"{n}. {NAMES[n - 1]}: {v}.\n" for n, v in enumerate(verdicts, start=1))


@pytest.mark.parametrize(("gates", "final", "want"), [
    (["PROCEED", "REJECT"], "DECLINE", 0.95),  # the kill agrees: AGREED_CONFIDENCE[3]
    (["PROCEED", "REJECT"], "INVEST", 0.595),  # the kill says DECLINE: 0.85 x 0.7
    (["PROCEED"] * 6, "INVEST", 0.95),  # every gate passes
    (["PROCEED"] * 6, "DECLINE", 0.595),
    (["PROCEED", "PROCEED"], "INVEST", 0.85),  # four gates unread: no factor
    (["PROCEED", "PROCEED"], "DECLINE", 0.7225),  # 0.85 x 0.85
])
def test_the_trace_read_moves_the_final_confidence_not_the_reading(gates: list[str], final: str, want: float) -> None:
    parsed = _parse(_gates_text(gates) + f"\nVerdict: {final}.")
    assert [g.verdict for g in parsed.gates] == gates
    assert (parsed.final_verdict, parsed.final_runner_up) == (final, None)
    assert parsed.final_confidence == pytest.approx(want, abs=1e-3)


BODY = "A few words on the business, its market and the people who run it.\n\n"
OPEN = "1. Circle of Competence: unclear.\n2. Economic Moat: unclear, the data is thin.\n"


@pytest.mark.parametrize(("text", "want"), [
    (BODY + "Verdict: DECLINE.\n\n" + OPEN, 0.68),  # the sentence starts at 68 of 166 characters: x0.8
    ("Verdict: DECLINE.\n\n" + BODY + OPEN, 0.85),  # at 0: a verdict stated first
    (BODY + OPEN + "\nVerdict: DECLINE.\n", 0.85),  # in the last quarter
])
def test_a_final_verdict_in_the_middle_of_the_text_is_less_sure(text: str, want: float) -> None:
    parsed = _parse(text)
    assert [g.verdict for g in parsed.gates] == ["INCONCLUSIVE", "INCONCLUSIVE"]  # the trace decides nothing
    assert parsed.final_verdict == "DECLINE" and parsed.final_confidence == pytest.approx(want)


def test_a_one_line_answer_is_not_in_the_middle() -> None:
    """The place is the start of the verdict's sentence: "Verdict: DECLINE." alone starts at 0, not at its word."""
    assert _parse("Verdict: DECLINE.").final_confidence == 0.85


def test_entailed_gates_keep_the_statements_confidence() -> None:
    """Entailment is decided and weighed on the statement's confidence (0.85 >= 0.5), before the assessment: the entailed
    gate keeps ENTAILED_FACTOR x 0.85 = 0.51 while INVEST, in the middle of the text, is assessed 0.85 x 0.8 = 0.68
    (gate confidences are not the final verdict's to change; the entailed gate is left out of the trace it is weighed by)."""
    parsed = _parse(BODY + "Verdict: INVEST.\n\n1. Circle of Competence: we know the trade.\n" + BODY)
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [(1, "PROCEED", "name+entailed")]
    assert parsed.final_confidence == pytest.approx(0.68)
    assert parsed.gates[0].confidence == pytest.approx(ENTAILED_FACTOR * 0.85) == pytest.approx(0.51)
