"""``ipb score``: score model responses against items' gold programs (paper §7.5-§7.15).

    ipb score --items ITEMS.jsonl --responses RESPONSES [--responses MORE ...] --out DIR [--seed S] [--no-embeddings]
              [--format auto|jsonl|inspect|lm-eval] [--model M] [--condition C]
              [--resamples N] [--strict-composites] [--max-chars N] [--progress/--no-progress]
              [--exclude-failures] [--basp-denominator paper|applicable] [--basp-composite layer|w1]
              [--inconclusive a2|flat] [--parallel-order free|sequence] [--leaderboard/--no-leaderboard]
              [--embed-cache DIR] [--backend local|ray [--ray-address ADDR] [--encoders K]]

Each ``--responses`` is a file or a folder of logs; several are read in
the order given into one run (:mod:`ipb.scoring.sources`): one record per
input record, each naming its file, one leaderboard. Writes
``DIR/responses.jsonl`` (one record per input record) and
``DIR/summary.json``, atomically, then prints a leaderboard (one row per
model, best first: coverage, composite, BASP-strict, GRA, VerdictAcc... with
95% CIs and n of N). Refusals and parse failures count as 0 on every metric
they were owed unless ``--exclude-failures``; the paper rules in force
(``--basp-denominator``, ``--inconclusive``, ...) are printed under the table
and recorded in the summary. ``--backend ray`` scores on a Ray cluster
(``ipb[ray]``; docs/scale-out.md) and writes the same bytes; ``--embed-cache
DIR`` keeps sentence vectors on disk across runs (keyed by model and text
hash). Every unusable input record is reported on
stderr as ``SOURCE: record N: reason`` and kept in the outputs as unscored.
Exit status: 0 when every record could be used (responses that cannot be
parsed are results, not errors), 1 when some input record was unusable or
an input file cannot be read, a responses file holds no record (empty,
blank lines only, a log without samples: also the only one), the items file
holds no item (empty, or the responses file given as --items), or several
responses files are refused together (one that is no log, one answer in two
files): nothing is written then; 2 for a usage error. The outputs are still written in the
first case.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import typer

from ipb.cli._app import INVESTORS_HELP, SafeConsole, _fail, app, err, printable, use_investor_files
from ipb.cli._extractors import CACHE_DIR, EXTRACTOR_HELP, LLM_BASE_URL, LLM_MODEL, NO_CACHE, Extractor, llm_extractor
from ipb.distributed import Backend
from ipb.errors import IpbError, WriteError
from ipb.respond.client import public_url
from ipb.respond.knowledge import prompt_texts
from ipb.scoring.adapters import FORMATS
from ipb.scoring.parse import DEFAULT_EMBED_CUTOFF
from ipb.scoring.run import DEFAULT_MAX_CHARS, ScoreOptions, run_score

#: Unusable records listed on stderr before "... and N more".
_SHOWN_ERRORS = 20


def _under(path: str, out: Path) -> bool:
    """Whether ``path`` is the ``--out`` folder, a file in it or its checkpoints folder beside it."""
    given = Path(path)
    return given in (out, out.parent / f"{out.name}.ipb-shards") or given.parent == out


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
    responses_given: list[Path] = typer.Option(..., "--responses", "-r", help="Responses: JSONL {item_id, model, condition, response}, an inspect_ai log (.json/.eval) or lm-eval samples_*.jsonl, a folder of logs (inspect --log-dir, lm-eval --output_path) or a quoted pattern ('logs/*.eval'). Repeatable: every file is read, in the order given, into one run and one leaderboard (one model's answer to an item and condition in two files is refused)."),
    out: Path = typer.Option(..., "--out", "-o", help="Output folder for responses.jsonl and summary.json (created if missing)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the bootstrap CIs: the same inputs and seed give byte-identical outputs."),
    no_embeddings: bool = typer.Option(False, "--no-embeddings", help="Load no sentence encoder: lexical matching only; FM-4/FM-5 voice clauses not evaluated."),
    format: str = typer.Option("auto", "--format", "-f", help="Responses format: " + ", ".join(FORMATS) + "."),
    model: Optional[str] = typer.Option(None, "--model", help="Model name for records that do not carry one and for every sample of an inspect log (it replaces the log's own); applies to every --responses file."),
    condition: Optional[str] = typer.Option(None, "--condition", help="Condition (A, B, C or a name) for records that do not carry one."),
    resamples: int = typer.Option(2000, "--resamples", help="Bootstrap resamples per CI."),
    strict_composites: bool = typer.Option(False, "--strict-composites", help="A layer composite with a component that does not apply is null, instead of renormalising the weights over those that do."),
    max_chars: int = typer.Option(DEFAULT_MAX_CHARS, "--max-chars", help="Longest response parsed (characters); longer ones are unscored."),
    embed_cutoff: float = typer.Option(DEFAULT_EMBED_CUTOFF, "--embed-cutoff", help="Cosine similarity a gate label needs for the parser's embedding fallback (calibrated for the default MiniLM; see docs/scoring.md)."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files (repeatable). A card id is looked up in --cards, then IPB_CARDS, then the items' own copies (ipb-cards/ beside --items), then the bundled cards; a card whose sha256 differs from the item's is refused."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal)."),
    min_confidence: Optional[float] = typer.Option(None, "--min-confidence", help="Route gate and final verdicts read with a confidence below this (0-1) to review: listed in each record's targets[].review and counted; still scored."),
    extractor: Extractor = typer.Option(Extractor.rules, "--extractor", help=EXTRACTOR_HELP),
    llm_model: Optional[str] = LLM_MODEL,
    llm_base_url: Optional[str] = LLM_BASE_URL,
    cache_dir: Optional[Path] = CACHE_DIR,
    no_cache: bool = NO_CACHE,
    exclude_failures: bool = typer.Option(False, "--exclude-failures", help="Leave refusals and parse failures out of every mean (default: they score 0 on every metric they were owed and count). The summary and report then say so beside every figure."),
    basp_denominator: str = typer.Option("paper", "--basp-denominator", help="BASP-strict factor: paper (k of 5, a gate whose metric does not apply counts as passed; §7.15) or applicable (k of the gates evaluated)."),
    basp_composite: str = typer.Option("layer", "--basp-composite", help="Composite BASP-strict scales: layer (the §7.13 layer composite) or w1 (the deployed W1 uniform composite)."),
    inconclusive: str = typer.Option("a2", "--inconclusive", help="INCONCLUSIVE credit: a2 (Appendix A.2: 0.5 only when the committed verdict acknowledges the data gap, else 0) or flat (§7.3: 0.5)."),
    parallel_order: str = typer.Option("free", "--parallel-order", help="NED/NLCS on parallel_threshold cards: free (order-free, like tau) or sequence (stated order)."),
    show_leaderboard: bool = typer.Option(True, "--leaderboard/--no-leaderboard", help="Print the leaderboard table after scoring."),
    embed_cache: Optional[Path] = typer.Option(None, "--embed-cache", envvar="IPB_EMBED_CACHE", help="Folder of an on-disk sentence-vector cache shared by runs (keyed by model and text hash; safe with concurrent writers)."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: this process; ray: a Ray cluster (pip install 'ipb\\[ray]'). The outputs do not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    encoders: Optional[int] = typer.Option(None, "--encoders", help="With --backend ray and embeddings: encoder actors (default one per node)."),
    investors: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP),
) -> None:
    """Score RESPONSES against ITEMS: every metric and FM flag per response, aggregates with bootstrap CIs."""
    # several files (or folders of logs) are read in the order given into one run (ipb.scoring.sources)
    responses: Path | list[Path] = responses_given[0] if len(responses_given) == 1 else list(responses_given)
    if format not in FORMATS:
        err.print(f"ipb score: unknown --format {format!r}; formats: {', '.join(FORMATS)}", markup=False)
        raise typer.Exit(code=2)
    if resamples < 1 or max_chars < 1:
        err.print("ipb score: --resamples and --max-chars must be positive", markup=False)
        raise typer.Exit(code=2)
    if not -1.0 <= embed_cutoff <= 1.0:
        err.print(f"ipb score: --embed-cutoff is a cosine similarity in [-1, 1], not {embed_cutoff}", markup=False)
        raise typer.Exit(code=2)
    if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
        err.print(f"ipb score: --min-confidence is in [0, 1], not {min_confidence}", markup=False)
        raise typer.Exit(code=2)
    try:
        llm = llm_extractor(extractor, llm_model, llm_base_url, cache_dir, no_cache)
    except IpbError as exc:
        raise _fail(exc) from None
    compared = None
    parse_fn = llm
    if extractor is Extractor.both:
        from ipb.respond.extract import Agreement, both_extractor

        compared = Agreement()
        parse_fn = both_extractor(llm, compared)
    try:
        options = ScoreOptions(seed=seed, n_resamples=resamples, embeddings=not no_embeddings,
                               renormalize=not strict_composites, max_chars=max_chars, embed_cutoff=embed_cutoff,
                               parse=parse_fn, prompt_texts=prompt_texts, min_confidence=min_confidence,
                               failures="exclude" if exclude_failures else "count", basp_denominator=basp_denominator,
                               basp_composite=basp_composite, inconclusive=inconclusive, parallel_order=parallel_order,
                               extractor=_extractor_option(extractor, llm))
    except IpbError as exc:
        err.print(f"ipb score: {exc.message}" + (f" ({exc.suggestion})" if exc.suggestion else ""), markup=False)
        raise typer.Exit(code=2) from None
    if options.embeddings:
        from ipb.scoring._load_notice import on_model_load

        on_model_load(lambda message: err.print(f"ipb score: {message} (--no-embeddings skips it)", markup=False), "ipb score")
    callback, bar = _progress(sys.stderr.isatty() if progress is None else progress)
    try:
        from ipb.engine.registry import resolve_pinned, use_cards, use_items

        use_cards(cards_dir)
        use_investor_files(investors)
        use_items(items)
        resolve_pinned()
        if backend is Backend.ray:
            from ipb.distributed.score import score_ray

            result, scorer = score_ray(items, responses, out, options, format=format, model=model,
                                       condition=condition, address=ray_address, encoders=encoders,
                                       embed_cache=str(embed_cache) if embed_cache else None, progress=callback,
                                       cards_dirs=cards_dir)
            if scorer.resumed:
                err.print(f"ray: resumed {scorer.resumed} finished shard(s), scored {scorer.computed}", markup=False)
            if scorer.store is not None and scorer.store.note():
                err.print(scorer.store.note(), markup=False)
        elif embed_cache is not None and options.embeddings:
            from ipb.distributed.embed_cache import default_encoder_on_disk

            with default_encoder_on_disk(embed_cache):
                result = run_score(items, responses, out, options, format=format, model=model,
                                   condition=condition, progress=callback)
        else:
            result = run_score(items, responses, out, options, format=format, model=model, condition=condition,
                               progress=callback)
    except IpbError as exc:
        if isinstance(exc, WriteError) and exc.file is not None and _under(exc.file, out):
            exc.file = "--out"  # s57fixio: the flag, as every writing command names it (the message names the path)
        raise _fail(exc) from None
    finally:
        if bar is not None:
            bar.stop()
    invalid = result.invalid  # from the summary: the records themselves are not read back
    for r in invalid[:_SHOWN_ERRORS]:
        err.print(f"{r['source']}: record {r['record']}: {r['reason_code']}: {r['reason']}", markup=False)
    if len(invalid) > _SHOWN_ERRORS:
        err.print(f"... and {len(invalid) - _SHOWN_ERRORS} more (every one is in {result.summary_path})", markup=False)
    unknown = sum(1 for r in invalid if r.get("reason_code") == "unknown_item")
    if unknown >= 2 and 2 * unknown > result.summary["counts"]["records"]:
        # s44user: answers to another items file gave one "unknown item id" line per record and no word of why
        err.print(f"{unknown} of {result.summary['counts']['records']} record(s) name an item id that {items} does not "
                  "hold: are these answers to another items file? (--items takes the file the answers were made from)",
                  markup=False)
    for problem in result.summary["inputs"]["items"]["errors"][:_SHOWN_ERRORS]:
        err.print(f"{items}:{problem['line']}: {problem['message']}", markup=False)
    if min_confidence is not None:
        targets = [t for r in result.records for t in r.get("targets") or []]
        readings = sum(len(t.get("review") or []) for t in targets)
        answers = sum(1 for r in result.records if any(t.get("review") for t in r.get("targets") or []))
        err.print(f"{readings} reading(s) in {answers} record(s) below --min-confidence {min_confidence}: routed to review "
                  "(targets[].review in responses.jsonl); all are still scored and counted", markup=False)
        by_model = result.summary.get("groups", {}).get("model") or {}
        if len(by_model) > 1:
            err.print("  by model: " + "; ".join(
                f"{m} {g.get('n_review', 0)} in {g.get('n_review_records', 0)} of {g.get('n')}"
                for m, g in by_model.items()) + " (groups.*.n_review, n_review_records in summary.json)", markup=False)
    if llm is not None and llm.stopped is not None:
        err.print(f"ipb score: the LLM extractor stopped asking {public_url(llm.config.base_url)}: {llm.stopped}; "
                  f"{llm.skipped} later answer(s) were not sent and are filed as extractor failures "
                  "(counted as parse failures, never dropped)", markup=False)
    if compared is not None:
        agreement = compared.summary()
        if agreement["measured"]:
            parts = [f"{name.replace('_', ' ')} kappa {'undefined' if f['kappa'] is None else round(f['kappa'], 3)} "
                     f"(n={f['n']})" for name, f in agreement.items() if isinstance(f, dict) and "kappa" in f]
            err.print(f"rules vs llm extractor: {'; '.join(parts)}; {agreement['disagreements']} disagreement(s) "
                      "(noted in each reading's notes; the rules reading is scored)", markup=False)
        else:
            err.print("rules vs llm extractor: agreement not measured (0 answers read both ways; kappa undefined)",
                      markup=False)
        if agreement.get("note"):
            err.print(f"rules vs llm extractor: {agreement['note']} (extractor_agreement in {result.summary_path})",
                      markup=False)
    counts = result.summary["counts"]
    if show_leaderboard:
        print_leaderboard(result.summary)
        from ipb.scoring.summary import basp_gate_failures

        failed = basp_gate_failures(result.records)
        if failed:
            err.print("BASP-strict gates failed, share of scored targets (one per gold card an answer is scored on; "
                      "why conj. is low): " + "; ".join(
                f"{model} " + ", ".join(f"{metric} {share:.0%}" for metric, share in gates) for model, gates in failed.items()),
                markup=False)
    contrary = [(m, g.get("n_final_contradicts_trace"), g.get("n_scored"))
                for m, g in (result.summary["groups"].get("model") or {}).items() if g.get("n_final_contradicts_trace")]
    if contrary:  # s63 new user E2: the paper's composite gives these most of its credit; say how many there are
        err.print("final verdict contradicts the answer's own trace (the card's gate logic on the answer's own gate "
                  "verdicts gives another final: a kill gate's REJECT then the pass verdict, a met threshold then the "
                  "fail verdict), of scored answers: " + "; ".join(f"{m} {k} of {n}" for m, k, n in contrary)
                  + " (scored as the §7.13 composite gives, VerdictAcc 0; metrics.final_contradicts_trace in "
                  "responses.jsonl, groups.*.n_final_contradicts_trace in summary.json)", markup=False)
    unanswered = _unanswered_items(result.summary["groups"].get("model") or {})
    if unanswered:
        err.print(unanswered.replace("ITEMS", str(items)), markup=False)
    for warning in result.summary.get("model_name_warnings") or ():  # s52break item 8: rows that print alike
        err.print(f"warning: {printable(warning)}", markup=False)
    err.print(
        f"scored {counts['scored']} of {counts['records']} record(s)"
        + (f" ({counts['scored_trace_unread']} with no gate read, scored on their stated final verdict only)"
           if counts.get("scored_trace_unread") else "")
        + f": {counts['parse_failures']} parse failure(s), "
        f"{counts.get('refusals', 0)} refusal(s) "
        # how they count, said where the totals are shown, also under --no-leaderboard (s51report)
        + ("(each in every mean at 0)" if (result.summary.get("failures") or {}).get("policy") == "count"
           else "(left out of the means shown, against coverage, ranked as 0)")
        + f", {counts['invalid']} unusable record(s); "
        f"wrote {result.responses_path} and {result.summary_path}",
        markup=False,
    )
    if invalid:
        raise typer.Exit(code=1)


def _extractor_option(extractor: Extractor, llm: Any) -> dict[str, Any]:
    """``summary.options.extractor``: the --extractor value, with the LLM's model and public base URL (s65 F2)."""
    out: dict[str, Any] = {"name": extractor.value}
    if llm is not None:
        out["llm_model"] = llm.config.model
        out["llm_base_url"] = public_url(llm.config.base_url)
    return out


