"""Numbers and years in free text, for the response parser and the element matcher.

Every money amount, multiple, percentage, fraction and calendar year in an
answer, with offsets into the text. The regular expressions here only *find*
numbers; their values are read by the one number reader of ipb,
:func:`ipb.engine.numbers.read_number` (scenario facts, ``--set`` and
expression literals read through it too), so ``($7M)`` is -7,000,000 here as
in a scenario, ``(3.5)%`` is -0.035 and ``€1.234,5`` is 1,234.5 euros. Money in
another currency than US dollars has the unit ``money:EUR`` / ``money:GBP``
and is never matched as dollars. The regular expressions are linear in their
input (no nested unbounded quantifiers).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import islice
from dataclasses import dataclass
from typing import Iterable, Iterator

from ipb.engine.numbers import NumberError, read_number

__all__ = ["NumberMatch", "ascii_digits", "find_numbers", "find_years", "figure_value"]

#: A scale word after a dollar amount, in any case as the one reader reads it ("$3m", "$2 Bn", "$7 MM", "$1.2 Trillion").
_MSCALE = r"(?i:trillion|billion|million|thousand|tn|bn|mm|mn|[tbmk])"
_NUMBER = re.compile(
    r"(?<![\w.$])(?P<money>(?P<msign>[-\u2212\u2013][ \t]?)?(?:US|USD[ \t]?)?\$[ \t]?(?P<msign2>[-\u2212])?"
    r"(?P<mnum>\d{1,3}(?:,\d{3}){1,6}|\d{1,15})(?P<mdec>\.\d{1,8})?(?:[ \t]?(?P<mscale>" + _MSCALE + r")\b)?)"
    r"|(?<![\w.$/])(?<!\d,)(?P<sign>[-\u2212][ \t]?)?(?P<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,15})"
    # a decimal comma with one or two decimals before a multiple's "x" ("0,9x", "1,25x"): no thousands group can be that
    # short, so the figure is 0.9x in any convention; its digits after the comma are never a figure of their own ("9x")
    r"(?:(?P<dec>\.\d{1,8})|(?P<cdec>,\d{1,2})(?=[xX\u00d7](?![A-Za-z0-9])|[ \t]\u00d7))?"
    r"(?:(?P<x>[xX](?![A-Za-z0-9])|[ \t]?\u00d7)"
    r"|[ \t]?(?P<pct>%|percent\b|per[ \t]cent\b|pct\b)"
    # a difference of percentages: "6.5 percentage points", "3pp", "6.5 points over Treasuries" (a spread); basis points
    r"|[ \t]?(?P<pp>percentage[ \t]+points?\b|pp\b|ppts?\b|points?(?=[ \t]+(?:over|above|below|under)[ \t])"
    r"|-point(?=[ \t]+(?:premium|spread|gap|cushion)\b))"
    r"|[ \t]?(?P<bp>basis[ \t]+points?\b|bps?\b)"
    r"|(?P<frac>/(?P<den>\d{1,4})(?![\w/.]))"
    r"|[ \t](?P<scale>trillion|billion|million)\b)"
)


#: Shapes only the one reader knows: accounting negatives "($7M)", "(3.5)%" (a bare "(95%)" is not matched here: its
#: sign is decided by its context, :func:`_parenthesised_fall`); euro, pound and US-dollar-code amounts
#: ("€1.234,5", "£3bn", "EUR 12m", "12m EUR", "USD 5bn"). Found here, read by :func:`ipb.engine.numbers.read_number`.
_OTHER = re.compile(
    r"(?<![\w.$])\((?:US\$|\$|€|£)[ \t]?\d{1,3}(?:[,.]\d{3}){0,6}(?:[.,]\d{1,8})?(?:[ \t]?(?i:trillion|billion|million|thousand|tn|bn|mn|mm|[tbmk])\b)?\)"
    r"|(?<![\w.$])\(\d{1,3}(?:[,.]\d{3}){0,6}(?:[.,]\d{1,8})?\)%"
    r"|(?<![\w.$])[-\u2212]?(?:€|£|(?:EUR|GBP|USD)[ \t]?)[-\u2212]?\d{1,3}(?:[,.\u00a0]\d{3}){0,6}(?:[.,]\d{1,8})?(?:[ \t]?(?i:trillion|billion|million|thousand|tn|bn|mn|mm|[tbmk])\b)?"
    r"|(?<![\w.$])[-\u2212]?\d{1,3}(?:[,.]\d{3}){0,6}(?:[.,]\d{1,8})?(?:[ \t]?(?i:trillion|billion|million|thousand|tn|bn|mn|mm|[tbmk])\b)?[ \t]?(?:EUR|GBP|USD|€|£)(?![A-Za-z])"
)
#: The two branches of :data:`_OTHER` that open with "(" (accounting negatives), with the look-behind moved after
#: the parenthesis: a pattern that opens with a literal is searched for that character in C, where the four-branch
#: alternation is tried at every position (0.2 s on a megabyte). Used when the text holds no euro or pound mark,
#: so the other two branches cannot match and the matches are :data:`_OTHER`'s.
_OTHER_PAREN = re.compile(
    r"\((?<![\w.$]\()(?:(?:US\$|\$|€|£)[ \t]?\d{1,3}(?:[,.]\d{3}){0,6}(?:[.,]\d{1,8})?"
    r"(?:[ \t]?(?i:trillion|billion|million|thousand|tn|bn|mn|mm|[tbmk])\b)?\)"
    r"|\d{1,3}(?:[,.]\d{3}){0,6}(?:[.,]\d{1,8})?\)%)"
)
#: In a text that writes the comma as its decimal mark (:func:`ipb.engine.numbers.decimal_comma_convention`):
#: dollar amounts and percentages with dot groups and a comma decimal ("$1.234,5", "2,5 %"), read by the one reader.
_COMMA_DECIMAL = re.compile(
    r"(?<![\w.$])[-\u2212]?(?:US)?\$[ \t]?[-\u2212]?\d{1,3}(?:\.\d{3}){0,6}(?:,\d{1,8})?"
    r"(?:[ \t]?(?i:trillion|billion|million|thousand|tn|bn|mn|mm|[tbmk])\b)?"
    r"|(?<![\w.$,])[-\u2212]?\d{1,3}(?:\.\d{3}){0,6},\d{1,8}[ \t]?%"
)
#: A currency code written before the dollar sign it repeats ("USD $5M").
_USD_DOLLAR = re.compile(r"USD[ \t]?\$")
_KIND = {"money": "money", "percent": "ratio", "multiple": "multiple", "number": "number"}


@dataclass(frozen=True)
class NumberMatch:
    """A number with a unit in the response: ``unit`` is money (USD), money:EUR / money:GBP, multiple, ratio (95% is 0.95),
    fraction, or number (a scale word: "5 billion")."""

    start: int
    end: int
    text: str
    value: float
    unit: str


#: Where a match of :data:`_NUMBER` can end its number: a ``$`` (money starts there), or a digit followed (after an
#: optional space) by the start of a unit. The pattern opens with a character class, so the regular-expression
#: engine skips to the next ``$`` or digit in C; prose full of bare years or figures yields no hit.
_UNIT_HIT = re.compile(r"\$|\d[ \t]?(?:[xX\u00d7%/]|per|pct|trillion|billion|million|pp|points?[ \t]|-point[ \t]|basis|bps?\b)")
#: The first digit of a run of digits.
_RUN_START = re.compile(r"(?<!\d)\d")
#: A non-money match of :data:`_NUMBER` starts at most this many characters before the last digit of its number
#: (``\d{1,3}(?:,\d{3}){1,6}`` is 27 characters, a decimal part at most 9 more).
_REACH = 40
_SIGNS = "-\u2212\u2013"


#: A word after which a spaced "- 3%" is still a minus sign: the word asks for a value ("a swing from 5% to - 3%",
#: "fell by - 2%", "is - 4%", "between 1% and - 2%").
_VALUE_WORDS = frozenset({
    "to", "from", "by", "of", "at", "is", "was", "were", "are", "be", "been", "and", "or", "than", "between", "about",
    "around", "roughly", "approximately", "near", "nearly", "almost", "only", "just", "minus", "plus", "versus", "vs",
    "reached", "hit", "became", "becomes", "stands", "stood", "sits", "sat", "now", "then", "still", "remains", "remained",
})
#: A word (letters or digits) ending where the search stops; a window of :data:`_WORD_REACH` characters is searched.
_WORD_BEFORE = re.compile(r"\w+\Z")
#: Longer than any word of :data:`_VALUE_WORDS`: a word reaching the start of this window is no value word.
_WORD_REACH = 20


def _spaced_dash(text: str, at: int) -> bool:
    """Whether the hyphen, minus or en dash at ``at``, with a space or tab on both sides, separates a word or label from
    a figure ("Yes - 28% ROCE", "Gate 2 - 15% margin", "Pass \u2013 $5M") rather than signing it: a word character
    before the spaces (however many: a padded table cell is a label too), and that word is not one that asks for a
    value (:data:`_VALUE_WORDS`: "from 5% to - 3%" is -3%). "-28%", "Yes -28%", "\u221228%", a dash at the start of a
    line or after a colon stay signs. Linear over a text: the blanks walked over end at this dash, so no other dash
    walks them.

    >>> _spaced_dash("Yes - 28%", 4), _spaced_dash("from 5% to - 3%", 11), _spaced_dash("ROCE: - 3%", 6)
    (True, False, False)
    """
    if at < 2 or text[at - 1] not in " \t" or at + 1 >= len(text) or text[at + 1] not in " \t":
        return False
    j = at - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    m = _WORD_BEFORE.search(text, max(0, j + 1 - _WORD_REACH), j + 1)
    if m is None:
        return False
    if m.start() == j + 1 - _WORD_REACH:  # the word may run on before the window: longer than any value word
        return True
    return m.group().lower() not in _VALUE_WORDS


#: Words saying a figure is a fall or a loss ("fell (28%)", "down (12%) year on year", "a decline (5%)").
_FALL_WORDS = frozenset({
    "fell", "fall", "falls", "falling", "dropped", "drop", "drops", "declined", "decline", "declines", "declining",
    "decreased", "decrease", "decreases", "down", "lower", "lost", "loss", "losses", "shrank", "shrunk", "shrink",
    "contracted", "contraction", "slumped", "slump", "plunged", "plunge", "slid", "sank", "tumbled", "eroded", "negative",
    "minus", "cut", "reduced", "reduction", "writedown", "write-down", "impairment", "deficit", "drawdown",
})
#: The words (letters, hyphens) before a parenthesis, in its clause: the last three words before it, after the last
#: sentence or clause mark.
_WORDS_BEFORE = re.compile(r"([A-Za-z][A-Za-z-]*)[ \t]+(?:([A-Za-z][A-Za-z-]*)[ \t]+)?(?:([A-Za-z][A-Za-z-]*)[ \t]+)?\Z")


def _parenthesised_fall(text: str, start: int, end: int) -> bool:
    """Whether a percentage written alone in parentheses, ``(28%)`` at ``text[start:end]`` without its parentheses, is an
    accounting negative, as a careful reader takes it (issue 13, numbers): the parenthesis is a value on its own after
    a label or in a cell (after ``:``, ``|``, ``=``, a tab, or at the start of a line: "EPS growth: (28%)",
    "| FY24 | (12%) |"), after a word that asks for a value ("growth was (28%)", "a change of (3%)",
    :data:`_VALUE_WORDS`), or one of the three words before it says a fall or loss ("revenue fell (28%)", "down (12%)
    year on year", :data:`_FALL_WORDS`). Otherwise it is an aside and keeps its sign ("strong margins (28%)",
    "a majority (62%) of the board"). "(3.5)%" and "(-3%)" are negative by their own writing.

    >>> _parenthesised_fall("sales fell (28%)", 12, 15), _parenthesised_fall("high margins (28%)", 14, 17)
    (True, False)
    """
    if start < 1 or text[start - 1] != "(" or not text.startswith(")", end):
        return False
    k = start - 2
    while k >= 0 and text[k] == " ":
        k -= 1
    if k < 0 or text[k] in ":|=\t\n":
        return True
    m = _WORDS_BEFORE.search(text, max(0, start - 1 - 60), start - 1)
    if m is None:
        return False
    words = [w.lower() for w in m.groups() if w]
    return words[-1] in _VALUE_WORDS or any(w in _FALL_WORDS for w in words)


def _candidates(text: str) -> Iterator[int]:
    """In order, each ``$`` and each run of digits close enough before a unit to start a :data:`_NUMBER` match."""
    tried = -1
    for hit in _UNIT_HIT.finditer(text):
        q = hit.start()
        if text[q] == "$":
            if q > tried:
                tried = q
                yield q
            continue
        for run in _RUN_START.finditer(text, max(tried + 1, q - _REACH), q + 1):
            tried = run.start()
            yield tried
        tried = max(tried, q)


def _number_matches(text: str) -> Iterator[re.Match[str]]:
    """``_NUMBER.finditer(text)``, tried only at a ``$`` or at a run of digits just before a unit (and the sign or ``US``
    before it); linear: each character is looked at by at most a bounded number of tries."""
    end = 0
    for p in _candidates(text):
        if p < end:
            continue
        unsigned = p
        if text[p] == "$":
            for prefix in ("USD ", "USD\t", "USD", "US"):
                if text.startswith(prefix, p - len(prefix)) and p - len(prefix) >= end:
                    unsigned = p - len(prefix)
                    break
        start = unsigned
        if start >= end + 1 and text[start - 1] in _SIGNS:
            start -= 1
        elif start >= end + 2 and text[start - 1] in " \t" and text[start - 2] in _SIGNS and not _spaced_dash(text, start - 2):
            start -= 2
        # leftmost first, as finditer would: the sign (refused after a letter: 'Competence- US$250M'),
        # then the currency prefix, then the digit or '$' itself
        m = _NUMBER.match(text, start)
        if m is None and unsigned != start:
            m = _NUMBER.match(text, unsigned)
        if m is None and p != unsigned:
            m = _NUMBER.match(text, p)
        if m is not None:
            end = m.end()
            yield m


def ascii_digits(token: str) -> str:
    """``token`` with every decimal digit of another script written 0-9 ("٣٥%" -> "35%"): a writer's figures in
    Arabic-Indic or fullwidth digits are figures in prose, where a typed value (:func:`ipb.engine.numbers.read_number`)
    asks for ASCII digits.

    >>> ascii_digits("\u0663\u0665%"), ascii_digits("$12")
    ('35%', '$12')
    """
    if token.isascii():
        return token
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in token)


@lru_cache(maxsize=8192)
def _read(token: str, decimal_comma: bool | None = None) -> float | None:
    """The value of ``token`` by :func:`ipb.engine.numbers.read_number`, as a float, or None when it refuses it
    (remembered: a long answer repeats its figures)."""
    try:
        return float(read_number(ascii_digits(token.replace("\u2013", "-")), decimal_comma=decimal_comma).value)
    except NumberError:
        return None


def figure_value(token: str, decimal_comma: bool | None = None) -> float | None:
    """The value of one figure ``token`` ("12x", "-3.5%", "$5B", "0.25"), read by the one number reader
    (:func:`ipb.engine.numbers.read_number`: exact, then rounded once to a float), or None when it refuses it (not a
    number, or beyond its limits). For matchers whose patterns find a figure and must not value it on their own.

    >>> figure_value("66.017 billion"), figure_value("-3.5%"), figure_value("1e999") is None
    (66017000000.0, -0.035, True)
    """
    return _read(token, decimal_comma)


def _others(text: str, limit: int | None, decimal_comma: bool | None = None) -> list[NumberMatch]:
    """Accounting negatives and euro / pound amounts (:data:`_OTHER`), read by the one reader.

    With ``decimal_comma`` True, also dollar amounts and percentages written with a comma decimal
    (:data:`_COMMA_DECIMAL`)."""
    out: list[NumberMatch] = []
    matches: Iterable[re.Match[str]] = ()
    if "€" in text or "£" in text or "EUR" in text or "GBP" in text or "USD" in text:
        matches = _OTHER.finditer(text)
    elif "(" in text:
        matches = _OTHER_PAREN.finditer(text)
    if decimal_comma:
        extra = [m for m in _COMMA_DECIMAL.finditer(text) if "," in m.group(0) or "." in m.group(0)]
        if extra:
            matches = sorted([*matches, *extra], key=lambda m: (m.start(), -m.end()))
    for m in matches:
        if limit is not None and len(out) >= limit:
            break
        if out and m.start() < out[-1].end:
            continue
        try:
            number = read_number(m.group(0).replace("\u00a0", " "), decimal_comma=decimal_comma)
        except NumberError:
            continue
        unit = _KIND[number.kind]
        if unit == "money" and number.currency not in (None, "USD"):
            unit = f"money:{number.currency}"
        if unit == "number":
            continue  # "(2019)" or "(3)": no unit, not a figure the parser reports
        out.append(NumberMatch(m.start(), m.end(), m.group(0), float(number.value), unit))
    return out


def find_numbers(text: str, limit: int | None = None, decimal_comma: bool | None = None) -> list[NumberMatch]:
    """Every money amount, multiple, percentage and fraction in ``text``, in order.

    A leading minus may be ASCII or the unicode minus (−). With ``limit``,
    at most that many (the first) are returned. ``decimal_comma`` is the
    text's convention (:func:`ipb.engine.numbers.decimal_comma_convention`):
    True reads ``$1.500`` as 1500 and ``2,5 %`` as 0.025; None or False read
    the dot as the decimal mark.

    >>> [(n.text, n.value) for n in find_numbers("Kurs $1.500, Marge 2,5 %", decimal_comma=True)]
    [('$1.500', 1500.0), ('2,5 %', 0.025)]

    >>> [(n.text, n.value, n.unit) for n in find_numbers("$5B ARR at 10x, 95% retention, −$2B, 2/3 of NCAV")]
    [('$5B', 5000000000.0, 'money'), ('10x', 10.0, 'multiple'), ('95%', 0.95, 'ratio'), ('−$2B', -2000000000.0, 'money'), ('2/3', 0.6667, 'fraction')]
    """
    found: list[NumberMatch] = []
    for m in _number_matches(text):
        if limit is not None and len(found) >= limit:
            break
        if m.group("money") is not None:
            # read by the one reader only (it knows every scale in any case and both sign places); a shape it refuses
            # (beyond its limits) is no figure, as for the other units
            # ("USD $5M" names the currency twice: read as "$5M")
            value = _read(_USD_DOLLAR.sub("$", m.group(0), count=1), decimal_comma)
            if value is None:
                continue
            found.append(NumberMatch(m.start(), m.end(), m.group(0), value, "money"))
            continue
        # the one reader reads the figure in its plain spelling ("-1,234.5 percent" as "-1234.5%"): its groups were
        # checked by the pattern, and no convention may turn them into a decimal mark
        # (exact, then one rounding to a float: "66.017 billion" is 66017000000.0, not 66016999999.99999)
        plain = ("-" if m.group("sign") else "") + m.group("num").replace(",", "") + (m.group("dec") or "") \
            + ("." + m.group("cdec")[1:] if m.group("cdec") else "")
        if m.group("frac") is not None:
            den = int(m.group("den"))
            if den == 0 or m.group("dec") or den > 1000:
                continue
            unit, token = "fraction", plain
        elif m.group("x") is not None:
            unit, token = "multiple", plain + "x"
        elif m.group("pct") is not None or m.group("pp") is not None or m.group("bp") is not None:
            # percentage points ("3pp", "6.5 points over Treasuries") are percentages; basis points a hundredth
            unit, token = "ratio", plain + "%"
        else:
            unit, token = "number", plain + " " + m.group("scale")
        value = _read(token)
        if value is None:  # pragma: no cover - every figure the pattern finds (at most 23 digits) is one the reader reads
            continue
        if unit == "fraction":
            value = round(value / den, 4)
        elif m.group("bp") is not None:
            value = round(value / 100, 10)
        if unit == "ratio" and not m.group("sign") and value > 0 and _parenthesised_fall(text, m.start(), m.end()):
            value = -value
        found.append(NumberMatch(m.start(), m.end(), m.group(0), value, unit))
    others = _others(text, limit, decimal_comma)
    if not others:
        return found
    # an accounting negative or a euro amount covers the plain reading inside it ("$7M" in "($7M)", "1.234" in "€1.234,5")
    merged: list[NumberMatch] = []
    spans = sorted(others, key=lambda n: n.start)
    k = 0
    for n in found:
        while k < len(spans) and spans[k].end <= n.start:
            merged.append(spans[k])
            k += 1
        if k < len(spans) and spans[k].start < n.end:
            continue
        merged.append(n)
    merged.extend(spans[k:])
    out: list[NumberMatch] = []
    for n in merged:
        if out and n.start < out[-1].end:
            continue
        out.append(n)
    return out[:limit] if limit is not None else out


_YEAR = re.compile(r"(1[6-9]\d\d|20\d\d)(?<![\w$.,/\u2212-]\d{4})(?:s\b|(?![\w%\u00d7$]|[.,]\d))")


def find_years(text: str, limit: int | None = None) -> list[tuple[int, int, int]]:
    """Every calendar year (1600-2099) in ``text`` as (year, start, end); "1990s" counts as 1990.

    With ``limit``, at most that many (the first) are returned.

    >>> find_years("the 1986 letter, not 1990; $2000 and 2,019 are not years")
    [(1986, 4, 8), (1990, 21, 25)]
    >>> find_years("1986 1987 1988", limit=2)
    [(1986, 0, 4), (1987, 5, 9)]
    """
    matches = _YEAR.finditer(text)
    if limit is not None:
        matches = islice(matches, limit)
    return [(int(m.group(1)), m.start(1), m.end(1)) for m in matches]
