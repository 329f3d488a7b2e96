"""``ipb.cli``: the command line, the top of the house.

:mod:`ipb.cli._app` holds the typer application and what every command shares;
:mod:`ipb.cli.commands` holds one module per topic, imported lazily. This package may
import every other folder; nothing imports it.
"""

from ipb.cli._app import COMMANDS, app, load_commands, main

__all__ = ["COMMANDS", "app", "load_commands", "main"]
