"""The clause of a verdict word: where it starts, what negates it, which cues revise or set it aside (moved out of
:mod:`._verdicts` unchanged; issue 13, paper §7.5).

A verdict word is judged in its clause (:class:`._verdicts._VerdictsMixin`): these are the patterns and word lists that
judgement reads (conditions, counterfactuals, concessions, pinned gates, revisions, pseudo-negations, attributive
uses) and the clause helpers :func:`_clause_start`, :func:`_own_clause_start`, :func:`_negation_words` and
:func:`_negated`, which :mod:`._final` uses too.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import Final, Mapping, Sequence

from ipb.scoring._foreign_verdicts import NOT_ONLY, TRAILING_NEGATOR, bounded
from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring import verdict_words as vw
from ipb.scoring._clause_words import BARE_AMBIGUOUS_NEGATORS
from ipb.scoring.parse._common import _WORDS_APOS, _Hit
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._voice import OTHER_VOICE, VOICE_WORDS

_STATEMENT_END = re.compile(r"[.!;:]")
#: "if" words: English, and those of other languages (``languages.yaml`` ``conditionals``) that are no word of another
#: language too: not Italian/Portuguese "se" (Spanish "se cumple", it is met), "si" (Spanish "sí", yes), German "falls"
#: (English "falls"), "caso" (break42: "Wenn der Gewinn um ein Drittel steigt, ist der Test bestanden." read 0.95).
_CONDITIONALS = frozenset(vw.CONDITIONALS) | (_fv.CONDITIONALS - {"se", "si", "falls", "caso", "bila"})
#: Function words of Italian and of Spanish: an answer with more of the first reads "se" as "if" (Italian; Spanish "se
#: cumple" is "it is met", so "se" is no "if" word in general: break42 #18).
_ITALIAN = frozenset("il della delle degli dello nel nella che non è gli sono anche più questo questa".split())
_SPANISH = frozenset("el los las que es está y pero muy también más este esta".split())


@lru_cache(maxsize=8)
def conditionals_of(low: str) -> frozenset[str]:
    """The "if" words of an answer (``low``, lower case): :data:`_CONDITIONALS`, and "se" in an Italian answer (two
    distinct Italian function words, more than Spanish ones): "Crescita degli utili: se supera la prova lo vedremo"
    (whether it passes, we'll see) states no verdict, while Spanish "se cumple" still does.

    >>> "se" in conditionals_of("crescita degli utili: se supera la prova lo vedremo nel 2026, non prima."), "se" in conditionals_of("el margen se cumple y es amplio.")
    (True, False)
    """
    words = set(_WORDS_APOS.findall(low[:20000]))
    italian, spanish = len(words & _ITALIAN), len(words & _SPANISH)
    return _CONDITIONALS | {"se"} if italian >= 2 and italian > spanish else _CONDITIONALS


def in_supposition(token: str, clause_words: list[str], before: str, low: str) -> bool:
    """Whether the verdict word ``token`` (lower case), after its clause's words ``clause_words`` and the text
    ``before`` it, lies inside a supposition (:func:`supposed`) of the answer ``low``'s "if" words
    (:func:`conditionals_of`); in an Italian answer also a word read as Spanish "se supera" (it is passed), which there
    is "if / whether it passes" (break42 #18).

    >>> in_supposition("se supera", [], "crescita degli utili: ", "crescita degli utili: se supera la prova, non lo so.")
    True
    """
    conditionals = conditionals_of(low)
    if token.startswith("se ") and "se" in conditionals:
        return True
    return not conditionals.isdisjoint(clause_words) and supposed(clause_words, before, conditionals)


#: Between a verdict word and the gate it is pinned to: "REJECT at gate 2", "a PASS on the moat test", "FAIL for step 3".
_BRACKETED = re.compile(r"[ \t]*\([ \t*_]*")
_PINNED_TO = re.compile(r"[ \t]+(?:at|for|on|in)[ \t]+(?:the[ \t]+)?")
#: A conditional mood just before a verdict word ("it would pass", "could fail", "might well clear"): the result of a
#: case supposed, not one found (s45left). Adverbs may stand between ("would still pass", "could easily fail").
_HYPOTHETICAL_MOODS = frozenset({"would", "wouldn't", "could", "couldn't", "might", "i'd", "we'd", "it'd"})
_MOOD_ADVERBS = frozenset({"still", "easily", "probably", "likely", "certainly", "surely", "clearly", "also", "then",
                           "well", "not", "never", "comfortably", "only", "just", "narrowly", "all", "definitely"})
#: The condition of a conditional mood after its verdict word, in the same clause: "were the multiple to expand",
#: "should rates rise", "had it been", "if ...", "unless ...", "provided ...", "once ...", "in case ...".
_CONDITION_AFTER = re.compile(
    r"\b(?:were[ \t]+(?:\w+[ \t]+){1,4}?to[ \t]+\w+|should[ \t]+(?!be\b|not\b|have\b)\w+[ \t]+(?:\w+[ \t]+){0,3}?\w+"
    r"|had[ \t]+(?:it|they|the|we|management|rates|prices?)\b|if|unless|provided|providing|once|in[ \t]+case|assuming)\b")


#: Grounds right after the verdict word: a colon or a dash, or "because" / "since" / "given" ("it would pass: EPS grew
#: 40%"): the writer states a finding, not a case supposed.
_GROUNDS_NEXT = re.compile(r"[ \t]*(?::|\u2014|\u2013|[ \t]-[ \t]|,?[ \t]*(?:because|since|given)\b)")


def hypothetical(clause_words: list[str], after: str) -> str | None:
    """How a verdict word in a conditional mood reads (s45left): ``"supposed"`` when its condition follows in the clause
    ("it would fail were the multiple to expand", "could fail should rates rise": no verdict), ``"mood"`` when no
    condition is given ("it would pass at a lower price": the writer's guess, read weak), else None. ``clause_words``:
    the clause's words before the verdict word (lower case); ``after``: the clause's text after it (lower case).

    >>> hypothetical(["it", "would"], " were the multiple to expand to 30x."), hypothetical(["it", "would", "still"], " at 14x.")
    ('supposed', 'mood')
    >>> hypothetical(["it"], " should rates rise."), hypothetical(["the", "balance", "sheet", "could"], " should rates rise")
    (None, 'supposed')
    """
    tail = [w for w in clause_words[-4:]]
    while tail and tail[-1] in _MOOD_ADVERBS:
        tail.pop()
    if not tail or tail[-1] not in _HYPOTHETICAL_MOODS:
        return None
    if _GROUNDS_NEXT.match(after):
        return None  # "it would pass: EPS grew 40% in ten years" (break42): the grounds follow, a finding in a polite mood
    stop = re.search(r"[.;:!?\n\u2014]|,[ \t]+(?:but|so|and|yet)\b", after)
    clause = after[: stop.start()] if stop else after
    return "supposed" if _CONDITION_AFTER.search(clause) else "mood"



def mood_level(verdict: str | None, strength: int, clause_words: list[str], after: str) -> int | None:
    """The strength of a verdict word once its mood is read (:func:`hypothetical`, s45left): None for a case supposed
    ("it would fail were the multiple to expand": no verdict), at most :data:`vw.WEAK` for a guess in a conditional
    mood ("it would pass at a lower price"), else ``strength``. Only PROCEED and REJECT words have a mood.

    >>> mood_level(vw.PROCEED, 3, ["it", "would"], " at a lower price.") == vw.WEAK
    True
    >>> mood_level(vw.REJECT, 3, ["it", "could"], " should rates rise."), mood_level(vw.PROCEED, 3, ["it"], " now.")
    (None, 3)
    """
    mood = hypothetical(clause_words, after) if verdict in (vw.PROCEED, vw.REJECT) else None
    if mood == "supposed":
        return None
    return min(strength, vw.WEAK) if mood == "mood" else strength

#: A clause opening with "had" ("Had the price been lower, it would pass") states no verdict.
_COUNTERFACTUAL = re.compile(r"[\s*_]*had\s+(?!to\b|been\s+(?:no|none)\b)")
#: "passes, if only just": a concession after the verdict, not a condition on it.
#: The verdict word inside an "even if" supposition (no comma or stop since "even if"): "Even if the growth target is
#: met, the return falls short" supposes the target met; "even if we are generous, it fails" states the failure.
_INSIDE_EVEN_IF = re.compile(r"(?i)\beven[ \t]+if\b[^,;:.!?\n]*\Z")
_CONCESSIVE_TAILS = (["if", "only", "just"], ["if", "only", "barely"], ["if", "barely"], ["if", "narrowly"], ["if", "marginally"])
_AT_A_PRICE = re.compile(r"at\s+(?:this|these|that|today'?s|the\s+current|current|[$\u20ac\u00a3]|\d)")
_PASS_SUBJECTS = frozenset({"would", "will", "should", "must", "to", "i'd", "we'd", "i", "we"})
_CLAUSE_CUT = re.compile(r"[;:|(\u2014\u2013]|,\s+(?:but|whereas|while|although|though|however)\b")
_TIGHT_BREAK = re.compile(r"[,;()|]|\b(?:because|since|so|which|while|whereas|but|although|though|however|given|as|that|than|when|unlike)\b", re.I)
_GATE_SUBJECT = re.compile(
    r"\b(?:this|the|that)[ \t]+(?:gate|step|test|criterion|check|screen|hurdle|filter)"
    r"(?:[ \t]+(?:is|was|therefore|thus|so|clearly|itself|verdict|outcome|result|is:|=))*[ \t]*[:\u2014-]?[ \t]*(?:an?[ \t]+)?\Z"
)
_NEITHER = re.compile(
    r"(?i)\b(?:neither|not|no)[ \t]+(?:an?[ \t]+)?(?:pass|proceed|reject|fail|kill)\w{0,4}\b[^.;:\n]{0,40}?"
    r"\b(?:nor|not|no)[ \t]+(?:an?[ \t]+)?(?:pass|proceed|reject|fail|kill)\w{0,4}\b"
)


#: The status icons of the vocabulary (✅ ✔ ✓ ☑ 🟢 👍 / ❌ ✗ ✘ ✖ ⛔ 🛑 🔴): marks, read together with their line's words.
_ICONS = frozenset(w for w in vw.VERDICT_WORDS if w.triggers and not any(t[:1].isalnum() for t in w.triggers)
                   and w.verdict in (vw.PROCEED, vw.REJECT))


def _place_in_unit(start: int, mentions: Sequence, gate: int) -> int:
    """Where ``gate`` first stands in a unit that starts at ``start``: gates named in one sentence take their
    places in it ("... circle of competence (Gate 1), ... (Gate 3)"), not all the sentence's start."""
    return min((m.start for m in mentions if gate in m.gates), default=start)


#: A verb of stating denied before the verdict word, nothing but commas between: "I cannot say it fails, nor that it
#: passes", "I would not call it a clear PROCEED". The writer refuses a label; that is at most a weak lean the other way.
#: A conclusion drawn after the refused word is the writer's own verdict, not the refused one: a conjunction ("so",
#: "and", "but"...) or a comma that opens a new subject ends the reach ("I would not call it cheap, so it fails";
#: "don't say no to this, it passes").
UNSAID = re.compile(r"(?:\bnot|\bnever|n't|\bcannot|\bcan\s+hardly)[ \t]+(?:[a-z']+[ \t]+){0,2}?(?:say|call|label|describe|claim|classify)\b"
                    r"(?:(?!\b(?:but|yet|however|though|although|instead|so|therefore|thus|hence|and|which|consequently)\b"
                    r"|,[ \t]*(?:it|this|they|he|she|we|i)\b)[^.;:!?\n(|])*\Z")


#: A denial tacked on after a pause: "great, another PASS... not." (sarcasm; the word is negated); or a negator of another
#: language that follows its verb in the clause ("erfüllt das Kriterium nicht", "oppfyller selskapet ikke kravet": s38lang).
TRAILING_NOT = re.compile(r"[ \t]*(?:\.{2,}|\u2026)[ \t]*not\b(?![ \t]+[a-z])|" + TRAILING_NEGATOR.pattern)
#: An ironic tag right after the word, closing its clause: "a pass, as if.", "Pass \u2014 yeah, right.", "passes /s"
#: (break43 #4: read PROCEED 0.95 and 0.85). The writer mocks the word, and what they mean instead is not said in it:
#: the word is read weak (under the review bar), not turned over.
#: The tag may also be a sentence of its own after the word's ("Fair Price: pass. Yeah, right.", break43 #4 left): the
#: word's sentence runs at most 80 characters on, and the tag sentence is nothing but the tag.
IRONIC_TAIL = re.compile(r"[ \t]*(?:[,;:!\u2014\u2013-]+[ \t]*)?(?:(?:yeah|yea|ya)[ \t]*,?[ \t]*right\b|as[ \t]+if[ \t]*(?=[.!;)\n]|$)"
                         r"|/s\b|\(not\)|\[sarcasm\])"
                         r"|[^.!?\n]{0,80}[.!?]+[ \t]+(?:(?:yeah|yea|ya)[ \t]*,?[ \t]*right|as[ \t]+if|/s)[ \t]*[.!]*[ \t]*(?=\n|$|[.!])")


def _clause_start(before: str) -> int:
    """Index in ``before`` of the last clause boundary (";", ":", "|", "(", dashes, arrows "->" "=>" "\u2192"), or -1.

    Negation, hedges and conditions reach back only to it: "No REJECT triggered -> INVEST" is INVEST.
    """
    arrow = max(before.rfind("->"), before.rfind("=>"))
    return max(before.rfind(";"), before.rfind(":"), before.rfind("|"), before.rfind("("), before.rfind("\u2014"), before.rfind("\u2013"),
               before.rfind("\u2192"), arrow + 1 if arrow >= 0 else -1)


#: A statement the writer sets aside before giving their own: "my first instinct was PROCEED", "an optimist might call it a pass".
_SUPERSEDED = re.compile(
    r"(?i)\b(?:(?:my|our|the)\s+)?(?:first|initial|gut|earlier)\s+(?:instinct|impression|reading|read|take|thought|call|answer|verdict)\b"
    r"|\b(?:initially|originally|at\s+first(?:\s+glance)?|superficially|on\s+the\s+surface)\b"
    r"|\b(?:an?\s+)?(?:optimist|bull|enthusiast|promoter)s?\s+(?:might|would|could|may)\b"
    r"|\b(?:some|others|many)\s+(?:might|would|could|may)\s+(?:label|call|mark|rate|say)\b"
    r"|\b(?:i|we)\s+(?:first|previously|earlier|had)\s+(?:marked|called|labell?ed|rated|read|scored|put|thought|said|wrote|gave)\b"
)
#: Where the writer's own clause starts after a contrast: "a strict reader would REJECT, but it is PROCEED",
#: "I initially marked it REJECT but it is PROCEED" (what comes before "but" is set aside, not the word after it).
_CONTRAST = re.compile(r"(?:^|[\s,;])(?:but|yet|however|whereas|instead|though|although)\b")


_CONTRAST_WORDS = frozenset({"but", "yet", "however", "whereas", "instead", "though", "although"})
#: Words one of which every match of :data:`_SUPERSEDED` or :data:`OTHER_VOICE` holds.
_SET_ASIDE_WORDS = VOICE_WORDS | {
    "first", "initial", "gut", "earlier", "initially", "originally", "at", "superficially", "on", "optimist", "optimists", "bull",
    "bulls", "enthusiast", "enthusiasts", "promoter", "promoters", "some", "others", "many", "i", "we", "previously", "had",
}


def _own_clause_start(before: str, cut: int, clause_words: Sequence[str] = ("but",)) -> int:
    """Index in ``before`` where the verdict word's own clause starts: after the clause boundary ``cut`` and after
    the last contrast word ("but", "yet", "however")."""
    start = max(cut + 1, 0)
    if _CONTRAST_WORDS.isdisjoint(clause_words):
        return start
    for m in _CONTRAST.finditer(before, start):
        start = m.end()
    return start


#: A self-repair: the writer stops and takes back what it just wrote ("wait, no", "no, wait", "scratch that", "strike that",
#: "actually, no", "no, actually"). It says nothing unless a verdict follows it in its clause (:data:`_COMMITTED_CUE`).
_SELF_REPAIR = (r"\b(?:wait|hold\s+on)\b[\s,.:\u2014\u2013\u2026-]{0,4}no\b(?![ \t]+(?:one|doubt)\b)|\bno\b[\s,.\u2014\u2013\u2026-]{0,4}wait\b"
                r"|\b(?:scratch|strike|scrap)\s+that\b|\bactually\b[\s,.:\u2014\u2013\u2026-]{0,4}no\b(?![ \t]+(?:worse|better|more|less|longer|different|one|doubt)\b)"
                r"|\bno\b[\s,\u2014\u2013-]{0,3}actually\b"
                # the writer disowns the verdict just written in other words: "that call was wrong", "I was wrong",
                # "(just kidding)", "I mean", "I meant" (s45break 7, 8, 11)
                r"|\b(?:that|this|the|my|our)\s+(?:call|verdict|reading|rating|conclusion|answer)\s+(?:was|is)\s+(?:wrong|mistaken|a\s+mistake|an\s+error)\b"
                r"|\b(?:i|we)\s+(?:was|were)\s+wrong\b(?!\s+(?:about|on|in|to)\b)|\b(?:just\s+|only\s+)?kidding\b|\bi\s+meant?\b(?!\s+(?:it|that|this)\b)")
#: The self-repair alone, for the final verdict's check of two outcomes in one sentence (:mod:`._final_checks`).
SELF_REPAIR: Final = re.compile(_SELF_REPAIR)
#: The writer's own, considered statement: it outranks a plain mention in the same section.
_COMMITTED_CUE = re.compile(
    r"(?:\bmy|\bour)\s+(?:(?:final|revised|considered|actual)\s+)?(?:verdict|call|reading|answer|conclusion)\b[^.;\n]{0,40}\Z"
    r"|\b(?:looking\s+again|on\s+reflection|on\s+second\s+thought|on\s+a\s+second\s+look|second\s+look|revised|updated|amended|revisiting|"
    r"correction|corrected|correcting|to\s+correct|having\s+re-?checked|on\s+closer\s+inspection)\b[^.;\n]{0,80}\Z"
    # a self-repair right after a verdict the writer drops ("PROCEED. Wait, no: at 45x it is REJECT", "PROCEED \u2014 scratch
    # that, REJECT", "PROCEED. Actually, no \u2014 REJECT"): the word after the repair is the writer's (break45)
    r"|" + _SELF_REPAIR + r"[^.;\n]{0,80}\Z"
)
#: Words every revision cue holds (a cheap first look per sentence).
_CUE_WORD = re.compile(r"\b(?:my|our|looking|reflection|second|revised|updated|amended|revisiting|correction|corrected|correcting|correct|re-?checked|closer"
                       r"|wait|scratch|strike|scrap|actually|wrong|mistaken|mistake|error|kidding|mean|meant)\b")
#: A paragraph that opens as a revision of what came before.
_REVISION_OPENING = re.compile(
    r"[ \t>*_#-]*(?:correction|corrected|correcting|(?:to|let\s+me)\s+correct\b|update[ds]?|revised|revision|addendum|erratum|wait\b|actually\b|on\s+reflection|looking\s+again|"
    r"on\s+(?:a\s+)?second\s+(?:look|thought)|second\s+look|having\s+re-?(?:read|checked)|i\s+(?:forgot|missed|overlooked))"
)
#: After a verdict word: the verdict it replaces ("REJECT, not PROCEED", "fails rather than passes"), a correction.
_CORRECTIVE_TAIL = re.compile(r"[ \t]*(?:[,;\u2014\u2013-][ \t]*)?(?:not|rather[ \t]+than|instead[ \t]+of)[ \t]+(?:an?[ \t]+)?"
                              r"(?:proceed|reject|pass|fail|inconclusive)(?:s|ed|es)?\b")
#: Words after a negator that make it no negation of the verdict: "not merely passes", "without doubt it clears".
#: (and the words of other languages for "only": ``not_only`` in grammar/languages.yaml)
_PSEUDO_NEGATION = frozenset({"merely", "just", "only", "simply", "doubt", "question", "hesitate", "hesitation"}) | NOT_ONLY
#: Verbs of hesitating in other languages: negated, they state the act ("no dudaría en comprar", "nicht zögern zu kaufen";
#: "n'hésiterais pas", the negator after the verb, as French writes it).
_HESITATING = frozenset({"dudaría", "dudaríamos", "dudo", "dudamos", "hésiterais", "hésiterions", "hésiterait", "hésite", "hésitons",
                         "zögern", "zögere", "zögerte", "zögerten", "esiterei", "esiteremmo", "esito", "hesitaria", "hesitaríamos"})
#: Pronoun negators that negate a verdict a few words on: "nothing here would fail", "none of it fails".
_NEGATING_PRONOUNS = frozenset({"nothing", "none", "nobody"})


def required(words: list[str], after_words: list[str]) -> bool:
    """Whether a verdict word states what a test requires, not its result: a passive after an obligation ("this test
    must be passed", "has to be met", "das Kriterium muss erfüllt sein", "doit être rempli"). ``words``: the clause's
    last words before the verdict word; ``after_words``: the first words after it (lower case).

    break41: "Earnings Growth: this test must be passed. EPS rose 20% in ten years." read PROCEED at 0.95.

    >>> required(["test", "must", "be"], []), required(["it", "has", "to", "be"], []), required(["kriterium", "muss"], ["sein"])
    (True, True, True)
    >>> required(["it", "is"], []), required(["muss"], ["nicht"])
    (False, False)
    """
    words, after_words = [w.lower() for w in words[-3:]], [w.lower() for w in after_words[:1]]
    if words[-2:] in (["must", "be"], ["doit", "être"], ["doivent", "être"], ["deve", "ser"], ["debe", "ser"]) \
            or words[-3:] in (["has", "to", "be"], ["have", "to", "be"], ["needs", "to", "be"], ["need", "to", "be"], ["is", "to", "be"]):
        return True
    return bool(words) and words[-1] in ("muss", "müssen", "soll", "sollen") and after_words[:1] in (["sein"], ["werden"])


#: Auxiliaries of a perfect conditional or a past subjunctive: the result did not happen ("it would have passed in
#: 2015", "wäre bestanden", "hätte bestanden", "teria passado", "habría pasado", "avrebbe superato", "aurait réussi").
_UNREAL_PAST = frozenset({"wäre", "wären", "hätte", "hätten", "teria", "teriam", "habría", "habrían", "hubiera", "hubieran",
                          "avrebbe", "avrebbero", "sarebbe", "sarebbero", "aurait", "auraient", "serait", "seraient"})


def counterfactual(words: list[str]) -> bool:
    """Whether the verdict word after ``words`` (the clause's last words before it, any case) is a result that did not
    happen: a perfect conditional ("would have passed", "could not have failed", "would've cleared") or a past
    subjunctive auxiliary among the last three words ("wäre bestanden", "hätte ... bestanden").

    break42: "Earnings Growth: it would have passed in 2015. Today growth is 5%." read PROCEED at 0.95.

    >>> counterfactual(["it", "would", "have"]), counterfactual(["would", "not", "have"]), counterfactual(["hätte"])
    (True, True, True)
    >>> counterfactual(["i'd", "have", "said"]), counterfactual(["we\u2019d", "have"])
    (True, True)
    >>> counterfactual(["it", "would"]), counterfactual(["we", "have"]), counterfactual(["it", "has"]), counterfactual(["i'd", "say"])
    (False, False, False, False)
    """
    last = [w.lower().replace("\u2019", "'") for w in words[-4:]]
    if not _UNREAL_PAST.isdisjoint(last[-3:]):
        return True
    for i, w in enumerate(last):
        if w in ("would", "could", "might", "should", "wouldn't", "couldn't", "shouldn't") and "have" in last[i + 1 : i + 3]:
            return True
        if w.endswith("'d") and len(w) > 2 and last[i + 1 : i + 2] == ["have"]:
            return True  # "I'd have said PROCEED last week", "we'd have passed it": 'd before "have" is "would" (break45)
    return bool(last) and last[-1] in ("would've", "could've", "might've", "should've")


#: A clause the writer denies as a whole, right before the verdict word's own clause: "it is not true that it fails",
#: "non è vero che non supera", "não é verdade que", "no es cierto que", "es stimmt nicht, dass", "il est faux que"
#: (break42: "it is not true that it fails the test" read REJECT at 0.95). The word's verdict turns over (weak).
DENIED_THAT = re.compile(
    r"(?:\b(?:not|n't)[ \t]+(?:true|the[ \t]+case|correct|so)[ \t]+that|\bnon[ \t]+è[ \t]+(?:vero|detto)[ \t]+che"
    r"|\bnão[ \t]+é[ \t]+verdade[ \t]+que|\bno[ \t]+es[ \t]+(?:cierto|verdad)[ \t]+que|\bstimmt[ \t]+nicht,?[ \t]+dass"
    r"|\b(?:n'est[ \t]+pas[ \t]+vrai|est[ \t]+faux)[ \t]+que?)\b[^,;:.!?\n]{0,60}\Z")


#: Words that make an "if" word a concession: "even if", German "auch wenn", "selbst wenn".
_EVEN = frozenset({"even", "auch", "selbst"})


def supposed(clause_words: list[str], before: str, conditionals: frozenset[str] = _CONDITIONALS) -> bool:
    """Whether a verdict word after ``clause_words`` (its clause's words, lower case, holding an "if" word of
    :data:`_CONDITIONALS`) lies inside a supposition: "if it passes", "wenn der Gewinn steigt, ist der Test bestanden";
    not after a concession's comma ("even if the margin dips, it passes", "auch wenn die Marge sinkt, ist er bestanden").
    ``before``: the text before the word (lower case); ``conditionals`` the answer's "if" words (:func:`conditionals_of`).

    >>> supposed(["if", "it"], "if it "), supposed(["even", "if", "margins", "dip", "it"], "even if margins dip, it ")
    (True, False)
    >>> supposed(["auch", "wenn", "die", "marge", "sinkt", "ist"], "auch wenn die marge sinkt, ist ")
    False
    """
    idx = max(i for i, w in enumerate(clause_words) if w in conditionals)
    if not (idx > 0 and clause_words[idx - 1] in _EVEN):
        return True
    if clause_words[idx - 1] == "even":
        return _INSIDE_EVEN_IF.search(before) is not None
    return re.search(rf"\b{re.escape(clause_words[idx])}\b[^,;:.!?\n]*\Z", before) is not None


#: A bare verdict word right before one of these nouns names a kind of case, risk or bar, not the writer's verdict: "the REJECT
#: case is weak", "the PROCEED thesis depends on 30% growth", "REJECT risk if capex rises", "the pass case is thin" (break45).
_FRAMED_NOUN = re.compile(r"[ \t]+(?:cases?|scenarios?|thesis|theses|arguments?|camps?|side|risks?|triggers?|thresholds?|territory"
                          r"|zone|bars?|criteria|criterion|conditions?)\b")
#: The bare verdict words such a noun may follow (an inflected verb takes an object: "passes risk review" is a pass).
_FRAMING_WORDS: Final = frozenset({"proceed", "reject", "pass", "fail", "inconclusive"})


def framed(token: str, text: str, low: str, end: int) -> bool:
    """Whether the verdict word ``token`` ending at ``end`` modifies a noun of a kind of case right after it on its line
    (``text``: the answer, where a hard wrap is still a line break; ``low``: the lower-cased text read).

    break45: "Fair Price: the REJECT case is weak, the PROCEED case is strong: PROCEED." read REJECT at 0.76; the first
    version read "Verdict \u2014 PROCEED\\nRisk shares are 25% ..." (a hard wrap, a space in ``low``) as "PROCEED risk".

    >>> t = "the reject case is weak"
    >>> framed("reject", t, t, 10), framed("passes", "passes risk review", "passes risk review", 6)
    (True, False)
    >>> framed("proceed", "PROCEED\\nRisk shares", "proceed risk shares", 7)
    False
    """
    if token not in _FRAMING_WORDS:
        return False
    m = _FRAMED_NOUN.match(low, end)
    return m is not None and "\n" not in text[end : m.end()]


#: Words before "pass" that make it the noun (an attempt): "a first pass", "on a quick pass", "another pass".
_PASS_NOUN_BEFORE = frozenset({"first", "second", "third", "quick", "initial", "cursory", "brief", "rough", "another", "final"})
#: Participles that, between a determiner and a noun, describe the noun: "the failed takeover", "a passed motion".
_ATTRIBUTIVE = frozenset({"failed", "rejected", "passed", "killed", "disqualified", "cleared", "qualified", "met"})
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her", "our", "my", "your", "this", "that", "these", "those", "two",
                          "three", "several", "many", "recent", "earlier", "last"})
#: Words after such a participle that show it is the verb after all: "the test failed to ...", "the gate passed by ...".
_NOT_A_NOUN = frozenset({"to", "by", "on", "at", "in", "with", "and", "or", "because", "since", "as", "so", "but", "if", "when",
                         "is", "was", "are", "were", "the", "a", "an", "it", "this", "that", "for", "all", "both", "easily", "again",
                         "here", "there", "too", "also", "only", "comfortably", "narrowly"})
_NOUN_NEXT = re.compile(r"[ \t]+[a-z]")
#: A modal with a labelling verb before the verdict word in its clause: "might mark the posture test PROCEED", "could call it a
#: pass", "would rate this a FAIL" (a label someone could give, not the writer's finding).
_LABELLED_BY_MODAL = re.compile(r"\b(?:may|might|could|would)\s+(?:well\s+|easily\s+|still\s+)?(?:mark|call|label|rate|score|tag|deem|"
                                r"treat|read|classify)\b[^.;:\n]{0,50}\Z")


_LABEL_MODALS = frozenset({"may", "might", "could", "would"})


#: Words that may stand before an answer's "no" in its comma-closed part: "Wait, no, ...", "Hmm no, ...", "Oh no, ...".
_BEFORE_ANSWER_NO = frozenset({"wait", "hmm", "um", "uh", "oh", "well", "actually", "so", "and", "but"})
#: Where a writer breaks off inside a sentence: an ellipsis or a dash.
_AFTER_BREAK = re.compile(r"\.\.\.|\u2026|\u2014|\u2013|\s-\s")


def _negation_words(clause: str, words: list[str]) -> list[str]:
    """The words whose negators negate a verdict word: ``words`` (the clause's last four), less those before a comma
    that closes the negated phrase. "not high grade, REJECT" and "no debt, passes" are not negated; "not, in my
    view, a pass" is (the comma directly follows the negator), and "No, it fails" is not (an answer word), nor is
    "INVEST, wait, no, DECLINE" (a lone "no" between commas, or after an interjection, repairs; it negates nothing)."""
    if "," not in clause:
        return words
    parts = clause.split(",")
    for k, part in enumerate(parts[:-1]):
        pw = _WORDS_APOS.findall(part)
        tail = _WORDS_APOS.findall(_AFTER_BREAK.split(part)[-1])  # "INVEST... no": the words after the break
        if pw and (pw[-1] in vw.NEGATORS or pw[-1].endswith("n't")) and not (tail[-1:] == ["no"] and set(tail[:-1]) <= _BEFORE_ANSWER_NO):
            # the aside between the commas is skipped: "does not, on these figures, pass" reads "does not pass"
            return (_WORDS_APOS.findall(",".join(parts[: k + 1])) + _WORDS_APOS.findall(parts[-1]))[-4:]
    return _WORDS_APOS.findall(parts[-1])[-4:]


#: Words before a noun: "his wont", "the cant" are the nouns, not "won't" and "can't".
_OWNERS_OF_A_NOUN = frozenset({"a", "an", "the", "his", "her", "its", "their", "our", "my", "your", "of", "pious", "usual"})


def _negated(words: Sequence[str]) -> bool:
    """Whether the words before a verdict word (its clause, at most the last 4) negate it.

    Pseudo-negations are not negations ("not merely passes", "without doubt clears", "no question it passes"),
    and two negators cancel ("not unable to pass" is not read as a negation).
    """
    last = list(words)[-3:]
    negators = 0
    for i, w in enumerate(last):
        nxt = last[i + 1] if i + 1 < len(last) else ""
        if w in ("rather", "instead", "fails", "failed", "unable"):
            if nxt in ("than", "of", "to"):
                negators += 1
            continue
        if w in BARE_AMBIGUOUS_NEGATORS:  # "I cant PROCEED", "it wont pass"; not "as is his wont", "wont to"
            if nxt != "to" and (i == 0 or last[i - 1] not in _OWNERS_OF_A_NOUN):
                negators += 1
            continue
        if w == "from" and i > 0 and last[i - 1] == "far":
            negators += 1  # "far from passing"
            continue
        if w in vw.NEGATORS or w.endswith("n't") or w in _NEGATING_PRONOUNS or w == "nowhere":  # "nowhere near met"
            prev = last[i - 1].split("'")[-1].split("\u2019")[-1] if i > 0 else ""
            if nxt in _PSEUDO_NEGATION or nxt in _HESITATING or prev in _HESITATING:
                continue
            negators += 1
    if negators:
        return negators % 2 == 1
    joined = " ".join(words)
    return "as opposed to" in joined


#: What joins the options of a choice: "PASS/FAIL", "PROCEED | REJECT", "Pass / Fail", "PASS or FAIL", "..., or FAIL".
_CHOICE_JOIN = re.compile(r"[ \t]*[/|][ \t]*|[ \t]*,?[ \t]+or[ \t]+")
#: What joins the words of a list: "PROCEED and REJECT", "PASS & FAIL", "PROCEED, REJECT, INCONCLUSIVE".
_LIST_JOIN = re.compile(r"[ \t]*,?[ \t]+(?:and|&)[ \t]+|[ \t]*&[ \t]*|[ \t]*,[ \t]*")


#: "respectively", "in that order" after a list of verdicts: one verdict per gate named before it.
_RESPECTIVELY = re.compile(r"[ \t,]*(?:respectively|in (?:that |this )?order)\b")
#: A plural gate word with a list of numbers ("Tests 3 and 4", "gates 1, 2, and 5") earlier on the line.
_GROUPED_NUMBERS = re.compile(r"\b[a-z]+s[ \t]+(\d{1,3}(?:[ \t]*(?:,[ \t]*(?:and|&)|,|&|and)[ \t]*\d{1,3})+)")


def _distributed(run: list[_Hit], low: str) -> bool:
    """Whether a list of different verdicts gives one to each gate of a group ("Tests 3 and 4: PROCEED and REJECT
    respectively"): "respectively" follows it, or its line names a group of gates by number before it (the grouped
    label's reader, :mod:`._grouped`, shares the verdicts out or says why not)."""
    if _RESPECTIVELY.match(low, run[-1].end):
        return True
    line = low.rfind("\n", 0, run[0].start) + 1
    return _GROUPED_NUMBERS.search(low, line, run[0].start) is not None  # the grouped label's own rules share them out


def offered_choices(hits: list[_Hit], low: str) -> set[int]:
    """The ``id`` of every verdict hit that is one option of a choice offered, not taken: verdict words of different
    verdicts joined by "/", "|" or "or" ("Result: PASS/FAIL", "<PROCEED | REJECT>", an unfilled template's "Pass / Fail",
    "<PASS or FAIL>"), or listed side by side ("PROCEED and REJECT", "PROCEED, REJECT, INCONCLUSIVE": every verdict at
    once states none; s32break: such an answer was read as its first word and scored wherever that was the gold).
    Two words joined by a bare comma stay ("gates 1-4 PROCEED, REJECT at gate 5" may pin them to different gates).

    ``hits`` are in text order; one pass over runs of adjacent hits.
    """
    drop: set[int] = set()
    run: list[_Hit] = [hits[0]] if hits else []
    joins: list[str] = []

    def close() -> None:
        if len(run) > 1 and len({h.word.verdict for h in run}) > 1:
            if (any(j != "," for j in joins) or len(run) > 2) and not _distributed(run, low):
                drop.update(id(h) for h in run)

    for a, b in zip(hits, hits[1:]):
        m = _CHOICE_JOIN.match(low, a.end) if a.unit == b.unit else None
        n = _LIST_JOIN.match(low, a.end) if a.unit == b.unit and (m is None or m.end() != b.start) else None
        joined = m if m is not None and m.end() == b.start and m.end() > a.end else \
            n if n is not None and n.end() == b.start and n.end() > a.end else None
        if joined is not None and "|" in joined.group() and (a.word in _ICONS) != (b.word in _ICONS):
            joined = None  # "| ✅ | REJECT |": a status icon and a word in two cells of a table row, not a choice offered
        if joined is not None:
            run.append(b)
            joins.append("," if joined.group().strip() == "," else "and")
        else:
            close()
            run, joins = [b], []
    close()
    return drop


#: The writer says the gate could go both ways: "it could go either way", "this gate may pass or may fail", "it might
#: fail, it might pass". The facts beside it are the reasons for the doubt, not a verdict (s49user: "the completion
#: probability is 90% against the 70% floor, but ... this gate may pass or may fail" read PROCEED from the comparison,
#: and a hedge-every-gate answer kept a GRA of 0.94).
BOTH_WAYS = re.compile(
    r"(?i)\b(?:could|can|may|might)[ \t]+(?:well[ \t]+)?go[ \t]+either[ \t]+way\b"
    r"|\b(?:may|might|could|can)[ \t]+(?:pass|proceed|clear|fail|reject)\w{0,3}\b[^.;\n]{0,30}?"
    r"\b(?:may|might|could|can)[ \t]+(?:(?:just[ \t]+as[ \t]+easily|equally|also|well)[ \t]+)?(?:pass|proceed|clear|fail|reject)\w{0,3}\b"
    r"|\b(?P<both>may|might|could|will|would|does|do|did)[ \t]+or[ \t]+(?:(?P=both)[ \t]+not|(?P=both)n['\u2019]t|won['\u2019]t)"
    r"[ \t]+(?:be[ \t]+)?(?:an?[ \t]+)?(?:pass|proceed|clear|fail|reject|met\b|meet)\w{0,3}\b")

#: A modal said with its own negation just before a verdict word: "may or may not PROCEED", "might or might not pass",
#: "will or won't fail", "does or does not clear", "may or may not be met". The "not" belongs to the doubt, not to the
#: verdict (s51user: "this may or may not PROCEED" read REJECT 0.35 from the "not", so an answer hedging every gate
#: was scored, composite 0.412 at full coverage, instead of being filed as committing to nothing).
_OR_NOT_BEFORE = re.compile(
    r"\b(?P<m>may|might|could|will|would|does|do|did)[ \t]+or[ \t]+(?:(?P=m)[ \t]+not|(?P=m)n['\u2019]t|won['\u2019]t)"
    r"[ \t]+(?:be[ \t]+)?(?:an?[ \t]+)?\Z")

#: A modal verb right before a verdict word: "may pass", "could well fail", "might equally proceed".
_MODAL_BEFORE = re.compile(r"\b(?:may|might|could|can)(?:[ \t]+(?:well|equally|also|just[ \t]+as[ \t]+easily))?[ \t]+\Z")
#: What joins two such words into one hedge: "may pass or may fail", "might pass, it might fail", "could pass or it
#: could just as easily fail" (the second modal repeated, its subject optional).
_MODAL_JOIN = re.compile(
    r"[ \t]*(?:,|;|\u2014|\u2013|[ \t]-)?[ \t]*(?:(?:or|and|but)[ \t]+)?(?:(?:it|this(?:[ \t]+gate)?|that|the[ \t]+gate)[ \t]+)?"
    r"(?:may|might|could|can)(?:[ \t]+(?:well|equally|also|just[ \t]+as[ \t]+easily))?[ \t]+\Z")


def modal_choices(hits: list[_Hit], low: str) -> set[int]:
    """The ``id`` of both verdict words of a hedge that names both ways, each under its own modal, in one sentence:
    "this gate may pass or may fail", "it might pass, it might fail" (s49user: a hedge-every-gate answer read PROCEED
    on each gate, the first of the two, and ranked above wrong and skipped answers). Like "PASS or FAIL"
    (:func:`offered_choices`) such a sentence states neither verdict. One modal verdict alone ("it may pass") stays a
    weak reading.

    >>> from types import SimpleNamespace
    >>> low = "gate 2: this gate may pass or may fail. gate 3: it may pass."
    >>> p, f = SimpleNamespace(verdict=vw.PROCEED), SimpleNamespace(verdict=vw.REJECT)
    >>> at = [low.index("pass"), low.index("fail"), low.rindex("pass")]
    >>> hits = [_Hit(at[0], at[0] + 4, p, 0), _Hit(at[1], at[1] + 4, f, 0), _Hit(at[2], at[2] + 4, p, 1)]
    >>> [low[h.start : h.end + 1] for h in hits if id(h) in modal_choices(hits, low)]
    ['pass ', 'fail.']
    """
    drop: set[int] = set()
    for a, b in zip(hits, hits[1:]):
        if a.unit != b.unit or {a.word.verdict, b.word.verdict} != {vw.PROCEED, vw.REJECT} or b.start - a.end > 40:
            continue
        if _MODAL_BEFORE.search(low, max(0, a.start - 30), a.start) and _MODAL_JOIN.fullmatch(low, a.end, b.start):
            drop.update((id(a), id(b)))
    return drop


def or_not_choices(hits: list[_Hit], low: str) -> set[int]:
    """The ``id`` of each verdict word said right after a modal and its own negation ("may or may not PROCEED",
    "might or might not pass": :data:`_OR_NOT_BEFORE`): such a word states neither verdict, as "may pass or may fail"
    states neither (:func:`modal_choices`). "It may not pass" alone is still a weak REJECT.

    >>> from types import SimpleNamespace
    >>> low = "gate 1: it may or may not proceed. gate 2: it may not proceed."
    >>> p = SimpleNamespace(verdict=vw.PROCEED)
    >>> at = [low.index("proceed"), low.rindex("proceed")]
    >>> hits = [_Hit(at[0], at[0] + 7, p, 0), _Hit(at[1], at[1] + 7, p, 1)]
    >>> [h.unit for h in hits if id(h) in or_not_choices(hits, low)]
    [0]
    """
    return {id(h) for h in hits if _OR_NOT_BEFORE.search(low, max(0, h.start - 40), h.start)}


def in_another_gates_paragraph(card, low: str, mentions: Sequence, gate: int, start: int, floor: int) -> bool:
    """Whether a verdict word said alone at ``start`` ("Good.", "Also fine.") closes a paragraph about another gate
    than ``gate``, the section it sits in: a later paragraph of the section (it opens after ``floor``, the section's
    first character) that names other gates only, or names none and whose words are another gate's facts, none of
    ``gate``'s own ("Drift: ...
    No.\\n\\nThe bond side is government bonds and a high-grade fund. No junk. Good." - the bond quality's, not the
    drift's). Paper §7.5, issue 13: a verdict is its statement's gate's, not its neighbour's."""
    from ipb.scoring.parse._prose_vocabulary import clause_weights, gate_of_clause  # (imports _verdict_clauses' users)

    para = max(low.rfind("\n\n", 0, start), low.rfind("\n\r\n", 0, start))
    if para < 0 or para + 1 <= floor:
        return False  # the section's own paragraph: the label's words lead it
    para += 1
    named = {g for m in mentions if para <= m.start < start for g in m.gates}
    if named:
        return gate not in named  # a paragraph that names gates speaks for them
    text = low[para:start]
    other = gate_of_clause(card, text)
    return other is not None and other != gate and clause_weights(card, text).get(gate, 0) == 0


#: Quantifiers that make a bare plural a statement about things in general: "most buybacks fail", "many spin-offs pass".
_GENERIC_QUANTIFIERS = frozenset({"most", "many", "few"})
#: Plurals that name the checks themselves or the case's own items: "most criteria pass", "few holdings fail" report on the case.
_CASE_PLURALS = frozenset({"gates", "tests", "criteria", "checks", "steps", "screens", "rules", "items", "questions", "filters",
                           "hurdles", "conditions", "boxes", "points", "lenses", "signals", "gauges", "holdings", "positions",
                           "names", "metrics", "measures", "indicators", "parts", "things", "others", "ones", "years"})


def generic_subject(words: Sequence[str]) -> bool:
    """Whether the words before a verdict verb end in a generic subject: "most", "many" or "few" and a bare plural, at most
    two words between ("This is where most buybacks fail", "many cheap spin-offs pass this test"). The verb then says how
    such things usually fare, not how the case fares; the case's own items ("most criteria pass", "few holdings fail"), a
    determiner ("most of the bonds") or a number do not make one.

    >>> generic_subject(["this", "is", "where", "most", "buybacks"]), generic_subject(["most", "criteria"])
    (True, False)
    >>> generic_subject(["most", "of", "the", "bonds"]), generic_subject(["it"])
    (False, False)
    """
    for k in range(len(words) - 1, max(-1, len(words) - 5), -1):
        if words[k] in _GENERIC_QUANTIFIERS:
            rest = words[k + 1 :]
            return (1 <= len(rest) <= 3 and rest[-1].endswith("s") and rest[-1] not in _CASE_PLURALS
                    and not any(w in ("of", "the", "our", "its", "their", "these", "those") or w[:1].isdigit() for w in rest))
    return False


#: A phrase of :data:`ipb.scoring.verdict_words.APPEARANCE` ("only on paper", "solo en apariencia", "表面上"), longest first.
_APPEARANCE = re.compile("|".join(bounded(w) for w in sorted(vw.APPEARANCE, key=len, reverse=True)))
#: Where the clause after a verdict word ends, for the phrases that follow it ("cumple solo en apariencia").
_AFTER_CLAUSE_END = re.compile(r"[.;:!?,\n|(\u2014\u2013\u3002\uff0c\uff1b]|->|=>|\u2192")


def only_apparent(low: str, clause_start: int, start: int, end: int, unit_end: int) -> bool:
    """Whether the verdict word at ``low[start:end]`` is qualified, in its clause, by a phrase that makes it only apparent.

    ``low`` is the lower-cased answer, ``clause_start`` where the word's clause opens and ``unit_end`` where its
    sentence ends (offsets into ``low``). The phrase stands in the clause before the word ("on paper it passes",
    "technically passes, but ...", "表面上符合") or after it up to the next punctuation, at most 40 characters on
    ("cumple solo en apariencia", "rempli sur le papier seulement"). A phrase with a negator in the two words before it
    denies the hedge ("not only on paper", "nicht nur auf dem Papier") and is skipped. Paper §7.5 (verdict-word senses).

    >>> t = "gate 1: passes only on paper. gate 2: passes not only on paper."
    >>> only_apparent(t, 8, 8, 14, 29), only_apparent(t, 38, 38, 44, len(t))
    (True, False)
    """
    stop = _AFTER_CLAUSE_END.search(low, end, min(unit_end, end + 40))
    after_end = stop.start() if stop else min(unit_end, end + 40)
    for lo, hi in ((clause_start, start), (end, after_end)):
        for m in _APPEARANCE.finditer(low, lo, hi):
            if vw.NEGATORS.isdisjoint(_WORDS_APOS.findall(low, max(lo, m.start() - 30), m.start())[-2:]):
                return True
    return False


def apparent_pass(judged: tuple[str, int, bool], low: str, clause_start: int, span: Span, unit_end: int) -> tuple[str, int, bool]:
    """``judged`` (verdict, level, derived) of the verdict word at ``span``, or, for a PROCEED that :func:`only_apparent`
    finds qualified ("cumple solo en apariencia", "passes only on paper"), INCONCLUSIVE at most hedged and derived.

    >>> apparent_pass(("PROCEED", 3, False), "passes only on paper.", 0, (0, 6), 21)[0]
    'INCONCLUSIVE'
    """
    verdict, level, _ = judged
    if verdict == vw.PROCEED and only_apparent(low, clause_start, span[0], span[1], unit_end):
        return vw.INCONCLUSIVE, min(level, vw.HEDGED), True
    return judged


def hits_after(line_units: Sequence[int], unit_hits: Mapping[int, list], unit: int, pos: int, limit: int) -> list:
    """The first ``limit`` hits of a line after offset ``pos``, in text order: those of ``unit`` (one of
    ``line_units``, the line's units in order) that start at or after ``pos``, then those of the units after it.
    ``unit_hits`` maps a unit to its hits sorted by start. Found by bisection, so a line of 21,000 marks checked mark by
    mark is no quadratic scan (break44 #5: 1 MB of marks on one line, each checked against every other).

    >>> from types import SimpleNamespace as H
    >>> hits = {0: [H(start=0), H(start=5), H(start=9)], 1: [H(start=12)], 2: [H(start=20)]}
    >>> [h.start for h in hits_after([0, 1, 2], hits, 0, 5, 3)], [h.start for h in hits_after([0, 1, 2], hits, 1, 13, 9)]
    ([5, 9, 12], [20])
    """
    own = unit_hits.get(unit, [])
    first = bisect.bisect_left(own, pos, key=lambda h: h.start)
    out = own[first : first + limit]
    later = line_units[line_units.index(unit) + 1 :] if unit in line_units else ()
    for u in later:
        if len(out) >= limit:
            break
        out.extend(unit_hits.get(u, [])[: limit - len(out)])
    return out
