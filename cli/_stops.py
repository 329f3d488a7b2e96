"""Stopping a writing command by a signal, shared by ``ipb perturb`` and ``ipb join`` (s59break B7-B10).

:func:`ipb.cli._app.stop_on_terminate` turns SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM (those the platform has,
:data:`ipb.cli._app.STOP_SIGNALS`) into ``SystemExit(128 + signal)`` and Python turns
SIGINT into ``KeyboardInterrupt``, so an atomic write's clean-up removes its temporary file. This module adds what
each command says and does around that:

- :func:`said_on_stop`: one line on stderr naming the signal when the block is stopped by one;
- :func:`remove_stale`: a killed run's temporary files of the outputs removed, and named, at the start of a rerun;
- :func:`outputs_complete`: once every output is renamed into place, a signal no longer turns the finished run
  into a failure: it is noted in one line and the command ends with its own exit status (0).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

__all__ = ["outputs_complete", "remove_stale", "said_on_stop", "signal_name"]

#: Set by :func:`outputs_complete`; :func:`said_on_stop` then lets a stop through as a finished run.
_COMPLETE: list[str] = []


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
        say(how)
        raise


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
