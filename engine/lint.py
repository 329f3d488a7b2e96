"""Lint for what card and scenario authors get wrong and the loader accepts (``ipb check``).

Card checks (:func:`lint_card`), each a :class:`~ipb.errors.LintWarning` with
file:line:col and the source line:

* ``range-without-step``: a numeric input with a ``range`` and no ``step``
  (s45user: ``intrinsic_value`` on ``[$50M, $2T]`` was perturbed on a grid of
  a hundredth of its range, $19.9995B, to ``$20.0495B`` and ``$1.840004T``, and
  ``ipb explain`` found no switch point for it); no bundled input lacks one;
* ``read-without-range``: a numeric input a gate reads (directly, or through a
  derived input computed from it) with no ``range`` and no ``derive:`` rule:
  metric, flip and isolate never change it (s58user F-C3;
  :func:`ipb.engine._range_lints.ranges_missing`);
* ``unused-input``: an input that no criterion, computed value, classify rule
  or re-entry condition reads (it can never change a verdict), unless a
  required element quotes it (``"{name}"``) or the sector operator relocates
  it (``inputs`` of ``sectors.yaml``); an input only ``constraints:`` read is
  said to be read only by them (it limits the draws, not the verdicts);
* ``label-states-fact``: a category value's label that states a figure or
  names another input (:mod:`ipb.engine._label_lints`);
* ``label-placeholder``: an input's ``label`` holding ``{value}``, which the
  question fills in beside the value it states (s58user F-K6; a sentence with
  the value is a ``phrase:``);
* ``constant-criterion``: a criterion that reads no name (``reject: "true"``,
  ``1 > 0``): the gate's verdict never depends on the scenario;
* ``shadowed-rule``: a classify rule that never fires, because a rule before it
  is unconditional or matches every combination in which it would match
  (checked on a grid over the declared ranges of the inputs the rules read);
* ``same-verdicts``: a branch whose pass and fail verdicts are the same, so its
  gates cannot change the outcome;
* ``decisive-unstated``: a card that states no ``decisive_default`` and marks no
  gate ``decisive``: every gate then lets INCONCLUSIVE continue (paper §7.3), so
  one PROCEED and every other gate unknown gives the pass verdict (s40user: a
  new user's card, written from the README's example, said BUY with four of its
  five facts unknown, trigger ``all_gates_cleared``);
* ``element-number-in-words``: a required element that spells a figure in words
  before a unit (``ten percent hurdle``, ``five-times ceiling``): answers write
  ``10%`` and ``5x``, and the parser finds an element by its words, so KCCS and
  GRA never credit it (s40user: KCCS 0.889 for an answer citing every element);
* ``element-is-gate-label``: a required element whose words are the gate's own
  name or one of its aliases, or a phrase of two or more words of one (element ``free cash flow
  coverage`` on the gate "Free cash flow coverage"): the parser finds it in
  the label that names the gate, so an answer that only names the gate
  ("Free cash flow coverage: REJECT") was credited with it (s41user: KCCS 0.222
  instead of 0 for three bare gate labels, the L7 composite 0.417 instead of 0.35).
  Since s41elem the parser no longer credits the label itself
  (``scoring/parse/_element_labels.py``), but an answer that merely repeats the
  gate's name in a sentence is still credited: the element asks for nothing the
  name does not say.
* ``element-words-too-short``: a required element with a ``{value}`` whose only
  words are single letters (``Z {z}``, ``k {k}``; ``P/B`` is a word): the parser finds an element's
  figure after its words of two letters or more, so with none it takes any
  figure of the kind nearby (s42user: "working capital 0%" read as ``Z 0``) and
  never "Z = 2.90"; write a word (``Z-score {z}``).
* ``kill-not-veto``: a gate with a ``kill_criterion`` on a ``weighted_threshold`` card that counts PROCEED,
  when the other gates' weights alone reach ``min_weight``: its REJECT only withholds its weight and the card
  can still give its pass verdict (s52newuser: "Gate 3 Minimum size: REJECT (kill: too_small)" and then
  "Final verdict: APPROVE (threshold_met_2_of_3)"). The warning says how to write a veto: a weight the
  threshold cannot do without, or ``gate_logic: conjunction`` (README, 'Kill criteria').
* ``invisible-character``: a card, gate or alias name holding a control or
  format character, such as a right-to-left override (U+202E) or a zero-width
  space (s47break leftover 12): the name a reader sees is not the text that
  answers are matched against.

Scenario checks (:func:`lint_scenario`):

* ``out-of-range``: a fact outside its input's declared ``range`` (``ipb
  perturb`` refuses such a base scenario: :func:`range_errors`);
* ``missing-fact``: a scenario without an ``expected`` block that leaves an
  input out (it is unknown, and gates reading it go INCONCLUSIVE silently);
* ``unit-mismatch``: a literal with a unit (``1.8x``, ``5%``, ``$3M``) given
  for a plain number, whose unit is then dropped silently;
* ``outside-vintage``: an ``as_of`` whose year is outside the card's
  ``vintage`` (s45user: a Templeton card, vintage 1954-2008, and a base dated
  2009-03-09 passed ``ipb check`` and ``ipb run``; ``ipb perturb`` then refused
  it unless ``--fm6-probe``).
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ipb.engine._label_lints import label_warnings, placeholder_labels
from ipb.engine._range_lints import bare_acronyms, ranges_missing, unlinked_ranges
from ipb.engine._rule_pairs import incompatible_rules
from ipb.engine._yaml import YamlDoc
from ipb.engine.card import Card, InputSpec, weights_count
from ipb.engine.expressions import CompiledExpression
from ipb.engine.scenario import convert_fact
from ipb.errors import IpbError, LintWarning, PerturbError

__all__ = ["lint_card", "lint_scenario", "range_errors", "out_of_range"]

#: At most this many combinations are tried for a shadowed classify rule.
GRID_LIMIT = 4000


def _at(doc: YamlDoc | None, error: IpbError, path: tuple[Any, ...], *, key: bool = False) -> IpbError:
    if doc is None:
        return error
    try:
        line, column = doc.locate_key(path) if key else doc.locate(path)
    except (KeyError, IndexError, TypeError, ValueError):
        line, column = 1, 1
    return error.with_location(doc.file, line, column, doc.source_line(line))


def _expressions(card: Card) -> Iterable[tuple[tuple[Any, ...], CompiledExpression]]:
    for i, g in enumerate(card.gates):
        for label in ("proceed", "reject"):
            expr = getattr(g, label)
            if expr is not None:
                yield ("gates", i, label), expr
        for name, expr in g.compute.items():
            yield ("gates", i, "compute", name), expr
        for j, (_, when) in enumerate(g.classify):
            if when is not None:
                yield ("gates", i, "classify", j, "when"), when
        if g.reentry is not None:
            yield ("gates", i, "reentry", "condition"), g.reentry.condition


def lint_card(card: Card) -> list[IpbError]:
    """The card-level warnings above, sorted by position.

    Examples
    --------
    >>> from ipb.engine._demo import demo_card
    >>> text = '''inputs:
    ...   price: {type: money}
    ...   spare: {type: ratio}
    ... gates:
    ...   - {id: g, name: G, reject: "true", required_elements: [x]}
    ... '''
    >>> for w in lint_card(demo_card(text)):
    ...     print(w)
    demo.yaml:12:3: warning: input 'price' is read by no criterion, computed value or rule: it cannot change a verdict
    demo.yaml:13:3: warning: input 'spare' is read by no criterion, computed value or rule: it cannot change a verdict
    demo.yaml:15:30: warning: criterion 'true' of gate 'g' reads no input: its verdict is the same in every scenario
    """
    doc = card.doc
    found: list[IpbError] = []
    read: set[str] = set()
    for path, expr in _expressions(card):
        read |= set(expr.names)
        if path[2] in ("proceed", "reject") and not expr.names:
            gate = card.gates[path[1]]
            found.append(_at(doc, LintWarning(
                f"criterion {expr.source.strip()!r} of gate {gate.id!r} reads no input: its verdict is the same in "
                "every scenario", rule="constant-criterion", name=gate.id), path))
    # perturbation recomputes a derived input from its sources, so they move the verdicts of the gates that read it
    read |= {n for k in card.constraints if k.derive is not None and k.derive in read for n in k.expr.names}
    quoted = {m for g in card.gates for t in (*g.required_elements, *(x for v in g.elements_by_verdict.values() for x in v))
              for m in re.findall(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", t)}
    # an input only ``require:`` constraints read shapes which scenarios are drawn, but no gate reads it (s58 F-C1)
    constrained = {n: [k.id for k in card.constraints if n in k.expr.names] for n in card.inputs}
    for name in card.inputs:
        if name not in read and name not in quoted and name not in _sector_inputs():
            said = (f"input {name!r} is read only by constraint(s) {', '.join(constrained[name])}, by no criterion, "
                    "computed value or classify rule: it limits which scenarios are drawn but cannot change a verdict"
                    if constrained[name] else
                    f"input {name!r} is read by no criterion, computed value or rule: it cannot change a verdict")
            found.append(_at(doc, LintWarning(said, rule="unused-input", name=name), ("inputs", name), key=True))
    found.extend(_ranges_without_step(card))
    found.extend(_describes_sector_ignored(card))
    found.extend(_decisive_unstated(card))
    found.extend(_kills_not_vetoes(card))
    found.extend(_elements_in_words(card))
    found.extend(_elements_in_labels(card))
    found.extend(_elements_without_words(card))
    found.extend(_invisible_characters(card))
    found.extend(_fixed_reentry(card))
    found.extend(_at(doc, warning, path, key=True) for path, warning in [*unlinked_ranges(card), *bare_acronyms(card),
                                                                      *ranges_missing(card)])
    found.extend(_at(doc, warning, path) for path, warning in [*label_warnings(card), *placeholder_labels(card),
                                                               *incompatible_rules(card)])
    for i, g in enumerate(card.gates):
        for regime, branch in g.branches.items():
            # (a branch with no gates has nothing to pass or fail, and the schema asks for both outcomes: it must
            # be written "{gates: [], pass: X, fail: X}", so no warning there, s53newuser)
            if branch.gates and branch.pass_outcome == branch.fail_outcome:
                found.append(_at(doc, LintWarning(
                    f"branch {regime!r} of gate {g.id!r} gives {branch.pass_outcome!r} whether its gates pass or "
                    "fail: they cannot change the outcome", rule="same-verdicts", name=regime),
                    ("gates", i, "branches", regime), key=True))
        if g.classify:
            found.extend(_shadowed(card, i))
    return sorted(found, key=lambda e: (e.line or 0, e.column or 0))


def _fixed_reentry(card: Card) -> list[IpbError]:
    """A ``reentry`` whose ``while`` reads nothing a pass through the loop changes (rule ``fixed-reentry``).

    The engine (:func:`ipb.engine.execute._chain`) goes back to gate ``to`` while the condition holds after the
    looping gate, at most ``max_iterations`` times; the facts stay as stated, and only ``iteration`` (the passes
    taken so far) and the values computed from it differ between passes. A condition that reads neither holds on
    every pass or on none, so the loop is taken ``max_iterations`` times or never (s54newuser:
    ``while: fcf_yield >= bond_yield`` looped twice on unchanged facts).
    """
    reads: dict[str, frozenset[str]] = {}
    for g in card.gates:
        reads.update({name: expr.names for name, expr in g.compute.items()})
        if g.classify:
            reads[g.id] = frozenset().union(*(when.names for _, when in g.classify if when is not None))
    found: list[IpbError] = []
    for i, g in enumerate(card.gates):
        if g.reentry is None:
            continue
        seen: set[str] = set()
        todo = list(g.reentry.condition.names)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(reads.get(name, ()))
        if "iteration" in seen:
            continue
        found.append(_at(card.doc, LintWarning(
            f"the reentry of gate {g.id!r} loops while {g.reentry.condition.source.strip()!r}, which reads no value a "
            "pass through the loop changes (the facts stay as stated; only 'iteration', the passes taken so far, and "
            f"values computed from it change): on any facts the loop is taken {g.reentry.max_iterations} time(s) "
            "or not at all, never a number of passes the facts decide; read iteration in the condition (e.g. "
            "'iteration < rounds and ...') or drop the reentry (README, 'Re-entry loops')", rule="fixed-reentry", name=g.id), ("gates", i, "reentry", "while")))
    return found


#: Characters a reader does not see as they are: controls, and format characters (Unicode category Cf: the
#: bidirectional overrides, embeddings, isolates and marks, zero-width spaces, the byte-order mark), but for the
#: zero-width (non-)joiners U+200C/U+200D that Persian, Indic scripts and emoji need.
_SEEN_AS_IS = frozenset({"\u200c", "\u200d"})


def _unseen(text: str) -> list[tuple[int, str]]:
    """``(position, character)`` of each character of ``text`` that a reader does not see as it is.

    >>> _unseen("Mo\u202eat"), _unseen("\u0645\u200c\u0627"), _unseen("Moat")
    ([(2, '\u202e')], [], [])
    """
    return [(k, ch) for k, ch in enumerate(text) if ch not in _SEEN_AS_IS and (
        unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"))]


def _invisible_characters(card: Card) -> list[IpbError]:
    """``invisible-character``: a card, gate or alias name holding a control or format character (s47break leftover
    12, s48break): a right-to-left override (U+202E) shows "Moat" reversed, a zero-width space splits a name in two
    where the eye sees one word; answers quoting the name as it looks do not match it."""
    out: list[IpbError] = []
    places: list[tuple[str, str, tuple[Any, ...]]] = [("card name", card.name, ("name",))]
    for i, g in enumerate(card.gates):
        places.append((f"name of gate {g.id!r}", g.name, ("gates", i, "name")))
        places.extend((f"alias of gate {g.id!r}", alias, ("gates", i, "aliases", k)) for k, alias in enumerate(g.aliases))
    for what, text, path in places:
        bad = _unseen(text or "")
        if not bad:
            continue
        k, ch = bad[0]
        code = f"U+{ord(ch):04X}"
        name = unicodedata.name(ch, "a control character")
        shown = "".join(f"\\u{ord(c):04x}" if (j, c) in bad else c for j, c in enumerate(text))
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        out.append(_at(card.doc, LintWarning(
            f"{what} '{shown}' holds {code} {name} at character {k + 1}{more}, which a reader does not see as it is: "
            "the name shown differs from the text answers are matched against; remove it", rule="invisible-character",
            name=text), path))
    return out


def _describes_sector_ignored(card: Card) -> list[IpbError]:
    """``describes: sector`` where perturbation never reads it (s35break): on an input that is not a category (its
    value names no sector) or on a card with a sector input (that input holds the sector). The key was accepted and
    did nothing, so sector substitution still wrote "Sector: healthcare." beside the author's "financial"."""
    own = sorted(n for n in card.inputs if n in _sector_inputs())
    out: list[IpbError] = []
    for name, spec in card.inputs.items():
        if spec.describes != "sector":
            continue
        if spec.type != "category":
            why = f"it is a {spec.type} input, and only a category value can name a sector (a kind of business 'financial')"
        elif own:
            why = f"the card has a sector input ({', '.join(own)}), which holds the company's sector"
        else:
            continue
        out.append(_at(card.doc, LintWarning(
            f"input {name!r} says describes: sector, which perturbation does not read here: {why}; remove the key "
            "(docs/perturbation.md, 'Dates that fit the facts')", rule="describes-ignored", name=name),
            ("inputs", name, "describes")))
    return out


