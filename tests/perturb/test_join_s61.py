"""``ipb join`` findings of s60's new user and breaker fixed by s61nfix (issue 18).

N7 (bug kind: a promise of byte-for-byte lines broken): a CRLF items file lost every CR in the joined file.
N11 (bug kind: a usual convention missing): ``ipb join -`` did not read standard input.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.join import join_items
from ipb.perturb.verify import verify_items
from tests.perturb.test_card_copy_hash_s60 import _perturb
from tests.perturb.test_newuser_s59b import CARD

runner = CliRunner()


def test_join_keeps_the_cr_of_a_crlf_items_file(tmp_path):
    # Before: the joined file was the LF spelling (each line 1 byte shorter), though docs promise byte for byte.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    lf = items.read_bytes()
    assert lf.count(b"\n") == 3 and b"\r" not in lf
    crlf = tmp_path / "made" / "run" / "crlf.jsonl"
    crlf.write_bytes(lf.replace(b"\n", b"\r\n"))
    out = tmp_path / "release" / "items.jsonl"
    result = join_items([crlf], out)
    assert result.kept == 3
    assert out.read_bytes() == crlf.read_bytes()  # 3 lines, each ending in b"\r\n"
    assert verify_items(out).ok


def test_join_keeps_each_lines_own_ending_in_a_mixed_file(tmp_path):
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    one, two, three = items.read_bytes().splitlines()
    mixed = tmp_path / "made" / "run" / "mixed.jsonl"
    mixed.write_bytes(one + b"\r\n" + two + b"\n\r\n" + three)  # a blank CRLF line, no final newline
    out = tmp_path / "release" / "items.jsonl"
    join_items([mixed], out)
    assert out.read_bytes() == one + b"\r\n" + two + b"\n" + three + b"\n"  # blank line dropped, last line ended
