"""A final decision the writer declines to make: no final verdict is read from before it (issue 13, s52hedge).

The final verdict is the last committed statement of an outcome (paper §7.5). A writer who says, after weighing both
sides, that they will not decide has made a last statement too, of no outcome, and a careful reader credits no verdict
said before it. Two kinds of statement count, each a rule a reader states:

* the writer's own refusal to decide (:data:`REFUSAL`): "I would not commit either way", "I can't call it", "we won't
  take a side", "I'm not prepared to make the call", "this could go either way" (the last only outside every gate's
  section, where it withholds that gate's verdict instead, :mod:`._withheld`). "Commit" counts only with "either way",
  "one way or the other" or "to a verdict": alone, or with an object, it is the act of investing ("I would not commit
  capital: AVOID", "we would not commit until the price falls" decline to buy), and "I can't call it a bargain" is an
  appraisal;
* the decision handed to the reader (:data:`DEFERRED`): "It depends on your risk tolerance.", "Final verdict: that
  depends on what you need." (s53wild), outside every gate's section as "either way", or in the last paragraph;
* two different outcomes of the card offered as alternatives in one sentence, each under its own hedge or after
  "either" (:func:`alternatives`): "Possibly AVOID, possibly BUY", "It might be a BUY for a patient investor, or it
  could be better to AVOID it", "either BUY or AVOID". One hedged outcome beside a plain one ("it might be a BUY for
  some, but I would AVOID") states the plain one; a hedge on something else ("possibly the best business in the
  sector. BUY") is no hedge of the outcome.

* an outcome its own sentence calls unsettled, after it (:data:`UNSETTLED`, s54wild): "probably INVEST, but I'd want
  the loss estimate checked before treating that as settled", "BUY, though that is not a final call". The writer
  names the outcome and withholds the commitment in one breath.

A verdict stated after the last such statement ("I would not commit either way. Final verdict: AVOID", "I can't call
it, but BUY") is the last committed statement and stands. An outcome other people are said to choose ("others would
pass", "some would buy") is theirs, not the writer's (:data:`._voice.OTHER_VOICE`).

An answer whose final verdict is withdrawn this way and that commits to no gate commits to nothing: it is filed as a
refusal (``no_commitment``) and scored 0, as docs/scoring.md, "An answer that commits to nothing", says; one that
commits to gates is scored on them with no final verdict (VerdictAcc 0).
"""

from __future__ import annotations

import re
from typing import Iterable

__all__ = ["REFUSAL", "EITHER_WAY", "DEFERRED", "UNSETTLED", "alternatives", "outcome_mentions", "unsettled", "undecided_end"]

#: The writer's own refusal to decide, its verb taking no object but "either way" and the like, or ending its clause.
REFUSAL = re.compile(
    r"(?i)\b(?:i|we)(?:[ \t]+(?:would|will|can|could|do|shall|should)[ \t]*(?:n['\u2019]t|[ \t]not|not)|[ \t]+(?:won|can|don)['\u2019]t"
    r"|['\u2019]d[ \t]+rather[ \t]+not|[ \t]+(?:would|had)[ \t]+rather[ \t]+not"
    r"|(?:['\u2019]m|[ \t]+am|['\u2019]re|[ \t]+are)[ \t]+not[ \t]+(?:able|willing|prepared|ready|going)[ \t]+to)"
    r"(?:[ \t]+(?:really|honestly|confidently|responsibly))?[ \t]+"
    r"(?:commit(?:[ \t]+(?:myself|ourselves))?(?=[ \t]+(?:either[ \t]+way|one[ \t]+way[ \t]+or[ \t]+the[ \t]+other"
    r"|to[ \t]+(?:either(?![ \t]+\w+ing)|a[ \t]+(?:verdict|side|call|decision|final[ \t]+verdict))\b))"
    r"|(?:decide|choose|call[ \t]+(?:it|this(?:[ \t]+one)?)|make[ \t]+(?:a|the|that|this)[ \t]+(?:call|decision)"
    r"|take[ \t]+(?:a[ \t]+)?(?:side|view|position|stance)|pick[ \t]+(?:a[ \t]+side|one|either))"
    r"(?=[ \t]*(?:[.;!,:)\n]|\Z|[-\u2013\u2014][ \t])"
    r"|[ \t]+(?:either[ \t]+way|one[ \t]+way[ \t]+or[ \t]+the[ \t]+other|here|yet|now|without|until|based|from"
    r"|on[ \t]+(?:this|it|a[ \t]+(?:verdict|final[ \t]+verdict|decision))|with[ \t]+(?:what|the[ \t]+information)"
    r"|at[ \t]+this)\b))")

