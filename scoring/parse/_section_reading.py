"""A gate's section that judges its facts without a verdict word (issue 13; paper §7.5).

Fresh text often addresses a gate by its label or name and then concludes in other words: "Financial condition:
... fine on both counts", "the moat is real", "Sizing: within limits", "Priming risk here is high", "Dividends: paid
every year since the 2009 listing, so 16 years", "Does the company have money it doesn't need? - Yes." A careful
reader takes each as the gate's verdict (the corpus convention: a reasoning that presents a criterion's facts as a
confirming or damning point counts as that verdict; a bare fact with no judgement does not). This reading runs after
the verdict readers and :mod:`._stated_bars`, only on a gate the answer addresses and left without a verdict, and
reads the gate's own section (:meth:`_section_units`: from its label or mention to the next gate's), clause by clause:

* an appraisal of the lexicon ``grammar/appraisals.yaml`` (:func:`._prose.appraisals`, with whether the gate watches
  for a warning sign: "sound", "fine", "within limits", "flagged"; not "high"/"low", whose subject in a section may be
  anything: "switching costs are high");
* a comparison with a stated bar (:func:`._stated_bars.compared_verdict`: "inside his limit of 2", "far below the 4%
  maximum");
* a figure of the gate's bar's kind against the card's own test (:func:`._thresholds.bar_verdict`), when the clause
  holds a word of the bar's name or input label; for a bar that is a multiple, "12 times", "4.5 to 1" and "3:1" are
  multiples too (read by the one number reader, :func:`ipb.engine.numbers.scan_numbers`; :meth:`_word_multiples`);
* a value of the gate's category input said in the clause ("Hot.", "calm rather than hot", "Self-reinforcing."), with
  the verdict the card's test gives it (:func:`._thresholds.category_verdicts`; a band value is INCONCLUSIVE);
* the answer to a gate's question label: "Is the purpose to benefit continuing shareholders? - No." (yes: the
  criterion holds, PROCEED; for a gate that watches for a warning sign, or a question that asks about a fault, yes is
  REJECT), right after it, closing a later sentence ("..., yes."), as a sentence of its own after the facts ("Is the
  premium enough? Expected return 13% against 4% on bonds. Yes.") or opening one that gives its reason ("Yes, the
  surplus is real.").

A clause that states another gate's facts, a condition ("if the sale fails"), a question, a sentence with a verdict
word (the verdict readers' text), a final-verdict sentence or text on another profile adds nothing. Every reading of
the section must agree: two that disagree give no verdict. The verdict is hedged (confidence at most
:data:`SECTION_CONFIDENCE`), ``how`` gains ``+section`` and a note gives the words.
"""

from __future__ import annotations

import re

from ipb.engine.card import Card
from ipb.engine.numbers import decimal_comma_convention, scan_numbers
from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring import verdict_words as vw
from ipb.scoring._numbers import NumberMatch
from ipb.scoring.parse._appraisal_words import lexicon_for
from ipb.scoring.parse._bar_quantity import names_quantity
from ipb.scoring.parse._computed import computed_result
from ipb.scoring.parse._foreign_appraisals import foreign_appraisals, in_english, mark_verdicts
from ipb.scoring.parse._prose import (
    in_longer_name, in_titled_name, outside_names,
    _CONDITIONAL, _bar_words, _clauses, _direction, _stems, _watches, appraisals, gate_of_clause, prose_vocabulary)
from ipb.scoring.parse._mild import MILD, MILD_CONFIDENCE, mild
from ipb.scoring.parse._past import past_time
from ipb.scoring.parse._verdict_clauses import BOTH_WAYS
from ipb.scoring.parse._stated_bars import _compared, _higher
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._thresholds import Bar, bar_verdict, category_verdicts, gate_bars, gate_categories
from ipb.scoring.parse._types import GateTrace, Span

__all__ = ["HEADING_REACH", "SECTION_CONFIDENCE", "heading_polarity", "question_answer"]

