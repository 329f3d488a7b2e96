"""Question text for perturbed items: natural sentences from the cards' inputs (issue 18, part 5).

Templates ship as package data (``perturb/templates/L7.txt``, ``L8.txt``) and
are read through :mod:`importlib.resources`. The facts paragraph states every
fact of the scenario once, as one sentence per fact and nothing else:

* an input with a ``phrase:`` (``"The company has {value} of annual recurring
  revenue."``) uses it; after a question (``"Does ...? {value}."``) a yes/no
  answer is capitalised;
* a bool input is a yes/no line: a description (or ``label:``) ``"Whether S
  is ..."`` becomes the question ``"Is S ...? No."`` when its subject is plain
  (:func:`_whether_question`), else ``"Whether ...: no."``; a description
  that states the fact (``The issuer is ...``) gives ``"The issuer is ...: no."``;
* any other input is stated as ``"The <label> is <value>."``, the label being
  the input's ``label:``, else the first clause of its description when that
  is a noun phrase of at most 14 words, else its name in words (acronyms in
  capitals).

The inputs a gate reads that the scenario leaves out are named with their
articles in one sentence (:func:`unknown_sentence`): ``"The evidence on
management's integrity is not disclosed."``.

Values are exact (:func:`value_text`): ``$2.5B``, ``95.5%``, ``7x`` (money under
$1M in full: ``$324,001``, ``$2.40``), a plain
number with its unit (``10 years``, ``1 year``; not repeated when the label names it, an
ordinal for a place in a ranking: ``12th``), category values as the card's
``value_labels:`` show them (``Berkshire Hathaway``), else in words with
acronyms in capitals (``subscription software``, ``US government``), bools as
``yes``/``no``, dates in ISO form. No text is snake_case, and each value
reads back to the same engine value
(:func:`ipb.engine.scenario.convert_fact` after :func:`read_value`), so a
reader (or a test) can recover the scenario from the question.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any

from ipb.engine._yaml import YamlDoc
from ipb.engine.card import Card, InputSpec
from ipb.errors import PerturbError
from ipb.engine.execute import INCONCLUSIVE_OUTCOME
from ipb.perturb.frame import Frame, PScenario, cached_text, card_outcomes
from ipb.perturb._question_setting import card_words, own_title, possessor
from ipb.perturb.undisclosed import UNKNOWN_LIMIT, needed_undisclosed
from ipb.perturb.values import literal, money_text

__all__ = ["template", "render_question", "label", "input_label", "question_label", "label_and_unit", "value_text",
           "category_text", "read_value", "unknown_sentence", "fact_sentence", "fact_pattern", "fact_sentence_errors",
           "NO_UNIT", "ORDINAL_UNITS"]

#: Free-text units that add nothing after a plain number (``3 count`` reads ``3``).
NO_UNIT = frozenset({"count", "number", "n", "score", "index", "ratio"})

#: Words written in capitals when a name is put into words.
_ACRONYMS = {"arr": "ARR", "ev": "EV", "eps": "EPS", "pe": "P/E", "aaa": "AAA", "gdp": "GDP", "ebit": "EBIT",
             "irr": "IRR", "adr": "ADR", "cfo": "CFO", "roa": "ROA", "roe": "ROE", "roic": "ROIC", "nbim": "NBIM",
             "cbdc": "CBDC", "esg": "ESG", "ipo": "IPO", "yr": "year", "avg": "average", "gics": "GICS",
             "hy": "high-yield", "us": "US", "usd": "USD", "ai": "AI", "saas": "SaaS"}
#: Words of a category value written in capitals (or their own case) in a question: the acronyms, not the
#: abbreviations that :func:`label` spells out (``yr``).
_VALUE_WORDS = {k: v for k, v in _ACRONYMS.items() if v != v.lower()}
#: A description whose first clause starts with one of these is not a noun phrase to name the input by.
_NOT_A_NAME = ("across", "of ", "whether", "how ", "why ", "what ", "the ", "a ", "an ", "for ", "if ", "when ",
               "where ", "which ", "who ")
#: The most words a description's first clause may have to name its input (``Percentile of the inflow of buyers
#: who were not previously in the market``: 13); a longer clause gives way to the name in words.
_LABEL_WORDS = 14
#: First words of a question (a description that asks is no name for the input).
_AUXILIARIES = frozenset({"did", "does", "do", "is", "are", "was", "were", "has", "have", "had", "can", "could",
                          "will", "would", "should", "may", "must"})
#: Words that qualify a name in time; at the end of a name in words they are moved in front.
_QUALIFIERS = frozenset({"prior", "previous", "current", "next", "last", "initial", "final", "trailing", "forward"})
#: Words after "over" that make it a span of time or a comparison, not a quotient.
_NOT_A_DIVISOR = frozenset({"the", "a", "an", "last", "past", "next", "previous", "prior", "recent", "time", "its",
                            "their", "this", "that", "each", "every", "one", "two", "three", "five", "ten", "many"})
_ARTICLES = frozenset({"the", "a", "an"})
#: Words after "over the" / "over a" that make it a span of time ("over the past decade"), not a divisor.
_SPAN_WORDS_AFTER_OVER = frozenset({"last", "past", "next", "previous", "prior", "recent", "same", "latest", "long",
                                    "short", "whole", "entire", "full", "following", "coming", "period", "periods",
                                    "year", "years", "decade", "decades", "month", "months", "quarter", "quarters",
                                    "week", "weeks", "day", "days", "cycle", "cycles", "run", "life", "lifetime",
                                    "horizon", "term", "time", "history", "course", "span", "interval", "holding"})
#: Words that end a noun phrase's head (``retention`` in ``retention of existing customers``).
_PREPOSITIONS = frozenset({"of", "in", "at", "for", "on", "from", "to", "with", "over", "under", "before", "after",
                           "since", "during", "by", "as", "than", "across", "among", "between", "within", "until",
                           "against", "above", "below", "less", "minus", "plus", "the", "a", "an", "that", "which",
                           "who", "whose", "where", "when"})
#: Singular nouns that end in -s like a plural.
_SINGULAR_S = frozenset({"bias", "gas", "alias", "atlas", "canvas", "news", "lens", "series", "species", "means",
                         "chaos", "ethos", "thesis", "crisis", "yes", "plus", "minus"})
#: Words in the part before "over" that make ``A over B`` a difference or a span, not a quotient.
_NOT_A_QUOTIENT = frozenset({"spread", "spreads", "premium", "excess", "change", "growth", "increase", "decrease",
                             "rise", "fall", "return", "returns", "gain", "discount", "lead", "margin", "outperformance",
                             "averaged", "measured", "held", "compounded", "annualized", "annualised"})
#: Units that name a place in an order: the value is written as an ordinal (``12th``), not ``12 place``.
ORDINAL_UNITS = frozenset({"place", "rank", "position", "ranking"})
#: Units of time; a label that names the unit itself (``planned holding months``) is reworded (issue 18).
_TIME_UNITS = {"day": "days", "week": "weeks", "month": "months", "quarter": "quarters", "year": "years"}
#: Words after a time unit that make it a span (``months between A and B``: ``time between A and B``).
_SPAN_WORDS = frozenset({"until", "till", "between", "since", "before", "after", "to"})
#: Verbs a ``Whether`` clause is turned into a question on (moved in front of the subject).
_INVERTIBLE = frozenset({"is", "are", "was", "were", "can", "could", "will", "would", "should", "must", "has", "have",
                         "had"})
#: ``has`` with an object, not a participle: the question takes ``does`` (``Does the firm have ...?``).
_DO_SUPPORT = {"has": "does", "have": "do", "had": "did"}
_PARTICIPLES = frozenset({"been", "bought", "made", "taken", "given", "seen", "done", "shown", "grown", "fallen",
                          "risen", "paid", "sold", "held", "kept", "built", "begun", "met", "lost", "won", "become"})
#: Words that give a subject a clause of its own: no simple inversion (``events since the position was taken``).
_CLAUSE_WORDS = frozenset({"that", "which", "who", "whom", "whose", "since", "when", "where", "while", "if",
                           "because", "after", "before", "until", "whether", "than"})
_ORDINAL = re.compile(r"(?P<n>[0-9]+)(?:st|nd|rd|th)")
#: Leading words of a label that take no article (``All liabilities are ...``): a label that opens with its own
#: article keeps it (s45user: ``label: the market's mood about the company`` read "The the market's mood ...").
_NO_ARTICLE = ("all ", "both ", "each ", "every ", "any ", "its ", "their ", "this ", "these ", "those ",
               "the ", "a ", "an ")
#: A possessive that is its own determiner: a time (``last year's Z-score``, ``today's price``) or a name
#: (``Berkshire's book value``) takes no article (s42user: "The last year's Z-score is 3.5."); a common noun's
#: (``central bank's stance``, ``company's average P/E``) does.
_TIME_POSSESSIVE = re.compile(r"(?:today|yesterday|tomorrow|(?:last|this|next|prior|previous|past|current)\s+"
                              r"(?:year|quarter|month|week|decade|cycle))['\u2019]s\s", re.IGNORECASE)
_NAME_POSSESSIVE = re.compile(r"[A-Z][\w.&-]*['\u2019]s\s")
#: A two-word name's possessive (``Wall Street's view``, s58user F-K1: "The Wall Street's view ...") takes none either,
#: unless its last word names a body that takes the article (``the Federal Reserve's``, ``the Executive Board's``);
#: longer names are left with theirs (``the Norges Bank Executive Board's decision``).
_NAME2_POSSESSIVE = re.compile(r"[A-Z][\w.&-]*\s+(?P<last>[A-Z][\w.&-]*)['\u2019]s\s")
_BODIES = frozenset({"Bank", "Board", "Committee", "Reserve", "Fund", "Council", "Government", "Commission",
                     "Ministry", "Treasury", "Court", "Agency", "Authority", "Department", "Office", "Exchange",
                     "Union", "Institute", "Association", "Party", "Parliament", "Congress", "Senate", "Group"})
_CLAUSE = re.compile(r"(?<=[A-Za-z0-9%)])[.;:](?:\s|$)| \(|, ")
_W = r"(?!(?:and|or)\b)[\w'-]+"
#: After a comma: the rest of a list of three or more short items (``taxes, depreciation and amortisation``), which
#: belongs to the clause (``Earnings before interest, taxes, ...`` is EBITDA, not ``earnings before interest``).
_LIST_REST = re.compile(rf"(?:{_W}(?: {_W}){{0,2}}, )+{_W}(?: {_W}){{0,2}},? (?:and|or) [\w'-]")


@lru_cache(maxsize=None)
def template(layer: str) -> Template:
    """The question template of ``layer`` (``L7`` or ``L8``).

    Raises
    ------
    PerturbError
        Rule ``template``: no template ships for that layer.
    """
    try:
        text = resources.files("ipb.perturb").joinpath("templates", f"{layer}.txt").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PerturbError(f"no question template for layer {layer}", rule="template", name=layer) from None
    return Template(text.strip())


def label(name: str) -> str:
    """An input name in words, acronyms in capitals: ``ev_to_arr`` -> ``EV to ARR``.

    >>> label("revenue_retention"), label("eps_3yr_avg")
    ('revenue retention', 'EPS 3yr average')
    """
    return " ".join(_ACRONYMS.get(w, w) for w in name.split("_") if w)


def _sentence_start(text: str) -> str:
    return text[:1].upper() + text[1:]


def input_label(spec: InputSpec) -> str:
    """How a question names ``spec``: its ``label``, a short description clause, or its name in words.

    >>> from ipb.engine.expressions import MONEY
    >>> input_label(InputSpec("arr", "money", MONEY, "Annual recurring revenue, the run rate."))
    'annual recurring revenue'
    >>> input_label(InputSpec("cash", "money", MONEY, "Across the holdings, the least cash."))
    'cash'
    """
    if spec.label:
        return spec.label
    description = " ".join(spec.description.split())
    clause = _first_clause(description)
    words = clause.split()
    if 2 <= len(words) <= _LABEL_WORDS and not clause.lower().startswith(_NOT_A_NAME) and not _asks(clause):
        named = clause if _starts_with_acronym(clause) else clause[:1].lower() + clause[1:]
        return _ratio_of(named) if spec.type != "bool" else named
    return _qualifier_first(label(spec.name))


def _first_clause(description: str) -> str:
    """The first clause of ``description``; a comma that starts a list's rest does not end it (new-user finding).

    >>> _first_clause("Earnings before interest, taxes, depreciation and amortisation over the last year.")
    'Earnings before interest, taxes, depreciation and amortisation over the last year'
    >>> _first_clause("Annual recurring revenue, the run rate.")
    'Annual recurring revenue'
    """
    inside = 0  # the end of a list that a comma started: its own commas do not end the clause
    for m in _CLAUSE.finditer(description):
        if m.group() == ", " and m.start() < inside:
            continue
        rest = _LIST_REST.match(description, m.end()) if m.group() == ", " else None
        if rest is None:
            return description[:m.start()]
        inside = rest.end()
    return description


def _starts_with_acronym(text: str) -> bool:
    """Whether ``text`` starts with an acronym to keep in capitals (``GICS-style``, ``P/E``; not ``T-statistic``).

    >>> [_starts_with_acronym(x) for x in ("GICS-style sector", "P/E ratio", "T-statistic of alpha", "Market cap")]
    [True, True, False, False]
    """
    letters = [c for c in re.split(r"[\s-]", text, maxsplit=1)[0] if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _asks(text: str) -> bool:
    """True for a question (``"Did the firm issue equity?"``): it names no thing."""
    return text.rstrip().endswith("?") or text.split(" ", 1)[0].lower() in _AUXILIARIES


def _qualifier_first(words: str) -> str:
    """A name in words with a trailing time qualifier moved in front: ``gross margin prior`` -> ``prior gross margin``.

    >>> _qualifier_first("gross margin prior"), _qualifier_first("ROA")
    ('prior gross margin', 'ROA')
    """
    head, _, last = words.rpartition(" ")
    return f"{last} {head}" if head and last in _QUALIFIERS else words


def _ratio_of(text: str) -> str:
    """``A over B`` (a quotient, as authors write ratios) -> ``ratio of A to B``; other text unchanged.

    >>> _ratio_of("cash flow from operations over beginning total assets")
    'ratio of cash flow from operations to beginning total assets'
    >>> _ratio_of("revenue growth over the last five years")
    'revenue growth over the last five years'
    >>> _ratio_of("annual dividend over the share price")
    'ratio of annual dividend to the share price'
    >>> _ratio_of("earnings averaged over a full cycle")
    'earnings averaged over a full cycle'
    """
    first, sep, rest = text.partition(" over ")
    lead = rest.split(" ", 1)[0].lower()
    if lead in _ARTICLES and not _SPAN_WORDS_AFTER_OVER & set(rest.lower().split()):
        lead = ""  # "over the share price": a divisor; "over the past year", "over a full cycle": a span
    if not sep or " over " in rest or not first or lead in _NOT_A_DIVISOR:
        return text
    if any(w.lower() in _NOT_A_QUOTIENT for w in first.split()):
        return text  # the spread of bonds over Treasuries, growth over a year: not a ratio
    if rest.split(" ", 1)[0][:1].isdigit():
        return text
    return f"ratio of {first} to {rest}"


#: Words after a participle that make it open a clause of its own (``expected five years from now``).
_CLAUSE_OPENERS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve",
                             "next", "last", "this", "each", "every", "per"}) | _PREPOSITIONS


def _opens_participle_clause(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is a past participle opening a clause after the head noun, which then ends there:
    ``earnings per share expected five years from now`` (head ``share``), ``shares repurchased in 2020``
    (head ``shares``). It must be followed by a number, a preposition or a word such as ``next``, or end the
    label; a participle before a noun (``net realized gains``) is an adjective and leaves the head alone.

    >>> [_opens_participle_clause(w.split(), 3) for w in ("earnings per share expected five years",
    ...  "net income of realized gains", "return on capital employed")]
    [True, False, True]
    """
    w = words[i].lower()
    if not (w in _PARTICIPLES or (len(w) > 4 and w.endswith("ed"))):
        return False
    if i + 1 == len(words):
        return True
    after = words[i + 1].lower()
    return after in _CLAUSE_OPENERS or after[:1].isdigit()


