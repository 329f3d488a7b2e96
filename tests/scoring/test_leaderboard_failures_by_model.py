"""The terminal leaderboard says, per model, how many refusals and parse failures its means hold (s41user).

A new evaluator's sloppy model refused 68 of 270 answers and wrote 30 as keyboard noise; the table showed its
coverage (63.7%) and the closing line "98 refusal(s)" summed over both models, so nothing on the terminal said which
model they were. The line under the table now gives each model's counts, in rank order.
"""

from __future__ import annotations

import json

from rich.console import Console

from ipb.cli.commands.score import print_leaderboard
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score

REFUSAL = "I'm sorry, but I can't help with that."
NOISE = "asdf qwer ## ]]] 0x7f zzzz lorem ipsum dolor"


def test_each_model_s_refusals_parse_failures_and_bare_verdicts_are_named(tmp_path):
    items = bundled_items(["graham_net_net_screen"])[:4]
    records = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        records.append(dict(gold, model="careful"))
        # sloppy: a refusal, keyboard noise (off topic: a refusal too), "hmm" (a parse failure), a bare verdict
        answer = [REFUSAL, NOISE, "hmm", f"Final verdict: {item['investment_verdict']}"][k]
        records.append(dict(gold, model="sloppy", response=answer))
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    console = Console(record=True, width=400)
    print_leaderboard(result.summary, console)
    text = " ".join(console.export_text().split())
    assert ("refusals and parse failures by model (each in the means at 0): careful 0 refusal(s), 0 parse "
            "failure(s); sloppy 2 refusal(s), 1 parse failure(s) (and 1 scored on a final verdict alone)") in text

    excluded = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out2",
                         ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200, failures="exclude"))
    console = Console(record=True, width=400)
    print_leaderboard(excluded.summary, console)
    assert ("refusals and parse failures by model (left out of the means shown, each ranked as 0 in 'ranked on'): "
            "careful") in " ".join(console.export_text().split())


def test_refusals_that_declined_nothing_are_named_by_their_reason(tmp_path):
    # s50user: a model that hedged every gate ("it could go either way ... INCONCLUSIVE") and one that wrote keyboard
    # noise each showed "6 refusal(s)", as a model that declined did; the records say no_commitment and off_topic.
    # Here: "hedger" writes INCONCLUSIVE on both net-net gates with no final verdict (no_commitment) on items 1-2;
    # "mixed" writes noise (off_topic) on item 1 and declines (refusal) on item 2; "decliner" declines on both.
    items = bundled_items(["graham_net_net_screen"])[:2]
    hedge = ("Price at most two-thirds of NCAV: INCONCLUSIVE, it could go either way.\n"
             "Positive earnings: INCONCLUSIVE, there are arguments on both sides.")
    records = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        records.append(dict(gold, model="hedger", response=hedge))
        records.append(dict(gold, model="mixed", response=[NOISE, REFUSAL][k]))
        records.append(dict(gold, model="decliner", response=REFUSAL))
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    codes = {(u["item_id"], u["model"]): u["reason_code"] for u in result.summary["unscored"]}
    assert codes[(items[0]["id"], "hedger")] == "no_commitment" and codes[(items[0]["id"], "mixed")] == "off_topic"
    console = Console(record=True, width=400)
    print_leaderboard(result.summary, console)
    text = " ".join(console.export_text().split())
    assert "hedger 2 refusal(s), 0 parse failure(s) [of the refusals: 2 no_commitment]" in text
    assert "mixed 2 refusal(s), 0 parse failure(s) [of the refusals: 1 off_topic, 1 refusal]" in text
    # a model whose refusals all declined keeps the short form
    assert "decliner 2 refusal(s), 0 parse failure(s)" in text and "decliner 2 refusal(s), 0 parse failure(s) [" not in text
