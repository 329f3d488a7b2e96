"""Each target's part of a multi-card (L8) answer, and the text helpers ``ipb score`` parses with.

Imports: :mod:`ipb.scoring._text` and :mod:`ipb.scoring.items`.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ipb.scoring._text import blank_spans
from ipb.scoring.items import Target

def _year(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _keep(text: str, spans: Sequence[Sequence[int]]) -> str:
    """``text`` with everything outside ``spans`` blanked (newlines kept): offsets stay offsets of ``text``."""
    gaps, pos = [], 0
    for a, b in sorted((int(a), int(b)) for a, b in spans):
        if a > pos:
            gaps.append((pos, a))
        pos = max(pos, b)
    gaps.append((pos, len(text)))
    return blank_spans(text, gaps)


def _names_of(target: Target) -> list[str]:
    return _card_names(target.card_id, getattr(target.compiled, "card", None), target.investor)


def _card_names(card_id: str, card: Any, investor: str | None) -> list[str]:
    """Lower-cased names of a card and its investor: the id in words, the name, the investor, their surname."""
    names = [card_id.replace("_", " ")]
    if card is not None:
        names.append(card.name)
    if investor:
        head = investor.split(" (")[0].strip()
        names += [investor, head]
        if " " in head:
            names.append(head.split()[-1])
    return [n.lower() for n in dict.fromkeys(names) if n]


#: A line longer than this is prose, not a section heading.
_HEADING_CHARS = 160

#: A line's lead before its label: quote marks, a list marker ("-", "*", "+", "•", "1.", "2)") and emphasis.
_LEAD = re.compile(r"[ \t>]*(?:[-*+\u2022][ \t]+|\d{1,3}[.)][ \t]+)?[*_ \t]*")
#: Where a label ends: a colon, or a dash set off by spaces (" - ", " \u2013 ", " \u2014 ") or an unspaced long dash.
_LABEL_END = re.compile(r":|[ \t][-\u2013\u2014][ \t]|\u2014")
#: A label longer than this (lower-cased, emphasis removed) is a sentence, not a name.
_LABEL_CHARS = 80


def _named_label(line: str, names: Sequence[Sequence[str]]) -> int | None:
    """The target whose name opens ``line``'s label ("- Warren Buffett: ...", "**Marks** - ..."), or None.

    s65 (F1): an L8 answer written as one bullet or one line per investor
    ("- Ray Dalio: the ... test probably fails here, so ...") had no heading
    (bullets and lines over 160 characters were never headings), so every
    card was read over the whole answer and one investor's line gave another
    card's gates. The label is the text between the line's lead (list marker,
    emphasis) and its first colon or spaced dash, at most 80 characters; it
    opens a section when it starts with a name of exactly one target (the
    name ending at a non-letter) and names no other target. Linear in the
    line: one anchored match, one search, then substring tests of the names.

    Parameters
    ----------
    line : str
        One line of the answer, lower-cased.
    names : sequence of sequence of str
        Each target's lower-cased names (:func:`_card_names`).

    Returns
    -------
    int or None
        The index of the target, or None.

    Examples
    --------
    >>> names = [["warren buffett", "buffett"], ["ray dalio", "dalio"]]
    >>> _named_label("- warren buffett: most tests pass, unlike dalio's", names)
    0
    >>> _named_label("* **dalio** - the bubble test fails", names)
    1
    >>> _named_label("- buffett vs dalio: compare", names) is None
    True
    >>> _named_label("- gate 2 (buffett): proceed", names) is None
    True
    """
    lead = _LEAD.match(line)
    start = lead.end() if lead else 0
    end = _LABEL_END.search(line, start, start + _LABEL_CHARS + 3)
    if end is None:
        return None
    label = line[start:end.start()].replace("*", " ").replace("_", " ").strip()
    if not label or len(label) > _LABEL_CHARS:
        return None
    opening = {k for k, ns in enumerate(names)
               if any(label.startswith(n) and (len(label) == len(n) or not label[len(n)].isalnum()) for n in ns)}
    named = {k for k, ns in enumerate(names) if any(n in label for n in ns)}
    if len(opening) == 1 and named == opening:
        return next(iter(opening))
    return None


def _target_sections(text: str, targets: Sequence[Target]) -> list[list[tuple[int, int]]] | None:
    """Each target's part of a multi-card answer (L8), or None when the answer is not laid out per card.

    A *heading* is a short line (a markdown heading, a bold label, a line
    ending in a colon, or any line under 160 characters) that names exactly
    one target: its investor (full or short name) or its card (name or id).
    Each target's section runs from each of its headings to the next heading
    of another target. When some target has no heading the answer is parsed
    whole for every card (numbered references such as "Gate 2" are then
    ambiguous between the cards), unless a heading naming a target is marked
    as one (``#``, ``**``, ``__`` or a trailing colon): the answer is then laid
    out per card, and a target with no heading gets only the text under no
    target's heading (none, when the answer starts with a heading).

    A line of any length whose label (after a list marker and emphasis, up to
    a colon or a spaced dash) opens with one target's name and names no other
    is a marked heading too (:func:`_named_label`): an answer written as one
    bullet or one line per investor is read per investor (paper §7.5), so
    another investor's line is not read into a card.
    """
    names = [_names_of(t) for t in targets]
    starts: list[tuple[int, int]] = []
    laid_out = False
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip().lower()
        if stripped and len(stripped) <= _HEADING_CHARS:
            hits = [k for k, ns in enumerate(names) if any(n in stripped for n in ns)]
            marked = stripped.startswith(("#", "**", "__")) or stripped.endswith(":")
            if len(set(hits)) == 1 and (marked or not stripped.startswith(("gate", "step", "-", "*", "|"))):
                starts.append((pos, hits[0]))
                laid_out = laid_out or marked
                pos += len(line)
                continue
        owner = _named_label(line.lower(), names) if stripped else None
        if owner is not None:
            starts.append((pos, owner))
            laid_out = True
        pos += len(line)
    owners = {k for _, k in starts}
    if owners != set(range(len(targets))) and not (owners and laid_out):
        return None
    sections: list[list[tuple[int, int]]] = [[] for _ in targets]
    # each heading's section ends at the next heading of another target: one pass from the end (s65: the scan of the
    # later headings for each one was quadratic in the headings, 6 s for 40,000 one-line investor bullets)
    end_of = [len(text)] * len(starts)
    for i in range(len(starts) - 2, -1, -1):
        end_of[i] = starts[i + 1][0] if starts[i + 1][1] != starts[i][1] else end_of[i + 1]
    for (start, k), end in zip(starts, end_of):
        sections[k].append((start, end))
    merged = [_merge(s) for s in sections]
    if len(owners) < len(targets):
        # s49break: an answer laid out under marked headings (a markdown heading, a bold label, a line ending in
        # a colon) for some cards only was parsed whole for the others, so one investor's section scored every
        # card (GRA 1.0 on a card it never named). A card with no heading gets only the text under no heading.
        claimed = _merge([span for spans in merged for span in spans])
        free, at = [], 0
        for a, b in claimed:
            if a > at:
                free.append((at, a))
            at = max(at, b)
        if at < len(text):
            free.append((at, len(text)))
        merged = [spans if k in owners else list(free) for k, spans in enumerate(merged)]
    return merged


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _vocabulary(target: Target) -> list[str]:
    """Names of a target's card, investor and gates (an answer sharing none of their words is off topic)."""
    return _with_gates(_names_of(target), getattr(target.compiled, "card", None))


def card_vocabulary(card: Any) -> list[str]:
    """:func:`_vocabulary` of a loaded card on its own (``ipb parse``: no item, the card's own investor)."""
    return _with_gates(_card_names(str(card.id), card, getattr(card, "investor", None)), card)


def _with_gates(names: list[str], card: Any) -> list[str]:
    names = list(names)
    for gate in getattr(card, "gates", ()) or ():
        names.append(str(getattr(gate, "name", "") or ""))
        names += [str(a) for a in getattr(gate, "aliases", ()) or ()]
    return names