def _plural(name: str) -> bool:
    """Whether a label names a plural thing (``all liabilities``, ``total assets``, ``earnings``): it takes ``are``.

    The head noun is the last word before the first preposition; a
    lower-case word ending in ``s`` (not ``ss``, ``us``, ``is``) is plural.
    A leading ``ratio of``, ``share of``... is singular whatever follows.

    >>> [_plural(x) for x in ("all liabilities", "net revenue retention of existing customers", "EPS", "basis")]
    [True, False, False, False]
    """
    words = name.split()
    if not words:
        return False
    if words[0].lower() in ("all", "both"):
        return True
    head = words[-1]
    for i, w in enumerate(words):
        if i and (w.lower() in _PREPOSITIONS or w.endswith("'s") or _opens_participle_clause(words, i)):
            head = words[i - 1]
            break
    return (len(head) > 3 and head.islower() and head.endswith("s") and not head.endswith(("ss", "us", "is"))
            and head not in _SINGULAR_S)


def _question_clause(spec: InputSpec) -> str | None:
    """A bool input's yes/no line: the first sentence of its description when it asks (``"Did ...?"``, or
    ``"Whether S is ..."`` turned into ``"Is S ...?"``, :func:`_whether_question`) or states (``"Whether
    ..."``, ``"The issuer is ..."``) the fact in at most 24 words, else its label."""
    if spec.type != "bool":
        return None
    description = " ".join(spec.description.split())
    if _asks(description):
        first = re.split(r"(?<=\?)\s", description)[0]
        if first.endswith("?") and len(first.split()) <= 24:
            return _sentence_start(first)
    for whether in (spec.label, description):  # a label "whether ..." names the fact as the author wants it read
        if whether.lower().startswith("whether "):
            first = re.split(r"(?<=[a-z0-9%)])\.(?:\s|$)", _sentence_start(whether))[0].rstrip(".")
            asked = _whether_question(first)
            if asked is not None and len(asked.split()) <= 24:
                return asked
    if description.startswith(("Whether ", "The ")):
        first = re.split(r"(?<=[a-z0-9%)])\.(?:\s|$)", description)[0].rstrip(".")
        if len(first.split()) <= 24 and ": " not in first:
            return first
    return _sentence_start(input_label(spec))


