"""A gate read from the card's figures and bars: a stated figure of a gate's quantity and the writer's bar or
judgement (issue 13; paper §7.5).

Wild answers often never name a gate in the card's words; they state a figure and a bar ("current ratio 2.3 vs 2.0
needed -- ok", "P/E 19 (max 15) x", "ROIC 31%, well above our 20% hurdle") or the figure with a judgement
("debt/equity 0.4, comfortable"). A reader who knows the card's tests reads the gate from them. This pass does the
same, in two halves:

* **the card's figure terms** (:func:`figure_terms`): every comparison inside a gate's ``proceed`` or ``reject`` test
  of an input with a literal or a card constant (``pe_3yr <= 15x``, ``years_with_earnings >= 10``), or of an input
  with a plain multiple of another (``current_assets >= 2 * current_liabilities`` is the ratio current assets /
  current liabilities against 2; ``price_per_share <= 1.5 * book_value_per_share`` the price-to-book against 1.5).
  A term under ``not`` is left out: its side is turned. The verdict a term gives is the test's when the term holds
  and the other when it fails; a term that is one part of a compound test settles the gate only with the writer's
  own judgement or bar agreeing (below);
* **the answer's figures** (:meth:`_FigureBarsMixin._figure_bar_gates`): in each sentence outside the closing, the
  words of a term's quantity (its input's name or label words; for a ratio a word of each side, or an abbreviation
  such as "P/E", "D/E", "P/B" that stands for both), then within a few words its figure, of the term's kind (a
  percentage for a percentage bar, money for money, a plain number or a multiple for a plain or multiple bar; never
  a year). From the figure to the next quantity named or the sentence's end, the writer's side of it: a bar the text
  states (:data:`_STATED_BAR`: "vs 2.0 needed", "(max 15)", "above our 20% hurdle", "under half", "> 2") or a
  judgement (a verdict word of the parser's, an appraisal of the lexicon read with the term's direction, or a mark:
  ok, ✓, ✗, a lone x).

The reading is the card's side of the figure (the figure against the term's own threshold), taken only when the
writer's side agrees: a stated bar whose comparison with the figure, in the card's direction, gives the same side
(and whose noun, max or min, agrees with the card's direction), or a judgement of that side. Anything that disagrees,
a condition, a question, a past time, a sentence on risks or on another company, or a figure that two gates' terms
would read differently leaves the sentence unread.

It fills what the other readers left: a gate the answer discusses with no verdict is given one; a gate nothing
found is added at its sentence's place. A verdict read in words is never changed. The confidence stays under the
review bar (0.6 filling a discussed gate, 0.55 for a gate met only here): a figure is read against the card, not
named by the writer. ``how`` gains ``+figure-bar`` (``figure-bar`` for an added gate) and a note gives the figure, the
writer's side and the card's term.

References
----------
Paper §7.5 (SRP); issue 13 (gates stated by figures and bars); corpus README (labelling conventions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from decimal import Decimal
from typing import Any

from ipb.engine.card import Card
from ipb.engine.expressions import parse_expression, parse_literal
from ipb.engine.numbers import scan_numbers
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._appraisal_words import lexicon_for
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._past import past_time
from ipb.scoring._text import stem
from ipb.scoring.parse._prose_vocabulary import _CONDITIONAL, appraisals
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._stated_bars import compared_verdict
from ipb.scoring.parse._types import GateTrace

__all__ = ["FIGURE_HOW", "Term", "figure_terms", "term_side"]

#: ``how`` of a gate met only through a figure of its quantity.
FIGURE_HOW = "figure-bar"

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_KINDS = {"percent": "ratio", "multiple": "multiple", "money": "money", "decimal": "plain", "scaled": "plain"}


def _other(verdict: str) -> str:
    return vw.REJECT if verdict == vw.PROCEED else vw.PROCEED


@dataclass(frozen=True)
class Term:
    """One comparison of a gate's test: ``names[0] op value`` or, for a ratio, ``names[0] / names[1] op value``.

    ``holds`` is the verdict of the test the term belongs to (PROCEED for ``proceed``, REJECT for ``reject``);
    ``alone`` says whether the term is the whole test (then failing it gives the other verdict for certain)."""

    gate: int
    names: tuple[str, ...]
    op: str
    value: Decimal
    unit: str
    holds: str
    alone: bool

    def verdict(self, figure: Decimal) -> str:
        """The verdict the term gives a figure: the test's when the comparison holds, else the other."""
        ok = {"<": figure < self.value, "<=": figure <= self.value, ">": figure > self.value, ">=": figure >= self.value}[self.op]
        return self.holds if ok else _other(self.holds)

    @property
    def higher(self) -> str:
        """The verdict a higher figure moves toward."""
        return self.holds if self.op in (">", ">=") else _other(self.holds)