def _decisive_unstated(card: Card) -> list[IpbError]:
    """``decisive-unstated``: neither ``decisive_default`` nor any gate's ``decisive`` is written in the card."""
    data = card.doc.data if card.doc is not None else None
    if not isinstance(data, Mapping) or "decisive_default" in data:
        return []
    gates = data.get("gates")
    if isinstance(gates, list) and any(isinstance(g, Mapping) and "decisive" in g for g in gates):
        return []
    passed = card.outcomes.get("pass", "INVEST")
    return [_at(card.doc, LintWarning(
        "the card states no decisive_default and no gate says decisive, so no gate is decisive (the default): an "
        f"INCONCLUSIVE gate never keeps the card from {passed}, and one gate PROCEEDing with every other fact "
        f"unknown gives {passed}; write decisive_default: true (every gate must be decided, as most bundled cards "
        "say) or false, or decisive: true on the gates that must be decided (README, 'Decisive gates')",
        rule="decisive-unstated", name=card.id), ("gate_logic",), key=True)]


def _kills_not_vetoes(card: Card) -> list[IpbError]:
    """``kill-not-veto``: kill criteria whose REJECT cannot keep a PROCEED-counting threshold card from passing.

    With weights :math:`w_g` and ``min_weight`` :math:`W`, gate :math:`k` vetoes only when
    :math:`\\sum_{g \\ne k} w_g < W`. For equal weights of 1 the warning names the numbers of a veto:
    weight :math:`m - 1` on gate :math:`k` (the others' total) and ``min_weight`` :math:`m - 1 + (N - 1)`, so the
    card passes exactly when gate :math:`k` and :math:`N - 1` others PROCEED (``N``: ``at_least``, ``m``: gates).
    """
    from fractions import Fraction

    from ipb.engine._exact import as_fraction

    threshold = card.threshold
    if threshold is None or threshold.count != "PROCEED" or card.topology_type != "parallel_threshold":
        return []
    weights = [as_fraction(g.weight) for g in card.gates]
    need = as_fraction(threshold.min_weight)
    plain = not weights_count(card)
    out: list[IpbError] = []
    for i, g in enumerate(card.gates):
        if g.kill_criterion is None or sum(weights, Fraction(0)) - weights[i] < need:
            continue
        others = len(card.gates) - 1
        how = (f"weight: {others} on this gate and min_weight: {others + threshold.n - 1}, so the card passes only when "
               f"it and {threshold.n - 1} other(s) PROCEED" if plain and threshold.n >= 2 else
               "a weight on this gate larger than the other gates' weights together, with min_weight above that total")
        out.append(_at(card.doc, LintWarning(
            f"gate {g.id!r} has kill_criterion {g.kill_criterion!r}, but on this {card.gate_logic} card its REJECT "
            f"only withholds its weight: the other gates can still reach the threshold and give "
            f"{card.outcomes.get('pass', 'INVEST')!r}. For an absolute veto write {how}, or gate_logic: conjunction "
            "(every gate must pass) (README, 'Kill criteria')", rule="kill-not-veto", name=g.id),
            ("gates", i, "kill_criterion"), key=True))
    return out


