"""Finding N10 of s62's new user (/work/notes/NEWUSER_s62.md, issue 18); bug kind: a rule with holes.

A card's ``question.setting`` / ``ask`` passed ``ipb check`` with slots run together in other ways than two braces
touching: ``{investor}'s{framework}`` ("Philip Fisher'sFisher Fifteen Points"), ``{investor}s``, ``{investor}and
{framework}``, one slot twice with only spaces or punctuation between (``{investor}-{investor}``), and a zero-width
space (U+200B, category Cf) between slots went unseen into every question; the refusal's example always said
"Walter SchlossWalter Schloss". The card here is Test Screener's "Join screen".
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from tests.perturb.test_ufix_s62 import _card_with_setting

runner = CliRunner()

CASES = [
    # (setting as written in YAML, what the error says, the slot text the caret stands under)
    ("{investor}'s{framework} decides.",
     "a slot runs into a letter in question.setting: s{framework} would join a name and a word (\"sJoin screen\")",
     "{framework} decides"),
    ("{investor}s decide.",
     "a slot runs into a letter in question.setting: {investor}s would join a name and a word "
     "(\"Test Screeners\")", "{investor}s decide"),
    ("{investor}and{framework} decide.",
     "a slot runs into a letter in question.setting: {investor}a would join a name and a word "
     "(\"Test Screenera\")", "{investor}and"),
    ("{investor}-{investor} decides.",
     "one slot twice in a row in question.setting: {investor}-{investor} would name the same thing twice "
     "(\"Test Screener-Test Screener\")", "{investor} decides"),
    ("{investor} {investor} decides.",
     "one slot twice in a row in question.setting: {investor} {investor} would name the same thing twice "
     "(\"Test Screener Test Screener\")", "{investor} decides"),
    ("{investor}{investor} decides.",
     "two slots run together in question.setting: {investor}{investor} would join two names into one word "
     "(\"Test ScreenerTest Screener\")", "{investor} decides"),
]


@pytest.mark.parametrize("setting, message, caret", CASES, ids=["possessive-framework", "plural", "and", "hyphen",
                                                                 "space", "joined"])
def test_slots_run_together_are_refused_with_the_cards_own_names(tmp_path, setting, message, caret):
    # Before: the first five passed check (exit 0); the sixth's example was "Walter SchlossWalter Schloss".
    card = _card_with_setting(tmp_path, f'setting: "A fund following {setting}"')
    result = runner.invoke(app, ["check", str(card)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, text
    assert message in text
    assert "Walter Schloss" not in text
    lines = card.read_text(encoding="utf-8").splitlines()
    line = next(n for n, t in enumerate(lines, 1) if "setting:" in t)
    column = lines[line - 1].index(caret) + 1
    assert f"{card}:{line}:{column}: load error: {message.split(' in question')[0]}" in text


def test_a_zero_width_space_between_slots_is_refused(tmp_path):
    # Before: passed; every question read "Test Screener\u200bTest Screener's ..." with the U+200B unseen.
    card = _card_with_setting(tmp_path, 'setting: "A fund following {investor}\\u200b{investor}\'s rules decides."')
    result = runner.invoke(app, ["check", str(card)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1
    assert "question.setting holds U+200B (ZERO WIDTH SPACE) at character 28" in text


@pytest.mark.parametrize("setting", [
    "{investor}'s {framework} decides.",
    "{investor} and {investor}'s rules decide.",   # words between: the same slot twice is fine
    "The {framework}, {investor}'s rules, decides.",
    "A fund ('{investor}') decides.",
])
def test_slots_apart_pass(tmp_path, setting):
    card = _card_with_setting(tmp_path, f'setting: "{setting}"')
    result = runner.invoke(app, ["check", str(card)])
    assert "question-slot" not in result.output and "runs into" not in result.output, result.output
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("escape, code, at", [("A fund\\u200ddecides.", "U+200D (ZERO WIDTH JOINER)", 7),
                                              ("A fund\\u00addecides.", "U+00AD (SOFT HYPHEN)", 7),
                                              ("A fund\\ufeffdecides.", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)", 7)])
def test_other_invisible_format_characters_are_refused(tmp_path, escape, code, at):
    card = _card_with_setting(tmp_path, f'setting: "{escape}"')
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1
    assert f"question.setting holds {code} at character {at}" in " ".join(result.output.split())
