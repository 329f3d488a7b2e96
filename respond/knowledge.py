"""The knowledge base behind conditions B and C of a model run (paper §7.2).

Condition B gives the model the top ``k`` *knowledge cards* of the investor a
question names, retrieved by embedding similarity with a keyword fallback;
condition C gives it the gold framework card itself, rendered as text. Both
are built here from what the package ships:

- every bundled framework card (:func:`ipb.engine.registry.bundled_card_paths`)
  yields one ``framework`` knowledge card (what the framework decides, why its
  topology, its sources) and one ``gate`` knowledge card per gate (name and
  aliases, description, criteria, kill criterion, required elements and the
  gate's source);
- every investor of the registry (``frameworks/investors.yaml``) yields one
  ``investor`` knowledge card (school, organisation, active period,
  distinctive phrases, career milestones).

A ``framework`` knowledge card does not list the framework's gates and a
``gate`` card does not say where its gate stands in the chain: condition B
gives principles, condition C the procedure. A knowledge card carries no
executable criterion (issue 15, defect 13): no ``PROCEED when`` / ``REJECT
when`` rule, no computed formula, no comparison operator and no identifier
of the card's inputs, constants or values (names are written as words), so
condition B is not a near copy of condition C.

An investor that the registry does not know is refused
(:class:`~ipb.errors.RespondError`, a ScoreError, rule ``unknown-investor``) rather than
answered with other investors' cards; a question that names no investor
retrieves from every investor, and the retrieval says so (``scope``).

Retrieval (:meth:`KnowledgeBase.retrieve`) ranks the named investor's cards
by cosine similarity between the question and each card's text with an
:class:`~ipb.scoring.embeddings.Encoder` (the default is
:func:`~ipb.scoring.embeddings.default_encoder`). When the encoder cannot be
loaded, or ``method="keyword"`` is asked for, it ranks by BM25 over word
stems instead; the result says which method ranked it and why.

Examples
--------
>>> from ipb.scoring.embeddings import HashingEncoder
>>> kb = KnowledgeBase.bundled()
>>> hit = kb.retrieve("Is the price below intrinsic value with a margin of safety?",
...                   ["Warren Buffett"], k=3, encoder=HashingEncoder())
>>> hit.method, len(hit.cards), {c.investor for c in hit.cards}
('embedding', 3, {'Warren Buffett'})
>>> kb.retrieve("margin of safety", ["Warren Buffett"], method="keyword").method
'keyword'
>>> "Gate 5: Margin of Safety" in card_text(compiled_card("buffett_acquisition_checklist").card)
True

References
----------
InvestPhilBench paper §7.2 (conditions A, B, C), Table 5 (cards), Table 8
(distinctive phrases), §11.6 (career boundaries).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ipb.engine._exact import as_fraction
from ipb.engine.card import Card, Gate, Source, weights_count
from ipb.engine.execute import format_value
from ipb.engine.investors import find_investor, fold_name
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import IpbError, RespondError, ScoreError, did_you_mean
from ipb.perturb._knowledge import KNOWLEDGE_VERSION  # the renderings' version, hashed into items (re-exported)
from ipb.scoring._text import content_stems, normalize
from ipb.scoring.embeddings import Encoder, cosine_matrix, default_encoder, embed

__all__ = [
    "KNOWLEDGE_VERSION",
    "KnowledgeCard",
    "Retrieval",
    "KnowledgeBase",
    "card_text",
    "framework_cards",
    "investor_cards",
    "encoder_name",
    "prompt_texts",
]


#: Methods :meth:`KnowledgeBase.retrieve` accepts.
METHODS = ("embedding", "keyword")

#: The keyword ranking's BM25 parameters (term-frequency saturation, length normalisation).
BM25_K1, BM25_B = 1.2, 0.75


@dataclass(frozen=True)
class KnowledgeCard:
    """One retrievable unit of knowledge about one investor.

    ``id`` is ``CARD_ID`` for a framework card, ``CARD_ID#GATE_ID`` for a
    gate card and ``investor:ID`` for an investor card. ``text`` is what the
    prompt shows and what is embedded.
    """

    id: str
    kind: str
    investor: str
    title: str
    text: str
    framework: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "investor": self.investor, "title": self.title,
                "framework": self.framework}


@dataclass(frozen=True)
class Retrieval:
    """What :meth:`KnowledgeBase.retrieve` found for one investor.

    ``method`` is ``embedding`` or ``keyword``; ``fallback`` says why the
    keyword ranking was used when embeddings were asked for (None otherwise).
    ``scores`` are cosines (embedding) or BM25 scores (keyword), one per card.
    ``scope`` is ``named`` when the cards are the named investors' own and
    ``all_investors`` when the question named none, so every investor's
    cards competed.
    """

    investors: tuple[str, ...]
    method: str
    cards: tuple[KnowledgeCard, ...]
    scores: tuple[float, ...]
    encoder: str | None = None
    fallback: str | None = None
    scope: str = "named"

    def to_dict(self) -> dict[str, Any]:
        return {
            "investors": list(self.investors),
            "scope": self.scope,
            "method": self.method,
            "encoder": self.encoder,
            "fallback": self.fallback,
            "cards": [c.id for c in self.cards],
            "scores": [round(s, 6) for s in self.scores],
        }


# --------------------------------------------------------------------------- rendering


def _source_text(source: Source | None) -> str | None:
    if source is None:
        return None
    text = f"{source.document} ({source.year}; tier {source.tier})"
    if source.locator:
        text += f", {source.locator}"
    if source.quote:
        text += f': "{source.quote}"'
    return text


def _flat(text: str) -> str:
    return " ".join(str(text).split())


_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _elements(elements: Sequence[str]) -> str:
    """Required elements joined by '; ', value templates ``{price}`` shown as ``<price>``."""
    return "; ".join(_TEMPLATE.sub(r"<\1>", e) for e in elements)


def _gate_criteria(gate: Gate) -> list[str]:
    lines = []
    for name, expr in gate.compute.items():
        lines.append(f"computes {name} = {_flat(expr.source)}")
    for regime, when in gate.classify:
        lines.append(f"classifies as {regime}" + (f" when {_flat(when.source)}" if when is not None else " otherwise"))
    if gate.proceed is not None:
        lines.append(f"PROCEED when {_flat(gate.proceed.source)}")
    if gate.reject is not None:
        lines.append(f"REJECT when {_flat(gate.reject.source)}")
    return lines


_IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_OPERATORS = (("<=", " at most "), (">=", " at least "), ("==", " is "), ("!=", " is not "), (" < ", " below "),
              (" > ", " above "))


def _words(text: str) -> str:
    """Prose for condition B: identifiers as words (``revenue_retention`` -> revenue retention), no operators."""
    text = _TEMPLATE.sub(r"\1", _flat(text))
    for op, word in _OPERATORS:
        text = text.replace(op, word)
    return " ".join(_IDENTIFIER.sub(lambda m: m.group(0).replace("_", " "), text).split())


#: A sentence of a card's prose that states the card's own procedure (a verdict rule, a gate
#: number, the card author's operationalisation or its change log) rather than a principle.
_PROCEDURAL = re.compile(r"\b(?:PROCEED|REJECT|INCONCLUSIVE|N/A)\b|\bissue \d+|\bthe card\b|\bthis card\b|"
                         r"\bauthor-inferred\b|\bauthor's\b|\bgates? \d|\(see the\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")


def _principles(text: str) -> str:
    """The sentences of ``text`` that state principles, not the card's procedure, in words."""
    kept = [s for s in _SENTENCE.split(_flat(text)) if not _PROCEDURAL.search(s)]
    return _words(" ".join(kept))