def _whether_question(clause: str) -> str | None:
    """``"Whether S AUX REST"`` as the question ``"AUX S REST?"`` when the subject S is plain (no clause of its
    own); ``has``/``have``/``had`` not followed by a participle take ``does``/``do``/``did``. None when the
    clause has no such shape (the caller keeps ``"Whether ...: yes."``).

    >>> _whether_question("Whether the central bank is buying assets (quantitative easing)")
    'Is the central bank buying assets (quantitative easing)?'
    >>> _whether_question("Whether owners (and directors) have the information needed")
    'Do owners (and directors) have the information needed?'
    >>> _whether_question("Whether insiders have bought shares"), _whether_question("Whether the firm pays")
    ('Have insiders bought shares?', None)
    >>> print(_whether_question("Whether events since the position was taken bear it out"))
    None
    """
    words = clause.split()
    if len(words) < 3 or words[0] != "Whether":
        return None
    at = next((i for i, w in enumerate(words[2:12], 2) if w.lower() in _INVERTIBLE), None)
    if at is None or len(words) == at + 1:
        return None
    subject = words[1:at]
    if any(w.lower().strip("(),") in _CLAUSE_WORDS or w.endswith(",") for w in subject):
        return None
    aux, rest = words[at].lower(), words[at + 1:]
    if aux in _DO_SUPPORT and not (rest[0].endswith(("ed", "en")) or rest[0] in _PARTICIPLES):
        aux, rest = _DO_SUPPORT[aux], ["have", *rest]
    return f"{_sentence_start(aux)} {' '.join(subject)} {' '.join(rest)}?"


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``12th``, ``23rd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def label_and_unit(spec: InputSpec) -> tuple[str, str | None, bool]:
    """How a question names ``spec`` and the unit written after its number: ``(label, unit or None, ordinal)``.

    The unit is not repeated when the label already names it (``"The t-statistic of the alpha is 2.6."``,
    not ``"... is 2.6 t-statistic."``) or counts something (``"The number of years ... is 7."``; a label that
    opens with the plural unit counts it: ``Years the business has operated`` reads ``number of years ...``); a label
    whose time unit is its own word is reworded (``planned holding months`` -> ``planned holding period``,
    ``months between A and B`` -> ``time between A and B``) and keeps the unit, and a label ending "in <the unit>"
    drops those words (``time to close in years`` -> ``time to close``, the unit after the value); a unit that names a place
    in an order (:data:`ORDINAL_UNITS`) makes the value an ordinal (``12th``), never ``12 place``.

    >>> from ipb.engine.expressions import NUMBER
    >>> label_and_unit(InputSpec("planned_holding_months", "number", NUMBER, unit="months"))
    ('planned holding period', 'months', False)
    >>> label_and_unit(InputSpec("years_to_close", "number", NUMBER, "Expected time to close in years.", unit="years"))
    ('expected time to close', 'years', False)
    >>> label_and_unit(InputSpec("rank", "number", NUMBER, "Place of the stock in the ranking.", unit="place"))
    ('place of the stock in the ranking', None, True)
    >>> label_and_unit(InputSpec("age", "number", NUMBER, "Years the business has operated.", unit="years"))
    ('number of years the business has operated', None, False)
    """
    name = input_label(spec)
    unit = " ".join((spec.unit or "").split())
    low = unit.lower()
    if spec.type != "number" or not unit or low in NO_UNIT:
        return name, None, False
    if low in ORDINAL_UNITS:
        return name, None, True
    if name.lower().startswith("number of "):
        return name, None, False  # a count: "The number of years of dividends is 20."
    singular = next((k for k, v in _TIME_UNITS.items() if low in (k, v)), None)
    forms = {singular, _TIME_UNITS[singular]} if singular else {low}
    words = name.split()
    lowered = [w.lower() for w in words]
    for i, w in enumerate(lowered):
        if w not in forms:
            continue
        if singular and i == len(words) - 1 and i >= 2 and lowered[i - 1] == "in":
            # "expected time to close in years" says the unit the value is given in: the unit follows the value
            # ("... to close is 2.3 years"; s49user's item read "The expected time to close in period is 2.3 years.")
            return " ".join(words[: i - 1]), unit, False
        if singular and (i == len(words) - 1 or lowered[i + 1] in _SPAN_WORDS):
            words[i] = "period" if i == len(words) - 1 else "time"
            return " ".join(words), unit, False
        if i == 0 and len(words) > 1 and w.endswith("s") and w == (_TIME_UNITS[singular] if singular else low):
            return "number of " + " ".join([w, *words[1:]]), None, False  # "Years the business has run": a count
        return name, None, False  # the label names the unit already
    if f" {low} " in f" {name.lower()} ":
        return name, None, False
    return name, unit, False


