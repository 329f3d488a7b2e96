"""What a required element asks for, read from its card (paper §6.3; found in answers by :mod:`._elements`).

:func:`_elements` turns each of a gate's ``required_elements`` (and those it asks for at one verdict only) into an
:class:`~._common._Element`: the stems of its words (each alternative of "A or B"), its own figures with their
comparison ("P/E < 15" -> (15.0, "multiple", "<")), its fields with their units, and a pattern that reads it back
verbatim (:func:`_template_pattern`: the literal words in order, each field filled as the engine renders it).
:func:`_render_slot` renders one field value read verbatim the way the engine does.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from ipb.engine.card import ELEMENT_FIELD, Card, Gate
from ipb.engine.execute import format_value
from ipb.engine._units import MIXED
from ipb.engine.numbers import NumberError, read_number
from ipb.scoring._text import STOPWORDS, find_numbers, normalize, stem
from ipb.scoring.parse._common import _Element

_ELEMENT_NUMBER = re.compile(r"(?P<cmp>>=|<=|>|<|=|\u2265|\u2264)?[ \t]*(?P<num>[~\u2248]?[-\u2212]?\$?\d[\d,.]*[ \t]?(?:[TBMK%xX\u00d7]|bn)?)")
_CMP = {"\u2265": ">=", "\u2264": "<="}
_GLOSS = re.compile(r"\([^()]*\)\s*\Z")


def _elements(gate: Gate, card: Card) -> list[_Element]:
    # a sum of ratios and multiples (Altman's Z) is written as a plain number ("Z = 2.99"): read it as one
    units = {name: None if t.unit == MIXED else t.unit for name, t in card.symbols.items()}
    seen: dict[str, _Element] = {}
    pool = list(gate.required_elements)
    for more in gate.elements_by_verdict.values():
        pool.extend(more)
    for text in pool:
        if text in seen:
            continue
        fields = [(m.group(1), units.get(m.group(1))) for m in ELEMENT_FIELD.finditer(text)]
        literal = ELEMENT_FIELD.sub(" ", text)
        # a closing bracketed part is the card's gloss ("current ratio {current_ratio} (at least 2)": the bar the figure is
        # held to); an answer states the element by its words and figure outside the brackets. Read verbatim, the
        # whole text still counts (``pattern`` below).
        outside = _GLOSS.sub(" ", literal)
        if re.search(r"[^\W\d_]", outside):
            literal = outside
        numbers: list[tuple[float, str, str]] = []
        for m in _ELEMENT_NUMBER.finditer(literal):
            found = find_numbers(m.group("num").lstrip("~\u2248"))
            if found:
                cmp = _CMP.get(m.group("cmp") or "", m.group("cmp") or "")
                numbers.append((found[0].value, found[0].unit, cmp))
        words = re.sub(r"[\d$%><=~\u2248\u2265\u2264.,]+", " ", literal)
        alternatives = []
        for part in re.split(r"(?i)(?:\b|_)or(?:\b|_)|/", words):
            stems = [stem(w) for w in normalize(part).split() if w not in STOPWORDS and len(w) > 1]
            if stems:
                alternatives.append(stems)
        pattern, slots = _template_pattern(text, card)
        seen[text] = _Element(text, alternatives, numbers, fields, pattern, slots)
    return list(seen.values())


#: A number field: digits (commas only as thousands separators) matched possessively (``*+``), so fields side by side
#: ("{a}{b}{c}{d}") cannot split a run of digits in every possible way: the pattern stays linear (issue 16).
_TEMPLATE_NUMBER = r"[-\u2212]?\$?\d(?:,\d{3}|\d)*+(?:\.\d++)?(?:[ \t]?(?:[TBMK%xX\u00d7]|bn)(?![^\W\d_]))?"
_TEMPLATE_GAP = r"[\W_]+"
#: The marks that end a label, a clause or a table cell: the gap between two of an element's words never crosses one
#: unless the element itself has it there. A gate named "Low P/E against the market" followed by ": P/E 15.5x" read
#: as the element "market P/E {market_pe}" with the stock's own P/E (s47user: KCCS 0.67 on answers stating every
#: element verbatim); a table row "| ... the market | P/E 6x |" did the same.
_BOUNDARY_MARKS = ":;,|\r\n"
_WORD_GAP = r"(?:[^\w" + re.escape(_BOUNDARY_MARKS) + r"]|_)+"


def _flexible(literal: str) -> str:
    """A regex for literal element text: its words in order, any punctuation, spacing or underscores between them
    except a mark that ends a label, a clause or a cell (:data:`_BOUNDARY_MARKS`) where the literal has none.

    >>> bool(re.fullmatch(_flexible("market P/E"), "market P/E")), bool(re.fullmatch(_flexible("market P/E"), "market: P/E"))
    (True, False)
    """
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^\W_]+", literal)]
    if not spans:
        return _junction(literal)
    lead = literal[: spans[0][0]]
    trail = literal[spans[-1][1] :]
    out = [re.escape(literal[spans[0][0] : spans[0][1]])]
    for (_, prev_end), (a, b) in zip(spans, spans[1:]):
        own = literal[prev_end:a]
        out.append(_TEMPLATE_GAP if any(c in _BOUNDARY_MARKS for c in own) else _WORD_GAP)
        out.append(re.escape(literal[a:b]))
    return _junction(lead) + "".join(out) + _junction(trail)


def _junction(chars: str) -> str:
    """A regex for the punctuation joining a literal to a field: spacing free, "~" optional, each other mark one mark of any kind.

    A mark never takes a field's "$": "intrinsic ~{value}" reads "intrinsic $25B" as $25B.
    """
    return "".join(r"[ \t]*" if c.isspace() else r"[~\u2248]?" if c in "~\u2248" else r"[^\w\s$]" for c in chars)


def _template_pattern(text: str, card: Card) -> tuple[re.Pattern[str] | None, list[tuple[str, str, str | None, tuple[str, ...]]]]:
    """A regex reading ``text`` (a template or plain words) back verbatim, its fields filled as the engine renders them (category values with
    spaces for underscores, ``true``/``false``, numbers, ``unknown``), and the (group, kind, unit, values) of each field."""
    slots: list[tuple[str, str, str | None, tuple[str, ...]]] = []
    parts: list[str] = []
    pos = 0
    for i, m in enumerate(ELEMENT_FIELD.finditer(text)):
        lit = _flexible(text[pos : m.start()])
        if lit:
            parts.append(lit)
        pos = m.end()
        symbol = card.symbols.get(m.group(1))
        kind = getattr(symbol, "kind", None) or "number"
        unit = getattr(symbol, "unit", None)
        unit = None if unit == MIXED else unit
        values = tuple(str(v) for v in (getattr(symbol, "values", None) or ()))
        group = f"f{i}"
        if kind == "category" and values:
            alts = [_TEMPLATE_GAP.join(re.escape(w) for w in re.findall(r"[^\W_]+", v)) or re.escape(v)
                    for v in sorted(values, key=len, reverse=True)]
            body = "|".join(alts)
        elif kind == "bool":
            body = "true|false|yes|no"
        elif kind == "number":
            body = _TEMPLATE_NUMBER
        else:
            body = r"[^\W_]++(?:[ _-][^\W_]++)*?"  # words possessive: a field splits text only at spacing
        parts.append(f"(?P<{group}>unknown|{body})")
        slots.append((group, kind, unit, values))
    lit = _flexible(text[pos:])
    if lit:
        parts.append(lit)
    try:
        return re.compile(r"(?i)(?<![^\W_])" + "".join("(?:" + p + ")" for p in parts) + r"(?![^\W_])"), slots
    except re.error:  # pragma: no cover - parts are escaped
        return None, []


def _render_slot(raw: str, kind: str, unit: str | None, values: tuple[str, ...]) -> str | None:
    """The engine's rendering of one field value read verbatim from the response."""
    low = raw.strip().lower()
    if low == "unknown":
        return "unknown"
    if kind == "bool":
        return "true" if low in ("true", "yes") else "false"
    if kind == "category":
        key = normalize(low.replace("_", " "))
        for v in values:
            if normalize(v.replace("_", " ")) == key:
                return v
        return None
    if kind == "number":
        found = find_numbers(raw.replace("\u2212", "-"))
        try:
            if found:
                exact = Decimal(str(found[0].value))
            else:  # the one number reader, strict (one field, no convention around it): "1,5" is refused, not 15
                exact = read_number(raw, strict=True).value
        except (InvalidOperation, NumberError):
            return None
        return format_value(exact, unit if unit in ("money", "ratio", "multiple") else None)
    return raw.strip()