#: The highest confidence a verdict read from a section's appraisals may carry.
SECTION_CONFIDENCE = 0.55
#: How the words of a section reading that applied the card's test to a figure begin (:meth:`_section_verdict`); a
#: reading made only of these gains ``+threshold`` (:func:`ipb.scoring.outcome.commits`: alone it commits to nothing).
_FIGURE_WORDS = "the figure "
#: How the words of a section reading from a mild appraisal begin (:mod:`._mild`).
_MILD_WORDS = "the mild appraisal "
#: At most this many sentences of a section are read (a gate's section in a real answer is a few sentences).
MAX_SECTION_UNITS = 12

#: The answer opening the text after a gate's question: "? - Yes.", "?\n- YES ->", "? Yes: inflows ...", "? Sure: ...".
#: A question whose verb is a fault: "Could I lose money permanently?", "Can the plan go wrong?", "Will it default?" (yes
#: is the gate failing); not the noun ("Is the chance of a loss low?").
_FAULT_VERB = re.compile(r"(?i)\b(?:lose|losing|default|defaults|go\s+wrong|goes\s+wrong|blow\s+up|be\s+wiped\s+out|go\s+bust|"
                         r"go\s+under|fail|fails|ended|stopped|stalled|run\s+out|run\s+its\s+course)\b")
#: A likelihood answers a question as yes or no does: "Could I lose money permanently? ... Unlikely.", "Will the
#: catalyst come? Likely." (a hedged yes); and yes / no in other languages (:mod:`ipb.scoring._foreign_verdicts`).
_LIKELY_YES = ("likely", "probably", "very likely", "almost certainly")
_LIKELY_NO = ("unlikely", "doubtful", "very unlikely", "highly unlikely", "improbable", "probably not", "likely not", "not likely",
              "almost certainly not")
#: A graded answer is a hedged yes or no as a likelihood is: "Is the story intact? Mostly.", "Is the herd leaning one way?
#: Not really.", "Is the price there? Not yet." (a degree, not a word list of one phrasing: any question of the card reads
#: them; the section's verdict stays under the review bar, SECTION_CONFIDENCE). Words that grade both ways ("partly",
#: "barely", "somewhat") are no answer.
_GRADED_YES = ("mostly", "largely", "broadly", "by and large", "for the most part", "more or less", "basically", "essentially",
               "so far", "on balance")
_GRADED_NO = ("not really", "not quite", "not yet", "not at all", "hardly", "far from it", "nowhere near")
_WORDS = "|".join(sorted(("yes", "no", "sure", "nope", *_LIKELY_YES, *_LIKELY_NO, *_GRADED_YES, *_GRADED_NO, *(re.escape(w) for w in (*_fv.YES_WORDS, *_fv.NO_WORDS))),
                         key=len, reverse=True)).replace(" ", r"[ \t]+")
_YES = frozenset(("yes", "sure", *_LIKELY_YES, *_GRADED_YES, *_fv.YES_WORDS))
#: (after an answer label of a Q/A layout: "Q: Is the debt safe?" / "A: Yes."; s52parse)
_ANSWER = re.compile(r"[\s\-\u2013\u2014*_>:]*(?:(?:a|ans|answer)[ \t]*:[ \t*_]*)?(?P<word>" + _WORDS + r")(?:\b|(?<=[" + _fv.UNSPACED_CHARS + r"]))"
                     r"(?=[ \t]*(?:[.,;:!)\u2192\u2013\u2014\u3002-]|->|$))", re.IGNORECASE | re.MULTILINE)
#: A sentence that closes on the answer to the section's question: "Four out of four, yes."
_CLOSING_ANSWER = re.compile(r"(?i),[ \t]*(?P<word>yes|no)[ \t]*[.!]?[\s*_]*\Z")
#: A sentence that is only the answer to the section's question, after the facts that support it ("Is the premium for risk
#: enough? Expected return 13% against 4% on bonds. Yes."): the writer states the figures, then answers.
_BARE_ANSWER = re.compile(r"(?i)[ \t*_>\-\u2013\u2014]*(?P<word>" + _WORDS + r")[ \t]*[.!\u3002]?[ \t*_]*")
#: A sentence that opens on the answer, then gives its reason: "Yes, the surplus is real.", "No: the cash is spoken for."
_OPENING_ANSWER = re.compile(r"(?i)[ \t*_>]*(?P<word>yes|no)[ \t]*(?:,|:|\u2014|\u2013|[ \t]-)[ \t]+\S")
#: The writer's instrument gives the section's answer, with or without a question before it: "The lens says yes.", "the
#: test says no", "the numbers say yes" (yes PROCEED, no REJECT; not for a gate that watches for a warning sign, where
#: the yes may be the sign's; not "says no to ...", a refusal of something else; "the answer is no" is a final cue, read
#: by the final-verdict reader, and its sentence is no gate's section).
_SAYS_ANSWER = re.compile(r"(?i)\b(?:the|this|that|our|my|each)[ \t]+(?:lens|test|check|filter|screen|rule|model|numbers|"
                          r"math|maths|arithmetic|data|criterion|framework|checklist)[ \t]+(?:says|said|say)[ \t]+(?:a[ \t]+)?"
                          r"(?:clear[ \t]+|firm[ \t]+)?(?P<word>yes|no)\b(?![ \t]+to\b)")