def question_label(spec: InputSpec) -> str:
    """The label a question uses for ``spec`` (:func:`label_and_unit`'s first part)."""
    return label_and_unit(spec)[0]


def value_text(spec: InputSpec, value: Any) -> str:
    """A fact's value as the question shows it: exact, with its unit, never snake_case.

    >>> from ipb.engine.expressions import NUMBER, RATIO, category
    >>> from decimal import Decimal
    >>> value_text(InputSpec("y", "number", NUMBER, unit="years"), Decimal(10))
    '10 years'
    >>> value_text(InputSpec("r", "ratio", RATIO), Decimal("0.955"))
    '95.5%'
    >>> value_text(InputSpec("m", "category", category(["subscription_software"])), "subscription_software")
    'subscription software'
    >>> value_text(InputSpec("p", "number", NUMBER, unit="place"), Decimal(12))
    '12th'
    >>> value_text(InputSpec("y", "number", NUMBER, unit="years"), Decimal(1))
    '1 year'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    if spec.type == "category":
        return category_text(spec, str(value))
    if spec.type == "money" and isinstance(value, Decimal):
        return money_text(value)
    text = str(literal(spec, value))
    if spec.type != "number":
        return text
    text = _grouped(text)
    _, unit, ordinal = label_and_unit(spec)
    if ordinal and text.isdigit():
        return _ordinal(int(text))
    if ordinal and spec.unit:
        unit = " ".join(spec.unit.split())  # not a whole place: the bare unit, as before
    if unit and text == "1":
        unit = _one_of(unit)
    return f"{text} {unit}" if unit else text


def _grouped(text: str) -> str:
    """A plain number of five or more whole digits with thousands separators, as a reader writes it (s53review: NBIM's
    "10000 MW"); four digits stay bare ("2500 MW", never a year-like "2,024"). :func:`read_value` removes them again.

    >>> [_grouped(t) for t in ("10000", "-56500", "1234567.25", "9999", "2.5", "1E+5")]
    ['10,000', '-56,500', '1,234,567.25', '9999', '2.5', '1E+5']
    """
    m = _PLAIN_NUMBER.fullmatch(text)
    if m is None or len(m.group("whole")) < 5:
        return text
    return f"{m.group('sign')}{int(m.group('whole')):,}{m.group('frac')}"


_PLAIN_NUMBER = re.compile(r"(?P<sign>-?)(?P<whole>[0-9]+)(?P<frac>(?:\.[0-9]+)?)")
_GROUPED_NUMBER = re.compile(r"-?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")


#: A plural unit word -> its singular, for a count of one ("is 1 year", not "is 1 years"; s35review).
_SINGULAR = {**{v: k for k, v in _TIME_UNITS.items()}, "issues": "issue", "points": "point", "companies": "company",
             "stocks": "stock", "positions": "position", "shares": "share"}


def _one_of(unit: str) -> str:
    """``unit`` for a count of one: its first word singular when it is a plural this module knows.

    >>> _one_of("years"), _one_of("years to resolution"), _one_of("MW"), _one_of("count")
    ('year', 'year to resolution', 'MW', 'count')
    """
    first, _, rest = unit.partition(" ")
    single = _SINGULAR.get(first)
    return unit if single is None else f"{single} {rest}".rstrip()


def category_text(spec: InputSpec, value: str) -> str:
    """How a question shows a category value: the card's ``value_labels`` text, else the value in words with
    acronyms in capitals (:data:`_VALUE_WORDS`); never snake_case.

    >>> from ipb.engine.expressions import category
    >>> values = ("berkshire_hathaway", "us_listed_peer")
    >>> spec = InputSpec("issuer", "category", category(values), values=values,
    ...                  value_labels=(("berkshire_hathaway", "Berkshire Hathaway"),))
    >>> category_text(spec, "berkshire_hathaway"), category_text(spec, "us_listed_peer")
    ('Berkshire Hathaway', 'US listed peer')

    Raises
    ------
    PerturbError
        Rule ``question``: two values of the input would read alike, so a question could not be read back.
    """
    return _value_displays(spec).get(value) or _value_words(value)


def _value_words(value: str) -> str:
    return " ".join(_VALUE_WORDS.get(w, w) for w in value.split("_") if w)


@lru_cache(maxsize=4096)
def _value_displays(spec: InputSpec) -> dict[str, str]:
    """Value -> the text a question shows for it, for every value of a category input (checked to differ)."""
    labels = dict(spec.value_labels)
    shown = {v: labels.get(v) or _value_words(v) for v in spec.values or ()}
    seen: dict[str, str] = {}
    for v, text in shown.items():
        other = seen.setdefault(text.lower(), v)
        if other != v:
            raise PerturbError(f"values {other!r} and {v!r} of input {spec.name!r} both read {text!r} in a "
                               "question; give one a value_labels text", rule="question", name=spec.name)
    return shown


def value_word_errors(card: Card, doc: YamlDoc | None = None) -> list[PerturbError]:
    """One error per category input of ``card`` two of whose values would read alike in a question
    (:func:`_value_displays`), placed at the input's ``values`` in ``doc`` (the card's file) when given.

    ``ipb check`` reports these, and ``ipb perturb`` refuses such a card before any work.
    """
    found: list[PerturbError] = []
    for spec in card.inputs.values():
        try:
            _value_displays(spec) if spec.values else None
        except PerturbError as exc:
            found.append(exc if doc is None else doc.place(exc, ("inputs", spec.name, "values")))
    return found


def fact_sentence_errors(card: Card, doc: YamlDoc | None = None) -> list[PerturbError]:
    """One error per input of ``card`` whose fact sentence (:func:`fact_sentence_shape`, case aside) is another
    input's: a question would state two facts in the same words and no reader could tell them apart (a new user's
    ``leverage`` and ``leverage_prior``, both described "long-term debt over average total assets", the second with
    ", prior year" after a comma, which ends the clause a label is read from). Placed at the later input's name in
    ``doc`` when given. ``ipb check`` reports these, and ``ipb perturb`` refuses such a card before any work.
    """
    found: list[PerturbError] = []
    seen: dict[str, str] = {}
    for spec in card.inputs.values():
        shape = " ".join(fact_sentence_shape(spec).lower().split())
        other = seen.setdefault(shape, spec.name)
        if other == spec.name:
            continue
        exc = PerturbError(f"inputs {other!r} and {spec.name!r} are both stated as {fact_sentence_shape(spec)!r} "
                           "in a question, so a reader cannot tell them apart; give one a label: (or a phrase:) of "
                           "its own (docs/perturbation.md, 'Questions')", rule="question", name=spec.name)
        found.append(exc if doc is None else doc.place(exc, ("inputs", spec.name), key=True))
    return found


def read_value(spec: InputSpec, text: str) -> Any:
    """The literal a question's value text stands for (the inverse of :func:`value_text`).

    Returns the scenario-file literal (``"95.5%"``, ``True``, ``"subscription_software"``);
    :func:`ipb.engine.scenario.convert_fact` turns it into the engine value.

    Raises
    ------
    PerturbError
        Rule ``question``: the text is not a value of the input.
    """
    if spec.type == "bool":
        if text in ("yes", "no", "Yes", "No"):  # capitalised after a question: "Did ...? No."
            return text.lower() == "yes"
    elif spec.type == "category":
        for v, shown in _value_displays(spec).items():
            if shown == text:
                return v
    elif spec.type == "number":
        _, unit, ordinal = label_and_unit(spec)
        m = _ORDINAL.fullmatch(text) if ordinal else None
        if m is not None and _ordinal(int(m.group("n"))) == text:
            return m.group("n")
        if ordinal and spec.unit:
            unit = " ".join(spec.unit.split())
        if not unit:
            return _ungrouped(text)
        if text == f"1 {_one_of(unit)}":
            return "1"
        if text.endswith(f" {unit}"):
            return _ungrouped(text[: -len(unit) - 1])
    else:
        return text
    raise PerturbError(f"{text!r} is not a value of input {spec.name!r}", rule="question", name=spec.name)


def _ungrouped(text: str) -> str:
    """``text`` without the thousands separators :func:`_grouped` wrote (``"10,000"`` -> ``"10000"``); anything else
    as it is."""
    return text.replace(",", "") if _GROUPED_NUMBER.fullmatch(text) else text


def fact_sentence(spec: InputSpec, value: Any) -> str:
    """The one sentence that states a fact (see the module docstring for the forms).

    >>> from decimal import Decimal
    >>> from ipb.engine.expressions import BOOL, MONEY
    >>> fact_sentence(InputSpec("debt", "money", MONEY, "All liabilities, current and long-term."), Decimal("7.7e8"))
    'All liabilities are $770M.'
    >>> fact_sentence(InputSpec("issued", "bool", BOOL, "Did the firm issue common equity last year?"), False)
    'Did the firm issue common equity last year? No.'
    """
    shown = value_text(spec, value)
    shape = fact_sentence_shape(spec)
    if isinstance(value, bool) and "? {value}" in shape:
        shown = _sentence_start(shown)  # the answer to a question: "Did ...? No."
    return shape.replace("{value}", shown)


def fact_pattern(spec: InputSpec) -> re.Pattern[str]:
    """A regular expression matching exactly :func:`fact_sentence`'s sentences for ``spec``; group ``value``."""
    marker = "\x00VALUE\x00"
    shape = fact_sentence_shape(spec).replace("{value}", marker)
    return re.compile(re.escape(shape).replace(re.escape(marker), r"(?P<value>.+?)") + r"(?= |$)")