#: "It could go either way", "this one may go either way": undecided, about the decision only outside a gate's section.
EITHER_WAY = re.compile(r"(?i)\b(?:could|can|may|might)[ \t]+(?:well[ \t]+|really[ \t]+|honestly[ \t]+)?go[ \t]+either[ \t]+way\b")

#: The decision handed to the reader, opening its sentence or after a label's colon: "It depends on your risk tolerance.",
#: "Final verdict: that depends on what you need.", "Ultimately, the decision depends on your horizon." (s53wild). Its
#: subject is a pronoun or a noun for the decision, and what it depends on is the reader ("your", "you", "the investor"),
#: so "It depends on the price; at $20 it is a BUY" (a condition on the facts, with its verdict) is not one; counted,
#: as :data:`EITHER_WAY`, outside every gate's section, and also in the text's last paragraph.
DEFERRED = re.compile(
    r"(?im)(?:^|(?<=[.!?:]))[ \t*_>-]*+(?:(?:ultimately|in[ \t]+the[ \t]+end|honestly|frankly|well|so),?[ \t]+)?"
    r"(?:it|that|this|the[ \t]+(?:answer|decision|choice|verdict|call|final[ \t]+verdict))(?:[ \t]+(?:all|really|entirely|ultimately|simply))?"
    r"[ \t]+depends[ \t]+(?:up)?on[ \t]+(?:your|you\b|what[ \t]+you|how[ \t]+you|whether[ \t]+you|each[ \t]+investor|the[ \t]+(?:individual[ \t]+)?"
    r"(?:investor|reader)|one['\u2019]s|personal|individual)")
#: The writer saying the outcome just named is not settled: "before treating that as settled", "before calling it
#: final", "that is not a final call", "not yet settled". Read only after an outcome, in the outcome's own sentence.
UNSETTLED = re.compile(
    r"(?i)\bbefore[ \t]+(?:treating|taking|calling|regarding|considering)[ \t]+(?:that|this|it)[ \t]+(?:as[ \t]+)?"
    r"(?:settled|final|firm|decided|a[ \t]+(?:settled|final|firm)[ \t]+(?:call|verdict|view|decision|answer))\b"
    r"|\b(?:that|this|it)(?:[ \t]+is|['\u2019]s)[ \t]+not[ \t]+(?:yet[ \t]+)?(?:settled|final|a[ \t]+(?:settled|final|firm)"
    r"[ \t]+(?:call|verdict|view|decision|answer))\b")
#: A hedge before an outcome word, in its own stretch of the sentence.
_HEDGE = re.compile(r"(?i)\b(?:possibly|perhaps|maybe|might|could|may(?![ \t]+\d))\b")
_EITHER = re.compile(r"(?i)\beither[ \t]+(?:an?[ \t]+|to[ \t]+)?\Z")
#: After a hedged outcome, the same hedge on its negation: "Perhaps INVEST, perhaps not", "maybe BUY - or maybe not".
#: Each run of spacing is read by one possessive star (what follows it is a mark or a letter, never a space), so a long
#: run after an outcome word costs linear time (s53 integration: 20,000 spaces after "REJECT" in a JSON answer took
#: 24 s of CPU with two stars around the optional mark; tests/scoring/test_parse_s50redos.py).
_OR_NOT = re.compile(r"(?i)[ \t]*+(?:[,;\u2014\u2013-][ \t]*+)?(?:or[ \t]++)?(?:perhaps|maybe|possibly)[ \t]+not\b")
#: A sentence's end between two words: a full stop, "!" or "?" before a space or a line's end, or a line break.
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)|\n")
#: At most this many characters between two outcomes offered as alternatives, and before the first for its hedge.
_BETWEEN, _BEFORE = 120, 60
#: At most this many outcome mentions are looked at (a bound for pathological input).
_MAX_MENTIONS = 400


