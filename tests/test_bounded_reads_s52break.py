"""Loaders with a size limit read at most the limit, and never from a FIFO or a device (s52break item 10).

``ipb check /dev/zero`` read the endless device into memory before the 1,000,000-character YAML limit was
applied (a MemoryError traceback under ``ulimit -v``), and ``ipb check`` on a FIFO waited for a writer for ever.
"""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb._files import read_bytes_limited, read_text_limited
from ipb.cli import app
from ipb.engine._json import load_document
from ipb.engine._yaml import MAX_YAML_CHARS, load_yaml_file
from ipb.errors import LoadError

runner = CliRunner()


def _fifo(tmp_path: Path, name: str = "f.yaml") -> Path:
    """A FIFO that a helper thread opens for writing and closes after 5 s, so a loader that blocks on it
    (the bug) reads an empty file and the test fails instead of hanging."""
    path = tmp_path / name
    os.mkfifo(path)

    def unblock() -> None:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader waiting: the loader did not block
            return
        os.close(fd)

    timer = threading.Timer(5.0, unblock)
    timer.daemon = True
    timer.start()
    return path


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes (all NUL except a first YAML line) that takes no disk space."""
    with open(path, "wb") as handle:
        handle.write(b"a: 1\n")
        handle.truncate(size)
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_check_refuses_a_fifo_and_a_device(tmp_path: Path) -> None:
    for path, kind in ((_fifo(tmp_path), "a FIFO"), (Path("/dev/zero"), "a device")):
        result = runner.invoke(app, ["check", str(path)])
        assert result.exit_code == 1, result.output
        assert f"it is {kind}; ipb reads YAML documents only from regular files" in " ".join(result.output.split())
        assert "Traceback" not in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("load", [load_yaml_file, lambda p: load_document(p, schema="forecast_task")],
                         ids=["load_yaml_file", "load_document"])
def test_loaders_refuse_a_fifo(tmp_path: Path, load) -> None:
    with pytest.raises(LoadError, match="it is a FIFO"):
        load(_fifo(tmp_path))


@pytest.mark.parametrize("load", [load_yaml_file, lambda p: load_document(p, schema="forecast_task")],
                         ids=["load_yaml_file", "load_document"])
def test_an_oversized_file_is_refused_without_reading_it_whole(tmp_path: Path, load) -> None:
    big = _sparse(tmp_path / "big.yaml", 256 * 2**20)  # 256 MiB
    tracemalloc.start()
    try:
        with pytest.raises(LoadError, match="at most 1,000,000 characters") as caught:
            load(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.rule == "yaml-size"
    # At most 4 * 1,000,000 + 4 bytes are read, and the text decoded from them: well under 64 MiB.
    assert peak < 64 * 2**20, peak
    assert MAX_YAML_CHARS == 1_000_000


def test_the_limit_counts_characters_not_bytes(tmp_path: Path) -> None:
    # Hand-worked: U+1F600 is 4 bytes in UTF-8, so 3 of them are 12 bytes and 3 characters: within a limit of 3,
    # also after a 3-byte BOM (15 bytes, under the 4 * 3 + 4 = 16-byte read); a fourth character is over it.
    path = tmp_path / "e.txt"
    path.write_bytes(("\U0001F600" * 3).encode("utf-8"))
    assert read_text_limited(path, 3) == "\U0001F600" * 3
    path.write_bytes(b"\xef\xbb\xbf" + ("\U0001F600" * 3).encode("utf-8"))
    assert read_text_limited(path, 3) == "\U0001F600" * 3
    path.write_bytes(("\U0001F600" * 3 + "a").encode("utf-8"))
    with pytest.raises(LoadError, match="is 4 characters long; ipb reads documents of at most 3 characters"):
        read_text_limited(path, 3)
    path.write_bytes(b"ab\ncd\n" * 10)  # 60 bytes > 16: refused from the first 16, at line 1 + (3 // 3) = 2
    with pytest.raises(LoadError, match="over 15 bytes long") as caught:
        read_text_limited(path, 3)
    assert caught.value.line == 2
    assert read_bytes_limited(path, 4) == b"ab\nc"
