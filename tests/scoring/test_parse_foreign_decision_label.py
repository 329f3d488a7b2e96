"""A decision label in another language under a gate table opens the conclusion; it is never an invented gate.

s44user (an evaluator whose model answered in German): "**Endgültiges Urteil: INCONCLUSIVE**" under a table of the
Marks risk-return card's five gates was read as an invented gate named "Endgültiges Urteil" (FM-1 fired and the
BASP-strict OGRS gate failed) although the final verdict itself was read. The English "**Final decision:
INCONCLUSIVE**" never was: the parser keeps decision labels out of gate names, and now does so for the labels of
grammar/languages.yaml (``labels`` and ``final_labels``) as well.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "marks_risk_return_assessment"

TABLE = (
    "| # | Kriterium | Ergebnis | Begründung |\n"
    "|---|---|---|---|\n"
    "| 1 | Price Relative to Value | erfüllt | Preis $600M gegen einen Wert von $1B |\n"
    "| 2 | Prospective Return Versus Risk | offen, nicht entscheidbar | Prämie 3%, Datenlage dünn |\n"
    "| 3 | Risk of Permanent Loss | offen, nicht entscheidbar | Verlustwahrscheinlichkeit unbekannt |\n"
    "| 4 | Second-Level Thinking | erfüllt | abweichende, belegte Sicht |\n"
    "| 5 | Position of the Pendulum | nicht erfüllt | Markt heiß gelaufen |\n\n"
)


@pytest.mark.parametrize("label", ["Endgültiges Urteil", "Endgültige Entscheidung", "Fazit", "Final decision"])
def test_a_decision_label_closing_a_german_table_is_the_final_verdict_not_a_gate(label):
    parsed = parse_response(TABLE + f"**{label}: INCONCLUSIVE**\n", CARD, embedder=False)
    assert parsed.status == "ok", parsed.reason
    assert parsed.invented_gates == []
    assert parsed.final_verdict == "INCONCLUSIVE"
    assert [(g.gate, g.verdict) for g in parsed.gates] == [
        (1, "PROCEED"), (2, "INCONCLUSIVE"), (3, "INCONCLUSIVE"), (4, "PROCEED"), (5, "REJECT")]


@pytest.mark.parametrize("label", ["Decisión final", "Conclusion finale", "Итоговое решение"])
def test_decision_labels_of_other_languages_are_no_gates_either(label):
    text = "1. Price Relative to Value: PROCEED\n2. Position of the Pendulum: REJECT\n\n" + f"{label}: INCONCLUSIVE\n"
    parsed = parse_response(text, CARD, embedder=False)
    assert parsed.invented_gates == []
    assert parsed.final_verdict == "INCONCLUSIVE"


def test_a_gate_named_in_a_row_is_still_read_beside_the_label():
    """The label check is a whole-label match: a gate row that merely contains a label word keeps its gate."""
    text = TABLE.replace("Position of the Pendulum", "Position of the Pendulum (Fazit des Zyklus)")
    parsed = parse_response(text + "**Endgültiges Urteil: INCONCLUSIVE**\n", CARD, embedder=False)
    assert (5, "REJECT") in [(g.gate, g.verdict) for g in parsed.gates]
