"""One rule for a card copy that changed since its items were made (s60 new user N6, fixed by s61nfix).

Bug kind: two rules for one release. A copy in ``ipb-cards/`` with a byte-order mark, or with an edited input
description, passed ``ipb verify`` (with a warning) but made ``ipb join`` refuse ("does not hash to its name"), so a
release that verified could not be joined. Now:

- a byte-order mark is no change: the card hash (:func:`ipb.engine.registry.source_sha256`) leaves it out, as the
  YAML loader and the card's ``content_hash`` do;
- an edit that changes what ``ipb verify`` checks (a gold) is an error in both;
- an edit that does not is the same warning in both (:func:`ipb.perturb.verify_cards.card_source_lines`).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import card_file_sha256, source_sha256
from ipb.perturb.verify import verify_items
from ipb.perturb.verify_cards import card_source_lines
from tests.perturb.test_card_copy_hash_s60 import LINES_SHA, _perturb
from tests.perturb.test_newuser_s59b import CARD

runner = CliRunner()


def _made(tmp_path: Path) -> tuple[Path, Path]:
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    return items, items.parent / "ipb-cards" / f"{LINES_SHA}.yaml"


def _join(items: Path, out: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["join", str(items), "--out", str(out)])
    return result.exit_code, " ".join(result.output.split())


def test_a_byte_order_mark_is_no_change_of_the_card(tmp_path):
    # Before: join exited 1 ("does not hash to its name") and verify warned "changed since the items were made".
    assert source_sha256("\ufeff" + CARD) == LINES_SHA  # LINES_SHA: SHA-256 of CARD's lines, worked by hashlib
    items, copy = _made(tmp_path)
    copy.write_bytes(b"\xef\xbb\xbf" + copy.read_bytes())
    assert card_file_sha256(copy) == LINES_SHA
    checked = verify_items(items)
    assert checked.ok and [c["changed"] for c in checked.cards] == [False]
    code, text = _join(items, tmp_path / "release" / "items.jsonl")
    assert code == 0 and "warning" not in text
    assert verify_items(tmp_path / "release" / "items.jsonl").ok


def test_an_edit_that_keeps_every_gold_is_the_same_warning_in_join_and_verify(tmp_path):
    # Before: verify passed with the warning below, join exited 1.
    items, copy = _made(tmp_path)
    copy.write_text(CARD.replace("price over trailing earnings", "price over earnings"), encoding="utf-8")
    checked = verify_items(items)
    assert checked.ok and checked.changed_cards == ["s59b_join_screen"]
    warning = card_source_lines(checked.cards)
    assert len(warning) == 1 and warning[0].startswith("warning: card 's59b_join_screen' changed since the items")
    assert f"the card found now ({copy}, the items' own copy)" in warning[0]
    out = tmp_path / "release" / "items.jsonl"
    code, text = _join(items, out)
    assert code == 0 and warning[0] in text
    release_copy = out.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    assert release_copy.read_bytes() == copy.read_bytes()  # copied as it is: the release verifies with that warning
    again = verify_items(out)
    assert again.ok and card_source_lines(again.cards) == [warning[0].replace(str(copy), str(release_copy))]


def test_an_edit_that_changes_a_gold_is_an_error_in_join_and_verify(tmp_path):
    # The three items (seed 3): P/E 33x and D/E 40% -> PASS at the price gate, 10x and 30% -> BUY, 10x and 100% -> PASS
    # at the leverage gate. With the price gate at 5x the second becomes PASS and the third stops at the price gate:
    # two golds change, the first item's does not.
    items, copy = _made(tmp_path)
    copy.write_text(CARD.replace("pe_ratio <= 15x", "pe_ratio <= 5x"), encoding="utf-8")
    checked = verify_items(items)
    assert not checked.ok and [c.line for c in checked.gold_mismatched] == [2, 3]
    out = tmp_path / "release" / "items.jsonl"
    code, text = _join(items, out)
    assert code == 1 and not out.exists()
    assert f"{items}:2:1: load error: line 2 (id '{checked.gold_mismatched[0].id}') fails ipb verify against the " \
           f"card copy {copy}, which changed since the items were made" in text
    assert "gate 1 Price: verdict PROCEED -> REJECT" in text


def test_an_edited_copy_already_beside_the_output_is_judged_by_the_same_rule(tmp_path):
    # The release carries the copy already at the destination, so that is the one the items are checked against.
    items, copy = _made(tmp_path)
    out = tmp_path / "release" / "items.jsonl"
    there = out.parent / "ipb-cards" / f"{LINES_SHA}.yaml"
    there.parent.mkdir(parents=True)
    there.write_text(CARD.replace("long-term debt over equity", "debt over equity"), encoding="utf-8")
    code, text = _join(items, out)
    assert code == 0 and f"the card found now ({there}, the items' own copy)" in text
    there.write_text(CARD.replace("debt_to_equity <= 60%", "debt_to_equity <= 20%"), encoding="utf-8")
    out.unlink()
    code, text = _join(items, out)
    assert code == 1 and f"fails ipb verify against the card copy {there}" in text and not out.exists()


GRAHAM = "graham_net_net_screen"


def _bundled_made(tmp_path: Path) -> tuple[Path, Path]:
    base = Path(__file__).resolve().parents[2] / "frameworks/scenarios" / GRAHAM / "exactly_two_thirds.yaml"
    out = tmp_path / "made" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", GRAHAM, "--base", str(base), "--n", "4", "--seed", "3",
                                 "--ops", "metric", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (copy,) = (out.parent / "ipb-cards").glob("*.yaml")
    return out, copy


def test_an_edited_copy_of_a_bundled_card_is_refused_by_join_and_verify_alike(tmp_path):
    # verify checks the gold against the bundled card (whose hash is the items'), but condition B's knowledge of
    # Graham's cards is read through the items' own copy, so an edited description fails verify (knowledge differs);
    # join ran its check with another card search and passed. Join now sets the search as verify does, and both
    # give the copy's warning (own_copy_line), which verify said nothing of before.
    items, copy = _bundled_made(tmp_path)
    sha = copy.stem
    text = copy.read_text(encoding="utf-8")
    edited = text.replace('as a "net-net" bargain', "as a net-net bargain", 1)
    assert edited != text
    copy.write_text(edited, encoding="utf-8")
    checked = verify_items(items)
    assert not checked.ok and [c["changed"] for c in checked.cards] == [False]
    assert all("condition B knowledge differs" in c.problems[0] for c in checked.checks)
    lines = card_source_lines(checked.cards)
    assert len(lines) == 1 and lines[0].startswith(f"warning: the items' own copy of card '{GRAHAM}' ({copy}) changed")
    assert f"they were made with sha256 {sha[:12]}..., the copy has sha256 {card_file_sha256(copy)[:12]}..." in lines[0]
    out = tmp_path / "release" / "items.jsonl"
    code, said = _join(items, out)
    assert code == 1 and not out.exists()
    assert f"{items}:1:1: load error: line 1 (id '{checked.checks[0].id}') fails ipb verify against the card copy " \
           f"{copy}, which changed since the items were made" in said and "condition B knowledge differs" in said
