"""Layer composites, the W1 composite and BASP-strict (paper §7.13, §7.15)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.errors import ScoreError
from ipb.scoring.composite import (
    LAYER_WEIGHTS,
    W1_WEIGHTS,
    basp_strict,
    composite_weights,
    layer_composite,
    score_case,
    w1_composite,
    weighted_composite,
)
from ipb.scoring.embeddings import HashingEncoder
from ipb.scoring.fmdp import FailureFlag
from ipb.scoring.metrics import Case

ALL = {"ogrs": 0.9, "kccs": 0.7, "sap@3": 0.6, "ivp": 0.4, "ckca": 0.2}


def test_weights_are_the_papers_and_sum_to_one():
    assert LAYER_WEIGHTS["L4"] == {"ogrs_k": 0.40, "kccs": 0.35, "sap@2": 0.25}
    assert LAYER_WEIGHTS["L7"] == {"ogrs_k": 0.35, "kccs": 0.30, "verdict_acc": 0.20, "sap@1": 0.15}
    assert W1_WEIGHTS == {"ogrs": 0.35, "kccs": 0.25, "sap@3": 0.20, "ivp": 0.10, "ckca": 0.10}
    for name in [*LAYER_WEIGHTS, "W1"]:
        assert sum(composite_weights(name).values()) == pytest.approx(1.0), name
    assert [LAYER_WEIGHTS[f"L{k}"] for k in (1, 2, 3)] == [
        {"fact_acc": 0.6, "sap@1": 0.4}, {"fact_acc": 0.6, "sap@2": 0.4}, {"fact_acc": 0.6, "sap@3": 0.4}]


@pytest.mark.parametrize(
    "layer, values, expected",
    [
        ("L4", {"ogrs_k": 1.0, "kccs": 0.0, "sap@2": 1.0}, 0.65),
        ("L5", {"ivp_micro": 0.5, "kccs": 1.0, "sap@2": 0.0}, 0.55),
        ("L6", {"geval_l6": 0.5, "contradiction_coverage": 1.0}, 0.70),
        ("L7", {"ogrs_k": 1.0, "kccs": 1.0, "verdict_acc": 0.5, "sap@1": 0.0}, 0.75),
        ("L8", {"geval_l8": 1.0, "ivp_micro": 0.0}, 0.65),
        ("l2", {"fact_acc": 0.5, "sap@2": 1.0}, 0.70),
    ],
)
def test_layer_composites_hand_worked(layer, values, expected):
    assert layer_composite(layer, values).value == pytest.approx(expected)


def test_missing_component_is_none_unless_renormalised():
    result = layer_composite("L4", {"ogrs_k": 1.0, "kccs": 0.5, "sap@2": None})
    assert result.value is None and result.missing == ("sap@2",)
    again = layer_composite("L4", {"ogrs_k": 1.0, "kccs": 0.5, "sap@2": None}, renormalize=True)
    assert again.value == pytest.approx((0.40 * 1.0 + 0.35 * 0.5) / 0.75) and again.renormalized
    assert weighted_composite({"a": 1.0}, {"a": None}, renormalize=True).value is None


def test_w1_and_errors():
    assert w1_composite(ALL).value == pytest.approx(0.35 * 0.9 + 0.25 * 0.7 + 0.2 * 0.6 + 0.1 * 0.4 + 0.1 * 0.2)
    with pytest.raises(ScoreError, match="layers: L1, L2"):
        layer_composite("L9", {})
    with pytest.raises(ScoreError) as err:
        composite_weights("W 1")
    assert err.value.suggestion == "W1"
    with pytest.raises(ScoreError):
        layer_composite("W1", {})
    with pytest.raises(ScoreError):
        weighted_composite({"a": 1.0}, {"a": 1.5})


# --------------------------------------------------------------------------- BASP-strict


def test_basp_strict_three_of_five_is_composite_times_three_fifths():
    result = basp_strict(0.8, ALL)
    assert (result.passed, result.evaluated) == (3, 5)
    assert result.value == pytest.approx(0.8 * 3 / 5)
    assert [g.passed for g in result.gates] == [True, True, True, False, False]
    assert result.conjunction is False


def test_thresholds_are_inclusive():
    at = {"ogrs": 0.70, "kccs": 0.60, "sap@3": 0.50, "ivp": 0.50, "ckca": 0.50}
    result = basp_strict(0.6, at)
    assert result.passed == 5 and result.value == pytest.approx(0.6) and result.conjunction


@pytest.mark.parametrize(
    "fm, gate",
    [("FM-1", "ogrs"), ("FM-3", "kccs"), ("FM-4", "ivp"), ("FM-6", "ckca")],
)
def test_failure_modes_fail_their_gate_whatever_the_value(fm, gate):
    perfect = {"ogrs": 1.0, "kccs": 1.0, "sap@3": 1.0, "ivp": 1.0, "ckca": 1.0}
    result = basp_strict(1.0, perfect, [fm])
    assert result.passed == 4 and result.value == pytest.approx(4 / 5)
    failed = [g for g in result.gates if not g.passed]
    assert [(g.metric, g.reason) for g in failed] == [(gate, fm)]


def test_fm2_and_fm5_fail_no_gate_and_flags_may_be_objects():
    perfect = {"ogrs": 1.0, "kccs": 1.0, "sap@3": 1.0, "ivp": 1.0, "ckca": 1.0}
    flags = {"FM-2": FailureFlag("FM-2", True), "FM-5": FailureFlag("FM-5", True), "FM-1": FailureFlag("FM-1", False)}
    assert basp_strict(1.0, perfect, flags).passed == 5
    assert basp_strict(1.0, perfect, {"FM-3": True}).passed == 4


def test_gra_sixth_gate_makes_the_factor_k_over_six():
    passing = basp_strict(0.8, ALL, gra=0.75)
    assert (passing.passed, passing.evaluated) == (4, 6)
    assert passing.value == pytest.approx(0.8 * 4 / 6)
    failing = basp_strict(0.8, ALL, gra=0.69)
    assert (failing.passed, failing.evaluated) == (3, 6)
    assert failing.value == pytest.approx(0.8 * 3 / 6)


def test_not_applicable_metric_skips_or_fails_its_gate():
    values = {**ALL, "ckca": None}
    skipped = basp_strict(0.8, values, denominator="applicable")
    assert (skipped.passed, skipped.evaluated) == (3, 4) and skipped.value == pytest.approx(0.8 * 3 / 4)
    # paper (default): k of 5, the gate with nothing to test counted as passed (our reading of §7.15)
    paper = basp_strict(0.8, values)
    assert (paper.passed, paper.not_applicable, paper.denominator) == (3, 1, "paper")
    assert paper.value == pytest.approx(0.8 * (3 + 1) / 5)
    counted = basp_strict(0.8, values, missing="fail")
    assert (counted.passed, counted.evaluated) == (3, 5)
    flagged = basp_strict(0.8, values, ["FM-6"])
    assert (flagged.passed, flagged.evaluated) == (3, 5)  # a failure mode fails a gate even without its metric
    with pytest.raises(ScoreError):
        basp_strict(0.8, values, missing="ignore")
    with pytest.raises(ScoreError):
        basp_strict(0.8, values, denominator="evaluated")
    assert basp_strict(None, ALL).value is None


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0, 1),
    st.fixed_dictionaries({k: st.one_of(st.none(), st.floats(0, 1)) for k in ALL}),
    st.lists(st.sampled_from(["FM-1", "FM-2", "FM-3", "FM-4", "FM-5", "FM-6"])),
    st.one_of(st.none(), st.floats(0, 1)),
)
def test_basp_strict_never_exceeds_the_composite(composite, values, flags, gra):
    result = basp_strict(composite, values, flags, gra=gra)
    assert result.value is None or 0.0 <= result.value <= composite + 1e-12
    assert result.evaluated <= (6 if gra is not None else 5)


# --------------------------------------------------------------------------- score_case


def _grp():
    return {"framework": "t", "investment_verdict": "DECLINE", "verdict_trigger": "gate_2_reject",
            "gold_program": [
                {"gate": 1, "name": "Moat", "verdict": "PROCEED", "kill_criterion": None,
                 "required_elements": ["switching costs"], "kill_triggered": False, "computed_value": None},
                {"gate": 2, "name": "Price", "verdict": "REJECT", "kill_criterion": "price_too_high",
                 "required_elements": ["price $50B"], "kill_triggered": True, "computed_value": None}]}


def test_score_case_scores_everything_for_a_good_answer():
    text = "Gate 1 first: PROCEED, switching costs. Then Gate 2: REJECT, price $50B. DECLINE."
    parsed = {"status": "ok", "reason": None, "final_verdict": "DECLINE", "invented_gates": [], "years": [],
              "attributions": [], "citations": [], "text": text,
              "gates": [{"gate": 1, "name": "Moat", "verdict": "PROCEED", "elements": ["switching costs"], "span": [0, 5]},
                        {"gate": 2, "name": "Price", "verdict": "REJECT", "elements": ["price $50B"], "span": [5, 9]}]}
    c = Case(gold=_grp(), parsed=parsed, kill_gates={1: "no_moat", 2: "price_too_high"}, layer="L7",
             encoder=HashingEncoder())
    scores = score_case(c)
    assert scores.status == "ok"
    assert {k: scores.metrics[k] for k in ("ogrs", "ogrs_k", "kccs", "verdict_acc", "gra")} == {
        "ogrs": 1.0, "ogrs_k": 1.0, "kccs": 1.0, "verdict_acc": 1.0, "gra": 1.0}
    assert scores.metrics["sap@1"] is None  # no investor known: not applicable, not zero
    assert scores.layer is not None and scores.layer.value is None and scores.layer.missing == ("sap@1",)
    assert not any(f.fired for f in scores.flags.values())
    assert scores.strict is not None and scores.strict.evaluated == 3  # OGRS, KCCS, GRA
    payload = scores.to_dict()
    assert payload["flags"]["FM-1"]["name"] == "Hallucinated Gate"


def test_score_case_reports_a_parse_failure_as_unscored():
    c = Case(gold=_grp(), parsed={"status": "parse_failure", "reason": "response is empty"})
    scores = score_case(c)
    assert (scores.status, scores.reason, dict(scores.metrics)) == ("parse_failure", "response is empty", {})