_NUMBER_WORD = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred")
#: A figure in words before a unit that answers write with a symbol (``10%``, ``5x``, ``50 bp``).
#: ``times`` before ``in``/``a``/``per``/``since`` ... counts how often, no multiple: "cut no more than two times in ten
#: years" is never written "2x" (s40break).
_IN_WORDS = re.compile(rf"\b(?:(?:{_NUMBER_WORD})[ -]?)+[ -](?:percent|per cent|percentage points?|fold|basis points?|"
                       r"times(?!\s+(?:in|a|an|per|each|every|since|during|within|out\s+of|over\s+the|this|that|last|"
                       r"so\s+far)\b))\b", re.IGNORECASE)


def _each_element(card: Card) -> Iterator[tuple[int, Any, tuple[Any, ...], str]]:
    """``(gate index, gate, key path under the gate, text)`` of every required element and ``elements_by_verdict`` one."""
    for i, g in enumerate(card.gates):
        lists: list[tuple[tuple[str, ...], tuple[str, ...]]] = [(("required_elements",), g.required_elements)]
        lists += [(("elements_by_verdict", v), items) for v, items in g.elements_by_verdict.items()]
        for keys, items in lists:
            for j, text in enumerate(items):
                yield i, g, (*keys, j), text


def _elements_in_words(card: Card) -> list[IpbError]:
    """``element-number-in-words``: each required element (or ``elements_by_verdict`` one) spelling a figure."""
    out: list[IpbError] = []
    for i, g, path, text in _each_element(card):
        m = _IN_WORDS.search(text)
        if m is None:
            continue
        out.append(_at(card.doc, LintWarning(
            f"required element {text!r} of gate {g.id!r} spells a figure in words ({m.group(0)!r}): answers "
            "write it in digits (10%, 5x) and the parser finds an element by its words, so no answer is "
            "credited with it (KCCS, GRA); write the figure in digits (README, 'Gates')",
            rule="element-number-in-words", name=g.id), ("gates", i, *path)))
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _elements_in_labels(card: Card) -> list[IpbError]:
    """``element-is-gate-label``: each required element (no ``{value}``, no figure) that a gate label already says:
    the whole label, or two or more of its words in a row."""
    out: list[IpbError] = []
    for i, g in enumerate(card.gates):
        labels = [(lab, _words(lab)) for lab in (g.name, *g.aliases)]
        for j, text in enumerate(g.required_elements):
            words = _words(text)
            if not words or "{" in text or any(ch.isdigit() for ch in text):
                continue  # a quoted value or a figure is more than the label says
            n = len(words)  # one word of a longer label ("quality" of "Quality check") is left alone: too common to warn
            hit = next((lab for lab, lw in labels if lw == words or (n > 1 and any(
                lw[k:k + n] == words for k in range(len(lw) - n + 1)))), None)
            if hit is None:
                continue
            out.append(_at(card.doc, LintWarning(
                f"required element {text!r} of gate {g.id!r} is said by the gate's label {hit!r}: an answer that "
                "only names the gate is not credited with it, but one that repeats the name in its reasoning is "
                "(KCCS, GRA); require what an analysis says beyond the label (a figure such as '1.5x floor', a "
                "fact, the rule) (README, 'Gates')",
                rule="element-is-gate-label", name=g.id), ("gates", i, "required_elements", j)))
    return out


