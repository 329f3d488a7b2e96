"""Whose label it is: a short label before an outcome word that names another party or another time ("Decision for
the bears:", "Their verdict:", "The committee's call in 2019:", "Bull case:", "Analyst consensus:") gives that party's
outcome, not the writer's decision (paper §7.5; issue 13, break41 item 5c).

The writer's own labels are untouched: a bare cue ("Decision:", "Bottom line:"), the writer's possessive ("My
decision:", "Our call:"), an addressee or a period the writer decides for ("Decision for the course portfolio:",
"Recommendation to the board:", "Verdict for Q3:"). Who else speaks comes from ``grammar/languages.yaml``'s
``attribution`` lists (``voices``, ``others``, ``own_possessive``, ``past``, ``now``), read by :mod:`._attributed`.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._attributed import words

__all__ = ["label_of_another"]

#: A label opening its line (after list or quote marks, a list number) or its sentence, ending right before ``start``
#: in a colon or a dash: ``label`` is its text (at most 50 characters, no sentence end inside).
_LABEL = re.compile(r"(?:^|(?<=\n)|(?<=[.!?;])[ \t]+)[ \t>*_#-]*(?:\d{1,2}[./)][ \t]+)?[*_]{0,2}"
                    r"(?P<label>[^\W\d_][^\n:.;!?\u2014\u2013*_]{0,50}?)[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)[ \t]*"
                    r"[*_]{0,2}[ \t]*[\"'\u201c]?[ \t]*(?:an?[ \t]+)?\Z")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]*)*")
#: Nouns of a decision a label names ("verdict", "call"): a label holding one states whose or when the decision is.
_CUES = frozenset({"decision", "verdict", "recommendation", "call", "conclusion", "outcome", "action", "answer", "rating",
                   "advice", "ruling", "view", "take", "position", "pick"})
#: Third-person possessive determiners opening a label: the verdict belongs to someone the text spoke of before.
_THIRD_PERSON = frozenset({"their", "his", "her", "its"})
#: Advice given to someone in the piece ("Her answer to the member:", "Their advice to clients:"): the piece's answer,
#: as the corpus labels a reported expert's reply (tests/scoring/corpus n38-debt-cycle-member-qa), not a side's view.
_ADDRESSEE = re.compile(r"\b(?:to|for)[ \t]+(?:the|our|my|your|its|their|her|his)[ \t]+[^\W\d_]")
#: Another time inside the label: "in 2019", "during 2008", "last year", "previous quarter", "prior cycle".
_ANOTHER_TIME = re.compile(r"\b(?:(?:in|during|back[ \t]+in)[ \t]+(?:(?:early|late|mid)[ \t-]+)?(?:19|20)[0-9]{2}|"
                           r"(?:last|previous|prior)[ \t]+(?:year|quarter|month|week|time|cycle|round|review|meeting))\b")


#: The company's own people and organs, whose decision labels give the company's position, never the writer's verdict on
#: the company ("Management's recommendation: invest.", "CEO's view: buy", "Management recommendation:"; break41, read
#: INVEST 0.95). "Board" is left out: a fund's board memo is its own house's decision (corpus n28, tuned).
_COMPANY_PARTIES = frozenset({"management", "ceo", "cfo", "chairman", "executives", "insiders", "issuer", "company",
                              "founder", "founders"})


def _company_owned(toks: list[str], cued: bool) -> bool:
    """Whether a decision label is owned by the company's own people: a possessive of a :data:`_COMPANY_PARTIES` word
    ("Management's recommendation:") or such a word right before the decision noun ("Management recommendation:")."""
    if not cued:
        return False
    for k, tok in enumerate(toks):
        owner = _possessor(tok)
        if owner in _COMPANY_PARTIES:
            return True
        if tok in _COMPANY_PARTIES and k + 1 < len(toks) and toks[k + 1] in _CUES:
            return True
    return False


#: The writer's own decision label later in the paragraph, set against a party's: "Ours:", "Mine:", "Our verdict:",
#: "My call -" opening a sentence or a line (break43 #9: "The newsletter's verdict: invest. Ours: decline." read INVEST).
_OWN_LABEL_AFTER = re.compile(r"(?i)(?:(?<=\n)|(?<=[.!?;])[ \t]+)[ \t>*_#-]*(?:ours|mine|(?:my|our)[ \t]+(?:own[ \t]+)?"
                              r"(?:(?:final|overall)[ \t]+)?(?:decision|verdict|recommendation|call|conclusion|answer|view|take|rating))"
                              r"[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)")


def _paragraph_end(text: str, start: int) -> int:
    """Where the paragraph holding ``start`` ends (a blank line), at most 300 characters on."""
    end = text.find("\n\n", start, start + 300)
    return end if end >= 0 else min(len(text), start + 300)


def _possessor(token: str) -> str | None:
    """The owner named by a possessive token ("committee's" -> "committee", "bears'" -> "bears"); None for no possessive."""
    token = token.replace("\u2019", "'")
    if token.endswith("'s"):
        return token[:-2]
    if token.endswith("s'"):
        return token[:-1]
    return None


def label_of_another(text: str, line_start: int, start: int) -> bool:
    """Whether ``text[start:]`` is the value of a label naming another party or another time.

    Parameters
    ----------
    text
        The answer (the parser's masked text; any case).
    line_start, start
        Offsets: the start of the line holding the outcome word, and the outcome word's start.

    Returns
    -------
    bool
        True when the label right before ``start`` (on its line or opening its sentence, at most 50 characters, no
        ``aside`` word such as "unlike", "despite") names a ``voices`` or ``others`` side as its owner: its last word
        ("Analyst consensus:"), a possessive ("The bears' verdict:"), the holder of a view noun ("Bull case:") or whom
        a decision cue is for ("Decision for the bears:", "... for the rival fund:"); or opens on their/his/her/its
        with a decision noun and no addressee ("Their verdict:"; not "Her answer to the member:", the reply a piece
        gives); or holds a decision noun and another time ("The committee's call in 2019:", "Verdict back then:").
        Another possessor alone is no other party: "Munger's verdict:" is a lens the writer speaks in, "The
        strategists' common advice to clients:" the reported answer of a wire story (corpus
        n32-munger-lenses-issue-example-output-pass, n25-debtcyc-wire-rewrite-duplicated-lead-01). A sentence about a
        side ("The bears are wrong:") is no label of theirs.

    References
    ----------
    Paper §7.5 (structured response parsing); issue 13, break41 item 5c.

    >>> t = "Decision for the bears: decline."
    >>> label_of_another(t, 0, t.index("decline"))
    True
    >>> t = "Decision for the course portfolio: decline."
    >>> label_of_another(t, 0, t.index("decline"))
    False
    >>> t = "Management's recommendation: invest."
    >>> label_of_another(t, 0, t.index("invest"))
    True
    >>> t = "Our call: decline."
    >>> label_of_another(t, 0, t.index("decline"))
    False
    >>> t = "The newsletter's verdict: invest. Ours: decline."
    >>> label_of_another(t, 0, t.index("invest")), label_of_another(t, 0, t.index("decline"))
    (True, False)
    """
    m = _LABEL.search(text, max(line_start, start - 70), start)
    if m is None:
        return False
    label = m.group("label").lower()
    toks = [t.replace("\u2019", "'") for t in _WORD.findall(label)]
    w = words()
    if not toks or not w.single["aside"].isdisjoint(toks):
        return False  # "Unlike the bears:", "Despite the critics:": the writer's own verdict against theirs
    if any(_possessor(t) not in (None, "") for t in toks) and _OWN_LABEL_AFTER.search(text, start, _paragraph_end(text, start)):
        return True  # "The newsletter's verdict: invest. Ours: decline.": a party's label set against the writer's own
    if _speaker_label(toks):
        return True  # "The bank recommends: invest." (the writer's own "We decline." follows)
    cued = any(t.split("'")[0] in _CUES or t.split("'")[0] in w.single["views"] for t in toks)
    if _company_owned(toks, cued):
        return True  # "Management's recommendation:", "The CEO's call:": the company's own position on itself
    if toks[0] in _THIRD_PERSON and cued and _ADDRESSEE.search(label) is None:
        return True  # "Their verdict:"; not "Their problem is debt:" (no label of a verdict), "Her answer to the member:"
    past = w.phrase["past"]
    if cued and (_ANOTHER_TIME.search(label) is not None or past is not None and past.search(label) is not None):
        return True  # "The committee's call in 2019:", "Decision for the fund last year:", "Verdict back then:"
    others = w.phrase["others"]
    for k, tok in enumerate(toks):
        voice = tok in w.single["voices"] or (_possessor(tok) or tok) in w.single["voices"]
        other = voice or others is not None and others.fullmatch(tok) is not None
        if not other:
            continue
        # the side names the label's owner: its last word or the view's holder ("Analyst consensus:", "Bull case:",
        # "The bears' verdict:"), or whom the decision is for ("Decision for the bears:", "... for the rival fund:");
        # not a sentence about them ("The bears are wrong:", "The bears miss the point:")
        if k == len(toks) - 1 or _possessor(tok) or toks[k + 1].split("'")[0] in w.single["views"] \
                or any(t in ("for", "to", "of") for t in toks[max(0, k - 3) : k]) and cued:
            return True
    return False


#: Verbs of advising that close a label with their speaker before them ("The bank recommends:", "Die Bank empfiehlt:"),
#: beside the ``reporting`` verbs of ``grammar/languages.yaml`` ("Goldman says:", "Der Analyst schreibt:").
_ADVISING = frozenset({"recommends", "recommended", "advises", "advised", "urges", "urged", "empfiehlt", "empfehlen",
                       "empfahl", "rät", "riet", "recommande", "recommandent", "conseille", "conseillent", "recomienda",
                       "recomiendan", "recomendó", "aconseja", "recomenda", "recomendam", "recomendou", "aconselha",
                       "consiglia", "consigliano", "raccomanda", "raccomandano"})
#: A memo's name for its own house ("Staff recommends:"): the writer's recommendation (corpus n28 board memorandum).
_HOUSE = frozenset({"staff"})


def _speaker_label(toks: list[str]) -> bool:
    """Whether a label's words end on a reporting or advising verb whose subject is not the writer: "The bank
    recommends:", "Goldman says:", "Der Analyst schreibt:"; not "We recommend:", "I'd say:", "Staff recommends:", "The
    card says:" (the case's own rule: ``facts``)."""
    w = words()
    if len(toks) < 2 or (toks[-1] not in w.single["reporting"] and toks[-1] not in _ADVISING):
        return False
    subject = toks[:-1]
    mine = w.single["own"] | w.single["own_possessive"] | _HOUSE
    return mine.isdisjoint(t.split("'")[0] for t in subject) and w.single["facts"].isdisjoint(subject)
