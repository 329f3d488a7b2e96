"""The words a response uses for gate verdicts and final verdicts (paper §7.3, §7.5).

This module is data plus compiled regular expressions; :mod:`ipb.scoring.parse`
decides what an occurrence means in its context (negation, hedging, position).
It gathers, under one name, four modules of one concern each:

- :mod:`ipb.scoring._gate_words`: the gate verdicts (PROCEED, REJECT,
  INCONCLUSIVE, N/A), their vocabulary and its patterns, and the labels that
  name a field of a gate's section (the table of words is in its docstring);
- :mod:`ipb.scoring._clause_words`: the words around a verdict word that change
  what it says (negators, conditionals, modals, hedges, mere appearance);
- :mod:`ipb.scoring._final_words`: the cues, labels, action phrases and idioms
  that state the final verdict on the whole decision;
- :mod:`ipb.scoring._final_synonyms`: the synonym tables that map a report's
  words for a final call (BUY, bearish, "Rating: Reduce") to a card's outcomes.

Callers import from here (``from ipb.scoring import verdict_words as vw``).

Examples
--------
>>> verdict_word(VERDICT_PATTERN.search("Gate 2: not applicable")).verdict
'N/A'
>>> "rather" in NEGATORS, FINAL_CUE.search("Final verdict: INVEST") is not None
(True, True)
>>> synonym_table("INVEST", "PASS")["bearish"]
'PASS'

References
----------
Paper §7.3 (gate-level terminology), §6.3 schema note (PASS / FAIL / FILTER /
KILL / RANK), §7.5 (structured response parsing).
"""

from __future__ import annotations

from ipb.scoring._clause_words import APPEARANCE, CONDITIONALS, CONNECTIVE_TAIL, HEDGES, MODALS, NEGATORS
from ipb.scoring._final_synonyms import (FINAL_SYNONYMS, OUTCOME_SYNONYMS, RATING_FIELD, RATING_SCALE, RATING_TRIGGERS,
                                         SYNONYM_TRIGGERS, SYNONYM_WORD, synonym_key, synonym_patterns, synonym_table)
from ipb.scoring._final_words import (ACTION_TRIGGERS, DECIDER_BEFORE, FAIL_ACTIONS, FINAL_CUE, FINAL_CUE_TRIGGERS,
                                      FINAL_IDIOM_TRIGGERS, FINAL_IDIOMS, FINAL_LABEL, PASS_ACTIONS, SELF_STATED)
from ipb.scoring._gate_words import (FIELD_LABELS, INCONCLUSIVE, NOT_REACHED, PROCEED, REJECT, VERDICT_PATTERN,
                                     VERDICT_TRIGGERS, VERDICT_WORDS, VERDICTS, VerdictWord, verdict_word)
# read as ``vw.<name>`` by the parser though not in ``__all__``: a verdict word's strengths (3 committed, 2 hedged,
# 1 weak) and the pattern of the words that count only in context
from ipb.scoring._gate_words import COMMITTED as COMMITTED
from ipb.scoring._gate_words import CONTEXT_VERDICT_PATTERN as CONTEXT_VERDICT_PATTERN
from ipb.scoring._gate_words import HEDGED as HEDGED
from ipb.scoring._gate_words import WEAK as WEAK

__all__ = [
    "PROCEED",
    "REJECT",
    "INCONCLUSIVE",
    "NOT_REACHED",
    "VERDICTS",
    "VerdictWord",
    "VERDICT_WORDS",
    "VERDICT_PATTERN",
    "VERDICT_TRIGGERS",
    "verdict_word",
    "NEGATORS",
    "CONDITIONALS",
    "MODALS",
    "HEDGES",
    "APPEARANCE",
    "FIELD_LABELS",
    "FINAL_CUE",
    "FINAL_CUE_TRIGGERS",
    "ACTION_TRIGGERS",
    "FINAL_IDIOMS",
    "FINAL_IDIOM_TRIGGERS",
    "FINAL_LABEL",
    "PASS_ACTIONS",
    "FAIL_ACTIONS",
    "FINAL_SYNONYMS",
    "RATING_SCALE",
    "OUTCOME_SYNONYMS",
    "DECIDER_BEFORE",
    "SELF_STATED",
    "RATING_FIELD",
    "RATING_TRIGGERS",
    "SYNONYM_WORD",
    "SYNONYM_TRIGGERS",
    "synonym_key",
    "synonym_table",
    "synonym_patterns",
    "CONNECTIVE_TAIL",
]
