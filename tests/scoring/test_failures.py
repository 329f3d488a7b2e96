"""Scores a model cannot game (issue 14 item 1): refusals and parse failures count, the paper's rules are options."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from ipb.cli.commands.score import print_leaderboard
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score, score_responses
from ipb.scoring.summary import leaderboard, summarize

REFUSAL = "I cannot help with that."


@pytest.fixture(scope="module")
def items():
    return bundled_items(["buffett_acquisition_checklist", "graham_net_net_screen"])[:8]  # even: half is half


def _options(**kw):
    kw.setdefault("encoder", CachedEncoder(HashingEncoder()))
    kw.setdefault("n_resamples", 200)
    return ScoreOptions(**kw)


def _respondents(items):
    """perfect: the gold program faithfully; half-refusing: the same, but a refusal on every other item."""
    out = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        out.append(dict(gold, model="perfect"))
        out.append(dict(gold, model="half-refusing", response=REFUSAL if k % 2 == 0 else gold["response"]))
    return out


def test_a_half_refusing_respondent_ranks_below_the_perfect_one_with_coverage_shown(items, tmp_path):
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps(r) + "\n" for r in _respondents(items)))
    items_file = tmp_path / "items.jsonl"
    items_file.write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(items_file, responses, tmp_path / "out", _options())
    refused = [r for r in result.records if r["model"] == "half-refusing" and r["status"] != "scored"]
    assert refused and all((r["outcome"], r["reason_code"]) == ("refusal", "refusal") for r in refused)
    rows = leaderboard(result.summary)
    assert [r["model"] for r in rows] == ["perfect", "half-refusing"]
    perfect, half = rows
    n_refused = len(refused)
    assert half["coverage"] == pytest.approx((half["n"] - n_refused) / half["n"]) and perfect["coverage"] == 1.0
    assert perfect["layer_composite"]["mean"] == 1.0
    # the refusals score 0 on the composite, so the mean is the share answered
    assert half["layer_composite"]["mean"] == pytest.approx(1.0 - n_refused / half["n"])
    assert half["layer_composite"]["n"] == half["n"] and half["layer_composite"]["n_failures"] == n_refused
    console = Console(record=True, width=200)
    print_leaderboard(result.summary, console)
    text = console.export_text()
    assert half["coverage"] == 0.5 and "50.0%" in text and "100.0%" in text
    assert text.index("perfect") < text.index("half-refusing")
    assert "failures: count" in text


def test_exclude_failures_gives_the_old_means_and_says_so(items, tmp_path):
    records = score_responses(items, _respondents(items), _options(failures="exclude"))
    summary = summarize(records, options=_options(failures="exclude"))
    half = next(r for r in leaderboard(summary) if r["model"] == "half-refusing")
    assert half["layer_composite"]["mean"] == 1.0  # refusals left out: the tie the issue found
    assert half["coverage"] < 1.0 and half["layer_composite"]["n_failures"] == 0
    assert summary["failures"]["policy"] == "exclude"
    assert summary["options"]["failures"] == "exclude"


def test_a_wrong_final_verdict_on_half_the_items_is_seen_where_the_paper_scores_it(items):
    """flip_final on every other item, gate verdicts untouched.

    Paper formulas: L7 composite = 0.35 OGRS_k + 0.30 KCCS + 0.20 VerdictAcc + 0.15 SAP@1, so a flipped item scores
    0.80 and the mean is exactly 0.90 (§7.13); GRA scores gates only (name + verdict class + elements, §7.15), so it
    stays 1.0. BASP-strict scaled the W1 composite, which has no VerdictAcc term, and stayed 1.0: it now scales the
    layer composite (the paper's BASP-composite, §7.15), so it drops to 0.90 with VerdictAcc 0.5.
    """
    responses = []
    for k, item in enumerate(items):
        [r] = synthetic_responses([item], corruptions=["flip_final" if k % 2 else "none"])
        responses.append(dict(r, model="m"))
    records = score_responses(items, responses, _options())
    flipped = [r for k, r in enumerate(records) if k % 2]
    assert all(r["metrics"]["verdict_acc"] == 0.0 for r in flipped)
    assert all(r["metrics"]["layer_composite"] == pytest.approx(0.80) for r in flipped)
    assert all(r["metrics"]["basp_strict"] == pytest.approx(0.80) for r in flipped)
    summary = summarize(records, options=_options())
    m = summary["groups"]["model"]["m"]["metrics"]
    share = len(flipped) / len(records)
    assert m["verdict_acc"]["mean"] == pytest.approx(1 - share)
    assert m["layer_composite"]["mean"] == pytest.approx(1 - 0.2 * share)
    assert m["basp_strict"]["mean"] == pytest.approx(1 - 0.2 * share) and m["basp_strict"]["mean"] < 1.0
    assert m["gra"]["mean"] == 1.0
    w1 = score_responses(items, responses, _options(basp_composite="w1"))
    assert all(r["metrics"]["basp_strict"] == 1.0 for r in w1)  # the deployed W1 harness, kept as an option


def test_the_rules_are_recorded_in_the_summary(items):
    options = _options(basp_denominator="applicable", inconclusive="flat", parallel_order="sequence")
    records = score_responses(items[:2], synthetic_responses(items[:2], corruptions=["none"]), options)
    summary = summarize(records, options=options)
    assert summary["options"]["rules"] == {"failures": "count", "basp_denominator": "applicable",
                                           "basp_composite": "layer", "inconclusive": "flat",
                                           "parallel_order": "sequence"}
    strict = records[0]["targets"][0]["basp_strict"]
    assert strict["denominator"] == "applicable" and strict["composite_name"] == "L7"


def test_unknown_rule_values_are_refused_with_a_suggestion():
    from ipb.errors import ScoreError

    with pytest.raises(ScoreError, match="inconclusive must be one of a2, flat") as info:
        ScoreOptions(inconclusive="flatt")
    assert info.value.suggestion


@pytest.mark.parametrize(
    "text, code",
    [("", "empty_response"), ("   \n", "empty_response"), (REFUSAL, "refusal"),
     ("I'm sorry, but I can't provide investment advice on this.", "refusal"),
     ("The weather in Lisbon is mild and sunny most of the year.", "off_topic"),
     ("Buffett is a famous investor from Omaha, and this company is large.", "parse_failure")],
)
def test_each_failure_has_its_own_reason(items, text, code):
    [record] = score_responses(items[:1], [{"item_id": items[0]["id"], "model": "m", "condition": "A",
                                           "response": text}], _options())
    assert record["reason_code"] == code
    assert record["outcome"] == ("parse_failure" if code == "parse_failure" else "refusal")
    assert record["owed"]["layer_composite"] == 0.0 and record["metrics"] == {}