def _unanswered_items(model_groups: Mapping[str, Any]) -> str | None:
    """A line naming each model that answered fewer of the items file's items than it holds, or None.

    An item with no record at all is not a run error (there is no record to say it was asked): it is in no mean, but it
    counts against the model's coverage (stop 48; before, a model scored on 8 of 40 items showed coverage 100% beside
    one that answered all 40, s47user) and the leaderboard ranks it as a 0 (:func:`ipb.scoring.summary.rank_value`). The counts are the summary's own
    (``groups.model.M.n_items_unanswered`` of ``n_items``), so the line names what the rank uses; records with no
    model are not named. ``ITEMS`` in the line stands for the items file's name.

    >>> _unanswered_items({"a": {"n": 2}, "b": {"n": 1, "n_items_unanswered": 1, "n_items": 2}})
    'items answered, by model: b 1 of 2 (an item of ITEMS with no record from a model is in none of its means, counts against its coverage, and the leaderboard ranks it as a 0: compare models on the items they all answered, or give each its missing answers)'
    >>> _unanswered_items({"a": {"n": 2}}) is None
    True
    """
    short = [(m, g["n_items"] - g["n_items_unanswered"], g["n_items"]) for m, g in model_groups.items()
             if m != "(none)" and g.get("n_items_unanswered")]
    if not short:
        return None
    return ("items answered, by model: " + "; ".join(f"{m} {k} of {n}" for m, k, n in short)
            + " (an item of ITEMS with no record from a model is in none of its means, counts against its coverage, "
            "and the leaderboard ranks it as a 0: compare models on the items they all answered, or give each its missing "
            "answers)")


