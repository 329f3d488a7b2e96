"""English final verdicts in the writer's own wording that :mod:`._acted` reads besides acts on the subject (issue 13,
stop 37, "final verdicts in the wild"; paper §7.5).

Wild closings often state the decision as a move on the book or a position rather than as the card's outcome:

* **a move on the book's risk** ("so I'm taking risk off", "I'm cutting risk", "we are adding risk"): the card's
  outcome whose name says the same move (:func:`risk_outcome`: REDUCE_RISK, BUBBLE_REDUCE_RISK; INCREASE_RISK, ...);
* **a position opened** ("My move: starter position this week", "we are opening a 2% position"): the pass outcome of a
  card that decides whether to enter one (:func:`enters`);
* **a bare act closing the writer's sentence** ("I'd cut the order to 7% and buy.", "We hold."): the act's side, as an
  act on the subject is read (:func:`_writer_acts` checks the writer is its subject).

They are read in the closing paragraph, which :func:`closing_paragraph_start` finds before a postscript, links, a
disclaimer or a sign-off ("Enjoy.", "PS: ..."). :mod:`._final`'s ``consider`` applies negation, conditions, the past and
other voices to each, as to every stated final.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._act_words import ACTS

__all__ = ["closing_paragraph_start", "enters", "opens_position", "risk_outcome"]


#: The book's risk cut or raised in the writer's words ("taking risk off", "I'm cutting risk", "we de-risk", "adding risk"):
#: the card's outcome that names the same move (REDUCE_RISK, BUBBLE_REDUCE_RISK; INCREASE_RISK, ADD_RISK, RE_RISK_...).
#: Its object is the risk itself or a holding's share of the book ("cut its small-cap weight in half", "we are reducing
#: our equity exposure", "trim the stock allocation"): the same move on a holding as on risk (s41finals, n38 wild finals).
#: Past forms stay out ("we trimmed our risk by a third" is history); "cut" is both.
#: A holding's share takes a possessive or "the" ("adds weight to the case" is an idiom, no act).
_RISK_OBJECT = (r"(?:(?:[ \t]+(?:the|our|my|some|more|portfolio|book))*[ \t]+risk\b"
                r"|[ \t]+(?:the|our|my|its|their)(?:[ \t]+[\w-]+)?[ \t]+(?:exposure|weight|weighting|allocation)\b)")
_RISK_ACT = re.compile(
    r"(?i)\b(?:(?P<off>(?:take|takes|taking|took)[ \t]+(?:some[ \t]+)?risk[ \t]+off\b|(?:cut|cuts|cutting|reduce|reduces|reducing|"
    r"lower|lowers|lowering|trim|trims|trimming|halve|halves|halving)" + _RISK_OBJECT
    + r"|de-?risk(?:s|ing)?\b)"
    r"|(?P<on>(?:add|adds|adding|increase|increases|increasing|raise|raises|raising|take|takes|taking)"
    r"(?:[ \t]+on)?" + _RISK_OBJECT + r"|re-?risk(?:s|ing)?\b))")


#: A position opened or sized in the writer's words ("starter position this week", "a 1.5% test position", "we are
#: building a position"): the pass outcome of a card that decides whether to enter (:func:`enters`).
_POSITION_ACT = re.compile(
    r"(?i)\b(?:starter|initial|opening|pilot|test|tracking|toehold|toe-hold)[ \t-]+position\b"
    r"|\b(?:open|opens|opening|start|starts|starting|initiate|initiates|initiating|build|builds|building|establish|establishes|"
    r"establishing)[ \t]+(?:a|an|our|my)[ \t]+(?:[\w.%-]+[ \t]+){0,2}?position\b")


#: A verb that ends a position, right before it: "close the test position", "exit our starter position" is no opening.
_ENDED_BEFORE = re.compile(r"(?i)\b(?:close|closes|closing|closed|exit|exits|exiting|exited|unwind|unwinds|unwinding|unwound|sell|sells|"
                           r"selling|sold|liquidate|liquidates|liquidating|liquidated|cut|cuts|cutting|trim|trims|trimming|trimmed|drop|"
                           r"drops|dropping|dropped|stop|stops|stopping|stopped|kill|kills|killing|killed|reduce|reduces|reducing|reduced)"
                           r"(?:[ \t]+(?:out[ \t]+of|the|our|my|this|that|its|a|an|\d[\d.]*%))*[ \t]+\Z")


#: A definite determiner right before a position phrase, no verb of opening before it: "the test position is on",
#: "that starter position" name a position the text spoke of, they open none ("take the starter position" does).
_REFERENCE_BEFORE = re.compile(r"(?i)(?<!\w)(?P<verb>(?:open|opens|opening|opened|start|starts|starting|started|take|takes|taking|took|"
                               r"initiate|initiates|initiating|initiated|put[ \t]+on|putting[ \t]+on|add|adds|adding)[ \t]+)?"
                               r"(?:the|this|that|its)[ \t]+(?:[\d.,]+%[ \t]+)?\Z")


#: A position phrase in title case ("Test Position", "Starter Position"): a heading's topic, no act.
_TITLED = re.compile(r"[A-Z][\w-]*[ \t-]+Position\b")


def opens_position(text: str, start: int) -> bool:
    """Whether the position phrase at ``start`` is opened: not ended by the verb before it ("close the test position"),
    nor a definite reference without a verb of opening ("the test position is on" speaks of one already named).

    >>> t = "Final call: close the test position."
    >>> opens_position(t, t.index("test")), opens_position("My move: starter position.", 9)
    (False, True)
    >>> t = "The thesis is live and the test position is on; we take the starter position."
    >>> opens_position(t, t.index("test")), opens_position(t, t.index("starter")), opens_position("A Test Position", 2)
    (False, True, False)
    """
    if _ENDED_BEFORE.search(text, max(0, start - 40), start) is not None:
        return False
    if _TITLED.match(text, start):
        return False  # "Reflexivity and a Test Position": a heading's title case names a topic
    ref = _REFERENCE_BEFORE.search(text, max(0, start - 40), start)
    return ref is None or ref.group("verb") is not None


def enters(pass_outcome: str | None) -> bool:
    """Whether a card's pass outcome is to enter a position (INVEST, BUY, TAKE_POSITION, ACQUIRE), so that opening one
    states it.

    >>> enters("INVEST"), enters("TAKE_POSITION"), enters("ADOPT_POSTURE"), enters(None)
    (True, True, False, False)
    """
    return pass_outcome is not None and not {"INVEST", "BUY", "POSITION", "ACQUIRE"}.isdisjoint(pass_outcome.split("_"))


def risk_outcome(outcomes: set[str], off: bool) -> str | None:
    """The card outcome (among ``outcomes``) that names a cut (``off``) or a rise of risk, else None.

    >>> risk_outcome({"HOLD", "BUBBLE_REDUCE_RISK"}, True), risk_outcome({"ADD_RISK", "REDUCE_RISK"}, False)
    ('BUBBLE_REDUCE_RISK', 'ADD_RISK')
    >>> risk_outcome({"INVEST", "DECLINE"}, True) is None
    True
    """
    for name in sorted(outcomes):
        parts = name.split("_")
        if "RISK" not in parts:
            continue
        if off and not {"REDUCE", "CUT", "LOWER"}.isdisjoint(parts):
            return name
        if not off and (not {"INCREASE", "ADD", "RAISE"}.isdisjoint(parts) or name.startswith(("RE_RISK", "BUY_RISK"))):
            return name
    return None


#: A single-word act verb closing its sentence, the writer its subject ("I'd cut the order to 7% and buy.", "We hold."):
#: the subject opens the sentence or a clause, and no relative or conditional word stands between ("the price at which
#: I would buy." is no decision).
_BARE_VERBS = {w: side for side, words in ACTS.items() for w in words if " " not in w and w[-1:] != "s"}
_BARE_ACT = re.compile(r"(?i)\b(?P<verb>" + "|".join(sorted(_BARE_VERBS, key=len, reverse=True)) + r")(?=[ \t]*(?:[.!](?:\s|\Z)|\Z))")
_WRITER_OPENS = re.compile(r"(?i)(?:\A|[,;:\u2014]|\b(?:so|then|and|but|thus|hence|therefore))[ \t*_]*(?:i|we)(?:['\u2019](?:d|ll)|[ \t]+(?:would|will|should|shall|must|can))?\b"
                           r"(?P<rest>[^.;:!?]*)\Z")
_NOT_MAIN = frozenset("that which who whom whose where if when unless whether once before after until than".split())


def _writer_acts(before: str) -> bool:
    """Whether the writer is the subject of an act verb that follows ``before`` (its sentence up to the verb).

    The verb follows the subject, a modal, "and" or an adverb: after any other word it is no verb of the writer's
    ("I am not adding a forecast of my own.": "own" there is an adjective).

    >>> _writer_acts("I'd cut the order to 7% and "), _writer_acts("the price at which I would "), _writer_acts("Funds ")
    (True, False, False)
    >>> _writer_acts("I am not adding a forecast of my "), _writer_acts("We ")
    (False, True)
    """
    m = _WRITER_OPENS.search(before)
    if m is None:
        return False
    words = re.findall(r"[a-z'’]+", before.lower())
    last = words[-1] if words else ""
    return _NOT_MAIN.isdisjoint(re.findall(r"[a-z']+", m.group("rest").lower())) \
        and (last in _BEFORE_VERB or last.endswith(("'d", "’d", "'ll", "’ll", "ly")))


#: The words an act verb of the writer's may follow: its subject, a modal or auxiliary, "and", "then" or an adverb.
_BEFORE_VERB = frozenset("i we and then would will should shall must can also now just simply still so therefore thus".split())


#: A paragraph after the answer's decision that is no part of it: a postscript, links, sources, a disclaimer, a call to
#: subscribe (:data:`_TRAILER`), or a sign-off of at most five words (:data:`_SIGN_OFF`) ("Enjoy.", "Cheers,\nThe desk").
_TRAILER = re.compile(r"(?i)[ \t>*_#-]*(?:p\.?\s?p?\.?s\.?\b|links?\b|sources?\b|references?\b|further[ \t]+reading\b|disclaimer\b|"
                      r"disclosure\b|subscribe\b|if[ \t]+you[ \t]+(?:liked|enjoyed)\b|not[ \t]+(?:investment|financial)[ \t]+advice\b)")
#: A sign-off: a greeting word opening a paragraph, or a first line closing on a comma or "!" ("Cheers,\nAnn", "Onwards!").
_SIGN_OFF = re.compile(r"(?i)[ \t>*_-]*(?:(?:thanks|thank[ \t]+you|cheers|enjoy|best|regards|happy|until|see[ \t]+you|stay|good[ \t]+luck|"
                       r"onwards|yours|take[ \t]+care)\b|[^\n]*[,!][ \t]*(?:\n|\Z))")
_MAX_TRAILERS = 3


def closing_paragraph_start(text: str) -> int:
    """Where the answer's closing paragraph starts: after the last blank line, stepping back over at most three trailing
    paragraphs that are a postscript, links, a disclaimer or a short sign-off; 0 when the text has one paragraph.

    >>> t = "Gauges read hot.\\n\\nSo we are taking risk off.\\n\\nCheers.\\n\\nPS - charts next week."
    >>> t[closing_paragraph_start(t):][:25]
    'So we are taking risk off'
    >>> closing_paragraph_start("One paragraph only.")
    0
    """
    body = text.rstrip()
    end = len(body)
    for _ in range(_MAX_TRAILERS + 1):
        para = body.rfind("\n\n", 0, end)
        start = para + 2 if para >= 0 else 0
        paragraph = body[start:end]
        if para < 0 or not (_TRAILER.match(paragraph) or _SIGN_OFF.match(paragraph) and len(re.findall(r"[^\W_]+", paragraph)) <= 5):
            return start
        end = para
    return start
