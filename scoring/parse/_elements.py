"""Required elements (paper §6.3): which of a gate's ``required_elements`` its sections state.

An element is read verbatim (a template such as ``price {price}`` with its
fields filled as the engine renders them) or loosely (its word stems, its
numbers and, for numeric fields, the nearest number of the field's kind).
What an element asks for is read from the card by :mod:`._element_spec`; each
sentence's stems and figures are indexed by :mod:`._element_bags`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from decimal import Decimal, InvalidOperation

from ipb.engine.card import ELEMENT_FIELD
from ipb.engine.execute import format_value
from ipb.scoring._text import STOPWORDS, NumberMatch, normalize, stem
from ipb.scoring.parse._common import (
    MAX_ELEMENT_CHARS,
    MAX_UNIT,
    _Element,
    _Unit,
)
from ipb.scoring.parse._element_bags import BARE, _Bag, _stem_hit
from ipb.scoring.parse._element_labels import label_spans, unlabelled_bags, within
from ipb.scoring.parse._element_spec import _flexible, _render_slot
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace, Span

_MEASURE_WORDS = frozenset({"metric", "measur", "figur", "number"})


# --------------------------------------------------------------------------- helpers


_OPERATOR_AFTER = re.compile(r"[ \t]*(?:[=\u00d7*+/]|x\b)")
#: A figure that is a stated bar, not the fact: after a comparison sign ("(>= 5)", "\u2265 40%") or a bar's noun
#: ("a minimum of 5 years", "threshold: 15%"), or before one ("the 5-year bar", "a 40% floor").
_BAR_SIGN_BEFORE = re.compile(r"(?:[\u2265\u2264<>]=?|=<|=>|\b(?:at\s+least|at\s+most|minimum(?:\s+of)?|maximum(?:\s+of)?"
                              r"|threshold(?:\s+of)?|floor\s+of|hurdle\s+of|cap\s+of|limit\s+of)[:\s]?)[ \t]*\Z", re.I)
_BAR_NOUN_AFTER = re.compile(r"[ \t-]*(?:\w+[ \t-]+)?(?:bar|floor|minimum|hurdle|threshold|cut-?off|cap|ceiling|limit)\b", re.I)
#: An element that is itself a bar, whose figure a bar's noun may introduce ("buy limit {limit}", "minimum {x} years").
_BAR_ELEMENT = re.compile(r"(?i)\b(?:bar|floor|minimum|maximum|hurdle|threshold|cut-?off|cap|ceiling|limit|required|requirement)\b")
#: An element that names one figure in words only ("market value {market_value}", "operating history of {years} years"):
#: not a formula, whose words are its operands ("(growth + yield) / P/E = {ratio}").
_NAMED_FIGURE = re.compile(r"[A-Za-z' -]+\{\w+\}(?:[ \t]+[A-Za-z]+)?")
#: What may stand between a figure and the element's words that it states ("25 years of operating history",
#: "$600M market value"): a space, or "of".
_STATES_BEFORE = re.compile(r"[ \t]+(?:of[ \t]+)?(?:the[ \t]+)?\Z", re.I)


def _stated_bar(text: str, n: NumberMatch) -> bool:
    """Whether the figure ``n`` is a bar set against the fact ("(>= 5)", "the 5-year bar"), not the fact."""
    return _BAR_SIGN_BEFORE.search(text, max(0, n.start - 16), n.start) is not None \
        or _BAR_NOUN_AFTER.match(text, n.end) is not None


_COMPARE = {
    ">=": lambda a, b: a >= b - 1e-9,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b + 1e-9,
    "<": lambda a, b: a < b,
    "=": lambda a, b: abs(a - b) <= 1e-9,
    "": lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b)),
}


def _match_element(element: _Element, bags: list[_Bag], cutoff: float, shared: frozenset[str] = frozenset(),
                   avoid: tuple[Span, ...] = ()) -> tuple[str, Span] | None:
    """Whether the gate's sections mention ``element``: its words (one alternative of "A or B"), its numbers, its fields.

    Words, numbers and fields are looked for in one sentence; words alone may
    also be spread over the gate's sentences. Last, a figure may be stated by
    part of its words (:func:`_match_partial`; ``shared``: the stems two of the
    gate's figures have in common; ``avoid``: where the gate's other elements are read verbatim, see
    :func:`_match_template`).
    """
    for bag in bags:
        found = _match_template(element, bag, avoid=avoid)
        if found is not None:
            return found
    # a sentence that writes the words before a field together ("The market P/E is 12x") before one that has them
    # apart ("Low P/E against the market: the stock's P/E is 15.5x"; s47user)
    phrased = [bag for bag in bags if _has_lead_phrase(element, bag)]
    for bag in phrased + [bag for bag in bags if bag not in phrased]:
        found = _match_in_unit(element, bag, cutoff)
        if found is not None:
            return found
    for bag in bags:
        found = _match_partial(element, bag, cutoff, shared)
        if found is not None:
            return found
    if len(bags) > 1 and not element.fields and not element.numbers:
        merged = _Bag.merge(bags)
        for stems in element.alternatives:
            hits = [_stem_hit(s, merged, cutoff) for s in stems]
            spans = [h for h in hits if h is not None]
            if len(stems) >= 2 and len(spans) == len(stems):
                return element.text, (min(a for a, _ in spans), max(b for _, b in spans))
    return None


def _match_template(element: _Element, bag: _Bag, *, plain: bool = False, avoid: tuple[Span, ...] = ()) -> tuple[str, Span] | None:
    """The element read back verbatim in one sentence: its words in order, every field filled from its own slot.

    An element without fields is read this way only when ``plain``; otherwise its words are matched loosely. A match
    lying inside a longer one of ``avoid`` (another element of the gate read verbatim) is that element's: "P/E {pe}"
    is not read from "market P/E 12x", which states ``market P/E {market_pe}`` (s47user).
    """
    if element.pattern is None or bag.end < 0 or not (element.slots or plain):
        return None
    for m in element.pattern.finditer(bag.text, bag.start, bag.end):
        if any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start() for a, b in avoid):
            continue
        filled: list[str] = []
        for group, kind, unit, values in element.slots:
            value = _render_slot(m.group(group), kind, unit, values)
            if value is None:
                break
            filled.append(value)
        else:
            it = iter(filled)
            return ELEMENT_FIELD.sub(lambda _: next(it), element.text), (m.start(), m.end())
    return None


def _match_in_unit(element: _Element, bag: _Bag, cutoff: float) -> tuple[str, Span] | None:
    # the element read verbatim (_match_template) was tried on every bag first, by _match_element, the only caller
    numbers = bag.numbers
    word_spans: list[Span] | None = None
    for stems in element.alternatives or [[]]:
        spans = []
        missing = 0
        for s in stems:
            if s in _MEASURE_WORDS and numbers:
                continue
            hit = _stem_hit(s, bag, cutoff)
            if hit is None:
                missing += 1
                break
            spans.append(hit)
        if missing == 0 and (spans or not stems):
            word_spans = spans
            break
    if word_spans is None:
        return None
    if not word_spans:
        numbers = [n for n in numbers if n.unit != BARE]  # "P/E x P/B {x}" has no words to stand a bare figure beside
    extra: list[Span] = []
    for value, unit_kind, cmp in element.numbers:
        hit_number = None
        for n in numbers:
            if _same_kind(n.unit, unit_kind) and _COMPARE[""](n.value, value):
                hit_number = n
                break
        if hit_number is None and cmp:
            for n in numbers:
                if _same_kind(n.unit, unit_kind) and _COMPARE[cmp](n.value, value):
                    hit_number = n
                    break
        if hit_number is None:
            return None
        extra.append((hit_number.start, hit_number.end))
    rendered = element.text
    if element.fields:
        if any(slot[1] not in ("number", "category") or (slot[1] == "category" and not slot[3]) for slot in element.slots):
            return None  # a yes/no value is read only verbatim, never from a nearby number
        used: set[int] = set()
        for k, (name, kind) in enumerate(element.fields):
            slot = element.slots[k] if k < len(element.slots) else None
            if slot is not None and slot[1] == "category":
                # a category value in the element's sentence, written as the question writes it ("The expected
                # catalyst is a capital raise" for "expected catalyst {catalyst}", rendered "capital_raise"; s48user)
                value = _category_value(bag, slot[3], word_spans)
                if value is None:
                    return None
                rendered = rendered.replace("{" + name + "}", value[0])
                extra.append(value[1])
                continue
            field_before = element.text.find("{" + name + "}") < _first_word_pos(element.text)
            anchor = _field_anchor(element.text, name, bag, cutoff, word_spans, before=field_before)
            free = [n for n in numbers if n.start not in used]
            facts = free if _BAR_ELEMENT.search(element.text) else [n for n in free if not _stated_bar(bag.text, n)]
            # (a bar beside the fact is not the fact, unless the element is itself a bar: "buy limit {limit}")
            chosen = _stating_number(bag.text, facts, word_spans, kind) if _NAMED_FIGURE.fullmatch(element.text) else None
            if chosen is None:
                chosen = _nearest_number(bag.text, facts or free, anchor, kind, before=field_before)
            if chosen is None:
                return None
            used.add(chosen.start)
            try:
                exact = Decimal(str(chosen.value))
            except InvalidOperation:  # pragma: no cover - find_numbers gives finite floats
                return None
            rendered = rendered.replace("{" + name + "}", format_value(exact, kind if kind in ("money", "ratio", "multiple") else None))
            extra.append((chosen.start, chosen.end))
    spans = word_spans + extra
    if not spans:
        return None
    return rendered, (min(a for a, _ in spans), max(b for _, b in spans))


def _category_value(bag: _Bag, values: tuple[str, ...], word_spans: list[Span]) -> tuple[str, Span] | None:
    """The category value named in ``bag``'s sentence nearest the element's words, as the card spells it, and where.

    A value is read by its words, whatever joins them ("capital raise", "capital-raise" for ``capital_raise``); among
    several, the one nearest the end of the element's words wins.
    """
    after = max((b for _, b in word_spans), default=bag.start)
    best: tuple[int, str, Span] | None = None
    for v in values:
        words = re.findall(r"[^\W_]+", v)
        if not words:
            continue
        pattern = re.compile(r"(?i)(?<![^\W_])" + r"[\W_]+".join(re.escape(w) for w in words) + r"(?![^\W_])")
        for m in pattern.finditer(bag.text, bag.start, bag.end):
            if any(a <= m.start() < b for a, b in word_spans):
                continue  # a value word that is one of the element's own words
            distance = m.start() - after if m.start() >= after else after - m.end() + 1000
            if best is None or distance < best[0]:
                best = (distance, v, (m.start(), m.end()))
    return None if best is None else (best[1], best[2])


#: A figure stated by part of its words must stand this close (characters) to one of them.
PARTIAL_REACH = 36


def _match_partial(element: _Element, bag: _Bag, cutoff: float, shared: frozenset[str]) -> tuple[str, Span] | None:
    """A figure stated by part of its words: "Sales $41bn" for ``annual sales {annual_sales}``, "Leverage afterwards
    would be 2.4x" for ``leverage after rebalance {post_rebalance_leverage}``, "net income was ($7M)" for ``latest net
    income {net_income}``.

    Only for an element of one numeric field and no figures of its own. At least half its content words (one at
    least) must be in the sentence, one of them a word no other figure of the gate has (so "return" alone never tells
    "strategy return" from "excess return"), and a number of the field's kind must stand within
    :data:`PARTIAL_REACH` characters of one of them; the nearest such number is read.
    """
    if len(element.fields) != 1 or element.numbers or not element.slots or element.slots[0][1] != "number":
        return None
    name, kind = element.fields[0]
    head = _head_stem(element.text)
    for stems in element.alternatives:
        wanted = [s for s in stems if s not in _MEASURE_WORDS and len(s) >= 3]
        if not wanted:
            continue
        hits = {s: _stem_hit(s, bag, cutoff) for s in wanted}
        found = {s: h for s, h in hits.items() if h is not None}
        if not found or not any(s not in shared for s in found):
            continue
        if not (len(found) * 2 > len(wanted) or (head in found and len(found) * 2 >= len(wanted))):
            continue  # more than half the words, or half with the head noun: "Sales $41bn" is annual sales, "Largest gap" no drift
        spans = sorted(found.values())
        best: NumberMatch | None = None
        best_gap = PARTIAL_REACH + 1
        for n in bag.numbers:
            if not _same_kind(n.unit, kind) or _OPERATOR_AFTER.match(bag.text, n.end) is not None:
                continue
            if kind is None and n.unit != BARE:
                continue  # a count ("{years} of uninterrupted dividends") is never read from a sum, a share or a multiple
            gap, (a, b) = min((max(a - n.end, n.start - b, 0), (a, b)) for a, b in spans)
            if gap < best_gap and not re.search(r"[,;]", bag.text[min(b, n.end) : max(a, n.start)]):
                best, best_gap = n, gap
        if best is None:
            continue
        try:
            exact = Decimal(str(best.value))
        except InvalidOperation:  # pragma: no cover - numbers are finite floats
            return None
        rendered = element.text.replace("{" + name + "}", format_value(exact, kind if kind in ("money", "ratio", "multiple") else None))
        return rendered, (min(spans[0][0], best.start), max(spans[-1][1], best.end))
    return None


@lru_cache(maxsize=4096)  # of an element's text: pure
def _head_stem(text: str) -> str | None:
    """The stem of an element's head noun: the last content word of its first run of words, before a field, a bracket,
    a preposition or a figure ("annual sales {x}" -> "sale", "leverage after rebalance {x}" -> "leverag")."""
    run = re.split(r"\{|\(|\d|\b(?:of|after|before|at|on|in|vs|versus|over|per|from|to|for|with|by)\b", text, maxsplit=1)[0]
    words = [w for w in normalize(run).split() if w not in STOPWORDS and len(w) > 1]
    return stem(words[-1]) if words else None


def _field_anchor(text: str, name: str, bag: _Bag, cutoff: float, word_spans: list[Span], *, before: bool) -> int:
    """Where a field's figure is looked for from: after the last of the words that lead up to the field in the element
    ("alpha t-statistic {t}": after "statistic", not after "alpha", which the sentence may use for the alpha's own
    figure; "peer EV/EBIT {p}" in "EV/EBIT 6.5x vs peers 11x": after "peers"), or before the first word that follows a
    leading field; else the first matched word. Two fields of one element never share a figure."""
    stems = _anchor_stems(text, name, before)
    phrase = None if before else _lead_phrase(text, name)
    if phrase is not None:
        # the words before the field written together ("The market P/E is 12x"): after them, not after the first of
        # each word, which may be another figure's ("the stock's P/E is 15.5x" before it; s47user)
        m = phrase.search(bag.text, bag.start, bag.end)
        if m is not None:
            return m.end()
    if before:
        spans = [h for h in (_stem_hit(st, bag, cutoff) for st in stems[:1]) if h is not None]
        return min(a for a, _ in spans) if spans else (word_spans[0][0] if word_spans else bag.start)
    spans = [h for h in (_stem_hit(st, bag, cutoff) for st in stems) if h is not None]
    return max(b for _, b in spans) if spans else (word_spans[0][0] if word_spans else bag.start)


def _has_lead_phrase(element: _Element, bag: _Bag) -> bool:
    """Whether ``bag`` writes the words before one of ``element``'s fields together (:func:`_lead_phrase`)."""
    for name, _ in element.fields:
        phrase = _lead_phrase(element.text, name)
        if phrase is not None and bag.end >= 0 and phrase.search(bag.text, bag.start, bag.end) is not None:
            return True
    return False


