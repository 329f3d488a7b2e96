"""What prose says of a card's gates, clause by clause (moved out of :mod:`._prose` unchanged; issue 13, paper §7.5).

The card's prose vocabulary (:func:`prose_vocabulary`: each gate's own stems, weighted), the gate a clause states
(:func:`clause_weights`, :func:`gate_of_clause`), the appraisals in it (:func:`appraisals`: "ample", "stretched",
"high" where the subject is the gate's criterion), a bar's words, whether a gate watches for a warning sign, its
direction, and the clauses of a sentence. :mod:`._prose` reads answers with them (see its docstring for the rules);
:mod:`._described`, :mod:`._section_reading` and :mod:`._stated_bars` use them too.
"""

from __future__ import annotations

import re

from ipb.engine.card import ELEMENT_FIELD, Card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._appraisal_words import (
    HIGH,
    LOW,
    MONOTONE,
    WATCH,
    Lexicon,
    lexicon_for,
)
from ipb.scoring.parse._common import _Hit
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._vocabulary import names_read, stem_set

__all__ = ["MIN_SCORE", "prose_vocabulary", "clause_weights", "gate_of_clause", "appraisals"]

#: The weight of a clause's gate words (name and alias stems weigh 3, element and input-name stems 2, description
#: stems 1) a clause needs before it is taken for that gate.
MIN_SCORE = 2
#: A sentence longer than this (words) is not read this way (a run-on line is not one statement).
MAX_WORDS = 80
#: At most this many sentences are read this way (a bound for pathological input: a real answer has far fewer).
MAX_UNITS = 2000

_WORD = re.compile(r"[a-z][a-z'\u2019-]*")
#: Words a card's description uses about anything: never a gate's own word, whichever gate's text holds them alone.
_PLAIN = frozenset({
    "test", "check", "gate", "rule", "screen", "criterion", "criteria", "limit", "whether", "more", "less", "least", "most",
    "above", "below", "under", "over", "value", "share", "shares", "company", "business", "stock", "investment", "invest",
    "investor", "year", "years", "ratio", "rate", "level", "high", "low", "must", "should", "would", "could", "number",
    "proceed", "reject", "pass", "fail", "passes", "fails", "verdict", "kill", "condition", "requirement", "card", "author",
    "inferred", "his", "her", "their", "was", "were", "get", "gets", "time", "times", "new", "few", "now", "see", "made",
    "make", "makes", "take", "takes", "taken", "since", "once", "because", "first", "part", "off", "down", "give", "gives",
    "open", "keep", "word", "words", "worth", "reach", "reached", "past", "run", "runs", "used", "use", "call", "called",
    "hand", "find", "exist", "exists", "matter", "follow", "rather", "add", "adds", "whole", "plus", "fine", "able", "not",
    "when", "which", "has", "have", "had", "how", "many", "well", "without", "even", "either", "another", "given", "own",
    "only", "those", "these", "otherwise", "far", "nothing", "need", "needs", "there", "here", "what", "who", "why", "where",
    "been", "being", "does", "did", "done", "each", "every", "any", "some", "such", "same", "much", "very", "still", "yet",
    "just", "both", "whose", "one", "two", "three", "four", "five", "ten", "also", "too", "into", "about", "after", "then",
    "example", "examples", "phrase", "cite", "cites", "cited", "interview", "letter", "talk", "book", "procedure", "treats",
    "treat", "say", "says", "said", "mean", "means", "way", "ways", "kind", "sort", "thing", "things", "good", "bad", "point",
    "they", "them", "you", "your", "our", "its", "can", "cannot", "will", "may", "might", "while", "against", "between",
    "anything", "goes", "idea", "ideas", "whatever", "show", "shows", "leave", "leaves", "undecided", "outcome", "outcomes",
    "mixed", "usd", "result", "results", "cut", "nearer", "behind", "category", "requires", "required", "require", "encoded",
    "out", "until", "unknown", "unclear", "yes", "sure", "okay", "per", "via", "near", "far", "next", "last", "year", "ago",
    "apply", "applies", "applied", "step", "steps", "stage", "stages", "gates", "tests", "checks", "screens", "question",
})
#: A sentence that refers to the card's gates by a frame word ("the sales, formula and growth steps do not apply") is read by
#: the reference readers (:mod:`._references`, :mod:`._grouped`): what they leave unresolved is not guessed here.
_FRAMED = re.compile(r"(?i)\b(?:gates?|steps|tests|criteri(?:on|a)|checks|screens|hurdles|stages|(?:step|test|check|stage)\s+\d)\b"
                     # a tally of the gates ("4 of the six lit up", "three of seven passed"): the gates as a group
                     r"|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:out\s+)?of\s+(?:the\s+|its\s+)?"
                     r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b(?!\s*(?:%|percent|per\s+cent|years?))"
                     # ... not "two of its nine states" (a count of some other plural noun)
                     r"(?!\s+(?!is\b|was\b|has\b)[a-z]+s\b)")

