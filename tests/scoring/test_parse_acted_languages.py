"""Final verdicts stated in the idiom of another language (issue 13, stop 37; paper §7.5; ``acts`` in
``grammar/languages.yaml``, read by :mod:`ipb.scoring.parse._acted` through :mod:`ipb.scoring.parse._act_words`).

Short answers written for these tests: three gates marked in the language (every one met, so no gate implies the
final) and a closing whose only final verdict is the language's own way of saying "we buy it", "we stay out", "we
keep watching". Each kind has its near miss: the same phrase negated after it, opening a condition, outside the
closing, or a HOLD phrase on a card without a HOLD outcome.
"""

from __future__ import annotations

import pytest

from parse_support import final_of
from ipb.errors import IpbError
from ipb.scoring.parse import _act_words as aw
from ipb.scoring.parse._acted import ACTS, PREDICATES

GRAHAM = "graham_seven_tests_defensive"

#: Three gates met, in each language (no verdict word of a final there).
BODIES = {
    "de": "Kriterium 1: erfüllt, Umsatz rund 9 Mrd. Euro.\nKriterium 2: erfüllt, Liquidität 2,3-fach.\nKriterium 3: erfüllt, kein Verlustjahr.\n\n",
    "fr": "Critère 1 : rempli, chiffre d'affaires de 9 Md€.\nCritère 2 : rempli, liquidité de 2,3 fois.\nCritère 3 : rempli, aucune perte.\n\n",
    "es": "Criterio 1: cumple, ventas de 9.000 millones.\nCriterio 2: cumple, liquidez de 2,3 veces.\nCriterio 3: cumple, sin pérdidas.\n\n",
    "it": "Criterio 1: soddisfatto, ricavi per 9 miliardi.\nCriterio 2: soddisfatto, liquidità di 2,3 volte.\nCriterio 3: soddisfatto, nessuna perdita.\n\n",
    "sv": "Kriterium 1: godkänt, omsättning cirka 9 miljarder.\nKriterium 2: godkänt, likviditet 2,3 gånger.\nKriterium 3: godkänt, inga förlustår.\n\n",
    "ru": "Критерий 1: соответствует, выручка около 9 млрд.\nКритерий 2: соответствует, ликвидность 2,3.\nКритерий 3: соответствует, убытков нет.\n\n",
    "zh": "第1关：符合，营收约90亿。\n第2关：符合，流动比率2.3。\n第3关：符合，十年无亏损。\n\n",
    "ja": "ゲート1：合格、売上高は約90億。\nゲート2：合格、流動比率は2.3倍。\nゲート3：合格、赤字の年はない。\n\n",
    "ko": "게이트 1: 통과, 매출 약 9조.\n게이트 2: 통과, 유동비율 2.3배.\n게이트 3: 통과, 적자 없음.\n\n",
}

CLOSINGS = [
    # stated in the language's own idiom
    ("de-verzichten", "de", "Der Preis ist aber zu hoch. Wir verzichten.", "DECLINE"),
    ("de-abwarten", "de", "Der Kurs ist uns zu hoch, wir warten ab.", "DECLINE"),
    ("de-einsteigen", "de", "Der Preis ist hoch, aber wir steigen ein.", "INVEST"),
    ("fr-passer-son-tour", "fr", "Le prix est trop élevé : nous passons notre tour.", "DECLINE"),
    ("fr-rester-a-l-ecart", "fr", "Le prix reste trop élevé, donc je reste à l’écart pour l'instant.", "DECLINE"),
    ("es-quedarse-fuera", "es", "Pero el precio es alto: nos quedamos fuera.", "DECLINE"),
    ("es-seguir-observando", "es", "El precio es alto; por ahora, seguimos observando.", "DECLINE"),
    ("es-lo-compramos", "es", "Todo encaja, así que lo compramos.", "INVEST"),
    ("it-alla-finestra", "it", "Ma il prezzo è alto: restiamo alla finestra.", "DECLINE"),
    ("sv-avstar", "sv", "Men priset är för högt, så vi avstår.", "DECLINE"),
    ("ru-vozderzhivaemsya", "ru", "Но цена высока, поэтому воздерживаемся.", "DECLINE"),
    ("zh-guanwang", "zh", "但估值偏高，继续观望。", "DECLINE"),
    ("zh-zanbujieru", "zh", "但估值偏高，暂不介入。", "DECLINE"),
    ("zh-mairu", "zh", "估值合理，我们买入。", "INVEST"),
    ("ja-yousumi", "ja", "ただし株価が割高なため、今回は様子見とします。", "DECLINE"),
    ("ko-gwanmang", "ko", "다만 주가가 비싸 당분간 관망한다.", "DECLINE"),
    ("ko-maesu", "ko", "가격도 적정하여 매수한다.", "INVEST"),
    # negated after the verb, as German and Russian write it, or before it
    ("de-kaufen-nicht", "de", "Beim heutigen Kurs: wir kaufen nicht.", "DECLINE"),
    ("es-no-compramos", "es", "Con este precio, no lo compramos.", "DECLINE"),
    ("zh-prefix-negated", "zh", "估值过高，不值得买入。", "DECLINE"),
    # near misses: a condition, a Korean conditional suffix, a question, the act outside the closing
    ("de-condition", "de", "Wenn der Kurs fällt, steigen wir ein.", None),
    ("ko-conditional-suffix", "ko", "주가가 절반이 되면 매수한다면 좋겠다.", None),
    ("zh-question", "zh", "现在我们买入吗？", None),
]


