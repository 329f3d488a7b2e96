"""Question text for perturbed items: natural sentences from the cards' inputs (issue 18, part 5).

Templates ship as package data (``perturb/templates/L7.txt``, ``L8.txt``) and
are read through :mod:`importlib.resources`. The facts paragraph states every
fact of the scenario once, as one sentence per fact and nothing else:

* an input with a ``phrase:`` (``"The company has {value} of annual recurring
  revenue."``) uses it;
* a bool input is a yes/no line: ``"Whether the issuer is Norwegian: no."``
  from a description that asks (``Whether ...``) or states (``The issuer is
  ...``) it in one short sentence, else ``"<Label>: no."``;
* any other input is stated as ``"The <label> is <value>."``, the label being
  the input's ``label:``, else the first clause of its description when that
  is a short noun phrase, else its name in words (acronyms in capitals).

Values are exact (:func:`value_text`): ``$2.5B``, ``95.5%``, ``7x``, a plain
number with its unit (``10 years``; not repeated when the label names it, an
ordinal for a place in a ranking: ``12th``), category values in words
(``subscription software``), bools as ``yes``/``no``, dates in ISO form. No
text is snake_case, and each value reads back to the same engine value
(:func:`ipb.engine.scenario.convert_fact` after :func:`read_value`), so a
reader (or a test) can recover the scenario from the question.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any

from ipb.engine.card import InputSpec
from ipb.errors import PerturbError
from ipb.perturb.frame import Frame, PScenario, cached_text, card_outcomes
from ipb.perturb.values import literal

__all__ = ["template", "render_question", "label", "input_label", "question_label", "label_and_unit", "value_text",
           "read_value", "fact_sentence", "fact_pattern", "NO_UNIT", "ORDINAL_UNITS"]

#: Free-text units that add nothing after a plain number (``3 count`` reads ``3``).
NO_UNIT = frozenset({"count", "number", "n", "score", "index", "ratio"})

#: Words written in capitals when a name is put into words.
_ACRONYMS = {"arr": "ARR", "ev": "EV", "eps": "EPS", "pe": "P/E", "aaa": "AAA", "gdp": "GDP", "ebit": "EBIT",
             "irr": "IRR", "adr": "ADR", "cfo": "CFO", "roa": "ROA", "roe": "ROE", "roic": "ROIC", "nbim": "NBIM",
             "cbdc": "CBDC", "esg": "ESG", "ipo": "IPO", "yr": "year", "avg": "average", "gics": "GICS",
             "hy": "high-yield", "us": "US", "usd": "USD", "ai": "AI", "saas": "SaaS"}
#: A description whose first clause starts with one of these is not a noun phrase to name the input by.
_NOT_A_NAME = ("across", "of ", "whether", "how ", "why ", "what ", "the ", "a ", "an ", "for ", "if ", "when ",
               "where ", "which ", "who ")
#: First words of a question (a description that asks is no name for the input).
_AUXILIARIES = frozenset({"did", "does", "do", "is", "are", "was", "were", "has", "have", "had", "can", "could",
                          "will", "would", "should", "may", "must"})
#: Words that qualify a name in time; at the end of a name in words they are moved in front.
_QUALIFIERS = frozenset({"prior", "previous", "current", "next", "last", "initial", "final", "trailing", "forward"})
#: Words after "over" that make it a span of time or a comparison, not a quotient.
_NOT_A_DIVISOR = frozenset({"the", "a", "an", "last", "past", "next", "previous", "prior", "recent", "time", "its",
                            "their", "this", "that", "each", "every", "one", "two", "three", "five", "ten", "many"})
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
_ORDINAL = re.compile(r"(?P<n>[0-9]+)(?:st|nd|rd|th)")
#: Leading words of a label that take no article (``All liabilities are ...``).
_NO_ARTICLE = ("all ", "both ", "each ", "every ", "any ", "its ", "their ", "this ", "these ", "those ")
_CLAUSE = re.compile(r"(?<=[A-Za-z0-9%)])[.;:](?:\s|$)| \(|, ")


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
    clause = _CLAUSE.split(description)[0] if description else ""
    words = clause.split()
    if 2 <= len(words) <= 12 and not clause.lower().startswith(_NOT_A_NAME) and not _asks(clause):
        named = clause if _starts_with_acronym(clause) else clause[:1].lower() + clause[1:]
        return _ratio_of(named) if spec.type != "bool" else named
    return _qualifier_first(label(spec.name))


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
    """
    first, sep, rest = text.partition(" over ")
    if not sep or " over " in rest or not first or rest.split(" ", 1)[0].lower() in _NOT_A_DIVISOR:
        return text
    if any(w.lower() in _NOT_A_QUOTIENT for w in first.split()):
        return text  # the spread of bonds over Treasuries, growth over a year: not a ratio
    if rest.split(" ", 1)[0][:1].isdigit():
        return text
    return f"ratio of {first} to {rest}"


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
        if i and (w.lower() in _PREPOSITIONS or w.endswith("'s")):
            head = words[i - 1]
            break
    return (len(head) > 3 and head.islower() and head.endswith("s") and not head.endswith(("ss", "us", "is"))
            and head not in _SINGULAR_S)


