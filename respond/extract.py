"""The LLM extractor (issue 13 item 4; paper §7.5, the SRP's model-based reading): an answer -> the same parsed trace.

:class:`LLMExtractor` asks an OpenAI-compatible model (the client, cache and
key handling of ``ipb respond``: :class:`~ipb.respond.client.ChatClient`,
:class:`~ipb.respond.cache.ResponseCache`) for a JSON reading of one answer
against the card's gates, constrained by :data:`READING_SCHEMA` (sent as a
``json_schema`` response format and checked on return), and turns it into a
:class:`~ipb.scoring.parse.ParsedResponse`: gates in the order the model
lists them, each verdict with the span of the words it quotes, the final
verdict in the card's outcome words, invented gates. Numbers, years,
attributions, citations and reasoning spans come from the rules parser
(:func:`~ipb.scoring.parse.parse_response`) on the same text, so the two
readings differ only where they read the trace differently.

An extractor is called like ``parse_response(text, card, embedder=...,
embed_cutoff=...)`` and never raises on an answer: a failed request or an
unreadable reply is a ``parse_failure`` with the reason (counted, never
dropped). :func:`agreement` compares two readings of the same answers per
field (Cohen's kappa for gate presence, gate verdicts and the final verdict;
the paper reports kappa >= 0.88 for its extractor against human labels) and
lists the disagreements with their spans.

Layering: this module is in ``respond`` (it makes model calls) and imports
``scoring``; ``scoring.run`` takes the extractor as an injected function
(``ScoreOptions.parse``), so ``scoring`` imports nothing of ``respond``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import jsonschema

from ipb.engine._json import json_document
from ipb.engine.card import Card
from ipb.errors import LoadError
from ipb.respond.cache import ResponseCache
from ipb.respond.client import ChatClient, RequestFailed, Secrets, api_key_from_env, public_url
from ipb.respond.records import canonical_hash
from ipb.scoring._text import plain_spacing
from ipb.scoring.parse import DEFAULT_EMBED_CUTOFF, EXTRACTOR_FAILURE, GateTrace, InventedGate, ParsedResponse, parse_response

__all__ = ["READING_SCHEMA", "STOPPING", "ExtractorConfig", "LLMExtractor", "both_extractor", "agreement", "cohen_kappa"]

#: The JSON the model must return (also sent as the request's ``response_format``).
READING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["gates", "final_verdict", "final_quote", "invented_gates"],
    "properties": {
        "gates": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["gate", "verdict", "quote"],
                "properties": {
                    "gate": {"type": "integer", "minimum": 1},
                    "verdict": {"type": ["string", "null"], "enum": ["PROCEED", "REJECT", "INCONCLUSIVE", "N/A", None]},
                    "quote": {"type": ["string", "null"]},
                },
            },
        },
        "final_verdict": {"type": ["string", "null"]},
        "final_quote": {"type": ["string", "null"]},
        "invented_gates": {"type": "array", "items": {"type": "string"}},
    },
}

SYSTEM = (
    "You read an investment analysis written against a decision framework (a card of numbered gates) and report, "
    "as JSON, what the analysis itself states. Do not judge the analysis and do not apply the framework yourself."
)
USER = """Card {card_id} ({investor}). Its gates, in order:
{gates}
Outcome words of the card: {outcomes}.

List, in the order the analysis addresses them, the card's gates it discusses: "gate" is the card's gate number;
"verdict" is the verdict the analysis gives that gate (PROCEED for pass/met/yes, REJECT for fail/kill/no,
INCONCLUSIVE for unknown/insufficient data, N/A for not reached or not applicable, null when it gives none); when it
states a gate twice, the later committed statement counts. "quote" copies, verbatim, the few words of the analysis that
give the verdict (null when none). "final_verdict" is the final decision the analysis states, in the card's outcome
words (null when none is stated) and "final_quote" the words that state it. "invented_gates" lists labels the analysis
presents as gates or tests of this framework that the card lacks.

