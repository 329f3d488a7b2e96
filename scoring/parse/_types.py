"""The parser's results: :class:`ParsedResponse` and its parts, with their JSON form (``to_dict``, format :data:`FORMAT_VERSION`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Union

from ipb.errors import ParseError

#: Version of the dictionary :meth:`ParsedResponse.to_dict` returns (3: ``implied_final_verdict`` added).
FORMAT_VERSION = 3

Span = tuple[int, int]


class Embedder(Protocol):
    """Anything with an ``encode`` method: texts -> a 2-D array, one row per text.

    A sentence-transformers model qualifies, and so does any encoder of
    :mod:`ipb.scoring.embeddings`. Rows need not be normalised.
    """

    def encode(self, sentences: list[str]) -> Any: ...


EmbedderArg = Union[Embedder, Literal[False], None]


# --------------------------------------------------------------------------- results


def _span(span: Span | None) -> list[int] | None:
    return None if span is None else [span[0], span[1]]


@dataclass
class GateTrace:
    """One card gate the response addresses.

    ``gate`` is the card's 1-based gate number, ``name`` the card's name;
    ``span`` the text of the gate's first section, ``mention`` the label or
    words that named it, ``verdict_span`` the words that gave the verdict;
    ``elements`` the card's required elements found in the gate's sections
    (templates such as ``price {price}`` rendered with the number the text
    gives: ``price $50B``), with ``element_spans``. ``how`` is how the gate
    was recognised: name, alias, translation (a name in another language from
    the card's translations sidecar), id, number, fuzzy, words (a part of one
    gate's name or aliases), substance (a phrase of one gate's name, aliases
    or required elements without its frame words: "the net current asset
    value" for "net current asset value test"; such a gate counts only when
    it is given a verdict) or embedding. ``confidence`` (0-1) is how sure the
    reading is, ``runner_up`` / ``runner_up_span`` the strongest competing
    verdict for this gate, if any (see :mod:`ipb.scoring.parse._confidence`).
    """

    gate: int
    name: str
    verdict: str | None
    span: Span
    mention: Span
    how: str
    verdict_span: Span | None = None
    elements: list[str] = field(default_factory=list)
    element_spans: list[Span] = field(default_factory=list)
    confidence: float = 1.0
    runner_up: str | None = None
    runner_up_span: Span | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate,
            "name": self.name,
            "verdict": self.verdict,
            "elements": list(self.elements),
            "span": _span(self.span),
            "mention": _span(self.mention),
            "how": self.how,
            "verdict_span": _span(self.verdict_span),
            "element_spans": [_span(s) for s in self.element_spans],
            "confidence": self.confidence,
            "runner_up": None if self.runner_up is None else {"verdict": self.runner_up, "span": _span(self.runner_up_span)},
        }


@dataclass(frozen=True)
class InventedGate:
    """A gate the response asserts that the card lacks (FM-1)."""

    name: str
    span: Span


@dataclass(frozen=True)
class Attribution:
    """"``investor`` said ``claim``" in the response."""

    investor: str
    claim: str
    span: Span

    def to_dict(self) -> dict[str, Any]:
        return {"investor": self.investor, "claim": self.claim, "span": _span(self.span)}


@dataclass(frozen=True)
class Citation:
    """A cited document: ``entity`` (author or organisation, if named), ``document`` as written, ``year`` if given.

    ``locator`` is the chapter, section, part or page reference that follows
    the citation after a comma on its line, up to the sentence's end ("ch.
    20", "Part III, Psychology", "pp. 12-15"), or None; ``span`` covers the
    citation without it.
    """

    entity: str | None
    document: str
    year: int | None
    span: Span
    locator: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"entity": self.entity, "document": self.document, "year": self.year, "locator": self.locator,
                "span": _span(self.span)}


@dataclass(frozen=True)
class NumberMention:
    """A number with a unit: ``unit`` is money (USD), multiple, ratio (95% is 0.95), fraction or number; ``text`` is the
    answer's own characters at ``span`` (a hard-wrapped "0\\n%" stays so, read as 0%)."""

    text: str
    value: float
    unit: str
    span: Span

    def to_dict(self) -> dict[str, Any]:
        value: float | int = int(self.value) if self.value.is_integer() and abs(self.value) < 2**53 else self.value
        return {"text": self.text, "value": value, "unit": self.unit, "span": _span(self.span)}


