"""Natural questions: every fact once, in words and units, and nothing else (a parse back to the facts)."""

from __future__ import annotations

import json

import pytest

from ipb.engine.registry import compiled_card
from ipb.perturb import Job, build_frame, generate, parse_recipes
from ipb.perturb.question_facts import SNAKE_TOKEN, item_facts, read_question_facts
from perturb_support import CARD_IDS, SCENARIOS
from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES

# the reader is the package's (bench/question_round_trip.py uses it too); the other question tests import these names
SNAKE = SNAKE_TOKEN
parse_back = read_question_facts


def first_base(card_id: str) -> str:
    paths = sorted((SCENARIOS / card_id).glob("*.yaml"))
    return str(next((p for p in paths if p.name.endswith("base.yaml")), paths[0]))


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
    item = json.loads(result.lines[0])
    question = item["question"]
    # s40buff (review39 BA4): the first flip was $5B growing 25% at 3.5x, dated 30 June 2024 (0.14x revenue a point
    # of growth, under the 2024 record's floor of 0.2x from $2B in frameworks/regimes.yaml); the first flip now also
    # moves the macro regime, so it is undated and the facts are the question's first line
    # s50rfix: a subscription business with over $10B of revenue earns a profit (the acquisition card's rule
    # a_large_subscription_business_earns_a_profit), so the earlier first flip ($17.5B of revenue, net income $0) is no
    # longer drawn; the first flip is now $8.4B at a 71% gross margin
    assert question.split("\n")[0] == (
        "The business model is subscription software. The company is in the enterprise software sector. "
        "The company has $2.1B of annual revenue. Existing customers pay 97% of what they paid a year earlier. "
        "The gross margin is 90%. Revenue is growing 25% a year. The latest annual net income is $0. "
        "It is offered at 3.5x its annual revenue. The macro regime is high inflation.")
    # s42anchor + s42rfixN: anchors whose flip generation would refuse are no longer taken, so the first flip is another
    # one. s58fill (C10): no anchor sets the regime to pandemic shock, so the anchor draws differ and the first flip is
    # $2.1B at 97% retention and a 90% margin (was $8.4B, 95%, 71%); by hand: owner earnings $2.1B x 25% = $0.525B, at
    # 1/10% + 40 x 25% = 20x worth $10.5B; the price 3.5 x $2.1B = $7.35B is under (1 - 25%) x $10.5B = $7.875B
    # (gate 5 PROCEED); no loss in a credit crisis (gate 6): INVEST
    assert item["investment_verdict"] == "INVEST"
    # one undisclosed input: a sentence with its article (issue 18: "Not disclosed: evidence ..." read like a dump)
    assert question.split("\n")[1] == "The evidence on management's integrity and capital allocation is not disclosed."
