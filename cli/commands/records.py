"""``ipb records``: InvestLogicBench decision records and their outcome scores (seed 001).

    ipb records check FILE ... [-o OUT]
    ipb records finlogic TEXT
    ipb records score AGENT [--expert FILE | --expert-profit P --expert-win-rate W]
                            [--event-coherence EC --logical-plausibility LP] [--profit sum|compound] [-o OUT]

Also home of the JSON output helpers the other issue-8 command modules share:
every output is one JSON object with a ``version`` and a ``kind``, written
deterministically, to stdout or atomically to ``-o FILE`` (a temporary file in
the same folder, then a rename).
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from ipb._files import refuse_overwriting, write_text_atomic
from ipb.cli._app import _fail, _write_failed, app, err, json_printable, write_stdout
from ipb.engine._json import json_value
from ipb.errors import ErrorGroup, IpbError, ScoreError
from ipb.neighbours.records import load_records, parse_finlogic, score_outcomes, summarise

__all__ = ["records_app", "emit_json", "write_atomic", "fail"]

#: Version of every output format written by the issue-8 commands.
OUTPUT_VERSION = 1

records_app = typer.Typer(no_args_is_help=True, help="Decision records (InvestLogicBench): validate, parse finLogic, score outcomes.")
app.add_typer(records_app, name="records")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`ipb._files.write_text_atomic`)."""
    write_text_atomic(path, text)


def render_json(payload: dict[str, Any], *, compact: bool = False) -> str:
    """The JSON text of an output: Decimals as numbers, insertion order kept, newline-terminated."""
    value = json_value(payload)
    if compact:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def emit_json(payload: dict[str, Any], output: Optional[Path], *, compact: bool = False) -> None:
    """Print ``payload`` as JSON, or write it atomically to ``output``."""
    text = render_json(payload, compact=compact)
    if output is None:
        write_stdout(json_printable(text))  # a terminal sees escapes, not bidirectional controls
    else:
        try:
            write_atomic(output, text)
        except OSError as exc:  # s57fixio: a traceback before (records score, forecast score, depgraph run -o /proc/x)
            raise _write_failed(exc, output, "--output") from None


def fail(exc: IpbError) -> typer.Exit:
    """Print every error with its caret to stderr; the exit to raise (status 1)."""
    return _fail(exc)


def errors_of(exc: IpbError) -> list[IpbError]:
    return list(exc.errors) if isinstance(exc, ErrorGroup) else [exc]


OUTPUT = typer.Option(None, "--output", "-o", help="Write the JSON here (atomically) instead of to stdout.")


class ProfitRule(str, Enum):
    sum = "sum"
    compound = "compound"


@records_app.command("check")
def check_records(
    files: list[Path] = typer.Argument(..., help="Records files: .yaml/.yml, .json, or .jsonl (one decision a line)."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Validate records files and print every decision with its parsed finLogic; exit 1 on any error."""
    parsed: list[dict[str, Any]] = []
    problems: list[IpbError] = []
    for path in files:
        try:
            records = load_records(path)
        except IpbError as exc:
            problems.extend(errors_of(exc))
            continue
        parsed.append({
            "file": str(path),
            "profile": None if records.profile is None else {
                "id": records.profile.id, "name": records.profile.name, "style": records.profile.style,
                "capitalScale": records.profile.capital_scale, "securityTypes": list(records.profile.security_types),
            },
            "decisions": [d.to_dict() for d in records.decisions],
        })
    for p in problems:
        err.print(p.render(), markup=False)
    emit_json({"version": OUTPUT_VERSION, "kind": "records.check", "files": parsed,
               "errors": [p.to_dict() for p in problems]}, output)
    if problems:
        raise typer.Exit(code=1)


@records_app.command("finlogic")
def finlogic(text: str = typer.Argument(..., help='A chain such as "[Event] -> [Thesis] -> Action: [Action]".')) -> None:
    """Parse one finLogic string and print its event, thesis steps and action."""
    try:
        chain = parse_finlogic(text)
    except IpbError as exc:
        exc.source_line = text
        raise fail(exc) from None
    emit_json({"version": OUTPUT_VERSION, "kind": "records.finlogic", **chain.to_dict()}, None)


@records_app.command("score")
def score(
    agent: Path = typer.Argument(..., help="The agent's decision records (outcomes and judge scores)."),
    expert: Optional[Path] = typer.Option(None, "--expert", help="The human expert's decision records."),
    expert_profit: Optional[str] = typer.Option(None, "--expert-profit", help="P_h directly, e.g. 3.53% (instead of --expert)."),
    expert_win_rate: Optional[str] = typer.Option(None, "--expert-win-rate", help="W_h directly, e.g. 55%."),
    event_coherence: Optional[str] = typer.Option(None, "--event-coherence", help="S_EC (0-5); default: mean of the records' judge scores."),
    logical_plausibility: Optional[str] = typer.Option(None, "--logical-plausibility", help="S_LP (0-5); default: the records' mean."),
    profit: ProfitRule = typer.Option(ProfitRule.sum, "--profit", help="Total profit: sum of returns, or compounded."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Score an agent's decisions against an expert: S_profit, S_win, S_outcome, S_reasoning, S_overall."""
    try:
        refuse_overwriting({"--output": output}, {"agent records": agent, "expert records": expert},
                           command="records score")
        mine = summarise(load_records(agent).decisions, profit=profit.value)
        if mine.total_profit is None or mine.win_rate is None:
            raise ScoreError(f"{agent}: no decision has an outcome yet", file=str(agent), rule="no-outcome")
        theirs = None
        p_h: Decimal | str
        w_h: Decimal | str
        if expert is not None:
            if expert_profit is not None or expert_win_rate is not None:
                raise ScoreError("give the expert either as --expert FILE or as --expert-profit/--expert-win-rate, not both",
                                 rule="usage")
            theirs = summarise(load_records(expert).decisions, profit=profit.value)
            if theirs.total_profit is None or theirs.win_rate is None:
                raise ScoreError(f"{expert}: no expert decision has an outcome yet", file=str(expert), rule="no-outcome")
            p_h, w_h = theirs.total_profit, theirs.win_rate
        elif expert_profit is not None and expert_win_rate is not None:
            p_h, w_h = expert_profit, expert_win_rate
        else:
            raise ScoreError("name the expert benchmark: --expert FILE, or both --expert-profit and --expert-win-rate",
                             rule="usage")
        ec = event_coherence if event_coherence is not None else mine.event_coherence
        lp = logical_plausibility if logical_plausibility is not None else mine.logical_plausibility
        scores = score_outcomes(p_agent=mine.total_profit, w_agent=mine.win_rate, p_expert=p_h, w_expert=w_h,
                                event_coherence=ec, logical_plausibility=lp)
    except IpbError as exc:
        raise fail(exc) from None
    emit_json({
        "version": OUTPUT_VERSION,
        "kind": "records.score",
        "agent": {"file": str(agent), **mine.to_dict()},
        "expert": {"file": str(expert), **theirs.to_dict()} if theirs is not None else {
            "file": None, "total_profit": scores.p_expert, "win_rate": scores.w_expert},
        "scores": scores.to_dict(),
    }, output)
