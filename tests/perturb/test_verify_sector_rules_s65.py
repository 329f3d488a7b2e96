"""s65sector (issue 18, stop 64's note "ipb verify does not check the sectors/* rules"): ``ipb verify`` checks the
sector-registry rules a run refuses candidates for (``sectors/omits``, ``sectors/model_range``), by the same code
(:func:`ipb.perturb.sector_registry.registry_violations`) and with the same base exemption.

Items an ipb without the business-model range rule made (the rule switched off while generating, as before stop 63)
state subscription software outside the 60-90% gross margin of frameworks/sectors.yaml ``models:``; before this
change they verified clean.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from typer.testing import CliRunner

import ipb.perturb.sector_registry as registry
from ipb.cli import app
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.sector_registry import registry_violations
from ipb.perturb.verify import verify_items
from perturb_support import BUFFETT, SCENARIOS

runner = CliRunner()


def _perturb(out: Path, base: str, n: int, seed: int, ops: str = "metric") -> Path:
    result = runner.invoke(app, ["perturb", "--card", BUFFETT, "--base", str(SCENARIOS / BUFFETT / base), "--n",
                                 str(n), "--seed", str(seed), "--ops", ops, "--out", str(out / "items.jsonl")])
    assert result.exit_code == 0, result.output
    return out / "items.jsonl"


# the ranges of frameworks/sectors.yaml the base's enterprise-software subscription business is held to, copied by hand
# (models: subscription_software gross_margin; sectors: enterprise_software revenue_retention and revenue_growth)
RANGES = {"gross_margin": (60, 90, "sectors/model_range"), "revenue_retention": (95, 125, "sectors/sector_range"),
          "revenue_growth": (5, 40, "sectors/sector_range")}


def test_items_an_ipb_without_the_range_rules_made_fail_verify_naming_record_and_rule(tmp_path, monkeypatch):
    with monkeypatch.context() as patched:  # an ipb before stop 63: neither range rule
        patched.setattr(registry, "model_range_rule", lambda frame: None)
        patched.setattr(registry, "sector_range_rule", lambda frame: None)
        items = _perturb(tmp_path, "ipb_p_011_base.yaml", 40, 64)
    lines = [json.loads(line) for line in items.read_text("utf-8").splitlines()]
    checked = verify_items(items)
    bad = {c.record: c for c in checked.checks if c.status != "ok"}
    # by hand: the labels each record's facts break, every item being enterprise software sold by subscription
    want = {}
    for record, item in enumerate(lines, 1):
        facts = item["scenario"]["facts"]
        assert (facts["sector"], facts["business_model"]) == ("enterprise_software", "subscription_software")
        out = [rule for name, (lo, hi, rule) in RANGES.items() if not lo <= int(facts[name].rstrip("%")) <= hi]
        if out:
            want[record] = sorted(set(out))
    # read from the file: records 3 and 30 grow 3% and 1%, 7 has a 55% margin and 93% retention, 35, 39 and 40
    # margins of 53%, 51% and 91%, 36 a 52% margin, 85% retention and no growth; the other 33 are inside
    assert want == {3: ["sectors/sector_range"], 7: ["sectors/model_range", "sectors/sector_range"],
                    30: ["sectors/sector_range"], 35: ["sectors/model_range"],
                    36: ["sectors/model_range", "sectors/sector_range"], 39: ["sectors/model_range"],
                    40: ["sectors/model_range"]}
    assert {r: sorted(p.split(":")[0].removeprefix("breaks rule ") for p in c.constraints) for r, c in bad.items()} \
        == want
    assert all(c.status == "constraint" and c.problems == c.constraints for c in bad.values())
    assert bad[7].id == lines[6]["id"]
    assert bad[7].problems == [
        "breaks rule sectors/model_range: gross_margin 55% is outside the range 60% to 90% that "
        "frameworks/sectors.yaml gives business model subscription_software (a base that breaks it itself is exempt)",
        "breaks rule sectors/sector_range: revenue_retention 93% is outside the range 95% to 125% that "
        "frameworks/sectors.yaml gives sector enterprise_software (a base that breaks it itself is exempt)"]
    assert bad[36].problems[1] == (
        "breaks rule sectors/sector_range: revenue_retention 85% is outside the range 95% to 125% that "
        "frameworks/sectors.yaml gives sector enterprise_software; revenue_growth 0% is outside the range 5% to 40% "
        "that frameworks/sectors.yaml gives sector enterprise_software (a base that breaks it itself is exempt)")
    assert checked.to_dict()["constraint_violations"] == 7 and not checked.ok
    result = runner.invoke(app, ["verify", str(items)])
    assert result.exit_code == 1
    assert "sectors/model_range" in result.output and "Traceback" not in result.output


def test_a_base_that_breaks_the_range_itself_is_exempt_as_in_the_run(tmp_path):
    # moat_between_thresholds states subscription software at 50% (between the moat gate's floors): its items keep
    # that margin and verify clean, as the run makes them
    items = _perturb(tmp_path, "moat_between_thresholds.yaml", 12, 5)
    margins = {json.loads(line)["scenario"]["facts"].get("gross_margin") for line in items.read_text().splitlines()}
    assert "50%" in margins
    assert verify_items(items).ok


def test_registry_violations_reads_the_rules_and_the_exemption_of_violations_from():
    frame = build_frame([BUFFETT])
    soft = {"business_model": "subscription_software", "gross_margin": Decimal("0.35")}
    base = {**soft, "gross_margin": Decimal("0.75")}
    assert registry_violations(frame, soft, base) == ["sectors/model_range"]
    assert frame.violations_from(base, soft, ["gross_margin"]) == ["sectors/model_range"]
    # a base at 50% breaks the rule itself: both read the rule as holding
    low = {**soft, "gross_margin": Decimal("0.50")}
    assert registry_violations(frame, soft, low) == [] == frame.violations_from(low, soft, ["gross_margin"])
    # a manufacturer's subscription retention: the model omits it (a base that states none is no exemption)
    maker = {"business_model": "industrial_manufacturing", "revenue_retention": Decimal("1.01")}
    assert registry_violations(frame, maker, {"business_model": "industrial_manufacturing"}) == ["sectors/omits"]
    # a context sector (a card without a sector input keeps it beside the facts) that omits a stated fact
    assert registry_violations(frame, {"revenue_retention": Decimal("1")}, {}, "financials") == ["sectors/omits"]
    assert registry_violations(frame, {"gross_margin": Decimal("0.75")}, {}, None) == []


# --------------------------------------------------------------------------- item 2: the sector's own ranges
# frameworks/sectors.yaml, copied by hand: enterprise software and industrial automation's ranges of the Buffett
# card's metrics that no business model ranges itself (gross margin is subscription software's own 60-90%)
SECTOR_RANGES = {"enterprise_software": {"revenue_retention": (95, 125), "revenue_growth": (5, 40)},
                 "industrial_automation": {"revenue_retention": (85, 105), "revenue_growth": (0, 15)}}


def _outside_sector(lines):
    out = 0
    for item in lines:
        facts = item["scenario"]["facts"]
        for name, (lo, hi) in SECTOR_RANGES.get(facts.get("sector"), {}).items():
            if name in facts and not lo <= Decimal(facts[name].rstrip("%")) <= hi:
                out += 1
                break
    return out


def test_every_operator_keeps_a_stated_metric_inside_its_stated_sectors_range(tmp_path, monkeypatch):
    ops = "metric,isolate,flip,temporal"
    with monkeypatch.context() as patched:  # stop 64: the sector's ranges bound only the sector move
        patched.setattr(registry, "sector_range_rule", lambda frame: None)
        before = _perturb(tmp_path / "before", "ipb_p_011_base.yaml", 150, 65, ops)
    after = _perturb(tmp_path / "after", "ipb_p_011_base.yaml", 150, 65, ops)
    old = [json.loads(line) for line in before.read_text("utf-8").splitlines()]
    new = [json.loads(line) for line in after.read_text("utf-8").splitlines()]
    assert len(old) == len(new) == 150
    assert _outside_sector(old) == 26
    assert _outside_sector(new) == 0
    assert verify_items(after).ok


def test_a_reference_that_breaks_the_rule_itself_does_not_share_another_references_memo():
    # Frame.breaks_constraint remembered the rules reading a moved set by the set alone: a reference exempt from a
    # registry rule (base_states) then read the list of one that was not, and the reverse
    frame = build_frame([BUFFETT])
    plain = load_base(SCENARIOS / BUFFETT / "ipb_p_011_base.yaml", frame).facts  # enterprise software, 95% retention
    moat = load_base(SCENARIOS / BUFFETT / "moat_between_thresholds.yaml", frame).facts  # 85%: breaks it itself
    assert (plain["revenue_retention"], moat["revenue_retention"]) == (Decimal("0.95"), Decimal("0.85"))
    moved = ["revenue_retention"]
    low = Decimal("0.86")  # below enterprise software's 95-125%
    assert frame.breaks_constraint(plain, {**plain, "revenue_retention": low}, moved)
    assert frame.violations_from(moat, {**moat, "revenue_retention": low}, moved) == []
    assert not frame.breaks_constraint(moat, {**moat, "revenue_retention": low}, moved)
    again = build_frame([BUFFETT])  # the other order
    assert not again.breaks_constraint(moat, {**moat, "revenue_retention": low}, moved)
    assert again.breaks_constraint(plain, {**plain, "revenue_retention": low}, moved)


# --------------------------------------------------------------------------- item 3: narrower_derived in violations
def test_violations_of_a_scenario_alone_lists_a_derived_value_another_card_narrows(tmp_path):
    # s62's two L8 cards: up_rule derives price_to_book = market_cap / book_value on [0.05x, 20x], narrow_pb states
    # it on [0.5x, 1.5x]; $1.8B / $1B = 1.8x breaks only the shared range. Frame.violations left it to its callers
    from tests.perturb.test_ufix2_s62 import _narrow_files

    up, narrow, _ = _narrow_files(tmp_path)
    frame = build_frame([str(up), str(narrow)])
    high = {"market_cap": Decimal("1800000000"), "book_value": Decimal("1000000000")}
    said = "up_rule/pb_from_parts (derived price_to_book outside the range another card declares for it)"
    assert frame.violations(high) == [said]
    assert frame.violations_from({}, high, ("market_cap",)) == [said]  # once, not twice
    assert frame.violations({"market_cap": Decimal("1200000000"), "book_value": Decimal("1000000000")}) == []


def test_a_base_that_breaks_a_registry_rule_keeps_its_moves_on_a_card_deriving_an_input():
    # the L8 deck base (Graham's debt to equity tied by a deck rule: Frame.violations' general path) states a utility
    # paying a 6.5% dividend, above the utilities sector's 3-5%: the general path had no base exemption, so every
    # move of that base was refused once the sector's ranges bound every operator
    from test_perturb_deck_flip import _frame

    from ipb.perturb.frame import exempt_violations

    frame, base = _frame()
    assert frame._reference_entry(base.facts) is None  # the general path
    assert base.facts["dividend_yield"] == Decimal("0.065") and base.facts["sector"] == "utilities"
    assert frame.violations(base.facts) == ["sectors/sector_range"]
    moved = {**base.facts, "long_term_debt": Decimal("455000000"), "debt_to_equity": Decimal("1.50")}
    assert frame.violations_from(base.facts, moved, ["long_term_debt", "debt_to_equity"]) == []
    assert not frame.breaks_constraint(base.facts, moved, ["long_term_debt", "debt_to_equity"])
    # a reference inside the range is no exemption: the move to 6.5% is refused
    inside = {**base.facts, "dividend_yield": Decimal("0.04")}
    assert exempt_violations(frame, inside, base.facts) == ["sectors/sector_range"]
