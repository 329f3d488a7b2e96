"""Two wording faults the stop-53 item review left (its kind 11, /work/notes/s53review.md), issue 18 part 5.

- NBIM's coal power capacity read "10000 MW": a number of five or more whole digits is written with thousands
  separators ("10,000 MW"); four digits stay bare ("2500 MW") and the question still parses back to the fact.
- The All Weather construction card read "The number of the four environments covered is 4."; the card now gives the
  fact its own sentence.
"""

from __future__ import annotations

import re
from decimal import Decimal

from hypothesis import given, strategies as st

from ipb.engine.card import InputSpec
from ipb.engine.expressions import NUMBER
from ipb.engine.scenario import convert_fact
from ipb.perturb.render import fact_sentence, read_value, value_text
from perturb_support import review_run

MW = InputSpec("coal_power_capacity", "number", NUMBER, "Electricity generating capacity from thermal coal.",
               unit="MW")
BARE = InputSpec("holders", "number", NUMBER, "How many holders the fund has.")


def test_five_digits_take_separators_four_do_not() -> None:
    # worked by hand: 10000 -> "10,000", 56500 -> "56,500", 2500 stays "2500", 1234567.25 -> "1,234,567.25"
    assert value_text(MW, Decimal(10000)) == "10,000 MW"
    assert value_text(MW, Decimal(56500)) == "56,500 MW"
    assert value_text(MW, Decimal(2500)) == "2500 MW"
    assert value_text(BARE, Decimal("1234567.25")) == "1,234,567.25"
    assert value_text(BARE, Decimal(-20000)) == "-20,000"
    assert fact_sentence(MW, Decimal(10000)) == "The electricity generating capacity from thermal coal is 10,000 MW."


def test_separated_values_read_back() -> None:
    assert read_value(MW, "10,000 MW") == "10000"
    assert read_value(BARE, "1,234,567.25") == "1234567.25"
    assert read_value(MW, "2500 MW") == "2500"


@given(st.decimals(min_value=-10**9, max_value=10**9, places=2, allow_nan=False, allow_infinity=False))
def test_round_trip(value: Decimal) -> None:
    for spec in (MW, BARE):
        assert convert_fact(spec, read_value(spec, value_text(spec, value))) == value


def _questions(card: str, base: str, n: int) -> list[str]:
    return [item["question"] for item, _ in review_run(card, f"{base}.yaml", 5, n)]


def test_nbim_capacity_has_separators() -> None:
    questions = _questions("nbim_gpfg_exclusion_screen", "k2_and_k3_coal_miner", 200)
    stated = [q for q in questions if " MW." in q]
    assert stated, "no item states the coal power capacity"
    assert not any(re.search(r"\b[0-9]{5,} MW", q) for q in stated)
    assert any(",000 MW" in q or ",500 MW" in q for q in stated)


def test_all_weather_environments_sentence() -> None:
    questions = _questions("dalio_all_weather_portfolio_construction", "balanced_mix_implement", 100)
    assert not any("The number of the four environments covered is" in q for q in questions)
    assert any("The mix holds an asset group expected to do well in 4 of the four environments." in q
               for q in questions)
