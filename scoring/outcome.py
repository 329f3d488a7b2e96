"""What became of each response: scored, a parse failure, a refusal, or an unusable record.

Every record ``ipb score`` writes carries one ``outcome``:

``scored``
    the response was read and every metric computed;
``refusal``
    the model did not attempt the task: it declined (``reason_code``
    ``refusal``: "I cannot help with that."), said nothing
    (``empty_response``) or wrote about something else (``off_topic``: no
    name of the card, its investor or any of its gates), or committed to
    nothing (``no_commitment``: gates read but none PROCEED or REJECT, and
    no decided final verdict, e.g. "unknown" or "I'm not sure." after every
    gate name; see :func:`commits`; or an answer that is only a profession
    of not knowing, "I don't know.", "No idea.", "Keine Ahnung.": see
    :func:`professes_ignorance`; or only a deferral to the reader, "It
    depends on your risk tolerance.": see :func:`defers_the_decision`), or restated its own prompt (the question, its
    facts, the condition context) and judged nothing in words of its own
    (``echo``: :mod:`ipb.scoring.echo`);
``parse_failure``
    the model answered but no gate of the card could be read
    (``parse_failure``), or the answer is over ``--max-chars``
    (``response_too_large``);
``unusable``
    the *input* record cannot be scored (not JSON, unknown item, duplicate,
    missing field...): not the model's doing.

Failures count. By default (``ScoreOptions.failures = "count"``) a refusal
or parse failure scores :func:`failure_value` on every metric it was owed
(the metrics that apply to its item: those an empty answer to the same item
would be given a value on), and is in every mean, interval and rank, as
lm-evaluation-harness and inspect_ai count an unreadable answer as wrong.
``"exclude"`` (``ipb score --exclude-failures``) leaves them out of the
means, the behaviour before; the summary and the report then say so beside
every figure. Unusable records are never averaged: they are counted.

Failure-mode flags are not set for failures (an unread answer shows no
failure mode; it is counted under ``coverage`` instead).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping, Sequence

from ipb.scoring import _foreign_verdicts as _fv

#: How the reason of a parse starts when the LLM extractor (``--extractor llm``) gave no reading of the answer: its
#: request failed, or its reply was not the JSON asked for (:mod:`ipb.respond.extract`). Such an answer is a parse
#: failure with that reason, never the model's refusal (:func:`unscored_reason`; s48break: with the extractor's
#: server down, six answers that each ended "Final verdict: INVEST" were filed as refusals). The parser package
#: re-exports it (``ipb.scoring.parse.EXTRACTOR_FAILURE``), which is where ``ipb.respond`` reads it.
EXTRACTOR_FAILURE = "llm extractor: "

__all__ = [
    "OUTCOMES",
    "FAILURE_POLICIES",
    "REFUSAL_REASONS",
    "PARSE_FAILURE_REASONS",
    "outcome_of",
    "failure_value",
    "is_refusal",
    "professes_ignorance",
    "defers_the_decision",
    "commits",
    "NO_COMMITMENT",
    "classify_unread",
    "reads_as_english",
    "stop_unread",
    "uncommitted_reason",
    "filing",
    "read_any",
    "EXTRACTOR_FAILURE",
]

OUTCOMES = ("scored", "parse_failure", "refusal", "unusable")
#: ``count``: failures score the worst value on every owed metric (default); ``exclude``: left out of means.
FAILURE_POLICIES = ("count", "exclude")
#: Reason codes whose outcome is ``refusal``.
#: Reason code of an answer that names gates but commits to no verdict (:func:`commits`).
NO_COMMITMENT = "no_commitment"
#: ``echo``: an answer that only restates its prompt and judges nothing in words of its own (:mod:`ipb.scoring.echo`).
REFUSAL_REASONS = frozenset({"refusal", "empty_response", "off_topic", NO_COMMITMENT, "echo"})
#: Reason codes whose outcome is ``parse_failure``.
PARSE_FAILURE_REASONS = frozenset({"parse_failure", "response_too_large"})

#: Metrics where lower is better, or whose worst value is not 0.
_WORST = {"ned": 1.0, "kendall_tau": -1.0}


def outcome_of(status: str | None, reason_code: str | None) -> str:
    """The outcome of a record (or a target) from its ``status`` and ``reason_code``.

    Examples
    --------
    >>> outcome_of("scored", None), outcome_of("unscored", "refusal"), outcome_of("unscored", "parse_failure")
    ('scored', 'refusal', 'parse_failure')
    >>> outcome_of("unscored", "duplicate")
    'unusable'
    """
    if status == "scored":
        return "scored"
    if reason_code in REFUSAL_REASONS:
        return "refusal"
    if reason_code in PARSE_FAILURE_REASONS:
        return "parse_failure"
    return "unusable"


def failure_value(metric: str) -> float:
    """The value a failure scores on an owed metric: its worst.

    0 for every score in [0, 1] where higher is better (composites,
    BASP-strict, GRA, KCCS, VerdictAcc...), 1 for NED (lower is better) and
    -1 for Kendall tau (so that tau_n = (tau + 1)/2 = 0 agrees).

    >>> failure_value("gra"), failure_value("ned"), failure_value("kendall_tau")
    (0.0, 1.0, -1.0)
    """
    return _WORST.get(metric, 0.0)


_REFUSAL = re.compile(
    r"\b(?:i|we)\s*(?:'m|’m|am|are)?\s*(?:sorry|afraid)\b"
    r"|\b(?:i|we)\s+(?:can(?:'|’)?t|cannot|can\s+not|won(?:'|’)?t|will\s+not|must\s+decline|(?:have\s+to\s+)?decline\s+to"
    r"|(?:am|'m|’m|are)\s+(?:not\s+able|unable)\s+to|do\s+not\s+feel\s+comfortable|don(?:'|’)?t\s+feel\s+comfortable)\b"
    r"|\bas\s+an\s+ai\b|\bunable\s+to\s+(?:help|assist|comply|provide|answer)\b"
    r"|\bnot\s+able\s+to\s+(?:help|assist|provide|answer)\b|\bi\s+do\s+not\s+provide\s+(?:investment|financial)\s+advice\b"
    r"|\b(?:i|we)(?:'m|’m|'re|’re)\s+(?:not\s+able|unable)\s+to\b",
    re.IGNORECASE,
)
#: A refusal in another language: the ``refusals`` words of grammar/languages.yaml (case folded, on word edges).
_FOREIGN_REFUSAL = re.compile("|".join(_fv.bounded(w) for w in sorted(_fv.REFUSAL_WORDS, key=len, reverse=True))
                              or r"(?!x)x", re.IGNORECASE)
#: A refusal is short: an answer longer than this that no gate could be read from is a parse failure.
_REFUSAL_CHARS = 600


def is_refusal(text: str) -> bool:
    """Whether ``text`` declines the task: a short answer that says it cannot or will not help.

    Only asked of answers from which no gate could be read, so a full
    analysis that opens with a disclaimer is never a refusal.

    Examples
    --------
    >>> is_refusal("I cannot help with that."), is_refusal("I'm sorry, but I can't provide investment advice.")
    (True, True)
    >>> is_refusal("I'm not able to give personalised investment advice; speak to an adviser.")
    True
    >>> is_refusal("Gate 1: PROCEED. The business is simple."), is_refusal("")
    (False, False)
    >>> is_refusal("Ich kann keine Anlageberatung geben."), is_refusal("Je ne peux pas donner de conseil.")
    (True, True)

    In another language a refusal is told by the ``refusals`` words of its block in ``grammar/languages.yaml``
    (s53newuser: "Ich kann keine Anlageberatung geben." was filed ``off_topic``).
    """
    head = text.strip()
    return bool(head) and len(head) <= _REFUSAL_CHARS and (
        _REFUSAL.search(head) is not None or _FOREIGN_REFUSAL.search(head) is not None)


#: One sentence that says only "I do not know", in English and a few languages the verdict lists cover (es, fr, de,
#: it, pt, nl). Matched against a whole sentence, never searched inside one.
_IGNORANCE = re.compile(
    r"(?:i\s+)?(?:really\s+|honestly\s+|just\s+)?(?:do\s+not|don[’']?t)\s+know(?:\s+(?:that|this|it|the\s+answer))?"
    r"|(?:i\s+)?(?:have\s+)?(?:no|not\s+(?:an?|the\s+slightest))\s+(?:idea|clue)"
    r"|(?:i(?:[’']m|\s+am)\s+)?(?:not|un)\s*sure|unknown|who\s+knows|no\s+comment"
    r"|(?:i\s+)?(?:cannot|can\s+not|can[’']?t|couldn[’']?t|could\s+not)\s+(?:say|tell)"
    r"|no\s+(?:lo\s+)?s[ée]|(?:no\s+tengo\s+)?ni\s+idea|no\s+tengo\s+idea|no\s+sabr[ií]a(?:\s+decir)?"
    r"|je\s+ne\s+(?:le\s+)?sais\s+pas|(?:je\s+n[’']ai\s+)?aucune\s+id[ée]e|je\s+n[’']en\s+sais\s+rien"
    r"|ich\s+wei(?:ß|ss)\s+(?:es\s+|das\s+)?nicht|wei(?:ß|ss)\s+nicht|keine\s+ahnung"
    r"|non\s+(?:lo\s+)?so|non\s+saprei(?:\s+dire)?|nessuna\s+idea"
    r"|n[ãa]o\s+sei|n[ãa]o\s+fa[çc]o\s+(?:a\s+m[íi]nima\s+)?ideia"
    r"|ik\s+weet\s+het\s+niet|geen\s+idee",
    re.IGNORECASE,
)
#: Words that may stand beside it as a sentence of their own or its opening ("Sorry, I don't know.").
_IGNORANCE_FILLER = re.compile(
    r"(?:(?:i[’']m\s+|i\s+am\s+)?sorry|apologies|honestly|to\s+be\s+honest|frankly|well|hmm+|um+|"
    r"lo\s+siento|perd[oó]n|d[ée]sol[ée]e?|tut\s+mir\s+leid|entschuldigung|mi\s+dispiace|desculpe?|sorry)",
    re.IGNORECASE,
)
_IGNORANCE_CHARS = 120


def professes_ignorance(text: str) -> bool:
    """Whether the whole of ``text`` says only that the model does not know: "I don't know.", "No idea.",
    "Cannot say.", "No lo sé.", "Je ne sais pas.", "Keine Ahnung." (s49user finding 8).

    Such an answer commits to no verdict; it is filed ``no_commitment`` (a refusal), not a parse failure: the parser
    missed nothing. Every sentence must be such a phrase or a word of apology beside one ("Sorry, I don't know.
    Apologies."), and the answer at most 120 characters; a sentence naming anything else ("I don't know the margin
    of safety here.") is not one, and an answer that says it does not know after reasoning is read as any other.

    >>> [professes_ignorance(t) for t in ("I don't know.", "No idea", "Cannot say.", "Sorry, I don't know.",
    ...                                   "No lo sé.", "Je ne sais pas.", "Keine Ahnung!", "Não sei.")]
    [True, True, True, True, True, True, True, True]
    >>> [professes_ignorance(t) for t in ("", "I don't know the margin here.", "Gate 1: unknown. Final verdict: BUY",
    ...                                   "I know.", "Sorry.")]
    [False, False, False, False, False]
    """
    body = " ".join(text.split()).strip(" \"'“”‘’*_`")
    if not body or len(body) > _IGNORANCE_CHARS:
        return False
    return _every_sentence(body, lambda rest: _IGNORANCE.fullmatch(rest) is not None)


#: One sentence that hands the decision to the reader's circumstances: "It depends on your risk tolerance.", "That
#: depends on what you need.", "This really depends on your horizon", "Depends on the investor." (its subject a pronoun
#: for the decision, or none). Matched against a whole sentence, never searched inside one.
_DEFERRED = re.compile(
    r"(?:(?:it|that|this|the\s+(?:answer|decision|choice|verdict|call))(?:[’']s|\s+(?:all|really|entirely|ultimately))?\s+)?"
    r"(?:all\s+|really\s+|entirely\s+|ultimately\s+)?depends?(?:\s+(?:on|upon)\s+[^.!?;]{1,90})?")
_DEFERRED_CHARS = 160


def defers_the_decision(text: str) -> bool:
    """Whether the whole of ``text`` hands the decision to the reader's circumstances and states nothing else: "It
    depends on your risk tolerance.", "That depends on what you need.", "Honestly, it depends." (issue 13, "final
    verdicts in the wild"; s53wild).

    Such an answer names no outcome and commits to nothing: it is filed ``no_commitment`` (a refusal, as a profession
    of not knowing is: :func:`professes_ignorance`), not ``off_topic`` (it answers the question asked) nor a parse
    failure (the parser missed nothing). Every sentence must be such a deferral or a filler word beside one, and the
    answer at most 160 characters; a sentence naming a verdict ("It depends on the price; at $20 I would buy.") is
    not one, and a deferral after a gate-by-gate analysis leaves its gates to be read as any other (the parser states
    no final verdict from it).

    >>> [defers_the_decision(t) for t in ("It depends on your risk tolerance.", "That depends on what you need.",
    ...                                   "Honestly, it depends.", "It all depends on your horizon")]
    [True, True, True, True]
    >>> [defers_the_decision(t) for t in ("", "It depends on the price; at $20 I would buy.", "Final verdict: BUY",
    ...                                   "Gate 1 depends on the debt.")]
    [False, False, False, False]
    """
    body = " ".join(text.split()).strip(" \"'“”‘’*_`")
    if not body or len(body) > _DEFERRED_CHARS:
        return False
    return _every_sentence(body, lambda rest: _DEFERRED.fullmatch(rest.lower()) is not None)


#: Gate verdicts that commit; a final verdict commits unless unread (None) or INCONCLUSIVE.
_DECIDED_GATE = frozenset({"PROCEED", "REJECT"})
#: the suffix of ``how`` for a gate verdict inferred by the learned stance reader (:mod:`ipb.scoring.parse._stance`)
_INFERRED = "+stance"
#: the mark in ``how`` of a gate verdict the parser gave a restated figure by the card's own test, with no verdict or
#: appraisal word (``+threshold``; s52echo: the corpus keeps the reading, but alone it commits to nothing)
_THRESHOLD = "+threshold"
#: the mark in ``how`` of a gate verdict read from a mild appraisal ("the margin is thin", "a bit rich"; s53wild,
#: :mod:`ipb.scoring.parse._mild`): a lean the writer does not tie to the gate's verdict, no commitment
_MILD = "+mild"


def commits(parsed: Mapping[str, Any], gold_final: str | None = None) -> bool:
    """Whether a parsed answer commits to a verdict anywhere: a gate PROCEED or REJECT, or a decided final verdict.

    An answer that lists the gates in order and writes "unknown" (read
    INCONCLUSIVE) or "I'm not sure." (read as no verdict) after each, with no
    decided final verdict, commits to nothing: scored, its ordered gate list
    alone would earn full gate coverage and order (GCF, OGRS, OGRS_k: §7.2,
    §7.6) and rank above honest partial answers. It is a refusal
    (``no_commitment``) instead. An answer of INCONCLUSIVE gates with a final
    INVEST / DECLINE committed. A final INCONCLUSIVE commits only where the
    gold final verdict is INCONCLUSIVE too (there it is the right answer).
    A gate verdict the learned stance reader inferred (``how`` ending in
    ``+stance``: no verdict word stood in the text) is not a commitment: an
    answer whose only decided gates are inferred stated no verdict. Nor is a
    verdict the parser gave a restated figure by the card's own threshold
    (``how`` holding ``+threshold``: "The net income ... is -$6M." read gate
    2 REJECT with no word of judgement; s52break finding 1), nor one read
    from a mild appraisal (``+mild``: "the margin is thin", "valuation is a
    bit rich"; s53wild).

    Parameters
    ----------
    parsed : mapping
        A parse's ``to_dict()``: ``gates`` (each with ``verdict``) and ``final_verdict``.
    gold_final : str or None
        The gold ``investment_verdict`` of the target.

    Examples
    --------
    >>> commits({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": None}], "final_verdict": "INCONCLUSIVE"}, "DECLINE")
    False
    >>> commits({"gates": [{"verdict": "INCONCLUSIVE"}], "final_verdict": "DECLINE"}, "INVEST")
    True
    >>> commits({"gates": [{"verdict": "REJECT"}], "final_verdict": None})
    True
    >>> commits({"gates": [{"verdict": "INCONCLUSIVE"}], "final_verdict": "INCONCLUSIVE"}, "INCONCLUSIVE")
    True
    >>> commits({"gates": [{"verdict": "PROCEED", "how": "heading+stance"}], "final_verdict": None})
    False
    >>> commits({"gates": [{"verdict": "REJECT", "how": "substance+threshold"}], "final_verdict": None})
    False
    >>> commits({"gates": [{"verdict": "REJECT", "how": "name+mild+appraisal"}], "final_verdict": None})
    False
    """
    if any(g.get("verdict") in _DECIDED_GATE and not str(g.get("how") or "").endswith(_INFERRED)
           and _THRESHOLD not in str(g.get("how") or "") and _MILD not in str(g.get("how") or "") for g in parsed.get("gates") or ()):
        return True
    final = parsed.get("final_verdict")
    if final is None:
        return False
    return final != "INCONCLUSIVE" or str(gold_final or "").strip().upper() == final


_WORD = re.compile(r"[a-z][a-z0-9']{3,}")
_STOP = frozenset(
    "with from that this than into over under what when where which while have been were their there these those "
    "about after before other only more most some such very also each does will would could should".split()
)


#: English function words. English prose runs at 15-25% of them; an answer where at least :data:`ENGLISH_SHARE` of the
#: words are among them reads as English.
_ENGLISH = frozenset("the and of to is are be it that this with for not would was were has have".split())
ENGLISH_SHARE = 0.06
_TOKEN = re.compile(r"[^\W\d_]+")
#: Function words of the Latin-script languages the parser reads (grammar/languages.yaml), none an English word and
#: none shorter than two letters: two of them mark an answer as written in another language. Stop 47 added those of
#: Dutch, Polish, Czech, Slovak, Croatian, Serbian, Slovenian, Lithuanian, Latvian, Estonian, Icelandic, Catalan,
#: Swahili, Tagalog, Indonesian, Turkish and Finnish (English words and look-alikes such as "on", "at", "to", "do",
#: "in", "per", "ve" (of "I've"), "ir" ("IR"), "un" ("UN") and "ali" left out); stop 48 those of Irish, Maltese,
#: Luxembourgish and Uzbek (not "an", "ar", "is", "ass", "net", "fir", "ham", "va"); stop 49 those of Somali, isiZulu,
#: Hausa and Scottish Gaelic (not "oo", "ee", "ka", "la", "da", "ne", "ce", "ta", "air", "sin", "tha", "ann", "ma").
_FOREIGN = frozenset("""
der die das und ist nicht ein eine mit von zu auf den dem des
de en el la los las del que es por para una se lo muy
le les et est pas une du des avec dans pour sur
il di che della delle sono
os uma não em da dos das
och att är inte och med för som det
og ikke til af med som det
het een niet zijn
jest nie się że dla
je sa že nie není ako
nije su za
yra kad nėra ka nav
ja ei kui ning
og ekki að sem
amb els és
na ni kwa katika kuwa hii
ang ng sa mga ay hindi ito
yang dengan untuk tidak ini
bir için ile değil
että ovat
agus seo faoi chun freisin bhfuil atá
għal huwa mhux biex ukoll kull minn
vun vum hunn sinn gëtt dëst eis
uchun bilan emas esa yoki lekin keyin
waa iyo ayaa waxay waxaa laakiin sida
futhi kodwa ukuthi noma ngoba kanye
kuma amma wannan domin yana suna
bha aig leis gu
""".split())
#: Decision labels of grammar/languages.yaml that are English words too: no mark of another language.
_ENGLISH_LABELS = frozenset("conclusion decision verdict recommendation result summary".split())
#: A letter of a script other than Latin (CJK, Hangul, Cyrillic, Arabic, Thai...).
_NON_LATIN = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f\u1e00-\u1eff]")
#: A Latin letter with a diacritic ("ų", "ð", "č", "ñ"): English writes almost none.
_MARKED = re.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")
#: The share of an answer's words holding a letter of :data:`_MARKED` from which the answer is in another language
#: (a Finnish list of headings: 6 of 68; no English answer of the tuned corpus holds one).
MARKED_SHARE = 0.05


#: A word with the apostrophes inside it: "it's", "don't", and Uzbek "to'siq" (barrier), "o'tdi" (passed).
_GLUED = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")


def _english_count(low: str) -> int:
    """How many words of the lower-cased ``low`` are English function words. A word glued by an apostrophe to a part of
    two letters or more is another word ("to'sig'i", Uzbek "the barrier's", is no "to"); one glued to a clitic of one
    letter counts by its head ("it's", "that's").

    >>> _english_count("it's the barrier, to'sig'i"), _english_count("o'tdi va to'g'ri")
    (2, 0)
    """
    count = 0
    for m in _GLUED.finditer(low):
        head, *rest = re.split("['\u2019]", m.group(0))
        count += head in _ENGLISH and all(len(part) < 2 for part in rest)
    return count


def reads_as_english(text: str) -> bool:
    """Whether ``text`` can be an English answer (the one test of the language of an answer, used by the parser and by
    the outcome of an unread answer alike; stop 47 made one of two that disagreed on 61 of 1080 tuned corpus answers).

    In this order: English when at least :data:`ENGLISH_SHARE` of its words are English function words ("the", "and",
    "is"...); not English when a third of its letters are of a non-Latin script, when two distinct function words or
    decision labels of another Latin-script language occur ("de", "se", "und", "ir", "kwa", "Veredicto"), or when at
    least :data:`MARKED_SHARE` of its words hold a letter with a diacritic ("Akcijų", "þarf"); English otherwise, as a
    terse English answer, a table or a JSON record with few function words is ("BUY. Strong moat, cheap price.").

    Two English words in a long answer in another language (a quoted title, "is" in Dutch) no longer make it English,
    and a long English table with few function words no longer reads as another language.

    >>> reads_as_english("Paris is the capital of France."), reads_as_english("Margen de seguridad: se rechaza.")
    (True, False)
    >>> reads_as_english("安全边际：否决。"), reads_as_english("BUY. Strong moat, cheap price, great management.")
    (False, True)
    >>> reads_as_english("Kainos riba: bendrovė viešai nurodė didžiausią kainą, virš jos supirkimas sustabdomas.")
    False
    >>> reads_as_english("Uchambuzi kwa mfumo wa Soros: hatua ya kwanza ni kutambua upendeleo katika soko.")
    False
    """
    low = text.lower()
    words = _TOKEN.findall(low)
    if words and _english_count(low) >= ENGLISH_SHARE * len(words):
        return True
    letters = sum(len(w) for w in words)
    if letters and 3 * len(_NON_LATIN.findall(text)) >= letters:
        return False
    labels = {m.group(0).lower() for m in _fv.label_finder().finditer(text)} - _ENGLISH_LABELS  # s55split
    if len(set(words) & _FOREIGN) + len(labels) >= 2:
        return False
    return not words or sum(bool(_MARKED.search(w)) for w in words) < MARKED_SHARE * len(words)


def stop_unread(parsed: Mapping[str, Any]) -> bool:
    """Whether a parse read gates as N/A (never reached) but no gate PROCEED or REJECT.

    N/A says an earlier verdict ended the analysis; when no gate read REJECT
    (or PROCEED), the verdict that ended it was written in words the parser
    does not read, so the answer is a parse failure, not an answer that
    commits to nothing (s34user: a Spanish answer, "Puerta 1 ...: SE RECHAZA"
    then "NO APLICA" on every later gate, was filed as a ``no_commitment``
    refusal). Scored the same (0 on every owed metric); only the reason differs.

    >>> stop_unread({"gates": [{"verdict": None}, {"verdict": "N/A"}, {"verdict": "N/A"}]})
    True
    >>> stop_unread({"gates": [{"verdict": "REJECT"}, {"verdict": "N/A"}]}), stop_unread({"gates": [{"verdict": "INCONCLUSIVE"}]})
    (False, False)
    >>> stop_unread({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": "N/A"}]})  # stopped on an undecided gate
    False
    >>> stop_unread({"gates": [{"verdict": "INCONCLUSIVE"}, {"verdict": None}, {"verdict": "N/A"}]})  # the stop unread
    True
    """
    verdicts = [g.get("verdict") for g in parsed.get("gates") or ()]
    if "N/A" not in verdicts or any(v in _DECIDED_GATE for v in verdicts):
        return False
    # the gate that ended the analysis is the one right before the first N/A: read INCONCLUSIVE, it is a stop the
    # parser did read and the answer commits to nothing (docs/scoring.md); unread, the stopping verdict was missed
    first = verdicts.index("N/A")
    return first == 0 or verdicts[first - 1] != "INCONCLUSIVE"


def _words(texts: Iterable[str]) -> set[str]:
    return {w for t in texts for w in _WORD.findall(t.lower().replace("_", " ")) if w not in _STOP}


#: Words of deciding on an investment, whatever the card: an answer using one speaks of the decision it was asked for.
_DECIDING = re.compile(r"(?i)\b(?:invest(?:s|ed|ing|ment|ments)?|valuation|decid(?:e|ed|ing)|decision|"
                       r"recommend(?:s|ed|ing|ation)?)\b")


def classify_unread(text: str, vocabulary: Iterable[str]) -> tuple[str, str]:
    """Why no gate could be read from ``text``: ``(reason_code, reason)``.

    Parameters
    ----------
    text : str
        The response.
    vocabulary : iterable of str
        The names of the cards it answers: card name and id, investor, gate
        names and aliases. An answer of at least three words of four letters
        or more that shares none of them with the vocabulary is off topic
        (fewer words, e.g. binary junk, is a parse failure).

    Returns
    -------
    (str, str)
        ``empty_response``, ``refusal``, ``no_commitment`` (an English answer that speaks of the decision:
        :data:`_DECIDING`), ``off_topic`` or ``parse_failure``, and a sentence.

    Examples
    --------
    >>> classify_unread("   ", ["Margin of Safety"])[0], classify_unread("I cannot help with that.", [])[0]
    ('empty_response', 'refusal')
    >>> classify_unread("I don't know.", [])[0], classify_unread("Keine Ahnung.", [])[0]
    ('no_commitment', 'no_commitment')
    >>> classify_unread("Paris is the capital of France.", ["Margin of Safety", "Warren Buffett"])[0]
    'off_topic'
    >>> classify_unread("The margin looks thin; hard to say.", ["Margin of Safety"])[0]
    'parse_failure'
    >>> classify_unread("It depends on your horizon; an investor would want more facts before deciding.", ["Net Current Assets"])[0]
    'no_commitment'
    >>> classify_unread("Margen de seguridad: se rechaza, precio muy alto.", ["Margin of Safety"])
    ('parse_failure', "no gate of the card could be read (the answer does not read as English, the language of the card's names)")
    """
    if not text.strip():
        return "empty_response", "the response is empty"
    if professes_ignorance(text):
        snippet = " ".join(text.split())[:80]
        return NO_COMMITMENT, f"the answer says only that it does not know: {snippet!r} (a refusal: it commits to nothing)"
    if defers_the_decision(text):
        snippet = " ".join(text.split())[:80]
        return NO_COMMITMENT, (f"the answer says only that the decision depends on the reader: {snippet!r} (a refusal: it "
                               "commits to nothing)")
    if is_refusal(text):
        snippet = " ".join(text.split())[:80]
        return "refusal", f"the model declined: {snippet!r}"
    words = _words([text])
    if len(words) >= 3 and _DECIDING.search(text) and reads_as_english(text):
        # about the decision, and not one verdict read (no gate, no final): the answer holds back, on every card
        # alike (s37user: one such text was off topic on one card and a parse failure on another)
        return NO_COMMITMENT, ("the answer speaks of the decision but states no verdict: no gate and no final verdict "
                               "read (a refusal)")
    if len(words) >= 3 and not (words & _words(vocabulary)):
        if not reads_as_english(text):
            return "parse_failure", ("no gate of the card could be read (the answer does not read as English, "
                                     "the language of the card's names)")
        return "off_topic", "the response names no gate, card or investor of the item"
    return "parse_failure", "no gate of the card could be read"


def uncommitted_reason(text: str, parsed: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """``(reason_code, reason)`` of an answer from which no commitment was read (:func:`commits` false for every target).

    ``no_commitment`` (a refusal: the model's) when what was read says the answer holds back ("unknown",
    INCONCLUSIVE, "I'm not sure." after each gate); ``parse_failure`` (the parser's gap) when gates read N/A
    with none decided (:func:`stop_unread`: the verdict that ended the analysis was not
    read), or when no verdict at all was read from an answer that does not read as English (its verdict
    words were not recognised; s34user: "SE SUPERA" on five gates and "Veredicto final: INVERTIR").
    """
    if any(stop_unread(p) for p in parsed):
        return "parse_failure", ("gates read N/A (not reached) but none PROCEED or REJECT: the verdict that ended "
                                 "the analysis was not read (a parse failure, not a refusal)")
    nothing = all(g.get("verdict") is None for p in parsed for g in p.get("gates") or ())
    if nothing and not reads_as_english(text):
        return "parse_failure", ("no verdict read from an answer that does not read as English: its verdict words "
                                 "were not recognised (a parse failure, not a refusal)")
    return NO_COMMITMENT, ("the answer commits to no verdict: no gate read PROCEED or REJECT and no decided final "
                           "verdict (a refusal: its gate list alone would earn coverage and order)")


def read_any(parsed: Mapping[str, Any]) -> bool:
    """Whether a parse read anything to score (``ipb score`` and :func:`filing` alike): a gate, or a stated final
    verdict with no gate recognised.

    >>> read_any({"status": "parse_failure", "final_verdict": "DECLINE"}), read_any({"status": "parse_failure"})
    (True, False)
    """
    return parsed.get("status") == "ok" or parsed.get("final_verdict") is not None


def unscored_reason(text: str, parsed: Sequence[Mapping[str, Any]], vocabulary: Iterable[str],
                    gold_finals: Sequence[str | None]) -> tuple[str, str] | None:
    """Why an answer is not scored, ``(reason_code, sentence)``, or None when it is: the one order of tests that
    ``ipb score`` (:mod:`ipb.scoring.run`, over every card an item names) and :func:`filing` (``ipb parse``, one
    card) both follow.

    Nothing read against any card (no gate, no stated final verdict: :func:`read_any`) -> :func:`classify_unread`,
    whose ``parse_failure`` sentence is the parser's own reasons; read but committed to nothing against every card
    (:func:`commits`) -> :func:`uncommitted_reason`.

    Parameters
    ----------
    text : str
        The answer.
    parsed : sequence of mapping
        ``ParsedResponse.to_dict()`` of the answer against each card of the item, in the item's order.
    vocabulary : iterable of str
        The cards' words for the off-topic test (card ids and names, investors, gate names and aliases).
    gold_finals : sequence of str or None
        The item's gold final verdict per card, aligned with ``parsed`` (None when unknown).

    >>> unscored_reason("I'm sorry, but I can't help with that.", [{"status": "parse_failure"}], ["Payout"], [None])[0]
    'refusal'
    >>> unscored_reason("Payout ratio: ???", [{"status": "parse_failure", "reason": "no gate found"}], ["Payout"], [None])
    ('parse_failure', 'no gate found')
    >>> unscored_reason("Final verdict: BUY", [{"status": "parse_failure", "final_verdict": "BUY"}], [], [None]) is None
    True
    """
    if not any(read_any(p) for p in parsed):
        code, why = classify_unread(text, vocabulary)
        failed = [str(p.get("reason")) for p in parsed if str(p.get("reason") or "").startswith(EXTRACTOR_FAILURE)]
        if failed and code not in ("empty_response", "refusal") and not professes_ignorance(text) \
                and not defers_the_decision(text):
            # the extractor read nothing: only what the text alone shows (empty, a refusal's words) is the model's
            return "parse_failure", "; ".join(dict.fromkeys(failed))
        if code == "parse_failure":
            why = "; ".join(dict.fromkeys(str(p.get("reason") or "unparsed") for p in parsed))
        return code, why
    if not any(commits(p, gold) for p, gold in zip(parsed, gold_finals)):
        return uncommitted_reason(text, parsed)
    return None


def filing(text: str, parsed: Mapping[str, Any], vocabulary: Iterable[str],
           gold_final: str | None = None) -> tuple[str, str | None, str]:
    """How ``ipb score`` files one answer to a one-card item: ``(outcome, reason_code, sentence)``.

    The scorer's order of tests (:func:`unscored_reason`), for one card: nothing
    read (no gate, no stated final verdict) -> :func:`classify_unread`; read
    but committed to nothing -> :func:`uncommitted_reason`; no gate read but a
    stated final verdict -> scored on that verdict alone (docs/scoring.md, "An
    answer with no gate read"); otherwise scored. ``ipb parse`` prints it so that
    its "parse failure" is never taken for the score's verdict on the answer
    (s41user: "Final verdict: BUY" was a parse failure in ``ipb parse`` and
    scored 0.20 in ``ipb score``; "I'm sorry, but I can't help with that." a
    parse failure in one and a refusal in the other).

    Parameters
    ----------
    text : str
        The answer.
    parsed : mapping
        ``ParsedResponse.to_dict()`` of the answer against the card.
    vocabulary : iterable of str
        The card's words for the off-topic test: card id and name, investor,
        gate names and aliases.
    gold_final : str or None
        The item's gold final verdict, when known (a final INCONCLUSIVE
        commits only where the gold is INCONCLUSIVE: :func:`commits`).

    Returns
    -------
    (str, str or None, str)
        An outcome of :data:`OUTCOMES` (``scored``, ``refusal`` or
        ``parse_failure``), its reason code (None when scored) and a sentence.

    Examples
    --------
    >>> filing("I'm sorry, but I can't help with that.", {"status": "parse_failure"}, ["Payout ratio"])[:2]
    ('refusal', 'refusal')
    >>> filing("Final verdict: BUY", {"status": "parse_failure", "final_verdict": "BUY"}, ["Payout ratio"])[:2]
    ('scored', None)
    >>> filing("Payout ratio: unknown", {"status": "ok", "gates": [{"gate": 1, "verdict": "INCONCLUSIVE"}]}, [])[:2]
    ('refusal', 'no_commitment')
    """
    unscored = unscored_reason(text, [parsed], vocabulary, [gold_final])
    if unscored is not None:
        code, why = unscored
        return outcome_of("unscored", code), code, why
    if parsed.get("status") != "ok":
        return "scored", None, (f"on its stated final verdict {parsed.get('final_verdict')} alone: no gate read, "
                                "every metric but VerdictAcc at its failure value (an L7 composite of 0.20 at most)")
    return "scored", None, "on the gate trace and final verdict read"


def _every_sentence(body: str, says: Callable[[str], bool]) -> bool:
    """Whether every sentence of ``body`` (one line of text), its filler words ("Sorry,", "Honestly,") set aside, is
    one that ``says`` accepts, and at least one is: the shared test of :func:`professes_ignorance` and
    :func:`defers_the_decision`."""
    said = False
    for sentence in re.split(r"[.!?…;]+\s*|\s+[-–—]\s+", body):
        sentence = sentence.strip(" ,\"'“”‘’*_`()")
        if not sentence:
            continue
        head = re.match(_IGNORANCE_FILLER.pattern + r"\s*[,:]?\s*", sentence, re.IGNORECASE)
        rest = sentence[head.end():] if head else sentence
        if not rest or _IGNORANCE_FILLER.fullmatch(rest):
            continue
        if not says(rest.rstrip(" ,")):
            return False
        said = True
    return said