#: A comparison written before a figure in a required element ("retention >= 90%", "(at least 10%)").
_BEFORE_FIGURE = r"(?:(?:at least|at most|no more than|no less than|above|below|under|over|>=|<=|[<>=])\s*)?"


def _without_author_figures(card: Card, element: str) -> str:
    """``element`` without the figures that are the card author's own numbers (``author_inferred``
    constants, as the card writes their values), with the comparison before each: condition B gives
    the investor's principles, never the author's thresholds (stop 33: Buffett's moat card showed
    "retention at least 90%", Munger's fair price "expected return (at least 10%)").

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("buffett_acquisition_checklist").card
    >>> _without_author_figures(card, "retention >= 90%"), _without_author_figures(card, "gross margin 45%")
    ('retention', 'gross margin 45%')
    """
    for name in sorted(card.author_inferred):
        value, kind = card.constants[name]
        figure = re.escape(format_value(value, kind.unit))
        element = re.sub(rf"\s*\(\s*{_BEFORE_FIGURE}{figure}\s*\)", "", element)
        element = re.sub(rf"\s*{_BEFORE_FIGURE}(?<![\w.$]){figure}(?![\w.%])", "", element)
    return " ".join(element.split())


def _gate_knowledge(card: Card, gate: Gate) -> KnowledgeCard:
    """A gate's principle in the investor's terms: name, aliases, what it asks and why, its source.

    No criterion, formula or identifier of the card (condition C carries the procedure).
    """
    parts = [f"{card.investor}, {card.name}: the test '{gate.name}'."]
    aliases = [a for a in gate.aliases if not re.fullmatch(r"(?i)gate \d+", a)]
    if aliases:
        parts.append("Also called: " + ", ".join(aliases) + ".")
    principles = _principles(gate.description) if gate.description else ""
    if principles:
        parts.append(principles)
    if gate.kill_criterion:
        parts.append(f"What failing it means: {_words(gate.kill_criterion)}.")
    if gate.required_elements:
        # Value placeholders ("price {price}") are dropped: the point, not the name of a value.
        points = [_words(_without_author_figures(card, _TEMPLATE.sub("", e))).strip(" ,:;").rstrip(" (~=")
                  for e in gate.required_elements]
        points = [p for p in points if p]
        if points:
            parts.append("What an analysis of it must mention: " + "; ".join(points) + ".")
    source = _source_text(gate.source)
    if source:
        parts.append(f"Source: {_words(source)}.")
    return KnowledgeCard(id=f"{card.id}#{gate.id}", kind="gate", investor=card.investor,
                         title=f"{card.investor}: {gate.name} ({card.name})", text=" ".join(parts), framework=card.id)


