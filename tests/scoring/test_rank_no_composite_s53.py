"""Regression (wrong rank): a board must never put a less correct model above a more correct one on a tie.

s53newuser finding 1: an L8 run scored without a judge has no layer composite (L8 = 0.65 GEval_L8 + 0.35 IVP_micro,
§7.13: a judge score and an embedding distance), so every row showed "—", BASP-strict (on its W1 fallback, which has
no verdict term) was 1.000 for both models, and the tie went to the name: the model whose Munger final verdict was
wrong (VerdictAcc 2/3) ranked first. The board now ranks on VerdictAcc where no model has a composite, breaks ties
by coverage, VerdictAcc, GRA and BASP-strict before the name, and says under the board why the composite is empty.
"""

from __future__ import annotations

import json
from pathlib import Path

from ipb.scoring.leaderboard import composite_note, leaderboard, rank_metric, rank_note

ITEM = Path(__file__).resolve().parents[1] / "fixtures" / "new_user53" / "l8_item.jsonl"


def _stat(v: float | None, n: int = 1) -> dict | None:
    return None if v is None else {"mean": v, "low": v, "high": v, "n": n}


def _group(comp: float | None, verdict: float, gra: float, strict: float, n: int = 1) -> dict:
    return {"n": n, "n_scored": n, "n_parse_failures": 0, "n_refusals": 0, "coverage": 1.0,
            "metrics": {"layer_composite": _stat(comp, n), "verdict_acc": _stat(verdict, n), "gra": _stat(gra, n),
                        "basp_strict": _stat(strict, n)}}


def test_l8_board_with_no_composite_ranks_the_right_verdicts_first() -> None:
    # the user's figures: both 1.000 BASP-strict and 0.978 GRA; VerdictAcc 1 (3 of 3 finals) against 2/3 (Munger's
    # DECLINE on a gold INVEST). The wrong model's name sorts first, so a name tie-break would put it at rank 1
    s = {"groups": {"model": {"a_munger_wrong": _group(None, 2 / 3, 0.977778, 1.0),
                              "b_right": _group(None, 1.0, 0.977778, 1.0)},
                    "layer": {"L8": {"metrics": {"layer_composite": None}}}}}
    rows = leaderboard(s)
    assert [r["model"] for r in rows] == ["b_right", "a_munger_wrong"]
    assert {r["rank_on"] for r in rows} == {"verdict_acc"}
    assert [round(r["rank_value"], 3) for r in rows] == [1.0, 0.667]
    note = rank_note(s, rows)
    assert note.startswith("composite: empty for every model: no L8 item has one (L8 = 0.65 GEval_L8 + 0.35 "
                           "IVP_micro, §7.13; it needs GEval_L8, a judge's score (ipb judge, §7.12) and IVP_micro")
    assert "the board ranks on VerdictAcc" in note
    # one model alone still hears why its composite is "—"
    assert rank_note(s, rows[:1]) == note


def test_l7_composite_tie_goes_to_the_right_verdict_not_to_bsp_strict_or_name() -> None:
    # L7 = 0.35 OGRS_k + 0.30 KCCS + 0.20 VerdictAcc + 0.15 SAP@1 (§7.13). Model a: every gate and element right,
    # final verdict wrong: 0.35 + 0.30 + 0 + 0.15 = 0.80; every BASP-strict gate passes, so BASP-strict 0.80.
    # Model b: final right, KCCS 1/3: 0.35 + 0.10 + 0.20 + 0.15 = 0.80; its KCCS gate fails (1/3 < 0.60), so
    # BASP-strict 0.80 x 5/6 = 0.667. Before the fix the tie went to BASP-strict: the wrong verdict ranked first
    s = {"groups": {"model": {"a_wrong_final": _group(0.80, 0.0, 0.75, 0.80),
                              "b_right_final": _group(0.80, 1.0, 0.75, 0.80 * 5 / 6)}}}
    rows = leaderboard(s)
    assert [r["model"] for r in rows] == ["b_right_final", "a_wrong_final"]
    assert {r["rank_on"] for r in rows} == {"layer_composite"}
    # same VerdictAcc: GRA decides before BASP-strict and the name (a: GRA 0.5, z: GRA 1.0)
    s = {"groups": {"model": {"a": _group(0.80, 1.0, 0.5, 0.80), "z": _group(0.80, 1.0, 1.0, 0.60)}}}
    assert [r["model"] for r in leaderboard(s)] == ["z", "a"]


