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

import re
from collections.abc import Iterable

import bisect
from dataclasses import dataclass

from ipb.engine.numbers import decimal_comma_convention
from ipb.scoring._text import NumberMatch, find_numbers
from ipb.scoring.parse._mild import MILD, MILD_CONFIDENCE, mild
from ipb.scoring.parse._answered import _REGIME_NAMED
from ipb.scoring.parse._appraisal_words import lexicon_for
from ipb.scoring.parse._bar_quantity import names_quantity
from ipb.scoring.parse._denied import appraised_by
from ipb.scoring.parse._common import (
    MAX_NUMBERS,
    MAX_SENTENCE_HITS,
    _Evidence,
    _Hit,
    _Mention,
    _mention_order,
)
from ipb.scoring.parse._prose_vocabulary import (  # moved there; the names stay importable here
    MIN_SCORE, MAX_WORDS, MAX_UNITS, _WORD, _FRAMED, _CONDITIONAL, _NOUN_SENSE, _NEXT_WORD, _CLOSING, _INVESTOR_PASS,
    _DETERMINERS, _PROSE_WORD, met_is_a_verdict, _BAR_WORD, _LIST_CUT, _stems, prose_vocabulary, clause_weights, gate_of_clause,
    _appraisal_hit, appraisals, mixed_appraisal, _bar_words, _watches, _direction, _clauses,
)
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._thresholds import bar_verdict, gate_bars
from ipb.scoring.parse._types import GateTrace, Span

__all__ = ["MIN_SCORE", "prose_vocabulary", "clause_weights", "gate_of_clause", "appraisals", "in_titled_name", "in_longer_name"]


def outside_names(low: str, mentions: Iterable[_Mention], said: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``said`` (appraisals in ``low``) less those that overlap a gate's name, alias or phrase as written (``mentions``
    of the sentence) in a question: "is it selling at a sensible price?" and "does it have a durable competitive
    advantage?" name the card's gates (the transcript's "And number four, is it selling at a sensible price." asks
    without its mark); they do not appraise them. The same words stated ("it sells at a sensible price") stay a reading.

    Examples
    --------
    >>> low = "and number four, is it selling at a sensible price. it sells at a sensible price"
    >>> names = [_Mention(36, 50, (5,), "alias"), _Mention(66, 80, (5,), "alias")]
    >>> outside_names(low, names, [(34, 50, "PROCEED"), (64, 80, "PROCEED")])
    [(64, 80, 'PROCEED')]
    """
    spans = [(m.start, m.end) for m in mentions if m.gates and m.how != "paraphrase"]
    if not spans or not said:
        return said
    return [s for s in said if not any(s[0] < b and a < s[1] and _asked(low, a, b) for a, b in spans)]


def in_titled_name(text: str, name: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (an appraisal) lies inside the gate's ``name`` written as the card writes it, in
    title case: "Fair Price." or "Fair Price is a gate." names the gate, it does not appraise it (hostile tester,
    stop 46: either read gate 5 of munger_business_quality_price as PROCEED). The same words in running text ("at
    14x it is a fair price") stay an appraisal; so does a name of one capitalised word, which any sentence's first
    word could be.

    >>> in_titled_name("Fair Price is a gate.", "Fair Price", 0, 10)
    True
    >>> in_titled_name("At 14x it is a fair price.", "Fair Price", 15, 25)
    False
    >>> in_titled_name("Fair price at 14x.", "Fair Price", 0, 10)
    False
    """
    if sum(w[:1].isupper() for w in name.split()) < 2:
        return False
    k = text.find(name, max(0, end - len(name)), start + len(name))
    return k >= 0 and k <= start and end <= k + len(name)


def in_longer_name(low: str, name: str, start: int, end: int) -> bool:
    """Whether ``low[start:end]`` (a category value, lower case) is a part of the gate's ``name`` written out in
    full, in any case: the gate "Announced deal only" names its test's value "announced", so "Gate 1 - Announced
    deal only: it could go either way." names the gate and reads no value (s49user: read PROCEED, and every answer
    that named the gate without a verdict for it was credited with one). A value that is the whole name, or the
    value said elsewhere in the sentence ("the deal is announced"), stays a reading.

    >>> low = "gate 1 - announced deal only: the deal is announced."
    >>> in_longer_name(low, "Announced deal only", 9, 18), in_longer_name(low, "Announced deal only", 42, 51)
    (True, False)
    >>> in_longer_name("hot.", "Hot", 0, 3)
    False
    """
    name = " ".join(name.lower().split())
    if len(name) <= end - start:
        return False
    lo = max(0, end - len(name))
    k = low.find(name, lo, start + len(name))
    while k >= 0:
        if k <= start and end <= k + len(name) and not (k > 0 and low[k - 1].isalnum()) \
                and not (k + len(name) < len(low) and low[k + len(name)].isalnum()):
            return True
        k = low.find(name, k + 1, start + len(name))
    return False


