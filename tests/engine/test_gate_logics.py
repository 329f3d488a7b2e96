"""The five gate logics, executed on small hand-written cards (``ipb.engine.execute``).

Each card lives in ``cards/good/``. Every numeric gate follows one convention,
so that a scenario can be written as a row of signs and its trace worked out
by hand:

* input positive -> PROCEED, negative -> REJECT, zero or unknown -> INCONCLUSIVE.

A scenario such as ``"+?-0"`` gives the card's numeric inputs, in declaration
order, the values 1, unknown (left out), -1 and 0. The expected verdicts,
outcome, trigger and the GRP's ``kill_criterion`` column below are worked out
from the semantics in the module docstring of ``engine/execute.py`` (paper
§7.3, Table 5), not copied from the engine's output.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.card import load_card, load_card_text
from ipb.engine.execute import Trace, execute, execute_many
from ipb.engine.graph import CompiledCard, compile_card
from ipb.errors import IpbError

GOOD = Path(__file__).parent / "cards" / "good"

P, R, I, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"

_SIGN = {"+": Decimal(1), "-": Decimal(-1), "0": Decimal(0)}


@lru_cache(maxsize=None)
def compiled(name: str) -> CompiledCard:
    """The compiled card ``cards/good/<name>.yaml``."""
    return compile_card(load_card(GOOD / f"{name}.yaml"))


def numeric_inputs(card: CompiledCard) -> list[str]:
    return [n for n, spec in card.card.inputs.items() if spec.type == "number"]


def signs(card: CompiledCard, row: str) -> dict[str, Decimal]:
    """Facts from a row of signs: ``+`` is 1, ``-`` is -1, ``0`` is 0, ``?`` is left out."""
    names = numeric_inputs(card)
    assert len(row) == len(names), f"{row!r} needs one sign per input {names}"
    return {name: _SIGN[s] for name, s in zip(names, row) if s != "?"}


def kill_column(trace: Trace) -> list[str | None]:
    """The GRP's ``kill_criterion`` field, gate by gate (N/A reasons included)."""
    return [entry["kill_criterion"] for entry in trace.to_grp()["gold_program"]]


def run(name: str, row: str, **extra: Any) -> Trace:
    card = compiled(name)
    return execute(card, {**signs(card, row), **extra})


def check(trace: Trace, verdicts: list[str], outcome: str, trigger: str, kills: list[str | None]) -> None:
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    assert kill_column(trace) == kills
    grp = trace.to_grp()
    assert (grp["investment_verdict"], grp["verdict_trigger"]) == (outcome, trigger)
    assert [e["verdict"] for e in grp["gold_program"]] == verdicts


def test_every_good_card_loads_and_compiles() -> None:
    names = sorted(p.stem for p in GOOD.glob("*.yaml"))
    assert len(names) >= 9
    for name in names:
        card = compiled(name)
        assert card.id == name


# --------------------------------------------------------------------------- linear conjunction

T1, T2, T3 = "terminated_by_gate_1", "terminated_by_gate_2", "terminated_by_gate_3"

LINEAR_CONJUNCTION = [
    # id, signs, verdicts, outcome, trigger, kill_criterion column
    ("all-clear", "++++", [P, P, P, P], "INVEST", "all_gates_cleared", [None, None, None, None]),
    ("reject-at-gate-1-stops-the-chain", "-+++", [R, NA, NA, NA], "DECLINE", "gate_1_reject", ["a_negative", T1, T1, T1]),
    ("first-reject-wins", "+--+", [P, R, NA, NA], "DECLINE", "gate_2_reject", [None, "b_negative", T2, T2]),
    ("inconclusive-does-not-stop", "?+0+", [I, P, I, P], "INVEST", "all_gates_cleared", [None, None, None, None]),
    ("inconclusive-then-reject", "+?-+", [P, I, R, NA], "DECLINE", "gate_3_reject", [None, None, "c_negative", T3]),
    ("last-gate-rejects", "+++-", [P, P, P, R], "DECLINE", "gate_4_reject", [None, None, None, "d_negative"]),
    # No REJECT, but no gate PROCEEDed either: the evidence decides nothing, so neither does the card.
    ("nothing-known-no-reject", "????", [I, I, I, I], "INCONCLUSIVE", "no_gate_decided", [None, None, None, None]),
]


