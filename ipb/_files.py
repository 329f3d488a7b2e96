"""Atomic file output shared by every command that writes results.

Text goes to a temporary file in the target's folder, is flushed and
``fsync``-ed, gets the permissions a plain ``open()`` would have given it, and
replaces the target with one ``os.replace``: a reader sees the old file or the
whole new one, never a part. On any failure the temporary file is removed and
the old file is left as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TextIO

__all__ = ["write_text_atomic", "write_lines_atomic"]


def _write_atomic(path: str | Path, emit: Callable[[TextIO], None], make_parents: bool) -> None:
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if make_parents:
        folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            emit(handle)
            handle.flush()
            os.fsync(handle.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as a plain open() would have made it
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_lines_atomic(path: str | Path, lines: Iterable[str], *, make_parents: bool = False) -> None:
    """Write ``lines`` (each without its newline, each then ended by one) to ``path`` atomically.

    Parameters
    ----------
    make_parents:
        Create missing parent folders first.

    Raises
    ------
    OSError
        The folder cannot be written; the old file, if any, is untouched.
    """

    def emit(handle: TextIO) -> None:
        for line in lines:
            handle.write(line)
            handle.write("\n")

    _write_atomic(path, emit, make_parents)


def write_text_atomic(path: str | Path, text: str, *, make_parents: bool = False) -> None:
    """Write ``text`` exactly as given to ``path`` atomically (see :func:`write_lines_atomic`)."""

    def emit(handle: TextIO) -> None:
        handle.write(text)

    _write_atomic(path, emit, make_parents)