#: The writer says the gate was never reached: "We never get to the holding-period question", "Rotation scan: not run
#: this cycle", "I won't even get to returns on capital", "not worth doing the arithmetic".
_NOT_REACHED = re.compile(
    r"(?i)(?:\b(?:not|never)|n['\u2019]t)\s+(?:even\s+)?(?:get|gets|got|go|goes|went|come|comes|came|reach|reached)\s+(?:on\s+)?to\b"
    r"|\bnot\s+(?:run|reached|needed|performed)\b|\bnot\s+worth\s+(?:doing|checking|computing|running)\b|\bmoot\b")

#: After "not run" / "not performed": a part of the data it was not run on ("not run on pre-2015 data", "not performed for
#: the 2009 year"): the gate was run on the rest, so it is no N/A (the gate itself: "not run on this name", "not run at all").
_PART_NOT_RUN = re.compile(r"(?i)[ \t]+(?:on|for|over|before|across|against|with)[ \t]+(?!(?:this|the)[ \t]+(?:name|company|stock|"
                           r"business|firm|one)\b|it\b|them\b)\S")
#: A sarcasm marker opening a clause ("sure, 90 times earnings is a bargain", "oh yes, very trustworthy", "yeah, right"):
#: the appraisal after it means its opposite, so the section withholds its verdict.
_SARCASM = re.compile(r"(?i)(?:^|(?<=[:.;!?\n])|(?<=[:.;!?\n][ \t]))[ \t*_-]*(?:oh[ \t]+(?:yes|sure|great|right)|sure|yeah(?:[ \t]+right)?"
                      r"|what[ \t]+a[ \t]+(?:bargain|steal|deal))[ \t]*[,!]")


#: A clause whose subject is a noun phrase ("the balance sheet is ...", "but its forecasts are ..."), not a pronoun.
_NOUN_SUBJECT = re.compile(r"[\s,;:\u2014\u2013-]*(?:(?:but|and|while|though|although|whereas)[ \t]+)?(?:the|its|their|his|her|our|a|an)"
                           r"[ \t]+[a-z][a-z'-]+(?:[ \t]+[a-z][a-z'-]+){0,2}?[ \t]+(?:is|are|was|were|remains?|looks?|seems?)\b")


#: Two denials side by side put the facts in the middle: "not negligible, not alarming", "neither cheap nor dear", "not
#: great; not terrible". Each denied appraisal alone would read as a verdict; together they are the writer's "in between",
#: so the section withholds its verdict (an unread gate is routed to review; a guessed one is not).
_MIDDLE = re.compile(r"(?i)\b(?:not|neither)[ \t]+(?:[a-z-]+[ \t]+)?[a-z-]+[ \t]*(?:[,;\u2013\u2014][ \t]*(?:and[ \t]+|but[ \t]+)?not|nor)"
                     r"[ \t]+(?:[a-z-]+[ \t]+)?[a-z-]+")

#: An appraisal followed by its complement relates the facts to something else ("aligned with the plan", "attractive to
#: a buyer"): not the gate's verdict.
_RELATION_AFTER = re.compile(r"[ \t]+(?:with|to)\b")
#: The word right after a one-word category value, when it may be a noun the value modifies ("a hot topic").
_NEXT_WORD = re.compile(r"[ \t]+([a-z]{3,})\b")
_NOT_NOUNS = frozenset({"and", "but", "nor", "rather", "than", "not", "for", "from", "with", "this", "that", "these", "those",
                        "right", "now", "again", "enough", "yet", "today", "here", "already", "still", "too", "though",
                        "while", "when", "once", "all", "any", "indeed", "overall", "lately"})


