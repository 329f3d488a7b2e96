"""Verdict words of the vocabulary file ``grammar/languages.yaml`` (issue 13, answers not only in English).

Short texts written for these tests, one or two per language: a checklist whose marks are the language's words for
met / not met (its negated form read as a fail, a separate negator flipping a pass), a table of a CJK answer with
✓ / ✗ and words in its cells, answers to a gate's question, a final-verdict line under a decision label, and the
continuations that make an unspaced word another word (Thai "ที่ผ่านมา", "the past ...", is not "ผ่าน", "passed").
The file itself: its schema rejects an unknown key and a word holding a regular-expression character, located.
"""

from __future__ import annotations

import pytest

from ipb.errors import IpbError
from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_verdicts

MUNGER = "munger_business_quality_price"  # gate 1 understandable business, gate 3 durable advantage (the moat)
DCF = "buffett_owner_earnings_dcf"        # outcomes INVEST / DECLINE


@pytest.mark.parametrize(("mark", "want"), [
    ("неясно", vw.INCONCLUSIVE), ("недостаточно данных", vw.INCONCLUSIVE), ("не применимо", vw.NOT_REACHED),
    ("ข้อมูลไม่เพียงพอ", vw.INCONCLUSIVE), ("ไม่เกี่ยวข้อง", vw.NOT_REACHED), ("難以判斷", vw.INCONCLUSIVE),
    ("判断不能", vw.INCONCLUSIVE), ("불명확", vw.INCONCLUSIVE), ("non concluant", vw.INCONCLUSIVE),
    ("no aplica", vw.NOT_REACHED), ("inconclusivo", vw.INCONCLUSIVE),
], ids=["ru-unclear", "ru-no-data", "ru-na", "th-no-data", "th-na", "zh-hard-to-judge", "ja-undecidable", "ko-unclear",
        "fr-inconclusive", "es-na", "pt-inconclusive"])
def test_unclear_and_not_applicable(mark: str, want: str) -> None:
    assert gate_verdicts(f"1. Circle of competence: выполнено\n2. Moat: {mark}\n", MUNGER) == {1: vw.PROCEED, 3: want}


def test_russian_negator_flips_a_pass_two_words_on() -> None:
    # "не вполне соответствует": not quite meets; "не" stands two words before the verdict word, as "not quite" would
    assert gate_verdicts("1. Circle of competence: соответствует.\n2. Moat: пока не вполне соответствует.\n", MUNGER) == \
        {1: vw.PROCEED, 3: vw.REJECT}


def test_cjk_table_with_ticks_and_words() -> None:
    text = ("| 标准 | 结果 | 说明 |\n|---|---|---|\n"
            "| Circle of competence | ✓ 符合 | 业务简单 |\n"
            "| Moat | ✗ 不符合 | 品牌弱 |\n"
            "| Fair price | 数据不足 | 缺少现金流 |\n")
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT, 5: vw.INCONCLUSIVE}


def test_cjk_table_of_words_only() -> None:
    text = "| 项目 | 判定 |\n|---|---|\n| Circle of competence | 通過 |\n| Moat | 未通過 |\n"
    assert gate_verdicts(text, MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


def test_thai_past_is_not_passed() -> None:
    # "กำไร 5 ปีที่ผ่านมา" is "profit over the past 5 years": ผ่าน followed by มา is no verdict
    assert gate_verdicts("1. Circle of competence: กำไร 5 ปีที่ผ่านมา\n2. Moat: ไม่ผ่าน\n", MUNGER) == {1: None, 3: vw.REJECT}


@pytest.mark.parametrize(("yes", "no"), [("Да", "Нет"), ("ใช่", "ไม่ใช่"), ("예", "아니요")], ids=["ru", "th", "ko"])
def test_yes_and_no_answer_a_gates_question(yes: str, no: str) -> None:
    assert gate_verdicts(f"Circle of competence? {yes}.\nDurable moat? {no}.\n", MUNGER) == {1: vw.PROCEED, 3: vw.REJECT}


@pytest.mark.parametrize(("closing", "want"), [
    ("Вывод: покупать", "INVEST"), ("Рекомендация: не покупать", "DECLINE"), ("Итог: продавать", "DECLINE"),
    ("สรุป: ซื้อ", "INVEST"), ("สรุป: ยังไม่ซื้อ", "DECLINE"), ("คำแนะนำ: ไม่น่าซื้อ", "DECLINE"),
    ("Conclusión: comprar", "INVEST"), ("Conclusione: non comprare", "DECLINE"), ("結論：不建議買入", "DECLINE"),
    ("判定: 買い", "INVEST"), ("Veredito: não investir", "DECLINE"),
], ids=["ru-buy", "ru-not-buy", "ru-sell", "th-buy", "th-not-yet", "th-not-worth", "es-buy", "it-not-buy",
        "zh-trad-not-advised", "ja-buy", "pt-not-invest"])
def test_final_verdict_lines(closing: str, want: str) -> None:
    result = parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False)
    assert result.final_verdict == want