def fact_sentence_shape(spec: InputSpec) -> str:
    """:func:`fact_sentence` with ``{value}`` in place of the value."""
    if spec.phrase:
        return spec.phrase
    clause = _question_clause(spec)
    if clause is not None:
        return f"{clause} {{value}}." if clause.endswith("?") else f"{clause}: {{value}}."
    name = question_label(spec)
    bare = _acronym_name(name) or _determined(name)
    verb = "are" if _plural(name) else "is"
    return f"{_sentence_start(name if bare else 'the ' + name)} {verb} {{value}}."


def _acronym_name(name: str) -> bool:
    """A label that is acronyms only (``ROA``, ``EV to EBIT``) takes no article; ``GICS-style sector`` does.

    >>> [_acronym_name(x) for x in ("ROA", "EV to EBIT", "GICS-style sector of the company", "P/E historical average")]
    [True, True, False, False]
    """
    words = name.split()
    return bool(words) and words[0].isupper() and all(w.isupper() or w == "to" for w in words)


def _outcomes(frame: Frame, missing: tuple[str, ...] = ()) -> str:
    """The final verdicts the task offers: the card's (:func:`card_outcomes`), and INCONCLUSIVE besides on a
    conjunction that can be left undecided with the inputs ``missing`` undisclosed (:func:`undecidable`)."""
    names = card_outcomes(frame.cards[0])
    if missing and INCONCLUSIVE_OUTCOME not in names and undecidable(frame, missing):
        names = [*names, INCONCLUSIVE_OUTCOME]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def undecidable(frame: Frame, missing: tuple[str, ...]) -> bool:
    """Whether an L7 conjunction can end INCONCLUSIVE when the inputs ``missing`` are undisclosed.

    A conjunction ends INCONCLUSIVE when a decisive gate is INCONCLUSIVE, or when no gate PROCEEDs
    (README, "Decisive gates"; paper §7.3). This reads the undisclosed inputs only: the answer is yes when
    a decisive gate reads one of ``missing``, or when every gate does. (A gate that can be INCONCLUSIVE on
    stated facts, a value between its ``proceed`` and ``reject`` criteria such as a decision still pending,
    or a divisor zero, puts INCONCLUSIVE among the card's own outcomes: :func:`card_outcomes`, stop 33.)
    The rule reads the card and which inputs are undisclosed, never the item's gold, so
    offering INCONCLUSIVE tells a model nothing the question's "not disclosed" sentence does not.

    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["buffett_acquisition_checklist"])
    >>> undecidable(frame, ("management_record",)), undecidable(frame, ("ev_to_arr",))
    (False, True)
    """
    card = frame.cards[0].card
    reading = {gate.rsplit("/", 1)[1] for name in missing for gate in frame.consumers.get(name, ())}
    return any(g.decisive for g in card.gates if g.id in reading) or all(g.id in reading for g in card.gates)


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _sentence(frame: Frame, name: str, value: Any) -> str:
    return fact_sentence(frame.inputs[name], value)