def _framework_knowledge(card: Card) -> KnowledgeCard:
    parts = [f"{card.investor}, {card.name}."]
    if card.description and _principles(card.description):
        parts.append(_principles(card.description))
    if card.topology_rationale and _principles(card.topology_rationale):
        parts.append("How the tests combine: " + _principles(card.topology_rationale))
    start, end = card.vintage
    parts.append(f"Documented from {start} to {end if end is not None else 'the present'}.")
    sources = [s for s in (_source_text(s) for s in card.sources) if s]
    if sources:
        parts.append("Sources: " + "; ".join(sources) + ".")
    return KnowledgeCard(id=card.id, kind="framework", investor=card.investor, title=f"{card.investor}: {card.name}",
                         text=" ".join(parts), framework=card.id)


def framework_cards(card: Card) -> list[KnowledgeCard]:
    """The knowledge cards of one framework card: its ``framework`` card, then one per gate."""
    return [_framework_knowledge(card)] + [_gate_knowledge(card, g) for g in card.gates]


def investor_cards(investors: Mapping[str, Any]) -> list[KnowledgeCard]:
    """One ``investor`` knowledge card per registry entry (:class:`ipb.engine.investors.Investor`)."""
    out = []
    for inv in investors.values():
        parts = [f"{inv.name}" + (f" ({inv.organisation})" if inv.organisation else "") + f", school: {inv.school.replace('_', ' ')}."]
        end = str(inv.active_end) if inv.active_end is not None else "the present"
        parts.append(f"Active from {inv.active_start} to {end}.")
        if inv.distinctive_phrases:
            parts.append("Characteristic phrases: " + "; ".join(f'"{p}"' for p in inv.distinctive_phrases) + ".")
        milestones = [f"{b.date}: {_flat(b.description)}" for b in inv.career_boundaries]
        if milestones:
            parts.append("Milestones: " + " ".join(milestones))
        out.append(KnowledgeCard(id=f"investor:{inv.id}", kind="investor", investor=inv.name,
                                 title=f"{inv.name}: voice and career", text=" ".join(parts)))
    return out


