"""Acts the writer judges after stating them, and consequences drawn after a negation (issue 13, final verdicts in the
wild; paper §7.5 structured response parsing).

Two readers :mod:`._final` asks about an outcome word or act it weighs (the text is the answer, characters are
offsets into it):

* :func:`judged_wrong` -- the act is the subject of a judgement that it is wrong: "buying would be a mistake",
  "Verdict: INVEST would be an error", "comprar sería un error", "Kaufen wäre ein Fehler", "买入是错误的". The
  writer refuses the act, so it reads as the other outcome (as a negation does). A negated judgement ("buying
  would not be a mistake", "no sería un error") refuses nothing.
* :func:`consequence_end` -- where the last consequence drawn in a clause starts ("It is not, so we decline",
  "the margin is not there; therefore DECLINE"): a negation before it negates the premise, not the outcome after it.

The words that judge an act wrong in other languages are data: ``mistakes`` in ``grammar/languages.yaml``. They
are read only after a word of another language (``buy``, ``avoid`` or ``outcomes`` there), so an English rating
followed by "error" ("BUY with a wide error band") is not read as one.
"""

from __future__ import annotations

import re

from ipb.scoring import _foreign_verdicts as fv

__all__ = ["consequence_end", "judged_wrong", "judged_wrong_before", "quoted_label"]

#: How far after the act its judgement is looked for (characters).
_REACH = 60

#: Where a clause ends after the act: its judgement lies before it.
_BREAK = re.compile(r"[.;:!?\n(\u2014\u2013\u3002\uff1b\uff1a\uff01\uff1f]|,[ \t]")

#: Words that open another clause between the act and a judgement ("INVEST because the consensus is wrong").
_OPENS_CLAUSE = (r"because|since|as|given|while|when|whereas|if|unless|though|although|and|but|that|which|who|where|"
                 r"until|after|before|so|even|despite|the\s+(?:market|consensus|bears?|bulls?|crowd|street)")

#: An English judgement right after the act: at most four words (no clause opener among them), a copula, then a word
#: that calls the act wrong ("INVEST at this price would be a mistake", "buying now is unwise").
_ENGLISH = re.compile(
    rf"(?i)(?:[ \t]+(?!(?:{_OPENS_CLAUSE})\b)[\w$%'./-]+){{0,4}}?[ \t]+(?:would|will|is|was|'d|\u2019d|seems?|looks?|remains?)"
    r"(?P<neg>[ \t]+(?:not|never|hardly)|n't|n\u2019t)?[ \t]+(?:be[ \t]+)?(?:the[ \t]+|an?[ \t]+)?"
    r"(?:(?:big|serious|clear|costly|grave|huge|real|terrible)[ \t]+)?"
    r"(?:mistake|error|wrong|unwise|imprudent|misguided|folly|reckless|bad[ \t]+(?:idea|call|decision|move))\b")

#: A condition right after the judgement: the act is wrong only then ("a mistake only if rates double", "an error
#: unless the moat holds"), so the writer refuses nothing.
_ON_A_CONDITION = re.compile(r"(?i)[ \t]*+(?:,[ \t]*+)?(?:only[ \t]++|just[ \t]++)?(?:if|unless|when|were|should|in[ \t]++case)\b")

_NEGATORS = frozenset(w.lower() for w in fv.NEGATORS) | {"no", "not", "kein", "keine", "ne", "pas", "не", "non", "nem"}
#: The words of other languages for buying, avoiding and the card's outcomes: only after one is a foreign judgement read.
_FOREIGN_ACTS = frozenset(w.lower() for w in (*fv.FINAL_WORDS, *(w for ws in fv.OUTCOME_WORDS.values() for w in ws)))
_MISTAKE_PATTERN = "|".join(fv.bounded(w) for w in sorted(fv.MISTAKES, key=len, reverse=True)) or "(?!)"
#: A foreign judgement: at most three words (a copula and an article: "sería un", "wäre ein", "是") then a mistake word.
_FOREIGN = re.compile(rf"(?i)(?P<between>(?:[ \t]*[^\s.;:!?,]+){{0,3}}?)[ \t]*(?:{_MISTAKE_PATTERN})")
#: In an unspaced script: at most four characters (a copula: "是", "は") then a mistake word ("买入是错误的").
_UNSPACED_JUDGED = re.compile(rf"(?P<between>[{fv.UNSPACED_CHARS}]{{0,4}}?)(?:{_MISTAKE_PATTERN})")
#: Negators inside that run: "买入不是错误的" judges nothing wrong.
_UNSPACED_NEGATORS = ("不", "非", "没", "沒", "ない", "않", "ไม่")


def judged_wrong(text: str, end: int, limit: int) -> bool:
    """Whether the act ending at ``end`` in ``text`` is judged wrong in its own clause (before ``limit``, the end of its
    sentence): "buying would be a mistake", "comprar sería un error", "买入是错误的".

    >>> t = "Conclusion: buying would be a mistake."
    >>> judged_wrong(t, t.index(" would"), len(t)), judged_wrong("We buy because the market is wrong.", 6, 35)
    (True, False)
    >>> t = "Conclusión: comprar sería un error."
    >>> judged_wrong(t, t.index(" sería"), len(t)), judged_wrong("Comprar no sería un error.", 7, 26)
    (True, False)
    >>> judged_wrong("结论：买入是错误的。", 5, 10), judged_wrong("Buying would not be a mistake.", 6, 30)
    (True, False)
    """
    stop = min(limit, end + _REACH)
    cut = _BREAK.search(text, end, stop)
    tail = text[end : cut.start() if cut is not None else stop]
    if not tail.strip():
        return False
    m = _ENGLISH.match(tail)
    if m is not None:  # (not a judgement on a condition: "would be a mistake only if the moat breaks")
        return m.group("neg") is None and _ON_A_CONDITION.match(text, end + m.end(), limit) is None
    act = _act_before(text, end)
    if act is None:
        return False
    if fv.unspaced(act):
        m = _UNSPACED_JUDGED.match(tail)
        return m is not None and not any(n in m.group("between") for n in _UNSPACED_NEGATORS)
    m = _FOREIGN.match(tail)
    if m is None:
        return False
    return not any(w.lower() in _NEGATORS for w in m.group("between").split())