def _lead(text: str, start: int) -> str:
    """The :data:`_BEFORE` characters of the sentence before ``start`` (from the sentence's start when it is nearer)."""
    lead_from = max(0, start - _BEFORE)
    ends = list(_SENTENCE_END.finditer(text, lead_from, start))
    return text[ends[-1].end() if ends else lead_from : start]


#: An outcome word's mention: (start, end, the card's outcome it names, or None where ``outcome_of`` has no entry for it).
Mention = tuple[int, int, "str | None"]


def _outcome(word: str, outcome_of: dict[str, str]) -> str | None:
    """The card's outcome that a matched outcome word names ("Buy", "buy-and-hold", "BUYS"), or None."""
    key = re.sub(r"[ \t_:-]+", "_", word.strip().upper())
    return outcome_of.get(key) or (outcome_of.get(key[:-1]) if key.endswith("S") else None)


def outcome_mentions(text: str, outcome_re: re.Pattern[str] | None, outcome_of: dict[str, str]) -> list[Mention]:
    """The outcome words of ``text`` in text order, one scan shared by :func:`alternatives` and :func:`unsettled`.

    The scan stops once :data:`_MAX_MENTIONS` mentions name an outcome of the card (a bound for pathological input):
    by then it holds at least the :data:`_MAX_MENTIONS` first mentions that :func:`unsettled` reads as well. Before
    s63 each of the two scanned the whole text on its own (2.5 MB of repeated years: about 12 s each).

    >>> import re
    >>> outcome_mentions("Buy it, or AVOID?", re.compile(r"(?i)\\b(?:buy|avoid)\\b"), {"BUY": "BUY"})
    [(0, 3, 'BUY'), (11, 16, None)]
    """
    found: list[Mention] = []
    if outcome_re is None:
        return found
    named = 0
    for m in outcome_re.finditer(text):
        outcome = _outcome(m.group(0), outcome_of)
        found.append((m.start(), m.end(), outcome))
        if outcome is not None:
            named += 1
            if named >= _MAX_MENTIONS:
                break
    return found


def alternatives(text: str, outcome_re: re.Pattern[str] | None, outcome_of: dict[str, str],
                 mentions: list[Mention] | None = None) -> list[tuple[int, int]]:
    """Spans of ``text`` offering two different outcomes as alternatives: consecutive mentions of two outcomes of the
    card (``outcome_re``, its words to outcome in ``outcome_of``) in one sentence, at most :data:`_BETWEEN` characters
    apart, the first after "either" or with a hedge (possibly, perhaps, maybe, might, could, may) in the
    :data:`_BEFORE` characters of its sentence before it, and the second with a hedge of its own between the two (or
    after "either ... or"); also one hedged outcome followed by the hedge on its negation
    (:data:`_OR_NOT`: "Perhaps INVEST, perhaps not"), from the outcome to the "not".

    >>> import re
    >>> words = re.compile(r"(?i)\\b(?:buy|avoid)\\b")
    >>> alternatives("Possibly AVOID, possibly BUY; it is close.", words, {"BUY": "BUY", "AVOID": "AVOID"})
    [(9, 28)]
    >>> alternatives("It might be a BUY for some, but I would AVOID.", words, {"BUY": "BUY", "AVOID": "AVOID"})
    []
    >>> alternatives("Perhaps BUY, perhaps not.", words, {"BUY": "BUY", "AVOID": "AVOID"})
    [(8, 24)]
    """
    if outcome_re is None:
        return []
    if mentions is None:
        mentions = outcome_mentions(text, outcome_re, outcome_of)
    found = [(a, b, o) for a, b, o in mentions if o is not None][:_MAX_MENTIONS]
    spans: list[tuple[int, int]] = []
    for a0, a1, _ in found:  # "Perhaps INVEST, perhaps not.": one outcome offered against its own negation (s53wild)
        own = _OR_NOT.match(text, a1)
        if own is not None and _HEDGE.search(_lead(text, a0)):
            spans.append((a0, own.end()))
    for (a0, a1, a), (b0, b1, b) in zip(found, found[1:]):
        if a == b or b0 - a1 > _BETWEEN or _SENTENCE_END.search(text, a1, b0):
            continue
        lead = _lead(text, a0)
        either = _EITHER.search(lead) is not None and re.fullmatch(r"(?i)[ \t]*,?[ \t]*or[ \t]+(?:an?[ \t]+|to[ \t]+)?",
                                                                   text[a1:b0]) is not None
        if either or (_HEDGE.search(lead) and _HEDGE.search(text, a1, b0)):
            spans.append((a0, b1))
    return spans