@lru_cache(maxsize=4096)  # of an element's text and field: pure
def _lead_phrase(text: str, name: str) -> re.Pattern[str] | None:
    """The words right before field ``name`` in the element ``text`` as one phrase (two words at least: "market P/E"
    in ``market P/E {market_pe}``), or None."""
    at = text.find("{" + name + "}")
    lead = ELEMENT_FIELD.split(text[:at])[-1].strip()
    if len(re.findall(r"[^\W_]+", lead)) < 2:
        return None
    return re.compile(r"(?i)(?<![^\W_])" + _flexible(lead) + r"(?![^\W_])")


@lru_cache(maxsize=4096)  # of an element's text and field: pure
def _anchor_stems(text: str, name: str, before: bool) -> tuple[str, ...]:
    """The stems :func:`_field_anchor` looks for: the words after a leading field up to the next field (``before``),
    else the words between the field before and this one."""
    at = text.find("{" + name + "}")
    if before:
        rest = ELEMENT_FIELD.split(text[at + len(name) + 2 :], maxsplit=1)[0]
        return tuple(stem(w) for w in normalize(rest).split() if w not in STOPWORDS and len(w) > 1)
    lead = ELEMENT_FIELD.split(text[:at])[-1]
    return tuple(stem(w) for w in normalize(lead).split() if w not in STOPWORDS and len(w) > 1)