def _cell(stat: Any, digits: int = 3) -> str:
    """``mean [low,high]``: the mean and its percentile-bootstrap interval as they are.

    A percentile interval is not symmetric about the mean (alice's composite
    in the newuser3 run: 0.469 in [0.156, 0.6625]), so no single "± h" says
    it: max(mean-low, high-mean) overstates one side, the half-width
    (high-low)/2 centres a different interval. The bounds are printed
    instead, without a space inside the brackets so that a narrow terminal
    wraps the cell between the mean and its interval.

    >>> _cell({"mean": 0.46875, "low": 0.15625, "high": 0.6625, "n": 4})
    '0.469 [0.156,0.662]'
    >>> _cell(None)
    '—'
    """
    if not stat:
        return "—"
    return f"{stat['mean']:.{digits}f} [{stat['low']:.{digits}f},{stat['high']:.{digits}f}]"


#: Columns of the leaderboard printed to a pipe or file with no ``COLUMNS`` set (``ipb run``'s tables take 80 there).
PIPE_WIDTH = 100


def board_width() -> int | None:
    """The leaderboard's width: the terminal's, else ``$COLUMNS``, else :data:`PIPE_WIDTH` (None: rich measures).

    s52newuser: the board was drawn 200 columns wide whatever the output, so on a pipe each row ran past the screen.
    """
    import os

    columns = os.environ.get("COLUMNS", "").strip()
    if sys.stdout.isatty() or (columns.isdigit() and int(columns) > 0):
        return None  # rich reads the terminal's size, or COLUMNS
    return PIPE_WIDTH