#: The highest confidence of a gate verdict read from a restated figure by the card's own threshold (``+threshold``):
#: the section reader's bar (:data:`._section_reading.SECTION_CONFIDENCE`), under the review bar. s52echo kept the
#: reading (the corpus labels support it) but a fact with no judgement is the weakest reading there is.
THRESHOLD_CONFIDENCE = 0.55


def _asked(low: str, start: int, end: int) -> bool:
    """Whether the sentence around ``low[start:end]`` asks: it ends with "?" or a clause of it opens with an auxiliary
    and its subject ("is it", "does the business", "can they")."""
    a = max(low.rfind(".", 0, start), low.rfind("\n", 0, start), low.rfind("?", 0, start), low.rfind("!", 0, start)) + 1
    stop = min((k for k in (low.find(c, end) for c in ".?!\n") if k >= 0), default=len(low))
    return (stop < len(low) and low[stop] == "?") or _ASKS.search(low, a, start) is not None


#: A clause that asks: an auxiliary then its subject at the clause's start ("And number four, is it selling ...").
_ASKS = re.compile(r"(?:^|[,:;\u2014]\s*|\b(?:and|so|but|then|now)\s+|^\s*)(?:is|are|was|were|does|do|did|can|could|has|have|will|would)\s+"
                   r"(?:it|they|there|this|that|the|its|their|he|she|we|you|management)\b")


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
        if len(unit_hits) > MAX_SENTENCE_HITS:
            return [], None  # a wall of marks or verdict words with no sentence end states no gate's conclusion
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
            said = self._outside_names(u, appraisals(low, a, b, _direction(card, gate), lexicon=lexicon_for(card.id), watch=_watches(card, gate)))
            said = [x for x in said if not in_titled_name(self.masked, card.gate(gate).name, x[0], x[1])]  # "Next: Fair Price."
            if said and mixed_appraisal(low, said):
                continue  # appraised both ways: no verdict (_prose_vocabulary.mixed_appraisal)
            if said:
                hit = _appraisal_hit(said[-1], u)
                hit.verdict, hit.level = appraised_by(self, self.units[u], hit.start, hit.end, hit.verdict, hit.level)
                found.append(_Attributed(gate, u, (a, b), [hit]))  # "Management calls it comfortable. We do not.": the denial
                continue
            bars = gate_bars(card).get(gate)
            if (bars and (own is not None or inherit is not None) and not _CONDITIONAL.search(low, a, b)
                    and names_quantity(card, bars[0].name, low[a:b])):
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
            said = self._outside_names(u, appraisals(low, a, b, _direction(self.card, gate), lexicon=lexicon_for(self.card.id),
                                                     watch=_watches(self.card, gate)))
            if said and mixed_appraisal(low, said):
                continue
            if said:
                out.append(_Attributed(gate, u, (a, b), [_appraisal_hit(said[-1], u)]))
        return out

    def _outside_names(self, u: int, said: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        return outside_names(self.low, self.unit_mentions.get(u, ()), said)

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
        if token in ("met", "meet", "meets") and not met_is_a_verdict(low, hit.end):
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
        # a regime word is a value of its classifying gate, never another gate's appraisal: "You'd be paying stalwart
        # money for a sluggard" in the price gate's clause says nothing of the price gate
        gate_of = {id(h): item.gate for item in clauses for h in item.hits if h.start not in placed
                   and (h.word is not _REGIME_NAMED or self.regime_gate.get(h.start) == item.gate)}
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
                trace.confidence = min(trace.confidence, THRESHOLD_CONFIDENCE)  # no word of judgement: hedged (s52echo)
                self.notes.append(f"gate {trace.gate} read as {trace.verdict} from the figure {self.masked[hit.start : hit.end]!r} "
                                  f"(characters {hit.start}-{hit.end}) against the card's test {tests} (how '+threshold')")
                continue
            softly = mild(self.low, hit.start, hit.end)  # "the margin is thin": a lean, no commitment (_mild.py)
            trace.how = f"{trace.how}{MILD if softly else ''}+appraisal"
            if softly:
                trace.confidence = min(trace.confidence, MILD_CONFIDENCE)
            self.notes.append(f"gate {trace.gate} read as {trace.verdict} from the {'mild ' if softly else ''}appraisal "
                              f"{self.masked[hit.start : hit.end]!r} (characters {hit.start}-{hit.end}) in a sentence stating its "
                              f"facts (how '{MILD if softly else ''}+appraisal')")
        return traces
