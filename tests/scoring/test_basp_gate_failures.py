"""``ipb score`` says which BASP-strict gates keep conj. low (s34user).

A new user's "right" model (every gate and final verdict of the gold, in the layout the prompt asks for) showed
conj. 0.000 and BASP-strict 0.708 on the leaderboard with nothing saying why: its answers name no source, so the
SAP gate (0.000 < 0.5) failed on every one. The line under the leaderboard now names the failed gates per model.

Since stop 50 an L4-L8 answer that attributes nothing is not scored on SAP (§7.8's precision: test_rank_s50), so the
right answer passes every gate; the same answer crediting its reasoning to the wrong investor fails the SAP gate alone.
"""

from __future__ import annotations

from ipb.scoring.summary import basp_gate_failures
from ipb.respond.synthetic import bundled_items
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, score_responses

NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]


def test_a_right_answer_crediting_the_wrong_investor_fails_only_the_sap_gate():
    item = bundled_items(["buffett_acquisition_checklist"])[0]
    gold = item["grp"]["gold_program"]
    text = "\n".join(f"Gate {g['gate']} ({NAMES[g['gate'] - 1]}): {g['verdict']}. " + ", ".join(g["required_elements"])
                     for g in gold) + f"\nFinal verdict: {item['grp']['investment_verdict']}\n"
    wrong = "As Peter Lynch wrote in One Up on Wall Street, know what you own.\n" + text
    unscored = {"item_id": item["id"], "condition": "A", "model": "refuser", "response": "I cannot help with that."}
    records = score_responses([item], [{"item_id": item["id"], "condition": "A", "model": "right", "response": text},
                                       {"item_id": item["id"], "condition": "A", "model": "lynch", "response": wrong},
                                       unscored],
                              ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    right, lynch = records[0]["targets"][0], records[1]["targets"][0]
    # no source named: SAP not applicable, every evaluated gate passes (conj. was 0 before stop 50)
    assert right["metrics"]["verdict_acc"] == 1.0 and right["metrics"]["sap@1"] is None
    assert right["metrics"]["basp_conjunction"] == 1.0
    # the reasoning credited to Lynch on a Buffett card: SAP@1 0 < 0.5, the one gate failed
    assert lynch["metrics"]["sap@1"] == 0.0 and lynch["metrics"]["basp_conjunction"] == 0.0
    # the refusal has no scored target: it is not counted here (coverage says it); "right" fails nothing
    assert basp_gate_failures(records) == {"lynch": [("sap", 1.0)]}


def test_not_applicable_gates_are_not_failures_and_top_limits():
    def rec(model, passed):
        gates = [{"metric": m, "passed": p} for m, p in passed.items()]
        return {"model": model, "targets": [{"status": "scored", "basp_strict": {"gates": gates}}]}

    records = [rec("a", {"sap": False, "gra": False, "kccs": False, "ogrs": False, "ivp": None}),
               rec("a", {"sap": False, "gra": True, "kccs": True, "ogrs": False, "ivp": None}),
               rec("b", {"sap": True, "gra": True, "ivp": None})]
    assert basp_gate_failures(records) == {"a": [("ogrs", 1.0), ("sap", 1.0), ("gra", 0.5)]}
    assert basp_gate_failures(records, top=1) == {"a": [("ogrs", 1.0)]}
    assert basp_gate_failures([]) == {}


def test_shares_are_per_scored_target_and_odd_targets_are_skipped():
    """Shares count targets (an L8 answer has one per gold card), not answers; a target that is not a dict is
    skipped, not an AttributeError (the isinstance guard used to come after ``t.get``)."""
    def target(sap, status="scored"):
        return {"status": status, "basp_strict": {"gates": [{"metric": "sap", "passed": sap},
                                                            {"metric": "gra", "passed": True}]}}

    l8 = {"model": "m", "targets": [target(False), target(True), target(False)]}  # one answer, three cards
    l7 = {"model": "m", "targets": [target(True), "not a target", None, target(False, status="parse_failure")]}
    # 4 scored targets (3 + 1), 2 fail SAP: 0.5 (over the 2 answers it would be 1.0); the unscored one is not counted
    assert basp_gate_failures([l8, l7]) == {"m": [("sap", 0.5)]}
    assert basp_gate_failures([{"model": "m", "targets": [target(True)]}, {"model": "n", "targets": None}]) == {}


def test_odd_records_and_a_gate_listed_twice_s35break():
    """s35break: a record that is not a dict and a ``basp_strict`` that is not one raised AttributeError (``.get``
    on None / a list); a metric listed twice in one target's gates counted twice, a share of 2.0 (over 1.0)."""
    twice = {"model": "m", "targets": [{"status": "scored", "basp_strict": {"gates": [
        {"metric": "sap", "passed": False}, {"metric": "sap", "passed": False}]}}]}
    odd = {"model": "m", "targets": [{"status": "scored", "basp_strict": ["not", "a", "dict"]}]}
    assert basp_gate_failures([None, "line", twice, odd]) == {"m": [("sap", 1.0)]}  # type: ignore[list-item]
