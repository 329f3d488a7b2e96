"""Gates named by their meaning, read from the card's own words (issue 13, gate references).

**A label in the words of one gate's substance.** "**People.**", "Can we
understand it?", "Strategic fit:" name no gate by its name or an alias, yet a
reader knows which gate each means: the card says so in the gate's
description, its required elements and the inputs its criterion reads
("management", "understand", "strategic"). Each gate's *vocabulary* is the
stems of those texts; a stem in one gate's vocabulary only is *distinctive*.
A label of at most five words (no comma) that the name and alias rules left unresolved names the gate with the
most distinctive stems in it, when that gate has more than any other, no
other label names it, and either the label's section states a verdict or the
label holds two such stems (a bare "Background" heading is no gate).

This runs with and without the sentence-embedding fallback, before it:
a label read here keeps its reading whatever the embedder says, so the
default configuration (embedder on) reads every label as the
embedder-off configuration does, and the embedder decides only the labels
left (:meth:`._paraphrase._ParaphraseMixin._embedding_matches`).
"""

from __future__ import annotations

import re

from ipb.engine.card import ELEMENT_FIELD, Card, Gate
from ipb.scoring import verdict_words as vw
from ipb.scoring._text import STOPWORDS, normalize, stem
from ipb.scoring.outcome import reads_as_english
from ipb.scoring.parse._common import _Anchor
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span

#: Words every card uses about every gate: never distinctive.
_COMMON = frozenset({
    "test", "check", "gate", "rule", "screen", "screening", "criterion", "criteria", "limit", "whether", "than", "more", "less", "least", "most",
    "above", "below", "under", "over", "value", "share", "shares", "company", "business", "stock", "investment", "invest",
    "investor", "year", "years", "ratio", "rate", "level", "high", "low", "must", "should", "would", "could", "number",
    "proceed", "reject", "pass", "fail", "passes", "fails", "verdict", "kill", "condition", "requirement", "ok", "okay",
    "you", "your", "they", "their", "them", "too", "also", "goes", "whatever", "anything", "cannot", "outcome", "outcomes", "verdicts", "show", "shows",
    "mixed", "sort", "idea", "undecided", "unknown", "data", "missing", "leave", "leaves", "one", "two", "three", "four", "five",
    # function words the stop list leaves in
    "not", "when", "which", "has", "have", "had", "how", "many", "well", "without", "even", "either", "another", "given",
    "own", "only", "those", "these", "otherwise", "far", "nothing", "need", "needs", "there", "here", "what", "who", "why",
    "where", "been", "being", "does", "did", "done", "each", "every", "any", "some", "such", "same", "much", "very", "into",
    "within", "across", "between", "against", "about", "after", "before", "while", "still", "yet", "just", "both", "whose",
    # evaluative nouns a label uses about anything ("Quality aspect", "Key factor", "Other issues")
    "quality", "aspect", "factor", "factors", "issue", "issues", "point", "points", "item", "items", "area", "topic", "note",
    "notes", "overview", "summary", "background", "key", "main", "other", "general", "good", "bad", "strong", "weak",
})

def title_stems(text: str) -> set[str]:
    """The content stems of a label as the vocabulary rules compare them (common words left out)."""
    return stem_set(text)


def names_read(gate: Gate) -> list[str]:
    """The names a gate's tests, computed values and classifications read, sorted (inputs, constants and computed
    names alike: the caller keeps those it wants)."""
    names: set[str] = set()
    for expr in (gate.proceed, gate.reject, *gate.compute.values(), *(e for _, e in gate.classify)):
        if expr is not None:
            names.update(expr.names)
    return sorted(names)


def stem_set(text: str, common: frozenset[str] = _COMMON) -> set[str]:
    """The content stems of ``text``: words of three letters or more, less stop words and ``common`` (as words and as
    stems), stemmed (:func:`ipb.scoring._text.stem`), a final "e" dropped from a stem of five letters or more.

    The one stemmer of the card-vocabulary readers: label vocabulary (``common`` = the words every label uses) and
    prose vocabulary (:mod:`._prose`, its own plain words).

    >>> sorted(stem_set("A balanced balance sheet"))
    ['balanc', 'sheet']
    """
    # stem() keeps "balance" but cuts "balanced" to "balanc": a final "e" is dropped on both sides
    out = {stem(w) for w in normalize(text).split() if len(w) > 2 and w.isalpha() and w not in STOPWORDS and w not in common}
    return {s.rstrip("e") if len(s) > 4 else s for s in out if s not in common}




