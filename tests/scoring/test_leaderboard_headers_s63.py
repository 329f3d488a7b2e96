"""The leaderboard on a pipe breaks its headers between words, never mid-word (s62 new user N14, fixed by s63join).

Bug kind: a narrowed table folding text at the column's edge. Printed to a pipe (100 columns), the board's metric
columns are set at their least width and rich folded each header there: "covera / ge", "ranke / d on",
"composi / te", "BASP-st / rict", "Verdict / Acc" split as "Verdict" + "Acc" only by luck of the width.
"""

from __future__ import annotations

import io

from ipb.cli._app import SafeConsole
from ipb.cli.commands.score import PIPE_WIDTH, print_leaderboard

CI = {"mean": 0.46875, "low": 0.15625, "high": 0.6625, "n": 4, "n_failures": 1}
NAMES = ["local-chat-completions/model-a", "local-chat-completions/model-b", "refuser", "german"]
METRICS = ("layer_composite", "verdict_acc", "basp_strict", "basp_conjunction", "gra", "kccs", "ogrs_k")

#: Every word or hyphenated part a header may show: the labels whole, or broken after a hyphen it is given.
ALLOWED = {"#", "model", "n", "cover-", "age", "ranked", "on", "compo-", "site", "BASP-", "strict", "conj.", "GRA",
           "Verdict", "Acc", "OGRS_k", "KCCS", "over"}


def test_headers_on_a_pipe_break_between_words_or_at_a_hyphen():
    summary = {"failures": {"policy": "count", "note": "refusals count"},
               "groups": {"model": {n: {"n": 2, "n_scored": 1, "n_parse_failures": 0, "n_refusals": 1,
                                        "coverage": 0.5, "metrics": {m: CI for m in METRICS}} for n in NAMES}}}
    sink = io.StringIO()
    print_leaderboard(summary, SafeConsole(width=PIPE_WIDTH, file=sink, highlight=False, soft_wrap=False))
    lines = sink.getvalue().splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    words = [w for line in lines[1:rule] for w in line.split()]
    assert set(words) <= ALLOWED, set(words) - ALLOWED  # before: covera, ge, ranke, d, composi, te, BASP-st, rict
    assert {"cover-", "age", "ranked", "on", "compo-", "site", "BASP-", "strict"} <= set(words)
    assert all(len(line) <= PIPE_WIDTH for line in lines[:rule + 1])
