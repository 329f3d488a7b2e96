"""Atomic file output shared by every command that writes results.

Text goes to a temporary file in the target's folder, is flushed and
``fsync``-ed, gets the permissions a plain ``open()`` would have given it, and
replaces the target with one ``os.replace``: a reader sees the old file or the
whole new one, never a part. On any failure the temporary file is removed and
the old file is left as it was. A symlink at the target is replaced, never
written through; a target that is a FIFO, device, socket or folder is refused
(:func:`check_target`); temporary files that a killed run left behind are
removed by the next write of the same target: at once when no process holds
their lock (a write locks its temporary file until the rename), else once
they are stale (:func:`clean_stale`).
"""

from __future__ import annotations

import contextlib
import errno
import glob
import hashlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TextIO

from ipb.errors import LoadError, WriteError

try:
    import fcntl
except ImportError:  # not POSIX: temporary files are then cleaned by age only
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "check_target",
    "check_writable",
    "refuse_overwriting",
    "Staging",
    "staged_outputs",
    "compressed_format",
    "compressed_note",
    "refuse_utf16",
    "refuse_utf16_file",
    "utf16_encoding",
    "clean_stale",
    "file_kind",
    "file_sha256",
    "new_folders",
    "output_lock",
    "read_bytes_limited",
    "read_text_limited",
    "text_sha256",
    "write_bytes_atomic",
    "write_lines_atomic",
    "write_path_atomic",
    "write_text_atomic",
    "write_texts_atomic",
]


#: Temporary files of an interrupted write older than this (seconds) are removed by the next write.
STALE_AFTER_S = 15 * 60
#: A ``.tmp`` file that no process holds locked (a killed writer's) and older than this (seconds) is removed by
#: the next write; the grace covers the moment between a writer's ``mkstemp`` and its lock.
UNLOCKED_AFTER_S = 5.0
#: Locks held on the temporary files this process is writing (path -> descriptor), released once replaced.
_HELD: dict[str, int] = {}

#: The random part ``tempfile.mkstemp`` puts between our prefix and suffix: eight characters of its alphabet
#: (``tempfile._RandomNameSequence``: lower-case letters, digits and ``_``). :func:`clean_stale` removes only
#: names of exactly this form, the ones :func:`_write_temp` and :func:`_replace_together` make.
_TEMP_NAME = r"[a-z0-9_]{8}"


def check_target(path: str | Path) -> None:
    """Refuse an output path that exists and is not a regular file (or a symlink, which is replaced, never followed).

    A symlink whose target (links resolved) exists and is not a regular file or a folder is refused too: a link to
    a FIFO or a device such as ``/dev/stdout`` (s61 new user N1).

    A FIFO, a device node (``/dev/full``), a socket or a folder would be
    replaced by a regular file, or block, or destroy a system file when run
    as root.

    Raises
    ------
    OSError
        ``errno.EINVAL`` with the path as ``filename``.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError:
        return  # the write itself reports an unreadable folder
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OSError(errno.EINVAL, f"it is {file_kind(mode)}; ipb writes results only to regular files", str(path))
    if stat.S_ISLNK(mode):
        # s61 new user N1: a link to a FIFO or device (``/dev/stdout`` -> ``/proc/self/fd/1``) was replaced by a
        # regular file, which as root broke the system's /dev/stdout; the link's target must be a regular file, a
        # folder or missing (a dangling link is replaced as before)
        try:
            target = os.stat(path).st_mode
        except OSError:
            return
        if not (stat.S_ISREG(target) or stat.S_ISDIR(target)):
            raise OSError(errno.EINVAL, f"it is a symbolic link to {file_kind(target)} ({os.path.realpath(path)}); "
                          "ipb writes results only to regular files and does not replace such a link", str(path))



def _same_file(a: str | Path, b: str | Path) -> bool:
    """Whether ``a`` and ``b`` name one file: :func:`os.path.samefile` (symlinks followed) when both exist, else
    their resolved paths (an output not yet written can still be another output)."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def refuse_overwriting(outputs: Mapping[str, str | Path | None],
                       inputs: Mapping[str, str | Path | None] | Iterable[tuple[str, str | Path | None]],
                       *, command: str) -> None:
    """Refuse, before any work, an output path that is one of the command's inputs or another of its outputs.

    ``outputs`` maps a flag (``"--out"``) and ``inputs`` a label (``"card
    file"``; or give (label, path) pairs) to a path; None is skipped, and so is an input that does not exist (it cannot
    be overwritten, and its loader reports it). Two paths are one file when
    :func:`os.path.samefile` says so (a symlink or hard link counts), or, for
    paths not yet there, when their resolved paths are equal. s52break item 7:
    ``ipb graph c.yaml -f svg --out c.yaml`` replaced the card with its picture.

    Raises
    ------
    WriteError
        Naming both paths (``rule="file"``), so the command exits 1 with nothing written.
    """
    pairs = inputs.items() if isinstance(inputs, Mapping) else inputs
    named_inputs = [(label, path) for label, path in pairs if path is not None and os.path.exists(path)]
    seen: list[tuple[str, str | Path]] = []
    for flag, out in outputs.items():
        if out is None:
            continue
        for label, path in [*named_inputs, *seen]:
            if _same_file(out, path):
                raise WriteError(f"{flag} {out} is the {label} {path}; ipb {command} never writes over its own inputs or "
                                 "outputs: name another file", file=str(out), rule="file")
        seen.append((f"{flag} file", out))



