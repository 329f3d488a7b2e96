"""The FMDP table says beside its figures which connectors FM-5 reads (s45user; s49fair: its own in another language).

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
    assert "FM-5's sequence clause counts English connectors" in caption
    # s54newuser finding 6: the caption said FM-5 fires on a numbered list or table, which the layout's own markers
    # have kept it from since s45user, and not on prose, which it fires on by the paper's rule (1 connector of 4: 0.25)
    assert "fires on faithful prose that walks the gates in other words" in caption
    assert "not on a numbered list or table" in caption
    assert "fires on an English numbered list or table" not in caption
    # s49fair: an answer in another language has its own connectors counted, and is not judged without word lists
    assert "In an answer in another language it also counts that language's gate nouns before a number" in caption
    assert "not judged on an answer in a language with no word lists" in caption
    # only the FMDP table carries it
    assert sum("sequence clause counts English" in c for c in _captions(page)) == 1
