"""Fast literal-anchored scanning for the response parser: :class:`Trigger`, :func:`scan`, :func:`lowered`, :func:`word_prefixes`.

Split out of :mod:`ipb.scoring._text` (which re-exports these names). Every
regular expression is tried only where its literal occurs (``str.find``, at C
speed); the literals a text cannot hold are skipped by the first three
characters of its words (:func:`word_prefixes`) and, for a long text, by its
distinct words. Each shortcut gives the matches the plain loop over every
literal gives (``tests/scoring/test_parse_speed_equivalence.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from bisect import bisect_right
from itertools import accumulate, chain
from operator import add, itemgetter
from typing import Iterable, Protocol

from ipb.scoring._foreign_verdicts import unspaced
from ipb.scoring._proclitics import attaches

__all__ = ["Trigger", "lowered", "scan", "word_prefixes", "WordPrefixes", "JOIN_WORDS_FROM"]



@dataclass(frozen=True)
class Trigger:
    """A pattern tried only where its lower-case ``literal`` occurs.

    Python's ``re`` tries every branch of an alternation at every position, so
    one regex of fifty phrases costs seconds on a megabyte. Instead each
    phrase names a literal it starts with; ``str.find`` locates the literal
    (at C speed) and ``pattern.match`` is tried only there. Among matches at
    one position the smallest ``key`` wins; ``word`` requires the literal to
    start a word.
    """

    literal: str
    pattern: "re.Pattern[str] | LazyPattern"
    key: int = 0
    word: bool = True


class LazyPattern:
    """A pattern with named groups compiled at its first ``match`` (or :meth:`compiled`): a regex that is long and
    rarely met. :func:`_grouped` makes one of each literal's merged alternation (most literals of a card's trigger
    lists never occur in a given answer, and compiling every alternation up front cost a first ``ipb parse`` about
    1.9 s of its 5.4 s of CPU at stop 50: the foreign word lists' merged verdict words are hundreds of branches long);
    the foreign gate-number ordinals are triggers of this kind (every language's ordinal words beside every gate noun,
    about 71,000 characters, 0.25 s to compile each of the two orders).

    ``source`` must hold a named group (``groups`` names them): :func:`_grouped` then tries such a trigger on its own,
    never merging it into an alternation, which is all it asks of ``groupindex`` before a match.
    """

    __slots__ = ("pattern", "flags", "groupindex", "_compiled")

    def __init__(self, source: str, groups: tuple[str, ...]) -> None:
        if not groups or any(f"(?P<{g}>" not in source for g in groups):
            raise ValueError(f"a lazy pattern names the groups its source holds: {groups!r}")
        self.pattern = source
        self.flags = re.IGNORECASE if source.startswith("(?i)") else 0
        self.groupindex = {g: k for k, g in enumerate(groups, 1)}
        self._compiled: "re.Pattern[str] | None" = None

    def compiled(self) -> "re.Pattern[str]":
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled

    def match(self, text: str, pos: int = 0) -> "re.Match[str] | None":
        compiled = self._compiled
        return (compiled if compiled is not None else self.compiled()).match(text, pos)


def lowered(text: str) -> str:
    """``text`` in lower case with the same length (non-ASCII letters whose lower case is longer stay as they are)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def scan(
    text: str,
    low: str,
    triggers: "list[Trigger]",
    *,
    limit: int = 200_000,
    cache: dict[str, list[int]] | None = None,
    prefixes: "set[str] | None" = None,
    truncated: "set[str] | None" = None,
) -> list[tuple[int, re.Match[str]]]:
    r"""Non-overlapping matches of ``triggers`` in ``text``, leftmost first, as (key, match).

    Like ``re.finditer`` over the alternation of the patterns in ``key``
    order. At most ``limit`` literal occurrences are tried per literal: the
    first and the last half of them (an answer's end holds its verdict).
    ``cache`` (literal -> positions in ``low``) shares the search for a
    literal between calls on the same text; ``prefixes`` (from
    :func:`word_prefixes`) skips literals no word of the text starts like;
    literals that reached ``limit`` are added to ``truncated``.

    >>> t = [Trigger("pass", re.compile(r"(?i)pass(?:es)?\b"), 1), Trigger("not", re.compile(r"(?i)not pass\b"), 0)]
    >>> [(k, m.group(0)) for k, m in scan("It passes, not pass.", "it passes, not pass.", t)]
    [(1, 'passes'), (0, 'not pass')]
    """
    found: list[tuple[int, int, re.Match[str]]] = []
    entries, heads, others = _plan_for(triggers)
    if prefixes is None:
        chosen: "Iterable[int]" = range(len(entries))
    else:  # the literals some word of the text starts like, in list order (ties at one position keep it)
        picked = [i for head in (heads.keys() & prefixes) for i in heads[head]]
        picked.extend(i for i in others if _holds(entries[i][0], low, prefixes, cache, limit))
        picked.sort()
        chosen = picked
    append = found.append
    joined = getattr(prefixes, "joined", None)
    for i in chosen:
        literal, word, tried = entries[i]
        positions = cache.get(literal) if cache is not None else None
        if positions is None:
            if joined is None:
                positions = _positions(low, literal, limit)
            elif _absent(literal, joined):
                positions = []
            else:
                positions = prefixes.positions(literal, limit)  # type: ignore[union-attr]
                if positions is None:
                    positions = _positions(low, literal, limit)
            if cache is not None:
                cache[literal] = positions
        if truncated is not None and len(positions) >= limit:
            truncated.add(literal)
        if not positions:
            continue
        if len(tried) == 1 and tried[0][1] is None:  # one plain pattern (the common case): the same loop, hoisted
            match, key = tried[0][0].match, tried[0][2]
            for pos in positions:
                if word and pos > 0 and (low[pos - 1].isalnum() or low[pos - 1] == "_"):
                    continue
                m = match(text, pos)
                if m is not None and m.end() > pos:
                    append((pos, key, m))
            continue
        for pos in positions:
            if not (word and pos > 0 and (low[pos - 1].isalnum() or low[pos - 1] == "_")):
                for pattern, keys, key in tried:
                    m = pattern.match(text, pos)
                    if m is not None and m.end() > pos:
                        append((pos, keys[m.lastgroup or ""] if keys is not None else key, m))
                        if keys is not None:
                            break
    found.sort(key=itemgetter(0, 1))
    out: list[tuple[int, re.Match[str]]] = []
    end = -1
    for pos, key, m in found:
        if pos < end:
            continue
        out.append((key, m))
        end = m.end()
    return out