def _first_existing(folder: Path) -> Path:
    """The nearest of ``folder`` and its parents that exists (a path below a regular file is refused by the caller)."""
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    return folder


def check_writable(outputs: Mapping[str, str | Path | None]) -> None:
    """Refuse, before any work, an output that cannot be written, naming its flag (``--out: write error: ...``).

    ``outputs`` maps a flag to a path (None is skipped). Refused: ``-`` (which
    stands for standard input where a command reads it, and would otherwise be a
    file named ``-``); a path that is
    a folder, FIFO, device or socket (:func:`check_target`); a path whose
    nearest existing parent is not a folder; a folder where no file can be made
    (``/proc``, read-only, no permission), found by making and removing a
    temporary file there. A missing folder is not made here: its nearest
    existing parent is tried instead.

    s56fixrep: ``ipb perturb --report /proc/r.json`` failed only after ``--out``
    had been replaced; s57fixio: ``respond``, ``judge`` and ``screen`` use it too.

    Raises
    ------
    WriteError
        ``file`` is the flag, the message names the path.
    """
    for flag, given in outputs.items():
        if given is None:
            continue
        path = Path(given)
        if str(given) == "-":  # s61 new user N10: ``--out -`` wrote a file named "-" in the current folder
            raise WriteError(f"{flag} -: ipb writes this output to a file, not to standard output (- stands for "
                             f"standard input only where a command reads it); name the file, e.g. {flag} items.jsonl, "
                             f"or {flag} ./-.jsonl", file=flag, rule="file")
        try:
            check_target(path)
        except OSError as exc:
            # typer reads ``--out ''`` as Path("."): s58user F-K4 was told only "cannot write .: it is a folder"
            empty = (f" ({flag} is empty or '.', the current folder: name the file to write, e.g. {flag} items.jsonl)"
                     if str(path) == "." else "")
            raise WriteError(f"cannot write {path}: {exc.strerror}{empty}", file=flag, rule="file") from None
        above = _first_existing(path.parent if str(path.parent) else Path("."))
        if not above.is_dir():
            raise WriteError(f"cannot write {path}: {above} is not a folder", file=flag, rule="file")
        try:
            fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=above)
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {exc.strerror or exc}", file=flag, rule="file") from None
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)


class OutputBusy(WriteError):
    """Another process holds the lock of an output (:func:`output_lock`)."""


