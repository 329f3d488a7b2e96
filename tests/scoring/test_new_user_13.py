"""A new user of ``ipb parse`` / ``ipb score`` (issue 13, stop 30): findings pinned as tests.

The fixtures (``tests/fixtures/new_user13/``) are a card written outside the package (Terry
Smith's "buy good companies, don't overpay, do nothing"), a scenario, four items (two of that
card, two of ``graham_net_net_screen``, with their card copies) and 17 answers written by hand in
real-world shapes, each labelled in ``labels.json`` with what a careful reader sees and what the
parser read at stop 30. They are not corpus cases; the misread ones are listed, not asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ipb
from ipb.cli import app
from ipb.engine.registry import use_cards, use_items
from ipb.errors import LoadError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "new_user13"
CARD = FIXTURES / "cards" / "smith_fundsmith_three_rules.yaml"
LABELS = json.loads((FIXTURES / "labels.json").read_text(encoding="utf-8"))
ITEMS = LABELS["items"]
READ_RIGHT = [a for a in LABELS["answers"] if a["misread"] is None]


def _text(name: str) -> str:
    return (FIXTURES / "answers" / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("answer", READ_RIGHT, ids=[a["file"] for a in READ_RIGHT])
def test_answers_in_real_shapes_are_read_as_labelled(answer):
    parsed = ipb.parse(_text(answer["file"]), answer.get("card") or str(CARD))
    label = answer["label"]
    assert {str(g.gate): g.verdict for g in parsed.gates} == label["gates"]
    assert parsed.final_verdict == label["final"]
    assert (parsed.status == "ok") == (label["outcome"] == "answer")


def test_a_text_given_where_the_card_belongs_is_a_load_error_naming_it_not_a_traceback():
    # Regression (traceback): ipb.parse(card, text) for ipb.parse(text, card) raised OSError
    # "File name too long" from the card lookup (the text holds "N/A", so it looked like a path).
    text = _text("a01_chat_table.txt")
    with pytest.raises(LoadError) as caught:
        ipb.parse("smith_fundsmith_three_rules", text)
    message = str(caught.value)
    assert f"({len(text)} characters: a text, not a card file or id)" in message
    assert "Sure! Here's how" in message and "never reached" not in message  # its start only
    with pytest.raises(LoadError, match=r"\(300 characters: a text"):
        ipb.load_card("x" * 300)


def _responses(tmp_path: Path) -> Path:
    plan = {
        "answerer": {"smith_avoid": "a01_chat_table.txt", "smith_buy": "a12_hedged_buy.txt",
                     "graham_kill_2": "g02_prose_wrong.txt", "graham_kill_1": "g05_reject_first.txt"},
        "refuser": {"smith_avoid": "a02_hedged_refusal.txt", "smith_buy": "a02_hedged_refusal.txt",
                    "graham_kill_2": "g03_refusal.txt", "graham_kill_1": "g03_refusal.txt"},
        "unknowner": {"smith_avoid": "a07_unknown.txt", "smith_buy": "a07_unknown.txt",
                      "graham_kill_2": "g04_unknown.txt", "graham_kill_1": "g04_unknown.txt"},
    }
    path = tmp_path / "responses.jsonl"
    path.write_text("".join(json.dumps({"item_id": ITEMS[key], "model": model, "condition": "A",
                                        "response": _text(name)}) + "\n"
                            for model, answers in plan.items() for key, name in answers.items()), encoding="utf-8")
    return path


@pytest.fixture()
def scored(tmp_path):
    use_cards()
    result = CliRunner().invoke(app, ["score", "--items", str(FIXTURES / "items.jsonl"), "--responses",
                                      str(_responses(tmp_path)), "--out", str(tmp_path / "out"), "--no-embeddings"])
    use_cards()
    assert result.exit_code == 0, result.output
    return result.output, json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))


def test_a_respondent_that_refuses_or_says_unknown_ranks_below_one_that_answers(scored):
    from ipb.scoring.summary import leaderboard

    _, summary = scored
    rows = {r["model"]: r for r in leaderboard(summary)}
    assert [r["model"] for r in leaderboard(summary)][0] == "answerer"
    # Stop 32: every answer of the unknowner is INCONCLUSIVE on each gate and on the final verdict, where each gold
    # final is decided: it commits to nothing, so it is a refusal (no_commitment) at 0, no longer the 0.35 its
    # ordered gate list alone earned (OGRS_k 1 x 0.35); it ties the refuser instead of ranking above it.
    for model in ("unknowner", "refuser"):
        assert rows[model]["coverage"] == 0.0
        assert rows[model]["layer_composite"]["mean"] == 0.0 and rows[model]["verdict_acc"]["mean"] == 0.0
    assert rows["answerer"]["layer_composite"]["mean"] > 0.35
    assert rows["unknowner"]["n_failures"] == 4 and summary["counts"]["by_reason"]["no_commitment"] == 4


def test_the_leaderboard_says_how_unknowns_count_and_what_conj_is(scored):
    # Regression (a figure without saying how failures count): the terminal leaderboard said how refusals
    # and parse failures count, but not what an INCONCLUSIVE answer earns, nor what its "conj." column is.
    output, _ = scored
    assert "failures: count: refusals and parse failures are in every mean" in output
    assert ("unknowns: a stated INCONCLUSIVE final verdict scores 0 on VerdictAcc where the gold is decided and 1 "
            "where the gold is INCONCLUSIVE (a committed verdict there: 0.5 only when the answer names the data gap)"
            in " ".join(output.split()))
    # GRA's rule as merged in stop 30 (verdict._gra_verdict_match), not PROCEED's class as the legend first said
    assert "on GRA an INCONCLUSIVE gate matches only a gold INCONCLUSIVE (§7.15)" in " ".join(output.split())
    assert "conj.: the share of responses passing every BASP-strict gate" in output


def test_the_items_fixture_finds_its_own_card_copy():
    use_cards()
    try:
        assert {card for card, _ in use_items(FIXTURES / "items.jsonl")} == {"smith_fundsmith_three_rules",
                                                                           "graham_net_net_screen"}
    finally:
        use_cards()


def test_a_bare_final_verdict_is_read_and_credited_on_verdict_acc_only(tmp_path):
    # docs/scoring.md, "An answer with no gate read": what the new user's bare answers showed. Until stop 30
    # a bare right "DECLINE" was a parse failure scored 0 on VerdictAcc too; now its stated verdict is read.
    parsed = ipb.parse("DECLINE\n", "graham_net_net_screen")
    assert (parsed.status, parsed.final_verdict) == ("parse_failure", "DECLINE")
    from ipb.scoring.run import ScoreOptions, score_responses

    items = [json.loads(line) for line in (FIXTURES / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    (record,) = score_responses([i for i in items if i["id"] == ITEMS["graham_kill_1"]],
                                [{"item_id": ITEMS["graham_kill_1"], "model": "bare", "condition": "A",
                                  "response": "DECLINE"}], ScoreOptions(embeddings=False, n_resamples=10))
    metrics = record["metrics"]
    assert record["outcome"] == "scored" and record["flags"] == {f"FM-{k}": None for k in range(1, 7)}
    # Hand-worked, L7 weights 0.35 OGRS_k + 0.30 KCCS + 0.20 VerdictAcc + 0.15 SAP@1: the gate trace is empty
    # (OGRS_k, KCCS, SAP@1 at 0) and the stated DECLINE is the gold's, so 0.20 * 1 = 0.20; W1 has no verdict term.
    assert (metrics["verdict_acc"], metrics["gcf"], metrics["gra"]) == (1.0, 0.0, 0.0)
    assert metrics["layer_composite"] == pytest.approx(0.20) and metrics["w1_composite"] == 0.0


def test_the_encoder_loads_without_transformers_progress_bars_and_restores_them():
    # Regression (noise on stderr): "Loading weights: 100%|...| 103/103" under ipb's own loading notice.
    hf_logging = pytest.importorskip("transformers.utils.logging", reason="transformers not installed (ipb[embed])")
    from ipb.scoring._load_notice import quietly_loaded

    hf_logging.enable_progress_bar()
    assert quietly_loaded(hf_logging.is_progress_bar_enabled) is False
    assert hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        assert quietly_loaded(lambda: 7) == 7 and not hf_logging.is_progress_bar_enabled()  # left off when it was off
    finally:
        hf_logging.enable_progress_bar()
