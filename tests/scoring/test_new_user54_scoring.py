"""s54newuser's scoring findings 5, 6 and 8 (report /work/notes/s54newuser.md), with hand-worked values.

5. ``ipb score --exclude-failures`` ranked the hedger (4 items: one answer at composite 0.27451, one ``no_commitment``
   refusal, two items with no record) on 0.27451 x 2/4 = 0.137: the refusal left out of the mean was credited at the
   model's own mean. The rank now counts it as 0, as it counts an unanswered item: 0.27451 x 1/2 x 2/4 = 0.0686, the
   value the default policy (failures in the means at 0) gives.
6. Element matching: "Return on capital employed ... 30%" states the element "ROCE 30%" (KCCS was 0.889). FM-5
   fires on the user's prose by the paper's rule (1 connector, SeqScore 1/(5-1) = 0.25 < 0.40), so the report's
   caption, which said it fires on lists and tables, now says what the rule does.
8. BASP-strict reads no verdict (§7.15 gates OGRS, KCCS, SAP, IVP, CKCA, GRA; the W1 composite has no verdict term):
   kept as the paper has it, and said under a board with no composite.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring.leaderboard import composite_note, leaderboard, rank_value
from ipb.scoring.run import ScoreOptions, summary_metric_names
from ipb.scoring.summary import summarize

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- finding 5: --exclude-failures and rank


def _record(model: str, item: str, composite: float | None = None) -> dict:
    """A score record: scored at ``composite`` (VerdictAcc 1), or, with None, a no_commitment refusal owed both."""
    names = summary_metric_names()
    base = {"model": model, "item_id": item, "condition": "A", "condition_key": "A", "layer": "L7", "flags": {}}
    if composite is None:
        return {**base, "status": "unscored", "reason_code": "no_commitment", "metrics": dict.fromkeys(names),
                "owed": {"layer_composite": 0.0, "verdict_acc": 0.0}}
    return {**base, "status": "scored", "reason_code": None, "owed": None,
            "metrics": {**dict.fromkeys(names), "layer_composite": composite, "verdict_acc": 1.0}}


# hedger: 0.27451 and a refusal; steady: 0.2 on both items; refuser: two refusals
RECORDS = [_record("hedger", "i1", 0.27451), _record("hedger", "i2"), _record("steady", "i1", 0.2),
           _record("steady", "i2", 0.2), _record("refuser", "i1"), _record("refuser", "i2")]


def _board(policy: str) -> tuple[dict, list[dict]]:
    summary = summarize(RECORDS, options=ScoreOptions(failures=policy, n_resamples=50))
    return summary, leaderboard(summary)


def test_rank_value_counts_an_excluded_refusal_as_zero() -> None:
    # the user's hedger: 0.27451 over 1 answer, 1 refusal left out, 2 of 4 items with no record:
    # 0.27451 x 1/(1+1) x (4-2)/4 = 0.0686275 (it was 0.27451 x 2/4 = 0.137255)
    assert abs(rank_value(0.27451, 1, 0, 2, 4, n_failures_excluded=1) - 0.0686275) < 1e-7
    # a run error and a left-out refusal both rank as 0: 0.9 x 2/(2+1+1) = 0.45
    assert abs(rank_value(0.9, 2, 1, n_failures_excluded=1) - 0.45) < 1e-12
    # every answer a left-out failure: 0, not "no value" (which ranks below every 0)
    assert rank_value(None, 0, n_failures_excluded=2) == 0.0
    assert rank_value(None, 0) is None


def test_exclude_failures_ranks_as_failures_counted_at_zero() -> None:
    counted, counted_rows = _board("count")
    excluded, excluded_rows = _board("exclude")
    # counted: hedger's mean is (0.27451 + 0) / 2 = 0.137255, steady's 0.2: steady first
    assert [(r["model"], r["rank_value"]) for r in counted_rows] == [("steady", 0.2), ("hedger", 0.137255),
                                                                     ("refuser", 0.0)]
    # excluded: the mean shown is 0.27451 over 1, but the rank is 0.27451 x 1/2 = 0.137255 (before: 0.27451, hedger
    # first above steady's 0.2); the refuser, with no mean at all, ranks on 0.0
    means = {m: g["metrics"]["layer_composite"] for m, g in excluded["groups"]["model"].items()}
    assert means["hedger"]["mean"] == 0.27451 and means["hedger"]["n"] == 1 and means["refuser"] is None
    assert [(r["model"], r["rank_value"]) for r in excluded_rows] == [("steady", 0.2), ("hedger", 0.137255),
                                                                      ("refuser", 0.0)]
    assert excluded["groups"]["model"]["hedger"]["n_failures_excluded"] == {"layer_composite": 1, "verdict_acc": 1}
    assert excluded["groups"]["model"]["refuser"]["n_failures_excluded"]["layer_composite"] == 2
    assert "n_failures_excluded" not in excluded["groups"]["model"]["steady"]
    assert "n_failures_excluded" not in counted["groups"]["model"]["hedger"]
    # the notes say it where the figures are read
    assert "the leaderboard's rank ('ranked on') still counts each as 0" in excluded["failures"]["note"]
    schema = json.loads((ROOT / "grammar" / "summary.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(excluded)


def test_a_summary_written_before_s54_ranks_each_excluded_failure_as_zero() -> None:
    # no n_failures_excluded in the group: under --exclude-failures each refusal is taken as owed the figure
    stat = {"mean": 0.27451, "low": 0.27451, "high": 0.27451, "n": 1}
    group = {"n": 2, "n_scored": 1, "n_parse_failures": 0, "n_refusals": 1, "coverage": 0.25, "n_items_unanswered": 2,
             "n_items": 4, "metrics": {"layer_composite": stat}}
    old = {"failures": {"policy": "exclude"}, "groups": {"model": {"hedger": group}}}
    (row,) = leaderboard(old)
    assert abs(row["rank_value"] - 0.0686275) < 1e-7 and row["n_failures_excluded"] == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.integers(0, 6), st.integers(0, 4))
def test_rank_under_exclude_is_the_mean_with_failures_at_zero(scores: list[float], k: int, errors: int) -> None:
    # law: mean(scores) x n / (n + k + e) == mean(scores + k zeros) x n' / (n' + e), n' = n + k
    n = len(scores)
    excluded = rank_value(sum(scores) / n, n, errors, n_failures_excluded=k)
    counted = rank_value(sum(scores) / (n + k), n + k, errors)
    assert excluded is not None and counted is not None and abs(excluded - counted) < 1e-9


# --------------------------------------------------------------------------- finding 6: acronyms and FM-5

SMITH = """\
id: smith_quality_compounder_s54
investor: Terry Smith
name: Fundsmith Quality Tests
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: true
topology_rationale: Each test in turn; failing one ends it.
vintage: {start: 2010, end: null}
sources:
  - {tier: 1, document: "Fundsmith Owner's Manual", year: 2010}
