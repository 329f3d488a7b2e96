"""Finding F4 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: a flag narrower than what it names.

``final_contradicts_trace`` fired only for a kill gate's REJECT followed by the card's pass verdict. On the user's
weighted 4-of-6 Fisher card (tests/fixtures/new_user64, integrity weight 5, ``min_weight: 8``) an answer stating
the gold gates (gates 1, 2, 4 and 6 PROCEED: weight 1 + 1 + 1 + 5 = 8) and then "Final verdict: AVOID" scored 0.765
with no flag; so did every gate PROCEED on a linear card and then DECLINE. The flag now runs the card's own gate
logic (the engine's execution, ``ipb.engine.stated.outcome_of_verdicts``) on the answer's own gate verdicts, and
fires where that fixes a final other than the stated one.

Hand-worked:

* Fisher (threshold BUY when the PROCEED weight reaches 8 with 4 gates counted): gates 1, 2, 4, 6 PROCEED, 3 and 5
  INCONCLUSIVE: weight 8 >= 8, BUY. Gates 1-5 PROCEED, gate 6 REJECT: weight 5, open 0, AVOID. Gates 1-4 PROCEED,
  gate 5 REJECT, gate 6 unstated: PROCEED there gives 9 (BUY), REJECT 4 (AVOID): not fixed, None. Gates 1, 2, 4, 6
  PROCEED and nothing else stated: the weight is already 8 whatever 3 and 5 are, BUY.
* Munger opportunity evaluation (3 of 5, equal weights, no kill gate), item ``four_lenses_confirm``: gold P P P R P,
  INVEST; the same gates then DECLINE: flagged, its gates give INVEST.
* Marks risk-return (3 of 5, no kill gate), ``decline_loved_credit_2007``: gold R R I R R, DECLINE (PROCEED weight
  0, open 1 < 3); then INVEST: flagged, DECLINE. The old rule needed a kill gate and never fired on these cards.
* Buffett acquisition checklist (linear), ``ipb_p_011_b``: gold P P I P P P, INVEST; then DECLINE: flagged, INVEST.
* The same four items answered with their gold finals: nothing flagged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.graph import compile_card
from ipb.engine.card import load_card
from ipb.engine.logic import Verdict
from ipb.engine.registry import compiled_card
from ipb.engine.stated import outcome_of_verdicts
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.metrics import Case
from ipb.scoring.metrics.elements import final_contradicts_trace
from ipb.scoring.run import ScoreOptions, run_score

ROOT = Path(__file__).resolve().parents[2]
FISHER = ROOT / "tests" / "fixtures" / "new_user64" / "fisher_six_points.yaml"
IPB_COMMAND = (sys.executable, "-c", "from ipb.cli import main; main()")
P, R, I = "PROCEED", "REJECT", "INCONCLUSIVE"


@pytest.fixture(scope="module")
def fisher():
    return compile_card(load_card(FISHER))


@pytest.mark.parametrize("stated, expected", [
    ({1: P, 2: P, 3: I, 4: P, 5: I, 6: P}, "BUY"),   # weight 1 + 1 + 1 + 5 = 8 = min_weight
    ({1: P, 2: P, 3: P, 4: P, 5: P, 6: R}, "AVOID"),  # five counted, weight 5 < 8, nothing open: the veto
    ({1: P, 2: P, 3: P, 4: P, 5: R}, None),           # gate 6 decides it (9 or 4) and is not stated
    ({1: P, 2: P, 4: P, 6: P}, "BUY"),                # 8 reached whatever gates 3 and 5 are
    ({1: R, 2: R, 3: R}, "AVOID"),                    # at most 3 gates left to count: 4 cannot be reached
], ids=["gold-gates-buy", "integrity-veto", "open-integrity", "threshold-already-met", "too-few-left"])
def test_the_threshold_card_logic_on_stated_verdicts(fisher, stated, expected) -> None:
    assert outcome_of_verdicts(fisher, stated) == expected


def test_the_users_answer_is_flagged_with_the_final_its_gates_give(fisher) -> None:
    gold = {"gold_program": [{"gate": n, "verdict": v} for n, v in enumerate([P, P, I, P, I, P], 1)],
            "investment_verdict": "BUY"}
    said = {"gates": [{"gate": n, "verdict": v} for n, v in enumerate([P, P, I, P, I, P], 1)]}
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": "AVOID"}), fisher) == "BUY"
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": "BUY"}), fisher) is None
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": "HOLD"}), fisher) is None  # not its verdict
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": None}), fisher) is None


def test_a_threshold_card_passing_after_a_kill_gates_reject_is_not_flagged() -> None:
    """Dalio's bubble gauge (count REJECT, 4 of 7, every gate a kill gate): two signals present (REJECT) and five
    absent (PROCEED) is NO_BUBBLE by the card, though a kill gate read REJECT; the old rule's exemption, now the
    card's own logic."""
    card = compiled_card("dalio_bubble_detection_gauge")
    gates = [R, R, P, P, P, P, P]
    said = {"gates": [{"gate": n, "verdict": v} for n, v in enumerate(gates, 1)]}
    gold = {"gold_program": [{"gate": n, "verdict": v} for n, v in enumerate(gates, 1)], "investment_verdict": "NO_BUBBLE"}
    assert outcome_of_verdicts(card, dict(enumerate(gates, 1))) == "NO_BUBBLE"
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": "NO_BUBBLE"}), card) is None
    assert final_contradicts_trace(Case(gold, {**said, "final_verdict": "BUBBLE_REDUCE_RISK"}), card) == "NO_BUBBLE"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([P, R, I]), min_size=6, max_size=6))
