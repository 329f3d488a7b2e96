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
table or heading level of the recognised gates and a verdict follows it)
that no reader takes to a gate of the card, or a gate number the card does
not have, is an invented gate. The evidence is the same with and without
the embedder, which only ever takes a label to a card gate the answer names
nowhere else: turning it on adds no invented gate (except beside a label
it took, by the same sibling rule) and moves no gate off the label it is
read from without it.

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

# ruff: noqa: F401 - the package's surface: public names (``__all__``) and the internals tests and bench/ read
from ipb.scoring.parse._card import _index, _investor_names
from ipb.scoring.parse._citations import MAX_TITLE_CHARS
from ipb.scoring.parse._common import (
    DEFAULT_EMBED_CUTOFF,
    DEFAULT_SCORE_CUTOFF,
    EMBED_MARGIN,
    MAX_CHARS,
    INVENTED_BELOW,
    MAX_ELEMENT_CHARS,
    MAX_EMBED,
    MAX_LINES,
    MAX_NUMBERS,
    MAX_OCCURRENCES,
    MAX_UNIT,
    MAX_YEARS,
    PREFILTER_CHARS,
    PROSE_EMBED_EXTRA,
    SUBJECT_WORDS,
)
from ipb.scoring.parse._paraphrase import _encode, _unit_rows, default_embedder
from ipb.scoring.parse._parser import _Parser, parse_response
from ipb.scoring.parse._types import (
    EXTRACTOR_FAILURE,
    FORMAT_VERSION,
    Attribution,
    Citation,
    Embedder,
    EmbedderArg,
    GateTrace,
    InventedGate,
    NumberMention,
    ParsedResponse,
    Span,
    YearMention,
)

__all__ = [
    "EXTRACTOR_FAILURE",
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
    "MAX_TITLE_CHARS",
]
