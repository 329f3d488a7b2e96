"""Items end to end: reproducibility, atomic writes, shortfalls, balance, L8, FM-6, verify, the CLI."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError, PerturbError
from ipb.perturb import Job, build_frame, generate, get_operator, item_schema, load_base, parse_recipes, verify_items
from ipb.perturb.items import write_lines
from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES, ROOT

ITEM_VALIDATOR = jsonschema.Draft202012Validator(item_schema())

runner = CliRunner()
DALIO = str(CARDS / "cbdc_dalio_machine.yaml")
SOROS = str(CARDS / "cbdc_soros_reflexivity.yaml")
README_CARD = """\
id: my_card
investor: Benjamin Graham
name: Net-Net Screen
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Two tests in order.
vintage: {start: 1934, end: 1976}
sources:
  - {tier: 1, document: "Security Analysis", year: 1934}
inputs:
  price: {type: money}
  ncav: {type: money}
  earnings_positive: {type: bool}
gates:
  - id: two_thirds_rule
    name: Price at most two-thirds of NCAV
    proceed: price <= 2/3 * ncav
    required_elements: [net current asset value]
  - id: earnings
    name: Positive earnings
    reject: not earnings_positive
    required_elements: [earnings record]
"""


def job(ops="metric,sector,temporal,flip", seed=7, cards=(BUFFETT,), base=BUFFETT_BASE, fm6=False):
    return Job(tuple(cards), str(base), seed, parse_recipes(ops), fm6)


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


# --------------------------------------------------------------------------- reproducibility


def test_same_inputs_and_seed_give_identical_items_whatever_the_workers(monkeypatch):
    import ipb.perturb.generation as gen
    one = generate(job("metric,sector"), 150, workers=1).lines
    monkeypatch.setattr(gen, "POOL_MIN", 0)  # use worker processes even for a small run
    two = generate(job("metric,sector"), 150, workers=2).lines
    assert one == two and len(one) == 150 and len(set(one)) == 150
    assert generate(job("metric,sector", seed=8), 50).lines != one[:50]


def test_cli_writes_byte_identical_files(tmp_path):
    for name in ("a", "b"):
        result = invoke("perturb", "--card", BUFFETT, "--base", BUFFETT_BASE, "--n", 40, "--seed", 3,
                        "--ops", "metric,sector,temporal,flip", "--out", tmp_path / f"{name}.jsonl")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert "40 of 40 items" in result.output


def test_items_follow_the_schema_and_carry_their_manifest():
    lines = generate(job(), 60).lines
    ids = set()
    for line in lines:
        item = json.loads(line)
        ITEM_VALIDATOR.validate(item)
        ids.add(item["id"])
        m = item["manifest"]
        assert m["base"]["id"] == "IPB-P-011" and m["seed"] == 7 and m["tool"]["name"] == "ipb"
        assert m["cards"][0]["id"] == BUFFETT and len(m["cards"][0]["content_hash"]) == 64
        assert item["scenario"]["id"] == item["id"] == item["grp"]["question_id"]
        assert line == json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert len(ids) == 60
    with pytest.raises(jsonschema.ValidationError):  # an item without its manifest must be rejected
        ITEM_VALIDATOR.validate({k: v for k, v in json.loads(lines[0]).items() if k != "manifest"})


# --------------------------------------------------------------------------- bad input


def test_shortfall_is_an_error_not_a_short_file(tmp_path):
    with pytest.raises(PerturbError) as err:
        generate(job("temporal"), 50)
    # five regimes from 1999 on; two (2002 and 2017, both NBER expansions) set the base's own facts and only move
    # the date: not items
    assert err.value.rule == "shortfall" and "temporal: 3 distinct (exhausted)" in err.value.message
    out = tmp_path / "items.jsonl"
    out.write_text("keep me\n")
    result = invoke("perturb", "-c", BUFFETT, "-b", BUFFETT_BASE, "--n", 50, "--ops", "temporal", "--out", out)
    assert result.exit_code == 1 and "only 3 distinct items" in result.output
    assert out.read_text() == "keep me\n", "a failed run leaves the old file as it was"
    assert [p.name for p in tmp_path.iterdir()] == ["items.jsonl"], "no temporary file is left behind"
    result = invoke("perturb", "-c", BUFFETT, "-b", BUFFETT_BASE, "--n", 50, "--ops", "temporal", "--allow-short",
                    "--out", out)
    assert result.exit_code == 0 and "SHORTFALL" in result.output
    assert len(out.read_text().splitlines()) == 3


def test_an_exhausted_recipe_hands_its_share_to_the_others():
    # temporal has 5 regimes for this base: those inside Buffett's vintage from 1999 on, when subscription
    # software exists, less 2002 and 2017 (NBER expansions), which set the base's own facts (flip no longer runs
    # out: it searches from anchors)
    result = generate(job("temporal,metric"), 30)
    temporal, metric = result.recipes
    assert (temporal.items, metric.items) == (3, 27) and temporal.exhausted
    assert "made up by the other recipes" in result.summary()


def test_operator_that_cannot_apply_says_why(tmp_path):
    card = tmp_path / "my_card.yaml"
    card.write_text(README_CARD)
    base = tmp_path / "base.yaml"
    base.write_text("facts: {price: $200, ncav: $300, earnings_positive: true}\n")
    for op, words in (("metric", "no numeric input with a declared range"), ("temporal", "has no regime gate"),
                      ("sector", "no sector input")):
        with pytest.raises(PerturbError) as err:
            generate(Job((str(card),), str(base), 0, parse_recipes(op)), 5)
        assert err.value.rule == "not-applicable" and words in err.value.message


@pytest.mark.parametrize("args, words", [
    (["-c", "buffett_acquisition_checklst"], "did you mean 'buffett_acquisition_checklist'"),
    (["-c", BUFFETT, "--ops", "metrc"], "did you mean 'metric'"),
    (["-c", BUFFETT, "--ops", "temporal:credit_crisis_2008"], "did you mean 'credit_crisis_2009'"),
    (["-c", BUFFETT, "--ops", "flip:ev_to_ar"], "did you mean 'ev_to_arr'"),
    (["-c", BUFFETT, "--ops", "metric,,flip"], "empty recipe"),
    # a recipe named twice (bug kind: silently taken as two recipes, a double share): refused, as --mix does
    (["-c", BUFFETT, "--ops", "metric,flip, metric"], "--ops names recipe 'metric' twice"),
    (["-c", BUFFETT, "--ops", "sector:energy+metric,sector:energy + metric"], "--ops names recipe 'sector:energy+metric' twice"),
    (["-c", BUFFETT, "--n", "0"], "--n must be at least 1"),
])
def test_bad_arguments_give_clear_errors(tmp_path, args, words):
    base = ["-b", str(BUFFETT_BASE)] if "--n" not in args else ["-b", str(BUFFETT_BASE)]
    n = [] if "--n" in args else ["--n", "3"]
    result = invoke("perturb", *args, *base, *n, "--out", tmp_path / "x.jsonl")
    assert result.exit_code == 1 and words in result.output, result.output
    assert not (tmp_path / "x.jsonl").exists()


def test_unknown_base_scenario_and_bad_fact(tmp_path):
    result = invoke("perturb", "-c", BUFFETT, "-b", tmp_path / "missing.yaml", "--n", 3, "--out", tmp_path / "x.jsonl")
    assert result.exit_code == 1 and "cannot read" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("facts:\n  ev_to_ar: 3x\n")
    result = invoke("perturb", "-c", BUFFETT, "-b", bad, "--n", 3, "--out", tmp_path / "x.jsonl")
    assert result.exit_code == 1 and "bad.yaml:2:3" in result.output and "did you mean 'ev_to_arr'" in result.output


# --------------------------------------------------------------------------- balance


def test_balance_evens_out_the_verdicts():
    plain = generate(job("metric,sector"), 60)
    balanced = generate(job("metric,sector"), 60, balance=True)
    assert balanced.evenness > plain.evenness
    # s36rules: a move to financials drops the retention and gross margin (sectors.yaml omits), and the checklist's
    # circle-of-competence gate cannot place a bank whose retention is not disclosed: some sector items are INCONCLUSIVE
    assert set(balanced.verdicts) == {"INVEST", "DECLINE", "INCONCLUSIVE"} and balanced.missing == []
    assert balanced.to_dict()["balance"] is True and "evenness" in balanced.summary()


# --------------------------------------------------------------------------- temporal, FM-6, cutoff


def test_temporal_stays_inside_the_vintage_unless_an_fm6_probe(tmp_path):
    normal = [json.loads(x) for x in generate(job("temporal"), 3).lines]  # 2009, 2020, 2022: all it has
    assert all(int(i["scenario"]["as_of"][:4]) >= 1977 and not i["manifest"]["fm6_probe"] for i in normal)
    # the probes need a business that existed before 1977 (subscription software dates from 1999)
    railroad = tmp_path / "railroad.yaml"
    # with $2B of revenue, not the base's $5B: since stop 31 a $5B business is too large for 1932 and 1938 (the
    # largest US company's revenue then, sizes.figures), which would leave two pre-1977 regimes for four probes
    assert "arr: $5B" in BUFFETT_BASE.read_text()
    railroad.write_text(BUFFETT_BASE.read_text().replace("business_model: subscription_software",
                                                         "business_model: railroad")
                        .replace("sector: enterprise_software", "sector: transport").replace("arr: $5B", "arr: $2B"))
    probes = [json.loads(x) for x in generate(job("temporal", fm6=True, base=railroad), 4).lines]
    assert all(int(i["scenario"]["as_of"][:4]) < 1977 and i["manifest"]["fm6_probe"] for i in probes)
    assert all("outside the framework vintage 1977-present" in i["manifest"]["anachronisms"][0] for i in probes)


def test_temporal_moves_dated_facts_with_the_scenario_date():
    frame = build_frame([str(CARDS / "dated_card.yaml")])
    base = load_base(FIXTURES / "dated_base.yaml", frame)
    step = get_operator("temporal")(frame, base, random.Random(0), "credit_crisis_2009")
    s = step.scenario
    # 2016-05-15 is 46 days before 2016-06-30; 46 days before 2009-03-09 is 2009-01-22
    assert str(s.as_of) == "2009-03-09" and str(s.facts["last_filing"]) == "2009-01-22"
    assert s.facts["founded"] == 1988 and str(s.published["inflation_rate"]) == "2009-02-20"
    assert step.details["shifted"] == {"founded": [1995, 1988], "last_filing": ["2016-05-15", "2009-01-22"]}


def test_look_ahead_fact_is_refused():
    from ipb.perturb.vintage import require_cutoff
    import datetime as dt
    with pytest.raises(PerturbError) as err:
        require_cutoff(dt.date(2009, 3, 9), {"last_filing": dt.date(2009, 3, 10)}, {"cpi": dt.date(2009, 3, 9)})
    assert err.value.rule == "look-ahead"
    assert "last_filing is 2009-03-10" in err.value.message and "cpi was published 2009-03-09" in err.value.message


def test_base_outside_the_vintage_needs_the_fm6_flag(tmp_path):
    base = tmp_path / "old.yaml"
    base.write_text(BUFFETT_BASE.read_text().replace('"2024-06-30"', '"1974-10-04"'))
    with pytest.raises(PerturbError) as err:
        load_base(base, build_frame([BUFFETT], fm6_probe=True))
    assert err.value.rule == "anachronism" and "subscription software (exists from 1999)" in err.value.message
    base.write_text(base.read_text().replace("business_model: subscription_software", "business_model: railroad")
                    .replace("sector: enterprise_software", "sector: transport"))
    with pytest.raises(PerturbError) as err:
        load_base(base, build_frame([BUFFETT]))
    assert err.value.rule == "vintage" and "--fm6-probe" in err.value.message
    item = json.loads(generate(job("metric", base=base, fm6=True), 1).lines[0])
    assert item["manifest"]["fm6_probe"] is True


# --------------------------------------------------------------------------- gate isolation


def test_isolation_changes_exactly_the_named_gate():
    frame = build_frame([BUFFETT])
    base = load_base(BUFFETT_BASE, frame)
    # Seeds 0, 4 and 5: since issue 15's 25% margin only ev_to_arr <= 3.5x isolates gate 5, and since s37rules'
    # subscription_price_within_reach_of_its_growth (at least 10 x 25% growth = 2.5x) only 2.5x-3.5x (3 of the 59
    # grid values; seeds 1 and 3, used before, drew samples of the grid that hold none of them now, as seed 2 did).
    # s40util: the floor is 8 x 25% = 2x outside a recession or credit crisis, so 2x-3.5x isolate it now.
    for seed in (0, 4, 5):
        step = get_operator("isolate")(frame, base, random.Random(seed), "margin_of_safety")
        before, after = frame.profile(base.facts), frame.profile(step.scenario.facts)
        assert [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [4]
        assert step.details["gate"] == "margin_of_safety"


# --------------------------------------------------------------------------- L8


def test_l8_items_carry_a_gold_trace_per_investor(tmp_path):
    base = FIXTURES / "cbdc_l8.yaml"
    result = generate(job("metric,temporal", cards=(BUFFETT, DALIO), base=base), 12)
    for line in result.lines:
        item = json.loads(line)
        ITEM_VALIDATOR.validate(item)
        assert item["layer"] == "L8" and item["cards"] == [BUFFETT, "cbdc_dalio_machine"]
        assert [g["investor"] for g in item["golds"]] == ["Warren Buffett", "Ray Dalio"]
        assert item["golds"][0]["investment_verdict"] == "DECLINE"  # a CBDC is outside Buffett's circle
        assert "How would Warren Buffett and Ray Dalio each analyze this?" in item["question"]
    out = tmp_path / "l8.jsonl"
    write_lines(out, result.lines)
    assert verify_items(out, cards={"cbdc_dalio_machine": DALIO}).ok


def test_l8_refuses_an_investor_outside_his_career_unless_fm6():
    base = FIXTURES / "cbdc_l8_with_soros.yaml"
    with pytest.raises(PerturbError) as err:
        generate(job("metric", cards=(BUFFETT, DALIO, SOROS), base=base), 3)
    assert "cbdc_soros_reflexivity: 2021-03-31 is outside the framework vintage 1969-2011" in err.value.message
    item = json.loads(generate(job("metric", cards=(BUFFETT, DALIO, SOROS), base=base, fm6=True), 1).lines[0])
    assert item["manifest"]["fm6_probe"] and len(item["golds"]) == 3


# --------------------------------------------------------------------------- verify


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    out = tmp_path_factory.mktemp("items") / "items.jsonl"
    write_lines(out, generate(job("metric,sector,flip"), 40).lines)
    return out


def test_verify_passes_on_fresh_items(published):
    result = invoke("verify", published)
    assert result.exit_code == 0 and "verified 40 of 40 item(s)" in result.output


def test_verify_catches_a_card_edit_that_changes_published_gold(published, tmp_path):
    card = tmp_path / "buffett_acquisition_checklist.yaml"
    card.write_text((ROOT / "frameworks" / f"{BUFFETT}.yaml").read_text().replace("value: 25%", "value: 20%"))
    result = invoke("verify", published, "--card", f"{BUFFETT}={card}")
    assert result.exit_code == 1
    assert "gold mismatch" in result.output and "Intrinsic Value Estimation: computed_value" in result.output
    assert "edited since the items were made: buffett_acquisition_checklist" in result.output
    report = json.loads(invoke("verify", published, "--card", f"{BUFFETT}={card}", "-f", "json").output)
    assert report["mismatched"] > 0 and report["changed_cards"] == [BUFFETT]


def test_verify_reports_tampered_and_unreadable_lines(published, tmp_path):
    lines = published.read_text().splitlines()
    item = json.loads(lines[0])
    item["investment_verdict"] = "INVEST" if item["investment_verdict"] == "DECLINE" else "DECLINE"
    item["grp"]["investment_verdict"] = item["investment_verdict"]
    lines[0] = json.dumps(item)
    lines[1] = lines[1][:-5]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = verify_items(bad)
    assert [c.record for c in result.mismatched] == [1] and [c.record for c in result.errors] == [2]
    assert "investment_verdict" in result.mismatched[0].problems[0]
    assert result.errors[0].problems[0].startswith("not JSON")
    with pytest.raises(LoadError):
        verify_items(tmp_path / "missing.jsonl")


def test_parallel_verify_agrees(published, tmp_path, monkeypatch):
    import ipb.perturb.verify as ver
    monkeypatch.setattr(ver, "POOL_MIN", 0)
    lines = published.read_text().splitlines()
    lines[3] = lines[3].replace('"investment_verdict":"DECLINE"', '"investment_verdict":"INVEST"')
    big = tmp_path / "big.jsonl"
    write_lines(big, lines * 5)
    one, two = verify_items(big), verify_items(big, workers=2)
    assert one.total == two.total == 200 and [c.to_dict() for c in one.checks] == [c.to_dict() for c in two.checks]



def test_parallel_verify_numbers_records_as_one_process_does(published, tmp_path, monkeypatch):
    """A line holding only U+00A0 (or U+2028) is blank as ``str.strip`` sees it; the block splitter once counted
    it as a record, so with ``-j 2`` every later record number was one higher than with one process."""
    import ipb.perturb.verify as ver
    monkeypatch.setattr(ver, "POOL_MIN", 0)
    lines = published.read_text().splitlines()
    lines[7] = lines[7].replace('"investment_verdict":"DECLINE"', '"investment_verdict":"INVEST"')
    lines[30] = lines[30].replace('"investment_verdict":"DECLINE"', '"investment_verdict":"INVEST"')
    big = tmp_path / "spaced.jsonl"
    write_lines(big, lines[:5] + ["\u00a0", "\u2028 "] + lines[5:] * 8)
    one, two = verify_items(big), verify_items(big, workers=2)
    assert one.total == two.total
    assert [c.to_dict() for c in one.checks] == [c.to_dict() for c in two.checks]
    assert [c.line - c.record for c in one.checks][-1] == 2  # two blank lines before it, counted by neither

def test_verify_without_jsonschema_rs_gives_the_same_answers(published, monkeypatch, tmp_path):
    import ipb.perturb.verify as ver
    monkeypatch.setattr(ver, "_fast_validator", lambda: None)
    assert verify_items(published).ok
    item = json.loads(published.read_text().splitlines()[0])
    del item["manifest"]["seed"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(item) + "\n")
    result = verify_items(bad)
    assert result.errors and "'seed' is a required property" in result.errors[0].problems[0]
