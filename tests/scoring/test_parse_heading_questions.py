"""A question that ends its line, answered by a Yes or No opening the next line (issue 13, wild analyses).

Blog reviews and Q&A pages put each criterion as a heading asked as a question and answer it on the line
below: "Is it cheap relative to peers?" then "No: 14x EV/EBIT against 11x." The answer is read as if it
stood right after the "?" on the question's line (the same sense rules: a Yes to a question about a
failure fails the gate), with one line break at most between them, never across a blank line. Every text
here was written for these tests; the expected readings were worked by hand against the bundled cards
(tests named beside each case; paper §7.5).
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

NBIM = "nbim_gpfg_exclusion_screen"  # gate 1 both tests, 2/4/5 reject only, 3 both
SPIN = "greenblatt_spinoff_checklist"  # every gate both tests


def _read(text: str, card: str) -> dict[int, str | None]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: g.verdict for g in result.gates}


def test_numbered_questions_answered_on_the_next_line() -> None:
    text = (
        "Review of Hartwell Mining plc\n\n"
        "1. Does the issuer fall inside the GPFG investment universe?\n"
        "Yes, it is a listed equity in London.\n\n"
        "2. Do the product criteria apply to it?\n"
        "No. It mines copper and owns no coal power.\n\n"
        "3. Has the Council on Ethics proposed an ethical exclusion?\n"
        "No, nothing is pending.\n\n"
        "The fund keeps the position.\n"
    )
    gates = _read(text, NBIM)
    # gate 2 watches only for a failure: "No" to "do the product criteria apply" passes it
    assert {g: gates.get(g) for g in (1, 2, 3)} == {1: "PROCEED", 2: "PROCEED", 3: "PROCEED"}


def test_a_yes_on_the_next_line_to_an_exclusion_question_fails_the_gate() -> None:
    text = (
        "- Is the company inside the GPFG investment universe?\n"
        "  Yes.\n"
        "- Do the product criteria apply?\n"
        "  Yes. A fifth of revenue comes from thermal coal.\n"
    )
    gates = _read(text, NBIM)
    assert (gates.get(1), gates.get(2)) == ("PROCEED", "REJECT")


def test_heading_questions_on_gates_with_both_tests() -> None:
    text = (
        "Spin-off notes: Tamsin Foods\n\n"
        "Do insiders want it?\n"
        "Yes, the new CEO holds 6% and bought more last month.\n\n"
        "Is it cheap relative to peers?\n"
        "**No**: 14x EV/EBIT against 11x for the group.\n"
    )
    gates = _read(text, SPIN)
    assert (gates.get(2), gates.get(3)) == ("PROCEED", "REJECT")


def test_no_one_opening_the_next_line_is_no_answer() -> None:
    text = "Is it cheap relative to peers?\nNo one has priced the spin-off yet.\n"
    result = parse_response(text, SPIN, embedder=False)
    assert [g.verdict for g in result.gates if g.gate == 3] in ([], [None])


def test_a_yes_or_no_opening_a_sentence_under_a_heading_question() -> None:
    # the writer gives the facts first and the answer after them, in the paragraph under the heading
    text = (
        "Spin-off notes: Tamsin Foods\n\n"
        "Do insiders want it?\n"
        "The new CEO holds 6% and bought more last month. Yes, they do.\n\n"
        "Is it cheap relative to peers?\n"
        "It trades at 14x EV/EBIT; the group trades at 11x. No - not on this yardstick.\n"
    )
    gates = _read(text, SPIN)
    assert (gates.get(2), gates.get(3)) == ("PROCEED", "REJECT")



def test_the_heading_questions_own_words_set_the_sense_of_its_answer() -> None:
    # gate 3 has both tests: a question naming exclusion asks about the failure, so "Yes" under it is REJECT
    text = (
        "Hartwell Mining plc\n\n"
        "1. Does the issuer fall inside the GPFG investment universe?\n"
        "Yes.\n\n"
        "2. Has the Council on Ethics recommended an exclusion?\n"
        "Yes. It did so in May, citing severe environmental damage at two mines.\n"
    )
    gates = _read(text, NBIM)
    assert (gates.get(1), gates.get(3)) == ("PROCEED", "REJECT")
