"""Verdict words in other languages than English (issue 13, verdict words; paper §7.3, §7.5).

Answers and the sources they are modelled on mix languages: a Vietnamese checklist marks each criterion ``ĐẠT`` /
``KHÔNG ĐẠT`` (met / not met), a Chinese report concludes ``暂不买入`` ("not buying for now"), a German brief says
``nicht erfüllt``. This module is the data the verdict vocabulary (:mod:`ipb.scoring.verdict_words`) adds for them, in
German, French, Spanish, Portuguese, Italian, Norwegian (with the Danish and Swedish forms of the same words), Chinese,
Japanese, Korean and Vietnamese, for the same meanings as the
English words: pass / fail, met / not met, unclear, not applicable (gate verdicts), yes / no (answers to a gate's
question) and buy / sell / hold / avoid (final verdicts, through the synonym table).

**Negation** is handled as for English. A language that writes its negator as a separate word (``nicht``, ``non``,
``no``, ``não``, ``không``, ``chưa``, ``pas``, Norwegian and Danish ``ikke`` / nynorsk ``ikkje``, Swedish ``inte`` / ``ej``) has it in :data:`NEGATORS`, which the parser reads before a verdict word
exactly as it reads "not" ("nicht bestanden", "no cumple", "não atende"). Its most common negated forms are also
entries of their own (so that a table cell "KHÔNG ĐẠT" reads as one word). A language that writes no spaces (Chinese,
Japanese; Korean particles attach to the word) negates by a prefix character (``未通过``, ``不合格``, ``미충족``): the
negated forms are entries listed before the positive ones, and a scan takes the leftmost match, so ``未通过`` is read
before the ``通过`` inside it.

**Word boundaries.** A word of a spaced language is matched on word boundaries, as English words are; a word of an
unspaced script (:func:`unspaced`) is matched anywhere (there are no boundaries to find), so only words that are
verdicts in any context are listed for those scripts.

References
----------
Paper §7.3 (gate-level terminology), §7.5 (structured response parsing).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["GATE_WORDS", "WORD_VERDICTS", "HOLD_WORDS", "NEGATORS", "FINAL_WORDS", "YES_WORDS", "NO_WORDS", "unspaced", "bounded"]

#: Characters of scripts written without spaces between words (CJK ideographs, kana, hangul).
_UNSPACED = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def unspaced(word: str) -> bool:
    """Whether ``word`` is written in a script without spaces between words (so it has no word boundaries).

    >>> unspaced("通过"), unspaced("bestanden"), unspaced("ĐẠT")
    (True, False, False)
    """
    return _UNSPACED.search(word) is not None


def bounded(word: str) -> str:
    r"""``word`` as a regular expression: escaped, spaces matching any run of blanks, on word boundaries unless it is
    written in an unspaced script.

    >>> bounded("nicht erfüllt"), bounded("未通过")
    ('\\bnicht\\s+erfüllt\\b', '未通过')
    """
    body = r"\s+".join(re.escape(w) for w in word.split())
    return body if unspaced(word) else rf"\b{body}\b"


# Each table: verdict -> words, negated forms first (a scan tries them in this order at one position; for unspaced
# scripts the negated form starts earlier and wins as the leftmost match).
_REJECT = "REJECT"
_PROCEED = "PROCEED"
_INCONCLUSIVE = "INCONCLUSIVE"
_NOT_REACHED = "N/A"

#: Negated forms: their own negation included (never negated again).
_NEGATED: Final[dict[str, tuple[str, ...]]] = {
    _REJECT: (
        # German, French, Spanish, Portuguese, Italian, Vietnamese: "not passed", "not met"
        "nicht bestanden", "nicht erfüllt", "nicht eingehalten", "nicht ausreichend",
        # (French, Spanish and Italian "non ..." / "no ..." / "pas ...": the English negators "no" and "non" already negate
        # the positive word; as entries they would be tried at every English "no")
        "não cumpre", "não atende", "não aprovado", "não atendido", "não cumprido", "não apto", "não passou",
        "không đạt", "chưa đạt", "không qua", "không thông qua",
        # Norwegian (bokmål, nynorsk), Danish, Swedish: "not passed", "not met", "not approved"
        "ikke bestått", "ikkje bestått", "ikke bestået", "inte godkänd", "ej godkänd", "ikke godkjent", "ikkje godkjent",
        "ikke godkendt", "ikke oppfylt", "ikkje oppfylt", "ikke opfyldt", "inte uppfyllt", "ej uppfyllt", "inte uppfylld",
        "ikke innfridd", "ikke tilfredsstilt", "ikke tilfredsstillet",
        # Chinese, Japanese, Korean: a negating prefix
        "未通过", "不通过", "没有通过", "没通过", "未通過", "不通過", "不符合", "不满足", "未满足", "未達成", "未达标", "不达标",
        "不合格", "不適合", "満たさない", "満たしていない", "満たせない",
        "미통과", "불통과", "미충족", "불충족", "부적합", "불합격",
    ),
    _NOT_REACHED: (
        "nicht anwendbar", "nicht zutreffend", "sans objet", "não se aplica",
        "ikke relevant", "ikke aktuelt", "ikkje aktuelt", "ikke anvendelig", "ej tillämplig", "inte tillämplig",
        "não aplicável", "không áp dụng", "不适用", "不適用", "該当なし", "対象外", "해당 없음", "해당없음",
    ),
    _INCONCLUSIVE: (
        "nicht bestimmbar", "daten unzureichend", "données insuffisantes", "datos insuficientes", "dados insuficientes",
        "dati insufficienti", "utilstrekkelige data", "utilstrækkelige data", "otillräckliga data", "ikke avklart",
        "ikke afklaret", "inte fastställt", "không đủ dữ liệu", "chưa rõ", "数据不足", "無法判斷", "无法判断", "无法确定", "判断できない",
        "データ不足", "데이터 부족", "판단 불가",
    ),
}

#: Positive forms (negatable by :data:`NEGATORS` before them).
_PLAIN: Final[dict[str, tuple[str, ...]]] = {
    _REJECT: (
        "durchgefallen", "verfehlt", "échoué", "échec", "suspendido", "reprobado", "incumple", "reprovado", "bocciato",
        "trượt", "underkjent", "strøket", "dumpet", "underkendt", "dumpede", "underkänd", "失败", "失敗", "탈락",
    ),
    _INCONCLUSIVE: ("unklar", "unbekannt", "incertain", "indéterminé", "incierto", "incerto", "không rõ", "uavklart", "uklart", "usikkert", "uafklaret",
                    "oklart", "osäkert", "不确定",
                    "不確定", "不明", "불확실"),
    _PROCEED: (
        "bestanden", "erfüllt", "eingehalten",
        "réussi", "validé", "respecté", "respectée",
        "aprobado", "cumple", "cumplido", "superado", "apto",
        "aprovado", "cumpre", "atende", "atendido", "cumprido",
        "superato", "soddisfatto", "rispettato",
        "bestått", "bestået", "godkjent", "godkendt", "godkänd", "oppfylt", "opfyldt", "uppfyllt", "uppfylld", "innfridd",
        "tilfredsstilt",
        "đạt", "đạt yêu cầu", "thông qua",
        "通过", "通過", "符合", "满足", "達成", "达标", "合格", "適合", "満たす", "満たしている",
        "통과", "충족", "적합", "합격",
    ),
}

#: A word that is also a verb of measure in running text ("lợi nhuận đạt 3.200 tỷ": profit reached 3,200bn; "erfüllt 14 %"):
#: not a verdict when a figure follows it.
_NOT_BEFORE_FIGURE = r"(?![ \t]*[-+$\u20ac\u00a3\u00a5]?\d)"

#: The gate-verdict words: (regular expression, verdict, whether it may be negated again, literals it starts with).
GATE_WORDS: Final[tuple[tuple[str, str, bool, tuple[str, ...]], ...]] = tuple(
    [("(?i:" + "|".join(bounded(w) for w in sorted(words, key=len, reverse=True)) + ")" + _NOT_BEFORE_FIGURE,
      verdict, False, tuple(dict.fromkeys(w.split()[0].lower() for w in words)))
     for verdict, words in _NEGATED.items()]
    + [("(?i:" + "|".join(bounded(w) for w in sorted(words, key=len, reverse=True)) + ")" + _NOT_BEFORE_FIGURE,
        verdict, True, tuple(dict.fromkeys(w.split()[0].lower() for w in words)))
       for verdict, words in _PLAIN.items()]
)

#: Every word of the two tables with its verdict, for tests and documentation.
WORD_VERDICTS: Final[tuple[tuple[str, str], ...]] = tuple((w, v) for table in (_NEGATED, _PLAIN) for v, words in table.items() for w in words)

#: Negators written as separate words, read before a verdict word as "not" is.
NEGATORS: Final = frozenset({"nicht", "kein", "keine", "keinen", "niemals", "pas", "jamais", "não", "nao", "nunca", "không",
                             "chưa", "chẳng", "nein",
                             "ikke", "ikkje", "inte", "ej", "aldri", "aldrig"})

#: Answers to a gate's question ("Erfüllt? Ja", "¿Cumple? Sí", "是否符合:是").
YES_WORDS: Final = ("ja", "oui", "sí", "sim", "có", "是", "はい", "예", "네")
NO_WORDS: Final = ("nein", "nei", "nej", "non", "não", "nao", "không", "否", "いいえ", "아니요", "아니오")

#: Final-verdict words (key 1: the card's pass outcome, 0: its fail outcome), as :data:`ipb.scoring.verdict_words.FINAL_SYNONYMS`.
#: HOLD words are left out there too (no outcome of a buy decision); they are the card's HOLD where it has one.
FINAL_WORDS: Final[dict[str, int]] = {
    # buy / accumulate
    "kaufen": 1, "kaufempfehlung": 1, "acheter": 1, "achat": 1, "comprar": 1, "compra": 1, "comprare": 1, "acquistare": 1,
    "kjøp": 1, "kjøpe": 1, "køb": 1, "købe": 1, "köp": 1, "köpa": 1,
    "mua vào": 1, "nên mua": 1, "买入": 1, "買入": 1, "增持": 1, "買い": 1, "매수": 1,
    # sell / avoid / not buying
    "verkaufen": 0, "meiden": 0, "nicht kaufen": 0, "vendre": 0, "éviter": 0, "ne pas acheter": 0, "vender": 0, "evitar": 0,
    "não comprar": 0, "vendere": 0, "evitare": 0,
    "selg": 0, "selge": 0, "sælg": 0, "sælge": 0, "sälj": 0, "sälja": 0, "unngå": 0, "undgå": 0, "undvik": 0, "ikke kjøp": 0,
    "ikke kjøpe": 0, "ikke køb": 0, "inte köpa": 0, "nên bán": 0, "không mua": 0,
    "卖出": 0, "賣出": 0, "回避": 0, "避开": 0, "不买入": 0, "暂不买入": 0, "不买": 0, "不買入": 0, "減持": 0, "减持": 0,
    "売り": 0, "見送り": 0, "매도": 0, "회피": 0,
}
#: Everyday words for HOLD on a card that has it as an outcome ("halten", "conserver", "持有").
HOLD_WORDS: Final = ("halten", "conserver", "mantener", "manter", "mantenere", "beholde", "behåll", "behålla", "giữ", "持有", "保有", "継続保有", "보유")
