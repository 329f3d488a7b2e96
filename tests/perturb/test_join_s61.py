"""``ipb join`` findings of s60's new user and breaker fixed by s61nfix (issue 18).

N7 (bug kind: a promise of byte-for-byte lines broken): a CRLF items file lost every CR in the joined file.
N11 (bug kind: a usual convention missing): ``ipb join -`` did not read standard input.
N8 (bug kind: a silent stop leaving a partial file): SIGUSR1, SIGUSR2 or SIGALRM ended ``ipb join`` and ``ipb
perturb`` with no message and their temporary file left.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.join import join_items
from ipb.perturb.verify import verify_items
from tests.perturb.test_break_s59 import BASE as BUFFETT_BASE, _item, _start_join
from tests.perturb.test_card_copy_hash_s60 import _perturb
from tests.perturb.test_newuser_s59b import CARD
from perturb_support import IPB_COMMAND, ROOT, ipb_process, wait_for_temporary_file

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


def _join_stdin(stdin: Path, *args: str) -> tuple[int, str]:
    """``ipb join ARGS`` in a process of its own with ``stdin`` as its standard input (descriptor 0, which
    CliRunner's ``input`` does not replace)."""
    with open(stdin, "rb") as handle:
        proc = subprocess.run([*IPB_COMMAND, "join", *args], cwd=ROOT, stdin=handle, capture_output=True, timeout=120)
    return proc.returncode, " ".join(proc.stderr.decode("utf-8").split())


def test_join_reads_standard_input_for_a_dash(tmp_path):
    # Before: exit 1, "cannot read -: No such file or directory".
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    out = tmp_path / "release" / "items.jsonl"
    code, text = _join_stdin(items, "-", "--out", str(out))
    assert code == 0, text
    assert out.read_bytes() == items.read_bytes()
    assert "<stdin>: kept 3" in text
    assert "warning: <stdin>: 1 card copy(ies) its kept items name are not beside it" in text  # none beside a pipe


def test_join_refuses_standard_input_given_twice(tmp_path):
    # Before: "cannot read -" for the first; now the "given twice" refusal, also for - beside /dev/stdin.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    out = tmp_path / "release" / "items.jsonl"
    for second, name in (("-", "<stdin>"), ("/dev/stdin", "/dev/stdin")):
        code, text = _join_stdin(items, "-", second, "--out", str(out))
        assert code == 1
        assert (f"{name} (items file 2) is <stdin> (items file 1) given twice (standard input can be read once): "
                "name each file once; nothing written") in text
        assert not out.exists()


#: The signals s60 new user N8 sent (those the platform has): each ends a process by default, as SIGTERM does.
OTHER_STOPS = [name for name in ("SIGUSR1", "SIGUSR2", "SIGALRM") if hasattr(signal, name)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
@pytest.mark.parametrize("name", OTHER_STOPS)
def test_join_stopped_by_another_terminating_signal_says_so_and_leaves_nothing(tmp_path, name):
    # bug kind: silent stop leaving a partial file. Before: exit -10 (killed by SIGUSR1), nothing printed, and
    # .items.jsonl.XXXXXXXX.tmp left in the output folder until the next join removed it.
    number = getattr(signal, name)
    out = tmp_path / "out" / "items.jsonl"
    proc, writer = _start_join(tmp_path / "in.jsonl", out, _item("T-00000000000000aa"))
    try:
        proc.send_signal(number)
        _, errors = proc.communicate(timeout=60)
        code = proc.returncode
    finally:
        writer.close()  # type: ignore[attr-defined]
        if proc.poll() is None:
            proc.kill()
    said = " ".join(errors.decode().split())
    assert code == 128 + number, said
    assert f"join stopped by {name} after" in said and f"no items file written ({out} not made)" in said
    assert not out.parent.exists()  # neither a temporary file nor the folder join made for it


def test_perturb_stopped_by_sigusr1_says_so_and_leaves_nothing(tmp_path):
    # the same handling in ipb perturb (a million items of the Buffett card: minutes, stopped while it writes)
    out = tmp_path / "run" / "items.jsonl"
    proc = ipb_process("perturb", "--card", "buffett_acquisition_checklist", "--base", str(BUFFETT_BASE), "--n",
                       "1000000", "--seed", "1", "--ops", "metric", "--out", str(out), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    wait_for_temporary_file(proc, out, "perturb")
    proc.send_signal(signal.SIGUSR1)
    _, errors = proc.communicate(timeout=60)
    said = " ".join(errors.decode().split())
    assert proc.returncode == 128 + signal.SIGUSR1, said
    assert "perturb stopped by SIGUSR1 after" in said and "no items file written" in said
    assert not out.parent.exists() or not [p.name for p in out.parent.iterdir() if p.name.endswith(".tmp")]
