"""Question text for perturbed items, from one template per layer.

Templates ship as package data (``perturb/templates/L7.txt``, ``L8.txt``) and
are read through :mod:`importlib.resources`. Every stated fact appears in the
text as ``label value``, the value shown by
:func:`ipb.engine.execute.format_value` with its unit (``$2.5B``, ``95%``,
``7x``, ``10 years``), so every value a perturbation changed is in the
question; category values appear verbatim.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from string import Template

from ipb.errors import PerturbError
from ipb.perturb.frame import Frame, PScenario, cached_text, card_outcomes
from ipb.perturb.values import display

__all__ = ["template", "render_question", "label"]


@lru_cache(maxsize=None)
def template(layer: str) -> Template:
    """The question template of ``layer`` (``L7`` or ``L8``).

    Raises
    ------
    PerturbError
        Rule ``template``: no template ships for that layer.
    """
    try:
        text = resources.files("ipb.perturb").joinpath("templates", f"{layer}.txt").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PerturbError(f"no question template for layer {layer}", rule="template", name=layer) from None
    return Template(text.strip())


def label(name: str) -> str:
    """How the text names an input: ``revenue_retention`` -> ``revenue retention``."""
    return name.replace("_", " ")


def _outcomes(frame: Frame) -> str:
    names = card_outcomes(frame.cards[0].card)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def render_question(frame: Frame, scenario: PScenario) -> str:
    """The question text of an item: setting, facts, undisclosed inputs, and the task.

    >>> from ipb.perturb.frame import build_frame, base_from_facts
    >>> from decimal import Decimal
    >>> frame = build_frame(["buffett_acquisition_checklist"])
    >>> text = render_question(frame, base_from_facts(frame, {"ev_to_arr": Decimal(7), "arr": Decimal("2e9")}))
    >>> "arr $2B" in text and "ev to arr 7x" in text
    True
    """
    parts: list[str] = []
    if scenario.as_of is not None:
        setting = f"Decision date: {scenario.as_of.isoformat()}"
        if scenario.regime is not None:
            regime = frame.regimes.get(scenario.regime)
            setting += f", during the {regime.name}"
            if regime.description:
                setting += f" ({regime.description.rstrip('.')})"
        parts.append(setting + ".")
    if scenario.sector is not None:
        parts.append(f"Sector: {frame.sectors.get(scenario.sector).name}.")
    facts = [f"{label(n)} {cached_text(frame, 'display', n, scenario.facts[n], display)}"
             for n in frame.inputs if n in scenario.facts]
    missing = [label(n) for n in frame.inputs if n in frame.consumers and n not in scenario.facts]
    values = {
        "setting": " ".join(parts) + " " if parts else "",
        "facts": "; ".join(facts) if facts else "none stated",
        "unknown": f"Not disclosed: {', '.join(missing)}. " if missing else "",
    }
    if frame.layer == "L7":
        card = frame.cards[0].card
        values.update(investor=card.investor, framework=card.name, outcomes=_outcomes(frame))
    else:
        values.update(
            investors=_join(list(dict.fromkeys(c.card.investor for c in frame.cards))),
            frameworks="; ".join(f"{c.card.investor}: {c.card.name}" for c in frame.cards),
        )
    return template(frame.layer).substitute(values)