def _elements_without_words(card: Card) -> list[IpbError]:
    """``element-words-too-short``: each required element (or ``elements_by_verdict`` one) with a field whose words
    outside its fields are all single letters."""
    out: list[IpbError] = []
    for i, g, path, text in _each_element(card):
        if "{" not in text:
            continue
        words = re.findall(r"[A-Za-z]+(?:/[A-Za-z]+)*", re.sub(r"\{[^}]*\}", " ", text))  # P/B is a word
        if any(len(w) > 1 for w in words):
            continue
        out.append(_at(card.doc, LintWarning(
            f"required element {text!r} of gate {g.id!r} has no word of two letters or more beside its "
            "figure: the parser finds an element's figure after its words, so it takes any figure of the "
            "kind nearby and misses 'Z = 2.90' (KCCS, GRA); name the figure in a word ('Z-score {z}') "
            "(README, 'Gates')", rule="element-words-too-short", name=g.id), ("gates", i, *path)))
    return out


@lru_cache(maxsize=1)
def _sector_inputs() -> frozenset[str]:
    """Inputs the sector operator relocates (``inputs:`` of the bundled ``sectors.yaml``): context, not criteria."""
    try:
        text = resources.files("ipb.frameworks").joinpath("sectors.yaml").read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    m = re.search(r"^inputs:\s*\[([^\]]*)\]", text, re.MULTILINE)
    return frozenset(x.strip() for x in m.group(1).split(",")) if m else frozenset()


