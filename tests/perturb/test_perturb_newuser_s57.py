"""New-user report s57 (issue 18's perturbation from the docs alone): the findings fixed by s57nufix.

W1 (bug kind: a company larger than its era allows): a money input described "market value of the common and
preferred equity" was not recognised as the company's market value, so items dated 1990 stated up to $190B
against the year's $80B bound and ``ipb verify`` passed them. The noun phrase may now name the share classes,
a name that is the figure (``market_equity``) counts, and ``ipb check`` warns (rule ``unbounded-size``) about a
money input that reads like a market value but is still not recognised.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import InputSpec, load_card_text
from ipb.engine.expressions import MONEY
from ipb.perturb._size_lint import unbounded_size_warnings
from ipb.perturb.registries import load_regimes

runner = CliRunner()

#: A lender's two-gate screen in the shape of the new user's Z-score card (their own card is not in the repo).
CARD = """\
id: s57_lender_screen
investor: Test Lender
name: Lender screen
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: true
topology_rationale: The lender checks leverage, then how the market values the equity against the debt.
vintage: {start: 1968, end: null}
sources:
  - {tier: 1, document: "A test card", year: 1968}
outcomes: {pass: EXTEND_CREDIT, fail: DECLINE}
inputs:
  total_assets: {type: money, description: total assets on the latest balance sheet, range: [$100M, $50B], step: $100M}
  total_liabilities: {type: money, description: total liabilities on the latest balance sheet, range: [$50M, $45B], step: $50M}
  EQUITY: {type: money, description: DESCRIPTION, range: [$50M, $200B], step: $50M}
constraints:
  - id: liabilities_below_assets
    require: total_liabilities <= total_assets
    description: Liabilities at most the assets.
gates:
  - id: leverage
    name: Leverage
    reject: total_liabilities > total_assets * 0.8
    kill_criterion: too_much_debt
    required_elements: [liabilities]
  - id: cover
    name: Market cover of the debt
    reject: EQUITY < total_liabilities
    kill_criterion: equity_below_debt
    required_elements: [market value]
"""
BASE = """\
id: S57-BASE-1990
layer: L7
card: s57_lender_screen
as_of: "1990-12-31"
facts:
  total_assets: $4B
  total_liabilities: $3B
  EQUITY: $800M
