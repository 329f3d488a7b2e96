"""``ipb respond``: every item under every condition, one response record each.

:func:`prepare_requests` turns items into requests (the messages of each
condition, their prompt hash and request key) without touching the network;
:func:`run_respond` sends them and writes the records; :func:`run_jobs` is
the resumable, concurrent writer both it and ``ipb judge`` use.

Resuming. Before sending anything, the output file an earlier run left is
read: a cut-off last line is dropped, records that failed (or whose judgment
is stale) are tried again, staying in the file until their replacement is
written, and a complete record whose request key matches this run's is kept
and its request skipped. A complete record made with other settings
(another model, temperature, prompt, retrieved context...) stops the run
with an error naming the difference, unless ``overwrite`` is set: a file
never mixes responses made with different settings. Synthetic runs
(:func:`run_synthetic`, no server) follow the same rule, their records keyed
by (item, condition, corruption), and write the file once, atomically.

References
----------
Paper §7.1 (models through an OpenAI-compatible router), §7.2 (conditions A,
B, C), §7.4 (standard system prompt; framework-aware CoT).
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from rich.console import Console

from ipb.engine.registry import compiled_card, item_card
from ipb.errors import IpbError, LoadError
from ipb.respond._knowledge_hash import recorded_knowledge, stale_warning
from ipb.respond.knowledge import KNOWLEDGE_VERSION, KnowledgeBase, card_text
from ipb.scoring.embeddings import Encoder
from ipb.respond.cache import ResponseCache
from ipb.respond.client import ChatClient, Completion, RequestFailed, RetryPolicy, Secrets, public_url
from ipb.respond.jobs import Job, RunResult, _count, _sort_existing, run_jobs
from ipb.respond.prompts import RESPOND_PROMPTS, PromptSet, load_prompts
from ipb.respond.records import (
    CONDITIONS,
    RESPONSE_VERSION,
    RunError,
    RunItem,
    canonical_hash,
    dumps_record,
    output_lock,
    read_output,
    validate_record,
    write_atomic,
)

__all__ = [
    "GenerationSettings",
    "RespondConfig",
    "PreparedRequest",
    "Job",
    "RunResult",
    "parse_conditions",
    "prepare_requests",
    "request_key",
    "run_jobs",
    "run_respond",
    "SYNTHETIC_MODEL",
    "check_corruptions",
    "synthetic_records",
    "synthetic_keys",
    "run_synthetic",
]


@dataclass(frozen=True)
class GenerationSettings:
    """What is sent to the model besides the messages; every field is part of the request key.

    None means "not sent" (the server's default applies). ``extra_body``
    holds further JSON fields for the server (e.g. a router's reasoning
    options).
    """

    temperature: float | None = 0.0
    max_tokens: int | None = 4096
    top_p: float | None = None
    seed: int | None = None
    extra_body: Mapping[str, Any] = field(default_factory=dict)

    def params(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": self.top_p,
                "seed": self.seed, "extra_body": dict(self.extra_body)}


@dataclass(frozen=True)
class RespondConfig:
    """Everything a respondent run needs besides the items.

    ``card_paths`` maps a card id to a card file used instead of the bundled
    card (condition C, and B's investor lookup). ``cache_dir`` None: no cache.
    ``judge``: an optional :class:`ipb.respond.judge.JudgeConfig`.
    """

    model: str
    base_url: str
    conditions: tuple[str, ...] = ("A",)
    generation: GenerationSettings = field(default_factory=GenerationSettings)
    cot: bool = False
    prompts: str = RESPOND_PROMPTS
    top_k: int = 3
    retriever: str = "embedding"
    concurrency: int = 4
    timeout_s: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    cache_dir: Path | None = None
    overwrite: bool = False
    card_paths: Mapping[str, str] = field(default_factory=dict)
    judge: Any = None


def parse_conditions(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"A,B,C"`` (or a list) -> ``("A", "B", "C")``, upper-cased, duplicates dropped, order kept.

    >>> parse_conditions("c, a,A")
    ('C', 'A')

    Raises
    ------
    RunError
        Empty, or a condition other than A, B, C.
    """
    raw = text.split(",") if isinstance(text, str) else list(text)
    out = [c.strip().upper() for c in raw if c.strip()]
    bad = [c for c in out if c not in CONDITIONS]
    if bad or not out:
        raise RunError(f"conditions must be a comma-separated subset of A,B,C; got {text!r}", rule="conditions",
                       name=",".join(bad) or None)
    return tuple(dict.fromkeys(out))


@dataclass
class PreparedRequest:
    """One (item, condition): its messages, prompt hash, settings and request key.

    ``problem`` is set (and ``messages`` empty) when the request cannot be
    made, e.g. condition C for an item without a gold card; it becomes an
    error record.
    """

    item: RunItem
    condition: str
    messages: list[dict[str, str]]
    prompt_version: str
    prompt_hash: str | None
    settings: dict[str, Any]
    context: dict[str, Any] | None
    request_hash: str
    problem: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.item.id, self.condition)


def request_key(model: str, base_url: str, params: Mapping[str, Any], messages: Sequence[Mapping[str, str]],
                **identity: Any) -> str:
    """The cache and resume key of a request: SHA-256 of its canonical JSON.

    Covers the model, the server (without credentials), every generation
    parameter and the exact messages (so the prompt templates, the item's
    text and any retrieved context), plus ``identity`` (item id, condition,
    prompt hash...).

    >>> a = request_key("m", "http://x/v1", {"temperature": 0.0}, [{"role": "user", "content": "q"}], item_id="i")
    >>> b = request_key("m", "http://x/v1", {"temperature": 0.7}, [{"role": "user", "content": "q"}], item_id="i")
    >>> a != b
    True
    """
    return canonical_hash({"model": model, "base_url": public_url(base_url), "params": dict(params),
                           "messages": [dict(m) for m in messages], **identity})


def _card(ref: str, card_paths: Mapping[str, str]) -> Any:
    return compiled_card(item_card(ref, card_paths)).card


def prepare_requests(
    items: Sequence[RunItem],
    config: RespondConfig,
    *,
    knowledge: KnowledgeBase | None = None,
    encoder: Encoder | None = None,
    prompts: PromptSet | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[PreparedRequest]:
    """The requests of a run, item by item, condition by condition (no network).

    Condition A sends the question; B the top ``config.top_k`` knowledge
    cards of each investor the item names (:meth:`KnowledgeBase.retrieve`);
    C the text of each gold card (:func:`ipb.respond.knowledge.card_text`).

    Parameters
    ----------
    knowledge : KnowledgeBase, optional
        Default :meth:`KnowledgeBase.bundled` (built only when B is asked for).
    encoder : Encoder, optional
        For B's embedding retrieval; default the package's default encoder.
    warn : callable, optional
        Called once per distinct warning (e.g. a keyword fallback).
    """
    prompts = prompts or load_prompts(config.prompts)
    system = prompts.render("system")
    cot = prompts.render("cot") if config.cot else None
    warned: set[str] = set()

    def note(message: str) -> None:
        if warn is not None and message not in warned:
            warned.add(message)
            warn(message)

    if "B" in config.conditions and knowledge is None:
        knowledge = KnowledgeBase.bundled()
        for trouble in knowledge.problems:
            note(f"knowledge base: {trouble}")
    stale: list[str] = []  # items whose recorded knowledge version differs from this knowledge base's
    versions: dict[tuple[str, ...], str] = {}  # the installed knowledge version per investor list
    params = config.generation.params()
    base_settings = {**params, "cot": config.cot, "base_url": public_url(config.base_url)}
    out: list[PreparedRequest] = []
    for item in items:
        for condition in config.conditions:
            parts = ["system", f"user-{condition}"] + (["cot"] if cot else [])
            settings = dict(base_settings)
            context: dict[str, Any] | None = None
            problem: str | None = None
            user = ""
            try:
                if condition == "A":
                    user = prompts.render("user-A", question=item.question)
                elif condition == "B":
                    assert knowledge is not None
                    settings["retrieval"] = {"method": config.retriever, "k": config.top_k}
                    investors = list(item.investors)
                    if not investors and item.cards:
                        investors = [_card(c, config.card_paths).investor for c in item.cards]
                    found = knowledge.retrieve(item.question, investors, k=config.top_k, method=config.retriever,
                                               encoder=encoder)
                    if found.fallback:
                        note(f"condition B: {found.fallback}")
                    context = {"knowledge_version": KNOWLEDGE_VERSION, **found.to_dict(),
                               **recorded_knowledge(item, found, config.top_k, versions, stale)}
                    blocks = [f"[{i}] {c.title}\n{c.text}" for i, c in enumerate(found.cards, start=1)]
                    who = ", ".join(found.investors) if found.investors else "the question"
                    user = prompts.render("user-B", investors=who, cards="\n\n".join(blocks), question=item.question)
                else:
                    if not item.cards:
                        raise LoadError("condition C needs the item's gold card ('card', 'cards' or manifest cards)",
                                        rule="card")
                    cards = [_card(c, config.card_paths) for c in item.cards]
                    context = {"knowledge_version": KNOWLEDGE_VERSION, "cards": [
                        {"id": c.id, "content_hash": c.content_hash,
                         "matches_item": item.content_hashes.get(c.id) in (None, c.content_hash)} for c in cards]}
                    stale = [c.id for c in cards if item.content_hashes.get(c.id) not in (None, c.content_hash)]
                    if stale:
                        note(f"condition C: card(s) {', '.join(stale)} changed since the items were made "
                             "(run ipb verify on the items)")
                    user = prompts.render("user-C", cards="\n\n---\n\n".join(card_text(c) for c in cards),
                                          question=item.question)
            except IpbError as exc:
                problem = str(exc)
            messages: list[dict[str, str]] = []
            prompt_hash: str | None = None
            if problem is None:
                if cot:
                    user = f"{user}\n\n{cot}"
                messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
                prompt_hash = prompts.hash(parts)
                key = request_key(config.model, config.base_url, params, messages, item_id=item.id,
                                  condition=condition, prompt_hash=prompt_hash, cot=config.cot)
            else:
                key = canonical_hash({"model": config.model, "item_id": item.id, "condition": condition,
                                      "problem": problem})
            out.append(PreparedRequest(item, condition, messages, prompts.name, prompt_hash, settings, context, key,
                                       problem))
    if stale:
        note(stale_warning(stale))
    return out


# --------------------------------------------------------------------------- respondent records


def _record(req: PreparedRequest, model: str, *, status: str, response: str | None = None, error: str | None = None,
            usage: Mapping[str, Any] | None = None, latency_s: float | None = None, cached: bool = False,
            finish_reason: str | None = None) -> dict[str, Any]:
    return {
        "version": RESPONSE_VERSION,
        "item_id": req.item.id,
        "model": model,
        "condition": req.condition,
        "response": response,
        "status": status,
        "error": error,
        "prompt_version": req.prompt_version,
        "prompt_hash": req.prompt_hash,
        "settings": req.settings,
        "usage": dict(usage) if usage is not None else None,
        "latency_s": latency_s,
        "cached": cached,
        "request_hash": req.request_hash,
        "finish_reason": finish_reason,
        "context": req.context,
        "messages": req.messages,
        "judgment": None,
    }


def _difference(record: Mapping[str, Any], req: PreparedRequest, model: str) -> str:
    where = f"{req.item.id} condition {req.condition}"
    if record.get("model") != model:
        return f"{where}: model {record.get('model')!r}, this run {model!r}"
    old = record.get("settings") or {}
    for name in sorted(set(old) | set(req.settings)):
        if old.get(name) != req.settings.get(name):
            return f"{where}: {name} {old.get(name)!r}, this run {req.settings.get(name)!r}"
    if record.get("prompt_hash") != req.prompt_hash:
        return f"{where}: prompt {record.get('prompt_version')} {str(record.get('prompt_hash'))[:12]}, this run " \
               f"{req.prompt_version} {str(req.prompt_hash)[:12]}"
    return f"{where}: the request differs (the item's text or the retrieved context changed)"


def _respond_job(req: PreparedRequest, config: RespondConfig, client: ChatClient | None, cache: ResponseCache | None,
                 judge: Any, warn: Callable[[str], None] | None = None) -> Job:
    model = config.model

    def check(record: Mapping[str, Any]) -> str:
        if record.get("status") != "ok":
            return "redo"
        if record.get("request_hash") != req.request_hash:
            return _difference(record, req, model)
        if judge is not None and judge.applies(req.item) and not judge.is_current(req.item, record):
            return "redo"
        return "done"

    def work(previous: Mapping[str, Any] | None) -> tuple[dict[str, Any], str | None]:
        if req.problem is not None:
            return _record(req, model, status="error", error=req.problem), None
        record: dict[str, Any] | None = None
        if previous is not None and previous.get("status") == "ok" and previous.get("request_hash") == req.request_hash:
            record = _record(req, model, status="ok", response=previous["response"], usage=previous.get("usage"),
                             latency_s=previous.get("latency_s"), cached=bool(previous.get("cached")),
                             finish_reason=previous.get("finish_reason"))
        elif cache is not None and (hit := cache.get(req.request_hash)) is not None:
            record = _record(req, model, status="ok", response=hit.text, usage=hit.usage, latency_s=hit.latency_s,
                             cached=True, finish_reason=hit.finish_reason)
        else:
            assert client is not None
            try:
                done: Completion = client.complete(model, req.messages, config.generation.params(), req.request_hash)
            except RequestFailed as failure:
                fatal = f"stopped: {failure.describe()}" if failure.fatal else None
                return _record(req, model, status="error", error=failure.describe()), fatal
            # the answer is recorded and scored as written, never scrubbed (issue 16); a key in it means the server or a
            # proxy echoed it, which the user should know before sharing the file
            record = _record(req, model, status="ok", response=done.text, usage=done.usage,
                             latency_s=done.latency_s, finish_reason=done.finish_reason)
            if warn is not None and client.secrets.scrub(done.text) != done.text:
                warn(f"{req.item.id} condition {req.condition}: the model's answer quotes the API key; it is recorded "
                     "unchanged (answers are never rewritten), so the responses file and the cache hold the key")
            if cache is not None:
                cache.put(req.request_hash, kind="respond", model=model, text=record["response"],
                          finish_reason=done.finish_reason, usage=done.usage, latency_s=done.latency_s,
                          request={"item_id": req.item.id, "condition": req.condition, "settings": req.settings,
                                   "prompt_version": req.prompt_version, "prompt_hash": req.prompt_hash})
        fatal = None
        if judge is not None and judge.applies(req.item):
            from ipb.respond.judge import attach

            judgment, fatal = judge.judge(req.item, record)
            attach(record, judgment)
        return record, fatal

    return Job(req.key, check, work)


def run_respond(
    items: Sequence[RunItem],
    out: str | Path,
    config: RespondConfig,
    *,
    client: ChatClient | None = None,
    knowledge: KnowledgeBase | None = None,
    encoder: Encoder | None = None,
    console: Console | None = None,
    warn: Callable[[str], None] | None = None,
) -> RunResult:
    """Ask ``config.model`` every item under every condition; write the records to ``out``.

    Parameters
    ----------
    items : sequence of RunItem
        From :func:`ipb.respond.records.load_items`.
    out : path
        The response file (JSON Lines), resumed if it exists.
    client : ChatClient, optional
        Default: one for ``config.base_url`` with the key from the environment.
    knowledge, encoder :
        For condition B (see :func:`prepare_requests`).
    console : rich Console, optional
        Progress bar target (None: none).

    Returns
    -------
    RunResult
        Counts; ``fatal`` says why the run stopped early (a 401, 403 or 404).

    Raises
    ------
    RunError, LoadError
        See :func:`run_jobs`.
    """
    requests = prepare_requests(items, config, knowledge=knowledge, encoder=encoder, warn=warn)
    secrets = Secrets()
    if client is None:
        client = ChatClient(config.base_url, timeout_s=config.timeout_s, concurrency=config.concurrency,
                            policy=config.retry, secrets=secrets)
    else:
        secrets = client.secrets
    cache = ResponseCache(config.cache_dir) if config.cache_dir is not None else None
    judge = None
    sample_pool: cf.ThreadPoolExecutor | None = None
    try:
        if config.judge is not None:
            from ipb.respond.judge import Judge

            sample_pool = cf.ThreadPoolExecutor(max_workers=max(1, config.judge.concurrency),
                                                thread_name_prefix="ipb-judge")
            judge = Judge(config.judge, cache=cache, pool=sample_pool, secrets=secrets)
        jobs = [_respond_job(req, config, client, cache, judge, warn) for req in requests]

        def foreign(record: Mapping[str, Any]) -> str | None:
            if record.get("model") != config.model:
                return f"{record.get('item_id')} condition {record.get('condition')}: model {record.get('model')!r}, " \
                       f"this run {config.model!r}"
            return None

        return run_jobs(jobs, out, concurrency=config.concurrency, overwrite=config.overwrite, foreign=foreign,
                        secrets=secrets, console=console, label=f"{config.model}")
    finally:
        if sample_pool is not None:
            sample_pool.shutdown(wait=False, cancel_futures=True)
        if cache is not None:
            cache.close()


# --------------------------------------------------------------------------- synthetic respondents

#: The model name of synthetic records unless another is given.
SYNTHETIC_MODEL = "synthetic"

#: The key of a synthetic record: (item id, condition, corruption spec).
SyntheticKey = tuple[str, str, str]


def _synthetic_module() -> Any:
    try:
        return importlib.import_module("ipb.respond.synthetic")
    except ImportError as exc:
        raise RunError("--synthetic needs ipb.respond.synthetic.synthetic_responses, which this installation lacks "
                       f"({exc})", rule="dependency", name="ipb.respond.synthetic") from None


def check_corruptions(specs: Sequence[str]) -> None:
    """Check every corruption spec before any work (the generator's ``parse_corruption_spec``).

    Nothing is checked when the generator module has no ``parse_corruption_spec``
    (or is missing: :func:`synthetic_records` then says so).

    Raises
    ------
    ipb.errors.ScoreError
        An unknown corruption name (the error lists the registered ones).
    """
    try:
        module = importlib.import_module("ipb.respond.synthetic")
    except ImportError:
        return
    parse = getattr(module, "parse_corruption_spec", None)
    if parse is not None:
        for spec in specs:
            parse(spec)


def synthetic_records(
    items: Sequence[RunItem],
    *,
    corruptions: Sequence[str] | None = None,
    seed: int = 0,
    conditions: str | Sequence[str] = "A",
    model: str = SYNTHETIC_MODEL,
) -> list[dict[str, Any]]:
    """Response records from :func:`ipb.respond.synthetic.synthetic_responses` (no server).

    The generator is imported when called. It receives the items' JSON
    objects (and ``model`` and the first condition, when its signature takes
    them) and returns, per response, a record (a mapping with at least
    ``item_id`` and ``response``; its other fields are kept), an
    ``(item_id, text)`` pair, or a text (then in item order).

    Each item's responses are copied to every condition of ``conditions``;
    the copies differ in ``condition`` alone. ``model`` and ``condition`` are
    always this call's. Other missing fields are filled in: status ok,
    settings ``{"synthetic": true, "corruptions", "seed"}`` (the corruption
    specs asked for, None for every registered one), and ``request_hash``:
    the SHA-256 of the record's content besides ``settings``, with the seed.

    Parameters
    ----------
    corruptions : sequence of str, optional
        Corruption specs (a registered name, or several joined by ``+``);
        duplicates are dropped. None: every registered corruption.
    conditions : str or sequence of str
        ``"A,B,C"`` or a list (:func:`parse_conditions`).
    model : str
        Written into every record as its model.

    Returns
    -------
    list of dict
        In item order, then condition order, then the generator's order.

    Raises
    ------
    RunError
        The generator is not installed, rejects the arguments, or returns
        something of another shape; a condition other than A, B, C.
    ipb.errors.ScoreError
        The generator's own errors (an unknown corruption name...).
    """
    conds = parse_conditions(conditions)
    synthetic_responses = getattr(_synthetic_module(), "synthetic_responses", None)
    if synthetic_responses is None:
        raise RunError("--synthetic needs ipb.respond.synthetic.synthetic_responses, which this installation lacks",
                       rule="dependency", name="ipb.respond.synthetic")
    specs = list(dict.fromkeys(corruptions)) if corruptions is not None else None
    kwargs: dict[str, Any] = {"seed": seed}
    if specs is not None:
        kwargs["corruptions"] = list(specs)
    try:
        accepts: Mapping[str, Any] = inspect.signature(synthetic_responses).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        accepts = {}
    if "condition" in accepts:
        kwargs["condition"] = conds[0]
    if "model" in accepts:
        kwargs["model"] = model
    try:
        produced = list(synthetic_responses([dict(i.data) for i in items], **kwargs))
    except TypeError as exc:
        raise RunError(f"synthetic_responses rejected its arguments: {exc}", rule="synthetic") from None
    by_item: dict[str, list[dict[str, Any]]] = {i.id: [] for i in items}
    for n, entry in enumerate(produced):
        if isinstance(entry, Mapping):
            data = dict(entry)
        elif isinstance(entry, tuple) and len(entry) == 2:
            data = {"item_id": entry[0], "response": entry[1]}
        elif isinstance(entry, str) and n < len(items):
            data = {"item_id": items[n].id, "response": entry}
        else:
            raise RunError(f"synthetic_responses returned an entry of an unexpected shape ({type(entry).__name__})",
                           rule="synthetic")
        if not isinstance(data.get("item_id"), str) or not isinstance(data.get("response"), str):
            raise RunError("each synthetic response needs a string 'item_id' and 'response'", rule="synthetic")
        if data["item_id"] not in by_item:
            raise RunError(f"synthetic response for unknown item {data['item_id']!r}", rule="synthetic",
                           name=data["item_id"])
        by_item[data["item_id"]].append(data)
    records: list[dict[str, Any]] = []
    for item in items:
        for condition in conds:
            for data in by_item[item.id]:
                record: dict[str, Any] = {
                    "version": RESPONSE_VERSION, "status": "ok", "error": None, "prompt_version": "synthetic",
                    "prompt_hash": None, "usage": None, "latency_s": None, "cached": False, "finish_reason": None,
                    "context": None, "judgment": None,
                    "settings": {"synthetic": True, "corruptions": list(specs) if specs is not None else None,
                                 "seed": seed},
                }
                record.update(data)
                record["model"] = model
                record["condition"] = condition
                record.setdefault("request_hash", canonical_hash(
                    {"seed": seed, **{k: v for k, v in record.items() if k not in ("settings", "request_hash")}}))
                problems = validate_record(record)
                if problems:
                    raise RunError(f"synthetic record {len(records) + 1} is not a valid response record: "
                                   f"{'; '.join(problems[:3])}", rule="synthetic")
                records.append(record)
    return records


def _corruption_of(record: Mapping[str, Any], n: int) -> str:
    listed = record.get("corruptions")
    if isinstance(listed, list) and listed:
        names = [c.get("name") if isinstance(c, Mapping) else c for c in listed]
        if all(isinstance(x, str) for x in names):
            return "+".join(str(x) for x in names)
    single = record.get("corruption")
    if isinstance(single, str) and single:
        return single
    return f"#{n}"


def synthetic_keys(records: Sequence[Mapping[str, Any]]) -> list[SyntheticKey]:
    """The key of each synthetic record: (item id, condition, corruption spec).

    The spec is what the record's ``corruptions`` names (``"drop_gate+wrong_year"``),
    else its ``corruption`` text, else ``#n`` for the n-th record of its
    item and condition.

    >>> synthetic_keys([{"item_id": "i", "condition": "A", "corruptions": [{"name": "none"}]},
    ...                 {"item_id": "i", "condition": "A", "response": "x"}])
    [('i', 'A', 'none'), ('i', 'A', '#2')]
    """
    seen: dict[tuple[str, str], int] = {}
    out: list[SyntheticKey] = []
    for record in records:
        base = (str(record["item_id"]), str(record["condition"]))
        seen[base] = seen.get(base, 0) + 1
        out.append((*base, _corruption_of(record, seen[base])))
    return out


def _is_synthetic(record: Mapping[str, Any]) -> bool:
    settings = record.get("settings")
    return isinstance(settings, Mapping) and settings.get("synthetic") is True


def _synthetic_check(key: SyntheticKey, new: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], str]:
    where = f"{key[0]} condition {key[1]} corruption {key[2]}"

    def check(record: Mapping[str, Any]) -> str:
        if record.get("status") != "ok":
            return "redo"
        if record.get("request_hash") == new["request_hash"]:
            return "done"
        if record.get("model") != new["model"]:
            return f"{where}: model {record.get('model')!r}, this run {new['model']!r}"
        if not _is_synthetic(record):
            return f"{where}: a model run's record, this run is synthetic"
        old_seed, seed = record["settings"].get("seed"), new["settings"]["seed"]
        if old_seed != seed:
            return f"{where}: seed {old_seed!r}, this run {seed!r}"
        return f"{where}: the response differs (the item's gold program or the generator changed)"

    return check


def run_synthetic(
    items: Sequence[RunItem],
    out: str | Path,
    *,
    model: str = SYNTHETIC_MODEL,
    conditions: str | Sequence[str] = "A",
    corruptions: Sequence[str] | None = None,
    seed: int = 0,
    overwrite: bool = False,
) -> RunResult:
    """Write :func:`synthetic_records` to ``out``, resuming it as :func:`run_respond` does.

    A synthetic record is keyed by (item, condition, corruption spec)
    (:func:`synthetic_keys`). An existing ``out`` is read first (a cut-off
    last line is dropped): a record of one of this run's keys is kept when
    its ``request_hash`` matches, replaced when it failed, and otherwise
    (another model or seed, or another response: the item's gold program or
    the generator changed) stops the run with the difference named, unless
    ``overwrite``; a record of another key is kept when it is a synthetic
    record of the same model, and stops the run otherwise. So adding
    conditions or corruptions to an earlier run adds their records. The file
    is written once, atomically, in this run's order (records of other keys
    after), while the lock ``OUT.lock`` is held.

    Returns
    -------
    RunResult
        ``ok``: records written by this run; ``skipped``: kept from an
        earlier run.

    Raises
    ------
    RunError
        As :func:`synthetic_records`; ``out`` holds conflicting records (unless
        ``overwrite``), or another run holds its lock.
    LoadError
        ``out`` is not a response file.
    """
    path = Path(out)
    records = synthetic_records(items, corruptions=corruptions, seed=seed, conditions=conditions, model=model)
    keys = synthetic_keys(records)
    new = dict(zip(keys, records))
    if len(new) != len(records):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise RunError(f"synthetic_responses returned two records for item {twice[0]!r}, corruption {twice[2]!r}",
                       rule="synthetic", name=twice[0])

    def foreign(key: SyntheticKey, record: Mapping[str, Any]) -> str | None:
        where = f"{key[0]} condition {key[1]} corruption {key[2]}"
        if record.get("model") != model:
            return f"{where}: model {record.get('model')!r}, this run {model!r}"
        if not _is_synthetic(record):
            return f"{where}: a model run's record, this run is synthetic"
        return None

    result = RunResult(path, len(records))
    with output_lock(path):
        existing = read_output(path) if path.exists() and not overwrite else None
        kept: dict[Any, Mapping[str, Any]] = {}
        done: set[Any] = set()
        if existing is not None:
            result.dropped = list(existing.dropped)
            kept, _, done = _sort_existing(path, existing.records, synthetic_keys(existing.records),
                                           {key: _synthetic_check(key, record) for key, record in new.items()},
                                           foreign)
        final: list[Mapping[str, Any]] = []
        for key, record in new.items():
            if key in done:
                final.append(kept[key])
            else:
                final.append(record)
                _count(result, record)
        final.extend(record for key, record in kept.items() if key not in new)
        write_atomic(path, (dumps_record(r) for r in final))
        result.skipped = len(done)
    return result