def _grid_values(spec: InputSpec, constants: Sequence[Decimal]) -> list[Any]:
    if spec.type == "bool":
        return [False, True]
    if spec.type == "category":
        return list(spec.values or ())
    if spec.range is None:
        return []
    lo, hi = spec.range
    points = {lo + (hi - lo) * Decimal(k) / 8 for k in range(9)}
    points |= {c for c in constants if lo <= c <= hi}
    return sorted(points)


def _shadowed(card: Card, index: int) -> list[IpbError]:
    gate = card.gates[index]
    rules = gate.classify
    out: list[IpbError] = []
    for j, (regime, when) in enumerate(rules):
        if when is None and j < len(rules) - 1:
            later = ", ".join(repr(r) for r, _ in rules[j + 1:])
            out.append(_at(card.doc, LintWarning(
                f"classify rule {regime!r} of gate {gate.id!r} has no 'when', so the rules after it ({later}) never "
                "fire", rule="shadowed-rule", name=rules[j + 1][0]), ("gates", index, "classify", j + 1)))
            return out
    names = sorted({n for _, w in rules if w is not None for n in w.names})
    if not names or any(n not in card.inputs and n not in card.constants for n in names):
        return out  # rules reading computed values: not sampled
    inputs = [n for n in names if n in card.inputs]
    constants = [v for n, (v, _) in card.constants.items()]
    axes = [_grid_values(card.inputs[n], constants) for n in inputs]
    if not inputs or any(not a for a in axes):
        return out
    total = 1
    for a in axes:
        total *= len(a)
    rng = random.Random(0)
    combos: Iterable[tuple[Any, ...]]
    if total <= GRID_LIMIT:
        combos = itertools.product(*axes)
    else:
        combos = (tuple(rng.choice(a) for a in axes) for _ in range(GRID_LIMIT))
    first = [0] * len(rules)
    holds = [0] * len(rules)
    shadow_of: dict[int, int] = {}
    base = {n: v for n, (v, _) in card.constants.items()}
    for combo in combos:
        env = {**base, **dict(zip(inputs, combo))}
        winner = None
        for j, (_, when) in enumerate(rules):
            ok = True if when is None else when(env)
            if ok is True:
                holds[j] += 1
                if winner is None:
                    winner = j
                    first[j] += 1
                else:
                    shadow_of.setdefault(j, winner)
    for j, (regime, when) in enumerate(rules):
        if when is not None and holds[j] and not first[j]:
            by = rules[shadow_of.get(j, 0)][0]
            out.append(_at(card.doc, LintWarning(
                f"classify rule {regime!r} of gate {gate.id!r} never fires: wherever it holds, an earlier rule "
                f"({by!r}) matches first (tried {min(total, GRID_LIMIT)} combinations of {', '.join(inputs)} over "
                "their declared ranges); put the narrower rule first", rule="shadowed-rule", name=regime),
                ("gates", index, "classify", j)))
    return out


