"""Two more ways wild closings state the decision as an act (issue 13, "final verdicts in the wild"; paper §7.5; stop
40, read by :mod:`._acted`).

:mod:`._acted` reads an act verb whose object is the company's repeated name or "it" ("hold Spinwell", "we own it").
Wild closings as often name the thing held instead, or drop the subject altogether:

* **a holding as the object** (:func:`holding_object`): "Verdict: I'm keeping my shares", "so I didn't buy a single
  note", "time to sell the stock", "we exit the position": a determiner, at most one word of its own ("my Bellarine
  shares", "the second-lien notes"), then a noun for what an investor holds (:data:`HOLDINGS`). Any act verb of the
  ``acts`` lists takes such an object; negation and conditions are :mod:`._final`'s ``consider``'s to apply, as for
  every act.
* **the writer's act in progress on a holding** (:func:`progressive_acts`): "I'm keeping my shares", "we're adding
  it": the writer, a form of "be", the act's "-ing" form (a "not" between is ``consider``'s negation), then an object
  that is the company, "it"/"them" or a holding (an act in progress with another object or none is
  :mod:`._decided`'s);
* **an irregular past act** (:data:`PAST_ACTS`): "That's why I haven't bought it yet", "so we sold the stake";
* **a subjectless act opening its sentence** (:func:`gerund_acts`): "Adding today.", "Passing on this one.", "Buying a
  starter position here." -- the act verb's "-ing" form (:func:`gerund`) first in a short sentence (at most
  :data:`MAX_GERUND_WORDS` words) with no verb of its own after it. A gerund that is the subject of a clause
  ("Buying here would be a mistake", "Selling now is what Lynch warns against") has a finite verb after it
  (:data:`_FINITE`) and is no decision; nor is a question.

Both are read only where :mod:`._acted` reads acts (the closing paragraph and the final region), at its lowest level,
so a verdict word or a label of the answer outranks them and the reading's confidence stays under the review bar
unless something else agrees.

References
----------
Paper §7.5 (structured response parsing); issue 13.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

__all__ = ["HOLDINGS", "PAST_ACTS", "MAX_GERUND_WORDS", "gerund", "gerund_acts", "holding_object", "progressive_acts"]

#: The irregular past forms of the ``acts`` verbs, by side (1 pass, 0 fail): "That's why I haven't bought it yet", "we
#: sold the stake". Read in the closing with an object, as the present forms are; an act dated in the past ("bought it
#: in 2019") is the holding's history and :mod:`._acted` drops it.
PAST_ACTS: dict[object, tuple[str, ...]] = {1: ("bought",), 0: ("sold",)}
#: Nouns for what an investor holds or buys: the object of an act that names no company.
HOLDINGS = ("shares", "share", "stock", "stocks", "stake", "position", "notes", "note", "bonds", "bond", "units",
            "holding", "holdings", "name", "paper")
#: Determiners that open a holding's noun phrase ("my shares", "a single note", "the rest of the position").
_DETERMINERS = r"(?:my|our|the|this|these|those|that|any|some|more|all|a[ \t]+single|a[ \t]+few|(?:the|all)[ \t]+rest[ \t]+of[ \t]+(?:my|our|the))"
_HOLDING = re.compile(rf"(?i){_DETERMINERS}[ \t]+(?:[\w'’-]+[ \t]+)?(?:{'|'.join(HOLDINGS)})\b")


def holding_object(text: str, start: int) -> int | None:
    """The end of a holding's noun phrase that opens ``text`` at ``start`` (an act's object), or None.

    >>> t = "I'm keeping my shares for now"
    >>> t[12:holding_object(t, 12)], holding_object("sell the idea", 5), holding_object("a single note.", 0)
    ('my shares', None, 13)
    """
    m = _HOLDING.match(text, start)
    return None if m is None else m.end()


#: A sentence's end after a gerund act: at most this many words in the whole sentence.
MAX_GERUND_WORDS = 7
#: Words that make a gerund the subject of a clause rather than an act ("Buying here would be a mistake").
_FINITE = frozenset("is are was were be been would will could should might may can must makes made means meant seems "
                    "seemed looks looked feels felt sounds remains has have had does did isn't wasn't won't wouldn't "
                    "doesn't".split())


def gerund(verb: str) -> str:
    """The "-ing" form of an act verb of one or two words ("add" -> adding, "pass on" -> passing on, "skip" ->
    skipping, "exclude" -> excluding, "exit" -> exiting).

    >>> [gerund(v) for v in ("add", "pass on", "skip", "exclude", "exit", "bet on", "buy", "hold")]
    ['adding', 'passing on', 'skipping', 'excluding', 'exiting', 'betting on', 'buying', 'holding']
    """
    head, _, tail = verb.partition(" ")
    vowels = re.findall(r"[aeiou]+", head)
    if head.endswith("e") and not head.endswith("ee"):
        head = head[:-1]
    elif len(vowels) == 1 and re.search(r"[^aeiou][aeiou][bdgklmnprt]\Z", head):
        head += head[-1]  # one syllable ending consonant-vowel-consonant: skip -> skipping
    return head + "ing" + (" " + tail if tail else "")


def _base_form(head: str) -> bool:
    """Whether an act verb's first word is its base form ("pass", "add"), not "buys", "passes" or "passed"."""
    return not head.endswith(("ed", "es")) and (not head.endswith("s") or head.endswith("ss"))