def render_question(frame: Frame, scenario: PScenario) -> str:
    """The question text of an item: setting, one sentence per fact, undisclosed inputs, the task.

    >>> from ipb.perturb.frame import build_frame, base_from_facts
    >>> from decimal import Decimal
    >>> frame = build_frame(["buffett_acquisition_checklist"])
    >>> text = render_question(frame, base_from_facts(frame, {"ev_to_arr": Decimal(7), "arr": Decimal("2e9")}))
    >>> print(text.splitlines()[0])
    The company has $2B of annual revenue. It is offered at 7x its annual revenue.
    """
    given = scenario.facts
    sector_inputs = frame.memo.get("question_sector_inputs")
    if sector_inputs is None:  # the inputs that name a sector: read once per frame
        sector_inputs = frame.memo["question_sector_inputs"] = tuple(n for n in frame.sectors.inputs
                                                                     if n in frame.inputs)
    stated_sector = any(n in given for n in sector_inputs)
    fixed = frame.memo.get("question")
    if fixed is None:  # what depends on the cards only: read once per frame
        fixed = frame.memo["question"] = _fixed_parts(frame)
    labels, context, pieces = fixed
    settings = frame.memo.setdefault("question_setting", {})
    key = (scenario.as_of, scenario.regime, None if stated_sector else scenario.sector)
    setting = settings.get(key)
    if setting is None:  # the date, regime and sector line, remembered per frame (few distinct ones recur)
        if len(settings) >= UNKNOWN_LIMIT:
            settings.clear()
        setting = settings[key] = _setting(frame, *key, opening=context.get("opening", ""))
    said_facts = frame.memo.setdefault("sentence", {})  # cached_text's memo, read here without a call per fact
    facts: list[str] = []
    for n in frame.inputs:
        if n in given:
            value = given[n]
            text = said_facts.get((n, value, type(value)))
            facts.append(text if text is not None else cached_text(frame, "sentence", n, value, _spec_sentence))
    missing_names = tuple(n for n in labels if n not in scenario.facts)
    named = needed_undisclosed(frame, given, missing_names, scenario.sector) if missing_names else ()
    missing = tuple(labels[n] for n in named)
    if missing:
        said = frame.memo.setdefault("unknown_sentence", {})
        unknown = said.get(missing)
        if unknown is None:
            if len(said) >= UNKNOWN_LIMIT:
                said.clear()
            unknown = said[missing] = unknown_sentence(list(missing)) + "\n"
    else:
        unknown = ""
    values = {
        "setting": setting,
        "facts": " ".join(facts) if facts else "No facts are stated.",
        "unknown": unknown,
        **context,
    }
    if missing_names and frame.layer == "L7":  # INCONCLUSIVE offered when the undisclosed inputs can leave the card undecided
        offered = frame.memo.setdefault("question_outcomes", {})
        said = offered.get(missing_names)
        if said is None:
            if len(offered) >= UNKNOWN_LIMIT:
                offered.clear()
            said = offered[missing_names] = _outcomes(frame, missing_names)
        values["outcomes"] = said
    return "".join(text if name is None else values[name] for text, name in pieces)


