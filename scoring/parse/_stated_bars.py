"""A labelled line that states its gate's fact against a bar, with no verdict word (issue 13; paper §7.5).

"- Size: market cap $2.1 billion, far above the $50 million floor we use" or "Combined rank: 12th of 3,100, well
inside the top 30": the label names the gate, and a reader takes the comparison as the gate's verdict. This reading
runs after the gates are traced (:meth:`_StatedBarsMixin._stated_bars`), only on a gate that the answer labels (an
anchor: a list item, a table row, a ``Label:`` line) and that was given no verdict, and only on the label's sentence
(from the label's end to the sentence's end; for a label alone on its line, a heading or "Label:", the first sentence
on the next line). The verdict is hedged and comes from a comparison with a bar; the
card's test on the sentence's figures may only confirm it (a bare figure on a labelled line, "Return on capital: 28%",
stays without a verdict: what else the answer says of it is the verdict readers' to weigh):

* a figure set against a bar with its own figure (:data:`_AGAINST`): "14% a year against our 10% hurdle", "1.9x against
  a 2.5x limit" (the figures of one kind; the bar's noun gives its side);
* a comparison with a stated bar (:data:`_COMPARED`): "above/over/beyond/below/under/short of <the ...> floor/minimum/
  hurdle/cap/ceiling/maximum/limit/bar/threshold/cutoff", "inside/within/outside the top N". A floor, minimum or
  hurdle is a lower bound (above it passes), a cap, ceiling, maximum or limit an upper one (below it passes); a bar,
  threshold or cutoff takes the side from the card (the gate's bar or its declared direction) and is no reading
  without it; a bound whose side the card contradicts is no reading. "Inside/within" a bar passes, "outside" fails,
  except for a band or tolerance around a target ("inside the band"): inside it the value is below its edge, and the
  card's direction says which side passes (no reading without one).
  Negated ("not above"), conditional ("if it falls below") or two comparisons that disagree: no reading.
* the sentence's figures of the gate's bar's kind (:func:`._thresholds.gate_bars`) against the card's test, leaving
  out a figure that is the stated bar itself ("the $50 million floor", "his limit of 2"), when the sentence holds a
  word of the bar's name or label; two figures that disagree (or one inside a band), or a verdict other than the
  comparison's: no reading.

A gate the answer names only in running prose (a transcript, a letter, a memo: no anchor) and gives no verdict is
read the same way from the sentences that name it and no other gate (:meth:`_StatedBarsMixin._stated_bars_in_prose`);
all of them that settle it must agree.

A verdict word anywhere in the sentence leaves it to the verdict readers. The trace's ``how`` gains ``+stated-bar`` and a note gives the words and the card's test.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from ipb.engine.numbers import NumberError, read_number
from ipb.scoring import verdict_words as vw
from ipb.scoring._numbers import ascii_digits
from ipb.scoring.parse._past import past_time
from ipb.scoring.parse._bar_quantity import names_quantity
from ipb.scoring.parse._prose import _CONDITIONAL, _bar_words, _direction, _stems
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._thresholds import Bar, gate_bars
from ipb.scoring.parse._types import GateTrace
from ipb.scoring.parse._verdict_clauses import BOTH_WAYS

__all__ = ["compared_verdict"]

_NOUNS = r"floor|minimum|hurdle|cap|ceiling|maximum|limit|bar|threshold|cut-?off|band|tolerance"
#: "far above the $50 million floor", "inside his limit of 2", "well inside the top 30": a side, at most three words
#: (none of them "of": "within 5% of the floor" is a distance, not a side), and the bar's noun.
_COMPARED = re.compile(
    r"(?i)\b(?P<side>above|over|beyond|exceeds?|exceeding|higher than|greater than|more than|below|under|beneath|"
    r"short of|less than|lower than|inside|within|outside)\s+"
    # (a ratio "2:1", "2 : 1", "3 to 1" is one word of the bar: "below our 2 : 1 minimum")
    r"(?:(?:\d+(?:\.\d+)?[ \t]*(?::|to)[ \t]*1|(?!of\b)[^\s,;:.!?()]+)\s+){0,3}?(?P<bar>(?:" + _NOUNS + r")s?|top\s+\d+)\b")
#: A figure set against a stated bar that carries its own figure: "14% a year against our 10% hurdle", "leverage 1.9x against
#: a 2.5x limit", "expected return 9% vs 10% hurdle". The two figures must be of one kind (both %, both x, both money or
#: both plain); the bar's noun gives its side, as for :data:`_COMPARED`.
_NUM = r"[$\u00a3\u20ac]?\d+(?:\.\d+)?"
_AGAINST = re.compile(
    r"(?i)(?<![\w.,])(?P<fig>" + _NUM + r")[ \t]*(?P<fu>%|x\b|times\b)?(?:[ \t]+(?:a|per)[ \t]+(?:year|share|annum))?[ \t]*,?[ \t]+"
    r"(?:against|versus|vs\.?|compared[ \t]+(?:with|to))[ \t]+(?:(?:a|an|the|our|my|his|her|its|their)[ \t]+)?"
    r"(?P<bar>" + _NUM + r")[ \t]*(?P<bu>%|x\b|times\b)?[ \t]+(?:[a-z-]+[ \t]+){0,2}?(?P<noun>floor|minimum|hurdle|cap|ceiling|maximum|limit)\b")
#: Words that give a stated bar its side whatever its noun (s45left): "at least 2.0", "no less than 15%", "a minimum of"
#: make a floor; "at most", "no more than", "up to", "a maximum of" a cap ("a limit of at least 15%" is a floor).
_FLOOR_WORDS = r"at[ \t]+least|no[ \t]+less[ \t]+than|not[ \t]+less[ \t]+than|not[ \t]+below|no[ \t]+lower[ \t]+than|(?:a[ \t]+)?minimum[ \t]+of|min\.?"
_CAP_WORDS = (r"at[ \t]+most|no[ \t]+more[ \t]+than|not[ \t]+more[ \t]+than|not[ \t]+above|no[ \t]+higher[ \t]+than|up[ \t]+to"
              r"|not[ \t]+(?:to[ \t]+)?exceed(?:ing)?|(?:a[ \t]+)?maximum[ \t]+of|max\.?")
_QUALIFIER = re.compile(r"(?i)(?P<floor>" + _FLOOR_WORDS + r")|(?P<cap>" + _CAP_WORDS + r")")
#: A figure set against a bar worded with its noun or its side before the bar's figure: "2.5x against a minimum of 3x",
#: "12% versus a bar of at least 15%", "60% against a limit of no more than 50%", "17% vs at least 15%". Up to five
#: words may stand between the figure and "against" ("1.5% in the bad case, against a maximum of 2%").
_AGAINST_WORDED = re.compile(
    r"(?i)(?<![\w.,])(?P<fig>" + _NUM + r")[ \t]*(?P<fu>%|x\b|times\b)?(?:[ \t]+[a-z'-]+){0,5}?[ \t]*,?[ \t]+"
    r"(?:against|versus|vs\.?|compared[ \t]+(?:with|to))[ \t]+(?:(?:a|an|the|our|my|his|her|its|their)[ \t]+)?"
    r"(?:(?:required|stated|stricter|strict|own|card's|hard|soft)[ \t]+)?"
    r"(?:(?P<noun>floor|minimum|hurdle|cap|ceiling|maximum|limit|bar|threshold|cut-?off|target|requirement)[ \t]+(?:of|at|is|=|:)[ \t]*)?"
    r"(?P<qual>(?:" + _FLOOR_WORDS + r"|" + _CAP_WORDS + r")[ \t]+)?"
    r"(?P<bar>" + _NUM + r")(?![\d])[ \t]*(?P<bu>%|x\b|times\b)?")
#: A comparison with a figure the text says is required or allowed: "an 11 percent return, above the 9 percent it asks of
#: mature industrials", "fell below the 10 percent the fund requires", "under the 2.5x the lenders allow". A figure that
#: is asked for, required, needed or targeted is a floor; one that is allowed, permitted or tolerated is a cap.
_REQUIRED = re.compile(
    r"(?i)\b(?P<side>above|over|beyond|exceeding|higher\s+than|greater\s+than|more\s+than|below|under|beneath|short\s+of|less\s+than|"
    r"lower\s+than)\s+(?:the\s+)?(?:[$\u00a3\u20ac]\s?)?\d+(?:[.,]\d+)?\s*(?:%|percent\b|per\s+cent\b|x\b|times\b)?\s+"
    r"(?:(?:that|which)\s+)?(?:(?:it|we|they|i|(?:the|our|its|their)\s+[a-z-]+)\s+)?(?:(?:still|typically|normally|usually|now)\s+)?"
    r"(?P<verb>asks?|requires?|demands?|needs?|wants?|targets?|expects?|seeks?|allows?|permits?|tolerates?|accepts?)\b")
_CAP_VERBS = ("allow", "permit", "tolerate", "accept")
#: A bar cleared or missed, whatever its side: "the yield clears the hurdle comfortably", "meets our bar", "misses the
#: threshold", "breaches the ceiling". Clearing or meeting a bar passes it; missing or breaching one fails it.
_MET = re.compile(r"(?i)\b(?P<act>clear(?:s|ed|ing)?|meet(?:s|ing)?|met|miss(?:es|ed|ing)?|breach(?:es|ed|ing)?)\s+"
                  r"(?:(?!of\b)[^\s,;:.!?()]+\s+){0,3}?(?P<bar>(?:" + _NOUNS + r")s?)\b")
_HIGH = {"above", "over", "beyond", "exceed", "exceeds", "exceeding", "higher than", "greater than", "more than"}
_LOW = {"below", "under", "beneath", "short of", "less than", "lower than"}
_LOWER_BOUND = {"floor", "minimum", "hurdle"}
_UPPER_BOUND = {"cap", "ceiling", "maximum", "limit"}
#: A band around a target ("the rebalancing band", "the 5-point tolerance"): inside it the value is below its edge, so the
#: card's direction says which side passes ("drift inside the band" fails a gate that rebalances on drift beyond it).
_BANDS = {"band", "tolerance"}
_NEGATED = re.compile(r"(?i)\b(?:not|never|no)\s+(?:\w+\s+)?\Z|n't\s+(?:\w+\s+)?\Z")
#: a figure that is the stated bar: followed by its noun ("$50 million floor") or just after it ("limit of 2").
_BAR_AFTER = re.compile(r"(?i)\s*(?:" + _NOUNS + r")\b")
_BAR_BEFORE = re.compile(r"(?i)\b(?:(?:" + _NOUNS + r")\s+(?:of|at|is|=|:)?\s*(?:(?:" + _FLOOR_WORDS + r"|" + _CAP_WORDS
                         + r")\s+)?|(?:against|versus|vs\.?)\s+(?:" + _FLOOR_WORDS + r"|" + _CAP_WORDS + r")\s+)\Z")


_OF = re.compile(r"[ \t]+(?:of|at|is|=|:)[ \t]*")


def _bound(qualifier: str | None, noun: str | None, higher: str | None) -> str | None:
    """The verdict a value above a stated bar gets: its side words first ("at least" a floor, "at most" a cap, whatever
    the noun), then its noun (a floor, minimum or hurdle; a cap, ceiling, maximum or limit), else the card's direction
    for a sideless noun (bar, threshold, target); None when nothing gives a side.

    >>> _bound("at least ", "limit", None), _bound("no more than ", None, None), _bound(None, "minimum", None)
    ('PROCEED', 'REJECT', 'PROCEED')
    >>> _bound(None, "cap", None), _bound(None, "bar", "REJECT"), _bound(None, "threshold", None) is None
    ('REJECT', 'REJECT', True)
    """
    if qualifier:
        q = _QUALIFIER.match(qualifier.strip())
        if q is not None:
            return vw.PROCEED if q.group("floor") else vw.REJECT
    n = (noun or "").lower()
    if n in _LOWER_BOUND or n == "requirement":
        return vw.PROCEED
    if n in _UPPER_BOUND:
        return vw.REJECT
    return higher if noun else None


def _flip(verdict: str) -> str:
    return vw.REJECT if verdict == vw.PROCEED else vw.PROCEED


def compared_verdict(text: str, higher: str | None) -> str | None:
    """The verdict ``text`` (one sentence) states by comparing the gate's fact with a stated bar, else None.

    ``higher`` is the verdict a higher value of the gate's criterion moves toward (from the card; None: unknown).

    >>> compared_verdict("market cap $2.1 billion, far above the $50 million floor", vw.PROCEED)
    'PROCEED'
    >>> compared_verdict("debt at 2.4 times equity, above his limit of 2", vw.REJECT)
    'REJECT'
    >>> compared_verdict("12th of 3,100, well inside the top 30", None)
    'PROCEED'
    >>> compared_verdict("yield 7%, above the threshold", None) is None
    True
    >>> compared_verdict("14% a year against our 10% hurdle", None), compared_verdict("leverage 1.9x against a 1.6x limit", None)
    ('PROCEED', 'REJECT')
    >>> compared_verdict("the yield clears the hurdle comfortably", None), compared_verdict("it misses our bar", None)
    ('PROCEED', 'REJECT')
    """
    return _compared(text, higher)[0]


def _compared(text: str, higher: str | None) -> tuple[str | None, bool]:
    """(verdict, blocked): blocked when a comparison with a bar is there but settles nothing (negated, conditional,
    sideless or contradicted): the figures must not settle it either."""
    verdicts = set()
    for m in _AGAINST.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()) or _CONDITIONAL.search(text, 0, m.start()):
            return None, True
        if past_time(text, max(text.rfind(";", 0, m.start()), text.rfind(". ", 0, m.start()), 0), m.end(), "comparison"):
            return None, True  # "Last cycle it made 14% against our 10% hurdle": history, not today's reading
        unit = lambda u: (u or "").lower().replace("times", "x")  # noqa: E731 - "12 times" is "12x"
        money = m.group("fig").startswith(("$", "\u00a3", "\u20ac")), m.group("bar").startswith(("$", "\u00a3", "\u20ac"))
        if unit(m.group("fu")) != unit(m.group("bu")) or money[0] != money[1]:
            continue  # "6% against a 2x limit": two kinds of figure, no comparison
        bound_high = vw.PROCEED if m.group("noun").lower() in _LOWER_BOUND else vw.REJECT
        if higher is not None and higher != bound_high:
            return None, True  # the card's direction and the answer's noun disagree
        try:  # the one number reader: "$50" and "50" are both 50 (the kinds were matched above)
            said_value, bar_value = (read_number(ascii_digits(m.group(k))).value for k in ("fig", "bar"))
        except NumberError:  # pragma: no cover - the pattern's figures are digits with at most one decimal point
            continue
        if said_value == bar_value:
            verdicts.add(vw.PROCEED)  # at the floor or the cap: the bar is met
        else:
            verdicts.add(bound_high if said_value > bar_value else _flip(bound_high))
    for m in _AGAINST_WORDED.finditer(text):
        if m.group("noun") is None and m.group("qual") is None:
            continue  # "14% against 10%": no side stated (the bare form with a noun after the figure is _AGAINST's)
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()) or _CONDITIONAL.search(text, 0, m.start()):
            return None, True
        if past_time(text, max(text.rfind(";", 0, m.start()), text.rfind(". ", 0, m.start()), 0), m.end(), "comparison"):
            return None, True
        unit = lambda u: (u or "").lower().replace("times", "x")  # noqa: E731 - "12 times" is "12x"
        money = m.group("fig").startswith(("$", "\u00a3", "\u20ac")), m.group("bar").startswith(("$", "\u00a3", "\u20ac"))
        if unit(m.group("fu")) != unit(m.group("bu")) or money[0] != money[1]:
            continue
        bound_high = _bound(m.group("qual"), m.group("noun"), higher)
        if bound_high is None or (higher is not None and higher != bound_high):
            return None, True  # no side stated or known, or the card's direction and the answer's bound disagree
        try:
            said_value, bar_value = (read_number(ascii_digits(m.group(k))).value for k in ("fig", "bar"))
        except NumberError:  # pragma: no cover - the pattern's figures are digits with at most one decimal point
            continue
        if said_value == bar_value:
            verdicts.add(vw.PROCEED)  # "at least 15%" met by 15%, "at most 2%" by 2%
        else:
            verdicts.add(bound_high if said_value > bar_value else _flip(bound_high))
    for m in _REQUIRED.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()) or _CONDITIONAL.search(text, 0, m.start()):
            return None, True
        side = " ".join(m.group("side").lower().split())
        bound_high = vw.REJECT if m.group("verb").lower().startswith(_CAP_VERBS) else vw.PROCEED
        if higher is not None and higher != bound_high:
            return None, True  # the card's direction and the verb's bound disagree
        verdicts.add(bound_high if side in _HIGH else _flip(bound_high))
    for m in _COMPARED.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()) or _CONDITIONAL.search(text, 0, m.start()):
            return None, True
        side = " ".join(m.group("side").lower().split())
        bar = m.group("bar").lower()
        bar = bar[:-1] if bar.endswith("s") and not bar.startswith("top") else bar  # "both under his limits"
        if side in ("inside", "within", "outside") and bar in _BANDS:
            if higher is None:
                return None, True  # a band with no side from the card
            verdicts.add(higher if side == "outside" else _flip(higher))
            continue
        if side in ("inside", "within", "outside"):
            verdicts.add(vw.REJECT if side == "outside" else vw.PROCEED)
            continue
        if bar.startswith("top"):
            return None, True  # "above the top 30" does not say which side of the rank it is on
        of = _OF.match(text, m.end())
        qualified = _QUALIFIER.match(text, of.end()) if of is not None else None
        if qualified is not None:  # "above our limit of at least 15%": the words after the noun give the side
            bound_high = vw.PROCEED if qualified.group("floor") else vw.REJECT
            if higher is not None and higher != bound_high:
                return None, True
            higher_here = bound_high
        elif bar in _LOWER_BOUND or bar in _UPPER_BOUND:
            bound_high = vw.PROCEED if bar in _LOWER_BOUND else vw.REJECT
            if higher is not None and higher != bound_high:
                return None, True  # the card's direction and the answer's noun disagree
            higher_here = bound_high
        elif higher is None:
            return None, True
        else:
            higher_here = higher
        verdicts.add(higher_here if side in _HIGH else _flip(higher_here))
    for m in _MET.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()) or _CONDITIONAL.search(text, 0, m.start()):
            return None, True  # "does not clear the hurdle", "if it meets the bar"
        verdicts.add(vw.REJECT if m.group("act").lower().startswith(("miss", "breach")) else vw.PROCEED)
    if len(verdicts) > 1:
        return None, True
    return (next(iter(verdicts)) if verdicts else None), False


def _higher(bars: tuple[Bar, ...] | None, direction: str | None) -> str | None:
    """The verdict a higher value moves toward: from the gate's bar, else the card's declared direction."""
    if bars:
        b = bars[0]
        up = b.op in (">", ">=")
        return b.holds if up else _flip(b.holds)
    return direction if direction in (vw.PROCEED, vw.REJECT) else None


class _StatedBarsMixin(_ParserState):
    """Gives a labelled gate with no verdict the verdict its label's sentence states against a bar (module docstring)."""

    def _stated_bars(self, traces: list[GateTrace]) -> list[GateTrace]:
        open_gates = {t.gate for t in traces if t.verdict is None}
        if not open_gates:
            return traces
        starts = {a.gate: a.mention for a in self.anchors.values() if a.gate in open_gates and a.invented is None}
        for trace in traces:
            mention = starts.get(trace.gate) if trace.verdict is None else None
            if mention is None:
                continue
            u = self._unit_at(mention[1]) if mention[1] < len(self.masked) else -1
            if u < 0 and mention[1] > 0:
                u = self._unit_at(mention[1] - 1)
            if u < 0:
                continue
            a, b = mention[1], self.units[u].end
            if len(self.masked[a:b].strip(" \t:-|*_#")) < 4:
                # a label alone on its line (a heading, "Label:"): its section's first sentence, on the next line
                nxt = u + 1
                if nxt >= len(self.units) or nxt in self.final_units or self.units[nxt].line != self.units[u].line + 1:
                    continue
                if self.units[nxt].line in self.anchors or self.lines[self.units[nxt].line].kind not in ("plain", "list"):
                    continue
                a, b = self.units[nxt].start, self.units[nxt].end
            if b - a < 4 or any(a <= h.start < b and self._level(h) > 0 for h in self.hits):
                continue  # nothing after the label, or a verdict word: the verdict readers' text
            if BOTH_WAYS.search(self.low, a, b):
                continue  # "90% against the 70% floor, but it could go either way": the writer withholds the verdict
            said = self._bar_reading(trace.gate, a, b, self.masked[mention[0] : b])
            if said is None:
                continue
            verdict, why = said
            trace.verdict = verdict
            trace.how = f"{trace.how}+stated-bar"
            trace.confidence = min(trace.confidence, 0.6)
            self.notes.append(f"gate {trace.gate} read as {verdict} from {why} in its labelled line "
                              f"(characters {a}-{b}; how '+stated-bar')")
        return self._stated_bars_in_prose(traces, starts)

    def _stated_bars_in_prose(self, traces: list[GateTrace], labelled: dict[int, tuple[int, int]]) -> list[GateTrace]:
        """A gate the answer names only in running prose (a transcript, a letter, a memo) and gives no verdict: the
        sentences that name it and no other gate, with no verdict word, read as a labelled line's text is
        (:meth:`_bar_reading`: "Castellan is $640M, well clear of the $100M minimum", "Largest drift is 3.1 points,
        inside the band"); every such sentence that settles it must agree. Hedged, as on a labelled line. A labelled
        gate whose label's sentence settled nothing reads the next two sentences of the label's line the same way
        ("Price: the top P/E is 19.2x, on average earnings 23x. Both under Graham's limits.")."""
        open_gates = {t.gate for t in traces if t.verdict is None}
        if not open_gates:
            return traces
        units: dict[int, list[int]] = {}
        for u, mentions in self.unit_mentions.items():
            named = {g for m in mentions if m.invented is None for g in m.gates}
            if len(named) == 1 and named <= open_gates and next(iter(named)) not in labelled and u not in self.final_units:
                units.setdefault(next(iter(named)), []).append(u)
        for gate, mention in labelled.items():
            u = self._unit_at(mention[0]) if gate in open_gates else -1
            for nxt in range(u + 1, min(u + 3, len(self.units))) if u >= 0 else ():
                if self.units[nxt].line != self.units[u].line or nxt in self.final_units or self.unit_mentions.get(nxt):
                    break  # another line, the closing, or a sentence that names a gate
                units.setdefault(gate, []).append(nxt)
        for trace in traces:
            if trace.verdict is not None or trace.gate not in units:
                continue
            read: dict[str, tuple[int, int, str]] = {}
            for u in sorted(units[trace.gate])[:16]:
                a, b = self.units[u].start, self.units[u].end
                if any(a <= h.start < b and self._level(h) > 0 for h in self.hits):
                    continue  # a verdict word: the verdict readers' sentence
                said = self._bar_reading(trace.gate, a, b, self.masked[a:b])
                if said is not None:
                    read.setdefault(said[0], (a, b, said[1]))
            if len(read) != 1:
                continue  # none, or sentences that disagree
            verdict, (a, b, why) = next(iter(read.items()))
            trace.verdict = verdict
            trace.how = f"{trace.how}+stated-bar"
            trace.confidence = min(trace.confidence, 0.6)
            self.notes.append(f"gate {trace.gate} read as {verdict} from {why} in a sentence that names it "
                              f"(characters {a}-{b}; how '+stated-bar')")
        return traces

    def _bar_reading(self, gate: int, a: int, b: int, labelled: str) -> tuple[str, str] | None:
        card, text = self.card, self.masked[a:b]
        bars = gate_bars(card).get(gate)
        higher = _higher(bars, _direction(card, gate))
        said, blocked = _compared(text, higher)
        if blocked:
            return None
        figured: str | None = None
        figure_text = ""
        if bars and not _CONDITIONAL.search(text) and names_quantity(card, bars[0].name, labelled):
            seen: set[str] = set()
            for f in self._figures(a, b):  # type: ignore[attr-defined]
                if f.unit != bars[0].unit:
                    continue
                if _BAR_AFTER.match(self.masked, f.end, b) or _BAR_BEFORE.search(self.masked, max(a, f.start - 16), f.start):
                    continue  # the stated bar itself, not the gate's fact
                try:
                    value = Decimal(str(f.value))
                except (InvalidOperation, ValueError):
                    return None
                got = [bar.verdict(value) for bar in bars]
                if len(bars) > 1 and not any(v == bar.holds for v, bar in zip(got, bars)):
                    return None  # inside the band: no reading
                seen.add(next((v for v, bar in zip(got, bars) if v == bar.holds), got[0]) if len(bars) > 1 else got[0])
                figure_text = self.masked[f.start : f.end]
            if len(seen) > 1:
                return None  # two figures of the bar's kind that disagree
            figured = next(iter(seen)) if seen else None
        if said is None or (figured is not None and said != figured):
            return None  # no comparison with a bar, or the card's test on the figure says otherwise
        why = f"a comparison with a stated bar ({text.strip(' :-|*').strip()!r})"
        if figured is not None and bars:
            tests = " / ".join(f"{bar.name} {bar.op} {bar.value}" for bar in bars)
            why += f", and the figure {figure_text!r} against the card's test {tests}"
        return said, why
