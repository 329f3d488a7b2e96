"""Item lines put off to a temporary file and read back later, in the order written (s58speedgen).

A run's near duplicates (:mod:`ipb.perturb.near`, the ``defer`` mode) are taken as items but written after the
visibly new ones. Until stop 58 the run kept only each one's (recipe, attempt) and rebuilt its scenario in the
second pass, so every deferred item ran its operator twice (the flip's anchor draws and search included). Their
share grows with N (676 of 2,000 bench items, 5,002 of 10,000), so the cost per item grew with N too. A
:class:`LineSpool` keeps the line built in the first pass instead, on disk, so memory stays flat in N and the
operator runs once; the bytes are the same, since a line is a pure function of its (recipe, attempt).
"""

from __future__ import annotations

import tempfile
from typing import IO, Iterator

__all__ = ["LineSpool"]


class LineSpool:
    """Lines (JSONL, no newline inside) written to an unnamed temporary file and read back once, in order.

    The file is made on the first :meth:`add` (a run with no deferred item makes none) and removed by
    :meth:`close` or when the object is collected.

    Examples
    --------
    >>> spool = LineSpool()
    >>> spool.add('{"id": "a"}'); spool.add('{"id": "é"}')
    >>> len(spool), list(spool.drain()), len(spool)
    (2, ['{"id": "a"}', '{"id": "é"}'], 0)
    """

    __slots__ = ("_file", "_count")

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._count = 0

    def add(self, line: str) -> None:
        """Append ``line``; ``ValueError`` if it holds a newline (it would read back as two lines)."""
        if "\n" in line:
            raise ValueError("a spooled line must not contain a newline")
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="ipb-spool-")
        self._file.write(line.encode("utf-8") + b"\n")
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def drain(self) -> Iterator[str]:
        """The lines in the order added; the file is closed (and removed) once they are all read."""
        if self._file is None:
            return
        f, self._file, self._count = self._file, None, 0
        try:
            f.seek(0)
            for raw in f:
                yield raw[:-1].decode("utf-8")
        finally:
            f.close()

    def close(self) -> None:
        """Drop the lines not yet read and remove the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._count = 0
