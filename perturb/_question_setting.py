"""How an L7 question names its investor and framework, and the card's own setting and ask (card field ``question:``).

Split from :mod:`ipb.perturb.render` (module size limit), which builds each question's fixed parts with these;
:mod:`ipb.perturb.question_facts` reads a question's setting line back with :func:`question_opening`.
"""

from __future__ import annotations

from ipb.engine._card_question import fill_question_text
from ipb.engine.card import Card
from ipb.perturb.frame import Frame

__all__ = ["possessor", "own_title", "card_words", "question_opening"]


def possessor(investor: str) -> str:
    """An investor as a possessor: an institution written ``NBIM (Norges Bank ...)`` by its short name.

    >>> possessor("NBIM (Norges Bank Investment Management)"), possessor("Howard Marks")
    ('NBIM', 'Howard Marks')
    """
    short, sep, _ = investor.partition(" (")
    return short if sep and investor.endswith(")") and short else investor


def own_title(possessor: str, name: str) -> str:
    """A card's name as the question writes it after its investor's possessive: a name that starts with the
    investor (full name or surname, with or without ``'s``) loses that word, so the question does not name the
    investor twice (s52newuser finding 6: "Apply Howard Marks's Marks Market Cycle ...").

    >>> own_title("Howard Marks", "Marks Market Cycle Positioning Framework")
    'Market Cycle Positioning Framework'
    >>> own_title("Benjamin Graham", "Graham’s Seven Tests"), own_title("NBIM", "NBIM Exclusion Screen")
    ('Seven Tests', 'Exclusion Screen')
    >>> own_title("Ray Dalio", "All-Weather Portfolio Construction"), own_title("Howard Marks", "Marks")
    ('All-Weather Portfolio Construction', 'Marks')
    """
    words = possessor.split()
    for who in dict.fromkeys((possessor, words[-1] if words else possessor)):
        for prefix in (f"{who}'s ", f"{who}’s ", f"{who} "):
            if name.startswith(prefix) and name[len(prefix):].strip():
                return name[len(prefix):].lstrip()
    return name


def card_words(card: Card, investor: str) -> tuple[str, str]:
    """The card's opening sentence and its ask (followed by a space, as the L7 template joins it to the task),
    slots filled; ``("", "")`` for a card without ``question:``, whose questions read as they always have.

    ``investor`` is the investor as the question names it (:func:`possessor`); ``{framework}`` is the card's name as
    written, and :func:`own_title` of it right after ``{investor}'s`` (:func:`ipb.engine._card_question.fill_question_text`).

    >>> from ipb.engine._card_question import CardQuestion
    >>> class Stub:
    ...     name = "John Neff Screen"
    ...     question = CardQuestion("{investor}'s fund is applying the {framework}.", "Does {investor}'s {framework} pass it?")
    >>> card_words(Stub(), "John Neff")  # type: ignore[arg-type]
    ("John Neff's fund is applying the John Neff Screen.", "Does John Neff's Screen pass it? ")
    """
    words = card.question
    if words is None:
        return "", ""
    short = own_title(investor, card.name)
    opening = fill_question_text(words.setting, investor, card.name, short)
    ask = fill_question_text(words.ask, investor, card.name, short)
    return opening, ask + " " if ask else ""


def question_opening(frame: Frame) -> str:
    """The card's setting sentence that opens the first line of each question of ``frame``; empty for an L8 frame
    (several cards share its questions) or a card without one."""
    if frame.layer != "L7":
        return ""
    card = frame.cards[0].card
    investor = possessor(card.investor)
    return card_words(card, investor)[0]