_UNIT_LITERAL = re.compile(r"^\s*(-?\s*\$|.*[%xX]\s*$|.*\d\s*[KMBT]\s*$)")


def out_of_range(spec: InputSpec, value: Any) -> bool:
    """Whether an engine value lies outside the input's declared ``range`` (False when it has none)."""
    if spec.range is None or value is None or isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return False
    lo, hi = spec.range
    return not lo <= value <= hi


def _range_text(spec: InputSpec) -> str:
    from ipb.engine.execute import format_value

    assert spec.range is not None
    unit = spec.expr_type.unit
    return f"[{format_value(spec.range[0], unit)}, {format_value(spec.range[1], unit)}]"


def _range_problems(doc: YamlDoc, card: Card, make: type[IpbError]) -> list[IpbError]:
    from ipb.engine.execute import format_value

    facts = doc.data.get("facts") if isinstance(doc.data, Mapping) else None
    found: list[IpbError] = []
    if not isinstance(facts, Mapping):
        return found
    for name, raw in facts.items():
        spec = card.inputs.get(name)
        if spec is None:
            continue
        try:
            value = convert_fact(spec, raw, strict=True)
        except IpbError:
            continue
        if out_of_range(spec, value):
            found.append(_at(doc, make(
                f"fact {name} = {format_value(value, spec.expr_type.unit)} is outside the range "
                f"{_range_text(spec)} that card {card.id!r} declares for it", rule="out-of-range", name=name),
                ("facts", name)))
    return found