@pytest.mark.parametrize(
    "row, verdicts, outcome, trigger, kills",
    [c[1:] for c in LINEAR_CONJUNCTION],
    ids=[c[0] for c in LINEAR_CONJUNCTION],
)
def test_linear_conjunction(row: str, verdicts: list[str], outcome: str, trigger: str, kills: list[str | None]) -> None:
    check(run("linear_conjunction", row), verdicts, outcome, trigger, kills)


def test_linear_conjunction_kill_triggered_only_on_the_rejecting_gate() -> None:
    grp = run("linear_conjunction", "+-++").to_grp()
    assert [e["kill_triggered"] for e in grp["gold_program"]] == [False, True, False, False]
    # N/A gates cite nothing.
    assert [e["required_elements"] for e in grp["gold_program"]] == [["a checked"], ["b checked"], [], []]


def test_diagnostic_mode_reports_would_be_verdicts_of_skipped_gates() -> None:
    card = compiled("linear_conjunction")
    # Gate 2 rejects; gate 3 would REJECT (c < 0) and gate 4 would be INCONCLUSIVE (d unknown).
    facts = signs(card, "+--?")
    plain = execute(card, facts)
    diag = execute(card, facts, diagnostic=True)

    assert diag.verdicts() == plain.verdicts() == [P, R, NA, NA]
    assert (diag.outcome, diag.trigger) == (plain.outcome, plain.trigger) == ("DECLINE", "gate_2_reject")
    assert [r.diagnostic_verdict for r in diag.gates] == [None, None, R, I]
    assert [r.diagnostic_verdict for r in plain.gates] == [None, None, None, None]

    grp = diag.to_grp()
    assert grp["diagnostic"] is True
    assert [e.get("diagnostic_verdict") for e in grp["gold_program"]] == [None, None, R, I]
    # The skipped gates stay N/A, with the reason, in the diagnostic GRP too.
    assert kill_column(diag) == [None, "b_negative", T2, T2]
    assert "diagnostic" not in plain.to_grp()


def _without_diagnostics(grp: dict[str, Any]) -> dict[str, Any]:
    grp = json.loads(json.dumps(grp))
    grp.pop("diagnostic", None)
    for entry in grp["gold_program"]:
        entry.pop("diagnostic_verdict", None)
    return grp