"""


def _card_text(name: str, description: str) -> str:
    return CARD.replace("EQUITY", name).replace("DESCRIPTION", description)


@pytest.mark.parametrize("name,description,want", [
    ("mve", "market value of the common and preferred equity", True),  # the user's words (W1)
    ("mve", "Market value of the company's ordinary shares.", True),
    ("mve", "market equity, USD", True),
    ("market_equity", "the lender's view of the owners' stake", True),  # by name
    ("mkt_value", "", True),
    ("mve", "Market value of the stake.", False),  # a part of a company, as before
    ("market_value_of_stake", "Value of the shares the fund holds", False),
])
def test_a_market_value_is_recognised_by_its_words_or_name(name, description, want):
    spec = InputSpec(name, "money", MONEY, description=description)
    assert load_regimes().is_market_size(spec) is want


def test_dated_items_keep_the_market_value_under_the_years_bound(tmp_path):
    """The user's run: from a 1990 base, 40 of 986 dated items valued the company above $80B (up to $189.95B)."""
    card = tmp_path / "card.yaml"
    card.write_text(_card_text("market_equity", "market value of the common and preferred equity"), "utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(BASE.replace("EQUITY", "market_equity"), "utf-8")
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--ops", "metric",
                                 "--n", "300", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    dated = undated = 0
    for line in out.read_text("utf-8").splitlines():
        item = json.loads(line)
        value = Decimal(item["scenario"]["facts"]["market_equity"].strip("$B").replace("M", "e-3"))
        if item["manifest"]["context"]["as_of"] is None:
            undated += 1
            continue
        dated += 1
        assert value <= 80, item["id"]  # $80B, sizes.largest for 1990, in billions
    assert dated > 100 and undated > 0  # some draws passed $80B and lost the date instead


def test_check_warns_about_a_market_value_it_does_not_recognise(tmp_path):
    card = load_card_text(_card_text("mve", "market equity value summed over all share classes"), "c.yaml")
    [warning] = unbounded_size_warnings(card)
    assert warning.rule == "unbounded-size" and warning.name == "mve" and warning.line == 15
    assert "label: market capitalisation" in str(warning)
    path = tmp_path / "c.yaml"
    path.write_text(_card_text("mve", "market equity value summed over all share classes"), "utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert "unbounded-size" in result.output and "'mve'" in result.output
    # the fix the warning names silences it and bounds the input
    marked = load_card_text(_card_text("mve", "market equity value summed over all share classes").replace(
        "{type: money, description: market equity", "{type: money, label: market capitalisation, description: x"),
        "c.yaml")
    assert unbounded_size_warnings(marked) == [] and load_regimes().is_market_size(marked.inputs["mve"])
    # a stake's market value is not the company's: no warning
    stake = load_card_text(_card_text("mve", "Market value of the stake bought"), "c.yaml")
    assert unbounded_size_warnings(stake) == []


# C2 (bug kind: an error that does not say the fix): a stated derived value that differs from its rule printed
# the rule and the facts but not the value the rule gives; the user evaluated a nine-line formula by hand, twice.
DERIVE_CARD = CARD.replace(
    "  EQUITY: {type: money, description: DESCRIPTION, range: [$50M, $200B], step: $50M}\n",
    "  book_equity: {type: money, description: assets less liabilities, range: [-$45B, $50B], step: $50M}\n",
).replace(
    "    description: Liabilities at most the assets.\n",
    "    description: Liabilities at most the assets.\n"
    "  - id: equity_is_assets_less_liabilities\n    derive: book_equity\n"
    "    value: total_assets - total_liabilities\n    description: What the assets leave after the debt.\n",
).replace("reject: EQUITY < total_liabilities", "reject: book_equity < $0")


def test_a_wrong_derived_value_is_told_the_value_to_state(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text(DERIVE_CARD, "utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(BASE.replace("EQUITY: $800M", "book_equity: $1.2B"), "utf-8")
    result = runner.invoke(app, ["check", str(card), str(base)])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    # $4B - $3B, worked by hand
    assert "book_equity = $1.2B, total_assets = $4B, total_liabilities = $3B; the rule gives book_equity = $1B: " \
           "state that; What the assets leave after the debt." in out, out
    base.write_text(BASE.replace("EQUITY: $800M", "book_equity: $1B"), "utf-8")
    assert runner.invoke(app, ["check", str(card), str(base)]).exit_code == 0


# C1 (bug kind: a silent no-op): an input without a range is never moved by metric, flip or isolate; the user
# removed interest_expense's range and every item stated the base's $200M with nothing said.
def test_the_run_summary_names_an_input_no_range_moves(tmp_path):
    card = tmp_path / "card.yaml"
    text = _card_text("market_equity", "market value of the common and preferred equity")
    card.write_text(text.replace(
        "total_liabilities: {type: money, description: total liabilities on the latest balance sheet, "
        "range: [$50M, $45B], step: $50M}", "total_liabilities: {type: money, description: total liabilities}"),
        "utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(BASE.replace("EQUITY", "market_equity").replace('as_of: "1990-12-31"\n', ""), "utf-8")
    out, report = tmp_path / "items.jsonl", tmp_path / "report.json"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "60", "--seed", "1",
                                 "--out", str(out), "--report", str(report)])
    assert result.exit_code == 0, result.output
    stated = {json.loads(line)["scenario"]["facts"]["total_liabilities"] for line in out.read_text("utf-8").splitlines()}
    assert stated == {"$3B"}  # frozen, as the note says
    notes = [n for n in json.loads(report.read_text("utf-8"))["notes"] if "declares no range" in n]
    assert len(notes) == 1 and notes[0].startswith("input 'total_liabilities' declares no range: metric, flip and "
                                                   "isolate never change it")
    assert "note: input 'total_liabilities' declares no range" in " ".join(result.output.split())
    # with its range back, no note
    card.write_text(text, "utf-8")
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "20", "--seed", "1",
                                 "--out", str(out), "--report", str(report)])
    assert result.exit_code == 0 and not any("declares no range" in n
                                             for n in json.loads(report.read_text("utf-8"))["notes"])


# C7 (bug kind: advice that breaks the card): unlinked-range suggested 'require: ebit <= 10 * interest_expense',
# which forbids interest cover above 10x (a sound borrower's), a fixed template whatever the gate's threshold.
def test_unlinked_range_gives_a_shape_with_the_factor_left_to_the_author():
    from ipb.engine.lint import lint_card

    text = CARD.replace("  EQUITY: {type: money, description: DESCRIPTION, range: [$50M, $200B], step: $50M}\n",
                        "  ebit: {type: money, description: operating profit, range: [$10M, $10B], step: $10M}\n"
                        "  interest_expense: {type: money, description: interest paid, range: [$1M, $3B], step: $1M}\n"
                        ).replace("    reject: EQUITY < total_liabilities\n",
                                  "    compute:\n      interest_cover: ebit / interest_expense\n"
                                  "    reject: interest_cover < 3\n")
    [warning] = [w for w in lint_card(load_card_text(text, "c.yaml")) if w.rule == "unlinked-range"]
    message = " ".join(str(warning).split())
    assert "10 * interest_expense" not in message
    assert ("constraint of the shape 'require: ebit <= K * interest_expense', K the largest interest_cover the "
            "investor's world allows, above every threshold a gate compares interest_cover with") in message


# C3 (bug kind: a dropped date with no reason): 14 items of the user's 1990 base lost their date because sales
# passed the $80B market-value bound; the summary said only "14 undated (a fact that describes the day moved, or
# the date rules one out)". The summary and --report now count the reasons.
def test_the_summary_says_why_items_lost_their_date(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text(_card_text("market_equity", "market value of the common and preferred equity"), "utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(BASE.replace("EQUITY", "market_equity"), "utf-8")
    out, report = tmp_path / "items.jsonl", tmp_path / "report.json"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--ops", "metric",
                                 "--n", "300", "--seed", "3", "--out", str(out), "--report", str(report)])
    assert result.exit_code == 0, result.output
    undated = sum(json.loads(line)["manifest"]["context"]["as_of"] is None
                  for line in out.read_text("utf-8").splitlines())
    [metric] = json.loads(report.read_text("utf-8"))["recipes"]
    why = "market_equity above 1990's market-value bound ($80B)"  # the only input that can pass it here
    assert undated > 0 and metric["undated"] == undated and metric["undated_why"] == {why: undated}
    assert (f"{undated} undated (a fact that describes the day moved, or the date rules one out): {undated} {why}"
            in " ".join(result.output.split()))
