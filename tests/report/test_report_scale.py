"""A long leaderboard and many profiles are folded, never dropped (s48break: 500 models made a 37 MB page).

The fixture run has four models; with the fold limits set to 2 the page must still show all four leaderboard rows
(ranks 1-2 open, 3-4 in ``#leaderboard-more`` with the same caption) and all four profiles (two matplotlib radars,
two plain ones in ``#profiles-more``), each profile with its table of values.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ipb.report.html as report_html
from ipb.report.data import load_results


@pytest.fixture()
def folded(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    monkeypatch.setattr(report_html, "LEADER_ROWS", 2)
    monkeypatch.setattr(report_html, "PROFILE_CHARTS", 2)
    data = load_results(run_dir / "results")
    return report_html.render_report(data), [r.model for r in data.leaderboard]


def _section(page: str, sid: str) -> str:
    start = page.index(f'<section id="{sid}">')
    return page[start:page.index("</section>", start)]


def test_every_leaderboard_row_is_on_the_page_in_rank_order(folded: tuple[str, list[str]]) -> None:
    page, models = folded
    assert len(models) == 4
    board = _section(page, "leaderboard")
    head, _, tail = board.partition('<details class="more" id="leaderboard-more">')
    assert tail, "the rows past LEADER_ROWS are folded under #leaderboard-more"
    assert "<summary>Ranks 3 to 4</summary>" in tail
    open_ranks = re.findall(r'<td class="rank">(\d+)</td>', head)
    folded_ranks = re.findall(r'<td class="rank">(\d+)</td>', tail)
    assert (open_ranks, folded_ranks) == (["1", "2"], ["3", "4"])
    shown = [report_html.html.unescape(m) for m in re.findall(r'<tr data-model="([^"]*)">', board)]
    assert shown == models
    # the folded table says how failures and skipped items count, as the open one does
    captions = re.findall(r"<caption>(.*?)</caption>", board)
    assert len(captions) == 2 and captions[0] == captions[1]
    assert "counted as 0" in captions[1] and "Ranked on" in captions[1]


def test_every_profile_is_on_the_page_the_tail_drawn_plainly(folded: tuple[str, list[str]]) -> None:
    page, models = folded
    profiles = _section(page, "profiles")
    head, _, tail = profiles.partition('<details class="more" id="profiles-more">')
    assert "The other 2 models' profiles (ranks 3 to 4)" in tail
    assert head.count('<figure class="chart profile"') == 2 and tail.count('<figure class="chart profile"') == 2
    assert tail.count('<svg xmlns="http://www.w3.org/2000/svg" width="420"') == 2
    assert head.count('width="420"') == 0
    # each plain radar keeps its values table (every axis and flag with its source)
    assert tail.count('<details class="data"><summary>values</summary>') == 2
    shown = [report_html.html.unescape(m) for m in re.findall(r'<figure class="chart profile" data-model="([^"]*)">',
                                                              profiles)]
    assert shown == models


def test_no_fold_below_the_limits(run_dir: Path) -> None:
    page = report_html.render_report(load_results(run_dir / "results"))
    assert 'id="leaderboard-more"' not in page and 'id="profiles-more"' not in page


def test_every_caption_with_a_failure_rule_says_where_skipped_items_go(report_path: Path) -> None:
    # a figure users rank by must not reward failing: beside each mean, the page says that refusals and parse
    # failures count (or are left out) and that skipped items are in no mean but rank as 0 on the leaderboard
    page = report_path.read_text(encoding="utf-8")
    captions = re.findall(r"<(?:caption|figcaption)>(.*?)</(?:caption|figcaption)>", page)
    # (the FMDP rates are over scored responses only and say so; they are no mean a model is ranked by)
    ruled = [c for c in captions
             if re.search(r"Refusals and parse failures (count in each mean|are LEFT OUT of each mean|COUNT)", c)]
    assert len(ruled) >= 6, captions  # layers, FMDP, topology, conditions, the profiles, Figure 6 (and the board)
    for caption in ruled:
        assert "never answered" in caption and ("ranks each as 0" in caption or "counted as 0" in caption), caption
