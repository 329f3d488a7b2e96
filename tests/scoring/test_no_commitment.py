"""An answer that commits to no verdict is a refusal (``no_commitment``), not a scored answer (s32break §2).

Listing the six gate names in order with "unknown" or "I'm not sure." after each earned full gate coverage and
order (OGRS_k 1.0, 0.35 of the L7 composite) for nothing, above honest answers covering four gates. Now such an
answer is unscored with outcome ``refusal`` and reason ``no_commitment``; under ``failures = "count"`` it scores 0
on every owed metric, as a refusal does. INCONCLUSIVE gates with a stated final verdict still score.
"""

from __future__ import annotations

import pytest

from ipb.respond.synthetic import bundled_items
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.outcome import NO_COMMITMENT, REFUSAL_REASONS, commits, outcome_of
from ipb.scoring.run import ScoreOptions, score_responses
from ipb.scoring.summary import leaderboard, summarize

CARD = "buffett_acquisition_checklist"
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]


def _answer(verdicts, final):
    lines = [f"Gate {i + 1} ({NAMES[i]}): {v}" for i, v in enumerate(verdicts)]
    return "\n".join(lines) + f"\nFinal verdict: {final}\n"


@pytest.fixture(scope="module")
def records():
    item = bundled_items([CARD])[0]
    # The bundled item's gold: gates 1, 2, 4 PROCEED, 3 INCONCLUSIVE, 5 REJECT, 6 N/A (not reached); final DECLINE.
    assert item["grp"]["investment_verdict"] == "DECLINE"
    assert [g["verdict"] for g in item["grp"]["gold_program"]] == [
        "PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "REJECT", "N/A"]
    answers = {
        "unknown": _answer(["unknown"] * 6, "unknown"),
        "notsure": _answer(["I'm not sure."] * 6, "I'm not sure."),
        # honest and partial: gates 1-4 only, gate 3 wrong (REJECT for INCONCLUSIVE), final wrong
        "partial": _answer(["PROCEED", "PROCEED", "REJECT", "PROCEED"], "INVEST"),
        "inconclusive-final": _answer(["INCONCLUSIVE"] * 6, "DECLINE"),
    }
    base = {"item_id": item["id"], "condition": "A"}
    out = score_responses([item], [dict(base, model=k, response=v) for k, v in answers.items()],
                          ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    return {r["model"]: r for r in out}


def test_no_commitment_is_a_refusal_reason():
    assert NO_COMMITMENT == "no_commitment" and NO_COMMITMENT in REFUSAL_REASONS
    assert outcome_of("unscored", NO_COMMITMENT) == "refusal"


@pytest.mark.parametrize("model", ["unknown", "notsure"])
def test_an_answer_committing_nothing_is_unscored_as_a_refusal(records, model):
    r = records[model]
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "no_commitment")
    assert "commits to no verdict" in r["reason"]
    [target] = r["targets"]
    assert target["outcome"] == "refusal" and target["reason_code"] == "no_commitment"
    # owed at its worst, exactly as a refusal: 0 on the composite, BASP-strict and OGRS_k
    assert r["owed"]["layer_composite"] == 0.0 and r["owed"]["basp_strict"] == 0.0 and r["owed"]["ogrs_k"] == 0.0
    assert r["owed"]["ned"] == 1.0 and r["owed"]["kendall_tau"] == -1.0


def test_an_honest_partial_answer_now_ranks_above_it(records):
    partial = records["partial"]
    assert partial["status"] == "scored"
    m = partial["metrics"]
    # 5 gold gates are reached (gate 6 is N/A); the answer covers 4 of them in order: GCF = OGRS_k = 4/5.
    assert m["gcf"] == pytest.approx(0.8) and m["ogrs_k"] == pytest.approx(0.8)
    # L7 composite: 0.35 x OGRS_k = 0.28 (final wrong: VerdictAcc 0; KCCS 0), over 0.85: the answer attributes
    # nothing, so SAP@1 is not applicable (stop 50) and the weights renormalise: 0.28 / 0.85 = 0.3294.
    # BASP-strict: OGRS passes, KCCS and GRA fail, SAP/IVP/CKCA not applicable (counted passed): 0.3294 x 4/6
    # (it was 0.28 x 3/6 = 0.14 with the SAP gate failed at SAP@1 0)
    assert m["verdict_acc"] == 0.0
    assert m["layer_composite"] == pytest.approx(0.28 / 0.85)
    assert m["basp_strict"] == pytest.approx(0.28 / 0.85 * 4 / 6)
    rows = {row["model"]: row for row in leaderboard(summarize(list(records.values())))}
    for model in ("unknown", "notsure"):
        assert rows[model]["coverage"] == 0.0 and rows[model]["n_failures"] == 1
        assert rows[model]["basp_strict"]["mean"] == 0.0 < rows["partial"]["basp_strict"]["mean"]
        assert rows[model]["layer_composite"]["mean"] == 0.0 < rows["partial"]["layer_composite"]["mean"]


def test_inconclusive_gates_with_a_final_verdict_still_score(records):
    r = records["inconclusive-final"]
    assert (r["status"], r["outcome"], r["reason_code"]) == ("scored", "scored", None)
    m = r["metrics"]
    # all 5 reached gates covered in order (OGRS_k 1), the right final (VerdictAcc 1): 0.35 + 0.20 = 0.55, over 0.85
    # with SAP@1 not applicable (no attribution, stop 50): 0.6471; BASP-strict 4 of 6 gates (KCCS and GRA fail; it
    # was 0.55 x 3/6 = 0.275 with the SAP gate failed)
    assert m["ogrs_k"] == 1.0 and m["verdict_acc"] == 1.0
    assert m["layer_composite"] == pytest.approx(0.55 / 0.85)
    assert m["basp_strict"] == pytest.approx(0.55 / 0.85 * 4 / 6)


@pytest.mark.parametrize("parsed, gold, expected", [
    ({"gates": [{"verdict": None}, {"verdict": "INCONCLUSIVE"}], "final_verdict": None}, "DECLINE", False),
    ({"gates": [{"verdict": "INCONCLUSIVE"}], "final_verdict": "INCONCLUSIVE"}, "DECLINE", False),
    ({"gates": [{"verdict": "N/A"}], "final_verdict": None}, "INVEST", False),
    ({"gates": [], "final_verdict": None}, None, False),
    ({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": "REJECT"}], "final_verdict": None}, "DECLINE", True),
    ({"gates": [{"verdict": "PROCEED"}], "final_verdict": "INCONCLUSIVE"}, "INVEST", True),
    ({"gates": [{"verdict": "INCONCLUSIVE"}], "final_verdict": "DECLINE"}, "INVEST", True),
    # where the gold itself is INCONCLUSIVE, saying so is the right answer, not an abstention
    ({"gates": [{"verdict": "INCONCLUSIVE"}], "final_verdict": "INCONCLUSIVE"}, "inconclusive", True),
])
def test_commits(parsed, gold, expected):
    assert commits(parsed, gold) is expected