@pytest.mark.parametrize(("lang", "closing", "want"), [c[1:] for c in CLOSINGS], ids=[c[0] for c in CLOSINGS])
def test_final_in_the_languages_idiom(lang: str, closing: str, want: str | None) -> None:
    assert final_of(BODIES[lang], closing, GRAHAM) == want


def test_act_outside_the_closing_is_no_final() -> None:
    """"Wir steigen ein" inside the body's first paragraph (a gate's note) is not the closing's decision."""
    body = "Kriterium 1: erfüllt; wir steigen ein, sagt der Vorstand über sein Werk.\n" + BODIES["de"].split("\n", 1)[1]
    assert final_of(body, "Mehr dazu im nächsten Bericht.", GRAHAM) is None


def test_keep_phrase_needs_a_hold_outcome() -> None:
    """A HOLD phrase ("wir behalten") on a buy decision, which has no HOLD outcome, states neither side."""
    assert final_of(BODIES["de"], "Unterm Strich: wir behalten.", GRAHAM) is None


def test_english_tables_are_unchanged() -> None:
    """The English act and predicate tables, moved from code into the YAML file, read exactly as before."""
    assert ACTS == {
        1: ("buy", "buys", "own", "owns", "add", "adds", "bet on", "bets on"),
        0: ("sell", "sells", "avoid", "avoids", "skip", "skips", "pass on", "passes on", "passed on", "exclude", "excludes",
            "dump", "dumps", "exit", "exits"),
        "HOLD": ("hold", "holds", "keep", "keeps"),
    }
    assert PREDICATES[1] == ("approved", "accepted", "greenlit", "green-lit", "backed", "funded", "adopted", "signed off")
    assert PREDICATES[0][:3] == ("rejected", "shelved", "dropped") and len(PREDICATES[0]) == 15


def test_every_language_has_acts() -> None:
    """English, the 20 languages of the verdict words and seven later ones each have a block, every phrase of the other
    languages a kind."""
    from importlib import resources

    blocks = aw.load_acts(resources.files("ipb.grammar").joinpath("languages.yaml").read_text(encoding="utf-8"))
    assert sorted(blocks) == sorted("en de fr es pt it nb da sv vi ru zh ja ko th hi pl tr id ar he"
                                    " ast vec scn tet ml su ku".split())  # the last seven since s54lang
    assert all(b.get("enter") and b.get("leave") for b in blocks.values())
    assert aw.PHRASE_SIDES["wir steigen ein"] == "enter" and aw.PHRASE_SIDES["观望"] == "watch"
    assert aw.PHRASE_SIDES["nous passons notre tour"] == "leave" and "buy" not in aw.PHRASE_SIDES


def test_bad_acts_block_is_a_located_error() -> None:
    """An unknown kind is refused with the file's line, never a traceback."""
    text = "version: 1\nlanguages: {de: {name: German}}\nacts:\n  de:\n    enters: [wir kaufen]\n"
    with pytest.raises(IpbError) as caught:
        aw.load_acts(text, "mine.yaml")
    message = str(caught.value)
    assert "mine.yaml" in message and "enters" in message
