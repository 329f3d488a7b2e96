"""Score a run: model responses against items' gold programs, every metric, flag and aggregate.

``ipb score --items ITEMS.jsonl --responses RESPONSES.jsonl --out DIR`` is
:func:`run_score`. It reads the items (as ``ipb perturb`` writes them, or
any JSON object with ``id`` and a gold program ``grp``), reads the responses
through :mod:`ipb.scoring.adapters` (native JSONL, inspect_ai logs,
lm-evaluation-harness samples), parses each response against the card of
each gold program it answers (paper §7.5), computes every registered metric,
failure-mode flag and composite (:func:`ipb.scoring.composite.score_case`),
and writes

- ``DIR/responses.jsonl``: one record per input record, in input order
  (``grammar/score_record.schema.json``);
- ``DIR/summary.json``: aggregates by model, layer, investor, framework
  topology, card, condition (and corruption, for synthetic runs) with
  seeded bootstrap 95% CIs, the condition deltas of §7.2 and counts of
  what was left out of the means (``grammar/summary.schema.json``, built
  by :mod:`ipb.scoring.summary`).

Nothing is dropped. A record that cannot be used (not JSON, an unknown item
id, a card that does not exist, a duplicate, a missing field) is written as
``status: "unscored"`` with ``reason_code``, ``reason`` and a structured
``error`` naming the record; a response that cannot be parsed (empty, binary
junk, no gate of the card recognised, over ``max_chars``) is ``unscored``
with the parser's reason: never a wrong answer, and left out of every mean
(the summary counts it). Both files are written to temporary files in
``DIR`` and moved into place with ``os.replace``. The same inputs, options
and seed give byte-identical files.

Units
-----
An L7 item has one gold program, so a response has one *target* (card). An
L8 item has one per investor's card; the response is parsed against each.
A target whose card the response does not address at all, while it does
address another target's card, is scored as covering none of its gates (a
readable answer that leaves an investor out has omitted it); only when no
target is recognised is the response a parse failure. The response-level
value of a metric is the mean over its scored targets; the investor,
topology and card aggregates use the target values.

Embeddings
----------
With ``embeddings=True`` (default) one :class:`~ipb.scoring.embeddings.CachedEncoder`
serves the parser's paraphrase fallback and every metric, and every text the
metrics may compare is embedded up front in one batch
(:func:`~ipb.scoring.metrics.prefetch_embeddings`), each distinct sentence
once; card texts stay cached across responses. With ``embeddings=False`` no
model is loaded: the parser's embedding fallback is off, conceptual elements
match only word for word (every cosine is 0), and the clauses that compare a
response with investors' voice references (FM-4 persona inversion, FM-5
cross-school) are not evaluated.
"""

from __future__ import annotations

import dataclasses
import json
import os
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ipb.engine._json import parse_json_line
from ipb._files import text_sha256, write_texts_atomic
from ipb.errors import IpbError, LoadError, ScoreError, WriteError, did_you_mean
from ipb.scoring.adapters import InputRecord, answer_slot, records_from
from ipb.scoring._record_json import (  # noqa: F401  (re-exported: callers import these from here)
    RECORD_DIGITS, _finite, _json_default, _record_text, dumps_record, record_schema, write_atomic,
)
from ipb.scoring.composite import JUDGE_COMPONENTS, score_case
from ipb.scoring.echo import echo_reason, strings_of
from ipb.scoring.embeddings import Encoder
from ipb.scoring.fmdp import FM_NAMES
from ipb.scoring.metrics import (
    Case,
    InvestorProfile,
    pairwise_sdi,
    prefetch_embeddings,
)
from ipb.scoring.metrics.elements import final_contradicts_trace, kccs_unknown
from ipb.scoring.model_names import given_model, model_name_warnings
from ipb.scoring.options import DEFAULT_MAX_CHARS, NullEncoder, ScoreOptions
from ipb.scoring.outcome import (
    NO_COMMITMENT,
    PARSE_FAILURE_REASONS,
    REFUSAL_REASONS,
    failure_value,
    outcome_of,
    read_any,
    unscored_reason,
)
from ipb.scoring._sections import _keep, _target_sections, _vocabulary, _year
from ipb.scoring._text import blank_spans
from ipb.scoring.items import ItemSet, PreparedItem, Target, canonical_condition, item_set, load_items
from ipb.scoring.registry import metrics as metric_registry
from ipb.perturb._golds import scenario_year_of

__all__ = [
    "RESULT_VERSION",
    "RECORD_KIND",
    "SUMMARY_KIND",
    "DEFAULT_MAX_CHARS",
    "ScoreOptions",
    "NullEncoder",
    "ItemSet",
    "PreparedItem",
    "Target",
    "load_items",
    "item_set",
    "canonical_condition",
    "summary_metric_names",
    "score_records",
    "RunResult",
    "ScoredLines",
    "scored_lines",
    "run_score",
    "dumps_record",
    "write_atomic",
    "record_schema",
    "score_responses",
]