def test_a_composite_anywhere_is_the_figure_for_every_row() -> None:
    # one model with a composite: the board ranks on it, and the one without ranks last (no mixing of figures)
    rows = [{"layer_composite": _stat(0.2), "verdict_acc": _stat(0.0)}, {"layer_composite": None,
                                                                         "verdict_acc": _stat(1.0)}]
    assert rank_metric(rows) == "layer_composite"
    s = {"groups": {"model": {"x": _group(0.2, 0.0, 0.0, 0.1), "y": _group(None, 1.0, 1.0, 1.0)}}}
    assert [r["model"] for r in leaderboard(s)] == ["x", "y"]


def test_partly_empty_composite_is_said() -> None:
    s = {"groups": {"model": {"m": _group(0.9, 1.0, 1.0, 0.9), "n": _group(0.5, 0.0, 0.5, 0.4)},
                    "layer": {"L7": {"metrics": {"layer_composite": _stat(0.7)}},
                              "L8": {"metrics": {"layer_composite": None}}}}}
    rows = leaderboard(s)
    note = composite_note(s, rows)
    assert note.startswith("composite: no L8 item has one")
    assert "over the other layers' items only" in note
    assert rank_note(s, rows).splitlines()[1] == note


# My own answers to the user's L8 item (Pabrai deck card, Klarman, Munger): gold BUY, INVEST, INVEST. Gates as the
# golds read them; the second model states Munger's final verdict the wrong way round.
_PABRAI = ("Mohnish Pabrai, Dhandho Bet Checklist\n"
           "1. Price at half of value or less: PROCEED - $400M for $9.55B of value is a 96% discount, beyond the 50% "
           "minimum discount.\n"
           "2. Heads I win, tails I do not lose much: PROCEED - expected gain near 1598% and a 10% loss, under the "
           "20% loss ceiling.\n"
           "3. Existing simple business: PROCEED - years of operating history.\n"
           "4. Distressed industry: PROCEED - the industry is under pressure.\n"
           "Final verdict: BUY.\n\n")
_KLARMAN = ("Seth Klarman, Downside-First Investment Process\n"
            "1. Downside Assessment: PROCEED - bad-case value $360M, a bad-case loss of 10%, no permanent loss of "
            "capital.\n"
            "2. Margin of Safety: PROCEED - $400M paid against a conservative $800M, price at 50% of value.\n"
            "3. Position Sizing and Portfolio Risk: PROCEED - an 11% position loses 1.1% of the portfolio in the bad "
            "case.\n"
            "Final verdict: INVEST.\n\n")
_MUNGER = ("Charlie Munger, Multi-Lens Opportunity Evaluation\n"
           "1. Economics Lens: REJECT - 14% return on capital is too low, durable advantage or not.\n"
           "2. Psychology Lens: PROCEED - pay is aligned and the thesis rests on no bias.\n"
           "3. Mathematics Lens: PROCEED - the probability-weighted expected return is 53%.\n"
           "4. History and Inversion Lens: REJECT - one plausible fatal scenario.\n"
           "5. Biology Lens: PROCEED - it has adapted through disruption.\n"
           "Final verdict: {final}.\n")


def test_ipb_score_on_the_users_l8_item_ranks_the_wrong_final_second(tmp_path: Path) -> None:
    from ipb.engine.registry import use_cards, use_items
    from ipb.scoring.run import ScoreOptions, run_score

    item_id = json.loads(ITEM.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = tmp_path / "answers.jsonl"
    # the wrong model is named so that a name tie-break would rank it first
    records = [{"item_id": item_id, "model": "a_munger_wrong", "condition": "A",
                "response": _PABRAI + _KLARMAN + _MUNGER.format(final="DECLINE")},
               {"item_id": item_id, "model": "b_right", "condition": "A",
                "response": _PABRAI + _KLARMAN + _MUNGER.format(final="INVEST")}]
    answers.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    # the item's cards are the copies ipb perturb wrote beside it (ipb-cards/, the user's Pabrai deck card among them)
    use_cards()
    use_items(ITEM)
    try:
        result = run_score(ITEM, answers, tmp_path / "out", ScoreOptions(embeddings=False, n_resamples=50))
    finally:
        use_cards()
    rows = leaderboard(result.summary)
    assert [r["model"] for r in rows] == ["b_right", "a_munger_wrong"]
    assert [r["layer_composite"] for r in rows] == [None, None]
    # VerdictAcc: 3 of 3 finals right against 2 of 3
    assert [round(r["rank_value"], 3) for r in rows] == [1.0, 0.667]
    assert rank_note(result.summary, rows).startswith("composite: empty for every model: no L8 item has one")
