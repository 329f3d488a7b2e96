"""Sub-command modules of the ``ipb`` command line.

Each module here defines commands with ``@app.command()`` on the shared
:data:`ipb.cli.app`; :func:`ipb.cli.load_commands` imports them all, so adding
a command means adding one module.
"""
