"""An answer the parser cannot read is a parse failure, not the model's refusal (s34user).

A new evaluator's three "models" (right; refusing half; answering in Spanish or Chinese) showed the
Spanish answers, every verdict right, filed as refusals: with no English gate name read they were
``off_topic`` ("names no gate, card or investor"), and where the encoder matched two gates whose
"NO APLICA" read N/A, ``no_commitment``. Both score 0 under ``failures = "count"``, but
``n_refusals`` blamed the model for the parser's gap. Now both are ``parse_failure``; an English
answer about something else stays ``off_topic`` and "unknown" after every gate stays ``no_commitment``.
"""

from __future__ import annotations

import pytest

from ipb.respond.synthetic import bundled_items
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.outcome import classify_unread, reads_as_english, stop_unread
from ipb.scoring.run import ScoreOptions, score_responses

CARD = "buffett_acquisition_checklist"

# Since s34lang the parser reads "SE SUPERA", "SE RECHAZA", "Puerta N" and "INVERTIR" (grammar/languages.yaml); the
# answers here use verdict words it still does not read ("VALE", "NO VALE", "NI HABLAR"), as a model's own
# phrasing would be. (Since s37final it reads "me quedo fuera", "I stay out", as a decline: the acts of
# grammar/languages.yaml.)
SPANISH = ("Puerta 1 - Círculo de competencia: VALE. Software por suscripción.\n"
           "Puerta 2 - Foso económico: VALE. Margen bruto 90%.\n"
           "Puerta 3 - Integridad de la dirección: NO CONCLUYENTE.\n"
           "Puerta 4 - Estimación del valor intrínseco: VALE. Valor intrínseco $25B.\n"
           "Puerta 5 - Margen de seguridad: NO VALE. Precio $50B frente a $25B.\n"
           "Puerta 6 - Economía del periodo de tenencia: NO APLICA.\n"
           "Veredicto final: NI HABLAR\n")
# English gate names, the stopping verdict in words the parser does not read, the later gate N/A.
STOP_UNREAD = ("Gate 1 (Circle of Competence): vale.\nGate 2 (Economic Moat): vale.\n"
               "Gate 3 (Management Integrity): vale.\nGate 4 (Intrinsic Value Estimation): vale.\n"
               "Gate 5 (Margin of Safety): NO VALE, $50B against $25B.\n"
               "Gate 6 (Holding Period Economics): N/A\n")
# Gates found by their English names in brackets, every verdict in words the parser does not read.
NO_VERDICT_READ = "\n".join(f"Puerta {i} ({n}): VALE, es lo que se espera de la empresa." for i, n in enumerate(
    ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
     "Margin of Safety", "Holding Period Economics"], 1)) + "\nVeredicto final: ME QUEDO DENTRO\n"
OFF_TOPIC = "Paris is the capital of France and the Seine runs through it."
UNKNOWN = "\n".join(f"Gate {i} ({n}): unknown" for i, n in enumerate(
    ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
     "Margin of Safety", "Holding Period Economics"], 1)) + "\nFinal verdict: unknown\n"


@pytest.fixture(scope="module")
def records():
    item = bundled_items([CARD])[0]
    answers = {"spanish": SPANISH, "stop-unread": STOP_UNREAD, "off-topic": OFF_TOPIC, "unknown": UNKNOWN,
               "no-verdict-read": NO_VERDICT_READ}
    out = score_responses([item], [{"item_id": item["id"], "condition": "A", "model": k, "response": v}
                                   for k, v in answers.items()],
                          ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50, min_confidence=0.8))
    return {r["model"]: r for r in out}


@pytest.mark.parametrize("model, outcome, code", [
    ("spanish", "parse_failure", "parse_failure"),
    ("stop-unread", "parse_failure", "parse_failure"),
    ("off-topic", "refusal", "off_topic"),
    ("unknown", "refusal", "no_commitment"),
    ("no-verdict-read", "parse_failure", "parse_failure"),
])
def test_outcome_names_whose_failure_it_is(records, model, outcome, code):
    r = records[model]
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", outcome, code)


def test_stop_unread_reason_says_what_was_missed(records):
    assert "verdict that ended the analysis was not read" in records["stop-unread"]["reason"]


def test_counted_zero_either_way(records):
    # The label moves; the score does not: every owed metric at its failure value.
    for model in ("spanish", "stop-unread"):
        [target] = records[model]["targets"]
        assert target["owed"]["verdict_acc"] == 0.0 and target["owed"]["ned"] == 1.0 and target["owed"]["gra"] == 0.0


def test_helpers():
    assert reads_as_english(OFF_TOPIC) and not reads_as_english(SPANISH) and not reads_as_english("最终结论：投资")
    assert classify_unread(SPANISH, ["Margin of Safety", "Warren Buffett"])[0] == "parse_failure"
    assert classify_unread(OFF_TOPIC, ["Margin of Safety", "Warren Buffett"])[0] == "off_topic"
    assert stop_unread({"gates": [{"verdict": None}, {"verdict": "N/A"}]})
    assert not stop_unread({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": None}]})


def test_no_verdict_read_in_another_language_says_so(records):
    r = records["no-verdict-read"]
    assert [g["verdict"] for g in r["targets"][0]["parsed"]["gates"]] == [None] * 6  # gates found, no verdict read
    assert "does not read as English" in r["reason"]


def test_an_unscored_record_routes_nothing_to_review(records):
    # --min-confidence lists readings that are scored; an unscored answer's readings are not (its 0s are owed values).
    for model in ("spanish", "stop-unread", "unknown", "no-verdict-read"):
        assert records[model]["targets"][0].get("review") in ([], None)


def test_terse_english_reads_as_english_and_another_language_is_told_positively():
    # s34read should-fix 9: a terse English answer holds no two of "the", "and", "is"... yet nothing marks another
    # language; before, both read "not English" (an off-topic answer became a parse failure)
    assert reads_as_english("Weather today: sunny, warm, light breeze from west.")
    assert reads_as_english("BUY. Strong moat, cheap price, great management.")
    assert classify_unread("Weather today: sunny, warm, light breeze from west.", ["Margin of Safety"])[0] == "off_topic"
    # another language is told by its own function words or its script
    assert not reads_as_english("Sicherheitsmarge: nicht erfüllt, der Preis ist zu hoch.")
    assert not reads_as_english("Запас прочности: не выполнен.")


def test_an_undecided_gate_before_the_not_reached_ones_is_no_commitment():
    # s34read should-fix 10, docs/scoring.md: a stop on an undecided gate that commits to nothing stays no_commitment
    assert not stop_unread({"gates": [{"verdict": "PROCEED"}, {"verdict": "INCONCLUSIVE"}, {"verdict": "N/A"}][1:]})
    assert not stop_unread({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": "N/A"}, {"verdict": "N/A"}]})
    assert stop_unread({"gates": [{"verdict": None}, {"verdict": "N/A"}, {"verdict": "N/A"}]})
