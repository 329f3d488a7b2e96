"""One hash for a card copy (s60twins, closing59's twins): ``ipb join`` checks a copy with the hash ``ipb verify``
checks, :func:`ipb.engine.registry.card_file_sha256`.

Bug kind: two rules for one hash. ``perturb/join.py`` had its own ``card_copy_sha256`` (the file's bytes less one
final newline), which counts a ``\\r`` as content, so join refused a copy whose line endings had become CRLF (a
checkout with ``core.autocrlf``) while verify and score accepted it. A copy without a final newline was
accepted by both rules.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import card_file_sha256, source_sha256
from ipb.perturb.verify import verify_items
from tests.perturb.test_newuser_s59b import CARD  # a two-gate card of its own (LF, with a final newline)

runner = CliRunner()

#: Worked by hand from the definition (SHA-256 of the lines joined by "\n", no final newline), not by ipb.
LINES_SHA = hashlib.sha256(CARD[:-1].encode("utf-8")).hexdigest()
BASE = ("id: S60-HASH\nlayer: L7\ncard: s59b_join_screen\nas_of: \"1985-06-30\"\n"
        "facts:\n  pe_ratio: 10x\n  debt_to_equity: 40%\n")


def _perturb(folder: Path, card_bytes: bytes) -> Path:
    folder.mkdir(parents=True)
    card, base = folder / "card.yaml", folder / "base.yaml"
    card.write_bytes(card_bytes)
    base.write_text(BASE, encoding="utf-8")
    out = folder / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "3", "--seed", "3",
                                 "--ops", "metric", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _manifest_hashes(items: Path) -> set[str]:
    return {c["content_hash"] for line in items.read_text(encoding="utf-8").splitlines()
            for c in json.loads(line)["manifest"]["cards"]}


@pytest.mark.parametrize("spelling", ["crlf", "no-final-newline"])
def test_perturb_names_the_copy_by_the_card_lines_hash(tmp_path, spelling):
    card_bytes = (CARD.replace("\n", "\r\n") if spelling == "crlf" else CARD[:-1]).encode("utf-8")
    items = _perturb(tmp_path / spelling, card_bytes)
    assert _manifest_hashes(items) == {LINES_SHA}
    copy = items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    assert copy.read_bytes() == CARD.encode("utf-8")  # the copy is written LF, with a final newline
    # The engine's rule gives the run's hash for the card as given; the bytes-less-one-newline rule join had does not
    # for the CRLF card (a "\r" ends every line of it).
    assert source_sha256(card_bytes.decode("utf-8")) == card_file_sha256(tmp_path / spelling / "card.yaml") == LINES_SHA
    old_rule = hashlib.sha256(card_bytes[:-1] if card_bytes.endswith(b"\n") else card_bytes).hexdigest()
    assert (old_rule == LINES_SHA) is (spelling == "no-final-newline")


@pytest.mark.parametrize("spelling", ["crlf", "no-final-newline"])
def test_join_accepts_a_copy_that_verify_accepts(tmp_path, spelling):
    # Fails before s60twins for "crlf": join exited 1 with "does not hash to its name", though verify passed.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    copy = items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    respelled = (CARD.replace("\n", "\r\n") if spelling == "crlf" else CARD[:-1]).encode("utf-8")
    copy.write_bytes(respelled)
    assert verify_items(items).ok
    out = tmp_path / "release" / "items.jsonl"
    result = runner.invoke(app, ["join", str(items), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out.parent / "ipb-cards" / f"{LINES_SHA}.yaml").read_bytes() == respelled  # copied byte for byte
    assert verify_items(out).ok


def test_join_still_refuses_a_copy_whose_text_changed(tmp_path):
    # s61nfix (N6): join now applies ipb verify's rule to a changed copy, so the edit must change a gold to be
    # refused; 16x kept every gold of the three items (P/E 33x, 10x, 10x), 5x turns the 10x, 30% item's BUY into PASS.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    copy = items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    copy.write_bytes(CARD.replace("pe_ratio <= 15x", "pe_ratio <= 5x").replace("\n", "\r\n").encode("utf-8"))
    out = tmp_path / "release" / "items.jsonl"
    result = runner.invoke(app, ["join", str(items), "--out", str(out)])
    assert result.exit_code == 1
    assert f"fails ipb verify against the card copy {copy}, which changed since the items were made" in " ".join(
        result.output.split())
    assert not out.exists()
