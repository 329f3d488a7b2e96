"""A verdict the writer takes back right after writing it: a joke, "(not)", "just kidding".

"Final verdict: INVEST -- no, that's a joke." commits to nothing: the writer states an outcome and withdraws it in the
same breath. A careful reader credits no verdict there (s47break 7). The withdrawal stands either at the end of the
outcome's own sentence, after a break ("INVEST -- no, that's a joke", "INVEST (not)", "INVEST, just kidding"), or as
the whole of the next sentence ("INVEST. Okay, not really.", "INVEST. Just kidding!").

A withdrawal commits to nothing, also on a card with two outcomes: "Final: INVEST (not)" is no verdict, never the other
outcome, since the writer has said what the answer is not, not what it is (s52parse). The
bracketed forms are "(not)", "(not really)", "(not seriously)", "(kidding)", "(jk)" and the sarcasm tag "(/s)" or a
trailing " /s"; "(not yet)", "(not quite)" and "(not financial advice)" qualify a verdict and withdraw nothing.

Only a withdrawal with no outcome of its own is read here: "INVEST -- no, DECLINE" is a repair, which the final
reader already takes (:data:`._final_words._NO_BETWEEN`).

>>> t = "Final verdict: INVEST -- no, that's a joke."
>>> withdrawn_after(t, t.index("INVEST") + 6, len(t))
True
>>> t = "Final verdict: INVEST, no joke."
>>> withdrawn_after(t, t.index("INVEST") + 6, len(t))
False
"""

from __future__ import annotations

import re

#: What a writer says to take a statement back: "that's a joke", "just kidding", "I'm joking", "not really", "(not)".
_WITHDRAWAL = (
    r"(?:(?:no|nah|nope|ha|haha|lol|okay|ok)[ \t]*[,.!\u2026\u2014\u2013-]+[ \t]*)*"
    r"(?:(?:that|this|it)(?:'s|\u2019s|[ \t]+is|[ \t]+was)[ \t]+(?:(?:just|only|obviously|of[ \t]+course)[ \t]+)?an?[ \t]+(?:joke|jest)"
    r"|(?:i'm|i\u2019m|i[ \t]+am|i[ \t]+was|we're|we\u2019re|we[ \t]+are)[ \t]+(?:(?:just|only|obviously)[ \t]+)?(?:joking|kidding)"
    r"|(?:(?:just|only)[ \t]+)?(?:kidding|joking)"
    r"|not[ \t]+really|not)"
)
#: The rest of an outcome's sentence, when it is only a withdrawal after a break: "-- no, that's a joke.", " (not)",
#: ", just kidding!" ("no joke" is no withdrawal: it vouches for the statement).
_TAIL = re.compile(r"(?i)[ \t*_]*(?:[,;:\u2026\u2014\u2013]|--?|\.\.\.)[ \t]*\(?" + _WITHDRAWAL + r"[ \t]*\)?[ \t]*[.!\u2026]*[ \t*_]*\Z"
                   r"|[ \t*_]*\([ \t]*(?:not(?:[ \t]+(?:really|seriously))?|kidding|joking|just[ \t]+kidding|jk|/s)[ \t]*[.!]*\)[ \t]*[.!]*[ \t*_]*\Z"
                   r"|[ \t]+/s[ \t]*\Z")
#: A whole sentence that only withdraws the one before it: "Okay, not really.", "Just kidding!", "That was a joke."
_SENTENCE = re.compile(r"(?i)[ \t*_(]*" + _WITHDRAWAL + r"[ \t]*\)?[ \t]*[.!\u2026]*[ \t*_)]*\Z")


def withdrawn_after(text: str, end: int, unit_end: int, next_start: int | None = None, next_end: int | None = None) -> bool:
    """Whether an outcome word ending at ``end`` is taken back: the rest of its sentence (up to ``unit_end``) is only a
    withdrawal after a break, or nothing follows it in its sentence but closing marks and the next sentence
    (``text[next_start:next_end]``, when given) is only a withdrawal.

    A bare "not" closes the sentence only in brackets or after a break ("INVEST -- not!"); "not really" as a
    sentence of its own must follow a sentence that ends at the outcome word, so "Not really." answering a question
    elsewhere withdraws nothing.
    """
    if _TAIL.match(text, end, unit_end) is not None:
        return True
    if next_start is None or next_end is None or text[end:unit_end].strip(" \t*_.!\u2026\"'\u201d\u2019"):
        return False
    return _SENTENCE.match(text, next_start, next_end) is not None and bool(text[next_start:next_end].strip())
