"""Sub-command modules of the ``ipb`` command line.

Each module defines commands with ``@app.command()`` (or a sub-typer with
``app.add_typer``) on the shared :data:`ipb.cli.app`. :data:`ipb.cli.COMMANDS` maps every
command name to its module, which is imported the first time the command is looked up.
"""