@contextlib.contextmanager
def output_lock(path: str | Path, *, flag: str = "--out") -> Iterator[None]:
    """Hold an exclusive lock on the output ``path`` for the length of the ``with`` block.

    The lock is an ``flock`` on ``.NAME.lock`` beside ``path``, made if
    missing and removed on release. A second run that names the same output
    while the first is working is refused at once, before any work, instead
    of both reporting success while the file holds only one run's lines
    (s53break item 5). The lock goes with the process (a killed run leaves a
    file no one holds, which the next run takes). Where ``fcntl`` is missing
    (not POSIX) nothing is locked, nor where the lock file cannot be made (an
    unwritable folder): the write fails there too, with its own message naming
    the output (and, on the ray backend, its checkpoints folder).

    Raises
    ------
    OutputBusy
        Another process holds the lock; the message names the output and the lock file.
    """
    if fcntl is None:
        yield
        return
    target = Path(path)
    lock = target.parent / f".{target.name}.lock"
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError:  # an unwritable folder: the write itself fails there, with its own message naming the output
            yield        # (and the ray backend's naming its checkpoints folder), so nothing is locked
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OutputBusy(f"{flag} {target} is being written by another ipb run (it holds {lock}); wait for it to "
                             "finish or name another file", file=str(target), rule="file") from None
        try:  # the file locked must still be the one at ``lock`` (a run finishing removes it): else lock again
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still held, so that no run waits on a file no longer there
        os.close(fd)


#: The most bytes one character takes in UTF-8: past a BOM, ``4 * n + 1`` bytes hold more than ``n`` characters.
_UTF8_MAX = 4


def read_bytes_limited(path: str | os.PathLike[str], max_bytes: int, *, what: str = "file") -> bytes:
    """At most ``max_bytes`` bytes from the start of the regular file at ``path`` (-1: all of it).

    The file is opened without blocking and checked with ``fstat`` before a
    byte is read: a FIFO (which would wait for a writer for ever), a device
    (``/dev/zero`` never ends) or a folder is refused (s52break item 10:
    ``ipb check /dev/zero`` filled memory and ``ipb check`` on a FIFO hung).

    Raises
    ------
    LoadError
        Rule ``file``: the file is missing, unreadable or not a regular file.
    """
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from None
    with open(fd, "rb", closefd=True) as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise LoadError(f"cannot read {name}: it is {file_kind(mode)}; ipb reads {what}s only from "
                            "regular files", file=name, rule="file")
        try:
            return handle.read(max_bytes)
        except OSError as exc:
            raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from None


def read_text_limited(path: str | os.PathLike[str], max_chars: int, *, what: str = "document") -> str:
    """The UTF-8 text of the regular file at ``path`` (:func:`read_bytes_limited`), reading at most
    ``4 * max_chars + 4`` bytes: the most a byte-order mark and ``max_chars`` UTF-8 characters can take, plus one.

    A file longer than ``max_chars`` characters is refused at the line its
    limit falls on, without the rest of it being read. A leading byte-order
    mark is dropped.

    Raises
    ------
    LoadError
        Rule ``file`` (as :func:`read_bytes_limited`), ``encoding`` (not UTF-8,
        with the line and column of the first bad byte) or ``yaml-size`` (over
        ``max_chars``; the message gives the limit).
    """
    name = str(path)
    cap = _UTF8_MAX * max_chars + 4
    raw = read_bytes_limited(path, cap, what=what)
    full = len(raw) == cap  # more than max_chars characters, whatever they are: the rest was never read
    refuse_utf16(raw[:UTF16_SNIFF], name, what)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8", "replace") if full else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise LoadError(f"{name} is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
                        file=name, line=line, column=column, rule="encoding") from None
    if full or len(text) > max_chars:
        line = text.count("\n", 0, max_chars) + 1
        size = f"over {cap - 1:,} bytes" if full else f"{len(text):,} characters"
        raise LoadError(f"the {what} is {size} long; ipb reads {what}s of at most {max_chars:,} characters",
                        file=name, line=line, column=1, rule="yaml-size")
    return text


#: The first bytes of the compressed and archive formats a results or items file is most often given in by mistake.
_MAGIC = ((b"\x1f\x8b", "gzip", "gunzip -k"), (b"BZh", "bzip2", "bunzip2 -k"),
          (b"\xfd7zXZ\x00", "xz", "unxz -k"), (b"\x28\xb5\x2f\xfd", "zstd", "unzstd"),
          (b"PK\x03\x04", "zip", "unzip"))


