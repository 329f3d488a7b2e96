"""The working state one parse shares between the parser's concerns (each a mixin of :class:`~ipb.scoring.parse._parser._Parser`).

Every concern module (layout, gate references, paraphrases, verdict words,
final verdict, elements, citations) holds one mixin deriving from
:class:`_ParserState`; the state is created once per response. Methods one
concern calls on another are declared here for the type checker only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ipb.engine.card import Card
from ipb.scoring._text import Line, NumberMatch, Trigger
from ipb.scoring.parse._common import (
    MAX_OCCURRENCES,
    _Anchor,
    _CardIndex,
    _Evidence,
    _Hit,
    _Mention,
    _Unit,
)
from ipb.scoring.parse._types import EmbedderArg, InventedGate, Span


class _ParserState:
    """The text, the card's index and what the passes over the text have found so far (offsets into the text)."""

    text: str
    card: Card
    ix: _CardIndex
    embedder: EmbedderArg
    score_cutoff: float
    embed_cutoff: float
    notes: list[str]
    record_fields: set[str]  # normalised line labels read as a repeated record's field names (_record_fields.py)
    masked: str
    low: str
    final_units: set[int]
    final_cue_at: dict[int, int]
    positions: dict[str, list[int]]
    prefixes: set[str] | None
    truncated: set[str]
    folded: list[tuple[int, int, int]]
    outcome_units: dict[int, bool]
    lines: list[Line]
    units: list[_Unit]
    unit_starts: list[int]
    line_units: list[list[int]]
    mentions: list[_Mention]
    unit_mentions: dict[int, list[_Mention]]
    unit_mention_starts: dict[int, list[int]]
    _sections_by_gate: dict[int, dict[int, list[int]]] | None
    all_numbers: list[NumberMatch]
    section_gate: dict[int, int]
    section_first: dict[int, int]
    gate_mention: dict[int, tuple[Span, str]]
    gate_sections: dict[int, list[int]]
    hits: list[_Hit]
    structural: bool
    blanked: int
    revision_units: dict[int, bool]
    final_reading: tuple[float, str | None, Span | None]
    #: The final verdict's candidates and those set aside as another voice's (level, position, outcome, span): :mod:`._confidence`.
    final_candidates: tuple[list[tuple[int, int, str, Span]], list[tuple[int, int, str, Span]]]
    unit_hits: dict[int, list[_Hit]]
    anchors: dict[int, _Anchor]
    invented: list[InventedGate]
    verdict_columns: dict[int, int | None]
    #: Spans analysing another profile or scenario than the first (:func:`._voice.other_profile_regions`), found on first use.
    profile_regions: list[tuple[int, int]] | None
    regime_gate: dict[int, int]
    #: Starts of the regimes named where they are said of the case (:func:`._regime_words.placed`).
    regime_placed: set[int]
    #: Starts of every verdict word, sorted (filled on first use by ``_soft_number_is_gate``).
    verdict_starts: list[int] | None
    #: Out-of-range numbers of a grouped gate label ("Gates 2 and 12" on a five-gate card): invented gates (FM-1).
    outside_numbers: list[_Mention]
    #: Units whose gate was found from the content words of one gate's phrase (:mod:`._lexical`): that gate is their subject.
    lexical_units: set[int]
    #: Mentions (item spans) of gates read by a list's positions whose titles no word of the card confirms (:mod:`._positional`).
    unconfirmed: set[Span]
    #: Run-in heads ("The loop. A high price ..."): (line, title span, the title's text where no card word named it, else
    #: ""), set by ``_references._run_in_head`` and read by :func:`._run_in_embedded.embed_run_in_heads`.
    run_in_heads: list[tuple[int, Span, str]]

    def __init__(self, text: str, card: Card, ix: _CardIndex, embedder: EmbedderArg, score_cutoff: float, embed_cutoff: float) -> None:
        self.text = text
        self.card = card
        self.ix = ix
        self.embedder = embedder
        self.score_cutoff = score_cutoff
        self.embed_cutoff = embed_cutoff
        self.notes = []
        self.record_fields = set()
        self.masked = text
        self.low = text
        self.final_units = set()
        self.final_cue_at = {}
        self.positions = {}
        self.prefixes = None
        self.truncated = set()
        self.folded = []
        self.outcome_units = {}
        self.lines = []
        self.units = []
        self.unit_starts = []
        self.line_units = []
        self.mentions = []
        self.unit_mentions = {}
        self.unit_mention_starts = {}
        self._sections_by_gate = None
        self.all_numbers = []
        self.section_gate = {}
        self.section_first = {}
        self.gate_mention = {}
        self.gate_sections = {}
        self.hits = []
        self.structural = False
        self.blanked = 0
        self.revision_units = {}
        self.final_reading = (0.0, None, None)
        self.final_candidates = ([], [])
        self.unit_hits = {}
        self.anchors = {}
        self.invented = []
        self.verdict_columns = {}
        self.profile_regions = None
        self.regime_gate = {}
        self.regime_placed = set()
        self.verdict_starts = None
        self.outside_numbers = []
        self.lexical_units = set()
        self.unconfirmed = set()
        self.run_in_heads = []


    if TYPE_CHECKING:  # defined by the concern mixins; declared here so each mixin type-checks on its own

        def _scan(self, triggers: list[Trigger], *, limit: int = MAX_OCCURRENCES) -> list[tuple[int, re.Match[str]]]: ...
        def _unit_at(self, pos: int) -> int: ...
        def _section_of(self, gate: int, u: int) -> int: ...
        def _section_span(self, gate: int) -> Span | None: ...
        def _section_units(self, gate: int) -> list[list[int]]: ...
        def _tight_owner(self, hit: _Hit, u: int) -> tuple[int, ...] | None: ...
        def _in_other_profile(self, pos: int) -> bool: ...
        def _mention_starts(self, u: int) -> list[int]: ...
        def _drop_idle_quantifiers(self) -> None: ...
        def _quantified(self, found: list[_Mention]) -> list[_Mention]: ...
        def _framed(self) -> list[_Mention]: ...
        def _coordinated(self) -> list[_Mention]: ...
        def _coordinated_label(self, a: int, b: int, mentions: list[_Mention], cache: dict[str, int | None]) -> list[_Mention]: ...
        def _outcome_only(self, line: Line) -> bool: ...
        def _part_gates(self, norm: str) -> frozenset[int]: ...
        def _section_has_verdict(self, li: int) -> bool: ...
        def _row_has_verdict(self, li: int) -> bool: ...
        def _answer_embedded_label(self, li: int, gate: int, value: int, answer: str) -> None: ...
        def _mentions_in(self, start: int, end: int) -> list[_Mention]: ...
        def _part_of_one_gate(self, norm: str) -> int | None: ...
        def _level(self, hit: _Hit) -> int: ...
        def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]: ...
        def _rank(self, ev: _Evidence) -> tuple[int, bool, bool]: ...
        def _revision(self, hit: _Hit) -> bool: ...
        def _final_reading(self, candidates: list[tuple[int, int, str, Span]], set_aside: list[tuple[int, int, str, Span]], outcome: str, span: Span) -> tuple[float, str | None, Span | None]: ...
        def _gate_confidence(self, evidence: list[_Evidence], verdict: str | None, span: Span | None, how: str) -> tuple[float, str | None, Span | None]: ...
