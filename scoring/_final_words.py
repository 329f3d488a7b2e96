"""The phrases that state a final verdict on the whole decision (paper §7.5): cues and labels that open
it, the action phrases and idioms that say it without an outcome word, and the one who decides.

Re-exported by :mod:`ipb.scoring.verdict_words`. Key 0 of a trigger or a ``fail`` group is the
card's fail outcome, key 1 or ``pass`` its pass outcome; the synonym tables for outcome words are
in :mod:`ipb.scoring._final_synonyms`.

References
----------
Paper §7.5 (structured response parsing: the final verdict).
"""

from __future__ import annotations

import re
from typing import Final

from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring._text import Trigger

__all__ = [
    "FINAL_CUE",
    "FINAL_CUE_TRIGGERS",
    "FINAL_LABEL",
    "PASS_ACTIONS",
    "FAIL_ACTIONS",
    "DECIDER_BEFORE",
    "SELF_STATED",
    "FINAL_IDIOMS",
    "FINAL_IDIOM_TRIGGERS",
    "ACTION_TRIGGERS",
]

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
    r"(?i)^(?:the\s++)?(?:final|overall|investment|ultimate|net)?[\s_-]*(?:verdict|decision|recommendation|conclusion|outcome|"
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

