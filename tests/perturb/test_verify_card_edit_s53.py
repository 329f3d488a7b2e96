"""Regression (confusing verify after a card edit, s53newuser finding 10).

A user edited a card after making items from it and ran ``ipb verify items.jsonl``: "500 of 500 verified", with
nothing saying that the edited card was in no folder verify searches, so every item was checked against its own
copy (``ipb-cards/<sha256>.yaml``), which always agrees. ``--cards .`` then took the first of 17 files with that
card id (a deliberately broken variant) and called all 500 items unreadable, with no word of the other 16.

Now: a card checked against the items' own copy is named as such; a current card whose hash differs from the items'
is a warning naming both hashes (the run fails only where a gold no longer matches, docs/perturbation.md); and a
``--cards`` folder with several files of one id and different contents is an error naming the files.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import card_file_sha256, use_cards

ROOT = Path(__file__).resolve().parents[2]
CARD = ROOT / "frameworks" / "greenblatt_magic_formula_screen.yaml"
BASE = ROOT / "frameworks" / "scenarios" / "greenblatt_magic_formula_screen" / "invest_midcap_industrial.yaml"
MINE = "my_magic_formula_s53"


def _own_card(path: Path, floor: str = "$50M", reworded: bool = False) -> Path:
    # the bundled Greenblatt screen under an id no folder verify searches holds (as the user's own card was)
    text = CARD.read_text(encoding="utf-8").replace("id: greenblatt_magic_formula_screen", f"id: {MINE}", 1)
    text = text.replace("    value: $50M\n", f"    value: {floor}\n", 1)
    if reworded:
        text = text.replace("Whether a stock belongs", "Whether a share belongs", 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _items(tmp_path: Path) -> tuple[Path, Path]:
    card = _own_card(tmp_path / "work" / "card.yaml")
    items = tmp_path / "items" / "items.jsonl"
    items.parent.mkdir()
    base = tmp_path / "base.yaml"
    base.write_text(BASE.read_text(encoding="utf-8").replace("card: greenblatt_magic_formula_screen", f"card: {MINE}"),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "6", "--seed", "3",
                                      "--out", str(items)])
    assert result.exit_code == 0, result.output
    return card, items


def _verify(*args: str) -> tuple[int, str]:
    try:
        result = CliRunner().invoke(app, ["verify", *args])
    finally:
        use_cards()
    return result.exit_code, " ".join(result.output.split())


def test_verify_names_the_items_own_copy_and_a_changed_card_by_both_hashes(tmp_path: Path) -> None:
    card, items = _items(tmp_path)
    made = card_file_sha256(card)
    # the card is in no searched folder: the items' own copy is used, and the run says so
    code, out = _verify(str(items))
    assert code == 0
    assert "verified 6 of 6 item(s)" in out
    assert (f"note: card '{MINE}' was checked against the items' own copy (ipb-cards/{made}.yaml" in out
            or f"note: card '{MINE}' was checked against the items' own copy (" in out and f"{made}.yaml" in out)
    assert f"--card {MINE}=PATH" in out
    # the same card in --cards: current, same hash, nothing to say about it
    code, out = _verify(str(items), "--cards", str(card.parent))
    assert code == 0 and "note: card" not in out and "warning: card" not in out
    # edited (its description reworded: every gold still holds): a warning naming the hash the items were made with
    # and the hash of the card found now, exit 0
    _own_card(card, reworded=True)
    edited = card_file_sha256(card)
    assert edited != made
    code, out = _verify(str(items), "--cards", str(card.parent))
    assert code == 0, out
    assert (f"warning: card '{MINE}' changed since the items were made: they were made with sha256 {made[:12]}..., "
            f"the card found now ({card}, from a --cards / IPB_CARDS folder) has sha256 {edited[:12]}...") in out
    data = json.loads(CliRunner().invoke(app, ["verify", str(items), "--cards", str(card.parent), "-f", "json"]).output)
    use_cards()
    assert data["cards"] == [{"id": MINE, "item_sha256": made, "file": str(card), "sha256": edited,
                              "source": "folder", "changed": True}]


def test_cards_folder_with_two_versions_of_one_id_is_an_error_naming_both(tmp_path: Path) -> None:
    card, items = _items(tmp_path)
    other = _own_card(card.parent / "a_variant" / "broken.yaml", "$70M")  # sorts before card.yaml
    code, out = _verify(str(items), "--cards", str(card.parent))
    assert code == 1
    assert (f"card id '{MINE}' is in 2 files of --cards / IPB_CARDS folder {card.parent}, with 2 different contents: "
            f"{other}, {card}") in out
    assert "--card ID=PATH" in out
    # a second file with the same content is the same card: no error
    other.write_text(card.read_text(encoding="utf-8"), encoding="utf-8")
    code, out = _verify(str(items), "--cards", str(card.parent))
    assert code == 0, out
    assert "verified 6 of 6 item(s)" in out