def print_leaderboard(summary: dict[str, Any], console: Any = None) -> None:
    """The leaderboard as a rich table on stdout (lm-evaluation-harness style), with the rules under it.

    Columns: rank, model, n (responses), coverage (share of what was owed that was scored), "ranked on"
    (the row's ``rank_value``, the composite it is ranked by: :func:`ipb.scoring.summary.rank_value`; its header
    names the figure where no model has a composite, "ranked on VerdictAcc": :func:`ipb.scoring.leaderboard.rank_metric`,
    with run errors and items the model has no response to counted as 0; s48user
    saw a row show 0.850 and rank on 0.425 with no figure saying so), then the
    mean and the 95% percentile-bootstrap interval ``[low,high]`` of each of
    :data:`ipb.scoring.summary.LEADERBOARD_METRICS`, and the n of N the
    composite is over. "—" is a metric that applies to none of the model's
    responses (e.g. GRA on items without a gold program).
    """
    from rich.table import Table
    from rich.text import Text

    from ipb.scoring.summary import KCCS_UNKNOWN_NOTE, LEADERBOARD_METRICS, leaderboard, rank_note

    # model names come from the responses: printed through printable (bidirectional controls, ESC), never as markup
    console = console or SafeConsole(highlight=False, soft_wrap=False, width=board_width())
    rows = leaderboard(summary)
    policy = (summary.get("failures") or {}).get("policy", "exclude")
    table = Table(title="ipb score: leaderboard (mean [95% bootstrap CI])", title_justify="left")
    labels = {"layer_composite": "composite", "basp_strict": "BASP-strict", "basp_conjunction": "conj.",
              "gra": "GRA", "verdict_acc": "VerdictAcc", "ogrs_k": "OGRS_k", "kccs": "KCCS"}
    table.add_column("#", justify="right")
    # a model's name is its row's only key: never cut it ("local-chat-completions/good" and ".../wrong" both read
    # "local-chat-compl…" at width 200, s45user). A name of up to 40 characters keeps one line (no_wrap: the table
    # narrows the metric columns instead, which wrap their CI); a longer one folds onto more lines
    longest = max((len(str(r["model"])) for r in rows), default=0)
    table.add_column("model", no_wrap=longest <= 40, overflow="fold")
    # s52newuser: narrower than its natural width (a pipe: 100 columns), the board cuts no figure: a number keeps
    # its width, a metric cell wraps between its mean and its interval and folds the interval at its comma (7
    # columns: "[0.000," then "0.500]"), and a header folds
    table.add_column("n", justify="right", min_width=max((len(str(r.get("n"))) for r in rows), default=1), overflow="fold")
    table.add_column("coverage", justify="right", min_width=6, overflow="fold")
    # the figure ranked on, named in the header where it is not the composite (VerdictAcc on an L8 board with no
    # judge, s53newuser finding 1; the note under the board says why)
    on = rows[0].get("rank_on", "layer_composite") if rows else "layer_composite"
    table.add_column("ranked on" if on == "layer_composite" else f"ranked on {labels.get(str(on), on)}",
                     justify="right", min_width=6 if on == "layer_composite" else 10, overflow="fold")
    for name in LEADERBOARD_METRICS:
        table.add_column(labels.get(name, name), justify="right", min_width=7, overflow="fold")
    table.add_column("composite over", justify="right", min_width=6, overflow="fold")
    for rank, r in enumerate(rows, start=1):
        cov = r.get("coverage")
        comp = r.get("layer_composite") or {}
        ranked = r["rank_value"]
        table.add_row(str(rank), Text(str(r["model"])), str(r.get("n")), "—" if cov is None else f"{100 * cov:.1f}%",
                      "—" if ranked is None else f"{ranked:.3f}",
                      *[_metric_cell(r, name) for name in LEADERBOARD_METRICS], f"{comp.get('n', 0)} of {r.get('n')}")
    from rich import box

    # the least width of the ruled layout: each metric cell wraps to its interval, "[0.000,1.000]" (13 columns); a
    # name keeps up to 40; three columns of rule and padding per column
    least = (3 * len(table.columns) + 1 + len(str(len(rows))) + min(longest, 40) + 13 * len(LEADERBOARD_METRICS)
             + sum(c.min_width or 0 for c in table.columns[2:5]) + 6)
    if least > console.width:
        # too wide for the console even so: no vertical rules and one space between columns (a column each fewer per cell)
        table.box, table.padding, table.collapse_padding, table.show_edge = box.SIMPLE_HEAD, (0, 0, 0, 0), True, False
        for column in table.columns[2:]:  # n, coverage, ranked on, the metrics, composite over: at their least
            column.max_width = column.min_width
            # s62 new user N14: a header folded mid-word at that width ("covera / ge", "ranke / d on"); it is now
            # broken between words, or after a hyphen it is given
            if isinstance(column.header, str) and column.max_width:
                column.header = _fit_header(column.header, column.max_width)
        table.columns[1].no_wrap = False  # a long model name folds rather than pushes the board past the width
    console.print(table)
    by_model = _unscored_by_model(summary, [str(r["model"]) for r in rows])
    if by_model:
        console.print(by_model, markup=False)
    rules = (summary.get("options") or {}).get("rules") or {}
    note = (summary.get("failures") or {}).get("note") or "failures left out of the means (summary before issue 14)"
    console.print(f"failures: {policy}: {note}", markup=False)
    if rules:
        console.print("rules: " + ", ".join(f"{k}={v}" for k, v in rules.items() if k != "failures"), markup=False)
    console.print(_legend(rules.get("inconclusive")), markup=False)
    unknown = [(str(r["model"]), int(r.get("n_kccs_unknown") or 0)) for r in rows if r.get("n_kccs_unknown")]
    if unknown:
        console.print(KCCS_UNKNOWN_NOTE + ": " + "; ".join(f"{m} {k}" for m, k in unknown), markup=False)
    note = rank_note(summary, rows)
    if note:
        console.print(note, markup=False)


