"""The gate's own label is not its required elements (paper §6.3, §7.7; issue s41elem).

An answer that only names a gate ("Free cash flow coverage: REJECT") states none of its required elements, even
when an element repeats the gate's name or an alias (``free cash flow coverage`` of a gate of that name; ``prevailing
bias`` of Soros' "Prevailing Bias"; ``management mandate`` of NBIM's "Management mandate scope"): KCCS_g and GRA's
elements_match would otherwise reward the label alone. :func:`label_spans` finds the words that named the gate, where
the parser read them as its label; :func:`unlabelled_bags` gives the gate's sentences with those words blanked, where
an element is then looked for (:mod:`._elements`). The same words used again in the reasoning ("... since free cash
flow coverage is only 0.9x") still state the element.

A label is the gate's mention that placed it (the trace's ``mention``) and each line label the parser anchored to the
gate (a heading, a list or table label), together with every name mention that overlaps one of them; a span counts
only when its words are all words of the gate's name, one alias or its id (an abbreviation by the words it stands
for: "FCF coverage" for "Free cash flow coverage"), so a label line that also holds a figure or a reason
("Value = $420,000 x 1.02 / 0.08 = $5.36M") keeps it, and a gate found by an element's own phrase (a ``substance``
mention of "divergence between perception and reality") is not a label of the gate's name.
"""

from __future__ import annotations

import bisect
import re

from ipb.scoring._text import STOPWORDS, NumberMatch, normalize, stem
from ipb.scoring.parse._abbreviations import expansion_stems
from ipb.scoring.parse._element_bags import _Bag
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace, Span


def _label_stems(state: _ParserState, gate: int) -> list[frozenset[str]]:
    """The content-word stems of the gate's name, each alias and its id (:attr:`._CardIndex.gate_words`)."""
    return [stems for _, g, stems in state.ix.gate_words if g == gate and stems]


def _says_only(text: str, labels: list[frozenset[str]]) -> bool:
    """Whether every content word of ``text`` is a word of one of ``labels`` (an abbreviation by its expansion)."""
    words = [w for w in normalize(text).split() if w not in STOPWORDS and len(w) > 1]
    if not words:
        return False
    return any(all(_in_label(w, label) for w in words) for label in labels)


def _in_label(word: str, label: frozenset[str]) -> bool:
    if stem(word) in label:
        return True
    expansion = expansion_stems(word)
    return bool(expansion) and set(expansion) <= label


def label_spans(state: _ParserState, trace: GateTrace) -> list[Span]:
    """The spans where the answer's label names ``trace``'s gate by its name, an alias or its id, sorted.

    Parameters
    ----------
    state:
        The parse (its masked text, mentions and line anchors).
    trace:
        A traced gate; its ``mention`` is one candidate.

    Returns
    -------
    list of (start, end) character offsets into the answer, possibly empty.

    Examples
    --------
    "Free cash flow coverage: REJECT" on a card whose gate 2 is "Free cash flow coverage": ``[(0, 23)]``
    (tests/scoring/test_parse_element_labels.py).
    """
    labels = _label_stems(state, trace.gate)
    if not labels:
        return []
    text = state.masked
    placed = sorted({trace.mention, *(a.mention for a in state.anchors.values() if a.gate == trace.gate)})
    candidates = set(placed)
    reach = max(b - a for a, b in placed) + _NEAR  # a placed span that overlaps a mention or stands beside it starts
    for m in state.mentions:                       # at most this far before the mention
        if trace.gate not in m.gates:
            continue
        # a mention that overlaps a label, or stands beside it with only marks between ("Gate 1 (Cash coverage)")
        i = bisect.bisect_left(placed, (m.start - reach, -1))
        while i < len(placed) and placed[i][0] <= m.end + _NEAR:
            a, b = placed[i]
            if m.start < b and a < m.end or _beside(text, (a, b), (m.start, m.end)):
                candidates.add((m.start, m.end))
                break
            i += 1
    return sorted((a, b) for a, b in candidates if b > a and _says_only(text[a:b], labels))


#: What may stand between two parts of one label: marks and spacing on one line ("Gate 1 (Cash coverage)", "2. -- ").
_BETWEEN = re.compile(r"[^\w\n]{0,6}")
#: The most characters :data:`_BETWEEN` lets stand between two parts of one label.
_NEAR = 6


def _beside(text: str, one: Span, other: Span) -> bool:
    a, b = sorted((one, other))
    return a[1] <= b[0] and _BETWEEN.fullmatch(text, a[1], b[0]) is not None


def _start(n: NumberMatch) -> int:
    return n.start


def within(span: Span, spans: list[Span]) -> bool:
    """Whether ``span`` lies inside one of ``spans``."""
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def unlabelled_bags(state: _ParserState, bags: list[_Bag], spans: list[Span]) -> list[_Bag] | None:
    """``bags`` with the characters of ``spans`` blanked (and their numbers left out); None when no bag holds a label.

    Offsets are kept: the blanked text has the answer's length, so a match reports its place in the answer.
    """
    touched = [any(a < bag.end and bag.start < b for a, b in spans) for bag in bags]
    if not any(touched):
        return None
    chars = list(state.masked)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    blank = "".join(chars)
    out: list[_Bag] = []
    figures = state.all_numbers
    for bag, hit in zip(bags, touched):
        if not hit:
            out.append(bag)
            continue
        numbers: list[NumberMatch] = []
        k = bisect.bisect_left(figures, bag.start, key=_start)  # the figures are in text order: only the bag's are looked at
        while k < len(figures) and figures[k].start < bag.end:
            if not within((figures[k].start, figures[k].end), spans):
                numbers.append(figures[k])
            k += 1
        out.append(_Bag.of(blank, bag.start, bag.end, numbers))
    return out
