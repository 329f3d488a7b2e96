"""Regression (a rate with no "of N", s61 new user N13): the FMDP table's cells showed "FM-1 0.0% [0.0%, 0.0%]" for a
model most of whose responses were failures left out, without the "n k of N" the other tables' means carry, so a
reader could not see that the rate was over 1 response of 5. Each FMDP rate now carries N, the model's responses
(``Stat.total``), and the HTML cell prints "n k of N".

Two Graham net-net items (as ``test_report_refusal_column``): ``half`` gives the faithful answer to the first and
declines the second, so its detectors rate 1 response of its 2; ``good`` answers both (2 of 2).
"""

from __future__ import annotations

import re
from pathlib import Path

from ipb.report.data import load_results
from ipb.report.html import render_report
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score
from tests.report.test_report_refusal_column import _files, _text


def test_fmdp_rates_say_of_how_many_responses(tmp_path: Path) -> None:
    items, responses = _files(tmp_path)
    result = run_score(items, responses, tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=20))
    groups = result.summary["groups"]["model"]
    data = load_results(tmp_path / "out")
    assert data.fmdp is not None
    for model, applicable in (("half", 1), ("good", 2)):
        assert groups[model]["n"] == 2
        flag = groups[model]["flags"]["FM-1"]
        assert flag is not None and flag["n_applicable"] == applicable
        cell = data.fmdp.get("FM-1", model)
        assert (cell.n, cell.total) == (applicable, 2)
    table = re.search(r'id="fmdp-table">(.*?)</table>', render_report(data), re.S)
    assert table is not None
    text = _text(table.group(1))
    assert "n 1 of 2" in text and "n 2 of 2" in text