def gerund_acts(text: str, sentences: Iterator[tuple[int, int]], sides: Mapping[str, object]) -> Iterator[tuple[int, int, object]]:
    """(start, end, side) for each sentence of ``sentences`` ((start, end) spans of ``text``) that opens with the
    "-ing" form of an act verb of ``sides`` (verb -> its side) and is a decision: short, no question, no finite verb
    after the gerund.

    >>> t = "The thesis holds. Adding today. Buying here would be a mistake."
    >>> [(t[s:e], side) for s, e, side in gerund_acts(t, iter([(0, 17), (18, 31), (32, 64)]), {"add": 1, "buy": 1})]
    [('Adding', 1)]
    """
    forms = {gerund(v.lower()): side for v, side in sides.items() if _base_form(v.lower().partition(" ")[0])}
    if not forms:
        return
    opener = re.compile(r"[ \t>*_#-]*(?P<verb>" + "|".join(re.escape(f).replace(r"\ ", r"[ \t]+")
                                                      for f in sorted(forms, key=len, reverse=True)) + r")\b", re.I)
    for start, end in sentences:
        sentence = text[start:end]
        m = opener.match(sentence)
        if m is None or "?" in sentence:
            continue
        words = re.findall(r"[\w'’]+", sentence.lower())
        if len(words) > MAX_GERUND_WORDS or not _FINITE.isdisjoint(words[1:]):
            continue
        verb = re.sub(r"[ \t]+", " ", m.group("verb").lower())
        yield start + m.start("verb"), start + m.end("verb"), forms[verb]


def _gerund_forms(sides: Mapping[str, object]) -> dict[str, object]:
    return {gerund(v.lower()): side for v, side in sides.items() if _base_form(v.lower().partition(" ")[0])}


def _alternation(forms: Mapping[str, object]) -> str:
    return "|".join(re.escape(f).replace(r"\ ", r"[ \t]+") for f in sorted(forms, key=len, reverse=True))


_WRITER_BE = r"\b(?:i['’]m|i[ \t]+am|we['’]re|we[ \t]+are)[ \t]+(?:not[ \t]+)?(?:(?:still|now|just|simply|also|happily)[ \t]+)?"


def progressive_acts(text: str, start: int, end: int, sides: Mapping[str, object]) -> Iterator[tuple[int, int, object, int]]:
    """(start, end, side, object start) for each act of ``sides`` (verb -> its side) in ``text[start:end]`` that the
    writer is doing with an object after it: "I'm keeping my shares", "we're adding it", "I am not selling them" (the
    span is the verb's; a "not" before it is left to the caller's negation, and whether the object is the company, a
    holding or something else, "we're buying time", "I'm not adding salt", is the caller's to check).

    >>> t = "Verdict: I'm keeping my shares. We are not buying time."
    >>> [(t[s:e], side, t[o:o + 2]) for s, e, side, o in progressive_acts(t, 0, len(t), {"keep": "HOLD", "buy": 1})]
    [('keeping', 'HOLD', 'my'), ('buying', 1, 'ti')]
    """
    forms = _gerund_forms(sides)
    if not forms:
        return
    pattern = re.compile(rf"(?i){_WRITER_BE}(?P<verb>{_alternation(forms)})[ \t]+(?P<obj>[A-Za-z])")
    for m in pattern.finditer(text, start, end):
        verb = re.sub(r"[ \t]+", " ", m.group("verb").lower())
        yield m.start("verb"), m.end("verb"), forms[verb], m.start("obj")
