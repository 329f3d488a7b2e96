"""Which sense of "pass" a clause uses: the investor declining ("I'd pass", "we'll pass at this price") or a gate
being passed ("the stock appears to pass", "it seems to pass").

Investors' jargon "pass" means decline, and the default verdict-synonym table maps it to the card's fail outcome
(:data:`ipb.scoring.verdict_words.FINAL_SYNONYMS`). A human reads that sense only when the one who passes is the
writer or an investor, or when the clause is a decision ("better to pass", "inclined to pass"); when the subject of
"pass" is the company, the stock or the gate ("X appears to pass", "it is likely to pass", "this should pass"),
it is the gate's PROCEED, hedged by the raising verb (paper §7.5, verdict-word senses).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: The last word before "pass" that may make it the investor's decline (the caller's first look).
PASS_LEADS = frozenset({"would", "will", "should", "must", "to", "i'd", "we'd", "i", "we", "i'll", "we'll"})

#: Words a chain of auxiliaries, raising verbs and adverbs between a subject and "pass" is made of.
_CHAIN = frozenset({
    "to", "would", "will", "should", "must", "might", "could", "may", "can", "shall", "have", "has", "had", "be", "is", "are",
    "am", "was", "were", "been", "going", "about", "just", "still", "also", "simply", "then", "probably", "certainly",
    "definitely", "clearly", "easily", "comfortably", "narrowly", "only", "likely", "unlikely", "expected", "set", "poised",
    "bound", "able", "appears", "appear", "appeared", "seems", "seem", "seemed", "looks", "look", "looked", "manages",
    "managed", "continues", "continue", "tends", "tend", "ought", "need", "needs", "needed", "rather", "better", "best",
    "prefer", "prefers", "preferred", "choose", "chose", "decide", "decided", "opt", "opted", "inclined", "willing", "happy",
    "content", "prepared", "want", "wants", "i'd", "we'd", "i'll", "we'll", "it's", "it'd", "it'll", "that's", "this'll",
    "i'm", "we're", "i've", "we've", "do", "does", "did", "so", "thus", "therefore", "hence",
})
#: Chain words that make the clause a decision: "better to pass", "I'm inclined to pass", "we decided to pass".
_DECISION = frozenset({"rather", "better", "best", "prefer", "prefers", "preferred", "choose", "chose", "decide", "decided", "opt",
                       "opted", "inclined", "willing", "happy", "content", "prepared", "want", "wants"})
#: Chain words saying how likely the subject is to pass, which a gate can be ("appears to pass", "is likely to pass").
_RAISING = frozenset({"likely", "unlikely", "expected", "set", "poised", "bound", "able", "appears", "appear", "appeared", "seems",
                      "seem", "seemed", "looks", "look", "looked", "manages", "managed", "continues", "continue", "tends", "tend"})
#: Subjects that are the writer or an investor: the one who passes on the deal.
_PERSONS = frozenset({
    "i", "we", "i'd", "we'd", "i'll", "we'll", "i'm", "we're", "i've", "we've", "you", "you'd", "he", "she", "they", "they'd",
    "investor", "investors", "buyer", "buyers", "owner", "owners", "manager", "managers", "fund", "berkshire", "buffett", "munger",
    "graham", "lynch", "marks", "dalio", "fisher", "greenblatt", "templeton", "klarman", "soros", "druckenmiller", "me", "us",
})
#: Subjects that are the thing being tested: a gate's subject.
_TESTED = frozenset({
    "it", "this", "that", "which", "it's", "it'd", "it'll", "that's", "this'll", "stock", "company", "business", "firm", "share",
    "shares", "name", "issuer", "gate", "test", "criterion", "check", "screen", "hurdle", "filter", "ratio", "earnings",
    "balance", "sheet", "dividend", "record", "valuation", "price", "multiple", "margin", "debt", "leverage", "liquidity",
})


def declines(words: Sequence[str]) -> bool:
    """Whether "pass" after ``words`` (its clause before it, lower case, in order) is the investor declining.

    Parameters
    ----------
    words:
        The clause's words before "pass" (e.g. ``["the", "stock", "appears", "to"]``), lower case; only the
        last dozen are looked at.

    Returns
    -------
    bool
        True for "I'd pass", "we will pass", "Buffett would pass", "better to pass", an elliptic "would pass";
        False for "appears to pass", "the stock is likely to pass", "it should pass", and whenever the last word is
        not one of :data:`PASS_LEADS`.
    """
    words = [w.lower() for w in words][-12:]
    if not words or words[-1] not in PASS_LEADS:
        return False
    i = len(words)
    while i > 0 and words[i - 1] in _CHAIN:
        i -= 1
    chain = words[i:]
    subject = words[i - 1] if i > 0 else None
    if not _DECISION.isdisjoint(chain):
        return True
    if subject in _PERSONS or not _PERSONS.isdisjoint(chain):
        return True
    if not _RAISING.isdisjoint(chain):
        return False
    return subject not in _TESTED


#: A person leaning to "passing" ("I lean towards passing", "we're leaning toward passing", "I'd lean to passing",
#: "I am inclined towards passing"): the writer's tilt to decline, no gate passing (NEWUSER_s61 N7). Matched on the
#: lower-cased text right before "passing"; linear (bounded repetitions of distinct words, no nesting).
_LEANS_TO = re.compile(
    r"\b(?:i|we|i'm|we're|i'd|we'd|i'll|we'll|i\u2019m|we\u2019re|i\u2019d|we\u2019d)"
    r"(?:[ \t]+(?:am|are|would|will|still|now|slightly|somewhat|rather|really|probably|more|on[ \t]+balance)){0,3}"
    r"[ \t]+(?:lean(?:s|ing|ed|t)?|inclined|tilt(?:ing)?)(?:[ \t]+(?:slightly|somewhat|more))?[ \t]+(?:towards?|to)[ \t]+\Z"
)


def leans_to_passing(before: str) -> bool:
    """Whether "passing" after ``before`` (the lower-cased text before it in its sentence) is the writer's lean to
    decline: "On balance I lean towards passing" states no gate's PROCEED (NEWUSER_s61 N7).

    >>> leans_to_passing("on balance i lean towards "), leans_to_passing("we're leaning toward "), leans_to_passing("i am inclined to ")
    (True, True, True)
    >>> leans_to_passing("the stock leans towards "), leans_to_passing("it is close to ")
    (False, False)
    """
    return _LEANS_TO.search(before[-120:]) is not None
