"""A verdict verb the writer takes back in a later clause: elided ("Costco passes easily; this one does not") or withdrawn
("we passed it last year; that call was wrong") (issue 13, "which statement wins"; paper §7.5; break43 #6, #12).

Two shapes of clause, each read against the verdict verb (pass, clear, meet, qualify, satisfy, fail) shortly before it
in the same paragraph, whoever's or whenever that verb's statement is:

* **an elided verb** (:func:`elided`): a clause that is only the case's own subject (``it``, ``this one``, ``this
  company``, ``the stock``, ``ours`` ...), a negated auxiliary and at most a word of time ("At today's 45x it does
  not.", "; this one doesn't.", "but it no longer does.") repeats that verb, negated, for the case. It is a verdict of
  its own, the opposite of the verb's: REJECT after a pass (committed), PROCEED after a fail (weak, as a negated fail
  is everywhere in the parser). The verb it takes back spoke of another subject ("Costco passes") or another time
  ("it passed last year"): that verb is read weak. A clause whose subject is a name or another party ("Costco does
  not") is not the case's and is left alone; so is "either" (the same verdict again) and a verb already negated.
* **a withdrawn verdict** (:func:`withdrawn`): the next clause says the statement was wrong or is reversed ("that
  call was wrong", "we were wrong.", "we reversed it", "that verdict no longer holds"). The verb is read weak; no
  verdict is put in its place (the writer's new one, if any, is read where it is written).

Both read the lower-cased answer; every pattern is linear in its input (bounded repetitions, no nesting).
"""

from __future__ import annotations

import re
from typing import Any, Final, Iterable, Sequence

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._common import _Hit

__all__ = ["ELIDED_REJECT", "ELIDED_PROCEED", "VERB_FORMS", "antecedent", "elided", "elided_hits", "own_caveat", "taken_back",
           "withdrawn"]

#: Forms of the verdict verbs a later auxiliary can stand for.
VERB_FORMS: Final = frozenset({
    "pass", "passes", "passed", "clear", "clears", "cleared", "meet", "meets", "met", "qualify", "qualifies", "qualified",
    "satisfy", "satisfies", "satisfied", "fail", "fails", "failed",
})
#: The verdicts an elided negation states: a pass taken back, a fail taken back.
ELIDED_REJECT: Final = vw.VerdictWord(r"(?!)", vw.REJECT, (), strength=vw.COMMITTED, negatable=False)
ELIDED_PROCEED: Final = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.WEAK, negatable=False)

_APOS = r"['\u2019]"
#: The case's own subject of an elided clause.
_SUBJECT = (r"(?:it|this[ \t]+one|this[ \t]+(?:company|business|stock|share|firm|name)|the[ \t]+(?:company|business|stock|shares?|firm)"
            r"|ours|our[ \t]+(?:company|target|stock|name)|the[ \t]+target)")
#: A negated auxiliary that stands for the verb, then at most a word of time, then the clause's end.
_AUX = (r"(?:does[ \t]+not|doesn" + _APOS + r"t|do[ \t]+not|don" + _APOS + r"t|did[ \t]+not|didn" + _APOS + r"t|no[ \t]+longer[ \t]+does)"
        r"(?:[ \t]+(?:any[ \t]?more|today|now|at[ \t]+this[ \t]+price|at[ \t]+today" + _APOS + r"s[ \t]+price|this[ \t]+time|this[ \t]+year))?"
        r"[ \t]*(?=[.;!\n)]|$)")
#: An elided clause: it opens after a clause mark, a few words may lead it ("at today's 45x", "but", "today").
_ELIDED = re.compile(r"(?<=[.;:!?\n,\u2014\u2013])[ \t]*(?:[^\s.;:!?,]+[ \t]+){0,4}?" + _SUBJECT + r"[ \t]+" + _AUX)
#: A clause that says the statement before it was wrong or is undone.
_WITHDRAWN = re.compile(
    r"(?<=[.;:!?,\u2014\u2013])[ \t]*(?:and[ \t]+|but[ \t]+)?(?:"
    r"(?:that|this|the|our|my)[ \t]+(?:call|verdict|reading|assessment|rating|pass|fail|conclusion)[ \t]+"
    r"(?:was|is|proved|turned[ \t]+out[ \t]+to[ \t]+be)[ \t]+(?:wrong|mistaken|a[ \t]+mistake|an[ \t]+error|premature|outdated|out[ \t]+of[ \t]+date)"
    r"|(?:that|this|the|our|my)[ \t]+(?:call|verdict|reading|assessment|rating)[ \t]+no[ \t]+longer[ \t]+(?:holds|stands|applies)"
    r"|(?:i|we)[ \t]+(?:was|were)[ \t]+wrong"
    r"|(?:i|we)[ \t]+(?:have[ \t]+)?(?:reversed|withdrew|withdrawn|retracted|revoked)[ \t]+(?:it|that|this|the[ \t]+call|the[ \t]+verdict)"
    r")(?=[ \t]*(?:[.;!,\n]|$|and\b))")
#: How far before the clause the verb it takes back may stand (characters; same paragraph).
REACH: Final = 200
_NEGATORS: Final = frozenset({"not", "never", "no", "nor"})
_WORD = re.compile(r"[a-z']+")


