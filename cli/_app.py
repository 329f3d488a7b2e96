"""The ``ipb`` application object, its consoles and the helpers every command shares.

Commands live one module per topic in :mod:`ipb.cli.commands` and are imported only when
asked for: :data:`COMMANDS` maps each command name to its module, and :class:`LazyGroup`
imports that module the first time click looks the command up. ``ipb run`` therefore loads
the engine and nothing of scoring, model runs or the report; ``ipb --help`` loads them all.
Adding a command means adding a module and one line in :data:`COMMANDS` (a test checks
that the table and the modules agree).

Errors are printed as ``file:line:col: phase: message`` with the offending line and a
caret; the exit status is 1 when the input has errors and 2 for a usage error.
"""

from __future__ import annotations

import importlib
import re
from decimal import Decimal
from enum import Enum
from typing import Any, Iterable

import click
import typer
from rich.console import Console
from rich.segment import Segment
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_group_from_info

from ipb.errors import ErrorGroup, IpbError

#: Command name -> the module of :mod:`ipb.cli.commands` that registers it.
COMMANDS: dict[str, str] = {
    "run": "cards",
    "check": "cards",
    "graph": "cards",
    "catalog": "cards",
    "investors": "investors",
    "perturb": "perturb",
    "verify": "perturb",
    "respond": "respond",
    "judge": "respond",
    "parse": "parse",
    "score": "score",
    "report": "report",
    "export": "export",
    "lm-eval-task": "integrations",
    "demo": "demo",
    "records": "records",
    "forecast": "forecast",
    "evidence": "evidence",
    "depgraph": "depgraph",
    "screen": "screen",
}


class LazyGroup(TyperGroup):
    """A typer group that imports a command's module on first lookup (see :data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"ipb.cli.commands.{COMMANDS[cmd_name]}")
            self._add_registered()
        return self.commands.get(cmd_name)

    def _add_registered(self) -> None:
        for info in app.registered_commands:
            command = get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                            rich_markup_mode=app.rich_markup_mode)
            if command.name and command.name not in self.commands:
                self.commands[command.name] = command
        for group_info in app.registered_groups:
            if group_info.name and group_info.name not in self.commands:
                group = get_group_from_info(group_info, pretty_exceptions_short=app.pretty_exceptions_short,
                                            suggest_commands=app.suggest_commands,
                                            rich_markup_mode=app.rich_markup_mode)
                self.commands[group_info.name] = group


app = typer.Typer(
    cls=LazyGroup,
    add_completion=False,
    no_args_is_help=True,
    help="Rule engine and decision-graph interpreter for investment framework cards (InvestPhilBench).",
)


@app.callback()
def _root() -> None:
    """Rule engine and decision-graph interpreter for investment framework cards (InvestPhilBench)."""


#: Characters never sent to a terminal as they stand: C0 controls but tab and newline, DEL, C1
#: controls, and the bidirectional overrides and isolates that can reorder what a reader sees.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character written as a visible escape (``ESC`` -> ``\\x1b``).

    Model answers, card names, file names and error messages all come from
    input; an escape sequence in one must not move the cursor, recolour the
    terminal or retitle the window.

    >>> printable("ok\\x1b[31m red\\u202e")
    'ok\\\\x1b[31m red\\\\u202e'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


class SafeConsole(Console):
    """A rich Console that prints every piece of text through :func:`printable`.

    Only the text of rendered segments is cleaned; the styles rich adds itself
    (colours, bold) are applied afterwards and stay.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style, segment.control)
            for segment in buffer
        )


out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)

_VERDICT_STYLE = {"PROCEED": "green", "REJECT": "bold red", "INCONCLUSIVE": "yellow", "N/A": "dim"}


class RunFormat(str, Enum):
    table = "table"
    json = "json"


class GraphFormat(str, Enum):
    dot = "dot"
    mermaid = "mermaid"
    svg = "svg"
    png = "png"


def _fail(exc: IpbError) -> "typer.Exit":
    errors = exc.errors if isinstance(exc, ErrorGroup) else [exc]
    for e in errors:
        err.print(e.render(), markup=False)
    if len(errors) > 1:
        err.print(f"{len(errors)} errors", markup=False)
    return typer.Exit(code=1)


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return str(value)


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def load_commands() -> None:
    """Import every command module (what ``ipb --help`` does through :class:`LazyGroup`)."""
    for module in dict.fromkeys(COMMANDS.values()):
        importlib.import_module(f"ipb.cli.commands.{module}")


def main() -> None:  # pragma: no cover - console entry point
    app()
