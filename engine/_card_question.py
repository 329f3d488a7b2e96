"""A card's ``question:`` field: the sentence that opens its L7 questions and the ask that closes them.

Issue 18 item 5 (s58user F-C14): a generated question opened "Decision date: 1982-08-13." and went straight to the
figures; nothing said who decides what. A card may now give ``question: {setting: ..., ask: ...}``: ``setting``
opens the question's first line, before the date, and ``ask`` stands just before the task instruction. Both are
plain prose with two optional slots, ``{investor}`` (the investor as the question names it) and ``{framework}``
(the card's ``name`` as written; right after ``{investor}'s`` without a leading investor's name, so that "{investor}'s
{framework}" does not name the investor twice). They describe the decision, never the scenario: a figure in them would
be a fact that no input states, so the question would say more than the scenario holds (lint ``question-figure``).

Split from :mod:`ipb.engine.card` (module size limit), which calls :func:`card_question` while it reads a card.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping

from ipb.errors import LintWarning, LoadError, did_you_mean

__all__ = ["CardQuestion", "QUESTION_SLOTS", "card_question", "fill_question_text"]

#: The names a ``question:`` text may hold in braces.
QUESTION_SLOTS = ("investor", "framework")

_SLOT = re.compile(r"\{([^{}]*)\}")
#: Two slots with nothing between them (the second's offset is where the first ends).
_JOINED = re.compile(r"(\{[^{}]*\})(\{[^{}]*\})")
#: One slot twice with only spaces or punctuation between ("{investor}-{investor}", "{investor} {investor}").
_REPEATED = re.compile(r"(\{([^{}]*)\})([^\w{}]+)\{\2\}")
#: A letter directly before or after a slot ("{investor}s", "{investor}and{framework}", "'s{framework}").
_LETTER_SLOT = re.compile(r"(?<=[^\W\d_])\{[^{}]*\}|\{[^{}]*\}(?=[^\W\d_])")
#: A figure: a digit, or a number word that counts or sizes (a written-out figure states a fact just the same).
_FIGURE = re.compile(r"[0-9]|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
                     r"hundred|thousand|million|billion|trillion|percent|half|third|quarter)\b", re.IGNORECASE)
_SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
#: A control character left after whitespace is folded (NUL, ESC, DEL, a C1 control: category Cc) or a mark that
#: reorders or hides text (the bidi embeddings, overrides and isolates, LRM/RLM, ALM): s60 new user N2 saw a NUL
#: and a right-to-left override go into every question, where a NUL can cut the prompt and an override makes the
#: text shown differ from the text read.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _hidden_character(text: str) -> tuple[int, str] | None:
    """(1-based position in ``text``, the character) of its first control, bidi or other invisible format character
    (Unicode category Cf: a zero-width space, joiner or non-joiner, a soft hyphen, a byte order mark; s62 new user
    N10 saw a U+200B go unseen into every question; a joiner inside an emoji sequence is text), or None.

    >>> _hidden_character("A fund\\u202edecides.")
    (7, '\\u202e')
    >>> _hidden_character("{investor}\\u200b{investor}")
    (11, '\\u200b')
    >>> _hidden_character("A fund decides.") is None
    True
    """
    for index, char in enumerate(text, 1):
        if char in _BIDI or unicodedata.category(char) == "Cc":
            return index, char
        if unicodedata.category(char) == "Cf" and not _joins_emoji(text, index - 1):
            return index, char
    return None


def _joins_emoji(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a zero width joiner between two symbols (an emoji sequence such as man + ZWJ +
    laptop, which is text: s60 new user N2's test keeps it allowed).

    >>> _joins_emoji("\\U0001F468\\u200d\\U0001F4BB", 1), _joins_emoji("a\\u200db", 1)
    (True, False)
    """
    symbol = ("So", "Sk")
    return (text[at] == "\u200d" and 0 < at < len(text) - 1 and unicodedata.category(text[at - 1]) in symbol
            and unicodedata.category(text[at + 1]) in symbol)


@dataclass(frozen=True)
class CardQuestion:
    """The card's own words around its L7 questions (card field ``question:``); whitespace runs read as one space."""

    #: The opening sentence: who decides what ("A distressed-debt fund is deciding whether to buy a class of
    #: claims."); empty for none.
    setting: str = ""
    #: The closing ask, said just before the task instruction ("Should the fund buy the claims?"); empty for none.
    ask: str = ""


#: What comes just before a ``{framework}`` slot that takes the name without its investor (a possessive of the
#: investor slot, straight or curly apostrophe).
_POSSESSIVE = ("{investor}'s ", "{investor}’s ")