#: The fewest content stems an item's own text holds before its words, not its number, must tie it to its gate.
OWN_WORDS_MIN = 3
_FIGURE = re.compile(r"\d|=")


def placed_only(text: str, vocabulary: frozenset[str]) -> bool:
    """Whether a numbered item whose own text is ``text`` is tied to its gate by its place alone: it states no figure
    or computation, holds at least :data:`OWN_WORDS_MIN` content stems (:func:`stem_set`), and none of them is in the
    gate's ``vocabulary`` (its own words, no other gate's: :func:`distinctive_vocabulary`). A bare verdict ("1. PASS"), a figure ("2. Rate = max(4.3%, 10%)")
    or a word of the gate's ("1. Profits in every year") ties the item to its number; a sentence of the writer's own
    ("2. Management is honest and owns a large stake.") does not (break44 #1): such an item is met by position, at an
    embedding's confidence factor (``RECOGNITION['position']`` in :mod:`._confidence`), not a name's.

    >>> v = frozenset({"profit", "earn"})
    >>> placed_only("Management is honest and owns a large stake.", v), placed_only("PASS", v)
    (True, False)
    >>> placed_only("Profits in every year of the last ten.", v), placed_only("Rate = max(4.3%, 10%) for a long while", v)
    (False, False)
    """
    if _FIGURE.search(text):
        return False
    stems = stem_set(text)
    return len(stems) >= OWN_WORDS_MIN and not stems & vocabulary


def distinctive_vocabulary(card: Card) -> dict[int, frozenset[str]]:
    """Gate number -> the stems of its name, aliases, description, required elements and the names and descriptions of
    the inputs its criteria read, less every stem another gate's texts also hold (built once per card)."""
    return _vocabularies(card)[1]


def gate_vocabulary(card: Card) -> dict[int, frozenset[str]]:
    """Gate number -> every stem of its name, aliases, description, required elements and the names and descriptions of
    the inputs its criteria read (shared stems included; built once per card)."""
    return _vocabularies(card)[0]


@per_object()
def alias_only_vocabulary(card: Card) -> dict[int, frozenset[str]]:
    """Gate number -> its distinctive stems that only its aliases hold: no word of its name, description, required
    elements or inputs ("cap" of Graham's "earnings multiple cap"; built once per card)."""
    out: dict[int, frozenset[str]] = {}
    for g in card.gates:
        texts = [g.name, g.description, *(ELEMENT_FIELD.sub(" ", e) for e in g.required_elements)]
        for name in names_read(g):
            spec = card.inputs.get(name)
            texts.append(name.replace("_", " "))
            if spec is not None:
                texts.append(spec.description)
        plain = set().union(*(stem_set(t) for t in texts))
        out[g.number] = frozenset(distinctive_vocabulary(card).get(g.number, frozenset()) - plain)
    return out


@per_object()
def _vocabularies(card: Card) -> tuple[dict[int, frozenset[str]], dict[int, frozenset[str]]]:
    raw: dict[int, set[str]] = {}
    for g in card.gates:
        texts = [g.name, *g.aliases, g.description, *(ELEMENT_FIELD.sub(" ", e) for e in g.required_elements)]
        for name in names_read(g):
            spec = card.inputs.get(name)
            texts.append(name.replace("_", " "))
            if spec is not None:
                texts.append(spec.description)
        raw[g.number] = set().union(*(stem_set(t) for t in texts))
    counts: dict[str, int] = {}
    for stems in raw.values():
        for s in stems:
            counts[s] = counts.get(s, 0) + 1
    table = {number: frozenset(s for s in stems if counts[s] == 1) for number, stems in raw.items()}
    full = {number: frozenset(stems) for number, stems in raw.items()}
    return full, table


def gate_by_vocabulary(card: Card, text: str) -> tuple[int | None, int]:
    """The gate whose distinctive vocabulary holds most of ``text``'s stems, and how many; None on a tie or none.

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> gate_by_vocabulary(compiled_card("munger_business_quality_price").card, "Can we understand it?")
    (1, 1)
    """
    stems = stem_set(text)
    if not stems:
        return None, 0
    scores = sorted(((len(stems & vocab), number) for number, vocab in distinctive_vocabulary(card).items()), reverse=True)
    best, number = scores[0]
    if best == 0 or (len(scores) > 1 and scores[1][0] == best):
        return None, 0
    return number, best