Answer with the JSON object only.

The analysis:
<<<
{text}
>>>"""

#: Failure kinds after which no further answer is sent: the server cannot be reached (after the client's retries)
#: or refuses the key or the model (401/403/404). Rate limits, timeouts and bad replies are per answer.
STOPPING = frozenset({"connection", "fatal"})

#: Confidence of an LLM reading whose quote is found verbatim in the answer, and of one whose quote is not.
QUOTED, UNQUOTED = 0.8, 0.5


@dataclass
class ExtractorConfig:
    """The extractor's model and request settings (``ipb parse/score --extractor llm``)."""

    model: str
    base_url: str
    temperature: float = 0.0
    max_tokens: int = 2000
    seed: int | None = 0
    timeout_s: float = 120.0
    concurrency: int = 4

    def params(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens or None, "seed": self.seed,
                "response_format": {"type": "json_schema", "json_schema": {"name": "gate_reading", "schema": READING_SCHEMA}}}


class LLMExtractor:
    """An answer -> :class:`ParsedResponse` by an OpenAI-compatible model; called like :func:`parse_response`.

    Parameters
    ----------
    config : ExtractorConfig
    client : ChatClient, optional
        Default: one for ``config.base_url`` with the key from ``IPB_API_KEY`` / ``OPENAI_API_KEY``.
    cache : ResponseCache, optional
        Replies are cached by request (model, server, settings, messages): a repeated reading costs nothing.
    """

    def __init__(self, config: ExtractorConfig, *, client: ChatClient | None = None, cache: ResponseCache | None = None,
                 secrets: Secrets | None = None) -> None:
        self.config = config
        self.secrets = secrets if secrets is not None else Secrets()
        self.client = client or ChatClient(config.base_url, api_key=api_key_from_env(), timeout_s=config.timeout_s,
                                           concurrency=config.concurrency, secrets=self.secrets)
        for value in self.client.secrets.values():  # the client's key is scrubbed from every reason this extractor writes
            self.secrets.add(value)
        self.cache = cache
        self.calls = 0
        #: Why the extractor stopped asking (the server unreachable, or refusing the key or model), and how many
        #: answers it has filed unread since: a run with the server down costs one answer's retries, not each one's
        #: (s48break: six answers took 4 min 49 s of back-off and said nothing).
        self.stopped: str | None = None
        self.skipped = 0

    def messages(self, text: str, card: Card) -> list[dict[str, str]]:
        gates = "\n".join(f"{g.number}. {g.name}" + (f" (also: {', '.join(g.aliases[:5])})" if g.aliases else "") for g in card.gates)
        outcomes = sorted({card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE"),
                           *(w for g in card.gates for b in g.branches.values() for w in (b.pass_outcome, b.fail_outcome))})
        user = USER.format(card_id=card.id, investor=card.investor, gates=gates, outcomes=", ".join(outcomes), text=text)
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]

    def _reply(self, messages: list[dict[str, str]]) -> str:
        params = self.config.params()
        key = canonical_hash({"kind": "extract", "model": self.config.model, "base_url": public_url(self.config.base_url),
                              "params": params, "messages": messages})
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit.text
        self.calls += 1
        done = self.client.complete(self.config.model, messages, params, key)
        text = self.secrets.scrub(done.text)
        if self.cache is not None:
            self.cache.put(key, kind="extract", model=self.config.model, text=text, finish_reason=done.finish_reason,
                           usage=done.usage, latency_s=done.latency_s, request={"kind": "extract"})
        return text

    def __call__(self, text: str, card: Any, *, embedder: Any = False, embed_cutoff: float = DEFAULT_EMBED_CUTOFF,
                 **_: Any) -> ParsedResponse:
        rules = parse_response(text, card, embedder=embedder, embed_cutoff=embed_cutoff)
        compiled: Card = _card(card)
        result = ParsedResponse(status="ok", card_id=compiled.id, years_found=rules.years_found, attributions=rules.attributions,
                                citations=rules.citations, numbers=rules.numbers, reasoning_spans=rules.reasoning_spans)
        if not text.strip():
            return _failed(result, "empty response")
        if self.stopped is not None:
            self.skipped += 1
            return _failed(result, f"{EXTRACTOR_FAILURE}not asked: {self.stopped}")
        try:
            reply = self._reply(self.messages(text, compiled))
        except RequestFailed as exc:
            reason = self.secrets.scrub_error(f"request failed ({exc.kind}): {getattr(exc, 'message', exc)}")
            if exc.kind in STOPPING:
                self.stopped = f"an earlier answer's {reason}"
            return _failed(result, f"{EXTRACTOR_FAILURE}{reason}")
        try:
            reading = _reading(reply)
        except ValueError as exc:
            return _failed(result, f"{EXTRACTOR_FAILURE}unreadable reply: {exc}")
        return _to_parsed(result, reading, text, compiled, self.config.model)