def _stems(text: str) -> set[str]:
    return stem_set(text, _PLAIN)


@per_object()
def prose_vocabulary(card: Card) -> dict[int, dict[str, int]]:
    """Gate number -> {stem: weight} of the stems only that gate's texts hold (built once per card; see the module docstring).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> vocab = prose_vocabulary(compiled_card("munger_business_quality_price").card)
    >>> vocab[1]["understand"], vocab[2]["capital"], vocab[4]["candour"], "busines" in vocab[1]
    (3, 3, 1, False)
    """
    raw: dict[int, dict[str, int]] = {}
    investor = _stems(card.investor)  # "Lynch wanted 1.5": the investor's name is every gate's
    for g in card.gates:
        named = [g.name, *g.aliases]
        strong = [ELEMENT_FIELD.sub(" ", e) for e in g.required_elements]
        weak = [g.description]
        for name in names_read(g):
            spec = card.inputs.get(name)
            if spec is not None:  # constants and computed names are not the facts a writer states
                strong.append(name.replace("_", " "))
                weak.append(spec.description)
        weights: dict[str, int] = {}
        for s in set().union(*(_stems(t) for t in weak)):
            weights[s] = 1
        for s in set().union(*(_stems(t) for t in strong)):
            weights[s] = 2
        for s in set().union(*(_stems(t) for t in named)):
            weights[s] = 3
        raw[g.number] = {s: w for s, w in weights.items() if s not in investor}
    # a stem counts for a gate by how much more weight it has there than in any other gate: a name word another gate's
    # description only mentions ("thesis" in "Thesis Confirmation" and in a sizing gate's description) still leans
    # to the gate it names; a word of equal standing in two gates names neither
    table: dict[int, dict[str, int]] = {}
    for number, weights in raw.items():
        kept: dict[str, int] = {}
        for s, w in weights.items():
            rival = max((other.get(s, 0) for n, other in raw.items() if n != number), default=0)
            if w > rival:
                kept[s] = w - rival
        table[number] = kept
    return table


def clause_weights(card: Card, text: str) -> dict[int, int]:
    """Gate number -> the weight of that gate's prose vocabulary (:func:`prose_vocabulary`) among the stems of
    ``text``; empty when ``text`` has no stem.

    >>> from ipb.engine.registry import compiled_card
    >>> w = clause_weights(compiled_card("munger_business_quality_price").card, "the toll-road operator is easy to understand")
    >>> max(w, key=w.get), clause_weights(compiled_card("munger_business_quality_price").card, "")
    (1, {})
    """
    stems = _stems(text)
    if not stems:
        return {}
    return {g: sum(w for s, w in vocab.items() if s in stems) for g, vocab in prose_vocabulary(card).items()}


def gate_of_clause(card: Card, text: str, *, ties: bool = False) -> int | None:
    """The gate whose prose vocabulary weighs most in ``text`` (at least :data:`MIN_SCORE`, strictly more than any other);
    with ``ties``, instead: a gate that shares the best weight (at least :data:`MIN_SCORE`) with another, else None.

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("munger_business_quality_price").card
    >>> gate_of_clause(card, "the toll-road operator is easy to understand"), gate_of_clause(card, "Nice weather today")
    (1, None)
    """
    weights = clause_weights(card, text)
    if not weights:
        return None
    scores = sorted(((w, g) for g, w in weights.items()), reverse=True)
    best, gate = scores[0]
    tie = len(scores) > 1 and scores[1][0] == best
    if best < MIN_SCORE or tie != ties:
        return None
    return gate


# --------------------------------------------------------------------------- appraisals

