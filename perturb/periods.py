"""The period a macro growth figure covers, read from its words (issue 18; s38review, seed 9292, Dalio C #50).

A flow figure such as GDP growth is stated over a period: the latest quarter at an annual rate (the headline
of a United States GDP release) or the change over the four quarters to it (the year's change). The two can
differ by several points at a turning point: on 9 March 2009 real GDP had fallen at a 6.2% annual rate in the
fourth quarter of 2008 but only 0.8% over the year to it. A regime figure of one period stated in a card input
that names the other is a contradiction of the date, so:

- a regime fact declares ``periods:`` in ``frameworks/regimes.yaml`` (the first is what ``value`` covers; the
  others are keys of a regime's entry, e.g. ``year: -0.8%``), and its description's period words must agree
  with the first (:func:`fact_period_errors`, run by the loader);
- temporal displacement copies into an input the figure of the period the input's words name, and leaves the
  input undisclosed when the regime has none of that period (:func:`period_value`);
- ``ipb check`` reports a card input matched to a regime fact whose period words name a period the fact never
  gives (:func:`card_period_errors`), so the mismatch cannot come back through a new card.

Period names: ``year`` (over the past year, year on year, four quarters), ``quarter_annualised`` (the latest
quarter at an annual rate) and ``month`` (month on month). A text with words of neither, or of both, names no period.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ipb.errors import PerturbError

if TYPE_CHECKING:
    from ipb.engine.card import Card, InputSpec
    from ipb.engine._yaml import YamlDoc
    from ipb.perturb.registries import MetricDef, RegimeFact, RegimeRegistry

__all__ = ["PERIODS", "period_of", "input_period", "period_value", "card_period_errors", "fact_period_errors"]

#: The periods a regime fact may declare, in the order a reader would name them (``month`` is read so that a card
#: input stated month on month is caught by ``ipb check`` against a fact that gives no monthly figure).
PERIODS = ("month", "quarter_annualised", "year")

_SAID = {"month": "month on month", "quarter_annualised": "for the latest quarter at an annual rate",
         "year": "over the past year"}

_WORDS = {
    "month": re.compile(r"\b(?:month[- ]on[- ]month|over the (?:past|last|latest|previous) month|monthly|in the (?:past|last) month)\b",
                        re.I),
    "quarter_annualised": re.compile(
        r"\b(?:annuali[sz]ed|at an annual rate|latest quarter|last quarter|quarter[- ]on[- ]quarter|quarterly|"
        r"saar)\b", re.I),
    "year": re.compile(
        r"\b(?:over the (?:past|last|latest|previous|preceding) (?:year|twelve months|12 months|four quarters)|"
        r"in the (?:past|last) year|year[- ](?:on|over)[- ]year|four[- ]quarters?|from a year (?:earlier|ago)|"
        r"(?:twelve|12)[- ]month)\b", re.I),
}


def period_of(text: str) -> str | None:
    """The one period ``text`` names (a key of :data:`PERIODS`), or None when it names none or both.

    >>> period_of("Real GDP growth over the past year.")
    'year'
    >>> period_of("Real GDP growth (latest quarter, annualised).")
    'quarter_annualised'
    >>> period_of("Ten-year government bond yield.") is None
    True
    >>> period_of("Consumer prices, month on month.")
    'month'
    """
    found = [p for p, words in _WORDS.items() if words.search(text or "")]
    return found[0] if len(found) == 1 else None


def input_period(spec: InputSpec) -> str | None:
    """The period a card input's words name: its label, then its phrase, then its description (the first that
    names one), as a question states the input."""
    for text in (spec.label, spec.phrase, spec.description):
        period = period_of(text)
        if period is not None:
            return period
    return None


def period_value(spec: InputSpec, metric: MetricDef, fact: RegimeFact) -> Any | None:
    """The figure of a regime ``fact`` (as written in the registry) that input ``spec`` may state, or None.

    A fact with no declared periods (a level: a policy rate, a yield) gives its ``value``. Otherwise the input's
    period (:func:`input_period`) picks the entry of that period (``value`` for the first declared period), an
    input naming no period takes ``value``, and an input naming a period the entry does not give takes nothing:
    the item leaves it undisclosed rather than state a figure of another period under its words.
    """
    if not metric.periods:
        return fact.value
    want = input_period(spec)
    if want is None or want == metric.periods[0]:
        return fact.value
    return fact.by_period.get(want)


def fact_period_errors(metric: MetricDef) -> list[str]:
    """Messages for a registry fact whose description's period words disagree with its first declared period
    (what its ``value`` covers); empty when they agree, or when either says nothing of a period."""
    said = period_of(metric.description)
    if metric.periods and said is not None and said != metric.periods[0]:
        return [f"fact {metric.id!r} is described as {said.replace('_', ' ')} ({metric.description.strip()!r}) but "
                f"declares that its value covers {metric.periods[0].replace('_', ' ')} (periods: "
                f"{list(metric.periods)}): a card input would state it under the wrong period"]
    return []


def card_period_errors(card: Card, doc: YamlDoc | None = None, regimes: RegimeRegistry | None = None
                       ) -> list[PerturbError]:
    """One error per numeric input of ``card`` that stands for a regime macro fact (by name or alias) and whose
    words name a period the fact never gives (its ``periods:``), placed at the input in ``doc`` when given.

    ``ipb check`` reports these: temporal displacement would leave such an input undisclosed in every regime,
    and a card author who wrote "over the past year" for a figure the registry holds only as an annualised
    quarter should learn it from the check, not from a reviewer.
    """
    if regimes is None:
        from ipb.perturb.registries import bundled_regimes

        regimes = bundled_regimes()
    found: list[PerturbError] = []
    for spec in card.inputs.values():
        if spec.describes == "company":
            continue
        metric = regimes.fact_for(spec)
        if metric is None or not metric.periods:
            continue
        want = input_period(spec)
        if want is None or want in metric.periods:
            continue
        exc = PerturbError(
            f"input {spec.name!r} of card {card.id!r} is stated {_SAID[want]} but stands for the macro fact "
            f"{metric.id!r} of {regimes.file}, which gives it only {' or '.join(_SAID[p] for p in metric.periods)}: "
            "a regime figure of another period would contradict its words; reword the input or add that period to the "
            "fact", rule="period", name=spec.name)
        found.append(exc if doc is None else doc.place(exc, ("inputs", spec.name)))
    return found
