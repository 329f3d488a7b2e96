"""Yes / No answers under a header or key that asks whether the gate's state is the good one or the bad one (issue 13).

Checklists ask their question in the column header or the field name and answer it in the cell:
``| Criterion | Evidence | Favourable? |`` over ``| Economic moat | margins fall | No |``, ``| Fits? |``,
``| Sell trigger fired? |``, or a JSON / YAML field ``"favourable": false``, ``posture_fits: true``. The
answer is the gate's verdict once the question's polarity is known:

==========================================  ==========================================
the question asks about                     "yes" reads
==========================================  ==========================================
an approving state: favourable, OK, fits,   PROCEED ("no" REJECT)
acceptable, adequate, sufficient, sound,
intact, within the limit, confirms
a failing state: a sell signal, a trigger   REJECT ("no" PROCEED)
fired, broken, a red flag, a warning
==========================================  ==========================================

A header naming neither ("Loop back?", "Which quadrant?") says nothing about a gate's verdict and is left alone.
The words are matched on the header's normalized words (:func:`ipb.scoring._text.normalize`) by anchored
patterns with no nested repetition (linear in the header's length; a header is capped at
:data:`MAX_HEADER_CHARS` anyway).
"""

from __future__ import annotations

import re

from ipb.scoring._text import normalize

__all__ = ["APPROVAL_KEY", "MAX_HEADER_CHARS", "question_polarity"]

#: A header longer than this is prose, not a column's question.
MAX_HEADER_CHARS = 60
#: Approving words that also make a JSON / YAML key a verdict (:data:`APPROVAL_KEY`); a subset of
#: :data:`_APPROVAL_WORDS`, which is built from it so the two lists cannot drift apart.
_APPROVAL_KEY_WORDS = r"favou?rable|acceptable|adequate|sufficient|fits?|intact|compliant|permitted|allowed"
#: Words that name the approving state a criterion is checked for ("favourable", "OK", "fits", "within the limit").
#: Only ever matched whole (``fullmatch``), so the order of the alternatives does not change what matches.
_APPROVAL_WORDS = (_APPROVAL_KEY_WORDS + r"|ok|okay|fine|sound|healthy|fitting|holds?|"
                   r"confirms?|confirmed|achieved|within(?: (?:the )?(?:limit|bar|range|band|cap|rule)s?)?|"
                   r"in (?:range|line|band)|good enough")
#: Words that name the failing state ("sell signal", "trigger fired", "broken", "red flag").
_FAILURE_WORDS = (r"sell(?: signal| trigger| flag)?|exit(?: signal)?|broken|broke|(?:trigger|signal|alarm|alert)(?: fired| hit| tripped)?|"
                  r"fired|tripped|red flag|warning|concern|problem|breached|violated")
#: A short header: at most two leading words (the subject: "criterion", "sell trigger"), then the state word, then at most
#: two trailing words ("fired", "the bar").
_APPROVING = re.compile(r"(?:[a-z0-9]+ ){0,2}(?:" + _APPROVAL_WORDS + r")(?: [a-z0-9]+){0,2}")
_FAILING = re.compile(r"(?:[a-z0-9]+ ){0,2}(?:" + _FAILURE_WORDS + r")(?: [a-z0-9]+){0,2}")
#: A JSON / YAML key whose yes / no value is a verdict because it names the approving state
#: ("favourable", "posture_fits", "permitted_by_policy", "story_intact"); its words are joined by underscores.
APPROVAL_KEY = re.compile(r"(?<![a-z])(?:" + _APPROVAL_KEY_WORDS + r")(?![a-z])")


def question_polarity(header: str) -> str | None:
    """"pass" when a Yes under ``header`` says the gate is in its approving state, "fail" when it says the gate failed,
    None when the header asks neither (or is not a question of a checklist column).

    A header that is not a question counts only when it is one approving word ("Favourable", "OK"); a question mark
    lets words around the state word ("Criterion OK?", "Sell trigger fired?"), and only a question asks about a failing
    state (a column headed "Signal" holds readings, not answers).

    Examples
    --------
    >>> [question_polarity(h) for h in ("Favourable?", "OK", "Sell trigger fired?", "Fits the bar?", "Loop back?", "Signal")]
    ['pass', 'pass', 'fail', 'pass', None, None]
    """
    if len(header) > MAX_HEADER_CHARS:
        return None
    asked = "?" in header or "\uff1f" in header
    head = normalize(header)
    if not head:
        return None
    if asked and _FAILING.fullmatch(head):
        return "fail"
    if _APPROVING.fullmatch(head) and (asked or " " not in head):
        return "pass"
    return None
