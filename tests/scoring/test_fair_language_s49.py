"""An answer not in English is scored as its English original is (issue 13; s48user finding 4, s49fair).

A model answering in Spanish with every final verdict right ranked below one answering in English with most finals
wrong: KCCS and GRA's elements term read the card's English element words only ("70% line"), so the Spanish answer got
KCCS 0; FM-5's sequence clause counted English connectors only ("Gate 2", "first"), so it fired on "Paso 2". Now an
element the parser did not read in such an answer counts by its figures, one of words only is unknown (left out,
neither missed nor met), and FM-5 counts the answer's own gate nouns before a number.

Every value below is worked by hand from the card's rules and the facts, not read from the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipb.engine.api import load_card
from ipb.scoring.api import _item_for, score
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.fmdp import fm5, foreign_connector_count, sequential_connector_count
from ipb.scoring.metrics import Case
from ipb.scoring.outcome import reads_as_english
from ipb.scoring.run import ScoreOptions, run_score
from ipb.scoring.summary import leaderboard

EINHORN = Path(__file__).resolve().parents[1] / "fixtures" / "new_user48" / "einhorn_short_checklist.yaml"

# Graham's net-net screen: NCAV = $900M - $15M - $17M = $868M, two-thirds of it $578.67M, the market value $20M is
# below it (gate 1 PROCEED); the net income -$22M is a loss (gate 2 REJECT): DECLINE. Both gates are kill gates.
GRAHAM_FACTS = {"market_value": "$20M", "current_assets": "$900M", "total_liabilities": "$15M",
                "preferred_stock": "$17M", "net_income": "-$22M"}
# Each answer states NCAV and the market value at gate 1 but not the two-thirds threshold (2 of its 3 elements), and
# the loss at gate 2 with, in English, the element of words "operating losses dissipate current assets".
GRAHAM = {
    "en": "Gate 1 - Price at most two-thirds of net current asset value: PROCEED. Net current asset value is $868M, "
          "and the market value is $20M.\n"
          "Gate 2 - Current assets not dissipated by losses: REJECT. The latest net income is -$22M, and operating "
          "losses dissipate current assets.\n"
          "Final verdict: DECLINE",
    "es": "Criterio 1 - Precio de como máximo dos tercios del activo circulante neto: SE CUMPLE. El activo circulante "
          "neto es de $868M, y el valor de mercado es de $20M.\n"
          "Criterio 2 - Activo circulante no disipado por pérdidas: NO SE CUMPLE. El beneficio neto del último "
          "ejercicio es de -$22M, y las pérdidas operativas consumen el activo circulante.\n"
          "Veredicto final: DECLINE",
    "de": "Kriterium 1 - Preis höchstens zwei Drittel des Netto-Umlaufvermögens: ERFÜLLT. Das Netto-Umlaufvermögen "
          "beträgt $868M, und der Marktwert beträgt $20M.\n"
          "Kriterium 2 - Umlaufvermögen nicht durch Verluste aufgezehrt: NICHT ERFÜLLT. Der Jahresüberschuss des "
          "letzten Geschäftsjahres beträgt -$22M, und operative Verluste zehren das Umlaufvermögen auf.\n"
          "Endgültige Entscheidung: DECLINE",
}

# Einhorn's short checklist: cash conversion $1.6B / $4B = 0.4 < 70% (PROCEED); Level 3 marks $40B / $25B = 1.6 >=
# 100% (PROCEED); price to book 0.9x < 1.2x (REJECT, the chain stops): NO_SHORT. Every gate is a kill gate; 4 and 5
# are N/A. Each answer leaves out the 1.2x floor at gate 3 (1 of its 2 elements).
EINHORN_FACTS = {"net_income": "$4B", "operating_cash_flow": "$1.6B", "level3_assets": "$40B", "equity": "$25B",
                 "price_to_book": "0.9x", "catalyst": "capital_raise", "borrow_fee": "0.5%", "days_to_cover": 16.5}
EINHORN_ANSWERS = {
    "en": "Gate 1 - Earnings not backed by cash: PROCEED. Operating cash flow over net income is $1.6B / $4B = 40%, "
          "below the 70% line.\n"
          "Gate 2 - Hard-to-value assets: PROCEED. Level 3 assets over equity are $40B / $25B = 160%, above 100% of "
          "equity.\n"
          "Gate 3 - Priced above book: REJECT. Price to book is 0.9x.\n"
          "Gate 4 - Catalyst in sight: N/A\nGate 5 - Workable borrow: N/A\nFinal verdict: NO_SHORT",
    "es": "Paso 1 - Beneficios no respaldados por caja: SE CUMPLE. El flujo de caja operativo sobre el beneficio neto "
          "es $1.6B / $4B = 40%, por debajo de la línea del 70%.\n"
          "Paso 2 - Activos difíciles de valorar: SE CUMPLE. Los activos de nivel 3 sobre el patrimonio son "
          "$40B / $25B = 160%, por encima del 100% del patrimonio.\n"
          "Paso 3 - Cotiza por encima del valor contable: NO SE CUMPLE. El precio sobre valor contable es 0,9x.\n"
          "Paso 4 - Catalizador a la vista: NO APLICA\nPaso 5 - Préstamo de acciones viable: NO APLICA\n"
          "Veredicto final: NO_SHORT",
    "de": "Schritt 1 - Gewinne nicht durch Cash gedeckt: ERFÜLLT. Der operative Cashflow im Verhältnis zum "
          "Nettogewinn beträgt $1.6B / $4B = 40%, unter der 70%-Linie.\n"
          "Schritt 2 - Schwer bewertbare Vermögenswerte: ERFÜLLT. Level-3-Vermögen im Verhältnis zum Eigenkapital "
          "beträgt $40B / $25B = 160%, über 100% des Eigenkapitals.\n"
          "Schritt 3 - Bewertung über dem Buchwert: NICHT ERFÜLLT. Das Kurs-Buchwert-Verhältnis beträgt 0,9x.\n"
          "Schritt 4 - Katalysator in Sicht: ENTFÄLLT\nSchritt 5 - Machbare Wertpapierleihe: ENTFÄLLT\n"
          "Endgültige Entscheidung: NO_SHORT",
}
WRONG_EINHORN = ("Gate 1 - Earnings not backed by cash: PROCEED. Cash conversion is weak.\n"
                 "Gate 2 - Hard-to-value assets: REJECT. The marks look fine.\nFinal verdict: SHORT")


def _connectors(text: str) -> int:
    """FM-5's connector count as fm5 takes it: the paper's English ones, plus the answer's own for one not in English."""
    return sequential_connector_count(text) + (0 if reads_as_english(text) else foreign_connector_count(text))


