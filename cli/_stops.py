"""Stopping a writing command by a signal, shared by ``ipb perturb`` and ``ipb join`` (s59break B7-B10).

:func:`ipb.cli._app.stop_on_terminate` turns SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM (those the platform has,
:data:`ipb.cli._app.STOP_SIGNALS`) into ``SystemExit(128 + signal)`` and Python turns
SIGINT into ``KeyboardInterrupt``, so an atomic write's clean-up removes its temporary file. This module adds what
each command says and does around that:

- :func:`said_on_stop`: one line on stderr naming the signal when the block is stopped by one;
- :func:`remove_stale`: a killed run's temporary files of the outputs removed, and named, at the start of a rerun;
- :func:`outputs_complete`: once every output is renamed into place, a signal no longer turns the finished run
  into a failure: it is noted in one line and the command ends with its own exit status (0);
- :func:`stop_status` and :func:`said_at_top`: every other command (``score``, ``report``, ``parse``, ``verify``,
  ``check``, ``respond`` before its first request, ...) and a stop during start-up (the imports) end in
  :func:`ipb.cli._app.main` with one line and exit 128 + n, never a traceback (s63 new user B1, B2).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

__all__ = ["mark_said", "outputs_complete", "remove_stale", "said_at_top", "said_on_stop", "signal_name",
           "stop_status"]

#: Set by :func:`outputs_complete`; :func:`said_on_stop` then lets a stop through as a finished run.
_COMPLETE: list[str] = []
#: Set once a command has said in its own words that it was stopped: :func:`said_at_top` then says nothing more.
_SAID: list[str] = []


def signal_name(number: int) -> str:
    """``SIGTERM`` for 15; ``signal 99`` for a number no signal has.

    >>> signal_name(15), signal_name(99)
    ('SIGTERM', 'signal 99')
    """
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _stop_of(exc: BaseException) -> Optional[str]:
    """The signal a ``KeyboardInterrupt`` or ``SystemExit(128 + n)`` stands for, or None."""
    if isinstance(exc, KeyboardInterrupt):
        return "SIGINT (Ctrl-C)"
    if isinstance(exc, SystemExit) and isinstance(exc.code, int) and exc.code > 128:
        return signal_name(exc.code - 128)
    return None


@contextlib.contextmanager
def said_on_stop(say: Callable[[str], None]) -> Iterator[None]:
    """Call ``say(signal)`` once when the block is stopped by a signal, then let the stop go on (exit 128 + n).

    A stop that comes after :func:`outputs_complete` (the outputs already in place) is not a failure: it is noted
    on stderr and swallowed, so the command goes on to its summary and exits 0.
    """
    _COMPLETE.clear()
    try:
        yield
    except (KeyboardInterrupt, SystemExit) as exc:
        how = _stop_of(exc)
        if how is None:
            raise
        if _COMPLETE:
            _note_late(how)
            return
        mark_said(how)
        say(how)
        raise


def mark_said(how: str) -> None:
    """Note that the command has told the stop (``how``) itself, so that :func:`said_at_top` adds no second line."""
    _SAID[:] = [how]


def stop_status(exc: BaseException) -> Optional[int]:
    """The exit status of a stop by a signal (130 for Ctrl-C, 128 + n for another), or None for anything else.

    A ``KeyboardInterrupt`` is 130; ``SystemExit(128 + n)`` (:func:`ipb.cli._app.stop_on_terminate`, or typer's
    ``Exit(130)`` after it caught a Ctrl-C) keeps its status.

    >>> stop_status(KeyboardInterrupt()), stop_status(SystemExit(143)), stop_status(SystemExit(1))
    (130, 143, None)
    """
    if isinstance(exc, KeyboardInterrupt):
        return 130
    if isinstance(exc, SystemExit) and isinstance(exc.code, int) and 128 < exc.code < 128 + 65:
        return exc.code
    return None


def _option(args: Sequence[str], *names: str) -> Optional[str]:
    """The value of the first of ``names`` on the command line ``args`` (``--out X`` or ``--out=X``), or None."""
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if name.startswith("--") and arg.startswith(name + "="):
                return arg[len(name) + 1:]
    return None


def _kept(path: str) -> str:
    import os

    return f"{path} kept as it was" if os.path.lexists(path) else f"{path} not made"


def _what_written(command: str, args: Sequence[str]) -> str:
    """What a stopped ``command`` (run with ``args``, the words after it) left: its outputs are written whole at the
    end (atomic renames, :mod:`ipb._files`), so a stop before then leaves none of them, new or partial."""
    if command == "score":
        out = _option(args, "--out", "-o")
        return "no results written" + (f" ({_kept(out)})" if out else "")
    if command == "report":
        return f"no report written ({_kept(_option(args, '--out', '-o') or 'report.html')})"
    if command == "respond":
        out = _option(args, "--out", "-o")
        return "no request sent, no record written" + (f" ({_kept(out)})" if out else "")
    if command in ("parse", "verify", "check", "explain", "run", "catalog", "investors", "schema", "depgraph"):
        return "nothing written"
    return "no output left partial (each is written whole at the end, or not at all)"


def said_at_top(argv: Sequence[str], status: int, seconds: float) -> None:
    """Say, in one line on stderr, that the ``ipb`` command of ``argv`` was stopped by the signal of exit ``status``
    after ``seconds`` and what it wrote, unless the command said so itself (:func:`said_on_stop`, :func:`mark_said`)
    or its outputs were already complete.

    ``score stopped by SIGINT (Ctrl-C) after 8 s: no results written (out not made)``: the same form as
    ``ipb perturb``'s and ``ipb join``'s lines (s63 new user B1: a 50-line traceback ending in KeyboardInterrupt).
    """
    if _SAID or _COMPLETE:
        return
    from ipb.perturb._progress import duration

    how = "SIGINT (Ctrl-C)" if status == 130 else signal_name(status - 128)
    words = [a for a in argv]
    command = next((a for a in words if not a.startswith("-")), "ipb")
    rest = words[words.index(command) + 1:] if command in words else []
    when = " during start-up" if command == "respond" else ""
    try:
        sys.stderr.write(f"{command} stopped by {how}{when} after {duration(seconds)}: "
                         f"{_what_written(command, rest)}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _note_late(how: str) -> None:
    sys.stderr.write(f"{how} arrived after the outputs were complete ({_COMPLETE[0]}); the run finishes (exit 0)\n")
    sys.stderr.flush()


def outputs_complete(outputs: str) -> None:
    """Mark the outputs (``outputs``, said in the note) as renamed into place.

    In the ``ipb`` console process SIGINT and the :data:`ipb.cli._app.STOP_SIGNALS` from now on only print a note: the command's remaining
    work (its summary, closing a worker pool) is not cut short into a failing exit status. Under a test runner or an
    embedding program the handlers are left alone; :func:`said_on_stop` still turns a late stop into success.
    """
    from ipb.cli import _app

    _COMPLETE[:] = [outputs]
    if not _app.CONSOLE_PROCESS:
        return

    def late(signum: int, frame: object) -> None:
        _note_late(signal_name(signum) if signum != signal.SIGINT else "SIGINT (Ctrl-C)")

    for name in (*_app.STOP_SIGNALS, "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), late)


def remove_stale(targets: Sequence[Optional[Path]], started: float, say: Callable[[str], None]) -> None:
    """Remove, and say so, the temporary files of ``targets`` that a killed run left (s59 new user F-C10, s59break B7).

    Only names of the tool's own form (``.NAME.XXXXXXXX.tmp``/``.old``, :func:`ipb._files.clean_stale`), modified
    before ``started`` and locked by no process. The caller holds the output lock, so no other ipb is writing them.
    """
    from ipb._files import clean_stale

    for target in targets:
        if target is None:
            continue
        removed = clean_stale(target, now=started, unlocked_after=0.0)
        if removed:
            say(f"removed {len(removed)} temporary file(s) of {target} left by an interrupted run: " + ", ".join(removed))