_WORD_TOKEN = re.compile(r"[^\W_]+")


class WordPrefixes(set):  # type: ignore[type-arg]
    """A set of word prefixes (see :func:`word_prefixes`) that may carry ``joined``: the text's distinct words, one a
    line, for a text of :data:`JOIN_WORDS_FROM` characters or more, and where each of them starts (``where``)."""

    joined: str | None = None
    #: Per distinct word (in ``joined``'s order), the starts of its occurrences as a whole word, ascending.
    where: "dict[str, list[int]] | None" = None
    #: Where each word of ``joined`` starts in it.
    line_starts: "list[int] | None" = None
    low: str = ""

    def positions(self, literal: str, limit: int) -> list[int] | None:
        """:func:`_positions` of ``literal`` in the text, found through the words that hold one of its runs of
        letters and digits (the one inside the fewest distinct words) instead of a search of the whole text; None
        when it has no such run or its runs are all inside too many words.

        Exact: an occurrence of a run of letters and digits lies inside one word (a maximal run), so the
        occurrences of the run are each word's occurrences shifted by where the run sits in the word (every
        place, overlapping ones included); the literal occurs where its run does, less the run's offset in the
        literal, and the text goes on as the literal does.
        """
        if self.where is None or self.joined is None or self.line_starts is None:
            return None
        joined, starts, where = self.joined, self.line_starts, self.where
        runs = _runs_at(literal)
        if not runs:
            return None
        # the run inside the fewest distinct words ("stock" rather than "the" for "the stock")
        count, at, run = min((joined.count(run), at, run) for at, run in runs)
        if count > INDEX_MAX_WORDS:
            return None  # a run inside many distinct words ("9" among numbered lines): one search of the text is faster
        groups: list[list[int]] = []
        hit = joined.find(run)
        while hit >= 0:
            line = bisect_right(starts, hit) - 1
            word = joined[starts[line] : starts[line + 1] - 1] if line + 1 < len(starts) else joined[starts[line] :]
            shift = hit - starts[line] - at  # the literal starts ``at`` characters before its run
            groups.append([p + shift for p in where[word]] if shift else where[word])
            hit = joined.find(run, hit + 1)
        if len(groups) == 1:
            out = list(groups[0])
        else:
            out = sorted(chain.from_iterable(groups))
        if at:
            out = [p for p in out if p >= 0]
        if len(run) < len(literal):
            low = self.low
            out = [p for p in out if low.startswith(literal, p)]
        if len(out) > limit:
            tail = limit // 2
            out = out[: limit - tail] + out[len(out) - tail :]
        return out


