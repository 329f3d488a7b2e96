"""Gates numbered in the writer's language and card outcomes in it (issue 13; ``gate_words``, ``gate_frames`` and
``outcomes`` of ``grammar/languages.yaml``, read by :mod:`ipb.scoring.parse._foreign_numbers` and the outcome table).

A new user's model answered ipb's own prompt ("Gate N: verdict", "Final verdict:") in Spanish and Chinese and every
verdict was lost ("Puerta 2: SE SUPERA", "第2关：通过", "Veredicto final: INVERTIR"). The answers below were written
for these tests in the shape of an answer to that prompt, one per language, each on Buffett's six-gate acquisition
checklist (outcomes INVEST / DECLINE); each must read back exactly: gates, verdicts and the final verdict.
"""

from __future__ import annotations

import pytest

from ipb.errors import IpbError
from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._foreign_numbers import ideographic_number, strip_foreign_number

from tests.scoring.parse_support import read_gates

CARD = "buffett_acquisition_checklist"  # six gates; outcomes INVEST / DECLINE
P, R, I, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"

ANSWERS = {
    "es": ("Puerta 1 - Círculo de competencia: SE SUPERA. Negocio de suscripción sencillo.\n"
           "Puerta 2 - Foso: SE SUPERA. Costes de cambio altos.\n"
           "Puerta 3 - Dirección: NO CONCLUYENTE. Faltan datos sobre el consejo.\n"
           "Puerta 4 - Valor intrínseco: SE RECHAZA. El precio dobla el valor estimado.\n"
           "Veredicto final: NO INVERTIR\n",
           [(1, P), (2, P), (3, I), (4, R)], "DECLINE"),
    "de": ("Schritt 1 – Kompetenzkreis: bestanden. Das Geschäft ist einfach.\n"
           "Schritt 2 – Burggraben: bestanden. Hohe Wechselkosten.\n"
           "Schritt 3 – Management: nicht erfüllt. Die Boni hängen am Umsatz.\n"
           "Fazit: nicht investieren\n",
           [(1, P), (2, P), (3, R)], "DECLINE"),
    "fr": ("Critère 1 : réussi. L'activité est simple à comprendre.\n"
           "Critère 2 : réussi. La marque protège les marges.\n"
           "Critère 3 : réussi. La direction est honnête.\n"
           "Critère 4 : réussi. La valeur dépasse le prix.\n"
           "Critère 5 : réussi. Décote de 35 %.\n"
           "Décision : INVESTIR\n",
           [(1, P), (2, P), (3, P), (4, P), (5, P)], "INVEST"),
    "pt": ("Etapa 1 - Círculo de competência: aprovado.\n"
           "Etapa 2 - Fosso: não atende. A concorrência copia o produto.\n"
           "Veredito: NÃO INVESTIR\n",
           [(1, P), (2, R)], "DECLINE"),
    "zh": ("第一关 能力圈：通过。业务简单易懂。\n"
           "第二关 护城河：通过。转换成本高。\n"
           "第三关 管理层：通过。\n"
           "第4关 内在价值：通过。\n"
           "第5关 安全边际：未通过。价格高于内在价值。\n"
           "最终结论：不投资\n",
           [(1, P), (2, P), (3, P), (4, P), (5, R)], "DECLINE"),
    "ja": ("ゲート1 能力の輪：合格。事業は単純。\n"
           "ゲート2 堀：合格。\n"
           "ゲート3 経営陣：判断不能。\n"
           "結論：投資\n",
           [(1, P), (2, P), (3, I)], "INVEST"),
    "ko": ("게이트 1 역량의 범위: 통과.\n"
           "게이트 2 경제적 해자: 통과.\n"
           "3단계 경영진: 미충족. 보상이 매출에 연동됨.\n"
           "결론: 투자하지 않음\n",
           [(1, P), (2, P), (3, R)], "DECLINE"),
    "ru": ("Шаг 1 — Круг компетенции: выполнено.\n"
           "Шаг 2 — Ров: выполнено.\n"
           "Шаг 3 — Менеджмент: не соответствует.\n"
           "Вывод: не инвестировать\n",
           [(1, P), (2, P), (3, R)], "DECLINE"),
}


@pytest.mark.parametrize("lang", sorted(ANSWERS))
def test_an_answer_to_the_prompt_in_another_language_reads_exactly(lang: str) -> None:
    text, gates, final = ANSWERS[lang]
    result = parse_response(text, CARD, embedder=False)
    assert result.status == "ok", result.reason
    assert [(g.gate, g.verdict) for g in result.gates] == gates
    assert result.final_verdict == final
    assert result.invented == []


def test_the_users_spanish_answer_with_not_applicable_gates() -> None:
    # the shape of the new user's answers: every gate numbered "Puerta N - name: VERDICT", later gates NO APLICA
    text = ("Puerta 1 - Círculo de competencia: SE RECHAZA. Biotecnología clínica.\n"
            "Puerta 2 - Foso económico: NO APLICA. .\n"
            "Puerta 3 - Integridad de la dirección: NO APLICA. .\n"
            "Veredicto final: NO INVERTIR")
    assert read_gates(text, CARD) == [(1, R), (2, NA), (3, NA)]
    assert parse_response(text, CARD, embedder=False).final_verdict == "DECLINE"