def _setting(frame: Frame, as_of: dt.date | None, regime_id: str | None, sector: str | None, *,
             opening: str = "") -> str:
    """The question's first line: the card's own setting sentence (``question: setting``), the decision date with
    its regime, and the sector when no input states it."""
    parts: list[str] = [opening] if opening else []
    if as_of is not None:
        setting = f"Decision date: {as_of.isoformat()}"
        if regime_id is not None:
            regime = frame.regimes.get(regime_id)
            setting += f", during the {regime.name}"
            if regime.description:
                setting += f" ({regime.description.rstrip('.')})"
        parts.append(setting + ".")
    if sector is not None:
        parts.append(f"Sector: {frame.sectors.get(sector).name}.")  # context only: no input names it
    return " ".join(parts) + "\n" if parts else ""


def unknown_sentence(names: list[str]) -> str:
    """The sentence naming the inputs a gate reads that the scenario leaves out, each with its article.

    >>> unknown_sentence(["evidence on management's integrity"])
    "The evidence on management's integrity is not disclosed."
    >>> unknown_sentence(["cycle position", "whether the story still holds", "ROA", "total assets"])
    'The following are not disclosed: the cycle position; whether the story still holds; ROA; the total assets.'
    """
    phrases = [_noun_phrase(n) for n in names]
    if len(phrases) == 1:
        return f"{_sentence_start(phrases[0])} {'are' if _plural(names[0]) else 'is'} not disclosed."
    return f"The following are not disclosed: {'; '.join(phrases)}."


