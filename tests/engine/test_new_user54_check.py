"""s54newuser's card-author findings (report /work/notes/s54newuser.md; a Terry Smith quality card).

1. ``roce: operating_profit / capital_employed`` (money over money: 0.3 for 30%) against ``min_roce: 20`` passed
   ``ipb check`` silently and failed every scenario: such a quotient now counts as a share for the
   ``unitless-threshold`` lint when the threshold is above 1.
2. ``ipb screen`` gave a row breaking a constraint its verdict with no word: it now warns per row and writes a
   ``constraints_broken`` column.
3. A constraint reading a computed value was told "unknown name 'roce' ... (did you mean 'min_roce'?)".
4. A ``reentry`` whose ``while`` reads nothing the loop changes is warned about (``fixed-reentry``).
9. ``== yes`` says true/false is the word; ``ipb explain`` tries grid points, not ``$1.5002T``.

Each test fails on the tree before the change (checked by reverting each part).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.lint import lint_card
from ipb.engine._trials import _trial_values
from ipb.errors import ErrorGroup

runner = CliRunner()

CARD = """\
id: s54_quality
investor: Test Investor
name: Quality tests
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: each test in turn
decisive_default: true
vintage: {{start: 2010}}
sources: [{{tier: 1, document: Notes, year: 2010}}]
outcomes: {{pass: BUY, fail: AVOID}}
inputs:
  operating_profit: {{type: money, range: [$10M, $50B], step: $10M}}
  capital_employed: {{type: money, range: [$50M, $200B], step: $50M}}
  net_income: {{type: money, range: [$10M, $50B], step: $10M}}
  market_cap: {{type: money, range: [$500M, $3T], step: $500M}}
  shares_held: {{type: number, unit: shares, range: [0, 1000], step: 1}}
  shares_total: {{type: number, unit: shares, range: [1, 1000], step: 1}}
  disrupted: {{type: bool}}
constants:
  min_roce: {min_roce}
constraints:
  - {{id: profit_rule, require: {rule}, description: Net income is at most the operating profit.}}
