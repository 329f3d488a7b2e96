"""Gates discussed in running prose, in other words: a clause that states one gate's facts with an appraisal is that
gate's verdict (issue 13, gate references; paper §7.5, the parser's paraphrase matching).

A persona's paragraph rarely names the card's gates. "The thesis is intact: factory investment came in above our case",
"the toll-road operator is easy to understand (pass), earns 17% on capital (pass)", "the growth story is not broken", "the
trade is going against us": a careful reader knows which criterion each clause weighs from its words (the card's own
words for the gate) and what the writer concludes from its appraisal ("intact", "(pass)", "not broken", "against us").
This module reads such clauses where nothing else did: sentences that name no gate at all (no name, alias, number or
phrase of one gate, :mod:`._references`, :mod:`._lexical`) in answers with fewer than two gate labels (prose, not a
structured list).

**Which gate a clause is about.** Each gate's prose vocabulary (built once per card, :func:`prose_vocabulary`) is the
stems of its name and aliases (weight 3), of its required elements and the names of the inputs its criteria read
(weight 2), and of its description and those inputs' descriptions (weight 1), keeping only the stems no other gate's
texts hold, less words any text uses (:data:`_PLAIN`). A clause is about the gate whose stems in it weigh at least :data:`MIN_SCORE`
and more than any other gate's: never two gates with equal weight. A clause with no gate's words inherits the gate of
the clause before it in the same sentence ("The thesis is intact: factory investment came in above our case").

**What the clause concludes.** Either a verdict word the parser already found in the clause (``(pass)``, "fails"), or
an appraisal of the lexicon ``grammar/appraisals.yaml`` (:mod:`._appraisal_words`: "intact", "holds", "broken", "too
rich", "a stretch", "against us", "well within", "comfortably", "easy to understand", ...; a card may add its own) with
its polarity, flipped by a negator just before it ("not broken", "no longer holds", "isn't cheap", "neither is
flagged"). "High" and "low" read a verdict only for a gate whose criterion is monotone in one direction (the card's
``monotone`` map: a higher return on capital moves toward PROCEED, a higher drawdown toward REJECT). "Flagged",
"present", "quiet" read a verdict only for a gate that watches for a warning sign (a ``reject`` test and no ``proceed``
test: "valuations at the 88th percentile: flagged"). A clause with no conclusion adds nothing: a fact alone is not a
verdict. A tally of the gates ("four of the six lit up") counts them as a group and is no single gate's.

The verdicts found this way are hedged (:data:`ipb.scoring.verdict_words.HEDGED`): a committed word for the same gate
elsewhere outranks them, and ``how`` is ``substance``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ipb.engine.card import ELEMENT_FIELD, Card
from ipb.engine.numbers import decimal_comma_convention
from ipb.scoring import verdict_words as vw
from ipb.scoring._text import NumberMatch, find_numbers
from ipb.scoring.parse._appraisal_words import (
    HIGH,
    LOW,
    MONOTONE,
    WATCH,
    Lexicon,
    lexicon_for,
)
from ipb.scoring.parse._common import (
    MAX_NUMBERS,
    _Evidence,
    _Hit,
    _Mention,
    _mention_order,
)
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._thresholds import bar_verdict, gate_bars
from ipb.scoring.parse._types import GateTrace, Span
from ipb.scoring.parse._vocabulary import names_read, stem_set

__all__ = ["MIN_SCORE", "prose_vocabulary", "clause_weights", "gate_of_clause", "appraisals"]

#: The weight of a clause's gate words (name and alias stems weigh 3, element and input-name stems 2, description
#: stems 1) a clause needs before it is taken for that gate.
MIN_SCORE = 2
#: A sentence longer than this (words) is not read this way (a run-on line is not one statement).
MAX_WORDS = 80
#: At most this many sentences are read this way (a bound for pathological input: a real answer has far fewer).
MAX_UNITS = 2000

_WORD = re.compile(r"[a-z][a-z'\u2019-]*")
#: Words a card's description uses about anything: never a gate's own word, whichever gate's text holds them alone.
_PLAIN = frozenset({
    "test", "check", "gate", "rule", "screen", "criterion", "criteria", "limit", "whether", "more", "less", "least", "most",
    "above", "below", "under", "over", "value", "share", "shares", "company", "business", "stock", "investment", "invest",
    "investor", "year", "years", "ratio", "rate", "level", "high", "low", "must", "should", "would", "could", "number",
    "proceed", "reject", "pass", "fail", "passes", "fails", "verdict", "kill", "condition", "requirement", "card", "author",
    "inferred", "his", "her", "their", "was", "were", "get", "gets", "time", "times", "new", "few", "now", "see", "made",
    "make", "makes", "take", "takes", "taken", "since", "once", "because", "first", "part", "off", "down", "give", "gives",
    "open", "keep", "word", "words", "worth", "reach", "reached", "past", "run", "runs", "used", "use", "call", "called",
    "hand", "find", "exist", "exists", "matter", "follow", "rather", "add", "adds", "whole", "plus", "fine", "able", "not",
    "when", "which", "has", "have", "had", "how", "many", "well", "without", "even", "either", "another", "given", "own",
    "only", "those", "these", "otherwise", "far", "nothing", "need", "needs", "there", "here", "what", "who", "why", "where",
    "been", "being", "does", "did", "done", "each", "every", "any", "some", "such", "same", "much", "very", "still", "yet",
    "just", "both", "whose", "one", "two", "three", "four", "five", "ten", "also", "too", "into", "about", "after", "then",
    "example", "examples", "phrase", "cite", "cites", "cited", "interview", "letter", "talk", "book", "procedure", "treats",
    "treat", "say", "says", "said", "mean", "means", "way", "ways", "kind", "sort", "thing", "things", "good", "bad", "point",
    "they", "them", "you", "your", "our", "its", "can", "cannot", "will", "may", "might", "while", "against", "between",
    "anything", "goes", "idea", "ideas", "whatever", "show", "shows", "leave", "leaves", "undecided", "outcome", "outcomes",
    "mixed", "usd", "result", "results", "cut", "nearer", "behind", "category", "requires", "required", "require", "encoded",
    "out", "until", "unknown", "unclear", "yes", "sure", "okay", "per", "via", "near", "far", "next", "last", "year", "ago",
    "apply", "applies", "applied", "step", "steps", "stage", "stages", "gates", "tests", "checks", "screens", "question",
})
#: A sentence that refers to the card's gates by a frame word ("the sales, formula and growth steps do not apply") is read by
#: the reference readers (:mod:`._references`, :mod:`._grouped`): what they leave unresolved is not guessed here.
_FRAMED = re.compile(r"(?i)\b(?:gates?|steps|tests|criteri(?:on|a)|checks|screens|hurdles|stages|(?:step|test|check|stage)\s+\d)\b"
                     # a tally of the gates ("4 of the six lit up", "three of seven passed"): the gates as a group
                     r"|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:out\s+)?of\s+(?:the\s+|its\s+)?"
                     r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b(?!\s*(?:%|percent|per\s+cent|years?))"
                     # ... not "two of its nine states" (a count of some other plural noun)
                     r"(?!\s+(?!is\b|was\b|has\b)[a-z]+s\b)")

_VOCAB: dict[int, tuple[Card, dict[int, dict[str, int]]]] = {}


def _stems(text: str) -> set[str]:
    return stem_set(text, _PLAIN)


def prose_vocabulary(card: Card) -> dict[int, dict[str, int]]:
    """Gate number -> {stem: weight} of the stems only that gate's texts hold (built once per card; see the module docstring).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> vocab = prose_vocabulary(compiled_card("munger_business_quality_price").card)
    >>> vocab[1]["understand"], vocab[2]["capital"], vocab[4]["candour"], "busines" in vocab[1]
    (3, 3, 1, False)
    """
    cached = _VOCAB.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    raw: dict[int, dict[str, int]] = {}
    investor = _stems(card.investor)  # "Lynch wanted 1.5": the investor's name is every gate's
    for g in card.gates:
        named = [g.name, *g.aliases]
        strong = [ELEMENT_FIELD.sub(" ", e) for e in g.required_elements]
        weak = [g.description]
        for name in names_read(g):
            spec = card.inputs.get(name)
            if spec is not None:  # constants and computed names are not the facts a writer states
                strong.append(name.replace("_", " "))
                weak.append(spec.description)
        weights: dict[str, int] = {}
        for s in set().union(*(_stems(t) for t in weak)):
            weights[s] = 1
        for s in set().union(*(_stems(t) for t in strong)):
            weights[s] = 2
        for s in set().union(*(_stems(t) for t in named)):
            weights[s] = 3
        raw[g.number] = {s: w for s, w in weights.items() if s not in investor}
    # a stem counts for a gate by how much more weight it has there than in any other gate: a name word another gate's
    # description only mentions ("thesis" in "Thesis Confirmation" and in a sizing gate's description) still leans
    # to the gate it names; a word of equal standing in two gates names neither
    table: dict[int, dict[str, int]] = {}
    for number, weights in raw.items():
        kept: dict[str, int] = {}
        for s, w in weights.items():
            rival = max((other.get(s, 0) for n, other in raw.items() if n != number), default=0)
            if w > rival:
                kept[s] = w - rival
        table[number] = kept
    if len(_VOCAB) > 256:
        _VOCAB.clear()
    _VOCAB[id(card)] = (card, table)
    return table


def clause_weights(card: Card, text: str) -> dict[int, int]:
    """Gate number -> the weight of that gate's prose vocabulary (:func:`prose_vocabulary`) among the stems of
    ``text``; empty when ``text`` has no stem.

    >>> from ipb.engine.registry import compiled_card
    >>> w = clause_weights(compiled_card("munger_business_quality_price").card, "the toll-road operator is easy to understand")
    >>> max(w, key=w.get), clause_weights(compiled_card("munger_business_quality_price").card, "")
    (1, {})
    """
    stems = _stems(text)
    if not stems:
        return {}
    return {g: sum(w for s, w in vocab.items() if s in stems) for g, vocab in prose_vocabulary(card).items()}


def gate_of_clause(card: Card, text: str, *, ties: bool = False) -> int | None:
    """The gate whose prose vocabulary weighs most in ``text`` (at least :data:`MIN_SCORE`, strictly more than any other);
    with ``ties``, instead: a gate that shares the best weight (at least :data:`MIN_SCORE`) with another, else None.

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("munger_business_quality_price").card
    >>> gate_of_clause(card, "the toll-road operator is easy to understand"), gate_of_clause(card, "Nice weather today")
    (1, None)
    """
    weights = clause_weights(card, text)
    if not weights:
        return None
    scores = sorted(((w, g) for g, w in weights.items()), reverse=True)
    best, gate = scores[0]
    tie = len(scores) > 1 and scores[1][0] == best
    if best < MIN_SCORE or tie != ties:
        return None
    return gate


# --------------------------------------------------------------------------- appraisals

#: A negator in the few words before an appraisal flips it ("not broken", "isn't cheap", "no longer intact", "hardly durable").
_NEGATOR = re.compile(r"(?i)(?:(?:\b(?:not|never|hardly|nor|no)\b|n['\u2019]t\b)(?!\s+(?:merely|just|only|simply)\b)(?:\s+(?:[\w'-]+\s+){0,3}?)?"
                      r"|\b(?:nothing|none|nobody|neither)\b(?:\s+(?:[\w'-]+\s+){0,6}?)?)\s*\Z")
#: A condition or a question before the appraisal states no verdict ("if the thesis breaks", "whether it holds").
_CONDITIONAL = re.compile(r"(?i)\b(?:if|unless|whether|should|would|could|might|may|until|once|when)\b")
#: A requirement before the appraisal states the bar, not the facts ("Graham asks for 20 years without a break", "Buffett
#: wants a durable moat").
_REQUIRED = re.compile(r"(?i)\b(?:asks?\s+for|asked\s+for|wants?|wanted|requires?|required|demands?|insists?\s+on|looks?\s+for|"
                       r"calls?\s+for)\b")
#: The appraisal as a noun phrase's modifier ("a strong quarter", "high rates") states nothing about the criterion:
#: an article or possessive right before it.
_ATTRIBUTIVE = re.compile(r"(?i)\b(?:a|an|the|its|their|his|her|our|my|this|that|these|those)\s+\Z")

#: A verdict word used as a noun ("the proceeds from the sale", "a pass of the model"): no verdict of this clause.
_NOUN_SENSE = re.compile(r"\s+(?:from|of)\b")

_FOR_A_REASON = re.compile(r"[ \t]+for[ \t]+(?:a|good)[ \t]+reasons?\b")
#: The word after an appraisal, when one follows on its clause (not a stop, comma or bracket).
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'-]*)")
#: Words that may follow an appraisal that closes its clause ("intact so far", "cheap relative to peers", "confirmed by the
#: data"); any other word after it makes it a modifier of a noun.
_CLOSING = frozenset({
    "and", "or", "but", "so", "yet", "for", "at", "in", "on", "to", "by", "with", "as", "than", "enough", "now", "today", "here",
    "there", "again", "too", "overall", "either", "though", "although", "despite", "given", "while", "versus", "vs", "relative",
    "compared", "because", "since", "if", "still", "up", "out", "over", "under", "against", "from", "of", "after", "before",
    "day", "so-far", "far", "anyway", "indeed", "then", "i", "we", "it", "which", "that", "this", "is", "are", "was", "were",
    "even", "only", "just", "well", "also", "both", "all", "nor", "not", "no", "whatever", "regardless", "throughout", "me", "us",
    "you", "them", "him", "her", "investors", "everyone", "anyone",
})

#: "I'd pass at this price", "we would pass": the writer passes on the investment, no gate passes.
_INVESTOR_PASS = re.compile(r"(?i)\b(?:i|we|i'd|we'd|i\u2019d|we\u2019d|would|will|should)\s+(?:\w+\s+)?\Z")
_DETERMINERS = frozenset({"the", "a", "an", "its", "our", "their", "all", "every", "each", "both", "this", "that", "his", "her"})

_PROSE_WORD = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False)


#: A verdict read from a figure against the gate's own bar (:mod:`._thresholds`).
_BAR_WORD = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False)


def _appraisal_hit(said: tuple[int, int, str], u: int, word: vw.VerdictWord = _PROSE_WORD) -> _Hit:
    """A verdict read from an appraisal (or, with ``_BAR_WORD``, a figure against the gate's bar), as a hedged hit
    already judged."""
    return _Hit(said[0], said[1], word, u, judged=True, level=vw.HEDGED, verdict=said[2], derived=False)


def _flip(verdict: str) -> str:
    return vw.REJECT if verdict == vw.PROCEED else vw.PROCEED


def appraisals(text: str, start: int, end: int, direction: str | None, *, lexicon: Lexicon | None = None,
               watch: bool = False, nouns: frozenset[str] | set[str] = frozenset()) -> list[tuple[int, int, str]]:
    """(start, end, verdict) of the appraisals in ``text[start:end]`` (a clause), negation applied.

    ``direction`` is the verdict a higher value of the clause's gate criterion moves toward (None: unknown or mixed);
    "high"/"low" read a verdict only with it. ``lexicon`` is the card's (:func:`._appraisal_words.lexicon_for`; None:
    the common entries only); ``watch``: the clause's gate watches for a warning sign (a ``reject`` test and no
    ``proceed`` test), so "flagged" and "quiet" are read. ``nouns``: stems of the gate's own criterion words; an
    appraisal that modifies one of them ("a thin premium of 1.8 points", "a durable moat") appraises the criterion and is
    read, where one that modifies any other noun ("a strong quarter") is not.

    Examples
    --------
    >>> s = "the growth story is not broken"
    >>> appraisals(s, 0, len(s), None)
    [(24, 30, 'PROCEED')]
    >>> s = "returns on capital are high, but if the price were too rich it would fail"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), "REJECT")]
    [('high', 'REJECT')]
    >>> s = "new buyers at the 95th percentile: flagged; leverage at the 40th, not flagged"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, watch=True)]
    [('flagged', 'REJECT'), ('flagged', 'PROCEED')]
    >>> s = "a thin premium of 1.8 points after a strong quarter"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, nouns=_stems("risk premium"))]
    [('thin', 'REJECT')]
    """
    lex = lexicon if lexicon is not None else lexicon_for("")
    out: list[tuple[int, int, str]] = []
    for m in lex.regex.finditer(text, start, end):
        entry = lex.entry(m)
        verdict = entry.verdict
        word = " ".join(m.group(0).lower().split())
        before = text[max(start, m.start() - 40) : m.start()]
        if _CONDITIONAL.search(text, max(start, m.start() - 60), m.start()) or _REQUIRED.search(text, max(start, m.start() - 30), m.start()):
            continue  # a condition, or what the framework asks for just before it ("Graham asks for 20 years without a break")
        if entry.when == MONOTONE and direction is None or entry.when == WATCH and not watch:
            continue
        if verdict in (HIGH, LOW):
            assert direction is not None
            verdict = direction if verdict == HIGH else _flip(direction)
        nxt = _NEXT_WORD.match(text, m.end())
        # an adjective (one word) before the criterion's noun: "a thin premium" (not "well below net current asset value",
        # where the noun is the object of a comparison)
        of_criterion = nxt is not None and bool(nouns) and " " not in word and bool(_stems(nxt.group(1)) & nouns)
        if _ATTRIBUTIVE.search(before) and not word.startswith(("a ", "too")) and not of_criterion:
            continue
        if _FOR_A_REASON.match(text, m.end()):
            continue  # "cheap for a reason": the writer doubts the appraisal
        if nxt is not None and nxt.group(1) not in _CLOSING and not of_criterion:
            continue  # a modifier of the noun after it ("unacceptable greenhouse-gas emissions", "a strong quarter")
        if _NEGATOR.search(before):
            verdict = _flip(verdict)
        out.append((m.start(), m.end(), verdict))
    return out


_BAR_WORDS: dict[tuple[int, str], tuple[Card, frozenset[str]]] = {}


def _bar_words(card: Card, name: str) -> frozenset[str]:
    """The stems of the name a gate's bar compares and of its input label ("net income", "return on capital"): a clause
    must hold one before its figure is taken for that name (a clause's EPS is not its intrinsic value)."""
    cached = _BAR_WORDS.get((id(card), name))
    if cached is not None and cached[0] is card:
        return cached[1]
    spec = card.inputs.get(name)
    label = getattr(spec, "label", None) or ""
    words = frozenset(_stems(name.replace("_", " ")) | _stems(label))
    if len(_BAR_WORDS) > 4096:
        _BAR_WORDS.clear()
    _BAR_WORDS[(id(card), name)] = (card, words)
    return words


def _watches(card: Card, gate: int) -> bool:
    """Whether the gate watches for a warning sign: a ``reject`` test and no ``proceed`` test."""
    g = card.gates[gate - 1]
    return g.reject is not None and g.proceed is None


def _direction(card: Card, gate: int) -> str | None:
    dirs = set(card.gates[gate - 1].monotone.values())
    return next(iter(dirs)) if len(dirs) == 1 else None


#: Clause boundaries inside a sentence: semicolons, a colon or dash before a space, a closing bracket (a bracketed
#: verdict ends its clause: "earns 17% on capital (pass) and ..."), a comma before a conjunction.
_CLAUSE_END = re.compile(r";|:(?=\s)|\s[\u2014\u2013-]\s|\u2014|\)|,\s+(?=(?:and|but|so|while|whereas|yet|though|although|which)\b)")


#: The parts of a sentence that lists several gates: cut at every comma, semicolon or colon, and at the sentence's end.
_LIST_CUT = re.compile(r"[,;:](?=\s)|\Z|$")


def _clauses(text: str, start: int, end: int) -> list[Span]:
    out: list[Span] = []
    pos = start
    for m in _CLAUSE_END.finditer(text, start, end):
        if m.end() - pos > 1:
            out.append((pos, m.end()))
        pos = m.end()
    if end - pos > 1:
        out.append((pos, end))
    return out


@dataclass
class _Attributed:
    gate: int
    unit: int
    span: Span
    hits: list[_Hit]


class _ProseGatesMixin(_ParserState):
    """Finds gates stated in prose by their facts and an appraisal (:meth:`_prose_gates`) and gives them the clause's verdicts."""

    prose_clauses: list[_Attributed]

    def _prose_gates(self, unresolved: list[tuple[int, Span, str, int | None]]) -> None:
        """Adds a ``substance`` mention for each prose sentence whose clauses state one gate's facts with a conclusion
        (see the module docstring); records the clauses so :meth:`_evidence` gives them their gate.

        ``unresolved`` are the gate-like labels no reader resolved: two headings or numbered labels among them make the
        answer a structured one whose labels the label readers could not read (the embedder failed), not prose.
        """
        self.prose_clauses = []
        if len({a.gate for a in self.anchors.values() if a.gate is not None}) >= 2:
            return  # a structured answer: its labels say which gate each line is about
        if sum(1 for li, _, _, number in unresolved if number is not None or self.lines[li].kind == "heading") >= 2:
            return
        low = self.low
        added: list[_Mention] = []
        pending: tuple[int, int] | None = None  # (gate, unit) of a sentence that named or stated one gate and concluded nothing
        for u, unit in enumerate(self.units):
            if u >= MAX_UNITS:
                self.notes.append(f"more than {MAX_UNITS} sentences: only the first {MAX_UNITS} were read for gates stated in prose")
                break
            if pending is not None and not self._same_paragraph(pending[1], u):
                pending = None
            if u in self.final_units or unit.end - unit.start < 12:
                pending = None
                continue
            line = self.lines[unit.line]
            if line.kind in ("table", "heading") or unit.line in self.anchors or self.masked[unit.start : unit.end].rstrip().endswith("?"):
                pending = None
                continue  # a labelled line is the label's; a question states nothing
            if len(_WORD.findall(low, unit.start, unit.end)) > MAX_WORDS or _FRAMED.search(low, unit.start, unit.end):
                pending = None
                continue
            if u > 0 and self.units[u - 1].end <= unit.start and self._asks(u - 1):
                pending = None
                continue  # the answer to the question before it ("Fair price? Unknown until ...") is that question's
            named = self.unit_mentions.get(u)
            if named:
                pending = None
                gates = {g for m in named for g in m.gates}
                if len(gates) == 1 and not any(m.invented is not None for m in named) and self._level_free(u):
                    # a sentence that names one gate (by its name, an alias or its words) and gives no verdict word: its
                    # appraisal is the verdict, unless a clause of it states another gate's facts
                    gate = next(iter(gates))
                    found, _ = self._read_clauses(u, unit.start, unit.end, inherit=gate)
                    if found:
                        self.prose_clauses.extend(found)
                    else:
                        # "Then the debt-to-equity question, which took an afternoon. What we found is comfortably fine.":
                        # the sentence that names the gate leaves its conclusion to the next one
                        pending = (gate, u)
                elif len(gates) > 1 and not any(m.invented is not None for m in named) and self._level_free(u):
                    self.prose_clauses.extend(self._listed_clauses(u, named))
                continue
            found, bare = self._read_clauses(u, unit.start, unit.end)
            if not found and pending is not None and bare is None:
                # "Price against value: par for a loan we value at 90 cents. Paying full value and more; unfavourable.":
                # the sentence after the facts concludes on them
                found, _ = self._read_clauses(u, unit.start, unit.end, inherit=pending[0], strict=True)
                if found:
                    if not self.unit_mentions.get(pending[1]):  # a sentence of facts: it opens the gate; a named one already does
                        mention = self._opening_mention(pending[0], pending[1])
                        self.unit_mentions[pending[1]] = [mention]
                        self.unit_mention_starts.pop(pending[1], None)
                        self.lexical_units.add(pending[1])
                        added.append(mention)
                    self.prose_clauses.extend(found)
                    pending = None
                    continue
            pending = (bare, u) if bare is not None and not found else None
            if not found:
                continue
            mentions: list[_Mention] = []
            for item in found:
                if not mentions or mentions[-1].gates != (item.gate,):
                    mentions.append(self._opening_mention(item.gate, u, item.span))
            self.prose_clauses.extend(found)
            self.unit_mentions[u] = mentions
            self.unit_mention_starts.pop(u, None)
            self.lexical_units.add(u)
            added.extend(mentions)
        if added:
            self.mentions.extend(added)
            self.mentions.sort(key=_mention_order)

    def _read_clauses(self, u: int, start: int, end: int, *, inherit: int | None = None,
                      strict: bool = False) -> tuple[list[_Attributed], int | None]:
        """The clauses of ``self.low[start:end]`` that state one gate's facts (or follow such a clause, or ``inherit``'s
        gate) with a conclusion; and the gate of a sentence whose words name one gate and conclude nothing (else None).
        ``strict``: a clause stating another gate's facts than ``inherit`` makes the whole sentence none of its."""
        low, card = self.low, self.card
        unit_hits = self.unit_hits.get(u, [])
        gate: int | None = inherit
        named: int | None = None
        found: list[_Attributed] = []
        for a, b in _clauses(low, start, end):
            hits = [h for h in unit_hits if a <= h.start < b and self._level(h) > 0 and self._states_verdict(h, a)]
            # the verdict word is not the clause's subject ("the balance sheet is adequate" is about the balance sheet,
            # whatever gate's name holds "adequate")
            subject = low[a:b]
            for h in hits:
                subject = subject[: h.start - a] + " " * (h.end - h.start) + subject[h.end - a :]
            own = gate_of_clause(card, subject)
            if own is None and gate_of_clause(card, subject, ties=True) is not None:
                gate = None  # the words of two gates in equal weight: this clause is neither's, nor the one before's
                continue
            if own is not None and inherit is not None and own != inherit:
                if strict:
                    return [], None  # the sentence after the facts states another gate's: it does not conclude on them
                gate = None  # this clause states another gate's facts: neither it nor the clauses it leads are ``inherit``'s
                continue
            gate = own if own is not None else gate
            if gate is None:
                continue
            named = gate if named is None or named == gate else -1
            if hits:
                found.append(_Attributed(gate, u, (a, b), hits))
                continue
            said = appraisals(low, a, b, _direction(card, gate), lexicon=lexicon_for(card.id), watch=_watches(card, gate))
            if said:
                found.append(_Attributed(gate, u, (a, b), [_appraisal_hit(said[-1], u)]))
                continue
            bars = gate_bars(card).get(gate)
            if (bars and (own is not None or inherit is not None) and not _CONDITIONAL.search(low, a, b)
                    and _bar_words(card, bars[0].name) & _stems(low[a:b])):
                # "returns on tangible capital have run at 9%" for a gate whose test is return_on_capital >= 15%
                figure = bar_verdict(bars, self._figures(a, b))
                if figure is not None:
                    found.append(_Attributed(gate, u, (a, b), [_appraisal_hit(figure, u, _BAR_WORD)]))
        if any(self._level(h) > 0 for h in unit_hits):
            named = None  # a verdict word this reading could not place: the sentence concludes on something
        return found, (named if named is not None and named > 0 and inherit is None else None)

    def _listed_clauses(self, u: int, named: list[_Mention]) -> list[_Attributed]:
        """A sentence that names several gates and gives no verdict word, read part by part at its commas ("The
        universe status is fine, it makes no listed products, and no restriction applies"): a part that names one
        of the gates (or states one gate's facts) and appraises it gives that gate its verdict."""
        low, unit = self.low, self.units[u]
        out: list[_Attributed] = []
        pos = unit.start
        for m in _LIST_CUT.finditer(low, unit.start, unit.end + 1):
            a, b = pos, m.start() if m.start() < unit.end else unit.end
            pos = m.end()
            if b - a < 4:
                continue
            gates = {g for n in named if a <= n.start < b for g in n.gates}
            if len(gates) > 1:
                continue
            gate = next(iter(gates)) if gates else gate_of_clause(self.card, low[a:b])
            if gate is None:
                continue
            said = appraisals(low, a, b, _direction(self.card, gate), lexicon=lexicon_for(self.card.id), watch=_watches(self.card, gate))
            if said:
                out.append(_Attributed(gate, u, (a, b), [_appraisal_hit(said[-1], u)]))
        return out

    def _states_verdict(self, hit: _Hit, clause_start: int) -> bool:
        """Whether a verdict word the parser found states a verdict on the clause's criterion, as this reading takes
        it: not a noun ("the proceeds from"), a condition ("if it passes"), the investor's own pass ("I'd pass at this
        price": a decline) or "met" with its object ("management met analysts")."""
        low = self.low
        if _NOUN_SENSE.match(low, hit.end) or _CONDITIONAL.search(low, clause_start, hit.start):
            return False
        token = low[hit.start : hit.end]
        if token.startswith("pass") and _INVESTOR_PASS.search(low, max(clause_start, hit.start - 30), hit.start):
            return False
        if token in ("met", "meet", "meets"):
            nxt = _NEXT_WORD.match(low, hit.end)
            if nxt is not None and nxt.group(1) not in _CLOSING and nxt.group(1) not in _DETERMINERS:
                return False
        return True

    def _all_figures(self) -> tuple[list[NumberMatch], list[int]]:
        """The number reader's figures in the whole answer (money, percentages, multiples; at most MAX_NUMBERS) and their
        starts, in text order: read once per parse, here or for the result's ``numbers`` (:meth:`_Parser.run`)."""
        cached: tuple[list[NumberMatch], list[int]] | None = getattr(self, "_prose_figures", None)
        if cached is None:
            found = find_numbers(self.masked, limit=MAX_NUMBERS, decimal_comma=decimal_comma_convention(self.masked))
            cached = (found, [f.start for f in found])
            self._prose_figures = cached
        return cached

    def _figures(self, start: int, end: int) -> list[NumberMatch]:
        """The number reader's figures inside ``[start, end)``."""
        figures, starts = self._all_figures()
        lo = bisect.bisect_left(starts, start)
        out = []
        for f in figures[lo:]:
            if f.start >= end:
                break
            if f.end <= end:
                out.append(f)
        return out

    def _asks(self, u: int) -> bool:
        """Whether sentence ``u`` is a question that names a gate."""
        unit = self.units[u]
        return bool(self.unit_mentions.get(u)) and self.masked[unit.start : unit.end].rstrip().endswith("?")

    def _level_free(self, u: int) -> bool:
        return not any(self._level(h) > 0 for h in self.unit_hits.get(u, []))

    def _same_paragraph(self, u: int, v: int) -> bool:
        """Whether sentence ``v`` follows sentence ``u`` in its paragraph (the same line, or the next plain line)."""
        a, b = self.units[u].line, self.units[v].line
        return v == u + 1 and (a == b or (b == a + 1 and self.lines[b].kind == "plain"))

    def _opening_mention(self, gate: int, u: int, span: Span | None = None) -> _Mention:
        a, b = span if span is not None else (self.units[u].start, self.units[u].end)
        text = self.masked[a:b]
        return _Mention(a + len(text) - len(text.lstrip()), b, (gate,), "substance", unit=u)

    def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]:  # type: ignore[override]
        evidence: list[_Evidence] = super()._evidence(structural, label_units)  # type: ignore[misc]
        clauses = getattr(self, "prose_clauses", None)
        if not clauses:
            return evidence
        placed = self.regime_placed  # a regime said of the case stays its classifying gate's
        gate_of = {id(h): item.gate for item in clauses for h in item.hits if h.start not in placed}
        out = [ev for ev in evidence if id(ev.hit) not in gate_of]
        for item in clauses:
            for hit in item.hits:
                if id(hit) in gate_of:
                    out.append(_Evidence(item.gate, hit, self._section_of(item.gate, hit.unit)))
        return out

    def _gates(self, evidence: list[_Evidence]) -> list[GateTrace]:  # type: ignore[override]
        """The traces, a verdict read from an appraisal (no verdict word: "the story is not broken") marked as such: no
        ``verdict_span`` (a verdict span always holds a verdict word), ``how`` + ``+appraisal``, and a note with the
        appraisal's words and offsets."""
        traces: list[GateTrace] = super()._gates(evidence)  # type: ignore[misc]
        appraised = {(h.start, h.end): h for item in getattr(self, "prose_clauses", []) for h in item.hits
                     if h.word is _PROSE_WORD or h.word is _BAR_WORD}
        if not appraised:
            return traces
        for trace in traces:
            hit = appraised.get(trace.verdict_span) if trace.verdict_span is not None else None
            if hit is None:
                continue
            trace.verdict_span = None
            if hit.word is _BAR_WORD:
                tests = " / ".join(f"{b.name} {b.op} {b.value}" for b in gate_bars(self.card)[trace.gate])
                trace.how = f"{trace.how}+threshold"
                self.notes.append(f"gate {trace.gate} read as {trace.verdict} from the figure {self.masked[hit.start : hit.end]!r} "
                                  f"(characters {hit.start}-{hit.end}) against the card's test {tests} (how '+threshold')")
                continue
            trace.how = f"{trace.how}+appraisal"
            self.notes.append(f"gate {trace.gate} read as {trace.verdict} from the appraisal {self.masked[hit.start : hit.end]!r} "
                              f"(characters {hit.start}-{hit.end}) in a sentence stating its facts (how '+appraisal')")
        return traces
