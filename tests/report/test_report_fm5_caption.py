"""The FMDP table says beside its figures that FM-5 reads English connectors only (s45user).

A new evaluator's German answers, laid out as the English ones were but naming
their gates "Maximaler Pessimismus:" rather than "Gate 1,", were all flagged
FM-5 (operationalization flattening) in the report's Table 16, 3 of 3, against
0 of 3 English. docs/scoring.md explains why (the §7.11 sequence clause counts
"first", "then", "Gate N"...); the report's caption now says it where the rate
is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from ipb.report.data import load_results
from ipb.report.html import render_report
from test_report_failures_count import _captions, _results


def test_the_fmdp_caption_says_fm5_counts_english_connectors_only(tmp_path: Path) -> None:
    page = render_report(load_results(_results(tmp_path / "results")))
    fmdp = [c for c in _captions(page) if "the detector flagged" in c]
    assert len(fmdp) == 1
    caption = re.sub(r"\s+", " ", fmdp[0]).replace("&#x27;", "'")
    assert "FM-5's sequence clause counts English connectors only" in caption
    assert "an answer in another language" in caption
    # only the FMDP table carries it
    assert sum("sequence clause counts English" in c for c in _captions(page)) == 1
