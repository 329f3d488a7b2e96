"""Regressions from the s44 break pass (/work/notes/break44.md): answers written for this file, labelled by hand.

Each test names the defect kind it pins down; the texts are no corpus case.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._common import MAX_SENTENCE_HITS
from parse_support import bounded

GRAHAM_IV = "graham_intrinsic_value_margin_of_safety"  # 4 gates: normal earnings, growth, formula value, margin of safety


def _gates(text: str, card: str = GRAHAM_IV) -> dict[int, tuple[str | None, float]]:
    parsed = parse_response(text, card, embedder=False)
    return {g.gate: (g.verdict, g.confidence) for g in parsed.gates}


def test_hinglish_negator_after_an_english_verdict_word_denies_it() -> None:
    """Negation kind: Hinglish puts 'nahi' after the English word it denies ('pass nahi hai' = does not pass), which
    read PROCEED 0.95; the Latin-letter negators are languages.yaml hi 'negators_after'."""
    text = ("Normal earnings: pass hai, average EPS 58 hai.\n"
            "Conservative growth: pass nahi hai, 15% growth zyada hai.\n"
            "Margin of safety: fail nahin hua, price 1,200 value 1,350 se neeche hai.\n")
    got = _gates(text)
    assert got[1] == ("PROCEED", 0.95)  # nothing after 'pass hai' denies it
    assert got[2][0] == "REJECT"
    assert got[4][0] == "PROCEED" and got[4][1] < 0.7  # a denied FAIL is at most a weak lean to PROCEED


def test_hinglish_negator_in_the_next_clause_leaves_the_verdict() -> None:
    """Negation kind, its bound: a 'nahi' after a clause join ('lekin', but) denies that clause, not the verdict word."""
    assert _gates("Normal earnings: pass hai, lekin growth nahi hai.\n")[1] == ("PROCEED", 0.95)
    assert _gates("Normal earnings: pass hai lekin growth nahi hai.\n")[1] == ("PROCEED", 0.95)


#: A numbered list of the writer's own buying rules, one sentence and a mark each, as many items as Graham's
#: intrinsic-value card has gates (4). Item 1 speaks of profits (gate 1's normal earnings); items 2-4 say nothing of
#: growth, the formula or the margin of safety.
OWN_RULES = """My own checklist before buying any stock:

1. The company has a long record of profits without any losing year at all. \u2713
2. Management is honest and owns a large stake in the company itself. \u2713
3. Debt is small compared with the company's assets and its annual revenue. \u2717
4. A dividend has been paid every year without a break for over ten years. \u2717
"""


def test_a_numbered_list_of_the_writers_own_rules_is_no_confident_reading_of_the_cards_gates() -> None:
    """Place-only kind (break44 #1): items 2-4 were read as gates 2-4 at 0.85 (how 'number') because item 1 named its
    gate; an item whose own words share nothing with its gate's is met by its place, under the review bar (0.7)."""
    got = _gates(OWN_RULES)
    assert got[1] == ("PROCEED", 0.85)  # 'profits': a word of gate 1's own
    assert all(got[k][1] < 0.7 for k in (2, 3, 4))


def test_a_bare_numbered_list_of_verdicts_keeps_its_numbers() -> None:
    """Place-only kind, its bound: '1. PASS', a figure ('2. Rate = ...') or the gate's own words tie an item to its
    number at full confidence, as before."""
    text = ("1. PASS\n"
            "2. Rate = min(8%, 5%) = 5%: PASS\n"
            "3. Value 3.10 x (8.5 + 2 x 5) = 57.35: PASS\n"
            "4. Price 49 against two-thirds of value, 38.23: FAIL\n")
    got = _gates(text)
    assert [got[k][0] for k in (1, 2, 3, 4)] == ["PROCEED", "PROCEED", "PROCEED", "REJECT"]
    assert all(got[k][1] >= 0.85 for k in (1, 2, 3, 4))


def test_a_sentence_in_an_unlisted_language_under_a_number_is_met_by_place() -> None:
    """Place-only kind: a Swahili list of four rules of the writer's own with marks read 0.85 for every gate."""
    text = ("Vigezo vyangu mwenyewe vya kununua hisa\n\n"
            "1. Kampuni iwe na historia ndefu ya faida kwa miaka mingi bila hasara yoyote. \u2713\n"
            "2. Uongozi uwe waaminifu na uwe na hisa nyingi ndani ya kampuni yenyewe. \u2713\n"
            "3. Deni liwe dogo ukilinganisha na mali ya kampuni na mapato yake ya mwaka. \u2717\n"
            "4. Gawio liwe linalipwa kila mwaka bila kukatizwa kwa zaidi ya miaka kumi. \u2717\n")
    got = _gates(text)
    assert sorted(got) == [1, 2, 3, 4] and all(c < 0.7 for _, c in got.values())


def test_a_megabyte_of_marks_with_no_sentence_end_is_read_in_bounded_time() -> None:
    """Pathological-input kind (break44 #5): 1 MB of marks and scores with no sentence end took 103 s (each of its
    21,000 marks judged as a clause's verdict); a sentence of more than MAX_SENTENCE_HITS is read by no clause."""
    wall = "\u2713 \u2717 \u26a0 +/- 4/5 " * 70_000
    text = "Margin of safety: REJECT.\n" + wall + "\nFinal verdict: DECLINE\n"
    with bounded(30):
        parsed = parse_response(text, GRAHAM_IV, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(4, "REJECT")]
    assert parsed.final_verdict == "DECLINE"
    assert all(0.0 <= g.confidence <= 1.0 for g in parsed.gates)


def test_a_sentence_with_a_few_verdict_words_is_still_read_by_its_clauses() -> None:
    """Its bound: the cap is far above a sentence a writer writes (four verdict words here)."""
    assert MAX_SENTENCE_HITS >= 64
    got = _gates("The earnings base passes, growth passes, the formula value passes, but the margin of safety fails.\n")
    assert got[4][0] == "REJECT"
