"""s58speedver: the facts a date rules out, answered fact by fact.

``RegimeRegistry.anachronisms`` remembers each fact's share of the answer by the date, the input, the value and
the few other facts its bounds read (a business model's own record, a sector's share, a multiple's conditions);
``ratio_anachronisms`` groups the quotient bounds by numerator. The messages and their order must be those of
working every fact out afresh (``memo=False``), which the hand-worked case and the random cases below check.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from decimal import Decimal

import pytest

from ipb.engine.card import InputSpec
from ipb.engine.expressions import MONEY, MULTIPLE, STRING
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.perturb.multiples import MultipleBound, ratio_anachronisms
from ipb.perturb.regime_registry import MoneyFigure, RegimeRegistry, SectorShare
from ipb.perturb.registries import bundled_regimes

B = Decimal(10) ** 9


def _registry() -> RegimeRegistry:
    """A small registry whose answers are worked out by hand below."""
    return RegimeRegistry(
        (), {}, (),
        value_since={"subscription_software": 1990},
        largest=((1990, 100 * B), (2000, 500 * B)),
        figures=(MoneyFigure("revenue", "revenue", ("sales",), ("revenue",), ((1990, 50 * B),)),
                 MoneyFigure("saas", "subscription software business's revenue", ("sales",), ("revenue",),
                             ((1995, 1 * B), (2010, 10 * B)), when=(("model", ("subscription_software",)),))),
        multiples=(MultipleBound("pe", "price / earnings", ("pe",), ((1974, Decimal(30)),)),
                   MultipleBound("q1", "price / EPS", (), (), ((1973, Decimal(4)),), ("p", "e")),
                   MultipleBound("q2", "EV / EBIT", (), (), ((1973, Decimal(3)),), ("ev", "ebit")),
                   MultipleBound("q3", "price / book", (), ((1970, Decimal(2)),), (), ("p", "b"))),
        sector_inputs=("sector",),
        sector_shares=(SectorShare("transport company", ("transport",), ((1929, Decimal("0.25")),)),))


INPUTS = {
    "model": InputSpec("model", "category", STRING, values=("subscription_software", "bank")),
    "sales": InputSpec("sales", "money", MONEY),
    "sector": InputSpec("sector", "category", STRING, values=("transport", "retail")),
    "market_cap": InputSpec("market_cap", "money", MONEY),
    "pe": InputSpec("pe", "multiple", MULTIPLE),
    **{n: InputSpec(n, "money", MONEY) for n in ("p", "e", "ev", "ebit", "b")},
}

FACTS = {"model": "subscription_software", "sales": 2 * B, "sector": "transport", "market_cap": 150 * B,
         "pe": Decimal(40), "p": Decimal(9), "e": Decimal(3), "ev": Decimal(20), "ebit": Decimal(10), "b": Decimal(1)}

#: By hand, 30 June 1995: the business model's own revenue record is $1B (the 1995 row), the revenue bound $50B
#: (scaled by the transport share, 25%, to $12.5B: $2B is under it); the largest market value is the larger of the
#: 1990 and 2000 rows, $500B, whose 25% is $125B; P/E 40 is above 30; 9 / 3 = 3 is below 4, 20 / 10 = 2 below 3,
#: 9 / 1 = 9 above 2, written in the order of the bounds (q1, q2, q3), not grouped by numerator (q1, q3, q2).
EXPECTED_1995 = [
    "sales $2B (above the largest subscription software business's revenue about 1995, $1B)",
    "market_cap $150B (above the largest transport company's market value about 1995, $125B: 25% of the largest "
    "US company's)",
    "pe 40x (above the highest price / earnings of its era about 1995, 30x)",
    "p / e 3x (below the lowest price / EPS of its era about 1995, 4x)",
    "ev / ebit 2x (below the lowest EV / EBIT of its era about 1995, 3x)",
    "p / b 9x (above the highest price / book of its era about 1995, 2x)",
]


@pytest.mark.parametrize("memo", [True, False])
def test_hand_worked_messages_in_order(memo: bool) -> None:
    reg = _registry()
    day = dt.date(1995, 6, 30)
    assert reg.anachronisms(INPUTS, FACTS, day, memo=memo) == EXPECTED_1995
    assert reg.anachronisms(INPUTS, FACTS, day, memo=memo) == EXPECTED_1995  # answered from the memo


def test_a_fact_is_remembered_across_items() -> None:
    """A second item that changes one fact adds one answer to the memo (the whole-facts memo missed outright);
    a fact whose bounds read another fact (the revenue reads the business model) is answered again when that one
    changes, with that fact's answer: before 1990 there was no subscription software, and the bank has no record."""
    reg = _registry()
    day = dt.date(1995, 6, 30)
    reg.anachronisms(INPUTS, FACTS, day)
    first = len(reg._fact_memo)
    assert first == 10  # each fact, once: every input here is a category with a first year, money or a multiple
    assert reg.anachronisms(INPUTS, {**FACTS, "pe": Decimal(20)}, day) == EXPECTED_1995[:2] + EXPECTED_1995[3:]
    assert len(reg._fact_memo) == first + 1
    bank = reg.anachronisms(INPUTS, {**FACTS, "model": "bank"}, day)
    assert bank == EXPECTED_1995[1:]
    assert len(reg._fact_memo) == first + 3  # the model, and the revenue under that model
    assert reg.anachronisms(INPUTS, FACTS, dt.date(1985, 1, 2))[0] == "model subscription software (exists from 1990)"


