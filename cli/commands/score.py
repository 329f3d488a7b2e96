"""``ipb score``: score model responses against items' gold programs (paper §7.5-§7.15).

    ipb score --items ITEMS.jsonl --responses RESPONSES --out DIR [--seed S] [--no-embeddings]
              [--format auto|jsonl|inspect|lm-eval] [--model M] [--condition C]
              [--resamples N] [--strict-composites] [--max-chars N] [--progress/--no-progress]
              [--embed-cache DIR] [--backend local|ray [--ray-address ADDR] [--encoders K]]

``--backend ray`` scores on a Ray cluster (``ipb[ray]``; docs/scale-out.md)
and writes the same bytes; ``--embed-cache DIR`` keeps sentence vectors on
disk across runs (keyed by model and text hash). Writes ``DIR/responses.jsonl`` (one record per input record) and
``DIR/summary.json``, atomically. Every unusable input record is reported on
stderr as ``SOURCE: record N: reason`` and kept in the outputs as unscored.
Exit status: 0 when every record could be used (responses that cannot be
parsed are results, not errors), 1 when some input record was unusable or
an input file cannot be read (the outputs are still written in the first
case), 2 for a usage error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from ipb.cli._app import _fail, app, err
from ipb.distributed import Backend
from ipb.errors import IpbError
from ipb.scoring.adapters import FORMATS
from ipb.scoring.parse import DEFAULT_EMBED_CUTOFF
from ipb.scoring.run import DEFAULT_MAX_CHARS, INPUT_ERRORS, ScoreOptions, run_score

#: Unusable records listed on stderr before "... and N more".
_SHOWN_ERRORS = 20


def _progress(enabled: bool) -> tuple[Callable[[str, int, int | None], None] | None, Any]:
    """A progress callback drawing a rich progress bar on stderr, and the bar (to stop)."""
    if not enabled:
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=err, transient=True)
    tasks: dict[str, Any] = {}

    def update(phase: str, done: int, total: int | None) -> None:
        if phase not in tasks:
            label = {"parse": "parsing", "embed": "embedding", "score": "scoring"}.get(phase, phase)
            tasks[phase] = bar.add_task(label, total=total)
        if phase == "embed":
            bar.update(tasks[phase], completed=0, total=total, description=f"embedding texts of {total} case(s)")
        else:
            bar.update(tasks[phase], completed=done, total=total)

    bar.start()
    return update, bar


@app.command()
def score(
    items: Path = typer.Option(..., "--items", "-i", help="Items file (JSON Lines), as ipb perturb writes it."),
    responses: Path = typer.Option(..., "--responses", "-r", help="Responses: JSONL {item_id, model, condition, response}, an inspect_ai log (.json/.eval) or lm-eval samples_*.jsonl."),
    out: Path = typer.Option(..., "--out", "-o", help="Output folder for responses.jsonl and summary.json (created if missing)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the bootstrap CIs: the same inputs and seed give byte-identical outputs."),
    no_embeddings: bool = typer.Option(False, "--no-embeddings", help="Load no sentence encoder: lexical matching only; FM-4/FM-5 voice clauses not evaluated."),
    format: str = typer.Option("auto", "--format", "-f", help="Responses format: " + ", ".join(FORMATS) + "."),
    model: Optional[str] = typer.Option(None, "--model", help="Model name for records (log samples) that do not carry one."),
    condition: Optional[str] = typer.Option(None, "--condition", help="Condition (A, B, C or a name) for records that do not carry one."),
    resamples: int = typer.Option(2000, "--resamples", help="Bootstrap resamples per CI."),
    strict_composites: bool = typer.Option(False, "--strict-composites", help="A layer composite with a component that does not apply is null, instead of renormalising the weights over those that do."),
    max_chars: int = typer.Option(DEFAULT_MAX_CHARS, "--max-chars", help="Longest response parsed (characters); longer ones are unscored."),
    embed_cutoff: float = typer.Option(DEFAULT_EMBED_CUTOFF, "--embed-cutoff", help="Cosine similarity a gate label needs for the parser's embedding fallback (calibrated for the default MiniLM; see docs/scoring.md)."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal)."),
    embed_cache: Optional[Path] = typer.Option(None, "--embed-cache", envvar="IPB_EMBED_CACHE", help="Folder of an on-disk sentence-vector cache shared by runs (keyed by model and text hash; safe with concurrent writers)."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: this process; ray: a Ray cluster (pip install 'ipb[ray]'). The outputs do not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    encoders: Optional[int] = typer.Option(None, "--encoders", help="With --backend ray and embeddings: encoder actors (default one per node)."),
) -> None:
    """Score RESPONSES against ITEMS: every metric and FM flag per response, aggregates with bootstrap CIs."""
    if format not in FORMATS:
        err.print(f"ipb score: unknown --format {format!r}; formats: {', '.join(FORMATS)}", markup=False)
        raise typer.Exit(code=2)
    if resamples < 1 or max_chars < 1:
        err.print("ipb score: --resamples and --max-chars must be positive", markup=False)
        raise typer.Exit(code=2)
    if not -1.0 <= embed_cutoff <= 1.0:
        err.print(f"ipb score: --embed-cutoff is a cosine similarity in [-1, 1], not {embed_cutoff}", markup=False)
        raise typer.Exit(code=2)
    options = ScoreOptions(seed=seed, n_resamples=resamples, embeddings=not no_embeddings,
                           renormalize=not strict_composites, max_chars=max_chars, embed_cutoff=embed_cutoff)
    callback, bar = _progress(sys.stderr.isatty() if progress is None else progress)
    try:
        if backend is Backend.ray:
            from ipb.distributed.score import score_ray

            result, scorer = score_ray(items, responses, out, options, format=format, model=model,
                                       condition=condition, address=ray_address, encoders=encoders,
                                       embed_cache=str(embed_cache) if embed_cache else None, progress=callback)
            if scorer.resumed:
                err.print(f"ray: resumed {scorer.resumed} finished shard(s), scored {scorer.computed}", markup=False)
        elif embed_cache is not None and options.embeddings:
            from ipb.distributed.embed_cache import default_encoder_on_disk

            with default_encoder_on_disk(embed_cache):
                result = run_score(items, responses, out, options, format=format, model=model,
                                   condition=condition, progress=callback)
        else:
            result = run_score(items, responses, out, options, format=format, model=model, condition=condition,
                               progress=callback)
    except IpbError as exc:
        raise _fail(exc) from None
    finally:
        if bar is not None:
            bar.stop()
    invalid = [r for r in result.records if r.get("reason_code") in INPUT_ERRORS]
    for r in invalid[:_SHOWN_ERRORS]:
        err.print(f"{r['source']}: record {r['record']}: {r['reason_code']}: {r['reason']}", markup=False)
    if len(invalid) > _SHOWN_ERRORS:
        err.print(f"... and {len(invalid) - _SHOWN_ERRORS} more (every one is in {result.summary_path})", markup=False)
    for problem in result.summary["inputs"]["items"]["errors"][:_SHOWN_ERRORS]:
        err.print(f"{items}:{problem['line']}: {problem['message']}", markup=False)
    counts = result.summary["counts"]
    err.print(
        f"scored {counts['scored']} of {counts['records']} record(s): {counts['parse_failures']} parse failure(s), "
        f"{counts['invalid']} unusable record(s); wrote {result.responses_path} and {result.summary_path}",
        markup=False,
    )
    if invalid:
        raise typer.Exit(code=1)
