"""Decisions stated as acts or outcomes instead of verdict words (issue 13, "final verdicts in the wild"; paper §7.5).

Real write-ups often close with what was *done* rather than with a verdict word: "So we bought in.", "Harlow goes
into the model portfolio this week.", "Corvane goes on the watch list.", "Committee decision: no position for now.",
"Norges Bank's Executive Board decided to exclude the company.", "the stake is to be sold in full", "the capital will
be redirected to passive factor mandates", "the portfolio needs revising", "Passing.". A careful reader takes each
as the writer's final verdict, mapped to the card's pass or fail outcome (or to the card's own outcome word, when
the act is that word inflected). This module finds such statements; :mod:`._final` weighs them with every other
candidate (its ``consider``: conditions, negation, other voices, labels and position still apply).

Also here, small readers :mod:`._final` asks about context:

* :func:`._closing.decision_label_before` -- a decision cue ending a longer label ("Committee decision:", "Answer to the
  desk:", "The strategists' common advice to clients:"), whose value is the verdict;
* :func:`decider_moves_before` -- the one who decides, moving to or staying in an outcome ("We stay balanced.",
  "I've moved the portfolio to defensive");
* :func:`purpose_infinitive` -- "to buy" / "to sell" after a noun or a verb of need ("the proposal to buy",
  "hired a bank to sell", "who has to sell"): a purpose, not the writer deciding;
* :meth:`_DecidedMixin._in_other_investor` -- a JSON object keyed by another investor or agent
  (``"peter_lynch": {... "verdict": "BUY"}``) when the card's investor has one of their own or the answer's
  top level states the decision.

Every pattern is tried only where its literal occurs (:class:`ipb.scoring._text.Trigger`); per-card patterns are
built once per card and cached, so the cost stays linear in the answer's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ipb.scoring._text import Trigger
from ipb.scoring.parse._closing import CUE_LABEL, decision_label_before
from ipb.scoring.parse._judged import judged_wrong
from ipb.scoring.parse._final_words import _SENT_BACK
from ipb.scoring.parse._past import past_time
from ipb.scoring.parse._state import _ParserState

__all__ = ["decider_moves_before", "purpose_infinitive", "relative_clause"]

_APOS = "['\u2019]"
#: The one who decides, as a subject: the writer, or the fund / committee the answer decides for.
_DECIDER = (rf"(?:\b(?:i|we)(?:{_APOS}(?:ve|d|ll|m|re))?|\b(?:the|our)\s+(?:fund|portfolio|committee|board|firm|panel|team|"
            r"investment\s+committee))")
#: A decider, then at most "have"/"has" and an adverb, ending the text searched: "we have finally ", "So we ".
_DECIDER_END = re.compile(rf"(?i){_DECIDER}(?:\s+(?:have|has|had))?(?:\s+(?:now|just|finally|already|also|then|since))?\s+\Z")
#: Only a sentence opener before the match: "Bought a starter position ...", "So, passing.", "And we ...".
_SENTENCE_HEAD = re.compile(r"(?i)(?:^|[\n.!?:;]|\bso,?|\band|\bthen|\bfinally,?)[ \t*_>-]*\Z"
                            # a note's short subject before the act: "Small position, bought.", "Starter stake, bought."
                            r"|(?:^|[\n.!?;])[ \t*_>-]*(?:[\w-]+[ \t]+){0,2}(?:position|stake)[ \t]*,[ \t]*\Z")


@dataclass(frozen=True)
class _Rule:
    """One way of stating a decision: ``pattern`` (tried at ``literals``) means the card's pass outcome (``key`` 1)
    or fail outcome (``key`` 0); ``before`` (when set) must match the text just before it (ending there); ``head``
    also accepts a bare sentence opening before it; ``stated`` says the statement names its decider (it counts in
    lower case anywhere, not only in the conclusion or after a label)."""

    literals: tuple[str, ...]
    pattern: re.Pattern[str]
    key: int
    before: re.Pattern[str] | None = None
    head: bool = False
    stated: bool = True
    #: The statement starts where ``before`` matched (it holds the statement's own negation: "I don't need to own it").
    whole: bool = False
    #: Before the match, within its sentence: the act is the decider's own, stated whatever ``stated`` says ("I am
    #: keeping what I own and not adding at this price": the decider, then the refused act after "and"; s53wild).
    stated_before: re.Pattern[str] | None = None


_OBJECT = r"(?:out\b|it\b|them\b|(?:half|a\s+third|a\s+quarter|some|everything|it\s+all|the\s+lot)\b(?!\s+(?:of\s+)?(?:the|its)\s+(?!position|stake|holding|shares)\w)|(?:the|our|my|its|this|that|half\s+(?:of\s+)?(?:the|our|my))\s+(?:[\w%.-]+\s+){0,2}?" \
          r"(?:position|stake|short|holding|shares|notes|bonds|trade|idea|exposure)\b)"

#: A decider in the act now or next, or the investor profiled ("we are ", "we'll keep ", "we've been ", "He is ", "the fund
#: continues to "): a decision in the progressive or the future ("He is buying regardless.", "we'll keep buying").
_ACTING_BEFORE = re.compile(
    rf"(?i)(?:{_DECIDER}|\b(?:he|she)(?:{_APOS}s)?)(?:\s+(?:am|is|are|will|shall|been|keep|keeps|continue\s+to|continues\s+to|"
    r"have|has))*\s+(?:now\s+|still\s+|also\s+|quietly\s+|steadily\s+)?\Z")
#: The case as the object of money put in or kept out: "it", "them", "the stock", "the shares", a company's name.
_CASE = r"(?:it|them|this\s+one|(?:the|its)\s+(?:stock|shares|company|name|business)|(?-i:[A-Z][\w&'.-]*))\b"
#: The decider opening its sentence, then a first predicate and "and" / "but" before the act: "I am keeping what I own
#: and ", "we hold the shares but are "; or the decider right before it: "I'm ", "we are ".
_DECIDER_COORDINATED = re.compile(
    rf"(?im)(?:^|(?<=[.!?;:])|(?<=[.!?;:][ \t])|(?<=[.!?;:][ \t]{{2}})|(?<=^[ \t*_>-]))[ \t*_>-]*{_DECIDER}(?:\s+(?:am|are|will|would|shall))?\s+(?:[^.;:!?\n]{{1,60}}?\s+(?:and|but)\s+(?:(?:am|are|is|will|would)\s+)?)?\Z")
#: A time just after an act that dates it now ("Bought today:", "sold this morning").
_NOW = r"\s+(?:today|yesterday|this\s+(?:morning|afternoon|week|month|quarter))\b"

_RULES: tuple[_Rule, ...] = (
    # acts of the decider: "we bought", "we have bought a full position", "Bought a starter position", "So we bought in.",
    # "Bought today: ..."
    _Rule(("bought", "purchased"),
          re.compile(r"(?i)(?:bought|purchased)(?!\s+back\b)(?=" + _NOW + r"|\s+(?:in\b|into\b|an?\b|the\b|more\b|some\b|shares\b|[$\u00a3\u20ac]?\d)"
                     r"|[ \t]*[.!]|,[ \t]*(?:[$\u00a3\u20ac]?\d|at\b))"), 1, _DECIDER_END, head=True),  # "Bought, 1/28 of capital."
    _Rule(("took", "taken", "opened", "initiated", "started", "built"),
          re.compile(r"(?i)(?:took|taken|opened|initiated|started|built)\s+(?:an?|the|our|my)\s+(?:[\w%.$-]+\s+){0,3}?(?:position|stake)\b"),
          1, _DECIDER_END, head=True),
    _Rule(("sold", "exited", "closed", "covered", "trimmed", "dumped"),
          re.compile(rf"(?i)(?:sold|exited|closed|covered|trimmed|dumped)\s+{_OBJECT}"), 0, _DECIDER_END, head=True),
    # the act in progress or next: "He is buying regardless.", "at these prices we'll keep buying", "we're adding the new
    # shares", "Selling the position this week.", "we are trimming the stake"
    _Rule(("buying", "accumulating", "adding"),
          re.compile(r"(?i)(?:buying|accumulating)\b(?!\s+(?:time|opportunit|power|price|signal|range|zone|point|spree|"
                     r"momentum|pressure|interest|volume|activity|frenzy|back\s+(?:of\s+)?(?:\w+\s+)?(?:shares|stock))|-)"
                     r"|adding\s+(?:to\s+)?(?:it\b|them\b|more\b|(?:the|our|my)\s+(?:[\w-]+\s+)?(?:shares|stock|position|name|stake)\b)"),
          1, _ACTING_BEFORE),
    _Rule(("selling", "exiting", "trimming", "dumping"),
          re.compile(rf"(?i)(?:selling|exiting|trimming|dumping)\s+{_OBJECT}"), 0, _ACTING_BEFORE, head=True),
    # an imperative closing the answer: "Cover the whole short now.", "Close the position." (counts as a closing or labelled
    # sentence, as any lower-case outcome word does)
    _Rule(("cover", "close", "exit"),
          re.compile(r"(?i)(?:cover|close|exit)\s+(?:the|our|my|this|all|half)\s+(?:of\s+the\s+)?(?:whole\s+|entire\s+|remaining\s+)?"
                     r"(?:short|position|stake|holding|trade)\b"), 0, stated=False),
    _Rule(("take",), re.compile(r"(?i)take\s+(?:an?|the)\s+(?:[\w%.-]+\s+){0,2}?(?:position|stake)\b"), 1, stated=False),
    # the security's own move: into the portfolio, live, onto the watch list
    _Rule(("goes", "go", "went", "going", "gets", "got"),
          re.compile(r"(?i)(?:goes|go|went|going|gets|got)\s+(?:straight\s+)?(?:into\s+(?:the|our|my)\s+(?:[\w-]+\s+)?portfolio\b|live\b)"), 1),
    _Rule(("added", "adds", "joins", "enters"),
          re.compile(r"(?i)(?:added|adds|joins|enters)\s+(?:to\s+)?(?:the|our|my)\s+(?:[\w-]+\s+)?portfolio\b"), 1),
    _Rule(("watch", "wish"), re.compile(r"(?i)(?:watch|wish)[ -]?list\b"), 0,
          re.compile(r"(?i)\b(?:goes|go|went|going|stays?|remains?|put|puts|placed|added|moved?|moves|back|sits?|is|stays)\s+"
                     r"(?:\w+\s+)?(?:on|onto)\s+(?:the|our|my|a)\s+\Z")),
    # the buy list is the watch list's counterpart: "it goes on our buy list", "Corvane is added to the buy-list"
    _Rule(("buy",), re.compile(r"(?i)buy[ -]?list\b"), 1,
          re.compile(r"(?i)\b(?:goes|go|went|going|stays?|remains?|put|puts|placed|added|moved?|moves|back|sits?|is|stays)\s+"
                     r"(?:\w+\s+)?(?:on|onto|to)\s+(?:the|our|my|a)\s+\Z"), whole=True),  # (its negation is before the verb)
    # the buy list's other side: "Quillon stays off my buy list for now", "it comes off our buy list" (s54wild)
    _Rule(("off",), re.compile(r"(?i)off\s+(?:the|our|my)\s+buy[ -]?list\b"), 0,
          re.compile(r"(?i)\b(?:goes|go|went|going|stays?|remains?|is|are|kept|keep|keeps|keeping|taken|takes?|comes?|came|"
                     r"drops?|dropped|moved?|moves)\s+(?:\w+\s+)?\Z")),
    # "Passing.", "I'm passing.", "So, passing."
    _Rule(("passing",), re.compile(r"(?i)passing(?=[ \t]*[.!](?:\s|$))"), 0,
          re.compile(rf"(?i){_DECIDER}(?:\s+(?:am|are))?\s+\Z"), head=True),
    # "no position for now", "No new position." (not a disclosure: "I have no position in ...")
    _Rule(("no",), re.compile(r"(?i)no\s+(?:new\s+)?(?:position|purchase|investment|stake)\b(?!\s+(?:in|is|was|size|sizing|limit)\b)"),
          0, stated=False),
    # "not adding (to it / more shares / here)", not "not adding salt to the wound" or "not adding more commentary"
    _Rule(("not",), re.compile(r"(?i)not\s+(?:an?\s+)?(?:purchase|buying|adding\b(?!\s+(?:(?:more|any|an?)\s+)?"
                               r"(?!(?:to|at|here|now|today|yet|for|more|any|shares|stock|position|exposure|it|them|on|back|"
                               r"until|till|while|again|this|the\s+(?:stock|shares|position|name))\b)[a-z]))\b"
                               r"(?!\s+(?:because|as|on|since)\b)"), 0, stated=False,
          stated_before=_DECIDER_COORDINATED),
    # money kept out of the case: "no new money goes into it this year", "we are not putting fresh money into the shares"
    _Rule(("no",), re.compile(r"(?i)no\s+(?:new|fresh|more|further|additional)\s+(?:money|cash|capital)\s+(?:goes|is\s+going|will\s+go|"
                              r"gets\s+put|is\s+put)\s+(?:in|into)\s+" + _CASE), 0),
    _Rule(("not",), re.compile(r"(?i)not\s+(?:be\s+)?putting\s+(?:any\s+)?(?:(?:new|fresh|more|further|additional)\s+)?(?:money|cash|capital)\s+"
                               r"(?:in|into)\s+" + _CASE), 0,
          re.compile(rf"(?i){_DECIDER}(?:\s+(?:am|are|will|would|shall))?\s+\Z")),
    # "a fine business, but not at this price": the decline at today's price, whatever the verdict on the business
    _Rule(("not",), re.compile(r"(?i)not\s+at\s+(?:this|these|today['\u2019]s|the\s+current|current|the\s+present)\s+(?:share\s+)?"
                               r"(?:price|prices|level|levels|valuation|multiple)\b"), 0,
          re.compile(r"(?i)\b(?:but|just|only|though|yet)[ \t]+\Z")),
    # "I don't need to own it", "we do not want to own the shares"
    _Rule(("own",), re.compile(r"(?i)own\s+(?:it|this|them|the\s+(?:stock|shares|company|business|name|notes|bonds))\b"), 0,
          re.compile(rf"(?i){_DECIDER}\s+(?:don{_APOS}t|do\s+not|wouldn{_APOS}t|would\s+not|won{_APOS}t|will\s+not)\s+(?:want|need)\s+to\s+\Z"),
          whole=True),
    # "that's a buy for me at $38"
    _Rule(("buy",), re.compile(r"(?i)buy\s+for\s+(?:me|us)\b"), 1,
          re.compile(rf"(?i)\b(?:this|it|that)(?:\s+is|{_APOS}s)\s+an?\s+(?:\w+\s+)?\Z")),
    # an exclusion screen's decision: "the fund is again allowed to invest in the company"
    _Rule(("allowed", "permitted"), re.compile(r"(?i)(?:allowed|permitted)\s+to\s+(?:invest|buy|own|hold)\b"), 1,
          re.compile(r"(?i)\b(?:the|our)\s+fund\s+is\s+(?:again\s+|now\s+|once\s+again\s+)?\Z")),
    # a holding to be sold: "the stake is to be sold in full"
    _Rule(("sold", "divested"), re.compile(r"(?i)(?:sold|divested)\b"), 0,
          re.compile(r"(?i)\b(?:the|its|our)\s+(?:stake|holding|position|shares|bonds|notes)\s+(?:is|are|will\s+be|must\s+be|should\s+be|has\s+been|have\s+been|"
                     r"is\s+to\s+be|are\s+to\s+be)\s+(?:[a-z]+ly\s+)?\Z")),
    # the case by its name called a buy: "By Lynch's checklist, Harlow Foods is a buy." (as "this is a buy", :data:`FINAL_IDIOMS`;
    # a limit after it, "a buy below $40", is left to the bare BUY's reading; s53wild)
    _Rule(("is",), re.compile(r"(?i)is\s+a\s+(?:clear\s+|strong\s+|solid\s+)?buy\b(?![\s-]+(?:signal|case|thesis|rating|list|side|order|back|"
                              r"below|under|at|if|when|only|once|on|for)\b)"), 1,
          re.compile(r"(?m)(?:^|(?<=[.!?;:,])|(?<=[.!?;:,][ \t])|(?<=[.!?;:,][ \t]{2}))[ \t*_>-]*"
                     r"(?!(?:It|This|That|Gate|Step|Test|Criterion|What|Which|Who|Everything|Nothing)\b)"
                     r"[A-Z][\w&'.\u2019-]*(?:[ \t]+(?:[A-Z][\w&'.\u2019-]*|&|of|and))*[ \t]+\Z")),
    # "Decision: against."
    _Rule(("against",), re.compile(r"(?i)against(?=[ \t]*(?:[.;!]|$))"), 0,
          re.compile(r"(?i)\b(?:decision|verdict|vote|recommendation|answer)[*_]{0,2}[ \t]*[:\u2014\u2013-][ \t]*[*_]{0,2}[ \t]*\Z")),
)

#: "decided (not) to fund / exclude ...": the verb's side, flipped by "not"; a body's formal decision words are the same
#: decision ("the board resolved to exclude", "the committee voted to fund", "trustees elected not to sell"; s52parse).
_DECISION_VERBS = ("decided", "resolved", "voted", "elected", "opted")
_DECIDED = re.compile(
    r"(?i)(?:decided|resolved|voted|elected|opted)\s+(?P<neg>not\s+)?to\s+(?P<verb>fund|invest|buy|back|approve|proceed|acquire|go\s+ahead|exclude|divest|sell|exit|"
    r"reject|decline|pass|abandon|drop)\b")
_DECIDED_BEFORE = re.compile(rf"(?i)(?:\b(?:fund|board|committee|council|panel|bank|ministry|team)(?:{_APOS}s)?|{_DECIDER})"
                             r"\s+(?:has\s+|have\s+|had\s+)?(?:now\s+|finally\s+|unanimously\s+)?"
                             # its second predicate: "the board concurred with the council and resolved to exclude"
                             r"(?:(?:[\w'\u2019-]+\s+){1,6}and\s+(?:then\s+|unanimously\s+)?)?\Z")
_FAIL_VERBS = frozenset({"exclude", "divest", "sell", "exit", "reject", "decline", "pass", "abandon", "drop"})
#: "the answer on 8% is no", "our answer for the notes is yes"
_ANSWER_ON = re.compile(r"(?i)answer\s+(?:on|for|to)\s+[^.;:\n]{1,40}?\s+is\s+(?P<ans>no|yes)\b")
_ANSWER_BEFORE = re.compile(r"(?i)\b(?:the|my|our)\s+\Z")

#: A decision label opening its line (after markup or a thread's or list's number: "5/ Verdict:", "**Decision** -"),
#: right before an act: the act is the decision ("5/ Verdict: buying $KELP, 3% starter"). The cue is :data:`CUE_LABEL`.
_ACT_LABEL = re.compile(r"(?i)(?:^|(?<=\n))[ \t>*_#-]*(?:\d{1,2}[./)][ \t]*)?" + CUE_LABEL)

#: The act after a decision label is the subject of a judgement, not the decision: "Verdict: buying at this price would
#: be a mistake", "Decision: selling now is premature" (a few words, no clause break, then a verb of being or seeming).
_ACT_AS_SUBJECT = re.compile(r"(?i)(?:[ \t]+(?!because\b|since\b|as\b|given\b|while\b|until\b|after\b|before\b|if\b|unless\b)"
                             r"[\w$%'./-]+){0,4}?[ \t]+(?:would|will|is|was|seems|seemed|looks|makes|could|might|should|"
                             r"remains|isn't|wasn't|would've|'d|did|does|didn't|doesn't|has|had|hasn't|worked|failed|helped|hurt|faded|"
                             r"paid|backfired)\b")

_TRIGGERS: list[Trigger] = [
    *(Trigger(lit, rule.pattern, k) for k, rule in enumerate(_RULES) for lit in rule.literals),
    *(Trigger(verb, _DECIDED, len(_RULES)) for verb in _DECISION_VERBS),
    Trigger("answer", _ANSWER_ON, len(_RULES) + 1),
]

#: Before an inflected outcome verb: its decider or the decision's subject in the passive ("the capital will be
#: redirected to passive", "the portfolio needs revising", "we have declined", "should not be repurchasing").
_INFLECTED_SUBJECT = re.compile(
    rf"(?i)(?:{_DECIDER}(?:\s+(?:have|has|had|would|will|should|am|are|is))?(?:\s+(?:not|never))?"
    # the subject as "it", with a verb of need or obligation only ("As it stands, it needs revising", "it must be divested";
    # not "it is declining", a trend)
    r"|\bit\s+(?:needs|needs\s+to\s+be|must\s+be|should\s+be|has\s+to\s+be|is\s+to\s+be|will\s+have\s+to\s+be)(?:\s+(?:not|never))?"
    r"|\b(?:the|this|that|its|our)\s+(?:[\w-]+\s+){0,2}?(?:is|are|will\s+be|would\s+be|has\s+been|must\s+be|should\s+be|is\s+to\s+be|"
    r"are\s+to\s+be|needs|need|needs\s+to\s+be|need\s+to\s+be)(?:\s+(?:not|never))?"
    # a recommendation or approval of the act: "Staff recommends rebalancing", "we'd suggest trimming", "the committee
    # approved rebalancing", "recommends that the Board approve rebalancing"
    r"|\b(?:recommends?|recommended|recommending|approves?|approved|proposes?|proposed|suggests?|suggested|advises?|advised)"
    r"(?:\s+that\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:approve|adopt|authori[sz]e|begin|start|proceed\s+with))?)"
    r"\s+(?:now\s+|therefore\s+|then\s+)?\Z")

#: A short label on its line before an inflected outcome verb ("Outcome: declined", "**Result** - approved").
_LABELLED = re.compile(r"(?:^|(?<=\n))[ \t>*_#-]*[A-Za-z][\w /'()-]{0,30}?[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)[ \t]*[*_]{0,2}[ \t]*\Z")

_INFLECTED_CACHE: dict[tuple[str, ...], tuple[re.Pattern[str], list[Trigger], dict[str, str]] | None] = {}


def _inflected(outcome_keys: tuple[str, ...], outcome_of: dict[str, str]) -> tuple[re.Pattern[str], list[Trigger], dict[str, str]] | None:
    """(pattern, triggers, stem -> outcome) for the card's spoken outcome words with an inflected first word
    ("DECLINE" -> "declined", "declining"; "REDIRECT_TO_PASSIVE" -> "redirected to passive"; "REVISE" -> "revising").
    Built once per set of outcome words."""
    if outcome_keys in _INFLECTED_CACHE:
        return _INFLECTED_CACHE[outcome_keys]
    alts: list[str] = []
    literal: dict[str, str] = {}
    for key in outcome_keys:
        first, *rest = key.lower().split("_")
        if len(first) < 4 or not first.isalpha() or first in ("pass", "fail", "proceed", "reject", "inconclusive", "no", "not"):
            continue
        root = first[:-1] if first.endswith("e") else first
        body = rf"{re.escape(root)}(?:ed|ing|es|s)" if first.endswith("e") else rf"{re.escape(root)}(?:ed|ing|s)"
        tail = "".join(rf"[ _-](?:(?:the|a|an)[ ])?{re.escape(p)}" for p in rest)
        alts.append(rf"(?P<o{len(literal)}>{body}{tail})\b")
        literal[f"o{len(literal)}"] = outcome_of[key]
    built = None
    if alts:
        pattern = re.compile(r"(?i)(?:" + "|".join(alts) + ")")
        # the literal every inflection starts with: the root, less a final "e" ("take" -> "tak", so "taking" is scanned)
        stems = dict.fromkeys(k.lower().split("_")[0].removesuffix("e")[:4] for k in outcome_keys if len(k.split("_")[0]) >= 4)
        built = (pattern, [Trigger(s, pattern) for s in stems], literal)
    if len(_INFLECTED_CACHE) > 256:
        _INFLECTED_CACHE.clear()
    _INFLECTED_CACHE[outcome_keys] = built
    return built


_MOVES_BEFORE = re.compile(
    rf"(?i){_DECIDER}(?:\s+(?:will|would|should|shall|have|has|had))?\s+(?:stay|stays|stayed|remain|remains|remained|go|goes|went|"
    r"move|moves|moved|moving|shift|shifts|shifted|turn|turns|turned|switch|switched)(?:\s+(?:the|our|my)(?:\s+\w+){1,3}?)?"
    r"(?:\s+(?:to|into))?\s+\Z")


def decider_moves_before(before: str) -> bool:
    """Whether ``before`` ends with the decider staying in or moving to what follows: "We stay ", "I've moved the
    portfolio to ", "the fund will switch to ".

    >>> decider_moves_before("so we stay "), decider_moves_before("the index is "), decider_moves_before("I moved the portfolio to ")
    (True, False, True)
    """
    return _MOVES_BEFORE.search(before[-80:]) is not None


_PURPOSE_DECIDES = frozenset({"decide", "decided", "decides", "want", "wants", "wanted", "prefer", "prefers", "rather", "better",
                              "best", "choose", "chose", "opt", "opted", "inclined", "willing", "happy", "prepared", "plan", "planned"})


#: The writer as the subject of the clause: "I wouldn't hesitate to buy", "we'd be happy to sell" decide.
_PERSONS = frozenset({"i", "we", "i'd", "we'd", "i'll", "we'll", "i'm", "we're", "i've", "we've", "me", "us"})


#: Words that may stand before a subject pronoun opening its clause ("so we buy", "and I'd sell"); any other word there
#: makes the pronoun open a relative clause ("the group we buy", "the stocks I sell"): a description, not a decision.
_OPENERS = frozenset({"so", "and", "but", "then", "today", "now", "therefore", "thus", "hence", "also", "still", "finally", "yes",
                      "ok", "okay", "here", "instead", "again", "frankly", "honestly", "personally", "otherwise", "i", "we"})


def relative_clause(words: list[str]) -> bool:
    """Whether a buy/sell word after ``words`` (its clause's words, lower case) follows a pronoun that opens a relative
    clause: "the group we buy" (True), "so we buy", "I'd buy", "we buy" (False).

    >>> relative_clause(["outside", "the", "group", "we"]), relative_clause(["so", "we"]), relative_clause(["we"])
    (True, False, False)
    """
    if len(words) < 2 or words[-1] not in _PERSONS:
        return False
    return words[-2].isalpha() and words[-2] not in _OPENERS


def purpose_infinitive(words: list[str]) -> bool:
    """Whether a buy/sell word after ``words`` (its clause's words before it, lower case) is an infinitive of purpose
    or need, not a decision: "the proposal to buy", "hired a bank to sell", "who has to sell" (True); "we decided to
    sell", "I'd rather buy", "I'd buy" (False).

    >>> purpose_infinitive(["proposal", "to"]), purpose_infinitive(["we", "decided", "to"]), purpose_infinitive(["i'd"])
    (True, False, False)
    """
    if not words or words[-1] != "to":
        return False
    return _PURPOSE_DECIDES.isdisjoint(words[-4:]) and _PERSONS.isdisjoint(words[-6:])


#: A JSON key naming an agent or investor whose object follows: ``"peter_lynch": {``, ``"technical_analyst_agent": {``.
_AGENT_KEY = re.compile(r'"(?P<key>[A-Za-z][\w .-]{1,60})"[ \t]*:[ \t]*\{')


class _DecidedMixin(_ParserState):
    """Finds decisions stated as acts (:data:`_RULES`), decided-to clauses, inflected outcome verbs, and JSON objects of
    other investors."""

    def _stated_decisions(self) -> Iterator[tuple[int, int, str, int, bool]]:
        """(start, end, outcome, sentence, stated) for every decision stated as an act; :mod:`._final` weighs them."""
        masked, ix = self.masked, self.ix
        for key, m in self._scan(_TRIGGERS):
            u = self._unit_at(m.start())
            if u < 0:
                continue
            unit_start = self.units[u].start
            if key == len(_RULES):  # decided (not) to ...
                if _DECIDED_BEFORE.search(masked, max(unit_start, m.start() - 60), m.start()) is None:
                    continue
                failing = (m.group("verb").lower() in _FAIL_VERBS) != (m.group("neg") is not None)
                yield m.start(), m.end(), ix.fail_outcome if failing else ix.pass_outcome, u, True
                continue
            if key == len(_RULES) + 1:  # the answer on X is no
                if _ANSWER_BEFORE.search(masked, max(unit_start, m.start() - 6), m.start()) is not None:
                    yield m.start("ans"), m.end("ans"), ix.fail_outcome if m.group("ans").lower() == "no" else ix.pass_outcome, u, True
                continue
            rule = _RULES[key]
            window = max(unit_start, m.start() - 80)
            start = m.start()
            if rule.before is not None:
                found = rule.before.search(masked, window, m.start())
                ok = found is not None
                if not ok and rule.head:
                    ok = not masked[window : m.start()].strip(" \t*_>-") or _SENTENCE_HEAD.search(masked[window : m.start()]) is not None
                if not ok and not rule.whole:  # the act as a decision label's value: "5/ Verdict: buying", "Decision: passing."
                    line_start = masked.rfind("\n", window, m.start()) + 1
                    # only the answer's own decision labels: "Insider action: buying" is the insiders' act
                    # "Verdict: buying would be a mistake" is the act refused (:func:`._judged.judged_wrong`, weighed in :mod:`._final`)
                    ok = _ACT_LABEL.search(masked, max(line_start, window), m.start()) is not None \
                        and (_ACT_AS_SUBJECT.match(masked, m.end()) is None or judged_wrong(masked, m.end(), self.units[u].end))
                if not ok:
                    continue
                if rule.whole and found is not None:
                    start = found.start()
            if rule.stated and past_time(masked, unit_start, min(self.units[u].end, m.end() + 40), "act"):
                continue  # an act dated in the past: the holding's history ("In 2019 we sold a third")
            if rule.key == 0 and rule.literals == ("no",) and re.search(
                    r"(?i)\b(?:have|has|had|hold|holds|own|owns|with|take|taking|holding|currently|there\s+is|there's)\s+\Z",
                    masked[window : m.start()]):
                continue  # "I have no position in the stock": a disclosure
            stated = rule.stated or rule.stated_before is not None and rule.stated_before.search(masked, window, m.start()) is not None
            yield start, m.end(), ix.fail_outcome if rule.key == 0 else ix.pass_outcome, u, stated
        built = self._inflected_outcomes()
        if built is None:
            return
        pattern, triggers, outcome_at = built
        for _, m in self._scan(triggers):
            u = self._unit_at(m.start())
            if u < 0 or m.lastgroup is None:
                continue
            line_start = masked.rfind("\n", max(0, m.start() - 80), m.start()) + 1
            if _INFLECTED_SUBJECT.search(masked, max(self.units[u].start, m.start() - 60), m.start()) is not None \
                    or _SENT_BACK.search(masked, max(self.units[u].start, m.start() - 60), m.start()) is not None:
                yield m.start(), m.end(), outcome_at[m.lastgroup], u, True  # (also "the draft goes back to be redesigned")
            elif _LABELLED.search(masked, max(line_start, m.start() - 60), m.start()) is not None \
                    or decision_label_before(masked, line_start, m.start()):
                yield m.start(), m.end(), outcome_at[m.lastgroup], u, False  # "Outcome: declined as proposed."

    def _inflected_outcomes(self) -> tuple[re.Pattern[str], list[Trigger], dict[str, str]] | None:
        ix = self.ix
        keys = tuple(sorted(k for k, v in ix.outcome_of.items() if v != "INCONCLUSIVE"))
        return _inflected(keys, ix.outcome_of)

    def _in_other_investor(self, pos: int) -> bool:
        """Whether ``pos`` lies in a JSON object keyed by an investor or agent other than the card's investor
        (``"peter_lynch": {...}`` in an answer for a Graham card): that investor's verdict, never the answer's."""
        regions: list[tuple[int, int]] | None = self.__dict__.get("_other_investor_regions")
        if regions is None:
            regions = self.__dict__["_other_investor_regions"] = self._other_investor_regions()
        return any(a <= pos < b for a, b in regions)

    def _other_investor_regions(self) -> list[tuple[int, int]]:
        masked = self.masked
        if "{" not in masked:
            return []
        own = {w.lower() for w in self.card.investor.split() if len(w) > 2}
        names = {w.lower() for name in self.ix.investor_of for w in name.split() if len(w) > 3}
        opens: list[tuple[int, int]] = []  # (position of the object's "{", start of its key)
        for m in _AGENT_KEY.finditer(masked):
            words = set(re.split(r"[\W_]+", m.group("key").lower()))
            if (words & names or "agent" in words or "analyst" in words) and not words & own:
                opens.append((m.end() - 1, m.start()))
            if len(opens) >= 64:
                break  # a megabyte of agent keys: the first 64 are enough to read the answer's verdicts
        if not opens:
            return []
        # every brace's partner in one pass over the braces (linear, also on unbalanced text)
        close_of: dict[int, int] = {}
        stack: list[int] = []
        for b in re.finditer(r"[{}]", masked):
            if b.group() == "{":
                stack.append(b.start())
            elif stack:
                close_of[stack.pop()] = b.end()
        return [(key_start, close_of.get(brace, len(masked))) for brace, key_start in opens]


#: A company named as a list item or heading: a ticker in brackets right after the label ("Coastline Power (CLP),",
#: "Ardent Foods (NYSE: ARD)") or a legal-form word ending it ("Kessler Tabakwerke AG", "Marrow Valley Water Co.").
_TICKER_AFTER = re.compile(r"[ \t*_]*\((?:[A-Z]{2,6}[ \t]*:[ \t]*)?(?!(?:PASS|FAIL|OK|YES|NO|KILL|TBD|RANK|BUY|SELL|HOLD|AVOID|WAIT|SKIP|NA)\))"
                           r"[A-Z]{1,5}(?:[.:-][A-Z]{1,4})?\)")
_LEGAL_FORM = re.compile(r"(?:\b(?:Inc|Corp|Corporation|Co|Ltd|Limited|plc|PLC|AG|SA|NV|SE|ASA|AB|Bhd|GmbH|LLC|Holdings|Group|"
                         r"Bancorp|Berhad)\.?)\Z")


def company_label(label: str, text: str, end: int) -> bool:
    """Whether a label (ending at ``end`` in ``text``) names a company rather than a gate: an invented gate it is not.

    >>> t = "2. Coastline Power (CLP), an electric utility, fails two tests."
    >>> company_label("Coastline Power", t, t.index(" (CLP)"))
    True
    >>> company_label("Debt discipline", "3. Debt discipline (FAIL)", 18), company_label("Moat", "2. Moat (OK)", 7)
    (False, False)
    """
    return _TICKER_AFTER.match(text, end) is not None or _LEGAL_FORM.search(label.strip(" *_:.-")) is not None
