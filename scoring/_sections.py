"""Each target's part of a multi-card (L8) answer, and the text helpers ``ipb score`` parses with.

Imports: :mod:`ipb.scoring._text` and :mod:`ipb.scoring.items`.
"""

from __future__ import annotations

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
    owners = {k for _, k in starts}
    if owners != set(range(len(targets))) and not (owners and laid_out):
        return None
    sections: list[list[tuple[int, int]]] = [[] for _ in targets]
    for i, (start, k) in enumerate(starts):
        end = len(text)
        for later, other in starts[i + 1:]:
            if other != k:
                end = later
                break
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
