"""Element credit for an answer not written in English (issue 13; s49fair).

The card's ``required_elements`` are English ("operating cash flow over net
income 0.4", "70% line"), and the parser reads an element by its English words,
so an answer in Spanish or German that states every figure of a gate was
credited with no element at all: KCCS 0 and GRA's elements term 0 for a
faultless answer, which then ranked below a wrong English one (s48user,
finding 4). The paper's detection (§7.7) is "exact string match for numeric
thresholds and semantic match for conceptual elements": the first needs no
English, the second does (the embedder reads English only).

So for an answer that does not read as English
(:func:`ipb.scoring.outcome.reads_as_english`), each gold element is one of:

- **read**: matched by an element the parser detected, as for English;
- **a figure**: an element with digits ("70% line", "price to book 0.9x",
  "latest net income -$22M") that the parser did not read is credited when
  the gate's own text states every one of its figures (same unit, within the
  matcher's relative tolerance; a ratio may be written as a percentage,
  0.4 as "40%"), read by the parser's number reader, which knows the decimal
  comma ("0,9x"). A credited figure counts as a detected element too;
- **unknown**: an element of words only ("operating losses dissipate current
  assets") that the parser did not read. Nothing tells whether the answer
  stated it in its language, so it is left out of the gate's elements, never
  counted as missed (a silent 0) nor as met (a silent 1).

An English answer is read exactly as before: every element is read or missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ipb.scoring._numbers import NumberMatch, find_numbers
from ipb.scoring.metrics._case import Case, GoldGate
from ipb.scoring.metrics._matching import _WORD_FRACTIONS, ElementMatcher, Quantity, _quantities, _quantities_match


@dataclass(frozen=True)
class ElementCredit:
    """One gate's elements as a metric counts them.

    ``matched``: gold elements met (one-to-one); ``gold``: gold elements that
    count (read, a figure, or missed); ``detected``: detected elements that
    count (the parser's, plus each credited figure); ``unknown``: gold elements
    left out because the answer's language has no words the scorer reads.
    """

    matched: int
    gold: int
    detected: int
    unknown: int = 0

    @property
    def f1(self) -> float | None:
        """:math:`2|E \\cap \\hat E| / (|E| + |\\hat E|)`; 1.0 when the card asks for no element, None when every
        element the card asks for is unknown."""
        if self.gold == 0 and self.detected == 0:
            return None if self.unknown else 1.0
        return 2 * self.matched / (self.gold + self.detected)

    @property
    def recall(self) -> float | None:
        """Fraction of the counted gold elements met; 1.0 when none is asked for, None when all are unknown."""
        if self.gold == 0:
            return None if self.unknown else 1.0
        return self.matched / self.gold


def _gold_figures(element: str) -> tuple[Quantity, ...]:
    """The figures of a gold element written in digits ("two-thirds threshold $578.67M" -> $578.67M; "two-thirds" is
    English words, which an answer in another language writes in its own)."""
    return _quantities(_WORD_FRACTIONS.sub(" ", element))


def _answer_figures(case: Case, number: int) -> list[Quantity]:
    """The figures stated in gate ``number``'s own text, by the parser's number reader (whole answer, so that its
    decimal-comma convention is seen), plus bare numbers ("es 0.4") that only the matcher's reader takes."""
    gate = case.response_gates.get(number)
    if gate is None or not gate.spans:
        return []
    text = case.text
    out: list[Quantity] = []
    for n in _numbers_of(text):
        if any(a <= n.start and n.end <= b for a, b in gate.spans):
            unit = n.unit if n.unit in ("money", "ratio", "multiple") or n.unit.startswith("money:") else "plain"
            out.append(Quantity(n.value, unit))
    for a, b in gate.spans:
        out.extend(q for q in _quantities(text[a:b]) if q.unit == "plain")
    return out


@lru_cache(maxsize=8)  # of the answer's text: every gate and both metrics read the same answer
def _numbers_of(text: str) -> tuple[NumberMatch, ...]:
    return tuple(find_numbers(text))


@lru_cache(maxsize=8)
def _english(text: str) -> bool:
    from ipb.scoring.outcome import reads_as_english  # the outcome module reads the metrics: imported here

    return reads_as_english(text)


def reads_english(case: Case) -> bool:
    """Whether the case's answer reads as English (the one test of an answer's language, shared with the outcome)."""
    return _english(case.text)


def element_credit(case: Case, gate: GoldGate, matcher: ElementMatcher) -> ElementCredit:
    """How gate ``gate``'s required elements count for ``case`` (see the module docstring).

    >>> from ipb.scoring.metrics._case import Case
    >>> gold = {"gold_program": [{"gate": 1, "verdict": "REJECT", "kill_triggered": True,
    ...                           "required_elements": ["price to book 0.9x", "1.2x floor", "no premium left"]}]}
    >>> text = "Paso 1 - Cotiza por encima del valor contable: NO SE CUMPLE. Precio sobre valor contable 0,9x, suelo 1,2x."
    >>> parsed = {"text": text, "gates": [{"gate": 1, "verdict": "REJECT", "elements": [], "span": [0, len(text)]}]}
    >>> c = element_credit(Case(gold, parsed), Case(gold, parsed).gold_gates[0], ElementMatcher())
    >>> c, c.f1
    (ElementCredit(matched=2, gold=2, detected=2, unknown=1), 1.0)
    """
    response = case.response_gates.get(gate.number)
    gold = list(gate.required_elements)
    detected = list(response.elements) if response is not None else []
    pairs = matcher.matched_pairs(gold, detected)
    if response is None or not gold or reads_english(case):
        return ElementCredit(len(pairs), len(gold), len(detected))
    met = {i for i, _ in pairs}
    stated: list[Quantity] | None = None
    figures = unknown = 0
    for i, element in enumerate(gold):
        if i in met:
            continue
        wanted = _gold_figures(element)
        if not wanted:
            unknown += 1
            continue
        if stated is None:
            stated = _answer_figures(case, gate.number)
        if _quantities_match(wanted, stated, matcher.rel_tol):  # the English path's test
            figures += 1
    return ElementCredit(len(pairs) + figures, len(gold) - unknown, len(detected) + figures, unknown)