def compressed_format(head: bytes) -> tuple[str, str] | None:
    r"""(format, the command that unpacks it) when ``head``, a file's first bytes, starts like a compressed file
    or an archive; None for anything else (JSON Lines text starts with ``{``, a blank or a byte-order mark).

    >>> compressed_format(b"\x1f\x8b\x08\x00")
    ('gzip', 'gunzip -k')
    >>> compressed_format(b'{"id": 1}') is None
    True
    """
    for magic, name, command in _MAGIC:
        if head.startswith(magic):
            return name, command
    return None


def compressed_note(path: str | Path) -> str:
    """``": it is compressed (gzip): unpack it first (gunzip -k PATH)"`` when the file at ``path`` starts like a
    compressed file or an archive (:func:`compressed_format`), else ``""``: the end of a "not UTF-8" error."""
    try:
        with open(path, "rb") as handle:
            packed = compressed_format(handle.read(8))
    except OSError:
        return ""
    if packed is None:
        return ""
    return f": it is compressed ({packed[0]}), not JSON Lines text: unpack it first ({packed[1]} {path})"


#: How many of a file's first bytes :func:`utf16_encoding` looks at.
UTF16_SNIFF = 64


def utf16_encoding(head: bytes) -> tuple[str, bool] | None:
    r"""(``"utf-16-le"`` or ``"utf-16-be"``, whether a byte-order mark opens it) when ``head``, a file's first bytes
    (:data:`UTF16_SNIFF` are enough), is UTF-16 text; None for anything else.

    A UTF-16 byte-order mark gives the order. Without one (s63 new user B3: PowerShell's ``Out-File -Encoding
    Unicode`` after a strip, or a script's ``encode("utf-16-le")``), the NUL bytes tell it: UTF-8 JSON and YAML
    hold none, and UTF-16 text in the Latin range has one in every other byte, the odd ones in little-endian
    (``{`` is ``7b 00``), the even ones in big-endian. At least half of the two-byte units must show it, and
    the other positions at most a quarter as many NULs.

    >>> utf16_encoding('{"id": "x"}'.encode("utf-16-le"))
    ('utf-16-le', False)
    >>> utf16_encoding("a: 1".encode("utf-16"))[1]
    True
    >>> utf16_encoding(b'{"id": "x"}') is None
    True
    """
    if head[:2] == b"\xff\xfe":
        return "utf-16-le", True
    if head[:2] == b"\xfe\xff":
        return "utf-16-be", True
    head = head[:UTF16_SNIFF]
    units = len(head) // 2
    if not units:
        return None
    even = head[0:units * 2:2].count(0)  # the first byte of each unit
    odd = head[1:units * 2:2].count(0)
    if 2 * odd >= units and 4 * even <= odd:
        return "utf-16-le", False
    if 2 * even >= units and 4 * odd <= even:
        return "utf-16-be", False
    return None


def refuse_utf16(head: bytes, name: str, what: str) -> None:
    """A LoadError (rule ``encoding``, line 1 column 1) when ``head``, the first bytes of the ``what`` file
    ``name`` ("items file", "YAML document"), is UTF-16 text (:func:`utf16_encoding`), with or without a byte-order
    mark: the message names the encoding found and the one to save it in, and an ``iconv`` command that does it.
    ipb writes and reads its files as UTF-8; only ``ipb score``'s responses files and ``ipb parse``'s answers are
    also read as UTF-16 (answers are written by many tools). Without this a BOM-less file was "not JSON" at line 1
    (s63 new user B3)."""
    found = utf16_encoding(head)
    if found is None:
        return
    encoding, bom = found
    order = "little-endian" if encoding.endswith("le") else "big-endian"
    mark = "with" if bom else "without"
    source = "UTF-16" if bom else encoding.upper().replace("-16-", "-16")
    raise LoadError(f"{name} is UTF-16 text ({order}, {mark} a byte-order mark), not UTF-8: ipb reads the {what} as "
                    f"UTF-8; save it as UTF-8 (iconv -f {source} -t UTF-8 {name} > NEW_FILE)",
                    file=name, line=1, column=1, rule="encoding")


