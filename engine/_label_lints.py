"""``ipb check``'s ``label-states-fact`` warning: a category value's label that reads like a statement of its own
(s58 new user F-W1).

A value's label is the words the question uses for the value ("The analysts' view of the stock is out of favour").
``ipb check`` refuses a label that is blank, spans lines or holds a sentence break
(:func:`ipb.engine._card_checks.label_problem`); a label that only states a figure ("a darling: 80%+ buy") or names
another input ("neutral, with a dividend yield of 9%") is legal, but it would put a fact beside the scenario's facts,
one the perturbation never changes and the gold never reads, so it is warned about, at the label.
"""

from __future__ import annotations

import re
from typing import Any

from ipb.engine.card import Card, InputSpec
from ipb.errors import LintWarning

__all__ = ["label_warnings", "placeholder_labels"]

#: A figure: money, a percentage, a multiple, basis points, or a decimal number ("Vision 2030" is a name, not one).
_FIGURE = re.compile(r"[$€£¥]\s?\d|\d(?:[\d,.]*\d)?\s?(?:%|x\b|bps?\b|percent\b|times\b)|\d+\.\d+", re.IGNORECASE)


def _names_of(name: str, spec: InputSpec) -> list[str]:
    """How a question may name input ``name``: its label, its description (up to the first period or comma), and
    its name in words; each only when it has two words or more besides an article."""
    out = [spec.label.strip()] if spec.label.strip() else []
    first = re.split(r"[.,;:(]", spec.description, maxsplit=1)[0].strip()
    if first:
        out.append(first)
    out.append(name.replace("_", " ").strip())
    # a name of one word after its article ("the company", "sector") is too common to tell
    return [n for n in out if len(re.sub(r"^(?:the|a|an)\s+", "", n, flags=re.IGNORECASE).split()) >= 2]


def label_warnings(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path, warning) for each category value label that states a figure or names another input.

    Examples
    --------
    >>> from ipb.engine._demo import demo_card
    >>> text = '''inputs:
    ...   dividend_yield: {type: ratio, description: Dividend yield of the stock}
    ...   view:
    ...     type: category
    ...     values: [liked, shunned]
    ...     value_labels: {liked: "liked, with a dividend yield of 9%", shunned: shunned by most analysts}
    ... gates:
    ...   - {id: g, name: G, reject: "view == 'liked' or dividend_yield < 1%", required_elements: [x]}
    ... '''
    >>> for path, w in label_warnings(demo_card(text)):
    ...     print(path, w.message)
    ('inputs', 'view', 'value_labels', 'liked') value 'liked' of input 'view' is shown as 'liked, with a dividend yield of 9%', which states a figure (9%) and names input 'dividend_yield' ('dividend yield'): the question states it beside the value, and no perturbation changes it; unless it defines the value, keep the label to the value's own words
    """
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for name, spec in card.inputs.items():
        for value, display in spec.value_labels:
            why: list[str] = []
            figure = _FIGURE.search(display)
            if figure:
                why.append(f"states a figure ({figure.group(0)})")
            low = f" {display.lower()} "
            for other, other_spec in card.inputs.items():
                if other == name:
                    continue
                hit = next((n for n in _names_of(other, other_spec)
                            if re.search(r"(?<!\w)" + re.escape(n.lower()) + r"(?!\w)", low)), None)
                if hit is not None:
                    why.append(f"names input {other!r} ({hit.lower()!r})")
                    break
            if why:
                found.append((("inputs", name, "value_labels", value), LintWarning(
                    f"value {value!r} of input {name!r} is shown as {display!r}, which " + " and ".join(why)
                    + ": the question states it beside the value, and no perturbation changes it; unless it defines "
                    "the value, keep the label to the value's own words", rule="label-states-fact", name=value)))
    return found


def placeholder_labels(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path, warning) for each input whose ``label`` holds ``{value}`` (rule ``label-placeholder``).

    A label names the fact; the question writes "The <label> is <value>.", and a ``{value}`` in the label was filled
    in too (s58user F-K6: ``label: "short interest {value} days to cover"`` read "The short interest 2.5 days to
    cover is 2.5 days to cover."). A sentence with the value in it is a ``phrase:``.
    """
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for name, spec in card.inputs.items():
        field = _VALUE_FIELD.search(spec.label)
        if field is None:
            continue
        said = ("so the value is written twice" if field.group(0) == "{value}" else
                "and only an exact '{value}' is filled in, so the braces are printed as they stand")
        found.append((("inputs", name, "label"), LintWarning(
            f"the label of input {name!r} holds '{field.group(0)}': a label only names the fact, and the question "
            f"states it as 'The {spec.label.strip()} is <value>.', {said}; keep the label to the "
            "fact's name, or write the whole sentence as 'phrase:' (one '{value}', e.g. 'phrase: \"The short interest "
            "is {value}.\"')", rule="label-placeholder", name=name)))
    return found


#: A value field in a label (s59break B12): ``{value}`` and the forms ``str.format`` would take for one, a format
#: spec or conversion (``{value:.0%}``, ``{value!r}``), another case (``{VALUE}``) or spaces (``{ value }``).
#: Another name in braces (``{trailing}``) and a lone brace are text, never a value field.
_VALUE_FIELD = re.compile(r"\{\s*value\s*(?:![rsa]\s*)?(?::[^{}]*)?\}", re.IGNORECASE)
