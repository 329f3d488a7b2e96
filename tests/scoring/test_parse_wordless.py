"""Gates found without the answer's words (scoring/parse/_wordless.py; issue 13, answers in a language nobody listed).

Every text below is written for this file, in languages absent from the corpus and from grammar/languages.yaml
(Romanian, Hungarian, Finnish), and labelled by hand: the gates are read by the place of their items, never by a
word, so each is under the review bar (0.7); a mark (✅ ❌ ✔ ✘) is the only verdict such an answer gives the parser.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._wordless import WORDLESS, WORDLESS_CAP, candidate_rewritings

#: Romanian blog post on the Graham formula (4 gates): numbered sections, each a question title and a paragraph;
#: the writer's verdicts are in Romanian ("Baza e bună", "Nu cumpăr"), which the parser cannot read.
RO_SECTIONS = """Formula lui Graham în practică

Azi luăm la puricat Carpatica Lactate S.A. și vedem dacă merită cumpărată la cursul de acum.

1. De unde luăm câștigul?

Media ultimilor șapte ani este 3,10 lei pe acțiune, toți anii pe profit. Baza e bună.

2. Ce creștere presupunem?

Istoricul pe zece ani arată 8% pe an, dar eu iau doar 5%. Prudent, cum îi plăcea lui Graham.

3. Calculăm valoarea

3,10 × (8,5 + 2 × 5) = 57,35 lei pe acțiune.

4. Prețul și marja de siguranță

Cursul de azi este 49 lei, peste limita de două treimi din valoare (38,23 lei). Nu cumpăr deocamdată.
"""

#: The same with a mark closing each section: the marks give the verdicts, 1-3 PROCEED and 4 REJECT.
RO_MARKED = (RO_SECTIONS.replace("Baza e bună.", "Baza e bună. ✅")
             .replace("cum îi plăcea lui Graham.", "cum îi plăcea lui Graham. ✅")
             .replace("57,35 lei pe acțiune.", "57,35 lei pe acțiune. ✅")
             .replace("Nu cumpăr deocamdată.", "Nu cumpăr deocamdată. ❌"))

#: Hungarian net-net check (2 gates) under a repeated label word, "Szempont" ("criterion") 1 and 2, with marks.
HU_LABELLED = """Nettó forgóeszköz-szűrő a Balatoni Kerámia Zrt. részvényére

Szempont 1 – ár a nettó forgóeszköz-érték kétharmada alatt: ✔
A forgóeszközök 2,1 milliárd forint, az összes kötelezettség 0,9 milliárd, a piaci érték 0,7 milliárd.

