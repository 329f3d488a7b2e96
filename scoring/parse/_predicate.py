"""Appraisal words as the predicate of a short clause: "incentives are aligned.", "the gap is material.", "both fine".

An appraisal word of the verdict vocabulary (:data:`ipb.scoring.verdict_words.VERDICT_WORDS` entries with
``alone=True``: "favourable", "weak", "material", ...) states a verdict only where it is the whole answer of its clause
("Leverage: weak."), never inside a noun phrase ("a weak quarter"). Real analyses, persona reasoning strings above all,
state the same answer as a clause's predicate: a short subject, a copula and the appraisal closing the clause ("Returns
on capital are strong.", "The thesis is contradicted, not merely delayed.", "Criteria 1 and 2: both fine"). This module
says which words before the appraisal make it such a predicate, and whether the copula is denied ("the moat isn't
durable", "leverage is not excessive"), which flips it as the bare denial "Not broken." does.

References
----------
Paper §7.5 (structured response parsing: verdict words in context); issue 13 (card-specific verdict words, fact-only
persona reasoning).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORDS = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)?")
#: Conjunctions that open a clause after a comma: "..., so the thesis is contradicted".
_OPENERS = frozenset({"so", "and", "but", "yet", "thus", "hence", "therefore", "which"})

#: Verbs that link a subject to its appraisal.
_COPULAS = frozenset({"is", "are", "was", "were", "looks", "look", "seems", "seem", "remains", "remain", "stays", "stay",
                      "appears", "appear", "becomes", "become", "feels", "sounds"})
#: A pronoun fused with its copula: "it's clean", "that's material".
_FUSED = frozenset({"it's", "that's", "this's", "they're", "we're", "it\u2019s", "that\u2019s", "they\u2019re"})
#: Denied copulas: "isn't", "aren't", ...
_DENIED = frozenset({"isn't", "aren't", "wasn't", "weren't", "isn\u2019t", "aren\u2019t", "wasn\u2019t", "weren\u2019t"})
#: Adverbs between the copula and the appraisal ("is clearly intact", "remains fully aligned").
_ADVERBS = frozenset({"clearly", "still", "now", "fully", "entirely", "very", "quite", "comfortably", "also", "again", "broadly",
                      "well", "plainly", "firmly", "simply", "certainly", "definitely", "obviously", "reasonably", "sufficiently",
                      "materially", "genuinely", "solidly", "decidedly", "all", "both"})
#: A clause of only these words before the appraisal is a list's short answer: "both fine", "all clean", "again intact".
_QUANTIFIERS = frozenset({"both", "all", "each", "also", "again", "still", "likewise", "equally", "so", "thus", "hence", "therefore"})
#: Words that make the words before a copula no short subject: a relative clause or a question ("the figure that is weak").
_NOT_A_SUBJECT = frozenset({"that", "which", "who", "whose", "what", "whether", "if", "when", "where", "how", "why", "because",
                            "unless", "although", "though", "than", "as", "while"})
#: The most words a subject may have: a longer one is a sentence the appraisal only ends.
MAX_SUBJECT = 6


def predicative(words: Sequence[str]) -> bool | None:
    """Whether the clause words before an appraisal make it the clause's predicate, and denied.

    Parameters
    ----------
    words : sequence of str
        The lower-case words of the appraisal's clause before it (at most the last 14).

    Returns
    -------
    bool or None
        None when the appraisal is no predicate (it sits inside a longer phrase); False for a predicate ("the gap is
        material", "both fine"); True for a denied one ("leverage is not excessive", "the moat isn't durable").

    Examples
    --------
    >>> predicative(["incentives", "are"]), predicative(["both"]), predicative(["leverage", "is", "not"])
    (False, False, True)
    >>> predicative(["a"]) is None, predicative(["the", "figure", "that", "is"]) is None, predicative(["which", "is", "not"])
    (True, True, True)
    """
    rest = list(words)
    denied = False
    while rest and rest[-1] in _ADVERBS:
        rest.pop()
    if rest and rest[-1] in ("not", "never"):
        denied = True
        rest.pop()
        while rest and rest[-1] in _ADVERBS:
            rest.pop()
    if not rest:
        return None if denied else (False if words else None)
    if all(w in _QUANTIFIERS for w in rest):
        return None if denied else False
    last = rest.pop()
    if last in _DENIED:
        if denied:
            return None  # "isn't not ...": no plain reading
        denied = True
    elif last in _FUSED:
        return denied if not rest or all(w in _QUANTIFIERS for w in rest) else None
    elif last not in _COPULAS:
        return None
    if rest[-1:] == ["which"]:
        return denied  # "+0.9pp, which is material": the figure just given, appraised
    if not 1 <= len(rest) <= MAX_SUBJECT or not _NOT_A_SUBJECT.isdisjoint(rest):
        return None
    return denied


def last_clause(before: str, cut: int, clause_words: list[str]) -> list[str]:
    """The words of the appraisal's own clause: after the last comma of ``before[cut + 1:]`` when one opens with a
    conjunction ("costs rose as fast, so the thesis is" -> ["the", "thesis", "is"]), else ``clause_words``.

    >>> last_clause("costs rose as fast as yields, so the thesis is ", -1, [])
    ['the', 'thesis', 'is']
    >>> last_clause("+0.9pp, which is ", -1, ["0", "9pp", "which", "is"])
    ['which', 'is']
    >>> last_clause("9x earnings, ", -1, ["9x", "earnings"])
    ['so']
    """
    comma = before.rfind(",", cut + 1)
    if comma < 0:
        return clause_words
    words = _WORDS.findall(before, comma + 1)
    if not words:
        return ["so"]  # "9x earnings, undervalued.": the appraisal alone after the figures, as after "so"
    if words[0] in _OPENERS:
        return words[1:] if words[0] != "which" else words
    return clause_words
