"""Several gates named at once: "all seven tests pass", "every criterion is met", "the other two checks" (issue 13,
gate references).

A human reader takes "all seven tests pass" as a verdict on each of the card's
seven gates, and "the other checks fail" as one on every gate not yet named.
Such a phrase counts only when a verdict word directly follows it, its count
(if any) is the number of gates meant, and it is neither negated nor
hypothetical ("not all tests pass", "if every test passes", "must pass all
seven tests").
"""

from __future__ import annotations

import re

from ipb.scoring._text import Trigger
from ipb.scoring.parse._common import _Mention
from ipb.scoring.parse._state import _ParserState

_COUNT_WORDS = {w: k for k, w in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
                                           start=2)}
_CRITERIA = r"(?:tests?|criteria|criterion|gates?|checks?|conditions?|filters?|hurdles?|screens?|steps?|rules?|requirements?|questions?)"
_COUNT = r"(?:[ \t]+(?P<count>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))?"
#: "All seven tests pass", "every criterion is met", "each of the four checks": a verdict for every gate of the card.
_QUANTIFIED = re.compile(r"(?i)(?P<q>all|every|each)(?:[ \t]+of)?(?:[ \t]+(?:the|its|our|my))?" + _COUNT
                         + r"(?P<other>[ \t]+(?:other|remaining))?[ \t]+" + _CRITERIA + r"\b")
#: "The other two checks", "the remaining gates", "the rest of the tests": every gate not named before.
_REMAINING = re.compile(r"(?i)(?:other|remaining|rest[ \t]+of[ \t]+the)" + _COUNT + r"[ \t]+" + _CRITERIA + r"\b")
_QUANTIFIED_TRIGGERS = [Trigger(w, _QUANTIFIED) for w in ("all", "every", "each")] + [Trigger(w, _REMAINING) for w in ("other", "remaining", "rest")]
#: A quantifier that is itself negated or hypothetical ("not all tests pass", "if every test is met") is no verdict on each gate.
_QUANTIFIER_BEFORE = re.compile(r"(?i)(?:\bnot|n't|\bif|\bunless|\bwhether|\bwhen|\bonce|\bmust|\bshould|\bneeds?[ \t]+to|\bto)[ \t]+\Z")


class _QuantifiersMixin(_ParserState):
    """Finds quantified gate mentions (:meth:`_quantified`) and drops those no verdict follows (:meth:`_drop_idle_quantifiers`)."""

    def _quantified(self, found: list[_Mention]) -> list[_Mention]:
        """Mentions of several gates at once: "all seven tests pass" names every gate, "the other two checks" every gate
        not named before it. A stated count must be the number of gates meant, else the phrase names none ("all four
        tests" of a seven-gate card may be four of its own); so must the wording be plain (not "not all", "if every").
        Whether a verdict follows is checked once verdict words are found (:meth:`_drop_idle_quantifiers`)."""
        n = len(self.card.gates)
        out: list[_Mention] = []
        for _, m in self._scan(_QUANTIFIED_TRIGGERS, limit=64):
            if _QUANTIFIER_BEFORE.search(self.masked, max(0, m.start() - 16), m.start()):
                continue
            remaining = m.re is _REMAINING or bool(m.groupdict().get("other"))
            start = m.start()
            if m.re is _REMAINING:
                the = re.search(r"(?i)\bthe[ \t]+\Z", self.masked[max(0, start - 6) : start])
                start -= len(the.group(0)) if the else 0
            gates = tuple(range(1, n + 1))
            if remaining:
                before = {g for f in found if f.end <= start for g in f.gates}
                gates = tuple(g for g in gates if g not in before)
            count = m.group("count")
            if count is not None and (int(count) if count.isdigit() else _COUNT_WORDS[count.lower()]) != len(gates):
                continue
            if gates and (remaining or len(gates) >= 2):
                out.append(_Mention(start, m.end(), gates, "quantifier"))
        return out

    def _drop_idle_quantifiers(self) -> None:
        """Keep a quantified mention ("all seven tests") only where a verdict word directly follows it ("... pass"):
        "a stock must pass all seven tests" states the rule, not a reading of each gate."""
        idle: list[_Mention] = []
        every: list[_Mention] = self.mentions
        for q in every:
            if q.how != "quantifier":
                continue
            hits = [h for h in self.unit_hits.get(q.unit, []) if h.start >= q.end]
            if not any(self._tight_owner(h, q.unit) == q.gates for h in hits):
                idle.append(q)
        if not idle:
            return
        gone = {id(m) for m in idle}
        every[:] = [x for x in every if id(x) not in gone]
        for m in idle:
            in_unit = self.unit_mentions.get(m.unit)
            if in_unit is not None:
                in_unit[:] = [x for x in in_unit if id(x) not in gone]
                if not in_unit:
                    del self.unit_mentions[m.unit]
                self.unit_mention_starts.pop(m.unit, None)
