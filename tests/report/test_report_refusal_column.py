"""The leaderboard's refusal column, and how failures count wherever a figure is shown (s51report).

Until s51report the page's leaderboard had a "Parse failures" column and no refusals: s50user's keyboard-noise model
(six `off_topic` refusals) showed "Parse failures 0.0%" and only its coverage of 0% said anything was wrong. A figure
users rank by must not reward failing, and every place a number is shown must say how failures count in it.

Three models answer the same two Graham net-net items:

- ``good``: the synthetic faithful answer to both;
- ``half``: the faithful answer to the first item and "I cannot help with that." (a decline, reason ``refusal``) to
  the second, so it refuses half the items;
- ``noise``: "asdf qwer" to both (two words of noise: nothing read, a parse failure, docs/scoring.md "Failures
  count").

Worked by hand: each has 2 usable responses; ``good`` 0 refusals and 0 unreadable; ``half`` 1 refusal of 2 (50.0%),
of kind ``refusal``, 0 unreadable; ``noise`` 0 refusals, 2 unreadable of 2 (100.0%). Unknown gates: the first item
(exactly two-thirds) has two gates, PROCEED and PROCEED; the second (liabilities undisclosed) two, INCONCLUSIVE (the
gold: the data are missing) and REJECT. ``good`` reads 4 gates, 1 INCONCLUSIVE (25.0%); ``half``'s one scored answer
2 gates, none unknown; ``noise`` none read (0 of 0). Under the default (failures count), ``half``'s mean composite is (c1 + 0) / 2 where ``good``'s is
(c1 + c2) / 2 with c2 > 0, so ``half`` ranks below ``good``, and ``noise`` (0 on both) last.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.report.data import load_results
from ipb.report.html import render_report
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score

DECLINE = "I cannot help with that."
NOISE = "asdf qwer"


def _files(tmp_path: Path) -> tuple[Path, Path]:
    items = bundled_items(["graham_net_net_screen"])[:2]
    gold = synthetic_responses(items, corruptions=["none"])
    assert [g["item_id"] for g in gold] == [i["id"] for i in items]
    records = [dict(g, model="good") for g in gold]
    records += [dict(gold[0], model="half"), dict(gold[1], model="half", response=DECLINE)]
    records += [dict(g, model="noise", response=NOISE) for g in gold]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return tmp_path / "i.jsonl", tmp_path / "r.jsonl"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp_path = tmp_path_factory.mktemp("refusal_column")
    items, responses = _files(tmp_path)
    result = run_score(items, responses, tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    groups = result.summary["groups"]["model"]
    # the scorer files them as the docstring says (else the column's figures below would test nothing)
    assert (groups["half"]["n_refusals"], groups["half"]["n_parse_failures"]) == (1, 0)
    assert (groups["noise"]["n_refusals"], groups["noise"]["n_parse_failures"]) == (0, 2)
    return render_report(load_results(tmp_path / "out"))


def _board_cells(page: str) -> dict[str, str]:
    table = re.search(r'<table class="leader" id="leaderboard-table">(.*?)</table>', page, re.S)
    assert table is not None
    return {m: _text(cell) for m, cell in re.findall(r'<td class="failures" data-model="([^"]*)">(.*?)</td>',
                                                     table.group(1), re.S)}


def test_the_column_counts_each_models_refusals_by_kind_and_its_unreadable_answers(page: str) -> None:
    assert "<th class=\"failures\">Refusals, unreadable, unknowns</th>" in page
    cells = _board_cells(page)
    assert set(cells) == {"good", "half", "noise"}
    assert cells["good"] == "refusals 0 of 2 (0.0%) unreadable 0 of 2 (0.0%) unknown gates 1 of 4 (25.0%)"
    assert cells["half"] == ("refusals 1 of 2 (50.0%) by kind: refusal 1 unreadable 0 of 2 (0.0%) "
                             "unknown gates 0 of 2 (0.0%)")
    assert cells["noise"] == "refusals 0 of 2 (0.0%) unreadable 2 of 2 (100.0%) unknown gates 0 of 0"


def test_the_refusing_model_ranks_below_the_good_one(page: str) -> None:
    table = re.search(r'<table class="leader" id="leaderboard-table">(.*?)</table>', page, re.S)
    assert table is not None
    assert re.findall(r'<tr data-model="([^"]*)">', table.group(1)) == ["good", "half", "noise"]


def test_the_caption_says_how_each_kind_counts(page: str) -> None:
    found = re.search(r'id="leaderboard-table"><caption>(.*?)</caption>', page, re.S)
    assert found is not None
    caption = _text(found.group(1))
    assert "Refusals, unreadable, unknowns: per model, its refusals by the kind the scorer gave them" in caption
    assert ("a refusal of any kind and an unreadable answer are WRONG: 0 on every metric it was owed" in caption)
    assert "an answer scored on a final verdict alone is 0 on every metric but VerdictAcc" in caption
    assert "a KCCS unknown" in caption and "is LEFT OUT of the KCCS mean" in caption


def test_every_caption_with_a_mean_says_how_kccs_unknowns_count(page: str) -> None:
    # before s51report only the notes and the profiles' KCCS axis said it; the layer composites renormalise over it
    captions = re.findall(r"<(?:caption|figcaption)>(.*?)</(?:caption|figcaption)>", page, re.S)
    ruled = [c for c in captions if "Refusals and parse failures count in each mean" in c]
    assert len(ruled) >= 3, captions  # at least the layers table, a profile and Figure 6
    for caption in ruled:
        assert "left out of the KCCS mean and its composite is renormalised" in _text(caption), caption
        assert "committed to nothing" in _text(caption), caption


def test_ipb_scores_closing_line_says_how_its_failure_totals_count(tmp_path: Path) -> None:
    items, responses = _files(tmp_path)
    result = CliRunner().invoke(app, ["score", "--items", str(items), "--responses", str(responses),
                                      "--out", str(tmp_path / "out"), "--no-embeddings", "--no-leaderboard"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    # 2 parse failures (noise) and 1 refusal (half), over every model; the board is not printed, so the closing
    # line is the only place the totals are read, and it says how they count
    assert "2 parse failure(s), 1 refusal(s) (each in every mean at 0)" in out, out
