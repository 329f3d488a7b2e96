"""The facts a generated question states, read back from its words (paper §4.3; docs/perturbation.md, questions).

A question's facts paragraph must state every fact of its item once, in words and units, and nothing else. This
module reads the paragraph back with each input's own sentence pattern (:func:`ipb.perturb.render.fact_pattern`) so
the suite and ``bench/question_round_trip.py`` (issue 18 bar, line 3) check the same thing with the same reader.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ipb.engine.scenario import convert_fact
from ipb.perturb._question_setting import question_opening
from ipb.perturb.frame import Frame
from ipb.perturb.render import fact_pattern, read_value

__all__ = ["SNAKE_TOKEN", "QuestionReadError", "facts_paragraph", "read_question_facts", "item_facts"]

#: A snake_case token: an input name leaking into the prose (verdict tokens such as NO_REPURCHASE are upper case,
#: the answer's vocabulary, and do not match).
SNAKE_TOKEN = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


class QuestionReadError(ValueError):
    """A question's facts paragraph does not read back: a fact stated twice, two facts over the same words, or
    words that state no fact."""


def facts_paragraph(question: str, opening: str = "") -> str:
    r"""The paragraph of ``question`` that states the facts: its first line, or its second after a "Decision date:"
    or "Sector:" line, or after a line that opens with the card's setting sentence ``opening`` (card field
    ``question: setting``; :func:`ipb.perturb._question_setting.question_opening`).

    >>> facts_paragraph("A fund is choosing a bond. Decision date: 2009-03-09.\nThe price is 45%.\nApply ...",
    ...                 "A fund is choosing a bond.")
    'The price is 45%.'
    """
    lines = question.split("\n")
    first = lines[0].startswith(("Decision date:", "Sector:")) or (bool(opening) and lines[0].startswith(opening))
    return lines[1 if first and len(lines) > 1 else 0]


def read_question_facts(frame: Frame, question: str) -> dict[str, Any]:
    """``{input name: engine value}`` for every fact the question's facts paragraph states.

    Each input's sentence is looked for at a word start; every word of the paragraph must belong to exactly one
    input's sentence ("No facts are stated." is the empty paragraph).

    Raises
    ------
    QuestionReadError
        When an input's sentence occurs twice, two sentences overlap, or words are left that state no fact.
    """
    text = facts_paragraph(question, question_opening(frame))
    found: dict[str, Any] = {}
    spans: list[tuple[int, int]] = []
    for name, spec in frame.inputs.items():
        matches = [m for m in fact_pattern(spec).finditer(text) if m.start() == 0 or text[m.start() - 1] == " "]
        if len(matches) > 1:
            raise QuestionReadError(f"{name} is stated twice: {[m.group(0) for m in matches]}")
        if matches:
            m = matches[0]
            found[name] = convert_fact(spec, read_value(spec, m.group("value")))
            spans.append((m.start(), m.end()))
    spans.sort()
    if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
        raise QuestionReadError("two facts claim the same words")
    rest = list(text)
    for a, b in spans:
        rest[a:b] = [" "] * (b - a)
    left = "".join(rest).strip()
    if left not in ("", "No facts are stated."):
        raise QuestionReadError(f"words that state no fact: {left!r}")
    return found


def item_facts(frame: Frame, item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's scenario facts as engine values (what :func:`read_question_facts` must give back)."""
    return {n: convert_fact(frame.inputs[n], v) for n, v in item["scenario"]["facts"].items()}
