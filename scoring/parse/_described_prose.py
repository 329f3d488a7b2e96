"""Gates a wild analysis describes in prose, with no title of any kind (issue 13, class DESC; paper §7.5, paraphrase
matching).

Blog posts, forum replies and news pieces rarely name a criterion; they state its substance: "the index funds had to
sell it in the first days" (a spinoff's forced sellers), "And the timing is right: we are five weeks in" (the
post-spin window), "A premium of a bit more than five points" (return against risk). Every other reader looks for a
name, an alias, a label, a numbered place or a verdict word; :mod:`._prose` reads prose only with an appraisal and only
in answers without labels; :mod:`._paraphrased_gates` needs a close embedding (0.55) and never reads past the first
sentence that names a gate. This pass gives such sentences a way in that asks for two independent readers to agree,
and for the sentence to say something of the case:

- **the card's words** (lexical): the clause's stems weighed against every gate's prose vocabulary
  (:func:`._prose_vocabulary.clause_weights`: the stems only one gate's texts hold, 3 for its name and aliases, 2 for
  its required elements and input names, 1 for its description and input descriptions, each less what any other gate
  gives the same stem, so a word shared by two gates counts only by how much more one of them holds it). A clause is
  the gate's when the gate weighs at least :data:`MIN_WEIGHT` and at least :data:`MARGIN` more than the runner-up;
- **the embedder** (sentence-transformers, the default model) on the sentence's paragraph (from the sentence to its
  line's end, after the writer's own title over the paragraph when one stands just before it: "Does It Pay for the
  Risk?"; at most 60 words) against each gate's own texts
  (:func:`._paraphrased_gates.sentence_texts`): its closest gate must be the same gate (no cut-off of its own: it
  confirms the lexical reading, it never makes one);
- **something said of the case**: a figure (the number reader's, or a spelled count of weeks, months, years or
  points: "five weeks in") or an appraisal of the lexicon
  (:mod:`._appraisal_words`). A sentence that only explains the criterion ("Greenblatt says insiders matter") carries
  none of them, or names the investor, and is passed over.

Never invented or doubled: only a gate that nothing else found is read this way, at most once (its first sentence
that qualifies); a sentence holds at most one gate this way, and none when another of its clauses leans to another
gate, or when it holds another gate's mention unless it also holds a word of this gate's name (it names both); a
question, a condition (:data:`_CONDITION`: "if ...", "unless ..."), a final-verdict sentence, a table or heading line, other people's views
and a sentence on the gates as a group (:data:`._prose_vocabulary._FRAMED`) are not read. It only adds gates and never
takes a reading away: a sentence that a named gate's section reads (:meth:`._ParaphrasedGatesMixin._read_by_named_gates`)
is read only when it opens its paragraph (after a blank line, a heading or a label: the writer turned to a new topic,
as a sentence led by a gate's name opens that gate's section, :meth:`._layout_sections._SectionsMixin._claim_unanchored`)
and, in a prose answer, keeps the next named sentence's subject unchanged
(:meth:`._ParaphrasedGatesMixin._keeps_next_subject`).

A gate met this way is recognised as ``described`` with the confidence factor 0.6 (:data:`._confidence.RECOGNITION`,
as a paraphrase): any verdict read on it stays under the 0.7 review bar. With the embedder off (``--no-embed``) the
pass does nothing.

References
----------
Paper §7.5 (SRP, paraphrase matching); issue 13 item 2 (gate references), class DESC of /work/notes/wild42.md.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._appraisal_words import lexicon_for
from ipb.scoring.parse._common import _Mention, _mention_order
from ipb.scoring.parse._paraphrased_gates import _PROSE_KINDS
from ipb.scoring.parse._prose_vocabulary import (
    _FRAMED,
    _WORD,
    MAX_UNITS,
    MAX_WORDS,
    _clauses,
    _direction,
    _stems,
    _watches,
    appraisals,
    clause_weights,
    prose_vocabulary,
)
from ipb.scoring.parse._state import _ParserState

__all__ = ["DESCRIBED_PROSE", "MIN_WEIGHT", "MARGIN", "describes_case"]

#: How a gate met this way is recognised (``_Mention.how``, hence ``GateTrace.how``).
DESCRIBED_PROSE = "described"
#: The weight of one gate's words a clause needs (one word of its name or aliases, or an element word and a
#: description word).
MIN_WEIGHT = 3
#: By how much that weight must exceed the next gate's in the same clause.
MARGIN = 2
#: A line before a paragraph of at most this many words, with no full stop, is the paragraph's title.
TITLE_WORDS = 10
#: A sentence of fewer words says too little to be weighed.
MIN_WORDS = 4

#: A count spelled out with what it counts ("five weeks in", "two-thirds of", "nine straight years").
_SPELLED_FIGURE = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                             r"forty|fifty|a\s+half|half|a\s+third|a\s+quarter|a\s+tenth|a\s+fifth|two-thirds|"
                             r"two\s+thirds)(?:\s+straight)?\s+(?:weeks?|months?|years?|quarters?|days?|times|points?|"
                             r"percent|per\s+cent|cents|of)\b")
#: A condition states no case ("if it passes, the moat disappears"); a modal may ("sizing would not have been the
#: problem: at a 5% position ..."), so only these words are one here (:data:`._prose_vocabulary._CONDITIONAL` is wider).
_CONDITION = re.compile(r"\b(?:if|unless|whether|until|once)\b")
#: Other people's views ("some readers value ...", "others think ..."): not the writer's reading of the case.
_OTHERS = re.compile(r"\b(?:some|many|most|other)\s+(?:readers|investors|analysts|people|commentators|critics|observers)\b"
                     r"|\bothers\s+(?:are|think|say|argue|believe|see|would|will|may|might)\b")


def describes_case(low: str, start: int, end: int, figures: int) -> bool:
    """Whether the clause ``low[start:end]`` (lower-cased) says something of the case: one of ``figures`` (the number
    reader's count in it) or a spelled count of a unit. A comparison word alone is not enough ("Hold it against the
    list Berkshire prints every year", "to be sold within the divestment period" read gates no label holds on the
    tuned split): a comparison of the case holds a figure.

    >>> s = "and the timing is right: we are five weeks in"
    >>> describes_case(s, 0, len(s), 0)
    True
    >>> s = "management is on the same side as the buyer"
    >>> describes_case(s, 0, len(s), 0)
    False
    """
    return figures > 0 or bool(_SPELLED_FIGURE.search(low, start, end))


class _DescribedProseMixin(_ParserState):
    """Gates stated by their substance in untitled prose (:meth:`_described_in_prose`; see the module docstring)."""

    def _described_in_prose(self) -> None:
        """Adds a ``described`` mention for each gate nothing else found whose substance a sentence states, with the
        lexical reading, the embedder and a figure or appraisal agreeing (the module docstring)."""
        if self.embedder is False:
            return
        found = {g for m in self.mentions for g in m.gates} | {a.gate for a in self.anchors.values() if a.gate is not None}
        missing = {g.number for g in self.card.gates} - found
        if not missing:
            return
        structural = len({a.gate for a in self.anchors.values() if a.gate is not None}) >= 2
        taken = self._read_by_named_gates(structural)  # type: ignore[attr-defined]
        candidates: list[tuple[int, int, tuple[int, int]]] = []  # (unit, gate, clause)
        for u, unit in enumerate(self.units[:MAX_UNITS]):
            gate_clause = self._described_clause(u, missing)
            if gate_clause is None:
                continue
            gate, clause = gate_clause
            if u in taken and (not self._opens_paragraph(u) or not self._keeps_next_subject(u, gate, structural)):  # type: ignore[attr-defined]
                continue
            candidates.append((u, gate, clause))
        if not candidates or self._embedder() is None:  # type: ignore[attr-defined]
            return
        texts = [" ".join((self._title_before(u) + " " + self.masked[self.units[u].start : self._paragraph_end(u)]).split()[:60])
                 for u, _, _ in candidates]
        sims = self._sentence_similarities(texts)  # type: ignore[attr-defined]
        added: list[_Mention] = []
        for (u, gate, (a, b)), row in zip(candidates, sims):
            if gate not in missing or row[0] != gate:
                continue
            missing.discard(gate)
            text = self.masked[a:b]
            m = _Mention(a + len(text) - len(text.lstrip()), b, (gate,), DESCRIBED_PROSE, unit=u)
            self.unit_mentions[u] = sorted([*self.unit_mentions.get(u, []), m], key=_mention_order)
            self.unit_mention_starts.pop(u, None)
            if len(self.unit_mentions[u]) == 1:
                self.lexical_units.add(u)  # the sentence holds this gate's words and names no other: it is about it
            added.append(m)
            self.notes.append(f"gate {gate} read from a sentence stating its substance in the card's words, with a figure, "
                              f"count or appraisal, the embedder agreeing (similarity {row[1]:.2f}; how "
                              f"'{DESCRIBED_PROSE}'): a lower-confidence reading")
        if added:
            self.mentions.extend(added)
            self.mentions.sort(key=_mention_order)

    def _described_clause(self, u: int, missing: set[int]) -> tuple[int, tuple[int, int]] | None:
        """(gate, clause span) when sentence ``u`` states the substance of one gate of ``missing`` and says something of
        the case (the module docstring's rules), else None."""
        unit = self.units[u]
        line = self.lines[unit.line]
        if line.kind not in _PROSE_KINDS or u in self.final_units or unit.line in self.anchors:
            return None
        low = self.low
        # a clause cut from a prose sentence (:func:`._layout._prose_clauses`) is weighed with its whole sentence: a
        # sentence whose clauses lean to two gates is neither's this way, and a clause is taken by the unit it opens in
        start, end = unit.sentence or (unit.start, unit.end)
        if self.masked[start:end].rstrip().endswith("?"):
            return None
        words = len(_WORD.findall(low, start, end))
        if words < MIN_WORDS or words > MAX_WORDS or _FRAMED.search(low, start, end) or _OTHERS.search(low, start, end):
            return None
        others = [m for v, ms in self.unit_mentions.items() if start <= self.units[v].start < end for m in ms
                  if m.gates or m.invented is not None] if unit.sentence else \
            [m for m in self.unit_mentions.get(u, ()) if m.gates or m.invented is not None]
        chosen: tuple[int, tuple[int, int]] | None = None
        leaning: set[int] = set()
        for a, b in _clauses(low, start, end):
            weights = clause_weights(self.card, low[a:b])
            if not weights:
                continue
            ranked = sorted(weights.values(), reverse=True)
            best = max(weights, key=lambda g: (weights[g], -g))
            if ranked[0] >= MIN_WEIGHT:
                leaning.add(best)
            if ranked[0] < MIN_WEIGHT or ranked[0] - (ranked[1] if len(ranked) > 1 else 0) < MARGIN or best not in missing:
                continue
            if _CONDITION.search(low, a, b) or self._on_investor(a, b):
                continue
            if any(m.start < b and a < m.end for m in others) or (others and not self._names(best, a, b)):
                continue  # another gate's mention in this clause, or in the sentence without this gate's name beside it
            s, e = start, end  # the sentence, not only the clause, carries the figure ("Sizing ...: at a 5% position")
            if not (describes_case(low, s, e, len(self._figures(s, e)))  # type: ignore[attr-defined]
                    or appraisals(low, s, e, _direction(self.card, best), lexicon=lexicon_for(self.card.id),
                                  watch=_watches(self.card, best))):
                continue
            if chosen is None:
                chosen = (best, (a, b))
        if chosen is None or len(leaning) > 1:
            return None  # no clause, or clauses leaning to two gates: the sentence is neither's this way
        if not unit.start <= max(chosen[1][0], start) < unit.end:
            return None  # the clause opens in another unit of the sentence: that unit takes it
        return chosen

    def _names(self, gate: int, a: int, b: int) -> bool:
        """Whether ``low[a:b]`` holds a stem of ``gate``'s name or aliases that only that gate's texts hold."""
        g = self.card.gates[gate - 1]
        own = set(prose_vocabulary(self.card)[gate])
        named = set().union(*(_stems(t) for t in (g.name, *g.aliases))) & own
        return bool(named & _stems(self.low[a:b]))

    def _on_investor(self, a: int, b: int) -> bool:
        """Whether the clause speaks of the card's investor ("Greenblatt's numbers say ..."): the rule, not the case."""
        names = set(re.findall(r"[a-z]{3,}", self.card.investor.split("(")[0].lower()))
        return bool(names & set(re.findall(r"[a-z]{3,}", self.low[a:b])))

    def _paragraph_end(self, u: int) -> int:
        """Where the paragraph sentence ``u`` stands in ends: the end of its line (a paragraph is one line once hard wraps
        are joined), the text the embedder weighs for it."""
        return self.lines[self.units[u].line].end

    def _title_before(self, u: int) -> str:
        """The writer's own title over the paragraph sentence ``u`` opens, when one stands just before it (blank lines
        aside): a heading or a short line of at most :data:`TITLE_WORDS` words that ends with no full stop ("Does It Pay
        for the Risk?"), which no reader resolved to a gate (no anchor); else ""."""
        unit = self.units[u]
        if not unit.first:
            return ""
        li = unit.line - 1
        while li >= 0 and self.lines[li].kind == "blank":
            li -= 1
        if li < 0 or li in self.anchors:
            return ""
        title = self.masked[self.lines[li].start : self.lines[li].end].strip()
        if self.lines[li].kind != "heading" and (len(title.split()) > TITLE_WORDS or title.endswith((".", ":", ";", ","))):
            return ""
        return title

    def _opens_paragraph(self, u: int) -> bool:
        """Whether sentence ``u`` is the first of its line (a paragraph of its own) and that line follows a blank line,
        a heading or a label (not the running text of the paragraph before)."""
        unit = self.units[u]
        if not unit.first or unit.line == 0:
            return unit.line == 0
        prev = self.lines[unit.line - 1]
        return prev.kind in ("blank", "heading") or unit.line - 1 in self.anchors