def _number(value: Decimal, unit: str | None) -> str:
    return format_value(value, unit)


def _threshold_sentence(card: Card) -> str:
    """The threshold line of :func:`card_text`, as the executor decides it (``engine.execute._threshold``).

    The executor meets a threshold when the gates giving the counted verdict weigh at least ``min_weight`` together
    (``min_weight`` is ``at_least`` when the card gives none, so with every weight 1 that is a count of gates). With
    every weight 1 and ``min_weight`` equal to ``at_least`` the line is a count; otherwise it states the weight, the
    fewest gates that can reach it, and whether any set of that many can (s62 new user N1: the line said "at least 4
    gate(s) giving PROCEED (or a total weight of at least 7)", and a model told "or" answered BUY where four light
    gates PROCEEDed without the heavy one and the card says DO_NOT_BUY).

    Examples
    --------
    >>> _threshold_sentence(compiled_card("munger_opportunity_evaluation").card)
    'Threshold: the final verdict is decided by at least 3 gate(s) giving PROCEED.'
    """
    t = card.threshold
    assert t is not None
    if not weights_count(card):
        return f"Threshold: the final verdict is decided by at least {t.n} gate(s) giving {t.count}."
    weights = sorted((as_fraction(g.weight) for g in card.gates), reverse=True)
    need = as_fraction(t.min_weight)
    fewest = next((k for k in range(1, len(weights) + 1) if sum(weights[:k], Fraction(0)) >= need), len(weights))
    any_set = sum(weights[len(weights) - fewest:], Fraction(0)) >= need
    text = (f"Threshold: the final verdict is decided by the weight of the gates giving {t.count}: together they must "
            f"weigh at least {_number(t.min_weight, None)} (a gate weighs 1 unless a weight is listed with it), "
            f"so at least {fewest} gate(s)")
    return text + ("." if any_set else f", and not every {fewest} of them weigh enough.")