@lru_cache(maxsize=4096)  # of an element's text: pure
def _first_word_pos(text: str) -> int:
    stripped = ELEMENT_FIELD.sub(lambda m: " " * len(m.group(0)), text)
    m = re.search(r"[A-Za-z]", stripped)
    return m.start() if m else len(text)


def _same_kind(found: str, wanted: str | None) -> bool:
    if found == BARE:
        return wanted in (None, "multiple")  # "Current ratio 1.3", "24 years": a count or a multiple may be written bare
    if wanted is None:
        return True
    if wanted == "ratio":
        return found in ("ratio", "fraction")
    return found == wanted


def _nearest_number(text: str, numbers: list[NumberMatch], anchor: int, kind: str | None, *, before: bool) -> NumberMatch | None:
    """The number of ``kind`` nearest ``anchor`` on its side; an operand ("$5B" in "10 x $5B = $50B") yields to the result."""
    best: NumberMatch | None = None
    best_distance = 10**9
    for n in numbers:
        if not _same_kind(n.unit, kind) or _OPERATOR_AFTER.match(text, n.end) is not None:
            continue
        start, end = n.start, n.end
        if before:
            distance = anchor - end if end <= anchor else 10**6 + start - anchor
        else:
            distance = start - anchor if start >= anchor else 10**6 + anchor - end
        if distance < best_distance:
            best, best_distance = n, distance
    return best


