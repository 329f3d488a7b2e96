"""``ipb verify`` on items whose card content_hash was edited names that cause (s48break leftover 6, s49break).

A card outside the package is copied beside its items as ``ipb-cards/<sha256>.yaml``. When the items'
``content_hash`` was then edited (every occurrence, so the item still agrees with itself), verify said the card id
was "neither a card file nor a known card id", though ``ipb-cards/`` held that very card under its real hash.
It now says the folder holds the card under another hash, and that the hash was edited or the copy removed.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from perturb_support import CARDS, FIXTURES

runner = CliRunner()


def _items(tmp_path: Path) -> tuple[Path, str]:
    card = tmp_path / "cards" / "mine.yaml"
    card.parent.mkdir()
    card.write_text((CARDS / "new_author_screen.yaml").read_text())
    out = tmp_path / "out" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "-c", str(card), "-b", str(FIXTURES / "new_author_base.yaml"),
                                 "--n", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (copy,) = (out.parent / "ipb-cards").glob("*.yaml")
    return out, copy.stem


def test_an_edited_content_hash_is_named_as_the_cause(tmp_path):
    out, real = _items(tmp_path)
    assert f'"content_hash":"{real}"' in out.read_text()  # the copy is named by the hash the items record
    fake = "0" * 64
    out.write_text(out.read_text().replace(f'"content_hash":"{real}"', f'"content_hash":"{fake}"'))
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 1, result.output
    assert "neither a card file nor a known card id" not in result.output, result.output
    assert "at sha256 000000000000..., but " in result.output, result.output
    assert f"holds no card with that hash; it holds 'new_author_screen' as {real}.yaml (sha256 {real[:12]}...)" \
        in result.output, result.output
    assert "the item's content_hash was edited, or its copy was removed" in result.output, result.output
    assert "Traceback" not in result.output


def test_the_unedited_items_still_verify(tmp_path):
    out, _ = _items(tmp_path)
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output
    assert "verified 2 of 2 item(s)" in result.output, result.output
