"""The synonym tables of final-verdict words (paper §7.5): the words real reports use for a final call
(BUY, AVOID, bearish, "Rating: Reduce"), mapped to a card's pass / fail outcome, and the everyday
phrases for a card's own outcome words (HOLD, SELL, DIVEST).

Re-exported by :mod:`ipb.scoring.verdict_words`. A card's ``verdict_synonyms`` add to and
override the default table (:func:`synonym_table`); the parser builds the patterns of each
card's table with :func:`synonym_patterns`.

References
----------
Paper §7.5 (structured response parsing: the final verdict).
"""

from __future__ import annotations

import re
from typing import Final

from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring._text import Trigger

__all__ = [
    "FINAL_SYNONYMS",
    "OUTCOME_SYNONYMS",
    "RATING_SCALE",
    "synonym_key",
    "synonym_patterns",
    "synonym_table",
    "RATING_FIELD",
    "RATING_TRIGGERS",
    "SYNONYM_WORD",
    "SYNONYM_TRIGGERS",
]

#: The verdict words real reports use for a final call, mapped to the card's pass / fail outcome (key 1 / 0) when
#: they are not the card's own outcome words: a rating or signal field ("signal": "bearish", "Rating: BUY") anywhere,
#: the bare word in a conclusion. HOLD is left unmapped (no outcome of a buy decision); WATCH and WAIT are fail-outcome
#: steps of :data:`RATING_SCALE` (a rating's value only).
FINAL_SYNONYMS: Final = {
    "strong buy": 1, "buy": 1, "accumulate": 1, "outperform": 1, "overweight": 1, "bullish": 1, "long": 1, "add": 1,
    "strong sell": 0, "sell": 0, "avoid": 0, "skip": 0, "underperform": 0, "underweight": 0, "bearish": 0, "short": 0,
    "pass at this price": 0, "pass for now": 0, "overvalued": 0, "too expensive": 0,
    # the same in other languages ("kaufen", "暂不买入"; :mod:`ipb.scoring._foreign_verdicts`)
    **_fv.FINAL_WORDS,
}
#: Everyday phrases for a card's outcome word when the card has that word as an outcome (HOLD on a hold-or-sell review,
#: SELL, DIVEST): "the fund keeps its holding" is HOLD, "we sell the shares" SELL. They read like the card's own outcome
#: words (after its ``verdict_synonyms``, which win) and, in lower case, only after a decision cue or the one who decides.
OUTCOME_SYNONYMS: Final[dict[str, tuple[str, ...]]] = {
    "HOLD": ("keep holding", "keeps holding", "keep the holding", "keeps the holding", "keep its holding", "keeps its holding",
             "keep our holding", "keep the stake", "keeps its stake", "keep the position", "keep the shares", "retain the holding",
             "retains its holding", "retain the stake", "retains its stake", "retain the shares", "stay invested", "remain invested",
             "stays invested", "remains invested", *_fv.HOLD_WORDS),
    "SELL": ("sell the shares", "sell the stock", "sell the position", "sell our shares", "exit the position", "sell out"),
    "DIVEST": ("sell the stake", "sell its stake", "sells its stake", "sell its holding", "sells its holding", "sell the holding",
               "exit the holding", "exits the holding", "exit its holding"),
    # a design or proposal sent back to be done again ("Their version goes back to the drawing board.", "Back to the
    # drawing board.") on a card whose fail outcome is to redo it (REDESIGN, REVISE)
    "REDESIGN": ("back to the drawing board", "back to the drawing-board", "needs a redesign", "needs to be redesigned",
                 "needs reworking", "needs to be reworked"),
    "REVISE": ("back to the drawing board", "back to the drawing-board", "sent back for revision", "returned for revision",
               "needs reworking", "needs to be reworked", "needs another draft"),
    # a plan cleared to be carried out ("Status: approved for implementation", "signed off for roll-out") on a card whose
    # pass outcome is to carry it out (IMPLEMENT) or to approve it (APPROVE)
    "IMPLEMENT": ("approved for implementation", "cleared for implementation", "signed off for implementation",
                  "approved for roll-out", "approved for rollout", "cleared to go live", "approved to go live"),
    "APPROVE": ("given the green light", "gets the green light", "green-lit", "signed off as drafted", "approved as drafted",
                "approved as written", "approved as it stands"),
}
# the outcome words in other languages ("Veredicto final: INVERTIR", "最终结论：不投资"; :mod:`ipb.scoring._foreign_verdicts`)
for _outcome, _words in _fv.OUTCOME_WORDS.items():
    OUTCOME_SYNONYMS[_outcome] = (*OUTCOME_SYNONYMS.get(_outcome, ()), *_words)
#: Steps of the rating scales reports use that are a verdict only as a rating's value ("Rating: Reduce", "Interest level:
#: No Interest"), never as a bare word in prose ("reduce debt", "strong interest from bidders"): key 1 / 0 as in
#: :data:`FINAL_SYNONYMS`. The middle of a scale (Hold, Neutral, Market Perform, Equal Weight, Some Interest) decides
#: neither and is left out.
RATING_SCALE: Final = {
    "reduce": 0, "trim": 0, "sell down": 0, "no interest": 0, "not interested": 0, "low interest": 0,
    "strong interest": 1, "high interest": 1, "high conviction buy": 1, "conviction buy": 1, "top pick": 1,
    # not buying now: on a card that decides whether to buy, a watch or a wait is its fail outcome ("Decision: WATCH");
    # a card with its own WATCH or WAIT outcome keeps it (the card's words come first)
    "watch": 0, "wait": 0, "watch list": 0, "watchlist": 0,
}