@dataclass(frozen=True)
class YearMention:
    year: int
    span: Span


#: How the reason of a parse starts when the LLM extractor gave no reading (defined in :mod:`ipb.scoring.outcome`,
#: which reads it; importing it here from there keeps outcome free of the parser package, whose modules import
#: outcome: the other way round was a circular import whenever outcome loaded first).
from ipb.scoring.outcome import EXTRACTOR_FAILURE  # noqa: E402


@dataclass
class ParsedResponse:
    """The parsed trace of one response; :meth:`to_dict` is the JSON form.

    ``status`` is ``ok`` or ``parse_failure`` (then ``reason`` says why). A
    failure in which no gate of the card was recognised keeps the final
    verdict the text states (``ipb score`` scores it with an empty trace,
    every gate metric at its worst: docs/scoring.md "Failures count"); any
    other failure reads nothing and is recorded as unscored, at 0.
    ``final_confidence`` (0-1; 0.0 when no final verdict was read) and
    ``final_runner_up`` / ``final_runner_up_span`` (the strongest different
    outcome stated) qualify the final verdict.
    ``implied_final_verdict`` is the outcome a trace that ends in a kill
    implies when the text states no final verdict (``final_verdict`` then
    stays None: scoring credits only what was said), with the gate whose
    REJECT decides it and that verdict's span (:mod:`._implied`), and
    ``implied_final_confidence`` (0-1; 0.0 when none is implied): the
    confidence of the weakest gate reading it rests on.
    """

    status: str
    reason: str | None = None
    card_id: str = ""
    gates: list[GateTrace] = field(default_factory=list)
    final_verdict: str | None = None
    final_verdict_span: Span | None = None
    final_confidence: float = 0.0
    final_runner_up: str | None = None
    final_runner_up_span: Span | None = None
    implied_final_verdict: str | None = None
    implied_final_gate: int | None = None
    implied_final_span: Span | None = None
    implied_final_confidence: float = 0.0
    invented: list[InventedGate] = field(default_factory=list)
    years_found: list[YearMention] = field(default_factory=list)
    attributions: list[Attribution] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    numbers: list[NumberMention] = field(default_factory=list)
    reasoning_spans: list[Span] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def invented_gates(self) -> list[str]:
        return [g.name for g in self.invented]

    @property
    def years(self) -> list[int]:
        """Distinct years cited, in order of first mention."""
        return list(dict.fromkeys(y.year for y in self.years_found))

    @property
    def gate_sequence(self) -> list[int]:
        """The card gate numbers in the order the response addresses them (paper §7.5's Ŝ)."""
        return [g.gate for g in self.gates]

    def raise_for_status(self) -> "ParsedResponse":
        """Return self, or raise :class:`ParseError` with the reason when the parse failed."""
        if not self.ok:
            raise ParseError(f"response not parsed: {self.reason}", rule="parse_failure", name=self.card_id or None)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "status": self.status,
            "reason": self.reason,
            "card": self.card_id,
            "gates": [g.to_dict() for g in self.gates],
            "final_verdict": self.final_verdict,
            "final_verdict_span": _span(self.final_verdict_span),
            "final_confidence": self.final_confidence,
            "final_runner_up": None if self.final_runner_up is None else {"verdict": self.final_runner_up, "span": _span(self.final_runner_up_span)},
            "implied_final_verdict": self.implied_final_verdict,
            "implied_final_gate": self.implied_final_gate,
            "implied_final_span": _span(self.implied_final_span),
            "implied_final_confidence": self.implied_final_confidence,
            "invented_gates": self.invented_gates,
            "invented_gate_spans": [_span(g.span) for g in self.invented],
            "years": self.years,
            "year_mentions": [{"year": y.year, "span": _span(y.span)} for y in self.years_found],
            "attributions": [a.to_dict() for a in self.attributions],
            "citations": [c.to_dict() for c in self.citations],
            "numbers": [n.to_dict() for n in self.numbers],
            "reasoning_spans": [_span(s) for s in self.reasoning_spans],
            "notes": list(self.notes),
        }