@pytest.mark.parametrize("closing", ["สรุป: ตลาดซื้อขายคึกคัก", "結論：売り上げは伸びている"], ids=["th-trading", "ja-sales"])
def test_a_word_inside_another_word_is_no_final_verdict(closing: str) -> None:
    # ซื้อขาย is trading, not a buy; 売り上げ is sales, not a sell
    assert parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False).final_verdict is None


def test_the_languages_asked_for_are_in_the_file() -> None:
    names = " ".join(fv.LANGUAGES)
    for language in ("Chinese", "Japanese", "Korean", "Spanish", "Portuguese", "French", "German", "Italian", "Russian", "Thai"):
        assert language in names
    assert fv.unspaced("ไม่ผ่าน") and not fv.unspaced("не соответствует")


@pytest.mark.parametrize(("text", "where", "says"), [
    ("version: 1\nlanguages:\n  xx:\n    name: X\n    negaters: [nope]\n", ":5:", "negators"),
    ("version: 1\nlanguages:\n  xx:\n    name: X\n    plain:\n      PROCEED: [pa(ss]\n", ":6:", "does not match"),
    ("version: 1\nlanguages:\n  xx:\n    name: X\n    negated:\n      PROCEED: [not bad]\n", ":6:", "PROCEED"),
], ids=["unknown-key-did-you-mean", "regex-character", "negated-pass"])
def test_a_broken_vocabulary_file_is_rejected_located(text: str, where: str, says: str) -> None:
    with pytest.raises(IpbError) as info:
        fv.load_languages(text, "vocab.yaml")
    message = str(info.value)
    assert "vocab.yaml" + where in message and says in message, message


GRAHAM7 = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, 4 dividends, 6 P/E


@pytest.mark.parametrize(("text", "want"), [
    ("1. 企业规模适当：营收 90 亿元，符合。\n2. 股息记录：连续 25 年派息，满足。\n3. 适度的市盈率：22 倍，不符合。\n",
     {1: vw.PROCEED, 4: vw.PROCEED, 6: vw.REJECT}),
    ("这家公司的盈利穩定性沒有問題。\n过去二十年的股息記錄未通過。\n", {3: vw.PROCEED, 4: vw.REJECT}),
    ("Tamanho adequado: aprovado\nHistórico de dividendos: reprovado\n", {1: vw.PROCEED, 4: vw.REJECT}),
    ("Stabilité des bénéfices : respecté\nCroissance des bénéfices : ne satisfait pas\n", {3: vw.PROCEED, 5: vw.REJECT}),
], ids=["zh", "zh-hant-running-text", "pt", "fr"])
def test_graham_tests_under_their_translated_names(text: str, want: dict[int, str]) -> None:
    # the card lists the names the translations of The Intelligent Investor give the tests; an unspaced name is found
    # inside a run of its script, where there are no word boundaries
    assert gate_verdicts(text, GRAHAM7) == want


