"""An optional LLM judge for the G-Eval dimensions of layers L6 and L8 (paper §7.12).

Scoring in ``ipb`` is algorithmic; this judge is only used when asked for
(``ipb judge``, or ``ipb respond --judge-model``). For each rubric dimension
``d`` of the response's layer it draws ``n`` judge scores on the scale
{0, 0.5, 1} at temperature ``T`` and computes

.. math:: s_d = \\sum_{s \\in \\{0, 0.5, 1\\}} s \\cdot \\hat P(s \\mid R, \\rho_d),
          \\qquad \\mathrm{GEval}(R) = \\sum_i w_i s_{d_i}

with :math:`\\hat P` the share of readable samples giving ``s``. The
dimensions and weights (``prompts/judge-geval-v1.rubrics.json``) are the
paper's: L8 framework identification 0.30, framework application 0.45,
investment-action implications 0.25; L6 contradiction identification 0.40,
temporal accuracy 0.30, explanatory depth 0.30.

JSON robustness (paper §7.5): a generous token budget (6000 by default,
``JUDGE_MAX_TOKENS`` overrides it), then, for a reply that is not a complete
JSON object with a score on the scale, one reinforced retry ("return only a
complete JSON object"). A sample still unreadable after the retry, or whose
request failed, is an explicit placeholder: recorded, and excluded from
:math:`\\hat P`. A dimension with no readable sample leaves the judgment
``unscored`` (score None), never a neutral 0.5.

Examples
--------
>>> parse_judge_reply('<think>hmm</think>```json\\n{"score": 0.5, "reason": "partly"}\\n```')
JudgeReply(score=0.5, reason='partly', problem=None)
>>> parse_judge_reply('{"score": 0.7}').problem
'score 0.7 is not on the scale 0, 0.5, 1'
>>> parse_judge_reply('{"score": 1, "reason": "cut of').problem
'no complete JSON object with a "score"'
>>> geval([("a", 0.3, [1.0, 1.0]), ("b", 0.7, [0.0, 0.5])])
0.475
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from rich.console import Console

from ipb.engine.registry import compiled_card
from ipb.errors import IpbError, LoadError
from ipb.scoring._text import mask_reasoning
from ipb.respond.cache import ResponseCache
from ipb.respond.client import (
    JUDGE_KEY_VARIABLES,
    ChatClient,
    RequestFailed,
    RetryPolicy,
    Secrets,
    api_key_from_env,
    public_url,
)
from ipb.respond.prompts import JUDGE_PROMPTS, PromptSet, load_prompts
from ipb.respond.records import RunError, RunItem, canonical_hash, read_output
from ipb.respond.run import Job, RunResult, run_jobs

__all__ = [
    "JUDGMENT_VERSION",
    "JUDGE_MAX_TOKENS",
    "SCALE",
    "JudgeConfig",
    "JudgeReply",
    "parse_judge_reply",
    "geval",
    "reference_text",
    "judge_field",
    "attach",
    "Judge",
    "run_judge",
]

#: Format version of a judgment (``judgment.version`` in a response record).
JUDGMENT_VERSION = 1
#: Default judge token budget (paper §7.5), unless ``JUDGE_MAX_TOKENS`` is set.
JUDGE_MAX_TOKENS = 6000
#: The three-point scale of every dimension.
SCALE = (0.0, 0.5, 1.0)


def default_max_tokens() -> int:
    """``$JUDGE_MAX_TOKENS`` if it is a positive integer, else :data:`JUDGE_MAX_TOKENS`."""
    try:
        value = int(os.environ.get("JUDGE_MAX_TOKENS", ""))
    except ValueError:
        return JUDGE_MAX_TOKENS
    return value if value > 0 else JUDGE_MAX_TOKENS


@dataclass(frozen=True)
class JudgeConfig:
    """The judge's model, server and sampling (paper §7.12: n = 20 at T = 0.7).

    ``layers`` are the layers judged; other records get ``judgment: null``.
    """

    model: str
    base_url: str
    samples: int = 20
    temperature: float = 0.7
    max_tokens: int = field(default_factory=default_max_tokens)
    layers: tuple[str, ...] = ("L6", "L8")
    prompts: str = JUDGE_PROMPTS
    concurrency: int = 4
    timeout_s: float = 300.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    def params(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": None, "seed": None,
                "extra_body": {}}


@dataclass(frozen=True)
class JudgeReply:
    """A judge reply read: the score on the scale, or why there is none."""

    score: float | None
    reason: str | None
    problem: str | None


_FENCE = re.compile(r"```(?:json|JSON)?")


def parse_judge_reply(text: str) -> JudgeReply:
    """Read ``{"score": 0 | 0.5 | 1, "reason": ...}`` from a judge reply.

    Reasoning traces and code fences are ignored; the first complete JSON
    object holding a ``score`` counts. A score given as text ("0.5") is
    accepted; one off the scale is not.
    """
    masked, _ = mask_reasoning(text)
    body = _FENCE.sub(" ", masked)
    decoder = json.JSONDecoder()
    found: dict[str, Any] | None = None
    for match in re.finditer(r"\{", body):
        try:
            value, _ = decoder.raw_decode(body, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "score" in value:
            found = value
            break
    if found is None:
        return JudgeReply(None, None, 'no complete JSON object with a "score"')
    raw = found["score"]
    reason = found.get("reason")
    reason = str(reason) if reason is not None else None
    try:
        if isinstance(raw, bool):
            raise ValueError
        score = float(raw)
    except (TypeError, ValueError):
        return JudgeReply(None, reason, f"score {raw!r} is not a number")
    for s in SCALE:
        if abs(score - s) < 1e-9:
            return JudgeReply(s, reason, None)
    return JudgeReply(None, reason, f"score {raw!r} is not on the scale 0, 0.5, 1")


def geval(dimensions: Sequence[tuple[str, float, Sequence[float]]]) -> float | None:
    """:math:`\\sum_i w_i s_{d_i}` from (name, weight, readable scores) per dimension.

    :math:`s_d` is the mean of the readable scores, which equals
    :math:`\\sum_s s\\,\\hat P(s)`. None when some dimension has none.
    """
    total = 0.0
    for _, weight, scores in dimensions:
        if not scores:
            return None
        total += weight * (sum(scores) / len(scores))
    return round(total, 6)


def _gold_lines(gold: Mapping[str, Any]) -> str:
    inner = gold.get("grp")
    grp: Mapping[str, Any] = inner if isinstance(inner, Mapping) else gold
    framework = str(grp.get("framework") or gold.get("card") or "?")
    try:
        name = compiled_card(framework).card.name
    except IpbError:
        name = framework
    investor = gold.get("investor")
    head = f"{investor}, {name}" if investor else name
    gates = []
    for g in grp.get("gold_program") or []:
        if isinstance(g, Mapping):
            line = f"Gate {g.get('gate')} {g.get('name')}: {g.get('verdict')}"
            if g.get("computed_value"):
                line += f" ({g.get('computed_value')})"
            gates.append(line)
    final = f"Final verdict: {grp.get('investment_verdict')} (decided by {grp.get('verdict_trigger')})"
    return "\n".join([head + ":"] + [f"  {g}" for g in gates] + [f"  {final}"])


def reference_text(item: RunItem) -> str:
    """What the judge compares against: the gold program(s) of the item, or its reference answer.

    L8 items give each investor's gold trace; L7 items their one ``grp``;
    other items a ``reference``, ``answer`` or ``ground_truth`` field.
    """
    data = item.data
    golds = data.get("golds")
    if isinstance(golds, list) and golds:
        return "Gold reasoning programs (obtained by executing each investor's framework card):\n" + "\n".join(
            _gold_lines(g) for g in golds if isinstance(g, Mapping))
    if isinstance(data.get("grp"), Mapping):
        return "Gold reasoning program (obtained by executing the framework card):\n" + _gold_lines(
            {"grp": data["grp"], "investor": (item.investors or (None,))[0]})
    for name in ("reference", "answer", "ground_truth"):
        value = data.get(name)
        if value:
            return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1)
    return "(no reference given: judge the answer against the question and the investor's documented record)"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Judge:
    """G-Eval judging of response records.

    Parameters
    ----------
    config : JudgeConfig
    client : ChatClient, optional
        Default: one for ``config.base_url``, key from ``IPB_JUDGE_API_KEY``,
        ``IPB_API_KEY`` or ``OPENAI_API_KEY``.
    cache : ResponseCache, optional
        Every judge call is cached under its own key (sample index included).
    pool : ThreadPoolExecutor, optional
        Runs the sample calls of one judgment side by side.
    """

    def __init__(self, config: JudgeConfig, *, client: ChatClient | None = None, cache: ResponseCache | None = None,
                 pool: cf.ThreadPoolExecutor | None = None, secrets: Secrets | None = None,
                 prompts: PromptSet | None = None) -> None:
        if config.samples < 1:
            raise RunError("the judge needs at least one sample per dimension", rule="judge")
        self.config = config
        self.secrets = secrets if secrets is not None else Secrets()
        self.client = client or ChatClient(config.base_url, api_key=api_key_from_env(JUDGE_KEY_VARIABLES),
                                           timeout_s=config.timeout_s, concurrency=config.concurrency,
                                           policy=config.retry, secrets=self.secrets)
        for value in self.client.secrets.values():
            self.secrets.add(value)
        self.cache = cache
        self.pool = pool
        self.prompts = prompts or load_prompts(config.prompts)
        self.rubrics: Mapping[str, Any] = self.prompts.json("rubrics")["layers"]
        self.prompt_hash = self.prompts.hash(["system", "user", "retry", "rubrics"])

    def applies(self, item: RunItem) -> bool:
        """Whether the item's layer is judged (and has a rubric)."""
        return item.layer in self.config.layers and item.layer in self.rubrics

    def settings(self) -> dict[str, Any]:
        c = self.config
        return {"temperature": c.temperature, "max_tokens": c.max_tokens, "samples": c.samples,
                "base_url": public_url(c.base_url)}

    def judgment_hash(self, item: RunItem, response: str) -> str:
        """Key of one judgment: judge model, server, settings, prompts, item, question, reference and response."""
        return canonical_hash({"model": self.config.model, "settings": self.settings(), "prompt_hash": self.prompt_hash,
                               "item_id": item.id, "layer": item.layer, "question": _sha(item.question),
                               "reference": _sha(reference_text(item)), "response": _sha(response)})

    def is_current(self, item: RunItem, record: Mapping[str, Any]) -> bool:
        """Whether ``record`` already carries a finished judgment made with these settings."""
        judgment = record.get("judgment")
        if not isinstance(judgment, Mapping) or judgment.get("status") == "error":
            return False
        response = record.get("response")
        return isinstance(response, str) and judgment.get("request_hash") == self.judgment_hash(item, response)

    def _messages(self, item: RunItem, response: str, dimension: Mapping[str, Any]) -> list[dict[str, str]]:
        levels = "\n".join(f"{score}: {text}" for score, text in dimension["levels"].items())
        user = self.prompts.render("user", layer=str(item.layer), question=item.question, reference=reference_text(item),
                                   response=response, dimension=str(dimension["name"]),
                                   criterion=str(dimension["criterion"]), levels=levels)
        return [{"role": "system", "content": self.prompts.render("system")}, {"role": "user", "content": user}]

    def _call(self, messages: list[dict[str, str]], sample: int) -> tuple[str, dict[str, Any], bool]:
        params = self.config.params()
        key = canonical_hash({"kind": "judge", "model": self.config.model, "base_url": public_url(self.config.base_url),
                              "params": params, "messages": messages, "sample": sample})
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit.text, {"usage": hit.usage, "latency_s": hit.latency_s or 0.0}, True
        done = self.client.complete(self.config.model, messages, params, key)
        text = self.secrets.scrub(done.text)
        if self.cache is not None:
            self.cache.put(key, kind="judge", model=self.config.model, text=text, finish_reason=done.finish_reason,
                           usage=done.usage, latency_s=done.latency_s, request={"sample": sample, "kind": "judge"})
        return text, {"usage": done.usage, "latency_s": done.latency_s}, False

    def _sample(self, messages: list[dict[str, str]], sample: int) -> dict[str, Any]:
        """One sample: a call, and for an unreadable reply one reinforced retry."""
        out: dict[str, Any] = {"score": None, "reason": None, "retried": False, "placeholder": False, "error": None,
                               "usage": [], "latency_s": 0.0, "cached": True}
        try:
            text, meta, cached = self._call(messages, sample)
            out["usage"].append(meta["usage"])
            out["latency_s"] += meta["latency_s"]
            out["cached"] = out["cached"] and cached
            reply = parse_judge_reply(text)
            if reply.score is None:
                out["retried"] = True
                retry = [dict(m) for m in messages]
                retry[-1]["content"] = retry[-1]["content"] + "\n\n" + self.prompts.render("retry")
                text, meta, cached = self._call(retry, sample)
                out["usage"].append(meta["usage"])
                out["latency_s"] += meta["latency_s"]
                out["cached"] = out["cached"] and cached
                reply = parse_judge_reply(text)
            out["score"], out["reason"] = reply.score, reply.reason
            if reply.score is None:
                out["placeholder"] = True
                out["error"] = f"unreadable after the reinforced retry: {reply.problem}"
        except RequestFailed as failure:
            if failure.fatal:
                raise
            out["placeholder"] = True
            out["cached"] = False
            out["error"] = failure.describe()
        return out

    def judge(self, item: RunItem, record: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The judgment of one ok response record, and why the run must stop (a 401/403/404), if it must.

        Returns
        -------
        (judgment, fatal)
            ``judgment.status`` is ``ok`` (every dimension has a readable
            sample), ``unscored`` (some has none: score None) or ``error``
            (every call failed, or the run must stop).
        """
        response = str(record.get("response") or "")
        layer = str(item.layer)
        rubric = self.rubrics[layer]
        started = time.monotonic()
        tasks: list[tuple[Mapping[str, Any], int, Any]] = []
        for dimension in rubric["dimensions"]:
            messages = self._messages(item, response, dimension)
            for i in range(self.config.samples):
                if self.pool is not None:
                    tasks.append((dimension, i, self.pool.submit(self._sample, messages, i)))
                else:
                    tasks.append((dimension, i, messages))
        fatal: str | None = None
        results: dict[str, list[dict[str, Any]]] = {}
        for dimension, i, task in tasks:
            try:
                sample = task.result() if isinstance(task, cf.Future) else self._sample(task, i)
            except RequestFailed as failure:
                fatal = fatal or f"stopped: judge {failure.describe()}"
                sample = {"score": None, "reason": None, "retried": False, "placeholder": True,
                          "error": failure.describe(), "usage": [], "latency_s": 0.0, "cached": False}
            except cf.CancelledError:
                sample = {"score": None, "reason": None, "retried": False, "placeholder": True, "error": "cancelled",
                          "usage": [], "latency_s": 0.0, "cached": False}
            results.setdefault(str(dimension["id"]), []).append(sample)
        usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        dims: dict[str, Any] = {}
        parts: list[tuple[str, float, list[float]]] = []
        errors = 0
        all_cached = True
        for dimension in rubric["dimensions"]:
            samples = results.get(str(dimension["id"]), [])
            scores = [float(s["score"]) for s in samples if s["score"] is not None]
            for s in samples:
                all_cached = all_cached and bool(s["cached"])
                errors += 1 if s["error"] and not s["error"].startswith("unreadable") else 0
                for u in s["usage"]:
                    for name in usage:
                        if u and isinstance(u.get(name), int):
                            usage[name] += int(u[name])
            weight = float(dimension["weight"])
            parts.append((str(dimension["id"]), weight, scores))
            dims[str(dimension["id"])] = {
                "weight": weight,
                "score": round(sum(scores) / len(scores), 6) if scores else None,
                "valid": len(scores),
                "placeholders": len(samples) - len(scores),
                "retried": sum(1 for s in samples if s["retried"]),
                "distribution": {_label(v): (round(scores.count(v) / len(scores), 6) if scores else None) for v in SCALE},
                "samples": [{"score": s["score"], "reason": s["reason"], "retried": s["retried"],
                             "placeholder": s["placeholder"], "error": s["error"]} for s in samples],
            }
        score = geval(parts)
        total = sum(len(v) for v in results.values())
        if fatal is not None or (total and errors == total):
            status = "error"
        elif score is None:
            status = "unscored"
        else:
            status = "ok"
        error = fatal or (f"every judge call failed; first: {_first_error(results)}" if status == "error" else None)
        if status == "unscored":
            empty = [d for d, v in dims.items() if v["valid"] == 0]
            error = f"no readable judge score for {', '.join(empty)}; excluded from means"
        judgment = {
            "version": JUDGMENT_VERSION,
            "kind": "geval",
            "component": rubric["component"],
            "layer": layer,
            "judge_model": self.config.model,
            "status": status,
            "error": self.secrets.scrub_error(error) if error else None,
            "score": score,
            "dimensions": dims,
            "prompt_version": self.prompts.name,
            "prompt_hash": self.prompt_hash,
            "settings": self.settings(),
            "request_hash": self.judgment_hash(item, response),
            "usage": usage,
            "latency_s": round(time.monotonic() - started, 3),
            "cached": all_cached,
        }
        return judgment, fatal


def judge_field(judgment: Mapping[str, Any] | None) -> dict[str, float | None] | None:
    """The ``judge`` field ``ipb score`` reads (``{"geval_l8": 0.475}``) for a judgment, or None.

    An unscored judgment gives ``{component: None}`` (excluded from means);
    a failed one, or none, gives None (the field is left out).
    """
    if not isinstance(judgment, Mapping) or judgment.get("status") not in ("ok", "unscored"):
        return None
    return {str(judgment["component"]): judgment.get("score")}


def attach(record: dict[str, Any], judgment: dict[str, Any] | None) -> dict[str, Any]:
    """Set ``record["judgment"]`` and, when it has a score or is unscored, ``record["judge"]``."""
    record["judgment"] = judgment
    field_ = judge_field(judgment)
    if field_ is None:
        record.pop("judge", None)
    else:
        record["judge"] = field_
    return record


def _label(value: float) -> str:
    return "0.5" if value == 0.5 else str(int(value))


def _first_error(results: Mapping[str, list[dict[str, Any]]]) -> str:
    for samples in results.values():
        for s in samples:
            if s["error"]:
                return str(s["error"])
    return "?"


def run_judge(
    items: Sequence[RunItem],
    responses: str | Path,
    out: str | Path,
    config: JudgeConfig,
    *,
    cache_dir: Path | None = None,
    overwrite: bool = False,
    client: ChatClient | None = None,
    console: Console | None = None,
) -> RunResult:
    """Judge every ok response of a judged layer in ``responses``; write all records, judged, to ``out``.

    Records of other layers, and failed responses, are copied with
    ``judgment: null``. ``out`` is resumed like a respondent run: a record
    already judged with these settings is kept, one whose judgment failed is
    judged again.

    Raises
    ------
    RunError
        ``out`` is ``responses``, a response names an item not in ``items``,
        two responses share an (item, condition), or ``out`` holds records
        judged from other responses.
    """
    if Path(out).resolve() == Path(responses).resolve():
        raise RunError("--out must be another file than --responses", file=str(out), rule="judge")
    source = read_output(responses)
    for note in source.dropped:
        raise LoadError(f"{responses}: {note}; finish or repair the respondent run first", file=str(responses),
                        rule="record")
    by_id = {i.id: i for i in items}
    seen: set[tuple[str, str]] = set()
    missing = sorted({str(r["item_id"]) for r in source.records if r["item_id"] not in by_id})
    if missing:
        raise RunError(f"{len(missing)} response(s) name items not in the items file, e.g. {missing[0]!r}",
                       file=str(responses), rule="item", name=missing[0])
    cache = ResponseCache(cache_dir) if cache_dir is not None else None
    pool = cf.ThreadPoolExecutor(max_workers=max(1, config.concurrency), thread_name_prefix="ipb-judge")
    try:
        judge = Judge(config, client=client, cache=cache, pool=pool)
        jobs: list[Job] = []
        for record in source.records:
            key = (str(record["item_id"]), str(record["condition"]))
            if key in seen:
                raise RunError(f"{responses} has two records for item {key[0]} condition {key[1]}", file=str(responses),
                               rule="duplicate")
            seen.add(key)
            jobs.append(_judge_job(judge, by_id[key[0]], record))

        def foreign(record: Mapping[str, Any]) -> str | None:
            return f"{record.get('item_id')} condition {record.get('condition')} is not in {responses}"

        return run_jobs(jobs, out, concurrency=config.concurrency, overwrite=overwrite, foreign=foreign,
                        secrets=judge.secrets, console=console, label=f"judging with {config.model}")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        if cache is not None:
            cache.close()


def _judge_job(judge: Judge, item: RunItem, source: Mapping[str, Any]) -> Job:
    applies = judge.applies(item) and source.get("status") == "ok"

    def check(record: Mapping[str, Any]) -> str:
        if record.get("request_hash") != source.get("request_hash") or record.get("response") != source.get("response"):
            return f"{item.id} condition {source.get('condition')}: the response differs from the one in the responses file"
        if not applies:
            return "done" if record.get("judgment") is None else "redo"
        return "done" if judge.is_current(item, record) else "redo"

    def work(previous: Mapping[str, Any] | None) -> tuple[dict[str, Any], str | None]:
        record = attach(dict(source), None)
        if not applies:
            return record, None
        judgment, fatal = judge.judge(item, record)
        return attach(record, judgment), fatal

    return Job((item.id, str(source.get("condition"))), check, work)
