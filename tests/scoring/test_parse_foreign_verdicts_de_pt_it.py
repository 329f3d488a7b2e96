"""German, Portuguese and Italian verdict forms added at stop 41 (issue 13, class G-C; ``grammar/languages.yaml``).

Short texts written for these tests. German "fällt durch" / "durchfällt" / "scheitert" (fails), Portuguese "passa" / "passou"
(passes, passed) and "reprova", Italian "passa", "promossa", "bocciata", "respinta" and the negator "non". The senses
that are no verdict stay unread: Portuguese "passa a ser" (becomes) and "passa de 15%" (exceeds), Italian "passa al"
(moves to) and "supera il 15%" (exceeds), German "in Ordnung" (a point on a scale as often as a verdict), and German
"Mai" (May), which is why Italian "mai" (never) is no negator.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw

from tests.scoring.parse_support import gate_verdicts

MUNGER = "munger_business_quality_price"  # gate 1 circle of competence, gate 3 durable moat

MARKS = [
    ("de-faellt-durch", "bestanden", "das Unternehmen fällt durch"),
    ("de-durchfaellt", "erfüllt", "klar, dass es hier durchfällt"),
    ("de-scheitert", "bestanden", "hier scheitert das Unternehmen"),
    ("pt-passa", "passa com folga", "não passa"),
    ("pt-passou", "passou", "reprova"),
    ("it-passa", "passa", "non passa"),
    ("it-promossa", "promossa", "bocciata"),
    ("it-superato", "superato", "respinta"),
]


@pytest.mark.parametrize(("lang", "yes", "no"), MARKS, ids=[m[0] for m in MARKS])
def test_pass_and_fail_forms(lang: str, yes: str, no: str) -> None:
    text = f"1. Circle of competence: {yes}\n2. Moat: {no}\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize("text", ["Moat: non è stato rispettato.", "Moat: il criterio non viene rispettato."],
                         ids=["non-two-words-before", "non-one-word-before"])
def test_italian_non_flips_a_pass_word(text: str) -> None:
    assert gate_verdicts("1. Circle of competence: superato.\n2. " + text + "\n", MUNGER)[3] == vw.REJECT


@pytest.mark.parametrize("text", [
    "Moat: a margem passa a ser o foco da análise.",   # pt "passa a ser": becomes
    "Moat: o ROE passa de 15% neste ano.",             # pt "passa de": exceeds
    "Moat: la società passa al mercato principale.",   # it "passa al": moves to
    "Moat: il ROE supera il 15% da anni.",             # it "supera il 15%": exceeds
    "Moat: ein KGV von 1,5 wäre in Ordnung.",          # de "in Ordnung": the scale, no verdict word
], ids=["pt-passa-a", "pt-passa-de", "it-passa-al", "it-supera-il", "de-in-ordnung"])
def test_senses_that_are_no_verdict(text: str) -> None:
    assert gate_verdicts("1. Circle of competence: bestanden.\n2. " + text + "\n", MUNGER).get(3) is None


def test_german_negated_fail_verb_after_it_is_a_pass() -> None:
    # "daran scheitert es nicht" (it does not fail on that): "nicht" after the verb negates it, as "does not fail"
    assert gate_verdicts("1. Circle of competence: bestanden.\n2. Moat: daran scheitert es nicht.\n", MUNGER)[3] == vw.PROCEED


def test_german_mai_is_no_negator() -> None:
    # "seit Mai erfüllt" (met since May): Italian "mai" (never) would flip it, so it is not listed
    assert "non" in fv.NEGATORS and "mai" not in fv.NEGATORS
    assert gate_verdicts("1. Circle of competence: bestanden.\n2. Moat: seit Mai erfüllt.\n", MUNGER)[3] == vw.PROCEED


def test_a_word_two_languages_guard_keeps_both_lists() -> None:
    # "passa" is guarded in Portuguese ("passa do") and in Italian ("passa al"): both continuations stay out
    pattern = re.compile(fv.bounded("passa"), re.IGNORECASE)
    assert pattern.search("passa do limite") is None and pattern.search("passa al mercato") is None
    assert pattern.search("passa il filtro") is not None
