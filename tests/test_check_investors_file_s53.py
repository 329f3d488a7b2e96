"""Regression (a file kind misread, s53newuser finding 5): ``ipb check my_investors.yaml`` read an investors file as
a card ("'gates' is a required property", 11 errors), though docs/scoring.md says ``ipb check my_investors.yaml``
"checks the file alone". A YAML file with a top-level ``investors:`` mapping and no card or scenario parts is now
checked as an investors file, under any name; a card or a scenario is read as before.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

# my own registry entry, shaped as docs/scoring.md "Registering an investor" shows
GOOD = """version: 1
investors:
  ada_quill:
    name: Ada Quill
    aliases: [Quill]
    kind: practitioner
    organisation: Quill Partners
    school: deep_value
    distinctive_phrases: [buy the dull ledger, wait for the mispriced quarter]
    phrases_source: author
    active: {start: 2001, end: null}
    career_boundaries:
      - {date: 2001, event: funds_founded, description: Opened Quill Partners., corpus_filter: none}
    cards: [quill_ledger_check]
"""


def _check(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", str(path)])
    return result.exit_code, result.output


def test_an_investors_file_under_its_own_name_is_checked_as_one(tmp_path: Path) -> None:
    path = tmp_path / "my_investors.yaml"
    path.write_text(GOOD, encoding="utf-8")
    code, out = _check(path)
    assert code == 0, out
    assert "gates" not in out
    # s63ufix (NEWUSER_s62 N4): the card it lists, quill_ledger_check, is nowhere to be found: a warning, not an error
    assert out.strip().endswith("checked 1 file(s) (1 of them investors file(s), checked as such): ok, 1 warning(s) "
                                "(unknown-card 1)")


def test_a_broken_investors_file_gets_the_registry_errors_at_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "team.yaml"
    path.write_text(GOOD.replace("    name: Ada Quill\n", "    nme: Ada Quill\n"), encoding="utf-8")
    code, out = _check(path)
    assert code == 1
    # line 3 column 3 is the entry missing its name; line 4 column 5 the misspelt key
    assert f"{path}:3:3: load error: 'name' is a required property (at investors/ada_quill)" in out
    assert f"{path}:4:5: load error: unknown field 'nme' in the investor registry" in out
    assert "did you mean 'name'?" in out
    assert "'gates' is a required property" not in out
    assert "2 error(s)" in out


def test_a_card_with_an_investors_key_is_still_read_as_a_card(tmp_path: Path) -> None:
    # a document with gates is a card whatever else it has: its errors are a card's
    path = tmp_path / "odd.yaml"
    path.write_text("id: x\ngates: []\ninvestors: {a: 1}\n", encoding="utf-8")
    code, out = _check(path)
    assert code == 1
    assert "investors file" not in out