def term_side(term: Term, figure: Decimal, bar: Decimal) -> str:
    """The side of ``figure`` against the writer's ``bar`` read in the card's direction: the verdict ``term`` would
    give if its threshold were ``bar``.

    >>> t = Term(6, ("pe_3yr",), "<=", Decimal(15), "multiple", vw.PROCEED, False)
    >>> term_side(t, Decimal(19), Decimal(15)), term_side(t, Decimal(12), Decimal(14))
    ('REJECT', 'PROCEED')
    """
    return Term(term.gate, term.names, term.op, bar, term.unit, term.holds, term.alone).verdict(figure)


def _literal(node: Any, constants: dict[str, Any]) -> tuple[Decimal, str] | None:
    sign = 1
    if getattr(node, "data", None) == "neg" and len(node.children) == 1:
        sign, node = -1, node.children[0]
    kind = getattr(node, "data", None)
    if kind in _KINDS and len(node.children) == 1:
        try:
            value, _ = parse_literal(str(node.children[0]))
        except Exception:  # noqa: BLE001 - a literal the reader cannot take is no bar
            return None
        return Decimal(sign) * Decimal(value), _KINDS[kind]
    if kind == "name" and str(node.children[0]) in constants:
        value, spec = constants[str(node.children[0])]
        unit = {"ratio": "ratio", "multiple": "multiple", "money": "money", "number": "plain"}.get(getattr(spec, "unit", None) or "")
        if unit is None or isinstance(value, bool):
            return None
        try:
            return Decimal(sign) * Decimal(value), unit
        except Exception:  # noqa: BLE001 - a constant that is not a number is no bar
            return None
    return None


def _input(node: Any, card: Card) -> str | None:
    """The name of an input or of a value a gate computes, else None."""
    if getattr(node, "data", None) != "name":
        return None
    name = str(node.children[0])
    if name in card.inputs or any(name in (getattr(g, "compute", {}) or {}) for g in card.gates):
        return name
    return None


def _side(node: Any, card: Card, constants: dict[str, Any]) -> tuple[tuple[str, ...], tuple[Decimal, str] | None]:
    """((input,), None) for an input; ((), literal) for a literal; ((input,), k) for ``k * input`` or ``input * k``
    with a plain k; ((), None) otherwise."""
    name = _input(node, card)
    if name is not None:
        return (name,), None
    lit = _literal(node, constants)
    if lit is not None:
        return (), lit
    if getattr(node, "data", None) == "product" and len(node.children) == 3:
        left, op, right = node.children
        if str(getattr(op, "children", [op])[0]) == "*":
            for a, b in ((left, right), (right, left)):
                k, other = _literal(a, constants), _input(b, card)
                if k is not None and other is not None and k[1] in ("plain", "multiple"):
                    return (other,), k
    return (), None