def fill_question_text(text: str, investor: str, framework: str, after_possessive: str | None = None) -> str:
    """``text`` with its ``{investor}`` and ``{framework}`` slots filled (the card has been checked: no other slot).

    ``framework`` is the card's name as its ``name:`` writes it; a ``{framework}`` right after ``{investor}'s `` takes
    ``after_possessive`` instead when given (the name less a leading investor's name,
    :func:`ipb.perturb._question_setting.own_title`). s60 new user N9: every ``{framework}`` took the shortened name,
    so "A fund is applying the {framework}." on the card "John Neff Screen" (investor John Neff) read "... the
    Screen."

    >>> fill_question_text("{investor}'s fund is applying the {framework}.", "Howard Marks", "Distressed Debt Rules")
    "Howard Marks's fund is applying the Distressed Debt Rules."
    >>> fill_question_text("A fund applies the {framework}, {investor}'s {framework}.", "John Neff",
    ...                    "John Neff Screen", "Screen")
    "A fund applies the John Neff Screen, John Neff's Screen."
    """
    def fill(m: re.Match[str]) -> str:
        if m.group(1) == "investor":
            return investor
        if after_possessive is not None and text[:m.start()].endswith(_POSSESSIVE):
            return after_possessive
        return framework

    return _SLOT.sub(fill, text)


#: What a setting or an ask runs into in the question (s60 new user N4's run-on lines).
_FOLLOWS = {"setting": "... whether to buy Decision date: ...", "ask": "... buy or not Apply ..."}
#: Closing marks that may follow a sentence's final stop ("... the 'margin of safety'?" or '... "cheap."').
_CLOSERS = "\"')]}\u2019\u201d\u00bb"


def _not_a_sentence(text: str) -> list[str]:
    """What keeps ``text`` from reading as a sentence: a lowercase first letter, no final '.', '?' or '!'.

    A text opening with a non-letter (a slot, a quote, a digit) is not faulted for its start; closing quotes and
    brackets after the final stop are allowed.

    >>> _not_a_sentence("a fund is deciding whether to buy")
    ["starts with a lowercase letter ('a')", 'does not end with a full stop, question mark or exclamation mark']
    >>> _not_a_sentence("{investor}'s fund asks: is it 'cheap'?")
    []
    """
    found = []
    first = text[:1]
    if first.isalpha() and not first.isupper() and first.lower() != first.upper():
        found.append(f"starts with a lowercase letter ({first!r})")
    if not text.rstrip(_CLOSERS).endswith((".", "?", "!")):
        found.append("does not end with a full stop, question mark or exclamation mark")
    return found


def _slot_names(data: Mapping[str, Any]) -> tuple[str, str]:
    """(investor, framework) as the card's ``investor`` and ``name`` write them, for a refusal's example."""
    investor, name = data.get("investor"), data.get("name")
    return (investor if isinstance(investor, str) and investor.strip() else "the investor",
            name if isinstance(name, str) and name.strip() else "the framework")


def _filled(snippet: str, names: tuple[str, str]) -> str:
    """``snippet`` with its slots filled by the card's own names, quoted: what every question would read.

    >>> _filled("{investor}{investor}", ("Philip Fisher", "Fifteen Points"))
    '"Philip FisherPhilip Fisher"'
    """
    return '"' + " ".join(fill_question_text(snippet, names[0], names[1]).split()) + '"'