def unsettled(text: str, outcome_re: re.Pattern[str] | None, mentions: list[Mention] | None = None) -> list[tuple[int, int]]:
    """Spans of ``text`` from an outcome word of the card (``outcome_re``) to an :data:`UNSETTLED` phrase after it in
    the same sentence.

    >>> import re
    >>> words = re.compile(r"(?i)\\b(?:buy|avoid)\\b")
    >>> unsettled("Final verdict: probably BUY, but check the loss figure before treating that as settled.", words)
    [(24, 86)]
    >>> unsettled("BUY. The loss figure needs a check before treating that as settled.", words)
    []
    """
    if outcome_re is None:
        return []
    if mentions is None:
        mentions = [(m.start(), m.end(), None) for _, m in zip(range(_MAX_MENTIONS), outcome_re.finditer(text))]
    spans: list[tuple[int, int]] = []
    for start, end, _ in mentions[:_MAX_MENTIONS]:
        stop = _SENTENCE_END.search(text, end)
        found = UNSETTLED.search(text, end, stop.start() if stop else len(text))
        if found is not None:
            spans.append((start, found.end()))
    return spans


def undecided_end(text: str, outcome_re: re.Pattern[str] | None, outcome_of: dict[str, str],
                  gate_spans: Iterable[tuple[int, int]]) -> tuple[int, str] | None:
    """The end of the last statement in ``text`` declining the final decision, and its words; None if there is none.

    A statement is a :data:`REFUSAL`, an :data:`EITHER_WAY` or a :data:`DEFERRED` outside every span of ``gate_spans`` (the gates'
    sections, (start, end) offsets; a :data:`DEFERRED` also in the text's last paragraph, which closes the answer even
    when the last gate's section runs on to the end), a pair of :func:`alternatives`, or an outcome called
    :func:`unsettled` in its own sentence.
    """
    spans = [(m.start(), m.end()) for m in REFUSAL.finditer(text)]
    inside = list(gate_spans)
    spans += [(m.start(), m.end()) for m in EITHER_WAY.finditer(text) if not any(a <= m.start() < b for a, b in inside)]
    closing = text.rstrip().rfind("\n\n") + 2  # the last paragraph: a section running to the text's end closes there
    spans += [(m.start(), m.end()) for m in DEFERRED.finditer(text)
              if m.start() >= closing or not any(a <= m.start() < b for a, b in inside)]
    mentions = outcome_mentions(text, outcome_re, outcome_of)  # one scan for both
    spans += alternatives(text, outcome_re, outcome_of, mentions)
    spans += unsettled(text, outcome_re, mentions)
    if not spans:
        return None
    start, end = max(spans, key=lambda s: s[1])
    return end, text[start:end].strip()
