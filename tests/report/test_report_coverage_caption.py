"""What "coverage" is, said where it is shown: the items a model never answered count against it (s50user).

s50user answered 6 of a 40-item file in ten styles. The "good" model, every answer scored, showed coverage 15.0%
(6/40) on the terminal and on the page, beside "good 0 refusal(s), 0 parse failure(s)"; the page's caption said
"Coverage: the share of usable responses that were scored" (that is 100% here) and the terminal's failures note
"coverage is the share scored". Since stop 48 coverage also counts the items of the items file with no answer
(docs/scoring.md, "Failures count"), so both now say so.

Here "skipper" answers 1 of 4 Graham net-net items, rightly: 1 scored of 1 asked, 1 of 4 items, so coverage 1/4.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ipb.report.data import load_results
from ipb.report.html import render_report
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score


def _score(tmp_path: Path):
    items = bundled_items(["graham_net_net_screen"])[:4]
    [gold] = synthetic_responses([items[0]], corruptions=["none"])
    (tmp_path / "r.jsonl").write_text(json.dumps(dict(gold, model="skipper")) + "\n")
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                     ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))


def test_coverage_counts_the_unanswered_items_and_the_notes_say_so(tmp_path: Path) -> None:
    summary = _score(tmp_path).summary
    skipper = summary["groups"]["model"]["skipper"]
    assert skipper["n_refusals"] == 0 and skipper["n_parse_failures"] == 0
    assert skipper["coverage"] == 0.25
    note = summary["failures"]["note"]
    assert "coverage is the share scored" not in note
    assert "an item of the items file with no answer" in note
    page = render_report(load_results(tmp_path / "out"))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "the share of usable responses that were scored" not in text
    assert "Coverage: the share of what the model owed that was scored" in text
    assert "an item of the items file with no answer" in text