#: Format version of a response record and of the summary.
RESULT_VERSION = 1
RECORD_KIND = "ipb.score.response"
SUMMARY_KIND = "ipb.score.summary"

#: Reason codes of an unscored record that are the *input's* fault (not the model's).
INPUT_ERRORS = frozenset({
    "invalid_record", "missing_field", "bad_field", "unknown_item", "unknown_card", "invalid_item", "duplicate",
    "sample_error", "score_error", "internal_error",
})
#: Reason codes of an unscored record that are the *response's*: parse failures and refusals
#: (:mod:`ipb.scoring.outcome`), scored as failures on every owed metric unless excluded.
PARSE_FAILURES = PARSE_FAILURE_REASONS | REFUSAL_REASONS


# =========================================================================== records


#: How ``ipb respond`` begins the ``error`` of a record whose completion held no text (its kind ``empty``: "empty:
#: empty completion (finish_reason=stop)"); such a record is scored as an empty response.
EMPTY_COMPLETION = "empty: "


def summary_metric_names() -> list[str]:
    """Every value a record carries under ``metrics`` (and the summary aggregates), in order.

    The registered per-response metrics, IVP, IVP_micro, the layer and W1
    composites, BASP-strict and its conjunction (1 when every evaluated
    BASP-strict gate passed).
    """
    return [*metric_registry.names(), "ivp", "ivp_micro", "layer_composite", "w1_composite", "basp_strict",
            "basp_conjunction"]


def _error_dict(err: IpbError, record: InputRecord) -> dict[str, Any]:
    out = err.to_dict()
    out["record"] = record.number
    out["source"] = record.source
    return out


@dataclass
class _TargetWork:
    """One target (gold card) of a response on its way to the record's ``targets`` entry."""

    target: Target
    section: list[tuple[int, int]] | None = None
    parsed: dict[str, Any] | None = None
    case: Case | None = None
    status: str = "unscored"
    reason_code: str | None = None
    reason: str | None = None
    note: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    #: Readings below ``ScoreOptions.min_confidence`` (None when no threshold was set).
    review: list[dict[str, Any]] | None = None
    owed: dict[str, float] | None = None
    #: The final the card's gate logic gives on this answer's own gate verdicts, where it contradicts the stated one.
    trace_verdict: str | None = None

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {} if self.review is None else {"review": self.review}
        if self.trace_verdict is not None:
            extra["trace_verdict"] = self.trace_verdict
        return {
            "card": self.target.card_id,
            "investor": self.target.investor,
            "topology": self.target.topology,
            # the gold final verdict (the GRP's investment_verdict), beside the parsed one: ipb export's columns
            # (s53newuser finding 12)
            "gold_verdict": _gold_verdict(self.target.grp),
            "section": None if self.section is None else [list(s) for s in self.section],
            "status": self.status,
            "outcome": outcome_of(self.status, self.reason_code),
            "owed": self.owed,
            "reason_code": self.reason_code,
            "reason": self.reason,
            "note": self.note,
            "parsed": self.parsed,
            "metrics": self.scores.get("metrics", {}),
            "flags": self.scores.get("flags", {}),
            "layer_composite": self.scores.get("layer_composite"),
            "w1_composite": self.scores.get("w1_composite"),
            "basp_strict": self.scores.get("basp_strict"),
            **extra,
        }


def _gold_verdict(grp: Any) -> str | None:
    """The gold final verdict of a target's GRP (its ``investment_verdict``), None where it has none."""
    verdict = grp.get("investment_verdict") if isinstance(grp, Mapping) else None
    return verdict if isinstance(verdict, str) else None


def _below(parsed: dict[str, Any], threshold: float) -> list[dict[str, Any]]:
    """The readings of one parsed answer whose confidence is below ``threshold``: each gate verdict, then the final verdict.

    An answer with no gate read but a stated final verdict is scored on that verdict (:func:`read_any`), so its final
    verdict is reviewed like any other reading.

    >>> _below({"status": "ok", "gates": [{"gate": 2, "verdict": "REJECT", "confidence": 0.5, "verdict_span": [4, 10],
    ...         "runner_up": {"verdict": "PROCEED", "span": [0, 3]}}], "final_verdict": None, "final_confidence": 0.0,
    ...         "final_verdict_span": None, "final_runner_up": None}, 0.6)
    [{'reading': 'gate 2', 'verdict': 'REJECT', 'confidence': 0.5, 'span': [4, 10], 'runner_up': {'verdict': 'PROCEED', 'span': [0, 3]}}, {'reading': 'final verdict', 'verdict': None, 'confidence': 0.0, 'span': None, 'runner_up': None}]
    """
    if not read_any(parsed):
        return []  # nothing read, nothing scored: a parse failure is counted as one, not reviewed
    out = [{"reading": f"gate {g['gate']}", "verdict": g.get("verdict"), "confidence": g.get("confidence", 1.0),
            "span": g.get("verdict_span"), "runner_up": g.get("runner_up")}
           for g in parsed.get("gates", []) if g.get("confidence", 1.0) < threshold]
    if parsed.get("final_confidence", 1.0) < threshold:
        out.append({"reading": "final verdict", "verdict": parsed.get("final_verdict"), "confidence": parsed.get("final_confidence"),
                    "span": parsed.get("final_verdict_span"), "runner_up": parsed.get("final_runner_up")})
    return out


