"""``ipb check``'s warning for a money input that reads like a company's market value but that the regime
registry does not bound by year (rule ``unbounded-size``, s57nufix W1).

A market value is held to its year's largest company (``sizes.largest`` of ``frameworks/regimes.yaml``) only
when :meth:`~ipb.perturb.regime_registry.RegimeRegistry.is_market_size` recognises it: by name, or by a label
(else description) that is the figure's own noun phrase. A figure worded another way is drawn from its whole
range in every year, so a 1990 item may value a company at twice the largest of that year with no one told;
this check names the input and how to mark it.
"""

from __future__ import annotations

import re

from ipb.engine.card import Card
from ipb.errors import IpbError, LintWarning
from ipb.perturb.regime_registry import _MOOD_PHRASE, _MOOD_WORDS, RegimeRegistry

__all__ = ["market_by_name_warnings", "unbounded_size_warnings"]

#: Words that make an input look like the company's market value: at the start of its label or description,
#: or the words of its name.
_LOOKS = re.compile(r"(?:the |its |current |latest )?(?:market (?:value|cap|capitali[sz]ation|equity)|"
                    r"equity market value|mkt cap)\b", re.I)
#: What a part of a company is called: a stake's market value is not the company's size.
_PART = re.compile(r"\b(?:stake|position|holding|investment|per share|security)\b", re.I)


def _looks_like_market_value(name: str, text: str) -> bool:
    """True when the input's name has ``market`` (or ``mkt``) beside ``value``, ``cap`` or ``equity``, or its
    text opens with a market-value phrase, and nothing in the text makes it a part of the company.

    >>> _looks_like_market_value("mve", "market value of the common and preferred equity, in total")
    True
    >>> _looks_like_market_value("purchase_price", "Market value of the stake at the proposed price")
    False
    >>> _looks_like_market_value("market_equity_total", "")
    True
    """
    words = set(name.lower().split("_"))
    named = bool(words & {"market", "mkt"}) and bool(words & {"value", "cap", "equity", "capitalization",
                                                              "capitalisation"})
    return (named or bool(_LOOKS.match(text.strip()))) and not _PART.search(text)


def unbounded_size_warnings(card: Card, regimes: RegimeRegistry | None = None) -> list[IpbError]:
    """One warning per money input of ``card`` that looks like the company's market value
    (:func:`_looks_like_market_value`) but is not bounded by year as one; placed at the input when the card
    has its YAML."""
    if regimes is None:
        from ipb.perturb.registries import bundled_regimes

        regimes = bundled_regimes()
    found: list[IpbError] = []
    for name, spec in card.inputs.items():
        if spec.type != "money" or regimes.is_size(spec):
            continue
        if not _looks_like_market_value(name, spec.label or spec.description):
            continue
        warning: IpbError = LintWarning(
            f"input {name!r} reads like the company's market value but is not recognised as one, so no year bounds "
            "it (sizes.largest of frameworks/regimes.yaml: a dated item may value the company above the largest "
            "company of its year); if it is the company's market value, give it 'label: market capitalisation' "
            "(or name it market_cap); if it is a part of a company, say so in its description ('market value of "
            "the stake') (docs/perturbation.md, 'Size figures')", rule="unbounded-size", name=name)
        doc = card.doc
        if doc is not None:
            try:
                line, column = doc.locate_key(("inputs", name))
            except (KeyError, IndexError, TypeError, ValueError):
                line, column = 1, 1
            warning = warning.with_location(doc.file, line, column, doc.source_line(line))
        found.append(warning)
    return found


def _located(card: Card, warning: IpbError, name: str) -> IpbError:
    doc = card.doc
    if doc is None:
        return warning
    try:
        line, column = doc.locate_key(("inputs", name))
    except (KeyError, IndexError, TypeError, ValueError):
        line, column = 1, 1
    return warning.with_location(doc.file, line, column, doc.source_line(line))


def market_by_name_warnings(card: Card, regimes: RegimeRegistry | None = None) -> list[IpbError]:
    """One warning per input of ``card`` that ``ipb perturb`` takes for the market's state at the date by its name
    alone (rule ``market-state-by-name``): a word of the name is ``sentiment``, ``psychology`` or ``mood``
    (:meth:`~ipb.perturb.regime_registry.RegimeRegistry.is_market_state`), the input has no ``describes:``, is not
    listed in ``market_state`` of the regimes file, and its label (else description) does not itself open with
    such a phrase.

    s58user F-C5: ``analyst_sentiment``, the stock's buy ratings, was counted as market state, so 38 items of a
    run that moved it lost their date; ``describes: company`` mends it, but ``ipb check`` did not say so.
    """
    if regimes is None:
        from ipb.perturb.registries import bundled_regimes

        regimes = bundled_regimes()
    found: list[IpbError] = []
    for name, spec in card.inputs.items():
        if spec.describes or name in regimes.market_state:
            continue
        words = [w for w in name.lower().split("_") if w in _MOOD_WORDS]
        if not words or _MOOD_PHRASE.match(spec.label.strip() or spec.description.strip()):
            continue
        found.append(_located(card, LintWarning(
            f"input {name!r} is taken for the market's state at the decision date because its name holds the word "
            f"{words[0]!r}: an item in which ipb perturb moves it is undated (no as_of, no decision date), and "
            "temporal drops it where the regime does not set it; if it is the company's own fact (its analysts' "
            "ratings, say) add 'describes: company', if it is the market's mood add 'describes: market' "
            "(docs/perturbation.md, 'Dates that fit the facts')", rule="market-state-by-name", name=name), name))
    return found
