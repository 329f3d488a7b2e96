"""Where a gate's verdict word stands, as evidence against trusting it (issue 13 item 3; paper §7.5; docs/scoring.md "Confidence").

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
``contradicted``   0.6     a mark (✅, ❌) won the gate and its own cell goes on to say,
                           in a word of the gate's named condition, the opposite: "✅
                           present" for a gate that watches for a warning sign (its
                           REJECT), "❌ absent" there; the reverse for a gate whose
                           condition lets it proceed (:func:`contradicted`)
=================  ======  ===========================================================

Measured and left out (docs/scoring.md): a verdict word outside the gate's
own section and three or more lines from its name ("neighbouring") was right
22 of 24 at >= 0.7 before n29 but 7 of 8 on n28 and n29's tuned parts, no
better than those batches' other readings; a status icon alone (97 of 100)
and a word after the final verdict (47 of 49) were too mild to weigh.

Set on the corpus's tuned split before n29 (stop 32, embedder on, gate
readings at confidence >= 0.7): "Step N" numbers were right 15 of 19 (all
other number labels 137 of 137), an assumed-or-missing line 1 of 3; the tuned
split as a whole was right about 99% at that threshold. Checked, not fitted, on n29's
tuned part (docs/scoring.md, "Where the verdict word stands").

``contradicted`` was drawn from n30 (stop 33): one answer's status column
"✅ present" / "❌ absent" on the bubble gauge, whose gates REJECT when their
sign is present, gave all six of the batch's tuned gate readings at >= 0.7 that
were wrong (five at 0.95). On the whole tuned split it fires on those six
readings and nowhere else (no right reading lowered); x0.6 puts a label's
0.95 at 0.57, under the 0.6 operating point.

Units: character offsets into the parser's masked text (same length as the
answer). Nothing here reads the card: the caller passes ``sign``, the kind
of gate (:func:`contradicted`).
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._types import Span

#: Factor by circumstance of a gate's verdict word (product when several hold).
CIRCUMSTANCE_FACTORS = {"own-step": 0.8, "unsupported": 0.7, "contradicted": 0.6}
#: A label naming the answer's own sequence rather than the card's gate numbers.
OWN_STEP = re.compile(r"(?i)\s*(?:step|stage)s?\b")
#: The rest of a verdict's line saying its evidence is assumed or missing.
UNSUPPORTED = re.compile(
    r"(?i)\b(?:assum(?:ed|ing|ptions?)|not\s+(?:yet\s+)?(?:available|assessed|verified|checked|found|disclosed)|"
    r"no\s+(?:data|proxy|information|evidence|disclosure)|unverified|pending|(?:found|available)\s+yet)\b")
#: A status word that says the gate's named condition holds / does not hold: a fail / a pass for a gate that watches
#: for a warning sign ("Leverage | +41% | ✅ present"), the reverse for a gate whose condition lets it proceed.
#: A negator up to two words before the status word says it does not hold ("none present", "hasn't triggered", "not
#: currently present", "no issues flagged"); "present" before a noun of time or value is no status ("present value").
SIGN_QUIET = re.compile(r"(?i)\b(?:absent|quiet|(?:not|no|never|none|nothing|without|no\s+longer|\w+n['\u2019]t)"
                        r"(?:\s+[\w-]+){0,2}?\s+(?:present|triggered|flashing|firing|fired|lit|flagged))\b")
SIGN_HOLDS = re.compile(r"(?i)\b(?:present(?!\s+(?:value|day|price|valuation|worth|time|moment|state|situation|conditions?)\b)|"
                        r"triggered|flashing|firing|fired|lit|flagged)\b")
#: How far past the mark its cell is read when no "|" or line end comes first (characters).
CELL_REACH = 60


def circumstances(text: str, verdict: str | None, verdict_span: Span | None, mention: Span, how: str,
                  sign: str | None = None) -> list[str]:
    """The circumstances (keys of :data:`CIRCUMSTANCE_FACTORS`) of a gate reading: ``verdict`` read at ``verdict_span``
    of ``text`` for a gate named at ``mention`` and recognised by ``how``; ``sign`` the verdict the gate's named
    condition holding means (REJECT: it watches for a warning sign; PROCEED: the condition lets it proceed; None:
    neither), for :func:`contradicted`. A gate without a verdict has none.

    Examples
    --------
    >>> circumstances("Step 4 - Management: PROCEED.", "PROCEED", (21, 28), (0, 6), "number")
    ['own-step']
    >>> circumstances("Moat: PASS, assumed fine (no data).", "PROCEED", (6, 10), (0, 4), "name")
    ['unsupported']
    >>> circumstances("Moat: INCONCLUSIVE, no data.", "INCONCLUSIVE", (6, 18), (0, 4), "name")
    []
    """
    if verdict is None or verdict_span is None:
        return []
    end = verdict_span[1]
    out: list[str] = []
    if how == "number" and OWN_STEP.match(text, mention[0]):
        out.append("own-step")
    line_end = text.find("\n", end)
    if verdict in (vw.PROCEED, vw.REJECT) and UNSUPPORTED.search(text, end, len(text) if line_end < 0 else line_end):
        out.append("unsupported")
    if verdict in (vw.PROCEED, vw.REJECT) and contradicted(text, verdict, verdict_span, sign):
        out.append("contradicted")
    return out


def contradicted(text: str, verdict: str, verdict_span: Span, sign: str | None = None) -> bool:
    """Whether ``verdict`` was read from a mark (a tick, a cross: no letter in ``verdict_span``) whose own cell goes on
    to say, in a word of the gate's named condition, the opposite: "✅ present" / "❌ absent" where ``sign`` (the
    verdict that condition holding means: REJECT for a gate that watches for a warning sign, PROCEED for one whose
    condition lets it proceed) is REJECT, the reverse where it is PROCEED; None (neither kind of gate) never. The
    cell ends at the next "|", the line's end or :data:`CELL_REACH` characters and, in a table, starts after the
    "|" before the mark ("| present ✅ |"); a cell whose words say both is not counted. (A verdict word after the
    mark, "✅ fails", is read by the parser itself and wins over the mark.)

    Examples
    --------
    >>> contradicted("| Leverage | +41% | \u2705 present |", "PROCEED", (19, 20), "REJECT")
    True
    >>> contradicted("| Leverage | +41% | \u2705 present |", "PROCEED", (19, 20), None)
    False
    >>> contradicted("| Leverage | 12% | \u2705 absent |", "PROCEED", (18, 19), "REJECT")
    False
    >>> contradicted("Drift: PASS - not triggered", "PROCEED", (7, 11), "PROCEED")
    False
    """
    if sign is None or any(ch.isalnum() for ch in text[verdict_span[0]:verdict_span[1]]):
        return False
    end = verdict_span[1]
    stop = min(len(text), end + CELL_REACH)
    for ch in "|\n":
        at = text.find(ch, end, stop)
        stop = stop if at < 0 else at
    line_start = text.rfind("\n", 0, verdict_span[0]) + 1
    bar = text.rfind("|", line_start, verdict_span[0])  # in a table the whole cell counts: "| present ✅ |"
    cell = (text[bar + 1:verdict_span[0]] if bar >= 0 else "") + " " + text[end:stop]
    quiet = bool(SIGN_QUIET.search(cell))
    holds = bool(SIGN_HOLDS.search(SIGN_QUIET.sub(" ", cell)))
    fails, passes = (holds, quiet) if sign == vw.REJECT else (quiet, holds)
    return fails and not passes if verdict == vw.PROCEED else passes and not fails


def circumstance_factor(found: list[str]) -> float:
    """Product of the factors of ``found`` (:func:`circumstances`); 1.0 when none.

    Examples
    --------
    >>> circumstance_factor([]), circumstance_factor(["own-step"]), round(circumstance_factor(["own-step", "unsupported"]), 6)
    (1.0, 0.8, 0.56)
    """
    factor = 1.0
    for name in found:
        factor *= CIRCUMSTANCE_FACTORS[name]
    return factor