#: :meth:`WordPrefixes.positions` gathers a literal's places from at most this many distinct words that hold it.
INDEX_MAX_WORDS = 32

#: From this many characters :func:`word_prefixes` also keeps the distinct words, so that :func:`scan` can tell a
#: literal absent from a long text by a search of its (much shorter) vocabulary instead of the whole text.
JOIN_WORDS_FROM = 50_000


def word_prefixes(low: str) -> WordPrefixes:
    """The first three characters of every word of ``low`` (whole words when shorter); for a long text, with its
    distinct words (``joined``)."""
    if len(low) < JOIN_WORDS_FROM:
        return WordPrefixes({w[:3] for w in set(_WORD_TOKEN.findall(low))})
    where: dict[str, list[int]] = {}
    for m in _WORD_TOKEN.finditer(low):
        word = m.group()
        found = where.get(word)
        if found is None:
            where[word] = [m.start()]
        else:
            found.append(m.start())
    out = WordPrefixes({w[:3] for w in where})
    out.joined = "\n".join(where)
    out.line_starts = list(accumulate((len(w) + 1 for w in where), initial=0))[:-1]
    out.where, out.low = where, low
    return out


@lru_cache(maxsize=4096)
def _word_runs(literal: str) -> tuple[str, ...]:
    """The runs of letters and digits of ``literal``: each lies inside one word of any text the literal occurs in."""
    return tuple(_WORD_TOKEN.findall(literal))


@lru_cache(maxsize=4096)
def _lead_run(literal: str) -> str:
    """The run of letters and digits ``literal`` opens with ("" when it opens with another character)."""
    m = _WORD_TOKEN.match(literal)
    return m.group() if m is not None else ""


def _holds(literal: str, low: str, prefixes: "set[str]", cache: "dict[str, list[int]] | None", limit: int) -> bool:
    """Whether ``literal`` occurs in ``low``: from ``cache`` when it was looked for, else by the words of a long
    text (:meth:`WordPrefixes.positions`, its places then kept in ``cache``) or by one search."""
    positions = cache.get(literal) if cache is not None else None
    if positions is None:
        joined = getattr(prefixes, "joined", None)
        if joined is None:
            return literal in low
        positions = [] if _absent(literal, joined) else prefixes.positions(literal, limit)  # type: ignore[attr-defined]
        if positions is None:
            return literal in low
        if cache is not None:
            cache[literal] = positions
    return bool(positions)


@lru_cache(maxsize=4096)
def _runs_at(literal: str) -> tuple[tuple[int, str], ...]:
    """(where it starts in ``literal``, run) for each run of letters and digits of ``literal``."""
    return tuple((m.start(), m.group()) for m in _WORD_TOKEN.finditer(literal))


def _absent(literal: str, joined: str) -> bool:
    """Whether ``literal`` cannot occur in the text whose distinct words, one a line, are ``joined``: one of its runs
    of letters and digits is part of no word (exact: such a run can only occur inside a word)."""
    return any(run not in joined for run in _word_runs(literal))


def _positions(low: str, literal: str, limit: int) -> list[int]:
    """Where ``literal`` occurs in ``low``, overlapping occurrences included; past ``limit`` occurrences, the
    first and the last half of them.

    >>> _positions("aaaa", "aa", 10), _positions("a-b-a-b", "a-", 10), _positions("x", "y", 10)
    ([0, 1, 2], [0, 4], [])
    """
    out: list[int] = []
    pos = low.find(literal)
    while pos >= 0:
        out.append(pos)
        if len(out) == _SPLIT_FROM and len(literal) > 1 and not _overlaps(literal):
            # many occurrences of a literal that cannot overlap itself (none starts inside another): the rest by one
            # split at C speed, each occurrence starting where the pieces before it and the literals between end
            size = len(literal)
            rest = pos + size
            pieces = low[rest:].split(literal)
            out.extend(map(add, accumulate(map(len, pieces[:-1])), range(rest, rest + size * (len(pieces) - 1), size)))
            break
        pos = low.find(literal, pos + 1)
    if len(out) > limit:
        tail = limit // 2
        out = out[: limit - tail] + out[len(out) - tail :]
    return out


#: Occurrences from which :func:`_positions` splits rather than finds one by one.
_SPLIT_FROM = 16