Szempont 2 – a forgóeszközöket nem eszik fel a veszteségek: ✘
Az elmúlt két évben a cég 300 millió forint veszteséget termelt, és a készpénz negyedévről negyedévre fogy.
"""


def _read(text: str, card: str) -> list[tuple[int, str | None]]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    assert all(g.how.startswith(WORDLESS + "+") and g.confidence <= WORDLESS_CAP < 0.7 for g in parsed.gates)
    return [(g.gate, g.verdict) for g in parsed.gates]


def test_numbered_sections_in_romanian_are_the_cards_gates_without_a_verdict() -> None:
    assert _read(RO_SECTIONS, "graham_intrinsic_value_margin_of_safety") == [(1, None), (2, None), (3, None), (4, None)]


def test_marks_give_the_verdicts_of_numbered_sections_in_romanian() -> None:
    got = _read(RO_MARKED, "graham_intrinsic_value_margin_of_safety")
    assert got == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "REJECT")]


def test_a_repeated_hungarian_label_word_numbers_the_gates_and_marks_give_their_verdicts() -> None:
    assert _read(HU_LABELLED, "graham_net_net_screen") == [(1, "PROCEED"), (2, "REJECT")]


def test_the_rewritten_labels_keep_every_offset_and_the_final_verdict_is_the_answers_own() -> None:
    text = HU_LABELLED + "\nFinal verdict: DECLINE\n"
    parsed = parse_response(text, "graham_net_net_screen", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "REJECT")]
    assert [text[slice(*g.verdict_span)] for g in parsed.gates if g.verdict_span] == ["✔", "✘"]
    assert parsed.final_verdict == "DECLINE"
    assert all(len(r) == len(text) for r in candidate_rewritings(text, 2))


@pytest.mark.parametrize("text, card", [
    # three numbered items (Finnish) for a five-gate card: the count does not fit, no gate is read by place
    ("Arvio yhtiöstä Pohjolan Paperi Oyj\n\n"
     "1. Liiketoiminta on helppo ymmärtää ja sen tuotteet ovat tuttuja kaikille asiakkaille. ✅\n"
     "2. Pääoman tuotto on ollut korkea jo vuosia ja pysyy todennäköisesti samalla tasolla. ✅\n"
     "3. Hinta on kohtuullinen verrattuna odotettuun tuottoon seuraavien vuosien aikana. ❌\n",
     "munger_business_quality_price"),
    # four numbered bare facts (Finnish) for a four-gate card: items too short to be a walk through gates
    ("Pohjolan Paperi Oyj lyhyesti\n\n1. ROIC 18%\n2. P/E 14\n3. Velka 0,4\n4. Osinko 3%\n",
     "graham_intrinsic_value_margin_of_safety"),
    # a Hungarian label word numbered 2 and 3 without 1: another series, not the card's places
    (HU_LABELLED.replace("Szempont 2", "Szempont 3").replace("Szempont 1", "Szempont 2"), "graham_net_net_screen"),
    # an English answer with two 'Part N' labels for a five-gate card: fewer than the card's gates in English
    ("Part 1 – what the company sells and to whom, in the plainest words I can find for it.\n\n"
     "Part 2 – what I would pay for it and why that price leaves room for my mistakes later.\n",
     "munger_business_quality_price"),
], ids=["fi-count-3-of-5", "fi-bare-facts", "hu-numbers-2-3", "en-parts-2-of-5"])
def test_a_run_that_does_not_fit_the_card_invents_no_gate(text: str, card: str) -> None:
    parsed = parse_response(text, card, embedder=False)
    assert not any(g.how.startswith(WORDLESS) for g in parsed.gates)
    assert parsed.status == "parse_failure"


#: Finnish review of a Munger card (5 gates) under five bold headings, the writer's verdicts in Finnish and a mark.
FI_HEADINGS = """Pohjolan Paperi Oyj Mungerin silmin

**Ymmärränkö liiketoiminnan?**
Paperia ja pakkauksia kauppaketjuille; koko ansaintalogiikka mahtuu yhdelle sivulle. ✅

**Tuottaako pääoma hyvin?**
Sijoitetun pääoman tuotto on ollut 19% viisi vuotta putkeen, selvästi yli alan. ✅

**Kestääkö kilpailuetu?**
Kaksi suurinta asiakasta on pysynyt yli kymmenen vuotta, ja vaihtaminen olisi kallista. ✅

**Voiko johtoon luottaa?**
Toimitusjohtaja myi puolet osakkeistaan viime vuonna kertomatta syytä osakkaille. ❌

**Onko hinta kohtuullinen?**
Odotettu tuotto on noin 11% vuodessa, ja oma rajani on 10%. ✅
"""


def test_bold_headings_in_finnish_as_many_as_the_gates_are_the_gates_in_order() -> None:
    got = _read(FI_HEADINGS, "munger_business_quality_price")
    assert got == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "REJECT"), (5, "PROCEED")]


def test_four_bold_headings_for_a_five_gate_card_are_not_read_by_place() -> None:
    four = FI_HEADINGS.split("**Onko hinta")[0]
    parsed = parse_response(four, "munger_business_quality_price", embedder=False)
    assert not any(g.how.startswith(WORDLESS) for g in parsed.gates)


def test_a_hyphenated_label_word_numbers_fewer_gates_than_the_card_in_a_walk_stopped_early() -> None:
    # Romanian, "Punct-cheie" ("key point") 1 and 2 of a four-gate card: the writer stops after the second (a kill)
    text = ("Carpatica Lactate S.A., pe scurt\n\n"
            "Punct-cheie 1: câștigul pe acțiune\nMedia pe șapte ani este 3,10 lei, toți anii pe profit. ✅\n\n"
            "Punct-cheie 2: creșterea presupusă\nConducerea promite 25% pe an, mult peste istoricul de 8%. ❌\n")
    assert _read(text, "graham_intrinsic_value_margin_of_safety") == [(1, "PROCEED"), (2, "REJECT")]
