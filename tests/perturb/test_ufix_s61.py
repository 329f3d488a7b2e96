"""Findings of s61's new user and breaker (/work/notes/NEWUSER_s61.md) fixed by s61ufix (issue 18).

N1 (bug kind: a system file destroyed): ``--out`` on a symlink to a FIFO or device (``/dev/stdout``) replaced the
link by a regular file in ``ipb join`` and ``ipb perturb``; a FIFO given directly was refused.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from tests.perturb.test_card_copy_hash_s60 import BASE, _perturb
from tests.perturb.test_newuser_s59b import CARD

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
