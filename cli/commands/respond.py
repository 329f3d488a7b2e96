"""``ipb respond`` and ``ipb judge``: model runs under conditions A, B, C, and the optional G-Eval judge.

    ipb respond --items ITEMS.jsonl --model NAME --base-url URL --conditions A,B,C
                --out RESPONSES.jsonl [--concurrency N] [--max-tokens N] [--temperature T]
                [--cot] [--judge-model NAME] [--dry-run] [--backend local|ray [--ray-address ADDR]] ...
    ipb respond --synthetic (--items ITEMS.jsonl | --bundled) --out RESPONSES.jsonl
                [--model NAME] [--conditions A] [--corruptions LIST] [--seed N] [--overwrite]
    ipb judge --items ITEMS.jsonl --responses RESPONSES.jsonl --model NAME --base-url URL
              --out JUDGED.jsonl [--samples 20] [--temperature 0.7] [--max-tokens 6000] ...

``--synthetic`` asks no server: it writes the gold programs' answers with
recorded corruptions (:func:`ipb.respond.run.run_synthetic`), with
``--bundled`` for every bundled scenario executed on its card, and refuses
the options only a model run uses.

The API key comes from ``IPB_API_KEY`` or ``OPENAI_API_KEY`` (the judge's
from ``IPB_JUDGE_API_KEY`` first) and is never written anywhere. Exit
status: 0 when every record is ok, 1 when some record failed or the run
stopped (401, 403, 404), or on an input error; 2 on a usage error.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Optional

import typer

from ipb.cli import _app  # the module, not the name: _interrupted reads CONSOLE_PROCESS as main() left it
from ipb.cli._card_specs import card_spec_paths
from ipb.cli._app import INVESTORS_HELP, _fail, _write_failed, app, err, json_printable, out, use_investor_files, write_stdout
from ipb.distributed import Backend
from ipb.errors import IpbError, LoadError

_TEMPERATURE_HELP = "Sampling temperature, or 'none' to send none (for models that refuse one)."

#: Options that only --synthetic uses, and those --synthetic uses besides them;
#: every other option given with --synthetic is an error naming it.
_SYNTHETIC_ONLY = ("corruptions", "bundled")
_SYNTHETIC_USES = ("items", "out_path", "model", "conditions", "seed", "overwrite", "synthetic", "quiet", "cards_dir", "investors",
                   "backend", "ray_address", *_SYNTHETIC_ONLY)


def _corruptions_help() -> str:
    text = ("With --synthetic: comma-separated corruption specs, each a name or names joined by '+' "
            "(default: every one, one response each)")
    try:
        from ipb.respond.synthetic import corruption_names
    except ImportError:  # pragma: no cover - an installation without the generator
        return text + "."
    return f"{text}. Registered: {', '.join(corruption_names())}."


def _given(ctx: typer.Context, names: tuple[str, ...] | None = None, *, skip: tuple[str, ...] = ()) -> list[str]:
    """The options of ``names`` (default: every one but ``skip``) given on the command line, as typed (--name)."""
    given = []
    for param in ctx.command.params:
        name = param.name or ""
        if (names is not None and name not in names) or name in skip:
            continue
        source = ctx.get_parameter_source(name)  # typer's own click: compare by name
        if getattr(source, "name", None) == "COMMANDLINE":
            given.append(max(param.opts, key=len))
    return given


def _bundled_items_path(out_path: Path) -> Path:
    """Where ``--bundled`` writes its items: ``OUT.jsonl`` -> ``OUT.items.jsonl`` beside it."""
    stem = out_path.name[:-len(".jsonl")] if out_path.name.endswith(".jsonl") else out_path.name
    return out_path.with_name(f"{stem}.items.jsonl")


def _usage(message: str) -> typer.Exit:
    """Say what is wrong with the options; the exit status of a usage error (2)."""
    err.print(f"ipb respond: {message}", markup=False)
    return typer.Exit(code=2)


def _temperature(text: str) -> float | None:
    if text.strip().lower() in ("none", "default", ""):
        return None
    try:
        value = float(text)
    except ValueError:
        raise typer.BadParameter(f"expected a number or 'none', got {text!r}", param_hint="--temperature") from None
    if not math.isfinite(value):
        raise typer.BadParameter(f"expected a finite number or 'none', got {text!r}", param_hint="--temperature")
    return value


def _not_json_number(word: str) -> Any:
    """``json.loads`` reads NaN and Infinity, which no request body may hold: refuse them in --extra-body."""
    from ipb.respond.records import RunError

    raise RunError(f"--extra-body holds {word}, which is not a JSON number", rule="usage")


#: The longest wait, in seconds, --backoff and --timeout may ask for (a day; the system's sleep has its own bound).
LONGEST_WAIT_S = 86400.0


def _check_numbers(**given: float | None) -> None:
    """Refuse a number option that is not finite, or a wait longer than :data:`LONGEST_WAIT_S`, before any request.

    Hostile tester, stop 46: ``--backoff 1e308`` stopped ``ipb respond`` with an OverflowError traceback at the first
    retry; ``--timeout inf`` made every record an ``internal: OverflowError`` error; ``--temperature nan`` and
    ``--top-p nan`` failed every request as a "malformed response body" (the request body is not JSON), retried.
    Keys are the option names with ``_`` for ``-`` (``top_p`` is ``--top-p``).
    """
    from ipb.respond.records import RunError

    for name, value in given.items():
        option = "--" + name.replace("_", "-")
        if value is None:
            continue
        if not math.isfinite(value):
            raise RunError(f"{option} must be a finite number, not {value}", rule="usage")
        if name in ("backoff", "timeout") and value > LONGEST_WAIT_S:
            raise RunError(f"{option} must be at most {LONGEST_WAIT_S:g} seconds (a day), not {value:g}", rule="usage")


def _cache_dir(no_cache: bool, cache_dir: Optional[Path]) -> Path | None:
    if no_cache:
        return None
    from ipb.respond.cache import default_cache_dir

    return cache_dir if cache_dir is not None else default_cache_dir()


def _announce_encoder(conditions: Any, retriever: str) -> bool:
    """Say on stderr, when the sentence encoder loads, what the silent wait before the first request is.

    Condition B's default ranking loads all-MiniLM-L6-v2 and encodes every knowledge card before any request
    is sent: a new user's run of 40 items waited about 1 min 50 s on a busy 2-core machine with nothing on
    the terminal (s34user). Registers the notice only when condition B is asked with the embedding retriever;
    returns whether it did.
    """
    if "B" not in tuple(conditions) or retriever != "embedding":
        return False
    from ipb.scoring._load_notice import MATCHING, on_model_load

    def say(message: str) -> None:  # condition B's wording only for B's load, not for the parser's fallback
        err.print(f"ipb respond: {message}" + ("; condition B then encodes the knowledge cards: up to minutes on a busy "
                                               "machine, before the first request (--retriever keyword skips both)"
                                               if MATCHING in message else ""), markup=False)

    on_model_load(say, "ipb respond")
    return True


def _warn(message: str) -> None:
    err.print(f"warning: {message}", markup=False)


def _finish(result: Any) -> None:
    for note in result.dropped:
        _warn(f"{result.out}: dropped {note}")
    err.print(f"wrote {result.out}: {result.summary()}", markup=False)
    for line in getattr(result, "error_lines", lambda: [])():
        err.print(f"  {line}", markup=False)
    if result.fatal:
        err.print(f"{result.fatal}; the items not reached are left for the next run", markup=False)
    if not result.complete:
        raise typer.Exit(code=1)


def _empty_file(path: Path) -> bool:
    """True when ``path`` is a plain file of 0 bytes (an interrupted run's, with no record in it)."""
    try:
        return path.is_file() and not path.is_symlink() and path.stat().st_size == 0
    except OSError:
        return False


def _interrupted(out_path: Path, code: int, *, local: bool) -> None:
    """Say what an interrupted run kept, then, in the ``ipb`` console process with local workers, end it at once.

    The records already answered are in ``out_path`` (its writer closed as the interrupt passed through it); a run
    interrupted before any answer came back leaves no 0-byte file, which ``ipb score`` would refuse as empty. The
    worker threads still waiting on a request are not daemons, so Python would join them at exit: Ctrl-C would
    wait up to ``--timeout`` (120 s) for each request in flight, saying nothing (s50break: 36.8 s). Their answers
    would be dropped anyway, so the process ends now with ``code`` (130 for Ctrl-C, 128 + the signal otherwise).
    Under a test runner or an embedding program (or with Ray workers, whose clean-up must run) the interrupt is
    re-raised by the caller instead.
    """
    if _empty_file(out_path):  # interrupted before any answer came back: no 0-byte file for score to refuse (s65 F8)
        out_path.unlink(missing_ok=True)
        err.print(f"interrupted before any request was answered: nothing was written to {out_path}; requests still "
                  "in flight are dropped", markup=False)
    else:
        err.print(f"interrupted: the records answered so far are kept in {out_path}; requests still in flight are "
                  "dropped; run the same command again to resume", markup=False)
    from ipb.cli._stops import mark_said

    mark_said("interrupted")  # ipb.cli._app.main adds no second line (s63 new user B2)
    if _app.CONSOLE_PROCESS and local:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


@app.command()
def respond(
    ctx: typer.Context,
    items: Optional[Path] = typer.Option(None, "--items", "-i", help="Items file (JSON Lines) written by ipb perturb."),
    out_path: Optional[Path] = typer.Option(None, "--out", "-o", help="Responses file (JSON Lines); an existing one is resumed (see --overwrite)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="Model name as the server knows it; with --synthetic, the records' model (default synthetic)."),
    base_url: Optional[str] = typer.Option(None, "--base-url", envvar="IPB_BASE_URL", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1."),
    conditions: Optional[str] = typer.Option(None, "--conditions", "-c", help="Any of A (closed book), B (retrieved knowledge cards), C (gold card), comma-separated (default A,B,C; with --synthetic, A, and each condition given gets its own copy of the responses)."),
    concurrency: int = typer.Option(4, "--concurrency", "-j", min=1, help="Requests in flight at most."),
    max_tokens: int = typer.Option(4096, "--max-tokens", min=0, help="Completion token budget per response (0: send none, e.g. with max_completion_tokens in --extra-body)."),
    temperature: str = typer.Option("0", "--temperature", "-t", help=_TEMPERATURE_HELP),
    top_p: Optional[float] = typer.Option(None, "--top-p", help="Nucleus sampling (not sent unless given)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Sampling seed sent to the model; with --synthetic, the generator's seed (default 0)."),
    extra_body: Optional[str] = typer.Option(None, "--extra-body", help="JSON object of further request fields (e.g. a router's reasoning options)."),
    cot: bool = typer.Option(False, "--cot", help="Framework-aware chain of thought (paper section 7.4)."),
    prompts: str = typer.Option("respond-v1", "--prompts", help="Bundled prompt set."),
    retriever: str = typer.Option("embedding", "--retriever", help="Condition B ranking: embedding (default model, keyword fallback) or keyword."),
    top_k: int = typer.Option(3, "--top-k", min=1, help="Knowledge cards per named investor in condition B."),
    card: list[str] = typer.Option([], "--card", help="ID=PATH: use this card file for card ID (conditions B and C); or a card file alone, for the id it declares."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files (repeatable). A card id is looked up in --cards, then IPB_CARDS, then the items' own copies (ipb-cards/ beside --items), then the bundled cards; a card whose sha256 differs from the item's is refused."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.01, help="Seconds one attempt may take."),
    retries: int = typer.Option(6, "--retries", min=0, help="Retries after a rate limit, server error, time-out or malformed body."),
    backoff: float = typer.Option(1.0, "--backoff", min=0.0, help="First backoff in seconds (doubles per retry, capped at 60 s, seeded jitter)."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", envvar="IPB_CACHE_DIR", help="Response cache folder (default ~/.cache/ipb)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the response cache."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Start the responses file afresh instead of resuming it."),
    judge_model: Optional[str] = typer.Option(None, "--judge-model", help="Also judge L6/L8 responses with this model (G-Eval, paper section 7.12)."),
    judge_base_url: Optional[str] = typer.Option(None, "--judge-base-url", help="The judge's endpoint (default --base-url)."),
    judge_samples: int = typer.Option(20, "--judge-samples", min=1, help="Judge samples per dimension."),
    judge_temperature: float = typer.Option(0.7, "--judge-temperature", help="Judge sampling temperature."),
    judge_max_tokens: Optional[int] = typer.Option(None, "--judge-max-tokens", min=1, help="Judge token budget (default $JUDGE_MAX_TOKENS or 6000)."),
    synthetic: bool = typer.Option(False, "--synthetic", help="Write synthetic responses from the gold programs (no server; ipb.respond.synthetic)."),
    corruptions: Optional[str] = typer.Option(None, "--corruptions", help=_corruptions_help()),
    bundled: bool = typer.Option(False, "--bundled", help="With --synthetic, instead of --items: every bundled scenario executed on its card, the items also written beside --out (OUT.items.jsonl, for ipb score --items)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print each request (messages, prompt hash, request key) as JSON Lines; send nothing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: calls from this process; ray: calls from the workers of a Ray cluster, the cache, the concurrency limit and the file kept here (docs/scale-out.md). --synthetic always runs here."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    investors: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP),
) -> None:
    """Ask a model every item under conditions A, B and C; write one response record per (item, condition).

    With --synthetic, no model: write answers rendered from the gold programs, with recorded corruptions.
    """
    from ipb.respond.client import RetryPolicy
    from ipb.respond.judge import JudgeConfig, default_max_tokens
    from ipb.respond.records import RunError, dumps_record, load_items
    from ipb.respond.run import GenerationSettings, RespondConfig, parse_conditions, prepare_requests, run_respond

    try:
        from ipb.engine.registry import use_cards, use_items

        # --synthetic uses no --card (it refuses one, naming it, before reading anything): read the files otherwise
        use_cards(cards_dir, files={} if synthetic else card_spec_paths(card))
        use_investor_files(investors)
        if items is not None:
            use_items(items)
        _refuse_out_over_items(out_path, items)
        if synthetic:
            result, items_path, n_items = _respond_synthetic(ctx, items, out_path, model, conditions, corruptions, seed,
                                                             overwrite, bundled)
            _finish(result)
            if items_path is not None:
                err.print(f"wrote {items_path}: {n_items} bundled item(s), for ipb score --items", markup=False)
            return
        only = _given(ctx, _SYNTHETIC_ONLY)
        if only:
            raise _usage(f"{' and '.join(only)} {'needs' if len(only) == 1 else 'need'} --synthetic")
        if items is None:
            raise _usage("--items is required (or --synthetic --bundled)")
        conds = parse_conditions(conditions if conditions is not None else "A,B,C")
        loaded = load_items(items)
        if model is None or (base_url is None and not dry_run):
            raise RunError("--model and --base-url are required (or use --synthetic)", rule="usage")
        extra: dict[str, Any] = {}
        if extra_body:
            try:
                extra = json.loads(extra_body, parse_constant=_not_json_number)
            except json.JSONDecodeError as exc:
                raise RunError(f"--extra-body is not JSON: {exc.msg}", rule="usage") from None
            if not isinstance(extra, dict):
                raise RunError("--extra-body must be a JSON object", rule="usage")
        if retriever not in ("embedding", "keyword"):
            raise RunError(f"--retriever must be embedding or keyword, not {retriever!r}", rule="usage")
        _check_numbers(backoff=backoff, timeout=timeout, top_p=top_p, judge_temperature=judge_temperature)
        _announce_encoder(conds, retriever)
        policy = RetryPolicy(retries=retries, base_s=backoff, max_s=max(60.0, backoff))
        judge = None
        if judge_model is not None:
            judge = JudgeConfig(judge_model, judge_base_url or base_url or "", samples=judge_samples,
                                temperature=judge_temperature,
                                max_tokens=judge_max_tokens if judge_max_tokens is not None else default_max_tokens(),
                                concurrency=concurrency, timeout_s=max(timeout, 300.0), retry=policy)
        config = RespondConfig(
            model=model,
            base_url=base_url or "",
            conditions=conds,
            generation=GenerationSettings(_temperature(temperature), max_tokens or None, top_p, seed, extra),
            cot=cot,
            prompts=prompts,
            top_k=top_k,
            retriever=retriever,
            concurrency=concurrency,
            timeout_s=timeout,
            retry=policy,
            cache_dir=_cache_dir(no_cache, cache_dir),
            overwrite=overwrite,
            card_paths=card_spec_paths(card),
            judge=judge,
        )
        if dry_run:
            for req in prepare_requests(loaded, config, warn=_warn):
                write_stdout(json_printable(dumps_record({"item_id": req.item.id, "condition": req.condition, "problem": req.problem,
                                        "prompt_version": req.prompt_version, "prompt_hash": req.prompt_hash,
                                        "request_hash": req.request_hash, "settings": req.settings,
                                        "context": req.context, "messages": req.messages})) + "\n")
            return
        if out_path is None:
            raise RunError("--out is required", rule="usage")
        _check_writable(out_path)
        client = None
        if backend is Backend.ray:
            from ipb.distributed import connect
            from ipb.distributed.respond import RayChatClient

            if out_path.is_dir():  # the local backend's refusal of a folder, before Ray starts (breaker 3, finding 7)
                from ipb._files import check_target
                from ipb.respond.records import read_output

                check_target(out_path) if overwrite else read_output(out_path)

            client = RayChatClient(connect(ray_address), config.base_url, timeout_s=timeout, concurrency=concurrency,
                                   policy=policy)
        try:
            result = run_respond(loaded, out_path, config, client=client, console=None if quiet else err, warn=_warn)
        except KeyboardInterrupt:
            _interrupted(out_path, 130, local=client is None)
            raise
        except SystemExit as exc:  # SIGTERM / SIGHUP, made an exception by stop_on_terminate
            if isinstance(exc.code, int) and exc.code > 128:
                _interrupted(out_path, exc.code, local=client is None)
            raise
    except IpbError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _write_failed(exc, out_path, "--out") from None
    _finish(result)


def _respond_synthetic(ctx: typer.Context, items: Optional[Path], out_path: Optional[Path], model: Optional[str],
                       conditions: Optional[str], corruptions: Optional[str], seed: Optional[int], overwrite: bool,
                       bundled: bool) -> tuple[Any, Path | None, int]:
    """``ipb respond --synthetic``: check the options, write the records (and with --bundled the items).

    Returns the run's result, and the items file written with --bundled and its number of items.

    Raises
    ------
    typer.Exit
        Exit status 2: an option only a model run uses, or --items and --bundled both or neither.
    RunError, LoadError, ScoreError
        No --out; an unknown condition or corruption; see :func:`~ipb.respond.run.run_synthetic`.
    """
    from ipb.respond.records import RunError, items_from_data, load_items, write_atomic
    from ipb.respond.run import SYNTHETIC_MODEL, check_corruptions, parse_conditions, run_synthetic

    unused = _given(ctx, skip=_SYNTHETIC_USES)
    if unused:
        raise _usage(f"--synthetic asks no server and does not use {', '.join(unused)}; leave "
                     f"{'it' if len(unused) == 1 else 'them'} out")
    if out_path is None:
        raise RunError("--synthetic needs --out", rule="usage")
    if bundled and items is not None:
        raise _usage(f"--bundled answers the bundled scenarios and writes their items to "
                     f"{_bundled_items_path(out_path)}; leave out --items")
    if not bundled and items is None:
        raise _usage("--synthetic needs --items (or --bundled)")
    _check_writable(out_path)

    conds = parse_conditions(conditions if conditions is not None else "A")
    specs = [c.strip() for c in corruptions.split(",") if c.strip()] if corruptions is not None else None
    if specs == []:
        raise _usage("--corruptions names no corruption (leave it out for every one)")
    if specs is not None:
        check_corruptions(specs)
    rows: list[dict[str, Any]] = []
    if bundled:
        from ipb.respond.synthetic import bundled_items

        rows = bundled_items()
        loaded = items_from_data(rows, file="bundled scenarios")
    else:
        assert items is not None
        loaded = load_items(items)
    result = run_synthetic(loaded, out_path, model=model if model is not None else SYNTHETIC_MODEL, conditions=conds,
                           corruptions=specs, seed=seed if seed is not None else 0, overwrite=overwrite)
    if not bundled:
        return result, None, 0
    from ipb.perturb.items import dumps_item

    items_path = _bundled_items_path(out_path)
    write_atomic(items_path, (dumps_item(r) for r in rows))
    return result, items_path, len(rows)


def _refuse_out_over_items(out_path: Optional[Path], items: Optional[Path], *, command: str = "respond",
                           responses: Optional[Path] = None) -> None:
    """Refuse an ``--out`` that is the ``--items`` file or (judge) the ``--responses`` file, before anything is
    written (:func:`ipb._files.refuse_overwriting`: the same path, or a link to it).

    s51break: ``ipb respond -i I -o I --overwrite`` (and ``ipb judge`` alike) replaced the items file with
    the responses; without --overwrite the error only said the items were "not a valid response record".
    """
    from ipb._files import refuse_overwriting

    refuse_overwriting({"--out": out_path}, {"items file": items, "responses file": responses}, command=command)


def _check_writable(out_path: Path) -> None:
    """Refuse an ``--out`` that cannot be written before any request is made or record read
    (:func:`ipb._files.check_writable`, as ``ipb perturb`` does; s57fixio)."""
    from ipb._files import check_writable

    check_writable({"--out": out_path})


@app.command()
def judge(
    items: Path = typer.Option(..., "--items", "-i", help="Items file the responses answer."),
    responses: Path = typer.Option(..., "--responses", "-r", help="Responses file written by ipb respond."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Judged responses (JSON Lines): every record, L6/L8 ones with a judgment; resumed if it exists."),
    model: str = typer.Option(..., "--model", "-m", help="Judge model."),
    base_url: str = typer.Option(..., "--base-url", envvar="IPB_JUDGE_BASE_URL", help="The judge's OpenAI-compatible endpoint."),
    samples: int = typer.Option(20, "--samples", "-n", min=1, help="Judge samples per dimension (paper: 20)."),
    temperature: float = typer.Option(0.7, "--temperature", "-t", help="Judge sampling temperature (paper: 0.7)."),
    max_tokens: Optional[int] = typer.Option(None, "--max-tokens", min=1, help="Judge token budget (default $JUDGE_MAX_TOKENS or 6000)."),
    layers: str = typer.Option("L6,L8", "--layers", help="Layers to judge (those with a rubric: L6, L8)."),
    concurrency: int = typer.Option(4, "--concurrency", "-j", min=1),
    timeout: float = typer.Option(300.0, "--timeout", min=0.01),
    retries: int = typer.Option(6, "--retries", min=0),
    backoff: float = typer.Option(1.0, "--backoff", min=0.0),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", envvar="IPB_CACHE_DIR"),
    no_cache: bool = typer.Option(False, "--no-cache"),
    overwrite: bool = typer.Option(False, "--overwrite", help="Start the output afresh instead of resuming it."),
    quiet: bool = typer.Option(False, "--quiet", "-q"),
) -> None:
    """Judge the L6/L8 responses on the G-Eval dimensions of paper section 7.12 (optional; scoring stays algorithmic)."""
    from ipb.respond.client import RetryPolicy
    from ipb.respond.judge import JudgeConfig, default_max_tokens, run_judge
    from ipb.respond.records import load_items, read_output

    try:
        _check_numbers(backoff=backoff, timeout=timeout, temperature=temperature)
        _refuse_out_over_items(out_path, items, command="judge", responses=responses)
        _check_writable(out_path)
        config = JudgeConfig(
            model, base_url, samples=samples, temperature=temperature,
            max_tokens=max_tokens if max_tokens is not None else default_max_tokens(),
            layers=tuple(x.strip().upper() for x in layers.split(",") if x.strip()),
            concurrency=concurrency, timeout_s=timeout, retry=RetryPolicy(retries=retries, base_s=backoff, max_s=max(60.0, backoff)),
        )
        result = run_judge(load_items(items), responses, out_path, config, cache_dir=_cache_dir(no_cache, cache_dir),
                           overwrite=overwrite, console=None if quiet else err)
        judged = read_output(out_path).records
    except IpbError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _write_failed(exc, out_path, "--out") from None
    cells: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    excluded: dict[tuple[str, str, str], int] = defaultdict(int)
    for record in judged:
        j = record.get("judgment")
        if not isinstance(j, dict):
            continue
        cell = (str(record["model"]), str(record["condition"]), str(j["layer"]))
        if j["status"] == "ok" and j["score"] is not None:
            cells[cell].append(float(j["score"]))
        else:
            excluded[cell] += 1
    for cell in sorted(set(cells) | set(excluded)):
        scores = cells.get(cell, [])
        mean = f"{sum(scores) / len(scores):.3f}" if scores else "-"
        out.print(f"{cell[0]} condition {cell[1]} {cell[2]}: GEval {mean} over {len(scores)} response(s), "
                  f"{excluded.get(cell, 0)} excluded (unscored or failed)", markup=False)
    _finish(result)


__all__ = ["respond", "judge"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
