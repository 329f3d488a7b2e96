"""Spanish "pasa" / "pasó" (passes, passed) and "no llega" (falls short), added at stop 65 (issue 13; paper §7.5).

Portuguese and Italian kept "passa" as a pass word (``grammar/languages.yaml``); Spanish kept only its negated form "no
pasa", so a Spanish analysis that closes each criterion with "Pasa." or "Esa no la pasa." read no verdict. Short
texts written for these tests, in the writer's own words. The senses that are no verdict stay unread: "pasa de 15%"
(exceeds), "¿qué pasa con ...?" (what about), "lo que pasa es que" (it happens that), "no llega a ser caro" (does not
get to be dear).
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw

from tests.scoring.parse_support import gate_verdicts

MUNGER = "munger_business_quality_price"  # gate 1 circle of competence, gate 3 durable moat

FORMS = [
    ("pasa", "Pasa sin problema.", "No llega, amigo. Esa no la pasa."),
    ("paso", "pasó.", "no pasó."),
    ("lo-pasa", "este punto lo pasa.", "este no lo pasa."),
]


@pytest.mark.parametrize(("yes", "no"), [f[1:] for f in FORMS], ids=[f[0] for f in FORMS])
def test_spanish_pass_and_fail_forms(yes: str, no: str) -> None:
    text = f"1. Circle of competence: {yes}\n2. Moat: {no}\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize("text", [
    "1. Circle of competence: el margen pasa de 15% este año.\n2. Moat: lo que pasa es que nadie compite.\n",
    "1. Circle of competence: ¿qué pasa con la deuda?\n2. Moat: el precio no llega a ser caro.\n",
], ids=["pasa-de-pasa-es", "pasa-con-no-llega-a"])
def test_spanish_senses_that_are_no_verdict(text: str) -> None:
    assert gate_verdicts(text, MUNGER) == {1: None, 3: None}


def test_pasa_guard_is_spanish_only_where_the_word_is() -> None:
    # "pasa" is spelt alike in Spanish, Portuguese and Italian: the guards of all three apply, and a bare "pasa" reads
    pattern = re.compile(fv.bounded("pasa"), re.IGNORECASE)
    assert pattern.search("pasa de 15%") is None and pattern.search("pasa con la deuda") is None
    assert pattern.search("Pasa sin problema") is not None