def _question_clause(spec: InputSpec) -> str | None:
    """A bool input's yes/no line: the first sentence of its description when it asks (``"Whether ..."``)
    or states (``"The issuer is ..."``) the fact in at most 24 words, else its label."""
    if spec.type != "bool":
        return None
    description = " ".join(spec.description.split())
    if _asks(description):
        first = re.split(r"(?<=\?)\s", description)[0]
        if first.endswith("?") and len(first.split()) <= 24:
            return _sentence_start(first)
    if description.startswith(("Whether ", "The ")):
        first = re.split(r"(?<=[a-z0-9%)])\.(?:\s|$)", description)[0].rstrip(".")
        if len(first.split()) <= 24 and ": " not in first:
            return first
    return _sentence_start(input_label(spec))


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``12th``, ``23rd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def label_and_unit(spec: InputSpec) -> tuple[str, str | None, bool]:
    """How a question names ``spec`` and the unit written after its number: ``(label, unit or None, ordinal)``.

    The unit is not repeated when the label already names it (``"The t-statistic of the alpha is 2.6."``,
    not ``"... is 2.6 t-statistic."``) or counts something (``"The number of years ... is 7."``); a label
    whose time unit is its own word is reworded (``planned holding months`` -> ``planned holding period``,
    ``months between A and B`` -> ``time between A and B``) and keeps the unit; a unit that names a place
    in an order (:data:`ORDINAL_UNITS`) makes the value an ordinal (``12th``), never ``12 place``.

    >>> from ipb.engine.expressions import NUMBER
    >>> label_and_unit(InputSpec("planned_holding_months", "number", NUMBER, unit="months"))
    ('planned holding period', 'months', False)
    >>> label_and_unit(InputSpec("rank", "number", NUMBER, "Place of the stock in the ranking.", unit="place"))
    ('place of the stock in the ranking', None, True)
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
        if singular and (i == len(words) - 1 or lowered[i + 1] in _SPAN_WORDS):
            words[i] = "period" if i == len(words) - 1 else "time"
            return " ".join(words), unit, False
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
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    if spec.type == "category":
        return str(value).replace("_", " ")
    text = str(literal(spec, value))
    if spec.type != "number":
        return text
    _, unit, ordinal = label_and_unit(spec)
    if ordinal and text.isdigit():
        return _ordinal(int(text))
    if ordinal and spec.unit:
        unit = " ".join(spec.unit.split())  # not a whole place: the bare unit, as before
    return f"{text} {unit}" if unit else text


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
        for v in spec.values or ():
            if v.replace("_", " ") == text:
                return v
    elif spec.type == "number":
        _, unit, ordinal = label_and_unit(spec)
        m = _ORDINAL.fullmatch(text) if ordinal else None
        if m is not None and _ordinal(int(m.group("n"))) == text:
            return m.group("n")
        if ordinal and spec.unit:
            unit = " ".join(spec.unit.split())
        if not unit:
            return text
        if text.endswith(f" {unit}"):
            return text[: -len(unit) - 1]
    else:
        return text
    raise PerturbError(f"{text!r} is not a value of input {spec.name!r}", rule="question", name=spec.name)


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
    if not spec.phrase and _asked(spec):
        shown = _sentence_start(shown)
    return fact_sentence_shape(spec).replace("{value}", shown)


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
    bare = _acronym_name(name) or name.lower().startswith(_NO_ARTICLE)
    verb = "are" if _plural(name) else "is"
    return f"{_sentence_start(name if bare else 'the ' + name)} {verb} {{value}}."


def _acronym_name(name: str) -> bool:
    """A label that is acronyms only (``ROA``, ``EV to EBIT``) takes no article; ``GICS-style sector`` does.

    >>> [_acronym_name(x) for x in ("ROA", "EV to EBIT", "GICS-style sector of the company", "P/E historical average")]
    [True, True, False, False]
    """
    words = name.split()
    return bool(words) and words[0].isupper() and all(w.isupper() or w == "to" for w in words)


def _asked(spec: InputSpec) -> bool:
    """A bool input stated as its description's question and the answer (``Did ...? Yes.``)."""
    clause = _question_clause(spec)
    return clause is not None and clause.endswith("?")


def _outcomes(frame: Frame) -> str:
    names = card_outcomes(frame.cards[0].card)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


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
    The company has $2B of annual recurring revenue. It is offered at 7x its annual recurring revenue.
    """
    parts: list[str] = []
    if scenario.as_of is not None:
        setting = f"Decision date: {scenario.as_of.isoformat()}"
        if scenario.regime is not None:
            regime = frame.regimes.get(scenario.regime)
            setting += f", during the {regime.name}"
            if regime.description:
                setting += f" ({regime.description.rstrip('.')})"
        parts.append(setting + ".")
    stated_sector = any(n in scenario.facts for n in frame.sectors.inputs if n in frame.inputs)
    if scenario.sector is not None and not stated_sector:
        parts.append(f"Sector: {frame.sectors.get(scenario.sector).name}.")  # context only: no input names it
    facts = [cached_text(frame, "sentence", n, scenario.facts[n], _spec_sentence) for n in frame.inputs
             if n in scenario.facts]
    fixed = frame.memo.get("question")
    if fixed is None:  # what depends on the cards only: read once per frame
        fixed = frame.memo["question"] = _fixed_parts(frame)
    labels, context, pieces = fixed
    missing = [labels[n] for n in labels if n not in scenario.facts]
    values = {
        "setting": " ".join(parts) + "\n" if parts else "",
        "facts": " ".join(facts) if facts else "No facts are stated.",
        "unknown": f"Not disclosed: {'; '.join(missing)}.\n" if missing else "",
        **context,
    }
    return "".join(text if name is None else values[name] for text, name in pieces)


def _fixed_parts(frame: Frame) -> tuple[dict[str, str], dict[str, str], list[tuple[str, str | None]]]:
    """Per frame: the label of each input a gate reads, the template's card fields, the template in pieces."""
    labels = {n: question_label(frame.inputs[n]) for n in frame.inputs if n in frame.consumers}
    if frame.layer == "L7":
        card = frame.cards[0].card
        context = {"investor": card.investor, "framework": card.name, "outcomes": _outcomes(frame)}
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
