"""Findings N4 and N5 of s62's new user (/work/notes/NEWUSER_s62.md, issue 18); bug kind: two rules for one check.

N4: ``ipb check MY_REGISTRY.yaml`` read the file alone and passed an id, an alias or a card id the bundled registry
holds, which ``--investors FILE`` refuses; it is now judged by the loader that ``--investors`` uses (bundled registry
first, then the file), and a listed card no card search finds is an ``unknown-card`` warning at its list entry.
N5: ``ipb investors --investors MY --check`` looked the user's cards up among the bundled cards only and located the
error in the bundled registry (buffett's entry, "is not a bundled card"); it now finds them with ``--cards DIR`` /
``IPB_CARDS`` and locates a problem in the user's file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.investors import use_investors

# line numbers below are of this text (line 1: "version: 1")
OWN = """version: 1
investors:
  ada_quill:
    name: Ada Quill
    aliases: [Quill]
    kind: practitioner
    organisation: Quill Partners
    school: deep_value
    distinctive_phrases: [buy the dull ledger]
    phrases_source: author
    active: {start: 1931, end: null}
    career_boundaries:
      - {date: 1931, event: funds_founded, description: Opened Quill Partners., corpus_filter: none}
    cards: [quill_net_net]
"""

BUNDLED = Path(__file__).resolve().parents[2] / "frameworks"


@pytest.fixture(autouse=True)
def _no_user_registry(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("IPB_INVESTORS", raising=False)
    monkeypatch.delenv("IPB_CARDS", raising=False)
    yield
    use_investors()


def _own_card(folder: Path) -> Path:
    """The bundled net-net screen as Ada Quill's card ``quill_net_net``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (BUNDLED / "graham_net_net_screen.yaml").read_text(encoding="utf-8")
    text = text.replace("id: graham_net_net_screen", "id: quill_net_net", 1)
    text = text.replace("investor: Benjamin Graham", "investor: Ada Quill", 1)
    path = folder / "quill_net_net.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


# N4 ---------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("old, new, line, column, fragment", [
    # the entry's key is line 3 column 3 (the loader locates a clash at the investor's key)
    ("  ada_quill:\n", "  buffett:\n", 3, 3,
     "id 'buffett' is already an investor of "),
    ("aliases: [Quill]", "aliases: [Quill, Buffett]", 3, 3,
     "'Buffett' already names investor 'buffett'"),
    ("cards: [quill_net_net]", "cards: [graham_net_net_screen]", 3, 3,
     "card 'graham_net_net_screen' is already listed for investor 'graham'"),
], ids=["bundled-id", "bundled-alias", "bundled-card"])
def test_check_of_a_registry_file_refuses_what_investors_refuses(tmp_path, old, new, line, column, fragment):
    # Before: "checked 1 file(s) (1 of them investors file(s), checked as such): ok", exit 0.
    _own_card(tmp_path / "cards")
    path = tmp_path / "mine.yaml"
    path.write_text(OWN.replace(old, new, 1), encoding="utf-8")
    code, out = _run("check", str(path), "--cards", str(tmp_path / "cards"))
    assert code == 1, out
    assert f"{path}:{line}:{column}: load error: {fragment}" in out
    assert "(a registry file adds investors; it cannot redefine one)" in out
    assert out.strip().endswith("checked 1 file(s) (1 of them investors file(s), checked as such): 1 error(s), 0 warning(s)")
    # the same words, file, line and column as the loader --investors uses
    code2, out2 = _run("investors", "--investors", str(path))
    assert code2 == 1 and f"{path}:{line}:{column}: load error: {fragment}" in out2


def test_a_listed_card_no_search_finds_is_a_warning_at_its_entry(tmp_path):
    # Before: ok with no warning. Line 14 is "    cards: [quill_net_net]", the id at column 13.
    _own_card(tmp_path / "cards")
    path = tmp_path / "mine.yaml"
    path.write_text(OWN.replace("[quill_net_net]", "[quill_net_nt]"), encoding="utf-8")
    code, out = _run("check", str(path), "--cards", str(tmp_path / "cards"))
    assert code == 0, out
    text = " ".join(out.split())
    assert (f"{path}:14:13: warning: card 'quill_net_nt' listed for 'ada_quill' is not a bundled card nor in the "
            "--cards folders or IPB_CARDS") in text
    assert "(did you mean 'quill_net_net'?)" in text
    assert text.endswith("ok, 1 warning(s) (unknown-card 1)")
    code, out = _run("check", str(path), "--cards", str(tmp_path / "cards"), "--strict")
    assert code == 1


def test_a_good_registry_with_its_cards_found_passes(tmp_path):
    cards = tmp_path / "cards"
    card = _own_card(cards)
    path = tmp_path / "mine.yaml"
    path.write_text(OWN, encoding="utf-8")
    ok = "checked 1 file(s) (1 of them investors file(s), checked as such): ok"
    assert _run("check", str(path), "--cards", str(cards)) == (0, ok + "\n")
    # the card given on the same command line is found too; checked with itself as --investors, read once
    code, out = _run("check", str(path), str(card), "--investors", str(path))
    assert code == 0 and "unknown-card" not in out and "already" not in out, out


# N5 ---------------------------------------------------------------------------------------------------------------

def test_investors_check_finds_own_cards_with_cards_dir(tmp_path):
    cards = tmp_path / "cards"
    _own_card(cards)
    path = tmp_path / "mine.yaml"
    path.write_text(OWN, encoding="utf-8")
    code, out = _run("investors", "--investors", str(path), "--check", "--cards", str(cards))
    assert code == 0, out
    assert "ada_quill" in out


def test_investors_check_locates_a_missing_own_card_in_the_own_file(tmp_path, monkeypatch):
    # Before: "frameworks/investors.yaml:49:3: load error: card 'quill_net_net' listed for 'ada_quill' is not a
    # bundled card", pointing at buffett's entry.
    path = tmp_path / "mine.yaml"
    path.write_text(OWN, encoding="utf-8")
    code, out = _run("investors", "--investors", str(path), "--check")
    assert code == 1
    text = " ".join(out.split())
    assert (f"{path}:14:13: load error: card 'quill_net_net' listed for 'ada_quill' is not in the bundled cards, the "
            "--cards folders or IPB_CARDS; pass the folder of your cards with --cards DIR (or IPB_CARDS)") in text
    assert "frameworks/investors.yaml" not in text
    # IPB_CARDS is a card search as --cards is
    _own_card(tmp_path / "env_cards")
    monkeypatch.setenv("IPB_CARDS", str(tmp_path / "env_cards"))
    code, out = _run("investors", "--investors", str(path), "--check")
    assert code == 0, out


def test_investors_check_locates_a_wrong_investor_in_the_own_file(tmp_path):
    cards = tmp_path / "cards"
    card = _own_card(cards)
    card.write_text(card.read_text(encoding="utf-8").replace("investor: Ada Quill", "investor: Warren Buffett"),
                    encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(OWN, encoding="utf-8")
    code, out = _run("investors", "--investors", str(path), "--check", "--cards", str(cards))
    assert code == 1
    assert f"{path}:14:13: load error: card 'quill_net_net' belongs to 'Warren Buffett', not 'Ada Quill'" in out
