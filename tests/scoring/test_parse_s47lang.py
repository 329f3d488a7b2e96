"""Stop 47 (s47lang, issue 13): gate names in the twelve languages stop 46 gave word lists, one test of an answer's
language, and a foreign table row read by its place beside a row named by a borrowed English acronym.

Every answer here was written for these tests. Expected readings are worked by hand from the cards' gate lists:
Lynch's six-category card has 1 category, 2 price versus growth, 3 balance sheet (debt), 4 category story check; the
PIF dual-kill card has 1 portfolio investment-policy fit, 2 IRR hurdle, 3 Vision 2030 alignment.
"""

from __future__ import annotations

from importlib import resources

import pytest
import yaml

from ipb.scoring import outcome
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse import _wordless
from ipb.scoring.parse._foreign_terms import TERM
from ipb.scoring.parse._positional import POSITION

LYNCH = "lynch_six_category_framework"
PIF = "pif_dual_kill_investment_screen"
P, R, I = vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE

# ---------------------------------------------------------------------------------------------- gate terms

#: Lithuanian: sections headed by the key nouns "Kategorija" (category, gate 1) and "Įsiskolinimas" (indebtedness, the
#: debt concept, gate 3), closed by "Atitinka." (meets) and "Neatitinka." (does not meet).
LT_HEADED = ("Baltijos staklės\n\n"
             "Kategorija\n"
             "Pardavimai auga po 4 % per metus, verslas beveik necikliškas: lėtai augantis gigantas. Atitinka.\n\n"
             "Įsiskolinimas\n"
             "Grynoji skola keturis kartus viršija EBITDA. Neatitinka.\n")

#: Croatian: the same two sections, "Kategorija" and "Zaduženost" (indebtedness), closed by "Ispunjava." (meets) and
#: "Ne ispunjava." (does not meet).
HR_HEADED = ("Jadranske armature\n\n"
             "Kategorija\n"
             "Prihodi rastu 4 % godišnje, posao gotovo nije cikličan: spori rast, stabilna tvrtka. Ispunjava.\n\n"
             "Zaduženost\n"
             "Neto dug je četiri puta veći od EBITDA. Ne ispunjava.\n")


@pytest.mark.parametrize("text", [LT_HEADED, HR_HEADED], ids=["lt", "hr"])
def test_sections_headed_by_key_nouns_of_the_new_languages_read_by_term_under_the_review_bar(text: str) -> None:
    result = parse_response(text, LYNCH, embedder=False)
    assert result.status == "ok"
    assert {g.gate: (g.verdict, g.how) for g in result.gates} == {1: (P, TERM), 3: (R, TERM)}
    assert all(g.confidence < 0.7 for g in result.gates)


#: Words left out of the twelve new columns on purpose: English words ("dug", "strata", "tap", "hind", "per",
#: "dividend"), or everyday words of a language the parser reads ("dolg" is Slovenian "long", "benefici" Italian
#: "benefits", "bei" German "at", "rang" German/French "rank" in any sense, "deni" too short a form to be safe; "rast" and "kasv", growth, whose
#: forms are the verb "grow" in running prose: "Prihodi rastu 4 %").
LEFT_OUT = {"dug", "dolg", "benefici", "strata", "tap", "hind", "dividend", "dividends", "per", "bei", "rang", "deni", "rast", "kasv"}


NEW_COLUMNS = ("lt", "is", "hr", "sr", "sk", "sl", "lv", "et", "sw", "ur", "tl", "ca")


def test_no_left_out_word_is_a_term_of_the_new_columns() -> None:
    table = yaml.safe_load(resources.files("ipb.grammar").joinpath("gate_terms.yaml").read_text(encoding="utf-8"))
    terms = {t.lower() for entry in table["terms"] for code in NEW_COLUMNS for t in entry.get(code, ())}
    assert len(terms) > 12 * 27  # every column holds a term or more for nearly every one of the 27 concepts
    assert not terms & LEFT_OUT


# ------------------------------------------------------------------------------- one test of the language


def test_one_function_tells_the_language_for_the_parser_and_the_outcome() -> None:
    assert _wordless.reads_as_english is outcome.reads_as_english


