"""Source attribution: SAP@1, SAP@2, SAP@3 (paper §7.8).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from rapidfuzz.distance import Levenshtein

from ipb.errors import ScoreError
from ipb.scoring.metrics._case import _TITLE_NORM, Case, InvestorProfile, SourceRef, _year_of, investor_matches  # noqa: F401
from ipb.scoring.metrics._matching import _norm
from ipb.scoring.registry import metric


def _edit_within(a: str, b: str, k: int) -> bool:
    """``edit_distance(a, b) <= k`` for strings, bounded and at C speed (rapidfuzz Levenshtein).

    >>> _edit_within("owners manual", "owner s manual", 3), _edit_within("kitten", "sitting", 2)
    (True, False)
    """
    return bool(Levenshtein.distance(a, b, score_cutoff=k) <= k)




_SECTION_NUMBER = re.compile(
    r"(?:\b(?:ch(?:apters?|s)?|sec(?:tions?|s)?|parts?)\.?|§§?)[ \t]*(?P<first>\d+|[ivxl]+\b)"
    r"(?:[ \t]*(?:-|\u2013|to)[ \t]*(?P<last>\d+|[ivxl]+\b))?",
    re.IGNORECASE,
)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50}


def _section_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    values = [_ROMAN[c] for c in token.lower()]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return total if total > 0 else None


def section_numbers(text: str) -> set[int]:
    """Chapter, section and part numbers named in ``text`` (SAP@3's context check, §7.8).

    Arabic or Roman numerals after ch./chapter/sec./section/part/§, and every
    number of a range ("ch. 5-7", up to 50 wide).

    >>> sorted(section_numbers("Ch. 20; Part III; chapters 5-7 and § 2"))
    [2, 3, 5, 6, 7, 20]
    """
    out: set[int] = set()
    for m in _SECTION_NUMBER.finditer(text):
        first = _section_number(m.group("first"))
        if first is None:
            continue
        last = _section_number(m.group("last")) if m.group("last") else None
        if last is not None and first < last <= first + 50:
            out.update(range(first, last + 1))
        else:
            out.add(first)
    return out


def _primary_investor_hit(case: Case, investor: InvestorProfile) -> bool:
    names = [a.get("investor") for a in case.parsed.get("attributions") or () if isinstance(a, Mapping)]
    names = [n for n in names if n]
    if not names:
        names = [c.get("entity") for c in case.parsed.get("citations") or () if isinstance(c, Mapping)]
        names = [n for n in names if n]
    if not names:
        return False
    hits = sum(1 for n in names if investor.matches(n))
    if hits == 0:
        return False
    others: dict[str, int] = {}
    for n in names:
        if not investor.matches(n):
            key = _TITLE_NORM.sub(" ", str(n).lower()).split()[-1] if str(n).strip() else ""
            others[key] = others.get(key, 0) + 1
    return hits >= max(others.values(), default=0)


def _title_key(title: object) -> str:
    text = _TITLE_NORM.sub(" ", str(title or "").lower()).strip()
    return text[4:] if text.startswith("the ") else text


def _source_title_keys(document: object) -> tuple[str, ...]:
    """A source's title keys: its whole title and, when it has a subtitle after a colon, its main title alone.

    Writers cite a book by its main title ("Margin of Safety (1991)" for *Margin of Safety: Risk-Averse Value
    Investing Strategies for the Thoughtful Investor*); §7.8's edit distance of 3 is measured against either.

    >>> _source_title_keys("Margin of Safety: Risk-Averse Value Investing")
    ('margin of safety risk averse value investing', 'margin of safety')
    >>> _source_title_keys("The Intelligent Investor")
    ('intelligent investor',)
    """
    whole = _title_key(document)
    main = _title_key(str(document or "").split(":", 1)[0]) if ":" in str(document or "") else ""
    return (whole, main) if main and main != whole else (whole,)


def _document_hits(case: Case, investor: InvestorProfile) -> list[tuple[Mapping[str, Any], SourceRef]]:
    hits = []
    for c in case.parsed.get("citations") or ():
        if not isinstance(c, Mapping):
            continue
        entity = c.get("entity")
        if entity and not investor.matches(entity):
            continue
        year = _year_of(c.get("year"))
        title = _title_key(c.get("document"))
        if year is None or not title:
            continue
        for s in case.sources:
            if s.year is None or abs(year - s.year) > 1:
                continue
            if any(_edit_within(title, key, 3) for key in _source_title_keys(s.document)):
                hits.append((c, s))
    return hits


def _context_hit(case: Case, citation: Mapping[str, Any], source: SourceRef) -> bool:
    if not source.context:
        return False
    stated = " ".join(str(citation.get(k) or "") for k in ("context", "section", "chapter", "locator"))
    gold_numbers = section_numbers(source.context)
    if gold_numbers:
        for haystack in (stated, case.text):
            if gold_numbers & section_numbers(haystack):
                return True
        return False
    key = _norm(source.context)
    if not key:
        return False
    if stated.strip() and _edit_within(_norm(stated), key, 3):
        return True
    return f" {key} " in f" {_norm(case.text)} "


#: The layers whose questions ask for a source (§5.4's L1 principle, L2 source and L3 context questions; Appendix D
#: gives SAP@k these as its primary layers). On every other layer the question asks for a decision or a
#: reconstruction, and an answer that attributes nothing has no attribution to be precise about (:func:`sap_at_k`).
ATTRIBUTION_LAYERS = frozenset({"L1", "L2", "L3"})


def attributes_nothing(case: Case) -> bool:
    """True when the parsed answer names no attributed investor and cites no document.

    >>> from ipb.scoring.metrics import Case
    >>> attributes_nothing(Case(gold={}, parsed={"status": "ok", "attributions": [], "citations": []}))
    True
    >>> attributes_nothing(Case(gold={}, parsed={"status": "ok", "attributions": [{"investor": "Graham"}]}))
    False
    """
    for key in ("attributions", "citations"):
        if any(isinstance(a, Mapping) and any(a.get(f) for f in ("investor", "entity", "document"))
               for a in case.parsed.get(key) or ()):
            return False
    return True


def unasked(case: Case) -> bool:
    """True when the item's question does not ask for a source: a known layer outside :data:`ATTRIBUTION_LAYERS`.

    >>> from ipb.scoring.metrics import Case
    >>> unasked(Case(gold={}, parsed={}, layer="L7")), unasked(Case(gold={}, parsed={}, layer="L2"))
    (True, False)
    """
    return case.layer is not None and case.layer.upper() not in ATTRIBUTION_LAYERS


def sap_at_k(case: Case, k: int) -> float | None:
    """Source Attribution Precision at level ``k`` for one response (§7.8).

    One entity matcher (:func:`investor_matches`) at every level, and each
    level requires the one below, so SAP@3 <= SAP@2 <= SAP@1 holds for every
    response (the cascade the W1 extractor broke):

    1. investor: the response's primary attributed investor (the most often
       attributed; the gold investor, by name or registry alias, must have
       at least as many attributions as any other; citations' entities when
       there are no attributions) is the gold investor;
    2. document: level 1, and a citation (entity absent or the gold
       investor) whose year is within ±1 of a gold source's year and whose
       title is within edit distance 3 of it (case, punctuation and a leading
       "The" ignored);
    3. context: level 2, and for that same citation and source the gold
       chapter/section is verified: one of its numbers (:func:`section_numbers`:
       Arabic or Roman, ranges expanded) in the citation's locator or in the
       response text, or (no number) its words in either. This is a
       deterministic stand-in for the paper's LLM-judge check, lenient in one
       way: a matching number anywhere in the response counts.

    **An attribution the question never asked for.** SAP@k is a precision
    (§7.8: "fraction of responses whose attributed investor matches ground
    truth"): it judges the attributions an answer makes. On an item whose
    question asks for a decision or a reconstruction, not a source (a layer
    outside :data:`ATTRIBUTION_LAYERS`, L4-L8), an answer whose gates were
    read and that attributes nothing and cites nothing has nothing to be
    precise about, so every level is None there (not applicable: the layer
    composite renormalises over its other terms, and the BASP-strict SAP
    gate is not evaluated). Before stop 50 it was 0, and a chatty L7 answer
    that added "Graham wrote up the method in 1946" to the same gates
    outranked the faultless answer without it (s49user: 0.982 against
    0.839). A wrong attribution still scores 0 on every layer, and on L1-L3,
    where the question asks for the source, so does none. An answer of which
    no gate was read (``trace_unread``: a bare final verdict) keeps 0 too, so
    the term lifts no answer the scorer could not read, and a refusal or
    parse failure still owes SAP (0) wherever the item has an investor.

    Returns
    -------
    float in {0, 1}, or None when the level has no ground truth (no investor;
    no gold source for k >= 2; no source context for k = 3) or when the
    answer attributes nothing on an item that did not ask for a source.

    Raises
    ------
    ScoreError
        ``k`` not in 1..3, or a parse failure.

    References
    ----------
    InvestPhilBench §7.8.
    """
    case.require_ok()
    if k not in (1, 2, 3):
        raise ScoreError(f"SAP level must be 1, 2 or 3, not {k}", rule="sap", name=str(k))
    if case.investor is None:
        return None
    if k >= 2 and not case.sources:
        return None
    if k == 3 and not any(s.context for s in case.sources):
        return None
    if unasked(case) and attributes_nothing(case) and case.parsed.get("gates"):
        # no gate read (a bare final verdict, or the empty answer a failure's owed metrics are probed with) keeps 0
        return None
    if not _primary_investor_hit(case, case.investor):
        return 0.0
    if k == 1:
        return 1.0
    hits = _document_hits(case, case.investor)
    if k == 2:
        return 1.0 if hits else 0.0
    return 1.0 if any(_context_hit(case, c, s) for c, s in hits) else 0.0


@metric("sap@1", section="§7.8", layers=("L1", "L7"))
def sap1(case: Case) -> float | None:
    """SAP@1, investor attribution: see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 1)


@metric("sap@2", section="§7.8", layers=("L2", "L4", "L5"))
def sap2(case: Case) -> float | None:
    """SAP@2, document attribution (year ±1, title edit distance <= 3): see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 2)


@metric("sap@3", section="§7.8", layers=("L3", "W1"))
def sap3(case: Case) -> float | None:
    """SAP@3, context attribution (chapter/section): see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 3)