#: The nouns a report titles its checks with, on top of :data:`_COMMON`: "Growth Metrics Analysis" says "growth".
_LABEL_FRAME = _COMMON | frozenset({
    "analysis", "analyses", "analys", "metric", "metrics", "calculation", "calculat", "scan", "review", "assessment", "assess",
    "evaluation", "evaluat", "rules", "checks", "tests", "question", "questions", "lens", "lenses", "consideration", "considerat"})
#: The recognition left to a label that shares one distinctive word with a gate while its other words are none of that
#: gate's (:func:`partial_label`), as a share of the plain vocabulary reading's 0.9: under the review bar at any level.
PARTIAL_FACTOR = 0.7 / 0.9


@per_object()
def described_only_vocabulary(card: Card) -> dict[int, frozenset[str]]:
    """Gate number -> its distinctive stems that neither its name nor its aliases hold: words only its description,
    its required elements or its inputs' names and descriptions have ("owner" of Munger's fair price, whose input is
    owner earnings, "cash the owners could take out"; built once per card)."""
    out: dict[int, frozenset[str]] = {}
    for g in card.gates:
        named = set().union(*(stem_set(t) for t in (g.name, *g.aliases)))
        out[g.number] = frozenset(distinctive_vocabulary(card).get(g.number, frozenset()) - named)
    return out


def partial_label(card: Card, label: str, gate: int) -> bool:
    """Whether ``label`` names ``gate`` by one distinctive word only, beside words that are none of that gate's (issue
    13, break42 #8): "Market cap over $1B" shares "cap" with Graham's "earnings multiple cap", a ceiling on the P/E,
    while "market" is no word of that gate; one borrowed word of a longer phrase is a guess, read under the review bar.
    "Can we understand it?" (one word, all the gate's) and "Management incentives" (two of the gate's words) stay whole.
    So is a label whose one word of the gate comes only from its description, its elements or its inputs, none from
    its name or aliases (stop 43, break42 leftovers): "Check the owners" shares "owner" with Munger's fair price only
    through its input and element, owner earnings.

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_seven_tests_defensive").card
    >>> partial_label(card, "Market cap over $1B", 6), partial_label(card, "Earnings multiple cap", 6)
    (True, False)
    >>> card = compiled_card("munger_business_quality_price").card
    >>> partial_label(card, "Check the owners", 5), partial_label(card, "Fair price", 5)
    (True, False)
    """
    stems = stem_set(label, _LABEL_FRAME)
    own = stems & distinctive_vocabulary(card).get(gate, frozenset())
    if len(own) != 1:
        return False
    if own <= described_only_vocabulary(card).get(gate, frozenset()):
        return True
    return own <= alias_only_vocabulary(card).get(gate, frozenset()) and bool(stems - gate_vocabulary(card).get(gate, frozenset()))


#: The factor on a gate read by a list's position whose run's titles share no word with any gate of the card
#: (:meth:`._positional._PositionalMixin._unconfirmed_titles`): 0.95 x 0.75 x 0.9 = 0.64, under the review bar.
UNCONFIRMED_FACTOR = 0.9


def label_factor(card: Card, text: str, how: str, mention: Span, gate: int, unconfirmed: set[Span] | None = None) -> float:
    """The factor on the confidence of ``gate``'s trace for how its label names it: :data:`PARTIAL_FACTOR` for a
    vocabulary reading by one borrowed word (:func:`partial_label`) in an English answer, :data:`UNCONFIRMED_FACTOR`
    for a position reading whose mention is in ``unconfirmed``, else 1. In another language the label's other words
    are the writer's untranslated ones ("Prix par rapport aux actifs"), no sign of another subject; ``text`` is the
    answer, ``mention`` the label's span in it."""
    if unconfirmed and mention in unconfirmed:
        return UNCONFIRMED_FACTOR
    if how != "vocabulary" or not partial_label(card, text[mention[0]:mention[1]], gate) or not reads_as_english(text):
        return 1.0
    return PARTIAL_FACTOR


#: How a label was anchored by a part of a gate's words rather than by its name, alias, id or number.
_WEAK_HOW = frozenset({"fuzzy", "words"})


#: A label of more content words than this (or with a comma) is a sentence's opening, not a name: it is left alone.
MAX_LABEL_WORDS = 5
#: A heading or a question may run to this many words in all when at most :data:`MAX_LABEL_WORDS` of them are content
#: words: "What are the incentives of management?" (six words, two content words) is a title, as "Management" is.
MAX_TITLE_SPAN = 8


