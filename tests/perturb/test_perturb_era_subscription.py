"""Subscription-software revenue fits its date (review39 BA5; bug kind: a company larger than its era allows).

The reviewer's run (seed 9393) stated a subscription-software company with $2B of revenue on
9 October 2002, when the largest such vendor had about $0.14B (WebEx; Salesforce about $0.05B).
Only the largest US company's revenue bounded it ($240B). A ``sizes.figures`` entry may now carry
``when:`` (category inputs and their values), bounding only a scenario that states one of them,
beside the figure without ``when``. The subscription-software table (``subscription_revenue``,
``when: {business_model: [subscription_software]}``; the vendors' figures in its comment) is in
``fixtures/subscription_revenue_figure.yaml``, not yet in ``frameworks/regimes.yaml``: with it the
paper's own Table 9 Perturbation C ($5B of SaaS ARR in March 2009) is an anachronism (see the last
test). These tests load the bundled registry with the table added.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

import pytest

from ipb.errors import IpbError
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.registries import bundled_regimes, load_regimes
from perturb_support import BUFFETT, FIXTURES, ROOT

SAAS = "subscription_software"
FIGURE = FIXTURES / "subscription_revenue_figure.yaml"


@lru_cache(maxsize=1)
def _with_table():
    """The bundled regime registry with the subscription-software table first in ``sizes.figures``."""
    text = (ROOT / "frameworks" / "regimes.yaml").read_text()
    assert text.count("\n  figures:\n") == 1
    return load_regimes(text=text.replace("\n  figures:\n", "\n  figures:\n" + FIGURE.read_text(), 1))


@pytest.fixture(scope="module")
def buffett():
    return build_frame([BUFFETT])


def _said(frame, arr: str, model: str, year: int) -> list[str]:
    facts = {"arr": Decimal(arr), "business_model": model}
    return _with_table().anachronisms(frame.inputs, facts, year)


@pytest.mark.parametrize("arr, year, words", [
    # the reviewer's item: $2B in 2002, above the bound of $0.2B (WebEx's ~$140M rounded up)
    ("2e9", 2002, "arr $2B (above the largest subscription-software vendor's annual revenue about 2002, $200M)"),
    # the Buffett base's $5B in March 2009 (Salesforce: ~$1.3B in fiscal 2010), the year's bound $1.5B
    ("5e9", 2009, "arr $5B (above the largest subscription-software vendor's annual revenue about 2009, $1.5B)"),
    # 2001 takes the larger of 2000's and 2002's bounds, $0.2B
    ("2.5e8", 2001, "arr $250M (above the largest subscription-software vendor's annual revenue about 2001, $200M)"),
])
def test_a_subscription_vendor_larger_than_its_years_largest_is_refused(buffett, arr, year, words):
    assert _said(buffett, arr, SAAS, year) == [words]


@pytest.mark.parametrize("arr, year", [
    ("1.4e8", 2002),   # WebEx, calendar 2002, about $140M: the largest that year
    ("5.1e7", 2002),   # Salesforce, fiscal 2003 (to January 2003), about $51M
    ("1.31e9", 2009),  # Salesforce, fiscal 2010 (to January 2010), about $1.31B
    ("1.66e9", 2010),  # Salesforce, fiscal 2011, "more than $1.6 billion"
    ("3.79e10", 2024),  # Salesforce, fiscal 2025, about $37.9B
    ("4.5e10", 2024),  # the card's own cap (subscription_revenue_within_its_largest_vendors), so they agree
])
def test_the_real_largest_vendor_of_a_year_is_kept(buffett, arr, year):
    assert _said(buffett, arr, SAAS, year) == []


def test_the_bound_is_for_subscription_software_only(buffett):
    # the same $2B in 2002 for another business model: only the largest company's revenue bounds it ($240B)
    assert _said(buffett, "2e9", "industrial_manufacturing", 2002) == []
    assert _said(buffett, "2e9", SAAS, 2002) != []
    # and the general revenue figure is still the one money_figure names for the input
    assert _with_table().money_figure(buffett.inputs["arr"]).id == "revenue"


def test_the_bundled_registry_does_not_bound_subscription_revenue_yet(buffett):
    """Why the table waits: the paper's Table 9 Perturbation C (bundled ipb_p_011_c.yaml, and what the temporal
    operator makes of the base for credit_crisis_2009, test_perturb_table9) states $5B of SaaS ARR on 2009-03-09."""
    c = load_base(ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_c.yaml", buffett)
    assert (c.facts["arr"], c.facts["business_model"], str(c.as_of)) == (Decimal("5e9"), SAAS, "2009-03-09")
    assert _with_table().anachronisms(buffett.inputs, c.facts, 2009) == [
        "arr $5B (above the largest subscription-software vendor's annual revenue about 2009, $1.5B)"]
    assert bundled_regimes().anachronisms(buffett.inputs, c.facts, 2009) == []


def test_a_when_on_a_figure_must_name_values():
    text = (ROOT / "frameworks" / "regimes.yaml").read_text()
    figure = FIGURE.read_text().replace("when: {business_model: [subscription_software]}",
                                        "when: {business_model: []}", 1)
    assert figure != FIGURE.read_text()
    with pytest.raises(IpbError) as err:
        load_regimes(text=text.replace("\n  figures:\n", "\n  figures:\n" + figure, 1))
    assert "should be non-empty (at sizes/figures/0/when/business_model)" in str(err.value)
