"""ipb score's injected extractor and --min-confidence review routing (issue 13 items 3 and 4)."""

from __future__ import annotations

from typing import Any

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.parse import ParsedResponse, parse_response
from ipb.scoring.run import ScoreOptions, _below, score_responses

HEDGED = """1. Circle of Competence: PROCEED - subscription software with measurable retention.
2. Economic Moat: probably passes, retention 95%.
3. Management Integrity: INCONCLUSIVE - record not disclosed.
5. Margin of Safety: REJECT - price $50B exceeds intrinsic value $25B.
Final verdict: DECLINE"""


def _two_items() -> list[dict[str, Any]]:
    items = [i for i in bundled_items() if i["card"] == "buffett_acquisition_checklist"][:2]
    assert len(items) == 2
    return items

def _hedged_run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], ScoreOptions, list[dict[str, Any]],
                         dict[str, Any]]:
    """The two bundled items answered faithfully, plus one hedged answer, scored under ``--min-confidence 0.8``:
    (items, responses, options, records, summary)."""
    from ipb.scoring.summary import summarize

    items = _two_items()
    responses = synthetic_responses(items, corruptions=["none"])
    responses.append({**responses[0], "model": "hedging-model", "response": HEDGED})
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50, min_confidence=0.8)
    records = score_responses(items, responses, options)
    return items, responses, options, records, summarize(records, options=options)



def test_the_injected_extractor_reads_every_answer_and_low_confidence_readings_are_routed_to_review() -> None:
    items = _two_items()
    responses = synthetic_responses(items, corruptions=["none"])
    responses.append({**responses[0], "model": "hedging-model", "response": HEDGED})
    calls: list[str] = []

    def extractor(text: str, card: Any, **kwargs: Any) -> ParsedResponse:
        calls.append(text)
        return parse_response(text, card, **kwargs)

    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50, parse=extractor, min_confidence=0.8)
    records = score_responses(items, responses, options)
    assert len(calls) == len(responses) == len(records)
    hedged = records[-1]["targets"][0]
    # "probably passes" is hedged (level 2): 0.65 < 0.8; every other reading is a label's verdict (0.95)
    assert [(r["reading"], r["verdict"], r["confidence"]) for r in hedged["review"]] == [("gate 2", "PROCEED", 0.65)]
    assert hedged["status"] == "scored"  # routed to review, still scored and counted
    assert all(r["targets"][0]["review"] == [] for r in records[:-1])
    plain = score_responses(items, responses, ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    assert all("review" not in r["targets"][0] for r in plain)


def test_a_missing_final_verdict_is_a_zero_confidence_reading() -> None:
    parsed = parse_response("1. Circle of Competence: PROCEED.", "buffett_acquisition_checklist", embedder=False).to_dict()
    assert _below(parsed, 0.5) == [{"reading": "final verdict", "verdict": None, "confidence": 0.0, "span": None, "runner_up": None}]
    assert _below({"status": "parse_failure"}, 0.5) == []


def test_a_stated_verdict_with_no_gate_read_is_routed_to_review_like_any_scored_reading() -> None:
    # Regression (stop 30 review): such an answer is scored on its stated verdict, but _below skipped every parse whose
    # status was not "ok", so a low-confidence verdict-only reading was scored and never reviewed.
    parsed = parse_response("DECLINE", "buffett_acquisition_checklist", embedder=False).to_dict()
    assert (parsed["status"], parsed["final_verdict"]) == ("parse_failure", "DECLINE")
    below = _below(parsed, 1.0)
    assert [(r["reading"], r["verdict"]) for r in below] == [("final verdict", "DECLINE")]
    assert below[0]["confidence"] == parsed["final_confidence"] < 1.0
    assert _below(parsed, parsed["final_confidence"]) == []  # at or above the threshold: not reviewed


def test_summary_counts_the_readings_routed_to_review_and_records_the_threshold() -> None:
    # Regression (a count only on stderr, stop 30 new user): the review count of --min-confidence was
    # printed by ipb score but not in summary.json, so a published summary could not say it.
    from ipb.scoring.summary import summarize, summary_view

    items, responses, options, records, summary = _hedged_run()
    assert summary["options"]["min_confidence"] == 0.8
    assert summary["counts"]["review"] == {"min_confidence": 0.8, "readings": 1, "records": 1}
    assert summarize([summary_view(r) for r in records], options=options)["counts"] == summary["counts"]
    plain = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    unrouted = summarize(score_responses(items, responses, plain), options=plain)
    assert "review" not in unrouted["counts"] and unrouted["options"]["min_confidence"] is None


def test_each_model_group_counts_its_own_review_readings() -> None:
    # Regression (s34user): comparing three models under --min-confidence, only the run's total was in
    # summary.json (counts.review), so which model's figures rest on low-confidence readings was not said.
    from ipb.scoring.summary import summarize, summary_view

    items, responses, options, records, summary = _hedged_run()
    models = summary["groups"]["model"]
    assert (models["hedging-model"]["n_review"], models["hedging-model"]["n_review_records"]) == (1, 1)
    assert (models["synthetic"]["n_review"], models["synthetic"]["n_review_records"]) == (0, 0)
    assert sum(g["n_review"] for g in models.values()) == summary["counts"]["review"]["readings"]
    assert summarize([summary_view(r) for r in records], options=options)["groups"]["model"] == models
    import json
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "grammar" / "summary.schema.json").read_text("utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(summary)]
    assert not errors, errors[:3]  # ipb report refused such a summary before the schema knew the two counts
    plain = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    unrouted = summarize(score_responses(items, responses, plain), options=plain)
    assert all("n_review" not in g for g in unrouted["groups"]["model"].values())


def test_records_routed_to_review_still_validate_against_the_published_score_record_schema() -> None:
    # Regression (s37user): every record `ipb score --min-confidence` wrote carried targets[].review, which
    # grammar/score_record.schema.json (additionalProperties: false on a target) did not declare, so all of
    # them failed the published schema ("'review' was unexpected") while plain runs passed.
    import json
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "grammar" / "score_record.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    _, _, _, records, _ = _hedged_run()
    assert [len(r["targets"][0]["review"]) for r in records] == [0, 0, 1]  # the hedged answer's gate 2 is routed
    assert [[e.message for e in validator.iter_errors(r)] for r in records] == [[], [], []]
    bad = {**records[-1], "targets": [{**records[-1]["targets"][0], "review": [{"reading": "gate 2"}]}]}
    assert list(validator.iter_errors(bad))  # a review entry missing its verdict, confidence, span and runner-up