def _metrics(text: str, card, facts) -> dict:
    record = score(text, card=card, facts=facts)
    assert record["status"] == "scored", record
    return record


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_graham_the_translations_get_the_english_values(lang):
    record = _metrics(GRAHAM[lang], "graham_net_net_screen", GRAHAM_FACTS)
    m = record["metrics"]
    # verdicts: both gates and the final right
    assert m["verdict_acc"] == 1.0 and m["verdict_acc_gates"] == 1.0
    # KCCS: gate 1 F1 = 2*2/(3+2) = 0.8. Gate 2 in English: both elements, F1 1. In Spanish and German the loss
    # -$22M is the one element that can be told (the other is words only: unknown), F1 2*1/(1+1) = 1.
    # KCCS = (0.8 + 1)/2 = 0.9 in every language.
    assert m["kccs"] == pytest.approx(0.9)
    # GRA: gate 1 (1 + 1 + 2/3)/3 = 8/9, gate 2 (1 + 1 + 1)/3 = 1; mean 17/18
    assert m["gra"] == pytest.approx(17 / 18)
    # OGRS_k: both gates, in order
    assert m["ogrs_k"] == pytest.approx(1.0)
    # FM-5 sequence: two connectors ("Gate 1", "Gate 2" / "Criterio 1", "Criterio 2" / "Kriterium 1", ...) over
    # n_G - 1 = 1 gap: 2.0 >= 0.40, no flag
    assert record["flags"]["FM-5"] is False
    assert _connectors(GRAHAM[lang]) == 2


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_einhorn_the_translations_get_the_english_values(lang):
    record = _metrics(EINHORN_ANSWERS[lang], str(EINHORN), EINHORN_FACTS)
    m = record["metrics"]
    assert m["verdict_acc"] == 1.0 and m["verdict_acc_gates"] == 1.0
    # KCCS over the reached kill gates 1-3: gates 1 and 2 state both their figures (0.4 as 40%, 70%; 1.6 as 160%,
    # 100%), F1 1; gate 3 states 0.9x, not the 1.2x floor: F1 2*1/(2+1) = 2/3. KCCS = (1 + 1 + 2/3)/3 = 8/9
    assert m["kccs"] == pytest.approx(8 / 9)
    # GRA over gates 1-3: 1, 1 and (1 + 1 + 1/2)/3 = 5/6; mean 17/18
    assert m["gra"] == pytest.approx(17 / 18)
    # FM-5: five connectors ("Gate 1" ... "Gate 5", "Paso 1" ..., "Schritt 1" ...) over the 4 gaps of five gold
    # gates: 1.25, no flag
    assert record["flags"]["FM-5"] is False
    assert _connectors(EINHORN_ANSWERS[lang]) == 5


