"""The second adversarial report's silently wrong verdicts (issue 16, breaker 2 section 2), one row each.

Every row runs one finding (its number in the report's section 2 in the
row's name: ``b1_...`` is finding 1) and asserts the exact verdict exact
arithmetic gives, or a located error. The verdicts at the thresholds are
worked by hand: 2/3 x $300M is exactly $200M, three weights of 1/3 make
exactly 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ipb.cli._app import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "frameworks" / "scenarios"

_HEAD = """\
id: k23ge
version: 1
investor: Benjamin Graham
name: Test k23ge
description: x
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: x
vintage: {start: 1934, end: 1976}
sources:
  - {tier: 1, document: "SA", year: 1934, locator: "x"}
outcomes: {pass: INVEST, fail: DECLINE}
constants: {k: CONST}
inputs:
  price: {type: money, description: the price}
  ncav: {type: money, description: the ncav}
gates:
  - id: g1
    name: Gate one
    description: x
    proceed: PROCEED
    required_elements: [ncav]
"""


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _final(result: Any) -> tuple[str, str]:
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the GRP; warnings (a --set value outside its range: s46user) go to stderr
    return data["investment_verdict"], data["verdict_trigger"]


def _k_card(tmp: Path, const: str, proceed: str) -> Path:
    path = tmp / "k.yaml"
    path.write_text(_HEAD.replace("CONST", const).replace("PROCEED", proceed, 1).replace(
        "proceed: PROCEED", f"proceed: {proceed}"), encoding="utf-8")
    return path


# ----------------------------------------------------- finding 1: card constants stay exact

@pytest.mark.parametrize(("const", "proceed", "price", "ncav", "want"), [
    ("2/3", "price / ncav >= k", "$200M", "$300M", "INVEST"),
    ("2/3", "price / ncav >= k", "$199999999", "$300M", "DECLINE"),
    ("1/3", "price <= 3 * k * ncav", "7", "7", "INVEST"),
    ("1/3", "price * k + price * k + price * k == price", "7", "7", "INVEST"),
])
def test_b1_constant_is_exact_in_run_and_screen(tmp_path: Path, const: str, proceed: str, price: str, ncav: str,
                                                 want: str) -> None:
    card = _k_card(tmp_path, const, proceed)
    def money(v: str) -> str:  # `ipb run --set` wants money with its currency since s52nufix; screen cells do not
        return v if v.startswith("$") else "$" + v

    got = _final(_cli("run", str(card), "--set", f"price={money(price)}", "--set", f"ncav={money(ncav)}",
                      "--format", "json"))
    assert got[0] == want
    table = tmp_path / "t.csv"
    table.write_text(f'price,ncav\n"{price}","{ncav}"\n', encoding="utf-8")
    out = tmp_path / "o.csv"
    result = _cli("screen", str(card), str(table), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f'"{want}"' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("market_value", "want"), [
    ("$200M", "INVEST"),  # exactly 2/3 of $300M: at the ceiling
    ("$200000000.00000000000000000001", "DECLINE"),  # above it (the rounded constant said INVEST)
])
def test_b1_bundled_klarman_constant(market_value: str, want: str) -> None:
    scenario = SCENARIOS / "klarman_deep_value_identification" / "invest_orphaned_spinoff.yaml"
    got = _final(_cli("run", "klarman_deep_value_identification", str(scenario), "--set",
                      f"market_value={market_value}", "--set", "conservative_value=$300M", "--format", "json"))
    assert got[0] == want


# ----------------------------------------------------- finding 2: weighted thresholds sum exactly

MUNGER = ROOT / "frameworks" / "munger_opportunity_evaluation.yaml"
MUNGER_ROW = ("return_on_capital,competitive_advantage,incentives_aligned,bias_driven_thesis,probability_of_success,"
              "upside_return,downside_return\n0.16,durable,true,false,0.6,0.5,-0.15\n")


def _weighted(tmp: Path, weight: str, min_weight: str) -> Path:
    """The bundled Munger card with every lens weighted ``weight`` and ``min_weight`` to clear."""
    text = MUNGER.read_text(encoding="utf-8")
    text = text.replace("threshold: {count: PROCEED, at_least: 3}",
                        f"threshold: {{count: PROCEED, at_least: 3, min_weight: {min_weight}}}")
    text = text.replace("\n    name: ", f"\n    weight: {weight}\n    name: ")
    path = tmp / "w.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("weight", "min_weight", "want"), [
    ("1/3", "1", ("INVEST", "threshold_met_3_of_5")),  # 3 x 1/3 is exactly 1
    ("1/4", "3/4", ("INVEST", "threshold_met_3_of_5")),
    ("1/3", "1.0000000000000000000000000001", ("INCONCLUSIVE", "threshold_undecided_3_of_5")),
    ("1/7", "3/7", ("INVEST", "threshold_met_3_of_5")),
    ("1.0e+99", "3.0e+99", ("INVEST", "threshold_met_3_of_5")),  # beyond int64 once scaled: no OverflowError
])
def test_b2_weighted_threshold_is_exact_in_run_and_screen(tmp_path: Path, weight: str, min_weight: str,
                                                          want: tuple[str, str]) -> None:
    card = _weighted(tmp_path, weight, min_weight)
    scenario = SCENARIOS / "munger_opportunity_evaluation" / "two_lenses_unknown_decided.yaml"
    assert _final(_cli("run", str(card), str(scenario), "--format", "json")) == want
    table = tmp_path / "t.csv"
    table.write_text(MUNGER_ROW, encoding="utf-8")
    out = tmp_path / "o.csv"
    result = _cli("screen", str(card), str(table), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f'"{want[0]}","{want[1]}"' in out.read_text(encoding="utf-8")


# ----------------------------------------------------- findings 3 and 4: a weight is a plain number within 10^±100

@pytest.mark.parametrize(("key", "written", "message"), [
    ("weight", "1.0e+999999999", "beyond the limit of 10^±100"),
    ("weight", "1.0e+99999", "beyond the limit of 10^±100"),
    ("weight", "1.0e-999999999", "beyond the limit of 10^±100"),
    ("weight", '"1.0e+101"', "beyond the limit of 10^±100"),
    ("weight", '"1/1e100/1e100"', "beyond the limit of 10^±100"),
    ("weight", '"$5M"', "weights are plain numbers"),
    ("weight", "50%", "weights are plain numbers"),
    ("weight", "5x", "weights are plain numbers"),
    ("min_weight", '"$5M"', "weights are plain numbers"),
    ("min_weight", "1.0e+999999999", "beyond the limit of 10^±100"),
])
def test_b3_b4_weight_refused_at_check_with_its_line(tmp_path: Path, key: str, written: str, message: str) -> None:
    card = _weighted(tmp_path, written if key == "weight" else "1", written if key == "min_weight" else "3")
    line = next(i for i, text in enumerate(card.read_text(encoding="utf-8").splitlines(), 1)
                if f"{key}: {written}" in text)
    result = _cli("check", str(card))
    assert result.exit_code != 0
    assert f"w.yaml:{line}:" in result.output and message in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("weight", "min_weight"), [("0.5", "1.5"), ("1.0e+100", "3.0e+100"), ("1.0e-100", "3.0e-100")])
def test_b3_weights_at_the_limits_run(tmp_path: Path, weight: str, min_weight: str) -> None:
    card = _weighted(tmp_path, weight, min_weight)
    scenario = SCENARIOS / "munger_opportunity_evaluation" / "four_lenses_confirm.yaml"
    assert _final(_cli("run", str(card), str(scenario), "--format", "json"))[0] == "INVEST"


# ----------------------------------------------------- finding 6: screen reads CSV numbers from their text

_NET_NET_HEAD = "market_value,current_assets,total_liabilities,preferred_stock,net_income\n"


@pytest.mark.parametrize(("row", "units", "want"), [
    # NCAV = 45 - 12 - 3 = $30M; the ceiling is exactly 2/3 of it, $20M.
    ("20000000.0000000001,45000000,12000000,3000000,1", (), "DECLINE"),
    ("20000000,45000000,12000000,3000000,1", (), "INVEST"),
    ("19999999.9999999999,45000000,12000000,3000000,1", (), "INVEST"),
    ("20.0000000000000001,45,12,3,1", ("market_value", "current_assets", "total_liabilities", "preferred_stock"),
     "DECLINE"),
    # integers past 2^64: a ceiling of 2x10^20
    ("200000000000000000001,450000000000000000000,120000000000000000000,30000000000000000000,1", (), "DECLINE"),
    ("200000000000000000000,450000000000000000000,120000000000000000000,30000000000000000000,1", (), "INVEST"),
])
def test_b6_screen_agrees_with_run_at_the_threshold(tmp_path: Path, row: str, units: tuple[str, ...],
                                                    want: str) -> None:
    table = tmp_path / "t.csv"
    table.write_text(_NET_NET_HEAD + row + "\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    args = [a for name in units for a in ("--unit", f"{name}=M")]
    result = _cli("screen", "graham_net_net_screen", str(table), "--out", str(out), *args)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert f'"{want}"' in text and row.split(",")[0] in text  # the cell is echoed as written, not 3e+20
    scale = "M" if units else ""
    sets = [a for name, cell in zip(_NET_NET_HEAD.strip().split(","), row.split(","))
            for a in ("--set", f"{name}={'$' + cell + scale if name != 'net_income' else '$' + cell}")]
    scenario = SCENARIOS / "graham_net_net_screen" / "exactly_two_thirds.yaml"
    assert _final(_cli("run", "graham_net_net_screen", str(scenario), *sets, "--format", "json"))[0] == want


# ----------------------------------------------------- finding 5: apostrophes and thin / no-break spaces group only

@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("text", "want"), [
    ("$1'234", "1234"),
    ("$1'234'567.5", "1234567.5"),
    ("$1'234,5", "1234.5"),
    ("1'234%", "12.34"),
    ("$1\u00a0234", "1234"),
    ("$1\u202f234\u202f567", "1234567"),
    ("1\u2009234", "1234"),  # the thin space the docs name
    ("$1'2", "an apostrophe only groups thousands"),
    ("$12'34", "an apostrophe only groups thousands"),
    ("$1.234'567", "an apostrophe only groups thousands"),
    ("$1\u00a02", "a no-break space (U+00A0) only groups thousands"),
    ("$1\u202f2345", "a narrow no-break space (U+202F) only groups thousands"),
    ("$1'234\u00a0567", "two kinds of digit-group separator"),
])
def test_b5_group_only_separators(text: str, want: str, strict: bool) -> None:
    from decimal import Decimal

    from ipb.engine.numbers import NumberError, read_number

    if want[0].isdigit():
        assert read_number(text, strict=strict).value == Decimal(want)
        return
    with pytest.raises(NumberError) as info:
        read_number(text, strict=strict)
    assert want in info.value.message and "','" not in info.value.message
    assert info.value.column == next(i for i, c in enumerate(text) if c in "'\u00a0\u202f\u2009") + 1 or \
        "two kinds" in want


# ----------------------------------------------------- finding 8: score refuses an item whose card is a path

@pytest.mark.parametrize(("field", "ref"), [
    ("card", "/etc/passwd"),
    ("card", "../x.yaml"),
    ("scenario.card", "/etc/passwd"),
])
def test_b8_score_refuses_a_card_path(tmp_path: Path, field: str, ref: str) -> None:
    from ipb.scoring.items import item_set

    item = json.loads((Path(__file__).parent / "data" / "item_l7.jsonl").read_text(encoding="utf-8"))
    if field == "card":
        item["card"] = ref
    else:
        item["scenario"]["card"] = ref
    prepared = item_set([item], source="items.jsonl").items[item["id"]]
    assert prepared.error is not None
    assert (prepared.error.file, prepared.error.line) == ("items.jsonl", 1)
    assert "not a path" in prepared.error.message and ref in prepared.error.message



def test_b8_score_takes_the_same_item_with_its_card_id() -> None:
    from ipb.scoring.items import item_set

    item = json.loads((Path(__file__).parent / "data" / "item_l7.jsonl").read_text(encoding="utf-8"))
    prepared = item_set([item], source="items.jsonl").items[item["id"]]
    assert prepared.error is None and [t.card_id for t in prepared.targets] == ["graham_net_net_screen"]