def _verb(low: str, start: int, end: int) -> bool:
    """Whether ``low[start:end]`` is a verdict verb whose statement has no negator in the three words before it."""
    if low[start:end] not in VERB_FORMS:
        return False
    before = _WORD.findall(low, max(0, start - 30), start)[-3:]
    return not any(w in _NEGATORS or w.endswith("n't") for w in before)


def antecedent(low: str, spans: Iterable[tuple[int, int]], at: int) -> tuple[int, int] | None:
    """The last verdict verb among ``spans`` (start, end; in text order) that ends before ``at`` within :data:`REACH`
    characters, with no blank line between, and is not negated itself; else None.

    >>> t = "fair price: costco passes easily; this one does not."
    >>> antecedent(t, [(19, 25)], t.index("; this"))
    (19, 25)
    >>> antecedent("fair price: it does not pass.\\n\\nit does not.", [(24, 28)], 30) is None
    True
    """
    found = None
    for s, e in spans:
        if e > at:
            break
        if at - e <= REACH and "\n\n" not in low[e:at] and _verb(low, s, e):
            found = (s, e)
    return found


def elided(low: str) -> Iterable[tuple[int, int]]:
    """The spans (start, end) of elided negated clauses of the case's subject in ``low`` (module docstring).

    >>> t = "fair price: costco passes easily; this one does not."
    >>> [t[a:b] for a, b in elided(t)]
    ['this one does not']
    >>> list(elided("costco passes; walmart does not.")), list(elided("it does not pass."))
    ([], [])
    """
    for m in _ELIDED.finditer(low):
        text = m.group()
        sub = re.search(_SUBJECT + r"[ \t]", text)
        yield m.start() + (sub.start() if sub is not None else len(text) - len(text.lstrip())), m.end()


def withdrawn(low: str, end: int) -> bool:
    """Whether a clause right after the statement ending at ``end`` (in the same or the next sentence, at most 60
    characters on) says that statement was wrong or is undone.

    >>> t = "we passed it last year; that call was wrong and we reversed it."
    >>> withdrawn(t, t.index(" it last"))
    True
    >>> t = "it passes. we were wrong about growth, not about price."
    >>> withdrawn(t, t.index("."))
    False
    """
    stop = min(len(low), end + 60)
    for m in _WITHDRAWN.finditer(low, end, stop):
        between = low[end : m.start()]
        if between.count(".") + between.count(";") + between.count("!") <= 1 and "\n" not in between:
            return True
    return False


def elided_hits(state: Any) -> list[_Hit]:
    """Clauses of ``state`` (the parser: ``low``, ``hits``, ``_unit_at``) that repeat a verdict verb before them, negated,
    for the case ("Costco passes easily; this one does not.", "it passed last year. At today's 45x it does not."): the
    opposite verdict, as hits of their own. The verb they take back on the same line is noted in ``elided_over`` and
    read weak (:func:`taken_back`); one on the line before ("Size: passes.\\nCondition: it does not.") is another gate's
    own statement and is left alone."""
    low = state.low
    over: set[tuple[int, int]] = state.__dict__.setdefault("elided_over", set())
    if "n't" not in low and "n\u2019t" not in low and " not" not in low and "no longer" not in low:
        return []
    spans = [(h.start, h.end) for h in state.hits]
    words = {(h.start, h.end): h.word for h in state.hits}
    out: list[_Hit] = []
    for start, end in elided(low):
        before = antecedent(low, spans, start)
        u = state._unit_at(start)
        if before is None or u < 0:
            continue
        if "\n" not in low[before[1] : start]:
            over.add(before)
        out.append(_Hit(start, end, ELIDED_REJECT if words[before].verdict == vw.PROCEED else ELIDED_PROCEED, u))
    return out


def taken_back(state: Any, start: int, end: int) -> bool:
    """Whether the verdict word at ``state.low[start:end]`` is taken back later: an elided clause repeats it negated
    (:func:`elided_hits` noted it) or the next clause withdraws it (:func:`withdrawn`)."""
    return (start, end) in state.__dict__.get("elided_over", ()) or withdrawn(state.low, end)


#: The writer as a subject: "I have not checked", "we've not checked".
_FIRST_PERSON: Final = frozenset({"i", "we", "i've", "we've", "i\u2019ve", "we\u2019ve"})


def own_caveat(word: vw.VerdictWord, token: str, words: Sequence[str]) -> bool:
    """Whether a not-reached phrase ``token`` ("not checked", "not verified") has the writer as its subject in ``words``
    (the clause's last words before it): "I have not checked (the margins)" is the writer's own caveat, not the gate
    unreached (break43 #7, #8), and is read weak.

    >>> from ipb.scoring._gate_words import VERDICT_WORDS
    >>> na = next(w for w in VERDICT_WORDS if w.verdict == vw.NOT_REACHED and "not" in w.triggers)
    >>> own_caveat(na, "not checked", ["i", "have"]), own_caveat(na, "not checked", ["price"])
    (True, False)
    """
    return word.verdict == vw.NOT_REACHED and token.endswith(("checked", "verified")) and not _FIRST_PERSON.isdisjoint(words[-3:])