def _card(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    inner = getattr(card, "card", None)
    if isinstance(inner, Card):
        return inner
    from ipb.engine.registry import compiled_card

    return compiled_card(str(card)).card


def _failed(result: ParsedResponse, reason: str) -> ParsedResponse:
    result.status, result.reason, result.gates = "parse_failure", reason, []
    return result


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")


def _reading(reply: str) -> dict[str, Any]:
    """The model's JSON reading, checked against :data:`READING_SCHEMA`; ValueError says what is wrong."""
    try:  # the one bounded reader of whole documents: a reply nested past MAX_JSON_DEPTH is a failed extraction
        value = json_document(_FENCE.sub("", reply), "the extractor's reply")  # (s54break item 3), not a crash
    except LoadError as exc:
        raise ValueError(exc.message) from None
    try:
        jsonschema.validate(value, READING_SCHEMA)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "the reply"
        raise ValueError(f"{where}: {exc.message}") from None
    return dict(value)


def _find(text: str, quote: str | None, start: int = 0) -> tuple[int, int] | None:
    """Where ``quote`` is in ``text`` (first from ``start``, else anywhere; spacing and case forgiven), or None."""
    if not quote or not quote.strip():
        return None
    q = quote.strip()
    at = text.find(q, start)
    if at < 0:
        at = text.find(q)
    if at >= 0:
        return at, at + len(q)
    pattern = r"\s+".join(re.escape(w) for w in q.split())
    m = re.search("(?i)" + pattern, text)
    return (m.start(), m.end()) if m else None


def _to_parsed(result: ParsedResponse, reading: Mapping[str, Any], text: str, card: Card, model: str) -> ParsedResponse:
    names = {g.number: g for g in card.gates}
    seen: set[int] = set()
    for row in reading["gates"]:
        number = int(row["gate"])
        if number not in names or number in seen:
            if number not in names:
                result.invented.append(InventedGate(f"Gate {number}", (0, 0)))
            continue
        seen.add(number)
        gate = names[number]
        span = _find(text, row.get("quote"))
        mention = _find(text, gate.name) or span or (0, 0)
        verdict = row.get("verdict")
        trace = GateTrace(number, gate.name, verdict, span or mention, mention, "llm", span if verdict else None)
        trace.confidence = (QUOTED if span else UNQUOTED) if verdict else 0.5
        result.gates.append(trace)
    outcomes = {re.sub(r"[ _-]+", "_", w.upper()): w for w in
                [card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE"), "INCONCLUSIVE",
                 *(x for g in card.gates for b in g.branches.values() for x in (b.pass_outcome, b.fail_outcome))]}
    final = reading.get("final_verdict")
    if isinstance(final, str) and final.strip():
        # the rules parser's own folding (look-alike letters, full-width forms: "INV\u0415ST" with a Cyrillic Ie is
        # INVEST), then the card's outcome words; any other word is unreadable, never scored as written (s54break 5)
        key = re.sub(r"[ _-]+", "_", plain_spacing(final).strip().upper())
        if key in outcomes:
            result.final_verdict = outcomes[key]
            result.final_verdict_span = _find(text, reading.get("final_quote"))
            result.final_confidence = QUOTED if result.final_verdict_span else UNQUOTED
        else:
            result.notes.append(f"the LLM extractor's final verdict {final.strip()[:80]!r} is none of the card's outcome "
                                "words; read as no final verdict")
    for name in reading.get("invented_gates", []):
        if name.strip():
            result.invented.append(InventedGate(name.strip(), _find(text, name) or (0, 0)))
    result.notes.append(f"gates and final verdict read by the LLM extractor ({model}); numbers, years and citations by the rules")
    if not result.gates:
        return _failed(result, f"no gate of card {card.id!r} recognised by the LLM extractor")
    return result


# --------------------------------------------------------------------------- agreement of two extractors


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two raters' labels of the same items: (p_o - p_e) / (1 - p_e).

    None when there are no items; 1.0 when both raters use one and the same label throughout (p_e = 1).

    >>> cohen_kappa(["y", "y", "n", "n"], ["y", "n", "n", "n"])
    0.5
    """
    if len(a) != len(b):
        raise ValueError("both raters must label the same items")
    n = len(a)
    if n == 0:
        return None
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    if expected >= 1.0:
        return 1.0 if observed >= 1.0 else 0.0
    return round((observed - expected) / (1.0 - expected), 6)


@dataclass
class Agreement:
    """Paired labels of two extractors over a run, and their disagreements (with spans)."""

    presence: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    verdicts: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    finals: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    sequences: list[bool] = field(default_factory=list)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    #: Answers the LLM extractor gave no reading of (its reply unreadable, its request failed or not sent), by why.
    unread: Counter[str] = field(default_factory=Counter)

    def skip(self, reason: str) -> None:
        """Count an answer the LLM extractor gave no reading of; it is left out of every pair (s65 F2).

        ``reason`` is the failed reading's reason; it is counted under its kind: ``not sent`` (the extractor had
        stopped asking), ``request failed`` or ``unreadable reply``.

        >>> a = Agreement(); a.skip("llm extractor: unreadable reply: not JSON"); a.unread
        Counter({'unreadable reply': 1})
        """
        text = reason[len(EXTRACTOR_FAILURE):] if reason.startswith(EXTRACTOR_FAILURE) else reason
        kind = ("not sent" if text.startswith("not asked") else "request failed" if text.startswith("request failed")
                else "unreadable reply" if text.startswith("unreadable reply") else "other")
        self.unread[kind] += 1

    def add(self, rules: ParsedResponse, llm: ParsedResponse, n_gates: int, label: str = "") -> list[dict[str, Any]]:
        """Add one answer read both ways; returns its disagreements."""
        r = {g.gate: g for g in rules.gates}
        m = {g.gate: g for g in llm.gates}
        found: list[dict[str, Any]] = []
        for k in range(1, n_gates + 1):
            self.presence[0].append("yes" if k in r else "no")
            self.presence[1].append("yes" if k in m else "no")
            rv = (r[k].verdict or "-") if k in r else "absent"
            mv = (m[k].verdict or "-") if k in m else "absent"
            self.verdicts[0].append(rv)
            self.verdicts[1].append(mv)
            if rv != mv:
                found.append({"answer": label, "field": f"gate {k}", "rules": rv, "llm": mv,
                              "rules_span": list(r[k].verdict_span or r[k].mention) if k in r else None,
                              "llm_span": list(m[k].verdict_span or m[k].mention) if k in m else None})
        self.sequences.append(rules.gate_sequence == llm.gate_sequence)
        if rules.gate_sequence != llm.gate_sequence:
            found.append({"answer": label, "field": "gate sequence", "rules": rules.gate_sequence, "llm": llm.gate_sequence,
                          "rules_span": None, "llm_span": None})
        rf, mf = rules.final_verdict or "none", llm.final_verdict or "none"
        self.finals[0].append(rf)
        self.finals[1].append(mf)
        if rf != mf:
            found.append({"answer": label, "field": "final verdict", "rules": rf, "llm": mf,
                          "rules_span": list(rules.final_verdict_span) if rules.final_verdict_span else None,
                          "llm_span": list(llm.final_verdict_span) if llm.final_verdict_span else None})
        self.disagreements.extend(found)
        return found

    def summary(self) -> dict[str, Any]:
        """Per field: Cohen's kappa and raw agreement over the paired labels, with the count they are over."""
        def field_of(pair: tuple[list[str], list[str]]) -> dict[str, Any]:
            n = len(pair[0])
            same = sum(x == y for x, y in zip(*pair))
            return {"kappa": cohen_kappa(*pair), "agreement": round(same / n, 6) if n else None, "n": n}

        n = len(self.sequences)
        unread = sum(self.unread.values())
        out = {"gate_presence": field_of(self.presence), "gate_verdicts": field_of(self.verdicts),
               "final_verdict": field_of(self.finals),
               "gate_sequence_exact": {"agreement": round(sum(self.sequences) / n, 6) if n else None, "n": n},
               "disagreements": len(self.disagreements),
               "answers_compared": n, "llm_unread": unread, "llm_unread_by_reason": dict(sorted(self.unread.items())),
               "measured": n > 0}
        if unread:
            # s65 F2: an unreadable or dead extractor used to give "kappa 0.0" over answers it never read
            out["note"] = (f"{unread} answer(s) had no LLM reading (" + ", ".join(
                f"{k} {v}" for k, v in sorted(self.unread.items())) + ") and are in no pair" +
                ("; no pair at all: the agreement was not measured (kappa undefined over 0 pairs)" if not n else ""))
        elif not n:
            out["note"] = "no answer was read both ways: the agreement was not measured (kappa undefined over 0 pairs)"
        return out


