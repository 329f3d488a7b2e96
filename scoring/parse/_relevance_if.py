"""A condition about the conversation, not about the facts: "If you ask me, ...", "If you want my bottom line: ...".

Such an "if" (a relevance or speech-act conditional) says when the writer offers the verdict, not when the verdict
would hold, so the verdict after it is stated for today. :mod:`._final` drops a final verdict in a sentence opened by
"if" or with "if" among the words before it ("If the price halves, the final verdict: INVEST" is a condition); a
sentence opened by one of these clauses is read from the clause's end instead. A new user's chatty answers (s47user)
closed with "But if you want my bottom line: Final verdict: BUY." and lost their verdict on every BUY item (VerdictAcc
0.625 on eight answers right on every gate).

Only clauses whose object is the answer itself count ("my view", "a verdict", "me", "to know"): "If you want safety,
DECLINE" and "If you need income, buy" are conditions on the reader's circumstances and stay conditions.
"""

from __future__ import annotations

import re

__all__ = ["relevance_condition_end"]

_S = r"[ \t]+"
#: What the reader asks for when the condition is about the answer: the writer's view, a verdict, a short version.
_ANSWER_NOUN = (r"(?:view|take|opinion|bottom" + _S + r"line|verdict|answer|recommendation|call|two" + _S + r"cents"
                r"|summary|version|word|thoughts?|conclusion)")
_ASKS = r"(?:want|need|ask|wish|'d" + _S + r"like|would" + _S + r"like|are" + _S + r"asking|'re" + _S + r"asking|insist)"
_RELEVANCE_IF = re.compile(
    r"(?i)[\s*_>#-]*(?:(?:but|and|so|well|okay|ok|anyway|still),?" + _S + r")?if" + _S + r"(?:"
    # "if you ask me", "if you want my bottom line", "if you'd like a one-word answer", "if you want to know"
    r"you(?:" + _S + r"(?:really|just|still|simply))?" + _S + _ASKS + _S
    + r"(?:me\b|to" + _S + r"know\b|(?:for" + _S + r")?(?:my|a|an|the|one)" + _S
    + r"(?:(?:honest|short|quick|one-word|final|personal|overall|plain|blunt)" + _S + r")?" + _ANSWER_NOUN + r"\b)"
    # "if I'm honest", "if I may say so", "if I had to sum it up", "if I had to put it in one word"
    r"|I'?m" + _S + r"(?:being" + _S + r")?(?:honest|frank|blunt)\b"
    r"|I" + _S + r"am" + _S + r"(?:being" + _S + r")?(?:honest|frank|blunt)\b"
    r"|(?:I|we)" + _S + r"(?:may|might|can)" + _S + r"(?:say|add|be" + _S + r"(?:blunt|frank|honest|direct))\b"
    r"|(?:I|we)" + _S + r"(?:had|have)" + _S + r"to" + _S + r"(?:sum|put|boil|summari[sz]e)\b"
    r")[^,:;.!?\n]{0,60}?[ \t]*[,:\u2014\u2013]")


def relevance_condition_end(text: str, start: int, end: int) -> int | None:
    """Where a condition about the conversation opening ``text[start:end]`` ends (after its comma, colon or dash), or
    None when the stretch (a sentence up to an outcome word) opens with no such clause.

    >>> s = "But if you want my bottom line: Final verdict: BUY."
    >>> s[relevance_condition_end(s, 0, len(s)):]
    ' Final verdict: BUY.'
    >>> t = "If you ask me, the final verdict is BUY."
    >>> t[relevance_condition_end(t, 0, len(t)):]
    ' the final verdict is BUY.'
    >>> relevance_condition_end("If the price halves, the final verdict: INVEST.", 0, 47) is None
    True
    >>> relevance_condition_end("If you want safety, DECLINE.", 0, 28) is None
    True
    """
    m = _RELEVANCE_IF.match(text, start, end)
    return None if m is None else m.end()
