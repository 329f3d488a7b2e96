"""The FMDP false positives issue 14 named, each pinned (item 4), and the bundled scenarios against FM-6."""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.perturb.items import scenario_year_of
from ipb.respond.synthetic import bundled_items
from ipb.scoring.embeddings import HashingEncoder
from ipb.scoring.fmdp import fm1, fm3, fm6, looks_like_a_gate
from ipb.scoring.metrics import Case, InvestorProfile

ENC = HashingEncoder()
DALIO = InvestorProfile("Ray Dalio", active=(1975, 2022))


def _gold(verdicts: str, kill: dict[int, list[str]] | None = None) -> dict:
    letters = {"P": "PROCEED", "R": "REJECT", "I": "INCONCLUSIVE", "N": "N/A"}
    return {"gold_program": [
        {"gate": i, "name": f"Gate {i}", "verdict": letters[v], "kill_criterion": None,
         "required_elements": list((kill or {}).get(i, [])), "kill_triggered": False}
        for i, v in enumerate(verdicts, start=1)]}


@pytest.mark.parametrize("label, gate", [("Results summary", False), ("Summary of verdicts", False),
                                         ("Checks passed", False), ("Final verdict", False),
                                         ("Gate 7: Dividend coverage", True), ("Moat durability", True)])
def test_fm1_counts_only_labels_that_read_as_gates(label, gate):
    assert looks_like_a_gate(label) is gate
    case = Case(_gold("PP"), {"status": "ok", "gates": [{"gate": 1, "verdict": "PROCEED"}], "invented_gates": [label],
                              "text": ""}, card_gates=(1, 2), encoder=ENC)
    flag = fm1(case)
    assert flag.fired is gate
    assert (label in flag.evidence["ignored_labels"]) is not gate


def test_fm3_reads_a_kill_criterion_phrased_in_the_gates_own_sentences():
    """The kill gate is named with its verdict; the extractor took no element, the gate's sentence states it."""
    text = "Gate 1: Margin of Safety. The price is well under intrinsic value, so PROCEED."
    gold = _gold("P", {1: ["price below intrinsic value"]})
    gates = [{"gate": 1, "verdict": "PROCEED", "elements": [], "span": [0, len(text)]}]
    case = Case(gold, {"status": "ok", "gates": gates, "text": text}, kill_gates={1: "price_exceeds_intrinsic_value"},
                encoder=ENC)
    flag = fm3(case)
    assert flag.fired is False and flag.evidence["detected"] == [1]
    silent = Case(gold, {"status": "ok", "gates": [{"gate": 1, "verdict": "PROCEED", "elements": [], "span": [0, 28]}],
                         "text": text[:28]}, kill_gates={1: "price_exceeds_intrinsic_value"}, encoder=ENC)
    assert fm3(silent).fired is True  # named, but its criterion is nowhere: the omission FM-3 describes


def test_fm6_takes_the_framework_year_from_the_card_vintage_not_later_citations():
    """A faithful Dalio answer on a 1999 bubble cites his 2018 book: the framework (vintage 1990s) is not anachronistic."""
    parsed = {"status": "ok", "gates": [], "text": "", "citations": [{"entity": "Ray Dalio", "year": 2018,
                                                                        "document": "Big Debt Crises"}]}
    case = Case(_gold("P"), parsed, layer="L7", investor=DALIO, scenario_year=1999, framework_year=1995, encoder=ENC)
    flag = fm6(case)
    assert flag.fired is False and flag.evidence["framework_year"] == 1995
    assert flag.evidence["framework_year_from"] == "card vintage"
    anachronistic = Case(_gold("P"), parsed, layer="L7", investor=DALIO, scenario_year=1960, framework_year=1995,
                         encoder=ENC)
    assert fm6(anachronistic).fired is True


def test_no_bundled_scenario_is_anachronistic_for_its_card():
    """Issue 14: every bundled scenario checked against its card's vintage start (FM-6's framework year)."""
    items = bundled_items()
    checked = 0
    for item in items:
        card = compiled_card(item["card"]).card
        year = scenario_year_of(item)
        if year is None or not card.vintage:
            continue
        checked += 1
        assert card.vintage[0] - year <= 10, (item["id"], card.vintage, year)
    assert checked >= 100


class _Fixed:
    """An encoder that puts the answer next to Marks' voice reference whatever it says."""

    def encode(self, sentences):
        import numpy as np

        return np.array([[0.0, 1.0] if ("pendulum" in s or s.startswith("Gate")) else [1.0, 0.0] for s in sentences])


def test_fm4_persona_inversion_needs_the_other_investors_own_words():
    from ipb.scoring.fmdp import fm4

    buffett = InvestorProfile("Warren Buffett", distinctive_phrases=("circle of competence",), aliases=("Buffett",))
    marks = InvestorProfile("Howard Marks", distinctive_phrases=("pendulum", "second-level thinking"))
    faithful = "Gate 1: Circle of Competence. Buffett would understand this business: PROCEED."
    borrowed = "Gate 1: the pendulum has swung too far; second-level thinking says PROCEED."
    for text, fired in ((faithful, False), (borrowed, True)):
        case = Case(_gold("P"), {"status": "ok", "gates": [], "text": text}, investor=buffett, peers=(marks,),
                    encoder=_Fixed())
        flag = fm4(case)
        assert flag.evidence["closest_investor"] == "Howard Marks"  # closest by the embedding either way
        assert flag.fired is fired, flag.evidence


FRENCH = ("1. Rentabilité des actifs positive : ROA de 6 %, supérieur à zéro. PROCEED.\n"
          "2. Flux de trésorerie d'exploitation positif : 9 % des actifs. PROCEED.\n"
          "Verdict final : BUY")
ENGLISH = ("1. Return on assets positive: ROA is 6%, above zero. PROCEED.\n"
           "2. Operating cash flow positive: it is 9% of the assets. PROCEED.\n"
           "Final verdict: BUY")


@pytest.mark.parametrize("text, fired", [(FRENCH, False), (ENGLISH, True)], ids=["french", "english"])
def test_fm1_does_not_call_gate_names_in_an_unread_language_invented(text, fired):
    """s46user: a right answer in French naming a card's gates in French had every name 'invented', FM-1 on 100%.

    The same two labels in an English answer are names the card lacks, and FM-1 still fires on them.
    """
    labels = ["Rentabilité des actifs positive", "Flux de trésorerie d'exploitation positif"]
    case = Case(_gold("PP"), {"status": "ok", "gates": [], "invented_gates": labels, "text": text},
                card_gates=(1, 2), encoder=ENC)
    flag = fm1(case)
    assert flag.fired is fired
    assert flag.evidence["invented"] == ([] if not fired else labels)
    assert flag.evidence["unread_labels"] == (labels if not fired else [])
    assert flag.evidence["ignored_labels"] == []