def _stating_number(text: str, numbers: list[NumberMatch], word_spans: list[Span], kind: str | None) -> NumberMatch | None:
    """A figure of ``kind`` written right before the element's first matched word, stating it ("25 years of operating
    history", "$600M market value"): the writer's own figure for the element, whatever stands after its words. The
    element's first word must open its words in the text: where another of its words comes earlier ("the 20% bad-case
    loss is a portfolio loss in the bad case of 2.4%"), that word is in another figure's clause, and the figure before it
    is that clause's, not the element's."""
    if not word_spans:
        return None
    first = word_spans[0][0]
    if any(a < first for a, _ in word_spans):
        return None
    for n in numbers:
        if n.end <= first and _same_kind(n.unit, kind) and _STATES_BEFORE.match(text[n.end : first]) is not None:
            return n
    return None


def _verbatim_spans(element: _Element, bags: list[_Bag]) -> tuple[Span, ...]:
    """Every place in ``bags`` where ``element`` (a template with fields) is read back verbatim."""
    if element.pattern is None:
        return ()
    return tuple((m.start(), m.end()) for bag in bags if bag.end >= 0
                 for m in element.pattern.finditer(bag.text, bag.start, bag.end))


def _shared_stems(elements: list[_Element]) -> frozenset[str]:
    """The stems two or more of a gate's figures (elements with a field) have in common ("return" in "strategy return"
    and "excess return")."""
    seen: set[str] = set()
    shared: set[str] = set()
    for e in elements:
        if not e.fields:
            continue
        stems = {s for alt in e.alternatives for s in alt}
        shared |= stems & seen
        seen |= stems
    return frozenset(shared)


