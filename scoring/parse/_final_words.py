"""The words of final verdicts the final-verdict reader weighs (:mod:`._final` reads them; moved here unchanged).

"pass" as a decline at a sentence's end, the cues before an outcome word in lower case, general objects of a policy,
concessions, revisions, counts of criteria ("all seven"), alternatives ("buy or hold"), buy limits, neutral ratings,
positions, passive decisions ("the deal is approved") and the yes / no answer to the question asked.
"""

from __future__ import annotations

import re

from ipb.engine.numbers import scan_numbers
from ipb.scoring._text import Trigger
from ipb.scoring.parse._closing import ANSWER_LABEL_TRIGGERS

_FINAL_PASS_WORD = re.compile(r"(?i)\bpass\b")
#: A final decision label right before "pass", at a line's or a sentence's start ("Verdict: Pass.", "Decision: pass",
#: "**Call** - Pass", an agent's JSON '"recommendation": "PASS",'): on a buy decision the label's value "Pass" in sentence
#: or lower case is the investor declining, as venture and value investors write it; a checklist's "PASS" in capitals, or
#: "pass" beside a gate, stays unread here, except after "recommendation" (group ``advice``): a recommendation is an action,
#: and "PASS" there is the action of not buying, whatever its case (the passed tests are what "passed" / "Status: PASS" say).
_DECLINE_LABEL_BEFORE = re.compile(
    r"(?i)(?:(?:^|(?<=\n)|(?<=[{,]))[ \t]*+|(?<=[.!?;])[ \t]++)[*_#>-]{0,3}[ \t]*+[\"']?(?:(?:my|our|the)[ \t]+)?"
    r"(?:(?:final|overall|investment|ultimate|net)[ \t_]+)?"
    r"(?:decision|verdict|(?P<advice>recommendation)|call|bottom[ \t-]+line|tl;?[ \t]?dr)"
    r"(?:[ \t]+(?:for|to)[ \t]+(?:the|our|my|your|its|their)(?:[ \t]+(?!(?:in|on|at|during|since|until|before|after|last)\b)[^\W\d_][\w-]*){1,3})?"  # "Decision for the course portfolio:"
    r"[\"']?[*_]{0,2}(?:[ \t]*+(?::|\u2014|\u2013)|[ \t]++-)[ \t]*+[*_]{0,2}[ \t]*+[\"']?\Z")
#: Right after that "pass": the sentence ends, the decline's usual tails follow ("Pass for now", "pass on it"), or the
#: JSON string closes ('"PASS",', '"PASS"}'). The spacing before the end or the tail is one possessive run (s54redos:
#: ``[ \t]*`` and the tail's ``[ \t]+`` split 8,000 spaces after "pass" two ways, 0.55 s in one parse).
_DECLINE_PASS_END = re.compile(r"[\"'][ \t]*[,}\n]|[\"']?[*_]{0,2}(?:[ \t]*+(?:[.!;\n]|\Z)|"
                               r"[ \t]++(?:for[ \t]+now|on[ \t]+(?:it|this|the)|at[ \t]+(?:this|these|the)))")
#: At most this many closing idioms are weighed (the first and the last half).
_IDIOM_PLACES = 200
_PASS_AT_END = [Trigger("pass", re.compile(r"(?i)pass\b(?=[ \t]*(?:[.;!,)]|$|here\b|for\s+now|again\b"
                                         r"|at[ \t]+(?:this|these|the[ \t]+current)[ \t]+(?:price|prices|level|levels|valuation)\b))"))]