#: Where a leaderboard header word may break when its column is narrower than the word (a hyphen ends the first part).
_HEADER_BREAKS = {"coverage": ("cover-", "age"), "composite": ("compo-", "site"), "VerdictAcc": ("Verdict", "Acc"),
                  "BASP-strict": ("BASP-", "strict"), "ranked": ("rank-", "ed")}


def _fit_header(header: str, width: int) -> str:
    r"""``header`` with a line break wherever its words, set in ``width`` columns, would be cut mid-word: between
    words, else at :data:`_HEADER_BREAKS`, else in pieces of ``width - 1`` characters and a hyphen (s62 new user N14:
    the board on a pipe read "covera / ge", "ranke / d on", "composi / te").

    >>> _fit_header("coverage", 6), _fit_header("ranked on", 6), _fit_header("composite over", 7)
    ('cover-\nage', 'ranked\non', 'compo-\nsite\nover')
    >>> _fit_header("VerdictAcc", 7), _fit_header("KCCS", 7), _fit_header("abcdefghij", 4)
    ('Verdict\nAcc', 'KCCS', 'abc-\ndef-\nghij')
    """
    lines: list[str] = []
    for word in header.split():
        pieces = list(_HEADER_BREAKS.get(word, (word,))) if len(word) > width else [word]
        if any(len(p) > width for p in pieces):
            pieces = [word[i:i + width - 1] + "-" for i in range(0, len(word) - width, width - 1)]
            pieces.append(word[len(pieces) * (width - 1):])
        for piece in pieces:
            if lines and len(lines[-1]) + 1 + len(piece) <= width and not lines[-1].endswith("-"):
                lines[-1] += " " + piece
            else:
                lines.append(piece)
    return "\n".join(lines)