#: A negator in the few words before an appraisal flips it ("not broken", "isn't cheap", "no longer intact", "hardly durable").
_NEGATOR = re.compile(r"(?i)(?:(?:\b(?:not|never|hardly|nor|no)\b|n['\u2019]t\b)(?!\s+(?:merely|just|only|simply)\b)(?:\s+(?:[\w'-]+\s+){0,3}?)?"
                      r"|\b(?:nothing|none|nobody|neither)\b(?:\s+(?:[\w'-]+\s+){0,6}?)?)\s*\Z")
#: A condition or a question before the appraisal states no verdict ("if the thesis breaks", "whether it holds"). A
#: concessive "if" that only grades the appraisal ("it pays for itself, if only just", "cheap, if anything", "fine, if
#: barely") is no condition.
_CONDITIONAL = re.compile(r"(?i)\b(?:if(?![ \t]+(?:only[ \t]+(?:just|barely|narrowly|slightly|by)|barely|narrowly|just|anything)\b)"
                          r"|unless|whether|should|would|could|might|may|until|once|when)\b")
#: A requirement before the appraisal states the bar, not the facts ("Graham asks for 20 years without a break", "Buffett
#: wants a durable moat").
_REQUIRED = re.compile(r"(?i)\b(?:asks?\s+for|asked\s+for|wants?|wanted|requires?|required|demands?|insists?\s+on|looks?\s+for|"
                       r"calls?\s+for)\b")
#: The appraisal as a noun phrase's modifier ("a strong quarter", "high rates") states nothing about the criterion:
#: an article or possessive right before it.
_ATTRIBUTIVE = re.compile(r"(?i)\b(?:a|an|the|its|their|his|her|our|my|this|that|these|those)\s+\Z")
#: A determiner and at most two words that are no verb before an "-ing" appraisal: the word is a noun ("a defensive
#: holding", "our largest holding"), not the story holding ("the story is holding", "the thesis still holding").
_NOUN_ING_BEFORE = re.compile(
    r"(?i)\b(?:a|an|the|its|their|his|her|our|my|this|that|each|every|any|another|one)\s+"
    r"(?:(?!(?:is|are|was|were|be|been|being|am|still|now|has|have|had|keeps?|kept|remains?|seems?|looks?|just|clearly|so|far|"
    r"and|but|story|thesis|case|moat|plan|trade|idea|view|call|argument)\b)[a-z][a-z-]*\s+){0,2}\Z")

#: A verdict word used as a noun ("the proceeds from the sale", "a pass of the model"): no verdict of this clause.
_NOUN_SENSE = re.compile(r"\s+(?:from|of)\b")

_FOR_A_REASON = re.compile(r"[ \t]+for[ \t]+(?:a|good)[ \t]+reasons?\b")
#: A figure's path after the word: "growing 8% for ten years, then fading to three", "margins narrowing to 12%": where a
#: quantity goes (a forecast's step, a fact), not the writer's judgement of the criterion.
_TO_A_FIGURE = re.compile(r"[ \t]+(?:to|towards?)[ \t]+(?:(?:about|around|roughly|some|just|only|maybe)[ \t]+)?"
                          r"(?:[-\u2212+~$\u20ac\u00a3]?\d|(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                          r"fifteen|twenty|thirty|forty|fifty|half)\b)")
#: The word after an appraisal, when one follows on its clause (not a stop, comma or bracket).
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'-]*)")
#: Words that may follow an appraisal that closes its clause ("intact so far", "cheap relative to peers", "confirmed by the
#: data"); any other word after it makes it a modifier of a noun.
_CLOSING = frozenset({
    "and", "or", "but", "so", "yet", "for", "at", "in", "on", "to", "by", "with", "as", "than", "enough", "now", "today", "here",
    "there", "again", "too", "overall", "either", "though", "although", "despite", "given", "while", "versus", "vs", "relative",
    "compared", "because", "since", "if", "still", "up", "out", "over", "under", "against", "from", "of", "after", "before",
    "day", "so-far", "far", "anyway", "indeed", "then", "i", "we", "it", "which", "that", "this", "is", "are", "was", "were",
    "even", "only", "just", "well", "also", "both", "all", "nor", "not", "no", "whatever", "regardless", "throughout", "me", "us",
    "you", "them", "him", "her", "investors", "everyone", "anyone",
})

