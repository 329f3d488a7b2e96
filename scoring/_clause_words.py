"""The words around a verdict word that change what it says: negation, condition, modality, hedging,
mere appearance (paper §7.5, verdict-word senses).

Re-exported by :mod:`ipb.scoring.verdict_words`; the parser (:mod:`ipb.scoring.parse._verdicts`,
:mod:`ipb.scoring.parse._verdict_clauses`) looks them up in a verdict word's clause. The
translations come from ``grammar/languages.yaml`` through :mod:`ipb.scoring._foreign_verdicts`.

References
----------
Paper §7.5 (structured response parsing).
"""

from __future__ import annotations

from typing import Final

from ipb.scoring import _foreign_verdicts as _fv

__all__ = ["NEGATORS", "BARE_NEGATORS", "BARE_AMBIGUOUS_NEGATORS", "CONDITIONALS", "MODALS", "HEDGES", "APPEARANCE", "CONNECTIVE_TAIL"]

#: The negated auxiliaries written without their apostrophe ("I wouldnt INVEST", "dont PROCEED"), a common slip of a
#: hurried writer and of a model at a low temperature. None of them is an English word, so each negates as its spelled
#: form does. "wont" and "cant" are also words (a habit, hypocrisy): they are :data:`BARE_AMBIGUOUS_NEGATORS`, read as
#: negators only where they stand as an auxiliary (:func:`ipb.scoring.parse._verdict_clauses._negated`).
BARE_NEGATORS: Final = frozenset(
    {"isnt", "doesnt", "dont", "didnt", "wouldnt", "couldnt", "shouldnt", "wasnt", "arent", "werent", "hasnt", "havent",
     "hadnt", "mustnt", "neednt", "aint"})
#: "wont" and "cant": a negated "will"/"can" only before a verb or a verdict word, never in "as is his wont" or "wont to".
BARE_AMBIGUOUS_NEGATORS: Final = frozenset({"wont", "cant"})

#: Words that negate a verdict word up to three words before it.
NEGATORS: Final = frozenset(
    {"not", "no", "never", "cannot", "without", "neither", "nor", "hardly", "fails", "failed", "unable", "rather", "instead", "isn't",
     "doesn't", "don't", "didn't", "won't", "wouldn't", "can't", "couldn't", "shouldn't", "wasn't", "aren't", "weren't", "hasn't",
     "haven't", "n't", "non"} | _fv.NEGATORS | BARE_NEGATORS
)

#: Words that make a clause hypothetical: a verdict inside it is not stated.
CONDITIONALS: Final = frozenset({"if", "unless", "whether", "suppose", "supposing", "assuming", "hypothetically", "were", "should", "provided", "once"})
#: Modal hedges: the verdict is a possibility, not a finding.
MODALS: Final = frozenset({"may", "might", "could", "possibly", "perhaps", "potentially", "conceivably"})
#: Soft hedges: the verdict is stated, with reservations.
HEDGES: Final = frozenset(
    {"likely", "probably", "arguably", "seems", "seem", "appears", "appear", "borderline", "marginally", "tentatively",
     "provisionally", "leaning", "lean", "presumably", "somewhat", "conditionally", "weakly", "barely", "narrowly"}
)

#: Words that make a pass only apparent (paper §7.5, verdict-word senses): "passes only on paper", "meets it in name only",
#: "technically passes, but ...", and their translations in ``languages.yaml`` ("solo en apariencia", "sur le papier",
#: "表面上"). A pass word with one in its clause is read INCONCLUSIVE, hedged (:func:`ipb.scoring.parse._verdict_clauses.
#: only_apparent`), not a confident PROCEED.
APPEARANCE: Final[tuple[str, ...]] = tuple(dict.fromkeys((
    "only on paper", "on paper only", "on paper", "in name only", "only in name", "nominally", "technically", "only technically",
    "only in appearance", "in appearance only", "in appearance", "only superficially", "superficially", "only formally",
    "formally only", "on the surface", "only cosmetically", "on a technicality", *_fv.APPEARANCE)))

#: Words after which a verdict word is part of a condition ("FAIL if ...", "INVEST only when ...").
CONNECTIVE_TAIL: Final = frozenset({"if", "unless", "provided", "when", "once", "should", "assuming"})