def card_text(card: Card) -> str:
    """The whole framework card as plain text, for the condition C (oracle) prompt.

    Everything a reader needs to apply the card: what it decides, how the
    gates combine (topology, gate logic, threshold, branches, loops), its
    outcomes, inputs with their units, constants, and each gate in order with
    its criteria, computed values, kill criterion, required elements and
    source. Scoring hints that are not part of the procedure (monotonicity
    declarations, per-verdict element lists) are left out. Never the gold
    verdicts: those come from executing the card on a scenario.

    Examples
    --------
    >>> text = card_text(compiled_card("graham_net_net_screen").card)
    >>> text.splitlines()[0]
    'Framework card: Graham Net-Net Working Capital Screen (Benjamin Graham)'
    """
    doc_data: Mapping[str, Any] = card.doc.data if card.doc is not None and isinstance(card.doc.data, Mapping) else {}
    lines = [f"Framework card: {card.name} ({card.investor})", f"Id: {card.id}"]
    if card.description:
        lines.append(f"Purpose: {_flat(card.description)}")
    lines.append(f"Topology: {card.topology_type}; gate logic: {card.gate_logic}.")
    if card.topology_rationale:
        lines.append(f"Why: {_flat(card.topology_rationale)}")
    lines.append(_logic_sentence(card))
    if card.threshold is not None:
        lines.append(_threshold_sentence(card))
    outcomes = ", ".join(f"{k}: {v}" for k, v in card.outcomes.items())
    lines.append(f"Final verdicts: {outcomes}.")
    start, end = card.vintage
    lines.append(f"Vintage: {start} to {end if end is not None else 'present'}.")
    sources = [s for s in (_source_text(s) for s in card.sources) if s]
    if sources:
        lines.append("Sources:")
        lines.extend(f"  - {s}" for s in sources)
    if card.inputs:
        lines.append("Inputs (facts a scenario may state; a fact not stated is unknown):")
        for spec in card.inputs.values():
            kind = spec.type + (f", unit {spec.unit}" if spec.unit else "")
            if spec.values:
                kind += ", one of " + ", ".join(spec.values)
            lines.append(f"  - {spec.name} ({kind})" + (f": {_flat(spec.description)}" if spec.description else ""))
    constants = {n: v for n, v in card.constants.items()}
    if constants:
        raw = doc_data.get("constants") or {}
        lines.append("Constants:")
        for name, (value, etype) in constants.items():
            spec = raw.get(name) if isinstance(raw, Mapping) else None
            desc = spec.get("description") if isinstance(spec, Mapping) else None
            lines.append(f"  - {name} = {_number(value, etype.unit)}" + (f": {_flat(desc)}" if desc else ""))
    lines.append("Gates, in order:")
    for gate in card.gates:
        lines.append(f"Gate {gate.number}: {gate.name}")
        aliases = [a for a in gate.aliases if not re.fullmatch(r"(?i)gate \d+", a)]
        if aliases:
            lines.append("  Also called: " + ", ".join(aliases))
        if gate.description:
            lines.append(f"  {_flat(gate.description)}")
        for criterion in _gate_criteria(gate):
            lines.append(f"  - {criterion}")
        if gate.proceed is not None and gate.reject is None:
            lines.append("  - REJECT when the PROCEED criterion is false")
        if gate.reject is not None and gate.proceed is None and not gate.classify:
            lines.append("  - PROCEED when the REJECT criterion is false")
        for regime, branch in gate.branches.items():
            lines.append(f"  - branch {regime}: gates {', '.join(branch.gates)}; pass {branch.pass_outcome}, "
                         f"fail {branch.fail_outcome}")
        if gate.reentry is not None:
            r = gate.reentry
            lines.append(f"  - loop back to gate {r.to} while {_flat(r.condition.source)} (at most {r.max_iterations} times)")
        if gate.weight != 1:
            lines.append(f"  - weight {_number(gate.weight, None)}")
        if gate.decisive:
            lines.append("  - decisive: while this gate is INCONCLUSIVE the card cannot reach its pass verdict "
                         f"({card.outcomes.get('pass', 'INVEST')}); the final verdict is INCONCLUSIVE instead")
        if gate.kill_criterion:
            lines.append(f"  Kill criterion: {gate.kill_criterion}")
        if gate.required_elements:
            lines.append("  Required elements: " + _elements(gate.required_elements))
        source = _source_text(gate.source)
        if source:
            lines.append(f"  Source: {source}")
    return "\n".join(lines)


def prompt_texts(item: Mapping[str, Any], cards: Sequence[Card]) -> list[str]:
    """What a prompt about ``cards`` may show besides the item's question: the bundled prompt set's parts, each card's
    condition C text (:func:`card_text`) and its condition B knowledge cards (:func:`framework_cards`).

    ``ipb score`` gives this to :class:`ipb.scoring.options.ScoreOptions` (``prompt_texts``) for the echo test
    (:mod:`ipb.scoring.echo`): an answer made of these texts restated judges nothing. A superset of one prompt's
    context is enough there (restating any of it is no judgement), so no retrieval is run.

    >>> texts = prompt_texts({}, [compiled_card("graham_net_net_screen").card])
    >>> any(t.startswith("Framework card: Graham Net-Net") for t in texts)
    True
    """
    from ipb.respond.prompts import load_prompts, prompt_sets

    texts: list[str] = []
    for name in prompt_sets():
        if name.startswith("respond-"):
            texts += list(load_prompts(name).parts.values())
    for card in cards:
        texts.append(card_text(card))
        texts += [k.text for k in framework_cards(card)]
    return texts