@dataclass
class _Work:
    """One input record on its way to a result record."""

    record: InputRecord
    out: dict[str, Any]
    prepared: PreparedItem | None = None
    text: str = ""
    targets: list[_TargetWork] = field(default_factory=list)
    judge: Mapping[str, float | None] | None = None


def _unscored(work: _Work, code: str, reason: str, err: IpbError | None = None) -> None:
    work.out["status"] = "unscored"
    work.out["reason_code"] = code
    work.out["reason"] = reason
    if err is not None:
        work.out["error"] = _error_dict(err, work.record)


def _field_error(work: _Work, code: str, message: str, name: str | None = None, suggestion: str | None = None) -> None:
    file, _, line = work.record.source.rpartition(":")
    err = ScoreError(message, file=file or work.record.source, line=work.record.number if line.isdigit() else None,
                     rule=code, name=name, suggestion=suggestion)
    _unscored(work, code, message, err)


def _begin(record: InputRecord, items: ItemSet, seen: dict[tuple[Any, ...], tuple[int, str]], options: ScoreOptions) -> _Work:
    out: dict[str, Any] = {
        "version": RESULT_VERSION,
        "kind": RECORD_KIND,
        "record": record.number,
        "source": record.source,
        "item_id": None,
        "model": None,
        "condition": None,
        "condition_key": None,
        "layer": None,
        "status": "scored",
        "reason_code": None,
        "reason": None,
        "error": None,
        "response_chars": None,
        "response_sha256": None,
        "metrics": {},
        "flags": {},
        "targets": [],
    }
    if record.file is not None:
        out["file"] = record.file
    work = _Work(record, out)
    if record.error is not None or record.data is None:
        err = record.error or ScoreError("unreadable record", rule="invalid_record")
        _unscored(work, "sample_error" if err.rule == "sample_error" else "invalid_record", err.message, err)
        return work
    data = record.data
    for key in ("model", "condition"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            out[key] = value
    if out["model"] is not None and given_model(out["model"]) != out["model"]:
        # "gold " and "gold" were two leaderboard rows that print the same (s52break item 8): one row, and the
        # name as given is kept for the summary's warning
        out["model_as_given"], out["model"] = out["model"], given_model(out["model"])
    if out["condition"] is not None:
        out["condition_key"] = canonical_condition(out["condition"])
    if "epoch" in data:
        out["epoch"] = data["epoch"]
    if data.get("corruptions") is not None:
        out["corruptions"] = data["corruptions"]
    item_id = data.get("item_id")
    if isinstance(item_id, int) and not isinstance(item_id, bool):
        item_id = str(item_id)
    if isinstance(item_id, str) and item_id:
        out["item_id"] = item_id
    missing = [k for k in ("item_id", "model", "condition") if out[k] is None]
    if missing:
        _field_error(work, "missing_field", f"no {' / '.join(missing)}"
                     + (" (give --model / --condition for logs that do not name them)" if "item_id" not in missing else ""),
                     name=missing[0])
        return work
    response = data.get("response")
    error = data.get("error")
    if data.get("status") == "error" and not response and isinstance(error, str) and error.startswith(EMPTY_COMPLETION):
        # the model answered, with nothing: the empty answer it is (a refusal, in every mean at 0), not a run error kept
        # out of the means (an empty "response" from any other client already was one)
        response = ""
    elif data.get("status") == "error":
        # A record the run marked failed is a run error even when it carries text: a client may write the partial
        # text of a call that timed out, and scoring it could reward a failure (s45break 15). It counts against
        # coverage and ranks as a 0 (docs/scoring.md, run errors), never as an answer.
        known = items.items.get(item_id)
        if known is not None:  # the item's layer, so the by-model-and-layer coverage counts the item unanswered
            out["layer"] = known.layer
        kept = (f"; its {len(response)}-character partial response is not scored"
                if isinstance(response, str) and response.strip() else "")
        _field_error(work, "sample_error", f"no response: the run recorded an error ({data.get('error') or 'no message'})"
                     + kept, name="response")
        return work
    if not isinstance(response, str):
        kind = type(response).__name__
        what = ("the record has no 'response'" if response is None and "response" not in data else
                "the record's 'response' is null, not text" if response is None else
                f"the record has {'an' if kind[0] in 'aeiou' else 'a'} {kind} 'response', not text")
        _field_error(work, "missing_field" if response is None else "bad_field", what, name="response")
        return work
    out["response_chars"] = len(response)
    out["response_sha256"] = text_sha256(response)
    prepared = items.items.get(item_id)
    if prepared is None:
        _field_error(work, "unknown_item", f"unknown item id {item_id!r}", name=item_id,
                     suggestion=did_you_mean(item_id, list(items.items)))
        return work
    work.prepared = prepared
    out["layer"] = prepared.layer
    if prepared.error is not None:
        _unscored(work, "invalid_item", f"item {item_id!r} cannot be scored: {prepared.error.message}", prepared.error)
        return work
    card = data.get("card")
    if card is not None and card not in [t.card_id for t in prepared.targets]:
        _field_error(work, "unknown_card", f"item {item_id!r} has no card {card!r}", name=str(card),
                     suggestion=did_you_mean(str(card), [t.card_id for t in prepared.targets]))
        return work
    bad_cards = [t for t in prepared.targets if t.error is not None and (card is None or t.card_id == card)]
    if bad_cards:
        err = bad_cards[0].error
        assert err is not None
        _unscored(work, "unknown_card", f"item {item_id!r} targets {err.message}", err)
        return work
    judge = data.get("judge")
    if judge is not None:
        if not isinstance(judge, Mapping) or any(
            k not in JUDGE_COMPONENTS or (v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool)
                                                            or not 0.0 <= float(v) <= 1.0))
            for k, v in judge.items()
        ):
            _field_error(work, "bad_field", f"'judge' must map {', '.join(JUDGE_COMPONENTS)} "
                         "to numbers in [0, 1]", name="judge")
            return work
        work.judge = {k: None if v is None else float(v) for k, v in judge.items()}
    dedupe = answer_slot(data)
    assert dedupe is not None  # item, model and condition were checked above
    first = seen.get(dedupe)
    if first is not None:
        same = first[1] == out["response_sha256"]
        what = "repeats record {} word for word" if same else "is another response for the item of record {}"
        _field_error(work, "duplicate", what.format(first[0]) + " (same item, model, condition, epoch, card and "
                     "corruptions); the first is scored" + ("" if same else ": give repeated samples distinct 'epoch' values"),
                     name=item_id)
        return work
    if response.strip():  # an empty response claims nothing: a retry after it is scored
        seen[dedupe] = (record.number, out["response_sha256"])
    work.targets = [_TargetWork(t) for t in prepared.targets if card is None or t.card_id == card]
    if len(response) > options.max_chars:
        _unscored(work, "response_too_large",
                  f"response of {len(response):,} characters is over the limit of {options.max_chars:,}")
        for tw in work.targets:
            tw.reason_code, tw.reason = "response_too_large", work.out["reason"]
        return work
    work.text = response
    return work


