"""Regression (one table, two rules): every figure in the report counts refusals as summary.json does.

newuser3 found the "GRA by topology" table giving alice 0.759 (her three
scored answers only) beside an "all models" column and a leaderboard that
count her refusal at 0 (0.569), a BASP-profile caption saying "over scored
responses" under an OGRS_k that includes the refusal, and a page header that
did not name the refusals at all. The fixture below has their data's shape:
three models, one linear_sequential card, L7 items; alice refuses one item,
carol writes one off-topic answer (a refusal too), bob answers all four.

Every expected value is worked by hand from the numbers in the fixture.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ipb.report.data import load_results
from ipb.report.html import render_report
from ipb.scoring.options import ScoreOptions
from ipb.scoring.summary import summarize

TOPOLOGY = "linear_sequential"
#: model -> per answer: (layer composite, GRA, OGRS_k), or the reason code of a refusal.
ANSWERS: dict[str, list[Any]] = {
    "alice": [(0.7, 0.861111, 1.0), (0.625, 0.75, 1.0), "refusal", (0.55, 0.666667, 1.0)],
    "bob": [(0.6, 0.7, 1.0), (0.4, 0.7, 0.5), (0.35, 0.65, 1.0), (0.5, 0.4, 1.0)],
    "carol": [(0.65, 0.833333, 1.0), "off_topic", (0.55, 0.75, 1.0), (0.55, 0.666667, 1.0)],
}
OWED = {"layer_composite": 0.0, "gra": 0.0, "ogrs_k": 0.0, "verdict_acc": 0.0, "ned": 1.0, "kendall_tau": -1.0}


def _record(n: int, model: str, answer: Any) -> dict[str, Any]:
    base = {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"PIO-{n}", "model": model, "condition": "A", "condition_key": "A", "layer": "L7",
            "flags": {}, "error": None}
    target = {"card": "piotroski_lite_screen", "investor": "Joseph Piotroski", "topology": TOPOLOGY, "flags": {}}
    if isinstance(answer, str):
        return dict(base, status="unscored", outcome="refusal", reason_code=answer, reason="the model declined",
                    metrics={}, owed=dict(OWED),
                    targets=[dict(target, status="unscored", outcome="refusal", reason_code=answer, metrics={},
                                  owed=dict(OWED))])
    composite, gra, ogrs_k = answer
    metrics = {"layer_composite": composite, "gra": gra, "ogrs_k": ogrs_k, "verdict_acc": 1.0}
    return dict(base, status="scored", outcome="scored", reason_code=None, reason=None, metrics=dict(metrics),
                targets=[dict(target, status="scored", outcome="scored", metrics=dict(metrics))])


def _results(folder: Path, failures: str = "count") -> Path:
    records = [_record(k + 1, model, a) for k, (model, a) in
               enumerate((m, a) for m, answers in ANSWERS.items() for a in answers)]
    options = ScoreOptions(seed=0, n_resamples=200, embeddings=False, failures=failures)
    summary = summarize(records, options=options)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


def test_topology_cells_count_a_refusal_at_zero_as_the_all_models_column_does(tmp_path: Path) -> None:
    data = load_results(_results(tmp_path / "results"))
    grid = data.topology_gra
    assert grid is not None
    alice, carol, bob = (grid.get(TOPOLOGY, m) for m in ("alice", "carol", "bob"))
    # by hand: (0.861111 + 0.75 + 0 + 0.666667) / 4 and (0.833333 + 0 + 0.75 + 0.666667) / 4
    assert alice.value == pytest.approx(2.277778 / 4, abs=1e-6)  # 0.569, not 0.759 over the three answered
    assert carol.value == pytest.approx(2.25 / 4, abs=1e-6)  # 0.5625, not 0.75
    assert bob.value == pytest.approx(2.45 / 4, abs=1e-6)
    assert (alice.n, alice.total, carol.n, carol.total) == (4, 4, 4, 4)
    assert alice.derived is not None and alice.derived["failures"] == "count"
    assert "1 of them refusals or parse failures scored 0" in (alice.note or "")
    pooled = grid.get(TOPOLOGY, "all models")
    assert pooled.value == pytest.approx((2.277778 + 2.25 + 2.45) / 12, abs=1e-6) and pooled.n == 12
    # the leaderboard's figures follow the same rule: alice's composite (0.7 + 0.625 + 0 + 0.55) / 4
    row = next(r for r in data.leaderboard if r.model == "alice")
    assert row.basp.value == pytest.approx(0.46875)


def test_with_failures_excluded_every_cell_leaves_them_out_and_says_so(tmp_path: Path) -> None:
    data = load_results(_results(tmp_path / "results", failures="exclude"))
    grid = data.topology_gra
    assert grid is not None
    alice = grid.get(TOPOLOGY, "alice")
    assert alice.value == pytest.approx(2.277778 / 3, abs=1e-6) and alice.n == 3 and alice.total == 4
    assert "LEFT OUT" in grid.caption
    assert "refusals (left out of the means)" in render_report(data)


def test_derived_cells_are_the_summarys_own_figures_when_the_group_is_the_same(tmp_path: Path) -> None:
    """A model x topology cell over a model's only topology is the model's group in summary.json: same numbers."""
    folder = _results(tmp_path / "results")
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    data = load_results(folder)
    assert data.topology_gra is not None
    for model in ANSWERS:
        cell = data.topology_gra.get(TOPOLOGY, model)
        entry = summary["groups"]["model"][model]["metrics"]["gra"]
        assert (cell.value, cell.low, cell.high, cell.n) == (entry["mean"], entry["low"], entry["high"], entry["n"])


def _captions(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<(?:fig)?caption>(.*?)</(?:fig)?caption>", page, re.S)]


def test_every_caption_says_how_failures_count_and_none_says_scored_responses_only(tmp_path: Path) -> None:
    page = render_report(load_results(_results(tmp_path / "results")))
    captions = _captions(page)
    assert len(captions) >= 6  # leaderboard, layers, FMDP, topology, three profiles, Figure 6
    for caption in captions:
        caption = caption.replace("&#x27;", "'")
        assert "efusals and parse failures" in caption, caption  # each says how they count
        # "mean ... over scored responses" was the profile caption's claim, false when failures count
        assert not re.search(r"mean[^.]*over (each model's )?scored responses", caption), caption
    profile = next(c for c in captions if c.startswith("alice:"))
    assert "count in each mean" in profile and "(0; NED 1, tau -1)" in profile


def test_the_header_names_the_refusals_and_how_they_count(tmp_path: Path) -> None:
    page = render_report(load_results(_results(tmp_path / "results")))
    header = re.sub(r"<[^>]+>", " ", page[page.index("Results:"):page.index("Results:") + 600])
    assert "12 responses" in header and "10 scored" in header
    assert "2 refusals (scored 0)" in header and "0 parse failures (scored 0)" in header


def test_the_leaderboard_caption_says_what_an_inconclusive_answer_earns(tmp_path: Path) -> None:
    # Regression (stop 30 new user): the caption said how refusals and parse failures count but not
    # "unknowns": an INCONCLUSIVE final verdict where the gold is decided (0 on VerdictAcc).
    page = render_report(load_results(_results(tmp_path / "results")))
    captions = [c.replace("&#x27;", "'") for c in _captions(page)]
    leader = next(c for c in captions if c.startswith("Mean over each model's responses"))
    assert ("VerdictAcc: the final verdict (§7.13); an INCONCLUSIVE one scores 0 where the gold is decided "
            "(on GRA an INCONCLUSIVE gate matches only a gold INCONCLUSIVE)") in leader


def test_the_gra_sentence_has_one_wording_in_the_caption_and_the_score_legend(tmp_path: Path) -> None:
    # Regression (the GRA rule worded twice, stop 31): ipb score's legend and ipb report's caption each wrote the
    # sentence; both now print GRA_INCONCLUSIVE_RULE, so a change of wording reaches both.
    from ipb.cli.commands.score import _legend
    from ipb.scoring.metrics.verdict import GRA_INCONCLUSIVE_RULE, _gra_verdict_match

    assert _gra_verdict_match("PROCEED", "INCONCLUSIVE") == 0 and _gra_verdict_match("INCONCLUSIVE", "INCONCLUSIVE") == 1
    page = render_report(load_results(_results(tmp_path / "results")))
    leader = next(c for c in (c.replace("&#x27;", "'") for c in _captions(page))
                  if c.startswith("Mean over each model's responses"))
    for flat in ("flat", "a2"):
        assert leader.count(GRA_INCONCLUSIVE_RULE) == 1 and _legend(flat).count(GRA_INCONCLUSIVE_RULE) == 1


def test_the_leaderboard_caption_names_the_sap_level_the_conjunction_uses(tmp_path: Path) -> None:
    # Regression (s46user): the caption listed "SAP@3" among the BASP-strict gates, but under the default
    # basp_composite=layer an L7 answer's SAP gate is SAP@1 (scoring.composite: the layer weights' sap key), and a
    # new user's faithful answers failed it with SAP@1 = 0 (no attribution) while the caption pointed at SAP@3.
    page = render_report(load_results(_results(tmp_path / "results")))
    leader = next(c for c in (c.replace("&#x27;", "'") for c in _captions(page))
                  if c.startswith("Mean over each model's responses"))
    assert "SAP@3, IVP" not in leader
    assert "its SAP gate at the SAP level of the response's layer composite (SAP@1 on L7" in leader
