"""Gate terms in running prose, when the answer names no gate any other way (issue 13, class G-C; s58prose).

A key noun of ``grammar/gate_terms.yaml`` ("Schulde", "prufitti", "Pries") names a gate only as a title
(:func:`._foreign_terms.at_title`): in running prose it is as often a fact of another criterion. But a writer in a
language the card's sidecar does not cover, who answers in paragraphs without a heading, names every criterion only
by such nouns in their sentences ("Wo staht s Land im Schuldezyklus? Mir säged: am Top."); read by titles alone the
answer named no gate and was a parse failure. :func:`prose_terms` admits the prose occurrences then, and only then:
when no card gate is named any other way (the last-resort reading :func:`._parser.parse_response` runs on an answer
that would otherwise be a "no gate recognised" failure), a gate named by a key noun in its sentence is a better
reading than none, and no other reading can be displaced by it.
"""

from __future__ import annotations

from ipb.scoring.parse._common import _Mention

__all__ = ["prose_terms"]


def prose_terms(found: list[_Mention], in_prose: list[_Mention]) -> list[_Mention]:
    """The term mentions ``in_prose`` to add to the mentions ``found``: all of them when ``found`` names no card gate
    (every mention in it is an invented label or names no gate), none otherwise.

    >>> term = _Mention(30, 36, (2,), "term")
    >>> prose_terms([], [term]) == [term], prose_terms([_Mention(0, 6, (1,), "name")], [term])
    (True, [])
    >>> prose_terms([_Mention(0, 6, (), "label", invented="Cash Flow")], [term]) == [term]  # an invented label only
    True
    """
    if any(m.gates and m.invented is None for m in found):
        return []
    return list(in_prose)