gates:
  - id: returns
    name: High return on capital
    compute:
      roce: {roce}
      held: shares_held / shares_total
    proceed: roce >= min_roce and held <= {held}
    required_elements: ["ROCE {{roce}}", 20% minimum]
  - id: price
    name: Price
    compute:
      earnings_yield: net_income / market_cap * 100%
    proceed: earnings_yield >= 4% and disrupted == {truth}
    required_elements: ["earnings yield {{earnings_yield}}"]
{reentry}"""

DEFAULTS = {"min_roce": "20", "rule": "net_income <= operating_profit", "roce": "operating_profit / capital_employed",
            "held": "1", "truth": "false", "reentry": ""}


def _text(**changes: str) -> str:
    return CARD.format(**{**DEFAULTS, **changes})


def _card(**changes: str):  # type: ignore[no-untyped-def]
    return load_card_text(_text(**changes), "s54_quality.yaml")


def _rules(card, rule: str) -> list:  # type: ignore[no-untyped-def]
    return [w for w in [*card.warnings, *lint_card(card)] if w.rule == rule]


# ---------------------------------------------------------------------------------------------- 1. quotients


def test_plain_constant_against_a_money_quotient_warns_with_place_and_advice() -> None:
    (warning,) = _rules(_card(), "unitless-threshold")
    # '    proceed: roce >= min_roce and ...' is card line 29; 21 characters come before min_roce
    assert (warning.file, warning.line, warning.column) == ("s54_quality.yaml", 29, 22)
    assert "'roce' divides two values in one unit" in warning.message
    assert "20 would mean 2000%" in warning.message  # 20 as a share is 2,000%
    assert "declare 'min_roce: 20%'" in warning.message


def test_the_gold_it_guards_against_is_really_wrong() -> None:
    """30% ROCE (6 / 20) against the plain 20 fails: the silent wrong gold of the report."""
    from ipb.engine.execute import execute
    from ipb.engine.graph import compile_card

    facts = {"operating_profit": Decimal("6e9"), "capital_employed": Decimal("20e9"), "net_income": Decimal("4e9"),
             "market_cap": Decimal("50e9"), "shares_held": Decimal(1), "shares_total": Decimal(10), "disrupted": False}
    assert execute(compile_card(_card()), facts).trigger == "gate_1_reject"
    assert execute(compile_card(_card(min_roce="20%", roce="operating_profit / capital_employed * 100%")),
                   facts).trigger == "all_gates_cleared"


@pytest.mark.parametrize("changes", [
    {"min_roce": "0.2"},                                                  # a share, as the quotient is
    {"min_roce": "1"},                                                    # at most all of it
    {"min_roce": "20%", "roce": "operating_profit / capital_employed * 100%"},  # a ratio, as meant
    {"roce": "operating_profit / $1B"},                                   # over a constant: not two facts
    {"roce": "operating_profit / capital_employed * net_income / operating_profit"},  # not a single quotient
], ids=["share", "one", "ratio", "over-constant", "chain"])
def test_no_warning_where_the_threshold_fits(changes: dict[str, str]) -> None:
    found = [w for w in _rules(_card(**changes), "unitless-threshold") if "divides two values" in w.message]
    assert found == []


def test_a_count_over_a_count_of_one_unit_is_a_share_too() -> None:
    (warning,) = [w for w in _rules(_card(held="5"), "unitless-threshold") if "'held'" in w.message]
    assert "5 would mean 500%" in warning.message


def test_a_multiple_named_so_is_left_alone() -> None:
    text = re.sub(r"\broce\b", "price_to_capital", _text())
    card = load_card_text(text, "s54_quality.yaml")
    assert "price_to_capital >= min_roce" in text
    assert [w for w in _rules(card, "unitless-threshold") if "divides" in w.message] == []


@settings(max_examples=40, deadline=None)
@given(st.decimals(min_value=Decimal("-1"), max_value=Decimal("1"), places=2))
def test_no_threshold_within_one_warns(value: Decimal) -> None:
    card = _card(min_roce=str(value))
    assert [w for w in _rules(card, "unitless-threshold") if "divides" in w.message] == []


def test_bundled_cards_get_no_new_warning() -> None:
    result = runner.invoke(app, ["check", "frameworks/"])
    assert "divides two values in one unit" not in result.output
    assert "fixed-reentry" not in result.output


# ---------------------------------------------------------------------------------------------- 2. screen


def test_screen_warns_about_and_marks_a_row_breaking_a_constraint(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    card = tmp_path / "s54_quality.yaml"
    card.write_text(_text(min_roce="20%", roce="operating_profit / capital_employed * 100%"))
    table = tmp_path / "co.csv"
    table.write_text("name,operating_profit,capital_employed,net_income,market_cap,shares_held,shares_total,disrupted\n"
                     "Alpha,6000,20000,4800,100000,1,10,false\n"
                     "Zeta,4000,20000,4800,100000,1,10,false\n")   # net income 4.8B above operating profit 4B
    out = tmp_path / "out.csv"
    units = [a for n in ("operating_profit", "capital_employed", "net_income", "market_cap") for a in ("--unit", f"{n}=M")]
    result = runner.invoke(app, ["screen", str(card), str(table), "--out", str(out), *units])
    assert result.exit_code == 0, result.output
    # Zeta is row 1 (0-based), line 3 of the file; ROCE 20% and earnings yield 4.8% still give BUY
    assert (f"warning: {table}: row 1 (line 3): scenario breaks constraint 'profit_rule' of card s54_quality "
            "(net_income <= operating_profit): net_income = $4.8B, operating_profit = $4B") in result.output
    assert "row 0" not in result.output
    assert "1 row(s) break a constraint of the card (column constraints_broken)" in result.output
    lines = out.read_text().splitlines()
    assert lines[0].endswith('"constraints_broken"')
    assert lines[1].endswith(",") and '"BUY"' in lines[1]          # Alpha: null, breaks none
    assert lines[2].endswith('"profit_rule"') and '"BUY"' in lines[2]


def test_screen_column_only_for_cards_with_constraints() -> None:
    from ipb.engine.columnar.table import screen_table
    from ipb.engine.graph import compile_card

    pa = pytest.importorskip("pyarrow")
    table = pa.table({"operating_profit": [4e9, 6e9], "net_income": [4.8e9, 4.8e9]})
    text = _text(min_roce="20%", roce="operating_profit / capital_employed * 100%")
    done = screen_table(compile_card(load_card_text(text, "s54_quality.yaml")), table)
    assert done.table.column("constraints_broken").to_pylist() == ["profit_rule", None]
    assert done.broken.by_row == {0: ["profit_rule"]}
    bare = re.sub(r"constraints:\n.*\n", "", text)
    done = screen_table(compile_card(load_card_text(bare, "s54_quality.yaml")), table)
    assert "constraints_broken" not in done.table.column_names and done.broken.by_row == {}


# ------------------------------------------------------------------------------------------ 3. constraint names


def test_a_constraint_reading_a_computed_value_says_constraints_read_inputs() -> None:
    with pytest.raises(ErrorGroup) as caught:
        _card(rule="roce <= 200%", min_roce="20%", roce="operating_profit / capital_employed * 100%")
    text = "\n".join(str(e) for e in caught.value.errors)
    assert "a constraint reads inputs and constants only, and 'roce' is a value computed by gate 'returns'" in text
    assert "did you mean 'min_roce'" not in text
    assert "s54_quality.yaml:22:" in text  # the constraint's line


def test_an_unknown_name_in_a_constraint_keeps_its_did_you_mean() -> None:
    with pytest.raises(ErrorGroup) as caught:
        _card(rule="net_incom <= operating_profit")
    assert "did you mean 'net_income'" in "\n".join(str(e) for e in caught.value.errors)


# -------------------------------------------------------------------------------------------- 4. reentry


LOOP = """\
  - id: again
    name: Again
    proceed: market_cap > $0
    reentry: {{to: price, while: {cond}, max_iterations: 2}}
    required_elements: [again]
