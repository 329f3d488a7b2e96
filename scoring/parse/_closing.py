"""How real reports close with their verdict (issue 13, final verdicts in the wild; read by :mod:`._final`).

The labels and cues whose value is the verdict live here, one home for them (``_LABEL_BEFORE``: "Result:" opening a
line; ``_CUE_BEFORE``: "Decision:" opening a sentence inside one; :func:`decision_label_before`: a longer label ending
in a decision cue, "Committee decision:"), with :class:`_ClosingMixin` (the value of a label, an outcome word opening
the closing sentence, the closing verdict word of a last paragraph) and the ways of stating the final verdict that need
no cue word before it:

* an answer to the question the text opens with: a sentence that opens with "yes" or "no" ("So no, not a buy on
  this basis.", "So yes, as a turnaround it's a buy.", "No, I'm not buying this one."). The words after the
  particle are the writer's answer; the particle itself negates nothing after it ("So no, I'm not buying" is not
  "not not buying");
* the result of a sum or an arrow at the end of its line ("Fast Grower + PEG 0.80 + 4/6 traits = Buy",
  "two flags -> SELL");
* a decision label whose whole value is yes or no ("Final answer: no.", "Decision: yes, buy.", "TL;DR: no"), and a
  question about buying answered at once ("Should you buy? No.", "Worth buying? Not yet.");
* a phrase of several words for an outcome ("in a bubble", "keep holding") in the answer's last sentence,
  which counts in lower case: one word ("invest", "hold") is too common to count there.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Trigger
from ipb.scoring.parse._act_words import ANSWERS
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._writer_acts import _RISK_ACT, risk_outcome

__all__ = [
    "_CUE_BEFORE",
    "CUE_LABEL",
    "_LABEL_BEFORE",
    "_ClosingMixin",
    "ANSWER_LABEL",
    "ANSWER_LABEL_TRIGGERS",
    "QUESTION_TRIGGERS",
    "answer_particle_end",
    "answers_another",
    "own_answer",
    "buying_answer",
    "at_another_price",
    "other_object",
    "decision_label_before",
    "is_result",
    "last_sentence",
]

#: A sentence opening with an answer particle, after at most a connective ("So no,", "Then yes:", "In short, no -").
#: Other languages' particles are the ``answers`` of their acts blocks (grammar/languages.yaml): "Nein, wir kaufen.".
_ANSWER_OPENS = re.compile(
    r"(?i)[ \t>*_#-]*+(?:(?:so|then|well|thus|hence|and|in[ \t]++short|short[ \t]++answer|the[ \t]++short[ \t]++answer[ \t]++is)"
    r"(?:[ \t]*+[,:])?[ \t]++)?(?:yes|no|" + "|".join(re.escape(w) for w in ANSWERS) + r")(?:[ \t]*+[,;!:\u2014\u2013]|[ \t]++-)")
#: Right before a word: a sum's equals sign or an arrow ("... = Buy", "-> SELL", "\u2192 Avoid").
_RESULT_BEFORE = re.compile(r"(?:=|\u2192|\u21d2|->|=>)[ \t]*[*_]{0,2}[ \t]*\Z")
#: Right after a word: nothing more on its line but emphasis and a full stop.
_LINE_ENDS = re.compile(r"[ \t]*[*_]{0,2}[ \t]*[.!]?[ \t]*[*_]{0,2}[ \t]*(?:\n|\Z)")


def answer_particle_end(text: str, sentence_start: int, pos: int) -> int | None:
    """Where the answer particle opening the sentence at ``sentence_start`` ends, when one opens it before ``pos``.

    >>> text = "Is it a buy? So no, not a buy."
    >>> answer_particle_end(text, 13, 27)
    19
    >>> answer_particle_end("No bubble here.", 0, 3) is None
    True
    """
    m = _ANSWER_OPENS.match(text, sentence_start, pos)
    return None if m is None else m.end()


#: A "no" the writer breaks off with inside a sentence, after a break (comma, ellipsis, dash) and before punctuation:
#: "INVEST... no, DECLINE", "INVEST, wait, no, DECLINE", "INVEST \u2014 no: DECLINE". Not "no debt", "no, " opening a
#: sentence is :data:`_ANSWER_OPENS`'s.
_REPAIR_NO = re.compile(r"(?i)(?:[,;\u2026\u2014\u2013]|\.\.\.|[ \t]-)[ \t]*(?:(?:wait|hmm|um|oh|well)[ \t,.\u2026\u2014\u2013-]+)?no[ \t]*[,:;\u2014\u2013][ \t]*")


def repair_no_end(text: str, start: int, pos: int) -> int | None:
    """Where the last repairing "no" (:data:`_REPAIR_NO`) in ``text[start:pos]`` ends, or None.

    >>> t = "Final verdict: INVEST... no, DECLINE."
    >>> t[repair_no_end(t, 0, t.index("DECLINE")):]
    'DECLINE.'
    >>> repair_no_end("We see no, or little, risk in DECLINE.", 0, 30) is None
    True
    """
    end = None
    for m in _REPAIR_NO.finditer(text, start, pos):
        end = m.end()
    return end


#: A question about another company or instrument than the one under analysis ("Its rival Beta Corp, though?", "And the
#: competitor?", "What about the bonds?").
_OTHER_PARTY = re.compile(r"(?i)\b(?:rivals?|competitors?|peers?|the[ \t]+other|another[ \t]+(?:company|name|stock)|bonds?|notes|"
                          r"debt|preferreds?|warrants?|options?|parent|subsidiar(?:y|ies)|spin-?off)\b")


def answers_another(text: str, sentence_start: int) -> bool:
    """Whether the sentence at ``sentence_start`` opens with an answer particle ("So no, not a buy.") right after a question
    about another company or instrument ("Its rival Beta Corp, though?"): the answer is about that one.

    >>> t = "Margins are fine. The rival, though? So no, not a buy."
    >>> answers_another(t, t.index("So no"))
    True
    >>> t = "Is the stock a buy? So no, not a buy."
    >>> answers_another(t, t.index("So no"))
    False
    """
    if _ANSWER_OPENS.match(text, sentence_start) is None:
        return False
    before = text[max(0, sentence_start - 200) : sentence_start].rstrip(" \t*_")
    if not before.endswith("?"):
        return False
    opening = max(before.rfind("\n", 0, len(before) - 1), before.rfind(". ", 0, len(before) - 1), before.rfind("? ", 0, len(before) - 1))
    return _OTHER_PARTY.search(before, opening + 1) is not None


def asked_outcome(text: str, start: int, outcomes: tuple[str, str]) -> int | None:
    """Which of ``outcomes`` (pass, fail) the question right before an answer at ``start`` names by its word: 0 for the
    pass outcome, 1 for the fail one, None when it names neither or both (then "no" keeps its plain sense, the fail
    outcome). The question is the last sentence ending in "?" within 200 characters before ``start``.

    >>> asked_outcome('Should we DECLINE?" The answer is no.', 20, ("INVEST", "DECLINE")), asked_outcome("Is it good? No.", 12, ("INVEST", "DECLINE"))
    (1, None)
    """
    question = question_before(text, start)
    if question is None:
        return None
    named = [i for i, word in enumerate(outcomes) if re.search(rf"\b{re.escape(word.lower())}\b", question)]
    if not named:  # "Clients ask whether to cut risk. Our answer is no.": the act a risk outcome names
        acts = [risk_outcome(set(outcomes), m.group("off") is not None) for m in _RISK_ACT.finditer(question)]
        named = sorted({outcomes.index(a) for a in acts if a in outcomes})
    if not named:  # "Is this a bubble? Our answer is no.": the state an outcome NO_BUBBLE denies; the other one asked
        for i, name in enumerate(outcomes):
            parts = name.lower().split("_")
            if len(parts) > 1 and parts[0] in ("no", "not") and all(re.search(rf"\b{p}s?\b", question) for p in parts[1:]):
                named.append(1 - i)
    return named[0] if len(named) == 1 else None


def question_before(text: str, start: int) -> str | None:
    """The question (lower case, its "?" left out) that an answer at ``start`` replies to: the last sentence ending in
    "?" within 200 characters before it, else an indirect one in the sentence right before ("Clients keep asking
    whether to cut risk."); None when there is none.

    >>> question_before("Is it time to worry? The answer is no.", 21), question_before("The answer is no.", 0)
    ('is it time to worry', None)
    """
    before = text[max(0, start - 200) : start]
    q = before.rfind("?")
    if q < 0:
        q = _indirect_question_end(before)
        if q < 0:
            return None
    opening = max(before.rfind("\n", 0, q), before.rfind(". ", 0, q), before.rfind("! ", 0, q), before.rfind("? ", 0, q))
    return before[opening + 1 : q].lower().strip()


#: An indirect question: "asking whether to cut risk", "wonder if we should trim" (no question mark).
_INDIRECT = re.compile(r"(?i)\b(?:whether|ask(?:s|ed|ing)?[ \t]+if|wonder(?:s|ed|ing)?[ \t]+if)\b")


def _indirect_question_end(before: str) -> int:
    """Where the last sentence of ``before`` that asks an indirect question ends (its stop), or -1: the sentence right
    before the answer ("Clients keep asking whether to cut risk. Our answer is no.")."""
    stop = before.rstrip().rfind(".")
    if stop < 0:
        return -1
    opening = max(before.rfind("\n", 0, stop), before.rfind(". ", 0, stop), before.rfind("! ", 0, stop), before.rfind("? ", 0, stop))
    return stop if _INDIRECT.search(before, opening + 1, stop) is not None else -1


def is_result(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` is the result of a sum or an arrow ending its line ("4/6 traits = Buy").

    >>> text = "Verdict: Fast Grower + PEG 0.8 = Buy\\nnext"
    >>> is_result(text, 33, 36)
    True
    >>> is_result("= Buy more later", 2, 5)
    False
    """
    line_start = text.rfind("\n", 0, start) + 1
    return _RESULT_BEFORE.search(text, max(line_start, start - 8), start) is not None and _LINE_ENDS.match(text, end) is not None


def last_sentence(units: list, masked: str, u: int) -> bool:
    """Whether sentence ``u`` (of ``units``, objects with ``start`` and ``end``) is the last one holding any text."""
    for k in range(len(units) - 1, u, -1):
        if masked[units[k].start : units[k].end].strip(" \t\n*_#>-"):
            return False
    return True


#: A decision label whose whole value is yes or no, opening its line: "Final answer: no.", "**Short answer** - yes",
#: "Decision: no.", "Bottom line: yes, buy.", "TL;DR: no". ("Verdict" only after final / overall: a gate's own "Verdict: No"
#: is that gate's.) The spacing and emphasis around the mark are atomic: neither the mark nor the answer opens with a space, tab,
#: "*" or "_", so only the longest run can be followed by them ("[ \t]*[*_]{0,2}[ \t]*" split a run of n tabs every way:
#: "Final verdict:" + 20,000 tabs hung).
ANSWER_LABEL = re.compile(
    r"(?i)(?:(?:final|overall|short)[ \t]+(?:answer|verdict|decision)|decision|bottom[ \t-]+line|tl;?[ \t]?dr)(?>[ \t]*[*_]{0,2}[ \t]*)"
    r"[:\u2014\u2013-](?>[ \t]*[*_]{0,2}[ \t]*)(?P<answer>no|yes)\b(?=[ \t*_]*+(?:[.;!,]|$))", re.M)
ANSWER_LABEL_TRIGGERS = [Trigger(w, ANSWER_LABEL) for w in ("final", "overall", "short", "decision", "bottom", "tl;dr", "tldr", "tl dr")]
#: What may stand before such a label in its line or sentence: emphasis and at most two plain words ("Committee
#: decision: no.", "My final answer - yes"), none of them someone else's or a past one's.
_LABEL_HEAD = re.compile(r"(?i)[ \t>*_#-]*(?:[a-z]+[ \t]+){0,2}[*_]{0,2}")
_OTHERS_HEAD = re.compile(r"(?i)\b(?:their|his|her|its|previous|prior|earlier|former|original|old|last|past)\b")
#: Right after a "yes": a condition or a price limit ("yes, but only below $20", "yes if it falls 30%", "Yes, once the
#: debt is refinanced"): a buy at another price or time, not the answer for today.
_LIMITED_YES = re.compile(r"(?i)[ \t*_]*+(?:[,;:\u2014\u2013-][ \t]*+)?(?:but[ \t]++)?(?:only[ \t]++)?"
                          r"(?:if|once|when|unless|provided|below|under|beneath|after|on[ \t]++a[ \t]++(?:pullback|dip|drop))\b")


def own_answer(text: str, m: re.Match[str]) -> bool:
    """Whether the yes or no of ``m`` (a match of :data:`ANSWER_LABEL`, whose label opens its line or sentence as the
    writer's own) is the writer's answer for today: not "The previous analyst's decision: no." or "Their bottom line:
    yes" (someone else's), nor "Bottom line: yes, but only below $20" (a limit or a condition).

    >>> own_answer("Committee decision: no.", ANSWER_LABEL.search("Committee decision: no."))
    True
    >>> text = "The previous analyst's decision: no. Mine differs."
    >>> own_answer(text, ANSWER_LABEL.search(text))
    False
    >>> text = "Costs are high. Last year's decision: yes."
    >>> own_answer(text, ANSWER_LABEL.search(text))
    False
    >>> text = "Bottom line: yes, but only below $20."
    >>> own_answer(text, ANSWER_LABEL.search(text))
    False
    """
    start = m.start()
    if m.group("answer").lower() == "yes" and _LIMITED_YES.match(text, m.end("answer")) is not None:
        return False
    line = text.rfind("\n", 0, start) + 1
    sentence = max(text.rfind(". ", line, start), text.rfind("? ", line, start), text.rfind("! ", line, start))
    head = text[sentence + 2 if sentence >= 0 else line : start]
    return _LABEL_HEAD.fullmatch(head) is not None and _OTHERS_HEAD.search(head) is None

#: A question answered at once: "? No.", "? Yes, ...", "? Not yet." (the question itself is checked by :func:`buying_answer`).
#: "Not at 1.78 billion.", "Not at $41.": no, at the price the text quotes.
_ANSWERED = re.compile(r"\?[ \t*_]*(?P<answer>yes|no|nope|not[ \t]+(?:yet|now|today|at[ \t]+(?:this|that|today's)[ \t]+price"
                       r"|at[ \t]+(?:[$\u20ac\u00a3][ \t]?)?\d[\d.,]*(?:[ \t]*(?:billion|million|bn|mn|[bmk]))?))\b"
                       r"(?=[ \t*_]*(?:[.;!,]|$))", re.I | re.M)
QUESTION_TRIGGERS = [Trigger("?", _ANSWERED, word=False)]
#: The question asks whether to buy (and nothing negates or conditions it).
_BUY_QUESTION = re.compile(r"(?i)\b(?:buy|invest|own|purchase|a[ \t]+buy|buying|investing)\b")
_QUESTION_SPOILERS = re.compile(r"(?i)\b(?:not|never|avoid|sell|selling|short|if|unless|when|should\s+I\s+not|n't)\b|n't\b")


#: A line opening a list item ("4. ", "(b) ", "- "); a person who may be the one to buy ("I", "we", "you", "one").
_LIST_ITEM = re.compile(r"[ \t>]*(?:\(?\d{1,2}[.)]|\(?[a-z][.)]|[-*\u2022])[ \t]+")
_ASKER = re.compile(r"(?i)\b(?:i|we|you|one|us|me)\b")


def buying_answer(text: str, m: re.Match[str]) -> bool | None:
    """For a match of :data:`QUESTION_TRIGGERS`: True when the question before it asks whether to buy and is answered yes,
    False when answered no (or "not yet"), None when the question is about something else.

    >>> m = _ANSWERED.search("Should you buy? No.")
    >>> buying_answer("Should you buy? No.", m)
    False
    >>> m = _ANSWERED.search("Is the debt a problem? No.")
    >>> buying_answer("Is the debt a problem? No.", m) is None
    True
    >>> t = "4. Insider buying in the last year? No."
    >>> buying_answer(t, _ANSWERED.search(t)) is None, buying_answer("5. Should we buy? No.", _ANSWERED.search("5. Should we buy? No."))
    (True, False)
    """
    start = m.start()
    opening = max(text.rfind("\n", 0, start), text.rfind(". ", 0, start), text.rfind("? ", 0, start), text.rfind("! ", 0, start))
    question = text[max(opening + 1, start - 120) : start]
    buy = _BUY_QUESTION.search(question)
    if buy is None or _QUESTION_SPOILERS.search(question) is not None:
        return None
    if other_object(question, buy.end()):
        return None  # "Should you buy the bonds? No.": a question about another thing than the company
    line_start = text.rfind("\n", 0, start) + 1
    if _LIST_ITEM.match(text, line_start) is not None and _ASKER.search(question) is None:
        return None  # "4. Insider buying in the last twelve months? No.": a checklist item asked of the company, no decision
    line_end = text.find("\n", m.end())
    if _ANSWERED.search(text, m.end(), len(text) if line_end < 0 else line_end) is not None:
        return None  # "Worth buying at any price? No. At today's 11x? Yes.": a later question narrows it, and this answer stands back
    if m.group("answer").lower() == "yes" and _LIMITED_YES.match(text, m.end("answer")) is not None:
        return None  # "Would I buy it? Yes, below $20.": a limit, not today's answer
    return m.group("answer").lower() == "yes"


#: After an action word: its object when it is not the company ("avoid the hype", "avoid leverage", "buy the cash flows",
#: "buy the bonds"); the words that may follow an action on the company itself are not objects.
_OBJECT_AFTER = re.compile(r"[ \t]+(?:the[ \t]+|its[ \t]+|all[ \t]+)?(?P<word>[a-z][a-z-]+)\b")
_NOT_OTHER = frozenset({
    "it", "this", "that", "them", "these", "those", "here", "now", "today", "yet", "more", "some", "back", "again", "outright",
    "stock", "shares", "share", "company", "business", "name", "one", "equity", "firm", "position", "stake", "ticker", "anyway",
    "at", "in", "into", "on", "to", "for", "of", "by", "with", "below", "under", "above", "over", "around", "near", "up", "and", "or", "but", "if",
    "unless", "until", "when", "once", "as", "because", "while", "since", "a", "an", "is", "are", "was", "be", "from", "after", "before", "though", "too",
    "either", "then", "so", "both", "entirely", "completely", "altogether", "rather", "instead", "only", "not", "without"})


def other_object(text: str, end: int) -> bool:
    """Whether the action word ending at ``end`` takes an object in lower case that is not the company ("avoid the hype,
    buy the cash flows", "Should you buy the bonds?"): its verdict is about that object, not the company.

    >>> other_object("TL;DR: avoid the hype, buy it.", 12)
    True
    >>> other_object("TL;DR: avoid the stock.", 12)
    False
    >>> other_object("Decision: avoid.", 15)
    False
    """
    m = _OBJECT_AFTER.match(text, end)
    return m is not None and m.group("word") not in _NOT_OTHER and not m.group("word").endswith("ly")


#: A sentence opening with a price other than today's ("At 35 we'd be buyers", "Below $20 I would buy", "Under 10x earnings,
#: I'd consider it", "At a lower price we'd look again").
_PRICE_OPENING = re.compile(
    r"(?i)[ \t>*_#-]*+(?:(?:so|but|and|then)(?:[ \t]*+,)?[ \t]++)?(?:at|below|under|beneath|above|over|nearer)[ \t]++"
    r"(?:about[ \t]++|around[ \t]++|roughly[ \t]++|~)?"
    r"(?:(?:[$\u00a3\u20ac\u00a5]|[A-Z]{1,3}\$?[ \t]?)?\d|an?[ \t]++(?:lower|better|cheaper|higher)[ \t]++(?:price|level|valuation|multiple)\b)")
#: The conditional mood of a decider ("we'd", "I would", "could"): what the writer would do, not what they did or do.
_WOULD = re.compile(r"(?i)\b(?:would|could|might)\b|['\u2019]d\b")


def at_another_price(text: str, sentence_start: int, pos: int, end: int | None = None) -> bool:
    """Whether the verdict at ``pos`` (ending at ``end``) is what the writer would do at another price: its sentence (opening at
    ``sentence_start``) opens with a price ("At 35", "Below $20", "At a lower price") and states the verdict in the
    conditional mood before ``end`` ("we'd be buyers", "I would buy"). :mod:`._final` counts no buy so stated: the
    README's conditional mentions ("a lower price could turn this into an INVEST"); a decline so stated ("At $50B there
    is no margin of safety, and Buffett would pass") is a decline at the price the text discusses, and still counts.

    >>> t = "At 35 we'd be buyers, and we've said so."
    >>> at_another_price(t, 0, t.index("we'd"), t.index(","))
    True
    >>> t = "At 41 cents the notes are a buy."
    >>> at_another_price(t, 0, t.index("a buy"))
    False
    >>> t = "We'd be buyers at these levels."
    >>> at_another_price(t, 0, t.index("buyers"))
    False
    """
    m = _PRICE_OPENING.match(text, sentence_start, pos)
    return m is not None and _WOULD.search(text, m.end(), pos if end is None else end) is not None


#: Just before an outcome word on its line: a label ("Result:", "Verdict —", "**Decision:**", "Our take: a").
#: A JSON-ish field counts as a label too: its key may be quoted and its value opens with a quote
#: ('"tilt": "TILT_TO_NOMINAL_BONDS"', "'decision': 'hold'").
_LABEL_BEFORE = re.compile(r"(?:^|(?<=\n))[ \t>*_#-]*[\"']?[A-Za-z][\w /'()-]{0,30}?[\"']?[ \t]*[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)[ \t]*[*_]{0,2}[ \t]*[\"']?[ \t]*(?:an?[ \t]+)?\Z")

#: The decision cue up to the outcome it labels: "my final verdict -", "Decision:", "TL;DR:", "**Call** -", "Ours:" (after
#: another party's verdict: "The newsletter's verdict: invest. Ours: decline.", break43 #9), whose
#: decision it is named after it ("Decision for the course portfolio:", "Recommendation to the fund:"; s41finals) (one word list:
#: :data:`_CUE_BEFORE` opens it at a sentence, :mod:`._decided`'s act label at a line or a list item's number).
CUE_LABEL = (r"(?:ours|mine|(?:(?:my|our|the)[ \t]+)?(?:(?:final|overall|investment|ultimate|net)[ \t]+)?"
             r"(?:decision|verdict|recommendation|conclusion|call|outcome|action|answer|bottom[ \t-]+line|rating|tl;?[ \t]?dr))"
             r"(?:[ \t]+(?:for|to)[ \t]+(?:the|our|my|your|its|their)(?:[ \t]+(?!(?:in|on|at|during|since|until|before|after|last)\b)[^\W\d_][\w-]*){1,3})?"
             r"[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)[ \t]*[*_]{0,2}[ \t]*[\"']?[ \t]*(?:an?[ \t]+)?\Z")
#: A decision cue opening a sentence in the middle of a line, right before the outcome: "... far above 1.5x. Decision:
#: pass on it.", "Costs are high; my verdict - decline." (new user 3 finding 2; the line-opening form is ``_LABEL_BEFORE``).
_CUE_BEFORE = re.compile(r"(?i)(?:^|(?<=\n)|(?<=[.!?;])[ \t]+)[*_]{0,2}" + CUE_LABEL)


#: A label ending in a decision cue, its value the verdict: "Committee decision:", "Answer to the desk:", "Agent
#: verdict:", "The strategists' common advice to clients:" (up to 60 characters from the line's start or a sentence's).
_DECISION_LABEL = re.compile(
    r"(?i)(?:^|(?<=\n)|(?<=[.!?])[ \t]+)[*_#> \t-]{0,4}(?:[A-Za-z][\w '\u2019()-]{0,50}?\b"
    r"(?:decision|verdict|advice|recommendation|answer|conclusion|outcome|ruling|call|action|view)"
    r"|for[ \t]+now|for[ \t]+the[ \t]+time[ \t]+being|for[ \t]+today)"
    r"(?:[ \t]+(?:to|for|on)[ \t]+(?:the[ \t]+)?[\w ]{1,20}?)?[*_]{0,2}[ \t]*(?::|\u2014|\u2013)[ \t]*[*_]{0,2}[ \t]*(?:an?[ \t]+)?\Z")


def decision_label_before(text: str, line_start: int, start: int) -> bool:
    """Whether ``text[start:]`` is the value of a label ending in a decision cue, on its line or opening its sentence.

    >>> t = "Committee decision: no position for now."
    >>> decision_label_before(t, 0, t.index("no position"))
    True
    >>> t = "The cash flow, in our view, is weak: we need more data."
    >>> decision_label_before(t, 0, t.index("we need"))
    False
    """
    return _DECISION_LABEL.search(text, max(line_start, start - 80), start) is not None


class _ClosingMixin(_ParserState):
    """Where the answer closes: the value of a label, a sentence opening the closing paragraph, the last sentence's verdict word."""

    def _labelled_value(self, start: int) -> bool:
        """Whether the word at ``start`` is the value of a label or a decision cue on its line ("Overall: REBALANCE")."""
        line_start = max(self.masked.rfind("\n", max(0, start - 400), start) + 1, start - 400, 0)
        return _LABEL_BEFORE.search(self.masked, max(line_start, start - 60), start) is not None \
            or _CUE_BEFORE.search(self.masked, max(line_start, start - 60), start) is not None

    def _opens_closing_sentence(self, start: int, u: int) -> bool:
        """Whether an outcome word opens its sentence (after at most a negator: "No rebalance this quarter.") in the
        final region or in the answer's last paragraph, which holds no gate name."""
        unit = self.units[u]
        head = self.masked[unit.start : start].strip(" \t\n*_#>-").lower()
        if head and head not in ("no", "not", "do not", "don't", "never", "a", "an"):  # "A hard pass.": an article too
            return False
        if unit.final:
            return True
        last = self.__dict__.get("_last_paragraph")
        if last is None:  # (start of the answer's last paragraph, whether it names a gate), found once
            body = self.masked.rstrip()
            para = body.rfind("\n\n")
            first = self._unit_at(para + 2) if para >= 0 else 0
            named = any(self.unit_mentions.get(k) for k in range(max(first, 0), len(self.units)))
            last = self.__dict__["_last_paragraph"] = (para + 2 if para >= 0 else 0, named)
        return unit.start >= last[0] and not last[1]

    def _closing_verdict(self) -> tuple[int, int, str, Span] | None:
        """When nothing else states the final verdict: a verdict word in capitals that opens the answer's last sentence
        (or is the value of a label opening it: "Not ready to decide: INCONCLUSIVE until the CFO is heard"),
        in a closing paragraph that names no gate ("I wouldn't allocate and I wouldn't redirect yet. INCONCLUSIVE until
        the attribution is in."), mapped to the card's outcomes (level 2)."""
        ix = self.ix
        for u in range(len(self.units) - 1, -1, -1):
            unit = self.units[u]
            if self.masked[unit.start : unit.end].strip():
                break
        else:
            return None
        para = self.masked.rfind("\n\n", 0, unit.start)
        if para < 0 or not self.masked[:para].strip():
            return None  # the last sentence must close a paragraph of its own after the analysis
        first = self._unit_at(para + 2) if self._unit_at(para + 2) >= 0 else u
        if any(self.unit_mentions.get(k) for k in range(min(first, u), u + 1)):
            return None  # a paragraph that names a gate is that gate's
        for hit in self.unit_hits.get(u, []):
            token = self.masked[hit.start : hit.end]
            line_start = self.masked.rfind("\n", 0, hit.start) + 1
            labelled = _LABEL_BEFORE.search(self.masked, max(line_start, hit.start - 60), hit.start) is not None
            if (self.masked[unit.start : hit.start].strip(" \t*_#>-") and not labelled) or not token.isupper() or len(token) < 4:
                return None  # the word opens the sentence, or is the value of a label opening it ("Not ready to decide: INCONCLUSIVE")
            if hit.word.sense or self._level(hit) < vw.COMMITTED:
                return None
            mapped = ix.own_verdict_words.get(token.upper()) or {  # an outcome spelled PASS is the card's PASS
                vw.PROCEED: ix.pass_outcome, vw.REJECT: ix.fail_outcome, vw.INCONCLUSIVE: vw.INCONCLUSIVE}.get(hit.verdict)
            return None if mapped is None else (2, hit.start, mapped, (hit.start, hit.end))
        return None