def agreement(pairs: Iterable[tuple[ParsedResponse, ParsedResponse, int]]) -> Agreement:
    """The agreement of (rules reading, LLM reading, number of card gates) over answers."""
    out = Agreement()
    for k, (rules, llm, n) in enumerate(pairs):
        out.add(rules, llm, n, label=str(k))
    return out


def both_extractor(llm: LLMExtractor, record: Agreement) -> Any:
    """An extractor for ``--extractor both``: the rules reading (what is scored), the LLM reading compared with it.

    Each answer's disagreements are added to ``record`` and noted in the returned reading's ``notes``.
    """

    def parse(text: str, card: Any, *, embedder: Any = False, embed_cutoff: float = DEFAULT_EMBED_CUTOFF, **_: Any) -> ParsedResponse:
        rules = parse_response(text, card, embedder=embedder, embed_cutoff=embed_cutoff)
        other = llm(text, card, embedder=embedder, embed_cutoff=embed_cutoff)
        if not other.ok and (other.reason or "").startswith(EXTRACTOR_FAILURE):
            # s65 F2: no LLM reading (an unreadable reply, a failed or unsent request) is no rating: it is counted,
            # never paired as "absent" gates against the rules reading
            record.skip(other.reason or "")
            rules.notes.append(f"{other.reason} (in no agreement pair)")
            return rules
        found = record.add(rules, other, len(_card(card).gates), label=str(len(record.sequences)))
        for d in found:
            rules.notes.append(f"extractors disagree on {d['field']}: rules {d['rules']}, llm {d['llm']}")
        if not other.ok:
            rules.notes.append(f"llm extractor: {other.reason}")
        return rules

    parse.agreement = record.summary  # type: ignore[attr-defined]  # read by ipb.scoring.run into summary.json
    return parse