def _terms(node: Any, card: Card, constants: dict[str, Any], gate: int, holds: str, alone: bool) -> list[Term]:
    kind = getattr(node, "data", None)
    if kind in ("and_", "or_"):
        return [t for child in node.children for t in _terms(child, card, constants, gate, holds, False)]
    if kind != "comparison":
        return []
    parts = node.children
    out: list[Term] = []
    pairs = [(parts[i], parts[i + 1], parts[i + 2]) for i in range(0, len(parts) - 2, 2)]
    for left, op_node, right in pairs:
        op = str(op_node.children[0]) if getattr(op_node, "children", None) else str(op_node)
        if op not in _FLIP:
            continue
        (ln, lk), (rn, rk) = _side(left, card, constants), _side(right, card, constants)
        names: tuple[str, ...]
        if len(ln) == 1 and lk is None and not rn and rk is not None:
            names, lit = ln, rk
        elif len(rn) == 1 and rk is None and not ln and lk is not None:
            names, lit, op = rn, lk, _FLIP[op]
        elif len(ln) == 1 and lk is None and len(rn) == 1 and rk is not None:
            names, lit = (ln[0], rn[0]), rk  # a >= k * b: the ratio a / b against k
        elif len(rn) == 1 and rk is None and len(ln) == 1 and lk is not None:
            names, lit, op = (rn[0], ln[0]), lk, _FLIP[op]
        else:
            continue
        out.append(Term(gate, names, op, lit[0], "plain" if len(names) == 2 else lit[1], holds, alone and len(pairs) == 1))
    return out


@per_object()
def figure_terms(card: Card) -> dict[int, tuple[Term, ...]]:
    """Gate number -> the figure terms of its tests (module docstring), built once per card.

    >>> from ipb.engine.registry import compiled_card
    >>> terms = figure_terms(compiled_card("graham_seven_tests_defensive").card)
    >>> [(t.names, t.op, str(t.value), t.unit) for t in terms[2]][:2]
    [(('current_assets', 'current_liabilities'), '>=', '2', 'plain'), (('long_term_debt', 'stock_equity'), '<=', '2', 'plain')]
    >>> [(t.names, t.op, str(t.value), t.unit, t.alone) for t in terms[3]]
    [(('years_with_earnings',), '>=', '10', 'plain', True)]
    """
    constants = dict(getattr(card, "constants", None) or {})
    table: dict[int, tuple[Term, ...]] = {}
    for g in card.gates:
        if g.classify or g.branches:
            continue
        found: list[Term] = []
        for expr, holds in ((g.proceed, vw.PROCEED), (g.reject, vw.REJECT)):
            if expr is None:
                continue
            try:
                tree = parse_expression(expr.source)
            except Exception:  # noqa: BLE001 - compiled cards parse; anything else has no terms
                continue
            found.extend(_terms(tree, card, constants, g.number, holds, True))
        if found:
            table[g.number] = tuple(found)
    return table


# --------------------------------------------------------------------------- the answer's figures

#: The longest sentence read, and the most figures read in one: bounds on the work on pathological answers.
MAX_SENTENCE = 2000
MAX_FIGURES = 24
#: The most numbers read in one answer (a dump of thousands of figures is read no further).
MAX_NUMBERS_READ = 2000
#: A word of the answer: "p/e", "debt/equity" and "d/e" are one word (both sides of a ratio).
_TOKEN = re.compile(r"[a-z][a-z0-9']*(?:/[a-z][a-z0-9']*)?")
#: What may stand between a quantity's words and its figure: at most three short words, no digit, no sentence stop
#: ("P/E 19", "ROIC of 31%", "current ratio is 2.3", "debt/equity: 0.4", "returns on capital now run at 31%").
_BETWEEN = re.compile(r"(?i)[ \t:=~\u2248(*_-]*(?:[a-z']{1,10}[ \t:=~\u2248*_-]+){0,3}\Z")
#: The writer's bar: a cue before its figure ("vs 2.0", "above our 20% hurdle", "(max 15)", "> 2") ...
_CUE_BEFORE = re.compile(
    r"(?i)(?:\bvs\.?|\bversus|\bagainst|\bcompared\s+(?:with|to)|\babove|\bover|\bbelow|\bunder|\bbeneath|\bexceed(?:s|ing)?|"
    r"\bclear(?:s|ing)?|\bbeat(?:s|ing)?|\bshort\s+of|\b(?:less|more|greater|higher|lower)\s+than|[<>\u2264\u2265]=?|"
    r"\b(?P<noun>max(?:imum)?|min(?:imum)?|limit|cap|ceiling|floor|hurdle|target|threshold|bar|cut-?off|needed|required|"
    r"need(?:s)?|requires?))"
    r"[ \t:=(]*(?:(?:the|our|my|a|an|his|her|their|its|[a-z]+'s)[ \t]+)?(?:[a-z-]+[ \t]+){0,2}?\Z")