def range_errors(doc: YamlDoc, cards: Sequence[Card]) -> list[IpbError]:
    """Facts of a base scenario outside a card's declared range, as errors (``ipb perturb`` refuses them)."""
    return [e for card in cards for e in _range_problems(doc, card, PerturbError)]


def lint_scenario(doc: YamlDoc, card: Card, facts: Mapping[str, Any], expected: Any = None) -> list[IpbError]:
    """The scenario warnings above for ``doc`` checked against ``card``.

    Parameters
    ----------
    facts:
        The scenario's facts as engine values (missing = unknown).
    expected:
        The scenario's ``expected`` block, if any (a scenario that records its
        expected verdicts is not warned about missing facts).
    """
    found = _range_problems(doc, card, LintWarning)
    raw_facts = doc.data.get("facts") if isinstance(doc.data, Mapping) else None
    if isinstance(raw_facts, Mapping):
        for name, raw in raw_facts.items():
            spec = card.inputs.get(name)
            if spec is not None and spec.type == "number" and isinstance(raw, str) and _UNIT_LITERAL.match(raw):
                found.append(_at(doc, LintWarning(
                    f"fact {name} = {raw.strip()!r} carries a unit, but input {name!r} is a plain number"
                    f"{' (' + spec.unit + ')' if spec.unit else ''}: the unit is dropped; write the bare number",
                    rule="unit-mismatch", name=name), ("facts", name)))
    found.extend(_vintage_problems(doc, card))
    for k in card.constraints:  # s62 new user N9: a derived fact stated while a source is not
        unknown = [n for n in sorted(k.expr.names) if n in card.inputs and facts.get(n) is None] if k.derive else []
        if k.derive and facts.get(k.derive) is not None and unknown:
            known = [n for n in sorted(k.expr.names) if n in card.inputs and facts.get(n) is not None]
            found.append(_at(doc, LintWarning(
                f"fact {k.derive} is derived (constraint {k.id}) but stated while its source "
                f"{', '.join(unknown)} is not: ipb perturb keeps it as stated, never derives it from an unknown "
                f"source{', and refuses draws that move ' + ', '.join(known) + ' without ' + ', '.join(unknown) if known else ''}; "
                f"state {', '.join(unknown)} to let it move with its sources", rule="derived-partial", name=k.derive),
                ("facts", k.derive)))
    if not expected:
        missing = [n for n in card.inputs if facts.get(n) is None]
        if missing:
            found.append(_at(doc, LintWarning(
                f"no fact for {', '.join(missing)}: unknown, so the gates that read "
                f"{'it' if len(missing) == 1 else 'them'} may be INCONCLUSIVE (give the fact, or add an 'expected' "
                "block saying what the scenario should produce)", rule="missing-fact", name=missing[0]),
                ("facts",), key=True))
    return sorted(found, key=lambda e: (e.line or 0, e.column or 0))


