"""Verdicts given as answers to a label: "Pass? No", a Yes / No cell of a "Pass?" column, a regime named by a classifying gate.

These are found beside the verdict vocabulary (:mod:`ipb.scoring.verdict_words`) and become verdict words
(:class:`._common._Hit`) that :mod:`._verdicts` judges and ranks like the rest.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Trigger, normalize
from ipb.scoring.parse._common import MAX_OCCURRENCES, _Evidence, _Hit, _Mention
from ipb.scoring.parse._regime_words import placed
from ipb.scoring.parse._question_columns import question_polarity
from ipb.scoring.parse._types import Span
from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring.parse._state import _ParserState

#: Table columns whose Yes / No cells are gate verdicts: "Pass?", "Meets the test?" / "Fail?", "Triggered?".
_PASS_COLUMN = re.compile(r"(?:pass(?:ed|es)?|meets?(?: (?:the )?(?:test|criterion|criteria|threshold))?|met|satisfied|cleared?|clears)")
_FAIL_COLUMN = re.compile(r"(?:fail(?:ed|s)?|killed|kill(?: criterion)?(?: triggered)?|triggered|rejected|"
                          r"(?:signal |indicator |warning |red flag |flag )?(?:present|flashing|flashes|lit|on)|breach(?:ed)?|"
                          # a column asking whether a failure was found: "Disqualifying signal found?", "Red flags present?",
                          # "Deal-breaker?", "Fatal flaw identified?" ("yes" is the gate failed, "no" the gate cleared)
                          r"(?:any )?(?:disqualif(?:ier|ied|ying(?: (?:signal|factor|flag|issue|finding|risk|sign))?)|red flag|"
                          r"warning sign|deal ?breaker|fatal (?:flaw|risk|issue)|kill (?:signal|switch|trigger))s?"
                          r"(?: (?:found|present|detected|spotted|seen|observed|triggered|fired|raised|flagged|hit|identified))?)")
#: A cell's answer word, alone or before its detail: "Yes", "No (price above value)", "No - losses in 2009".
#: Yes and no in other languages (:mod:`ipb.scoring._foreign_verdicts`: "Ja", "Non", "Sí", "Não", "Có", "是", "否", "はい").
_FOREIGN_YES = frozenset(_fv.YES_WORDS)
_FOREIGN_ANSWERS = "|".join(sorted((re.escape(w) for w in (*_fv.YES_WORDS, *_fv.NO_WORDS)), key=len, reverse=True))
_CELL_ANSWER = re.compile(r"[ \t*_`]*(yes|no|y|n|" + _FOREIGN_ANSWERS + r")(?:\b|(?<=[" + _fv.UNSPACED_CHARS + r"]))"
                          r"[ \t*_`.!\u3002]*(?:$|[(,;:\u2014\u2013\uff08\uff0c\uff1b\uff1a-]|\|)", re.I)
_YES_PROCEED = vw.VerdictWord(r"(?i:yes|y)", vw.PROCEED, ("yes", "y"), negatable=False)
_YES_REJECT = vw.VerdictWord(r"(?i:yes|y)", vw.REJECT, ("yes", "y"), negatable=False)
_REGIME_NAMED = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False)
_ANSWER_UNKNOWN = vw.VerdictWord(r"(?i:unknown|unclear|n/?a)", vw.INCONCLUSIVE, ("unknown", "unclear"), negatable=False)
#: "Pass? Yes", "Meets the test? No", "Kill criterion triggered? No", "Fails? Unknown" (a label with its answer, in prose).
_ANSWERED = re.compile(
    r"(?i)\b(?:(?P<pass>pass(?:es|ed)?|met|meets?(?:\s+(?:the\s+)?(?:test|criterion|bar|threshold))?|satisfied|cleared?|"
    r"eligible|permitted|allowed|compliant|acceptable|aligned|qualif(?:y|ies|ied)|in\s+scope|within\s+(?:the\s+)?(?:universe|mandate|limits?))"
    r"|(?P<fail>fail(?:s|ed)?|killed|kill(?:\s+criterion)?(?:\s+(?:triggered|fired|hit))?|triggered|red\s+flag|"
    r"(?:signal|indicator|warning)\s+(?:present|flashing|lit|on)|flashing|"
    # a label that names the failure the gate looks for: "Story broken? No", "Broken story? No", "Sell signal fired? Yes"
    r"(?:broken|deteriorat(?:ed|ing)|breached|violated|tripped|fired|excluded|exclusion|divest(?:ed|ment)|restricted|restriction|"
    r"sanctioned|sell[ \t]+signal)(?:[ \t]+[a-z]+){0,2}))"
    r"\?[ \t]*[:\u2014-]?[ \t]*\**[ \t]*(?P<answer>yes|no|unknown|unclear|true|false|"
    # "Broken story? Not broken.", "Kill switch tripped? Not at all."
    r"not(?=[ \t]+(?:at[ \t]+all|really|broken|deteriorated|breached|violated|tripped|fired|triggered|hit)\b))\b"
)
#: A checklist line's open mark: a "?" before the line's words, alone or after a list marker or another mark
#: ("? P/E: 14.1x on a year with a one-off gain", "- ? Dividend record: 19 of 20 years found"): INCONCLUSIVE (hedged, as
#: the question-mark emoji), read with its detail like any status icon.
_OPEN_MARK = re.compile(r"[ \t>]*(?:(?:[-*+\u2022]|\d{1,3}[.)])[ \t]+)?(?:[\u2705\u2714\u2713\u2611\u274c\u2717\u2718\u2716\u26a0\ufe0f][ \t]*)?"
                        r"(?P<mark>\?)(?=[ \t]+[^\s?])")
_WORD = re.compile(r"[a-z0-9]+")
_OPEN_MARK_WORD = vw.VerdictWord(r"\?", vw.INCONCLUSIVE, ("?",), strength=vw.HEDGED, negatable=False)
#: A question's answer right after its "?": "Understandable business? Yes: it sells glue.", "Durable moat? No - ..." (a Yes or No
#: closed by punctuation or the line's end, so "No one asked" is no answer), "Fair price? Unknown until ..."; "not yet" is unknown.
#: The answer may open the next line, under a question that ends its own (a heading asked as a question, the writer's
#: answer below it: "Is the risk actually balanced?\nNo. The stock sleeve ..."); one line break at most, so an answer
#: is never read across a blank line.
_QUESTION_ANSWER = re.compile(r"[?\uff1f][ \t]*[*_]{0,2}[ \t]*(?:\n[ \t>]*(?:[-*+\u2022][ \t]+)?[*_]{0,2}[ \t]*)?(?:(?P<answer>yes|no|sure|absolutely|definitely|certainly|nope|not\s+yet|"
                              r"not\s+really|" + _FOREIGN_ANSWERS + r")"
                              r"[*_]{0,2}(?=[ \t]*(?:[.,;:!)\u2014\u2013\u3002\uff0c\uff1b\uff1a\uff01-]|$))|(?P<unknown>unknown|unclear)\b)", re.I | re.M)
#: In the paragraph under a question that ends its line: a Yes or No opening a sentence and closed by punctuation, the
#: writer's answer to the heading ("Is the risk actually balanced?" ... "No. Measured by volatility ..."); only the
#: first :data:`_BODY_SPAN` characters of the paragraph are searched.
_BODY_ANSWER = re.compile(r"(?:^|(?<=\n)|(?<=[.!;:][ \t])|(?<=[.!;:][ \t]{2}))[ \t>*_]*(?P<answer>yes|no)[*_]{0,2}"
                          r"(?=[ \t]*[.,;:!\u2014\u2013-])")
_BODY_SPAN = 800
#: A question that ends its line, with nothing after its "?" (a heading asked as a question); its "?" is group "q".
_HEADING_QUESTION = re.compile(r"(?P<q>\?)[ \t*_]*$", re.M)
_QUESTION_TRIGGERS = [Trigger("?", _QUESTION_ANSWER, word=False), Trigger("\uff1f", _QUESTION_ANSWER, word=False)]
_YES_WORDS = frozenset({"yes", "sure", "absolutely", "definitely", "certainly"}) | _FOREIGN_YES
#: The answers to a gate's name asked as a question, as verdict words (their own objects, so :meth:`._verdicts._evidence`
#: gives them to the question's gate whatever section the answer's sentence falls in).
_QUESTION_YES = vw.VerdictWord(r"(?i:yes)", vw.PROCEED, ("yes",), negatable=False)
_QUESTION_NO = vw.VerdictWord(r"(?i:no)", vw.REJECT, ("no",), negatable=False)
_QUESTION_UNKNOWN = vw.VerdictWord(r"(?i:unknown)", vw.INCONCLUSIVE, ("unknown",), negatable=False)
#: The same answers to a question that asks whether a gate's failure holds ("Does a product-based criterion apply? No.",
#: "Are purchases financed by excessive leverage? Sure."): Yes is its REJECT, No its PROCEED.
_FAILURE_YES = vw.VerdictWord(r"(?i:yes)", vw.REJECT, ("yes",), negatable=False)
_FAILURE_NO = vw.VerdictWord(r"(?i:no)", vw.PROCEED, ("no",), negatable=False)
QUESTION_ANSWERS = frozenset({_QUESTION_YES, _QUESTION_NO, _QUESTION_UNKNOWN, _FAILURE_YES, _FAILURE_NO})
#: The answers to a line-opening question that names no gate, until the question is found to open a gate's section.
_LINE_YES = vw.VerdictWord(r"(?!)", vw.INCONCLUSIVE, (), strength=vw.HEDGED, negatable=False)
_LINE_NO = vw.VerdictWord(r"(?!)", vw.INCONCLUSIVE, (), strength=vw.HEDGED, negatable=False)
#: Words by which a question asks about a failure, for a gate with both a pass and a fail test ("Has the Council
#: recommended exclusion?", "Story broken?", "P/E far above the growth rate?", "Is the price excessive?").
_FAILURE_ASKED = re.compile(r"\b(?:broken|deteriorat\w*|breach\w*|violat\w*|tripped|triggered|exclu\w+|divest\w*|restrict\w*|"
                            r"sanction\w*|sell[ \t]+signal|far[ \t]+above|excessive\w*|unsustainable|overvalued|overpriced|"
                            r"too[ \t]+(?:expensive|rich|high|much)|red[ \t]+flags?|warning|fail\w*|kill\w*)\b")
#: Words by which a question asks whether a criterion is *not* met, with no failure word of the screen itself: an
#: appraisal of the wrong kind ("Is the company over-leveraged?", "Is the balance sheet weak?", "Is the moat eroding?",
#: "Has the dividend been cut?", "Is the stock too expensive?"). A Yes to such a question fails the gate even when the
#: gate's name states its pass condition (issue 13, negatively phrased questions; s24fresh "still trips").
_FAILURE_SENSE = re.compile(r"\b(?:weak(?:er|ening|ened)?|poor(?:ly)?|over-?(?:leveraged|levered|indebted|extended|stretched|valued|"
                            r"priced|borrowed)|insufficient|inadequate|unstable|erratic|erod(?:ing|ed)|declin(?:ing|ed)|"
                            r"shrink(?:ing)?|shrunk|unprofitable|fragile|distressed|impaired|dilut(?:ive|ed)|"
                            r"dishonest|untrustworthy|unreliable|incompetent|lacks?|lacking|cut|suspended|slashed|deficits?|losses|"
                            r"loss[ \t-]+(?:years?|making)|default(?:s|ed)?|missed|"
                            r"too[ \t]+(?:small|leveraged|indebted|volatile|cyclical|risky|costly|dear|thin|weak|little|few|short|"
                            r"erratic|uncertain))\b")
#: Before a failure word in its question: the question asks that the failure does not hold ("Is the debt not excessive?",
#: "Is the company free of dilution?"), so a Yes passes.
_NEGATED_ASK = re.compile(r"\b(?:not|never|no|free[ \t]+(?:of|from)|without|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|"
                          r"hasn't|haven't)\b")
#: A list item or line that opens with a question: "1. Is the company ...?", "- Do insiders have a real stake ...?",
#: "Q3. Are ...?", "Gate 2 - Does ...?".
_LINE_QUESTION = re.compile(r"[ \t>]*(?:(?:[-*+\u2022]|\(?\d{1,3}[.):]|[a-z][.)])[ \t]+)?[*_]{0,2}[ \t]*"
                            r"(?:(?:q|question|gate|test|step|check|criterion)[ \t]*\d{1,2}[*_]{0,2}[ \t]*[:.)\u2014\u2013-]?[ \t]*[*_]{0,2}[ \t]*)?"
                            r"(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b[^?\n]{3,200}\Z")
#: What may stand before a question that opens with a gate's name: a list marker or nothing.
_ITEM_MARKER = re.compile(r"[ \t>]*(?:(?:[-*+\u2022]|\(?\d{1,3}[.):]|[a-z][.)])[ \t]+)?[*_]{0,2}[ \t]*")
#: Words that may open a gate's name asked as a question ("Durable advantage?", "Is there a durable advantage?", "Does the
#: company have a durable competitive advantage?"); any other word before the name makes it a question of another shape.
_QUESTION_OPENERS = frozenset({"is", "are", "was", "there", "a", "an", "the", "any", "do", "does", "we", "have", "has", "it", "its", "can",
                               "company", "business", "firm", "stock", "this", "you", "earn", "show"})
#: A label naming a condition a gate watches for ("Stalwart target", "Price limit", "Drift threshold"), and a sentence that
#: says, alone, it does not hold ("Not reached.", "Not hit yet.", "Not met."): the gate's named condition is unmet.
_CONDITION_LABEL = re.compile(r"(?i)\b(?:target|threshold|trigger|limit|objective|goal|hurdle|cap|ceiling|floor)s?[ \t*_]*\Z")
_UNMET_ALONE = re.compile(r"(?i)(?:not|never)[ \t]+(?:yet[ \t]+)?(?:reached|hit|met|breached|triggered)(?:[ \t]+yet)?(?=[ \t]*(?:[.;!)]|$))",
                          re.M)
#: The condition said not to hold (a sense word: PROCEED for a gate whose condition is its kill, flipped by the parser for a
#: gate whose condition lets it PROCEED, as :data:`ipb.scoring.verdict_words` "No trigger").
CONDITION_UNMET = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False, sense=True)
_ANSWERED_TRIGGERS = [Trigger(w, _ANSWERED) for w in ("pass", "met", "meet", "satisf", "clear", "fail", "kill", "trigger", "red", "signal",
                                                      "indicator", "warning", "flashing", "eligible", "permitted", "allowed",
                                                      "compliant", "acceptable", "aligned", "qualif", "in", "within",
                                                      "broken", "deteriorat", "breach", "violat", "trip", "fire", "exclu", "divest",
                                                      "restrict", "sanction", "sell")]


class _AnsweredMixin(_ParserState):
    """Finds labels answered Yes / No / Unknown, Yes / No table cells and named regimes, as verdict words."""

    def _regimes_named(self) -> list[_Hit]:
        """A classifying gate's regime named in prose ("it is a slow grower", "Quadrant: growth up, inflation down"):
        the gate has placed the case, a hedged PROCEED for that gate alone (:meth:`_evidence` keeps it only in the
        gate's own sections)."""
        out: list[_Hit] = []
        if not self.ix.regime_triggers:
            return out
        for gate, m in self._scan(self.ix.regime_triggers, limit=MAX_OCCURRENCES):
            u = self._unit_at(m.start())
            if u >= 0:
                out.append(_Hit(m.start(), m.end(), _REGIME_NAMED, u))
                self.regime_gate[m.start()] = gate
                if placed(self.masked, m.start(), m.end()):  # said of the case: it places the case wherever it stands
                    self.regime_placed.add(m.start())
        return out

    def _regime_evidence(self, hit: _Hit, label: Span | None) -> list[_Evidence]:
        """A named regime's evidence: in its classifying gate's own section, for that gate there; elsewhere only where it
        is said of the case (:func:`._regime_words.placed`), for the classifying gate wherever it stands."""
        unit, gate = self.units[hit.unit], self.regime_gate.get(hit.start)
        if unit.gate == gate:
            return [_Evidence(unit.gate, hit, unit.section, label=label)]
        if gate is not None and hit.start in self.regime_placed:
            return [_Evidence(gate, hit, self._section_of(gate, hit.unit))]
        return []

    def _regimes_ordered(self, by_gate: dict[int, list[_Evidence]], seen: set[int], order: list[tuple[int, int]]) -> None:
        """Adds to ``order`` (and ``seen``) each classifying gate with no section and no mention whose regime is said of
        the case outside a final verdict: it is detected where the regime is named (how ``substance``)."""
        for g, evs in by_gate.items():
            ev = next((e for e in evs if e.hit.word is _REGIME_NAMED and not self.units[e.hit.unit].final), None)
            if g not in seen and ev is not None:
                seen.add(g)
                order.append((ev.hit.start, g))
                self.gate_mention.setdefault(g, ((ev.hit.start, ev.hit.end), "substance"))

    def _pass_named_gates(self) -> frozenset[int]:
        """The card's gates whose name states their pass condition: a ``proceed`` test and no ``reject`` test ("Adequate Size
        of the Enterprise", "Durable Competitive Advantage", "Risk Drift Beyond Tolerance"; not "Story Broken or Fundamentals
        Deteriorated" nor "Category-Specific Sell Signal"). A "Yes" to the name asked as a question, or "Material.", is their
        PROCEED; for the other gates such words could mean either."""
        known: frozenset[int] | None = self.__dict__.get("_pass_named")
        if known is None:
            known = self.__dict__["_pass_named"] = frozenset(g.number for g in self.ix.card.gates
                                                              if g.proceed is not None and g.reject is None)
        return known

    def _gate_questions(self) -> list[_Hit]:
        """A gate's name or alias asked as a question and answered at once: "Understandable business? Yes: ...",
        "Is there a durable advantage? No - ...", "Adequate size? Unknown". Read only for a gate whose name states its pass
        condition (:meth:`_pass_named_gates`): Yes is its PROCEED, No its REJECT, Unknown INCONCLUSIVE. For a gate named
        by its failure the answer's sense rests on the name's wording: there only a question whose last words name the
        failure is read (:data:`_ANSWERED`: "Story broken? No" is PROCEED)."""
        out: list[_Hit] = []
        masked, low = self.masked, self.low
        ends = sorted((m.end, k) for k, m in enumerate(self.mentions))
        keys = [e for e, _ in ends]
        for _, m in self._scan(_QUESTION_TRIGGERS, limit=MAX_OCCURRENCES):
            q = m.start()
            k = bisect_right(keys, q) - 1
            mention = self.mentions[ends[k][1]] if k >= 0 else None
            if mention is None or len(mention.gates) != 1 or mention.end <= masked.rfind("\n", 0, q):
                self._line_answer(m)  # no gate named on the question's line: its label may still name one later
                continue
            gate = mention.gates[0]
            failure = self._asks_failure(gate, q)
            if failure is not None and not masked[mention.end : q].strip(" \t*_"):
                mu = self._unit_at(mention.start)
                opening = max(masked.rfind("\n", max(0, mention.start - 80), mention.start) + 1,
                              self.units[mu].start if mu >= 0 else 0)
                head = _WORD.findall(low, opening, mention.start)
                named = mention.start - opening <= 60 and len(head) <= 6 and _QUESTION_OPENERS.issuperset(
                    head[1:] if head[:1] and head[0].isdigit() else head)  # not "Why does the moat matter? No one asks"
            else:
                named = False
            if not named:
                # a question that opens its line and names the gate inside it: "1. Does a product-based criterion apply? No."
                failure = self._asks_failure(gate, q, line=True) if self._line_question(mention, q) else None
                if failure is None:
                    continue
            group = "answer" if m.group("answer") is not None else "unknown"
            a, b = m.span(group)
            u = self._unit_at(a)
            if u < 0:
                continue
            answer = " ".join(m.group(group).lower().split())
            yes, no = (_FAILURE_YES, _FAILURE_NO) if failure else (_QUESTION_YES, _QUESTION_NO)
            word = yes if answer in _YES_WORDS else _QUESTION_UNKNOWN if answer in ("unknown", "unclear", "not yet") else no
            out.append(_Hit(a, b, word, u))
            self.__dict__.setdefault("question_gate", {})[a] = gate
        for k, h in enumerate(_HEADING_QUESTION.finditer(low)):
            if k < MAX_OCCURRENCES:
                self._line_answer(h)
        return out

    def _line_answer(self, m: re.Match[str]) -> None:
        """A question that opens its line and is answered at once, with no gate named in it ("1. Are prices stretched
        against the usual yardsticks? Sure, the 91st percentile."): kept aside as a pending answer (``line_answers``,
        never a verdict word of its own) that speaks for a gate only when the question opens that gate's section
        (:meth:`line_answer_for`). A question that ends its line with no answer after it (a heading asked as a
        question) takes the first Yes or No that opens a sentence of the paragraph under it (:data:`_BODY_ANSWER`:
        "Rising growth: stocks. ... Yes - each of the four boxes is covered.")."""
        q = m.start()
        if _LINE_QUESTION.match(self.low, self.low.rfind("\n", 0, q) + 1, q) is None:
            return
        if "answer" in m.re.groupindex and m.group("answer") is not None:
            a, b = m.span("answer")
            answer = m.group("answer")
        else:
            end = self.low.find("\n", q)
            if "unknown" in m.re.groupindex or end < 0 or self.low[q + 1 : end].strip(" \t*_"):
                return  # answered on its own line ("Unknown"), or the last line
            stop = self.low.find("\n\n", end)
            body = _BODY_ANSWER.search(self.low, end + 1, min(stop if stop >= 0 else len(self.low), end + 1 + _BODY_SPAN))
            if body is None:
                return
            a, b = body.span("answer")
            answer = body.group("answer")
        u = self._unit_at(a)
        if u >= 0 and a not in self.__dict__.get("answer_question", {}):
            yes = " ".join(answer.lower().split()) in _YES_WORDS
            self.__dict__.setdefault("line_answers", []).append(_Hit(a, b, _LINE_YES if yes else _LINE_NO, u))
            self.__dict__.setdefault("answer_question", {})[a] = q

    def line_answer_for(self, hit: _Hit) -> tuple[int, _Hit] | None:
        """(gate, the answer as that gate's verdict word) for a pending line answer whose question opens a gate's
        section (its label, however it was resolved: numbering, vocabulary, embedding, prose), sensed as
        :meth:`_asks_failure`; None otherwise."""
        q = self.__dict__.get("answer_question", {}).get(hit.start, hit.start)
        start = self.masked.rfind("\n", 0, q) + 1
        qu = self._unit_at(start)
        if qu < 0 or qu == hit.unit and self.units[qu].start < start:
            return None
        question = self.units[qu]
        if question.gate is None or self.section_first.get(question.section) != qu:
            return None  # the question does not open its gate's section: it is not that gate's label
        failure = self._asks_failure(question.gate, q, line=True)
        if failure is None:
            return None
        yes = hit.word is _LINE_YES
        word = (_FAILURE_YES if yes else _FAILURE_NO) if failure else (_QUESTION_YES if yes else _QUESTION_NO)
        return question.gate, _Hit(hit.start, hit.end, word, hit.unit)

    def _asks_failure(self, gate: int, q: int, *, line: bool = False) -> bool | None:
        """Whether a question about ``gate`` ending at ``q`` asks if its failure holds (True), its pass condition (False),
        or cannot be told (None). A gate with only a pass test is asked about its pass condition, one with only a fail test
        ("Product-Based Exclusion Criteria", "New Buyers Entering the Market") about its failure; for a gate with both the
        question's own words decide (:data:`_FAILURE_ASKED`), and only for a question that opens its line (``line``)."""
        low = self.low
        start = low.rfind("\n", 0, q) + 1
        if gate in self._pass_named_gates():
            # "Is the moat eroding? Yes": a question about the gate's subject in words of failure asks its failure
            clause = max(start, *(low.rfind(c, start, q) + 1 for c in ".!;"))
            return self._asked_failure(clause, q) is True
        spec = next((g for g in self.ix.card.gates if g.number == gate), None)
        if spec is not None and spec.reject is not None and spec.proceed is None:
            return True
        if not line:
            return None
        return self._asked_failure(start, q) is True

    def _asked_failure(self, start: int, q: int) -> bool | None:
        """Whether the question in ``[start, q)`` asks if a failure holds (a word of :data:`_FAILURE_ASKED` or
        :data:`_FAILURE_SENSE`: True), asks that it does not ("Is the debt not excessive?": False), or names none (None)."""
        low = self.low
        m = _FAILURE_ASKED.search(low, start, q) or _FAILURE_SENSE.search(low, start, q)
        if m is None:
            return None
        return _NEGATED_ASK.search(low, start, m.start()) is None

    def _line_question(self, mention: _Mention, q: int) -> bool:
        """A question that opens its line (after a list marker) and ends at ``q``, with ``mention`` inside it and no other
        gate named there: "1. Is the company in the fund's investment universe? Yes.", "- Do insiders have a real stake?",
        or that opens with the gate's name ("- Story broken, i.e. the reason I bought no longer holds? No.")."""
        start = self.masked.rfind("\n", 0, q) + 1
        if mention.start < start:
            return False
        if _LINE_QUESTION.match(self.low, start, q) is None and _ITEM_MARKER.fullmatch(self.low, start, mention.start) is None:
            return False  # neither "2. Is the ...?" nor a question that opens with the gate's name ("- Story broken, i.e. ...?")
        return all(m.gates == mention.gates for m in self.mentions if m.end > start and m.start < q)

    def _open_marks(self) -> list[_Hit]:
        """Checklist lines opened by a "?" mark (:data:`_OPEN_MARK`), as hedged INCONCLUSIVE verdict words."""
        masked = self.masked
        out: list[_Hit] = []
        for line in self.lines:
            if line.kind in ("blank", "table", "table_sep", "fence", "json") or "?" not in masked[line.start : min(line.end, line.start + 16)]:
                continue
            m = _OPEN_MARK.match(masked, line.start, line.end)
            if m is None:
                continue
            u = self._unit_at(m.start("mark"))
            if u >= 0:
                out.append(_Hit(m.start("mark"), m.end("mark"), _OPEN_MARK_WORD, u))
        return out

    def _conditions_unmet(self) -> list[_Hit]:
        """"Stalwart target: +22% since purchase. Not reached.": on a line labelled with a condition the gate watches for,
        a sentence that is only "not reached" (hit, met...) says that condition does not hold, not that the gate was
        never reached (N/A); as :data:`CONDITION_UNMET` verdict words."""
        masked = self.masked
        out: list[_Hit] = []
        for line in self.lines:
            label = line.label
            if label is None or line.kind in ("blank", "table", "table_sep", "fence", "json") or label[1] >= line.end:
                continue
            # the label, or the title after it up to its colon ("Gate 3 - price limit: ...")
            colon = masked.find(":", label[1], min(line.end, label[1] + 60))
            head_end = colon if colon >= 0 else label[1]
            if _CONDITION_LABEL.search(masked, max(label[0], head_end - 40), head_end) is None:
                continue
            for m in _UNMET_ALONE.finditer(masked, head_end, line.end):
                u = self._unit_at(m.start())
                if u >= 0 and not masked[max(self.units[u].start, head_end) : m.start()].strip(" \t*_:\u2014\u2013-"):
                    out.append(_Hit(m.start(), m.end(), CONDITION_UNMET, u))
        return out

    def _answered_questions(self) -> list[_Hit]:
        """Inline labels with answers: "Pass? Yes" (PROCEED), "Pass? No" (REJECT), "Pass? Unknown" (INCONCLUSIVE);
        "Kill criterion triggered? No" (PROCEED), "Fails? Yes" (REJECT); a label naming the failure the gate looks for
        ("Story broken? No", "Broken story? Not broken.", "Sell signal fired? Yes") is answered as a "Fails?" label. The
        answer word is the verdict word."""
        out: list[_Hit] = []
        for _, m in self._scan(_ANSWERED_TRIGGERS, limit=MAX_OCCURRENCES):
            a, b = m.span("answer")
            u = self._unit_at(a)
            if u < 0:
                continue
            answer = m.group("answer").lower()
            failing = m.group("fail") is not None
            if answer in ("yes", "y", "true"):
                word = _YES_REJECT if failing else _YES_PROCEED
            elif answer in ("no", "n", "false", "not"):
                word = _YES_PROCEED if failing else _YES_REJECT
            else:
                word = _ANSWER_UNKNOWN
            out.append(_Hit(a, b, word, u))
        return out

    def _yes_no_cells(self) -> list[_Hit]:
        """Yes / No cells of a table column headed "Pass?", "Meets?" (or "Fail?", "Triggered?"), as verdict words."""
        masked = self.masked
        out: list[_Hit] = []
        columns: dict[int, vw.VerdictWord] = {}
        for li, line in enumerate(self.lines):
            if line.kind != "table":
                if line.kind != "table_sep":
                    columns = {}
                continue
            if li + 1 < len(self.lines) and self.lines[li + 1].kind == "table_sep":
                columns = {}
                for c, (a, b) in enumerate(line.cells):
                    head = normalize(masked[a:b])
                    if _PASS_COLUMN.fullmatch(head):
                        columns[c] = _YES_PROCEED
                    elif _FAIL_COLUMN.fullmatch(head):
                        columns[c] = _YES_REJECT
                    else:  # "Favourable?", "OK?", "Sell trigger fired?": a question whose polarity its words say (_question_columns.py)
                        asked = question_polarity(masked[a:b])
                        if asked is not None:
                            columns[c] = _YES_PROCEED if asked == "pass" else _YES_REJECT
                continue
            for c, word in columns.items():
                if c >= len(line.cells):
                    continue
                a, b = line.cells[c]
                lead = _CELL_ANSWER.match(masked, a, b)
                if lead is None:
                    continue  # "No (price $9.1B vs value $7.4B)": the answer, then its detail
                answer = lead.group(1).lower()
                b = lead.end(1)
                u = self._unit_at(a)
                if u < 0:
                    continue
                yes = answer in ("yes", "y") or answer in _FOREIGN_YES
                verdict = word.verdict if yes else (vw.REJECT if word.verdict == vw.PROCEED else vw.PROCEED)
                out.append(_Hit(a, b, word if yes else (_YES_REJECT if verdict == vw.REJECT else _YES_PROCEED), u))
        return out