class _Scorer:
    """Parses and scores the records of one run."""

    def __init__(self, items: ItemSet, options: ScoreOptions) -> None:
        self.items = items
        self.options = options
        self.encoder = options.resolved_encoder()
        self.embedder: Any = self.encoder if options.embeddings else False
        self.protos: dict[str, Case] = {}
        self.config = options.metric_config()

    def proto(self, target: Target) -> Case:
        if target.card_id not in self.protos:
            proto = Case.for_card(target.grp, {}, target.compiled, encoder=self.encoder)
            if not self.options.embeddings:
                proto = dataclasses.replace(
                    proto,
                    investor=_silent(proto.investor),
                    peers=tuple(p for p in (_silent(q) for q in proto.peers) if p is not None),
                )
            self.protos[target.card_id] = proto
        return self.protos[target.card_id]

    def prompt_sources(self, prepared: PreparedItem) -> list[str]:
        """The texts an answer to ``prepared`` may restate without judging (:mod:`ipb.scoring.echo`): the item's
        question, each card's strings and, when ``ScoreOptions.prompt_texts`` is given, the
        condition context and instructions it renders."""
        cards = [t.compiled.card for t in prepared.targets if t.compiled is not None]
        texts = strings_of(prepared.item.get("question"))  # not the gold program or manifest: the model never saw them
        for card in cards:
            doc = getattr(card, "doc", None)
            texts += strings_of(getattr(doc, "data", None))
        if self.options.prompt_texts is not None:
            texts += list(self.options.prompt_texts(prepared.item, cards))
        return texts

    def parse(self, work: _Work) -> None:
        """Parse the response against each target's card and build each target's case."""
        from ipb.scoring.parse import parse_response

        parse = self.options.parse or parse_response
        assert work.prepared is not None
        sections = _target_sections(work.text, [t.target for t in work.targets]) if len(work.targets) > 1 else None
        for k, tw in enumerate(work.targets):
            tw.section = sections[k] if sections is not None else None
            text = work.text if tw.section is None else _keep(work.text, tw.section)
            tw.parsed = parse(text, tw.target.compiled.card, embedder=self.embedder,
                              embed_cutoff=self.options.embed_cutoff).to_dict()
            if self.options.min_confidence is not None:
                tw.review = _below(tw.parsed, self.options.min_confidence)
        parsed = [tw.parsed for tw in work.targets if tw.parsed is not None]
        unscored = unscored_reason(work.text, parsed, [n for tw in work.targets for n in _vocabulary(tw.target)],
                                   [(tw.target.grp or {}).get("investment_verdict") for tw in work.targets])
        if (unscored is None or unscored[0] == NO_COMMITMENT) and all(tw.section is None for tw in work.targets):
            # an echo is the more telling refusal: it also covers a restated prompt that reads as committing
            unscored = echo_reason(work.text, self.prompt_sources(work.prepared), parsed) or unscored
        if unscored is not None:
            code, why = unscored
            _unscored(work, code, why)
            unread = not any(read_any(p) for p in parsed)  # the parser's own reason per card, as in the sentence
            for tw in work.targets:
                tw.reason_code = code
                tw.reason = (tw.parsed or {}).get("reason") if code == "parse_failure" and unread else why
                tw.review = None if tw.review is None else []  # unscored: no reading of it is scored or reviewed
            return
        for tw in work.targets:
            assert tw.parsed is not None
            case_parsed = dict(tw.parsed)
            if tw.parsed.get("status") != "ok":
                stated = tw.parsed.get("final_verdict")
                tw.note = (f"the answer addresses none of this card's gates ({tw.parsed.get('reason')}); "
                           "scored as covering none of them: every metric that reads the gate trace at its worst"
                           + (f", the stated final verdict {stated} read" if stated else ""))
                case_parsed.update({"status": "ok", "reason": None, "gates": [], "trace_unread": True})
            own = work.text if tw.section is None else _keep(work.text, tw.section)
            case_parsed["text"] = blank_spans(own, tw.parsed.get("reasoning_spans") or ())
            tw.case = self.case(work, tw, case_parsed)

    def case(self, work: _Work, tw: _TargetWork, parsed: Mapping[str, Any]) -> Case:
        """The case of one target: the card's facts, the item's and the parsed answer."""
        assert work.prepared is not None
        item = work.prepared.item
        contradictions = item.get("contradictions")
        return dataclasses.replace(
            self.proto(tw.target),
            gold=tw.target.grp,
            parsed=parsed,
            layer=work.prepared.layer,
            scenario_year=scenario_year_of(item),
            framework_year=tw.target.framework_year,
            truth_year=_year(item.get("truth_year")),
            contradictions=tuple(str(c) for c in contradictions) if isinstance(contradictions, list) else (),
            full_reconstruction=bool(item.get("full_reconstruction", False)),
        )

    def owe(self, work: _Work) -> None:
        """A failure's owed metrics: those an empty answer to the same item gets a value on, at their worst.

        Each target is scored as if the answer said nothing; every metric,
        composite and BASP-strict value that comes out not None is owed and
        set to :func:`~ipb.scoring.outcome.failure_value` (0, NED 1, tau -1).
        The record's ``owed`` is the union over its targets.
        """
        empty: dict[str, Any] = {"status": "ok", "reason": None, "gates": [], "final_verdict": None, "text": "",
                 "invented_gates": [], "years": [], "attributions": [], "citations": []}
        names: dict[str, None] = {}
        for tw in work.targets:
            if tw.target.compiled is None:
                continue
            values = self._values(self._score(self.case(work, tw, empty), work.judge).to_dict())
            tw.owed = {n: failure_value(n) for n, v in values.items() if v is not None}
            names.update(dict.fromkeys(tw.owed))
        work.out["owed"] = {n: failure_value(n) for n in summary_metric_names() if n in names}

    def score(self, work: _Work) -> None:
        """Every metric, flag and composite of each target, and the response-level means."""
        scored: list[_TargetWork] = []
        for tw in work.targets:
            if tw.case is None:
                continue
            try:
                scores = self._score(tw.case, work.judge)
            except IpbError as exc:
                tw.reason_code, tw.reason = "score_error", exc.message
                continue
            d = scores.to_dict()
            values = self._values(d)
            if "kccs" in values and kccs_unknown(tw.case, values["kccs"]):
                # KCCS unknown, not "not applicable": the leaderboard counts these (summary n_kccs_unknown)
                values["kccs_unknown"] = 1.0
            implied = final_contradicts_trace(tw.case, tw.target.compiled)
            if implied is not None:
                # s63 new user E2, s64 new user F4: the card's gate logic on the answer's own gate verdicts gives
                # another final than the one it states; the composite stays the paper's, the record is marked (with
                # the final its trace gives) and the summary counts it
                values["final_contradicts_trace"] = 1.0
                tw.trace_verdict = implied
            tw.status = "scored"
            tw.scores = {"metrics": values, "flags": d["flags"], "layer_composite": d["layer_composite"],
                         "w1_composite": d["w1_composite"], "basp_strict": d["basp_strict"]}
            scored.append(tw)
        if not scored:
            reasons = [tw.reason for tw in work.targets if tw.reason]
            _unscored(work, "score_error", "; ".join(reasons) or "no target could be scored")
            return
        means: dict[str, float | None] = {}
        for name in summary_metric_names():
            vals = [tw.scores["metrics"][name] for tw in scored if tw.scores["metrics"].get(name) is not None]
            means[name] = sum(vals) / len(vals) if vals else None
        if means.get("kccs") is None and any(tw.scores["metrics"].get("kccs_unknown") for tw in scored):
            means["kccs_unknown"] = 1.0
        if any(tw.scores["metrics"].get("final_contradicts_trace") for tw in scored):
            means["final_contradicts_trace"] = 1.0
        flags: dict[str, bool | None] = {}
        for fm in FM_NAMES:
            fired = [tw.scores["flags"][fm]["fired"] for tw in scored
                     if fm in tw.scores["flags"] and tw.scores["flags"][fm]["applicable"]]
            flags[fm] = any(fired) if fired else None
        work.out["metrics"] = means
        work.out["flags"] = flags

    def _score(self, case: Case, judge: Mapping[str, float | None] | None) -> Any:
        """:func:`~ipb.scoring.composite.score_case` under the run's options and paper rules."""
        o = self.options
        return score_case(case, judge=judge, options=self.config, renormalize=o.renormalize,
                          basp_denominator=o.basp_denominator, basp_composite=o.basp_composite)

    @staticmethod
    def _values(d: Mapping[str, Any]) -> dict[str, float | None]:
        """A record's ``metrics`` from ``CaseScores.to_dict()``: every metric, the composites,
        BASP-strict and its conjunction."""
        values: dict[str, float | None] = dict(d["metrics"])
        values["layer_composite"] = d["layer_composite"]["value"] if d["layer_composite"] else None
        values["w1_composite"] = d["w1_composite"]["value"] if d["w1_composite"] else None
        strict = d["basp_strict"]
        values["basp_strict"] = strict["value"] if strict else None
        conjunction = strict["conjunction"] if strict else None
        values["basp_conjunction"] = None if conjunction is None else float(conjunction)
        return values