#: A judgement that the act after it is wrong, ending right before it: "it would be a mistake to", "it is wrong to",
#: "foolish to", "too early to", "premature to" (at most one adverb between "to" and the act: "a mistake to simply").
_WRONG_TO = re.compile(
    r"(?i)\b(?:(?:an?[ \t]+)?(?:(?:big|serious|clear|costly|grave|huge|real|terrible)[ \t]+)?(?:mistake|error|folly)"
    r"|wrong|unwise|imprudent|misguided|foolish|reckless|premature|too[ \t]+(?:early|soon)"
    r"|(?:a[ \t]+)?bad[ \t]+(?:idea|call|move))[ \t]+to[ \t]+(?:[a-z]+ly[ \t]+)?[*_\"'\u201c]*\Z")
#: Words before such a judgement that deny it ("it would not be a mistake to", "no mistake to", "never wrong to").
_DENYING = re.compile(r"(?i)\b(?:not|never|no|hardly|isn't|wouldn't|won't|wasn't|isnt|wouldnt|wont)\b(?:[ \t]+[\w']+){0,2}[ \t]+\Z")


def judged_wrong_before(text: str, floor: int, start: int) -> bool:
    """Whether the act (a verdict or outcome word) starting at ``start`` follows a judgement that it is wrong, in the
    same clause after ``floor``: "It would be a mistake to PROCEED", "wrong to INVEST", "too early to PROCEED" refuse
    the act (s52break #3), as "buying would be a mistake" does after it (:func:`judged_wrong`). A denied judgement
    ("it would not be a mistake to PROCEED") refuses nothing.

    >>> t = "Gate 1: It would be a mistake to PROCEED."
    >>> judged_wrong_before(t, 0, t.index("PROCEED")), judged_wrong_before("It would not be a mistake to INVEST", 0, 29)
    (True, False)
    >>> judged_wrong_before("I am ready to INVEST", 0, 14), judged_wrong_before("it is too early to INVEST", 0, 19)
    (False, True)
    """
    m = _WRONG_TO.search(text, max(floor, start - 60), start)
    if m is None:
        return False
    return _DENYING.search(text, max(floor, m.start() - 40), m.start()) is None


def _act_before(text: str, end: int) -> str | None:
    """The word of another language for an act that ends at ``end`` (the longest listed one), or None."""
    head = text[max(0, end - 30) : end].lower()
    found = [w for w in _FOREIGN_ACTS if head.endswith(w)]
    return max(found, key=len) if found else None


#: A consequence drawn in a clause: "..., so we", "; therefore", "hence", "and so".
_CONSEQUENCE = re.compile(r"(?i)(?:(?:^|[,;])[ \t]*(?:and[ \t]+)?(?P<so>so)\b(?![ \t]+(?:much|many|far|long|that|too|to)\b)"
                          r"|\b(?P<word>therefore|thus|hence|consequently|accordingly)\b)")


def consequence_end(before: str) -> int:
    """Index in ``before`` (a clause's text up to an outcome word) where its last drawn consequence starts, at its
    connective ("so", "therefore"), or 0: a negation before it ("It is not, so we") does not reach the outcome, and
    the connective stays a cue of the clause ("so we decline").

    >>> consequence_end("It is not, so we "), consequence_end("We would not "), consequence_end("not so much ")
    (11, 0, 0)
    """
    last = 0
    for m in _CONSEQUENCE.finditer(before):
        last = m.start("so") if m.group("so") else m.start("word")
    return last


#: A quote opening inside running text: a word, a comma or a colon and a space before it ("A 'Final decision: invest' ...").
_QUOTE_IN_TEXT = re.compile(r"[\w,:;)][ \t]+[\"'\u201c\u2018\u00ab\u201e]\Z")
#: A closing quote or the end of the line, whichever comes first after the label.
_QUOTE_OR_LINE_END = re.compile(r"[\"'\u201d\u2019\u00bb\n]")


def quoted_label(text: str, start: int, end: int) -> bool:
    """Whether the final-decision label at ``text[start:end]`` is quoted inside a sentence, its colon and value within
    the quotes: a mention of the label ("A 'Decisión final: invertir' would need a cheaper price", "the form's
    \"Final decision: INVEST\" line"), not the writer's own label. A JSON key ('"final_decision": "INVEST"') closes
    its quote before the colon, and a quoted line standing alone has no text before its quote: both stay labels.

    >>> t = "A 'Final decision: invest' would need more."
    >>> quoted_label(t, 3, 17), quoted_label('{"final_decision": "INVEST"}', 2, 16), quoted_label('"Final decision: X"', 1, 15)
    (True, False, False)
    """
    if _QUOTE_IN_TEXT.search(text, max(0, start - 40), start) is None:
        return False
    close = _QUOTE_OR_LINE_END.search(text, end, end + 80)
    if close is None or text[close.start()] == "\n":
        return False  # the quote runs past the line: no quoted label
    colon = [i for i in (text.find(":", end - 1, end + 4), text.find("\uff1a", end - 1, end + 4)) if i >= 0]
    return bool(colon) and close.start() > min(colon)
