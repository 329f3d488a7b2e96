"""Where a gate's verdict word stands, as evidence against trusting it (issue 13 item 3; docs/scoring.md "Confidence").

:mod:`._confidence` rates a gate reading by its words (how strongly they
commit) and by how the gate was recognised. Some readings commit strongly
and are still wrong because of where the word sits; three such shapes are
weighed here. Each only lowers the reading's confidence; the reading itself
never changes.

=================  ======  ===========================================================
circumstance       factor  shape
=================  ======  ===========================================================
``own-step``       0.8     the gate was recognised by its number through a "Step N" /
                           "Stage N" label: the answer's own sequence, which need not
                           follow the card's gate numbers
``unsupported``    0.7     a PROCEED / REJECT whose line goes on to say its evidence is
                           assumed or missing ("✅ assumed fine, no proxy data yet");
                           an INCONCLUSIVE is what such a line supports, so it is spared
``neighbouring``   0.8     the verdict word lies outside the gate's own section and
                           three or more lines from where the gate is named: a verdict
                           likely taken from a neighbouring section
=================  ======  ===========================================================

Set on the corpus's tuned split before n29 (stop 32, embedder on, gate
readings at confidence >= 0.7): "Step N" numbers were right 15 of 19 (all
other number labels 137 of 137), an assumed-or-missing line 1 of 3, a word
outside its section and 3+ lines from the name 25 of 27; the tuned split as a
whole was right about 99% at that threshold. Checked, not fitted, on n29's
tuned part (docs/scoring.md, "Where the verdict word stands").

Units: character offsets into the parser's masked text (same length as the
answer). Nothing here reads the card.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._types import Span

#: Factor by circumstance of a gate's verdict word (product when several hold).
CIRCUMSTANCE_FACTORS = {"own-step": 0.8, "unsupported": 0.7, "neighbouring": 0.8}
#: A label naming the answer's own sequence rather than the card's gate numbers.
OWN_STEP = re.compile(r"(?i)\s*(?:step|stage)s?\b")
#: The rest of a verdict's line saying its evidence is assumed or missing.
UNSUPPORTED = re.compile(
    r"(?i)\b(?:assum(?:e|ed|es|ing|ption)|not\s+(?:yet\s+)?(?:available|assessed|verified|checked|found|disclosed)|"
    r"no\s+(?:data|proxy|information|evidence|disclosure)|unknown|unverified|pending|only\s+because|(?:found|available)\s+yet)\b")
#: Lines between a gate's name and its verdict word from which a word outside the gate's section counts as a neighbour's.
NEIGHBOUR_LINES = 3


def circumstances(text: str, verdict: str | None, verdict_span: Span | None, mention: Span, section: Span | None,
                  how: str) -> list[str]:
    """The circumstances (keys of :data:`CIRCUMSTANCE_FACTORS`) of a gate reading: ``verdict`` read at ``verdict_span``
    of ``text`` for a gate named at ``mention``, whose own section is ``section`` (None: the mention alone), recognised
    by ``how``. A gate without a verdict has none.

    Examples
    --------
    >>> circumstances("Step 4 - Management: PROCEED.", "PROCEED", (21, 28), (0, 6), (0, 29), "number")
    ['own-step']
    >>> circumstances("Moat: PASS, assumed fine (no data).", "PROCEED", (6, 10), (0, 4), (0, 35), "name")
    ['unsupported']
    >>> circumstances("Moat: INCONCLUSIVE, no data.", "INCONCLUSIVE", (6, 18), (0, 4), (0, 28), "name")
    []
    >>> circumstances("Moat\\na\\nb\\nc\\nPASS", "PROCEED", (11, 15), (0, 4), (0, 6), "name")
    ['neighbouring']
    """
    if verdict is None or verdict_span is None:
        return []
    start, end = verdict_span
    out: list[str] = []
    if how == "number" and OWN_STEP.match(text, mention[0]):
        out.append("own-step")
    line_end = text.find("\n", end)
    if verdict in (vw.PROCEED, vw.REJECT) and UNSUPPORTED.search(text, end, len(text) if line_end < 0 else line_end):
        out.append("unsupported")
    own = section or mention
    if not (own[0] <= start and end <= own[1]):
        lo, hi = min(mention[0], start), max(mention[1], end)
        if text.count("\n", lo, hi) >= NEIGHBOUR_LINES:
            out.append("neighbouring")
    return out


def circumstance_factor(found: list[str]) -> float:
    """Product of the factors of ``found`` (:func:`circumstances`); 1.0 when none.

    Examples
    --------
    >>> circumstance_factor([]), circumstance_factor(["own-step"]), round(circumstance_factor(["unsupported", "neighbouring"]), 6)
    (1.0, 0.8, 0.56)
    """
    factor = 1.0
    for name in found:
        factor *= CIRCUMSTANCE_FACTORS[name]
    return factor
