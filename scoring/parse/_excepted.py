"""Gates set apart from a quantifier: "All six gates pass except the fifth, which fails" (issue 13, paper §7.5).

A quantified mention ("all six gates", :mod:`._loose`) names every gate of the card. An exception right after it,
with or without the verdict between ("all six gates pass except the fifth", "every test except steps 2 and 4 is
met", "all gates but Margin of Safety clear"), takes the named gates out of it; each one excepted by its position
gets a mention of its own, so that a verdict stated for it ("..., which fails") is its verdict.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ipb.scoring.parse._common import _Mention

_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
                  "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10}
_POSITION = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|(?:[1-9]|10)(?:st|nd|rd|th)|\d{1,2})\b"
_GATE_WORD = r"(?:gates?|steps?|tests?|criteri(?:on|a)|checks?|screens?|hurdles?|filters?|questions?|conditions?)"
#: The exception word after the quantifier, at most three words (the verdict: "pass", "are met") between them. Each run
#: of spacing is read by one possessive repeat, with or without a comma in it (s54redos: ``[ \t]*,?[ \t]+`` split a run
#: of 8,000 spaces after "All six gates" two ways, 4 s of CPU in one parse; the matches are the same).
_EXCEPT = re.compile(r"(?i)(?P<verb>(?:[ \t]++[a-z']++){0,3}?)(?:[ \t]*+,[ \t]++|[ \t]++)(?:except(?:[ \t]+for)?|save(?:[ \t]+for)?|apart[ \t]+from|other[ \t]+than"
                     r"|with[ \t]+the[ \t]+exception[ \t]+of|but(?=[ \t]+(?:the[ \t]+" + _POSITION + r"|" + _GATE_WORD + r"[ \t]+\d)))[ \t]+")
#: Positions listed after the exception word: "the fifth", "gate 5", "steps 2 and 4", "the 2nd and 4th tests".
_POSITIONS = re.compile(r"(?i)(?:the[ \t]+)?(?:" + _GATE_WORD + r"[ \t]+)?(?P<list>" + _POSITION
                        + r"(?:[ \t]*(?:,|and|&|or)[ \t]*(?:the[ \t]+)?" + _POSITION + r")*)(?:[ \t]+(?:" + _GATE_WORD + r"|ones?))?")
_ONE_POSITION = re.compile(r"(?i)" + _POSITION)
#: What may stand between two gates named after the exception word: spacing, one joiner, "the" (each run possessive).
_JOINER = re.compile(r"[ \t]*+(?:,|and|&|or)?[ \t]*+(?:the[ \t]++)?\Z", re.IGNORECASE)


def excepted(masked: str, end: int, found: Sequence[_Mention], n: int) -> tuple[set[int], list[_Mention], int]:
    """The gates an exception right after a quantified mention ending at ``end`` takes out of it.

    Parameters
    ----------
    masked:
        The answer text.
    end:
        Offset where the quantified mention ("All six gates") ends.
    found:
        The gate mentions found so far (by name, alias or number), for "except Margin of Safety".
    n:
        The number of the card's gates; a position outside 1..n excepts nothing.

    Returns
    -------
    (gates, mentions, stop)
        The excepted gate numbers (empty when there is no exception), the new mentions of gates excepted by position
        (how ``"number"``), and the offset where the exception ends (``end`` when there is none).
    """
    m = _EXCEPT.match(masked, end)
    if m is None:
        return set(), [], end
    at = m.end()
    by_name = sorted((f for f in found if f.start >= at and f.invented is None and f.gates), key=lambda f: f.start)
    gates: set[int] = set()
    stop = at
    for f in by_name:  # "except Margin of Safety and Economic Moat", "except the dividend record"
        if f.start != stop and not _JOINER.fullmatch(masked, stop, f.start):
            break
        gates.update(f.gates)
        stop = f.end
    if gates:
        return gates, [], stop
    p = _POSITIONS.match(masked, at)
    if p is None:
        return set(), [], end
    mentions: list[_Mention] = []
    for o in _ONE_POSITION.finditer(masked, p.start("list"), p.end("list")):
        word = o.group(0).lower()
        k = _ORDINAL_WORDS.get(word) or (int(word) if word.isdigit() else 0)
        if not 1 <= k <= n:
            return set(), [], end
        gates.add(k)
        mentions.append(_Mention(o.start(), o.end(), (k,), "number"))
    if len(gates) >= n:
        return set(), [], end
    return gates, mentions, p.end()
