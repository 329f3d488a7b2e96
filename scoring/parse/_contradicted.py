"""A verdict on another party's test that the sentence's own figure contradicts on the card's bar (issue 13, s45left;
paper §7.5).

"Moderate P/E: P/E 19 passes Lynch's test." on Graham's card (``pe_3yr <= 15x``), "High Return on Capital: it clears
Buffett's bar with ROIC of 9%." on Munger's (``return_on_capital >= 15%``): the writer's verdict word has another
party's standard as its object (:func:`._others_test.others_standard`), and the figure the gate's test reads, stated in
the same sentence, gets the other verdict on the card's bar. The label records what the text says (the verdict stands),
but it is measured against another bar than the gate's: :func:`._denied.owned` reads it at the weak level (confidence
0.45, under the 0.7 review bar). The writer's own unattributed verdict ("at 19x it passes") is theirs to give and keeps
its level (tests/scoring/test_parse_s44left.py).

:func:`contradicted` widens what break43 #2's check (:func:`._others_test.figure_fails_card` on the figures before the
word) sees. A figure counts when it is of the kind of the gate's bar (money, a percentage, a multiple; a plain number
after "P/E", "PE", "P/B", "PEG" or "EV/EBIT" is a multiple: "P/E 19", "a P/E ratio of 19"), it stands anywhere in the
sentence, the sentence names the quantity the bar reads (:func:`._bar_quantity.names_quantity`; a computed value the
card gives no words of its own, such as ``pe_3yr``, counts in the gate's own sentence), and it is not the bar's own
value. All such figures must give the card's test the same verdict, the other one than the word's (for a gate with two
bars on one name, the bar it meets); for a gate whose ``proceed`` test is an ``and``, a PROCEED beside a figure that
fails one of its necessary bars (:func:`._others_test.figure_fails_necessary`).

>>> from types import SimpleNamespace as N
>>> [(f.value, f.unit) for f in plain_multiples("P/E 19 passes; a P/E ratio of 12.5 would too; P/E 19x", 0, 54)]
[(19.0, 'multiple'), (12.5, 'multiple')]
"""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._bar_quantity import names_quantity
from ipb.scoring.parse._others_test import figure_fails_necessary
from ipb.scoring.parse._prose_vocabulary import _bar_words
from ipb.scoring.parse._thresholds import gate_bars, necessary_bars

__all__ = ["contradicted", "plain_multiples"]

#: A valuation multiple's name and a plain number after it: "P/E 19", "PE of 19.5", "P/B ratio: 1.2", "EV/EBIT at 8".
#: A number with its own unit ("19x", "19%") is the number reader's.
_PLAIN_MULTIPLE = re.compile(
    r"\b(?:P/?E|P/?B|PEG|EV/EBITDA|EV/EBIT)(?:[ \t]+(?:ratio|multiple))?"
    r"(?:[ \t]*[:=]|[ \t]+(?:of|at|is|was|near|around|about))?[ \t]*(\d{1,3}(?:\.\d{1,2})?)(?![\d.,]*[ \t]*(?:[x\u00d7%]|times\b))")


def plain_multiples(text: str, start: int, end: int) -> list[Any]:
    """The plain numbers after a valuation multiple's name in ``text[start:end]``, as figures of unit ``multiple``."""
    return [SimpleNamespace(start=m.start(1), end=m.end(1), value=float(m.group(1)), unit="multiple")
            for m in _PLAIN_MULTIPLE.finditer(text, start, end)]


def contradicted(state: Any, unit: Any, verdict: str) -> bool:
    """Whether the figures of sentence ``unit`` (of gate ``unit.gate``) give the card's bar the verdict other than
    ``verdict`` (module docstring; the caller asks only of a word whose object is another party's standard).
    ``state``: the parser (``card``, ``masked``, ``_figures``)."""
    gate = unit.gate
    if gate is None or verdict not in (vw.PROCEED, vw.REJECT):
        return False
    card = state.card
    single = gate_bars(card).get(gate)
    necessary = necessary_bars(card).get(gate)
    if not single and not necessary:
        return False
    clause = state.masked[unit.start : unit.end]
    figures = list(state._figures(unit.start, unit.end)) + plain_multiples(state.masked, unit.start, unit.end)

    def kept(bars: Any) -> list[Any]:
        out = []
        for bar in bars:
            if not (names_quantity(card, bar.name, clause) or not _bar_words(card, bar.name)):
                return []
            for f in figures:
                if f.unit == bar.unit and Decimal(str(f.value)) != bar.value:
                    out.append(f)
        return out

    if single:
        # one bar: failing it is the other verdict; two on one name (a band between): the bar a figure meets gives its
        # verdict, and a figure in the band between them settles nothing
        seen = set()
        for f in kept(single):
            value = Decimal(str(f.value))
            met = [b.holds for b in single if b.verdict(value) == b.holds] if len(single) > 1 else [single[0].verdict(value)]
            if len(met) != 1:
                return False
            seen.add(met[0])
        return len(seen) == 1 and verdict not in seen
    if necessary:
        return any(figure_fails_necessary(kept([b]), [b], verdict) for b in necessary
                   if [x.unit for x in necessary].count(b.unit) == 1)
    return False
