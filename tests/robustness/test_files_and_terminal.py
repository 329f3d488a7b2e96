"""Files and the terminal (issue 16): atomic writes never through symlinks, non-regular targets refused,
stale temporary files cleaned, control characters never reach the terminal raw."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb._files import STALE_AFTER_S, check_target, clean_stale, write_bytes_atomic, write_lines_atomic
from ipb.cli._app import app, printable


def test_symlink_is_replaced_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "graph.dot"
    link.symlink_to(victim)
    write_bytes_atomic(link, b"digraph {}\n")
    assert victim.read_text() == "precious\n"
    assert not link.is_symlink() and link.read_bytes() == b"digraph {}\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_target_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as info:
        write_lines_atomic(fifo, ["{}"])
    assert "FIFO" in info.value.strerror and info.value.filename == str(fifo)
    assert fifo.is_fifo()  # untouched


def test_device_and_folder_targets_are_refused(tmp_path: Path) -> None:
    if Path("/dev/null").exists():
        with pytest.raises(OSError, match="device"):
            check_target("/dev/null")
    with pytest.raises(OSError, match="folder"):
        check_target(tmp_path)


def test_stale_temporary_files_are_cleaned(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    stale = tmp_path / ".out.jsonl.abcd1234.tmp"
    fresh = tmp_path / ".out.jsonl.efgh5678.tmp"
    old_backup = tmp_path / ".out.jsonl.ijkl9012.old"
    other = tmp_path / ".other.jsonl.abcd1234.tmp"
    for p in (stale, fresh, old_backup, other):
        p.write_text("x")
    past = time.time() - STALE_AFTER_S - 60
    for p in (stale, old_backup, other):
        os.utime(p, (past, past))
    write_lines_atomic(target, ["{}"])
    assert not stale.exists() and not old_backup.exists()
    assert fresh.exists() and other.exists()  # a write in progress, and another file's leftovers
    assert clean_stale(target) == []


def test_printable_escapes_controls() -> None:
    assert printable("a\x1b[2Jb\tc\nd\x9b\u202e") == "a\\x1b[2Jb\tc\nd\\x9b\\u202e"


def test_graph_out_through_cli_never_follows_a_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "g.dot"
    link.symlink_to(victim)
    result = CliRunner().invoke(app, ["graph", "graham_net_net_screen", "--out", str(link)])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "precious\n" and link.read_text().startswith("digraph")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_graph_out_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "g.dot"
    os.mkfifo(fifo)
    result = CliRunner().invoke(app, ["graph", "graham_net_net_screen", "--out", str(fifo)])
    assert result.exit_code == 1 and "FIFO" in result.output and fifo.is_fifo()


def test_report_refuses_a_mismatched_pair(tmp_path: Path) -> None:
    from ipb._files import text_sha256
    from ipb.errors import LoadError
    from ipb.report.data import _check_pair

    path = tmp_path / "responses.jsonl"
    path.write_text('{"a": 1}\n')
    good = {"inputs": {"scored": {"sha256": text_sha256('{"a": 1}\n')}}}
    _check_pair(good, [(1, {"a": 1})], tmp_path)
    with pytest.raises(LoadError, match="do not belong together"):
        _check_pair({"inputs": {"scored": {"sha256": text_sha256("other\n")}}}, [(1, {"a": 1})], tmp_path)
    with pytest.raises(LoadError, match="holds 1 records, summary.json counts 2"):
        _check_pair({"counts": {"records": 2}}, [(1, {"a": 1})], tmp_path)



def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path: Path) -> None:
    """newuser4 (issue 20): a run killed mid-write (Ray's exit, SIGKILL) left ``.items.jsonl.XXXX.tmp``, and the
    rerun a minute later kept it. A temp file nobody holds locked is a dead writer's; one held is a live write."""
    import fcntl

    target = tmp_path / "items.jsonl"
    dead = tmp_path / ".items.jsonl.dead1234.tmp"
    live = tmp_path / ".items.jsonl.live5678.tmp"
    just_made = tmp_path / ".items.jsonl.new90123.tmp"  # between a writer's mkstemp and its lock
    other = tmp_path / ".other.jsonl.dead1234.tmp"
    for p in (dead, live, just_made, other):
        p.write_text("partial")
    a_minute_ago = time.time() - 60
    for p in (dead, live, other):
        os.utime(p, (a_minute_ago, a_minute_ago))
    holder = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another process's write in progress
        write_lines_atomic(target, ["{}"])
        assert not dead.exists()
        assert live.exists() and just_made.exists() and other.exists()
    finally:
        os.close(holder)
    assert target.read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, live.name, just_made.name, other.name])


def test_a_write_in_progress_holds_its_temporary_file_locked(tmp_path: Path) -> None:
    from ipb._files import _unlocked

    target = tmp_path / "items.jsonl"
    seen = []

    def lines():
        (tmp,) = tmp_path.glob(".items.jsonl.*.tmp")
        seen.append(_unlocked(tmp))  # what another process's clean_stale would find
        yield "{}"

    write_lines_atomic(target, lines())
    assert seen == [False] and target.read_text() == "{}\n"
    assert list(tmp_path.glob(".items.jsonl.*")) == []