def _silent(profile: InvestorProfile | None) -> InvestorProfile | None:
    """A profile without voice references (no embeddings: FM-4/FM-5 voice clauses are not evaluated)."""
    return None if profile is None else dataclasses.replace(profile, distinctive_phrases=())


def _voice_groups(works: Sequence[_Work], encoder: Encoder) -> None:
    """IVP and pairwise SDI (§7.9) for items that share a ``question_group``.

    Within one model and condition, the responses about different investors
    to items of the same ``question_group`` are the "responses about every
    other investor on the same question". Each case gets ``ivp`` (its
    investor's IVP over the groups) and ``pairwise_sdi`` (SDI against the
    other investors' responses in its group).
    """
    from ipb.scoring.metrics import ivp_table

    by_run: dict[tuple[Any, Any], dict[str, dict[str, str]]] = defaultdict(dict)
    owners: dict[tuple[Any, Any, str, str], list[_TargetWork]] = defaultdict(list)
    for work in works:
        if work.prepared is None:
            continue
        group = work.prepared.item.get("question_group")
        if not isinstance(group, str):
            continue
        run = (work.out["model"], work.out["condition_key"])
        for tw in work.targets:
            if tw.case is None or not tw.target.investor:
                continue
            investor = tw.target.investor
            by_run[run].setdefault(investor, {}).setdefault(group, tw.case.text)
            owners[(run[0], run[1], investor, group)].append(tw)
    for run, responses in sorted(by_run.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        if len(responses) < 2:
            continue
        table = ivp_table(responses, encoder=encoder)
        groups: dict[str, dict[str, str]] = defaultdict(dict)
        for investor, per_group in responses.items():
            for group, text in per_group.items():
                groups[group][investor] = text
        for group, texts in sorted(groups.items()):
            sdis = pairwise_sdi(texts, encoder=encoder) if len(texts) > 1 else {}
            for investor in texts:
                others = {b if a == investor else a: v for (a, b), v in sdis.items() if investor in (a, b)}
                for tw in owners[(run[0], run[1], investor, group)]:
                    assert tw.case is not None
                    tw.case = dataclasses.replace(tw.case, ivp=table.get(investor), pairwise_sdi=others)


def score_records(
    items: ItemSet,
    records: Iterable[InputRecord],
    options: ScoreOptions | None = None,
    *,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> list[dict[str, Any]]:
    """One result record per input record, in input order (the content of ``responses.jsonl``).

    Parameters
    ----------
    items : ItemSet
    records : iterable of InputRecord
        From :func:`ipb.scoring.adapters.read_responses` or
        :func:`~ipb.scoring.adapters.records_from`.
    options : ScoreOptions
    progress : callable, optional
        ``progress(phase, done, total)`` after each record of the ``"parse"``
        and ``"score"`` phases (``"embed"`` once, before scoring).

    Returns
    -------
    list of dict
        Records as described in ``grammar/score_record.schema.json``.
    """
    options = options or ScoreOptions()
    scorer = _Scorer(items, options)
    seen: dict[tuple[Any, ...], tuple[int, str]] = {}
    works: list[_Work] = []
    for record in records:
        work = _begin(record, items, seen, options)
        if work.out["status"] == "scored":
            try:
                scorer.parse(work)
            except Exception as exc:  # noqa: BLE001 - one bad record must not stop the run
                _internal(work, exc)
        works.append(work)
        if progress is not None:
            progress("parse", len(works), None)
    live = [w for w in works if w.out["status"] == "scored"]
    if options.embeddings:
        cases = [tw.case for w in live for tw in w.targets if tw.case is not None]
        if progress is not None:
            progress("embed", 0, len(cases))
        prefetch_embeddings(cases, scorer.encoder)
        _voice_groups(live, scorer.encoder)
    for n, work in enumerate(works, start=1):
        if work.out["status"] == "scored":
            try:
                scorer.score(work)
            except Exception as exc:  # noqa: BLE001 - one bad record must not stop the run
                _internal(work, exc)
        elif work.out["reason_code"] in PARSE_FAILURES:
            try:
                scorer.owe(work)
            except Exception as exc:  # noqa: BLE001 - one bad record must not stop the run
                _internal(work, exc)
        if progress is not None:
            progress("score", n, len(works))
    return [_finish(w) for w in works]


def _internal(work: _Work, exc: Exception) -> None:
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
    err = ScoreError(f"internal error: {type(exc).__name__}: {exc}{at}", rule="internal_error")
    work.targets = []
    _unscored(work, "internal_error", err.message, err)


def _finish(work: _Work) -> dict[str, Any]:
    out = work.out
    out["outcome"] = outcome_of(out["status"], out["reason_code"])
    out.setdefault("owed", None)
    out["targets"] = [tw.to_dict() for tw in work.targets]
    if out["status"] != "scored":
        out["metrics"] = {}
        out["flags"] = {}
    return out


class RunResult:
    """What :func:`run_score` wrote: ``records`` as written to ``responses.jsonl`` (floats to :data:`RECORD_DIGITS`).

    When the scorer handed back lines (:class:`ScoredLines`), ``records`` are read back from them on first use.
    """

    def __init__(self, records: list[dict[str, Any]] | None, summary: dict[str, Any], responses_path: Path,
                 summary_path: Path, *, lines: Sequence[str] = ()) -> None:
        self._records, self._lines = records, lines
        self.summary, self.responses_path, self.summary_path = summary, responses_path, summary_path

    @property
    def records(self) -> list[dict[str, Any]]:
        """The records as written (the lines read back, when only lines were kept)."""
        if self._records is None:
            self._records = [json.loads(line) for line in self._lines]
        return self._records

    @property
    def invalid(self) -> list[dict[str, Any]]:
        """The summary's ``unscored`` entries (record, source, item_id, reason_code, reason) that are the input's
        fault, in record order; read from the summary, so no record is decoded."""
        return [e for e in self.summary["unscored"] if e.get("reason_code") in INPUT_ERRORS]

    @property
    def n_invalid(self) -> int:
        """Records unscored because of the input (not the model's answer)."""
        return len(self.invalid)


@dataclass
class ScoredLines:
    """What a ``scorer`` of :func:`run_score` may return instead of records: each record's line
    (:func:`dumps_record`) and its :func:`~ipb.scoring.summary.summary_view`, in input order. The Ray backend's
    workers build them (:func:`scored_lines`), so the driver neither decodes nor writes out whole records."""

    lines: list[str]
    views: list[dict[str, Any]]


def scored_lines(records: Sequence[Mapping[str, Any]]) -> ScoredLines:
    """The :class:`ScoredLines` of scored records (the summary views hold the unrounded values)."""
    from ipb.scoring.summary import summary_view

    return ScoredLines([_record_text(r)[0] for r in records], [summary_view(r) for r in records])


def run_score(
    items_path: str | Path,
    responses_path: str | Path | Sequence[str | Path],
    out_dir: str | Path,
    options: ScoreOptions | None = None,
    *,
    format: str = "auto",
    model: str | None = None,
    condition: str | None = None,
    progress: Callable[[str, int, int | None], None] | None = None,
    scorer: Callable[..., list[dict[str, Any]]] | None = None,
) -> RunResult:
    """Score a responses file against an items file and write ``responses.jsonl`` and ``summary.json``.

    Parameters
    ----------
    items_path : path
    responses_path : path or sequence of paths
        One responses file, or several (files or folders of logs,
        :func:`ipb.scoring.sources.response_files`) read in the order given
        into one run: each record then carries ``file``, its file's 1-based
        position, and ``summary.json``'s ``inputs.responses.files`` lists them.
    out_dir : path
        Created if missing.
    options : ScoreOptions
    format : {"auto", "jsonl", "inspect", "lm-eval"}
        Responses format (see :mod:`ipb.scoring.adapters`).
    model, condition : str, optional
        For records (log samples) that do not carry their own.
    progress : callable, optional
        See :func:`score_records`.
    scorer : callable, optional
        Used instead of :func:`score_records`, with the same arguments and
        result (e.g. the Ray backend of :mod:`ipb.distributed`, which gives
        the same records), or the records' :class:`ScoredLines`.

    Returns
    -------
    RunResult

    Raises
    ------
    LoadError
        An input file cannot be read at all, a responses file holds no record (empty, a log without
        samples: also the only one), the items file holds no item (empty, or no line of it is an
        item: a responses file given as --items), or the output folder cannot be written; with several
        responses files also one that is no log, or one answer in two files
        (:func:`ipb.scoring.sources.read_response_files`). Nothing is written then.
    """
    from ipb.scoring.summary import summarize

    from ipb.scoring.sources import read_response_files, response_files

    options = options or ScoreOptions()
    out = Path(out_dir)
    paths = response_files([responses_path] if isinstance(responses_path, (str, Path)) else list(responses_path))
    for name, given in [*(("responses", p) for p in paths), ("items", Path(items_path))]:
        source = Path(given).resolve()
        if source in ((out / "responses.jsonl").resolve(), (out / "summary.json").resolve()):
            raise LoadError(f"the {name} file {given} is an output of this run in {out}: it would be overwritten; "
                            "choose another --out", file=str(given), rule="file")
    items = load_items(items_path)

    def no_items() -> LoadError:  # s52user: every record was then an unusable "unknown item", written as a run (exit 1)
        why = items.errors[0]["message"] if items.errors else "an empty file, or only blank lines"
        return LoadError(f"{items_path} holds no item ({why}): nothing to score the answers against, nothing written; "
                         "--items takes the file ipb perturb wrote", file=str(items_path), rule="empty")

    # every file read (and checked across files) before anything is scored: a bad file leaves no output
    try:
        read, files = read_response_files(paths, format=format, model=model, condition=condition)
    except LoadError as exc:
        # the two files swapped: a lone responses file that holds no response (refused since s65 F5) beside an items
        # file that holds no item is reported as the items file's, which names --items
        if exc.rule == "not_responses" and len(paths) == 1 and not items.items:
            raise no_items() from None
        raise
    if not items.items:
        raise no_items()
    produced = (scorer or score_records)(items, read, options, progress=progress)
    records: list[dict[str, Any]] | None
    if isinstance(produced, ScoredLines):
        texts, views, records, lines = produced.lines, produced.views, None, []
    else:
        records = produced
        lines = [_record_text(r) for r in records]
        texts, views = [line for line, _ in lines], records
    scored_text = "".join(line + "\n" for line in texts)
    inputs = {
        "items": items.summary(),
        "responses": ({"source": str(responses_path if isinstance(responses_path, (str, Path)) and paths == [Path(responses_path)]
                                  else paths[0]), "sha256": files[0]["sha256"], "format": format, "n_records": len(texts)}
                      if len(paths) == 1 else  # several: no one source; each file, in the order read
                      {"source": None, "sha256": None, "format": format, "n_records": len(texts), "files": files}),
        # Ties this summary to the score records written beside it (ipb report checks the pair).
        "scored": {"file": "responses.jsonl", "sha256": text_sha256(scored_text), "n_records": len(texts)},
    }
    summary = summarize(views, options=options, inputs=inputs)
    agreement = getattr(options.parse, "agreement", None)
    if callable(agreement):
        # s65 F2: --extractor both's agreement was printed once on stderr and recorded nowhere
        summary["extractor_agreement"] = agreement()
    if names := model_name_warnings(views):
        summary["model_name_warnings"] = names
    responses_file = out / "responses.jsonl"
    summary_file = out / "summary.json"
    # what a failed write leaves: the old results, or none at all (s64 new user F10: "the old results are left as
    # they were" was said of a folder that had none)
    had = any(os.path.lexists(p) for p in (responses_file, summary_file))
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_texts_atomic({
            responses_file: scored_text,
            summary_file: json.dumps(_finite(summary), indent=2, ensure_ascii=True, allow_nan=False,
                                     default=_json_default) + "\n",
        })
    except OSError as exc:
        where = exc.filename or out
        left = "the old results are left as they were" if had else "no results were written"
        raise WriteError(f"cannot write {where}: {exc.strerror or exc} ({left})", file=str(where), rule="file") from None
    # the records as written (floats to RECORD_DIGITS); the summary above was computed from the unrounded values
    if records is None:
        return RunResult(None, summary, responses_file, summary_file, lines=texts)
    written = [json.loads(line) if rounded else r for r, (line, rounded) in zip(records, lines)]
    return RunResult(written, summary, responses_file, summary_file)


def score_responses(
    items: Iterable[Mapping[str, Any]],
    responses: list[Mapping[str, Any]],
    options: ScoreOptions | None = None,
) -> list[dict[str, Any]]:
    """Score in-memory response dicts against in-memory items (tests, ``ipb respond --synthetic``)."""
    return score_records(item_set(items), records_from(responses), options)

