"""``ipb lm-eval-task ITEMS --out DIR``: an lm-evaluation-harness task folder for an items file."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ipb.cli._app import _fail, app, err
from ipb.errors import IpbError


@app.command("lm-eval-task")
def lm_eval_task(
    items: Path = typer.Argument(..., help="An items file written by ipb perturb."),
    out: Path = typer.Option(..., "--out", "-o", help="The task folder to write (give it to lm_eval --include_path)."),
    task: Optional[str] = typer.Option(None, "--task", help="The task name lm_eval --tasks selects (default: ipb_l7 for L7 items, ipb_l8 for L8, ipb for a mix)."),
    conditions: str = typer.Option("A", "--conditions", help="Comma-separated conditions (A, B, C)."),
    cot: bool = typer.Option(False, "--cot", help="Append the chain-of-thought instruction."),
    embeddings: bool = typer.Option(False, "--embeddings/--no-embeddings",
                                    help="Let the task's scorer use the sentence encoder (slower; as ipb score)."),
) -> None:
    """Write an lm-evaluation-harness task scoring VerdictAcc, GRA and OGRS with ipb's parser."""
    from ipb.integrations.lm_eval import write_task

    try:
        files = write_task(items, out, task=task, conditions=conditions, cot=cot, embeddings=embeddings)
    except IpbError as exc:
        raise _fail(exc) from None
    err.print(f"wrote {', '.join(str(f) for f in files)}\n"
              f"run: lm_eval --model MODEL --model_args ... --include_path {out} --tasks {files[0].stem} "
              "--log_samples --output_path OUT", markup=False)
