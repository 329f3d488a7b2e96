"""Invisible characters inside words: read through, with every span still an offset into the answer as written.

Zero-width spaces, non-joiners and joiners, the word joiner, a byte-order mark (U+FEFF, also a zero-width no-break
space) and the soft hyphen print nothing, but they split a word for every pattern that reads it: ``PRO\u200bCEED``,
``REJ\u00adECT`` and ``DEC\u2060LINE`` were no verdicts, and ``Gate\u200b3`` no gate (issue 13, s24break finding 1).
Text copied from web pages and chat interfaces carries them (soft hyphens for line breaking, zero-width spaces between
tokens, a BOM at the start of a file).

The parser's reading views must keep the answer's length (:func:`ipb.scoring._text.plain_spacing`), so these
characters cannot be deleted there. Instead :func:`strip_invisible` removes them before the parse and
:func:`restore_spans` maps every span of the reading back onto the answer as written: a span starts at its first
visible character and ends after its last one, so ``text[span]`` is the stated word with its invisible characters
inside it. Texts the parser copies from the answer (an attribution's claim, a number as written) are taken again from
the answer as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import fields, replace
from typing import Any, Callable, TypeVar

from ipb.scoring.parse._types import ParsedResponse, Span

__all__ = ["INVISIBLE", "remap_spans", "restore_spans", "retake_copies", "strip_invisible"]

#: Characters that print nothing and only split words: U+00AD soft hyphen, U+200B zero-width space, U+200C/U+200D
#: zero-width non-joiner/joiner, U+2060 word joiner, U+FEFF byte-order mark / zero-width no-break space.
INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]+")

#: Fields of the reading's records that hold a span, a list of spans, or a text copied from the answer at ``span``.
_SPAN_FIELDS = frozenset({"span", "mention", "verdict_span", "runner_up_span", "final_verdict_span", "final_runner_up_span",
                          "implied_final_span"})
_SPAN_LIST_FIELDS = frozenset({"element_spans", "reasoning_spans"})
_COPIED_TEXT_FIELDS = frozenset({"claim", "text"})
_RECORD_LIST_FIELDS = frozenset({"gates", "invented", "attributions", "citations", "numbers", "years_found"})

T = TypeVar("T")


def strip_invisible(text: str) -> tuple[str, list[int]]:
    """``text`` without its invisible characters, and where each removed run sat in the stripped text.

    Returns
    -------
    (str, list[int])
        The stripped text, and for each removed character its offset in the stripped text (non-decreasing; empty
        when nothing was removed, and then the text is ``text`` itself). One regex pass: linear in ``len(text)``.

    >>> strip_invisible("PRO\\u200bCEED")
    ('PROCEED', [3])
    >>> strip_invisible("\\ufeffGate 1: REJ\\u00adECT")
    ('Gate 1: REJECT', [0, 11])
    >>> strip_invisible("plain")
    ('plain', [])
    """
    if INVISIBLE.search(text) is None:
        return text, []
    removed: list[int] = []
    parts: list[str] = []
    last = kept = 0
    for m in INVISIBLE.finditer(text):
        parts.append(text[last : m.start()])
        kept += m.start() - last
        removed.extend([kept] * (m.end() - m.start()))
        last = m.end()
    parts.append(text[last:])
    return "".join(parts), removed


def _start(removed: list[int], s: int) -> int:
    """Offset in the answer as written of the visible character at ``s`` of the stripped text."""
    return s + bisect_right(removed, s)


def _span(removed: list[int], span: Span) -> Span:
    start, end = span
    if end <= start:
        at = _start(removed, start)
        return (at, at)
    return (_start(removed, start), _start(removed, end - 1) + 1)


def remap_spans(record: T, to_original: Callable[[Span], Span], original: str, read: str) -> T:
    """``record`` (read from ``read``) with every span mapped onto ``original`` by ``to_original``, and every text it
    copied from the answer (an attribution's claim, a number as written) taken again from ``original``.

    Used for the invisible characters stripped here and for the decomposed sequences composed before the parse
    (:mod:`ipb._composed`, wired in :func:`ipb.scoring.parse._parser.parse_response`).
    """
    changes: dict[str, Any] = {}
    for f in fields(record):  # type: ignore[arg-type]
        value = getattr(record, f.name)
        if value is None:
            continue
        if f.name in _SPAN_FIELDS:
            changes[f.name] = to_original(value)
        elif f.name in _SPAN_LIST_FIELDS:
            changes[f.name] = [to_original(s) for s in value]
        elif f.name in _RECORD_LIST_FIELDS:
            changes[f.name] = [remap_spans(r, to_original, original, read) for r in value]
    span = getattr(record, "span", None)
    for name in _COPIED_TEXT_FIELDS:
        value = getattr(record, name, None)
        if isinstance(value, str) and value and span is not None:
            at = read.rfind(value, span[0], span[1])  # the whole span (a number), or its end (a claim after "wrote that")
            if at >= 0:
                new = to_original((at, at + len(value)))
                changes[name] = original[new[0] : new[1]]  # a claim or number as written, its invisible characters kept
    return replace(record, **changes) if changes else record  # type: ignore[type-var]


def restore_spans(parsed: ParsedResponse, removed: list[int], original: str, stripped: str) -> ParsedResponse:
    """``parsed`` (read from ``stripped``) with every span an offset into ``original`` (see :func:`strip_invisible`).

    Raises nothing; with no character removed ``parsed`` is returned unchanged. A note says how many invisible
    characters were read through.

    >>> from ipb.scoring.parse import parse_response
    >>> text = "Gate 1: PASS\\nGate 5: REJ\\u200bECT\\n\\nFinal verdict: DECLINE"
    >>> parsed = parse_response(text, "buffett_acquisition_checklist", embedder=False)
    >>> [(g.gate, g.verdict, text[slice(*g.verdict_span)]) for g in parsed.gates]
    [(1, 'PROCEED', 'PASS'), (5, 'REJECT', 'REJ\\u200bECT')]
    """
    if not removed:
        return parsed
    restored = remap_spans(parsed, lambda span: _span(removed, span), original, stripped)
    restored.notes = [*restored.notes, f"{len(removed)} invisible character(s) (zero-width space or joiner, soft hyphen, "
                                       "byte-order mark) were read through"]
    return restored


def retake_copies(parsed: ParsedResponse, written: str, read: str) -> ParsedResponse:
    """``parsed`` (read from ``read``, a same-length rewriting of ``written`` such as the Turkish dotted-I fold of
    :func:`ipb.scoring._foreign_verdicts.fold_dotted_i`) with every text it copied taken again from ``written``; spans
    are unchanged, as the two texts have the same length.

    >>> from ipb.scoring.parse import parse_response
    >>> text = "İLK KRİTER: KARŞILANMIYOR, satışlar yetersiz.\\nKriter 2: karşılanıyor."
    >>> parsed = parse_response(text, "graham_seven_tests_defensive", embedder=False)
    >>> [(g.gate, g.verdict, text[slice(*g.verdict_span)]) for g in parsed.gates]
    [(1, 'REJECT', 'KARŞILANMIYOR'), (2, 'PROCEED', 'karşılanıyor')]
    """
    assert len(written) == len(read)
    return remap_spans(parsed, lambda span: span, written, read)
