"""Gate references that do not spell a gate's name (issue 13, gate references).

**A criterion word after part of a gate's name.** "The price test is no
problem", "the drift check fires": a word or two of exactly one gate's name
(else of its aliases), followed by test, check, screen, criterion, hurdle,
trigger..., names that gate, as a reader takes it.

**Several gates named at once**: "all seven tests pass", "every criterion is
met", "the other two checks". A human reader takes "all seven tests pass" as a verdict on each of the card's
seven gates, and "the other checks fail" as one on every gate not yet named.
Such a phrase counts only when a verdict word directly follows it (or a verdict verb directly precedes it: "it
meets all seven defensive criteria", "passes every test"), its count
(if any) is the number of gates meant, and it is neither negated nor
hypothetical ("not all tests pass", "if every test passes", "must pass all
seven tests").

**Gates named together.** "The growth, formula and margin-of-safety steps
do not apply", "the cost and risk-budget questions never arise": a list of
parts of gate names before one plural criterion word names each of those
gates, provided every part names exactly one gate and no two parts the same.
"The first two steps are clean" and "the last three checks pass" name the
card's first or last gates, with the same rules as "all seven tests".

**A short label two gates share, settled by the other labels.** "Price:" on
a card with "Price Materially Below Intrinsic Value" and "Published
Repurchase Price Limit" names neither by its words alone; when the answer
labels one of them elsewhere ("Limit: ..."), the shared label is the other
one, as a reader takes it. An ordinal opening the label ("Second, price:")
picks the gate of that number among those the label fits.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ipb.scoring._text import Line, Trigger, normalize
from ipb.scoring.parse._common import MAX_OCCURRENCES, _Anchor, _Mention
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._excepted import excepted
from ipb.scoring.parse._types import Span

_COUNT_WORDS = {w: k for k, w in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
                                           start=2)}
_CRITERIA = r"(?:tests?|criteria|criterion|gates?|checks?|conditions?|filters?|hurdles?|screens?|steps?|rules?|requirements?|questions?)"
_COUNT = r"(?:[ \t]+(?P<count>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))?"
#: "All seven tests pass", "every criterion is met", "each of the four checks": a verdict for every gate of the card.
_QUANTIFIED = re.compile(r"(?i)(?P<q>all|every|each)(?:[ \t]+of)?(?:[ \t]+(?:the|its|our|my|his|their))?" + _COUNT
                         + r"(?P<other>[ \t]+(?:other|remaining))?(?:[ \t]+(?!(?:tests?|criteri|gates?|checks?|conditions?|filters?)\b)"
                         r"[A-Z]?[a-z][a-z'-]+)?[ \t]+" + _CRITERIA + r"\b")
#: "The other two checks", "the remaining gates", "the rest of the tests": every gate not named before.
_REMAINING = re.compile(r"(?i)(?:other|remaining|rest[ \t]+of[ \t]+the)" + _COUNT + r"[ \t]+" + _CRITERIA + r"\b")
#: "The first two steps", "the last three checks": the card's first or last gates.
_POSITIONAL = re.compile(r"(?i)\b(?P<pos>first|last|final)[ \t]+(?P<count>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
                         r"(?:[ \t]+" + _CRITERIA + r"\b|(?=[ \t]+(?:(?:all|both)[ \t]+)?(?:pass|passes|fail|fails|clear|are[ \t]+met)\b))")
#: (the criterion word may be left out before a verdict verb: "The first three gates pass. The last three fail.")
_QUANTIFIED_TRIGGERS = ([Trigger(w, _QUANTIFIED) for w in ("all", "every", "each")] + [Trigger(w, _REMAINING) for w in ("other", "remaining", "rest")]
                        + [Trigger(w, _POSITIONAL) for w in ("first", "last", "final")])
#: A plural criterion word closing a list of gate-name parts: "the growth, formula and margin-of-safety *steps*".
_PLURAL_FRAME = re.compile(r"(?i)(?:tests|checks|steps|questions|gates|criteria|screens|lenses|filters|hurdles|conditions)\b")
_PLURAL_TRIGGERS = [Trigger(w, _PLURAL_FRAME) for w in ("tests", "checks", "steps", "questions", "gates", "criteria", "screens", "lenses",
                                                        "filters", "hurdles", "conditions")]
_PART = r"[A-Za-z][A-Za-z'/-]*(?:\s+[A-Za-z][A-Za-z'/-]*){0,2}"
#: The list before the plural word, looked back for from it: "the growth, formula and margin-of-safety ".
_COORDINATED = re.compile(r"(?i)\b(?:the|both|its|our|their)\s+(?P<list>" + _PART + r"(?:\s*,\s*" + _PART + r"){0,6},?\s+(?:and|or|&)\s+"
                          + _PART + r")\s+\Z")
_CONJUNCT_SPLIT = re.compile(r"(?i)\s*,\s*(?:(?:and|or|&)\s+)?|\s+(?:and|or|&)\s+")
#: The writer's own numbers in brackets after a group of gates: "the remaining checks (4-7)", "the other tests (3, 5
#: and 6)", "all four screens (gates 1–4)". Each run of spacing is one star between fixed tokens.
_BRACKETED_NUMBERS = re.compile(r"[ \t]*\((?:(?:gates?|tests?|checks?|steps?|criteria|nos?\.?|#)[ \t]*)?(?P<a>\d{1,2})"
                                r"(?:[ \t]*(?:-|\u2013|\u2014|to|through)[ \t]*(?P<b>\d{1,2})"
                                r"|(?P<more>(?:[ \t]*(?:,|and|&)[ \t]*\d{1,2})+))?[ \t]*\)")
#: A quantifier that is itself negated or hypothetical ("not all tests pass", "if every test is met") is no verdict on each gate.
_QUANTIFIER_BEFORE = re.compile(r"(?i)(?:\bnot|n't|\bif|\bunless|\bwhether|\bwhen|\bonce|\bmust|\bshould|\bneeds?[ \t]+to|\bto)[ \t]+\Z")


#: A criterion word ("the price *test*") and what may stand before it: a determiner, then one to three words.
_FRAME = re.compile(r"(?i)(?:test|check|screen|criterion|hurdle|filter|trigger|lens|requirement)\b")
_FRAME_TRIGGERS = [Trigger(w, _FRAME) for w in ("test", "check", "screen", "criterion", "hurdle", "filter", "trigger", "lens", "requirement")]
#: At most this many quantified mentions are kept (each looks back over the mentions before it).
MAX_QUANTIFIED = 64
#: Where a label joins parts of two gates' names: "Net of costs and risk budget", "Growth & inflation".
_LABEL_JOINER = re.compile(r"(?i)[ \t]*,[ \t]*(?:(?:and|&)[ \t]+)?|[ \t]+(?:and|&)[ \t]+|[ \t]*&[ \t]*")
_ORDINAL_OPENING = {"first": 1, "firstly": 1, "second": 2, "secondly": 2, "third": 3, "thirdly": 3, "fourth": 4, "fifth": 5}
#: Line kinds whose label may be settled by the other labels (a sentence's first words are not a label).
_LABEL_KINDS = ("label", "bold", "list", "heading", "short", "table")
_FRAMED = re.compile(r"(?i)\b(?:the|this|that|our|its|a)[ \t]+(?P<words>[A-Za-z][A-Za-z'/-]*(?:[ \t]+[A-Za-z][A-Za-z'/-]*){0,2})[ \t]+\Z")


def _bracketed_gates(text: str, at: int, n: int) -> tuple[tuple[int, ...], int] | None:
    """The gates a bracket right at ``at`` numbers, and where the bracket ends; None when there is no such bracket or
    a number in it is not one of the card's ``n`` gates.

    >>> _bracketed_gates("checks (4-7) are not needed", 6, 7)
    ((4, 5, 6, 7), 12)
    >>> _bracketed_gates("tests (2, 5 and 6) fail", 5, 7)
    ((2, 5, 6), 18)
    >>> _bracketed_gates("tests (4-9) fail", 5, 7) is None
    True
    """
    m = _BRACKETED_NUMBERS.match(text, at)
    if m is None:
        return None
    a = int(m.group("a"))
    if m.group("b") is not None:
        b = int(m.group("b"))
        numbers = list(range(a, b + 1)) if a < b else []
    else:
        numbers = [a] + [int(x) for x in re.findall(r"\d{1,2}", m.group("more") or "")]
    if not numbers or any(not 1 <= k <= n for k in numbers) or len(set(numbers)) != len(numbers):
        return None
    return tuple(numbers), m.end()


class _LooseReferencesMixin(_ParserState):
    """Finds gates named by a part of their name before a criterion word (:meth:`_framed`) and quantified gate mentions
    (:meth:`_quantified`), and drops quantified mentions no verdict follows (:meth:`_drop_idle_quantifiers`)."""

    def _framed(self) -> list[_Mention]:
        """"The price test", "the drift check": mentions of the one gate whose name (else aliases) holds those words."""
        out: list[_Mention] = []
        cache: dict[str, int | None] = {}
        for _, m in self._scan(_FRAME_TRIGGERS, limit=MAX_OCCURRENCES):
            before = _FRAMED.search(self.masked, max(0, m.start() - 48), m.start())
            if before is None:
                continue
            norm = normalize(before.group("words"))
            if norm not in cache:
                cache[norm] = self._part_of_one_gate(norm)
            gate = cache[norm]
            if gate is not None:
                out.append(_Mention(before.start("words"), m.end(), (gate,), "words"))
        return out

    def _coordinated_label(self, a: int, b: int, mentions: list[_Mention], cache: dict[str, int | None]) -> list[_Mention]:
        """"Net of costs and risk budget: ...": the mentions a label joining parts of several gates' names adds, one per
        part not already a mention; none unless every part names one gate (by a mention inside it or by its words) and no
        two parts the same gate."""
        pieces: list[tuple[int, int]] = []
        pos = a
        for sep in _LABEL_JOINER.finditer(self.masked, a, b):
            pieces.append((pos, sep.start()))
            pos = sep.end()
        pieces.append((pos, b))
        gates: list[int] = []
        new: list[_Mention] = []
        for p, q in pieces:
            inside = [m for m in mentions if p <= m.start < q and m.gates and m.invented is None]
            if inside:
                gate: int | None = inside[0].gates[0] if len(inside) == 1 and len(inside[0].gates) == 1 else None
            else:
                norm = normalize(self.masked[p:q])
                if norm not in cache:
                    cache[norm] = self._part_of_one_gate(norm) if 0 < len(norm.split()) <= 3 else None
                gate = cache[norm]
                if gate is not None:
                    new.append(_Mention(p, q, (gate,), "words"))
            if gate is None or gate in gates:
                return []
            gates.append(gate)
        return new if len(gates) >= 2 else []

    def _outcome_only(self, line: Line) -> bool:
        """Whether a label line's value is nothing but one of the card's outcome words ("Positioning: STAY_DEFENSIVE.")."""
        if line.label is None or self.ix.outcome_re is None:
            return False
        value = self.masked[line.label[1] : line.end].strip(" \t*_:`.!\u2014\u2013-")
        return bool(value) and len(value) <= 60 and self.ix.outcome_re.fullmatch(value) is not None

    def _coordinated(self) -> list[_Mention]:
        """"The growth, formula and margin-of-safety steps": one mention per listed part, each the one gate whose name
        (else aliases) holds its words; the list names nothing unless every part names a gate and no two the same."""
        out: list[_Mention] = []
        cache: dict[str, int | None] = {}
        for _, m in self._scan(_PLURAL_TRIGGERS, limit=MAX_OCCURRENCES):
            before = _COORDINATED.search(self.masked, max(0, m.start() - 120), m.start())
            if before is None:
                continue
            start = before.start("list")
            pieces: list[tuple[int, int]] = []
            pos = start
            for sep in _CONJUNCT_SPLIT.finditer(self.masked, start, before.end("list")):
                pieces.append((pos, sep.start()))
                pos = sep.end()
            pieces.append((pos, before.end("list")))
            gates: list[int] = []
            for a, b in pieces:
                norm = normalize(self.masked[a:b])
                if norm not in cache:
                    cache[norm] = self._part_of_one_gate(norm)
                gate = cache[norm]
                if gate is None or gate in gates:
                    gates = []
                    break
                gates.append(gate)
            if len(gates) >= 2:
                out.extend(_Mention(a, b, (g,), "words") for (a, b), g in zip(pieces, gates))
        return out

    def _quantified(self, found: list[_Mention]) -> list[_Mention]:
        """Mentions of several gates at once: "all seven tests pass" names every gate, "the other two checks" every gate
        not named before it. A stated count must be the number of gates meant, else the phrase names none ("all four
        tests" of a seven-gate card may be four of its own); so must the wording be plain (not "not all", "if every").
        Whether a verdict follows is checked once verdict words are found (:meth:`_drop_idle_quantifiers`)."""
        n = len(self.card.gates)
        out: list[_Mention] = []
        by_end = sorted((f.end, f.gates) for f in found)
        ends = [e for e, _ in by_end]
        named_by: list[int] = [0]  # named_by[i]: bit mask of the gates the first i mentions (by end) name
        for _, gates in by_end:
            named_by.append(named_by[-1] | sum(1 << g for g in set(gates)))
        for _, m in self._scan(_QUANTIFIED_TRIGGERS, limit=MAX_OCCURRENCES):
            if len(out) >= MAX_QUANTIFIED:
                break
            if _QUANTIFIER_BEFORE.search(self.masked, max(0, m.start() - 16), m.start()):
                continue
            if m.re is _POSITIONAL:
                k = int(m.group("count")) if m.group("count").isdigit() else _COUNT_WORDS[m.group("count").lower()]
                if 2 <= k < n:
                    first = m.group("pos").lower() == "first"
                    out.append(_Mention(m.start(), m.end(), tuple(range(1, k + 1)) if first else tuple(range(n - k + 1, n + 1)),
                                        "quantifier"))
                continue
            remaining = m.re is _REMAINING or bool(m.groupdict().get("other"))
            start = m.start()
            if m.re is _REMAINING:
                the = re.search(r"(?i)\bthe[ \t]+\Z", self.masked[max(0, start - 6) : start])
                start -= len(the.group(0)) if the else 0
            gates = tuple(range(1, n + 1))
            if remaining:
                before = named_by[bisect_right(ends, start)]
                gates = tuple(g for g in gates if not before >> g & 1)
            end = m.end()
            listed = _bracketed_gates(self.masked, end, n)
            if listed is not None:  # the writer's numbers say which gates the group is, whatever was named before
                gates, end = listed
            count = m.group("count")
            if count is not None and (int(count) if count.isdigit() else _COUNT_WORDS[count.lower()]) != len(gates):
                continue
            if gates:  # "all six gates pass except the fifth": the fifth is not among them (:mod:`._excepted`)
                taken, own, stop = excepted(self.masked, end, found, n)
                if taken:
                    gates = tuple(g for g in gates if g not in taken)
                    if self.masked[end:stop].lstrip(" \t,").lower().startswith(("except", "save", "apart", "other", "with", "but")):
                        end = stop  # "all gates except gate 5 pass": the verdict after the exception is the quantifier's
                    else:
                        out.extend(own)
            if gates and (remaining or len(gates) >= 2):
                out.append(_Mention(start, end, gates, "quantifier"))
        return out

    def _drop_idle_quantifiers(self) -> None:
        """Keep a quantified mention ("all seven tests") only where a verdict word directly follows it ("... pass"):
        "a stock must pass all seven tests" states the rule, not a reading of each gate."""
        idle: list[_Mention] = []
        every: list[_Mention] = self.mentions
        for q in every:
            if q.how != "quantifier":
                continue
            hits = [h for h in self.unit_hits.get(q.unit, []) if h.start >= q.end or h.end <= q.start]
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

    def _settle_shared_labels(self, unresolved: list[tuple[int, Span, str, int | None]]) -> list[tuple[int, Span, str, int | None]]:
        """Anchor the labels whose words fit several gates ("Price:") to the one gate of those that no other label
        names, or to the gate an opening ordinal gives ("Second, price:"); returns the labels still unresolved.

        Labels are settled in the answer's order, each taking its gate away from the later ones; a label that still
        fits two gates, or none left, stays unresolved (for the embedding fallback or as an invented gate).
        """
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        left: list[tuple[int, Span, str, int | None]] = []
        for item in unresolved:
            li, span, label, number = item
            if number is not None or self.lines[li].kind not in _LABEL_KINDS:
                left.append(item)
                continue
            norm = normalize(label)
            fits = self._part_gates(norm)
            if len(fits) < 2:
                left.append(item)
                continue
            first = norm.split()[0] if norm else ""
            ordinal = _ORDINAL_OPENING.get(first)
            if ordinal is not None and ordinal in fits and ordinal not in named:
                choice = {ordinal}
            else:
                choice = set(fits) - named
            if len(choice) != 1:
                left.append(item)
                continue
            gate = choice.pop()
            self.anchors[li] = _Anchor(gate, "words", span)
            named.add(gate)
        return left
