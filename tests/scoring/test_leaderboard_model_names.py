"""The terminal leaderboard never cuts a model's name (s45user).

A new evaluator scored two lm-eval runs against one local server: lm-eval names
them after its model type, ``local-chat-completions/good`` and
``local-chat-completions/wrong``. The 200-column leaderboard shrank the model
column to 17 characters and both rows read ``local-chat-compl…``, so nothing on
the terminal said which model ranked first.
"""

from __future__ import annotations

import io

from ipb.cli._app import SafeConsole
from ipb.cli.commands.score import print_leaderboard
from ipb.scoring.summary import LEADERBOARD_METRICS


def _summary(models: dict[str, float]) -> dict:
    groups = {}
    for name, mean in models.items():
        # every column filled, as a real run fills them: the metric cells then take the width the name lost
        stat = {"mean": mean, "low": mean - 0.01, "high": mean + 0.01, "n": 3, "n_failures": 0}
        groups[name] = {"n": 3, "n_scored": 3, "n_parse_failures": 0, "n_refusals": 0, "coverage": 1.0,
                        "metrics": {metric: stat for metric in LEADERBOARD_METRICS}}
    return {"failures": {"policy": "count", "note": "refusals count"}, "groups": {"model": groups}}


def _printed(summary: dict, width: int = 200) -> str:
    sink = io.StringIO()
    print_leaderboard(summary, SafeConsole(width=width, file=sink, highlight=False))
    return sink.getvalue()


def test_two_names_that_share_a_long_prefix_are_both_printed_whole() -> None:
    text = _printed(_summary({"local-chat-completions/good": 0.843, "local-chat-completions/wrong": 0.491}))
    assert "local-chat-completions/good" in text
    assert "local-chat-completions/wrong" in text
    assert "…" not in text
    # the better model is ranked first: its row holds rank 1 and its composite
    first = next(line for line in text.splitlines() if "local-chat-completions/good" in line)
    assert first.split("│")[1].strip() == "1" and "0.843" in first
    assert first.rstrip().endswith("3 of 3 │")  # the last column is still there, not cropped at 200 columns


def test_a_name_longer_than_forty_characters_folds_and_loses_nothing() -> None:
    name = "hf/pretrained=Qwen/Qwen2.5-7B-Instruct,dtype=bfloat16,max_length=8192"  # 69 characters
    text = _printed(_summary({name: 0.5, "b": 0.4}))
    cells = [line.split("│")[2].strip() for line in text.splitlines() if line.count("│") > 3]
    assert name in "".join(cells)  # the folded pieces, read down the model column, are the whole name
    assert "…" not in text
