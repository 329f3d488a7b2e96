"""s38review (seed 9292) fixes, issue 18 bar line 2: general rules, each with the review's finding it closes."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from ipb.engine.card import load_card
from ipb.engine.registry import compiled_card
from ipb.errors import ErrorGroup, IpbError
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import get_operator
from ipb.perturb.periods import card_period_errors, period_of
from ipb.perturb.registries import bundled_regimes, load_regimes

from perturb_support import SCENARIOS

DALIO = "dalio_debt_supercycle_navigation"


# --------------------------------------------------------------------------- C: a regime figure of another period


def _temporal(regime: str):
    frame = build_frame([compiled_card(DALIO)])
    base = load_base(SCENARIOS / DALIO / "top_rotate_to_bonds.yaml", frame)
    return get_operator("temporal")(frame, base, random.Random(0), regime)


def test_temporal_2009_states_the_years_gdp_change_not_the_annualised_quarter():
    """Dalio C #50: "real GDP growth over the past year is -6.2%" on 2009-03-09 was Q4 2008 at an annual rate;
    the four quarters to Q4 2008 fell 0.8%. The nominal four-quarter change is not in the registry: undisclosed."""
    step = _temporal("credit_crisis_2009")
    assert step.scenario.facts["real_gdp_growth"] == Decimal("-0.008")
    assert "nominal_gdp_growth" not in step.scenario.facts
    assert step.details["dropped"] == ["nominal_gdp_growth"]


def test_temporal_2022_leaves_the_years_gdp_undisclosed():
    """Dalio #52: -0.6% real / 8.4% nominal were Q2 2022 annualised rates; the registry gives no four-quarter
    change for 2022, so neither is stated under "over the past year" (nor the base's 2% / 4.5%)."""
    step = _temporal("inflation_2022")
    assert "real_gdp_growth" not in step.scenario.facts and "nominal_gdp_growth" not in step.scenario.facts
    assert step.scenario.facts["policy_rate"] == Decimal("0.0325")


def test_registry_gdp_facts_declare_their_periods():
    reg = bundled_regimes()
    assert reg.facts["real_gdp_growth"].periods == ("quarter_annualised", "year")
    crisis = reg.get("credit_crisis_2009").facts["real_gdp_growth"]
    assert crisis.value == "-6.2%" and crisis.by_period == {"year": "-0.8%"}


@pytest.mark.parametrize("text, period", [
    ("Real GDP growth over the past year.", "year"),
    ("nominal GDP growth over the past year", "year"),
    ("Consumer prices, year on year.", "year"),
    ("Real GDP growth (latest quarter, annualised).", "quarter_annualised"),
    ("GDP growth at an annual rate in the latest quarter", "quarter_annualised"),
    ("Ten-year government bond yield.", None),
    ("Growth over the past year, annualised", None),  # both: names no one period
])
def test_period_words(text, period):
    assert period_of(text) == period


REGIME_HEAD = ("version: 1\ninputs: [macro_regime]\nfacts:\n"
               "  real_gdp_growth: {type: ratio, description: %s, periods: %s}\nregimes:\n")
REGIME = ("  - {id: r, name: R, labels: [x], known_from: '2009-01-01', as_of: '2009-03-09',\n"
          "     facts: {real_gdp_growth: {value: -6.2%%, %savailable: '2009-02-27'}}}\n")


def _load(description: str, periods: str, extra: str = ""):
    return load_regimes(text=REGIME_HEAD % (description, periods) + REGIME % extra)


def test_loader_refuses_a_fact_described_over_another_period_than_its_value():
    """The class behind C #50: a description saying "over the past year" while the value is the annualised
    quarter (or the reverse) is a load error, rule period."""
    _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised, year]", "year: -0.8%, ")
    with pytest.raises((ErrorGroup, IpbError)) as info:
        _load("'Real GDP growth over the past year.'", "[quarter_annualised, year]")
    errors = info.value.errors if isinstance(info.value, ErrorGroup) else [info.value]
    assert [e.rule for e in errors] == ["period"]


def test_loader_refuses_a_period_the_fact_does_not_declare():
    with pytest.raises((ErrorGroup, IpbError)) as info:
        _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised]", "year: -0.8%, ")
    errors = info.value.errors if isinstance(info.value, ErrorGroup) else [info.value]
    assert [e.rule for e in errors] == ["period"] and "year" in errors[0].message


def test_check_refuses_a_card_input_worded_over_a_period_the_fact_never_gives():
    """`ipb check`: the Dalio card's "over the past year" inputs pass against the bundled registry (which gives
    the year's change), and fail against one that holds GDP only as an annualised quarter."""
    card = load_card(SCENARIOS.parent / f"{DALIO}.yaml")
    assert card_period_errors(card) == []
    quarter_only = _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised]")
    errors = card_period_errors(card, regimes=quarter_only)
    assert [(e.rule, e.name) for e in errors] == [("period", "real_gdp_growth")]
