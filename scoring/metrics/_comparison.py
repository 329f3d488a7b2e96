"""A small structured reading of comparisons: who exceeds whom (KCCS element matching, paper §7.7).

Embeddings score "price exceeds intrinsic value" and "intrinsic value
exceeds the price" as near-identical (cosine 0.97 with MiniLM), and a list
of direction words alone cannot tell them apart. :func:`read_comparison`
reads a short element as ``(subject, relation, object, number)``::

    "price exceeds intrinsic value"            -> (price, gt, value)
    "intrinsic value exceeds the price"        -> (value, gt, price)  == (price, lt, value)
    "it trades at a discount to intrinsic value" -> (price, lt, value)
    "the price is well under intrinsic value"  -> (price, lt, value)
    "debt no more than 3x EBITDA"              -> (debt, lt, ebitda, 3)

and :func:`compare_readings` says whether two readings state the same
comparison (True), the opposite one (False), or cannot be aligned (None:
other rules decide). Relations are coarse: ``gt`` (above, exceeds, at least,
premium to, >=...) and ``lt`` (below, under, at most, discount to, short
of, <=...); a negation just before the cue flips it ("not above" is lt).
Quantities are named by a small synonym table (price, value, earnings...)
and otherwise by their content words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ipb.engine.numbers import scan_numbers

__all__ = ["Comparison", "read_comparison", "compare_readings"]


@dataclass(frozen=True)
class Comparison:
    """``subject relation object``; ``relation`` is ``"gt"`` or ``"lt"``; a side is None when the text leaves it out.
    ``number`` is the first figure after the cue, read by the one number reader (:func:`ipb.engine.numbers.scan_numbers`:
    "3x" is 3, "15%" the ratio 0.15, "$25b" 25e9, "1,234,567" 1234567), or None."""

    subject: str | None
    relation: str
    object: str | None
    number: float | None = None

    def flipped(self) -> "Comparison":
        """The same statement read from the other side (``a > b`` as ``b < a``)."""
        return Comparison(self.object, "lt" if self.relation == "gt" else "gt", self.subject, self.number)


_GT = (
    r"exceed(?:s|ed|ing)?|clear(?:s|ed|ing)?|beat(?:s|ing)?|surpass(?:es|ed|ing)?|outstrip(?:s|ped)?|tops?|above|over|beyond|in\s+excess\s+of|"
    r"more\s+than|greater\s+than|higher\s+than|larger\s+than|bigger\s+than|richer\s+than|dearer\s+than|"
    r"more\s+expensive\s+than|at\s+least|no\s+less\s+than|not\s+less\s+than|minimum(?:\s+of)?|"
    r"(?:at\s+|trades?\s+at\s+|trading\s+at\s+)?an?\s+premium\s+(?:to|over|on)|premium\s+(?:to|over|on)|"
    r"overvalued\s+(?:relative\s+to|versus|vs\.?|against)|>=|≥|>"
)
_LT = (
    r"fail(?:s|ed|ing)?\s+to\s+(?:clear|reach|meet|exceed|beat)|miss(?:es|ed|ing)?|trail(?:s|ed|ing)?|lag(?:s|ged|ging)?|"
    r"below|under|beneath|less\s+than|lower\s+than|fewer\s+than|smaller\s+than|cheaper\s+than|short\s+of|"
    r"falls?\s+short\s+of|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|maximum(?:\s+of)?|capped\s+at|"
    r"(?:at\s+|trades?\s+at\s+|trading\s+at\s+)?an?\s+discount\s+(?:to|from|on)|discount\s+(?:to|from|on)|"
    r"undervalued\s+(?:relative\s+to|versus|vs\.?|against)|<=|≤|<"
)
_CUE = re.compile(rf"(?<![a-z])(?:(?P<gt>{_GT})|(?P<lt>{_LT}))(?![a-z])")
_NEG = re.compile(r"(?:\bnot|\bnever|n't|\bno)\s+(?:[a-z]+\s+)?$")
#: A token that is a number with its unit ("3x", "90%", "$25b"), or a unit word: not a quantity's name.
_NUMERIC_TOKEN = re.compile(r"[-−~≈]?\$?\d[\d.,/]*(?:%|x|×|bn|b|m|mn|k|t)?|percent|times|one-third|two-thirds|half")

#: Synonym table: a phrase naming one of these quantities is read as its key (longest phrases first).
_QUANTITIES = (
    ("book value", "book value"), ("net current asset value", "ncav"), ("ncav", "ncav"), ("net-net", "ncav"),
    ("intrinsic value", "value"), ("fair value", "value"), ("intrinsic worth", "value"), ("intrinsic", "value"),
    ("dcf value", "value"), ("estimated value", "value"), ("appraised value", "value"), ("value", "value"),
    ("worth", "value"),
    ("asking price", "price"), ("purchase price", "price"), ("market price", "price"), ("share price", "price"),
    ("stock price", "price"), ("offer price", "price"), ("market cap", "price"), ("market capitalization", "price"),
    ("valuation", "price"), ("price", "price"), ("what we pay", "price"), ("the stock", "price"), ("shares", "price"),
    ("it trades", "price"), ("trades", "price"), ("trading", "price"), ("would pay", "price"), ("we pay", "price"),
    ("pay", "price"), ("paying", "price"), ("hurdle rate", "hurdle"), ("hurdle", "hurdle"),
    ("cost of capital", "hurdle"), ("required return", "hurdle"), ("cost", "price"), ("irr", "irr"),
    ("internal rate of return", "irr"), ("ebitda", "ebitda"), ("earnings", "earnings"), ("eps", "earnings"),
    ("debt", "debt"), ("leverage", "debt"), ("retention", "retention"), ("budget", "budget"), ("loss", "loss"),
    ("inflation", "inflation"), ("treasuries", "treasuries"), ("floor", "floor"),
)
_STOP = frozenset("the a an is are was were be it its of to at and well far much way still clearly comfortably "
                  "currently now this that stock's".split())


def _key(phrase: str) -> str | None:
    """The quantity a phrase names: a synonym-table key, else its content words; None for none."""
    text = " " + re.sub(r"[^a-z0-9$%.\- ]+", " ", phrase.lower()) + " "
    for words, key in _QUANTITIES:
        if f" {words} " in text:
            return key
    content = [w for w in text.split() if w not in _STOP and not _NUMERIC_TOKEN.fullmatch(w)]
    return " ".join(content[-3:]) or None


def read_comparison(text: str) -> Comparison | None:
    """The comparison a short element states, or None when it states none (or two that disagree).

    Examples
    --------
    >>> read_comparison("price exceeds intrinsic value")
    Comparison(subject='price', relation='gt', object='value', number=None)
    >>> read_comparison("intrinsic value exceeds the price").flipped()
    Comparison(subject='price', relation='lt', object='value', number=None)
    >>> read_comparison("it trades at a discount to intrinsic value")
    Comparison(subject='price', relation='lt', object='value', number=None)
    >>> read_comparison("price does not exceed intrinsic value").relation, read_comparison("switching costs") is None
    ('lt', True)
    """
    low = " ".join(text.lower().replace("_", " ").replace("’", "'").split())
    found = []
    for m in _CUE.finditer(low):
        relation = "gt" if m.group("gt") else "lt"
        if _NEG.search(low[max(0, m.start() - 24): m.start()]):
            relation = "lt" if relation == "gt" else "gt"
        found.append((m, relation))
    if not found or len({r for _, r in found}) > 1:
        return None
    m, relation = found[0]
    before = re.split(r"[,;:()]", low[: m.start()])[-1]
    after = re.split(r"[,;:()]", low[m.end():])[0]
    cue = m.group(0)
    subject = _key(before)
    if subject is None and ("discount" in cue or "premium" in cue or "trad" in cue):
        subject = "price"  # "at a discount to X": what trades at the discount is the price
    number = next(scan_numbers(after), None)
    return Comparison(subject, relation, _key(after), None if number is None else float(number.value))


def _same(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    if a == b:
        return True
    wa, wb = set(a.split()), set(b.split())
    return bool(wa and wb) and (wa <= wb or wb <= wa)


def compare_readings(gold: Comparison | None, detected: Comparison | None) -> bool | None:
    """Whether two readings state the same comparison (True), the opposite (False), or cannot be aligned (None).

    Sides are aligned by quantity: ``a > b`` agrees with ``a > b`` and with
    ``b < a``; it disagrees with ``a < b`` and ``b > a`` (the swap). When a
    side is missing on either reading, the sides that are there are aligned;
    when nothing aligns, the relations alone are compared only if neither
    reading names both sides (a bare "below 3x" against "above 3x").

    Examples
    --------
    >>> g = read_comparison("price exceeds intrinsic value")
    >>> compare_readings(g, read_comparison("intrinsic value exceeds the price"))
    False
    >>> compare_readings(g, read_comparison("intrinsic value is below the price"))
    True
    >>> compare_readings(read_comparison("price below value"), read_comparison("the price is well under intrinsic value"))
    True
    >>> compare_readings(read_comparison("debt above 3x EBITDA"), read_comparison("retention below 90%")) is None
    True
    """
    if gold is None or detected is None:
        return None
    for candidate in (detected, detected.flipped()):
        subject_ok = _same(gold.subject, candidate.subject)
        object_ok = _same(gold.object, candidate.object)
        if subject_ok and object_ok:
            return gold.relation == candidate.relation
    for candidate in (detected, detected.flipped()):
        if _same(gold.subject, candidate.subject) or _same(gold.object, candidate.object):
            both_named = None not in (gold.subject, gold.object, candidate.subject, candidate.object)
            if both_named:
                return None  # one side shared, the other a different quantity: not the same comparison to judge
            return gold.relation == candidate.relation
    if gold.subject is None or detected.subject is None:
        return gold.relation == detected.relation  # a bare "below 3x": only the direction can be compared
    return None
