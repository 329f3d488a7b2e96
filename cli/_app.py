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

import errno
import importlib
import json
import os
import re
import sys
from decimal import Decimal
from pathlib import Path
from enum import Enum
from typing import TYPE_CHECKING, Any, Iterable

import typer
from rich.console import Console
from rich.segment import Segment
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_group_from_info

from ipb.errors import ErrorGroup, IpbError, WriteError

if TYPE_CHECKING:  # typer >= 0.16 carries its own click (typer._click); annotations only
    from typer import _click as click

#: Command name -> the module of :mod:`ipb.cli.commands` that registers it.
COMMANDS: dict[str, str] = {
    "run": "cards",
    "check": "cards",
    "explain": "cards",
    "schema": "schema",
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
    "join": "join",
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
#: controls, the line and paragraph separators, and every Unicode format character (category Cf):
#: the bidirectional embeddings, overrides, isolates and marks (U+202A-202E, U+2066-2069, U+200E/F,
#: U+061C) that reorder what a reader sees, zero-width spaces, the byte-order mark, invisible
#: operators, tags. Kept: the zero-width (non-)joiners U+200C/U+200D, which Persian, Indic scripts
#: and emoji need to render. (A test checks this list against ``unicodedata``.)
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every control character written as a visible escape (``ESC`` -> ``\\x1b``).

    Model answers, card names, file names and error messages all come from
    input; an escape sequence in one must not move the cursor, recolour the
    terminal or retitle the window.

    >>> printable("ok\\x1b[31m red\\u202e")
    'ok\\\\x1b[31m red\\\\u202e'
    >>> printable("gpt\\u200f-\\u2067x\\u2069 \\u200d")
    'gpt\\\\u200f-\\\\u2067x\\\\u2069 \\u200d'
    """
    return _CONTROL.sub(lambda m: _escaped(m.group()), text)


def json_printable(text: str) -> str:
    """JSON text with every character :func:`printable` escapes written as a JSON ``\\uXXXX`` escape.

    For JSON printed to standard output with ``ensure_ascii=False`` (``ipb parse --format json``):
    the value is unchanged for any JSON reader (such characters occur only inside strings, and
    ``json.dumps`` already escapes C0 controls), but a terminal shows the escape, not a reordered line.

    >>> json_printable('{"model": "gpt\u202e-x"}')
    '{"model": "gpt\\\\u202e-x"}'
    """
    return _CONTROL.sub(lambda m: json.dumps(m.group())[1:-1], text)


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

    def on_broken_pipe(self) -> None:
        """A closed standard output: rich's own handling (standard output pointed at the null device, so the last
        flush does not fail), then a :class:`BrokenPipeError` instead of rich's ``SystemExit(1)``, so that
        :func:`closed_stdout_ok` can let the command end with its own exit status (s61 new user N13)."""
        self.quiet = True
        if not self.stderr:
            _null_stdout()
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    def _check_buffer(self) -> None:
        """rich's write of the buffer, with a failure to write standard output other than a closed pipe (a full
        device: ``ipb verify ITEMS > /dev/full``, s62 new user N7) raised as :class:`StandardOutputError`, which
        :func:`main` reports in one line, instead of an ``OSError`` traceback."""
        try:
            super()._check_buffer()
        except BrokenPipeError:
            raise
        except OSError as exc:
            if self.stderr:
                raise
            self.quiet = True
            raise _stdout_failed(exc) from None


class StandardOutputError(Exception):
    """Standard output could not be written for a reason other than a closed pipe (``ENOSPC`` on a full device,
    ``EIO``; s62 new user N7). :func:`main` prints :attr:`message` on standard error and exits 1. Not an
    ``OSError``, so that no command's handler of a failed ``--out`` write files it against a path."""

    def __init__(self, error: OSError) -> None:
        self.error = error
        self.message = f"ipb: cannot write standard output: {error.strerror or error}; what it holds is incomplete"
        super().__init__(self.message)


def _stdout_failed(exc: OSError) -> StandardOutputError:
    """Point standard output at the null device (the interpreter's last flush must not fail again) and return the
    :class:`StandardOutputError` to raise for ``exc``."""
    _null_stdout()
    return StandardOutputError(exc)


def write_stdout(text: str) -> None:
    """``sys.stdout.write(text)`` for output printed around the console (JSON of ``ipb parse``, dry-run requests), a
    failure other than a closed pipe raised as :class:`StandardOutputError` (s62 new user N7)."""
    try:
        sys.stdout.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _stdout_failed(exc) from None