def _noun_phrase(name: str) -> str:
    """A label with the article a sentence gives it (none for acronyms, ``all ...``, ``whether ...``)."""
    if _acronym_name(name) or _determined(name) or name.lower().startswith("whether "):
        return name
    return f"the {name}"


def _determined(name: str) -> bool:
    """Whether a label opens with its own determiner (``all``, ``its``, ``last year's``, ``Berkshire's``) and so takes
    no article.

    >>> _determined("last year's Z-score"), _determined("Berkshire's book value"), _determined("central bank's stance")
    (True, True, False)
    >>> _determined("Wall Street's view of the stock"), _determined("Federal Reserve's stance")
    (True, False)
    """
    if name.lower().startswith(_NO_ARTICLE):
        return True
    if _TIME_POSSESSIVE.match(name) is not None or _NAME_POSSESSIVE.match(name) is not None:
        return True
    two = _NAME2_POSSESSIVE.match(name)
    return two is not None and two.group("last") not in _BODIES

def _phrase_whether(phrase: str) -> str | None:
    """A bool's ``phrase:`` that asks (``"Has S been X? {value}."``) as the clause ``"whether S has been X"``, for the
    line naming undisclosed inputs (s62 new user N14: "the integrity doubts"); the inverse of
    :func:`_whether_question`, for an auxiliary the subject is followed by a participle or ``-ing`` form after (``is``,
    ``has``... ``been``, ``bought``, ``buying``). None when the question has no such shape (``Does ...``, ``Is S
    cheap?``): the caller keeps the label.

    >>> _phrase_whether("Has management's integrity towards shareholders been called into question? {value}.")
    "whether management's integrity towards shareholders has been called into question"
    >>> _phrase_whether("Is the central bank buying assets? {value}."), _phrase_whether("Does it pay? {value}.")
    ('whether the central bank is buying assets', None)
    """
    question, mark, _ = phrase.partition("?")
    words = question.split()
    if not mark or len(words) < 3 or words[0].lower() not in _INVERTIBLE:
        return None
    at = next((i for i, w in enumerate(words[2:], 2)
               if w in _PARTICIPLES or w.endswith(("ed", "ing")) and "'" not in w), None)
    subject = words[1:at]
    if at is None or any(w.lower().strip("(),") in _CLAUSE_WORDS for w in subject) or \
            subject[-1].lower() in ("the", "a", "an", "its", "their", "this", "these", "those"):
        return None  # "Has the listed company ...": "listed" is no participle after the subject
    return f"whether {' '.join(subject)} {words[0].lower()} {' '.join(words[at:])}"


def _unknown_label(spec: InputSpec) -> str:
    """How the undisclosed line names ``spec``: its question label; a bool described by ``Whether ...``
    (and given no ``label:``) as that clause (``whether the story still holds``); a bool whose ``phrase:`` asks
    ``"Has S been X? {value}."`` as ``whether S has been X`` (:func:`_phrase_whether`)."""
    if spec.type == "bool" and not spec.label and spec.phrase and (clause := _phrase_whether(spec.phrase)):
        return clause
    if spec.type == "bool" and not spec.label and spec.description.startswith("Whether "):
        clause = " ".join(_first_clause(" ".join(spec.description.split())).split())
        if len(clause.split()) <= 20:
            return "w" + clause[1:]
    return question_label(spec)


def _fixed_parts(frame: Frame) -> tuple[dict[str, str], dict[str, str], list[tuple[str, str | None]]]:
    """Per frame: the label of each input a gate reads, the template's card fields, the template in pieces."""
    labels = {n: _unknown_label(frame.inputs[n]) for n in frame.inputs if n in frame.consumers}
    if frame.layer == "L7":
        card = frame.cards[0].card
        investor = possessor(card.investor)
        framework = own_title(investor, card.name)
        opening, ask = card_words(card, investor)
        context = {"investor": investor, "framework": framework, "outcomes": _outcomes(frame), "ask": ask,
                   "opening": opening}
    else:
        context = {"investors": _join(list(dict.fromkeys(c.card.investor for c in frame.cards))),
                   "frameworks": "; ".join(f"{c.card.investor}: {c.card.name}" for c in frame.cards)}
    return labels, context, template_pieces(frame.layer)


@lru_cache(maxsize=None)
def template_pieces(layer: str) -> list[tuple[str, str | None]]:
    """The template of ``layer`` as (text, None) and ("", placeholder) pieces: joined with the values it is
    ``Template.substitute`` (``$$`` an escaped dollar; an invalid placeholder is an error, as there).

    >>> [p for p in template_pieces("L7") if p[1]][:2]
    [('', 'setting'), ('', 'facts')]
    """
    tpl = template(layer)
    pieces: list[tuple[str, str | None]] = []
    at = 0
    for m in tpl.pattern.finditer(tpl.template):
        pieces.append((tpl.template[at:m.start()], None))
        if m.group("escaped") is not None:
            pieces.append((tpl.delimiter, None))
        elif m.group("named") is not None or m.group("braced") is not None:
            pieces.append(("", m.group("named") or m.group("braced")))
        else:
            raise PerturbError(f"invalid placeholder in the {layer} question template at {m.start()}",
                               rule="template", name=layer)
        at = m.end()
    pieces.append((tpl.template[at:], None))
    return [p for p in pieces if p != ("", None)]


def _spec_sentence(spec: InputSpec, value: Any) -> str:
    return fact_sentence(spec, value)
