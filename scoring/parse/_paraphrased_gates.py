"""Gates discussed in other words: a paragraph that names no gate matched to a gate by the card's own text (issue 13).

A writer often argues a criterion without its name, an alias or a word of its
elements: "the business must be one we understand" for a circle-of-competence
gate, "can they keep competitors out?" for a moat. :meth:`_paraphrased_gates`
embeds the sentences of the paragraphs that name no gate and compares each with
every gate's own text (name, aliases, the whole description, the required
elements with their ``{field}`` slots left out, the kill criterion). A gate the
answer does not name by any other means becomes the subject of the sentences
closest to it when they are at least :data:`SENTENCE_CUTOFF` similar to it and
:data:`SENTENCE_MARGIN` more similar to it than to any other gate of the card.

It never invents a gate (it only ever names a card gate), never moves a gate
the answer names, and reads at a lower confidence (recognition ``paraphrase``,
:data:`._confidence.RECOGNITION`). It only adds gates, never takes a reading
away (stop 32): it skips every sentence a named gate reads
(:meth:`_ParaphrasedGatesMixin._read_by_named_gates`: its section, its
paragraph, the final verdict's region), in prose a sentence after which the
next named sentence would change subject (:meth:`_keeps_next_subject`), and an
answer read only in other words keeps the no-gate fallback's gates
(:mod:`._described`). The law is tested with 21 seeded embedders
(tests/scoring/test_parse_embedder_default.py). The cut-off and the margin were
set on the open tuned parts of batches n26 and n27 and checked on n28
(docs/scoring.md, "Gates discussed in other words").
"""

from __future__ import annotations

import re

from ipb.scoring.parse._common import MAX_EMBED, _Mention
from ipb.scoring.parse._paraphrase import _DISCOURSE, _encode, _unit_rows
from ipb.scoring.parse._state import _ParserState

#: Cosine similarity (all-MiniLM-L6-v2) a sentence needs to a gate's own texts.
SENTENCE_CUTOFF = 0.55
#: By how much the best gate must beat the second best for that sentence.
SENTENCE_MARGIN = 0.20
#: A sentence shorter than this many words says too little to be matched; a longer one is cut at this many.
MIN_WORDS, MAX_WORDS = 5, 60
#: At most this many sentences of one answer are embedded (a quarter of the label budget).
MAX_SENTENCES = MAX_EMBED // 4
_FIELD = re.compile(r"\s*\{[A-Za-z_][A-Za-z0-9_]*\}")
_PROSE_KINDS = ("plain", "list", "bold", "short", "label", "quote")


def sentence_texts(card: object) -> tuple[list[str], list[int]]:
    """Each gate's own texts for matching a sentence, and the gate number of each.

    The name and aliases, every sentence of the description, the required
    elements without their ``{field}`` slots ("price {price_per_share}" is
    "price"; an element left with fewer than two words is dropped: it says
    nothing of the gate) and the kill criterion.
    """
    texts: list[str] = []
    owner: list[int] = []
    for g in card.gates:  # type: ignore[attr-defined]
        desc = [s.strip() for s in re.split(r"(?<=[.;])\s+", g.description) if len(s.split()) >= 3]
        elements = [_FIELD.sub("", e).strip(" :") for e in g.required_elements]
        for t in [g.name, *g.aliases, *desc, *(e for e in elements if len(e.split()) >= 2), *([g.kill_criterion] if g.kill_criterion else [])]:
            texts.append(t)
            owner.append(g.number)
    return texts, owner


