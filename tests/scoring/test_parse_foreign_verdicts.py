"""Verdict words in other languages (issue 13, verdict words; :mod:`ipb.scoring._foreign_verdicts`).

Short texts written for these tests: a checklist whose marks are German, French, Spanish, Portuguese, Italian, Chinese,
Japanese, Korean or Vietnamese words for pass / fail / met / not met, answers "Ja" / "否" to a gate's question, and a
decision label in another language ("Fazit: kaufen", "结论：暂不买入"). Negation is read as for English: a negated form
("nicht erfüllt", "KHÔNG ĐẠT", "未通过") is a fail, a negator word before a verdict word ("nicht wirklich bestanden")
flips it, and a prefix negator in an unspaced script is never read as the positive word inside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_verdicts

MUNGER = "munger_business_quality_price"  # gate 1 understandable business, gate 3 durable advantage (the moat)
DCF = "buffett_owner_earnings_dcf"        # outcomes INVEST / DECLINE

# (language, pass word, fail word): a two-line checklist reads PROCEED then REJECT
CHECKLIST_MARKS = [
    ("german", "bestanden", "nicht bestanden"),
    ("german-met", "erfüllt", "nicht erfüllt"),
    ("french", "réussi", "non respecté"),
    ("french-echec", "validé", "échec"),
    ("spanish", "cumple", "no cumple"),
    ("spanish-aprobado", "aprobado", "suspendido"),
    ("portuguese", "atende", "não atende"),
    ("portuguese-aprovado", "aprovado", "reprovado"),
    ("italian", "superato", "non superato"),
    ("chinese", "符合", "不符合"),
    ("chinese-pass", "通过", "未通过"),
    ("japanese", "合格", "不合格"),
    ("japanese-met", "満たしている", "満たしていない"),
    ("korean", "통과", "미충족"),
    ("vietnamese", "ĐẠT", "KHÔNG ĐẠT"),
    ("vietnamese-not-yet", "đạt", "chưa đạt"),
    # stop 33 (grammar/languages.yaml): Russian, Thai, French negations, traditional Chinese, Japanese, Korean
    ("ru-met", "выполнено", "не выполнено"),
    ("ru-meets", "соответствует", "не соответствует"),
    ("ru-failed", "пройден", "провален"),
    ("th-pass", "ผ่าน", "ไม่ผ่าน"),
    ("th-criteria", "ผ่านเกณฑ์", "ไม่เป็นไปตามเกณฑ์"),
    ("fr-ne-pas", "satisfait", "ne satisfait pas"),
    ("fr-n-est-pas", "rempli", "n'est pas rempli"),
    ("fr-curly-apostrophe", "conforme", "n\u2019est pas respecté"),
    ("pt-satisfaz", "satisfaz", "não satisfaz"),
    ("es-cumplida", "cumplida", "rechazado"),
    ("it-soddisfatta", "soddisfatta", "fallito"),
    ("de-ungenuegend", "erfüllt", "ungenügend"),
    ("zh-traditional", "滿足", "未滿足"),
    ("zh-traditional-target", "達標", "未達標"),
    ("zh-not-reached", "通过", "未达到"),
    ("ja-clear", "クリア", "未達"),
    ("ko-not-met-verb", "충족", "충족하지 못함"),
    ("ko-short", "합격", "미달"),
]


@pytest.mark.parametrize(("lang", "yes", "no"), CHECKLIST_MARKS, ids=[c[0] for c in CHECKLIST_MARKS])
def test_checklist_marks_in_other_languages(lang: str, yes: str, no: str) -> None:
    text = f"1. Circle of competence: {yes}\n2. Moat: {no}\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize(("text", "want"), [
    ("Moat: nicht wirklich bestanden.", vw.REJECT),      # a negator word three words before, as "not really passed"
    ("Moat: não foi aprovado.", vw.REJECT),
    ("Moat: pas réussi, la marque est faible.", vw.REJECT),
    ("Moat: non è stato superato.", vw.REJECT),
], ids=["nicht", "nao", "pas", "non"])
def test_negator_words_flip_as_not_does(text: str, want: str) -> None:
    assert gate_verdicts("1. Circle of competence: bestanden.\n2. " + text + "\n", MUNGER)[3] == want


def test_prefix_negation_in_unspaced_scripts_is_never_the_positive_word() -> None:
    # 未通过 holds 通过, 不合格 holds 合格: the leftmost (negated) word is read
    assert gate_verdicts("1. Circle of competence: 测试未通过\n2. Moat: 结果不合格\n", MUNGER) == {1: vw.REJECT, 3: vw.REJECT}


def test_a_verdict_word_used_as_a_verb_of_measure_is_no_verdict() -> None:
    # "lợi nhuận đạt 3.200 tỷ" (profit reached 3,200bn): đạt before a figure measures, it does not judge
    assert gate_verdicts("1. Circle of competence: lợi nhuận đạt 3.200 tỷ\n2. Moat: ĐẠT\n", MUNGER).get(1) is None


@pytest.mark.parametrize(("yes", "no"), [("Ja", "Nein"), ("Oui", "Non"), ("Sí", "No"), ("Sim", "Não"), ("是", "否"),
                                         ("はい", "いいえ"), ("Có", "Không")], ids=["de", "fr", "es", "pt", "zh", "ja", "vi"])
def test_yes_and_no_answer_a_gates_question(yes: str, no: str) -> None:
    text = f"Circle of competence? {yes}.\nDurable moat? {no}.\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


def test_full_width_question_mark_and_full_stop() -> None:
    assert gate_verdicts("Circle of competence？是。\nDurable moat？否。\n", MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize(("closing", "want"), [
    ("Fazit: kaufen", "INVEST"), ("Empfehlung: nicht kaufen", "DECLINE"), ("Recommandation : acheter", "INVEST"),
    ("Recomendación: vender", "DECLINE"), ("Decisão: não comprar", "DECLINE"), ("结论：买入", "INVEST"),
    ("结论:暂不买入", "DECLINE"), ("結論: 見送り", "DECLINE"), ("Kết luận: không mua", "DECLINE"), ("결론: 매수", "INVEST"),
], ids=["de-buy", "de-not-buy", "fr-buy", "es-sell", "pt-not-buy", "zh-buy", "zh-not-now", "ja-pass", "vi-not-buy", "ko-buy"])
def test_decision_labels_and_words_in_other_languages(closing: str, want: str) -> None:
    result = parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False)
    assert result.final_verdict == want


def test_a_buy_price_is_not_a_buy() -> None:
    # 建议买入价 is "the suggested buy price": the noun after 买入 makes it no verdict
    result = parse_response("Owner earnings are fine.\n\n建议买入价仅供参考。\n", DCF, embedder=False)
    assert result.final_verdict is None


def test_word_boundaries_only_for_spaced_scripts() -> None:
    assert fv.unspaced("未通过") and not fv.unspaced("nicht bestanden")
    assert fv.bounded("nicht bestanden") == r"\bnicht\s+bestanden\b"
    # "bestandene" is another word; "Umbestanden" too: no verdict inside a longer German word
    assert gate_verdicts("1. Circle of competence: bestanden\n2. Moat: die unbestandene Frage\n", MUNGER).get(3) is None


def test_every_foreign_word_is_a_verdict_word_of_the_scan() -> None:
    # each table word is found whole by the long-text scan (its trigger, and an unspaced word inside a run of its script)
    # with its verdict
    from ipb.scoring._text import lowered, scan, word_prefixes
    for word, verdict in fv.WORD_VERDICTS:
        if fv.GAP in word:  # a frame ("fällt … durch"): one word between its parts, closing its clause
            word = " ".join(word.replace(fv.GAP, "klar").split())
            text = f"x {word}. y"
        else:
            text = f"x {word} y" if not fv.unspaced(word) else f"x\u6d4b{word}y"
        low = lowered(text)
        found = [(m.group(0).lower(), vw.VERDICT_WORDS[key].verdict)
                 for key, m in scan(text, low, vw.VERDICT_TRIGGERS, prefixes=word_prefixes(low))]
        assert (word.lower(), verdict) in found, (word, found)


# Norwegian (bokmål and nynorsk), Danish and Swedish: the shared verdict words, their negated forms and the separate
# negators "ikke" / "ikkje" / "inte" / "ej"
SCANDINAVIAN_MARKS = [
    ("no-passed", "bestått", "ikke bestått"),
    ("no-approved", "godkjent", "underkjent"),
    ("no-met", "oppfylt", "ikke oppfylt"),
    ("nn-passed", "Bestått", "IKKJE BESTÅTT"),
    ("da-met", "opfyldt", "ikke opfyldt"),
    ("da-approved", "godkendt", "ikke godkendt"),
    ("sv-met", "uppfyllt", "inte uppfyllt"),
    ("sv-approved", "godkänd", "underkänd"),
]


@pytest.mark.parametrize(("lang", "yes", "no"), SCANDINAVIAN_MARKS, ids=[c[0] for c in SCANDINAVIAN_MARKS])
def test_scandinavian_checklist_marks(lang: str, yes: str, no: str) -> None:
    text = f"1. Circle of competence: {yes}\n2. Moat: {no}\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize("text", ["Moat: ble ikke helt oppfylt.", "Moat: var aldri godkjent.", "Moat: ej uppfyllt i år."],
                         ids=["ikke-two-words-before", "aldri", "ej"])
def test_scandinavian_negator_words_flip_as_not_does(text: str) -> None:
    assert gate_verdicts("1. Circle of competence: bestått.\n2. " + text + "\n", MUNGER)[3] == vw.REJECT


def test_scandinavian_unclear_and_yes_no_answers() -> None:
    assert gate_verdicts("1. Circle of competence: godkjent\n2. Moat: uklart\n", MUNGER) == {1: vw.PROCEED, 3: vw.INCONCLUSIVE}
    assert gate_verdicts("Circle of competence? Ja.\nDurable moat? Nei.\n", MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}
    assert gate_verdicts("Circle of competence? Ja.\nDurable moat? Nej.\n", MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize(("closing", "want"), [
    ("Anbefaling: kjøp", "INVEST"), ("Anbefaling: selg", "DECLINE"), ("Konklusjon: ikke kjøp", "DECLINE"),
    ("Konklusjon: unngå", "DECLINE"), ("Anbefaling: sælg", "DECLINE"), ("Rekommendation: köp", "INVEST"),
], ids=["no-buy", "no-sell", "no-not-buy", "no-avoid", "da-sell", "sv-buy"])
def test_scandinavian_decision_words(closing: str, want: str) -> None:
    result = parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False)
    assert result.final_verdict == want