@pytest.mark.parametrize("text, english", [
    # English prose: 4 of 9 words are function words
    ("The price is below the bar, so it passes.", True),
    # an English JSON record: no function word, no mark of another language
    ('{"gate": 1, "name": "Circle of Competence", "verdict": "PASS"}', True),
    # terse English lines: one function word in 11
    ("drift check: OK (33% vs 25% target)\nmotive: OK\ncost check: FAIL", True),
    # Lithuanian prose: two English look-alikes at most, 6 of 11 words hold a diacritic
    ("Kainos riba: bendrovė viešai nurodė didžiausią kainą, virš jos supirkimas sustabdomas.", False),
    # Swahili: "kwa", "wa" ... two function words of the list ("kwa", "katika"), no diacritic
    ("Uchambuzi kwa mfumo wa Soros: hatua ya kwanza ni kutambua upendeleo katika soko.", False),
    # Tagalog: "ang", "ng", "sa" are function words of the list
    ("Narito ang pagsusuri ng trade sa merkado ngayong taon.", False),
    # Finnish headings: 3 of 13 words hold "ä" or "ö" (23%, over 5%)
    ("Ymmärränkö liiketoiminnan? Tuottaako pääoma hyvin? Kestääkö kilpailuetu? Voiko johtoon luottaa? Onko hinta "
     "kohtuullinen?", False),
])
def test_reads_as_english(text: str, english: bool) -> None:
    assert outcome.reads_as_english(text) is english


# --------------------------------------------------------------- a foreign table row read by its place

#: A Croatian table on the PIF card: row 2, "Projicirani IRR" (projected IRR), is named by the borrowed acronym "IRR"
#: alone (the card's English words; no name of the card's translations sidecar), rows 1
#: and 3 by Croatian titles no name of the card matches. Verdicts: "NEODREĐENO" (undetermined) -> INCONCLUSIVE,
#: "NIJE ISPUNJENO" (not met) -> REJECT, "ISPUNJENO" (met) -> PROCEED.
HR_TABLE = ("Procjena ulaganja u desalinizacijsko postrojenje prema PIF-ovom okviru:\n\n"
            "| Korak | Test | Činjenice | Ocjena |\n"
            "|---|---|---|---|\n"
            "| 1 | Sklad s ulagačkom politikom portfelja | Portfelj za domaće sektore dopušta infrastrukturu | ISPUNJENO |\n"
            "| 2 | Projicirani IRR | Prag 10 %, projicirani IRR 7 % | NIJE ISPUNJENO |\n"
            "| 3 | Sklad s Vizijom 2030 | Projekt služi cilju vodne sigurnosti | ISPUNJENO |\n\n"
            "Konačna odluka: odbijeno.\n")


def test_foreign_rows_beside_a_row_named_by_a_borrowed_acronym_are_their_places_gates_not_invented() -> None:
    result = parse_response(HR_TABLE, PIF, embedder=False)
    assert result.status == "ok"
    assert result.invented == []
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, P), (2, R), (3, P)]
    by_place = [g for g in result.gates if g.how.split("+")[0] == POSITION]
    assert [g.gate for g in by_place] == [1, 3]
    assert all(g.confidence < 0.7 for g in by_place)  # the place alone links each row to its gate


#: A table in English, row 2 named by the card's own name "IRR hurdle", rows 1 and 3 titled with checks of the writer's
#: own: the parser reads the language, and a title that names no gate beside a row the card's words name is a gate the
#: card lacks (FM-1), as before stop 47.
EN_TABLE = ("This is the assessment of the plant under the PIF screen, and it is what the fund uses:\n\n"
            "| Step | Test | Facts | Verdict |\n"
            "|---|---|---|---|\n"
            "| 1 | Local content quota | 40% of the contracts go to local firms | PASS |\n"
            "| 2 | IRR hurdle | Hurdle 10%, projected IRR 7% | FAIL |\n"
            "| 3 | Water tariff reform | The tariff is set by the ministry | PASS |\n\n"
            "Final verdict: DECLINE\n")


def test_in_english_the_same_table_keeps_its_unknown_rows_invented() -> None:
    result = parse_response(EN_TABLE, PIF, embedder=False)
    assert [g.name for g in result.invented] == ["Local content quota", "Water tariff reform"]
    assert (2, R) in [(g.gate, g.verdict) for g in result.gates]
    assert not any(g.how.split("+")[0] == POSITION for g in result.gates)


