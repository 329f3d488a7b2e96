"""The sector and regime registries load, and broken ones are refused with a located message."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ipb.engine.registry import bundled_card_paths
from ipb.errors import ErrorGroup, IpbError
from ipb.perturb.registries import bundled_regimes, bundled_sectors, load_regimes, load_sectors


def test_bundled_sectors():
    reg = bundled_sectors()
    auto = reg.get("industrial_automation")
    assert auto.ranges["gross_margin"] == (Decimal("0.35"), Decimal("0.55"))
    assert "sector" in reg.inputs and len(reg.sectors) >= 10


def test_bundled_regimes_are_dated_before_their_decision():
    reg = bundled_regimes()
    crisis = reg.get("credit_crisis_2009")
    assert crisis.as_of == dt.date(2009, 3, 9) and crisis.labels[0] == "credit_crisis"
    for regime in reg.regimes:
        assert regime.known_from <= regime.as_of
        assert all(f.available < regime.as_of for f in regime.facts.values())
    assert {"inflation_1979", "pandemic_2020", "credit_crisis_2009"} <= {r.id for r in reg.regimes}


def test_registries_are_not_cards():
    assert not {"sectors", "regimes"} & {p.stem for p in bundled_card_paths()}


SECTOR_HEAD = "version: 1\ninputs: [sector]\nmetrics:\n  gross_margin: {type: ratio}\nsectors:\n"
REGIME_HEAD = "version: 1\ninputs: [macro_regime]\nfacts:\n  inflation_rate: {type: ratio}\nregimes:\n"
OK_SECTOR = "  - {id: b, name: B, ranges: {gross_margin: [10%, 20%]}}\n"

BROKEN = [
    ("sectors", SECTOR_HEAD + "  - {id: a, name: A, ranges: {gross_margn: [10%, 20%]}}\n" + OK_SECTOR,
     "unknown metric 'gross_margn'", "did you mean 'gross_margin'"),
    ("sectors", SECTOR_HEAD + "  - {id: a, name: A, ranges: {gross_margin: [40%, 20%]}}\n" + OK_SECTOR,
     "is empty: 40% > 20%", None),
    ("sectors", SECTOR_HEAD + "  - {id: a, name: A, ranges: {gross_margin: [$1B, $2B]}}\n" + OK_SECTOR,
     "does not fit metric 'gross_margin', which is a ratio", None),
    ("sectors", SECTOR_HEAD + "  - {id: a, name: A, aliases: [b], ranges: {gross_margin: [1%, 2%]}}\n" + OK_SECTOR,
     "'b' already names sector 'a'", None),
    ("sectors", SECTOR_HEAD + "  - {id: a, name: A, range: {gross_margin: [1%, 2%]}}\n" + OK_SECTOR,
     "unknown field 'range'", "did you mean 'ranges'"),
    ("regimes", REGIME_HEAD + "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\",\n"
     "     facts: {inflation_rate: {value: 1%, available: \"2009-03-09\"}}}\n",
     "was published 2009-03-09, not before the regime's decision date 2009-03-09", None),
    ("regimes", REGIME_HEAD + "  - {id: r, name: R, labels: [x], known_from: \"2009-04-01\", as_of: \"2009-03-09\"}\n",
     "known_from must not be later", None),
    ("regimes", REGIME_HEAD + "  - {id: r, name: R, labels: [x], known_from: \"2009-02-30\", as_of: \"2009-03-09\"}\n",
     "is not a real date", None),
    ("regimes", REGIME_HEAD + "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\",\n"
     "     facts: {inflaton_rate: {value: 1%, available: \"2009-01-09\"}}}\n",
     "unknown fact 'inflaton_rate'", "did you mean 'inflation_rate'"),
]


@pytest.mark.parametrize("kind, text, message, suggestion", BROKEN, ids=[b[2][:40] for b in BROKEN])
def test_broken_registry_is_refused_with_a_location(kind, text, message, suggestion):
    loader = load_sectors if kind == "sectors" else load_regimes
    with pytest.raises(IpbError) as err:
        loader(f"{kind}.yaml", text=text)
    errors = err.value.errors if isinstance(err.value, ErrorGroup) else [err.value]
    hit = [e for e in errors if message in e.message]
    assert hit, [e.message for e in errors]
    assert hit[0].file == f"{kind}.yaml" and hit[0].line is not None and hit[0].line > 1
    if suggestion:
        assert suggestion in str(hit[0])