outcomes: {pass: BUY, fail: AVOID}
inputs:
  operating_profit: {type: money, range: [$10M, $50B], step: $10M}
  capital_employed: {type: money, range: [$50M, $200B], step: $50M}
  free_cash_flow: {type: money, range: [-$5B, $40B], step: $10M}
  net_income: {type: money, range: [$10M, $50B], step: $10M}
  market_cap: {type: money, range: [$500M, $3T], step: $500M}
  bond_yield: {type: ratio, range: [0%, 10%], step: 0.25%}
  net_debt_to_ebitda: {type: multiple, range: [0x, 8x], step: 0.25x}
  industry_disrupted: {type: bool}
constants:
  min_roce: 20%
  min_conversion: 90%
gates:
  - id: returns
    name: High return on capital
    compute:
      roce: operating_profit / capital_employed * 100%
    proceed: roce >= min_roce
    kill_criterion: low_returns_on_capital
    required_elements: ["ROCE {roce}", 20% minimum]
  - id: cash
    name: Cash conversion
    compute:
      cash_conversion: free_cash_flow / net_income * 100%
    proceed: cash_conversion >= min_conversion
    kill_criterion: poor_cash_conversion
    required_elements: ["free cash flow over net income {cash_conversion}", 90% floor]
  - id: leverage
    name: Modest leverage
    reject: net_debt_to_ebitda > 3x
    kill_criterion: too_much_debt
    required_elements: ["net debt {net_debt_to_ebitda} EBITDA", 3x ceiling]
  - id: resilience
    name: Resilience to change
    reject: industry_disrupted == true
    decisive: false
    kill_criterion: disrupted
    required_elements: [technological disruption]
  - id: valuation
    name: Do not overpay
    compute:
      fcf_yield: free_cash_flow / market_cap * 100%
    proceed: fcf_yield >= bond_yield
    kill_criterion: overpaying
    required_elements: ["free cash flow yield {fcf_yield}", "bond yield {bond_yield}"]