def _on_another_noun(card: Card, gate: int, low: str, start: int, end: int, nouns: set[str]) -> bool:
    """Whether the one-word category value ``low[start:end]`` modifies a noun that is not the gate's own ("AI is a hot
    topic", "hot money": another sense; "a hot market", "a self-reinforcing loop" are the gate's)."""
    if " " in low[start:end]:
        return False
    m = _NEXT_WORD.match(low, end)
    if m is None or m.group(1) in _NOT_NOUNS:
        return False
    name = gate_categories(card)[gate][0]
    return not _stems(m.group(1)) & (nouns | _stems(card.inputs[name].label or name.replace("_", " ")))
_GOOD = (r"strengths?|pros|positives|merits|tailwinds|green[ _]flags?|bull[ _]case|what[ _](?:i|we)[ _]like|"
         r"what[ _](?:works|is[ _]good)|reasons[ _]to[ _]buy")
_BAD = (r"weaknesses|cons|negatives|risks|key[ _]risks|risk[ _]factors|red[ _]flags?|concerns|worries|warning[ _]signs|"
        r"headwinds|bear[ _]case|what[ _]worries[ _](?:me|us)|reasons[ _]to[ _]avoid")
#: (Plural lists only: a singular "Risk:" or "Downside:" names a topic, such as a gate's own, not a list of faults.)
#: A heading of strengths or of risks alone on its line ("## Strengths", "**Red flags:**", "Risks -"), or a JSON key of
#: one whose value opens a string or a list (``"concerns": [``).
_POLAR_HEADING = re.compile(
    r"(?im)^[ \t>#*_]*(?:(?P<good>" + _GOOD + r")|(?P<bad>" + _BAD + r"))[ \t*_]*[:\-\u2013\u2014]?[ \t*_]*$"
    r"|\"(?:(?P<jgood>" + _GOOD + r")|(?P<jbad>" + _BAD + r"))\"[ \t]*:[ \t]*[\[\"]")
#: A line between the heading and the gate's mention that is not a list item (or a blank or indented continuation):
#: the heading's list has ended.
_NOT_ITEM = re.compile(r"(?m)^[ \t]*(?![-*+\u2022\u2013>]|\d{1,2}[.)][ \t]|\n|$)\S")
#: A list item's opening: a bullet or a list number.
_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022\u2013>]|\d{1,2}[.)][ \t])")
#: A negation or a condition on the gate's line: "no concerns about management", "if the price falls".
_UNSURE = re.compile(r"(?i)\b(?:no|not|none|never|nothing|if|unless|would|could|might|may)\b|n['\u2019]t\b")
#: An item that says the gate was checked and cleared ("checked, clean record", "looked into it: fine").
_CLEARED = re.compile(r"(?i)\b(?:checked|clean|cleared|fine|no[ \t]+issues?|passes|passed|ok(?:ay)?)\b")
#: How far back a heading is looked for (characters).
HEADING_REACH = 1200