def short_label(label: str, *, title: bool = False) -> bool:
    """Whether ``label`` is short enough to be a gate's name in other words: no comma and at most
    :data:`MAX_LABEL_WORDS` words; a ``title`` (a heading line or a question) may hold up to :data:`MAX_TITLE_SPAN`
    words when its content words (stop words such as "what are the ... of" left out) are at most MAX_LABEL_WORDS.
    A table cell or a bullet's label keeps the plain bound: "Ten cap (owner earnings x 10)" in a table of pricing
    methods is a row of figures, not a gate's title.

    >>> short_label("What are the incentives of management?", title=True), short_label("What are the incentives of management?")
    (True, False)
    >>> short_label("enrolment headcount, which tells you", title=True)
    False
    """
    if "," in label:
        return False
    words = label.split()
    if len(words) <= MAX_LABEL_WORDS:
        return True
    return title and len(words) <= MAX_TITLE_SPAN and len(stem_set(label, frozenset())) <= MAX_LABEL_WORDS
_DISMISSED = re.compile(r"(?i)\b(?:not\s+(?:a|one\s+of\s+the)\s+(?:gate|test|criteri)|irrelevant|beside\s+the\s+point)\b")


class _VocabularyMixin(_ParserState):
    """Anchors unresolved gate-like labels by the card's own words (:meth:`_labels_by_vocabulary`)."""

    def _labels_by_vocabulary(self, unresolved: list[tuple[int, Span, str, int | None]]) -> None:
        """Before the embedding fallback: each label left unanchored, or made an invented gate for want of a better
        reading, becomes the gate its words mean (see the module docstring); the others stay as they were."""
        self._yield_to_named_labels()
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        for li, span, label, number in unresolved:
            if number is not None:
                continue
            anchor = self.anchors.get(li)
            if anchor is not None and not (anchor.gate is None and anchor.how == "label"):
                continue
            if not short_label(label, title=self.lines[li].kind == "heading" or label.rstrip(" *_").endswith("?")):
                continue  # "enrolment headcount, which tells you everything about integrity" is a sentence, not a label
            gate, strength = gate_by_vocabulary(self.card, label)
            if gate is None or gate in named:
                continue
            line = self.lines[li]
            own = any(self._level(h) >= vw.COMMITTED for u in self.line_units[li] for h in self.unit_hits.get(u, []))
            if strength < 2 and not (own or self._section_has_verdict(li) or self._row_has_verdict(li)):
                continue
            if _DISMISSED.search(self.masked, line.start, line.end):
                continue
            self.anchors[li] = _Anchor(gate, "vocabulary", span)
            named.add(gate)

    def _yield_to_named_labels(self) -> None:
        """A label anchored by a word it shares with a gate's name ("Growth Metrics Analysis" for "P/E Far Above the
        Growth Rate") while another label names that gate by its name, alias or number ("PEG Ratio Calculation" is the
        alias "PEG ratio") means another gate: the one gate that no label names and whose words (name, aliases,
        description, elements, the inputs it reads) hold every content word of the label ("growth": the broken-story
        gate reads the growth now and at purchase). Only a peer of the naming label yields (the same kind of line: two
        bullets, two headings): a field line under a gate's heading belongs to that heading's gate. With none, or two
        such gates, the label keeps its reading: a label is never given to one of two gates that fit it equally."""
        by_gate: dict[int, list[int]] = {}
        for li, a in self.anchors.items():
            if a.gate is not None:
                by_gate.setdefault(a.gate, []).append(li)
        named = set(by_gate)
        vocab = gate_vocabulary(self.card)
        for gate, lines in sorted(by_gate.items()):
            weak = [li for li in lines if self.anchors[li].how in _WEAK_HOW]
            if not weak or len(weak) == len(lines):
                continue  # the gate has no stronger label, or only weak ones: nothing to yield to
            kinds = {self.lines[li].kind for li in lines if li not in weak}
            for li in sorted(weak):
                if self.lines[li].kind not in kinds:
                    continue  # "- Price: $12.30" under the heading "Margin of safety?" is a field of that gate, not a peer label
                anchor = self.anchors[li]
                label = self.masked[anchor.mention[0] : anchor.mention[1]]
                stems = stem_set(label, _LABEL_FRAME)
                if not stems:
                    continue
                fits = [number for number, words in vocab.items() if number not in named and stems <= words]
                if len(fits) == 1:
                    self.anchors[li] = _Anchor(fits[0], "vocabulary", anchor.mention)
                    named.add(fits[0])