#: "I passed, and ...", "We passed on it.": the writer's decline done, its clause ending there (read on a buy decision only).
_PASSED_AT_END = [Trigger("passed", re.compile(r"(?i)passed\b(?=[ \t]*(?:[.;!,]|$|on[ \t]+(?:it|this[ \t]+one|the[ \t]+(?:stock|shares|name|deal))\b))"))]
_PASSED_SUBJECT = re.compile(r"(?i)(?:^|[\s,;:(])(?:I|we)(?:[ \t]+(?:have|had|already|simply|just|finally))*[ \t]+\Z")
_PASS_SUBJECT = re.compile(r"(?i)\b(?:would|will|should|must|to|I'd|we'd|I'll|we'll|I\u2019ll|we\u2019ll|I|we)[ \t]+\Z")
_LOWER_OUTCOME_CUE = frozenset({"would", "will", "should", "must", "i", "we", "i'd", "we'd", "recommend", "recommendation", "verdict",
                                "decision", "therefore", "thus", "so", "hence", "to", "ultimately", "buffett", "berkshire"})


#: Right after an outcome word or idiom: a general object, so the sentence states a policy ("the fund divests any issuer
#: that ..."), not this decision.
_GENERIC_OBJECT = frozenset({"any", "every", "all", "whenever", "companies", "stocks", "issuers", "firms", "what", "whatever", "anything"})

#: Before an outcome word in its sentence: the outcome is conceded or imagined, not the writer's verdict.
#: A lean the writer then leaves: "I was leaning INVEST, but DECLINE", "tempted to say INVEST; still, DECLINE", "my first
#: instinct was INVEST". The words after a contrast ("but", "yet", "however", "still") are outside it.
_LEANT = re.compile(
    r"(?i)\b(?:leaning|leant|leaned|tempted|inclined|minded|(?:first|initial|gut)\s+(?:instinct|impression|reaction|reading|take|call)"
    r"|initially|originally|at\s+first)\b(?:(?!\b(?:but|yet|however|still|instead|now)\b)[^.;\n]){0,30}\Z")
_CONCEDED = re.compile(
    r"(?i)\b(?:though|although|even\s+though|whereas|while(?!\s+\w+ing\b)|optimists?|bulls?|enthusiasts?)\b[^.;\n]{0,60}\Z"
    r"|\b(?:would|could|might)\s+(?:make\s+(?:sense|(?:this|it)\b)|turn\s+(?:this|it)\s+into|become|be\s+an?)\b[^.;\n]{0,30}\Z"
    r"|\b(?:this|it)\s+becomes\s+an?\b[^.;\n]{0,10}\Z"
    r"|\b(?:turn(?:s|ed)?\s+(?:this|it)\s+into|at\s+a\s+lower\s+price|below\s+\$?\d[^.;\n]{0,20})[^.;\n]{0,30}\Z"
)


#: Before an outcome word in its sentence: the writer revises an earlier verdict ("Revised verdict: DECLINE", "Updated
#: recommendation - DECLINE", "On reflection, my verdict is DECLINE", "Looking again, I would DECLINE"). The statement then
#: ranks with a final cue's (level 4), so it beats an earlier "Final verdict: INVEST" by coming later (issue 13, which
#: statement wins). A revised verdict noun counts only as a label or the subject of "is" right before the word ("the revised
#: guidance", "a revised verdict of DECLINE would follow if ..." are no revision). "Correcting" / "to correct" / "Correction:"
#: revise as "revised" does (a new user's "Correcting gate 2: REJECT").
_REVISION_CUE = re.compile(
    r"(?i)\b(?:revised|revising|updated|corrected|amended|reconsidered|changed)[ \t_-]+(?:(?:final|overall|investment)[ \t_-]+)?"
    r"(?:verdict|decision|recommendation|call|answer|conclusion|outcome|rating)(?:[ \t]*\((?:revised|updated|corrected)\))?"
    r"[*_]{0,2}[ \t]*(?:[:=\u2014\u2013]|[ \t]-|[ \t]+(?:is|now)\b)"
    r"|\b(?:final|overall)[ \t_-]+(?:verdict|decision|recommendation|answer)[ \t]*\((?:revised|updated|corrected|amended)\)"
    r"|\b(?:on|upon)[ \t]+(?:(?:further|second)[ \t]+)?(?:reflection|reconsideration|second[ \t]+thoughts?)\b"
    r"|\b(?:having[ \t]+reconsidered|looking[ \t]+(?:at[ \t]+it[ \t]+)?again|on[ \t]+a[ \t]+second[ \t]+look)\b"
    # "Correcting my verdict: DECLINE", "To correct the final decision - DECLINE", "Correction: DECLINE"
    r"|\b(?:correcting|to[ \t]+correct)[ \t]+(?:my|our|the|this)[ \t]+(?:(?:final|overall|investment)[ \t]+)?"
    r"(?:verdict|decision|recommendation|call|answer|conclusion|outcome|rating)[*_]{0,2}[ \t]*(?:[:=\u2014\u2013]|[ \t]-|[ \t]+(?:is|now|to)\b)"
    r"|(?:^|[\n>#*_ \t])correction[*_]{0,2}[ \t]*[:\u2014\u2013][ \t*_]*\Z")