def test_every_stated_gate_gives_the_engines_own_final(verdicts) -> None:
    """With every gate stated, the outcome is the engine's on facts that give those verdicts: here the threshold
    rule recomputed by hand (count PROCEED weights 1,1,1,1,1,5 against 8 with at least 4 counted), a law over all
    3^6 verdict lists."""
    fisher = compile_card(load_card(FISHER))
    weights = [1, 1, 1, 1, 1, 5]
    hit = sum(w for v, w in zip(verdicts, weights) if v == P)
    open_ = sum(w for v, w in zip(verdicts, weights) if v == I)
    expected = "BUY" if hit >= 8 else "AVOID" if hit + open_ < 8 else "INCONCLUSIVE"
    if expected == "BUY" and verdicts[5] == I:
        expected = "INCONCLUSIVE"  # integrity is decisive: an INCONCLUSIVE integrity keeps the card from BUY
    assert outcome_of_verdicts(fisher, dict(enumerate(verdicts, 1))) == expected


CASES = [  # (item id, contrary final, the final its gates give)
    ("munger_opportunity_evaluation/four_lenses_confirm", "DECLINE", "INVEST"),
    ("marks_risk_return_assessment/decline_loved_credit_2007", "INVEST", "DECLINE"),
    ("buffett_acquisition_checklist/ipb_p_011_b", "DECLINE", "INVEST"),
]


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("contradicts65")
    wanted = {c[0] for c in CASES}
    items = [i for i in bundled_items([c[0].split("/")[0] for c in CASES]) if i["id"] in wanted]
    assert len(items) == 3
    gold = synthetic_responses(items, corruptions=["none"])
    records = [dict(g, model="right") for g in gold]
    contrary_of = {item_id: contrary for item_id, contrary, _ in CASES}
    for g in gold:
        item_id = g["item_id"]
        contrary = contrary_of[item_id]
        assert g["response"].count(f"Final verdict: {g_final(items, item_id)}") == 1
        records.append(dict(g, model="contrary", response=g["response"].replace(
            f"Final verdict: {g_final(items, item_id)}", f"Final verdict: {contrary}")))
    (root / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (root / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return root


def g_final(items: list[dict], item_id: str) -> str:
    return next(i["investment_verdict"] for i in items if i["id"] == item_id)


def test_threshold_and_linear_contrary_finals_are_flagged(release: Path) -> None:
    run_score(release / "i.jsonl", release / "r.jsonl", release / "out",
              ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=20))
    records = [json.loads(line) for line in (release / "out" / "responses.jsonl").read_text().splitlines()]
    flagged = {(r["model"], r["item_id"]): r["targets"][0].get("trace_verdict") for r in records
               if r["metrics"].get("final_contradicts_trace")}
    assert flagged == {("contrary", item_id): gives for item_id, _, gives in CASES}
    assert all("trace_verdict" not in r["targets"][0] for r in records if r["model"] == "right")
    summary = json.loads((release / "out" / "summary.json").read_text())
    groups = summary["groups"]["model"]
    assert (groups["right"]["n_final_contradicts_trace"], groups["contrary"]["n_final_contradicts_trace"]) == (0, 3)
    schema = json.loads(files("ipb.grammar").joinpath("score_record.schema.json").read_text(encoding="utf-8"))
    for r in records:  # trace_verdict is a declared field of a target
        assert not list(jsonschema.Draft202012Validator(schema).iter_errors(r)), r["record"]


def test_ipb_score_counts_them_under_the_board(release: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("IPB_CARDS", "IPB_INVESTORS")}
    proc = subprocess.run([*IPB_COMMAND, "score", "--items", str(release / "i.jsonl"), "--responses",
                           str(release / "r.jsonl"), "--out", str(tmp_path / "o"), "--resamples", "20",
                           "--no-embeddings"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stderr.split())
    assert "final verdict contradicts the answer's own trace" in said
    assert "of scored answers: contrary 3 of 3 (" in said
    assert "right " not in said.split("of scored answers:")[1].split("(")[0]
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["groups"]["model"]["contrary"]["n_final_contradicts_trace"] == 3
