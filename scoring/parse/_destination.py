"""An outcome told as a move to its destination (issue 13, "final verdicts in the wild"; paper §7.5).

A card whose outcomes name where the money goes (``ROTATE_TO_GOVERNMENT_BONDS``, ``TILT_TO_COMMODITIES_AND_EMERGING_MARKETS``,
``REDIRECT_TO_PASSIVE``) is often answered with the move itself, in the writer's words and with the thing moved between
the verb and its destination: "We rotate the core allocation into long government bonds", "I've moved my bond sleeve
into cash and gold", "we moved 58% of portfolio risk into commodities and emerging-market equities", "the programme
will be wound into our passive mandates". A careful reader takes each as that outcome.

:func:`destination_outcomes` reads a verb of moving money (move, rotate, shift, switch, tilt, redirect, reallocate, put,
wind, shunt), then within the sentence and at most :data:`GAP` words a preposition of direction (into, to, toward), then the
outcome's destination: every content word of the outcome's words after ``TO`` (its stem: "markets" is "market-",
"emerging-market" two words) among the next :data:`REACH` words. The move must be the decider's ("we", "I", "the fund")
or a decision in the passive ("will be wound", "is to be moved"): "the textbook move is into bonds" and "the index
moved to ..." decide nothing. :mod:`._final` weighs the reading with every other candidate (conditions, negation, a
dated past, another voice).
"""

from __future__ import annotations

import re

from ipb.engine.card import Card
from ipb.scoring._text import Trigger, normalize, stem
from ipb.scoring.parse._memo import per_object

__all__ = ["destination_outcomes", "GAP", "REACH"]

#: Words at most between the verb and its preposition ("rotate [the core allocation] into").
GAP = 6
#: Words at most over which the destination's words are looked for after the preposition ("into [long Eastmark]
#: government bonds").
REACH = 8

_VERBS = (r"move[sd]?|moving|rotat(?:e[sd]?|ing)|shift(?:s|ed|ing)?|switch(?:es|ed|ing)?|tilt(?:s|ed|ing)?|"
          r"redirect(?:s|ed|ing)?|realloca(?:te[sd]?|ting)|put(?:s|ting)?|wound|wind(?:s|ing)?|shunt(?:s|ed|ing)?")
_MOVE = re.compile(rf"(?i)\b(?P<verb>{_VERBS})\b(?P<gap>(?:[ \t\n]+(?!into\b|to\b|towards?\b)[\w%$.,'-]+){{0,{GAP}}}?)"
                   r"[ \t\n]+(?:down[ \t\n]+)?(?:into|to|towards?)\b(?P<dest>(?:[ \t\n]+[\w'&-]+){1," + str(REACH) + "})")
_TRIGGERS = [Trigger(w, _MOVE) for w in ("move", "moving", "rotat", "shift", "switch", "tilt", "redirect", "realloca", "put",
                                         "wound", "wind", "shunt")]
_APOS = "['\u2019]"
#: The writer or the fund deciding, just before the verb (with at most an auxiliary and an adverb).
_DECIDER_BEFORE = re.compile(
    rf"(?i)(?:\b(?:i|we)(?:{_APOS}(?:ve|d|ll|m|re))?|\b(?:the|our)\s+(?:fund|portfolio|committee|board|firm|team|desk|office))"
    r"(?:\s+(?:will|would|shall|should|have|has|had|are|am|is|now|just|then|also|already|therefore|duly))*\s+\Z")
#: A decision told in the passive: "will be wound", "is to be moved", "are being rotated", "to be redirected".
_PASSIVE_BEFORE = re.compile(r"(?i)\b(?:will|shall|would|is|are|to)\s+(?:now\s+)?(?:be|being)\s+\Z")
#: The sentence's start before the verb: stop at its end.
_SENTENCE_END = re.compile(r"[.!?;\n]\s")


@per_object()
def _destinations(card: Card) -> tuple[tuple[str, frozenset[str]], ...]:
    """(outcome, the stems of its destination's content words) for each card outcome of the shape VERB_TO_DESTINATION."""
    outcomes = {*card.outcomes.values()}
    for g in card.gates:
        for b in g.branches.values():
            outcomes.update((b.pass_outcome, b.fail_outcome))
    out = []
    for outcome in sorted(o for o in outcomes if o and "_TO_" in o):
        words = normalize(outcome.split("_TO_", 1)[1].replace("_", " ")).split()
        stems = frozenset(stem(w) for w in words if w not in ("and", "the", "a", "an", "of"))
        if stems:
            out.append((outcome, stems))
    return tuple(out)


def has_destinations(card: Card) -> bool:
    """Whether the card has an outcome of the shape VERB_TO_DESTINATION."""
    return bool(_destinations(card))


def destination_outcomes(card: Card, text: str, matches: list[tuple[int, re.Match[str]]]) -> list[tuple[int, int, str]]:
    """(start, end, outcome) of each move in ``matches`` (the scan of :data:`TRIGGERS` over ``text``) whose destination
    holds every word of one outcome's destination, by the decider or in the passive; the span runs from the verb to the
    destination's last word.

    >>> from ipb.engine.registry import compiled_card
    >>> from ipb.scoring._text import lowered, scan
    >>> card = compiled_card("dalio_economic_machine_positioning").card
    >>> t = "What we did: we moved 58% of portfolio risk into commodities and emerging-market equities."
    >>> [o for _, _, o in destination_outcomes(card, t, scan(t, lowered(t), TRIGGERS))]
    ['TILT_TO_COMMODITIES_AND_EMERGING_MARKETS']
    >>> t = "At a top the textbook move is into commodities and emerging markets."
    >>> destination_outcomes(card, t, scan(t, lowered(t), TRIGGERS))
    []
    """
    table = _destinations(card)
    out: list[tuple[int, int, str]] = []
    for _, m in matches:
        head = text[max(0, m.start() - 80) : m.start()]
        cut = [e.end() for e in _SENTENCE_END.finditer(head)]
        head = head[cut[-1] :] if cut else head
        if _DECIDER_BEFORE.search(head) is None and _PASSIVE_BEFORE.search(head) is None:
            continue
        if any(c in m.group("gap") for c in ".!?;"):
            continue  # the preposition is in the next sentence
        dest = m.group("dest")
        stop = _SENTENCE_END.search(dest + " ")
        dest = dest[: stop.start() + 1] if stop else dest
        words = [(w.start(), stem(w.group().lower())) for w in re.finditer(r"[^\W\d_]+", dest)]
        got = {s for _, s in words}
        fits = [(len(stems), outcome, stems) for outcome, stems in table if stems <= got]
        if not fits:
            continue
        fits.sort(reverse=True)
        if len(fits) > 1 and fits[0][0] == fits[1][0]:
            continue  # two destinations fit equally: no reading
        _, outcome, stems = fits[0]
        last = max(at for at, s in words if s in stems)
        end = m.start("dest") + last + len(re.match(r"[^\W\d_]+", dest[last:]).group())  # type: ignore[union-attr]
        out.append((m.start(), end, outcome))
    return out


TRIGGERS: list[Trigger] = _TRIGGERS
