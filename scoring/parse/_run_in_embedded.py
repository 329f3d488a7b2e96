"""Run-in heads in the writer's own words, matched to a gate by the embedder (s51parse, issue 13).

A memo, a blog post or a talk read aloud sets its sections as run-in heads: a short title ending in a stop, then the
paragraph on the same line ("The loop. A high share price lets ...", "Where we are today. High-yield spreads have gone
from 3 points to 9 ..."). :meth:`._references._ReferencesMixin._run_in_head` anchors such a head when the card's words
name a gate in it; a head in the writer's own words is left in ``run_in_heads`` with its text, and is read here.

A head is taken for the gate it is closest to by embedding only when

- the answer sets at least two run-in heads (named or not): the layout is a run of titled paragraphs, so a lone
  "Cold." or "No." opening a line is never taken for a title;
- it is at least the parser's embedding cut-off similar to one gate and :data:`EMBED_MARGIN` more similar to it than to
  any other (the rule of :meth:`._paraphrase._ParaphraseMixin._embedding_matches`);
- no other label already names that gate, and no closer head claims it.

It is never an invented gate: a head far from every gate stays prose. Without an embedder nothing here runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipb.scoring.parse._common import EMBED_MARGIN, _Anchor
from ipb.scoring.parse._types import Span

if TYPE_CHECKING:
    from ipb.scoring.parse._parser import _Parser

#: Fewest run-in heads an answer must set before one in the writer's own words is read as a gate's title.
MIN_RUN_IN_HEADS = 2


def embed_run_in_heads(p: "_Parser") -> None:
    """Anchor the unnamed run-in heads the embedder places on one gate each (module docstring)."""
    heads = p.run_in_heads
    if p.embedder is False or len(heads) < MIN_RUN_IN_HEADS:
        return
    left = [(li, span, text) for li, span, text in heads if text and li not in p.anchors]
    if not left:
        return
    sims = p._similarities([text for _, _, text in left])
    if not sims:
        return
    named = {a.gate for a in p.anchors.values() if a.gate is not None}
    best: dict[int, tuple[float, int, Span]] = {}
    for (li, span, _), (gate, sim, margin) in zip(left, sims):
        if sim < p.embed_cutoff or margin < EMBED_MARGIN or gate in named:
            continue
        if gate not in best or sim > best[gate][0]:
            best[gate] = (sim, li, span)
    for gate, (_, li, span) in best.items():
        p.anchors[li] = _Anchor(gate, "embedding", span)