def synonym_key(phrase: str) -> str:
    """A synonym phrase as the tables key it: lower case, one space between words ("Pass-at  this_price" -> "pass at this price")."""
    return " ".join(re.sub(r"[_-]+", " ", phrase).lower().split())


#: After a final-verdict word of an unspaced script: not a noun it qualifies ("买入价", the buy price; "買い時", the time to
#: buy; "매수가", the buy price).
_UNSPACED_TAIL = "(?![\u4ef7\u50f9\u6642\u65f6\u6c34\u70b9\u9ede\uac00\uc810]|\u4e0a\u9650)"
#: Decision labels in other languages, as "Decision:" or "Recommendation:" ("Fazit:", "结论：", "Kết luận:", "Вывод:";
#: ``labels`` of ``grammar/languages.yaml``).
_FOREIGN_LABELS = _fv.LABEL_PATTERN
_FOREIGN_LABEL_LITERALS = _fv.LABEL_LITERALS
#: A character of a script written without spaces (after or before a word of one there is no word boundary).
_UNSPACED_CHAR = f"[{_fv.UNSPACED_CHARS}]"


def synonym_patterns(words: list[str], rating_only: frozenset[str] = frozenset()) -> tuple[re.Pattern[str], list[Trigger],
                                                                                             re.Pattern[str], list[Trigger]]:
    """(rating-field pattern, its triggers, bare-word pattern, its triggers) for synonym phrases ``words``.

    Group ``word`` holds the phrase as written; words may be separated by
    spaces, underscores or hyphens. Phrases in ``rating_only`` (keys of
    :data:`RATING_SCALE`) are matched only as a rating's value.
    """
    def alternation(phrases: list[str]) -> str:
        return "|".join(sorted((r"[\s_-]+".join(re.escape(p) for p in w.split()) + (_UNSPACED_TAIL + _fv.guard(w)) * _fv.unspaced(w)
                                for w in phrases), key=len, reverse=True)) or "(?!)"

    labels = r"signal|recommendation|rating|action|stance|call|decision|verdict|interest(?:[ \t]+level)?|view"
    # The spacing around the mark is atomic (what follows it, a mark or a word, never opens with a space, tab or "*", so
    # only the longest run can be followed by it): "[ \t]*\**[ \t]*" let two stars split one run of n tabs every way,
    # each split trying every word, and "Final verdict:" + 2,000 tabs took 13 s, 20,000 hung.
    rating = re.compile(
        rf'(?i)(?:"(?:{labels})"[ \t]*+:[ \t]*+"[ \t]*+'
        rf"|(?:\b(?:{labels})|{_FOREIGN_LABELS})(?>[ \t]*\**[ \t]*)[:=\u2014\uff1a-](?>[ \t]*\**[ \t]*))"
        rf"(?P<word>{alternation(words)})(?:\b|(?<={_UNSPACED_CHAR})|{_fv.MARK_END})"
    )
    rating_triggers = [Trigger(w, rating) for w in ("signal", "recommendation", "rating", "action", "stance", "call", "decision", "verdict",
                                                    "interest", "view", '"')]
    rating_triggers += [Trigger(w, rating, word=not _fv.unspaced(w)) for w in _FOREIGN_LABEL_LITERALS]
    plain = [w for w in words if w not in rating_only]
    bare = re.compile(rf"(?i)(?:\b|(?={_UNSPACED_CHAR}))(?P<word>{alternation(plain)})(?:\b|(?<={_UNSPACED_CHAR})|{_fv.MARK_END})")
    bare_triggers = [Trigger(first, bare, word=first[:1].isalnum() and not _fv.unspaced(first))
                     for first in dict.fromkeys(w.split()[0] for w in plain)]
    return rating, rating_triggers, bare, bare_triggers


def synonym_table(pass_outcome: str, fail_outcome: str, extra: dict[str, tuple[str, ...]] | None = None) -> dict[str, str]:
    """One card's synonym table: phrase (:func:`synonym_key`) -> the card's outcome word.

    The default table (:data:`FINAL_SYNONYMS` and the rating-scale steps of
    :data:`RATING_SCALE`, read only as a rating's value) maps to ``pass_outcome`` /
    ``fail_outcome``; ``extra`` (a card's ``verdict_synonyms``: outcome ->
    phrases) adds phrases and overrides default ones.

    >>> t = synonym_table("REPURCHASE", "NO_REPURCHASE", {"NO_REPURCHASE": ("No buyback",), "REPURCHASE": ("buy",)})
    >>> t["no buyback"], t["buy"], t["sell"]
    ('NO_REPURCHASE', 'REPURCHASE', 'NO_REPURCHASE')
    """
    table = {w: (pass_outcome if v else fail_outcome) for w, v in {**FINAL_SYNONYMS, **RATING_SCALE}.items()}
    for outcome, phrases in (extra or {}).items():
        for phrase in phrases:
            table[synonym_key(phrase)] = outcome
    return table


#: A rating or signal field: ``"signal": "bearish"``, ``Rating: BUY``, ``Recommendation - AVOID``; a bare synonym (checked
#: only in the conclusion). Built for the default table; the parser builds the same for each card's table.
RATING_FIELD, RATING_TRIGGERS, SYNONYM_WORD, SYNONYM_TRIGGERS = synonym_patterns([*FINAL_SYNONYMS, *RATING_SCALE], frozenset(RATING_SCALE))