_NUMBER_WORD = r"\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|all"
_COUNT = re.compile(
    rf"(?i)\b(?P<passed>{_NUMBER_WORD})\s+(?:of|out\s+of)\s+(?:the\s+)?(?P<total>{_NUMBER_WORD})\s+"
    r"(?:(?:defensive\s+|graham\s+)?(?:tests?|criteria|criterion|gates?|checks?|screens?|hurdles?|conditions?|rules?|indicators?)\s+)?"
    r"(?:are\s+|were\s+|is\s+)?(?:passed|pass|met|satisfied|cleared|clear)\b"
    rf"(?:[^.;\n]{{0,40}}?\b(?:where|but|while|and|with)\s+(?P<all>all\s+)?(?P<required>{_NUMBER_WORD})?\s*(?:of\s+them\s+)?(?:are\s+|is\s+)?(?:required|needed|necessary))?"
)
_COUNT_TRIGGERS = [Trigger(w, _COUNT) for w in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "one", "two", "three", "four", "five",
                                                  "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "all")]
#: "Brightwell passes every tile", "it clears all seven tests": every check passed, the count a screener's closing line
#: gives in words ("fails every test" is no pass); a rule ("a stock must pass every test") is left out where it is read.
_EVERY_PASSED = re.compile(
    r"(?i)\b(?:passes|passed|clears|cleared|meets|met|ticks|ticked)[ \t]+(?:every|all|each)[ \t]+(?:(?:of[ \t]+)?(?:the|its|our|"
    rf"{_NUMBER_WORD})[ \t]+)?(?:tests?|tiles?|criteria|criterion|checks?|screens?|filters?|gates?|hurdles?|boxe?s?|conditions?|rules?|steps?|stages?|"
    r"requirements?)\b")
_EVERY_TRIGGERS = [Trigger(w, _EVERY_PASSED) for w in ("passes", "passed", "clears", "cleared", "meets", "met", "ticks", "ticked")]
_WORD_COUNTS = {w: k for k, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"))}


def _count(word: str) -> int | None:
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    return _WORD_COUNTS.get(w)


#: An outcome word joined to the next (or previous) one by "or", "/", "nor" or "and" (the last only after
#: "between"): an alternative stated, not a verdict chosen.
_ALT_AFTER = re.compile(r"\s*(?P<join>[/|]|\bor\b|\bnor\b|\band\b)\s*(?P<word>[A-Za-z_][A-Za-z_ ]{1,30}?)\b", re.I)
_ALT_BEFORE = re.compile(r"\b(?P<word>[A-Za-z_][A-Za-z_]{1,30})\s*(?P<join>[/|]|\bor\b|\bnor\b|\band\b)\s*\Z", re.I)
#: An outcome word beside another in a comma list ("INVEST, DECLINE, INCONCLUSIVE"): the card's outcomes listed, no choice.
_LIST_AFTER = re.compile(r"\s*,\s*(?P<word>[A-Za-z_]{2,30})\b")
_LIST_BEFORE = re.compile(r"\b(?P<word>[A-Za-z_]{2,30})\s*,\s*\Z")
_ALT_BETWEEN = re.compile(r"\b(?:between|either|neither|whether)\s+\S+\s*\Z|\b(?:between|either|neither|whether)\b[^.;:\n]{0,40}\Z",
                          re.I)


#: A verb of refusing right before an act ("the fund declined to back the deal", "we refuse to buy"): the act refused.
_REFUSED_TO = re.compile(r"(?i)\b(?:declin|refus)(?:e|es|ed|ing)[ \t]+to[ \t]+\Z")


#: After a buy word: a price limit under which it would buy ("buy < $36", "buy below 3,600", "buy under $40 only").
#: The limit names a figure: "buy under the strategy" is no price limit.
_BUY_LIMIT = re.compile(r"[ \t]*(?:<|\u2264|=<|(?:only\s+)?(?:below|under|beneath|at\s+or\s+below|on\s+a\s+(?:dip|pullback)\s+to)\s+"
                        r"(?:about\s+|around\s+|roughly\s+|~)?(?:[$\u00a3\u20ac\u00a5]|[A-Z]{1,3}\$?\s?)?\d)", re.I)


#: Today's price as the answer states it: "trading at $16", "priced at 41.20", "the current price of $16", "share price:
#: $16", "Price: $16" opening its line or a bracket, "the $16 price" (group ``num`` of the last form), the figure right after the cue.
_PRICE_NOW = re.compile(
    r"(?i)\b(?:(?:trades|trading|traded|priced|quoted|sits|sitting|stands|standing)[ \t]+(?:today[ \t]+|now[ \t]+|currently[ \t]+)?at"
    r"|(?:current|today's|today\u2019s|share|stock|last)[ \t]+price[ \t]*(?:of|is|at|[:=])"
    # a field of its own, opening its line or a bracket: "Price: $16" in a data block, "(Price: $16 at the time of
    # writing)"; "Target price: $20" is no price of today (s38break)
    r"|(?:^|(?<=[(\n])|(?<=[(\n][-*>][ \t])|(?<=\*\*))price[ \t]*\**[ \t]*[:=]|the[ \t]+(?P<num>[$\u00a3\u20ac\u00a5]"
    r"[ \t]?\d[\d.,]*)[ \t]+(?:share[ \t]+|stock[ \t]+|current[ \t]+)?price\b)")
_MAX_PRICE_CUES = 20


def limit_met(text: str, limit: re.Match[str]) -> bool:
    """Whether the buy limit ``limit`` (a :data:`_BUY_LIMIT` match: "Buy below $17") is already met: the answer states
    today's price, one figure however often ("trading at $16 per share", "the $16 price"), and it is under the limit,
    so the buy is a buy now. Unknown or disputed prices leave the limit a condition (False), as before.

    >>> t = "Marrow trades at $16 a share. Conclusion: buy below $17."
    >>> limit_met(t, _BUY_LIMIT.match(t, t.index(" below"))), limit_met(t.replace("$16", "$19"), _BUY_LIMIT.match(t, t.index(" below")))
    (True, False)
    >>> t = "Conclusion: buy below $17."
    >>> limit_met(t, _BUY_LIMIT.match(t, t.index(" below")))
    False
    """
    bound = next((n for n in scan_numbers(text, limit.start(), min(len(text), limit.end() + 24)) if n.span[1] >= limit.end()), None)
    if bound is None or bound.kind not in ("money", "number"):
        return False
    prices = set()
    for i, m in enumerate(_PRICE_NOW.finditer(text)):
        if i >= _MAX_PRICE_CUES:
            break
        start = m.start("num") if m.group("num") else m.end()
        figure = next(iter(scan_numbers(text, start, min(len(text), start + 16))), None)
        if figure is not None and figure.kind in ("money", "number") and figure.span[0] - start <= 3:
            prices.add(figure.value)
    return len(prices) == 1 and next(iter(prices)) < bound.value


#: A rating or signal field that commits to neither outcome: "Signal: neutral", "Overall signal \u2014 neutral", "**Stance:**
#: Neutral." (the word ends its clause: "Signal: neutral on rates, bearish on credit" is not read; the label opens its line,
#: after at most a qualifier: "The market's signal: neutral" is someone else's); INCONCLUSIVE. Every repeat before the
#: word is possessive (s54redos: "Signal" and 8,000 spaces were split two ways, 0.6 s in one parse).
_NEUTRAL_LABELS = ("signal", "stance", "rating", "recommendation", "call")
_NEUTRAL_LABEL_OPENS = re.compile(r"[ \t>*_#-]*(?:(?:my|our|the|overall|final|net|investment)[ \t]+){0,2}\Z", re.IGNORECASE)
_NEUTRAL_RATING = re.compile(
    r"(?im)(?:" + "|".join(_NEUTRAL_LABELS) + r")[ \t]*+\**+[ \t]*+[:=\u2014\u2013-][ \t]*+[*_]{0,2}+[ \t]*+(?P<word>neutral)[*_]{0,2}"
    r"(?=[ \t]*(?:[.;,!(\u2014\u2013]|$))")
_NEUTRAL_TRIGGERS = [Trigger(w, _NEUTRAL_RATING) for w in _NEUTRAL_LABELS]
#: Report words that also describe the position held: a rating only when nothing follows them ("Signal: long.").
_POSITION_WORDS = frozenset({"long", "short"})
_FOLLOWED_BY_WORD = re.compile(r"[ \t]+(?:the[ \t]+|an?[ \t]+)?[A-Za-z\u00c0-\u024f]")
_DECISION_NOUNS = ("deal", "investment", "stake", "proposal", "position", "purchase", "acquisition", "trade", "idea", "transaction", "bid")
#: An outcome verb in the passive after the decision's subject: "the deal is declined", "the stake was approved".
_PASSIVE_TRIGGERS = [Trigger(w, re.compile(rf"(?i){w}\s+(?:is|was|gets|get|should\s+be|must\s+be|will\s+be|has\s+been|would\s+be)\s+"
                                           r"(?P<word>[a-z]+?)e?d\b")) for w in _DECISION_NOUNS]
#: "the answer is no" / "our answer would be: yes" (after the final cue "the answer is").
_ANSWER_YES_NO = re.compile(r"(?i)\b(?:the|my|our)\s+(?:overall\s+|short\s+)?answer\s+(?:is|would\s+be)\s*+[:\u2014-]?\s*+\**+(?P<answer>no|yes)\b(?!\s+\w+\s+(?:is|are|was))")
_ANSWER_YES_NO_TRIGGERS = [Trigger("answer", re.compile(r"(?i)answer\s+(?:is|would\s+be)\s*+[:\u2014-]?\s*+\**+(?P<answer>no|yes)\b(?!\s+\w+\s+(?:is|are|was))"))]
_ANSWER_YES_NO_TRIGGERS += ANSWER_LABEL_TRIGGERS  # "Final answer: no.", "Decision: no." (:mod:`._closing`)
#: Between two outcomes of one sentence: the second corrects the first ("INVEST - no, rather DECLINE").
_CORRECTION_BETWEEN = re.compile(r"(?i)\b(?:not|rather|instead|correction|actually|sorry|make\s+that)\b")  # ("INVEST... Sorry,
# DECLINE", "INVEST... make that DECLINE": s48parse)
#: All that stands between two outcomes of one sentence is a "no" the writer breaks off with ("INVEST... no, DECLINE",
#: "INVEST \u2014 no: DECLINE", "INVEST, hmm, no, DECLINE"): the second repairs the first (s45break 11). Lower-cased text.
_NO_BETWEEN = re.compile(r"[*_]*[\s.,;:\u2026\u2014\u2013-]*(?:(?:wait|hmm|um|oh|well)[\s.,\u2026\u2014\u2013-]+)?no[\s.,;:!\u2026\u2014\u2013-]+[*_]*")
#: Before a lower-case outcome word: the decision's subject in the passive ("the deal is declined").
#: A draft, plan or proposal returned for the card's outcome: "the draft goes back for redesign", "goes back to be
#: redesigned", "was sent back for revision": the lower-case outcome word after it is the decision (s53wild).
_SENT_BACK = re.compile(r"(?i)\b(?:go|goes|went|going|gone|is|are|was|were|be|been|being|get|gets|got)[ \t]+(?:sent[ \t]+)?back"
                        r"(?:[ \t]+to[ \t]+(?:the|its)[ \t]+[a-z-]+(?:[ \t]+[a-z-]+)?)?[ \t]+(?:for(?:[ \t]+(?:an?|the))?|to[ \t]+be)[ \t]+\Z"
                        r"|\bsent[ \t]+back[ \t]+(?:for(?:[ \t]+(?:an?|the))?|to[ \t]+be)[ \t]+\Z")
_PASSIVE_SUBJECT = re.compile(r"(?i)\b(?:the|this|that)\s+(?:deal|investment|stake|proposal|position|purchase|acquisition|trade|idea|"
                              r"transaction|bid)\s+(?:is|was|gets|get|should\s+be|must\s+be|will\s+be|has\s+been|would\s+be)\s+\Z")


#: Right after an outcome word: a question mark and the writer's own "no" to it ("INVEST? Absolutely not. DECLINE.",
#: "BUY? No -- AVOID"). An outcome put as a question and answered no is the suggestion turned down, not an outcome
#: named beside the one chosen (s54break item 6: the answer above was filed a refusal for naming two outcomes).
_QUESTIONED_NO = re.compile(
    r"[*_\"']{0,2}[ \t]*\?+[ \t]*(?:(?:absolutely|certainly|definitely|of[ \t]+course|surely)[ \t]+not|no(?:pe)?"
    r"|not[ \t]+at[ \t]+all|hardly|never)\b", re.I)


def outcomes_named(outcome_re: re.Pattern[str] | None, outcome_of: dict[str, str], text: str) -> set[str]:
    """The distinct outcomes of a card that ``text`` names (its outcome words and their spoken forms, any case).

    One scan of ``text``; asked only of an answer with no gate read, where no trace tells a chosen outcome from one
    listed ("INVEST DECLINE INCONCLUSIVE", a bullet per outcome, "[ ] INVEST [ ] DECLINE"). An outcome asked and
    answered no (:data:`_QUESTIONED_NO`: "INVEST? Absolutely not.") is not counted.

    >>> words = re.compile(r"(?i)\\b(?:invest|decline)\\b")
    >>> sorted(outcomes_named(words, {"INVEST": "INVEST", "DECLINE": "DECLINE"}, "INVEST? Absolutely not. DECLINE."))
    ['DECLINE']
    >>> sorted(outcomes_named(words, {"INVEST": "INVEST", "DECLINE": "DECLINE"}, "INVEST? DECLINE?"))
    ['DECLINE', 'INVEST']
    """
    if outcome_re is None:
        return set()
    found: set[str] = set()
    for m in outcome_re.finditer(text):
        key = re.sub(r"[ \t_:-]+", "_", m.group(0).strip().upper())
        outcome = outcome_of.get(key) or (outcome_of.get(key[:-1]) if key.endswith("S") else None)
        if outcome is not None and _QUESTIONED_NO.match(text, m.end()) is None:
            found.add(outcome)
            if len(found) > 1:
                break
    return found