def test_streak_keeps_the_value_as_written() -> None:
    """A streak's message shows the value as stated, so 40 and 40.0 are not one remembered answer."""
    reg = dataclasses.replace(_registry(), streak_inputs=("raises",), streak_began=1950)
    spec = {"raises": InputSpec("raises", "number", MONEY)}
    day = dt.date(1980, 1, 1)
    assert reg.anachronisms(spec, {"raises": Decimal("40")}, day) == [
        "raises 40 (longer than any such streak about 1980: at most 30 years, counted from 1950)"]
    assert reg.anachronisms(spec, {"raises": Decimal("40.0")}, day) == [
        "raises 40.0 (longer than any such streak about 1980: at most 30 years, counted from 1950)"]


def test_equal_amounts_written_apart_share_an_answer() -> None:
    """$150B written with another exponent is the same amount and gives the same message (shown normalised)."""
    reg = _registry()
    day = dt.date(1995, 6, 30)
    other = {**FACTS, "market_cap": Decimal("1.500E+11")}
    assert reg.anachronisms(INPUTS, FACTS, day) == reg.anachronisms(INPUTS, other, day) == EXPECTED_1995


def test_ratio_bounds_keep_their_order_across_numerators() -> None:
    reg = _registry()
    assert ratio_anachronisms(reg.multiples, FACTS, 1995) == EXPECTED_1995[3:]
    assert ratio_anachronisms(reg.multiples, FACTS, 1995, memo=False) == EXPECTED_1995[3:]
    assert ratio_anachronisms(reg.multiples, {**FACTS, "p": Decimal(12)}, 1995) == [
        "ev / ebit 2x (below the lowest EV / EBIT of its era about 1995, 3x)",
        "p / b 12x (above the highest price / book of its era about 1995, 2x)"]


def _draw(rng: random.Random, spec: InputSpec, since: list[str]) -> object:
    if spec.type == "category":
        return rng.choice(list(spec.values or ("x",)) + since)
    if spec.type == "bool":
        return rng.random() < 0.5
    if spec.type == "money":
        return rng.choice((-1, 1, 1, 1)) * Decimal(rng.randint(1, 999)) * Decimal(10) ** rng.randint(5, 12)
    if spec.type == "multiple":
        return Decimal(rng.randint(-5, 800)) / 10
    if spec.type == "ratio":
        return Decimal(rng.randint(-60, 120)) / 100
    if spec.type == "year":
        return rng.randint(1900, 2030)
    return Decimal(rng.randint(-5, 70))


def test_bundled_cards_random_facts_memo_against_afresh() -> None:
    """Random facts of every bundled card at dates around the registry's rows: the remembered answers (asked
    twice, and after other items filled the memo) equal those worked out afresh, and some of them say something."""
    reg = dataclasses.replace(bundled_regimes())  # a registry of its own: empty memos
    rng = random.Random(58)
    since = sorted(reg.value_since)
    days = [dt.date(y, m, 15) for y in (1929, 1962, 1973, 1974, 1979, 1984, 1995, 2003, 2007, 2008, 2013, 2022, 2024)
            for m in (1, 9, 11)]
    cards = [compiled_card(str(p)).card for p in bundled_card_paths()]
    asked = said = 0
    for _ in range(12):
        for card in cards:
            base = {k: _draw(rng, s, since) for k, s in card.inputs.items()}
            for _ in range(3):
                facts = dict(base)
                for k in rng.sample(sorted(facts), min(3, len(facts))):
                    facts[k] = _draw(rng, card.inputs[k], since)
                day = rng.choice(days)
                for when in (day, day.year):
                    want = reg.anachronisms(card.inputs, facts, when, memo=False)
                    assert reg.anachronisms(card.inputs, facts, when) == want, (card.id, when, facts)
                    assert reg.anachronisms(card.inputs, facts, when) == want
                    asked += 1
                    said += bool(want)
    assert asked == 12 * len(cards) * 3 * 2
    assert said > asked // 4