_SHARED: dict[int, tuple[list[_Element], frozenset[str]]] = {}


def _shared_stems_of(elements: list[_Element]) -> frozenset[str]:
    """:func:`_shared_stems` of a gate's element list, cached by the list's identity (it lives as long as its card)."""
    entry = _SHARED.get(id(elements))
    if entry is not None and entry[0] is elements:
        return entry[1]
    if len(_SHARED) > 4096:
        _SHARED.clear()
    shared = _shared_stems(elements)
    _SHARED[id(elements)] = (elements, shared)
    return shared


class _ElementsMixin(_ParserState):
    """Finds each traced gate's required elements in that gate's sections (at most :data:`MAX_ELEMENT_CHARS` characters)."""

    # ------------------------------------------------------------------ elements

    def _find_elements(self, traces: list[GateTrace]) -> None:
        masked = self.masked
        starts = [n.start for n in self.all_numbers]
        bag_of: dict[tuple[int, int], _Bag] = {}  # a unit in two gates' sections is read once
        for trace in traces:
            elements = self.ix.elements.get(trace.gate, [])
            gate = self.ix.gates.get(trace.gate)
            if gate is not None and trace.verdict is not None:
                # elements the card asks for at another verdict only ("product criteria" when a screen is
                # INCONCLUSIVE) are not this gate's: its label or reasons may repeat their words
                wanted = set(gate.elements_for(trace.verdict))
            else:
                wanted = {e.text for e in elements}
            if not elements:
                continue
            unit_ids = [u for group in self._section_units(trace.gate) for u in group]
            if not unit_ids:
                unit_ids = [self._unit_at(trace.mention[0])] if self._unit_at(trace.mention[0]) >= 0 else []
            budget = MAX_ELEMENT_CHARS
            units: list[_Unit] = []
            for u in unit_ids:
                unit = self.units[u]
                if budget <= 0:
                    break
                units.append(unit)
                budget -= unit.end - unit.start
            bags = []
            for unit in units:
                bag = bag_of.get((unit.start, unit.end))
                if bag is None:
                    lo, hi = bisect_right(starts, unit.start - 1), bisect_right(starts, unit.end - 1)
                    bag = bag_of[unit.start, unit.end] = _Bag.of(masked, unit.start, unit.end, self.all_numbers[lo:hi])
                bags.append(bag)
            shared = _shared_stems_of(elements)
            verbatim = {e.text: _verbatim_spans(e, bags) for e in elements if e.text in wanted and e.slots}
            # the words that named the gate are not its elements (_element_labels.py): an element read only inside
            # them is looked for again with them blanked (the same words used again in the reasoning count)
            labels = label_spans(self, trace)
            free = unlabelled_bags(self, bags, labels) if labels else None
            for element in elements:
                if element.text in wanted:
                    avoid = tuple(span for text, spans in verbatim.items() if text != element.text for span in spans)
                    found = _match_element(element, bags, self.score_cutoff, shared, avoid)
                    if found is not None and free is not None and within(found[1], labels):
                        found = _match_element(element, free, self.score_cutoff, shared, avoid)
                    if found is not None:
                        rendered, span = found
                        if rendered not in trace.elements:
                            trace.elements.append(rendered)
                            trace.element_spans.append(span)
            # elements the card asks for only at another verdict ("product criteria" when a screen is
            # INCONCLUSIVE) count only when written out verbatim, outside the gate's label, and not as part
            # of an element already read ("net current asset value" in "net current asset value $42M")
            label_unit = self._unit_at(trace.mention[0])
            label = (self.units[label_unit].start if label_unit >= 0 else trace.mention[0], trace.mention[1])
            if trace.verdict_span is not None and label[0] <= trace.verdict_span[0] <= label[1] + MAX_UNIT:
                label = (label[0], max(label[1], trace.verdict_span[1]))
            for element in elements:
                if element.text in wanted:
                    continue
                for bag in bags:
                    found = _match_template(element, bag, plain=True)
                    if found is None:
                        continue
                    rendered, span = found
                    if span[0] < label[1] and label[0] < span[1]:
                        continue
                    if any(a <= span[0] and span[1] <= b for a, b in trace.element_spans):
                        continue
                    if rendered not in trace.elements:
                        trace.elements.append(rendered)
                        trace.element_spans.append(span)
                    break
