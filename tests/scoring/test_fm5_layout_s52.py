"""FM-5's sequence clause reads a table's or a JSON list's order as the paper's connectors (s52newuser finding 4).

Paper §7.11: FM-5 fires when GCF_det < 0.70 or SeqScore = count(seq. conn.) / (n_G - 1) < 0.40, the connectors
being "first", "then", "next", "Gate [1-9]", "Step [1-9]", "followed by", "subsequently". The new user's faultless
analyst wrote one answer as a Markdown table numbered 1-5 and one as a JSON list of five gate objects: neither has a
connector word, so SeqScore was 0 and FM-5 fired on both (a 50% rate over four faultless answers) for the layout, not
for flattening. A row numbered "1", "2", ... numbers the walk as "Gate 1", "Gate 2" do, and a table's rows and a JSON
list's objects come in order; now they count (:func:`ipb.scoring.fmdp.layout_connector_count`). Texts written here;
SeqScore worked by hand in each case.
"""

from __future__ import annotations

import json

import pytest

from ipb.scoring.fmdp import fm5, layout_connector_count
from ipb.scoring.metrics import Case

NAMES = ["Moat", "Price", "Debt", "Management"]


def _gold(n: int) -> dict:
    return {"framework": "test", "investment_verdict": "INVEST", "verdict_trigger": None,
            "gold_program": [{"gate": g, "name": NAMES[g - 1], "verdict": "PROCEED", "kill_criterion": None,
                              "required_elements": [], "kill_triggered": False, "computed_value": None}
                             for g in range(1, n + 1)]}


def _case(text: str, n: int = 4) -> Case:
    parsed = {"status": "ok", "reason": None, "final_verdict": "INVEST", "invented_gates": [], "years": [],
              "attributions": [], "citations": [], "text": text,
              "gates": [{"gate": g, "name": NAMES[g - 1], "verdict": "PROCEED", "elements": [], "span": [0, 0]}
                        for g in range(1, n + 1)]}
    return Case(gold=_gold(n), parsed=parsed)


NUMBERED_TABLE = ("| # | Gate | Verdict |\n|---|---|---|\n" + "".join(f"| {i} | {n} | PROCEED |\n" for i, n in enumerate(NAMES, 1))
                  + "\nFinal verdict: INVEST")
PLAIN_TABLE = "| Gate | Verdict |\n|---|---|\n" + "".join(f"| {n} | PROCEED |\n" for n in NAMES) + "\nFinal verdict: INVEST"
JSON_LIST = json.dumps({"gates": [{"gate": n, "verdict": "PROCEED"} for n in NAMES], "final_verdict": "INVEST"})


@pytest.mark.parametrize("text, markers, seq", [
    (NUMBERED_TABLE, 4, 4 / 3),  # four numbered rows; n_G - 1 = 3
    (PLAIN_TABLE, 3, 3 / 3),  # four body rows, each after the first: 3
    (JSON_LIST, 3, 3 / 3),  # four objects of one list, each after the first: 3
    ("```json\n" + JSON_LIST + "\n```", 3, 3 / 3),  # fenced
])
def test_a_table_or_json_giving_every_gate_is_not_flagged(text, markers, seq):
    assert layout_connector_count(text) == markers
    flag = fm5(_case(text))
    assert flag.fired is False
    assert flag.evidence["seq_score"] == pytest.approx(seq)
    assert flag.evidence["layout_connectors"] == markers


def test_prose_without_connectors_is_still_flagged():
    # four gates, no connector, no layout: SeqScore 0 / 3 = 0 < 0.40, as the paper's rule is written
    flag = fm5(_case("Moat ok. Price ok. Debt ok. Management ok. Final verdict: INVEST"))
    assert (flag.fired, flag.rule, flag.evidence["seq_score"]) == (True, "sequence", 0.0)


def test_a_two_row_table_of_seven_gates_is_still_flagged():
    # a table of two rows against a seven-gate program: one marker, SeqScore 1 / 6 = 0.167 < 0.40 (coverage aside)
    text = "| Gate | Verdict |\n|---|---|\n| Moat | PROCEED |\n| Price | PROCEED |"
    assert layout_connector_count(text) == 1
    names = NAMES + ["Growth", "Dividend", "Size"]
    case = Case(gold={**_gold(4), "gold_program": [{**_gold(4)["gold_program"][0], "gate": g, "name": names[g - 1]}
                                                   for g in range(1, 8)]},
                parsed={**_case(text).parsed, "gates": [{"gate": g, "name": names[g - 1], "verdict": "PROCEED",
                                                         "elements": [], "span": [0, 0]} for g in range(1, 8)]})
    flag = fm5(case)
    assert (flag.fired, flag.rule) == (True, "sequence")
    assert flag.evidence["seq_score"] == pytest.approx(1 / 6)


def test_text_that_is_not_json_counts_no_json_items():
    assert layout_connector_count("{not json, [1, 2]}") == 0
    assert layout_connector_count('[1, 2, 3]') == 0  # a list of numbers, no gate objects