def card_question(col: Any, data: Mapping[str, Any]) -> CardQuestion | None:
    """Read and check ``question:`` (its shape is the JSON Schema's): errors and warnings go to ``col``.

    Errors: a slot other than ``{investor}`` or ``{framework}`` (rule ``question-slot``, with a suggestion), two slots
    run together (``{investor}{investor}``, also rule ``question-slot``: the names would be joined), a slot run into
    a letter (``{investor}s``, ``{investor}'s{framework}``) or one slot twice with only spaces or punctuation
    between (``{investor}-{investor}``), both ``question-slot`` with an example in the card's own names, a brace
    that opens or closes no slot (``question-brace``), a control or bidi character left after whitespace is folded
    (``question-character``: NUL, ESC, a C1 control, U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C, and any
    other format character of Unicode category Cf, such as U+200B zero width space).
    Warnings: a figure (``question-figure``) or a snake_case token (``question-name``), which would state a fact,
    or an input's name, that the scenario does not give; a text that does not read as a sentence, a lowercase first
    letter or no final '.', '?' or '!' (``question-sentence``: the question would run on into what follows it).
    """
    raw = data.get("question")
    if not isinstance(raw, Mapping):
        return None
    texts: dict[str, str] = {}
    for key in ("setting", "ask"):
        value = raw.get(key)
        if not isinstance(value, str):
            continue
        text = " ".join(value.split())
        path = ("question", key)
        # the caret goes under the offending character of the string as written (s60 new user N10: it stood at the
        # string's start); folding whitespace neither makes nor removes a brace, so the n-th slot of the folded
        # text is the n-th of the written one
        blanked = _SLOT.sub(lambda m: " " * len(m.group(0)), value)  # the written text, its slots blanked
        hidden = _hidden_character(text)
        if hidden is not None:
            where, char = hidden
            col.add(LoadError(f"question.{key} holds U+{ord(char):04X} "
                              f"({unicodedata.name(char, 'a control character')}) at character {where}: it would go "
                              "into every question unseen (a NUL can cut the prompt, a direction mark makes the text "
                              "shown differ from the text read); delete it", rule="question-character", name=key), path,
                    offset=value.find(char))
        for m, written in zip(_SLOT.finditer(text), _SLOT.finditer(value)):
            if m.group(1) not in QUESTION_SLOTS:
                col.add(LoadError(f"unknown slot {{{m.group(1)}}} in question.{key}; a question text may hold "
                                  f"{', '.join('{' + s + '}' for s in QUESTION_SLOTS)}", rule="question-slot",
                                  name=m.group(1), suggestion=did_you_mean(m.group(1), list(QUESTION_SLOTS))), path,
                        offset=written.start())
        # s61 new user N13: "{investor}{investor}'s" read "Walter SchlossWalter Schloss's"; two slots with nothing
        # between them join two names into one word. s62 new user N10: the example is the card's own names, and a
        # slot run into a letter ("{investor}s", "'s{framework}") or one slot twice with only spaces or punctuation
        # between ("{investor}-{investor}") is refused too
        names = _slot_names(data)
        for m, written in zip(_JOINED.finditer(text), _JOINED.finditer(value)):
            col.add(LoadError(f"two slots run together in question.{key}: {m.group(0)} would join two names into one "
                              f"word ({_filled(m.group(0), names)}); put a space or words between them, or write "
                              "the slot once", rule="question-slot", name=key), path,
                    offset=written.start() + len(written.group(1)))
        for written in _REPEATED.finditer(value):
            shown = " ".join(written.group(0).split())
            col.add(LoadError(f"one slot twice in a row in question.{key}: {shown} would name the same thing twice "
                              f"({_filled(shown, names)}); write the slot once, or put words between",
                              rule="question-slot", name=key), path, offset=written.start() + len(written.group(1))
                    + len(written.group(3)))
        for written in _LETTER_SLOT.finditer(value):
            start, end = written.span()
            around = " ".join(value[max(0, start - 1):end + 1].split())
            col.add(LoadError(f"a slot runs into a letter in question.{key}: {around} would join a name and a word "
                              f"({_filled(around, names)}); put a space between them (a possessive is "
                              "\"{investor}'s \")", rule="question-slot", name=key), path, offset=start)
        stray = _SLOT.sub("", text)
        if "{" in stray or "}" in stray:
            brace = min(i for i in (blanked.find("{"), blanked.find("}")) if i >= 0)
            col.add(LoadError(f"a brace in question.{key} opens or closes no slot: {text!r}; write a slot as "
                              "{investor} or {framework}, and no other brace", rule="question-brace"), path,
                    offset=brace)
        figure = _FIGURE.search(blanked)
        if figure is not None:
            col.warn(LintWarning(f"question.{key} states a figure ({figure.group(0)!r}): every item's question would "
                                 "state a fact that no input gives; put the figure in an input, or leave it out",
                                 rule="question-figure", name=key), path, offset=figure.start())
        snake = _SNAKE.search(value)
        if snake is not None:
            col.warn(LintWarning(f"question.{key} holds {snake.group(0)!r}, an input's name as code: write it in "
                                 "words", rule="question-name", name=key), path, offset=snake.start())
        unlike = _not_a_sentence(text)
        if unlike:
            col.warn(LintWarning(f"question.{key} {' and '.join(unlike)}: each is one plain sentence, and the "
                                 f"question runs on into what follows it (\"{_FOLLOWS[key]}\"); start it with a "
                                 "capital letter and end it with '.', '?' or '!'", rule="question-sentence",
                                 name=key), path)
        texts[key] = text
    return CardQuestion(**texts) if texts else None
