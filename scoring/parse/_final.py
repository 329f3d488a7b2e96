"""The final verdict: the last committed statement of an outcome in the card's words or a verdict word in the conclusion
(paper §7.5). This module gathers the candidates (outcome words, ratings, idioms, counts, acts) and chooses among them;
the tests on one word (condition, alternative, another voice, labelled decline) are in :mod:`._final_checks`.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring._foreign_verdicts import caseless_unlabelled, negated_by_prefix
from ipb.scoring.parse._card import _outcome_key
from ipb.scoring.parse._closing import (
    _CUE_BEFORE,
    _LABEL_BEFORE,
    ANSWER_LABEL,
    QUESTION_TRIGGERS,
    _ClosingMixin,
    decision_label_before,
    answer_particle_end,
    answers_another,
    asked_outcome,
    question_before,
    buying_answer,
    at_another_price,
    is_result,
    other_object,
    last_sentence,
    own_answer,
    repair_no_end,
)
from ipb.scoring.parse._common import _WORDS_APOS, MAX_OCCURRENCES
from ipb.scoring.parse._past import in_the_past, past_time
from ipb.scoring.parse._pasted_output import pasted_blocks, writers_over_pasted
from ipb.scoring.parse._soft_break import carried_words
from ipb.scoring.parse._tick_boxes import unticked
from ipb.scoring.parse._subject_tables import among_subjects
from ipb.scoring.parse._destination import TRIGGERS as DESTINATION_TRIGGERS, destination_outcomes, has_destinations
from ipb.scoring.parse._decided import (
    _DecidedMixin,
    decider_moves_before,
    purpose_infinitive,
    relative_clause,
)
from ipb.scoring.parse._final_words import (  # moved there
    _ANSWER_YES_NO_TRIGGERS, _BUY_LIMIT, _CONCEDED, _LEANT, _count, _COUNT_TRIGGERS, _EVERY_TRIGGERS, _FINAL_PASS_WORD, _FOLLOWED_BY_WORD,
    _GENERIC_OBJECT, _IDIOM_PLACES, _LOWER_OUTCOME_CUE, _NEUTRAL_LABEL_OPENS, _NEUTRAL_TRIGGERS, _PASS_AT_END, _PASSED_AT_END, _PASSED_SUBJECT,
    _PASSIVE_SUBJECT, _PASSIVE_TRIGGERS, _POSITION_WORDS, _REFUSED_TO, _REVISION_CUE, _SENT_BACK, limit_met,
)
from ipb.scoring.parse._acted import only_scope
from ipb.scoring.parse._final_checks import _FinalChecksMixin, _hypothetical, _persons_act, _swapped, _unsaid  # (_hypothetical: imported from here too)
from ipb.scoring.parse._acted import _ActedMixin
from ipb.scoring.parse._final_block import _ClosingBlockMixin
from ipb.scoring.parse._judged import consequence_end, judged_wrong, judged_wrong_before
from ipb.scoring.parse._label_owner import label_of_another
from ipb.scoring.parse._relevance_if import relevance_condition_end
from ipb.scoring.parse._retracted import withdrawn_after
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._verdicts import _clause_start, _negated


#: After an outcome word: a noun it names ("the size-up request is denied", "the rebalance proposal", "the divest case"):
#: the outcome is the name of a proposal or a side, which the text may grant or refuse.
_PROPOSAL_AFTER = re.compile(r"(?i)[ \t-]+(?:request|requests|proposal|proposals|plan|plans|case|argument|idea|scenario|option|"
                             r"camp|side|agent|ticket|order)\b")

#: "without" right after a negated outcome word, in the same clause ("I never add without ...": a standing rule).
_WITHOUT_AFTER = re.compile(r"(?i)[ \t]+without\b")
#: A lean verb right before an outcome word ("leaning DECLINE", "leans toward INVEST", "I'd lean DECLINE"); searched in
#: the 80 characters before the word, anchored at their end.
_LEAN_ON = re.compile(r"(?i)\blean(?:s|ing|ed|t)?(?:[ \t]+towards?|[ \t]+to)?[ \t]+[*_\"']*\Z")


class _FinalVerdictMixin(_DecidedMixin, _ActedMixin, _ClosingMixin, _ClosingBlockMixin, _FinalChecksMixin):
    """Chooses the final verdict among outcome words, action words ("buy", "pass on it") and verdict words in the final region."""

    # ------------------------------------------------------------------ final verdict

    def _withdrawn(self, end: int, u: int) -> bool:
        """Whether the outcome word ending at ``end`` in sentence ``u`` is taken back at once: "INVEST -- no, that's a
        joke", "INVEST (not)", "INVEST. Just kidding." (:mod:`._retracted`); never the verdict, at most the runner-up."""
        unit = self.units[u]
        nxt = self.units[u + 1] if u + 1 < len(self.units) else None
        if nxt is not None and self.masked.count("\n", unit.end, nxt.start) > 1:
            nxt = None  # (a withdrawal opens no new paragraph)
        return withdrawn_after(self.masked, end, unit.end, nxt.start if nxt else None, nxt.end if nxt else None)

    def _final_verdict(self) -> tuple[str | None, Span | None]:
        """The final verdict and its span; its confidence and runner-up are left in ``self.final_reading``."""
        self._mark_closing_block()
        masked = self.masked
        ix = self.ix
        candidates: list[tuple[int, int, str, Span]] = []  # (level, position, outcome, span)
        set_aside: list[tuple[int, int, str, Span]] = []  # the same, for outcomes stated in another voice (:mod:`._voice`)

        def consider(start: int, end: int, outcome: str, base: int, u: int, stated: bool = False, phrase: bool = False,
                     guess: bool = False) -> None:
            if unticked(masked, start):
                return  # "Final verdict: [ ] INVEST [x] DECLINE": an option not taken (_tick_boxes.py)
            unit = self.units[u]
            level = base
            if unit.final:
                level = 4 if self._after_final_cue(u, start) else 3
            before = masked[max(unit.start, start - 80) : start]
            # "So no, I'm not buying": the words after an answer particle are the answer, and the particle negates nothing
            answered = answer_particle_end(masked, unit.start, start)
            if answered is None:  # "INVEST... no, DECLINE", "INVEST, wait, no, DECLINE": the writer breaks off; "no" negates nothing
                answered = repair_no_end(masked, max(unit.start, start - 80), start)
            said = masked[max(answered, start - 80) : start] if answered is not None else before
            # "It is not, so we decline": a negation reaches no further back than a drawn consequence
            clause = [w.lower() for w in _WORDS_APOS.findall(said, max(_clause_start(said) + 1, consequence_end(said)))]
            words = clause[-4:] or carried_words(masked, start)  # negation stops at the clause; "DO NOT\nINVEST": a soft break
            after_words = [w.lower() for w in _WORDS_APOS.findall(masked[end : min(unit.end, end + 40)])][:3]
            if judged_wrong(masked, end, unit.end):  # "buying would be a mistake", "comprar sería un error": the act refused
                swapped = _swapped(outcome, ix.pass_outcome, ix.fail_outcome)
                if swapped is None:
                    return
                outcome = swapped
            # "Si el precio baja a la mitad, la decisión final: invertir": a condition opening the sentence ("Si," answers)
            # "If you ask me, the final verdict is BUY": a condition on the conversation, not on the facts
            # (:mod:`._relevance_if`); the sentence is read as if it began after it
            relevance = relevance_condition_end(masked, unit.start, start)
            opening = _WORDS_APOS.search(masked, unit.start, start)
            if relevance is None and opening is not None and opening.group().lower() in fv.CONDITIONALS \
                    and masked[opening.end() : opening.end() + 1] in (" ", "\t"):
                return
            # "If it were cheaper we would invest, so DECLINE": a condition, as a negation, stops at a drawn consequence
            cond_before = before if relevance is None else masked[max(relevance, start - 80) : start]
            drawn = consequence_end(cond_before)
            conditioned = [w.lower() for w in _WORDS_APOS.findall(cond_before, drawn)][-14:] if drawn \
                else [w.lower() for w in _WORDS_APOS.findall(cond_before)][-14:]
            if _hypothetical(conditioned, cond_before[drawn:] if drawn else cond_before) and "even" not in conditioned or in_the_past(masked, unit.start, start, end) \
                    or answers_another(masked, unit.start) or outcome == ix.pass_outcome and at_another_price(masked, unit.start, start, end):
                return  # a condition, a verdict of then ("In 2021 it was too rich for me"), on a rival, or a buy at another price
                # ("At 35 we'd be buyers"; a decline there, "At $50B ... Buffett would pass", still counts): not today's
            if after_words and after_words[0] in _GENERIC_OBJECT:
                return  # "the fund divests any issuer that ...", "we sell every stock whose story broke": a policy, not this decision
            if after_words and after_words[0] in vw.CONNECTIVE_TAIL and after_words[0] != "unless" or after_words[:2] == ["only", "if"]:
                if not (after_words[0] == "once" and self._labelled_value(start)):
                    return  # "INVEST if the price falls" is a condition; "DECLINE unless it is re-booked" is today's verdict;
                    # the value of a label followed by "once" is the verdict and when to act on it ("Status: REBALANCE once
                    # the quote is in", "Overall: REBALANCE, once the desk confirms the cost")
            tail = masked[end : unit.end]
            if tail.rstrip().rstrip("\"'\u201d\u2019\u00bb\u300d\u300f*_").rstrip().endswith("?") and not re.search(r"[.!;:]", tail):
                return  # a question, also one in quotes ('You asked "should we DECLINE?"')
            if self._an_alternative(before, masked[end : min(unit.end, end + 40)], outcome):
                return  # "INVEST or DECLINE", "INVEST/DECLINE", "between INVEST and DECLINE", "INVEST, DECLINE": no choice made
            # the line's start, looked for at most 400 characters back: on a megabyte line of "walk away from the deal" every
            # outcome looked back to the line's start (quadratic); a quotation's introducer sits closer than that
            line_start = max(masked.rfind("\n", max(0, start - 400), start) + 1, start - 400, 0)
            # "a naive investor would say INVEST", 'my colleague wrote "INVEST"', "Previous answer (wrong): INVEST": never the
            # verdict, at most the runner-up
            pool = set_aside if self._not_the_writers(before, line_start, start) or self._in_other_profile(start) \
                or self._in_other_investor(start) or among_subjects(self, u) or self._withdrawn(end, u) \
                else candidates  # (:mod:`._decided`, :mod:`._subject_tables`, :mod:`._retracted`)
            if level < 3 and (_LABEL_BEFORE.search(masked, max(line_start, start - 60), start) is not None
                              or _CUE_BEFORE.search(masked, max(line_start, start - 60), start) is not None
                              or decision_label_before(masked, line_start, start)):
                level = 3  # the value of a label on its line: "Result: decline.", "Positioning: rotate to government bonds.";
                # or of a decision cue opening a sentence inside it: "... above 1.5x. Decision: pass on it."
            opens = self._opens_closing_sentence(start, u)
            if opens:
                level = max(level, 2)  # "No rebalance this quarter.", "Cut the position and take the profit." closing the answer
            if level < 3 and (masked[start:end].islower() or caseless_unlabelled(before, masked[start:end])) and not (words and words[-1] in _LOWER_OUTCOME_CUE) and not opens \
                    and not stated and answered is None and _PASSIVE_SUBJECT.search(before) is None and _SENT_BACK.search(before) is None \
                    and vw.DECIDER_BEFORE.search(before) is None and not decider_moves_before(before) \
                    and not (phrase and " " in masked[start:end].strip() and last_sentence(self.units, masked, u)):
                return  # a lower-case (or caseless, unlabelled: 投资, 투자) outcome word counts after a cue, opening the closing sentence, as a passive decision
                # ("the deal is declined"), after the one who decides ("the fund will divest", "we would rebalance"), in
                # the answer to a question ("So yes, it's a buy") or, a phrase of several words, in the answer's last sentence
            if _REVISION_CUE.search(before) is not None:
                level = max(level, 4)  # "Revised verdict: DECLINE" after "Final verdict: INVEST": the later revision wins
            if _unsaid(clause[-6:]):
                return  # "I won't say DECLINE", "I can't tell you to INVEST": a refusal to state a verdict names one, states none
            if only_scope(masked, end) and (_negated(words) or any(
                    w in vw.NEGATORS or w == "no" for w in masked[start:end].lower().split()[:-1])):
                return  # "no compramos solo por el dividendo", "we do not buy only for ...": its reasons widened (_acted.py)
            if _LEAN_ON.search(before) is not None:
                return  # "Final verdict: leaning DECLINE, pending ...", "I'd lean INVEST": a lean the writer does not commit to
                # (the gates may still imply it); "I was leaning INVEST, but DECLINE" keeps its DECLINE
            if _negated(words) and _WITHOUT_AFTER.match(masked, end, min(unit.end, end + 12)) is not None:
                return  # "I never add without running the checks", "we don't buy without a margin": the writer's standing
                # rule (the act always comes after the condition), neither this decision nor its opposite
            if _negated(words) or negated_by_prefix(said) or _REFUSED_TO.search(said) is not None \
                    or judged_wrong_before(said, 0, len(said)):  # "it would be a mistake to INVEST" (_judged.py)  # "我不会在这个价位买入": a negating prefix in the run touching the word
                swapped = _swapped(outcome, ix.pass_outcome, ix.fail_outcome)
                if swapped is None:
                    return
                outcome = swapped
            if any(w in vw.MODALS for w in words):
                level -= 1
            if _CONCEDED.search(before) or _LEANT.search(before):
                level -= 2  # "DECLINE, though an optimist would INVEST", "a lower price could turn this into an INVEST";
                # "I was leaning INVEST, but DECLINE": a lean the writer leaves
            if guess:
                level = min(level, 2)  # an outcome guessed from an answer's plain sense: never a closing statement's level
            pool.append((level, start, outcome, (start, end)))

        if ix.outcome_re is not None:
            for _, m in self._scan(ix.outcome_triggers, limit=MAX_OCCURRENCES):
                u = self._unit_at(m.start())
                if u < 0:
                    continue
                word = _outcome_key(m.group(0))
                if word not in ix.outcome_of:
                    word = re.sub(r"_(?:TOWARDS?|INTO)_", "_TO_", re.sub(r"_(?:THE|AN?)_", "_", word))  # "hold the balanced mix",
                    # "tilt toward equities and credit"
                outcome = ix.outcome_of.get(word) or ix.outcome_of.get(word[:-1], "")
                if not outcome or _PROPOSAL_AFTER.match(masked, m.end()):
                    continue  # (not "the size-up request is denied", "the buyback plan": the name of a proposal, not a verdict)
                base = 2 if m.group(0).isupper() else 1
                consider(m.start(), m.end(), outcome, base, u, phrase=True)  # an outcome phrase may close the answer (:mod:`._closing`)
        if has_destinations(self.card):  # "we moved 58% of portfolio risk into commodities and emerging-market equities"
            for start, end, outcome in destination_outcomes(self.card, masked, self._scan(DESTINATION_TRIGGERS, limit=MAX_OCCURRENCES)):
                u = self._unit_at(start)
                if u >= 0:
                    consider(start, end, outcome, 2, u, stated=True)  # the decider's move (:mod:`._destination`)
        # verdict words of real reports ("signal": "bearish", "Rating: BUY"; a bare SELL in the conclusion) that are not
        # the card's own outcome words, mapped to its pass / fail outcome
        synonym_of = ix.synonym_of
        rated: set[int] = set(getattr(self, "json_not_final", ()))  # a JSON gate's own "signal" (:mod:`._json_answer`)
        for _, m in self._scan(ix.rating_triggers, limit=MAX_OCCURRENCES):
            word = vw.synonym_key(m.group("word"))
            u = self._unit_at(m.start("word"))
            if u < 0 or word not in synonym_of or m.start("word") in rated or other_object(masked, m.end("word")) \
                    and not judged_wrong(masked, m.end("word"), self.units[u].end):  # ("acheter serait une erreur": no object)
                continue  # (not "Decision: avoid the crowded trades": a verdict on them)
            rated.add(m.start("word"))
            outcome = synonym_of[word]
            bought = _BUY_LIMIT.match(masked, m.end("word"))
            if outcome == ix.pass_outcome and bought is not None and not limit_met(masked, bought):
                outcome = ix.fail_outcome  # "Recommendation: Buy below $20": a limit under today's price, as for a bare BUY
            consider(m.start("word"), m.end("word"), outcome, 3, u)
        for start, end, outcome, u in getattr(self, "_json_final_fields", lambda: [])():
            consider(start, end, outcome, 3, u)  # '"signal": "neutral"': neither outcome
        for _, m in self._scan(_NEUTRAL_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start("word"))
            line_start = masked.rfind("\n", max(0, m.start() - 40), m.start()) + 1
            if u >= 0 and (line_start or m.start() < 40) and _NEUTRAL_LABEL_OPENS.match(masked, line_start, m.start()):
                consider(m.start("word"), m.end("word"), vw.INCONCLUSIVE, 3, u)  # "Signal: neutral": neither outcome
        for _, m in self._scan(ix.synonym_triggers, limit=MAX_OCCURRENCES):
            word = vw.synonym_key(m.group("word"))
            u = self._unit_at(m.start())
            if u < 0 or word not in synonym_of or m.start() in rated:
                continue
            if masked[m.end() : m.end() + 1] == "-" and masked[m.end() + 1 : m.end() + 2].isalpha():
                continue  # the first half of a compound ("sell-side analysts", "long-term holders", "buy-and-hold"): no rating
            if word in _POSITION_WORDS and _FOLLOWED_BY_WORD.match(masked, m.end()) or other_object(masked, m.end()) \
                    and not judged_wrong(masked, m.end(), self.units[u].end):
                continue  # "Position: long Brazilian real", "short a basket of lenders": the position held, not a rating
            unit = self.units[u]
            alone = not masked[unit.start : m.start()].strip(" \t*_#>-") and not masked[m.end() : unit.end].strip(" \t*_.!")
            lead = [w.lower() for w in _WORDS_APOS.findall(masked, max(unit.start, m.start() - 60), m.start())]
            first_person = self._declining_pass(m.start(), u) and (word.startswith("pass") or not (
                purpose_infinitive(lead) or relative_clause(lead)) and _persons_act(lead))  # not "the proposal to buy", "the
            # group we buy", "the platform would add 12% of capacity"
            shouted = m.group("word").isupper() and len(m.group("word")) >= 3  # "this is an AVOID", "9/9 - BUY."
            bought = _BUY_LIMIT.match(masked, m.end())
            limit = bought is not None
            answered = answer_particle_end(masked, unit.start, m.start())  # "So no, not a buy.": the particle negates nothing
            denied = _negated([w.lower() for w in _WORDS_APOS.findall(masked, max(answered or unit.start, m.start() - 40), m.start())][-4:]) \
                or negated_by_prefix(masked[max(answered or unit.start, m.start() - 40) : m.start()])  # "我不会买入"
            result = is_result(masked, m.start(), m.end())  # "Fast Grower + PEG 0.80 = Buy"
            if not (unit.final or alone or first_person or shouted or limit or denied or result or answered is not None
                    or _LABEL_BEFORE.search(masked, max(unit.start, m.start() - 60), m.start())
                    or _CUE_BEFORE.search(masked, max(unit.start, m.start() - 60), m.start())  # "TL;DR: avoid."
                    or self._opens_closing_sentence(m.start(), u)):
                continue  # a bare BUY or SELL counts in the conclusion, on its own, in capitals, after a label, denied ("not a Graham
                # buy"), as "I'd pass at this price", or opening the closing sentence of a last paragraph that names no gate
                # ("Avoid for now.")
            outcome = synonym_of[word]
            if outcome == ix.pass_outcome and bought is not None and not limit_met(masked, bought):
                outcome = ix.fail_outcome  # "watch - buy < $36", "buy below 3,600": a limit under today's price, not a buy now
                # (a limit above the price the answer states, "trading at $16 ... buy below $17", is a buy now)
            consider(m.start(), m.end(), outcome, 3 if alone or limit or denied or result or (first_person and word.startswith("pass")) else 2, u)
        # "3 of 7 tests passed where all 7 are required", "five of six criteria met": the count decides
        for _, m in self._scan(_COUNT_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u < 0:
                continue
            passed, total = _count(m.group("passed")), _count(m.group("total"))
            required = _count(m.group("required") or "") or (total if m.group("all") or not m.group("required") else None)
            if passed is None or total is None or required is None or passed > total:
                continue
            if re.search(r"(?i)\b(?:must|should|needs?\s+to)\s*\Z", masked[max(0, m.start() - 30) : m.start()]):
                continue  # "a stock must pass 5 of the 7 tests": a rule, not a count
            consider(m.start(), m.end(), ix.pass_outcome if passed >= required else ix.fail_outcome, 3, u)
        for _, m in self._scan(_EVERY_TRIGGERS, limit=MAX_OCCURRENCES):  # "Brightwell passes every tile."
            u = self._unit_at(m.start())
            if u >= 0 and not re.search(r"(?i)\b(?:must|should|needs?\s+to|has\s+to|if|unless|only\s+when)\s*\Z",
                                        masked[max(0, m.start() - 30) : m.start()]) \
                    and not re.match(r"(?i)[^.;\n]{0,30}?\b(?:except|but|save|bar|other\s+than|apart\s+from)\b", masked[m.end() : m.end() + 40]):
                consider(m.start(), m.end(), ix.pass_outcome, 3, u)  # weighed as the count "7 of 7 tests passed"
        # "I wouldn't touch it", "steer clear", "this is a buy": idioms of real reports for the card's fail / pass outcome
        # (at most the first and the last 100 are weighed: an idiom closes an answer, and a megabyte of "this is a buy" would
        # otherwise weigh every one)
        idioms = self._scan(vw.FINAL_IDIOM_TRIGGERS, limit=MAX_OCCURRENCES)
        if len(idioms) > _IDIOM_PLACES:
            idioms = idioms[: _IDIOM_PLACES // 2] + idioms[-(_IDIOM_PLACES // 2) :]
        for _, m in idioms:
            u = self._unit_at(m.start())
            if u < 0:
                continue
            failing = m.group("fail") is not None
            bought = _BUY_LIMIT.match(masked, m.end())
            if not failing and bought is not None and not limit_met(masked, bought):
                failing = True  # "it is a buy below $40": a limit under today's price, as for a bare BUY
            # an idiom that names its decider ('we stay on the sidelines', 'the fund is selling') or can only be a verdict
            # ('the too-hard pile') counts in lower case anywhere
            stated = vw.SELF_STATED.match(masked, m.start()) is not None or vw.SELF_STATED.search(m.group(0)) is not None
            consider(m.start(), m.end(), ix.fail_outcome if failing else ix.pass_outcome, 1, u, stated)
        for _, m in self._scan(_PASSIVE_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start("word"))
            outcome = ix.outcome_of.get(m.group("word").upper()) or ix.outcome_of.get(m.group("word").upper() + "E")
            if u >= 0 and outcome and _PASSIVE_SUBJECT.search(masked, max(0, m.start() - 6), m.start("word")):
                consider(m.start("word"), m.end(), outcome, 1, u)  # "the deal is declined unless it is re-booked"
        for _, m in self._scan(_ANSWER_YES_NO_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start("answer"))
            if m.re is ANSWER_LABEL and not own_answer(masked, m):
                continue  # not "The previous analyst's decision: no." or "Bottom line: yes, but only below $20"
            if u >= 0:  # "the answer is no": the card's fail outcome ("yes": its pass outcome), or the other outcome than the
                # one the question before it names ("Should we DECLINE? The answer is no.")
                pair, asked = (ix.pass_outcome, ix.fail_outcome), asked_outcome(masked, m.start(), (ix.pass_outcome, ix.fail_outcome))
                said = 1 if m.group("answer").lower() == "no" else 0
                # a question naming neither outcome nor an act ("Is it time to worry? The answer is no.") leaves the
                # answer's polarity unknown: the plain sense is a guess, read weak (break42 #15)
                unknown = asked is None and question_before(masked, m.start()) is not None
                consider(m.start("answer"), m.end("answer"), pair[said if asked is None else asked ^ said], 3, u, guess=unknown)
        if ix.pass_outcome == "INVEST":  # a buy decision: "Should you buy? No." (:mod:`._closing`)
            for _, m in self._scan(QUESTION_TRIGGERS, limit=MAX_OCCURRENCES):
                u, says = self._unit_at(m.start("answer")), buying_answer(masked, m)
                if u >= 0 and says is not None:
                    consider(m.start("answer"), m.end("answer"), ix.pass_outcome if says else ix.fail_outcome, 3, u, stated=True)
        for key, m in self._scan(vw.ACTION_TRIGGERS, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0 and not (m.group(0)[:5].lower() == "avoid" and other_object(masked, m.end() - 4)):  # not "avoid the hype"
                consider(m.start(), m.end(), ix.fail_outcome if key == 0 else ix.pass_outcome, 1, u)
        for start, end, outcome, u, stated in self._stated_decisions():
            consider(start, end, outcome, 1, u, stated)  # "So we bought in.", "goes into the model portfolio" (:mod:`._decided`)
        for start, end, outcome, u, stated in self._acted_decisions():
            consider(start, end, outcome, 1, u, stated)  # "hold Spinwell", "idea shelved", "Status: approved" (:mod:`._acted`)
        stages = set(getattr(self, "json_not_final", ()))
        tallies = self._tally_sentences()
        for hit in self.hits:
            if hit.start in stages:
                continue  # a JSON stage's own "passed": true (:mod:`._json_answer`)
            if hit.unit in tallies:
                continue  # "条件 1、2 满足，条件 3 不满足": criteria marked met and unmet in one sentence are a tally, no decision
            unit = self.units[hit.unit]
            token = masked[hit.start : hit.end]
            own = ix.own_verdict_words.get(token.upper())
            if own is not None:  # "Final verdict: PASS" on a card whose outcome is PASS: the card's word, not a gate's PROCEED
                if unit.final and not self._tight_owner(hit, hit.unit) and not self._an_alternative(
                        masked[max(unit.start, hit.start - 80) : hit.start], masked[hit.end : min(unit.end, hit.end + 40)], own):
                    level = (3 if not self._has_outcome_word(hit.unit) else 2) + self._after_final_cue(hit.unit, hit.start)
                    candidates.append((level, hit.start, own, (hit.start, hit.end)))
                elif own == ix.fail_outcome and _FINAL_PASS_WORD.fullmatch(token) and self._labelled_decline(hit.start, hit.end, unit.final):
                    others = label_of_another(masked, max(masked.rfind("\n", max(0, hit.start - 400), hit.start) + 1, hit.start - 400, 0), hit.start)
                    (set_aside if others else candidates).append(
                        (3 + self._after_final_cue(hit.unit, hit.start), hit.start, own, (hit.start, hit.end)))
                    # "Verdict: pass." after the gates on a card whose fail outcome is PASS: its outcome (NEWUSER_s61 N7)
                continue
            if _FINAL_PASS_WORD.fullmatch(token) and self._labelled_decline(hit.start, hit.end, unit.final):
                others = label_of_another(masked, max(masked.rfind("\n", max(0, hit.start - 400), hit.start) + 1, hit.start - 400, 0), hit.start)
                (set_aside if others else candidates).append(  # ("Decision for the bears: pass.": theirs, :mod:`._label_owner`)
                    (3 + self._after_final_cue(hit.unit, hit.start), hit.start, ix.fail_outcome, (hit.start, hit.end)))
                continue  # "Verdict: Pass." on a buy decision: the investor declining
            if not unit.final or among_subjects(self, hit.unit):
                continue  # (a mark in one subject's row of a table of subjects: :mod:`._subject_tables`)
            if hit.word.sense or _FINAL_PASS_WORD.fullmatch(token) or self._level(hit) < vw.COMMITTED or token.islower() and other_object(masked, hit.end):
                continue  # "Final verdict: PASS" may mean "pass on it"; "Decision: avoid the crowded trades" is about them
            mapped = {vw.PROCEED: ix.pass_outcome, vw.REJECT: ix.fail_outcome, vw.INCONCLUSIVE: vw.INCONCLUSIVE}.get(hit.verdict)
            if mapped is None:
                continue
            if self._tight_owner(hit, hit.unit):
                continue  # "gate 5 REJECT" inside the conclusion is about gate 5
            if self._an_alternative(masked[max(unit.start, hit.start - 80) : hit.start], masked[hit.end : min(unit.end, hit.end + 40)], mapped):
                continue  # "INVEST, DECLINE or INCONCLUSIVE": the outcomes listed, none chosen
            level = (3 if not self._has_outcome_word(hit.unit) else 2) + self._after_final_cue(hit.unit, hit.start)
            candidates.append((level, hit.start, mapped, (hit.start, hit.end)))
        # "pass" after would/will at the end of a clause is the investor passing on the deal.
        for _, m in self._scan(_PASS_AT_END, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0 and self._declining_pass(m.start(), u):
                consider(m.start(), m.end(), ix.fail_outcome, 1, u)
        if ix.pass_outcome == "INVEST":  # "So: great spinoff, wrong time. I passed, and I'd pass again."
            for _, m in self._scan(_PASSED_AT_END, limit=MAX_OCCURRENCES):
                u = self._unit_at(m.start())
                if u >= 0 and _PASSED_SUBJECT.search(masked, max(self.units[u].start, m.start() - 24), m.start()) \
                        and not past_time(masked, self.units[u].start, min(self.units[u].end, m.end() + 40), "act"):  # "We passed on it back in 2016"
                    consider(m.start(), m.end(), ix.fail_outcome, 1, u, stated=True)
        candidates = writers_over_pasted(candidates, set_aside, pasted_blocks(masked))  # "**Actual behavior**" over a
        # bot's fenced "action: REBALANCE", then "We hold this quarter": the writer's own verdict wins (_pasted_output.py)
        if not candidates:
            closing = self._closing_verdict()
            if closing is None:
                return None, None
            candidates.append(closing)
        candidates = self._value_after_cue_wins(candidates)
        top = max(c[0] for c in candidates)
        level, _, outcome, span = max((c for c in candidates if c[0] == top), key=lambda c: c[1])
        self.final_reading = self._final_reading(candidates, set_aside, outcome, span)
        return outcome, span