def heading_polarity(low: str, start: int, end: int) -> tuple[str, str] | None:
    r"""(verdict, words) when the gate mentioned at ``low[start:end]`` is an item of a list headed "Strengths" (PROCEED)
    or "Risks" / "Red flags" / "Concerns" (REJECT), or a value of such a JSON key; else None. The item must state no
    negation or condition ("no concerns about management", "if the price falls"); a heading farther than
    :data:`HEADING_REACH` characters, or one whose list has ended (a plain line or a new heading in between), is none.

    >>> text = "## Strengths\n- Return on capital of 24% through the cycle\n\n## Risks\n- Price: 31 times earnings\n"
    >>> heading_polarity(text.lower(), text.index("Return"), text.index("Return") + 17)[0]
    'PROCEED'
    >>> heading_polarity(text.lower(), text.index("Price"), text.index("Price") + 5)[0]
    'REJECT'
    >>> text = '{"concerns": ["management sold 40% of its shares"], "summary": "price looks fine"}'
    >>> heading_polarity(text, text.index("management"), text.index("management") + 10)[0]
    'REJECT'
    >>> heading_polarity(text, text.index("price"), text.index("price") + 5) is None
    True
    >>> text = "Risks:\n- management: no concerns; founder-led\n"
    >>> heading_polarity(text, text.index("management"), text.index("management") + 10) is None
    True
    """
    lo = max(0, start - HEADING_REACH)
    last: re.Match[str] | None = None
    for m in _POLAR_HEADING.finditer(low, lo, start):
        last = m
    if last is None:
        return None
    between = low[last.end() : start]
    if last.group("jgood") or last.group("jbad"):
        if re.search(r"[\]}]|\"[ \t]*:", between):
            return None  # the key's value has ended
    else:
        line_start = low.rfind("\n", 0, start) + 1
        if not _ITEM.match(low, line_start):
            return None  # the gate's line is no item of the heading's list
        if _NOT_ITEM.search(low, last.end(), line_start) or _POLAR_HEADING.search(low, line_start, start):
            return None  # the heading's list has ended before the gate's line
    line_end = low.find("\n", end)
    item = low[low.rfind("\n", 0, start) + 1 : len(low) if line_end < 0 else line_end]
    if last.group("jgood") or last.group("jbad"):
        stop = re.search(r"\"[ \t]*[,\]}]", low[end:])
        item = low[start : end + (stop.start() if stop else 0)]
    if _UNSURE.search(item):
        return None
    good = bool(last.group("good") or last.group("jgood"))
    own = item[item.find(low[start:end]) + end - start :] if low[start:end] in item else item  # the words after the gate's name
    said = {v for _, _, v in appraisals(own, 0, len(own), None)} | ({vw.PROCEED} if _CLEARED.search(own) else set())
    if (vw.REJECT if good else vw.PROCEED) in said:
        return None  # the item judges otherwise: "Red flags: - Trustworthy management: checked, clean record"
    return (vw.PROCEED if good else vw.REJECT), f"its place under the heading {last.group(0).strip()!r}"


def _flip(verdict: str) -> str:
    return vw.REJECT if verdict == vw.PROCEED else vw.PROCEED


def question_answer(question: str, answer_after: str, watch: bool, direction: str | None = None) -> str | None:
    """The verdict a yes/no answer (the text right after a gate's question) gives, else None.

    Yes is PROCEED unless the gate watches for a warning sign (``watch``) or the question asks about a fault (it holds
    an appraisal of REJECT polarity: "Is the debt too high?"); no is the other verdict.

    >>> question_answer("Is the purpose to benefit continuing shareholders?", " - No. The press release ...", False)
    'REJECT'
    >>> question_answer("Are prices high against traditional measures?", "\\n- YES -> P/B 3.4", True)
    'REJECT'
    >>> question_answer("Is the price too rich?", " Yes.", False)
    'REJECT'
    >>> question_answer("Is it cheap?", " Not sure yet.", False) is None
    True
    """
    m = _ANSWER.match(answer_after)
    if m is None:
        return None
    says_yes = " ".join(m.group("word").lower().split()) in _YES
    faults = {v for _, _, v in appraisals(question, 0, len(question), direction)}
    asks_fault = watch or faults == {vw.REJECT} or _FAULT_VERB.search(question) is not None
    verdict = vw.PROCEED if says_yes else vw.REJECT
    return _flip(verdict) if asks_fault else verdict


#: A clause that is a key and its colon alone, at most four words: "downside_loss:", "Downside loss:".
_KEY_CLAUSE = re.compile(r"[ \t*_>-]*[^\W\d][\w' -]{0,40}:[ \t]*\Z")


def _keyed_clauses(card: Card, bars: tuple[Bar, ...] | None, low: str, clauses: list[Span]) -> list[Span]:
    """``clauses`` with a clause that is the name of the gate's bar quantity and a colon alone joined to the clause after
    it: "downside_loss: 12,96%" states the quantity as "downside_loss = 12,96%" does (s47lang: the colon cut the name
    from its figure, and the figure alone named nothing). A key that is not the bar's quantity stays apart (a bare
    figure after another label is a fact)."""
    if not bars or len(clauses) < 2:
        return clauses
    out: list[Span] = []
    k = 0
    while k < len(clauses):
        a, b = clauses[k]
        if (k + 1 < len(clauses) and _KEY_CLAUSE.fullmatch(low, a, b) and len(low[a:b].split()) <= 4
                and names_quantity(card, bars[0].name, low[a:b])):
            out.append((a, clauses[k + 1][1]))
            k += 2
            continue
        out.append((a, b))
        k += 1
    return out