def _logic_sentence(card: Card) -> str:
    """One line saying how the gates combine, as engine/execute.py runs them (paper §7.3): a chain stops at its first
    REJECT (later gates N/A); a parallel card runs every gate, so nothing after a REJECT is N/A."""
    pass_, fail = card.outcomes.get("pass", "INVEST"), card.outcomes.get("fail", "DECLINE")
    logic = card.gate_logic
    parallel = card.topology_type == "parallel_threshold"
    if logic == "conjunction" and parallel:
        return (f"Logic: evaluate every gate, also after a REJECT (no gate is N/A because an earlier one rejected); "
                f"any REJECT gives {fail}; {pass_} when no gate rejects. A gate whose facts are missing is "
                f"INCONCLUSIVE, and a decisive gate that is INCONCLUSIVE leaves the final verdict INCONCLUSIVE.")
    if logic == "disjunction" and parallel:
        return (f"Logic: each gate checks one trigger and every trigger is checked; a trigger that fires is that "
                f"gate's REJECT and gives {fail}; {pass_} only when every trigger has been checked and none fires.")
    if logic == "conjunction":
        return (f"Logic: apply the gates in order; the first REJECT ends the analysis with {fail} (later gates N/A); "
                f"{pass_} when no gate rejects. A gate whose facts are missing is INCONCLUSIVE and the analysis continues, "
                f"but a decisive gate that is INCONCLUSIVE leaves the final verdict INCONCLUSIVE.")
    if logic == "disjunction":
        return (f"Logic: each gate checks one trigger; a trigger that fires is that gate's REJECT and gives {fail} "
                f"(later gates N/A); {pass_} only when every trigger has been checked and none fires (PROCEED).")
    if logic.startswith("weighted_threshold"):
        return f"Logic: evaluate every gate independently and count the verdicts against the threshold: {fail} or {pass_}."
    if logic == "regime_dependent":
        return "Logic: the classifying gate selects a branch; the branch's gates are applied in order and decide its verdicts."
    return f"Logic: {logic}."


# --------------------------------------------------------------------------- the knowledge base


def encoder_name(encoder: Encoder) -> str:
    """A short name for an encoder, recorded with condition B runs."""
    inner = getattr(encoder, "encoder", encoder)
    path = getattr(inner, "model_path", None)
    if type(inner).__name__ == "SentenceTransformerEncoder":
        from importlib import metadata

        from ipb.scoring.embeddings import DEFAULT_MODEL_PACKAGE, default_model_path

        if path is None or path == default_model_path():
            try:
                version = metadata.version(DEFAULT_MODEL_PACKAGE)
            except metadata.PackageNotFoundError:
                version = "?"
            return f"sentence-transformers:all-MiniLM-L6-v2 ({DEFAULT_MODEL_PACKAGE} {version})"
        return "sentence-transformers:" + "/".join(str(path).rstrip("/").split("/")[-2:])
    dim = getattr(inner, "dim", None)
    return type(inner).__name__ + (f"(dim={dim})" if dim is not None else "")


