"""The gate-verdict vocabulary: the words a response uses for one gate's verdict (paper §7.3, §7.5).

Data plus compiled regular expressions, re-exported by :mod:`ipb.scoring.verdict_words`;
:mod:`ipb.scoring.parse` decides what an occurrence means in its context (negation, hedging,
position; the context words are in :mod:`ipb.scoring._clause_words`).

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
    "COMMITTED",
    "HEDGED",
    "WEAK",
    "VerdictWord",
    "VERDICT_WORDS",
    "VERDICT_PATTERN",
    "CONTEXT_VERDICT_PATTERN",
    "VERDICT_TRIGGERS",
    "verdict_word",
    "FIELD_LABELS",
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

#: Right after a label and its separator, where a mark stands as the label's value: "Debt: ", "Moat -- ", "Size \u2014 ".
_LABEL_VALUE = (r"(?:(?<=[\w)*]:[ \t])|(?<=[\w)*]:)|(?<=[\w)*] \u2014 )|(?<=[\w)*] \u2013 )|(?<=[\w)*] - )|(?<=[\w)*] -- )"
                r"|(?<=[\w)*]\u2014)|(?<=[\w)*]\u2013))")

#: A mark's detail after it: a comma, dash or colon, not opening a thought of the writer's ("OK, let me check", "OK, so").
_MARK_DETAIL = (r"(?=[ \t]*(?:\u2014|\u2013|--?[ \t]|:|,(?![ \t]*(?:let|let's|so|well|now|but|then|here|i|we|you)\b)))")

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
        # "not_reached", "not_applicable": a status value of a JSON or YAML answer written as one snake_case token
        _I(r"\b(?:not|never)[\s_]+(?:yet[\s_]+)?(?:reached|evaluated|applicable|tested|examined|needed|applied|assessed|checked|"
           r"considered|performed|meaningful|computed|calculated|estimated)\b|\b(?:does\s+not|do\s+not|doesn't|don't)\s+apply\b"
           # "STEP 3 — not run, because step 2 failed" (s54wild): a step not carried out, the clause closed after "run";
           # "does not run out of cash", "not run by insiders" go on and are no verdict
           r"|\b(?:not|never)\s+(?:yet\s+)?(?:been\s+)?run\b(?=[ \t]*(?:[,.;:!)]|$|\n|\u2014|\u2013|--|(?:because|since|as)\b))"),
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
    # An OK mark questioned, as a label's value or a table cell ("Debt: OK?", "| OK? |"): the writer is not sure it holds
    # (s52parse); "Is the debt OK?" is a question, which the question reader answers.
    VerdictWord(_I(r"(?:" + _LABEL_VALUE + r"|(?<=\| )|(?<=\|))(?:OK|okay)[ \t]*\?(?![\w?])"), INCONCLUSIVE, ("ok", "okay"),
                strength=HEDGED, negatable=False),
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
    # An OK as a mark (s52parse): a table cell of its own ("| Debt | OK |", "| NOT OK |": the cell border closes it as a line end
    # does), or the value of a label with its detail after a comma or dash ("Debt: OK, 0.4x equity", "Moat -- not ok: no
    # pricing power"); an OK inside a sentence ("the CEO said it was OK to wait", "OK, let's look at debt") is neither.
    VerdictWord(_I(r"\b(?:OK|okay)\b(?=[ \t]*\|)|" + _LABEL_VALUE + r"(?:OK|okay)\b" + _MARK_DETAIL), PROCEED, ("ok", "okay"), strength=HEDGED),
    VerdictWord(_I(_LABEL_VALUE + r"not[ \t]+(?:OK|okay)\b(?:" + _MARK_DETAIL + r"|" + _CLOSES + r")"), REJECT, ("not",), strength=HEDGED,
                negatable=False),
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


#: Labels that name a field of the current gate rather than a new gate.
FIELD_LABELS: Final = re.compile(
    r"(?i)^(?:gate\s+)?(?:verdict|outcome|result|status|decision|assessment|rating|reasoning|rationale|evidence|notes?|comments?|"
    r"why|because|analysis|explanation|justification|key\s+(?:reasoning|evidence|facts?|points?|metrics?)|data|facts?|elements?|"
    r"required\s+elements|kill[\s_-]*criteri(?:on|a)|kill[\s_-]*triggered|criteri(?:on|a)|test|check|threshold|computed(?:\s+value)?|"
    r"value|calculation|math|source|citation|question|name|gate|step|id|description|details?|observation|finding|"
    r"conclusion for (?:this|the) gate|gate (?:conclusion|finding)|application|applied|interpretation|score|confidence|"
    r"caveats?|risks?|assumptions?)$"
)
