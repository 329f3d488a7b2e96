"""The words a response uses for gate verdicts and final verdicts (paper §7.3, §7.5).

This module is data plus compiled regular expressions; :mod:`ipb.scoring.parse`
decides what an occurrence means in its context (negation, hedging, position).

Gate verdicts (paper §7.3, and the legacy labels of §6.3's schema note):

========================  =============================================================
verdict                   words (case-insensitive unless marked UPPER)
========================  =============================================================
``PROCEED``               proceed, pass, meets / met, satisfies, clears, qualifies,
                          RANK (UPPER), ✅ ✔ ✓ ☑ 🟢 👍
``REJECT``                reject, fail, FILTER / KILL (UPPER), filtered out, killed,
                          kill criterion triggered, disqualifies, deal-breaker,
                          ❌ ✗ ✘ ✖ ⛔ 🛑 🔴
``INCONCLUSIVE``          inconclusive, unclear, undetermined, indeterminate, unknown,
                          insufficient / no / not enough data, data not provided,
                          cannot be determined, uncertain, unresolved (hedged), ❓, ⚠ (weak),
                          an open question, too early to tell, hard to say (hedged)
``N/A``                   N/A, not reached, not applicable, not evaluated, not computed, unreached,
                          never comes up, skipped, moot, terminated by
========================  =============================================================

Negation ("not a REJECT", "would not proceed", "does not meet") turns PROCEED
into REJECT and REJECT into a weak PROCEED (a gate that "does not fail" has
not thereby been shown to pass); negated INCONCLUSIVE and N/A say nothing,
and "not a pass and not a fail" says neither. A final "pass" after
would/will ("Buffett would pass.") is the investor passing on the deal.
Words are matched on word boundaries, so "INCORRECT" is never "CORRECT",
"passive" is never "pass" and "proceedings" is never "proceed".

References
----------
Paper §7.3 (gate-level terminology), §6.3 schema note (PASS / FAIL / FILTER /
KILL / RANK), §7.5 (structured response parsing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring._text import Trigger

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

PROCEED: Final = "PROCEED"
REJECT: Final = "REJECT"
INCONCLUSIVE: Final = "INCONCLUSIVE"
NOT_REACHED: Final = "N/A"
#: The four gate verdicts a parsed trace may carry.
VERDICTS: Final = (PROCEED, REJECT, INCONCLUSIVE, NOT_REACHED)

#: Strength of a verdict word on its own: 3 committed, 2 hedged by the word
#: itself ("uncertain"), 1 weak (a warning sign).
COMMITTED, HEDGED, WEAK = 3, 2, 1


@dataclass(frozen=True)
class VerdictWord:
    """One entry of the verdict vocabulary.

    ``pattern`` is a regular expression (no capturing groups); ``negatable``
    is False for phrases that already contain their negation ("not reached");
    ``triggers`` are the lower-case literals a match can start with.
    """

    pattern: str
    verdict: str
    #: Lower-case literals every match starts with (see :class:`ipb.scoring._text.Trigger`).
    triggers: tuple[str, ...]
    strength: int = COMMITTED
    negatable: bool = True
    #: Counts only as the whole of its clause ("Price vs value: 68c against 90c. Favourable."), never inside one
    #: ("a favourable tax ruling").
    alone: bool = False
    #: Says the gate's named condition holds (REJECT) or not (PROCEED) for a gate whose condition is its kill ("Signal
    #: present", "No trigger"); the parser flips it for a gate whose named condition is what lets it PROCEED
    #: ("Rebalancing is triggered").
    sense: bool = False
    #: Counts only for a gate whose name states its pass condition (a card gate with a ``proceed`` test and no ``reject``
    #: test: "Growth Relative to Expectations", "Price Materially Below Intrinsic Value"): "Material." says that gap is
    #: large enough; of a gate with a ``reject`` test ("Risk of Permanent Loss") it could mean either, so there it says nothing.
    pass_named: bool = False


_I = "(?i:{})".format

#: Where a short answer word closes its clause: at ".", ";", "!", ")" or the line's end, optionally after a bracketed detail
#: ("fine (40% stocks, no drift).") or a corrective tail naming what it is not ("contradicted, not merely delayed.").
_CLOSES = (r"(?=[ \t]*(?:\([^()\n]{1,80}\)[ \t]*)?(?:,[ \t]*not[ \t]+(?:merely[ \t]+|just[ \t]+|only[ \t]+|simply[ \t]+)?"
           r"[a-z-]+[ \t]*)?(?:[.;!)]|$|\n))")

#: Where an approval closes its clause: at ".", ";", ":", "!", ",", ")" or the line's end ("exactly the fit Marks describes: ...").
_ENDS = r"(?=[ \t]*(?:[.;:!,)]|$|\n))"

#: The facts just given as a subject, then a copula: "Both are", "it's", "These look".
_FACTS_ARE = (r"\b(?:(?:that|it)(?:'s|\u2019s)|(?:that|this|these|those|both|it|they)\s+(?:is|are|was|were|looks?|seems?)"
              r"(?:\s+like)?)\s+(?:an?\s+)?(?:(?:very|really|genuinely|clearly|fairly|pretty)\s+)?")
_FACTS_TRIGGERS = ("that", "this", "these", "those", "both", "it", "they")
#: Where that appraisal closes its clause: ".", ";", ":", "!", ")" or the line's end.
_CLOSED = r"(?=[ \t]*(?:[.;:!)]|$|\n))"
#: A noun that only stands for the facts appraised: "strong numbers", "a strong one", "a good sign".
_EMPTY_NOUN = r"\s+(?:numbers?|figures?|ones?|signs?|results?|readings?|prints?|showing)\b"

#: The gate-verdict vocabulary, in the order the combined pattern tries it
#: (longer phrases first so that "kill criterion triggered" wins over "KILL").
VERDICT_WORDS: Final[tuple[VerdictWord, ...]] = (
    # -- N/A
    VerdictWord(r"\bN/A\b|\bn/a\b|\bN\.A\.", NOT_REACHED, ("n/a", "n.a."), negatable=False),
    VerdictWord(
        _I(r"\b(?:not|never)\s+(?:yet\s+)?(?:reached|evaluated|applicable|tested|examined|needed|applied|assessed|checked|"
           r"considered|performed|meaningful|computed|calculated|estimated)\b|\b(?:does\s+not|do\s+not|doesn't|don't)\s+apply\b"),
        NOT_REACHED, ("not", "never", "does", "do", "doesn't", "don't"),
        negatable=False,
    ),
    VerdictWord(_I(r"\bunreached\b|\bskipped\b|\bmoot\b|\bterminated[\s_]+(?:by|at|after)\b"), NOT_REACHED, ("unreached", "skipped", "moot", "terminated")),
    VerdictWord(
        _I(r"\bnever\s+(?:comes|came|come)\s+up\b|\bnever\s+arises\b|\b(?:does\s+not|doesn't|did\s+not|didn't|do\s+not|don't)\s+arise\b"),
        NOT_REACHED,
        ("never", "does", "doesn't", "did", "didn't", "do", "don't"),
        negatable=False,
    ),
    VerdictWord(_I(r"\bno\s+need\s+to\s+(?:evaluate|assess|examine|test|consider|apply)\b"), NOT_REACHED, ("no",), negatable=False),
    # -- kill phrases before the bare KILL
    VerdictWord(
        _I(
            r"\bkill[\s_-]*(?:criterion|criteria|switch|condition)\s+(?:is\s+|was\s+|has\s+been\s+|gets\s+|clearly\s+)?"
            r"not\s+(?:triggered|met|hit|tripped|activated)\b"
        ),
        PROCEED, ("kill",),
        strength=WEAK,
        negatable=False,
    ),
    VerdictWord(
        _I(
            r"\bkill[\s_-]*(?:criterion|criteria|switch|condition)\s+(?:is\s+|was\s+|has\s+been\s+|gets\s+|clearly\s+)?"
            r"(?:triggered|fires|fired|met|hit|tripped|activated)\b"
        ),
        REJECT, ("kill",),
    ),
    VerdictWord(_I(r"\btrigger(?:s|ed|ing)?\s+(?:the\s+|a\s+|its\s+)?kill\b"), REJECT, ("trigger",)),
    VerdictWord(_I(r"\bkills\s+the\s+(?:deal|investment|thesis|idea|acquisition)\b|\bkilled\b"), REJECT, ("kill",)),
    VerdictWord(r"\bKILL(?:S|ED)?\b|\bFILTER(?:S|ED)?\b", REJECT, ("kill", "filter")),
    VerdictWord(_I(r"\bfiltered\s+out\b|\bdeal[\s-]?breaker\b|\bdisqualif(?:ies|ied|y|ying)\b"), REJECT, ("filtered", "deal", "disqualif")),
    VerdictWord(_I(r"\breject(?:s|ed|ion|ing)?\b|\bfail(?:s|ed|ing)?\b"), REJECT, ("reject", "fail")),
    # a minimum not reached: "falls short", "comes up short", "misses the bar", "under the hurdle"
    VerdictWord(_I(r"\b(?:falls?|fell|falling)\s+short\b|\b(?:comes?|came|coming)\s+up\s+short\b"
                   r"|\bmiss(?:es|ed)?\s+the\s+(?:bar|mark|hurdle|threshold|cut-?off|minimum|test)\b"
                   # a target of the gate's own: closing the clause, or "of"/"by" a figure, or "(that) we set" -- not a
                   # "target date" or a "target for store openings" (s38break)
                   r"|\bmiss(?:es|ed)?\s+(?:the|our|my|its|their)\s+target(?=[ \t]*(?:[.;:,!)]|$|\n|(?:of|by)\b"
                   r"|(?:that\s+)?(?:we|i|they|you|he|she)\s+set\b|set\b))"
                   r"|\b(?:under|below|short\s+of)\s+the\s+hurdle\b"),
                REJECT, ("fall", "fell", "come", "came", "coming", "miss", "under", "below", "short")),
    VerdictWord("[\u274c\u2717\u2718\u2716\u26d4\U0001f6d1\U0001f534]", REJECT, ("\u274c", "\u2717", "\u2718", "\u2716", "\u26d4", "\U0001f6d1", "\U0001f534"), negatable=False),
    # -- INCONCLUSIVE
    VerdictWord(_I(r"\binconclusive\b|\bundetermined\b|\bindeterminate\b|\bunclear\b|\bunknown\b|\bTBD\b"), INCONCLUSIVE, ("inconclusive", "undetermined", "indeterminate", "unclear", "unknown", "tbd")),
    VerdictWord(
        _I(r"\b(?:insufficient|inadequate|limited|missing|incomplete|unavailable)\s+(?:data|information|evidence|disclosure|details?)\b"),
        INCONCLUSIVE, ("insufficient", "inadequate", "limited", "missing", "incomplete", "unavailable"),
        negatable=False,
    ),
    VerdictWord(_I(r"\bnot\s+enough\s+(?:data|information|evidence)\b"), INCONCLUSIVE, ("not",), negatable=False),
    VerdictWord(_I(r"\bno\s+(?:data|information|evidence|disclosure)\b"), INCONCLUSIVE, ("no",), negatable=False),
    VerdictWord(
        _I(
            r"\b(?:data|information|evidence|details?)\s+(?:is\s+|are\s+|was\s+|were\s+)?"
            r"(?:insufficient|unavailable|lacking|missing|absent|not\s+(?:provided|available|given|disclosed|known))\b"
        ),
        INCONCLUSIVE, ("data", "information", "evidence", "detail"),
        negatable=False,
    ),
    VerdictWord(
        _I(
            r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|unable\s+to)\s+(?:yet\s+)?(?:be\s+)?"
            r"(?:determine|determined|assess|assessed|evaluate|evaluated|judge|judged|verify|verified|confirm|confirmed|decide|decided)\b"
        ),
        INCONCLUSIVE, ("cannot", "can't", "can", "could", "couldn't", "unable"),
        negatable=False,
    ),
    # A measure the writer says cannot be taken yet: "We cannot size this risk yet.", "can't quantify the dilution" (hedged: a
    # committed word of the section outranks it)
    VerdictWord(_I(r"\b(?:cannot|can't|can\u2019t|can\s+not|unable\s+to)\s+(?:yet\s+)?(?:size|quantify|gauge|measure|estimate|price)\b"),
                INCONCLUSIVE, ("cannot", "can't", "can\u2019t", "can", "unable"), strength=HEDGED, negatable=False),
    VerdictWord(_I(r"\buncertain\b"), INCONCLUSIVE, ("uncertain",), strength=HEDGED),
    VerdictWord(_I(r"\b(?:undecided|pending)\b(?=[ \t]*(?:[.;!)]|$|\n))"), INCONCLUSIVE, ("undecided", "pending"), strength=HEDGED),
    # "for now we call it unresolved.", "I'd call that point unresolved rather than failed": the question left open
    VerdictWord(_I(r"\bunresolved\b(?=[ \t]*(?:[.;!),]|rather[ \t]+than\b|$|\n))"), INCONCLUSIVE, ("unresolved",), strength=HEDGED),
    # The question left open in plain words, closing its clause: "The catalyst is an open question.", "whether it lasts remains to
    # be seen", "too early to tell", "the jury is still out", "hard to say" (s37wild)
    VerdictWord(_I(r"\bopen[ \t]+question\b" + _CLOSES + r"|\bremains?[ \t]+to[ \t]+be[ \t]+(?:seen|proven|shown)\b"
                   + _CLOSES + r"|\btoo[ \t]+(?:early|soon)[ \t]+to[ \t]+(?:tell|say|judge|call)\b|\bjury[ \t]+is[ \t]+(?:still[ \t]+)?out\b"
                   r"|\bhard[ \t]+to[ \t]+(?:say|tell|judge|call)\b" + _CLOSES),
                INCONCLUSIVE, ("open", "remain", "too", "jury", "hard"), strength=HEDGED),
    VerdictWord("\u2753", INCONCLUSIVE, ("\u2753",), strength=HEDGED, negatable=False),
    VerdictWord("\u26a0", INCONCLUSIVE, ("\u26a0",), strength=WEAK, negatable=False),
    # -- the same approval given by nobody ("Nobody would like that.", "No investor would welcome this.", "Few holders would
    # love that.") or by the investor's adversaries ("The short sellers would love that.", "Competitors would welcome this."):
    # bad news for the gate (s38break). The match starts at the subject, so it wins over the approval below, which starts later.
    VerdictWord(_I(r"\b(?:nobody|no[\s-]one|(?:no|few)\s+(?:(?!doubt\b|wonder\b|question\b)[a-z-]+\s+){0,2}?(?:investors?|buyers?|readers?|holders?|owners?"
                   r"|analysts?|lenders?|shareholders?|one))\s+(?:would|will)\s+(?:ever\s+)?(?:like|love|approve\s+of|welcome|applaud)"
                   r"\s+(?:that|this|it|these|those)\b" + _ENDS
                   + r"|\b(?:short[\s-]sellers?|shorts|bears|rivals?|competitors?|critics|sceptics|skeptics)\s+(?:would|will|'d|\u2019d)"
                   r"\s+(?:(?:very\s+)?much\s+|certainly\s+|surely\s+|probably\s+)?(?:like|love|welcome|applaud)"
                   r"\s+(?:that|this|it|these|those)\b" + _ENDS),
                REJECT, ("nobody", "no", "few", "short", "shorts", "bears", "rival", "rivals", "competitor", "competitors",
                         "critics", "sceptics", "skeptics"), strength=HEDGED, negatable=False),
    # -- the investor's or the reader's approval standing as the verdict, closing its clause (s38wild): "Lynch would like
    # that.", "exactly what Soros looks for", "That's exactly the indifference you want."; its refusal: "Lynch would not like
    # that.", "Graham would balk at this." Hedged: a committed word of the section outranks it.
    VerdictWord(_I(r"\b(?:would|will|'d|\u2019d)\s+(?:(?:very\s+)?much\s+|certainly\s+|surely\s+|probably\s+)?"
                   r"(?:like|love|approve\s+of|welcome|applaud)\s+(?:that|this|it|these|those)\b" + _ENDS
                   + r"|\b(?:exactly|just|precisely)\s+(?:what\s+|the\s+(?:[a-z-]+\s+){1,3}?(?:that\s+)?)"
                   r"(?:you|we|i|he|she|they|(?:an?\s+|the\s+|any\s+|every\s+)?(?:[a-z-]+\s+)?(?:investors?|buyers?|readers?|holders?)"
                   r"|(?-i:[A-Z][\w\u2019'-]+))\s+"
                   r"(?:(?:would|will|should|always|usually|typically)\s+)?"
                   r"(?:wants?|look(?:s|ing)?\s+for|likes?|prizes?|seeks?|describes?|asks?\s+for|hopes?\s+for|prefers?|needs?)\b" + _ENDS),
                PROCEED, ("would", "will", "'d", "\u2019d", "exactly", "just", "precisely"), strength=HEDGED, negatable=False),
    VerdictWord(_I(r"\b(?:would|will|'d|\u2019d)\s+(?:not|never)\s+(?:like|love|approve\s+of|welcome)\s+(?:that|this|it|these|those)\b"
                   + _ENDS + r"|\b(?:wouldn't|wouldn\u2019t|won't|won\u2019t)\s+(?:like|love|approve\s+of|welcome)\s+(?:that|this|it|these|those)\b"
                   + _ENDS + r"|\b(?:would|will|'d|\u2019d)\s+(?:balk|baulk|wince|frown|run\s+a\s+mile|walk\s+away)\b"
                   r"|\b(?:would|will|'d|\u2019d)\s+(?:hate|dislike)\s+(?:that|this|it|these|those)\b" + _ENDS),
                REJECT, ("would", "will", "'d", "\u2019d", "wouldn", "won"), strength=HEDGED, negatable=False),
    # The same empty noun standing for a downside named just before it: "the main risk here, and it's a strong one.", "a
    # threat. It is a strong one." -- a strong risk is bad news for the gate (s38break). The match starts at the downside noun,
    # so it wins over the appraisal below, which starts later.
    VerdictWord(_I(r"\b(?:risks?|threats?|headwinds?|drags?|dangers?|hazards?|problems?|concerns?|worry|worries|red\s+flags?)\b"
                   r"(?:\s+(?:here|now|today|to\s+watch))?[ \t]*(?:,[ \t]*and|[.;]|[ \t]+and)?\s+(?:it|that|this)(?:'s|\u2019s|\s+is)"
                   r"\s+(?:an?\s+)?(?:(?:very|really|genuinely|clearly|pretty)\s+)?(?:strong|big|real|serious|large|major|huge)\s+ones?\b"
                   + _CLOSED),
                REJECT, ("risk", "risks", "threat", "threats", "headwind", "headwinds", "drag", "drags", "danger", "dangers",
                         "hazard", "hazards", "problem", "problems", "concern", "concerns", "worry", "worries", "red"),
                strength=HEDGED, negatable=False),
    # An appraisal of the facts just given, as a predicate with an empty noun, closing its clause (s38wild): "Both are strong
    # numbers.", "That's the prevailing bias, and it's a strong one.", "These are weak figures." Hedged.
    VerdictWord(_I(_FACTS_ARE + r"(?:strong|solid|good|great|healthy|excellent|decent|encouraging|reassuring|impressive)"
                   + _EMPTY_NOUN + _CLOSED),
                PROCEED, _FACTS_TRIGGERS, strength=HEDGED, negatable=False),
    VerdictWord(_I(_FACTS_ARE + r"(?:weak|poor|bad|ugly|worrying|troubling|alarming|disappointing)" + _EMPTY_NOUN + _CLOSED),
                REJECT, _FACTS_TRIGGERS, strength=HEDGED, negatable=False),
    # -- PROCEED
    VerdictWord(_I(r"\bproceed(?:s|ed|ing)?\b"), PROCEED, ("proceed",)),
    VerdictWord(_I(r"\bpass(?:es|ed|ing)?\b(?!\s+on\b)"), PROCEED, ("pass",)),
    VerdictWord(r"\bRANK(?:S|ED)?\b", PROCEED, ("rank",)),
    VerdictWord(_I(r"\b(?:meets|met|meet)\b|\bsatisf(?:ies|ied|y)\b|\bclear(?:s|ed)\b|\bqualif(?:ies|ied|y)\b"), PROCEED, ("meet", "met", "satisf", "clear", "qualif")),
    # "Strategic, not tactical: OK.", "Universe: listed equity. Clear.", "both fine": a short answer that closes its clause (hedged:
    # any committed word of the section outranks it)
    VerdictWord(_I(r"\b(?:OK|okay|fine|clear|holds)\b" + _CLOSES), PROCEED, ("ok", "okay", "fine", "clear", "holds"), strength=HEDGED),
    # Appraisals standing as the whole answer of their clause: "68 cents against 90. Favourable.", "Leverage: weak."
    VerdictWord(_I(r"\b(?:favou?rable|satisfactory|acceptable|adequate|attractive|strong|solid|healthy|good|robust|sound|"
                   r"comfortable|positive|supportive|confirmed|confirms|intact|aligned|eligible|permitted|compliant|clean|identified|"
                   r"in\s+place|cheap|inexpensive|undervalued)\b" + _CLOSES),
                PROCEED, ("favo", "satisfactory", "acceptable", "adequate", "attractive", "strong", "solid", "healthy", "good",
                          "robust", "sound", "comfortable", "positive", "supportive", "confirm", "intact", "aligned", "eligible",
                          "permitted", "compliant", "clean", "identified", "in", "cheap", "inexpensive", "undervalued"),
                strength=HEDGED, negatable=False, alone=True),
    VerdictWord(_I(r"\b(?:unfavou?rable|unsatisfactory|unacceptable|inadequate|unattractive|weak|poor|negative|"
                   r"broken|excessive|misaligned|ineligible|contradicted|refuted|invalidated|expensive|overvalued|pricey|"
                   r"too\s+(?:high|low|expensive|small|risky))\b"
                   + _CLOSES),
                REJECT, ("unfavo", "unsatisfactory", "unacceptable", "inadequate", "unattractive", "weak", "poor", "negative",
                         "broken", "excessive", "misaligned", "ineligible", "contradicted", "refuted", "invalidated", "expensive",
                         "overvalued", "pricey", "too"),
                strength=HEDGED, negatable=False, alone=True),
    # The gate's named condition, said to hold or not ("Signal present", "No trigger.", "Rebalancing is triggered."): REJECT /
    # PROCEED for a gate whose condition is its kill, flipped by the parser for a gate whose condition lets it PROCEED.
    VerdictWord(_I(r"(?:(?<=\bnot )|(?<=\bnever )|(?<=\bno longer ))(?:present|flashing|firing|triggered|tripped|lit)\b"
                   r"|(?:(?<=\bdoes not )|(?<=\bdoesn't )|(?<=\bdid not )|(?<=\bdidn't )|(?<=\bwon't )|(?<=\bwill not ))"
                   r"(?:fire|trigger|trip)\b"
                   r"|\bno\s+(?:[a-z-]+\s+)?(?:trigger|signal|warning(?:\s+sign)?|red\s+flag|alarm)s?\b(?=[ \t]*(?:[.;!)]|$|\n))"
                   r"|\bno\s+(?:[a-z-]+\s+)?(?:trigger|signal|warning|red\s+flag|alarm)s?\s+(?:is\s+|was\s+|has\s+)?"
                   r"(?:present|fires|fired|firing|flashing|lit|triggered|tripped)\b"),
                PROCEED, ("present", "flashing", "firing", "triggered", "tripped", "lit", "fire", "trigger", "trip", "no"),
                negatable=False, sense=True),
    VerdictWord(_I(r"\b(?:signal|indicator|trigger|warning|red\s+flag|alarm|flag)\s+(?:is\s+|was\s+)?"
                   r"(?:present|fires|fired|firing|flashing|lit|triggered|tripped)\b"),
                REJECT, ("signal", "indicator", "trigger", "warning", "red", "alarm", "flag"), sense=True),
    VerdictWord(_I(r"(?:(?<=\bis )|(?<=\bare )|(?<=\bwas )|(?<=\bwere )|(?<=\bremain )|(?<=\bremains )|(?<=\bstill )|(?<=\bnow )"
                   r"|(?<=\bclearly )|(?<=\balso ))(?:present|flashing|firing|triggered|tripped)\b(?=[ \t]*(?:[.;!),]|$|\n))"),
                REJECT, ("present", "flashing", "firing", "triggered", "tripped"), strength=HEDGED, sense=True),
    VerdictWord(_I(r"\bpresent\b(?=[ \t]*(?:[.;!)]|$|\n))"), REJECT, ("present",), strength=HEDGED, negatable=False, alone=True, sense=True),
    # Materiality said alone ("Gap +1.2pp. Material.", "the gap is immaterial"): the gate's named pass condition (a material gap, a
    # material discount) holds or not; read only for a gate whose name states its pass condition (``pass_named``).
    VerdictWord(_I(r"\b(?:immaterial|insignificant|negligible|(?:not|never)\s+(?:material|significant))\b" + _CLOSES), REJECT,
                ("immaterial", "insignificant", "negligible", "not", "never"), strength=HEDGED, negatable=False, alone=True,
                pass_named=True),
    VerdictWord(_I(r"\b(?:material|significant)\b" + _CLOSES), PROCEED, ("material", "significant"), strength=HEDGED,
                negatable=False, alone=True, pass_named=True),
    VerdictWord(_I(r"\babsent\b(?=[ \t]*(?:[.;!)]|$|\n))"), PROCEED, ("absent",), strength=HEDGED, negatable=False, alone=True, sense=True),
    # A screen's adverse action ruled out: "no divestment decided", "no exclusion recommended", "no restriction in place".
    VerdictWord(_I(r"\bno\s+(?:[a-z-]+\s+)?(?:divestments?|exclusions?|restrictions?|sanctions?)\s+(?:(?:was|were|is|has\s+been)\s+)?"
                   r"(?:decided|recommended|warranted|required|proposed|imposed|announced|in\s+place|planned|applies|apply)\b"),
                PROCEED, ("no",), strength=HEDGED, negatable=False),
    VerdictWord("[\u2705\u2714\u2713\u2611\U0001f7e2\U0001f44d]", PROCEED, ("\u2705", "\u2714", "\u2713", "\u2611", "\U0001f7e2", "\U0001f44d"), negatable=False),
    # -- the same verdicts in other languages ("nicht bestanden", "KHÔNG ĐẠT", "未通过", "不合格"; :mod:`ipb.scoring._foreign_verdicts`)
    *(VerdictWord(pattern, verdict, triggers, negatable=negatable) for pattern, verdict, negatable, triggers in _fv.GATE_WORDS),
)

#: Every verdict word that is one in any context, as one alternation; the group ``v<i>`` names entry ``i`` (for short strings).
VERDICT_PATTERN: Final = re.compile("|".join(f"(?P<v{i}>{w.pattern})" for i, w in enumerate(VERDICT_WORDS) if not (w.alone or w.sense)))
#: The words that count only in context (appraisals standing alone, condition-sense words): a whole table cell of one of them is a verdict.
CONTEXT_VERDICT_PATTERN: Final = re.compile("|".join(f"(?:{w.pattern})" for w in VERDICT_WORDS if w.alone or w.sense))
#: The same for long texts: one trigger per literal, ``key`` the entry's index (see :func:`ipb.scoring._text.scan`).
VERDICT_TRIGGERS: Final[list[Trigger]] = [
    Trigger(literal, re.compile(w.pattern), i, word=literal[:1].isalnum() and not _fv.unspaced(literal))
    for i, w in enumerate(VERDICT_WORDS) for literal in w.triggers
]


def verdict_word(match: re.Match[str]) -> VerdictWord:
    """The vocabulary entry a match of :data:`VERDICT_PATTERN` came from.

    >>> verdict_word(VERDICT_PATTERN.search("Gate 5: FAIL")).verdict
    'REJECT'
    >>> VERDICT_PATTERN.search("an INCORRECT, passive bypass in the proceedings") is None
    True
    """
    name = match.lastgroup
    assert name is not None
    return VERDICT_WORDS[int(name[1:])]


#: Words that negate a verdict word up to three words before it.
NEGATORS: Final = frozenset(
    {"not", "no", "never", "cannot", "without", "neither", "nor", "hardly", "fails", "failed", "unable", "rather", "instead", "isn't",
     "doesn't", "don't", "didn't", "won't", "wouldn't", "can't", "couldn't", "shouldn't", "wasn't", "aren't", "weren't", "hasn't",
     "haven't", "n't", "non"} | _fv.NEGATORS
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

#: Labels that name a field of the current gate rather than a new gate.
FIELD_LABELS: Final = re.compile(
    r"(?i)^(?:gate\s+)?(?:verdict|outcome|result|status|decision|assessment|rating|reasoning|rationale|evidence|notes?|comments?|"
    r"why|because|analysis|explanation|justification|key\s+(?:reasoning|evidence|facts?|points?|metrics?)|data|facts?|elements?|"
    r"required\s+elements|kill[\s_-]*criteri(?:on|a)|kill[\s_-]*triggered|criteri(?:on|a)|test|check|threshold|computed(?:\s+value)?|"
    r"value|calculation|math|source|citation|question|name|gate|step|id|description|details?|observation|finding|"
    r"conclusion for (?:this|the) gate|gate (?:conclusion|finding)|application|applied|interpretation|score|confidence|"
    r"caveats?|risks?|assumptions?)$"
)

#: A statement about the whole decision (closes the current gate's section).
FINAL_CUE: Final = re.compile(
    r"(?i)\b(?:final|overall|investment|ultimate|net|bottom[\s-]+line)[\s_-]*(?:verdict|decision|recommendation|call|answer|"
    r"conclusion|outcome|result|assessment|action)\b|\bbottom[\s-]+line\b|\bin\s+conclusion\b|\bin\s+summary\b|\bto\s+conclude\b|"
    r"\bmy\s+recommendation\b|\brecommendation\s*[:=]|\b(?:the|my|our)\s+(?:overall\s+)?answer\s+(?:is|would\s+be)\b"
)
#: :data:`FINAL_CUE` for long texts; "in conclusion" is found at "conclusion".
FINAL_CUE_TRIGGERS: Final[list[Trigger]] = [
    *(Trigger(w, FINAL_CUE) for w in ("final", "overall", "investment", "ultimate", "net", "bottom")),
    Trigger("conclusion", re.compile(r"(?i)(?<=in )conclusion\b")),
    Trigger("summary", re.compile(r"(?i)(?<=in )summary\b")),
    Trigger("conclude", re.compile(r"(?i)(?<=to )conclude\b")),
    Trigger("recommendation", re.compile(r"(?i)(?<=my )recommendation\b|recommendation\s*[:=]")),
    Trigger("answer", re.compile(r"(?i)(?<=the |our )answer\s+(?:is|would\s+be)\b|(?<=my )answer\s+(?:is|would\s+be)\b|(?<=overall )answer\s+(?:is|would\s+be)\b")),
    # "Decisión final:", "Endgültige Entscheidung:", "最终决定：" (grammar/languages.yaml final_labels)
    *(Trigger(w, _fv.FINAL_LABEL_CUE, word=not _fv.unspaced(w)) for w in _fv.FINAL_LABEL_LITERALS),
]
#: A label (heading, bold or "X:") that opens the final-verdict part of a response.
FINAL_LABEL: Final = re.compile(
    r"(?i)^(?:the\s+)?(?:final|overall|investment|ultimate|net)?[\s_-]*(?:verdict|decision|recommendation|conclusion|outcome|"
    r"answer|summary|bottom[\s-]+line|result|call|action)s?$|^overall$|^in\s+(?:conclusion|summary)$|^final$|^summary\s+table$|"
    r"^(?:final|overall)\s+(?:investment\s+)?(?:verdict|decision)(?:\s+and\s+trigger)?$"
)

#: Phrases stating the positive action of the whole framework (mapped to outcomes["pass"]).
PASS_ACTIONS: Final = re.compile(
    r"(?i)\b(?:buy|acquire|go\s+ahead\s+with|proceed\s+with|make|approve|back|fund)\s+(?:the|this|that)\s+"
    r"(?:investment|deal|acquisition|company|business|stock|shares?|purchase|opportunity|target)\b|\bgo\s+ahead\b"
)
#: Phrases stating the negative action (mapped to outcomes["fail"]).
FAIL_ACTIONS: Final = re.compile(
    r"(?i)\b(?:pass(?:es|ed|ing)?\s+on|walk(?:s|ed)?\s+away\s+from|avoid(?:s|ed)?|reject(?:s|ed)?|decline(?:s|d)?|turn(?:s|ed)?\s+down|"
    r"stay(?:s|ed)?\s+away\s+from)\s+(?:the|this|that|it|such\s+an?)\b(?:\s+(?:investment|deal|acquisition|company|business|stock|"
    r"shares?|purchase|opportunity|target))?|\bwalk(?:s|ed)?\s+away\b|\bno\s+deal\b"
    # the company by its name ("I'd pass on Pemberton Print", "we walk away from Acme"); only after these verbs, whose
    # object is the company ("avoided Chapter 11" is no verdict)
    r"|\b(?:pass(?:es|ed)?\s+on|walk(?:s|ed)?\s+away\s+from|stay(?:s|ed)?\s+away\s+from)\s+(?-i:[A-Z][A-Za-z0-9&'.-]*[A-Za-z0-9])"
)

#: The one who decides, as the subject of a closing sentence: the writer ("I", "we", "I'd") or the portfolio the
#: answer decides for ("the fund", "the portfolio", "the committee"); a decision verb after it is the writer's verdict.
_DECIDER = r"\b(?:i|we|(?:the|our)\s+(?:fund|portfolio|committee|board|firm))(?:'d|'ll|'m|'re|'ve|\u2019d|\u2019ll|\u2019m|\u2019re|\u2019ve)?"
#: :data:`_DECIDER` before a word (at the end of the text searched): "We divest", "the fund will hold", "I'd keep holding".
#: "must" is left out: "the fund must divest ..." states the rule, not this decision.
DECIDER_BEFORE: Final = re.compile(
    _DECIDER + r"(?:[ \t]+(?:would|will|should|shall|can|do|does|did|am|are|is))?(?:[ \t]+(?:not|never))?(?:[ \t]+be)?[ \t]+\Z",
    re.I)
#: An idiom that carries its own decider or can only be a verdict: it counts in lower case anywhere ("we stay on the
#: sidelines", "the fund is selling", "this goes in the too-hard pile", "it does not make the defensive list").
SELF_STATED: Final = re.compile(_DECIDER + r"\b|too[\s-]+hard\b|\b(?:for|from)\s+(?:me|us)\b|\bmakes?\s+the\s+(?:[a-z-]+\s+){0,2}?(?:cut|grade|list)\b"
                                r"|\bone\s+to\s+(?:skip|avoid|leave\s+alone|pass\s+on|sit\s+out|steer\s+clear|stay\s+(?:away|out)|buy|own|add)\b", re.I)

#: Idioms real reports close with instead of an outcome word (key 0: the card's fail outcome, key 1: its pass outcome):
#: "I wouldn't touch it", "steer clear", "a hard pass", "count me out", "uninvestable"; "this is a buy", "worth owning",
#: "I'm a buyer". Negation before them flips them ("not worth owning"); a price limit after a buy idiom ("a buy below $40")
#: is the fail outcome, as for a bare BUY.
FINAL_IDIOMS: Final = re.compile(
    r"(?i)(?P<fail>\b(?:would\s+not|wouldn't|will\s+not|won't|do\s+not|don't|shouldn't|should\s+not)\s+(?:go\s+near|touch)\s+"
    r"(?:it|this|that|them|these|those|the\s+(?:stock|shares?|company|business|deal|bonds?|name|idea|trade))\b"
    r"|\bsteer(?:s|ed|ing)?\s+clear\b|\bhard\s+pass\b|\bcount\s+(?:me|us)\s+out\b|\bun-?investable\b|\bnot\s+investable\b"
    r"|\b(?:stay(?:s|ed|ing)?|remain(?:s|ed|ing)?|sit(?:s|ting)?)\s+on\s+the\s+sidelines?\b|\btoo[\s-]+hard\s+(?:pile|basket|bin|bucket|box|tray)\b"
    r"|\bnot\s+for\s+(?:us|me)\b(?!\s+to\b)|\bstay(?:s|ing)?\s+away\b(?![ \t]+from\b)"
    # the case as "one" the writer leaves: "This is one we'll skip.", "one to leave alone for now", "one I'd avoid"
    r"|\b(?:this|it|that)(?:\s+is|'s|\u2019s)\s+(?:one|a\s+(?:name|stock|bond|deal))\s+(?:(?:to|for\s+(?:us|me)\s+to)|(?:we|i)"
    r"(?:'ll|\u2019ll|'d|\u2019d|\s+will|\s+would|\s+should)?)\s+(?:skip|avoid|leave\s+alone|pass\s+on|sit\s+out|steer\s+clear\s+of|"
    r"stay\s+away\s+from|stay\s+out\s+of)\b"
    r"|\b(?:it|this|the\s+(?:stock|company|shares?|business|name))\s+(?:does\s+not|doesn't|did\s+not|didn't|fails\s+to|failed\s+to|"
    r"cannot|can't|would\s+not|wouldn't)\s+qualify\s+(?:for|as)\b"
    r"|\b(?:does\s+not|doesn't|did\s+not|didn't|fails\s+to|failed\s+to|cannot|can't|will\s+not|won't|would\s+not|wouldn't)\s+make\s+"
    r"the\s+(?:[a-z-]+\s+){0,2}?(?:cut|grade|list)\b"
    rf"|{_DECIDER}\s+(?:(?:would|will|should|shall|am|are|is)\s+)?(?:be\s+)?(?:selling|sell|exiting|exit)\b"
    r"(?![\s-]+(?:side|signal|price|order|rating|pressure|off|if|any|every|all|whenever)\b)"
    rf"|{_DECIDER}\s+(?:(?:am|are|will\s+be|would\s+be|be)\s+)?passing\b(?![ \t]+(?:the|all|every|each|both|it|this|through|\d))"
    r"|\b(?:a|it's\s+a|it\s+is\s+a|that's\s+a)\s+(?:hard\s+|clear\s+|firm\s+)?pass\s+(?:(?:for|from)\s+(?:me|us)\b"
    # the noun "a pass" with today's price or for now ("it's a pass at this price", "a pass at these levels", "a pass for
    # now"): the investor declining today, as "pass at this price" in the synonym table; a gate is not "a pass at a price"
    r"|at\s+(?:this|that|the\s+current|today's|today\u2019s|current|these|those|such)\s+(?:prices?|levels?|valuations?|multiples?)\b"
    r"|for\s+now\b)"
    # the writer passed at today's price ("So we passed at 41.", "I passed at these levels"): the decline, in the past tense
    # of a decision just made; a date after it is a decision of then (in_the_past)
    rf"|{_DECIDER}\s+passed\s+at\s+(?:(?:this|that|the\s+current|today's|today\u2019s|current|these|those)\s+(?:prices?|levels?|valuations?)\b"
    r"|(?:about\s+|around\s+|roughly\s+|~)?(?:[$\u00a3\u20ac\u00a5]\s?)?\d[\d.,]*(?![\d.,]|\s*(?:%|per\s*cent|percent)))"
    r"|\btoo\s+(?:rich|expensive|pricey|dear)\s+for\s+(?:me|us)\b"
    rf"|{_DECIDER}\s+(?:will\s+not|won't|would\s+not|wouldn't|am\s+not|are\s+not|aren't|is\s+not|isn't|not)\s+(?:be\s+)?(?:buying|buy)\b"
    # (not a reason denied: "I'm not buying because of a story I fell for" says why the writer buys, not that they don't)
    r"(?![ \t]+(?:because|since|on[ \t]+the[ \t]+strength|for[ \t]+the[ \t]+(?:story|hype|narrative))\b))"
    r"|(?P<pass>\b(?:this|it|that)(?:\s+is|'s)\s+a\s+(?:clear\s+|strong\s+|solid\s+)?buy\b(?!\s+(?:signal|case|thesis|rating|list|side|order|back))"
    r"|\bworth\s+(?:owning|buying)\b|\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:a\s+)?buyers?\b"
    rf"|{_DECIDER}\s+(?:(?:would|will)\s+)?be\s+(?:a\s+)?buyers?\b(?!\s+(?:if|below|under|at|when|only|once)\b)"
    r"|\b(?:it|this|the\s+(?:stock|company|shares?|business|name))\s+qualifies\s+(?:for|as)\b"
    rf"|{_DECIDER}\s+(?:(?:am|are|is|will\s+be|would\s+be|be|have\s+been|has\s+been|been)\s+)?buying\b(?!\s+(?:back|power|opportunit|time))"
    r"|\b(?:it|this|the\s+(?:stock|company|shares?|business|name))\s+makes\s+the\s+(?:[a-z-]+\s+){0,2}?(?:cut|grade|list)\b"
    r"|\b(?:this|it|that)(?:\s+is|'s|\u2019s)\s+(?:one|a\s+(?:name|stock|bond|deal))\s+(?:to|(?:we|i)(?:'ll|\u2019ll|'d|\u2019d|\s+will|\s+would|\s+should)?)"
    r"\s+(?:buy|own|add)\b(?!\s+(?:if|when|once|below|under|at|on\s+(?:a|any)\s+dip)\b))"
)
#: :data:`FINAL_IDIOMS` for long texts (key 0 for every trigger: the match's group says which outcome).
FINAL_IDIOM_TRIGGERS: Final[list[Trigger]] = [
    Trigger(w, FINAL_IDIOMS) for w in ("would", "wouldn't", "will not", "won't", "do not", "don't", "shouldn't", "should", "steer",
                                       "hard", "count", "uninvest", "un-invest", "not", "this", "it is", "it's", "that", "worth",
                                       "i'm", "i am", "we're", "we are",
                                       "stay", "remain", "sit", "too", "it does", "it doesn", "it did", "it fail", "it cannot",
                                       "it can't", "it would", "it wouldn", "it qualifies", "the stock", "the company", "the share",
                                       "the business", "the name", "the fund", "the portfolio", "the committee", "the board",
                                       "the firm", "our fund", "our portfolio", "our committee", "our board", "our firm", "i'd",
                                       "we'd", "i'll", "we'll", "i w", "we w", "i s", "we s", "i e", "we e", "i m", "we m",
                                       "i've", "we've", "i\u2019ve", "we\u2019ve", "i h", "we h", "doesn", "does not", "did not",
                                       "didn", "fails to", "failed to", "cannot", "can't", "it makes",
                                       "this makes", "a pass", "a hard", "a clear", "a firm", "that's", "too", "i p", "we p")  # literals of 3+ characters or with a space (scan's prefixes)
]

#: The action phrases for long texts (key 0: fail, key 1: pass).
ACTION_TRIGGERS: Final[list[Trigger]] = [
    *(Trigger(w, FAIL_ACTIONS, 0) for w in ("pass", "walk", "avoid", "reject", "decline", "turn", "stay", "no")),
    *(Trigger(w, PASS_ACTIONS, 1) for w in ("buy", "acquire", "go", "proceed", "make", "approve", "back", "fund")),
]

#: The verdict words real reports use for a final call, mapped to the card's pass / fail outcome (key 1 / 0) when
#: they are not the card's own outcome words: a rating or signal field ("signal": "bearish", "Rating: BUY") anywhere,
#: the bare word in a conclusion. HOLD is left unmapped (no outcome of a buy decision); WATCH and WAIT are fail-outcome
#: steps of :data:`RATING_SCALE` (a rating's value only).
FINAL_SYNONYMS: Final = {
    "strong buy": 1, "buy": 1, "accumulate": 1, "outperform": 1, "overweight": 1, "bullish": 1, "long": 1, "add": 1,
    "strong sell": 0, "sell": 0, "avoid": 0, "skip": 0, "underperform": 0, "underweight": 0, "bearish": 0, "short": 0,
    "pass at this price": 0, "pass for now": 0, "overvalued": 0, "too expensive": 0,
    # the same in other languages ("kaufen", "暂不买入"; :mod:`ipb.scoring._foreign_verdicts`)
    **_fv.FINAL_WORDS,
}
#: Everyday phrases for a card's outcome word when the card has that word as an outcome (HOLD on a hold-or-sell review,
#: SELL, DIVEST): "the fund keeps its holding" is HOLD, "we sell the shares" SELL. They read like the card's own outcome
#: words (after its ``verdict_synonyms``, which win) and, in lower case, only after a decision cue or the one who decides.
OUTCOME_SYNONYMS: Final[dict[str, tuple[str, ...]]] = {
    "HOLD": ("keep holding", "keeps holding", "keep the holding", "keeps the holding", "keep its holding", "keeps its holding",
             "keep our holding", "keep the stake", "keeps its stake", "keep the position", "keep the shares", "retain the holding",
             "retains its holding", "retain the stake", "retains its stake", "retain the shares", "stay invested", "remain invested",
             "stays invested", "remains invested", *_fv.HOLD_WORDS),
    "SELL": ("sell the shares", "sell the stock", "sell the position", "sell our shares", "exit the position", "sell out"),
    "DIVEST": ("sell the stake", "sell its stake", "sells its stake", "sell its holding", "sells its holding", "sell the holding",
               "exit the holding", "exits the holding", "exit its holding"),
    # a design or proposal sent back to be done again ("Their version goes back to the drawing board.", "Back to the
    # drawing board.") on a card whose fail outcome is to redo it (REDESIGN, REVISE)
    "REDESIGN": ("back to the drawing board", "back to the drawing-board", "needs a redesign", "needs to be redesigned",
                 "needs reworking", "needs to be reworked"),
    "REVISE": ("back to the drawing board", "back to the drawing-board", "sent back for revision", "returned for revision",
               "needs reworking", "needs to be reworked", "needs another draft"),
    # a plan cleared to be carried out ("Status: approved for implementation", "signed off for roll-out") on a card whose
    # pass outcome is to carry it out (IMPLEMENT) or to approve it (APPROVE)
    "IMPLEMENT": ("approved for implementation", "cleared for implementation", "signed off for implementation",
                  "approved for roll-out", "approved for rollout", "cleared to go live", "approved to go live"),
    "APPROVE": ("given the green light", "gets the green light", "green-lit", "signed off as drafted", "approved as drafted",
                "approved as written", "approved as it stands"),
}
# the outcome words in other languages ("Veredicto final: INVERTIR", "最终结论：不投资"; :mod:`ipb.scoring._foreign_verdicts`)
for _outcome, _words in _fv.OUTCOME_WORDS.items():
    OUTCOME_SYNONYMS[_outcome] = (*OUTCOME_SYNONYMS.get(_outcome, ()), *_words)
#: Steps of the rating scales reports use that are a verdict only as a rating's value ("Rating: Reduce", "Interest level:
#: No Interest"), never as a bare word in prose ("reduce debt", "strong interest from bidders"): key 1 / 0 as in
#: :data:`FINAL_SYNONYMS`. The middle of a scale (Hold, Neutral, Market Perform, Equal Weight, Some Interest) decides
#: neither and is left out.
RATING_SCALE: Final = {
    "reduce": 0, "trim": 0, "sell down": 0, "no interest": 0, "not interested": 0, "low interest": 0,
    "strong interest": 1, "high interest": 1, "high conviction buy": 1, "conviction buy": 1, "top pick": 1,
    # not buying now: on a card that decides whether to buy, a watch or a wait is its fail outcome ("Decision: WATCH");
    # a card with its own WATCH or WAIT outcome keeps it (the card's words come first)
    "watch": 0, "wait": 0, "watch list": 0, "watchlist": 0,
}


def synonym_key(phrase: str) -> str:
    """A synonym phrase as the tables key it: lower case, one space between words ("Pass-at  this_price" -> "pass at this price")."""
    return " ".join(re.sub(r"[_-]+", " ", phrase).lower().split())


#: After a final-verdict word of an unspaced script: not a noun it qualifies ("买入价", the buy price; "買い時", the time to
#: buy; "매수가", the buy price).
_UNSPACED_TAIL = "(?![\u4ef7\u50f9\u6642\u65f6\u6c34\u70b9\u9ede\uac00\uc810]|\u4e0a\u9650)"
#: Decision labels in other languages, as "Decision:" or "Recommendation:" ("Fazit:", "结论：", "Kết luận:", "Вывод:";
#: ``labels`` of ``grammar/languages.yaml``).
_FOREIGN_LABELS = _fv.LABEL_PATTERN
_FOREIGN_LABEL_LITERALS = _fv.LABEL_LITERALS
#: A character of a script written without spaces (after or before a word of one there is no word boundary).
_UNSPACED_CHAR = f"[{_fv.UNSPACED_CHARS}]"


def synonym_patterns(words: list[str], rating_only: frozenset[str] = frozenset()) -> tuple[re.Pattern[str], list[Trigger],
                                                                                             re.Pattern[str], list[Trigger]]:
    """(rating-field pattern, its triggers, bare-word pattern, its triggers) for synonym phrases ``words``.

    Group ``word`` holds the phrase as written; words may be separated by
    spaces, underscores or hyphens. Phrases in ``rating_only`` (keys of
    :data:`RATING_SCALE`) are matched only as a rating's value.
    """
    def alternation(phrases: list[str]) -> str:
        return "|".join(sorted((r"[\s_-]+".join(re.escape(p) for p in w.split()) + (_UNSPACED_TAIL + _fv.guard(w)) * _fv.unspaced(w)
                                for w in phrases), key=len, reverse=True)) or "(?!)"

    labels = r"signal|recommendation|rating|action|stance|call|decision|verdict|interest(?:[ \t]+level)?|view"
    rating = re.compile(
        rf'(?i)(?:"(?:{labels})"[ \t]*:[ \t]*"[ \t]*'
        rf"|(?:\b(?:{labels})|{_FOREIGN_LABELS})[ \t]*\**[ \t]*[:=\u2014\uff1a-][ \t]*\**[ \t]*)"
        rf"(?P<word>{alternation(words)})(?:\b|(?<={_UNSPACED_CHAR})|{_fv.MARK_END})"
    )
    rating_triggers = [Trigger(w, rating) for w in ("signal", "recommendation", "rating", "action", "stance", "call", "decision", "verdict",
                                                    "interest", "view", '"')]
    rating_triggers += [Trigger(w, rating, word=not _fv.unspaced(w)) for w in _FOREIGN_LABEL_LITERALS]
    plain = [w for w in words if w not in rating_only]
    bare = re.compile(rf"(?i)(?:\b|(?={_UNSPACED_CHAR}))(?P<word>{alternation(plain)})(?:\b|(?<={_UNSPACED_CHAR})|{_fv.MARK_END})")
    bare_triggers = [Trigger(first, bare, word=first[:1].isalnum() and not _fv.unspaced(first))
                     for first in dict.fromkeys(w.split()[0] for w in plain)]
    return rating, rating_triggers, bare, bare_triggers


def synonym_table(pass_outcome: str, fail_outcome: str, extra: dict[str, tuple[str, ...]] | None = None) -> dict[str, str]:
    """One card's synonym table: phrase (:func:`synonym_key`) -> the card's outcome word.

    The default table (:data:`FINAL_SYNONYMS` and the rating-scale steps of
    :data:`RATING_SCALE`, read only as a rating's value) maps to ``pass_outcome`` /
    ``fail_outcome``; ``extra`` (a card's ``verdict_synonyms``: outcome ->
    phrases) adds phrases and overrides default ones.

    >>> t = synonym_table("REPURCHASE", "NO_REPURCHASE", {"NO_REPURCHASE": ("No buyback",), "REPURCHASE": ("buy",)})
    >>> t["no buyback"], t["buy"], t["sell"]
    ('NO_REPURCHASE', 'REPURCHASE', 'NO_REPURCHASE')
    """
    table = {w: (pass_outcome if v else fail_outcome) for w, v in {**FINAL_SYNONYMS, **RATING_SCALE}.items()}
    for outcome, phrases in (extra or {}).items():
        for phrase in phrases:
            table[synonym_key(phrase)] = outcome
    return table


#: A rating or signal field: ``"signal": "bearish"``, ``Rating: BUY``, ``Recommendation - AVOID``; a bare synonym (checked
#: only in the conclusion). Built for the default table; the parser builds the same for each card's table.
RATING_FIELD, RATING_TRIGGERS, SYNONYM_WORD, SYNONYM_TRIGGERS = synonym_patterns([*FINAL_SYNONYMS, *RATING_SCALE], frozenset(RATING_SCALE))

#: Words after which a verdict word is part of a condition ("FAIL if ...", "INVEST only when ...").
CONNECTIVE_TAIL: Final = frozenset({"if", "unless", "provided", "when", "once", "should", "assuming"})
