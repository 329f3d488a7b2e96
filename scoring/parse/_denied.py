"""Another's verdict that the writer denies right after reporting it (issue 13; paper §7.5; break41 item 8).

"Management calls the cash position comfortable. We do not." and "The bulls say the balance sheet is fine; I disagree."
report another speaker's appraisal (:mod:`._attributed` reads it as that speaker's, weak) and then deny it in the
writer's own short clause. The writer's verdict is the denial: the reported verdict turned over, read at the weak level
(under the 0.7 review bar: the writer names no figure of its own).

A denial is a short clause of its own right after the reported one (after its sentence end, a semicolon, a dash or
", but"): the writer (I, we, the language's word for them) + a verb of denial or the bare negated auxiliary, with
nothing after it but the clause's end ("We do not.", "I disagree;", "We don't agree:", "Not so.", "Wir nicht.",
"Nosotros no.", "Je ne suis pas d'accord."). "I don't think the price matters" is no denial (the clause runs on).
"""

from __future__ import annotations

import re
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._attributed import attributed, capped
from ipb.scoring.parse._contradicted import contradicted
from ipb.scoring.parse._elided import taken_back
from ipb.scoring.parse._others_test import figure_fails_card, figure_fails_necessary, others_standard
from ipb.scoring.parse._thresholds import gate_bars, necessary_bars

__all__ = ["appraised_by", "denied_by_writer", "owned", "writer_denies"]

#: What may stand between the reported verdict word and the denial: the rest of the reported sentence (no line break).
_REST = re.compile(r"[^\n.;!?\u2014]{0,120}?(?:[.;!?\u2014]|,?[ \t]+but\b|,?[ \t]+yet\b)")
_DENIAL = re.compile(
    r"(?i)[ \t*_\"'\u201d]*(?:(?:but|yet|and)[ \t]+)?(?:"
    r"(?:i|we)[ \t]+(?:do[ \t]+not|don['\u2019]t|disagree|differ|beg[ \t]+to[ \t]+differ|am[ \t]+not[ \t]+convinced|"
    r"are[ \t]+not[ \t]+convinced|['\u2019]m[ \t]+not[ \t]+convinced|['\u2019]re[ \t]+not[ \t]+convinced)"
    r"(?:[ \t]+(?:agree|think[ \t]+so|see[ \t]+it[ \t]+that[ \t]+way|buy[ \t]+it))?"
    r"|not[ \t]+so|not[ \t]+us|not[ \t]+me|hardly|wrong"
    r"|(?:ich|wir)[ \t]+(?:nicht|sehen?[ \t]+das[ \t]+anders|widerspreche|widersprechen)"
    r"|(?:je|nous)[ \t]+ne[ \t]+(?:suis|sommes)[ \t]+pas[ \t]+d['\u2019]accord|pas[ \t]+nous|pas[ \t]+moi"
    r"|(?:yo|nosotros|nosotras)[ \t]+no|no[ \t]+(?:estoy|estamos)[ \t]+de[ \t]+acuerdo"
    r"|(?:io|noi)[ \t]+no|non[ \t]+(?:sono|siamo)[ \t]+d['\u2019]accordo"
    r"|(?:eu|nós)[ \t]+não|não[ \t]+concordo|não[ \t]+concordamos"
    r")[ \t]*(?:[.:;!\u2014,]|[ \t]-[ \t]|\n|\Z)")


def denied_by_writer(text: str, end: int, ceiling: int) -> bool:
    """Whether the writer denies, in a short clause of its own right after it, the reported verdict word ending at
    ``end`` (module docstring); ``ceiling`` bounds the look ahead (the end of the word's unit or the text).

    >>> t = "Management calls the cash position comfortable. We do not: $3B of debt falls due."
    >>> denied_by_writer(t, t.index("comfortable") + 11, len(t))
    True
    >>> t = "The bulls say the balance sheet is fine; I disagree."
    >>> denied_by_writer(t, t.index("fine") + 4, len(t))
    True
    >>> t = "The bulls say the balance sheet is fine. I don't think the price matters."
    >>> denied_by_writer(t, t.index("fine") + 4, len(t))
    False
    >>> t = "The bulls say the balance sheet is fine, and I agree."
    >>> denied_by_writer(t, t.index("fine") + 4, len(t))
    False
    """
    rest = _REST.match(text, end, min(len(text), ceiling + 200))
    if rest is None:
        return False
    return _DENIAL.match(text, rest.end(), min(len(text), rest.end() + 80)) is not None


def writer_denies(state: Any, unit: Any, start: int, end: int, verdict: str | None) -> bool:
    """Whether the PROCEED or REJECT word ``state.masked[start:end]`` of ``unit`` is another speaker's
    (:func:`._attributed.attributed`) and the writer denies it right after (:func:`denied_by_writer`): its verdict is
    then the writer's, turned over (the caller keeps it at the weak level)."""
    if verdict not in (vw.PROCEED, vw.REJECT) or not denied_by_writer(state.masked, end, unit.end):
        return False
    return attributed(state.masked, unit.start, start, end, unit.end, state.low) == "speaker"


def appraised_by(state: Any, unit: Any, start: int, end: int, verdict: str | None, level: int) -> tuple[str | None, int]:
    """The (verdict, level) of an appraisal read as a gate's verdict ("the cash position is comfortable": PROCEED,
    hedged) once its speaker is known: another speaker's appraisal is weak ("Management calls it comfortable."), and
    turned over when the writer denies it right after ("... We do not."); the writer's own keeps ``level``.

    References
    ----------
    Paper §7.5; break41 item 8 ("Management calls the cash position comfortable. We do not: ..." read PROCEED 0.65).
    """
    if verdict not in (vw.PROCEED, vw.REJECT) or level <= vw.WEAK:
        return verdict, level
    if attributed(state.masked, unit.start, start, end, unit.end, state.low) != "speaker":
        return verdict, level
    if denied_by_writer(state.masked, end, unit.end):
        return (vw.REJECT if verdict == vw.PROCEED else vw.PROCEED), vw.WEAK
    return verdict, vw.WEAK


def owned(judged: tuple[str, int, bool], state: Any, unit: Any, start: int, end: int) -> tuple[str, int, bool, int]:
    """(verdict, level, derived, stated level) of a judged verdict word (``judged``: verdict, level, negated) once its
    speaker is known: another speaker's, time's or company's word is capped weak (:func:`._attributed.capped`), and
    another speaker's that the writer denies right after is turned over ("The bulls say it is fine; I disagree.")."""
    verdict, level, derived = judged
    got = capped(level, state, unit, start, end)
    if got == level > vw.WEAK and unit.gate is not None and others_standard(state.masked, end, unit.end, state.card.investor) \
            and (figure_fails_card(figures := state._figures(unit.start, start), gate_bars(state.card).get(unit.gate), verdict)
                 or figure_fails_necessary(figures, necessary_bars(state.card).get(unit.gate), verdict)
                 or contradicted(state, unit, verdict)):
        # "P/E 19, which passes Lynch's test" on Graham's 15x bar: another party's bar, not the gate's; the figure may
        # be a plain number after "P/E" or stand after the word ("passes Lynch's test at a P/E of 19": s45left)
        got = vw.WEAK
    if got < level and writer_denies(state, unit, start, end, verdict):
        return (vw.REJECT if verdict == vw.PROCEED else vw.PROCEED), got, True, level
    if got > vw.WEAK and taken_back(state, start, end):
        got = vw.WEAK  # "Costco passes; this one does not", "it passed; that call was wrong" (_elided.py)
    return verdict, got, derived, level
