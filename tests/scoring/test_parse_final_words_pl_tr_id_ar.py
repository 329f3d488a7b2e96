"""Final verdicts in Polish, Turkish, Indonesian and Arabic (issue 13, final verdicts in the wild; paper §7.5).

Sentences written for these tests: a decision label in the language ("Rekomendacja:", "Karar:", "Rekomendasi:",
"التوصية:") followed by the language's word for buy / avoid / hold, and a closing that states the decision in the
language's own idiom ("omijamy", "uzak duruyoruz", "kami hindari", "نبتعد عنه"). Each kind has a near miss: the buy
word negated, a noun that only looks like the word ("almam gerekiyor", I need to buy; "tahan lama", durable).
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse import parse_response
from ipb.scoring.parse import _act_words as aw

from parse_support import final_of

DCF = "buffett_owner_earnings_dcf"        # outcomes INVEST / DECLINE
GRAHAM = "graham_seven_tests_defensive"


@pytest.mark.parametrize(("closing", "want"), [
    ("Rekomendacja: kupować", "INVEST"), ("Rekomendacja: nie kupować", "DECLINE"), ("Decyzja: omijam", "DECLINE"),
    ("Werdykt: sprzedać", "DECLINE"),
    ("Karar: alırım", "INVEST"), ("Karar: almam", "DECLINE"), ("Öneri: uzak dur", "DECLINE"),
    ("Tavsiye: satın alınmalı", "INVEST"),
    ("Rekomendasi: beli", "INVEST"), ("Rekomendasi: jangan beli", "DECLINE"), ("Keputusan: hindari", "DECLINE"),
    ("Kesimpulan: tidak membeli", "DECLINE"),
    ("التوصية: شراء", "INVEST"), ("التوصية: لا أشتري", "DECLINE"), ("القرار: تجنب", "DECLINE"),
], ids=["pl-buy", "pl-not-buy", "pl-skip", "pl-sell", "tr-buy", "tr-not-buy", "tr-stay-away", "tr-should-buy",
        "id-buy", "id-do-not-buy", "id-avoid", "id-not-buying", "ar-buy", "ar-i-do-not-buy", "ar-avoid"])
def test_labelled_final_words(closing: str, want: str) -> None:
    result = parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False)
    assert result.final_verdict == want


@pytest.mark.parametrize("closing", ["Karar: almam gerekiyor mu, bilmiyorum", "Kesimpulan: tahan lama bisnisnya"],
                         ids=["tr-need-to-buy", "id-durable"])
def test_look_alikes_are_no_final(closing: str) -> None:
    """"almam gerekiyor" (do I need to buy) is no refusal; "tahan lama" (durable) is no hold."""
    result = parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False)
    assert result.final_verdict is None


def test_the_words_are_tabled() -> None:
    """Each new word has its side: buy 1, avoid 0; hold words are the HOLD outcome's (Turkish words are stored folded,
    :func:`ipb.scoring._foreign_verdicts.fold_dotted_i`)."""
    assert [fv.FINAL_WORDS[fv.fold_dotted_i(w)] for w in ("kupuję", "omijam", "alırım", "almam", "beli", "hindari", "شراء", "تجنب")] == \
        [1, 0, 1, 0, 1, 0, 1, 0]
    assert {"trzymać", "tut", "tahan", "احتفظ"} <= set(fv.HOLD_WORDS)
    assert fv.OUTCOME_WORDS["DECLINE"].count("nie inwestować") == 1 and "yatirim yap" in fv.OUTCOME_WORDS["INVEST"]


#: Three gates met, in each language.
BODIES = {
    "pl": "Kryterium 1: spełnione, przychody około 9 mld.\nKryterium 2: spełnione, płynność 2,3.\nKryterium 3: spełnione, bez strat.\n\n",
    "tr": "Kriter 1: karşılanıyor, satışlar yaklaşık 9 milyar.\nKriter 2: karşılanıyor, cari oran 2,3.\nKriter 3: karşılanıyor, zarar yok.\n\n",
    "id": "Kriteria 1: terpenuhi, penjualan sekitar 9 miliar.\nKriteria 2: terpenuhi, rasio lancar 2,3.\nKriteria 3: terpenuhi, tanpa rugi.\n\n",
}


@pytest.mark.parametrize(("lang", "closing", "want"), [
    ("pl", "Ale cena jest za wysoka, więc omijamy.", "DECLINE"),
    ("pl", "Wszystko się zgadza, więc kupujemy.", "INVEST"),
    ("tr", "Ancak fiyat çok yüksek, bu yüzden uzak duruyoruz.", "DECLINE"),
    ("id", "Namun harganya terlalu mahal, jadi kami hindari.", "DECLINE"),
    ("id", "Harga wajar, jadi kami beli.", "INVEST"),
], ids=["pl-omijamy", "pl-kupujemy", "tr-uzak-duruyoruz", "id-kami-hindari", "id-kami-beli"])
def test_acts_in_the_languages_idiom(lang: str, closing: str, want: str) -> None:
    assert final_of(BODIES[lang], closing, GRAHAM) == want


def test_the_acts_are_tabled() -> None:
    assert aw.PHRASE_SIDES["omijamy"] == "leave" and aw.PHRASE_SIDES["uzak duruyoruz"] == "leave"
    assert aw.PHRASE_SIDES["kami beli"] == "enter" and aw.PHRASE_SIDES["نحتفظ به"] == "keep"
