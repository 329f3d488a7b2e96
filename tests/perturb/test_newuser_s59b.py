"""New-user report s58 (issue 18, publishable items): the findings fixed by s59userB.

F-C16 (bug kind: a release from several bases asks one question twice, and nothing removes the repeats): runs of
one card from several bases concatenated hold items repeating an earlier item's id or scenario, which ``ipb
verify`` reports (exit 1); the docs asked the publisher to remove them by hand. ``ipb join`` does it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.join import join_items
from ipb.perturb.verify import verify_items
from perturb_support import price_leverage_screen

runner = CliRunner()

#: A two-gate card of the test's own (no bundled card, so ``ipb verify`` must find it in ipb-cards/).
CARD = price_leverage_screen("s59b_join_screen", "Join screen")


def _base(ident: str) -> str:
    return (f"id: {ident}\nlayer: L7\ncard: s59b_join_screen\nas_of: \"1985-06-30\"\n"
            "facts:\n  pe_ratio: 10x\n  debt_to_equity: 40%\n")


def _digest(ident: str) -> str:
    return ident.rsplit("-", 1)[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two 40-item runs of the card from two bases with the same facts and date (so the runs share some scenarios),
    each into its own folder with its ipb-cards/ copy."""
    tmp = tmp_path_factory.mktemp("join")
    card = tmp / "card.yaml"
    card.write_text(CARD, encoding="utf-8")
    parts = []
    for name, seed in (("S59B-ONE", "3"), ("S59B-TWO", "5")):
        base = tmp / f"{name}.yaml"
        base.write_text(_base(name), encoding="utf-8")
        out = tmp / name / "items.jsonl"
        result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "40", "--seed", seed,
                                     "--ops", "metric", "--out", str(out)])
        assert result.exit_code == 0, result.output
        parts.append(out)
    return parts


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_concatenated_runs_fail_verify_and_the_joined_file_passes(runs, tmp_path):
    one, two = (_lines(p) for p in runs)
    first_digests = {_digest(json.loads(line)["id"]) for line in one}
    # the second run's lines whose scenario the first made, found here by the id's digest
    repeats = [line for line in two if _digest(json.loads(line)["id"]) in first_digests]
    assert 0 < len(repeats) < len(two)
    cat = tmp_path / "cat" / "items.jsonl"
    cat.parent.mkdir()
    cat.write_text("\n".join(one + two) + "\n", encoding="utf-8")
    (cat.parent / "ipb-cards").mkdir()
    for copy in (runs[0].parent / "ipb-cards").iterdir():
        (cat.parent / "ipb-cards" / copy.name).write_bytes(copy.read_bytes())
    assert len(verify_items(cat).duplicates) == len(repeats)  # what the publisher met

    out = tmp_path / "release" / "items.jsonl"  # a folder without ipb-cards/: join copies the card there
    result = runner.invoke(app, ["join", str(runs[0]), str(runs[1]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"kept {len(two) - len(repeats)}, dropped {len(repeats)} ({len(repeats)} repeating an earlier item's scenario: {len(repeats)} first in {runs[0]})" in text
    assert f"{len(one) + len(two) - len(repeats)} item(s) of {len(one) + len(two)} from 2 file(s)" in text
    # every line of the first run, then the second's new ones, byte for byte and in order
    assert _lines(out) == one + [line for line in two if line not in repeats]
    checked = verify_items(out)
    assert checked.ok and checked.total == len(one) + len(two) - len(repeats), checked.to_dict()
    assert sorted(p.name for p in (out.parent / "ipb-cards").iterdir()) == sorted(
        p.name for p in (runs[0].parent / "ipb-cards").iterdir())


def test_a_file_given_twice_drops_every_repeated_id(runs, tmp_path):
    out = tmp_path / "twice.jsonl"
    copy = tmp_path / "copy.jsonl"  # s60fix: the same path twice is now refused as a slip; a copy's lines are repeats
    copy.write_bytes(runs[0].read_bytes())
    result = join_items([runs[0], copy], out, copy_cards=False)
    assert (result.kept, result.files[1].dropped_ids, result.files[1].dropped_scenarios) == (40, 40, 0)
    assert out.read_bytes() == runs[0].read_bytes()


def test_a_malformed_line_names_file_and_line_and_writes_nothing(runs, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_lines(runs[0])[0] + "\n\n{\"id\": \"x\", oops}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    result = runner.invoke(app, ["join", str(runs[1]), str(bad), "--out", str(out)])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert f"{bad}:3:" in text and "line 3 is not valid JSON" in text and "Traceback" not in text
    assert out.read_text(encoding="utf-8") == "old\n"  # the old file untouched
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []  # no temporary file left
    not_item = tmp_path / "list.jsonl"
    not_item.write_text("[1, 2]\n", encoding="utf-8")
    result = runner.invoke(app, ["join", str(not_item), "--out", str(tmp_path / "o2.jsonl")])
    assert result.exit_code == 1 and f"{not_item}:1:" in result.output and "not an item object" in result.output
    assert not (tmp_path / "o2.jsonl").exists()


def test_join_refuses_an_empty_out_and_its_own_input(runs, tmp_path):
    result = runner.invoke(app, ["join", str(runs[0]), "--out", ""])
    assert result.exit_code == 1 and "--out is empty" in result.output
    result = runner.invoke(app, ["join", str(runs[0]), "--out", str(runs[0])])
    assert result.exit_code == 1 and "never writes over its own inputs" in " ".join(result.output.split())


# -- cosmetic findings of s58user (F-K1, F-K2, F-K3, F-K4, F-K6)

def test_k1_a_two_word_name_possessive_takes_no_article():
    from decimal import Decimal

    from ipb.engine.card import InputSpec
    from ipb.engine.expressions import MONEY, STRING
    from ipb.perturb.render import fact_pattern, fact_sentence

    view = InputSpec("analyst_sentiment", "category", STRING, values=("neutral", "darling"),
                     label="Wall Street's view of the stock")
    assert fact_sentence(view, "neutral") == "Wall Street's view of the stock is neutral."  # before: "The Wall ..."
    assert fact_pattern(view).match("Wall Street's view of the stock is neutral.").group("value") == "neutral"
    # a body that takes the article keeps it, and so does a longer name (the bundled NBIM card's label)
    fed = InputSpec("fed_stance", "category", STRING, values=("tight", "loose"), label="Federal Reserve's stance")
    assert fact_sentence(fed, "tight") == "The Federal Reserve's stance is tight."
    board = InputSpec("board", "category", STRING, values=("exclude",), label="Norges Bank Executive Board's decision")
    assert fact_sentence(board, "exclude") == "The Norges Bank Executive Board's decision is exclude."
    one = InputSpec("bv", "money", MONEY, label="Berkshire's book value")
    assert fact_sentence(one, Decimal("5e9")) == "Berkshire's book value is $5B."  # as before


def test_k2_an_unknown_field_in_a_constraint_names_the_constraint(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text(CARD + "constraints:\n  - id: cheap_enough\n    requires: pe_ratio <= 30x\n", encoding="utf-8")
    text = " ".join(runner.invoke(app, ["check", str(card)]).output.split())
    # the card is 25 lines: 'constraints:' is line 26, '- id:' 27 and 'requires:' 28, column 5
    assert (f"{card}:28:5: load error: unknown field 'requires' in constraint 'cheap_enough' of the card; expected "
            "one of: id, require, derive, value, tie, description (did you mean 'require'?)") in text, text
    card.write_text(CARD.replace("range: [2x, 40x], step: 0.5x}", "range: [2x, 40x], stepp: 0.5x}"), encoding="utf-8")
    text = " ".join(runner.invoke(app, ["check", str(card)]).output.split())
    assert "unknown field 'stepp' in input 'pe_ratio' of the card" in text, text


def test_k3_an_l7_summary_names_the_cards_tie_rule_and_l8_the_deck():
    from ipb.perturb.runs import Generation, RecipeReport

    def said(verdicts: dict[str, int]) -> str:
        return Generation([], 10, [RecipeReport("metric", 10, items=10, attempts=10, distinct=10, tied=3)], verdicts,
                          False, list(verdicts), written=10).summary()

    assert "3 moved inputs tied by the card's 'tie: true' rule together" in said({"BUY": 10})
    assert "deck" not in said({"BUY": 10})
    assert "3 moved inputs tied by a deck rule together" in said({"a: BUY | b: PASS": 10})


def test_k4_an_empty_out_says_it_is_empty(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(_base("S59B-ONE"), encoding="utf-8")
    card = tmp_path / "card.yaml"
    card.write_text(CARD, encoding="utf-8")
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "5", "--out", ""])
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and text.startswith("--out: write error: cannot write .: it is a folder"), text
    assert text.endswith("(--out is empty or '.', the current folder: name the file to write, e.g. --out items.jsonl)")


def test_k6_a_label_holding_value_is_warned(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text(CARD.replace("description: long-term debt over equity,",
                                 "label: \"debt {value} of equity\", description: long-term debt over equity,"),
                    encoding="utf-8")
    text = " ".join(runner.invoke(app, ["check", str(card)]).output.split())
    # debt_to_equity is line 14 (inputs: is 12); the warning points at its label
    assert f"{card}:14:" in text and ("warning: the label of input 'debt_to_equity' holds '{value}': a label only "
            "names the fact, and the question states it as 'The debt {value} of equity is <value>.'") in text, text
    assert "label-placeholder 1" in text
    card.write_text(CARD, encoding="utf-8")
    assert "label-placeholder" not in runner.invoke(app, ["check", str(card)]).output