def _metric_cell(row: Mapping[str, Any], name: str) -> str:
    """A leaderboard cell: :func:`_cell`, and for KCCS "unknown on k" when k of the model's answers have it unknown.

    >>> _metric_cell({"kccs": {"mean": 1.0, "low": 1.0, "high": 1.0, "n": 1}, "n_kccs_unknown": 2}, "kccs")
    '1.000 [1.000,1.000] unknown on 2'
    >>> _metric_cell({"kccs": None, "n_kccs_unknown": 0}, "kccs")
    '—'
    """
    cell = _cell(row.get(name))
    k = int(row.get("n_kccs_unknown") or 0) if name == "kccs" else 0
    return f"{cell} unknown on {k}" if k else cell


def _unscored_by_model(summary: Mapping[str, Any], models: list[str]) -> str:
    """Per model, in leaderboard order, its refusals, parse failures and answers scored on a final verdict alone.

    The table shows coverage only, and the closing line totals over every model (s41user: "98 refusal(s)" for two
    models, all of one); "" when the summary's model groups carry no counts.

    >>> _unscored_by_model({"failures": {"policy": "count"}, "groups": {"model": {"y": {"n_refusals": 3,
    ...     "n_parse_failures": 1, "n_trace_unread": 2}, "x": {"n_refusals": 0, "n_parse_failures": 0}}}}, ["x", "y"])
    'refusals and parse failures by model (each in the means at 0): x 0 refusal(s), 0 parse failure(s); y 3 refusal(s), 1 parse failure(s) (and 2 scored on a final verdict alone)'
    >>> _unscored_by_model({"failures": {"policy": "count"}, "groups": {"model": {"f": {"n_refusals": 0,
    ...     "n_parse_failures": 0, "n_run_errors": 7}}}}, ["f"]).partition("): ")[2]
    'f 0 refusal(s), 0 parse failure(s), 7 unanswered (run errors: out of the means, against coverage; run ipb respond again to ask them)'
    """
    from ipb.scoring.outcome import REFUSAL_REASONS

    groups = (summary.get("groups") or {}).get("model") or {}
    policy = (summary.get("failures") or {}).get("policy", "exclude")
    # the reasons behind each model's refusals: an answer hedging every gate (no_commitment) and keyboard noise
    # (off_topic) both showed as "6 refusal(s)", like a model that declined (s50user); summaries written before the
    # unscored list named its records' model have none, and the line keeps the short form
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for u in summary.get("unscored") or ():
        if isinstance(u, Mapping) and u.get("model") is not None and u.get("reason_code") in REFUSAL_REASONS:
            reasons[str(u["model"])][str(u["reason_code"])] += 1
    parts = []
    for model in models:
        g = groups.get(model) or {}
        if "n_refusals" not in g and "n_parse_failures" not in g:
            continue
        # records that name no model are grouped as "(none)" in the summary; the line says what that means (s52break)
        label = "records naming no model:" if model == "(none)" else model
        part = (f"{label} {int(g.get('n_refusals') or 0)} refusal(s), {int(g.get('n_parse_failures') or 0)} "
                "parse failure(s)")
        unread = int(g.get("n_trace_unread") or 0)
        part += f" (and {unread} scored on a final verdict alone)" if unread else ""
        # items asked and never answered (the run's errors): out of the means, so said here, where coverage is read
        # (s44user: 7 server errors of 10 showed as "0 refusal(s), 0 parse failure(s)" beside coverage 100%)
        run_errors = int(g.get("n_run_errors") or 0)
        part += (f", {run_errors} unanswered (run errors: out of the means, against coverage; run "
                 "ipb respond again to ask them)" if run_errors else "")
        why = reasons.get(model) or Counter()
        if set(why) - {"refusal"}:
            part += " [of the refusals: " + ", ".join(f"{n} {code}" for code, n in sorted(why.items())) + "]"
        parts.append(part)
    if not parts:
        return ""
    how = ("each in the means at 0" if policy == "count" else
           "left out of the means shown, each ranked as 0 in 'ranked on'")
    return f"refusals and parse failures by model ({how}): " + "; ".join(parts)


def _legend(inconclusive: object) -> str:
    """What the leaderboard's columns do with "unknown" answers, and what conj. is (under the table)."""
    from ipb.scoring.metrics.verdict import GRA_INCONCLUSIVE_RULE  # one wording with ipb report's caption

    committed = ("0.5 only when the answer names the data gap" if inconclusive != "flat" else "0.5")
    return ("unknowns: a stated INCONCLUSIVE final verdict scores 0 on VerdictAcc where the gold is decided and 1 where "
            f"the gold is INCONCLUSIVE (a committed verdict there: {committed}); {GRA_INCONCLUSIVE_RULE} (§7.15); "
            "an answer with no final verdict scores 0 on VerdictAcc; one that commits to nothing (no gate PROCEED or "
            "REJECT, no decided final verdict) is a refusal (no_commitment), scored 0 like one\n"
            "conj.: the share of responses passing every BASP-strict gate (BASP-strict: the composite times the "
            "share of its gates passed, docs/scoring.md)")