@pytest.mark.parametrize("name", ["linear_conjunction", "linear_disjunction", "reentry_loop"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_diagnostic_mode_only_adds_diagnostic_fields(name: str, data: st.DataObject) -> None:
    card = compiled(name)
    names = list(card.card.inputs)
    facts = data.draw(
        st.fixed_dictionaries({}, optional={n: st.sampled_from([Decimal(-1), Decimal(0), Decimal(2)]) for n in names})
    )
    plain = execute(card, facts).to_grp()
    diag = execute(card, facts, diagnostic=True).to_grp()
    assert _without_diagnostics(diag) == plain


LATER_VALUE_IN_ELEMENT = """\
id: later_value
investor: Test Investor
name: Element naming a later value
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Two tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  a: {type: number}
  b: {type: number}
gates:
  - {id: first, name: First, reject: a < 0, required_elements: ["next score {score}"]}
  - {id: second, name: Second, compute: {score: b * 2}, reject: score < 0, required_elements: [score]}
"""


def test_diagnostic_mode_does_not_change_reached_gates() -> None:
    card = compile_card(load_card_text(LATER_VALUE_IN_ELEMENT))
    facts = {"a": Decimal(-1), "b": Decimal(3)}
    plain = execute(card, facts).to_grp()
    assert plain["gold_program"][0]["required_elements"] == ["next score unknown"]  # gate 2 never ran
    assert _without_diagnostics(execute(card, facts, diagnostic=True).to_grp()) == plain


ITERATION_WITHOUT_LOOP = """\
id: no_loop
investor: Test Investor
name: Reads iteration without a loop
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  a: {type: number}
gates:
  - {id: first, name: First, compute: {attempt: iteration + 1}, proceed: iteration == 0, required_elements: [a]}
"""


def test_iteration_is_zero_without_a_reentry_loop() -> None:
    trace = execute(compile_card(load_card_text(ITERATION_WITHOUT_LOOP)), {})
    assert trace.verdicts() == [P]
    assert trace.to_grp()["gold_program"][0]["computed_value"] == "1"


def test_diagnostic_mode_on_a_cleared_chain_adds_nothing() -> None:
    diag = execute(compiled("linear_conjunction"), signs(compiled("linear_conjunction"), "++++"), diagnostic=True)
    assert [r.diagnostic_verdict for r in diag.gates] == [None] * 4


# --------------------------------------------------------------------------- parallel conjunction

PARALLEL_CONJUNCTION = [
    ("all-clear", "+++", [P, P, P], "INVEST", "all_gates_cleared", [None, None, None]),
    # Every gate runs: nothing is N/A after a REJECT; the first REJECT names the trigger.
    ("reject-does-not-stop-the-others", "-+-", [R, P, R], "DECLINE", "gate_1_reject", ["a_negative", None, None]),
    ("one-reject-fails", "+?-", [P, I, R], "DECLINE", "gate_3_reject", [None, None, None]),
    ("inconclusive-without-reject-passes", "0+?", [I, P, I], "INVEST", "all_gates_cleared", [None, None, None]),
]


@pytest.mark.parametrize(
    "row, verdicts, outcome, trigger, kills",
    [c[1:] for c in PARALLEL_CONJUNCTION],
    ids=[c[0] for c in PARALLEL_CONJUNCTION],
)
def test_parallel_conjunction(row: str, verdicts: list[str], outcome: str, trigger: str, kills: list[str | None]) -> None:
    check(run("parallel_conjunction", row), verdicts, outcome, trigger, kills)


def test_parallel_conjunction_marks_every_kill_that_fired() -> None:
    grp = run("parallel_conjunction", "--+").to_grp()
    assert [e["kill_triggered"] for e in grp["gold_program"]] == [True, True, False]
    assert kill_column(run("parallel_conjunction", "--+")) == ["a_negative", "b_negative", None]


# --------------------------------------------------------------------------- disjunction

LINEAR_DISJUNCTION = [
    # The card's own vocabulary: pass = HOLD (no trigger fired), fail = SELL; a trigger that
    # fires is a REJECT (paper §7.3: the kill criterion fired), a checked quiet one PROCEEDs.
    ("first-trigger-fires", "+-+", [R, NA, NA], "SELL", "gate_1_trigger", [None, T1, T1]),
    ("second-trigger-fires", "-+-", [P, R, NA], "SELL", "gate_2_trigger", [None, None, T2]),
    ("inconclusive-then-fires", "?0+", [I, I, R], "SELL", "gate_3_trigger", [None, None, None]),
    ("none-fired-all-checked", "---", [P, P, P], "HOLD", "no_trigger_fired", [None, None, None]),
    ("none-fired-one-open", "-?-", [P, I, P], "INCONCLUSIVE", "undetermined", [None, None, None]),
    ("nothing-known", "???", [I, I, I], "INCONCLUSIVE", "undetermined", [None, None, None]),
]


@pytest.mark.parametrize(
    "row, verdicts, outcome, trigger, kills",
    [c[1:] for c in LINEAR_DISJUNCTION],
    ids=[c[0] for c in LINEAR_DISJUNCTION],
)
def test_linear_disjunction(row: str, verdicts: list[str], outcome: str, trigger: str, kills: list[str | None]) -> None:
    check(run("linear_disjunction", row), verdicts, outcome, trigger, kills)


PARALLEL_DISJUNCTION = [
    # Every signal is evaluated; the first REJECT (signal present) names the trigger and fails the card.
    ("fires-and-the-rest-still-run", "-+-", [P, R, P], "DECLINE", "gate_2_trigger"),
    ("two-fire-first-named", "?++", [I, R, R], "DECLINE", "gate_2_trigger"),
    ("none-fired-all-checked", "---", [P, P, P], "INVEST", "no_trigger_fired"),
    ("none-fired-one-open", "--0", [P, P, I], "INCONCLUSIVE", "undetermined"),
]


@pytest.mark.parametrize(
    "row, verdicts, outcome, trigger",
    [c[1:] for c in PARALLEL_DISJUNCTION],
    ids=[c[0] for c in PARALLEL_DISJUNCTION],
)
def test_parallel_disjunction(row: str, verdicts: list[str], outcome: str, trigger: str) -> None:
    check(run("parallel_disjunction", row), verdicts, outcome, trigger, [None, None, None])


# --------------------------------------------------------------------------- weighted thresholds

THRESHOLD_3_OF_5 = [
    # count: PROCEED, n = min_weight = 3. met: 3+ PROCEED; not met: PROCEED + INCONCLUSIVE < 3.
    ("exactly-three", "+++--", "INVEST", "threshold_met_3_of_5"),
    ("all-five", "+++++", "INVEST", "threshold_met_5_of_5"),
    ("met-despite-open-gates", "+?+?+", "INVEST", "threshold_met_3_of_5"),
    ("two-and-rest-reject", "++---", "DECLINE", "threshold_not_met_2_of_5"),
    # One open gate cannot lift 1 PROCEED to 3: decided although a gate is INCONCLUSIVE.
    ("open-gate-cannot-change-it", "+?---", "DECLINE", "threshold_not_met_1_of_5"),
    # 2 PROCEED + 1 open could still reach 3.
    ("open-gate-could-change-it", "++?--", "INCONCLUSIVE", "threshold_undecided_2_of_5"),
    ("one-and-two-open", "+0?--", "INCONCLUSIVE", "threshold_undecided_1_of_5"),
    ("nothing-known", "?????", "INCONCLUSIVE", "threshold_undecided_0_of_5"),
]


@pytest.mark.parametrize(
    "row, outcome, trigger", [c[1:] for c in THRESHOLD_3_OF_5], ids=[c[0] for c in THRESHOLD_3_OF_5]
)
def test_weighted_threshold_3_of_5_counts_proceed(row: str, outcome: str, trigger: str) -> None:
    trace = run("threshold_3_of_5", row)
    expected = [{"+": P, "-": R}.get(s, I) for s in row]  # every gate runs
    check(trace, expected, outcome, trigger, [None] * 5)


THRESHOLD_4_OF_7_REJECT = [
    # count: REJECT, n = 4. The threshold sinks the card: met -> fail verdict (DECLINE).
    ("four-warnings-sink-it", "----+++", "DECLINE", "threshold_met_4_of_7"),
    ("seven-warnings", "-------", "DECLINE", "threshold_met_7_of_7"),
    ("three-warnings-pass", "---++++", "INVEST", "threshold_not_met_3_of_7"),
    ("no-warnings", "+++++++", "INVEST", "threshold_not_met_0_of_7"),
    # 3 REJECT + 1 open could make 4.
    ("open-gate-could-sink-it", "---?+++", "INCONCLUSIVE", "threshold_undecided_3_of_7"),
    # 2 REJECT + 1 open is at most 3: decided.
    ("open-gate-cannot-sink-it", "--?++++", "INVEST", "threshold_not_met_2_of_7"),
    ("met-despite-open-gates", "-?-?-?-", "DECLINE", "threshold_met_4_of_7"),
    ("two-and-two-open", "-0-?+++", "INCONCLUSIVE", "threshold_undecided_2_of_7"),
]


@pytest.mark.parametrize(
    "row, outcome, trigger",
    [c[1:] for c in THRESHOLD_4_OF_7_REJECT],
    ids=[c[0] for c in THRESHOLD_4_OF_7_REJECT],
)
def test_weighted_threshold_4_of_7_counts_reject(row: str, outcome: str, trigger: str) -> None:
    trace = run("threshold_4_of_7_reject", row)
    expected = [{"+": P, "-": R}.get(s, I) for s in row]
    kills = [f"{name}_fails" if s == "-" else None for name, s in zip("abcdefg", row)]
    check(trace, expected, outcome, trigger, kills)


WEIGHTED_2_OF_4 = [
    # weights a=2, b=c=d=1; count PROCEED; min_weight 3 (not n = 2).
    ("heavy-plus-one", "++--", "INVEST", "threshold_met_2_of_4"),
    # Two PROCEED gates (n = 2) but only weight 2 < 3: not met, and the trigger says the weight fell short
    # (s53lint, s53newuser finding 7: it read threshold_not_met_2_of_4 though the count was met).
    ("two-light-gates-are-not-enough", "-++-", "DECLINE", "weight_not_met_2_of_4"),
    ("three-light-gates", "-+++", "INVEST", "threshold_met_3_of_4"),
    ("heavy-alone", "+---", "DECLINE", "threshold_not_met_1_of_4"),
    # weight 2 proceeding + 1 open = 3 could reach min_weight.
    ("heavy-and-one-open", "+?--", "INCONCLUSIVE", "threshold_undecided_1_of_4"),
    # weight 1 proceeding + 1 open = 2 < 3: decided.
    ("light-and-light-open", "-+?-", "DECLINE", "threshold_not_met_1_of_4"),
    # weight 1 proceeding + heavy open (2) = 3: undecided.
    ("heavy-gate-open", "?+--", "INCONCLUSIVE", "threshold_undecided_1_of_4"),
]


@pytest.mark.parametrize(
    "row, outcome, trigger", [c[1:] for c in WEIGHTED_2_OF_4], ids=[c[0] for c in WEIGHTED_2_OF_4]
)
def test_weighted_threshold_with_weights_and_min_weight(row: str, outcome: str, trigger: str) -> None:
    trace = run("weighted_2_of_4", row)
    expected = [{"+": P, "-": R}.get(s, I) for s in row]
    check(trace, expected, outcome, trigger, [None] * 4)


def _resolutions(row: str) -> list[str]:
    """Every row obtained by deciding each open gate (``0`` or ``?``) as ``+`` or ``-``."""
    rows = [""]
    for s in row:
        rows = [r + t for r in rows for t in ("+-" if s in "0?" else s)]
    return rows


@pytest.mark.parametrize(
    "name", ["threshold_3_of_5", "threshold_4_of_7_reject", "weighted_2_of_4", "parallel_disjunction", "linear_disjunction"]
)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_inconclusive_exactly_when_open_gates_could_change_the_outcome(name: str, data: st.DataObject) -> None:
    """Decided outcomes survive every resolution of the open gates; INCONCLUSIVE ones do not."""
    card = compiled(name)
    width = len(numeric_inputs(card))
    row = data.draw(st.text(alphabet="+-0?", min_size=width, max_size=width))
    outcome = run(name, row).outcome
    resolved = {run(name, r).outcome for r in _resolutions(row)}
    if outcome == "INCONCLUSIVE":
        assert len(resolved) == 2, (row, resolved)
    else:
        assert resolved == {outcome}, (row, resolved)


def test_threshold_graph_shows_the_join() -> None:
    g = compiled("threshold_4_of_7_reject").graph
    assert g.nodes["join"] == {"kind": "join", "label": "4 of 7 REJECT"}
    # Counting REJECTs: reaching 4 of 7 sinks the card (fail outcome DECLINE).
    assert {(d["label"], v) for _, v, d in g.out_edges("join", data=True)} == {
        ("met", "outcome:DECLINE"),
        ("not met", "outcome:INVEST"),
    }


THRESHOLD_KEY_AS_DOCUMENTED = """\
id: plain_n
investor: Test Investor
name: Plain n key
topology_type: parallel_threshold
gate_logic: weighted_threshold_1_of_1
topology_rationale: One test.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
threshold: {count: PROCEED, at_least: 1}
inputs:
  a: {type: number}
gates:
  - {id: test_a, name: Test A, proceed: a > 0, required_elements: [a]}
"""


def test_threshold_block_written_as_documented_loads() -> None:
    """Regression (ambiguous key): the N of the block was once a bare 'n', a YAML 1.1 boolean."""
    card = compile_card(load_card_text(THRESHOLD_KEY_AS_DOCUMENTED))
    assert card.card.threshold is not None and card.card.threshold.n == 1
    assert execute(card, {"a": Decimal(5)}).outcome == "INVEST"


def test_threshold_key_n_is_refused_with_a_pointed_message() -> None:
    with pytest.raises(IpbError) as info:
        load_card_text(THRESHOLD_KEY_AS_DOCUMENTED.replace(" at_least: 1", " n: 1"))
    errors = getattr(info.value, "errors", [info.value])
    assert any("quote" in e.message and e.rule == "ambiguous-scalar" for e in errors)


# --------------------------------------------------------------------------- conditional branch

NOT_GROWTH, NOT_VALUE, NOT_DEFENSIVE = "not_on_branch_growth", "not_on_branch_value", "not_on_branch_defensive"

# Gates: 1 screen (a), 2 regime (market), 3 growth_g (g), 4 quality_h (h), 5 value_v (v).
# growth = [growth_g, quality_h] -> BUY_GROWTH / AVOID; value = [value_v, quality_h] ->
# BUY_VALUE / DECLINE; defensive = [] -> HOLD_CASH.
CONDITIONAL = [
    # id, facts, verdicts, outcome, trigger, regime, kill column
    ("growth-branch-clears", dict(a=1, market="bull", g=1, h=1),
     [P, P, P, P, NA], "BUY_GROWTH", "regime_growth", "growth", [None, None, None, None, NOT_GROWTH]),
    ("growth-branch-rejects", dict(a=1, market="bull", g=-1, h=1),
     [P, P, R, NA, NA], "AVOID", "regime_growth_gate_3_reject", "growth", [None, None, "no_growth", T3, NOT_GROWTH]),
    ("growth-branch-inconclusive-does-not-stop", dict(a=1, market="bull", g=0, h=1),
     [P, P, I, P, NA], "BUY_GROWTH", "regime_growth", "growth", [None, None, None, None, NOT_GROWTH]),
    # The value branch runs value_v (gate 5) before quality_h (gate 4): branch order, not card order.
    ("value-branch-rejects-at-its-second-gate", dict(a=1, market="bear", g=-1, h=-1, v=1),
     [P, P, NA, R, P], "DECLINE", "regime_value_gate_4_reject", "value", [None, None, NOT_VALUE, "low_quality", None]),
    ("value-branch-first-gate-stops-it", dict(a=1, market="bear", h=1, v=-1),
     [P, P, NA, NA, R], "DECLINE", "regime_value_gate_5_reject", "value", [None, None, NOT_VALUE, "terminated_by_gate_5", "too_expensive"]),
    ("value-branch-clears", dict(a=1, market="bear", h=1, v=1),
     [P, P, NA, P, P], "BUY_VALUE", "regime_value", "value", [None, None, NOT_VALUE, None, None]),
    ("fallback-branch-with-no-gates", dict(a=1, market="sideways", g=-1),
     [P, P, NA, NA, NA], "HOLD_CASH", "regime_defensive", "defensive", [None, None, NOT_DEFENSIVE, NOT_DEFENSIVE, NOT_DEFENSIVE]),
    ("prefix-reject-ends-before-the-classifier", dict(a=-1, market="bull", g=1, h=1),
     [R, NA, NA, NA, NA], "DECLINE", "gate_1_reject", None, ["screen_failed", T1, T1, T1, T1]),
    ("prefix-inconclusive-continues", dict(market="bull", g=1, h=1),
     [I, P, P, P, NA], "BUY_GROWTH", "regime_growth", "growth", [None, None, None, None, NOT_GROWTH]),
    # The first rule (market == "bull") is unknown: the regime cannot be chosen.
    ("regime-undetermined", dict(a=1, g=1, h=1, v=1),
     [P, I, NA, NA, NA], "INCONCLUSIVE", "regime_undetermined", None, [None, None, T2, T2, T2]),
]


@pytest.mark.parametrize(
    "facts, verdicts, outcome, trigger, regime, kills",
    [c[1:] for c in CONDITIONAL],
    ids=[c[0] for c in CONDITIONAL],
)
def test_conditional_branch_regime_dependent(
    facts: dict[str, Any], verdicts: list[str], outcome: str, trigger: str, regime: str | None, kills: list[str | None]
) -> None:
    typed = {k: Decimal(v) if isinstance(v, int) else v for k, v in facts.items()}
    trace = execute(compiled("conditional_regime"), typed)
    check(trace, verdicts, outcome, trigger, kills)
    assert trace.regime == regime
    assert trace.to_grp().get("regime") == regime


def test_classifier_reports_the_regime_as_its_computed_value() -> None:
    trace = execute(compiled("conditional_regime"), {"a": Decimal(1), "market": "bear", "h": Decimal(1), "v": Decimal(1)})
    assert trace.gate("regime").computed == {"regime": "value"}
    assert trace.to_grp()["gold_program"][1]["computed_value"] == "value"


def test_conditional_diagnostic_evaluates_off_branch_gates() -> None:
    facts = {"a": Decimal(1), "market": "bull", "g": Decimal(1), "h": Decimal(1), "v": Decimal(-1)}
    trace = execute(compiled("conditional_regime"), facts, diagnostic=True)
    assert trace.verdicts() == [P, P, P, P, NA]
    assert trace.gate("value_v").diagnostic_verdict == R
    assert kill_column(trace)[4] == NOT_GROWTH


def test_conditional_graph_branch_edges() -> None:
    g = compiled("conditional_regime").graph
    branch_edges = [(u, v, d["label"]) for u, v, d in g.edges(data=True) if d["kind"] == "branch"]
    assert branch_edges == [
        ("regime", "growth_g", "growth"),
        ("regime", "value_v", "value"),
        ("regime", "outcome:HOLD_CASH", "defensive"),
    ]


# --------------------------------------------------------------------------- re-entry

REENTRY = [
    # target -> (verdicts, outcome, trigger, loops taken, final attempt shown by gate 1)
    # attempt = iteration + 1; the loop goes back while attempt < target, at most 5 times.
    ("no-loop-needed", 1, [P, P, P], "INVEST", "all_gates_cleared", 0, "1"),
    ("two-loops", 3, [P, P, P], "INVEST", "all_gates_cleared", 2, "3"),
    ("bounded-at-max-iterations", 100, [P, P, P], "INVEST", "all_gates_cleared", 5, "6"),
    ("unknown-condition-does-not-loop", None, [P, I, P], "INVEST", "all_gates_cleared", 0, "1"),
    ("reject-stops-before-looping", -1, [P, R, NA], "DECLINE", "gate_2_reject", 0, "1"),
]


@pytest.mark.parametrize(
    "target, verdicts, outcome, trigger, loops, attempt",
    [c[1:] for c in REENTRY],
    ids=[c[0] for c in REENTRY],
)
def test_reentry_loop_is_bounded(
    target: int | None, verdicts: list[str], outcome: str, trigger: str, loops: int, attempt: str
) -> None:
    facts = {} if target is None else {"target": Decimal(target)}
    trace = execute(compiled("reentry_loop"), facts)
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    assert trace.iterations == loops
    grp = trace.to_grp()
    assert grp["gold_program"][0]["computed_value"] == attempt
    assert grp["gold_program"][0]["required_elements"] == [f"attempt {attempt}"]


def test_reentry_edge_in_graph() -> None:
    g = compiled("reentry_loop").graph
    assert g.edges["review", "draft"] == {
        "kind": "reentry",
        "label": "while attempt < target",
        "max_iterations": 5,
    }


def test_iteration_restarts_for_every_scenario() -> None:
    card = compiled("reentry_loop")
    first = execute(card, {"target": Decimal(3)})
    again = execute(card, {"target": Decimal(3)})
    assert first.iterations == again.iterations == 2
    batch = list(execute_many(card, [{"target": Decimal(3)}, {"target": Decimal(3)}]))
    assert batch[0] == batch[1]


# --------------------------------------------------------------------------- outcome vocabulary


def test_custom_outcomes_appear_in_graph_and_grp() -> None:
    card = compiled("linear_disjunction")
    assert card.card.outcomes == {"pass": "HOLD", "fail": "SELL"}
    outcome_nodes = [n for n, d in card.graph.nodes(data=True) if d["kind"] == "outcome"]
    assert outcome_nodes == ["outcome:HOLD", "outcome:SELL"]
    assert run("linear_disjunction", "+??").to_grp()["investment_verdict"] == "SELL"
    assert run("linear_disjunction", "---").to_grp()["investment_verdict"] == "HOLD"


def test_default_outcomes_are_invest_and_decline() -> None:
    assert compiled("linear_conjunction").card.outcomes == {"pass": "INVEST", "fail": "DECLINE"}


# --------------------------------------------------------------------------- execute_many == execute

ALL_SIGN_CARDS = [
    "linear_conjunction",
    "parallel_conjunction",
    "linear_disjunction",
    "parallel_disjunction",
    "threshold_3_of_5",
    "threshold_4_of_7_reject",
    "weighted_2_of_4",
]


def _same(card: CompiledCard, scenarios: list[dict[str, Any]]) -> None:
    batch = list(execute_many(card, scenarios))
    assert len(batch) == len(scenarios)
    for facts, result in zip(scenarios, batch):
        trace = execute(card, facts)
        assert (result.outcome, result.trigger) == (trace.outcome, trace.trigger), facts
        assert [v.value for v in result.verdicts] == trace.verdicts(), facts


@pytest.mark.parametrize("name", ALL_SIGN_CARDS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_execute_many_matches_execute(name: str, data: st.DataObject) -> None:
    card = compiled(name)
    width = len(numeric_inputs(card))
    rows = data.draw(st.lists(st.text(alphabet="+-0?", min_size=width, max_size=width), min_size=1, max_size=8))
    _same(card, [signs(card, row) for row in rows])


@settings(max_examples=80, deadline=None)
@given(
    scenarios=st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "a": st.sampled_from([Decimal(-1), Decimal(0), Decimal(1)]),
                "market": st.sampled_from(["bull", "bear", "sideways"]),
                "g": st.sampled_from([Decimal(-1), Decimal(0), Decimal(1)]),
                "h": st.sampled_from([Decimal(-1), Decimal(0), Decimal(1)]),
                "v": st.sampled_from([Decimal(-1), Decimal(0), Decimal(1)]),
            },
        ),
        min_size=1,
        max_size=8,
    )
)
def test_execute_many_matches_execute_on_branches(scenarios: list[dict[str, Any]]) -> None:
    _same(compiled("conditional_regime"), scenarios)


def test_execute_many_matches_execute_on_reentry() -> None:
    _same(compiled("reentry_loop"), [{"target": Decimal(t)} for t in (-2, 0, 1, 2, 3, 6, 50)] + [{}])


def test_execute_many_matches_execute_on_hand_worked_rows() -> None:
    """The hand-worked rows above, run as one batch per card."""
    for name, table in [
        ("linear_conjunction", LINEAR_CONJUNCTION),
        ("parallel_conjunction", PARALLEL_CONJUNCTION),
        ("linear_disjunction", LINEAR_DISJUNCTION),
    ]:
        card = compiled(name)
        _same(card, [signs(card, row[1]) for row in table])


def test_trace_grp_is_json() -> None:
    grp = run("linear_conjunction", "+-?+").to_grp()
    assert json.loads(json.dumps(grp)) == grp
    assert grp["framework"] == "linear_conjunction"
