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
from ipb.perturb.frame import build_frame
from ipb.perturb.sector_registry import registry_violations
from ipb.perturb.verify import verify_items
from perturb_support import BUFFETT, SCENARIOS

runner = CliRunner()


def _perturb(out: Path, base: str, n: int, seed: int, ops: str = "metric") -> Path:
    result = runner.invoke(app, ["perturb", "--card", BUFFETT, "--base", str(SCENARIOS / BUFFETT / base), "--n",
                                 str(n), "--seed", str(seed), "--ops", ops, "--out", str(out / "items.jsonl")])
    assert result.exit_code == 0, result.output
    return out / "items.jsonl"


def test_items_an_ipb_without_the_range_rule_made_fail_verify_naming_record_and_rule(tmp_path, monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(registry, "model_range_rule", lambda frame: None)  # an ipb before stop 63
        items = _perturb(tmp_path, "ipb_p_011_base.yaml", 40, 64)
    lines = [json.loads(line) for line in items.read_text("utf-8").splitlines()]
    checked = verify_items(items)
    bad = [c for c in checked.checks if c.status != "ok"]
    # hand-read from the file: the base states subscription software at a 90% gross margin (inside 60-90%); the
    # metric move put records 7, 35, 36 and 39 at 55%, 53%, 52%, 51% and record 40 at 91%; every other item is inside
    margins = {i + 1: item["scenario"]["facts"]["gross_margin"] for i, item in enumerate(lines)}
    assert {r: m for r, m in margins.items() if not 60 <= int(m.rstrip("%")) <= 90} == {
        7: "55%", 35: "53%", 36: "52%", 39: "51%", 40: "91%"}
    assert [(c.record, c.status) for c in bad] == [(r, "constraint") for r in (7, 35, 36, 39, 40)]
    assert bad[0].id == lines[6]["id"]
    assert bad[0].problems == bad[0].constraints == [
        "breaks rule sectors/model_range: gross_margin 55% is outside the range 60% to 90% that "
        "frameworks/sectors.yaml gives business model subscription_software (a base that breaks it itself is exempt)"]
    assert checked.to_dict()["constraint_violations"] == 5 and not checked.ok
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