#: ... or a noun after it ("2.0 needed", "15 max", "20% hurdle", "1.5 or less").
_NOUN_AFTER = re.compile(
    r"(?i)[ \t)]*(?:(?P<noun>needed|required|min(?:imum)?|max(?:imum)?|limit|cap|ceiling|floor|hurdle|target|threshold|bar|"
    r"cut-?off)\b|or\s+(?P<more>more|higher|better|above)\b|or\s+(?P<less>less|lower|below|under)\b)")
#: A comparison that states no side: "vs 2.0", "against 15%", "compared with 12" (unless a noun after gives one).
_SIDELESS = re.compile(r"(?i)(?:vs\.?|versus|against|compared\s+(?:with|to))\b")
_UPPER = {"max", "maximum", "limit", "cap", "ceiling"}
_LOWER = {"min", "minimum", "floor", "hurdle", "needed", "required", "need", "needs", "require", "requires", "target"}
#: A bar in words: "under half", "more than twice", "below a third".
_WORD_BAR = re.compile(r"(?i)\b(?:above|over|below|under|beneath|less\s+than|more\s+than|at\s+least|at\s+most)\s+"
                       r"(?P<word>half|a\s+third|a\s+quarter|twice|one)\b")
_WORD_VALUES = {"half": Decimal("0.5"), "a third": Decimal(1) / Decimal(3), "a quarter": Decimal("0.25"),
                "twice": Decimal(2), "one": Decimal(1)}
#: A mark of judgement: ok, fine, a tick; a cross, or a lone x after a bracket or a dash.
_MARK = re.compile(r"(?i)(?:(?<![\w'])(?P<ok>ok(?:ay)?|fine)\b|(?P<tick>[\u2713\u2714\u2705\u2611])|(?P<cross>[\u2717\u2718\u274c])"
                   r"|(?<=[)\u2013\u2014:=>-])[ \t]*(?P<x>x)(?![\w]))")
#: An answer opening the sentence ("Yes, 11x average earnings."): the writer's side, the card's direction confirming it.
_YES_NO = re.compile(r"[ \t*_>-]*(yes|no)\b[ \t]*[,.:;\u2014\u2013-]")
#: A sentence on risks: its figures are what might go wrong, not the gate's reading.
_RISKS = re.compile(r"(?i)\b(?:risks?|downside\s+scenario|bear\s+case|what\s+could\s+go\s+wrong|worst\s+case)\b")
#: A date the figure is set in: "In 2019 the P/E was 25", "back in 2008", "since 2015": history, not the case's reading.
_DATED = re.compile(r"(?i)\b(?:in|during|since|until|by|back\s+in|as\s+of)\s+(?:fy\s?)?(?:19|20)\d\d\b")
#: What a multiple is a multiple of: "14.0 times (three-year) average earnings", "1.3 times book value" (at most four
#: words, up to a stop).
_TIMES_AFTER = re.compile(r"(?i)[ \t]+(?:(?:its|the|their|our)[ \t]+)?(?P<what>[a-z][\w'/-]*(?:[ \t]+[a-z][\w'/-]*){0,3})")
_KIND_OF = {"percent": "ratio", "money": "money", "multiple": "multiple", "number": "plain"}


#: Words too common in quantity names to tell one quantity from another.
_STOP = frozenset({"the", "of", "per", "to", "with", "and", "in", "on", "a", "an", "at", "for", "by", "from", "ago", "ten",
                   "avg", "average", "3yr", "5yr", "10yr", "yr", "number", "past", "last", "fiscal", "value", "share",
                   "shares", "total", "ratio", "times", "than", "is", "as", "our", "its", "this", "that", "was", "were"})


