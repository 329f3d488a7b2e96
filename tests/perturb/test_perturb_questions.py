"""Natural questions: every fact once, in words and units, and nothing else (a parse back to the facts)."""

from __future__ import annotations

import json
import re

import pytest

from ipb.engine.registry import compiled_card
from ipb.engine.scenario import convert_fact
from ipb.perturb import Job, build_frame, generate, parse_recipes
from ipb.perturb.render import fact_pattern, read_value
from perturb_support import CARD_IDS, SCENARIOS
from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # verdict tokens (NO_REPURCHASE) are the answer vocabulary


def first_base(card_id: str) -> str:
    paths = sorted((SCENARIOS / card_id).glob("*.yaml"))
    return str(next((p for p in paths if p.name.endswith("base.yaml")), paths[0]))


def facts_paragraph(question: str) -> str:
    lines = question.split("\n")
    i = 1 if lines[0].startswith(("Decision date:", "Sector:")) else 0
    return lines[i]


def parse_back(frame, question: str) -> dict:
    """The facts a question states: each input's sentence found, its value read back to an engine value.

    Every sentence of the facts paragraph must belong to exactly one input
    (what is left after removing them must be blank).
    """
    text = facts_paragraph(question)
    found: dict = {}
    spans: list[tuple[int, int]] = []
    for name, spec in frame.inputs.items():
        matches = [m for m in fact_pattern(spec).finditer(text)
                   if (m.start() == 0 or text[m.start() - 1] == " ")]
        assert len(matches) <= 1, f"{name} is stated twice: {[m.group(0) for m in matches]}"
        if matches:
            m = matches[0]
            found[name] = convert_fact(spec, read_value(spec, m.group("value")))
            spans.append((m.start(), m.end()))
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "two facts claim the same words"
    rest = list(text)
    for a, b in spans:
        rest[a:b] = [" "] * (b - a)
    assert "".join(rest).strip() in ("", "No facts are stated."), f"words that state no fact: {''.join(rest).strip()!r}"
    return found


def item_facts(frame, item) -> dict:
    return {n: convert_fact(frame.inputs[n], v) for n, v in item["scenario"]["facts"].items()}


def test_question_round_trip_on_a_1000_item_run_over_every_card():
    per_card = -(-1000 // len(CARD_IDS))
    total = 0
    for card_id in CARD_IDS:
        frame = build_frame([card_id])
        result = generate(Job((card_id,), first_base(card_id), 11), per_card)
        for line in result.lines:
            item = json.loads(line)
            question = item["question"]
            assert not SNAKE.search(question), (card_id, SNAKE.search(question).group(0), question)
            assert parse_back(frame, question) == item_facts(frame, item), (card_id, question)
            total += 1
    assert total >= 1000


def test_l8_questions_round_trip_too():
    cards = (BUFFETT, str(CARDS / "cbdc_dalio_machine.yaml"))
    frame = build_frame(list(cards))
    result = generate(Job(cards, str(FIXTURES / "cbdc_l8.yaml"), 2, parse_recipes("metric,temporal")), 30)
    assert result.lines
    for line in result.lines:
        item = json.loads(line)
        assert parse_back(frame, item["question"]) == item_facts(frame, item)


def test_a_hand_checked_question():
    """Buffett's card states its facts in its own phrases (paper Appendix A.2 base, by hand)."""
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("flip")), 1)
    question = json.loads(result.lines[0])["question"]
    assert question.split("\n")[1] == (
        "The business model is subscription software. The company is in the enterprise software sector. "
        "The company has $5B of annual revenue. Existing customers pay 95% of what they paid a year earlier. "
        "The gross margin is 90%. Revenue is growing 25% a year. The latest annual net income is $0. "
        "It is offered at 3.5x its annual revenue. The macro regime is expansion.")  # the flip: 0.75 x $25B / $5B = 3.75x, grid 0.5x
    # one undisclosed input: a sentence with its article (issue 18: "Not disclosed: evidence ..." read like a dump)
    assert question.split("\n")[2] == "The evidence on management's integrity and capital allocation is not disclosed."