@lru_cache(maxsize=4096)
def _overlaps(literal: str) -> bool:
    """Whether two occurrences of ``literal`` can overlap: some proper prefix is also a suffix ("aa", "abab")."""
    return any(literal.startswith(literal[k:]) for k in range(1, len(literal)))


_GLOBAL_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


class _Matcher(Protocol):
    """What :func:`scan` asks of a pattern, a match at a position: a compiled ``re.Pattern`` has it, and so has
    :class:`LazyPattern`, which compiles on the first call."""

    def match(self, text: str, pos: int, /) -> "re.Match[str] | None": ...


_Tried = list[tuple[_Matcher, dict[str, int] | None, int]]


_GROUPED: dict[int, tuple["list[Trigger]", dict[str, tuple[bool, _Tried]]]] = {}


def _grouped_for(triggers: "list[Trigger]") -> dict[str, tuple[bool, _Tried]]:
    """:func:`_grouped` for a trigger list, cached by the list's identity (trigger lists live as long as their card)."""
    entry = _GROUPED.get(id(triggers))
    if entry is not None and entry[0] is triggers:
        return entry[1]
    if len(_GROUPED) > 1024:
        _GROUPED.clear()
    grouped = _grouped(tuple(triggers))
    _GROUPED[id(triggers)] = (triggers, grouped)
    return grouped


_Entry = tuple[str, bool, _Tried]
_PLANS: dict[int, tuple["list[Trigger]", tuple[list[_Entry], dict[str, list[int]], list[int]]]] = {}


def _plan_for(triggers: "list[Trigger]") -> tuple[list[_Entry], dict[str, list[int]], list[int]]:
    """:func:`_grouped` for a trigger list as (literal, word rule, patterns) entries in its order, with the entries
    whose literal starts with three letters or digits indexed by those (the heads :func:`word_prefixes` gives) and
    the others listed; cached by the list's identity, as :func:`_grouped_for`."""
    entry = _PLANS.get(id(triggers))
    if entry is not None and entry[0] is triggers:
        return entry[1]
    if len(_PLANS) > 1024:
        _PLANS.clear()
    entries = [(literal, word, tried) for literal, (word, tried) in _grouped_for(triggers).items()]
    heads: dict[str, list[int]] = {}
    others: list[int] = []
    for i, (literal, _, _) in enumerate(entries):
        # a literal in a script written without spaces (unspaced: CJK ideographs, kana, hangul) may start inside a
        # "word" (a run of such characters), so the word-prefix index cannot tell it absent; it is looked for by search
        # and one that a Hebrew or Arabic particle may be written onto ("והחוב") starts inside a word too
        if literal[:3].isalnum() and not unspaced(literal) and not attaches(literal):
            heads.setdefault(literal[:3], []).append(i)
        else:
            others.append(i)
    plan = (entries, heads, others)
    _PLANS[id(triggers)] = (triggers, plan)
    return plan


@lru_cache(maxsize=256)
def _grouped(triggers: "tuple[Trigger, ...]") -> dict[str, tuple[bool, _Tried]]:
    """Per literal: the word rule and the patterns to try, merged into one alternation where possible.

    A merged pattern names its branches ``t0``, ``t1``...; the map gives each
    branch's key. Patterns with named groups of their own are tried one by one.
    """
    by_literal: dict[str, list[Trigger]] = {}
    for trig in triggers:
        by_literal.setdefault(trig.literal, []).append(trig)
    out: dict[str, tuple[bool, _Tried]] = {}
    for literal, group in by_literal.items():
        group.sort(key=lambda t: t.key)
        word = all(t.word for t in group) and literal[:1].isalnum()
        if len(group) == 1 or any(t.pattern.groupindex for t in group):
            out[literal] = (word, [(t.pattern, None, t.key) for t in group])
            continue
        branches = []
        keys: dict[str, int] = {}
        for i, t in enumerate(group):
            flags = "".join(f for f, bit in (("i", re.IGNORECASE), ("s", re.DOTALL), ("m", re.MULTILINE)) if t.pattern.flags & bit)
            body = _GLOBAL_FLAGS.sub("", t.pattern.pattern)
            branches.append(f"(?P<t{i}>(?{flags}:{body}))" if flags else f"(?P<t{i}>{body})")
            keys[f"t{i}"] = t.key
        out[literal] = (word, [(LazyPattern("|".join(branches), tuple(keys)), keys, group[0].key)])
    return out