def test_a_number_past_the_cards_gates_is_no_gate_and_no_invented_one() -> None:
    # six gates: "Puerta 9" and "第8关" are the writer's own steps, never gates, never invented gates (FM-1)
    text = "Puerta 1 - Círculo de competencia: SE SUPERA.\nPuerta 9 - Liquidez: SE SUPERA.\n第8关 现金：通过。\n"
    result = parse_response(text, CARD, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, P)]
    assert result.invented == []


def test_a_translated_outcome_counts_only_on_a_card_that_has_it() -> None:
    # VENDER is SELL on Lynch's hold-or-sell review; INVERTIR names no outcome of the buyback card (REPURCHASE /
    # NO_REPURCHASE), where RECOMPRAR is its pass outcome
    lynch = parse_response("Puerta 1: SE RECHAZA.\nVeredicto final: VENDER\n", "lynch_portfolio_story_review", embedder=False)
    assert lynch.final_verdict == "SELL"
    assert parse_response("Puerta 1: SE SUPERA.\nVeredicto final: INVERTIR\n", "buffett_share_repurchase",
                          embedder=False).final_verdict is None
    assert parse_response("Puerta 1: SE SUPERA.\nVeredicto final: RECOMPRAR\n", "buffett_share_repurchase",
                          embedder=False).final_verdict == "REPURCHASE"


def test_a_gate_word_before_a_figure_is_no_gate_number() -> None:
    # "paso 4,5 %" and "Schritt 12%" are figures; "Kriterium Nr. 2" is gate 2
    assert read_gates("Im Kriterium Nr. 2 ist alles bestanden.\n", CARD) == [(2, P)]
    assert parse_response("El paso 4,5 % del margen es alto.\n", CARD, embedder=False).gates == []


@pytest.mark.parametrize(("text", "want"), [("3", 3), ("三", 3), ("十二", 12), ("二十一", 21), ("两", 2), ("百", None)])
def test_ideographic_numbers(text: str, want: int | None) -> None:
    assert ideographic_number(text) == want


def test_label_heads_are_stripped_like_gate_n() -> None:
    assert strip_foreign_number("Critère n° 4 : Marge de sécurité") == "Marge de sécurité"
    assert strip_foreign_number("3단계 경영진") == "경영진"
    assert strip_foreign_number("Puertas abiertas") == "Puertas abiertas"


def test_the_vocabulary_holds_the_new_keys() -> None:
    assert {"puerta", "schritt", "critère", "ゲート", "게이트"} <= set(fv.GATE_NOUNS)
    assert {"第{n}关", "{n}단계"} <= set(fv.GATE_FRAMES)
    assert "invertir" in fv.OUTCOME_WORDS["INVEST"] and "不投资" in fv.OUTCOME_WORDS["DECLINE"]


@pytest.mark.parametrize(("block", "where"), [
    ("gate_frames: [第关]", "gate_frames"),        # a frame without {n}
    ("gate_words: [gate+]", "gate_words"),        # a regular-expression character
    ("outcomes: {invest: [invertir]}", "invest"),  # an outcome key not in card spelling
])
def test_the_schema_rejects_a_broken_block(block: str, where: str) -> None:
    text = f"version: 1\nlanguages:\n  xx:\n    name: Test\n    {block}\n"
    with pytest.raises(IpbError) as err:
        fv.load_languages(text, "mine.yaml")
    assert "mine.yaml:5" in str(err.value)


def test_a_user_block_with_the_new_keys_loads() -> None:
    text = ("version: 1\nlanguages:\n  eo:\n    name: Esperanto\n    gate_words: [pordo, kriterio]\n"
            "    gate_frames: [\"{n}-a\"]\n    outcomes:\n      INVEST: [investi]\n")
    assert fv.load_languages(text, "mine.yaml")["eo"]["outcomes"] == {"INVEST": ["investi"]}


def test_a_caseless_outcome_word_in_prose_is_no_final_verdict() -> None:
    # "가치 투자 원칙" (the principle of value investing) holds 투자 (INVEST) as a word of its own; without capitals to
    # mark it, it counts only after a cue or a decision label ("결론: 투자"), as a lower-case "invest" would
    body = "게이트 1 역량의 범위: 통과.\n가치 투자 원칙으로 보면 사업은 단순하다.\n"
    assert parse_response(body, CARD, embedder=False).final_verdict is None
    assert parse_response(body + "결론: 투자\n", CARD, embedder=False).final_verdict == "INVEST"


def test_an_outcome_noun_in_a_disclaimer_is_no_final_verdict() -> None:
    # Vietnamese "đầu tư" is both "invest" and "investment": "không phải lời khuyên đầu tư" (not investment advice) closing
    # an answer that decides nothing states no verdict; "nên đầu tư" (should invest) does
    body = "Tiêu chí 1 - Vòng tròn năng lực: đạt.\nNội dung chỉ để tham khảo, không phải lời khuyên đầu tư.\n"
    assert parse_response(body, CARD, embedder=False).final_verdict is None
    assert parse_response(body + "Kết luận: nên đầu tư.\n", CARD, embedder=False).final_verdict == "INVEST"