"""


def test_a_reentry_reading_only_facts_warns() -> None:
    (warning,) = _rules(_card(reentry=LOOP.format(cond="earnings_yield >= 4%")), "fixed-reentry")
    # line 40 is '    reentry: {to: price, while: earnings_yield >= 4%, ...}': 32 characters before the condition
    assert (warning.line, warning.column) == (40, 33)
    assert "taken 2 time(s) or not at all" in warning.message


@pytest.mark.parametrize("cond", ["iteration < 1", "earnings_yield >= 4% and iteration < 2"])
def test_a_reentry_reading_iteration_is_silent(cond: str) -> None:
    assert _rules(_card(reentry=LOOP.format(cond=cond)), "fixed-reentry") == []


def test_a_reentry_reading_iteration_through_a_value_is_silent() -> None:
    card = load_card_text(Path("tests/engine/cards/good/reentry_loop.yaml").read_text(), "reentry_loop.yaml")
    assert _rules(card, "fixed-reentry") == []


# -------------------------------------------------------------------------------------------- 9. cosmetics


@pytest.mark.parametrize("word, literal", [("yes", "true"), ("no", "false"), ("True", "true"), ("FALSE", "false")])
def test_yes_says_write_true(word: str, literal: str) -> None:
    with pytest.raises(ErrorGroup) as caught:
        _card(truth=word)
    text = "\n".join(str(e) for e in caught.value.errors)
    assert f"unknown name {word!r}; a truth value is written {literal} (lower case)" in text
    assert "neither a declared input" not in text


def test_explain_tries_the_grid_value_at_the_middle() -> None:
    # [$500M, $3T] step $500M: the midpoint $1.50025T floors to the grid value $500M + 2999 x $500M = $1.5T
    assert _trial_values(_card(), "market_cap") == [Decimal("5E+8"), Decimal("1.5E+12"), Decimal("3E+12")]


# ------------------------------------------------------------------------------------------ 7. unlinked ranges


def test_a_quotient_of_two_wide_unlinked_money_inputs_warns() -> None:
    by_name = {w.name: w for w in _rules(_card(), "unlinked-range")}
    assert set(by_name) == {"roce", "earnings_yield"}
    roce = by_name["roce"]
    assert (roce.line, roce.column) == (27, 7)  # the key 'roce' under compute
    # [$10M, $50B] over [$50M, $200B]: log10((50e9 / 50e6) / (10e6 / 200e9)) = log10(1000 / 0.00005) = 7.3
    assert "(7.3 orders of magnitude between their extremes)" in roce.message
    assert "operating_profit $50B on capital_employed $50M, 1,000 times it" in roce.message
    # s57nufix (C7): a shape with the factor left to the author; a fixed 10 forbade a quotient above 10x
    assert "'require: operating_profit <= K * capital_employed', K the largest roce" in roce.message


def test_a_constraint_reading_both_or_narrow_ranges_silence_it() -> None:
    tied = _text(rule="net_income <= operating_profit and operating_profit <= capital_employed")
    assert {w.name for w in _rules(load_card_text(tied, "s54_quality.yaml"), "unlinked-range")} == {"earnings_yield"}
    # [$1B, $5B] over [$2B, $9B]: log10((5 / 2) / (1 / 9)) = 1.35 decades, under 4
    narrow = _text().replace("operating_profit: {type: money, range: [$10M, $50B]",
                             "operating_profit: {type: money, range: [$1B, $5B]").replace("[$50M, $200B]", "[$2B, $9B]")
    assert "[$2B, $9B]" in narrow and "[$1B, $5B]" in narrow
    assert "roce" not in {w.name for w in _rules(load_card_text(narrow, "s54_quality.yaml"), "unlinked-range")}


# --------------------------------------------------------------------------------------- 9. names as labels


@pytest.mark.parametrize("spec, warned", [
    ("{type: multiple}", True),
    ("{type: multiple, label: net debt to EBITDA}", False),
    ("{type: multiple, description: Net debt over EBITDA.}", False),
], ids=["bare", "label", "description"])
def test_an_acronym_named_input_without_label_warns(spec: str, warned: bool) -> None:
    text = _text().replace("  disrupted: {type: bool}\n", f"  disrupted: {{type: bool}}\n  net_debt_to_ebitda: {spec}\n")
    found = _rules(load_card_text(text, "s54_quality.yaml"), "name-as-label")
    assert len(found) == warned
    if warned:
        assert (found[0].line, found[0].column) == (19, 3)  # the key, on the line after 'disrupted'
        assert "'The net debt to ebitda is ...'" in found[0].message
        assert "'label: net debt to EBITDA'" in found[0].message


def test_readme_reentry_example_loops_as_its_section_says() -> None:
    """README 'Re-entry loops': with target 3 the review sends the chain back while attempt (iteration + 1) < 3,
    so twice (attempts 1 and 2), and a while over facts alone is warned about."""
    from ipb.engine.execute import execute
    from ipb.engine.graph import compile_card

    readme = Path("README.md").read_text(encoding="utf-8").split("### Re-entry loops", 1)[1]
    gates = re.search(r"```yaml\n(.*?)```", readme, re.S).group(1)  # type: ignore[union-attr]
    head = Path("tests/engine/cards/good/reentry_loop.yaml").read_text().split("gates:\n", 1)[0]
    card = load_card_text(head + gates, "README.md")
    trace = execute(compile_card(card), {"target": Decimal(3)})
    assert (trace.iterations, trace.trigger) == (2, "all_gates_cleared")
    assert execute(compile_card(card), {"target": Decimal(1)}).iterations == 0
    assert _rules(card, "fixed-reentry") == []
    fixed = load_card_text(head + gates.replace("while: attempt < target", "while: target > 1"), "README.md")
    assert len(_rules(fixed, "fixed-reentry")) == 1


@pytest.mark.parametrize("card_id", ["graham_seven_tests_defensive", "greenblatt_magic_formula_screen"])
def test_screen_marks_exactly_the_rows_ipb_run_warns_about(card_id: str) -> None:
    """300 random rows over the inputs' ranges (most break some rule): the columnar marks equal the scalar rule on
    each row's facts (Graham: 59 require rules; Greenblatt: a derive rule)."""
    import numpy as np

    from ipb.engine.card import constraint_errors
    from ipb.engine.columnar.table import screen_table
    from ipb.engine.registry import compiled_card

    pa = pytest.importorskip("pyarrow")
    compiled = compiled_card(card_id)
    rng = np.random.default_rng(54)
    columns, facts = {}, [dict() for _ in range(300)]
    for name, spec in compiled.card.inputs.items():
        if spec.type in ("money", "number", "ratio", "multiple") and spec.range is not None:
            cells = [round(float(x), 4 if spec.type == "ratio" else 2)
                     for x in rng.uniform(float(spec.range[0]), float(spec.range[1]), 300)]
            columns[name] = cells
            for row, x in zip(facts, cells):
                row[name] = Decimal(repr(x))
    done = screen_table(compiled, pa.table(columns))
    skipped = set(done.broken.unchecked)  # Greenblatt's derive rule calls round(): not checked by screen
    assert skipped == (set() if card_id.startswith("graham") else {"combined_rank_from_the_two_yields"})
    want = {r: [e.name for e in constraint_errors(compiled.card, row) if e.name not in skipped]
            for r, row in enumerate(facts)}
    assert done.broken.by_row == {r: ids for r, ids in want.items() if ids}
    assert done.broken.count > 0  # (random facts break some rule on most rows: the comparison is not vacuous)