"""
FACTS = {"operating_profit": "$6B", "capital_employed": "$20B", "free_cash_flow": "$4.5B", "net_income": "$4.8B",
         "market_cap": "$90B", "bond_yield": "4%", "net_debt_to_ebitda": "6x", "industry_disrupted": False}
# the user's analyst answer, word for word
PROSE = ("Terry Smith first asks whether this is a good company. Return on capital employed is $6B over $20B, or 30%, "
         "comfortably above his 20% minimum, so the returns gate PROCEEDs. Free cash flow over net income is $4.5B / "
         "$4.8B = 93.75%, above the 90% floor, so cash conversion PROCEEDs too. But net debt is 6x EBITDA, twice the "
         "3x ceiling: the leverage gate REJECTs, and the kill criterion (too much debt) ends the analysis; resilience "
         "and valuation are not reached (N/A).\n\nFinal verdict: AVOID.")


def test_an_abbreviated_element_is_stated_by_the_words_it_stands_for() -> None:
    from ipb.scoring._numbers import find_numbers
    from ipb.scoring.parse._element_bags import _Bag, _stem_hit

    def bag(text: str) -> _Bag:
        return _Bag.of(text, 0, len(text), find_numbers(text))

    spelled = "Return on capital employed is $6B over $20B, or 30%"
    assert _stem_hit("roce", bag(spelled), 90.0) == (0, 6)  # "Return", the first word it stands for
    # every word must be there: return on equity is not ROCE, nor is capital employed alone
    assert _stem_hit("roce", bag("Return on equity is 30%"), 90.0) is None
    assert _stem_hit("roce", bag("Capital employed is $20B"), 90.0) is None


def test_the_prose_answer_is_credited_for_roce_and_fm5_follows_the_paper(tmp_path: Path) -> None:
    from ipb.scoring.api import score

    card = tmp_path / "smith.yaml"
    card.write_text(SMITH, encoding="utf-8")
    target = score(PROSE, card=card, facts=FACTS)["targets"][0]
    gates = {g["gate"]: g for g in target["parsed"]["gates"]}
    assert "ROCE 30%" in gates[1]["elements"]
    # KCCS: each reached gate's 2 required elements are stated (2/2, 2/2, 2/2); it was 0.889 with ROCE 30% missed
    assert target["metrics"]["kccs"] == 1.0
    # FM-5 (§7.11): "first" is the one connector of the paper's list ("too", "But" are not); n_G = 5 gates,
    # SeqScore = 1 / (5 - 1) = 0.25 < 0.40: it fires by the paper's rule, as the caption now says
    fm5 = target["flags"]["FM-5"]
    assert fm5["fired"] and fm5["rule"] == "sequence"
    assert fm5["evidence"]["connectors"] == 1 and fm5["evidence"]["seq_score"] == 0.25


def test_the_fm5_caption_says_prose_fires_and_lists_do_not() -> None:
    from ipb.report.data import FM5_RULE

    assert "fires on faithful prose that walks the gates in other words" in FM5_RULE
    assert "1/4 = 0.25" in FM5_RULE and "not on a numbered list or table" in FM5_RULE


# --------------------------------------------------------------------------- finding 8: BASP-strict at L8


def test_basp_strict_reads_no_verdict_and_the_board_says_so() -> None:
    from ipb.scoring.composite import basp_strict, w1_composite
    from ipb.scoring.leaderboard import STRICT_NO_VERDICT

    # the user's two L8 answers on Smith's card: OGRS 1, KCCS 5/6 both; SAP, IVP, CKCA not applicable; GRA 14/15
    # right, 13/15 with gate 5's verdict wrong (1/3 of one gate of 5). W1 renormalised over OGRS and KCCS:
    # (0.35 x 1 + 0.25 x 5/6) / 0.60 = 0.930556; every gate passes, so both are 0.930556 x 1
    values = {"ogrs": 1.0, "kccs": 5 / 6, "sap@3": None, "ivp": None, "ckca": None}
    composite = w1_composite(values, renormalize=True).value
    assert composite is not None and abs(composite - 0.930556) < 1e-6
    right = basp_strict(composite, values, gra=14 / 15, composite_name="W1")
    wrong = basp_strict(composite, values, gra=13 / 15, composite_name="W1")
    assert right.value == wrong.value and abs(wrong.value - 0.930556) < 1e-6
    # the board with no composite ranks on VerdictAcc and now says why BASP-strict cannot tell them apart
    summary = {"groups": {"layer": {"L8": {"metrics": {"layer_composite": None}}}}}
    note = composite_note(summary, [{"rank_on": "verdict_acc"}])
    assert note.endswith(STRICT_NO_VERDICT) and "none reads a verdict" in note
