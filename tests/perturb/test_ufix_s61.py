"""Findings of s61's new user and breaker (/work/notes/NEWUSER_s61.md) fixed by s61ufix (issue 18).

N1 (bug kind: a system file destroyed): ``--out`` on a symlink to a FIFO or device (``/dev/stdout``) replaced the
link by a regular file in ``ipb join`` and ``ipb perturb``; a FIFO given directly was refused.
N2 (bug kind: two rules for one lookup): with the user's own investor file (``IPB_INVESTORS``) and the card given by
file path, perturb hashed the investor's listed card as "not found" (looked up by id only) while verify found it
beside the items, so ``ipb verify`` passed 0 of N.
N5 (bug kind: two readers of one format): an items file starting with a UTF-8 BOM was read by verify and score and
refused by join with Python's own error text.
N10 (bug kind: a usual convention missing): ``--out -`` wrote a file named ``-``.
N11 (bug kind: one rule applied to inputs only): ``ipb join B - --out C < C`` wrote over C.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from tests.perturb.test_card_copy_hash_s60 import BASE, _perturb
from tests.perturb.test_conditions_s59 import NEFF, NEFF_BASE, _by_hand
from tests.perturb.test_newuser_s59b import CARD
from perturb_support import NEFF_REGISTRY

runner = CliRunner()


def _link_to_fifo(tmp_path: Path) -> Path:
    folder = tmp_path / "ff"
    folder.mkdir()
    os.mkfifo(folder / "pipe")
    link = folder / "link.jsonl"
    link.symlink_to("pipe")
    return link


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_join_refuses_an_out_that_links_to_a_fifo(tmp_path):
    # Before: exit 0, "wrote .../link.jsonl", the link replaced by a regular file and ipb-cards/ made beside it.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    link = _link_to_fifo(tmp_path)
    result = runner.invoke(app, ["join", str(items), "--out", str(link)])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert f"cannot write {link}: it is a symbolic link to a FIFO ({tmp_path / 'ff' / 'pipe'})" in text
    assert link.is_symlink() and os.readlink(link) == "pipe"
    assert sorted(p.name for p in link.parent.iterdir()) == ["link.jsonl", "pipe"]  # no ipb-cards/, no lock left


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_perturb_refuses_an_out_that_links_to_a_fifo(tmp_path):
    card, base = tmp_path / "card.yaml", tmp_path / "base.yaml"
    card.write_text(CARD, encoding="utf-8")
    base.write_text(BASE, encoding="utf-8")
    link = _link_to_fifo(tmp_path)
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "3", "--seed", "3",
                                 "--ops", "metric", "--out", str(link)])
    assert result.exit_code == 1, result.output
    assert "it is a symbolic link to a FIFO" in " ".join(result.output.split())
    assert link.is_symlink() and os.readlink(link) == "pipe"


def test_an_out_linking_to_a_regular_file_or_nowhere_is_still_replaced(tmp_path):
    # The documented rule for other links stays: a symlink at the target is replaced, never written through.
    from ipb._files import check_target, write_text_atomic

    real = tmp_path / "real.txt"
    real.write_text("old\n", encoding="utf-8")
    for name, target in (("to_file", real), ("dangling", tmp_path / "missing.txt"), ("to_folder", tmp_path)):
        link = tmp_path / name
        link.symlink_to(target)
        check_target(link)
    write_text_atomic(tmp_path / "to_file", "new\n")
    assert real.read_text(encoding="utf-8") == "old\n"
    assert not (tmp_path / "to_file").is_symlink() and (tmp_path / "to_file").read_text(encoding="utf-8") == "new\n"


@pytest.fixture()
def own_investor(tmp_path, monkeypatch):
    """John Neff registered in the user's own file through IPB_INVESTORS, his card given only by path (no IPB_CARDS,
    no --cards: the card is not findable by id)."""
    from ipb.engine.investors import INVESTORS_ENV, use_investors
    from ipb.engine.registry import use_cards

    monkeypatch.delenv("IPB_CARDS", raising=False)
    registry = tmp_path / "investors.yaml"
    registry.write_text(NEFF_REGISTRY, encoding="utf-8")
    monkeypatch.setenv(INVESTORS_ENV, str(registry))
    use_investors()
    use_cards()
    card = tmp_path / "mine" / "neff.yaml"
    card.parent.mkdir()
    card.write_bytes(NEFF.read_bytes())
    yield card
    monkeypatch.delenv(INVESTORS_ENV)
    use_investors()
    use_cards()


def test_a_card_given_by_path_with_an_own_investor_file_verifies(own_investor, tmp_path):
    # Before: every item recorded the knowledge version with the listed card's hash null, and verify (which finds
    # the card in ipb-cards/ beside the items) computed it with the card's hash: "verified 0 of 3", exit 1.
    from ipb.engine.registry import card_file_sha256

    out = tmp_path / "run" / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(own_investor), "--base", str(NEFF_BASE), "--n", "3",
                               "--seed", "61", "--out", str(out)])
    assert made.exit_code == 0, made.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    want = _by_hand(card_file_sha256(own_investor))  # the canonical form with the given file's hash
    assert {r["conditions"]["B"]["knowledge_sha256"] for r in rows} == {want}
    assert want != _by_hand(None)  # what was recorded before
    checked = runner.invoke(app, ["verify", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "verified 3 of 3" in " ".join(checked.output.split())


def test_join_reads_past_a_byte_order_mark_as_verify_does(tmp_path):
    # N5. Before: exit 1, "line 1 is not valid JSON (Unexpected UTF-8 BOM (decode using utf-8-sig), column 1)",
    # while ipb verify passed the same file.
    from ipb.perturb.join import join_items
    from ipb.perturb.verify import verify_items

    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    plain = items.read_bytes()
    bom = items.parent / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + plain)
    assert verify_items(bom).ok
    out = tmp_path / "release" / "items.jsonl"
    result = runner.invoke(app, ["join", str(bom), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == plain  # the same 3 lines, without the mark
    assert verify_items(out).ok
    # a mark starting a later line (two BOM files concatenated) is left out too; the second copy's lines repeat ids
    both = items.parent / "both.jsonl"
    both.write_bytes(b"\xef\xbb\xbf" + plain + b"\xef\xbb\xbf" + plain)
    again = join_items([both], tmp_path / "release2" / "items.jsonl")
    assert (again.kept, again.dropped) == (3, 3)
    assert (tmp_path / "release2" / "items.jsonl").read_bytes() == plain


@pytest.mark.parametrize("command", ["join", "perturb"])
def test_out_dash_is_refused_not_written_as_a_file(tmp_path, monkeypatch, command):
    # N10. Before: exit 0 and ./- (and ./ipb-cards) written in the current folder.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    args = (["join", str(items)] if command == "join" else
            ["perturb", "--card", str(items.parent.parent / "card.yaml"), "--base", str(items.parent.parent / "base.yaml"),
             "--n", "3", "--seed", "3", "--ops", "metric"])
    result = runner.invoke(app, [*args, "--out", "-"])
    assert result.exit_code == 1, result.output
    assert ("--out -: ipb writes this output to a file, not to standard output (- stands for standard input only "
            "where a command reads it); name the file, e.g. --out items.jsonl") in " ".join(result.output.split())
    assert list(work.iterdir()) == []


def test_join_refuses_standard_input_redirected_from_its_output(tmp_path):
    # N11. Before: exit 0, C read through standard input and replaced by the join of B and C (6 lines).
    from tests.perturb.test_join_s61 import _join_stdin

    b = _perturb(tmp_path / "b", CARD.encode("utf-8"))
    c = tmp_path / "c" / "items.jsonl"
    c.parent.mkdir()
    c.write_bytes(b.read_bytes())
    before = c.read_bytes()
    code, text = _join_stdin(c, str(b), "-", "--out", str(c))
    assert code == 1, text
    assert (f"--out {c} is the items file 2 (<stdin>, redirected from {c}); ipb join never writes over its own "
            "inputs or outputs: name another file") in text
    assert c.read_bytes() == before and sorted(p.name for p in c.parent.iterdir()) == ["items.jsonl"]
    # standard input from another file still joins
    code, text = _join_stdin(b, "-", "--out", str(tmp_path / "d" / "items.jsonl"))
    assert code == 0, text