#: "I'd pass at this price", "we would pass": the writer passes on the investment, no gate passes.
_INVESTOR_PASS = re.compile(r"(?i)\b(?:i|we|i'd|we'd|i\u2019d|we\u2019d|would|will|should)\s+(?:\w+\s+)?\Z")
_DETERMINERS = frozenset({"the", "a", "an", "its", "our", "their", "all", "every", "each", "both", "this", "that", "his", "her"})

#: What "met" is a verdict on when it takes an object: a bar ("met the test", "meets the 15% minimum", "met its threshold").
_BAR_NOUNS = frozenset({
    "test", "tests", "bar", "bars", "criterion", "criteria", "threshold", "thresholds", "hurdle", "hurdles", "minimum",
    "minimums", "maximum", "floor", "cap", "ceiling", "limit", "limits", "target", "targets", "standard", "standards",
    "requirement", "requirements", "condition", "conditions", "screen", "screens", "check", "checks", "gate", "gates",
    "rule", "rules", "cutoff", "cut-off", "benchmark", "mark", "level", "line", "trigger", "guideline", "guidelines", "test's",
    "bar's", "ones", "one",
})
#: After "met with": how the bar was met ("met with room to spare", "met with ease"), not whom the writer met.
_MET_WITH = frozenset({"ease", "room", "margin", "headroom", "plenty", "comfort", "something"})
#: Words after "met" that name someone met, although they may close an appraisal ("cheap for investors").
_MET_PERSONS = frozenset({"me", "us", "you", "them", "him", "her", "investors", "everyone", "anyone"})
#: Counts that may end the object of "met" ("met all seven", "met four of them", "met both").
_COUNTS = frozenset({"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "of",
                     "them", "these", "those"})
_MET_OBJECT = re.compile(r"[^.,;:!?()\n]{0,80}")
_MET_WORD = re.compile(r"[a-z0-9$%][a-z0-9$%.'-]*")


def meets_someone(low: str, end: int) -> bool:
    """Whether "met" / "meet(s)" ending at ``end`` of the lower-cased ``low`` has a person or a body as its object, a
    meeting and no verdict: "met the banks", "met with regulators", "meets the press", "met them".

    The object is the clause's next words up to punctuation. After a determiner ("the", "its", "all"...; not "this" or
    "that", which may be a time: "met this year") or "with", it names someone unless one of the next six words is a bar
    ("met the test", "meets the 2.0 minimum"; after "with" also a manner, "with room to spare") or the clause ends after
    determiners and counts only ("met all seven", "met both"), or a figure opens it ("met the 2:1 current ratio").
    """
    nxt = _NEXT_WORD.match(low, end)
    if nxt is None:
        return False
    first = nxt.group(1)
    if first in _MET_PERSONS:
        return True
    if first in ("this", "that") or (first not in _DETERMINERS and first != "with"):
        return False
    obj = _MET_OBJECT.match(low, nxt.end())
    words = _MET_WORD.findall(obj.group(0) if obj else "")[:6]
    if first == "with":
        return not any(w in _BAR_NOUNS or w in _MET_WITH for w in words)
    return not (any(w in _BAR_NOUNS for w in words) or any(w[0].isdigit() for w in words[:2])  # "the 2:1 current ratio"
                or all(w in _DETERMINERS or w in _COUNTS or w[0].isdigit() for w in words))


def met_is_a_verdict(low: str, end: int) -> bool:
    """Whether "met" / "meet(s)" ending at ``end`` of the lower-cased ``low`` states a verdict in running prose: alone
    ("criterion met", "Gate 3: met", "met in full", "met this year"), or with a bar as its object ("met the test",
    "meets the 2.0 minimum"); not with a person or a body as its object (:func:`meets_someone`), and not before any
    other word that does not close the clause ("met expectations" is left to the labelled readings).
    """
    nxt = _NEXT_WORD.match(low, end)
    if nxt is None:
        return True
    if meets_someone(low, end):
        return False
    first = nxt.group(1)
    return first in _DETERMINERS or first == "with" or first in _CLOSING


_PROSE_WORD = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False)


#: A verdict read from a figure against the gate's own bar (:mod:`._thresholds`).
_BAR_WORD = vw.VerdictWord(r"(?!)", vw.PROCEED, (), strength=vw.HEDGED, negatable=False)


def _appraisal_hit(said: tuple[int, int, str], u: int, word: vw.VerdictWord = _PROSE_WORD) -> _Hit:
    """A verdict read from an appraisal (or, with ``_BAR_WORD``, a figure against the gate's bar), as a hedged hit
    already judged."""
    return _Hit(said[0], said[1], word, u, judged=True, level=vw.HEDGED, verdict=said[2], derived=False)