def refuse_utf16_file(path: str | os.PathLike[str], name: str, what: str) -> None:
    """:func:`refuse_utf16` on the first :data:`UTF16_SNIFF` bytes of the file at ``path``, for a reader that opens
    the file again afterwards (``ipb verify``'s and ``ipb respond``'s items files). A file that cannot be opened or
    read is left to that reading, which says why."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(UTF16_SNIFF)
    except OSError:
        return
    refuse_utf16(head, name, what)


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words: "a regular file", "a folder", "a FIFO", "a device"...

    >>> file_kind(stat.S_IFIFO | 0o644)
    'a FIFO'
    """
    return ("a regular file" if stat.S_ISREG(mode) else "a folder" if stat.S_ISDIR(mode) else
            "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file")


def clean_stale(target: Path, *, now: float | None = None, unlocked_after: float = UNLOCKED_AFTER_S) -> list[str]:
    """Remove temporary files (``.NAME.XXXXXXXX.tmp``/``.old``) that an interrupted write of ``target`` left.

    Files older than :data:`STALE_AFTER_S` go. So does a ``.tmp`` file older
    than :data:`UNLOCKED_AFTER_S` that no process holds locked: every write
    holds an exclusive ``flock`` on its temporary file until it is renamed,
    so an unlocked one belongs to a writer that was killed (SIGKILL, the
    OOM killer, Ray's own exit) and a rerun removes it at once (issue 20).
    A caller that holds the target's output lock passes ``now`` = the time
    it started and ``unlocked_after=0``: every unlocked ``.tmp`` file
    modified before then is a killed run's (s59 new user F-C10).
    Returns the names removed.
    """
    folder = target.parent if str(target.parent) else Path(".")
    now = time.time() if now is None else now
    removed: list[str] = []
    own = re.compile(re.escape(f".{target.name}.") + _TEMP_NAME + r"\.(?:tmp|old)")
    for pattern in (f".{glob.escape(target.name)}.*.tmp", f".{glob.escape(target.name)}.*.old"):
        for leftover in folder.glob(pattern):
            if not own.fullmatch(leftover.name):  # a user's ".items.jsonl.my-notes.tmp" is not ours (s59 B4)
                continue
            with contextlib.suppress(OSError):
                info = os.lstat(leftover)
                if not stat.S_ISREG(info.st_mode) or str(leftover) in _HELD:
                    continue
                age = now - info.st_mtime
                if age > STALE_AFTER_S or (leftover.suffix == ".tmp" and age > unlocked_after
                                           and _unlocked(leftover)):
                    os.unlink(leftover)
                    removed.append(leftover.name)
    return removed


def _unlocked(path: Path) -> bool:
    """Whether no process holds a ``flock`` on ``path`` (False where that cannot be told)."""
    if fcntl is None:
        return False
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # also drops the lock just taken
    return True