class _SectionReadingMixin(_ParserState):
    """Gives a gate with no verdict the verdict its own section states in other words (module docstring)."""

    def _section_readings(self, traces: list[GateTrace]) -> list[GateTrace]:
        for trace in traces:
            if trace.verdict is not None:
                continue
            said = self._section_verdict(trace.gate)
            if said is None and trace.mention is not None:
                said = heading_polarity(self.low, trace.mention[0], trace.mention[1])
            if said is None:
                continue
            verdict, words = said
            trace.verdict = verdict
            trace.how = f"{trace.how}+section"
            if all(w.startswith(_FIGURE_WORDS) for w in words.split("; ")):
                trace.how += "+threshold"  # only restated figures against the card's test: hedged, commits to nothing
            softly = all(w.startswith(_MILD_WORDS) for w in words.split("; "))
            if softly:  # only mild appraisals ("the margin is thin", "a bit rich"): a lean, no commitment (_mild.py)
                trace.how = trace.how[: -len("+section")] + MILD + "+section"
            trace.confidence = min(trace.confidence, MILD_CONFIDENCE if softly else SECTION_CONFIDENCE)
            self.notes.append(f"gate {trace.gate} read as {verdict} from {words} in its section, which states no verdict "
                              f"word (how '+section')")
        return traces

    def _mentions_gate_in(self, gate: int, a: int, b: int) -> bool:
        """Whether a mention of ``gate`` (its name, alias or words) lies inside ``[a, b)``."""
        return any(gate in m.gates and a <= m.start < b for m in self.mentions)

    def _names_blanked(self) -> str:
        """``self.low`` with every gate label blanked (offsets kept): a label ("Fair price:", "Durable competitive
        advantage") names a gate and appraises nothing."""
        cached: str | None = getattr(self, "_blanked_names", None)
        if cached is None:
            chars = list(self.low)
            spans = [a.mention for a in self.anchors.values() if a.how != "substance"]
            for a, b in spans:
                chars[a:b] = " " * (b - a)
            cached = "".join(chars)
            self._blanked_names = cached
        return cached

    def _word_multiples(self, low: str, start: int, end: int) -> list[NumberMatch]:
        """The multiples written in words in ``low[start:end]`` ("covered 12 times", "4.5 to 1", "3:1"; ``low`` is the
        lower-cased answer with its labels blanked), read by the one number reader in the answer's decimal convention;
        where that is unknown a lone comma is left unread ("1,5 times": a decimal or a list?). "12x" is among the
        figures already (:meth:`_figures`)."""
        comma = self._comma()
        return [NumberMatch(n.span[0], n.span[1], low[n.span[0] : n.span[1]], float(n.value), "multiple")
                for n in scan_numbers(low, start, end, decimal_comma=comma, strict=not comma)
                if n.kind == "multiple" and low[n.span[1] - 1] not in "x\u00d7"]

    def _computes(self, gate: int, u: int, a: int, b: int, name: str) -> bool:
        """Whether clause ``[a, b)`` of sentence ``u`` works out the gate's quantity: it holds an equals sign and names the
        quantity (a label included: "Owner's Earnings = ... = -74.3") or sits on the gate's label line ("Graham Intrinsic
        Value: V = ... = 74.010 VND"); :mod:`._computed`."""
        if "=" not in self.low[a:b] and "\u2248" not in self.low[a:b]:
            return False
        return self._on_label_line(gate, u) or names_quantity(self.card, name, self.low[a:b])

    def _on_label_line(self, gate: int, u: int) -> bool:
        """Whether sentence ``u`` is on a line that labels ``gate`` (a heading, list item, "Label:" line or table row), or on
        the line right after such a label alone on its line ("Owner's Earnings:" then "Owner's Earnings = ... = -74.3")."""
        line = self.units[u].line
        anchor = self.anchors.get(line)
        if anchor is not None:
            return anchor.gate == gate and anchor.invented is None
        anchor = self.anchors.get(line - 1)
        if anchor is None or anchor.gate != gate or anchor.invented is not None:
            return False
        return len(self.masked[anchor.mention[1] : self.lines[line - 1].end].strip(" \t:-|*_#")) < 4

    def _in_english(self) -> bool:
        """Whether the answer is written in English (:func:`._foreign_appraisals.in_english`; read once)."""
        english: bool | None = getattr(self, "_section_in_english", None)
        if english is None:
            english = in_english(self.low)
            self._section_in_english = english
        return english

    def _comma(self) -> bool | None:
        """True when the answer writes decimal commas ("8,5"; :func:`ipb.engine.numbers.decimal_comma_convention`), else None."""
        comma: bool | None = getattr(self, "_section_decimal_comma", None)
        if comma is None:
            comma = bool(decimal_comma_convention(self.masked))
            self._section_decimal_comma = comma
        return True if comma else None

    def _section_verdict(self, gate: int) -> tuple[str, str] | None:
        card, low = self.card, self._names_blanked()
        groups = self._section_units(gate)
        units = [u for group in groups for u in group][:MAX_SECTION_UNITS]
        if not units:
            return None
        direction, watch = _direction(card, gate), _watches(card, gate)
        lexicon = lexicon_for(card.id)
        bars = gate_bars(card).get(gate)
        higher = _higher(bars, direction)
        found: list[tuple[str, str]] = []
        own_line: tuple[str, str] | None = None  # the last appraisal that stood as a sentence of its own
        named = False  # whether a clause names the gate's own criterion
        foreign: set[int] = set()  # places of ``found`` read from a clause whose subject is another noun
        own_words = set(prose_vocabulary(card).get(gate, {}))
        question: str | None = None
        for u in units:
            unit = self.units[u]
            if u in self.final_units or self._in_other_profile(unit.start):
                continue
            if any(self._level(h) > 0 for h in self.unit_hits.get(u, [])):
                return None  # a verdict word the verdict readers did not take for this gate: not this reading's to settle
            text = low[unit.start : unit.end]
            if _SARCASM.search(self.low, unit.start, unit.end):
                return None  # "Fair price: sure, 90 times earnings is a bargain": sarcasm, no verdict read
            if _MIDDLE.search(self.low, unit.start, unit.end):
                return None  # "not negligible, not alarming": the writer's middle, no verdict read
            if BOTH_WAYS.search(self.low, unit.start, unit.end):
                return None  # "it could go either way", "may pass or may fail": the writer withholds the verdict
            if text.rstrip(" \t*_").endswith("?"):  # (also a bold question: "**Is leverage excessive?** Yes.")
                own = gate_of_clause(card, text)
                if own is not None and own != gate:
                    break  # another gate's question: the section has moved on
                question = text
                answer = question_answer(text, self.low[unit.end : unit.end + 24], watch)
                if answer is not None:
                    found.append((answer, f"the yes/no answer to {self.masked[unit.start : unit.end].strip()[-60:]!r}"))
                continue
            says = _SAYS_ANSWER.search(text)
            if says is not None and not watch and not _CONDITIONAL.search(text):
                verdict = vw.PROCEED if says.group("word").lower() == "yes" else vw.REJECT
                found.append((verdict, f"the answer {self.masked[unit.start + says.start() : unit.start + says.end()]!r}"))
                continue
            closing = (_CLOSING_ANSWER.search(text) or _BARE_ANSWER.fullmatch(text.strip())
                       or _OPENING_ANSWER.match(text)) if question is not None else None
            if closing is not None and question is not None:
                answer = question_answer(question, closing.group("word"), watch)
                if answer is not None:
                    found.append((answer, f"the answer {self.masked[unit.start : unit.end].strip()!r} to its question"))
                continue
            for a, b in _keyed_clauses(card, bars, low, _clauses(low, unit.start, unit.end)):
                n0, mine = len(found), bool(_stems(low[a:b]) & own_words)
                named = named or mine
                try:
                    own = gate_of_clause(card, low[a:b])
                    reached = _NOT_REACHED.search(low, a, b)
                    if own is not None and own != gate and not (reached and self._mentions_gate_in(gate, a, b)):
                        continue  # another gate's facts ("I won't even get to returns on capital, the moat or the price" is each one's)
                    if _CONDITIONAL.search(low, a, b) or past_time(low, a, b, "comparison"):
                        continue
                    if reached is not None and reached.group(0).lower().startswith("not") and _PART_NOT_RUN.match(low, reached.end()):
                        reached = None  # "the screen was not run on pre-2015 data": run on the rest
                    if reached is not None:
                        found.append((vw.NOT_REACHED, f"{self.masked[reached.start() : reached.end()]!r} (not reached)"))
                        continue
                    # no direction: "high" and "low" are read only where the clause's subject is the gate's criterion
                    # (:mod:`._prose`); a section's "switching costs are high" or "costs are high" may be about anything
                    # not an appraisal inside a gate's name as written ("is it at a sensible price?")
                    said = appraisals(low, a, b, None, lexicon=lexicon, watch=watch, nouns=own_words)
                    said = [x for x in said if not in_titled_name(self.masked, card.gate(gate).name, x[0], x[1])]
                    for s, e, v in outside_names(low, self.unit_mentions.get(u, ()), said):
                        if not _RELATION_AFTER.match(low, e):  # "aligned with the plan": a relation to something else
                            found.append((v, f"the {'mild ' if mild(low, s, e) else ''}appraisal {self.masked[s:e]!r}"))
                            own_line = found[-1] if low[s:e] == text.strip(" \t\n*_.!-") else own_line  # "Understandable."
                    for s, e, v in foreign_appraisals(low, a, b, watch, spaced=not self._in_english()) + mark_verdicts(low, a, b):  # "solide", "〇"
                        found.append((v, f"the appraisal {self.masked[s:e]!r}"))
                        own_line = found[-1] if low[s:e] == text.strip(" \t\n*_.!-\u3002") else own_line
                    for s, e, v in category_verdicts(card, gate, low, a, b):  # "Hot.", "calm rather than hot", "Self-reinforcing."
                        if _on_another_noun(card, gate, low, s, e, own_words) or in_longer_name(low, card.gate(gate).name, s, e):
                            continue  # another noun's word, or a word of the gate's own name ("Announced deal only")
                        found.append((v, f"the value {self.masked[s:e]!r} of the card's category test"))
                    said, blocked = _compared(low[a:b], higher)
                    if said is not None:
                        found.append((said, f"a comparison with a stated bar ({self.masked[a:b].strip()!r})"))
                    if blocked or not bars or said is not None:
                        continue
                    figure = None
                    if names_quantity(card, bars[0].name, low[a:b]):
                        # a figure in a clause that names the bar's criterion (a bare figure after a label is a fact)
                        figures = list(self._figures(a, b))  # type: ignore[attr-defined]
                        if bars[0].unit == "multiple":
                            figures += [f for f in self._word_multiples(low, a, b) if not any(g.start < f.end and f.start < g.end for g in figures)]
                        figure = bar_verdict(bars, figures)
                    if figure is None and self._computes(gate, u, a, b, bars[0].name):
                        figure = computed_result(low, a, b, bars, decimal_comma=self._comma())  # "... = 140.5m": the gate worked out
                    if figure is None and all(bar.value == 0 for bar in bars) and self._on_label_line(gate, u):
                        # a sign test's quantity given on the gate's label line ("Graham Formula Value: $52.40"): its sign is
                        # the test's answer, as a worked result's is
                        figure = bar_verdict(bars, list(self._figures(a, b)))  # type: ignore[attr-defined]
                    if figure is not None:
                        tests = " / ".join(f"{bar.name} {bar.op} {bar.value}" for bar in bars)
                        found.append((figure[2], f"the figure {self.masked[figure[0] : figure[1]]!r} against the card's test {tests}"))
                finally:
                    if not mine and _NOUN_SUBJECT.match(low, a, b):
                        foreign.update(range(n0, len(found)))  # read from a clause about another subject
        if named:  # a clause names the gate's own criterion: one about another subject does not speak for it ("the balance
            found = [f for k, f in enumerate(found) if k not in foreign]  # sheet is intact, but the moat is gone": no PROCEED)
        verdicts = {v for v, _ in found}
        if len(verdicts) > 1 and own_line is not None and found[-1] is own_line:
            return own_line  # the section ends on an appraisal standing as its own sentence: the writer's last word wins
        if len(verdicts) != 1:
            return None
        return next(iter(verdicts)), "; ".join(w for _, w in found[:3])
