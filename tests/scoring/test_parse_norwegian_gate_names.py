"""Norwegian names of the NBIM exclusion screen's gates (issue 13, gate references; paper §7.5).

The fund's guidelines, the Council on Ethics (Etikkrådet) and Norwegian news name the criteria in Norwegian: the product
criteria ("produktkriteriene", "kullkriteriet"), the conduct criteria ("atferdskriteriene", "korrupsjonskriteriet"),
NBIM's risk-based divestments ("risikobaserte nedsalg"). The card declares these as aliases, in the definite and
indefinite forms a writer uses (the alias matcher adds English plural endings only). Bare outcome words
("utelukkelse", "observasjon") are no gate's name: both conduct and product criteria lead to them.

Short texts written for these tests; the Norwegian pass / fail marks are read by :mod:`ipb.scoring._foreign_verdicts`.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import read_gates

NBIM = "nbim_gpfg_exclusion_screen"  # 1 universe, 2 product criteria, 3 conduct, 4 risk-based divestment, 5 Ministry restriction


def test_a_norwegian_checklist_names_every_gate() -> None:
    text = ("Forvaltningsmandatet: bestått\nProduktkriteriet: ikke bestått\nAtferdskriteriene: bestått\n"
            "Risikobasert nedsalg: bestått\nInvesteringsrestriksjon: bestått")
    assert read_gates(text, NBIM) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED"), (4, "PROCEED"), (5, "PROCEED")]


def test_the_indefinite_forms_name_the_gates_too() -> None:
    text = ("1. Mandatets investeringsunivers: godkjent\n2. Produktbasert kriterium: ikke oppfylt\n"
            "3. Atferdsbasert kriterium: oppfylt")
    assert read_gates(text, NBIM) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")]


@pytest.mark.parametrize(("name", "gate"), [
    ("Kullkriteriet", 2), ("Tobakkskriteriet", 2), ("Produktbaserte kriterier", 2),
    ("Korrupsjonskriteriet", 3), ("Menneskerettighetskriteriet", 3), ("Miljøkriteriet", 3), ("Klimakriteriet", 3),
    ("Risikobaserte nedsalg", 4), ("Finansdepartementets restriksjon", 5),
])
def test_each_named_criterion_is_its_gate(name: str, gate: int) -> None:
    assert read_gates(f"{name}: ikke bestått", NBIM) == [(gate, "REJECT")]


def test_a_news_sentence_naming_the_coal_criterion_is_no_parse_failure() -> None:
    # the rules read no verdict in "selger seg ut" (sells out): the gate is found, its verdict left open
    text = "Oljefondet selger seg ut av et gruveselskap etter kullkriteriet. Selskapet har 31 prosent av inntektene fra kull."
    assert read_gates(text, NBIM) == [(2, None)]


def test_an_outcome_word_alone_names_no_gate() -> None:
    for text in ("Utelukkelse: bestått", "Observasjon: ikke bestått"):
        parsed = parse_response(text, NBIM, embedder=False)
        assert parsed.status == "parse_failure" and parsed.gates == []