def _words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words, common words of quantity names left out."""
    return frozenset(stem(w) for w in re.findall(r"[a-z][a-z0-9]*", text.lower()) if w not in _STOP and len(w) > 1)


@per_object()
def _quantities(card: Card) -> dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]:
    """Quantity name (an input, or a value a gate computes) -> (all its stems: name words with an abbreviation among them
    spelled out, and an input's label; the stems no other quantity holds; the stems of the name alone)."""
    from ipb.scoring.parse._abbreviations import ABBREVIATIONS

    labels = {key: getattr(spec, "label", "") or "" for key, spec in card.inputs.items()}
    for g in card.gates:
        for key in getattr(g, "compute", {}) or {}:
            labels.setdefault(key, "")
    own: dict[str, frozenset[str]] = {}
    full: dict[str, frozenset[str]] = {}
    for key, label in labels.items():
        named = set(_words(key.replace("_", " ")))
        for token in key.split("_"):
            for abbr, phrases in ABBREVIATIONS.items():
                if abbr.replace(" ", "") == token:  # "pe_3yr": price, earnings; "pb_ratio": price, book
                    named = (named - {stem(token)}) | _words(phrases[0])
        full[key] = frozenset(named)
        own[key] = frozenset(named | _words(label))
    out = {}
    for key, words in own.items():
        others = set().union(*(w for k, w in own.items() if k != key)) if len(own) > 1 else set()
        out[key] = (words, frozenset(words - others), full[key])
    return out


#: A value a gate computes as one input over another: "price_per_share / eps_3yr_avg * 1x".
_RATIO_SOURCE = re.compile(r"\s*([A-Za-z_]\w*)\s*/\s*([A-Za-z_]\w*)\s*(?:\*\s*1x\s*)?\Z")


@per_object()
def _ratio_parts(card: Card) -> dict[str, tuple[str, str]]:
    """Computed value -> (numerator, denominator) for a value computed as one input over another (``pe_3yr`` ->
    price per share, three-year average EPS): "14.0 times average earnings" names it by its denominator."""
    out: dict[str, tuple[str, str]] = {}
    for g in card.gates:
        for key, expr in (getattr(g, "compute", {}) or {}).items():
            m = _RATIO_SOURCE.match(getattr(expr, "source", "") or "")
            if m and m.group(1) in card.inputs and m.group(2) in card.inputs:
                out[key] = (m.group(1), m.group(2))
    return out


@lru_cache(maxsize=4096)
def _word_stems(word: str) -> frozenset[str]:
    """The stems a word of the answer gives: its own, and for an abbreviation ("p/e", "roic", "d/e") the words it stands
    for; a word with a slash gives both sides ("debt/equity")."""
    from ipb.scoring.parse._abbreviations import ABBREVIATIONS, expansion_stems

    key = word.replace("/", " ")
    if key in ABBREVIATIONS:
        return _words(ABBREVIATIONS[key][0])
    if key.replace(" ", "") in {k.replace(" ", "") for k in ABBREVIATIONS if " " in k} and "/" not in word:
        return _words(next(p[0] for k, p in ABBREVIATIONS.items() if k.replace(" ", "") == key))  # "PE", "PB"
    return _words(key) | frozenset(expansion_stems(word))


def _named(card: Card, term: Term, said: frozenset[str], after: frozenset[str] = frozenset()) -> int:
    """How many of the stems ``said`` (a few words before a figure) name ``term``'s quantity; 0 when they do not name
    it: a single quantity needs a stem no other quantity holds or every stem of its name, a ratio a stem of each side.
    ``after``: the stems of the words after a multiple ("14.0 times average earnings", "1.6 times book"), which name a
    ratio by its denominator (the numerator, the price or the assets, is the sentence's subject)."""
    table = _quantities(card)
    parts = term.names if len(term.names) == 2 else _ratio_parts(card).get(term.names[0])
    if after and parts is not None:
        below = table[parts[1]][0] & after
        if below:
            return len(below) + len(table[parts[0]][0] & said) + 1
        # the words after the multiple name no denominator ("The P/E of 22x is above our ceiling"): the words before
        # name the quantity, as for any figure
    if len(term.names) == 2:
        sides = [table[n][0] & said for n in term.names]
        return len(sides[0] | sides[1]) if all(sides) else 0
    own, alone, full = table[term.names[0]]
    return len(own & said) if (alone & said or full and full <= said) else 0


def _fits(term: Term, kind: str) -> bool:
    """Whether a figure of the number reader's ``kind`` can be ``term``'s quantity."""
    unit = _KIND_OF.get(kind)
    if term.unit in ("plain", "multiple"):
        return unit in ("plain", "multiple")
    return unit == term.unit


class _FigureBarsMixin(_ParserState):
    """Reads gates from a figure of their quantity and the writer's bar or judgement (module docstring)."""

    figures_read: int

    def _figure_bar_gates(self, traces: list[GateTrace]) -> list[GateTrace]:
        terms = [t for ts in figure_terms(self.card).values() for t in ts]
        if not terms:
            return traces
        have = {t.gate: t for t in traces}
        open_gates = {g for g in range(1, len(self.card.gates) + 1) if g not in have or have[g].verdict is None}
        if not {t.gate for t in terms} & open_gates:
            return traces
        self.figures_read = 0
        read: dict[int, list[tuple[str, int, int, str]]] = {}
        for u, unit in enumerate(self.units):
            if u in self.final_units or unit.final:
                continue
            # every gate's terms name the figure (the quantity the words name most fully wins: "P/E x P/B = 31" is the
            # product of gate 7, not gate 6's P/E), and only an open gate takes the reading
            for gate, verdict, a, b, why in self._figures_in(u, terms):
                if gate in open_gates:
                    read.setdefault(gate, []).append((verdict, a, b, why))
        added: list[GateTrace] = []
        for gate, found in read.items():
            if len({v for v, *_ in found}) != 1:
                continue  # two sentences that read it differently: no reading
            verdict, a, b, why = found[0]
            trace = have.get(gate)
            if trace is not None:
                trace.verdict = verdict
                trace.how = f"{trace.how}+{FIGURE_HOW}"
                trace.confidence = min(trace.confidence, 0.6)
                trace.verdict_span = (a, b)
                self.notes.append(f"gate {gate} read as {verdict} from {why} (characters {a}-{b}; how '+{FIGURE_HOW}')")
            elif _inside_judged_line(self.masked, traces, gate, a, b):
                continue  # "6. P/E: 14.2 on three-year average earnings ... Pass.": that line's gate's figure, not gate 3's
            else:
                card_gate = self.card.gates[gate - 1]
                added.append(GateTrace(gate=gate, name=card_gate.name, verdict=verdict, span=(a, b), mention=(a, b),
                                       how=FIGURE_HOW, verdict_span=(a, b), confidence=0.55))
                self.notes.append(f"gate {gate} met only by a figure of its quantity, read as {verdict} from {why} "
                                  f"(characters {a}-{b}; how '{FIGURE_HOW}')")
        if not added:
            return traces
        out = list(traces)
        for trace in sorted(added, key=lambda t: t.mention[0]):
            at = next((i for i, t in enumerate(out) if min(t.mention[0], t.span[0]) > trace.mention[0]), len(out))
            out.insert(at, trace)
        return out

    def _figures_in(self, u: int, terms: list[Term]) -> list[tuple[int, str, int, int, str]]:
        """(gate, verdict, start, end, why) of each figure of sentence ``u`` that one gate's term reads, with the
        writer's bar or judgement agreeing (module docstring)."""
        unit = self.units[u]
        text, low = self.masked, self.low
        a, b = unit.start, unit.end
        if not 4 <= b - a <= MAX_SENTENCE or text[a:b].rstrip().endswith("?") or _RISKS.search(low, a, b) \
                or self._under_risks(unit.line):
            return []  # (a "sentence" of thousands of characters is no statement of a gate: a run of figures, a dump)
        if self.figures_read >= MAX_NUMBERS_READ:
            return []
        scanned = list(islice(scan_numbers(text, a, b), MAX_FIGURES))
        self.figures_read += len(scanned)
        figures = [n for n in scanned if not (n.kind == "number" and n.value == n.value.to_integral() and 1900 <= n.value <= 2100)]
        if not figures:
            return []
        words = [(m.start(), m.end(), _word_stems(m.group(0))) for m in _TOKEN.finditer(low, a, b)]
        # each figure with the quantity named just before it (after the previous figure)
        named: list[tuple[Any, list[Term], int]] = []
        prev = a
        for n in figures:
            start = n.span[0]
            if start < prev:
                continue
            before = [w for w in words if prev <= w[0] and w[1] <= start and w[1] >= start - 40]
            if not (before and _BETWEEN.search(text, before[-1][1], start)):
                before = []
            after: frozenset[str] = frozenset()
            times = _TIMES_AFTER.match(text, n.span[1], b) if n.kind == "multiple" else None
            if times is not None:  # "14.0 times three-year average earnings", "1.6x book"
                after = frozenset().union(*(w[2] for w in words if times.start("what") <= w[0] and w[1] <= times.end()))
            best, hit, q_start = 0, [], -1
            for k in range(len(before), -1, -1):
                said = frozenset().union(*(w[2] for w in before[k:])) if k < len(before) else frozenset()
                if not said and not after:
                    continue
                for t in terms:
                    score = _named(self.card, t, said, after) if _fits(t, n.kind) else 0
                    if score > best:
                        best, hit, q_start = score, [t], before[k][0] if k < len(before) else start
                    elif score and score == best and t not in hit:
                        hit.append(t)
            if hit:
                named.append((n, hit, q_start))
            prev = n.span[1]
        out = []
        for i, (n, hit, q_start) in enumerate(named):
            end = named[i + 1][2] if i + 1 < len(named) else b
            if _CONDITIONAL.search(low, a, n.span[0]) or past_time(text, a, end, "comparison") or _DATED.search(low, a, n.span[0]):
                continue
            figure = n.value
            # a judgement ahead of the sentence's one figure ("Yes, 11x average earnings."): read from the sentence's
            # start when nothing else stands before it (no other figure, no gate's name)
            judged_from = a if i == 0 and n is figures[0] and not self.unit_mentions.get(u) else n.span[1]
            readings: dict[int, set[str]] = {}
            why: dict[int, str] = {}
            for term in hit:
                sides = self._writer_sides(term, n, end, judged_from)
                if sides is None or not sides:
                    readings.setdefault(term.gate, set()).add("?")
                    continue
                card_side = term.verdict(figure)
                if sides != {card_side}:
                    readings.setdefault(term.gate, set()).add("?")
                    continue
                readings.setdefault(term.gate, set()).add(card_side)
                name = " / ".join(term.names)
                why[term.gate] = (f"the figure {text[n.span[0]:n.span[1]]!r} and the writer's "
                                  f"{'bar' if self._stated(n, end) else 'judgement'} in {text[q_start:end].strip()!r} "
                                  f"against the card's term {name} {term.op} {term.value}")
            good = {g: v for g, v in readings.items() if len(v) == 1 and "?" not in v}
            if len(good) != 1 or len(readings) != 1:
                continue  # no gate, or a figure two gates' terms would read (or one reads two ways)
            gate, verdict = next(iter(good.items()))
            out.append((gate, next(iter(verdict)), q_start, end, why[gate]))
        return out

    def _stated(self, n: Any, end: int) -> list[tuple[Decimal, str | None]]:
        """The bars the writer states after figure ``n`` up to ``end``: (value, bound) with bound 'upper', 'lower' or
        None (a comparison with no noun)."""
        text = self.masked
        out: list[tuple[Decimal, str | None]] = []
        for m in scan_numbers(text, n.span[1], end):
            if _KIND_OF.get(m.kind) != _KIND_OF.get(n.kind) and {_KIND_OF.get(m.kind), _KIND_OF.get(n.kind)} != {"plain", "multiple"}:
                continue
            cue = _CUE_BEFORE.search(text, max(n.span[1], m.span[0] - 40), m.span[0])
            after = _NOUN_AFTER.match(text, m.span[1], end)
            if cue is None and after is None:
                continue
            # the cue's noun, or one among the words after a bare comparison ("against a minimum of 3x")
            cue_noun = None if cue is None else \
                cue.group("noun") or min(set(re.findall(r"[a-z]+", cue.group(0).lower())) & (_UPPER | _LOWER), default=None)
            if after is None and cue is not None and cue_noun is None and _SIDELESS.match(cue.group(0)):
                continue  # "18% against 15%": a comparison that names no side is no bar (s45left item 4)
            noun = ((after.group("noun") if after else None) or cue_noun or "").lower()
            bound = "upper" if noun in _UPPER or (after and after.group("less")) else \
                    "lower" if noun in _LOWER or (after and after.group("more")) else None
            out.append((m.value, bound))
        for m in _WORD_BAR.finditer(text, n.span[1], end):
            out.append((_WORD_VALUES[" ".join(m.group("word").lower().split())], None))
        return out

    def _writer_sides(self, term: Term, n: Any, end: int, judged_from: int) -> set[str] | None:
        """The sides the writer gives figure ``n`` of ``term``: from each bar stated between it and ``end`` (read in the
        card's direction; None when a bar's noun contradicts the card's direction) and each judgement between
        ``judged_from`` and ``end`` other than the figure itself."""
        text, low = self.masked, self.low
        sides: set[str] = set()
        for value, bound in self._stated(n, end):
            if bound is not None and (bound == "lower") != (term.higher == vw.PROCEED):
                return None  # "(max 15)" on a test that wants the figure high: the writer's bar is another's
            sides.add(term_side(term, n.value, value))
        for h in self.hits:
            if judged_from <= h.start < end and not n.span[0] <= h.start < n.span[1] and self._level(h) > 0 and h.verdict in (vw.PROCEED, vw.REJECT):
                sides.add(h.verdict)
        for x, _, v in appraisals(low, judged_from, end, term.higher, lexicon=lexicon_for(self.card.id)):
            if v in (vw.PROCEED, vw.REJECT) and not n.span[0] <= x < n.span[1]:
                sides.add(v)
        # the figure against a bar the writer names without its figure ("22x, above our ceiling", "within the limit",
        # "well outside our band", "clears the hurdle"): the side the comparison states, read in the card's direction
        related = compared_verdict(text[n.span[1]:end], term.higher)
        if related in (vw.PROCEED, vw.REJECT):
            sides.add(related)
        opening = _YES_NO.match(low, judged_from, end)
        if opening is not None and judged_from == self._unit_start(judged_from):
            sides.add(vw.PROCEED if opening.group(1) == "yes" else vw.REJECT)
        for m in _MARK.finditer(text, judged_from, end):
            if n.span[0] <= m.start() < n.span[1]:
                continue
            sides.add(vw.PROCEED if m.group("ok") or m.group("tick") else vw.REJECT)
        return sides

    def _unit_start(self, at: int) -> int:
        u = self._unit_at(at)
        return self.units[u].start if u >= 0 else -1

    def _under_risks(self, line: int) -> bool:
        """Whether line ``line`` is an item of a list headed by a line on risks ("Risks:", "## Key risks")."""
        k = line
        while k > 0 and self.lines[k].kind == "list":
            k -= 1
        return k != line and bool(_RISKS.search(self.low, self.lines[k].start, self.lines[k].end))


def _inside_judged_line(text: str, traces: list[GateTrace], gate: int, a: int, b: int) -> bool:
    """Whether ``text[a:b]`` lies inside the one-line span of another gate that the line judges itself (a list item
    or labelled line "6. P/E: 14.2 on three-year average earnings, under 15. Pass."): a figure there is a term of
    that line's gate, so it names no unmentioned gate (n52-b-wiki-diff-seven-tests read gate 3 from gate 6's line)."""
    for t in traces:
        if t.gate == gate or t.verdict is None or not (t.span[0] <= a and b <= t.span[1]):
            continue
        if "\n" not in text[t.span[0]:t.span[1]].strip():
            return True
    return False