def flush_stdout() -> None:
    """``sys.stdout.flush()``, a failure other than a closed pipe raised as :class:`StandardOutputError` (:func:`main`
    flushes here at the end, where the interpreter's own last flush would print ``Exception ignored ... OSError``
    and exit 120)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _stdout_failed(exc) from None



class _ClosedStdout:
    """``with closed_stdout_ok():`` around a command's report on standard output: a reader that stops reading
    (``ipb verify ITEMS | head -c 10``) ends the report there, silently, and the command goes on to its own exit
    status. Click's own handling exits 1 on a closed standard output, which a script reads as a failed verify (s61
    new user N13). Standard output is pointed at the null device, so later prints and the interpreter's last
    flush do not fail again."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        if not isinstance(exc, BrokenPipeError):
            return False
        out.quiet = True
        _null_stdout()
        return True


def _null_stdout() -> None:
    """Point standard output's descriptor at the null device (a reader that left: nothing more can reach it)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # replaced by a test runner's capture: nothing to point
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def closed_stdout_ok() -> _ClosedStdout:
    """A context in which a closed standard output (a pipe whose reader left) ends the printing quietly
    (:class:`_ClosedStdout`)."""
    return _ClosedStdout()


# emoji=False: rich would turn "file.yaml:100:14:" into "file.yaml💯14:" (its ":100:" emoji code)
out = SafeConsole(highlight=False, soft_wrap=True, emoji=False)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True, emoji=False)

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


INVESTORS_HELP = ("A registry file of your own investors (the schema of the bundled frameworks/investors.yaml; its "
                  "schools or the bundled ones), added to the bundled registry so that FM-4, attribution and "
                  "condition B apply to cards outside the package (repeatable; also IPB_INVESTORS).")


def use_investor_files(paths: list[Path] | None) -> None:
    """Add ``--investors`` files to the registry for this command (none: only the bundled one and IPB_INVESTORS).

    Raises the registry's :class:`ErrorGroup` (file:line:col) on a bad file.
    """
    from ipb.engine.investors import use_investors

    use_investors(*(paths or ()))


class investor_files_env:
    """While open, ``IPB_INVESTORS`` also names the ``--investors`` files (absolute paths, after the variable's own),
    so that worker processes started without fork, and a local Ray instance, read the registry this process reads;
    the variable is put back on exit. ``ipb perturb`` and ``ipb verify`` (s62 new user N8): ``--investors FILE``
    means what ``IPB_INVESTORS=FILE`` means, as for ``ipb respond``; a file named both ways is read once.
    """

    def __init__(self, paths: list[Path] | None) -> None:
        self.paths = [str(Path(p).resolve()) for p in paths or ()]
        self.before: str | None = None

    def __enter__(self) -> "investor_files_env":
        from ipb.engine.investors import INVESTORS_ENV

        self.before = os.environ.get(INVESTORS_ENV)
        if self.paths:
            os.environ[INVESTORS_ENV] = os.pathsep.join([p for p in (self.before or "").split(os.pathsep) if p.strip()]
                                                        + self.paths)
        return self

    def __exit__(self, *exc: object) -> None:
        from ipb.engine.investors import INVESTORS_ENV

        if not self.paths:
            return
        if self.before is None:
            os.environ.pop(INVESTORS_ENV, None)
        else:
            os.environ[INVESTORS_ENV] = self.before


def _write_failed(exc: OSError, target: Path | None, flag: str | None = None) -> "typer.Exit":
    """Print a ``write error`` naming ``flag`` (``--out``) and ``target``, the output path the user gave, and
    return the exit to raise: ``--out: write error: cannot write PATH: REASON``.

    The failing path the operating system reports is added in brackets when it
    is neither ``target`` nor a file beside it (a parent that is a file, say); a
    temporary or lock file beside ``target`` is an internal name and is left out.
    s57fixio: ``respond``, ``judge`` and ``screen`` said a bare ``write error``; perturb named the flag.
    """
    why = exc.strerror or str(exc)
    where = exc.filename
    if target is None:  # no --out yet: all there is to name is what the system reports
        return _fail(WriteError(f"cannot write {where}: {why}", file=flag, rule="file"))
    if where is not None and Path(str(where)) != target and Path(str(where)).parent != target.parent:
        why += f" ({where})"
    return _fail(WriteError(f"cannot write {target}: {why}", file=flag, rule="file"))


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


#: Commands the console script runs without typer's option coercion when their command line is
#: plain (see :func:`fast_invocation`): typer >= 0.20 coerces every option through pydantic,
#: whose import and adapters cost ~0.4 s, more than the whole engine job of ``ipb run``, and a
#: sixth of the 2 s bar of ``ipb parse`` on a 5 MB answer (issue 16).
FAST = ("run", "parse", "score")


def fast_invocation(args: list[str]) -> Any:
    """``ipb run ...`` as a ready call (no pydantic), or None to leave the command line to typer.

    The command's own declared parameters (typer's ``Argument``/``Option`` defaults and
    the type hints) are read, and only plain forms are parsed here: positional
    arguments; ``--opt value``, ``--opt=value`` and a declared short ``-f value``;
    boolean ``--flag`` and ``--flag/--no-flag``; repeated list options; ``str``,
    ``Path``, ``int``, ``float``, ``Optional`` and ``Enum`` values; a ``str``/``Path``
    option's environment variable when the option is not given. Anything else --
    ``--help``, an unknown or malformed option, a missing argument or required option, a
    value typer would reject, another environment variable that is set -- returns None,
    and typer parses the whole line as before, with its own messages. Tests check that
    both paths give the same output.
    """
    import inspect
    import os
    import typing
    from pathlib import Path

    from typer.models import ArgumentInfo, OptionInfo

    if not args or args[0] not in FAST:
        return None
    importlib.import_module(f"ipb.cli.commands.{COMMANDS[args[0]]}")
    callback = next((i.callback for i in app.registered_commands
                     if (i.name or getattr(i.callback, "__name__", "")) == args[0]), None)
    if callback is None:
        return None
    hints = typing.get_type_hints(callback)
    params = inspect.signature(callback).parameters
    positional: list[str] = []
    options: dict[str, str] = {}
    negative: dict[str, str] = {}  # the "--no-flag" half of a bool "--flag/--no-flag"
    kinds: dict[str, Any] = {}
    values: dict[str, Any] = {}
    from_env: dict[str, str] = {}
    for name, p in params.items():
        info = p.default
        kind: Any = hints.get(name)
        origin, inner = typing.get_origin(kind), typing.get_args(kind)
        if origin is typing.Union and type(None) in inner:
            kind = next(a for a in inner if a is not type(None))
            origin, inner = typing.get_origin(kind), typing.get_args(kind)
        many = origin is list
        base = inner[0] if many else kind
        if not (base in (str, Path, bool, int, float) or (isinstance(base, type) and issubclass(base, Enum))):
            return None
        kinds[name] = (base, many)
        if isinstance(info, ArgumentInfo):
            positional.append(name)
            if info.default is not ... and info.default is not None:
                values[name] = info.default
            elif info.default is None:
                values[name] = None
        elif isinstance(info, OptionInfo):
            decls = info.param_decls or (f"--{name.replace('_', '-')}",)
            for d in decls:
                if "/" in d:
                    if base is not bool or d.count("/") != 1:
                        return None
                    on, off = d.split("/")
                    options[on.strip()] = name
                    negative[off.strip()] = name
                else:
                    options[d] = name
            # a required repeatable option (default ...) stays required: typer reports it when missing
            values[name] = (info.default if info.default is ... else list(info.default or [])) if many else info.default
            envvars = [info.envvar] if isinstance(info.envvar, str) else list(info.envvar or [])
            for var in envvars:
                if os.environ.get(var):
                    if base not in (str, Path) or many:
                        return None
                    from_env[name] = os.environ[var]
                    break
        else:
            return None
    given: dict[str, list[str]] = {}
    rest = list(args[1:])
    free: list[str] = []
    while rest:
        token = rest.pop(0)
        if token == "--" or token in ("--help", "-h"):
            return None
        if token.startswith("-") and token != "-":
            # click reads "-5" as an (unknown) option, never as a negative positional, and "=" as the
            # separator of a long option only: "-o=x" gives -o the value "=x". Such lines go to typer.
            if not token.startswith("--") and "=" in token:
                return None
            flag, eq, inline = token.partition("=")
            if flag in negative:
                if eq:
                    return None
                given.setdefault(negative[flag], []).append("false")
                continue
            found = options.get(flag)
            if found is None:
                return None
            name = found
            base, many = kinds[name]
            if base is bool:
                if eq:
                    return None
                given.setdefault(name, []).append("true")
                continue
            if eq:
                value = inline
            elif rest:
                value = rest.pop(0)
            else:
                return None
            if not many and name in given:
                return None
            given.setdefault(name, []).append(value)
        else:
            free.append(token)
    if len(free) > len(positional):
        return None
    for name, token in zip(positional, free):
        given[name] = [token]
    for name in positional:
        if name not in given and name not in values:
            return None  # a required argument is missing: typer says so
    for name, text in from_env.items():
        given.setdefault(name, [text])
    for name, value in values.items():
        if value is ... and name not in given:
            return None  # a required option is missing: typer says so
    kwargs = dict(values)
    for name, raw in given.items():
        base, many = kinds[name]
        converted: list[Any] = []
        for text in raw:
            if base is bool:
                converted.append(text == "true")
            elif base is float:
                if not _PLAIN_FLOAT.fullmatch(text):
                    return None  # "nan", "1_0", "inf": typer's reading decides
                converted.append(float(text))
            elif base is int:
                if not _PLAIN_INT.fullmatch(text):
                    return None  # "1_000", " 5", "2.0": typer's reading decides
                converted.append(int(text))
            elif base is Path:
                converted.append(Path(text))
            elif isinstance(base, type) and issubclass(base, Enum):
                try:
                    converted.append(base(text))
                except ValueError:
                    return None
            else:
                converted.append(text)
        kwargs[name] = converted if many else converted[-1] if base is bool else converted[0]

    def call() -> None:
        try:
            callback(**kwargs)
        except typer.Exit as exc:
            raise SystemExit(exc.exit_code) from None

    return call


#: ASCII digits only: ``\d`` and ``float()`` accept any Unicode digit ("０.５", "٠.٥"), which typer refuses
_PLAIN_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PLAIN_INT = re.compile(r"[-+]?[0-9]{1,18}")


#: The signals whose default action ends the process and which :func:`stop_on_terminate` turns into a clean stop
#: (those the platform has). SIGUSR1, SIGUSR2 and SIGALRM end a process by default just as SIGTERM does: s60 new user
#: N8 saw each leave ``ipb join``'s and ``ipb perturb``'s temporary file with no message.
STOP_SIGNALS = ("SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM")


def stop_on_terminate() -> None:
    """Make SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM (:data:`STOP_SIGNALS`, where the platform has them) end this
    process as Ctrl-C does: by an exception, so every ``finally`` runs.

    Python's default for SIGTERM kills the process at once, so a run stopped by
    ``kill``, ``timeout`` or a batch scheduler left its hidden ``.NAME.XXXX.tmp``
    beside the output (596 MB after a minute of ``ipb perturb -n 1e12``) until
    the next write of the same file removed it (:mod:`ipb._files`). With this
    handler the write's clean-up removes it and the exit status is 128 + the
    signal's number, as a shell reports a killed command. A process forked
    from this one (a ``--workers`` pool's) starts with both signals at their
    default action, set by an at-fork hook: ``Pool.terminate()`` ends it at
    once even when it was forked during the clean-up, after the signals were
    set to be ignored here (a child inherits an ignored signal).
    """
    import os
    import signal

    names = [name for name in STOP_SIGNALS if hasattr(signal, name)]

    def handler(signum: int, frame: object) -> None:
        for other in names:  # a second signal, of any of these kinds, must not interrupt the clean-up (SIGTERM then
            signal.signal(getattr(signal, other), signal.SIG_IGN)  # SIGHUP when a terminal closes on a stopped job)
        raise SystemExit(128 + signum)

    def default_actions() -> None:
        for name in names:
            signal.signal(getattr(signal, name), signal.SIG_DFL)

    for name in names:
        signal.signal(getattr(signal, name), handler)
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=default_actions)


#: True in the ``ipb`` console process (set by :func:`main`), False under a test runner or an embedding program: a
#: command may end the process at once (``os._exit``) only when it owns it.
CONSOLE_PROCESS = False


def main() -> None:  # pragma: no cover - console entry point
    """The ``ipb`` console script: :func:`fast_invocation` for a plain ``ipb run`` line, typer otherwise.

    A closed standard output that a command does not let through (:func:`closed_stdout_ok`) ends it with exit 1 and
    no traceback, as click does for the others (the fast ``ipb run`` path printed one). Standard output that cannot
    be written otherwise (a full device, :class:`StandardOutputError`, also at the last flush) ends it with one line
    on standard error and exit 1 (s62 new user N7: an ``OSError`` traceback in every command)."""
    global CONSOLE_PROCESS
    import signal
    import time

    CONSOLE_PROCESS = True
    started = time.monotonic()
    stop_on_terminate()
    try:
        try:
            # inside the try: a Ctrl-C during the command's imports (seconds for score's parser) is a stop too
            call = fast_invocation(sys.argv[1:])
            if call is not None:
                import gc

                # the modules are imported: their objects (functions, compiled patterns, tables) live as long as the
                # process, so the collector need not walk them again at every full collection while a 5 MB answer
                # is parsed
                gc.freeze()
                call()
                return
            app()
        finally:  # here, not at the interpreter's exit, so that a failure is told in one line
            flush_stdout()
    except BrokenPipeError:
        _null_stdout()
        sys.exit(1)
    except StandardOutputError as exc:
        try:
            sys.stderr.write(exc.message + "\n")
            sys.stderr.flush()
        except OSError:
            pass
        sys.exit(1)
    except (KeyboardInterrupt, SystemExit) as exc:  # s63 new user B1/B2: one line and 128 + n, never a traceback
        from ipb.cli._stops import said_at_top, stop_status

        status = stop_status(exc)
        if status is None:
            raise
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the line short
        said_at_top(sys.argv[1:], status, time.monotonic() - started)
        sys.exit(status)