def _hold(tmp: str) -> None:
    """Lock ``tmp`` (exclusive ``flock``) until :func:`_release`: the mark of a write in progress."""
    if fcntl is None:
        return
    fd = os.open(tmp, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    _HELD[tmp] = fd


def _release(tmp: str) -> None:
    fd = _HELD.pop(tmp, None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def _write_temp(target: Path, fill: Callable[[int, str], None]) -> str:
    """A flushed, fsync-ed temporary file beside ``target`` holding what ``fill`` wrote; its path.

    ``fill(fd, tmp)`` gets the open descriptor of a new file (made by
    ``mkstemp``, so never a symlink someone placed there) and its name; it
    writes the content and closes ``fd``. The file then gets the mode a plain
    ``open()`` would have given it (0644 under umask 022, not ``mkstemp``'s 0600).
    """
    check_target(target)
    clean_stale(target)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:  # name the file the user asked for, not the temporary name tried beside it
        exc.filename = str(target)
        raise
    try:
        _hold(tmp)
        fill(fd, tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _release(tmp)
        raise
    return tmp


def _write_atomic(path: str | Path, fill: Callable[[int, str], None], make_parents: bool) -> None:
    """Write ``path`` through :func:`_write_temp` and one ``os.replace``; the old file stays on any failure."""
    target = Path(path)
    if make_parents:
        (target.parent if str(target.parent) else Path(".")).mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(target, fill)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        _release(tmp)


def _text_fill(emit: Callable[[TextIO], None]) -> Callable[[int, str], None]:
    """A ``fill`` for :func:`_write_temp` that writes UTF-8 text with ``\\n`` line ends through ``emit``."""
    def fill(fd: int, _tmp: str) -> None:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            emit(handle)

    return fill


def _writer(text: str) -> Callable[[TextIO], None]:
    def emit(handle: TextIO) -> None:
        handle.write(text)

    return emit


def write_texts_atomic(texts: Mapping[str | Path, str]) -> None:
    """Replace several files together: every one gets its new text, or (on failure) every one keeps its old.

    Each text is first written to a temporary file beside its target; only
    when all are written are the targets replaced, in order
    (:func:`_replace_together`). A reader may see the new version of one file
    and the old of another for the moment between two renames.

    Raises
    ------
    OSError
        A file cannot be written or replaced; ``filename`` names it. Nothing is left changed.
    """
    with staged_outputs() as stage:
        for target, text in texts.items():
            stage.text(target, text)


def _replace_together(pairs: list[tuple[Path, str]]) -> None:
    """Put each temporary file ``tmp`` of ``pairs`` (target, tmp) in place of its target, in order.

    If a replacement fails (a read-only or immutable target, a folder in the
    way), the targets already replaced get their old contents back, new files
    are removed and the temporary files not yet used are removed; the
    ``OSError`` is raised again with ``filename`` naming the target.
    """
    backups: list[str | None] = []
    done = 0
    try:
        for target, _tmp in pairs:
            backup = None
            if target.is_file():
                fd, backup = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent)
                os.close(fd)
                try:
                    os.unlink(backup)
                    os.link(target, backup)  # the old contents, kept without copying
                except OSError:
                    shutil.copy2(target, backup)
            backups.append(backup)
        for target, tmp in pairs:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                if exc.filename is None or str(exc.filename) == tmp:
                    exc.filename = str(target)
                raise
            done += 1
    except BaseException:
        for (target, _tmp), backup in list(zip(pairs, backups))[:done]:
            with contextlib.suppress(OSError):
                if backup is not None:
                    os.replace(backup, target)
                else:
                    os.unlink(target)
        for _target, tmp in pairs[done:]:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    finally:
        for _target, tmp in pairs:
            _release(tmp)
        for backup in backups:
            if backup is not None:
                with contextlib.suppress(OSError):
                    os.unlink(backup)


class Staging:
    """Output files written now under temporary names beside their targets, put in place together later.

    :meth:`lines` and :meth:`text` each write a complete, fsync-ed temporary
    file (as :func:`write_lines_atomic` does) and no target changes;
    :meth:`commit` then renames them all, in the order they were staged
    (:func:`_replace_together`: on a failed rename the targets already renamed
    get their old bytes back); :meth:`discard` removes them. Use it through
    :func:`staged_outputs`.

    What is still not atomic: the renames are one per file, so for the moment
    between two of them (or if the process is killed there) a reader sees the
    new first file beside the old second one.
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, str]] = []

    def _stage(self, path: str | Path, fill: Callable[[int, str], None]) -> None:
        target = Path(path)
        try:
            self._staged.append((target, _write_temp(target, fill)))
        except OSError as exc:  # name the user's file, never the temporary one beside it
            exc.filename = str(target)
            raise

    def lines(self, path: str | Path, lines: Iterable[str]) -> None:
        """Stage ``lines`` (each without its newline) for ``path``."""
        self._stage(path, _text_fill(_lines_writer(lines)))

    def text(self, path: str | Path, text: str) -> None:
        """Stage ``text``, exactly as given, for ``path``."""
        self._stage(path, _text_fill(_writer(text)))

    def commit(self) -> None:
        """Rename every staged file onto its target (see the class's note on what is not atomic)."""
        staged, self._staged = self._staged, []
        _replace_together(staged)

    def discard(self) -> None:
        """Remove every staged temporary file; no target changes."""
        staged, self._staged = self._staged, []
        for _target, tmp in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            _release(tmp)


@contextlib.contextmanager
def staged_outputs() -> Iterator[Staging]:
    """A :class:`Staging` whose files are committed when the block ends normally and discarded when it raises.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with staged_outputs() as stage:
    ...     stage.lines(folder / "a.jsonl", ["1", "2"])
    ...     stage.text(folder / "b.json", "{}")
    ...     sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    []
    >>> (folder / "a.jsonl").read_text(), (folder / "b.json").read_text()
    ('1\\n2\\n', '{}')
    >>> shutil.rmtree(folder)
    """
    stage = Staging()
    try:
        yield stage
    except BaseException:
        stage.discard()
        raise
    stage.commit()


#: :func:`write_lines_atomic` writes its lines in blocks of about this many characters.
WRITE_BLOCK = 1 << 16


def _lines_writer(lines: Iterable[str]) -> Callable[[TextIO], None]:
    """An ``emit`` writing ``lines``, each ended by one newline, in blocks of about :data:`WRITE_BLOCK` characters."""

    def emit(handle: TextIO) -> None:
        # lines are joined into blocks of about WRITE_BLOCK characters: one write per block, not two per line
        block: list[str] = []
        size = 0
        for line in lines:
            block.append(line)
            size += len(line)
            if size >= WRITE_BLOCK:
                block.append("")
                handle.write("\n".join(block))
                block, size = [], 0
        if block:
            block.append("")
            handle.write("\n".join(block))

    return emit


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
    _write_atomic(path, _text_fill(_lines_writer(lines)), make_parents)


def write_text_atomic(path: str | Path, text: str, *, make_parents: bool = False) -> None:
    """Write ``text`` exactly as given to ``path`` atomically (see :func:`write_lines_atomic`)."""

    _write_atomic(path, _text_fill(_writer(text)), make_parents)


def write_bytes_atomic(path: str | Path, data: bytes, *, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`write_lines_atomic`): a symlink at ``path`` is
    replaced, never written through, and a FIFO or device there is refused."""

    def fill(fd: int, _tmp: str) -> None:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)

    _write_atomic(path, fill, make_parents)


def write_path_atomic(path: str | Path, write: Callable[[str], None], *, make_parents: bool = False) -> None:
    """Write ``path`` atomically through a library that writes to a file name itself (pyarrow's Parquet, CSV and
    Arrow writers): ``write(tmp)`` fills a temporary file beside ``path``, which then replaces it.

    Same rules as :func:`write_bytes_atomic`: a FIFO, device, socket or folder at ``path`` is refused before
    anything is written, a symlink is replaced (never written through), stale temporary files of an
    interrupted write are removed, and the file gets the mode a plain ``open()`` would give (0644 under
    umask 022, not ``mkstemp``'s 0600).
    """

    def fill(fd: int, tmp: str) -> None:
        os.close(fd)
        write(tmp)

    _write_atomic(path, fill, make_parents)


def text_sha256(text: str) -> str:
    """SHA-256 (hex) of ``text`` in UTF-8; lone surrogates are encoded as they stand, never an error."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def file_sha256(path: str | Path) -> str | None:
    """SHA-256 (hex) of a file's bytes, read in 1 MiB chunks; None when it cannot be read."""
    try:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


@contextlib.contextmanager
def new_folders(folders: Iterable[Path]) -> Iterator[None]:
    """Make each missing folder of ``folders`` (with its parents); if the block then raises, remove again the ones
    made here that are still empty (s59break B14: a refused ``--strict-mix`` run left a new empty ``--out`` folder).
    ``ipb perturb`` and :func:`ipb.perturb.join.join_items` write their outputs inside it.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> try:
    ...     with new_folders([root / "a" / "b"]):
    ...         raise ValueError("refused")
    ... except ValueError:
    ...     pass
    >>> sorted(p.name for p in root.iterdir())
    []
    """
    made: list[Path] = []
    for folder in folders:
        missing = [p for p in (folder, *folder.parents) if not os.path.lexists(p)]
        folder.mkdir(parents=True, exist_ok=True)
        made.extend(missing)  # deepest first
    try:
        yield
    except BaseException:
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty folder goes
        raise
