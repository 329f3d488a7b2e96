"""One error family for the whole tool.

Every error ``ipb`` raises on purpose derives from :class:`IpbError` and carries
structured fields (file, line, column, rule, name, suggestion) besides its
message, so that the command line can print ``file:line:col: message`` with a
caret under the offending spot, and so that ``ipb check`` can collect every
problem in a file instead of stopping at the first.

Lines and columns are 1-based, as editors show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

__all__ = [
    "IpbError",
    "LoadError",
    "WriteError",
    "CompileError",
    "ExecuteError",
    "PerturbError",
    "ParseError",
    "ScoreError",
    "RespondError",
    "LintWarning",
    "Location",
    "ErrorGroup",
    "did_you_mean",
    "nearest_names",
]


@dataclass(frozen=True)
class Location:
    """A position in a user's file: 1-based ``line`` and ``column``."""

    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class IpbError(Exception):
    """Root of every deliberate ``ipb`` error.

    Parameters
    ----------
    message:
        What went wrong and what was expected, in one sentence.
    file, line, column:
        Where, in the user's text (1-based line and column).
    rule:
        The grammar rule, schema keyword or lint rule that failed.
    name:
        The offending identifier (input name, gate id, key...).
    suggestion:
        A likely intended value ("did you mean ...").
    source_line:
        The text of the offending line, used to draw a caret.
    """

    phase = "error"

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        rule: str | None = None,
        name: str | None = None,
        suggestion: str | None = None,
        source_line: str | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(message)
        #: 0-based character offset inside an expression string, when the error
        #: comes from one; the card loader turns it into a file line and column.
        self.offset = offset
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.name = name
        self.suggestion = suggestion
        self.source_line = source_line

    @property
    def location(self) -> Location:
        return Location(self.file, self.line, self.column)

    def with_location(
        self,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
    ) -> "IpbError":
        """Fill in whichever of file/line/column is still unknown; returns self."""
        if self.file is None:
            self.file = file
        if self.line is None:
            self.line = line
            self.column = column
            if self.source_line is None:
                self.source_line = source_line
        return self

    def __str__(self) -> str:
        # no file and no position: no "<input>:" prefix, which would point nowhere
        where = f"{self.location}: " if self.file is not None or self.line is not None else ""
        text = f"{where}{self.phase}: {self.message}"
        if self.suggestion:
            text += f" (did you mean {self.suggestion!r}?)"
        return text

    def render(self) -> str:
        """``str(self)`` plus the offending source line and a caret under the column."""
        text = str(self)
        if self.source_line is not None and self.column is not None:
            line = self.source_line.rstrip("\n")
            # an excerpt (ipb join keeps a line's first 200 characters) ends before a far column: the caret stops
            # just past it and says where the column is (s59break B14: a 3,078-column caret line under 200 characters)
            column = max(1, min(self.column, len(line) + 1))
            past = f" (column {self.column:,}, past the {len(line):,} characters shown)" if column < self.column else ""
            text += f"\n    {line}\n    {' ' * (column - 1)}^{past}"
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "phase": self.phase,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "name": self.name,
            "suggestion": self.suggestion,
        }


class LoadError(IpbError):
    """A card, scenario or records file cannot be read (YAML, schema, values)."""

    phase = "load error"


class WriteError(LoadError):
    """An output file or folder cannot be written (a missing or read-only folder, a file where a folder must be).

    A :class:`LoadError` (existing handlers catch it), labelled ``write error``.
    """

    phase = "write error"


class ArgumentError(LoadError):
    """A command-line option has a value the command cannot use (``--workers 0``).

    A :class:`LoadError` (existing handlers catch it), labelled ``argument error``: the file and the record are fine.
    """

    phase = "argument error"


class CompileError(IpbError):
    """A card is well-formed YAML but its expressions or structure are wrong."""

    phase = "compile error"


class ExecuteError(IpbError):
    """A compiled card cannot be executed on a scenario."""

    phase = "execute error"


class PerturbError(IpbError):
    """A perturbation operator cannot produce an item."""

    phase = "perturb error"


class ParseError(IpbError):
    """A model response cannot be parsed into a gate trace."""

    phase = "parse error"


class ScoreError(IpbError):
    """A metric cannot be computed from the given traces."""

    phase = "score error"


class RespondError(ScoreError):
    """A model run (``ipb respond``) cannot build a request: an unregistered investor, a retrieval setting.

    A :class:`ScoreError` (existing handlers catch it), labelled ``respond error``.
    """

    phase = "respond error"


class LintWarning(IpbError):
    """Something legal but probably unintended (a threshold without a unit, a gate without a source).

    ``ipb check`` prints warnings and fails on them only with ``--strict``.
    """

    phase = "warning"


class ErrorGroup(IpbError):
    """Several errors found in one pass (``ipb check`` collects, not stops).

    ``errors`` keeps them in source order (file, line, column).
    """

    phase = "errors"

    def __init__(self, errors: Iterable[IpbError]) -> None:
        ordered = sorted(
            errors,
            key=lambda e: (e.file or "", e.line or 0, e.column or 0, e.message),
        )
        self.errors: list[IpbError] = ordered
        first = ordered[0] if ordered else None
        super().__init__(
            f"{len(ordered)} error(s)" + (f"; first: {first.message}" if first else ""),
            file=first.file if first else None,
            line=first.line if first else None,
            column=first.column if first else None,
        )

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)


def did_you_mean(name: str, choices: Sequence[str], cutoff: float = 70.0) -> str | None:
    """The choice closest to ``name`` by rapidfuzz's WRatio, or None below ``cutoff``.

    >>> did_you_mean("revenue_retension", ["revenue_retention", "gross_margin"])
    'revenue_retention'
    """
    if not choices:
        return None
    from rapidfuzz import fuzz, process

    best = process.extractOne(name, list(choices), scorer=fuzz.WRatio, score_cutoff=cutoff)
    return None if best is None else str(best[0])


def nearest_names(name: str, choices: Sequence[str], limit: int = 3) -> list[str]:
    """The ``limit`` choices closest to ``name`` by rapidfuzz's WRatio, closest first (ties: ``choices`` order).

    Unlike :func:`did_you_mean` there is no cutoff: a list of near names to pick from
    when nothing is close enough to guess.

    >>> nearest_names("graham_seven", ["munger_opportunity_evaluation", "graham_seven_tests_defensive"], 1)
    ['graham_seven_tests_defensive']
    """
    if not choices:
        return []
    from rapidfuzz import fuzz, process

    return [str(c) for c, _, _ in process.extract(name, list(choices), scorer=fuzz.WRatio, limit=limit)]