def test_the_vocabulary_schema_is_a_valid_schema_and_the_shipped_file_meets_it() -> None:
    import json
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("ipb.grammar").joinpath("languages.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    text = resources.files("ipb.grammar").joinpath("languages.yaml").read_text(encoding="utf-8")
    assert set(fv.load_languages(text)) >= {"de", "fr", "es", "pt", "it", "ru", "zh", "ja", "ko", "th"}


@pytest.mark.parametrize(("moat", "want"), [
    ("品牌不能通过", vw.REJECT),          # 不能 ("cannot") in the run touching 通过
    ("护城河不算深，通过", vw.PROCEED),    # the negator is in the clause before the comma: no reach
    ("业绩不错通过", vw.PROCEED),          # 不错 ("not bad") is good, no negation
    ("未来可能符合", vw.PROCEED),          # 未来 ("the future") negates nothing
], ids=["zh-cannot", "zh-comma-ends-the-run", "zh-not-bad", "zh-future"])
def test_a_negating_prefix_in_the_run_before_the_word(moat: str, want: str) -> None:
    assert gate_verdicts(f"1. Circle of competence: 通过\n2. Moat: {moat}\n", MUNGER)[3] == want


@pytest.mark.parametrize(("closing", "want"), [
    ("结论：我不会买入。", "DECLINE"), ("สรุป: ตอนนี้ไม่ควรซื้อ", "DECLINE"), ("结论：买入。", "INVEST"),
], ids=["zh-would-not-buy", "th-should-not-buy", "zh-buy"])
def test_a_negating_prefix_before_a_final_word(closing: str, want: str) -> None:
    assert parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False).final_verdict == want


@pytest.mark.parametrize("moat", ["我们不得不承认它符合", "不是不能通过"], ids=["zh-have-to", "zh-not-that-it-cannot"])
def test_two_negating_prefixes_in_the_run_cancel(moat: str) -> None:
    # 不得不 is "cannot not", i.e. "must"; 不是不能通过 "it is not that it cannot pass": each holds two negators, a pass
    assert gate_verdicts(f"1. Circle of competence: 通过\n2. Moat: {moat}\n", MUNGER)[3] == vw.PROCEED


def test_without_hesitation_is_no_negation_of_a_buy() -> None:
    # 毫不犹豫地买入, "buy without hesitation", was read as a decline (the 不 of 不犹豫 six characters before 买入)
    result = parse_response("Owner earnings are fine.\n\n结论：毫不犹豫地买入。\n", DCF, embedder=False)
    assert result.final_verdict != "DECLINE"


@pytest.mark.parametrize("moat", [
    "no solo cumple, sino que supera el umbral", "não só atende como supera", "non seulement satisfait, mais dépasse",
    "nicht nur erfüllt, sondern übertroffen", "не только соответствует, но и превосходит",
], ids=["es", "pt", "fr", "de", "ru"])
def test_not_only_is_no_negation(moat: str) -> None:
    # "not only meets, but exceeds": the negator governs "only" (not_only in the vocabulary file), as in English
    first = "1. Circle of competence: cumple\n" if moat.startswith("no solo") else "1. Circle of competence: PASS\n"
    assert gate_verdicts(first + f"2. Moat: {moat}\n", MUNGER)[3] == vw.PROCEED


@pytest.mark.parametrize("moat", ["不只是通过", "差不多通过", "不出所料通过", "不用说通过", "不可否认地符合", "不失为通过", "非常符合"],
                         ids=["not-only", "almost", "as-expected", "needless-to-say", "undeniably", "still-counts-as", "very"])
def test_a_compound_of_a_negator_that_negates_nothing(moat: str) -> None:
    # stop 33 review: each read REJECT (a 不 in the eight characters before the word); 非常 is "very", not 非 "is not"
    assert gate_verdicts(f"1. Circle of competence: 通过\n2. Moat: {moat}\n", MUNGER)[3] == vw.PROCEED


def test_fei_is_a_negator() -> None:
    assert gate_verdicts("1. Circle of competence: 通过\n2. Moat: 并非符合\n", MUNGER)[3] == vw.REJECT
