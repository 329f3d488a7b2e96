"""Progress lines for a long ``ipb perturb`` run, on stderr only (s59 new user F-C9).

A 100,000-item run took 25 minutes with nothing printed. :class:`RunProgress` passes the item lines through
unchanged (the items file and stdout stay byte for byte what they were) and, on its own stream, says how many of
the N items are made, every :data:`EVERY_S` seconds of wall time or every tenth of N, whichever comes first.
An item counts as made when it is written or put off to be written last (a near duplicate spooled by the
``defer`` mode, :mod:`ipb.perturb._spool`), so the count does not stall while near duplicates are put off.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, TextIO

__all__ = ["RunProgress", "EVERY_S", "duration"]

#: Seconds of wall time between two progress lines, at most.
EVERY_S = 10.0


def duration(seconds: float) -> str:
    """A wall time for people.

    >>> duration(4.2), duration(75), duration(3725)
    ('4 s', '1 min 15 s', '1 h 2 min')
    """
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class RunProgress:
    """Counts the items of a run as they pass and writes a progress line to ``stream`` now and then.

    Parameters
    ----------
    n : int
        The items asked for (``--n``).
    stream : TextIO or None
        Where the lines go (stderr); None counts silently (no ``--progress`` and stderr not a terminal).
    clock : callable
        Seconds, monotonic (tests pass their own).

    Examples
    --------
    >>> import io
    >>> ticks = iter(range(0, 100, 3))
    >>> buf = io.StringIO()
    >>> p = RunProgress(20, buf, clock=lambda: float(next(ticks)))
    >>> list(p.wrap(str(i) for i in range(20))) == [str(i) for i in range(20)]
    True
    >>> buf.getvalue().splitlines()[0], len(buf.getvalue().splitlines())
    ('perturb: 2 of 20 items made (10%), 6 s; about 54 s left at this rate', 10)
    >>> p.made
    20
    """

    def __init__(self, n: int, stream: TextIO | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.n = n
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.written = 0
        #: items made: written, or put off to be written last (the largest count seen, so it never goes back)
        self.made = 0
        self._last_time = self.start
        self._last_tenth = 0
        #: how many items are put off to be written last (a ``LineSpool``'s length), or None
        self.put_off: Callable[[], int] | None = None
        #: a ``--balance`` run: its pool of candidates is drawn before the first item comes (s59break B13)
        self.balance = False
        #: when the items began to come (the end of a balance pool): the time-left estimate counts from here
        self._phase_start: float | None = None

    def counted(self, run: Any) -> Iterator[str]:
        """The item lines of ``run`` (a :class:`ipb.perturb.generation.GenerationRun`), counted as they pass
        (:meth:`wrap`) together with the items its spool puts off to be written last."""
        self.put_off = run.spool.__len__
        return self.wrap(run.lines())

    def wrap(self, lines: Iterable[str]) -> Iterator[str]:
        """``lines`` unchanged, counted as they pass.

        In a ``--balance`` run one line says the pool pass begins (when the first item is asked for) and one
        that it has ended (when the first item comes); the time left is then estimated from the rate of the items
        alone. s59break B13: ten silent seconds of pool, then "about 1 min 37 s left" at 10% of a run that ended
        3 s later.
        """
        if self.balance:
            self._say(f"perturb: --balance: drawing a pool of candidates to choose the {self.n:,} items from; "
                      "items are counted once it is drawn")
        for line in lines:
            if self.balance and self._phase_start is None:
                self._phase_start = self._last_time = now = self.clock()
                self._say(f"perturb: balance pool drawn in {duration(now - self.start)}; writing the {self.n:,} "
                          "items chosen")
            self.written += 1
            self._tick()
            yield line

    def _say(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(text + "\n")
            self.stream.flush()

    def _tick(self) -> None:
        made = self.written + (self.put_off() if self.put_off is not None else 0)
        self.made = max(self.made, min(made, self.n))
        if self.stream is None:
            return
        now = self.clock()
        tenth = self.made * 10 // self.n if self.n else 10
        if tenth > self._last_tenth or now - self._last_time >= EVERY_S:
            self._last_tenth, self._last_time = max(tenth, self._last_tenth), now
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float | None = None) -> str:
        """``perturb: 12,000 of 100,000 items made (12%), 1 min 5 s``, with a time left once a tenth is made."""
        now = self.clock() if now is None else now
        spent = now - self.start
        text = f"perturb: {self.made:,} of {self.n:,} items made ({self.made / self.n:.0%}), {duration(spent)}"
        if self.n // 10 <= self.made < self.n and self.made and spent >= 1:
            making = now - (self._phase_start if self._phase_start is not None else self.start)
            text += f"; about {duration(making * (self.n - self.made) / self.made)} left at this rate"
        return text

    def stopped(self, signal_name: str, outputs: str, spent: float | None = None) -> str:
        """The one line said when a run is stopped by a signal: what was made, and that nothing was written;
        ``spent`` is the time to say (default: since the count started)."""
        spent = self.clock() - self.start if spent is None else spent
        return (f"perturb stopped by {signal_name} after {duration(spent)}, "
                f"{self.made:,} of {self.n:,} items made: no items file written ({outputs}); "
                "its temporary files are removed")
