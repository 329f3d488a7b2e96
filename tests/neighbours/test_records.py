"""Decision records and the InvestLogicBench outcome scores (``ipb.neighbours.records``, seed 001).

Every expected score below is worked by hand from the seed's definitions:
S_profit with P_m = max(0, P_h) (branch taken in the seed's order), S_win,
S_outcome = 0.7 S_profit + 0.3 S_win, S_reasoning = (S_EC + S_LP) / 2,
S_overall = S_reasoning + S_outcome.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import ErrorGroup, IpbError, ParseError, ScoreError
from ipb.neighbours.records import (
    load_records,
    outcome_score,
    overall_score,
    parse_finlogic,
    parse_return,
    profit_score,
    reasoning_score,
    score_outcomes,
    summarise,
    win_score,
)

FIX = Path(__file__).parents[1] / "fixtures" / "issue8" / "records"
runner = CliRunner()
D = Decimal


@lru_cache(maxsize=1)
def output_validator() -> jsonschema.Draft202012Validator:
    text = resources.files("ipb.grammar").joinpath("neighbouring_outputs.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def cli_json(*args: str, code: int = 0) -> dict:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    return payload


# --------------------------------------------------------------------------- S_profit, every branch boundary

PROFIT_CASES = [
    # (P_a, P_h, S_profit, branch) -- P_h > 0, so P_m = P_h = 4%
    ("4%", "4%", "5.0", "at_or_above_expert"),  # P_a = P_h: the first branch
    ("10%", "4%", "5.0", "at_or_above_expert"),
    ("3.99%", "4%", "4.9875", "below_midpoint"),  # just under P_h: 5 * 0.0399 / 0.04
    ("2%", "4%", "2.5", "below_midpoint"),
    ("0%", "4%", "0", "below_midpoint"),  # P_a = 0 is still 0 <= P_a < P_m
    ("-0.01%", "4%", "0.0", "loss"),  # just below 0
    ("-20%", "4%", "0.0", "loss"),
    ("0.005%", "0.01%", "2.5", "below_midpoint"),  # a tiny positive P_h
    # P_h = 0: P_m = 0, so the middle branches are empty
    ("0%", "0%", "5.0", "at_or_above_expert"),
    ("1%", "0%", "5.0", "at_or_above_expert"),
    ("-0.01%", "0%", "0.0", "loss"),
    # P_h < 0: P_m = 0; any P_a >= P_h scores 5, even a smaller loss
    ("-3%", "-3%", "5.0", "at_or_above_expert"),
    ("-1%", "-3%", "5.0", "at_or_above_expert"),
    ("0%", "-3%", "5.0", "at_or_above_expert"),
    ("2%", "-3%", "5.0", "at_or_above_expert"),
    ("-3.01%", "-3%", "0.0", "loss"),  # just below P_h
    ("-50%", "-3%", "0.0", "loss"),
    # the seed's worked case (Oct 4, 2025): expert +3.53%, best LLM +11.23%, worst -15.67%
    ("11.23%", "3.53%", "5.0", "at_or_above_expert"),
    ("-15.67%", "3.53%", "0.0", "loss"),
    # fractions instead of percentages
    (D("0.01"), D("0.04"), "1.25", "below_midpoint"),
]


@pytest.mark.parametrize("p_agent, p_expert, expected, branch", PROFIT_CASES, ids=[f"Pa={c[0]},Ph={c[1]}" for c in PROFIT_CASES])
def test_profit_score_branches(p_agent, p_expert, expected, branch):
    score = profit_score(p_agent, p_expert)
    assert score.value == D(expected)
    assert score.branch == branch
    assert score.midpoint == max(D(0), parse_return(p_expert))


profit_values = st.decimals(min_value=-1, max_value=1, places=4, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(profit_values, profit_values, profit_values)
def test_profit_score_bounded_monotone_and_middle_branch_unreachable(a, b, p_h):
    low, high = sorted((a, b))
    s_low, s_high = profit_score(low, p_h), profit_score(high, p_h)
    assert D(0) <= s_low.value <= s_high.value <= D(5)
    # With P_m = max(0, P_h), [P_m, P_h) is empty: the seed's second branch never fires.
    assert "between_midpoint_and_expert" not in (s_low.branch, s_high.branch)


@settings(max_examples=100, deadline=None)
@given(st.decimals(min_value="0.0001", max_value=1, places=4))
def test_profit_score_is_continuous_at_the_expert_profit(p_h):
    just_below = profit_score(p_h - D("0.00000001"), p_h).value
    assert D(5) - just_below < D("0.001")


# --------------------------------------------------------------------------- S_win, S_outcome, S_reasoning, S_overall

WIN_CASES = [
    ("50%", "50%", "5.0"),  # W_a = W_h
    ("49%", "50%", "4.9"),
    ("0%", "50%", "0"),
    ("0%", "0%", "5.0"),  # W_h = 0: never divides by zero
    ("100%", "100%", "5.0"),
    ("99%", "100%", "4.95"),
    (D("0.72"), D("0.6"), "5.0"),
]


@pytest.mark.parametrize("w_agent, w_expert, expected", WIN_CASES, ids=[f"Wa={c[0]},Wh={c[1]}" for c in WIN_CASES])
def test_win_score(w_agent, w_expert, expected):
    assert win_score(w_agent, w_expert) == D(expected)


@pytest.mark.parametrize("bad", ["120%", "-5%", D("1.01"), "lots", True])
def test_win_rate_out_of_range_is_a_score_error(bad):
    with pytest.raises(ScoreError):
        win_score(bad, "50%")


@pytest.mark.parametrize(
    "s_profit, s_win, expected",
    [("5", "4", "4.7"), ("0", "0", "0"), ("2.5", "5", "3.25"), ("5", "5", "5")],
)
def test_outcome_score_weights_profit_070_and_win_rate_030(s_profit, s_win, expected):
    assert outcome_score(D(s_profit), D(s_win)) == D(expected)


def test_reasoning_and_overall_scores():
    assert reasoning_score(D("2.8"), D("4.1")) == D("3.45")
    assert reasoning_score(0, 0) == 0 and reasoning_score(5, 5) == 5
    assert overall_score(D("3.45"), D("5.0")) == D("8.45")
    for bad in (D("5.1"), D("-0.1")):
        with pytest.raises(ScoreError, match="5-point scale"):
            reasoning_score(bad, 3)


def test_score_outcomes_worked_example():
    # P_a 2% vs P_h 4%: 2.5; W_a 40% vs W_h 50%: 4.0; outcome 1.75 + 1.2 = 2.95;
    # reasoning (3 + 4) / 2 = 3.5; overall 6.45.
    s = score_outcomes(p_agent="2%", w_agent="40%", p_expert="4%", w_expert="50%", event_coherence=3, logical_plausibility=4)
    assert (s.s_profit, s.s_win, s.s_outcome, s.s_reasoning, s.s_overall) == (
        D("2.5"), D("4"), D("2.95"), D("3.5"), D("6.45"))
    assert s.unscored is None


def test_score_outcomes_without_judge_scores_is_unscored_not_zero():
    s = score_outcomes(p_agent="2%", w_agent="40%", p_expert="4%", w_expert="50%")
    assert s.s_reasoning is None and s.s_overall is None and "no judge scores" in s.unscored
    with pytest.raises(ScoreError, match="both"):
        score_outcomes(p_agent="2%", w_agent="40%", p_expert="4%", w_expert="50%", event_coherence=3)


@settings(max_examples=200, deadline=None)
@given(profit_values, profit_values, st.decimals(0, 1, places=3), st.decimals(0, 1, places=3),
       st.decimals(0, 5, places=2), st.decimals(0, 5, places=2))
def test_overall_score_lies_in_0_to_10(pa, ph, wa, wh, ec, lp):
    s = score_outcomes(p_agent=pa, w_agent=wa, p_expert=ph, w_expert=wh, event_coherence=ec, logical_plausibility=lp)
    assert 0 <= s.s_outcome <= 5 and s.s_overall is not None and 0 <= s.s_overall <= 10


def test_parse_return():
    assert parse_return("+5.2%") == D("0.052") and parse_return(" -1% ") == D("-0.01")
    assert parse_return(0.25) == D("0.25") and parse_return("0.3") == D("0.3")
    with pytest.raises(ScoreError, match="write '52%'"):
        parse_return(52)
    with pytest.raises(ScoreError, match="not a number"):
        parse_return("five")


# --------------------------------------------------------------------------- finLogic

FINLOGIC_GOOD = [
    ("[Event] -> [Thesis] -> Action: [Action]", "Event", ("Thesis",), "Action"),
    ("CPI cools → cuts repriced → Action: Long QQQ", "CPI cools", ("cuts repriced",), "Long QQQ"),
    ("[Fed cut] -> [no catalyst] → [sell the news] -> Action: [Short SPY]", "Fed cut", ("no catalyst", "sell the news"), "Short SPY"),
    ("[TSMC -> capacity sold out] -> [supply-bound] -> Action: [Long SMH]", "TSMC -> capacity sold out", ("supply-bound",), "Long SMH"),
    ("Fed cut [25bp] -> easing -> action: long TLT", "Fed cut [25bp]", ("easing",), "long TLT"),
    ("[Fed cut [25bp]] -> [easing] -> ACTION : [Long TLT]", "Fed cut [25bp]", ("easing",), "Long TLT"),
]


@pytest.mark.parametrize("text, event, thesis, action", FINLOGIC_GOOD, ids=[c[0][:30] for c in FINLOGIC_GOOD])
def test_finlogic_parses(text, event, thesis, action):
    chain = parse_finlogic(text)
    assert (chain.event, chain.thesis, chain.action) == (event, thesis, action)
    for part, (start, end) in zip((event, *thesis, action), chain.spans):
        assert text[start:end] == part


FINLOGIC_ERRORS = [
    # (text, message fragment, 1-based column)
    ("", "finLogic is empty", 1),
    ("just text", "found no arrow", 10),
    ("A -> Action: B", "found only two steps", 3),
    ("A -> -> Action: B", "empty step between arrows", 6),
    (" -> B -> Action: C", "empty event before the first arrow", 2),
    ("[A -> B -> Action: C", "'[' is never closed", 1),
    ("A] -> B -> Action: C", "']' closes no '['", 2),
    ("[A] x -> B -> Action: C", "text after ']'", 4),
    ("A -> Action: B -> Action: C", "'Action:' labels the last step only", 6),
    ("A -> B -> Buy C", "the last step must be the action", 11),
    ("A -> B -> Action:", "'Action:' is followed by no action", 18),
    ("A -> B -> Action: []", "empty brackets", 20),
]


@pytest.mark.parametrize("text, fragment, column", FINLOGIC_ERRORS, ids=[c[1] for c in FINLOGIC_ERRORS])
def test_finlogic_errors_name_the_column(text, fragment, column):
    with pytest.raises(ParseError) as info:
        parse_finlogic(text)
    assert fragment in info.value.message
    assert (info.value.rule, info.value.line, info.value.column) == ("finlogic", 1, column)


# --------------------------------------------------------------------------- records files


def test_load_yaml_records_with_profile():
    records = load_records(FIX / "cathie_wood.yaml")
    assert records.profile is not None and records.profile.style == "Event-Driven"
    first, second = records.decisions
    assert first.outcome == D("0.0353") and first.finlogic.action == "Long SMH"
    assert str(first.events[0].date) == "2025-10-03" and first.events[1].date is None
    assert second.finlogic.event == "Liquidity fades" and second.outcome == D("-0.010")


def test_load_jsonl_records_skips_blank_lines_and_counts_records():
    records = load_records(FIX / "agent.jsonl")
    assert [d.record for d in records.decisions] == [1, 2, 3]
    assert records.profile is None and records.decisions[2].outcome is None


def test_summarise_sum_and_compound():
    decisions = load_records(FIX / "agent.jsonl").decisions
    s = summarise(decisions)
    assert (s.total_profit, s.win_rate, s.scored, s.pending, s.wins) == (D("0.0923"), D("0.5"), 2, 1, 1)
    assert (s.event_coherence, s.logical_plausibility) == (D("2.5"), D("4.25"))
    assert summarise(decisions, profit="compound").total_profit == D("1.1123") * D("0.98") - 1
    with pytest.raises(ScoreError, match="unknown profit rule"):
        summarise(decisions, profit="mean")


FILE_ERRORS = [
    # (file, rule, message fragment, line, column)
    ("bad_yaml.yaml", "schema:enum", "'Event Driven' is not one of", 2, 30),
    ("bad_yaml.yaml", "look-ahead", "record 1: event dated 2025-10-05 is after the decision's date 2025-10-04", 6, 39),
    ("bad_yaml.yaml", "finlogic", "record 1: finLogic needs an event, at least one thesis step and an action", 7, 27),
    ("bad_yaml.yaml", "date", "record 2: '2025-02-30' is not a calendar date", 10, 11),
    ("bad_yaml.yaml", "outcome", "record 2: outcome '5.2' is text without '%'", 15, 14),
    ("bad_yaml.yaml", "schema:additionalProperties", "unknown field 'outcom' in a decision", 20, 5),
    ("bad_records.jsonl", "finlogic", "record 1: the last step must be the action", 1, 68),
    ("bad_records.jsonl", "duplicate-key", "record 2: duplicate key 'investDecision': it is already defined at line 2, column 82", 2, 110),
    ("bad_records.jsonl", "schema:required", "record 3: 'investDecision' is a required property", 3, 1),
    ("bad_records.jsonl", "schema:minItems", "record 3: [] should be non-empty (at events)", 3, 34),
    ("bad_records.jsonl", "json-syntax", "record 4: invalid JSON: Expecting ',' delimiter", 4, 108),
    # "\u00e9" is six characters in the file but one in the string: the column counts the file's.
    ("bad_records.jsonl", "finlogic", "record 5: 'Action:' is followed by no action", 5, 93),
]


def file_errors(name: str) -> list[IpbError]:
    with pytest.raises(IpbError) as info:
        load_records(FIX / name)
    error = info.value
    return list(error.errors) if isinstance(error, ErrorGroup) else [error]


@pytest.mark.parametrize("name, rule, fragment, line, column", FILE_ERRORS, ids=[f"{c[0]}:{c[3]}:{c[1]}" for c in FILE_ERRORS])
def test_records_file_errors(name, rule, fragment, line, column):
    matches = [e for e in file_errors(name) if e.rule == rule and fragment in str(e)]
    assert matches, [str(e) for e in file_errors(name)]
    assert (matches[0].line, matches[0].column) == (line, column)
    assert matches[0].file.endswith(name)


def test_every_error_in_a_file_is_reported():
    assert len(file_errors("bad_yaml.yaml")) == 6
    assert len(file_errors("bad_records.jsonl")) == 6


INLINE_ERRORS = [
    # (YAML decisions text, rule, fragment, line, column)
    ('  - {date: "2025-10-04", events: [e], finLogic: "a -> b -> Action: c", investDecision: X, endDate: "2025-10-01"}',
     "horizon", "endDate 2025-10-01 is before the decision's date 2025-10-04", 3, 100),
    ('  - {id: x, date: "2025-10-04", events: [e], finLogic: "a -> b -> Action: c", investDecision: X}\n'
     '  - {id: x, date: "2025-10-05", events: [e], finLogic: "a -> b -> Action: c", investDecision: X}',
     "duplicate-id", "record 2: duplicate decision id 'x' (record 1 has it too)", 4, 10),
    ('  - {date: "2025-10-04", events: [e], finLogic: "a -> b -> Action: c", investDecision: X, outcome: 52}',
     "outcome", "write '52%' for a percentage", 3, 100),
]


@pytest.mark.parametrize("decisions, rule, fragment, line, column", INLINE_ERRORS, ids=[c[1] for c in INLINE_ERRORS])
def test_inline_record_errors(decisions, rule, fragment, line, column):
    text = "version: 1\ndecisions:\n" + decisions + "\n"
    with pytest.raises(IpbError) as info:
        load_records("inline.yaml", text=text)
    error = info.value
    assert (error.rule, error.line, error.column) == (rule, line, column), str(error)
    assert fragment in str(error)


# --------------------------------------------------------------------------- the command line


def test_cli_records_check_outputs_parsed_chains():
    payload = cli_json("records", "check", str(FIX / "cathie_wood.yaml"), str(FIX / "agent.jsonl"))
    assert payload["errors"] == []
    assert payload["files"][0]["decisions"][0]["finLogic"]["thesis"] == ["AI accelerator demand outruns supply"]
    assert payload["files"][1]["decisions"][1]["outcome"] == -0.02


def test_cli_records_check_reports_errors_with_record_numbers():
    result = runner.invoke(app, ["records", "check", str(FIX / "bad_records.jsonl")])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert len(payload["errors"]) == 6
    assert "bad_records.jsonl:4:108: load error: record 4: invalid JSON" in result.stderr


def test_cli_records_score_against_expert_file():
    # Agent: +11.23% and -2% (one pending) -> P_a 9.23%, W_a 50%; EC 2.5, LP 4.25.
    # Expert: +3.53% and -1% -> P_h 2.53%, W_h 50%. S_profit 5, S_win 5, outcome 5,
    # reasoning 3.375, overall 8.375.
    payload = cli_json("records", "score", str(FIX / "agent.jsonl"), "--expert", str(FIX / "cathie_wood.yaml"))
    scores = payload["scores"]
    assert (scores["s_profit"], scores["s_win"], scores["s_outcome"]) == (5, 5, 5)
    assert (scores["s_reasoning"], scores["s_overall"]) == (3.375, 8.375)
    assert payload["agent"]["total_profit"] == pytest.approx(0.0923) and payload["expert"]["pending"] == 0


def test_cli_records_score_against_given_benchmark():
    # S_profit = 5 * 0.0923 / 0.20 = 2.3075; S_win = 5 * 0.5 / 0.6 = 4.1667;
    # outcome = 1.61525 + 1.25 = 2.86525; overall = 3.375 + 2.86525 = 6.24025.
    payload = cli_json("records", "score", str(FIX / "agent.jsonl"), "--expert-profit", "20%", "--expert-win-rate", "60%")
    scores = payload["scores"]
    assert scores["profit_branch"] == "below_midpoint"
    assert scores["s_profit"] == pytest.approx(2.3075) and scores["s_win"] == pytest.approx(25 / 6)
    assert scores["s_overall"] == pytest.approx(6.24025)


def test_cli_records_score_usage_errors():
    result = runner.invoke(app, ["records", "score", str(FIX / "agent.jsonl")])
    assert result.exit_code == 1 and "name the expert benchmark" in result.output
    result = runner.invoke(app, ["records", "score", str(FIX / "agent.jsonl"), "--expert-profit", "2%",
                                 "--expert-win-rate", "150%"])
    assert result.exit_code == 1 and "expert win rate must lie in [0, 1]" in result.output


def test_cli_finlogic_error_has_a_caret():
    result = runner.invoke(app, ["records", "finlogic", "A -> B -> Buy C"])
    assert result.exit_code == 1
    assert "1:11: parse error: the last step must be the action" in result.output
    assert "\n              ^" in result.output
    assert cli_json("records", "finlogic", "A → B → Action: C")["action"] == "C"


def test_docstring_examples_run():
    import doctest

    import ipb.neighbours.records as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_the_documented_records_file_loads():
    import re

    doc = (Path(__file__).parents[2] / "docs" / "neighbouring-benchmarks.md").read_text(encoding="utf-8")
    section = doc.split("## Decision records", 1)[1]
    records = load_records("docs.yaml", text=re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    assert records.decisions[0].finlogic.action == "Long SMH" and records.decisions[0].event_coherence == 4