def _flip(verdict: str) -> str:
    return vw.REJECT if verdict == vw.PROCEED else vw.PROCEED


#: A word that weighs the appraisal after it over the one before it ("narrow but widening"): the later one is the
#: writer's. Without one ("demanding in places and reasonable in others") two opposite appraisals are a mixed view.
_CONTRAST = re.compile(r"\b(?:but|yet|though|although|however|nevertheless|still|while|whereas)\b")


def mixed_appraisal(text: str, said: list[tuple[int, int, str]]) -> bool:
    """Whether the appraisals ``said`` of one clause (``(start, end, verdict)``, offsets into ``text``) go both ways
    with no contrast word between the last two opposite ones: the writer holds a mixed view and states no verdict.

    >>> s = "the valuation looks demanding in places and reasonable in others"
    >>> mixed_appraisal(s, appraisals(s, 0, len(s), None))
    True
    >>> s = "the valuation looks demanding but reasonable overall"
    >>> mixed_appraisal(s, appraisals(s, 0, len(s), None))
    False
    """
    verdicts = [v for _, _, v in said]
    if not ("PROCEED" in verdicts and "REJECT" in verdicts):
        return False
    last = said[-1]
    before = max(e for _, e, v in said if v != last[2])
    return _CONTRAST.search(text, before, last[0]) is None


def appraisals(text: str, start: int, end: int, direction: str | None, *, lexicon: Lexicon | None = None,
               watch: bool = False, nouns: frozenset[str] | set[str] = frozenset()) -> list[tuple[int, int, str]]:
    """(start, end, verdict) of the appraisals in ``text[start:end]`` (a clause), negation applied.

    ``direction`` is the verdict a higher value of the clause's gate criterion moves toward (None: unknown or mixed);
    "high"/"low" read a verdict only with it. ``lexicon`` is the card's (:func:`._appraisal_words.lexicon_for`; None:
    the common entries only); ``watch``: the clause's gate watches for a warning sign (a ``reject`` test and no
    ``proceed`` test), so "flagged" and "quiet" are read. ``nouns``: stems of the gate's own criterion words; an
    appraisal that modifies one of them ("a thin premium of 1.8 points", "a durable moat") appraises the criterion and is
    read, where one that modifies any other noun ("a strong quarter") is not.

    Examples
    --------
    >>> s = "the growth story is not broken"
    >>> appraisals(s, 0, len(s), None)
    [(24, 30, 'PROCEED')]
    >>> s = "returns on capital are high, but if the price were too rich it would fail"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), "REJECT")]
    [('high', 'REJECT')]
    >>> s = "new buyers at the 95th percentile: flagged; leverage at the 40th, not flagged"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, watch=True)]
    [('flagged', 'REJECT'), ('flagged', 'PROCEED')]
    >>> s = "a thin premium of 1.8 points after a strong quarter"
    >>> [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, nouns=_stems("risk premium"))]
    [('thin', 'REJECT')]
    """
    lex = lexicon if lexicon is not None else lexicon_for("")
    out: list[tuple[int, int, str]] = []
    for m in lex.regex.finditer(text, start, end):
        entry = lex.entry(m)
        verdict = entry.verdict
        word = " ".join(m.group(0).lower().split())
        before = text[max(start, m.start() - 40) : m.start()]
        if _CONDITIONAL.search(text, max(start, m.start() - 60), m.start()) or _REQUIRED.search(text, max(start, m.start() - 30), m.start()):
            continue  # a condition, or what the framework asks for just before it ("Graham asks for 20 years without a break")
        if entry.when == MONOTONE and direction is None or entry.when == WATCH and not watch:
            continue
        if verdict in (HIGH, LOW):
            assert direction is not None
            verdict = direction if verdict == HIGH else _flip(direction)
        nxt = _NEXT_WORD.match(text, m.end())
        # an adjective (one word) before the criterion's noun: "a thin premium" (not "well below net current asset value",
        # where the noun is the object of a comparison)
        of_criterion = nxt is not None and bool(nouns) and " " not in word and bool(_stems(nxt.group(1)) & nouns)
        if _ATTRIBUTIVE.search(before) and not word.startswith(("a ", "too")) and not of_criterion:
            continue
        if word.endswith("ing") and " " not in word and _NOUN_ING_BEFORE.search(before):
            continue  # "for a defensive holding": a noun
        if _FOR_A_REASON.match(text, m.end()):
            continue  # "cheap for a reason": the writer doubts the appraisal
        if _TO_A_FIGURE.match(text, m.end()):
            continue  # "then fading to three": a figure's path, not an appraisal
        if nxt is not None and nxt.group(1) not in _CLOSING and not of_criterion:
            continue  # a modifier of the noun after it ("unacceptable greenhouse-gas emissions", "a strong quarter")
        if _NEGATOR.search(before):
            verdict = _flip(verdict)
        out.append((m.start(), m.end(), verdict))
    return out