def test_a_wrong_figure_is_not_credited_in_another_language():
    # the Spanish answer with NCAV $900M (the current assets, not NCAV): gate 1 meets only the market value,
    # F1 2*1/(3+1) = 0.5; KCCS = (0.5 + 1)/2 = 0.75
    text = GRAHAM["es"].replace("$868M", "$900M")
    assert _metrics(text, "graham_net_net_screen", GRAHAM_FACTS)["metrics"]["kccs"] == pytest.approx(0.75)


def _two_gate_case(text: str) -> Case:
    gold = {"gold_program": [
        {"gate": 1, "verdict": "PROCEED", "required_elements": ["debt below 2x"]},
        {"gate": 2, "verdict": "REJECT", "kill_triggered": True, "required_elements": ["durable moat"]}]}
    parsed = {"text": text, "gates": [{"gate": 1, "verdict": "PROCEED", "span": [0, 10]},
                                      {"gate": 2, "verdict": "REJECT", "span": [10, len(text)]}]}
    return Case(gold, parsed)


def test_fm5_says_unknown_where_no_connector_of_the_language_is_known():
    # Finnish prose: no connector of any listed language, no numbered item: the sequence clause is not judged
    flag = fm5(_two_gate_case("Velka on alhainen ja hyväksytään. Yrityksellä ei ole kestävää kilpailuetua, hylätään."))
    assert flag.fired is False
    assert flag.evidence["seq_score"] is None
    assert flag.evidence["sequence"].startswith("unknown")


def test_fm5_judges_a_listed_language_without_connectors():
    # Spanish prose: its verdict words ("se cumple", "no se cumple") are listed, none of its connectors is used:
    # 0 connectors / 1 gap < 0.40, the clause fires as it does on English prose
    flag = fm5(_two_gate_case("La deuda es baja y se cumple. No hay un foso duradero, así que no se cumple."))
    assert (flag.fired, flag.rule) == (True, "sequence")
    assert flag.evidence["seq_score"] == 0.0


def test_fm5_still_fires_on_english_prose_without_connectors():
    # the paper's rule as written: 0 connectors / 1 gap < 0.40
    flag = fm5(_two_gate_case("The debt is low, so that passes. There is no durable moat, so it is rejected."))
    assert (flag.fired, flag.rule) == (True, "sequence")


def test_the_right_spanish_answer_ranks_above_the_wrong_english_one(tmp_path):
    card = load_card(str(EINHORN))
    item = _item_for(card, EINHORN_FACTS, "einhorn-1")
    (tmp_path / "items.jsonl").write_text(json.dumps(item) + "\n")
    records = [{"item_id": "einhorn-1", "model": model, "condition": "A", "response": text}
               for model, text in (("m-wrong", WRONG_EINHORN), ("m-es", EINHORN_ANSWERS["es"]))]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    from ipb.engine.registry import add_card_file

    add_card_file(card.card.id, card.card.file)
    result = run_score(tmp_path / "items.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    rows = leaderboard(result.summary)
    assert [r["model"] for r in rows] == ["m-es", "m-wrong"]
    # m-es: L7 composite 0.35*OGRS_k + 0.30*KCCS + 0.20*VerdictAcc + 0.15*SAP@1. The answer attributes nothing and the
    # L7 question asks for no source, so SAP@1 is not applicable (stop 50) and the weights renormalise over the other
    # three: (0.35 + 0.30*8/9 + 0.20) / 0.85 = 0.81667 / 0.85 = 0.96078 (0.81667 before stop 50, SAP@1 at 0)
    assert rows[0]["rank_value"] == pytest.approx((0.35 + 0.30 * 8 / 9 + 0.20) / 0.85)