# ------------------------------------------------------------------------------ translation sidecars

#: Lithuanian sections on Buffett's buyback card, headed by names of its sidecar: "Laisvos lėšos" (spare funds, gate 1),
#: "Kaina ir vertė" (price and value, gate 2), "Kainos riba" (price limit, gate 3), "Supirkimo tikslas" (the buyback's
#: purpose, gate 4); "Atitinka." (meets) closes 1, 2 and 4, "Neatitinka." (does not meet) closes 3.
LT_BUYBACK = ("Akcijų supirkimas „Dzūkijos duonoje“\n\n"
              "Laisvos lėšos\n"
              "Po supirkimo bendrovei liks 30 mln. eurų, o veiklai reikia 12 mln. Atitinka.\n\n"
              "Kaina ir vertė\n"
              "Akcija kainuoja 5 eurus, mūsų vertinimu ji verta 8 eurų. Atitinka.\n\n"
              "Kainos riba\n"
              "Valdyba nepaskelbė, kiek daugiausia mokės už akciją. Neatitinka.\n\n"
              "Supirkimo tikslas\n"
              "Supirktos akcijos bus anuliuotos, likę akcininkai turės didesnę dalį. Atitinka.\n")


def test_lithuanian_sections_headed_by_sidecar_names_read_by_translation() -> None:
    result = parse_response(LT_BUYBACK, "buffett_share_repurchase", embedder=False)
    assert result.status == "ok"
    assert [(g.gate, g.verdict, g.how) for g in result.gates] == [
        (1, P, "translation"), (2, P, "translation"), (3, R, "translation"), (4, P, "translation")]


# ------------------------------------------------------------------ worked figures against the card's bar

KLARMAN = "klarman_downside_first_process"  # gate 1: downside_loss <= max_downside_loss (25%) proceeds

#: Basque items (no word list), each stating a card quantity: item 1 as a worked formula. (540 - 470) / 540 = 70 / 540
#: = 12.96%, at most 25%: gate 1 PROCEED; portfolio_loss 3.24% over the 2% budget: gate 3 REJECT.
BASQUE = """Klarmanen prozesua, arriskua lehenik:

1. Galera posiblearen ebaluazioa
{formula}

2. Segurtasun marjina
price_to_value = 22,04%.

3. Posizioaren tamaina
portfolio_loss = 0,25 x 12,96% = 3,24%.
"""


@pytest.mark.parametrize("formula", [
    "downside_loss = (540 - 470) / 540 = 12,96%.",        # brackets and a hyphen-minus
    "downside_loss = (540 \u2212 470) / 540 = 12,96%.",   # the minus sign
    "downside_loss = 70 / 540 = 12,96%.",                 # read before stop 47 too
])
def test_a_worked_formula_with_brackets_reads_against_the_bar(formula: str) -> None:
    parsed = parse_response(BASQUE.format(formula=formula), KLARMAN, embedder=False)
    readings = {g.gate: (g.verdict, g.confidence) for g in parsed.gates}
    assert readings[1][0] == P and readings[3][0] == R
    assert all(c <= 0.55 for _, c in readings.values())  # read by place and figure: a guess's confidence


@pytest.mark.parametrize("line, verdict", [
    ("downside_loss: 12,96%.", P),   # 12.96% <= 25%
    ("Downside loss: 12,96%.", P),
    ("Downside loss: 31,5%.", R),    # 31.5% > 25%
    ("Dividend yield: 12,96%.", None),  # another key: a fact, no verdict
])
def test_the_bar_quantity_as_a_key_with_a_colon_reads_its_figure(line: str, verdict: str | None) -> None:
    text = (f"1. Procjena negativnog scenarija\n{line}\n\n2. Margin of safety\nprice_to_value = 22,04%.\n\n"
            "3. Position sizing\nportfolio_loss = 0,25 x 12,96% = 3,24%.\n")
    gate1 = next(g for g in parse_response(text, KLARMAN, embedder=False).gates if g.gate == 1)
    assert gate1.verdict == verdict
    assert gate1.confidence < 0.7
