"""Tests on one outcome word of the final region (paper §7.5): is it a condition, a refusal to say, one side of an
unresolved alternative, another voice's, a decline labelled "Pass", a later elaboration after a final cue?

Split out of :mod:`._final` (which gathers the candidates and chooses among them); every test here takes the masked
text and character offsets (``start``/``end`` into ``self.masked``) or a clause's lower-case words.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._card import _outcome_key
from ipb.scoring.parse._common import _WORDS_APOS
from ipb.scoring.parse._label_owner import label_of_another
from ipb.scoring.parse._final_words import (
    _ALT_AFTER, _ALT_BEFORE, _ALT_BETWEEN, _CORRECTION_BETWEEN, _NO_BETWEEN, _REVISION_CUE, _DECLINE_LABEL_BEFORE, _DECLINE_PASS_END, _LIST_AFTER,
    _LIST_BEFORE, _PASS_SUBJECT,
)
from ipb.scoring.parse._pass_sense import _CHAIN, _DECISION, _PERSONS, declines
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._verdicts import _clause_start
from ipb.scoring.parse._verdict_clauses import SELF_REPAIR
from ipb.scoring.parse._attributed import quoted_speaker
from ipb.scoring.parse._voice import OTHER_VOICE, RETRACTED_LABEL, VOICE_WORDS, quoted_by_other, urged_by_other

#: A blank line ending right before a line's start; a paragraph break; a character of text (not markup or space).
_BLANK_BEFORE = re.compile(r"\n[ \t]*\n\Z")
#: A short title line right above, itself opening a paragraph ("\n\n4. Takeaway\n", "## Bottom line\n"): the line under it
#: opens that section's first paragraph as a line after a blank one does.
_HEADING_BEFORE = re.compile(r"(?:\A|\n[ \t]*\n)[ \t]*(?:#{1,6}[ \t]+|\d{1,2}(?:\.\d{1,2})?[.)]?[ \t]+)?[*_]{0,2}"
                             r"[A-Z][^\n.!?:;|]{0,40}?[*_]{0,2}[ \t]*\n\Z")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_TEXT_CHAR = re.compile(r"[^\s*_#>-]")



#: Verbs of stating a verdict: negated before an outcome word ("won't say", "can't tell you to"), the outcome is not stated.
_SAYING = frozenset("say tell give state provide offer declare pick choose name".split())


#: Verbs of advising: after a denied ability ("not able to recommend", "unable to advise"), the outcome is not stated.
_ADVISING = frozenset("recommend advise suggest endorse".split())
#: A denied ability or permission right before a verb of advising: "am not able to", "unable to", "not in a position to",
#: "not allowed to", "not permitted to" (s48user: "As an AI language model I am not able to recommend shorting a
#: company." read SHORT, the word the refusal names; "I would not recommend shorting" stays a negated decision).
_UNABLE = re.compile(r"(?:\bnot|n't|n’t)[ ](?:able|allowed|permitted|in[ ]a[ ]position)[ ]to[ ]\Z|\bunable[ ]to[ ]\Z")


def _unsaid(words: list[str]) -> bool:
    """Whether a negator precedes a verb of stating among ``words`` (the clause's last words before an outcome word),
    or a denied ability precedes a verb of advising ("not able to recommend", "unable to advise").

    >>> _unsaid(["i", "am", "not", "able", "to", "recommend"]), _unsaid(["not", "in", "a", "position", "to", "recommend"])
    (True, True)
    >>> _unsaid(["i", "would", "not", "recommend"]), _unsaid(["i", "am", "able", "to", "recommend"])
    (False, False)
    """
    neg = next((i for i, w in enumerate(words) if w in vw.NEGATORS or w.endswith("n't") or w.endswith("n’t")
                or w == "cannot"), None)
    if neg is not None and any(w in _SAYING for w in words[neg + 1 :]):
        return True
    return any(w in _ADVISING and _UNABLE.search(" ".join(words[:i]) + " ") is not None for i, w in enumerate(words))


#: A screen's own result field reading PASS ("Screen result: PASS", '"screen_result": "PASS"'): beside it, a
#: recommendation's "PASS" in capitals is the screen passed, not the decline.
_SCREEN_PASSED = re.compile(r"(?i)\bscreen(?:ing)?[ \t_-]*(?:result|outcome|status|verdict)[\"']?[ \t]*[:=][ \t]*[\"']?(?-i:PASS)\b")


#: "should" opening its clause, after at most a conjunction: the inverted condition "Should the price halve, ..." (after
#: its subject, "the student should pass on it", "we should sell", it states a duty, not a condition).
_INVERTED_SHOULD = re.compile(r"(?i)(?:^|[,;:(\u2014\u2013.!?]|\b(?:and|but|or|so|then|yet))[ \t*_>-]*should\b")


def _hypothetical(words: list[str], text: str) -> bool:
    """Whether the clause words before an outcome (``words``, lower case; ``text`` the same stretch) make it a condition:
    a conditional word ("if", "unless", "were"), or "should" opening its clause (inverted, "Should it fall 30%, buy").

    >>> _hypothetical(["the", "student", "should"], "the student should "), _hypothetical(["should", "it", "fall"], "Should it fall ")
    (False, True)
    """
    if any(w in vw.CONDITIONALS and w != "should" for w in words):
        return True
    return "should" in words and _INVERTED_SHOULD.search(text) is not None


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})


def _plain_apostrophes(words: list[str]) -> list[str]:
    """``words`` with every apostrophe written "'" and a contraction split at a typographic one joined again ("wouldn",
    "\u2019", "t" -> "wouldn't"), so that "I wouldn\u2019t hesitate to buy" reads as with "'" (s38break).

    >>> _plain_apostrophes(["i", "wouldn", "\u2019", "t", "hesitate", "to"]), _plain_apostrophes(["i", "wouldn", "t"])
    (['i', "wouldn't", 'hesitate', 'to'], ['i', "wouldn't"])
    """
    out: list[str] = []
    for w in (w.translate(_APOSTROPHES) for w in words):
        if w == "'" and out:
            continue
        if w == "t" and out and out[-1].endswith("n"):
            out[-1] += "'t"
            continue
        out.append(w)
    return out


def _persons_act(words: list[str]) -> bool:
    """Whether the act after ``words`` (its clause before it, lower case) is a person's: past the chain of auxiliaries
    and adverbs (:mod:`._pass_sense`) stands the writer, an investor, no subject at all ("would buy") or a decision word;
    "the platform would add 12% of capacity" is the platform's, no rating.

    >>> _persons_act(["we", "would"]), _persons_act(["would"]), _persons_act(["the", "platform", "would"])
    (True, True, False)
    """
    words = _plain_apostrophes(words)
    i = len(words)
    while i > 0 and words[i - 1] in _CHAIN:
        i -= 1
    # (a person anywhere in the clause: "I wouldn't hesitate to buy", whose "hesitate" is no auxiliary -- s38break)
    return i == 0 or words[i - 1] in _PERSONS or not _PERSONS.isdisjoint(words) or not _DECISION.isdisjoint(words[i:]) \
        or not words[i - 1].isalpha()


def _swapped(outcome: str, pass_outcome: str, fail_outcome: str) -> str | None:
    """The other side of a negated or refused outcome: the pass outcome for the fail one and back; None for any other."""
    return {pass_outcome: fail_outcome, fail_outcome: pass_outcome}.get(outcome)


class _FinalChecksMixin(_ParserState):
    """The per-word tests of :class:`._final._FinalVerdictMixin` (they read ``self.masked``, ``self.units``, ``self.ix``)."""

    def _value_after_cue_wins(self, candidates: list[tuple[int, int, str, Span]]) -> list[tuple[int, int, str, Span]]:
        """In one sentence after a final cue, the first outcome stated is the verdict; a later, different outcome of the
        same sentence elaborates it ("Recommendation: increase risk, moving the book toward aggressive" is
        INCREASE_RISK) and drops one level, unless a corrective "not" or "rather than" stands between them."""
        first: dict[int, tuple[int, str, int]] = {}
        for level, pos, outcome, span in sorted(candidates, key=lambda c: c[1]):
            if level >= 4:
                first.setdefault(self._unit_at(pos), (pos, outcome, span[1]))
        out = []
        for c in candidates:
            level, pos, outcome, _ = c
            lead = first.get(self._unit_at(pos)) if level >= 4 else None
            if lead is not None and lead[0] < pos and lead[1] != outcome \
                    and _CORRECTION_BETWEEN.search(self.masked, lead[0], pos) is None \
                    and SELF_REPAIR.search(self.low, lead[0], pos) is None \
                    and _NO_BETWEEN.fullmatch(self.low, lead[2], pos) is None \
                    and _REVISION_CUE.search(self.masked, lead[0], pos) is None:  # "INVEST — I mean DECLINE", "INVEST — on
                # reflection, DECLINE": the writer repairs the first word, the later one is the verdict (s45break 11)
                c = (level - 1, pos, outcome, c[3])
            out.append(c)
        return out

    def _declining_pass(self, start: int, u: int) -> bool:
        """Whether "pass" at ``start`` (in sentence ``u``) is the investor declining, not a gate passed (:mod:`._pass_sense`)."""
        if _PASS_SUBJECT.search(self.masked, max(0, start - 12), start) is None:
            return False
        before = self.masked[max(self.units[u].start, start - 90) : start]
        return declines(_WORDS_APOS.findall(before.lower(), _clause_start(before) + 1))

    def _labelled_decline(self, start: int, end: int, final: bool) -> bool:
        """Whether "pass" at ``start:end`` is the value of a final decision label on a buy decision (or on a card whose
        fail outcome is PASS), in sentence or lower
        case and closing its sentence: "Verdict: Pass.", "Decision: pass for now" (a decline); not "Final verdict: PASS".

        The label's scope decides between the decision and a gate: the label is the decision's when its sentence is in
        the final region (``final``) or when it opens the answer's closing paragraph (a blank line or a short title line
        opening the paragraph before its line, no text after that paragraph); a "Verdict: Pass" line inside a gate's section is that gate's PROCEED.
        """
        masked = self.masked
        if not (self.ix.pass_outcome == "INVEST" or self.ix.fail_outcome == "PASS") or _DECLINE_PASS_END.match(masked, end) is None:
            # (a buy decision; or a card whose own fail outcome is PASS: "Verdict: pass." is its outcome, NEWUSER_s61 N7)
            return False
        label = _DECLINE_LABEL_BEFORE.search(masked, max(0, start - 60), start)
        if label is None or masked[start:end].isupper() and label.group("advice") is None:
            return False  # "Verdict: PASS" in capitals may be a checklist's; "Recommendation: PASS" is the action of not buying
        if label.group("advice") is not None and masked[start:end].isupper() and _SCREEN_PASSED.search(masked) \
                and not any(masked[h.start : h.end] == "FAIL" for h in self.hits):
            return False  # "Screen result: PASS / Recommendation: PASS", no test marked FAIL: the screen's own word
        if final or label.group("advice") is not None:
            return True  # (a recommendation is the answer's, wherever it stands: '"summary": {"recommendation": "PASS"}')
        line_start = masked.rfind("\n", 0, label.start() + 1) + 1
        if not (line_start == 0 or _BLANK_BEFORE.search(masked, max(0, line_start - 8), line_start) is not None
                or _HEADING_BEFORE.search(masked, max(0, line_start - 60), line_start) is not None):
            return False
        after = _PARAGRAPH_BREAK.search(masked, end)  # (the next paragraph break: near, where paragraphs repeat)
        return after is None or _TEXT_CHAR.search(masked, after.end()) is None

    def _not_the_writers(self, before: str, line_start: int, start: int) -> bool:
        """Whether an outcome word at ``start`` is someone else's or withdrawn (:mod:`._voice`): another reader's view
        in its clause, a quotation introduced by a reporting verb, an act another urges or wants done, the value of a label naming another
        party or time (:mod:`._label_owner`), or the value of a label marking it superseded."""
        masked = self.masked
        clause = _clause_start(before) + 1
        if not VOICE_WORDS.isdisjoint(w.lower() for w in _WORDS_APOS.findall(before, clause)) \
                and OTHER_VOICE.search(before, clause) is not None:
            return True
        if quoted_by_other(masked, line_start, start) or urged_by_other(before[clause:]):
            return True  # (an act another wants done: "strategists urge clients to cut risk", "critics want us to sell")
        if quoted_speaker(self.low, line_start, start):
            return True  # 'The bank writes: "Decision: INVEST"', „Kaufen“, «comprare»: a quotation another speaker opens
        if label_of_another(masked, line_start, start):
            return True  # the value of a label naming another party or time: "Decision for the bears:", "Their verdict:"
        return RETRACTED_LABEL.search(masked, line_start, start) is not None

    def _an_alternative(self, before: str, after: str, outcome: str | None = None) -> bool:
        """Whether an outcome word is one side of an unresolved alternative with another outcome word:
        "INVEST or DECLINE", "DECLINE/INVEST", "neither INVEST nor DECLINE", "between INVEST and DECLINE", or an item of
        a comma list of the card's outcomes ("INVEST, DECLINE, INCONCLUSIVE": every outcome listed is no choice)."""
        outcome_of, synonym_of = self.ix.outcome_of, self.ix.synonym_of
        for m in (_LIST_AFTER.match(after), _LIST_BEFORE.search(before)):
            other = outcome_of.get(_outcome_key(m.group("word"))) if m is not None else None
            if other is not None and other != outcome:
                return True

        def verdictive(word: str) -> bool:  # an outcome word, or a word of the synonym table ("buy or sell")
            return _outcome_key(word) in outcome_of or vw.synonym_key(word) in synonym_of

        m = _ALT_AFTER.match(after)
        if m is not None and verdictive(m.group("word")):
            return m.group("join").lower() != "and" or _ALT_BETWEEN.search(before) is not None
        m = _ALT_BEFORE.search(before)
        if m is not None and verdictive(m.group("word")):
            return m.group("join").lower() != "and" or _ALT_BETWEEN.search(before[: m.start()] + " ") is not None
        return False

    def _after_final_cue(self, u: int, pos: int) -> bool:
        """Whether ``pos`` follows a final cue in its own sentence: "Final verdict: INVEST" outranks a later
        "Some investors would DECLINE" of the final region."""
        cue = self.final_cue_at.get(u)
        return cue is not None and cue < pos

    def _has_outcome_word(self, u: int) -> bool:
        """Whether sentence ``u`` holds one of the card's outcome words (searched once per sentence)."""
        known = self.outcome_units.get(u)
        if known is None:
            unit = self.units[u]
            known = self.ix.outcome_re is not None and self.ix.outcome_re.search(self.masked, unit.start, unit.end) is not None
            self.outcome_units[u] = known
        return known