@dataclass
class KnowledgeBase:
    """Knowledge cards of every investor, with embeddings computed on first use.

    Parameters
    ----------
    cards : sequence of KnowledgeCard
        Every card, in a stable order (ties in ranking keep it).
    aliases : mapping
        Investor name -> every name and alias it goes by (for finding the
        investors a question names).
    registry : mapping
        Registry id -> :class:`ipb.engine.investors.Investor` (:meth:`canonical` finds an investor as
        :func:`ipb.engine.investors.get_investor` does).
    """

    cards: tuple[KnowledgeCard, ...]
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    registry: Mapping[str, Any] = field(default_factory=dict)
    _vectors: list[tuple[Encoder, Any]] = field(default_factory=list, repr=False)
    _index: tuple[list[Counter[str]], list[int], Counter[str]] | None = field(default=None, repr=False)

    @classmethod
    def bundled(cls) -> "KnowledgeBase":
        """Every bundled framework card and the bundled investor registry (cached)."""
        return _bundled_kb()

    @classmethod
    def build(cls, cards: Iterable[Card], investors: Mapping[str, Any] | None = None) -> "KnowledgeBase":
        """A knowledge base from framework cards and registry entries (id -> Investor)."""
        units: list[KnowledgeCard] = []
        for card in cards:
            units.extend(framework_cards(card))
        registry = dict(investors or {})
        aliases: dict[str, tuple[str, ...]] = {inv.name: tuple(inv.names()) for inv in registry.values()}
        units.extend(investor_cards(registry))
        # a card may name its investor by id or alias, as ipb check allows: its cards go under the registry's name
        units = [replace(u, investor=found.name) if (found := find_investor(u.investor, registry)) else u for u in units]
        for unit in units:
            aliases.setdefault(unit.investor, (unit.investor,))
        return cls(tuple(units), aliases, registry=registry)

    def investors(self) -> list[str]:
        """Every investor name with at least one knowledge card, in first-seen order."""
        return list(dict.fromkeys(c.investor for c in self.cards))

    def for_investor(self, name: str) -> list[KnowledgeCard]:
        """The knowledge cards of one investor (matched by name or alias, case-insensitive)."""
        canonical = self.canonical(name)
        return [c for c in self.cards if c.investor == canonical]

    def canonical(self, name: str) -> str | None:
        """The investor name ``name`` refers to, or None: a registry id, name or alias found as
        :func:`ipb.engine.investors.get_investor` finds it (:func:`~ipb.engine.investors.find_investor`), else the
        investor of a card outside the registry, named as the card names it (case and runs of spaces aside)."""
        found = find_investor(name, self.registry)
        if found is not None:
            return str(found.name)
        folded = fold_name(name)
        for canonical, names in self.aliases.items():
            if any(fold_name(n) == folded for n in names):
                return canonical
        return None

    def named_in(self, text: str) -> list[str]:
        """The investors whose name or alias occurs in ``text`` as whole words, in order of first mention."""
        low = " " + normalize(text) + " "
        found: list[tuple[int, str]] = []
        for canonical, names in self.aliases.items():
            positions = [low.find(" " + normalize(n) + " ") for n in names if normalize(n)]
            positions = [p for p in positions if p >= 0]
            if positions:
                found.append((min(positions), canonical))
        return [name for _, name in sorted(found)]

    def retrieve(
        self,
        query: str,
        investors: Sequence[str] = (),
        *,
        k: int = 3,
        method: str = "embedding",
        encoder: Encoder | None = None,
    ) -> Retrieval:
        """The top ``k`` knowledge cards of each named investor for ``query``.

        Parameters
        ----------
        query : str
            The question text.
        investors : sequence of str
            Investor names or aliases; empty or unknown: the investors
            :meth:`named_in` the query, and the whole base when it names none.
        k : int
            Cards per investor (paper §7.2: 3).
        method : {"embedding", "keyword"}
            Cosine similarity with ``encoder``, or BM25 over word stems.
            Embeddings fall back to keywords when the encoder cannot be loaded.
        encoder : Encoder, optional
            Default :func:`~ipb.scoring.embeddings.default_encoder`.

        Returns
        -------
        Retrieval
            Cards ranked best first within each investor; investors in the
            order given. Ties keep the knowledge base's order.

        Raises
        ------
        RespondError
            ``method`` is not one of :data:`METHODS`, ``k`` < 1, or an investor is not
            in the registry (a :class:`ScoreError`, labelled ``respond error``).
        """
        if method not in METHODS:
            raise RespondError(f"unknown retrieval method {method!r}; expected one of {', '.join(METHODS)}",
                             rule="retrieval", name=method)
        if k < 1:
            raise RespondError(f"top-k must be at least 1, got {k}", rule="retrieval")
        unknown = [n for n in investors if self.canonical(n) is None]
        if unknown:
            known = list(self.aliases)
            raise RespondError(
                f"investor {unknown[0]!r} is not in the registry, so condition B has no knowledge cards for it "
                "(other investors' cards are not substituted); a card of your own registers its investor in a "
                "registry file passed with --investors FILE (docs/scoring.md, 'An investor of your own')",
                rule="unknown-investor", name=unknown[0],
                suggestion=did_you_mean(unknown[0], known))
        names = [c for c in (self.canonical(n) for n in investors) if c is not None]
        names = list(dict.fromkeys(names)) or self.named_in(query)
        pools: list[list[int]] = []
        if names:
            pools = [[i for i, c in enumerate(self.cards) if c.investor == name] for name in names]
        else:
            pools = [list(range(len(self.cards)))]
        fallback: str | None = None
        used = method
        name: str | None = None
        scores: np.ndarray | None = None
        if method == "embedding":
            enc = encoder if encoder is not None else default_encoder()
            try:
                scores = self._cosines(query, enc)
                name = encoder_name(enc)
            except (ScoreError, ImportError, OSError, RuntimeError, ValueError) as exc:
                fallback = f"embedding model unavailable ({_flat(str(exc))[:200]}); ranked by keywords"
                used = "keyword"
        if scores is None:
            scores = self._bm25(query)
        chosen: list[KnowledgeCard] = []
        chosen_scores: list[float] = []
        for pool in pools:
            ranked = sorted(pool, key=lambda i: (-float(scores[i]), i))[:k]
            chosen.extend(self.cards[i] for i in ranked)
            chosen_scores.extend(float(scores[i]) for i in ranked)
        return Retrieval(tuple(names), used, tuple(chosen), tuple(chosen_scores), encoder=name, fallback=fallback,
                         scope="named" if names else "all_investors")

    def _cosines(self, query: str, encoder: Encoder) -> np.ndarray:
        vectors = next((v for e, v in self._vectors if e is encoder), None)
        if vectors is None:
            vectors = embed(encoder, [c.text for c in self.cards])
            self._vectors.append((encoder, vectors))
        q = embed(encoder, [query])
        return cosine_matrix(q, vectors)[0]

    def _terms(self) -> tuple[list[Counter[str]], list[int], Counter[str]]:
        if self._index is None:
            docs = [Counter(content_stems(c.title + " " + c.text)) for c in self.cards]
            df: Counter[str] = Counter()
            for d in docs:
                df.update(d.keys())
            self._index = (docs, [sum(d.values()) for d in docs], df)
        return self._index

    def _bm25(self, query: str, k1: float = BM25_K1, b: float = BM25_B) -> np.ndarray:
        docs, lengths, df = self._terms()
        n = len(docs)
        if n == 0:
            return np.zeros(0)
        avg = sum(lengths) / n or 1.0
        terms = set(content_stems(query))
        out = np.zeros(n)
        for i, d in enumerate(docs):
            score = 0.0
            for t in terms:
                tf = d.get(t, 0)
                if not tf:
                    continue
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[i] / avg))
            out[i] = score
        return out


