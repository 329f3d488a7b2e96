"""Tuning constants, bounds and the working records every concern of the parser shares.

The records (:class:`_Unit` a sentence or table row, :class:`_Mention` a
gate named, :class:`_Hit` a verdict word, :class:`_Anchor` a gate label,
:class:`_Evidence` a verdict word counted for a gate) hold offsets into the
response. Bounds (``MAX_*``) keep every pass linear on pathological input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ipb.engine.card import Card, Gate
from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Trigger
from ipb.scoring.parse._types import ParsedResponse, Span

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
#: Reported by bench/parse_calibration.py only: the parser no longer uses it (since the embedder only adds
#: readings, a label is an invented gate on the same evidence with and without it). It was: below this similarity
#: to every gate, a gate-like label is an invented gate (between it and
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
#: At most this many characters are read from one response: the first and the last half of them.
MAX_CHARS = 2_000_000
#: Texts up to this long (not counting a middle skipped by MAX_CHARS) first list their words' prefixes, so absent trigger words cost nothing.
PREFILTER_CHARS = 2_000_000
#: At most this many occurrences of one trigger word are examined, the first and the last half (a bound for
#: pathological input; a realistic 1 MB answer has under 5,000 of its commonest word).
MAX_OCCURRENCES = 20_000
#: A sentence holding more verdict words or marks than this is read by no clause, and a mark's line is checked for a
#: contradicting word among its first this many only (break44 #5: 1 MB of "\u2713 \u2717 \u26a0 " with no sentence end
#: judged its 21,000 marks as clauses, 103 s, and checked each mark against every other, quadratic; a sentence a writer
#: states verdicts in holds a few).
MAX_SENTENCE_HITS = 256
#: At most this many lines with text are read from one response: the first and the last half of it.
MAX_LINES = 25_000
_LINE_WITH_TEXT = re.compile(r"^[ \t]*\S", re.MULTILINE)
#: At most this many numbers are read from one response (a bound for pathological input).
MAX_NUMBERS = 20_000
#: At most this many year mentions are read from one response (5 MB of years once printed 37 MB of JSON).
MAX_YEARS = 20_000


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
    #: The whole sentence when this unit is one clause of it (:func:`._layout._prose_clauses`), else None.
    sentence: tuple[int, int] | None = None


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
    #: The level as stated, before another speaker's, time's or company's word is capped at weak (:mod:`._attributed`):
    #: a label another's checklist gives a verdict is still a label with a verdict (an invented gate, FM-1).
    stated: int = 0


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
#: One-word answers that open a line ("Yes — subscription software...") and name no gate.
_ANSWER_WORDS = frozenset({"yes", "no", "true", "false", "none", "ok", "okay", "correct", "agreed", "indeed", "n a", "na", "maybe"})
_FIELD_VERDICT = re.compile(r"(?i)^(?:gate\s+)?(?:verdict|outcome|result|status|decision|assessment|rating|gate\s+verdict)$")
_STOP_LABELS = re.compile(
    r"(?i)^(?:key\s+)?(?:facts?|data|inputs?|scenario|background|context|overview|introduction|intro|analysis|approach|method|"
    r"(?:(?:company|business|firm|fund|share\s+price|stock\s+price|price)\s+)?(?:profile|history|overview|background|description)|"
    r"(?:attempt|draft|version|revision|iteration|round|response|answer|output)\s*#?\s*\d{1,6}|"
    r"framework|checklist|table|notes?|assumptions?|caveats?|risks?|strengths?|weaknesses?|pros|cons|pros\s+and\s+cons|sources?|references?|citations?|appendix|details?|"
    r"gate[- ]by[- ]gate(?:\s+analysis)?|gates?|steps?|questions?|answers?|metrics?|numbers?|calculations?|valuation\s+math|"
    r"trace|reasoning|discussion|evaluation|application|response|part\s+\w+|section\s+\w+|\w+\s+checklist|"
    r"(?:executive\s+)?summary(?:\s+of\s+(?:the\s+)?(?:verdicts?|results?|findings|gates?|checks?|tests?))?|"
    r"(?:checks?|tests?|gates?|criteria|screens?)\s+(?:passed|failed|met|summary|results?)|verdicts?|results?|scorecard|"
    r"key\s+(?:points|takeaways|findings)|takeaways?|highlights?|recap|snapshot|at\s+a\s+glance|tl;?dr)$"
)


def _FIELD_LABEL(norm: str) -> bool:
    return bool(vw.FIELD_LABELS.match(norm))


_FINAL_IN_LABEL = re.compile(r"\b(?:final|overall|ultimate)\s+(?:investment\s+)?(?:verdict|decision|recommendation|call|answer|conclusion|outcome)\b")


#: A decision label of another language, whole ("Fazit", "Endgültiges Urteil", "结论"; grammar/languages.yaml
#: ``labels`` and ``final_labels``), on a label already normalised (lower case, punctuation one space).
_FOREIGN_DECISION_LABEL = re.compile(r"(?i)" + _fv.LABEL_PATTERN + r"\Z")


def _final_cue_label(norm: str) -> bool:
    """A short label that names the final verdict in other words: "Revised final verdict", "Final verdict (revised"."""
    return len(norm.split()) <= 5 and _FINAL_IN_LABEL.search(norm) is not None


def _decision_label(norm: str) -> bool:
    """:func:`_final_cue_label`, or a decision label of another language whole ("Endgültiges Urteil", "Fazit"): a
    label that is never a gate's name (s44user: "**Endgültiges Urteil: INCONCLUSIVE**" under a German table was an
    invented gate, FM-1). Only a name test: whether the line is the answer's close stays the final reader's question
    ("Ergebnis: erfüllt" after the last gate's section is that gate's own conclusion)."""
    return _final_cue_label(norm) or (len(norm.split()) <= 5 and _FOREIGN_DECISION_LABEL.match(norm) is not None)


def _failure(result: ParsedResponse, reason: str, *, keep: bool = False) -> ParsedResponse:
    result.status = "parse_failure"
    result.reason = reason
    if not keep:
        result.gates = []
    return result


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
    #: The card's synonym table (:func:`ipb.scoring.verdict_words.synonym_table`) for the default phrases that are not
    #: the card's own words: phrase -> outcome, with the rating-field and bare-word triggers that find them.
    synonym_of: dict[str, str] = field(default_factory=dict)
    #: The card's outcomes that are spelled as a gate-verdict word (an outcome ``PASS``: a decline, in Pabrai's sense),
    #: upper case -> outcome: in the final region such a word is the card's outcome, not a gate verdict mapped to one.
    own_verdict_words: dict[str, str] = field(default_factory=dict)
    rating_triggers: list[Trigger] = field(default_factory=list)
    synonym_triggers: list[Trigger] = field(default_factory=list)
    #: The regimes of each classifying gate as they are written in prose ("growth up, inflation down", "slow grower"),
    #: keyed by the gate's number.
    regime_triggers: list[Trigger] = field(default_factory=list)
    #: Gates whose named condition is what lets them PROCEED (a proceed criterion, no reject criterion, no kill
    #: criterion: "Risk Drift Beyond Tolerance"): a word saying the condition holds is a PROCEED there.
    proceed_sense: frozenset[int] = frozenset()
    #: (tier, gate, content-word stems) of each gate's name (tier 0) and aliases and id (tier 1), for labels that use a part of them.
    gate_words: list[tuple[int, int, frozenset[str]]] = field(default_factory=list)