@per_object(bound=4096)
def _bar_words(card: Card, name: str) -> frozenset[str]:
    """The stems of the name a gate's bar compares and of its input label ("net income", "return on capital"): a clause
    must hold one before its figure is taken for that name (a clause's EPS is not its intrinsic value)."""
    spec = card.inputs.get(name)
    label = getattr(spec, "label", None) or ""
    return frozenset(_stems(name.replace("_", " ")) | _stems(label))


def _watches(card: Card, gate: int) -> bool:
    """Whether the gate watches for a warning sign: a ``reject`` test and no ``proceed`` test."""
    g = card.gates[gate - 1]
    return g.reject is not None and g.proceed is None


def _direction(card: Card, gate: int) -> str | None:
    dirs = set(card.gates[gate - 1].monotone.values())
    return next(iter(dirs)) if len(dirs) == 1 else None


#: Clause boundaries inside a sentence: semicolons, a colon or dash before a space, a closing bracket (a bracketed
#: verdict ends its clause: "earns 17% on capital (pass) and ..."), a comma before a conjunction.
_CLAUSE_END = re.compile(r";|:(?=\s)|\s[\u2014\u2013-]\s|\u2014|\)|,\s+(?=(?:and|but|so|while|whereas|yet|though|although|which)\b)")


#: The parts of a sentence that lists several gates: cut at every comma, semicolon or colon, and at the sentence's end.
_LIST_CUT = re.compile(r"[,;:](?=\s)|\Z|$")


#: A figure or a bracket closing one right before a boundary, and a figure, a bracket or an operator right after it: the
#: boundary is arithmetic ("(540 - 470) / 540 = 12,96%": a minus and a bracket of a worked formula), no clause's end.
_FIGURE_BEFORE = re.compile(r"[\d%)][ \t]*\Z")
_ARITHMETIC_AFTER = re.compile(r"[ \t]*(?:[\d(]|[/*\u00d7\u00f7+=\u2212-][ \t]*[\d(])")


def _arithmetic(text: str, m: re.Match[str]) -> bool:
    """Whether the boundary ``m`` of :data:`_CLAUSE_END` is a minus or a closing bracket inside a worked formula.

    >>> text = "downside_loss = (540 - 470) / 540 = 12,96%"
    >>> [_arithmetic(text, m) for m in _CLAUSE_END.finditer(text)]
    [True, True]
    >>> text = "earns 17% on capital (pass) and the moat - a brand - holds"
    >>> [_arithmetic(text, m) for m in _CLAUSE_END.finditer(text)]
    [False, False, False]
    """
    if m.group(0) not in (")",) and m.group(0).strip() not in ("-", "\u2013"):
        return False
    before = text[max(0, m.start() - 12) : m.start() + (1 if m.group(0) == ")" else 0)]
    return bool(_FIGURE_BEFORE.search(before)) and _ARITHMETIC_AFTER.match(text, m.end()) is not None


def _clauses(text: str, start: int, end: int) -> list[Span]:
    """The clauses of ``text[start:end]`` (:data:`_CLAUSE_END`), a worked formula's minus and brackets kept inside one
    (s47lang: "downside_loss = (540 - 470) / 540 = 12,96%" was cut into three, none holding both the name and the
    figure, and read no verdict where "downside_loss = 70 / 540 = 12,96%" did)."""
    out: list[Span] = []
    pos = start
    for m in _CLAUSE_END.finditer(text, start, end):
        if _arithmetic(text, m):
            continue
        if m.end() - pos > 1:
            out.append((pos, m.end()))
        pos = m.end()
    if end - pos > 1:
        out.append((pos, end))
    return out
