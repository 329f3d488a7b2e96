"""Financial abbreviations and the phrases they stand for (issue 13, gate references and elements; paper §7.5).

An analyst writes "ROCE 28%" where a card's gate says "return on capital employed", or "return on invested capital"
where the card's alias is "ROIC". A reader takes the two as one name. :data:`ABBREVIATIONS` maps each abbreviation
(normalised: "EV/EBIT" is ``ev ebit``) to the phrases it abbreviates; :func:`gate_abbreviations` gives a card's gates
the other spelling of every abbreviation or phrase their names, aliases and element texts hold, and
:func:`expansion_stems` gives the element matcher the words an abbreviation in the answer stands for.

Only abbreviations of one meaning in investment writing are listed; a phrase found inside a longer listed phrase of
the same gate ("return on capital" inside "return on capital employed") does not add its own abbreviation.
"""

from __future__ import annotations

from typing import Final, Iterable

from ipb.scoring._text import normalize, stem

__all__ = ["ABBREVIATIONS", "STEM_EXPANSIONS", "gate_abbreviations", "expansion_stems"]

#: Abbreviation (normalised) -> the phrases it stands for (normalised).
ABBREVIATIONS: Final[dict[str, tuple[str, ...]]] = {
    "roce": ("return on capital employed",),
    "roic": ("return on invested capital", "returns on invested capital"),
    "roe": ("return on equity", "return on shareholders equity", "returns on equity"),
    "roa": ("return on assets", "return on total assets"),
    "roc": ("return on capital", "returns on capital"),
    "rotc": ("return on tangible capital", "returns on tangible capital"),
    "fcf": ("free cash flow",),
    "ocf": ("operating cash flow",),
    "eps": ("earnings per share",),
    "bvps": ("book value per share",),
    "ev ebit": ("enterprise value to ebit", "ev to ebit"),
    "ev ebitda": ("enterprise value to ebitda", "ev to ebitda"),
    "ncav": ("net current asset value",),
    "nnwc": ("net net working capital",),
    "cagr": ("compound annual growth rate",),
    "dcf": ("discounted cash flow",),
    "p e": ("price to earnings", "price earnings ratio", "price earnings multiple"),
    "p b": ("price to book", "price book ratio"),
    "d e": ("debt to equity",),
}


def _found(text: str) -> set[str]:
    """The abbreviations and phrases of :data:`ABBREVIATIONS` in ``text`` (normalised, padded with spaces), a phrase
    inside a longer one found there left out."""
    hits = {k for k in ABBREVIATIONS if f" {k} " in text}
    hits |= {p for phrases in ABBREVIATIONS.values() for p in phrases if f" {p} " in text}
    return {h for h in hits if not any(h != o and f" {h} " in f" {o} " for o in hits)}


def _other_spellings(found: set[str]) -> set[str]:
    """For each abbreviation or phrase in ``found``, the spellings of the same name not in it."""
    out: set[str] = set()
    for abbr, phrases in ABBREVIATIONS.items():
        names = {abbr, *phrases}
        if names & found:
            out |= names - found
    return out


def gate_abbreviations(gates: Iterable[tuple[int, Iterable[str], Iterable[str]]]) -> dict[str, tuple[int, str]]:
    """Spelling -> (gate number, how) for the other spellings of the abbreviations and phrases that one gate only holds.

    ``gates`` gives each gate's number, its name and aliases, and its element texts. A spelling from a name or alias
    is read as an ``alias``, one from an element text as a ``substance`` phrase (:mod:`._card`); a spelling two
    gates could claim names neither.

    >>> gate_abbreviations([(1, ["Return on capital employed"], []), (2, ["Cheap"], ["EV/EBIT {x}"])])
    {'roce': (1, 'alias'), 'enterprise value to ebit': (2, 'substance'), 'ev to ebit': (2, 'substance')}
    """
    claims: dict[str, list[tuple[int, str]]] = {}
    for number, labels, elements in gates:
        in_labels = _found(" " + " | ".join(normalize(t) for t in labels) + " ")
        in_elements = _found(" " + " | ".join(normalize(t) for t in elements) + " ")
        named = _other_spellings(in_labels)
        described = _other_spellings(in_elements) - named
        for spelling in in_labels | in_elements:  # a spelling the gate writes itself: another gate may not take it
            claims.setdefault(spelling, []).append((number, "held"))
        for spelling, how in [*((s, "alias") for s in sorted(named)), *((s, "substance") for s in sorted(described))]:
            claims.setdefault(spelling, []).append((number, how))
    return {s: c[0] for s, c in claims.items() if len({n for n, _ in c}) == 1 and c[0][1] != "held"}


#: The stem of a one-word abbreviation -> the stems of the words it stands for (its first phrase); the element matcher
#: looks a sentence's new stems up here (one dictionary look-up per distinct stem).
STEM_EXPANSIONS: Final[dict[str, tuple[str, ...]]] = {
    stem(abbr): tuple(stem(w) for w in phrases[0].split() if w not in ("on", "to", "per"))
    for abbr, phrases in ABBREVIATIONS.items() if " " not in abbr
}


def expansion_stems(token: str) -> tuple[str, ...]:
    """The stems of the words an abbreviation ``token`` of the answer stands for ("ROCE" -> return, capital, employ),
    or ``()``.

    >>> expansion_stems("FCF") == tuple(stem(w) for w in ("free", "cash", "flow")), expansion_stems("cash")
    (True, ())
    """
    if len(token) > 5 or not token.isalpha():
        return ()
    return STEM_EXPANSIONS.get(stem(token), ())
