"""Gate verdicts and ordinal gate references in other languages (issue 13; paper §7.3 gate terms, §7.5 parsing).

Short answers written for these tests (never corpus text) on the Buffett buyback card (1 funds beyond needs, 2 below
intrinsic value, 3 published price limit, 4 purpose): each language's own words for fail / not applicable / open / met
(``grammar/languages.yaml``), ordinals next to a gate noun ("el primer filtro", "tiêu chí thứ hai", "最後の基準"), a
numbered list in another language whose untitled and writer-titled items keep their places, and a translations
sidecar with a language code nobody reads ("sp"), which ``ipb check`` refuses, located.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import bundled_card_paths
from ipb.engine.translations import LANGUAGES, load_gate_names
from ipb.errors import IpbError
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

BUYBACK = "buffett_share_repurchase"
FRAMEWORKS = Path(bundled_card_paths()[0]).parent
P, R, I, NA = vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE, vw.NOT_REACHED

#: Gate 1 fails, 2 does not apply, 3 is open, 4 is met: in each language's own words, gates numbered by its nouns.
VERDICTS = {
    "de": "Prüfung des Rückkaufs\n\nKriterium 1: reicht nicht.\nKriterium 2: entfällt.\nKriterium 3: bleibt offen.\nKriterium 4: gewährleistet.\n",
    "es": "Revisión de la recompra\n\nCriterio 1: suspenso.\nCriterio 2: no procede.\nCriterio 3: pendiente.\nCriterio 4: se cumple.\n",
    "fr": "Examen du rachat\n\nCritère 1 : non respecté.\nCritère 2 : non pertinent.\nCritère 3 : à vérifier.\nCritère 4 : atteint.\n",
    "ru": "Проверка выкупа\n\nКритерий 1: не выполняется.\nКритерий 2: не требуется.\nКритерий 3: не определено.\n"
          "Критерий 4: выполняется.\n",
    "zh": "回购检查\n\n第1关：不过关。\n第2关：无需评估。\n第3关：灰色地带。\n第4关：过关。\n",
    "ja": "自社株買いの確認\n\nゲート1：不十分。\nゲート2：該当せず。\nゲート3：判断保留。\nゲート4：充足。\n",
    "ko": "자사주 매입 점검\n\n게이트 1: 불충분.\n게이트 2: 적용 불가.\n게이트 3: 판단 보류.\n게이트 4: 통과.\n",
    "vi": "Kiểm tra mua lại\n\nBước 1: không đáp ứng.\nBước 2: không liên quan.\nBước 3: chưa xác định.\nBước 4: đáp ứng.\n",
    "it": "Verifica del riacquisto\n\nCriterio 1: non rispettato.\nCriterio 2: non pertinente.\nCriterio 3: da verificare.\n"
          "Criterio 4: raggiunto.\n",
    "pt": "Verificação da recompra\n\nCritério 1: não atingido.\nCritério 2: não relevante.\nCritério 3: pendente.\n"
          "Critério 4: atingido.\n",
    "sv": "Granskning av återköpet\n\nKriterium 1: uppfyller inte.\nKriterium 2: bortfaller.\nKriterium 3: osäker.\n"
          "Kriterium 4: uppfyller.\n",
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_gate_verdicts_in_the_writers_own_words(language: str) -> None:
    parsed = parse_response(VERDICTS[language], BUYBACK, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, R), (2, NA), (3, I), (4, P)]
    assert parsed.invented_gates == []


#: Two gates named by their place among the card's four: an ordinal (or "last") next to a gate noun, before or after it.
ORDINALS = {
    "es": ("El primer filtro no se cumple: la caja no cubre las necesidades.\nEl último criterio se cumple.\n", [(1, R), (4, P)]),
    "de": ("Die zweite Prüfung ist nicht bestanden. Der erste Schritt ist erfüllt.\n", [(2, R), (1, P)]),
    "fr": ("La troisième étape est respectée. La dernière exigence n'est pas remplie.\n", [(3, P), (4, R)]),
    "ru": ("Второй критерий не выполнен. Последний критерий выполнен.\n", [(2, R), (4, P)]),
    "zh": ("第三个标准：不符合。\n最后一个标准：符合。\n", [(3, R), (4, P)]),
    "ja": ("2番目の基準：不合格。\n最後の基準：合格。\n", [(2, R), (4, P)]),
    "ko": ("세 번째 기준: 미충족.\n마지막 기준: 충족.\n", [(3, R), (4, P)]),
    "vi": ("Tiêu chí thứ hai: đạt.\nTiêu chí cuối cùng: không đạt.\n", [(2, P), (4, R)]),
    "hi": ("दूसरा मानदंड: विफल।\nअंतिम चरण: उत्तीर्ण।\n", [(2, R), (4, P)]),
}


@pytest.mark.parametrize("language", sorted(ORDINALS))
def test_an_ordinal_names_the_gate_of_its_place(language: str) -> None:
    text, want = ORDINALS[language]
    parsed = parse_response(text, BUYBACK, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == want
    assert parsed.invented_gates == []


def test_an_ordinal_past_the_cards_gates_names_none() -> None:
    # the eighth filter of a four-gate card: the writer's own step, neither a gate nor an invented one
    parsed = parse_response("El octavo filtro se cumple.\n", BUYBACK, embedder=False)
    assert parsed.gates == [] and parsed.invented_gates == []


def test_a_foreign_list_keeps_the_places_of_its_own_titles() -> None:
    # items 1 and 4 are named by the sidecar's Spanish names, item 3 has no title (a question); item 2's title is the
    # writer's own: in a list the card's English words cannot read, it is gate 2 by its place, not an invented gate
    text = ("Recompra de Hilados Norte\n\n"
            "1. Fondos excedentes: la caja sobra tras cubrir el negocio. Cumple.\n"
            "2. El colchón del precio: 30 % por debajo de nuestro valor. Cumple.\n"
            "3. ¿Hay un tope publicado? Sí, 1,2 veces el valor contable. Cumple.\n"
            "4. Propósito de la recompra: sostener la cotización. No cumple.\n")
    parsed = parse_response(text, BUYBACK, embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [
        (1, P, "translation"), (2, P, "position"), (3, P, "number"), (4, R, "translation")]
    assert parsed.invented_gates == []


def test_ipb_check_refuses_an_unknown_language_code_located(tmp_path: Path) -> None:
    (tmp_path / "buyback.yaml").write_text((FRAMEWORKS / f"{BUYBACK}.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "buyback.translations.yaml").write_text(
        "version: 1\ncard: buffett_share_repurchase\ngates:\n  funds_beyond_needs:\n    es: [fondos excedentes]\n"
        "    sp: [fondos sobrantes]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(tmp_path / "buyback.yaml")])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "buyback.translations.yaml:6:5:" in out and "unknown language 'sp'" in out
    assert ", ".join(LANGUAGES) in out  # the known codes, so the writer sees "es"


def test_load_gate_names_refuses_an_unknown_language_code() -> None:
    with pytest.raises(IpbError) as info:
        load_gate_names("version: 1\ncard: c\ngates:\n  a:\n    en: [one]\n", "side.yaml", card_id="c", gate_ids=("a",))
    assert "side.yaml:5:5" in str(info.value) and "unknown language 'en'" in str(info.value)
