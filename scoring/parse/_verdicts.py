"""Verdict words and negation: which words state a gate verdict, how strongly, and for which gate.

A verdict word (:mod:`ipb.scoring.verdict_words`) is judged in its clause:
questions, conditions and counterfactuals state nothing; modals and hedges
weaken it; a negator within the clause flips it. Each gate's verdict is then
chosen from the evidence of its sections (the last committed statement).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ipb.scoring import verdict_words as vw
from ipb.scoring._foreign_verdicts import negated_by_prefix
from ipb.scoring.parse._inline_labels import labels_alone
from ipb.scoring.parse._answered import _OPEN_MARK_WORD, _REGIME_NAMED, QUESTION_ANSWERS
from ipb.scoring.parse._label_answers import _LabelAnswersMixin
from ipb.scoring.parse._circumstances import circumstance_factor, circumstances
from ipb.scoring.parse._confidence import PLACE_CAP
from ipb.scoring.parse._common import _WORDS_APOS, MAX_OCCURRENCES, MAX_SENTENCE_HITS, _Evidence, _Hit, _Mention, _Unit
from ipb.scoring.parse._pass_sense import declines, leans_to_passing
from ipb.scoring.parse._rule_subject import states_the_rule
from ipb.scoring.parse._prose_vocabulary import _watches, meets_someone
from ipb.scoring.parse._narrated import inline_field, narrated
from ipb.scoring.parse._predicate import last_clause, predicative
from ipb.scoring.parse._soft_break import carried_words
from ipb.scoring.parse._tick_boxes import boxed_icon, unticked
from ipb.scoring.parse._judged import judged_wrong, judged_wrong_before
from ipb.scoring.parse._split import after_summary, failing_part
from ipb.scoring.parse._stated_verdict import stands_alone
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._verdict_cells import _VerdictCellsMixin, _is_verdict_cell  # moved there; importable here
from ipb.scoring.parse._verdict_clauses import DENIED_THAT, IRONIC_TAIL, mood_level, TRAILING_NOT, UNSAID, generic_subject, hits_after, in_another_gates_paragraph, \
    apparent_pass, counterfactual, in_supposition, modal_choices, or_not_choices, required, supposed
from ipb.scoring.parse._verdict_clauses import (  # moved there; the names stay importable here
    _STATEMENT_END, _CONDITIONALS, _BRACKETED, _PINNED_TO, _COUNTERFACTUAL, _CONCESSIVE_TAILS, _AT_A_PRICE,
    _PASS_SUBJECTS, _CLAUSE_CUT, _GATE_SUBJECT, _NEITHER, _ICONS, _SUPERSEDED, _SET_ASIDE_WORDS, _COMMITTED_CUE,
    _CUE_WORD, _REVISION_OPENING, _CORRECTIVE_TAIL, _PASS_NOUN_BEFORE, framed, _ATTRIBUTIVE, _DETERMINERS, _NOT_A_NOUN,
    _NOUN_NEXT, _LABELLED_BY_MODAL, _LABEL_MODALS, _place_in_unit, _clause_start, _own_clause_start, _negation_words,
    _negated, _TIGHT_BREAK, offered_choices,
)
from ipb.scoring.parse._vocabulary import gate_by_vocabulary, label_factor
from ipb.scoring.parse._types import GateTrace, Span
from ipb.scoring.parse._denied import owned
from ipb.scoring.parse._elided import elided_hits, own_caveat
from ipb.scoring.parse._correction_label import corrected_gate, in_correction_line
from ipb.scoring.parse._voice import OTHER_VOICE, VOICE_WORDS, other_profile_regions


#: Punctuation that sets what follows a verdict word apart from it: a bracket, a semicolon, a colon or a dash.
#: A condition after it is an aside about another case, not the condition of the verdict (s32break).
#: A hyphen joining a verdict word to a lower-case word, after it ("fail-safe", "pass-through") or before it
#: ("must-pass"): the word is part of a compound (s39break: "Economic Moat: fail-safe brand" read REJECT 0.95).
_COMPOUND_AFTER = re.compile(r"-[a-z]")
_COMPOUND_BEFORE = re.compile(r"[a-z]-\Z")  # matched on the two characters before the word
#: A blank line: the end of a list item or a paragraph (:meth:`_VerdictsMixin._alone`).
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def in_compound(text: str, start: int, end: int) -> bool:
    """Whether the word ``text[start:end]`` is joined by a hyphen to a lower-case word on either side.

    >>> in_compound("a fail-safe brand", 2, 6), in_compound("a must-pass test", 7, 11), in_compound("FAIL - too dear", 0, 4)
    (True, True, False)
    """
    return _COMPOUND_AFTER.match(text, end) is not None or _COMPOUND_BEFORE.match(text, max(0, start - 2), start) is not None
_ASIDE_BEFORE = re.compile(r"[(\[;:\u2014\u2013]|\s-\s")


#: The readers whose verdict words join the hits after the main pass, in this order (each a method of the mixin).
_EXTRA_READERS = ("_yes_no_cells", "_answered_questions", "_regimes_named", "_open_marks", "_gate_questions", "_label_answers")


def _restates(earlier: _Evidence, later: _Evidence) -> bool:
    """Whether ``later`` states its gate's verdict under a label of its own after ``earlier`` did under another, both
    at a label's level: "Fair Price: REJECT. Fair Price: PROCEED." The later committed statement wins (the corpus
    README); the two compete, so the confidence stays under the review bar (:meth:`_gate_confidence`'s runner-up)."""
    return (earlier.label is not None and later.label is not None and later.label[0] > earlier.label[0]
            and later.hit.start >= later.label[1] and earlier.hit.start < later.label[0])


def _restated_label(clause_labels: dict[int, list[Span]], hit: _Hit, label: Span | None) -> Span | None:
    """The label a verdict word reads under: the last one restated in its unit before it, else the unit's own
    ("Fair Price: REJECT; Fair Price: PROCEED": the label restated after the semicolon is PROCEED's; s48parse)."""
    for span in clause_labels.get(hit.unit, ()):
        if span[1] <= hit.start:
            label = span
    return label


class _VerdictScopeMixin(_ParserState):
    """Where a verdict word stands: another profile's analysis, a gate pinned after it, a revision after the final,
    another gate's subject, an icon its detail contradicts, a figure between mention and word (used by
    :class:`_VerdictsMixin`; split out to keep each class under the 400-line bound of tests/test_layers.py)."""

    def _in_other_profile(self, pos: int) -> bool:
        """Whether ``pos`` lies in the analysis of another profile or scenario than the answer's first one."""
        regions: list[tuple[int, int]] | None = self.__dict__.get("profile_regions")
        if regions is None:
            regions = self.__dict__["profile_regions"] = other_profile_regions(self.masked)
        return any(a <= pos < b for a, b in regions)

    def _owner_after(self, hit: _Hit, mentions: list[_Mention]) -> tuple[int, ...] | None:
        """The gates a verdict word is pinned to by a preposition right after it ("No REJECT at gate 1; the REJECT at
        gate 2 decides", "a PASS on the moat", "FAIL for step 3") or by the bracket it opens after the gate's name
        ("our catalyst (PROCEED)")."""
        k = bisect_right(self._mention_starts(hit.unit), hit.start)
        j = k - 1
        while j >= 0 and k - j <= 8 and (mentions[j].end > hit.start or not mentions[j].gates):
            j -= 1
        if j >= 0 and mentions[j].gates and mentions[j].end <= hit.start and _BRACKETED.fullmatch(self.low, mentions[j].end, hit.start):
            return tuple(mentions[j].gates)  # "will be returned as a special dividend: our catalyst (PROCEED)"
        for m in mentions[k : k + 8]:
            if m.start >= hit.end and m.gates:
                return tuple(m.gates) if _PINNED_TO.fullmatch(self.low, hit.end, m.start) else None
        return None

    def _revises_after_final(self, hit: _Hit) -> bool:
        """Whether a verdict word in the final region revises a gate: "Final verdict: AVOID. Wait, I made a mistake:
        gate 5 is REJECT, not PROCEED" (a revision cue, :meth:`_revision`, and a gate named tightly around the word).
        docs/scoring.md: revisions win for their gate wherever they sit."""
        return bool(self.unit_mentions.get(hit.unit)) and self._revision(hit) and self._tight_owner(hit, hit.unit) is not None

    def _subject_of_another_gate(self, hit: _Hit, gate: int) -> bool:
        """Whether an appraisal read as a clause's predicate (:mod:`._predicate`) has a subject in another gate's
        distinctive vocabulary (:func:`._vocabulary.gate_by_vocabulary`): "the advantage is not durable" speaks for the
        moat, not for the section of the return-on-capital gate it sits in when the answer names no gate there."""
        subject = self.__dict__.get("predicate_subjects", {}).get(hit.start)
        if not subject:
            return False
        owner, _ = gate_by_vocabulary(self.ix.card, subject)
        return owner is not None and owner != gate

    def _icon_contradicted(self, icon: _Hit) -> bool:
        """Whether a status icon's own line, after it, states another verdict in words (at least hedged): "✅ 34 names
        (fails above 30)", "✅ Dividend: assumed to pass, no data" (INCONCLUSIVE). Icons are marks a writer sets before
        the detail is written; the detail is the reading."""
        li = self.units[icon.unit].line
        for h in hits_after(self.line_units[li], self.unit_hits, icon.unit, icon.end, MAX_SENTENCE_HITS):  # break44 #5
            if h.word in _ICONS or h.word.sense:
                continue
            if self._level(h) >= vw.HEDGED and h.verdict != icon.word.verdict and h.verdict in (vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE):
                return True
        return False

    def _figure_between(self, mentions: list[_Mention], owner: tuple[int, ...], hit: _Hit) -> bool:
        """Whether a figure stands between the owner's last mention (by name, not number) and the verdict word."""
        last = max((m for m in mentions if m.gates and set(m.gates) <= set(owner) and m.end <= hit.start), key=lambda m: m.end, default=None)
        return last is not None and last.how != "number" and any(c.isdigit() for c in self.masked[last.end : hit.start])


class _VerdictsMixin(_VerdictScopeMixin, _VerdictCellsMixin, _LabelAnswersMixin):
    """Finds verdict words (and Yes/No cells of "Pass?" columns), judges them in context and chooses each gate's verdict."""

    # ------------------------------------------------------------------ verdict words

    def _find_hits(self) -> None:
        for key, m in self._scan(vw.VERDICT_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u < 0 or in_compound(self.masked, m.start(), m.end()):  # "fail-safe", "pass-through": no verdict
                continue
            hit = _Hit(m.start(), m.end(), vw.VERDICT_WORDS[key], u)
            self.hits.append(hit)
            self.unit_hits.setdefault(u, []).append(hit)
        choices = offered_choices(self.hits, self.low) | modal_choices(self.hits, self.low) | or_not_choices(self.hits, self.low)
        starts = {h.start for h in self.hits}  # "[ ] PROCEED [x] REJECT", "☐ PROCEED ☑ REJECT": the ticked option (_tick_boxes.py)
        choices |= {id(h) for h in self.hits if unticked(self.masked, h.start) or boxed_icon(self.masked, h.start, h.end, starts)}
        # "PASS/FAIL", "may pass or may fail", "may or may not pass": none of them states a verdict
        if choices:
            self.hits[:] = [h for h in self.hits if id(h) not in choices]
            for u, hits in self.unit_hits.items():
                hits[:] = [h for h in hits if id(h) not in choices]
        unmet = self._conditions_unmet()
        if unmet:  # "Not reached." after a condition's label: the condition unmet, not the gate unreached (N/A)
            spans = {(h.start, h.end) for h in unmet}
            self.hits[:] = [h for h in self.hits if not any(a <= h.start < b for a, b in spans)]
            for u in {h.unit for h in unmet}:
                self.unit_hits[u] = [h for h in self.unit_hits.get(u, []) if not any(a <= h.start < b for a, b in spans)]
        extra = unmet + [hit for name in _EXTRA_READERS for hit in getattr(self, name)()] + elided_hits(self)  # (_elided.py)
        if extra:
            for hit in extra:
                self.unit_hits.setdefault(hit.unit, []).append(hit)
            for u in {hit.unit for hit in extra}:
                self.unit_hits[u].sort(key=lambda h: h.start)
            self.hits[:] = sorted(self.hits + extra, key=lambda h: h.start)

    def _level(self, hit: _Hit) -> int:
        """The hit's level (0: it states nothing), judging it on first use."""
        if not hit.judged:
            hit.judged = True
            judged = self._judge(hit.start, hit.end, hit.word, self.units[hit.unit])
            if judged is not None:  # another speaker's, time's or company's word is weak ("Critics say it fails": _attributed.py)
                hit.verdict, hit.level, hit.derived, hit.stated = owned(judged, self, self.units[hit.unit], hit.start, hit.end)  # _denied.py
        return hit.level

    def _judge(self, start: int, end: int, word: vw.VerdictWord, unit: _Unit) -> tuple[str, int, bool] | None:
        """The verdict, level and negation of one verdict word in its context, or None when it states nothing."""
        masked, low = self.masked, self.low
        before = low[max(unit.start, start - 90) : start]
        cut = _clause_start(before)
        if ", " in before:
            for m in _CLAUSE_CUT.finditer(before, max(cut, 0)):
                cut = max(cut, m.end() - 1)
        clause_words = _WORDS_APOS.findall(before, cut + 1)[-14:]
        if word.alone and (clause_words or start - 90 > unit.start and cut < 0):
            if clause_words in (["not"], ["never"]) and not word.sense:
                # "Broken story? Not broken.", "Leverage: not excessive.": the appraisal denied, alone in its clause
                return (vw.REJECT if word.verdict == vw.PROCEED else vw.PROCEED), vw.HEDGED, True
            predicate = predicative(last_clause(before, cut, clause_words)) if cut >= 0 or start - 90 <= unit.start else None
            if predicate is None or not _CONDITIONALS.isdisjoint(clause_words) or not vw.MODALS.isdisjoint(clause_words):
                return None  # an appraisal inside a clause ("a strong franchise") states no verdict; alone ("Strong.") it does
            if clause_words:  # the predicate's subject, to check in _rank that it names no other gate's criterion
                self.__dict__.setdefault("predicate_subjects", {})[start] = " ".join(clause_words)
            if predicate:  # "the thesis isn't broken", "leverage is not excessive", "the gap isn't material": the predicate denied
                return (vw.REJECT if word.verdict == vw.PROCEED else vw.PROCEED), vw.HEDGED, True
            # "incentives are aligned.", "the gap is material.", "both fine": the appraisal is the clause's predicate
        words = clause_words[-4:]
        after = low[end : min(unit.end, end + 40)]
        after_words = _WORDS_APOS.findall(after)[:3]
        token = low[start:end]
        # "Buffett would pass." is the investor's "pass on it", not a gate's PASS.
        if token == "pass" and words and words[-1] in _PASS_SUBJECTS and declines(clause_words):
            rest = after.lstrip()
            if not rest or rest[0] in ".;!,)" or after_words[:1] in (["here"], ["for"]) or _AT_A_PRICE.match(rest):
                return None  # "I'd pass at this price", "we pass at $88": the investor declines at a price
        if token == "passing" and leans_to_passing(before):
            return None  # "On balance I lean towards passing": the writer's lean to decline, no gate passing (_pass_sense.py)
        # "a first pass might mark it PROCEED" (the noun, an attempt), "where most buybacks fail" (things in general), "the REJECT case": no verdict
        if (token.startswith("pass") and words and words[-1] in _PASS_NOUN_BEFORE) or (not word.alone and generic_subject(clause_words)) or framed(token, self.text, low, end):
            return None
        if not word.alone and states_the_rule(clause_words, after_words):  # "the card proceeds on a positive average" (_rule_subject.py)
            return None
        # "the failed takeover of a rival", "the sector's failed breakout", "a rejected rally": a participle before its noun
        # describes that noun; it is no gate's verdict.
        if token in _ATTRIBUTIVE and words and (words[-1] in _DETERMINERS or words[-1].endswith("'s")) \
                and after_words and after_words[0] not in _NOT_A_NOUN and _NOUN_NEXT.match(low, end):
            return None
        if token in ("met", "meet", "meets") and meets_someone(low, end):  # "met the banks", "met with regulators": a meeting
            return None
        # "fails to justify" says the subject failed at something; the gate word is the verb after it.
        if after_words[:1] == ["to"] and token.startswith("fail"):
            return None
        # Questions and conditions state no verdict.
        if masked[unit.end - 1] == "?" and unit.end - end < 400 and _STATEMENT_END.search(masked, end, unit.end - 1) is None:
            return None
        if in_supposition(token, clause_words, before, low):
            return None  # "if it passes"; "even if the target is met, ...": the word inside the supposition finds nothing
        if (cut >= 0 or start - 90 <= unit.start) and _COUNTERFACTUAL.match(before, cut + 1):
            return None  # "Had the multiple been 6x, it would fail": a counterfactual
        concessive = after_words[:3] in _CONCESSIVE_TAILS or after_words[:2] in _CONCESSIVE_TAILS
        if not concessive and (after_words and after_words[0] in vw.CONNECTIVE_TAIL or after_words[:2] == ["only", "if"]) \
                and not _ASIDE_BEFORE.search(after, 0, _WORDS_APOS.search(after).start()):  # type: ignore[union-attr]
            return None  # "REJECT when price > value"; not "REJECT (if the price were lower it would PROCEED)"
        if (level := mood_level(word.verdict, word.strength, clause_words, low[end : unit.end])) is None:  # s45left
            return None  # "it would fail were the multiple to expand", "could fail should rates rise": a case supposed
        if _SET_ASIDE_WORDS.isdisjoint(clause_words):
            pass  # nothing in the clause could set the word aside (the common case: no pattern is tried)
        elif _SUPERSEDED.search(own := before[_own_clause_start(before, cut, clause_words):]) \
                or (not VOICE_WORDS.isdisjoint(clause_words) and OTHER_VOICE.search(own)):
            level = min(level, vw.WEAK)  # "my first instinct was PROCEED", "a strict reader would REJECT"; "..., but it is PROCEED" is not
        if self._in_other_profile(start):
            level = min(level, vw.WEAK)  # "Profile B - aggressive investor: 1. Stocks 80% -> PROCEED": another profile's list
        if concessive:
            level = min(level, vw.HEDGED)  # "it passes, if only just": a verdict, with a reservation
        if clause_words[:1] == ["with"] and token.endswith("ed") and len(clause_words) <= 4:
            level = min(level, vw.WEAK)  # "With g rejected, the formula value is not computed": a result recalled, not given
        if not vw.MODALS.isdisjoint(words) or (not _LABEL_MODALS.isdisjoint(clause_words)
                                                and _LABELLED_BY_MODAL.search(before, cut + 1) is not None) or required(clause_words, after_words) or counterfactual(clause_words) or IRONIC_TAIL.match(low, end) or own_caveat(word, token, words):
            level = min(level, vw.WEAK)  # "may fail"; "must be passed", "would have passed": no result; "a pass, as if.": mocked; "I have not checked"
        elif not vw.HEDGES.isdisjoint(words) or (after_words and after_words[0] in vw.HEDGES):
            level = min(level, vw.HEDGED)
        paren = before.rfind("(")
        if paren >= 0 and before.find(")", paren) < 0:
            level = min(level, vw.HEDGED)  # a parenthetical aside
        verdict = word.verdict
        if word.negatable and verdict in (vw.PROCEED, vw.REJECT) and UNSAID.search(low, max(unit.start, start - 100), start):
            return (vw.REJECT if verdict == vw.PROCEED else vw.PROCEED), vw.WEAK, True  # "I cannot say it fails": a label refused
        derived = False
        negated = word.negatable and (_negated(
            _negation_words(clause_text, words) if "," in (clause_text := before[cut + 1 :])
            and (not vw.NEGATORS.isdisjoint(clause_words) or "n't" in clause_text) else words)
            or negated_by_prefix(before)  # "品牌不能通过": a negating prefix in the run of CJK or Thai touching the word
            or not clause_words and _negated(carried_words(low, start))  # "I would not\nPROCEED": a soft break (_soft_break.py)
            or judged_wrong_before(low, max(unit.start, start - 90) + cut + 1, start) or judged_wrong(low, end, unit.end))
        # "It would be a mistake to PROCEED", "Proceeding would be a mistake": the act judged wrong is refused (_judged.py)
        if word.negatable and (negated or "nor" in clause_words):
            neither = _NEITHER.search(masked, max(unit.start, start - 60), min(unit.end, end + 60))
            if neither is not None and neither.start() <= start < neither.end():
                return None  # "not a pass and not a fail", "neither PROCEED nor REJECT" states neither
        if word.negatable and TRAILING_NOT.match(low, end):
            negated = not negated  # "another PASS... not."
        if word.negatable and DENIED_THAT.search(before) is not None:  # "it is not true that it fails", "non è vero che
            negated, level = not negated, min(level, vw.HEDGED)  # non supera": a denied clause, read with a reservation
        if negated:
            derived = True
            if verdict == vw.PROCEED:
                verdict = vw.REJECT
            elif verdict == vw.REJECT:
                verdict, level = vw.PROCEED, vw.WEAK
            else:
                return None
        return apparent_pass((verdict, level, derived), low, max(unit.start, start - 90) + cut + 1, (start, end), unit.end)

    def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]:
        """Who each verdict word speaks for; words are judged later, and only where the choice needs them."""
        self.structural = structural
        out: list[_Evidence] = []
        passing = -2
        for hit in self.hits:
            unit = self.units[hit.unit]
            if unit.final and not self._revises_after_final(hit):
                continue
            label = _restated_label(self.__dict__.get("clause_labels", {}), hit, label_units.get(hit.unit))
            if hit.word in QUESTION_ANSWERS:  # "Dividend record? No - ...": the answer is the question's gate's, wherever it sits
                asked = self.__dict__.get("question_gate", {}).get(hit.start)
                if asked is not None:
                    out.append(_Evidence(asked, hit, self._section_of(asked, hit.unit), label=label))
                continue
            if hit.word is _REGIME_NAMED:
                out.extend(self._regime_evidence(hit, label))
                continue
            mentions = self.unit_mentions.get(hit.unit)
            if mentions and all(m.gates == (unit.gate,) for m in mentions):
                mentions = None  # every gate named here is the section's own
            owner = (self._tight_owner(hit, hit.unit) or self._owner_after(hit, mentions)) if mentions else None
            if owner is None:
                corrected = corrected_gate(self, hit)  # "Correction to gate 2: debt to equity is 20%: PROCEED" (_correction_label.py)
                if corrected is not None and corrected != unit.gate:
                    owner = (corrected,)
            if owner and unit.gate not in owner and structural and label is not None and hit.start >= label[1] and mentions \
                    and self._figure_between(mentions, owner, hit):
                owner = None  # "Step 4: earnings yield 12.5% and ROC 38% — PROCEED": a measure with its figure on the gate's label line
            if owner and unit.gate not in owner:
                if structural or unit.gate is None:
                    for g in owner:
                        out.append(_Evidence(g, hit, passing, passing=structural))
                        passing -= 1
                    continue
                for g in owner:
                    out.append(_Evidence(g, hit, self._section_of(g, hit.unit)))
                continue
            if unit.gate is None:
                continue
            if owner and len(owner) > 1:
                for g in owner:
                    out.append(_Evidence(g, hit, self._section_of(g, hit.unit), label=label))
                continue
            floor = self.units[self.section_first.get(unit.section, hit.unit)].start
            if hit.word.alone and in_another_gates_paragraph(self.card, self.low, self.mentions, unit.gate, hit.start, floor):
                continue  # "... No junk, no preferreds. Good." after the drift's label: the bonds' verdict, not the drift's
            out.append(_Evidence(unit.gate, hit, unit.section, label=label))
        for hit in self.__dict__.get("line_answers", ()):  # "1. Are prices stretched ...? Sure.": for the gate it labels
            pending = self.line_answer_for(hit)
            if pending is not None and not any(ev.hit.start == hit.start for ev in out):
                out.append(_Evidence(pending[0], pending[1], self._section_of(pending[0], hit.unit), label=label_units.get(hit.unit)))
        if any(ev.hit.word.pass_named for ev in out):  # "Material." speaks only for a gate whose name states its pass condition
            out = [ev for ev in out if not ev.hit.word.pass_named or ev.gate in self._pass_named_gates()]
        return out

    def _rank(self, ev: _Evidence) -> tuple[int, bool, bool]:
        """(level, said outright, the writer's own): a label's or verdict field's word is 4, a word in another gate's
        section one less; a verb telling what someone else did (:func:`._narrated.narrated`) ranks below the writer's
        word of the same level."""
        hit = ev.hit
        level = self._level(hit)
        if level == 0:
            return (0, False, True)
        if self.units[hit.unit].line in self.__dict__.get("tally_lines", ()):
            return (0, False, True)  # "**Tally:** 2 favourable, 1 unfavourable": a count of the gates, no gate's word (s49parse)
        line = self.lines[self.units[hit.unit].line]
        if line.kind == "table":
            column = self._verdict_column(self.units[hit.unit].line)
            if column is not None and not (column < len(line.cells) and line.cells[column][0] <= hit.start < line.cells[column][1]):
                level = min(level, vw.HEDGED)  # a table with a Verdict column: other columns ("Pass?", "Kill triggered?") yield to it
        if hit.word.alone and self._subject_of_another_gate(hit, ev.gate):
            return (0, False, True)  # "so incentives are misaligned" in the moat's section: the subject is another gate's criterion
        if (hit.word in _ICONS or hit.word is _OPEN_MARK_WORD) and self._icon_contradicted(hit):
            return (vw.WEAK, True, True)  # "✅ Dividend record: 18 years (fails the 20-year bar)": the line's words outrank its mark
        told = level >= vw.COMMITTED and self._narrated(hit, ev.label)
        if level >= vw.COMMITTED and not told:
            if ev.label is not None and hit.start >= ev.label[1] and self._first_hit_after(hit, ev.label):
                level = 4  # "Gate: VERDICT", "Gate — does not pass"
            elif not hit.derived and (self._field_hit(line, hit) or (line.kind == "table" and self._verdict_cell(line, hit))
                                      or inline_field(self.low, line.start, hit.start)):
                level = 4
            elif not hit.derived and _GATE_SUBJECT.search(self.low, max(self.units[hit.unit].start, hit.start - 40), hit.start):
                level = 4  # "this gate FAILS", "the test is a PROCEED"
        if level > vw.HEDGED and self._json_decided_elsewhere(line, hit):
            level = vw.HEDGED  # '{"evidence": "pay passes muster ...", "result": "FAIL"}': the object's own field decides
        if ev.passing:
            level = max(level - 1, vw.WEAK)
        return (level, not hit.derived, not told)

    def _alone(self, ev: _Evidence) -> bool:
        """Whether the hit is a capitalised verdict keyword that is its sentence's only word (:mod:`._stated_verdict`),
        in the item its gate's section opens with (no blank line between) and not the answer's final verdict: it outranks
        an earlier word of the label's level in its section ("... cut-off in [2]. \u274c REJECT")."""
        hit = ev.hit
        unit = self.units[hit.unit]
        first = self.section_first.get(ev.section)
        if hit.derived or unit.final or first is None or ev.passing:
            return False
        if _BLANK_LINE.search(self.masked, self.units[first].start, hit.start) is not None:
            return False  # "...: PROCEED.\n...\n\nINCONCLUSIVE.": a paragraph of its own closes the answer, not the item
        return stands_alone(self.masked, hit.start, hit.end, unit.start, unit.end)

    def _revision(self, hit: _Hit) -> bool:
        """Whether the verdict word follows a cue of a considered or revised statement in its sentence, or its
        paragraph opens as a revision ("Correction to gate 2: ...", "Update after reading ...", "Wait — I forgot ...")."""
        if _CORRECTIVE_TAIL.match(self.low, hit.end) is not None:
            return True  # "Gate 5 is REJECT, not PROCEED": the writer sets the other verdict aside
        may = self.revision_units.get(hit.unit)
        if may is None:  # one look per sentence: a sentence with no cue and no revising paragraph opening holds no revision
            unit = self.units[hit.unit]
            para = self.low.rfind("\n\n", max(0, unit.start - 600), unit.start + 1)
            may = (_CUE_WORD.search(self.low, unit.start, unit.end) is not None
                   or (para >= 0 and _REVISION_OPENING.match(self.low, para + 2) is not None)
                   or in_correction_line(self.low, unit.start))
            self.revision_units[hit.unit] = may
        if not may:
            return False
        if _COMMITTED_CUE.search(self.low, max(self.units[hit.unit].start, hit.start - 80), hit.start) is not None:
            return True
        if in_correction_line(self.low, hit.start):
            return True  # "Correction to gate 2: <a figure, its bar>, so gate 2 is PROCEED" (_correction_label.py)
        para = self.low.rfind("\n\n", max(0, hit.start - 600), hit.start)
        start = para + 2 if para >= 0 else max(0, hit.start - 600) if hit.start > 600 else 0
        return para >= 0 and _REVISION_OPENING.match(self.low, start) is not None

    def _choose(self, evidence: list[_Evidence]) -> tuple[str | None, Span | None]:
        """The gate's verdict from its evidence.

        Per section the strongest statement, the first of equals. Among the
        gate's own sections the last one with a committed statement wins; words
        about the gate in other gates' sections count only when its own
        sections state nothing committed; failing that, the strongest
        statement. Sections are examined from the last, so a long answer's
        earlier sections are judged only when the later ones say nothing.
        """
        if not evidence:
            return None, None
        # An explicit revision ("looking again, gate 2 fails", "my verdict on the moat is REJECT") wins wherever it sits: the last one.
        revisions = [ev for ev in evidence if self._revision(ev.hit) and self._level(ev.hit) >= vw.COMMITTED]
        if revisions:
            last = max(revisions, key=lambda ev: ev.hit.start)
            return last.hit.verdict, (last.hit.start, last.hit.end)
        sections: dict[int, list[_Evidence]] = {}
        for ev in evidence:
            sections.setdefault(ev.section, []).append(ev)
        def first_pos(item: tuple[int, list[_Evidence]]) -> int:
            return min(e.hit.start for e in item[1])
        ordered = sorted(sections.items(), key=first_pos)
        own = [evs for sid, evs in ordered if sid >= 0 or sid <= -1000]
        failing = failing_part(self, evidence[0].gate, own)  # a gate split over two rows fails if a part fails (:mod:`._split`)
        if failing is not None:
            return failing.hit.verdict, (failing.hit.start, failing.hit.end)
        other = [evs for sid, evs in ordered if -1000 < sid < 0]
        fallback: tuple[tuple[int, bool, bool], int, _Evidence] | None = None
        for pool in (own, other):
            for evs in reversed(pool):
                best: tuple[tuple[int, bool, bool], int, _Evidence] | None = None
                for ev in sorted(evs, key=lambda e: e.hit.start):
                    rank = self._rank(ev)
                    if (best is not None and vw.COMMITTED <= rank[0] < best[0][0] and best[2].hit.verdict != ev.hit.verdict
                            and self._alone(ev) and not self._alone(best[2])):
                        rank = (best[0][0], rank[1], rank[2])  # "... meets the cut-off. \u274c REJECT": the word set down alone wins (s49parse)
                    if rank[0] > 0 and (best is None or rank > best[0] or (rank == best[0] and (
                            _restates(best[2], ev) or (self._alone(ev) and not self._alone(best[2]))))):
                        best = (rank, -ev.hit.start, ev)
                if best is None:
                    continue
                if best[0][0] >= vw.COMMITTED:
                    return best[2].hit.verdict, (best[2].hit.start, best[2].hit.end)
                if fallback is None or (best[0], best[1]) > (fallback[0], fallback[1]):
                    fallback = best
        if fallback is None:
            return None, None
        return fallback[2].hit.verdict, (fallback[2].hit.start, fallback[2].hit.end)

    def _first_hit_after(self, hit: _Hit, label: Span) -> bool:
        for h in self.unit_hits.get(hit.unit, []):
            if h.start >= label[1] and self._level(h) >= vw.COMMITTED and not self._narrated(h, label):
                return h is hit
        return False

    def _narrated(self, hit: _Hit, label: Span | None) -> bool:
        """Whether a lower-case verdict verb has a subject of its own ("The company has rejected two bids"): it tells
        what happened in the case, not the writer's verdict (:mod:`._narrated`)."""
        token = self.masked[hit.start:hit.end]
        if hit.word.alone or hit.derived or token.isupper() or not token.lower().endswith("ed"):
            return False  # a past verb only: "the company has rejected", "competitors failed"; not "the business passes"
        unit = self.units[hit.unit]
        floor = label[1] if label is not None and unit.start <= label[1] <= hit.start else unit.start
        return narrated(self.low, floor, hit.start)

    # ------------------------------------------------------------------ gates

    def _gates(self, evidence: list[_Evidence]) -> list[GateTrace]:
        by_gate: dict[int, list[_Evidence]] = {}
        for ev in evidence:
            by_gate.setdefault(ev.gate, []).append(ev)
        order: list[tuple[int, int]] = []
        for gate, sections in self.gate_sections.items():
            first = self.section_first[sections[0]]
            pos = _place_in_unit(self.units[first].start, self.unit_mentions.get(first, ()), gate) if first >= 0 else 0
            order.append((pos, gate))
        seen = {g for _, g in order}
        for m in self.mentions:  # gates named only in passing count when a verdict is given them there, or as a label mid-paragraph
            for g in m.gates:
                if g in seen or m.unit < 0 or self.units[m.unit].final:
                    continue
                if any(self._level(ev.hit) > 0 for ev in by_gate.get(g, ())) or labels_alone(self.masked, m):
                    seen.add(g)
                    order.append((m.start, g))
                    self.gate_mention.setdefault(g, ((m.start, m.end), m.how))
        self._regimes_ordered(by_gate, seen, order)
        order = after_summary(self, order)  # a summary box ahead of the analysis does not fix the order (:mod:`._split`)
        traces: list[GateTrace] = []
        for _, g in order:
            gate = self.ix.gates[g]
            verdict, vspan = self._choose(by_gate.get(g, []))
            if g in self.ix.proceed_sense and vspan is not None and verdict in (vw.PROCEED, vw.REJECT):
                word = next((ev.hit.word for ev in by_gate[g] if (ev.hit.start, ev.hit.end) == vspan), None)
                if word is not None and word.sense:  # "Rebalancing is triggered" for a gate whose condition is the trigger
                    verdict = vw.REJECT if verdict == vw.PROCEED else vw.PROCEED
            mention, how = self.gate_mention[g]
            span = self._section_span(g) or mention
            trace = GateTrace(g, gate.name, verdict, span, mention, how, vspan)
            trace.confidence, trace.runner_up, trace.runner_up_span = self._gate_confidence(by_gate.get(g, []), verdict, vspan, how)
            sign = vw.PROCEED if g in self.ix.proceed_sense else vw.REJECT if _watches(self.card, g) else None
            trace.confidence = round(trace.confidence * label_factor(self.card, self.masked, how, mention, g, self.unconfirmed) * circumstance_factor(
                circumstances(self.masked, verdict, vspan, mention, how, sign)), 3)  # label words; where the word stands
            if how == "position":  # a gate met by its place alone reads under the review bar (._confidence.PLACE_CAP)
                trace.confidence = min(trace.confidence, PLACE_CAP)
            traces.append(trace)
        return traces