def _vintage_problems(doc: YamlDoc, card: Card) -> list[IpbError]:
    """An ``as_of`` dated outside ``card``'s vintage years (``ipb perturb`` refuses such a base without
    ``--fm6-probe``; ``perturb/vintage.py`` also asks the investor registry, which the engine does not read)."""
    import datetime as dt

    raw = doc.data.get("as_of") if isinstance(doc.data, Mapping) else None
    if not isinstance(raw, str):
        return []
    try:
        day = dt.date.fromisoformat(raw)
    except ValueError:
        return []  # the scenario loader reports a date that is no date
    start, end = card.vintage
    if start <= day.year and (end is None or day.year <= end):
        return []
    window = f"{start}-{end if end is not None else 'now'}"
    return [_at(doc, LintWarning(
        f"as_of {raw} is outside the vintage {window} of card {card.id!r}: ipb run executes it, but ipb perturb "
        "refuses it as a base unless --fm6-probe (its items then probe FM-6, anachronistic application); date it "
        "inside the vintage", rule="outside-vintage", name="as_of"), ("as_of",))]


def _ranges_without_step(card: Card) -> list[IpbError]:
    """A numeric input with a ``range`` but no ``step``: ``ipb perturb`` then draws on a hundredth of the range
    (``perturb/values.py``) and ``ipb explain`` does not search where a gate switches along it."""
    from ipb.engine.execute import format_value

    found: list[IpbError] = []
    for name, spec in card.inputs.items():
        if spec.range is None or spec.step is not None or spec.type not in ("number", "money", "multiple", "ratio"):
            continue
        lo, hi = spec.range
        if hi <= lo:
            continue
        unit = spec.expr_type.unit
        step, first = (hi - lo) / 100, lo + (hi - lo) / 100
        found.append(_at(card.doc, LintWarning(
            f"input {name!r} declares range {_range_text(spec)} but no step: ipb perturb draws its values a "
            f"hundredth of the range apart ({format_value(step, unit)}: {format_value(lo, unit)}, "
            f"{format_value(first, unit)}, ...) and ipb explain does not search where a gate switches along it; "
            "declare a step a person would round to", rule="range-without-step", name=name),
            ("inputs", name), key=True))
    return found