@lru_cache(maxsize=1)
def _bundled_kb() -> KnowledgeBase:
    cards: list[Card] = []
    problems: list[str] = []
    for path in bundled_card_paths():
        try:
            cards.append(compiled_card(str(path)).card)
        except IpbError as exc:
            problems.append(str(exc))
    investors: Mapping[str, Any] | None = None
    try:
        from ipb.engine.investors import load_investors

        investors = load_investors()
    except (IpbError, ImportError) as exc:
        problems.append(f"investor registry unavailable: {exc}")
    # an investor added from a user's registry file (--investors): the cards it lists, found as any card id is
    # (--cards, IPB_CARDS, the items' own copies), join the bundled ones
    from ipb.engine.investors import _bundled_path

    bundled_registry = _bundled_path().resolve()
    have = {c.id for c in cards}
    for inv in (investors or {}).values():
        if Path(inv.file).resolve() == bundled_registry:
            continue
        for card_id in inv.cards:
            if card_id in have:
                continue
            try:
                cards.append(compiled_card(card_id).card)
                have.add(card_id)
            except IpbError as exc:
                problems.append(f"card {card_id!r} of {inv.name} (listed in {inv.file}): {exc}")
    kb = KnowledgeBase.build(cards, investors)
    kb.problems = tuple(problems)
    return kb