class _ParaphrasedGatesMixin(_ParserState):
    """Sentences in paragraphs that name no gate, matched to a gate the answer does not name by the card's own text."""

    def _paraphrased_gates(self) -> None:
        """Add a ``paraphrase`` mention of a gate no name, alias, number, label or phrase found for each sentence
        closest to it (see the module docstring); the paragraph (line) of the sentence names no gate, it is not a
        table, JSON or final-verdict sentence, and it has between :data:`MIN_WORDS` and :data:`MAX_WORDS` words."""
        if self.embedder is False:
            return
        found = {g for m in self.mentions for g in m.gates} | {a.gate for a in self.anchors.values() if a.gate is not None}
        if len(found) >= len(self.card.gates):
            return
        named_lines = {self.units[u].line for u, ms in self.unit_mentions.items() if ms} | set(self.anchors)
        structural = len({a.gate for a in self.anchors.values() if a.gate is not None}) >= 2
        taken = self._read_by_named_gates(structural)
        candidates: list[tuple[int, str]] = []
        for u, unit in enumerate(self.units):
            line = self.lines[unit.line]
            if unit.line in named_lines or u in taken or line.kind not in _PROSE_KINDS or u in self.final_units:
                continue
            words = _DISCOURSE.sub("", self.masked[unit.start : unit.end].strip(), count=1).split()
            if len(words) < MIN_WORDS:
                continue
            candidates.append((u, " ".join(words[:MAX_WORDS])))
            if len(candidates) >= MAX_SENTENCES:
                break
        if not candidates or self._embedder() is None:  # type: ignore[attr-defined]
            return  # the default embedder is loaded only when a sentence needs it
        sims = self._sentence_similarities([t for _, t in candidates])
        best: dict[int, list[tuple[float, float, int]]] = {}
        for (u, _), (gate, sim, margin) in zip(candidates, sims):
            if gate in found or sim < SENTENCE_CUTOFF or margin < SENTENCE_MARGIN or not self._keeps_next_subject(u, gate, structural):
                continue
            best.setdefault(gate, []).append((sim, margin, u))
        for gate, rows in sorted(best.items()):
            for sim, margin, u in rows:
                unit = self.units[u]
                m = _Mention(unit.start, unit.end, (gate,), "paraphrase", unit=u)
                self.unit_mentions[u] = [m]
                self.unit_mention_starts.pop(u, None)
                self.mentions.append(m)
            top = max(rows)
            self.notes.append(f"gate {gate} read from {len(rows)} sentence(s) in other words (best similarity "
                              f"{top[0]:.2f}, margin {top[1]:.2f} over the next gate): a lower-confidence reading")
        self.mentions.sort(key=lambda m: m.start)

    def _read_by_named_gates(self, structural: bool) -> set[int]:
        """The units (sentences) a gate named by other means reads, or that the final verdict's region holds.

        The sections are not assigned yet (:meth:`._layout_sections._SectionsMixin._sections` runs after this pass), so this
        walks the lines with the same rules, erring towards "read": in a structured answer (two or more gates
        labelled) every unit from a gate's label to the next label or a line that closes the section; in prose, every
        unit from the first sentence naming a gate on (each sentence after it is the current gate's until the
        conclusion); in both, a named sentence's rest of paragraph, which a structured answer gives it
        (:meth:`._layout_sections._SectionsMixin._claim_unanchored`), and every unit of the final verdict's region. A paraphrase
        mention on such a unit would hand its verdict words, or the sentences after it, to another gate: the pass
        may only add a gate, never take a reading away (tests/scoring/test_parse_embedder_default.py).
        """
        read: set[int] = set()
        current: int | None = None  # only whether a gate holds the section matters here, not which
        current_line = None
        final_region = False
        for li, line in enumerate(self.lines):
            ids = self.line_units[li]
            anchor = self.anchors.get(li)
            first_text = self.masked[self.units[ids[0]].start : self.units[ids[0]].end] if ids else ""
            if anchor is not None and anchor.gate is None and current is not None and self._nested_under(line, current_line):  # type: ignore[attr-defined]
                anchor = None
            if anchor is not None and (structural or anchor.gate is not None or anchor.invented is not None):
                current, current_line, final_region = anchor.gate, line, False
            elif ids and self._closes(line, current_line, first_text, structural):  # type: ignore[attr-defined]
                current, current_line = None, None
                final_region = self._is_final_line(line, first_text)  # type: ignore[attr-defined]
            for u in ids:
                named = any(m.gates for m in self.unit_mentions.get(u, ()))
                if not structural:
                    if named:
                        current, final_region = 0, False
                    elif u in self.final_units:
                        current, final_region = None, True
                if current is not None or final_region or u in self.final_units:
                    read.add(u)
        for u, ms in self.unit_mentions.items():
            if any(m.gates for m in ms):
                read.update(self._rest_of_paragraph(u, ms[0].gates[0] if ms[0].gates else 0))  # type: ignore[attr-defined]
        return read

    def _keeps_next_subject(self, u: int, gate: int, structural: bool) -> bool:
        """In prose, whether the first sentence naming a gate after unit ``u`` takes the same subject with ``gate``
        current (``u`` read as a paraphrase of it) as with no gate current.

        A gate named late in its sentence ("... covered by the product criteria") opens that gate's section only
        where no gate is current (:meth:`._layout_sections._SectionsMixin._topic`); after a paraphrased sentence it would stay
        in the paraphrased gate's section and the named gate would lose what it reads. In a structured answer the
        labels open the sections and the subject of a sentence does not: always true there.
        """
        if structural:
            return True
        for v in range(u + 1, len(self.units)):
            if any(m.gates for m in self.unit_mentions.get(v, ())):
                return bool(self._topic(v, gate) == self._topic(v, None))  # type: ignore[attr-defined]
            if v in self.final_units:
                return True  # the conclusion closes the paraphrased gate's section first
        return True

    def _sentence_similarities(self, texts: list[str]) -> list[tuple[int, float, float]]:
        """For each text: (best gate, its similarity, the margin over the second-best gate), against :func:`sentence_texts`."""
        import numpy as np

        embedder = self._embedder()  # type: ignore[attr-defined]
        ix = self.ix
        matrix = None
        for owner, m in ix.embeddings:
            if isinstance(owner, tuple) and owner[0] is embedder and owner[1] == "sentences":
                matrix = m
        gate_texts, owners_list = sentence_texts(self.card)
        try:
            if matrix is None:
                matrix = _unit_rows(np.asarray(_encode(embedder, gate_texts), dtype=float))
                ix.embeddings.append(((embedder, "sentences"), matrix))
            rows = _unit_rows(np.asarray(_encode(embedder, texts), dtype=float))
        except Exception as exc:  # noqa: BLE001 - an embedder failure must not fail the parse
            self.notes.append(f"embedding of sentences failed: {type(exc).__name__}: {exc}")
            return []
        sims = rows @ matrix.T
        owners = np.asarray(owners_list)
        numbers = sorted(set(owners_list))
        per_gate = np.stack([sims[:, owners == k].max(axis=1) for k in numbers], axis=1)
        out = []
        for row in per_gate:
            order = np.argsort(row)[::-1]
            second = float(row[order[1]]) if len(order) > 1 else -1.0
            out.append((numbers[int(order[0])], float(row[order[0]]), float(row[order[0]]) - second))
        return out
