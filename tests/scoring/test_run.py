"""``ipb score`` and :mod:`ipb.scoring.run`: records, summary, bad input, determinism, atomic output."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import ipb._files
from ipb.cli import app
from ipb.errors import LoadError
from ipb.scoring import run as run_module
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import (
    PARSE_FAILURES,
    RESULT_VERSION,
    ScoreOptions,
    canonical_condition,
    item_set,
    load_items,
    record_schema,
    run_score,
    score_responses,
    summary_metric_names,
)
from ipb.scoring.summary import mean_ci, summarize
from ipb.respond.synthetic import bundled_items, synthetic_responses

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GRAMMAR = Path(__file__).resolve().parents[2] / "grammar"
BASE = "buffett_acquisition_checklist/ipb_p_011_base"


def _schema(name):
    return json.loads((GRAMMAR / name).read_text(encoding="utf-8"))


def _validate(records, summary):
    record_validator = jsonschema.Draft202012Validator(_schema("score_record.schema.json"))
    for r in records:
        errors = list(record_validator.iter_errors(r))
        assert not errors, (r["record"], [e.message for e in errors[:3]])
    errors = list(jsonschema.Draft202012Validator(_schema("summary.schema.json")).iter_errors(summary))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]]


def _options(**kw):
    kw.setdefault("encoder", CachedEncoder(HashingEncoder()))
    kw.setdefault("n_resamples", 200)
    return ScoreOptions(**kw)


@pytest.fixture(scope="module")
def buffett():
    return bundled_items(["buffett_acquisition_checklist", "graham_net_net_screen", "nbim_gpfg_exclusion_screen"])


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def items_file(tmp_path, buffett):
    ghost = copy.deepcopy(next(i for i in buffett if i["id"] == BASE))
    ghost["id"] = "ghost-card-item"
    ghost["grp"]["framework"] = "no_such_card"
    rows = [*buffett, ghost, {"id": "no-gold-item", "layer": "L7"}]
    path = _write_jsonl(tmp_path / "items.jsonl", rows)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("{broken item line\n")
        handle.write(json.dumps({"id": BASE, "layer": "L7"}) + "\n")
    return path


# --------------------------------------------------------------------------- bad input


def _bad_input_lines(buffett):
    base = next(i for i in buffett if i["id"] == BASE)
    [faithful] = synthetic_responses([base], corruptions=["none"])
    one_mb = faithful["response"] + ("\nfiller words about nothing in particular" * 30000)
    one_mb = one_mb[:1_000_000]
    fill = {"{BASE}": BASE, "{FAITHFUL}": faithful["response"], "{TOO_LARGE}": "x" * 1_600_000, "{ONE_MEGABYTE}": one_mb}
    cases = json.loads((FIXTURES / "bad_records.json").read_text(encoding="utf-8"))
    lines: list[bytes] = []
    for case in cases:
        if "bytes_hex" in case:
            lines.append(bytes.fromhex(case["bytes_hex"]))
        elif "line" in case:
            lines.append(case["line"].encode())
        else:
            record = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in case["record"].items()}
            lines.append(json.dumps(record).encode())
    return cases, lines


def test_bad_input_gives_one_clear_record_each_and_the_run_completes(tmp_path, items_file, buffett):
    cases, lines = _bad_input_lines(buffett)
    responses = tmp_path / "responses.jsonl"
    responses.write_bytes(b"\n".join(lines[:3]) + b"\n\n" + b"\n".join(lines[3:]) + b"\n")  # a blank line is skipped
    result = run_score(items_file, responses, tmp_path / "out", _options(max_chars=1_500_000))
    assert len(result.records) == len(cases)
    line_of = [1, 2, 3, *range(5, 5 + len(cases) - 3)]
    for case, record, line in zip(cases, result.records, line_of):
        assert record["source"].endswith(f":{line}"), case["id"]
        assert record["record"] == line
        expected = case.get("status", "unscored")
        assert record["status"] == expected, (case["id"], record["reason"])
        if expected == "unscored":
            assert record["reason_code"] == case["reason_code"], (case["id"], record["reason_code"], record["reason"])
            assert case["message"] in record["reason"], (case["id"], record["reason"])
            assert record["metrics"] == {} and record["flags"] == {}
            assert record["outcome"] == case.get("outcome", "parse_failure" if record["reason_code"] in PARSE_FAILURES
                                                  else "unusable"), case["id"]
            if record["reason_code"] not in PARSE_FAILURES:
                assert record["error"]["record"] == line
            if "suggestion" in case:
                assert record["error"]["suggestion"] == case["suggestion"]
    counts = result.summary["counts"]
    assert counts["records"] == len(cases)
    assert counts["scored"] == sum(1 for c in cases if c.get("status") == "scored")
    assert counts["parse_failures"] == sum(1 for c in cases if c.get("reason_code") in ("parse_failure", "response_too_large"))
    assert counts["refusals"] == sum(1 for c in cases if c.get("outcome") == "refusal") == 3
    assert counts["invalid"] == counts["unscored"] - counts["parse_failures"] - counts["refusals"]
    assert [u["record"] for u in result.summary["unscored"]] == [r["record"] for r in result.records if r["status"] != "scored"]
    errors = result.summary["inputs"]["items"]["errors"]
    assert [e["line"] for e in errors] == [len(buffett) + 3, len(buffett) + 4]
    assert "repeats line" in errors[1]["message"]
    _validate(result.records, result.summary)


def test_excluded_failures_are_counted_and_left_out_of_means(buffett):
    """--exclude-failures: the behaviour before issue 14, kept as an option and said in the summary."""
    base = next(i for i in buffett if i["id"] == BASE)
    [faithful] = synthetic_responses([base], corruptions=["none"])
    responses = [dict(faithful, model="m"), {"item_id": BASE, "model": "m", "condition": "B", "response": ""}]
    records = score_responses([base], responses, _options(failures="exclude"))
    summary = summarize(records, options=_options(failures="exclude"))
    group = summary["groups"]["model"]["m"]
    assert (group["n"], group["n_scored"], group["n_refusals"], group["n_invalid"]) == (2, 1, 1, 0)
    assert group["metrics"]["gcf"]["mean"] == 1.0 and group["metrics"]["gcf"]["n"] == 1
    assert group["metrics"]["gcf"]["n_failures"] == 0 and group["coverage"] == 0.5
    assert summary["groups"]["condition"]["B"]["metrics"]["gcf"] is None
    assert summary["failures"]["policy"] == "exclude" and "left out" in summary["failures"]["note"]


def test_failures_count_as_zero_on_every_owed_metric_by_default(buffett):
    base = next(i for i in buffett if i["id"] == BASE)
    [faithful] = synthetic_responses([base], corruptions=["none"])
    responses = [dict(faithful, model="m"), {"item_id": BASE, "model": "m", "condition": "B", "response": ""}]
    records = score_responses([base], responses, _options())
    failed = records[1]
    assert failed["outcome"] == "refusal" and failed["reason_code"] == "empty_response"
    # owed: exactly the metrics the faithful answer to the same item has a value on
    assert set(failed["owed"]) == {k for k, v in records[0]["metrics"].items() if v is not None} - {"ivp", "ivp_micro"}
    assert failed["owed"]["gcf"] == 0.0 and failed["owed"]["ned"] == 1.0 and failed["owed"]["kendall_tau"] == -1.0
    summary = summarize(records, options=_options())
    group = summary["groups"]["model"]["m"]
    assert group["coverage"] == 0.5 and group["n_refusals"] == 1
    assert group["metrics"]["gcf"] == {**group["metrics"]["gcf"], "mean": 0.5, "n": 2, "n_failures": 1}
    assert group["metrics"]["ned"]["mean"] == 0.5  # faithful 0, failure 1
    assert summary["groups"]["condition"]["B"]["metrics"]["gcf"]["mean"] == 0.0
    assert summary["failures"]["policy"] == "count" and summary["counts"]["coverage"] == 0.5


# --------------------------------------------------------------------------- records and summary


def test_records_carry_every_metric_flag_and_the_trace(buffett):
    base = next(i for i in buffett if i["id"] == BASE)
    [r] = synthetic_responses([base], corruptions=["invent_gate"])
    [record] = score_responses([base], [r], _options())
    assert record["version"] == RESULT_VERSION and record["status"] == "scored"
    assert list(record["metrics"]) == summary_metric_names()
    assert set(record["flags"]) == {f"FM-{k}" for k in range(1, 7)} and record["flags"]["FM-1"] is True
    [target] = record["targets"]
    assert target["card"] == "buffett_acquisition_checklist" and target["investor"] == "Warren Buffett"
    assert [g["gate"] for g in target["parsed"]["gates"]] == [1, 2, 3, 4, 5, 6]
    assert target["flags"]["FM-1"]["evidence"]["invented"] or target["flags"]["FM-1"]["evidence"]["unknown_numbers"]
    assert target["layer_composite"]["name"] == "L7" and target["basp_strict"]["gates"]
    assert record["corruptions"][0]["name"] == "invent_gate"
    assert record["response_sha256"] and record["response_chars"] == len(r["response"])


def test_deltas_of_the_three_conditions(buffett):
    items = [i for i in buffett if i["card"] == "buffett_acquisition_checklist"]
    a = synthetic_responses(items, corruptions=["drop_gate"], condition="closed_book", model="m1")
    b = synthetic_responses(items, corruptions=["flip_verdict"], condition="rag", model="m1")
    c = synthetic_responses(items, corruptions=["none"], condition="oracle", model="m1")
    records = score_responses(items, a + b + c, _options())
    summary = summarize(records, options=_options())
    deltas = summary["deltas"]
    assert deltas["conditions"] == ["A", "B", "C"]
    ca = deltas["by_model"]["m1"]["C-A"]["gcf"]
    assert ca["estimate"] > 0 and ca["n"] == len(items) and ca["low"] <= ca["estimate"] <= ca["high"]
    bc = deltas["all_models"]["B-C"]["verdict_acc_gates"]
    assert bc["estimate"] < 0
    gap = deltas["by_model"]["m1"]["1-C"]["gcf"]
    assert gap["estimate"] == 0.0 and gap["n"] == len(items)
    assert set(summary["groups"]["condition"]) == {"A", "B", "C"}
    assert summary["by_model_layer"]["m1"]["L7"]["n"] == 3 * len(items)
    assert summary["by_model_layer"]["m1"]["L7"]["metrics"]["gra"]["n"] == 3 * len(items)


def test_no_deltas_with_one_condition(buffett):
    records = score_responses(buffett[:2], synthetic_responses(buffett[:2], corruptions=["none"]), _options())
    assert summarize(records, options=_options())["deltas"] is None


def test_groups_by_investor_topology_card_and_corruption(buffett):
    records = score_responses(buffett, synthetic_responses(buffett, corruptions=["none", "swap_gates"]), _options())
    groups = summarize(records, options=_options())["groups"]
    assert set(groups) == {"overall", "model", "condition", "layer", "investor", "topology", "card", "corruption"}
    assert set(groups["investor"]) == {"Warren Buffett", "Benjamin Graham", "NBIM (Norges Bank Investment Management)"}
    assert "parallel_threshold" in groups["topology"] and "linear_sequential" in groups["topology"]
    assert groups["corruption"]["swap_gates"]["metrics"]["kendall_tau"]["mean"] < 1.0
    assert groups["overall"]["all"]["n"] == 2 * len(buffett)
    fm1 = groups["overall"]["all"]["flags"]["FM-1"]
    assert fm1["n_fired"] == 0 and fm1["n_applicable"] == 2 * len(buffett)


def test_l8_items_are_scored_per_card(buffett):
    a = next(i for i in buffett if i["id"] == BASE)
    b = next(i for i in buffett if i["card"] == "graham_net_net_screen")
    l8 = {"id": "L8-pair", "layer": "L8", "cards": [a["card"], b["card"]],
          "golds": [{"card": a["card"], "investor": "Warren Buffett", "grp": a["grp"]},
                    {"card": b["card"], "investor": "Benjamin Graham", "grp": b["grp"]}]}
    [both] = synthetic_responses([l8], corruptions=["none"])
    [only_a] = synthetic_responses([a], corruptions=["none"])
    text = f"## Warren Buffett\n{only_a['response']}\n## Benjamin Graham\nI have no view on this one.\n"
    only_a = dict(only_a, item_id="L8-pair", model="half", response=text)
    records = score_responses([l8], [both, only_a], _options())
    assert [t["status"] for t in records[0]["targets"]] == ["scored", "scored"]
    assert records[0]["layer"] == "L8" and records[0]["metrics"]["gcf"] == 1.0
    assert records[0]["metrics"]["verdict_acc"] == 1.0  # each card's final verdict is read in its own section
    first, second = (t["section"] for t in records[0]["targets"])
    assert first[0][1] <= second[0][0]
    half = records[1]
    assert half["status"] == "scored"
    missing = half["targets"][1]
    assert missing["status"] == "scored" and "addresses none" in missing["note"]
    assert missing["metrics"]["gcf"] == 0.0
    assert half["metrics"]["gcf"] == 0.5  # mean over the two cards
    whole = score_responses([l8], [dict(only_a, response=text.split("## Benjamin")[0], model="whole")], _options())[0]
    # s49break: laid out under a marked heading for Buffett only. Before, an answer with no heading for Graham was
    # parsed whole for both cards, and Graham's card was credited with Buffett's numbered gates; now Graham's card
    # gets only the text under no card's heading (none here): it addresses none of his gates, as the "half" answer.
    buffett_part, graham_part = whole["targets"]
    assert buffett_part["section"] is not None and buffett_part["metrics"]["gcf"] == 1.0
    assert graham_part["status"] == "scored" and "addresses none" in graham_part["note"]
    assert graham_part["metrics"]["gcf"] == 0.0 and whole["metrics"]["gcf"] == 0.5
    one_card = score_responses([l8], [dict(only_a, card=a["card"], model="one")], _options())[0]
    assert [t["card"] for t in one_card["targets"]] == [a["card"]] and one_card["metrics"]["gcf"] == 1.0


def test_judge_components_feed_the_layer_composite(buffett):
    a = next(i for i in buffett if i["id"] == BASE)
    l8 = {"id": "L8-judge", "layer": "L8", "golds": [{"card": a["card"], "investor": "Warren Buffett", "grp": a["grp"]},
                                                    {"card": a["card"], "investor": "Warren Buffett", "grp": a["grp"]}]}
    [r] = synthetic_responses([a], corruptions=["none"])
    r = dict(r, item_id="L8-judge", judge={"geval_l8": 0.8})
    [record] = score_responses([l8], [r], _options(renormalize=True))
    assert record["targets"][0]["layer_composite"]["components"]["geval_l8"] == 0.8
    assert record["metrics"]["layer_composite"] == pytest.approx(0.8)


def test_without_embeddings_no_model_is_loaded(buffett, monkeypatch):
    def boom():
        raise AssertionError("the default encoder must not be loaded")

    import ipb.scoring.options as options_module  # where ScoreOptions resolves its encoder

    monkeypatch.setattr(options_module, "default_encoder", boom)
    records = score_responses(buffett[:3], synthetic_responses(buffett[:3], corruptions=["none"]),
                              ScoreOptions(embeddings=False, n_resamples=50))
    for r in records:
        assert r["status"] == "scored"
        assert r["flags"]["FM-4"] is None  # voice clauses are not evaluated without embeddings
        assert r["metrics"]["gcf"] == 1.0


def test_progress_is_reported_per_phase(buffett):
    seen = []
    run_module.score_records(item_set(buffett[:3]), run_module.records_from(
        synthetic_responses(buffett[:3], corruptions=["none"])), _options(), progress=lambda *a: seen.append(a))
    assert ("parse", 3, None) in seen and ("score", 3, 3) in seen and seen[3][0] == "embed"


# --------------------------------------------------------------------------- files


def _responses_file(tmp_path, buffett):
    rows = synthetic_responses(buffett[:6], corruptions=["none", "drop_gate", "wrong_year"])
    rows += synthetic_responses(buffett[:6], corruptions=["none"], condition="C")
    return _write_jsonl(tmp_path / "responses.jsonl", rows)


def test_same_inputs_and_seed_give_byte_identical_outputs(tmp_path, items_file, buffett):
    responses = _responses_file(tmp_path, buffett)
    first = run_score(items_file, responses, tmp_path / "a", _options(seed=5))
    second = run_score(items_file, responses, tmp_path / "b", _options(seed=5, encoder=CachedEncoder(HashingEncoder())))
    for name in ("responses.jsonl", "summary.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    other = run_score(items_file, responses, tmp_path / "c", _options(seed=6))
    assert (tmp_path / "c" / "responses.jsonl").read_bytes() == (tmp_path / "a" / "responses.jsonl").read_bytes()
    assert other.summary["groups"] != first.summary["groups"]  # only the intervals depend on the seed
    assert sorted(os.listdir(tmp_path / "a")) == ["responses.jsonl", "summary.json"]
    _validate(first.records, first.summary)
    loaded = [json.loads(line) for line in (tmp_path / "a" / "responses.jsonl").read_text().splitlines()]
    assert loaded == json.loads(json.dumps(first.records))
    assert second.summary["deltas"]["conditions"] == ["A", "C"]


def test_a_failed_write_leaves_the_old_outputs_and_no_temporary_file(tmp_path, items_file, buffett, monkeypatch):
    responses = _responses_file(tmp_path, buffett)
    out = tmp_path / "out"
    run_score(items_file, responses, out, _options())
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ipb._files.os, "replace", broken_replace)  # the shared atomic writer
    with pytest.raises(LoadError, match="No space left"):
        run_score(items_file, responses, out, _options(seed=9))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_the_two_outputs_are_replaced_together_or_not_at_all(tmp_path, items_file, buffett, monkeypatch):
    responses = _responses_file(tmp_path, buffett)
    out = tmp_path / "out"
    run_score(items_file, responses, out, _options())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = ipb._files.os.replace

    def summary_refused(src, dst):
        if str(dst).endswith("summary.json"):
            raise PermissionError(1, "Operation not permitted", str(dst))
        return real(src, dst)

    monkeypatch.setattr(ipb._files.os, "replace", summary_refused)
    with pytest.raises(LoadError, match=r"cannot write .*summary\.json: Operation not permitted \(the old results are left"):
        run_score(items_file, responses, out, _options(seed=9))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # responses.jsonl was put back too


def test_a_failed_first_write_does_not_speak_of_old_results(tmp_path, items_file, buffett, monkeypatch):
    # s64 new user F10: ipb score --out to an immutable folder said "(the old results are left as they were)" when
    # the folder held none
    responses = _responses_file(tmp_path, buffett)
    out = tmp_path / "fresh"

    def refused(src, dst):
        raise PermissionError(1, "Operation not permitted", str(dst))

    monkeypatch.setattr(ipb._files.os, "replace", refused)
    with pytest.raises(LoadError, match=r"cannot write .*: Operation not permitted \(no results were written\)$"):
        run_score(items_file, responses, out, _options())
    assert not (out / "responses.jsonl").exists() and not (out / "summary.json").exists()


def test_an_input_inside_the_output_folder_is_refused_before_anything_is_written(tmp_path, items_file, buffett):
    responses = _responses_file(tmp_path, buffett)
    out = tmp_path / "out"
    run_score(items_file, responses, out, _options())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(LoadError, match="is an output of this run"):
        run_score(items_file, out / "responses.jsonl", out, _options())
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_unreadable_inputs_are_load_errors(tmp_path, items_file):
    with pytest.raises(LoadError, match="cannot read items file"):
        load_items(tmp_path / "missing.jsonl")
    with pytest.raises(LoadError, match="no such responses file"):
        run_score(items_file, tmp_path / "missing.jsonl", tmp_path / "out", _options())


def test_old_or_invalid_records_are_rejected_by_the_schema():
    validator = jsonschema.Draft202012Validator(record_schema())
    good = {"version": 1, "kind": "ipb.score.response", "record": 1, "source": "f:1", "item_id": None, "model": None,
            "condition": None, "condition_key": None, "layer": None, "status": "unscored", "reason_code": "invalid_record",
            "reason": "line 1 is not JSON", "error": None, "response_chars": None, "response_sha256": None,
            "metrics": {}, "flags": {}, "targets": []}
    assert not list(validator.iter_errors(good))
    for broken in (dict(good, version=0), dict(good, status="wrong"), dict(good, status="scored"),
                   dict(good, reason_code="made_up"), {k: v for k, v in good.items() if k != "targets"}):
        assert list(validator.iter_errors(broken))


# --------------------------------------------------------------------------- command line


def test_cli_writes_outputs_and_reports_unusable_records(tmp_path, items_file, buffett):
    responses = _responses_file(tmp_path, buffett)
    with open(responses, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"item_id": "nope", "model": "m", "condition": "A", "response": "x"}) + "\n")
    runner = CliRunner()
    result = runner.invoke(app, ["score", "--items", str(items_file), "--responses", str(responses), "--out",
                                 str(tmp_path / "out"), "--no-embeddings", "--resamples", "50", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert "record 25: unknown_item: unknown item id 'nope'" in result.output
    assert "scored 24 of 25 record(s)" in result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["options"]["embeddings"] is False and summary["counts"]["invalid"] == 1
    clean = tmp_path / "clean.jsonl"
    clean.write_text("".join(responses.read_text().splitlines(keepends=True)[:-1]))
    ok = runner.invoke(app, ["score", "-i", str(items_file), "-r", str(clean), "-o", str(tmp_path / "out2"),
                             "--no-embeddings", "--resamples", "50", "--seed", "3"])
    assert ok.exit_code == 0, ok.output
    usage = runner.invoke(app, ["score", "-i", str(items_file), "-r", str(clean), "-o", str(tmp_path / "o3"),
                                "--format", "csv"])
    assert usage.exit_code == 2 and "unknown --format" in usage.output


def test_cli_embed_cutoff_reaches_the_parser_and_the_summary(tmp_path, items_file, buffett, monkeypatch):
    seen = []
    real = run_module._Scorer.parse

    def spy(self, work):
        seen.append(self.options.embed_cutoff)
        return real(self, work)

    monkeypatch.setattr(run_module._Scorer, "parse", spy)
    responses = _responses_file(tmp_path, buffett)
    runner = CliRunner()
    result = runner.invoke(app, ["score", "-i", str(items_file), "-r", str(responses), "-o", str(tmp_path / "out"),
                                 "--no-embeddings", "--resamples", "20", "--embed-cutoff", "0.55"])
    assert result.exit_code == 0, result.output
    assert seen and set(seen) == {0.55}
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["options"]["embed_cutoff"] == 0.55
    bad = runner.invoke(app, ["score", "-i", str(items_file), "-r", str(responses), "-o", str(tmp_path / "o2"),
                              "--embed-cutoff", "1.5"])
    assert bad.exit_code == 2 and "--embed-cutoff is a cosine similarity in [-1, 1], not 1.5" in bad.output
    assert not (tmp_path / "o2").exists()


def test_cli_missing_items_file_exits_1(tmp_path):
    result = CliRunner().invoke(app, ["score", "-i", str(tmp_path / "no.jsonl"), "-r", str(tmp_path / "no.jsonl"),
                                      "-o", str(tmp_path / "out"), "--no-embeddings"])
    assert result.exit_code == 1 and "cannot read items file" in result.output


# --------------------------------------------------------------------------- helpers


def test_condition_labels_map_to_the_paper_letters():
    assert [canonical_condition(c) for c in ("A", "closed_book", "PKB", "rag", "oracle", "c", "other")] == \
        ["A", "A", "B", "B", "C", "C", "other"]


def test_mean_ci_is_seeded_and_brackets_the_mean():
    values = [0.0, 0.5, 1.0, 1.0, 0.25] * 20
    a = mean_ci(values, n_resamples=500, seed=1)
    assert a == mean_ci(values, n_resamples=500, seed=1)
    assert a["low"] <= a["mean"] <= a["high"] and a["n"] == 100
    continuous = [i / 997 for i in range(300)]
    b = mean_ci(continuous, n_resamples=300, seed=2)
    assert b["low"] < b["mean"] < b["high"]


@pytest.mark.parametrize("name", ["ipb.scoring.run", "ipb.scoring.summary", "ipb.respond.synthetic", "ipb.scoring.options",
                                  "ipb.scoring.items", "ipb.scoring.outcome"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_items_written_by_ipb_perturb_score_end_to_end(tmp_path):
    """The items contract (grammar/item.schema.json): L7 and L8 items from ``ipb perturb`` score as written."""
    runner = CliRunner()
    base = Path(__file__).resolve().parents[2] / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"
    l7, l8 = tmp_path / "l7.jsonl", tmp_path / "l8.jsonl"
    made = runner.invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(base), "--n", "6",
                               "--seed", "1", "--out", str(l7)])
    assert made.exit_code == 0, made.output
    made = runner.invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--card", "graham_net_net_screen",
                               "--base", str(base), "--n", "2", "--seed", "1", "--fm6-probe", "--allow-short",
                               "--out", str(l8)])
    assert made.exit_code == 0, made.output
    items_path = tmp_path / "items.jsonl"
    items_path.write_text(l7.read_text() + l8.read_text())
    items = [json.loads(line) for line in items_path.read_text().splitlines()]
    responses = _write_jsonl(tmp_path / "r.jsonl", synthetic_responses(items, corruptions=["none"]))
    result = run_score(items_path, responses, tmp_path / "out", _options())
    assert [r["status"] for r in result.records] == ["scored"] * len(items)
    for record in result.records:
        assert record["metrics"]["verdict_acc"] == 1.0 and record["metrics"]["gcf"] == 1.0, record["item_id"]
        if record["layer"] == "L8":
            assert [t["card"] for t in record["targets"]] == ["buffett_acquisition_checklist", "graham_net_net_screen"]
            assert all(t["section"] for t in record["targets"])
    assert set(result.summary["groups"]["layer"]) == {"L7", "L8"}
    _validate(result.records, result.summary)


def test_answers_to_another_items_file_are_said_to_be_so(tmp_path, items_file, buffett):
    """s44user: a responses file made for another items file gave one 'unknown item id' line per record and no word of
    why. When most records name items the file does not hold, one line says what that likely means; one stray record
    among known ones (the test above: 1 of 25) does not."""
    rows = [{"item_id": f"OTHER-{k}", "model": "m", "condition": "A", "response": "Final verdict: INVEST"} for k in range(3)]
    rows.append({"item_id": BASE, "model": "m", "condition": "A", "response": "Final verdict: INVEST"})
    responses = _write_jsonl(tmp_path / "other.jsonl", rows)
    result = CliRunner().invoke(app, ["score", "--items", str(items_file), "--responses", str(responses), "--out",
                                      str(tmp_path / "out"), "--no-embeddings", "--resamples", "20", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert (f"3 of 4 record(s) name an item id that {items_file} does not hold: are these answers to another items "
            "file?") in " ".join(result.output.split())
    stray = _responses_file(tmp_path, buffett)
    with open(stray, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"item_id": "nope", "model": "m", "condition": "A", "response": "x"}) + "\n")
    one = CliRunner().invoke(app, ["score", "--items", str(items_file), "--responses", str(stray), "--out",
                                   str(tmp_path / "out2"), "--no-embeddings", "--resamples", "20", "--no-progress"])
    assert "another items file" not in one.output
