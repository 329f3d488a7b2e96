"""Regression (bug kind: an error with no location): ``--card`` naming no card.

``ipb check --card unknown`` checked every bundled file and said "ok" (the option
was ignored without a path); with an L8 base, and in ``ipb perturb``, an unknown id
or a missing file gave "unknown: load error: ..." with the value where a file name
belongs, no word of the option, and no ids to choose from when none was close.
Now the error names the option and the value, says what was looked for (the file
at its absolute path, or the id and the folders searched) and lists the three
nearest card ids (rapidfuzz).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import card_option_error
from ipb.errors import nearest_names

HERE = Path(__file__).parent / "fixtures" / "new_user"
BASE = HERE / "l8_deck_base.yaml"
runner = CliRunner()

CASES = [
    # (argv, words the error must hold)
    (["check", "--card", "unknown"],
     ["option --card 'unknown'", "no card has the id 'unknown'", "the bundled cards", "nearest card ids: "]),
    (["check", str(BASE), "--card", "graham_seven_tests_defensiv", "--card", str(HERE / "dividend_growth_screen.yaml")],
     ["option --card 'graham_seven_tests_defensiv'", "nearest card ids: graham_seven_tests_defensive, ",
      "did you mean 'graham_seven_tests_defensive'"]),
    (["check", "--card", "nope/graham_seven.yaml"],
     ["option --card 'nope/graham_seven.yaml'", f"there is no file {Path('nope/graham_seven.yaml').absolute()}",
      "nearest card ids: graham_seven_tests_defensive"]),
    (["perturb", "--card", "unknwn", "--base", str(BASE), "--n", "3", "--out", "OUT"],
     ["option --card 'unknwn'", "no card has the id 'unknwn'", "nearest card ids: "]),
]


@pytest.mark.parametrize("argv,words", CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_an_unknown_card_option_names_the_option_and_the_near_ids(argv, words, tmp_path):
    argv = [str(tmp_path / "items.jsonl") if a == "OUT" else a for a in argv]
    result = runner.invoke(app, argv)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "checked" not in result.output, result.output
    for w in words:
        assert w in result.output, (w, result.output)
    assert result.output.count("nearest card ids: ") == 1
    assert not (tmp_path / "items.jsonl").exists()


def test_the_near_ids_are_three_known_ids_closest_first():
    err = card_option_error("--card", "munger_oportunity")
    assert err is not None and err.name == "--card" and err.rule == "card-option"
    listed = err.message.split("nearest card ids: ")[1].split(" (")[0].split(", ")
    assert listed[0] == "munger_opportunity_evaluation" and len(listed) == 3
    assert nearest_names("munger_oportunity", ["a_card", "munger_opportunity_evaluation"], 3) == [
        "munger_opportunity_evaluation", "a_card"]


def test_a_known_card_gives_no_error_and_check_with_only_card_checks_that_card():
    assert card_option_error("--card", "graham_seven_tests_defensive") is None
    assert card_option_error("--card", str(HERE / "dividend_growth_screen.yaml")) is None
    result = runner.invoke(app, ["check", "--card", "graham_seven_tests_defensive"])
    assert result.exit_code == 0, result.output
    assert "checked 1 file(s): ok" in result.output, result.output


ODD = [
    # (value, words the error must hold, words it must not hold); bug kind: an error that misstates what was given
    ("", ["option --card ''", "the value is empty"], ["no card has the id"]),
    ("   ", ["the value is empty"], ["no card has the id"]),
    ("DIR/", ["is a folder, not a card file", "--cards"], ["there is no file"]),
    ("DIR", ["is a folder, not a card file"], ["no card has the id"]),
]


@pytest.mark.parametrize("value,words,absent", ODD, ids=["empty", "blank", "folder-slash", "folder-bare"])
def test_an_odd_card_value_says_what_it_is(value, words, absent, tmp_path, monkeypatch):
    """An empty value or an existing folder was reported as "no card has the id ''" or "there is no
    file DIR" (the folder exists): the message must say what the value is."""
    (tmp_path / "cards_here").mkdir()
    monkeypatch.chdir(tmp_path)
    value = value.replace("DIR", "cards_here")
    for argv in (["check", "--card", value], ["perturb", "--card", value, "--base", str(BASE), "--n", "3",
                                              "--out", str(tmp_path / "items.jsonl")]):
        result = runner.invoke(app, argv)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output, result.output
        for w in words:
            assert w in result.output, (w, result.output)
        for w in absent:
            assert w not in result.output, (w, result.output)
        assert not (tmp_path / "items.jsonl").exists()


def test_a_yaml_that_is_not_a_card_is_refused_at_its_first_line(tmp_path):
    """A --card file that is YAML but not a card (a scenario, a list, an empty file) gets a located
    load error, never a traceback, and no items."""
    for name, text, words in (("notcard.yaml", "foo: 1\n", "unknown field 'foo'"),
                              ("empty.yaml", "", "found an empty file"),
                              ("list.yaml", "- a\n- b\n", "found a list")):
        path = tmp_path / name
        path.write_text(text)
        result = runner.invoke(app, ["perturb", "--card", str(path), "--base", str(BASE), "--n", "3",
                                     "--out", str(tmp_path / "items.jsonl")])
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output and f"{name}:1:1: load error" in result.output, result.output
        assert words in result.output, result.output
        assert not (tmp_path / "items.jsonl").exists()
